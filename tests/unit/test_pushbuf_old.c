/* The pushbuffer decoder, old (NV04..G80) format, GP entries and the method
 * tables. Old format: envytools hw/fifo/dma-pusher.rst "The commands -
 * pre-GF100 format" and "The pusher pseudocode - pre-GF100". GP entries:
 * gv100_dev_pbdma.ref.txt "GP_ENTRY0 and GP_ENTRY1", volta-facts.md a. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pb_rec.h"

#define N(a) (sizeof(a) / sizeof(a[0]))

static struct rec R;

/* 000CCCCCCCCCCC00SSSMMMMMMMMMMM00 / 010C...: METHOD_ADDRESS_OLD 12:2,
 * COUNT_OLD 28:18, SUBCHANNEL 15:13 (seed 000 NV_FIFO_DMA). */
static uint32_t old_hdr(bool ninc, uint32_t count, uint32_t subch, uint32_t byte_addr)
{
	return (ninc ? 0x40000000u : 0) | count << 18 | subch << 13 | (byte_addr & 0x1ffc);
}

static void decode(const char *chip, bool ib, const uint32_t *dw, size_t n)
{
	rec_decode(&R, chip, NVM_PB_FORMAT_OLD, ib, dw, n);
	assert_int_equal(R.accounted, n);
}

/* Increasing methods (NV4+): method number increases by 4 per data word. */
static void test_old_inc(void **state)
{
	(void)state;
	uint32_t pb[] = { old_hdr(false, 2, 3, 0x1ff8), 1, 2 };
	decode("nv04", false, pb, N(pb));
	assert_int_equal(R.nh, 1);
	assert_int_equal(R.h[0].count, 2);
	assert_int_equal(R.h[0].subch, 3);
	assert_int_equal(R.nm, 2);
	assert_int_equal(R.m[0].method, 0x1ff8);
	assert_int_equal(R.m[1].method, 0x1ffc);
	assert_int_equal(R.ne, 0);
}

/* Non-increasing methods exist from NV10. */
static void test_old_ninc_per_gen(void **state)
{
	(void)state;
	uint32_t pb[] = { old_hdr(true, 2, 1, 0x104), 5, 6 };
	decode("nv10", false, pb, N(pb));
	assert_int_equal(R.nm, 2);
	assert_int_equal(R.m[1].method, 0x104);
	assert_int_equal(R.m[1].mode, NVM_PB_MODE_NINC);
	decode("nv04", false, pb, N(pb));
	assert_int_equal(R.nm, 0);
	assert_int_equal(R.ne, 3); /* header and both data words: INVALID_CMD each */
	assert_int_equal(R.e[0].code, NVM_PB_ERR_INVALID_CMD);
	assert_string_equal(nvm_pb_err_interrupt(NVM_PB_ERR_INVALID_CMD, NVM_PB_FORMAT_OLD), "DMA_PUSHER INVALID_CMD");
}

/* Old jump (NV4+, NV4-style only): 001J..J00, target = word & 0x1fffffff. */
static void test_old_jump(void **state)
{
	(void)state;
	uint32_t pb[] = { 0x20001234u & ~3u };
	decode("nv04", false, pb, N(pb));
	assert_int_equal(R.nc, 1);
	assert_int_equal(R.c[0].kind, NVM_PB_CTRL_OLD_JUMP);
	assert_int_equal(R.c[0].value, 0x1234u & ~3u);
	/* G80 in IB mode: jumps are disabled */
	decode("g80", true, pb, N(pb));
	assert_int_equal(R.ne, 1);
	decode("g80", false, pb, N(pb));
	assert_int_equal(R.c[0].kind, NVM_PB_CTRL_OLD_JUMP);
}

/* Jump (..01), call (..10), return (0x00020000): NV1A+ (NV11, NV17 ...). */
static void test_jump_call_return_per_gen(void **state)
{
	(void)state;
	uint32_t pb[] = { 0x80001001u, 0x40002002u, 0x00020000u };
	static const struct {
		const char *chip;
		bool ib, ok;
	} cases[] = {
		{ "nv04", false, false }, { "nv10", false, false }, { "nv11", false, true }, { "nv17", false, true },
		{ "nv40", false, true },  { "g80", false, true },   { "g80", true, false },  { "gt215", true, false },
	};
	for (size_t i = 0; i < N(cases); i++) {
		decode(cases[i].chip, cases[i].ib, pb, N(pb));
		if (cases[i].ok) {
			assert_int_equal(R.ne, 0);
			assert_int_equal(R.nc, 3);
			assert_int_equal(R.c[0].kind, NVM_PB_CTRL_JUMP);
			assert_int_equal(R.c[0].value, 0x80001000u);
			assert_int_equal(R.c[1].kind, NVM_PB_CTRL_CALL);
			assert_int_equal(R.c[1].value, 0x40002000u);
			assert_int_equal(R.c[2].kind, NVM_PB_CTRL_RETURN);
		} else {
			/* No other form matches these words either. */
			assert_int_equal(R.nc, 0);
			assert_int_equal(R.ne, 3);
		}
	}
}

/* SLI conditional (NV40+, when sli_enable): 0000000000000001MMMMMMMMMMMMXX00;
 * sli_active = (sli_mask & mask) != 0 decides whether methods are kept. */
static void test_sli_conditional(void **state)
{
	(void)state;
	uint32_t pb[] = { 0x00010000u | (0x002u << 4), old_hdr(false, 1, 0, 0x100), 7,
		          0x00010000u | (0x001u << 4), old_hdr(false, 1, 0, 0x100), 8 };
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("nv40"), NVM_PB_FORMAT_OLD));
	cfg.subdevice_id = 0x001;
	nvm_pb_sink s = rec_sink(&R);
	decode_all(&cfg, &s, pb, N(pb));
	assert_int_equal(R.nc, 2);
	assert_int_equal(R.c[0].kind, NVM_PB_CTRL_SLI_CONDITIONAL);
	assert_int_equal(R.c[0].value, 0x002);
	assert_int_equal(R.nm, 2);
	assert_true(R.m[0].masked);
	assert_false(R.m[1].masked);
	/* Before NV40 the form does not exist. */
	decode("nv17", false, pb, 1);
	assert_int_equal(R.ne, 1);
	/* With sli_enable clear "the command effectively doesn't exist". */
	cfg.sli_enable = false;
	s = rec_sink(&R);
	decode_all(&cfg, &s, pb, 1);
	assert_int_equal(R.ne, 1);
}

/* Long non-increasing methods (G80+, IB only): count in the low 24 bits of
 * the next word; the header may end one segment and the count start the next. */
static void test_long_ninc(void **state)
{
	(void)state;
	uint32_t pb[] = { 0x00030000u | (2u << 13) | 0x100u, 0xff000003u, 1, 2, 3 };
	decode("g80", true, pb, N(pb));
	assert_int_equal(R.nh, 1);
	assert_int_equal(R.h[0].ndwords, 2);
	assert_int_equal(R.h[0].count, 3);
	assert_int_equal(R.nm, 3);
	assert_int_equal(R.m[2].method, 0x100);
	assert_int_equal(R.m[2].subch, 2);
	/* split after the header word */
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("g84"), NVM_PB_FORMAT_OLD);
	nvm_pb_sink s = rec_sink(&R);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &s);
	nvm_pb_feed(&d, pb, 1);
	nvm_pb_segment_end(&d);
	nvm_pb_feed(&d, pb + 1, 4);
	nvm_pb_finish(&d);
	assert_int_equal(R.accounted, 5);
	assert_int_equal(R.nm, 3);
	/* DMA mode: not a valid form */
	decode("g80", false, pb, 1);
	assert_int_equal(R.ne, 1);
	/* the count word never comes */
	decode("g80", true, pb, 1);
	assert_int_equal(R.ne, 1);
	assert_int_equal(R.e[0].code, NVM_PB_ERR_TRUNCATED);
}

/* GP entry: GET 31:2 and GET_HI 7:0 give (GET_HI << 32) + (GET << 2); LENGTH
 * 30:10; FETCH 0:0; PRIV 8:8; LEVEL 9:9; SYNC 31:31. */
static void test_gp_segment(void **state)
{
	(void)state;
	nvm_pb_gp_entry g;
	nvm_pb_gp_decode(0x12345679u, 0x80000000u | (0x100u << 10) | (1u << 9) | (1u << 8) | 0xabu, &g);
	assert_false(g.control);
	assert_int_equal(g.get, 0xab12345678ull);
	assert_int_equal(g.length, 0x100);
	assert_true(g.fetch_conditional);
	assert_true(g.level_subroutine);
	assert_true(g.priv);
	assert_true(g.sync_wait);
	assert_int_equal(g.err, NVM_PB_GP_OK);
	nvm_pb_gp_decode(0x1000u, 1u << 10, &g);
	assert_false(g.fetch_conditional || g.level_subroutine || g.priv || g.sync_wait);
}

/* LENGTH 0 = CONTROL: OPCODE 7:0 (NOP, ILLEGAL, GP_CRC, PB_CRC), OPERAND
 * E0 31:0. ILLEGAL or an undefined opcode raise GPENTRY. */
static void test_gp_control(void **state)
{
	(void)state;
	nvm_pb_gp_entry g;
	nvm_pb_gp_decode(0xdeadbeefu, 0x80000002u, &g);
	assert_true(g.control);
	assert_int_equal(g.opcode, NVM_PB_GP_GP_CRC);
	assert_int_equal(g.operand, 0xdeadbeefu);
	assert_true(g.sync_wait); /* SYNC applies even when LENGTH is zero */
	assert_int_equal(g.err, NVM_PB_GP_OK);
	assert_string_equal(nvm_pb_gp_op_name(g.opcode), "gp_crc");
	nvm_pb_gp_decode(0, 3, &g);
	assert_string_equal(nvm_pb_gp_op_name(g.opcode), "pb_crc");
	nvm_pb_gp_decode(0, 0, &g);
	assert_int_equal(g.err, NVM_PB_GP_OK);
	assert_string_equal(nvm_pb_gp_op_name(g.opcode), "nop");
	nvm_pb_gp_decode(0, 1, &g);
	assert_int_equal(g.err, NVM_PB_GP_ERR_ILLEGAL);
	nvm_pb_gp_decode(0, 4, &g);
	assert_int_equal(g.err, NVM_PB_GP_ERR_BAD_OPCODE);
	assert_null(nvm_pb_gp_op_name(4));
}

/* clc86f.h (gh100): GP_ENTRY1 OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE with
 * GP_ENTRY0 PB_EXTENDED_BASE_OPERAND 24:8; OPCODE 5 stays undefined. The
 * gh100 profile defines it, gv100..ga102 do not. */
static void test_gp_extended_base(void **state)
{
	(void)state;
	nvm_pb_gp_entry g;
	nvm_pb_gp_decode_gen(0xfe0003ffu, 4, true, &g);
	assert_int_equal(g.err, NVM_PB_GP_OK);
	assert_int_equal(g.opcode, NVM_PB_GP_SET_PB_SEGMENT_EXTENDED_BASE);
	assert_int_equal(g.extended_base, 3); /* bits 31:25 and 7:0 are not the operand */
	assert_int_equal(g.operand, 0xfe0003ffu);
	assert_string_equal(nvm_pb_gp_entry_op_name(&g), "set_pb_segment_extended_base");
	nvm_pb_gp_decode_gen(0x01ffff00u, 4, true, &g);
	assert_int_equal(g.extended_base, 0x1ffff);
	nvm_pb_gp_decode_gen(0, 5, true, &g);
	assert_int_equal(g.err, NVM_PB_GP_ERR_BAD_OPCODE);
	assert_null(nvm_pb_gp_entry_op_name(&g));
	nvm_pb_gp_decode_gen(0x300, 4, false, &g);
	assert_int_equal(g.err, NVM_PB_GP_ERR_BAD_OPCODE);
	assert_int_equal(g.extended_base, 0);
	assert_null(nvm_pb_gp_entry_op_name(&g));
	assert_true(nvm_pb_gen_lookup("gh100")->gp_extended_base);
	static const char *const older[] = { "gv100", "tu102", "ga100", "ga102", "g80" };
	for (size_t i = 0; i < N(older); i++)
		assert_false(nvm_pb_gen_lookup(older[i])->gp_extended_base);
}

/* A segment whose last PB entry is the last dword of the 40-bit VA is
 * invalid (GPENTRY); one ending a dword earlier is fine. */
static void test_gp_end_of_va(void **state)
{
	(void)state;
	nvm_pb_gp_entry g;
	/* start 0xFF_FFFF_FFF0, 4 dwords: ends at 2^40 */
	nvm_pb_gp_decode(0xfffffff0u, 0xffu | (4u << 10), &g);
	assert_int_equal(g.err, NVM_PB_GP_ERR_END_OF_VA);
	nvm_pb_gp_decode(0xfffffff0u, 0xffu | (3u << 10), &g);
	assert_int_equal(g.err, NVM_PB_GP_OK);
}

/* The method tables: sorted (the lookup is a binary search), fields inside 31:0. */
static void test_class_tables(void **state)
{
	(void)state;
	static const uint32_t ids[] = { 0xc36f, 0xc3b5 };
	for (size_t k = 0; k < N(ids); k++) {
		const nvm_pb_class *c = nvm_pb_class_find(ids[k]);
		assert_non_null(c);
		for (size_t i = 0; i < c->nmethods; i++) {
			const nvm_pb_method *m = nvm_pb_class_method_at(c, i);
			if (i)
				assert_true(nvm_pb_class_method_at(c, i - 1)->addr < m->addr);
			assert_int_equal(m->addr & 3, 0);
			assert_ptr_equal(nvm_pb_class_method(c, m->addr), m);
			for (unsigned f = 0; f < m->nfields; f++) {
				assert_true(nvm_pb_method_field(m, f)->hi <= 31);
				assert_true(nvm_pb_method_field(m, f)->hi >= nvm_pb_method_field(m, f)->lo);
			}
		}
	}
	/* host-c36f-facts.md: SEM_EXECUTE = 0x6C; ce-c3b5-facts.md: LAUNCH_DMA = 0x300 */
	assert_string_equal(nvm_pb_name(nvm_pb_class_method(nvm_pb_class_find(0xc36f), 0x6c)->name), "SEM_EXECUTE");
	assert_int_equal(nvm_pb_class_method_by_name(nvm_pb_class_find_tag("c3b5"), "launch_dma")->addr, 0x300);
	assert_null(nvm_pb_class_method(nvm_pb_class_find(0xc3b5), 0x304));
	assert_null(nvm_pb_class_find(0x902e));
	assert_non_null(nvm_pb_host_class(nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW));
	/* before Fermi the old format's host methods are the channel class's */
	assert_int_equal(nvm_pb_host_class(nvm_pb_gen_lookup("nv40"), NVM_PB_FORMAT_OLD)->id, 0x406e);
	assert_int_equal(nvm_pb_host_class(nvm_pb_gen_lookup("nv17"), NVM_PB_FORMAT_OLD)->id, 0x006e);
	assert_int_equal(nvm_pb_host_class(nvm_pb_gen_lookup("gt215"), NVM_PB_FORMAT_OLD)->id, 0x866f);
	assert_null(nvm_pb_host_class(nvm_pb_gen_lookup("nv04"), NVM_PB_FORMAT_OLD)); /* 006C defines no method */
	assert_null(nvm_pb_host_class(nvm_pb_gen_lookup("ga100"), NVM_PB_FORMAT_OLD));
}

static const nvm_pb_field *field_of(const nvm_pb_method *m, const char *name)
{
	for (unsigned f = 0; m && f < m->nfields; f++)
		if (!strcmp(nvm_pb_name(nvm_pb_method_field(m, f)->name), name))
			return nvm_pb_method_field(m, f);
	return NULL;
}

/* Methods and field positions read off the facts files, checked entry by
 * entry (host-c36f-facts.md, volta-facts.md section b "MEM_OP fields",
 * ce-c3b5-facts.md). */
static void test_class_facts(void **state)
{
	(void)state;
	static const struct {
		uint32_t cls, addr;
		const char *method, *field;
		uint8_t hi, lo;
	} facts[] = {
		{ 0xc36f, 0x000, "SET_OBJECT", "NVCLASS", 15, 0 },
		{ 0xc36f, 0x000, "SET_OBJECT", "ENGINE", 20, 16 },
		{ 0xc36f, 0x024, "FB_FLUSH", "HANDLE", 31, 0 },
		{ 0xc36f, 0x028, "MEM_OP_A", "TLB_INVALIDATE_SYSMEMBAR", 11, 11 },
		{ 0xc36f, 0x028, "MEM_OP_A", "TLB_INVALIDATE_INVALIDATION_SIZE", 5, 0 },
		{ 0xc36f, 0x028, "MEM_OP_A", "TLB_INVALIDATE_CANCEL_MMU_ENGINE_ID", 6, 0 },
		{ 0xc36f, 0x030, "MEM_OP_C", "TLB_INVALIDATE_REPLAY", 4, 2 },
		{ 0xc36f, 0x030, "MEM_OP_C", "TLB_INVALIDATE_PAGE_TABLE_LEVEL", 9, 7 },
		{ 0xc36f, 0x030, "MEM_OP_C", "ACCESS_COUNTER_CLR_TARGETED_NOTIFY_TAG", 19, 0 },
		{ 0xc36f, 0x034, "MEM_OP_D", "OPERATION", 31, 27 },
		{ 0xc36f, 0x034, "MEM_OP_D", "ACCESS_COUNTER_CLR_TYPE", 1, 0 },
		{ 0xc36f, 0x034, "MEM_OP_D", "ACCESS_COUNTER_CLR_TARGETED_BANK", 6, 3 },
		{ 0xc36f, 0x06c, "SEM_EXECUTE", "RELEASE_WFI", 20, 20 },
		{ 0xc36f, 0x06c, "SEM_EXECUTE", "REDUCTION", 30, 27 },
		{ 0xc36f, 0x084, "CLEAR_FAULTED", "CHID", 11, 0 },
		{ 0xc3b5, 0x300, "LAUNCH_DMA", "DATA_TRANSFER_TYPE", 1, 0 },
		{ 0xc3b5, 0x300, "LAUNCH_DMA", "SEMAPHORE_TYPE", 4, 3 },
		{ 0xc3b5, 0x240, "SET_SEMAPHORE_A", "UPPER", 16, 0 },
		{ 0xc3b5, 0x1114, "PM_TRIGGER_END", "V", 31, 0 },
	};
	for (size_t i = 0; i < N(facts); i++) {
		const nvm_pb_method *m = nvm_pb_class_method(nvm_pb_class_find(facts[i].cls), facts[i].addr);
		assert_non_null(m);
		assert_string_equal(nvm_pb_name(m->name), facts[i].method);
		const nvm_pb_field *f = field_of(m, facts[i].field);
		if (!f)
			fail_msg("%s.%s missing", facts[i].method, facts[i].field);
		assert_int_equal(f->hi, facts[i].hi);
		assert_int_equal(f->lo, facts[i].lo);
	}
	/* Values: PAGE_TABLE_LEVEL UP_TO_PDE4/5 = 6/7 (host-c36f-facts.md MEM_OP_C);
	 * WFI SCOPE 0 is CURRENT_VEID on Volta (volta-facts.md section b; the
	 * header also names it CURRENT_SCG_TYPE). */
	const nvm_pb_field *lvl =
	        field_of(nvm_pb_class_method(nvm_pb_class_find(0xc36f), 0x30), "TLB_INVALIDATE_PAGE_TABLE_LEVEL");
	assert_string_equal(nvm_pb_name(nvm_pb_field_value(lvl, lvl->nvalues - 1u)->name), "UP_TO_PDE5");
	assert_int_equal(nvm_pb_field_value(lvl, lvl->nvalues - 1u)->value, 7);
	const nvm_pb_field *scope = field_of(nvm_pb_class_method(nvm_pb_class_find(0xc36f), 0x78), "SCOPE");
	bool veid = false;
	for (unsigned i = 0; i < scope->nvalues; i++)
		veid |= !strcmp(nvm_pb_name(nvm_pb_field_value(scope, i)->name), "CURRENT_VEID") &&
		        nvm_pb_field_value(scope, i)->value == 0;
	assert_true(veid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_old_inc),         cmocka_unit_test(test_old_ninc_per_gen),
		cmocka_unit_test(test_old_jump),        cmocka_unit_test(test_jump_call_return_per_gen),
		cmocka_unit_test(test_sli_conditional), cmocka_unit_test(test_long_ninc),
		cmocka_unit_test(test_gp_segment),      cmocka_unit_test(test_gp_control),
		cmocka_unit_test(test_gp_end_of_va),    cmocka_unit_test(test_gp_extended_base),
		cmocka_unit_test(test_class_tables),    cmocka_unit_test(test_class_facts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
