/*
 * Fuzz target: the Volta Host running channels. A skeleton a driver would
 * build (identity-mapped page tables, four channels with instance blocks,
 * RAMFC, USERD and GPFIFO rings, one runlist) is set up first so inputs
 * reach deep quickly; then the input is a sequence of operations that
 * overwrite guest memory (runlist, RAMFC, USERD, GPFIFO, PB, page tables),
 * write Host registers, push pushbuffer words and ring doorbells, clear
 * interrupts and run, every run with a small work budget.
 *
 * Operations (first byte & 7): 0 mem write (u24 dword index, u32 value),
 * 1 register write (u8 selector, u8 index, u32 value), 2 push (u8 channel,
 * u8 count, u8 GP flags, count u32 words), 3 run (u16 ns * 16), 4 submit
 * the runlist, 5 clear PBDMA interrupts and METHOD0, 6 CPU write of a u32
 * into the semaphore page, 7 toggle method CRCs (CRC_CHECK).
 */
#include <stdint.h>
#include <string.h>

#include "nvmodel/host.h"
#include "fuzz.h"
#include "nvmodel/nvmodel.h"

#define VRAM     (4u << 20)
#define INST(i)  (0x10000u + (i)*0x1000u)
#define USERD(i) (0x20000u + (i)*0x200u)
#define GPF(i)   (0x30000u + (i)*0x1000u)
#define PB(i)    (0x40000u + (i)*0x10000u)
#define RL       0x80000u
#define SEM      0x90000u
#define NCH      4u

/* The run budget (fz_run): units per run, for the whole input. */
#define FZ_RUN  8u
#define FZ_POOL 64u

static void w32(nvm_gpu *g, uint64_t a, uint32_t v)
{
	nvm_mem_wr32(g, NVM_AP_VRAM, a, v);
}

static void skeleton(nvm_gpu *g)
{
	/* PDE3 -> PDE2 -> PDE1 -> dual PDE0 whose slot 0 is a 2 MiB PTE at PA 0. */
	w32(g, 0x0000, (0x1000 >> 12) << 8 | 2);
	w32(g, 0x1000, (0x2000 >> 12) << 8 | 2);
	w32(g, 0x2000, (0x3000 >> 12) << 8 | 2);
	w32(g, 0x3000, 1);
	for (uint32_t i = 0; i < NCH; i++) {
		uint32_t f = INST(i);
		w32(g, f + 128 * 4, 0 | 1u << 10 | 1u << 11);
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
	/* two TSGs of two channels; channel 1 on runqueue 1 */
	uint32_t rl[] = { 128u << 24 | 3u << 16 | 1,
		          2,
		          1,
		          0,
		          USERD(0),
		          0,
		          INST(0) | 0,
		          0,
		          USERD(1) | 2,
		          0,
		          INST(1) | 1,
		          0,
		          4u << 24 | 1,
		          2,
		          2,
		          0,
		          USERD(2),
		          0,
		          INST(2) | 2,
		          0,
		          USERD(3),
		          0,
		          INST(3) | 3,
		          0 };
	nvm_mem_write(g, NVM_AP_VRAM, RL, rl, sizeof(rl));
	nvm_reg_write(g, 0x2270, RL >> 12);
	nvm_reg_write(g, 0x2274, 6);
}

/* Host registers worth poking (with an element index where they are arrays). */
static uint32_t reg_addr(uint32_t sel, uint32_t idx)
{
	static const uint32_t regs[] = { 0x2100,   0x2140,   0x2270,   0x2274,  0x2630,  0x2634,  0x2638,
		                         0x810090, 0x800000, 0x800004, 0x40000, 0x40108, 0x40148, 0x4010c,
		                         0x400c0,  0x40010,  0x40014,  0x4004c, 0x40084, 0x40088, 0x40094,
		                         0x400ac,  0x400f4,  0x2284,   0x225c };
	uint32_t a = regs[sel % (sizeof(regs) / sizeof(regs[0]))];
	if (a >= 0x800000 && a < 0x810000)
		return a + (idx % 4096) * 8;
	if (a >= 0x40000 && a < 0x60000)
		return a + (idx % 14) * 0x2000;
	return a;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nvm_config cfg = { .chip = "gv100", .vram_size = VRAM, .sysmem_size = 1u << 20, .mem_budget = 8u << 20 };
	nvm_gpu *g;
	if (nvm_open(&cfg, &g))
		return 0;
	nvm_host_log_config(g, "gr", 64);
	skeleton(g);
	struct fz_in in = { data, size };
	uint32_t gp_put[NCH] = { 0 }, pb_used[NCH] = { 0 };
	struct fz_budget b = { FZ_RUN, FZ_POOL };
	fz_run(g, 20000, &b);
	for (unsigned ops = 0; in.n && ops < 64; ops++) {
		uint32_t op = fz_take(&in, 1) & 7;
		switch (op) {
		case 0: {
			uint32_t idx = fz_take(&in, 3), v = fz_take(&in, 4);
			w32(g, ((uint64_t)idx * 4) % VRAM, v);
			break;
		}
		case 1: {
			uint32_t sel = fz_take(&in, 1), idx = fz_take(&in, 1), v = fz_take(&in, 4);
			nvm_reg_write(g, reg_addr(sel, idx), v);
			break;
		}
		case 2: {
			uint32_t ch = fz_take(&in, 1) % NCH, n = fz_take(&in, 1), fl = fz_take(&in, 1);
			uint64_t va = PB(ch) + pb_used[ch];
			for (uint32_t i = 0; i < n; i++) {
				if (pb_used[ch] + 4 > 0x10000)
					pb_used[ch] = 0;
				w32(g, PB(ch) + pb_used[ch], fz_take(&in, 4));
				pb_used[ch] += 4;
			}
			uint32_t e1 =
			        (uint32_t)(va >> 32) | n << 10 | (fl & 1u) << 9 | (fl & 2u) << 30 | (fl & 4u) << 6;
			w32(g, GPF(ch) + gp_put[ch] * 8, (uint32_t)va | ((fl >> 3) & 1u));
			w32(g, GPF(ch) + gp_put[ch] * 8 + 4, e1);
			gp_put[ch] = (gp_put[ch] + 1) % 512;
			w32(g, USERD(ch) + 0x8c, gp_put[ch]);
			nvm_reg_write(g, 0x810090, ch);
			break;
		}
		case 3: fz_run(g, (uint64_t)fz_take(&in, 2) * 16, &b); break;
		case 4:
			nvm_reg_write(g, 0x2270, RL >> 12);
			nvm_reg_write(g, 0x2274, fz_take(&in, 1) & 15);
			break;
		case 5:
			/* Only what is set: a write of nothing to clear would
			 * cost every other PBDMA a scheduling pass per input. */
			for (uint32_t i = 0; i < 14; i++) {
				static const uint32_t clr[3][2] = { { 0x400c0, 0 },
					                            { 0x40108, 0xffffffffu },
					                            { 0x40148, 0xffffffffu } };
				for (unsigned k = 0; k < 3; k++) {
					uint32_t v = 0;
					nvm_reg_read(g, clr[k][0] + i * 0x2000, &v);
					if (v)
						nvm_reg_write(g, clr[k][0] + i * 0x2000, clr[k][1]);
				}
			}
			break;
		case 6: w32(g, SEM + (fz_take(&in, 1) & 0x3f) * 4, fz_take(&in, 4)); break;
		default: nvm_host_set_method_crc(g, (int)(fz_take(&in, 1) & 1)); break;
		}
	}
	b.run *= 4; /* the last run may finish longer work */
	fz_run(g, 100000, &b);
	nvm_host_stats st;
	nvm_host_get_stats(g, &st);
	nvm_close(g);
	return 0;
}
