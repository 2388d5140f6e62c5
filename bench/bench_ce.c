/*
 * Copy-engine benchmark, end to end: a channel on the ce2 runlist copies
 * 1 MiB lines (one LAUNCH_DMA each) from one VRAM region to another through
 * its page tables, doorbell to idle; the baseline is a plain memcpy of the
 * same number of bytes between two host buffers in the same run. Target
 * ratio 0.5 (issue 9).
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nvmodel/host.h"
#include "nvmodel/nvmodel.h"

#define MiB       (1u << 20)
#define REGION    (64u * MiB) /* bytes per pass */
#define SRC       (64u * MiB) /* VA == PA */
#define DST       (128u * MiB)
#define INST      0x100000u
#define USERD     0x101000u
#define GPFIFO    0x102000u
#define PB        0x110000u
#define RUNLIST   0x108000u
#define PB_DWORDS 0x4000u

static void w32(nvm_gpu *g, uint64_t a, uint32_t v)
{
	nvm_mem_wr32(g, NVM_AP_VRAM, a, v);
}

/* VA == PA over the first 192 MiB in 2 MiB pages (PDE3..PDE0 at 0..0x3fff). */
static void identity_map(nvm_gpu *g)
{
	w32(g, 0x0000, (0x1000 >> 12) << 8 | 2);
	w32(g, 0x1000, (0x2000 >> 12) << 8 | 2);
	w32(g, 0x2000, (0x3000 >> 12) << 8 | 2);
	for (uint32_t pa = 0; pa < DST + REGION; pa += 2 * MiB)
		w32(g, 0x3000 + (pa >> 21) * 16, (pa >> 12) << 8 | 1);
}

/* One channel (RAMFC as nouveau writes it) alone on runlist 1 (ce2). */
static void channel(nvm_gpu *g)
{
	w32(g, INST + 128 * 4, 1u << 10 | 1u << 11);
	w32(g, INST + 0x08, USERD);
	w32(g, INST + 0x10, 0xface);
	w32(g, INST + 0x48, GPFIFO);
	w32(g, INST + 0x4c, 6u << 16);
	w32(g, INST + 0x84, 0x20400000);
	w32(g, INST + 0x94, 0x30000fff);
	w32(g, INST + 0xac, 3u << 16);
	w32(g, INST + 0xf4, 0x1100);
	nvm_reg_write(g, 0x800000, 0x80000000u | INST >> 12);
	nvm_reg_write(g, 0x800004, 0x400);
	uint32_t rl[] = { 128u << 24 | 3u << 16 | 1, 1, 1, 0, USERD, 0, INST, 0 };
	nvm_mem_write(g, NVM_AP_VRAM, RUNLIST, rl, sizeof(rl));
	nvm_reg_write(g, 0x2270, RUNLIST >> 12);
	nvm_reg_write(g, 0x2274, 1u << 20 | 2);
}

static uint32_t inc(uint32_t m, uint32_t n)
{
	return 0x20000000u | n << 16 | 1u << 13 | m >> 2; /* subchannel 1 */
}

/* The pushbuffer: SET_OBJECT, LINE_LENGTH_IN 1 MiB, then per line the four
 * offsets and LAUNCH_DMA (NON_PIPELINED, pitch to pitch). Returns dwords. */
static uint32_t pushbuffer(nvm_gpu *g)
{
	uint32_t *w = malloc(PB_DWORDS * 4), n = 0;
	if (!w)
		return 0;
	w[n++] = inc(0x000, 1);
	w[n++] = 0xc3b5;
	w[n++] = inc(0x418, 1);
	w[n++] = MiB;
	for (uint32_t off = 0; off < REGION; off += MiB) {
		w[n++] = inc(0x400, 4);
		w[n++] = 0;
		w[n++] = SRC + off;
		w[n++] = 0;
		w[n++] = DST + off;
		w[n++] = inc(0x300, 1);
		w[n++] = 2u | 1u << 7 | 1u << 8;
	}
	nvm_mem_write(g, NVM_AP_VRAM, PB, w, (size_t)n * 4);
	free(w);
	return n;
}

/* Writes every page once, so neither side pays for first-touch allocation. */
static void touch(nvm_gpu *g, uint64_t a, uint64_t len, uint8_t seed)
{
	uint8_t page[4096];
	for (uint64_t o = 0; o < len; o += sizeof(page)) {
		for (size_t i = 0; i < sizeof(page); i++)
			page[i] = (uint8_t)(seed + o / 4096 + i);
		nvm_mem_write(g, NVM_AP_VRAM, a + o, page, sizeof(page));
	}
}

static int run_idle(nvm_gpu *g)
{
	nvm_run_opts o = { .ns = UINT64_MAX / 2, .flags = NVM_RUN_UNTIL_IDLE, .max_events = UINT64_MAX / 2 };
	return nvm_run(g, &o) == NVM_RUN_IDLE ? 0 : -1;
}

/* passes x 64 MiB through the CE; returns the seconds it took. */
static int ce_copy(uint32_t passes, double *secs)
{
	nvm_config cfg = { .chip = "gv100", .vram_size = DST + REGION, .sysmem_size = MiB };
	nvm_gpu *g;
	if (nvm_open(&cfg, &g))
		return -1;
	nvm_method_log_config(g, "ce2", 0);
	identity_map(g);
	channel(g);
	touch(g, SRC, REGION, 1);
	touch(g, DST, REGION, 2);
	uint32_t n = pushbuffer(g);
	int st = n && !run_idle(g) ? 0 : -1;
	uint32_t put = 0;
	double t0 = bench_now();
	for (uint32_t p = 0; p < passes && !st; p++) {
		w32(g, GPFIFO + put * 8, PB);
		w32(g, GPFIFO + put * 8 + 4, n << 10);
		put = (put + 1) % 64;
		w32(g, USERD + 0x8c, put);
		nvm_reg_write(g, 0x810090, 0);
		st = run_idle(g);
	}
	*secs = bench_now() - t0;
	/* the copy must be real: compare the regions */
	for (uint64_t o = 0; o < REGION && !st; o += 4096) {
		uint8_t a[4096], b[4096];
		nvm_mem_read(g, NVM_AP_VRAM, SRC + o, a, sizeof(a));
		nvm_mem_read(g, NVM_AP_VRAM, DST + o, b, sizeof(b));
		st = memcmp(a, b, sizeof(a)) ? -1 : 0;
	}
	nvm_close(g);
	return st;
}

/* The same bytes with memcpy, 1 MiB at a time, between two host buffers. */
static int baseline(uint32_t passes, double *secs)
{
	uint8_t *a = malloc(REGION), *b = malloc(REGION);
	if (!a || !b) {
		free(a);
		free(b);
		return -1;
	}
	memset(a, 1, REGION);
	memset(b, 2, REGION);
	double t0 = bench_now();
	for (uint32_t p = 0; p < passes; p++) {
		for (uint32_t off = 0; off < REGION; off += MiB)
			memcpy(b + off, a + off, MiB);
		bench_sink(b[p % REGION]);
	}
	*secs = bench_now() - t0;
	free(a);
	free(b);
	return 0;
}

static int bench_ce_copy(double scale, struct bench_result *out)
{
	uint32_t passes = (uint32_t)(8 * scale) < 1 ? 1 : (uint32_t)(8 * scale);
	double ce, base;
	if (ce_copy(1, &ce) || ce_copy(passes, &ce) || baseline(passes, &base))
		return -1;
	double bytes = (double)passes * REGION;
	*out = (struct bench_result){ .unit = "bytes/s",
		                      .rate = bytes / ce,
		                      .baseline_rate = bytes / base,
		                      .baseline = "memcpy of the same bytes (1 MiB calls)",
		                      .target_ratio = 0.5 };
	return 0;
}

const struct bench_case bench_ce_cases[] = {
	{ "ce_copy_1m", "CE LAUNCH_DMA of 1 MiB lines, VRAM to VRAM through the MMU, vs memcpy", bench_ce_copy },
	{ NULL, NULL, NULL },
};
