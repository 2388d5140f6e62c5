/* HWSQ assembler and disassembler tests (seed 004 "Opcodes" and the opcode
 * descriptions; docs/hwsq.md for the text format). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nvmodel/hwsq.h"

static size_t as(nvm_hwsq_variant v, const char *src, uint8_t *out)
{
	size_t n = 0;
	nvm_hwsq_asm_error err;
	if (nvm_hwsq_assemble(v, src, strlen(src), out, 0x200, &n, &err))
		fail_msg("line %d: %s", err.line, err.message);
	return n;
}

static void as_fails(nvm_hwsq_variant v, const char *src, int line, const char *needle)
{
	uint8_t out[0x200];
	size_t n = 0;
	nvm_hwsq_asm_error err;
	assert_int_equal(nvm_hwsq_assemble(v, src, strlen(src), out, sizeof(out), &n, &err), NVM_ERR_ARG);
	assert_int_equal(err.line, line);
	if (!strstr(err.message, needle))
		fail_msg("message '%s' lacks '%s'", err.message, needle);
}

/* Disassembles code into one string of lines. */
static void dis(nvm_hwsq_variant v, int quiet, const uint8_t *code, size_t len, char *out, size_t cap)
{
	nvm_hwsq_dis d;
	assert_int_equal(nvm_hwsq_dis_init(&d, v, quiet), NVM_OK);
	size_t pos = 0, o = 0;
	char line[NVM_HWSQ_LINE_MAX];
	while (pos < len) {
		size_t n = nvm_hwsq_dis_next(&d, code, len, &pos, line);
		assert_true(n < NVM_HWSQ_LINE_MAX);
		assert_true(o + n < cap);
		memcpy(out + o, line, n + 1);
		o += n;
	}
}

/* seed 004 "Opcodes": every opcode's encoding, byte for byte. */
static void test_encodings(void **s)
{
	(void)s;
	uint8_t b[0x200];
	size_t n = as(NVM_HWSQ_G80,
	              "wait 0x3 shl 0x1e\nwait 0\naddrlo 0x1234\ndatalo 0xbeef\n"
	              "ewait 0x1 0x1\nexit\nunset 0x1f\nset1 0x10\nset0 0x0\n"
	              "addr 0x00611200\ndata 0xdeadbeef\n",
	              b);
	static const uint8_t want[] = { 0x3f, 0x00, 0x40, 0x34, 0x12, 0x42, 0xef, 0xbe, 0x5f, 0x01, 0x01, 0x7f, 0x9f,
		                        0xb0, 0xc0, 0xe0, 0x00, 0x12, 0x61, 0x00, 0xe2, 0xef, 0xbe, 0xad, 0xde };
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
}

/* Flags and events by name in the forms earlier nvmodel took (lower case,
 * #name, $name, bare) or number; labels as values. */
static void test_names_labels(void **s)
{
	(void)s;
	uint8_t b[0x200];
	size_t n = as(NVM_HWSQ_NV41,
	              "start: set1 #fb_pause // pause\n"
	              "  ewait $fb_paused 1 /* wait */\n"
	              "  set0 gpio_9_oe\nend: .b8 end, start\n.b16 0x1234\n.b32 0x1\n",
	              b);
	static const uint8_t want[] = { 0xb0, 0x5f, 0x00, 0x01, 0xcf, 0x05, 0x00, 0x34, 0x12, 1, 0, 0, 0 };
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	assert_int_equal(nvm_hwsq_asm_label(NVM_HWSQ_NV41, "a: exit\nb: exit\n", 16, "b"), 1);
	assert_int_equal(nvm_hwsq_asm_label(NVM_HWSQ_NV41, "a: exit\nb: exit\n", 16, "c"), -1);
}

/* Variant differences: NV41+ opcodes, flag names, code RAM size. */
static void test_asm_errors(void **s)
{
	(void)s;
	as_fails(NVM_HWSQ_NV17, "exit\n\naddr 0x1\n", 3, "NV41+");
	as_fails(NVM_HWSQ_NV17, "ewait 0 1\n", 1, "NV41+");
	as_fails(NVM_HWSQ_NV17, "set1 #fb_pause\n", 1, "unknown flag");
	as_fails(NVM_HWSQ_G80, "set1 #gpio_2_out\n", 1, "unknown flag");
	as_fails(NVM_HWSQ_G80, "frob 1\n", 1, "unknown mnemonic 'frob'");
	as_fails(NVM_HWSQ_G80, "wait 4\n", 1, "wait length");
	as_fails(NVM_HWSQ_G80, "wait 1 shl 3\n", 1, "odd");
	as_fails(NVM_HWSQ_G80, "wait 1 shl 32\n", 1, "wait shift");
	as_fails(NVM_HWSQ_G80, "set1 32\n", 1, "out of range");
	as_fails(NVM_HWSQ_G80, "datalo 0x10000\n", 1, "out of range");
	as_fails(NVM_HWSQ_G80, "exit 1\n", 1, "operand");
	as_fails(NVM_HWSQ_G80, "a: exit\na: exit\n", 2, "twice");
	as_fails(NVM_HWSQ_G80, ".b8 nowhere\n", 1, "undefined label");
	as_fails(NVM_HWSQ_G80, "exit /* open\n", 0, "unterminated");
	as_fails(NVM_HWSQ_G80, "addr 0x1 + 2\n", 1, "unexpected character");
	as_fails(NVM_HWSQ_G80, "ewait #nope 1\n", 1, "unknown event");
	/* envydis/envyas fields: the ewait event is 5 bits (12:8), the value 1 bit (16). */
	as_fails(NVM_HWSQ_G80, "ewait 1 2\n", 1, "out of range");
	as_fails(NVM_HWSQ_G80, "ewait 32 1\n", 1, "out of range");
	/* Known flags by variant (hwsq.rst table): the nv17 variant covers NV17
	 * (flag 4, NV17:NV40) and NV31+ (flag 14, NV31:G80); nv41 lacks flag 4. */
	uint8_t b[2];
	assert_int_equal(as(NVM_HWSQ_NV17, "set1 #pramdac0_unk880_28\nset1 gpio_9_out\n", b), 2);
	assert_int_equal(b[0], 0xa4);
	assert_int_equal(b[1], 0xae);
	/* envydis names flags 4/5 on its nv41 variant too (feature nv17f). */
	assert_int_equal(as(NVM_HWSQ_NV41, "set1 #PRAMDAC0_UNK880_28\n", b), 1);
	assert_int_equal(b[0], 0xa4);
}

/* Any length, as envyas: the code RAM bound is the uploader's (docs/hwsq.md
 * "Assembly syntax"); the output buffer's is reported with the size needed. */
static void test_asm_length(void **s)
{
	(void)s;
	char big[0x41 * 5 + 1] = { 0 };
	for (int i = 0; i < 0x41; i++)
		strcat(big, "exit\n");
	uint8_t out[0x200];
	size_t n = 0;
	nvm_hwsq_asm_error err;
	assert_int_equal(nvm_hwsq_assemble(NVM_HWSQ_NV17, big, strlen(big), out, sizeof(out), &n, &err), NVM_OK);
	assert_int_equal(n, 0x41); /* the nv17 code RAM is 0x40 bytes */
	assert_int_equal(nvm_hwsq_assemble(NVM_HWSQ_NV17, big, strlen(big), NULL, 0, &n, &err), NVM_ERR_RANGE);
	assert_int_equal(n, 0x41);
	assert_int_equal(err.line, 0);
	memset(out, 0xee, sizeof(out));
	assert_int_equal(nvm_hwsq_assemble(NVM_HWSQ_NV17, big, strlen(big), out, 0x40, &n, &err), NVM_ERR_RANGE);
	assert_int_equal(n, 0x41);
	assert_int_equal(out[0], 0xee); /* a buffer too small is left untouched */
	/* Source errors still come first. */
	assert_int_equal(nvm_hwsq_assemble(NVM_HWSQ_NV17, "frob\n", 5, NULL, 0, &n, &err), NVM_ERR_ARG);
	assert_int_equal(n, 0);
	/* Empty source: nothing to write, and no buffer needed. */
	assert_int_equal(nvm_hwsq_assemble(NVM_HWSQ_NV17, "", 0, NULL, 0, &n, &err), NVM_OK);
	assert_int_equal(n, 0);
}

/* Disassembly in envydis' line format (envytools envydis/core-dis.c: "%08x:",
 * " xx" per byte padded to 5 opcode bytes, five spaces, the instruction;
 * names and markers from envydis/hwsq.c and easm_print.c). */
static void test_dis_format(void **s)
{
	(void)s;
	static const uint8_t code[] = { 0x05, 0x5f, 0x00, 0x01, 0xb0, 0xe2, 0x78, 0x56, 0x34, 0x12, 0xff, 0x8a, 0x7f };
	char out[1024];
	dis(NVM_HWSQ_NV41, 0, code, sizeof(code), out, sizeof(out));
	assert_string_equal(out, "00000000: 05                 wait 0x1 shl 0x2\n"
	                         "00000001: 5f 00 01           ewait #FB_PAUSED 0x1\n"
	                         "00000004: b0                 set1 #FB_PAUSE\n"
	                         "00000005: e2 78 56 34 12     data 0x12345678\n"
	                         "0000000a: ff                 ??? [unknown: ff] [unknown instruction]\n"
	                         "0000000b: 8a                 unset 0xa\n"
	                         "0000000c: 7f                 exit\n");
	dis(NVM_HWSQ_NV41, 1, code, sizeof(code), out, sizeof(out));
	assert_string_equal(out, "wait 0x1 shl 0x2\newait #FB_PAUSED 0x1\nset1 #FB_PAUSE\ndata 0x12345678\n"
	                         "??? [unknown: ff] [unknown instruction]\nunset 0xa\nexit\n");
	/* 0x00 is envydis' "nop"; ewait bits no field decodes are reported;
	 * events have names only when byte 1 is exactly that value. */
	static const uint8_t ew[] = { 0x00, 0x5f, 0x21, 0x03, 0x5f, 0x03, 0x01 };
	dis(NVM_HWSQ_G80, 1, ew, sizeof(ew), out, sizeof(out));
	assert_string_equal(out, "nop\newait 0x1 0x1 [unknown: 00 20 02]\newait #HEAD1_VBLANK 0x1\n");
}

/* Variant differences in the disassembler: NV41+ opcodes are ??? on nv17;
 * flag names follow envydis' variant (test_envydis_names has them all). */
static void test_dis_variants(void **s)
{
	(void)s;
	static const uint8_t code[] = { 0xe0, 0xbb, 0xa0 };
	char out[512];
	dis(NVM_HWSQ_NV17, 1, code, sizeof(code), out, sizeof(out));
	assert_string_equal(out, "??? [unknown: e0] [unknown instruction]\nset1 #PWM_0_ENABLE\nset1 #GPIO_2_OUT\n");
	dis(NVM_HWSQ_G92, 1, code + 1, 2, out, sizeof(out));
	assert_string_equal(out, "set1 0x1b\nset1 0x0\n");
	assert_string_equal(nvm_hwsq_flag_name(NVM_HWSQ_NV41, 16), "FB_PAUSE");
	assert_null(nvm_hwsq_flag_name(NVM_HWSQ_NV17, 16));
	assert_null(nvm_hwsq_flag_name(NVM_HWSQ_NV17, 32));
	assert_null(nvm_hwsq_event_name(NVM_HWSQ_NV17, 0));
	assert_string_equal(nvm_hwsq_event_name(NVM_HWSQ_G92, 4), "HEAD1_HBLANK");
	assert_null(nvm_hwsq_event_name(NVM_HWSQ_G92, 5));
}

/* Current envydis' names (envytools envydis/hwsq.c tabfl, tabevent and
 * the nv17f / nv41f / nv41op features; docs/hwsq.md "Flags"), written out
 * here apart from the implementation's tables. NULL: printed as a number. */
static const char *const want_nv17f[32] = {
	[0] = "GPIO_2_OUT",          [1] = "GPIO_2_OE",           [2] = "GPIO_3_OUT",
	[3] = "GPIO_3_OE",           [4] = "PRAMDAC0_UNK880_28",  [5] = "PRAMDAC1_UNK880_28",
	[6] = "PRAMDAC0_UNK880_29",  [7] = "PRAMDAC1_UNK880_29",  [14] = "GPIO_9_OUT",
	[15] = "GPIO_9_OE",          [27] = "PWM_0_ENABLE",       [28] = "PBUS_DEBUG_1_UNK22",
	[29] = "PBUS_DEBUG_1_UNK24", [30] = "PBUS_DEBUG_1_UNK26", [31] = "PBUS_DEBUG_1_UNK27",
};
static const char *const want_events[32] = { "FB_PAUSED", "HEAD0_VBLANK", "HEAD0_HBLANK", "HEAD1_VBLANK",
	                                     "HEAD1_HBLANK" };

static const char *want_flag(nvm_hwsq_variant v, unsigned f)
{
	if (v == NVM_HWSQ_NV41 && (f == 16 || f == 25 || f == 26))
		return f == 16 ? "FB_PAUSE" : f == 25 ? "PWM_2_ENABLE" : "PWM_1_ENABLE";
	if (v == NVM_HWSQ_NV17 || v == NVM_HWSQ_NV41)
		return want_nv17f[f];
	return f == 16 ? "FB_PAUSE" : NULL;
}

/* Every flag on every variant: "set1 #NAME" where envydis names it, else
 * "set1 0xN"; the text assembles back; a name the variant lacks is refused. */
static void test_envydis_flag_names(void **s)
{
	(void)s;
	for (unsigned v = 0; v < NVM_HWSQ_VARIANT_COUNT; v++) {
		for (unsigned f = 0; f < 32; f++) {
			const char *name = want_flag((nvm_hwsq_variant)v, f);
			uint8_t b = (uint8_t)(0xa0 | f);
			char out[64], want[64];
			if (name)
				snprintf(want, sizeof(want), "set1 #%s\n", name);
			else
				snprintf(want, sizeof(want), "set1 0x%x\n", f);
			dis((nvm_hwsq_variant)v, 1, &b, 1, out, sizeof(out));
			assert_string_equal(out, want);
			assert_ptr_equal(nvm_hwsq_flag_name((nvm_hwsq_variant)v, f) == NULL, name == NULL);
			uint8_t back[2];
			assert_int_equal(as((nvm_hwsq_variant)v, want, back), 1);
			assert_int_equal(back[0], b);
			/* Names of other variants: refused where this one prints a number. */
			for (unsigned o = 0; o < NVM_HWSQ_VARIANT_COUNT && !name; o++) {
				const char *other = want_flag((nvm_hwsq_variant)o, f);
				if (!other)
					continue;
				snprintf(want, sizeof(want), "set1 #%s\n", other);
				as_fails((nvm_hwsq_variant)v, want, 1, "unknown flag");
			}
		}
	}
}

/* Events of ewait on the NV41+ variants: named only when byte 1 is exactly
 * 0-4 (envydis matches the whole byte), numbers otherwise. */
static void test_envydis_event_names(void **s)
{
	(void)s;
	for (unsigned v = NVM_HWSQ_NV41; v < NVM_HWSQ_VARIANT_COUNT; v++) {
		for (unsigned e = 0; e < 32; e++) {
			uint8_t code[3] = { 0x5f, (uint8_t)e, 0x01 };
			char out[96], want[64];
			if (want_events[e])
				snprintf(want, sizeof(want), "ewait #%s 0x1\n", want_events[e]);
			else
				snprintf(want, sizeof(want), "ewait 0x%x 0x1\n", e);
			dis((nvm_hwsq_variant)v, 1, code, 3, out, sizeof(out));
			assert_string_equal(out, want);
			uint8_t back[4];
			assert_int_equal(as((nvm_hwsq_variant)v, want, back), 3);
			assert_memory_equal(back, code, 3);
		}
		static const uint8_t stray[3] = { 0x5f, 0x41, 0x00 };
		char out[96];
		dis((nvm_hwsq_variant)v, 1, stray, 3, out, sizeof(out));
		assert_string_equal(out, "ewait 0x1 0x0 [unknown: 00 40 00]\n");
	}
}

/* --json's operand fields: number, name (NULL where printed as a number). */
static void test_decode_names(void **s)
{
	(void)s;
	static const uint8_t code[] = { 0xb0, 0x5f, 0x03, 0x00, 0x85, 0x5f, 0x09, 0x01, 0x3f };
	nvm_hwsq_dis d;
	nvm_hwsq_dis_init(&d, NVM_HWSQ_G80, 0);
	nvm_hwsq_insn in;
	nvm_hwsq_decode(&d, code, sizeof(code), 0, &in);
	assert_int_equal(in.opnd, NVM_HWSQ_OPND_FLAG);
	assert_int_equal(in.arg[0], 16);
	assert_string_equal(in.name, "FB_PAUSE");
	nvm_hwsq_decode(&d, code, sizeof(code), 1, &in);
	assert_int_equal(in.opnd, NVM_HWSQ_OPND_EVENT);
	assert_int_equal(in.arg[0], 3);
	assert_int_equal(in.arg[1], 0);
	assert_string_equal(in.name, "HEAD1_VBLANK");
	nvm_hwsq_decode(&d, code, sizeof(code), 4, &in);
	assert_int_equal(in.arg[0], 5);
	assert_null(in.name); /* flag 5 has no name on g80 */
	nvm_hwsq_decode(&d, code, sizeof(code), 5, &in);
	assert_int_equal(in.arg[0], 9);
	assert_null(in.name);
	nvm_hwsq_decode(&d, code, sizeof(code), 8, &in);
	assert_int_equal(in.opnd, NVM_HWSQ_OPND_WAIT);
	assert_null(in.name);
}

/* The names envydis printed before the rename (BUS_PAUSE, CRTC0/1_VBLANK)
 * and nvmodel's CRTC0/1_HBLANK still assemble, on every variant that has
 * the opcode; envyas' exact "#NAME" and nvmodel's older lower-case, $ and
 * bare forms too. */
static void test_aliases(void **s)
{
	(void)s;
	uint8_t b[16];
	for (unsigned v = 0; v < NVM_HWSQ_VARIANT_COUNT; v++) {
		assert_int_equal(as((nvm_hwsq_variant)v, "set1 #BUS_PAUSE\nunset bus_pause\n", b), 2);
		assert_int_equal(b[0], 0xb0);
		assert_int_equal(b[1], 0x90);
	}
	size_t n = as(NVM_HWSQ_G92,
	              "ewait #CRTC0_VBLANK 1\newait #CRTC0_HBLANK 0\newait $crtc1_vblank 1\newait CRTC1_HBLANK 0\n", b);
	static const uint8_t want[] = { 0x5f, 1, 1, 0x5f, 2, 0, 0x5f, 3, 1, 0x5f, 4, 0 };
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	assert_int_equal(as(NVM_HWSQ_NV41, "set0 #pwm_1_enable\nset0 $PWM_1_ENABLE\nset0 PWM_1_ENABLE\n", b), 3);
	assert_int_equal(b[0], 0xda);
	assert_int_equal(b[2], 0xda);
	as_fails(NVM_HWSQ_G80, "ewait #HEAD2_VBLANK 1\n", 1, "unknown event");
}

/* Numbers as envyas reads them (easm_lex.l): 0x hex, 0 octal, decimal;
 * 0b binary is nvmodel's own. */
static void test_numbers(void **s)
{
	(void)s;
	uint8_t b[8];
	assert_int_equal(as(NVM_HWSQ_G80, "set1 010\nset1 0x10\nset1 10\nset1 0b11\nset1 0\n", b), 5);
	static const uint8_t want[] = { 0xa8, 0xb0, 0xaa, 0xa3, 0xa0 };
	assert_memory_equal(b, want, sizeof(want));
	as_fails(NVM_HWSQ_G80, "set1 08\n", 1, "bad number");
	as_fails(NVM_HWSQ_G80, "set1 0x\n", 1, "bad number");
}

/* A whole envydis listing (envydis/core-dis.c: address, byte column, the
 * instruction) assembles: columns are dropped, the text is what counts. */
static void test_listing(void **s)
{
	(void)s;
	uint8_t b[32];
	size_t n = as(NVM_HWSQ_NV41,
	              "00000000: 05                 wait 0x1 shl 0x2\n"
	              "00000001: 5f 01 01           ewait #HEAD0_VBLANK 0x1\n"
	              "00000004: b0                 set1 #FB_PAUSE\n"
	              "00000005: e2 78 56 34 12     data 0x12345678\n"
	              "0000000a: 40 34 12           addrlo 0x1234\n"
	              "0000000d: 7f                 exit\n",
	              b);
	static const uint8_t want[] = { 0x05, 0x5f, 0x01, 0x01, 0xb0, 0xe2, 0x78,
		                        0x56, 0x34, 0x12, 0x40, 0x34, 0x12, 0x7f };
	assert_int_equal(n, sizeof(want));
	assert_memory_equal(b, want, sizeof(want));
	/* The bytes column is not checked against the text: edit the text. */
	assert_int_equal(as(NVM_HWSQ_NV41, "00000000: b0                 set0 #FB_PAUSE\n", b), 1);
	assert_int_equal(b[0], 0xd0);
	/* Not a listing line without a byte: a label of eight hex digits. */
	assert_int_equal(as(NVM_HWSQ_NV41, "deadbeef: exit\n.b8 deadbeef\n", b), 2);
	assert_int_equal(b[1], 0);
	/* What envydis could not decode does not assemble back. */
	as_fails(NVM_HWSQ_NV41, "00000000: ff                 ??? [unknown: ff] [unknown instruction]\n", 1,
	         "only valid code");
	as_fails(NVM_HWSQ_NV41, "exit\n00000001: e0 34 ?? ?? ??     addr 0x34 [incomplete]\n", 2, "only valid code");
	as_fails(NVM_HWSQ_NV41, "ewait 0x1 0x1 [unknown: 00 20 02]\n", 1, "only valid code");
	as_fails(NVM_HWSQ_NV41, "addr [0x1]\n", 1, "unexpected character '['"); /* not a marker */
}

/* Random valid code on every variant: the full and the quiet listing both
 * assemble back to the same bytes. */
static void test_listing_roundtrip(void **s)
{
	(void)s;
	uint32_t seed = 12345;
	for (unsigned v = 0; v < NVM_HWSQ_VARIANT_COUNT; v++) {
		nvm_hwsq_dis d;
		nvm_hwsq_dis_init(&d, (nvm_hwsq_variant)v, 1);
		for (int round = 0; round < 50; round++) {
			uint8_t code[256];
			size_t len = 0;
			while (len < sizeof(code) - 5) {
				seed = seed * 1103515245u + 12345u;
				uint8_t op = (uint8_t)(seed >> 16);
				nvm_hwsq_insn in;
				uint8_t ins[5] = { op, (uint8_t)(seed >> 8) & 0x1f, (uint8_t)(seed >> 24) & 1,
					           (uint8_t)(seed >> 3), (uint8_t)(seed >> 11) };
				nvm_hwsq_decode(&d, ins, 5, 0, &in);
				if (!in.known)
					continue;
				memcpy(code + len, ins, in.len);
				len += in.len;
			}
			for (int quiet = 0; quiet < 2; quiet++) {
				static char text[256 * NVM_HWSQ_LINE_MAX];
				dis((nvm_hwsq_variant)v, quiet, code, len, text, sizeof(text));
				uint8_t back[256];
				size_t n = as((nvm_hwsq_variant)v, text, back);
				assert_int_equal(n, len);
				assert_memory_equal(back, code, len);
			}
		}
	}
}

/* A multi-byte opcode cut off by the end of the input. */
static void test_dis_incomplete(void **s)
{
	(void)s;
	static const uint8_t code[] = { 0x7f, 0xe0, 0x34, 0x12 };
	char out[512];
	dis(NVM_HWSQ_G80, 0, code, sizeof(code), out, sizeof(out));
	assert_string_equal(out, "00000000: 7f                 exit\n"
	                         "00000001: e0 34 12 ?? ??     addr 0x1234 [incomplete]\n");
	nvm_hwsq_dis d;
	nvm_hwsq_dis_init(&d, NVM_HWSQ_G80, 0);
	nvm_hwsq_insn in;
	nvm_hwsq_decode(&d, code, sizeof(code), 1, &in);
	assert_int_equal(in.len, 5);
	assert_int_equal(in.avail, 3);
	assert_string_equal(in.mnemonic, "addr");
}

/* Disassemble -> assemble gives the same bytes, for every first byte on
 * every variant (operand bytes with no bits outside the decoded fields:
 * those are reported as [unknown: ...], test_dis_format). */
static void test_roundtrip(void **s)
{
	(void)s;
	for (unsigned v = 0; v < NVM_HWSQ_VARIANT_COUNT; v++) {
		nvm_hwsq_dis d;
		nvm_hwsq_dis_init(&d, (nvm_hwsq_variant)v, 1);
		for (unsigned b = 0; b < 256; b++) {
			uint8_t code[5] = { (uint8_t)b, 0x12, 0x01, 0x56, 0x78 };
			nvm_hwsq_insn in;
			nvm_hwsq_decode(&d, code, 5, 0, &in);
			if (!in.known)
				continue;
			uint8_t out[8];
			size_t n = as((nvm_hwsq_variant)v, in.text, out);
			assert_int_equal(n, in.len);
			assert_memory_equal(out, code, n);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encodings),
		cmocka_unit_test(test_names_labels),
		cmocka_unit_test(test_asm_errors),
		cmocka_unit_test(test_asm_length),
		cmocka_unit_test(test_dis_format),
		cmocka_unit_test(test_dis_variants),
		cmocka_unit_test(test_dis_incomplete),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_envydis_flag_names),
		cmocka_unit_test(test_envydis_event_names),
		cmocka_unit_test(test_decode_names),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_listing),
		cmocka_unit_test(test_listing_roundtrip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
