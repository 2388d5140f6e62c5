/*
 * The recording engine and the method log every engine may keep. GR in the
 * model is a recorder: it accepts every method, keeps the last `cap` of them
 * for tests and tools, and is idle as soon as the methods are counted (the
 * cost per method is a documented constant, so timeslices still matter).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/* The log keeps the last cap methods as runs: a record per delivery
 * (struct log_run: its time, source, and the run's method, mode and index,
 * from which the read computes the addresses) in one ring and the methods'
 * data words in another, so that logging a run costs one record and a copy
 * of its data (not a 32-byte entry per method). Method j (counted since the
 * last clear) has its data at data[j & (dsize - 1)]; the methods held are
 * the last `keep` of [0, seq), the runs up to rseq, each run's first method
 * the sum of the lengths before it. Both rings grow on use (a GPU has a
 * dozen engines and most never log a method, so opening one allocates no
 * log), doubling up to the power of two at or above cap; before they reach
 * it they have never wrapped, so realloc keeps every index in place. */

#define RUN_N(lr)    ((lr)->info & 0x1ffffffu)
#define RUN_MODE(lr) ((nvm_pb_mode)(((lr)->info >> 25) & 3u))
#define RUN_STEP(lr) (((lr)->info >> 27) & 1u)

/* The power of two at or above v (64 at least); the largest one a size_t
 * holds for anything above it (no caller asks for more than 2^24, but a
 * doubling that wraps to 0 would never end). */
static size_t pow2_at_least(size_t v)
{
	size_t p = 64;
	while (p < v && p <= SIZE_MAX / 2)
		p *= 2;
	return p;
}

/* The data ring's final size for a log of cap methods: ENG_LOG_SPARE
 * slots more (engine_log_put_tpl's 8-word copies). */
static size_t data_ring_max(size_t cap)
{
	return pow2_at_least(cap + ENG_LOG_SPARE);
}

/* Whether a data ring of dsize slots keeping keep methods is log_wide. */
static bool log_wide(uint64_t dsize, uint64_t keep)
{
	return dsize >= keep + ENG_LOG_SPARE;
}

static bool ring_grow(void **ring, size_t *size, size_t elem, uint64_t need, size_t max)
{
	if (need <= *size || *size >= max)
		return true;
	size_t want = pow2_at_least((size_t)need);
	if (want > max)
		want = max;
	void *v = realloc(*ring, want * elem);
	if (!v)
		return false;
	/* slots not yet written are never read, but a snapshot saves them */
	memset((char *)v + *size * elem, 0, (want - *size) * elem);
	*ring = v;
	*size = want;
	return true;
}

/* Address of method i of logged run lr: nvm_pb_run_method of the run, with
 * what the log has always returned for the second method on of a NINC /
 * IMMD run (the address in 13:2 only). */
static uint32_t run_method(const struct log_run *lr, uint32_t i)
{
	uint32_t m = lr->mi[0] & 0xffffu, k = lr->mi[1] + lr->first + i;
	switch (RUN_MODE(lr)) {
	case NVM_PB_MODE_INC: return (m + 4u * k) & 0x3ffcu;
	case NVM_PB_MODE_1INC: return (m + (k || i ? 4u : 0u)) & 0x3ffcu;
	default: return i ? m & 0x3ffcu : m;
	}
}

void engine_log_slow(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first, uint32_t n)
{
	if (!e->cap || !n)
		return;
	uint64_t now = e->at > e->gpu->now ? e->at : e->gpu->now;
	uint32_t step = e->at ? ENG_REC_NS_PER_METHOD : 0;
	/* Once both rings have their final size (ring_max) nothing grows. */
	if (!e->ring_max && !e->grow_off && (e->seq + n > e->dsize || e->rseq + 1 > e->rsize)) {
		size_t dmax = data_ring_max(e->cap), rmax = pow2_at_least(e->cap);
		if (!ring_grow((void **)&e->data, &e->dsize, sizeof(*e->data), e->seq + n, dmax) ||
		    !ring_grow((void **)&e->runs, &e->rsize, sizeof(*e->runs), e->rseq + 1, rmax))
			e->grow_off = true;
		e->ring_max = e->dsize >= dmax && e->rsize >= rmax;
		/* Methods kept: cap, or less where the rings could not grow
		 * (while they grow, they hold every method logged). */
		size_t keep = e->cap;
		if (e->grow_off && e->dsize < keep)
			keep = e->dsize;
		if (e->grow_off && e->rsize < keep)
			keep = e->rsize;
		e->keep = keep;
		/* From now on nothing grows: the usual case may take over. */
		if (e->ring_max || e->grow_off) {
			e->log_fast = keep < 16 ? (uint32_t)keep : 16;
			e->log_wide = log_wide(e->dsize, keep);
		}
	}
	size_t keep = e->keep;
	if (!keep)
		return; /* nothing could be allocated */
	if (n > keep) {
		/* only the last `keep` methods of the run stay */
		uint32_t skip = n - (uint32_t)keep;
		first += skip;
		now += (uint64_t)skip * step;
		n = (uint32_t)keep;
	}
	/* What the new methods push out needs no bookkeeping: the runs
	 * holding them are found back from the newest (engine_log_read). */
	size_t dm = e->dsize - 1;
	engine_log_put(&e->runs[e->rseq & (e->rsize - 1)], src, r, first, n, now, step != 0);
	e->rseq++;
	size_t at = (size_t)(e->seq & dm);
	const uint32_t *d = r->data + first;
	if (at + n <= e->dsize) {
		memcpy(&e->data[at], d, (size_t)n * 4);
	} else {
		size_t a = e->dsize - at;
		memcpy(&e->data[at], d, a * 4);
		memcpy(e->data, d + a, (n - a) * 4);
	}
	e->seq += n;
}

nvm_status engine_log_config(struct engine *e, size_t cap)
{
	/* UNVERIFIED (a tool choice): at most 16 M entries per log. */
	if (cap > (1u << 24))
		return NVM_ERR_ARG;
	free(e->runs);
	free(e->data);
	e->runs = NULL;
	e->data = NULL;
	e->dsize = e->rsize = 0;
	e->grow_off = false;
	e->ring_max = false;
	e->log_fast = 0;
	e->log_wide = false;
	e->cap = e->keep = cap;
	e->seq = e->rseq = 0;
	return NVM_OK;
}

nvm_status engine_log_read(const struct engine *e, size_t first, nvm_method *out, size_t max, size_t *n,
                           uint64_t *total)
{
	if (!n || (max && !out))
		return NVM_ERR_ARG;
	size_t k = 0;
	uint64_t lo = e->seq > e->keep ? e->seq - e->keep : 0; /* the oldest method held */
	uint64_t from = lo + first;                            /* the first method to copy */
	/* The oldest run with a method held, and its first method s: back
	 * from the newest. */
	uint64_t q = e->rseq, s = e->seq;
	while (q > 0 && e->rseq - q < e->rsize && s > lo) {
		q--;
		s -= RUN_N(&e->runs[q & (e->rsize - 1)]);
	}
	for (; q < e->rseq && k < max && from < e->seq; q++) {
		const struct log_run *lr = &e->runs[q & (e->rsize - 1)];
		for (uint64_t j = from > s ? from : s; j < s + RUN_N(lr) && k < max; j++) {
			uint32_t i = (uint32_t)(j - s);
			uint32_t ctx;
			memcpy(&ctx, lr->ci, 4);
			out[k++] = (nvm_method){ lr->time + (uint64_t)i * RUN_STEP(lr) * ENG_REC_NS_PER_METHOD,
				                 lr->src[0],
				                 lr->src[1] & 7u,
				                 lr->src[2],
				                 run_method(lr, i),
				                 e->data[j & (e->dsize - 1)],
				                 ctx,
				                 lr->ci[4] != 0 };
		}
		s += RUN_N(lr);
	}
	*n = k;
	if (total)
		*total = e->total;
	return NVM_OK;
}

void engine_log_clear(struct engine *e)
{
	/* Numbering starts again: the rings' indices stay in place. */
	e->seq = e->rseq = 0;
}

enum eng_status engine_rec_methods(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
                                   uint32_t n, struct eng_result *res)
{
	engine_log(e, src, r, first, n);
	res->cost = (uint64_t)n * ENG_REC_NS_PER_METHOD;
	res->done = n;
	return ENG_OK;
}

static void rec_bind(struct engine *e, const struct eng_src *src)
{
	(void)e;
	(void)src;
}

static const struct engine_ops recorder_ops = { .methods = engine_rec_methods, .bind = rec_bind };

nvm_status engine_recorder_init(struct engine *e)
{
	e->ops = &recorder_ops;
	return NVM_OK;
}

/* The SOFTWARE engine of the pre-GF100 PFIFO (fifo/intro.rst): not an
 * engine at all. It logs the method it is given and refuses it, so the
 * front end stops and raises its interrupt for the driver to execute the
 * method (PFIFO CACHE_ERROR). */
static enum eng_status sw_methods(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
                                  uint32_t n, struct eng_result *res)
{
	if (n)
		engine_log(e, src, r, first, 1);
	res->cost = 0;
	res->done = 0;
	return ENG_ERROR;
}

static const struct engine_ops software_ops = { .methods = sw_methods, .bind = rec_bind };

nvm_status engine_software_init(struct engine *e)
{
	e->ops = &software_ops;
	return NVM_OK;
}

static const struct {
	const char *kind;
	nvm_status (*init)(struct engine *e);
} kinds[] = {
	{ "recorder", engine_recorder_init },
	{ "ce", engine_ce_init },
	{ "software", engine_software_init },
};

nvm_status engine_new(nvm_gpu *gpu, const char *kind, const char *name, unsigned mmu_engine_id, struct engine **out)
{
	size_t k = 0;
	while (k < sizeof(kinds) / sizeof(kinds[0]) && strcmp(kinds[k].kind, kind))
		k++;
	if (k == sizeof(kinds) / sizeof(kinds[0]))
		return NVM_ERR_NOENT;
	struct engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NVM_ERR_NOMEM;
	e->name = name;
	e->mmu_engine_id = mmu_engine_id;
	e->gpu = gpu;
	nvm_status st = engine_log_config(e, ENG_LOG_DEFAULT);
	if (!st)
		st = kinds[k].init(e);
	if (st) {
		engine_free(e);
		return st;
	}
	e->next = gpu->engines;
	gpu->engines = e;
	*out = e;
	return NVM_OK;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	for (struct engine **p = &e->gpu->engines; *p; p = &(*p)->next) {
		if (*p == e) {
			*p = e->next;
			break;
		}
	}
	if (e->ops && e->ops->destroy)
		e->ops->destroy(e);
	free(e->runs);
	free(e->data);
	free(e);
}

/* ---------------------------------------------------------------- snapshots */

static void save_run(struct snap_w *w, const struct log_run *lr)
{
	for (unsigned k = 0; k < 4; k++)
		snap_u32(w, lr->src[k]);
	snap_u64(w, lr->time);
	snap_u32(w, lr->mi[0]);
	snap_u32(w, lr->mi[1]);
	snap_put(w, lr->ci, 5); /* ctx and implicit: the padding is never read */
	snap_u32(w, lr->info);
	snap_u32(w, lr->first);
}

static void load_run(struct snap_r *r, struct log_run *lr)
{
	for (unsigned k = 0; k < 4; k++)
		lr->src[k] = snap_get_u32(r);
	lr->time = snap_get_u64(r);
	lr->mi[0] = snap_get_u32(r);
	lr->mi[1] = snap_get_u32(r);
	memset(lr->ci, 0, sizeof(lr->ci));
	snap_get(r, lr->ci, 5);
	lr->info = snap_get_u32(r);
	lr->first = snap_get_u32(r);
}

static void save_engine(struct snap_w *w, const struct engine *e)
{
	snap_u64(w, strlen(e->name));
	snap_put(w, e->name, strlen(e->name));
	snap_u64(w, e->busy_until);
	snap_u64(w, e->at);
	snap_u64(w, e->total);
	snap_u64(w, e->cap);
	snap_u64(w, e->keep);
	snap_u64(w, e->dsize);
	snap_u64(w, e->rsize);
	snap_u64(w, e->seq);
	snap_u64(w, e->rseq);
	snap_u32(w, e->log_fast);
	snap_u32(w, (uint32_t)e->grow_off | (uint32_t)e->ring_max << 1);
	for (size_t i = 0; i < e->rsize; i++)
		save_run(w, &e->runs[i]);
	/* The data slots of the methods held (the last min(seq, keep)); the
	 * others as 0: what they hold depends on how the runs were copied
	 * (engine_log_put_tpl) and is never read. */
	uint64_t held = e->seq < e->keep ? e->seq : e->keep;
	for (size_t i = 0; i < e->dsize; i++)
		snap_u32(w, ((e->seq - 1 - i) & (e->dsize - 1)) < held ? e->data[i] : 0);
	if (e->ops->save)
		e->ops->save(e, w);
}

nvm_status engine_snap_save(nvm_gpu *gpu, struct snap_w *w)
{
	snap_begin(w, "ENGS");
	for (const struct engine *e = gpu->engines; e; e = e->next) {
		if (e->priv && !e->ops->save)
			return NVM_ERR_NOENT; /* a kind whose state cannot be saved */
		save_engine(w, e);
	}
	snap_end(w);
	return w->err;
}

static bool is_ring_size(uint64_t v, uint64_t max)
{
	return v == 0 || (v >= 64 && v <= max && !(v & (v - 1)));
}

/* The log's counters as engine_log_slow / engine_log_append leave them:
 * the rings (powers of two up to what cap asks for) exist once anything
 * was logged, keep <= cap, the fast path's length fits the rings. */
static bool log_ok(uint64_t cap, uint64_t keep, uint64_t dsize, uint64_t rsize, uint64_t seq, uint64_t rseq,
                   uint32_t fast)
{
	if (cap > (1u << 24) || keep > cap)
		return false; /* first: the rings' bound below is only computed for a cap in range */
	uint64_t rmax = cap ? pow2_at_least((size_t)cap) : 0, dmax = cap ? data_ring_max((size_t)cap) : 0;
	if (!is_ring_size(dsize, dmax) || !is_ring_size(rsize, rmax))
		return false;
	if ((!dsize || !rsize) && (seq || rseq || fast))
		return false;
	return fast <= 16 && fast <= keep && fast <= dsize && fast <= rsize;
}

static nvm_status load_engine(struct snap_r *r, struct engine *e, bool apply)
{
	uint64_t n = snap_get_u64(r);
	if (r->err || n != strlen(e->name) || n > r->len - r->pos || memcmp(r->p + r->pos, e->name, n))
		return NVM_ERR_CORRUPT; /* another engine list: a corrupted snapshot */
	snap_get(r, NULL, n);
	uint64_t busy = snap_get_u64(r), at = snap_get_u64(r), total = snap_get_u64(r);
	uint64_t cap = snap_get_u64(r), keep = snap_get_u64(r), dsize = snap_get_u64(r), rsize = snap_get_u64(r);
	uint64_t seq = snap_get_u64(r), rseq = snap_get_u64(r);
	uint32_t fast = snap_get_u32(r), flags = snap_get_u32(r);
	if (r->err || flags > 3 || !log_ok(cap, keep, dsize, rsize, seq, rseq, fast))
		return NVM_ERR_CORRUPT;
	if (rsize * 45 + dsize * 4 > r->len - r->pos)
		return NVM_ERR_CORRUPT;
	struct log_run *runs = NULL;
	uint32_t *data = NULL;
	if (apply && ((rsize && !(runs = malloc(rsize * sizeof(*runs)))) || (dsize && !(data = malloc(dsize * 4))))) {
		free(runs);
		return NVM_ERR_NOMEM;
	}
	struct log_run skip;
	for (size_t i = 0; i < rsize; i++)
		load_run(r, runs ? &runs[i] : &skip);
	for (size_t i = 0; i < dsize; i++) {
		uint32_t v = snap_get_u32(r);
		if (data)
			data[i] = v;
	}
	nvm_status st = r->err ? r->err : e->ops->load ? e->ops->load(e, r, apply) : NVM_OK;
	if (st || !apply) {
		free(runs);
		free(data);
		return st;
	}
	free(e->runs);
	free(e->data);
	e->runs = runs;
	e->data = data;
	e->busy_until = busy;
	e->at = at;
	e->total = total;
	e->cap = (size_t)cap;
	e->keep = (size_t)keep;
	e->dsize = (size_t)dsize;
	e->rsize = (size_t)rsize;
	e->seq = seq;
	e->rseq = rseq;
	e->log_fast = fast;
	e->log_wide = log_wide(dsize, keep);
	e->grow_off = flags & 1u;
	e->ring_max = flags >> 1;
	return NVM_OK;
}

nvm_status engine_snap_load(nvm_gpu *gpu, struct snap_r *top, bool apply)
{
	struct snap_r r;
	if (!snap_section(top, "ENGS", &r))
		return top->err;
	for (struct engine *e = gpu->engines; e; e = e->next) {
		nvm_status st = load_engine(&r, e, apply);
		if (st)
			return st;
	}
	return r.err ? r.err : r.pos == r.len ? NVM_OK : NVM_ERR_CORRUPT;
}

/* ---------------------------------------------------------------- nvmodel/method.h */

static struct engine *gpu_engine(const nvm_gpu *gpu, const char *name)
{
	for (struct engine *e = gpu->engines; e; e = e->next)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

nvm_status nvm_method_log_config(nvm_gpu *gpu, const char *engine, size_t cap)
{
	if (!gpu || !engine)
		return NVM_ERR_ARG;
	struct engine *e = gpu_engine(gpu, engine);
	return e ? engine_log_config(e, cap) : NVM_ERR_NOENT;
}

nvm_status nvm_method_log_read(nvm_gpu *gpu, const char *engine, size_t first, nvm_method *out, size_t max, size_t *n,
                               uint64_t *total)
{
	if (!gpu || !engine)
		return NVM_ERR_ARG;
	struct engine *e = gpu_engine(gpu, engine);
	return e ? engine_log_read(e, first, out, max, n, total) : NVM_ERR_NOENT;
}

nvm_status nvm_method_log_clear(nvm_gpu *gpu, const char *engine)
{
	if (!gpu || !engine)
		return NVM_ERR_ARG;
	struct engine *e = gpu_engine(gpu, engine);
	if (!e)
		return NVM_ERR_NOENT;
	engine_log_clear(e);
	return NVM_OK;
}
