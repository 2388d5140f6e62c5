/*
 * The generated method tables (src/pushbuf/classes_gen.c): their shape, a
 * sample of method addresses, field positions and enum values read by hand
 * off NVIDIA's class headers, array methods NAME(i) and NAME(i,j), Mesa's
 * view, and the printer following SET_OBJECT.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvmodel/pushbuf.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const nvm_pb_field *field_of(const nvm_pb_method *m, const char *name)
{
	for (unsigned f = 0; m && f < m->nfields; f++)
		if (!strcmp(nvm_pb_name(nvm_pb_method_field(m, f)->name), name))
			return nvm_pb_method_field(m, f);
	return NULL;
}

/* Every class of the brief's list is there, sorted by id; each class's
 * methods are sorted, inside the method space, and every element of every
 * array finds its way back to its method. */
static void test_shape(void **state)
{
	(void)state;
	static const uint32_t want[] = {
		0x906f,
		0xa06f,
		0xa16f,
		0xa26f,
		0xb06f,
		0xc06f,
		0xc36f,
		0xc46f,
		0xc56f,
		0xc76f, /* host */
		0x90b5,
		0xa0b5,
		0xb0b5,
		0xc0b5,
		0xc1b5,
		0xc3b5,
		0xc5b5,
		0xc6b5,
		0xc7b5,
		0xc8b5,
		0xc9b5,
		0xcab5,
		0x90c0,
		0x91c0,
		0xa0c0,
		0xa1c0,
		0xb0c0,
		0xb1c0,
		0xc0c0,
		0xc1c0,
		0xc3c0,
		0xc5c0,
		0xc6c0,
		0xc7c0,
		0xc9c0,
		0xcbc0,
		0xcdc0,
		0xcec0, /* compute */
		0x9097,
		0x9197,
		0x9297,
		0xa097,
		0xa197,
		0xa297,
		0xb097,
		0xb197,
		0xc097,
		0xc197,
		0xc397,
		0xc597,
		0xc697,
		0xc797,
		0xc997,
		0xcb97,
		0xcd97,
		0xce97, /* 3D */
		0x902d,
		0xa040,
		0xa140,
		0x9039,
		/* before Fermi (006B and 006C define no method: not in the tables) */
		0x006e,
		0x206e,
		0x366e,
		0x406e,
		0x446e,
		0x506f,
		0x826f,
		0x866f, /* host */
		0x0042,
		0x004a,
		0x0065,
		0x0066,
		0x0077,
		0x007b,
		0x0039,
		0x5039,
		0x502d,
		0x50c0,
		0x85c0,
		0x85b5,
	};
	for (size_t i = 0; i < N(want); i++)
		if (!nvm_pb_class_find(want[i]))
			fail_msg("class 0x%04x missing", want[i]);
	for (size_t i = 0; nvm_pb_class_get(i); i++) {
		const nvm_pb_class *c = nvm_pb_class_get(i);
		if (i)
			assert_true(nvm_pb_class_get(i - 1)->id < c->id);
		assert_ptr_equal(nvm_pb_class_find_tag(c->tag), c);
		assert_true(c->nmethods > 0);
		for (size_t k = 0; k < c->nmethods; k++) {
			const nvm_pb_method *m = nvm_pb_class_method_at(c, k);
			if (k)
				assert_true(nvm_pb_class_method_at(c, k - 1)->addr < m->addr);
			assert_int_equal(m->addr & 3, 0);
			/* before Fermi a header addresses methods with bits 12:2 */
			uint32_t space = c->id < 0x9000 ? 0x1ffc : 0x3ffc;
			assert_true(m->addr + (m->count ? (m->count - 1u) * m->stride : 0u) <= space);
			assert_true(m->nfields > 0);
			for (unsigned f = 0; f < m->nfields; f++) {
				const nvm_pb_field *fl = nvm_pb_method_field(m, f);
				assert_true(fl->hi <= 31 && fl->hi >= fl->lo);
			}
			uint32_t n = m->count ? m->count : 1;
			for (uint32_t e = 0; e < n; e++) {
				uint32_t idx = 99999;
				assert_ptr_equal(nvm_pb_class_lookup(c, m->addr + e * m->stride, &idx), m);
				assert_int_equal(idx, e);
			}
		}
	}
}

/* Addresses, field positions and values checked one by one against the
 * headers (cl*.h of NVIDIA's open-gpu-doc). */
static void test_header_facts(void **state)
{
	(void)state;
	static const struct {
		uint32_t cls;
		const char *method; /* NAME or NAME(i) */
		uint32_t addr;
		const char *field;
		uint8_t hi, lo;
		const char *value; /* an enum value of the field and its number, or NULL */
		uint32_t v;
	} facts[] = {
		{ 0xc397, "SET_CT_SELECT", 0x121c, "TARGET_COUNT", 3, 0, NULL, 0 },
		{ 0xc397, "SET_WINDOW_ORIGIN", 0x13ac, "FLIP_Y", 4, 4, "TRUE", 1 },
		{ 0xc397, "SET_VIEWPORT_SCALE_X(3)", 0x0a60, "V", 31, 0, NULL, 0 },
		{ 0xc397, "CALL_MME_MACRO(255)", 0x3ff8, "V", 31, 0, NULL, 0 },
		{ 0xc397, "SET_STREAM_OUT_LAYOUT_SELECT(1,2)", 0x2888, "ATTRIBUTE_NUMBER01", 15, 8, NULL, 0 },
		{ 0x9097, "SET_STREAM_OUT_LAYOUT_SELECT(3,31)", 0x29fc, "ATTRIBUTE_NUMBER01", 15, 8, NULL, 0 },
		{ 0xb197, "SET_BLEND_PER_TARGET_COLOR_OP(2)", 0x1e44, "V", 31, 0, "OGL_FUNC_ADD", 0x8006 },
		{ 0xce97, "SET_COLOR_TARGET_FORMAT(1)", 0x0850, "V", 7, 0, "A8R8G8B8", 0xcf },
		{ 0xc3c0, "SEND_PCAS_A", 0x02b4, "QMD_ADDRESS_SHIFTED8", 31, 0, NULL, 0 },
		{ 0xc3c0, "LOAD_INLINE_QMD_DATA(63)", 0x041c, "V", 31, 0, NULL, 0 },
		{ 0xc6c0, "SET_QMD_VERSION", 0x0288, "CURRENT", 15, 0, NULL, 0 },
		{ 0x902d, "SET_OPERATION", 0x02ac, "V", 2, 0, "SRCCOPY", 3 },
		{ 0x9039, "LINE_LENGTH_IN", 0x031c, "VALUE", 31, 0, NULL, 0 },
		{ 0xa140, "LAUNCH_DMA", 0x01b0, "COMPLETION_TYPE", 5, 4, "RELEASE_SEMAPHORE", 2 },
		{ 0x90b5, "LAUNCH_DMA", 0x0300, "REMAP_ENABLE", 10, 10, "TRUE", 1 },
		{ 0xcab5, "LAUNCH_DMA", 0x0300, "DISABLE_PLC", 26, 26, NULL, 0 },
		{ 0xa06f, "SEMAPHORED", 0x001c, "OPERATION", 3, 0, "ACQ_GEQ", 4 },
		{ 0xc76f, "SEM_EXECUTE", 0x006c, "PAYLOAD_SIZE", 24, 24, "64BIT", 1 },
		/* values the header lists after a define of another method (MEM_OP_B's) */
		{ 0xc36f, "MEM_OP_D", 0x0034, "OPERATION", 31, 27, "L2_FLUSH_DIRTY", 0x10 },
		/* pre-Fermi: a method without field defines gets V 31:0, and the
		 * values the header gives the method itself */
		{ 0x0042, "SET_COLOR_FORMAT", 0x0300, "V", 31, 0, "LE_Y8", 1 },
		{ 0x0042, "SET_PITCH", 0x0304, "DESTIN", 31, 16, NULL, 0 },
		{ 0x0039, "FORMAT", 0x0324, "OUT", 31, 8, NULL, 0 },
		{ 0x004a, "UNCLIPPED_RECTANGLE_POINT(31)", 0x04f8, "Y", 15, 0, NULL, 0 },
		{ 0x0065, "COLOR(1791)", 0x1ffc, "V", 31, 0, NULL, 0 },
		{ 0x007b, "COLOR_B(895)", 0x1ffc, "V", 31, 0, NULL, 0 },
		{ 0x206e, "SEMAPHORE_ACQUIRE", 0x0068, "V", 31, 0, NULL, 0 },
		{ 0x506f, "YIELD", 0x0080, "V", 31, 0, NULL, 0 },
		{ 0x826f, "SEMAPHORED", 0x001c, "OPERATION", 2, 0, "ACQ_GEQ", 4 },
		{ 0x866f, "MEM_OP_B", 0x002c, "OPERATION", 31, 29, "INVALIDATE", 2 },
		{ 0x502d, "SET_OBJECT", 0x0000, "POINTER", 15, 0, NULL, 0 },
		{ 0x85b5, "SET_CTX_DMA(1)", 0x0184, "HANDLE", 31, 0, NULL, 0 },
	};
	for (size_t i = 0; i < N(facts); i++) {
		const nvm_pb_class *c = nvm_pb_class_find(facts[i].cls);
		uint32_t addr = 0, idx;
		if (!nvm_pb_class_resolve(c, facts[i].method, &addr))
			fail_msg("%04x %s not found", facts[i].cls, facts[i].method);
		if (addr != facts[i].addr)
			fail_msg("%04x %s at 0x%x, want 0x%x", facts[i].cls, facts[i].method, addr, facts[i].addr);
		const nvm_pb_method *m = nvm_pb_class_lookup(c, addr, &idx);
		char name[96];
		nvm_pb_method_format_name(m, idx, name, sizeof(name));
		assert_string_equal(name, facts[i].method);
		const nvm_pb_field *f = field_of(m, facts[i].field);
		if (!f)
			fail_msg("%s.%s missing", facts[i].method, facts[i].field);
		assert_int_equal(f->hi, facts[i].hi);
		assert_int_equal(f->lo, facts[i].lo);
		if (facts[i].value) {
			const char *vn = nvm_pb_field_value_name(f, facts[i].v);
			if (!vn || strcmp(vn, facts[i].value))
				fail_msg("%s.%s = 0x%x: %s, want %s", facts[i].method, facts[i].field, facts[i].v,
				         vn ? vn : "(none)", facts[i].value);
		}
	}
	/* arrays: counts inferred from the layout */
	assert_int_equal(nvm_pb_class_method_by_name(nvm_pb_class_find(0xc397), "SET_VIEWPORT_SCALE_X")->count, 16);
	assert_int_equal(nvm_pb_class_method_by_name(nvm_pb_class_find(0xc397), "SET_SCISSOR_ENABLE")->count, 16);
	assert_int_equal(nvm_pb_class_method_by_name(nvm_pb_class_find(0xc397), "CALL_MME_MACRO")->count, 256);
	assert_int_equal(nvm_pb_class_method_by_name(nvm_pb_class_find(0x902d), "COLOR_PATTERN_X8R8G8B8")->count, 64);
	/* outside an array, between interleaved arrays, past the end */
	uint32_t a;
	assert_false(nvm_pb_class_resolve(nvm_pb_class_find(0xc397), "SET_VIEWPORT_SCALE_X(16)", &a));
	assert_false(nvm_pb_class_resolve(nvm_pb_class_find(0xc397), "SET_VIEWPORT_SCALE_X(1", &a));
	assert_false(nvm_pb_class_resolve(nvm_pb_class_find(0xc397), "SET_CT_SELECT(0)", &a));
	assert_false(nvm_pb_class_resolve(nvm_pb_class_find(0xc397), "SET_STREAM_OUT_LAYOUT_SELECT(0,32)", &a));
	assert_null(nvm_pb_class_method(nvm_pb_class_find(0xc397),
	                                0x0160)); /* a gap after SET_INSTRUMENTATION_METHOD_DATA */
}

/* What Mesa's dumpers print: the prefix of the class the method last
 * changed in (Mesa's previous-class chain), and only the array elements of
 * its size list. */
static void test_mesa_view(void **state)
{
	(void)state;
	const nvm_pb_class *c = nvm_pb_class_find(0xc397);
	assert_non_null(c->mesa);
	bool saw_viewport = false, saw_tir = false;
	for (size_t i = 0; i < c->nmesa; i++) {
		const nvm_pb_method *m = &nvm_pb_methods[c->mesa[i].method];
		if (!strcmp(nvm_pb_name(m->name), "SET_VIEWPORT_SCALE_X")) {
			saw_viewport = true;
			assert_int_equal(c->mesa[i].prefix, 0x9097);
			assert_true(m->flags & NVM_PB_METHOD_FLOAT);
		}
		saw_tir |= !strcmp(nvm_pb_name(m->name), "SET_TIR_MODULATION_COEFFICIENT_TABLE");
		if (i)
			assert_true(nvm_pb_methods[c->mesa[i - 1].method].addr < m->addr);
	}
	assert_true(saw_viewport);
	assert_false(saw_tir);                        /* not in Mesa's size list */
	assert_null(nvm_pb_class_find(0x9197)->mesa); /* Mesa has no dumper for it */
}

struct cap {
	char *text;
	size_t len;
};

static void cap_flush(void *ctx, const char *s, size_t n)
{
	struct cap *c = ctx;
	c->text = realloc(c->text, c->len + n + 1);
	memcpy(c->text + c->len, s, n);
	c->len += n;
	c->text[c->len] = 0;
}

static char *decode_on(const char *chip, nvm_pb_format f, const uint32_t *w, size_t n, nvm_pb_style style,
                       int pin_subch, uint32_t pin_class)
{
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup(chip), f));
	struct cap cap = { 0 };
	nvm_pb_out out = { .flush = cap_flush, .ctx = &cap };
	nvm_pb_printer *p = malloc(sizeof(*p));
	nvm_pb_printer_init(p, style, &cfg, w, 0, n, &out);
	if (pin_subch >= 0)
		nvm_pb_printer_bind(p, (unsigned)pin_subch, nvm_pb_class_find(pin_class), true);
	nvm_pb_sink sink = nvm_pb_printer_sink(p);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &sink);
	nvm_pb_feed(&d, w, n);
	nvm_pb_finish(&d);
	nvm_pb_printer_end(p);
	nvm_pb_out_free(&out);
	free(p);
	return cap.text;
}

static char *decode_text(const uint32_t *w, size_t n, nvm_pb_style style, int pin_subch, uint32_t pin_class)
{
	return decode_on("gv100", NVM_PB_FORMAT_NEW, w, n, style, pin_subch, pin_class);
}

/* SET_OBJECT rebinds a subchannel; --class (a pinned binding) wins over it;
 * an unknown class is reported once and its methods print as numbers. */
static void test_set_object(void **state)
{
	(void)state;
	uint32_t w[] = {
		0x20018000, 0x90b5, /* subch 4: SET_OBJECT 90B5 */
		0x200180c0, 0x182,  /* LAUNCH_DMA */
		0x2001a000, 0xc4b5, /* subch 5: a class without a table */
		0x2001a0c0, 0x1,    0x2001a000, 0xc4b5,
	};
	char *t = decode_text(w, N(w), NVM_PB_STYLE_TEXT, -1, 0);
	assert_non_null(strstr(t, "90B5.LAUNCH_DMA DATA_TRANSFER_TYPE=NON_PIPELINED"));
	const char *u = strstr(t, "unknown class 0xc4b5 on subchannel 5");
	assert_non_null(u);
	assert_null(strstr(u + 1, "unknown class"));
	assert_non_null(strstr(t, "00000007: 00000001   mthd 0x0300\n"));
	free(t);
	t = decode_text(w, N(w), NVM_PB_STYLE_TEXT, 4, 0xc3b5);
	assert_non_null(strstr(t, "C3B5.LAUNCH_DMA"));
	free(t);
	/* Mesa keeps only the chip's own classes (nv_device_uses_class): 90B5
	 * leaves subchannel 4 unbound on gv100 */
	t = decode_text(w, N(w), NVM_PB_STYLE_MESA, -1, 0);
	assert_non_null(strstr(t, "\tmthd 0300 unknown method\n\t\t.VALUE = 0x182\n"));
	free(t);
	t = decode_text(w, N(w), NVM_PB_STYLE_MESA, 4, 0x90b5);
	assert_non_null(strstr(t, "\tmthd 0300 NV85B5_LAUNCH_DMA\n\t\t.DATA_TRANSFER_TYPE = NON_PIPELINED\n"));
	free(t);
}

/* Mesa names a host method with the host class whose high byte matches the
 * class on the subchannel (nv_push_class_dump.h): on Turing C597's
 * subchannel gets C56F (MEM_OP_A with Ampere's INVAL_SCOPE), A140's A16F
 * (no SEM_EXECUTE); our own style names the channel's class (C46F). */
static void test_mesa_host(void **state)
{
	(void)state;
	uint32_t w[] = {
		0x2001000a, 0x12345678, /* subch 0: MEM_OP_A */
		0x2001401b, 0x1,        /* subch 2: SEM_EXECUTE */
		0x2001a01b, 0x1,        /* subch 5 (nothing bound): SEM_EXECUTE */
		0x20016000, 0xa140,     /* subch 3: SET_OBJECT A140 */
	};
	char *t = decode_on("tu102", NVM_PB_FORMAT_NEW, w, N(w), NVM_PB_STYLE_MESA, -1, 0);
	assert_non_null(strstr(t, "\tmthd 0028 NVC56F_MEM_OP_A\n"));
	assert_non_null(strstr(t, "\t\t.TLB_INVALIDATE_INVAL_SCOPE = LINK_TLBS\n"));
	assert_non_null(strstr(t, "subch 2 NINC\n\tmthd 006c unknown method\n\t\t.VALUE = 0x1\n"));
	assert_non_null(strstr(t, "subch 5 NINC\n\tmthd 006c NVC36F_SEM_EXECUTE\n"));
	/* SET_OBJECT is named after the class it binds: A140 -> A16F's chain */
	assert_non_null(strstr(t, "subch 3 NINC\n\tmthd 0000 NV906F_SET_OBJECT\n"));
	free(t);
	t = decode_on("tu102", NVM_PB_FORMAT_NEW, w, N(w), NVM_PB_STYLE_TEXT, -1, 0);
	assert_non_null(strstr(t, "C46F.MEM_OP_A"));
	assert_non_null(strstr(t, "mthd 0x006c C46F.SEM_EXECUTE"));
	free(t);
}

/* Before Fermi SET_OBJECT takes a handle: it names the channel class's
 * method and leaves the --class binding alone. */
static void test_old_set_object(void **state)
{
	(void)state;
	uint32_t w[] = {
		0x00042000, 0x80000011, /* subch 1: SET_OBJECT <handle> */
		0x00042300, 0x00000003, /* SET_COLOR_FORMAT */
	};
	char *t = decode_on("nv17", NVM_PB_FORMAT_OLD, w, N(w), NVM_PB_STYLE_TEXT, 1, 0x004a);
	assert_non_null(strstr(t, "mthd 0x0000 006E.SET_OBJECT V=0x80000011\n"));
	assert_non_null(strstr(t, "mthd 0x0300 004A.SET_COLOR_FORMAT V=LE_X8R8G8B8\n"));
	free(t);
	t = decode_on("nv17", NVM_PB_FORMAT_OLD, w, N(w), NVM_PB_STYLE_TEXT, -1, 0);
	assert_non_null(strstr(t, "00000003: 00000003   mthd 0x0300\n")); /* no class: a number */
	assert_null(strstr(t, "unknown class"));
	free(t);
}

/* Float methods print as printf would: "%g" in the text style, "%ff" in
 * Mesa's (the printer formats common values itself). */
static void test_floats(void **state)
{
	(void)state;
	static const float vals[] = { 0.0f,      -0.0f,     1.0f,       -1.0f, 0.5f,     960.0f,  540.5f,
		                      1920.25f,  0.1f,      3.25e-3f,   1e-4f, 5e-5f,    1e9f,    123456.0f,
		                      123456.5f, 1234567.f, -0.015625f, 1e-7f, 65504.0f, 1.0f / 3 };
	uint32_t w[1 + 2 * N(vals)];
	size_t n = 0;
	for (size_t i = 0; i < N(vals); i++) {
		uint32_t bits;
		memcpy(&bits, &vals[i], 4);
		w[n++] = 0x20010280; /* INC subch 0 SET_VIEWPORT_SCALE_X(0), 1 entry */
		w[n++] = bits;
	}
	char *t = decode_text(w, n, NVM_PB_STYLE_TEXT, -1, 0);
	char *m = decode_text(w, n, NVM_PB_STYLE_MESA, -1, 0);
	for (size_t i = 0; i < N(vals); i++) {
		char want[96];
		uint32_t bits;
		memcpy(&bits, &vals[i], 4);
		snprintf(want, sizeof(want), "V=0x%x (%g)\n", bits, (double)vals[i]);
		if (!strstr(t, want))
			fail_msg("text: no '%s'", want);
		snprintf(want, sizeof(want), ".V = %ff (0x%x)\n", (double)vals[i], bits);
		if (!strstr(m, want))
			fail_msg("mesa: no '%s'", want);
	}
	free(t);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shape),          cmocka_unit_test(test_header_facts),
		cmocka_unit_test(test_mesa_view),      cmocka_unit_test(test_set_object),
		cmocka_unit_test(test_floats),         cmocka_unit_test(test_mesa_host),
		cmocka_unit_test(test_old_set_object),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
