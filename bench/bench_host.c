/*
 * Volta Host benchmarks, end to end: doorbell -> GPFIFO -> MMU -> decoder ->
 * engine. (a) one channel streaming long INC runs to GR with recording off,
 * against a plain streaming read of the same pushbuffer bytes in the same
 * run; (b) 4096 channels in 2048 TSGs, each with work, against (a)'s
 * single-channel rate (the cost per method may grow at most 1.5x);
 * (c) host memory the Host block costs per channel (constant, reported).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
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
	nvm_host_log_config(b->gpu, "gr", 0);
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
	uint32_t put;
};

static void hb_chan(struct hb *b, struct hch *c, uint32_t chid)
{
	c->chid = chid;
	c->inst = halloc(b, 4096, 4096);
	c->userd = halloc(b, 512, 512);
	c->gpf = halloc(b, 64 * 8, 8);
	c->put = 0;
	hw32(b, c->inst + 128 * 4, 1u << 10 | 1u << 11);
	hw32(b, c->inst + 0x08, (uint32_t)c->userd);
	hw32(b, c->inst + 0x10, 0xface);
	hw32(b, c->inst + 0x48, (uint32_t)c->gpf);
	hw32(b, c->inst + 0x4c, 6u << 16);
	hw32(b, c->inst + 0x84, 0x20400000);
	hw32(b, c->inst + 0x94, 0x30000fff);
	hw32(b, c->inst + 0xac, 1u << 16);
	hw32(b, c->inst + 0xf4, 0x1100);
	nvm_reg_write(b->gpu, 0x800000 + chid * 8, 0x80000000u | (uint32_t)(c->inst >> 12));
	nvm_reg_write(b->gpu, 0x800004 + chid * 8, 0x400);
}

/* INC runs of 3840 methods from 0x100 (the whole engine range). */
static uint64_t fill_pb(struct hb *b, uint64_t pa, uint32_t dwords, uint64_t *methods)
{
	uint32_t *w = malloc((size_t)dwords * 4);
	if (!w)
		return 0;
	uint32_t i = 0, seed = 1;
	while (i < dwords) {
		uint32_t n = dwords - i - 1 < 3840 ? dwords - i - 1 : 3840;
		w[i++] = 0x20000000u | n << 16 | (0x100 >> 2);
		for (uint32_t k = 0; k < n; k++, i++)
			w[i] = seed = seed * 1664525u + 1013904223u;
		*methods += n;
	}
	nvm_mem_write(b->gpu, NVM_AP_VRAM, pa, w, (size_t)dwords * 4);
	free(w);
	return pa;
}

static void hb_gp(struct hb *b, struct hch *c, uint64_t va, uint32_t dwords)
{
	hw32(b, c->gpf + c->put * 8, (uint32_t)va);
	hw32(b, c->gpf + c->put * 8 + 4, (uint32_t)(va >> 32) | dwords << 10);
	c->put = (c->put + 1) % 64;
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

static uint64_t gr_total(struct hb *b)
{
	size_t n;
	uint64_t t = 0;
	nvm_host_log_read(b->gpu, "gr", 0, NULL, 0, &n, &t);
	return t;
}

/* Single channel: returns methods/s and the baseline over the same bytes. */
static int single(double scale, double *rate, double *base_rate)
{
	uint32_t seg = 1u << 16; /* dwords per GP entry */
	uint32_t nseg = (uint32_t)(64 * scale) < 1 ? 1 : (uint32_t)(64 * scale);
	struct hb b;
	if (hb_open(&b, 512ull * MiB))
		return -1;
	struct hch c;
	hb_chan(&b, &c, 0);
	uint32_t rl[8] = { 128u << 24 | 3u << 16 | 1, 1, 1, 0, (uint32_t)c.userd, 0, (uint32_t)c.inst, 0 };
	hb_submit(&b, rl, 2);
	uint64_t methods = 0, pb = halloc(&b, (uint64_t)seg * 4 * nseg, 4096);
	fill_pb(&b, pb, seg * nseg, &methods);
	double t0 = bench_now();
	for (uint32_t s = 0; s < nseg; s++) {
		if (c.put == 63) {
			nvm_reg_write(b.gpu, 0x810090, c.chid);
			if (run_idle(&b))
				return -1;
		}
		hb_gp(&b, &c, pb + (uint64_t)s * seg * 4, seg);
	}
	nvm_reg_write(b.gpu, 0x810090, c.chid);
	int st = run_idle(&b);
	double t1 = bench_now();
	if (st || gr_total(&b) != methods)
		return -1;
	*rate = (double)methods / (t1 - t0);
	/* baseline: a streaming read of the same bytes through the same pointers */
	double t2 = bench_now();
	uint64_t sum = 0;
	for (uint64_t a = pb; a < pb + (uint64_t)seg * 4 * nseg;) {
		uint8_t *p;
		size_t avail;
		nvm_mem_page(b.gpu, NVM_AP_VRAM, a, 0, &p, &avail);
		const uint32_t *w = (const uint32_t *)(const void *)p;
		for (size_t i = 0; i < avail / 4; i++)
			sum += w[i];
		a += avail;
	}
	double t3 = bench_now();
	bench_sink(sum);
	*base_rate = (double)methods / (t3 - t2);
	nvm_close(b.gpu);
	return 0;
}

static int bench_stream(double scale, struct bench_result *out)
{
	double rate, base;
	/* A warm-up run first: the first GPU of the process pays for faulting
	 * in fresh host memory, which is not the model's cost. */
	if (single(scale / 4, &rate, &base) || single(scale, &rate, &base))
		return -1;
	*out = (struct bench_result){ "methods/s", rate, base, "streaming read of the pushbuffer", 0.25, 1e8 };
	return 0;
}

static int bench_many(double scale, struct bench_result *out)
{
	uint32_t nch = 4096, per = (uint32_t)(16384 * scale) < 64 ? 64 : (uint32_t)(16384 * scale);
	double one, base;
	if (single(scale / 4, &one, &base)) /* warm-up, as in bench_stream */
		return -1;
	struct hb b;
	if (hb_open(&b, 512ull * MiB))
		return -1;
	struct hch *c = calloc(nch, sizeof(*c));
	uint32_t *rl = calloc(nch / 2 * 3 * 4, 4);
	if (!c || !rl)
		return -1;
	for (uint32_t i = 0; i < nch; i++)
		hb_chan(&b, &c[i], i);
	for (uint32_t t = 0; t < nch / 2; t++) {
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
	hb_submit(&b, rl, nch / 2 * 3);
	/* Every channel gets the same work: 4 GP entries of `per` PB entries
	 * each, over one shared pushbuffer (the Host fetches each channel's
	 * segments on its own; sharing the bytes keeps the benchmark's memory
	 * small and measures the scheduling, not the host's cache misses). */
	uint64_t methods = 0, per_chan = 0;
	uint64_t pb = halloc(&b, (uint64_t)per * 4 * 4, 4096);
	fill_pb(&b, pb, per * 4, &per_chan);
	for (uint32_t i = 0; i < nch; i++) {
		for (uint32_t k = 0; k < 4; k++)
			hb_gp(&b, &c[i], pb + (uint64_t)k * per * 4, per);
		methods += per_chan;
	}
	double t0 = bench_now();
	for (uint32_t i = 0; i < nch; i++)
		nvm_reg_write(b.gpu, 0x810090, i);
	int st = run_idle(&b);
	double t1 = bench_now();
	uint64_t got = gr_total(&b);
	nvm_close(b.gpu);
	free(c);
	free(rl);
	if (st || got != methods)
		return -1;
	if (single(scale / 4, &one, &base) || single(scale, &one, &base))
		return -1;
	/* rate / baseline >= 1 / 1.5: a method costs at most 1.5x a single channel's */
	*out = (struct bench_result){ "methods/s", (double)methods / (t1 - t0),
		                      one,         "single channel, same run",
		                      1 / 1.5,     0 };
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
	hb_chan(&b, &c[0], 1);
	hb_chan(&b, &c[1], 2);
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
	*out = (struct bench_result){ "pairs/s", 2.0 * rounds / (t1 - t0), 0, NULL, 0, 0 };
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
	*out = (struct bench_result){ "demo runs/s", runs / (t1 - t0), 0, NULL, 0, 4 };
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
	*out = (struct bench_result){ "bytes/channel", per, 0, NULL, 0, 0 };
	return 0;
}

const struct bench_case bench_host_cases[] = {
	{ "host_stream", "one channel: doorbell -> GPFIFO -> MMU -> decode -> GR (recording off)", bench_stream },
	{ "host_4096ch", "4096 channels in 2048 TSGs, each 4 GP entries of 16 Ki entries, vs one channel", bench_many },
	{ "host_sem_pingpong", "semaphore release/acquire pairs between two channels in two TSGs", bench_pingpong },
	{ "host_demo", "the whole `nvmodel demo` (gv100 channels, copies, semaphores)", bench_demo },
	{ "host_chan_mem", "Host state per channel (informational)", bench_chan_mem },
	{ NULL, NULL, NULL },
};
