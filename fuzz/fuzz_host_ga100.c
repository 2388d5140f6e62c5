/*
 * Fuzz target: the Ampere Host (ga100) running channels, as fuzz_host.c does
 * for Volta, through Ampere's register spaces: the device-info table, the
 * per-runlist spaces (SUBMIT_BASE_LO/HI, SUBMIT, SUBMIT_INFO, INTERNAL_DOORBELL,
 * SCHED_DISABLE, PREEMPT, INTR_0 and its enable trees, INTR_RETRIGGER), the
 * channel RAM (CHRAM set/clear writes), the PBDMAs at a 0x800 stride with
 * their INTR_0/1 enable trees, the VF doorbell handles at 0xBB0090 and C56F's
 * CLEAR_FAULTED by handle. Runlist entries carry INST and USERD (RAMFC has no
 * USERD). A skeleton a driver would build (identity-mapped page tables, four
 * channels, one runlist on the GR runlist) is set up first; then the input is
 * a sequence of operations, every run with a small work budget.
 *
 * Operations (first byte & 7): 0 mem write (u24 dword index, u32 value),
 * 1 register write (u8 selector, u8 index, u32 value), 2 push (u8 channel,
 * u8 count, u8 GP flags, count u32 words), 3 run (u16 ns * 16), 4 submit
 * the runlist, 5 clear PBDMA interrupts and METHOD0, 6 CPU write of a u32
 * into the semaphore page, 7 toggle method CRCs (no CRC_CHECK in C56F).
 * A push of 0 words makes a control entry: OPCODE (GP flags >> 4) & 7, the
 * PB address as its operand if GP flags bit 3, else 0 (gh100: OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE).
 * fuzz_host_gh100.c builds this file for gh100 (FZ_HOPPER: ver3 page
 * tables, RAMFC GP_BASE_HI without LIMIT2 and GP_INFO).
 */
#include <stdint.h>
#include <string.h>

#include "nvmodel/host.h"
#include "fuzz.h"
#include "nvmodel/nvmodel.h"

#ifndef FZ_CHIP
#define FZ_CHIP   "ga100"
#define FZ_HOPPER 0
#endif

#define VRAM     (4u << 20)
#define INST(i)  (0x10000u + (i)*0x1000u)
#define USERD(i) (0x20000u + (i)*0x200u)
#define GPF(i)   (0x30000u + (i)*0x1000u)
#define PB(i)    (0x40000u + (i)*0x10000u)
#define RL       0x80000u
#define RLB(i)   (0xC00000u + (i)*0x400u) /* the runlist spaces PTOP publishes in the model */
#define CHRAM(i) (0xC20000u + (i)*0x2000u)
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
#if FZ_HOPPER
	/* ver3: PDE4 -> PDE3 -> PDE2 -> PDE1 -> dual PDE0 whose slot 0 is a
	 * 2 MiB PTE at PA 0 (ADDRESS in place, APERTURE 2:1 VID_MEM). */
	w32(g, 0x0000, 0x1000 | 2);
	w32(g, 0x1000, 0x2000 | 2);
	w32(g, 0x2000, 0x3000 | 2);
	w32(g, 0x3000, 0x4000 | 2);
	w32(g, 0x4000, 1);
#else
	/* PDE3 -> PDE2 -> PDE1 -> dual PDE0 whose slot 0 is a 2 MiB PTE at PA 0. */
	w32(g, 0x0000, (0x1000 >> 12) << 8 | 2);
	w32(g, 0x1000, (0x2000 >> 12) << 8 | 2);
	w32(g, 0x2000, (0x3000 >> 12) << 8 | 2);
	w32(g, 0x3000, 1);
#endif
	for (uint32_t i = 0; i < NCH; i++) {
		uint32_t f = INST(i);
		w32(g, f + 128 * 4, 0 | 1u << 10 | 1u << 11);
		w32(g, f + 0x10, 0xface);
		w32(g, f + 0x30, 0x7ffff902);
		w32(g, f + 0x48, GPF(i));
		w32(g, f + 0x4c, FZ_HOPPER ? 0 : 9u << 16); /* LIMIT2 */
		if (FZ_HOPPER)
			w32(g, f + 0xa4, 9); /* GP_INFO LIMIT2 */
		w32(g, f + 0x84, 0x20400000);
		w32(g, f + 0x94, 0x30000fff);
		w32(g, f + 0xac, 3u << 16);
		w32(g, f + 0xf4, 0x1100);
		w32(g, f + 0xf8, 0x80000000u);
		nvm_reg_write(g, CHRAM(0) + i * 4, 2); /* ENABLE_CHANNEL */
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
	nvm_reg_write(g, RLB(0) + 0x120, 0x000f1307); /* INTR_0_EN_SET_TREE(0) */
	nvm_reg_write(g, 0x40170, 0xffffffffu);       /* PBDMA 0 INTR_0_EN_SET_TREE(0) */
	nvm_reg_write(g, 0x160, 1u << 8);
	nvm_reg_write(g, RLB(0) + 0x080, RL);
	nvm_reg_write(g, RLB(0) + 0x084, 0);
	nvm_reg_write(g, RLB(0) + 0x088, 6);
}

/* Host registers worth poking (with an element index where they are arrays). */
static uint32_t reg_addr(uint32_t sel, uint32_t idx)
{
	static const uint32_t rl[] = { 0x080, 0x084, 0x088, 0x08c, 0x090, 0x094, 0x098, 0x100, 0x110,
		                       0x120, 0x128, 0x140, 0x148, 0x160, 0x174, 0x180, 0x200, 0x300 };
	static const uint32_t pb[] = { 0x000, 0x010, 0x014, 0x04c, 0x0a4, 0x084, 0x088, 0x094, 0x0ac, 0x0c0,
		                       0x0f4, 0x108, 0x148, 0x168, 0x170, 0x174, 0x180, 0x184, 0x190, 0x1a0 };
	switch (sel % 5) {
	case 0: return RLB(idx % 6) + rl[(sel / 5) % (sizeof(rl) / sizeof(rl[0]))]; /* one past the 5 runlists */
	case 1: return 0x40000 + (idx % 7) * 0x800 + pb[(sel / 5) % (sizeof(pb) / sizeof(pb[0]))];
	case 2: return CHRAM(0) + ((uint32_t)idx * 37 % (5 * 2048)) * 4;
	case 3: return 0x22800 + (idx % 70) * 4;  /* PTOP (read-only) */
	default: return 0xbb0080 + (idx % 6) * 4; /* VF TIME, DOORBELL */
	}
}

/* A doorbell handle: mostly valid (runlist 0 or ALL | chid), sometimes the
 * raw value (invalid bits, runlists). */
static uint32_t handle(uint32_t ch, uint32_t fl)
{
	return fl & 0x80 ? ch | (fl & 0x70) << 12 | (fl & 0x0f) << 20 : ((fl & 0x40 ? 5u : 0u) << 16) | ch;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nvm_config cfg = { .chip = FZ_CHIP, .vram_size = VRAM, .sysmem_size = 1u << 20, .mem_budget = 8u << 20 };
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
			uint32_t e0 = (uint32_t)va | ((fl >> 3) & 1u);
			if (n == 0) { /* a control entry: OPCODE, and OPERAND 0 or the PB address */
				e1 = (fl >> 4) & 7u;
				e0 = fl & 8u ? (uint32_t)va : 0;
			}
			w32(g, GPF(ch) + gp_put[ch] * 8, e0);
			w32(g, GPF(ch) + gp_put[ch] * 8 + 4, e1);
			gp_put[ch] = (gp_put[ch] + 1) % 512;
			w32(g, USERD(ch) + 0x8c, gp_put[ch]);
			nvm_reg_write(g, fl & 0x20 ? RLB(0) + 0x090 : 0xbb0090, fl & 0x20 ? ch : handle(ch, fl));
			break;
		}
		case 3: fz_run(g, (uint64_t)fz_take(&in, 2) * 16, &b); break;
		case 4: {
			uint32_t id = fz_take(&in, 1);
			nvm_reg_write(g, RLB(id % 6) + 0x080, RL | ((id >> 4) & 3));
			nvm_reg_write(g, RLB(id % 6) + 0x088, (id >> 6) & 7);
			break;
		}
		case 5:
			for (uint32_t i = 0; i < 6; i++) {
				nvm_reg_write(g, 0x400c0 + i * 0x800, 0);
				nvm_reg_write(g, 0x40108 + i * 0x800, 0xffffffffu);
				nvm_reg_write(g, 0x40148 + i * 0x800, 0xffffffffu);
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
