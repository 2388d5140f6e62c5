/*
 * The G80 VM translation over guest memory (seed 002 "Tesla virtual
 * memory"): channel descriptor, DMA object, page directory, page table,
 * attributes and access checks. Shared by the block (g80vm.c, which adds
 * the TLB, the trap registers and the BARs) and by tools (nvm_g80_walk).
 * Every structure read is bounds-checked: a structure outside its aperture
 * is a fault (res->oob), never an out-of-bounds access.
 */
#include <string.h>

#include "g80vm_internal.h"

#define F64(v, hi, lo) ((((uint64_t)(v)) >> (lo)) & ((1ull << ((hi) - (lo) + 1)) - 1ull))

#define VA_MASK ((1ull << 40) - 1) /* 40-bit logical and virtual addresses */

/* ---------------------------------------------------------------- decoders */

void nvm_g80_dmaobj_decode(const uint32_t w[6], nvm_g80_dmaobj *d)
{
	memset(d, 0, sizeof(*d));
	memcpy(d->w, w, sizeof(d->w));
	d->cls = FIELD_GET(w[0], 15, 0);
	d->target = FIELD_GET(w[0], 17, 16);
	d->ro = FIELD_GET(w[0], 19, 18);
	d->us = FIELD_GET(w[0], 21, 20);
	d->storage_type = FIELD_GET(w[0], 28, 22);
	d->comp = FIELD_GET(w[0], 30, 29);
	d->supervisor = FIELD_GET(w[0], 31, 31);
	d->limit = (uint64_t)FIELD_GET(w[3], 31, 24) << 32 | w[1];
	d->base = (uint64_t)FIELD_GET(w[3], 7, 0) << 32 | w[2];
	d->tag_base = FIELD_GET(w[4], 11, 0);
	d->tag_limit = FIELD_GET(w[4], 27, 16);
	d->comp_base = (uint64_t)FIELD_GET(w[5], 15, 0) << 16; /* "bits 0-15 are forced to 0" */
	d->part_cycle = FIELD_GET(w[5], 17, 16);
	d->encrypt = FIELD_GET(w[5], 19, 18);
}

void nvm_g80_dmaobj_encode(const nvm_g80_dmaobj *d, uint32_t w[6])
{
	w[0] = FIELD_SET(0, 15, 0, d->cls);
	w[0] = FIELD_SET(w[0], 17, 16, d->target);
	w[0] = FIELD_SET(w[0], 19, 18, d->ro);
	w[0] = FIELD_SET(w[0], 21, 20, d->us);
	w[0] = FIELD_SET(w[0], 28, 22, d->storage_type);
	w[0] = FIELD_SET(w[0], 30, 29, d->comp);
	w[0] = FIELD_SET(w[0], 31, 31, d->supervisor);
	w[1] = (uint32_t)d->limit;
	w[2] = (uint32_t)d->base;
	w[3] = FIELD_SET(0, 7, 0, (uint32_t)(d->base >> 32));
	w[3] = FIELD_SET(w[3], 31, 24, (uint32_t)(d->limit >> 32));
	w[4] = FIELD_SET(0, 11, 0, d->tag_base);
	w[4] = FIELD_SET(w[4], 27, 16, d->tag_limit);
	w[5] = FIELD_SET(0, 15, 0, (uint32_t)(d->comp_base >> 16));
	w[5] = FIELD_SET(w[5], 17, 16, d->part_cycle);
	w[5] = FIELD_SET(w[5], 19, 18, d->encrypt);
}

/* PDE page sizes by 1:0 and the small-page table sizes by 6:5. */
static const uint64_t pde_page[4] = { 0, 0x10000, 0x4000, 0x1000 };
static const uint32_t small_entries[4] = { 0x20000, 0x8000, 0x4000, 0x2000 };

void nvm_g80_pde_decode(uint64_t raw, nvm_g80_pde *p)
{
	memset(p, 0, sizeof(*p));
	p->raw = raw;
	p->type = (unsigned)F64(raw, 1, 0);
	p->target = (unsigned)F64(raw, 3, 2);
	p->bit4 = (unsigned)F64(raw, 4, 4);
	p->size = (unsigned)F64(raw, 6, 5);
	p->addr = F64(raw, 39, 12) << 12; /* word 0 31:12, word 1 7:0 */
	p->page_size = pde_page[p->type];
	/* "Medium- and large-page page tables always cover full 0x8000 or 0x2000
	 * entries"; small ones may be limited by the size field. */
	p->entries = p->type == 3 ? small_entries[p->size] : p->type ? (uint32_t)(0x20000000ull / p->page_size) : 0;
}

void nvm_g80_pte_decode(uint64_t raw, nvm_g80_pte *p)
{
	memset(p, 0, sizeof(*p));
	p->raw = raw;
	p->present = F64(raw, 0, 0);
	p->unk1 = (unsigned)F64(raw, 2, 1);
	p->ro = F64(raw, 3, 3);
	p->target = (unsigned)F64(raw, 5, 4);
	p->supervisor_only = F64(raw, 6, 6);
	p->contig_log2 = (unsigned)F64(raw, 9, 7);
	p->addr = F64(raw, 39, 12) << 12;
	p->storage_type = (unsigned)F64(raw, 46, 40);
	p->comp = (unsigned)F64(raw, 48, 47);
	p->tag = (unsigned)F64(raw, 60, 49);
	p->part_cycle = (unsigned)F64(raw, 61, 61);
	p->encrypted = F64(raw, 62, 62);
}

uint64_t nvm_g80_pte_addr(uint64_t raw, uint64_t page_size)
{
	/* bits 12-31 (small), 14-31 (medium), 16-31 (large) of word 0, 32-39 of word 1 */
	return F64(raw, 39, 12) << 12 & ~(page_size ? page_size - 1 : 0);
}

/* ---------------------------------------------------------------- memory */

bool g80_target_ap(unsigned target, nvm_aperture *ap)
{
	if (target == NVM_G80_TGT_INVALID || target > 3)
		return false;
	*ap = target == NVM_G80_TGT_VRAM ? NVM_AP_VRAM : NVM_AP_SYSMEM;
	return true;
}

bool g80_chan_base(uint32_t chan, nvm_aperture *ap, uint64_t *base)
{
	*base = (uint64_t)FIELD_GET(chan, 27, 0) << 12; /* bits 12-39 of the structure address */
	return g80_target_ap(FIELD_GET(chan, 29, 28), ap);
}

/* A linear address of an aperture: VRAM keeps 32 bits ("high 8 bits are
 * ignored", seed 002), SYSRAM 40. */
static uint64_t linear(nvm_aperture ap, uint64_t addr)
{
	return addr & (ap == NVM_AP_VRAM ? 0xffffffffull : VA_MASK);
}

static bool g80_rd(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, void *v, size_t len)
{
	return mem_read(&gpu->mem[ap], linear(ap, addr), v, len) == NVM_OK; /* little-endian host */
}

bool g80_rd32(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint32_t *v)
{
	return g80_rd(gpu, ap, addr, v, 4);
}

bool g80_rd64(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t *v)
{
	return g80_rd(gpu, ap, addr, v, 8);
}

uint32_t g80_pd_offset(const nvm_g80_layout *lay)
{
	if (lay->pd_offset)
		return lay->pd_offset & ~7u;
	return lay->gen >= NVM_G80_GEN_G84 ? 0x200u : 0x1400u;
}

static void set_fault(nvm_g80_res *res, unsigned f)
{
	res->fault = f;
	res->reason = NVM_G80_FAULT_REASON(f);
}

/* ---------------------------------------------------------------- DMA object */

bool g80_dmaobj_stage(nvm_gpu *gpu, const nvm_g80_req *req, nvm_g80_res *res, nvm_aperture *chan_ap,
                      uint64_t *chan_base, uint64_t *addr, nvm_g80_walk_trace *tr)
{
	/* UNVERIFIED: a channel descriptor with the invalid target (1) faults as
	 * NO_CHANNEL (seed 002 says only "do not use"). */
	if (!g80_chan_base(req->chan, chan_ap, chan_base)) {
		set_fault(res, NVM_G80_FAULT_NO_CHANNEL);
		return false;
	}
	if (tr) {
		tr->chan_ap = *chan_ap;
		tr->chan_base = *chan_base;
	}
	unsigned sel = req->selector & 0xffffu;
	/* "First, DMA object selector is compared with 0." */
	if (!sel) {
		set_fault(res, NVM_G80_FAULT_NULL_DMAOBJ);
		return false;
	}
	uint64_t at = *chan_base + ((uint64_t)sel << 4);
	if (tr)
		tr->dmaobj_addr = at;
	uint32_t w[6];
	if (!g80_rd(gpu, *chan_ap, at, w, sizeof(w))) {
		/* UNVERIFIED: a structure outside memory faults as VRAM_LIMIT. */
		res->oob = true;
		set_fault(res, NVM_G80_FAULT_VRAM_LIMIT);
		return false;
	}
	/* UNVERIFIED: the class (ignored by the VM, seed 002) and the
	 * supervisor-object bit 31 do not change the translation. */
	nvm_g80_dmaobj_decode(w, &res->dmaobj);
	if (tr)
		tr->have_dmaobj = true;
	/* "the logical address is added to the base address ... compared with
	 * the limit address ... if larger or equal, DMAOBJ_LIMIT fault". */
	*addr = res->dmaobj.base + (req->offset & VA_MASK);
	if (*addr >= res->dmaobj.limit) {
		set_fault(res, NVM_G80_FAULT_DMAOBJ_LIMIT);
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- page tables */

void g80_pt_walk(nvm_gpu *gpu, const nvm_g80_layout *lay, nvm_aperture chan_ap, uint64_t chan_base, uint64_t virt,
                 struct g80_pt_res *o, nvm_g80_walk_trace *tr)
{
	memset(o, 0, sizeof(*o));
	virt &= VA_MASK;
	/* 0x800 PDEs of 8 bytes, each covering 0x20000000 bytes. */
	unsigned pdi = (unsigned)(virt >> 29);
	uint64_t pde_at = chan_base + g80_pd_offset(lay) + pdi * 8ull;
	uint64_t raw;
	if (tr) {
		tr->pde_index = pdi;
		tr->pde_addr = pde_at;
	}
	if (!g80_rd64(gpu, chan_ap, pde_at, &raw)) {
		o->oob = true;
		o->fault = NVM_G80_FAULT_VRAM_LIMIT;
		return;
	}
	nvm_g80_pde pde;
	nvm_g80_pde_decode(raw, &pde);
	if (tr) {
		tr->have_pde = true;
		tr->pde = pde;
	}
	nvm_aperture pt_ap;
	/* UNVERIFIED: medium pages before GT215 and a page table with the
	 * invalid target fault as PT_NOT_PRESENT. */
	if (!pde.type || (pde.type == 2 && lay->gen < NVM_G80_GEN_GT215) || !g80_target_ap(pde.target, &pt_ap)) {
		o->fault = NVM_G80_FAULT_PT_NOT_PRESENT;
		return;
	}
	o->page_size = pde.page_size;
	uint64_t idx = (virt & 0x1fffffffull) / pde.page_size;
	if (tr) {
		tr->pte_index = (unsigned)idx;
		tr->pt_ap = pt_ap;
	}
	/* "the pages over this limit will fault" (PT_TOO_SHORT). */
	if (idx >= pde.entries) {
		o->fault = NVM_G80_FAULT_PT_TOO_SHORT;
		return;
	}
	uint64_t pte_at = pde.addr + idx * 8;
	if (tr)
		tr->pte_addr = pte_at;
	if (!g80_rd64(gpu, pt_ap, pte_at, &raw)) {
		o->oob = true;
		o->fault = NVM_G80_FAULT_VRAM_LIMIT;
		return;
	}
	nvm_g80_pte pte;
	nvm_g80_pte_decode(raw, &pte);
	if (tr) {
		tr->have_pte = true;
		tr->pte = pte;
	}
	/* UNVERIFIED: target 1 (P2P in g80_vm.xml) has no peer in the model:
	 * PAGE_NOT_PRESENT. */
	if (!pte.present || pte.target == NVM_G80_TGT_INVALID) {
		o->fault = NVM_G80_FAULT_PAGE_NOT_PRESENT;
		return;
	}
	/* Contig blocks: 2^o pages, virtually aligned, every PTE holding the
	 * address and tag of the block's first page. */
	o->size = pde.page_size << pte.contig_log2;
	o->vbase = virt & ~(o->size - 1);
	o->lin = nvm_g80_pte_addr(raw, pde.page_size);
	o->target = pte.target;
	o->ro = pte.ro;
	o->supervisor_only = pte.supervisor_only;
	o->storage_type = pte.storage_type;
	o->comp = pte.comp;
	o->tag = pte.tag;
	o->part_cycle = pte.part_cycle;
	o->encrypted = lay->gen >= NVM_G80_GEN_G84 && pte.encrypted; /* bit 62 [G84-] */
}

/* ---------------------------------------------------------------- attributes */

/* The unpaged compression tag (seed 002 "DMA objects"): offset from the
 * compression base in 64 KiB units plus the base tag, up to the limit tag;
 * otherwise compression is forced off. */
static void unpaged_tag(const nvm_g80_dmaobj *d, uint64_t lin, nvm_g80_res *res)
{
	if (lin < d->comp_base) {
		res->comp = NVM_G80_COMP_NONE;
		return;
	}
	uint64_t tag = ((lin - d->comp_base) >> 16) + d->tag_base;
	if (tag <= d->tag_limit)
		res->tag = (unsigned)tag;
	else
		res->comp = NVM_G80_COMP_NONE;
}

static void paged_attrs(unsigned gen, const nvm_g80_dmaobj *d, const struct g80_pt_res *pt, uint64_t virt,
                        nvm_g80_res *res)
{
	res->paged = true;
	res->target = pt->target;
	res->page_size = pt->page_size;
	res->block = pt->size;
	res->addr = pt->lin + (virt - pt->vbase);
	/* UNVERIFIED: in a contig block, page n uses tag + n 64 KiB tag units
	 * ("contiguous tag addresses"), DOUBLE counting two cells per unit. */
	unsigned cells = pt->comp == NVM_G80_COMP_DOUBLE ? 2u : 1u;
	res->tag = (unsigned)((pt->tag + ((virt - pt->vbase) >> 16) * cells) & 0xfffu);
	/* The DMA object overrides (0 = from the page tables; UNVERIFIED: the
	 * undefined value 3 of the RO / US / partition-cycle fields and 3 of
	 * the encryption field also take the page tables' value). */
	res->ro = d->ro == 1 ? true : d->ro == 2 ? false : pt->ro;
	res->supervisor_only = d->us == 2 ? true : d->us == 1 ? false : pt->supervisor_only;
	res->storage_type = d->storage_type != 0x7f ? d->storage_type : pt->storage_type;
	res->comp = d->comp != NVM_G80_COMP_USEVM ? d->comp : pt->comp;
	res->part_cycle = d->part_cycle == 1 ? 0u : d->part_cycle == 2 ? 1u : pt->part_cycle;
	if (gen >= NVM_G80_GEN_G84)
		res->encrypted = d->encrypt == 0 ? false : d->encrypt == 1 ? true : pt->encrypted;
}

static void unpaged_attrs(unsigned gen, const nvm_g80_dmaobj *d, uint64_t addr, nvm_g80_res *res)
{
	res->paged = false;
	res->target = d->target;
	res->page_size = 0x1000;
	res->block = 0x1000;
	res->addr = addr;
	/* UNVERIFIED: the "from page tables" values of an unpaged object (no
	 * page tables) mean read-write, user, PITCH (storage 0x7f), no
	 * compression, short cycle, not encrypted. */
	res->ro = d->ro == 1;
	res->supervisor_only = d->us == 2;
	res->storage_type = d->storage_type == 0x7f ? 0 : d->storage_type;
	res->comp = d->comp == NVM_G80_COMP_USEVM ? NVM_G80_COMP_NONE : d->comp;
	res->part_cycle = d->part_cycle == 2 ? 1u : 0u;
	res->encrypted = gen >= NVM_G80_GEN_G84 && d->encrypt == 1;
	/* Compression "can only be used on VRAM" (UNVERIFIED: forced off on
	 * SYSRAM objects). */
	if (res->comp != NVM_G80_COMP_NONE && d->target != 1)
		res->comp = NVM_G80_COMP_NONE;
	if (res->comp != NVM_G80_COMP_NONE)
		unpaged_tag(d, addr & 0xffffffffull, res);
}

void g80_finish(nvm_gpu *gpu, unsigned gen, const nvm_g80_req *req, const nvm_g80_dmaobj *d, uint64_t addr,
                const struct g80_pt_res *pt, nvm_g80_res *res)
{
	res->virt = addr & VA_MASK;
	if (pt)
		paged_attrs(gen, d, pt, addr & VA_MASK, res);
	else
		unpaged_attrs(gen, d, addr, res);
	/* Target codes: a DMA object's 1 is VRAM, a PTE's 0 is. */
	unsigned tgt = pt ? res->target : (d->target == 1 ? NVM_G80_TGT_VRAM : d->target);
	res->target = tgt;
	g80_target_ap(tgt, &res->ap);
	if (tgt == NVM_G80_TGT_VRAM)
		res->addr &= 0xffffffffull; /* VRAM: "high 8 bits are ignored" */
	else
		res->addr &= VA_MASK;
	/* UNVERIFIED: the supervisor check comes before the read-only check
	 * (the order of the G80_VM_FAULT codes). */
	if (res->supervisor_only && !req->supervisor)
		set_fault(res, NVM_G80_FAULT_PAGE_SUPERVISOR_ONLY);
	else if (res->ro && req->write)
		set_fault(res, NVM_G80_FAULT_PAGE_READ_ONLY);
	else if (res->addr >= nvm_mem_size(gpu, res->ap))
		/* UNVERIFIED: memory beyond the aperture faults as VRAM_LIMIT (also
		 * for SYSRAM, which the model bounds as well). */
		set_fault(res, NVM_G80_FAULT_VRAM_LIMIT);
}

/* ---------------------------------------------------------------- pure walk */

nvm_status nvm_g80_walk(nvm_gpu *gpu, const nvm_g80_layout *lay, const nvm_g80_req *req, nvm_g80_res *res,
                        nvm_g80_walk_trace *tr)
{
	if (!gpu || !lay || !req || !res || lay->gen > NVM_G80_GEN_GT215)
		return NVM_ERR_ARG;
	memset(res, 0, sizeof(*res));
	if (tr)
		memset(tr, 0, sizeof(*tr));
	nvm_aperture cap;
	uint64_t cbase, addr;
	if (!g80_dmaobj_stage(gpu, req, res, &cap, &cbase, &addr, tr))
		return res->fault ? NVM_ERR_FAULT : NVM_OK;
	if (res->dmaobj.target != 0) {
		g80_finish(gpu, lay->gen, req, &res->dmaobj, addr, NULL, res);
		return res->fault ? NVM_ERR_FAULT : NVM_OK;
	}
	struct g80_pt_res pt;
	g80_pt_walk(gpu, lay, cap, cbase, addr, &pt, tr);
	if (pt.fault) {
		res->paged = true;
		res->virt = addr & VA_MASK;
		res->oob = pt.oob;
		set_fault(res, pt.fault);
		return NVM_ERR_FAULT;
	}
	g80_finish(gpu, lay->gen, req, &res->dmaobj, addr, &pt, res);
	return res->fault ? NVM_ERR_FAULT : NVM_OK;
}

/* ---------------------------------------------------------------- enumeration */

static int enum_table(nvm_gpu *gpu, const nvm_g80_layout *lay, unsigned pdi, const nvm_g80_pde *pde, uint64_t *budget,
                      const nvm_g80_enum_ops *ops)
{
	nvm_aperture ap;
	if (!g80_target_ap(pde->target, &ap) || (pde->type == 2 && lay->gen < NVM_G80_GEN_GT215))
		return 0;
	/* PTEs are read 64 at a time; a piece that cannot be read whole (the
	 * end of memory, the 32-bit VRAM wrap) entry by entry */
	uint64_t piece[64];
	uint32_t first = 0, have = 0;
	for (uint32_t i = 0; i < pde->entries; i++) {
		if (i - first >= have) {
			uint32_t n = pde->entries - i < 64 ? pde->entries - i : 64;
			first = i;
			have = g80_rd(gpu, ap, pde->addr + i * 8ull, piece, n * 8ull) ? n : 0;
		}
		if (have) {
			/* entries without PRESENT are passed over at once, each
			 * charged to the budget as one looked at */
			uint32_t j = i;
			while (j < first + have && !(piece[j - first] & 1))
				j++;
			if (j - i > *budget) {
				*budget = 0;
				return -1;
			}
			*budget -= j - i;
			i = j;
			if (i == first + have) {
				i--; /* the loop's step: the next piece */
				continue;
			}
		}
		if (!*budget)
			return -1;
		--*budget;
		uint64_t raw = have ? piece[i - first] : 0;
		if (!have && !g80_rd64(gpu, ap, pde->addr + i * 8ull, &raw))
			return 0; /* the rest of the table is outside memory too */
		if (!(raw & 1))
			continue; /* PRESENT (0:0) clear: nothing to decode */
		nvm_g80_mapping m;
		nvm_g80_pte_decode(raw, &m.pte);
		m.page_size = pde->page_size;
		m.virt = ((uint64_t)pdi << 29) + i * pde->page_size;
		uint64_t block = pde->page_size << m.pte.contig_log2;
		m.lin = nvm_g80_pte_addr(raw, pde->page_size) + (m.virt & (block - 1));
		if (ops->map && ops->map(ops->user, &m))
			return 1;
	}
	return 0;
}

nvm_status nvm_g80_enum(nvm_gpu *gpu, const nvm_g80_layout *lay, uint32_t chan, uint64_t max_entries,
                        const nvm_g80_enum_ops *ops)
{
	if (!gpu || !lay || !ops || lay->gen > NVM_G80_GEN_GT215)
		return NVM_ERR_ARG;
	nvm_aperture cap;
	uint64_t cbase;
	if (!g80_chan_base(chan, &cap, &cbase))
		return NVM_ERR_ARG;
	uint64_t pd = cbase + g80_pd_offset(lay);
	uint64_t budget = max_entries;
	/* PDEs are read 64 at a time as the PTEs are (enum_table) */
	uint64_t piece[64];
	unsigned first = 0, have = 0;
	for (unsigned pdi = 0; pdi < 0x800; pdi++) {
		if (pdi - first >= have) {
			first = pdi;
			have = g80_rd(gpu, cap, pd + pdi * 8ull, piece, sizeof(piece)) ? 64 : 0;
		}
		uint64_t raw = have ? piece[pdi - first] : 0;
		if (!have && !g80_rd64(gpu, cap, pd + pdi * 8ull, &raw))
			return NVM_ERR_NOENT;
		if (!(raw & 3))
			continue; /* TYPE 0: no page table */
		nvm_g80_pde pde;
		nvm_g80_pde_decode(raw, &pde);
		if (!pde.type)
			continue;
		if (ops->pde && ops->pde(ops->user, pdi, pd + pdi * 8ull, &pde))
			return NVM_OK;
		int r = enum_table(gpu, lay, pdi, &pde, &budget, ops);
		if (r < 0)
			return NVM_ERR_RANGE;
		if (r > 0)
			return NVM_OK;
	}
	return NVM_OK;
}
