/*
 * GH100 (Hopper) as a delta of ga100.c. No Host manual of Hopper is
 * public; what RM's Hopper code and OGKM's generated headers publish is
 * followed: host class C86F (SEM_ADDR_HI OFFSET 24:0), GP_BASE_HI OFFSET
 * 24:0 without LIMIT2 and the GP_INFO register / RAMFC dword 41 (LIMIT2
 * 4:0, PB_SEGMENT_EXTENDED_BASE 24:8 set by GP OPCODE 4
 * SET_PB_SEGMENT_EXTENDED_BASE), copy class C8B5. What nothing public describes is GA100's
 * (UNVERIFIED, docs/fidelity.md): the runlist spaces, CHRAM, PTOP rows,
 * PBDMA registers and INTR_0 bits, the doorbell `runlist << 16 | chid` at
 * 0xB80000 + 0x30090, the topology. Where silicon H100 disagrees with the
 * Volta manual, gh100 follows silicon: a 64-bit IADD reduction is accepted
 * with the signed format too, and carries (silicon-h100.md "Semaphores").
 */
#include "ampere.h"
#include "host_fmt_internal.h"

/* silicon H100: "64-bit IADD is accepted with either FORMAT, including
 * signed, and carries"; INC/DEC stay 32-bit unsigned only. */
static bool gh100_sem_red_valid(unsigned red, bool is64, bool sgn)
{
	if (red == SEM_RED_IADD)
		return true;
	return sem_red_valid(red, is64, sgn);
}

static const uint32_t gh100_gr_classes[] = { 0xCB97, 0xCBC0, 0xA140, 0x902D };

/* MMU engine ids as gv100 numbers them; gh100's GMMU (RM's dev_fault.h)
 * renumbers them: GRAPHICS 384, CE0 43, CE2 45 .. CE5 48. */
static const struct host_rl_desc gh100_runlists[] = {
	{ "gr", "recorder", "grce", NVM_MMU_ENG_GRAPHICS, 15, 0, { 0, 1 }, 2 },
	{ "ce2", "ce", NULL, 17, 0, 0, { 2 }, 1 },
	{ "ce3", "ce", NULL, 18, 0, 0, { 3 }, 1 },
	{ "ce4", "ce", NULL, 19, 0, 0, { 4 }, 1 },
	{ "ce5", "ce", NULL, 20, 0, 0, { 5 }, 1 },
};

#define NRL (sizeof(gh100_runlists) / sizeof(gh100_runlists[0]))

const struct ampere_gen host_gh100_gen = {
	.g =
	        {
	                .name = "gh100",
	                .nchan = NRL * AMPERE_CHRAM_N,
	                .npbdma = 6,
	                .nrunlist = NRL,
	                .rl = gh100_runlists,
	                .pbdma_base = 0x40000u,
	                .pbdma_stride = 0x800u,
	                .pbdma_regs = hopper_pbdma_regs,
	                .r_doorbell = 0xBB0090u,
	                .host_class = 0xC86F,
	                .methods = c76f_methods, /* UNVERIFIED: C86F's methods are C76F's (clc86f.h is reduced) */
	                .sig_valid = 0xface,
	                .sig_host_class = 51311, /* UNVERIFIED: 0xC86F, as ga100's is its class */
	                .gr_classes = gh100_gr_classes,
	                .ngr_classes = sizeof(gh100_gr_classes) / sizeof(gh100_gr_classes[0]),
	                .ce_class = 0xC8B5,
	                .gp_limit2_reg = PBR_GP_INFO, /* NV_PBDMA_GP_INFO LIMIT2 4:0 */
	                .gp_limit2_lo = 0,
	                .gp_base_hi_bits = 25,  /* NV_PBDMA_GP_BASE_HI OFFSET 24:0 */
	                .sem_addr_hi_bits = 25, /* C86F SEM_ADDR_HI OFFSET 24:0 */
	                .gpfifo_va_bits = 57,   /* UNVERIFIED: the VER3 VA width */
	                .gp_extended_base = true, /* clc86f.h GP OPCODE 4, GP_INFO 24:8 */
	                .sem_red_valid = gh100_sem_red_valid,
	                .layouts = hf_gh100_layouts,
	                .rl_entry_decode = ampere_rl_entry_decode,
	                .bad_tsg_codes = ampere_bad_tsg_codes,
	                .state_bytes = NRL * AMPERE_CHRAM_N * 20u,
	                .ops = &ga100_ops,
	        },
	.rl_base_shift = 12,
	.usermode_class = 0xC661, /* UNVERIFIED: HOPPER_USERMODE_A */
	.tree = &ampere_intr_tree, /* UNVERIFIED: ga100's (no Hopper dev_vm is public) */
	.dev = ampere_devs,
	.ndev = 6,
};
