/*
 * Fuzz target: PFIFO of NV04..NV4x running channels. The first byte picks
 * the chip profile; a skeleton a driver would build (nouveau's RAMHT,
 * RAMFC and RAMRO placement, four DMA channels with a pushbuffer DMA object
 * each, a PGRAPH object, a software object and a semaphore DMA object in
 * RAMHT) is set up so inputs reach deep quickly. Then the input is a
 * sequence of operations on instance memory, pushbuffers, the USER areas
 * (any width and alignment) and PFIFO registers, with runs on a small work
 * budget.
 *
 * Operations (first byte & 7): 0 RAMIN write (u24: bit 23 set on NV40
 * goes through the RAMIN BAR at bits 21:0 and is read back, else PRAMIN at
 * bits 19:0; u32),
 * 1 register write (u8 selector, u32), 2 push (u8 channel, u8 count,
 * count u32 words, then DMA_PUT), 3 run (u16 ns * 16), 4 USER store (u24
 * offset, u32, u8 size), 5 nouveau-style recovery of every stopped unit,
 * 6 CPU write into the semaphore page, 7 CACHE1 entry write or, with bit
 * 15 of the index, a CACHE0 injection (u16 index, u32, u32).
 * Channel 3's pushbuffer object is paged (no PT_LINEAR) with page 8 not
 * present (DMA_PTE); the NV1A+ channels have an ACQUIRE_TIMEOUT.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/pfifo.h"

#define PB_BASE 0x100000u
#define SEM     0x300000u
#define NCH     4u

/* The run budget (fz_run): units per run, for the whole input. */
#define FZ_RUN  8u
#define FZ_POOL 64u

static const char *const chips[] = { "nv04", "nv10", "nv11", "nv17", "nv40", "nv41" };

struct fz {
	nvm_gpu *g;
	bool nv40, nv04;
	uint32_t ramfc, fsize, put[NCH];
};

static void ri(struct fz *z, uint32_t a, uint32_t v)
{
	nvm_reg_write(z->g, 0x700000 + (a & 0xffffc), v);
}

static void ramht(struct fz *z, uint32_t chid, uint32_t handle, uint32_t inst, unsigned eng, const char *chip)
{
	uint32_t ctx = 0, h = nvm_pfifo_ramht_hash(handle, chid, 12);
	if (nvm_pfifo_ramht_context(chip, inst, eng, chid, &ctx))
		return;
	for (uint32_t i = 0; i < 16; i++) {
		uint32_t a = 0x10000 + ((h + i) & 0xfff) * 8, v = 1;
		nvm_reg_read(z->g, 0x700000 + a + 4, &v);
		if (!v) {
			ri(z, a, handle);
			ri(z, a + 4, ctx);
			return;
		}
	}
}

static void skeleton(struct fz *z, const char *chip)
{
	nvm_gpu *g = z->g;
	bool large = !strcmp(chip, "nv17") || !strcmp(chip, "nv11");
	z->ramfc = z->nv40 ? 0x20000 : 0x18000;
	z->fsize = z->nv40 ? 128 : large ? 64 : 32;
	nvm_reg_write(g, 0x2210, 0x03030100);
	nvm_reg_write(g, 0x2218, (z->nv40 ? 0x18000 : 0x18800) >> 8);
	if (z->nv40) {
		nvm_reg_write(g, 0x2220, 0x00030002);
		nvm_reg_write(g, 0x2058, 1);
	} else {
		nvm_reg_write(g, 0x2214, (z->ramfc >> 8) | (large ? 0x10000u : 0));
	}
	nvm_reg_write(g, 0x3204, z->nv04 ? 15 : 31);
	nvm_reg_write(g, 0x2140, 0xffffffffu);
	nvm_reg_write(g, 0x3200, 1);
	nvm_reg_write(g, 0x3250, 1);
	nvm_reg_write(g, 0x2500, 1);
	nvm_reg_write(g, 0x2044, 0x01000000u | 2000u);
	/* objects: pushbuffer DMA objects (PCI, 64 KiB each), PGRAPH, SW, semaphore */
	for (uint32_t c = 0; c < NCH; c++) {
		uint32_t o = 0x30000 + c * 16, start = PB_BASE + c * 0x10000;
		ri(z, o, 0x3d | 0x3000u | 2u << 16);
		ri(z, o + 4, 0xffff);
		ri(z, o + 8, start | 2);
		uint32_t f = z->ramfc + c * z->fsize;
		uint32_t fetch = 0x86078u | (z->nv40 ? 0x30000000u : 0);
		ri(z, f, 0);
		ri(z, f + 4, 0);
		ri(z, f + (z->nv04 ? 8u : 12u), o >> 4);
		ri(z, f + (z->nv40 ? 0x18u : z->nv04 ? 0x10u : 0x14u), fetch);
		if (z->fsize >= 64)
			ri(z, f + (z->nv40 ? 0x2cu : 0x28u), 3000); /* ACQUIRE_TIMEOUT */
		ramht(z, c, 0x1000, 0x30100, 1, chip);
		ramht(z, c, 0x2000, 0x30110, 0, chip);
		ramht(z, c, 0x5e0, 0x30120, 0, chip);
	}
	/* channel 3: a paged pushbuffer object, page 8 not present */
	uint32_t po = 0x30200, start = PB_BASE + 3 * 0x10000;
	ri(z, po, 0x3d | 0x1000u | 2u << 16);
	ri(z, po + 4, 0xffff);
	for (uint32_t p = 0; p < 16; p++)
		ri(z, po + 8 + 4 * p, (start + p * 0x1000) | (p == 8 ? 2u : 3u));
	ri(z, z->ramfc + 3 * z->fsize + (z->nv04 ? 8u : 12u), po >> 4);
	ri(z, 0x30100, 0x62);
	ri(z, 0x30110, 0x506e);
	ri(z, 0x30120, 0x02 | 0x3000u | 2u << 14);
	ri(z, 0x30124, 0xfff);
	ri(z, 0x30128, SEM | 2);
	nvm_reg_write(g, 0x2504, (1u << NCH) - 1);
}

/* NV40 RAMIN BAR: a word written, read back whole (the same word), and an
 * unaligned read of 0..7 bytes around it. */
static void ramin_bar(struct fz *z, uint32_t off, uint32_t v)
{
	uint32_t back = ~v;
	uint8_t b[8];
	nvm_status wst = nvm_pfifo_ramin_bar_write(z->g, off, &v, 4);
	nvm_status rst = nvm_pfifo_ramin_bar_read(z->g, off, &back, 4);
	if (wst != rst || (!wst && back != v)) {
		fprintf(stderr, "fuzz_pfifo: RAMIN BAR 0x%06x: wrote 0x%08x (%d), read 0x%08x (%d)\n", off, v, wst,
		        back, rst);
		abort();
	}
	nvm_pfifo_ramin_bar_read(z->g, off + (v & 7) - 3, b, (v >> 8) & 7);
}

static uint32_t reg_addr(uint32_t sel)
{
	static const uint32_t regs[] = { 0x2100, 0x2140, 0x2210, 0x2214, 0x2218, 0x2220, 0x2410, 0x2420, 0x2500,
		                         0x2504, 0x2044, 0x2058, 0x3200, 0x3204, 0x3210, 0x3220, 0x3224, 0x3228,
		                         0x322c, 0x3240, 0x3244, 0x324c, 0x3250, 0x3254, 0x3258, 0x326c, 0x3270,
		                         0x3280, 0x3268, 0x3000, 0x3050, 0x3004, 0x3010, 0x3054, 0x3058, 0x3070,
		                         0x3080, 0x3100, 0x3104, 0x3260, 0x3264, 0x2048, 0x2050, 0x3238, 0x323c };
	return regs[sel % (sizeof(regs) / sizeof(regs[0]))];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	const char *chip = chips[fz_take(&in, 1) % 6];
	nvm_config cfg = { .chip = chip, .vram_size = 4u << 20, .sysmem_size = 2u << 20, .mem_budget = 8u << 20 };
	struct fz z = { 0 };
	if (nvm_open(&cfg, &z.g))
		return 0;
	z.nv40 = !strcmp(chip, "nv40") || !strcmp(chip, "nv41");
	z.nv04 = !strcmp(chip, "nv04");
	nvm_method_log_config(z.g, "pgraph", 64);
	nvm_method_log_config(z.g, "software", 16);
	skeleton(&z, chip);
	struct fz_budget b = { FZ_RUN, FZ_POOL };
	for (unsigned ops = 0; in.n && ops < 64; ops++) {
		switch (fz_take(&in, 1) & 7) {
		case 0: {
			uint32_t a = fz_take(&in, 3), v = fz_take(&in, 4);
			if ((a & 0x800000u) && z.nv40)
				ramin_bar(&z, a & 0x3fffffu, v);
			else
				ri(&z, a & 0xfffff, v);
			break;
		}
		case 1: {
			uint32_t sel = fz_take(&in, 1), v = fz_take(&in, 4);
			nvm_reg_write(z.g, reg_addr(sel), v);
			break;
		}
		case 2: {
			uint32_t c = fz_take(&in, 1) % NCH, n = fz_take(&in, 1);
			for (uint32_t i = 0; i < n; i++) {
				if (z.put[c] + 4 > 0xfff0)
					z.put[c] = 0;
				nvm_mem_wr32(z.g, NVM_AP_SYSMEM, PB_BASE + c * 0x10000 + z.put[c], fz_take(&in, 4));
				z.put[c] += 4;
			}
			nvm_reg_write(z.g, (z.nv40 ? 0xc00000u + c * 0x1000 : 0x800000u + c * 0x10000) + 0x40,
			              z.put[c]);
			break;
		}
		case 3: fz_run(z.g, (uint64_t)fz_take(&in, 2) * 16, &b); break;
		case 4: {
			uint32_t off = fz_take(&in, 3) % (NCH * 0x10000), v = fz_take(&in, 4), sz = fz_take(&in, 1) % 3;
			nvm_pfifo_user_write(z.g, 0x800000 + off, v, sz == 0 ? 4 : sz);
			break;
		}
		case 5:
			nvm_reg_write(z.g, 0x3244, 0);
			nvm_reg_write(z.g, 0x3240, 0);
			nvm_reg_write(z.g, 0x3228, 0);
			nvm_reg_write(z.g, 0x3220, 1);
			nvm_reg_write(z.g, 0x3250, 1);
			nvm_reg_write(z.g, 0x2100, 0xffffffffu);
			break;
		case 6: nvm_mem_wr32(z.g, NVM_AP_VRAM, SEM + (fz_take(&in, 1) & 0x3f) * 4, fz_take(&in, 4)); break;
		default: {
			uint32_t i = fz_take(&in, 2), a = fz_take(&in, 4), d = fz_take(&in, 4);
			uint32_t base = z.nv40 ? 0x90000u : 0x3800u;
			if (i & 0x8000u) {
				uint32_t get = 0;
				nvm_reg_write(z.g, 0x3004, i & 0x1ff);
				nvm_reg_write(z.g, 0x3100, a);
				nvm_reg_write(z.g, 0x3104, d);
				nvm_reg_read(z.g, 0x3070, &get);
				nvm_reg_write(z.g, 0x3010, get ^ 4u);
				nvm_reg_write(z.g, 0x3050, 1);
				break;
			}
			i &= 0x1ff;
			nvm_reg_write(z.g, base + (i & (z.nv40 ? 0x1ff : 0xff)) * 8, a);
			nvm_reg_write(z.g, base + (i & (z.nv40 ? 0x1ff : 0xff)) * 8 + 4, d);
			break;
		}
		}
	}
	b.run *= 4; /* the last run may finish longer work */
	fz_run(z.g, 100000, &b);
	nvm_pfifo_stats st;
	nvm_pfifo_get_stats(z.g, &st);
	nvm_close(z.g);
	return 0;
}
