/*
 * The Volta GMMU block: instance-block binding (seed 000 RAMIN memory
 * management), translation with a TLB, fault reporting into the fault
 * buffers (seed 003) or the "other fault" registers, replay and cancel
 * (gv100_pri_mmu_hub.ref.txt NV_PFB_PRI_MMU_INVALIDATE), BAR1/BAR2 binding
 * (gv100_dev_bus.ref.txt NV_PBUS_BAR1_BLOCK / BAR2_BLOCK) and the fault
 * interrupts (volta-facts.md section d: NV_PFB_NISO_INTR).
 */
#include <stdlib.h>
#include <string.h>

#include "mmu_gens.h"
#include "mmu_internal.h"
#include "mmu_block.h"
#include "tlb_cache.h"

uint32_t mmu_packet_dw7(const nvm_mmu_fault_info *f);

/* ---------------------------------------------------------------- registers */

#define R_NISO_INTR        0x100A20u
#define R_NISO_INTR_EN_SET 0x100A2Cu
#define R_NISO_INTR_EN_CLR 0x100A34u

#define R_BIND_IMB        0x100CACu
#define R_BIND            0x100CB0u
#define R_INV_VADDR       0x100CB4u
#define R_INV_PDB         0x100CB8u
#define R_INVALIDATE      0x100CBCu
#define R_DEBUG_CTRL      0x100CC4u
#define R_DEBUG_WR        0x100CC8u
#define R_DEBUG_RD        0x100CCCu
#define R_INV_UPPER_VADDR 0x100CE8u
#define R_INV_UPPER_PDB   0x100CECu

#define R_ATS_LOCAL 0x100E00u
#define R_INV_PASID 0x100E64u
#define R_INV_SIZE  0x100E68u

/* The fault registers, relative to the generation's layout (struct
 * mmu_fault_layout): gv100 NV_PFB_PRI_MMU_FAULT_BUFFER_*(i) at 0x100E24 +
 * 20 i and FAULT_ADDR_LO .. FAULT_STATUS from 0x100E4C; Turing on
 * NV_VIRTUAL_FUNCTION_PRIV_MMU_* at 0xB83000 + 32 i and from 0xB83080. */
enum { FB_LO = 0, FB_HI = 4, FB_GET = 8, FB_PUT = 0xC, FB_SIZE = 0x10 };
enum { F_ADDR_LO = 0, F_ADDR_HI = 4, F_INST_LO = 8, F_INST_HI = 0xC, F_INFO = 0x10, F_STATUS = 0x14 };
#define R_FB(m, i, off) ((m)->chip->fault->buf + (uint32_t)(i) * (m)->chip->fault->stride + (off))
#define R_F(m, off)     ((m)->chip->fault->info + (off))

#define R_BAR1_BLOCK 0x1704u
#define R_BAR2_BLOCK 0x1714u

/* NISO_INTR bits (volta-facts.md section d, after nouveau fault/gv100.c). */
#define NISO_OTHER     (1u << 31)
#define NISO_NONREPLAY (1u << 29)
#define NISO_REPLAY    (1u << 27)

#define FB_NONREPLAY 0
#define FB_REPLAY    1

/* UNVERIFIED: the fault interrupt reaches PMC on NV_PMC_INTR_HUB (bit 9),
 * as nouveau maps it; the gv100 manuals do not say which bit. The
 * SET_DEFAULT size is a choice (seed 003 only says "a HW recommended
 * value"): 1024 entries. */
static uint32_t niso_status(void *ctx);
const struct intr_desc mmu_niso_intr_hub = { R_NISO_INTR, 0, PMC_INTR_HUB, niso_status, NULL };
const struct mmu_chip mmu_gv100 = { "gv100", &mmu_niso_intr_hub, 1024, &mmu_fault_pfb, &mmu_fmt_ver2, &mmu_eng_gv100 };

const struct mmu_fmt *mmu_fmt_of(const nvm_gpu *gpu)
{
	const struct mmu_chip *c = gpu ? chip_data(gpu->chip, &mmu_class) : NULL;
	return c ? c->fmt : &mmu_fmt_ver2;
}

static struct mmu *mmu_of(const nvm_gpu *gpu)
{
	return gpu ? (struct mmu *)gpu_block(gpu, &mmu_class) : NULL;
}

static uint32_t reg(struct mmu *m, uint32_t addr)
{
	return bus_get(m->gpu, addr);
}

static void reg_set(struct mmu *m, uint32_t addr, uint32_t v)
{
	bus_set(m->gpu, addr, v);
}

/* ---------------------------------------------------------------- interrupts */

static bool fb_pending(struct mmu *m, int i)
{
	uint32_t get = reg(m, R_FB(m, i, FB_GET)), size = reg(m, R_FB(m, i, FB_SIZE));
	bool ovf = FIELD_GET(get, 31, 31) && FIELD_GET(size, 29, 29); /* OVERFLOW_INTR */
	return FIELD_GET(size, 31, 31) && (FIELD_GET(get, 19, 0) != m->put[i] || ovf);
}

/* UNVERIFIED: bits 27/29 are levels (buffer not empty, or overflowed with
 * SIZE.OVERFLOW_INTR); volta-facts d names the bits only. */
static uint32_t niso_value(struct mmu *m)
{
	uint32_t v = 0;
	if (FIELD_GET(reg(m, R_F(m, F_STATUS)), 31, 31))
		v |= NISO_OTHER;
	if (fb_pending(m, FB_NONREPLAY))
		v |= NISO_NONREPLAY;
	if (fb_pending(m, FB_REPLAY))
		v |= NISO_REPLAY;
	return v;
}

static uint32_t niso_status(void *ctx)
{
	return niso_value(ctx);
}

static void mmu_update_intr(struct mmu *m)
{
	intr_update(&m->intr);
}

static uint32_t rd_niso(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return niso_value(ctx);
}

/* UNVERIFIED: EN_SET and EN_CLR both read back the enable mask. */
static uint32_t rd_niso_en(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return intr_enabled(&((struct mmu *)ctx)->intr);
}

static void wr_niso_en_set(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	struct mmu *m = ctx;
	intr_enable_set(&m->intr, written);
}

static void wr_niso_en_clr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	struct mmu *m = ctx;
	intr_enable_clear(&m->intr, written);
}

/* ---------------------------------------------------------------- RAMIN */

/* The address space a request uses, from its instance block (seed 000
 * "Memory-Management State"). Returns a fault type or NONE. */
struct aspace {
	unsigned pdb_target;
	uint64_t pdb_addr;
	bool replay_tex, replay_gcc;
	bool oob;
};

/* Dwords dw and dw + 1 (n of them, 1 or 2) of the instance block, as
 * nvm_mem_rd32 reads them (every translation reads two or three): in place
 * when the model holds the page and no framebuffer pause holds memory;
 * anything else (outside the aperture, a caller's callbacks, a pause)
 * through nvm_mem_rd32, one dword after the other. */
static int ramin_rd(nvm_gpu *gpu, nvm_aperture ap, uint64_t inst, unsigned dw, unsigned n, uint32_t *v)
{
	uint64_t a = inst + dw * 4ull;
	uint8_t *p;
	size_t avail;
	if (!(gpu->hold & NVM_HOLD_MEM) && (unsigned)ap < NVM_AP_COUNT && !(a & 3) &&
	    !mem_span(&gpu->mem[ap], a, false, &p, &avail) && avail >= 4u * n) {
		for (unsigned i = 0; i < n; i++, p += 4)
			v[i] = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
		return 1;
	}
	for (unsigned i = 0; i < n; i++)
		if (nvm_mem_rd32(gpu, ap, a + 4u * i, &v[i]) != NVM_OK)
			return 0;
	return 1;
}

static nvm_mmu_fault_type ramin_resolve(nvm_gpu *gpu, const nvm_mmu_request *req, struct aspace *as)
{
	memset(as, 0, sizeof(*as));
	if (req->use_pdb) {
		as->pdb_target = req->pdb_target;
		as->pdb_addr = req->pdb_addr;
		return NVM_MMU_FAULT_NONE;
	}
	nvm_aperture ap;
	if (!mmu_ramin_aperture(req->inst_target, &ap))
		return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
	uint64_t inst = req->inst_addr & ~0xfffull; /* NV_RAMIN_BASE_SHIFT 12 */
	unsigned dw = 128;                          /* NV_RAMIN_PAGE_DIR_BASE_* in dwords 128/129 */
	if (req->veid >= 0) {
		if (req->veid > 63)
			return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
		uint32_t valid;
		/* NV_RAMIN_SC_PDB_VALID(i) (166*32+i):(166*32+i) */
		if (!ramin_rd(gpu, ap, inst, 166u + (unsigned)req->veid / 32u, 1, &valid)) {
			as->oob = true;
			return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
		}
		/* UNVERIFIED: an invalid subcontext PDB faults as UNBOUND_INST_BLOCK
		 * ("page faults will result on access"). */
		if (!((valid >> (req->veid & 31)) & 1u))
			return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
		dw = 168u + (unsigned)req->veid * 4u; /* NV_RAMIN_SC_PAGE_DIR_BASE_*(i) */
	}
	uint32_t pdb[2];
	if (!ramin_rd(gpu, ap, inst, dw, 2, pdb)) {
		as->oob = true;
		return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
	}
	uint32_t lo = pdb[0], hi = pdb[1];
	as->pdb_target = FIELD_GET(lo, 1, 0); /* PAGE_DIR_BASE_TARGET */
	/* UNVERIFIED: FAULT_REPLAY_TEX/GCC, USE_VER2_PT_FORMAT and BIG_PAGE_SIZE
	 * are read from the dword of the subcontext that asks. Seed 000 says
	 * "the last bind that does not unbind a sub-context determines" them
	 * for all sub-contexts; the model does not see binds (RAMIN is read per
	 * request), so it cannot tell which subcontext was bound last. Both rules
	 * agree whenever every subcontext carries the same bits
	 * (docs/fidelity.md). */
	as->replay_tex = FIELD_GET(lo, 4, 4);
	as->replay_gcc = FIELD_GET(lo, 5, 5);
	as->pdb_addr = ((uint64_t)hi << 32) | ((uint64_t)FIELD_GET(lo, 31, 12) << 12);
	if (as->pdb_target == NVM_MMU_PDB_INVALID) /* "Using INVALID, unbinds" */
		return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
	/* "Volta only supports the new format. Selecting the old format results
	 * in an UNBOUND_INSTANCE fault." (USE_VER2_PT_FORMAT, bit 10) */
	if (!FIELD_GET(lo, 10, 10))
		return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
	/* "Selecting 128KB for big pages results in an UNBOUND_INSTANCE fault."
	 * (BIG_PAGE_SIZE, bit 11: 0 = 128KB) */
	if (!FIELD_GET(lo, 11, 11))
		return NVM_MMU_FAULT_UNBOUND_INST_BLOCK;
	return NVM_MMU_FAULT_NONE;
}

/* ---------------------------------------------------------------- TLB */

static uint64_t pdb_key(unsigned target, uint64_t addr)
{
	/* INVALIDATE_PDB has one aperture bit (VID / SYS): coherent and
	 * non-coherent system memory name the same tables. */
	return ((uint64_t)(target != NVM_MMU_PDB_VID) << 63) | (addr & ~0xfffull);
}

size_t tlb_slot(uint64_t key, int veid, uint64_t va_base, uint64_t size)
{
	uint64_t h = key ^ (va_base * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)(veid + 1) << 7) ^ size;
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)(h & (TLB_SLOTS - 1));
}

static struct tlb_ent *tlb_ent_at(struct mmu *m, size_t slot)
{
	return tlbc_at(&m->tlb, slot, false);
}

static struct pde_ent *pde_ent_at(struct mmu *m, size_t slot)
{
	return tlbc_at(&m->pdc, slot, false);
}

static void tlb_drop(struct mmu *m, size_t i)
{
	tlbc_drop(&m->tlb, i);
	m->stats.tlb_entries--;
}

static struct tlb_ent *tlb_find(struct mmu *m, uint64_t key, int veid, uint64_t va)
{
	for (int i = 0; i < 3; i++) {
		uint64_t base = va & ~(page_sizes[i] - 1);
		struct tlb_ent *e = tlb_ent_at(m, tlb_slot(key, veid, base, page_sizes[i]));
		if (e && e->h.valid && e->pdb_key == key && e->veid == veid && e->va_base == base &&
		    e->size == page_sizes[i])
			return e;
	}
	return NULL;
}

static void tlb_fill(struct mmu *m, uint64_t key, int veid, uint64_t va, const nvm_mmu_result *r)
{
	uint64_t size = r->page_size;
	if (size != page_sizes[0] && size != page_sizes[1] && size != page_sizes[2])
		return; /* sparse directory ranges (512 MiB and up) are not cached */
	uint64_t base = va & ~(size - 1);
	size_t slot = tlb_slot(key, veid, base, size);
	size_t before = m->tlb.nlive;
	struct tlb_ent *e = tlbc_fill(&m->tlb, slot);
	if (!e)
		return;
	m->stats.tlb_entries += m->tlb.nlive - before;
	e->veid = veid;
	e->pdb_key = key;
	e->va_base = base;
	e->size = size;
	e->res = *r;
}

static bool same_translation(const void *pa, const void *pb)
{
	const nvm_mmu_result *a = pa, *b = pb;
	return a->fault == b->fault && a->sparse == b->sparse && a->target == b->target && a->pa == b->pa &&
	       a->page_size == b->page_size && a->kind == b->kind && a->priv == b->priv && a->ro == b->ro &&
	       a->vol == b->vol && a->atomic_disable == b->atomic_disable && a->peer == b->peer;
}

static void pdc_invalidate(struct mmu *m, const nvm_mmu_inval *op, uint64_t lo, uint64_t len);

static void tlb_invalidate(struct mmu *m, const nvm_mmu_inval *op)
{
	uint64_t key = pdb_key(op->pdb_target, op->pdb_addr);
	uint64_t lo = op->va & ~0xfffull;
	uint64_t len = op->use_size ? (op->size_log2 >= 37 ? (1ull << 49) : (4096ull << op->size_log2)) : 4096ull;
	for (size_t i = 0; i < m->tlb.nlive;) {
		const struct tlb_ent *e = tlbc_live(&m->tlb, i);
		/* Every CACHE_LEVEL form drops the leaves that overlap the range;
		 * pdc_invalidate handles the directory levels. */
		if ((op->all_pdb || e->pdb_key == key) &&
		    (op->all_va || (e->va_base + e->size > lo && e->va_base < lo + len)))
			tlb_drop(m, i); /* the last live slot moved to i */
		else
			i++;
	}
	pdc_invalidate(m, op, lo, len);
}

size_t pdc_slot(uint64_t key, int lvl, uint64_t base)
{
	uint64_t h = key ^ (base * 0x9e3779b97f4a7c15ull) ^ (uint64_t)lvl;
	h ^= h >> 31;
	h *= 0x94d049bb133111ebull;
	h ^= h >> 29;
	return (size_t)(h & (PDC_SLOTS - 1));
}

static struct pde_ent *pdc_find(struct mmu *m, uint64_t key, int lvl, uint64_t va)
{
	uint64_t base = va & ~((1ull << pdc_shift[lvl]) - 1);
	struct pde_ent *e = pde_ent_at(m, pdc_slot(key, lvl, base));
	return e && e->h.valid && e->pdb_key == key && e->lvl == lvl && e->base == base ? e : NULL;
}

static void pdc_fill(struct mmu *m, uint64_t key, uint64_t va, const struct mmu_walk_path *path)
{
	for (int lvl = 1; lvl <= 4; lvl++) {
		if (!path->have[lvl])
			continue;
		uint64_t base = va & ~((1ull << pdc_shift[lvl]) - 1);
		size_t slot = pdc_slot(key, lvl, base);
		struct pde_ent *e = tlbc_fill(&m->pdc, slot);
		if (!e)
			return;
		e->lvl = lvl;
		e->pdb_key = key;
		e->base = base;
		e->tgt = lvl < 4 ? path->tgt[lvl] : NVM_MMU_TGT_VID;
		e->table = lvl < 4 ? path->table[lvl] : 0;
		e->pp = path->pp;
	}
}

/* UNVERIFIED what each level keeps in hardware. CACHE_LEVEL: 0 ALL,
 * 1 PTE_ONLY, 2..7 UP_TO_PDE0..PDE5. Returns the lowest
 * page-directory-cache level dropped (5: none). UP_TO_PDE0 drops what PDE0
 * entries point at (lvl 4), UP_TO_PDE3 everything. */
static int pdc_min_level(unsigned cache_level)
{
	if (cache_level == 0)
		return 1;
	if (cache_level == 1)
		return 5;
	int min = 6 - (int)cache_level;
	return min < 1 ? 1 : min;
}

static void pdc_invalidate(struct mmu *m, const nvm_mmu_inval *op, uint64_t lo, uint64_t len)
{
	int min = op->replay >= NVM_MMU_REPLAY_CANCEL_TARGETED ? 1 : pdc_min_level(op->level);
	uint64_t key = pdb_key(op->pdb_target, op->pdb_addr);
	for (size_t i = 0; i < m->pdc.nlive && min <= 4;) {
		const struct pde_ent *e = tlbc_live(&m->pdc, i);
		uint64_t size = 1ull << pdc_shift[e->lvl];
		if (e->lvl >= min && (op->all_pdb || e->pdb_key == key) &&
		    (op->all_va || (e->base + size > lo && e->base < lo + len)))
			tlbc_drop(&m->pdc, i); /* the last live slot moved to i */
		else
			i++;
	}
}

/* ---------------------------------------------------------------- fault reporting */

static bool is_tex_client(const nvm_mmu_request *r)
{
	/* UNVERIFIED: the TEX clients are the GPC T1_0..7 ids (volta-facts f). */
	return r->client_type == NVM_MMU_CLIENT_GPC && r->client_id <= 7;
}

static bool is_gcc_client(const nvm_mmu_request *r)
{
	return r->client_type == NVM_MMU_CLIENT_GPC && r->client_id == 0x11;
}

static void fill_info(struct mmu *m, const nvm_mmu_request *req, const struct aspace *as, nvm_mmu_fault_type t,
                      bool replayable, nvm_mmu_fault_info *f)
{
	memset(f, 0, sizeof(*f));
	f->inst_aperture = req->use_pdb ? 0 : req->inst_target & 3;
	f->inst_addr = req->use_pdb ? 0 : req->inst_addr & ~0xfffull;
	f->addr = req->va & ~0xfffull;
	f->timestamp = ptimer_read(m->gpu);
	f->engine_id = req->engine_id & 0x1ff;
	f->fault_type = (unsigned)t;
	f->replayable = replayable;
	f->client = req->client_id & 0x7f;
	f->access_type = (unsigned)req->access & 0xf;
	f->client_type = req->client_type & 1;
	f->gpc_id = req->gpc_id & 0x1f;
	/* Seed 003: "REPLAYABLE_FAULT_EN (R) is set to true if replayable fault
	 * is enabled for any client in the instance block." */
	f->replayable_en = as->replay_tex || as->replay_gcc;
	/* UNVERIFIED: ADDR_PHYS_APERTURE stays 0: the model reports faults of
	 * virtual translations only (seed 003: the address is "virtual or
	 * physical based on ACCESS_TYPE"; PHYS_APERTURE names the aperture of a
	 * physical one). PROTECTED_MODE (dw7 29) stays 0: the model has no
	 * protected mode. docs/fidelity.md. */
	f->addr_phys_aperture = 0;
	f->protected_mode = 0;
	f->valid = 1;
}

static void latch_other(struct mmu *m, const nvm_mmu_fault_info *f, bool phys)
{
	uint32_t status = reg(m, R_F(m, F_STATUS));
	if (FIELD_GET(status, 31, 31)) {
		/* UNVERIFIED: while VALID is set the registers keep the first fault
		 * and later ones only set the DROPPED_* bit of their class. */
		unsigned bit;
		const struct mmu_eng_ids *ids = m->chip->eng;
		bit = f->engine_id == ids->bar1 ? 0 : f->engine_id == ids->bar2 ? 2 : f->engine_id == ids->ifb ? 4 : 6;
		reg_set(m, R_F(m, F_STATUS), status | (1u << (bit + (phys ? 0 : 1))));
		return;
	}
	reg_set(m, R_F(m, F_ADDR_LO), FIELD_SET((uint32_t)f->addr, 1, 0, f->addr_phys_aperture) & 0xfffff003u);
	reg_set(m, R_F(m, F_ADDR_HI), (uint32_t)(f->addr >> 32));
	uint32_t il = 0;
	il = FIELD_SET(il, 8, 0, f->engine_id);       /* INST_LO ENGINE_ID */
	il = FIELD_SET(il, 11, 10, f->inst_aperture); /* INST_LO APERTURE */
	il = FIELD_SET(il, 31, 12, (uint32_t)(f->inst_addr >> 12));
	reg_set(m, R_F(m, F_INST_LO), il);
	reg_set(m, R_F(m, F_INST_HI), (uint32_t)(f->inst_addr >> 32));
	reg_set(m, R_F(m, F_INFO), mmu_packet_dw7(f)); /* "INFO bit layout = fault-packet dword 7" */
	reg_set(m, R_F(m, F_STATUS), status | 0x80000000u);
}

static nvm_status buf_mem_write(struct mmu *m, int i, uint64_t addr, const uint8_t *p, size_t len)
{
	uint32_t lo = reg(m, R_FB(m, i, FB_LO));
	if (FIELD_GET(lo, 0, 0)) { /* ADDR_MODE PHYSICAL */
		nvm_aperture ap;
		if (!mmu_pte_aperture((nvm_mmu_target)FIELD_GET(lo, 2, 1), &ap))
			return NVM_ERR_APERTURE;
		return nvm_mem_write(m->gpu, ap, addr, p, len);
	}
	/* ADDR_MODE VIRTUAL: through BAR2, as nouveau and NVIDIA's driver set it up. */
	return nvm_mmu_bar_write(m->gpu, 2, addr, p, len);
}

/* Writes a packet into buffer i. Returns true when the buffer took the fault
 * (written or dropped), false when it is disabled. */
static bool buf_put(struct mmu *m, int i, const nvm_mmu_fault_info *f)
{
	uint32_t size_r = reg(m, R_FB(m, i, FB_SIZE));
	if (!FIELD_GET(size_r, 31, 31)) /* ENABLE */
		return false;
	uint32_t size = FIELD_GET(size_r, 19, 0);
	uint32_t get_r = reg(m, R_FB(m, i, FB_GET));
	uint32_t get = FIELD_GET(get_r, 19, 0);
	if (FIELD_GET(get_r, 31, 30) || size < 2) {
		/* Seed 003: after an overflow "the GPU will stop writing out new
		 * fault entries and proceed to drop entries until SW resets the
		 * overflow status". UNVERIFIED: GETPTR_CORRUPTED and a SIZE below 2
		 * drop the same way. */
		m->stats.packets_dropped[i]++;
		emit(m->gpu, NVM_EV_TRACE, "mmu", "fault_dropped", f->addr, f->fault_type,
		     "%s fault buffer: packet dropped (overflow or corrupted GET)",
		     i ? "replayable" : "non-replayable");
		return true;
	}
	if (m->put[i] >= size)
		m->put[i] = 0; /* UNVERIFIED: a PUT beyond a shrunk SIZE wraps to 0 */
	uint32_t put = m->put[i];
	if ((put + 1) % size == get) {
		/* "HW declares overflow when PUT == GET-1 and a new fault arrives". */
		reg_set(m, R_FB(m, i, FB_GET), get_r | 0x80000000u);
		m->stats.packets_dropped[i]++;
		emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "fault_buffer_overflow", R_FB(m, i, FB_GET), put,
		     "%s fault buffer full (PUT %u, GET %u): OVERFLOW set, packet dropped",
		     i ? "replayable" : "non-replayable", put, get);
		mmu_update_intr(m);
		return true;
	}
	uint64_t base = ((uint64_t)reg(m, R_FB(m, i, FB_HI)) << 32) | (reg(m, R_FB(m, i, FB_LO)) & 0xfffff000u);
	uint64_t addr = base + (uint64_t)put * NVM_MMU_PACKET_SIZE;
	uint8_t pkt[NVM_MMU_PACKET_SIZE];
	nvm_mmu_packet_encode(f, pkt);
	/* Seed 003: "VALID must be in the last byte in the packet for proper
	 * write ordering": dwords 0-6 first, then dword 7. */
	nvm_status st = buf_mem_write(m, i, addr, pkt, 28);
	if (!st)
		st = buf_mem_write(m, i, addr + 28, pkt + 28, 4);
	if (st) {
		m->err[i] = true;
		m->stats.packets_dropped[i]++;
		emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "fault_buffer_write", addr, (uint64_t)st,
		     "%s fault buffer entry at 0x%llx cannot be written (%s)", i ? "replayable" : "non-replayable",
		     (unsigned long long)addr, nvm_status_str(st));
		return true;
	}
	m->put[i] = (put + 1) % size;
	m->stats.packets_written[i]++;
	mmu_update_intr(m);
	return true;
}

static bool eng_uses_other(const struct mmu_eng_ids *ids, unsigned engine_id)
{
	/* UNVERIFIED: BAR1, BAR2, IFB and physical faults report through the
	 * other-fault registers (STATUS has DROPPED_BAR1/BAR2/IFB bits for them). */
	return engine_id == ids->bar1 || engine_id == ids->bar2 || engine_id == ids->ifb || engine_id == ids->physical;
}

static void report(struct mmu *m, const nvm_mmu_fault_info *f, uint64_t ticket)
{
	m->stats.faults++;
	nvm_mmu_fault_event ev = { *f, ticket, false }; /* nvm_event.detail */
	emit_detail(m->gpu, NVM_EV_FAULT, "mmu", nvm_mmu_fault_type_name(f->fault_type), f->addr, f->fault_type, &ev,
	            "%s fault at va 0x%llx (engine %u, %s client %u, %s)%s", nvm_mmu_fault_type_name(f->fault_type),
	            (unsigned long long)f->addr, f->engine_id, f->client_type ? "HUB" : "GPC", f->client,
	            nvm_mmu_access_name(f->access_type), f->replayable ? " replayable" : "");
	bool taken = false;
	if (!eng_uses_other(m->chip->eng, f->engine_id))
		taken = buf_put(m, f->replayable ? FB_REPLAY : FB_NONREPLAY, f);
	if (!taken)
		latch_other(m, f, f->access_type >= 8);
	mmu_update_intr(m);
}

/* ---------------------------------------------------------------- translation */

/* Strict TLB: compare what the caches produced with a fresh walk. */
static void strict_check(struct mmu *m, const struct aspace *as, const nvm_mmu_request *req,
                         const nvm_mmu_result *cached)
{
	nvm_mmu_result fresh;
	nvm_mmu_walk(m->gpu, as->pdb_target, as->pdb_addr, req->va, NVM_MMU_READ, 1, &fresh, NULL);
	fresh.level = cached->level;
	fresh.oob = cached->oob;
	tlbc_strict_check(m->gpu, "mmu", "an invalidate", req->va, cached->pa, cached, &fresh, same_translation);
}

static void do_walk(struct mmu *m, const struct aspace *as, const nvm_mmu_request *req, uint64_t key,
                    nvm_mmu_result *res)
{
	int veid = req->use_pdb ? -1 : req->veid;
	struct tlb_ent *e = tlb_find(m, key, veid, req->va);
	if (e) {
		m->stats.tlb_hits++;
		nvm_mmu_result r = e->res;
		r.pa = (r.pa & ~(r.page_size - 1)) | (req->va & (r.page_size - 1));
		if (m->strict)
			strict_check(m, as, req, &r);
		*res = r;
		return;
	}
	m->stats.walks++;
	if (!m->chip->fmt->pd_cache) {
		/* A format without the page-directory cache walks from the top. */
		nvm_mmu_walk(m->gpu, as->pdb_target, as->pdb_addr, req->va, NVM_MMU_READ, 1, res, NULL);
		if (res->oob)
			emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "pt_out_of_range", req->va, (uint64_t)res->level,
			     "page-table entry for va 0x%llx lies outside its aperture", (unsigned long long)req->va);
		if (res->fault == NVM_MMU_FAULT_NONE)
			tlb_fill(m, key, veid, req->va, res);
		return;
	}
	/* Start below the deepest cached directory entry for this VA. */
	int start = 0;
	nvm_mmu_target tgt = as->pdb_target == NVM_MMU_PDB_VID ? NVM_MMU_TGT_VID : (nvm_mmu_target)as->pdb_target;
	uint64_t table = as->pdb_addr & ~0xfffull;
	struct mmu_pt_pair pp = { 0 };
	for (int lvl = 4; lvl >= 1 && !(req->va >> MMU_VA_BITS); lvl--) {
		struct pde_ent *d = pdc_find(m, key, lvl, req->va);
		if (d) {
			start = lvl;
			tgt = d->tgt;
			table = d->table;
			pp = d->pp;
			break;
		}
	}
	nvm_aperture ap;
	if (!start && !mmu_ramin_aperture(as->pdb_target, &ap)) {
		nvm_mmu_walk(m->gpu, as->pdb_target, as->pdb_addr, req->va, NVM_MMU_READ, 1, res, NULL);
		return;
	}
	struct mmu_walk_path path;
	mmu_walk_from(m->gpu, start, tgt, table, &pp, req->va, NVM_MMU_READ, 1, res, NULL, &path);
	pdc_fill(m, key, req->va, &path);
	if (res->oob)
		emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "pt_out_of_range", req->va, (uint64_t)res->level,
		     "page-table entry for va 0x%llx lies outside its aperture", (unsigned long long)req->va);
	if (start && m->strict)
		strict_check(m, as, req, res);
	if (res->fault == NVM_MMU_FAULT_NONE)
		tlb_fill(m, key, veid, req->va, res);
}

/* Translates and, when report is set, reports a fault; hold: a replayable
 * fault holds the request for replay (ticket in res). */
static void translate(struct mmu *m, const nvm_mmu_request *req, nvm_mmu_result *res, bool hold, uint64_t ticket)
{
	m->stats.translations++;
	struct aspace as;
	nvm_mmu_fault_type ft = ramin_resolve(m->gpu, req, &as);
	uint64_t key = pdb_key(as.pdb_target, as.pdb_addr);
	if (ft != NVM_MMU_FAULT_NONE) {
		memset(res, 0, sizeof(*res));
		res->fault = ft;
		res->level = -1;
		res->oob = as.oob;
		/* UNVERIFIED: an instance block outside its aperture is unbound. */
		if (as.oob)
			emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "inst_out_of_range", req->inst_addr, req->inst_target,
			     "instance block at 0x%llx lies outside its aperture", (unsigned long long)req->inst_addr);
	} else {
		do_walk(m, &as, req, key, res);
		if (res->fault == NVM_MMU_FAULT_NONE && !res->sparse)
			m->chip->fmt->check(res, req->access, req->privileged);
		if (res->fault == NVM_MMU_FAULT_NONE && res->target == NVM_MMU_TGT_PEER)
			/* UNVERIFIED: the model has no peer GPU, so a PEER page cannot be
			 * reached: UNSUPPORTED_APERTURE. */
			res->fault = NVM_MMU_FAULT_UNSUPPORTED_APERTURE;
	}
	if (res->fault == NVM_MMU_FAULT_NONE)
		return;
	/* Seed 000: FAULT_REPLAY_TEX / _GCC "specify whether the MMU will treat
	 * faults as replayable"; UNVERIFIED: UNBOUND_INST_BLOCK is never
	 * replayable (the instance block could not be read), and with the
	 * replayable buffer disabled a fault is reported as non-replayable. */
	bool replayable = ft == NVM_MMU_FAULT_NONE &&
	                  ((as.replay_tex && is_tex_client(req)) || (as.replay_gcc && is_gcc_client(req))) &&
	                  FIELD_GET(reg(m, R_FB(m, FB_REPLAY, FB_SIZE)), 31, 31);
	res->replayable = replayable;
	/* UNVERIFIED (not held): PAGE_FAULT_CTRL PRF_FILTER SEND_NONE (the reset value): prefetch faults
	 * are not reported and not held. */
	if (req->access == NVM_MMU_PREFETCH && FIELD_GET(reg(m, m->chip->fault->page_fault_ctrl), 1, 0) == 3) {
		res->replayable = 0;
		emit(m->gpu, NVM_EV_TRACE, "mmu", "prefetch_filtered", req->va, (uint64_t)res->fault,
		     "prefetch fault at va 0x%llx filtered (PRF_FILTER SEND_NONE)", (unsigned long long)req->va);
		return;
	}
	if (replayable && hold) {
		if (m->npend == m->cappend) {
			size_t cap = m->cappend ? m->cappend * 2 : 64;
			struct pending *np = cap <= MAX_PENDING ? realloc(m->pend, cap * sizeof(*np)) : NULL;
			if (np) {
				m->pend = np;
				m->cappend = cap;
			}
		}
		if (m->npend < m->cappend) {
			struct pending *p = &m->pend[m->npend++];
			p->ticket = ++m->next_ticket;
			p->req = *req;
			p->pdb_key = key;
			p->last_fault = (unsigned)res->fault;
			ticket = p->ticket;
		} else {
			/* UNVERIFIED: a full replay buffer turns the fault non-replayable. */
			replayable = false;
			res->replayable = 0;
			emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "replay_buffer_full", req->va, MAX_PENDING,
			     "replay request buffer full (%u): fault reported as non-replayable", MAX_PENDING);
		}
	}
	res->ticket = replayable ? ticket : 0;
	nvm_mmu_fault_info f;
	fill_info(m, req, &as, res->fault, replayable, &f);
	report(m, &f, res->ticket);
}

nvm_status nvm_mmu_translate(nvm_gpu *gpu, const nvm_mmu_request *req, nvm_mmu_result *res)
{
	struct mmu *m = mmu_of(gpu);
	if (!gpu || !req || !res)
		return NVM_ERR_ARG;
	if (!m)
		return NVM_ERR_NOENT;
	api_enter(gpu);
	translate(m, req, res, true, 0);
	api_leave(gpu);
	return res->fault != NVM_MMU_FAULT_NONE ? NVM_ERR_FAULT : NVM_OK;
}

/* ---------------------------------------------------------------- replay / cancel */

static bool cancel_access_match(unsigned sel, nvm_mmu_access a)
{
	/* CACHE_LEVEL_CANCEL_*: 0 READ, 1 WRITE, 2 ATOMIC_STRONG, 4 ATOMIC_WEAK,
	 * 5 ATOMIC_ALL, 6 WRITE_AND_ATOMIC, 7 ALL. */
	bool atomic = a == NVM_MMU_ATOMIC || a == NVM_MMU_ATOMIC_WEAK;
	switch (sel) {
	case 0: return a == NVM_MMU_READ;
	case 1: return a == NVM_MMU_WRITE;
	case 2: return a == NVM_MMU_ATOMIC;
	case 4: return a == NVM_MMU_ATOMIC_WEAK;
	case 5: return atomic;
	case 6: return a == NVM_MMU_WRITE || atomic;
	case 7: return true;
	default: return false;
	}
}

static bool cancel_match(const nvm_mmu_inval *op, const struct pending *p)
{
	const nvm_mmu_request *r = &p->req;
	switch (op->replay) {
	case NVM_MMU_REPLAY_CANCEL_GLOBAL: return true;
	case NVM_MMU_REPLAY_CANCEL_TARGETED:
		return r->client_type == op->cancel_client_type && r->client_id == op->cancel_client_id &&
		       (r->client_type == NVM_MMU_CLIENT_HUB || r->gpc_id == op->cancel_gpc_id);
	case NVM_MMU_REPLAY_CANCEL_VA_GLOBAL:
		return (op->all_pdb || p->pdb_key == pdb_key(op->pdb_target, op->pdb_addr)) &&
		       (r->va & ~0xfffull) == (op->va & ~0xfffull) && cancel_access_match(op->cancel_access, r->access);
	default: return false;
	}
}

static void replay(struct mmu *m, const nvm_mmu_inval *op)
{
	/* Work on a snapshot: retranslation may add nothing new (hold=false), and
	 * faults that persist are reported again and stay pending. */
	size_t w = 0;
	for (size_t i = 0; i < m->npend; i++) {
		struct pending p = m->pend[i];
		if (op->replay == NVM_MMU_REPLAY_START || op->replay == NVM_MMU_REPLAY_START_ACK_ALL) {
			nvm_mmu_result r;
			translate(m, &p.req, &r, false, p.ticket);
			if (r.fault == NVM_MMU_FAULT_NONE) {
				m->stats.replayed_ok++;
				emit(m->gpu, NVM_EV_TRACE, "mmu", "replay_done", p.req.va, p.ticket,
				     "replayed request %llu at va 0x%llx now translates", (unsigned long long)p.ticket,
				     (unsigned long long)p.req.va);
				continue;
			}
			if (r.replayable) {
				p.last_fault = (unsigned)r.fault;
				m->pend[w++] = p;
				continue;
			}
			/* It faulted again but no longer as replayable: it completed. */
			continue;
		}
		if (cancel_match(op, &p)) {
			/* Seed 003: REPLAYABLE_FAULT "is set false when ... fault is
			 * replayable but has been cancelled". UNVERIFIED: no packet is
			 * written; the event's record has it clear. */
			m->stats.cancelled++;
			nvm_mmu_fault_event ev = { .ticket = p.ticket, .cancelled = true };
			if (emit_wanted(m->gpu, NVM_EV_TRACE)) { /* the record costs a RAMIN read */
				struct aspace as;
				ramin_resolve(m->gpu, &p.req, &as);
				fill_info(m, &p.req, &as, (nvm_mmu_fault_type)p.last_fault, false, &ev.info);
			}
			emit_detail(m->gpu, NVM_EV_TRACE, "mmu", "cancelled", p.req.va, p.ticket, &ev,
			            "replayable request %llu at va 0x%llx cancelled", (unsigned long long)p.ticket,
			            (unsigned long long)p.req.va);
			continue;
		}
		m->pend[w++] = p;
	}
	m->npend = w;
}

static void invalidate(struct mmu *m, const nvm_mmu_inval *op)
{
	tlb_invalidate(m, op);
	if (op->replay == NVM_MMU_REPLAY_NONE)
		return;
	if (m->replaying) {
		/* A hook (an NVM_EV_FAULT hook, Lua event callback) asked for a replay or
		 * cancel from inside one: refuse rather than re-enter the list. */
		emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "replay_reentered", 0, (uint64_t)op->replay,
		     "replay/cancel requested while one is in progress: ignored");
		return;
	}
	m->replaying = true;
	replay(m, op);
	m->replaying = false;
}

nvm_status nvm_mmu_invalidate(nvm_gpu *gpu, const nvm_mmu_inval *op)
{
	struct mmu *m = mmu_of(gpu);
	if (!gpu || !op)
		return NVM_ERR_ARG;
	if (!m)
		return NVM_ERR_NOENT;
	api_enter(gpu);
	invalidate(m, op);
	api_leave(gpu);
	return NVM_OK;
}

static nvm_status mem_op(nvm_gpu *gpu, uint32_t a, uint32_t b, uint32_t c, uint32_t d);

nvm_status nvm_mmu_mem_op(nvm_gpu *gpu, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	if (!gpu)
		return NVM_ERR_ARG;
	api_enter(gpu);
	nvm_status st = mem_op(gpu, a, b, c, d);
	api_leave(gpu);
	return st;
}

static nvm_status mem_op(nvm_gpu *gpu, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	unsigned opn = FIELD_GET(d, 31, 27); /* MEM_OP_D OPERATION */
	if (opn != 9 && opn != 0xa)
		return NVM_ERR_NOENT;
	nvm_mmu_inval op = { 0 };
	op.all_pdb = (int)FIELD_GET(c, 0, 0); /* MEM_OP_C PDB: 0 ONE, 1 ALL */
	op.replay = (nvm_mmu_replay)FIELD_GET(c, 4, 2);
	op.level = FIELD_GET(c, 9, 7); /* PAGE_TABLE_LEVEL, or ACCESS_TYPE for a VA cancel */
	op.cancel_access = op.level;
	/* PDB_APERTURE 11:10 (VID 0, SYS_COH 2, SYS_NCOH 3); PDB_ADDR_LO 31:12
	 * holds address bits 31:12 and MEM_OP_D PDB_ADDR_HI 26:0 bits 58:32. */
	op.pdb_target = FIELD_GET(c, 11, 10) ? NVM_MMU_PDB_SYS_COH : NVM_MMU_PDB_VID;
	op.pdb_addr = ((uint64_t)FIELD_GET(d, 26, 0) << 32) | ((uint64_t)FIELD_GET(c, 31, 12) << 12);
	/* TARGET_ADDR_LO (A 31:12) and TARGET_ADDR_HI (B). */
	op.va = ((uint64_t)b << 32) | ((uint64_t)FIELD_GET(a, 31, 12) << 12);
	op.all_va = opn == 9; /* MMU_TLB_INVALIDATE: the whole address space */
	if (opn == 0xa && op.replay == NVM_MMU_REPLAY_NONE) {
		/* INVALIDATION_SIZE (A 5:0): log2 of the size in 4 KiB units. */
		op.size_log2 = FIELD_GET(a, 5, 0);
		op.use_size = op.size_log2 != 0;
	}
	/* CANCEL_TARGET_CLIENT_UNIT_ID (A 5:0) and CANCEL_TARGET_GPC_ID (A 10:6).
	 * UNVERIFIED: a targeted cancel by MEM_OP names a GPC client. */
	op.cancel_client_id = FIELD_GET(a, 5, 0);
	op.cancel_gpc_id = FIELD_GET(a, 10, 6);
	op.cancel_client_type = NVM_MMU_CLIENT_GPC;
	if (op.replay > NVM_MMU_REPLAY_CANCEL_VA_GLOBAL) {
		emit(gpu, NVM_EV_GUEST_ERROR, "mmu", "bad_replay", 0, c, "MEM_OP_C: undefined REPLAY value %u ignored",
		     (unsigned)op.replay);
		op.replay = NVM_MMU_REPLAY_NONE;
	}
	struct mmu *m = mmu_of(gpu);
	if (!m)
		return NVM_ERR_NOENT;
	invalidate(m, &op);
	return NVM_OK;
}

static void wr_invalidate(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)old;
	struct mmu *m = ctx;
	if (!FIELD_GET(written, 31, 31)) /* TRIGGER */
		return;
	/* The PFB trigger reads the PFB PDB registers; Turing's VF trigger
	 * (NV_VIRTUAL_FUNCTION_PRIV_MMU_INVALIDATE, 0x30B0) its own at 0x30A0 /
	 * 0x30A4. UNVERIFIED: the VF space has no VADDR; a targeted VF
	 * invalidate takes the PFB INVALIDATE_VADDR. */
	bool vf = r->offset != R_INVALIDATE;
	uint32_t r_pdb = vf ? r->offset - 0x10 : R_INV_PDB, r_upper = vf ? r->offset - 0xC : R_INV_UPPER_PDB;
	uint32_t pdb = reg(m, r_pdb), va = reg(m, R_INV_VADDR);
	nvm_mmu_inval op = { 0 };
	op.all_va = (int)FIELD_GET(written, 0, 0);
	op.all_pdb = (int)FIELD_GET(written, 1, 1);
	op.replay = (nvm_mmu_replay)FIELD_GET(written, 5, 3);
	op.cancel_client_id = FIELD_GET(written, 14, 9);
	op.cancel_gpc_id = FIELD_GET(written, 19, 15);
	op.cancel_client_type = FIELD_GET(written, 20, 20);
	op.use_size = (int)FIELD_GET(written, 22, 22);
	op.level = FIELD_GET(written, 26, 24);
	op.cancel_access = op.level;
	op.size_log2 = FIELD_GET(reg(m, R_INV_SIZE), 5, 0);
	/* INVALIDATE_PDB APERTURE[1] (0 VID, 1 SYS), ADDR[31:4] = pdb >> 12;
	 * UPPER_PDB holds the bits above. */
	op.pdb_target = FIELD_GET(pdb, 1, 1) ? NVM_MMU_PDB_SYS_COH : NVM_MMU_PDB_VID;
	op.pdb_addr = (((uint64_t)FIELD_GET(reg(m, r_upper), 19, 0) << 28) | FIELD_GET(pdb, 31, 4)) << 12;
	op.va = (((uint64_t)FIELD_GET(reg(m, R_INV_UPPER_VADDR), 19, 0) << 28) | FIELD_GET(va, 31, 4)) << 12;
	if (op.replay > NVM_MMU_REPLAY_CANCEL_VA_GLOBAL) {
		emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "bad_replay", r->offset, written,
		     "%s: undefined REPLAY value %u ignored", r->name, (unsigned)op.replay);
		op.replay = NVM_MMU_REPLAY_NONE;
	}
	/* TRIGGER is write-only: it reads back as 0. */
	*stored &= 0x7fffffffu;
	nvm_mmu_invalidate(m->gpu, &op);
}

/* ---------------------------------------------------------------- fault buffer registers */

static int fb_index(const struct mmu *m, uint32_t addr)
{
	return addr >= R_FB(m, 1, FB_LO) ? 1 : 0;
}

static uint32_t rd_put(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)stored;
	struct mmu *m = ctx;
	int i = fb_index(m, r->offset);
	/* PUT mirrors GET's GETPTR_CORRUPTED and OVERFLOW flags (read-only). */
	return (m->put[i] & 0xfffffu) | (reg(m, R_FB(m, i, FB_GET)) & 0xc0000000u);
}

static void wr_get(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)old;
	(void)written;
	struct mmu *m = ctx;
	int i = fb_index(m, r->offset);
	uint32_t size = FIELD_GET(reg(m, R_FB(m, i, FB_SIZE)), 19, 0);
	if (FIELD_GET(*stored, 19, 0) >= size && size) {
		/* UNVERIFIED: a GET beyond SIZE sets GETPTR_CORRUPTED. */
		*stored |= 0x40000000u;
		emit(m->gpu, NVM_EV_GUEST_ERROR, "mmu", "getptr_corrupted", r->offset, *stored,
		     "fault buffer %d GET %u is not below SIZE %u: GETPTR_CORRUPTED", i, FIELD_GET(*stored, 19, 0),
		     size);
	}
	mmu_update_intr(m);
}

static void wr_size(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)old;
	struct mmu *m = ctx;
	if (FIELD_GET(written, 30, 30)) {
		/* SET_DEFAULT: "GMMU will calculate the recommended value ... and
		 * write the recommended value". UNVERIFIED: the bit reads back 0. */
		*stored = FIELD_SET(*stored, 19, 0, m->chip->default_size);
		*stored &= ~0x40000000u;
	}
	(void)r;
	mmu_update_intr(m);
}

static uint32_t rd_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct mmu *m = ctx;
	uint32_t v = stored & 0x800000ffu;
	uint32_t g0 = reg(m, R_FB(m, 0, FB_GET)), g1 = reg(m, R_FB(m, 1, FB_GET));
	/* UNVERIFIED: REPLAYABLE / NON_REPLAYABLE read 1 while the buffer holds
	 * unread packets (GET != PUT). */
	v |= (uint32_t)(FIELD_GET(g1, 19, 0) != m->put[1]) << 8;
	v |= (uint32_t)(FIELD_GET(g0, 19, 0) != m->put[0]) << 9;
	v |= (uint32_t)m->err[1] << 10;
	v |= (uint32_t)m->err[0] << 11;
	v |= FIELD_GET(g1, 31, 31) << 12;
	v |= FIELD_GET(g0, 31, 31) << 13;
	v |= FIELD_GET(g1, 30, 30) << 14;
	v |= FIELD_GET(g0, 30, 30) << 15;
	return v;
}

static void wr_status(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	struct mmu *m = ctx;
	/* UNVERIFIED: writing 1 to the (read-only) *_ERROR bits clears them. */
	if (written & (1u << 10))
		m->err[1] = false;
	if (written & (1u << 11))
		m->err[0] = false;
	mmu_update_intr(m);
}

static void wr_bind(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct mmu *m = ctx;
	/* UNVERIFIED: binds need no cache here (RAMIN is read per request). */
	if (FIELD_GET(written, 31, 31))
		emit(m->gpu, NVM_EV_UNMODELLED, "mmu", "bind", R_BIND, written,
		     "PFB_PRI_MMU_BIND trigger: instance binds are not modelled (translations read RAMIN directly)");
	*stored &= 0x7fffffffu;
}

/* Offset, name, reset, writable mask, W1C mask, read, write. */
static const struct reg_desc niso_regs[] = {
	{ R_NISO_INTR, "NV_PFB_NISO_INTR", 0, 0, 0, rd_niso, NULL },
	{ R_NISO_INTR_EN_SET, "NV_PFB_NISO_INTR_EN_SET", 0, 0, 0, rd_niso_en, wr_niso_en_set },
	{ R_NISO_INTR_EN_CLR, "NV_PFB_NISO_INTR_EN_CLR", 0, 0, 0, rd_niso_en, wr_niso_en_clr },
};

#define HUB_REGS                                                                                                       \
	{ R_BIND_IMB, "NV_PFB_PRI_MMU_BIND_IMB", 0, 0xfffffff7u, 0, NULL, NULL },                                      \
	        { R_BIND, "NV_PFB_PRI_MMU_BIND", 0, 0xe3ffff00u, 0, NULL, wr_bind },                                   \
	        { R_INV_VADDR, "NV_PFB_PRI_MMU_INVALIDATE_VADDR", 0, 0xfffffff0u, 0, NULL, NULL },                     \
	        { R_INV_PDB, "NV_PFB_PRI_MMU_INVALIDATE_PDB", 0, 0xfffffff2u, 0, NULL, NULL },                         \
	        { R_INVALIDATE, "NV_PFB_PRI_MMU_INVALIDATE", 0, 0x87ffffffu, 0, NULL, wr_invalidate },                 \
	        { R_DEBUG_CTRL, "NV_PFB_PRI_MMU_DEBUG_CTRL", 0, 0x0007ffffu, 0, NULL, NULL },                          \
	        { R_DEBUG_WR, "NV_PFB_PRI_MMU_DEBUG_WR", 0, 0xfffffff7u, 0, NULL, NULL },                              \
	        { R_DEBUG_RD, "NV_PFB_PRI_MMU_DEBUG_RD", 0, 0xfffffff7u, 0, NULL, NULL },                              \
	        { R_INV_UPPER_VADDR, "NV_PFB_PRI_MMU_INVALIDATE_UPPER_VADDR", 0, 0x000fffffu, 0, NULL, NULL },         \
	{                                                                                                              \
		R_INV_UPPER_PDB, "NV_PFB_PRI_MMU_INVALIDATE_UPPER_PDB", 0, 0x000fffffu, 0, NULL, NULL                  \
	}

/* PRF_FILTER resets to SEND_NONE (the RWE-V value 3). */
#define PAGE_FAULT_CTRL(P, A)                                                                                          \
	{                                                                                                              \
		A, P "PAGE_FAULT_CTRL", 3, 0x3u, 0, NULL, NULL                                                         \
	}

static const struct reg_desc hub_regs[] = {
	HUB_REGS,
	PAGE_FAULT_CTRL("NV_PFB_PRI_MMU_", 0x100CF8u),
};

#define FB_REGS(P, A, i)                                                                                               \
	{ (A), P "FAULT_BUFFER_LO(" #i ")", 0, 0xfffff00fu, 0, NULL, NULL },                                           \
	        { (A) + 4, P "FAULT_BUFFER_HI(" #i ")", 0, 0xffffffffu, 0, NULL, NULL },                               \
	        { (A) + 8, P "FAULT_BUFFER_GET(" #i ")", 0, 0x000fffffu, 0xc0000000u, NULL, wr_get },                  \
	        { (A) + 0xC, P "FAULT_BUFFER_PUT(" #i ")", 0, 0, 0, rd_put, NULL },                                    \
	{                                                                                                              \
		(A) + 0x10, P "FAULT_BUFFER_SIZE(" #i ")", 0, 0xe00fffffu, 0, NULL, wr_size                            \
	}

/* DROPPED_* (7:0) and VALID (31) of STATUS are cleared by writing 1 (their
 * CLEAR value). */
#define FAULT_INFO_REGS(P, A)                                                                                          \
	{ (A), P "FAULT_ADDR_LO", 0, 0, 0, NULL, NULL }, { (A) + 4, P "FAULT_ADDR_HI", 0, 0, 0, NULL, NULL },          \
	        { (A) + 8, P "FAULT_INST_LO", 0, 0, 0, NULL, NULL },                                                   \
	        { (A) + 0xC, P "FAULT_INST_HI", 0, 0, 0, NULL, NULL },                                                 \
	        { (A) + 0x10, P "FAULT_INFO", 0, 0, 0, NULL, NULL },                                                   \
	{                                                                                                              \
		(A) + 0x14, P "FAULT_STATUS", 0, 0, 0x800000ffu, rd_status, wr_status                                  \
	}

#define ATS_REGS                                                                                                       \
	{ R_ATS_LOCAL, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_LOCAL", 0, 0xffffffffu, 0, NULL, NULL },                         \
	        { 0x100E04, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(0)", 0, 0xffffffffu, 0, NULL, NULL },                  \
	        { 0x100E08, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(1)", 0, 0xffffffffu, 0, NULL, NULL },                  \
	        { 0x100E0C, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(2)", 0, 0xffffffffu, 0, NULL, NULL },                  \
	        { 0x100E10, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(3)", 0, 0xffffffffu, 0, NULL, NULL },                  \
	        { 0x100E14, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(4)", 0, 0xffffffffu, 0, NULL, NULL },                  \
	        { 0x100E18, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(5)", 0, 0xffffffffu, 0, NULL, NULL },                  \
	        { 0x100E1C, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(6)", 0, 0xffffffffu, 0, NULL, NULL },                  \
	{                                                                                                              \
		0x100E20, "NV_PFB_PRI_MMU_ATS_ADDR_RANGE_PEER(7)", 0, 0xffffffffu, 0, NULL, NULL                       \
	}

#define INV_PASID_REGS                                                                                                 \
	{ R_INV_PASID, "NV_PFB_PRI_MMU_INVALIDATE_PASID", 0, 0x000fffffu, 0, NULL, NULL },                             \
	{                                                                                                              \
		R_INV_SIZE, "NV_PFB_PRI_MMU_INVALIDATE_SIZE", 0, 0x3fu, 0, NULL, NULL                                  \
	}

/* gv100: everything in NV_PFB_PRI_MMU (gv100_pri_mmu_hub.ref). */
static const struct reg_desc fb_regs[] = {
	ATS_REGS,
	FB_REGS("NV_PFB_PRI_MMU_", 0x100E24u, 0),
	FB_REGS("NV_PFB_PRI_MMU_", 0x100E38u, 1),
	FAULT_INFO_REGS("NV_PFB_PRI_MMU_", 0x100E4Cu),
	INV_PASID_REGS,
};

/* Turing on: the fault buffers, PAGE_FAULT_CTRL and the other-fault
 * registers are NV_VIRTUAL_FUNCTION_PRIV_MMU_* at VF offset 0x3000
 * (tu104_dev_vm.ref, ga100_dev_vm.ref; BAR0 0xB80000 + 0x3000, where
 * nouveau's tu102 fault code reads them). UNVERIFIED: the PFB copies at
 * 0x100E24.. and 0x100CF8 are gone; binds, invalidates, ATS ranges and
 * NISO_INTR stay in NV_PFB as on gv100, and the VF INVALIDATE_PDB /
 * UPPER_PDB / INVALIDATE at 0x30A0 / 0x30A4 / 0x30B0 (where nouveau's
 * tu102 flush writes) invalidate as the PFB ones do. */
static const struct reg_desc hub_regs_vf[] = { HUB_REGS };
static const struct reg_desc fb_regs_vf_pfb[] = { ATS_REGS, INV_PASID_REGS };
#define VF_MMU 0xB83000u
static const struct reg_desc vf_regs[] = {
	FB_REGS("NV_VIRTUAL_FUNCTION_PRIV_MMU_", VF_MMU, 0),
	FB_REGS("NV_VIRTUAL_FUNCTION_PRIV_MMU_", VF_MMU + 0x20, 1),
	PAGE_FAULT_CTRL("NV_VIRTUAL_FUNCTION_PRIV_MMU_", VF_MMU + 0x70),
	FAULT_INFO_REGS("NV_VIRTUAL_FUNCTION_PRIV_MMU_", VF_MMU + 0x80),
	{ VF_MMU + 0xA0, "NV_VIRTUAL_FUNCTION_PRIV_MMU_INVALIDATE_PDB", 0, 0xfffffff2u, 0, NULL, NULL },
	{ VF_MMU + 0xA4, "NV_VIRTUAL_FUNCTION_PRIV_MMU_INVALIDATE_UPPER_PDB", 0, 0x000fffffu, 0, NULL, NULL },
	{ VF_MMU + 0xB0, "NV_VIRTUAL_FUNCTION_PRIV_MMU_INVALIDATE", 0, 0x87ffffffu, 0, NULL, wr_invalidate },
};

#define NREGS(t) (sizeof(t) / sizeof((t)[0]))

static const struct mmu_reg_block pfb_blocks[] = {
	{ R_BIND_IMB, 0x100D00 - R_BIND_IMB, hub_regs, NREGS(hub_regs) },
	{ R_ATS_LOCAL, 0x6C, fb_regs, NREGS(fb_regs) },
};
const struct mmu_fault_layout mmu_fault_pfb = { 0x100E24u, 20, 0x100CF8u, 0x100E4Cu, pfb_blocks, NREGS(pfb_blocks) };

static const struct mmu_reg_block vf_blocks[] = {
	{ R_BIND_IMB, 0x100D00 - R_BIND_IMB, hub_regs_vf, NREGS(hub_regs_vf) },
	{ R_ATS_LOCAL, 0x6C, fb_regs_vf_pfb, NREGS(fb_regs_vf_pfb) },
	{ VF_MMU, 0xB4, vf_regs, NREGS(vf_regs) },
};
const struct mmu_fault_layout mmu_fault_vf = { VF_MMU, 32, VF_MMU + 0x70, VF_MMU + 0x80, vf_blocks, NREGS(vf_blocks) };

static const struct reg_desc bar1_regs[] = {
	{ R_BAR1_BLOCK, "NV_PBUS_BAR1_BLOCK", 0, 0xbfffffffu, 0, NULL, NULL },
};
static const struct reg_desc bar2_regs[] = {
	{ R_BAR2_BLOCK, "NV_PBUS_BAR2_BLOCK", 0, 0xbfffffffu, 0, NULL, NULL },
};

/* ---------------------------------------------------------------- BAR1 / BAR2 */

static nvm_status bar_translate(nvm_gpu *gpu, int bar, uint64_t off, nvm_mmu_access access, nvm_mmu_result *res)
{
	struct mmu *m = mmu_of(gpu);
	if (!gpu || !res || (bar != 1 && bar != 2))
		return NVM_ERR_ARG;
	if (!m)
		return NVM_ERR_NOENT;
	uint32_t blk = reg(m, bar == 1 ? R_BAR1_BLOCK : R_BAR2_BLOCK);
	if (!FIELD_GET(blk, 31, 31)) {
		/* MODE PHYSICAL. UNVERIFIED: the BAR then maps VRAM from 0. */
		memset(res, 0, sizeof(*res));
		res->fault = NVM_MMU_FAULT_NONE;
		res->target = NVM_MMU_TGT_VID;
		res->pa = off;
		res->page_size = 4096;
		res->level = -1;
		return NVM_OK;
	}
	nvm_mmu_request req = { 0 };
	req.inst_target = FIELD_GET(blk, 29, 28);
	req.inst_addr = (uint64_t)FIELD_GET(blk, 27, 0) << 12; /* PTR_SHIFT 12 */
	req.veid = -1;
	req.va = off;
	req.access = access;
	req.engine_id = bar == 1 ? m->chip->eng->bar1 : m->chip->eng->bar2;
	req.client_type = NVM_MMU_CLIENT_HUB;
	req.client_id = 7;  /* UNVERIFIED: BAR accesses come from HOST_CPU */
	req.privileged = 1; /* UNVERIFIED: BAR accesses are privileged */
	translate(m, &req, res, false, 0);
	return NVM_OK;
}

nvm_status nvm_mmu_bar_translate(nvm_gpu *gpu, int bar, uint64_t off, nvm_mmu_access access, nvm_mmu_result *res)
{
	if (!gpu)
		return NVM_ERR_ARG;
	api_enter(gpu);
	nvm_status st = bar_translate(gpu, bar, off, access, res);
	api_leave(gpu);
	return !st && res->fault != NVM_MMU_FAULT_NONE ? NVM_ERR_FAULT : st;
}

/* The BAR's pages one by one; stops early once a hook closed the GPU. */
static nvm_status bar_access(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len, bool write)
{
	uint8_t *p = buf;
	while (len && !gpu->closing) {
		nvm_mmu_result r;
		nvm_status st = bar_translate(gpu, bar, off, write ? NVM_MMU_WRITE : NVM_MMU_READ, &r);
		if (st)
			return st;
		if (r.fault != NVM_MMU_FAULT_NONE)
			return NVM_ERR_FAULT;
		size_t n = (size_t)(4096 - (off & 4095));
		if (n > len)
			n = len;
		if (r.sparse) {
			if (!write)
				memset(p, 0, n);
		} else {
			nvm_aperture ap;
			if (!mmu_pte_aperture(r.target, &ap))
				return NVM_ERR_APERTURE;
			st = write ? nvm_mem_write(gpu, ap, r.pa, p, n) : nvm_mem_read(gpu, ap, r.pa, p, n);
			if (st)
				return st;
		}
		p += n;
		off += n;
		len -= n;
	}
	return NVM_OK;
}

static nvm_status bar_copy(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len, bool write)
{
	if (!gpu || (!buf && len))
		return NVM_ERR_ARG;
	api_enter(gpu);
	nvm_status st = bar_access(gpu, bar, off, buf, len, write);
	api_leave(gpu);
	return st;
}

nvm_status nvm_mmu_bar_write(nvm_gpu *gpu, int bar, uint64_t off, const void *buf, size_t len)
{
	return bar_copy(gpu, bar, off, (void *)(uintptr_t)buf, len, true);
}

nvm_status nvm_mmu_bar_read(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len)
{
	return bar_copy(gpu, bar, off, buf, len, false);
}

/* ---------------------------------------------------------------- misc API */

nvm_status nvm_mmu_set_strict_tlb(nvm_gpu *gpu, bool on)
{
	struct mmu *m = mmu_of(gpu);
	if (!m)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	m->strict = on != 0;
	return NVM_OK;
}

size_t nvm_mmu_pending(const nvm_gpu *gpu)
{
	struct mmu *m = mmu_of(gpu);
	return m ? m->npend : 0;
}

nvm_status nvm_mmu_get_stats(const nvm_gpu *gpu, nvm_mmu_stats *out)
{
	struct mmu *m = mmu_of(gpu);
	if (!out)
		return NVM_ERR_ARG;
	if (!m)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	*out = m->stats;
	return NVM_OK;
}

/* ---------------------------------------------------------------- block */

static nvm_status mmu_create(nvm_gpu *gpu, const void *data, void **state)
{
	struct mmu *m = calloc(1, sizeof(*m));
	if (!m)
		return NVM_ERR_NOMEM;
	m->gpu = gpu;
	m->chip = data ? data : &mmu_gv100;
	intr_init(&m->intr, gpu, m->chip->intr, m); /* status computed, enable held: no register needed */
	tlbc_init(&m->tlb, TLB_SLOTS, sizeof(struct tlb_ent));
	tlbc_init(&m->pdc, PDC_SLOTS, sizeof(struct pde_ent));
	*state = m;
	nvm_status st = bus_add(gpu, &(struct reg_block){ .name = "mmu",
	                                                  .base = 0x100A20,
	                                                  .size = 0x18,
	                                                  .regs = niso_regs,
	                                                  .nregs = NREGS(niso_regs),
	                                                  .ctx = m });
	for (size_t i = 0; i < m->chip->fault->nblocks && !st; i++) {
		const struct mmu_reg_block *b = &m->chip->fault->blocks[i];
		st = bus_add(gpu, &(struct reg_block){ .name = "mmu",
		                                       .base = b->base,
		                                       .size = b->size,
		                                       .regs = b->regs,
		                                       .nregs = b->nregs,
		                                       .ctx = m });
	}
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "mmu",
		                                       .base = R_BAR1_BLOCK,
		                                       .size = 4,
		                                       .regs = bar1_regs,
		                                       .nregs = 1,
		                                       .ctx = m });
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "mmu",
		                                       .base = R_BAR2_BLOCK,
		                                       .size = 4,
		                                       .regs = bar2_regs,
		                                       .nregs = 1,
		                                       .ctx = m });
	if (st) {
		/* nvm_open only destroys blocks that were created. */
		free(m);
		*state = NULL;
	}
	return st;
}

static void mmu_destroy(nvm_gpu *gpu, void *state)
{
	(void)gpu;
	struct mmu *m = state;
	if (!m)
		return;
	tlbc_fini(&m->tlb);
	tlbc_fini(&m->pdc);
	free(m->pend);
	free(m);
}

const struct block_class mmu_class = {
	.name = "mmu",
	.create = mmu_create,
	.destroy = mmu_destroy,
	.snap = &mmu_snap,
};
