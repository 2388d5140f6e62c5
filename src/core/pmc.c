/*
 * PMC, the master control: chip identification (PMC_BOOT_0) and top-level
 * interrupt aggregation (envytools hw/bus/pmc.rst "Interrupts";
 * gv100_dev_master.ref.txt NV_PMC_INTR / NV_PMC_INTR_EN*).
 *
 * Blocks drive input lines with pmc_set_line(); PMC computes the output line
 * (the PCI INTA pin) and reports each change of its level as an
 * NVM_EV_INTERRUPT event.
 */
#include "core.h"

static void pmc_update(nvm_gpu *gpu)
{
	struct pmc *p = &gpu->pmc;
	int out;
	if (gpu->chip->pmc == PMC_GV100) {
		out = (p->lines & p->en) != 0;
	} else {
		/* pmc-intr-enable-host: bit 0 gates hardware lines 0-30, bit 1 the
		 * software interrupt in bit 31. */
		out = ((p->en & 1) && (p->lines & 0x7fffffffu)) || ((p->en & 2) && p->soft);
	}
	out |= p->tree;
	if (out != p->out) {
		p->out = out;
		emit(gpu, NVM_EV_INTERRUPT, "pmc", "intr", 0x100, (uint64_t)out, "interrupt line %s (PMC_INTR 0x%08x)",
		     out ? "asserted" : "deasserted", p->lines | p->soft);
	}
}

void pmc_set_tree(nvm_gpu *gpu, bool level)
{
	if (level == gpu->pmc.tree)
		return;
	gpu->pmc.tree = level;
	pmc_update(gpu);
}

void pmc_set_line(nvm_gpu *gpu, unsigned bit, bool level)
{
	uint32_t m = 1u << (bit & 31);
	uint32_t lines = level ? gpu->pmc.lines | m : gpu->pmc.lines & ~m;
	if (lines == gpu->pmc.lines)
		return;
	gpu->pmc.lines = lines;
	pmc_update(gpu);
}

bool nvm_intr_line(nvm_gpu *gpu)
{
	return gpu ? gpu->pmc.out : 0;
}

/* ---------------------------------------------------------------- handlers */

static uint32_t rd_intr(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	nvm_gpu *gpu = ctx;
	return gpu->pmc.lines | gpu->pmc.soft;
}

static void wr_intr_soft(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	nvm_gpu *gpu = ctx;
	/* pmc-intr-host: "bit 31 can be written to set/clear the software interrupt". */
	gpu->pmc.soft = *stored & 0x80000000u;
	pmc_update(gpu);
}

static void wr_intr_en(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	nvm_gpu *gpu = ctx;
	gpu->pmc.en = *stored;
	pmc_update(gpu);
}

static uint32_t rd_intr_en_gv100(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return ((nvm_gpu *)ctx)->pmc.en;
}

static void wr_intr_en_set(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	nvm_gpu *gpu = ctx;
	gpu->pmc.en |= written;
	*stored = 0; /* write-only */
	pmc_update(gpu);
}

static void wr_intr_en_clear(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	nvm_gpu *gpu = ctx;
	gpu->pmc.en &= ~written;
	*stored = 0;
	pmc_update(gpu);
}

static void wr_enable(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)written;
	port_pmc_enable(ctx, old, *stored);
}

/* ---------------------------------------------------------------- tables */

/* NV04..G80 (envytools pmc.rst register list). */
static const struct reg_desc pmc_nv04_regs[] = {
	{ 0x000, "NV_PMC_BOOT_0", 0, 0, 0, NULL, NULL },
	{ 0x100, "NV_PMC_INTR_0", 0, 0x80000000u, 0, rd_intr, wr_intr_soft },
	{ 0x140, "NV_PMC_INTR_EN_0", 0, 0x3u, 0, NULL, wr_intr_en },
	/* UNVERIFIED: ENABLE is stored; disabling an engine has no effect but
	 * on the blocks listening to the port (NV01/NV03 PFIFO, bit 8). */
	{ 0x200, "NV_PMC_ENABLE", 0, 0xffffffffu, 0, NULL, wr_enable },
};

/* GV100 (gv100_dev_master.ref.txt): the enable mask is changed only through
 * the SET/CLEAR registers; only tree 0 (the stalling tree) is modelled. */
static const struct reg_desc pmc_gv100_regs[] = {
	{ 0x000, "NV_PMC_BOOT_0", 0, 0, 0, NULL, NULL },
	{ 0x100, "NV_PMC_INTR(0)", 0, 0, 0, rd_intr, NULL },
	{ 0x104, "NV_PMC_INTR(1)", 0, 0, 0, NULL, NULL },
	{ 0x108, "NV_PMC_INTR(2)", 0, 0, 0, NULL, NULL },
	{ 0x10c, "NV_PMC_INTR(3)", 0, 0, 0, NULL, NULL },
	{ 0x140, "NV_PMC_INTR_EN(0)", 0, 0, 0, rd_intr_en_gv100, NULL },
	{ 0x144, "NV_PMC_INTR_EN(1)", 0, 0, 0, NULL, NULL },
	{ 0x148, "NV_PMC_INTR_EN(2)", 0, 0, 0, NULL, NULL },
	{ 0x14c, "NV_PMC_INTR_EN(3)", 0, 0, 0, NULL, NULL },
	{ 0x160, "NV_PMC_INTR_EN_SET(0)", 0, 0, 0, NULL, wr_intr_en_set },
	{ 0x180, "NV_PMC_INTR_EN_CLEAR(0)", 0, 0, 0, NULL, wr_intr_en_clear },
	{ 0x200, "NV_PMC_ENABLE", 0, 0xffffffffu, 0, NULL, NULL },
};

nvm_status pmc_init(nvm_gpu *gpu)
{
	bool gv = gpu->chip->pmc == PMC_GV100;
	struct reg_block blk = {
		.name = "pmc",
		.base = 0x000000,
		.size = 0x1000,
		.regs = gv ? pmc_gv100_regs : pmc_nv04_regs,
		.nregs = gv ? sizeof(pmc_gv100_regs) / sizeof(pmc_gv100_regs[0])
		            : sizeof(pmc_nv04_regs) / sizeof(pmc_nv04_regs[0]),
		.ctx = gpu,
	};
	nvm_status st = bus_add(gpu, &blk);
	if (st)
		return st;
	/* PMC_BOOT_0 is the chip's identity: a per-chip value, not a table reset. */
	*bus_reg(gpu, 0x000) = gpu->chip->info.boot_0;
	return NVM_OK;
}
