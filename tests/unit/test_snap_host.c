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
#include "nvmodel/host.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"
#include "nvmodel/setup.h"
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

enum act { A_KICK, A_RUN, A_BUDGET, A_WR, A_MEM, A_SYSMEM };
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
	static uint32_t pb[1 + 3000];
	pb[0] = NINC(0, 0x300, 3000);
	for (unsigned i = 1; i <= 3000; i++)
		pb[i] = i;
	for (unsigned c = 0; c < 3; c++)
		for (unsigned k = 0; k < 2; k++)
			push(gpu, c, pb, sizeof(pb) / 4);
}

static const struct action acts_slices[] = {
	{ A_KICK, 0, 2 },   { A_KICK, 1, 2 },   { A_KICK, 2, 2 },     { A_RUN, 2500, 0 },
	{ A_RUN, 2500, 0 }, { A_RUN, 2500, 0 }, { A_RUN, 2500, 0 },   { A_RUN, 2500, 0 },
	{ A_RUN, 2500, 0 }, { A_RUN, 4000, 0 }, { A_RUN, 100000, 0 }, { A_RUN, 0, 0 },
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
}

static void timeslices(void **state)
{
	(void)state;
	run_case("timeslices", "gv100", &plan_slices, acts_slices, false);
	run_case("timeslices", "gh100", &plan_slices, acts_slices, false);
}

static void copy_in_progress(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++)
		run_case("copy", chips[i], &plan_copy, acts_copy, false);
}

static void mmu_fault_pending(void **state)
{
	(void)state;
	run_case("mmu_fault", "gv100", &plan_fault, acts_fault, false);
	run_case("mmu_fault", "tu102", &plan_fault, acts_fault, false);
}

static void interrupt_tree(void **state)
{
	(void)state;
	run_case("intr_tree", "tu102", &plan_tree, acts_tree, false);
	run_case("intr_tree", "ga100", &plan_tree, acts_tree, false);
	run_case("intr_tree", "gh100", &plan_tree, acts_tree, false);
}

static void caller_sysmem(void **state)
{
	(void)state;
	run_case("caller_sysmem", "gv100", &plan_sys, acts_sys, true);
	run_case("caller_sysmem", "ga102", &plan_sys, acts_sys, true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mid_pushbuffer),    cmocka_unit_test(acquire_released),
		cmocka_unit_test(timeslices),        cmocka_unit_test(copy_in_progress),
		cmocka_unit_test(mmu_fault_pending), cmocka_unit_test(interrupt_tree),
		cmocka_unit_test(caller_sysmem),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
