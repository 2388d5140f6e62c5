/*
 * The Host's shared mechanism: runlists (seed 000 section 5, RAMRL) and the
 * scheduler that puts TSGs and their channels on PBDMA units, the engine
 * status, doorbells and preempts, the block and its API. Registers, the
 * channel RAM and the interrupt tree are the generation's (struct
 * host_gen: gv100.c); the PBDMA units are in pbdma.c.
 */
#include <stdlib.h>
#include <string.h>

#include "host_gens.h"
#include "host_internal.h"
#include "nvmodel/host_fmt.h"

const struct chan host_chan_none;

struct host *host_of(const nvm_gpu *gpu)
{
	return gpu ? (struct host *)gpu_block(gpu, &host_class) : NULL;
}

#define SCHED_ERROR_CODE_BAD_TSG         0x20u
#define SCHED_ERROR_CODE_RL_RDAT_TIMEOUT 0x08u

void host_nonstall(void *host, uint32_t chid)
{
	struct host *h = host;
	h->gen->ops->nonstall(h, chid);
	emit(h->gpu, NVM_EV_TRACE, "host", "nonstall_intr", chid, chid, "channel %u: non-stalling interrupt", chid);
	host_update_intr(h);
}

static void sched_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	h->stats.sched_errors++;
	h->gen->ops->sched_error(h, code, addr, why);
}

/* ---------------------------------------------------------------- runlists */

static void rl_clear(struct runlist *rl)
{
	free(rl->tsg);
	free(rl->ch);
	free(rl->runq);
	rl->tsg = NULL;
	rl->ch = NULL;
	rl->runq = NULL;
	rl->ntsg = rl->nch = 0;
	rl->cur = 0;
	rl->pb_used = 0;
	host_prefetch_drop(rl);
}

static nvm_aperture target_ap(unsigned target)
{
	/* 0 VID_MEM, 2/3 SYS_MEM (coherent or not); 1 has no aperture. */
	return target >= 2 ? NVM_AP_SYSMEM : NVM_AP_VRAM;
}

/* Reads and checks a submitted runlist (seed 000 section 5) with the
 * runlist walker the structure decoders use (host_fmt.h): the first
 * malformed entry raises SCHED_ERROR BAD_TSG and ends the runlist; the
 * complete TSGs before it are kept. UNVERIFIED: the seed does not say how
 * much of a bad runlist the scheduler still uses. */
static void rl_parse(struct host *h, struct runlist *rl, nvm_aperture ap, uint64_t base, uint32_t len)
{
	/* The channels listed on rl are those of its kept TSGs, ch[0, nch)
	 * (a channel listed since on another runlist stays there). */
	for (size_t i = 0; i < rl->nch; i++) {
		struct chan *c = host_chan(h, rl->ch[i]);
		if (chan_runlist(c) == (int)rl->id)
			chan_set_listed(c, -1, -1);
	}
	rl_clear(rl);
	if (!len)
		return;
	rl->tsg = calloc(len, sizeof(*rl->tsg));
	rl->ch = calloc(len, sizeof(*rl->ch));
	rl->runq = calloc(len, sizeof(*rl->runq));
	if (!rl->tsg || !rl->ch || !rl->runq) {
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "nomem", base, len, "runlist of %u entries: out of memory",
		     len);
		rl_clear(rl);
		return;
	}
	nvm_rl_walker w;
	nvm_rl_walk_init(&w);
	nvm_hf_problem pr[NVM_RL_STEP_MAX];
	size_t np = 0;
	uint32_t left = 0; /* channel entries the last TSG still needs */
	uint64_t ea = base;
	for (uint32_t i = 0; i < len && !np; i++, ea += NVM_RL_ENTRY_SIZE) {
		uint8_t raw[NVM_RL_ENTRY_SIZE];
		if (mem_read(&h->gpu->mem[ap], ea, raw, sizeof(raw))) {
			sched_error(h, SCHED_ERROR_CODE_RL_RDAT_TIMEOUT, ea, "runlist entry outside its aperture");
			break;
		}
		nvm_rl_entry e;
		h->gen->rl_entry_decode(raw, &e);
		np = nvm_rl_walk_step(&w, &e, pr);
		if (np)
			break;
		if (e.type == 1) {
			rl->tsg[rl->ntsg++] = (struct rl_tsg){ e.id, e.timeslice_ns, (uint32_t)rl->nch, e.tsg_length };
			left = e.tsg_length;
		} else if (w.member) {
			rl->ch[rl->nch] = h->gen->ops->rl_chan ? h->gen->ops->rl_chan(h, rl, &e) : e.id;
			rl->runq[rl->nch] = (uint8_t)e.runqueue_selector;
			rl->nch++;
			left--;
		}
		if (i + 1 == len)
			np = nvm_rl_walk_end(&w, pr);
	}
	if (np) {
		char msg[200];
		nvm_hf_problem_text(&pr[0], msg, sizeof(msg));
		uint32_t code = h->gen->bad_tsg_codes ? h->gen->bad_tsg_codes[pr[0].code] : SCHED_ERROR_CODE_BAD_TSG;
		sched_error(h, code, base + (uint64_t)pr[0].where * NVM_RL_ENTRY_SIZE, msg);
	}
	if (left) {
		/* The unfinished TSG is not scheduled. */
		rl->nch -= rl->tsg[rl->ntsg - 1].n - left;
		rl->ntsg--;
	}
	for (size_t i = 0; i < rl->nch; i++) {
		uint32_t b = rl->ch[i] / HOST_CHAN_CHUNK;
		if (!h->chan[b] && !(h->chan[b] = calloc(HOST_CHAN_CHUNK, sizeof(struct chan)))) {
			emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "nomem", base, len,
			     "runlist of %u entries: out of memory", len);
			rl_clear(rl);
			return;
		}
	}
	host_rl_pb_used(rl);
	for (size_t t = 0; t < rl->ntsg; t++)
		for (uint32_t k = 0; k < rl->tsg[t].n; k++) {
			struct chan *c = host_chan(h, rl->ch[rl->tsg[t].first + k]);
			chan_set_listed(c, (int)rl->id, (int)t);
			/* UNVERIFIED: a listed channel is looked at once (loaded) to
			 * see whether it has work, as if a doorbell had been rung. */
			chan_set_work(h, rl->ch[rl->tsg[t].first + k], true);
		}
}

void rl_fetch(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	struct host *h = ctx;
	struct runlist *rl = &h->rl[arg];
	rl->fetch_ev = 0;
	uint32_t len = rl->sub_len;
	unsigned target = rl->sub_target;
	uint64_t base = rl->sub_base;
	/* Seed 000: a new runlist "expire[s] the timeslice of all work
	 * scheduled by the previous runlist". */
	for (unsigned q = 0; q < rl->desc->npbdma; q++)
		if (rl->pb[q] && rl->pb[q]->state != PBS_IDLE && !pbdma_stalled(rl->pb[q]))
			pbdma_save(rl->pb[q]);
	if (target == 1) {
		h->rl_fetching = rl;
		sched_error(h, SCHED_ERROR_CODE_RL_RDAT_TIMEOUT, base, "runlist base target is not an aperture");
		len = 0;
	}
	h->rl_fetching = rl;
	rl_parse(h, rl, target_ap(target), base, len);
	h->rl_fetching = NULL;
	h->gen->ops->runlist_taken(h, rl);
	emit(gpu, NVM_EV_TRACE, "host", "runlist", base, rl->id, "runlist %u fetched: %zu TSGs, %zu channels", rl->id,
	     rl->ntsg, rl->nch);
	rl->slice_end = gpu->now;
	host_schedule(h, rl);
}

void host_runlist_submit(struct host *h, struct runlist *rl, unsigned target, uint64_t base, uint32_t len)
{
	h->stats.runlist_submits++;
	rl->sub_target = target;
	rl->sub_base = base;
	rl->sub_len = len;
	if (rl->fetch_ev)
		sched_cancel(h->gpu, rl->fetch_ev);
	rl->fetch_ev = sched_at(h->gpu, h->gpu->now + HOST_NS_RL_FETCH + len, rl_fetch, h, rl->id, 0);
}

/* ---------------------------------------------------------------- scheduler */

static bool chan_ready(struct host *h, uint32_t chid)
{
	/* work && !acq_wait (struct chan), then PCCSR */
	return (h->ready[chid >> 6] >> (chid & 63u) & 1u) && host_chan_runnable(h, chid);
}

void host_ready_rebuild(struct host *h)
{
	for (uint32_t chid = 0; chid < h->gen->nchan; chid++)
		host_ready_update(h, chid);
}

/* Seed 000: a selector beyond the runlist's PBDMAs runs on the first. */
static unsigned runq_pbdma(const struct runlist *rl, unsigned runq)
{
	return runq < rl->desc->npbdma ? runq : 0;
}

static struct pbdma *chan_pbdma(struct runlist *rl, unsigned runq)
{
	return rl->pb[runq_pbdma(rl, runq)];
}

void host_rl_pb_used(struct runlist *rl)
{
	rl->pb_used = 0;
	for (size_t i = 0; i < rl->nch; i++)
		rl->pb_used |= (uint8_t)(1u << runq_pbdma(rl, rl->runq[i]));
}

/* TSG i places after t in runlist order, i <= ntsg (the scheduler's walks
 * take one of these per TSG switch: no division). */
static size_t tsg_after(const struct runlist *rl, size_t t, size_t i)
{
	t += i;
	return t >= rl->ntsg ? t - rl->ntsg : t;
}

static bool tsg_has_work(struct host *h, struct runlist *rl, size_t t)
{
	const struct rl_tsg *g = &rl->tsg[t];
	for (uint32_t k = 0; k < g->n; k++)
		if (chan_ready(h, rl->ch[g->first + k]))
			return true;
	return false;
}

/* Silicon H100: a channel blocked on an acquire without ACQUIRE_SWITCH_TSG
 * keeps its TSG on the PBDMA until the timeslice ends. */
static bool tsg_holds(struct host *h, struct runlist *rl, size_t t)
{
	const struct rl_tsg *g = &rl->tsg[t];
	for (uint32_t k = 0; k < g->n; k++) {
		uint32_t chid = rl->ch[g->first + k];
		const struct chan *c = host_chan_peek(h, chid);
		if (c->acq_wait && !c->acq_switch && host_chan_runnable(h, chid))
			return true;
	}
	return false;
}

void slice_event(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	struct host *h = ctx;
	(void)gpu;
	h->rl[arg].slice_ev = 0;
	host_schedule(h, &h->rl[arg]);
}

static void slice_start(struct host *h, struct runlist *rl)
{
	rl->slice_end = h->gpu->now + rl->tsg[rl->cur].timeslice;
	if (rl->slice_ev)
		sched_cancel(h->gpu, rl->slice_ev);
	rl->slice_ev = 0;
}

/* The event at the end of the current timeslice: only a runlist with another
 * TSG needs one, and it keeps the GPU busy (foreground) only while another
 * TSG has work waiting for it. */
static void slice_arm(struct host *h, struct runlist *rl)
{
	if (rl->ntsg < 2 || rl->slice_end <= h->gpu->now)
		return;
	bool others = false;
	for (size_t i = 1; i < rl->ntsg && !others; i++)
		others = tsg_has_work(h, rl, tsg_after(rl, rl->cur, i));
	if (rl->slice_ev && rl->slice_fg == others)
		return;
	if (rl->slice_ev)
		sched_cancel(h->gpu, rl->slice_ev);
	rl->slice_ev = sched_at(h->gpu, rl->slice_end, slice_event, h, rl->id, others ? 0 : SCHED_BACKGROUND);
	rl->slice_fg = others;
}

/* Picks the next channel of TSG t for PBDMA queue q: seed 000 / silicon
 * H100: channels of a TSG run one after another, each until it has no work. */
static int tsg_pick(struct host *h, struct runlist *rl, size_t t, struct pbdma *p, int after)
{
	const struct rl_tsg *g = &rl->tsg[t];
	uint32_t start = 0;
	for (uint32_t k = 0; k < g->n && after >= 0; k++)
		if (rl->ch[g->first + k] == (uint32_t)after)
			start = k + 1 < g->n ? k + 1 : 0;
	/* k = (start + i) % n, without a division per TSG switch */
	for (uint32_t i = 0, k = start; i < g->n; i++, k = k + 1 < g->n ? k + 1 : 0) {
		uint32_t chid = rl->ch[g->first + k];
		if (chan_pbdma(rl, rl->runq[g->first + k]) == p && chan_ready(h, chid) &&
		    chan_loaded_pbdma(host_chan_peek(h, chid)) < 0)
			return (int)chid;
	}
	return -1;
}

static bool in_cur_tsg(struct host *h, struct runlist *rl, uint32_t chid)
{
	const struct chan *c = host_chan_peek(h, chid);
	return rl->ntsg && chan_runlist(c) == (int)rl->id && chan_tsg(c) == (int)rl->cur;
}

/* Host memory the model reads at a context load and in the channel's first
 * step (a speed-up of the model only: nothing in the GPU's state changes).
 * With thousands of channels their RAMFCs, USERDs, GPFIFOs, pushbuffers and
 * the engines' channel state are cold in the host's caches, and each read
 * would wait for its line. When a TSG starts running, the TSGs ahead of it
 * in runlist order are fetched in stages, each needing what the stage before
 * brought in: three ahead the RAMFCs (and RAMIN PAGE_DIR_BASE, read at each
 * translation), two ahead the USERD lines, the GPFIFO entry at GP_GET and
 * the engines' channel state, one ahead the segment that entry points at. */
static const uint8_t *ramfc_span(struct host *h, uint32_t chid, size_t *avail)
{
	unsigned target;
	uint64_t inst = host_chan_inst(h, chid, &target);
	uint8_t *p;
	if (target == 1 || mem_span(&h->gpu->mem[target >= 2 ? NVM_AP_SYSMEM : NVM_AP_VRAM], inst, false, &p, avail) ||
	    *avail < NVM_RAMFC_SIZE)
		return NULL;
	return p;
}

static void prefetch_span(struct mem_space *m, uint64_t pa)
{
	uint8_t *p;
	size_t avail;
	if (!mem_span(m, pa, false, &p, &avail))
		__builtin_prefetch(p);
}

#define PB_PREFETCH 2048u /* bytes of a segment fetched at once */

void host_prefetch_mem(struct mem_space *m, uint64_t pa, uint64_t bytes)
{
	uint8_t *q;
	size_t avail;
	if (mem_span(m, pa, false, &q, &avail))
		return;
	if (bytes > avail)
		bytes = avail;
	if (bytes > PB_PREFETCH)
		bytes = PB_PREFETCH;
	for (uint64_t i = 0; i < bytes; i += 64)
		__builtin_prefetch(q + i);
}

/* The segment of the channel's GP entry at GP_GET, read through the hints
 * (struct chan): the GPFIFO entry (fetched a TSG earlier) where the ring
 * was, the segment where the last one was mapped. */
static void prefetch_pb(struct host *h, uint32_t chid, const uint8_t *f)
{
	const struct chan *c = host_chan_peek(h, chid);
	if (!c->gp_hint_ap || !c->pb_hint_ap)
		return;
	uint32_t get, e[2];
	memcpy(&get, f + 4u * h->ramfc_gp_get, 4);
	uint8_t *q;
	size_t avail;
	if (mem_span(&h->gpu->mem[c->gp_hint_ap - 1u], c->gp_hint + 8ull * get, false, &q, &avail) || avail < 8)
		return;
	memcpy(e, q, 8);
	nvm_pb_gp_entry g;
	nvm_pb_gp_decode_gen(e[0], e[1], false, &g);
	if (g.err == NVM_PB_GP_OK && !g.control)
		host_prefetch_mem(&h->gpu->mem[c->pb_hint_ap - 1u], g.get + c->pb_hint, 4ull * g.length);
}

#define RAMIN_PAGE_DIR_BASE 0x200u /* NV_RAMIN_PAGE_DIR_BASE_LO, dword 128 */

/* What prefetch_tsg fetches of each channel of a TSG, in the order the
 * stages run as the TSG comes nearer. */
enum pf_stage { PF_RAMFC, PF_CHAN, PF_PB };

void host_prefetch_drop(struct runlist *rl)
{
	rl->prefetched = 0;
	memset(rl->pf, 0, sizeof(rl->pf));
}

/* Sum of the apertures' epochs: changes when a page of either goes. */
static uint64_t mem_epoch(const struct host *h)
{
	return h->gpu->mem[NVM_AP_VRAM].epoch + h->gpu->mem[NVM_AP_SYSMEM].epoch;
}

static void prefetch_tsg(struct host *h, struct runlist *rl, size_t t, enum pf_stage stage)
{
	const struct rl_tsg *g = &rl->tsg[t];
	/* The first stage finds the RAMFCs, the later ones take them from the
	 * slot (a channel RAM written since makes a stale guess, not a wrong
	 * state: a different line fetched). */
	struct pf_slot *s = &rl->pf[t & 3];
	uint64_t epoch = mem_epoch(h);
	bool kept = s->tsg1 == t + 1 && s->epoch == epoch;
	if (stage == PF_RAMFC) {
		s->tsg1 = t + 1;
		s->epoch = epoch;
	}
	for (uint32_t k = 0; k < g->n && k < 4; k++) {
		uint32_t chid = rl->ch[g->first + k];
		if (stage == PF_RAMFC) {
			/* struct chan: both lines it may span (the scheduler
			 * reads work, the later stages the hints) */
			const struct chan *c = host_chan_peek(h, chid);
			__builtin_prefetch(c);
			__builtin_prefetch((const char *)(c + 1) - 1);
		}
		size_t avail = 0;
		const uint8_t *f = stage != PF_RAMFC && kept ? s->fc[k] : ramfc_span(h, chid, &avail);
		if (stage == PF_RAMFC)
			s->fc[k] = f;
		if (!f)
			continue;
		if (stage == PF_RAMFC) {
			for (unsigned i = 0; i < NVM_RAMFC_SIZE; i += 64)
				__builtin_prefetch(f + i);
			if (avail > RAMIN_PAGE_DIR_BASE)
				__builtin_prefetch(f + RAMIN_PAGE_DIR_BASE);
			continue;
		}
		if (stage == PF_PB) {
			prefetch_pb(h, chid, f);
			continue;
		}
		for (unsigned e = 0; e < 2; e++) {
			struct engine *x = e ? rl->grce : rl->eng;
			if (x && x->prefetch)
				x->prefetch(x, chid);
		}
		uint32_t lo, hi;
		memcpy(&lo, f + 4u * h->ramfc_userd, 4);
		memcpy(&hi, f + 4u * h->ramfc_userd_hi, 4);
		/* USERD TARGET 1:0, ADDR 31:9; USERD_HI ADDR 7:0 (pbdma.c userd_addr):
		 * the written-back entries and GP_PUT. */
		uint64_t userd = ((uint64_t)(hi & 0xffu) << 32) | (lo & 0xfffffe00u);
		struct mem_space *m = &h->gpu->mem[(lo & 3u) >= 2 ? NVM_AP_SYSMEM : NVM_AP_VRAM];
		uint8_t *u;
		size_t left;
		if (!mem_span(m, userd, false, &u, &left) && left > h->userd_gp_put && left > h->userd_wb_lo) {
			__builtin_prefetch(u + h->userd_wb_lo);
			__builtin_prefetch(u + h->userd_gp_put);
		}
		/* The GPFIFO entry at GP_GET, where it was last time (a wrong
		 * guess costs a useless fetch). */
		const struct chan *c = host_chan_peek(h, chid);
		uint32_t get;
		memcpy(&get, f + 4u * h->ramfc_gp_get, 4);
		if (c->gp_hint_ap)
			prefetch_span(&h->gpu->mem[c->gp_hint_ap - 1u], c->gp_hint + 8ull * get);
	}
}

static void host_prefetch(struct host *h, struct runlist *rl)
{
	/* Once per TSG that starts running (its other channels' loads find
	 * the same TSGs ahead). */
	if (rl->ntsg < 4 || rl->prefetched == rl->cur + 1)
		return;
	rl->prefetched = rl->cur + 1;
	prefetch_tsg(h, rl, tsg_after(rl, rl->cur, 1), PF_PB);
	prefetch_tsg(h, rl, tsg_after(rl, rl->cur, 2), PF_CHAN);
	prefetch_tsg(h, rl, tsg_after(rl, rl->cur, 3), PF_RAMFC);
}

static void sched_pbdma(struct host *h, struct runlist *rl, struct pbdma *p)
{
	if (!p || pbdma_stalled(p) || p->state == PBS_LOADING)
		return;
	int last = p->chid;
	if (p->state == PBS_RUN) {
		uint32_t chid = (uint32_t)p->chid;
		bool yielded = p->yield;
		p->yield = false;
		if (!yielded && in_cur_tsg(h, rl, chid) && chan_ready(h, chid)) {
			if (!p->ev)
				pbdma_kick(p);
			return;
		}
		pbdma_save(p);
	}
	/* a PBDMA no listed channel runs on (the GR runlist's second, as a
	 * rule) has nothing tsg_pick could find */
	if (!rl->ntsg || !(rl->pb_used >> p->runq & 1u))
		return;
	int chid = tsg_pick(h, rl, rl->cur, p, last);
	if (chid >= 0) {
		pbdma_load(p, (uint32_t)chid);
		host_prefetch(h, rl);
	}
}

void host_schedule(struct host *h, struct runlist *rl)
{
	if (h->gen->ops->sched_disabled(h, rl))
		return; /* no new channel is scheduled */
	if (rl->ntsg) {
		if (rl->cur >= rl->ntsg)
			rl->cur = 0;
		bool expired = h->gpu->now >= rl->slice_end;
		bool busy = tsg_has_work(h, rl, rl->cur) || (!expired && tsg_holds(h, rl, rl->cur));
		if (!busy || expired) {
			/* The next TSG in runlist order with work (the current one
			 * last, so a lone busy TSG keeps running). */
			for (size_t i = 1; i <= rl->ntsg; i++) {
				size_t t = tsg_after(rl, rl->cur, i);
				if (tsg_has_work(h, rl, t)) {
					if (t != rl->cur)
						emit(h->gpu, NVM_EV_TRACE, "host", "tsg_switch", rl->tsg[t].tsgid,
						     rl->id, "runlist %u: TSG %u -> TSG %u", rl->id,
						     rl->tsg[rl->cur].tsgid, rl->tsg[t].tsgid);
					rl->cur = t;
					slice_start(h, rl);
					break;
				}
			}
		}
	}
	for (unsigned q = 0; q < rl->desc->npbdma; q++)
		sched_pbdma(h, rl, rl->pb[q]);
	slice_arm(h, rl);
	host_engstat(h, rl);
}

void schedule_event(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	struct host *h = ctx;
	host_schedule(h, &h->rl[arg]);
}

void host_schedule_later(struct host *h, struct runlist *rl)
{
	sched_at(h->gpu, h->gpu->now, schedule_event, h, rl->id, 0);
}

void host_chan_changed(struct host *h, uint32_t chid)
{
	const struct chan *c = host_chan_peek(h, chid);
	if (chan_loaded_pbdma(c) >= 0)
		pbdma_chan_changed(&h->pb[chan_loaded_pbdma(c)]);
	int r = chan_runlist(c);
	if (r >= 0)
		host_schedule(h, &h->rl[r]);
}

/* ---------------------------------------------------------------- engine status */

/* NV_PFIFO_ENGINE_STATUS CTX_STATUS 15:13 (its top bit is CTXSW 15:15). */
#define ECTX_INVALID 0u
#define ECTX_VALID   1u
#define ECTX_LOAD    5u
#define ECTX_SAVE    6u
#define ECTX_SWITCH  7u

static int chan_tsgid(struct host *h, uint32_t chid)
{
	const struct chan *c = host_chan_peek(h, chid);
	return chan_runlist(c) >= 0 && chan_tsg(c) >= 0 ? (int)h->rl[chan_runlist(c)].tsg[chan_tsg(c)].tsgid : -1;
}

/* The instance block of a PBDMA's channel as NV_PFIFO_ENGINE_STATUS_INST
 * shows it: PTR 27:0 (4 KiB units), TARGET 29:28. */
static uint32_t inst_word(const struct pbdma *p)
{
	return ((uint32_t)(p->inst >> 12) & 0x0fffffffu) | (uint32_t)p->inst_target << 28;
}

/* The time the runlist's engines (GR and GRCOPY on the GR runlist) finish
 * the methods they were given. UNVERIFIED: GRCOPY has no ENGINE_STATUS index
 * of its own in the model, so its work shows on the GR runlist's. */
static uint64_t rl_busy_until(const struct runlist *rl)
{
	uint64_t t = rl->eng ? rl->eng->busy_until : 0;
	if (rl->grce && rl->grce->busy_until > t)
		t = rl->grce->busy_until;
	return t;
}

void eng_idle_event(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	struct host *h = ctx;
	h->rl[arg].ectx.idle_ev = 0;
	host_engstat(h, &h->rl[arg]);
}

void host_eng_faulted(struct host *h, struct runlist *rl, uint32_t chid)
{
	(void)h;
	rl->ectx.fault_chid = (int)chid;
}

/* The engine status is derived from the PBDMAs and engines of the runlist:
 * a PBDMA loading a channel of another TSG than the engine's is a context
 * switch (CTXSW_LOAD onto an empty engine, CTXSW_SWITCH from the TSG still
 * there, NEXT_ID the incoming TSG) for the context-switch cost; then the
 * TSG's context is VALID and stays on the engine after its channels leave
 * the PBDMAs (PCCSR STATUS ON_ENG exists for that), until another TSG's
 * load switches it or a preempt saves it: CTXSW_SAVE until the engine has
 * finished the TSG's methods, then INVALID (dev_fifo's preempt sequence,
 * step 4b). A context whose engine faulted has FAULTED 30:30 until software
 * clears the channel's ENG_FAULTED. ENGINE 31:31 is BUSY until the engine's
 * last method completes. UNVERIFIED: the manual names the states, not
 * their timing. */
void host_engstat(struct host *h, struct runlist *rl)
{
	struct eng_ctx *x = &rl->ectx;
	uint64_t now = h->gpu->now, until = rl_busy_until(rl);
	bool busy = until > now, held = false;
	int next = -1;
	uint32_t next_inst = 0;
	for (unsigned q = 0; q < rl->desc->npbdma; q++) {
		const struct pbdma *p = rl->pb[q];
		if (!p || p->chid < 0)
			continue;
		int t = chan_tsgid(h, (uint32_t)p->chid);
		if (t >= 0 && t == x->tsg)
			held = true;
		else if (p->state == PBS_LOADING) {
			next = t;
			next_inst = inst_word(p);
		}
	}
	if (x->fault_chid >= 0 && !h->gen->ops->chan_faulted(h, (uint32_t)x->fault_chid, HOST_ENG_FAULTED))
		x->fault_chid = -1; /* software cleared ENG_FAULTED */
	if (held)
		x->saving = false;
	unsigned st = ECTX_INVALID;
	if (next >= 0)
		st = x->tsg >= 0 ? ECTX_SWITCH : ECTX_LOAD;
	else if (x->tsg >= 0 && (!x->saving || busy))
		st = x->saving ? ECTX_SAVE : ECTX_VALID;
	else
		x->tsg = -1;
	uint32_t v = FIELD_SET(0, 15, 13, st);
	if (x->tsg >= 0)
		v |= (uint32_t)x->tsg | 1u << 12; /* ID, ID_TYPE TSGID */
	if (next >= 0)
		v |= (uint32_t)next << 16 | 1u << 28; /* NEXT_ID, NEXT_ID_TYPE TSGID */
	if (x->fault_chid >= 0)
		v |= 1u << 30;
	if (busy)
		v |= 1u << 31;
	/* _INST / _NEXT_INST: PTR 27:0, TARGET 29:28, VALID 31:31. */
	h->gen->ops->engine_status(h, rl, v, x->tsg >= 0 ? x->inst | 1u << 31 : 0,
	                           next >= 0 ? next_inst | 1u << 31 : 0);
	/* Item of docs/host.md "Timing": the GPU is not idle before its
	 * engines have finished (a foreground event at their completion). */
	if (!busy || x->idle_ev)
		return;
	bool stepping = false; /* a pending PBDMA step refreshes the status itself */
	for (unsigned q = 0; q < rl->desc->npbdma; q++)
		stepping |= rl->pb[q] && rl->pb[q]->ev;
	if (!stepping)
		x->idle_ev = sched_at(h->gpu, until, eng_idle_event, h, rl->id, 0);
}

void host_engstat_preempt(struct host *h, struct runlist *rl, int tsgid)
{
	if (rl->ectx.tsg >= 0 && (tsgid < 0 || tsgid == rl->ectx.tsg))
		rl->ectx.saving = true;
	host_engstat(h, rl);
}

void host_engstat_loaded(struct host *h, struct runlist *rl, const struct pbdma *p)
{
	int t = chan_tsgid(h, (uint32_t)p->chid);
	if (t != rl->ectx.tsg)
		rl->ectx.fault_chid = -1;
	rl->ectx.tsg = t;
	rl->ectx.saving = false;
	rl->ectx.inst = inst_word(p);
	host_engstat(h, rl);
}

/* ---------------------------------------------------------------- doorbells and preempts */

void host_doorbell(struct host *h, uint32_t chid)
{
	h->stats.doorbells++;
	emit(h->gpu, NVM_EV_TRACE, "host", "doorbell", chid, chid, "doorbell: channel %u", chid);
	if (chid >= h->gen->nchan) {
		/* UNVERIFIED: a token that names no channel is dropped. */
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "bad_doorbell", h->gen->r_doorbell, chid,
		     "NOTIFY_CHANNEL_PENDING 0x%x names no channel (%u)", chid, h->gen->nchan);
		return;
	}
	/* A channel whose chunk was never allocated was never listed: its
	 * work flag is set when it is (rl_parse), so it need not be kept. */
	const struct chan *c = host_chan_peek(h, chid);
	if (h->chan[chid / HOST_CHAN_CHUNK])
		chan_set_work(h, chid, true);
	if (chan_loaded_pbdma(c) >= 0) {
		struct pbdma *p = &h->pb[chan_loaded_pbdma(c)];
		if (!p->ev && p->state == PBS_RUN && !pbdma_stalled(p))
			pbdma_kick(p);
		return;
	}
	if (host_chan_runnable(h, chid) && chan_runlist(c) >= 0)
		host_set_chan_status(h, chid, PCCSR_STATUS_PENDING);
	host_chan_changed(h, chid);
}

static void preempt_pbdma(struct pbdma *p)
{
	if (p->state != PBS_IDLE && !pbdma_stalled(p))
		pbdma_save(p);
}

/* The save is done at once (a PBDMA between steps); UNVERIFIED: a stalled
 * PBDMA cannot be preempted and the preempt completes anyway (real hardware
 * would time out, CTXSW_TIMEOUT). */
void host_preempt(struct host *h, bool tsg, uint32_t id)
{
	for (unsigned i = 0; i < h->gen->npbdma; i++) {
		struct pbdma *p = &h->pb[i];
		if (p->chid < 0)
			continue;
		const struct chan *c = host_chan_peek(h, (uint32_t)p->chid);
		bool hit = !tsg ? (uint32_t)p->chid == id
		                : chan_runlist(c) >= 0 && chan_tsg(c) >= 0 &&
		                           h->rl[chan_runlist(c)].tsg[chan_tsg(c)].tsgid == id;
		if (hit) {
			preempt_pbdma(p);
			if (chan_runlist(c) >= 0) {
				struct runlist *rl = &h->rl[chan_runlist(c)];
				rl->slice_end = h->gpu->now; /* the TSG's timeslice ends */
			}
		}
	}
	/* The engine context of the preempted TSG (or the channel's TSG) is
	 * saved off its engine. */
	int tsgid = !tsg ? (id < h->gen->nchan ? chan_tsgid(h, id) : -1) : (int)id;
	for (unsigned i = 0; i < h->gen->nrunlist && tsgid >= 0; i++)
		host_engstat_preempt(h, &h->rl[i], tsgid);
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		host_schedule(h, &h->rl[i]);
}

void host_preempt_tsg_on(struct host *h, struct runlist *rl, uint32_t tsgid)
{
	for (unsigned q = 0; q < rl->desc->npbdma; q++) {
		struct pbdma *p = rl->pb[q];
		if (p && p->chid >= 0 && chan_tsgid(h, (uint32_t)p->chid) == (int)tsgid) {
			preempt_pbdma(p);
			rl->slice_end = h->gpu->now; /* the TSG's timeslice ends */
		}
	}
	host_engstat_preempt(h, rl, (int)tsgid);
	host_schedule(h, rl);
}

void host_preempt_runlist(struct host *h, struct runlist *rl)
{
	for (unsigned q = 0; q < rl->desc->npbdma; q++)
		if (rl->pb[q])
			preempt_pbdma(rl->pb[q]);
	host_engstat_preempt(h, rl, -1);
	rl->slice_end = h->gpu->now;
	host_schedule(h, rl);
}

/* ---------------------------------------------------------------- block */

static void host_destroy(nvm_gpu *gpu, void *state)
{
	(void)gpu;
	struct host *h = state;
	if (!h)
		return;
	for (unsigned i = 0; h->pb && i < h->gen->npbdma; i++)
		pbdma_fini(&h->pb[i]);
	for (unsigned i = 0; h->rl && i < h->gen->nrunlist; i++)
		rl_clear(&h->rl[i]);
	for (size_t i = 0; i < h->nengines; i++)
		engine_free(h->engines[i]);
	h->gen->ops->destroy(h);
	free(h->engines);
	free(h->pb);
	free(h->rl);
	for (uint32_t i = 0; h->chan && i < (h->gen->nchan + HOST_CHAN_CHUNK - 1) / HOST_CHAN_CHUNK; i++)
		free(h->chan[i]);
	free(h->chan);
	free(h->ready);
	free(h->pbdma_vals);
	free(h);
}

static nvm_status add_engine(struct host *h, const char *kind, const char *name, unsigned mmu_id, struct engine **out)
{
	if (!name) {
		*out = NULL;
		return NVM_OK;
	}
	/* the tables number engines as gv100; the chip's GMMU generation
	 * renumbers them (gh100: GRAPHICS 384, CE0 43) */
	nvm_status st = engine_new(h->gpu, kind, name, nvm_mmu_gen_engine_id(h->gpu, mmu_id), out);
	if (!st && !strcmp(kind, "ce") && engine_ce_set_class(*out, h->gen->ce_class)) {
		engine_free(*out); /* the generation names no copy class the engine has */
		*out = NULL;
		st = NVM_ERR_CHIP;
	}
	if (!st) {
		(*out)->nonstall = host_nonstall;
		(*out)->host = h;
		h->engines[h->nengines++] = *out;
	}
	return st;
}

/* The per-GPU arrays, sized by the generation's counts. */
static nvm_status host_alloc(struct host *h)
{
	const struct host_gen *g = h->gen;
	h->chan = calloc((g->nchan + HOST_CHAN_CHUNK - 1) / HOST_CHAN_CHUNK, sizeof(*h->chan));
	h->ready = calloc((g->nchan + 63) / 64, sizeof(*h->ready));
	h->rl = calloc(g->nrunlist, sizeof(*h->rl));
	h->pb = calloc(g->npbdma, sizeof(*h->pb));
	h->pbdma_vals = calloc((size_t)g->npbdma * PBR_COUNT, sizeof(uint32_t));
	h->engines = calloc(2u * g->nrunlist, sizeof(*h->engines)); /* an engine and GRCOPY per runlist */
	h->pb_gen = pb_chip_gen(h->gpu->chip);                      /* the chip row's profile */
	h->host_class = nvm_pb_class_find(g->host_class);
	if (!h->host_class && h->pb_gen) /* a class the tables lack (C86F): its nearest ancestor's methods */
		h->host_class = nvm_pb_host_class(h->pb_gen, NVM_PB_FORMAT_NEW);
	if (!h->chan || !h->ready || !h->rl || !h->pb || !h->pbdma_vals || !h->engines)
		return NVM_ERR_NOMEM;
	return h->pb_gen ? pbdma_layouts(h) : NVM_ERR_CHIP; /* an inconsistent generation */
}

static nvm_status host_create(nvm_gpu *gpu, const void *data, void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	if (!h)
		return NVM_ERR_NOMEM;
	*state = h;
	h->gpu = gpu;
	h->gen = data;
	nvm_status st = host_alloc(h);
	if (st)
		return st;
	for (unsigned i = 0; i < h->gen->npbdma; i++)
		pbdma_init(h, &h->pb[i], i);
	for (unsigned i = 0; i < h->gen->nrunlist && !st; i++) {
		struct runlist *rl = &h->rl[i];
		rl->id = i;
		rl->desc = &h->gen->rl[i];
		rl->ectx = (struct eng_ctx){ .tsg = -1, .fault_chid = -1 };
		st = add_engine(h, rl->desc->kind, rl->desc->engine, rl->desc->mmu_id, &rl->eng);
		if (!st)
			st = add_engine(h, "ce", rl->desc->grce, rl->desc->grce_mmu_id, &rl->grce);
		for (unsigned q = 0; q < rl->desc->npbdma && !st; q++) {
			struct pbdma *p = &h->pb[rl->desc->pbdma[q]];
			p->rl = rl;
			p->runq = q;
			rl->pb[q] = p;
		}
	}
	if (!st)
		st = h->gen->ops->create(h);
	return st ? st : pbdma_add_regs(h);
}

static bool host_busy(void *state)
{
	struct host *h = state;
	for (unsigned i = 0; i < h->gen->npbdma; i++)
		if (h->pb[i].ev)
			return true;
	return false;
}

const struct block_class host_class = {
	.name = "host",
	.create = host_create,
	.destroy = host_destroy,
	.busy = host_busy,
	.snap = &host_snap,
};

/* ---------------------------------------------------------------- public API */

static const struct host_gen *chip_host_gen(const char *chip)
{
	const struct chip *c = chip_lookup(chip);
	return c ? chip_data(c, &host_class) : NULL;
}

bool nvm_rl_entry_decode_chip(const char *chip, const uint8_t e[NVM_RL_ENTRY_SIZE], nvm_rl_entry *out)
{
	const struct host_gen *g = chip_host_gen(chip);
	if (!g)
		return 0;
	g->rl_entry_decode(e, out);
	return 1;
}

nvm_status nvm_host_channel_info(nvm_gpu *gpu, uint32_t chid, nvm_host_channel *out)
{
	struct host *h = host_of(gpu);
	if (!gpu || !out)
		return NVM_ERR_ARG;
	if (!h)
		return NVM_ERR_NOENT;
	if (chid >= h->gen->nchan)
		return NVM_ERR_ARG;
	const struct chan *c = host_chan_peek(h, chid);
	*out = (nvm_host_channel){
		.chid = chid,
		.runlist = chan_runlist(c),
		.tsgid = chan_tsgid(h, chid),
		.pbdma = chan_loaded_pbdma(c),
		.methods = c->methods,
	};
	h->gen->ops->chan_info(h, chid, out);
	return NVM_OK;
}

nvm_status nvm_host_set_method_crc(nvm_gpu *gpu, bool on)
{
	struct host *h = host_of(gpu);
	if (!gpu)
		return NVM_ERR_ARG;
	if (!h)
		return NVM_ERR_NOENT;
	h->method_crc = on != 0;
	return NVM_OK;
}

nvm_status nvm_host_get_stats(const nvm_gpu *gpu, nvm_host_stats *out)
{
	struct host *h = host_of(gpu);
	if (!gpu || !out)
		return NVM_ERR_ARG;
	if (!h)
		return NVM_ERR_NOENT;
	*out = h->stats;
	return NVM_OK;
}

const nvm_hf_layout *nvm_hf_layout_chip(const char *chip, nvm_hf_struct which)
{
	const struct chip *c = chip_lookup(chip);
	const struct host_gen *g = c ? chip_data(c, &host_class) : NULL;
	return g && (unsigned)which < NVM_HF_STRUCT_COUNT ? &g->layouts[which] : NULL;
}
