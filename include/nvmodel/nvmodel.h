/*
 * nvmodel — public API.
 *
 * A functional model of the NVIDIA GPU front end. One nvm_gpu is one simulated
 * GPU of one chip profile: its memory apertures (VRAM, system memory), its
 * BAR0 register space, its virtual clock and the blocks the chip has.
 *
 * Rules every function here follows:
 *  - Nothing prints, exits or reads the environment. Errors come back as an
 *    nvm_status; everything the guest does wrong comes back as events through
 *    the hooks (nvm_hook_add) and as the hardware's own error state.
 *  - Time is virtual (nanoseconds) and advances only inside nvm_run().
 *  - The same calls in the same order give the same results, byte for byte.
 */
#ifndef NVMODEL_NVMODEL_H
#define NVMODEL_NVMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/version.h" /* NVM_VERSION_*, nvm_version() */

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Status codes. NVM_OK is 0; every other value is an error. */
typedef enum nvm_status {
	NVM_OK = 0,
	NVM_ERR_ARG,      /* a NULL pointer or a value out of its domain */
	NVM_ERR_CHIP,     /* unknown chip name */
	NVM_ERR_RANGE,    /* address or length outside the aperture */
	NVM_ERR_NOMEM,    /* host allocation failed (or a configured limit hit) */
	NVM_ERR_APERTURE, /* unknown aperture */
	NVM_ERR_ALIGN,    /* a 32-bit access that is not 4-byte aligned */
	NVM_ERR_NOENT,    /* no such hook / block / object */
	NVM_ERR_BLOCKED,  /* the access is held (HWSQ framebuffer pause) and was not done */
	NVM_ERR_FAULT,    /* a translation faulted: the result holds the fault (GMMU, G80 VM) */
	NVM_ERR_NOPTR,    /* the memory is the caller's, behind callbacks: no direct pointer */
	NVM_ERR_BUSY,     /* not allowed from inside a library call (a hook, a callback) */
	NVM_ERR_FULL,     /* no room: a set-up heap or GPFIFO ring is full (nvmodel/setup.h) */
	NVM_ERR_VERSION,  /* a snapshot of another format or library version */
	NVM_ERR_CORRUPT,  /* a snapshot truncated, corrupted, or holding a state the model cannot be in */
} nvm_status;

/* Returns a short constant English name for a status ("ok", "out of range"...). */
const char *nvm_status_str(nvm_status st);

/* ---------------------------------------------------------------- chips */

/* Per-chip facts a user may want to see. Chip profiles are const data. */
typedef struct nvm_chip_info {
	const char *name;    /* "gv100", "g80", "nv04", ... */
	const char *family;  /* envytools' family: "NV04", "NV10", "NV40", "G80", "GV100" */
	uint32_t boot_0;     /* what PMC_BOOT_0 reads */
	uint64_t vram_max;   /* largest VRAM the profile accepts, bytes */
	uint64_t sysmem_max; /* largest system memory, bytes */
	const char *blocks;  /* space-separated names of the blocks it has */
} nvm_chip_info;

/* Number of chip profiles, and the i-th (NULL when out of range). */
size_t nvm_chip_count(void);
const nvm_chip_info *nvm_chip_get(size_t i);
/* Look a chip up by name (case-insensitive); NULL if unknown. */
const nvm_chip_info *nvm_chip_find(const char *name);
/* The default chip: gv100. */
#define NVM_DEFAULT_CHIP "gv100"

/* ---------------------------------------------------------------- open */

typedef struct nvm_gpu nvm_gpu;

/* A memory budget several GPUs share (a scenario runner bounds all the GPUs
 * of a script with one). used counts the bytes of simulated memory the GPUs
 * hold; nvm_close gives theirs back. The pool must outlive its GPUs. */
typedef struct nvm_mem_pool {
	uint64_t budget; /* bytes; 0 means no bound */
	uint64_t used;
} nvm_mem_pool;

typedef struct nvm_config {
	const char *chip;     /* NULL: NVM_DEFAULT_CHIP */
	uint64_t vram_size;   /* 0: the chip's maximum. Must be a multiple of 4 KiB */
	uint64_t sysmem_size; /* 0: the chip's maximum. Must be a multiple of 4 KiB */
	/* Upper bound on host memory used for simulated memory pages, in bytes;
	 * 0 means no bound. Writes that would exceed it fail with NVM_ERR_NOMEM. */
	uint64_t mem_budget;
	/* Optional: charge the pages to this shared pool instead (mem_budget is
	 * then ignored). */
	nvm_mem_pool *mem_pool;
} nvm_config;

/* Creates a GPU. cfg may be NULL (all defaults). */
nvm_status nvm_open(const nvm_config *cfg, nvm_gpu **out);
/* Frees a GPU. Safe from inside a hook (event hook, page table
 * enumeration callback): the GPU is then closed at once as far as the
 * caller can tell (no further hook runs, a running nvm_run stops after the
 * current event) and its memory is freed when the outermost library call
 * in progress on it returns. Either way the pointer must not be used after
 * nvm_close. */
void nvm_close(nvm_gpu *gpu);
const nvm_chip_info *nvm_gpu_chip(const nvm_gpu *gpu);

/* ---------------------------------------------------------------- memory */

/* Apertures. The hardware's SYS_MEM_COHERENT and SYS_MEM_NONCOHERENT targets
 * both land in NVM_AP_SYSMEM: coherence is a cache property the model does
 * not need to simulate. */
typedef enum nvm_aperture { NVM_AP_VRAM = 0, NVM_AP_SYSMEM = 1, NVM_AP_COUNT } nvm_aperture;

/* Parses "vram" / "sysmem" (also "sys", "sysmem_coh", "sysmem_ncoh");
 * returns NVM_ERR_APERTURE when unknown. */
nvm_status nvm_aperture_parse(const char *name, nvm_aperture *out);
const char *nvm_aperture_name(nvm_aperture ap);
uint64_t nvm_mem_size(const nvm_gpu *gpu, nvm_aperture ap);

/* Bounds-checked accessors. While a framebuffer pause holds memory
 * (HWSQ flag 16 FB_PAUSE, nvmodel/hwsq.h) they do nothing and return
 * NVM_ERR_BLOCKED: the access would not complete before the pause ends.
 * An access that does not fit entirely inside the
 * aperture fails with NVM_ERR_RANGE and touches nothing. Untouched memory
 * reads as zero; memory is allocated in 4 KiB pages on first write. */
nvm_status nvm_mem_read(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, void *buf, size_t len);
nvm_status nvm_mem_write(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, const void *buf, size_t len);
nvm_status nvm_mem_rd32(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint32_t *val);
nvm_status nvm_mem_wr32(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint32_t val);

/* Direct access to the backing of the page that holds addr, for bulk reads.
 * On success *ptr points at addr and *avail is the number of bytes from addr
 * to the end of its 4 KiB page. With for_write == 0 an untouched page yields
 * a pointer into a shared page of zeros (do not write through it); with
 * for_write != 0 the page is allocated. The pointer stays valid until
 * nvm_close, or until a nvm_mem_map_* or nvm_mem_unmap covers its page.
 * Memory behind nvm_mem_map_io callbacks has no pointer: NVM_ERR_NOPTR.
 * A write through the pointer wakes no watch (see nvm_mem_written). */
nvm_status nvm_mem_page(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, int for_write, uint8_t **ptr, size_t *avail);

/* Number of 4 KiB pages allocated in an aperture (how much host memory the
 * sparse store really uses). */
uint64_t nvm_mem_pages(const nvm_gpu *gpu, nvm_aperture ap);

/* ---------------------------------------------------------------- caller-owned memory
 *
 * A range of an aperture can be backed by the caller's memory instead of the
 * model's pages: by a buffer the model reads and writes in place (like
 * Unicorn's uc_mem_map_ptr), or by callbacks for memory the caller cannot
 * map (an emulator's guest RAM behind its own memory API). Every access the
 * model makes there (pushbuffer and GPFIFO fetches, page-table walks,
 * instance blocks, USERD writeback, semaphore releases, copy-engine copies,
 * fault packets) goes to the caller's memory, and the model sees the
 * caller's writes there without any copy.
 *
 * addr and size are multiples of 4 KiB, size > 0, the range inside the
 * aperture and overlapping no other caller range. What the model held in
 * the range before is dropped (its pages freed and given back to the memory
 * budget); the budget never counts caller-owned memory. At most
 * NVM_MEM_MAX_RANGES ranges per aperture. Not allowed from inside a hook or
 * callback of this GPU (NVM_ERR_BUSY): a run may hold pointers into the
 * range.
 *
 * Watches: the model learns of writes that go through it (nvm_mem_write and
 * its own accesses). A semaphore acquire waiting on caller-owned memory
 * does not see a write the caller makes directly in its buffer until the
 * caller calls nvm_mem_written (the model's acquires wait on a write watch,
 * not by polling). */
#define NVM_MEM_MAX_RANGES 64

typedef struct nvm_mem_io {
	/* Read len bytes at aperture address addr into buf / write them from
	 * buf. The model calls them with addr and len inside the range, len >=
	 * 1, never across the range's end. A non-zero return is a failed
	 * access: the model treats it as memory outside the aperture (the
	 * hardware's error for the block that made it, a guest error event). */
	int (*read)(void *ctx, uint64_t addr, void *buf, size_t len);
	int (*write)(void *ctx, uint64_t addr, const void *buf, size_t len);
	void *ctx;
} nvm_mem_io;

/* Backs [addr, addr + size) of ap with the size bytes at ptr (any
 * alignment; the caller keeps it valid until nvm_mem_unmap or nvm_close).
 * nvm_mem_page returns pointers into it. */
nvm_status nvm_mem_map_ptr(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t size, void *ptr);
/* Backs [addr, addr + size) of ap with the callbacks of *io (copied; both
 * callbacks required). nvm_mem_page there returns NVM_ERR_NOPTR. The model
 * reads such memory a piece at a time: a pushbuffer there is fetched a word
 * per call, so map a buffer where speed matters. */
nvm_status nvm_mem_map_io(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t size, const nvm_mem_io *io);
/* Gives a caller range back to the model (it then reads as zeros).
 * [addr, addr + size) must be exactly one range given to nvm_mem_map_*
 * (NVM_ERR_NOENT otherwise). */
nvm_status nvm_mem_unmap(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t size);
/* Tells the model that the caller wrote [addr, addr + len) of ap directly
 * (in its buffer or behind its callbacks): wakes what watches it, as a
 * write through nvm_mem_write would. */
nvm_status nvm_mem_written(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t len);

/* ---------------------------------------------------------------- BAR0 */

/* 32-bit register access through the BAR0 register bus. addr must be 4-byte
 * aligned and below 16 MiB (the BAR0 size). On G80+ an HWSQ framebuffer
 * pause also holds host MMIO: the access is not done, NVM_ERR_BLOCKED. Unknown offsets read 0 and raise
 * an NVM_EV_UNMODELLED event; they never fail. */
nvm_status nvm_reg_read(nvm_gpu *gpu, uint32_t addr, uint32_t *val);
nvm_status nvm_reg_write(nvm_gpu *gpu, uint32_t addr, uint32_t val);

/* Name of the register at addr ("NV_PMC_BOOT_0"), or NULL if none. */
const char *nvm_reg_name(const nvm_gpu *gpu, uint32_t addr);

/* ---------------------------------------------------------------- time */

typedef enum nvm_run_status {
	NVM_RUN_BUDGET = 0, /* the time budget ran out (the normal end of run{ns}) */
	NVM_RUN_IDLE,       /* stopped early: every block idle and nothing pending */
	NVM_RUN_HANG,       /* the work budget ran out before the time budget: a loop */
	NVM_RUN_STOPPED,    /* a hook asked to stop (nvm_stop) */
} nvm_run_status;

#define NVM_RUN_UNTIL_IDLE 0x1u

typedef struct nvm_run_opts {
	uint64_t ns;    /* time budget in ns from the current time */
	unsigned flags; /* NVM_RUN_UNTIL_IDLE */
	/* 0: default (10 million). The run budget in work units: each event
	 * is one, and blocks charge the work they do inside an event (methods
	 * decoded, sequencer instructions); a run that spends it before time
	 * reaches its end stops with NVM_RUN_HANG. */
	uint64_t max_events;
} nvm_run_opts;

/* Advances virtual time by up to opts->ns, processing due events in time
 * order (ties in scheduling order). Returns the reason it stopped. Called
 * from a hook of a run in progress it does nothing and returns
 * NVM_RUN_STOPPED (a nested run would restart the budget). */
nvm_run_status nvm_run(nvm_gpu *gpu, const nvm_run_opts *opts);
const char *nvm_run_status_str(nvm_run_status st); /* "budget", "idle", "hang", "stopped" */

/* Current virtual time in ns since open. */
uint64_t nvm_time_ns(const nvm_gpu *gpu);
/* Is the GPU idle (no block busy, no event pending)? */
bool nvm_idle(nvm_gpu *gpu);
/* Ask a running nvm_run to stop after the current event (from a hook). */
void nvm_stop(nvm_gpu *gpu);
/* Work units (as the run budget counts them) charged since open, inside
 * runs and out: what a caller with a budget of its own charges for the
 * model's work (the scenario runner's instruction budget). */
uint64_t nvm_work_done(const nvm_gpu *gpu);

/* ---------------------------------------------------------------- hooks */

typedef enum nvm_event_type {
	NVM_EV_GUEST_ERROR = 0, /* the guest did something the hardware rejects */
	NVM_EV_UNMODELLED,      /* access to something the model does not implement */
	NVM_EV_INTERRUPT,       /* the PMC interrupt output changed level */
	NVM_EV_FAULT,           /* an MMU / VM fault was reported (nvm_event.detail: the fault record) */
	NVM_EV_METHOD,          /* a method reached an engine (the Volta Host's engines) */
	NVM_EV_MMIO,            /* a BAR0 register write (trace) */
	NVM_EV_TRACE,           /* anything else worth a line in a trace */
	NVM_EV_COUNT
} nvm_event_type;

#define NVM_EV_MASK(t) (1u << (t))
#define NVM_EV_ALL     ((1u << NVM_EV_COUNT) - 1u)

typedef struct nvm_event {
	nvm_event_type type;
	uint64_t time_ns;
	const char *block;   /* "pmc", "ptimer", "bus", "host", "mmu", "hwsq", ... */
	const char *code;    /* short stable code, e.g. "unknown_reg", "intr" */
	uint64_t addr;       /* register or memory address, when there is one */
	uint64_t value;      /* data / new level / fault type, per code */
	const char *message; /* human readable; valid only during the callback */
	/* The record behind the event, valid only during the callback; NULL
	 * where there is none. NVM_EV_FAULT carries the faulting block's fault
	 * record: block "mmu", const nvm_mmu_fault_event * (nvmodel/mmu.h; also
	 * on the NVM_EV_TRACE "cancelled" of a cancelled replayable request);
	 * block "g80vm", const nvm_g80_fault_info * (nvmodel/g80vm.h). */
	const void *detail;
} nvm_event;

typedef void (*nvm_hook_fn)(void *user, const nvm_event *ev);

/* Installs fn for the events in mask (NVM_EV_MASK bits). Hooks run in the
 * order they were added. Returns a positive id in *id. */
nvm_status nvm_hook_add(nvm_gpu *gpu, unsigned mask, nvm_hook_fn fn, void *user, int *id);
nvm_status nvm_hook_del(nvm_gpu *gpu, int id);
const char *nvm_event_type_name(nvm_event_type t); /* "guest_error", "interrupt", ... */

/* Count of events of one type seen since open (whether or not hooked). */
uint64_t nvm_event_count(const nvm_gpu *gpu, nvm_event_type t);

/* Level of the PMC interrupt output line (the PCI INTA pin): 1 asserted. */
bool nvm_intr_line(nvm_gpu *gpu);

/* ---------------------------------------------------------------- snapshots */

/* Save states of the whole GPU: registers, every block's state, the
 * engines and their method logs, pending events, virtual time and the
 * model-owned memory (memory mapped with nvm_mem_map_* is the caller's: a
 * snapshot records only where it is). Hooks are the caller's and are not
 * saved. A run continued from a restored snapshot is the same, event for
 * event, as the run that was never saved.
 *
 * nvm_snapshot_save writes the snapshot into buf (cap bytes) and its size
 * into *len; with buf NULL it only measures. NVM_ERR_NOMEM: cap is too
 * small (*len gets the size needed). NVM_ERR_BUSY from inside a hook or a
 * callback (the model is in the middle of an event). NVM_ERR_NOENT: a block
 * of this chip cannot be saved.
 *
 * nvm_snapshot_load restores a snapshot into an open GPU of the same chip
 * and sizes, with the same caller-owned ranges mapped: NVM_ERR_CHIP from
 * another chip, NVM_ERR_VERSION from another format or library version,
 * NVM_ERR_ARG for other aperture sizes or caller ranges, NVM_ERR_CORRUPT for
 * a truncated or damaged snapshot or one holding a state the model could
 * not be in. The whole snapshot is checked before anything is restored: a
 * refused snapshot changes nothing. NVM_ERR_NOMEM while restoring (the
 * memory budget) leaves the GPU part restored: close it. */
nvm_status nvm_snapshot_save(nvm_gpu *gpu, void *buf, size_t cap, size_t *len);
nvm_status nvm_snapshot_load(nvm_gpu *gpu, const void *buf, size_t len);

/* What a snapshot says about itself: enough to open the GPU to load it
 * into (chip, sizes, caller ranges to map). */
typedef struct nvm_snapshot_info {
	uint32_t format;  /* the container's format number */
	char version[16]; /* the library version that wrote it, "0.1.0" */
	char chip[16];
	uint64_t time_ns; /* virtual time at the save */
	uint64_t vram_size, sysmem_size;
	uint64_t vram_pages, sysmem_pages;   /* model-owned 4 KiB pages held */
	uint64_t vram_ranges, sysmem_ranges; /* caller-owned ranges the GPU must have mapped */
	uint64_t sections;                   /* sections after the header, every CRC checked */
} nvm_snapshot_info;
/* Reads a snapshot's header and checks every section's length and CRC,
 * without a GPU: NVM_ERR_CORRUPT or NVM_ERR_VERSION as nvm_snapshot_load
 * would say (a snapshot of another version is refused: its layout is not
 * known). */
nvm_status nvm_snapshot_peek(const void *buf, size_t len, nvm_snapshot_info *info);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
