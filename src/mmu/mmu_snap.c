/*
 * Snapshots of the GMMU block (issue 22 item 3; struct block_snap in
 * core.h): the fault buffers' PUT pointers and write errors, the held
 * NISO_INTR enable mask, the replayable requests waiting for a replay, the
 * statistics, the strict-TLB switch and both caches. The TLB and the
 * page-directory cache are saved entry by entry, in the order of their
 * live lists: an entry the guest has not invalidated translates after a
 * load as before (a stale one too, which the strict-TLB mode reports), and
 * BAR1 / BAR2 translations go through the same TLB. The fault registers
 * (GET, SIZE, the fault-buffer addresses, the "other fault" latch) are the
 * core's. Not saved: the fault hook (the caller's, like every hook) and
 * `replaying` (only set inside a replay).
 */
#include <stdlib.h>
#include <string.h>

#include "mmu_block.h"

/* ---------------------------------------------------------------- save */

static void save_req(struct snap_w *w, const nvm_mmu_request *q)
{
	snap_u32(w, (uint32_t)q->use_pdb);
	snap_u32(w, q->inst_target);
	snap_u64(w, q->inst_addr);
	snap_u32(w, q->pdb_target);
	snap_u64(w, q->pdb_addr);
	snap_u32(w, (uint32_t)q->veid);
	snap_u64(w, q->va);
	snap_u32(w, (uint32_t)q->access);
	snap_u32(w, q->engine_id);
	snap_u32(w, q->client_type);
	snap_u32(w, q->client_id);
	snap_u32(w, q->gpc_id);
	snap_u32(w, (uint32_t)q->privileged);
}

static void save_res(struct snap_w *w, const nvm_mmu_result *r)
{
	snap_u32(w, (uint32_t)r->fault);
	snap_u32(w, (uint32_t)r->sparse);
	snap_u32(w, (uint32_t)r->target);
	snap_u32(w, r->peer);
	snap_u64(w, r->pa);
	snap_u64(w, r->page_size);
	snap_u32(w, r->kind);
	snap_u32(w, (uint32_t)r->priv);
	snap_u32(w, (uint32_t)r->ro);
	snap_u32(w, (uint32_t)r->vol);
	snap_u32(w, (uint32_t)r->atomic_disable);
	snap_u32(w, (uint32_t)r->encrypted);
	snap_u32(w, (uint32_t)r->level);
	snap_u32(w, (uint32_t)r->oob);
	snap_u32(w, (uint32_t)r->replayable);
	snap_u64(w, r->ticket);
}

static void save_pp(struct snap_w *w, const struct mmu_pt_pair *pp)
{
	snap_u32(w, (uint32_t)pp->big_present | (uint32_t)pp->small_present << 1);
	snap_u32(w, (uint32_t)pp->big_tgt);
	snap_u32(w, (uint32_t)pp->small_tgt);
	snap_u64(w, pp->big_table);
	snap_u64(w, pp->small_table);
}

static void mmu_save(void *state, struct snap_w *w)
{
	struct mmu *m = state;
	intr_line_save(&m->intr, w);
	snap_u32(w, m->put[0]);
	snap_u32(w, m->put[1]);
	snap_u32(w, (uint32_t)m->err[0] | (uint32_t)m->err[1] << 1 | (uint32_t)m->strict << 2);
	uint64_t stats[sizeof(m->stats) / 8];
	memcpy(stats, &m->stats, sizeof(stats));
	for (size_t i = 0; i < sizeof(stats) / 8; i++)
		snap_u64(w, stats[i]);
	snap_u64(w, m->next_ticket);
	snap_u64(w, m->npend);
	for (size_t i = 0; i < m->npend; i++) {
		const struct pending *p = &m->pend[i];
		snap_u64(w, p->ticket);
		save_req(w, &p->req);
		snap_u64(w, p->pdb_key);
		snap_u32(w, p->last_fault);
	}
	snap_u64(w, m->tlb.nlive);
	for (size_t i = 0; i < m->tlb.nlive; i++) {
		const struct tlb_ent *e = tlbc_live(&m->tlb, i);
		snap_u32(w, (uint32_t)e->veid);
		snap_u64(w, e->pdb_key);
		snap_u64(w, e->va_base);
		snap_u64(w, e->size);
		save_res(w, &e->res);
	}
	snap_u64(w, m->pdc.nlive);
	for (size_t i = 0; i < m->pdc.nlive; i++) {
		const struct pde_ent *e = tlbc_live(&m->pdc, i);
		snap_u32(w, (uint32_t)e->lvl);
		snap_u64(w, e->pdb_key);
		snap_u64(w, e->base);
		snap_u32(w, (uint32_t)e->tgt);
		snap_u64(w, e->table);
		save_pp(w, &e->pp);
	}
}

/* ---------------------------------------------------------------- load */

/* A request as a requester can hand it in (nvm_mmu_request's ranges). */
static bool read_req(struct snap_r *r, nvm_mmu_request *q)
{
	uint32_t use_pdb = snap_get_u32(r);
	q->use_pdb = (int)use_pdb;
	q->inst_target = snap_get_u32(r);
	q->inst_addr = snap_get_u64(r);
	q->pdb_target = snap_get_u32(r);
	q->pdb_addr = snap_get_u64(r);
	q->veid = (int)(int32_t)snap_get_u32(r);
	q->va = snap_get_u64(r);
	uint32_t access = snap_get_u32(r);
	q->access = (nvm_mmu_access)access;
	q->engine_id = snap_get_u32(r);
	q->client_type = snap_get_u32(r);
	q->client_id = snap_get_u32(r);
	q->gpc_id = snap_get_u32(r);
	uint32_t priv = snap_get_u32(r);
	q->privileged = (int)priv;
	return !r->err && use_pdb <= 1 && q->inst_target <= 3 && q->pdb_target <= 3 && q->veid >= -1 && q->veid < 64 &&
	       access <= NVM_MMU_ATOMIC_WEAK && q->engine_id < 512 && q->client_type <= 1 && q->client_id < 128 &&
	       q->gpc_id < 32 && priv <= 1;
}

static bool is_flag(uint32_t v)
{
	return v <= 1;
}

/* A translation as the walk caches it: no fault, a leaf page size, a
 * target, flags 0 or 1, the level of a PTE or a PDE. */
static bool read_res(struct snap_r *r, nvm_mmu_result *x)
{
	uint32_t fault = snap_get_u32(r), sparse = snap_get_u32(r), target = snap_get_u32(r);
	x->peer = snap_get_u32(r);
	x->pa = snap_get_u64(r);
	x->page_size = snap_get_u64(r);
	x->kind = snap_get_u32(r);
	uint32_t f[8];
	for (unsigned i = 0; i < 8; i++)
		f[i] = snap_get_u32(r);
	x->ticket = snap_get_u64(r);
	x->fault = (nvm_mmu_fault_type)(int32_t)fault;
	x->sparse = (int)sparse;
	x->target = (nvm_mmu_target)target;
	x->priv = (int)f[0];
	x->ro = (int)f[1];
	x->vol = (int)f[2];
	x->atomic_disable = (int)f[3];
	x->encrypted = (int)f[4];
	x->level = (int)(int32_t)f[5];
	x->oob = (int)f[6];
	x->replayable = (int)f[7];
	if (r->err || (int32_t)fault != NVM_MMU_FAULT_NONE || !is_flag(sparse) || target > NVM_MMU_TGT_SYS_NCOH ||
	    x->kind > 0xff || x->level < -1 || x->level > 5)
		return false;
	for (unsigned i = 0; i < 5; i++)
		if (!is_flag(f[i]))
			return false;
	return is_flag(f[6]) && is_flag(f[7]);
}

struct mmu_img {
	uint32_t put[2], flags;
	uint64_t stats[sizeof(nvm_mmu_stats) / 8];
	uint64_t next_ticket;
	size_t npend, cappend;
	struct pending *pend;
	size_t ntlb, npdc;
	struct tlb_ent *tlb;
	struct pde_ent *pdc;
};

static void img_free(struct mmu_img *x)
{
	free(x->pend);
	free(x->tlb);
	free(x->pdc);
}

/* A PDB key (pdb_key in mmu.c): an aperture bit and a 4 KiB page. */
static bool key_ok(uint64_t key)
{
	return !(key & 0xfffu);
}

/* The held requests: in the order they were taken, each with a ticket the
 * block gave. */
static bool read_pend(struct snap_r *r, struct mmu_img *x)
{
	uint64_t n;
	if (!snap_get_below(r, MAX_PENDING + 1, &n))
		return false;
	/* Room as translate grows it (64, 128 ... MAX_PENDING): the buffer
	 * fills up at MAX_PENDING after a load as before. */
	x->cappend = n ? 64 : 0;
	while (x->cappend < n)
		x->cappend *= 2;
	if (n && !(x->pend = calloc(x->cappend, sizeof(*x->pend)))) {
		r->err = NVM_ERR_NOMEM;
		return false;
	}
	x->npend = (size_t)n;
	uint64_t last = 0;
	for (size_t i = 0; i < x->npend; i++) {
		struct pending *p = &x->pend[i];
		p->ticket = snap_get_u64(r);
		bool ok = read_req(r, &p->req);
		p->pdb_key = snap_get_u64(r);
		p->last_fault = snap_get_u32(r);
		if (!ok || p->ticket <= last || p->ticket > x->next_ticket || p->last_fault > 0x1f ||
		    !key_ok(p->pdb_key)) {
			r->err = r->err ? r->err : NVM_ERR_CORRUPT;
			return false;
		}
		last = p->ticket;
	}
	return true;
}

/* The TLB: leaf pages at their base, each in the slot its key selects,
 * no slot twice. */
static bool read_tlb(struct snap_r *r, struct mmu_img *x, uint8_t *used)
{
	uint64_t n;
	if (!snap_get_below(r, TLB_SLOTS + 1, &n))
		return false;
	if (n && !(x->tlb = calloc(n, sizeof(*x->tlb)))) {
		r->err = NVM_ERR_NOMEM;
		return false;
	}
	x->ntlb = (size_t)n;
	for (size_t i = 0; i < x->ntlb; i++) {
		struct tlb_ent *e = &x->tlb[i];
		e->veid = (int)(int32_t)snap_get_u32(r);
		e->pdb_key = snap_get_u64(r);
		e->va_base = snap_get_u64(r);
		e->size = snap_get_u64(r);
		bool ok = read_res(r, &e->res);
		bool size_ok = e->size == page_sizes[0] || e->size == page_sizes[1] || e->size == page_sizes[2];
		if (!ok || !size_ok || e->res.page_size != e->size || (e->va_base & (e->size - 1)) || e->veid < -1 ||
		    e->veid >= 64 || !key_ok(e->pdb_key)) {
			r->err = r->err ? r->err : NVM_ERR_CORRUPT;
			return false;
		}
		size_t slot = tlb_slot(e->pdb_key, e->veid, e->va_base, e->size);
		if (used[slot]) {
			r->err = NVM_ERR_CORRUPT;
			return false;
		}
		used[slot] = 1;
	}
	return true;
}

static bool tgt_ok(uint32_t t)
{
	return t <= NVM_MMU_TGT_SYS_NCOH;
}

/* The page-directory cache: levels 1..4 at their region's base. */
static bool read_pdc(struct snap_r *r, struct mmu_img *x, uint8_t *used)
{
	uint64_t n;
	if (!snap_get_below(r, PDC_SLOTS + 1, &n))
		return false;
	if (n && !(x->pdc = calloc(n, sizeof(*x->pdc)))) {
		r->err = NVM_ERR_NOMEM;
		return false;
	}
	x->npdc = (size_t)n;
	for (size_t i = 0; i < x->npdc; i++) {
		struct pde_ent *e = &x->pdc[i];
		int32_t lvl = (int32_t)snap_get_u32(r);
		e->pdb_key = snap_get_u64(r);
		e->base = snap_get_u64(r);
		uint32_t tgt = snap_get_u32(r);
		e->table = snap_get_u64(r);
		uint32_t pres = snap_get_u32(r), bt = snap_get_u32(r), st = snap_get_u32(r);
		e->pp.big_table = snap_get_u64(r);
		e->pp.small_table = snap_get_u64(r);
		if (r->err || lvl < 1 || lvl > 4 || (e->base & ((1ull << pdc_shift[lvl]) - 1)) || !tgt_ok(tgt) ||
		    pres > 3 || !tgt_ok(bt) || !tgt_ok(st) || !key_ok(e->pdb_key)) {
			r->err = r->err ? r->err : NVM_ERR_CORRUPT;
			return false;
		}
		e->lvl = lvl;
		e->tgt = (nvm_mmu_target)tgt;
		e->pp.big_present = pres & 1u;
		e->pp.small_present = pres >> 1;
		e->pp.big_tgt = (nvm_mmu_target)bt;
		e->pp.small_tgt = (nvm_mmu_target)st;
		size_t slot = pdc_slot(e->pdb_key, e->lvl, e->base);
		if (used[slot]) {
			r->err = NVM_ERR_CORRUPT;
			return false;
		}
		used[slot] = 1;
	}
	return true;
}

static bool read_img(struct snap_r *r, struct mmu_img *x)
{
	x->put[0] = snap_get_u32(r);
	x->put[1] = snap_get_u32(r);
	x->flags = snap_get_u32(r);
	for (size_t i = 0; i < sizeof(x->stats) / 8; i++)
		x->stats[i] = snap_get_u64(r);
	x->next_ticket = snap_get_u64(r);
	/* PUT stays below SIZE (20 bits); the TLB count is the live list's. */
	if (r->err || x->put[0] > 0xfffffu || x->put[1] > 0xfffffu || x->flags > 7)
		return false;
	uint8_t *used = calloc(TLB_SLOTS, 1);
	if (!used) {
		r->err = NVM_ERR_NOMEM;
		return false;
	}
	bool ok = read_pend(r, x) && read_tlb(r, x, used);
	memset(used, 0, TLB_SLOTS);
	ok = ok && read_pdc(r, x, used);
	free(used);
	nvm_mmu_stats s;
	memcpy(&s, x->stats, sizeof(s));
	return ok && s.tlb_entries == x->ntlb;
}

static void install(struct mmu *m, struct mmu_img *x)
{
	m->put[0] = x->put[0];
	m->put[1] = x->put[1];
	m->err[0] = x->flags & 1u;
	m->err[1] = (x->flags >> 1) & 1u;
	m->strict = (x->flags >> 2) & 1u;
	m->replaying = false;
	memcpy(&m->stats, x->stats, sizeof(m->stats));
	m->next_ticket = x->next_ticket;
	free(m->pend);
	m->pend = x->pend;
	m->npend = x->npend;
	m->cappend = x->cappend;
	x->pend = NULL;
	/* The caches empty, then filled in the saved order (the live lists
	 * come back the same). */
	tlbc_fini(&m->tlb);
	tlbc_fini(&m->pdc);
	tlbc_init(&m->tlb, TLB_SLOTS, sizeof(struct tlb_ent));
	tlbc_init(&m->pdc, PDC_SLOTS, sizeof(struct pde_ent));
	for (size_t i = 0; i < x->ntlb; i++) {
		const struct tlb_ent *s = &x->tlb[i];
		struct tlb_ent *e = tlbc_fill(&m->tlb, tlb_slot(s->pdb_key, s->veid, s->va_base, s->size));
		if (!e)
			break; /* out of memory: the TLB just misses (tlb_fill does the same) */
		struct tlbc_hdr h = e->h;
		*e = *s;
		e->h = h;
	}
	m->stats.tlb_entries = m->tlb.nlive;
	for (size_t i = 0; i < x->npdc; i++) {
		const struct pde_ent *s = &x->pdc[i];
		struct pde_ent *e = tlbc_fill(&m->pdc, pdc_slot(s->pdb_key, s->lvl, s->base));
		if (!e)
			break;
		struct tlbc_hdr h = e->h;
		*e = *s;
		e->h = h;
	}
}

static nvm_status mmu_load(void *state, struct snap_r *r, bool apply)
{
	struct mmu *m = state;
	struct mmu_img x = { 0 };
	struct snap_r at = *r; /* the line's mask, applied with the rest */
	intr_line_load(&m->intr, r, false);
	bool ok = read_img(r, &x);
	nvm_status st = r->err ? r->err : ok ? NVM_OK : NVM_ERR_CORRUPT;
	if (!st && apply) {
		intr_line_load(&m->intr, &at, true);
		install(m, &x);
	}
	img_free(&x);
	return st;
}

const struct block_snap mmu_snap = {
	.save = mmu_save,
	.load = mmu_load,
};
