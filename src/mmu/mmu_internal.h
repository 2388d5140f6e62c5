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

/* The page tables under one dual PDE0. */
struct mmu_pt_pair {
	bool big_present, small_present;
	nvm_mmu_target big_tgt, small_tgt;
	uint64_t big_table, small_table;
};

/* The tables a walk went through: have[l] / tgt[l] / table[l] for the
 * PDE2, PDE1 and PDE0 tables (l = 1..3), and pp (have[4]) for the page
 * tables under the PDE0. What a page-directory cache keeps. */
struct mmu_walk_path {
	bool have[5];
	nvm_mmu_target tgt[4];
	uint64_t table[4];
	struct mmu_pt_pair pp;
};

/* The ver2 walk from level start (0 = the PDB table tgt/table; 1..3 = a
 * PDE2/PDE1/PDE0 table; 4 = the page tables pp). path may be NULL. */
void mmu_walk_from(nvm_gpu *gpu, int start, nvm_mmu_target tgt, uint64_t table, const struct mmu_pt_pair *pp,
                   uint64_t va, nvm_mmu_access access, int privileged, nvm_mmu_result *res, nvm_mmu_walk_trace *tr,
                   struct mmu_walk_path *path);

/* Reads n (1 or 2) 64-bit words of a table entry at addr of target tgt
 * (bounds-checked); false when it lies outside its aperture. */
bool mmu_read_entry(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t addr, int n, uint64_t *out);
/* An enumeration (mmu_walk.c, mmu_ver3.c): the budget of entries to read
 * and the page the last read found, read through a pointer (mem_span). */
struct enum_ctx {
	nvm_gpu *gpu;
	uint64_t budget;
	const nvm_mmu_enum_ops *ops;
	int stop;
	nvm_status st;
	const uint8_t *page; /* NULL, or page pn of aperture ap: avail bytes; NULL again
	                      * before every callback (it may change memory) */
	nvm_aperture ap;
	uint64_t pn;
	size_t avail;
};
/* One entry read as mmu_read_entry does, paid from the budget (at 0: st
 * NVM_ERR_RANGE, stop, false). */
bool mmu_enum_read(struct enum_ctx *c, nvm_mmu_target tgt, uint64_t addr, int n, uint64_t *out);
/* Appends a level to a walk trace (tr may be NULL). */
void mmu_trace_add(nvm_mmu_walk_trace *tr, const char *name, nvm_mmu_target tgt, uint64_t table, unsigned index,
                   uint64_t ea, int nwords, const uint64_t *raw, bool ok);

/* A page-table format: the walk from the page directory base, the whole-tree
 * enumeration, and the access checks of a translated page (kinds differ).
 * ver2 (gv100 .. ga102, mmu_walk.c), ver3 (gh100, mmu_ver3.c). */
struct mmu_fmt {
	const char *name;
	unsigned va_bits;
	bool pd_cache; /* the block's page-directory cache knows its levels (ver2) */
	void (*walk)(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t table, uint64_t va, nvm_mmu_access access,
	             int privileged, nvm_mmu_result *res, nvm_mmu_walk_trace *tr);
	nvm_status (*enumerate)(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t table, uint64_t max_entries,
	                        const nvm_mmu_enum_ops *ops);
	void (*check)(nvm_mmu_result *res, nvm_mmu_access access, int privileged);
};
extern const struct mmu_fmt mmu_fmt_ver2, mmu_fmt_ver3;

/* Where a generation has its fault registers: the two fault buffers
 * (LO, HI, GET, PUT, SIZE at +0, +4, +8, +0xC, +0x10 of buf + i * stride),
 * PAGE_FAULT_CTRL, and the "other fault" registers from ADDR_LO on (ADDR_HI
 * +4, INST_LO +8, INST_HI +0xC, INFO +0x10, STATUS +0x14); the register
 * blocks the layout adds to BAR0. */
struct mmu_reg_block {
	uint32_t base, size;
	const struct reg_desc *regs;
	size_t nregs;
};
struct mmu_fault_layout {
	uint32_t buf, stride, page_fault_ctrl, info;
	const struct mmu_reg_block *blocks;
	size_t nblocks;
};

/* The MMU engine ids (NV_PFAULT_MMU_ENG_ID_*) a generation gives the units
 * the GMMU itself treats apart, and the names of all of them. */
struct id_range;
struct mmu_eng_ids {
	unsigned bar1, bar2, ifb, physical, graphics; /* graphics: + VEID */
	unsigned ce0;                                 /* CE0; CEn = ce0 + n */
	const struct id_range *names;
	size_t nnames;
};
extern const struct mmu_eng_ids mmu_eng_gv100, mmu_eng_gh100;

/* A GMMU generation (mmu.c gv100, mmu_gens.c tu102 .. gh100). */
struct mmu_chip {
	const char *name;
	const struct intr_desc *intr; /* NISO_INTR and the PMC_INTR input it drives */
	uint32_t default_size;        /* SIZE_VAL written by SET_DEFAULT */
	const struct mmu_fault_layout *fault;
	const struct mmu_fmt *fmt;
	const struct mmu_eng_ids *eng;
};
extern const struct mmu_fault_layout mmu_fault_pfb, mmu_fault_vf;
extern const struct intr_desc mmu_niso_intr_hub;

/* The page-table format of gpu's chip (ver2 on a chip without a GMMU). */
const struct mmu_fmt *mmu_fmt_of(const nvm_gpu *gpu);

/* Name tables of id ranges, shared by the GMMU and the G80 VM
 * (mmu_names.c): a row {first, last, name} names id NAME when first == last,
 * else NAME<id - first>. Returns buf, or NULL when no row holds id (or buf
 * is NULL / empty). */
struct id_range {
	unsigned first, last;
	const char *name;
};
const char *mmu_range_name(const struct id_range *t, size_t n, unsigned id, char *buf, size_t len);

#endif
