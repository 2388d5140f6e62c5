/*
 * Fuzz target: PFIFO of NV01 and NV03 (src/pfifo/pio01.c). The first byte
 * picks the chip; rivafb's setup (NV03: RAMHT at 0, RAMRO 0x2000, RAMFC
 * 0x2200; NV01: PRAM CONFIG 0) with two objects per channel in RAMHT (a
 * PGRAPH one and a SOFTWARE one) is built so inputs reach the puller
 * quickly. Then the input is a sequence of operations:
 *
 * (first byte & 7) 0 RAMIN write (u16 address, u32; NV03 through the RAMIN
 * BAR, NV01 through PRAMIN or, with bit 15, the PRAMHT/PRAMFC/PRAMRO
 * windows), 1 register write (u8 selector, u32), 2 USER store (u24 offset,
 * u32, u8 size: any width and alignment, any of the 128 channels), 3 USER
 * read (u24 offset), 4 run (u16 ns * 16), 5 the driver's recovery (RAMRO
 * emptied, PULL_CTRL written, GET stepped over the stuck entry, INTR acked),
 * 6 CACHE0 injection (u8 channel, u16 address, u32 data, u24 context),
 * 7 CACHE1 array write (u8 index, u32, u32).
 *
 * Checked: FREE never exceeds 0x3fc and its bits 31:16 are 0 (what a
 * driver reading it with 32 bits relies on); RUNOUT_STATUS is EMPTY
 * exactly when RUNOUT_PUT == RUNOUT_GET.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "nvmodel/pfifo.h"

#define FZ_RUN  8u
#define FZ_POOL 64u

struct fz {
	nvm_gpu *g;
	bool nv3;
};

static void ri(struct fz *z, uint32_t a, uint32_t v)
{
	if (z->nv3) {
		uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
		nvm_pfifo_ramin_bar_write(z->g, a & 0xfffc, b, 4);
	} else {
		nvm_reg_write(z->g, 0x700000 + (a & 0xfffc), v);
	}
}

static uint32_t reg_addr(bool is_nv3, uint32_t sel)
{
	static const uint32_t nv1[] = {
		0x2040, 0x2080, 0x2100, 0x2140, 0x2200, 0x2400, 0x2410, 0x2420, 0x2500, 0x3000,
		0x3010, 0x3020, 0x3030, 0x3040, 0x3050, 0x3070, 0x3080, 0x3100, 0x3104, 0x3200,
		0x3210, 0x3220, 0x3230, 0x3240, 0x3250, 0x3270, 0x3280, 0x32f0, 0x200,  0x602200
	};
	static const uint32_t nv3[] = { 0x2040, 0x2080, 0x2100, 0x2140, 0x2200, 0x2210, 0x2214, 0x2218, 0x2400,
		                        0x2410, 0x2420, 0x2500, 0x3000, 0x3004, 0x3010, 0x3014, 0x3040, 0x3070,
		                        0x3080, 0x3100, 0x3104, 0x3200, 0x3204, 0x3210, 0x3214, 0x3218, 0x3220,
		                        0x3240, 0x3250, 0x3270, 0x3280, 0x32f0, 0x200 };
	return is_nv3 ? nv3[sel % (sizeof(nv3) / sizeof(nv3[0]))] : nv1[sel % (sizeof(nv1) / sizeof(nv1[0]))];
}

static void skeleton(struct fz *z)
{
	nvm_gpu *g = z->g;
	nvm_reg_write(g, 0x200, 0xffff00ffu);
	nvm_reg_write(g, 0x200, 0xffffffffu);
	if (z->nv3) {
		nvm_reg_write(g, 0x2210, 0);
		nvm_reg_write(g, 0x2218, 0x2000);
		nvm_reg_write(g, 0x2214, 0x2200);
	}
	for (uint32_t c = 0; c < 4; c++)
		for (uint32_t o = 0; o < 2; o++) {
			uint32_t h = 0x80000000u | c << 8 | o,
			         slot = (0x80 ^ c ^ o ^ c) & 0xff; /* XOR of the bytes, ^ chid */
			/* context: type 0x42 / 0x10, engine PGRAPH / SOFTWARE (NV3 bit 23, NV1 bit 22) */
			uint32_t ctx = o ? 0x100000u : 0x420000u | (z->nv3 ? 0x800000u : 0) | (0x340u + c);
			ri(z, slot * 16 + 8 * o, h);
			ri(z, slot * 16 + 8 * o + 4, ctx | c << 24);
		}
	nvm_reg_write(g, 0x3200, 1);
	nvm_reg_write(g, 0x3240, 1);
	nvm_reg_write(g, 0x2500, 1);
	nvm_reg_write(g, 0x2140, 0xffffffffu);
}

static void check_free(struct fz *z, uint32_t off)
{
	uint32_t v = 0, st = 0, put = 0, get = 0;
	nvm_reg_read(z->g, 0x800000 + (off & 0x7f0000) + 0x10, &v);
	if (v > 0x3fc || (v & 3)) {
		fprintf(stderr, "fuzz_pio01: FREE 0x%08x\n", v);
		abort();
	}
	nvm_reg_read(z->g, 0x2400, &st);
	nvm_reg_read(z->g, 0x2410, &put);
	nvm_reg_read(z->g, 0x2420, &get);
	if (!!(st & 0x10) != (put == get)) {
		fprintf(stderr, "fuzz_pio01: RUNOUT_STATUS 0x%x with PUT 0x%x GET 0x%x\n", st, put, get);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	struct fz z = { 0 };
	z.nv3 = fz_take(&in, 1) & 1;
	nvm_config cfg = { .chip = z.nv3 ? "nv03" : "nv01", .vram_size = 4u << 20, .sysmem_size = 1u << 20 };
	if (nvm_open(&cfg, &z.g))
		return 0;
	nvm_method_log_config(z.g, "pgraph", 64);
	nvm_method_log_config(z.g, "software", 16);
	skeleton(&z);
	struct fz_budget b = { FZ_RUN, FZ_POOL };
	for (unsigned ops = 0; in.n && ops < 64; ops++) {
		switch (fz_take(&in, 1) & 7) {
		case 0: {
			uint32_t a = fz_take(&in, 2), v = fz_take(&in, 4);
			if (!z.nv3 && (a & 0x8000))
				nvm_reg_write(z.g, 0x640000 + (a & 0x3) * 0x8000 + (a & 0x3ffc), v);
			else
				ri(&z, a, v);
			break;
		}
		case 1: {
			uint32_t sel = fz_take(&in, 1), v = fz_take(&in, 4);
			nvm_reg_write(z.g, reg_addr(z.nv3, sel), v);
			break;
		}
		case 2: {
			uint32_t off = fz_take(&in, 3) & 0x7fffff, v = fz_take(&in, 4), sz = fz_take(&in, 1) % 3;
			if (off + 4 > 0x800000)
				off -= 4;
			nvm_pfifo_user_write(z.g, 0x800000 + off, v, sz == 0 ? 4 : sz);
			check_free(&z, off);
			break;
		}
		case 3: {
			uint32_t off = fz_take(&in, 3) & 0x7ffffc, v;
			nvm_reg_read(z.g, 0x800000 + off, &v);
			break;
		}
		case 4: fz_run(z.g, (uint64_t)fz_take(&in, 2) * 16, &b); break;
		case 5: {
			uint32_t put = 0, get = 0, gr = 0x3270; /* CACHE1 GET on both */
			nvm_reg_read(z.g, 0x2410, &put);
			nvm_reg_write(z.g, 0x2420, put);
			nvm_reg_write(z.g, 0x3240, 1);
			nvm_reg_read(z.g, gr, &get);
			uint32_t i = (get >> 2) & 31;
			i ^= i >> 1;
			i ^= i >> 2;
			i ^= i >> 4;
			i = (i + 1) & 31;
			nvm_reg_write(z.g, gr, (i ^ i >> 1) << 2);
			nvm_reg_write(z.g, 0x2100, 0xffffffffu);
			break;
		}
		case 6: {
			uint32_t c = fz_take(&in, 1), a = fz_take(&in, 2), d = fz_take(&in, 4), ctx = fz_take(&in, 3);
			uint32_t get = 0;
			nvm_reg_write(z.g, z.nv3 ? 0x3004 : 0x3010, c);
			nvm_reg_write(z.g, 0x3080, ctx);
			nvm_reg_write(z.g, 0x3100, a);
			nvm_reg_write(z.g, 0x3104, d);
			nvm_reg_read(z.g, 0x3070, &get);
			nvm_reg_write(z.g, z.nv3 ? 0x3010 : 0x3030, get ^ 4u);
			nvm_reg_write(z.g, 0x3040, 1);
			break;
		}
		default: {
			uint32_t i = fz_take(&in, 1) & 31, a = fz_take(&in, 4), d = fz_take(&in, 4);
			nvm_reg_write(z.g, 0x3300 + 8 * i, a);
			nvm_reg_write(z.g, 0x3304 + 8 * i, d);
			break;
		}
		}
	}
	b.run *= 4;
	fz_run(z.g, 100000, &b);
	nvm_close(z.g);
	return 0;
}
