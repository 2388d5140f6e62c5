/*
 * Snapshots of the Volta-and-later Host, the copy engine and the GMMU
 * (issue 22 item 3): driver-like cases (the nvmodel/setup.h helpers build
 * the channels as a driver does) cut at every step by snap_trace.h; a
 * restored GPU must go on exactly as the one never saved. Then damaged
 * snapshots of those blocks are refused (NVM_ERR_CORRUPT) and change
 * nothing.
 *
 * The driver's state between steps lives in the GPU (the set-up pushes
 * every segment without a doorbell) and in the static description below,
 * which the set-up writes the same way on every GPU.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"
#include "host/host_internal.h"
#include "nvmodel/host.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"
#include "nvmodel/setup.h"
#include "snap_bytes.h"
#include "snap_trace.h"

#define HDR(op, subch, mthd, n) ((uint32_t)(op) << 29 | (uint32_t)(n) << 16 | (uint32_t)(subch) << 13 | (mthd) >> 2)
#define INC(subch, mthd, n)     HDR(1, subch, mthd, n)
#define NINC(subch, mthd, n)    HDR(3, subch, mthd, n)

/* LAUNCH_DMA (clc3b5.h): NON_PIPELINED, SRC and DST PITCH, NON_BLOCKING interrupt. */
#define LAUNCH_COPY (2u | 1u << 7 | 1u << 8 | 2u << 5)

#define COPY_BYTES (96u << 10)
#define FAR_VA     0x7000000000ull /* mapped by nothing */
#define SYS_BASE   0x100000u       /* the caller's system memory */
#define SYS_SIZE   0x40000u

enum act { A_KICK, A_RUN, A_BUDGET, A_WR, A_MEM, A_SYSMEM, A_PTE };
struct action {
	enum act a;
	uint64_t x, y;
};

/* What the set-up made, the same on every GPU of a case. */
static struct {
	const char *chip;
	nvm_setup_channel ch[3];
	nvm_place sem;
	uint64_t sem_va;
	nvm_aperture pte_ap;
	uint64_t pte;       /* the PTE of the pushbuffer's first page */
	uint32_t put[3][8]; /* GP_PUT after each segment pushed */
	const struct action *acts;
} drv;

static uint8_t caller_mem[3][SYS_SIZE]; /* by role (snap_trace.h) */

static nvm_aperture ap_of(nvm_place p)
{
	nvm_aperture ap = NVM_AP_VRAM;
	assert_int_equal(nvm_target_aperture(p.target, &ap), NVM_OK);
	return ap;
}

static void step(nvm_gpu *gpu, unsigned i)
{
	const struct action *t = &drv.acts[i];
	switch (t->a) {
	case A_KICK: {
		nvm_setup_channel c = drv.ch[t->x];
		c.put = drv.put[t->x][t->y];
		assert_int_equal(nvm_channel_kick(gpu, &c), NVM_OK);
		break;
	}
	case A_RUN:
	case A_BUDGET: {
		nvm_run_opts ro = { .ns = t->x, .max_events = t->a == A_BUDGET ? t->y : 0 };
		nvm_run(gpu, &ro);
		break;
	}
	case A_WR: assert_int_equal(nvm_reg_write(gpu, (uint32_t)t->x, (uint32_t)t->y), NVM_OK); break;
	case A_MEM: assert_int_equal(nvm_mem_wr32(gpu, ap_of(drv.sem), drv.sem.addr, (uint32_t)t->y), NVM_OK); break;
	case A_SYSMEM: assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, t->x, (uint32_t)t->y), NVM_OK); break;
	case A_PTE:
		/* the driver unmaps the page without invalidating (a bug) */
		assert_int_equal(nvm_mem_wr32(gpu, drv.pte_ap, drv.pte, 0), NVM_OK);
		assert_int_equal(nvm_mem_wr32(gpu, drv.pte_ap, drv.pte + 4, 0), NVM_OK);
		break;
	}
}

static unsigned count_acts(const struct action *a)
{
	unsigned n = 0;
	while (a[n].a != A_RUN || a[n].x)
		n++;
	return n;
}

/* ---------------------------------------------------------------- the driver's set-up */

struct plan {
	unsigned nchan;
	bool two_tsgs;     /* channel 1 in a TSG of its own (else all in TSG 1) */
	bool sysmem_userd; /* USERD in the caller's system memory */
	void (*segments)(nvm_gpu *gpu, nvm_gmmu_vm *vm);
};

static const struct plan *cur_plan;

static void push(nvm_gpu *gpu, unsigned c, const uint32_t *pb, size_t n)
{
	uint32_t index;
	assert_int_equal(nvm_channel_push(gpu, &drv.ch[c], pb, 4 * n, NULL, 0, &index, NULL), NVM_OK);
	drv.put[c][index + 1] = drv.ch[c].put;
}

static void setup(nvm_gpu *gpu)
{
	const struct plan *p = cur_plan;
	nvm_heap heap, uheap;
	assert_int_equal(nvm_heap_init(&heap, NVM_MMU_TGT_VID, 0x100000, 48u << 20), NVM_OK);
	assert_int_equal(nvm_heap_init(&uheap, NVM_MMU_TGT_SYS_COH, SYS_BASE, SYS_SIZE), NVM_OK);
	assert_int_equal(nvm_setup_host_init(gpu), NVM_OK);
	nvm_gmmu_vm *vm = NULL;
	assert_int_equal(nvm_gmmu_vm_create(gpu, &heap, 0x100000000ull, &vm), NVM_OK);
	assert_int_equal(nvm_gmmu_alloc_map(gpu, vm, NULL, 4096, NULL, &drv.sem_va, &drv.sem), NVM_OK);
	memset(drv.put, 0, sizeof(drv.put));
	nvm_rl_entry e[6];
	unsigned n = 0;
	for (unsigned c = 0; c < p->nchan; c++) {
		nvm_channel_desc d;
		nvm_channel_desc_init(&d);
		d.chid = 1 + c;
		d.runlist = 0;
		d.gpfifo_entries = 16;
		d.pb_size = 0x40000;
		if (p->sysmem_userd)
			d.userd_heap = &uheap;
		assert_int_equal(nvm_channel_create(gpu, vm, NULL, &d, &drv.ch[c]), NVM_OK);
	}
	/* TSG 1: channel 0 (and 2); TSG 2: channel 1 when two_tsgs. */
	unsigned in1 = p->two_tsgs ? p->nchan - 1 : p->nchan;
	nvm_rl_tsg(&e[n++], 1, in1, 1, 0);
	for (unsigned c = 0; c < p->nchan; c++)
		if (!p->two_tsgs || c != 1)
			nvm_rl_chan(&e[n++], drv.ch[c].chid, 0, drv.ch[c].inst, drv.ch[c].userd);
	if (p->two_tsgs) {
		nvm_rl_tsg(&e[n++], 2, 1, 1, 0);
		nvm_rl_chan(&e[n++], drv.ch[1].chid, 0, drv.ch[1].inst, drv.ch[1].userd);
	}
	nvm_place rl;
	assert_int_equal(nvm_runlist_write(gpu, &heap, e, n, &rl), NVM_OK);
	assert_int_equal(nvm_runlist_submit(gpu, 0, rl, n), NVM_OK);
	p->segments(gpu, vm);
	/* the driver's semaphore starts at 0; the page tables stay in the GPU */
	assert_int_equal(nvm_mem_wr32(gpu, ap_of(drv.sem), drv.sem.addr, 0), NVM_OK);
	nvm_gmmu_vm_free(vm);
}

/* ---------------------------------------------------------------- the cases */

/* A long non-incrementing sequence to the GR engine: short budgets cut the
 * PBDMA's step inside it (the decoder has data entries pending). */
static void seg_long(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	(void)vm;
	static uint32_t pb[2 + 2500];
	pb[0] = INC(0, 0x50, 1); /* SET_REFERENCE */
	pb[1] = 0x11;
	pb[2] = NINC(0, 0x200, 2499);
	for (unsigned i = 3; i < 2 + 2500; i++)
		pb[i] = i * 7;
	push(gpu, 0, pb, sizeof(pb) / 4);
}

static const struct action acts_mid_pb[] = {
	{ A_KICK, 0, 1 },        { A_BUDGET, 100000, 2 }, { A_BUDGET, 100000, 2 },
	{ A_BUDGET, 100000, 3 }, { A_BUDGET, 100000, 2 }, { A_RUN, 50, 0 },
	{ A_BUDGET, 100000, 4 }, { A_RUN, 1000000, 0 },   { A_RUN, 0, 0 },
};

/* An acquire that blocks until the driver writes the semaphore. */
static void seg_acquire(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	(void)gpu;
	(void)vm;
	uint64_t va = drv.sem_va;
	uint32_t pb[] = {
		INC(0, 0x5c, 4),
		(uint32_t)va,
		(uint32_t)(va >> 32),
		1,
		0,
		INC(0, 0x6c, 1),
		0, /* ACQUIRE == 1 */
		INC(0, 0x5c, 4),
		(uint32_t)va + 16,
		(uint32_t)(va >> 32),
		0xbeef,
		0,
		INC(0, 0x6c, 1),
		0x100001,
	};
	push(gpu, 0, pb, sizeof(pb) / 4);
}

static const struct action acts_acquire[] = {
	{ A_KICK, 0, 1 }, { A_RUN, 3000, 0 }, { A_RUN, 3000, 0 },   { A_MEM, 0, 2 }, { A_RUN, 10, 0 },
	{ A_MEM, 0, 1 },  { A_RUN, 3000, 0 }, { A_RUN, 100000, 0 }, { A_RUN, 0, 0 },
};

/* Two TSGs (three channels) taking turns on one PBDMA as their timeslices
 * end. */
static void seg_slices(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	(void)vm;
	/* Host NOPs: work that takes time (HOST_NS_PER_DWORD) and spans
	 * several PBDMA steps, without an event per method. */
	static uint32_t pb[1 + 6000];
	pb[0] = NINC(0, 0x08, 6000);
	for (unsigned c = 0; c < 3; c++)
		for (unsigned k = 0; k < 4; k++)
			push(gpu, c, pb, sizeof(pb) / 4);
}

static const struct action acts_slices[] = {
	{ A_KICK, 0, 4 },   { A_KICK, 1, 4 },   { A_KICK, 2, 4 },     { A_RUN, 9000, 0 }, { A_RUN, 9000, 0 },
	{ A_RUN, 9000, 0 }, { A_RUN, 9000, 0 }, { A_RUN, 9000, 0 },   { A_RUN, 9000, 0 }, { A_RUN, 9000, 0 },
	{ A_RUN, 9000, 0 }, { A_RUN, 9000, 0 }, { A_RUN, 200000, 0 }, { A_RUN, 0, 0 },
};

/* A copy engine copy (GRCOPY, subchannel 4) cut by small budgets: the
 * launch stays in progress between the PBDMA's steps. Its non-blocking
 * interrupt is a non-stalling interrupt. */
static const uint32_t ce_class[] = { 0xC3B5, 0xC5B5, 0xC6B5, 0xC7B5, 0xC8B5 };
static const char *const chips[] = { "gv100", "tu102", "ga100", "ga102", "gh100" };

static void seg_copy(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	uint64_t src, dst;
	assert_int_equal(nvm_gmmu_alloc_map(gpu, vm, NULL, COPY_BYTES, NULL, &src, NULL), NVM_OK);
	assert_int_equal(nvm_gmmu_alloc_map(gpu, vm, NULL, COPY_BYTES, NULL, &dst, NULL), NVM_OK);
	static uint8_t pat[COPY_BYTES];
	for (size_t i = 0; i < sizeof(pat); i++)
		pat[i] = (uint8_t)(i * 13 + (i >> 9));
	assert_int_equal(nvm_gmmu_write(gpu, vm, src, pat, sizeof(pat)), NVM_OK);
	uint32_t cls = 0;
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
		if (!strcmp(chips[i], drv.chip))
			cls = ce_class[i];
	uint32_t pb[] = {
		INC(4, 0x000, 1),
		cls,
		INC(4, 0x400, 8),
		(uint32_t)(src >> 32),
		(uint32_t)src,
		(uint32_t)(dst >> 32),
		(uint32_t)dst,
		COPY_BYTES,
		COPY_BYTES,
		COPY_BYTES,
		1,
		INC(4, 0x300, 1),
		LAUNCH_COPY,
		INC(0, 0x50, 1),
		0x22,
	};
	push(gpu, 0, pb, sizeof(pb) / 4);
}

static const struct action acts_copy[] = {
	{ A_KICK, 0, 1 },        { A_BUDGET, 100000, 3 }, { A_BUDGET, 100000, 3 },
	{ A_BUDGET, 100000, 3 }, { A_BUDGET, 100000, 3 }, { A_RUN, 700, 0 },
	{ A_BUDGET, 100000, 5 }, { A_RUN, 1000000, 0 },   { A_RUN, 0, 0 },
};

/* A pushbuffer segment at a VA nothing maps: the MMU fault is written to
 * the non-replayable fault buffer (gv100 / tu102 registers, configured as
 * RM does) and raises NISO_INTR; the driver consumes the packet. */
#define FB_LO(i)   (0x100E24u + (i)*20u)
#define FB_HI(i)   (0x100E28u + (i)*20u)
#define FB_GET(i)  (0x100E2Cu + (i)*20u)
#define FB_SIZE(i) (0x100E34u + (i)*20u)
#define FAULT_BUF  0x3000000u /* VRAM, beyond the heap */

static void seg_fault(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	(void)vm;
	uint32_t pb[] = { INC(0, 0x50, 1), 0x33 };
	push(gpu, 0, pb, 2);
	uint32_t e0, e1;
	assert_int_equal(nvm_gp_entry(FAR_VA, 4, NULL, &e0, &e1), NVM_OK);
	uint32_t index;
	assert_int_equal(nvm_channel_push_entry(gpu, &drv.ch[0], e0, e1, 0, &index), NVM_OK);
	drv.put[0][index + 1] = drv.ch[0].put;
	assert_int_equal(nvm_reg_write(gpu, FB_HI(0), 0), NVM_OK);
	assert_int_equal(nvm_reg_write(gpu, FB_LO(0), FAULT_BUF | 1u), NVM_OK); /* ADDR_MODE PHYSICAL, VID */
	assert_int_equal(nvm_reg_write(gpu, FB_SIZE(0), 32u | 0x80000000u), NVM_OK);
	assert_int_equal(nvm_reg_write(gpu, 0x100A2C, 0xffffffffu), NVM_OK); /* NISO_INTR_EN_SET */
	assert_int_equal(nvm_reg_write(gpu, 0x160, 0xffffffffu), NVM_OK);    /* PMC INTR_EN_SET(0) */
	assert_int_equal(nvm_mmu_set_strict_tlb(gpu, 1), NVM_OK);
}

static const struct action acts_fault[] = {
	{ A_KICK, 0, 1 },   { A_RUN, 5000, 0 },     { A_KICK, 0, 2 },     { A_RUN, 2000, 0 },
	{ A_RUN, 2000, 0 }, { A_WR, FB_GET(0), 1 }, { A_RUN, 100000, 0 }, { A_RUN, 0, 0 },
};

/* A stale TLB entry: the driver clears the PTE of the pushbuffer's page
 * without an invalidate; the next segment in that page still translates
 * through the TLB, which strict-TLB mode reports. A TLB lost across the cut
 * would fault instead. */
static void seg_stale(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	uint32_t pb[] = { INC(0, 0x50, 1), 0x66 };
	push(gpu, 0, pb, 2);
	push(gpu, 0, pb, 2);
	nvm_place pdb = nvm_gmmu_vm_pdb(vm);
	nvm_mmu_result res;
	nvm_mmu_walk_trace tr;
	assert_int_equal(nvm_mmu_walk(gpu, pdb.target, pdb.addr, drv.ch[0].pb_va, NVM_MMU_READ, 1, &res, &tr), NVM_OK);
	assert_int_equal(res.fault, NVM_MMU_FAULT_NONE);
	const nvm_mmu_walk_level *pte = &tr.lv[tr.n - 1];
	assert_int_equal(nvm_target_aperture((nvm_mmu_target)pte->table_target, &drv.pte_ap), NVM_OK);
	drv.pte = pte->entry_addr;
	assert_int_equal(nvm_mmu_set_strict_tlb(gpu, 1), NVM_OK);
}

static const struct action acts_stale[] = {
	{ A_KICK, 0, 1 }, { A_RUN, 5000, 0 }, { A_PTE, 0, 0 }, { A_KICK, 0, 2 }, { A_RUN, 5000, 0 }, { A_RUN, 0, 0 },
};

/* The CPU interrupt tree (tu102 and later): NON_STALL_INTERRUPT, the
 * driver enabling the leaves and the top, clearing the leaves (W1C) and
 * PFIFO_INTR_0, and a second non-stall interrupt. */
#define VF 0xbb0000u
static void seg_tree(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	(void)vm;
	uint32_t pb[] = { INC(0, 0x20, 1), 0, INC(0, 0x50, 1), 0x44 };
	push(gpu, 0, pb, 4);
	push(gpu, 0, pb, 4);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(nvm_reg_write(gpu, VF + 0x1200 + 4 * i, 0xffffffffu), NVM_OK);
	assert_int_equal(nvm_reg_write(gpu, VF + 0x1608, 0xffu), NVM_OK);
	assert_int_equal(nvm_reg_write(gpu, 0x2140, 0xffffffffu), NVM_OK); /* PFIFO_INTR_EN_0 */
	assert_int_equal(nvm_reg_write(gpu, 0x160, 0xffffffffu), NVM_OK);  /* PMC INTR_EN_SET(0) */
}

static const struct action acts_tree[] = {
	{ A_KICK, 0, 1 },
	{ A_RUN, 5000, 0 },
	{ A_WR, VF + 0x1000, 0xffffffffu },
	{ A_WR, VF + 0x1004, 0xffffffffu },
	{ A_WR, 0x2100, 0xffffffffu },
	{ A_RUN, 100, 0 },
	{ A_WR, VF + 0x1400, 0xffffffffu },
	{ A_KICK, 0, 2 },
	{ A_RUN, 5000, 0 },
	{ A_WR, VF + 0x1200, 0xffffffffu },
	{ A_RUN, 5000, 0 },
	{ A_RUN, 0, 0 },
};

/* USERD in system memory the caller owns (nvm_mem_map_ptr): the PBDMA
 * writes it back there and the driver's GP_PUT comes from there; the
 * caller carries its buffer across the cut. The semaphore is there too. */
static void attach_sys(nvm_gpu *gpu, unsigned role)
{
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_SYSMEM, SYS_BASE, SYS_SIZE, caller_mem[role]), NVM_OK);
	if (role != 2)
		memset(caller_mem[role], 0, SYS_SIZE);
}

static void carry_sys(unsigned from, unsigned to)
{
	memcpy(caller_mem[to], caller_mem[from], SYS_SIZE);
}

#define SYS_SEM (SYS_BASE + SYS_SIZE - 0x1000u)

static void seg_sys(nvm_gpu *gpu, nvm_gmmu_vm *vm)
{
	uint64_t va = 0x7f00000000ull;
	assert_int_equal(nvm_gmmu_map(gpu, vm, va, NVM_MMU_TGT_SYS_COH, SYS_SEM, 4096, NULL), NVM_OK);
	uint32_t pb[] = {
		INC(0, 0x50, 1), 0x55, INC(0, 0x5c, 4), (uint32_t)va, (uint32_t)(va >> 32), 3, 0,
		INC(0, 0x6c, 1), 2, /* ACQUIRE_STRICT_GEQ 3 */
		INC(0, 0x50, 1), 0x56,
	};
	push(gpu, 0, pb, sizeof(pb) / 4);
	push(gpu, 0, pb, 2);
}

static const struct action acts_sys[] = {
	{ A_KICK, 0, 1 },   { A_RUN, 3000, 0 }, { A_SYSMEM, SYS_SEM, 1 }, { A_RUN, 3000, 0 }, { A_SYSMEM, SYS_SEM, 3 },
	{ A_RUN, 3000, 0 }, { A_KICK, 0, 2 },   { A_RUN, 100000, 0 },     { A_RUN, 0, 0 },
};

static const struct plan plan_one = { 1, false, false, seg_long };
static const struct plan plan_acq = { 1, false, false, seg_acquire };
static const struct plan plan_slices = { 3, true, false, seg_slices };
static const struct plan plan_copy = { 1, false, false, seg_copy };
static const struct plan plan_fault = { 1, false, false, seg_fault };
static const struct plan plan_stale = { 1, false, false, seg_stale };
static const struct plan plan_tree = { 1, false, false, seg_tree };
static const struct plan plan_sys = { 1, false, true, seg_sys };

static unsigned run_case(const char *name, const char *chip, const struct plan *p, const struct action *acts, bool sys)
{
	drv.chip = chip;
	drv.acts = acts;
	cur_plan = p;
	struct snap_case c = {
		.name = name,
		.cfg = { .chip = chip, .vram_size = 64u << 20, .sysmem_size = 16u << 20 },
		.setup = setup,
		.step = step,
		.nsteps = count_acts(acts),
		.attach = sys ? attach_sys : NULL,
		.carry = sys ? carry_sys : NULL,
	};
	return snap_case_check(&c);
}

/* ---------------------------------------------------------------- what the cases reach */

/* The case run whole once on chip: how many events of kind code it has
 * (type NVM_EV_COUNT: any type). */
struct want {
	const char *code;
	uint64_t n;
};

static void count_hook(void *user, const nvm_event *ev)
{
	struct want *w = user;
	if (getenv("SNAP_TRACE"))
		fprintf(stderr, "%llu %s %s %s\n", (unsigned long long)ev->time_ns, ev->block, ev->code,
		        ev->message ? ev->message : "");
	if (!strcmp(ev->code, w->code))
		w->n++;
}

static uint64_t case_count(const char *chip, const struct plan *p, const struct action *acts, bool sys,
                           const char *code)
{
	drv.chip = chip;
	drv.acts = acts;
	cur_plan = p;
	nvm_config cfg = { .chip = chip, .vram_size = 64u << 20, .sysmem_size = 16u << 20 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	if (sys)
		attach_sys(gpu, 0);
	struct want w = { code, 0 };
	int id;
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_ALL, count_hook, &w, &id), NVM_OK);
	setup(gpu);
	for (unsigned i = 0; i < count_acts(acts); i++)
		step(gpu, i);
	nvm_close(gpu);
	return w.n;
}

/* ---------------------------------------------------------------- the tests */

static void mid_pushbuffer(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
		run_case("mid_pushbuffer", chips[i], &plan_one, acts_mid_pb, false);
}

static void acquire_released(void **state)
{
	(void)state;
	run_case("acquire", "gv100", &plan_acq, acts_acquire, false);
	run_case("acquire", "ga100", &plan_acq, acts_acquire, false);
	assert_int_equal(case_count("gv100", &plan_acq, acts_acquire, false, "acquire_wait"), 1);
}

static void timeslices(void **state)
{
	(void)state;
	run_case("timeslices", "gv100", &plan_slices, acts_slices, false);
	run_case("timeslices", "gh100", &plan_slices, acts_slices, false);
	assert_true(case_count("gv100", &plan_slices, acts_slices, false, "tsg_switch") >= 3);
	assert_true(case_count("gv100", &plan_slices, acts_slices, false, "ctx_save") >= 3);
}

static void copy_in_progress(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
		run_case("copy", chips[i], &plan_copy, acts_copy, false);
	assert_int_equal(case_count("gv100", &plan_copy, acts_copy, false, "launch"), 1);
}

static void mmu_fault_pending(void **state)
{
	(void)state;
	run_case("mmu_fault", "gv100", &plan_fault, acts_fault, false);
	run_case("mmu_fault", "tu102", &plan_fault, acts_fault, false);
	assert_int_equal(case_count("gv100", &plan_fault, acts_fault, false, "pbdma_faulted"), 1);
	assert_int_equal(case_count("gv100", &plan_fault, acts_fault, false, "PDE"), 1);
}

static void stale_tlb(void **state)
{
	(void)state;
	run_case("stale_tlb", "gv100", &plan_stale, acts_stale, false);
	run_case("stale_tlb", "gh100", &plan_stale, acts_stale, false);
	assert_int_equal(case_count("gv100", &plan_stale, acts_stale, false, "stale_tlb"), 1);
	assert_int_equal(case_count("gh100", &plan_stale, acts_stale, false, "stale_tlb"), 1);
}

static void interrupt_tree(void **state)
{
	(void)state;
	run_case("intr_tree", "tu102", &plan_tree, acts_tree, false);
	run_case("intr_tree", "ga100", &plan_tree, acts_tree, false);
	run_case("intr_tree", "gh100", &plan_tree, acts_tree, false);
	assert_true(case_count("ga100", &plan_tree, acts_tree, false, "intr") >= 3);
}

static void caller_sysmem(void **state)
{
	(void)state;
	run_case("caller_sysmem", "gv100", &plan_sys, acts_sys, true);
	run_case("caller_sysmem", "ga102", &plan_sys, acts_sys, true);
	assert_int_equal(case_count("gv100", &plan_sys, acts_sys, true, "acquire_wait"), 2); /* 1 is not >= 3 */
}

/* ---------------------------------------------------------------- damaged snapshots */

/* A snapshot of the case on chip after its first k steps. */
static uint8_t *case_snapshot(const char *chip, const struct plan *p, const struct action *acts, unsigned k,
                              size_t *len)
{
	drv.chip = chip;
	drv.acts = acts;
	cur_plan = p;
	nvm_config cfg = { .chip = chip, .vram_size = 64u << 20, .sysmem_size = 16u << 20 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	setup(gpu);
	for (unsigned i = 0; i < k; i++)
		step(gpu, i);
	uint8_t *buf = snap_of(gpu, len);
	nvm_close(gpu);
	return buf;
}

/* The damaged snapshot is refused with NVM_ERR_CORRUPT by a fresh GPU,
 * which then saves to the same bytes as before. */
static void refused(const char *chip, const uint8_t *bad, size_t len, const char *what)
{
	nvm_config cfg = { .chip = chip, .vram_size = 64u << 20, .sysmem_size = 16u << 20 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	size_t l0, l1;
	uint8_t *before = snap_of(gpu, &l0);
	nvm_status st = nvm_snapshot_load(gpu, bad, len);
	if (st != NVM_ERR_CORRUPT)
		fail_msg("%s: %s: load gave %s", chip, what, nvm_status_str(st));
	uint8_t *after = snap_of(gpu, &l1);
	if (l0 != l1 || memcmp(before, after, l0))
		fail_msg("%s: %s: the refused load changed the GPU", chip, what);
	free(before);
	free(after);
	nvm_close(gpu);
}

/* One damage to a section: the value written at off, 4 or 8 bytes (wide). */
struct damage {
	const char *what;
	size_t off;
	uint64_t v;
	bool wide;
};

/* Each damage alone, to a copy of good in section sect (its CRC made
 * right), is refused (refused). */
static void refused_each(const uint8_t *good, size_t len, const char *sect, const struct damage *c, size_t n)
{
	uint8_t *bad = malloc(len);
	assert_non_null(bad);
	for (size_t i = 0; i < n; i++) {
		size_t sn;
		memcpy(bad, good, len);
		uint8_t *d = section(bad, len, sect, &sn);
		assert_true(c[i].off + (c[i].wide ? 8 : 4) <= sn);
		if (c[i].wide)
			put64(d + c[i].off, c[i].v);
		else
			put32(d + c[i].off, (uint32_t)c[i].v);
		fix_crc(d, sn);
		refused("gv100", bad, len, c[i].what);
	}
	free(bad);
}

/* Offsets in the Host's section (host_snap.c's order). */
#define H_NAME     16u
#define H_CRC      (H_NAME + sizeof(nvm_host_stats))
#define H_CHUNK    (H_CRC + 4u + 4u + (2u * INTR_TREE_MAX_LEAF + 1u) * 4u)
#define H_CHAN     76u /* bytes per channel */
#define H_RL_FIXED 76u

struct host_offs {
	size_t chan1, rl0, tsg0, cur0, pb0, dec0;
};

/* Walks the section of the mid_pushbuffer case on gv100 (one chunk, the
 * channel loaded on PBDMA 0 with a sequence pending). */
static struct host_offs host_walk(const uint8_t *d, size_t n)
{
	struct host_offs o;
	assert_int_equal(get32(d + H_CHUNK), 0);
	o.chan1 = H_CHUNK + 4 + H_CHAN;
	assert_int_equal(get32(d + o.chan1), 1);     /* listed on runlist 0 */
	assert_int_equal(get32(d + o.chan1 + 8), 1); /* loaded on PBDMA 0 */
	size_t pos = H_CHUNK + 4 + HOST_CHAN_CHUNK * H_CHAN;
	assert_int_equal(get32(d + pos), UINT32_MAX);
	pos += 4;
	o.rl0 = pos;
	o.tsg0 = pos + 16;
	for (unsigned i = 0; i < host_gv100.nrunlist; i++) {
		uint64_t ntsg = get64(d + pos), nch = get64(d + pos + 8);
		if (i == 0)
			o.cur0 = pos + 16 + 20 * ntsg + 8 * nch;
		pos += 16 + 20 * ntsg + 8 * nch + H_RL_FIXED;
	}
	o.pb0 = pos;
	assert_int_equal(get32(d + o.pb0), PBS_RUN);
	o.dec0 = o.pb0 + 36 + NVM_RAMFC_SIZE + 16 + 4; /* state .. target, subdevice */
	assert_true(get32(d + o.dec0 + 8) > 0);        /* remaining */
	assert_true(o.dec0 + 64 <= n);
	return o;
}

static void bad_host(void **state)
{
	(void)state;
	size_t len, n;
	uint8_t *good = case_snapshot("gv100", &plan_one, acts_mid_pb, 3, &len);
	uint8_t *bad = malloc(len);
	assert_non_null(bad);
	struct host_offs o;
	{
		uint8_t *d = section(good, len, "host", &n);
		o = host_walk(d, n);
	}
	const struct damage cases[] = {
		{ "method_crc not a bool", H_CRC, 2, false },
		{ "chunk index past the table", H_CHUNK, 0x4000, false },
		{ "channel listed on runlist 99", o.chan1, 99, false },
		{ "channel listed without a TSG", o.chan1 + 4, 0, false },
		{ "channel loaded on PBDMA 3, which has none", o.chan1 + 8, 3, false },
		{ "acquire aperture out of range", o.chan1 + 16, 7, false },
		{ "TSG longer than the runlist", o.tsg0 + 16, 5, false },
		{ "runlist's channel past the table", o.tsg0 + 20, 100000, false },
		{ "current TSG past the runlist", o.cur0, 9, false },
		{ "runlist submit target", o.cur0 + 36, 4, false },
		{ "engine-status fault channel past the table", o.cur0 + 60, 5000, false },
		{ "PBDMA state out of range", o.pb0, 7, false },
		{ "PBDMA loaded with another channel", o.pb0 + 4, 2, false },
		{ "PBDMA target engine past the list", o.pb0 + 36 + NVM_RAMFC_SIZE + 12, 99, false },
		{ "decoder count past 13 bits", o.dec0 + 8, 0x5000, false },
		{ "decoder mode out of range", o.dec0 + 24, 9, false },
		{ "decoder subchannel out of range", o.dec0 + 16, 8, false },
	};
	refused_each(good, len, "host", cases, sizeof(cases) / sizeof(cases[0]));
	/* the section cut short (its CRC right) */
	memcpy(bad, good, len);
	{
		uint8_t *d = section(bad, len, "host", &n);
		put64(d - 8, n - 4);
		fix_crc(d, n - 4);
		memmove(d + n - 4 + 4, d + n + 4, len - (size_t)(d + n + 4 - bad));
		refused("gv100", bad, len - 4, "host section cut short");
	}
	/* the undamaged snapshot loads */
	nvm_config cfg = { .chip = "gv100", .vram_size = 64u << 20, .sysmem_size = 16u << 20 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	assert_int_equal(nvm_snapshot_load(gpu, good, len), NVM_OK);
	nvm_close(gpu);
	free(bad);
	free(good);
}

/* The GMMU's section (mmu_snap.c's order) of the fault case: the TLB has
 * entries, no request is held. */
#define M_PUT   (16u + 4u)
#define M_FLAGS (M_PUT + 8u)
#define M_NPEND (M_FLAGS + 4u + sizeof(nvm_mmu_stats) + 8u)
#define M_TLB   (M_NPEND + 8u)
#define M_RES   132u /* bytes per TLB entry */

static void bad_mmu(void **state)
{
	(void)state;
	size_t len, n;
	uint8_t *good = case_snapshot("gv100", &plan_fault, acts_fault, 4, &len);
	uint8_t *bad = malloc(len);
	assert_non_null(bad);
	uint8_t *d = section(good, len, "mmu", &n);
	assert_int_equal(get64(d + M_NPEND), 0);
	uint64_t ntlb = get64(d + M_TLB);
	assert_true(ntlb >= 2);
	size_t e0 = M_TLB + 8, e1 = e0 + M_RES;
	assert_int_equal(get64(d + e0 + 20), 4096); /* size */
	const struct damage cases[] = {
		{ "PUT past 20 bits", M_PUT, 0x100000, false },
		{ "flags out of range", M_FLAGS, 8, false },
		{ "held requests past the buffer", M_NPEND, 4097, true },
		{ "TLB count past the slots", M_TLB, 9000, true },
		{ "TLB count past the section", M_TLB, ntlb + 1, true },
		{ "TLB entry of no page size", e0 + 20, 0x3000, true },
		{ "TLB entry not at its page", e0 + 12, get64(d + e0 + 12) + 8, true },
		{ "TLB entry VEID out of range", e0, 64, false },
		{ "TLB entry with a fault", e0 + 28, 2, false },
		{ "TLB entry target out of range", e0 + 36, 4, false },
	};
	refused_each(good, len, "mmu", cases, sizeof(cases) / sizeof(cases[0]));
	/* two entries in one slot: the second a copy of the first */
	memcpy(bad, good, len);
	uint8_t *b = section(bad, len, "mmu", &n);
	memcpy(b + e1, b + e0, M_RES);
	fix_crc(b, n);
	refused("gv100", bad, len, "two TLB entries in one slot");
	free(bad);
	free(good);
}

/* The copy engine's part of the engines' section, in the copy case cut
 * while the launch is in progress. */
static void bad_ce(void **state)
{
	(void)state;
	size_t len, n;
	uint8_t *good = case_snapshot("gv100", &plan_copy, acts_copy, 3, &len);
	uint8_t *d = section(good, len, "ENGS", &n);
	size_t at = engs_log(d, n, "grce");
	assert_true(at);
	uint64_t dsize = get64(d + at + 40), rsize = get64(d + at + 48); /* its method log's rings */
	size_t ce = at + 80 + (size_t)(rsize * 45 + dsize * 4), job = ce + 8 + 4 + 4 + 4 * 34;
	assert_int_equal(get32(d + ce + 12), 1);  /* channel 1 */
	assert_int_equal(get32(d + job) & 1u, 1); /* the launch in progress */
	const struct damage cases[] = {
		{ "tick remainder past a unit", ce, 5000, false },
		{ "table size not a power of two", ce + 8, 9, false },
		{ "channel past the table", ce + 12, 4096, false },
		{ "job flags out of range", job, 0x40, false },
		{ "source aperture out of range", job + 8 + 20, 2, false },
		{ "source pixel of 99 bytes", job + 8 + 24, 99, false },
		{ "block height past 32 GOBs", job + 8 + 28, 6, false },
		{ "line past the line count", job + 8 + 2 * 104 + 40, 5, false },
	};
	refused_each(good, len, "ENGS", cases, sizeof(cases) / sizeof(cases[0]));
	free(good);
}

/* The method log's counters of an engine record (engine.c's order after
 * the name: busy_until, at, total, cap, keep, dsize, rsize, seq, rseq,
 * fast, flags). A cap near 2^64 once made the load's ring bound double
 * without end (fuzz_snapshot_host): every case is refused at once. */
static void bad_engine_log(void **state)
{
	(void)state;
	size_t len, n;
	uint8_t *good = case_snapshot("gv100", &plan_one, acts_mid_pb, 3, &len);
	uint8_t *d = section(good, len, "ENGS", &n);
	size_t at = engs_log(d, n, "gr"); /* GR's record, past its name */
	assert_true(at);
	const size_t cap = at + 24, keep = at + 32, dsize = at + 40;
	assert_int_equal(get64(d + cap), 4096); /* the default log */
	const struct damage cases[] = {
		{ "log cap near 2^64", cap, 0xc600000000000000ull, true },
		{ "log cap 2^64 - 1", cap, UINT64_MAX, true },
		{ "log cap past 2^24", cap, (1u << 24) + 1, true },
		{ "log keep past its cap", keep, 4097, true },
		{ "log ring not a power of two", dsize, 100, true },
		{ "log data ring past the power of two of cap + 8", dsize, 16384, true },
	};
	refused_each(good, len, "ENGS", cases, sizeof(cases) / sizeof(cases[0]));
	free(good);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mid_pushbuffer),
		cmocka_unit_test(acquire_released),
		cmocka_unit_test(timeslices),
		cmocka_unit_test(copy_in_progress),
		cmocka_unit_test(mmu_fault_pending),
		cmocka_unit_test(stale_tlb),
		cmocka_unit_test(interrupt_tree),
		cmocka_unit_test(caller_sysmem),
		cmocka_unit_test(bad_host),
		cmocka_unit_test(bad_mmu),
		cmocka_unit_test(bad_ce),
		cmocka_unit_test(bad_engine_log),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
