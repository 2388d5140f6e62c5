/*
 * Host methods of class C36F beyond the basics (issue 9): the legacy
 * SEMAPHOREA-D as NVIDIA's UVM uses them, NON_STALL_INTERRUPT, MEM_OP
 * (privilege, TLB invalidates through the GMMU), YIELD, CLEAR_FAULTED with
 * its retry and timeout, acquire timeouts and CRC_CHECK
 * (gv100_dev_pbdma.ref "HOST METHODS", volta-facts.md b, clc36f.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "host_env.h"

/* clc36f.h SEMAPHORED; UVM's release is A, B, C, D = RELEASE | 4BYTE |
 * WFI_DIS (payload only); 16BYTE writes payload, 0 and the timestamp
 * (silicon H100); ACQ_GEQ compares circularly (UNVERIFIED, as UVM needs). */
static void legacy_semaphores(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 4, 0x77777777u);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 0x14, 0x77777777u);
	uint32_t pb[] = {
		HDR_INC(0, 0x10, 4),
		(uint32_t)(sva >> 32),
		(uint32_t)sva,
		0xabc,
		2u | 1u << 24 | 1u << 20, /* 4BYTE */
		HDR_INC(0, 0x10, 4),
		(uint32_t)(sva >> 32),
		(uint32_t)sva + 0x10,
		0xdef,
		2u, /* 16BYTE */
	};
	env_push(&e, c, pb, 10);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(env_mem(&e, spa), 0xabc);
	assert_int_equal(env_mem(&e, spa + 4), 0x77777777u);
	assert_int_equal(env_mem(&e, spa + 0x10), 0xdef);
	assert_int_equal(env_mem(&e, spa + 0x14), 0);
	assert_true(env_mem(&e, spa + 0x18) != 0);
	/* ACQ_GEQ across the wrap: memory 5 is "after" payload 0xfffffff0 */
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 0x20, 5);
	uint32_t acq[] = { HDR_INC(0, 0x10, 4),
		           (uint32_t)(sva >> 32),
		           (uint32_t)sva + 0x20,
		           0xfffffff0u,
		           4u | 1u << 12,
		           HDR_INC(0, 0x200, 1),
		           1 };
	env_push(&e, c, acq, 7);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	/* an OPERATION that is not one-hot: SEMAPHORE */
	uint32_t bad[] = { HDR_INC(0, 0x1c, 1), 3 };
	env_push(&e, c, bad, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 25);
	assert_int_equal(rd(e.gpu, PB0 + 0xc0) & 0x3ffc, 0x1c); /* the method that carried it */
	env_fini(&e);
}

/* NON_STALL_INT sets NV_PFIFO_INTR_0 CHANNEL_INTR (31) and does not stall. */
static void non_stall_interrupt(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x20, 1), 0x1234, HDR_INC(0, 0x200, 1), 1 };
	env_push(&e, c, pb, 4);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, 0x2100) >> 31, 1);
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	wr(e.gpu, 0x2100, 1u << 31);
	assert_int_equal(rd(e.gpu, 0x2100) >> 31, 0);
	env_fini(&e);
}

static uint64_t xlate(struct env *e, struct env_chan *c, uint64_t va)
{
	nvm_mmu_request q = { .inst_addr = c->inst,
		              .veid = -1,
		              .va = va,
		              .engine_id = NVM_MMU_ENG_HOST0,
		              .client_type = NVM_MMU_CLIENT_HUB,
		              .client_id = 6 };
	nvm_mmu_result r;
	assert_int_equal(nvm_mmu_translate(e->gpu, &q, &r), NVM_OK);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	return r.pa;
}

/* MEM_OP_D MMU_TLB_INVALIDATE reaches the GMMU (a stale TLB entry is
 * dropped); it needs CONFIG AUTH_LEVEL PRIVILEGED, else INTR_0 METHOD. */
static void mem_op_tlb_invalidate(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t pa1, va = env_map(&e, 4096, &pa1), pa2 = env_alloc(&e, 4096, 4096);
	assert_int_equal(xlate(&e, c, va), pa1);
	ptb_map(&e.pt, va, 4096, ptb_pte(pa2, 0, 0, 0));
	assert_int_equal(xlate(&e, c, va), pa1); /* stale until invalidated */
	uint32_t pb[] = { HDR_INC(0, 0x28, 4),
		          0,
		          0,
		          1 /* PDB ALL */,
		          9u << 27 /* MMU_TLB_INVALIDATE */,
		          HDR_INC(0, 0x34, 1),
		          5u << 27 /* MEMBAR */,
		          HDR_INC(0, 0x24, 1),
		          0 /* FB_FLUSH */ };
	env_push(&e, c, pb, 9);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0);
	assert_int_equal(xlate(&e, c, va), pa2);
	/* a non-privileged channel */
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0xf4, 0x1000);
	wr(e.gpu, 0x2634, 5); /* preempt: the next load reads the new CONFIG */
	uint32_t pb2[] = { HDR_INC(0, 0x34, 1), 9u << 27 };
	env_push(&e, c, pb2, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 21);
	env_fini(&e);
}

/* YIELD OP TSG: the next channel of the TSG runs, then the yielding one
 * continues; an undefined OP raises METHOD. */
static void yield_tsg(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *a, *b;
	env_tsg_pair(&e, 3, 1, 2, &a, &b);
	uint32_t pa_[] = { HDR_INC(0, 0x200, 1), 1, HDR_INC(0, 0x80, 1), 3, HDR_INC(0, 0x200, 1), 2 };
	uint32_t pb_[] = { HDR_INC(0, 0x204, 1), 9 };
	env_push(&e, a, pa_, 6);
	env_push(&e, b, pb_, 2);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 3);
	assert_int_equal(log[0].data, 1);
	assert_int_equal(log[1].data, 9);
	assert_int_equal(log[2].data, 2);
	uint32_t bad[] = { HDR_INC(0, 0x80, 1), 1 };
	env_push(&e, a, bad, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 21);
	env_fini(&e);
}

/* CLEAR_FAULTED clears the target's FAULTED bit (TYPE PBDMA_FAULTED) and
 * the target runs again (UVM's clear_faulted after a fault is serviced). */
static void clear_faulted(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 1), *b = env_chan(&e, 1, 2);
	env_two_tsgs(&e, a, b, 128, 3);
	/* a faults on its pushbuffer fetch */
	env_gp(&e, a, 0x7000000000ull, 2, 0);
	env_kick(&e, a);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x800004 + 8) >> 22 & 1, 1);
	/* the fault is serviced (the page mapped), then b clears PBDMA_FAULTED */
	uint32_t apb[] = { HDR_INC(0, 0x200, 1), 0xa };
	uint64_t pa = env_alloc(&e, 4096, 4096);
	nvm_mem_write(e.gpu, NVM_AP_VRAM, pa, apb, sizeof(apb));
	ptb_map(&e.pt, 0x7000000000ull, 4096, ptb_pte(pa, 0, 0, 0));
	wr(e.gpu, 0x100cbc, 0x80000003u);
	uint32_t bpb[] = { HDR_INC(0, 0x84, 1), 1u /* CHID 1, TYPE PBDMA_FAULTED */, HDR_INC(0, 0x200, 1), 0xb };
	env_push(&e, b, bpb, 4);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, 0x800004 + 8) >> 22 & 1, 0);
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 2);
	assert_int_equal(log[0].data, 0xb);
	assert_int_equal(log[1].data, 0xa);
	env_fini(&e);
}

/* CLEAR_FAULTED of a channel that never faults: INTR_0 CLEAR_FAULTED_ERROR
 * (20) once NV_PFIFO_CLEAR_FAULTED_TIMEOUT has passed. */
static void clear_faulted_timeout(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	wr(e.gpu, 0x2a14, 0x80000000u | 8); /* DETECTION, PERIOD 8 (x 1024 ns) */
	uint32_t pb[] = { HDR_INC(0, 0x84, 1), 7 };
	env_push(&e, c, pb, 2);
	env_run(&e, 5000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0); /* still retrying */
	env_run(&e, 20000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 20);
	assert_int_equal(rd(e.gpu, PB0 + 0xc4), 7);
	env_fini(&e);
}

/* dev_pbdma ACQUIRE: with TIMEOUT_EN, an acquire that fails for
 * 1024 * MAN * 2^EXP ns raises INTR_0 ACQUIRE; without it, it waits. */
static void acquire_timeout(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 5);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0x30, 1u << 31 | 3u << 15 | 1u << 11); /* 3 * 2 * 1024 ns */
	env_submit_tsg(&e, 0, 1, &c, 1);
	env_run(&e, 100000);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	uint32_t pb[] = { HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 1, 0, 0 };
	env_push(&e, c, pb, 6);
	uint64_t t0 = nvm_time_ns(e.gpu);
	env_run(&e, 3000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0);
	assert_int_equal(rd(e.gpu, PB0 + 0x44) >> 19 & 1, 1); /* SEM_EXECUTE ACQUIRE_FAIL */
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 26);
	assert_true(nvm_time_ns(e.gpu) - t0 >= 6144);
	/* software releases the semaphore and clears: the acquire completes */
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa, 1);
	wr(e.gpu, PB0 + 0x108, 1u << 26);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0);
	env_fini(&e);
}

/* CRC_CHECK against the CRC-32 (0x04c11db7, MSB first) of the methods sent
 * to engines, each as 6 bytes (data, dword address, subchannel; the layout
 * is UNVERIFIED), least significant byte first. */
static uint32_t crc_methods(const uint32_t *m, const uint32_t *d, unsigned n, unsigned subch)
{
	uint32_t crc = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t v = d[i] | (uint64_t)(m[i] >> 2) << 32 | (uint64_t)subch << 44;
		for (int b = 0; b < 6; b++) {
			crc ^= (uint32_t)(uint8_t)(v >> (8 * b)) << 24;
			for (int k = 0; k < 8; k++)
				crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04c11db7u : crc << 1;
		}
	}
	return crc;
}

static void crc_check(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	/* off (the default): not checked */
	uint32_t pb0[] = { HDR_INC(0, 0x200, 1), 5, HDR_INC(0, 0x7c, 1), 0x1234 };
	env_push(&e, c, pb0, 4);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0);
	assert_int_equal(nvm_host_set_method_crc(e.gpu, 1), NVM_OK);
	uint32_t m[] = { 0x200, 0x204 }, d[] = { 7, 8 };
	uint32_t good = crc_methods(m, d, 2, 0);
	uint32_t pb[] = { HDR_INC(0, 0x200, 2), 7,   8, HDR_INC(0, 0x7c, 1), good, HDR_INC(0, 0x200, 1), 1,
		          HDR_INC(0, 0x7c, 1),  good };
	env_push(&e, c, pb, 9);
	env_run(&e, 100000);
	/* the first check passed and cleared METHOD_CRC; the second mismatches */
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 22);
	assert_int_equal(rd(e.gpu, PB0 + 0xc4), good);
	env_fini(&e);
}

/* SEM_EXECUTE acquires at their edges (dev_pbdma SEM_EXECUTE; silicon
 * H100: a 32-bit acquire ignores the upper word; CIRC_GEQ is signed(mem -
 * payload) >= 0 at the payload width). */
static void acquire_edges(void **state)
{
	(void)state;
	struct {
		uint32_t exec;
		uint64_t mem, payload;
		int ok;
	} cases[] = {
		{ 0, 0x100000005ull, 5, 1 },                   /* ACQUIRE ==, 32-bit: upper word ignored */
		{ 0 | 1u << 24, 0x100000005ull, 5, 0 },        /* 64-bit: compared */
		{ 2, 0xfffffff0u, 0x10, 1 },                   /* STRICT_GEQ unsigned */
		{ 2, 5, 0xfffffff0u, 0 },                      /* STRICT_GEQ: no wrap */
		{ 3, 5, 0xfffffff0u, 1 },                      /* CIRC_GEQ: 5 is after 0xfffffff0 */
		{ 3, 0xfffffff0u, 0x10, 0 },                   /* CIRC_GEQ: and not before */
		{ 3 | 1u << 24, 5, 0xfffffffffffffff0ull, 1 }, /* CIRC_GEQ, 64-bit wrap */
		{ 3 | 1u << 24, 0xfffffff0u, 0x10, 1 },        /* 64-bit: no 32-bit wrap */
		{ 4, 0x6, 0x3, 1 },                            /* ACQ_AND: 6 & 3 != 0 */
		{ 4, 0x4, 0x3, 0 },                            /* ACQ_AND: 4 & 3 == 0 */
		{ 5, 0xfffffff0u, 0x0f, 0 },                   /* ACQ_NOR: ~(f0 | 0f) == 0 at 32 bits */
		{ 5, 0xfffffff0u, 0x07, 1 },                   /* ACQ_NOR: bit 3 free */
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct env e;
		struct env_chan *c = env_one_channel(&e);
		uint64_t spa;
		uint64_t sva = env_map(&e, 4096, &spa);
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa, (uint32_t)cases[k].mem);
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 4, (uint32_t)(cases[k].mem >> 32));
		uint32_t pb[] = { HDR_INC(0, 0x5c, 5),
			          (uint32_t)sva,
			          (uint32_t)(sva >> 32),
			          (uint32_t)cases[k].payload,
			          (uint32_t)(cases[k].payload >> 32),
			          cases[k].exec,
			          HDR_INC(0, 0x200, 1),
			          1 };
		env_push(&e, c, pb, 8);
		env_run(&e, 100000);
		nvm_method log[2];
		assert_int_equal(env_log(&e, "gr", log, 2), cases[k].ok);
		env_fini(&e);
	}
}

/* dev_pbdma: a 64-bit semaphore needs 8-byte alignment and a timestamped
 * release 16; otherwise INTR_0 SEMAPHORE and memory unchanged. PREEMPT of a
 * TSG (TYPE 25:24 = 1) saves its channel. */
static void semaphore_alignment_and_tsg_preempt(void **state)
{
	(void)state;
	struct {
		uint32_t off, exec;
		int intr;
	} cases[] = {
		{ 4, 1u | 1u << 24, 1 },  /* 64-bit release at +4 */
		{ 8, 1u | 1u << 24, 0 },  /* 64-bit release at +8 */
		{ 8, 1u | 1u << 25, 1 },  /* timestamped release at +8 */
		{ 16, 1u | 1u << 25, 0 }, /* timestamped release at +16 */
		{ 4, 0u | 1u << 24, 1 },  /* 64-bit acquire at +4 */
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct env e;
		struct env_chan *c = env_one_channel(&e);
		uint64_t spa;
		uint64_t sva = env_map(&e, 4096, &spa) + cases[k].off;
		uint32_t pb[] = { HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 0x77, 0, cases[k].exec };
		env_push(&e, c, pb, 6);
		env_run(&e, 100000);
		assert_int_equal(rd(e.gpu, PB0 + 0x108), cases[k].intr ? 1u << 25 : 0);
		assert_int_equal(env_mem(&e, spa + cases[k].off), cases[k].intr || !(cases[k].exec & 7) ? 0 : 0x77);
		env_fini(&e);
	}
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint32_t sw[] = { HDR_INC(5, 0x100, 1), 1 };
	env_push(&e, c, sw, 2);
	env_run(&e, 100000);
	nvm_host_channel info;
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.pbdma, 0);
	wr(e.gpu, PB0 + 0xc0, 0);
	wr(e.gpu, PB0 + 0x108, 1u << 23);
	wr(e.gpu, 0x2630, 1);            /* hold the runlist */
	wr(e.gpu, 0x2634, 1u << 24 | 1); /* PREEMPT TSG 1 */
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.pbdma, -1);
	assert_int_equal(rd(e.gpu, 0x2634) >> 20 & 1, 0);
	env_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(legacy_semaphores),     cmocka_unit_test(non_stall_interrupt),
		cmocka_unit_test(mem_op_tlb_invalidate), cmocka_unit_test(yield_tsg),
		cmocka_unit_test(clear_faulted),         cmocka_unit_test(clear_faulted_timeout),
		cmocka_unit_test(acquire_timeout),       cmocka_unit_test(crc_check),
		cmocka_unit_test(acquire_edges),         cmocka_unit_test(semaphore_alignment_and_tsg_preempt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
