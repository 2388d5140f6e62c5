/*
 * Fuzz target: the G80 PFIFO (g80, g84, g92, gt215) running channels. The
 * first byte picks the chip profile; a skeleton as nouveau's nv50/g84 code
 * builds it (two IB-mode channels and one DMA-mode channel: channel
 * structures, unpaged pushbuffer and semaphore DMA objects, a PGRAPH and a
 * SOFTWARE object in RAMHT, RAMFC, CHAN_TABLE, the playlist) is set up so
 * inputs reach deep quickly. Then the input is a sequence of operations on
 * the channel structures, the IB rings and pushbuffers, the USER areas and
 * the PFIFO registers, with runs on a small work budget.
 *
 * Operations (first byte & 7): 0 channel-structure word write (u8 channel,
 * u16 word index, u32), 1 register write (u8 selector, u32), 2 push (u8
 * channel, u8 count, count u32 words as one IB entry or up to DMA_PUT), 3
 * run (u16 ns * 16), 4 USER store (u8 channel, u8 word offset, u32), 5
 * nouveau-style recovery of every stopped unit, 6 raw IB entry (u8 channel,
 * u32, u32) and IB_PUT, 7 semaphore / system memory word (u24 offset, u32).
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/pfifo.h"

#define CHAN(c) (0x100000u + (c)*0x10000u) /* channel structures in VRAM */
#define PB(c)   (0x100000u + (c)*0x40000u) /* pushbuffers in system memory */
#define IB_OFF  0x30000u
#define SEM     0x80000u
#define PLAY    0x90000u
#define NCH     3u

/* The run budget (fz_run): units per run, for the whole input. */
#define FZ_RUN  8u
#define FZ_POOL 64u

static const char *const chips[] = { "g80", "g84", "g92", "gt215" };

struct fz {
	nvm_gpu *g;
	bool g84;
	uint32_t put[NCH], ib_put[NCH];
};

static const uint32_t chid_of[NCH] = { 1, 2, 100 };

static void vw(struct fz *z, uint32_t a, uint32_t v)
{
	nvm_mem_wr32(z->g, NVM_AP_VRAM, a, v);
}

static uint32_t ramfc(const struct fz *z, uint32_t c)
{
	return CHAN(c) + (z->g84 ? 0x5400u : 0);
}

static void ramht(struct fz *z, uint32_t c, uint32_t handle, uint32_t ctx)
{
	uint32_t h = nvm_pfifo_ramht_hash(handle, 0, 9);
	vw(z, CHAN(c) + 0x8000 + h * 8, handle);
	vw(z, CHAN(c) + 0x8000 + h * 8 + 4, ctx);
}

static void skeleton(struct fz *z)
{
	nvm_gpu *g = z->g;
	nvm_reg_write(g, 0x2044, 0x01000000u | 2000u);
	nvm_reg_write(g, 0x2140, 0xffffffffu);
	for (uint32_t c = 0; c < NCH; c++) {
		uint32_t ch = CHAN(c), fc = ramfc(z, c), chid = chid_of[c];
		bool ib = c < 2;
		/* pushbuffer object (sysmem, 256 KiB), semaphore object (VRAM page) */
		vw(z, ch + 0x6000, 0x3d | 2u << 16 | 2u << 18);
		vw(z, ch + 0x6004, PB(c) + 0x3ffff);
		vw(z, ch + 0x6008, 0); /* base 0: logical = system memory address */
		vw(z, ch + 0x6020, 0x3d | 1u << 16 | 2u << 18);
		vw(z, ch + 0x6024, SEM + 0xfff);
		vw(z, ch + 0x6028, SEM);
		vw(z, ch + 0x6040, 0x5097);
		vw(z, ch + 0x6050, 0x506e);
		ramht(z, c, 0x1000, 1u << 20 | 0x604);
		ramht(z, c, 0x2000, 0x605);
		ramht(z, c, 0x5e0, 0x602);
		vw(z, fc + 0x3c, ib ? 0x403f6078u : 0x003f6078u);
		vw(z, fc + 0x48, 0x600);
		vw(z, fc + 0x4c, 0xffffffffu);
		vw(z, fc + 0x50, PB(c) + IB_OFF);
		vw(z, fc + 0x54, 6u << 16);
		vw(z, fc + 0x08, PB(c));
		vw(z, fc + 0x10, PB(c));
		vw(z, fc + 0x7c, 0x30000001u);
		vw(z, fc + 0x80, 4u << 24 | 0x800);
		if (z->g84) {
			vw(z, fc + 0x88, (ch + 0x4400) >> 10);
			vw(z, fc + 0x98, ch >> 12);
			nvm_reg_write(g, 0x2600 + chid * 4, 0x80000000u | fc >> 8);
		} else {
			nvm_reg_write(g, 0x2600 + chid * 4, 0x80000000u | ch >> 12);
		}
		vw(z, PLAY + c * 4, chid);
	}
	nvm_reg_write(g, 0x32f4, PLAY >> 12);
	nvm_reg_write(g, 0x32ec, NCH);
	nvm_reg_write(g, 0x3200, 1);
	nvm_reg_write(g, 0x3250, 1);
	nvm_reg_write(g, 0x2500, 1);
}

static uint32_t reg_addr(uint32_t sel)
{
	static const uint32_t regs[] = {
		0x2100, 0x2140, 0x2210, 0x2500, 0x2504,  0x2044,  0x2058,  0x2600, 0x2604, 0x2608, 0x32ec, 0x32f4,
		0x3200, 0x3204, 0x3210, 0x3220, 0x3224,  0x3228,  0x322c,  0x3234, 0x3240, 0x3244, 0x3250, 0x3254,
		0x326c, 0x3270, 0x3280, 0x3314, 0x3320,  0x3328,  0x3330,  0x3334, 0x3340, 0x3344, 0x3364, 0x3400,
		0x3404, 0x3408, 0x340c, 0x3410, 0x90000, 0x90004, 0x903f8, 0x903fc /* the CACHE1 METHOD/DATA window */
	};
	return regs[sel % (sizeof(regs) / sizeof(regs[0]))];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	uint32_t pick = fz_take(&in, 1) % 4;
	const char *chip = chips[pick];
	nvm_config cfg = { .chip = chip, .vram_size = 4u << 20, .sysmem_size = 2u << 20, .mem_budget = 8u << 20 };
	struct fz z = { 0 };
	if (nvm_open(&cfg, &z.g))
		return 0;
	z.g84 = pick != 0;
	nvm_method_log_config(z.g, "pgraph", 64);
	nvm_method_log_config(z.g, "software", 16);
	skeleton(&z);
	struct fz_budget b = { FZ_RUN, FZ_POOL };
	for (unsigned ops = 0; in.n && ops < 64; ops++) {
		switch (fz_take(&in, 1) & 7) {
		case 0: {
			uint32_t c = fz_take(&in, 1) % NCH;
			uint32_t w = fz_take(&in, 2) & 0x3fff;
			uint32_t v = fz_take(&in, 4);
			vw(&z, CHAN(c) + w * 4, v);
			break;
		}
		case 1: {
			uint32_t sel = fz_take(&in, 1);
			uint32_t v = fz_take(&in, 4);
			nvm_reg_write(z.g, reg_addr(sel), v);
			break;
		}
		case 2: {
			uint32_t c = fz_take(&in, 1) % NCH;
			uint32_t n = fz_take(&in, 1);
			if (z.put[c] + 4 * n + 4 > IB_OFF)
				z.put[c] = 0;
			uint32_t start = PB(c) + z.put[c];
			for (uint32_t i = 0; i < n; i++) {
				nvm_mem_wr32(z.g, NVM_AP_SYSMEM, PB(c) + z.put[c], fz_take(&in, 4));
				z.put[c] += 4;
			}
			uint32_t u = 0xc00000u + chid_of[c] * 0x2000u;
			if (c < 2) {
				uint32_t e = PB(c) + IB_OFF + (z.ib_put[c] & 63) * 8;
				nvm_mem_wr32(z.g, NVM_AP_SYSMEM, e, start);
				nvm_mem_wr32(z.g, NVM_AP_SYSMEM, e + 4, n << 10);
				z.ib_put[c] = (z.ib_put[c] + 1) & 63;
				nvm_reg_write(z.g, u + 0x8c, z.ib_put[c]);
			} else {
				nvm_reg_write(z.g, u + 0x40, PB(c) + z.put[c]);
			}
			break;
		}
		case 3: fz_run(z.g, (uint64_t)fz_take(&in, 2) * 16, &b); break;
		case 4: {
			uint32_t c = fz_take(&in, 1);
			uint32_t off = fz_take(&in, 1) * 4;
			uint32_t v = fz_take(&in, 4);
			nvm_reg_write(z.g, 0xc00000u + (c & 0x7f) * 0x2000u + off, v);
			break;
		}
		case 5:
			nvm_reg_write(z.g, 0x3228, 0);
			nvm_reg_write(z.g, 0x3220, 1);
			nvm_reg_write(z.g, 0x3250, 1);
			nvm_reg_write(z.g, 0x2100, 0xffffffffu);
			break;
		case 6: {
			uint32_t c = fz_take(&in, 1) % 2;
			uint32_t e0 = fz_take(&in, 4);
			uint32_t e1 = fz_take(&in, 4);
			uint32_t e = PB(c) + IB_OFF + (z.ib_put[c] & 63) * 8;
			nvm_mem_wr32(z.g, NVM_AP_SYSMEM, e, e0);
			nvm_mem_wr32(z.g, NVM_AP_SYSMEM, e + 4, e1);
			z.ib_put[c] = (z.ib_put[c] + 1) & 63;
			nvm_reg_write(z.g, 0xc00000u + chid_of[c] * 0x2000u + 0x8c, z.ib_put[c]);
			break;
		}
		default: {
			uint32_t off = fz_take(&in, 3) & 0xffffc;
			uint32_t v = fz_take(&in, 4);
			nvm_mem_wr32(z.g, off < 0x10000 ? NVM_AP_VRAM : NVM_AP_SYSMEM, off < 0x10000 ? SEM + off : off,
			             v);
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
