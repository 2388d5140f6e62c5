/*
 * PFIFO of NV03 (Riva 128) and NV3T (Riva 128 ZX, chip nv03t): the PIO unit of pio01.c with NV3's registers
 * (rnndb fifo/nv1_pfifo.xml NV3 variants; write masks of the envytools
 * hwtest/pfifo.cc NV3 register list, measured on an NV3T), RAMHT, RAMFC
 * and RAMRO placed by their registers, and RAMIN reached through BAR1 +
 * 0xC00000 (rivafb, xf86-video-nv, hwtest/pgraph_mthd.cc): the RAMIN BAR
 * calls (nvm_pfifo_ramin_bar_*), as on NV40. NV3's kernel-launched DMA
 * (its DMA_* registers) is stored, not executed. docs/pfifo.md "NV01 and
 * NV03".
 */
#include "pio01.h"

/* rnndb: RAMHT ADDRESS 15:12, SIZE 17:16 (4 KiB << n); RAMFC ADDRESS 15:9
 * (0x1000 bytes, 128 channels); RAMRO ADDRESS 15:9, SIZE 16 (512 bytes or
 * 8 KiB). */
static void nv03_layout(struct pio01 *p, struct p1_layout *l)
{
	uint32_t ht = bus_get(p->f.gpu, R_RAMHT), ro = bus_get(p->f.gpu, R_RAMRO);
	l->ramht = ht & 0xf000u;
	l->ramht_size = 0x1000u << FIELD_GET(ht, 17, 16);
	l->ramfc = bus_get(p->f.gpu, R_RAMFC) & 0xfe00u;
	l->ramfc_chans = 128;
	l->ramro = ro & 0xfe00u;
	l->ramro_size = FIELD_GET(ro, 16, 16) ? 0x2000u : 0x200u;
}

#define ALL 0xffffffffu
/* Write masks: the E-hw NV3 list (an NV3T), with CACHE1 PUT/GET 0x7c for
 * the 32 entries of a plain NV3 (UNVERIFIED: the NV3T's 64 entries give
 * 0x1fc). Reset values: nv1-pfifo.rst (RAMFC 0x1c00, RAMRO 0x1e00 after
 * PMC ENABLE bit 8), 0 elsewhere (UNVERIFIED). The DMA registers are
 * stored only; DMA_TARGET and DMA_TLB_TAG were not scanned (UNVERIFIED
 * masks: TARGET 1:0 "2 PCI, 3 AGP", TAG 31:12). */
static const struct reg_desc regs_nv03[] = {
	{ P1_WAIT_RETRY, "NV3_PFIFO_WAIT_RETRY", 0, 0xffu, 0, NULL, NULL },
	{ P1_CACHE_ERROR, "NV3_PFIFO_CACHE_ERROR", 0, 0, 0, NULL, NULL },
	{ P1_INTR, "NV3_PFIFO_INTR", 0, 0, 0x11111u, NULL, p1_wr_intr },
	{ P1_INTR_EN, "NV3_PFIFO_INTR_EN", 0, 0x11111u, 0, NULL, p1_wr_intr },
	{ P1_CONFIG, "NV3_PFIFO_CONFIG", 0, 0xfc0300u, 0, NULL, NULL },
	{ R_RAMHT, "NV3_PFIFO_RAMHT", 0, 0x3f000u, 0, NULL, NULL },
	{ R_RAMFC, "NV3_PFIFO_RAMFC", 0x1c00u, 0xfe00u, 0, NULL, NULL },
	{ R_RAMRO, "NV3_PFIFO_RAMRO", 0x1e00u, 0x1fe00u, 0, NULL, NULL },
	{ P1_RUNOUT_STATUS, "NV3_PFIFO_RUNOUT_STATUS", 0, 0, 0, p1_rd_runout_status, NULL },
	{ P1_RUNOUT_PUT, "NV3_PFIFO_RUNOUT_PUT", 0, 0x1ff8u, 0, NULL, p1_wr_runout_ptr },
	{ P1_RUNOUT_GET, "NV3_PFIFO_RUNOUT_GET", 0, 0x3ff8u, 0, NULL, p1_wr_runout_ptr },
	{ P1_CHSW_ENABLE, "NV3_PFIFO_CHSW_ENABLE", 0, 1, 0, NULL, p1_wr_kick },
	{ P1_C0_PUSH_ACCESS, "NV3_PFIFO_CACHE0_PUSH_ACCESS", 0, 1, 0, NULL, p1_wr_kick },
	{ 0x3004, "NV3_PFIFO_CACHE0_CHID", 0, 0x7fu, 0, NULL, NULL },
	{ 0x3010, "NV3_PFIFO_CACHE0_PUT", 0, 0x4u, 0, NULL, p1_wr_kick },
	{ 0x3014, "NV3_PFIFO_CACHE0_STATUS", 0, 0, 0, p1_rd_c0_status, NULL },
	{ P1_C0_PULL_CTRL, "NV3_PFIFO_CACHE0_PULL_CTRL", 0, 1, 0, NULL, p1_wr_pull_ctrl },
	{ P1_C0_GET, "NV3_PFIFO_CACHE0_GET", 0, 0x4u, 0, NULL, p1_wr_kick },
	{ P1_C0_CTX, "NV3_PFIFO_CACHE0_CTX", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C0_ADDR, "NV3_PFIFO_CACHE0_ADDR", 0, 0xfffcu, 0, NULL, NULL },
	{ P1_C0_DATA, "NV3_PFIFO_CACHE0_DATA", 0, ALL, 0, NULL, NULL },
	{ P1_C1_PUSH_ACCESS, "NV3_PFIFO_CACHE1_PUSH_ACCESS", 0, 1, 0, NULL, p1_wr_kick },
	{ 0x3204, "NV3_PFIFO_CACHE1_CHID", 0, 0x17fu, 0, NULL, NULL },
	{ 0x3210, "NV3_PFIFO_CACHE1_PUT", 0, 0x7cu, 0, NULL, p1_wr_kick },
	{ 0x3214, "NV3_PFIFO_CACHE1_STATUS", 0, 0, 0, p1_rd_c1_status, NULL },
	{ 0x3218, "NV3_PFIFO_CACHE1_DMA_STATE", 0, 0x5ffcfffcu, 0, NULL, NULL },
	{ 0x3220, "NV3_PFIFO_CACHE1_DMA_CTRL", 0, 0x1u, 0, NULL, p1_wr_dma_ctrl },
	{ 0x3224, "NV3_PFIFO_CACHE1_DMA_COUNT", 0, 0xfffffcu, 0, NULL, NULL },
	{ 0x3228, "NV3_PFIFO_CACHE1_DMA_GET", 0, 0xfffffcu, 0, NULL, NULL },
	{ 0x322c, "NV3_PFIFO_CACHE1_DMA_TARGET", 0, 0x3u, 0, NULL, NULL },
	{ 0x3230, "NV3_PFIFO_CACHE1_DMA_TLB_TAG", 0, 0xfffff000u, 0, NULL, NULL },
	{ 0x3234, "NV3_PFIFO_CACHE1_DMA_TLB_PTE", 0, 0xfffff001u, 0, NULL, NULL },
	{ 0x3238, "NV3_PFIFO_CACHE1_DMA_PT_INST", 0, 0xffffcu, 0, NULL, NULL },
	{ P1_C1_PULL_CTRL, "NV3_PFIFO_CACHE1_PULL_CTRL", 0, 1, 0, NULL, p1_wr_pull_ctrl },
	{ P1_C1_PULL_STATE, "NV3_PFIFO_CACHE1_PULL_STATE", 0, 0x117u, 0, p1_rd_pull_state, NULL },
	{ P1_C1_GET, "NV3_PFIFO_CACHE1_GET", 0, 0x7cu, 0, NULL, p1_wr_kick },
	{ P1_C1_CTX(0), "NV3_PFIFO_CACHE1_CTX(0)", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C1_CTX(1), "NV3_PFIFO_CACHE1_CTX(1)", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C1_CTX(2), "NV3_PFIFO_CACHE1_CTX(2)", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C1_CTX(3), "NV3_PFIFO_CACHE1_CTX(3)", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C1_CTX(4), "NV3_PFIFO_CACHE1_CTX(4)", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C1_CTX(5), "NV3_PFIFO_CACHE1_CTX(5)", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C1_CTX(6), "NV3_PFIFO_CACHE1_CTX(6)", 0, 0x00ffffffu, 0, NULL, NULL },
	{ P1_C1_CTX(7), "NV3_PFIFO_CACHE1_CTX(7)", 0, 0x00ffffffu, 0, NULL, NULL },
};
static const struct reg_layer nv03_regs = { regs_nv03, sizeof(regs_nv03) / sizeof(regs_nv03[0]), NULL, 0 };
static const struct reg_layer *const layers_nv03[] = { &nv03_regs, NULL };

/* NV3T (Riva 128 ZX): the E-hw NV3 list as measured, CACHE1 PUT/GET 0x1fc
 * (64 entries, their ADDR/DATA at 0x3400 + 8i). */
static const struct reg_desc regs_nv03t[] = {
	{ 0x3210, "NV3_PFIFO_CACHE1_PUT", 0, 0x1fcu, 0, NULL, p1_wr_kick },
	{ P1_C1_GET, "NV3_PFIFO_CACHE1_GET", 0, 0x1fcu, 0, NULL, p1_wr_kick },
};
static const struct reg_layer nv03t_regs = { regs_nv03t, sizeof(regs_nv03t) / sizeof(regs_nv03t[0]), NULL, 0 };
static const struct reg_layer *const layers_nv03t[] = { &nv03_regs, &nv03t_regs, NULL };

/* RAMFC: NV1's scheme with NV3's 24-bit contexts (nv1-pfifo.rst: 0x20
 * bytes per channel; UNVERIFIED on NV3: the subchannel and OBJECT in word
 * 0 30:28 / 31 as on NV1). */
#define CTX_FIELD(i)                                                                                                   \
	{                                                                                                              \
		"CTX" #i, P1_C1_CTX(i), 4 * (i), 0, 24, 0                                                              \
	}
static const nvm_ramfc_field ramfc_nv03_f[] = {
	CTX_FIELD(0),
	{ "SUBCHANNEL", P1_C1_PULL_STATE, 0x00, 28, 3, 0 },
	{ "OBJECT", P1_C1_PULL_STATE, 0x00, 31, 1, 8 },
	CTX_FIELD(1),
	CTX_FIELD(2),
	CTX_FIELD(3),
	CTX_FIELD(4),
	CTX_FIELD(5),
	CTX_FIELD(6),
	CTX_FIELD(7),
};
static const struct ramfc_layout ramfc_nv03 = { "nv03", 32, ramfc_nv03_f,
	                                        sizeof(ramfc_nv03_f) / sizeof(ramfc_nv03_f[0]) };

static const uint32_t reset_nv03[] = { P1_WAIT_RETRY,         P1_INTR_EN,      P1_CHSW_ENABLE, P1_C0_PUSH_ACCESS,
	                               P1_C1_PUSH_ACCESS,     R_RAMHT,         R_RAMFC,        R_RAMRO,
	                               0x3220 /* DMA_CTRL */, P1_C1_PULL_STATE };

/* Context bit 23 is the engine (puller.rst "Engine objects"; E-hw
 * pgraph_mthd.cc injects gctx | 1 << 23): 1 PGRAPH, 0 SOFTWARE. */
#define NV03_IMPL(nslots, base)                                                                                        \
	{                                                                                                              \
		.c0_chid = 0x3004, .c0_put = 0x3010, .c1_chid = 0x3204, .c1_put = 0x3210, .slots = nslots,             \
		.array = base, .ctx_mask = 0x00ffffffu, .pull_state_mask = P1_PS_CTX, .free_lie = false,               \
		.eng_bit = 23, .layout = nv03_layout, .reset = reset_nv03,                                             \
		.nreset = sizeof(reset_nv03) / sizeof(reset_nv03[0]), .init = NULL                                     \
	}
static const struct pio01_impl nv03_impl = NV03_IMPL(32, 0x3300);
static const struct pio01_impl nv03t_impl = NV03_IMPL(64, 0x3400);

/* 128 channels, 8 subchannels, CACHE1 32 entries (nv1-pfifo.rst; the
 * NV3T's 64). RAMHT contexts: INSTANCE 15:0 (a grobj at RAMIN instance
 * << 4), engine 23, channel 30:24 (digest 5.2). */
#define NV03_GEN(gen, entries, layers, im)                                                                             \
	{                                                                                                              \
		.name = gen, .nchan = 128, .cache_entries = entries, .pio_channels = 128, .chid_mask = 0x7f,           \
		.cache_addr_mask = 0xfffc, .class_mask = 0x7f, .hash_valid = 16, .ramfc = &ramfc_nv03,                 \
		.ramht = { 15, 23, 23, 30, 24, -1, true }, .eng_names = pfifo_nv04_eng_names, .regs = layers,          \
		.sem_errors = pfifo_nv04_sem_errors, .ramin_bar = true, .ramht_bucket = true,                          \
		.size = sizeof(struct pio01), .ops = &pio01_ops, .impl = &im                                           \
	}
const struct pfifo_gen pfifo_nv03 = NV03_GEN("nv03", 32, layers_nv03, nv03_impl);
const struct pfifo_gen pfifo_nv03t = NV03_GEN("nv03t", 64, layers_nv03t, nv03t_impl);
