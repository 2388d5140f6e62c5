/*
 * PFIFO's snapshot part (issue 22 item 3; core.h struct block_snap): the
 * block state of every generation that is not a latched register, memory
 * or an engine (those are the core's and engine.c's): CACHE1's entries
 * (NV04..G80: METHOD(i) / DATA(i) are windows, not registers; NV01/NV03:
 * the Gray-slot ADDR / DATA arrays), CACHE0's error state, the bound
 * classes and objects of every channel's subchannels, the step event, the
 * timeslice, the acquire waiting on the current channel and on channels
 * switched out (watches, timeout), the G80 playlist and channel table and
 * the statistics.
 *
 * Not saved, on purpose: the DMA pushers' burst state (dec, pb, dma_get,
 * burst_err, direct, burst_t, the chain and quick-feed fields): a burst
 * starts from the registers (pusher_dec_load, pb_load, DMA_STATE /
 * RSVD_SHADOW / DMA_GET) and ends by storing itself back into them, so
 * between events it holds nothing the registers do not; quick_off, a
 * tool's setting that changes no trace; pc, always CACHE1 between events;
 * rf_for / rf_slot, a cache of register slots (dropped on apply); every
 * pointer (r_*, c0 / c1, eng, the generation's tables).
 */
#include <string.h>

#include "g80.h"
#include "pio01.h"

_Static_assert(sizeof(nvm_pfifo_stats) % sizeof(uint64_t) == 0, "nvm_pfifo_stats is a row of uint64_t");

static bool is_pio01(const struct pfifo *f)
{
	return f->chip->ops == &pio01_ops;
}

static bool is_g80(const struct pfifo *f)
{
	return !is_pio01(f) && f->chip->size >= sizeof(struct g80_pfifo);
}

/* ---------------------------------------------------------------- readers */

/* Each reads one value saved by the matching snap_* call and stores it
 * only on the apply pass (and only when the whole read so far is sound). */
static void get32(struct snap_r *r, bool apply, uint32_t *dst)
{
	uint32_t v = snap_get_u32(r);
	if (apply && !r->err)
		*dst = v;
}

static void get64(struct snap_r *r, bool apply, uint64_t *dst)
{
	uint64_t v = snap_get_u64(r);
	if (apply && !r->err)
		*dst = v;
}

static void get_flag(struct snap_r *r, bool apply, bool *dst)
{
	bool v = snap_get_bool(r);
	if (apply && !r->err)
		*dst = v;
}

/* A value below lim (else NVM_ERR_CORRUPT), saved with snap_u64. */
static uint64_t get_lim(struct snap_r *r, uint64_t lim)
{
	uint64_t v;
	snap_get_below(r, lim, &v);
	return v;
}

static void refuse(struct snap_r *r)
{
	if (!r->err)
		r->err = NVM_ERR_CORRUPT;
}

static void put_flag(struct snap_w *w, bool b)
{
	uint8_t v = b;
	snap_put(w, &v, 1);
}

/* ---------------------------------------------------------------- save */

static void save_g80(const struct g80_pfifo *g, struct snap_w *w)
{
	snap_u64(w, g->nplaylist);
	for (unsigned i = 0; i < 128; i++)
		snap_u64(w, g->playlist[i]);
	for (unsigned i = 0; i < 128; i++)
		snap_u32(w, g->chan_table[i]);
}

static void save_pio01(const struct pio01 *p, struct snap_w *w)
{
	for (unsigned i = 0; i < 64; i++) {
		snap_u32(w, p->addr[i]);
		snap_u32(w, p->data[i]);
	}
	put_flag(w, p->runout);
	put_flag(w, p->resend);
	put_flag(w, p->c0_sent);
	snap_u64(w, p->pram_config);
}

static void pfifo_save(void *state, struct snap_w *w)
{
	const struct pfifo *f = state;
	const struct pfifo_gen *c = f->chip;
	for (uint32_t i = 0; i < c->cache_entries; i++) {
		snap_u32(w, f->cache_addr[i]);
		snap_u32(w, f->cache_data[i]);
	}
	put_flag(w, f->c1.err);
	put_flag(w, f->c0.err);
	for (uint32_t ch = 0; ch < c->nchan; ch++)
		for (unsigned s = 0; s < 8; s++) {
			snap_u32(w, f->cls[ch][s]);
			snap_u32(w, f->objctx[ch][s]);
		}
	snap_u32(w, f->cls_none);
	snap_u64(w, f->gr_chid);
	snap_u64(w, f->ev);
	snap_u64(w, f->slice_end);
	snap_u64(w, f->clock);
	snap_u64(w, f->work_rest);
	put_flag(w, f->yield);
	put_flag(w, f->fresh);
	/* the acquire: the current channel's watch, its timeout, the fence */
	put_flag(w, f->acq_watch);
	snap_u64(w, f->acq_ap);
	snap_u64(w, f->acq_addr);
	snap_u64(w, f->acq_to_ev);
	snap_u64(w, f->acq_to_at);
	put_flag(w, f->acq_fence);
	/* channels switched out while they wait on an acquire */
	for (unsigned i = 0; i < 4; i++) {
		snap_u32(w, f->acq_blocked[i]);
		snap_u32(w, f->acq_wake[i]);
	}
	for (unsigned ch = 0; ch < 128; ch++) {
		snap_u64(w, f->acq_ch_ap[ch]);
		snap_u64(w, f->acq_ch_addr[ch]);
	}
	snap_u32(w, f->absent);
	intr_line_save(&f->intr, w);
	const uint64_t *st = (const uint64_t *)&f->stats;
	for (size_t i = 0; i < sizeof(f->stats) / sizeof(*st); i++)
		snap_u64(w, st[i]);
	if (is_g80(f))
		save_g80(g80_cof(f), w);
	else if (is_pio01(f))
		save_pio01((const struct pio01 *)f, w);
}

/* ---------------------------------------------------------------- load */

static void load_g80(struct g80_pfifo *g, struct snap_r *r, bool apply)
{
	uint64_t n = get_lim(r, 129);
	uint32_t pl[128];
	for (unsigned i = 0; i < 128; i++)
		pl[i] = (uint32_t)get_lim(r, 128); /* PLAYLIST entries keep CHID 6:0 */
	if (apply && !r->err) {
		g->nplaylist = (uint32_t)n;
		memcpy(g->playlist, pl, sizeof(pl));
	}
	for (unsigned i = 0; i < 128; i++)
		get32(r, apply, &g->chan_table[i]);
}

static void load_pio01(struct pio01 *p, struct snap_r *r, bool apply)
{
	for (unsigned i = 0; i < 64; i++) {
		get32(r, apply, &p->addr[i]);
		get32(r, apply, &p->data[i]);
	}
	get_flag(r, apply, &p->runout);
	get_flag(r, apply, &p->resend);
	get_flag(r, apply, &p->c0_sent);
	uint32_t cfg = (uint32_t)get_lim(r, 4); /* RAM_SIZE 1:0 */
	if (apply && !r->err)
		p->pram_config = cfg;
}

static nvm_status pfifo_load(void *state, struct snap_r *r, bool apply)
{
	struct pfifo *f = state;
	const struct pfifo_gen *c = f->chip;
	for (uint32_t i = 0; i < c->cache_entries; i++) {
		get32(r, apply, &f->cache_addr[i]);
		get32(r, apply, &f->cache_data[i]);
	}
	if (snap_get_bool(r))
		refuse(r); /* only CACHE0 waits for its error's clearing (puller.c) */
	get_flag(r, apply, &f->c0.err);
	for (uint32_t ch = 0; ch < c->nchan; ch++)
		for (unsigned s = 0; s < 8; s++) {
			get32(r, apply, &f->cls[ch][s]);
			get32(r, apply, &f->objctx[ch][s]);
		}
	get32(r, apply, &f->cls_none);
	uint64_t gr_chid = get_lim(r, (uint64_t)c->chid_mask + 1 > c->nchan ? (uint64_t)c->chid_mask + 1 : c->nchan);
	uint64_t ev = snap_get_u64(r);
	get64(r, apply, &f->slice_end);
	get64(r, apply, &f->clock);
	uint64_t work_rest = get_lim(r, PFIFO_WORK_PER_UNIT);
	get_flag(r, apply, &f->yield);
	get_flag(r, apply, &f->fresh);
	bool acq_watch = snap_get_bool(r);
	uint64_t acq_ap = get_lim(r, NVM_AP_COUNT);
	uint64_t acq_addr = snap_get_u64(r);
	uint64_t acq_to_ev = snap_get_u64(r), acq_to_at = snap_get_u64(r);
	get_flag(r, apply, &f->acq_fence);
	uint32_t blocked[4], wake[4];
	for (unsigned i = 0; i < 4; i++) {
		blocked[i] = snap_get_u32(r);
		wake[i] = snap_get_u32(r);
	}
	/* only channels the chip has block; a wake-up is noted for a watched channel */
	for (uint32_t ch = c->nchan; ch < 128; ch++)
		if (bit_get(blocked, ch) || bit_get(wake, ch))
			refuse(r);
	nvm_aperture ch_ap[128];
	uint64_t ch_addr[128];
	for (unsigned ch = 0; ch < 128; ch++) {
		ch_ap[ch] = (nvm_aperture)get_lim(r, NVM_AP_COUNT);
		ch_addr[ch] = snap_get_u64(r);
	}
	get32(r, apply, &f->absent);
	intr_line_load(&f->intr, r, apply);
	uint64_t *st = (uint64_t *)&f->stats;
	for (size_t i = 0; i < sizeof(f->stats) / sizeof(*st); i++)
		get64(r, apply, &st[i]);
	if (is_g80(f))
		load_g80(g80_of(f), r, apply);
	else if (is_pio01(f))
		load_pio01((struct pio01 *)f, r, apply);
	if (r->err)
		return r->err;
	if (!apply)
		return NVM_OK;
	f->gr_chid = (uint32_t)gr_chid;
	f->ev = ev;
	f->work_rest = (uint32_t)work_rest;
	f->acq_watch = acq_watch;
	f->acq_ap = (nvm_aperture)acq_ap;
	f->acq_addr = acq_addr;
	f->acq_to_ev = acq_to_ev;
	f->acq_to_at = acq_to_at;
	memcpy(f->acq_blocked, blocked, sizeof(blocked));
	memcpy(f->acq_wake, wake, sizeof(wake));
	memcpy(f->acq_ch_ap, ch_ap, sizeof(ch_ap));
	memcpy(f->acq_ch_addr, ch_addr, sizeof(ch_addr));
	/* derived state: rebuilt */
	f->pc = &f->c1;
	f->rf_for = NULL;
	pfifo_hints_drop(f); /* CACHE1's slot hints are the model's own: rebuilt */
	f->chain = false;
	f->quick_skip = false;
	return NVM_OK;
}

/* ---------------------------------------------------------------- events */

static const sched_fn pfifo_events[] = { pfifo_step_ev, puller_acq_timer };
static const mem_watch_fn pfifo_watches[] = { puller_acq_wake, puller_acq_wake_chan };

/* Every event and the current channel's watch take 0; a switched-out
 * channel's watch takes its number + 1. */
static bool pfifo_arg_ok(void *state, bool watch, size_t fn, uint64_t arg)
{
	const struct pfifo *f = state;
	if (watch && fn == 1)
		return arg >= 1 && arg <= f->chip->nchan;
	return arg == 0;
}

const struct block_snap pfifo_snap = {
	.save = pfifo_save,
	.load = pfifo_load,
	.events = pfifo_events,
	.nevents = sizeof(pfifo_events) / sizeof(pfifo_events[0]),
	.watches = pfifo_watches,
	.nwatches = sizeof(pfifo_watches) / sizeof(pfifo_watches[0]),
	.arg_ok = pfifo_arg_ok,
};
