/*
 * Benchmarks of PFIFO for NV04..G80 (src/pfifo/), on driver-like streams
 * (drvstream.h): the nv40 DMA pusher (a ring kicked through PUT, a jump at
 * each wrap) and the g84 IB pusher (IB entries of 4-64 KiB), each ->
 * CACHE1 -> puller -> recording PGRAPH with recording off, against a
 * streaming read of the same bytes in the same run; every PGRAPH method is
 * checked (engine tap and checksum). And PIO stores through the USER area.
 * The setup is what nouveau's nv40 / nv50 fifo code does (docs/pfifo.md).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "drvstream.h"
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
	nvm_method_log_config(g, "pgraph", 0);
	/* pushbuffer DMA object (PCI, linear), graph object, RAMHT entry */
	ri(g, 0x30000, 0x3d | 0x3000u | 2u << 16);
	ri(g, 0x30004, bytes - 1);
	ri(g, 0x30008, PB_BASE | 2);
	unsigned nb;
	const struct ds_bind *b = ds_default_binds(DS_FMT_NV04_DMA, &nb);
	for (unsigned i = 0; i < nb; i++) {
		uint32_t inst = 0x30010 + 16 * i, ctx, h = nvm_pfifo_ramht_hash(b[i].handle, 1, 12);
		uint32_t used = 0;
		nvm_reg_read(g, 0x700000 + 0x10000 + h * 8 + 4, &used);
		if (used) { /* a collision: the driver would probe, this setup does not */
			nvm_close(g);
			return NULL;
		}
		ri(g, inst, b[i].cls);
		nvm_pfifo_ramht_context("nv40", inst, 1, 1, &ctx);
		ri(g, 0x10000 + h * 8, b[i].handle);
		ri(g, 0x10000 + h * 8 + 4, ctx);
	}
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
	nvm_method_log_read(g, "pgraph", 0, NULL, 0, &n, &t);
	return t;
}

/* Best seconds of a streaming read of the stream's dwords. */
static double read_time(const struct ds_stream *s)
{
	double t0 = bench_now();
	bench_sink(bench_sum32(s->words, s->nwords));
	return bench_now() - t0;
}

static char dma_check[96], ib_check[96];

/* After round r: round 0 ran through the tap (checksum of every method; the
 * tap is removed), later ones must deliver as many methods as round 0. */
static int round_check(struct bench_result *out, nvm_gpu *g, int r, const struct ds_stream *s, uint64_t before,
                       uint64_t *per)
{
	uint64_t got = ds_engine_total(g) - before;
	if (r)
		return bench_check_total(out, got, *per);
	*per = got;
	ds_tap_remove(g);
	return bench_check_tap(out, s->engine_methods, s->checksum);
}

/* The nv40 DMA channel: the stream goes through a 256 KiB ring at offset
 * 0 of the pushbuffer DMA object, kick by kick (the driver writes a kick's
 * words, then PUT; a jump at each wrap); a round ends with a jump back to
 * the ring start (untimed), so that every round starts there. */
static int dma_stream(double scale, struct bench_result *out, double *rate, double *base_rate)
{
	const uint32_t ring = 256u << 10;
	nvm_gpu *g = setup_nv40(ring + 4096);
	if (!g)
		return -1;
	/* nouveau jumps back with the NV04 jump (0x20000000 | offset) on every chip */
	struct ds_config cfg = { .format = DS_FMT_NV04_DMA, .seed = 2, .ring_bytes = ring, .old_jump = true };
	double words = 4e6 * scale;
	cfg.words = words < 65536 ? 65536 : words > 64e6 ? (size_t)64e6 : (size_t)words;
	struct ds_stream s;
	if (ds_generate(&cfg, &s)) {
		nvm_close(g);
		return -1;
	}
	uint32_t jump;
	nvm_pb_encode_control(NVM_PB_FORMAT_OLD, NVM_PB_CTRL_OLD_JUMP, 0, &jump);
	/* Round 0 (untimed) through the tap: every method checked; the timed
	 * rounds run without it, their PGRAPH counts checked. */
	const int reps = 3;
	double best = 1e30, best_read = 1e30;
	uint64_t per = 0;
	int st = ds_tap_install(g);
	for (int r = 0; r <= reps && !st; r++) {
		double model = 0;
		uint64_t end = 0, before = ds_engine_total(g);
		for (size_t i = 0; i < s.nsegs && !st; i++) {
			const struct ds_seg *k = &s.segs[i];
			nvm_mem_write(g, NVM_AP_SYSMEM, PB_BASE + k->va, s.words + k->off, 4ull * k->n);
			double t0 = bench_now();
			nvm_reg_write(g, 0xc01000 + 0x40, (uint32_t)k->put);
			st = run_idle(g);
			model += bench_now() - t0;
			end = k->put;
		}
		if (end) { /* back to the ring start for the next round */
			nvm_mem_wr32(g, NVM_AP_SYSMEM, PB_BASE + end, jump);
			nvm_reg_write(g, 0xc01000 + 0x40, 0);
			st = st || run_idle(g);
		}
		st = st || round_check(out, g, r, &s, before, &per);
		double rd = read_time(&s);
		if (r && model < best)
			best = model;
		if (r && rd < best_read)
			best_read = rd;
	}
	if (!st) {
		*rate = (double)s.methods / best;
		*base_rate = (double)s.methods / best_read;
		snprintf(dma_check, sizeof(dma_check), "PGRAPH checksum of %llu methods, %.2f methods/header",
		         (unsigned long long)s.engine_methods, (double)s.methods / (double)s.headers);
	}
	ds_free(&s);
	nvm_close(g);
	return st;
}

static int bench_dma(double scale, struct bench_result *out)
{
	double rate, base;
	if (dma_stream(scale, out, &rate, &base))
		return -1;
	*out = (struct bench_result){ .unit = "methods/s",
		                      .rate = rate,
		                      .baseline_rate = base,
		                      .baseline = "streaming read of the pushbuffer",
		                      .target_ratio = 0.2,
		                      .target = ">= 0.2 of a streaming read",
		                      .per_method_ns = 1e9 / rate,
		                      .check = dma_check };
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
	unsigned nb;
	nvm_reg_write(g, user, ds_default_binds(DS_FMT_NV04_DMA, &nb)[0].handle);
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
	*out = (struct bench_result){ .unit = "writes/s", .rate = total / (t1 - t0), .target_rate = 5e6 };
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
	nvm_method_log_config(g, "pgraph", 0);
	nvm_reg_write(g, 0x2044, 0x01003fff);
	nvm_reg_write(g, 0x2140, 0xbfffffffu);
	uint32_t ch = G80_CHAN, fc = ch + 0x5400;
	g80_vw(g, ch + 0x6000, 0x3d | 2u << 16 | 2u << 18); /* DMA object: SYSRAM, read-write */
	g80_vw(g, ch + 0x6004, 0xffffffffu);
	g80_vw(g, ch + 0x600c, 0xffu << 24);
	unsigned nb;
	const struct ds_bind *b = ds_default_binds(DS_FMT_G80_IB, &nb);
	for (unsigned i = 0; i < nb; i++) {
		uint32_t obj = 0x6040 + 0x20 * i, h = nvm_pfifo_ramht_hash(b[i].handle, 0, 12), used = 0;
		nvm_mem_rd32(g, NVM_AP_VRAM, ch + 0x8000 + h * 8 + 4, &used);
		if (used) {
			nvm_close(g);
			return NULL;
		}
		g80_vw(g, ch + obj, b[i].cls);
		g80_vw(g, ch + 0x8000 + h * 8, b[i].handle);
		g80_vw(g, ch + 0x8000 + h * 8 + 4, 1u << 20 | obj >> 4);
	}
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
 * CACHE1 -> puller -> PGRAPH) on a driver-like stream in IB entries of
 * 4-64 KiB, against a streaming read of the same bytes. */
static int ib_stream(double scale, struct bench_result *out, double *rate, double *base_rate)
{
	const uint32_t order = 12;
	struct ds_config cfg = { .format = DS_FMT_G80_IB, .seed = 3, .pb_va = PB_BASE };
	/* at most 4095 IB entries of 4-64 KiB: up to 16 M dwords */
	double words = 4e6 * scale;
	cfg.words = words < 65536 ? 65536 : words > 16e6 ? (size_t)16e6 : (size_t)words;
	nvm_gpu *g = setup_g84(cfg.words * 4ull + 4096, order);
	if (!g)
		return -1;
	struct ds_stream s;
	if (ds_generate(&cfg, &s) || s.nsegs >= (1u << order)) {
		ds_free(&s);
		nvm_close(g);
		return -1;
	}
	nvm_mem_write(g, NVM_AP_SYSMEM, PB_BASE, s.words, 4ull * s.nwords);
	const int reps = 3;
	double best = 1e30, best_read = 1e30;
	uint32_t put = 0;
	uint64_t per = 0;
	int st = ds_tap_install(g);
	for (int r = 0; r <= reps && !st; r++) {
		uint64_t before = ds_engine_total(g);
		for (size_t i = 0; i < s.nsegs; i++, put = (put + 1) & ((1u << order) - 1)) {
			nvm_mem_wr32(g, NVM_AP_SYSMEM, G80_IB + put * 8, (uint32_t)s.segs[i].va);
			nvm_mem_wr32(g, NVM_AP_SYSMEM, G80_IB + put * 8 + 4,
			             (uint32_t)(s.segs[i].va >> 32) | s.segs[i].n << 10);
		}
		double t0 = bench_now();
		nvm_reg_write(g, 0xc00000 + 0x2000 + 0x8c, put);
		st = run_idle(g);
		double t1 = bench_now();
		st = st || round_check(out, g, r, &s, before, &per);
		double rd = read_time(&s);
		if (r && t1 - t0 < best)
			best = t1 - t0;
		if (r && rd < best_read)
			best_read = rd;
	}
	if (!st) {
		*rate = (double)s.methods / best;
		*base_rate = (double)s.methods / best_read;
		snprintf(ib_check, sizeof(ib_check), "PGRAPH checksum of %llu methods, %.2f methods/header",
		         (unsigned long long)s.engine_methods, (double)s.methods / (double)s.headers);
	}
	ds_free(&s);
	nvm_close(g);
	return st;
}

static int bench_ib(double scale, struct bench_result *out)
{
	double rate, base;
	if (ib_stream(scale, out, &rate, &base))
		return -1;
	*out = (struct bench_result){ .unit = "methods/s",
		                      .rate = rate,
		                      .baseline_rate = base,
		                      .baseline = "streaming read of the pushbuffer",
		                      .target_ratio = 0.2,
		                      .target = ">= 0.2 of a streaming read",
		                      .per_method_ns = 1e9 / rate,
		                      .check = ib_check };
	return 0;
}

const struct bench_case bench_pfifo_cases[] = {
	{ "g80fifo.ib_e2e", "g84 IB channel, driver-like stream: IB -> pusher (G80 VM) -> CACHE1 -> puller -> PGRAPH",
	  bench_ib },
	{ "pfifo.dma_e2e", "nv40 DMA channel, driver-like stream in a ring: pusher -> CACHE1 -> puller -> PGRAPH",
	  bench_dma },
	{ "pfifo.pio", "nv40 PIO stores through the USER area, CACHE1 drained by the puller", bench_pio },
	{ NULL, NULL, NULL },
};
