/*
 * The GMMU generations after Volta: what each changes against gv100 (the
 * mechanism is mmu.c; its gv100 row is there).
 *
 *   tu102, ga100, ga102  ver2 page tables (tu104/ga100 dev_mmu as gv100's);
 *                        the fault buffers and the other-fault registers
 *                        move to NV_VIRTUAL_FUNCTION_PRIV_MMU_* (VF 0x3000,
 *                        BAR0 0xB83000; tu104_dev_vm.ref, ga100_dev_vm.ref),
 *                        with gv100's fields.
 *   gh100                ver3 page tables (mmu_ver3.c, RM's gh100
 *                        dev_mmu.h); fault registers as Ampere (RM's gh100
 *                        dev_vm.h publishes PAGE_FAULT_CTRL at 0x3070 only:
 *                        UNVERIFIED for the rest).
 *
 * UNVERIFIED (all four): the fault interrupt stays NV_PFB_NISO_INTR on
 * PMC_INTR_HUB as on gv100 (Turing on routes it through the NV_CTRL leaf
 * vectors, not modelled); the fault packet is gv100's
 * (NV_MMU_FAULT_BUF_ENTRY; nouveau parses Turing and Ampere packets with
 * its gv100 code); SET_DEFAULT gives 1024 entries. MMU engine ids: gv100's
 * on tu102 (tu104_dev_fault.ref lists the same) and, UNVERIFIED, on
 * ga100/ga102 (no Ampere dev_fault in the refs); gh100's from RM's gh100
 * dev_fault.h (BAR1 256, BAR2 320, GRAPHICS 384, CE0 43, PHYSICAL 56).
 */
#include "mmu_gens.h"
#include "mmu_internal.h"

const struct mmu_chip mmu_tu102 = { "tu102", &mmu_niso_intr_hub, 1024, &mmu_fault_vf, &mmu_fmt_ver2, &mmu_eng_gv100 };
const struct mmu_chip mmu_ga100 = { "ga100", &mmu_niso_intr_hub, 1024, &mmu_fault_vf, &mmu_fmt_ver2, &mmu_eng_gv100 };
const struct mmu_chip mmu_ga102 = { "ga102", &mmu_niso_intr_hub, 1024, &mmu_fault_vf, &mmu_fmt_ver2, &mmu_eng_gv100 };
const struct mmu_chip mmu_gh100 = { "gh100", &mmu_niso_intr_hub, 1024, &mmu_fault_vf, &mmu_fmt_ver3, &mmu_eng_gh100 };
