/*
 * The GMMU block's state (mmu.c), shared with its snapshot part
 * (mmu_snap.c): the TLB and page-directory cache entries, the replayable
 * requests held for a replay, the block.
 */
#ifndef NVM_MMU_BLOCK_H
#define NVM_MMU_BLOCK_H

#include "mmu_internal.h"
#include "tlb_cache.h"

/* UNVERIFIED: the TLB is 8192 direct-mapped leaf entries keyed by (PDB, VEID,
 * page) plus a 2048-entry page-directory cache (PDC_SLOTS); faults are not
 * cached. The real hierarchy is not documented. */
#define TLB_SLOTS   8192u
#define MAX_PENDING 4096u

struct tlb_ent {
	struct tlbc_hdr h; /* the shared TLB cache (tlb_cache.h) */
	int veid;
	uint64_t pdb_key; /* aperture class << 63 | pdb address */
	uint64_t va_base, size;
	nvm_mmu_result res; /* decoded, before the access check */
};

/* Page-directory cache: the table a PDE3/PDE2/PDE1 entry points at (lvl 1..3:
 * the PDE2, PDE1, PDE0 table) or the page tables of a dual PDE0 (lvl 4),
 * for the VA region that entry covers. */
struct pde_ent {
	struct tlbc_hdr h;
	int lvl;
	uint64_t pdb_key, base;
	nvm_mmu_target tgt;
	uint64_t table;
	struct mmu_pt_pair pp;
};

#define PDC_SLOTS 2048u
/* VA bits covered by the entry that points at a level-l table. */
static const unsigned pdc_shift[5] = { 49, 47, 38, 29, 21 };
/* The leaf page sizes the TLB caches. */
static const uint64_t page_sizes[3] = { 1ull << 12, 1ull << 16, 1ull << 21 };

struct pending {
	uint64_t ticket;
	nvm_mmu_request req;
	uint64_t pdb_key;
	unsigned last_fault; /* type of its latest fault */
};

struct mmu {
	nvm_gpu *gpu;
	const struct mmu_chip *chip;
	uint32_t put[2];
	struct intr_line intr; /* NISO_INTR, its enable mask held (EN_SET / EN_CLR) */
	bool err[2];           /* STATUS *_ERROR: a packet could not be written */
	bool strict;
	bool replaying; /* a replay or cancel is walking the held requests */
	/* Both caches are the shared TLB cache (tlb_cache.h): allocated in
	 * pieces on first use, with a list of the valid slots so that an
	 * invalidation costs what it can drop, not the cache size. */
	struct tlb_cache tlb, pdc;
	struct pending *pend;
	size_t npend, cappend;
	uint64_t next_ticket;
	nvm_mmu_stats stats;
};

/* The slots of a TLB entry and of a page-directory cache entry. */
size_t tlb_slot(uint64_t key, int veid, uint64_t va_base, uint64_t size);
size_t pdc_slot(uint64_t key, int lvl, uint64_t base);

extern const struct block_snap mmu_snap;

#endif
