/*
 * Fuzz target: the Ampere Host (ga100) running channels, as fuzz_host.c does
 * for Volta, through Ampere's register spaces: the device-info table, the
 * per-runlist spaces (SUBMIT_BASE_LO/HI, SUBMIT, SUBMIT_INFO, INTERNAL_DOORBELL,
 * SCHED_DISABLE, PREEMPT, INTR_0 and its enable trees, INTR_RETRIGGER), the
 * channel RAM (CHRAM set/clear writes), the PBDMAs at a 0x800 stride with
 * their INTR_0/1 enable trees, the VF doorbell handles at 0xBB0090 and C56F's
 * CLEAR_FAULTED by handle. Runlist entries carry INST and USERD (RAMFC has no
 * USERD). A skeleton a driver would build (identity-mapped page tables, four
 * channels, one runlist on the GR runlist) is set up first; then the input is
 * a sequence of operations, every run with a small work budget (host_fz.h;
 * a push of 0 words makes a GP control entry, gh100: OPCODE 4
 * SET_PB_SEGMENT_EXTENDED_BASE). fuzz_host_gh100.c builds this file for
 * gh100 (FZ_HOPPER: ver3 page tables, RAMFC GP_BASE_HI without LIMIT2 and
 * GP_INFO).
 */
#include "host_fz.h"

#ifndef FZ_CHIP
#define FZ_CHIP   "ga100"
#define FZ_HOPPER 0
#endif

#define RLB(i)   (0xC00000u + (i)*0x400u) /* the runlist spaces PTOP publishes in the model */
#define CHRAM(i) (0xC20000u + (i)*0x2000u)

static void skeleton(nvm_gpu *g)
{
#if FZ_HOPPER
	/* ver3: PDE4 -> PDE3 -> PDE2 -> PDE1 -> dual PDE0 whose slot 0 is a
	 * 2 MiB PTE at PA 0 (ADDRESS in place, APERTURE 2:1 VID_MEM). */
	w32(g, 0x0000, 0x1000 | 2);
	w32(g, 0x1000, 0x2000 | 2);
	w32(g, 0x2000, 0x3000 | 2);
	w32(g, 0x3000, 0x4000 | 2);
	w32(g, 0x4000, 1);
#else
	hfz_page_tables_v2(g);
#endif
	for (uint32_t i = 0; i < NCH; i++) {
		hfz_ramfc(g, i);
		w32(g, INST(i) + 0x4c, FZ_HOPPER ? 0 : 9u << 16); /* LIMIT2 */
		if (FZ_HOPPER)
			w32(g, INST(i) + 0xa4, 9); /* GP_INFO LIMIT2 */
		w32(g, INST(i) + 0xf8, 0x80000000u);
		nvm_reg_write(g, CHRAM(0) + i * 4, 2); /* ENABLE_CHANNEL */
	}
	hfz_runlist(g);
	nvm_reg_write(g, RLB(0) + 0x120, 0x000f1307); /* INTR_0_EN_SET_TREE(0) */
	nvm_reg_write(g, 0x40170, 0xffffffffu);       /* PBDMA 0 INTR_0_EN_SET_TREE(0) */
	nvm_reg_write(g, 0x160, 1u << 8);
	nvm_reg_write(g, RLB(0) + 0x080, RL);
	nvm_reg_write(g, RLB(0) + 0x084, 0);
	nvm_reg_write(g, RLB(0) + 0x088, 6);
}

/* Host registers worth poking (with an element index where they are arrays). */
static uint32_t reg_addr(uint32_t sel, uint32_t idx)
{
	static const uint32_t rl[] = { 0x080, 0x084, 0x088, 0x08c, 0x090, 0x094, 0x098, 0x100, 0x110,
		                       0x120, 0x128, 0x140, 0x148, 0x160, 0x174, 0x180, 0x200, 0x300 };
	static const uint32_t pb[] = { 0x000, 0x010, 0x014, 0x04c, 0x0a4, 0x084, 0x088, 0x094, 0x0ac, 0x0c0,
		                       0x0f4, 0x108, 0x148, 0x168, 0x170, 0x174, 0x180, 0x184, 0x190, 0x1a0 };
	switch (sel % 5) {
	case 0: return RLB(idx % 6) + rl[(sel / 5) % (sizeof(rl) / sizeof(rl[0]))]; /* one past the 5 runlists */
	case 1: return 0x40000 + (idx % 7) * 0x800 + pb[(sel / 5) % (sizeof(pb) / sizeof(pb[0]))];
	case 2: return CHRAM(0) + ((uint32_t)idx * 37 % (5 * 2048)) * 4;
	case 3: return 0x22800 + (idx % 70) * 4;  /* PTOP (read-only) */
	default: return 0xbb0080 + (idx % 6) * 4; /* VF TIME, DOORBELL */
	}
}

/* The runlist's INTERNAL_DOORBELL, or a VF doorbell handle: mostly valid
 * (runlist 0 or 5 | chid), sometimes the raw value (invalid bits,
 * runlists). */
static void doorbell(nvm_gpu *g, uint32_t ch, uint32_t fl)
{
	uint32_t h = fl & 0x80 ? ch | (fl & 0x70) << 12 | (fl & 0x0f) << 20 : ((fl & 0x40 ? 5u : 0u) << 16) | ch;
	nvm_reg_write(g, fl & 0x20 ? RLB(0) + 0x090 : 0xbb0090, fl & 0x20 ? ch : h);
}

static void submit(nvm_gpu *g, uint32_t id)
{
	nvm_reg_write(g, RLB(id % 6) + 0x080, RL | ((id >> 4) & 3));
	nvm_reg_write(g, RLB(id % 6) + 0x088, (id >> 6) & 7);
}

static const struct host_fz ampere_fz = { FZ_CHIP, skeleton, reg_addr, doorbell, submit, 6, 0x800, true };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return hfz_run(&ampere_fz, data, size);
}
