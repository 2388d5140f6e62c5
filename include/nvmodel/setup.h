/*
 * nvmodel — channel set-up helpers: what a driver writes to start a channel,
 * done once in the library for every program that embeds the model (the Lua
 * builders nvmodel.volta are thin wrappers over these).
 *
 * Everything here works the way a driver does: it writes simulated memory
 * (nvm_mem_write) and registers (nvm_reg_write/read) and never reaches into
 * the model. The layouts come from the tables the model itself reads:
 * RAMFC and runlist entries from host_fmt.h (nvm_hf_layout_chip,
 * nvm_rl_entry_encode), the page-table format from nvm_mmu_format. What a
 * driver does differently on each Host generation (gv100, tu102, ga100,
 * ga102, gh100: the runlist submit registers, the doorbell, channel enable)
 * is a row of a table per generation (src/setup/host.c). For the PFIFO of
 * NV04..NV4x: RAMHT, RAMFC, DMA objects, channels (src/setup/nv04.c).
 *
 * Where things go in memory (heaps, order, default VA) is the helpers'
 * choice, not a hardware fact (docs/fidelity.md "setup/host").
 *
 * Conventions: every call returns a status (NVM_OK, or an error with nothing
 * or, where said, part of the work done); the library prints nothing. A
 * heap or GPFIFO ring that is full is NVM_ERR_FULL (for a ring: run the
 * GPU, then push again); NVM_ERR_NOMEM is always the host's memory or the
 * GPU's memory budget (nvm_config); NVM_ERR_RANGE from a memory write is an
 * address outside the aperture (a heap placed past the end of VRAM).
 * Functions that write memory or registers take the gpu each call, so no
 * helper object keeps a GPU alive or dangling: use one with the GPU it was
 * made for. Flags are bool.
 */
#ifndef NVMODEL_SETUP_H
#define NVMODEL_SETUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/g80vm.h"
#include "nvmodel/host_fmt.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"
#include "nvmodel/pfifo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ---------------------------------------------------------------- places */

/* An address in an aperture as the Host's structures name it: target is
 * the NV_RAMIN_PAGE_DIR_BASE_TARGET / RAMRL INST_TARGET / PTE APERTURE
 * encoding (NVM_MMU_TGT_VID, _SYS_COH, _SYS_NCOH; PEER is not a place the
 * helpers can write). */
typedef struct nvm_place {
	nvm_mmu_target target;
	uint64_t addr;
} nvm_place;

/* The model's memory behind a target: VRAM for VID, system memory for both
 * SYS targets. NVM_ERR_APERTURE for PEER or an unknown value. */
nvm_status nvm_target_aperture(nvm_mmu_target target, nvm_aperture *out);

/* ---------------------------------------------------------------- heap */

/* A bump allocator over [base, base + size) of a target. Plain data: the
 * caller owns it (on the stack, in its own object); next is the first free
 * byte. Allocations are never given back. */
typedef struct nvm_heap {
	nvm_mmu_target target;
	uint64_t base, size, next;
} nvm_heap;

/* NVM_ERR_APERTURE: a target without memory; NVM_ERR_RANGE: base + size
 * wraps around; NVM_ERR_ARG: size 0. */
nvm_status nvm_heap_init(nvm_heap *h, nvm_mmu_target target, uint64_t base, uint64_t size);
/* size bytes aligned to align (a power of two; 0 means 4096) at *addr.
 * NVM_ERR_ARG: size 0 or align not a power of two; NVM_ERR_FULL: it does
 * not fit (the heap is unchanged). The memory is not cleared. */
nvm_status nvm_heap_alloc(nvm_heap *h, uint64_t size, uint64_t align, uint64_t *addr);

/* ---------------------------------------------------------------- GMMU page tables */

/* A page-table builder for the GMMU of gpu's chip, in the format its
 * generation reads (nvm_mmu_format): ver2 (PDE3 -> PDE2 -> PDE1 -> dual
 * PDE0 -> 64 KiB or 4 KiB page table, or a 2 MiB PTE in the dual PDE0
 * slot) or ver3 (gh100: PDE4 above, 4 KiB and 64 KiB pages). Tables come
 * from the heap, zeroed (every entry invalid); the builder remembers what it
 * wrote, so nothing is read back from memory. VAs below 2^49 in both
 * formats. */
typedef struct nvm_gmmu_vm nvm_gmmu_vm;

#define NVM_GMMU_VA_LIMIT (1ull << 49)

/* Makes the root directory (4 KiB, 4 KiB aligned) in heap, which the
 * builder keeps using for its tables (the heap must outlive it). va_base is
 * where nvm_gmmu_alloc_map starts handing out VAs. NVM_ERR_CHIP: gpu's chip
 * has no GMMU; NVM_ERR_FULL: the heap is full; NVM_ERR_RANGE: a table lands
 * beyond the PDE address field of the heap's target (or the memory); NVM_ERR_NOMEM:
 * no host memory, or the GPU's memory budget is spent. */
nvm_status nvm_gmmu_vm_create(nvm_gpu *gpu, nvm_heap *heap, uint64_t va_base, nvm_gmmu_vm **out);
void nvm_gmmu_vm_free(nvm_gmmu_vm *vm);
/* The page directory base to give an instance block (NV_RAMIN_PAGE_DIR_BASE). */
nvm_place nvm_gmmu_vm_pdb(const nvm_gmmu_vm *vm);
/* 1 when the builder writes the ver3 format. */
bool nvm_gmmu_vm_ver3(const nvm_gmmu_vm *vm);
/* The next VA nvm_gmmu_alloc_map would start from. */
uint64_t nvm_gmmu_vm_next_va(const nvm_gmmu_vm *vm);
/* Host memory the builder holds (its directory records and mappings), in
 * bytes: for a caller that budgets its host memory. */
size_t nvm_gmmu_vm_footprint(const nvm_gmmu_vm *vm);

typedef struct nvm_gmmu_map_opts {
	uint32_t page;       /* 4096 (also 0), 65536 or 0x200000 (ver2 only) */
	uint32_t kind;       /* PTE KIND: ver2 63:56 (0..0xff), ver3 11:8 (0..0xf) */
	bool vol;            /* ver2 VOL 3:3; ver3 PCF UNCACHED */
	bool priv;           /* ver2 PRIVILEGE 5:5; ver3 PCF PRIVILEGE */
	bool ro;             /* ver2 READ_ONLY 6:6; ver3 PCF READ_ONLY */
	bool atomic_disable; /* ver2 ATOMIC_DISABLE 7:7; ver3 PCF NO_ATOMIC */
} nvm_gmmu_map_opts;

/* The ver2 PTE for pa in target with the attributes of o (NULL: none):
 * VALID 0:0, APERTURE 2:1, VOL 3:3, PRIVILEGE 5:5, READ_ONLY 6:6,
 * ATOMIC_DISABLE 7:7, ADDRESS 53:8 = pa >> 12, KIND 63:56. NVM_ERR_ARG: a
 * kind above 0xff; NVM_ERR_RANGE: pa beyond the target's address field
 * (VID 37 bits, SYS 58). */
nvm_status nvm_gmmu_pte_ver2(nvm_mmu_target target, uint64_t pa, const nvm_gmmu_map_opts *o, uint64_t *pte);

/* Why [va, va + size) cannot be mapped with pages of page bytes: 0 when it
 * can; NVM_ERR_ARG with *where set to the first 2 MiB slot in the way when a
 * 2 MiB page would share a dual PDE0 with page tables, or a smaller page a
 * slot that holds a 2 MiB page. Nothing is written. */
nvm_status nvm_gmmu_map_conflict(const nvm_gmmu_vm *vm, uint64_t va, uint64_t size, uint32_t page, uint64_t *where);

/* Maps [va, va + size) to [pa, pa + size) of target with pages of o->page.
 * NVM_ERR_ARG: a bad page size or kind, a 2 MiB page on ver3, or a conflict
 * (nvm_gmmu_map_conflict; checked before anything is written); NVM_ERR_ALIGN:
 * va, pa or size not a multiple of the page; NVM_ERR_RANGE: past the VA
 * limit or the target's PTE address bits; NVM_ERR_FULL: the heap is
 * full (the tables made so far stay); NVM_ERR_NOMEM as nvm_gmmu_vm_create. */
nvm_status nvm_gmmu_map(nvm_gpu *gpu, nvm_gmmu_vm *vm, uint64_t va, nvm_mmu_target target, uint64_t pa, uint64_t size,
                        const nvm_gmmu_map_opts *o);
/* Allocates size bytes (rounded up to the page) from heap (NULL: the VM's),
 * maps them at the next free VA; *va, *pa (either may be NULL) get where. */
nvm_status nvm_gmmu_alloc_map(nvm_gpu *gpu, nvm_gmmu_vm *vm, nvm_heap *heap, uint64_t size, const nvm_gmmu_map_opts *o,
                              uint64_t *va, nvm_place *pa);
/* What this builder mapped at va (the latest mapping wins, as its PTEs were
 * written last): *pa and the bytes *left in that mapping. NVM_ERR_NOENT
 * when the builder mapped nothing there. */
nvm_status nvm_gmmu_lookup(const nvm_gmmu_vm *vm, uint64_t va, nvm_place *pa, uint64_t *left);
/* CPU access by VA through the builder's own records (a driver's CPU
 * mapping). NVM_ERR_NOENT: a byte of the span is not mapped (nothing of a
 * write is done then). */
nvm_status nvm_gmmu_write(nvm_gpu *gpu, const nvm_gmmu_vm *vm, uint64_t va, const void *buf, size_t len);
nvm_status nvm_gmmu_read(nvm_gpu *gpu, const nvm_gmmu_vm *vm, uint64_t va, void *buf, size_t len);

/* ---------------------------------------------------------------- Host generations */

/* What the helpers know of gpu's Host generation. */
typedef struct nvm_setup_host_info {
	const char *name;       /* "gv100", "tu102", "ga100", "ga102", "gh100" */
	unsigned nrunlist;      /* runlist ids the submit registers take */
	unsigned nchid;         /* channel ids (PCCSR 4096; Ampere CHRAM 2048 per runlist) */
	bool ramfc_userd;       /* RAMFC holds USERD (before Ampere) */
	bool per_runlist_chram; /* channels enabled in the runlist's channel RAM (Ampere, Hopper) */
	uint32_t subdevice;     /* the SUBDEVICE ID the driver writes by default */
} nvm_setup_host_info;

/* NVM_ERR_CHIP: gpu's chip has no Host these helpers know. */
nvm_status nvm_setup_host_get(const nvm_gpu *gpu, nvm_setup_host_info *out);
/* The driver's once-per-GPU writes before the first channel (tu102: NV_CTRL
 * VIRTUAL_CHANNEL_CFG PENDING_ENABLE; nothing on the others). Call once. */
nvm_status nvm_setup_host_init(nvm_gpu *gpu);

/* An Ampere/Hopper runlist's register space as a driver finds it through
 * the device-info table (NV_PTOP_DEVICE_INFO): runlist ids count the
 * distinct RUNLIST PRI bases in table order. NVM_ERR_NOENT: the table
 * publishes fewer runlists (*count gets how many, if count is not NULL). */
typedef struct nvm_runlist_space {
	uint32_t base;  /* the runlist's PRI base */
	uint32_t chram; /* NV_RUNLIST_CHANNEL_CONFIG 31:4: its channel RAM */
	uint32_t dbid;  /* NV_RUNLIST_DOORBELL_CONFIG ID 31:16 */
} nvm_runlist_space;
nvm_status nvm_runlist_space_get(nvm_gpu *gpu, unsigned id, nvm_runlist_space *out, unsigned *count);

/* ---------------------------------------------------------------- instance block */

/* An instance block as nouveau writes it (RAMFC, volta-facts.md section 3,
 * then the memory-management words of RAMIN). Start from
 * nvm_instance_desc_init, which sets the defaults. */
typedef struct nvm_instance_desc {
	nvm_place pdb;           /* page directory (nvm_gmmu_vm_pdb), 4 KiB aligned */
	nvm_place userd;         /* 512-byte aligned, below 2^40 */
	uint64_t gpfifo_va;      /* 8-byte aligned, below 2^40 */
	uint32_t gpfifo_entries; /* a power of two (LIMIT2 is its log2) */
	uint32_t chid;           /* below 4096 */
	bool priv;               /* HCE_PRIV_MODE and CONFIG AUTH_LEVEL (default true) */
	int64_t subdevice;       /* SUBDEVICE ID; -1 (default): the generation's */
	bool replay;             /* PAGE_DIR_BASE FAULT_REPLAY_TEX/GCC */
	int vol;                 /* PAGE_DIR_BASE_VOL; -1 (default): when the directory is in coherent sysmem */
	unsigned subcontexts;    /* subcontexts bound to the directory, 0..64 (default 1) */
	bool ctx_valid;          /* TARGET ENG_CTX_VALID and CE_CTX_VALID (default true) */
} nvm_instance_desc;

void nvm_instance_desc_init(nvm_instance_desc *d);
/* Writes the 4 KiB block at inst (4 KiB aligned, below 2^40) for gpu's
 * Host generation: the RAMFC words at the offsets of its RAMFC layout
 * (nvm_hf_layout_chip), then PAGE_DIR_BASE and the subcontext directories.
 * NVM_ERR_ALIGN / NVM_ERR_RANGE / NVM_ERR_ARG for the fields named above;
 * NVM_ERR_CHIP: no Host. */
nvm_status nvm_instance_write(nvm_gpu *gpu, nvm_place inst, const nvm_instance_desc *d);

/* ---------------------------------------------------------------- GP entries */

typedef struct nvm_gp_opts {
	bool fetch_conditional; /* FETCH 0:0 */
	bool priv;              /* PRIV 8:8 (KERNEL) */
	bool subroutine;        /* LEVEL 9:9 */
	bool sync;              /* SYNC 31:31 (WAIT) */
} nvm_gp_opts;

/* The GP entry for ndwords (1 .. 2^21 - 1) of pushbuffer at va (4-byte
 * aligned, below 2^40): E0 FETCH 0:0, GET 31:2; E1 GET_HI 7:0, PRIV 8:8,
 * LEVEL 9:9, LENGTH 30:10, SYNC 31:31 (gv100_dev_pbdma NV_PPBDMA_GP_ENTRY*).
 * o may be NULL. NVM_ERR_ALIGN, NVM_ERR_RANGE, NVM_ERR_ARG (ndwords). */
nvm_status nvm_gp_entry(uint64_t va, uint32_t ndwords, const nvm_gp_opts *o, uint32_t *e0, uint32_t *e1);
/* A control entry (LENGTH 0): E0 OPERAND, E1 OPCODE 7:0 (NOP 0, ILLEGAL 1,
 * GP_CRC 2, PB_CRC 3) and SYNC 31:31. */
void nvm_gp_control(uint8_t opcode, uint32_t operand, bool sync, uint32_t *e0, uint32_t *e1);

/* ---------------------------------------------------------------- channels */

/* A channel of a Host generation: instance block, USERD, GPFIFO ring and
 * pushbuffer area mapped in a VM. Plain data the caller owns; the push
 * calls keep put and pb_next. */
typedef struct nvm_setup_channel {
	uint32_t chid;
	unsigned runq; /* RUNQUEUE_SELECTOR */
	int runlist;   /* the runlist id it was made for, or -1 */
	int submitted; /* the runlist it was last submitted on (the caller sets it), or -1 */
	nvm_place inst, userd;
	uint64_t gpfifo_va;
	nvm_place gpfifo; /* the ring's memory */
	uint32_t gpfifo_entries;
	uint64_t pb_va;
	nvm_place pb;              /* the pushbuffer area's memory */
	uint64_t pb_size, pb_next; /* pb_next: offset of the next segment */
	uint32_t put;              /* GP_PUT as the channel last wrote it */
} nvm_setup_channel;

/* Start from nvm_channel_desc_init. */
typedef struct nvm_channel_desc {
	uint32_t chid;
	unsigned runq;           /* 0..1 */
	int runlist;             /* -1 (default): not known until submitted */
	uint32_t gpfifo_entries; /* a power of two, default 512 */
	uint64_t pb_size;        /* a multiple of 4, default 64 KiB */
	nvm_heap *userd_heap;    /* NULL (default): the channel's heap */
	bool priv, replay;       /* nvm_instance_desc's */
	int64_t subdevice;
	unsigned subcontexts;
	bool bind, enable; /* bind (and enable) the channel (default true, true) */
} nvm_channel_desc;

void nvm_channel_desc_init(nvm_channel_desc *d);
/* Allocates from heap (NULL: the VM's) the instance block (4 KiB), from
 * the USERD heap the 512-byte USERD (zeroed), maps the GPFIFO ring and the
 * pushbuffer area in vm, writes the instance block and binds / enables the
 * channel. NVM_ERR_ARG for a field out of its range; the heap's and the
 * map's errors (what was allocated before stays allocated). */
nvm_status nvm_channel_create(nvm_gpu *gpu, nvm_gmmu_vm *vm, nvm_heap *heap, const nvm_channel_desc *d,
                              nvm_setup_channel *out);
/* PCCSR CHANNEL_INST bind (gv100, tu102; nothing on Ampere, whose runlist
 * entry carries the instance block), enable, disable (PCCSR ENABLE_SET /
 * ENABLE_CLR, or CHRAM ENABLE/DISABLE_CHANNEL and the runlist's internal
 * doorbell). NVM_ERR_NOENT: an Ampere runlist the device-info table lacks. */
nvm_status nvm_channel_bind(nvm_gpu *gpu, const nvm_setup_channel *ch);
nvm_status nvm_channel_enable(nvm_gpu *gpu, const nvm_setup_channel *ch);
nvm_status nvm_channel_disable(nvm_gpu *gpu, const nvm_setup_channel *ch);
/* The USERD word at byte offset off (NV_RAMUSERD_GP_GET ...: nvm_hf_layout_chip(NVM_HF_USERD)). */
nvm_status nvm_channel_userd_rd32(nvm_gpu *gpu, const nvm_setup_channel *ch, uint32_t off, uint32_t *val);
/* Publishes put in USERD GP_PUT and rings the generation's doorbell. */
nvm_status nvm_channel_kick(nvm_gpu *gpu, const nvm_setup_channel *ch);
/* Writes GP entry (e0, e1) at put, advances put and, when kick, kicks.
 * *index (may be NULL) gets the entry's index. NVM_ERR_FULL: the ring is
 * full (advancing put would reach USERD GP_GET); nothing is written. */
nvm_status nvm_channel_push_entry(nvm_gpu *gpu, nvm_setup_channel *ch, uint32_t e0, uint32_t e1, bool kick,
                                  uint32_t *index);
/* Copies len bytes of pushbuffer (a multiple of 4, not 0) into the area and
 * pushes a GP entry for it; the area starts again at its beginning only once
 * Host has processed every entry. *index and *va (may be NULL) get the GP
 * index and the segment's VA. NVM_ERR_FULL: the ring is full, or the
 * area is and Host has not caught up (nothing is written); NVM_ERR_RANGE: len exceeds pb_size. */
nvm_status nvm_channel_push(nvm_gpu *gpu, nvm_setup_channel *ch, const void *data, size_t len, const nvm_gp_opts *o,
                            bool kick, uint32_t *index, uint64_t *va);

/* ---------------------------------------------------------------- runlists */

/* Runlist entries (host_fmt.h nvm_rl_entry): a TSG header, then its
 * channels. timeout 128 and scale 3 are nouveau's. */
void nvm_rl_tsg(nvm_rl_entry *e, uint32_t tsgid, unsigned length, unsigned timeout, unsigned scale);
void nvm_rl_chan(nvm_rl_entry *e, uint32_t chid, unsigned runq, nvm_place inst, nvm_place userd);

/* Writes n entries (nvm_rl_entry_encode) to a 4 KiB-aligned block of heap
 * (16 bytes at least) at *out. NVM_ERR_ARG: more than 0xffff entries
 * (NV_PFIFO_RUNLIST_LENGTH); the heap's errors. */
nvm_status nvm_runlist_write(nvm_gpu *gpu, nvm_heap *heap, const nvm_rl_entry *e, size_t n, nvm_place *out);
/* Submits the runlist of length entries at rl as runlist id through the
 * generation's registers (gv100 RUNLIST_BASE/RUNLIST, tu102 per-runlist
 * RUNLIST_BASE_LO/HI/SUBMIT, Ampere the runlist space's SUBMIT_BASE_LO/HI/
 * SUBMIT). NVM_ERR_ARG: id beyond nrunlist; NVM_ERR_RANGE: rl beyond the
 * 40 bits of gv100/tu102's pointer; NVM_ERR_NOENT: an Ampere runlist the
 * device-info table lacks. */
nvm_status nvm_runlist_submit(nvm_gpu *gpu, unsigned id, nvm_place rl, uint32_t length);
/* *pending = the submitted runlist has not been taken yet (ENG_RUNLIST
 * PENDING on gv100, RUNLIST_SUBMIT_INFO PENDING after). */
nvm_status nvm_runlist_pending(nvm_gpu *gpu, unsigned id, bool *pending);

/* ---------------------------------------------------------------- PFIFO: NV04 .. NV4x */

/* PFIFO of nv04, nv10, nv11, nv17, nv40, nv41 as nouveau's nv04 / nv17 /
 * nv40 fifo init sets it up: RAMHT at RAMIN 0x10000 (4096 entries, SEARCH
 * 128), RAMRO at 0x18800 (NV40: 0x18000), RAMFC at 0x18000 (NV40: 0x20000;
 * RAMFC LARGE where the chip has it). Objects come from a bump allocator in
 * RAMIN from 0x30000 (the helpers' choice). RAMIN is written through the
 * PRAMIN window (BAR0 0x700000), as a driver does. The layouts come from the
 * model's tables: the RAMFC fields (nvm_pfifo_ramfc_layout), the RAMHT slot
 * (nvm_pfifo_ramht_slot) and context word (nvm_pfifo_ramht_context). */
typedef struct nvm_nv04_fifo {
	const char *chip;
	uint32_t ramht, ramht_bits, ramro, ramfc, ramfc_size;
	uint32_t nchan;
	bool large;    /* RAMFC LARGE (64-byte entries, NV1A+) */
	bool nv40;     /* NV40's registers (RAMFC at 0x2220, USER at 0xC00000) */
	uint32_t next; /* the allocator's next free RAMIN byte */
} nvm_nv04_fifo;

/* Fills f for gpu's chip and writes the PFIFO init. NVM_ERR_CHIP: not an
 * NV04..NV4x PFIFO. */
nvm_status nvm_nv04_fifo_init(nvm_gpu *gpu, nvm_nv04_fifo *f);
/* size bytes of RAMIN aligned to align (0: 16) at *inst. NVM_ERR_FULL past
 * the PRAMIN window (1 MiB). */
nvm_status nvm_nv04_alloc(nvm_nv04_fifo *f, uint32_t size, uint32_t align, uint32_t *inst);

/* An NV04 DMA object as nouveau's nv04_dmaobj_bind writes it: class,
 * PT_PRESENT | PT_LINEAR, ACCESS 15:14, TARGET 17:16, ADJUST 31:20; the
 * limit; the page frame (PAGE_RW unless read-only), twice. */
typedef struct nvm_nv04_dmaobj {
	uint32_t class_id;     /* 0x3d (0x02, 0x03 ...) */
	unsigned target;       /* 0 VRAM, 2 PCI, 3 AGP */
	unsigned access;       /* 0 RW, 1 RO, 2 WO */
	uint32_t start, limit; /* byte addresses, limit >= start */
} nvm_nv04_dmaobj;
/* Writes o at inst (16-byte aligned), or at a fresh allocation when inst
 * is NULL or *inst is UINT32_MAX; *inst gets where. */
nvm_status nvm_nv04_dmaobj_write(nvm_gpu *gpu, nvm_nv04_fifo *f, const nvm_nv04_dmaobj *o, uint32_t *inst);
/* An engine object: its class in the first word of 16 fresh bytes. */
nvm_status nvm_nv04_object(nvm_gpu *gpu, nvm_nv04_fifo *f, uint32_t class_id, uint32_t *inst);
/* Inserts handle -> the object at inst (engine: 0 SOFTWARE, 1 PGRAPH, ...)
 * for channel chid at the first free entry from its hash slot
 * (nvkm_ramht_insert); *addr (may be NULL) gets the entry's RAMIN address.
 * NVM_ERR_FULL: no free entry. */
nvm_status nvm_nv04_ramht_add(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, uint32_t handle, uint32_t inst,
                              unsigned engine, uint32_t *addr);
/* Sets field name ("DMA_PUT", "DMA_INSTANCE", ...: nvm_pfifo_ramfc_layout)
 * of channel chid's RAMFC entry to a register value v, as the model saves
 * it. NVM_ERR_NOENT: the chip's layout has no such field. */
nvm_status nvm_nv04_ramfc_set(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, const char *name, uint32_t v);
/* A DMA channel as nouveau creates one: RAMFC DMA_PUT = DMA_GET = offset,
 * DMA_INSTANCE = the pushbuffer object, DMA_FETCH TRIG 128 / SIZE 128 /
 * MAX_REQS 8 (BIG_ENDIAN on request), on NV40 SLI and DMA_TIMESLICE; then
 * MODE bit chid (0x2504). */
nvm_status nvm_nv04_dma_channel(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, uint32_t pushbuf_inst,
                                uint32_t offset, bool big_endian);
/* Channel chid's USER area (BAR0 0x800000 + chid * 0x10000; NV40 DMA
 * channels 0xC00000 + chid * 0x1000): DMA_PUT at +0x40, GET +0x44, REF +0x48. */
uint32_t nvm_nv04_user(const nvm_nv04_fifo *f, uint32_t chid);
/* Writes DMA_PUT (USER + 0x40): the channel fetches up to put. */
nvm_status nvm_nv04_kick(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, uint32_t put);
/* A PIO store to channel chid, subchannel subch, method (seed 001). */
nvm_status nvm_nv04_pio(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, unsigned subch, uint32_t method,
                        uint32_t data);

/* ---------------------------------------------------------------- G80 VM (g80, g84, g92, gt215) */

/* The G80 VM as nouveau's nv50 code sets it up (seed 002; docs/g80.md):
 * channel structures, DMA objects (the model's nvm_g80_dmaobj_encode),
 * page directories at the generation's offset (nvm_g80_chip_layout),
 * page tables and PTEs. Targets are the structures' encodings: 0 VRAM,
 * 2 SYSRAM (snooped), 3 SYSRAM_NOSNOOP (NVM_MMU_TGT_VID, _SYS_COH, _SYS_NCOH). */

/* A channel descriptor (seed 002 "Channels"): 27:0 the structure's address
 * 39:12, 29:28 its target. NVM_ERR_ALIGN: addr not 4 KiB aligned;
 * NVM_ERR_RANGE: beyond 40 bits. */
nvm_status nvm_g80_chan_desc(uint64_t addr, nvm_mmu_target target, uint32_t *desc);

typedef struct nvm_g80_pte_desc {
	uint64_t addr;         /* 39:12 */
	nvm_mmu_target target; /* 5:4 */
	bool ro, supervisor;   /* 3, 6 */
	unsigned contig;       /* 9:7: log2 of the pages this PTE's block covers */
	unsigned storage;      /* 46:40 */
	unsigned comp;         /* 48:47 (0..2) */
	unsigned tag;          /* 60:49 */
	bool long_cycle;       /* 61: partition cycle long */
	bool encrypted;        /* 62 */
} nvm_g80_pte_desc;
/* NVM_ERR_ARG / NVM_ERR_RANGE for a field beyond its bits. */
nvm_status nvm_g80_pte_make(const nvm_g80_pte_desc *p, uint64_t *pte);
/* A PDE for a table of pages of page bytes (0x1000, 0x4000, 0x10000) with
 * entries PTEs (0: the full 2^29 / page; small pages also 0x8000, 0x4000,
 * 0x2000) at addr in target. */
nvm_status nvm_g80_pde_make(uint32_t page, uint32_t entries, uint64_t addr, nvm_mmu_target target, uint64_t *pde);

/* A channel structure with its page directory and a heap for page tables.
 * Start from nvm_g80_vm_desc_init. */
typedef struct nvm_g80_vm_desc {
	uint64_t addr;         /* the structure, 4 KiB aligned */
	nvm_mmu_target target; /* where it, the page directory and the page tables live */
	uint64_t objects; /* offset of the DMA-object area (UINT64_MAX, default: after the page directory + 0x4000) */
	uint64_t heap;    /* address of the page tables' heap (UINT64_MAX, default: addr + 0x10000) */
} nvm_g80_vm_desc;
void nvm_g80_vm_desc_init(nvm_g80_vm_desc *d);

typedef struct nvm_g80_vmb nvm_g80_vmb;
/* NVM_ERR_CHIP: gpu's chip has no G80 VM. Nothing is written yet. */
nvm_status nvm_g80_vmb_create(nvm_gpu *gpu, const nvm_g80_vm_desc *d, nvm_g80_vmb **out);
void nvm_g80_vmb_free(nvm_g80_vmb *vm);
/* Its channel descriptor (nvm_g80_chan_desc). */
uint32_t nvm_g80_vmb_desc(const nvm_g80_vmb *vm);
/* Host memory the builder holds, in bytes (its page-table index is made on the first map). */
size_t nvm_g80_vmb_footprint(const nvm_g80_vmb *vm);
/* Writes DMA object o (nvm_g80_dmaobj's fields; w ignored) at selector
 * *sel, or at the next free one when *sel is 0 (32-byte steps in the
 * object area); *sel gets it. NVM_ERR_ARG: a selector beyond 0xffff. */
nvm_status nvm_g80_vmb_dmaobj(nvm_gpu *gpu, nvm_g80_vmb *vm, const nvm_g80_dmaobj *o, uint32_t *sel);

/* A mapping: size bytes at virt to lin, pages of page bytes, PTE attributes
 * from pte (its addr and contig are set per page). Start from
 * nvm_g80_map_desc_init (4 KiB pages, full tables, contiguous blocks). */
typedef struct nvm_g80_map_desc {
	uint64_t virt, lin, size;
	uint32_t page;    /* 0x1000, 0x4000 (gt215), 0x10000 */
	uint32_t entries; /* of a page table made for it (0: full) */
	bool contig;      /* PTE CONTIG blocks of up to 128 pages, as nouveau writes them */
	nvm_g80_pte_desc pte;
} nvm_g80_map_desc;
void nvm_g80_map_desc_init(nvm_g80_map_desc *m);
/* Writes the PTEs (and the page tables and PDEs they need). NVM_ERR_ALIGN:
 * virt, lin or size not a multiple of the page; NVM_ERR_ARG: a bad page
 * size (medium pages before gt215), or a PDE that already has pages of
 * another size; NVM_ERR_RANGE: a page beyond its page table. For the last
 * two *bad (may be NULL) gets the VA, and the PTEs before it are written;
 * NVM_ERR_RANGE also when the mapping passes 2^40 (*bad = 2^40, nothing written). */
nvm_status nvm_g80_vmb_map(nvm_gpu *gpu, nvm_g80_vmb *vm, const nvm_g80_map_desc *m, uint64_t *bad);
/* Clears the PTEs of [virt, virt + size) where page tables exist. */
nvm_status nvm_g80_vmb_unmap(nvm_gpu *gpu, nvm_g80_vmb *vm, uint64_t virt, uint64_t size, uint32_t page);
/* The page table under PDE i: its address, page size and entries; NVM_ERR_NOENT if none. */
nvm_status nvm_g80_vmb_pt(const nvm_g80_vmb *vm, unsigned i, uint64_t *addr, uint32_t *page, uint32_t *entries);

/* BAR1 and BAR3 as nouveau's nv50 bar code sets them up: a channel
 * structure at mem (VRAM; objects at +0x5000, page tables from mem +
 * 0x20000), DMA objects over [0, bar1_size) and [2^32, 2^32 + bar3_size),
 * then NV_PBUS_BAR0_... 0x1704 (the structure, twice), 0x170C (BAR3) and
 * 0x1708 (BAR1). *vm (the caller frees it), *sel1, *sel3 get the builder
 * and the selectors. */
nvm_status nvm_g80_bar_setup(nvm_gpu *gpu, uint64_t mem, uint64_t bar1_size, uint64_t bar3_size, nvm_g80_vmb **vm,
                             uint32_t *sel1, uint32_t *sel3);

/* ---------------------------------------------------------------- PFIFO: G80 (g80, g84, g92, gt215) */

/* PFIFO of the G80 family as nouveau's nv50 / g84 fifo code sets it up:
 * channel structures in VRAM at 0x1000000 + chid * 0x10000 (RAMFC, CACHE,
 * a 4096-entry RAMHT at +0x8000, objects from +0x6000), the playlist at
 * VRAM 0xF00000, pushbuffers at 0x100000 + chid * 0x100000 (IB ring at
 * +0x80000) in the caller's aperture: all the helpers' choices. RAMFC
 * offsets come from the model's layout (nvm_pfifo_ramfc_layout), RAMHT
 * slots and contexts from its table (nvm_pfifo_ramht_slot / _context),
 * DMA objects from its encoder. */
typedef struct nvm_g80_fifo {
	const char *chip;
	bool g84;           /* RAMFC / CACHE inside the structure at 0x5400 / 0x4400 (G84+) */
	uint32_t nchannels; /* the playlist */
	uint32_t channels[128];
} nvm_g80_fifo;

/* NVM_ERR_CHIP: not a G80 PFIFO. Writes the init and an empty playlist. */
nvm_status nvm_g80_fifo_init(nvm_gpu *gpu, nvm_g80_fifo *f);
/* Writes the playlist (the channels made so far) and submits it (0x32F4, 0x32EC). */
nvm_status nvm_g80_fifo_commit(nvm_gpu *gpu, const nvm_g80_fifo *f);

typedef struct nvm_g80_channel {
	const char *chip; /* its fifo's */
	uint32_t chid;
	uint64_t base, ramfc, cache; /* VRAM addresses of its structure, RAMFC, CACHE */
	uint32_t next;               /* next free object offset in the structure */
	nvm_aperture pb_ap;
	uint64_t pb, pb_put; /* the pushbuffer's memory and the bytes written */
	bool ib;             /* IB mode (else DMA_PUT) */
	uint64_t ib_addr;    /* the IB ring's memory (pb + 0x80000) */
	uint32_t ib_put;
	unsigned order;  /* log2 of the IB entries */
	int64_t va_off;  /* the pushbuffer's address as the channel sees it, minus pb */
	nvm_g80_vmb *vm; /* with a VM: its page tables (nvm_g80_channel_release frees it) */
} nvm_g80_channel;

/* Start from nvm_g80_channel_desc_init. */
typedef struct nvm_g80_channel_desc {
	uint32_t chid;      /* 1..126 */
	bool ib;            /* IB mode (default true) */
	unsigned ib_order;  /* 1..16 (default 9) */
	nvm_aperture pb_ap; /* the pushbuffer's memory (default system memory) */
	bool vm;            /* map the pushbuffer at VA 0x10000000 through page tables (paged DMA object) */
} nvm_g80_channel_desc;
void nvm_g80_channel_desc_init(nvm_g80_channel_desc *d);

/* Zeroes the 64 KiB structure, makes the pushbuffer DMA object (and VM),
 * writes RAMFC, binds the channel (0x2600 + chid * 4) and commits the
 * playlist with it. */
nvm_status nvm_g80_channel_create(nvm_gpu *gpu, nvm_g80_fifo *f, const nvm_g80_channel_desc *d, nvm_g80_channel *ch);
void nvm_g80_channel_release(nvm_g80_channel *ch);
/* size bytes of the structure's object area (16-byte steps, below 0x7000):
 * *off. NVM_ERR_FULL when it is spent. */
nvm_status nvm_g80_channel_alloc(nvm_g80_channel *ch, uint32_t size, uint32_t *off);
/* handle -> (engine, selector) at the first free RAMHT entry from its slot;
 * *off (may be NULL) gets the entry's offset. NVM_ERR_FULL: no free entry. */
nvm_status nvm_g80_channel_ramht_add(nvm_gpu *gpu, const nvm_g80_channel *ch, uint32_t handle, uint32_t sel,
                                     unsigned engine, uint32_t *off);
/* A DMA object in the structure (at *off, or a fresh 0x18 bytes when *off
 * is UINT32_MAX); with has_handle, its RAMHT entry for engine SOFTWARE.
 * *sel gets its selector (offset >> 4). */
nvm_status nvm_g80_channel_dmaobj(nvm_gpu *gpu, nvm_g80_channel *ch, const nvm_g80_dmaobj *o, uint32_t *off,
                                  bool has_handle, uint32_t handle, uint32_t *sel);
/* An engine object (its class in 16 fresh bytes) and its RAMHT entry. */
nvm_status nvm_g80_channel_object(nvm_gpu *gpu, nvm_g80_channel *ch, uint32_t class_id, uint32_t handle,
                                  unsigned engine, uint32_t *sel);
/* Appends n words to the pushbuffer (512 KiB); *addr gets their address as
 * the channel sees it. NVM_ERR_FULL when they do not fit. */
nvm_status nvm_g80_channel_write(nvm_gpu *gpu, nvm_g80_channel *ch, const uint32_t *words, size_t n, uint64_t *addr);
/* Writes an IB entry (ADDRESS 39:2, NOT_MAIN 41, LENGTH 62:42 in words) at IB_PUT and advances it. */
nvm_status nvm_g80_channel_ib_entry(nvm_gpu *gpu, nvm_g80_channel *ch, uint64_t addr, uint32_t nwords, bool not_main);
/* USER IB_PUT (+0x8C) = ib_put, or DMA_PUT (+0x40) = the pushbuffer's end (USER = 0xC00000 + chid * 0x2000). */
nvm_status nvm_g80_channel_kick(nvm_gpu *gpu, const nvm_g80_channel *ch);
/* write, an IB entry for it in IB mode, kick. */
nvm_status nvm_g80_channel_push(nvm_gpu *gpu, nvm_g80_channel *ch, const uint32_t *words, size_t n);

/* ---------------------------------------------------------------- PFIFO: NV01, NV03 */

/* PFIFO of nv01, nv03 and nv03t as rivafb sets it up on a Riva 128
 * (nv3TablePFIFO: RAMHT 4 KiB at 0, RAMRO at 0x2000, RAMFC at 0x2200; NV01
 * with PRAM CONFIG 0: RAMRO 0x1000, RAMFC 0x1800). RAMIN is written through
 * BAR1 + 0xC00000 on NV03 (nvm_pfifo_ramin_bar_write) and the PRAMIN window
 * on NV01. RAMHT buckets come from the model's table (nvm_pfifo_ramht_slot). */
typedef struct nvm_nv03_fifo {
	const char *chip;
	uint32_t ramht, ramht_size, ramro, ramfc;
	bool bar; /* RAMIN through the BAR (NV03) */
} nvm_nv03_fifo;

/* NVM_ERR_CHIP: not nv01, nv03, nv03t. Writes the PMC reset and rivafb's PFIFO table. */
nvm_status nvm_nv03_fifo_init(nvm_gpu *gpu, nvm_nv03_fifo *f);
/* A RAMIN word (through the BAR or the PRAMIN window). */
nvm_status nvm_nv03_ramin_wr(nvm_gpu *gpu, const nvm_nv03_fifo *f, uint32_t addr, uint32_t v);
nvm_status nvm_nv03_ramin_rd(nvm_gpu *gpu, const nvm_nv03_fifo *f, uint32_t addr, uint32_t *v);
/* The context of a RAMHT entry without its channel: NV03 INSTANCE 15:0
 * (instance >> 4, 16-byte aligned), CLASS 22:16 (type), ENGINE 23 (1
 * PGRAPH); NV01 flags 15:0, type 22:16 (its bit 6 is the engine). */
nvm_status nvm_nv03_context(const nvm_nv03_fifo *f, unsigned type, uint32_t instance, unsigned engine, uint32_t flags,
                            uint32_t *ctx);
/* handle -> context | chid << 24 at the first free entry of its bucket;
 * *addr (may be NULL) gets the entry's RAMIN address. NVM_ERR_FULL: the
 * bucket is full. */
nvm_status nvm_nv03_ramht_add(nvm_gpu *gpu, const nvm_nv03_fifo *f, uint32_t chid, uint32_t handle, uint32_t context,
                              uint32_t *addr);
/* A PIO store to channel chid (0..127), subchannel subch, method. */
nvm_status nvm_nv03_pio(nvm_gpu *gpu, uint32_t chid, unsigned subch, uint32_t method, uint32_t data);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
