/* HWSQ model tests: registers, execution, flags, events, pokes, FB pause.
 * Each test cites the seed 004 section (or the envytools page) it checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"

#include "hwsq/hwsq_internal.h"
#include "nvmodel/hwsq.h"
#include "nvmodel/nvmodel.h"

#define DEBUG_6          0x1098u
#define ENABLE           (1u << 3)
#define OVERRIDE_MODE    (1u << 4)
#define ENTRY_POINT      0x1304u
#define STATUS           0x1308u
#define TRIGGER          0x130cu
#define FLAGS_0          0x1310u
#define FLAGS_1          0x1314u
#define ENTRY_POINT_HIGH 0x1318u
#define CODE             0x1400u
#define EVENTS           0x1578u
#define NEW_CODE         0x80000u
#define START_A          0x3u /* type start, slot A */
#define START_B          0x1u
#define ABORT_A          0x2u
#define ABORT_B          0x0u

struct pokes {
	int n;
	uint64_t t[64];
	uint32_t addr[64], val[64];
};

static void poke_hook(void *user, const nvm_event *ev)
{
	struct pokes *p = user;
	if (strcmp(ev->block, "hwsq") || strcmp(ev->code, "poke") || p->n == 64)
		return;
	p->t[p->n] = ev->time_ns;
	p->addr[p->n] = (uint32_t)ev->addr;
	p->val[p->n] = (uint32_t)ev->value;
	p->n++;
}

static nvm_gpu *open_chip(const char *chip)
{
	nvm_gpu *gpu = NULL;
	nvm_config cfg = { .chip = chip, .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

/* Assembles src and uploads it through the code window at 0x1400 (and
 * 0x80000 beyond 0x100 on g92), as a driver would. */
static size_t upload(nvm_gpu *gpu, const char *src)
{
	nvm_hwsq_variant v;
	assert_int_equal(nvm_hwsq_gpu_variant(gpu, &v), NVM_OK);
	uint8_t code[0x200] = { 0 };
	size_t n = 0;
	nvm_hwsq_asm_error err;
	nvm_status st = nvm_hwsq_assemble(v, src, strlen(src), code, sizeof(code), &n, &err);
	if (st)
		fail_msg("asm line %d: %s", err.line, err.message);
	for (size_t i = 0; i < n; i += 4) {
		uint32_t w = (uint32_t)code[i] | (uint32_t)code[i + 1] << 8 | (uint32_t)code[i + 2] << 16 |
		             (uint32_t)code[i + 3] << 24;
		wr(gpu, i < 0x100 ? CODE + (uint32_t)i : NEW_CODE + (uint32_t)i, w);
	}
	return n;
}

static void run_ns(nvm_gpu *gpu, uint64_t ns)
{
	nvm_run_opts o = { .ns = ns };
	nvm_run(gpu, &o);
}

static nvm_hwsq_state state(nvm_gpu *gpu)
{
	nvm_hwsq_state st;
	assert_int_equal(nvm_hwsq_get_state(gpu, &st), NVM_OK);
	return st;
}

/* ---------------------------------------------------------------- registers */

/* seed 004 "MMIO registers" and "Code space": window sizes per variant. */
static void test_code_windows(void **s)
{
	(void)s;
	static const struct {
		const char *chip;
		uint32_t size;
		int events, high;
	} t[] = {
		{ "nv17", 0x40, 0, 0 },
		{ "nv41", 0x80, 1, 0 },
		{ "g80", 0x100, 1, 0 },
		{ "g92", 0x200, 1, 1 },
	};
	for (size_t i = 0; i < 4; i++) {
		nvm_gpu *gpu = open_chip(t[i].chip);
		uint32_t win = t[i].size < 0x100 ? t[i].size : 0x100;
		/* Little-endian words over byte RAM: read back byte by byte. */
		wr(gpu, CODE + win - 4, 0x44332211u);
		assert_int_equal(rd(gpu, CODE + win - 4), 0x44332211u);
		uint64_t unmod = nvm_event_count(gpu, NVM_EV_UNMODELLED);
		if (win < 0x100) {
			wr(gpu, CODE + win, 0x1234);
			assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), unmod + 1);
		}
		unmod = nvm_event_count(gpu, NVM_EV_UNMODELLED);
		rd(gpu, EVENTS);
		assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), unmod + !t[i].events);
		unmod = nvm_event_count(gpu, NVM_EV_UNMODELLED);
		rd(gpu, ENTRY_POINT_HIGH);
		rd(gpu, NEW_CODE);
		assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), unmod + (t[i].high ? 0 : 2));
		assert_int_equal(nvm_hwsq_code_size((nvm_hwsq_variant)i), t[i].size);
		nvm_close(gpu);
	}
}

/* seed 004 "Code space": on G92 the 0x1400 window is the first 0x100 bytes
 * of the RAM that 0x80000 maps whole; byte order is little-endian. */
static void test_g92_windows_alias(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("g92");
	wr(gpu, CODE + 0x10, 0xa1b2c3d4u);
	assert_int_equal(rd(gpu, NEW_CODE + 0x10), 0xa1b2c3d4u);
	wr(gpu, NEW_CODE + 0x1fc, 0x7f000000u);
	assert_int_equal(rd(gpu, NEW_CODE + 0x1fc), 0x7f000000u);
	uint8_t byte[4] = { 0x11, 0x22, 0x33, 0x44 };
	assert_int_equal(nvm_hwsq_load(gpu, 0x20, byte, 4), NVM_OK);
	assert_int_equal(rd(gpu, CODE + 0x20), 0x44332211u);
	assert_int_equal(nvm_hwsq_load(gpu, 0x1fe, byte, 4), NVM_ERR_RANGE);
	nvm_close(gpu);
}

/* Chips without HWSQ (NV04..NV11, GV100) have no such registers. */
static void test_no_hwsq_chips(void **s)
{
	(void)s;
	const char *chips[] = { "nv04", "nv10", "nv11", "gv100" };
	for (size_t i = 0; i < 4; i++) {
		nvm_gpu *gpu = open_chip(chips[i]);
		nvm_hwsq_variant v;
		assert_int_equal(nvm_hwsq_gpu_variant(gpu, &v), NVM_ERR_NOENT);
		nvm_close(gpu);
	}
	nvm_gpu *gpu = open_chip("g84");
	nvm_hwsq_variant v;
	assert_int_equal(nvm_hwsq_gpu_variant(gpu, &v), NVM_OK);
	assert_int_equal(v, NVM_HWSQ_G80);
	nvm_close(gpu);
	gpu = open_chip("gt215");
	assert_int_equal(nvm_hwsq_gpu_variant(gpu, &v), NVM_OK);
	assert_int_equal(v, NVM_HWSQ_G92);
	nvm_close(gpu);
}

/* ---------------------------------------------------------------- execution */

/* seed 004 "PTIMER wait opcodes": (len << (shift*2)) * 0x20 PTIMER clocks,
 * one clock = one 0x20 step of TIME (32 ns); "Script execution" STATUS: the
 * IP points past a wait in progress, exit does not advance it. */
static void test_wait_and_status(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv17");
	upload(gpu, "wait 0x1 shl 0x2\nexit\n"); /* 4 units: 4 * 0x20 * 32 ns */
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 1);
	uint32_t st = rd(gpu, STATUS);
	assert_int_equal(st & 0xff, 1);     /* past the wait */
	assert_int_equal((st >> 8) & 1, 1); /* executing */
	run_ns(gpu, 4 * 0x20 * 32 - 2);     /* t = 4095: still waiting */
	assert_int_equal((rd(gpu, STATUS) >> 8) & 1, 1);
	run_ns(gpu, 1); /* t = 4096: done */
	st = rd(gpu, STATUS);
	assert_int_equal(st & 0xff, 1); /* on the exit */
	assert_int_equal((st >> 8) & 1, 0);
	assert_int_equal(st >> 16, 0); /* slot B never ran */
	nvm_close(gpu);
}

/* seed 004 "PTIMER wait opcodes": every length and shift encoding. */
static void test_wait_encodings(void **s)
{
	(void)s;
	for (unsigned op = 0; op < 0x40; op++) {
		uint64_t units = (uint64_t)(op & 3) << ((op >> 2) * 2);
		assert_int_equal(hwsq_wait_clocks((uint8_t)op), units * 0x20);
	}
	/* A long wait measured on PTIMER itself. */
	nvm_gpu *gpu = open_chip("g80");
	uint32_t t0 = rd(gpu, 0x9400);
	upload(gpu, "wait 0x3 shl 0x8\nexit\n"); /* 3 << 8 = 768 units */
	wr(gpu, TRIGGER, START_A);
	nvm_run_opts o = { .ns = 10000000000ull, .flags = NVM_RUN_UNTIL_IDLE };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_IDLE);
	uint32_t t1 = rd(gpu, 0x9400);
	assert_int_equal(t1 - t0, 768u * 0x20 * 32);
	assert_int_equal(nvm_time_ns(gpu), 768u * 0x20 * 32);
	nvm_close(gpu);
}

/* seed 004 "Script execution": four entry points; G92 adds bit 8 through
 * ENTRY_POINT_HIGH and reports IP bit 8 in STATUS bit 10. */
static void test_entry_points(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv41");
	upload(gpu, "exit\nexit\nexit\nexit\n");
	wr(gpu, ENTRY_POINT, 0x03020100u);
	for (unsigned e = 0; e < 4; e++) {
		wr(gpu, TRIGGER, START_A | (e << 2));
		run_ns(gpu, 10);
		assert_int_equal(rd(gpu, STATUS) & 0xffff, e);
	}
	nvm_close(gpu);

	gpu = open_chip("g92");
	uint8_t ex = 0x7f;
	assert_int_equal(nvm_hwsq_load(gpu, 0x150, &ex, 1), NVM_OK);
	wr(gpu, ENTRY_POINT, 0x00005000u);      /* entry 1 low byte 0x50 */
	wr(gpu, ENTRY_POINT_HIGH, 0x00000100u); /* entry 1 bit 8 */
	wr(gpu, TRIGGER, START_A | (1u << 2));
	run_ns(gpu, 10);
	uint32_t st = rd(gpu, STATUS);
	assert_int_equal(st & 0xff, 0x50);
	assert_int_equal((st >> 10) & 1, 1);
	assert_int_equal(state(gpu).slot[0].ip, 0x150);
	nvm_close(gpu);
}

/* seed 004 TRIGGER bit 1 / STATUS bits 16-31: slot B runs from its own IP;
 * G92 has one slot, STATUS 31:16 stay 0 and bit 1 of TRIGGER is ignored. */
static void test_slots(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("g80");
	upload(gpu, "exit\nwait 0x1\nexit\n");
	wr(gpu, ENTRY_POINT, 0x00000100u); /* entry 0 = 0, entry 1 = 1 */
	wr(gpu, TRIGGER, START_B | (1u << 2));
	run_ns(gpu, 1);
	uint32_t st = rd(gpu, STATUS);
	assert_int_equal(st & 0x1ff, 0);             /* A idle */
	assert_int_equal((st >> 16) & 0x1ff, 0x102); /* B executing, past the wait */
	run_ns(gpu, 2000);
	assert_int_equal((rd(gpu, STATUS) >> 16) & 0x1ff, 0x002);
	nvm_close(gpu);

	gpu = open_chip("g92");
	upload(gpu, "wait 0x1\nexit\n");
	wr(gpu, TRIGGER, START_B);
	run_ns(gpu, 1);
	st = rd(gpu, STATUS);
	assert_int_equal(st & 0x1ff, 0x101); /* started slot A */
	assert_int_equal(st >> 16, 0);
	nvm_close(gpu);
}

/* seed 004 "Script execution": no concurrent execution: a long wait on one
 * slot also hangs the other. */
static void test_wait_holds_other_slot(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv41");
	struct pokes p = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_TRACE), poke_hook, &p, NULL);
	wr(gpu, DEBUG_6, ENABLE);
	/* B: long wait (3 << 4 = 48 units); A: a poke. */
	upload(gpu, "data 0x5\naddr 0x1304\nexit\nwait 0x3 shl 0x4\nexit\n");
	wr(gpu, ENTRY_POINT, 0x00000b00u); /* entry 1 = 11: the wait */
	wr(gpu, TRIGGER, START_B | (1u << 2));
	run_ns(gpu, 10);
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 1000);
	assert_int_equal(p.n, 0); /* A is held by B's wait */
	assert_int_equal((rd(gpu, STATUS) >> 8) & 1, 1);
	run_ns(gpu, 48 * 1024);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.t[0], 48 * 1024);
	assert_int_equal(rd(gpu, ENTRY_POINT), 5);
	nvm_close(gpu);
}

/* seed 004 "MMIO poke opcodes": data/datalo/addr/addrlo and the per-slot
 * ADDR and DATA state; the address opcode triggers the write. */
static void test_pokes(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("g80");
	struct pokes p = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_TRACE), poke_hook, &p, NULL);
	wr(gpu, DEBUG_6, ENABLE);
	upload(gpu, "data 0x12345678\naddr 0x9420\ndatalo 0xabcd\naddrlo 0x1304\n"
	            "wait 0x1\ndata 0x1\naddrlo 0x1310\nexit\n");
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 10000);
	assert_int_equal(p.n, 3);
	assert_int_equal(p.addr[0], 0x9420);
	assert_int_equal(p.val[0], 0x12345678);
	assert_int_equal(p.addr[1], 0x1304);    /* ADDR = (ADDR & 0xffff0000) | imm16 */
	assert_int_equal(p.val[1], 0x1234abcd); /* DATA = (DATA & 0xffff0000) | imm16 */
	assert_int_equal(p.t[1], 0);
	assert_int_equal(p.addr[2], 0x1310);
	assert_int_equal(p.t[2], 1024);
	assert_int_equal(rd(gpu, ENTRY_POINT), 0x1234abcd);
	assert_int_equal(rd(gpu, 0x9420), 0x12345660); /* ALARM_0 keeps 31:5 */
	nvm_hwsq_state st = state(gpu);
	assert_int_equal(st.slot[0].addr, 0x1310);
	assert_int_equal(st.slot[0].data, 1);
	assert_int_equal(st.slot[1].addr, 0); /* per-slot: B untouched */
	nvm_close(gpu);
}

/* seed 004 "HWSQ_ENABLE": with 0, scripts execute but MMIO accesses hang
 * until it is set to 1. */
static void test_enable_holds_pokes(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv41");
	struct pokes p = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_TRACE), poke_hook, &p, NULL);
	upload(gpu, "set1 0x3\ndata 0x7\naddr 0x1304\nset1 0x4\nexit\n");
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 5000);
	assert_int_equal(p.n, 0);
	nvm_hwsq_state st = state(gpu);
	assert_int_equal(nvm_hwsq_flag(&st, 3), NVM_HWSQ_SET1);  /* executed */
	assert_int_equal(nvm_hwsq_flag(&st, 4), NVM_HWSQ_UNSET); /* held */
	assert_true(st.slot[0].executing);
	wr(gpu, DEBUG_6, ENABLE);
	run_ns(gpu, 10);
	assert_int_equal(p.n, 1);
	assert_int_equal(p.t[0], 5000);
	assert_int_equal(rd(gpu, ENTRY_POINT), 7);
	st = state(gpu);
	assert_int_equal(nvm_hwsq_flag(&st, 4), NVM_HWSQ_SET1);
	assert_false(st.slot[0].executing);
	nvm_close(gpu);
}

/* seed 004 "Opcodes" [NV41+ only] and "Script execution": on NV17:NV41 and
 * G92+ unknown opcodes are 1-byte nops; addr/data/ewait are unknown on nv17. */
static void test_unknown_is_nop(void **s)
{
	(void)s;
	const char *chips[] = { "nv17", "g92" };
	for (size_t i = 0; i < 2; i++) {
		nvm_gpu *gpu = open_chip(chips[i]);
		uint8_t code[] = { 0xff, 0x43, 0xe1, 0xa5, 0x7f };
		assert_int_equal(nvm_hwsq_load(gpu, 0, code, sizeof(code)), NVM_OK);
		wr(gpu, TRIGGER, START_A);
		run_ns(gpu, 100);
		uint32_t st = rd(gpu, STATUS);
		assert_int_equal(st & 0x3ff, 4); /* stopped on the exit, no illegal bit */
		nvm_hwsq_state hs = state(gpu);
		assert_int_equal(nvm_hwsq_flag(&hs, 5), NVM_HWSQ_SET1);
		nvm_close(gpu);
	}
	/* nv17: 0xe2 (data) is one unknown byte, so its immediate runs as code. */
	nvm_gpu *gpu = open_chip("nv17");
	uint8_t code[] = { 0xe2, 0xa1, 0xc2, 0x80, 0x7f };
	assert_int_equal(nvm_hwsq_load(gpu, 0, code, sizeof(code)), NVM_OK);
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 100);
	nvm_hwsq_state hs = state(gpu);
	assert_int_equal(hs.flags0, 0x00060002u); /* flag 1 set1, flag 2 set0, flag 0 unset */
	assert_int_equal(hs.slot[0].ip, 4);
	nvm_close(gpu);
}

/* seed 004 "Script execution": on NV41:G92 an unknown opcode lights the
 * illegal bit (STATUS bit 9) and hangs, still executing, until aborted. */
static void test_unknown_hangs(void **s)
{
	(void)s;
	const char *chips[] = { "nv41", "g80" };
	for (size_t i = 0; i < 2; i++) {
		nvm_gpu *gpu = open_chip(chips[i]);
		uint8_t code[] = { 0xa1, 0x60, 0xa2, 0x7f };
		assert_int_equal(nvm_hwsq_load(gpu, 0, code, sizeof(code)), NVM_OK);
		wr(gpu, TRIGGER, START_A);
		run_ns(gpu, 100000);
		uint32_t st = rd(gpu, STATUS);
		assert_int_equal((st >> 8) & 3, 3); /* executing + illegal */
		assert_int_equal(st & 0xff, 1);
		nvm_hwsq_state hs = state(gpu);
		assert_int_equal(nvm_hwsq_flag(&hs, 2), NVM_HWSQ_UNSET); /* never reached */
		assert_true(nvm_idle(gpu));
		wr(gpu, TRIGGER, ABORT_A);
		run_ns(gpu, 10);
		assert_int_equal((rd(gpu, STATUS) >> 8) & 3, 0);
		nvm_close(gpu);
	}
}

/* seed 004 "Script execution": manual abort; in some cases an abort during a
 * wait hangs with the unknown-opcode condition and a second abort is needed
 * (UNVERIFIED trigger: any abort of a wait in progress on NV41:G92). */
static void test_abort(void **s)
{
	(void)s;
	/* Plain abort of a running-but-not-waiting slot (held by ENABLE). */
	nvm_gpu *gpu = open_chip("g80");
	upload(gpu, "data 0x1\naddr 0x1304\nexit\n");
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 100);
	assert_int_equal((rd(gpu, STATUS) >> 8) & 3, 1);
	wr(gpu, TRIGGER, ABORT_A);
	assert_int_equal((rd(gpu, STATUS) >> 8) & 3, 0);
	wr(gpu, DEBUG_6, ENABLE); /* the dropped poke does not come back */
	run_ns(gpu, 100);
	assert_int_equal(rd(gpu, ENTRY_POINT), 0);
	nvm_close(gpu);

	/* Abort during a wait on g80: hang + illegal, then a second abort. */
	gpu = open_chip("g80");
	upload(gpu, "wait 0x1 shl 0x4\nexit\n");
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 100);
	wr(gpu, TRIGGER, ABORT_A);
	assert_int_equal((rd(gpu, STATUS) >> 8) & 3, 3);
	run_ns(gpu, 1000000);
	assert_int_equal((rd(gpu, STATUS) >> 8) & 3, 3); /* still hung after the wait's time */
	wr(gpu, TRIGGER, ABORT_A);
	assert_int_equal((rd(gpu, STATUS) >> 8) & 3, 0);
	nvm_close(gpu);

	/* Variants without the illegal bit just abort. */
	const char *chips[] = { "nv17", "g92" };
	for (size_t i = 0; i < 2; i++) {
		gpu = open_chip(chips[i]);
		upload(gpu, "wait 0x1 shl 0x4\nset1 0x1\nexit\n");
		wr(gpu, TRIGGER, START_A);
		run_ns(gpu, 100);
		wr(gpu, TRIGGER, ABORT_A);
		assert_int_equal((rd(gpu, STATUS) >> 8) & 7, 0);
		run_ns(gpu, 1000000);
		nvm_hwsq_state hs = state(gpu);
		assert_int_equal(nvm_hwsq_flag(&hs, 1), NVM_HWSQ_UNSET);
		assert_int_equal(hs.slot[0].ip, 1);
		nvm_close(gpu);
	}
}

/* ---------------------------------------------------------------- flags */

/* seed 004 "Flags": three states via unset/set1/set0; FLAGS_0/1 hold values
 * in 15:0 and override enables in 31:16 (rnndb; the doc's 15-31 is a typo). */
static void test_flag_states(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv17");
	upload(gpu, "set1 0x0\nset0 0x1\nset1 0x2\nunset 0x2\nset1 0x11\nset0 0x1f\nexit\n");
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 100);
	assert_int_equal(rd(gpu, FLAGS_0), (1u << 16) | (1u << 17) | 1u | (1u << 2));
	assert_int_equal(rd(gpu, FLAGS_1), (1u << 17) | (1u << 1) | (1u << 31));
	nvm_hwsq_state st = state(gpu);
	assert_int_equal(nvm_hwsq_flag(&st, 0), NVM_HWSQ_SET1);
	assert_int_equal(nvm_hwsq_flag(&st, 1), NVM_HWSQ_SET0);
	assert_int_equal(nvm_hwsq_flag(&st, 2), NVM_HWSQ_UNSET);
	assert_int_equal(nvm_hwsq_flag(&st, 17), NVM_HWSQ_SET1);
	assert_int_equal(nvm_hwsq_flag(&st, 31), NVM_HWSQ_SET0);
	nvm_close(gpu);
}

/* seed 004 "Flags": known flags override real register bits; reads follow
 * HWSQ_OVERRIDE_MODE; overrides are ignored while HWSQ_ENABLE is 0
 * (known-flags table: 28 = 1084 b22, 27 = 10f0 b31, 25 = 15fc b31 NV41:G80,
 * 4 = 680880 b28 NV17:NV40). */
static void test_flag_overrides(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv41");
	wr(gpu, 0x1084, 0x00000001u);
	upload(gpu, "set1 #pbus_debug_1_unk22\nset0 0x1b\nset1 #pwm_2_enable\nexit\n");
	wr(gpu, 0x10f0, 0x80000000u);
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 100);
	uint32_t v;
	/* HWSQ_ENABLE = 0: no override at all. */
	wr(gpu, DEBUG_6, OVERRIDE_MODE);
	assert_int_equal(rd(gpu, 0x1084), 1);
	assert_true(hwsq_reg_effective(gpu, 0x1084, &v));
	assert_int_equal(v, 1);
	/* ENABLE, READ_NORMAL: reads give the pre-override value, hw uses the override. */
	wr(gpu, DEBUG_6, ENABLE);
	assert_int_equal(rd(gpu, 0x1084), 1);
	assert_true(hwsq_reg_effective(gpu, 0x1084, &v));
	assert_int_equal(v, 1 | (1u << 22));
	/* READ_OVERRIDE: reads give what HWSQ provides. */
	wr(gpu, DEBUG_6, ENABLE | OVERRIDE_MODE);
	assert_int_equal(rd(gpu, 0x1084), 1 | (1u << 22));
	assert_int_equal(rd(gpu, 0x10f0), 0);           /* set0 forces bit 31 off */
	assert_int_equal(rd(gpu, 0x15fc), 0x80000000u); /* flag 25 */
	/* "cannot be changed by normal means": a write lands in the pre-override value. */
	wr(gpu, 0x1084, 0);
	assert_int_equal(rd(gpu, 0x1084), 1u << 22);
	nvm_close(gpu);
	/* hwsq.rst: "The FB_PAUSE flag, as opposed to all other flags, doesn't
	 * override any actual register bitfield" -- not bit 0 of register 0. */
	gpu = open_chip("nv41");
	wr(gpu, DEBUG_6, ENABLE | OVERRIDE_MODE);
	wr(gpu, 0x1314, 0x00010000u); /* flag 16: set0 */
	assert_int_equal(rd(gpu, 0x000), 0x041000a1u);
	assert_true(hwsq_reg_effective(gpu, 0x000, &v));
	assert_int_equal(v, 0x041000a1u);
	nvm_close(gpu);

	/* Per variant: 15fc is not an override target on nv17 nor g80 (flag 25
	 * is NV41:G80), 680880 bit 28 is on nv17 only. */
	gpu = open_chip("nv17");
	uint64_t u = nvm_event_count(gpu, NVM_EV_UNMODELLED);
	rd(gpu, 0x15fc);
	assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), u + 1);
	upload(gpu, "set1 #pramdac0_unk880_28\nexit\n");
	wr(gpu, DEBUG_6, ENABLE | OVERRIDE_MODE);
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 10);
	assert_int_equal(rd(gpu, 0x680880), 1u << 28);
	nvm_close(gpu);
	gpu = open_chip("g80");
	u = nvm_event_count(gpu, NVM_EV_UNMODELLED);
	rd(gpu, 0x1084);
	assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), u + 1);
	nvm_close(gpu);
}

/* Names are text only (docs/hwsq.md "Flags"): envydis names flag 4 on its
 * nv41 variant and flag 14 on its nv17 one, but hwsq.rst's known-flags
 * table puts 4 at NV17:NV40 and 14 at NV31:G80, and the model follows the
 * table: the names assemble, the flags override nothing there. */
static void test_names_text_only(void **s)
{
	(void)s;
	static const struct {
		const char *chip, *src;
		unsigned flag;
		uint32_t reg, bit;
		bool forced;
	} cases[] = {
		{ "nv41", "set1 #PRAMDAC0_UNK880_28\nexit\n", 4, 0x680880u, 28, false },
		{ "nv17", "set1 #PRAMDAC0_UNK880_28\nexit\n", 4, 0x680880u, 28, true },
		{ "nv17", "set1 #GPIO_9_OUT\nexit\n", 14, 0x60081cu, 28, false },
		{ "nv40", "set1 #GPIO_9_OUT\nexit\n", 14, 0x60081cu, 28, true },
		{ "nv40", "set1 #PRAMDAC1_UNK880_28\nexit\n", 5, 0x682880u, 28, false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		nvm_gpu *gpu = open_chip(cases[i].chip);
		upload(gpu, cases[i].src);
		wr(gpu, DEBUG_6, ENABLE | OVERRIDE_MODE);
		wr(gpu, TRIGGER, START_A);
		run_ns(gpu, 10);
		nvm_hwsq_state st;
		nvm_hwsq_get_state(gpu, &st);
		assert_int_equal(nvm_hwsq_flag(&st, cases[i].flag), NVM_HWSQ_SET1);
		uint32_t v = 0;
		assert_true(hwsq_reg_effective(gpu, cases[i].reg, &v));
		if (((v >> cases[i].bit) & 1u) != cases[i].forced)
			fail_msg("%s: %s forced=%u", cases[i].chip, cases[i].src, (v >> cases[i].bit) & 1u);
		nvm_close(gpu);
	}
}

/* ---------------------------------------------------------------- events */

/* seed 004 "Events": EVENTS reads the inputs; ewait delays the next opcode
 * until the event has the value; it can wait for 0 or 1. */
static void test_events(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv41");
	upload(gpu, "ewait #crtc0_vblank 0x1\nset1 0x1\newait 0x3 0x0\nset1 0x2\nexit\n");
	assert_int_equal(nvm_hwsq_set_event(gpu, 3, 1), NVM_OK);
	assert_int_equal(rd(gpu, EVENTS), 1u << 3);
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 1000);
	assert_int_equal(rd(gpu, STATUS) & 0x1ff, 0x103); /* waiting, IP past the ewait */
	assert_int_equal(nvm_hwsq_set_event(gpu, 1, 1), NVM_OK);
	run_ns(gpu, 500);
	nvm_hwsq_state st = state(gpu);
	assert_int_equal(nvm_hwsq_flag(&st, 1), NVM_HWSQ_SET1);
	assert_int_equal(nvm_hwsq_flag(&st, 2), NVM_HWSQ_UNSET);
	assert_int_equal(rd(gpu, EVENTS), (1u << 1) | (1u << 3));
	nvm_hwsq_set_event(gpu, 3, 0);
	run_ns(gpu, 500);
	st = state(gpu);
	assert_int_equal(nvm_hwsq_flag(&st, 2), NVM_HWSQ_SET1);
	assert_false(st.slot[0].executing);
	/* Event 0 belongs to the model; events past 31 do not exist. */
	assert_int_equal(nvm_hwsq_set_event(gpu, 0, 1), NVM_ERR_ARG);
	assert_int_equal(nvm_hwsq_set_event(gpu, 32, 1), NVM_ERR_ARG);
	nvm_close(gpu);
}

/* ---------------------------------------------------------------- FB pause */

/* seed 004 "Framebuffer pause feature": flag 16 in set1 requests the pause
 * (even with HWSQ_ENABLE = 0); FB_PAUSED (event 0) follows after a delay;
 * NV41:G80 holds memory accesses, G80+ also host MMIO; unpause releases. */
static void test_fb_pause(void **s)
{
	(void)s;
	static const struct {
		const char *chip;
		int mmio;
	} t[] = { { "nv41", 0 }, { "g80", 1 }, { "g92", 1 } };
	for (size_t i = 0; i < 3; i++) {
		nvm_gpu *gpu = open_chip(t[i].chip);
		struct pokes p = { 0 };
		nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_TRACE), poke_hook, &p, NULL);
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x100, 0x1234), NVM_OK);
		upload(gpu, "set1 #fb_pause\newait #fb_paused 0x1\nwait 0x1\nunset #fb_pause\nexit\n");
		wr(gpu, TRIGGER, START_A);
		run_ns(gpu, 10);
		nvm_hwsq_state st = state(gpu);
		assert_true(st.fb_pause);
		assert_false(st.fb_paused);
		uint32_t v;
		assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 0x100, &v), NVM_ERR_BLOCKED);
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x0, 1), NVM_ERR_BLOCKED);
		assert_int_equal(nvm_reg_read(gpu, STATUS, &v), t[i].mmio ? NVM_ERR_BLOCKED : NVM_OK);
		run_ns(gpu, 990); /* t = 1000: FB_PAUSED */
		st = state(gpu);
		assert_true(st.fb_paused);
		assert_int_equal(st.events & 1, 1);
		assert_int_equal(st.slot[0].ip, 5); /* past the ewait and the wait in progress */
		run_ns(gpu, 1024);
		st = state(gpu);
		assert_false(st.fb_pause);
		assert_false(st.fb_paused);
		assert_false(st.slot[0].executing);
		assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 0x100, &v), NVM_OK);
		assert_int_equal(v, 0x1234);
		assert_int_equal(rd(gpu, EVENTS) & 1, 0);
		nvm_close(gpu);
	}
	/* nv17 has no FB pause: flag 16 is a plain flag. */
	nvm_gpu *gpu = open_chip("nv17");
	upload(gpu, "set1 0x10\nexit\n");
	wr(gpu, TRIGGER, START_A);
	run_ns(gpu, 10000);
	uint32_t v;
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 0, &v), NVM_OK);
	assert_false(state(gpu).fb_pause);
	nvm_close(gpu);
}

/* seed 004 "Framebuffer pause feature": FB_PAUSE is a flag like the others
 * for FLAGS_1: a host write of the override state also pauses. */
static void test_fb_pause_from_flags_reg(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv41");
	wr(gpu, FLAGS_1, 0x00010001u);
	assert_true(state(gpu).fb_pause);
	uint32_t v;
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 0, &v), NVM_ERR_BLOCKED);
	wr(gpu, FLAGS_1, 0x00010000u); /* set0: no pause */
	assert_false(state(gpu).fb_pause);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 0, &v), NVM_OK);
	nvm_close(gpu);
}

/* An exit-less script wraps around the code RAM and keeps time moving
 * (UNVERIFIED quantum), so a bounded run ends. */
static void test_runaway_is_bounded(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv17");
	uint8_t code[0x40];
	memset(code, 0xa3, sizeof(code));
	assert_int_equal(nvm_hwsq_load(gpu, 0, code, sizeof(code)), NVM_OK);
	wr(gpu, TRIGGER, START_A);
	nvm_run_opts o = { .ns = 100000 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_BUDGET);
	nvm_hwsq_state st = state(gpu);
	assert_true(st.slot[0].executing);
	assert_true(st.instructions > 100000);
	nvm_close(gpu);
}

struct spin_log {
	int n;
	uint64_t addr, value;
	char msg[256];
};

static void spin_hook(void *user, const nvm_event *ev)
{
	struct spin_log *l = user;
	if (strcmp(ev->code, "spin"))
		return;
	l->n++;
	l->addr = ev->addr;
	l->value = ev->value;
	snprintf(l->msg, sizeof(l->msg), "%s", ev->message);
}

/* Every instruction is one unit of the run budget: a script that never
 * exits ends a long run as a hang, with a diagnostic naming the slot and
 * the code it spins in, and goes on in the next run. */
static void test_spin_charges_run_budget(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv17");
	uint8_t code[0x40];
	memset(code, 0xa3, sizeof(code));
	code[0x3f] = 0x00; /* ... then zeros: runs around the whole code RAM */
	assert_int_equal(nvm_hwsq_load(gpu, 0, code, sizeof(code)), NVM_OK);
	struct spin_log l = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_GUEST_ERROR), spin_hook, &l, NULL);
	wr(gpu, TRIGGER, START_A);
	nvm_run_opts o = { .ns = 10000000000ull, .max_events = 5000 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_HANG);
	nvm_hwsq_state st = state(gpu);
	assert_true(st.slot[0].executing);
	assert_true(st.instructions <= 5000);
	assert_true(st.instructions > 4000);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.value, 0); /* slot A */
	assert_int_equal(l.addr, 0);
	assert_non_null(strstr(l.msg, "slot A"));
	assert_non_null(strstr(l.msg, "0x000..0x"));
	/* The next run resumes where the budget stopped it. */
	uint64_t before = st.instructions;
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_HANG);
	assert_true(state(gpu).instructions > before + 4000);
	/* The default budget bounds a long run too. */
	o.max_events = 0;
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_HANG);
	assert_true(nvm_time_ns(gpu) < 10000000000ull);
	nvm_close(gpu);
}

/* seed 004 "MMIO poke opcodes": ADDR and DATA are per slot; both slots
 * executing interleave without mixing their state. */
static void test_interleaved_slots(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("nv41");
	struct pokes p = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_TRACE), poke_hook, &p, NULL);
	wr(gpu, DEBUG_6, ENABLE);
	upload(gpu, "a: data 0x11111111\naddr 0x1304\nexit\nb: data 0x22222222\naddr 0x9420\nexit\n");
	wr(gpu, ENTRY_POINT, 0x00000b00u); /* entry 1 = b */
	wr(gpu, TRIGGER, START_A);
	wr(gpu, TRIGGER, START_B | (1u << 2));
	run_ns(gpu, 100);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.addr[0], 0x1304);
	assert_int_equal(p.val[0], 0x11111111);
	assert_int_equal(p.addr[1], 0x9420);
	assert_int_equal(p.val[1], 0x22222222);
	uint32_t st = rd(gpu, STATUS);
	assert_int_equal(st & 0x1ff, 10);         /* A on its exit */
	assert_int_equal((st >> 16) & 0x1ff, 21); /* B on its exit */
	nvm_close(gpu);
}

/* seed 004 TRIGGER "write only", STATUS "read only"; the 0x1400 window
 * stops at 0x100 bytes even where the RAM is larger ("Code space"). */
static void test_register_access(void **s)
{
	(void)s;
	nvm_gpu *gpu = open_chip("g92");
	upload(gpu, "wait 0x1\nexit\n");
	wr(gpu, TRIGGER, START_A);
	assert_int_equal(rd(gpu, TRIGGER), 0);
	run_ns(gpu, 1);
	wr(gpu, STATUS, 0);
	assert_int_equal(rd(gpu, STATUS), 0x101);
	uint64_t u = nvm_event_count(gpu, NVM_EV_UNMODELLED);
	rd(gpu, CODE + 0x100);
	assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), u + 1);
	assert_int_equal(rd(gpu, DEBUG_6), 0); /* reset: HWSQ disabled */
	wr(gpu, DEBUG_6, 0xffffffffu);
	assert_int_equal(rd(gpu, DEBUG_6), 0x78u);
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_code_windows),
		cmocka_unit_test(test_g92_windows_alias),
		cmocka_unit_test(test_no_hwsq_chips),
		cmocka_unit_test(test_wait_and_status),
		cmocka_unit_test(test_wait_encodings),
		cmocka_unit_test(test_entry_points),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_wait_holds_other_slot),
		cmocka_unit_test(test_pokes),
		cmocka_unit_test(test_enable_holds_pokes),
		cmocka_unit_test(test_unknown_is_nop),
		cmocka_unit_test(test_unknown_hangs),
		cmocka_unit_test(test_abort),
		cmocka_unit_test(test_flag_states),
		cmocka_unit_test(test_flag_overrides),
		cmocka_unit_test(test_names_text_only),
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_fb_pause),
		cmocka_unit_test(test_fb_pause_from_flags_reg),
		cmocka_unit_test(test_runaway_is_bounded),
		cmocka_unit_test(test_spin_charges_run_budget),
		cmocka_unit_test(test_interleaved_slots),
		cmocka_unit_test(test_register_access),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
