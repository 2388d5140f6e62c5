/*
 * Snapshots of the Host block (issue 22 item 3; struct block_snap in
 * core.h): the channels' scheduling state, the runlists as fetched, the
 * PBDMA units (their loaded RAMFC image and the pushbuffer decoder in the
 * middle of a segment), the statistics, PFIFO_INTR's held mask, the CPU
 * interrupt tree and the generation's own state (Ampere: the runlist
 * entries' INST and USERD). The registers (PFIFO, PCCSR / CHRAM, the
 * PBDMA register files, the runlist spaces) are the core's; pending events
 * (PBDMA steps, timeslices, runlist fetches, acquire wake-ups and
 * deadlines) and the acquire watches are the core's too, saved through the
 * tables below.
 *
 * A load reads the whole section into an image first, checks it (the
 * channel, runlist and PBDMA views of who is listed and loaded where must
 * agree, every index within its table), then installs it. Not saved, as
 * derived or transient: the channels' prefetch hints (gp_hint, pb_hint:
 * host.c prefetch_tsg's guesses, which change only what is fetched into the
 * host's caches), a runlist's `prefetched` and `pf`, the PBDMA's per-step
 * bookkeeping (stop, stop_res, stop_done, cost, units: set before use in
 * each step) and its engine decisions (pick_valid, pick_rec, pick[]:
 * dropped at every feed_segment), the runlist being fetched (only set
 * inside rl_fetch) and the pointers (into the bus, the engines: fixed at
 * open).
 */
#include <stdlib.h>
#include <string.h>

#include "host_internal.h"
#include "pushbuf/pb_snap.h"

static uint32_t nchunks(const struct host *h)
{
	return (h->gen->nchan + HOST_CHAN_CHUNK - 1) / HOST_CHAN_CHUNK;
}

/* ---------------------------------------------------------------- save */

static void save_chan(struct snap_w *w, const struct chan *c)
{
	snap_u32(w, (uint32_t)(int32_t)c->runlist1);
	snap_u32(w, (uint32_t)(int32_t)c->tsg1);
	snap_u32(w, (uint32_t)(int32_t)c->pbdma1);
	snap_u32(w, (uint32_t)c->work | (uint32_t)c->acq_wait << 1 | (uint32_t)c->acq_switch << 2);
	snap_u32(w, (uint32_t)c->acq_ap);
	snap_u64(w, c->acq_wake_ev);
	snap_u64(w, c->acq_timeout_ev);
	for (unsigned k = 0; k < 8; k++)
		snap_u32(w, c->cls[k]);
	snap_u64(w, c->methods);
}

static void save_rl(struct snap_w *w, const struct runlist *rl)
{
	snap_u64(w, rl->ntsg);
	snap_u64(w, rl->nch);
	for (size_t t = 0; t < rl->ntsg; t++) {
		snap_u32(w, rl->tsg[t].tsgid);
		snap_u64(w, rl->tsg[t].timeslice);
		snap_u32(w, rl->tsg[t].first);
		snap_u32(w, rl->tsg[t].n);
	}
	for (size_t i = 0; i < rl->nch; i++) {
		snap_u32(w, rl->ch[i]);
		snap_u32(w, rl->runq[i]);
	}
	snap_u64(w, rl->cur);
	snap_u64(w, rl->slice_end);
	snap_u64(w, rl->slice_ev);
	snap_u32(w, rl->slice_fg);
	snap_u64(w, rl->fetch_ev);
	snap_u32(w, rl->sub_target);
	snap_u64(w, rl->sub_base);
	snap_u32(w, rl->sub_len);
	snap_u32(w, (uint32_t)rl->ectx.tsg);
	snap_u32(w, rl->ectx.inst);
	snap_u32(w, (uint32_t)rl->ectx.fault_chid);
	snap_u32(w, rl->ectx.saving);
	snap_u64(w, rl->ectx.idle_ev);
}

static uint32_t engine_index(const struct host *h, const struct engine *e)
{
	for (size_t i = 0; e && i < h->nengines; i++)
		if (h->engines[i] == e)
			return (uint32_t)i;
	return UINT32_MAX;
}

static void save_pbdma(struct snap_w *w, const struct host *h, const struct pbdma *p)
{
	snap_u32(w, (uint32_t)p->state);
	snap_u32(w, (uint32_t)p->chid);
	snap_u64(w, p->inst);
	snap_u32(w, p->inst_target);
	snap_u64(w, p->ev);
	snap_u64(w, p->wb_ev);
	for (unsigned i = 0; i < NVM_RAMFC_SIZE / 4; i++)
		snap_u32(w, p->ramfc[i]);
	snap_u32(w, (uint32_t)p->deadline_on | (uint32_t)p->yield << 1);
	snap_u64(w, p->wait_until);
	snap_u32(w, engine_index(h, p->target));
	if (p->state == PBS_RUN) {
		/* The decoder keeps its state across steps while the channel is
		 * loaded (decoder_save puts it in PB_HEADER / PB_COUNT only at
		 * the context save). */
		snap_u32(w, p->dec.cfg.subdevice_id);
		pb_decoder_snap_save(&p->dec, w);
	}
}

static void host_save(void *state, struct snap_w *w)
{
	const struct host *h = state;
	uint64_t stats[sizeof(h->stats) / 8];
	memcpy(stats, &h->stats, sizeof(stats));
	for (size_t i = 0; i < sizeof(stats) / 8; i++)
		snap_u64(w, stats[i]);
	snap_u32(w, h->method_crc);
	intr_line_save(&h->intr, w);
	intr_tree_save(&h->tree, w);
	for (uint32_t b = 0; b < nchunks(h); b++) {
		if (!h->chan[b])
			continue;
		snap_u32(w, b);
		for (unsigned k = 0; k < HOST_CHAN_CHUNK; k++)
			save_chan(w, &h->chan[b][k]);
	}
	snap_u32(w, UINT32_MAX);
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		save_rl(w, &h->rl[i]);
	for (unsigned i = 0; i < h->gen->npbdma; i++)
		save_pbdma(w, h, &h->pb[i]);
	if (h->gen->ops->snap_save)
		h->gen->ops->snap_save(h, w);
}

/* ---------------------------------------------------------------- load: the image */

struct img_rl {
	size_t ntsg, nch;
	struct rl_tsg *tsg;
	uint32_t *ch;
	uint8_t *runq;
	uint64_t cur, slice_end, slice_ev, fetch_ev, sub_base;
	uint32_t slice_fg, sub_target, sub_len, saving;
	int32_t ectx_tsg, fault_chid;
	uint32_t ectx_inst;
	uint64_t idle_ev;
};

struct img_pb {
	uint32_t state, inst_target, flags, target, subdev;
	int32_t chid;
	uint64_t inst, ev, wb_ev, wait_until;
	uint32_t ramfc[NVM_RAMFC_SIZE / 4];
	struct snap_r dec; /* where the decoder's state is (state RUN) */
};

struct img {
	uint64_t stats[sizeof(nvm_host_stats) / 8];
	uint32_t method_crc;
	struct chan **chan; /* [nchunks] */
	struct img_rl *rl;
	struct img_pb *pb;
};

static void img_free(const struct host *h, struct img *m)
{
	for (uint32_t b = 0; m->chan && b < nchunks(h); b++)
		free(m->chan[b]);
	for (unsigned i = 0; m->rl && i < h->gen->nrunlist; i++) {
		free(m->rl[i].tsg);
		free(m->rl[i].ch);
		free(m->rl[i].runq);
	}
	free(m->chan);
	free(m->rl);
	free(m->pb);
}

static bool id_ok(const struct host *h, uint64_t id)
{
	return sched_id_ok(h->gpu, id);
}

static void read_chan(struct snap_r *r, struct chan *c, const struct host *h)
{
	int32_t rl1 = (int32_t)snap_get_u32(r), tsg1 = (int32_t)snap_get_u32(r), pb1 = (int32_t)snap_get_u32(r);
	uint32_t flags = snap_get_u32(r), ap = snap_get_u32(r);
	c->acq_wake_ev = snap_get_u64(r);
	c->acq_timeout_ev = snap_get_u64(r);
	for (unsigned k = 0; k < 8; k++)
		c->cls[k] = snap_get_u32(r);
	c->methods = snap_get_u64(r);
	if (r->err)
		return;
	if (rl1 < 0 || rl1 > (int32_t)h->gen->nrunlist || tsg1 < 0 || tsg1 > INT16_MAX || (rl1 == 0) != (tsg1 == 0) ||
	    pb1 < 0 || pb1 > (int32_t)h->gen->npbdma || flags > 7 || ap >= NVM_AP_COUNT || !id_ok(h, c->acq_wake_ev) ||
	    !id_ok(h, c->acq_timeout_ev)) {
		r->err = NVM_ERR_CORRUPT;
		return;
	}
	c->runlist1 = (int16_t)rl1;
	c->tsg1 = (int16_t)tsg1;
	c->pbdma1 = (int8_t)pb1;
	c->work = flags & 1u;
	c->acq_wait = (flags >> 1) & 1u;
	c->acq_switch = (flags >> 2) & 1u;
	c->acq_ap = (nvm_aperture)ap;
}

static void read_chans(struct snap_r *r, const struct host *h, struct img *m)
{
	int64_t last = -1;
	for (;;) {
		uint32_t b = snap_get_u32(r);
		if (r->err || b == UINT32_MAX)
			return;
		if (b >= nchunks(h) || (int64_t)b <= last) {
			r->err = NVM_ERR_CORRUPT; /* chunks in order, each once */
			return;
		}
		last = b;
		if (!(m->chan[b] = calloc(HOST_CHAN_CHUNK, sizeof(struct chan)))) {
			r->err = NVM_ERR_NOMEM;
			return;
		}
		for (unsigned k = 0; k < HOST_CHAN_CHUNK && !r->err; k++)
			read_chan(r, &m->chan[b][k], h);
	}
}

/* A runlist as rl_parse leaves it: TSGs of one channel or more, one after
 * another, covering its channels, each a channel of the Host; no more
 * entries than a submit's LENGTH 15:0. */
static void read_rl(struct snap_r *r, const struct host *h, const struct img *m, struct img_rl *x)
{
	uint64_t ntsg, nch;
	if (!snap_get_below(r, 0x10000, &ntsg) || !snap_get_below(r, 0x10000, &nch))
		return;
	if (ntsg > nch || (nch && !ntsg) || 12 * nch + 20 * ntsg > r->len - r->pos) {
		r->err = NVM_ERR_CORRUPT;
		return;
	}
	x->ntsg = (size_t)ntsg;
	x->nch = (size_t)nch;
	if (nch && (!(x->tsg = calloc(ntsg, sizeof(*x->tsg))) || !(x->ch = calloc(nch, sizeof(*x->ch))) ||
	            !(x->runq = calloc(nch, 1)))) {
		r->err = NVM_ERR_NOMEM;
		return;
	}
	uint64_t first = 0;
	for (size_t t = 0; t < x->ntsg; t++) {
		struct rl_tsg *g = &x->tsg[t];
		g->tsgid = snap_get_u32(r);
		g->timeslice = snap_get_u64(r);
		g->first = snap_get_u32(r);
		g->n = snap_get_u32(r);
		if (!r->err && (g->first != first || !g->n || g->n > nch - first))
			r->err = NVM_ERR_CORRUPT;
		first += g->n;
	}
	if (!r->err && first != nch)
		r->err = NVM_ERR_CORRUPT;
	for (size_t i = 0; i < x->nch && !r->err; i++) {
		uint32_t chid = snap_get_u32(r), q = snap_get_u32(r);
		if (!r->err && (chid >= h->gen->nchan || !m->chan[chid / HOST_CHAN_CHUNK] || q > 0xff))
			r->err = NVM_ERR_CORRUPT;
		x->ch[i] = chid;
		x->runq[i] = (uint8_t)q;
	}
	x->cur = snap_get_u64(r);
	x->slice_end = snap_get_u64(r);
	x->slice_ev = snap_get_u64(r);
	x->slice_fg = snap_get_u32(r);
	x->fetch_ev = snap_get_u64(r);
	x->sub_target = snap_get_u32(r);
	x->sub_base = snap_get_u64(r);
	x->sub_len = snap_get_u32(r);
	x->ectx_tsg = (int32_t)snap_get_u32(r);
	x->ectx_inst = snap_get_u32(r);
	x->fault_chid = (int32_t)snap_get_u32(r);
	x->saving = snap_get_u32(r);
	x->idle_ev = snap_get_u64(r);
	if (r->err)
		return;
	if ((ntsg ? x->cur >= ntsg : x->cur != 0) || x->slice_fg > 1 || x->sub_target > 3 || x->sub_len > 0xffff ||
	    x->ectx_tsg < -1 || x->fault_chid < -1 || x->fault_chid >= (int64_t)h->gen->nchan || x->saving > 1 ||
	    !id_ok(h, x->slice_ev) || !id_ok(h, x->fetch_ev) || !id_ok(h, x->idle_ev))
		r->err = NVM_ERR_CORRUPT;
}

static void read_pbdma(struct snap_r *r, const struct host *h, const struct pbdma *p, struct img_pb *x)
{
	x->state = snap_get_u32(r);
	x->chid = (int32_t)snap_get_u32(r);
	x->inst = snap_get_u64(r);
	x->inst_target = snap_get_u32(r);
	x->ev = snap_get_u64(r);
	x->wb_ev = snap_get_u64(r);
	for (unsigned i = 0; i < NVM_RAMFC_SIZE / 4; i++)
		x->ramfc[i] = snap_get_u32(r);
	x->flags = snap_get_u32(r);
	x->wait_until = snap_get_u64(r);
	x->target = snap_get_u32(r);
	if (r->err)
		return;
	/* A PBDMA has a channel exactly when it is not idle, and only one
	 * serving a runlist loads channels. */
	if (x->state > PBS_RUN || (x->state == PBS_IDLE) != (x->chid == -1) || x->chid < -1 ||
	    x->chid >= (int64_t)h->gen->nchan || (x->chid >= 0 && !p->rl) || x->inst_target > 3 || x->flags > 3 ||
	    (x->target != UINT32_MAX && x->target >= h->nengines) || !id_ok(h, x->ev) || !id_ok(h, x->wb_ev)) {
		r->err = NVM_ERR_CORRUPT;
		return;
	}
	if (x->state != PBS_RUN)
		return;
	x->subdev = snap_get_u32(r);
	if (!r->err && x->subdev > 0xfffu)
		r->err = NVM_ERR_CORRUPT;
	x->dec = *r;
	pb_decoder_snap_load(NULL, NVM_PB_FORMAT_NEW, r, false);
}

/* The channels' view of where they are listed and loaded agrees with the
 * runlists' and the PBDMAs'. */
static bool img_consistent(const struct host *h, const struct img *m)
{
	for (uint32_t b = 0; b < nchunks(h); b++)
		for (unsigned k = 0; m->chan[b] && k < HOST_CHAN_CHUNK; k++) {
			const struct chan *c = &m->chan[b][k];
			uint32_t chid = b * HOST_CHAN_CHUNK + k;
			if (chid >= h->gen->nchan && (c->runlist1 || c->pbdma1))
				return false;
			if (c->runlist1) {
				const struct img_rl *x = &m->rl[c->runlist1 - 1];
				if ((size_t)(c->tsg1 - 1) >= x->ntsg)
					return false;
				const struct rl_tsg *g = &x->tsg[c->tsg1 - 1];
				bool in = false;
				for (uint32_t i = 0; i < g->n && !in; i++)
					in = x->ch[g->first + i] == chid;
				if (!in)
					return false;
			}
			if (c->pbdma1 && m->pb[c->pbdma1 - 1].chid != (int32_t)chid)
				return false;
		}
	for (unsigned i = 0; i < h->gen->npbdma; i++) {
		int32_t chid = m->pb[i].chid;
		const struct chan *c = chid >= 0 ? m->chan[(uint32_t)chid / HOST_CHAN_CHUNK] : NULL;
		if (chid >= 0 && (!c || c[(uint32_t)chid % HOST_CHAN_CHUNK].pbdma1 != (int8_t)(i + 1)))
			return false;
	}
	return true;
}

/* ---------------------------------------------------------------- load: install */

static void put_rl(struct runlist *rl, struct img_rl *x)
{
	free(rl->tsg);
	free(rl->ch);
	free(rl->runq);
	rl->tsg = x->tsg;
	rl->ch = x->ch;
	rl->runq = x->runq;
	x->tsg = NULL;
	x->ch = NULL;
	x->runq = NULL;
	rl->ntsg = x->ntsg;
	rl->nch = x->nch;
	host_rl_pb_used(rl);
	rl->cur = (size_t)x->cur;
	rl->slice_end = x->slice_end;
	rl->slice_ev = x->slice_ev;
	rl->slice_fg = x->slice_fg;
	rl->fetch_ev = x->fetch_ev;
	rl->sub_target = x->sub_target;
	rl->sub_base = x->sub_base;
	rl->sub_len = x->sub_len;
	rl->ectx = (struct eng_ctx){ x->ectx_tsg, x->ectx_inst, x->fault_chid, x->saving, x->idle_ev };
	host_prefetch_drop(rl);
}

static void put_pbdma(struct host *h, struct pbdma *p, struct img_pb *x)
{
	p->state = (enum pb_state)x->state;
	p->chid = x->chid;
	p->inst = x->inst;
	p->inst_target = x->inst_target;
	p->ev = x->ev;
	p->wb_ev = x->wb_ev;
	memcpy(p->ramfc, x->ramfc, sizeof(p->ramfc));
	p->deadline_on = x->flags & 1u;
	p->yield = (x->flags >> 1) & 1u;
	p->wait_until = x->wait_until;
	p->target = x->target == UINT32_MAX ? NULL : h->engines[x->target];
	p->stop = false;
	p->stop_res = M_DONE;
	p->stop_done = 0;
	p->cost = p->units = 0; /* the engine decisions: pbdma_drop_derived after install */
	if (p->state == PBS_RUN) {
		pbdma_decoder_init(p, x->subdev);
		pb_decoder_snap_load(&p->dec, NVM_PB_FORMAT_NEW, &x->dec, true);
	}
}

/* The channel of an acquire's event or watch must be there to be looked at
 * (host_chan): a snapshot whose events name a channel it does not have
 * gets a channel in the zero state, which such an event leaves alone. */
static nvm_status chan_there(struct host *h, uint64_t chid)
{
	uint32_t b = (uint32_t)(chid / HOST_CHAN_CHUNK);
	if (chid >= h->gen->nchan || h->chan[b])
		return NVM_OK;
	return (h->chan[b] = calloc(HOST_CHAN_CHUNK, sizeof(struct chan))) ? NVM_OK : NVM_ERR_NOMEM;
}

static nvm_status chans_of_events(struct host *h)
{
	nvm_gpu *gpu = h->gpu;
	nvm_status st = NVM_OK;
	for (size_t i = 0; i < gpu->sched.n && !st; i++) {
		const struct sched_ev *e = &gpu->sched.heap[i];
		for (unsigned k = HOST_SNAP_EV_CHAN; k < HOST_SNAP_NEVENTS; k++)
			if (e->fn == host_snap_events[k] && e->ctx == h)
				st = chan_there(h, e->arg);
	}
	for (unsigned a = 0; a < NVM_AP_COUNT && !st; a++)
		for (size_t i = 0; i < gpu->mem[a].nwatch && !st; i++)
			if (gpu->mem[a].watch[i].fn == host_snap_watches[0] && gpu->mem[a].watch[i].ctx == h)
				st = chan_there(h, gpu->mem[a].watch[i].arg);
	return st;
}

static void install(struct host *h, struct img *m)
{
	memcpy(&h->stats, m->stats, sizeof(h->stats));
	h->method_crc = m->method_crc;
	h->rl_fetching = NULL;
	for (uint32_t b = 0; b < nchunks(h); b++) {
		free(h->chan[b]);
		h->chan[b] = m->chan[b];
		m->chan[b] = NULL;
	}
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		put_rl(&h->rl[i], &m->rl[i]);
	for (unsigned i = 0; i < h->gen->npbdma; i++)
		put_pbdma(h, &h->pb[i], &m->pb[i]);
}

static nvm_status host_load(void *state, struct snap_r *r, bool apply)
{
	struct host *h = state;
	const struct host_gen *g = h->gen;
	struct img m = { 0 };
	m.chan = calloc(nchunks(h), sizeof(*m.chan));
	m.rl = calloc(g->nrunlist ? g->nrunlist : 1, sizeof(*m.rl));
	m.pb = calloc(g->npbdma ? g->npbdma : 1, sizeof(*m.pb));
	if (!m.chan || !m.rl || !m.pb) {
		img_free(h, &m);
		return NVM_ERR_NOMEM;
	}
	for (size_t i = 0; i < sizeof(m.stats) / 8; i++)
		m.stats[i] = snap_get_u64(r);
	m.method_crc = snap_get_u32(r);
	if (!r->err && m.method_crc > 1)
		r->err = NVM_ERR_CORRUPT;
	intr_line_load(&h->intr, r, apply);
	intr_tree_load(&h->tree, r, apply);
	read_chans(r, h, &m);
	for (unsigned i = 0; i < g->nrunlist && !r->err; i++)
		read_rl(r, h, &m, &m.rl[i]);
	for (unsigned i = 0; i < g->npbdma && !r->err; i++)
		read_pbdma(r, h, &h->pb[i], &m.pb[i]);
	if (!r->err && !img_consistent(h, &m))
		r->err = NVM_ERR_CORRUPT;
	if (!r->err && g->ops->snap_load)
		g->ops->snap_load(h, r, apply);
	nvm_status st = r->err;
	if (!st && apply) {
		install(h, &m);
		/* the caches perf work keeps beside the state: rebuilt, never saved */
		for (unsigned i = 0; i < g->npbdma; i++)
			pbdma_drop_derived(&h->pb[i]);
		host_ready_rebuild(h);
		st = chans_of_events(h);
	}
	img_free(h, &m);
	return st;
}

/* ---------------------------------------------------------------- events and watches */

static bool host_ctx_id(void *state, const void *ctx, uint32_t *id)
{
	struct host *h = state;
	if (ctx == h) {
		*id = 0;
		return true;
	}
	for (unsigned i = 0; i < h->gen->npbdma; i++)
		if (ctx == &h->pb[i]) {
			*id = i + 1;
			return true;
		}
	return false;
}

static void *host_ctx_ptr(void *state, uint32_t id)
{
	struct host *h = state;
	if (id == 0)
		return h;
	return id <= h->gen->npbdma ? &h->pb[id - 1] : NULL;
}

static bool host_ctx_ok(void *state, bool watch, size_t fn, uint32_t id)
{
	(void)state;
	bool pbdma = !watch && fn >= HOST_SNAP_EV_PBDMA && fn < HOST_SNAP_EV_CHAN;
	return pbdma ? id != 0 : id == 0;
}

static bool host_arg_ok(void *state, bool watch, size_t fn, uint64_t arg)
{
	const struct host *h = state;
	if (watch || fn >= HOST_SNAP_EV_CHAN)
		return arg < h->gen->nchan;
	return fn < HOST_SNAP_EV_PBDMA ? arg < h->gen->nrunlist : arg == 0;
}

const struct block_snap host_snap = {
	.save = host_save,
	.load = host_load,
	.events = host_snap_events,
	.nevents = HOST_SNAP_NEVENTS,
	.watches = host_snap_watches,
	.nwatches = 1,
	.ctx_id = host_ctx_id,
	.ctx_ptr = host_ctx_ptr,
	.arg_ok = host_arg_ok,
	.ctx_ok = host_ctx_ok,
};
