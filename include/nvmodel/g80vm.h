/*
 * nvmodel — G80 (Tesla) virtual memory: channel structures, DMA objects, page
 * tables, per-VM-engine TLBs, VM faults and BAR1/BAR3 (seed 002 "Tesla virtual
 * memory", envytools rnndb memory/g80_vm.xml and g80_pfb.xml).
 *
 * A request names a channel (the 30-bit channel descriptor), a DMA object
 * (its 16-bit selector), a 40-bit logical address and who asks (VM engine,
 * VM client, DMA slot: seed 002 "VM users"). The answer is a linear address
 * with its target and attributes, or a VM fault with the reason codes of the
 * G80_VM_FAULT enum (g80_vm.xml).
 *
 * API shape as agreed with the G80 PFIFO: nvm_g80_req / nvm_g80_res /
 * nvm_g80_translate / nvm_g80_read / nvm_g80_write. Adjusted: the fault
 * codes are NVM_G80_FAULT_* = 0x100 | the hardware reason (so 0 stays "no
 * fault" while PT_NOT_PRESENT, reason 0, is a fault); res->reason holds the
 * bare reason, and the result has more fields (page_size, dmaobj, ...).
 */
#ifndef NVMODEL_G80VM_H
#define NVMODEL_G80VM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/nvmodel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ---------------------------------------------------------------- codes */

/* Fault codes: 0x100 | the G80_VM_FAULT reason (g80_vm.xml), the value the
 * trap registers report. */
#define NVM_G80_FAULT_FLAG                 0x100u
#define NVM_G80_FAULT_REASON(f)            ((f)&0xffu)
#define NVM_G80_FAULT_NONE                 0u
#define NVM_G80_FAULT_PT_NOT_PRESENT       0x100u
#define NVM_G80_FAULT_PT_TOO_SHORT         0x101u
#define NVM_G80_FAULT_PAGE_NOT_PRESENT     0x102u
#define NVM_G80_FAULT_PAGE_SUPERVISOR_ONLY 0x103u
#define NVM_G80_FAULT_PAGE_READ_ONLY       0x104u
#define NVM_G80_FAULT_NO_CHANNEL           0x105u
#define NVM_G80_FAULT_NULL_DMAOBJ          0x106u
#define NVM_G80_FAULT_WRONG_MEMTYPE        0x107u
#define NVM_G80_FAULT_VRAM_LIMIT           0x10bu
#define NVM_G80_FAULT_DMAOBJ_LIMIT         0x10fu

/* Targets (seed 002): the 2-bit target field of channel descriptors, PDEs
 * and PTEs. 1 is "invalid, do not use" (P2P in a PTE, g80_vm.xml). */
#define NVM_G80_TGT_VRAM           0u
#define NVM_G80_TGT_INVALID        1u
#define NVM_G80_TGT_SYSRAM_SNOOP   2u
#define NVM_G80_TGT_SYSRAM_NOSNOOP 3u

/* VM engines used by the model's own clients (seed 002 "VM users"). */
#define NVM_G80_ENG_PGRAPH   0x0u
#define NVM_G80_ENG_PEEPHOLE 0x4u
#define NVM_G80_ENG_PFIFO    0x5u
#define NVM_G80_ENG_BAR      0x6u
#define NVM_G80_ENG_PFIFO_BG 0xcu
/* VM clients. */
#define NVM_G80_CLIENT_PFIFO_WRITE 0x4u
#define NVM_G80_CLIENT_PFIFO_READ  0x8u

/* Generations the VM differs by: G80 (original channel structure), G84..G98
 * (G84+ structure, encryption, VP2 engines), GT215 (medium pages, VP4 and
 * PCOPY engines, wide trap fields). */
#define NVM_G80_GEN_G80   0u
#define NVM_G80_GEN_G84   1u
#define NVM_G80_GEN_GT215 2u

/* Compression modes (DMA object 30:29, PTE 48:47). */
#define NVM_G80_COMP_NONE   0u
#define NVM_G80_COMP_SINGLE 1u
#define NVM_G80_COMP_DOUBLE 2u
#define NVM_G80_COMP_USEVM  3u /* DMA object only */

/* ---------------------------------------------------------------- decoders */

/* A DMA object: every field of its six words (seed 002 "DMA objects"). */
typedef struct nvm_g80_dmaobj {
	uint32_t w[6];
	unsigned cls;          /* word 0 15:0 */
	unsigned target;       /* 17:16: 0 VM (paged), 1 VRAM, 2 SYSRAM_SNOOP, 3 SYSRAM_NOSNOOP */
	unsigned ro;           /* 19:18: 0 from page tables, 1 read-only, 2 read-write */
	unsigned us;           /* 21:20: 0 from page tables, 1 user-supervisor, 2 supervisor-only */
	unsigned storage_type; /* 28:22; 0x7f: from page tables */
	unsigned comp;         /* 30:29: NVM_G80_COMP_* */
	bool supervisor;       /* 31: a supervisor DMA object */
	uint64_t limit;        /* word 1 + word 3 31:24 */
	uint64_t base;         /* word 2 + word 3 7:0 */
	unsigned tag_base;     /* word 4 11:0 */
	unsigned tag_limit;    /* word 4 27:16 */
	uint64_t comp_base;    /* word 5 15:0 << 16 */
	unsigned part_cycle;   /* word 5 17:16: 0 from page tables, 1 short, 2 long */
	unsigned encrypt;      /* word 5 19:18 [G84-]: 0 no, 1 yes, 2 from page tables */
} nvm_g80_dmaobj;

void nvm_g80_dmaobj_decode(const uint32_t w[6], nvm_g80_dmaobj *out);
/* The six words of a DMA object from its fields (cls .. encrypt; w ignored). */
void nvm_g80_dmaobj_encode(const nvm_g80_dmaobj *d, uint32_t w[6]);

/* A page directory entry (seed 002 "Page tables"). */
typedef struct nvm_g80_pde {
	uint64_t raw;
	unsigned type;      /* 1:0: 0 not present, 1 large, 2 medium [GT215-], 3 small */
	unsigned target;    /* 3:2 */
	unsigned bit4;      /* 4: unknown */
	unsigned size;      /* 6:5: small pages only: 0 full, 1 0x8000, 2 0x4000, 3 0x2000 entries */
	uint64_t addr;      /* 39:12 */
	uint64_t page_size; /* 0 when not present */
	uint32_t entries;   /* PTEs the table holds (the size limit applied) */
} nvm_g80_pde;

void nvm_g80_pde_decode(uint64_t raw, nvm_g80_pde *out);

/* A page table entry. */
typedef struct nvm_g80_pte {
	uint64_t raw;
	bool present;          /* 0 */
	unsigned unk1;         /* 2:1: unknown */
	bool ro;               /* 3 */
	unsigned target;       /* 5:4 */
	bool supervisor_only;  /* 6 */
	unsigned contig_log2;  /* 9:7 */
	uint64_t addr;         /* 39:12, with the low bits of the page size cleared by _addr() */
	unsigned storage_type; /* 46:40 */
	unsigned comp;         /* 48:47 */
	unsigned tag;          /* 60:49 */
	unsigned part_cycle;   /* 61: 0 short, 1 long */
	bool encrypted;        /* 62 [G84-] */
} nvm_g80_pte;

void nvm_g80_pte_decode(uint64_t raw, nvm_g80_pte *out);
/* The linear address of the first page the PTE maps for a page size
 * (bits 39:12, 39:14 or 39:16). */
uint64_t nvm_g80_pte_addr(uint64_t raw, uint64_t page_size);

/* ---------------------------------------------------------------- translation */

typedef struct nvm_g80_req {
	uint32_t chan;     /* channel descriptor (seed 002 "Channels"): 27:0 structure address 39:12, 29:28 target */
	uint32_t selector; /* DMA object selector, 16 bits; DMA object at structure + (selector << 4); 0 -> NULL_DMAOBJ
	                    */
	uint64_t offset;   /* logical address, 40 bits */
	unsigned engine, client, slot; /* VM engine, client id, DMA slot (seed 002 "VM users") */
	bool write, supervisor;
} nvm_g80_req;

typedef struct nvm_g80_res {
	unsigned fault;  /* 0 none, else NVM_G80_FAULT_* */
	unsigned reason; /* NVM_G80_FAULT_REASON(fault) when fault */
	nvm_aperture ap; /* VRAM or SYSMEM */
	unsigned target; /* NVM_G80_TGT_* */
	uint64_t addr;   /* linear (VRAM: 32 bits, seed 002) */
	uint64_t virt;   /* paged: the virtual address; unpaged: = addr */
	bool paged, ro, supervisor_only;
	unsigned storage_type, comp, tag, part_cycle; /* part_cycle: 0 short, 1 long */
	bool encrypted;
	uint64_t page_size; /* paged: 4, 16 or 64 KiB; unpaged: 4 KiB */
	uint64_t block;     /* contig block size in bytes (page_size << order) */
	nvm_g80_dmaobj dmaobj;
	bool tlb_hit;
	bool oob; /* a structure read lay outside its aperture */
} nvm_g80_res;

/* Translates through the chip's G80 VM (DMA object, TLB of req->engine,
 * page tables). A fault is recorded in the trap registers (0x100c90 /
 * 0x100c94) and reported as an NVM_EV_FAULT event (nvm_g80_fault_info); the
 * call returns NVM_ERR_FAULT then (res->fault tells which; as
 * nvm_mmu_translate does). NVM_ERR_NOENT when
 * the chip has no G80 VM. */
nvm_status nvm_g80_translate(nvm_gpu *gpu, const nvm_g80_req *req, nvm_g80_res *res);

/* Read / write len bytes at a logical address, crossing pages. On a fault
 * the fault is recorded as nvm_g80_translate does, *res (may be NULL) holds
 * it, nothing at or past the faulting page is transferred and the call
 * returns NVM_ERR_FAULT. Access checks use req->write as the direction. */
nvm_status nvm_g80_read(nvm_gpu *gpu, const nvm_g80_req *req, void *buf, size_t len, nvm_g80_res *res);
nvm_status nvm_g80_write(nvm_gpu *gpu, const nvm_g80_req *req, const void *buf, size_t len, nvm_g80_res *res);

/* BAR1 / BAR3 (bar 1 or 3): with HOST_MEM BAR1 / BAR3 (0x1708 / 0x170c)
 * MODE DMAOBJ, an offset is a logical address of the DMA object at selector
 * INST 15:0 in the BAR channel (0x1704 with WHICH = BAR), translated by VM
 * engine BAR as client PFIFO_WRITE / PFIFO_READ, DMA slot 0 (BAR1) or 1
 * (BAR3); with MODE VRAM it is a VRAM address. Reads and writes cross pages
 * and stop at a fault with NVM_ERR_FAULT. */
nvm_status nvm_g80_bar_translate(nvm_gpu *gpu, int bar, uint64_t off, bool write, nvm_g80_res *res);
nvm_status nvm_g80_bar_read(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len);
nvm_status nvm_g80_bar_write(nvm_gpu *gpu, int bar, uint64_t off, const void *buf, size_t len);

/* Flush the TLB of one VM engine at once (what 0x100c80 does when its flush
 * completes). */
nvm_status nvm_g80_tlb_flush(nvm_gpu *gpu, unsigned engine);

/* Report every use of a TLB entry whose page tables changed since it was
 * filled as an NVM_EV_GUEST_ERROR "stale_tlb" (as nvm_mmu_set_strict_tlb). */
nvm_status nvm_g80_set_strict_tlb(nvm_gpu *gpu, bool on);

/* A VM fault (what the trap registers hold): the record of the NVM_EV_FAULT
 * event of block "g80vm" (nvm_event.detail; code the reason name, addr the
 * logical address, value the reason), sent for every VM fault whether the
 * trap registers took it or not. */
typedef struct nvm_g80_fault_info {
	unsigned reason, engine, client, slot;
	uint32_t chan;
	uint64_t offset; /* the logical address */
	bool write;
} nvm_g80_fault_info;

typedef struct nvm_g80_stats {
	uint64_t translations, tlb_hits, walks, faults, flushes, tlb_entries;
} nvm_g80_stats;
nvm_status nvm_g80_get_stats(const nvm_gpu *gpu, nvm_g80_stats *out);

/* ---------------------------------------------------------------- pure walk (tools) */

/* One translation over guest memory only (no TLB, no trap registers, no
 * events): for tools over memory images. gen NVM_G80_GEN_G84 and later use
 * the G84+ channel structure (page directory at 0x200, not 0x1400) and the
 * encryption flag; GT215 allows medium pages. Every read is bounds-checked. */
typedef struct nvm_g80_layout {
	unsigned gen;       /* NVM_G80_GEN_* */
	uint32_t pd_offset; /* 0: the default of the generation (0x1400 / 0x200) */
} nvm_g80_layout;

typedef struct nvm_g80_walk_trace {
	uint64_t chan_base;
	nvm_aperture chan_ap;
	uint64_t dmaobj_addr;
	bool have_dmaobj, have_pde, have_pte;
	uint64_t pde_addr, pte_addr;
	nvm_aperture pt_ap;
	unsigned pde_index, pte_index;
	nvm_g80_pde pde;
	nvm_g80_pte pte;
} nvm_g80_walk_trace;

/* NVM_ERR_FAULT when res holds a fault (as nvm_g80_translate). */
nvm_status nvm_g80_walk(nvm_gpu *gpu, const nvm_g80_layout *lay, const nvm_g80_req *req, nvm_g80_res *res,
                        nvm_g80_walk_trace *trace);

/* One present PTE of a channel's page tables, for nvm_g80_enum. */
typedef struct nvm_g80_mapping {
	uint64_t virt;      /* virtual address of the page */
	uint64_t page_size; /* 4, 16 or 64 KiB */
	uint64_t lin;       /* linear address of the page (contig blocks applied) */
	nvm_g80_pte pte;
} nvm_g80_mapping;

typedef struct nvm_g80_enum_ops {
	/* Every present page table (PDE) and every present page, in virtual
	 * address order; either may be NULL; a non-zero return stops. */
	int (*pde)(void *user, unsigned index, uint64_t pde_addr, const nvm_g80_pde *pde);
	int (*map)(void *user, const nvm_g80_mapping *m);
	void *user;
} nvm_g80_enum_ops;

/* Walks every page table of the channel chan (descriptor) over guest
 * memory. Stops after max_entries PTEs read (NVM_ERR_RANGE then);
 * NVM_ERR_ARG for the invalid channel target, NVM_ERR_NOENT when the page
 * directory lies outside memory. Tables outside memory are skipped. */
nvm_status nvm_g80_enum(nvm_gpu *gpu, const nvm_g80_layout *lay, uint32_t chan, uint64_t max_entries,
                        const nvm_g80_enum_ops *ops);

/* The layout of the GPU's chip; NVM_ERR_NOENT without a G80 VM. */
nvm_status nvm_g80_chip_layout(const nvm_gpu *gpu, nvm_g80_layout *out);

/* The fifo engines' context DMA objects at their fixed selectors (seed 002
 * "DMA objects": 0x20.. on G80, 0x2.. on G84+), for the GPU's chip. */
typedef struct nvm_g80_ctxsel {
	unsigned selector;
	const char *engine; /* "PGRAPH", "PMPEG", ... */
} nvm_g80_ctxsel;
size_t nvm_g80_ctx_selectors(const nvm_gpu *gpu, const nvm_g80_ctxsel **out);

/* ---------------------------------------------------------------- names */

const char *nvm_g80_fault_name(unsigned reason); /* "PT_NOT_PRESENT"; NULL if unknown */
/* Names by generation (the variants of g80_vm.xml): NULL if unknown. */
const char *nvm_g80_engine_name(unsigned engine, unsigned gen); /* "PGRAPH" */
const char *nvm_g80_client_name(unsigned client, unsigned gen); /* "DISPATCH" */
/* The DMA slot's name written into buf: "PGRAPH NOTIFY" for 0/3/1 (ranges:
 * "PGRAPH RT 3" for 0/b/3); NULL if the triple is not in seed 002's DMA
 * slot table for that generation, or buf is NULL / len 0. */
const char *nvm_g80_slot_name(unsigned engine, unsigned client, unsigned slot, unsigned gen, char *buf, size_t len);
const char *nvm_g80_target_name(unsigned target);     /* "VRAM", "INVALID", "SYSRAM_SNOOP", "SYSRAM_NOSNOOP" */
const char *nvm_g80_storage_type_name(unsigned type); /* g80_vm.xml G80_STORAGE_TYPE; NULL if unknown */

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
