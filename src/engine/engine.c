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

/* Room for one more entry while the log holds fewer than cap: the array
 * grows on use (a GPU has a dozen engines and most never log a method, so
 * opening one allocates no log). Growth only happens before the ring first
 * wraps (head 0), so the entries keep their order. False: the log is full
 * (at cap, or at what could be allocated). */
static bool log_room(struct engine *e)
{
	if (e->n < e->alloc)
		return true;
	if (e->alloc >= e->cap || e->head)
		return false;
	size_t want = e->alloc ? e->alloc * 2 : 64;
	if (want > e->cap)
		want = e->cap;
	nvm_host_method *log = realloc(e->log, want * sizeof(*log));
	if (!log)
		return false;
	e->log = log;
	e->alloc = want;
	return true;
}

void engine_log(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first, uint32_t n)
{
	e->total += n;
	if (!e->cap)
		return;
	uint64_t now = e->at > e->gpu->now ? e->at : e->gpu->now;
	uint64_t step = e->at ? ENG_REC_NS_PER_METHOD : 0;
	for (uint32_t i = first; i < first + n; i++, now += step) {
		bool room = log_room(e);
		if (!room && !e->alloc)
			return;
		size_t slot = (e->head + e->n) % e->alloc;
		e->log[slot] = (nvm_host_method){ now,        src->chid, src->subch,   src->cls, pb_run_method(r, i),
			                          r->data[i], src->ctx,  src->implicit };
		if (room)
			e->n++;
		else
			e->head = (e->head + 1) % e->alloc;
	}
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
		out[k++] = e->log[(e->head + i) % e->alloc];
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
