/* The shared pushbuffer fetch loop (src/fifo/fetch.h) with a made-up front
 * end: identity translation, a sink that may stop. The PBDMA, NV04 and G80
 * tests cover the real front ends; these cover the loop's own cases: spans,
 * byte swap, unaligned and edge reads, PUT, the budget, refill and stops. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fifo/fetch.h"

#define MEM_SIZE (1u << 16)

struct fe {
	struct mem_space m;
	uint64_t used;
	uint64_t span;   /* bytes each translation maps */
	uint64_t offset; /* pa = get + offset */
	unsigned translations, faults, refills, feeds;
	uint32_t max_feed; /* largest portion asked */
	uint32_t budget;   /* methods the sink takes before it stops */
	uint32_t data[64];
	size_t nm;
	nvm_pb_decoder d;
	uint64_t refill_get, refill_put;
};

static bool t_translate(struct fifo_fetch *x, struct fifo_span *s)
{
	struct fe *e = x->ctx;
	e->translations++;
	s->mem = &e->m;
	s->pa = x->get + e->offset;
	s->bytes = e->span;
	s->sparse = false;
	return true;
}

static void t_fault(struct fifo_fetch *x, const struct fifo_span *s)
{
	struct fe *e = x->ctx;
	(void)s;
	e->faults++;
}

static uint32_t t_portion(struct fifo_fetch *x, uint32_t avail)
{
	struct fe *e = x->ctx;
	e->feeds++;
	if (avail > e->max_feed)
		e->max_feed = avail;
	return avail;
}

static bool t_refill(struct fifo_fetch *x)
{
	struct fe *e = x->ctx;
	if (!e->refill_put || e->refills++)
		return false; /* no (more) work */
	x->get = e->refill_get;
	x->put = e->refill_put;
	return true;
}

static void t_run(void *ctx, const nvm_pb_run *r)
{
	struct fe *e = ctx;
	uint32_t k = r->count < e->budget ? r->count : e->budget;
	for (uint32_t i = 0; i < k && e->nm < 64; i++)
		e->data[e->nm++] = r->data[i];
	e->budget -= k;
	if (k < r->count)
		nvm_pb_stop_run(&e->d, r, k);
}

static const struct fifo_fetch_ops ops = {
	.refill = t_refill, .translate = t_translate, .mem_fault = t_fault, .portion = t_portion
};

static struct fe *fe_new(void)
{
	static struct fe e;
	memset(&e, 0, sizeof(e));
	mem_init(&e.m, MEM_SIZE, &e.used, 0);
	e.span = 1u << 20;
	e.budget = 1000;
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
	nvm_pb_sink sink = { .ctx = &e, .run = t_run };
	nvm_pb_decoder_init(&e.d, &cfg, &sink);
	return &e;
}

/* INC of 7 methods at 0x400: header + 7 data = 8 words at addr. */
static void put_stream(struct fe *e, uint64_t addr, bool swap)
{
	uint32_t w[8] = { 1u << 29 | 7u << 16 | (0x400u >> 2), 1, 2, 3, 4, 5, 6, 7 };
	for (int i = 0; i < 8; i++) {
		uint32_t v = w[i];
		if (swap)
			v = (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
		assert_int_equal(mem_write(&e->m, addr + 4 * (uint64_t)i, &v, 4), 0);
	}
}

static uint32_t run(struct fe *e, uint64_t get, uint64_t put, uint32_t max, bool swap, bool keep)
{
	static uint32_t buf[FIFO_FETCH_CHUNK];
	struct fifo_fetch x = { .ops = &ops,
		                .ctx = e,
		                .dec = &e->d,
		                .get = get,
		                .put = put,
		                .max = max,
		                .swap = swap,
		                .edge_words = true,
		                .keep_span = keep,
		                .buf = buf };
	uint32_t n = fifo_fetch_run(&x);
	assert_int_equal(x.get, get + 4ull * n);
	return n;
}

static void check_methods(const struct fe *e, size_t n)
{
	assert_int_equal(e->nm, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(e->data[i], i + 1);
}

/* One translation serves its whole span (keep_span); a short span is
 * translated again where it ends; PUT and the budget bound the words. */
static void test_spans_put_budget(void **state)
{
	(void)state;
	struct fe *e = fe_new();
	put_stream(e, 0x1000, false);
	assert_int_equal(run(e, 0x1000, 0x1020, 100, false, true), 8);
	assert_int_equal(e->translations, 1);
	check_methods(e, 7);
	mem_fini(&e->m);

	e = fe_new();
	put_stream(e, 0x1000, false);
	e->span = 8;
	assert_int_equal(run(e, 0x1000, 0x1020, 100, false, true), 8);
	assert_int_equal(e->translations, 4);
	assert_int_equal(e->max_feed, 2);
	check_methods(e, 7);
	mem_fini(&e->m);

	e = fe_new();
	put_stream(e, 0x1000, false);
	assert_int_equal(run(e, 0x1000, 0x1020, 3, false, false), 3); /* the budget */
	check_methods(e, 2);
	assert_int_equal(run(e, 0x100c, 0x1014, 100, false, false), 2); /* PUT */
	check_methods(e, 4);
	mem_fini(&e->m);
}

/* A big-endian pushbuffer is byte-swapped; an unaligned address is read
 * one word at a time, bytewise. */
static void test_swap_unaligned(void **state)
{
	(void)state;
	struct fe *e = fe_new();
	put_stream(e, 0x2000, true);
	assert_int_equal(run(e, 0x2000, 0x2020, 100, true, false), 8);
	check_methods(e, 7);
	mem_fini(&e->m);

	e = fe_new();
	put_stream(e, 0x3001, false);
	e->offset = 1;
	assert_int_equal(run(e, 0x3000, 0x3020, 100, false, false), 8);
	assert_int_equal(e->feeds, 8);
	assert_int_equal(e->max_feed, 1);
	check_methods(e, 7);
	mem_fini(&e->m);
}

/* Past the end of memory: the front end's mem_fault, nothing read. */
static void test_fault(void **state)
{
	(void)state;
	struct fe *e = fe_new();
	e->offset = MEM_SIZE;
	assert_int_equal(run(e, 0, 0x20, 100, false, false), 0);
	assert_int_equal(e->faults, 1);
	assert_int_equal(e->nm, 0);
	mem_fini(&e->m);
}

/* A sink stop ends the loop with GET just past what the decoder consumed;
 * the next run resumes there. GET == PUT asks the front end to refill. */
static void test_stop_refill(void **state)
{
	(void)state;
	struct fe *e = fe_new();
	put_stream(e, 0x1000, false);
	e->budget = 3;
	assert_int_equal(run(e, 0x1000, 0x1020, 100, false, true), 4); /* header + 3 */
	assert_true(nvm_pb_stopped(&e->d));
	e->budget = 100;
	assert_int_equal(run(e, 0x1010, 0x1020, 100, false, true), 4);
	check_methods(e, 7);
	mem_fini(&e->m);

	e = fe_new();
	put_stream(e, 0x4000, false);
	e->refill_get = 0x4000;
	e->refill_put = 0x4020;
	static uint32_t buf[FIFO_FETCH_CHUNK];
	struct fifo_fetch x = { .ops = &ops, .ctx = e, .dec = &e->d, .get = 0x10, .put = 0x10, .max = 100, .buf = buf };
	assert_int_equal(fifo_fetch_run(&x), 8);
	assert_int_equal(e->refills, 2); /* the second finds no more work */
	assert_int_equal(x.get, 0x4020);
	check_methods(e, 7);
	mem_fini(&e->m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans_put_budget),
		cmocka_unit_test(test_swap_unaligned),
		cmocka_unit_test(test_fault),
		cmocka_unit_test(test_stop_refill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
