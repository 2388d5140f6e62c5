/*
 * Pushbuffer and GPFIFO decoding: the one decoder every front end uses
 * (the Volta PBDMA, the pre-Fermi DMA pusher in PFIFO, the `nvmodel pb`
 * tools). docs/pushbuf.md describes the formats and the design.
 *
 * The decoder is a streaming state machine. It is fed PB entries (host-order
 * dwords) in pieces of any size; a method sequence whose header is in one
 * piece may carry its data in the next. Output goes to a sink: one call per
 * method header, per run of method data (never one call per data dword), per
 * control entry and per problem. Every dword fed is accounted for exactly
 * once by the `ndwords` field of exactly one of those calls.
 *
 * The decoder never follows jumps or calls (that is the pusher's job, in
 * PFIFO); it reports them as control entries.
 */
#ifndef NVMODEL_PUSHBUF_H
#define NVMODEL_PUSHBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* ---------------------------------------------------------------- formats */

typedef enum nvm_pb_format {
	NVM_PB_FORMAT_NEW = 0, /* Fermi+ (seed 000 section 6, NV_FIFO_DMA_*) */
	NVM_PB_FORMAT_OLD = 1, /* NV04..G80 DMA pusher commands (envytools dma-pusher.rst) */
} nvm_pb_format;

/* Which instructions a generation accepts (bit set). */
enum {
	NVM_PB_ACC_NEW = 1u << 0,       /* the Fermi+ format as a whole */
	NVM_PB_ACC_OLD = 1u << 1,       /* the old format: increasing methods, old jump (NV04+) */
	NVM_PB_ACC_OLD_NINC = 1u << 2,  /* old non-increasing methods (NV10+) */
	NVM_PB_ACC_JUMP_CALL = 1u << 3, /* jump, call, return (NV1A+, NV11 and later) */
	NVM_PB_ACC_SLI_COND = 1u << 4,  /* SLI conditional (NV40+) */
	NVM_PB_ACC_LONG_NINC = 1u << 5, /* long non-increasing methods (G80+, IB mode only) */
};

/* A generation's pushbuffer profile (per-chip const data). */
typedef struct nvm_pb_gen {
	const char *chip;     /* chip profile name: "nv04", "g80", "gv100" ... */
	nvm_pb_format native; /* the format its drivers write */
	unsigned accepts;     /* NVM_PB_ACC_* */
	bool decode_only;     /* a pushbuffer profile only (no `nvmodel chips` model) */
	/* New format: the host class (methods below 0x100) and the class each
	 * subchannel holds before a SET_OBJECT, as NVIDIA's and nouveau's
	 * drivers bind them (0: none). */
	uint16_t host_class;
	uint16_t subch_class[8];
	/* GP entries have OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE with GP_ENTRY0
	 * PB_EXTENDED_BASE_OPERAND 24:8 (Hopper, clc86f.h). */
	bool gp_extended_base;
} nvm_pb_gen;

/* The profile of a chip (case-insensitive name); NULL if unknown. */
const nvm_pb_gen *nvm_pb_gen_lookup(const char *chip);
const nvm_pb_gen *nvm_pb_gen_get(size_t i); /* i-th profile, NULL past the end */

typedef struct nvm_pb_config {
	const nvm_pb_gen *gen; /* required */
	nvm_pb_format format;  /* must be accepted by gen */
	/* Old format on G80+: IB mode (jump/call/return invalid, long
	 * non-increasing valid) or NV4-style DMA mode (the reverse). Ignored
	 * before G80 (always DMA mode). */
	bool ib_mode;
	/* Old format: is the SLI conditional enabled (sli_enable)? */
	bool sli_enable;
	/* NV_PPBDMA_SUBDEVICE_ID (new format) / sli_mask (old format), 12 bits:
	 * decides whether methods after a subdevice mask are masked. */
	uint32_t subdevice_id;
} nvm_pb_config;

/* Fills *cfg with the defaults for gen and format (IB mode on G80+, SLI
 * enabled, SUBDEVICE_ID 0xFFF). Returns false if gen does not accept format. */
bool nvm_pb_config_init(nvm_pb_config *cfg, const nvm_pb_gen *gen, nvm_pb_format format);

/* ---------------------------------------------------------------- output */

typedef enum nvm_pb_mode {
	NVM_PB_MODE_INC = 0,  /* incrementing */
	NVM_PB_MODE_NINC = 1, /* non-incrementing */
	NVM_PB_MODE_1INC = 2, /* increment-once */
	NVM_PB_MODE_IMMD = 3, /* immediate data (single method, data in the header) */
} nvm_pb_mode;

const char *nvm_pb_mode_name(nvm_pb_mode m); /* "inc", "ninc", "1inc", "immd" */

/* A method header (and, for the old long non-increasing form, its count word). */
typedef struct nvm_pb_header {
	uint64_t offset;  /* dword offset of the header in the stream */
	uint32_t ndwords; /* 1, or 2 for the old long non-increasing form */
	uint32_t word;    /* the raw header */
	uint32_t word2;   /* the count word of the old long form (ndwords 2) */
	uint32_t subch;
	uint32_t method; /* byte address of the first method */
	uint32_t count;  /* method data entries that follow (1 for IMMD) */
	nvm_pb_mode mode;
	bool masked; /* subdevice / SLI mask inactive: methods are discarded */
} nvm_pb_header;

/* A run of method data: data[i] goes to method nvm_pb_run_method(run, i). */
typedef struct nvm_pb_run {
	uint64_t hdr_offset; /* dword offset of the header */
	uint64_t offset;     /* dword offset of data[0] (== hdr_offset for IMMD) */
	uint32_t ndwords;    /* stream dwords this run accounts for (0 for IMMD) */
	uint32_t subch;
	uint32_t method; /* byte address of the header's first method */
	uint32_t index;  /* index of data[0] in the header's sequence */
	uint32_t count;  /* entries in data */
	nvm_pb_mode mode;
	bool masked;
	const uint32_t *data; /* valid during the call only */
} nvm_pb_run;

/* Method byte address of data[i] of a run. An INC or 1INC sequence that
 * runs past the last method address (a count_overflow error) wraps to 0, as
 * the 12-bit METHOD_ADDRESS does. */
static inline uint32_t nvm_pb_run_method(const nvm_pb_run *r, uint32_t i)
{
	uint32_t k = r->index + i;
	switch (r->mode) {
	case NVM_PB_MODE_INC: return (r->method + 4u * k) & 0x3ffcu;
	case NVM_PB_MODE_1INC: return (r->method + (k ? 4u : 0u)) & 0x3ffcu;
	default: return r->method;
	}
}

typedef enum nvm_pb_ctrl {
	NVM_PB_CTRL_NOP = 0, /* NV_FIFO_DMA_NOP (new format) */
	NVM_PB_CTRL_SET_SUBDEVICE_MASK,
	NVM_PB_CTRL_STORE_SUBDEVICE_MASK,
	NVM_PB_CTRL_USE_SUBDEVICE_MASK,
	NVM_PB_CTRL_END_SEGMENT, /* END_PB_SEGMENT */
	NVM_PB_CTRL_IGNORED,     /* entries after END_PB_SEGMENT, up to the segment end */
	NVM_PB_CTRL_OLD_JUMP,    /* old format */
	NVM_PB_CTRL_JUMP,
	NVM_PB_CTRL_CALL,
	NVM_PB_CTRL_RETURN,
	NVM_PB_CTRL_SLI_CONDITIONAL,
	NVM_PB_CTRL_COUNT
} nvm_pb_ctrl;

const char *nvm_pb_ctrl_name(nvm_pb_ctrl c); /* "nop", "set_subdevice_mask", ... */

typedef struct nvm_pb_control {
	uint64_t offset;
	uint32_t ndwords; /* 1, or the number of ignored entries */
	uint32_t word;
	nvm_pb_ctrl kind;
	bool has_value;
	uint32_t value;       /* mask, jump/call target, count of ignored entries */
	bool active;          /* mask controls: subdevice status after the entry */
	const uint32_t *data; /* ignored: the ndwords entries (valid during the call) */
} nvm_pb_control;

typedef enum nvm_pb_err {
	NVM_PB_ERR_RESERVED_OPCODE = 0, /* SEC_OP 6 */
	NVM_PB_ERR_OBSOLETE,            /* old-format header in the new format (SEC_OP 0/2) */
	NVM_PB_ERR_BAD_CONTROL,         /* SEC_OP 0, TERT_OP 1-3 with OPCODE 31:16 not 1-3 */
	NVM_PB_ERR_COUNT_OVERFLOW,      /* INC/1INC method address would pass 0xFFF */
	NVM_PB_ERR_RESERVED_BIT,        /* bit 12 of a method header set */
	NVM_PB_ERR_TRUNCATED,           /* input ends inside a method sequence */
	NVM_PB_ERR_INVALID_CMD,         /* old format: no form matches (for this chip/mode) */
	NVM_PB_ERR_COUNT
} nvm_pb_err;

typedef struct nvm_pb_error {
	uint64_t offset;
	uint32_t ndwords; /* dwords this error consumes (0 for a report on a header that still decodes) */
	uint32_t word;
	nvm_pb_err code;
	uint32_t missing; /* NVM_PB_ERR_TRUNCATED: method data entries missing */
} nvm_pb_error;

const char *nvm_pb_err_name(nvm_pb_err e);    /* short code: "reserved_opcode" ... */
const char *nvm_pb_err_message(nvm_pb_err e); /* one-line reason */
/* The interrupt the hardware raises, for the format: "PBENTRY",
 * "DMA_PUSHER INVALID_CMD", or NULL when none is documented. */
const char *nvm_pb_err_interrupt(nvm_pb_err e, nvm_pb_format f);

/*
 * A batch of runs given by their headers (sink.hdrs): a sink that needs
 * less than a whole nvm_pb_run per run (a count, the methods' addresses)
 * reads a pointer and a word per run instead of a 56-byte record. hdr[i]
 * points at the header of a complete sequence in the piece being fed: an
 * INC / NINC / 1INC header with COUNT >= 1, its COUNT data entries right
 * after it, or an IMMD header (its one method's data is IMMD_DATA, bits
 * 28:16). Each stands for exactly the one run nvm_pb_feed gives `runs` for
 * that header, in the same order (nvm_pb_hdrs_run builds it); the header
 * word gives the rest (docs/pushbuf.md "New format": SEC_OP 31:29, COUNT /
 * IMMD_DATA 28:16, SUBCHANNEL 15:13, ADDRESS 11:0 in dwords), and
 * nvm_pb_take_count its method count. Valid during the call only.
 */
typedef struct nvm_pb_hdrs {
	const uint32_t *const *hdr;
	const uint32_t *word; /* word[i] == *hdr[i]: the header words, in one array */
	size_t n;
	/* hdr[i] is at stream offset pos + (hdr[i] - base) (nvm_pb_hdrs_offset) */
	const uint32_t *base;
	uint64_t pos;
	/* every run of the batch (the mask changes only at a control entry,
	 * and a batch never spans one) */
	bool masked;
} nvm_pb_hdrs;

typedef struct nvm_pb_sink {
	void *ctx;
	/* Any callback may be NULL. */
	void (*header)(void *ctx, const nvm_pb_header *h);
	void (*run)(void *ctx, const nvm_pb_run *r);
	void (*control)(void *ctx, const nvm_pb_control *c);
	void (*error)(void *ctx, const nvm_pb_error *e);
	/* Optional, instead of `run`: runs in batches (up to NVM_PB_BATCH). A batch
	 * is always delivered before any later header, control or error event
	 * and before nvm_pb_feed returns, so the data pointers stay valid. */
	void (*runs)(void *ctx, const nvm_pb_run *runs, size_t n);
	/* Optional, with `runs` (and no `header`; new format, else unused):
	 * the runs of complete method sequences as header pointers, in batches
	 * (nvm_pb_hdrs, up to NVM_PB_BATCH); `runs` still gets every other run
	 * (a sequence split across feeds, a header the decoder reports a
	 * problem on). The runs and their order are those `runs` alone would
	 * get; each batch is delivered as a `runs` batch is (before any later
	 * event and before nvm_pb_feed returns); nvm_pb_stop_hdr stops in one. */
	void (*hdrs)(void *ctx, const nvm_pb_hdrs *b);
} nvm_pb_sink;

#define NVM_PB_BATCH 32

/* ---------------------------------------------------------------- decoder */

/*
 * The decoder state a front end keeps between feeds (in its registers:
 * PB_HEADER / PB_COUNT on the PBDMA, DMA_STATE on the DMA pusher), read with
 * nvm_pb_save and put back with nvm_pb_restore. The stream position is not part of
 * it: a front end counts its own (GET).
 */
typedef struct nvm_pb_decoder_state {
	uint32_t remaining;     /* data entries of the pending sequence still to come */
	uint32_t index;         /* entries of it already delivered */
	uint32_t subch, method; /* method: byte address of the sequence's first method */
	nvm_pb_mode mode;
	uint32_t hdr_word;    /* the sequence's header (reported by nvm_pb_finish) */
	bool lenp;            /* old long NINC: count word pending */
	bool skipping;        /* after END_PB_SEGMENT until the segment ends */
	bool active;          /* subdevice mask (new) / SLI conditional (old) lets methods through */
	uint32_t stored_mask; /* STORE_SUBDEVICE_MASK value */
} nvm_pb_decoder_state;

/* The decoder's working state. PRIVATE: callers allocate it (on the stack,
 * or inside a front end's own state) and pass it to the calls below, but
 * read or write no field: nvm_pb_save / nvm_pb_restore / nvm_pb_stop_* and
 * d->methods (read only) are the interface. It stays a complete type
 * rather than an opaque one because it is on the hot path: the Volta PBDMA
 * and the pushers keep it inside their own state (no allocation, no pointer
 * to chase) and the inline nvm_pb_take_* path below reads it in place (the
 * benchmarks' method rate depends on it). Its size and layout may change
 * with any release (docs/embedding.md "API conventions"): compile against
 * the headers of the library you link. */
typedef struct nvm_pb_decoder {
	nvm_pb_config cfg;
	nvm_pb_sink sink;
	uint64_t pos; /* stream offset of the next dword */
	/* the pending method sequence */
	uint32_t remaining; /* data entries still to come */
	uint32_t index;     /* entries already delivered */
	uint32_t subch, method;
	nvm_pb_mode mode;
	uint64_t hdr_offset;
	uint32_t hdr_word;
	bool lenp;     /* old long NINC: count word pending */
	bool skipping; /* after END_PB_SEGMENT until the segment ends */
	/* subdevice masking (new) / SLI conditional (old) */
	bool active;
	bool stopped; /* a sink called nvm_pb_stop_* during the last nvm_pb_feed */
	uint32_t stored_mask;
	uint64_t methods; /* method data entries delivered to the sink so far (IMMD: 1) */
	/* the state to resume from after a stop (applied when nvm_pb_feed returns) */
	uint64_t stop_pos, feed_start, feed_end;
	uint64_t stop_hdr_offset;
	uint64_t quiet_at; /* an IMMD header stopped before: its reports are not repeated */
	nvm_pb_decoder_state stop_state;
	uint32_t nbatch; /* runs waiting in batch (sink.runs) */
	nvm_pb_run batch[NVM_PB_BATCH];
	uint32_t batch_immd[NVM_PB_BATCH];
	/* per run slot: entries of its sequence after the run, and the header */
	struct {
		uint32_t left, hdr_word;
	} batch_seq[NVM_PB_BATCH];
	/* sink.hdrs: the batch being delivered and its header pointers */
	nvm_pb_hdrs hdrs;
	const uint32_t *hdr_batch[NVM_PB_BATCH];
	uint32_t hdr_words[NVM_PB_BATCH];
} nvm_pb_decoder;

void nvm_pb_decoder_init(nvm_pb_decoder *d, const nvm_pb_config *cfg, const nvm_pb_sink *sink);
/* Feeds n more PB entries of the current segment. Returns the entries
 * consumed: n, or fewer when a sink stopped the decoder (nvm_pb_stopped). The
 * decoder then stands just past the last entry consumed, and the next feed
 * must start with the entry after it. d->methods counts the method data
 * entries delivered (the ones after a stop point are not counted). */
size_t nvm_pb_feed(nvm_pb_decoder *d, const uint32_t *dw, size_t n);
/* The current PB segment ends (the next feed starts a new one). */
void nvm_pb_segment_end(nvm_pb_decoder *d);
/* The stream ends: reports a sequence still waiting for data. */
void nvm_pb_finish(nvm_pb_decoder *d);

/*
 * Back-pressure, from inside a sink callback (a `run` or `runs` callback
 * for nvm_pb_stop_run, any callback for nvm_pb_stop_at): nothing more is delivered
 * in this feed, and nvm_pb_feed returns with the decoder rewound to the stop.
 *  - nvm_pb_stop_run: after the first k entries (0 <= k <= r->count) of run r,
 *    which must be the run (or one of the batch) being delivered. The rest of
 *    the sequence stays pending: the next feed delivers data[k] first. For an
 *    IMMD run, k 0 stops before its header (decoded again, without
 *    repeating its reserved-bit report), 1 after it.
 *  - nvm_pb_stop_at: with no sequence pending, the next feed decoding stream
 *    offset pos as an instruction (pos within the current feed; an error's
 *    `offset + 1` stops just past the bad word).
 * A later stop in the same feed replaces an earlier one.
 */
void nvm_pb_stop_run(nvm_pb_decoder *d, const nvm_pb_run *r, uint32_t k);
void nvm_pb_stop_at(nvm_pb_decoder *d, uint64_t pos);
static inline bool nvm_pb_stopped(const nvm_pb_decoder *d)
{
	return d->stopped;
}

/*
 * Runs taken one at a time by the front end, in its own loop, instead of
 * through sink.runs (the Volta PBDMA's hot path: no batch to write and read
 * again). It is the decoder's batched path (nvm_pb_feed uses the same two
 * steps), one run per call:
 *  - nvm_pb_take_begin starts a feed, as nvm_pb_feed does (nvm_pb_stopped false).
 *  - nvm_pb_take_hdr, when nvm_pb_take_ready (no sequence pending, the new format):
 *    the next well-formed INC / NINC / 1INC header whose whole sequence is
 *    in [*p, end), or an IMMD header: returns the header word and moves *p
 *    and *pos past its run (headers with COUNT 0 are stepped over). 0: *p
 *    is at end or at an entry the general path (nvm_pb_feed) must decode. *pos
 *    is the caller's copy of the stream position (d->pos).
 *  - nvm_pb_take_fill(d, 0, w, *p, *pos, !d->active) gives that run as nvm_pb_feed
 *    would have delivered it, in d->batch[0] (IMMD data in
 *    d->batch_immd[0]), valid until the next call. nvm_pb_stop_run on it works
 *    as from a sink.
 *  - nvm_pb_take_sync(d, pos, methods) gives the position and the number of
 *    methods taken (nvm_pb_take_count of each header) back to the decoder;
 *    before any other decoder call but nvm_pb_stop_run. After a nvm_pb_stop_run,
 *    nvm_pb_take_stop then
 *    rewinds the decoder to the stop (as nvm_pb_feed does when it returns).
 * The runs, their order and the decoder's state after each are those
 * nvm_pb_feed gives (tests/unit/test_pb_take.c).
 */
void nvm_pb_take_begin(nvm_pb_decoder *d);
void nvm_pb_take_stop(nvm_pb_decoder *d);

static inline bool nvm_pb_take_ready(const nvm_pb_decoder *d)
{
	return !(d->remaining | (uint32_t)d->skipping | (uint32_t)d->lenp) && d->cfg.format == NVM_PB_FORMAT_NEW;
}

/* Method data entries of a header nvm_pb_take_hdr returned (SEC_OP 1, 3, 5
 * or 4): COUNT, 1 for IMMD. SEC_OP bit 0 (bit 29) tells them apart, without
 * a branch (drivers mix them unpredictably). */
static inline uint32_t nvm_pb_take_count(uint32_t w)
{
	uint32_t m = (uint32_t)((int32_t)(w << 2) >> 31); /* all ones but for IMMD */
	return (((w >> 16) & 0x1fffu) & m) + m + 1u;
}

static inline __attribute__((always_inline)) uint32_t nvm_pb_take_hdr(const uint32_t **pp, const uint32_t *end,
                                                                      uint64_t *pos)
{
	/* Per SEC_OP, without branches on it (drivers mix IMMD and the method
	 * headers unpredictably): span, the most method addresses past ADDRESS
	 * an INC / 1INC run reaches (INC: COUNT, 1INC: 2; NINC and IMMD: none);
	 * lim, the bound ADDRESS + span must keep: 0x1000 (past it is
	 * count_overflow) for SEC_OP 1, 3, 4, 5 INC / NON_INC / IMMD / INC_ONCE,
	 * -1 for anything else (always past). Those are the general path's, as
	 * is a header with the reserved bit 12 set, which is counted twice into
	 * ADDRESS to be past 0x1000 too. */
	static const struct {
		uint16_t span;
		int32_t lim;
	} kind[8] = { { 0, -1 },     { 0x1fff, 0x1000 }, { 0, -1 }, { 0, 0x1000 },
		      { 0, 0x1000 }, { 2, 0x1000 },      { 0, -1 }, { 0, -1 } };
	const uint32_t *p = *pp;
	while (p < end) {
		uint32_t w = *p, op = w >> 29;
		uint32_t cnt = (w >> 16) & 0x1fffu; /* IMMD_DATA is the same 28:16 */
		int32_t addr = (int32_t)((w & 0xfffu) + ((w & (1u << 12)) << 1));
		/* take, the data entries after the header: COUNT, none for IMMD.
		 * SEC_OP bit 0 (bit 29) tells them apart (1, 3, 5 against 4; the
		 * other SEC_OPs fail lim), without a table load: the next header's
		 * address waits for it. */
		uint32_t take = cnt & (uint32_t)((int32_t)(w << 2) >> 31);
		int32_t span = (int32_t)(cnt < kind[op].span ? cnt : kind[op].span);
		if (take >= (size_t)(end - p) || addr + span > kind[op].lim)
			break; /* continues in the next piece, or the general path's */
		p += 1 + take;
		*pos += 1 + take;
		if (!cnt && op != 4)
			continue; /* a no-op header: nothing to deliver */
		*pp = p;
		if (!w)
			__builtin_unreachable(); /* SEC_OP is not 0 */
		return w;
	}
	*pp = p;
	return 0;
}

/* Fills batch slot `slot` with the run of header w (nvm_pb_take_hdr), whose
 * run ends before next and before stream offset pos. Filled without
 * branching on the kind: drivers mix IMMD and method headers
 * unpredictably. */
static inline __attribute__((always_inline)) nvm_pb_run *
nvm_pb_take_fill(nvm_pb_decoder *d, uint32_t slot, uint32_t w, const uint32_t *next, uint64_t pos, bool masked)
{
	/* immd: all ones for an IMMD header (bit 29 clear, see nvm_pb_take_hdr),
	 * else 0; the selections below are masks, not ?: (which the compiler
	 * turns into a branch that mispredicts on a driver's mix). */
	uint32_t immd = ~(uint32_t)((int32_t)(w << 2) >> 31);
	uint32_t cnt = (w >> 16) & 0x1fffu, take = cnt & ~immd;
	nvm_pb_run *r = &d->batch[slot];
	uintptr_t run_data = (uintptr_t)(next - take), immd_data = (uintptr_t)&d->batch_immd[slot];
	uintptr_t method_mask = (uintptr_t)((int64_t)((uint64_t)w << 34) >> 63); /* ~immd, 64 bits */
	d->batch_immd[slot] = cnt;
	d->batch_seq[slot].left = 0;
	d->batch_seq[slot].hdr_word = w;
	r->data = (const uint32_t *)(immd_data ^ ((immd_data ^ run_data) & method_mask));
	r->ndwords = take;
	r->count = take | (immd & 1u);
	r->mode = (nvm_pb_mode)((w >> 30) | (immd & 3u)); /* SEC_OP 1, 3, 5 >> 1: INC, NINC, 1INC */
	r->hdr_offset = pos - 1 - take;
	r->offset = pos - take - (immd & 1u);
	r->subch = (w >> 13) & 7u;
	r->method = (w & 0xfffu) << 2;
	r->index = 0;
	r->masked = masked;
	return r;
}

static inline void nvm_pb_take_sync(nvm_pb_decoder *d, uint64_t pos, uint64_t methods)
{
	d->pos = pos;
	d->methods += methods;
}

/* ---- sink.hdrs: the runs of a batch of headers (nvm_pb_hdrs) */

/* The stream offset of header i of a batch. */
static inline uint64_t nvm_pb_hdrs_offset(const nvm_pb_hdrs *b, size_t i)
{
	return b->pos + (uint64_t)(b->hdr[i] - b->base);
}

/* The method data entries of a batch (the sum of nvm_pb_take_count). */
static inline uint64_t nvm_pb_hdrs_methods(const nvm_pb_hdrs *b)
{
	uint64_t m = 0;
	for (size_t i = 0; i < b->n; i++)
		m += nvm_pb_take_count(b->word[i]);
	return m;
}

/* Builds the run of header i into *r, as nvm_pb_feed would give it to
 * `runs`; an IMMD run's data is put in *immd (r->data points there). */
static inline void nvm_pb_hdrs_run(const nvm_pb_hdrs *b, size_t i, nvm_pb_run *r, uint32_t *immd)
{
	uint32_t w = b->word[i];
	bool is_immd = !(w & (1u << 29)); /* SEC_OP 4 against 1, 3, 5 */
	uint32_t cnt = (w >> 16) & 0x1fffu;
	uint64_t off = nvm_pb_hdrs_offset(b, i);
	*immd = cnt;
	r->hdr_offset = off;
	r->offset = is_immd ? off : off + 1;
	r->ndwords = is_immd ? 0 : cnt;
	r->subch = (w >> 13) & 7u;
	r->method = (w & 0xfffu) << 2;
	r->index = 0;
	r->count = is_immd ? 1 : cnt;
	r->mode = is_immd ? NVM_PB_MODE_IMMD : (nvm_pb_mode)(w >> 30); /* SEC_OP 1, 3, 5 >> 1 */
	r->masked = b->masked;
	r->data = is_immd ? immd : b->hdr[i] + 1;
}

/* Back-pressure from a `hdrs` callback, as nvm_pb_stop_run on the run of
 * header i of batch b (the batch being delivered): after its first k
 * entries; the runs after it are not delivered. */
void nvm_pb_stop_hdr(nvm_pb_decoder *d, const nvm_pb_hdrs *b, size_t i, uint32_t k);

/* The decoder state to keep between feeds, and putting it back (after
 * nvm_pb_decoder_init, as on a context load). */
void nvm_pb_save(const nvm_pb_decoder *d, nvm_pb_decoder_state *s);
void nvm_pb_restore(nvm_pb_decoder *d, const nvm_pb_decoder_state *s);

/* ---------------------------------------------------------------- GP entries */

typedef enum nvm_pb_gp_op {
	NVM_PB_GP_NOP = 0,
	NVM_PB_GP_ILLEGAL = 1,
	NVM_PB_GP_GP_CRC = 2,
	NVM_PB_GP_PB_CRC = 3,
	NVM_PB_GP_SET_PB_SEGMENT_EXTENDED_BASE = 4, /* gh100 (clc86f.h) */
} nvm_pb_gp_op;

typedef enum nvm_pb_gp_err {
	NVM_PB_GP_OK = 0,
	NVM_PB_GP_ERR_ILLEGAL,    /* OPCODE_ILLEGAL */
	NVM_PB_GP_ERR_BAD_OPCODE, /* opcode not defined */
	NVM_PB_GP_ERR_END_OF_VA,  /* segment reaches the last dword of the 40-bit VA */
} nvm_pb_gp_err;

typedef struct nvm_pb_gp_entry {
	uint32_t e0, e1;
	bool control;    /* LENGTH == 0 */
	uint64_t get;    /* byte address (GET_HI << 32) + (GET << 2) */
	uint32_t length; /* dwords */
	bool fetch_conditional;
	bool priv; /* PRIV 8:8 KERNEL (class header only) */
	bool level_subroutine;
	bool sync_wait;
	uint32_t opcode; /* control entries */
	uint32_t operand;
	/* SET_PB_SEGMENT_EXTENDED_BASE: GP_ENTRY0 PB_EXTENDED_BASE_OPERAND 24:8 */
	uint32_t extended_base;
	nvm_pb_gp_err err;
} nvm_pb_gp_entry;

/* As gv100..ga102 define them (OPCODE 0..3). */
void nvm_pb_gp_decode(uint32_t e0, uint32_t e1, nvm_pb_gp_entry *out);
/* extended_base: the generation defines OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE
 * (nvm_pb_gen gp_extended_base). */
void nvm_pb_gp_decode_gen(uint32_t e0, uint32_t e1, bool extended_base, nvm_pb_gp_entry *out);
/* The name of a control entry's OPCODE as its decoder defined it, or NULL
 * (not a control entry, or an undefined OPCODE). */
const char *nvm_pb_gp_entry_op_name(const nvm_pb_gp_entry *g);

/* A G80 IB entry (envytools dma-pusher.rst "IB mode", rnndb IB_ENTRY
 * variants G80:GF100): word 0 ADDRESS_LOW 31:2; word 1 ADDRESS_HIGH 7:0,
 * bit 8 unknown, NOT_MAIN 9, SIZE 31:10 (22 bits, the pseudocode's
 * `entry >> 42 & 0x3fffff`). SIZE 0 is the IB_EMPTY error. */
typedef struct nvm_pb_ib_entry {
	uint64_t address; /* byte address of the pushbuffer piece (40 bits) */
	uint32_t size;    /* dwords */
	bool not_main;
	bool unk8;
} nvm_pb_ib_entry;
void nvm_pb_ib_decode(uint32_t e0, uint32_t e1, nvm_pb_ib_entry *out);
const char *nvm_pb_gp_op_name(uint32_t opcode); /* "nop" ... or NULL */
const char *nvm_pb_gp_err_name(nvm_pb_gp_err e);
const char *nvm_pb_gp_err_message(nvm_pb_gp_err e);

/* ---------------------------------------------------------------- method tables */

/*
 * The method tables of every class in NVIDIA's published class headers
 * (host 906F..C76F, copy 90B5..CAB5, compute 90C0..CEC0, 3D 9097..CE97, 2D
 * 902D, inline-to-memory A040/A140, M2MF 9039), generated by
 * tools/gen/gen_pb_classes.py (docs/pushbuf.md "Method tables"). The tables
 * hold no pointers: a name is an offset into nvm_pb_names (nvm_pb_name()), a field or
 * value list is a range of nvm_pb_fields / nvm_pb_values, and a class lists indices of
 * nvm_pb_methods. Descriptions that several classes share are stored once.
 */
typedef struct nvm_pb_value {
	uint32_t value;
	uint32_t name; /* nvm_pb_name() */
} nvm_pb_value;

typedef struct nvm_pb_field {
	uint32_t name;    /* nvm_pb_name() */
	uint32_t values;  /* first of nvalues in nvm_pb_values */
	uint16_t nvalues; /* enum values, sorted by value (0: a number); among
	                   * names of one value the header's first comes first */
	uint8_t hi, lo;   /* bits hi:lo of the method data */
} nvm_pb_field;

enum {
	NVM_PB_METHOD_FLOAT = 1u << 0, /* the data is an IEEE float */
	NVM_PB_METHOD_2D = 1u << 1,    /* NAME(i,j): count = i elements * inner */
};

typedef struct nvm_pb_method {
	uint32_t name;   /* nvm_pb_name(): "SET_OBJECT", "SET_VIEWPORT_SCALE_X" */
	uint32_t fields; /* first of nfields in nvm_pb_fields */
	uint16_t addr;   /* byte address (of element 0 for an array) */
	uint16_t count;  /* array elements NAME(i); 0 for a single method */
	uint8_t nfields;
	uint8_t stride; /* bytes between array elements */
	uint8_t inner;  /* NAME(i,j): j elements per i */
	uint8_t flags;  /* NVM_PB_METHOD_* */
} nvm_pb_method;

/* What Mesa's generated dumpers print at an address: the description they
 * use and the class prefix they print it with (NV<prefix>_NAME). */
typedef struct nvm_pb_mesa_entry {
	uint16_t method; /* index in nvm_pb_methods */
	uint16_t prefix; /* class id printed */
} nvm_pb_mesa_entry;

typedef struct nvm_pb_class {
	uint32_t id;             /* 0xC397 ... */
	const char *name;        /* "VOLTA_A" */
	const char *tag;         /* "C397" */
	const uint16_t *methods; /* indices in nvm_pb_methods, sorted by address */
	size_t nmethods;
	const nvm_pb_mesa_entry *mesa; /* Mesa's view, sorted by address (NULL: Mesa has no dumper) */
	size_t nmesa;
} nvm_pb_class;

extern const char nvm_pb_names[];
extern const nvm_pb_value nvm_pb_values[];
extern const nvm_pb_field nvm_pb_fields[];
extern const nvm_pb_method nvm_pb_methods[];
extern const nvm_pb_class nvm_pb_classes[];
extern const size_t nvm_pb_nclasses;

static inline const char *nvm_pb_name(uint32_t off)
{
	return nvm_pb_names + off;
}

/* strlen(nvm_pb_name(off)), stored with the name. */
static inline size_t nvm_pb_name_len(uint32_t off)
{
	return (unsigned char)nvm_pb_names[off - 1];
}

static inline const nvm_pb_field *nvm_pb_method_field(const nvm_pb_method *m, unsigned i)
{
	return &nvm_pb_fields[m->fields + i];
}

static inline const nvm_pb_value *nvm_pb_field_value(const nvm_pb_field *f, unsigned i)
{
	return &nvm_pb_values[f->values + i];
}

const nvm_pb_class *nvm_pb_class_find(uint32_t id);
const nvm_pb_class *nvm_pb_class_find_tag(const char *tag);                   /* "C3B5", case-insensitive */
const nvm_pb_class *nvm_pb_class_get(size_t i);                               /* i-th class, NULL past the end */
const nvm_pb_method *nvm_pb_class_method_at(const nvm_pb_class *c, size_t i); /* i-th method by address */
/* The method at byte address addr (an array method when addr is one of its
 * elements), NULL if none; *index (if not NULL) gets the element number
 * (i, or i * inner + j for NAME(i,j)). */
const nvm_pb_method *nvm_pb_class_lookup(const nvm_pb_class *c, uint32_t addr, uint32_t *index);
const nvm_pb_method *nvm_pb_class_method(const nvm_pb_class *c, uint32_t addr);
/* A method by name, without an index (case-insensitive). */
const nvm_pb_method *nvm_pb_class_method_by_name(const nvm_pb_class *c, const char *name);
/* NAME, NAME(i) or NAME(i,j) (case-insensitive) -> byte address. */
bool nvm_pb_class_resolve(const nvm_pb_class *c, const char *name, uint32_t *addr);
/* Writes "NAME", "NAME(i)" or "NAME(i,j)" for element index; returns the
 * length (snprintf-like, buf always terminated when n > 0). */
size_t nvm_pb_method_format_name(const nvm_pb_method *m, uint32_t index, char *buf, size_t n);
/* "TAG.NAME" or "TAG.NAME(i)" of the method at byte address addr of class
 * cls ("0039.OFFSET_IN"), for the models' traces and method logs; an empty
 * string when the tables do not have it. Returns the length written. */
size_t nvm_pb_method_label(uint32_t cls, uint32_t addr, char *buf, size_t n);
/* The name of value v of an enum field (the first one the header lists), or NULL. */
const char *nvm_pb_field_value_name(const nvm_pb_field *f, uint32_t v);
/* The host class of a format on a chip (C36F for the new format on gv100); NULL if none. */
const nvm_pb_class *nvm_pb_host_class(const nvm_pb_gen *gen, nvm_pb_format f);

/* ---------------------------------------------------------------- encoding */

/* Encodes a method header (for IMMD, count is the 13-bit data). Returns
 * false when a field does not fit or the mode does not exist in the format. */
bool nvm_pb_encode_method(nvm_pb_format f, nvm_pb_mode mode, uint32_t subch, uint32_t method, uint32_t count,
                          uint32_t *word);
/* Encodes a control entry (value: mask or jump/call target). NVM_PB_CTRL_IGNORED
 * has no encoding. */
bool nvm_pb_encode_control(nvm_pb_format f, nvm_pb_ctrl kind, uint32_t value, uint32_t *word);

/* ---------------------------------------------------------------- text output */

/* A growable text buffer; when flush is set it is called whenever the
 * buffer passes 1 MiB and by nvm_pb_out_flush (the library never prints). */
typedef struct nvm_pb_out {
	char *buf;
	size_t len, cap;
	bool oom;
	void (*flush)(void *ctx, const char *s, size_t n);
	void *ctx;
} nvm_pb_out;

void nvm_pb_out_flush(nvm_pb_out *o);
void nvm_pb_out_free(nvm_pb_out *o);

typedef enum nvm_pb_style {
	NVM_PB_STYLE_TEXT = 0, /* our readable layout (docs/pushbuf.md) */
	NVM_PB_STYLE_JSON,     /* JSON Lines */
	NVM_PB_STYLE_MESA,     /* the layout of Mesa's vk_push_print */
	NVM_PB_STYLE_ASM,      /* `nvmodel pb asm` syntax: decode -> asm gives the same bytes */
} nvm_pb_style;

/* A class's method table laid out by address for the printer (built when
 * the class is first used on a subchannel). PRIVATE, part of
 * nvm_pb_printer. */
typedef struct nvm_pb_view {
	const nvm_pb_class *cls; /* the class the slots describe (NULL: not built) */
	const nvm_pb_class *src; /* the class whose list was used (Mesa's fallback) */
	bool mesa;               /* built from Mesa's view */
	uint16_t slot[4096];     /* by method dword address: 1 + position in the list, 0 none */
} nvm_pb_view;

/* The printer's working state. PRIVATE but for `errors` (read it after
 * nvm_pb_printer_end): the caller allocates it (about 75 KiB: the heap
 * rather than a small stack) and uses the calls below. Its size and layout
 * may change with any release. */
typedef struct nvm_pb_printer {
	nvm_pb_style style;
	nvm_pb_format format;
	const nvm_pb_class *host;     /* names of methods below 0x100 (new format) */
	const nvm_pb_gen *gen;        /* the chip profile (the mesa style asks its classes) */
	const nvm_pb_class *bound[8]; /* class bound on each subchannel, or NULL */
	/* The class id SET_OBJECT (or the chip profile) put on each subchannel,
	 * 0 if none; bound[] is NULL for an id without a table. */
	uint32_t bound_id[8];
	uint8_t pinned;       /* subchannels --class fixed: SET_OBJECT leaves them */
	uint32_t unknown[16]; /* unknown class ids already reported */
	uint32_t nunknown;
	const uint32_t *input; /* the whole input: entries base .. base + n - 1 */
	uint64_t base;
	size_t n;
	nvm_pb_out *out;
	uint64_t errors; /* problems seen */
	/* asm style: the current sequence, printed as a header line */
	uint32_t seq_left;   /* data entries of the current sequence still to come */
	uint32_t line_items; /* values on the current asm line */
	bool raw_seq;        /* asm: the sequence is printed as .word */
	nvm_pb_view view[9]; /* per subchannel; [8] the host class */
	/* The text and JSON styles' methods formatted once (print.c); NULL:
	 * every line formatted from the tables. nvm_pb_printer_end frees it. */
	struct pb_print_cache *cache;
} nvm_pb_printer;

/* Sets up a printer for input entries base .. base + n - 1. input may be
 * NULL when the words are fed in pieces (the printer takes what it prints
 * from the events); n is still needed by the asm style, which must know
 * whether a sequence is complete. */
void nvm_pb_printer_init(nvm_pb_printer *p, nvm_pb_style style, const nvm_pb_config *cfg, const uint32_t *input,
                         uint64_t base, size_t n, nvm_pb_out *out);
/* Binds class c on a subchannel (as --class does); pin: SET_OBJECT in the
 * stream does not change it. */
void nvm_pb_printer_bind(nvm_pb_printer *p, unsigned subch, const nvm_pb_class *c, bool pin);
nvm_pb_sink nvm_pb_printer_sink(nvm_pb_printer *p);
void nvm_pb_printer_begin(nvm_pb_printer *p); /* asm: the .format / .class lines */
/* Flushes the output and frees what the printer allocated (call it once
 * for each nvm_pb_printer_init). */
void nvm_pb_printer_end(nvm_pb_printer *p);

/* Decodes and prints one GP entry (index = its position) in a style. */
void nvm_pb_print_gp(nvm_pb_out *o, nvm_pb_style style, uint64_t index, const nvm_pb_gp_entry *g);

/* ---------------------------------------------------------------- assembler */

typedef struct nvm_pb_asm_result {
	uint32_t *words; /* malloc'd */
	size_t n;
	unsigned line; /* on error: the line */
	char msg[160]; /* on error: the message */
} nvm_pb_asm_result;

/* Assembles text (docs/pushbuf.md "Assembler syntax"). format is the
 * default until a .format line. Returns true on success. */
bool nvm_pb_asm(const char *text, size_t len, nvm_pb_format format, nvm_pb_asm_result *res);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif

#endif
