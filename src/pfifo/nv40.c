/*
 * PFIFO of NV40 and NV41 (rnndb fifo/nv4_pfifo.xml NV40 variants, nouveau's
 * nv40 fifo code): NV17 with the SLI conditional, YIELD, 512 CACHE1 slots
 * at 0x90000, RAMFC placed by NV40_PFIFO_RAMFC in 128-byte entries, the
 * DMA USER area at 0xc00000 (with DMA_CGET), 16-bit classes, RAMHT
 * contexts without a valid bit, the RAMIN BAR, and PMPEG / PME / PVP1.
 */
#include "pfifo_internal.h"

/* RAMFC (nv40_chan_ramfc). */
static const nvm_ramfc_field ramfc_nv40_f[] = {
	{ "DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0 },
	{ "DMA_GET", R_DMA_GET, 0x04, 0, 32, 0 },
	{ "REF_CNT", R_REF, 0x08, 0, 32, 0 },
	{ "DMA_INSTANCE", R_DMA_INSTANCE, 0x0c, 0, 32, 0 },
	{ "DMA_DCOUNT", R_DCOUNT, 0x10, 0, 32, 0 },
	{ "DMA_STATE", R_DMA_STATE, 0x14, 0, 32, 0 },
	{ "DMA_FETCH", R_DMA_FETCH, 0x18, 0, 28, 0 },
	{ "SLI", R_SLI, 0x18, 28, 2, 28 },
	{ "ENGINE", R_ENGINE, 0x1c, 0, 32, 0 },
	{ "PULL1", R_PULL1, 0x20, 0, 32, 0 },
	{ "ACQUIRE_VALUE", R_ACQ_VALUE, 0x24, 0, 32, 0 },
	{ "ACQUIRE_TIMESTAMP", R_ACQ_TIMESTAMP, 0x28, 0, 32, 0 },
	{ "ACQUIRE_TIMEOUT", R_ACQ_TIMEOUT, 0x2c, 0, 32, 0 },
	{ "SEMAPHORE", R_SEMAPHORE, 0x30, 0, 32, 0 },
	{ "DMA_SUBROUTINE", R_SUBROUTINE, 0x34, 0, 32, 0 },
	{ "GRCTX_INSTANCE", R_GRCTX_INST, 0x38, 0, 32, 0 },
	{ "DMA_TIMESLICE", R_DMA_TIMESLICE, 0x3c, 0, 17, 0 },
	{ "UNK32E4", R_UNK32E4, 0x40, 0, 32, 0 },
	{ "UNK32E8", R_UNK32E8, 0x44, 0, 32, 0 },
	{ "UNK88", R_UNK88, 0x4c, 0, 32, 0 },
	{ "UNK3300", R_UNK3300, 0x50, 0, 32, 0 },
	{ "UNK330C", R_UNK330C, 0x54, 0, 32, 0 },
};
static const struct ramfc_layout ramfc_nv40 = { "nv40", 128, ramfc_nv40_f,
	                                        sizeof(ramfc_nv40_f) / sizeof(ramfc_nv40_f[0]) };

/* NV40: 0x2220 as nouveau programs nv40/nv41 (0x00030002 for RAMFC at
 * 0x20000). UNVERIFIED: bits 7:0 are the address in 64 KiB units. */
static uint32_t nv40_ramfc_base(const struct pfifo *f)
{
	return FIELD_GET(bus_get(f->gpu, R_RAMFC_NV40), 7, 0) << 16;
}

/* CACHE1 is at 0x90000 (NV40_PFIFO_CACHE1_METHOD(0)), not in the block. */
static bool nv40_win_rd(struct pfifo *f, uint32_t addr, uint32_t *val)
{
	(void)f;
	(void)addr;
	(void)val;
	return false;
}

static bool nv40_win_wr(struct pfifo *f, uint32_t addr, uint32_t val)
{
	(void)f;
	(void)addr;
	(void)val;
	return false;
}

bool nv40_cache_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	return pfifo_cache1_rd(ctx, addr - PFIFO_CACHE1_NV40, val);
}

bool nv40_cache_wr(void *ctx, uint32_t addr, uint32_t val)
{
	return pfifo_cache1_wr(ctx, addr - PFIFO_CACHE1_NV40, val);
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

/* NV04's windows, CACHE1 at 0x90000 and the DMA USER area (0x1000 per
 * channel at 0xc00000). */
nvm_status nv40_init(struct pfifo *f)
{
	nvm_status st = nv04_init(f);
	if (!st)
		st = pfifo_add_window(f, "pfifo", PFIFO_CACHE1_NV40, f->chip->cache_entries * 8, nv40_cache_rd,
		                      nv40_cache_wr);
	if (!st)
		st = pfifo_add_window(f, "pfifo_user", PFIFO_USER_NEW, f->chip->nchan * 0x1000u, user_new_rd,
		                      user_new_wr);
	return st;
}

#define ALL 0xffffffffu
static const struct reg_desc regs_nv40[] = {

	{ R_SLI, "NV40_PFIFO_SLI", 0, 0x30000fffu, 0, NULL, pfifo_wr_kick },

	{ R_UNK88, "NV40_PFIFO_UNK88", 0, ALL, 0, NULL, NULL },

	{ R_RAMFC_NV40, "NV40_PFIFO_RAMFC", 0, ALL, 0, NULL, NULL },

	{ R_GRCTX_INST, "NV40_PFIFO_GRCTX_INSTANCE", 0, ALL, 0, NULL, NULL },

	{ R_UNK32E4, "NV40_PFIFO_UNK32E4", 0, ALL, 0, NULL, NULL },

	{ R_UNK32E8, "NV40_PFIFO_UNK32E8", 0, ALL, 0, NULL, NULL },

	{ R_UNK3300, "NV40_PFIFO_UNK3300", 0, ALL, 0, NULL, NULL },

	{ R_UNK330C, "NV40_PFIFO_UNK330C", 0, ALL, 0, NULL, NULL },
};
static const uint32_t gone_nv40[] = { R_RAMFC };
const struct reg_layer pfifo_nv40_regs = REG_LAYER(regs_nv40, gone_nv40);
static const struct reg_layer *const layers_nv40[] = { &pfifo_nv04_regs, &pfifo_nv10_regs, &pfifo_nv17_regs,
	                                               &pfifo_nv40_regs, NULL };

static const struct pfifo_ops nv40_ops = {
	.init = nv40_init,
	.win_rd = nv40_win_rd,
	.win_wr = nv40_win_wr,
	.ramfc_rd = nv04_ramfc_rd,
	.ramfc_wr = nv04_ramfc_wr,
	.ramfc_base = nv40_ramfc_base,
	.chan_dma = nv04_chan_dma,
	.next_channel = nv04_next_channel,
	.chan_busy = nv04_chan_busy,
	.pusher_ready = pusher_dma_ready,
	.pusher_run = pusher_dma_run,
	.count_load = pusher_count_load,
	.count_store = pusher_count_store,
	.pio_refused = pusher_ramro_store,
	.ramht_lookup = ramht_lookup,
	.obj_rd32 = pfifo_ramin_rd32,
	.acquires = puller_acquires,
	.acquire_done = puller_acquire_done,
	.sem_where = puller_sem_where,
	.big_endian = puller_big_endian,
	.step = pfifo_step,
	.pio_store = pusher_pio_store,
	.user_read = pusher_pio_read,
};

/* 32 channels; CACHE1 slots UNVERIFIED: 512 (rnndb PFIFO_CACHE1_ADDR at
 * 0x90000, length 512). Classes 16 bits (puller.rst). RAMHT contexts:
 * nouveau's nv40_eobj_ramht_add (chid << 23, engine << 20), CHID 31:23 per
 * rnndb, no valid bit. Engines beyond SOFTWARE and PGRAPH (rnndb
 * nv4_pfifo_engine): PMPEG NV31+, PME NV40+, PVP1 NV41+. */
#define NV40_GEN(nm, engs)                                                                                             \
	{                                                                                                              \
		.name = nm, .nchan = 32, .cache_entries = 512, .pio_channels = 32, .chid_mask = 0x1ff,                 \
		.push1_mode = 1u << 16, .ramfc_addr_mask = 0, .class_mask = 0xffff, .cache_addr_mask = 0xfffd,         \
		.hash_valid = 24,                                                                                      \
		.methods = PF_METHOD(0x50) | PF_METHOD(0x60) | PF_METHOD(0x64) | PF_METHOD(0x68) | PF_METHOD(0x6c) |   \
		           PF_METHOD(0x80),                                                                            \
		.ramfc = &ramfc_nv40, .ramht = { 19, 22, 20, 31, 23, -1, true }, .engines = engs,                      \
		.eng_names = pfifo_nv04_eng_names, .regs = layers_nv40, .pb_vram = true, .ninc = true, .paired = true, \
		.be_fetch = true, .subr_in_state = true, .sli = true, .ramin_bar = true, .user_ref = true,             \
		.sem_errors = pfifo_nv04_sem_errors, .size = sizeof(struct pfifo), .ops = &nv40_ops                    \
	}
const struct pfifo_gen pfifo_nv40 = NV40_GEN("nv40", 1u << ENG_PMPEG | 1u << ENG_PME);
const struct pfifo_gen pfifo_nv41 = NV40_GEN("nv41", 1u << ENG_PMPEG | 1u << ENG_PME | 1u << ENG_PVP1);
