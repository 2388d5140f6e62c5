/*
 * The ver2 (Pascal/Volta) 5-level page-table walker, a pure function over
 * guest memory: gv100_dev_mmu.ref.txt NV_MMU_VER2_PDE / _DUAL_PDE / _PTE,
 * gp100-mmu-format.txt, volta-facts.md section e.
 *
 *   PDE3 va[48:47]  4 x 8 B    PDE2 va[46:38] 512 x 8 B
 *   PDE1 va[37:29] 512 x 8 B   PDE0 va[28:21] 256 x 16 B (dual: big + small,
 *                                                         or a 2 MiB PTE)
 *   big PT va[20:16] 32 x 8 B (64 KiB pages), small PT va[20:12] 512 x 8 B
 *
 * Every entry is read with the bounds-checked nvm_mem_read (the enumerator
 * through mem_span, checked the same way), so a hostile table pointer gives
 * a fault (res->oob), never a wild access.
 */
#include <string.h>

#include "mmu_internal.h"

#define SZ_4K  (1ull << 12)
#define SZ_64K (1ull << 16)
#define SZ_2M  (1ull << 21)

/* The four directory levels above the page tables. */
static const struct pd_level {
	const char *name;
	unsigned shift, bits, entry_size;
} pd_levels[4] = {
	{ "PDE3", 47, 2, 8 },
	{ "PDE2", 38, 9, 8 },
	{ "PDE1", 29, 9, 8 },
	{ "PDE0", 21, 8, 16 },
};

/* Kinds gv100_dev_mmu.ref defines (NV_MMU_PTE_KIND_*), as a bitmap; 0xff
 * (INVALID) and the gaps 0x6e, 0x93-0x96, 0xaf-0xb2, 0xc9 are absent.
 * UNVERIFIED: a valid PTE with a kind outside this set faults
 * UNSUPPORTED_KIND. */
static const uint32_t kind_bitmap[8] = {
	0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffbfffu, 0xff87ffffu, 0xfff87fffu, 0xfffffdffu, 0x7fffffffu,
};

bool mmu_kind_valid(unsigned kind)
{
	return kind < 256 && ((kind_bitmap[kind >> 5] >> (kind & 31)) & 1u);
}

bool mmu_ramin_aperture(unsigned target, nvm_aperture *ap)
{
	switch (target) {
	case NVM_MMU_PDB_VID: *ap = NVM_AP_VRAM; return true;
	case NVM_MMU_PDB_SYS_COH:
	case NVM_MMU_PDB_SYS_NCOH: *ap = NVM_AP_SYSMEM; return true;
	default: return false;
	}
}

bool mmu_pte_aperture(nvm_mmu_target t, nvm_aperture *ap)
{
	switch (t) {
	case NVM_MMU_TGT_VID: *ap = NVM_AP_VRAM; return true;
	case NVM_MMU_TGT_SYS_COH:
	case NVM_MMU_TGT_SYS_NCOH: *ap = NVM_AP_SYSMEM; return true;
	default: return false;
	}
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Reads n (1 or 2) 64-bit words of a table entry. */
bool mmu_read_entry(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t addr, int n, uint64_t *out)
{
	nvm_aperture ap;
	uint8_t b[16];
	if (!mmu_pte_aperture(tgt, &ap) || nvm_mem_read(gpu, ap, addr, b, (size_t)n * 8))
		return false;
	out[0] = le64(b);
	out[1] = n > 1 ? le64(b + 8) : 0;
	return true;
}

/* A PDE APERTURE (1 VID, 2 SYS_COH, 3 SYS_NCOH) and its table address:
 * ADDRESS_VID (35-3):8 or ADDRESS_SYS 53:8, shifted by ADDRESS_SHIFT 12. */
static uint64_t pde_table_addr(uint64_t e, unsigned aperture)
{
	return (aperture == 1 ? F64(e, 32, 8) : F64(e, 53, 8)) << 12;
}

static nvm_mmu_target pde_target(unsigned aperture)
{
	return aperture == 1 ? NVM_MMU_TGT_VID : (nvm_mmu_target)aperture;
}

int mmu_pte_decode(uint64_t pte, uint64_t page_size, uint64_t va, nvm_mmu_result *res)
{
	res->target = (nvm_mmu_target)F64(pte, 2, 1);
	res->vol = (int)F64(pte, 3, 3);
	res->encrypted = (int)F64(pte, 4, 4); /* UNVERIFIED: reported, no effect ("Do not use") */
	res->priv = (int)F64(pte, 5, 5);
	res->ro = (int)F64(pte, 6, 6);
	res->atomic_disable = (int)F64(pte, 7, 7);
	res->kind = (unsigned)F64(pte, 63, 56);
	res->page_size = page_size;
	uint64_t addr;
	if (res->target == NVM_MMU_TGT_VID || res->target == NVM_MMU_TGT_PEER) {
		/* ADDRESS_VID (35-3):8; PEER id in 35:(36-3). */
		addr = F64(pte, 32, 8) << 12;
		res->peer = res->target == NVM_MMU_TGT_PEER ? (unsigned)F64(pte, 35, 33) : 0;
	} else {
		addr = F64(pte, 53, 8) << 12; /* ADDRESS_SYS */
		res->peer = 0;
	}
	/* UNVERIFIED: address bits below the page size are ignored (drivers
	 * always align them); the VA supplies the offset inside the page. */
	res->pa = (addr & ~(page_size - 1)) | (va & (page_size - 1));
	return (int)(pte & 1);
}

void mmu_check_access(nvm_mmu_result *res, nvm_mmu_access access, int privileged)
{
	bool atomic = access == NVM_MMU_ATOMIC || access == NVM_MMU_ATOMIC_WEAK;
	/* UNVERIFIED: the documents give no priority between the checks; this
	 * order is kind, privilege, read-only, atomic. */
	if (!mmu_kind_valid(res->kind))
		res->fault = NVM_MMU_FAULT_UNSUPPORTED_KIND;
	else if (res->priv && !privileged) /* format: "non-privileged requests fault" */
		res->fault = NVM_MMU_FAULT_PRIV_VIOLATION;
	else if (res->ro && (access == NVM_MMU_WRITE || atomic)) /* "writes to this page fault" */
		res->fault = NVM_MMU_FAULT_RO_VIOLATION;
	else if (res->atomic_disable && atomic) /* "An atomic request ... will fault" */
		res->fault = NVM_MMU_FAULT_ATOMIC_VIOLATION;
}

void mmu_trace_add(nvm_mmu_walk_trace *tr, const char *name, nvm_mmu_target tgt, uint64_t table, unsigned index,
                   uint64_t ea, int nwords, const uint64_t *raw, bool ok)
{
	if (!tr || tr->n >= NVM_MMU_WALK_MAX)
		return;
	nvm_mmu_walk_level *l = &tr->lv[tr->n++];
	l->name = name;
	l->table_target = tgt;
	l->table = table;
	l->index = index;
	l->entry_addr = ea;
	l->nwords = nwords;
	l->raw[0] = ok ? raw[0] : 0;
	l->raw[1] = ok && nwords > 1 ? raw[1] : 0;
	l->read_ok = ok;
}

static void set_fault(nvm_mmu_result *res, nvm_mmu_fault_type f, int level)
{
	res->fault = f;
	res->level = level;
}

/* UNVERIFIED: a sparse range translates (reads 0, writes dropped by the
 * users of the result); the SM debug dummy page and the NACK to TEX/PROP
 * clients (gp100-mmu-format, VOL) are not modelled. */
static void set_sparse(nvm_mmu_result *res, uint64_t page_size, int level)
{
	res->sparse = 1;
	res->page_size = page_size;
	res->level = level;
}

/* The page tables below a dual PDE0. Which entry decides (UNVERIFIED where
 * both are valid; docs/fidelity.md): a valid small PTE wins; else a valid big PTE; else the
 * range is sparse when the small PTE (or, without a small table, the big
 * PTE) has VOL set; else a PTE fault. An invalid big PTE with PRIVILEGE set
 * means "no small page PTEs in this range are valid" (gp100-mmu-format,
 * Privileged) and hides the small table. */

/* Returns 0 translated or sparse, 1 fault. */
/* The two page tables a dual PDE0 points to (gv100_dev_mmu.ref.txt
 * NV_MMU_VER2_DUAL_PDE): APERTURE_BIG 2:1 with ADDRESS_BIG_{VID (35-3):(8-4),
 * SYS 53:(8-4)} and BIG_SHIFT 8; APERTURE_SMALL 66:65 with
 * ADDRESS_SMALL_{VID (99-3):72, SYS 117:72} and SHIFT 12. */
static void dual_pde_tables(const uint64_t e[2], struct mmu_pt_pair *pp)
{
	unsigned ab = (unsigned)F64(e[0], 2, 1), as = (unsigned)F64(e[1], 66 - 64, 65 - 64);
	if (ab) {
		pp->big_present = true;
		pp->big_tgt = pde_target(ab);
		pp->big_table = (ab == 1 ? F64(e[0], 32, 4) : F64(e[0], 53, 4)) << 8;
	}
	if (as) {
		pp->small_present = true;
		pp->small_tgt = pde_target(as);
		pp->small_table = (as == 1 ? F64(e[1], 96 - 64, 72 - 64) : F64(e[1], 117 - 64, 72 - 64)) << 12;
	}
}

/* Reads entry idx of a page table into pte, traced; an entry outside memory
 * is a PTE fault at level 4. */
static bool read_pte(nvm_gpu *gpu, const char *level, nvm_mmu_target tgt, uint64_t table, unsigned idx, uint64_t pte[2],
                     nvm_mmu_result *res, nvm_mmu_walk_trace *tr)
{
	uint64_t ea = table + idx * 8ull;
	bool ok = mmu_read_entry(gpu, tgt, ea, 1, pte);
	mmu_trace_add(tr, level, tgt, table, idx, ea, 1, pte, ok);
	if (!ok) {
		res->oob = 1;
		set_fault(res, NVM_MMU_FAULT_PTE, 4);
	}
	return ok;
}

static int walk_pts(nvm_gpu *gpu, const struct mmu_pt_pair *pp, uint64_t va, nvm_mmu_result *res,
                    nvm_mmu_walk_trace *tr)
{
	uint64_t big[2] = { 0, 0 }, small[2] = { 0, 0 };
	bool have_big = false, have_small = false;
	if (pp->big_present) {
		if (!read_pte(gpu, "PTE_BIG", pp->big_tgt, pp->big_table, (unsigned)F64(va, 20, 16), big, res, tr))
			return 1;
		have_big = true;
	}
	bool small_hidden = have_big && !(big[0] & 1) && F64(big[0], 5, 5);
	if (pp->small_present && !small_hidden) {
		if (!read_pte(gpu, "PTE_SMALL", pp->small_tgt, pp->small_table, (unsigned)F64(va, 20, 12), small, res,
		              tr))
			return 1;
		have_small = true;
	}
	res->level = 4;
	if (have_small && (small[0] & 1)) {
		mmu_pte_decode(small[0], SZ_4K, va, res);
		return 0;
	}
	if (have_big && (big[0] & 1)) {
		mmu_pte_decode(big[0], SZ_64K, va, res);
		return 0;
	}
	/* "If Valid is 0 and Volatile is 1, the PTE is sparse." */
	if (have_small ? F64(small[0], 3, 3) : (have_big && F64(big[0], 3, 3))) {
		set_sparse(res, have_small ? SZ_4K : SZ_64K, 4);
		return 0;
	}
	set_fault(res, NVM_MMU_FAULT_PTE, 4);
	return 1;
}

void mmu_walk_from(nvm_gpu *gpu, int start, nvm_mmu_target tgt, uint64_t table, const struct mmu_pt_pair *spp,
                   uint64_t va, nvm_mmu_access access, int privileged, nvm_mmu_result *res, nvm_mmu_walk_trace *tr,
                   struct mmu_walk_path *path)
{
	memset(res, 0, sizeof(*res));
	res->fault = NVM_MMU_FAULT_NONE;
	res->level = -1;
	if (tr)
		tr->n = 0;
	if (path)
		memset(path, 0, sizeof(*path));
	if (va >> MMU_VA_BITS) {
		set_fault(res, NVM_MMU_FAULT_VA_LIMIT_VIOLATION, -1);
		return;
	}
	struct mmu_pt_pair pp = { 0 };
	if (start >= 4) {
		pp = *spp;
		goto page_tables;
	}
	for (int lvl = start; lvl < 4; lvl++) {
		const struct pd_level *L = &pd_levels[lvl];
		unsigned idx = (unsigned)((va >> L->shift) & ((1u << L->bits) - 1));
		uint64_t ea = table + (uint64_t)idx * L->entry_size;
		uint64_t e[2];
		int nw = L->entry_size / 8;
		if (path && lvl > 0) {
			path->have[lvl] = true;
			path->tgt[lvl] = tgt;
			path->table[lvl] = table;
		}
		bool ok = mmu_read_entry(gpu, tgt, ea, nw, e);
		mmu_trace_add(tr, L->name, tgt, table, idx, ea, nw, e, ok);
		/* UNVERIFIED: a table outside its aperture faults PDE (PTE below PDE0). */
		if (!ok) {
			res->oob = 1;
			set_fault(res, NVM_MMU_FAULT_PDE, lvl);
			return;
		}
		if (lvl < 3) {
			if (e[0] & 1) {
				/* IS_PTE above PDE0: "Huge pages are unsupported above PD0".
				 * UNVERIFIED: reported as PDE_SIZE. */
				set_fault(res, NVM_MMU_FAULT_PDE_SIZE, lvl);
				return;
			}
			unsigned a = (unsigned)F64(e[0], 2, 1);
			if (a == 0) {
				/* "If Valid and Aperture are 0, and Volatile is 1, then the PDE is sparse". */
				if (F64(e[0], 3, 3))
					set_sparse(res, 1ull << L->shift, lvl);
				else
					set_fault(res, NVM_MMU_FAULT_PDE, lvl);
				return;
			}
			table = pde_table_addr(e[0], a);
			tgt = pde_target(a);
			continue;
		}
		/* Dual PDE0: IS_PTE makes the low 8 bytes a 2 MiB PTE (bit 0 is
		 * also its VALID). */
		if (e[0] & 1) {
			res->level = 3;
			mmu_pte_decode(e[0], SZ_2M, va, res);
			mmu_check_access(res, access, privileged);
			return;
		}
		unsigned ab = (unsigned)F64(e[0], 2, 1), as = (unsigned)F64(e[1], 66 - 64, 65 - 64);
		if (ab == 0 && as == 0) {
			/* "The big page VOL bit determines sparseness when both pointers are not valid". */
			if (F64(e[0], 3, 3))
				set_sparse(res, SZ_2M, 3);
			else
				set_fault(res, NVM_MMU_FAULT_PDE, 3);
			return;
		}
		dual_pde_tables(e, &pp);
		break;
	}
page_tables:
	if (path) {
		path->have[4] = true;
		path->pp = pp;
	}
	if (walk_pts(gpu, &pp, va, res, tr) == 0 && !res->sparse)
		mmu_check_access(res, access, privileged);
}

nvm_status nvm_mmu_walk(nvm_gpu *gpu, unsigned pdb_target, uint64_t pdb_addr, uint64_t va, nvm_mmu_access access,
                        bool privileged, nvm_mmu_result *res, nvm_mmu_walk_trace *tr)
{
	if (!gpu || !res)
		return NVM_ERR_ARG;
	nvm_aperture ap;
	if (!(va >> mmu_fmt_of(gpu)->va_bits) && !mmu_ramin_aperture(pdb_target, &ap)) {
		/* RAMIN: "Using INVALID, unbinds the selected engine." */
		memset(res, 0, sizeof(*res));
		if (tr)
			tr->n = 0;
		res->level = -1;
		res->fault = NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
		return NVM_ERR_FAULT;
	}
	nvm_mmu_target tgt = pdb_target == NVM_MMU_PDB_VID ? NVM_MMU_TGT_VID : (nvm_mmu_target)pdb_target;
	/* PAGE_DIR_BASE is 4K-aligned. */
	mmu_fmt_of(gpu)->walk(gpu, tgt, pdb_addr & ~0xfffull, va, access, privileged, res, tr);
	return res->fault != NVM_MMU_FAULT_NONE ? NVM_ERR_FAULT : NVM_OK;
}

static void v2_walk(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t table, uint64_t va, nvm_mmu_access access,
                    int privileged, nvm_mmu_result *res, nvm_mmu_walk_trace *tr)
{
	mmu_walk_from(gpu, 0, tgt, table, NULL, va, access, privileged, res, tr, NULL);
}

/* ---------------------------------------------------------------- enumeration */

/* The enumerator reads every entry of every table it reaches, so it reads
 * them through a pointer into the table's page (mem_span; untouched memory
 * is the shared zero page) instead of one checked copy each, and passes
 * over runs of entries that map nothing at once. The page is looked up
 * again after every callback, which may write or reset memory; where the
 * pointer cannot serve (an FB pause holding host accesses, a PEER table)
 * the checked read_entry decides, diagnostics included (struct enum_ctx
 * in mmu_internal.h: ver3's enumerator reads the same way). */

/* Finds the len bytes at addr (an entry, inside one page): 1 and *p by
 * pointer; 0 when they are outside the aperture, as is everything above
 * them (a read fails); -1 where read_entry must decide. */
static int enum_map(struct enum_ctx *c, nvm_mmu_target tgt, uint64_t addr, size_t len, const uint8_t **p)
{
	nvm_aperture ap;
	size_t off = (size_t)(addr & (NVM_PAGE_SIZE - 1));
	if ((c->gpu->hold & NVM_HOLD_MEM) || !mmu_pte_aperture(tgt, &ap) || off + len > NVM_PAGE_SIZE)
		return -1;
	uint64_t pn = addr >> NVM_PAGE_SHIFT;
	if (!c->page || c->ap != ap || c->pn != pn) {
		uint8_t *page;
		c->page = NULL;
		nvm_status st = mem_span(&c->gpu->mem[ap], pn << NVM_PAGE_SHIFT, false, &page, &c->avail);
		if (st)
			return st == NVM_ERR_NOPTR ? -1 : 0; /* caller callbacks: read_entry reads */
		c->page = page;
		c->ap = ap;
		c->pn = pn;
	}
	if (off + len > c->avail)
		return 0; /* past the aperture's end */
	*p = c->page + off;
	return 1;
}

bool mmu_enum_read(struct enum_ctx *c, nvm_mmu_target tgt, uint64_t addr, int n, uint64_t *out)
{
	if (!c->budget) {
		c->st = NVM_ERR_RANGE;
		c->stop = 1;
		return false;
	}
	c->budget--;
	const uint8_t *p;
	int m = enum_map(c, tgt, addr, (size_t)n * 8, &p);
	if (m < 0)
		return mmu_read_entry(c->gpu, tgt, addr, n, out);
	if (m == 0)
		return false;
	out[0] = le64(p);
	out[1] = n > 1 ? le64(p + 8) : 0;
	return true;
}

/* Passes over the entries (size bytes each) from addr on, at most n, that
 * are outside the aperture or all zero, and returns how many: such an entry
 * maps nothing at every level (all zero is invalid and not sparse). Each
 * costs a unit of the budget as its read would; where the budget ends, the
 * next read reports it. */
static unsigned enum_skip(struct enum_ctx *c, nvm_mmu_target tgt, uint64_t addr, unsigned n, unsigned size)
{
	const uint8_t *p;
	int m = enum_map(c, tgt, addr, size, &p);
	if (m < 0)
		return 0;
	uint64_t max = n;
	if (m) {
		size_t room = (c->avail - (size_t)(addr & (NVM_PAGE_SIZE - 1))) / size;
		max = room < n ? room : n;
	}
	if (max > c->budget)
		max = c->budget;
	unsigned k = 0;
	if (!m || c->page == mem_zero_page) {
		k = (unsigned)max;
	} else {
		for (; k < max; k++) {
			uint64_t w[2] = { 0, 0 };
			memcpy(w, p + (size_t)k * size, size);
			if (w[0] | w[1])
				break;
		}
	}
	c->budget -= k;
	return k;
}

static void enum_emit(struct enum_ctx *c, uint64_t va, uint64_t size, const nvm_mmu_result *attr)
{
	if (c->stop || c->gpu->closing)
		return;
	nvm_mmu_mapping m = { va, size, *attr };
	c->page = NULL; /* the callback may change memory */
	if (c->ops->map && c->ops->map(c->ops->user, &m))
		c->stop = 1;
}

static void enum_edge(struct enum_ctx *c, int lvl, nvm_mmu_target tgt, uint64_t table, unsigned idx,
                      const char *child_level, nvm_mmu_target ctgt, uint64_t child)
{
	if (c->stop || c->gpu->closing || !c->ops->edge)
		return;
	c->page = NULL; /* the callback may change memory */
	if (c->ops->edge(c->ops->user, pd_levels[lvl].name, tgt, table, idx, child_level, ctgt, child))
		c->stop = 1;
}

static void enum_sparse(struct enum_ctx *c, uint64_t va, uint64_t size)
{
	nvm_mmu_result r = { 0 };
	r.fault = NVM_MMU_FAULT_NONE;
	r.sparse = 1;
	r.page_size = size;
	enum_emit(c, va, size, &r);
}

/* The leaves under one dual PDE0, with the same decision as walk_pts. */
static void enum_pts(struct enum_ctx *c, const struct mmu_pt_pair *pp, uint64_t va0)
{
	for (unsigned j = 0; j < 32 && !c->stop; j++) {
		/* Without a small table, a big PTE outside memory or all zero maps nothing. */
		if (pp->big_present && !pp->small_present &&
		    (j += enum_skip(c, pp->big_tgt, pp->big_table + j * 8ull, 32 - j, 8)) == 32)
			break;
		uint64_t bva = va0 + (uint64_t)j * SZ_64K;
		uint64_t big[2] = { 0, 0 };
		bool have_big = false;
		if (pp->big_present)
			have_big = mmu_enum_read(c, pp->big_tgt, pp->big_table + j * 8ull, 1, big);
		if (c->stop)
			return;
		bool hidden = have_big && !(big[0] & 1) && F64(big[0], 5, 5);
		if (!pp->small_present || hidden) {
			nvm_mmu_result r = { 0 };
			r.fault = NVM_MMU_FAULT_NONE;
			if (have_big && (big[0] & 1)) {
				mmu_pte_decode(big[0], SZ_64K, bva, &r);
				enum_emit(c, bva, SZ_64K, &r);
			} else if (have_big && F64(big[0], 3, 3)) {
				enum_sparse(c, bva, SZ_64K);
			}
			continue;
		}
		bool big_valid = have_big && (big[0] & 1);
		for (unsigned k = 0; k < 16 && !c->stop; k++) {
			/* Under an invalid big PTE, so does a small one. */
			if (!big_valid &&
			    (k += enum_skip(c, pp->small_tgt, pp->small_table + (j * 16 + k) * 8ull, 16 - k, 8)) == 16)
				break;
			uint64_t sva = bva + (uint64_t)k * SZ_4K;
			unsigned idx = j * 16 + k;
			uint64_t s[2] = { 0, 0 };
			bool have_small = mmu_enum_read(c, pp->small_tgt, pp->small_table + idx * 8ull, 1, s);
			if (c->stop)
				return;
			nvm_mmu_result r = { 0 };
			r.fault = NVM_MMU_FAULT_NONE;
			if (have_small && (s[0] & 1)) {
				mmu_pte_decode(s[0], SZ_4K, sva, &r);
				enum_emit(c, sva, SZ_4K, &r);
			} else if (have_big && (big[0] & 1)) {
				mmu_pte_decode(big[0], SZ_64K, sva, &r);
				enum_emit(c, sva, SZ_4K, &r);
			} else if (have_small && F64(s[0], 3, 3)) {
				enum_sparse(c, sva, SZ_4K);
			}
		}
	}
}

static void enum_level(struct enum_ctx *c, int lvl, nvm_mmu_target tgt, uint64_t table, uint64_t va0)
{
	const struct pd_level *L = &pd_levels[lvl];
	unsigned n = 1u << L->bits;
	for (unsigned i = 0; i < n && !c->stop; i++) {
		if ((i += enum_skip(c, tgt, table + (uint64_t)i * L->entry_size, n - i, L->entry_size)) == n)
			break;
		uint64_t va = va0 + ((uint64_t)i << L->shift);
		uint64_t e[2];
		if (!mmu_enum_read(c, tgt, table + (uint64_t)i * L->entry_size, L->entry_size / 8, e))
			continue;
		if (lvl < 3) {
			if (e[0] & 1)
				continue;
			unsigned a = (unsigned)F64(e[0], 2, 1);
			if (a == 0) {
				if (F64(e[0], 3, 3))
					enum_sparse(c, va, 1ull << L->shift);
				continue;
			}
			enum_edge(c, lvl, tgt, table, i, pd_levels[lvl + 1].name, pde_target(a),
			          pde_table_addr(e[0], a));
			enum_level(c, lvl + 1, pde_target(a), pde_table_addr(e[0], a), va);
			continue;
		}
		if (e[0] & 1) {
			nvm_mmu_result r = { 0 };
			r.fault = NVM_MMU_FAULT_NONE;
			mmu_pte_decode(e[0], SZ_2M, va, &r);
			enum_emit(c, va, SZ_2M, &r);
			continue;
		}
		unsigned ab = (unsigned)F64(e[0], 2, 1), as = (unsigned)F64(e[1], 2, 1);
		if (!ab && !as) {
			if (F64(e[0], 3, 3))
				enum_sparse(c, va, SZ_2M);
			continue;
		}
		struct mmu_pt_pair pp = { 0 };
		dual_pde_tables(e, &pp);
		if (pp.big_present)
			enum_edge(c, lvl, tgt, table, i, "PTE_BIG", pp.big_tgt, pp.big_table);
		if (pp.small_present)
			enum_edge(c, lvl, tgt, table, i, "PTE_SMALL", pp.small_tgt, pp.small_table);
		enum_pts(c, &pp, va);
	}
}

nvm_status nvm_mmu_enum(nvm_gpu *gpu, unsigned pdb_target, uint64_t pdb_addr, uint64_t max_entries,
                        const nvm_mmu_enum_ops *ops)
{
	if (!gpu || !ops)
		return NVM_ERR_ARG;
	nvm_aperture ap;
	if (!mmu_ramin_aperture(pdb_target, &ap))
		return NVM_ERR_APERTURE;
	nvm_mmu_target tgt = pdb_target == NVM_MMU_PDB_VID ? NVM_MMU_TGT_VID : (nvm_mmu_target)pdb_target;
	/* The callbacks are user code: a bracketed call, like a hook. */
	api_enter(gpu);
	nvm_status st = mmu_fmt_of(gpu)->enumerate(gpu, tgt, pdb_addr & ~0xfffull, max_entries, ops);
	api_leave(gpu);
	return st;
}

static nvm_status v2_enum(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t table, uint64_t max_entries,
                          const nvm_mmu_enum_ops *ops)
{
	struct enum_ctx c = { .gpu = gpu, .budget = max_entries, .ops = ops, .st = NVM_OK };
	enum_level(&c, 0, tgt, table, 0);
	return c.st;
}

const struct mmu_fmt mmu_fmt_ver2 = { "ver2", MMU_VA_BITS, true, v2_walk, v2_enum, mmu_check_access };
