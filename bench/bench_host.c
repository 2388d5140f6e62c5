/*
 * Volta Host benchmarks, end to end: doorbell -> GPFIFO -> MMU -> decoder ->
 * engine, on driver-like streams (drvstream.h: short INC/NINC/IMMD runs,
 * binds, semaphores, GP entries of 4-64 KiB). Every engine method is
 * checked: the engines are tapped and the checksum of what they received
 * must be the stream's. (a) one channel, GR recording off, against a
 * streaming read of the same pushbuffer bytes in the same run; (b) the same
 * with recording on, against (a); (c) 4096 channels in 2048 TSGs with 1 KiB
 * of methods each, against one channel running the same GP entries;
 * (d) semaphore ping-pong; (e) the demo; (f) host memory per channel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "drvstream.h"
#include "host/host_internal.h"
#include "nvmodel/host.h"
#include "nvmodel/nvmodel.h"
#include "scenario/scenario.h"
#define MiB (1u << 20)

/* Identity-mapped VRAM (2 MiB pages) and channel structures laid out from
 * 0x100000 on: what a driver would build, without a page per structure. */
struct hb {
	nvm_gpu *gpu;
	uint64_t next;
};

static void hw32(struct hb *b, uint64_t a, uint32_t v)
{
	nvm_mem_wr32(b->gpu, NVM_AP_VRAM, a, v);
}

static uint64_t halloc(struct hb *b, uint64_t size, uint64_t align)
{
	b->next = (b->next + align - 1) & ~(align - 1);
	uint64_t a = b->next;
	b->next += size;
	return a;
}

static int hb_open(struct hb *b, uint64_t vram)
{
	nvm_config cfg = { .chip = "gv100", .vram_size = vram, .sysmem_size = MiB };
	if (nvm_open(&cfg, &b->gpu))
		return -1;
	nvm_method_log_config(b->gpu, "gr", 0);
	/* PDE3/2/1 at 0x0000-0x2fff, dual PDE0 at 0x3000: 2 MiB PTEs VA == PA. */
	hw32(b, 0x0000, (0x1000 >> 12) << 8 | 2);
	hw32(b, 0x1000, (0x2000 >> 12) << 8 | 2);
	hw32(b, 0x2000, (0x3000 >> 12) << 8 | 2);
	for (uint64_t pa = 0; pa < vram && pa < 512ull * MiB; pa += 2 * MiB)
		hw32(b, 0x3000 + (pa >> 21) * 16, (uint32_t)((pa >> 12) << 8) | 1);
	b->next = 0x100000;
	return 0;
}

struct hch {
	uint32_t chid;
	uint64_t inst, userd, gpf;
	uint32_t put, mask;
};

/* A channel with a GPFIFO of 2^order entries. */
static void hb_chan(struct hb *b, struct hch *c, uint32_t chid, uint32_t order)
{
	c->chid = chid;
	c->inst = halloc(b, 4096, 4096);
	c->userd = halloc(b, 512, 512);
	c->gpf = halloc(b, 8ull << order, 8);
	c->put = 0;
	c->mask = (1u << order) - 1;
	hw32(b, c->inst + 128 * 4, 1u << 10 | 1u << 11);
	hw32(b, c->inst + 0x08, (uint32_t)c->userd);
	hw32(b, c->inst + 0x10, 0xface);
	hw32(b, c->inst + 0x48, (uint32_t)c->gpf);
	hw32(b, c->inst + 0x4c, order << 16);
	hw32(b, c->inst + 0x84, 0x20400000);
	hw32(b, c->inst + 0x94, 0x30000fff);
	hw32(b, c->inst + 0xac, 3u << 16); /* TARGET: ENG_CTX_VALID, CE_CTX_VALID */
	hw32(b, c->inst + 0xf4, 0x1100);
	nvm_reg_write(b->gpu, 0x800000 + chid * 8, 0x80000000u | (uint32_t)(c->inst >> 12));
	nvm_reg_write(b->gpu, 0x800004 + chid * 8, 0x400);
}

static void hb_gp(struct hb *b, struct hch *c, uint64_t va, uint32_t dwords)
{
	hw32(b, c->gpf + c->put * 8, (uint32_t)va);
	hw32(b, c->gpf + c->put * 8 + 4, (uint32_t)(va >> 32) | dwords << 10);
	c->put = (c->put + 1) & c->mask;
	hw32(b, c->userd + 0x8c, c->put);
}

static void hb_submit(struct hb *b, const uint32_t *rl, uint32_t n)
{
	uint64_t a = halloc(b, (uint64_t)n * 16, 4096);
	nvm_mem_write(b->gpu, NVM_AP_VRAM, a, rl, (size_t)n * 16);
	nvm_reg_write(b->gpu, 0x2270, (uint32_t)(a >> 12));
	nvm_reg_write(b->gpu, 0x2274, n);
	nvm_run(b->gpu, &(nvm_run_opts){ .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE });
}

__attribute__((noinline)) static int run_idle(struct hb *b)
{
	nvm_run_opts o = { .ns = UINT64_MAX / 2, .flags = NVM_RUN_UNTIL_IDLE, .max_events = UINT64_MAX / 2 };
	return nvm_run(b->gpu, &o) == NVM_RUN_IDLE ? 0 : -1;
}

/* GR and GRCOPY method logs: cap 0 (recording off) or the default. */
static void hb_record(struct hb *b, bool on)
{
	nvm_method_log_config(b->gpu, "gr", on ? ENG_LOG_DEFAULT : 0);
	nvm_method_log_config(b->gpu, "grce", on ? ENG_LOG_DEFAULT : 0);
}

/* The driver-like stream of c (pb_va set here), written to VRAM. */
static int hb_stream(struct hb *b, struct ds_config *c, struct ds_stream *s)
{
	c->pb_va = halloc(b, (uint64_t)c->words * 4, 4096);
	if (ds_generate(c, s))
		return -1;
	nvm_mem_write(b->gpu, NVM_AP_VRAM, c->pb_va, s->words, s->nwords * 4);
	return 0;
}

/* Seconds of a streaming read of dwords [va, va + 4 * n) of VRAM through
 * the model's page pointers (the bytes the Host fetches). */
static double hb_read(struct hb *b, uint64_t va, size_t n)
{
	double t0 = bench_now();
	uint64_t sum = 0;
	for (uint64_t a = va; a < va + 4ull * n;) {
		uint8_t *p;
		size_t avail;
		if (nvm_mem_page(b->gpu, NVM_AP_VRAM, a, 0, &p, &avail))
			break;
		if (avail > va + 4ull * n - a)
			avail = (size_t)(va + 4ull * n - a);
		sum += bench_sum32((const uint32_t *)(const void *)p, avail / 4);
		a += avail;
	}
	double t1 = bench_now();
	bench_sink(sum);
	return t1 - t0;
}

/* ---------------------------------------------------------------- one channel */

/* One round: the stream's segments as GP entries, the doorbell, run to
 * idle. Returns the seconds from the doorbell to idle, -1 on a hang. */
static double hb_round(struct hb *b, struct hch *c, uint64_t pb_va, const struct ds_stream *s)
{
	for (size_t i = 0; i < s->nsegs; i++)
		hb_gp(b, c, pb_va + 4ull * s->segs[i].off, s->segs[i].n);
	double t0 = bench_now();
	nvm_reg_write(b->gpu, 0x810090, c->chid);
	int st = run_idle(b);
	double t = bench_now() - t0;
	return st ? -1 : t;
}

/* One measurement of the single-channel case: best seconds of a streaming
 * read, of the Host with recording off and with recording on, over the
 * same stream (interleaved rounds: the least disturbed of each). */
struct e2e {
	double scale;
	bool done;
	double read_s, off_s, on_s;
	uint64_t methods, words;
	char check[96];
};

static int host_e2e(double scale, struct e2e *m, struct bench_result *out)
{
	if (m->done && m->scale == scale)
		return 0;
	struct hb b;
	if (hb_open(&b, 256ull * MiB))
		return -1;
	struct hch c;
	hb_chan(&b, &c, 0, 13);
	uint32_t rl[8] = { 128u << 24 | 3u << 16 | 1, 1, 1, 0, (uint32_t)c.userd, 0, (uint32_t)c.inst, 0 };
	hb_submit(&b, rl, 2);
	struct ds_config cfg = { .format = DS_FMT_NEW, .seed = 1 };
	/* 256 KiB .. 128 MiB of pushbuffer (VRAM is 256 MiB; at most 8191 GP entries) */
	double words = 8e6 * scale;
	cfg.words = words < 65536 ? 65536 : words > 32e6 ? (size_t)32e6 : (size_t)words;
	cfg.sem_va = halloc(&b, 16, 16);
	struct ds_stream s;
	if (hb_stream(&b, &cfg, &s) || s.nsegs > c.mask) {
		ds_free(&s);
		nvm_close(b.gpu);
		return -1;
	}
	/* Round 0 (untimed, the warm-up): through the tap, recording off:
	 * every engine method must arrive with its data. */
	const int reps = 3;
	double best[3] = { 1e30, 1e30, 1e30 };
	uint64_t before = ds_engine_total(b.gpu);
	int st = ds_tap_install(b.gpu);
	if (!st) {
		hb_record(&b, false);
		st = hb_round(&b, &c, cfg.pb_va, &s) < 0 ? -1 : bench_check_tap(out, s.engine_methods, s.checksum);
		ds_tap_remove(b.gpu);
	}
	uint64_t per = ds_engine_total(b.gpu) - before;
	for (int r = 0; r < reps && !st; r++) {
		for (int k = 0; k < 3 && !st; k++) {
			double t;
			if (k == 0) {
				t = hb_read(&b, cfg.pb_va, s.nwords);
			} else {
				hb_record(&b, k == 2);
				before = ds_engine_total(b.gpu);
				t = hb_round(&b, &c, cfg.pb_va, &s);
				st = t < 0 ? -1 : bench_check_total(out, ds_engine_total(b.gpu) - before, per);
			}
			if (t < best[k])
				best[k] = t;
		}
	}
	nvm_close(b.gpu);
	if (!st) {
		*m = (struct e2e){ scale, true, best[0], best[1], best[2], s.methods, s.nwords, "" };
		snprintf(m->check, sizeof(m->check), "engine checksum of %llu methods, %.2f methods/header",
		         (unsigned long long)s.engine_methods, (double)s.methods / (double)s.headers);
	}
	ds_free(&s);
	return st;
}

static struct e2e e2e_cache;

static int bench_e2e_off(double scale, struct bench_result *out)
{
	struct e2e *m = &e2e_cache;
	if (host_e2e(scale, m, out))
		return -1;
	double n = (double)m->methods;
	*out = (struct bench_result){ .unit = "methods/s",
		                      .rate = n / m->off_s,
		                      .baseline_rate = n / m->read_s,
		                      .baseline = "streaming read of the pushbuffer",
		                      .target_ratio = 0.25,
		                      .target = ">= 0.25 of a streaming read",
		                      .per_method_ns = m->off_s * 1e9 / n,
		                      .check = m->check };
	return 0;
}

static int bench_e2e_on(double scale, struct bench_result *out)
{
	struct e2e *m = &e2e_cache;
	if (host_e2e(scale, m, out))
		return -1;
	double n = (double)m->methods;
	*out = (struct bench_result){ .unit = "methods/s",
		                      .rate = n / m->on_s,
		                      .baseline_rate = n / m->off_s,
		                      .baseline = "recording off, same run",
		                      .target_ratio = 0.7,
		                      .target = ">= 0.7 of recording off",
		                      .per_method_ns = m->on_s * 1e9 / n,
		                      .check = m->check };
	return 0;
}

/* ---------------------------------------------------------------- 4096 channels */

#define MANY_CH    4096u
#define MANY_BYTES 1024u

/* 4096 channels in 2048 TSGs, each with one GP entry of 1 KiB of methods
 * (its own stream: binds, state, a semaphore), against one channel that
 * runs the same 4096 GP entries, interleaved rounds in the same run. */
static int bench_many(double scale, struct bench_result *out)
{
	int reps = scale < 0.5 ? 2 : 3;
	struct hb many, one;
	if (hb_open(&many, 128ull * MiB))
		return -1;
	if (hb_open(&one, 128ull * MiB)) {
		nvm_close(many.gpu);
		return -1;
	}
	struct hch *c = calloc(MANY_CH + 1, sizeof(*c));
	uint32_t *rl = calloc(MANY_CH / 2 * 3 * 4, 4);
	struct ds_stream *s = calloc(MANY_CH, sizeof(*s));
	uint64_t *va = calloc(MANY_CH, sizeof(*va));
	if (!c || !rl || !s || !va) {
		free(c);
		free(rl);
		free(s);
		free(va);
		nvm_close(many.gpu);
		nvm_close(one.gpu);
		return -1;
	}
	int st = 0;
	for (uint32_t i = 0; i < MANY_CH; i++)
		hb_chan(&many, &c[i], i, 1);
	hb_chan(&one, &c[MANY_CH], 0, 13);
	for (uint32_t t = 0; t < MANY_CH / 2 && !st; t++) {
		uint32_t *w = rl + t * 12;
		w[0] = 128u << 24 | 3u << 16 | 1;
		w[1] = 2;
		w[2] = t;
		for (uint32_t k = 0; k < 2; k++) {
			const struct hch *h = &c[2 * t + k];
			w[4 + 4 * k] = (uint32_t)h->userd;
			w[6 + 4 * k] = (uint32_t)h->inst | h->chid;
		}
	}
	uint32_t rl1[8] = { 128u << 24 | 3u << 16 | 1, 1, 1, 0, (uint32_t)c[MANY_CH].userd, 0,
		            (uint32_t)c[MANY_CH].inst, 0 };
	if (!st) {
		hb_submit(&many, rl, MANY_CH / 2 * 3);
		hb_submit(&one, rl1, 2);
	}
	/* The same addresses in both GPUs: both allocate the same sizes from here. */
	uint64_t methods = 0, engine = 0, sum = 0;
	uint64_t base = many.next > one.next ? many.next : one.next;
	many.next = one.next = base;
	uint64_t sem = halloc(&many, 16ull * MANY_CH, 16);
	halloc(&one, 16ull * MANY_CH, 16);
	for (uint32_t i = 0; i < MANY_CH && !st; i++) {
		struct ds_config cfg = { .format = DS_FMT_NEW,
			                 .seed = 100 + i,
			                 .words = MANY_BYTES / 4,
			                 .seg_min = MANY_BYTES,
			                 .seg_max = MANY_BYTES,
			                 .sem_va = sem + 16ull * i };
		halloc(&one, MANY_BYTES, 256);
		st = hb_stream(&many, &cfg, &s[i]) || s[i].nsegs != 1;
		if (!st) {
			va[i] = cfg.pb_va;
			nvm_mem_write(one.gpu, NVM_AP_VRAM, va[i], s[i].words, s[i].nwords * 4);
			methods += s[i].methods;
			engine += s[i].engine_methods;
			sum += s[i].checksum;
		}
	}
	/* Round 0 of each side through the tap (every method checked), then
	 * timed rounds without it (their engine counts checked). */
	double best_many = 1e30, best_one = 1e30;
	uint64_t per_many = 0, per_one = 0;
	for (int r = 0; r <= reps && !st; r++) {
		/* many */
		uint64_t before = ds_engine_total(many.gpu);
		if (!r)
			st = st || ds_tap_install(many.gpu);
		for (uint32_t i = 0; i < MANY_CH && !st; i++)
			hb_gp(&many, &c[i], va[i], (uint32_t)s[i].nwords);
		double t0 = bench_now();
		for (uint32_t i = 0; i < MANY_CH && !st; i++)
			nvm_reg_write(many.gpu, 0x810090, i);
		st = st || run_idle(&many);
		double t1 = bench_now();
		if (!r) {
			st = st || bench_check_tap(out, engine, sum);
			ds_tap_remove(many.gpu);
			per_many = ds_engine_total(many.gpu) - before;
		} else {
			st = st || bench_check_total(out, ds_engine_total(many.gpu) - before, per_many);
		}
		/* one */
		before = ds_engine_total(one.gpu);
		if (!r)
			st = st || ds_tap_install(one.gpu);
		for (uint32_t i = 0; i < MANY_CH && !st; i++)
			hb_gp(&one, &c[MANY_CH], va[i], (uint32_t)s[i].nwords);
		double t2 = bench_now();
		nvm_reg_write(one.gpu, 0x810090, 0);
		st = st || run_idle(&one);
		double t3 = bench_now();
		if (!r) {
			st = st || bench_check_tap(out, engine, sum);
			ds_tap_remove(one.gpu);
			per_one = ds_engine_total(one.gpu) - before;
		} else {
			st = st || bench_check_total(out, ds_engine_total(one.gpu) - before, per_one);
		}
		if (r && t1 - t0 < best_many)
			best_many = t1 - t0;
		if (r && t3 - t2 < best_one)
			best_one = t3 - t2;
	}
	for (uint32_t i = 0; i < MANY_CH && s; i++)
		ds_free(&s[i]);
	free(s);
	free(va);
	free(c);
	free(rl);
	nvm_close(many.gpu);
	nvm_close(one.gpu);
	if (st)
		return -1;
	static char check[96];
	snprintf(check, sizeof(check), "engine checksum of %llu methods, both sides", (unsigned long long)engine);
	/* rate / baseline >= 1 / 1.3: a method costs at most 1.3x a single channel's */
	*out = (struct bench_result){ .unit = "methods/s",
		                      .rate = (double)methods / best_many,
		                      .baseline_rate = (double)methods / best_one,
		                      .baseline = "one channel, same GP entries",
		                      .target_ratio = 1 / 1.3,
		                      .target = "per-method cost <= 1.3x one channel",
		                      .per_method_ns = best_many * 1e9 / (double)methods,
		                      .check = check };
	return 0;
}

/* Semaphore ping-pong between two channels in two TSGs: round k, A
 * releases S1 = k and acquires S2 >= k; B acquires S1 >= k and releases
 * S2 = k. Each round is two release/acquire pairs, each acquire waiting for
 * the other channel's release (write watches, no polling). */
static int bench_pingpong(double scale, struct bench_result *out)
{
	uint32_t rounds = (uint32_t)(20000 * scale) < 16 ? 16 : (uint32_t)(20000 * scale);
	struct hb b;
	if (hb_open(&b, 64ull * MiB))
		return -1;
	struct hch c[2];
	hb_chan(&b, &c[0], 1, 6);
	hb_chan(&b, &c[1], 2, 6);
	uint32_t rl[16] = { 128u << 24 | 3u << 16 | 1, 1, 1, 0, (uint32_t)c[0].userd, 0, (uint32_t)c[0].inst | 1, 0,
		            128u << 24 | 3u << 16 | 1, 1, 2, 0, (uint32_t)c[1].userd, 0, (uint32_t)c[1].inst | 2, 0 };
	hb_submit(&b, rl, 4);
	uint64_t s1 = halloc(&b, 16, 16), s2 = halloc(&b, 16, 16);
	/* one segment per channel with all rounds: 12 dwords per round */
	for (uint32_t k = 0; k < 2; k++) {
		uint32_t n = rounds * 12, *w = malloc((size_t)n * 4);
		if (!w)
			return -1;
		uint64_t mine = k ? s2 : s1, theirs = k ? s1 : s2;
		for (uint32_t r = 0, i = 0; r < rounds; r++) {
			uint64_t first = k ? theirs : mine, second = k ? mine : theirs;
			uint32_t acq = 2u | 1u << 12; /* ACQ_STRICT_GEQ, ACQUIRE_SWITCH_TSG */
			uint32_t op1 = k ? acq : 1u /* RELEASE */, op2 = k ? 1u : acq;
			w[i++] = 0x20000000u | 5u << 16 | (0x5c >> 2);
			w[i++] = (uint32_t)first;
			w[i++] = (uint32_t)(first >> 32);
			w[i++] = r + 1;
			w[i++] = 0;
			w[i++] = op1;
			w[i++] = 0x20000000u | 5u << 16 | (0x5c >> 2);
			w[i++] = (uint32_t)second;
			w[i++] = (uint32_t)(second >> 32);
			w[i++] = r + 1;
			w[i++] = 0;
			w[i++] = op2;
		}
		uint64_t pb = halloc(&b, (uint64_t)n * 4, 4096);
		nvm_mem_write(b.gpu, NVM_AP_VRAM, pb, w, (size_t)n * 4);
		free(w);
		hb_gp(&b, &c[k], pb, n);
	}
	double t0 = bench_now();
	nvm_reg_write(b.gpu, 0x810090, 1);
	nvm_reg_write(b.gpu, 0x810090, 2);
	int st = run_idle(&b);
	double t1 = bench_now();
	uint32_t v1 = 0, v2 = 0;
	nvm_mem_rd32(b.gpu, NVM_AP_VRAM, s1, &v1);
	nvm_mem_rd32(b.gpu, NVM_AP_VRAM, s2, &v2);
	nvm_close(b.gpu);
	if (st || v1 != rounds || v2 != rounds)
		return -1;
	*out = (struct bench_result){ .unit = "pairs/s", .rate = 2.0 * rounds / (t1 - t0) };
	return 0;
}

/* `nvmodel demo` (the embedded gv100 scenario, output discarded): whole
 * runs per second; target: well under a second each (at least 4 per s). */
extern const char nvm_demo_lua[];
extern const size_t nvm_demo_lua_len;

static int bench_demo(double scale, struct bench_result *out)
{
	unsigned runs = (unsigned)(8 * scale) < 1 ? 1 : (unsigned)(8 * scale);
	struct scn_opts o = { 0 };
	double t0 = bench_now();
	for (unsigned i = 0; i < runs; i++) {
		struct scn_result res;
		scn_run_buffer(nvm_demo_lua, nvm_demo_lua_len, "demo.lua", &o, &res);
		if (!res.ok)
			return -1;
	}
	double t1 = bench_now();
	*out = (struct bench_result){ .unit = "demo runs/s", .rate = runs / (t1 - t0), .target_rate = 4 };
	return 0;
}

static int bench_chan_mem(double scale, struct bench_result *out)
{
	(void)scale;
	/* Host-side bytes per channel: the Host block's whole state (the
	 * scheduler's per-channel records, PBDMAs, runlists and the
	 * generation's own state: PCCSR values, PFIFO arrays) over its
	 * channels; the same for every channel, idle or not. */
	const struct host_gen *g = &host_gv100;
	size_t bytes = sizeof(struct host) + g->nchan * sizeof(struct chan) + g->nrunlist * sizeof(struct runlist) +
	               g->npbdma * (sizeof(struct pbdma) + PBR_COUNT * sizeof(uint32_t)) +
	               2u * g->nrunlist * sizeof(struct engine *) + g->state_bytes;
	double per = (double)bytes / g->nchan;
	*out = (struct bench_result){ .unit = "bytes/channel", .rate = per };
	return 0;
}

const struct bench_case bench_host_cases[] = {
	{ "host.e2e_rec_off",
	  "gv100 channel, driver-like stream: doorbell -> GPFIFO -> MMU -> decode -> GR/CE, recording off",
	  bench_e2e_off },
	{ "host.e2e_rec_on", "the same with the GR/GRCE method logs on (the default)", bench_e2e_on },
	{ "host.4096ch", "4096 channels in 2048 TSGs, 1 KiB of driver-like methods each, vs one channel", bench_many },
	{ "host.sem_pingpong", "semaphore release/acquire pairs between two channels in two TSGs", bench_pingpong },
	{ "host.demo", "the whole `nvmodel demo` (gv100 channels, copies, semaphores)", bench_demo },
	{ "host.chan_mem", "Host state per channel (informational)", bench_chan_mem },
	{ NULL, NULL, NULL },
};
