/*
 * GA102 (Ampere, the GeForce part) as a delta of ga100.c: runlists are
 * 1 KiB aligned (ga102 dev_ram NV_RAMRL_ENTRY_BASE_SHIFT 10), the copy
 * engines are AMPERE_DMA_COPY_B (C7B5), the graphics classes C797 / C7C0
 * and the host class AMPERE_CHANNEL_GPFIFO_B (C76F: nouveau's
 * ga102_fifo_sclass; C56F's methods with MEM_OP_D MMU_OPERATION,
 * clc76f.h). Everything else is ga100's: nouveau's ga102 fifo reuses ga100's
 * runlist, channel and doorbell code. UNVERIFIED: GA102's topology, PBDMA
 * count and PTOP rows are GA100's.
 */
#include "ampere.h"
#include "host_fmt_internal.h"

/* C76F: C56F's methods with MEM_OP_D OPERATION MMU_OPERATION (0xb). */
const host_method_fn c76f_methods[64] = HOST_METHODS(hm_mem_op_d_c76f, NULL, hm_clear_faulted_handle);

static const uint32_t ga102_gr_classes[] = { 0xC797, 0xC7C0, 0xA140, 0x902D };

/* As GA100 (ga100.c ga100_runlists). */
static const struct host_rl_desc ga102_runlists[] = {
	{ "gr", "recorder", "grce", NVM_MMU_ENG_GRAPHICS, 15, 0, { 0, 1 }, 2 },
	{ "ce2", "ce", NULL, 17, 0, 0, { 2 }, 1 },
	{ "ce3", "ce", NULL, 18, 0, 0, { 3 }, 1 },
	{ "ce4", "ce", NULL, 19, 0, 0, { 4 }, 1 },
	{ "ce5", "ce", NULL, 20, 0, 0, { 5 }, 1 },
};

#define NRL (sizeof(ga102_runlists) / sizeof(ga102_runlists[0]))

const struct ampere_gen host_ga102_gen = {
	.g =
	        {
	                .name = "ga102",
	                .nchan = NRL * AMPERE_CHRAM_N,
	                .npbdma = 6,
	                .nrunlist = NRL,
	                .rl = ga102_runlists,
	                .pbdma_base = 0x40000u,
	                .pbdma_stride = 0x800u,
	                .pbdma_regs = ampere_pbdma_regs,
	                .r_doorbell = 0xBB0090u,
	                .host_class = 0xC76F, /* nouveau ga102_fifo_sclass: AMPERE_CHANNEL_GPFIFO_B */
	                .methods = c76f_methods,
	                .sig_valid = 0xface,
	                .sig_host_class = 51055, /* UNVERIFIED: 0xC76F, as ga100's is its class */
	                .gr_classes = ga102_gr_classes,
	                .ngr_classes = sizeof(ga102_gr_classes) / sizeof(ga102_gr_classes[0]),
	                .ce_class = 0xC7B5,
	                .gp_limit2_reg = PBR_GP_BASE_HI,
	                .gp_limit2_lo = 16,
	                .gp_base_hi_bits = 8,
	                .sem_addr_hi_bits = 8,
	                .gpfifo_va_bits = 40,
	                .sem_red_valid = sem_red_valid,
	                .layouts = hf_ga102_layouts,
	                .rl_entry_decode = ampere_rl_entry_decode,
	                .bad_tsg_codes = ampere_bad_tsg_codes,
	                .state_bytes = NRL * AMPERE_CHRAM_N * 20u,
	                .ops = &ga100_ops,
	        },
	.rl_base_shift = 10,
	.usermode_class = 50273,
	.tree = &ampere_intr_tree, /* UNVERIFIED: ga100's (no ga102 dev_vm is public) */
	.dev = ampere_devs,
	.ndev = 6,
};
