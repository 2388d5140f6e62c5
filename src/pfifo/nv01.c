/*
 * PFIFO of NV01 (NV1, 1995): the PIO unit of pio01.c with NV1's registers
 * (rnndb fifo/nv1_pfifo.xml; write masks of the envytools hwtest/pfifo.cc
 * register scan, run on a real NV1), its free-count lie, and RAMIN laid
 * out by PRAM CONFIG (0x602200) with the BAR0 windows PRAMHT, PRAMFC,
 * PRAMRO and PRAMIN (envytools nv1-vram.rst "RAMIN", mmio.rst).
 * docs/pfifo.md "NV01 and NV03".
 */
#include "pio01.h"

#define NV1_PRAM_CONFIG 0x602200u
#define NV1_PRAMHT      0x640000u
#define NV1_PRAMFC      0x648000u
#define NV1_PRAMRO      0x650000u

/* ---------------------------------------------------------------- RAMIN layout */

/* nv1-vram.rst: PRAM CONFIG 1:0 selects RAMHT 0x1000 << n at 0, RAMRO and
 * RAMFC 0x800 << n each (RAMRO at 0x1000, 0x2000, 0x2000, 0x8000; RAMFC at
 * 0x1800, 0x3000, 0x6000, 0xc000: layout 2 overlaps RAMHT, "buggy").
 * E-hw: RAMFC holds 64 channels with RAM_SIZE 0, 128 otherwise. */
static void nv01_layout(struct pio01 *p, struct p1_layout *l)
{
	static const uint32_t ramro[4] = { 0x1000, 0x2000, 0x2000, 0x8000 };
	static const uint32_t ramfc[4] = { 0x1800, 0x3000, 0x6000, 0xc000 };
	uint32_t n = bus_get(p->f.gpu, NV1_PRAM_CONFIG) & 3;
	l->ramht = 0;
	l->ramht_size = 0x1000u << n;
	l->ramro = ramro[n];
	l->ramro_size = 0x800u << n;
	l->ramfc = ramfc[n];
	l->ramfc_chans = n ? 128 : 64;
}

/* The fixed-area windows: an access past the area wraps to its start
 * (nv1-vram.rst "RAMIN access areas"). */
static bool area(struct pio01 *p, uint32_t addr, uint32_t *ramin)
{
	struct p1_layout l;
	nv01_layout(p, &l);
	if (addr >= NV1_PRAMRO)
		*ramin = l.ramro + (addr - NV1_PRAMRO) % l.ramro_size;
	else if (addr >= NV1_PRAMFC)
		*ramin = l.ramfc + (addr - NV1_PRAMFC) % l.ramro_size; /* RAMFC is RAMRO's size */
	else
		*ramin = l.ramht + (addr - NV1_PRAMHT) % l.ramht_size;
	return true;
}

static bool area_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	uint32_t a;
	area(ctx, addr, &a);
	return pfifo_pramin_rd(ctx, PFIFO_PRAMIN + a, val);
}

static bool area_wr(void *ctx, uint32_t addr, uint32_t val)
{
	uint32_t a;
	area(ctx, addr, &a);
	return pfifo_pramin_wr(ctx, PFIFO_PRAMIN + a, val);
}

/* PRAM (nv1-vram.rst "nv1-pram"): CONFIG, RAM_SIZE 1:0 in the E-hw scan. */
static const struct reg_desc pram_regs[] = {
	{ NV1_PRAM_CONFIG, "NV1_PRAM_CONFIG", 0, 0x3u, 0, NULL, NULL },
};

static nvm_status nv01_init(struct pio01 *p)
{
	struct pfifo *f = &p->f;
	nvm_status st = bus_add(f->gpu, &(struct reg_block){ .name = "pram",
	                                                     .base = 0x602000,
	                                                     .size = 0x1000,
	                                                     .regs = pram_regs,
	                                                     .nregs = 1,
	                                                     .ctx = p });
	if (!st)
		st = pfifo_add_window(f, "pramht", NV1_PRAMHT, 0x8000, area_rd, area_wr);
	if (!st)
		st = pfifo_add_window(f, "pramfc", NV1_PRAMFC, 0x4000, area_rd, area_wr);
	if (!st)
		st = pfifo_add_window(f, "pramro", NV1_PRAMRO, 0x4000, area_rd, area_wr);
	if (!st)
		st = pfifo_add_window(f, "pramin", PFIFO_PRAMIN, PFIFO_PRAMIN_SIZE, pfifo_pramin_rd, pfifo_pramin_wr);
	return st;
}

/* ---------------------------------------------------------------- registers */

#define ALL 0xffffffffu
/* Write masks: the E-hw scan (every register reads back its mask after a
 * write of all ones, 0 after 0); reset values: 0 (UNVERIFIED: no source
 * gives NV1's power-on values). */
static const struct reg_desc regs_nv01[] = {
	{ P1_WAIT_RETRY, "NV1_PFIFO_WAIT_RETRY", 0, 0xffu, 0, NULL, NULL },
	{ P1_CACHE_ERROR, "NV1_PFIFO_CACHE_ERROR", 0, 0, 0, NULL, NULL },
	{ P1_INTR, "NV1_PFIFO_INTR", 0, 0, 0x111u, NULL, p1_wr_intr },
	{ P1_INTR_EN, "NV1_PFIFO_INTR_EN", 0, 0x111u, 0, NULL, p1_wr_intr },
	{ P1_CONFIG, "NV1_PFIFO_CONFIG", 0, 0x3u, 0, NULL, NULL },
	{ P1_RUNOUT_STATUS, "NV1_PFIFO_RUNOUT_STATUS", 0, 0, 0, p1_rd_runout_status, NULL },
	{ P1_RUNOUT_PUT, "NV1_PFIFO_RUNOUT_PUT", 0, 0x3ff8u, 0, NULL, p1_wr_runout_ptr },
	{ P1_RUNOUT_GET, "NV1_PFIFO_RUNOUT_GET", 0, 0x3ff8u, 0, NULL, p1_wr_runout_ptr },
	{ P1_CHSW_ENABLE, "NV1_PFIFO_CHSW_ENABLE", 0, 1, 0, NULL, p1_wr_kick },
	{ P1_C0_PUSH_ACCESS, "NV1_PFIFO_CACHE0_PUSH_ACCESS", 0, 1, 0, NULL, p1_wr_kick },
	{ 0x3010, "NV1_PFIFO_CACHE0_CHID", 0, 0x7fu, 0, NULL, NULL },
	{ 0x3020, "NV1_PFIFO_CACHE0_STATUS", 0, 0, 0, p1_rd_c0_status, NULL },
	{ 0x3030, "NV1_PFIFO_CACHE0_PUT", 0, 0x4u, 0, NULL, p1_wr_kick },
	{ P1_C0_PULL_CTRL, "NV1_PFIFO_CACHE0_PULL_CTRL", 0, 1, 0, NULL, p1_wr_pull_ctrl },
	{ 0x3050, "NV1_PFIFO_CACHE0_PULL_STATE", 0, 0x100u, 0, NULL, NULL },
	{ P1_C0_GET, "NV1_PFIFO_CACHE0_GET", 0, 0x4u, 0, NULL, p1_wr_kick },
	{ P1_C0_CTX, "NV1_PFIFO_CACHE0_CTX", 0, 0x007fffffu, 0, NULL, NULL },
	{ P1_C0_ADDR, "NV1_PFIFO_CACHE0_ADDR", 0, 0xfffcu, 0, NULL, NULL },
	{ P1_C0_DATA, "NV1_PFIFO_CACHE0_DATA", 0, ALL, 0, NULL, NULL },
	{ P1_C1_PUSH_ACCESS, "NV1_PFIFO_CACHE1_PUSH_ACCESS", 0, 1, 0, NULL, p1_wr_kick },
	{ 0x3210, "NV1_PFIFO_CACHE1_CHID", 0, 0x7fu, 0, NULL, NULL },
	{ 0x3220, "NV1_PFIFO_CACHE1_STATUS", 0, 0, 0, p1_rd_c1_status, NULL },
	{ 0x3230, "NV1_PFIFO_CACHE1_PUT", 0, 0x7cu, 0, NULL, p1_wr_kick },
	{ P1_C1_PULL_CTRL, "NV1_PFIFO_CACHE1_PULL_CTRL", 0, 1, 0, NULL, p1_wr_pull_ctrl },
	{ P1_C1_PULL_STATE, "NV1_PFIFO_CACHE1_PULL_STATE", 0, 0x117u, 0, p1_rd_pull_state, NULL },
	{ P1_C1_GET, "NV1_PFIFO_CACHE1_GET", 0, 0x7cu, 0, NULL, p1_wr_kick },
	{ P1_C1_CTX(0), "NV1_PFIFO_CACHE1_CTX(0)", 0, 0x017fffffu, 0, NULL, NULL },
	{ P1_C1_CTX(1), "NV1_PFIFO_CACHE1_CTX(1)", 0, 0x017fffffu, 0, NULL, NULL },
	{ P1_C1_CTX(2), "NV1_PFIFO_CACHE1_CTX(2)", 0, 0x017fffffu, 0, NULL, NULL },
	{ P1_C1_CTX(3), "NV1_PFIFO_CACHE1_CTX(3)", 0, 0x017fffffu, 0, NULL, NULL },
	{ P1_C1_CTX(4), "NV1_PFIFO_CACHE1_CTX(4)", 0, 0x017fffffu, 0, NULL, NULL },
	{ P1_C1_CTX(5), "NV1_PFIFO_CACHE1_CTX(5)", 0, 0x017fffffu, 0, NULL, NULL },
	{ P1_C1_CTX(6), "NV1_PFIFO_CACHE1_CTX(6)", 0, 0x017fffffu, 0, NULL, NULL },
	{ P1_C1_CTX(7), "NV1_PFIFO_CACHE1_CTX(7)", 0, 0x017fffffu, 0, NULL, NULL },
};
static const struct reg_layer nv01_regs = { regs_nv01, sizeof(regs_nv01) / sizeof(regs_nv01[0]), NULL, 0 };
static const struct reg_layer *const layers_nv01[] = { &nv01_regs, NULL };

/* ---------------------------------------------------------------- RAMFC */

/* rnndb NV1_RAMFC: CTX[8] (ENGDATA 15:0, ADDR 22:16, FREE_LIE 24), the
 * subchannel in word 0 30:28; E-hw: PULL_STATE OBJECT in word 0 bit 31. */
#define CTX_FIELD(i, bits)                                                                                             \
	{                                                                                                              \
		"CTX" #i, P1_C1_CTX(i), 4 * (i), 0, bits, 0                                                            \
	}
static const nvm_ramfc_field ramfc_nv01_f[] = {
	CTX_FIELD(0, 25),
	{ "SUBCHANNEL", P1_C1_PULL_STATE, 0x00, 28, 3, 0 },
	{ "OBJECT", P1_C1_PULL_STATE, 0x00, 31, 1, 8 },
	CTX_FIELD(1, 25),
	CTX_FIELD(2, 25),
	CTX_FIELD(3, 25),
	CTX_FIELD(4, 25),
	CTX_FIELD(5, 25),
	CTX_FIELD(6, 25),
	CTX_FIELD(7, 25),
};
static const struct ramfc_layout ramfc_nv01 = { "nv01", 32, ramfc_nv01_f,
	                                        sizeof(ramfc_nv01_f) / sizeof(ramfc_nv01_f[0]) };

/* ---------------------------------------------------------------- the generation */

static const uint32_t reset_nv01[] = { P1_WAIT_RETRY, P1_INTR_EN, P1_CHSW_ENABLE, P1_C0_PUSH_ACCESS,
	                               P1_C1_PUSH_ACCESS };

/* UNVERIFIED (puller.rst: "You don't want to know how NV1 RAMHT works"):
 * NV1's RAMHT is given NV3's entry format and hash, and the engine is
 * PGRAPH when context bit 22 is set (ADDR 0x40..0x7f: PGRAPH's class
 * areas 0x410000..0x5fffff sit in that range, digest 5.2; the NV1 CTX
 * registers have no bit 23). */
static const struct pio01_impl nv01_impl = {
	.c0_chid = 0x3010,
	.c0_put = 0x3030,
	.c1_chid = 0x3210,
	.c1_put = 0x3230,
	.slots = 32,
	.array = 0x3300,
	.ctx_mask = 0x017fffffu,
	.pull_state_mask = 0x117u,
	.free_lie = true,
	.eng_bit = 22,
	.layout = nv01_layout,
	.reset = reset_nv01,
	.nreset = sizeof(reset_nv01) / sizeof(reset_nv01[0]),
	.init = nv01_init,
};

/* 128 channels, 8 subchannels, CACHE1 32 entries (nv1-pfifo.rst). */
const struct pfifo_gen pfifo_nv01 = {
	.name = "nv01",
	.nchan = 128,
	.cache_entries = 32,
	.pio_channels = 128,
	.chid_mask = 0x7f,
	.cache_addr_mask = 0xfffc,
	.class_mask = 0x7f,
	.hash_valid = 16,
	.ramfc = &ramfc_nv01,
	.ramht = { 15, 22, 22, 30, 24, -1, true },
	.ramht_bucket = true,
	.eng_names = pfifo_nv04_eng_names,
	.regs = layers_nv01,
	.sem_errors = pfifo_nv04_sem_errors,
	.size = sizeof(struct pio01),
	.ops = &pio01_ops,
	.impl = &nv01_impl,
};
