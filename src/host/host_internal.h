/*
 * Internal interface of the Host block (src/host/): the shared mechanism
 * (runlists and their scheduler, engine status, doorbells and preempts in
 * host.c; the PBDMA units in pbdma.c) and the generation description it
 * calls through (struct host_gen; one file per generation: gv100.c).
 * docs/host.md describes the model, docs/architecture.md how to add a
 * generation.
 */
#ifndef NVM_HOST_INTERNAL_H
#define NVM_HOST_INTERNAL_H

#include "core/core.h"
#include "engine/engine.h"
#include "nvmodel/host.h"
#include "nvmodel/mmu.h"
#include "nvmodel/pushbuf.h"
#include "pushbuf/pb_gens.h"

#include "nvmodel/host_fmt.h"

/* Virtual-time costs (docs/host.md "Timing"). UNVERIFIED: the manuals give
 * no rates; these keep timeslices meaningful. The context-switch cost
 * follows silicon H100 ("about 1 us of switch cost"). */
#define HOST_NS_PER_DWORD  1u     /* a PBDMA consumes one PB entry per ns */
#define HOST_NS_CTXSW      1000u  /* RAMFC save + load */
#define HOST_NS_RL_FETCH   100u   /* runlist fetch latency, plus one ns per entry */
#define HOST_STEP_DWORDS   16384u /* PB entries a PBDMA handles per scheduling step */
#define HOST_WORK_PER_UNIT 256u   /* PB entries per charged work unit */
/* Work units (the run budget, docs/host.md "Costs and bounds") of the Host's
 * operations that touch memory besides the PB entries: each costs about as
 * much real time as this many events, so a loop the guest builds out of them
 * (a GP ring the channel refills itself, a TSG whose channels bounce between
 * PBDMAs) ends its run with a hang in a fraction of a second. */
#define HOST_UNITS_GP_ENTRY 8u  /* GP entry fetch and segment set-up */
#define HOST_UNITS_SEM      8u  /* a semaphore operation (translation, read, write) */
#define HOST_UNITS_CTXSW    16u /* a context load or save (RAMFC, USERD) */

struct host;
struct pbdma;
struct runlist;

/* One runlist as the chip wires it (per-generation const data). */
struct host_rl_desc {
	const char *engine;   /* the primary engine: "gr", "ce2" ... */
	const char *kind;     /* its engine kind (engine_new): "recorder", "ce" */
	const char *grce;     /* GRCOPY engine reached by subchannel 4 (GR runlist), or NULL */
	unsigned mmu_id;      /* MMU engine id of the primary engine, as gv100 numbers it */
	unsigned grce_mmu_id; /* and of GRCOPY (the GMMU generation renumbers both) */
	unsigned engstat;     /* NV_PFIFO_ENGINE_STATUS index */
	uint8_t pbdma[2];     /* PBDMAs serving it, by RUNQUEUE_SELECTOR */
	unsigned npbdma;
};

/* One engine as NV_PTOP device info publishes it: what it is, where its
 * registers are and which ids it has. Each generation keeps a table of these
 * and encodes it in its own row format (tu102.c: DEVICE_INFO(i) ENUM/DATA/
 * ENGINE_TYPE entries; ga100.c: DEVICE_INFO2 rows). */
struct ptop_dev {
	uint8_t type;      /* TYPE_ENUM: 0 GRAPHICS, 0x13 LCE */
	uint8_t inst;      /* INST_ID: the instance of that type */
	uint8_t fault;     /* FAULT_ID: the MMU engine id, as gv100 numbers it */
	uint32_t addr;     /* PRI_BASE: the engine's BAR0 base */
	uint8_t reset;     /* RESET_ENUM: its reset id */
	uint8_t runlist;   /* RUNLIST_ENUM: the runlist serving it */
	uint8_t rl_engine; /* Ampere: its index in that runlist (ENGINE_STATUS0(i)) */
	uint8_t engine;    /* Turing: ENGINE_ENUM, its NV_PFIFO_ENGINE_STATUS index */
	uint8_t intr;      /* Turing: INTR_ENUM, its NV_PMC_INTR_*_DEVICE bit */
};

/* How a Host method ended: done; parked with an interrupt (STALL) or
 * waiting (BLOCK: an acquire, a fault); YIELD: done, and the channel gives
 * up the PBDMA; RETRY: parked, run again at wait_until (CLEAR_FAULTED). */
enum mres { M_DONE = 0, M_STALL, M_BLOCK, M_YIELD, M_RETRY };

/* A Host method of the generation's host class (pbdma.c hm_*): subch is the
 * method's subchannel, data its operand. */
typedef enum mres (*host_method_fn)(struct pbdma *p, uint32_t subch, uint32_t data);

/* The channel-RAM bits the mechanism sets and tests (PCCSR on Volta and
 * Turing, CHRAM on Ampere). */
enum host_fault { HOST_PBDMA_FAULTED, HOST_ENG_FAULTED };

/* What differs between Host generations and is code: register spaces and
 * their handlers, the channel RAM, the interrupt tree. gv100.c has the
 * Volta ones; a later generation reuses them and overrides what changed. */
struct host_gen_ops {
	/* Allocates the generation's state (h->gs) and adds its PFIFO,
	 * channel-RAM and usermode register spaces (not the PBDMAs'). */
	nvm_status (*create)(struct host *h);
	void (*destroy)(struct host *h);
	/* Channel RAM: bound, enabled and not faulted. */
	bool (*chan_runnable)(const struct host *h, uint32_t chid);
	/* The channel's instance block: aperture TARGET (0 VID_MEM, 2/3
	 * SYS_MEM; 1 names none) and byte address. */
	uint64_t (*chan_inst)(const struct host *h, uint32_t chid, unsigned *target);
	/* The NV_PCCSR_CHANNEL_STATUS the channel shows (PCCSR_STATUS_*). */
	void (*chan_set_status)(struct host *h, uint32_t chid, unsigned status);
	bool (*chan_faulted)(const struct host *h, uint32_t chid, enum host_fault f);
	void (*chan_set_faulted)(struct host *h, uint32_t chid, enum host_fault f, bool on);
	/* The channel-RAM part of nvm_host_channel_info. */
	void (*chan_info)(const struct host *h, uint32_t chid, nvm_host_channel *out);
	/* Interrupts: recompute the PMC line; the non-stalling interrupt;
	 * the scheduler's and the context switch's error interrupts. */
	void (*update_intr)(struct host *h);
	void (*nonstall)(struct host *h, uint32_t chid);
	void (*sched_error)(struct host *h, uint32_t code, uint64_t addr, const char *why);
	void (*chsw_error)(struct host *h, uint32_t code, uint64_t addr, const char *why);
	/* Scheduling of runlist rl is disabled by software. */
	bool (*sched_disabled)(const struct host *h, const struct runlist *rl);
	/* Status registers: the runlist was taken (PENDING clears); the
	 * engine status of rl's engine; a PBDMA loaded / unloaded a channel. */
	void (*runlist_taken)(struct host *h, struct runlist *rl);
	void (*engine_status)(struct host *h, const struct runlist *rl, uint32_t status, uint32_t inst,
	                      uint32_t next_inst);
	void (*pbdma_status)(struct host *h, const struct pbdma *p, bool loaded);
	/* Optional (NULL: gv100's behaviour). A channel entry of runlist rl
	 * was taken: returns the index of the channel in h->chan (gv100: the
	 * CHID; Ampere: the runlist's own channel RAM, so rl * 2048 + CHID)
	 * and records what the entry carries (Ampere: INST and USERD). */
	uint32_t (*rl_chan)(struct host *h, struct runlist *rl, const nvm_rl_entry *e);
	/* A PBDMA loaded its channel's RAMFC: the registers RAMFC does not
	 * carry (Ampere: USERD from the runlist entry). */
	void (*chan_load)(struct host *h, struct pbdma *p);
	/* A channel handle (the doorbell token; CLEAR_FAULTED's HANDLE on C46F
	 * and later) -> *chid; false when the handle names no channel (the
	 * write or method then targets none). gv100: the handle is the chid;
	 * tu102: RUNLIST_ID 22:16 | CHID 11:0. */
	bool (*handle_chid)(const struct host *h, uint32_t handle, uint32_t *chid);
	/* Optional: snapshots of the generation's state that no register
	 * holds (Ampere: the runlist entries' INST and USERD), as struct
	 * block_snap's save / load. */
	void (*snap_save)(const struct host *h, struct snap_w *w);
	void (*snap_load)(struct host *h, struct snap_r *r, bool apply);
};

/* A Host generation (gv100.c): counts, topology, register tables, memory
 * layouts, the host class and the operations that differ. Everything the
 * shared mechanism knows about a chip comes from here. */
struct host_gen {
	const char *name;  /* "gv100" */
	unsigned nchan;    /* channels (channel RAM entries) */
	unsigned npbdma;   /* PBDMA units */
	unsigned nrunlist; /* runlists wired to an engine (rl[]) */
	const struct host_rl_desc *rl;
	/* The PBDMA register file: base, stride, the table in enum pbr order. */
	uint32_t pbdma_base, pbdma_stride;
	const struct reg_desc *pbdma_regs;
	/* PFIFO registers the PBDMAs read (NV_PFIFO_USERD_WRITEBACK,
	 * NV_PFIFO_CLEAR_FAULTED_TIMEOUT). */
	uint32_t r_userd_writeback, r_clear_faulted_timeout;
	/* The doorbell register (events name it). */
	uint32_t r_doorbell;
	/* The host class: its id (methods below 0x100) and the method table,
	 * indexed by method >> 2 (NULL: not defined, INTR_0 METHOD). The
	 * pushbuffer profile is the chip row's (pb_chip_gen). */
	uint32_t host_class;
	const host_method_fn *methods; /* 64 entries */
	/* NV_PPBDMA_SIGNATURE_HW: the values RAMFC may hold (HW_VALID and
	 * HW_HOST_CLASS_ID). */
	uint32_t sig_valid, sig_host_class;
	/* Classes the engines accept in SET_OBJECT. */
	const uint32_t *gr_classes;
	size_t ngr_classes;
	uint32_t ce_class;
	/* Field positions the PBDMA reads that moved between generations:
	 * LIMIT2 (register enum pbr and low bit; 5 bits wide), the widths of
	 * GP_BASE_HI OFFSET and SEM_ADDR_HI OFFSET, the VA width of the GPFIFO
	 * check (INTR_0 GPFIFO). */
	uint8_t gp_limit2_reg, gp_limit2_lo;
	uint8_t gp_base_hi_bits, sem_addr_hi_bits, gpfifo_va_bits;
	/* GP OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE is defined and GP_INFO
	 * PB_SEGMENT_EXTENDED_BASE 24:8 extends PB segment addresses (gh100);
	 * elsewhere OPCODE 4 is undefined (INTR_0 GPENTRY). */
	bool gp_extended_base;
	/* Which semaphore reductions SEM_EXECUTE accepts (size, format). */
	bool (*sem_red_valid)(unsigned red, bool is64, bool sgn);
	/* Memory layouts (host_fmt_tables.c), indexed by nvm_hf_struct; RAMFC and
	 * RAMUSERD also tell the PBDMA which registers it loads, saves and
	 * writes back. */
	const nvm_hf_layout *layouts;
	void (*rl_entry_decode)(const uint8_t *raw, nvm_rl_entry *out);
	/* The SCHED_ERROR code of each runlist malformation (nvm_hf_check),
	 * NULL: gv100's BAD_TSG (0x20) for all. */
	const uint8_t *bad_tsg_codes;
	/* Bytes of the generation's state (bench: bytes per channel). */
	size_t state_bytes;
	const struct host_gen_ops *ops;
};

/* A TSG of the current runlist. */
struct rl_tsg {
	uint32_t tsgid;
	uint64_t timeslice; /* ns */
	uint32_t first, n;  /* its channel entries in runlist.ch[] */
};

/* The context on the runlist's engine, as NV_PFIFO_ENGINE_STATUS shows it
 * (host.c "engine status"). */
struct eng_ctx {
	int tsg;          /* TSG whose context is on the engine (ID), -1 none */
	uint32_t inst;    /* PCCSR INST (PTR 27:0, TARGET 29:28) of the channel that loaded it */
	int fault_chid;   /* the channel whose engine fault holds the context, -1 none */
	bool saving;      /* a preempt is saving it off the engine */
	uint64_t idle_ev; /* the event at the engine's completion, 0 if none */
};

struct runlist {
	unsigned id;
	const struct host_rl_desc *desc;
	struct rl_tsg *tsg;
	size_t ntsg;
	uint32_t *ch; /* chids, in runlist order */
	uint8_t *runq;
	size_t nch;
	size_t cur;          /* current TSG */
	uint64_t slice_end;  /* end of the current TSG's timeslice */
	uint64_t slice_ev;   /* the timeslice event, 0 if none */
	bool slice_fg;       /* it is a foreground event (another TSG waits) */
	uint64_t fetch_ev;   /* pending runlist fetch */
	unsigned sub_target; /* the submitted runlist: TARGET, base, entries */
	uint64_t sub_base;
	uint32_t sub_len;
	struct engine *eng;  /* primary engine */
	struct engine *grce; /* GRCOPY on the GR runlist */
	struct pbdma *pb[2];
	struct eng_ctx ectx;
	uint8_t pb_used;   /* bit q: a listed channel runs on pb[q] (host_rl_pb_used) */
	size_t prefetched; /* 1 + the TSG whose load last prefetched the next ones (host_prefetch), 0 none */
	/* The RAMFC pointers prefetch_tsg's first stage found for the first
	 * channels of TSG tsg1 - 1 (slot: TSG index & 3), used by its later
	 * stages while the memory spaces' epoch is unchanged (no page went). A
	 * cache for prefetching only (host_prefetch_drop). */
	struct pf_slot {
		size_t tsg1; /* 0 none */
		uint64_t epoch;
		const uint8_t *fc[4];
	} pf[4];
};

/* The Host's own view of a channel (the guest-visible part is PCCSR). */
struct chan {
	/* Stored as index + 1 so that zeroed memory means "none" (a new
	 * channel costs nothing); read and written through the chan_*
	 * accessors below only. */
	int16_t runlist1;    /* listed on, 0 none */
	int16_t tsg1;        /* index in that runlist's tsg[], 0 none */
	int8_t pbdma1;       /* loaded on, 0 none */
	bool work;           /* may have work: doorbell seen, or not yet out of work */
	bool acq_wait;       /* blocked on a semaphore acquire */
	bool acq_switch;     /* the blocked acquire had ACQUIRE_SWITCH_TSG */
	nvm_aperture acq_ap; /* aperture of the watched semaphore */
	uint8_t gp_hint_ap;  /* hints (below): aperture + 1 of gp_hint, 0 none */
	uint8_t pb_hint_ap;  /* and of pb_hint */
	uint64_t acq_wake_ev;
	uint64_t acq_timeout_ev; /* acquire deadline event */
	uint32_t cls[8];         /* SET_OBJECT class per subchannel; UNVERIFIED: kept by Host, not saved to RAMFC */
	uint64_t methods;
	/* Hints for the host's caches only (host.c prefetch_tsg), guesses
	 * from the last accesses (a wrong one costs a useless fetch): where
	 * entry 0 of the channel's GPFIFO is if its ring is linear in memory,
	 * and the physical minus the virtual address of its last PB segment. */
	uint64_t gp_hint, pb_hint;
};

/* The runlist the channel is listed on, -1 none. */
static inline int chan_runlist(const struct chan *c)
{
	return c->runlist1 - 1;
}

/* Its TSG's index in that runlist's tsg[], -1 none. */
static inline int chan_tsg(const struct chan *c)
{
	return c->tsg1 - 1;
}

/* The PBDMA it is loaded on, -1 none. */
static inline int chan_loaded_pbdma(const struct chan *c)
{
	return c->pbdma1 - 1;
}

/* Lists the channel on runlist rl as a member of its TSG tsg (index in
 * rl's tsg[]; a runlist has fewer than 32767 TSGs), or -1, -1: not listed. */
static inline void chan_set_listed(struct chan *c, int rl, int tsg)
{
	c->runlist1 = (int16_t)(rl + 1);
	c->tsg1 = (int16_t)(tsg + 1);
}

/* Marks the channel loaded on PBDMA pbdma, or -1: not loaded. */
static inline void chan_set_loaded(struct chan *c, int pbdma)
{
	c->pbdma1 = (int8_t)(pbdma + 1);
}

/* PBDMA register indices, in the order of the register table (pbdma.c). */
enum pbr {
	PBR_GP_PUT,
	PBR_MEM_OP_A,
	PBR_USERD,
	PBR_USERD_HI,
	PBR_SIGNATURE,
	PBR_GP_GET,
	PBR_GET,
	PBR_GET_HI,
	PBR_TOP_LEVEL_GET,
	PBR_TOP_LEVEL_GET_HI,
	PBR_REF,
	PBR_RUNTIME,
	PBR_ACQUIRE,
	PBR_ACQUIRE_DEADLINE,
	PBR_SEM_ADDR_HI,
	PBR_SEM_ADDR_LO,
	PBR_SEM_PAYLOAD_LO,
	PBR_SEM_EXECUTE,
	PBR_GP_BASE,
	PBR_GP_BASE_HI,
	PBR_GP_FETCH,
	PBR_PB_FETCH,
	PBR_PB_FETCH_HI,
	PBR_PUT,
	PBR_PUT_HI,
	PBR_MEM_OP_B,
	PBR_GP_CRC,
	PBR_PB_HEADER,
	PBR_PB_COUNT,
	PBR_SUBDEVICE,
	PBR_PB_CRC,
	PBR_SEM_PAYLOAD_HI,
	PBR_MEM_OP_C,
	PBR_GP_INFO, /* gh100 NV_PBDMA_GP_INFO 0x0a4 (LIMIT2 4:0); a hidden slot before */
	PBR_TARGET,
	PBR_METHOD_CRC,
	PBR_METHOD0,
	PBR_DATA0,
	PBR_METHOD1,
	PBR_DATA1,
	PBR_METHOD2,
	PBR_DATA2,
	PBR_METHOD3,
	PBR_DATA3,
	PBR_HCE_CTRL,
	PBR_CONFIG,
	PBR_SET_CHANNEL_INFO,
	PBR_STATUS,
	PBR_INTR_0,
	PBR_INTR_EN_0,
	PBR_GP_SHADOW_0,
	PBR_GP_SHADOW_1,
	PBR_HDR_SHADOW,
	PBR_CHANNEL,
	PBR_TIMEOUT,
	PBR_INTR_STALL,
	PBR_INTR_STALL_1,
	PBR_INTR_1,
	PBR_INTR_EN_1,
	PBR_HCE_DBG0,
	PBR_HCE_DBG1,
	/* Ampere (ga100_dev_pbdma): the debug copy of the runlist entry's USERD
	 * and the interrupt-enable trees (SET and CLEAR read the same enable);
	 * hidden slots on gv100. */
	PBR_STATUS_USERD,
	PBR_STATUS_USERD_HI,
	PBR_INTR_0_EN_SET_TREE0,
	PBR_INTR_0_EN_SET_TREE1,
	PBR_INTR_1_EN_SET_TREE0,
	PBR_INTR_1_EN_SET_TREE1,
	PBR_INTR_0_EN_CLEAR_TREE0,
	PBR_INTR_0_EN_CLEAR_TREE1,
	PBR_INTR_1_EN_CLEAR_TREE0,
	PBR_INTR_1_EN_CLEAR_TREE1,
	PBR_COUNT
};

/* NV_PPBDMA_INTR_0 bits (gv100_dev_pbdma.ref, volta-facts.md c). */
#define INTR0_GPFIFO            (1u << 13)
#define INTR0_GPPTR             (1u << 14)
#define INTR0_GPENTRY           (1u << 15)
#define INTR0_PBENTRY           (1u << 18)
#define INTR0_METHOD            (1u << 21)
#define INTR0_DEVICE            (1u << 23)
#define INTR0_SEMAPHORE         (1u << 25)
#define INTR0_ACQUIRE           (1u << 26)
#define INTR0_PBSEG             (1u << 30)
#define INTR0_SIGNATURE         (1u << 31)
#define INTR1_HCE_ILLEGAL_CLASS (1u << 4)
#define INTR1_CTXNOTVALID       (1u << 31)

enum pb_state {
	PBS_IDLE = 0, /* no channel */
	PBS_LOADING,  /* context load in flight */
	PBS_RUN,      /* a channel is loaded */
};

struct pbdma {
	struct host *h;
	unsigned id;
	struct runlist *rl; /* the runlist it serves, NULL if none */
	unsigned runq;      /* its RUNQUEUE_SELECTOR value on that runlist */
	uint32_t *r;        /* its registers (enum pbr) */
	enum pb_state state;
	int chid;                           /* loaded channel, -1 */
	uint64_t inst;                      /* its instance block (host_chan_inst), */
	unsigned inst_target;               /* refreshed at every change of its channel RAM */
	uint64_t ev;                        /* pending step / load event, 0 if none */
	uint64_t wb_ev;                     /* the USERD writeback timer, 0 if none */
	uint32_t ramfc[NVM_RAMFC_SIZE / 4]; /* the loaded RAMFC image */
	bool deadline_on;                   /* ACQUIRE_DEADLINE is armed (TIMEOUT_EN at the first failure) */
	uint64_t wait_until;                /* a CLEAR_FAULTED retry: do nothing before this time */
	bool yield;                         /* a YIELD: the channel gives up the PBDMA after this step */
	/* the decoder; the segment in progress is GET..PUT (registers) */
	nvm_pb_decoder dec;
	/* a stop requested from inside a decoder callback */
	bool stop;
	int stop_res;          /* enum mres of the stop */
	uint32_t stop_done;    /* methods an engine completed before it stopped */
	uint64_t cost;         /* ns spent in the current step */
	uint64_t units;        /* work units of the current step besides its PB entries */
	struct engine *target; /* last engine that got methods (NV_PPBDMA_TARGET_ENGINE) */
	/* on_runs: the engine decision (engine_prepare) of engine subchannel s
	 * while bit s of pick_valid is set, for the rest of a feed_segment */
	uint32_t pick_valid;
	uint32_t pick_rec; /* bit s: pick[s].e is a recorder without a method log (deliver_rec) */
	uint32_t pick_log; /* bit s: pick[s].e is a recorder with a method log (log_stretch) */
	uint32_t pick_st;  /* bit s: pick[s].st holds pick[s].e's state methods (deliver_state) */
	struct {
		struct engine *e;
		struct eng_src src;
		struct eng_state st;
	} pick[5];
};

/* USERD entries the PBDMA writes back, from the generation's RAMUSERD
 * layout: every word that mirrors a register, except GP_PUT (software's). */
#define HOST_USERD_WB_MAX  16u
#define HOST_USERD_WB_SPAN 32u /* dwords the written-back range may span */

struct host {
	nvm_gpu *gpu;
	const struct host_gen *gen;
	void *gs;             /* the generation's own state (gv100.c: PFIFO arrays, PCCSR) */
	uint32_t *pbdma_vals; /* [npbdma * PBR_COUNT] */
	struct chan **chan;   /* [nchan / HOST_CHAN_CHUNK, rounded up] chunks (host_chan) */
	/* Bit chid: the channel's work && !acq_wait, chan_ready's part in
	 * struct chan, so that the scheduler's walks over many TSGs read 64
	 * channels a word instead of each struct chan. Derived state: written
	 * with chan_set_work / chan_set_acq_wait, rebuilt by host_ready_rebuild. */
	uint64_t *ready;    /* [nchan / 64, rounded up] */
	struct runlist *rl; /* [nrunlist] */
	struct pbdma *pb;   /* [npbdma] */
	struct engine **engines;
	size_t nengines;
	const nvm_pb_class *host_class;
	const nvm_pb_gen *pb_gen;
	struct intr_line intr;       /* PFIFO_INTR_0 / INTR_EN_0 -> PMC line 8 */
	struct intr_tree tree;       /* the CPU interrupt tree (tu102 and later; d NULL before) */
	struct runlist *rl_fetching; /* the runlist being read (its errors are its own), or NULL */
	nvm_host_stats stats;
	struct reg_array pbdma_array;
	bool method_crc; /* compute NV_PPBDMA_METHOD_CRC (nvm_host_set_method_crc) */
	/* From the RAMFC layout: the dwords that mirror a register, and the
	 * register (enum pbr) each mirrors. */
	unsigned nramfc;
	struct {
		uint8_t dword, reg;
	} ramfc[PBR_COUNT];
	/* The same words as fixed-size copies of their runs (pbdma_ramfc_runs;
	 * pbdma.c ramfc_to_regs, regs_to_ramfc: one loop per size, no per-run
	 * remainder): 16 bytes
	 * while a run has 4 words left, its last 16 overlapping the block
	 * before (the same words copied twice); a run of 2-3 words in 8-byte
	 * copies (overlapping for 3), a single word alone. gv100: 10, 2 and 4
	 * copies, about 125 instructions a direction against ~260 run by run
	 * with each run's remainder. */
	unsigned nramfc_blk[3]; /* copies of 16, 8 and 4 bytes */
	struct ramfc_blk {
		uint8_t dword, reg;
	} ramfc_blk[3][PBR_COUNT];
	/* The RAMFC dwords of USERD, USERD_HI and GP_GET (host.c prefetch_tsg). */
	uint8_t ramfc_userd, ramfc_userd_hi, ramfc_gp_get;
	/* From the RAMUSERD layout: the writeback's byte range and its words. */
	uint32_t userd_wb_lo, userd_wb_hi; /* [lo, hi) */
	uint32_t userd_gp_put;             /* NV_RAMUSERD_GP_PUT */
	unsigned nuserd_wb;
	struct {
		uint16_t off;
		uint8_t reg;
	} userd_wb[HOST_USERD_WB_MAX];
	/* NV_PFIFO_USERD_WRITEBACK's value (bus_reg, looked up on first use:
	 * every context load and save reads it). */
	const uint32_t *userd_wb_timer;
};

#include "host_gens.h"

struct host *host_of(const nvm_gpu *gpu);

/* The channel table is kept in chunks of HOST_CHAN_CHUNK channels, each
 * allocated when a channel of it is first listed on a runlist (opening a
 * GPU clears no table of thousands of channels). A channel of a chunk never
 * allocated is in the zero state: not listed, not loaded, no work. */
#define HOST_CHAN_CHUNK 64u
extern const struct chan host_chan_none;
/* Channel chid (< nchan) to look at: the zero state if never allocated. */
static inline const struct chan *host_chan_peek(const struct host *h, uint32_t chid)
{
	const struct chan *b = h->chan[chid / HOST_CHAN_CHUNK];
	return b ? &b[chid % HOST_CHAN_CHUNK] : &host_chan_none;
}
/* A channel that is or was listed (its chunk is allocated). */
static inline struct chan *host_chan(struct host *h, uint32_t chid)
{
	return &h->chan[chid / HOST_CHAN_CHUNK][chid % HOST_CHAN_CHUNK];
}

/* The channel's ready bit (struct host ready) from its work and acq_wait. */
static inline void host_ready_update(struct host *h, uint32_t chid)
{
	const struct chan *c = host_chan_peek(h, chid);
	uint64_t bit = 1ull << (chid & 63u);
	if (c->work && !c->acq_wait)
		h->ready[chid >> 6] |= bit;
	else
		h->ready[chid >> 6] &= ~bit;
}
/* The only writers of struct chan work and acq_wait (a listed channel). */
static inline void chan_set_work(struct host *h, uint32_t chid, bool work)
{
	host_chan(h, chid)->work = work;
	host_ready_update(h, chid);
}
static inline void chan_set_acq_wait(struct host *h, uint32_t chid, bool wait)
{
	host_chan(h, chid)->acq_wait = wait;
	host_ready_update(h, chid);
}
/* Recomputes every ready bit from struct chan (after a restore). */
void host_ready_rebuild(struct host *h);
/* The word map h->ramfc as runs of consecutive dwords mirroring
 * consecutive registers (gv100: 9 runs of the 46 words), from which
 * h->ramfc_blk is made (a memcpy per run became a `rep movs` each, and
 * word by word a switch spent ~330 instructions on each direction).
 * Returns the runs written to runs[PBR_COUNT]. */
struct ramfc_run {
	uint8_t dword, reg, n;
};
unsigned pbdma_ramfc_runs(const struct host *h, struct ramfc_run *runs);
/* A context load's and save's copies between a RAMFC image and the
 * registers that mirror its words (h->ramfc_blk, pbdma.c). */
void pbdma_ramfc_to_regs(const struct host *h, uint32_t *restrict r, const uint32_t *restrict ramfc);
void pbdma_regs_to_ramfc(const struct host *h, uint32_t *restrict ramfc, const uint32_t *restrict r);

/* Sets rl->pb_used from its listed channels (after a parse, a snapshot's
 * runlist installed). */
void host_rl_pb_used(struct runlist *rl);

/* Forgets what the runlist's prefetching remembers (prefetched, pf). */
void host_prefetch_drop(struct runlist *rl);

/* host.c: scheduler and the generation's interface used by the PBDMAs. */
void host_schedule(struct host *h, struct runlist *rl);
/* The same, from an event at the current time (never from inside a step). */
void host_schedule_later(struct host *h, struct runlist *rl);
static inline void host_update_intr(struct host *h)
{
	h->gen->ops->update_intr(h);
}
/* The non-stalling interrupt (engines and NON_STALL_INTERRUPT). */
void host_nonstall(void *host, uint32_t chid);
static inline void host_set_chan_status(struct host *h, uint32_t chid, unsigned status)
{
	h->gen->ops->chan_set_status(h, chid, status);
}
static inline bool host_chan_runnable(const struct host *h, uint32_t chid)
{
	return h->gen->ops->chan_runnable(h, chid);
}
static inline uint64_t host_chan_inst(const struct host *h, uint32_t chid, unsigned *target)
{
	return h->gen->ops->chan_inst(h, chid, target);
}
static inline void host_chan_fault(struct host *h, uint32_t chid, enum host_fault f)
{
	h->gen->ops->chan_set_faulted(h, chid, f, true);
}
/* Submits a runlist (the generation's submit register was written): it is
 * fetched after HOST_NS_RL_FETCH + len ns. */
void host_runlist_submit(struct host *h, struct runlist *rl, unsigned target, uint64_t base, uint32_t len);
/* A doorbell for channel chid (the generation decoded the token). */
void host_doorbell(struct host *h, uint32_t chid);
/* Preempts channel (tsg false) or TSG (tsg true) id; preempts runlist rl. */
void host_preempt(struct host *h, bool tsg, uint32_t id);
void host_preempt_runlist(struct host *h, struct runlist *rl);
/* Preempts TSG tsgid of runlist rl only (Ampere: TSG ids are per runlist). */
void host_preempt_tsg_on(struct host *h, struct runlist *rl, uint32_t tsgid);
/* A channel's channel RAM changed (bound, enabled, faults cleared). */
void host_chan_changed(struct host *h, uint32_t chid);
/* The channel is loaded on a PBDMA. */
static inline bool host_chan_loaded(const struct host *h, uint32_t chid)
{
	return chan_loaded_pbdma(host_chan_peek(h, chid)) >= 0;
}
/* Recomputes NV_PFIFO_ENGINE_STATUS(i), _INST and _NEXT_INST of the
 * runlist's engine from the PBDMAs and the engines (after every change of
 * either), and arms the event at the engine's completion. */
void host_engstat(struct host *h, struct runlist *rl);
/* PBDMA p completed the load of its channel: its TSG's context is on the engine. */
void host_engstat_loaded(struct host *h, struct runlist *rl, const struct pbdma *p);
/* A preempt saves the engine's context if it belongs to TSG tsgid (-1: any). */
void host_engstat_preempt(struct host *h, struct runlist *rl, int tsgid);
/* The engine of runlist rl stopped on an error of channel chid (ENG_FAULTED). */
void host_eng_faulted(struct host *h, struct runlist *rl, uint32_t chid);
/* The context-switch error interrupt (gv100: NV_PFIFO_INTR_CHSW_ERROR). */
static inline void host_chsw_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	h->gen->ops->chsw_error(h, code, addr, why);
}

/* Fetches [pa, pa + bytes) of m (up to its page's end) into the host's
 * caches: a speed-up of the model only. */
void host_prefetch_mem(struct mem_space *m, uint64_t pa, uint64_t bytes);

/* pbdma.c */
nvm_status pbdma_add_regs(struct host *h);
/* Reads the RAMFC and RAMUSERD layouts into h->ramfc / h->userd_wb. */
nvm_status pbdma_layouts(struct host *h);
/* Write handlers of NV_PPBDMA_INTR_0/1 and INTR_EN_0/1. */
void pbdma_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void pbdma_wr_intr_en(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
/* The USERD writeback timer of every loaded channel takes the new period. */
void pbdma_wb_timers(struct host *h);

/* Host methods (pbdma.c), for the generations' method tables. */
enum mres hm_set_object(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_illegal(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_nop(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_semaphore_a(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_semaphore_b(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_semaphore_c(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_semaphore_d(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_non_stall_interrupt(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_fb_flush(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_mem_op_a(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_mem_op_b(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_mem_op_c(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_mem_op_d(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_mem_op_d_c76f(struct pbdma *p, uint32_t subch, uint32_t data); /* + MMU_OPERATION */
enum mres hm_set_reference(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_sem_addr_lo(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_sem_addr_hi(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_sem_payload_lo(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_sem_payload_hi(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_sem_execute(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_wfi(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_crc_check(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_yield(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_clear_faulted(struct pbdma *p, uint32_t subch, uint32_t data);
enum mres hm_clear_faulted_handle(struct pbdma *p, uint32_t subch, uint32_t data);

/* The method table of VOLTA_CHANNEL_GPFIFO_A (clc36f.h) and its successors,
 * methods below 0x100 by method >> 2 (NULL: not defined, INTR_0 METHOD).
 * The classes differ in three: MEM_OP_D (C76F adds MMU_OPERATION),
 * CRC_CHECK (C56F drops it: NULL) and CLEAR_FAULTED (a CHID in C36F, a
 * handle from C46F on). Methods the class defines but the model does not
 * implement are found through the pushbuffer class table and reported as
 * unmodelled. */
#define HOST_METHODS(mem_op_d, crc_check, clear_faulted)                                                               \
	{                                                                                                              \
		[0x00 >> 2] = hm_set_object, [0x04 >> 2] = hm_illegal, [0x08 >> 2] = hm_nop,                           \
		         [0x10 >> 2] = hm_semaphore_a, [0x14 >> 2] = hm_semaphore_b, [0x18 >> 2] = hm_semaphore_c,     \
		         [0x1c >> 2] = hm_semaphore_d, [0x20 >> 2] = hm_non_stall_interrupt,                           \
		         [0x24 >> 2] = hm_fb_flush, [0x28 >> 2] = hm_mem_op_a, [0x2c >> 2] = hm_mem_op_b,              \
		         [0x30 >> 2] = hm_mem_op_c, [0x34 >> 2] = (mem_op_d), [0x50 >> 2] = hm_set_reference,          \
		         [0x5c >> 2] = hm_sem_addr_lo, [0x60 >> 2] = hm_sem_addr_hi, [0x64 >> 2] = hm_sem_payload_lo,  \
		         [0x68 >> 2] = hm_sem_payload_hi, [0x6c >> 2] = hm_sem_execute, [0x78 >> 2] = hm_wfi,          \
		         [0x7c >> 2] = (crc_check), [0x80 >> 2] = hm_yield, [0x84 >> 2] = (clear_faulted),             \
	}

void pbdma_init(struct host *h, struct pbdma *p, unsigned id);
/* Loads channel chid (RAMFC -> registers) and starts running it. */
void pbdma_load(struct pbdma *p, uint32_t chid);
/* Saves the loaded channel (registers -> RAMFC, USERD) and leaves the PBDMA idle. */
void pbdma_save(struct pbdma *p);
/* The loaded channel's channel RAM changed: its instance block is read again. */
void pbdma_chan_changed(struct pbdma *p);
/* Work may have arrived for the loaded channel (doorbell): re-read GP_PUT. */
void pbdma_kick(struct pbdma *p);
/* Frozen on a pending interrupt. dev_pbdma INTR_0: "Until software handles
 * these interrupts and writes the bits to RESET, the PBDMA will be frozen."
 * UNVERIFIED: INTR_STALL / INTR_STALL_1 (all set at reset) select which
 * pending bits freeze it. Inline: the scheduler asks for every PBDMA of the
 * runlist at each decision. */
static inline bool pbdma_stalled(const struct pbdma *p)
{
	return (p->r[PBR_INTR_0] & p->r[PBR_INTR_STALL]) || (p->r[PBR_INTR_1] & p->r[PBR_INTR_STALL_1]);
}
void pbdma_drop_derived(struct pbdma *p);
void pbdma_fini(struct pbdma *p);
/* Arms (or stops) the USERD writeback timer of a loaded channel
 * (NV_PFIFO_USERD_WRITEBACK, NV_PPBDMA_CONFIG USERD_WRITEBACK). */
void pbdma_wb_timer(struct pbdma *p);

/* Snapshots (host_snap.c). The scheduler's events (host.c) and the
 * PBDMAs' (pbdma.c), and the table of all of them (pbdma.c) in this
 * order: rl_fetch, slice_event, schedule_event, eng_idle_event (ctx the
 * Host, arg a runlist), step, wb_event (a PBDMA, 0), acq_wake, acq_timeout
 * (the Host, a channel); the watch acq_hit (the Host, a channel). */
void rl_fetch(nvm_gpu *gpu, void *ctx, uint64_t arg);
void slice_event(nvm_gpu *gpu, void *ctx, uint64_t arg);
void schedule_event(nvm_gpu *gpu, void *ctx, uint64_t arg);
void eng_idle_event(nvm_gpu *gpu, void *ctx, uint64_t arg);
#define HOST_SNAP_NEVENTS  8u
#define HOST_SNAP_EV_PBDMA 4u /* the first event whose ctx is a PBDMA */
#define HOST_SNAP_EV_CHAN  6u /* the first whose arg is a channel */
extern const sched_fn host_snap_events[HOST_SNAP_NEVENTS];
extern const mem_watch_fn host_snap_watches[1];
extern const struct block_snap host_snap;
/* The decoder as a context load sets it up (pbdma.c decoder_load), with
 * SUBDEVICE_ID subdevice_id and nothing pending. */
void pbdma_decoder_init(struct pbdma *p, uint32_t subdevice_id);

#define PCCSR_STATUS_IDLE            0u
#define PCCSR_STATUS_PENDING         1u
#define PCCSR_STATUS_PENDING_ACQUIRE 3u
#define PCCSR_STATUS_ON_PBDMA        5u

#endif
