/*
 * The G80 VM as a driver sets it up (include/nvmodel/setup.h): channel
 * structures, DMA objects, page directories and tables (seed 002, nouveau's
 * nv50 vmm and bar code). The DMA object words come from the model's own
 * encoder (nvm_g80_dmaobj_encode), the generation from the model's row
 * (nvm_g80_chip_layout).
 */
#include <stdlib.h>

#include "nvmodel/setup.h"
#include "setup/setup_internal.h"

#define VA_BITS 40
#define NPDE    (1u << (VA_BITS - 29)) /* a PDE covers 512 MiB */

typedef struct g80_pt {
	uint64_t addr;
	uint32_t page, entries;
} g80_pt;

struct nvm_g80_vmb {
	unsigned gen;
	uint64_t addr;
	nvm_mmu_target target;
	uint64_t pd, next_obj, heap;
	g80_pt *pts; /* NPDE of them, made on the first map */
};

static int g80_target(nvm_mmu_target t)
{
	return t == NVM_MMU_TGT_VID || t == NVM_MMU_TGT_SYS_COH || t == NVM_MMU_TGT_SYS_NCOH;
}

nvm_status nvm_g80_chan_desc(uint64_t addr, nvm_mmu_target target, uint32_t *desc)
{
	if (!desc || !g80_target(target))
		return NVM_ERR_ARG;
	if (addr >> VA_BITS)
		return NVM_ERR_RANGE;
	if (addr & 0xfff)
		return NVM_ERR_ALIGN;
	*desc = (uint32_t)(addr >> 12) | (uint32_t)target << 28;
	return NVM_OK;
}

nvm_status nvm_g80_pte_make(const nvm_g80_pte_desc *p, uint64_t *pte)
{
	if (!p || !pte || !g80_target(p->target) || p->contig > 7 || p->storage > 0x7f || p->comp > 2 || p->tag > 0xfff)
		return NVM_ERR_ARG;
	if (p->addr >> VA_BITS)
		return NVM_ERR_RANGE;
	/* PRESENT 0, RO 3, TARGET 5:4, SUPERVISOR_ONLY 6, CONTIG 9:7, ADDR 39:12, STORAGE_TYPE 46:40,
	 * COMP 48:47, TAG 60:49, PART_CYCLE 61, ENCRYPTED 62 */
	*pte = 1 | (uint64_t) !!p->ro << 3 | (uint64_t)p->target << 4 | (uint64_t) !!p->supervisor << 6 |
	       (uint64_t)p->contig << 7 | (p->addr & 0xfffffff000ull) | (uint64_t)p->storage << 40 |
	       (uint64_t)p->comp << 47 | (uint64_t)p->tag << 49 | (uint64_t) !!p->long_cycle << 61 |
	       (uint64_t) !!p->encrypted << 62;
	return NVM_OK;
}

/* PDE TYPE 1:0 by page size: 1 large (64 KiB), 2 medium (16 KiB, GT215), 3 small (4 KiB). */
static unsigned page_type(uint32_t page)
{
	return page == 0x10000 ? 1 : page == 0x4000 ? 2 : page == 0x1000 ? 3 : 0;
}

nvm_status nvm_g80_pde_make(uint32_t page, uint32_t entries, uint64_t addr, nvm_mmu_target target, uint64_t *pde)
{
	unsigned type = page_type(page), size;
	if (!pde || !type || !g80_target(target))
		return NVM_ERR_ARG;
	uint32_t full = 0x20000000u / page;
	if (!entries)
		entries = full;
	/* SIZE 6:5, small pages only: 0 full, 1 0x8000, 2 0x4000, 3 0x2000 entries */
	if (entries == full)
		size = 0;
	else if (type == 3 && (entries == 0x8000 || entries == 0x4000 || entries == 0x2000))
		size = entries == 0x8000 ? 1 : entries == 0x4000 ? 2 : 3;
	else
		return NVM_ERR_ARG;
	if (addr >> VA_BITS)
		return NVM_ERR_RANGE;
	*pde = type | (uint64_t)target << 2 | (uint64_t)size << 5 | (addr & 0xfffffff000ull);
	return NVM_OK;
}

void nvm_g80_vm_desc_init(nvm_g80_vm_desc *d)
{
	*d = (nvm_g80_vm_desc){ .target = NVM_MMU_TGT_VID, .objects = UINT64_MAX, .heap = UINT64_MAX };
}

nvm_status nvm_g80_vmb_create(nvm_gpu *gpu, const nvm_g80_vm_desc *d, nvm_g80_vmb **out)
{
	nvm_g80_layout l;
	uint32_t desc;
	if (!gpu || !d || !out)
		return NVM_ERR_ARG;
	if (nvm_g80_chip_layout(gpu, &l))
		return NVM_ERR_CHIP;
	nvm_status st = nvm_g80_chan_desc(d->addr, d->target, &desc);
	if (st)
		return st;
	nvm_g80_vmb *vm = calloc(1, sizeof(*vm));
	if (!vm)
		return NVM_ERR_NOMEM;
	/* the page directory at the generation's default offset (0x1400 on G80, 0x200 after; a
	 * driver that moves it on G84+ writes PD_OFFSET itself) */
	uint64_t pd = l.gen == NVM_G80_GEN_G80 ? 0x1400 : 0x200;
	vm->gen = l.gen;
	vm->addr = d->addr;
	vm->target = d->target;
	vm->pd = d->addr + pd;
	vm->next_obj = d->addr + (d->objects == UINT64_MAX ? pd + 0x4000 : d->objects);
	vm->heap = d->heap == UINT64_MAX ? d->addr + 0x10000 : d->heap;
	*out = vm;
	return NVM_OK;
}

void nvm_g80_vmb_free(nvm_g80_vmb *vm)
{
	if (vm)
		free(vm->pts);
	free(vm);
}

size_t nvm_g80_vmb_footprint(const nvm_g80_vmb *vm)
{
	return vm ? sizeof(*vm) + (vm->pts ? NPDE * sizeof(g80_pt) : 0) : 0;
}

uint32_t nvm_g80_vmb_desc(const nvm_g80_vmb *vm)
{
	return (uint32_t)(vm->addr >> 12) | (uint32_t)vm->target << 28;
}

static nvm_status wr64(nvm_gpu *gpu, const nvm_g80_vmb *vm, uint64_t addr, uint64_t v)
{
	return setup_wr64(gpu, (nvm_place){ vm->target, addr }, v);
}

nvm_status nvm_g80_vmb_dmaobj(nvm_gpu *gpu, nvm_g80_vmb *vm, const nvm_g80_dmaobj *o, uint32_t *sel)
{
	uint32_t w[6];
	if (!gpu || !vm || !o || !sel)
		return NVM_ERR_ARG;
	uint64_t s = *sel;
	if (!s) {
		vm->next_obj = (vm->next_obj + 0x1f) & ~0x1full;
		s = (vm->next_obj - vm->addr) >> 4;
		vm->next_obj += 0x20;
	}
	if (s < 1 || s > 0xffff)
		return NVM_ERR_ARG;
	nvm_g80_dmaobj_encode(o, w);
	for (unsigned i = 0; i < 6; i++) {
		nvm_status st = setup_wr32(gpu, (nvm_place){ vm->target, vm->addr + (s << 4) + 4 * i }, w[i]);
		if (st)
			return st;
	}
	*sel = (uint32_t)s;
	return NVM_OK;
}

void nvm_g80_map_desc_init(nvm_g80_map_desc *m)
{
	*m = (nvm_g80_map_desc){ .page = 0x1000, .contig = 1 };
}

/* The page table under PDE i for pages of page bytes, made (with its PDE) on first use. */
static nvm_status get_pt(nvm_gpu *gpu, nvm_g80_vmb *vm, unsigned i, uint32_t page, uint32_t entries, g80_pt **out)
{
	if (!vm->pts && !(vm->pts = calloc(NPDE, sizeof(g80_pt))))
		return NVM_ERR_NOMEM;
	g80_pt *pt = &vm->pts[i];
	if (pt->page) {
		*out = pt;
		return pt->page == page ? NVM_OK : NVM_ERR_ARG;
	}
	if (!entries)
		entries = 0x20000000u / page;
	uint64_t pde;
	vm->heap = (vm->heap + 0xfff) & ~0xfffull;
	/* The page tables live with the structure: VRAM, or (snooped) system memory. */
	nvm_status st = nvm_g80_pde_make(page, entries, vm->heap,
	                                 vm->target == NVM_MMU_TGT_VID ? NVM_MMU_TGT_VID : NVM_MMU_TGT_SYS_COH, &pde);
	if (st)
		return st;
	*pt = (g80_pt){ vm->heap, page, entries };
	vm->heap += 8ull * entries;
	*out = pt;
	return wr64(gpu, vm, vm->pd + 8ull * i, pde);
}

nvm_status nvm_g80_vmb_map(nvm_gpu *gpu, nvm_g80_vmb *vm, const nvm_g80_map_desc *m, uint64_t *bad)
{
	if (!gpu || !vm || !m)
		return NVM_ERR_ARG;
	uint32_t page = m->page;
	if (!page_type(page) || (page == 0x4000 && vm->gen < NVM_G80_GEN_GT215))
		return NVM_ERR_ARG;
	if (m->virt >> VA_BITS || m->lin >> VA_BITS || !m->size || m->size > 1ull << VA_BITS)
		return NVM_ERR_RANGE;
	if (m->virt % page || m->lin % page || m->size % page)
		return NVM_ERR_ALIGN;
	if (m->size > (1ull << VA_BITS) - m->virt) { /* past the last PDE */
		if (bad)
			*bad = 1ull << VA_BITS;
		return NVM_ERR_RANGE;
	}
	uint64_t npages = m->size / page;
	for (uint64_t p = 0; p < npages;) {
		uint64_t v = m->virt + p * page;
		unsigned o = 0;
		/* CONTIG: the largest aligned block of up to 2^7 pages that fits */
		if (m->contig)
			while (o < 7 && (v / page) % (2ull << o) == 0 && p + (2ull << o) <= npages)
				o++;
		nvm_g80_pte_desc d = m->pte;
		d.addr = m->lin + p * page;
		d.contig = o;
		uint64_t pte;
		nvm_status st = nvm_g80_pte_make(&d, &pte);
		if (st)
			return st;
		for (uint64_t k = 0; k < 1ull << o; k++) {
			uint64_t vk = v + k * page;
			g80_pt *pt;
			st = get_pt(gpu, vm, (unsigned)(vk >> 29), page, m->entries, &pt);
			uint64_t idx = (vk & 0x1fffffff) / page;
			if (!st && idx >= pt->entries)
				st = NVM_ERR_RANGE;
			if (st) {
				if (bad)
					*bad = vk;
				return st;
			}
			if ((st = wr64(gpu, vm, pt->addr + idx * 8, pte)))
				return st;
		}
		p += 1ull << o;
	}
	return NVM_OK;
}

nvm_status nvm_g80_vmb_unmap(nvm_gpu *gpu, nvm_g80_vmb *vm, uint64_t virt, uint64_t size, uint32_t page)
{
	if (!gpu || !vm || !page_type(page) || virt >> VA_BITS || size > (1ull << VA_BITS) - virt)
		return NVM_ERR_ARG;
	for (uint64_t v = virt; vm->pts && v < virt + size; v += page) {
		const g80_pt *pt = &vm->pts[v >> 29];
		uint64_t idx = (v & 0x1fffffff) / page;
		if (!pt->page || idx >= pt->entries)
			continue;
		nvm_status st = wr64(gpu, vm, pt->addr + idx * 8, 0);
		if (st)
			return st;
	}
	return NVM_OK;
}

nvm_status nvm_g80_vmb_pt(const nvm_g80_vmb *vm, unsigned i, uint64_t *addr, uint32_t *page, uint32_t *entries)
{
	if (!vm || i >= NPDE)
		return NVM_ERR_ARG;
	const g80_pt *pt = vm->pts ? &vm->pts[i] : NULL;
	if (!pt || !pt->page)
		return NVM_ERR_NOENT;
	if (addr)
		*addr = pt->addr;
	if (page)
		*page = pt->page;
	if (entries)
		*entries = pt->entries;
	return NVM_OK;
}

nvm_status nvm_g80_bar_setup(nvm_gpu *gpu, uint64_t mem, uint64_t bar1_size, uint64_t bar3_size, nvm_g80_vmb **vm,
                             uint32_t *sel1, uint32_t *sel3)
{
	if (!vm || !sel1 || !sel3 || !bar1_size || !bar3_size)
		return NVM_ERR_ARG;
	nvm_g80_vm_desc d;
	nvm_g80_vm_desc_init(&d);
	d.addr = mem;
	d.objects = 0x5000;
	d.heap = mem + 0x20000;
	nvm_status st = nvm_g80_vmb_create(gpu, &d, vm);
	if (st)
		return st;
	/* DMA objects over the BARs' VA ranges: BAR3 from 4 GiB, BAR1 from 0; everything else from the page tables */
	nvm_g80_dmaobj b3 = { .storage_type = 0x7f,
		              .comp = 3,
		              .base = 1ull << 32,
		              .limit = (1ull << 32) + bar3_size - 1 };
	nvm_g80_dmaobj b1 = { .storage_type = 0x7f, .comp = 3, .base = 0, .limit = bar1_size - 1 };
	*sel3 = *sel1 = 0;
	if ((st = nvm_g80_vmb_dmaobj(gpu, *vm, &b3, sel3)) || (st = nvm_g80_vmb_dmaobj(gpu, *vm, &b1, sel1)) ||
	    (st = nvm_reg_write(gpu, 0x1704, (uint32_t)(mem >> 12))) ||
	    (st = nvm_reg_write(gpu, 0x1704, 0x40000000u | (uint32_t)(mem >> 12))) ||
	    (st = nvm_reg_write(gpu, 0x170c, 0x80000000u | *sel3)) ||
	    (st = nvm_reg_write(gpu, 0x1708, 0x80000000u | *sel1))) {
		nvm_g80_vmb_free(*vm);
		*vm = NULL;
		return st;
	}
	return NVM_OK;
}
