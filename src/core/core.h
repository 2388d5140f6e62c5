/*
 * Internal interface of the core: what every hardware block builds on.
 *
 *  - mem_*   sparse memory apertures (mem.c)
 *  - bus_*   the BAR0 register bus and its register tables (regbus.c)
 *  - sched_* the event queue in virtual time (sched.c)
 *  - pmc_*   interrupt aggregation (pmc.c)
 *  - emit_*  diagnostics and hooks (gpu.c)
 *  - chip profiles (chip.c)
 *
 * Blocks include this header, never each other's internals.
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
struct mem_space {
	uint64_t size;         /* bytes; accesses at or above fail */
	void **root;           /* level-3 node, NULL until the first write */
	uint64_t pages;        /* data pages allocated */
	uint64_t nodes;        /* interior nodes allocated */
	uint64_t *budget_used; /* shared across apertures of one GPU */
	uint64_t budget;       /* bytes; 0 = unbounded */
	uint64_t last_pn;      /* one-entry lookup cache */
	uint8_t *last_page;
	struct mem_watch *watch; /* armed write watches (mem_watch_*) */
	size_t nwatch, capwatch;
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
 * for_write == false returns the shared zero page for untouched memory. */
nvm_status mem_span(struct mem_space *m, uint64_t addr, bool for_write, uint8_t **ptr, size_t *avail);
extern const uint8_t mem_zero_page[NVM_PAGE_SIZE];

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
 * reset values by bus_add; a handler finds its element from `stored`. */
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
uint64_t sched_budget_left(const nvm_gpu *gpu);
void sched_fini(struct sched *s);

/* ================================================================ blocks */

enum blk_id { BLK_PTIMER = 0, BLK_HWSQ, BLK_MMU, BLK_PFIFO, BLK_HOST, BLK_G80VM, BLK_COUNT };

struct block_class {
	const char *name;
	enum blk_id id;
	/* Creates the block's state; `data` is the chip profile's per-block const data. */
	nvm_status (*create)(nvm_gpu *gpu, const void *data, void **state);
	void (*destroy)(nvm_gpu *gpu, void *state);
	/* Optional: true while the block has work in flight (for idle). */
	bool (*busy)(void *state);
};

struct chip_block {
	const struct block_class *cls;
	const void *data;
};

/* How PMC aggregates interrupts. */
enum pmc_style {
	PMC_NV04,  /* INTR_EN 0x140: bit 0 hardware, bit 1 software (NV04..G80) */
	PMC_GV100, /* INTR_EN(i) 0x140 read-only, INTR_EN_SET/CLEAR 0x160/0x180 */
};

#define CHIP_MAX_BLOCKS 6

struct chip {
	nvm_chip_info info;
	enum pmc_style pmc;
	struct chip_block blocks[CHIP_MAX_BLOCKS]; /* ends at the first NULL cls */
};

const struct chip *chip_lookup(const char *name);

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
	void *blk[BLK_COUNT];
	const struct block_class *blk_cls[BLK_COUNT];
	unsigned hold;  /* NVM_HOLD_*: host accesses a block currently holds */
	unsigned depth; /* public calls in progress (api_enter), and hooks running */
	bool closing;   /* nvm_close was called while depth > 0: freed by the last api_leave */
};

/* Every public function that can run hooks (anything that may emit, call a
 * block's own callback such as the MMU fault hook, or run scheduled events)
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
static inline bool emit_wanted(const nvm_gpu *gpu, nvm_event_type type)
{
	return (gpu->hook_mask >> type) & 1u;
}

/* PMC: a block raises or lowers its interrupt input line `bit`. */
void pmc_set_line(nvm_gpu *gpu, unsigned bit, bool level);
nvm_status pmc_init(nvm_gpu *gpu);

/* PTIMER: the 64-bit PTIMER value (ns, with bits 4:0 as the hardware keeps them). */
uint64_t ptimer_read(nvm_gpu *gpu);
extern const struct block_class ptimer_class;

/* PMC_INTR bit numbers used by the core's own blocks. */
#define PMC_INTR_PFIFO    8
#define PMC_INTR_HUB      9
#define PMC_INTR_PFB      13
#define PMC_INTR_PTIMER   20
#define PMC_INTR_PBUS     28
#define PMC_INTR_SOFTWARE 31

#endif
