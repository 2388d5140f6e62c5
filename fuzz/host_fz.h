/*
 * What the Host fuzz targets share (fuzz_host.c for gv100, fuzz_host_tu102.c,
 * fuzz_host_ga100.c and fuzz_host_gh100.c): the memory plan of the skeleton
 * a driver would build, its runlist of two TSGs, the RAMFC words every
 * generation fills alike, and the operation loop. A target gives its chip
 * and what goes through the chip's own registers (struct host_fz).
 *
 * Operations (first byte & 7): 0 mem write (u24 dword index, u32 value),
 * 1 register write (u8 selector, u8 index, u32 value; the target's
 * reg_addr), 2 push (u8 channel, u8 count, u8 GP flags, count u32 words;
 * the target's doorbell), 3 run (u16 ns * 16), 4 submit the runlist (u8,
 * the target's submit), 5 clear the PBDMA interrupts and METHOD0 that are
 * set, 6 CPU write of a u32 into the semaphore page, 7 toggle method CRCs.
 * With control_entries, a push of 0 words makes a GP control entry: OPCODE
 * (GP flags >> 4) & 7, the PB address as its operand if GP flags bit 3,
 * else 0.
 */
#ifndef NVM_HOST_FZ_H
#define NVM_HOST_FZ_H
#include <stdbool.h>
#include <stdint.h>

#include "fuzz.h"
#include "nvmodel/host.h"
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

struct host_fz {
	const char *chip;
	void (*skeleton)(nvm_gpu *g);                           /* page tables, channels, the first submit */
	uint32_t (*reg_addr)(uint32_t sel, uint32_t idx);       /* op 1 */
	void (*doorbell)(nvm_gpu *g, uint32_t ch, uint32_t fl); /* op 2, after the GP entry */
	void (*submit)(nvm_gpu *g, uint32_t id);                /* op 4 */
	uint32_t npbdma, pbdma_stride;                          /* op 5: the PBDMAs at 0x40000 */
	bool control_entries;                                   /* op 2: 0 words make a control entry */
};

static inline void w32(nvm_gpu *g, uint64_t a, uint32_t v)
{
	nvm_mem_wr32(g, NVM_AP_VRAM, a, v);
}

/* ver2 page tables: PDE3 -> PDE2 -> PDE1 -> dual PDE0 whose slot 0 is a
 * 2 MiB PTE at PA 0. */
static inline void hfz_page_tables_v2(nvm_gpu *g)
{
	w32(g, 0x0000, (0x1000 >> 12) << 8 | 2);
	w32(g, 0x1000, (0x2000 >> 12) << 8 | 2);
	w32(g, 0x2000, (0x3000 >> 12) << 8 | 2);
	w32(g, 0x3000, 1);
}

/* The instance block words every generation fills alike: the page
 * directory, SIGNATURE, ACQUIRE, GP_BASE, PB_HEADER, SUBDEVICE, TARGET,
 * CONFIG. */
static inline void hfz_ramfc(nvm_gpu *g, uint32_t i)
{
	uint32_t f = INST(i);
	w32(g, f + 128 * 4, 0 | 1u << 10 | 1u << 11);
	w32(g, f + 0x10, 0xface);
	w32(g, f + 0x30, 0x7ffff902);
	w32(g, f + 0x48, GPF(i));
	w32(g, f + 0x84, 0x20400000);
	w32(g, f + 0x94, 0x30000fff);
	w32(g, f + 0xac, 3u << 16);
	w32(g, f + 0xf4, 0x1100);
}

/* Two TSGs of two channels at RL; channel 1 on runqueue 1. */
static inline void hfz_runlist(nvm_gpu *g)
{
	const uint32_t rl[] = { 128u << 24 | 3u << 16 | 1,
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
}

/* Volta's and Turing's skeleton up to the submit: the page tables, RAMFC
 * with USERD and LIMIT2, each channel bound and enabled in PCCSR, the
 * runlist. */
static inline void hfz_volta_channels(nvm_gpu *g)
{
	hfz_page_tables_v2(g);
	for (uint32_t i = 0; i < NCH; i++) {
		hfz_ramfc(g, i);
		w32(g, INST(i) + 0x08, USERD(i));
		w32(g, INST(i) + 0x4c, 9u << 16);
		nvm_reg_write(g, 0x800000 + i * 8, 0x80000000u | INST(i) >> 12);
		nvm_reg_write(g, 0x800004 + i * 8, 0x400);
	}
	hfz_runlist(g);
}

/* Op 2: count words into channel ch's pushbuffer, one GP entry for them,
 * GP_PUT in USERD, the doorbell. */
static inline void hfz_push(const struct host_fz *t, nvm_gpu *g, struct fz_in *in, uint32_t *gp_put, uint32_t *pb_used)
{
	uint32_t ch = fz_take(in, 1) % NCH;
	uint32_t n = fz_take(in, 1);
	uint32_t fl = fz_take(in, 1);
	uint64_t va = PB(ch) + pb_used[ch];
	for (uint32_t i = 0; i < n; i++) {
		if (pb_used[ch] + 4 > 0x10000)
			pb_used[ch] = 0;
		w32(g, PB(ch) + pb_used[ch], fz_take(in, 4));
		pb_used[ch] += 4;
	}
	uint32_t e1 = (uint32_t)(va >> 32) | n << 10 | (fl & 1u) << 9 | (fl & 2u) << 30 | (fl & 4u) << 6;
	uint32_t e0 = (uint32_t)va | ((fl >> 3) & 1u);
	if (n == 0 && t->control_entries) { /* OPCODE, and OPERAND 0 or the PB address */
		e1 = (fl >> 4) & 7u;
		e0 = fl & 8u ? (uint32_t)va : 0;
	}
	w32(g, GPF(ch) + gp_put[ch] * 8, e0);
	w32(g, GPF(ch) + gp_put[ch] * 8 + 4, e1);
	gp_put[ch] = (gp_put[ch] + 1) % 512;
	w32(g, USERD(ch) + 0x8c, gp_put[ch]);
	t->doorbell(g, ch, fl);
}

/* Op 5: only what is set (a write of nothing to clear would cost every
 * other PBDMA an interrupt update and a scheduling pass per input). */
static inline void hfz_clear_pbdmas(const struct host_fz *t, nvm_gpu *g)
{
	static const uint32_t clr[3][2] = { { 0xc0, 0 }, { 0x108, 0xffffffffu }, { 0x148, 0xffffffffu } };
	for (uint32_t i = 0; i < t->npbdma; i++)
		for (unsigned k = 0; k < 3; k++) {
			uint32_t a = 0x40000 + i * t->pbdma_stride + clr[k][0], v = 0;
			nvm_reg_read(g, a, &v);
			if (v)
				nvm_reg_write(g, a, clr[k][1]);
		}
}

static inline int hfz_run(const struct host_fz *t, const uint8_t *data, size_t size)
{
	nvm_config cfg = { .chip = t->chip, .vram_size = VRAM, .sysmem_size = 1u << 20, .mem_budget = 8u << 20 };
	nvm_gpu *g;
	if (nvm_open(&cfg, &g))
		return 0;
	nvm_method_log_config(g, "gr", 64);
	t->skeleton(g);
	struct fz_in in = { data, size };
	uint32_t gp_put[NCH] = { 0 }, pb_used[NCH] = { 0 };
	struct fz_budget b = { FZ_RUN, FZ_POOL };
	fz_run(g, 20000, &b);
	for (unsigned ops = 0; in.n && ops < 64; ops++) {
		uint32_t op = fz_take(&in, 1) & 7;
		switch (op) {
		case 0: {
			uint32_t idx = fz_take(&in, 3);
			uint32_t v = fz_take(&in, 4);
			w32(g, ((uint64_t)idx * 4) % VRAM, v);
			break;
		}
		case 1: {
			uint32_t sel = fz_take(&in, 1);
			uint32_t idx = fz_take(&in, 1);
			uint32_t v = fz_take(&in, 4);
			nvm_reg_write(g, t->reg_addr(sel, idx), v);
			break;
		}
		case 2: hfz_push(t, g, &in, gp_put, pb_used); break;
		case 3: fz_run(g, (uint64_t)fz_take(&in, 2) * 16, &b); break;
		case 4: t->submit(g, fz_take(&in, 1)); break;
		case 5: hfz_clear_pbdmas(t, g); break;
		case 6: {
			uint32_t a = SEM + (fz_take(&in, 1) & 0x3f) * 4;
			w32(g, a, fz_take(&in, 4));
			break;
		}
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
#endif
