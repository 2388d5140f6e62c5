/* The assembler and the asm-style printer: decode -> asm gives back the
 * same bytes (docs/pushbuf.md "Assembler syntax"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvmodel/pushbuf.h"

#define N(a) (sizeof(a) / sizeof(a[0]))

static nvm_pb_asm_result asm_ok(const char *text, nvm_pb_format f)
{
	nvm_pb_asm_result r;
	bool ok = nvm_pb_asm(text, strlen(text), f, &r);
	if (!ok)
		fail_msg("line %u: %s", r.line, r.msg);
	return r;
}

static void asm_fails(const char *text, unsigned line, const char *msg)
{
	nvm_pb_asm_result r;
	assert_false(nvm_pb_asm(text, strlen(text), NVM_PB_FORMAT_NEW, &r));
	assert_int_equal(r.line, line);
	if (!strstr(r.msg, msg))
		fail_msg("message \"%s\" lacks \"%s\"", r.msg, msg);
	assert_null(r.words);
}

/* Prints words in the asm style and assembles the text again. */
static void roundtrip(const char *chip, nvm_pb_format f, bool ib, const uint32_t *w, size_t n)
{
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup(chip), f));
	cfg.ib_mode = ib;
	nvm_pb_out out = { 0 };
	nvm_pb_printer p;
	nvm_pb_printer_init(&p, NVM_PB_STYLE_ASM, &cfg, w, 0, n, &out);
	p.bound[4] = nvm_pb_class_find(0xc3b5);
	nvm_pb_sink s = nvm_pb_printer_sink(&p);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &s);
	nvm_pb_printer_begin(&p);
	nvm_pb_feed(&d, w, n);
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	nvm_pb_printer_end(&p);
	assert_false(out.oom);
	nvm_pb_asm_result r;
	bool ok = nvm_pb_asm(out.buf, out.len, NVM_PB_FORMAT_NEW, &r);
	if (!ok)
		fail_msg("%s line %u: %s\n%.*s", chip, r.line, r.msg, (int)out.len, out.buf);
	assert_int_equal(r.n, n);
	assert_memory_equal(r.words, w, n * sizeof(*w));
	free(r.words);
	nvm_pb_out_free(&out);
}

/* The encodings of seed 000 section 6 (NV_FIFO_DMA_*). */
static void test_asm_encodings(void **state)
{
	(void)state;
	nvm_pb_asm_result r = asm_ok("inc 4 0x300 1 2\n"
	                             "ninc 1 0x104 7\n"
	                             "1inc 0 0x400 1, 2, 3\n"
	                             "immd 3 0x300 0x1fff\n"
	                             "nop\n"
	                             "set_subdevice_mask 0x00f\n"
	                             "store_subdevice_mask 0xfff\n"
	                             "use_subdevice_mask\n"
	                             "inc 0 0x500\n"
	                             "end_segment  # done\n",
	                             NVM_PB_FORMAT_NEW);
	static const uint32_t want[] = { 0x200280c0, 1, 2,          0x60012041, 7,          0xa0030100, 1,         2, 3,
		                         0x9fff60c0, 0, 0x000100f0, 0x0002fff0, 0x00030000, 0x20000140, 0xe0000000 };
	assert_int_equal(r.n, N(want));
	assert_memory_equal(r.words, want, sizeof(want));
	free(r.words);
}

/* Old format (envytools dma-pusher.rst): 000C..C00SSSM..M00, 010..., jumps. */
static void test_asm_old(void **state)
{
	(void)state;
	nvm_pb_asm_result r = asm_ok(".format old\n"
	                             "inc 1 0x1ffc 5\n"
	                             "ninc 2 0x104 1 2\n"
	                             "long_ninc 3 0x100 9\n"
	                             "+ 10\n"
	                             "old_jump 0x1000\n"
	                             "jump 0x80000000\n"
	                             "call 0x40\n"
	                             "return\n"
	                             "sli_conditional 0x3\n",
	                             NVM_PB_FORMAT_NEW);
	static const uint32_t want[] = { 0x00043ffc, 5,  0x40084104, 1,          2,          0x00036100, 2,
		                         9,          10, 0x20001000, 0x80000001, 0x00000042, 0x00020000, 0x00010030 };
	assert_int_equal(r.n, N(want));
	assert_memory_equal(r.words, want, sizeof(want));
	free(r.words);
}

/* Method names: TAG.NAME, host names, names of the class bound by .class. */
static void test_asm_names(void **state)
{
	(void)state;
	nvm_pb_asm_result r = asm_ok(".class 4 C3B5\ninc 4 LAUNCH_DMA 1\ninc 4 C36F.WFI 1\ninc 1 SEM_EXECUTE 0\n"
	                             "inc 2 C3B5.NOP 0\ninc 0 NOP 0\n",
	                             NVM_PB_FORMAT_NEW);
	assert_int_equal(r.words[0], 0x200180c0u);
	assert_int_equal(r.words[2], 0x2001801eu);
	assert_int_equal(r.words[4], 0x2001201bu);
	assert_int_equal(r.words[6], 0x20014040u); /* CE NOP 0x100 */
	assert_int_equal(r.words[8], 0x20010002u); /* host NOP 0x8 */
	free(r.words);
}

static void test_asm_errors(void **state)
{
	(void)state;
	asm_fails("nop\ninc 4 FOO 1\n", 2, "unknown method 'FOO'");
	asm_fails("inc 4 LAUNCH_DMA 1\n", 1, "unknown method"); /* no class bound on 4 */
	asm_fails("+ 1\n", 1, "without an open");
	asm_fails("nop\n+ 1\n", 2, "without an open");
	asm_fails("frob 1\n", 1, "unknown instruction");
	asm_fails("inc 8 0x100\n", 1, "subchannel");
	asm_fails("inc 0 0x102\n", 1, "multiple of 4");
	asm_fails("inc 0 0x4000\n", 1, "multiple of 4");
	asm_fails("immd 0 0x100 0x2000\n", 1, "13 bits");
	asm_fails("inc 0 0x100 0x100000000\n", 1, "bad data value");
	asm_fails("inc 0 0x100 zz\n", 1, "bad data value");
	asm_fails("long_ninc 0 0x100\n", 1, "does not exist in the new format");
	asm_fails(".format old\n1inc 0 0x100\n", 2, "does not exist in the old format");
	asm_fails("jump 0x100\n", 1, "does not exist in the new format");
	asm_fails(".format old\njump 0x101\n", 2, "cannot be encoded");
	asm_fails("set_subdevice_mask 0x1000\n", 1, "cannot be encoded");
	asm_fails("use_subdevice_mask 1\n", 1, "no operand");
	asm_fails(".class 9 0xc3b5\n", 1, "subchannel");
	asm_fails(".class 1 0x1234\n", 1, "unknown class");
	asm_fails(".format older\n", 1, ".format");
	asm_fails(".frob\n", 1, "unknown directive");
	/* COUNT is 13 bits: 8192 data entries do not fit */
	char *big = malloc(40000);
	strcpy(big, "ninc 0 0x100");
	size_t pos = strlen(big);
	for (int i = 0; i < 8192; i++) {
		if (i % 60 == 0) {
			memcpy(big + pos, "\n+", 2);
			pos += 2;
		}
		memcpy(big + pos, " 0", 2);
		pos += 2;
	}
	big[pos] = 0;
	asm_fails(big, 1 + 8192 / 60 + 1, "do not fit COUNT");
	free(big);
}

/* decode --style asm of the test data gives the same bytes */
static void test_roundtrip_fixed(void **state)
{
	(void)state;
	static const uint32_t pb[] = {
		0x20018000, 0xc3b5,     0x200180c0, 0x192,      0x9fff60c0, 0,          0x000100f0, 0x00030000,
		0x0002fff0, 0x20000140, 0xc0000000, 0x00040100, 0x20011100, 5,          0x00050000, 0x00030001,
		0x60022041, 1,          2,          0xe0000000, 0xdeadbeef, 0x12345678, 0x20050100, 1,
	};
	roundtrip("gv100", NVM_PB_FORMAT_NEW, false, pb, N(pb));
	roundtrip("gv100", NVM_PB_FORMAT_NEW, false, pb, 1); /* truncated right after a header */
	static const uint32_t old[] = { 0x00043ffc, 5,          0x40084104, 1,          2,
		                        0x00036100, 2,          9,          10,         0x20001000,
		                        0x80000001, 0x00000042, 0x00020000, 0x00010030, 0xffffffff,
		                        0x00036100, 0xff000001, 7,          0x00036100 };
	roundtrip("nv40", NVM_PB_FORMAT_OLD, false, old, N(old));
	roundtrip("g80", NVM_PB_FORMAT_OLD, true, old, N(old));
	roundtrip("nv04", NVM_PB_FORMAT_OLD, false, old, N(old));
}

/* Random words, biased towards valid headers with small counts. */
static void test_roundtrip_random(void **state)
{
	(void)state;
	uint32_t seed = 12345;
	uint32_t buf[600];
	static const struct {
		const char *chip;
		nvm_pb_format f;
		bool ib;
	} cfgs[] = { { "gv100", NVM_PB_FORMAT_NEW, false },
		     { "nv04", NVM_PB_FORMAT_OLD, false },
		     { "nv17", NVM_PB_FORMAT_OLD, false },
		     { "g80", NVM_PB_FORMAT_OLD, false },
		     { "g80", NVM_PB_FORMAT_OLD, true } };
	for (int iter = 0; iter < 200; iter++) {
		size_t n = 1 + iter % N(buf);
		for (size_t i = 0; i < n; i++) {
			seed = seed * 1103515245u + 12345u;
			uint32_t r = seed;
			seed = seed * 1103515245u + 12345u;
			/* keep counts small most of the time so headers and data mix */
			buf[i] = (seed & 3) ? (r & 0xe003ffffu) : r;
		}
		for (size_t c = 0; c < N(cfgs); c++)
			roundtrip(cfgs[c].chip, cfgs[c].f, cfgs[c].ib, buf, n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asm_encodings),   cmocka_unit_test(test_asm_old),
		cmocka_unit_test(test_asm_names),       cmocka_unit_test(test_asm_errors),
		cmocka_unit_test(test_roundtrip_fixed), cmocka_unit_test(test_roundtrip_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
