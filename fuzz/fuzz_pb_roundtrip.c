/*
 * Round trip on arbitrary bytes: decode with the asm-style printer,
 * assemble the text, and require the same words back. Byte 0 picks the chip
 * profile and mode. Also assembles the bytes as text (the assembler must
 * fail cleanly or succeed on anything) and, when that succeeds without a
 * .format switch, checks decode -> asm gives the assembled words again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvmodel/pushbuf.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_pb_roundtrip: %s\n", what);
		abort();
	}
}

static bool contains(const uint8_t *d, size_t n, const char *s)
{
	size_t k = strlen(s);
	for (size_t i = 0; i + k <= n; i++)
		if (!memcmp(d + i, s, k))
			return true;
	return false;
}

static void roundtrip(const nvm_pb_config *cfg, const uint32_t *w, size_t n)
{
	nvm_pb_out out = { 0 };
	nvm_pb_printer p;
	nvm_pb_printer_init(&p, NVM_PB_STYLE_ASM, cfg, w, 0, n, &out);
	p.bound[4] = nvm_pb_class_find(0xc3b5);
	nvm_pb_sink s = nvm_pb_printer_sink(&p);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, cfg, &s);
	nvm_pb_printer_begin(&p);
	nvm_pb_feed(&d, w, n);
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	nvm_pb_printer_end(&p);
	if (out.oom) {
		nvm_pb_out_free(&out);
		return;
	}
	nvm_pb_asm_result r;
	check(nvm_pb_asm(out.buf, out.len, NVM_PB_FORMAT_NEW, &r), "printed asm does not assemble");
	check(r.n == n && (n == 0 || !memcmp(r.words, w, n * sizeof(*w))), "asm gives different words");
	free(r.words);
	nvm_pb_out_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t sel = data[0];
	data++;
	size--;
	const nvm_pb_gen *gen = nvm_pb_gen_get((sel & 0x0f) % 11);
	nvm_pb_config cfg;
	if (!gen || !nvm_pb_config_init(&cfg, gen, gen->native))
		return 0;
	cfg.ib_mode = sel & 0x10;
	size_t n = size / 4;
	uint32_t *w = malloc((n ? n : 1) * sizeof(*w));
	if (!w)
		return 0;
	memcpy(w, data, n * 4);
	roundtrip(&cfg, w, n);
	free(w);

	/* the bytes as assembler text */
	nvm_pb_asm_result r;
	if (nvm_pb_asm((const char *)data, size, NVM_PB_FORMAT_NEW, &r)) {
		if (!contains(data, size, ".format") && r.n) {
			nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
			roundtrip(&cfg, r.words, r.n);
		}
		free(r.words);
	}
	return 0;
}
