/*
 * PFIFO of NV10 (rnndb fifo/nv4_pfifo.xml NV5/NV10 variants, nouveau's nv10
 * fifo code): NV04 with 32 channels, REF_CNT, non-increasing methods and
 * paired submission, pushbuffers in VRAM, DCOUNT and the pusher's shadows,
 * REF in the USER area, a longer RAMFC. The operations are NV04's (nv04.c).
 */
#include "pfifo_internal.h"

/* RAMFC (nv10_fifo_ramfc). */
static const nvm_ramfc_field ramfc_nv10_f[] = {
	{ "DMA_PUT", R_DMA_PUT, 0x00, 0, 32, 0 },     { "DMA_GET", R_DMA_GET, 0x04, 0, 32, 0 },
	{ "REF_CNT", R_REF, 0x08, 0, 32, 0 },         { "DMA_INSTANCE", R_DMA_INSTANCE, 0x0c, 0, 16, 0 },
	{ "DMA_DCOUNT", R_DCOUNT, 0x0c, 16, 16, 0 },  { "DMA_STATE", R_DMA_STATE, 0x10, 0, 32, 0 },
	{ "DMA_FETCH", R_DMA_FETCH, 0x14, 0, 32, 0 }, { "ENGINE", R_ENGINE, 0x18, 0, 32, 0 },
	{ "PULL1", R_PULL1, 0x1c, 0, 32, 0 },
};
const struct ramfc_layout pfifo_ramfc_nv10 = { "nv10", 32, ramfc_nv10_f,
	                                       sizeof(ramfc_nv10_f) / sizeof(ramfc_nv10_f[0]) };

#define ALL 0xffffffffu
static const struct reg_desc regs_nv10[] = {

	{ R_REF, "NV10_PFIFO_CACHE1_REF_CNT", 0, ALL, 0, NULL, NULL },

	{ R_DCOUNT, "NV04_PFIFO_CACHE1_DMA_DCOUNT", 0, ALL, 0, NULL, NULL },

	{ R_GET_JMP_SHD, "NV04_PFIFO_CACHE1_DMA_GET_JMP_SHADOW", 0, ALL, 0, NULL, NULL },

	{ R_RSVD_SHD, "NV04_PFIFO_CACHE1_DMA_RSVD_SHADOW", 0, ALL, 0, NULL, NULL },

	{ R_DATA_SHD, "NV04_PFIFO_CACHE1_DMA_DATA_SHADOW", 0, ALL, 0, NULL, NULL },
};
const struct reg_layer pfifo_nv10_regs = { regs_nv10, sizeof(regs_nv10) / sizeof(regs_nv10[0]), NULL, 0 };
static const struct reg_layer *const layers_nv10[] = { &pfifo_nv04_regs, &pfifo_nv10_regs, NULL };

/* 32 channels (seed 001). CACHE1 slots: UNVERIFIED, 128 (rnndb's CACHE1
 * ADDR note). RAMHT CHID 28:24 (rnndb). */
const struct pfifo_gen pfifo_nv10 = {
	.name = "nv10",
	.nchan = 32,
	.cache_entries = 128,
	.pio_channels = 32,
	.chid_mask = 0x1f,
	.push1_mode = 1u << 8,
	.ramfc_addr_mask = 0x1fc,
	.class_mask = 0xff,
	.cache_addr_mask = 0xfffd,
	.hash_valid = 16,
	.methods = PF_METHOD(0x50),
	.ramfc = &pfifo_ramfc_nv10,
	.ramht = { 15, 17, 16, 28, 24, 31, true },
	.eng_names = pfifo_nv04_eng_names,
	.regs = layers_nv10,
	.pb_vram = true,
	.ninc = true,
	.paired = true,
	.user_ref = true,
	.sem_errors = pfifo_nv04_sem_errors,
	.size = sizeof(struct pfifo),
	.ops = &pfifo_nv04_ops,
};
