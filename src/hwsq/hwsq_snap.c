/*
 * HWSQ's snapshot part (issue 22 item 3; core.h struct block_snap): the
 * code RAM, the slots (IP, executing, hung, ADDR / DATA), the event
 * levels, what blocks the engine (a PTIMER wait, an event wait, a poke held
 * by HWSQ_ENABLE) and its pending events (the wait's end or the engine's
 * continuation, the framebuffer pause's completion), the pause request,
 * the slot tried first, the instruction count and the spin diagnostic's
 * span. The registers (ENTRY_POINT, FLAGS, DEBUG_6) are the core's, and so
 * is gpu->hold, the pause's hold on memory and MMIO (the PMC section).
 *
 * Not saved: in_exec (true only inside an event: a snapshot is never taken
 * there), the decoder table and the trace disassembler (built from the
 * variant), the pointers.
 */
#include <string.h>

#include "hwsq_internal.h"

static void put_flag(struct snap_w *w, bool b)
{
	uint8_t v = b;
	snap_put(w, &v, 1);
}

static void hwsq_save(void *state, struct snap_w *w)
{
	const struct hwsq *h = state;
	unsigned ns = h->v->nslots;
	snap_put(w, h->code, (size_t)h->mask + 1);
	for (unsigned s = 0; s < ns; s++) {
		const struct hwsq_slot *sl = &h->slot[s];
		snap_u64(w, sl->ip);
		put_flag(w, sl->exec);
		put_flag(w, sl->illegal);
		snap_u32(w, sl->addr);
		snap_u32(w, sl->data);
		snap_u64(w, h->span.lo[s]);
		snap_u64(w, h->span.hi[s]);
		snap_u64(w, h->span.n[s]);
	}
	snap_u32(w, h->events);
	snap_u64(w, h->blk);
	snap_u64(w, h->blk_slot);
	snap_u32(w, h->ew_event);
	snap_u32(w, h->ew_value);
	snap_u32(w, h->hold_addr);
	snap_u32(w, h->hold_data);
	snap_u64(w, h->ev_id);
	snap_u64(w, h->pause_id);
	put_flag(w, h->pause_req);
	snap_u64(w, h->next);
	snap_u64(w, h->ninsn);
}

static nvm_status hwsq_load(void *state, struct snap_r *r, bool apply)
{
	struct hwsq *h = state;
	unsigned ns = h->v->nslots;
	uint8_t code[sizeof(h->code)];
	snap_get(r, code, (size_t)h->mask + 1);
	struct hwsq_slot slot[2];
	struct ip_span span;
	memset(slot, 0, sizeof(slot));
	memset(&span, 0, sizeof(span));
	for (unsigned s = 0; s < ns; s++) {
		uint64_t v;
		snap_get_below(r, (uint64_t)h->mask + 1, &v);
		slot[s].ip = (uint32_t)v;
		slot[s].exec = snap_get_bool(r);
		slot[s].illegal = snap_get_bool(r);
		slot[s].addr = snap_get_u32(r);
		slot[s].data = snap_get_u32(r);
		snap_get_below(r, (uint64_t)h->mask + 1, &v);
		span.lo[s] = (uint32_t)v;
		snap_get_below(r, (uint64_t)h->mask + 1, &v);
		span.hi[s] = (uint32_t)v;
		span.n[s] = snap_get_u64(r);
		/* only NV41:G92 hang on an unknown opcode */
		if (slot[s].illegal && !h->v->illegal_hang)
			return NVM_ERR_CORRUPT;
	}
	uint32_t events = snap_get_u32(r);
	uint64_t blk, blk_slot, next;
	snap_get_below(r, HB_HOLD + 1, &blk);
	snap_get_below(r, ns, &blk_slot);
	uint32_t ew_event = snap_get_u32(r), ew_value = snap_get_u32(r);
	uint32_t hold_addr = snap_get_u32(r), hold_data = snap_get_u32(r);
	uint64_t ev_id = snap_get_u64(r), pause_id = snap_get_u64(r);
	bool pause_req = snap_get_bool(r);
	snap_get_below(r, ns, &next);
	uint64_t ninsn = snap_get_u64(r);
	if (r->err)
		return r->err;
	/* states no transition reaches: a wait without its end event, a
	 * pause completion without a request, an event byte beyond a byte,
	 * the pause on a variant without it */
	if ((blk == HB_WAIT && !ev_id) || (pause_id && !pause_req) || ew_event > 0xff || ew_value > 0xff ||
	    (pause_req && !h->v->fb_pause))
		return NVM_ERR_CORRUPT;
	if (!apply)
		return NVM_OK;
	memcpy(h->code, code, (size_t)h->mask + 1);
	memcpy(h->slot, slot, sizeof(slot));
	h->span = span;
	h->events = events;
	h->blk = (enum hwsq_block_state)blk;
	h->blk_slot = (unsigned)blk_slot;
	h->ew_event = (uint8_t)ew_event;
	h->ew_value = (uint8_t)ew_value;
	h->hold_addr = hold_addr;
	h->hold_data = hold_data;
	h->ev_id = ev_id;
	h->pause_id = pause_id;
	h->pause_req = pause_req;
	h->next = (unsigned)next;
	h->ninsn = ninsn;
	h->in_exec = false;
	return NVM_OK;
}

static const sched_fn hwsq_events[] = { hwsq_engine_ev, hwsq_pause_done };

const struct block_snap hwsq_snap = {
	.save = hwsq_save,
	.load = hwsq_load,
	.events = hwsq_events,
	.nevents = sizeof(hwsq_events) / sizeof(hwsq_events[0]),
};
