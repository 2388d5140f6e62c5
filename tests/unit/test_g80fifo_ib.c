/*
 * G80 PFIFO, the DMA pusher: IB mode and NV4-style DMA mode on g80, g84,
 * g92 and gt215 (envytools dma-pusher.rst "IB mode", "Channel control
 * area", "The commands - pre-GF100 format", "The pusher pseudocode -
 * pre-GF100", "Errors"; seed 001 "The pusher" NV50 parts; rnndb
 * fifo/g80_pfifo.xml USER_DMA, IB_ENTRY), reading through the G80 VM (seed
 * 002 "DMA objects", DMA slot 5/8/0).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "g80fifo_env.h"

static const char *const chips[] = { "g80", "g84", "g92", "gt215" };
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

/* seed 001: 128 channels, DMA channels' areas at 0xc00000 + 0x2000 * ch;
 * dma-pusher.rst "IB mode": an IB entry points at a pushbuffer piece; REF
 * (0x48) and IB_GET (0x88) read through the channel control area. Every
 * profile, channels 1 and 127. */
static void ib_channel_each_chip(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		for (uint32_t c = 1; c < 128; c += 126) {
			struct genv e;
			ge_init(&e, chips[k]);
			ge_channel(&e, c, 0x5097, true);
			uint32_t pb[] = {
				GE_INC(0, 0, 1), 0xbeef0000u + c, GE_INC(0, 0x300, 3), 1, 2, 3, GE_INC(0, 0x50, 1), 0x77
			};
			ge_push(&e, c, pb, 8);
			assert_string_equal(ge_run(&e, 1000000), "idle");
			nvm_method log[8];
			assert_int_equal(ge_log(&e, "pgraph", log, 8), 4);
			assert_int_equal(log[0].method, 0);
			assert_int_equal(log[0].data, GE_SEL_GR); /* the instance: offset in the channel >> 4 */
			assert_int_equal(log[3].method, 0x308);
			assert_int_equal(log[3].data, 3);
			assert_int_equal(log[3].cls, 0x5097);
			assert_int_equal(log[3].chid, c);
			uint32_t u = ge_user(c);
			assert_int_equal(rd(e.gpu, u + 0x48), 0x77);
			assert_int_equal(rd(e.gpu, u + 0x88), 1);
			assert_int_equal(rd(e.gpu, u + 0x8c), 1);
			/* DMA_GET reached the end of the piece; MGET follows it. */
			assert_int_equal(rd(e.gpu, u + 0x44), (uint32_t)GE_PB(c) + 32);
			assert_int_equal(rd(e.gpu, u + 0x58), (uint32_t)GE_PB(c) + 32);
			assert_int_equal(rd(e.gpu, u + 0x5c), 1u << 31); /* MGET_HIGH VALID, high 0 */
			assert_int_equal(rd(e.gpu, GE_INTR), 0);
			ge_fini(&e);
		}
	}
}

/* dma-pusher.rst "The commands": "long non-increasing methods [IB only]":
 * the count is the low 24 bits of the next word; seed 001: the header in
 * one IB entry, the data in the next (straight from another buffer). */
static void ib_long_nonincreasing(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 3, 0x5097, true);
		uint32_t bind[] = { GE_INC(1, 0, 1), 0xbeef0003u, GE_LONG(1, 0x400), 0xff000005u };
		uint64_t a = ge_pb(&e, 3, bind, 4);
		ge_ib_entry(&e, 3, a, 4, false);
		uint32_t data[] = { 10, 11, 12, 13, 14 };
		uint64_t d = ge_pb(&e, 3, data, 5);
		ge_ib_entry(&e, 3, d, 5, true);
		ge_ib_kick(&e, 3);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		nvm_method log[8];
		assert_int_equal(ge_log(&e, "pgraph", log, 8), 6); /* bind + 5: count 0xff000005 & 0xffffff */
		for (int i = 1; i < 6; i++) {
			assert_int_equal(log[i].method, 0x400);
			assert_int_equal(log[i].subch, 1);
			assert_int_equal(log[i].data, 9 + i);
		}
		assert_int_equal(rd(e.gpu, GE_INTR), 0);
		ge_fini(&e);
	}
}

/* The count word may come in the next IB entry: LARGE_NONINCR_LEN_PENDING
 * (DMA_STATE 16) keeps it across pieces; a count split from its data by a
 * piece end keeps METHOD_COUNT. */
static void ib_long_count_pending(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g84");
	ge_channel(&e, 2, 0x5097, true);
	uint32_t w0[] = { GE_INC(0, 0, 1), 0xbeef0002u, GE_LONG(0, 0x500) };
	ge_ib_entry(&e, 2, ge_pb(&e, 2, w0, 3), 3, false);
	ge_ib_kick(&e, 2);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal((rd(e.gpu, GE_DMA_STATE) >> 16) & 1, 1);
	uint32_t w1[] = { 3, 7, 8 };
	ge_ib_entry(&e, 2, ge_pb(&e, 2, w1, 3), 3, false);
	ge_ib_kick(&e, 2);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal((rd(e.gpu, GE_DMA_STATE) >> 16) & 1, 0);
	assert_int_equal(rd(e.gpu, GE_MCOUNT), 1);
	uint32_t w2[] = { 9 };
	ge_ib_entry(&e, 2, ge_pb(&e, 2, w2, 1), 1, false);
	ge_ib_kick(&e, 2);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	nvm_method log[8];
	assert_int_equal(ge_log(&e, "pgraph", log, 8), 4);
	assert_int_equal(log[3].method, 0x500);
	assert_int_equal(log[3].data, 9);
	ge_fini(&e);
}

/* dma-pusher.rst "IB mode": NOT_MAIN pieces leave dma_mget at the main
 * buffer's position; DMA_MGET_HIGH VALID (31) once set. */
static void ib_not_main_keeps_mget(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g80");
	ge_channel(&e, 5, 0x5097, true);
	uint32_t main1[] = { GE_INC(0, 0, 1), 0xbeef0005u };
	uint64_t a = ge_pb(&e, 5, main1, 2);
	ge_ib_entry(&e, 5, a, 2, false);
	e.pb_put[5] = 0x40000; /* an "external" buffer */
	uint32_t ext[] = { GE_INC(0, 0x200, 1), 0x55 };
	uint64_t x = ge_pb(&e, 5, ext, 2);
	ge_ib_entry(&e, 5, x, 2, true);
	ge_ib_kick(&e, 5);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	uint32_t u = ge_user(5);
	assert_int_equal(rd(e.gpu, u + 0x58), (uint32_t)a + 8);
	assert_int_equal(rd(e.gpu, u + 0x44), (uint32_t)x + 8);
	assert_int_equal((rd(e.gpu, GE_DMA_STATE) >> 18) & 1, 1); /* NON_MAIN */
	nvm_method log[4];
	assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
	assert_int_equal(log[1].data, 0x55);
	ge_fini(&e);
}

/* dma-pusher.rst "Errors" 5 IB_EMPTY: "attempt to submit zero-length IB
 * entry"; the entry was read (IB_GET past it). nouveau's recovery (IB_GET
 * kept, DMA_STATE 0, DMA_PUSH 1, acknowledge) goes on with the next. */
static void ib_empty_entry(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 4, 0x5097, true);
		ge_ib_entry(&e, 4, GE_PB(4), 0, false);
		uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0004u };
		ge_ib_entry(&e, 4, ge_pb(&e, 4, pb, 2), 2, false);
		ge_ib_kick(&e, 4);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		ge_expect_dma_error(&e, 5);
		assert_int_equal(rd(e.gpu, ge_user(4) + 0x88), 1);
		wr(e.gpu, GE_DMA_STATE, 0);
		wr(e.gpu, GE_DMA_PUSH, 1);
		wr(e.gpu, GE_INTR, GE_INTR_DMA_PUSHER);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, ge_user(4) + 0x88), 2);
		nvm_method log[4];
		assert_int_equal(ge_log(&e, "pgraph", log, 4), 1);
		ge_fini(&e);
	}
}

/* dma-pusher.rst "IB mode": "Failure to read IB entry due to VM fault
 * will, like pushbuffer read fault, cause DMA_PUSHER error of type
 * MEM_FAULT"; seed 002: beyond the DMA object's limit is DMAOBJ_LIMIT, a
 * selector 0 NULL_DMAOBJ. Three ways: the piece, the ring, the object. */
static void ib_mem_faults(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		for (int how = 0; how < 3; how++) {
			struct genv e;
			ge_init(&e, chips[k]);
			ge_channel(&e, 6, 0x5097, true);
			uint64_t ch = GE_CHAN(6);
			/* the pushbuffer object ends at 1 MiB + the channel's area */
			g80e_dma_simple(e.gpu, NVM_AP_VRAM, ch, GE_SEL_PB, g80e_dw0(0x3d, 2, 2, 0, 0, 0, 0), 0,
			                GE_PB(6) + 0xfffff);
			if (how == 0) {
				ge_ib_entry(&e, 6, GE_PB(6) + 0x100000, 4, false);
			} else if (how == 1) {
				ge_ib_entry(&e, 6, GE_PB(6), 4, false);
			} else {
				ge_vw(&e, ge_ramfc(&e, 6) + 0x48, 0); /* DMA_INSTANCE: selector 0 */
				ge_ib_entry(&e, 6, GE_PB(6), 4, false);
			}
			if (how == 1) {
				/* the channel is not loaded yet: write its RAMFC instead */
				ge_vw(&e, ge_ramfc(&e, 6) + 0x50, (uint32_t)(GE_PB(6) + 0x200000));
			}
			ge_ib_kick(&e, 6);
			assert_string_equal(ge_run(&e, 1000000), "idle");
			ge_expect_dma_error(&e, 6);
			nvm_method log[2];
			assert_int_equal(ge_log(&e, "pgraph", log, 2), 0);
			ge_fini(&e);
		}
	}
}

/* dma-pusher.rst: jump, call and return are "NV4-style only": in IB mode
 * they are INVALID_CMD; so is a word no form matches. */
static void ib_no_control_flow(void **state)
{
	(void)state;
	uint32_t bad[] = { 0x20000100u /* old jump */, 0x00001001u /* jump */, 0x00001002u /* call */,
		           0x00020000u /* return */, 0x80000000u /* nothing */ };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct genv e;
		ge_init(&e, chips[i % NCHIPS]);
		ge_channel(&e, 1, 0x5097, true);
		uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0001u, bad[i] };
		ge_push(&e, 1, pb, 3);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		ge_expect_dma_error(&e, 4);
		assert_int_equal(rd(e.gpu, 0x32a8), bad[i]); /* RSVD_SHADOW: the word */
		ge_fini(&e);
	}
}

/* dma-pusher.rst "IB mode": "When ib_get would reach 2^ib_order, it
 * instead wraps around to 0" (IB_CONFIG ORDER 31:16). */
static void ib_ring_wraps(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "gt215");
	e.order = 2;
	ge_channel(&e, 7, 0x5097, true);
	uint32_t bind[] = { GE_INC(0, 0, 1), 0xbeef0007u };
	ge_push(&e, 7, bind, 2);
	for (uint32_t i = 0; i < 6; i++) {
		uint32_t pb[] = { GE_INC(0, 0x200, 1), i };
		ge_push(&e, 7, pb, 2);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, ge_user(7) + 0x88), (i + 2) & 3);
	}
	nvm_method log[8];
	assert_int_equal(ge_log(&e, "pgraph", log, 8), 7);
	assert_int_equal(log[6].data, 5);
	ge_fini(&e);
}

/* NV4-style DMA mode on G80 (DMA_FETCH IB_ENABLE 0): DMA_PUT through the
 * control area, jumps; the long form is "IB only" (INVALID_CMD). */
static void dma_mode_g80(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 9, 0x5097, false);
		uint32_t base = (uint32_t)GE_PB(9);
		uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0009u, (base + 0x100) | 1u /* jump */ };
		ge_pb(&e, 9, pb, 3);
		e.pb_put[9] = 0x100;
		uint32_t p2[] = { GE_INC(0, 0x300, 1), 0x42, GE_LONG(0, 0x400), 1, 5 };
		ge_pb(&e, 9, p2, 5);
		wr(e.gpu, ge_user(9) + 0x40, base + 0x100 + 8);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		nvm_method log[4];
		assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].data, 0x42);
		assert_int_equal(rd(e.gpu, ge_user(9) + 0x44), base + 0x108);
		assert_int_equal(rd(e.gpu, GE_INTR), 0);
		wr(e.gpu, ge_user(9) + 0x40, base + 0x100 + 20);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		ge_expect_dma_error(&e, 4);
		ge_fini(&e);
	}
}

/* dma-pusher.rst "Channel control area": DMA_PUT and DMA_PUT_HIGH "only
 * writable when not in IB mode"; reading a low part copies the high part
 * to its read shadow; DMA_PUT takes the write shadow of DMA_PUT_HIGH. */
static void user_area_shadows(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g84");
	ge_channel(&e, 10, 0x5097, true);
	ge_channel(&e, 11, 0x5097, false);
	uint32_t u = ge_user(10), v = ge_user(11);
	uint32_t put = rd(e.gpu, u + 0x40);
	wr(e.gpu, u + 0x40, 0x1234);
	assert_int_equal(rd(e.gpu, u + 0x40), put);
	/* DMA mode: high part through the write shadow */
	wr(e.gpu, v + 0x4c, 0x01);
	assert_int_equal(rd(e.gpu, v + 0x40), (uint32_t)GE_PB(11)); /* not yet written: read shadow gets 0 */
	assert_int_equal(rd(e.gpu, v + 0x4c), 0);
	wr(e.gpu, v + 0x40, (uint32_t)GE_PB(11)); /* now PUT = 0x1_xxxxxxxx */
	assert_int_equal(rd(e.gpu, v + 0x40), (uint32_t)GE_PB(11));
	assert_int_equal(rd(e.gpu, v + 0x4c), 1);
	assert_int_equal(rd(e.gpu, v + 0x44), (uint32_t)GE_PB(11));
	assert_int_equal(rd(e.gpu, v + 0x60), 0); /* DMA_GET_HIGH read shadow */
	/* channel 0 has no DMA area: reads 0 */
	assert_int_equal(rd(e.gpu, ge_user(0) + 0x44), 0);
	ge_fini(&e);
}

/* dma-pusher.rst "Errors" 2 INVALID_MTHD: methods 0x10-0x24 are G84+
 * (puller.rst's table): the g80 pusher refuses them, g84 takes them. */
static void g84_methods_chip_differ(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 1, 0x5097, true);
		uint32_t pb[] = { GE_INC(0, 0x18, 1), 0x1234 };
		ge_push(&e, 1, pb, 2);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		if (k == 0) {
			ge_expect_dma_error(&e, 2);
		} else {
			assert_int_equal(rd(e.gpu, GE_INTR), 0);
			assert_int_equal(rd(e.gpu, 0x3408), 0x1234); /* SEMAPHORE_SEQUENCE */
		}
		ge_fini(&e);
	}
}

/* Garbage: an IB ring of arbitrary words and pushbuffers of arbitrary
 * words end in a documented error or idle, on every profile. */
static void ib_garbage(void **state)
{
	(void)state;
	uint32_t x = 12345;
	for (size_t k = 0; k < NCHIPS; k++) {
		for (int round = 0; round < 8; round++) {
			struct genv e;
			ge_init(&e, chips[k]);
			e.order = 3;
			ge_channel(&e, 2, 0x5097, true);
			for (int i = 0; i < 64; i++) {
				x = x * 1103515245u + 12345u;
				ge_sw(&e, GE_PB(2) + 4u * (uint32_t)i, x);
			}
			for (int i = 0; i < 8; i++) {
				x = x * 1103515245u + 12345u;
				uint32_t e1 = (round & 1) ? x : (x & 0xff800000u) >> 22 << 10;
				ge_ib_raw(&e, 2, (uint32_t)GE_PB(2) + (x & 0xfc), e1);
			}
			wr(e.gpu, ge_user(2) + 0x8c, 7);
			const char *st = ge_run(&e, 10000000);
			assert_true(!strcmp(st, "idle") || !strcmp(st, "hang") || !strcmp(st, "time"));
			uint32_t err = rd(e.gpu, GE_DMA_STATE) >> 29;
			assert_true(err == 0 || err == 2 || err == 4 || err == 5 || err == 6);
			ge_fini(&e);
		}
	}
}

static void record_fault(void *user, const nvm_event *ev)
{
	*(nvm_g80_fault_info *)user = *(const nvm_g80_fault_info *)ev->detail;
}

/* seed 002: a paged DMA object goes through the page tables; dma-pusher.rst
 * "IB mode": a VM fault reading the pushbuffer is MEM_FAULT. The fault is
 * the VM's (PAGE_NOT_PRESENT), recorded for VM engine 5 (PFIFO), client 8
 * (PFIFO read), DMA slot 0 (seed 002 "5/8/0: FIFO pushbuf read"). */
static void ib_paged_pushbuffer(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 1, 0x5097, true);
		uint64_t ch = GE_CHAN(1), pt = 0x2000000, page = 0x3000000;
		uint64_t pd = ch + (e.g84 ? 0x200 : 0x1400);
		g80e_w64(e.gpu, NVM_AP_VRAM, pd, g80e_pde(3, 0, 0, pt));       /* small pages, full table */
		g80e_w64(e.gpu, NVM_AP_VRAM, pt + 1 * 8, g80e_pte_vram(page)); /* virtual 0x1000 */
		g80e_dma_simple(e.gpu, NVM_AP_VRAM, ch, 0x608, G80E_PAGED_W0, 0, 0xffffffffffull);
		ge_vw(&e, ge_ramfc(&e, 1) + 0x48, 0x608); /* the pushbuffer object: paged */
		uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0001u, GE_INC(0, 0x300, 1), 0x31 };
		for (uint32_t i = 0; i < 4; i++)
			ge_vw(&e, page + 0x10 + 4 * i, pb[i]);
		/* the IB ring goes through the same object ("like the pushbuffer"):
		 * virtual 0x8000, a VRAM page */
		g80e_w64(e.gpu, NVM_AP_VRAM, pt + 8 * 8, g80e_pte_vram(page + 0x10000));
		ge_vw(&e, ge_ramfc(&e, 1) + 0x50, 0x8000);
		ge_vw(&e, page + 0x10000, 0x1010);
		ge_vw(&e, page + 0x10004, 4u << 10);
		ge_vw(&e, page + 0x10008, 0x5000); /* no PTE */
		ge_vw(&e, page + 0x1000c, 2u << 10);
		nvm_g80_fault_info fi = { 0 };
		assert_int_equal(nvm_hook_add(e.gpu, NVM_EV_MASK(NVM_EV_FAULT), record_fault, &fi, NULL), NVM_OK);
		wr(e.gpu, ge_user(1) + 0x8c, 2);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		nvm_method log[4];
		assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].data, 0x31);
		ge_expect_dma_error(&e, 6);
		assert_int_equal(fi.engine, 5);
		assert_int_equal(fi.client, 8);
		assert_int_equal(fi.slot, 0);
		assert_int_equal(fi.offset, 0x5000);
		assert_int_equal(fi.reason, NVM_G80_FAULT_REASON(NVM_G80_FAULT_PAGE_NOT_PRESENT));
		ge_fini(&e);
	}
}

/* A DMA-mode pushbuffer that jumps to itself spends the run budget: the
 * run ends as a hang, not a loop (virtual time, sched_charge). */
static void dma_mode_self_jump_hangs(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g92");
	ge_channel(&e, 9, 0x5097, false);
	uint32_t base = (uint32_t)GE_PB(9);
	uint32_t pb[] = { base | 1u, 0 };
	ge_pb(&e, 9, pb, 2);
	wr(e.gpu, ge_user(9) + 0x40, base + 8);
	assert_string_equal(ge_run(&e, 1000000000ull), "hang");
	ge_fini(&e);
}

/* Issue 23 item 5: every loop of the G80 pusher spends the run budget
 * within a bounded number of words (a command word or an IB entry costs a
 * work unit, data words one per 4), as on NV04..NV4x: a hang in well
 * under a second. Before the fix a DMA-mode jump back over zero words
 * decoded 2.4e9 words with the default budget (256 words per unit). */
#define LOOP_UNITS 20000u

static uint64_t g_loop_words(struct genv *e, uint64_t units)
{
	nvm_run_opts o = { .ns = 1ull << 40, .flags = NVM_RUN_UNTIL_IDLE, .max_events = units };
	assert_int_equal(nvm_run(e->gpu, &o), NVM_RUN_HANG);
	nvm_pfifo_stats s;
	assert_int_equal(nvm_pfifo_get_stats(e->gpu, &s), NVM_OK);
	assert_true(s.dma_words > 0);
	assert_true(s.dma_words <= 4u * units + 4096u);
	return s.dma_words;
}

static const char *const loop_chips[] = { "g80", "g84", "gt215" };

/* DMA mode: a jump back over 4096 zero words (empty method headers). */
static void dma_mode_loop_over_zero_words_hangs(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct genv e;
		ge_init(&e, loop_chips[i]);
		ge_channel(&e, 9, 0x5097, false);
		uint32_t base = (uint32_t)GE_PB(9);
		e.pb_put[9] = 0x4000;
		uint32_t pb[] = { base | 1u };
		ge_pb(&e, 9, pb, 1);
		wr(e.gpu, ge_user(9) + 0x40, base + 0x4004);
		g_loop_words(&e, LOOP_UNITS);
		assert_int_equal(rd(e.gpu, GE_INTR) & GE_INTR_DMA_PUSHER, 0);
		ge_fini(&e);
	}
}

/* DMA mode: a jump to itself translates its target every time round (the
 * jump moves GET off the span it was read from), and a translation costs a
 * unit beside the jump's command word: the loop stops within half the
 * budget's words (before, one unit a jump: 0.9-1.1 s of CPU to a hang at the
 * default budget on g92, the VM case the slowest). */
static void dma_mode_self_jump_pays_its_translations(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct genv e;
		ge_init(&e, loop_chips[i]);
		ge_channel(&e, 9, 0x5097, false);
		uint32_t base = (uint32_t)GE_PB(9);
		uint32_t pb[] = { base | 1u, 0 };
		ge_pb(&e, 9, pb, 2);
		wr(e.gpu, ge_user(9) + 0x40, base + 8);
		uint64_t words = g_loop_words(&e, LOOP_UNITS);
		assert_true(words <= LOOP_UNITS / 2 + 64);
		ge_fini(&e);
	}
}

/* DMA mode: a call whose subroutine never returns (it jumps back to its
 * own start), and a loop of data (a bind, 2047 methods, a jump back). */
static void dma_mode_call_and_data_loops_hang(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct genv e;
		ge_init(&e, loop_chips[i]);
		ge_channel(&e, 9, 0x5097, false);
		ge_channel(&e, 10, 0x5097, false);
		uint32_t base = (uint32_t)GE_PB(9);
		uint32_t pb[] = { (base + 0x100) | 2u /* call */ };
		ge_pb(&e, 9, pb, 1);
		e.pb_put[9] = 0x1000;
		uint32_t sub[] = { (base + 0x100) | 1u /* jump */ };
		ge_pb(&e, 9, sub, 1);
		wr(e.gpu, ge_user(9) + 0x40, base + 4);
		g_loop_words(&e, LOOP_UNITS);
		assert_int_equal(rd(e.gpu, GE_INTR) & GE_INTR_DMA_PUSHER, 0);
		ge_fini(&e);

		ge_init(&e, loop_chips[i]);
		ge_channel(&e, 9, 0x5097, false);
		base = (uint32_t)GE_PB(9);
		uint32_t d[2051];
		d[0] = GE_INC(0, 0, 1);
		d[1] = 0xbeef0009u;
		d[2] = GE_NINC(0, 0x300, 2047);
		for (uint32_t k = 0; k < 2047; k++)
			d[3 + k] = k;
		d[2050] = (base + 8) | 1u;
		ge_pb(&e, 9, d, 2051);
		wr(e.gpu, ge_user(9) + 0x40, base + 2051 * 4);
		g_loop_words(&e, LOOP_UNITS);
		assert_int_equal(rd(e.gpu, GE_INTR) & GE_INTR_DMA_PUSHER, 0);
		ge_fini(&e);
	}
}

/* IB mode: a ring full of entries (1023 of a ring of 1024, each one empty
 * method header) cannot be read for free: with a budget of 500 units the
 * run is a hang before the pusher reaches IB_PUT (before the fix the 1023
 * entries and their words cost 12 units, and the run went idle). */
static void ib_ring_of_itself_hangs(void **state)
{
	(void)state;
	for (size_t i = 0; i < 3; i++) {
		struct genv e;
		ge_init(&e, loop_chips[i]);
		e.order = 10;
		ge_channel(&e, 9, 0x5097, true);
		uint64_t zero = GE_PB(9) + 0x1000;
		for (uint32_t k = 0; k < 1023; k++)
			ge_ib_entry(&e, 9, zero, 1, false);
		ge_ib_kick(&e, 9);
		g_loop_words(&e, 500);
		assert_true(rd(e.gpu, ge_user(9) + 0x88) < 1023);
		assert_int_equal(rd(e.gpu, GE_INTR) & GE_INTR_DMA_PUSHER, 0);
		ge_fini(&e);
	}
}

/* The run budget bounds what one scheduling step decodes: a long pushbuffer
 * (8192 NOP words in one IB entry) under a run of 4 units reads at most
 * 4 * 256 words (a step used to read up to 4096 whatever the budget had
 * left), and later runs go on from there. */
static void step_stops_at_run_budget(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g84");
	ge_channel(&e, 1, 0x5097, true);
	ge_ib_entry(&e, 1, GE_PB(1), 8192, false);
	ge_ib_kick(&e, 1);
	nvm_run_opts o = { .ns = 1000000000ull, .flags = NVM_RUN_UNTIL_IDLE, .max_events = 4 };
	assert_int_equal(nvm_run(e.gpu, &o), NVM_RUN_HANG);
	nvm_pfifo_stats st;
	assert_int_equal(nvm_pfifo_get_stats(e.gpu, &st), NVM_OK);
	assert_true(st.dma_words > 0 && st.dma_words <= 4 * 256);
	assert_string_equal(ge_run(&e, 1000000000ull), "idle");
	assert_int_equal(nvm_pfifo_get_stats(e.gpu, &st), NVM_OK);
	assert_true(st.dma_words >= 8192);
	ge_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ib_channel_each_chip),
		cmocka_unit_test(ib_long_nonincreasing),
		cmocka_unit_test(ib_long_count_pending),
		cmocka_unit_test(ib_not_main_keeps_mget),
		cmocka_unit_test(ib_empty_entry),
		cmocka_unit_test(ib_mem_faults),
		cmocka_unit_test(ib_no_control_flow),
		cmocka_unit_test(ib_ring_wraps),
		cmocka_unit_test(dma_mode_g80),
		cmocka_unit_test(user_area_shadows),
		cmocka_unit_test(g84_methods_chip_differ),
		cmocka_unit_test(ib_garbage),
		cmocka_unit_test(ib_paged_pushbuffer),
		cmocka_unit_test(dma_mode_self_jump_hangs),
		cmocka_unit_test(dma_mode_loop_over_zero_words_hangs),
		cmocka_unit_test(dma_mode_call_and_data_loops_hang),
		cmocka_unit_test(dma_mode_self_jump_pays_its_translations),
		cmocka_unit_test(ib_ring_of_itself_hangs),
		cmocka_unit_test(step_stops_at_run_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
