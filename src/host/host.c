/*
 * The Volta Host (gv100): PFIFO registers (gv100_dev_fifo.ref.txt), the
 * channel RAM PCCSR, the usermode doorbell (gv100_dev_usermode.ref.txt),
 * runlists (seed 000 section 5, RAMRL) and the scheduler that puts TSGs and
 * their channels on PBDMA units. The PBDMA units themselves are in pbdma.c.
 */
#include <stdlib.h>
#include <string.h>

#include "host_gens.h"
#include "host_internal.h"
#include "nvmodel/host_fmt.h"

/* ---------------------------------------------------------------- chip data */

/* UNVERIFIED topology: the gv100 manuals do not list which engine each
 * runlist serves (that is NV_PTOP device info, not modelled). Runlist 0 is
 * graphics/compute with GRCOPY (CE0) on subchannel 4 and two PBDMAs (the two
 * FE pipes RUNQUEUE_SELECTOR picks between, seed 000 section 5); runlists
 * 1..7 are the copy engines CE2..CE8, one PBDMA each (PBDMA 2..8). MMU
 * engine ids: GRAPHICS 64, CE0..CE8 = 15..23 (volta-facts.md f). */
const struct host_chip host_gv100 = {
	.nrunlist = 8,
	.rl = {
		{ "gr", "recorder", "grce", NVM_MMU_ENG_GRAPHICS, 15, 0, { 0, 1 }, 2 },
		{ "ce2", "ce", NULL, 17, 0, 2, { 2 }, 1 },
		{ "ce3", "ce", NULL, 18, 0, 3, { 3 }, 1 },
		{ "ce4", "ce", NULL, 19, 0, 4, { 4 }, 1 },
		{ "ce5", "ce", NULL, 20, 0, 5, { 5 }, 1 },
		{ "ce6", "ce", NULL, 21, 0, 6, { 6 }, 1 },
		{ "ce7", "ce", NULL, 22, 0, 7, { 7 }, 1 },
		{ "ce8", "ce", NULL, 23, 0, 8, { 8 }, 1 },
	},
};

struct host *host_of(const nvm_gpu *gpu)
{
	return gpu ? (struct host *)gpu_block(gpu, &host_class) : NULL;
}

/* ---------------------------------------------------------------- registers */

#define R_PFIFO_INTR_0        0x2100u
#define R_PFIFO_INTR_EN_0     0x2140u
#define R_PFIFO_RUNLIST_BASE  0x2270u
#define R_PFIFO_RUNLIST       0x2274u
#define R_PFIFO_SCHED_DISABLE 0x2630u
#define R_PFIFO_PREEMPT       0x2634u
#define R_PFIFO_SCHED_ERROR   0x254Cu
#define R_PFIFO_BIND_ERROR    0x252Cu
#define R_PFIFO_CHSW_ERROR    0x256Cu
#define R_PCCSR               0x800000u
#define R_USERMODE            0x810000u

/* NV_PFIFO_INTR_0 */
#define PFIFO_INTR_BIND_ERROR   (1u << 0)
#define PFIFO_INTR_SCHED_ERROR  (1u << 8)
#define PFIFO_INTR_CHSW_ERROR   (1u << 16)
#define PFIFO_INTR_PBDMA_INTR   (1u << 29)
#define PFIFO_INTR_CHANNEL_INTR (1u << 31)
#define PFIFO_INTR_W1C          0x81810101u /* BIND, SCHED, CHSW, MEMOP_TIMEOUT, LB, CHANNEL */

#define SCHED_ERROR_CODE_BAD_TSG             0x20u
#define SCHED_ERROR_CODE_RL_RDAT_TIMEOUT     0x08u
#define BIND_ERROR_CODE_UNBIND_WHILE_RUNNING 0x03u
#define BIND_ERROR_CODE_INVALID_CTX_TGT      0x06u

static uint32_t reg(struct host *h, uint32_t addr)
{
	return bus_get(h->gpu, addr);
}

static void reg_set(struct host *h, uint32_t addr, uint32_t v)
{
	bus_set(h->gpu, addr, v);
}

/* NV_PFIFO_INTR_PBDMA_ID: the PBDMAs with an enabled interrupt pending. */
static uint32_t pbdma_intr_ids(struct host *h)
{
	uint32_t ids = 0;
	for (unsigned i = 0; i < HOST_NPBDMA; i++) {
		const uint32_t *r = h->pb[i].r;
		if ((r[PBR_INTR_0] & r[PBR_INTR_EN_0]) || (r[PBR_INTR_1] & r[PBR_INTR_EN_1]))
			ids |= 1u << i;
	}
	return ids;
}

static uint32_t pfifo_intr_value(struct host *h)
{
	uint32_t v = reg(h, R_PFIFO_INTR_0) & ~PFIFO_INTR_PBDMA_INTR;
	if (pbdma_intr_ids(h))
		v |= PFIFO_INTR_PBDMA_INTR;
	return v;
}

static uint32_t pfifo_intr_status(void *ctx)
{
	return pfifo_intr_value(ctx);
}

/* PFIFO_INTR_0 reads PBDMA_INTR as a level of the PBDMAs' interrupts. */
static const struct intr_desc host_pfifo_intr = { R_PFIFO_INTR_0, R_PFIFO_INTR_EN_0, PMC_INTR_PFIFO, pfifo_intr_status,
	                                          NULL };

void host_update_intr(struct host *h)
{
	intr_update(&h->intr);
}

void host_nonstall(void *host, uint32_t chid)
{
	struct host *h = host;
	reg_set(h, R_PFIFO_INTR_0, reg(h, R_PFIFO_INTR_0) | PFIFO_INTR_CHANNEL_INTR);
	emit(h->gpu, NVM_EV_TRACE, "host", "nonstall_intr", chid, chid, "channel %u: non-stalling interrupt", chid);
	host_update_intr(h);
}

static uint32_t rd_pfifo_intr(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return pfifo_intr_value(ctx);
}

static uint32_t rd_pbdma_id(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return pbdma_intr_ids(ctx);
}

static void wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	host_update_intr(ctx);
}

/* A PFIFO error interrupt: the CODE 7:0 register and the INTR_0 bit. */
static void pfifo_error(struct host *h, uint32_t code_reg, uint32_t bit, uint32_t code, const char *name,
                        const char *label, uint64_t addr, const char *why)
{
	reg_set(h, code_reg, code);
	reg_set(h, R_PFIFO_INTR_0, reg(h, R_PFIFO_INTR_0) | bit);
	emit(h->gpu, NVM_EV_GUEST_ERROR, "host", name, addr, code, "%s code 0x%02x: %s", label, code, why);
	host_update_intr(h);
}

static void sched_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	h->stats.sched_errors++;
	pfifo_error(h, R_PFIFO_SCHED_ERROR, PFIFO_INTR_SCHED_ERROR, code, "sched_error", "SCHED_ERROR", addr, why);
}

static void bind_error(struct host *h, uint32_t code, uint32_t chid, const char *why)
{
	pfifo_error(h, R_PFIFO_BIND_ERROR, PFIFO_INTR_BIND_ERROR, code, "bind_error", "BIND_ERROR", chid, why);
}

void host_chsw_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	pfifo_error(h, R_PFIFO_CHSW_ERROR, PFIFO_INTR_CHSW_ERROR, code, "chsw_error", "CHSW_ERROR", addr, why);
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
	rl_clear(rl);
	for (uint32_t i = 0; i < HOST_NCHAN; i++)
		if (h->chan[i].runlist == (int)rl->id) {
			h->chan[i].runlist = -1;
			h->chan[i].tsg = -1;
		}
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
		nvm_rl_entry_decode(raw, &e);
		np = nvm_rl_walk_step(&w, &e, pr);
		if (np)
			break;
		if (e.type == 1) {
			rl->tsg[rl->ntsg++] = (struct rl_tsg){ e.id, e.timeslice_ns, (uint32_t)rl->nch, e.tsg_length };
			left = e.tsg_length;
		} else if (w.member) {
			rl->ch[rl->nch] = e.id;
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
		sched_error(h, SCHED_ERROR_CODE_BAD_TSG, base + (uint64_t)pr[0].where * NVM_RL_ENTRY_SIZE, msg);
	}
	if (left) {
		/* The unfinished TSG is not scheduled. */
		rl->nch -= rl->tsg[rl->ntsg - 1].n - left;
		rl->ntsg--;
	}
	for (size_t t = 0; t < rl->ntsg; t++)
		for (uint32_t k = 0; k < rl->tsg[t].n; k++) {
			struct chan *c = &h->chan[rl->ch[rl->tsg[t].first + k]];
			c->runlist = (int16_t)rl->id;
			c->tsg = (int16_t)t;
			/* UNVERIFIED: a listed channel is looked at once (loaded) to
			 * see whether it has work, as if a doorbell had been rung. */
			c->work = true;
		}
}

static void rl_fetch(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	struct host *h = ctx;
	struct runlist *rl = &h->rl[arg];
	rl->fetch_ev = 0;
	uint32_t *eng_base = &h->eng_rl_vals[rl->id * 2], *eng = eng_base + 1;
	uint32_t b = *eng_base;
	uint32_t len = FIELD_GET(*eng, 15, 0);
	uint32_t target = FIELD_GET(b, 29, 28);
	uint64_t base = (uint64_t)FIELD_GET(b, 27, 0) << 12;
	/* Seed 000: a new runlist "expire[s] the timeslice of all work
	 * scheduled by the previous runlist". */
	for (unsigned q = 0; q < rl->desc->npbdma; q++)
		if (rl->pb[q] && rl->pb[q]->state != PBS_IDLE && !pbdma_stalled(rl->pb[q]))
			pbdma_save(rl->pb[q]);
	if (target == 1) {
		sched_error(h, SCHED_ERROR_CODE_RL_RDAT_TIMEOUT, base, "runlist base target is not an aperture");
		len = 0;
	}
	rl_parse(h, rl, target_ap(target), base, len);
	*eng = FIELD_SET(*eng, 20, 20, 0); /* PENDING: the runlist has been taken */
	emit(gpu, NVM_EV_TRACE, "host", "runlist", base, rl->id, "runlist %u fetched: %zu TSGs, %zu channels", rl->id,
	     rl->ntsg, rl->nch);
	rl->slice_end = gpu->now;
	host_schedule(h, rl);
}

static void wr_runlist(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	uint32_t id = FIELD_GET(written, 23, 20);
	uint32_t len = FIELD_GET(written, 15, 0);
	*stored = written;
	if (id >= h->chip->nrunlist) {
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "bad_runlist_id", R_PFIFO_RUNLIST, id,
		     "NV_PFIFO_RUNLIST names runlist %u; this chip has %u", id, h->chip->nrunlist);
		return;
	}
	struct runlist *rl = &h->rl[id];
	h->stats.runlist_submits++;
	h->eng_rl_vals[id * 2] = reg(h, R_PFIFO_RUNLIST_BASE);
	h->eng_rl_vals[id * 2 + 1] = len | (1u << 20);
	if (rl->fetch_ev)
		sched_cancel(h->gpu, rl->fetch_ev);
	rl->fetch_ev = sched_at(h->gpu, h->gpu->now + HOST_NS_RL_FETCH + len, rl_fetch, h, id, 0);
}

/* ---------------------------------------------------------------- scheduler */

uint32_t *host_pccsr_chan(struct host *h, uint32_t chid)
{
	return &h->pccsr[2 * chid + 1];
}

void host_set_chan_status(struct host *h, uint32_t chid, unsigned status)
{
	uint32_t *v = host_pccsr_chan(h, chid);
	*v = FIELD_SET(*v, 27, 24, status);
	*v = FIELD_SET(*v, 28, 28, status >= PCCSR_STATUS_ON_PBDMA);
}

bool host_chan_runnable(struct host *h, uint32_t chid)
{
	uint32_t inst = h->pccsr[2 * chid], ch = h->pccsr[2 * chid + 1];
	/* bound, enabled, and neither PBDMA_FAULTED nor ENG_FAULTED */
	return FIELD_GET(inst, 31, 31) && FIELD_GET(ch, 0, 0) && !FIELD_GET(ch, 23, 22);
}

static bool chan_ready(struct host *h, uint32_t chid)
{
	const struct chan *c = &h->chan[chid];
	return c->work && !c->acq_wait && host_chan_runnable(h, chid);
}

static struct pbdma *chan_pbdma(struct runlist *rl, unsigned runq)
{
	/* Seed 000: a selector beyond the runlist's PBDMAs runs on the first. */
	return rl->pb[runq < rl->desc->npbdma ? runq : 0];
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
		if (h->chan[chid].acq_wait && !h->chan[chid].acq_switch && host_chan_runnable(h, chid))
			return true;
	}
	return false;
}

static void slice_event(nvm_gpu *gpu, void *ctx, uint64_t arg)
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
		others = tsg_has_work(h, rl, (rl->cur + i) % rl->ntsg);
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
			start = k + 1;
	for (uint32_t i = 0; i < g->n; i++) {
		uint32_t k = (start + i) % g->n;
		uint32_t chid = rl->ch[g->first + k];
		if (chan_pbdma(rl, rl->runq[g->first + k]) == p && chan_ready(h, chid) && h->chan[chid].pbdma < 0)
			return (int)chid;
	}
	return -1;
}

static bool in_cur_tsg(struct host *h, struct runlist *rl, uint32_t chid)
{
	return rl->ntsg && h->chan[chid].runlist == (int)rl->id && h->chan[chid].tsg == (int)rl->cur;
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
	if (!rl->ntsg)
		return;
	int chid = tsg_pick(h, rl, rl->cur, p, last);
	if (chid >= 0)
		pbdma_load(p, (uint32_t)chid);
}

void host_schedule(struct host *h, struct runlist *rl)
{
	if (FIELD_GET(reg(h, R_PFIFO_SCHED_DISABLE), rl->id, rl->id))
		return; /* dev_fifo SCHED_DISABLE: no new channel is scheduled */
	if (rl->ntsg) {
		if (rl->cur >= rl->ntsg)
			rl->cur = 0;
		bool expired = h->gpu->now >= rl->slice_end;
		bool busy = tsg_has_work(h, rl, rl->cur) || (!expired && tsg_holds(h, rl, rl->cur));
		if (!busy || expired) {
			/* The next TSG in runlist order with work (the current one
			 * last, so a lone busy TSG keeps running). */
			for (size_t i = 1; i <= rl->ntsg; i++) {
				size_t t = (rl->cur + i) % rl->ntsg;
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

static void schedule_event(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	struct host *h = ctx;
	host_schedule(h, &h->rl[arg]);
}

void host_schedule_later(struct host *h, struct runlist *rl)
{
	sched_at(h->gpu, h->gpu->now, schedule_event, h, rl->id, 0);
}

static void schedule_chan(struct host *h, uint32_t chid)
{
	int r = h->chan[chid].runlist;
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
	const struct chan *c = &h->chan[chid];
	return c->runlist >= 0 && c->tsg >= 0 ? (int)h->rl[c->runlist].tsg[c->tsg].tsgid : -1;
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

static void eng_idle_event(nvm_gpu *gpu, void *ctx, uint64_t arg)
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
			next_inst = h->pccsr[2 * p->chid];
		}
	}
	if (x->fault_chid >= 0 && !FIELD_GET(*host_pccsr_chan(h, (uint32_t)x->fault_chid), 23, 23))
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
	unsigned i = rl->desc->engstat;
	h->engstat_vals[i * 2] = v;
	/* _INST / _NEXT_INST: PTR 27:0, TARGET 29:28, VALID 31:31. */
	h->engstat_inst_vals[i] = x->tsg >= 0 ? (x->inst & 0x3fffffffu) | 1u << 31 : 0;
	h->engstat_next_inst_vals[i] = next >= 0 ? (next_inst & 0x3fffffffu) | 1u << 31 : 0;
	/* Item of docs/host.md "Timing": the GPU is not idle before its
	 * engines have finished (a foreground event at their completion). */
	bool stepping = false; /* a pending PBDMA step refreshes the status itself */
	for (unsigned q = 0; q < rl->desc->npbdma; q++)
		stepping |= rl->pb[q] && rl->pb[q]->ev;
	if (busy && !x->idle_ev && !stepping)
		x->idle_ev = sched_at(h->gpu, until, eng_idle_event, h, rl->id, 0);
}

void host_engstat_preempt(struct host *h, struct runlist *rl, int tsgid)
{
	if (rl->ectx.tsg >= 0 && (tsgid < 0 || tsgid == rl->ectx.tsg))
		rl->ectx.saving = true;
	host_engstat(h, rl);
}

void host_engstat_loaded(struct host *h, struct runlist *rl, uint32_t chid)
{
	int t = chan_tsgid(h, chid);
	if (t != rl->ectx.tsg)
		rl->ectx.fault_chid = -1;
	rl->ectx.tsg = t;
	rl->ectx.saving = false;
	rl->ectx.inst = h->pccsr[2 * chid];
	host_engstat(h, rl);
}

/* ---------------------------------------------------------------- PCCSR */

static struct host *pccsr_owner(void *ctx, uint32_t *stored, uint32_t *chid)
{
	struct host *h = ctx;
	*chid = (uint32_t)((stored - h->pccsr) / 2);
	return h;
}

static void wr_chan_inst(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)written;
	uint32_t chid;
	struct host *h = pccsr_owner(ctx, stored, &chid);
	/* dev_fifo INTR_BIND_ERROR CODE_UNBIND_WHILE_RUNNING. UNVERIFIED: the
	 * unbind takes effect (the channel is not scheduled again). */
	if (FIELD_GET(old, 31, 31) && !FIELD_GET(*stored, 31, 31) && h->chan[chid].pbdma >= 0)
		bind_error(h, BIND_ERROR_CODE_UNBIND_WHILE_RUNNING, chid, "channel unbound while loaded on a PBDMA");
	/* dev_fifo INTR_BIND_ERROR CODE_INVALID_CTX_TGT: TARGET 29:28 = 1 names
	 * no aperture (VID_MEM 0, SYS_MEM_COHERENT 2, _NONCOHERENT 3).
	 * UNVERIFIED: the bind is refused (BIND reads 0). */
	if (FIELD_GET(*stored, 31, 31) && FIELD_GET(*stored, 29, 28) == 1) {
		*stored &= ~(1u << 31);
		bind_error(h, BIND_ERROR_CODE_INVALID_CTX_TGT, chid, "instance block TARGET is not an aperture");
	}
	schedule_chan(h, chid);
}

/* NV_PCCSR_CHANNEL: ENABLE_SET 10:10 / ENABLE_CLR 11:11 act on ENABLE 0:0
 * (read-only); PBDMA_FAULTED / ENG_FAULTED 23:22 are write-1-to-clear. */
static void wr_chan(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	uint32_t chid;
	struct host *h = pccsr_owner(ctx, stored, &chid);
	if (FIELD_GET(written, 10, 10))
		*stored |= 1u;
	if (FIELD_GET(written, 11, 11))
		*stored &= ~1u;
	*stored &= ~(3u << 10);
	schedule_chan(h, chid);
}

static const struct reg_desc pccsr_regs[] = {
	{ 0x0, "NV_PCCSR_CHANNEL_INST", 0, 0xbfffffffu, 0, NULL, wr_chan_inst },
	{ 0x4, "NV_PCCSR_CHANNEL", 0, (1u << 1) | (1u << 8), (1u << 22) | (1u << 23), NULL, wr_chan },
};

/* ---------------------------------------------------------------- usermode */

static void doorbell(struct host *h, uint32_t chid)
{
	h->stats.doorbells++;
	emit(h->gpu, NVM_EV_TRACE, "host", "doorbell", chid, chid, "doorbell: channel %u", chid);
	if (chid >= HOST_NCHAN) {
		/* UNVERIFIED: a token that names no channel is dropped. */
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "bad_doorbell", R_USERMODE + 0x90, chid,
		     "NOTIFY_CHANNEL_PENDING 0x%x names no channel (4096)", chid);
		return;
	}
	struct chan *c = &h->chan[chid];
	c->work = true;
	if (c->pbdma >= 0) {
		struct pbdma *p = &h->pb[c->pbdma];
		if (!p->ev && p->state == PBS_RUN && !pbdma_stalled(p))
			pbdma_kick(p);
		return;
	}
	if (host_chan_runnable(h, chid) && c->runlist >= 0)
		host_set_chan_status(h, chid, PCCSR_STATUS_PENDING);
	schedule_chan(h, chid);
}

static void wr_notify(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	*stored = 0;
	doorbell(ctx, written);
}

static uint32_t rd_time0(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return (uint32_t)ptimer_read(((struct host *)ctx)->gpu) & ~0x1fu;
}

static uint32_t rd_time1(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return (uint32_t)(ptimer_read(((struct host *)ctx)->gpu) >> 32) & 0x1fffffffu;
}

static const struct reg_desc usermode_regs[] = {
	{ 0x810000, "NV_USERMODE_CFG0", 50017, 0, 0, NULL, NULL },
	{ 0x810080, "NV_USERMODE_TIME_0", 0, 0, 0, rd_time0, NULL },
	{ 0x810084, "NV_USERMODE_TIME_1", 0, 0, 0, rd_time1, NULL },
	{ 0x810090, "NV_USERMODE_NOTIFY_CHANNEL_PENDING", 0, 0xffffffffu, 0, NULL, wr_notify },
};

/* ---------------------------------------------------------------- PFIFO */

static void wr_sched_disable(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)written;
	struct host *h = ctx;
	for (unsigned i = 0; i < h->chip->nrunlist; i++)
		if (FIELD_GET(old, i, i) && !FIELD_GET(*stored, i, i))
			host_schedule(h, &h->rl[i]);
}

static void preempt_pbdma(struct pbdma *p)
{
	if (p->state != PBS_IDLE && !pbdma_stalled(p))
		pbdma_save(p);
}

/* NV_PFIFO_PREEMPT: ID 11:0, TYPE 25:24 (CHANNEL, TSG), PENDING 20:20. The
 * save is done at once (a PBDMA between steps), so PENDING reads 0 after the
 * write; UNVERIFIED: a stalled PBDMA cannot be preempted and the preempt
 * completes anyway (real hardware would time out, CTXSW_TIMEOUT). */
static void wr_preempt(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	uint32_t id = FIELD_GET(written, 11, 0), type = FIELD_GET(written, 25, 24);
	for (unsigned i = 0; i < HOST_NPBDMA; i++) {
		struct pbdma *p = &h->pb[i];
		if (p->chid < 0)
			continue;
		const struct chan *c = &h->chan[p->chid];
		bool hit = type == 0 ? (uint32_t)p->chid == id
		                     : c->runlist >= 0 && c->tsg >= 0 && h->rl[c->runlist].tsg[c->tsg].tsgid == id;
		if (hit) {
			preempt_pbdma(p);
			if (c->runlist >= 0) {
				struct runlist *rl = &h->rl[c->runlist];
				rl->slice_end = h->gpu->now; /* the TSG's timeslice ends */
			}
		}
	}
	/* The engine context of the preempted TSG (or the channel's TSG) is
	 * saved off its engine. */
	int tsgid = type == 0 ? (id < HOST_NCHAN ? chan_tsgid(h, id) : -1) : (int)id;
	for (unsigned i = 0; i < h->chip->nrunlist && tsgid >= 0; i++)
		host_engstat_preempt(h, &h->rl[i], tsgid);
	*stored = FIELD_SET(*stored, 20, 20, 0);
	for (unsigned i = 0; i < h->chip->nrunlist; i++)
		host_schedule(h, &h->rl[i]);
}

static void wr_rl_preempt(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	for (unsigned i = 0; i < h->chip->nrunlist; i++) {
		if (!FIELD_GET(written, i, i))
			continue;
		struct runlist *rl = &h->rl[i];
		for (unsigned q = 0; q < rl->desc->npbdma; q++)
			if (rl->pb[q])
				preempt_pbdma(rl->pb[q]);
		host_engstat_preempt(h, rl, -1);
		rl->slice_end = h->gpu->now;
		host_schedule(h, rl);
	}
	*stored = 0; /* RUNLIST_PREEMPT bits read DONE once the preempt is done */
}

/* NV_PFIFO_USERD_WRITEBACK: the loaded channels' timers take the new period. */
static void wr_userd_writeback(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	struct host *h = ctx;
	for (unsigned i = 0; i < HOST_NPBDMA; i++)
		pbdma_wb_timer(&h->pb[i]);
}

static const struct reg_desc pfifo_regs[] = {
	{ 0x2004, "NV_PFIFO_CFG0", HOST_NPBDMA | (NVM_MMU_ENG_HOST0 << 16), 0, 0, NULL, NULL },
	{ 0x2008, "NV_PFIFO_CFG1", HOST_NCHAN, 0, 0, NULL, NULL },
	{ 0x200c, "NV_PFIFO_CFG2", 50031, 0, 0, NULL, NULL },
	{ 0x2100, "NV_PFIFO_INTR_0", 0, 0, PFIFO_INTR_W1C, rd_pfifo_intr, wr_intr },
	{ 0x2140, "NV_PFIFO_INTR_EN_0", 0, 0xe1810101u, 0, NULL, wr_intr },
	{ 0x2200, "NV_PFIFO_CONFIG", 0, 0x300u, 0, NULL, NULL },
	{ 0x2250, "NV_PFIFO_ACQ_PRETEST", 8, 0xf0ffu, 0, NULL, NULL },
	{ 0x225c, "NV_PFIFO_USERD_WRITEBACK", 0x64, 0xf0ffu, 0, NULL, wr_userd_writeback },
	{ 0x2270, "NV_PFIFO_RUNLIST_BASE", 0, 0x3fffffffu, 0, NULL, NULL },
	{ 0x2274, "NV_PFIFO_RUNLIST", 0, 0x00f0ffffu, 0, NULL, wr_runlist },
	{ 0x2528, "NV_PFIFO_INTR_EN_1", 0, 0xe1810101u, 0, NULL, NULL },
	{ 0x252c, "NV_PFIFO_INTR_BIND_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x2530, "NV_PFIFO_INTR_STALL", 0x01810101u, 0xe1810101u, 0, NULL, NULL },
	{ 0x254c, "NV_PFIFO_INTR_SCHED_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x256c, "NV_PFIFO_INTR_CHSW_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x258c, "NV_PFIFO_INTR_LB_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x25a0, "NV_PFIFO_INTR_PBDMA_ID", 0, 0, 0, rd_pbdma_id, NULL },
	{ 0x2630, "NV_PFIFO_SCHED_DISABLE", 0, 0x1fffu, 0, NULL, wr_sched_disable },
	{ 0x2634, "NV_PFIFO_PREEMPT", 0, 0x03000fffu, 0, NULL, wr_preempt },
	{ 0x2638, "NV_PFIFO_RUNLIST_PREEMPT", 0, 0x1fffu, 0, NULL, wr_rl_preempt },
	{ 0x263c, "NV_PFIFO_SCHED_STATUS", 0, 0, 0, NULL, NULL },
	{ 0x2a00, "NV_PFIFO_INTR_RUNLIST", 0, 0, 0x1fffu, NULL, NULL },
	{ 0x2a0c, "NV_PFIFO_ENG_TIMEOUT", 0x803fffffu, 0xffffffffu, 0, NULL, NULL },
	{ 0x2a14, "NV_PFIFO_CLEAR_FAULTED_TIMEOUT", 0x800003ffu, 0xbfffffffu, 0, NULL, NULL },
};

static const struct reg_desc eng_rl_regs[] = {
	{ 0x0, "NV_PFIFO_ENG_RUNLIST_BASE", 0, 0, 0, NULL, NULL },
	{ 0x4, "NV_PFIFO_ENG_RUNLIST", 0, 0, 0, NULL, NULL },
};
static const struct reg_desc pbdma_map_regs[] = { { 0x0, "NV_PFIFO_PBDMA_MAP", 0, 0, 0, NULL, NULL } };
static const struct reg_desc engstat_regs[] = {
	{ 0x0, "NV_PFIFO_ENGINE_STATUS", 0, 0, 0, NULL, NULL },
	{ 0x4, "NV_PFIFO_ENGINE_STATUS_DEBUG", 0, 0, 0, NULL, NULL },
};
static const struct reg_desc engstat_inst_regs[] = { { 0x0, "NV_PFIFO_ENGINE_STATUS_INST", 0, 0, 0, NULL, NULL } };
static const struct reg_desc engstat_next_inst_regs[] = { { 0x0, "NV_PFIFO_ENGINE_STATUS_NEXT_INST", 0, 0, 0, NULL,
	                                                    NULL } };
static const struct reg_desc pbstat_regs[] = { { 0x0, "NV_PFIFO_PBDMA_STATUS", 0, 0, 0, NULL, NULL } };

static nvm_status add_regs(struct host *h)
{
	const struct reg_array pfifo_arrays[] = {
		{ 0x2280, 8, HOST_NRUNLIST, eng_rl_regs, 2, h->eng_rl_vals },
		{ 0x2390, 4, HOST_NPBDMA, pbdma_map_regs, 1, h->pbdma_map_vals },
		{ 0x2640, 8, HOST_NENGSTAT, engstat_regs, 2, h->engstat_vals },
		{ 0x3080, 4, HOST_NPBDMA, pbstat_regs, 1, h->pbstat_vals },
		{ 0x3100, 4, HOST_NENGSTAT, engstat_inst_regs, 1, h->engstat_inst_vals },
		{ 0x3000, 4, HOST_NENGSTAT, engstat_next_inst_regs, 1, h->engstat_next_inst_vals },
	};
	struct reg_array *arr = malloc(sizeof(pfifo_arrays));
	if (!arr)
		return NVM_ERR_NOMEM;
	memcpy(arr, pfifo_arrays, sizeof(pfifo_arrays));
	h->pfifo_arrays = arr;
	const struct reg_block pfifo = { "host", 0x2000, 0x1200, pfifo_regs, sizeof(pfifo_regs) / sizeof(pfifo_regs[0]),
		                         h,      NULL,   NULL,   arr,        6,
		                         NULL };
	nvm_status st = bus_add(h->gpu, &pfifo);
	if (st)
		return st;
	intr_init(&h->intr, h->gpu, &host_pfifo_intr, h);
	h->pccsr_array = (struct reg_array){ R_PCCSR, 8, HOST_NCHAN, pccsr_regs, 2, h->pccsr };
	const struct reg_block pccsr = { "host", R_PCCSR, HOST_NCHAN * 8,  NULL, 0,   h,
		                         NULL,   NULL,    &h->pccsr_array, 1,    NULL };
	st = bus_add(h->gpu, &pccsr);
	if (st)
		return st;
	const struct reg_block um = {
		"host", R_USERMODE, 0x100, usermode_regs, sizeof(usermode_regs) / sizeof(usermode_regs[0]), h, NULL,
		NULL,   NULL,       0,     NULL
	};
	st = bus_add(h->gpu, &um);
	return st ? st : pbdma_add_regs(h);
}

/* ---------------------------------------------------------------- block */

static void host_destroy(nvm_gpu *gpu, void *state)
{
	(void)gpu;
	struct host *h = state;
	if (!h)
		return;
	for (unsigned i = 0; i < HOST_NPBDMA; i++)
		pbdma_fini(&h->pb[i]);
	for (unsigned i = 0; i < HOST_NRUNLIST; i++)
		rl_clear(&h->rl[i]);
	for (size_t i = 0; i < h->nengines; i++)
		engine_free(h->engines[i]);
	free(h->pfifo_arrays);
	free(h->pccsr);
	free(h);
}

static nvm_status add_engine(struct host *h, const char *kind, const char *name, unsigned mmu_id, struct engine **out)
{
	if (!name) {
		*out = NULL;
		return NVM_OK;
	}
	nvm_status st = engine_new(h->gpu, kind, name, mmu_id, out);
	if (!st) {
		(*out)->nonstall = host_nonstall;
		(*out)->host = h;
		h->engines[h->nengines++] = *out;
	}
	return st;
}

static nvm_status host_create(nvm_gpu *gpu, const void *data, void **state)
{
	struct host *h = calloc(1, sizeof(*h));
	if (!h)
		return NVM_ERR_NOMEM;
	*state = h;
	h->gpu = gpu;
	h->chip = data;
	h->host_class = pb_class_find(0xC36F);
	h->pccsr = calloc(2u * HOST_NCHAN, sizeof(uint32_t));
	if (!h->pccsr)
		return NVM_ERR_NOMEM;
	for (unsigned i = 0; i < HOST_NCHAN; i++)
		h->chan[i] = (struct chan){ .runlist = -1, .tsg = -1, .pbdma = -1 };
	for (unsigned i = 0; i < HOST_NPBDMA; i++)
		pbdma_init(h, &h->pb[i], i);
	nvm_status st = NVM_OK;
	for (unsigned i = 0; i < h->chip->nrunlist && !st; i++) {
		struct runlist *rl = &h->rl[i];
		rl->id = i;
		rl->desc = &h->chip->rl[i];
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
		st = add_regs(h);
	/* NV_PFIFO_PBDMA_MAP(i) RUNLISTS 15:0 (after bus_add set the resets) */
	for (unsigned i = 0; !st && i < h->chip->nrunlist; i++)
		for (unsigned q = 0; q < h->rl[i].desc->npbdma; q++)
			h->pbdma_map_vals[h->rl[i].pb[q]->id] |= 1u << i;
	return st;
}

static bool host_busy(void *state)
{
	struct host *h = state;
	for (unsigned i = 0; i < HOST_NPBDMA; i++)
		if (h->pb[i].ev)
			return true;
	return false;
}

const struct block_class host_class = { "host", host_create, host_destroy, host_busy };

/* ---------------------------------------------------------------- public API */

static struct engine *find_engine(struct host *h, const char *name)
{
	return h ? engine_find(h->engines, h->nengines, name) : NULL;
}

nvm_status nvm_host_log_config(nvm_gpu *gpu, const char *engine, size_t cap)
{
	struct engine *e = find_engine(host_of(gpu), engine);
	return e ? engine_log_config(e, cap) : gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
}

nvm_status nvm_host_log_read(nvm_gpu *gpu, const char *engine, size_t first, nvm_host_method *out, size_t max,
                             size_t *n, uint64_t *total)
{
	struct engine *e = find_engine(host_of(gpu), engine);
	if (!e)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	return engine_log_read(e, first, out, max, n, total);
}

nvm_status nvm_host_log_clear(nvm_gpu *gpu, const char *engine)
{
	struct engine *e = find_engine(host_of(gpu), engine);
	if (!e)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	engine_log_clear(e);
	return NVM_OK;
}

nvm_status nvm_host_channel_info(nvm_gpu *gpu, uint32_t chid, nvm_host_channel *out)
{
	struct host *h = host_of(gpu);
	if (!gpu || !out || chid >= HOST_NCHAN)
		return NVM_ERR_ARG;
	if (!h)
		return NVM_ERR_NOENT;
	uint32_t inst = h->pccsr[2 * chid], ch = h->pccsr[2 * chid + 1];
	const struct chan *c = &h->chan[chid];
	*out = (nvm_host_channel){
		.chid = chid,
		.bound = (int)FIELD_GET(inst, 31, 31),
		.enabled = (int)FIELD_GET(ch, 0, 0),
		.status = FIELD_GET(ch, 27, 24),
		.busy = (int)FIELD_GET(ch, 28, 28),
		.pbdma_faulted = (int)FIELD_GET(ch, 22, 22),
		.eng_faulted = (int)FIELD_GET(ch, 23, 23),
		.runlist = c->runlist,
		.tsgid = c->runlist >= 0 && c->tsg >= 0 ? (int)h->rl[c->runlist].tsg[c->tsg].tsgid : -1,
		.pbdma = c->pbdma,
		.inst = (uint64_t)FIELD_GET(inst, 27, 0) << 12,
		.inst_target = FIELD_GET(inst, 29, 28),
		.methods = c->methods,
	};
	return NVM_OK;
}

nvm_status nvm_host_set_method_crc(nvm_gpu *gpu, int on)
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
