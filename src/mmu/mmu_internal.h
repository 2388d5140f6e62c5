/*
 * Internal interface of the GMMU block (src/mmu/): the ver2 format helpers
 * shared by the walker, the enumerator and the block.
 */
#ifndef NVM_MMU_INTERNAL_H
#define NVM_MMU_INTERNAL_H

#include "core/core.h"
#include "nvmodel/mmu.h"

/* A manual-style hi:lo field of a 64-bit entry (both bits inside one word). */
#define F64(v, hi, lo)                                                                                                 \
	((((uint64_t)(v)) >> (lo)) & ((((hi) - (lo)) == 63) ? ~0ull : ((1ull << ((hi) - (lo) + 1)) - 1ull)))

/* ver2 VA: 49 bits (gp100-mmu-format "Upto 49 Bits of VA"). */
#define MMU_VA_BITS 49

/* Maps a RAMIN-encoded target (0 VID, 1 INVALID, 2 SYS_COH, 3 SYS_NCOH) to
 * an aperture; false for INVALID. */
bool mmu_ramin_aperture(unsigned target, nvm_aperture *ap);
/* Same for the PTE encoding (0 VID, 1 PEER, 2, 3); false for PEER. */
bool mmu_pte_aperture(nvm_mmu_target t, nvm_aperture *ap);

/* Is kind one of the NV_MMU_PTE_KIND_* values gv100_dev_mmu.ref defines
 * (INVALID excluded)? */
bool mmu_kind_valid(unsigned kind);

/* Reads and decodes a ver2 PTE for a page of page_size covering va into res
 * (no access check). Returns the VALID bit. */
int mmu_pte_decode(uint64_t pte, uint64_t page_size, uint64_t va, nvm_mmu_result *res);
/* Applies kind / privilege / read-only / atomic checks; sets res->fault. */
void mmu_check_access(nvm_mmu_result *res, nvm_mmu_access access, int privileged);

#endif
