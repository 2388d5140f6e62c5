/*
 * The pushers' quick feed (src/pfifo/pusher.c pusher_quick) against the
 * path without it: two GPUs run the same random old-format streams (short
 * INC / NINC commands, binds, handles, puller methods, unknown methods,
 * runs past 0x1ffc, empty headers, jumps, bad words), kicked at random
 * points, under random run budgets and time limits, with the puller
 * stopped now and then, short timeslices, hooks, a pushbuffer limit inside
 * the stream, and the driver's recovery from the errors; one has the quick
 * feed off. After every run their PFIFO registers, CACHE1, virtual time,
 * work done, event counts, statistics and PGRAPH method logs (with times)
 * must be the same. On nv40 (CACHE1 of 512), nv17 (paired submission),
 * nv04 and g84 (IB mode, and NV4-style DMA mode). Quiet runs: the GPU with
 * the quick feed has PGRAPH's method log off (a recorder that only counts:
 * the puller's pull_counted, submit_to's engine_counts_only), the other
 * keeps its log; the methods' count and everything else must still match.
 * Two-channel runs (pre-G80, quiet): a second channel with its own stream,
 * so that PGRAPH switches channels (submit_switch) under the summed paths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bar0.h"
#include "g80fifo_env.h"
#include "pfifo_env.h"

/* src/pfifo/pfifo_internal.h */
void pfifo_quick_set(nvm_gpu *gpu, bool on);

static uint64_t rng_next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint32_t rnd(uint64_t *s, uint32_t n)
{
	return (uint32_t)(rng_next(s) % n);
}

/* A plain method (0x100-0x17c or 0x200-0x1ffc), now and then near the end
 * of its range. */
static uint32_t plain_method(uint64_t *s)
{
	switch (rnd(s, 8)) {
	case 0: return 0x100 + 4 * rnd(s, 32);
	case 1: return 0x170 + 4 * rnd(s, 4);
	case 2: return 0x1fe0 + 4 * rnd(s, 8);
	default: return 0x200 + 4 * rnd(s, 0x780);
	}
}

/* Random old-format commands into w (at most max words); base: the byte
 * offset of w[0] in the pushbuffer (for jumps). */
static size_t gen_stream(uint64_t *s, uint32_t *w, size_t max, uint32_t base, const uint32_t *handles, bool ninc,
                         bool jumps)
{
	size_t n = 0;
	for (uint32_t sc = 0; sc < 8; sc++) { /* binds of every subchannel */
		w[n++] = PB_INC(sc, 0, 1);
		w[n++] = handles[sc & 1];
	}
	while (n + 48 < max) {
		uint32_t r = rnd(s, 100), sc = rnd(s, 32) ? rnd(s, 3) : rnd(s, 8), c;
		if (r < 55) { /* INC of plain methods */
			c = rnd(s, 4) ? 1 + rnd(s, 8) : 1 + rnd(s, 40);
			w[n++] = PB_INC(sc, plain_method(s), c);
		} else if (r < 67) { /* NINC */
			c = 1 + rnd(s, 16);
			w[n++] = ninc ? PB_NINC(sc, plain_method(s), c) : PB_INC(sc, plain_method(s), c);
		} else if (r < 72) { /* handles 0x180-0x1fc */
			c = 1 + rnd(s, 3);
			w[n++] = PB_INC(sc, 0x180 + 4 * rnd(s, 30), c);
			for (uint32_t i = 0; i < c; i++)
				w[n++] = rnd(s, 16) ? handles[rnd(s, 2)] : rnd(s, 0x10000);
			continue;
		} else if (r < 77) { /* a bind: a known handle, now and then not */
			w[n++] = PB_INC(rnd(s, 3), 0, 1);
			w[n++] = rnd(s, 16) ? handles[rnd(s, 2)] : 0x5eed0000u + rnd(s, 16);
			continue;
		} else if (r < 80) { /* REF_CNT, YIELD; a semaphore acquire (NV1A+ 0x68, G84 0x1c) */
			uint32_t q = rnd(s, 6);
			w[n++] = PB_INC(sc, q == 0 ? 0x68 : q == 1 ? 0x1c : q & 1 ? 0x50 : 0x80, 1);
			w[n++] = q == 1 ? 1 : rnd(s, 0x10000);
			continue;
		} else if (r < 81) { /* a run past 0x1ffc, or an unknown method 0x04..0xfc */
			c = 2 + rnd(s, 6);
			w[n++] =
			        rnd(s, 2) ? PB_INC(sc, 0x1ff0 + 4 * rnd(s, 4), c) : PB_INC(sc, 0x0c + 4 * rnd(s, 4), c);
		} else if (r < 87) { /* an empty header */
			w[n++] = PB_INC(sc, plain_method(s), 0);
			continue;
		} else if (r < 90 && jumps) { /* a jump to the next word */
			w[n] = PB_OLD_JUMP(base + 4 * (uint32_t)(n + 1));
			n++;
			continue;
		} else if (r < 90 && rnd(s, 2)) { /* a word no command form matches */
			w[n++] = 0x00000003u | rnd(s, 0x1000) << 4;
			continue;
		} else { /* a long INC */
			c = 48 + rnd(s, 200);
			if (n + 1 + c >= max)
				c = 1;
			w[n++] = PB_INC(sc, 0x200 + 4 * rnd(s, 0x100), c);
		}
		/* data: were the pusher to take them for commands after an
		 * error, no jumps */
		for (uint32_t i = 0; i < c; i++)
			w[n++] = (uint32_t)rng_next(s) & 0x1ffffffcu;
	}
	return n;
}

static void hook_count(void *user, const nvm_event *ev)
{
	(void)ev;
	(*(unsigned *)user)++;
}

/* The two GPUs (0: quick feed on, 1: off). */
struct pair {
	nvm_gpu *g[2];
	uint32_t cache_base, cache_entries;
	int hook[2];
	unsigned hook_events[2];
	bool quiet; /* g[0] has no PGRAPH method log */
};

static void expect_same(struct pair *p, int step)
{
	char where[64];
	snprintf(where, sizeof(where), "step %d", step);
	for (uint32_t a = 0x2000; a < 0x3400; a += 4) {
		uint32_t v0 = 0, v1 = 0;
		nvm_status s0 = nvm_reg_read(p->g[0], a, &v0), s1 = nvm_reg_read(p->g[1], a, &v1);
		if (s0 != s1 || v0 != v1)
			fail_msg("%s: register 0x%04x: 0x%08x (quick) != 0x%08x", where, a, v0, v1);
	}
	for (uint32_t i = 0; i < 2 * p->cache_entries; i++) {
		uint32_t a = p->cache_base + 4 * i, v0 = 0, v1 = 0;
		nvm_reg_read(p->g[0], a, &v0);
		nvm_reg_read(p->g[1], a, &v1);
		if (v0 != v1)
			fail_msg("%s: CACHE1 0x%05x: 0x%08x (quick) != 0x%08x", where, a, v0, v1);
	}
	assert_int_equal(nvm_time_ns(p->g[0]), nvm_time_ns(p->g[1]));
	assert_int_equal(nvm_work_done(p->g[0]), nvm_work_done(p->g[1]));
	for (unsigned t = 0; t < NVM_EV_COUNT; t++)
		assert_int_equal(nvm_event_count(p->g[0], t), nvm_event_count(p->g[1], t));
	assert_int_equal(p->hook_events[0], p->hook_events[1]);
	nvm_pfifo_stats st[2];
	for (int k = 0; k < 2; k++)
		assert_int_equal(nvm_pfifo_get_stats(p->g[k], &st[k]), NVM_OK);
	if (memcmp(&st[0], &st[1], sizeof(st[0])))
		fail_msg("%s: statistics differ", where);
	static nvm_method l0[4096], l1[4096];
	size_t n0 = 0, n1 = 0;
	uint64_t t0 = 0, t1 = 0;
	assert_int_equal(nvm_method_log_read(p->g[0], "pgraph", 0, l0, 4096, &n0, &t0), NVM_OK);
	assert_int_equal(nvm_method_log_read(p->g[1], "pgraph", 0, l1, 4096, &n1, &t1), NVM_OK);
	assert_int_equal(t0, t1);
	if (p->quiet)
		return;
	assert_int_equal(n0, n1);
	for (size_t i = 0; i < n0; i++)
		if (l0[i].time_ns != l1[i].time_ns || l0[i].method != l1[i].method || l0[i].data != l1[i].data ||
		    l0[i].subch != l1[i].subch || l0[i].cls != l1[i].cls || l0[i].ctx != l1[i].ctx ||
		    l0[i].chid != l1[i].chid)
			fail_msg("%s: PGRAPH log entry %zu differs (method 0x%04x at %llu vs 0x%04x at %llu)", where, i,
			         l0[i].method, (unsigned long long)l0[i].time_ns, l1[i].method,
			         (unsigned long long)l1[i].time_ns);
}

static void both_wr(struct pair *p, uint32_t a, uint32_t v)
{
	for (int k = 0; k < 2; k++)
		nvm_reg_write(p->g[k], a, v);
}

static uint32_t rd0(struct pair *p, uint32_t a)
{
	uint32_t v = 0;
	nvm_reg_read(p->g[0], a, &v);
	return v;
}

static void run_both(struct pair *p, uint64_t *s)
{
	nvm_run_opts o = { .ns = rnd(s, 3) ? UINT64_MAX / 4 : 1 + rnd(s, 20000), .flags = NVM_RUN_UNTIL_IDLE };
	if (rnd(s, 3) == 0)
		o.max_events = 1 + rnd(s, rnd(s, 2) ? 40 : 2000);
	nvm_run_status r0 = nvm_run(p->g[0], &o), r1 = nvm_run(p->g[1], &o);
	assert_int_equal(r0, r1);
}

/* The driver's part between runs, the same on both: now and then the
 * puller stops or restarts, the timeslice changes, a hook comes or goes;
 * errors are cleared as a driver would (CACHE_ERROR: the entry skipped;
 * DMA_PUSHER: the state cleared, the pusher resumed; SEMAPHORE). */
static void driver_step(struct pair *p, uint64_t *s, uint32_t pull0, uint32_t get_reg, bool g80)
{
	uint32_t intr = rd0(p, 0x2100);
	for (int i = 0; i < 64 && (intr & 1u); i++) { /* CACHE_ERROR: skip the entry at GET */
		both_wr(p, pull0, 0);
		both_wr(p, get_reg, rd0(p, get_reg) + 4);
		both_wr(p, 0x2100, 1u);
		both_wr(p, pull0, 1);
		run_both(p, s);
		intr = rd0(p, 0x2100);
	}
	if (intr & (1u << 12)) { /* DMA_PUSHER: as nouveau, GET to PUT, the state cleared */
		both_wr(p, 0x3244, rd0(p, 0x3240));
		if (g80)
			both_wr(p, 0x3328, rd0(p, 0x3320));
		both_wr(p, 0x3228, 0);
		both_wr(p, 0x3220, 1);
		both_wr(p, 0x2100, 1u << 12);
	}
	if (intr & ~(1u | 1u << 12))
		both_wr(p, 0x2100, intr & ~(1u | 1u << 12));
	uint32_t r = rnd(s, 20);
	if (r == 0)
		both_wr(p, pull0, 0);
	else if (r < 6)
		both_wr(p, pull0, 1);
	else if (r == 4)
		both_wr(p, 0x2044, rnd(s, 2) ? 0x01000000u | (50 + rnd(s, 2000)) : 0x0101ffffu);
	else if (r == 5) {
		for (int k = 0; k < 2; k++) {
			if (p->hook[k] >= 0) {
				nvm_hook_del(p->g[k], p->hook[k]);
				p->hook[k] = -1;
			} else {
				nvm_hook_add(p->g[k], NVM_EV_MASK(NVM_EV_TRACE) | NVM_EV_MASK(NVM_EV_METHOD),
				             hook_count, &p->hook_events[k], &p->hook[k]);
			}
		}
	}
}

/* NV04..NV4x: a DMA channel, its pushbuffer 256 KiB at PE_PB, kicked through
 * DMA_PUT; the object's limit now and then inside the stream. two: a second
 * channel (2) with a stream of its own at PB2, kicked too, and no limit. */
#define PB2 0x80000u
static void compare_nv2(const char *chip, uint64_t seed, bool quiet, bool two)
{
	struct penv e[2];
	struct pair p = { .hook = { -1, -1 }, .quiet = quiet };
	uint64_t s = seed;
	size_t max = 8192 + rnd(&s, 16384);
	uint32_t *w = calloc(max, 4);
	assert_non_null(w);
	bool nv17 = !strcmp(chip, "nv17"), nv40 = !strcmp(chip, "nv40");
	size_t n = gen_stream(&s, w, max, 0, (const uint32_t[]){ 0xbeef0001u, 0xbeef0101u }, nv17 || nv40, true);
	uint32_t limit = rnd(&s, 8) ? 0xfffff : 4 * (uint32_t)rnd(&s, (uint32_t)n) + rnd(&s, 4);
	uint32_t *w2 = two ? calloc(max, 4) : NULL;
	size_t n2 = 0;
	if (two) {
		assert_non_null(w2);
		n2 = gen_stream(&s, w2, max, PB2, (const uint32_t[]){ 0xbeef0001u, 0xbeef0101u }, nv17 || nv40, true);
		limit = 0xfffff;
	}
	for (int k = 0; k < 2; k++) {
		pe_init(&e[k], chip);
		p.g[k] = e[k].gpu;
		uint32_t pb = pe_dmaobj(&e[k], 0x3d, 2, 0, PE_PB, PE_PB + limit);
		pe_dma_channel(&e[k], 1, pb, 0);
		uint32_t gr = pe_grobj(&e[k], nv40 ? 0x4097 : nv17 ? 0x0597 : 0x0048), o39 = pe_grobj(&e[k], 0x0039);
		pe_ramht_add(&e[k], 1, 0xbeef0001u, gr, 1);
		pe_ramht_add(&e[k], 1, 0xbeef0101u, o39, 1);
		pe_pb(&e[k], 0, w, n);
		if (two) {
			pe_dma_channel(&e[k], 2, pb, PB2);
			pe_ramht_add(&e[k], 2, 0xbeef0001u, gr, 1);
			pe_ramht_add(&e[k], 2, 0xbeef0101u, o39, 1);
			pe_pb(&e[k], PB2, w2, n2);
		}
		pfifo_quick_set(p.g[k], k == 0);
	}
	if (quiet)
		assert_int_equal(nvm_method_log_config(p.g[0], "pgraph", 0), NVM_OK);
	p.cache_base = nv40 ? 0x90000u : 0x3800u;
	p.cache_entries = nv40 ? 512 : nv17 ? 128 : 32;
	uint32_t put = 0, put2 = PB2;
	for (int step = 0; put < 4 * n || rd0(&p, 0x3244) != put || step < 4 || (two && put2 < PB2 + 4 * n2); step++) {
		if (put < 4 * n && rnd(&s, 4)) {
			put += 4 * (1 + rnd(&s, rnd(&s, 4) ? 64 : 2048));
			if (put > 4 * n)
				put = 4 * (uint32_t)n;
			for (int k = 0; k < 2; k++)
				pe_put(&e[k], 1, put);
		}
		if (two && put2 < PB2 + 4 * n2 && rnd(&s, 4)) {
			put2 += 4 * (1 + rnd(&s, rnd(&s, 4) ? 64 : 2048));
			if (put2 > PB2 + 4 * n2)
				put2 = PB2 + 4 * (uint32_t)n2;
			for (int k = 0; k < 2; k++)
				pe_put(&e[k], 2, put2);
		}
		run_both(&p, &s);
		expect_same(&p, step);
		driver_step(&p, &s, PE_PULL0, PE_GET, false);
		if (step > 4000)
			break;
	}
	for (int k = 0; k < 2; k++)
		pe_fini(&e[k]);
	free(w);
	free(w2);
}

static void compare_nv(const char *chip, uint64_t seed, bool quiet)
{
	compare_nv2(chip, seed, quiet, false);
}

/* G84: a channel in IB mode (IB entries of random sizes) or NV4-style DMA
 * mode (DMA_PUT). */
static void compare_g84(uint64_t seed, bool ib, bool quiet)
{
	struct genv e[2];
	struct pair p = { .hook = { -1, -1 }, .quiet = quiet };
	uint64_t s = seed;
	size_t max = 8192 + rnd(&s, 16384);
	uint32_t *w = calloc(max, 4);
	assert_non_null(w);
	size_t n = gen_stream(&s, w, max, 0, (const uint32_t[]){ 0xbeef0002u, 0xbeef0002u }, true, false);
	for (int k = 0; k < 2; k++) {
		ge_init(&e[k], "g84");
		p.g[k] = e[k].gpu;
		ge_channel(&e[k], 2, 0x5097, ib);
		pfifo_quick_set(p.g[k], k == 0);
	}
	if (quiet)
		assert_int_equal(nvm_method_log_config(p.g[0], "pgraph", 0), NVM_OK);
	p.cache_base = 0x90000u; /* not a G80 window: both read the same */
	p.cache_entries = 0;
	size_t done = 0;
	for (int step = 0; done < n || rd0(&p, 0x3334) != rd0(&p, 0x3330) || step < 4; step++) {
		if (done < n && rnd(&s, 4)) {
			size_t c = 1 + rnd(&s, rnd(&s, 4) ? 64 : 2048);
			if (c > n - done)
				c = n - done;
			for (int k = 0; k < 2; k++) {
				uint64_t a = ge_pb(&e[k], 2, w + done, c);
				if (ib) {
					ge_ib_entry(&e[k], 2, a, (uint32_t)c, false);
					ge_ib_kick(&e[k], 2);
				} else {
					wr(e[k].gpu, ge_user(2) + 0x40, (uint32_t)(a + 4 * c));
				}
			}
			done += c;
		}
		run_both(&p, &s);
		expect_same(&p, step);
		driver_step(&p, &s, GE_PULL0, GE_GET, true);
		if (step > 4000)
			break;
	}
	for (int k = 0; k < 2; k++)
		ge_fini(&e[k]);
	free(w);
}

static void test_nv40(void **state)
{
	(void)state;
	for (uint64_t i = 1; i <= 24; i++)
		compare_nv("nv40", 0x9e3779b97f4a7c15ull * i, i > 16);
	for (uint64_t i = 1; i <= 6; i++)
		compare_nv2("nv40", 0x7f4a7c159e3779b9ull * i, true, true);
}

static void test_nv17(void **state)
{
	(void)state;
	for (uint64_t i = 1; i <= 12; i++)
		compare_nv("nv17", 0x51afd7ed558ccd00ull ^ i * 0x2545f4914f6cdd1dull, i > 8);
	for (uint64_t i = 1; i <= 4; i++)
		compare_nv2("nv17", 0x2545f4914f6cdd1dull * i, true, true);
}

static void test_nv04(void **state)
{
	(void)state;
	for (uint64_t i = 1; i <= 12; i++)
		compare_nv("nv04", 0xc2b2ae3d27d4eb4full * i, i > 8);
}

static void test_g84_ib(void **state)
{
	(void)state;
	for (uint64_t i = 1; i <= 18; i++)
		compare_g84(0x165667b19e3779f9ull * i, true, i > 12);
}

static void test_g84_dma(void **state)
{
	(void)state;
	for (uint64_t i = 1; i <= 12; i++)
		compare_g84(0x27d4eb2f165667c5ull * i, false, i > 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nv40),   cmocka_unit_test(test_nv17),    cmocka_unit_test(test_nv04),
		cmocka_unit_test(test_g84_ib), cmocka_unit_test(test_g84_dma),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
