/*
 * PFIFO of NV04 (rnndb fifo/nv4_pfifo.xml, seed 001, nouveau's nv04 fifo
 * code): the generation's description and its operations. The mechanism
 * they describe is shared (pfifo.c, pusher.c, puller.c); later generations
 * start from this one. docs/pfifo.md.
 */
#include "pfifo_internal.h"

/* ---------------------------------------------------------------- RAMFC */

/* RAMFC layout as nouveau's nv04 fifo code saves and restores CACHE1
 * (nv04_fifo_ramfc). */
static const nvm_ramfc_field ramfc_nv04_f[] = {
	{ "DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0 },
	{ "DMA_GET", R_DMA_GET, 0x04, 0, 32, 0 },
	{ "DMA_INSTANCE", R_DMA_INSTANCE, 0x08, 0, 16, 0 },
	{ "DMA_DCOUNT", R_DCOUNT, 0x08, 16, 16, 0 },
	{ "DMA_STATE", R_DMA_STATE, 0x0c, 0, 32, 0 },
	{ "DMA_FETCH", R_DMA_FETCH, 0x10, 0, 32, 0 },
	{ "ENGINE", R_ENGINE, 0x14, 0, 32, 0 },
	{ "PULL1", R_PULL1, 0x18, 0, 32, 0 },
};
static const struct ramfc_layout ramfc_nv04 = { "nv04", 32, ramfc_nv04_f,
	                                        sizeof(ramfc_nv04_f) / sizeof(ramfc_nv04_f[0]) };

/* RAMFC ADDRESS (<< 8) in RAMIN. */
uint32_t nv04_ramfc_base(const struct pfifo *f)
{
	return (bus_get(f->gpu, R_RAMFC) & f->chip->ramfc_addr_mask) << 8;
}

bool nv04_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w)
{
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	return pfifo_ramin_rd32(f, f->chip->ops->ramfc_base(f) + chid * l->size + off, w);
}

bool nv04_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w)
{
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	return pfifo_ramin_wr32(f, f->chip->ops->ramfc_base(f) + chid * l->size + off, w);
}

/* ---------------------------------------------------------------- channels */

/* A channel's MODE bit (PIO 0, DMA 1). */
bool nv04_chan_dma(const struct pfifo *f, uint32_t chid)
{
	return chid < 32 && FIELD_GET(*f->r_mode, chid, chid);
}

/* A channel other than CACHE1's that has pushbuffer words to read (its
 * RAMFC entry: DMA mode, DMA_PUT != DMA_GET, no pusher error), round-robin
 * after the current one; -1 if none. */
int nv04_next_channel(struct pfifo *f)
{
	uint32_t cur = pfifo_chid(f), n = f->chip->nchan;
	if (!(*f->r_mode & ~(cur < 32 ? 1u << cur : 0)))
		return -1; /* no other DMA channel */
	for (uint32_t i = 1; i < n; i++) {
		uint32_t c = (cur + i) % n;
		if (!pfifo_chan_dma(f, c) || bit_get(f->acq_blocked, c))
			continue;
		uint32_t put = pfifo_ramfc_get(f, c, R_DMA_PUT);
		uint32_t get = pfifo_ramfc_get(f, c, R_DMA_GET);
		uint32_t st = pfifo_ramfc_get(f, c, R_DMA_STATE);
		if (((put ^ get) & ~3u) && !FIELD_GET(st, 31, 29))
			return (int)c;
	}
	return -1;
}

/* The current channel keeps CACHE1 while its pusher has words to read. */
bool nv04_chan_busy(struct pfifo *f)
{
	return pusher_dma_ready(f);
}

/* ---------------------------------------------------------------- windows */

/* CACHE1 METHOD(i) / DATA(i) at 0x3800 (NV04_PFIFO_CACHE1_METHOD(0)). */
bool nv04_win_rd(struct pfifo *f, uint32_t addr, uint32_t *val)
{
	if (addr >= PFIFO_CACHE1_NV04 && addr < 0x4000)
		return pfifo_cache1_rd(f, addr - PFIFO_CACHE1_NV04, val);
	return false;
}

bool nv04_win_wr(struct pfifo *f, uint32_t addr, uint32_t val)
{
	if (addr >= PFIFO_CACHE1_NV04 && addr < 0x4000)
		return pfifo_cache1_wr(f, addr - PFIFO_CACHE1_NV04, val);
	return false;
}

/* The PRAMIN window onto RAMIN. */
nvm_status nv04_init(struct pfifo *f)
{
	return pfifo_add_window(f, "pramin", PFIFO_PRAMIN, PFIFO_PRAMIN_SIZE, pfifo_pramin_rd, pfifo_pramin_wr);
}

/* ---------------------------------------------------------------- registers */

#define ALL 0xffffffffu
static const struct reg_desc regs_nv04[] = {

	{ R_DELAY_0, "NV04_PFIFO_DELAY_0", 0, 0xf00003ffu, 0, NULL, NULL },

	/* UNVERIFIED reset: the value nouveau programs (timeslice 0x1ffff). */
	{ R_DMA_TIMESLICE, "NV04_PFIFO_DMA_TIMESLICE", 0x0101ffffu, 0xf101ffffu, 0, NULL, NULL },

	{ R_PIO_TIMESLICE, "NV04_PFIFO_PIO_TIMESLICE", 0, 0x0101ffffu, 0, NULL, NULL },

	{ R_TIMESLICE, "NV04_PFIFO_TIMESLICE", 0, 0x3ffffu, 0, NULL, NULL },

	{ R_NEXT_CHANNEL, "NV04_PFIFO_NEXT_CHANNEL", 0, 0x13ffu, 0, NULL, pfifo_wr_kick },

	{ R_DEBUG_0, "NV04_PFIFO_DEBUG_0", 0, 0, 0, pfifo_rd_debug0, NULL },

	{ R_INTR, "NV03_PFIFO_INTR_0", 0, 0, 0x01fd1111u, pfifo_rd_intr, pfifo_wr_intr },

	{ R_INTR_EN, "NV03_PFIFO_INTR_EN_0", 0, 0x01fd1111u, 0, NULL, pfifo_wr_intr },

	{ R_RAMHT, "NV03_PFIFO_RAMHT", 0, 0x070301f0u, 0, NULL, NULL },

	{ R_RAMFC, "NV03_PFIFO_RAMFC", 0, 0x01ff01feu, 0, NULL, NULL },

	{ R_RAMRO, "NV03_PFIFO_RAMRO", 0, 0x000101feu, 0, NULL, NULL },

	{ R_RUNOUT_STATUS, "NV03_PFIFO_RUNOUT_STATUS", 0, 0, 0, pfifo_rd_runout_status, NULL },

	{ R_RUNOUT_PUT, "NV03_PFIFO_RUNOUT_PUT", 0, 0x1ff8u, 0, NULL, NULL },

	{ R_RUNOUT_GET, "NV03_PFIFO_RUNOUT_GET", 0, 0x1ff8u, 0, NULL, NULL },

	{ R_CACHES, "NV03_PFIFO_CACHES", 0, 1, 0, pfifo_rd_caches, pfifo_wr_kick },

	{ R_MODE, "NV04_PFIFO_MODE", 0, ALL, 0, NULL, pfifo_wr_mode },

	{ R_DMA, "NV04_PFIFO_DMA", 0, 0, 0, pfifo_rd_dma_pending, NULL },

	{ R_SIZE, "NV04_PFIFO_SIZE", 0, ALL, 0, NULL, NULL },

	/* UNVERIFIED reset of DMA_PUSH: ACCESS 1 (nouveau never sets it but
	 * after a DMA_PUSHER error). */
	/* CACHE0: the one-slot cache (seed 001), filled by the driver through
	 * METHOD / DATA and PUT (0 or 4: full while PUT != GET) and emptied by
	 * its puller (puller_run_cache0). UNVERIFIED: its pusher takes no USER
	 * stores (the seed: PIO only, "doesn't seem to work anyway"). */
	{ R_CACHE0_PUSH0, "NV03_PFIFO_CACHE0_PUSH0", 0, 1, 0, NULL, NULL },

	{ R_CACHE0_PUSH1, "NV03_PFIFO_CACHE0_PUSH1", 0, 0x1ffu, 0, NULL, NULL },

	{ R_CACHE0_PUT, "NV03_PFIFO_CACHE0_PUT", 0, 0x4u, 0, NULL, pfifo_wr_kick },

	{ R_CACHE0_STATUS, "NV03_PFIFO_CACHE0_STATUS", 0, 0, 0, pfifo_rd_cache0_status, NULL },

	{ R_CACHE0_PULL0, "NV04_PFIFO_CACHE0_PULL0", 0, PULL0_ACCESS, 0, NULL, pfifo_wr_pull0 },

	{ R_CACHE0_PULL1, "NV04_PFIFO_CACHE0_PULL1", 0, 0xfu, 0, NULL, NULL },

	{ R_CACHE0_HASH, "NV04_PFIFO_CACHE0_HASH", 0, ALL, 0, NULL, NULL },

	{ R_CACHE0_GET, "NV03_PFIFO_CACHE0_GET", 0, 0x4u, 0, NULL, pfifo_wr_kick },

	{ R_CACHE0_ENGINE, "NV04_PFIFO_CACHE0_ENGINE", 0, ALL, 0, NULL, NULL },

	{ R_CACHE0_METHOD, "NV04_PFIFO_CACHE0_METHOD", 0, 0xfffcu, 0, NULL, NULL },

	{ R_CACHE0_DATA, "NV04_PFIFO_CACHE0_DATA", 0, ALL, 0, NULL, NULL },

	{ R_PUSH0, "NV03_PFIFO_CACHE1_PUSH0", 0, 1, 0, NULL, pfifo_wr_kick },

	{ R_PUSH1, "NV03_PFIFO_CACHE1_PUSH1", 0, ALL, 0, NULL, pfifo_wr_push1 },

	{ R_PUT, "NV03_PFIFO_CACHE1_PUT", 0, ALL, 0, NULL, pfifo_wr_ptr },

	{ R_STATUS, "NV03_PFIFO_CACHE1_STATUS", 0, 0, 0, pfifo_rd_status, NULL },

	{ R_DMA_PUSH, "NV04_PFIFO_CACHE1_DMA_PUSH", DMA_PUSH_ACCESS, DMA_PUSH_ACCESS | DMA_PUSH_SUSPENDED, 0,
	  pfifo_rd_dma_push, pfifo_wr_kick },

	{ R_DMA_FETCH, "NV04_PFIFO_CACHE1_DMA_FETCH", 0, ALL, 0, NULL, NULL },

	{ R_DMA_STATE, "NV04_PFIFO_CACHE1_DMA_STATE", 0, ALL, 0, NULL, pfifo_wr_kick },

	{ R_DMA_INSTANCE, "NV04_PFIFO_CACHE1_DMA_INSTANCE", 0, 0xfffffu, 0, NULL, pfifo_wr_kick },

	{ R_DMA_CTL, "NV04_PFIFO_CACHE1_DMA_CTL", 0, ALL, 0, NULL, NULL },

	{ R_DMA_LIMIT, "NV04_PFIFO_CACHE1_DMA_LIMIT", 0, ALL, 0, NULL, NULL },

	{ R_DMA_TLB_TAG, "NV04_PFIFO_CACHE1_DMA_TLB_TAG", 0, ALL, 0, NULL, NULL },

	{ R_DMA_TLB_PTE, "NV04_PFIFO_CACHE1_DMA_TLB_PTE", 0, ALL, 0, NULL, NULL },

	{ R_DMA_PUT, "NV04_PFIFO_CACHE1_DMA_PUT", 0, 0xfffffffcu, 0, NULL, pfifo_wr_kick },

	{ R_DMA_GET, "NV04_PFIFO_CACHE1_DMA_GET", 0, 0xfffffffcu, 0, NULL, pfifo_wr_kick },

	{ R_PULL0, "NV04_PFIFO_CACHE1_PULL0", 0, PULL0_ACCESS, 0, pfifo_rd_pull0, pfifo_wr_pull0 },

	{ R_PULL1, "NV04_PFIFO_CACHE1_PULL1", 0, 0x3001fu, 0, NULL, pfifo_wr_kick },

	{ R_HASH, "NV04_PFIFO_CACHE1_HASH", 0, ALL, 0, NULL, NULL },

	{ R_GET, "NV03_PFIFO_CACHE1_GET", 0, ALL, 0, NULL, pfifo_wr_ptr },

	{ R_ENGINE, "NV04_PFIFO_CACHE1_ENGINE", 0, ALL, 0, NULL, NULL },
};
const struct reg_layer pfifo_nv04_regs = { regs_nv04, sizeof(regs_nv04) / sizeof(regs_nv04[0]), NULL, 0 };
static const struct reg_layer *const layers_nv04[] = { &pfifo_nv04_regs, NULL };

/* ---------------------------------------------------------------- the generation */

/* Engine names by id (rnndb nv4_pfifo_engine), also the names of their
 * method logs. */
const char *const pfifo_nv04_eng_names[ENG_IDS] = { "software", "pgraph", "pmpeg", "pme", "pvp1" };

/* PULL0 SEMAPHORE_ERROR, the old-style semaphores' subtypes (puller.rst
 * "Semaphores"); NV04 has no semaphore, its descendants share the names. */
const char *const pfifo_nv04_sem_errors[8] = { "NONE", "INVALID_OPERAND", "INVALID_STATE", "?", "?", "?", "?", "?" };

const struct pfifo_ops pfifo_nv04_ops = {
	.init = nv04_init,
	.win_rd = nv04_win_rd,
	.win_wr = nv04_win_wr,
	.ramfc_rd = nv04_ramfc_rd,
	.ramfc_wr = nv04_ramfc_wr,
	.ramfc_base = nv04_ramfc_base,
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
	.acquire_done = puller_acquire_done,
	.sem_where = puller_sem_where,
	.big_endian = puller_big_endian,
	.step = pfifo_step,
	.pio_store = pusher_pio_store,
	.user_read = pusher_pio_read,
};

/* 16 channels (seed 001; nouveau's chid_nr). CACHE1 slots: UNVERIFIED
 * (docs/fidelity.md): 32 (the seed's example free count 0x7c). Object
 * class width: 8 bits (puller.rst). RAMHT contexts: nouveau's
 * nv04_fifo_dma_object_ctor (valid 31, chid << 24, engine << 16, instance
 * >> 4), CHID 27:24 (rnndb). Pushbuffers only in PCI/AGP memory (seed 001). */
const struct pfifo_gen pfifo_nv04 = {
	.name = "nv04",
	.nchan = 16,
	.cache_entries = 32,
	.pio_channels = 16,
	.chid_mask = 0xf,
	.push1_mode = 1u << 8,
	.ramfc_addr_mask = 0x1fe,
	.class_mask = 0xff,
	.cache_addr_mask = 0xfffc,
	.hash_valid = 16,
	.methods = 0,
	.ramfc = &ramfc_nv04,
	.ramht = { 15, 17, 16, 27, 24, 31, true },
	.eng_names = pfifo_nv04_eng_names,
	.regs = layers_nv04,
	.sem_errors = pfifo_nv04_sem_errors,
	.size = sizeof(struct pfifo),
	.ops = &pfifo_nv04_ops,
};
