/*
 * Benchmarks of PFIFO for NV04..NV4x (src/pfifo/): the DMA pusher ->
 * CACHE1 -> puller -> recording PGRAPH path with recording off, against a
 * streaming read of the same pushbuffer; PIO stores through the USER area.
 * The setup is what nouveau's nv40 fifo code does (docs/pfifo.md).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nvmodel/pfifo.h"

#define PB_BASE 0x1000000u

struct pb_bench {
	nvm_gpu *gpu;
};

static void ri(nvm_gpu *g, uint32_t a, uint32_t v)
{
	nvm_reg_write(g, 0x700000 + a, v);
}

/* nv40_fifo_init, a PGRAPH object bound by handle 0x77 on channel 1 and a
 * DMA channel whose pushbuffer DMA object covers `bytes` of system memory. */
static nvm_gpu *setup_nv40(uint32_t bytes)
{
	uint64_t sys = ((uint64_t)PB_BASE + bytes + (1u << 20) + 0xfff) & ~0xfffull;
	nvm_config cfg = { .chip = "nv40", .vram_size = 64u << 20, .sysmem_size = sys };
	nvm_gpu *g;
	if (nvm_open(&cfg, &g))
		return NULL;
	nvm_reg_write(g, 0x2210, 0x03030100);
	nvm_reg_write(g, 0x2218, 0x18000 >> 8);
	nvm_reg_write(g, 0x2220, 0x00030002);
	nvm_reg_write(g, 0x2058, 1);
	nvm_reg_write(g, 0x3204, 31);
	nvm_reg_write(g, 0x2140, 0xffffffffu);
	nvm_reg_write(g, 0x3200, 1);
	nvm_reg_write(g, 0x3250, 1);
	nvm_reg_write(g, 0x2500, 1);
	nvm_pfifo_log_config(g, "pgraph", 0);
	/* pushbuffer DMA object (PCI, linear), graph object, RAMHT entry */
	ri(g, 0x30000, 0x3d | 0x3000u | 2u << 16);
	ri(g, 0x30004, bytes - 1);
	ri(g, 0x30008, PB_BASE | 2);
	ri(g, 0x30010, 0x4097);
	uint32_t ctx;
	nvm_pfifo_ramht_context("nv40", 0x30010, 1, 1, &ctx);
	uint32_t h = nvm_pfifo_ramht_hash(0x77, 1, 12);
	ri(g, 0x10000 + h * 8, 0x77);
	ri(g, 0x10000 + h * 8 + 4, ctx);
	/* channel 1's RAMFC (nv40_chan_ramfc_write) */
	ri(g, 0x20000 + 128 + 0x0c, 0x30000 >> 4);
	ri(g, 0x20000 + 128 + 0x18, 0x30086078u);
	ri(g, 0x20000 + 128 + 0x3c, 0x0001ffff);
	nvm_reg_write(g, 0x2504, 1u << 1);
	return g;
}

__attribute__((noinline)) static int run_idle(nvm_gpu *g)
{
	nvm_run_opts o = { .ns = UINT64_MAX / 2, .flags = NVM_RUN_UNTIL_IDLE, .max_events = UINT64_MAX / 2 };
	return nvm_run(g, &o) == NVM_RUN_IDLE ? 0 : -1;
}

static uint64_t pgraph_total(nvm_gpu *g)
{
	size_t n;
	uint64_t t = 0;
	nvm_pfifo_log_read(g, "pgraph", 0, NULL, 0, &n, &t);
	return t;
}

/* Writes the stream both benchmarks push: the bind of handle 0x77, then
 * non-increasing runs of 2047 methods (the longest old-format count) to
 * method 0x0400, `words` dwords at most. Returns the dwords written and
 * the methods in *methods. */
static uint32_t fill_stream(nvm_gpu *g, uint32_t words, uint64_t *methods)
{
	*methods = 1;
	nvm_mem_wr32(g, NVM_AP_SYSMEM, PB_BASE, 1u << 18);
	nvm_mem_wr32(g, NVM_AP_SYSMEM, PB_BASE + 4, 0x77);
	uint32_t i = 2;
	while (i < words) {
		uint32_t n = words - i - 1 < 2047 ? words - i - 1 : 2047;
		if (!n)
			break;
		nvm_mem_wr32(g, NVM_AP_SYSMEM, PB_BASE + 4ull * i, 0x40000000u | n << 18 | 0x400);
		i++;
		for (uint32_t k = 0; k < n;) {
			uint8_t *p;
			size_t avail;
			nvm_mem_page(g, NVM_AP_SYSMEM, PB_BASE + 4ull * i, 1, &p, &avail);
			uint32_t m = (uint32_t)(avail / 4) < n - k ? (uint32_t)(avail / 4) : n - k;
			for (uint32_t j = 0; j < m; j++)
				((uint32_t *)(void *)p)[j] = i + j;
			i += m;
			k += m;
		}
		*methods += n;
	}
	return i;
}

/* The baseline: methods per second of a streaming read of the `words`
 * dwords of the pushbuffer. */
static double stream_rate(nvm_gpu *g, uint32_t words, uint64_t methods)
{
	double t0 = bench_now();
	uint64_t sum = 0;
	for (uint64_t a = PB_BASE; a < PB_BASE + 4ull * words;) {
		uint8_t *p;
		size_t avail;
		nvm_mem_page(g, NVM_AP_SYSMEM, a, 0, &p, &avail);
		const uint32_t *w = (const uint32_t *)(const void *)p;
		for (size_t k = 0; k < avail / 4; k++)
			sum += w[k];
		a += avail;
	}
	double t1 = bench_now();
	bench_sink(sum);
	return (double)methods / (t1 - t0);
}

/* Times one submission (the write of val to the USER register reg) until
 * PGRAPH has all `methods` of the `words`-dword stream, then measures the
 * streaming-read baseline of the same bytes; closes g. */
static int timed_stream(nvm_gpu *g, uint32_t reg, uint32_t val, uint32_t words, uint64_t methods, double *rate,
                        double *base_rate)
{
	double t0 = bench_now();
	nvm_reg_write(g, reg, val);
	int st = run_idle(g);
	double t1 = bench_now();
	bool ok = !st && pgraph_total(g) == methods;
	if (ok) {
		*rate = (double)methods / (t1 - t0);
		*base_rate = stream_rate(g, words, methods);
	}
	nvm_close(g);
	return ok ? 0 : -1;
}

/* A pushbuffer of `words` dwords: the bind, then non-increasing runs of
 * 2047 methods (the longest old-format count) to method 0x0400. */
static int dma_stream(double scale, double *rate, double *base_rate)
{
	uint32_t words = (uint32_t)(4e6 * scale) < 4096 ? 4096 : (uint32_t)(4e6 * scale);
	nvm_gpu *g = setup_nv40(words * 4 + 4096);
	if (!g)
		return -1;
	uint64_t methods;
	uint32_t i = fill_stream(g, words, &methods);
	return timed_stream(g, 0xc01000 + 0x40, i * 4, i, methods, rate, base_rate);
}

static int bench_dma(double scale, struct bench_result *out)
{
	double rate, base;
	/* warm-up first: the first GPU pays for faulting in host memory */
	if (dma_stream(scale / 4, &rate, &base) || dma_stream(scale, &rate, &base))
		return -1;
	*out = (struct bench_result){ "methods/s", rate, base, "streaming read of the pushbuffer", 0.25, 1e8 };
	return 0;
}

/* PIO: the driver fills CACHE1 through the USER area up to the free count,
 * the puller drains it, and so on. */
static int bench_pio(double scale, struct bench_result *out)
{
	nvm_gpu *g = setup_nv40(4096);
	if (!g)
		return -1;
	uint32_t total = (uint32_t)(2e6 * scale) < 1024 ? 1024 : (uint32_t)(2e6 * scale);
	uint32_t user = 0x800000 + 1 * 0x10000;
	nvm_reg_write(g, 0x2504, 0); /* channel 1 in PIO mode */
	nvm_reg_write(g, user, 0x77);
	double t0 = bench_now();
	uint32_t done = 1;
	while (done < total) {
		uint32_t free_bytes;
		nvm_reg_read(g, user + 0x10, &free_bytes);
		for (uint32_t k = 0; k < free_bytes / 4 && done < total; k++, done++)
			nvm_reg_write(g, user + 0x400, done);
		if (run_idle(g))
			return -1;
	}
	double t1 = bench_now();
	if (pgraph_total(g) != total) {
		nvm_close(g);
		return -1;
	}
	nvm_close(g);
	*out = (struct bench_result){ "writes/s", total / (t1 - t0), 0, NULL, 0, 5e6 };
	return 0;
}

/* ---------------------------------------------------------------- G80 IB mode */

#define G80_CHAN 0x100000u /* channel 1's structure in VRAM */
#define G80_IB   0x800000u /* the IB ring in system memory; pushbuffer from PB_BASE */

static void g80_vw(nvm_gpu *g, uint32_t a, uint32_t v)
{
	nvm_mem_wr32(g, NVM_AP_VRAM, a, v);
}

/* nv50_fifo_init on a g84 and one gpfifo channel (g84_fifo_gpfifo_new):
 * unpaged pushbuffer DMA object over system memory, a PGRAPH object bound
 * by handle 0x77, RAMFC, CHAN_TABLE, the playlist, an IB ring of 2^order
 * entries. */
static nvm_gpu *setup_g84(uint64_t bytes, uint32_t order)
{
	uint64_t sys = ((uint64_t)PB_BASE + bytes + (1u << 20) + 0xfff) & ~0xfffull;
	nvm_config cfg = { .chip = "g84", .vram_size = 64u << 20, .sysmem_size = sys };
	nvm_gpu *g;
	if (nvm_open(&cfg, &g))
		return NULL;
	nvm_pfifo_log_config(g, "pgraph", 0);
	nvm_reg_write(g, 0x2044, 0x01003fff);
	nvm_reg_write(g, 0x2140, 0xbfffffffu);
	uint32_t ch = G80_CHAN, fc = ch + 0x5400;
	g80_vw(g, ch + 0x6000, 0x3d | 2u << 16 | 2u << 18); /* DMA object: SYSRAM, read-write */
	g80_vw(g, ch + 0x6004, 0xffffffffu);
	g80_vw(g, ch + 0x600c, 0xffu << 24);
	g80_vw(g, ch + 0x6040, 0x5097);
	uint32_t h = nvm_pfifo_ramht_hash(0x77, 0, 12);
	g80_vw(g, ch + 0x8000 + h * 8, 0x77);
	g80_vw(g, ch + 0x8000 + h * 8 + 4, 1u << 20 | 0x604);
	g80_vw(g, fc + 0x3c, 0x403f6078);
	g80_vw(g, fc + 0x44, 0x01003fff);
	g80_vw(g, fc + 0x48, 0x600);
	g80_vw(g, fc + 0x50, G80_IB);
	g80_vw(g, fc + 0x54, order << 16);
	g80_vw(g, fc + 0x7c, 0x30000001);
	g80_vw(g, fc + 0x80, 3u << 27 | 4u << 24 | 0x800);
	g80_vw(g, fc + 0x88, (ch + 0x4400) >> 10);
	g80_vw(g, fc + 0x98, ch >> 12);
	nvm_reg_write(g, 0x2604, 0x80000000u | fc >> 8);
	g80_vw(g, 0xf00000, 1);
	nvm_reg_write(g, 0x32f4, 0xf00000 >> 12);
	nvm_reg_write(g, 0x32ec, 1);
	nvm_reg_write(g, 0x3200, 1);
	nvm_reg_write(g, 0x3250, 1);
	nvm_reg_write(g, 0x2500, 1);
	return g;
}

/* An IB-mode channel end to end (IB ring -> pusher through the G80 VM ->
 * CACHE1 -> puller -> PGRAPH): the bind, then non-increasing runs of 2047
 * methods, submitted as IB entries of 64 KiB (nouveau's pushbuffer size),
 * against a streaming read of the same pushbuffer. */
static int ib_stream(double scale, double *rate, double *base_rate)
{
	uint32_t words = (uint32_t)(4e6 * scale) < 32768 ? 32768 : (uint32_t)(4e6 * scale);
	uint32_t piece = 16384, entries = (words + piece - 1) / piece, order = 1;
	while ((1u << order) <= entries)
		order++;
	nvm_gpu *g = setup_g84(words * 4ull + 4096, order);
	if (!g)
		return -1;
	uint64_t methods;
	uint32_t i = fill_stream(g, words, &methods), ne = 0;
	for (uint32_t at = 0; at < i; at += piece, ne++) {
		uint32_t len = i - at < piece ? i - at : piece;
		nvm_mem_wr32(g, NVM_AP_SYSMEM, G80_IB + ne * 8, PB_BASE + at * 4);
		nvm_mem_wr32(g, NVM_AP_SYSMEM, G80_IB + ne * 8 + 4, len << 10);
	}
	return timed_stream(g, 0xc00000 + 0x2000 + 0x8c, ne, i, methods, rate, base_rate);
}

static int bench_ib(double scale, struct bench_result *out)
{
	double rate, base;
	if (ib_stream(scale / 4, &rate, &base) || ib_stream(scale, &rate, &base))
		return -1;
	*out = (struct bench_result){ "methods/s", rate, base, "streaming read of the pushbuffer", 0.1, 5e7 };
	return 0;
}

const struct bench_case bench_pfifo_cases[] = {
	{ "g80fifo_ib_stream", "g84 IB-mode channel: IB ring -> pusher (G80 VM) -> CACHE1 -> puller -> PGRAPH",
	  bench_ib },
	{ "pfifo_dma_stream", "nv40 DMA channel: pusher -> CACHE1 -> puller -> PGRAPH (recording off)", bench_dma },
	{ "pfifo_pio", "nv40 PIO stores through the USER area, CACHE1 drained by the puller", bench_pio },
	{ NULL, NULL, NULL },
};
