/*
 * Internal interface of the Volta Host block (src/host/): PFIFO, the
 * channel RAM (PCCSR), runlists and their scheduler (host.c), and the PBDMA
 * units (pbdma.c). docs/host.md describes the model.
 */
#ifndef NVM_HOST_INTERNAL_H
#define NVM_HOST_INTERNAL_H

#include "core/core.h"
#include "engine/engine.h"
#include "nvmodel/host.h"
#include "nvmodel/mmu.h"
#include "nvmodel/pushbuf.h"

#define HOST_NCHAN    4096u /* NV_PFIFO_CFG1_NUM_CHANNELS_INIT */
#define HOST_NPBDMA   14u   /* NV_PFIFO_CFG0_NUM_PBDMA_INIT */
#define HOST_NRUNLIST 13u   /* NV_PFIFO_ENG_RUNLIST__SIZE_1 */
#define HOST_NENGSTAT 15u   /* NV_PFIFO_ENGINE_STATUS__SIZE_1 */
#define HOST_TSG_MAX  128u  /* NV_RAMRL_ENTRY_TSG_LENGTH_MAX */

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

/* One runlist as the chip wires it (per-chip const data). */
struct host_rl_desc {
	const char *engine;   /* the primary engine: "gr", "ce2" ... */
	const char *kind;     /* its engine kind (engine_new): "recorder", "ce" */
	const char *grce;     /* GRCOPY engine reached by subchannel 4 (GR runlist), or NULL */
	unsigned mmu_id;      /* MMU engine id of the primary engine */
	unsigned grce_mmu_id; /* and of GRCOPY */
	unsigned engstat;     /* NV_PFIFO_ENGINE_STATUS index */
	uint8_t pbdma[2];     /* PBDMAs serving it, by RUNQUEUE_SELECTOR */
	unsigned npbdma;
};

struct host_chip {
	unsigned nrunlist;
	struct host_rl_desc rl[HOST_NRUNLIST];
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
	struct engine *eng;  /* primary engine */
	struct engine *grce; /* GRCOPY on the GR runlist */
	struct pbdma *pb[2];
	struct eng_ctx ectx;
};

/* The Host's own view of a channel (the guest-visible part is PCCSR). */
struct chan {
	int16_t runlist;     /* listed on, -1 none */
	int16_t tsg;         /* index in that runlist's tsg[], -1 none */
	int8_t pbdma;        /* loaded on, -1 none */
	bool work;           /* may have work: doorbell seen, or not yet out of work */
	bool acq_wait;       /* blocked on a semaphore acquire */
	bool acq_switch;     /* the blocked acquire had ACQUIRE_SWITCH_TSG */
	nvm_aperture acq_ap; /* aperture of the watched semaphore */
	uint64_t acq_wake_ev;
	uint64_t acq_timeout_ev; /* acquire deadline event */
	uint32_t cls[8];         /* SET_OBJECT class per subchannel; UNVERIFIED: kept by Host, not saved to RAMFC */
	uint64_t methods;
};

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
	int chid;            /* loaded channel, -1 */
	uint64_t ev;         /* pending step / load event, 0 if none */
	uint64_t wb_ev;      /* the USERD writeback timer, 0 if none */
	uint32_t ramfc[128]; /* the loaded RAMFC image (NV_RAMFC_SIZE_VAL bytes) */
	bool deadline_on;    /* ACQUIRE_DEADLINE is armed (TIMEOUT_EN at the first failure) */
	uint64_t wait_until; /* a CLEAR_FAULTED retry: do nothing before this time */
	bool yield;          /* a YIELD: the channel gives up the PBDMA after this step */
	/* the decoder; the segment in progress is GET..PUT (registers) */
	pb_decoder dec;
	/* a stop requested from inside a decoder callback */
	bool stop;
	int stop_res;          /* enum mres of the stop */
	uint32_t stop_done;    /* methods an engine completed before it stopped */
	pb_decoder snap;       /* decoder state at the stop */
	uint64_t cost;         /* ns spent in the current step */
	uint64_t units;        /* work units of the current step besides its PB entries */
	struct engine *target; /* last engine that got methods (NV_PPBDMA_TARGET_ENGINE) */
};

struct host {
	nvm_gpu *gpu;
	const struct host_chip *chip;
	uint32_t *pccsr; /* PCCSR values: [2 * chid] INST, [2 * chid + 1] CHANNEL */
	uint32_t pbdma_vals[HOST_NPBDMA * PBR_COUNT];
	uint32_t eng_rl_vals[HOST_NRUNLIST * 2];
	uint32_t pbdma_map_vals[HOST_NPBDMA];
	uint32_t engstat_vals[HOST_NENGSTAT * 2];
	uint32_t engstat_inst_vals[HOST_NENGSTAT];      /* NV_PFIFO_ENGINE_STATUS_INST(i) */
	uint32_t engstat_next_inst_vals[HOST_NENGSTAT]; /* NV_PFIFO_ENGINE_STATUS_NEXT_INST(i) */
	uint32_t pbstat_vals[HOST_NPBDMA];
	struct chan chan[HOST_NCHAN];
	struct runlist rl[HOST_NRUNLIST];
	struct pbdma pb[HOST_NPBDMA];
	struct engine *engines[16];
	size_t nengines;
	const pb_class *host_class;
	nvm_host_stats stats;
	struct reg_array *pfifo_arrays;
	struct reg_array pccsr_array;
	struct reg_array pbdma_array;
	bool method_crc; /* compute NV_PPBDMA_METHOD_CRC (nvm_host_set_method_crc) */
};

struct host *host_of(const nvm_gpu *gpu);

/* host.c: scheduler and PFIFO interface used by the PBDMAs. */
void host_schedule(struct host *h, struct runlist *rl);
/* The same, from an event at the current time (never from inside a step). */
void host_schedule_later(struct host *h, struct runlist *rl);
void host_update_intr(struct host *h);
/* NV_PFIFO_INTR_0 CHANNEL_INTR: the non-stalling interrupt (engines and NON_STALL_INTERRUPT). */
void host_nonstall(void *host, uint32_t chid);
uint32_t *host_pccsr_chan(struct host *h, uint32_t chid);
void host_set_chan_status(struct host *h, uint32_t chid, unsigned status);
bool host_chan_runnable(struct host *h, uint32_t chid);
/* Recomputes NV_PFIFO_ENGINE_STATUS(i), _INST and _NEXT_INST of the
 * runlist's engine from the PBDMAs and the engines (after every change of
 * either), and arms the event at the engine's completion. */
void host_engstat(struct host *h, struct runlist *rl);
/* A load of channel chid completed: its TSG's context is on the engine. */
void host_engstat_loaded(struct host *h, struct runlist *rl, uint32_t chid);
/* A preempt saves the engine's context if it belongs to TSG tsgid (-1: any). */
void host_engstat_preempt(struct host *h, struct runlist *rl, int tsgid);
/* The engine of runlist rl stopped on an error of channel chid (ENG_FAULTED). */
void host_eng_faulted(struct host *h, struct runlist *rl, uint32_t chid);
/* PFIFO interrupts named by the manual (NV_PFIFO_INTR_BIND_ERROR / CHSW_ERROR). */
void host_chsw_error(struct host *h, uint32_t code, uint64_t addr, const char *why);

/* pbdma.c */
nvm_status pbdma_add_regs(struct host *h);
void pbdma_init(struct host *h, struct pbdma *p, unsigned id);
/* Loads channel chid (RAMFC -> registers) and starts running it. */
void pbdma_load(struct pbdma *p, uint32_t chid);
/* Saves the loaded channel (registers -> RAMFC, USERD) and leaves the PBDMA idle. */
void pbdma_save(struct pbdma *p);
/* Work may have arrived for the loaded channel (doorbell): re-read GP_PUT. */
void pbdma_kick(struct pbdma *p);
bool pbdma_stalled(const struct pbdma *p);
void pbdma_fini(struct pbdma *p);
/* Arms (or stops) the USERD writeback timer of a loaded channel
 * (NV_PFIFO_USERD_WRITEBACK, NV_PPBDMA_CONFIG USERD_WRITEBACK). */
void pbdma_wb_timer(struct pbdma *p);

#define PCCSR_STATUS_IDLE            0u
#define PCCSR_STATUS_PENDING         1u
#define PCCSR_STATUS_PENDING_ACQUIRE 3u
#define PCCSR_STATUS_ON_PBDMA        5u

#endif
