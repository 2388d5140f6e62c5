/* The method log every front end shares (nvmodel/method.h): any engine by
 * name, whichever front end feeds it (the one method-log call since issue 22
 * item 6 removed the front ends' own nvm_host_log_* / nvm_pfifo_log_*). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "nvmodel/host.h"
#include "nvmodel/method.h"
#include "bar0.h"
#include "pfifo_env.h"

/* PFIFO's PGRAPH through the shared calls: the records nvm_method_log_read gives. */
static void pfifo_engine_log(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv17");
	uint32_t gr = pe_grobj(&e, 0x5f);
	pe_ramht_add(&e, 3, 0x1234, gr, 1);
	pe_pio(&e, 3, 1, 0x000, 0x1234);
	pe_pio(&e, 3, 1, 0x300, 7);
	pe_pio(&e, 3, 1, 0x304, 8);
	assert_string_equal(pe_run(&e, 100000), "idle");
	nvm_method a[8], b[8];
	size_t na = 0, nb = 0;
	uint64_t ta = 0;
	assert_int_equal(nvm_method_log_read(e.gpu, "pgraph", 0, a, 8, &na, &ta), NVM_OK);
	assert_int_equal(na, 3);
	assert_int_equal(ta, 3);
	for (size_t i = 0; i < na; i++) {
		assert_int_equal(a[i].chid, 3);
		assert_int_equal(a[i].subch, 1);
	}
	assert_int_equal(a[0].method, 0x000);
	assert_int_equal(a[1].method, 0x300);
	assert_int_equal(a[1].data, 7);
	assert_int_equal(a[2].method, 0x304);
	assert_int_equal(a[2].data, 8);
	/* from the second one on, and clear */
	assert_int_equal(nvm_method_log_read(e.gpu, "pgraph", 1, a, 8, &na, NULL), NVM_OK);
	assert_int_equal(na, 2);
	assert_int_equal(a[0].method, 0x300);
	assert_int_equal(nvm_method_log_clear(e.gpu, "pgraph"), NVM_OK);
	assert_int_equal(nvm_method_log_read(e.gpu, "pgraph", 0, b, 8, &nb, NULL), NVM_OK);
	assert_int_equal(nb, 0);
	/* config: cap 0 stops recording, counting goes on */
	assert_int_equal(nvm_method_log_config(e.gpu, "pgraph", 0), NVM_OK);
	pe_pio(&e, 3, 1, 0x300, 9);
	assert_string_equal(pe_run(&e, 100000), "idle");
	assert_int_equal(nvm_method_log_read(e.gpu, "pgraph", 0, a, 8, &na, &ta), NVM_OK);
	assert_int_equal(na, 0);
	assert_int_equal(ta, 4);
	/* the Host's engines are not on this chip */
	assert_int_equal(nvm_method_log_read(e.gpu, "gr", 0, a, 8, &na, NULL), NVM_ERR_NOENT);
	assert_int_equal(nvm_method_log_config(e.gpu, "ce2", 16), NVM_ERR_NOENT);
	assert_int_equal(nvm_method_log_clear(e.gpu, "nope"), NVM_ERR_NOENT);
	pe_fini(&e);
}

/* The Host's engines: every one the gv100 topology lists, and no PFIFO one. */
static void host_engines(void **state)
{
	(void)state;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	static const char *const names[] = { "gr", "grce", "ce2", "ce8" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		nvm_method m;
		size_t n = 1;
		uint64_t t = 1;
		assert_int_equal(nvm_method_log_read(gpu, names[i], 0, &m, 1, &n, &t), NVM_OK);
		assert_int_equal(n, 0);
		assert_int_equal(t, 0);
		assert_int_equal(nvm_method_log_config(gpu, names[i], 2), NVM_OK);
		assert_int_equal(nvm_method_log_read(gpu, names[i], 0, &m, 1, &n, &t), NVM_OK);
	}
	assert_int_equal(nvm_method_log_clear(gpu, "pgraph"), NVM_ERR_NOENT);
	assert_int_equal(nvm_method_log_clear(NULL, "gr"), NVM_ERR_ARG);
	assert_int_equal(nvm_method_log_clear(gpu, NULL), NVM_ERR_ARG);
	nvm_close(gpu);
}

/* The log keeps the last cap methods in order, whatever the cap (not only
 * powers of two), the run lengths (longer than the cap too), the modes and
 * where the ring wraps; total counts everything. Against a plain list. */
static void log_ring(void **state)
{
	(void)state;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	struct engine *e;
	assert_int_equal(engine_new(gpu, "recorder", "ring", 0, &e), NVM_OK);
	static const size_t caps[] = { 1, 3, 7, 64, 65, 100, 128, 200 };
	enum { MAX = 6000 };
	uint32_t *want_m = malloc(MAX * sizeof(uint32_t)), *want_d = malloc(MAX * sizeof(uint32_t));
	nvm_method *got = malloc(MAX * sizeof(nvm_method));
	assert_non_null(want_m);
	assert_non_null(want_d);
	assert_non_null(got);
	uint32_t seed = 1, data[300];
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		assert_int_equal(engine_log_config(e, caps[c]), NVM_OK);
		e->total = 0;
		size_t nw = 0;
		while (nw < MAX - 300) {
			seed = seed * 1103515245u + 12345u;
			uint32_t n = seed >> 28 == 0 ? 1 + (seed >> 8) % 260 : 1 + (seed >> 8) % 9;
			uint32_t first = (seed >> 4) % 3;
			nvm_pb_run r = { .subch = 2,
				         .method = 0x100 + ((seed >> 12) & 0x3ff) * 4,
				         .index = (seed >> 22) & 1,
				         .count = first + n,
				         .mode = (nvm_pb_mode)((seed >> 24) % 4),
				         .data = data };
			for (uint32_t i = 0; i < first + n; i++)
				data[i] = seed ^ (uint32_t)(nw + i) * 2654435761u;
			struct eng_src src = { 9, 2, 0xc397, 0, 0, 0, false };
			engine_log(e, &src, &r, first, n);
			for (uint32_t i = first; i < first + n; i++) {
				want_m[nw] = nvm_pb_run_method(&r, i);
				want_d[nw++] = data[i];
			}
		}
		size_t n = 0;
		uint64_t total = 0;
		assert_int_equal(engine_log_read(e, 0, got, MAX, &n, &total), NVM_OK);
		assert_int_equal(total, nw);
		assert_int_equal(n, caps[c]);
		for (size_t i = 0; i < n; i++) {
			assert_int_equal(got[i].method, want_m[nw - n + i]);
			assert_int_equal(got[i].data, want_d[nw - n + i]);
			assert_int_equal(got[i].chid, 9);
			assert_int_equal(got[i].subch, 2);
			assert_int_equal(got[i].cls, 0xc397);
		}
	}
	free(want_m);
	free(want_d);
	free(got);
	engine_free(e);
	nvm_close(gpu);
}

/* The log against a plain list of every record, through everything that
 * moves its rings: caps around the powers of two (the default 4096 too)
 * and below the short copy's 16 words, runs of every length 1 .. 20 (the
 * inline copy's sizes) and longer than the cap, at every place of the data
 * ring (so runs straddle its end), every mode and a sequence index
 * (addresses come from the run's method, mode and index on read), the time
 * of PFIFO's deliveries ahead of the clock (1 ns apart), ctx and implicit;
 * clears (numbering starts again, rings kept) and reconfigurations; reads
 * of every window (first, max) and of nothing. */
struct ref_log {
	nvm_method *m; /* every method since the last clear or configuration */
	size_t n, cap;
};

static void ref_check(struct engine *e, const struct ref_log *ref, nvm_method *got, size_t first, size_t max)
{
	size_t held = ref->n < ref->cap ? ref->n : ref->cap;
	size_t want = first < held ? held - first : 0;
	if (want > max)
		want = max;
	size_t n = 99;
	uint64_t total = 0;
	assert_int_equal(engine_log_read(e, first, max ? got : NULL, max, &n, &total), NVM_OK);
	assert_int_equal(total, e->total);
	assert_int_equal(n, want);
	for (size_t i = 0; i < n; i++) {
		const nvm_method *w = &ref->m[ref->n - held + first + i], *g = &got[i];
		if (g->time_ns != w->time_ns || g->chid != w->chid || g->subch != w->subch || g->cls != w->cls ||
		    g->method != w->method || g->data != w->data || g->ctx != w->ctx || g->implicit != w->implicit)
			fail_msg("cap %zu, read (%zu, %zu), record %zu: got %llu %u %u %x %x %x %x %d, want %llu %u %u "
			         "%x %x "
			         "%x %x %d",
			         ref->cap, first, max, i, (unsigned long long)g->time_ns, g->chid, g->subch, g->cls,
			         g->method, g->data, g->ctx, g->implicit, (unsigned long long)w->time_ns, w->chid,
			         w->subch, w->cls, w->method, w->data, w->ctx, w->implicit);
	}
}

static uint32_t rnd(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return *seed >> 8;
}

static void log_windows(void **state)
{
	(void)state;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	struct engine *e;
	assert_int_equal(engine_new(gpu, "recorder", "windows", 0, &e), NVM_OK);
	static const size_t caps[] = { 1, 2, 3, 5, 8, 15, 16, 17, 63, 64, 65, 100, 4096 };
	enum { MAXREF = 40000, MAXRUN = 5000 };
	struct ref_log ref = { malloc(MAXREF * sizeof(nvm_method)), 0, 0 };
	nvm_method *got = malloc(MAXREF * sizeof(nvm_method));
	uint32_t *data = malloc((MAXRUN + 4) * sizeof(uint32_t));
	assert_non_null(ref.m);
	assert_non_null(got);
	assert_non_null(data);
	uint32_t seed = 7;
	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		assert_int_equal(engine_log_config(e, caps[c]), NVM_OK);
		ref.cap = caps[c];
		ref.n = 0;
		/* enough methods to fill and wrap the rings a few times */
		size_t goal = caps[c] * 3 + 700 < MAXREF - MAXRUN ? caps[c] * 3 + 700 : MAXREF - MAXRUN;
		for (uint32_t step = 0; ref.n < goal; step++) {
			uint32_t x = rnd(&seed);
			if (x % 97 == 0) {
				engine_log_clear(e);
				ref.n = 0;
				ref_check(e, &ref, got, 0, MAXREF);
				continue;
			}
			gpu->now += x % 3;
			e->at = x % 5 == 0 ? gpu->now + rnd(&seed) % 40 : 0;
			/* lengths 1 .. 20 in turn, now and then one longer than the cap */
			uint32_t n = x % 41 == 0 ? (uint32_t)(caps[c] + rnd(&seed) % 50) : 1 + step % 20;
			if (n > MAXRUN)
				n = MAXRUN;
			uint32_t first = rnd(&seed) % 3;
			nvm_pb_run r = { .count = first + n, .data = data };
			r.subch = rnd(&seed) % 8;
			r.method = (rnd(&seed) & 0xfff) << 2;
			r.index = rnd(&seed) % 4 == 0 ? rnd(&seed) % 50 : 0;
			r.mode = (nvm_pb_mode)(rnd(&seed) % 4);
			for (uint32_t i = 0; i < first + n; i++)
				data[i] = rnd(&seed) ^ step << 20;
			struct eng_src src = { .subch = r.subch };
			src.chid = rnd(&seed) % 4096;
			src.cls = 0xc300 + rnd(&seed) % 200;
			src.ctx = rnd(&seed) % 3 ? 0 : rnd(&seed);
			src.implicit = rnd(&seed) % 4 == 0;
			uint64_t t0 = e->at > gpu->now ? e->at : gpu->now;
			for (uint32_t i = first; i < first + n; i++)
				ref.m[ref.n++] =
				        (nvm_method){ t0 + (e->at ? i - first : 0), src.chid, src.subch, src.cls,
					              nvm_pb_run_method(&r, i),     data[i],  src.ctx,   src.implicit };
			if (x % 2) {
				struct eng_result res;
				assert_int_equal(engine_send(e, &src, &r, first, n, &res), ENG_OK);
			} else {
				engine_log(e, &src, &r, first, n);
			}
			/* a full read, one at a random window and one of nothing */
			ref_check(e, &ref, got, 0, MAXREF);
			size_t wf = rnd(&seed) % (caps[c] + 3), wm = rnd(&seed) % (caps[c] + 3);
			ref_check(e, &ref, got, wf, wm);
			ref_check(e, &ref, got, wm, 0);
		}
	}
	free(ref.m);
	free(got);
	free(data);
	engine_free(e);
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pfifo_engine_log),
		cmocka_unit_test(host_engines),
		cmocka_unit_test(log_ring),
		cmocka_unit_test(log_windows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
