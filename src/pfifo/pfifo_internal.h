/*
 * Internal interface of PFIFO (src/pfifo/): the generation description
 * (struct pfifo_gen, one file per generation: nv04.c, nv10.c, nv17.c,
 * nv40.c, g80.c and g84.c with g80.h), the block and its registers
 * (pfifo.c), the PIO and DMA pushers (pusher.c; G80's in ib.c), the puller
 * (puller.c), the image decoders (pfifo.c: RAMFC layouts; puller.c: RAMHT
 * entries). docs/pfifo.md describes the model; field positions are the
 * hi:lo of rnndb fifo/nv4_pfifo.xml and g80_pfifo.xml.
 */
#ifndef NVM_PFIFO_INTERNAL_H
#define NVM_PFIFO_INTERNAL_H

#include "core/core.h"
#include "engine/engine.h"
#include "pfifo_gens.h"
#include "pushbuf/pb_gens.h"
#include "nvmodel/pfifo.h"
#include "nvmodel/pushbuf.h"

struct fifo_fetch;

/* ---------------------------------------------------------------- registers */

#define R_DELAY_0       0x2040u
#define R_DMA_TIMESLICE 0x2044u
#define R_PIO_TIMESLICE 0x2048u
#define R_TIMESLICE     0x204cu
#define R_NEXT_CHANNEL  0x2050u
#define R_SLI           0x2058u /* NV40: MASK 11:0, ACTIVE 28, ENABLE 29 */
#define R_DEBUG_0       0x2080u
#define R_UNK88         0x2088u
#define R_INTR          0x2100u
#define R_INTR_EN       0x2140u
#define R_RAMHT         0x2210u
#define R_RAMFC         0x2214u
#define R_RAMRO         0x2218u
#define R_RAMFC_NV40    0x2220u
#define R_RUNOUT_STATUS 0x2400u
#define R_RUNOUT_PUT    0x2410u
#define R_RUNOUT_GET    0x2420u
#define R_CACHES        0x2500u
#define R_MODE          0x2504u
#define R_DMA           0x2508u
#define R_SIZE          0x250cu

#define R_CACHE0_PUSH0  0x3000u
#define R_CACHE0_PUSH1  0x3004u
#define R_CACHE0_PUT    0x3010u
#define R_CACHE0_STATUS 0x3014u
#define R_CACHE0_PULL0  0x3050u
#define R_CACHE0_PULL1  0x3054u
#define R_CACHE0_HASH   0x3058u
#define R_CACHE0_GET    0x3070u
#define R_CACHE0_ENGINE 0x3080u
#define R_CACHE0_METHOD 0x3100u
#define R_CACHE0_DATA   0x3104u

#define R_PUSH0         0x3200u
#define R_PUSH1         0x3204u
#define R_PUT           0x3210u
#define R_STATUS        0x3214u
#define R_DMA_PUSH      0x3220u
#define R_DMA_FETCH     0x3224u
#define R_DMA_STATE     0x3228u
#define R_DMA_INSTANCE  0x322cu
#define R_DMA_CTL       0x3230u
#define R_DMA_LIMIT     0x3234u
#define R_DMA_TLB_TAG   0x3238u
#define R_DMA_TLB_PTE   0x323cu
#define R_DMA_PUT       0x3240u
#define R_DMA_GET       0x3244u
#define R_REF           0x3248u
#define R_SUBROUTINE    0x324cu
#define R_PULL0         0x3250u
#define R_PULL1         0x3254u
#define R_HASH          0x3258u
#define R_ACQ_TIMEOUT   0x3260u
#define R_ACQ_TIMESTAMP 0x3264u
#define R_ACQ_VALUE     0x3268u
#define R_SEMAPHORE     0x326cu
#define R_GET           0x3270u
#define R_ENGINE        0x3280u
#define R_DCOUNT        0x32a0u
#define R_GET_JMP_SHD   0x32a4u
#define R_RSVD_SHD      0x32a8u
#define R_DATA_SHD      0x32acu
#define R_GRCTX_INST    0x32e0u
#define R_UNK32E4       0x32e4u
#define R_UNK32E8       0x32e8u
#define R_UNK3300       0x3300u
#define R_UNK330C       0x330cu

/* G80 (rnndb fifo/g80_pfifo.xml) */
#define R_G80_DEBUG_2       0x2088u /* UNK88 before G80; goes to RAMFC */
#define R_G80_FREEZE        0x2504u /* ENABLE 0, FROZEN 4 (seed 001 "NV50 & NVC0") */
#define R_G80_CHAN_TABLE    0x2600u /* 128 entries */
#define R_G80_UNK0E4        0x32e4u
#define R_G80_PLAYLIST_LEN  0x32ecu
#define R_G80_PLAYLIST      0x32f4u
#define R_G80_KICK_CHANNEL  0x32fcu
#define R_G80_FIFO_ENDIAN   0x3314u
#define R_G80_PUT_HIGH      0x3320u
#define R_G80_GET_HIGH      0x3328u
#define R_G80_IB_PUT        0x3330u
#define R_G80_IB_GET        0x3334u
#define R_G80_IB_ADDRESS    0x3340u
#define R_G80_IB_CONFIG     0x3344u
#define R_G80_METHOD_COUNT  0x3364u
#define R_G80_MGET          0x3368u
#define R_G80_MGET_HIGH     0x336cu
#define R_G80_GET_HIGH_RS   0x3370u
#define R_G80_PUT_HIGH_RS   0x3374u
#define R_G80_PUT_HIGH_WS   0x3378u
#define R_G80_MGET_HIGH_RS  0x337cu
#define R_G84_SEM_ADDR_HIGH 0x3400u
#define R_G84_SEM_ADDR_LOW  0x3404u
#define R_G84_SEM_SEQUENCE  0x3408u
#define R_G84_CACHE_INST    0x340cu
#define R_G84_CHAN_INST     0x3410u
#define PFIFO_USER_G80      0xc00000u /* G80 DMA USER: 0x2000 per channel */

#define PFIFO_CACHE1_NV04 0x3800u  /* NV04_PFIFO_CACHE1_METHOD(0) */
#define PFIFO_CACHE1_NV40 0x90000u /* NV40_PFIFO_CACHE1_METHOD(0) */
#define PFIFO_PRAMIN      0x700000u
#define PFIFO_PRAMIN_SIZE 0x100000u
#define PFIFO_USER        0x800000u /* old-style USER: 0x10000 per channel */
#define PFIFO_USER_NEW    0xc00000u /* NV40 DMA USER: 0x1000 per channel */

/* NV_PFIFO_INTR_0 (rnndb INTR) */
#define INTR_CACHE_ERROR        (1u << 0)
#define INTR_RUNOUT             (1u << 4)
#define INTR_RUNOUT_OVERFLOW    (1u << 8)
#define INTR_DMA_PUSHER         (1u << 12)
#define INTR_DMA_PTE            (1u << 16)
#define INTR_SEMAPHORE          (1u << 20)
#define INTR_ACQUIRE_TIMEOUT    (1u << 24)
#define INTR_G80_PIO_ERROR      (1u << 8)  /* G80 (rnndb INTR) */
#define INTR_G84_NOTIFY         (1u << 30) /* G84+ NOTIFY_INTR */
#define INTR_G80_BAR_FAULT      (1u << 4)  /* G80 (rnndb INTR) */
#define INTR_G80_PEEPHOLE_FAULT (1u << 6)

/* CACHE1 PULL0 */
#define PULL0_ACCESS          (1u << 0)
#define PULL0_HASH_FAILED     (1u << 4)
#define PULL0_DEVICE_SOFTWARE (1u << 8)
#define PULL0_HASH_BUSY       (1u << 12)
#define PULL0_ACQUIRE_BUSY    (1u << 16)
/* PULL1 */
#define PULL1_ACQUIRE_ACTIVE (1u << 4)
/* DMA_PUSH */
#define DMA_PUSH_ACCESS    (1u << 0)
#define DMA_PUSH_BUSY      (1u << 4)
#define DMA_PUSH_EMPTY     (1u << 8)
#define DMA_PUSH_SUSPENDED (1u << 12)

/* DMA_STATE ERROR 31:29 (dma-pusher.rst "Errors", rnndb DMA_STATE) */
enum dma_err {
	DMA_ERR_NONE = 0,
	DMA_ERR_CALL_SUBR_ACTIVE = 1,
	DMA_ERR_INVALID_MTHD = 2,
	DMA_ERR_RET_SUBR_INACTIVE = 3,
	DMA_ERR_INVALID_CMD = 4,
	DMA_ERR_IB_EMPTY = 5,
	DMA_ERR_MEM_FAULT = 6,
};

/* PULL0 SEMAPHORE_ERROR 23:20, NV1A:G80 subtypes (puller.rst "Semaphores") */
enum sem_err { SEM_ERR_INVALID_OPERAND = 1, SEM_ERR_INVALID_STATE = 2 };
/* G80:GF100 subtypes (puller.rst "Semaphores") */
enum g80_sem_err {
	G80_SEM_ADDRESS_UNALIGNED = 1,
	G80_SEM_INVALID_STATE = 2,
	G80_SEM_ADDRESS_TOO_LARGE = 3,
	G80_SEM_MEM_FAULT = 4,
};

/* RAMRO entry REASON 31:28. UNVERIFIED: names from NVIDIA's resman
 * (NV_RAMRO_REASON_*), codes and layout are the model's (docs/pfifo.md). */
enum ramro_reason {
	RAMRO_ILLEGAL_ACCESS = 0,     /* not an aligned 32-bit store, or a PIO store to a DMA channel */
	RAMRO_NO_CACHE_AVAILABLE = 1, /* CACHE1 held by another channel, or pushing disabled */
	RAMRO_CACHE_RAN_OUT = 2,      /* a store past the free count: CACHE1 full */
	RAMRO_RESERVED_ACCESS = 5,    /* a method 0x4..0xfc the puller does not know */
};

/* Engines (rnndb nv4_pfifo_engine): ENGINE nibbles and PULL1 ENGINE 3:0 */
#define ENG_SOFTWARE 0u
#define ENG_PGRAPH   1u
#define ENG_PMPEG    2u /* NV31+ */
#define ENG_PME      3u /* NV40+ */
#define ENG_PVP1     4u /* NV41+ */
/* G80 ids beyond 4 (rnndb g80_pfifo_engine; names per chip: eng_names) */
#define ENG_G84_5 5u /* PCIPHER on G84 / G92 */
#define ENG_G84_6 6u /* PBSP on G84 / G92, PVLD on GT215 */
#define ENG_IDS   16u

/* ---------------------------------------------------------------- generations */

/* RAMFC fields: nvm_ramfc_field (nvmodel/pfifo.h). */
struct ramfc_layout {
	const char *name;
	uint32_t size; /* bytes per channel */
	const nvm_ramfc_field *f;
	size_t n;
};

/* The RAMHT context word: INSTANCE (address >> 4), ENGINE, CHID and a
 * valid bit (-1: none, the entry is used when the context is not 0). */
struct ramht_fmt {
	uint8_t inst_hi, eng_hi, eng_lo, chid_hi, chid_lo;
	int8_t valid;
	bool chid; /* the context names the channel (false: one RAMHT per channel, G80) */
};

/* A generation's registers over its ancestor's: `gone` offsets are dropped
 * first, then each of `r` is added or replaces the register at its offset. */
struct reg_layer {
	const struct reg_desc *r;
	size_t n;
	const uint32_t *gone;
	size_t ngone;
};
#define REG_LAYER(regs, gone_list)                                                                                     \
	{                                                                                                              \
		regs, sizeof(regs) / sizeof(regs[0]), gone_list, sizeof(gone_list) / sizeof(gone_list[0])              \
	}

struct pfifo;

/* The operations that differ between generations. A generation fills
 * every one, with its ancestor's function where it did not change (as
 * nouveau's nvkm fifo code does); NULL only where a comment says so. */
struct pfifo_ops {
	/* Adds the generation's windows and sets its state up (after the
	 * register block is on the bus). */
	nvm_status (*init)(struct pfifo *f);
	void (*fini)(struct pfifo *f); /* NULL: nothing to free */
	/* The register block's window (offsets no register covers). */
	bool (*win_rd)(struct pfifo *f, uint32_t addr, uint32_t *val);
	bool (*win_wr)(struct pfifo *f, uint32_t addr, uint32_t val);
	/* RAMFC: word off of channel chid's entry. */
	bool (*ramfc_rd)(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w);
	bool (*ramfc_wr)(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w);
	uint32_t (*ramfc_base)(const struct pfifo *f); /* where RAMFC is in RAMIN (ramfc_rd of NV04) */
	bool (*chan_dma)(const struct pfifo *f, uint32_t chid);
	/* The switcher: a channel with work after the current one, or -1. */
	int (*next_channel)(struct pfifo *f);
	/* Does CACHE1's channel still have work to do (the switcher waits
	 * for its timeslice)? */
	bool (*chan_busy)(struct pfifo *f);
	/* Cache save and load on a channel switch; NULL: CACHE1 must be empty
	 * to switch (pre-G80, seed 001). */
	void (*cache_save)(struct pfifo *f, uint32_t chid);
	void (*cache_load)(struct pfifo *f, uint32_t chid);
	bool (*frozen)(struct pfifo *f); /* NULL: PFIFO never pauses */
	/* The DMA pusher. */
	bool (*pusher_ready)(struct pfifo *f);
	uint32_t (*pusher_run)(struct pfifo *f, uint32_t max, uint64_t *t);
	/* The decoder's pending method count: from / into the registers. */
	void (*count_load)(struct pfifo *f, nvm_pb_decoder_state *d, uint32_t dma_state);
	uint32_t (*count_store)(struct pfifo *f, const nvm_pb_decoder_state *d, uint32_t dma_state);
	/* A PIO store the pusher refuses (RAMRO, or G80's PIO_ERROR). */
	void (*pio_refused)(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size, unsigned reason);
	/* The puller. */
	bool (*ramht_lookup)(struct pfifo *f, uint32_t chid, uint32_t handle, uint32_t *inst, unsigned *engine);
	bool (*obj_rd32)(struct pfifo *f, uint32_t inst, uint32_t *w); /* an object's word */
	/* The generation's own puller methods: 1 done, 0 stalled, -1 not one
	 * of them (the shared ones follow); NULL: none. */
	int (*puller_method)(struct pfifo *f, uint32_t a, uint32_t m, uint32_t d, uint64_t *t, uint32_t inst);
	/* Does method m with data d make the puller wait (an acquire)? NULL: none. */
	bool (*acquires)(uint32_t m, uint32_t d);
	bool (*acquire_done)(const struct pfifo *f, uint32_t v);
	bool (*sem_where)(struct pfifo *f, nvm_aperture *ap, uint64_t *addr);
	bool (*big_endian)(struct pfifo *f);
	/* The scheduled step's work (pfifo_step: NV04..G80's pushers, puller
	 * and switcher). */
	void (*step)(struct pfifo *f);
	/* A CPU store of size bytes to the PIO USER area (0x800000) and a
	 * 32-bit read of it (pusher_pio_store / pusher_pio_read: NV04..G80). */
	void (*pio_store)(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size);
	uint32_t (*user_read)(struct pfifo *f, uint32_t addr);
};

/* A PFIFO generation (one const description per chip row). */
struct pfifo_gen {
	const char *name;
	/* counts */
	uint32_t nchan;
	uint32_t cache_entries;   /* CACHE1 slots (a power of two) */
	uint32_t pio_channels;    /* channels of the PIO USER area at 0x800000 */
	uint32_t chid_mask;       /* PUSH1 CHID */
	uint32_t push1_mode;      /* PUSH1 MODE bit */
	uint32_t ramfc_addr_mask; /* RAMFC ADDRESS bits (address = (reg & mask) << 8) */
	uint32_t class_mask;      /* object class bits of an object's first word */
	uint32_t cache_addr_mask; /* CACHE1 METHOD(i) bits a write keeps */
	unsigned hash_valid;      /* CACHE1 HASH VALID bit (INSTANCE below it) */
	uint64_t methods;         /* the puller's methods 0x04..0xfc: bit m >> 2 */
	/* memory layouts */
	const struct ramfc_layout *ramfc, *ramfc_large;
	struct ramht_fmt ramht;
	/* engines */
	uint32_t engines;             /* ids beyond SOFTWARE and PGRAPH (1 << ENG_*) */
	const char *const *eng_names; /* by engine id (ENG_IDS) */
	/* registers: layers from the oldest ancestor on, NULL-terminated */
	const struct reg_layer *const *regs;
	/* how the shared mechanism behaves */
	bool pb_vram;                  /* pushbuffers in VRAM too (NV5+) */
	bool ninc;                     /* non-increasing methods: the NI flag of CACHE1 entries and DMA_STATE */
	bool paired;                   /* the puller submits pairs of methods per cycle */
	bool be_fetch;                 /* DMA_FETCH ENDIAN 31 byte-swaps the pushbuffer */
	bool subr_in_state;            /* SUBROUTINE ACTIVE is DMA_STATE 17 (else DMA_SUBROUTINE 0) */
	bool sli;                      /* the SLI conditional (SLI register) */
	bool ramin_bar;                /* the NV40 RAMIN BAR (nvm_pfifo_ramin_bar_*) */
	bool user_ref;                 /* REF at 0x48 of the PIO USER area */
	bool fresh_runs;               /* a channel just loaded works before the switcher looks again */
	bool ramht_bucket;             /* NV01/NV03: the lookup reads one bucket (nvm_pfifo_ramht_slot) */
	const char *const *sem_errors; /* PULL0 SEMAPHORE_ERROR names, 8 */
	size_t size;                   /* bytes of the state: struct pfifo, or a generation's struct holding it */
	const struct pfifo_ops *ops;
	const void *impl; /* a family's own description (g80.c: struct g80_impl) */
};

const struct pfifo_gen *pfifo_gen_find(const char *name);

/* NV01/NV03 RAMHT: the bucket of a handle, the XOR of its bytes and the
 * channel (pio01.c's lookup, nvm_pfifo_ramht_slot). */
static inline uint32_t ramht_xor_hash(uint32_t handle, uint32_t chid)
{
	return (handle ^ handle >> 8 ^ handle >> 16 ^ handle >> 24 ^ chid) & 0xff;
}

#define PF_METHOD(m) (1ull << ((m) >> 2))

/* ---------------------------------------------------------------- timing */

/* Virtual-time costs (docs/pfifo.md "Timing"). UNVERIFIED: no document
 * gives PFIFO rates; these keep timeslices and engine waits meaningful. */
#define PFIFO_NS_DMA_WORD 1u    /* the DMA pusher reads one pushbuffer word */
#define PFIFO_NS_PULL     2u    /* the puller submits one method (NV10+: one pair) */
#define PFIFO_NS_HASH     4u    /* a RAMHT lookup */
#define PFIFO_NS_CTXSW    200u  /* CACHE1 channel switch: RAMFC save and load */
#define PFIFO_STEP_WORDS  4096u /* pushbuffer words per scheduling step */
/* The run budget (sched_charge): every command word the pushers decode
 * (a method header, a jump, call or return, an SLI conditional) and every
 * IB entry costs one unit, the same on every generation and path, and data
 * words and puller methods one unit per PFIFO_WORK_PER_UNIT. So a
 * pushbuffer that loops (a self-jump, a jump back over zero words, a loop
 * of data, an IB ring of empty pieces) spends the default budget of 10^7
 * units within some 10^7 command words or 4 * 10^7 data words: a hang in
 * well under a second (issue 23 item 5: with 256 data words per unit a
 * jump back over zero words decoded 2.4e9 words first). */
#define PFIFO_WORK_PER_UNIT 4u /* data words or methods per charged work unit */

/* ---------------------------------------------------------------- state */

/* The pushbuffer DMA object as the pusher decoded it (nv4-dmaobj: nouveau's
 * nv04_dmaobj_bind layout). */
struct pbobj {
	uint32_t inst;   /* RAMIN address */
	uint32_t limit;  /* last valid byte offset */
	uint32_t adjust; /* low 12 bits of the start */
	uint32_t pte0;   /* first PTE: frame 31:12 */
	bool linear;
	nvm_aperture ap;
};

/* A cache the puller takes (subchannel, method, data) entries from:
 * CACHE1, or the one-slot CACHE0 (seed 001) a driver fills through its
 * METHOD / DATA / PUT registers. Entries are at GET until PUT; GET and PUT
 * count bytes (4 per entry) within ptr_mask. */
struct pcache {
	const char *tag; /* "" for CACHE1, "CACHE0: " for CACHE0 (messages) */
	uint32_t *push1, *put, *get, *pull0, *pull1, *hash, *engine;
	uint32_t *addr, *data; /* METHOD(i) / DATA(i) */
	uint32_t slot_mask;    /* slots - 1 */
	uint32_t ptr_mask;     /* the GET / PUT bits */
	bool cache0;
	bool err; /* CACHE0: it raised the pending CACHE_ERROR and waits for its clearing */
	/* per slot, the quick feed's hints (struct pfifo cache_hint); CACHE0
	 * its own slot, always 0 */
	uint16_t *hint;
	uint16_t hint0;
};

static inline uint32_t pcache_count(const struct pcache *c)
{
	return ((*c->put - *c->get) & c->ptr_mask) >> 2;
}

struct pfifo {
	nvm_gpu *gpu;
	const struct pfifo_gen *chip; /* the generation */
	const nvm_pb_gen *pbgen;
	struct reg_desc *regs; /* this chip's register table (from the superset) */
	size_t nregs;
	uint32_t *cache_addr, *cache_data; /* CACHE1 METHOD(i) / DATA(i) */
	/* Per CACHE1 slot, what the pushers know of the entries from it on
	 * (derived state, not the GPU's; pfifo_hints_drop clears it): 0
	 * nothing, else CACHE_HINT_N of them were written together, with
	 * methods going up by 4 (CACHE_HINT_NINC: all the same), so that the
	 * puller need not compare them (hinted_run). Every writer of a slot
	 * sets its hint (0 but at the first of such entries); the puller sets
	 * the rest's where it leaves GET inside them. So the hint of an entry
	 * in CACHE1 is 0 or true: the entries it counts were written after it
	 * and are still there (PUT does not pass GET). */
	uint16_t *cache_hint;
	uint32_t cache_mask;         /* entries - 1 */
	struct engine *eng[ENG_IDS]; /* by engine id: the chip's engines, NULL for the others */
	struct engine *pgraph, *sw;  /* eng[ENG_PGRAPH], eng[ENG_SOFTWARE] */
	struct pcache c1, c0;        /* CACHE1 and CACHE0 */
	struct pcache *pc;           /* the cache the puller works on (CACHE1 but while CACHE0 runs) */
	uint32_t (*cls)[8];          /* per channel: the class PGRAPH has bound on each subchannel */
	uint32_t (*objctx)[8];       /* per channel: the bound object's instance >> 4 (nvm_method ctx) */
	uint32_t gr_chid;            /* the channel PGRAPH last worked for */
	uint64_t ev;                 /* the step event, 0 if none */
	uint64_t slice_end;          /* end of the current DMA channel's timeslice */
	uint64_t clock;              /* virtual time inside a step (work done so far), gpu->now outside */
	uint32_t work_rest;          /* words and methods done but not yet charged (< PFIFO_WORK_PER_UNIT) */
	bool yield;                  /* YIELD: switch at the next chance */
	bool fresh;                  /* a channel was loaded and has done nothing yet */
	bool acq_watch;              /* a memory watch on the acquire semaphore is armed */
	nvm_aperture acq_ap;
	uint64_t acq_addr;
	uint64_t acq_to_ev;          /* the acquire timeout's wake-up event, 0 if none */
	uint64_t acq_to_at;          /* its time */
	bool acq_fence;              /* the pusher submitted SEMAPHORE_ACQUIRE: it waits for CACHE1 to drain */
	uint32_t acq_blocked[4];     /* channels switched out while waiting on an acquire (watched) */
	uint32_t acq_wake[4];        /* of those, the ones whose semaphore was written since */
	nvm_aperture acq_ch_ap[128]; /* where each blocked channel's watch is */
	uint64_t acq_ch_addr[128];   /* and its address */
	/* the DMA pusher's per-burst state */
	nvm_pb_decoder dec;
	struct pbobj pb;
	uint32_t dma_get;   /* DMA_GET while a burst runs */
	uint32_t burst_err; /* enum dma_err raised inside the decoder callbacks */
	bool direct;        /* this feed's methods go through the empty CACHE1 straight to PGRAPH */
	uint64_t *burst_t;  /* the step's clock while a burst runs */
	/* A chained feed (pusher_portion): the sinks go on through the commands
	 * of the feed while each check between pieces passes, as if each piece
	 * had been fed alone. */
	bool chain;
	uint64_t chain_pos;         /* the decoder's position at the feed's start */
	uint32_t chain_chunk;       /* the pusher's most data words in a piece */
	struct fifo_fetch *chain_x; /* the fetch loop, at the feed's start */
	/* The pusher's checks before the piece k words into the feed. */
	bool (*chain_ready)(struct fifo_fetch *x, uint32_t k);
	/* The quick feed (pusher_quick): the commands it took are passed to
	 * the decoder as one run the sinks ignore (quick_skip), after which the
	 * decoder's state is quick_state. quick_off: never (tests compare). */
	bool quick_off, quick_skip;
	nvm_pb_decoder_state quick_state;
	/* registers the hot paths use (slots of the bus's latched values) */
	struct intr_line intr; /* INTR / INTR_EN -> PMC line 8 */
	uint32_t *r_intr, *r_intr_en, *r_push0, *r_push1, *r_put, *r_get, *r_pull0, *r_pull1, *r_caches, *r_mode;
	uint32_t *r_dma_push, *r_dma_state, *r_dma_put, *r_dma_get, *r_dma_fetch, *r_dma_inst, *r_engine, *r_hash;
	uint32_t *r_ref, *r_subr, *r_sem, *r_acq_value, *r_sli, *r_dcount, *r_jmp_shd, *r_rsvd_shd, *r_data_shd;
	uint32_t *r_dma_tlb_tag, *r_dma_tlb_pte;
	const struct ramfc_layout *rf_for; /* the layout rf_slot is for */
	uint32_t **rf_slot;                /* its fields' register slots (ctx_switch) */
	uint32_t absent;                   /* what r_* of a register this generation lacks points at */
	uint32_t cls_none;                 /* the class slot of a channel number beyond nchan */
	nvm_pfifo_stats stats;
};

static inline bool bit_get(const uint32_t *b, uint32_t i)
{
	return (b[i >> 5] >> (i & 31)) & 1;
}

static inline void bit_put(uint32_t *b, uint32_t i, bool v)
{
	b[i >> 5] = (b[i >> 5] & ~(1u << (i & 31))) | (uint32_t)v << (i & 31);
}

/* pfifo.c: the block, its registers, RAMIN, RAMFC, switches, the step */
void pfifo_kick(struct pfifo *f);
void pfifo_kick_at(struct pfifo *f, uint64_t t); /* a step at virtual time t (now if past) */
void pfifo_step(struct pfifo *f);
/* Register handlers the generations' tables use. */
void pfifo_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void pfifo_wr_kick(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
uint32_t pfifo_rd_intr(void *ctx, const struct reg_desc *r, uint32_t stored);
void pfifo_wr_pull0(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
uint32_t pfifo_rd_pull0(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t pfifo_rd_debug0(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t pfifo_rd_runout_status(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t pfifo_rd_caches(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t pfifo_rd_dma_pending(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t pfifo_rd_cache0_status(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t pfifo_rd_status(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t pfifo_rd_dma_push(void *ctx, const struct reg_desc *r, uint32_t stored);
void pfifo_wr_mode(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void pfifo_wr_ptr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void pfifo_wr_push1(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
/* The slot of a register; for one the generation lacks, a scratch word. */
uint32_t *pfifo_reg_slot(struct pfifo *f, uint32_t addr);
/* CACHE1 METHOD(i) / DATA(i) at byte rel of its window. */
bool pfifo_cache1_rd(struct pfifo *f, uint32_t rel, uint32_t *val);
bool pfifo_cache1_wr(struct pfifo *f, uint32_t rel, uint32_t val);
/* Is channel chid in DMA mode? */
bool pfifo_chan_dma(const struct pfifo *f, uint32_t chid);
/* Word off of channel chid's RAMFC entry (the generation's ramfc_rd/wr). */
bool pfifo_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w);
bool pfifo_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w);
/* Register reg's value in channel chid's RAMFC entry (0 when absent). */
uint32_t pfifo_ramfc_get(struct pfifo *f, uint32_t chid, uint32_t reg);
void pfifo_update_intr(struct pfifo *f);
void pfifo_raise(struct pfifo *f, uint32_t bits);
uint32_t pfifo_chid(const struct pfifo *f);
bool pfifo_ramin_rd32(struct pfifo *f, uint32_t addr, uint32_t *val);
bool pfifo_ramin_wr32(struct pfifo *f, uint32_t addr, uint32_t val);
static inline uint32_t pfifo_cache_count(const struct pfifo *f)
{
	return ((*f->r_put - *f->r_get) >> 2) & f->cache_mask;
}

/* Free entries. One slot stays free so that PUT == GET means empty: the
 * seed's example free count 0x7c of a 32-slot NV04 CACHE1. */
static inline uint32_t pfifo_cache_free(const struct pfifo *f)
{
	return f->cache_mask - pfifo_cache_count(f);
}
void pfifo_cache_push(struct pfifo *f, uint32_t addr, uint32_t data);
#define CACHE_HINT_N    0x0fffu
#define CACHE_HINT_NINC 0x8000u
/* Forgets every slot's hint (cache_hint): after the driver wrote a slot,
 * PUT or GET, after a channel switch, after a snapshot is restored. */
void pfifo_hints_drop(struct pfifo *f);
const struct ramfc_layout *pfifo_ramfc_layout(const struct pfifo *f);
/* A channel register as the channel sees it: the live register for the
 * channel CACHE1 holds, its RAMFC field otherwise (0 if RAMFC lacks it). */
uint32_t pfifo_chan_reg(struct pfifo *f, uint32_t chid, uint32_t reg);
void pfifo_chan_reg_set(struct pfifo *f, uint32_t chid, uint32_t reg, uint32_t v);
bool pfifo_switch_to(struct pfifo *f, uint32_t chid);
bool pfifo_pio_slice_holds(const struct pfifo *f);
/* The PRAMIN window (0x700000) onto RAMIN. */
bool pfifo_pramin_rd(void *ctx, uint32_t addr, uint32_t *val);
bool pfifo_pramin_wr(void *ctx, uint32_t addr, uint32_t val);
/* Adds a window of the block's at base (ctx f). */
nvm_status pfifo_add_window(struct pfifo *f, const char *name, uint32_t base, uint32_t size, win_read_fn rd,
                            win_write_fn wr);

/* Snapshots (pfifo_snap.c): the block's part, and the functions its
 * events (pfifo.c's step, puller.c's acquire timeout) and memory watches
 * (puller.c's acquire wake-ups) are. */
extern const struct block_snap pfifo_snap;
void pfifo_step_ev(nvm_gpu *gpu, void *ctx, uint64_t arg);
void puller_acq_timer(nvm_gpu *gpu, void *ctx, uint64_t arg);
void puller_acq_wake(void *ctx, uint64_t arg);
void puller_acq_wake_chan(void *ctx, uint64_t arg);

/* The pushers' quick feed on or off (on by default; tests compare the two). */
void pfifo_quick_set(nvm_gpu *gpu, bool on);

/* pusher.c: the USER areas, the PIO pusher, the NV4-style DMA pusher */
void pusher_dma_error(struct pfifo *f, unsigned code, uint64_t get, const char *why);
void pusher_dec_load(struct pfifo *f, bool ib);
void pusher_dec_store(struct pfifo *f);
uint32_t pusher_direct_words(const struct pfifo *f, uint32_t n);
/* What the quick feed needs of a pusher's checks between pieces (its
 * chain_ready): the piece k words into the feed passes the limit check
 * while k < kmax; the timeslice is checked when slice_live. */
struct pusher_quick_env {
	uint64_t kmax;
	bool slice_live;
};
uint32_t pusher_portion(struct pfifo *f, struct fifo_fetch *x, bool data, uint32_t room, uint32_t lim, uint32_t chunk,
                        bool (*chain_ready)(struct fifo_fetch *x, uint32_t k), const struct pusher_quick_env *q);
/* After a feed: the words it consumed (used, or n unless chained). */
uint32_t pusher_fed(struct pfifo *f, uint64_t get, uint32_t n, uint32_t used);
void pusher_pio_store(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size);
/* A refused PIO store goes to RAMRO with RUNOUT (NV04..NV4x). */
void pusher_ramro_store(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size, unsigned reason);
uint32_t pusher_user_read(struct pfifo *f, uint32_t addr, bool new_area);
uint32_t pusher_pio_read(struct pfifo *f, uint32_t addr); /* the old-style area's reads */
void pusher_user_write(struct pfifo *f, uint32_t addr, uint32_t val, bool new_area);
bool pusher_dma_ready(struct pfifo *f);
bool pusher_acquire_holds(struct pfifo *f);
/* Runs the DMA pusher until the pushbuffer is empty, CACHE1 is full, an
 * error, or `max` words; returns the words read (adds their cost to *t). */
uint32_t pusher_dma_run(struct pfifo *f, uint32_t max, uint64_t *t);
bool pusher_knows_method(const struct pfifo *f, uint32_t method);
/* METHOD_COUNT in DMA_STATE 28:18 (NV04..NV4x). */
void pusher_count_load(struct pfifo *f, nvm_pb_decoder_state *d, uint32_t dma_state);
uint32_t pusher_count_store(struct pfifo *f, const nvm_pb_decoder_state *d, uint32_t dma_state);

/* puller.c */
bool puller_ready(struct pfifo *f);
bool puller_direct_ok(const struct pfifo *f, uint32_t subch);
/* The subchannels (bit s) puller_direct_ok would allow with CACHE1 empty. */
uint32_t puller_direct_mask(const struct pfifo *f);
/* Submits a run of plain methods to the engine bound on its subchannel
 * (engine interface, costs). */
void puller_submit(struct pfifo *f, const nvm_pb_run *r, uint64_t *t);
/* Of the subchannels in mask, those whose runs puller_submit would only
 * count now (no engine switch, no PGRAPH channel switch, a recorder
 * without a log: engine_counts_only), so that a caller without hooks may
 * sum them: puller_counted_ns each, then one puller_count_runs. */
uint32_t puller_counted_mask(const struct pfifo *f, uint32_t mask);
/* Counts `methods` methods of runs on counted subchannels (the engine's
 * count, its busy time t, the statistics) that puller_submit would have
 * submitted one by one, ending at time t. */
void puller_count_runs(struct pfifo *f, uint32_t methods, uint64_t t);
/* The time puller_submit adds for a run of n methods that is only counted:
 * the recorder's cost and the puller's cycles (pairs when paired). */
static inline uint64_t puller_counted_ns(const struct pfifo *f, uint32_t n)
{
	uint32_t paired = f->chip->paired;
	return (uint64_t)n * ENG_REC_NS_PER_METHOD + (uint64_t)((n + paired) >> paired) * PFIFO_NS_PULL;
}
/* Takes up to max entries out of CACHE1; returns the number taken. */
uint32_t puller_run(struct pfifo *f, uint32_t max, uint64_t *t);
/* The CACHE0 puller: takes its entry if it has one and may; returns 1 if
 * it did something. */
uint32_t puller_run_cache0(struct pfifo *f, uint64_t *t);
const char *pfifo_engine_name(const struct pfifo_gen *c, unsigned id);
/* RAMHT in RAMIN, shared by the channels (NV04..NV4x). */
bool ramht_lookup(struct pfifo *f, uint32_t chid, uint32_t handle, uint32_t *inst, unsigned *engine);
void ramht_decode(const struct pfifo_gen *c, uint32_t handle, uint32_t ctx, nvm_ramht_entry *e);
void puller_unwatch(struct pfifo *f);
/* Channel switches: a channel leaving CACHE1 while it waits on an acquire
 * is watched; one coming in is not. */
void puller_acq_switch_out(struct pfifo *f, uint32_t chid);
void puller_acq_switch_in(struct pfifo *f, uint32_t chid);
void puller_acq_wakeups(struct pfifo *f);
void puller_fini(struct pfifo *f);
bool puller_acquire_done(const struct pfifo *f, uint32_t v);
void puller_sem_error(struct pfifo *f, unsigned subtype, uint32_t a, uint32_t d, const char *why);
/* The NV1A..NV4x semaphore: CACHE1 SEMAPHORE and PULL1 SEMAPHORE_TARGET. */
bool puller_sem_where(struct pfifo *f, nvm_aperture *ap, uint64_t *addr);
bool puller_big_endian(struct pfifo *f);
/* The acquire methods of NV1A..NV4x (SEMAPHORE_ACQUIRE 0x68). */
bool puller_acquires(uint32_t m, uint32_t d);

/* The generations' operations of NV04..NV4x (nv04.c, nv40.c) that later
 * ones reuse. */
extern const struct pfifo_ops pfifo_nv04_ops;
extern const struct ramfc_layout pfifo_ramfc_nv10;
nvm_status nv04_init(struct pfifo *f);
bool nv04_win_rd(struct pfifo *f, uint32_t addr, uint32_t *val);
bool nv04_win_wr(struct pfifo *f, uint32_t addr, uint32_t val);
bool nv04_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w);
bool nv04_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w);
uint32_t nv04_ramfc_base(const struct pfifo *f);
bool nv04_chan_dma(const struct pfifo *f, uint32_t chid);
int nv04_next_channel(struct pfifo *f);
bool nv04_chan_busy(struct pfifo *f);
extern const char *const pfifo_nv04_eng_names[ENG_IDS];
extern const char *const pfifo_nv04_sem_errors[8];
extern const struct reg_layer pfifo_nv04_regs, pfifo_nv10_regs, pfifo_nv17_regs, pfifo_nv40_regs;
nvm_status nv40_init(struct pfifo *f);
bool nv40_cache_rd(void *ctx, uint32_t addr, uint32_t *val);
bool nv40_cache_wr(void *ctx, uint32_t addr, uint32_t val);

#endif
