/*
 * Internal interface of the core: what every hardware block builds on.
 *
 *  - mem_*   sparse memory apertures (mem.c)
 *  - bus_*   the BAR0 register bus and its register tables (regbus.c)
 *  - sched_* the event queue in virtual time (sched.c)
 *  - pmc_*   interrupt aggregation (pmc.c)
 *  - intr_*  status + enable -> PMC line; the CPU interrupt tree (intr.c)
 *  - emit_*  diagnostics and hooks (gpu.c)
 *  - block_class / struct chip: how blocks register and what a chip row
 *    holds (the registry itself lives above the blocks, in src/chips/)
 *  - port_*  reports from a lower block to a listener it does not know
 *
 * The core includes no block's header: blocks build on it, never the reverse.
 */
#ifndef NVM_CORE_H
#define NVM_CORE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/nvmodel.h"

/* Extract / insert a manual-style hi:lo field. */
#define FIELD_MASK(hi, lo)      ((uint32_t)(((hi) - (lo) == 31) ? 0xffffffffu : ((1u << ((hi) - (lo) + 1)) - 1u)) << (lo))
#define FIELD_GET(v, hi, lo)    (((uint32_t)(v)&FIELD_MASK(hi, lo)) >> (lo))
#define FIELD_SET(v, hi, lo, x) (((uint32_t)(v) & ~FIELD_MASK(hi, lo)) | (((uint32_t)(x) << (lo)) & FIELD_MASK(hi, lo)))

#define NVM_PAGE_SHIFT 12
#define NVM_PAGE_SIZE  (1u << NVM_PAGE_SHIFT)

/* ================================================================ memory */

/* A sparse byte-addressable aperture: a 4-level radix tree of 512-entry
 * nodes over 4 KiB pages, so a 2^48-byte space costs only what is touched. */
#define MEM_LEAF_CACHE 8u
struct mem_space {
	uint64_t size;         /* bytes; accesses at or above fail */
	void **root;           /* level-3 node, NULL until the first write */
	uint64_t pages;        /* data pages allocated */
	uint64_t nodes;        /* interior nodes allocated */
	uint64_t *budget_used; /* shared across apertures of one GPU */
	uint64_t budget;       /* bytes; 0 = unbounded */
	uint64_t last_pn;      /* one-entry lookup cache */
	uint8_t *last_page;
	/* The last-level radix nodes last walked to, by 2 MiB of space (they
	 * live until mem_fini): a lookup cache, dropped with last_pn. */
	uint64_t leaf_tag[MEM_LEAF_CACHE]; /* (pn >> 9) + 1, 0 none */
	void *leaf[MEM_LEAF_CACHE];
	/* Counts the drops of the lookup caches (pages freed, caller ranges
	 * changed): a page pointer from mem_span stays valid while it is
	 * unchanged (host.c keeps some for prefetching). */
	uint64_t epoch;
	struct mem_watch *watch;   /* armed write watches (mem_watch_*) */
	uint32_t nwatch, capwatch; /* (32 bits: the epoch fits in the size this struct had) */
	struct mem_range *range;   /* caller-owned ranges (nvm_mem_map_*), by address */
	size_t nrange;
};

/* A caller-owned range of pages [lo, hi) (page numbers): a buffer the model
 * uses in place (base), or the caller's callbacks (base NULL). */
struct mem_range {
	uint64_t lo, hi;
	uint8_t *base;
	nvm_mem_io io;
};

/* A write watch: fn runs (from inside the write, so it must only note the
 * hit, e.g. schedule an event) when a write through mem_write / nvm_mem_*
 * overlaps [lo, hi). Blocks that write through mem_span pointers call
 * mem_notify_write. Used by waits that must not poll (semaphore acquires). */
typedef void (*mem_watch_fn)(void *ctx, uint64_t arg);
struct mem_watch {
	uint64_t lo, hi;
	mem_watch_fn fn;
	void *ctx;
	uint64_t arg;
};
nvm_status mem_watch_add(struct mem_space *m, uint64_t lo, uint64_t len, mem_watch_fn fn, void *ctx, uint64_t arg);
/* Removes every watch of (fn, ctx, arg). */
void mem_watch_del(struct mem_space *m, mem_watch_fn fn, void *ctx, uint64_t arg);
void mem_notify_write(struct mem_space *m, uint64_t addr, uint64_t len);

void mem_init(struct mem_space *m, uint64_t size, uint64_t *budget_used, uint64_t budget);
void mem_fini(struct mem_space *m);
nvm_status mem_read(struct mem_space *m, uint64_t addr, void *buf, size_t len);
nvm_status mem_write(struct mem_space *m, uint64_t addr, const void *buf, size_t len);
/* Pointer to addr's byte inside its page; *avail = bytes to the page end.
 * for_write == false returns the shared zero page for untouched memory.
 * NVM_ERR_NOPTR: caller memory behind callbacks; use mem_read/mem_write. */
nvm_status mem_span(struct mem_space *m, uint64_t addr, bool for_write, uint8_t **ptr, size_t *avail);
/* Caller-owned ranges (nvm_mem_map_*): io NULL maps the buffer base. */
nvm_status mem_map(struct mem_space *m, uint64_t addr, uint64_t size, uint8_t *base, const nvm_mem_io *io);
nvm_status mem_unmap(struct mem_space *m, uint64_t addr, uint64_t size);
extern const uint8_t mem_zero_page[NVM_PAGE_SIZE];

/* Visits the model's pages in page-number order (caller ranges excluded);
 * fn returns false to stop. */
void mem_page_each(struct mem_space *m, bool (*fn)(void *ctx, uint64_t pn, const uint8_t *page), void *ctx);
/* Frees every model page (their budget paid back); caller ranges stay. */
void mem_drop_model_pages(struct mem_space *m);
/* Is page pn inside a caller range? */
bool mem_range_has(const struct mem_space *m, uint64_t pn);

/* ================================================================ snapshots */

/* A snapshot being written: into buf (cap bytes), or, with buf NULL, only
 * measured (len). err: NVM_ERR_NOMEM when buf is too small. */
struct snap_w {
	uint8_t *buf;
	size_t cap, len;
	size_t sect; /* where the open section's length goes */
	nvm_status err;
};
/* A snapshot being read: every get checks what is left (err NVM_ERR_RANGE). */
struct snap_r {
	const uint8_t *p;
	size_t len, pos;
	nvm_status err;
};
void snap_put(struct snap_w *w, const void *p, size_t n);
void snap_u32(struct snap_w *w, uint32_t v);
void snap_u64(struct snap_w *w, uint64_t v);
void snap_begin(struct snap_w *w, const char tag[4]);
void snap_end(struct snap_w *w);
bool snap_get(struct snap_r *r, void *p, size_t n); /* p may be NULL: skip */
uint32_t snap_get_u32(struct snap_r *r);
uint64_t snap_get_u64(struct snap_r *r);
bool snap_section(struct snap_r *r, const char tag[4], struct snap_r *sub);
/* A whole value read back: true when every byte was there and v is below
 * lim (the reader's err is set to NVM_ERR_CORRUPT otherwise): what a
 * block's load uses for an index or a count. */
bool snap_get_below(struct snap_r *r, uint64_t lim, uint64_t *v);
bool snap_get_bool(struct snap_r *r); /* 0 or 1, else NVM_ERR_CORRUPT */
/* The header and the core's sections (time, registers, model-owned memory,
 * the PMC, pending events and memory watches), then every block's own
 * section (struct block_snap) in chip-row order. The engines' sections
 * come between (their layer is above the core: engine_snap_*), so the
 * public calls (nvm_snapshot_*, in the chip registry) put the pieces
 * together. */
nvm_status snap_save_core(nvm_gpu *gpu, struct snap_w *w);
nvm_status snap_check_header(struct snap_r *r, const nvm_gpu *gpu);
/* nvm_snapshot_peek's work: the header, the core's sections' summary, and
 * every section's length and CRC. */
nvm_status snap_peek(struct snap_r *r, nvm_snapshot_info *info);
/* The CRC-32 of a section's bytes (zlib's, reflected 0xEDB88320), crc
 * the CRC of the bytes before p (0 to start). */
uint32_t snap_crc32(uint32_t crc, const uint8_t *p, size_t n);
/* Recomputes every section's CRC in place, as far as the lengths allow
 * (tests and fuzzers damage a section on purpose and reseal it, so that
 * the damage reaches the blocks' checks instead of the CRC's). */
void snap_reseal(uint8_t *buf, size_t len);
/* Reads the core's sections: apply false only checks (a refused snapshot
 * changes nothing), apply true restores. */
nvm_status snap_load_core(nvm_gpu *gpu, struct snap_r *r, bool apply);
nvm_status snap_save_blocks(nvm_gpu *gpu, struct snap_w *w);
nvm_status snap_load_blocks(nvm_gpu *gpu, struct snap_r *r, bool apply);
/* The interrupt helpers' own state (a held enable mask; the CPU tree). */
struct intr_line;
struct intr_tree;
void intr_line_save(const struct intr_line *l, struct snap_w *w);
void intr_line_load(struct intr_line *l, struct snap_r *r, bool apply);
void intr_tree_save(const struct intr_tree *t, struct snap_w *w);
void intr_tree_load(struct intr_tree *t, struct snap_r *r, bool apply);

/* ================================================================ register bus */

struct reg_desc;
/* Read handler: returns the value the guest sees (stored is the latched value). */
typedef uint32_t (*reg_read_fn)(void *ctx, const struct reg_desc *r, uint32_t stored);
/* Write handler, run after the shared masking: *stored already holds
 * (old & ~wmask) | (written & wmask) with W1C bits cleared; the handler may
 * change it and act on the write. */
typedef void (*reg_write_fn)(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);

/* One register, as the manuals list it. Offsets are absolute BAR0 addresses. */
struct reg_desc {
	uint32_t offset;
	const char *name;
	uint32_t reset; /* value after open */
	uint32_t wmask; /* bits a write stores */
	uint32_t w1c;   /* bits a write of 1 clears */
	reg_read_fn read;
	reg_write_fn write;
};

/* Fallback for offsets of a block's range that no reg_desc covers (code RAM
 * windows, large arrays). Return true when the offset was handled. */
typedef bool (*win_read_fn)(void *ctx, uint32_t addr, uint32_t *val);
typedef bool (*win_write_fn)(void *ctx, uint32_t addr, uint32_t val);

/* An array of identical register groups, as the manuals' NAME(i): element i
 * starts at base + i * stride and holds the registers of `regs` at their
 * offsets relative to that start (sorted). The latched values are kept in
 * `vals` (count * nregs, element-major), owned by the block, set to the
 * reset values by bus_add; a handler finds its element from `stored`. An
 * entry whose name is NULL is a value slot the bus does not show (the
 * address reads as unknown). */
struct reg_array {
	uint32_t base, stride, count;
	const struct reg_desc *regs;
	size_t nregs;
	uint32_t *vals;
};

/* A block's BAR0 range [base, base + size) and its table (sorted by offset). */
struct reg_block {
	const char *name;
	uint32_t base, size;
	const struct reg_desc *regs;
	size_t nregs;
	void *ctx;
	win_read_fn win_read;
	win_write_fn win_write;
	const struct reg_array *arrays; /* optional, tried after regs */
	size_t narrays;
	uint32_t *vals; /* owned by the bus: one latched value per reg */
};

#define BAR0_SIZE 0x1000000u

struct regbus {
	struct reg_block *blocks; /* sorted by base */
	size_t nblocks, cap;
};

/* Registers a block: validates that regs are sorted, 4-aligned, inside the
 * range and that the range overlaps no other block. Copies *blk. */
nvm_status bus_add(nvm_gpu *gpu, const struct reg_block *blk);
/* The shared read/write path (also used by blocks that write MMIO, e.g. HWSQ). */
nvm_status bus_read(nvm_gpu *gpu, uint32_t addr, uint32_t *val);
nvm_status bus_write(nvm_gpu *gpu, uint32_t addr, uint32_t val);
/* Direct access to a register's latched value (for the owning block). */
uint32_t *bus_reg(nvm_gpu *gpu, uint32_t addr);
/* The latched value (0 for an address no table holds) and its update. */
uint32_t bus_get(nvm_gpu *gpu, uint32_t addr);
void bus_set(nvm_gpu *gpu, uint32_t addr, uint32_t v);
const char *bus_reg_name(const nvm_gpu *gpu, uint32_t addr);
void bus_fini(struct regbus *bus);

/* ================================================================ scheduler */

typedef void (*sched_fn)(nvm_gpu *gpu, void *ctx, uint64_t arg);

/* Background events (timer alarms) do not keep the GPU busy. */
#define SCHED_BACKGROUND 0x1u

struct sched_ev {
	uint64_t time, seq;
	sched_fn fn;
	void *ctx;
	uint64_t arg;
	unsigned flags;
};

struct sched {
	struct sched_ev *heap;
	size_t n, cap;
	uint64_t next_seq;
	size_t foreground; /* events without SCHED_BACKGROUND */
	/* While a snapshot is loaded: its next_seq + 1 (the ids its blocks
	 * may keep; sched_id_ok), 0 otherwise. */
	uint64_t load_seq;
};

/* Schedules fn at absolute time `when` (clamped to now). Returns an id > 0,
 * or 0 when out of memory. */
uint64_t sched_at(nvm_gpu *gpu, uint64_t when, sched_fn fn, void *ctx, uint64_t arg, unsigned flags);
/* Removes a pending event; harmless for ids that already ran. */
void sched_cancel(nvm_gpu *gpu, uint64_t id);
/* The run budget (nvm_run_opts.max_events) counts work units: every event is
 * one, and a block that does more inside one event (a PBDMA decoding a long
 * pushbuffer, a sequencer stepping through instructions) charges the rest
 * here. sched_budget_left() tells such a block how much it may still do in
 * the current run; when it reaches 0 the block must reschedule itself and
 * return, and nvm_run reports NVM_RUN_HANG unless time has reached its end.
 * Outside nvm_run the budget is unlimited (UINT64_MAX). */
void sched_charge(nvm_gpu *gpu, uint64_t units);
/* Could id be an event of this GPU (0, or one sched_at has given)? While
 * a snapshot is loaded (both passes): of the snapshot's. */
bool sched_id_ok(const nvm_gpu *gpu, uint64_t id);
/* Snapshots: drops every event, and puts one back under its old sequence
 * number (the caller checked time >= now and seq <= next_seq). */
void sched_clear(nvm_gpu *gpu);
nvm_status sched_put(nvm_gpu *gpu, const struct sched_ev *ev);
uint64_t sched_budget_left(const nvm_gpu *gpu);
void sched_fini(struct sched *s);

/* ================================================================ interrupt lines */

/* The manuals' "status + enable -> PMC line" pattern (PTIMER_INTR_0 /
 * INTR_EN_0, PFB NISO_INTR / NISO_INTR_EN, PFIFO_INTR_0 / INTR_EN_0): a
 * status register whose bits latch events, an enable mask, and one PMC
 * input line that is high while (status & enable) != 0. The description is
 * const data of the block; where the manuals make the status or the enable a
 * level of other state (NISO_INTR's fault-buffer bits, an enable changed
 * only through SET/CLEAR registers) the block gives a function instead of
 * the register's address. The block's write handlers of the two registers
 * call intr_update, and it raises bits with intr_raise. */
struct intr_desc {
	uint32_t status; /* BAR0 address of the latched status register (unless status_fn) */
	/* BAR0 address of the latched enable register (unless enable_fn); 0: the
	 * line holds the mask, changed only through SET / CLEAR registers
	 * (intr_enable_set / intr_enable_clear). */
	uint32_t enable;
	unsigned pmc_bit; /* the PMC_INTR input line it drives */
	uint32_t (*status_fn)(void *ctx);
	uint32_t (*enable_fn)(void *ctx);
};

/* A block's instance: the description, the GPU, the context the functions
 * get, and the latched values the addresses resolve to (intr_init). */
struct intr_line {
	const struct intr_desc *d;
	nvm_gpu *gpu;
	void *ctx;
	uint32_t *status, *enable;
	uint32_t en; /* the mask when the line holds it */
};

/* Binds an interrupt line to its registers; call after the block's bus_add. */
void intr_init(struct intr_line *l, nvm_gpu *gpu, const struct intr_desc *d, void *ctx);
/* status & enable, as the PMC line sees it. */
uint32_t intr_pending(const struct intr_line *l);
/* Sets the PMC line from status & enable. */
void intr_update(const struct intr_line *l);
/* Latches bits into the status register (not with status_fn) and updates. */
void intr_raise(const struct intr_line *l, uint32_t bits);
/* A held enable mask (enable 0): INTR_EN_SET / INTR_EN_CLEAR writes, and its value. */
void intr_enable_set(struct intr_line *l, uint32_t bits);
void intr_enable_clear(struct intr_line *l, uint32_t bits);
static inline uint32_t intr_enabled(const struct intr_line *l)
{
	return l->enable ? *l->enable : l->d->enable_fn(l->ctx);
}

/* The CPU interrupt tree of Turing and later (dev_vm
 * NV_VIRTUAL_FUNCTION_PRIV_CPU_INTR_*, aliased in NV_CTRL_CPU_INTR_*):
 * LEAF(i) registers of 32 vectors each (vector v is LEAF(v / 32) bit
 * v % 32, write 1 to clear), their enables changed only through
 * LEAF_EN_SET(i) / LEAF_EN_CLEAR(i) (both read back the enable), and
 * TOP(0) whose SUBTREE bit i summarises LEAF(2i) and LEAF(2i+1) (pending
 * and enabled), gated by TOP_EN_SET / TOP_EN_CLEAR. A source latches its
 * vector with intr_tree_raise. The generation gives the layout (a const
 * table) and the tree registers itself on the bus. */
#define INTR_TREE_MAX_LEAF 16
struct intr_tree_desc {
	uint32_t base; /* BAR0 address of the NV_VIRTUAL_FUNCTION page */
	uint32_t leaf; /* offsets from base: CPU_INTR_LEAF(0) */
	uint32_t leaf_en_set, leaf_en_clear;
	uint32_t top, top_en_set, top_en_clear;
	unsigned nleaf;        /* CPU_INTR_LEAF__SIZE_1 */
	unsigned leaf_per_top; /* leaves one TOP SUBTREE bit summarises */
};
struct intr_tree {
	const struct intr_tree_desc *d;
	nvm_gpu *gpu;
	uint32_t leaf[INTR_TREE_MAX_LEAF], en[INTR_TREE_MAX_LEAF];
	uint32_t top_en;
};
/* Binds the tree to its layout and adds its registers to the bus. */
nvm_status intr_tree_init(struct intr_tree *t, nvm_gpu *gpu, const struct intr_tree_desc *d);
/* Latches vector v (vectors beyond the leaves are ignored: false). */
bool intr_tree_raise(struct intr_tree *t, unsigned v);
/* CPU_INTR_TOP(0) as read, and whether it reaches the CPU (TOP & TOP_EN). */
uint32_t intr_tree_top(const struct intr_tree *t);
bool intr_tree_pending(const struct intr_tree *t);

/* ================================================================ blocks and chips */

/* A block registers itself with the core through this descriptor (its own
 * file defines it); the core creates the blocks a chip row lists, in row
 * order, and destroys them in reverse. A kind without create carries only
 * per-chip data that other blocks read (the pushbuffer decoder's profile). */
struct block_class {
	const char *name;
	/* Creates the block's state; `data` is the chip row's data for the block
	 * (its generation: const tables and operations). */
	nvm_status (*create)(nvm_gpu *gpu, const void *data, void **state);
	void (*destroy)(nvm_gpu *gpu, void *state);
	/* Optional: true while the block has work in flight (for idle). */
	bool (*busy)(void *state);
	/* Snapshots (nvm_snapshot_*); NULL: the block cannot be saved. */
	const struct block_snap *snap;
};

/* What a block gives for snapshots. Its latched registers, the memory,
 * virtual time and its pending events and memory watches are saved by the
 * core; the block saves the rest of its state, field by field (never a
 * pointer: an index or a guest address it re-derives the pointer from).
 *
 * load reads back what save wrote, in two passes: apply false only checks,
 * apply true restores (after the core restored registers, memory, events
 * and watches). A snapshot is untrusted input: the check pass must refuse
 * (NVM_ERR_CORRUPT, through the reader's err or the return) every value a
 * register write or the guest could not have left (an index past its
 * table, a count past its ring, a state no transition reaches), so that a
 * restored block never goes where a running one could not. Event ids the
 * block keeps (from sched_at) are saved as they are: the core restores
 * every event under its own id (sched_id_ok tells a plausible one). Caches
 * and other derived state are dropped and rebuilt on apply.
 *
 * Pending events and watches are saved as (function, object) numbers: the
 * function's index in `events` / `watches`, and the object the block gives
 * for ctx: ctx_id (NULL: ctx must be the block's state, number 0) and back
 * with ctx_ptr (NULL for a number out of range).
 *
 * The latched registers come back as the snapshot holds them, unchecked: a
 * block that relies on a latched value because its write handler checked
 * it (an index, a size) must check it again in its load. */
struct block_snap {
	void (*save)(void *state, struct snap_w *w);
	nvm_status (*load)(void *state, struct snap_r *r, bool apply);
	const sched_fn *events;
	size_t nevents;
	const mem_watch_fn *watches;
	size_t nwatches;
	bool (*ctx_id)(void *state, const void *ctx, uint32_t *id);
	void *(*ctx_ptr)(void *state, uint32_t id);
	/* Is arg one the function (index fn of events, or of watches) can be
	 * given? NULL: arg must be 0. An event's arg often indexes a table. */
	bool (*arg_ok)(void *state, bool watch, size_t fn, uint64_t arg);
	/* Optional: may the function be given object id (a block whose
	 * functions take objects of different kinds: the Host's runlist
	 * events take the Host, its PBDMA steps a PBDMA)? NULL: any. */
	bool (*ctx_ok)(void *state, bool watch, size_t fn, uint32_t id);
};

struct chip_block {
	const struct block_class *cls;
	const void *data; /* the block's generation for this chip */
};

/* How PMC aggregates interrupts. */
enum pmc_style {
	PMC_NV04,  /* INTR_EN 0x140: bit 0 hardware, bit 1 software (NV04..G80) */
	PMC_GV100, /* INTR_EN(i) 0x140 read-only, INTR_EN_SET/CLEAR 0x160/0x180 */
};

#define CHIP_MAX_BLOCKS 8

/* One row of the chip registry (src/chips/, the layer above the blocks that
 * assembles chips): the chip's identity and the generation of each block it
 * has. The row is the one generation handle every block uses: a block finds
 * its own generation in `data` at create time, and another block's with
 * chip_data (PFIFO and Host read the decoder profile this way). PMC and
 * PTIMER are the core's own and every modelled chip has them. */
struct chip {
	nvm_chip_info info;
	bool decode_only; /* a pushbuffer profile only: nvm_open refuses it */
	enum pmc_style pmc;
	struct chip_block blocks[CHIP_MAX_BLOCKS]; /* ends at the first NULL cls */
};

/* The data a chip row gives for block kind cls, or NULL. */
const void *chip_data(const struct chip *chip, const struct block_class *cls);

/* The registry's row of a chip by name (case-insensitive; NULL: the default
 * chip), decode-only rows included; NULL if unknown. Declared here for the
 * blocks' offline decoders that take a chip name (nvmodel pfifo ramht
 * --chip ...), served by the registry above the blocks (src/chips/chips.c):
 * the core itself never calls it. */
const struct chip *chip_lookup(const char *name);

/* ================================================================ ports */

/* What a lower block reports to whichever block of the chip listens,
 * without knowing it: the listener connects at its create, the reporter
 * calls the port and nothing happens when no one listens.
 *
 * CPU faults: a CPU access through a BAR or the PEEPHOLE faulted in the VM
 * (the G80 VM reports, the G80 PFIFO raises INTR BAR_FAULT / PEEPHOLE_FAULT). */
enum cpu_fault { CPU_FAULT_BAR, CPU_FAULT_PEEPHOLE };
typedef void (*cpu_fault_fn)(void *ctx, enum cpu_fault kind);
void port_cpu_fault_connect(nvm_gpu *gpu, cpu_fault_fn fn, void *ctx);
void port_cpu_fault(nvm_gpu *gpu, enum cpu_fault kind);

/* PMC ENABLE: a write of val over old (pmc.rst "ENABLE": a cleared bit holds
 * its unit in reset; NV01/NV03 PFIFO resets on bit 8, nv1-pfifo.rst). */
typedef void (*pmc_enable_fn)(void *ctx, uint32_t old, uint32_t val);
void port_pmc_enable_connect(nvm_gpu *gpu, pmc_enable_fn fn, void *ctx);
void port_pmc_enable(nvm_gpu *gpu, uint32_t old, uint32_t val);

/* ================================================================ the GPU */

#define NVM_MAX_HOOKS 16

struct hook {
	int id;
	unsigned mask;
	nvm_hook_fn fn;
	void *user;
};

struct pmc {
	uint32_t lines; /* input interrupt lines, bit i = PMC_INTR bit i */
	uint32_t en;    /* gv100: INTR_EN(0); nv04: INTR_EN bits 1:0 */
	uint32_t soft;  /* nv04: the software interrupt, bit 31 */
	int out;        /* output line level */
	bool tree;      /* the CPU interrupt tree's output (intr_tree), ORed into out */
};

struct nvm_gpu {
	const struct chip *chip;
	struct mem_space mem[NVM_AP_COUNT];
	uint64_t mem_used;
	struct regbus bus;
	struct sched sched;
	uint64_t now;
	bool stop;
	bool running;        /* inside nvm_run */
	uint64_t work;       /* work units charged in the current run */
	uint64_t work_max;   /* the current run's budget */
	uint64_t work_total; /* work units charged since open, in runs and out (nvm_work_done) */
	struct pmc pmc;
	struct hook hooks[NVM_MAX_HOOKS];
	size_t nhooks;
	int next_hook_id;
	unsigned hook_mask; /* union of the installed masks: the fast path */
	uint64_t ev_count[NVM_EV_COUNT];
	void *blk[CHIP_MAX_BLOCKS]; /* state of chip->blocks[i] */
	struct ptimer *ptimer;
	/* Every engine of the GPU, whichever front end feeds it: the engine
	 * layer links them (engine_new / engine_free) for the shared method-log
	 * calls of nvmodel/method.h. Opaque to the core. */
	struct engine *engines;
	struct {
		cpu_fault_fn fn;
		void *ctx;
	} cpu_fault;
	struct {
		pmc_enable_fn fn;
		void *ctx;
	} pmc_enable;
	unsigned hold;  /* NVM_HOLD_*: host accesses a block currently holds */
	unsigned depth; /* public calls in progress (api_enter), and hooks running */
	bool closing;   /* nvm_close was called while depth > 0: freed by the last api_leave */
};

/* Every public function that can run hooks (anything that may emit, call a
 * caller's callback, or run scheduled events)
 * brackets its work with api_enter / api_leave. A hook may call nvm_close:
 * the GPU is then only marked closing (no further hooks run, nvm_run stops)
 * and the outermost api_leave frees it, once no library frame uses it any
 * more. emit() counts itself as well, so a hook that closes the GPU from an
 * entry point that forgot the bracket leaks it instead of freeing memory
 * still in use. */
static inline void api_enter(nvm_gpu *gpu)
{
	gpu->depth++;
}
void api_leave(nvm_gpu *gpu);

/* Host accesses held (set by HWSQ's framebuffer pause): nvm_mem_* and, with
 * NVM_HOLD_MMIO, nvm_reg_* return NVM_ERR_BLOCKED. Accesses the model makes
 * itself through mem_* / bus_* are not affected. */
#define NVM_HOLD_MEM  0x1u
#define NVM_HOLD_MMIO 0x2u
nvm_status hold_check(nvm_gpu *gpu, unsigned what, const char *kind, uint64_t addr);

/* Reports an event: counts it and, if a hook wants it, formats the message
 * and calls the hooks. */
void emit(nvm_gpu *gpu, nvm_event_type type, const char *block, const char *code, uint64_t addr, uint64_t value,
          const char *fmt, ...) __attribute__((format(printf, 7, 8)));
/* emit with the event's record (nvm_event.detail: a fault record ...). */
void emit_detail(nvm_gpu *gpu, nvm_event_type type, const char *block, const char *code, uint64_t addr, uint64_t value,
                 const void *detail, const char *fmt, ...) __attribute__((format(printf, 8, 9)));
static inline bool emit_wanted(const nvm_gpu *gpu, nvm_event_type type)
{
	return (gpu->hook_mask >> type) & 1u;
}

/* PMC: a block raises or lowers its interrupt input line `bit`. */
void pmc_set_line(nvm_gpu *gpu, unsigned bit, bool level);
/* The CPU interrupt tree's output (TOP & TOP_EN != 0), a second input of the output line. */
void pmc_set_tree(nvm_gpu *gpu, bool level);
nvm_status pmc_init(nvm_gpu *gpu);

/* PTIMER's snapshot part (its alarm is one of the core's pending events). */
extern const struct block_snap ptimer_snap;

/* PTIMER: the 64-bit PTIMER value (ns, with bits 4:0 as the hardware keeps them). */
uint64_t ptimer_read(nvm_gpu *gpu);
nvm_status ptimer_init(nvm_gpu *gpu);
void ptimer_fini(nvm_gpu *gpu);

/* The state of the block of kind cls on this GPU, or NULL if its chip has none
 * (inline: the blocks' public calls look themselves up on every call). */
static inline void *gpu_block(const nvm_gpu *gpu, const struct block_class *cls)
{
	const struct chip_block *b = gpu->chip->blocks;
	for (size_t i = 0; i < CHIP_MAX_BLOCKS && b[i].cls; i++)
		if (b[i].cls == cls)
			return gpu->blk[i];
	return NULL;
}

/* Opens a GPU of a chip row (nvm_open, in the chip registry, looks the row up). */
nvm_status gpu_open(const struct chip *chip, const nvm_config *cfg, nvm_gpu **out);

/* PMC_INTR bit numbers used by the core's own blocks. */
#define PMC_INTR_PFIFO    8
#define PMC_INTR_HUB      9
#define PMC_INTR_PFB      13
#define PMC_INTR_PTIMER   20
#define PMC_INTR_PBUS     28
#define PMC_INTR_SOFTWARE 31

#endif
