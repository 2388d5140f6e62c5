/* Snapshots of the pre-Volta front ends (issue 22 item 3): PFIFO of every
 * generation (NV01/NV03 PIO and CACHE0/CACHE1, the NV04 DMA pusher
 * mid-pushbuffer, channel switches, a blocked semaphore acquire, the G80 IB
 * pusher mid-entry), the G80 VM (a stale TLB entry in strict mode, a flush
 * in flight) and HWSQ (a script mid-wait, mid event wait, mid framebuffer
 * pause). Every case goes through snap_trace.h: cut at every step, the
 * restored run is the uninterrupted one event for event. Then snapshots
 * holding states the blocks cannot be in are refused with NVM_ERR_CORRUPT
 * and leave the GPU as it was. The drivers write the hardware the way
 * nouveau and rivafb do, through the set-up helpers (nvmodel/setup.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "snap_trace.h"

#include "hwsq/hwsq_internal.h"
#include "mmu/g80vm_internal.h"
#include "mmu/mmu_gens.h"
#include "nvmodel/g80vm.h"
#include "nvmodel/hwsq.h"
#include "nvmodel/pfifo.h"
#include "nvmodel/setup.h"
#include "pfifo/g80.h"
#include "pfifo/pio01.h"

static void wr(nvm_gpu *gpu, uint32_t addr, uint32_t v)
{
	assert_int_equal(nvm_reg_write(gpu, addr, v), NVM_OK);
}

/* A slice of virtual time with a small run budget, so that the pushers
 * stop in the middle of what they were given (the budget is the events and
 * the words they decode). */
static void run_slice(nvm_gpu *gpu, uint64_t ns, uint64_t budget)
{
	nvm_run_opts o = { .ns = ns, .max_events = budget };
	nvm_run(gpu, &o);
}

static void run_idle(nvm_gpu *gpu)
{
	nvm_run_opts o = { .ns = 10000000, .flags = NVM_RUN_UNTIL_IDLE };
	nvm_run(gpu, &o);
}

/* Does case c reach a state where pred holds after one of its steps but
 * the last (a cut there is a cut in that state)? Fails if not: the case
 * would not test what it says. */
static void reaches(const struct snap_case *c, bool (*pred)(nvm_gpu *gpu), const char *what)
{
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&c->cfg, &gpu), NVM_OK);
	c->setup(gpu);
	bool seen = false;
	for (unsigned i = 0; i < c->nsteps; i++) {
		c->step(gpu, i);
		seen |= i + 1 < c->nsteps && pred(gpu);
	}
	nvm_close(gpu);
	if (!seen)
		fail_msg("%s: no cut %s", c->name, what);
}

static struct pfifo *pf(nvm_gpu *gpu)
{
	return gpu_block(gpu, &pfifo_class);
}

/* The DMA pusher stopped inside the pushbuffer, methods already delivered. */
static bool mid_pushbuffer(nvm_gpu *gpu)
{
	struct pfifo *f = pf(gpu);
	return *f->r_dma_get != *f->r_dma_put && f->stats.engine_methods > 0;
}

/* CACHE1 holds entries, PGRAPH has had some. */
static bool cache1_half(nvm_gpu *gpu)
{
	struct pfifo *f = pf(gpu);
	if (f->chip->ops == &pio01_ops) {
		struct pio01 *p = (struct pio01 *)f;
		return *p->c1_put != *p->c1_get && f->stats.engine_methods > 0;
	}
	return pfifo_cache_count(f) > 0 && pfifo_cache_free(f) > 0 && f->stats.engine_methods > 0;
}

/* The channel's timeslice is over and the step that switches is pending,
 * with the channel's pushbuffer not done: a switch pending. */
static bool switch_due(nvm_gpu *gpu)
{
	struct pfifo *f = pf(gpu);
	return f->slice_end <= nvm_time_ns(gpu) && f->ev && *f->r_dma_get != *f->r_dma_put;
}

static bool acquire_waits(nvm_gpu *gpu)
{
	return (*pf(gpu)->r_pull1 & PULL1_ACQUIRE_ACTIVE) && pf(gpu)->acq_watch;
}

static bool acquire_timer(nvm_gpu *gpu)
{
	return acquire_waits(gpu) && pf(gpu)->acq_to_ev;
}

/* An IB entry partly fetched: methods delivered, DMA_GET short of its end. */
static bool mid_ib_entry(nvm_gpu *gpu)
{
	struct g80_pfifo *g = gpu_block(gpu, &pfifo_class);
	return g->base.stats.engine_methods > 0 && *g->base.r_dma_get != *g->base.r_dma_put;
}

static bool tlb_stale_flush(nvm_gpu *gpu)
{
	struct g80vm *m = gpu_block(gpu, &g80vm_class);
	return m->strict && m->tlb.nlive && m->flushes_in_flight;
}

static bool hwsq_waits(nvm_gpu *gpu)
{
	return ((struct hwsq *)gpu_block(gpu, &hwsq_class))->blk == HB_WAIT;
}

static bool hwsq_ewaits(nvm_gpu *gpu)
{
	return ((struct hwsq *)gpu_block(gpu, &hwsq_class))->blk == HB_EWAIT;
}

/* The pause requested, FB_PAUSED not yet there. */
static bool pause_pending(nvm_gpu *gpu)
{
	struct hwsq *h = gpu_block(gpu, &hwsq_class);
	return h->pause_req && h->pause_id;
}

/* ---------------------------------------------------------------- NV04 .. NV4x DMA */

/* What the set-up left (plain data, the same for every GPU of a case). */
static nvm_nv04_fifo nv04;
static uint32_t nv04_put[3][3]; /* per channel: DMA_PUT of each kick */

/* old-format INC header: COUNT 28:18, SUBCHANNEL 15:13, METHOD 12:2 */
static uint32_t hdr(unsigned count, unsigned subch, uint32_t method)
{
	return (uint32_t)count << 18 | subch << 13 | method;
}

/* A pushbuffer of channel chid at sysmem 0x100000 + off: the object bound
 * on subchannel 0, then runs of methods; *put gets each part's end. */
static void nv04_pushbuf(nvm_gpu *gpu, uint32_t chid, uint32_t off, uint32_t handle, unsigned runs)
{
	uint32_t w[1024], n = 0;
	w[n++] = hdr(1, 0, 0);
	w[n++] = handle;
	for (unsigned r = 0; r < runs; r++) {
		w[n++] = hdr(48, r & 7 ? 0 : 0, 0x400 + 0x100 * r);
		for (unsigned i = 0; i < 48; i++)
			w[n++] = chid << 24 | r << 16 | i;
		if (r == runs / 2 - 1 || r == runs - 1)
			nv04_put[chid][r == runs - 1] = off + 4 * n;
	}
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_SYSMEM, 0x100000 + off, w, 4 * n), NVM_OK);
}

static void nv04_setup_chans(nvm_gpu *gpu, unsigned nchan)
{
	assert_int_equal(nvm_nv04_fifo_init(gpu, &nv04), NVM_OK);
	nvm_nv04_dmaobj o = { .class_id = 0x3d, .target = 2, .start = 0x100000, .limit = 0x1fffff };
	uint32_t pb = UINT32_MAX, gr;
	assert_int_equal(nvm_nv04_dmaobj_write(gpu, &nv04, &o, &pb), NVM_OK);
	assert_int_equal(nvm_nv04_object(gpu, &nv04, 0x4a, &gr), NVM_OK);
	for (uint32_t c = 1; c <= nchan; c++) {
		assert_int_equal(nvm_nv04_ramht_add(gpu, &nv04, c, 0xbeef0000 + c, gr, 1, NULL), NVM_OK);
		assert_int_equal(nvm_nv04_dma_channel(gpu, &nv04, c, pb, 0x10000 * c, 0), NVM_OK);
		nv04_pushbuf(gpu, c, 0x10000 * c, 0xbeef0000 + c, 6);
	}
}

static void nv04_one_setup(nvm_gpu *gpu)
{
	nv04_setup_chans(gpu, 1);
}

/* Two kicks, the first one's methods cut everywhere by small slices. */
static void nv04_one_step(nvm_gpu *gpu, unsigned i)
{
	if (i == 0 || i == 7)
		assert_int_equal(nvm_nv04_kick(gpu, &nv04, 1, nv04_put[1][i == 7]), NVM_OK);
	else if (i < 13)
		run_slice(gpu, 60, 3);
	else
		run_idle(gpu);
}

static void nv04_mid_pushbuffer(void **s)
{
	(void)s;
	static const char *const chips[] = { "nv04", "nv10", "nv17", "nv40" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct snap_case c = { chips[i],
			               { .chip = chips[i], .sysmem_size = 4u << 20 },
			               nv04_one_setup,
			               nv04_one_step,
			               14,
			               NULL,
			               NULL };
		snap_case_check(&c);
		reaches(&c, mid_pushbuffer, "inside the pushbuffer");
	}
}

/* Two DMA channels with work and a short timeslice: the switcher passes
 * CACHE1 between them; cuts fall with a switch pending (the timeslice over,
 * CACHE1 draining) and just after one. */
static void nv04_two_setup(nvm_gpu *gpu)
{
	nv04_setup_chans(gpu, 2);
	wr(gpu, 0x2044, 0x40); /* DMA_TIMESLICE SELECT: 64 ns (NV40: each channel's, in RAMFC) */
	for (uint32_t c = 1; c <= 2; c++) {
		nvm_status st = nvm_nv04_ramfc_set(gpu, &nv04, c, "DMA_TIMESLICE", 0x40);
		assert_true(st == NVM_OK || st == NVM_ERR_NOENT);
	}
}

static void nv04_two_step(nvm_gpu *gpu, unsigned i)
{
	if (i == 0)
		assert_int_equal(nvm_nv04_kick(gpu, &nv04, 1, nv04_put[1][1]), NVM_OK);
	else if (i == 1)
		assert_int_equal(nvm_nv04_kick(gpu, &nv04, 2, nv04_put[2][1]), NVM_OK);
	else if (i < 20)
		run_slice(gpu, 40, 4);
	else
		run_idle(gpu);
}

static void nv04_switch_pending(void **s)
{
	(void)s;
	static const char *const chips[] = { "nv04", "nv40" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct snap_case c = { chips[i],
			               { .chip = chips[i], .sysmem_size = 4u << 20 },
			               nv04_two_setup,
			               nv04_two_step,
			               21,
			               NULL,
			               NULL };
		snap_case_check(&c);
		reaches(&c, switch_due, "with a switch pending");
		/* the case does switch channels */
		nvm_gpu *gpu = NULL;
		assert_int_equal(nvm_open(&c.cfg, &gpu), NVM_OK);
		c.setup(gpu);
		for (unsigned k = 0; k < c.nsteps; k++)
			c.step(gpu, k);
		nvm_pfifo_stats st;
		assert_int_equal(nvm_pfifo_get_stats(gpu, &st), NVM_OK);
		if (st.ctx_switches < 4)
			fail_msg("%s: %llu switches", chips[i], (unsigned long long)st.ctx_switches);
		nvm_close(gpu);
	}
}

/* NV17: a semaphore acquire that waits (the puller blocked, a memory watch
 * on the semaphore), released by the CPU's write of the value. nouveau's
 * nv17 fence: DMA_SEMAPHORE 0x60, SEMAPHORE_OFFSET 0x64, ACQUIRE 0x68. */
static void nv17_acq_setup(nvm_gpu *gpu)
{
	assert_int_equal(nvm_nv04_fifo_init(gpu, &nv04), NVM_OK);
	nvm_nv04_dmaobj o = { .class_id = 0x3d, .target = 2, .start = 0x100000, .limit = 0x1fffff };
	nvm_nv04_dmaobj so = { .class_id = 0x02, .target = 2, .access = 2, .start = 0x300000, .limit = 0x300fff };
	uint32_t pb = UINT32_MAX, sem = UINT32_MAX, gr;
	assert_int_equal(nvm_nv04_dmaobj_write(gpu, &nv04, &o, &pb), NVM_OK);
	assert_int_equal(nvm_nv04_dmaobj_write(gpu, &nv04, &so, &sem), NVM_OK);
	assert_int_equal(nvm_nv04_object(gpu, &nv04, 0x4a, &gr), NVM_OK);
	assert_int_equal(nvm_nv04_ramht_add(gpu, &nv04, 1, 0xbeef0001, gr, 1, NULL), NVM_OK);
	assert_int_equal(nvm_nv04_ramht_add(gpu, &nv04, 1, 0xd0000001, sem, 0, NULL), NVM_OK);
	assert_int_equal(nvm_nv04_dma_channel(gpu, &nv04, 1, pb, 0x10000, 0), NVM_OK);
	uint32_t w[] = { hdr(1, 0, 0),
		         0xbeef0001,
		         hdr(1, 0, 0x60),
		         0xd0000001,
		         hdr(1, 0, 0x64),
		         0x10,
		         hdr(1, 0, 0x68),
		         0x5,
		         hdr(4, 0, 0x400),
		         1,
		         2,
		         3,
		         4,
		         hdr(1, 0, 0x68),
		         0x6,
		         hdr(2, 0, 0x500),
		         7,
		         8 };
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_SYSMEM, 0x110000, w, sizeof(w)), NVM_OK);
	nv04_put[1][0] = 0x10000 + sizeof(w);
	/* ACQUIRE_TIMEOUT 300 ns: the waiting acquire times out (an event), raises
	 * INTR ACQUIRE_TIMEOUT and goes on waiting */
	assert_int_equal(nvm_nv04_ramfc_set(gpu, &nv04, 1, "ACQUIRE_TIMEOUT", 300), NVM_OK);
}

static void nv17_acq_step(nvm_gpu *gpu, unsigned i)
{
	switch (i) {
	case 0: assert_int_equal(nvm_nv04_kick(gpu, &nv04, 1, nv04_put[1][0]), NVM_OK); break;
	case 4: /* the first acquire is satisfied */
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x300010, 5), NVM_OK);
		break;
	case 6:
		wr(gpu, 0x2100, 1u << 24); /* INTR ACQUIRE_TIMEOUT cleared: a new interval */
		break;
	case 8: /* a value the second does not want: it goes on waiting */
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x300010, 9), NVM_OK);
		break;
	case 11: assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x300010, 6), NVM_OK); break;
	default: run_slice(gpu, 200, 20);
	}
}

static void nv17_acquire_blocked(void **s)
{
	(void)s;
	struct snap_case c = { "nv17 acquire",
		               { .chip = "nv17", .sysmem_size = 4u << 20 },
		               nv17_acq_setup,
		               nv17_acq_step,
		               15,
		               NULL,
		               NULL };
	snap_case_check(&c);
	reaches(&c, acquire_waits, "while the acquire waits");
	reaches(&c, acquire_timer, "with the acquire's timeout armed");
}

/* ---------------------------------------------------------------- NV01 / NV03 PIO */

static nvm_nv03_fifo nv03;

static void nv03_setup(nvm_gpu *gpu)
{
	assert_int_equal(nvm_nv03_fifo_init(gpu, &nv03), NVM_OK);
	uint32_t ctx;
	assert_int_equal(nvm_nv03_context(&nv03, 0x42, 0x3410, 1, 0, &ctx), NVM_OK);
	assert_int_equal(nvm_nv03_ramht_add(gpu, &nv03, 0, 0x80000000u, ctx, NULL), NVM_OK);
	assert_int_equal(nvm_nv03_ramht_add(gpu, &nv03, 1, 0x80000001u, ctx, NULL), NVM_OK);
}

/* rivafb's way: stores to the USER area of channel 0, CACHE1 filling up
 * between runs (half full at several cuts), then a store of channel 1
 * while channel 0 holds CACHE1 (RAMRO, RUNOUT). */
static void nv03_step(nvm_gpu *gpu, unsigned i)
{
	if (i == 0) {
		assert_int_equal(nvm_nv03_pio(gpu, 0, 0, 0x0000, 0x80000000u), NVM_OK);
	} else if (i < 20) {
		for (unsigned k = 0; k < 3 + i % 5; k++)
			assert_int_equal(nvm_nv03_pio(gpu, 0, 0, 0x0300 + 4 * ((i * 7 + k) % 32), i << 8 | k), NVM_OK);
		if (i % 3 == 0)
			run_slice(gpu, 3, 1);
		if (i == 10)
			assert_int_equal(nvm_nv03_pio(gpu, 1, 0, 0x0000, 0x80000001u), NVM_OK);
	} else if (i < 26) {
		run_slice(gpu, 5, 2);
	} else {
		run_idle(gpu);
	}
}

static void nv03_pio_half_full(void **s)
{
	(void)s;
	static const char *const chips[] = { "nv01", "nv03", "nv03t" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct snap_case c = { chips[i], { .chip = chips[i] }, nv03_setup, nv03_step, 27, NULL, NULL };
		snap_case_check(&c);
		reaches(&c, cache1_half, "with CACHE1 part full");
	}
}

/* NV04 PIO: CACHE0 (the one-slot cache a driver fills by hand: METHOD /
 * DATA / PUT) and CACHE1 half full from USER-area stores. */
static void nv04_pio_setup(nvm_gpu *gpu)
{
	nv04_setup_chans(gpu, 0);
	uint32_t gr;
	assert_int_equal(nvm_nv04_object(gpu, &nv04, 0x4a, &gr), NVM_OK);
	assert_int_equal(nvm_nv04_ramht_add(gpu, &nv04, 0, 0xbeef0000, gr, 1, NULL), NVM_OK);
}

/* A driver's injection into CACHE0: METHOD (SUBCH 15:13, MTHD 12:2),
 * DATA, then PUT past GET. */
static void cache0_inject(nvm_gpu *gpu, uint32_t subch, uint32_t m, uint32_t d)
{
	uint32_t get;
	wr(gpu, 0x3100, subch << 13 | m);
	wr(gpu, 0x3104, d);
	assert_int_equal(nvm_reg_read(gpu, 0x3070, &get), NVM_OK);
	wr(gpu, 0x3010, get ^ 4u);
}

/* CACHE0 full while its PULL0 ACCESS is off, then pulled; a handle RAMHT
 * lacks (CACHE_ERROR: CACHE0 waits for its clearing), then cleared. */
static void cache0_step(nvm_gpu *gpu, unsigned i)
{
	switch (i) {
	case 2: cache0_inject(gpu, 2, 0, 0xbeef0000); break;
	case 5:
		wr(gpu, 0x3050, 1); /* CACHE0 PULL0 ACCESS */
		break;
	case 6: cache0_inject(gpu, 2, 0x300, 0x77); break;
	case 8: cache0_inject(gpu, 3, 0, 0xdead); break;
	case 10:
		wr(gpu, 0x2100, 1); /* INTR CACHE_ERROR cleared */
		wr(gpu, 0x3050, 1); /* CACHE0 PULL0: the error status cleared */
		cache0_inject(gpu, 2, 0x304, 0x78);
		break;
	}
}

static bool cache0_error(nvm_gpu *gpu)
{
	return pf(gpu)->c0.err && pcache_count(&pf(gpu)->c0);
}

static bool cache0_full(nvm_gpu *gpu)
{
	return pcache_count(&pf(gpu)->c0) && !pf(gpu)->c0.err;
}

static void nv04_pio_step(nvm_gpu *gpu, unsigned i)
{
	if (i == 0) {
		assert_int_equal(nvm_nv04_pio(gpu, &nv04, 0, 0, 0, 0xbeef0000), NVM_OK);
	} else if (i < 12) {
		cache0_step(gpu, i);
		for (unsigned k = 0; k < 5; k++)
			assert_int_equal(nvm_nv04_pio(gpu, &nv04, 0, 0, 0x400 + 4 * k, i << 8 | k), NVM_OK);
		if (i % 2)
			run_slice(gpu, 4, 1);
	} else {
		run_idle(gpu);
	}
}

static void nv04_pio_cache1(void **s)
{
	(void)s;
	struct snap_case c = {
		"nv04 pio", { .chip = "nv04", .sysmem_size = 4u << 20 }, nv04_pio_setup, nv04_pio_step, 13, NULL, NULL
	};
	snap_case_check(&c);
	reaches(&c, cache1_half, "with CACHE1 part full");
	reaches(&c, cache0_full, "with CACHE0 full");
	reaches(&c, cache0_error, "with CACHE0 waiting on its CACHE_ERROR");
}

/* ---------------------------------------------------------------- G80 / G84 IB */

static nvm_g80_fifo g80f;
static uint32_t g80_chid[2] = { 1, 2 }, g80_ibput[2][2];

/* Channels in IB mode as nouveau's nv50 / g84 fifo code makes them; each
 * gets two IB entries of long method runs (one per kick). */
static void g80_setup(nvm_gpu *gpu)
{
	assert_int_equal(nvm_g80_fifo_init(gpu, &g80f), NVM_OK);
	for (unsigned c = 0; c < 2; c++) {
		nvm_g80_channel_desc d;
		nvm_g80_channel_desc_init(&d);
		d.chid = g80_chid[c];
		d.vm = c == 1;
		nvm_g80_channel ch;
		assert_int_equal(nvm_g80_channel_create(gpu, &g80f, &d, &ch), NVM_OK);
		uint32_t gr;
		assert_int_equal(nvm_g80_channel_object(gpu, &ch, 0x5097, 0xbeef0001, 1, &gr), NVM_OK);
		for (unsigned e = 0; e < 2; e++) {
			uint32_t w[400], n = 0;
			if (!e) {
				w[n++] = hdr(1, 0, 0);
				w[n++] = 0xbeef0001;
			}
			for (unsigned r = 0; r < 3; r++) {
				w[n++] = (r == 1 ? 0x40000000u : 0) | hdr(100, 0, 0x400 + 0x200 * r);
				for (unsigned i = 0; i < 100; i++)
					w[n++] = c << 24 | e << 20 | r << 16 | i;
			}
			uint64_t va;
			assert_int_equal(nvm_g80_channel_write(gpu, &ch, w, n, &va), NVM_OK);
			assert_int_equal(nvm_g80_channel_ib_entry(gpu, &ch, va, n, 0), NVM_OK);
			g80_ibput[c][e] = ch.ib_put;
		}
		nvm_g80_channel_release(&ch);
	}
	wr(gpu, 0x2044, 0x100); /* DMA_TIMESLICE */
}

static void g80_step(nvm_gpu *gpu, unsigned i)
{
	if (i == 0 || i == 2 || i == 9 || i == 11) /* USER IB_PUT */
		wr(gpu, 0xc00000 + g80_chid[i % 9 != 0] * 0x2000 + 0x8c, g80_ibput[i % 9 != 0][i >= 9]);
	else if (i < 20)
		run_slice(gpu, 50, 4);
	else
		run_idle(gpu);
}

static void g84_mid_ib_entry(void **s)
{
	(void)s;
	static const char *const chips[] = { "g80", "g84" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct snap_case c = {
			chips[i],  { .chip = chips[i], .vram_size = 256u << 20, .sysmem_size = 64u << 20 },
			g80_setup, g80_step,
			21,        NULL,
			NULL
		};
		snap_case_check(&c);
		reaches(&c, mid_ib_entry, "inside an IB entry");
	}
}

/* ---------------------------------------------------------------- G80 VM */

static uint32_t vm_desc, vm_sel;
static uint64_t vm_pt;

static void vm_setup(nvm_gpu *gpu)
{
	nvm_g80_vm_desc d;
	nvm_g80_vm_desc_init(&d);
	d.addr = 0x100000;
	nvm_g80_vmb *vm = NULL;
	assert_int_equal(nvm_g80_vmb_create(gpu, &d, &vm), NVM_OK);
	vm_desc = nvm_g80_vmb_desc(vm);
	nvm_g80_dmaobj paged = { .cls = 0x3d, .limit = (1ull << 40) - 1 };
	vm_sel = 0;
	assert_int_equal(nvm_g80_vmb_dmaobj(gpu, vm, &paged, &vm_sel), NVM_OK);
	nvm_g80_map_desc m;
	nvm_g80_map_desc_init(&m);
	m.virt = 0x20000000;
	m.lin = 0x400000;
	m.size = 0x10000;
	m.contig = 0;
	assert_int_equal(nvm_g80_vmb_map(gpu, vm, &m, NULL), NVM_OK);
	uint32_t page, entries;
	assert_int_equal(nvm_g80_vmb_pt(vm, 1, &vm_pt, &page, &entries), NVM_OK);
	nvm_g80_vmb_free(vm);
	for (uint32_t k = 0; k < 8; k++)
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x400000 + 0x1000 * k, 0x1000 + k), NVM_OK);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x800000, 0xdead), NVM_OK);
}

/* A read of page k of the mapping by PGRAPH (engine 0). */
static void vm_read(nvm_gpu *gpu, uint32_t k)
{
	nvm_g80_req q = { .chan = vm_desc, .selector = vm_sel, .offset = 0x20000000 + 0x1000 * k };
	uint32_t v;
	nvm_g80_res res;
	nvm_g80_read(gpu, &q, &v, 4, &res);
}

static void vm_step(nvm_gpu *gpu, unsigned i)
{
	switch (i) {
	case 0: assert_int_equal(nvm_g80_set_strict_tlb(gpu, 1), NVM_OK); break;
	case 1:
	case 2:
		vm_read(gpu, i); /* fills the TLB */
		break;
	case 3: { /* page 1 moves without a flush: its TLB entry is stale */
		uint32_t pte[2] = { 0x800001u, 0 };
		assert_int_equal(nvm_mem_write(gpu, NVM_AP_VRAM, vm_pt + 8, pte, 8), NVM_OK);
		break;
	}
	case 4:
	case 7:
	case 9:
		vm_read(gpu, 1); /* strict: the stale entry is reported */
		break;
	case 5:
		wr(gpu, 0x100c80, 0 << 16 | 1); /* TLB flush of PGRAPH, in flight for 100 ns */
		break;
	case 6: run_slice(gpu, 50, 0); break;
	default: run_slice(gpu, 100, 0);
	}
}

static void g80vm_stale_tlb(void **s)
{
	(void)s;
	static const char *const chips[] = { "g80", "g84" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct snap_case c = { chips[i], { .chip = chips[i], .vram_size = 16u << 20, .sysmem_size = 1u << 20 },
			               vm_setup, vm_step,
			               10,       NULL,
			               NULL };
		snap_case_check(&c);
		reaches(&c, tlb_stale_flush, "with a flush in flight over a strict TLB");
	}
}

/* ---------------------------------------------------------------- HWSQ */

static const char *hwsq_src;

static void hwsq_setup(nvm_gpu *gpu)
{
	nvm_hwsq_variant v;
	assert_int_equal(nvm_hwsq_gpu_variant(gpu, &v), NVM_OK);
	uint8_t code[0x200] = { 0 };
	size_t n = 0;
	nvm_hwsq_asm_error err;
	if (nvm_hwsq_assemble(v, hwsq_src, strlen(hwsq_src), code, sizeof(code), &n, &err))
		fail_msg("asm line %d: %s", err.line, err.message);
	for (size_t i = 0; i < n; i += 4) {
		uint32_t w = (uint32_t)code[i] | (uint32_t)code[i + 1] << 8 | (uint32_t)code[i + 2] << 16 |
		             (uint32_t)code[i + 3] << 24;
		wr(gpu, 0x1400 + (uint32_t)i, w);
	}
	wr(gpu, 0x1098, 1u << 3); /* DEBUG_6 HWSQ_ENABLE */
}

/* A PTIMER wait, pokes, an event wait the CPU ends, a second slot. */
static void hwsq_wait_step(nvm_gpu *gpu, unsigned i)
{
	switch (i) {
	case 0:
		wr(gpu, 0x130c, 3); /* TRIGGER: start slot A */
		break;
	case 5: assert_int_equal(nvm_hwsq_set_event(gpu, 3, 1), NVM_OK); break;
	default: run_slice(gpu, 300, 0);
	}
}

#define HWSQ_NV17_SRC "a: wait 0x1\nset1 0x2\nwait 0x2\nunset 0x2\nexit\nb: set0 0x5\nwait 0x1\nset1 0x5\nexit\n"

static void hwsq_nv17_step(nvm_gpu *gpu, unsigned i)
{
	if (i == 0)
		wr(gpu, 0x130c, 3); /* start slot A at entry 0 */
	else if (i == 2) {
		wr(gpu, 0x1304, 5u << 8);     /* ENTRY_POINT 1: b */
		wr(gpu, 0x130c, 1u << 2 | 1); /* start slot B at entry point 1 */
	} else
		run_slice(gpu, 300, 0);
}

static void hwsq_mid_wait(void **s)
{
	(void)s;
	hwsq_src = "data 0x11\naddr 0x1304\nwait 0x1\ndata 0x22\naddr 0x1304\newait 0x3 0x1\nwait 0x1\n"
	           "set1 0x2\nexit\n";
	static const char *const chips[] = { "nv41", "g80", "g92" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct snap_case c = { chips[i],   { .chip = chips[i], .vram_size = 1u << 20, .sysmem_size = 1u << 20 },
			               hwsq_setup, hwsq_wait_step,
			               12,         NULL,
			               NULL };
		snap_case_check(&c);
		reaches(&c, hwsq_waits, "in a PTIMER wait");
		reaches(&c, hwsq_ewaits, "in an event wait");
	}
	/* NV17: waits and flags only, on both slots */
	hwsq_src = HWSQ_NV17_SRC;
	struct snap_case c = { "nv17",     { .chip = "nv17", .vram_size = 1u << 20, .sysmem_size = 1u << 20 },
		               hwsq_setup, hwsq_nv17_step,
		               12,         NULL,
		               NULL };
	snap_case_check(&c);
	reaches(&c, hwsq_waits, "in a PTIMER wait");
}

/* The framebuffer pause: requested, FB_PAUSED 1 us later (an event wait
 * on it), a wait, the release; on G80 host MMIO is held meanwhile (the
 * steps only run). */
static void hwsq_pause_step(nvm_gpu *gpu, unsigned i)
{
	if (i == 0)
		wr(gpu, 0x130c, 3);
	else
		run_slice(gpu, 250, 0);
}

static void hwsq_mid_pause(void **s)
{
	(void)s;
	hwsq_src = "set1 #fb_pause\newait #fb_paused 0x1\nwait 0x1\nunset #fb_pause\nexit\n";
	static const char *const chips[] = { "nv41", "g80" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct snap_case c = { chips[i],   { .chip = chips[i], .vram_size = 1u << 20, .sysmem_size = 1u << 20 },
			               hwsq_setup, hwsq_pause_step,
			               12,         NULL,
			               NULL };
		snap_case_check(&c);
		reaches(&c, pause_pending, "with the pause requested and not yet done");
	}
}

/* ---------------------------------------------------------------- bad snapshots */

/* The snapshot of src (whose state a corrupt() made impossible) is refused
 * by a fresh GPU of the same chip, which saves to the same bytes as before. */
static void refused(const nvm_config *cfg, nvm_gpu *src, const char *what)
{
	size_t bad_len, before_len, after_len;
	uint8_t *bad = snap_of(src, &bad_len);
	nvm_gpu *dst = NULL;
	assert_int_equal(nvm_open(cfg, &dst), NVM_OK);
	uint8_t *before = snap_of(dst, &before_len);
	nvm_status st = nvm_snapshot_load(dst, bad, bad_len);
	if (st != NVM_ERR_CORRUPT)
		fail_msg("%s %s: load says %s, not corrupt", cfg->chip, what, nvm_status_str(st));
	uint8_t *after = snap_of(dst, &after_len);
	if (before_len != after_len || memcmp(before, after, before_len))
		fail_msg("%s %s: the refused load changed the GPU", cfg->chip, what);
	free(bad);
	free(before);
	free(after);
	nvm_close(dst);
}

/* A GPU of case c after its first n steps. */
static nvm_gpu *after_steps(const struct snap_case *c, unsigned n)
{
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&c->cfg, &gpu), NVM_OK);
	c->setup(gpu);
	for (unsigned i = 0; i < n; i++)
		c->step(gpu, i);
	return gpu;
}

#define CORRUPT(cfg, gpu, field, value)                                                                                \
	do {                                                                                                           \
		__typeof__(field) keep_ = (field);                                                                     \
		(field) = (value);                                                                                     \
		refused(cfg, gpu, #field " = " #value);                                                                \
		(field) = keep_;                                                                                       \
	} while (0)

static void bad_pfifo(void **s)
{
	(void)s;
	/* NV04 mid-pushbuffer */
	struct snap_case c = {
		"nv04", { .chip = "nv04", .sysmem_size = 4u << 20 }, nv04_two_setup, nv04_two_step, 21, NULL, NULL
	};
	nvm_gpu *gpu = after_steps(&c, 6);
	struct pfifo *f = gpu_block(gpu, &pfifo_class);
	CORRUPT(&c.cfg, gpu, f->work_rest, PFIFO_WORK_PER_UNIT); /* a count past its modulus */
	CORRUPT(&c.cfg, gpu, f->acq_ap, NVM_AP_COUNT);           /* an aperture that is not */
	CORRUPT(&c.cfg, gpu, f->acq_ch_ap[5], (nvm_aperture)7);  /* the same, per channel */
	CORRUPT(&c.cfg, gpu, f->acq_blocked[0], 1u << 20);       /* channel 20 of a 16-channel chip */
	CORRUPT(&c.cfg, gpu, f->acq_wake[3], 1u);                /* channel 96 */
	CORRUPT(&c.cfg, gpu, f->gr_chid, 16);                    /* a channel number past the chip's */
	CORRUPT(&c.cfg, gpu, f->c1.err, true);                   /* only CACHE0 waits on its own error */
	nvm_close(gpu);
	/* G84 mid-IB */
	struct snap_case g = { "g84",     { .chip = "g84", .vram_size = 256u << 20, .sysmem_size = 64u << 20 },
		               g80_setup, g80_step,
		               21,        NULL,
		               NULL };
	gpu = after_steps(&g, 5);
	struct g80_pfifo *gf = gpu_block(gpu, &pfifo_class);
	CORRUPT(&g.cfg, gpu, gf->nplaylist, 129);      /* past the playlist */
	CORRUPT(&g.cfg, gpu, gf->playlist[0], 128);    /* a channel past CHID 6:0 */
	CORRUPT(&g.cfg, gpu, gf->base.work_rest, 100); /* as on NV04 */
	nvm_close(gpu);
	/* NV03 PIO */
	struct snap_case p = { "nv03", { .chip = "nv03" }, nv03_setup, nv03_step, 27, NULL, NULL };
	gpu = after_steps(&p, 12);
	struct pio01 *pp = gpu_block(gpu, &pfifo_class);
	CORRUPT(&p.cfg, gpu, pp->pram_config, 4); /* RAM_SIZE is 2 bits */
	CORRUPT(&p.cfg, gpu, pp->f.work_rest, 5);
	nvm_close(gpu);
}

static void bad_g80vm(void **s)
{
	(void)s;
	struct snap_case c = { "g84",    { .chip = "g84", .vram_size = 16u << 20, .sysmem_size = 1u << 20 },
		               vm_setup, vm_step,
		               10,       NULL,
		               NULL };
	nvm_gpu *gpu = after_steps(&c, 3); /* two TLB entries */
	struct g80vm *m = gpu_block(gpu, &g80vm_class);
	assert_int_equal(m->tlb.nlive, 2);
	struct g80_tlb_ent *e = tlbc_live(&m->tlb, 0);
	CORRUPT(&c.cfg, gpu, e->engine, 16);                /* a VM engine past 4 bits */
	CORRUPT(&c.cfg, gpu, e->pt.vbase, e->pt.vbase + 8); /* not in the slot its key selects, unaligned */
	CORRUPT(&c.cfg, gpu, e->pt.size, 0x3000);           /* not a block size */
	CORRUPT(&c.cfg, gpu, e->pt.fault, 1);               /* a fault is never kept */
	CORRUPT(&c.cfg, gpu, e->pt.target, 4);              /* 2 bits */
	CORRUPT(&c.cfg, gpu, e->pt.page_size, 0x2000);      /* no such page */
	CORRUPT(&c.cfg, gpu, m->bar_chan, 1u << 30);        /* CHAN 29:0 */
	/* the same slot twice: the second entry's slot made the first's */
	struct g80_tlb_ent *e1 = tlbc_live(&m->tlb, 1);
	CORRUPT(&c.cfg, gpu, m->tlb.live[1], m->tlb.live[0]);
	(void)e1;
	nvm_close(gpu);
}

static void bad_hwsq(void **s)
{
	(void)s;
	hwsq_src = HWSQ_NV17_SRC;
	struct snap_case c = { "nv17",     { .chip = "nv17", .vram_size = 1u << 20, .sysmem_size = 1u << 20 },
		               hwsq_setup, hwsq_nv17_step,
		               12,         NULL,
		               NULL };
	nvm_gpu *gpu = after_steps(&c, 2); /* mid-wait */
	struct hwsq *h = gpu_block(gpu, &hwsq_class);
	assert_int_equal(h->blk, HB_WAIT);
	CORRUPT(&c.cfg, gpu, h->slot[0].ip, h->mask + 1);       /* past the code RAM */
	CORRUPT(&c.cfg, gpu, h->blk, (enum hwsq_block_state)4); /* no such block state */
	CORRUPT(&c.cfg, gpu, h->blk_slot, 2);                   /* a third slot */
	CORRUPT(&c.cfg, gpu, h->next, 2);                       /* the same */
	CORRUPT(&c.cfg, gpu, h->ev_id, 0);                      /* a wait that never ends */
	CORRUPT(&c.cfg, gpu, h->slot[1].illegal, true);         /* NV17 skips unknown opcodes: never hung */
	CORRUPT(&c.cfg, gpu, h->pause_req, true);               /* NV17 has no framebuffer pause */
	CORRUPT(&c.cfg, gpu, h->span.hi[0], h->mask + 1);       /* an IP past the code RAM */
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nv04_mid_pushbuffer),
		cmocka_unit_test(nv04_switch_pending),
		cmocka_unit_test(nv17_acquire_blocked),
		cmocka_unit_test(nv03_pio_half_full),
		cmocka_unit_test(nv04_pio_cache1),
		cmocka_unit_test(g84_mid_ib_entry),
		cmocka_unit_test(g80vm_stale_tlb),
		cmocka_unit_test(hwsq_mid_wait),
		cmocka_unit_test(hwsq_mid_pause),
		cmocka_unit_test(bad_pfifo),
		cmocka_unit_test(bad_g80vm),
		cmocka_unit_test(bad_hwsq),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
