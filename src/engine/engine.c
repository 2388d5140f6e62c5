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

/* The log is a ring of alloc entries, a power of two, so that a slot is
 * an index masked (not a division per method); it holds n <= cap entries
 * from head on, oldest first. It grows on use (a GPU has a dozen engines
 * and most never log a method, so opening one allocates no log), doubling
 * up to the power of two at or above cap; while it is smaller than cap it
 * has never wrapped (head 0), so realloc keeps the entries in order. Room
 * for `need` entries is made where it can be; what could not be allocated
 * leaves the ring smaller (the oldest entries are dropped sooner). */
static void log_grow(struct engine *e, size_t need)
{
	if (e->alloc >= e->cap || need <= e->alloc || e->head)
		return; /* big enough, or wrapped after a failed growth */
	size_t want = e->alloc ? e->alloc : 64;
	while (want < need && want < e->cap)
		want *= 2;
	nvm_host_method *log = realloc(e->log, want * sizeof(*log));
	if (!log)
		return;
	e->log = log;
	e->alloc = want;
}

/* Out of line: with recording off (cap 0) engine_log only counts. */
static __attribute__((noinline)) void log_append(struct engine *e, const struct eng_src *src, const pb_run *r,
                                                 uint32_t first, uint32_t n)
{
	uint64_t now = e->at > e->gpu->now ? e->at : e->gpu->now;
	uint64_t step = e->at ? ENG_REC_NS_PER_METHOD : 0;
	if (e->n + n > e->alloc)
		log_grow(e, e->n + n);
	size_t held = e->cap < e->alloc ? e->cap : e->alloc; /* entries the ring keeps at most */
	if (!held)
		return;
	if (n > held) {
		/* only the last `held` methods of the run stay */
		uint32_t skip = n - (uint32_t)held;
		first += skip;
		now += (uint64_t)skip * step;
		n = (uint32_t)held;
	}
	size_t mask = e->alloc - 1, slot = (e->head + e->n) & mask;
	size_t drop = e->n + n > held ? e->n + n - held : 0;
	e->head = (e->head + drop) & mask;
	e->n += n - drop;
	nvm_host_method *log = e->log;
	const uint32_t *data = r->data;
	if (!step && slot + n <= e->alloc) {
		/* The common case (one time for the run, no wrap): a copy of the
		 * run's data into consecutive entries; after the first method
		 * the address moves by 4 (INC) or stays (NINC, IMMD, the rest
		 * of a 1INC). */
		nvm_host_method t = { now, src->chid, src->subch, src->cls, pb_run_method(r, first), data[first] };
		nvm_host_method *out = &log[slot];
		uint32_t m = pb_run_method(r, first + 1), delta = r->mode == PB_MODE_INC ? 4u : 0u;
		out[0] = t;
		for (uint32_t i = 1; i < n; i++, m = (m + delta) & 0x3ffcu) {
			t.method = m;
			t.data = data[first + i];
			out[i] = t;
		}
		return;
	}
	for (uint32_t i = first; i < first + n; i++, now += step, slot = (slot + 1) & mask)
		log[slot] = (nvm_host_method){ now, src->chid, src->subch, src->cls, pb_run_method(r, i), data[i] };
}

void engine_log(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first, uint32_t n)
{
	e->total += n;
	if (e->cap && n)
		log_append(e, src, r, first, n);
}

nvm_status engine_log_config(struct engine *e, size_t cap)
{
	/* UNVERIFIED (a tool choice): at most 16 M entries per log. */
	if (cap > (1u << 24))
		return NVM_ERR_ARG;
	free(e->log);
	e->log = NULL;
	e->alloc = 0;
	e->cap = cap;
	e->head = e->n = 0;
	return NVM_OK;
}

nvm_status engine_log_read(const struct engine *e, size_t first, nvm_host_method *out, size_t max, size_t *n,
                           uint64_t *total)
{
	if (!n || (max && !out))
		return NVM_ERR_ARG;
	size_t k = 0;
	for (size_t i = first; i < e->n && k < max; i++)
		out[k++] = e->log[(e->head + i) & (e->alloc - 1)];
	*n = k;
	if (total)
		*total = e->total;
	return NVM_OK;
}

void engine_log_clear(struct engine *e)
{
	e->head = e->n = 0;
}

struct engine *engine_find(struct engine *const *v, size_t n, const char *name)
{
	for (size_t i = 0; v && name && i < n; i++)
		if (v[i] && !strcmp(v[i]->name, name))
			return v[i];
	return NULL;
}

static enum eng_status rec_methods(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first,
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

static const struct engine_ops recorder_ops = { rec_methods, rec_bind, NULL };

nvm_status engine_recorder_init(struct engine *e)
{
	e->ops = &recorder_ops;
	return NVM_OK;
}

/* The SOFTWARE engine of the pre-GF100 PFIFO (fifo/intro.rst): not an
 * engine at all. It logs the method it is given and refuses it, so the
 * front end stops and raises its interrupt for the driver to execute the
 * method (PFIFO CACHE_ERROR). */
static enum eng_status sw_methods(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first,
                                  uint32_t n, struct eng_result *res)
{
	if (n)
		engine_log(e, src, r, first, 1);
	res->cost = 0;
	res->done = 0;
	return ENG_ERROR;
}

static const struct engine_ops software_ops = { sw_methods, rec_bind, NULL };

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
	free(e->log);
	free(e);
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
