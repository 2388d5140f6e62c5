/*
 * Fuzz target: the copy engine (classes C3B5 .. C8B5) behind real channels. A
 * skeleton (page tables mapping the first 4 MiB of VRAM at VA 0 and a sparse
 * 2 MiB at VA 4 MiB, everything else unmapped; a channel on the ce2 runlist
 * and one on the GR runlist using GRCOPY on subchannel 4) is built first;
 * the input is then a sequence of operations that append CE methods to a
 * channel's pushbuffer, submit and run with a small work budget, overwrite
 * guest memory, and clear ENG_FAULTED (skipping the parked method or not).
 *
 * Operations (first byte % 8): 0 a method of the class (u8 index into the
 * class's methods, u32 data); 1 any method address (u16 dword address from
 * 0x100, u32 data); 2 a copy set-up below 2 MiB (u24 in, u24 out, u16 length,
 * u8 lines, u8 pitch step); 3 LAUNCH_DMA (u32); 4 submit the pending
 * methods and run (u16 ns * 64); 5 guest memory write (u24 offset, u32);
 * 6 clear ENG_FAULTED (u8: bit 0 also skips METHOD0); 7 switch channel.
 *
 * The copy class is the input's length modulo 5: 0 C3B5 bound by SET_OBJECT,
 * else C5B5, C6B5, C7B5 or C8B5 as the engines' own class (what a Host
 * generation with that ce_class gives them; no SET_OBJECT), so every class
 * table is fuzzed with the same operations.
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "engine/engine.h"
#include "fuzz.h"
#include "nvmodel/host.h"
#include "nvmodel/nvmodel.h"

#define VRAM     (8u << 20)
#define INST(i)  (0x200000u + (i)*0x1000u)
#define USERD(i) (0x210000u + (i)*0x200u)
#define GPF(i)   (0x220000u + (i)*0x1000u)
#define PB(i)    (0x240000u + (i)*0x10000u)
#define RL(i)    (0x280000u + (i)*0x1000u)
#define NCH      2u
#define PB_WORDS 0x4000u

/* The run budget (fz_run): units per run, for the whole input (a unit is
 * about 4 KiB copied). */
#define FZ_RUN  16u
#define FZ_POOL 128u

static const uint32_t methods[] = { 0x100, 0x140, 0x240, 0x244, 0x248, 0x254, 0x258, 0x25c, 0x260, 0x264, 0x300, 0x400,
	                            0x404, 0x408, 0x40c, 0x410, 0x414, 0x418, 0x41c, 0x700, 0x704, 0x708, 0x70c, 0x710,
	                            0x714, 0x718, 0x71c, 0x720, 0x728, 0x72c, 0x730, 0x734, 0x738, 0x73c, 0x744, 0x748,
	                            0x74c, 0x750, 0x1114,
	                            /* C7B5, C8B5 */
	                            0x21c, 0x220, 0x224, 0x24c, 0x500, 0x514, 0x518, 0x530, 0x534, 0x538, 0x53c,
	                            0x6fc };

static void w32(nvm_gpu *g, uint64_t a, uint32_t v)
{
	nvm_mem_wr32(g, NVM_AP_VRAM, a, v);
}

/* Page tables from PDB (PDE3) on: PDE2, PDE1 and a dual PDE0 whose 2 MiB
 * slots map VA 0..4 MiB to VRAM 0..4 MiB and leave VA 4..6 MiB sparse (VOL
 * only). Guest data lives below 2 MiB, the channel structures above. */
#define PDB 0x2f0000u
static void page_tables(nvm_gpu *g)
{
	w32(g, PDB, ((PDB + 0x1000) >> 12) << 8 | 2);
	w32(g, PDB + 0x1000, ((PDB + 0x2000) >> 12) << 8 | 2);
	w32(g, PDB + 0x2000, ((PDB + 0x3000) >> 12) << 8 | 2);
	w32(g, PDB + 0x3000, 1);
	w32(g, PDB + 0x3010, (0x200000u >> 12) << 8 | 1);
	w32(g, PDB + 0x3020, 1u << 3);
}

static void channel(nvm_gpu *g, uint32_t i)
{
	uint32_t f = INST(i);
	w32(g, f + 128 * 4, PDB | 1u << 10 | 1u << 11); /* PAGE_DIR_BASE, ver2, 64 KiB big pages */
	w32(g, f + 0x08, USERD(i));
	w32(g, f + 0x10, 0xface);
	w32(g, f + 0x30, 0x7ffff902);
	w32(g, f + 0x48, GPF(i));
	w32(g, f + 0x4c, 9u << 16);
	w32(g, f + 0x84, 0x20400000);
	w32(g, f + 0x94, 0x30000fff);
	w32(g, f + 0xac, 3u << 16);
	w32(g, f + 0xf4, 0x1100);
	nvm_reg_write(g, 0x800000 + i * 8, 0x80000000u | INST(i) >> 12);
	nvm_reg_write(g, 0x800004 + i * 8, 0x400);
}

/* Channel 0 alone on runlist 1 (ce2), channel 1 alone on runlist 0 (GR,
 * whose subchannel 4 is GRCOPY). */
static void runlists(nvm_gpu *g)
{
	for (uint32_t i = 0; i < NCH; i++) {
		uint32_t rl[] = { 128u << 24 | 3u << 16 | 1, 1, i, 0, USERD(i), 0, INST(i) | i, 0 };
		nvm_mem_write(g, NVM_AP_VRAM, RL(i), rl, sizeof(rl));
		nvm_reg_write(g, 0x2270, RL(i) >> 12);
		nvm_reg_write(g, 0x2274, (i ? 0u : 1u) << 20 | 2);
	}
}

struct fz {
	nvm_gpu *g;
	uint32_t ch;
	uint32_t gp_put[NCH], pb_used[NCH], pb_start[NCH];
	struct fz_budget b;
};

/* One method (INC header + data) into the current channel's pushbuffer. */
static void method(struct fz *f, uint32_t m, uint32_t data)
{
	uint32_t c = f->ch;
	if (f->pb_used[c] + 2 > PB_WORDS)
		return;
	uint32_t sub = c ? 4 : 1;
	w32(f->g, PB(c) + 4 * f->pb_used[c], 0x20000000u | 1u << 16 | sub << 13 | (m >> 2 & 0x1fff));
	w32(f->g, PB(c) + 4 * f->pb_used[c] + 4, data);
	f->pb_used[c] += 2;
}

/* The pending words of the current channel as one GP entry; the doorbell. */
static void submit(struct fz *f)
{
	uint32_t c = f->ch, n = f->pb_used[c] - f->pb_start[c];
	if (n) {
		uint64_t va = PB(c) + 4ull * f->pb_start[c];
		w32(f->g, GPF(c) + f->gp_put[c] * 8, (uint32_t)va);
		w32(f->g, GPF(c) + f->gp_put[c] * 8 + 4, (uint32_t)(va >> 32) | n << 10);
		f->gp_put[c] = (f->gp_put[c] + 1) % 512;
		f->pb_start[c] = f->pb_used[c];
	}
	w32(f->g, USERD(c) + 0x8c, f->gp_put[c]);
	nvm_reg_write(f->g, 0x810090, c);
}

static void copy_setup(struct fz *f, struct fz_in *in)
{
	uint32_t src = fz_take(in, 3) & 0x1fffff, dst = fz_take(in, 3) & 0x1fffff;
	uint32_t len = fz_take(in, 2), lines = fz_take(in, 1), step = fz_take(in, 1);
	method(f, 0x400, 0);
	method(f, 0x404, src);
	method(f, 0x408, 0);
	method(f, 0x40c, dst);
	method(f, 0x410, len + step);
	method(f, 0x414, len + (step >> 4));
	method(f, 0x418, len);
	method(f, 0x41c, lines);
}

static void op(struct fz *f, struct fz_in *in)
{
	switch (fz_take(in, 1) % 8) {
	case 0: {
		uint32_t m = methods[fz_take(in, 1) % (sizeof(methods) / sizeof(methods[0]))];
		method(f, m, fz_take(in, 4));
		break;
	}
	case 1: {
		uint32_t m = 0x100 + 4 * (fz_take(in, 2) % 0x7c0);
		method(f, m, fz_take(in, 4));
		break;
	}
	case 2: copy_setup(f, in); break;
	case 3: method(f, 0x300, fz_take(in, 4)); break;
	case 4:
		submit(f);
		fz_run(f->g, (uint64_t)fz_take(in, 2) * 64, &f->b);
		break;
	case 5: w32(f->g, (fz_take(in, 3) & ~3u) % (2u << 20), fz_take(in, 4)); break;
	case 6:
		if (fz_take(in, 1) & 1)
			w32(f->g, INST(f->ch) + 0xc0, 0); /* RAMFC METHOD0: skip the parked method */
		nvm_reg_write(f->g, 0x800004 + f->ch * 8, 1u << 23);
		break;
	default: f->ch = (f->ch + 1) % NCH; break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nvm_config cfg = { .chip = "gv100", .vram_size = VRAM, .sysmem_size = 1u << 20, .mem_budget = 16u << 20 };
	struct fz f = { .b = { FZ_RUN, FZ_POOL } };
	if (nvm_open(&cfg, &f.g))
		return 0;
	nvm_method_log_config(f.g, "ce2", 16);
	nvm_method_log_config(f.g, "grce", 16);
	page_tables(f.g);
	for (uint32_t i = 0; i < NCH; i++)
		channel(f.g, i);
	runlists(f.g);
	fz_run(f.g, 20000, &f.b);
	static const uint32_t classes[5] = { 0xc3b5, 0xc5b5, 0xc6b5, 0xc7b5, 0xc8b5 };
	uint32_t cls = classes[size % 5];
	for (struct engine *e = f.g->engines; e && cls != 0xc3b5; e = e->next)
		engine_ce_set_class(e, cls); /* NVM_ERR_NOENT for GR: not a copy engine */
	for (uint32_t i = 0; i < NCH && cls == 0xc3b5; i++) {
		f.ch = i;
		method(&f, 0x000, 0xc3b5); /* SET_OBJECT VOLTA_DMA_COPY_A */
	}
	f.ch = 0;
	struct fz_in in = { data, size };
	for (unsigned n = 0; in.n && n < 256; n++)
		op(&f, &in);
	for (uint32_t i = 0; i < NCH; i++) {
		f.ch = i;
		submit(&f);
	}
	f.b.run *= 4; /* the last run may finish longer copies */
	fz_run(f.g, 1000000, &f.b);
	nvm_close(f.g);
	return 0;
}
