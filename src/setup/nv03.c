/*
 * PFIFO of NV01 and NV03 as a driver sets it up (include/nvmodel/setup.h):
 * rivafb's PMC reset and nv3TablePFIFO, RAMHT entries in the bucket the
 * model's table names (nvm_pfifo_ramht_slot), PIO stores. What differs per
 * chip is data (gens[]): where RAMRO and RAMFC go, how RAMIN is reached.
 */
#include <string.h>

#include "nvmodel/setup.h"
#include "setup/setup_internal.h"

#define PRAMIN 0x700000u
#define USER   0x800000u

static const struct nv03_gen {
	const char *chip;
	uint32_t ramro, ramfc;
	int bar;
} gens[] = { { "nv01", 0x1000, 0x1800, 0 }, { "nv03", 0x2000, 0x2200, 1 }, { "nv03t", 0x2000, 0x2200, 1 } };

nvm_status nvm_nv03_ramin_wr(nvm_gpu *gpu, const nvm_nv03_fifo *f, uint32_t addr, uint32_t v)
{
	if (!gpu || !f)
		return NVM_ERR_ARG;
	if (!f->bar)
		return nvm_reg_write(gpu, PRAMIN + addr, v);
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	return nvm_pfifo_ramin_bar_write(gpu, addr, b, 4);
}

nvm_status nvm_nv03_ramin_rd(nvm_gpu *gpu, const nvm_nv03_fifo *f, uint32_t addr, uint32_t *v)
{
	if (!gpu || !f || !v)
		return NVM_ERR_ARG;
	if (!f->bar)
		return nvm_reg_read(gpu, PRAMIN + addr, v);
	uint8_t b[4];
	nvm_status st = nvm_pfifo_ramin_bar_read(gpu, addr, b, 4);
	*v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return st;
}

nvm_status nvm_nv03_fifo_init(nvm_gpu *gpu, nvm_nv03_fifo *f)
{
	const nvm_chip_info *c = gpu ? nvm_gpu_chip(gpu) : NULL;
	const struct nv03_gen *g = NULL;
	if (!f)
		return NVM_ERR_ARG;
	for (size_t i = 0; c && i < sizeof(gens) / sizeof(gens[0]); i++)
		if (!strcmp(gens[i].chip, c->name))
			g = &gens[i];
	if (!g)
		return NVM_ERR_CHIP;
	*f = (nvm_nv03_fifo){ .chip = g->chip,
		              .ramht = 0,
		              .ramht_size = 0x1000,
		              .ramro = g->ramro,
		              .ramfc = g->ramfc,
		              .bar = g->bar };
	/* PMC: interrupts off, the engines reset and enabled; PFIFO caches and pullers off */
	uint32_t regs[32][2], n = 0;
#define W(a, v) (regs[n][0] = (a), regs[n][1] = (v), n++)
	W(0x140, 0);
	W(0x200, 0xffff00ff);
	W(0x200, 0xffffffff);
	W(0x2500, 0);
	W(0x3200, 0);
	W(0x3240, 0);
	W(0x3250, 0);
	if (f->bar) {
		/* nv3TablePFIFO: RAMHT, RAMRO, RAMFC */
		W(0x3204, 0);
		W(0x2210, f->ramht);
		W(0x2218, f->ramro);
		W(0x2214, f->ramfc);
		W(0x3210, 0);
	} else {
		W(0x602200, 0); /* NV01 PRAM CONFIG 0 */
		W(0x3210, 0);
		W(0x3230, 0);
	}
	W(0x3270, 0);
	W(0x2410, 0);
	W(0x2420, 0);
	for (uint32_t i = 0; i < 8; i++)
		W(0x3280 + 0x10 * i, 0);
	W(0x2140, 0);
	W(0x2100, 0xffffffff);
	W(0x3200, 1);
	W(0x3240, 1);
	W(0x2500, 1);
#undef W
	for (uint32_t i = 0; i < n; i++) {
		nvm_status st = nvm_reg_write(gpu, regs[i][0], regs[i][1]);
		if (st)
			return st;
	}
	return NVM_OK;
}

nvm_status nvm_nv03_context(const nvm_nv03_fifo *f, unsigned type, uint32_t instance, unsigned engine, uint32_t flags,
                            uint32_t *ctx)
{
	if (!f || !ctx || type > 0x7f || engine > 1)
		return NVM_ERR_ARG;
	if (!strcmp(f->chip, "nv01")) {
		/* the type's bit 6 is the engine (0x40..0x7f: PGRAPH) */
		if (flags > 0xffff || (type >> 6) != engine)
			return NVM_ERR_ARG;
		*ctx = flags | type << 16;
		return NVM_OK;
	}
	if (instance > 0xffff0 || instance & 15)
		return NVM_ERR_ARG;
	*ctx = instance >> 4 | type << 16 | engine << 23;
	return NVM_OK;
}

nvm_status nvm_nv03_ramht_add(nvm_gpu *gpu, const nvm_nv03_fifo *f, uint32_t chid, uint32_t handle, uint32_t context,
                              uint32_t *addr)
{
	unsigned probe = 0, bits = 0;
	if (!gpu || !f || chid > 127 || context > 0xffffff)
		return NVM_ERR_ARG;
	while ((8u << bits) < f->ramht_size)
		bits++;
	uint32_t slot = nvm_pfifo_ramht_slot(f->chip, handle, chid, bits, &probe);
	for (uint32_t i = 0; i < probe; i++) {
		uint32_t a = f->ramht + (slot + i) * 8, v;
		nvm_status st = nvm_nv03_ramin_rd(gpu, f, a, &v);
		if (!st && v == 0)
			st = nvm_nv03_ramin_rd(gpu, f, a + 4, &v);
		if (st)
			return st;
		if (v == 0) {
			if ((st = nvm_nv03_ramin_wr(gpu, f, a, handle)) ||
			    (st = nvm_nv03_ramin_wr(gpu, f, a + 4, context | chid << 24)))
				return st;
			if (addr)
				*addr = a;
			return NVM_OK;
		}
	}
	return NVM_ERR_FULL;
}

nvm_status nvm_nv03_pio(nvm_gpu *gpu, uint32_t chid, unsigned subch, uint32_t method, uint32_t data)
{
	if (!gpu || chid > 127 || subch > 7 || method > 0x1ffc)
		return NVM_ERR_ARG;
	return nvm_reg_write(gpu, USER + chid * 0x10000 + subch * 0x2000 + method, data);
}
