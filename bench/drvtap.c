/* The engine tap of drvstream.h: every engine kind's method delivery,
 * wrapped to add what the engine receives to a checksum before the engine
 * runs. It reaches into the engine interface (src/engine): a benchmark
 * tool's privilege, not the library's. An engine kind's ops are one static
 * table (engine.c, ce.c), so a slot per kind serves every GPU. */
#include "core/core.h"
#include "drvstream.h"
#include "engine/engine.h"

#define TAP_SLOTS 4

static uint64_t tap_sum, tap_count;
static const struct engine_ops *tap_orig[TAP_SLOTS];
static struct engine_ops tap_ops[TAP_SLOTS];

static inline enum eng_status tap(unsigned k, struct engine *e, const struct eng_src *src, const nvm_pb_run *r,
                                  uint32_t first, uint32_t n, struct eng_result *res)
{
	enum eng_status st = tap_orig[k]->methods(e, src, r, first, n, res);
	/* what the engine accepted: all n, or res->done before a stop */
	uint32_t done = st == ENG_OK ? n : res->done;
	for (uint32_t i = first; i < first + done; i++) {
		uint32_t m = nvm_pb_run_method(r, i);
		if (m >= 0x100) {
			tap_sum += ds_hash(r->subch, src->cls, m, r->data[i]);
			tap_count++;
		}
	}
	return st;
}

#define TAP_FN(k)                                                                                                      \
	static enum eng_status tap##k(struct engine *e, const struct eng_src *src, const nvm_pb_run *r,                \
	                              uint32_t first, uint32_t n, struct eng_result *res)                              \
	{                                                                                                              \
		return tap(k, e, src, r, first, n, res);                                                               \
	}
TAP_FN(0)
TAP_FN(1)
TAP_FN(2)
TAP_FN(3)

static enum eng_status (*const tap_fns[TAP_SLOTS])(struct engine *, const struct eng_src *, const nvm_pb_run *,
                                                   uint32_t, uint32_t,
                                                   struct eng_result *) = { tap0, tap1, tap2, tap3 };

int ds_tap_install(nvm_gpu *gpu)
{
	tap_sum = tap_count = 0;
	for (struct engine *e = gpu->engines; e; e = e->next) {
		unsigned k = 0;
		while (k < TAP_SLOTS && tap_orig[k] && tap_orig[k] != e->ops && &tap_ops[k] != e->ops)
			k++;
		if (k == TAP_SLOTS)
			return -1;
		if (&tap_ops[k] == e->ops)
			continue; /* already tapped */
		if (!tap_orig[k]) {
			tap_orig[k] = e->ops;
			tap_ops[k] = *e->ops;
			tap_ops[k].methods = tap_fns[k];
			tap_ops[k].state = NULL; /* every method through `methods`, where the tap sees it */
		}
		e->ops = &tap_ops[k];
	}
	return 0;
}

uint64_t ds_tap_sum(void)
{
	return tap_sum;
}

uint64_t ds_tap_count(void)
{
	return tap_count;
}

void ds_tap_remove(nvm_gpu *gpu)
{
	for (struct engine *e = gpu->engines; e; e = e->next)
		for (unsigned k = 0; k < TAP_SLOTS; k++)
			if (e->ops == &tap_ops[k])
				e->ops = tap_orig[k];
}

uint64_t ds_engine_total(nvm_gpu *gpu)
{
	uint64_t t = 0;
	for (const struct engine *e = gpu->engines; e; e = e->next)
		t += e->total;
	return t;
}
