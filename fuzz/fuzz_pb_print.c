/*
 * Every output style of the pushbuffer decoder (`pb decode --style`):
 * text, json, mesa and asm, with classes bound on subchannels, both
 * formats. Byte 0 picks the chip profile (bit 5: one of the new format's),
 * byte 1 the style and the classes, the rest are PB entries. Checks: the printer ends in a clean state, no
 * NUL byte gets into the text, JSON lines are one object each, and the text
 * and JSON styles print the same bytes with their compiled methods (print.c)
 * as with every line formatted from the tables.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/pushbuf.h"
#include "pushbuf/pb_internal.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_pb_print: %s\n", what);
		abort();
	}
}

static void check_text(const nvm_pb_out *o, nvm_pb_style style)
{
	check(!o->oom, "out of memory");
	check(memchr(o->buf ? o->buf : "", 0, o->len) == NULL, "NUL byte in the output");
	if (style != NVM_PB_STYLE_JSON)
		return;
	/* JSON Lines: every line an object. */
	for (size_t i = 0; i < o->len;) {
		const char *nl = memchr(o->buf + i, '\n', o->len - i);
		check(nl != NULL, "JSON output does not end with a newline");
		size_t n = (size_t)(nl - (o->buf + i));
		check(n >= 2 && o->buf[i] == '{' && o->buf[i + n - 1] == '}', "JSON line is not an object");
		i += n + 1;
	}
}

/* The i-th (modulo their count) chip profile whose drivers write the new
 * format. */
static const nvm_pb_gen *new_format_gen(unsigned i)
{
	unsigned n = 0;
	for (size_t k = 0; nvm_pb_gen_get(k); k++)
		n += nvm_pb_gen_get(k)->native == NVM_PB_FORMAT_NEW;
	if (!n)
		return NULL;
	i %= n;
	for (size_t k = 0; nvm_pb_gen_get(k); k++)
		if (nvm_pb_gen_get(k)->native == NVM_PB_FORMAT_NEW && i-- == 0)
			return nvm_pb_gen_get(k);
	return NULL;
}

/* The input printed once; uncached: every line from the tables. */
static nvm_pb_out print(const nvm_pb_config *cfg, nvm_pb_style style, uint8_t opt, const uint32_t *w, size_t n,
                        bool uncached)
{
	nvm_pb_out out = { 0 };
	nvm_pb_printer p;
	nvm_pb_printer_init(&p, style, cfg, w, 0, n, &out);
	if (uncached)
		pb_printer_uncached(&p);
	/* Bind the known classes on the subchannels the input names. */
	static const uint32_t classes[] = { 0xc36f, 0xc3b5 };
	for (unsigned s = 0; s < 8; s++)
		if ((opt >> 2) & (1u << (s % 6)))
			p.bound[s] = nvm_pb_class_find(classes[s & 1]);
	nvm_pb_sink sink = nvm_pb_printer_sink(&p);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, cfg, &sink);
	nvm_pb_printer_begin(&p);
	/* Fed in two pieces with a segment end, as a GP entry boundary. */
	size_t half = (opt & 0x80) ? n / 2 : n;
	nvm_pb_feed(&d, w, half);
	nvm_pb_segment_end(&d);
	nvm_pb_feed(&d, w + half, n - half);
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	nvm_pb_printer_end(&p);
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint8_t sel = data[0], opt = data[1];
	const nvm_pb_gen *gen = (sel & 0x20) ? new_format_gen(sel & 0x0f) : nvm_pb_gen_get((sel & 0x0f) % 11);
	if (!gen)
		return 0;
	nvm_pb_config cfg;
	if (!nvm_pb_config_init(&cfg, gen, gen->native))
		return 0;
	cfg.ib_mode = sel & 0x10;
	cfg.subdevice_id = (sel & 0x40) ? 0x001 : 0xfff;
	size_t n = (size - 2) / 4;
	uint32_t *w = malloc((n ? n : 1) * sizeof(*w));
	if (!w)
		return 0;
	memcpy(w, data + 2, n * 4);
	nvm_pb_style style = (nvm_pb_style)(opt & 3);
	nvm_pb_out out = print(&cfg, style, opt, w, n, false);
	check_text(&out, style);
	if (style == NVM_PB_STYLE_TEXT || style == NVM_PB_STYLE_JSON) {
		nvm_pb_out ref = print(&cfg, style, opt, w, n, true);
		check(ref.len == out.len && (!out.len || !memcmp(ref.buf, out.buf, out.len)),
		      "compiled methods and the tables print differently");
		nvm_pb_out_free(&ref);
	}
	nvm_pb_out_free(&out);
	free(w);
	return 0;
}
