/*
 * nvmodel — the GPU memory-management unit (GMMU): translation, TLB, fault
 * reporting.
 *
 * A translation request names an address space (an instance block, or a page
 * directory base directly), the subcontext, the virtual address, the access
 * and who asks (MMU engine id, HUB or GPC client). The answer is a physical
 * location with its attributes, or a fault whose type is one of the
 * NV_PFAULT_FAULT_TYPE_* codes of gv100_dev_fault.ref.txt.
 *
 * The interface does not depend on the page-table format: the chip's GMMU
 * generation picks it (nvm_mmu_format): ver2, 5 levels and 49-bit VAs
 * (gv100 .. ga102), or ver3, 6 levels and 57-bit VAs (gh100). A walk
 * level's name is "PDE4" (ver3 only), "PDE3" .. "PDE0", "PTE_BIG",
 * "PTE_SMALL"; res->level counts from the top (ver2: 0 PDE3 .. 4 PTE; ver3:
 * 0 PDE4 .. 5 PTE).
 */
#ifndef NVMODEL_MMU_H
#define NVMODEL_MMU_H

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

/* Access types: the NV_PFAULT_ACCESS_TYPE_VIRT_* codes (gv100_dev_fault.ref). */
typedef enum nvm_mmu_access {
	NVM_MMU_READ = 0,
	NVM_MMU_WRITE = 1,
	NVM_MMU_ATOMIC = 2, /* VIRT_ATOMIC_STRONG */
	NVM_MMU_PREFETCH = 3,
	NVM_MMU_ATOMIC_WEAK = 4,
} nvm_mmu_access;

/* Fault types: NV_PFAULT_FAULT_TYPE_* (gv100_dev_fault.ref). */
typedef enum nvm_mmu_fault_type {
	NVM_MMU_FAULT_NONE = -1,
	NVM_MMU_FAULT_PDE = 0,
	NVM_MMU_FAULT_PDE_SIZE = 1,
	NVM_MMU_FAULT_PTE = 2,
	NVM_MMU_FAULT_VA_LIMIT_VIOLATION = 3,
	NVM_MMU_FAULT_UNBOUND_INST_BLOCK = 4,
	NVM_MMU_FAULT_PRIV_VIOLATION = 5,
	NVM_MMU_FAULT_RO_VIOLATION = 6,
	NVM_MMU_FAULT_WO_VIOLATION = 7,
	NVM_MMU_FAULT_PITCH_MASK_VIOLATION = 8,
	NVM_MMU_FAULT_WORK_CREATION = 9,
	NVM_MMU_FAULT_UNSUPPORTED_APERTURE = 0xa,
	NVM_MMU_FAULT_COMPRESSION_FAILURE = 0xb,
	NVM_MMU_FAULT_UNSUPPORTED_KIND = 0xc,
	NVM_MMU_FAULT_REGION_VIOLATION = 0xd,
	NVM_MMU_FAULT_POISONED = 0xe,
	NVM_MMU_FAULT_ATOMIC_VIOLATION = 0xf,
} nvm_mmu_fault_type;

/* Memory targets as the ver2 PTE APERTURE field encodes them. */
typedef enum nvm_mmu_target {
	NVM_MMU_TGT_VID = 0,
	NVM_MMU_TGT_PEER = 1,
	NVM_MMU_TGT_SYS_COH = 2,
	NVM_MMU_TGT_SYS_NCOH = 3,
} nvm_mmu_target;

/* Target of an instance block or page directory base, as RAMIN's
 * PAGE_DIR_BASE_TARGET encodes it: 0 VID_MEM, 1 INVALID, 2 SYS_MEM_COHERENT,
 * 3 SYS_MEM_NONCOHERENT. */
#define NVM_MMU_PDB_VID      0u
#define NVM_MMU_PDB_INVALID  1u
#define NVM_MMU_PDB_SYS_COH  2u
#define NVM_MMU_PDB_SYS_NCOH 3u

/* MMU client types (NV_PFAULT_MMU_CLIENT_TYPE_*). */
#define NVM_MMU_CLIENT_GPC 0u
#define NVM_MMU_CLIENT_HUB 1u

/* A few MMU engine ids (volta-facts.md section f). */
#define NVM_MMU_ENG_BAR1     4u
#define NVM_MMU_ENG_BAR2     5u
#define NVM_MMU_ENG_IFB      8u
#define NVM_MMU_ENG_CE0      15u
#define NVM_MMU_ENG_PHYSICAL 31u
#define NVM_MMU_ENG_HOST0    32u
#define NVM_MMU_ENG_GRAPHICS 64u /* + VEID */

typedef struct nvm_mmu_request {
	/* Address space: with use_pdb == 0, the instance block at
	 * inst_target/inst_addr (RAMIN encoding; 4 KiB aligned) selects the page
	 * tables; with use_pdb != 0 the page directory base pdb_target/pdb_addr
	 * is used directly (a bound address space, e.g. for tools). */
	bool use_pdb;
	unsigned inst_target;
	uint64_t inst_addr;
	unsigned pdb_target;
	uint64_t pdb_addr;
	/* Subcontext: -1 for non-VEID engines (RAMIN PAGE_DIR_BASE), 0..63 to use
	 * RAMIN SC_PAGE_DIR_BASE(veid). */
	int veid;
	uint64_t va;
	nvm_mmu_access access;
	unsigned engine_id;   /* MMU engine id, 0..511 */
	unsigned client_type; /* NVM_MMU_CLIENT_GPC / _HUB */
	unsigned client_id;   /* 0..127 */
	unsigned gpc_id;      /* 0..31 */
	bool privileged;      /* the request is privileged (may use PRIVILEGE pages) */
} nvm_mmu_request;

typedef struct nvm_mmu_result {
	nvm_mmu_fault_type fault; /* NVM_MMU_FAULT_NONE on success */
	bool sparse;              /* mapped sparse: reads 0, writes dropped, no fault */
	nvm_mmu_target target;
	unsigned peer;      /* peer id when target is PEER */
	uint64_t pa;        /* physical address of va */
	uint64_t page_size; /* 4 KiB, 64 KiB or 2 MiB; a sparse directory entry
	                     * covers 2^29 (PDE1), 2^38 (PDE2) or 2^47 (PDE3) */
	unsigned kind;
	bool priv, ro, vol, atomic_disable, encrypted;
	int level;       /* walk level that decided (0 PDE3 .. 4 PTE), -1 RAMIN */
	bool oob;        /* a table or instance block lay outside its aperture */
	bool replayable; /* fault only: the request waits for a replay */
	uint64_t ticket; /* replayable fault only: id of the waiting request */
} nvm_mmu_result;

/* ---------------------------------------------------------------- pure walk */

#define NVM_MMU_WALK_MAX 8

typedef struct nvm_mmu_walk_level {
	const char *name;      /* "PDE3", "PDE2", "PDE1", "PDE0", "PTE_BIG", "PTE_SMALL", "PTE_2M" */
	unsigned table_target; /* NVM_MMU_TGT_* of the table */
	uint64_t table;        /* table base address */
	unsigned index;        /* entry index in the table */
	uint64_t entry_addr;
	int nwords; /* 1 (8 bytes) or 2 (16 bytes, dual PDE) */
	uint64_t raw[2];
	bool read_ok; /* 0 when the entry lay outside the aperture */
} nvm_mmu_walk_level;

typedef struct nvm_mmu_walk_trace {
	int n;
	nvm_mmu_walk_level lv[NVM_MMU_WALK_MAX];
} nvm_mmu_walk_trace;

/* Walks the page tables (the chip's format) rooted at pdb_target/pdb_addr (RAMIN target
 * encoding) for va, checking the access; reads only guest memory of gpu
 * (never registers or TLB; needs no MMU block). trace may be NULL. Every
 * entry address is bounds-checked: a table outside its aperture gives a
 * fault (res->oob set), never an out-of-bounds access. NVM_ERR_FAULT when
 * res holds a fault. */
nvm_status nvm_mmu_walk(nvm_gpu *gpu, unsigned pdb_target, uint64_t pdb_addr, uint64_t va, nvm_mmu_access access,
                        bool privileged, nvm_mmu_result *res, nvm_mmu_walk_trace *trace);

/* One mapping of a page-table tree, for nvm_mmu_enum. */
typedef struct nvm_mmu_mapping {
	uint64_t va, size;
	nvm_mmu_result attr; /* target, pa (of va), page_size, kind, flags; sparse */
} nvm_mmu_mapping;

/* Enumeration callbacks: map for every valid or sparse leaf (in VA order),
 * edge for every directory entry that points at a next-level table (level
 * names as in nvm_mmu_walk_level). Either may be NULL; a non-zero return
 * stops the enumeration. */
typedef int (*nvm_mmu_map_fn)(void *user, const nvm_mmu_mapping *m);
typedef int (*nvm_mmu_edge_fn)(void *user, const char *level, nvm_mmu_target tgt, uint64_t table, unsigned index,
                               const char *child_level, nvm_mmu_target child_tgt, uint64_t child);
typedef struct nvm_mmu_enum_ops {
	nvm_mmu_map_fn map;
	nvm_mmu_edge_fn edge;
	void *user;
} nvm_mmu_enum_ops;

/* Walks a whole ver2 tree. Stops after max_entries page-table entries read
 * (hostile trees can be huge, or loop): returns NVM_ERR_RANGE then. */
nvm_status nvm_mmu_enum(nvm_gpu *gpu, unsigned pdb_target, uint64_t pdb_addr, uint64_t max_entries,
                        const nvm_mmu_enum_ops *ops);

/* ---------------------------------------------------------------- the MMU block */

/* Translates through the GPU's MMU (gv100: TLB, faults reported to the fault
 * buffers or the other-fault registers, replayable requests held for replay).
 * Returns NVM_ERR_FAULT when res holds a fault (as nvm_g80_translate does),
 * NVM_ERR_NOENT when the chip has no MMU. */
nvm_status nvm_mmu_translate(nvm_gpu *gpu, const nvm_mmu_request *req, nvm_mmu_result *res);

/* Invalidate / replay / cancel, the operation of PFB_PRI_MMU_INVALIDATE and
 * of the Host's MEM_OP methods. */
typedef enum nvm_mmu_replay {
	NVM_MMU_REPLAY_NONE = 0,
	NVM_MMU_REPLAY_START = 1,
	NVM_MMU_REPLAY_START_ACK_ALL = 2,
	NVM_MMU_REPLAY_CANCEL_TARGETED = 3,
	NVM_MMU_REPLAY_CANCEL_GLOBAL = 4,
	NVM_MMU_REPLAY_CANCEL_VA_GLOBAL = 5,
} nvm_mmu_replay;

typedef struct nvm_mmu_inval {
	bool all_pdb;        /* every address space */
	unsigned pdb_target; /* RAMIN encoding (coherent and non-coherent match alike) */
	uint64_t pdb_addr;
	bool all_va;
	uint64_t va;
	unsigned size_log2; /* with use_size: 2^size_log2 4 KiB pages from va */
	bool use_size;
	unsigned level; /* CACHE_LEVEL: 0 ALL, 1 PTE_ONLY, 2.. UP_TO_PDEn */
	nvm_mmu_replay replay;
	/* cancel targets */
	unsigned cancel_client_id, cancel_gpc_id, cancel_client_type;
	unsigned cancel_access; /* CANCEL_VA: CACHE_LEVEL_CANCEL_* (7 = ALL) */
} nvm_mmu_inval;

nvm_status nvm_mmu_invalidate(nvm_gpu *gpu, const nvm_mmu_inval *op);

/* The Host's MEM_OP_A..D methods (class C36F, volta-facts.md section b) for
 * the MMU operations: OPERATION (D 31:27) MMU_TLB_INVALIDATE (9) and
 * MMU_TLB_INVALIDATE_TARGETED (0xA), with their PDB, address, level, replay
 * and cancel fields. Returns NVM_ERR_NOENT for other operations (MEMBAR,
 * L2 flushes...), which are not the MMU's. */
nvm_status nvm_mmu_mem_op(nvm_gpu *gpu, uint32_t a, uint32_t b, uint32_t c, uint32_t d);

/* Report every use of a TLB entry whose page tables changed since it was
 * filled (missing invalidates) as an NVM_EV_GUEST_ERROR "stale_tlb". */
nvm_status nvm_mmu_set_strict_tlb(nvm_gpu *gpu, bool on);

/* Replayable requests still waiting for a replay. */
size_t nvm_mmu_pending(const nvm_gpu *gpu);

typedef struct nvm_mmu_stats {
	uint64_t translations, tlb_hits, walks, faults;
	uint64_t packets_written[2], packets_dropped[2]; /* [0] non-replayable, [1] replayable */
	uint64_t replayed_ok, cancelled;
	uint64_t tlb_entries;
} nvm_mmu_stats;
nvm_status nvm_mmu_get_stats(const nvm_gpu *gpu, nvm_mmu_stats *out);

/* Fault record: the fields of a fault-buffer packet (seed 003,
 * NV_MMU_FAULT_BUF_ENTRY_*). */
typedef struct nvm_mmu_fault_info {
	unsigned inst_aperture; /* 0 VID, 2 SYS_COH, 3 SYS_NCOH */
	uint64_t inst_addr;     /* 4 KiB aligned */
	unsigned addr_phys_aperture;
	uint64_t addr; /* 4 KiB aligned */
	uint64_t timestamp;
	unsigned engine_id;
	unsigned fault_type;
	bool replayable;
	unsigned client;
	unsigned access_type;
	unsigned client_type;
	unsigned gpc_id;
	bool protected_mode;
	bool replayable_en;
	bool valid;
} nvm_mmu_fault_info;

#define NVM_MMU_PACKET_SIZE 32
void nvm_mmu_packet_encode(const nvm_mmu_fault_info *f, uint8_t out[NVM_MMU_PACKET_SIZE]);
void nvm_mmu_packet_decode(const uint8_t in[NVM_MMU_PACKET_SIZE], nvm_mmu_fault_info *f);

/* The record of the MMU's fault events (nvm_event.detail, hooks added with
 * nvm_hook_add): every fault the MMU reports, whether or not a buffer took
 * it, is an NVM_EV_FAULT event of block "mmu" (code the fault type name,
 * addr the VA, value the fault type) carrying one (cancelled false); a
 * waiting replayable request that is cancelled is the NVM_EV_TRACE event
 * "cancelled" of block "mmu" carrying one with cancelled true and
 * info.replayable clear. */
typedef struct nvm_mmu_fault_event {
	nvm_mmu_fault_info info;
	uint64_t ticket; /* replayable: id of the waiting request (nvm_mmu_result.ticket) */
	bool cancelled;
} nvm_mmu_fault_event;

/* BAR1 / BAR2: translate an offset through the instance block bound by
 * NV_PBUS_BAR1_BLOCK / BAR2_BLOCK (bar 1 or 2), and access memory there.
 * A fault: NVM_ERR_FAULT (reads and writes stop at the faulting page), as
 * the G80 VM's BARs do. */
nvm_status nvm_mmu_bar_translate(nvm_gpu *gpu, int bar, uint64_t off, nvm_mmu_access access, nvm_mmu_result *res);
nvm_status nvm_mmu_bar_write(nvm_gpu *gpu, int bar, uint64_t off, const void *buf, size_t len);
nvm_status nvm_mmu_bar_read(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len);

/* ---------------------------------------------------------------- names */

const char *nvm_mmu_fault_type_name(unsigned type);                         /* "PTE", NULL if unknown */
const char *nvm_mmu_access_name(unsigned access);                           /* "VIRT_READ", ... */
const char *nvm_mmu_engine_name(unsigned engine_id, char *buf, size_t len); /* gv100's ids */
/* The name of an MMU engine id of chip's GMMU generation (gh100 renumbers
 * them: BAR1 256, CE0 43, GRAPHICS 384 ...); NULL when chip is unknown or
 * has no GMMU. */
const char *nvm_mmu_chip_engine_name(const char *chip, unsigned engine_id, char *buf, size_t len);
/* The MMU engine id of CE0 in gpu's GMMU generation (15 on gv100 .. ga102,
 * 43 on gh100); CEn is CE0 + n. */
unsigned nvm_mmu_ce0_engine_id(const nvm_gpu *gpu);
/* The MMU engine id gpu's GMMU generation gives the engine gv100 numbers
 * gv100_id (GRAPHICS + VEID, CEn, BAR1, BAR2, PHYSICAL; on gh100 GRAPHICS
 * 64 -> 384, CE2 17 -> 45); an id the generation does not renumber is
 * returned as it is. */
unsigned nvm_mmu_gen_engine_id(const nvm_gpu *gpu, unsigned gv100_id);
/* The page-table format of gpu's GMMU: "ver2" (gv100, tu102, ga100, ga102)
 * or "ver3" (gh100: 57-bit VA, six levels); NULL when it has none. */
const char *nvm_mmu_format(const nvm_gpu *gpu);
const char *nvm_mmu_client_name(unsigned client_type, unsigned client, char *buf, size_t len);
const char *nvm_mmu_target_name(nvm_mmu_target t); /* "vram", "peer", "sysmem_coh", "sysmem_ncoh" */
/* "read", "write", "atomic", "prefetch", "atomic_weak" (case-insensitive);
 * false for another name. */
bool nvm_mmu_parse_access(const char *s, nvm_mmu_access *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
