/*
 * The G80 VM's snapshot part (issue 22 item 3; core.h struct block_snap):
 * the TLB entries (in strict-TLB mode a stale entry is visible, so the
 * cache is state, not a cache), the strict mode, the flushes in flight
 * (their completions are the core's pending events), the trap words and
 * whether one is pending, the BAR and PEEPHOLE channels and the statistics.
 * The registers (TLB_FLUSH, VM_FAULT, BAR1 / BAR3, PEEPHOLE) are the core's.
 *
 * Not saved: the fault hook (the caller's, as the event hooks are),
 * ph_base and pd_offset (from the chip), the TLB's allocation.
 */
#include <stdlib.h>
#include <string.h>

#include "g80vm_internal.h"

_Static_assert(sizeof(nvm_g80_stats) % sizeof(uint64_t) == 0, "nvm_g80_stats is a row of uint64_t");

#define MIN_BLOCK_SHIFT 12 /* as g80vm.c's TLB: 4 KiB .. 64 KiB pages << 0..7 */
#define MAX_BLOCK_SHIFT 23

static void put_flag(struct snap_w *w, bool b)
{
	uint8_t v = b;
	snap_put(w, &v, 1);
}

static void save_ent(struct snap_w *w, size_t slot, const struct g80_tlb_ent *e)
{
	const struct g80_pt_res *p = &e->pt;
	snap_u64(w, slot);
	snap_u64(w, e->engine);
	snap_u64(w, e->chan);
	snap_u64(w, p->fault);
	put_flag(w, p->oob);
	snap_u64(w, p->target);
	snap_u64(w, p->vbase);
	snap_u64(w, p->size);
	snap_u64(w, p->lin);
	snap_u64(w, p->page_size);
	put_flag(w, p->ro);
	put_flag(w, p->supervisor_only);
	snap_u64(w, p->storage_type);
	snap_u64(w, p->comp);
	snap_u64(w, p->tag);
	snap_u64(w, p->part_cycle);
	put_flag(w, p->encrypted);
}

static void g80vm_save(void *state, struct snap_w *w)
{
	struct g80vm *m = state;
	put_flag(w, m->strict);
	snap_u64(w, m->flushes_in_flight);
	put_flag(w, m->trap_pending);
	for (unsigned i = 0; i < G80VM_NTRAP; i++)
		snap_u32(w, m->trap[i]);
	snap_u64(w, m->bar_chan);
	snap_u64(w, m->peephole_chan);
	const uint64_t *st = (const uint64_t *)&m->stats;
	for (size_t i = 0; i < sizeof(m->stats) / sizeof(*st); i++)
		snap_u64(w, st[i]);
	/* the live entries in the live list's order, so that a restored TLB
	 * lists (and flushes) them in the same order */
	snap_u64(w, m->tlb.nlive);
	for (size_t i = 0; i < m->tlb.nlive; i++)
		save_ent(w, m->tlb.live[i], tlbc_live(&m->tlb, i));
}

static uint64_t get_lim(struct snap_r *r, uint64_t lim)
{
	uint64_t v;
	snap_get_below(r, lim, &v);
	return v;
}

/* One entry, checked: a translation the TLB could have kept (no fault, in
 * the slot its key selects, a block of a size the TLB looks up). */
static bool load_ent(struct g80vm *m, struct snap_r *r, size_t *slot, struct g80_tlb_ent *e)
{
	struct g80_pt_res *p = &e->pt;
	*slot = (size_t)get_lim(r, m->tlb.slots);
	e->engine = (unsigned)get_lim(r, 16);
	e->chan = (uint32_t)get_lim(r, 1u << 30);
	p->fault = (unsigned)get_lim(r, 1);
	p->oob = snap_get_bool(r);
	p->target = (unsigned)get_lim(r, 4);
	p->vbase = get_lim(r, 1ull << 40);
	p->size = snap_get_u64(r);
	p->lin = snap_get_u64(r);
	p->page_size = snap_get_u64(r);
	p->ro = snap_get_bool(r);
	p->supervisor_only = snap_get_bool(r);
	p->storage_type = (unsigned)get_lim(r, 0x80);
	p->comp = (unsigned)get_lim(r, 4);
	p->tag = (unsigned)get_lim(r, 0x1000);
	p->part_cycle = (unsigned)get_lim(r, 2);
	p->encrypted = snap_get_bool(r);
	if (r->err)
		return false;
	bool size_ok = false;
	for (unsigned s = MIN_BLOCK_SHIFT; s <= MAX_BLOCK_SHIFT; s++)
		size_ok |= p->size == 1ull << s;
	return size_ok && !p->oob && !(p->vbase & (p->size - 1)) &&
	       (p->page_size == 0x1000 || p->page_size == 0x4000 || p->page_size == 0x10000) &&
	       *slot == tlbc_slot(&m->tlb, (uint64_t)e->engine << 32 | e->chan, p->vbase, p->size);
}

static nvm_status g80vm_load(void *state, struct snap_r *r, bool apply)
{
	struct g80vm *m = state;
	bool strict = snap_get_bool(r);
	uint64_t flushes = get_lim(r, (uint64_t)UINT32_MAX + 1);
	bool trap_pending = snap_get_bool(r);
	uint32_t trap[G80VM_NTRAP];
	for (unsigned i = 0; i < G80VM_NTRAP; i++)
		trap[i] = snap_get_u32(r);
	uint64_t bar_chan = get_lim(r, 1u << 30), ph_chan = get_lim(r, 1u << 30);
	nvm_g80_stats stats;
	uint64_t *st = (uint64_t *)&stats;
	for (size_t i = 0; i < sizeof(stats) / sizeof(*st); i++)
		st[i] = snap_get_u64(r);
	uint64_t n = get_lim(r, (uint64_t)m->tlb.slots + 1);
	if (r->err)
		return r->err;
	if (apply) {
		while (m->tlb.nlive)
			tlbc_drop(&m->tlb, m->tlb.nlive - 1);
		m->strict = strict;
		m->flushes_in_flight = (unsigned)flushes;
		m->trap_pending = trap_pending;
		memcpy(m->trap, trap, sizeof(trap));
		m->bar_chan = (uint32_t)bar_chan;
		m->peephole_chan = (uint32_t)ph_chan;
		m->stats = stats;
	}
	/* the check pass also refuses a slot given twice (the second would
	 * not be a new live entry): a bitmap of the slots seen */
	uint32_t *seen = apply ? NULL : calloc((m->tlb.slots + 31) / 32, sizeof(uint32_t));
	if (!apply && !seen)
		return NVM_ERR_NOMEM;
	nvm_status ret = NVM_OK;
	for (uint64_t i = 0; i < n && !ret; i++) {
		size_t slot;
		struct g80_tlb_ent e;
		memset(&e, 0, sizeof(e));
		if (!load_ent(m, r, &slot, &e)) {
			ret = r->err ? r->err : NVM_ERR_CORRUPT;
		} else if (!apply) {
			if (seen[slot / 32] >> (slot % 32) & 1)
				ret = NVM_ERR_CORRUPT;
			seen[slot / 32] |= 1u << (slot % 32);
		} else {
			struct g80_tlb_ent *d = tlbc_fill(&m->tlb, slot);
			if (!d) {
				ret = NVM_ERR_NOMEM;
				break;
			}
			d->engine = e.engine;
			d->chan = e.chan;
			d->pt = e.pt;
		}
	}
	free(seen);
	return ret;
}

static const sched_fn g80vm_events[] = { g80vm_flush_done };

/* A flush's completion carries the VM engine (TLB_FLUSH ENGINE 19:16). */
static bool g80vm_arg_ok(void *state, bool watch, size_t fn, uint64_t arg)
{
	(void)state;
	(void)fn;
	return !watch && arg < 16;
}

const struct block_snap g80vm_snap = {
	.save = g80vm_save,
	.load = g80vm_load,
	.events = g80vm_events,
	.nevents = 1,
	.arg_ok = g80vm_arg_ok,
};
