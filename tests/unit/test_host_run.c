/*
 * The Volta Host running channels: runlists (seed 000 section 5), RAMFC and
 * USERD (sections 3, 4), GP entries and pushbuffers (section 6,
 * volta-facts.md a), PBDMA interrupts (gv100_dev_pbdma.ref, volta-facts.md
 * c) and what silicon H100 did (refs/silicon-h100.md).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "host/host_internal.h"
#include "host_env.h"

/* A pushbuffer's engine methods reach GR with the class SET_OBJECT bound;
 * USERD shows the progress (seed 000 section 4). */
static void runs_a_pushbuffer(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	/* runlist taken: LENGTH 2, PENDING clear (gv100 ENG_RUNLIST(0), tu102 SUBMIT(0) / SUBMIT_INFO(0)) */
	assert_int_equal(env_rl_length(&e, 0), 2);
	assert_false(env_rl_pending(&e, 0));
	uint32_t pb[] = { HDR_INC(0, 0x000, 1),      0xc397, HDR_INC(0, 0x200, 3), 1, 2, 3, HDR_NINC(0, 0x300, 2), 7, 8,
		          HDR_IMMD(0, 0x400, 0x1234) };
	env_push(&e, c, pb, 10);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[16];
	size_t n = env_log(&e, "gr", log, 16);
	assert_int_equal(n, 6);
	uint32_t want_m[] = { 0x200, 0x204, 0x208, 0x300, 0x300, 0x400 };
	uint32_t want_d[] = { 1, 2, 3, 7, 8, 0x1234 };
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(log[i].method, want_m[i]);
		assert_int_equal(log[i].data, want_d[i]);
		assert_int_equal(log[i].cls, 0xc397);
		assert_int_equal(log[i].chid, 5);
	}
	/* USERD: GP_GET == GP_PUT, GET at the segment end, TOP_LEVEL_GET_HI VALID */
	assert_int_equal(env_userd(&e, c, 0x88), 1);
	assert_int_equal(env_userd(&e, c, 0x44), (uint32_t)(c->pb_va + 40));
	assert_int_equal(env_userd(&e, c, 0x60), (uint32_t)(c->pb_va >> 32));
	assert_int_equal(env_userd(&e, c, 0x5c), (uint32_t)(c->pb_va >> 32) | 0x80000000u);
	nvm_host_channel info;
	assert_int_equal(nvm_host_channel_info(e.gpu, 5, &info), NVM_OK);
	assert_int_equal(info.methods, 6);
	assert_int_equal(info.tsgid, 1);
	env_fini(&e);
}

/* Seed 000 section 5: each malformed runlist raises SCHED_ERROR BAD_TSG. */
static void bad_tsg_runlists(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 3);
	uint32_t w[4 * 4];
	struct {
		const char *what;
		unsigned n;
	} cases[] = { { "channel outside a TSG", 1 },
		      { "TSG of length 0", 1 },
		      { "TSG longer than 128", 2 },
		      { "TSG header before TSG_LENGTH entries", 3 },
		      { "end before TSG_LENGTH entries", 2 } };
	for (unsigned k = 0; k < 5; k++) {
		memset(w, 0, sizeof(w));
		switch (k) {
		case 0: env_rl_chan(w, c, 0); break;
		case 1: env_rl_tsg(w, 1, 0, 128, 3); break;
		case 2:
			env_rl_tsg(w, 1, 129, 128, 3);
			env_rl_chan(w + 4, c, 0);
			break;
		case 3:
			env_rl_tsg(w, 1, 2, 128, 3);
			env_rl_chan(w + 4, c, 0);
			env_rl_tsg(w + 8, 2, 1, 128, 3);
			break;
		default:
			env_rl_tsg(w, 1, 2, 128, 3);
			env_rl_chan(w + 4, c, 0);
			break;
		}
		env_submit(&e, 0, w, cases[k].n);
		env_run(&e, 100000);
		assert_int_equal(rd(e.gpu, 0x2100) & 0x100, 0x100); /* PFIFO_INTR_0 SCHED_ERROR */
		assert_int_equal(rd(e.gpu, 0x254c), 0x20);          /* CODE BAD_TSG */
		assert_false(env_rl_pending(&e, 0));                /* PENDING cleared */
		wr(e.gpu, 0x2100, 0x100);                           /* write 1 to clear */
		assert_int_equal(rd(e.gpu, 0x2100) & 0x100, 0);
	}
	env_fini(&e);
}

/* A bad RAMFC SIGNATURE raises PBDMA INTR_0 SIGNATURE (31) on load; the
 * PBDMA reaches PFIFO_INTR_0 PBDMA_INTR (29), INTR_PBDMA_ID and PMC. */
static void bad_signature(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 7);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0x10, 0xbeef);
	wr(e.gpu, PB0 + 0x10c, 0xffffffffu); /* INTR_EN_0 */
	wr(e.gpu, 0x2140, 1u << 29);         /* PFIFO_INTR_EN_0 PBDMA_INTR */
	wr(e.gpu, 0x160, 1u << 8);           /* PMC_INTR_EN_SET(0) PFIFO */
	env_submit_tsg(&e, 0, 1, &c, 1);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 42 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0x80000000u);
	assert_int_equal(rd(e.gpu, 0x2100) & (1u << 29), 1u << 29);
	assert_int_equal(rd(e.gpu, 0x25a0), 1);
	assert_true(nvm_intr_line(e.gpu));
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 0); /* frozen */
	/* fix the loaded state (HW_HOST_CLASS_ID 50031 is valid too) and clear:
	 * the PBDMA continues */
	wr(e.gpu, PB0 + 0x10, 50031);
	wr(e.gpu, PB0 + 0x108, 0x80000000u);
	env_run(&e, 100000);
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	assert_false(nvm_intr_line(e.gpu));
	env_fini(&e);
}

/* Seed 000 section 6 / dev_pbdma DEVICE: subchannels 5-7 go to software;
 * METHOD0 = ADDR 13:2 | SUBCH 18:16 | VALID 31, DATA0; after software
 * clears VALID and the interrupt, the channel continues. */
static void software_method(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1, HDR_INC(5, 0x104, 2), 0xaa, 0xbb, HDR_INC(0, 0x208, 1), 2 };
	env_push(&e, c, pb, 7);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 23);
	assert_int_equal(rd(e.gpu, PB0 + 0xc0), 0x80000000u | 5u << 16 | 0x104);
	assert_int_equal(rd(e.gpu, PB0 + 0xc4), 0xaa);
	nvm_method log[8];
	assert_int_equal(env_log(&e, "gr", log, 8), 1);
	/* software handles it: VALID off, clear DEVICE; the next one follows */
	wr(e.gpu, PB0 + 0xc0, 0);
	wr(e.gpu, PB0 + 0x108, 1u << 23);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0xc0), 0x80000000u | 5u << 16 | 0x108);
	assert_int_equal(rd(e.gpu, PB0 + 0xc4), 0xbb);
	wr(e.gpu, PB0 + 0xc0, 0);
	wr(e.gpu, PB0 + 0x108, 1u << 23);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(env_log(&e, "gr", log, 8), 2);
	assert_int_equal(log[1].method, 0x208);
	env_fini(&e);
}

/* Silicon H100: SEC_OP 6 raises PBENTRY; methods before it ran, nothing
 * after it; USERD GET points just past the bad word. */
static void pbentry(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1, 0xc0000000u, HDR_INC(0, 0x204, 1), 2 };
	env_push(&e, c, pb, 5);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 18);
	assert_int_equal(rd(e.gpu, PB0 + 0x118), 0xc0000000u); /* HDR_SHADOW */
	nvm_method log[8];
	assert_int_equal(env_log(&e, "gr", log, 8), 1);
	assert_int_equal(rd(e.gpu, PB0 + 0x18), (uint32_t)c->pb_va + 12); /* GET */
	wr(e.gpu, PB0 + 0x108, 1u << 18);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(env_log(&e, "gr", log, 8), 2);
	assert_int_equal(env_userd(&e, c, 0x44), (uint32_t)c->pb_va + 20);
	env_fini(&e);
}

/* volta-facts.md a: an ILLEGAL GP entry raises GPENTRY; it is discarded and
 * the next entry runs after the clear. A NOP control entry is a no-op. */
static void gpentry(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 9 };
	uint64_t va = env_pb(&e, c, pb, 2);
	env_gp_raw(&e, c, 0x12345678, 0 << 10 | 0); /* control NOP, any operand */
	env_gp_raw(&e, c, 0, 1);                    /* control ILLEGAL */
	env_gp(&e, c, va, 2, 0);
	env_kick(&e, c);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 15);
	assert_int_equal(rd(e.gpu, PB0 + 0x114), 1); /* GP_SHADOW_1 */
	wr(e.gpu, PB0 + 0x108, 1u << 15);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	env_fini(&e);
}

/* dev_pbdma GPPTR: GP_PUT at or above 1 << LIMIT2. */
static void gpptr(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->userd + 0x8c, ENV_GP_ENTRIES);
	wr(e.gpu, 0x810090, c->chid);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 14);
	env_fini(&e);
}

/* A PB fetch from an unmapped VA: an MMU fault with the HOST engine id of
 * the PBDMA (32 + 0) and PCCSR PBDMA_FAULTED; clearing it lets the channel
 * run again once the page is mapped. */
static void pb_fetch_fault(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t faults0 = nvm_event_count(e.gpu, NVM_EV_FAULT);
	env_gp(&e, c, 0x7000000000ull, 4, 0);
	env_kick(&e, c);
	env_run(&e, 100000);
	assert_int_equal(nvm_event_count(e.gpu, NVM_EV_FAULT), faults0 + 1);
	assert_int_equal(rd(e.gpu, ENV_FAULT_INST_LO) & 0x1ff, 32); /* FAULT_INST_LO ENGINE_ID: HOST0 */
	uint32_t ch = rd(e.gpu, 0x800004 + 5 * 8);
	assert_int_equal(ch >> 22 & 1, 1);
	/* map it, clear PBDMA_FAULTED (W1C) */
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 5, 0, 0 };
	uint64_t pa = env_alloc(&e, 4096, 4096);
	nvm_mem_write(e.gpu, NVM_AP_VRAM, pa, pb, sizeof(pb));
	ptb_map(&e.pt, 0x7000000000ull, 4096, ptb_pte(pa, 0, 0, 0));
	wr(e.gpu, 0x100cbc, 0x80000003u); /* invalidate all (the fault left nothing cached) */
	wr(e.gpu, 0x800004 + 5 * 8, 1u << 22);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	env_fini(&e);
}

/* SEM_EXECUTE release: 32-bit writes 4 bytes; 64-bit 8; RELEASE_TIMESTAMP
 * writes the payload (upper word 0 for 32-bit) and the PTIMER value at +8
 * (dev_pbdma, silicon H100). */
static void semaphore_release(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 4, 0xffffffffu);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 0x24, 0xffffffffu);
	uint32_t pb[] = {
		HDR_INC(0, 0x5c, 5),
		(uint32_t)sva,
		(uint32_t)(sva >> 32),
		0x11,
		0x22,
		0x1, /* 32-bit */
		HDR_INC(0, 0x5c, 5),
		(uint32_t)sva + 0x10,
		(uint32_t)(sva >> 32),
		0x33,
		0x44,
		0x1 | 1u << 24, /* 64 */
		HDR_INC(0, 0x5c, 1),
		(uint32_t)sva + 0x20,
		HDR_INC(0, 0x6c, 1),
		0x1 | 1u << 25, /* ts */
	};
	env_push(&e, c, pb, 16);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(env_mem(&e, spa), 0x11);
	assert_int_equal(env_mem(&e, spa + 4), 0xffffffffu); /* 32-bit: 4 bytes only */
	assert_int_equal(env_mem(&e, spa + 0x10), 0x33);
	assert_int_equal(env_mem(&e, spa + 0x14), 0x44);
	assert_int_equal(env_mem(&e, spa + 0x20), 0x33);
	assert_int_equal(env_mem(&e, spa + 0x24), 0); /* upper word of a 16-byte release */
	uint64_t ts = env_mem(&e, spa + 0x28) | (uint64_t)env_mem(&e, spa + 0x2c) << 32;
	assert_true(ts > 0 && ts <= nvm_time_ns(e.gpu));
	env_fini(&e);
}

/* Reductions and the invalid combinations (dev_pbdma "Semaphore reduction
 * operations"): INC/DEC at their edges; signed INC, 64-bit DEC and signed
 * 64-bit IADD raise SEMAPHORE and leave memory unchanged. */
static void semaphore_reductions(void **state)
{
	(void)state;
	struct {
		uint32_t exec, mem, payload, want;
		int intr;
	} cases[] = {
		{ 6u | 6u << 27 | 1u << 31, 5, 5, 0, 0 },            /* INC: v >= p -> 0 */
		{ 6u | 6u << 27 | 1u << 31, 4, 5, 5, 0 },            /* INC: v + 1 */
		{ 6u | 7u << 27 | 1u << 31, 0, 5, 5, 0 },            /* DEC: 0 -> p */
		{ 6u | 7u << 27 | 1u << 31, 9, 5, 5, 0 },            /* DEC: v > p -> p */
		{ 6u | 7u << 27 | 1u << 31, 3, 5, 2, 0 },            /* DEC: v - 1 */
		{ 6u | 0u << 27, 0xfffffffeu, 1, 0xfffffffeu, 0 },   /* IMIN signed: -2 < 1 */
		{ 6u | 0u << 27 | 1u << 31, 0xfffffffeu, 1, 1, 0 },  /* IMIN unsigned */
		{ 6u | 5u << 27, 0xffffffffu, 2, 1, 0 },             /* IADD wraps */
		{ 6u | 6u << 27, 1, 5, 1, 1 },                       /* signed INC: invalid */
		{ 6u | 7u << 27 | 1u << 31 | 1u << 24, 1, 5, 1, 1 }, /* 64-bit DEC: invalid */
		{ 6u | 5u << 27 | 1u << 24, 1, 5, 1, 1 },            /* signed 64-bit IADD: invalid */
		{ 7u, 1, 5, 1, 1 },                                  /* OPERATION 7 */
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct env e;
		struct env_chan *c = env_one_channel(&e);
		uint64_t spa;
		uint64_t sva = env_map(&e, 4096, &spa);
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa, cases[k].mem);
		uint32_t pb[] = { HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), cases[k].payload, 0,
			          cases[k].exec };
		env_push(&e, c, pb, 6);
		env_run(&e, 100000);
		assert_int_equal(env_mem(&e, spa), cases[k].want);
		assert_int_equal(rd(e.gpu, PB0 + 0x108), cases[k].intr ? 1u << 25 : 0);
		env_fini(&e);
	}
}

/* Two channels in two TSGs: one acquires (waits) until the other releases;
 * the wait is woken by the write, not by polling: few events. */
static void acquire_waits_for_release(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 1), *b = env_chan(&e, 1, 2);
	env_two_tsgs(&e, a, b, 128, 3);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	/* a: acquire >= 3 (ACQ_STRICT_GEQ, ACQUIRE_SWITCH_TSG), then a GR method */
	uint32_t pa_[] = { HDR_INC(0, 0x5c, 5),
		           (uint32_t)sva,
		           (uint32_t)(sva >> 32),
		           3,
		           0,
		           2u | 1u << 12,
		           HDR_INC(0, 0x200, 1),
		           0xa };
	env_push(&e, a, pa_, 8);
	env_run(&e, 100000);
	nvm_method log[8];
	assert_int_equal(env_log(&e, "gr", log, 8), 0);
	nvm_host_channel info;
	nvm_host_channel_info(e.gpu, 1, &info);
	assert_int_equal(info.status, 3); /* PENDING_ACQUIRE */
	/* b releases 3 */
	uint32_t pb_[] = {
		HDR_INC(0, 0x200, 1), 0xb, HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 3, 0, 1
	};
	env_push(&e, b, pb_, 8);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(env_log(&e, "gr", log, 8), 2);
	assert_int_equal(log[0].data, 0xb);
	assert_int_equal(log[1].data, 0xa);
	assert_int_equal(log[1].chid, 1);
	/* the CPU can satisfy an acquire too */
	uint32_t pa2[] = { HDR_INC(0, 0x5c, 5),
		           (uint32_t)sva,
		           (uint32_t)(sva >> 32),
		           7,
		           0,
		           0 /* ACQUIRE == */,
		           HDR_INC(0, 0x200, 1),
		           0xc };
	env_push(&e, a, pa2, 8);
	env_run(&e, 1000000);
	assert_int_equal(env_log(&e, "gr", log, 8), 2);
	uint64_t ev0 = nvm_event_count(e.gpu, NVM_EV_TRACE);
	(void)ev0;
	assert_string_equal(env_run(&e, 10000000), "idle");
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa, 7);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(env_log(&e, "gr", log, 8), 3);
	env_fini(&e);
}

/* Silicon H100: within a TSG, a channel blocked on an acquire lets another
 * channel of the TSG with work run at once. */
static void tsg_blocked_channel_yields(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *a, *b;
	env_tsg_pair(&e, 4, 10, 11, &a, &b);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	uint32_t pa_[] = {
		HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 1, 0, 0, HDR_INC(0, 0x200, 1), 1
	};
	uint32_t pb_[] = {
		HDR_INC(0, 0x200, 1), 2, HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 1, 0, 1
	};
	env_push(&e, a, pa_, 8);
	env_push(&e, b, pb_, 8);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 2);
	assert_int_equal(log[0].chid, 11);
	assert_int_equal(log[1].chid, 10);
	assert_true(nvm_time_ns(e.gpu) < 200000); /* no timeslice had to end */
	env_fini(&e);
}

/* Silicon H100: a method header whose COUNT runs past its GP segment takes
 * its data from the next GP entry; END_PB_SEGMENT discards the rest of its
 * segment; a mask that excludes SUBDEVICE_ID drops methods, Host ones too. */
static void segments_and_masks(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	uint32_t s1[] = { HDR_INC(0, 0x200, 3), 1 };
	uint32_t s2[] = { 2, 3, 0xe0000000u, HDR_INC(0, 0x300, 1), 99 };
	uint32_t s3[] = { 0x00010000u /* SSDM mask 0 */,
		          HDR_INC(0, 0x5c, 5),
		          (uint32_t)sva,
		          (uint32_t)(sva >> 32),
		          5,
		          0,
		          1,
		          HDR_INC(0, 0x400, 1),
		          4,
		          0x0001fff0u /* SSDM all */,
		          HDR_INC(0, 0x404, 1),
		          5 };
	env_gp(&e, c, env_pb(&e, c, s1, 2), 2, 0);
	env_gp(&e, c, env_pb(&e, c, s2, 5), 5, 0);
	env_gp(&e, c, env_pb(&e, c, s3, 12), 12, 0);
	env_kick(&e, c);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[8];
	size_t n = env_log(&e, "gr", log, 8);
	assert_int_equal(n, 4);
	assert_int_equal(log[1].method, 0x204);
	assert_int_equal(log[2].data, 3);
	assert_int_equal(log[3].method, 0x404);
	assert_int_equal(env_mem(&e, spa), 0); /* masked release did nothing */
	env_fini(&e);
}

/* NV_PPBDMA_TARGET ENG_CTX_VALID clear: an engine method raises INTR_1
 * CTXNOTVALID (31). */
static void ctx_not_valid(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 9);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0xac, 0);
	env_submit_tsg(&e, 0, 1, &c, 1);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x148), 0x80000000u);
	env_fini(&e);
}

/* Seed 000 section 5: timeslice = (TIMEOUT << SCALE) * 1024 ns. Two busy
 * TSGs alternate at that period. */
static void timeslices(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 1), *b = env_chan(&e, 1, 2);
	env_two_tsgs(&e, a, b, 10, 0); /* timeslices of 10 * 1024 ns */
	/* 3000 methods each: ~6 us of work per channel at 2 ns per method */
	static uint32_t pb[3001];
	pb[0] = HDR_NINC(0, 0x200, 3000);
	for (int i = 1; i <= 3000; i++)
		pb[i] = (uint32_t)i;
	nvm_method_log_config(e.gpu, "gr", 8192);
	env_push(&e, a, pb, 3001);
	pb[0] = HDR_NINC(0, 0x204, 3000);
	env_push(&e, b, pb, 3001);
	assert_string_equal(env_run(&e, 100000000), "idle");
	static nvm_method log[8192];
	size_t n = env_log(&e, "gr", log, 8192);
	assert_int_equal(n, 6000);
	/* Both channels ran; a switch happened before either finished. */
	size_t switches = 0;
	for (size_t i = 1; i < n; i++)
		switches += log[i].chid != log[i - 1].chid;
	assert_true(switches >= 1);
	assert_true(log[0].chid != log[n - 1].chid || switches >= 2);
	/* The method sequence interrupted by a switch was saved in RAMFC
	 * (PB_HEADER / PB_COUNT) and continued in order (seed 000 section 3). */
	uint32_t next[3] = { 0, 1, 1 };
	for (size_t i = 0; i < n; i++) {
		uint32_t ch = log[i].chid;
		assert_int_equal(log[i].method, ch == 1 ? 0x200 : 0x204);
		assert_int_equal(log[i].data, next[ch]++);
	}
	assert_int_equal(next[1], 3001);
	assert_int_equal(next[2], 3001);
	env_fini(&e);
}

/* The method log keeps the last `cap` methods, oldest first, while it is
 * still being allocated (it grows as it fills) and after it wraps: a cap
 * that is not a power of two, the default cap (4096), and none. */
static void method_log_ring(void **state)
{
	(void)state;
	static const struct {
		long cap; /* -1: the default */
		uint32_t methods;
		size_t kept;
	} cases[] = { { 100, 250, 100 }, { -1, 5000, 4096 }, { -1, 3000, 3000 }, { 0, 10, 0 } };
	static uint32_t pb[5001];
	static nvm_method log[5000];
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct env e;
		struct env_chan *c = env_one_channel(&e);
		if (cases[k].cap >= 0)
			assert_int_equal(nvm_method_log_config(e.gpu, "gr", (size_t)cases[k].cap), NVM_OK);
		pb[0] = HDR_NINC(0, 0x200, cases[k].methods);
		for (uint32_t i = 1; i <= cases[k].methods; i++)
			pb[i] = i;
		env_push(&e, c, pb, cases[k].methods + 1);
		assert_string_equal(env_run(&e, 100000000), "idle");
		size_t n = env_log(&e, "gr", log, 5000);
		assert_int_equal(n, cases[k].kept);
		for (size_t i = 0; i < n; i++)
			assert_int_equal(log[i].data, cases[k].methods - cases[k].kept + 1 + i);
		env_fini(&e);
	}
}

/* The run budget bounds what one PBDMA step decodes: 6 000 PB entries of
 * methods under a run of 4 units are read at most 4 * 256 at a time (a step
 * used to take up to 16 384 whatever the budget had left). */
static void step_stops_at_run_budget(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	static uint32_t pb[6001];
	pb[0] = HDR_NINC(0, 0x200, 6000);
	env_push(&e, c, pb, 6001);
	nvm_run_opts o = { .ns = 1000000000ull, .flags = NVM_RUN_UNTIL_IDLE, .max_events = 4 };
	assert_int_equal(nvm_run(e.gpu, &o), NVM_RUN_HANG);
	nvm_host_stats st;
	assert_int_equal(nvm_host_get_stats(e.gpu, &st), NVM_OK);
	assert_true(st.pb_dwords > 0 && st.pb_dwords <= 4 * 256);
	assert_string_equal(env_run(&e, 1000000000ull), "idle");
	assert_int_equal(nvm_host_get_stats(e.gpu, &st), NVM_OK);
	assert_int_equal(st.pb_dwords, 6001);
	env_fini(&e);
}

/* Bad guest input at the doorbell and runlist registers: events, no crash. */
static void bad_doorbell_and_runlist_id(void **state)
{
	(void)state;
	if (strcmp(ENV_CHIP, "gv100"))
		skip(); /* gv100's registers; tu102's: test_host_tu102.c */
	struct env e;
	env_init(&e);
	uint64_t g0 = nvm_event_count(e.gpu, NVM_EV_GUEST_ERROR);
	wr(e.gpu, 0x810090, 0xffffffffu);
	wr(e.gpu, 0x2274, 15u << 20 | 4);
	assert_int_equal(nvm_event_count(e.gpu, NVM_EV_GUEST_ERROR), g0 + 2);
	/* a runlist base outside VRAM */
	wr(e.gpu, 0x2270, 0x0fffffffu);
	wr(e.gpu, 0x2274, 0u << 20 | 4);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x2100) & 0x100, 0x100);
	assert_int_equal(rd(e.gpu, 0x254c), 0x08);
	env_fini(&e);
}

/* Seed 000 section 5: RUNQUEUE_SELECTOR 1 runs the channel on the GR
 * runlist's second PBDMA (1); on a copy-engine runlist with one PBDMA it
 * falls back to the first (a pb_used that left out the fallback would
 * leave channel 21 unscheduled). */
static void runqueue_selector(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 20), *b = env_chan(&e, 1, 21);
	uint32_t w[8];
	env_rl_tsg(w, 1, 1, 128, 3);
	env_rl_chan(w + 4, a, 1);
	env_submit(&e, 0, w, 2);
	env_rl_tsg(w, 2, 1, 128, 3);
	env_rl_chan(w + 4, b, 1);
	env_submit(&e, 1, w, 2);
	env_run(&e, 100000);
	/* 0x100: a method both GR and the copy engine (C3B5 NOP) accept */
	uint32_t pb[] = { HDR_INC(0, 0x100, 1), 1, HDR_INC(5, 0x100, 1), 2 };
	env_push(&e, a, pb, 4);
	env_push(&e, b, pb, 4);
	env_run(&e, 100000);
	/* the software method stops each channel on its PBDMA */
	assert_int_equal(rd(e.gpu, PB0 + 0x2000 + 0x108), 1u << 23);     /* PBDMA 1 */
	assert_int_equal(rd(e.gpu, PB0 + 0x2000 + 0x120), 20);           /* NV_PPBDMA_CHANNEL */
	assert_int_equal(rd(e.gpu, PB0 + 2 * 0x2000 + 0x108), 1u << 23); /* PBDMA 2: runlist 1 */
	assert_int_equal(rd(e.gpu, PB0 + 2 * 0x2000 + 0x120), 21);
	assert_int_equal(rd(e.gpu, 0x3084) & 0xfff, 20);      /* NV_PFIFO_PBDMA_STATUS(1) ID */
	assert_int_equal(rd(e.gpu, 0x2390 + 4 * 2), 1u << 1); /* PBDMA_MAP(2): runlist 1 */
	nvm_method log[4];
	assert_int_equal(env_log(&e, "ce2", log, 4), 1);
	/* The scheduler skips a runlist's PBDMA that none of its listed
	 * channels runs on (struct runlist pb_used): the GR runlist's channel
	 * runs on its second PBDMA only, the copy-engine runlist's on its
	 * first (the fallback); a runlist emptied uses none. */
	struct host *h = host_of(e.gpu);
	assert_int_equal(h->rl[0].pb_used, 2);
	assert_int_equal(h->rl[1].pb_used, 1);
	env_submit(&e, 1, NULL, 0);
	env_run(&e, 100000);
	assert_int_equal(h->rl[1].pb_used, 0);
	env_fini(&e);
}

/* GP entry LEVEL SUBROUTINE leaves TOP_LEVEL_GET alone (volta-facts.md a,
 * silicon H100); FETCH_CONDITIONAL segments are skipped while
 * SUBDEVICE_STATUS is inactive (dev_pbdma PB_FETCH). */
static void levels_and_conditional_fetch(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint32_t main_pb[] = { HDR_INC(0, 0x200, 1), 1 };
	uint32_t sub_pb[] = { HDR_INC(0, 0x204, 1), 2, 0x00010000u /* SSDM 0: inactive */ };
	uint32_t cond_pb[] = { HDR_INC(0, 0x208, 1), 3 };
	uint64_t m = env_pb(&e, c, main_pb, 2), s = env_pb(&e, c, sub_pb, 3), k = env_pb(&e, c, cond_pb, 2);
	env_gp(&e, c, m, 2, 0);
	env_gp(&e, c, s, 3, 1u << 9); /* LEVEL SUBROUTINE */
	env_gp_raw(&e, c, (uint32_t)k | 1u /* FETCH CONDITIONAL */, (uint32_t)(k >> 32) | 2u << 10);
	env_kick(&e, c);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 2);            /* the conditional segment was skipped */
	assert_int_equal(env_userd(&e, c, 0x58), (uint32_t)m + 8); /* TOP_LEVEL_GET: end of the main segment */
	assert_int_equal(env_userd(&e, c, 0x44), (uint32_t)s + 12);
	env_fini(&e);
}

/* dev_fifo SCHED_DISABLE holds new loads; PREEMPT saves the channel. */
static void sched_disable_and_preempt(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	wr(e.gpu, 0x2630, 1); /* runlist 0 */
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 0);
	wr(e.gpu, 0x2630, 0);
	env_run(&e, 100000);
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	/* a software method keeps the channel loaded; software preempts the channel after clearing */
	uint32_t sw[] = { HDR_INC(5, 0x100, 1), 9, HDR_INC(0, 0x204, 1), 2 };
	env_push(&e, c, sw, 4);
	env_run(&e, 100000);
	nvm_host_channel info;
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.pbdma, 0);
	wr(e.gpu, PB0 + 0xc0, 0);
	wr(e.gpu, PB0 + 0x108, 1u << 23);
	wr(e.gpu, 0x2630, 1);                             /* hold it */
	wr(e.gpu, 0x2634, 5);                             /* PREEMPT channel 5 */
	assert_int_equal(rd(e.gpu, 0x2634) >> 20 & 1, 0); /* PENDING done */
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.pbdma, -1);
	env_run(&e, 100000);
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	wr(e.gpu, 0x2630, 0);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(env_log(&e, "gr", log, 4), 2);
	env_fini(&e);
}

/* Seed 000 section 6: subchannel 4 on the GR runlist goes to GRCOPY; the
 * switch between GR and GRCOPY is traced. */
static int switches;
static void count_switch(void *user, const nvm_event *ev)
{
	(void)user;
	switches += !strcmp(ev->code, "subch_switch");
}

static void grcopy_subchannel(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	switches = 0;
	nvm_hook_add(e.gpu, NVM_EV_MASK(NVM_EV_TRACE), count_switch, NULL, NULL);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1, HDR_INC(4, 0x000, 1), env_ce_class(&e),
		          HDR_INC(4, 0x400, 1), 2, HDR_INC(0, 0x204, 1), 3 };
	env_push(&e, c, pb, 8);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 2);
	assert_int_equal(env_log(&e, "grce", log, 4), 1);
	assert_int_equal(log[0].cls, env_ce_class(&e));
	assert_int_equal(switches, 2);
	/* a non-copy class on the copy subchannel: INTR_1 HCE_ILLEGAL_CLASS */
	uint32_t bad[] = { HDR_INC(4, 0x000, 1), 0xc397 };
	env_push(&e, c, bad, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x148), 1u << 4);
	env_fini(&e);
}

/* dev_pbdma PBSEG: a method sequence running from an unconditional segment
 * into a FETCH_CONDITIONAL one; after the clear the data is taken. */
static void pbseg(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint32_t s1[] = { HDR_INC(0, 0x200, 2), 1 }, s2[] = { 2 };
	env_gp(&e, c, env_pb(&e, c, s1, 2), 2, 0);
	uint64_t v2 = env_pb(&e, c, s2, 1);
	env_gp_raw(&e, c, (uint32_t)v2 | 1u, (uint32_t)(v2 >> 32) | 1u << 10);
	env_kick(&e, c);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 30);
	wr(e.gpu, PB0 + 0x108, 1u << 30);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 2);
	assert_int_equal(log[1].data, 2);
	/* NV_PFIFO_ENGINE_STATUS(0): TSG 1, ID_TYPE TSGID, CTX_STATUS VALID */
	assert_int_equal(rd(e.gpu, 0x2640), 1u | 1u << 12 | 1u << 13);
	env_fini(&e);
}

/* A GPFIFO fetch from an unmapped GP_BASE faults (HOST engine id) and marks
 * the channel PBDMA_FAULTED; a doorbell for an unbound channel runs nothing
 * until the channel is bound. */
static void gpfifo_fault_and_unbound(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 6);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0x48, 0x40000000u); /* GP_BASE unmapped */
	env_submit_tsg(&e, 0, 1, &c, 1);
	env_run(&e, 100000);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x800004 + 6 * 8) >> 22 & 1, 1);
	assert_int_equal(rd(e.gpu, ENV_FAULT_INST_LO) & 0x1ff, 32);
	/* an unbound channel: the doorbell is noted, nothing runs */
	struct env_chan *u = env_chan(&e, 1, 7);
	wr(e.gpu, 0x800000 + 7 * 8, 0);
	struct env_chan *both[] = { c, u };
	env_submit_tsg(&e, 0, 2, both, 2);
	env_run(&e, 100000);
	env_push(&e, u, pb, 2);
	env_run(&e, 100000);
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 0);
	wr(e.gpu, 0x800000 + 7 * 8, 0x80000000u | (uint32_t)(u->inst >> 12)); /* bind */
	env_run(&e, 100000);
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	assert_int_equal(log[0].chid, 7);
	env_fini(&e);
}

/* Silicon H100: a TSG blocked on an acquire without ACQUIRE_SWITCH_TSG
 * keeps the PBDMA until its timeslice ends, then the other TSG runs (and
 * the run is not idle while it waits for that). */
static void held_tsg_until_timeslice(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 1), *b = env_chan(&e, 1, 2);
	env_two_tsgs(&e, a, b, 50, 0); /* timeslices of 50 * 1024 ns */
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	uint32_t pa_[] = { HDR_INC(0, 0x5c, 5),
		           (uint32_t)sva,
		           (uint32_t)(sva >> 32),
		           1,
		           0,
		           2 /* no SWITCH_TSG */,
		           HDR_INC(0, 0x200, 1),
		           0xa };
	env_push(&e, a, pa_, 8);
	env_run(&e, 5000); /* a holds the PBDMA, blocked */
	uint64_t t0 = nvm_time_ns(e.gpu);
	uint32_t pb_[] = { HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 1, 0, 1 };
	env_push(&e, b, pb_, 6);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 1);
	/* b had to wait for a's timeslice (51200 ns from a's load) to end */
	assert_true(nvm_time_ns(e.gpu) - t0 > 40000);
	env_fini(&e);
}

/* n (up to 8) channels 0..n-1, each alone in TSG 1 + i on runlist 0,
 * submitted, and the runlist taken. */
static void tsgs_of_one(struct env *e, struct env_chan **c, unsigned n)
{
	uint32_t w[8 * 8];
	assert_true(n <= 8);
	for (unsigned i = 0; i < n; i++) {
		c[i] = env_chan(e, i, 1 + i);
		env_rl_tsg(&w[8 * i], 1 + i, 1, 128, 3);
		env_rl_chan(&w[8 * i + 4], c[i], 0);
	}
	env_submit(e, 0, w, 2 * n);
	env_run(e, 100000);
}

/* host.c prefetches the channels ahead from hints (where each GPFIFO ring
 * and PB segment was last found): guesses for the host's caches, never
 * read as the GPU's state. Six TSGs (prefetching needs four), then every
 * channel's next segment in a fresh mapping (the PB hint points at the old
 * one): the engine gets the new segments' methods, in runlist order. */
static void prefetch_hints_are_guesses(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c[6];
	tsgs_of_one(&e, c, 6);
	for (unsigned round = 0; round < 3; round++) {
		for (unsigned i = 0; i < 6; i++) {
			uint32_t pb[] = { HDR_INC(0, 0x200, 1), 100 * round + i };
			if (!round) {
				env_push(&e, c[i], pb, 2);
				continue;
			}
			uint64_t pa, va = env_map(&e, 4096, &pa); /* another PA - VA */
			nvm_mem_write(e.gpu, NVM_AP_VRAM, pa + 4 * round, pb, sizeof(pb));
			env_gp(&e, c[i], va + 4 * round, 2, 0);
			env_kick(&e, c[i]);
		}
		assert_string_equal(env_run(&e, 1000000), "idle");
		nvm_method log[24];
		assert_int_equal(env_log(&e, "gr", log, 24), 6 * (round + 1));
		for (unsigned i = 0; i < 6; i++) {
			assert_int_equal(log[6 * round + i].method, 0x200);
			assert_int_equal(log[6 * round + i].data, 100 * round + i);
		}
	}
	env_fini(&e);
}

/* host.c keeps the RAMFC pointers its first prefetch stage found for the
 * later stages (struct pf_slot) only while no page of the model's memory
 * went: the instance blocks moved into caller buffers in the middle of a
 * round, then back into the model's memory with the buffers freed (a kept
 * pointer into them would be read after the free: ASan). Eight TSGs of one
 * channel and one method each: every method arrives, in runlist order. */
static void prefetch_ramfc_after_remap(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c[8];
	tsgs_of_one(&e, c, 8);
	for (unsigned i = 0; i < 8; i++) {
		uint32_t pb[] = { HDR_INC(0, 0x200, 1), 0x100 + i };
		env_push(&e, c[i], pb, 2);
	}
	nvm_method log[8];
	uint8_t *buf[8];
	for (unsigned guard = 0; env_log(&e, "gr", log, 8) < 2 && guard < 100000; guard++)
		env_run(&e, 50);
	assert_in_range(env_log(&e, "gr", log, 8), 2, 6);
	for (unsigned i = 0; i < 8; i++) {
		buf[i] = malloc(4096);
		assert_non_null(buf[i]);
		assert_int_equal(nvm_mem_read(e.gpu, NVM_AP_VRAM, c[i]->inst, buf[i], 4096), NVM_OK);
		if (nvm_mem_map_ptr(e.gpu, NVM_AP_VRAM, c[i]->inst, 4096, buf[i])) {
			/* the variants whose VRAM is the caller's already */
			assert_int_equal(i, 0);
			free(buf[i]);
			env_fini(&e);
			skip();
		}
	}
	for (unsigned guard = 0; env_log(&e, "gr", log, 8) < 5 && guard < 100000; guard++)
		env_run(&e, 50);
	for (unsigned i = 0; i < 8; i++) {
		assert_int_equal(nvm_mem_unmap(e.gpu, NVM_AP_VRAM, c[i]->inst, 4096), NVM_OK);
		assert_int_equal(nvm_mem_write(e.gpu, NVM_AP_VRAM, c[i]->inst, buf[i], 4096), NVM_OK);
		free(buf[i]);
	}
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(env_log(&e, "gr", log, 8), 8);
	for (unsigned i = 0; i < 8; i++) {
		assert_int_equal(log[i].chid, 1 + i);
		assert_int_equal(log[i].data, 0x100 + i);
	}
	env_fini(&e);
}

/* A channel is listed on the runlist whose last submit named it: a new
 * submit unlists the channels the runlist's previous contents named, but
 * not one listed on another runlist since; a channel never listed is on
 * none. */
static void runlist_resubmit_unlists(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 5);
	struct env_chan *b = env_chan(&e, 1, 6);
	env_submit_tsg(&e, 0, 1, &a, 1);
	env_submit_tsg(&e, 1, 2, &b, 1);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_host_channel info;
	assert_int_equal(nvm_host_channel_info(e.gpu, 7, &info), NVM_OK);
	assert_int_equal(info.runlist, -1);
	assert_int_equal(info.tsgid, -1);
	assert_int_equal(info.pbdma, -1);
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.runlist, 0);
	assert_int_equal(info.tsgid, 1);
	nvm_host_channel_info(e.gpu, 6, &info);
	assert_int_equal(info.runlist, 1);
	assert_int_equal(info.tsgid, 2);
	env_submit_tsg(&e, 1, 3, &a, 1); /* channel 5 moves to runlist 1 */
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_host_channel_info(e.gpu, 6, &info);
	assert_int_equal(info.runlist, -1);
	assert_int_equal(info.tsgid, -1);
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.runlist, 1);
	assert_int_equal(info.tsgid, 3);
	env_submit(&e, 0, NULL, 0); /* runlist 0 emptied: channel 5 stays on 1 */
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.runlist, 1);
	assert_int_equal(info.tsgid, 3);
	env_submit(&e, 1, NULL, 0);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_host_channel_info(e.gpu, 5, &info);
	assert_int_equal(info.runlist, -1);
	assert_int_equal(info.tsgid, -1);
	env_fini(&e);
}

/* The scheduler's ready bits (struct host ready) say work && !acq_wait of
 * every channel, through doorbells, a blocked acquire, its release and the
 * end of work; host_ready_rebuild computes the same bits. */
static void check_ready_bits(nvm_gpu *gpu, unsigned expect_ready)
{
	struct host *h = host_of(gpu);
	uint32_t words = (h->gen->nchan + 63) / 64;
	unsigned n = 0;
	for (uint32_t chid = 0; chid < h->gen->nchan; chid++) {
		const struct chan *c = host_chan_peek(h, chid);
		bool bit = h->ready[chid / 64] >> (chid % 64) & 1;
		assert_int_equal(bit, c->work && !c->acq_wait);
		n += bit;
	}
	assert_int_equal(n, expect_ready);
	uint64_t *copy = malloc(words * 8);
	assert_non_null(copy);
	memcpy(copy, h->ready, words * 8);
	memset(h->ready, 0xff, words * 8);
	host_ready_rebuild(h);
	assert_memory_equal(copy, h->ready, words * 8);
	free(copy);
}

static void ready_bits_follow_channels(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 5), *b = env_chan(&e, 1, 70);
	struct env_chan *cs[] = { a, b };
	env_submit_tsg(&e, 0, 1, cs, 2);
	check_ready_bits(e.gpu, 0);
	assert_string_equal(env_run(&e, 100000), "idle");
	check_ready_bits(e.gpu, 0);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	uint32_t acq[] = { HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 1, 0, 0 };
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1 };
	env_push(&e, a, acq, 6);
	env_push(&e, b, pb, 2);
	env_run(&e, 3000);
	check_ready_bits(e.gpu, 0); /* a waits, b is done */
	assert_true(host_chan_peek(host_of(e.gpu), 5)->acq_wait);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa, 1);
	assert_string_equal(env_run(&e, 100000), "idle");
	check_ready_bits(e.gpu, 0);
	assert_false(host_chan_peek(host_of(e.gpu), 5)->acq_wait);
	env_push(&e, b, pb, 2);
	check_ready_bits(e.gpu, 1); /* b's doorbell */
	env_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_a_pushbuffer),
		cmocka_unit_test(bad_tsg_runlists),
		cmocka_unit_test(bad_signature),
		cmocka_unit_test(software_method),
		cmocka_unit_test(pbentry),
		cmocka_unit_test(gpentry),
		cmocka_unit_test(gpptr),
		cmocka_unit_test(pb_fetch_fault),
		cmocka_unit_test(semaphore_release),
		cmocka_unit_test(semaphore_reductions),
		cmocka_unit_test(acquire_waits_for_release),
		cmocka_unit_test(tsg_blocked_channel_yields),
		cmocka_unit_test(segments_and_masks),
		cmocka_unit_test(ctx_not_valid),
		cmocka_unit_test(timeslices),
		cmocka_unit_test(method_log_ring),
		cmocka_unit_test(step_stops_at_run_budget),
		cmocka_unit_test(bad_doorbell_and_runlist_id),
		cmocka_unit_test(runqueue_selector),
		cmocka_unit_test(levels_and_conditional_fetch),
		cmocka_unit_test(sched_disable_and_preempt),
		cmocka_unit_test(grcopy_subchannel),
		cmocka_unit_test(pbseg),
		cmocka_unit_test(gpfifo_fault_and_unbound),
		cmocka_unit_test(held_tsg_until_timeslice),
		cmocka_unit_test(runlist_resubmit_unlists),
		cmocka_unit_test(prefetch_hints_are_guesses),
		cmocka_unit_test(prefetch_ramfc_after_remap),
		cmocka_unit_test(ready_bits_follow_channels),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
