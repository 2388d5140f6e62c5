/*
 * The engine interface: what a PBDMA hands methods to. Host delivers engine
 * methods as slices of the pushbuffer decoder's method runs (address, mode,
 * count, pointer to data), never one call per dword; an engine reports the
 * virtual time the methods cost, whether it is busy, and may fault.
 *
 * Engines live in src/engine/, one file per kind. The recording engine
 * (engine.c) keeps a bounded log of what it received and idles at once.
 */
#ifndef NVM_ENGINE_H
#define NVM_ENGINE_H

#include <string.h>

#include "core/core.h"
#include "nvmodel/method.h"
#include "nvmodel/pushbuf.h"

/* Who sends the methods: the channel and the class bound on the subchannel. */
struct eng_src {
	uint32_t chid;
	uint32_t subch;
	uint32_t cls;
	unsigned inst_target; /* the channel's instance block (for the engine's MMU accesses) */
	uint64_t inst;
	uint32_t ctx;  /* pre-G80: the object context in force (nvm_method ctx) */
	bool implicit; /* a context load PFIFO sent through method 0 on its own */
};

struct engine;

/* How a delivery of methods ended. */
enum eng_status {
	ENG_OK = 0, /* all n methods done */
	ENG_FAULT,  /* an MMU fault (reported by the GMMU with the engine's id) */
	ENG_ERROR,  /* the engine rejected a method (launch error, illegal method) */
	ENG_BUSY,   /* data[first + done] started and needs more time: the Host
	             * delivers it again (from METHOD0) once res->cost has passed */
};

struct eng_result {
	uint64_t cost; /* virtual time the methods cost, ns */
	uint32_t done; /* methods completed (== n when ENG_OK) */
};

/* An engine's plain state methods, for a front end's hot loop
 * (engine_state_takes, engine_state_store): the methods below lim whose
 * delivery only stores the datum in the channel's state and costs ns,
 * where slot[m / 4] is 1 + the word of v the datum of method m goes to
 * (0: any other method). Made for a source (engine_ops.state), it holds
 * while the source does (its channel, subchannel and class) and, run by
 * run, while *hold is 0 and *stamp is still key (the engine's own conditions:
 * the copy engine's launch in progress, its table cache). */
struct eng_state {
	uint32_t *v;
	const uint8_t *slot;
	const bool *hold;
	const uint32_t *stamp;
	uint32_t key;
	uint32_t lim, ns;
};

struct engine_ops {
	/* Methods data[first .. first + n - 1] of run r. On ENG_FAULT /
	 * ENG_ERROR, data[first + res->done] is the method that stopped: the
	 * Host parks it in METHOD0 and marks the channel ENG_FAULTED, so the
	 * channel stops until software clears it. */
	enum eng_status (*methods)(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
	                           uint32_t n, struct eng_result *res);
	/* SET_OBJECT reached the engine (class on the subchannel). */
	void (*bind)(struct engine *e, const struct eng_src *src);
	void (*destroy)(struct engine *e);
	/* Snapshots: the kind's own state (priv), as struct block_snap's
	 * save / load (check with apply false, restore with apply true). NULL:
	 * the kind has none. */
	void (*save)(const struct engine *e, struct snap_w *w);
	nvm_status (*load)(struct engine *e, struct snap_r *r, bool apply);
	/* Optional: the plain state methods of src's channel and class
	 * (struct eng_state); false: none (methods always go through
	 * `methods`). */
	bool (*state)(struct engine *e, const struct eng_src *src, struct eng_state *st);
};

struct engine {
	const char *name;       /* "gr", "grce", "ce2" ... */
	unsigned mmu_engine_id; /* NV_PFAULT_MMU_ENG_ID of its faults */
	nvm_gpu *gpu;
	const struct engine_ops *ops;
	uint64_t busy_until; /* virtual time when its last method completes */
	/* Virtual time the next delivery's first method arrives, when the
	 * sender runs ahead of the clock (pre-G80 PFIFO works through a
	 * scheduling step); 0: now. The log then gives method i of a delivery
	 * the time at + i * ENG_REC_NS_PER_METHOD. The sender sets it. */
	uint64_t at;
	/* Set by the Host: raise the non-stalling interrupt for channel chid
	 * (NV_PFIFO_INTR_0 CHANNEL_INTR), as NON_STALL_INTERRUPT does. */
	void (*nonstall)(void *host, uint32_t chid);
	void *host;
	void *priv;          /* the engine kind's own state */
	struct engine *next; /* the GPU's engines (gpu->engines) */
	/* Optional (the kind sets it): channel chid runs soon, fetch its state
	 * into the host's caches (a speed-up of the model only). */
	void (*prefetch)(struct engine *e, uint32_t chid);
	/* The method log (recording engine and any engine that wants one): the
	 * last cap methods, kept as runs (one record per delivery: time,
	 * source, the run's method, mode and index) and their data words, in
	 * two rings allocated as they fill (engine.c). */
	struct log_run *runs;
	uint32_t *data;
	size_t cap;
	size_t keep;         /* methods held at most: cap, less if a ring could not grow */
	size_t dsize, rsize; /* ring sizes, powers of two (0: not allocated) */
	uint64_t seq, rseq;  /* methods and runs logged since the last clear */
	/* engine_log_append's usual case takes runs of 1 .. log_fast methods:
	 * min(keep, 16) once the rings have their final size, else 0. */
	uint32_t log_fast;
	/* The data ring has ENG_LOG_SPARE slots more than it keeps (dsize >=
	 * keep + ENG_LOG_SPARE): a short run's copy may write that many words
	 * (engine_log_put_tpl), the ones past the run landing in slots no
	 * method held is in. */
	bool log_wide;
	bool grow_off;        /* a growth failed: the rings keep their size */
	bool ring_max;        /* both rings have the size cap asks for */
	uint32_t log_sink[4]; /* where the short copy's unused moves go */
	uint64_t total;
};

/* Engine kinds, by the name the chip data gives: "recorder" (logs and
 * idles at once: GR in the model), "ce" (the copy engine, classes C3B5 .. C8B5) and
 * "software" (pre-GF100 PFIFO's SOFTWARE engine: logs and refuses).
 * Every engine keeps the method log. */
#define ENG_REC_NS_PER_METHOD 1u
#define ENG_LOG_DEFAULT       4096u
/* The data ring's slots beyond cap (its size is the power of two at or
 * above cap + ENG_LOG_SPARE): room for engine_log_put_tpl's 8-word copy. */
#define ENG_LOG_SPARE 8u
nvm_status engine_new(nvm_gpu *gpu, const char *kind, const char *name, unsigned mmu_engine_id, struct engine **out);
/* The kinds' constructors (set e->ops and e->priv). */
nvm_status engine_recorder_init(struct engine *e);
nvm_status engine_ce_init(struct engine *e);
nvm_status engine_software_init(struct engine *e);
/* The copy classes (ce_classes.c): VOLTA_DMA_COPY_A C3B5, TURING_DMA_COPY_A
 * C5B5, AMPERE_DMA_COPY_A C6B5, AMPERE_DMA_COPY_B C7B5, HOPPER_DMA_COPY_A
 * C8B5. A "ce" engine runs the class SET_OBJECT bound on the subchannel,
 * else its own class: C3B5 until engine_ce_set_class names another (the
 * Host sets its generation's ce_class). NVM_ERR_NOENT: not a copy class, or
 * e is no copy engine. */
struct ce_class;
extern const struct ce_class ce_c3b5, ce_c5b5, ce_c6b5, ce_c7b5, ce_c8b5;
const struct ce_class *ce_class_find(uint32_t id);
nvm_status engine_ce_set_class(struct engine *e, uint32_t id);
void engine_free(struct engine *e);
/* The recording engine's methods (engine_recorder_init). */
enum eng_status engine_rec_methods(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
                                   uint32_t n, struct eng_result *res);
/* One logged run (engine.c reads them back): 48 bytes, most of them copied
 * as they are from the eng_src and the nvm_pb_run (the layouts below are
 * asserted), so that logging a run computes little. The methods'
 * addresses are not computed here but on read (nvm_pb_run_method). */
struct log_run {
	uint32_t src[4];     /* eng_src bytes 0..15: chid, subch, cls, inst_target */
	uint64_t time;       /* of its first method */
	uint32_t mi[2];      /* nvm_pb_run method, index */
	unsigned char ci[8]; /* eng_src bytes 24..31: ctx, implicit (and padding, never read) */
	uint32_t info;       /* methods 24:0 (1 .. cap), nvm_pb_mode 26:25, methods 1 ns apart (at) 27 */
	uint32_t first;      /* the nvm_pb_run index of its first method */
};
_Static_assert(offsetof(struct eng_src, subch) == 4 && offsetof(struct eng_src, cls) == 8 &&
                       offsetof(struct eng_src, ctx) == 24 && offsetof(struct eng_src, implicit) == 28 &&
                       sizeof(struct eng_src) >= 32,
               "struct log_run copies eng_src's fields by their place");
_Static_assert(offsetof(nvm_pb_run, index) == offsetof(nvm_pb_run, method) + 4,
               "struct log_run copies method and index");

/* Fills lr: the methods first .. first + n - 1 of a run of method address
 * method, sequence index index and mode mode, from src at time now. */
static inline void engine_log_fill(struct log_run *lr, const struct eng_src *src, uint32_t method, uint32_t index,
                                   uint32_t mode, uint32_t first, uint32_t n, uint64_t now, bool step)
{
	struct log_run v;
	memcpy(v.src, src, 16);
	v.time = now;
	v.mi[0] = method;
	v.mi[1] = index;
	memcpy(v.ci, &src->ctx, 8);
	v.info = n | (mode & 3u) << 25 | (uint32_t)step << 27;
	v.first = first;
	*lr = v;
}

/* Fills lr: run r's methods first .. first + n - 1 from src at time now. */
static inline void engine_log_put(struct log_run *lr, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
                                  uint32_t n, uint64_t now, bool step)
{
	engine_log_fill(lr, src, r->method, r->index, (uint32_t)r->mode, first, n, now, step);
}

/* engine_log_append's general case: the rings grow or wrap, the run is
 * long or longer than the log. */
void engine_log_slow(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first, uint32_t n);

/* x where mask m is all ones, y where it is zero. */
static inline uintptr_t engine_log_sel(uintptr_t m, uintptr_t x, uintptr_t y)
{
	return ((x ^ y) & m) ^ y;
}

/* Copies words w0, s[1 .. n), 1 <= n <= 16, to d without touching memory
 * outside either (s[0] is read, w0 stored in its place: an IMMD run's
 * datum is not in the stream). 1 .. 8 words take no branch on n (a
 * driver's mix of run lengths would mispredict one): n >= 4 takes two
 * overlapping 4-word moves and n < 4 three single words (s[(n - 1) / 2],
 * s[n - 1], then w0); the 4-word moves always run, from a zero block to
 * e->log_sink when n < 4 (selected with a mask: a compiler makes a ?: of
 * pointers a branch). */
static inline void engine_log_copy(struct engine *e, uint32_t *restrict d, const uint32_t *restrict s, uint32_t w0,
                                   uint32_t n)
{
	static const uint32_t zero4[4];
	if (n > 8) {
		memcpy(d, s, 32);
		memcpy(d + n - 8, s + n - 8, 32);
		d[0] = w0;
		return;
	}
	uintptr_t big = (uintptr_t)0 - (uintptr_t)(n >= 4);
	const char *from = (const char *)engine_log_sel(big, (uintptr_t)s, (uintptr_t)zero4);
	char *to = (char *)engine_log_sel(big, (uintptr_t)d, (uintptr_t)e->log_sink);
	size_t tail = (4u * (size_t)n - 16u) & big; /* the last 4 words when n >= 4 */
	uint32_t t[4], u[4];
	memcpy(t, from, 16);
	memcpy(u, from + tail, 16);
	memcpy(to, t, 16);
	memcpy(to + tail, u, 16);
	uint32_t h = (n - 1) >> 1;
	uint32_t w1 = s[h], w2 = s[n - 1];
	d[h] = w1;
	d[n - 1] = w2;
	d[0] = w0;
}

/* Whether engine_log_append takes a run of n methods inline (the usual
 * case): 1 .. log_fast methods that do not reach the data ring's end. */
static inline bool engine_log_inline(const struct engine *e, uint32_t n)
{
	return n - 1u < e->log_fast && ((size_t)e->seq & (e->dsize - 1)) + n <= e->dsize;
}

/* The part of a run's record that depends only on its source and the log's
 * time (every field but the method, the mode and the length, which
 * engine_log_put_tpl adds): the record of a run of src logged now, with
 * method 0, index 0, first 0 and no methods. It holds while e->at and
 * e->gpu->now do not change. */
static inline void engine_log_tpl(const struct engine *e, const struct eng_src *src, struct log_run *t)
{
	uint64_t now = e->gpu->now;
	if (e->at > now)
		now = e->at;
	engine_log_fill(t, src, 0, 0, 0, 0, 0, now, e->at != 0);
}

/* The log's state a stretch of inline appends works on, held in
 * registers (engine_log_open ... engine_log_close): nothing else may use
 * the log between the two. The next record and data slot as pointers,
 * the data slots left before the data ring's end (a stretch stops there:
 * engine_log_fits). */
struct log_cursor {
	struct log_run *rp, *runs, *rend; /* the next record, the run ring and its end */
	uint32_t *dp, *dp0;               /* the next data slot, the first of the stretch */
	uint32_t room;                    /* data slots from dp to the ring's end */
	uint32_t fast;                    /* log_fast */
	/* engine_log_fits8's bound on room: 8 when every run of up to 8
	 * methods fits (log_fast >= 8) and the ring is log_wide, else more
	 * than any room */
	uint32_t room8;
	uint64_t nruns; /* records made */
};

static inline void engine_log_open(const struct engine *e, struct log_cursor *c)
{
	size_t at = (size_t)e->seq & (e->dsize - 1);
	c->runs = e->runs;
	c->rend = e->runs + e->rsize;
	c->rp = e->runs + (e->rseq & (e->rsize - 1));
	c->dp = c->dp0 = e->data + at;
	c->room = (uint32_t)(e->dsize - at);
	c->fast = e->log_fast;
	c->room8 = e->log_wide && e->log_fast >= 8 ? 8u : UINT32_MAX;
	c->nruns = 0;
}

static inline void engine_log_close(struct engine *e, const struct log_cursor *c)
{
	e->seq += (uint64_t)(c->dp - c->dp0);
	e->rseq += c->nruns;
}

/* engine_log_inline on the cursor. */
static inline bool engine_log_fits(const struct log_cursor *c, uint32_t n)
{
	return n - 1u < c->fast && n <= c->room;
}

/* Whether a run of n methods that fits (engine_log_fits) may be copied as
 * 8 words (engine_log_put_tpl): n <= 8, 8 data slots before the ring's
 * end, the ring log_wide. */
static inline bool engine_log_fits8(const struct log_cursor *c, uint32_t n)
{
	return n <= 8 && c->room >= c->room8;
}

/* The record of a run given by its parts: methods 0 .. n - 1 of a run at
 * method address method, mode mode, sequence index 0, its source and time
 * from template t (engine_log_tpl, still holding). */
static inline void engine_log_rec(struct log_cursor *c, const struct log_run *t, uint32_t method, uint32_t mode,
                                  uint32_t n)
{
	struct log_run *lr = c->rp;
	*lr = *t;
	lr->mi[0] = method;
	lr->info = t->info | n | (mode & 3u) << 25;
	c->rp = lr + 1 == c->rend ? c->runs : lr + 1;
	c->nruns++;
}

/* engine_log_append's inline case (engine_log_fits(c, n) holds) for a run
 * given by its parts (engine_log_rec), its data w0, data[1 .. n)
 * (engine_log_copy: data[0] is read). read8: data[0 .. 8) may be read;
 * then, where engine_log_fits8 holds, the data are copied as 8 words, a
 * copy whose length does not vary (cheaper than engine_log_copy's). The
 * words past the run land in slots that hold no method kept (log_wide):
 * the next runs write over them, and a snapshot saves them as 0. */
static inline void engine_log_put_tpl(struct engine *e, struct log_cursor *c, const struct log_run *t, uint32_t method,
                                      uint32_t mode, const uint32_t *data, uint32_t w0, uint32_t n, bool read8)
{
	engine_log_rec(c, t, method, mode, n);
	if (read8 && engine_log_fits8(c, n)) {
		memcpy(c->dp, data, 32);
		c->dp[0] = w0;
	} else {
		engine_log_copy(e, c->dp, data, w0, n);
	}
	c->dp += n;
	c->room -= n;
}

/* The log's append (engine_log without the count; nothing when cap is 0
 * or n is): a run of 1 .. 16 methods that does not reach the data ring's
 * end is a record and a short copy, inline; the rest goes to
 * engine_log_slow. */
static inline void engine_log_append(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
                                     uint32_t n)
{
	uint64_t s = e->seq;
	size_t at = (size_t)s & (e->dsize - 1);
	if (__builtin_expect(engine_log_inline(e, n), 1)) {
		uint64_t now = e->gpu->now;
		if (e->at > now)
			now = e->at;
		engine_log_put(&e->runs[e->rseq & (e->rsize - 1)], src, r, first, n, now, e->at != 0);
		e->rseq++;
		engine_log_copy(e, &e->data[at], r->data + first, r->data[first], n);
		e->seq = s + n;
	} else if (e->cap && n) {
		engine_log_slow(e, src, r, first, n);
	}
}

/* Whether a run of n methods from method address m in mode mode (INC: m,
 * m + 4 ...; NINC and IMMD: m; 1INC: m, then m + 4) is plain state methods
 * of st (engine_state_store stores them as the engine's methods would). */
static inline bool engine_state_takes(const struct eng_state *st, uint32_t m, nvm_pb_mode mode, uint32_t n)
{
	if (*st->hold || *st->stamp != st->key)
		return false;
	uint32_t k = mode == NVM_PB_MODE_INC ? n : mode == NVM_PB_MODE_1INC && n > 1 ? 2 : 1;
	if (m + 4u * (k - 1u) >= st->lim)
		return false;
	for (uint32_t i = 0; i < k; i++)
		if (!st->slot[m / 4 + i])
			return false;
	return true;
}

/* Stores the data of the run engine_state_takes took: w0 (the first
 * datum: an IMMD run's is in its header), then data[1 .. n). */
static inline void engine_state_store(const struct eng_state *st, uint32_t m, nvm_pb_mode mode, const uint32_t *data,
                                      uint32_t w0, uint32_t n)
{
	const uint8_t *sl = &st->slot[m / 4];
	st->v[sl[0] - 1u] = w0;
	uint32_t step = mode == NVM_PB_MODE_INC ? 1u : 0u, at = mode == NVM_PB_MODE_1INC ? 1u : 0u;
	for (uint32_t i = 1; i < n; i++)
		st->v[sl[step * i + at] - 1u] = data[i];
}

/* Counts methods and appends them to e's log (shared by every engine that
 * records). */
static inline void engine_log(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
                              uint32_t n)
{
	e->total += n;
	engine_log_append(e, src, r, first, n);
}

/* Whether e is a recorder without a method log (cap 0): engine_send then
 * only counts a run's methods (engine_log appends nothing), so a front
 * end's hot loop may count them (engine_rec_count) without building the
 * run's source or setting e->at. */
static inline bool engine_counts_only(const struct engine *e)
{
	return e->ops->methods == engine_rec_methods && !e->cap;
}

/* engine_send to an engine_counts_only engine: n methods counted; their
 * cost (res.cost). */
static inline uint64_t engine_rec_count(struct engine *e, uint64_t n)
{
	e->total += n;
	return n * ENG_REC_NS_PER_METHOD;
}

/* Hands methods to e (ops->methods), the recorder's inline (it counts and
 * logs, runs of up to 16 methods without a call): what the front ends' hot
 * loops call. */
static inline enum eng_status engine_send(struct engine *e, const struct eng_src *src, const nvm_pb_run *r,
                                          uint32_t first, uint32_t n, struct eng_result *res)
{
	if (e->ops->methods == engine_rec_methods) {
		engine_log(e, src, r, first, n);
		res->cost = (uint64_t)n * ENG_REC_NS_PER_METHOD;
		res->done = n;
		return ENG_OK;
	}
	return e->ops->methods(e, src, r, first, n, res);
}
nvm_status engine_log_config(struct engine *e, size_t cap);
/* Copies up to max entries of e's log from the first-th held on (oldest
 * first); *n gets how many, *total (may be NULL) all it ever received. */
nvm_status engine_log_read(const struct engine *e, size_t first, nvm_method *out, size_t max, size_t *n,
                           uint64_t *total);
void engine_log_clear(struct engine *e);
/* Snapshots of every engine of the GPU (gpu->engines, in their order):
 * busy time, the method log as it is (rings and counters) and the kind's
 * own state. Load checks with apply false and restores with apply true. */
nvm_status engine_snap_save(nvm_gpu *gpu, struct snap_w *w);
nvm_status engine_snap_load(nvm_gpu *gpu, struct snap_r *r, bool apply);

/* Semaphore reductions (sem.c), the Host's NV_UDMA_SEM_EXECUTE REDUCTION
 * codes, shared with the copy engine's LAUNCH_DMA SEMAPHORE_REDUCTION. */
enum sem_red {
	SEM_RED_IMIN = 0,
	SEM_RED_IMAX,
	SEM_RED_IXOR,
	SEM_RED_IAND,
	SEM_RED_IOR,
	SEM_RED_IADD,
	SEM_RED_INC,
	SEM_RED_DEC,
};
/* Whether reduction red supports the payload size and format (sgn: signed). */
bool sem_red_valid(unsigned red, bool is64, bool sgn);
/* The new value of a reduction of v by payload pl (red valid). */
uint64_t sem_reduce(unsigned red, bool is64, bool sgn, uint64_t v, uint64_t pl);
/* The copy engine's FADD: f32 v + pl, denormals kept, NaN -> 0x7fffffff. */
uint32_t sem_fadd32(uint32_t v, uint32_t pl);

#endif
