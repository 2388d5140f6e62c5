/*
 * PFIFO of NV04..NV4x: the block, its registers (rnndb fifo/nv4_pfifo.xml,
 * nouveau's nv04/nv10/nv17/nv40 fifo code for what the documents leave
 * out), instance memory (RAMIN and the PRAMIN window), RAMFC channel
 * switches, RAMRO, interrupts and the scheduling step that runs the pushers
 * and the puller in virtual time. The pushers are in pusher.c, the puller
 * in puller.c. docs/pfifo.md describes the model.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pfifo_internal.h"

/* ---------------------------------------------------------------- chip data */

/* RAMFC layouts, as nouveau's nv04/nv10/nv17/nv40 fifo code saves and
 * restores CACHE1 (nv04_fifo_ramfc, nv10_fifo_ramfc, nv17_fifo_ramfc,
 * nv40_chan_ramfc). */
#define F(name, reg, off, ctx_lo, bits, reg_lo)                                                                        \
	{                                                                                                              \
		name, reg, off, ctx_lo, bits, reg_lo                                                                   \
	}
static const nvm_ramfc_field ramfc_nv04_f[] = {
	F("DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0),
	F("DMA_GET", R_DMA_GET, 0x04, 0, 32, 0),
	F("DMA_INSTANCE", R_DMA_INSTANCE, 0x08, 0, 16, 0),
	F("DMA_DCOUNT", R_DCOUNT, 0x08, 16, 16, 0),
	F("DMA_STATE", R_DMA_STATE, 0x0c, 0, 32, 0),
	F("DMA_FETCH", R_DMA_FETCH, 0x10, 0, 32, 0),
	F("ENGINE", R_ENGINE, 0x14, 0, 32, 0),
	F("PULL1", R_PULL1, 0x18, 0, 32, 0),
};
static const nvm_ramfc_field ramfc_nv10_f[] = {
	F("DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0),     F("DMA_GET", R_DMA_GET, 0x04, 0, 32, 0),
	F("REF_CNT", R_REF, 0x08, 0, 32, 0),         F("DMA_INSTANCE", R_DMA_INSTANCE, 0x0c, 0, 16, 0),
	F("DMA_DCOUNT", R_DCOUNT, 0x0c, 16, 16, 0),  F("DMA_STATE", R_DMA_STATE, 0x10, 0, 32, 0),
	F("DMA_FETCH", R_DMA_FETCH, 0x14, 0, 32, 0), F("ENGINE", R_ENGINE, 0x18, 0, 32, 0),
	F("PULL1", R_PULL1, 0x1c, 0, 32, 0),
};
static const nvm_ramfc_field ramfc_nv17_f[] = {
	F("DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0),
	F("DMA_GET", R_DMA_GET, 0x04, 0, 32, 0),
	F("REF_CNT", R_REF, 0x08, 0, 32, 0),
	F("DMA_INSTANCE", R_DMA_INSTANCE, 0x0c, 0, 16, 0),
	F("DMA_DCOUNT", R_DCOUNT, 0x0c, 16, 16, 0),
	F("DMA_STATE", R_DMA_STATE, 0x10, 0, 32, 0),
	F("DMA_FETCH", R_DMA_FETCH, 0x14, 0, 32, 0),
	F("ENGINE", R_ENGINE, 0x18, 0, 32, 0),
	F("PULL1", R_PULL1, 0x1c, 0, 32, 0),
	F("ACQUIRE_VALUE", R_ACQ_VALUE, 0x20, 0, 32, 0),
	F("ACQUIRE_TIMESTAMP", R_ACQ_TIMESTAMP, 0x24, 0, 32, 0),
	F("ACQUIRE_TIMEOUT", R_ACQ_TIMEOUT, 0x28, 0, 32, 0),
	F("SEMAPHORE", R_SEMAPHORE, 0x2c, 0, 32, 0),
	F("DMA_SUBROUTINE", R_SUBROUTINE, 0x30, 0, 32, 0),
};
static const nvm_ramfc_field ramfc_nv40_f[] = {
	F("DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0),
	F("DMA_GET", R_DMA_GET, 0x04, 0, 32, 0),
	F("REF_CNT", R_REF, 0x08, 0, 32, 0),
	F("DMA_INSTANCE", R_DMA_INSTANCE, 0x0c, 0, 32, 0),
	F("DMA_DCOUNT", R_DCOUNT, 0x10, 0, 32, 0),
	F("DMA_STATE", R_DMA_STATE, 0x14, 0, 32, 0),
	F("DMA_FETCH", R_DMA_FETCH, 0x18, 0, 28, 0),
	F("SLI", R_SLI, 0x18, 28, 2, 28),
	F("ENGINE", R_ENGINE, 0x1c, 0, 32, 0),
	F("PULL1", R_PULL1, 0x20, 0, 32, 0),
	F("ACQUIRE_VALUE", R_ACQ_VALUE, 0x24, 0, 32, 0),
	F("ACQUIRE_TIMESTAMP", R_ACQ_TIMESTAMP, 0x28, 0, 32, 0),
	F("ACQUIRE_TIMEOUT", R_ACQ_TIMEOUT, 0x2c, 0, 32, 0),
	F("SEMAPHORE", R_SEMAPHORE, 0x30, 0, 32, 0),
	F("DMA_SUBROUTINE", R_SUBROUTINE, 0x34, 0, 32, 0),
	F("GRCTX_INSTANCE", R_GRCTX_INST, 0x38, 0, 32, 0),
	F("DMA_TIMESLICE", R_DMA_TIMESLICE, 0x3c, 0, 17, 0),
	F("UNK32E4", R_UNK32E4, 0x40, 0, 32, 0),
	F("UNK32E8", R_UNK32E8, 0x44, 0, 32, 0),
	F("UNK88", R_UNK88, 0x4c, 0, 32, 0),
	F("UNK3300", R_UNK3300, 0x50, 0, 32, 0),
	F("UNK330C", R_UNK330C, 0x54, 0, 32, 0),
};
#undef F
#define LAYOUT(nm, sz, arr)                                                                                            \
	{                                                                                                              \
		nm, sz, arr, sizeof(arr) / sizeof(arr[0])                                                              \
	}
static const struct ramfc_layout ramfc_nv04 = LAYOUT("nv04", 32, ramfc_nv04_f);
static const struct ramfc_layout ramfc_nv10 = LAYOUT("nv10", 32, ramfc_nv10_f);
static const struct ramfc_layout ramfc_nv17 = LAYOUT("nv17", 64, ramfc_nv17_f);
static const struct ramfc_layout ramfc_nv40 = LAYOUT("nv40", 128, ramfc_nv40_f);

/* RAMHT contexts: nouveau's nv04_fifo_dma_object_ctor (valid 31, chid <<
 * 24, engine << 16, instance >> 4) and nv40_eobj_ramht_add (chid << 23,
 * engine << 20). Field widths: CHID per rnndb (4/5/9 bits), ENGINE up to
 * the next field. */
#define RAMHT_NV04                                                                                                     \
	{                                                                                                              \
		15, 17, 16, 27, 24, 31                                                                                 \
	}
#define RAMHT_NV10                                                                                                     \
	{                                                                                                              \
		15, 17, 16, 28, 24, 31                                                                                 \
	}
#define RAMHT_NV40                                                                                                     \
	{                                                                                                              \
		19, 22, 20, 31, 23, -1                                                                                 \
	}

/* Channels: 16 on NV04, 32 on NV10..NV4x (seed 001; nouveau's chid_nr).
 * Engines beyond SOFTWARE and PGRAPH: rnndb nv4_pfifo_engine (PMPEG
 * NV31+, PME NV40+, PVP1 NV41+), each a recording engine in the model.
 * CACHE1 slots: UNVERIFIED (docs/fidelity.md): 32 on NV04 (the seed's
 * example free count 0x7c), 128 on NV10..NV3x (rnndb's CACHE1 ADDR note),
 * 512 on NV40 (rnndb PFIFO_CACHE1_ADDR at 0x90000, length 512). Object
 * class width: 8 bits before NV25, 16 on NV40 (puller.rst). Call and
 * return (via the chips' pb_gen): UNVERIFIED which of the seed's "NV11+"
 * and envytools' "NV1A+" is right; both give them to nv11 and nv17. */
const struct pfifo_chip pfifo_nv04 = { "nv04", 0,           16,   32,         0xf, 1u << 8, 0x1fe,
	                               0xff,   &ramfc_nv04, NULL, RAMHT_NV04, 0,   NULL };
const struct pfifo_chip pfifo_nv10 = { "nv10", PF_NV10 | PF_NV5, 32,   128,        0x1f, 1u << 8, 0x1fc,
	                               0xff,   &ramfc_nv10,      NULL, RAMHT_NV10, 0,    NULL };
const struct pfifo_chip pfifo_nv11 = { "nv11",      PF_NV10 | PF_NV5 | PF_NV1A,
	                               32,          128,
	                               0x1f,        1u << 8,
	                               0x1fc,       0xff,
	                               &ramfc_nv10, &ramfc_nv17,
	                               RAMHT_NV10,  0,
	                               NULL };
const struct pfifo_chip pfifo_nv17 = { "nv17",      PF_NV10 | PF_NV5 | PF_NV1A,
	                               32,          128,
	                               0x1f,        1u << 8,
	                               0x1fc,       0xff,
	                               &ramfc_nv10, &ramfc_nv17,
	                               RAMHT_NV10,  0,
	                               NULL };
const struct pfifo_chip pfifo_nv40 = {
	"nv40",     PF_NV10 | PF_NV5 | PF_NV1A | PF_NV40, 32,  512, 0x1ff, 1u << 16, 0, 0xffff, &ramfc_nv40, NULL,
	RAMHT_NV40, 1u << ENG_PMPEG | 1u << ENG_PME,      NULL
};
const struct pfifo_chip pfifo_nv41 = { "nv41",      PF_NV10 | PF_NV5 | PF_NV1A | PF_NV40,
	                               32,          512,
	                               0x1ff,       1u << 16,
	                               0,           0xffff,
	                               &ramfc_nv40, NULL,
	                               RAMHT_NV40,  1u << ENG_PMPEG | 1u << ENG_PME | 1u << ENG_PVP1,
	                               NULL };

/* Engine names by id (rnndb nv4_pfifo_engine), also the names of their
 * method logs. */
static const char *const engine_names[] = { "software", "pgraph", "pmpeg", "pme", "pvp1" };

const char *pfifo_engine_name(const struct pfifo_chip *c, unsigned id)
{
	if (c->eng_names)
		return id < ENG_IDS && c->eng_names[id] ? c->eng_names[id] : "?";
	return id < sizeof(engine_names) / sizeof(engine_names[0]) ? engine_names[id] : "?";
}

static const struct pfifo_chip *const pfifo_chips[] = {
	&pfifo_nv04, &pfifo_nv10, &pfifo_nv11, &pfifo_nv17, &pfifo_nv40,
	&pfifo_nv41, &pfifo_g80,  &pfifo_g84,  &pfifo_g92,  &pfifo_gt215
};

const struct pfifo_chip *pfifo_chip_find(const char *name)
{
	for (size_t i = 0; name && i < sizeof(pfifo_chips) / sizeof(pfifo_chips[0]); i++)
		if (!strcasecmp(pfifo_chips[i]->name, name))
			return pfifo_chips[i];
	return NULL;
}

static struct pfifo *pfifo_of(const nvm_gpu *gpu)
{
	return gpu ? (struct pfifo *)gpu->blk[BLK_PFIFO] : NULL;
}

/* ---------------------------------------------------------------- RAMIN */

/* nv4-vram / bars.rst "RAMIN": instance memory starts from the end of VRAM
 * and its addresses go in reverse, in 32-bit words (nv1-vram.rst
 * ramin_to_vram: every address bit but the low two flipped). UNVERIFIED:
 * nv4-vram.rst is "todo"; the NV1 rule is applied to every profile, the
 * PRAMIN window covers RAMIN 0..1 MiB and NV40's RAMIN BAR
 * (nvm_pfifo_ramin_bar_*) 0..16 MiB. */
static bool ramin_vram(const struct pfifo *f, uint32_t addr, uint64_t *va)
{
	uint64_t size = f->gpu->mem[NVM_AP_VRAM].size;
	uint64_t a = addr & ~3u;
	if (a + 4 > size)
		return false;
	*va = size - 4 - a;
	return true;
}

bool pfifo_ramin_rd32(struct pfifo *f, uint32_t addr, uint32_t *val)
{
	uint64_t va;
	uint8_t b[4];
	if (!ramin_vram(f, addr, &va) || mem_read(&f->gpu->mem[NVM_AP_VRAM], va, b, 4)) {
		*val = 0;
		return false;
	}
	*val = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return true;
}

bool pfifo_ramin_wr32(struct pfifo *f, uint32_t addr, uint32_t val)
{
	uint64_t va;
	uint8_t b[4] = { (uint8_t)val, (uint8_t)(val >> 8), (uint8_t)(val >> 16), (uint8_t)(val >> 24) };
	return ramin_vram(f, addr, &va) && !mem_write(&f->gpu->mem[NVM_AP_VRAM], va, b, 4);
}

static bool pramin_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	struct pfifo *f = ctx;
	if (!pfifo_ramin_rd32(f, addr - PFIFO_PRAMIN, val))
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "pramin_range", addr, 0,
		     "PRAMIN read at RAMIN 0x%05x beyond VRAM: reads 0", addr - PFIFO_PRAMIN);
	return true;
}

static bool pramin_wr(void *ctx, uint32_t addr, uint32_t val)
{
	struct pfifo *f = ctx;
	if (!pfifo_ramin_wr32(f, addr - PFIFO_PRAMIN, val))
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "pramin_range", addr, val,
		     "PRAMIN write at RAMIN 0x%05x beyond VRAM: dropped", addr - PFIFO_PRAMIN);
	return true;
}

/* ---------------------------------------------------------------- interrupts */

void pfifo_update_intr(struct pfifo *f)
{
	pmc_set_line(f->gpu, PMC_INTR_PFIFO, (*f->r_intr & *f->r_intr_en) != 0);
}

void pfifo_raise(struct pfifo *f, uint32_t bits)
{
	*f->r_intr |= bits;
	pfifo_update_intr(f);
}

/* ---------------------------------------------------------------- CACHE1 */

uint32_t pfifo_chid(const struct pfifo *f)
{
	return *f->r_push1 & f->chip->chid_mask;
}

uint32_t pfifo_cache_count(const struct pfifo *f)
{
	return ((*f->r_put - *f->r_get) >> 2) & f->cache_mask;
}

/* One slot stays free so that PUT == GET means empty: the seed's example
 * free count 0x7c of a 32-slot NV04 CACHE1. */
uint32_t pfifo_cache_free(const struct pfifo *f)
{
	return f->cache_mask - pfifo_cache_count(f);
}

void pfifo_cache_push(struct pfifo *f, uint32_t addr, uint32_t data)
{
	uint32_t slot = (*f->r_put >> 2) & f->cache_mask;
	f->cache_addr[slot] = addr;
	f->cache_data[slot] = data;
	*f->r_put = ((slot + 1) & f->cache_mask) << 2;
	f->stats.cache_pushes++;
}

/* CACHE1 METHOD(i) / DATA(i): i indexes the slots modulo their number
 * (rnndb: the upper entries of the pre-NV40 array alias the lower). */
static bool cache1_rd(struct pfifo *f, uint32_t rel, uint32_t *val)
{
	uint32_t slot = (rel >> 3) & f->cache_mask;
	*val = rel & 4 ? f->cache_data[slot] : f->cache_addr[slot];
	return true;
}

static bool cache1_wr(struct pfifo *f, uint32_t rel, uint32_t val)
{
	uint32_t slot = (rel >> 3) & f->cache_mask;
	if (rel & 4)
		f->cache_data[slot] = val;
	else
		f->cache_addr[slot] = val & (pf_has(f, PF_NV10) ? 0xfffdu : 0xfffcu);
	return true;
}

static bool pfifo_win_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	struct pfifo *f = ctx;
	if (pf_has(f, PF_G80) && addr >= R_G80_CHAN_TABLE && addr < R_G80_CHAN_TABLE + 4 * 128) {
		*val = f->chan_table[(addr - R_G80_CHAN_TABLE) >> 2];
		return true;
	}
	if (addr >= PFIFO_CACHE1_NV04 && addr < 0x4000 && !pf_has(f, PF_NV40))
		return cache1_rd(f, addr - PFIFO_CACHE1_NV04, val);
	return false;
}

static bool pfifo_win_wr(void *ctx, uint32_t addr, uint32_t val)
{
	struct pfifo *f = ctx;
	if (pf_has(f, PF_G80) && addr >= R_G80_CHAN_TABLE && addr < R_G80_CHAN_TABLE + 4 * 128) {
		/* CHAN_TABLE: G80 CHAN 29:0, G84+ RAMFC_ADDR 23:0 / TARGET 25:24 /
		 * UNK26 28:26; PENDING 30, ENABLE 31 (rnndb). UNVERIFIED: PENDING
		 * is not modelled (reads what was written). */
		f->chan_table[(addr - R_G80_CHAN_TABLE) >> 2] = val;
		pfifo_kick(f);
		return true;
	}
	if (addr >= PFIFO_CACHE1_NV04 && addr < 0x4000 && !pf_has(f, PF_NV40))
		return cache1_wr(f, addr - PFIFO_CACHE1_NV04, val);
	return false;
}

static bool cache40_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	return cache1_rd(ctx, addr - PFIFO_CACHE1_NV40, val);
}

static bool cache40_wr(void *ctx, uint32_t addr, uint32_t val)
{
	return cache1_wr(ctx, addr - PFIFO_CACHE1_NV40, val);
}

/* ---------------------------------------------------------------- RAMFC */

const struct ramfc_layout *pfifo_ramfc_layout(const struct pfifo *f)
{
	/* NV1A+ RAMFC LARGE (16:16) selects the 64-byte entries nouveau's nv17
	 * code uses; NV10-style 32-byte entries otherwise. */
	if (f->chip->ramfc_large && FIELD_GET(bus_get(f->gpu, R_RAMFC), 16, 16))
		return f->chip->ramfc_large;
	return f->chip->ramfc;
}

uint32_t pfifo_ramfc_base(const struct pfifo *f)
{
	/* NV40: 0x2220 as nouveau programs nv40/nv41 (0x00030002 for RAMFC at
	 * 0x20000). UNVERIFIED: bits 7:0 are the address in 64 KiB units. */
	if (pf_has(f, PF_NV40))
		return FIELD_GET(bus_get(f->gpu, R_RAMFC_NV40), 7, 0) << 16;
	return (bus_get(f->gpu, R_RAMFC) & f->chip->ramfc_addr_mask) << 8;
}

static uint32_t fmask(unsigned bits)
{
	return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
}

static uint32_t ramfc_word_addr(const struct pfifo *f, uint32_t chid, const struct ramfc_layout *l, unsigned off)
{
	return pfifo_ramfc_base(f) + chid * l->size + off;
}

bool pfifo_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w)
{
	if (pf_has(f, PF_G80))
		return g80_ramfc_rd(f, chid, off, w);
	return pfifo_ramin_rd32(f, ramfc_word_addr(f, chid, pfifo_ramfc_layout(f), off), w);
}

bool pfifo_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w)
{
	if (pf_has(f, PF_G80))
		return g80_ramfc_wr(f, chid, off, w);
	return pfifo_ramin_wr32(f, ramfc_word_addr(f, chid, pfifo_ramfc_layout(f), off), w);
}

bool pfifo_chan_dma(const struct pfifo *f, uint32_t chid)
{
	if (pf_has(f, PF_G80))
		return chid != 0 && chid < f->chip->nchan;
	return chid < 32 && FIELD_GET(*f->r_mode, chid, chid);
}

/* Register reg's value in channel chid's RAMFC entry (0 when absent). */
static uint32_t ramfc_get(struct pfifo *f, uint32_t chid, uint32_t reg, bool *found)
{
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	uint32_t v = 0;
	*found = false;
	for (size_t i = 0; i < l->n; i++) {
		const nvm_ramfc_field *fl = &l->f[i];
		if (fl->reg != reg)
			continue;
		uint32_t w;
		pfifo_ramfc_rd(f, chid, fl->off, &w);
		v |= ((w >> fl->ctx_lo) & fmask(fl->bits)) << fl->reg_lo;
		*found = true;
	}
	return v;
}

static void ramfc_put(struct pfifo *f, uint32_t chid, const nvm_ramfc_field *fl, uint32_t regval)
{
	uint32_t w;
	pfifo_ramfc_rd(f, chid, fl->off, &w);
	uint32_t cm = fmask(fl->bits) << fl->ctx_lo;
	w = (w & ~cm) | ((((regval >> fl->reg_lo) & fmask(fl->bits)) << fl->ctx_lo) & cm);
	pfifo_ramfc_wr(f, chid, fl->off, w);
}

uint32_t pfifo_chan_reg(struct pfifo *f, uint32_t chid, uint32_t reg)
{
	if (chid == pfifo_chid(f))
		return bus_get(f->gpu, reg);
	bool found;
	return ramfc_get(f, chid, reg, &found);
}

void pfifo_chan_reg_set(struct pfifo *f, uint32_t chid, uint32_t reg, uint32_t v)
{
	if (chid == pfifo_chid(f)) {
		bus_set(f->gpu, reg, v);
		return;
	}
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	for (size_t i = 0; i < l->n; i++)
		if (l->f[i].reg == reg)
			ramfc_put(f, chid, &l->f[i], v);
}

/* Saves CACHE1's channel to its RAMFC entry and loads chid's (nouveau's
 * nv04_fifo_dma_fini does the save half in software). UNVERIFIED:
 * registers that the layout does not hold keep their values. */
static void ctx_switch(struct pfifo *f, uint32_t chid)
{
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	uint32_t old = pfifo_chid(f);
	puller_acq_switch_out(f, old);
	puller_acq_switch_in(f, chid);
	f->acq_fence = false;
	/* seed 001: from NV50 the cache is saved to memory on a switch. */
	if (pf_has(f, PF_G80))
		g80_cache_save(f, old);
	for (size_t i = 0; i < l->n; i++) {
		const uint32_t *r = bus_reg(f->gpu, l->f[i].reg);
		if (r)
			ramfc_put(f, old, &l->f[i], *r);
	}
	for (size_t i = 0; i < l->n; i++) {
		const nvm_ramfc_field *fl = &l->f[i];
		uint32_t *r = bus_reg(f->gpu, fl->reg);
		if (!r)
			continue;
		uint32_t w;
		pfifo_ramfc_rd(f, chid, fl->off, &w);
		uint32_t rm = fmask(fl->bits) << fl->reg_lo;
		*r = (*r & ~rm) | ((((w >> fl->ctx_lo) & fmask(fl->bits)) << fl->reg_lo) & rm);
	}
	bool dma = pfifo_chan_dma(f, chid);
	*f->r_push1 = chid | (dma ? f->chip->push1_mode : 0);
	if (pf_has(f, PF_G80))
		g80_cache_load(f, chid);
	/* UNVERIFIED: the cached pushbuffer DMA object is re-read after a load. */
	bus_set(f->gpu, R_DMA_CTL, 0);
	f->stats.ctx_switches++;
	f->yield = false;
	f->fresh = true;
	/* DMA_TIMESLICE / PIO_TIMESLICE SELECT 16:0 by the channel's mode */
	uint32_t ts = FIELD_GET(bus_get(f->gpu, dma ? R_DMA_TIMESLICE : R_PIO_TIMESLICE), 16, 0);
	f->slice_end = f->clock + ts + 1;
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "ctx_switch", chid, old, "CACHE1: channel %u out, channel %u in (%s)", old,
	     chid, dma ? "DMA" : "PIO");
}

/* A unit stopped until the driver acts: the DMA pusher after an error or
 * DMA_PTE, the puller after CACHE_ERROR or SEMAPHORE. UNVERIFIED: CACHE1 keeps its
 * channel meanwhile, so the handler finds it in PUSH1 (nouveau reads it). */
static bool waits_for_driver(const struct pfifo *f)
{
	return (*f->r_dma_push & DMA_PUSH_SUSPENDED) ||
	       (*f->r_intr & (INTR_CACHE_ERROR | INTR_SEMAPHORE | INTR_DMA_PTE));
}

/* A PIO channel keeps CACHE1 until its timeslice is over when
 * PIO_TIMESLICE TIMEOUT (24:24, rnndb) is set. UNVERIFIED: without it a
 * PIO channel gives an empty CACHE1 up at once (docs/pfifo.md). */
bool pfifo_pio_slice_holds(const struct pfifo *f)
{
	uint64_t now = f->clock > f->gpu->now ? f->clock : f->gpu->now; /* f->clock inside a step */
	return !(*f->r_push1 & f->chip->push1_mode) && FIELD_GET(bus_get(f->gpu, R_PIO_TIMESLICE), 24, 24) &&
	       now < f->slice_end;
}

/* Pre-G80 CACHE1 must be empty to change channels; from G80 it is saved
 * to memory (seed 001). */
static bool cache_pins(const struct pfifo *f)
{
	return !pf_has(f, PF_G80) && pfifo_cache_count(f);
}

bool pfifo_switch_to(struct pfifo *f, uint32_t chid)
{
	if (chid == pfifo_chid(f))
		return true;
	f->clock = f->gpu->now;
	if (cache_pins(f) || !FIELD_GET(*f->r_caches, 0, 0) || waits_for_driver(f) || pfifo_pio_slice_holds(f))
		return false;
	ctx_switch(f, chid);
	return true;
}

/* ---------------------------------------------------------------- scheduling */

static void step(nvm_gpu *gpu, void *ctx, uint64_t arg);

/* UNVERIFIED (G80): a channel just loaded does some work before the
 * switcher looks again, so a timeslice shorter than a switch cannot make
 * the channels pass CACHE1 around without progress. */
static bool fresh(const struct pfifo *f)
{
	return pf_has(f, PF_G80) && f->fresh;
}

static bool dma_ready(struct pfifo *f)
{
	return pf_has(f, PF_G80) ? g80_pusher_ready(f) : pusher_dma_ready(f);
}

void pfifo_kick(struct pfifo *f)
{
	if (!f->ev)
		f->ev = sched_at(f->gpu, f->gpu->now, step, f, 0, 0);
}

/* A channel other than CACHE1's that has pushbuffer words to read (its
 * RAMFC entry: DMA mode, DMA_PUT != DMA_GET, no pusher error), round-robin
 * after the current one; -1 if none. */
static int next_dma_channel(struct pfifo *f)
{
	uint32_t cur = pfifo_chid(f), n = f->chip->nchan;
	if (pf_has(f, PF_G80))
		return g80_next_channel(f);
	if (!(*f->r_mode & ~(cur < 32 ? 1u << cur : 0)))
		return -1; /* no other DMA channel */
	for (uint32_t i = 1; i < n; i++) {
		uint32_t c = (cur + i) % n;
		if (!pfifo_chan_dma(f, c) || bit_get(f->acq_blocked, c))
			continue;
		bool found;
		uint32_t put = ramfc_get(f, c, R_DMA_PUT, &found);
		uint32_t get = ramfc_get(f, c, R_DMA_GET, &found);
		uint32_t st = ramfc_get(f, c, R_DMA_STATE, &found);
		if (((put ^ get) & ~3u) && !FIELD_GET(st, 31, 29))
			return (int)c;
	}
	return -1;
}

/* The switcher (intro.rst "PFIFO switcher"): with REASSIGN set and CACHE1
 * empty (seed 001: pre-G80 CACHE1 must be empty to switch; UNVERIFIED on
 * NV40, which intro.rst says switches "at essentially any moment"), a channel whose
 * pushbuffer has words takes CACHE1 when the current one has nothing to
 * push, its timeslice (DMA_TIMESLICE SELECT 16:0, ns in the model) is over,
 * or it executed YIELD. UNVERIFIED: the unit of SELECT. */
/* NEXT_CHANNEL (rnndb: CHID, MODE, SWITCH 12:12). UNVERIFIED (no document
 * or nouveau use): a driver write with SWITCH set asks for a switch to
 * CHID at the next chance, ahead of the timeslice and whether or not the
 * channel has pushbuffer words; the channel's mode comes from MODE.
 * SWITCH reads 1 until the switch is done. */
static bool next_channel_request(struct pfifo *f, uint32_t *chid)
{
	uint32_t nc = bus_get(f->gpu, R_NEXT_CHANNEL);
	if (!FIELD_GET(nc, 12, 12))
		return false;
	*chid = nc & f->chip->chid_mask;
	if (*chid < f->chip->nchan)
		return true;
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "next_channel", *chid, nc,
	     "NEXT_CHANNEL asks for channel %u, beyond the chip's %u: ignored", *chid, f->chip->nchan);
	bus_set(f->gpu, R_NEXT_CHANNEL, nc & ~(1u << 12));
	return false;
}

static bool switcher(struct pfifo *f, uint64_t *t)
{
	if (!FIELD_GET(*f->r_caches, 0, 0) || cache_pins(f) || waits_for_driver(f))
		return false;
	uint32_t want;
	if (next_channel_request(f, &want)) {
		bus_set(f->gpu, R_NEXT_CHANNEL, bus_get(f->gpu, R_NEXT_CHANNEL) & ~(1u << 12));
		if (want == pfifo_chid(f))
			return false;
		ctx_switch(f, want);
		*t += PFIFO_NS_CTXSW;
		return true;
	}
	bool expired = (f->yield || f->clock >= f->slice_end) && !fresh(f);
	if (pfifo_pio_slice_holds(f))
		return false;
	if ((dma_ready(f) || (pf_has(f, PF_G80) && puller_ready(f))) && !expired)
		return false;
	int c = next_dma_channel(f);
	if (c < 0) {
		f->yield = false;
		return false;
	}
	ctx_switch(f, (uint32_t)c);
	*t += PFIFO_NS_CTXSW;
	return true;
}

/* Whether the current channel stops pushing so that CACHE1 drains for a
 * switch: its timeslice is over (or it yielded) and another channel waits. */
static bool switch_pending(struct pfifo *f)
{
	uint32_t want;
	if (pf_has(f, PF_G80) && *f->r_freeze & 1)
		return true; /* FREEZE: stop fetching */
	if (!FIELD_GET(*f->r_caches, 0, 0) || waits_for_driver(f))
		return false;
	if (next_channel_request(f, &want) && want != pfifo_chid(f))
		return true;
	if ((!f->yield && f->clock < f->slice_end) || fresh(f))
		return false;
	return next_dma_channel(f) >= 0;
}

static void step(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)arg;
	struct pfifo *f = ctx;
	f->ev = 0;
	uint64_t t = gpu->now;
	uint32_t done = 0;
	bool more = false;
	if (pf_has(f, PF_G80) && g80_frozen(f))
		return;
	puller_acq_wakeups(f);
	for (;;) {
		if (!sched_budget_left(gpu) || done >= PFIFO_STEP_WORDS) {
			more = true;
			break;
		}
		uint32_t n = 0;
		f->clock = t;
		n += puller_run_cache0(f, &t);
		f->clock = t;
		if (puller_ready(f))
			n += puller_run(f, PFIFO_STEP_WORDS, &t);
		f->clock = t;
		if (switcher(f, &t)) {
			/* a RAMFC save and load: a unit of the run budget, so
			 * channels that switch to and fro without progress hang */
			n++;
			sched_charge(gpu, 1);
		}
		f->clock = t;
		if (dma_ready(f) && !switch_pending(f)) {
			/* no more words than the run budget has left (charged per
			 * PFIFO_WORK_PER_UNIT below): a self-loop stops within a unit */
			uint64_t room = sched_budget_left(gpu);
			room = room < PFIFO_STEP_WORDS / PFIFO_WORK_PER_UNIT ? room * PFIFO_WORK_PER_UNIT
			                                                     : PFIFO_STEP_WORDS;
			uint32_t max = PFIFO_STEP_WORDS - done < room ? PFIFO_STEP_WORDS - done : (uint32_t)room;
			n += pf_has(f, PF_G80) ? g80_pusher_run(f, max, &t) : pusher_dma_run(f, max, &t);
		}
		if (!n)
			break;
		if (n > 1 || !f->fresh)
			f->fresh = false; /* more than the switch itself */
		done += n;
		sched_charge(gpu, n / PFIFO_WORK_PER_UNIT);
	}
	f->clock = gpu->now;
	if (done && emit_wanted(gpu, NVM_EV_TRACE))
		emit(gpu, NVM_EV_TRACE, "pfifo", "cache", pfifo_chid(f), pfifo_cache_count(f),
		     "CACHE1: %u entries after the step (channel %u)", pfifo_cache_count(f), pfifo_chid(f));
	/* UNVERIFIED (the costs are the model's): a method logged in this step
	 * carries the step time t it was delivered at (puller_submit), not the
	 * step's start. The work done costs time: the next step runs when it is over (and
	 * finds nothing to do if nothing changed meanwhile). A channel stuck
	 * before its timeslice ends while another waits is looked at again
	 * when the timeslice is over. */
	if (more || done)
		f->ev = sched_at(gpu, t > gpu->now ? t : gpu->now + 1, step, f, 0, 0);
	else if (f->slice_end > gpu->now && FIELD_GET(*f->r_caches, 0, 0) && next_dma_channel(f) >= 0)
		f->ev = sched_at(gpu, f->slice_end, step, f, 0, 0);
}

/* ---------------------------------------------------------------- handlers */

static uint32_t rd_intr(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)ctx;
	(void)r;
	return stored;
}

void pfifo_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)stored;
	(void)old;
	struct pfifo *f = ctx;
	/* UNVERIFIED: clearing ACQUIRE_TIMEOUT while the acquire still waits
	 * starts a new interval (ACQUIRE_TIMESTAMP = PTIMER). */
	if (r->offset == R_INTR && (written & INTR_ACQUIRE_TIMEOUT) && (*f->r_pull1 & PULL1_ACQUIRE_ACTIVE) &&
	    pf_has(f, PF_NV1A))
		bus_set(f->gpu, R_ACQ_TIMESTAMP, (uint32_t)ptimer_read(f->gpu));
	pfifo_update_intr(f);
	pfifo_kick(f); /* clearing an interrupt resumes the unit it stopped */
}

void pfifo_wr_kick(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	pfifo_kick(ctx);
}

/* PULL0: ACCESS is the only writable bit; a write clears the error status
 * (HASH_FAILED, DEVICE_SOFTWARE, SEMAPHORE_ERROR), as nouveau's handlers
 * expect when they write 1 after a CACHE_ERROR or SEMAPHORE interrupt. */
static void wr_pull0(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	*stored &= PULL0_ACCESS | PULL0_ACQUIRE_BUSY;
	pfifo_kick(ctx);
}

static uint32_t rd_debug0(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	/* CACHE_ERROR1 (4:4): the CACHE1 puller is stopped on an error. */
	return (*f->r_intr & INTR_CACHE_ERROR) ? 0x10u : 0;
}

/* RUNOUT_STATUS: RANOUT 0, EMPTY 4, FULL 8 (rnndb), from RUNOUT_PUT/GET. */
static uint32_t ramro_size(struct pfifo *f)
{
	return FIELD_GET(bus_get(f->gpu, R_RAMRO), 16, 16) ? 0x2000u : 0x200u;
}

static uint32_t rd_runout_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	uint32_t m = ramro_size(f) - 1, put = bus_get(f->gpu, R_RUNOUT_PUT) & m,
	         get = bus_get(f->gpu, R_RUNOUT_GET) & m;
	uint32_t v = 0;
	if (put != get)
		v |= 1u;
	else
		v |= 1u << 4;
	if (((put + 8) & m) == get)
		v |= 1u << 8;
	return v;
}

static uint32_t rd_caches(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct pfifo *f = ctx;
	/* DMA_SUSPEND_BUSY (4:4): the DMA pusher has a burst in flight. */
	return (stored & 1u) | (f->ev && pusher_dma_ready(f) ? 0x10u : 0);
}

static uint32_t rd_dma_pending(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	uint32_t v = 0;
	for (uint32_t c = 0; c < f->chip->nchan; c++) {
		if (!FIELD_GET(*f->r_mode, c, c))
			continue;
		uint32_t put = pfifo_chan_reg(f, c, R_DMA_PUT), get = pfifo_chan_reg(f, c, R_DMA_GET);
		if ((put ^ get) & ~3u)
			v |= 1u << c;
	}
	return v;
}

/* CACHE0 STATUS: EMPTY 4 while PUT == GET, FULL 8 otherwise (one slot). */
static uint32_t rd_cache0_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	return pcache_count(&f->c0) ? 1u << 8 : 1u << 4;
}

static uint32_t rd_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	uint32_t n = pfifo_cache_count(f);
	return (n ? 0 : 1u << 4) | (n == f->cache_mask ? 1u << 8 : 0);
}

static uint32_t rd_dma_push(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct pfifo *f = ctx;
	uint32_t v = stored & (DMA_PUSH_ACCESS | DMA_PUSH_SUSPENDED);
	if (!((*f->r_dma_put ^ *f->r_dma_get) & ~3u))
		v |= DMA_PUSH_EMPTY;
	else if (pusher_dma_ready(f))
		v |= DMA_PUSH_BUSY;
	return v;
}

static uint32_t rd_pull0(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct pfifo *f = ctx;
	return (stored & ~PULL0_ACQUIRE_BUSY) | ((*f->r_pull1 & PULL1_ACQUIRE_ACTIVE) ? PULL0_ACQUIRE_BUSY : 0);
}

/* MODE: a channel's PIO/DMA bit; CACHE1's channel takes it in PUSH1 MODE. */
static void wr_mode(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	struct pfifo *f = ctx;
	uint32_t c = pfifo_chid(f);
	if (c < f->chip->nchan) {
		bool dma = (*stored >> c) & 1;
		*f->r_push1 = (*f->r_push1 & ~f->chip->push1_mode) | (dma ? f->chip->push1_mode : 0);
	}
	pfifo_kick(f);
}

static void wr_ptr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	struct pfifo *f = ctx;
	*stored &= f->cache_mask << 2;
	pfifo_kick(f);
}

static void wr_push1(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct pfifo *f = ctx;
	*stored = written & (f->chip->chid_mask | f->chip->push1_mode);
	pfifo_kick(f);
}

/* ---------------------------------------------------------------- tables */

#define ALL 0xffffffffu
static const struct reg_def reg_defs[] = {
	{ { R_DELAY_0, "NV04_PFIFO_DELAY_0", 0, 0xf00003ffu, 0, NULL, NULL }, 0, 0 },
	/* UNVERIFIED reset: the value nouveau programs (timeslice 0x1ffff). */
	{ { R_DMA_TIMESLICE, "NV04_PFIFO_DMA_TIMESLICE", 0x0101ffffu, 0xf101ffffu, 0, NULL, NULL }, 0, 0 },
	{ { R_PIO_TIMESLICE, "NV04_PFIFO_PIO_TIMESLICE", 0, 0x0101ffffu, 0, NULL, NULL }, 0, 0 },
	{ { R_TIMESLICE, "NV04_PFIFO_TIMESLICE", 0, 0x3ffffu, 0, NULL, NULL }, 0, 0 },
	{ { R_NEXT_CHANNEL, "NV04_PFIFO_NEXT_CHANNEL", 0, 0x13ffu, 0, NULL, pfifo_wr_kick }, 0, PF_G80 },
	{ { R_SLI, "NV40_PFIFO_SLI", 0, 0x30000fffu, 0, NULL, pfifo_wr_kick }, PF_NV40, 0 },
	{ { R_DEBUG_0, "NV04_PFIFO_DEBUG_0", 0, 0, 0, rd_debug0, NULL }, 0, 0 },
	{ { R_UNK88, "NV40_PFIFO_UNK88", 0, ALL, 0, NULL, NULL }, PF_NV40, 0 },
	{ { R_INTR, "NV03_PFIFO_INTR_0", 0, 0, 0x01fd1111u, rd_intr, pfifo_wr_intr }, 0, PF_G80 },
	{ { R_INTR_EN, "NV03_PFIFO_INTR_EN_0", 0, 0x01fd1111u, 0, NULL, pfifo_wr_intr }, 0, PF_G80 },
	{ { R_RAMHT, "NV03_PFIFO_RAMHT", 0, 0x070301f0u, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_RAMFC, "NV03_PFIFO_RAMFC", 0, 0x01ff01feu, 0, NULL, NULL }, 0, PF_NV40 },
	{ { R_RAMRO, "NV03_PFIFO_RAMRO", 0, 0x000101feu, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_RAMFC_NV40, "NV40_PFIFO_RAMFC", 0, ALL, 0, NULL, NULL }, PF_NV40, PF_G80 },
	{ { R_RUNOUT_STATUS, "NV03_PFIFO_RUNOUT_STATUS", 0, 0, 0, rd_runout_status, NULL }, 0, PF_G80 },
	{ { R_RUNOUT_PUT, "NV03_PFIFO_RUNOUT_PUT", 0, 0x1ff8u, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_RUNOUT_GET, "NV03_PFIFO_RUNOUT_GET", 0, 0x1ff8u, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_CACHES, "NV03_PFIFO_CACHES", 0, 1, 0, rd_caches, pfifo_wr_kick }, 0, 0 },
	{ { R_MODE, "NV04_PFIFO_MODE", 0, ALL, 0, NULL, wr_mode }, 0, PF_G80 },
	{ { R_DMA, "NV04_PFIFO_DMA", 0, 0, 0, rd_dma_pending, NULL }, 0, PF_G80 },
	{ { R_SIZE, "NV04_PFIFO_SIZE", 0, ALL, 0, NULL, NULL }, 0, PF_G80 },
	/* UNVERIFIED reset of DMA_PUSH: ACCESS 1 (nouveau never sets it but
	 * after a DMA_PUSHER error). */
	/* CACHE0: the one-slot cache (seed 001), filled by the driver through
	 * METHOD / DATA and PUT (0 or 4: full while PUT != GET) and emptied by
	 * its puller (puller_run_cache0). UNVERIFIED: its pusher takes no USER
	 * stores (the seed: PIO only, "doesn't seem to work anyway"). */
	{ { R_CACHE0_PUSH0, "NV03_PFIFO_CACHE0_PUSH0", 0, 1, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_CACHE0_PUSH1, "NV03_PFIFO_CACHE0_PUSH1", 0, 0x1ffu, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_CACHE0_PUT, "NV03_PFIFO_CACHE0_PUT", 0, 0x4u, 0, NULL, pfifo_wr_kick }, 0, PF_G80 },
	{ { R_CACHE0_STATUS, "NV03_PFIFO_CACHE0_STATUS", 0, 0, 0, rd_cache0_status, NULL }, 0, PF_G80 },
	{ { R_CACHE0_PULL0, "NV04_PFIFO_CACHE0_PULL0", 0, PULL0_ACCESS, 0, NULL, wr_pull0 }, 0, PF_G80 },
	{ { R_CACHE0_PULL1, "NV04_PFIFO_CACHE0_PULL1", 0, 0xfu, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_CACHE0_HASH, "NV04_PFIFO_CACHE0_HASH", 0, ALL, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_CACHE0_GET, "NV03_PFIFO_CACHE0_GET", 0, 0x4u, 0, NULL, pfifo_wr_kick }, 0, PF_G80 },
	{ { R_CACHE0_ENGINE, "NV04_PFIFO_CACHE0_ENGINE", 0, ALL, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_CACHE0_METHOD, "NV04_PFIFO_CACHE0_METHOD", 0, 0xfffcu, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_CACHE0_DATA, "NV04_PFIFO_CACHE0_DATA", 0, ALL, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_PUSH0, "NV03_PFIFO_CACHE1_PUSH0", 0, 1, 0, NULL, pfifo_wr_kick }, 0, 0 },
	{ { R_PUSH1, "NV03_PFIFO_CACHE1_PUSH1", 0, ALL, 0, NULL, wr_push1 }, 0, 0 },
	{ { R_PUT, "NV03_PFIFO_CACHE1_PUT", 0, ALL, 0, NULL, wr_ptr }, 0, 0 },
	{ { R_STATUS, "NV03_PFIFO_CACHE1_STATUS", 0, 0, 0, rd_status, NULL }, 0, 0 },
	{ { R_DMA_PUSH, "NV04_PFIFO_CACHE1_DMA_PUSH", DMA_PUSH_ACCESS, DMA_PUSH_ACCESS | DMA_PUSH_SUSPENDED, 0,
	    rd_dma_push, pfifo_wr_kick },
	  0,
	  0 },
	{ { R_DMA_FETCH, "NV04_PFIFO_CACHE1_DMA_FETCH", 0, ALL, 0, NULL, NULL }, 0, 0 },
	{ { R_DMA_STATE, "NV04_PFIFO_CACHE1_DMA_STATE", 0, ALL, 0, NULL, pfifo_wr_kick }, 0, 0 },
	{ { R_DMA_INSTANCE, "NV04_PFIFO_CACHE1_DMA_INSTANCE", 0, 0xfffffu, 0, NULL, pfifo_wr_kick }, 0, 0 },
	{ { R_DMA_CTL, "NV04_PFIFO_CACHE1_DMA_CTL", 0, ALL, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_DMA_LIMIT, "NV04_PFIFO_CACHE1_DMA_LIMIT", 0, ALL, 0, NULL, NULL }, 0, 0 },
	{ { R_DMA_TLB_TAG, "NV04_PFIFO_CACHE1_DMA_TLB_TAG", 0, ALL, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_DMA_TLB_PTE, "NV04_PFIFO_CACHE1_DMA_TLB_PTE", 0, ALL, 0, NULL, NULL }, 0, PF_G80 },
	{ { R_DMA_PUT, "NV04_PFIFO_CACHE1_DMA_PUT", 0, 0xfffffffcu, 0, NULL, pfifo_wr_kick }, 0, 0 },
	{ { R_DMA_GET, "NV04_PFIFO_CACHE1_DMA_GET", 0, 0xfffffffcu, 0, NULL, pfifo_wr_kick }, 0, 0 },
	{ { R_REF, "NV10_PFIFO_CACHE1_REF_CNT", 0, ALL, 0, NULL, NULL }, PF_NV10, 0 },
	{ { R_SUBROUTINE, "NV10_PFIFO_CACHE1_DMA_SUBROUTINE", 0, 0xfffffffdu, 0, NULL, NULL }, PF_NV1A, 0 },
	{ { R_PULL0, "NV04_PFIFO_CACHE1_PULL0", 0, PULL0_ACCESS, 0, rd_pull0, wr_pull0 }, 0, 0 },
	{ { R_PULL1, "NV04_PFIFO_CACHE1_PULL1", 0, 0x3001fu, 0, NULL, pfifo_wr_kick }, 0, PF_G80 },
	{ { R_HASH, "NV04_PFIFO_CACHE1_HASH", 0, ALL, 0, NULL, NULL }, 0, 0 },
	{ { R_ACQ_TIMEOUT, "NV10_PFIFO_CACHE1_ACQUIRE_TIMEOUT", 0, 0x7fffffffu, 0, NULL, NULL }, PF_NV1A, 0 },
	{ { R_ACQ_TIMESTAMP, "NV10_PFIFO_CACHE1_ACQUIRE_TIMESTAMP", 0, ALL, 0, NULL, NULL }, PF_NV1A, 0 },
	{ { R_ACQ_VALUE, "NV10_PFIFO_CACHE1_ACQUIRE_VALUE", 0, ALL, 0, NULL, NULL }, PF_NV1A, 0 },
	{ { R_SEMAPHORE, "NV10_PFIFO_CACHE1_SEMAPHORE", 0, 0xfffffffdu, 0, NULL, pfifo_wr_kick }, PF_NV1A, PF_G80 },
	{ { R_GET, "NV03_PFIFO_CACHE1_GET", 0, ALL, 0, NULL, wr_ptr }, 0, 0 },
	{ { R_ENGINE, "NV04_PFIFO_CACHE1_ENGINE", 0, ALL, 0, NULL, NULL }, 0, 0 },
	{ { R_DCOUNT, "NV04_PFIFO_CACHE1_DMA_DCOUNT", 0, ALL, 0, NULL, NULL }, PF_NV5, 0 },
	{ { R_GET_JMP_SHD, "NV04_PFIFO_CACHE1_DMA_GET_JMP_SHADOW", 0, ALL, 0, NULL, NULL }, PF_NV5, 0 },
	{ { R_RSVD_SHD, "NV04_PFIFO_CACHE1_DMA_RSVD_SHADOW", 0, ALL, 0, NULL, NULL }, PF_NV5, 0 },
	{ { R_DATA_SHD, "NV04_PFIFO_CACHE1_DMA_DATA_SHADOW", 0, ALL, 0, NULL, NULL }, PF_NV5, 0 },
	{ { R_GRCTX_INST, "NV40_PFIFO_GRCTX_INSTANCE", 0, ALL, 0, NULL, NULL }, PF_NV40, PF_G80 },
	{ { R_UNK32E4, "NV40_PFIFO_UNK32E4", 0, ALL, 0, NULL, NULL }, PF_NV40, 0 },
	{ { R_UNK32E8, "NV40_PFIFO_UNK32E8", 0, ALL, 0, NULL, NULL }, PF_NV40, PF_G80 },
	{ { R_UNK3300, "NV40_PFIFO_UNK3300", 0, ALL, 0, NULL, NULL }, PF_NV40, PF_G80 },
	{ { R_UNK330C, "NV40_PFIFO_UNK330C", 0, ALL, 0, NULL, NULL }, PF_NV40, PF_G80 },
};

static int reg_cmp(const void *a, const void *b)
{
	uint32_t x = ((const struct reg_desc *)a)->offset, y = ((const struct reg_desc *)b)->offset;
	return x < y ? -1 : x > y;
}

static nvm_status build_regs(struct pfifo *f)
{
	size_t n0 = sizeof(reg_defs) / sizeof(reg_defs[0]), n = n0 + pfifo_g80_nregs;
	f->regs = calloc(n, sizeof(*f->regs));
	if (!f->regs)
		return NVM_ERR_NOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct reg_def *d = i < n0 ? &reg_defs[i] : &pfifo_g80_regs[i - n0];
		if ((f->chip->feat & d->need) != d->need || (f->chip->feat & d->gone))
			continue;
		struct reg_desc r = d->d;
		if (r.offset == R_MODE && !pf_has(f, PF_G80))
			r.wmask = (uint32_t)(((uint64_t)1 << f->chip->nchan) - 1);
		if (r.offset == R_PUT || r.offset == R_GET)
			r.wmask = f->cache_mask << 2;
		f->regs[f->nregs++] = r;
	}
	qsort(f->regs, f->nregs, sizeof(*f->regs), reg_cmp); /* the bus wants them sorted */
	return NVM_OK;
}

/* ---------------------------------------------------------------- USER areas */

static bool user_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	*val = pusher_user_read(ctx, addr, false);
	return true;
}

static bool user_wr(void *ctx, uint32_t addr, uint32_t val)
{
	pusher_user_write(ctx, addr, val, false);
	return true;
}

/* G80: only channel 0 has the PIO area at 0x800000 (dma-pusher.rst
 * "Channel control area", rnndb USER_PIO length 1). */
static uint32_t user_channels(const struct pfifo *f)
{
	return pf_has(f, PF_G80) ? 1 : f->chip->nchan;
}

static bool user_g80_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	*val = g80_user_read(ctx, addr);
	return true;
}

static bool user_g80_wr(void *ctx, uint32_t addr, uint32_t val)
{
	g80_user_write(ctx, addr, val);
	return true;
}

static bool user_new_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	*val = pusher_user_read(ctx, addr, true);
	return true;
}

static bool user_new_wr(void *ctx, uint32_t addr, uint32_t val)
{
	pusher_user_write(ctx, addr, val, true);
	return true;
}

/* ---------------------------------------------------------------- block */

static void pfifo_destroy(nvm_gpu *gpu, void *state)
{
	(void)gpu;
	struct pfifo *f = state;
	if (!f)
		return;
	puller_fini(f);
	for (unsigned i = 0; i < ENG_IDS; i++)
		engine_free(f->eng[i]);
	free(f->regs);
	free(f->cache_addr);
	free(f->cache_data);
	free(f->cls);
	free(f);
}

/* The slot of a register; for one this chip lacks, a scratch word of the
 * block (written by shared code paths, never read for state). */
static uint32_t *reg_slot(struct pfifo *f, uint32_t addr)
{
	uint32_t *p = bus_reg(f->gpu, addr);
	return p ? p : &f->absent;
}

static nvm_status pfifo_create(nvm_gpu *gpu, const void *data, void **state)
{
	const struct pfifo_chip *chip = data;
	struct pfifo *f = calloc(1, sizeof(*f));
	if (!f)
		return NVM_ERR_NOMEM;
	*state = f;
	f->gpu = gpu;
	f->chip = chip;
	f->pbgen = pb_gen_lookup(chip->name);
	f->cache_mask = chip->cache_entries - 1;
	f->cache_addr = calloc(chip->cache_entries, sizeof(uint32_t));
	f->cache_data = calloc(chip->cache_entries, sizeof(uint32_t));
	f->cls = calloc(chip->nchan, sizeof(*f->cls));
	if (!f->pbgen || !f->cache_addr || !f->cache_data || !f->cls)
		return NVM_ERR_NOMEM;
	nvm_status st = engine_new(gpu, "software", engine_names[ENG_SOFTWARE], 0, &f->eng[ENG_SOFTWARE]);
	for (unsigned i = ENG_PGRAPH; !st && i < ENG_IDS; i++)
		if (i == ENG_PGRAPH || (chip->engines & (1u << i)))
			st = engine_new(gpu, "recorder", pfifo_engine_name(chip, i), 0, &f->eng[i]);
	f->sw = f->eng[ENG_SOFTWARE];
	f->pgraph = f->eng[ENG_PGRAPH];
	if (!st)
		st = build_regs(f);
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "pfifo",
		                                       .base = 0x2000,
		                                       .size = 0x2000,
		                                       .regs = f->regs,
		                                       .nregs = f->nregs,
		                                       .ctx = f,
		                                       .win_read = pfifo_win_rd,
		                                       .win_write = pfifo_win_wr });
	/* G80 too: nouveau's nv50 fifo reads and writes CACHE1 through the
	 * NV40 window (NV40_PFIFO_CACHE1_METHOD/DATA(ptr) in its cache error
	 * handler and channel load); UNVERIFIED, rnndb g80_pfifo.xml lacks it. */
	if (!st && pf_has(f, PF_NV40))
		st = bus_add(gpu, &(struct reg_block){ .name = "pfifo",
		                                       .base = PFIFO_CACHE1_NV40,
		                                       .size = chip->cache_entries * 8,
		                                       .ctx = f,
		                                       .win_read = cache40_rd,
		                                       .win_write = cache40_wr });
	/* G80: instance memory is not reversed RAMIN; the BAR0 PRAMIN window
	 * (0x1700) belongs to the VM (src/mmu/). */
	if (!st && !pf_has(f, PF_G80))
		st = bus_add(gpu, &(struct reg_block){ .name = "pramin",
		                                       .base = PFIFO_PRAMIN,
		                                       .size = PFIFO_PRAMIN_SIZE,
		                                       .ctx = f,
		                                       .win_read = pramin_rd,
		                                       .win_write = pramin_wr });
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "pfifo_user",
		                                       .base = PFIFO_USER,
		                                       .size = user_channels(f) * 0x10000u,
		                                       .ctx = f,
		                                       .win_read = user_rd,
		                                       .win_write = user_wr });
	if (!st && pf_has(f, PF_G80))
		st = bus_add(gpu, &(struct reg_block){ .name = "pfifo_user",
		                                       .base = PFIFO_USER_G80,
		                                       .size = chip->nchan * 0x2000u,
		                                       .ctx = f,
		                                       .win_read = user_g80_rd,
		                                       .win_write = user_g80_wr });
	if (!st && pf_has(f, PF_NV40) && !pf_has(f, PF_G80))
		st = bus_add(gpu, &(struct reg_block){ .name = "pfifo_user",
		                                       .base = PFIFO_USER_NEW,
		                                       .size = chip->nchan * 0x1000u,
		                                       .ctx = f,
		                                       .win_read = user_new_rd,
		                                       .win_write = user_new_wr });
	if (st)
		return st;
	f->r_intr = reg_slot(f, R_INTR);
	f->r_intr_en = reg_slot(f, R_INTR_EN);
	f->r_push0 = reg_slot(f, R_PUSH0);
	f->r_push1 = reg_slot(f, R_PUSH1);
	f->r_put = reg_slot(f, R_PUT);
	f->r_get = reg_slot(f, R_GET);
	f->r_pull0 = reg_slot(f, R_PULL0);
	f->r_pull1 = reg_slot(f, R_PULL1);
	f->r_caches = reg_slot(f, R_CACHES);
	f->r_mode = reg_slot(f, R_MODE);
	f->r_dma_push = reg_slot(f, R_DMA_PUSH);
	f->r_dma_state = reg_slot(f, R_DMA_STATE);
	f->r_dma_put = reg_slot(f, R_DMA_PUT);
	f->r_dma_get = reg_slot(f, R_DMA_GET);
	f->r_dma_fetch = reg_slot(f, R_DMA_FETCH);
	f->r_dma_inst = reg_slot(f, R_DMA_INSTANCE);
	f->r_engine = reg_slot(f, R_ENGINE);
	f->r_hash = reg_slot(f, R_HASH);
	f->r_ref = reg_slot(f, R_REF);
	f->r_subr = reg_slot(f, R_SUBROUTINE);
	f->r_sem = reg_slot(f, R_SEMAPHORE);
	f->r_acq_value = reg_slot(f, R_ACQ_VALUE);
	f->r_sli = reg_slot(f, R_SLI);
	f->r_dcount = reg_slot(f, R_DCOUNT);
	f->r_jmp_shd = reg_slot(f, R_GET_JMP_SHD);
	f->r_rsvd_shd = reg_slot(f, R_RSVD_SHD);
	f->r_data_shd = reg_slot(f, R_DATA_SHD);
	f->r_freeze = &f->absent;
	if (pf_has(f, PF_G80)) {
		f->r_mode = &f->absent; /* 0x2504 is FREEZE */
		f->r_freeze = reg_slot(f, R_G80_FREEZE);
		f->r_ib_put = reg_slot(f, R_G80_IB_PUT);
		f->r_ib_get = reg_slot(f, R_G80_IB_GET);
		f->r_method_count = reg_slot(f, R_G80_METHOD_COUNT);
		f->r_mget = reg_slot(f, R_G80_MGET);
		f->r_mget_hi = reg_slot(f, R_G80_MGET_HIGH);
		f->r_put_hi = reg_slot(f, R_G80_PUT_HIGH);
		f->r_get_hi = reg_slot(f, R_G80_GET_HIGH);
		f->r_sem_hi = reg_slot(f, R_G84_SEM_ADDR_HIGH);
		f->r_sem_lo = reg_slot(f, R_G84_SEM_ADDR_LOW);
		f->r_sem_seq = reg_slot(f, R_G84_SEM_SEQUENCE);
	}
	f->c1 = (struct pcache){
		"",          f->r_push1,    f->r_put,      f->r_get,      f->r_pull0,         f->r_pull1, f->r_hash,
		f->r_engine, f->cache_addr, f->cache_data, f->cache_mask, f->cache_mask << 2, false,      false
	};
	f->c0 = (struct pcache){ "CACHE0: ",
		                 reg_slot(f, R_CACHE0_PUSH1),
		                 reg_slot(f, R_CACHE0_PUT),
		                 reg_slot(f, R_CACHE0_GET),
		                 reg_slot(f, R_CACHE0_PULL0),
		                 reg_slot(f, R_CACHE0_PULL1),
		                 reg_slot(f, R_CACHE0_HASH),
		                 reg_slot(f, R_CACHE0_ENGINE),
		                 reg_slot(f, R_CACHE0_METHOD),
		                 reg_slot(f, R_CACHE0_DATA),
		                 0,
		                 4,
		                 true,
		                 false };
	f->pc = &f->c1;
	return NVM_OK;
}

static bool pfifo_busy(void *state)
{
	return ((struct pfifo *)state)->ev != 0;
}

const struct block_class pfifo_class = { "pfifo", BLK_PFIFO, pfifo_create, pfifo_destroy, pfifo_busy };

/* ---------------------------------------------------------------- public API */

static struct engine *find_engine(struct pfifo *f, const char *name)
{
	return f ? engine_find(f->eng, ENG_IDS, name) : NULL;
}

nvm_status nvm_pfifo_log_config(nvm_gpu *gpu, const char *engine, size_t cap)
{
	struct engine *e = find_engine(pfifo_of(gpu), engine);
	return e ? engine_log_config(e, cap) : gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
}

nvm_status nvm_pfifo_log_read(nvm_gpu *gpu, const char *engine, size_t first, nvm_host_method *out, size_t max,
                              size_t *n, uint64_t *total)
{
	struct engine *e = find_engine(pfifo_of(gpu), engine);
	if (!e)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	return engine_log_read(e, first, out, max, n, total);
}

nvm_status nvm_pfifo_log_clear(nvm_gpu *gpu, const char *engine)
{
	struct engine *e = find_engine(pfifo_of(gpu), engine);
	if (!e)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	engine_log_clear(e);
	return NVM_OK;
}

nvm_status nvm_pfifo_user_write(nvm_gpu *gpu, uint32_t addr, uint32_t val, unsigned size)
{
	struct pfifo *f = pfifo_of(gpu);
	if (!gpu || (size != 1 && size != 2 && size != 4))
		return NVM_ERR_ARG;
	if (!f)
		return NVM_ERR_NOENT;
	if (addr < PFIFO_USER || addr - PFIFO_USER >= user_channels(f) * 0x10000u)
		return NVM_ERR_RANGE;
	if (hold_check(gpu, NVM_HOLD_MMIO, "MMIO", addr))
		return NVM_ERR_BLOCKED;
	pusher_pio_store(f, addr, val, size);
	return NVM_OK;
}

/* The NV40 RAMIN BAR (nv4-vram.rst "RAMIN" is "todo"; nouveau's
 * nv40_instmem_new maps PCI BAR 2 or 3 and accesses RAMIN address a at
 * a). UNVERIFIED: it covers RAMIN 0..16 MiB (within VRAM) with the same
 * end-of-VRAM, reversed-word placement as the PRAMIN window. */
static nvm_status ramin_bar_check(nvm_gpu *gpu, uint32_t off, size_t len, struct pfifo **out)
{
	struct pfifo *f = pfifo_of(gpu);
	if (!gpu)
		return NVM_ERR_ARG;
	if (!f || !pf_has(f, PF_NV40))
		return NVM_ERR_NOENT;
	uint64_t end = (uint64_t)off + len;
	if (end > NVM_PFIFO_RAMIN_BAR_SIZE || end > f->gpu->mem[NVM_AP_VRAM].size)
		return NVM_ERR_RANGE;
	if (hold_check(gpu, NVM_HOLD_MMIO, "RAMIN BAR", off))
		return NVM_ERR_BLOCKED;
	*out = f;
	return NVM_OK;
}

nvm_status nvm_pfifo_ramin_bar_read(nvm_gpu *gpu, uint32_t off, void *buf, size_t len)
{
	struct pfifo *f = NULL;
	nvm_status st = buf || !len ? ramin_bar_check(gpu, off, len, &f) : NVM_ERR_ARG;
	for (size_t i = 0; !st && i < len; i++) {
		uint32_t a = off + (uint32_t)i, w;
		pfifo_ramin_rd32(f, a & ~3u, &w);
		((uint8_t *)buf)[i] = (uint8_t)(w >> (8 * (a & 3)));
	}
	return st;
}

nvm_status nvm_pfifo_ramin_bar_write(nvm_gpu *gpu, uint32_t off, const void *buf, size_t len)
{
	struct pfifo *f = NULL;
	nvm_status st = buf || !len ? ramin_bar_check(gpu, off, len, &f) : NVM_ERR_ARG;
	for (size_t i = 0; !st && i < len; i++) {
		uint32_t a = off + (uint32_t)i, w, sh = 8 * (a & 3);
		pfifo_ramin_rd32(f, a & ~3u, &w);
		w = (w & ~(0xffu << sh)) | (uint32_t)((const uint8_t *)buf)[i] << sh;
		pfifo_ramin_wr32(f, a & ~3u, w);
	}
	return st;
}

nvm_status nvm_pfifo_get_stats(const nvm_gpu *gpu, nvm_pfifo_stats *out)
{
	struct pfifo *f = pfifo_of(gpu);
	if (!gpu || !out)
		return NVM_ERR_ARG;
	if (!f)
		return NVM_ERR_NOENT;
	*out = f->stats;
	return NVM_OK;
}

const nvm_ramfc_field *nvm_pfifo_ramfc_layout(const char *chip, int large, size_t *n, uint32_t *size)
{
	const struct pfifo_chip *c = pfifo_chip_find(chip);
	if (!c || !n || !size)
		return NULL;
	const struct ramfc_layout *l = large && c->ramfc_large ? c->ramfc_large : c->ramfc;
	*n = l->n;
	*size = l->size;
	return l->f;
}

int nvm_pfifo_has_engine(const char *chip, unsigned engine)
{
	const struct pfifo_chip *c = pfifo_chip_find(chip);
	return c && (engine <= ENG_PGRAPH || (engine < 32 && (c->engines & (1u << engine))));
}

const char *nvm_pfifo_engine_name(const char *chip, unsigned engine)
{
	const struct pfifo_chip *c = pfifo_chip_find(chip);
	const char *n = c ? pfifo_engine_name(c, engine) : "?";
	return strcmp(n, "?") ? n : NULL;
}

int nvm_pfifo_ramht_has_chid(const char *chip)
{
	const struct pfifo_chip *c = pfifo_chip_find(chip);
	return c ? !(c->feat & PF_G80) : -1;
}

uint32_t nvm_pfifo_channels(const char *chip)
{
	const struct pfifo_chip *c = pfifo_chip_find(chip);
	return c ? c->nchan : 0;
}
