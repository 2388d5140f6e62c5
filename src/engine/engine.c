/*
 * The recording engine and the method log every engine may keep. GR in the
 * model is a recorder: it accepts every method, keeps the last `cap` of them
 * for tests and tools, and is idle as soon as the methods are counted (the
 * cost per method is a documented constant, so timeslices still matter).
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

void engine_log(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first, uint32_t n)
{
	e->total += n;
	if (!e->cap)
		return;
	uint64_t now = e->gpu->now;
	for (uint32_t i = first; i < first + n; i++) {
		size_t slot = (e->head + e->n) % e->cap;
		e->log[slot] =
		        (nvm_host_method){ now, src->chid, src->subch, src->cls, pb_run_method(r, i), r->data[i] };
		if (e->n < e->cap)
			e->n++;
		else
			e->head = (e->head + 1) % e->cap;
	}
}

nvm_status engine_log_config(struct engine *e, size_t cap)
{
	/* UNVERIFIED (a tool choice): at most 16 M entries per log. */
	if (cap > (1u << 24))
		return NVM_ERR_ARG;
	nvm_host_method *log = NULL;
	if (cap) {
		log = calloc(cap, sizeof(*log));
		if (!log)
			return NVM_ERR_NOMEM;
	}
	free(e->log);
	e->log = log;
	e->cap = cap;
	e->head = e->n = 0;
	return NVM_OK;
}

static uint64_t rec_methods(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first, uint32_t n)
{
	engine_log(e, src, r, first, n);
	return (uint64_t)n * ENG_REC_NS_PER_METHOD;
}

static void rec_bind(struct engine *e, const struct eng_src *src)
{
	(void)e;
	(void)src;
}

static const struct engine_ops recorder_ops = { rec_methods, rec_bind, NULL };

nvm_status engine_recorder_new(nvm_gpu *gpu, const char *name, unsigned mmu_engine_id, struct engine **out)
{
	struct engine *e = calloc(1, sizeof(*e));
	if (!e)
		return NVM_ERR_NOMEM;
	e->name = name;
	e->mmu_engine_id = mmu_engine_id;
	e->gpu = gpu;
	e->ops = &recorder_ops;
	nvm_status st = engine_log_config(e, ENG_LOG_DEFAULT);
	if (st) {
		free(e);
		return st;
	}
	*out = e;
	return NVM_OK;
}

void engine_free(struct engine *e)
{
	if (!e)
		return;
	if (e->ops->destroy)
		e->ops->destroy(e);
	free(e->log);
	free(e);
}
