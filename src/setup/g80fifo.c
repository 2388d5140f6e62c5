/*
 * PFIFO of the G80 family as a driver sets it up (include/nvmodel/setup.h):
 * nouveau's nv50 / g84 fifo init, channel structures with RAMFC, CACHE and
 * RAMHT, DMA and engine objects, the playlist, pushbuffers and IB rings.
 * RAMFC offsets from the model's layout, RAMHT slots and contexts from its
 * table, DMA objects from its encoder; where everything goes is the
 * helpers' choice (the header).
 */
#include <string.h>

#include "nvmodel/setup.h"
#include "setup/setup_internal.h"

#define CHAN_BASE 0x1000000u /* channel structures: + chid * 0x10000 */
#define PLAYLIST  0xf00000u
#define PB_BASE   0x100000u /* pushbuffers: + chid * 0x100000 */
#define PB_SIZE   0x80000u  /* then the IB ring */
#define USER      0xc00000u /* + chid * 0x2000 */

static const struct g80_gen {
	const char *chip;
	int g84;
} gens[] = { { "g80", 0 }, { "g84", 1 }, { "g92", 1 }, { "gt215", 1 } };

static nvm_status vram_wr(nvm_gpu *gpu, uint64_t addr, uint32_t v)
{
	return nvm_mem_wr32(gpu, NVM_AP_VRAM, addr, v);
}

nvm_status nvm_g80_fifo_commit(nvm_gpu *gpu, const nvm_g80_fifo *f)
{
	if (!gpu || !f)
		return NVM_ERR_ARG;
	nvm_status st;
	for (uint32_t i = 0; i < f->nchannels; i++)
		if ((st = vram_wr(gpu, PLAYLIST + 4 * i, f->channels[i])))
			return st;
	st = nvm_reg_write(gpu, 0x32f4, PLAYLIST >> 12);
	return st ? st : nvm_reg_write(gpu, 0x32ec, f->nchannels);
}

nvm_status nvm_g80_fifo_init(nvm_gpu *gpu, nvm_g80_fifo *f)
{
	const nvm_chip_info *c = gpu ? nvm_gpu_chip(gpu) : NULL;
	if (!f)
		return NVM_ERR_ARG;
	const struct g80_gen *g = NULL;
	for (size_t i = 0; c && i < sizeof(gens) / sizeof(gens[0]); i++)
		if (!strcmp(gens[i].chip, c->name))
			g = &gens[i];
	if (!g)
		return NVM_ERR_CHIP;
	*f = (nvm_g80_fifo){ .chip = g->chip, .g84 = g->g84 };
	/* nv50_fifo_init: PMC enables, DMA_TIMESLICE, interrupts, every channel unbound */
	static const uint32_t init[][2] = { { 0x250c, 0x6f3cfc34 },
		                            { 0x2044, 0x01003fff },
		                            { 0x2100, 0xffffffff },
		                            { 0x2140, 0xbfffffff } };
	nvm_status st;
	for (unsigned i = 0; i < 4; i++)
		if ((st = nvm_reg_write(gpu, init[i][0], init[i][1])))
			return st;
	for (uint32_t i = 0; i < 128; i++)
		if ((st = nvm_reg_write(gpu, 0x2600 + 4 * i, 0)))
			return st;
	if ((st = nvm_g80_fifo_commit(gpu, f)))
		return st;
	static const uint32_t on[] = { 0x3200, 0x3250, 0x2500, 0x140 };
	for (unsigned i = 0; i < 4; i++)
		if ((st = nvm_reg_write(gpu, on[i], 1)))
			return st;
	return NVM_OK;
}

void nvm_g80_channel_desc_init(nvm_g80_channel_desc *d)
{
	*d = (nvm_g80_channel_desc){ .ib = 1, .ib_order = 9, .pb_ap = NVM_AP_SYSMEM };
}

void nvm_g80_channel_release(nvm_g80_channel *ch)
{
	if (ch) {
		nvm_g80_vmb_free(ch->vm);
		ch->vm = NULL;
	}
}

nvm_status nvm_g80_channel_alloc(nvm_g80_channel *ch, uint32_t size, uint32_t *off)
{
	if (!ch || !off)
		return NVM_ERR_ARG;
	if ((uint64_t)ch->next + size > 0x7000)
		return NVM_ERR_FULL;
	*off = ch->next;
	ch->next += (size + 15) & ~15u;
	return NVM_OK;
}

nvm_status nvm_g80_channel_ramht_add(nvm_gpu *gpu, const nvm_g80_channel *ch, uint32_t handle, uint32_t sel,
                                     unsigned engine, uint32_t *off)
{
	uint32_t ctx, v;
	unsigned probe = 0;
	if (!gpu || !ch)
		return NVM_ERR_ARG;
	/* G80: the context is engine and selector; RAMHT lookups are per channel structure (chid 0) */
	nvm_status st = nvm_pfifo_ramht_context(ch->chip, sel << 4, engine, 0, &ctx);
	if (st)
		return NVM_ERR_ARG;
	uint32_t h = nvm_pfifo_ramht_slot(ch->chip, handle, 0, 12, &probe);
	for (uint32_t i = 0; i < 4096; i++) {
		uint32_t o = 0x8000 + ((h + i) & 4095) * 8;
		if ((st = nvm_mem_rd32(gpu, NVM_AP_VRAM, ch->base + o + 4, &v)))
			return st;
		if (v == 0) {
			if ((st = vram_wr(gpu, ch->base + o, handle)) || (st = vram_wr(gpu, ch->base + o + 4, ctx)))
				return st;
			if (off)
				*off = o;
			return NVM_OK;
		}
	}
	return NVM_ERR_FULL;
}

nvm_status nvm_g80_channel_dmaobj(nvm_gpu *gpu, nvm_g80_channel *ch, const nvm_g80_dmaobj *o, uint32_t *off,
                                  bool has_handle, uint32_t handle, uint32_t *sel)
{
	uint32_t w[6], at;
	nvm_status st;
	if (!gpu || !ch || !o || !sel)
		return NVM_ERR_ARG;
	if (!off || *off == UINT32_MAX) {
		if ((st = nvm_g80_channel_alloc(ch, 0x18, &at)))
			return st;
	} else {
		at = *off;
	}
	if (at > 0xfff0 - 0x18)
		return NVM_ERR_ARG;
	nvm_g80_dmaobj_encode(o, w);
	for (unsigned i = 0; i < 6; i++)
		if ((st = vram_wr(gpu, ch->base + at + 4 * i, w[i])))
			return st;
	if (has_handle && (st = nvm_g80_channel_ramht_add(gpu, ch, handle, at >> 4, 0, NULL)))
		return st;
	if (off)
		*off = at;
	*sel = at >> 4;
	return NVM_OK;
}

nvm_status nvm_g80_channel_object(nvm_gpu *gpu, nvm_g80_channel *ch, uint32_t class_id, uint32_t handle,
                                  unsigned engine, uint32_t *sel)
{
	uint32_t at;
	if (!gpu || !ch || !sel || class_id > 0xffff)
		return NVM_ERR_ARG;
	nvm_status st = nvm_g80_channel_alloc(ch, 0x10, &at);
	if (!st)
		st = vram_wr(gpu, ch->base + at, class_id);
	if (!st)
		st = nvm_g80_channel_ramht_add(gpu, ch, handle, at >> 4, engine, NULL);
	if (!st)
		*sel = at >> 4;
	return st;
}

/* A RAMFC word by the model's field name (rnndb G80_RAMFC), written whole. */
static nvm_status ramfc_wr(nvm_gpu *gpu, const nvm_g80_fifo *f, const nvm_g80_channel *ch, const char *name, uint32_t v)
{
	size_t n;
	uint32_t size;
	const nvm_ramfc_field *l = nvm_pfifo_ramfc_layout(f->chip, 0, &n, &size);
	for (size_t i = 0; l && i < n; i++)
		if (!strcmp(l[i].name, name))
			return vram_wr(gpu, ch->ramfc + l[i].off, v);
	return NVM_ERR_CHIP;
}

nvm_status nvm_g80_channel_create(nvm_gpu *gpu, nvm_g80_fifo *f, const nvm_g80_channel_desc *d, nvm_g80_channel *ch)
{
	if (!gpu || !f || !d || !ch || d->chid < 1 || d->chid > 126 || d->ib_order < 1 || d->ib_order > 16 ||
	    d->pb_ap >= NVM_AP_COUNT || f->nchannels >= 128)
		return NVM_ERR_ARG;
	uint64_t base = CHAN_BASE + (uint64_t)d->chid * 0x10000;
	*ch = (nvm_g80_channel){ .chip = f->chip,
		                 .chid = d->chid,
		                 .base = base,
		                 .ramfc = base + (f->g84 ? 0x5400 : 0),
		                 .cache = base + (f->g84 ? 0x4400 : 0x400),
		                 .next = 0x6000,
		                 .pb_ap = d->pb_ap,
		                 .pb = PB_BASE + (uint64_t)d->chid * 0x100000,
		                 .ib = !!d->ib,
		                 .order = d->ib_order };
	ch->ib_addr = ch->pb + PB_SIZE;
	nvm_status st = setup_zero(gpu, (nvm_place){ NVM_MMU_TGT_VID, base }, 0x10000);
	if (st)
		return st;
	/* the pushbuffer's target: VRAM or (snooped) system memory */
	nvm_mmu_target pbt = d->pb_ap == NVM_AP_VRAM ? NVM_MMU_TGT_VID : NVM_MMU_TGT_SYS_COH;
	uint32_t pbsel = 0;
	if (d->vm) {
		/* the pushbuffer through page tables at VA 0x10000000 and a paged DMA object */
		nvm_g80_vm_desc vd;
		nvm_g80_vm_desc_init(&vd);
		vd.addr = base;
		vd.objects = 0x7000;
		vd.heap = 0x4000000 + (uint64_t)d->chid * 0x200000;
		if ((st = nvm_g80_vmb_create(gpu, &vd, &ch->vm)))
			return st;
		nvm_g80_map_desc m;
		nvm_g80_map_desc_init(&m);
		m.virt = 0x10000000;
		m.lin = ch->pb;
		m.size = 0x100000;
		m.pte.target = pbt;
		nvm_g80_dmaobj paged = { .cls = 0x3d, .storage_type = 0x7f, .comp = 3, .limit = (1ull << 40) - 1 };
		if ((st = nvm_g80_vmb_map(gpu, ch->vm, &m, NULL)) ||
		    (st = nvm_g80_vmb_dmaobj(gpu, ch->vm, &paged, &pbsel)))
			return st;
		ch->va_off = 0x10000000 - (int64_t)ch->pb;
	} else {
		/* DMA object target 1 VRAM / 2 SYSRAM, RO 2 (read-write), storage and comp 0 */
		nvm_g80_dmaobj lin = { .cls = 0x3d,
			               .target = d->pb_ap == NVM_AP_VRAM ? 1 : 2,
			               .ro = 2,
			               .limit = (1ull << 40) - 1 };
		uint32_t off = UINT32_MAX;
		if ((st = nvm_g80_channel_dmaobj(gpu, ch, &lin, &off, 0, 0, &pbsel)))
			return st;
	}
	uint64_t va = ch->pb + (uint64_t)ch->va_off, iba = ch->ib_addr + (uint64_t)ch->va_off;
	/* nouveau's nv50/g84 channel RAMFC; DMA_FETCH with IB_ENABLE 30 in IB mode */
	if ((st = ramfc_wr(gpu, f, ch, "DMA_FETCH", ch->ib ? 0x403f6078 : 0x003f6078)) ||
	    (st = ramfc_wr(gpu, f, ch, "DMA_TIMESLICE", 0x01003fff)) ||
	    (st = ramfc_wr(gpu, f, ch, "DMA_INSTANCE", pbsel)))
		return st;
	if (ch->ib) {
		if ((st = ramfc_wr(gpu, f, ch, "IB_ADDRESS_LOW", (uint32_t)iba)) ||
		    (st = ramfc_wr(gpu, f, ch, "IB_CONFIG", (uint32_t)(iba >> 32) | ch->order << 16)))
			return st;
	} else if ((st = ramfc_wr(gpu, f, ch, "DMA_PUT", (uint32_t)va)) ||
	           (st = ramfc_wr(gpu, f, ch, "DMA_GET", (uint32_t)va)) ||
	           (st = ramfc_wr(gpu, f, ch, "DMA_LIMIT", 0xffffffff))) {
		return st;
	}
	/* RAMHT: SEARCH 3 << 27, SIZE 4 << 24 (4096 entries), at +0x8000 */
	if ((st = ramfc_wr(gpu, f, ch, "ACQUIRE_TIMEOUT", 0x7fffffff)) || (st = ramfc_wr(gpu, f, ch, "UNK88", 0)) ||
	    (st = ramfc_wr(gpu, f, ch, "SLI", 0x30000001)) ||
	    (st = ramfc_wr(gpu, f, ch, "RAMHT", 3u << 27 | 4u << 24 | 0x8000 >> 4)))
		return st;
	if (f->g84) {
		if ((st = ramfc_wr(gpu, f, ch, "CACHE_INST", (uint32_t)(ch->cache >> 10))) ||
		    (st = ramfc_wr(gpu, f, ch, "CHAN_INST", (uint32_t)(ch->base >> 12))) ||
		    (st = nvm_reg_write(gpu, 0x2600 + 4 * ch->chid, 0x80000000u | (uint32_t)(ch->ramfc >> 8))))
			return st;
	} else if ((st = nvm_reg_write(gpu, 0x2600 + 4 * ch->chid, 0x80000000u | (uint32_t)(ch->base >> 12)))) {
		return st;
	}
	f->channels[f->nchannels++] = ch->chid;
	return nvm_g80_fifo_commit(gpu, f);
}

nvm_status nvm_g80_channel_write(nvm_gpu *gpu, nvm_g80_channel *ch, const uint32_t *words, size_t n, uint64_t *addr)
{
	if (!gpu || !ch || (n && !words))
		return NVM_ERR_ARG;
	if (ch->pb_put + 4 * (uint64_t)n > PB_SIZE)
		return NVM_ERR_FULL;
	uint64_t a = ch->pb + ch->pb_put;
	for (size_t i = 0; i < n; i++) {
		nvm_status st = nvm_mem_wr32(gpu, ch->pb_ap, a + 4 * i, words[i]);
		if (st)
			return st;
	}
	ch->pb_put += 4 * (uint64_t)n;
	if (addr)
		*addr = a + (uint64_t)ch->va_off;
	return NVM_OK;
}

nvm_status nvm_g80_channel_ib_entry(nvm_gpu *gpu, nvm_g80_channel *ch, uint64_t addr, uint32_t nwords, bool not_main)
{
	if (!gpu || !ch || !ch->order || ch->order > 16)
		return NVM_ERR_ARG;
	uint32_t n = 1u << ch->order;
	uint64_t e = ch->ib_addr + (uint64_t)(ch->ib_put % n) * 8;
	nvm_status st = nvm_mem_wr32(gpu, ch->pb_ap, e, (uint32_t)addr & 0xfffffffcu);
	if (!st)
		st = nvm_mem_wr32(gpu, ch->pb_ap, e + 4,
		                  ((uint32_t)(addr >> 32) & 0xff) | (not_main ? 1u << 9 : 0) | nwords << 10);
	if (st)
		return st;
	ch->ib_put = (ch->ib_put + 1) % n;
	return NVM_OK;
}

nvm_status nvm_g80_channel_kick(nvm_gpu *gpu, const nvm_g80_channel *ch)
{
	if (!gpu || !ch)
		return NVM_ERR_ARG;
	uint32_t user = USER + ch->chid * 0x2000;
	if (ch->ib)
		return nvm_reg_write(gpu, user + 0x8c, ch->ib_put);
	return nvm_reg_write(gpu, user + 0x40, (uint32_t)(ch->pb + ch->pb_put + (uint64_t)ch->va_off));
}

nvm_status nvm_g80_channel_push(nvm_gpu *gpu, nvm_g80_channel *ch, const uint32_t *words, size_t n)
{
	uint64_t a;
	nvm_status st = nvm_g80_channel_write(gpu, ch, words, n, &a);
	if (!st && ch->ib)
		st = nvm_g80_channel_ib_entry(gpu, ch, a, (uint32_t)n, 0);
	return st ? st : nvm_g80_channel_kick(gpu, ch);
}
