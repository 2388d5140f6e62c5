/*
 * Test helper: builds ver2 page tables in a GPU's memory the way nouveau
 * (nvkm/subdev/mmu/vmmgp100.c) and NVIDIA's UVM (uvm_pascal_mmu.c,
 * uvm_volta_mmu.c) lay them out (volta-facts.md sections e and 3):
 * 4 KiB-aligned PDE3/PDE2/PDE1/PDE0 tables, a 256-byte big-page table and a
 * 4 KiB small-page table under each dual PDE0, and 2 MiB PTEs in PDE0
 * slots. Entries are encoded independently of the model's walker, from the
 * field positions of gv100_dev_mmu.ref.txt.
 */
#ifndef TEST_MMU_PT_H
#define TEST_MMU_PT_H

#include <stdint.h>

#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

struct ptb {
	nvm_gpu *gpu;
	nvm_aperture ap; /* where the tables live */
	unsigned pde_ap; /* PDE APERTURE encoding of ap: 1 VID, 2 SYS_COH */
	uint64_t next;   /* bump allocator */
	uint64_t pdb;
	int v3; /* gh100's ver3 format: PDE4..PDE1, ADDRESS fields in place (dev_mmu.h) */
};

static inline void ptb_w64(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	nvm_mem_write(gpu, ap, addr, b, 8);
}

static inline uint64_t ptb_r64(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr)
{
	uint8_t b[8] = { 0 };
	nvm_mem_read(gpu, ap, addr, b, 8);
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

static inline uint64_t ptb_alloc(struct ptb *b, uint64_t size, uint64_t align)
{
	b->next = (b->next + align - 1) & ~(align - 1);
	uint64_t a = b->next;
	b->next += size;
	return a;
}

static inline void ptb_init(struct ptb *b, nvm_gpu *gpu, nvm_aperture ap, uint64_t base)
{
	b->gpu = gpu;
	b->ap = ap;
	b->pde_ap = ap == NVM_AP_VRAM ? 1 : 2;
	b->next = base;
	b->v3 = 0; /* ver2 unless the caller sets it */
	b->pdb = ptb_alloc(b, 4096, 4096);
}

/* NV_MMU_VER2_PDE: APERTURE 2:1, VOL 3, ADDRESS 53:8 (addr >> 12). */
static inline uint64_t ptb_pde(uint64_t table, unsigned aperture)
{
	return ((table >> 12) << 8) | ((uint64_t)aperture << 1);
}

/* PTE flags for ptb_pte. */
#define PTB_VOL  (1ull << 3)
#define PTB_ENC  (1ull << 4)
#define PTB_PRIV (1ull << 5)
#define PTB_RO   (1ull << 6)
#define PTB_AD   (1ull << 7)

/* NV_MMU_VER2_PTE: VALID 0, APERTURE 2:1, ADDRESS 53:8 (pa >> 12), KIND 63:56. */
static inline uint64_t ptb_pte(uint64_t pa, unsigned aperture, uint64_t flags, unsigned kind)
{
	return 1ull | ((uint64_t)aperture << 1) | flags | ((pa >> 12) << 8) | ((uint64_t)kind << 56);
}

/* The next-level table of a PDE slot, created when absent. */
static inline uint64_t ptb_next(struct ptb *b, uint64_t slot)
{
	uint64_t e = ptb_r64(b->gpu, b->ap, slot);
	if ((e >> 1) & 3)
		return b->v3 ? e & 0x000ffffffffff000ull : ((e >> 8) & ((1ull << 46) - 1)) << 12;
	uint64_t t = ptb_alloc(b, 4096, 4096);
	/* NV_MMU_VER3_PDE: APERTURE 2:1, ADDRESS 51:12 */
	ptb_w64(b->gpu, b->ap, slot, b->v3 ? t | (uint64_t)b->pde_ap << 1 : ptb_pde(t, b->pde_ap));
	return t;
}

/* Address of the dual PDE0 for va (creating PDE3..PDE1 tables). */
static inline uint64_t ptb_pde0(struct ptb *b, uint64_t va)
{
	if (b->v3) { /* PDE4 56, PDE3 55:47, PDE2 46:38, PDE1 37:29 */
		uint64_t t3 = ptb_next(b, b->pdb + ((va >> 56) & 1) * 8);
		uint64_t t2 = ptb_next(b, t3 + ((va >> 47) & 511) * 8);
		uint64_t t1 = ptb_next(b, t2 + ((va >> 38) & 511) * 8);
		uint64_t t0 = ptb_next(b, t1 + ((va >> 29) & 511) * 8);
		return t0 + ((va >> 21) & 255) * 16;
	}
	uint64_t t2 = ptb_next(b, b->pdb + ((va >> 47) & 3) * 8);
	uint64_t t1 = ptb_next(b, t2 + ((va >> 38) & 511) * 8);
	uint64_t t0 = ptb_next(b, t1 + ((va >> 29) & 511) * 8);
	return t0 + ((va >> 21) & 255) * 16;
}

/* Writes pte for a page of size 4K, 64K or 2M at va. */
static inline void ptb_map(struct ptb *b, uint64_t va, uint64_t size, uint64_t pte)
{
	uint64_t d = ptb_pde0(b, va);
	if (size == (1ull << 21)) {
		ptb_w64(b->gpu, b->ap, d, pte);
		ptb_w64(b->gpu, b->ap, d + 8, 0);
		return;
	}
	uint64_t lo = ptb_r64(b->gpu, b->ap, d), hi = ptb_r64(b->gpu, b->ap, d + 8);
	if (size == (1ull << 16)) {
		uint64_t big;
		if ((lo >> 1) & 3) {
			big = b->v3 ? lo & 0x000fffffffffff00ull : ((lo >> 4) & ((1ull << 50) - 1)) << 8;
		} else {
			big = ptb_alloc(b, 256, 256);               /* 32 x 8 B, BIG_SHIFT 8 */
			lo = b->v3 ? big | (uint64_t)b->pde_ap << 1 /* ver3 ADDRESS_BIG 51:8 */
			           : (lo & ~0xffffffffffffffull) | ((big >> 8) << 4) | ((uint64_t)b->pde_ap << 1);
			ptb_w64(b->gpu, b->ap, d, lo);
		}
		ptb_w64(b->gpu, b->ap, big + ((va >> 16) & 31) * 8, pte);
		return;
	}
	uint64_t small;
	if ((hi >> 1) & 3) {
		small = b->v3 ? hi & 0x000ffffffffff000ull : ((hi >> 8) & ((1ull << 46) - 1)) << 12;
	} else {
		small = ptb_alloc(b, 4096, 4096);
		hi = b->v3 ? small | (uint64_t)b->pde_ap << 1 /* ver3: ADDRESS_SMALL 115:76, APERTURE 66:65 */
		           : ((small >> 12) << 8) | ((uint64_t)b->pde_ap << 1); /* bits 117:72 / 66:65 */
		ptb_w64(b->gpu, b->ap, d + 8, hi);
	}
	ptb_w64(b->gpu, b->ap, small + ((va >> 12) & 511) * 8, pte);
}

/* Writes an instance block at inst (seed 000 NV_RAMIN_PAGE_DIR_BASE_*):
 * target, VOL, replay bits, USE_VER2_PT_FORMAT, BIG_PAGE_SIZE 64KB. */
static inline void ptb_ramin(nvm_gpu *gpu, nvm_aperture ap, uint64_t inst, unsigned target, uint64_t pdb,
                             int replay_tex, int replay_gcc)
{
	uint32_t lo = target | (uint32_t)replay_tex << 4 | (uint32_t)replay_gcc << 5 | 1u << 10 | 1u << 11 |
	              (uint32_t)(pdb & 0xfffff000u);
	nvm_mem_wr32(gpu, ap, inst + 128 * 4, lo);
	nvm_mem_wr32(gpu, ap, inst + 129 * 4, (uint32_t)(pdb >> 32));
}

/* Subcontext veid's PDB (SC_PAGE_DIR_BASE at dword 168 + 4i) and its
 * SC_PDB_VALID bit (dwords 166-167). */
static inline void ptb_ramin_sc(nvm_gpu *gpu, nvm_aperture ap, uint64_t inst, unsigned veid, unsigned target,
                                uint64_t pdb, int valid)
{
	uint32_t lo = target | 1u << 10 | 1u << 11 | (uint32_t)(pdb & 0xfffff000u);
	nvm_mem_wr32(gpu, ap, inst + (168 + veid * 4) * 4, lo);
	nvm_mem_wr32(gpu, ap, inst + (169 + veid * 4) * 4, (uint32_t)(pdb >> 32));
	uint32_t v = 0;
	nvm_mem_rd32(gpu, ap, inst + (166 + veid / 32) * 4, &v);
	v = valid ? v | (1u << (veid % 32)) : v & ~(1u << (veid % 32));
	nvm_mem_wr32(gpu, ap, inst + (166 + veid / 32) * 4, v);
}

#endif
