/*
 * Test helper: G80 VM structures written into a GPU's memory with raw bit
 * positions from seed 002 ("Channels", "DMA objects", "Page tables"),
 * independently of the model's decoders, the way nouveau's nv50 code lays
 * them out (a channel structure per channel, the page directory inside it,
 * page tables elsewhere in VRAM). Include after cmocka.h.
 */
#ifndef TEST_G80_ENV_H
#define TEST_G80_ENV_H

#include <stdint.h>
#include <string.h>

#include "mem_back.h"
#include "nvmodel/g80vm.h"
#include "nvmodel/nvmodel.h"

/* Where the G80 VM tests put things: a channel structure and a page table
 * in VRAM, and a DMA object at CH + 0x1000. */
#define CH  0x20000ull
#define PT  0x100000ull
#define SEL 0x100u

static inline nvm_gpu *g80e_open(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 256ull << 20, .sysmem_size = 256ull << 20 };
	nvm_gpu *gpu = NULL;
	if (nvm_open(&cfg, &gpu))
		return NULL;
#ifdef ENV_MEM
	if (env_back(gpu, ENV_MEM)) {
		nvm_close(gpu);
		return NULL;
	}
#endif
	return gpu;
}

static inline void g80e_w32(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint32_t v)
{
	nvm_mem_wr32(gpu, ap, addr, v);
}

static inline void g80e_w64(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t v)
{
	nvm_mem_wr32(gpu, ap, addr, (uint32_t)v);
	nvm_mem_wr32(gpu, ap, addr + 4, (uint32_t)(v >> 32));
}

/* Channel descriptor: bits 27:0 = address 39:12, 29:28 target. */
static inline uint32_t g80e_chan(uint64_t addr, unsigned target)
{
	return (uint32_t)(addr >> 12) | target << 28;
}

/* A DMA object of six raw words at structure + selector * 0x10. */
static inline void g80e_dmaobj(nvm_gpu *gpu, nvm_aperture ap, uint64_t chan_base, unsigned sel, const uint32_t w[6])
{
	for (int i = 0; i < 6; i++)
		g80e_w32(gpu, ap, chan_base + (uint64_t)sel * 16 + 4u * (unsigned)i, w[i]);
}

/* Word 0 of a DMA object from its fields. */
static inline uint32_t g80e_dw0(unsigned cls, unsigned target, unsigned ro, unsigned us, unsigned storage,
                                unsigned comp, unsigned sup)
{
	return cls | target << 16 | ro << 18 | us << 20 | storage << 22 | comp << 29 | sup << 31;
}

/* A DMA object with base and limit (40 bits each) and word 0; tag, comp
 * base and word 5 flags zero. */
static inline void g80e_dma_simple(nvm_gpu *gpu, nvm_aperture ap, uint64_t chan_base, unsigned sel, uint32_t w0,
                                   uint64_t base, uint64_t limit)
{
	uint32_t w[6] = {
		w0, (uint32_t)limit, (uint32_t)base, (uint32_t)(base >> 32 & 0xff) | (uint32_t)(limit >> 32) << 24, 0, 0
	};
	g80e_dmaobj(gpu, ap, chan_base, sel, w);
}

/* nouveau's paged object: everything from the page tables (0x7fc00000:
 * target VM, RO/US 0, storage 0x7f, compression 3). */
#define G80E_PAGED_W0 0x7fc00000u

/* PDE: 1:0 type (1 large, 2 medium, 3 small), 3:2 target, 6:5 size,
 * 39:12 table address. */
static inline uint64_t g80e_pde(unsigned type, unsigned target, unsigned size, uint64_t table)
{
	return (uint64_t)type | (uint64_t)target << 2 | (uint64_t)size << 5 | (table & 0xfffffff000ull);
}

struct g80e_pte {
	unsigned present, ro, target, sup, contig, storage, comp, tag, part, enc;
	uint64_t addr;
};

static inline uint64_t g80e_pte(const struct g80e_pte *p)
{
	return (uint64_t)p->present | (uint64_t)p->ro << 3 | (uint64_t)p->target << 4 | (uint64_t)p->sup << 6 |
	       (uint64_t)p->contig << 7 | (p->addr & 0xfffffff000ull) | (uint64_t)p->storage << 40 |
	       (uint64_t)p->comp << 47 | (uint64_t)p->tag << 49 | (uint64_t)p->part << 61 | (uint64_t)p->enc << 62;
}

/* A translation through the block (TLB), which must be done. */
static inline nvm_g80_res g80e_translate(nvm_gpu *gpu, nvm_g80_req q)
{
	nvm_g80_res res;
	nvm_status st = nvm_g80_translate(gpu, &q, &res);
	assert_int_equal(st, res.fault ? NVM_ERR_FAULT : NVM_OK); /* a fault is NVM_ERR_FAULT */
	return res;
}

/* Simple present VRAM PTE. */
static inline uint64_t g80e_pte_vram(uint64_t addr)
{
	struct g80e_pte p = { .present = 1, .addr = addr };
	return g80e_pte(&p);
}

#endif
