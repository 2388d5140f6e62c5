/*
 * PFIFO of NV04..NV4x under nouveau's own interrupt handler (Linux
 * nvkm/engine/fifo/nv04.c nv04_fifo_intr, used by nv04, nv10, nv17 and
 * nv40 fifo): each test drives a condition as nouveau's driver would meet
 * it, lets the handler of nouveau_fifo_intr.h run exactly as nouveau writes
 * it whenever the PFIFO line is up, and checks that the channel goes on
 * where the hardware does (GET stepped, the interrupt cleared, CACHE1 and
 * the pusher running).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "nouveau_fifo_intr.h"
#include "pfifo_env.h"

static const char *const chips[] = { "nv04", "nv10", "nv17", "nv40" };
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

static enum nfi_card card_of(const struct penv *e)
{
	return e->nv40 ? NFI_NV40 : e->nv04 ? NFI_NV04 : NFI_NV10;
}

static void nfi_setup(struct nfi *n, struct penv *e)
{
	nfi_init(n, e->gpu, card_of(e), e->nchan);
}

/* The state every handled interrupt should leave: nothing pending, the
 * line down, CACHE1 empty, the puller and both pushers on, REASSIGN back. */
static void expect_resumed(struct penv *e, const struct nfi *n)
{
	assert_int_equal(rd(e->gpu, PE_INTR), 0);
	assert_int_equal(nvm_intr_line(e->gpu), 0);
	assert_int_equal(n->masked, 0);
	assert_int_equal(rd(e->gpu, PE_GET), rd(e->gpu, PE_PUT));
	assert_int_equal(rd(e->gpu, PE_PULL0), 1);
	assert_int_equal(rd(e->gpu, PE_PUSH0) & 1, 1);
	assert_int_equal(rd(e->gpu, PE_DMA_PUSH) & 0x1001, 1);
	assert_int_equal(rd(e->gpu, PE_CACHES) & 1, 1);
	assert_int_equal(rd(e->gpu, PE_DMA_GET), rd(e->gpu, PE_DMA_PUT));
}

/* ------------------------------------------------------------ SEMAPHORE */

#define FENCE_BO 0x300000u   /* nv17_fence_create: a 4 KiB VRAM bo */
#define NV_SEMA  0xbeef0202u /* the NvSema handle */

/* nv17_fence_context_new: NvSema, NV_DMA_FROM_MEMORY (class 0x0002) over
 * the fence bo, target VRAM, access RDWR (nv04_dmaobj_bind: PT_PRESENT,
 * PT_LINEAR, ACCESS 0); one object per channel. */
static void nv17_sema(struct penv *e, uint32_t chid)
{
	uint32_t inst = pe_dmaobj(e, 0x0002, 0, 0, FENCE_BO, FENCE_BO + 0xfff);
	pe_ramht_add(e, chid, NV_SEMA, inst, 0);
}

/* nv17_fence_sync's five words on channel chid at pushbuffer offset off:
 * DMA_SEMAPHORE NvSema, SEMAPHORE_OFFSET 0, ACQUIRE acq, RELEASE acq + 1,
 * then a PGRAPH method that must wait for the acquire. */
static uint32_t fence_sync(struct penv *e, uint32_t chid, uint32_t off, uint32_t acq)
{
	uint32_t pb[] = { PB_INC(0, 0, 1),
		          0xbeef0000u + chid,
		          PB_INC(0, 0x60, 4),
		          NV_SEMA,
		          0,
		          acq,
		          acq + 1,
		          PB_INC(0, 0x300, 1),
		          acq };
	pe_pb(e, off, pb, 9);
	pe_put(e, chid, off + 36);
	return off + 36;
}

static uint32_t fence_word(struct penv *e)
{
	uint32_t v = 0;
	assert_int_equal(nvm_mem_rd32(e->gpu, NVM_AP_VRAM, FENCE_BO, &v), NVM_OK);
	return v;
}

/* The fence of nouveau's NV17+ (nv17_fence.c) between two DMA channels:
 * DMA_SEMAPHORE refuses the read-write NvSema (puller.rst: only write-only
 * objects of class 0x0002) with SEMAPHORE INVALID_OPERAND; nouveau's
 * handler only sets CACHE1 SEMAPHORE CTXDMA_VALID, steps GET and writes
 * PULL0, so the method must have latched the object's frame and target:
 * the acquires and releases that follow use the fence bo. Channel 2 waits
 * for 0x11, which channel 1 releases after its own acquire of 0x10 (the
 * sequence nv17_fence_resume wrote). */
static void nv17_fence_with_rdwr_nvsema(void **state)
{
	(void)state;
	const char *fchips[] = { "nv17", "nv40" }; /* nouveau: chipset 0x17+ before NV50 */
	for (int c = 0; c < 2; c++) {
		struct penv e;
		struct nfi n;
		pe_init(&e, fchips[c]);
		nfi_setup(&n, &e);
		uint32_t pbo = pe_dmaobj(&e, 0x3d, 2, 0, PE_PB, PE_PB + 0xfffff);
		for (uint32_t ch = 1; ch <= 2; ch++) {
			pe_dma_channel(&e, ch, pbo, ch * 0x1000);
			pe_ramht_add(&e, ch, 0xbeef0000u + ch, pe_grobj(&e, 0x62), 1);
			nv17_sema(&e, ch);
		}
		assert_int_equal(nvm_mem_wr32(e.gpu, NVM_AP_VRAM, FENCE_BO, 0x10), NVM_OK);
		fence_sync(&e, 2, 0x2000, 0x11);
		nfi_run(&n, 8);
		assert_int_equal(n.semaphores, 1);
		/* channel 2 waits on the fence bo for 0x11 */
		assert_int_equal(rd(e.gpu, PE_SEMAPHORE), FENCE_BO | 1u);
		assert_int_equal(rd(e.gpu, PE_PULL1) & 0x30010u, 0x10u); /* ACQUIRE_ACTIVE, target VRAM */
		nvm_method log[8];
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 1);
		fence_sync(&e, 1, 0x1000, 0x10);
		nfi_run(&n, 8);
		assert_int_equal(n.semaphores, 2);
		assert_int_equal(n.cache_errors + n.dma_pushers, 0);
		assert_int_equal(fence_word(&e), 0x12);
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 4);
		assert_int_equal(log[3].chid, 2);
		assert_int_equal(log[3].method, 0x300);
		expect_resumed(&e, &n);
		pe_fini(&e);
	}
}

/* The other SEMAPHORE errors nouveau's handler meets the same way: an
 * offset outside 12 bits (INVALID_OPERAND), an acquire or a release with no
 * DMA object (INVALID_STATE). The handler skips the method; the next one
 * runs. */
static void semaphore_errors_skipped(void **state)
{
	(void)state;
	struct {
		uint32_t m, d;
		unsigned sub;
	} cases[] = { { 0x64, 0x1000, 1 }, { 0x68, 1, 2 }, { 0x6c, 1, 2 } };
	const char *schips[] = { "nv17", "nv40" };
	for (int c = 0; c < 2; c++)
		for (size_t k = 0; k < 3; k++) {
			struct penv e;
			struct nfi n;
			pe_init(&e, schips[c]);
			nfi_setup(&n, &e);
			pe_std_channel(&e, 0, 0x62);
			uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0000,         PB_INC(0, cases[k].m, 1),
				          cases[k].d,      PB_INC(0, 0x50, 1), 0x77 };
			pe_pb(&e, 0, pb, 6);
			pe_put(&e, 0, 24);
			nvm_run_opts o = { .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE };
			nvm_run(e.gpu, &o);
			if (!nfi_in_hook) /* else handled already */
				assert_int_equal((rd(e.gpu, PE_PULL0) >> 20) & 0xf, cases[k].sub);
			nfi_run(&n, 4);
			assert_int_equal(n.semaphores, 1);
			assert_int_equal(rd(e.gpu, PE_REF), 0x77);
			expect_resumed(&e, &n);
			pe_fini(&e);
		}
}

/* ------------------------------------------------------------ CACHE_ERROR */

/* A handle missing from RAMHT (NO_HASH, PULL0 HASH_FAILED): nouveau's
 * nv04_fifo_intr_cache_error reads the entry at GET through
 * CACHE1_METHOD/DATA(ptr) (NV40: 0x90000), prints it, steps GET with PUSH0
 * off, clears HASH, turns DMA_PUSH and PULL0 back on. The entry sits at
 * GET's last slot too, where GET + 4 must wrap (nouveau writes it
 * unwrapped). */
static void cache_error_no_hash(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++)
		for (int last = 0; last < 2; last++) {
			struct penv e;
			struct nfi n;
			pe_init(&e, chips[c]);
			nfi_setup(&n, &e);
			pe_std_channel(&e, 0, 0x62);
			uint32_t slots = e.nv40 ? 512 : e.nv04 ? 32 : 128;
			uint32_t pre = last ? slots - 2 : 0; /* entries before the bad bind */
			uint32_t pb[8], w = 0;
			pb[w++] = PB_INC(0, 0, 1);
			pb[w++] = 0xbeef0000;
			pe_pb(&e, 0, pb, w);
			uint32_t off = 4 * w;
			if (pre) {
				uint32_t h = PB_NINC(0, 0x304, pre);
				if (e.nv04)
					h = PB_INC(0, 0x400, pre);
				pe_pb(&e, off, &h, 1);
				off += 4;
				for (uint32_t i = 0; i < pre; i++, off += 4)
					assert_int_equal(nvm_mem_wr32(e.gpu, NVM_AP_SYSMEM, PE_PB + off, i), NVM_OK);
			}
			uint32_t tail[] = { PB_INC(1, 0, 1), 0xdead0001u, PB_INC(0, 0x300, 1), 0x5a };
			pe_pb(&e, off, tail, 4);
			pe_put(&e, 0, off + 16);
			nvm_run_opts o = { .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE };
			nvm_run(e.gpu, &o);
			if (!nfi_in_hook) {
				assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_CACHE_ERROR);
				assert_int_equal(rd(e.gpu, PE_GET), ((pre + 1) % slots) * 4);
			}
			nfi_run(&n, 4);
			assert_int_equal(n.cache_errors, 1);
			assert_int_equal(n.errors, 1);
			assert_int_equal(n.err_mthd & 0xfffc, 0x2000u); /* subchannel 1, method 0 */
			assert_int_equal(n.err_data, 0xdead0001u);
			nvm_method log[4];
			uint64_t total = 0;
			size_t none = 0;
			assert_int_equal(nvm_method_log_read(e.gpu, "pgraph", 0, log, 0, &none, &total), NVM_OK);
			assert_int_equal(total, 2 + pre);
			size_t got = 0;
			assert_int_equal(nvm_method_log_read(e.gpu, "pgraph", (size_t)total - 1, log, 1, &got, NULL),
			                 NVM_OK);
			assert_int_equal(log[0].method, 0x300);
			assert_int_equal(log[0].data, 0x5a);
			assert_int_equal(rd(e.gpu, PE_GET), ((pre + 3) % slots) * 4);
			expect_resumed(&e, &n);
			pe_fini(&e);
		}
}

/* A SOFTWARE object (nouveau's NVSW, engine 0 in RAMHT) bound on
 * subchannel 1 and a method sent to it: each raises CACHE_ERROR with PULL0
 * DEVICE_SOFTWARE; nv04_fifo_swmthd gives the subchannel to SOFTWARE
 * (CACHE1 ENGINE nibble 0), passes HASH's instance for the bind and the
 * data for the method to nvkm_sw_mthd, and the handler steps GET. PGRAPH
 * work on subchannel 0 goes on. */
static void cache_error_software_method(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		struct nfi n;
		pe_init(&e, chips[c]);
		nfi_setup(&n, &e);
		pe_std_channel(&e, 3, 0x62);
		uint32_t sw = pe_object(&e, 3, 0x51, e.nv04 ? 0x6e : 0x16e, 0);
		uint32_t pb[] = { PB_INC(0, 0, 1),     0xbeef0003, PB_INC(1, 0, 1),     0x51,
			          PB_INC(1, 0x150, 1), 0xc0ffee,   PB_INC(0, 0x300, 1), 0x5a };
		pe_pb(&e, 0, pb, 8);
		pe_put(&e, 3, 32);
		nfi_run(&n, 8);
		assert_int_equal(n.cache_errors, 2);
		assert_int_equal(n.sw_calls, 2);
		assert_int_equal(n.errors, 0);
		assert_int_equal(n.sw_chid, 3);
		assert_int_equal(n.sw_subc, 1);
		assert_int_equal(n.sw_mthd, 0x150);
		assert_int_equal(n.sw_data, 0xc0ffee);
		assert_int_equal((rd(e.gpu, PE_ENGINE) >> 4) & 0xf, 0); /* SOFTWARE */
		nvm_method log[4];
		assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].method, 0x300);
		(void)sw;
		expect_resumed(&e, &n);
		pe_fini(&e);
	}
}

/* The bind's data nouveau passes: HASH INSTANCE (low 16 bits). */
static void cache_error_software_bind_instance(void **state)
{
	(void)state;
	struct penv e;
	struct nfi n;
	pe_init(&e, "nv10");
	nfi_setup(&n, &e);
	pe_std_channel(&e, 0, 0x62);
	uint32_t sw = pe_object(&e, 0, 0x51, 0x16e, 0);
	uint32_t pb[] = { PB_INC(2, 0, 1), 0x51 };
	pe_pb(&e, 0, pb, 2);
	pe_put(&e, 0, 8);
	nfi_run(&n, 4);
	assert_int_equal(n.sw_calls, 1);
	assert_int_equal(n.sw_mthd, 0);
	assert_int_equal(n.sw_data, sw >> 4);
	assert_int_equal(rd(e.gpu, 0x3258), 0); /* the handler cleared HASH */
	expect_resumed(&e, &n);
	pe_fini(&e);
}

/* A method 0x180..0x1fc on a SOFTWARE subchannel: the puller translates
 * its handle first; nv04_fifo_swmthd passes CACHE1 HASH's instance (low 16
 * bits) to nvkm_sw_mthd, so HASH must hold it when CACHE_ERROR is raised. */
static void cache_error_software_handle_method(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		struct nfi n;
		pe_init(&e, chips[c]);
		nfi_setup(&n, &e);
		pe_std_channel(&e, 0, 0x62);
		pe_object(&e, 0, 0x51, e.nv04 ? 0x6e : 0x16e, 0);
		uint32_t dma = pe_dmaobj(&e, 0x3d, 0, 0, 0x200000, 0x200fff);
		pe_ramht_add(&e, 0, 0xd0a, dma, 0);
		uint32_t pb[] = { PB_INC(1, 0, 1), 0x51, PB_INC(1, 0x18c, 1), 0xd0a };
		pe_pb(&e, 0, pb, 4);
		pe_put(&e, 0, 16);
		nfi_run(&n, 4);
		assert_int_equal(n.sw_calls, 2);
		assert_int_equal(n.sw_mthd, 0x18c);
		assert_int_equal(n.sw_data, dma >> 4);
		expect_resumed(&e, &n);
		pe_fini(&e);
	}
}

/* CACHE_ERROR on a PIO channel (NO_HASH): the same handler (its DMA_PUSH
 * writes change nothing for PIO); the channel's next stores go on. */
static void cache_error_pio(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		struct nfi n;
		pe_init(&e, chips[c]);
		nfi_setup(&n, &e);
		pe_object(&e, 2, 0x77, 0x62, 1);
		pe_pio(&e, 2, 0, 0, 0x78); /* not in RAMHT */
		pe_pio(&e, 2, 0, 0, 0x77);
		pe_pio(&e, 2, 0, 0x300, 5);
		nfi_run(&n, 4);
		assert_int_equal(n.cache_errors, 1);
		assert_int_equal(n.err_data, 0x78);
		nvm_method log[4];
		assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].data, 5);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		assert_int_equal(nvm_intr_line(e.gpu), 0);
		assert_int_equal(rd(e.gpu, PE_GET), rd(e.gpu, PE_PUT));
		assert_int_equal(rd(e.gpu, PE_PULL0), 1);
		pe_fini(&e);
	}
}

/* ------------------------------------------------------------ DMA_PUSHER */

/* Every DMA_PUSHER error nouveau's nv04_fifo_intr_dma_pusher recovers from
 * (DMA_GET = DMA_PUT, DMA_STATE 0, DMA_PUSH 1, acknowledge): the channel's
 * next submission runs. */
static void dma_pusher_recovered(void **state)
{
	(void)state;
	struct {
		const char *why;
		uint32_t w;
		unsigned err;
		bool old; /* NV04 and NV10 have it too */
	} cases[] = {
		{ "INVALID_MTHD", PB_INC(1, 0x0c, 1), 2, true },
		{ "INVALID_CMD", 0xe0000000u, 4, true },
		{ "RET_SUBR_INACTIVE", PB_RETURN, 3, false },
		{ "CALL_SUBR_ACTIVE", PB_CALL(0x800), 1, false },
	};
	for (size_t c = 0; c < NCHIPS; c++)
		for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
			struct penv e;
			struct nfi n;
			if (!cases[k].old && (!strcmp(chips[c], "nv04") || !strcmp(chips[c], "nv10")))
				continue;
			pe_init(&e, chips[c]);
			nfi_setup(&n, &e);
			pe_std_channel(&e, 0, 0x62);
			/* the bind, the bad word (CALL_SUBR_ACTIVE: inside a
			 * subroutine at 0x400), words the recovery skips */
			uint32_t call = cases[k].err == 1 ? PB_CALL(0x400) : cases[k].w;
			uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0000, call, 1, PB_INC(0, 0x304, 1), 0xbad };
			pe_pb(&e, 0, pb, 6);
			uint32_t sub[] = { cases[k].w, PB_INC(0, 0x308, 1), 0xbad };
			pe_pb(&e, 0x400, sub, 3);
			pe_put(&e, 0, 24);
			nvm_run_opts o = { .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE };
			nvm_run(e.gpu, &o);
			if (!nfi_in_hook)
				assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_DMA_PUSHER);
			nfi_run(&n, 4);
			assert_int_equal(n.dma_pushers, 1);
			assert_int_equal(n.dma_state >> 29, cases[k].err);
			nvm_method log[4];
			assert_int_equal(pe_log(&e, "pgraph", log, 4), 1); /* nothing after the error */
			assert_int_equal(rd(e.gpu, PE_DMA_GET), 24);
			assert_int_equal(rd(e.gpu, PE_DMA_STATE), 0);
			/* the channel's next submission */
			uint32_t more[] = { PB_INC(0, 0x300, 1), 0x5a };
			pe_pb(&e, 24, more, 2);
			pe_put(&e, 0, 32);
			nfi_run(&n, 4);
			assert_int_equal(n.dma_pushers, 1);
			assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
			assert_int_equal(log[1].method, 0x300);
			expect_resumed(&e, &n);
			pe_fini(&e);
		}
}

/* ------------------------------------------------------------ the rest */

/* Interrupts nouveau does not handle (RUNOUT, DMA_PTE, ACQUIRE_TIMEOUT, ...)
 * go to its catch-all: disabled in INTR_EN and acknowledged. A PIO store
 * of a method the puller does not know goes to RAMRO with RUNOUT (seed
 * 001); after the catch-all the line is down, RUNOUT is no longer enabled
 * and the channel's next stores go on. */
static void runout_masked(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		struct nfi n;
		pe_init(&e, chips[c]);
		nfi_setup(&n, &e);
		uint32_t gr = pe_grobj(&e, 0x62);
		pe_ramht_add(&e, 1, 0x77, gr, 1);
		pe_pio(&e, 1, 0, 0x0c, 1); /* reserved: RAMRO, RUNOUT */
		if (!nfi_in_hook)
			assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_RUNOUT);
		nfi_run(&n, 4);
		assert_int_equal(n.masked, PE_INTR_RUNOUT);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		assert_int_equal(rd(e.gpu, PE_INTR_EN) & PE_INTR_RUNOUT, 0);
		assert_int_equal(nvm_intr_line(e.gpu), 0);
		pe_pio(&e, 1, 0, 0, 0x77);
		pe_pio(&e, 1, 0, 0x300, 5);
		nfi_run(&n, 4);
		nvm_method log[4];
		assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].data, 5);
		assert_int_equal(rd(e.gpu, PE_RUNOUT_ST) & 1, 1); /* the entry stays in RAMRO */
		pe_fini(&e);
	}
}

/* DMA_PTE (a pushbuffer page without PRESENT): nouveau's catch-all
 * disables and acknowledges it; the pusher reads the PTE again, faults
 * again with the interrupt now disabled, and waits: no line, no busy
 * loop (the run ends idle). */
static void dma_pte_masked(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		struct nfi n;
		pe_init(&e, chips[c]);
		nfi_setup(&n, &e);
		uint32_t pb = pe_alloc(&e, 16);
		pe_wr(&e, pb, 0x3d | 0x1000u | 2u << 16); /* PT_PRESENT, PCI, not linear */
		pe_wr(&e, pb + 4, 0x1fff);
		pe_wr(&e, pb + 8, PE_PB + 0x5002); /* page 0: not present */
		pe_dma_channel(&e, 0, pb, 0);
		pe_put(&e, 0, 8);
		assert_int_equal(nfi_run(&n, 4), 1);
		assert_int_equal(n.masked, 1u << 16);
		assert_int_equal(rd(e.gpu, PE_INTR_EN) & (1u << 16), 0);
		assert_int_equal(nvm_intr_line(e.gpu), 0);
		assert_string_equal(pe_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, PE_DMA_GET), 0);
		pe_fini(&e);
	}
}

/* ACQUIRE_TIMEOUT (INTR 24), should a driver set a timeout (nouveau
 * leaves it 0): the catch-all disables and acknowledges it; the acquire
 * keeps waiting and goes on when the semaphore is written. */
static void acquire_timeout_masked(void **state)
{
	(void)state;
	const char *achips[] = { "nv17", "nv40" };
	for (int c = 0; c < 2; c++) {
		struct penv e;
		struct nfi n;
		pe_init(&e, achips[c]);
		nfi_setup(&n, &e);
		pe_std_channel(&e, 1, 0x62);
		uint32_t sem = pe_dmaobj(&e, 0x02, 0, 2, FENCE_BO, FENCE_BO + 0xfff);
		pe_ramht_add(&e, 1, NV_SEMA, sem, 0);
		/* RAMFC ACQUIRE_TIMEOUT (nv17_fifo_ramfc 0x28, nv40_fifo_ramfc 0x2c) */
		pe_wr(&e, e.ramfc + e.ramfc_size + (e.nv40 ? 0x2c : 0x28), 1000);
		uint32_t pb[] = {
			PB_INC(0, 0, 1), 0xbeef0001, PB_INC(0, 0x60, 3), NV_SEMA, 0, 7, PB_INC(0, 0x300, 1), 1
		};
		pe_pb(&e, 0, pb, 8);
		pe_put(&e, 1, 32);
		nfi_run(&n, 4);
		/* a waiting acquire keeps nothing busy: time passes without it */
		nvm_run_opts o = { .ns = 10000 };
		nvm_run(e.gpu, &o);
		nfi_run(&n, 4);
		assert_int_equal(n.masked, 1u << 24);
		assert_int_equal(rd(e.gpu, PE_INTR_EN) & (1u << 24), 0);
		assert_int_equal(nvm_intr_line(e.gpu), 0);
		assert_int_equal(rd(e.gpu, PE_PULL1) & 0x10, 0x10); /* still waiting */
		assert_int_equal(nvm_mem_wr32(e.gpu, NVM_AP_VRAM, FENCE_BO, 7), NVM_OK);
		nfi_run(&n, 4);
		nvm_method log[4];
		assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(rd(e.gpu, PE_PULL1) & 0x10, 0);
		pe_fini(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nv17_fence_with_rdwr_nvsema),
		cmocka_unit_test(semaphore_errors_skipped),
		cmocka_unit_test(cache_error_no_hash),
		cmocka_unit_test(cache_error_software_method),
		cmocka_unit_test(cache_error_software_bind_instance),
		cmocka_unit_test(cache_error_software_handle_method),
		cmocka_unit_test(cache_error_pio),
		cmocka_unit_test(dma_pusher_recovered),
		cmocka_unit_test(runout_masked),
		cmocka_unit_test(dma_pte_masked),
		cmocka_unit_test(acquire_timeout_masked),
	};
	int failed = cmocka_run_group_tests_name("handler after each run", tests, NULL, NULL);
	nfi_in_hook = 1;
	return failed + cmocka_run_group_tests_name("handler from the interrupt hook", tests, NULL, NULL);
}
