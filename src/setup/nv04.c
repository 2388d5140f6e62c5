/*
 * PFIFO of NV04 .. NV4x as a driver sets it up (include/nvmodel/setup.h):
 * nouveau's nv04 / nv17 / nv40 fifo init, nv04_dmaobj_bind's DMA objects,
 * nvkm_ramht_insert, and DMA channels. The RAMFC fields, the RAMHT slot and
 * context word come from the model's own tables (nvmodel/pfifo.h); what
 * differs per generation here is where the driver puts RAMFC and RAMRO and
 * whether NV40's registers are used (gens[]).
 */
#include <string.h>

#include "nvmodel/setup.h"
#include "setup/setup_internal.h"

#define PRAMIN   0x700000u /* the RAMIN window in BAR0 */
#define USER     0x800000u /* NV_USER: channel * 0x10000 + subchannel * 0x2000 */
#define USER_NEW 0xc00000u /* NV40 DMA channels: channel * 0x1000 */

static const struct nv04_gen {
	const char *chip;
	uint32_t ramfc, ramro;
	int nv40;
} gens[] = {
	{ "nv04", 0x18000, 0x18800, 0 }, { "nv10", 0x18000, 0x18800, 0 }, { "nv11", 0x18000, 0x18800, 0 },
	{ "nv17", 0x18000, 0x18800, 0 }, { "nv40", 0x20000, 0x18000, 1 }, { "nv41", 0x20000, 0x18000, 1 },
};

static nvm_status ramin_wr(nvm_gpu *gpu, uint32_t addr, uint32_t v)
{
	return nvm_reg_write(gpu, PRAMIN + addr, v);
}

static nvm_status ramin_rd(nvm_gpu *gpu, uint32_t addr, uint32_t *v)
{
	return nvm_reg_read(gpu, PRAMIN + addr, v);
}

nvm_status nvm_nv04_fifo_init(nvm_gpu *gpu, nvm_nv04_fifo *f)
{
	const nvm_chip_info *c = gpu ? nvm_gpu_chip(gpu) : NULL;
	const struct nv04_gen *g = NULL;
	if (!f)
		return NVM_ERR_ARG;
	for (size_t i = 0; c && i < sizeof(gens) / sizeof(gens[0]); i++)
		if (!strcmp(gens[i].chip, c->name))
			g = &gens[i];
	if (!g)
		return NVM_ERR_CHIP;
	size_t n;
	uint32_t size, small_size;
	/* RAMFC LARGE where the chip has both layouts: the large one is not the small one. */
	const nvm_ramfc_field *big = nvm_pfifo_ramfc_layout(g->chip, 1, &n, &size);
	int large = big != nvm_pfifo_ramfc_layout(g->chip, 0, &n, &small_size);
	*f = (nvm_nv04_fifo){ .chip = g->chip,
		              .ramht = 0x10000,
		              .ramht_bits = 12,
		              .ramro = g->ramro,
		              .ramfc = g->ramfc,
		              .ramfc_size = size,
		              .nchan = nvm_pfifo_channels(g->chip),
		              .large = large,
		              .nv40 = g->nv40,
		              .next = 0x30000 };
	/* nouveau's nv04_fifo_init / nv17 / nv40: DELAY_0, DMA_TIMESLICE, RAMHT (SEARCH 128,
	 * SIZE 4K << (bits - 9)), RAMRO, RAMFC, CACHE1 PUSH1 channel, interrupts, caches on. */
	static const uint32_t nv40_regs[][2] = { { 0x2058, 1 }, { 0x2220, 0x00030002 } };
	nvm_status st;
	if ((st = nvm_reg_write(gpu, 0x2040, 0xff)) ||
	    (st = nvm_reg_write(gpu, 0x2044, f->nv40 ? 0x2101ffff : 0x0101ffff)) ||
	    (st = nvm_reg_write(gpu, 0x2210, 3u << 24 | (f->ramht_bits - 9) << 16 | f->ramht >> 8)) ||
	    (st = nvm_reg_write(gpu, 0x2218, f->ramro >> 8)))
		return st;
	if (f->nv40) {
		for (unsigned i = 0; i < 2; i++)
			if ((st = nvm_reg_write(gpu, nv40_regs[i][0], nv40_regs[i][1])))
				return st;
	} else if ((st = nvm_reg_write(gpu, 0x2214, f->ramfc >> 8 | (f->large ? 0x10000u : 0)))) {
		return st;
	}
	static const uint32_t tail[][2] = { { 0x2100, 0xffffffff }, { 0x2140, 0xffffffff }, { 0x3200, 1 },
		                            { 0x3250, 1 },          { 0x2500, 1 },          { 0x140, 1 } };
	if ((st = nvm_reg_write(gpu, 0x3204, f->nchan - 1)))
		return st;
	for (unsigned i = 0; i < sizeof(tail) / sizeof(tail[0]); i++)
		if ((st = nvm_reg_write(gpu, tail[i][0], tail[i][1])))
			return st;
	return NVM_OK;
}

nvm_status nvm_nv04_alloc(nvm_nv04_fifo *f, uint32_t size, uint32_t align, uint32_t *inst)
{
	if (!f || !inst)
		return NVM_ERR_ARG;
	if (!align)
		align = 16;
	uint64_t a = ((uint64_t)f->next + align - 1) / align * align;
	if (a + size > 0x100000) /* the PRAMIN window */
		return NVM_ERR_FULL;
	f->next = (uint32_t)(a + size);
	*inst = (uint32_t)a;
	return NVM_OK;
}

nvm_status nvm_nv04_dmaobj_write(nvm_gpu *gpu, nvm_nv04_fifo *f, const nvm_nv04_dmaobj *o, uint32_t *inst)
{
	if (!gpu || !f || !o || o->class_id > 0xfff || o->target == 1 || o->target > 3 || o->access > 2 ||
	    o->limit < o->start)
		return NVM_ERR_ARG;
	uint32_t at;
	nvm_status st;
	if (!inst || *inst == UINT32_MAX) {
		if ((st = nvm_nv04_alloc(f, 16, 16, &at)))
			return st;
	} else {
		at = *inst;
	}
	/* the page frame, PAGE_RW (bit 1) unless read-only */
	uint32_t pte = (o->start & 0xfffff000u) | (o->access != 1 ? 2u : 0);
	uint32_t w0 = o->class_id | 0x3000u | o->target << 16 | o->access << 14 | (o->start & 0xfffu) << 20;
	if ((st = ramin_wr(gpu, at, w0)) || (st = ramin_wr(gpu, at + 4, o->limit - o->start)) ||
	    (st = ramin_wr(gpu, at + 8, pte)) || (st = ramin_wr(gpu, at + 12, pte)))
		return st;
	if (inst)
		*inst = at;
	return NVM_OK;
}

nvm_status nvm_nv04_object(nvm_gpu *gpu, nvm_nv04_fifo *f, uint32_t class_id, uint32_t *inst)
{
	if (!gpu || !inst || class_id > 0xffff)
		return NVM_ERR_ARG;
	nvm_status st = nvm_nv04_alloc(f, 16, 16, inst);
	return st ? st : ramin_wr(gpu, *inst, class_id);
}

nvm_status nvm_nv04_ramht_add(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, uint32_t handle, uint32_t inst,
                              unsigned engine, uint32_t *addr)
{
	uint32_t ctx, v;
	unsigned probe = 0;
	if (!gpu || !f || chid >= f->nchan || inst > 0xffff0 || engine > 7)
		return NVM_ERR_ARG;
	nvm_status st = nvm_pfifo_ramht_context(f->chip, inst, engine, chid, &ctx);
	if (st)
		return st;
	uint32_t n = 1u << f->ramht_bits;
	uint32_t h = nvm_pfifo_ramht_slot(f->chip, handle, chid, f->ramht_bits, &probe);
	/* NV04..NV4x: probe 0, the whole table from the slot on (RAMHT SEARCH decides how far Host looks). */
	for (uint32_t i = 0; i < (probe ? probe : n); i++) {
		uint32_t a = f->ramht + ((h + i) % n) * 8;
		if ((st = ramin_rd(gpu, a + 4, &v)))
			return st;
		if (v == 0) {
			if ((st = ramin_wr(gpu, a, handle)) || (st = ramin_wr(gpu, a + 4, ctx)))
				return st;
			if (addr)
				*addr = a;
			return NVM_OK;
		}
	}
	return NVM_ERR_FULL;
}

nvm_status nvm_nv04_ramfc_set(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, const char *name, uint32_t v)
{
	size_t n;
	uint32_t size, w;
	if (!gpu || !f || !name || chid >= f->nchan)
		return NVM_ERR_ARG;
	const nvm_ramfc_field *l = nvm_pfifo_ramfc_layout(f->chip, f->large, &n, &size);
	for (size_t i = 0; l && i < n; i++) {
		if (strcmp(l[i].name, name))
			continue;
		/* the field's bits of the word: the register value v as the model saves it */
		uint32_t addr = f->ramfc + chid * f->ramfc_size + l[i].off;
		uint32_t mask = (uint32_t)(((1ull << l[i].bits) - 1) << l[i].ctx_lo);
		nvm_status st = ramin_rd(gpu, addr, &w);
		return st ? st : ramin_wr(gpu, addr, (w & ~mask) | (((v >> l[i].reg_lo) << l[i].ctx_lo) & mask));
	}
	return NVM_ERR_NOENT;
}

nvm_status nvm_nv04_dma_channel(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, uint32_t pushbuf_inst,
                                uint32_t offset, bool big_endian)
{
	if (!gpu || !f || chid >= f->nchan || offset & 3)
		return NVM_ERR_ARG;
	/* DMA_FETCH TRIG 128 (0x78), SIZE 128 (0x6000), MAX_REQS 8 (0x80000), BIG_ENDIAN 31 */
	uint32_t fetch = 0x78 | 0x6000 | 0x80000 | (big_endian ? 0x80000000u : 0);
	const struct {
		const char *name;
		uint32_t v;
	} fields[] = {
		{ "DMA_PUT", offset },           { "DMA_GET", offset }, { "DMA_INSTANCE", pushbuf_inst >> 4 },
		{ "DMA_FETCH", fetch },          { "SLI", 0x30000000 }, /* NV40: SLI ACTIVE 28, ENABLE 29 */
		{ "DMA_TIMESLICE", 0x0001ffff },                        /* NV40 */
	};
	nvm_status st;
	for (unsigned i = 0; i < (f->nv40 ? 6u : 4u); i++)
		if ((st = nvm_nv04_ramfc_set(gpu, f, chid, fields[i].name, fields[i].v)))
			return st;
	uint32_t mode;
	if ((st = nvm_reg_read(gpu, 0x2504, &mode)))
		return st;
	return nvm_reg_write(gpu, 0x2504, mode | 1u << chid); /* NV_PFIFO_MODE: DMA */
}

uint32_t nvm_nv04_user(const nvm_nv04_fifo *f, uint32_t chid)
{
	return f->nv40 ? USER_NEW + chid * 0x1000 : USER + chid * 0x10000;
}

nvm_status nvm_nv04_kick(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, uint32_t put)
{
	if (!gpu || !f || chid >= f->nchan)
		return NVM_ERR_ARG;
	return nvm_reg_write(gpu, nvm_nv04_user(f, chid) + 0x40, put);
}

nvm_status nvm_nv04_pio(nvm_gpu *gpu, const nvm_nv04_fifo *f, uint32_t chid, unsigned subch, uint32_t method,
                        uint32_t data)
{
	if (!gpu || !f || chid >= f->nchan || subch > 7 || method > 0x1ffc)
		return NVM_ERR_ARG;
	return nvm_reg_write(gpu, USER + chid * 0x10000 + subch * 0x2000 + method, data);
}
