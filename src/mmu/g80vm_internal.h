/*
 * Internal interface of the G80 VM (src/mmu/g80vm*.c): the per-chip data,
 * the page-table walk shared by the block and the pure walker, and the
 * generation masks of the name tables.
 */
#ifndef NVM_G80VM_INTERNAL_H
#define NVM_G80VM_INTERNAL_H

#include "core/core.h"
#include "nvmodel/g80vm.h"
#include "tlb_cache.h"

/* Generation masks for table rows (g80_vm.xml variants, restricted to the
 * profiles the model has: g80; g84 and g92; gt215). */
#define G80M_G80   (1u << NVM_G80_GEN_G80)
#define G80M_G84   (1u << NVM_G80_GEN_G84)
#define G80M_GT215 (1u << NVM_G80_GEN_GT215)
#define G80M_ALL   (G80M_G80 | G80M_G84 | G80M_GT215)

/* Per-chip const data of the G80 VM block (the chip registry, src/chips/chips.c, names them). */
struct g80vm_chip {
	unsigned gen; /* NVM_G80_GEN_* */
	const nvm_g80_ctxsel *ctx;
	size_t nctx;
	/* g80_pfb.xml MMU VM_FAULT enable bits of each VM engine (0: none) */
	const uint32_t *fault_en;
};

/* What the page tables say about one contig block (the TLB's unit). */
struct g80_pt_res {
	unsigned fault; /* NVM_G80_FAULT_* */
	bool oob;
	unsigned target;
	uint64_t vbase, size; /* the virtual block it covers */
	uint64_t lin;         /* linear address of the block's first byte */
	uint64_t page_size;
	bool ro, supervisor_only;
	unsigned storage_type, comp, tag, part_cycle;
	bool encrypted;
};

/* A channel descriptor's structure: aperture and base; false for the
 * invalid target (1). */
bool g80_chan_base(uint32_t chan, nvm_aperture *ap, uint64_t *base);
/* Maps a 2-bit target (0 VRAM, 2, 3 SYSRAM) to an aperture; false for 1. */
bool g80_target_ap(unsigned target, nvm_aperture *ap);
/* Bounds-checked 32 / 64-bit little-endian reads of guest memory. */
bool g80_rd32(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint32_t *v);
bool g80_rd64(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t *v);

/* The page-table walk for virtual address virt of the channel at
 * chan_ap/chan_base (seed 002 "Page tables"). tr may be NULL. */
void g80_pt_walk(nvm_gpu *gpu, const nvm_g80_layout *lay, nvm_aperture chan_ap, uint64_t chan_base, uint64_t virt,
                 struct g80_pt_res *out, nvm_g80_walk_trace *tr);

/* Step two of a translation: combine the DMA object with the page-table
 * result (paged) or its own fields (unpaged), then the access checks and
 * the memory bound. pt is NULL for unpaged objects. */
void g80_finish(nvm_gpu *gpu, unsigned gen, const nvm_g80_req *req, const nvm_g80_dmaobj *d, uint64_t addr,
                const struct g80_pt_res *pt, nvm_g80_res *res);

/* Reads and decodes the DMA object of req (steps: channel, NULL_DMAOBJ,
 * object in bounds, DMAOBJ_LIMIT). Returns false with res->fault set on a
 * fault; on success *addr is base + offset. */
bool g80_dmaobj_stage(nvm_gpu *gpu, const nvm_g80_req *req, nvm_g80_res *res, nvm_aperture *chan_ap,
                      uint64_t *chan_base, uint64_t *addr, nvm_g80_walk_trace *tr);

uint32_t g80_pd_offset(const nvm_g80_layout *lay);

/* ---------------------------------------------------------------- the block's state (g80vm.c, g80vm_snap.c) */

#define G80VM_NTRAP 6u

struct g80_tlb_ent {
	struct tlbc_hdr h;
	unsigned engine;
	uint32_t chan;
	struct g80_pt_res pt;
};

struct g80vm {
	nvm_gpu *gpu;
	const struct g80vm_chip *chip;
	struct tlb_cache tlb;
	bool strict;
	unsigned flushes_in_flight;
	bool trap_pending;
	uint32_t trap[G80VM_NTRAP];
	uint32_t bar_chan, peephole_chan;
	uint32_t ph_base;          /* PEEPHOLE port registers: 0x1560 (G80) or 0x60000 */
	const uint32_t *pd_offset; /* the latched PD_OFFSET register (G84+), or NULL */
	nvm_g80_stats stats;
};

/* Snapshots (g80vm_snap.c): the block's part, and the function of its
 * event (g80vm.c: a TLB flush completing; arg the VM engine). */
extern const struct block_snap g80vm_snap;
void g80vm_flush_done(nvm_gpu *gpu, void *ctx, uint64_t engine);

#endif
