/*
 * The G80 PFIFO (g80, g84, g92, gt215) under nouveau's own interrupt
 * handler: nv50, g84 and g98 fifo use nv04_fifo_intr (Linux
 * nvkm/engine/fifo/nv04.c) with its card_type NV_50 branches: the IB-aware
 * DMA_PUSHER recovery of nv04_fifo_intr_dma_pusher (METHOD_COUNT 0, DMA_GET
 * and DMA_GET_HIGH to PUT, else IB_GET to IB_PUT), INTR 4 acknowledged,
 * INTR 30 (NOTIFY) as the non-stall event. Each test drives the condition,
 * runs the handler of nouveau_fifo_intr.h exactly as nouveau writes it
 * whenever the PFIFO line is up, and checks where the channel goes on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "g80fifo_env.h"
#include "nouveau_fifo_intr.h"

static const char *const chips[] = { "g80", "g84", "g92", "gt215" };
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

static void nfi_setup(struct nfi *n, struct genv *e)
{
	nfi_init(n, e->gpu, NFI_NV50, 128);
}

/* Nothing pending, the line down, CACHE1 empty, the puller and the pusher
 * on, REASSIGN back, the channel's IB and pushbuffer consumed. */
static void expect_resumed(struct genv *e, const struct nfi *n, uint32_t c)
{
	assert_int_equal(rd(e->gpu, GE_INTR), 0);
	assert_int_equal(nvm_intr_line(e->gpu), 0);
	assert_int_equal(n->masked, 0);
	assert_int_equal(rd(e->gpu, GE_GET), rd(e->gpu, GE_PUT));
	assert_int_equal(rd(e->gpu, GE_PULL0) & 0xf01111, 1);
	assert_int_equal(rd(e->gpu, GE_PUSH0) & 1, 1);
	assert_int_equal(rd(e->gpu, GE_DMA_PUSH) & 0x1001, 1);
	assert_int_equal(rd(e->gpu, GE_CACHES) & 1, 1);
	assert_int_equal(rd(e->gpu, ge_user(c) + 0x88), rd(e->gpu, ge_user(c) + 0x8c));
	assert_int_equal(rd(e->gpu, ge_user(c) + 0x44), rd(e->gpu, ge_user(c) + 0x40));
}

static size_t pgraph(struct genv *e, nvm_method *log, size_t max)
{
	return ge_log(e, "pgraph", log, max);
}

/* ------------------------------------------------------------ CACHE_ERROR */

/* A handle missing from the channel's RAMHT: nv04_fifo_intr_cache_error
 * reads the entry through NV40_PFIFO_CACHE1_METHOD/DATA(ptr) (0x90000),
 * steps GET with PUSH0 off, clears HASH, turns DMA_PUSH and PULL0 on. */
static void cache_error_no_hash(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		ge_channel(&e, 5, 0x5097, true);
		uint32_t pb[] = {
			GE_INC(0, 0, 1), 0xbeef0005u, GE_INC(1, 0, 1), 0x1234567u, GE_INC(0, 0x200, 1), 0x5a
		};
		ge_push(&e, 5, pb, 6);
		nfi_run(&n, 4);
		assert_int_equal(n.cache_errors, 1);
		assert_int_equal(n.errors, 1);
		assert_int_equal(n.err_mthd & 0xfffc, 0x2000u);
		assert_int_equal(n.err_data, 0x1234567u);
		nvm_method log[4];
		assert_int_equal(pgraph(&e, log, 4), 2);
		assert_int_equal(log[1].method, 0x200);
		expect_resumed(&e, &n, 5);
		ge_fini(&e);
	}
}

/* nouveau's NV50 software object (class 0x506e, engine 0) bound on
 * subchannel 2 and a method to it: CACHE_ERROR with DEVICE_SOFTWARE each;
 * nv04_fifo_swmthd clears the subchannel's ENGINE nibble and hands the
 * method to nvkm_sw_mthd; PGRAPH work goes on. */
static void cache_error_software_method(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		ge_channel(&e, 8, 0x5097, true);
		ge_vw(&e, GE_CHAN(8) + GE_SEL_SW * 16, 0x506e);
		ge_ramht_add(&e, 8, 0x5005, GE_SEL_SW, 0);
		uint32_t pb[] = { GE_INC(0, 0, 1),     0xbeef0008u, GE_INC(2, 0, 1),     0x5005,
			          GE_INC(2, 0x18c, 1), 0xdead0008u, GE_INC(2, 0x400, 1), 0xc0ffee,
			          GE_INC(0, 0x200, 1), 0x5a };
		ge_push(&e, 8, pb, 10);
		nfi_run(&n, 8);
		/* DMA_VBLSEM-style 0x18c: HASH holds the handle's instance */
		assert_int_equal(n.sw_log[1][0], 0x18c);
		assert_int_equal(n.sw_log[1][1], GE_SEL_SEM);
		assert_int_equal(n.cache_errors, 3);
		assert_int_equal(n.sw_calls, 3);
		assert_int_equal(n.errors, 0);
		assert_int_equal(n.sw_chid, 8);
		assert_int_equal(n.sw_subc, 2);
		assert_int_equal(n.sw_mthd, 0x400);
		assert_int_equal(n.sw_data, 0xc0ffee);
		assert_int_equal((rd(e.gpu, 0x3280) >> 8) & 0xf, 0);
		nvm_method log[4];
		assert_int_equal(pgraph(&e, log, 4), 2);
		assert_int_equal(log[1].method, 0x200);
		expect_resumed(&e, &n, 8);
		ge_fini(&e);
	}
}

/* ------------------------------------------------------------ DMA_PUSHER */

/* IB mode, a word no form matches inside an IB entry: DMA_GET != DMA_PUT
 * (the entry's end), so nouveau sets DMA_GET (and DMA_GET_HIGH) to it and
 * leaves IB_GET: the rest of the entry is dropped, the next entry runs. */
static void dma_pusher_ib_entry_skipped(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		ge_channel(&e, 3, 0x5097, true);
		uint32_t a[] = { GE_INC(0, 0, 1), 0xbeef0003u, 0x80000000u, GE_INC(0, 0x204, 1), 0xbad };
		uint32_t b[] = { GE_INC(0, 0x200, 1), 0x5a };
		ge_ib_entry(&e, 3, ge_pb(&e, 3, a, 5), 5, false);
		ge_ib_entry(&e, 3, ge_pb(&e, 3, b, 2), 2, false);
		ge_ib_kick(&e, 3);
		nfi_run(&n, 4);
		assert_int_equal(n.dma_pushers, 1);
		assert_int_equal(n.dma_state >> 29, 4); /* INVALID_CMD */
		assert_int_equal(rd(e.gpu, GE_MCOUNT), 0);
		nvm_method log[4];
		assert_int_equal(pgraph(&e, log, 4), 2);
		assert_int_equal(log[1].method, 0x200);
		expect_resumed(&e, &n, 3);
		ge_fini(&e);
	}
}

/* IB_EMPTY (a zero-length entry): thrown before DMA_GET / DMA_PUT move
 * (dma-pusher.rst pseudocode), so nouveau's else branch sets IB_GET to
 * IB_PUT: the entries submitted with it are dropped; later ones run. */
static void dma_pusher_ib_empty(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		ge_channel(&e, 4, 0x5097, true);
		uint32_t bind[] = { GE_INC(0, 0, 1), 0xbeef0004u };
		ge_push(&e, 4, bind, 2);
		nfi_run(&n, 4);
		ge_ib_entry(&e, 4, GE_PB(4), 0, false);
		uint32_t b[] = { GE_INC(0, 0x204, 1), 0xbad };
		ge_ib_entry(&e, 4, ge_pb(&e, 4, b, 2), 2, false);
		ge_ib_kick(&e, 4);
		nfi_run(&n, 4);
		assert_int_equal(n.dma_pushers, 1);
		assert_int_equal(n.dma_state >> 29, 5);
		assert_int_equal(rd(e.gpu, ge_user(4) + 0x88), 3);
		uint32_t c[] = { GE_INC(0, 0x200, 1), 0x5a };
		ge_push(&e, 4, c, 2);
		nfi_run(&n, 4);
		nvm_method log[4];
		assert_int_equal(pgraph(&e, log, 4), 2);
		assert_int_equal(log[1].method, 0x200);
		expect_resumed(&e, &n, 4);
		ge_fini(&e);
	}
}

/* NV4-style DMA mode on G80: the long form is INVALID_CMD there; nouveau
 * moves DMA_GET / DMA_GET_HIGH to PUT and the next DMA_PUT runs. */
static void dma_pusher_dma_mode(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		ge_channel(&e, 9, 0x5097, false);
		uint32_t base = (uint32_t)GE_PB(9);
		uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0009u, GE_LONG(0, 0x400), 1, 5, GE_INC(0, 0x204, 1), 0xbad };
		ge_pb(&e, 9, pb, 7);
		wr(e.gpu, ge_user(9) + 0x40, base + 28);
		nfi_run(&n, 4);
		assert_int_equal(n.dma_pushers, 1);
		assert_int_equal(n.dma_state >> 29, 4);
		assert_int_equal(rd(e.gpu, ge_user(9) + 0x44), base + 28);
		uint32_t more[] = { GE_INC(0, 0x200, 1), 0x5a };
		ge_pb(&e, 9, more, 2);
		wr(e.gpu, ge_user(9) + 0x40, base + 36);
		nfi_run(&n, 4);
		nvm_method log[4];
		assert_int_equal(pgraph(&e, log, 4), 2);
		assert_int_equal(log[1].method, 0x200);
		expect_resumed(&e, &n, 9);
		ge_fini(&e);
	}
}

/* ------------------------------------------------------------ SEMAPHORE */

/* SEMAPHORE errors of G80:GF100 (an unaligned or too large
 * SEMAPHORE_OFFSET; G84+ an unaligned SEMAPHORE_ADDRESS_LOW): nouveau's
 * SEMAPHORE branch (SEMAPHORE |= 1, GET + 4, PULL0 1) skips the method
 * and the next one runs. */
static void semaphore_error_skipped(void **state)
{
	(void)state;
	struct {
		uint32_t m, d;
		bool g84;
	} cases[] = { { 0x64, 0x12, false }, { 0x64, 0x10000, false }, { 0x14, 0x13, true } };
	for (size_t k = 0; k < NCHIPS; k++)
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			if (cases[i].g84 && !k)
				continue;
			struct genv e;
			struct nfi n;
			ge_init(&e, chips[k]);
			nfi_setup(&n, &e);
			ge_channel(&e, 2, 0x5097, true);
			uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0002u,         GE_INC(0, cases[i].m, 1),
				          cases[i].d,      GE_INC(0, 0x200, 1), 0x5a };
			ge_push(&e, 2, pb, 6);
			nfi_run(&n, 4);
			assert_int_equal(n.semaphores, 1);
			nvm_method log[4];
			assert_int_equal(pgraph(&e, log, 4), 2);
			assert_int_equal(log[1].method, 0x200);
			expect_resumed(&e, &n, 2);
			ge_fini(&e);
		}
}

/* ------------------------------------------------------------ NV50 bits */

/* NOTIFY_INTR (G84+, INTR 30): nouveau enables it for its non-stall event
 * (g84_fifo_nonstall_allow: INTR_EN bit 30), acknowledges it in
 * nv04_fifo_intr and signals the event; the channel never stopped. */
static void notify_nonstall(void **state)
{
	(void)state;
	for (size_t k = 1; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		wr(e.gpu, GE_INTR_EN, rd(e.gpu, GE_INTR_EN) | GE_INTR_NOTIFY);
		ge_channel(&e, 6, 0x5097, true);
		uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0006u, GE_INC(0, 0x20, 1), 0, GE_INC(0, 0x200, 1), 0x5a };
		ge_push(&e, 6, pb, 6);
		nfi_run(&n, 4);
		assert_int_equal(n.nonstall, 1);
		nvm_method log[4];
		assert_int_equal(pgraph(&e, log, 4), 2);
		assert_int_equal(rd(e.gpu, GE_INTR_EN) & GE_INTR_NOTIFY, GE_INTR_NOTIFY);
		expect_resumed(&e, &n, 6);
		ge_fini(&e);
	}
}

/* INTR 4 (rnndb BAR_FAULT): a CPU read through BAR1 beyond its DMA
 * object's limit; nouveau's NV50 branch acknowledges it. */
static void bar_fault_acknowledged(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		ge_channel(&e, 1, 0x5097, true);
		/* BAR1 through channel 1's semaphore object (4 KiB of VRAM) */
		wr(e.gpu, 0x1704, (uint32_t)(GE_CHAN(1) >> 12));
		wr(e.gpu, 0x1704, 0x40000000u | (uint32_t)(GE_CHAN(1) >> 12));
		wr(e.gpu, 0x1708, 0x80000000u | GE_SEL_SEM);
		uint32_t v = 0;
		assert_int_equal(nvm_g80_bar_read(e.gpu, 1, 0x10, &v, 4), NVM_OK);
		assert_int_equal(nvm_g80_bar_read(e.gpu, 1, 0x2000, &v, 4), NVM_ERR_FAULT);
		if (!nfi_in_hook)
			assert_int_equal(rd(e.gpu, GE_INTR), 0x10);
		nfi_run(&n, 4);
		assert_int_equal(n.bar_faults, 1);
		assert_int_equal(rd(e.gpu, GE_INTR_EN) & 0x10, 0x10);
		expect_resumed(&e, &n, 1);
		ge_fini(&e);
	}
}

/* PIO_ERROR (INTR 8): a store channel 0's PIO pusher refuses (a method
 * 0x04..0xfc the puller does not know); nouveau does not handle it: its
 * catch-all disables it in INTR_EN and acknowledges. */
static void pio_error_masked(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		struct nfi n;
		ge_init(&e, chips[k]);
		nfi_setup(&n, &e);
		wr(e.gpu, 0x800000u + 0x0c, 1);
		if (!nfi_in_hook)
			assert_int_equal(rd(e.gpu, GE_INTR), GE_INTR_PIO_ERROR);
		nfi_run(&n, 4);
		assert_int_equal(n.masked, GE_INTR_PIO_ERROR);
		assert_int_equal(rd(e.gpu, GE_INTR), 0);
		assert_int_equal(rd(e.gpu, GE_INTR_EN) & GE_INTR_PIO_ERROR, 0);
		assert_int_equal(nvm_intr_line(e.gpu), 0);
		assert_int_equal(rd(e.gpu, GE_CACHES) & 1, 1);
		ge_fini(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cache_error_no_hash),
		cmocka_unit_test(cache_error_software_method),
		cmocka_unit_test(dma_pusher_ib_entry_skipped),
		cmocka_unit_test(dma_pusher_ib_empty),
		cmocka_unit_test(dma_pusher_dma_mode),
		cmocka_unit_test(semaphore_error_skipped),
		cmocka_unit_test(notify_nonstall),
		cmocka_unit_test(bar_fault_acknowledged),
		cmocka_unit_test(pio_error_masked),
	};
	int failed = cmocka_run_group_tests_name("handler after each run", tests, NULL, NULL);
	nfi_in_hook = 1;
	return failed + cmocka_run_group_tests_name("handler from the interrupt hook", tests, NULL, NULL);
}
