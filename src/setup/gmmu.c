/*
 * GMMU page tables as a driver builds them (include/nvmodel/setup.h):
 * the ver2 format of gv100 .. ga102 (gp100-mmu-format.txt, gv100_dev_mmu)
 * and the ver3 format of gh100 (gh100 dev_mmu.h, UVM uvm_hopper_mmu.c),
 * picked by the chip's GMMU generation (nvm_mmu_format). The two differ in
 * data only: a format row says how many directory levels sit above the dual
 * PDE0, where each takes its index, and where the entries put the address.
 */
#include <stdlib.h>
#include <string.h>

#include "nvmodel/setup.h"
#include "setup/setup_internal.h"

/* One page-table format. */
typedef struct gmmu_fmt {
	unsigned ndirs;        /* directory levels above the dual PDE0 */
	uint8_t dir_shift[4];  /* VA bit where each level's index starts */
	uint16_t dir_mask[4];  /* its index mask */
	int pde_addr_in_place; /* PDE ADDRESS holds the table's 51:12 in place (ver3) or >> 12 at 8 (ver2) */
	unsigned big_shift;    /* dual PDE ADDRESS_BIG: table >> 8, at bit 4 (ver2) or 8 (ver3) */
	unsigned small_shift;  /* ADDRESS_SMALL: table >> 12, at bit 72-64 = 8 (ver2) or 76-64 = 12 (ver3) */
	unsigned pte_shift;    /* PTE ADDRESS: pa >> 12 at bit 8 (ver2) or 12 (ver3) */
	uint32_t kind_max;     /* KIND 63:56 (ver2), 11:8 (ver3) */
	int huge;              /* 2 MiB PTEs in the dual PDE0 slot are built */
} gmmu_fmt;

/* ver2: PDE3 48:47, PDE2 46:38, PDE1 37:29. */
static const gmmu_fmt fmt_ver2 = { 3, { 47, 38, 29 }, { 0x3, 0x1ff, 0x1ff }, 0, 4, 8, 8, 0xff, 1 };
/* ver3: PDE4 56:56, PDE3 55:47, PDE2 46:38, PDE1 37:29. */
static const gmmu_fmt fmt_ver3 = { 4, { 56, 47, 38, 29 }, { 0x1, 0x1ff, 0x1ff, 0x1ff }, 1, 8, 12, 12, 0xf, 0 };

/* A dual PDE0 slot: the 64 KiB and 4 KiB page tables under it, or a 2 MiB page. */
typedef struct slot {
	uint64_t big, small;
	int huge;
} slot;

typedef struct dir {
	uint64_t addr;
	struct dir *sub[512]; /* directories below (NULL: not made yet) */
	slot *slots;          /* the dual PDE0 table: its 256 slots */
} dir;

typedef struct mapping {
	uint64_t va, size;
	nvm_place pa;
} mapping;

struct nvm_gmmu_vm {
	const gmmu_fmt *fmt;
	nvm_heap *heap;
	uint64_t next_va;
	dir *root;
	mapping *maps;
	size_t nmaps, capmaps;
	size_t footprint; /* host bytes held */
};

/* NV_MMU_VER2_PDE / VER3_PDE APERTURE 2:1: VIDEO_MEMORY 1, SYSTEM_COHERENT 2, SYSTEM_NON_COHERENT 3. */
static uint64_t pde_aperture(nvm_mmu_target t)
{
	return t == NVM_MMU_TGT_VID ? 1 : (uint64_t)t;
}

/* A zeroed table from the VM's heap, within the PDE address field. */
static nvm_status new_table(nvm_gpu *gpu, nvm_gmmu_vm *vm, uint64_t size, uint64_t *addr)
{
	nvm_status st = nvm_heap_alloc(vm->heap, size, size, addr);
	if (st)
		return st;
	if ((*addr + size - 1) >> setup_addr_bits(vm->heap->target))
		return NVM_ERR_RANGE;
	return setup_zero(gpu, (nvm_place){ vm->heap->target, *addr }, size);
}

static nvm_status new_dir(nvm_gpu *gpu, nvm_gmmu_vm *vm, int pd0, dir **out)
{
	dir *d = calloc(1, sizeof(*d));
	if (!d || (pd0 && !(d->slots = calloc(256, sizeof(slot))))) {
		free(d);
		return NVM_ERR_NOMEM;
	}
	vm->footprint += sizeof(*d) + (pd0 ? 256 * sizeof(slot) : 0);
	nvm_status st = new_table(gpu, vm, 4096, &d->addr);
	if (st) {
		free(d->slots);
		free(d);
		return st;
	}
	*out = d;
	return NVM_OK;
}

static void free_dir(dir *d)
{
	if (!d)
		return;
	for (unsigned i = 0; i < 512; i++)
		free_dir(d->sub[i]);
	free(d->slots);
	free(d);
}

nvm_status nvm_gmmu_vm_create(nvm_gpu *gpu, nvm_heap *heap, uint64_t va_base, nvm_gmmu_vm **out)
{
	if (!gpu || !heap || !out || va_base >= NVM_GMMU_VA_LIMIT)
		return NVM_ERR_ARG;
	const char *f = nvm_mmu_format(gpu);
	if (!f)
		return NVM_ERR_CHIP;
	nvm_gmmu_vm *vm = calloc(1, sizeof(*vm));
	if (!vm)
		return NVM_ERR_NOMEM;
	vm->fmt = strcmp(f, "ver3") ? &fmt_ver2 : &fmt_ver3;
	vm->footprint = sizeof(*vm);
	vm->heap = heap;
	vm->next_va = va_base;
	/* The top table starts the tree: NV_RAMIN_PAGE_DIR_BASE is 4 KiB aligned. */
	nvm_status st = new_dir(gpu, vm, 0, &vm->root);
	if (st) {
		free(vm);
		return st;
	}
	*out = vm;
	return NVM_OK;
}

void nvm_gmmu_vm_free(nvm_gmmu_vm *vm)
{
	if (!vm)
		return;
	free_dir(vm->root);
	free(vm->maps);
	free(vm);
}

nvm_place nvm_gmmu_vm_pdb(const nvm_gmmu_vm *vm)
{
	return (nvm_place){ vm->heap->target, vm->root->addr };
}

nvm_heap *setup_vm_heap(const nvm_gmmu_vm *vm)
{
	return vm->heap;
}

bool nvm_gmmu_vm_ver3(const nvm_gmmu_vm *vm)
{
	return vm->fmt == &fmt_ver3;
}

uint64_t nvm_gmmu_vm_next_va(const nvm_gmmu_vm *vm)
{
	return vm->next_va;
}

size_t nvm_gmmu_vm_footprint(const nvm_gmmu_vm *vm)
{
	return vm ? vm->footprint : 0;
}

static uint64_t pde(const nvm_gmmu_vm *vm, uint64_t table)
{
	uint64_t ap = pde_aperture(vm->heap->target) << 1; /* IS_PTE 0:0 = 0, VOL / PCF = 0 */
	return vm->fmt->pde_addr_in_place ? (table & ~0xfffull) | ap : (table >> 12) << 8 | ap;
}

/* The dual PDE0 slot of va: its table and index; the directories above are made on the way. */
static nvm_status find_slot(nvm_gpu *gpu, nvm_gmmu_vm *vm, uint64_t va, dir **pd0, unsigned *idx)
{
	const gmmu_fmt *f = vm->fmt;
	dir *d = vm->root;
	for (unsigned l = 0; l < f->ndirs; l++) {
		unsigned i = (unsigned)(va >> f->dir_shift[l]) & f->dir_mask[l];
		if (!d->sub[i]) {
			nvm_status st = new_dir(gpu, vm, l + 1 == f->ndirs, &d->sub[i]);
			if (!st)
				st = setup_wr64(gpu, (nvm_place){ vm->heap->target, d->addr + 8 * i },
				                pde(vm, d->sub[i]->addr));
			if (st)
				return st;
		}
		d = d->sub[i];
	}
	*pd0 = d;
	*idx = (unsigned)(va >> 21) & 0xff; /* PDE0 index: VA 28:21, 16-byte dual entries */
	return NVM_OK;
}

/* The slot of va if its directories exist (nothing is made). */
static const slot *peek_slot(const nvm_gmmu_vm *vm, uint64_t va)
{
	const gmmu_fmt *f = vm->fmt;
	const dir *d = vm->root;
	for (unsigned l = 0; d && l < f->ndirs; l++)
		d = d->sub[(va >> f->dir_shift[l]) & f->dir_mask[l]];
	return d && d->slots ? &d->slots[(va >> 21) & 0xff] : NULL;
}

nvm_status nvm_gmmu_pte_ver2(nvm_mmu_target target, uint64_t pa, const nvm_gmmu_map_opts *o, uint64_t *pte)
{
	static const nvm_gmmu_map_opts none;
	nvm_aperture ap;
	if (!pte)
		return NVM_ERR_ARG;
	if (!o)
		o = &none;
	if (nvm_target_aperture(target, &ap))
		return NVM_ERR_APERTURE;
	if (pa >> setup_addr_bits(target))
		return NVM_ERR_RANGE;
	if (o->kind > 0xff)
		return NVM_ERR_ARG;
	/* VALID 0:0, APERTURE 2:1, VOL 3:3, ENCRYPTED 4:4 (0), PRIVILEGE 5:5, READ_ONLY 6:6,
	 * ATOMIC_DISABLE 7:7, ADDRESS 53:8 (SYS) / 32:8 (VID) = pa >> 12, KIND 63:56 */
	*pte = 1 | (uint64_t)target << 1 | (uint64_t) !!o->vol << 3 | (uint64_t) !!o->priv << 5 |
	       (uint64_t) !!o->ro << 6 | (uint64_t) !!o->atomic_disable << 7 | (pa >> 12) << 8 |
	       (uint64_t)o->kind << 56;
	return NVM_OK;
}

/* The PTE without its address, for the VM's format. */
static uint64_t pte_flags(const nvm_gmmu_vm *vm, nvm_mmu_target target, const nvm_gmmu_map_opts *o)
{
	if (vm->fmt == &fmt_ver2) {
		uint64_t pte = 0;
		nvm_gmmu_pte_ver2(target, 0, o, &pte);
		return pte;
	}
	/* NV_MMU_VER3_PTE: VALID 0:0, APERTURE 2:1, PCF 7:3 (UNCACHED 1, PRIVILEGE 2, READ_ONLY 4,
	 * NO_ATOMIC 8: 0 is REGULAR_RW_ATOMIC_CACHED_ACE), KIND 11:8, ADDRESS 51:12 = pa 51:12. */
	uint64_t pcf = (uint64_t)((o->vol ? 1 : 0) | (o->priv ? 2 : 0) | (o->ro ? 4 : 0) | (o->atomic_disable ? 8 : 0));
	return 1 | (uint64_t)target << 1 | pcf << 3 | (uint64_t)o->kind << 8;
}

nvm_status nvm_gmmu_map_conflict(const nvm_gmmu_vm *vm, uint64_t va, uint64_t size, uint32_t page, uint64_t *where)
{
	if (!vm || !size)
		return NVM_ERR_ARG;
	if (va >= NVM_GMMU_VA_LIMIT || size > NVM_GMMU_VA_LIMIT - va)
		return NVM_ERR_RANGE;
	for (uint64_t v = va & ~0x1fffffull; v < va + size; v += 0x200000) {
		const slot *s = peek_slot(vm, v);
		if (s && (page == 0x200000 ? s->big || s->small : s->huge)) {
			if (where)
				*where = v;
			return NVM_ERR_ARG;
		}
	}
	return NVM_OK;
}

static nvm_status record(nvm_gmmu_vm *vm, uint64_t va, uint64_t size, nvm_place pa)
{
	if (vm->nmaps == vm->capmaps) {
		size_t cap = vm->capmaps ? 2 * vm->capmaps : 16;
		mapping *m = realloc(vm->maps, cap * sizeof(*m));
		if (!m)
			return NVM_ERR_NOMEM;
		vm->maps = m;
		vm->footprint += (cap - vm->capmaps) * sizeof(*m);
		vm->capmaps = cap;
	}
	vm->maps[vm->nmaps++] = (mapping){ va, size, pa };
	return NVM_OK;
}

/* One page of the mapping: its PTE in the slot of va. */
static nvm_status map_page(nvm_gpu *gpu, nvm_gmmu_vm *vm, uint64_t va, uint32_t page, uint64_t pte)
{
	dir *pd0;
	unsigned i;
	nvm_status st = find_slot(gpu, vm, va, &pd0, &i);
	if (st)
		return st;
	slot *s = &pd0->slots[i];
	nvm_mmu_target t = vm->heap->target;
	uint64_t sa = pd0->addr + 16 * i, pde_ap = pde_aperture(t) << 1;
	if (page == 0x200000) {
		/* IS_PTE 0:0 = 1: the low 8 bytes of the dual PDE0 are a 2 MiB PTE; the upper half is unused. */
		s->huge = 1;
		st = setup_wr64(gpu, (nvm_place){ t, sa }, pte);
		return st ? st : setup_wr64(gpu, (nvm_place){ t, sa + 8 }, 0);
	}
	if (page == 65536) {
		if (!s->big) {
			/* 32 entries of 8 B, 256-byte aligned (NV_MMU_VER2_DUAL_PDE_ADDRESS_BIG_SHIFT 8).
			 * Dual PDE bits 63:0: APERTURE_BIG 2:1, VOL_BIG / PCF_BIG = 0, ADDRESS_BIG = pt >> 8. */
			if ((st = new_table(gpu, vm, 256, &s->big)) ||
			    (st = setup_wr64(gpu, (nvm_place){ t, sa }, (s->big >> 8) << vm->fmt->big_shift | pde_ap)))
				return st;
		}
		return setup_wr64(gpu, (nvm_place){ t, s->big + 8 * ((va >> 16) & 0x1f) }, pte); /* VA 20:16 */
	}
	if (!s->small) {
		/* Dual PDE bits 127:64: APERTURE_SMALL 66:65, VOL_SMALL / PCF_SMALL = 0, ADDRESS_SMALL = pt >> 12. */
		if ((st = new_table(gpu, vm, 4096, &s->small)) ||
		    (st = setup_wr64(gpu, (nvm_place){ t, sa + 8 }, (s->small >> 12) << vm->fmt->small_shift | pde_ap)))
			return st;
	}
	return setup_wr64(gpu, (nvm_place){ t, s->small + 8 * ((va >> 12) & 0x1ff) }, pte); /* VA 20:12 */
}

nvm_status nvm_gmmu_map(nvm_gpu *gpu, nvm_gmmu_vm *vm, uint64_t va, nvm_mmu_target target, uint64_t pa, uint64_t size,
                        const nvm_gmmu_map_opts *o)
{
	static const nvm_gmmu_map_opts none;
	nvm_aperture ap;
	if (!gpu || !vm || !size)
		return NVM_ERR_ARG;
	if (!o)
		o = &none;
	uint32_t page = o->page ? o->page : 4096;
	if (page != 4096 && page != 65536 && page != 0x200000)
		return NVM_ERR_ARG;
	if (nvm_target_aperture(target, &ap))
		return NVM_ERR_APERTURE;
	if (va % page || pa % page || size % page)
		return NVM_ERR_ALIGN;
	if (va >= NVM_GMMU_VA_LIMIT || size > NVM_GMMU_VA_LIMIT - va)
		return NVM_ERR_RANGE;
	if (pa >= SETUP_PA_LIMIT || size > SETUP_PA_LIMIT - pa || (pa + size - 1) >> setup_addr_bits(target))
		return NVM_ERR_RANGE;
	if (o->kind > vm->fmt->kind_max || (page == 0x200000 && !vm->fmt->huge))
		return NVM_ERR_ARG;
	/* A 2 MiB page fills a dual PDE0 slot, which then cannot point at page
	 * tables: every slot is checked before anything is written. */
	nvm_status st = nvm_gmmu_map_conflict(vm, va, size, page, NULL);
	if (st)
		return st;
	uint64_t flags = pte_flags(vm, target, o);
	for (uint64_t off = 0; off < size; off += page)
		if ((st = map_page(gpu, vm, va + off, page, flags | ((pa + off) >> 12) << vm->fmt->pte_shift)))
			return st;
	return record(vm, va, size, (nvm_place){ target, pa });
}

nvm_status nvm_gmmu_alloc_map(nvm_gpu *gpu, nvm_gmmu_vm *vm, nvm_heap *heap, uint64_t size, const nvm_gmmu_map_opts *o,
                              uint64_t *va, nvm_place *pa)
{
	static const nvm_gmmu_map_opts none;
	if (!gpu || !vm || !size)
		return NVM_ERR_ARG;
	if (!o)
		o = &none;
	if (!heap)
		heap = vm->heap;
	uint64_t page = o->page ? o->page : 4096;
	if (page != 4096 && page != 65536 && page != 0x200000)
		return NVM_ERR_ARG;
	if (size > NVM_GMMU_VA_LIMIT || vm->next_va > NVM_GMMU_VA_LIMIT)
		return NVM_ERR_RANGE;
	size = (size + page - 1) & ~(page - 1);
	uint64_t v = (vm->next_va + page - 1) & ~(page - 1), a;
	nvm_status st = nvm_heap_alloc(heap, size, page, &a);
	if (!st)
		st = nvm_gmmu_map(gpu, vm, v, heap->target, a, size, o);
	if (st)
		return st;
	vm->next_va = v + size;
	if (va)
		*va = v;
	if (pa)
		*pa = (nvm_place){ heap->target, a };
	return NVM_OK;
}

nvm_status nvm_gmmu_lookup(const nvm_gmmu_vm *vm, uint64_t va, nvm_place *pa, uint64_t *left)
{
	if (!vm)
		return NVM_ERR_ARG;
	for (size_t i = vm->nmaps; i-- > 0;) {
		const mapping *m = &vm->maps[i];
		if (va >= m->va && va - m->va < m->size) {
			if (pa)
				*pa = (nvm_place){ m->pa.target, m->pa.addr + (va - m->va) };
			if (left)
				*left = m->size - (va - m->va);
			return NVM_OK;
		}
	}
	return NVM_ERR_NOENT;
}

/* Reads into rd or writes from wr each mapped piece of [va, va + len);
 * without a gpu, only checks that every byte is mapped. */
static nvm_status span(nvm_gpu *gpu, const nvm_gmmu_vm *vm, uint64_t va, uint8_t *rd, const uint8_t *wr, size_t len)
{
	for (size_t off = 0; off < len;) {
		nvm_place pa;
		uint64_t left;
		nvm_aperture ap;
		nvm_status st = nvm_gmmu_lookup(vm, va + off, &pa, &left);
		if (st)
			return st;
		size_t n = left < len - off ? (size_t)left : len - off;
		if (gpu && (st = nvm_target_aperture(pa.target, &ap)))
			return st;
		if (gpu && rd)
			st = nvm_mem_read(gpu, ap, pa.addr, rd + off, n);
		else if (gpu && wr)
			st = nvm_mem_write(gpu, ap, pa.addr, wr + off, n);
		if (st)
			return st;
		off += n;
	}
	return NVM_OK;
}

nvm_status nvm_gmmu_write(nvm_gpu *gpu, const nvm_gmmu_vm *vm, uint64_t va, const void *buf, size_t len)
{
	if (!gpu || !vm || (!buf && len))
		return NVM_ERR_ARG;
	/* Every byte mapped before any is written. */
	nvm_status st = span(NULL, vm, va, NULL, NULL, len);
	return st ? st : span(gpu, vm, va, NULL, buf, len);
}

nvm_status nvm_gmmu_read(nvm_gpu *gpu, const nvm_gmmu_vm *vm, uint64_t va, void *buf, size_t len)
{
	if (!gpu || !vm || (!buf && len))
		return NVM_ERR_ARG;
	return span(gpu, vm, va, buf, NULL, len);
}
