/*
 * PFIFO of NV11 and NV17 (NV1A+: envytools dma-pusher.rst and puller.rst,
 * nouveau's nv17 fifo code): NV10 with subroutines (call and return), the
 * old-style semaphores and their acquire timeout, big-endian fetch, and
 * RAMFC LARGE's 64-byte entries. The operations are NV04's with the acquire
 * (nv04.c); the data is NV10's where not said here (nv10.c).
 */
#include "pfifo_internal.h"

/* RAMFC LARGE (nv17_fifo_ramfc). */
static const nvm_ramfc_field ramfc_nv17_f[] = {
	{ "DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0 },
	{ "DMA_GET", R_DMA_GET, 0x04, 0, 32, 0 },
	{ "REF_CNT", R_REF, 0x08, 0, 32, 0 },
	{ "DMA_INSTANCE", R_DMA_INSTANCE, 0x0c, 0, 16, 0 },
	{ "DMA_DCOUNT", R_DCOUNT, 0x0c, 16, 16, 0 },
	{ "DMA_STATE", R_DMA_STATE, 0x10, 0, 32, 0 },
	{ "DMA_FETCH", R_DMA_FETCH, 0x14, 0, 32, 0 },
	{ "ENGINE", R_ENGINE, 0x18, 0, 32, 0 },
	{ "PULL1", R_PULL1, 0x1c, 0, 32, 0 },
	{ "ACQUIRE_VALUE", R_ACQ_VALUE, 0x20, 0, 32, 0 },
	{ "ACQUIRE_TIMESTAMP", R_ACQ_TIMESTAMP, 0x24, 0, 32, 0 },
	{ "ACQUIRE_TIMEOUT", R_ACQ_TIMEOUT, 0x28, 0, 32, 0 },
	{ "SEMAPHORE", R_SEMAPHORE, 0x2c, 0, 32, 0 },
	{ "DMA_SUBROUTINE", R_SUBROUTINE, 0x30, 0, 32, 0 },
};
static const struct ramfc_layout ramfc_nv17 = { "nv17", 64, ramfc_nv17_f,
	                                        sizeof(ramfc_nv17_f) / sizeof(ramfc_nv17_f[0]) };

#define ALL 0xffffffffu
static const struct reg_desc regs_nv17[] = {

	{ R_SUBROUTINE, "NV10_PFIFO_CACHE1_DMA_SUBROUTINE", 0, 0xfffffffdu, 0, NULL, NULL },

	{ R_ACQ_TIMEOUT, "NV10_PFIFO_CACHE1_ACQUIRE_TIMEOUT", 0, 0x7fffffffu, 0, NULL, NULL },

	{ R_ACQ_TIMESTAMP, "NV10_PFIFO_CACHE1_ACQUIRE_TIMESTAMP", 0, ALL, 0, NULL, NULL },

	{ R_ACQ_VALUE, "NV10_PFIFO_CACHE1_ACQUIRE_VALUE", 0, ALL, 0, NULL, NULL },

	{ R_SEMAPHORE, "NV10_PFIFO_CACHE1_SEMAPHORE", 0, 0xfffffffdu, 0, NULL, pfifo_wr_kick },
};
const struct reg_layer pfifo_nv17_regs = { regs_nv17, sizeof(regs_nv17) / sizeof(regs_nv17[0]), NULL, 0 };
static const struct reg_layer *const layers_nv17[] = { &pfifo_nv04_regs, &pfifo_nv10_regs, &pfifo_nv17_regs, NULL };

static const struct pfifo_ops nv17_ops = {
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
	.acquires = puller_acquires,
	.acquire_done = puller_acquire_done,
	.sem_where = puller_sem_where,
	.big_endian = puller_big_endian,
	.step = pfifo_step,
	.pio_store = pusher_pio_store,
	.user_read = pusher_pio_read,
};

/* Call and return: UNVERIFIED which of the seed's "NV11+" and envytools'
 * "NV1A+" is right; both give them to nv11 and nv17 (through the chips'
 * nvm_pb_gen). */
#define NV17_GEN(nm)                                                                                                   \
	{                                                                                                              \
		.name = nm, .nchan = 32, .cache_entries = 128, .pio_channels = 32, .chid_mask = 0x1f,                  \
		.push1_mode = 1u << 8, .ramfc_addr_mask = 0x1fc, .class_mask = 0xff, .cache_addr_mask = 0xfffd,        \
		.hash_valid = 16,                                                                                      \
		.methods = PF_METHOD(0x50) | PF_METHOD(0x60) | PF_METHOD(0x64) | PF_METHOD(0x68) | PF_METHOD(0x6c),    \
		.ramfc = &pfifo_ramfc_nv10, .ramfc_large = &ramfc_nv17, .ramht = { 15, 17, 16, 28, 24, 31, true },     \
		.eng_names = pfifo_nv04_eng_names, .regs = layers_nv17, .pb_vram = true, .ninc = true, .paired = true, \
		.be_fetch = true, .user_ref = true, .sem_errors = pfifo_nv04_sem_errors, .size = sizeof(struct pfifo), \
		.ops = &nv17_ops                                                                                       \
	}
const struct pfifo_gen pfifo_nv11 = NV17_GEN("nv11");
const struct pfifo_gen pfifo_nv17 = NV17_GEN("nv17");
