/*
 * The ver3 (Hopper) 6-level page-table format: a walker and an enumerator,
 * pure functions over guest memory like the ver2 ones (mmu_walk.c). Fields
 * from RM's published gh100 dev_mmu.h (NV_MMU_VER3_PDE / _DUAL_PDE / _PTE)
 * and the level split of NVIDIA's UVM driver for Hopper (57-bit VA,
 * index bits {1, 9, 9, 9, 8} + 9; refs/host-generations-facts.md H6):
 *
 *   PDE4 va[56]     2 x 8 B    PDE3 va[55:47] 512 x 8 B
 *   PDE2 va[46:38] 512 x 8 B   PDE1 va[37:29] 512 x 8 B (or a 512 MiB PTE)
 *   PDE0 va[28:21] 256 x 16 B (dual: big + small, or a 2 MiB PTE)
 *   big PT va[20:16] 32 x 8 B (64 KiB pages), small PT va[20:12] 512 x 8 B
 *
 * What ver3 changes against ver2: one more level; addresses are plain 51:12
 * (51:8 for the big table); the PDE's VOL bit and the PTE's VOL, PRIVILEGE,
 * READ_ONLY, ATOMIC_DISABLE and ENCRYPTED bits become one PCF ("page
 * control flags") field; KIND shrinks to 11:8; sparse is a PCF value.
 */
#include <string.h>

#include "mmu_internal.h"

#define SZ_4K   (1ull << 12)
#define SZ_64K  (1ull << 16)
#define SZ_2M   (1ull << 21)
#define SZ_512M (1ull << 29)

#define V3_VA_BITS 57

/* The five directory levels above the page tables. */
static const struct v3_level {
	const char *name;
	unsigned shift, bits, entry_size;
} v3_levels[5] = {
	{ "PDE4", 56, 1, 8 }, { "PDE3", 47, 9, 8 }, { "PDE2", 38, 9, 8 }, { "PDE1", 29, 9, 8 }, { "PDE0", 21, 8, 16 },
};
#define V3_PDE1 3
#define V3_PDE0 4
#define V3_PTE  5

/* NV_MMU_VER3_PTE_PCF of a valid PTE, bit by bit: UNCACHED 0, PRIVILEGE 1,
 * RO 2, NO_ATOMIC 3, ACD 4 (access counting disabled: no effect here). Of
 * an invalid PTE: INVALID 0, SPARSE 1, MAPPING_NOWHERE 2,
 * NO_VALID_4KB_PAGE 3. */
#define PCF_UNCACHED  1u
#define PCF_PRIVILEGE 2u
#define PCF_RO        4u
#define PCF_NO_ATOMIC 8u

#define PCF_SPARSE            1u
#define PCF_NO_VALID_4KB_PAGE 3u

/* Kinds gh100 dev_mmu.h defines: 0x0..0xF but 0x7 (INVALID). */
static bool v3_kind_valid(unsigned kind)
{
	return kind < 16 && kind != 7;
}

static void v3_check(nvm_mmu_result *res, nvm_mmu_access access, int privileged)
{
	bool atomic = access == NVM_MMU_ATOMIC || access == NVM_MMU_ATOMIC_WEAK;
	/* UNVERIFIED: the check order of ver2 (kind, privilege, read-only,
	 * atomic). */
	if (!v3_kind_valid(res->kind))
		res->fault = NVM_MMU_FAULT_UNSUPPORTED_KIND;
	else if (res->priv && !privileged)
		res->fault = NVM_MMU_FAULT_PRIV_VIOLATION;
	else if (res->ro && (access == NVM_MMU_WRITE || atomic))
		res->fault = NVM_MMU_FAULT_RO_VIOLATION;
	else if (res->atomic_disable && atomic)
		res->fault = NVM_MMU_FAULT_ATOMIC_VIOLATION;
}

/* A valid PTE: APERTURE 2:1 (0 VID, 1 PEER, 2 SYS_COH, 3 SYS_NCOH), PCF
 * 7:3, KIND 11:8, ADDRESS 51:12 (video memory 39:12, facts H6), PEER_ID
 * 63:61. */
static void v3_pte_decode(uint64_t pte, uint64_t page_size, uint64_t va, nvm_mmu_result *res)
{
	unsigned pcf = (unsigned)F64(pte, 7, 3);
	res->target = (nvm_mmu_target)F64(pte, 2, 1);
	res->vol = (pcf & PCF_UNCACHED) != 0;
	res->priv = (pcf & PCF_PRIVILEGE) != 0;
	res->ro = (pcf & PCF_RO) != 0;
	res->atomic_disable = (pcf & PCF_NO_ATOMIC) != 0;
	res->encrypted = 0;
	res->kind = (unsigned)F64(pte, 11, 8);
	res->page_size = page_size;
	bool vid = res->target == NVM_MMU_TGT_VID || res->target == NVM_MMU_TGT_PEER;
	uint64_t addr = (vid ? F64(pte, 39, 12) : F64(pte, 51, 12)) << 12;
	res->peer = res->target == NVM_MMU_TGT_PEER ? (unsigned)F64(pte, 63, 61) : 0;
	/* UNVERIFIED (as ver2): address bits below the page size are ignored. */
	res->pa = (addr & ~(page_size - 1)) | (va & (page_size - 1));
}

static void set_fault(nvm_mmu_result *res, nvm_mmu_fault_type f, int level)
{
	res->fault = f;
	res->level = level;
}

static void set_sparse(nvm_mmu_result *res, uint64_t size, int level)
{
	res->sparse = 1;
	res->page_size = size;
	res->level = level;
}

/* A PDE's APERTURE (1 VID, 2 SYS_COH, 3 SYS_NCOH) as a table target. */
static nvm_mmu_target v3_pde_target(unsigned aperture)
{
	return aperture == 1 ? NVM_MMU_TGT_VID : (nvm_mmu_target)aperture;
}

/* NV_MMU_VER3_DUAL_PDE: APERTURE_BIG 2:1, ADDRESS_BIG 51:8 (BIG_SHIFT 8);
 * APERTURE_SMALL 66:65, ADDRESS_SMALL 115:76 (SHIFT 12). */
static void v3_dual_tables(const uint64_t e[2], struct mmu_pt_pair *pp)
{
	unsigned ab = (unsigned)F64(e[0], 2, 1), as = (unsigned)F64(e[1], 2, 1);
	memset(pp, 0, sizeof(*pp));
	if (ab) {
		pp->big_present = true;
		pp->big_tgt = v3_pde_target(ab);
		pp->big_table = F64(e[0], 51, 8) << 8;
	}
	if (as) {
		pp->small_present = true;
		pp->small_tgt = v3_pde_target(as);
		pp->small_table = F64(e[1], 115 - 64, 76 - 64) << 12;
	}
}

/* The leaf under a dual PDE0, given its big and small PTEs (have_*: read).
 * As ver2 (UNVERIFIED where both are valid): a valid small PTE wins, else a
 * valid big one; an invalid big PTE with PCF NO_VALID_4KB_PAGE hides the
 * small table (the caller does not read it); PCF SPARSE of the deciding
 * invalid PTE makes the page sparse. Returns 0 translated or sparse. */
static int v3_leaf(bool have_big, uint64_t big, bool have_small, uint64_t small, uint64_t va, nvm_mmu_result *res)
{
	res->level = V3_PTE;
	if (have_small && (small & 1)) {
		v3_pte_decode(small, SZ_4K, va, res);
		return 0;
	}
	if (have_big && (big & 1)) {
		v3_pte_decode(big, SZ_64K, va, res);
		return 0;
	}
	uint64_t inv = have_small ? small : big;
	if ((have_small || have_big) && F64(inv, 7, 3) == PCF_SPARSE) {
		set_sparse(res, have_small ? SZ_4K : SZ_64K, V3_PTE);
		return 0;
	}
	/* UNVERIFIED: MAPPING_NOWHERE and INVALID both fault PTE. */
	set_fault(res, NVM_MMU_FAULT_PTE, V3_PTE);
	return 1;
}

static bool v3_hides_small(bool have_big, uint64_t big)
{
	return have_big && !(big & 1) && F64(big, 7, 3) == PCF_NO_VALID_4KB_PAGE;
}

static bool read_pte(nvm_gpu *gpu, const char *name, nvm_mmu_target tgt, uint64_t table, unsigned idx, uint64_t *pte,
                     nvm_mmu_result *res, nvm_mmu_walk_trace *tr)
{
	uint64_t e[2] = { 0, 0 };
	uint64_t ea = table + idx * 8ull;
	bool ok = mmu_read_entry(gpu, tgt, ea, 1, e);
	mmu_trace_add(tr, name, tgt, table, idx, ea, 1, e, ok);
	if (!ok) {
		res->oob = 1;
		set_fault(res, NVM_MMU_FAULT_PTE, V3_PTE);
	}
	*pte = e[0];
	return ok;
}

static void v3_walk_pts(nvm_gpu *gpu, const struct mmu_pt_pair *pp, uint64_t va, nvm_mmu_access access, int privileged,
                        nvm_mmu_result *res, nvm_mmu_walk_trace *tr)
{
	uint64_t big = 0, small = 0;
	bool have_big = false, have_small = false;
	if (pp->big_present) {
		if (!read_pte(gpu, "PTE_BIG", pp->big_tgt, pp->big_table, (unsigned)F64(va, 20, 16), &big, res, tr))
			return;
		have_big = true;
	}
	if (pp->small_present && !v3_hides_small(have_big, big)) {
		if (!read_pte(gpu, "PTE_SMALL", pp->small_tgt, pp->small_table, (unsigned)F64(va, 20, 12), &small, res,
		              tr))
			return;
		have_small = true;
	}
	if (v3_leaf(have_big, big, have_small, small, va, res) == 0 && !res->sparse)
		v3_check(res, access, privileged);
}

/* One directory entry above PDE0 (lvl 0..3): the next table, a sparse range,
 * a 512 MiB page (PDE1 with IS_PTE) or a fault. Returns true to go on. */
static bool v3_pde(const uint64_t e, int lvl, uint64_t va, nvm_mmu_access access, int privileged, nvm_mmu_result *res,
                   nvm_mmu_target *tgt, uint64_t *table)
{
	if (e & 1) {
		/* IS_PTE: UVM maps 512 MiB pages at PDE1 on Hopper. UNVERIFIED:
		 * IS_PTE above PDE1 is a PDE_SIZE fault. */
		if (lvl != V3_PDE1) {
			set_fault(res, NVM_MMU_FAULT_PDE_SIZE, lvl);
			return false;
		}
		res->level = lvl;
		v3_pte_decode(e, SZ_512M, va, res);
		v3_check(res, access, privileged);
		return false;
	}
	unsigned a = (unsigned)F64(e, 2, 1);
	if (a == 0) {
		/* PCF SPARSE_ATS_ALLOWED / _NOT_ALLOWED (bit 0 of PCF 5:3) with
		 * APERTURE INVALID: a sparse range. */
		if (F64(e, 3, 3))
			set_sparse(res, 1ull << v3_levels[lvl].shift, lvl);
		else
			set_fault(res, NVM_MMU_FAULT_PDE, lvl);
		return false;
	}
	*tgt = v3_pde_target(a);
	*table = F64(e, 51, 12) << 12;
	return true;
}

static void v3_walk(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t table, uint64_t va, nvm_mmu_access access,
                    int privileged, nvm_mmu_result *res, nvm_mmu_walk_trace *tr)
{
	memset(res, 0, sizeof(*res));
	res->fault = NVM_MMU_FAULT_NONE;
	res->level = -1;
	if (tr)
		tr->n = 0;
	if (va >> V3_VA_BITS) {
		set_fault(res, NVM_MMU_FAULT_VA_LIMIT_VIOLATION, -1);
		return;
	}
	for (int lvl = 0; lvl <= V3_PDE0; lvl++) {
		const struct v3_level *L = &v3_levels[lvl];
		unsigned idx = (unsigned)((va >> L->shift) & ((1u << L->bits) - 1));
		uint64_t ea = table + (uint64_t)idx * L->entry_size;
		uint64_t e[2] = { 0, 0 };
		int nw = (int)(L->entry_size / 8);
		bool ok = mmu_read_entry(gpu, tgt, ea, nw, e);
		mmu_trace_add(tr, L->name, tgt, table, idx, ea, nw, e, ok);
		if (!ok) { /* UNVERIFIED (as ver2): a table outside its aperture faults PDE */
			res->oob = 1;
			set_fault(res, NVM_MMU_FAULT_PDE, lvl);
			return;
		}
		if (lvl < V3_PDE0) {
			if (!v3_pde(e[0], lvl, va, access, privileged, res, &tgt, &table))
				return;
			continue;
		}
		if (e[0] & 1) { /* IS_PTE: a 2 MiB page */
			res->level = V3_PDE0;
			v3_pte_decode(e[0], SZ_2M, va, res);
			v3_check(res, access, privileged);
			return;
		}
		if (!F64(e[0], 2, 1) && !F64(e[1], 2, 1)) {
			/* UNVERIFIED (as ver2's big-page VOL): PCF_BIG SPARSE decides. */
			if (F64(e[0], 3, 3))
				set_sparse(res, SZ_2M, V3_PDE0);
			else
				set_fault(res, NVM_MMU_FAULT_PDE, V3_PDE0);
			return;
		}
		struct mmu_pt_pair pp;
		v3_dual_tables(e, &pp);
		v3_walk_pts(gpu, &pp, va, access, privileged, res, tr);
	}
}

/* ---------------------------------------------------------------- enumeration */

/* One read, paid from the budget (the ver2 enumerator's, struct enum_ctx);
 * out is zero where it fails. */
static bool v3_read(struct enum_ctx *c, nvm_mmu_target tgt, uint64_t addr, int n, uint64_t *out)
{
	out[0] = out[1] = 0;
	return mmu_enum_read(c, tgt, addr, n, out);
}

static void v3_emit(struct enum_ctx *c, uint64_t va, uint64_t size, const nvm_mmu_result *r)
{
	if (c->stop || c->gpu->closing || !c->ops->map)
		return;
	nvm_mmu_mapping m = { va, size, *r };
	c->page = NULL; /* the callback may change memory */
	if (c->ops->map(c->ops->user, &m))
		c->stop = 1;
}

static void v3_emit_sparse(struct enum_ctx *c, uint64_t va, uint64_t size)
{
	nvm_mmu_result r = { 0 };
	r.fault = NVM_MMU_FAULT_NONE;
	r.sparse = 1;
	r.page_size = size;
	v3_emit(c, va, size, &r);
}

static void v3_emit_pte(struct enum_ctx *c, uint64_t pte, uint64_t page, uint64_t va, uint64_t size)
{
	nvm_mmu_result r = { 0 };
	r.fault = NVM_MMU_FAULT_NONE;
	v3_pte_decode(pte, page, va, &r);
	v3_emit(c, va, size, &r);
}

static void v3_edge(struct enum_ctx *c, int lvl, nvm_mmu_target tgt, uint64_t table, unsigned idx, const char *child,
                    nvm_mmu_target ctgt, uint64_t ctable)
{
	if (c->stop || c->gpu->closing || !c->ops->edge)
		return;
	c->page = NULL; /* the callback may change memory */
	if (c->ops->edge(c->ops->user, v3_levels[lvl].name, tgt, table, idx, child, ctgt, ctable))
		c->stop = 1;
}

/* The leaves under a dual PDE0, 4 KiB at a time where a small table is
 * there, with the walker's decision (v3_leaf). */
static void v3_enum_pts(struct enum_ctx *c, const struct mmu_pt_pair *pp, uint64_t va0)
{
	for (unsigned j = 0; j < 32 && !c->stop; j++) {
		uint64_t bva = va0 + (uint64_t)j * SZ_64K, big[2] = { 0, 0 };
		bool have_big = pp->big_present && v3_read(c, pp->big_tgt, pp->big_table + j * 8ull, 1, big);
		if (c->stop)
			return;
		if (!pp->small_present || v3_hides_small(have_big, big[0])) {
			if (have_big && (big[0] & 1))
				v3_emit_pte(c, big[0], SZ_64K, bva, SZ_64K);
			else if (have_big && F64(big[0], 7, 3) == PCF_SPARSE)
				v3_emit_sparse(c, bva, SZ_64K);
			continue;
		}
		for (unsigned k = 0; k < 16 && !c->stop; k++) {
			uint64_t sva = bva + (uint64_t)k * SZ_4K, s[2] = { 0, 0 };
			bool have_small = v3_read(c, pp->small_tgt, pp->small_table + (j * 16ull + k) * 8, 1, s);
			if (c->stop)
				return;
			if (have_small && (s[0] & 1))
				v3_emit_pte(c, s[0], SZ_4K, sva, SZ_4K);
			else if (have_big && (big[0] & 1))
				v3_emit_pte(c, big[0], SZ_64K, sva, SZ_4K);
			else if (have_small && F64(s[0], 7, 3) == PCF_SPARSE)
				v3_emit_sparse(c, sva, SZ_4K);
		}
	}
}

static void v3_enum_level(struct enum_ctx *c, int lvl, nvm_mmu_target tgt, uint64_t table, uint64_t va0)
{
	const struct v3_level *L = &v3_levels[lvl];
	unsigned n = 1u << L->bits;
	for (unsigned i = 0; i < n && !c->stop; i++) {
		uint64_t va = va0 + ((uint64_t)i << L->shift), e[2];
		if (!v3_read(c, tgt, table + (uint64_t)i * L->entry_size, (int)(L->entry_size / 8), e))
			continue;
		if (lvl < V3_PDE0) {
			if (e[0] & 1) {
				if (lvl == V3_PDE1)
					v3_emit_pte(c, e[0], SZ_512M, va, SZ_512M);
				continue;
			}
			unsigned a = (unsigned)F64(e[0], 2, 1);
			if (!a) {
				if (F64(e[0], 3, 3))
					v3_emit_sparse(c, va, 1ull << L->shift);
				continue;
			}
			uint64_t child = F64(e[0], 51, 12) << 12;
			v3_edge(c, lvl, tgt, table, i, v3_levels[lvl + 1].name, v3_pde_target(a), child);
			v3_enum_level(c, lvl + 1, v3_pde_target(a), child, va);
			continue;
		}
		if (e[0] & 1) {
			v3_emit_pte(c, e[0], SZ_2M, va, SZ_2M);
			continue;
		}
		struct mmu_pt_pair pp;
		v3_dual_tables(e, &pp);
		if (!pp.big_present && !pp.small_present) {
			if (F64(e[0], 3, 3))
				v3_emit_sparse(c, va, SZ_2M);
			continue;
		}
		if (pp.big_present)
			v3_edge(c, lvl, tgt, table, i, "PTE_BIG", pp.big_tgt, pp.big_table);
		if (pp.small_present)
			v3_edge(c, lvl, tgt, table, i, "PTE_SMALL", pp.small_tgt, pp.small_table);
		v3_enum_pts(c, &pp, va);
	}
}

static nvm_status v3_enum(nvm_gpu *gpu, nvm_mmu_target tgt, uint64_t table, uint64_t max_entries,
                          const nvm_mmu_enum_ops *ops)
{
	struct enum_ctx c = { .gpu = gpu, .budget = max_entries, .ops = ops, .st = NVM_OK };
	v3_enum_level(&c, 0, tgt, table, 0);
	return c.st;
}

const struct mmu_fmt mmu_fmt_ver3 = { "ver3", V3_VA_BITS, false, v3_walk, v3_enum, v3_check };
