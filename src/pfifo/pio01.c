/*
 * PFIFO of NV01 and NV03: the PIO unit both generations share (pio01.h).
 * A CPU store to the USER area goes into CACHE1 when the channel owns it
 * and there is room, else to RAMRO with a reason, by the rules of the
 * hardware-validated simulator in envytools hwtest/pfifo.cc
 * (pfifo_sim_user_write, "E-hw" below); CACHE1 has Gray-coded PUT/GET; a
 * store for another channel switches CACHE1 through RAMFC; the puller
 * looks method 0's handle up in RAMHT, keeps the 24-bit context per
 * subchannel and sends it to PGRAPH through method 0 on a bind, a
 * subchannel change and after a channel switch (puller.rst "Engine
 * objects"). The generations' tables are nv01.c and nv03.c.
 */
#include <string.h>

#include "pio01.h"

static struct pio01 *P(struct pfifo *f)
{
	return (struct pio01 *)f;
}

/* ---------------------------------------------------------------- Gray code */

/* E-hw pfifo_cache1_next: from 0, next visits the slots 0, 1, 3, 2, 6 ...
 * 16, 0: gray(i) = i ^ i >> 1 of the linear index i (5 bits; 6 on the
 * NV3T's 64 entries, UNVERIFIED). */
static uint32_t glin(const struct pio01 *p, uint32_t ptr)
{
	uint32_t m = p->im->slots - 1, i = (ptr >> 2) & m;
	i ^= i >> 1;
	i ^= i >> 2;
	i ^= i >> 4;
	return i & m;
}

static uint32_t gnext(const struct pio01 *p, uint32_t ptr)
{
	uint32_t i = (glin(p, ptr) + 1) & (p->im->slots - 1);
	return (i ^ i >> 1) << 2;
}

static bool c1_empty(const struct pio01 *p)
{
	return *p->c1_get == *p->c1_put;
}

static bool c1_full(const struct pio01 *p)
{
	return gnext(p, *p->c1_put) == *p->c1_get;
}

static uint32_t c1_chid(const struct pio01 *p)
{
	return *p->c1_chid & 0x7f;
}

static bool ramro_empty(const struct pio01 *p)
{
	return *p->runout_get == *p->runout_put;
}

static void layout(struct pio01 *p, struct p1_layout *l)
{
	p->im->layout(p, l);
}

/* ---------------------------------------------------------------- RAMRO */

static const char *const reason_names[8] = { "ILLEGAL_ACCESS",
	                                     "NO_CACHE_AVAILABLE",
	                                     "CACHE_RAN_OUT",
	                                     "FREE_COUNT_OVERRUN",
	                                     "CAUGHT_LYING",
	                                     "RESERVED_ACCESS",
	                                     "?",
	                                     "?" };

/* E-hw pfifo_runout: RUNOUT, then the entry at RUNOUT_PUT unless RAMRO is
 * full (next(PUT) == GET: RUNOUT_OVERFLOW too, the entry is lost and PUT
 * stays). With intr false (a refused password-area store) nothing is
 * raised or written but PUT still moves. The pointers wrap at the RAMRO
 * size (E-hw: (1 << (RAM_SIZE + 11)) - 8 on NV1). */
static void runout(struct pio01 *p, uint32_t w, uint32_t d, bool intr)
{
	struct pfifo *f = &p->f;
	struct p1_layout l;
	layout(p, &l);
	uint32_t m = l.ramro_size - 8, put = *p->runout_put & m, next = (put + 8) & m;
	unsigned reason = w >> 28;
	uint32_t chid = (w >> 16) & 0x7f, subc = (w >> 13) & 7, mthd = w & 0x1fff;
	if (next == *p->runout_get) {
		if (!intr)
			return;
		f->stats.ramro_overflows++;
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "runout_overflow", PFIFO_USER + (w & 0x7fffff), d,
		     "channel %u subchannel %u offset 0x%04x: %s, and RAMRO is full: the access is lost "
		     "(RUNOUT_OVERFLOW)",
		     chid, subc, mthd, reason_names[reason & 7]);
		pfifo_raise(f, INTR_RUNOUT | INTR_RUNOUT_OVERFLOW);
		return;
	}
	*p->runout_put = next;
	if (!intr)
		return;
	pfifo_ramin_wr32(f, l.ramro + put, w);
	pfifo_ramin_wr32(f, l.ramro + put + 4, d);
	f->stats.ramro_entries++;
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "runout", PFIFO_USER + (w & 0x7fffff), reason,
	     "channel %u subchannel %u offset 0x%04x data 0x%08x: %s, stored in RAMRO at 0x%05x (RUNOUT)", chid, subc,
	     mthd, d, reason_names[reason & 7], l.ramro + put);
	pfifo_raise(f, INTR_RUNOUT);
}

/* ---------------------------------------------------------------- channel switch */

/* E-hw, a store for another channel while CACHE1 is empty, RAMRO empty and
 * CHSW_ENABLE set: save CACHE1's channel to RAMFC (word i = CTX[i] with
 * PULL_STATE SUBCHANNEL in 30:28 and OBJECT in 31; word 0 always, 1..7
 * only when PULL_STATE CTX says a context changed), load the new one
 * (CTX[i] = word i, PULL_STATE from word 0, CTX clear). RAMFC holds 64
 * channels on NV1 with RAM_SIZE 0 (the channel number's bit 6 dropped). */
static void chsw(struct pio01 *p, uint32_t nchid)
{
	struct pfifo *f = &p->f;
	struct p1_layout l;
	layout(p, &l);
	uint32_t old = c1_chid(p), ps = *p->c1_pstate;
	uint32_t base = l.ramfc + (old % l.ramfc_chans) * 32;
	for (unsigned i = 0; i < 8; i++) {
		uint32_t v = *p->c1_ctx[i];
		v = FIELD_SET(v, 30, 28, ps & 7);
		v = FIELD_SET(v, 31, 31, (ps >> 8) & 1);
		if (i == 0 || (ps & P1_PS_CTX))
			pfifo_ramin_wr32(f, base + 4 * i, v);
	}
	base = l.ramfc + (nchid % l.ramfc_chans) * 32;
	uint32_t w0 = 0;
	for (unsigned i = 0; i < 8; i++) {
		uint32_t w;
		pfifo_ramin_rd32(f, base + 4 * i, &w);
		if (!i)
			w0 = w;
		*p->c1_ctx[i] = w & p->im->ctx_mask;
	}
	*p->c1_pstate = (ps & ~0x117u) | FIELD_GET(w0, 30, 28) | FIELD_GET(w0, 31, 31) << 8;
	*p->c1_chid = (*p->c1_chid & ~0x7fu) | nchid;
	/* puller.rst: the context goes to the engine again after a switch */
	p->resend = true;
	f->stats.ctx_switches++;
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "ctx_switch", nchid, old, "CACHE1: channel %u out, channel %u in (PIO)",
	     old, nchid);
}

/* ---------------------------------------------------------------- the USER area */

/* Why a store with byte enables be (bit i: byte i of the word) to offset
 * m of channel nchid's USER area is refused, or -1: the rules of E-hw
 * pfifo_sim_user_write, first match wins (a store for another channel
 * that may have CACHE1 switches it here). *intr false: refused quietly. */
static int refusal(struct pio01 *p, uint32_t nchid, uint32_t m, unsigned be, bool *intr)
{
	uint32_t c1 = c1_chid(p);
	bool can_switch = (*p->chsw & 1) && ramro_empty(p) && c1_empty(p);
	*intr = true;
	if ((m & 0x1ff0) == 0x20) {
		/* the "password area": no RAMRO entry, no interrupt, RUNOUT_PUT
		 * still moves; a good store has no effect on CACHE1 (UNVERIFIED:
		 * nv1-vram.rst's password storage) */
		*intr = false;
		return be != 0xf || (nchid != c1 && !can_switch) ? P1_ILLEGAL_ACCESS : -1;
	}
	if ((m & 0x1ff0) == 0x10 && (be == 0x3 || be == 0xc || be == 0xf))
		return P1_RESERVED_ACCESS; /* FREE written as 16 or 32 bits */
	if (be != 0xf)
		return P1_ILLEGAL_ACCESS; /* not a whole word */
	if ((m & 0x1f00) == 0 && (m & 0x1ffc) != 0)
		return P1_RESERVED_ACCESS; /* 0x04..0xfc but OBJECT */
	if (!(*p->c1_push & 1) || (nchid == (*p->c0_chid & 0x7f) && (*p->c0_push & 1)))
		return P1_NO_CACHE_AVAILABLE; /* pushing off, or the channel is on CACHE0 */
	if (nchid != c1) {
		if (!can_switch)
			return P1_NO_CACHE_AVAILABLE;
		chsw(p, nchid);
		return -1;
	}
	if (p->runout)
		return P1_CACHE_RAN_OUT;
	if (c1_full(p)) /* did the puller's subchannel claim room it did not have? */
		return (*p->c1_ctx[*p->c1_pstate & 7] >> 24) & 1 ? P1_CAUGHT_LYING : P1_FREE_COUNT_OVERRUN;
	return -1;
}

/* A store (data val already in its byte lanes) to byte address addr of the
 * USER area: into CACHE1, or to RAMRO with its reason (the runout flag set
 * when it is CACHE1's channel). */
static void user_store(struct pio01 *p, uint32_t addr, uint32_t val, unsigned be)
{
	struct pfifo *f = &p->f;
	uint32_t off = (addr - PFIFO_USER) & 0x7fffffu, nchid = (off >> 16) & 0x7f, m = off & 0x1fff;
	uint32_t c1 = c1_chid(p);
	bool intr;
	int err = refusal(p, nchid, m, be, &intr);
	if (err < 0 && intr) {
		uint32_t slot = (*p->c1_put >> 2) & (p->im->slots - 1);
		p->addr[slot] = off & 0xfffc;
		p->data[slot] = val;
		*p->c1_put = gnext(p, *p->c1_put);
		f->stats.pio_writes++;
		f->stats.cache_pushes++;
		pfifo_kick(f);
		return;
	}
	if (err < 0)
		return;
	if (nchid == c1)
		p->runout = true;
	runout(p, off | (uint32_t)err << 28, val, intr);
}

static void p1_pio_store(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size)
{
	struct pio01 *p = P(f);
	uint32_t lane = addr & 3, w = addr & ~3u;
	unsigned be = ((1u << size) - 1) << lane;
	if (size == 4 && !lane) {
		user_store(p, w, val, 0xf);
		return;
	}
	/* E-hw: a store across a word boundary is two accesses, each with
	 * its part of the data in its byte lanes */
	val &= size == 4 ? 0xffffffffu : (1u << 8 * size) - 1;
	user_store(p, addr, val << 8 * lane, be & 0xf); /* RAMRO keeps the byte address (E-hw) */
	if (be & 0xf0)
		user_store(p, w + 4, val >> 8 * (4 - lane), be >> 4);
}

/* FREE (USER 0x10), E-hw pfifo_cache1_free: 0 while CACHE1 ran out; for a
 * channel that does not hold CACHE1 (or pushing off) 0x7c (UNVERIFIED on
 * the NV3T: its 63 free entries, 0xfc), or 0 while
 * RAMRO has entries; the NV1 free-count lie (CONFIG FREE_LIE with CTX
 * FREE_LIE of the puller's subchannel); else the free bytes of CACHE1 (one
 * slot stays empty). */
static uint32_t free_count(struct pio01 *p, uint32_t nchid)
{
	if (p->runout)
		return 0;
	uint32_t all = (p->im->slots - 1) * 4;
	if (nchid != c1_chid(p) || !(*p->c1_push & 1))
		return ramro_empty(p) ? all : 0;
	uint32_t lie = *p->config & 3, subc = *p->c1_pstate & 7;
	if (p->im->free_lie && lie && ((*p->c1_ctx[subc] >> 24) & 1))
		return (0x100u << (lie - 1)) - 4;
	return ((glin(p, *p->c1_get) - glin(p, *p->c1_put) - 1) * 4) & all;
}

/* Reads: FREE, bits 15:0 (rivafb reads it with 32 bits, xf86-video-nv with
 * 16). Any other offset: rnndb NV1_RAMRO says a read runs out as
 * ILLEGAL_ACCESS with TYPE (23) READ. UNVERIFIED (no hardware test of
 * reads): it takes the store's error path and reads 0. */
static uint32_t p1_user_read(struct pfifo *f, uint32_t addr)
{
	struct pio01 *p = P(f);
	uint32_t off = (addr - PFIFO_USER) & 0x7fffffu, nchid = (off >> 16) & 0x7f;
	if ((off & 0x1ffc) == 0x10)
		return free_count(p, nchid);
	if (nchid == c1_chid(p))
		p->runout = true;
	runout(p, (off & ~3u) | 1u << 23 | (uint32_t)P1_ILLEGAL_ACCESS << 28, 0, true);
	return 0;
}

/* pusher_pio_store's refusals never reach NV01/NV03 (pio_store is
 * p1_pio_store); a generation operation must be filled. */
static void p1_pio_refused(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size, unsigned reason)
{
	(void)size;
	runout(P(f), ((addr - PFIFO_USER) & 0x7fffffu) | (reason & 7) << 28, val, true);
}

/* ---------------------------------------------------------------- RAMHT */

/* NV3 RAMHT (digest 5.4): 8-byte entries {handle, context with the channel
 * in 30:24}; the bucket of h = the XOR of the handle's bytes and the
 * channel is at RAMHT + h * size / 256 and holds size / 2048 entries,
 * searched in order (rivafb's RAMHT confirms the 4 KiB case: its channel-0
 * objects sit at 0x800 + 16 * h). UNVERIFIED: the channel in the hash,
 * the larger buckets (86Box only), no search past the bucket; NV1's
 * format is undocumented (puller.rst: "You don't want to know"): the model
 * gives it NV3's. */
static bool p1_lookup(struct pio01 *p, uint32_t chid, uint32_t handle, uint32_t *ctx)
{
	struct pfifo *f = &p->f;
	struct p1_layout l;
	layout(p, &l);
	uint32_t h = ramht_xor_hash(handle, chid);
	uint32_t per = l.ramht_size / 256, base = l.ramht + h * per;
	f->stats.ramht_lookups++;
	for (uint32_t i = 0; i < per; i += 8) {
		uint32_t hd, c;
		if (!pfifo_ramin_rd32(f, base + i, &hd) || !pfifo_ramin_rd32(f, base + i + 4, &c))
			break;
		if (hd == handle && FIELD_GET(c, 30, 24) == chid) {
			*ctx = c & 0xffffffu;
			return true;
		}
	}
	f->stats.ramht_misses++;
	return false;
}

static bool p1_ramht_lookup(struct pfifo *f, uint32_t chid, uint32_t handle, uint32_t *inst, unsigned *engine)
{
	struct pio01 *p = P(f);
	uint32_t ctx;
	if (!p1_lookup(p, chid, handle, &ctx))
		return false;
	*inst = (ctx & 0xffff) << 4;
	*engine = (ctx >> p->im->eng_bit) & 1 ? ENG_PGRAPH : ENG_SOFTWARE;
	return true;
}

/* ---------------------------------------------------------------- the puller */

/* One method to an engine's recorder with the context in force. */
static void deliver(struct pio01 *p, struct engine *e, uint32_t chid, uint32_t subc, uint32_t m, uint32_t d,
                    uint32_t ctx, bool implicit, uint64_t *t)
{
	struct pfifo *f = &p->f;
	/* UNVERIFIED: the class is the context's object type (22:16) */
	struct eng_src src = { .chid = chid,
		               .subch = subc,
		               .cls = FIELD_GET(ctx, 22, 16),
		               .ctx = ctx,
		               .implicit = implicit };
	nvm_pb_run r = { .subch = subc, .method = m, .count = 1, .mode = NVM_PB_MODE_INC, .data = &d };
	struct eng_result res = { 0 };
	e->at = *t > f->gpu->now ? *t : f->gpu->now;
	e->ops->methods(e, &src, &r, 0, 1, &res);
	e->at = 0;
	*t += res.cost + PFIFO_NS_PULL;
	e->busy_until = *t;
	if (e == f->pgraph)
		f->stats.engine_methods++;
	if (emit_wanted(f->gpu, NVM_EV_METHOD))
		emit(f->gpu, NVM_EV_METHOD, "pfifo", e->name, m, d,
		     "channel %u subchannel %u context 0x%06x: method 0x%04x data 0x%08x%s", chid, subc, ctx, m, d,
		     implicit ? " (context sent by PFIFO)" : "");
}

/* CACHE_ERROR: the cache's bit in CACHE_ERROR (0: CACHE0, 4: CACHE1), the
 * reason in its PULL_CTRL, INTR CACHE_ERROR; the entry stays at GET. */
static void cache_error(struct pio01 *p, bool c0, uint32_t bit, uint32_t chid, uint32_t a, uint32_t d, const char *code,
                        const char *why)
{
	struct pfifo *f = &p->f;
	*(c0 ? p->c0_pull : p->c1_pull) |= bit;
	*p->cache_error |= c0 ? 1u : 0x10u;
	f->stats.cache_errors++;
	emit(f->gpu, bit == P1_PULL_DEVICE_SOFTWARE ? NVM_EV_TRACE : NVM_EV_GUEST_ERROR, "pfifo", code, (a >> 13) & 7,
	     d, "%schannel %u subchannel %u method 0x%04x data 0x%08x: CACHE_ERROR, %s", c0 ? "CACHE0: " : "", chid,
	     (a >> 13) & 7, a & 0x1ffc, d, why);
	pfifo_raise(f, INTR_CACHE_ERROR);
}

/* The SOFTWARE engine (context engine bit 0): it logs the method, the
 * puller stops with CACHE_ERROR DEVICE_SOFTWARE (puller.rst). */
static void software(struct pio01 *p, bool c0, uint32_t chid, uint32_t a, uint32_t d, uint32_t ctx, uint64_t *t)
{
	p->f.stats.sw_methods++;
	deliver(p, p->f.sw, chid, (a >> 13) & 7, a & 0x1ffc, d, ctx, false, t);
	cache_error(p, c0, P1_PULL_DEVICE_SOFTWARE, chid, a, d, "sw_method",
	            "the SOFTWARE engine waits for the driver");
}

static bool to_pgraph(const struct pio01 *p, uint32_t ctx)
{
	return (ctx >> p->im->eng_bit) & 1;
}

/* One entry of a cache (puller.rst "Engine objects"): method 0 binds the
 * handle's context to the subchannel and sends it to the engine; another
 * method first sends the subchannel's context when the subchannel is not
 * the last one used or a channel switch came between (CACHE1), or always
 * (CACHE0, UNVERIFIED: it keeps no last subchannel). Returns false when
 * the puller stops at the entry. */
static bool pull_entry(struct pio01 *p, bool c0, uint32_t chid, uint32_t a, uint32_t d, uint64_t *t)
{
	struct pfifo *f = &p->f;
	uint32_t subc = (a >> 13) & 7, m = a & 0x1ffc;
	uint32_t *ctxr = c0 ? p->c0_ctx : p->c1_ctx[subc];
	if (m == 0) {
		uint32_t ctx;
		*t += PFIFO_NS_HASH;
		if (!p1_lookup(p, chid, d, &ctx)) {
			cache_error(p, c0, P1_PULL_HASH_FAILED, chid, a, d, "no_hash",
			            "handle not in RAMHT for this channel (HASH_FAILED)");
			return false;
		}
		*ctxr = ctx & p->im->ctx_mask;
		if (!c0)
			*p->c1_pstate |= P1_PS_CTX | P1_PS_OBJECT;
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "bind", subc, ctx,
		     "%schannel %u subchannel %u: handle 0x%08x -> context 0x%06x (%s)", c0 ? "CACHE0: " : "", chid,
		     subc, d, ctx, to_pgraph(p, ctx) ? "pgraph" : "software");
		if (!to_pgraph(p, ctx)) {
			software(p, c0, chid, a, d, *ctxr, t);
			return false;
		}
		deliver(p, f->pgraph, chid, subc, 0, *ctxr, *ctxr, false, t);
	} else {
		uint32_t ctx = *ctxr;
		if (!to_pgraph(p, ctx)) {
			software(p, c0, chid, a, d, ctx, t);
			return false;
		}
		if (c0 || subc != (*p->c1_pstate & 7) || p->resend)
			deliver(p, f->pgraph, chid, subc, 0, ctx, ctx, true, t);
		deliver(p, f->pgraph, chid, subc, m, d, ctx, false, t);
	}
	if (!c0) {
		*p->c1_pstate = (*p->c1_pstate & ~7u) | subc;
		p->resend = false;
	}
	f->stats.methods++;
	return true;
}

/* CACHE1's puller: PULL_CTRL ACCESS set, no CACHE_ERROR1 pending, entries
 * between GET and PUT (taken at Gray slot GET >> 2). */
static uint32_t pull_cache1(struct pio01 *p, uint32_t max, uint64_t *t)
{
	uint32_t n = 0;
	while (n < max && (*p->c1_pull & P1_PULL_ACCESS) && !(*p->cache_error & 0x10) && !c1_empty(p)) {
		uint32_t slot = (*p->c1_get >> 2) & (p->im->slots - 1);
		if (!pull_entry(p, false, c1_chid(p), p->addr[slot], p->data[slot], t))
			break;
		*p->c1_get = gnext(p, *p->c1_get);
		n++;
	}
	return n;
}

/* CACHE0 (one entry, full while PUT != GET): what a driver injects by hand
 * (E-hw pgraph_mthd.cc drives PGRAPH through it). */
static uint32_t pull_cache0(struct pio01 *p, uint64_t *t)
{
	if (!(*p->c0_pull & P1_PULL_ACCESS) || (*p->cache_error & 1) || *p->c0_put == *p->c0_get)
		return 0;
	if (!pull_entry(p, true, *p->c0_chid & 0x7f, *p->c0_addr & 0xfffc, *p->c0_data, t))
		return 0;
	*p->c0_get = *p->c0_put;
	return 1;
}

static void p1_step(struct pfifo *f)
{
	struct pio01 *p = P(f);
	nvm_gpu *gpu = f->gpu;
	uint64_t t = gpu->now;
	uint32_t done = 0;
	bool more = false;
	for (;;) {
		if (!sched_budget_left(gpu) || done >= PFIFO_STEP_WORDS) {
			more = true;
			break;
		}
		uint32_t n = pull_cache0(p, &t);
		n += pull_cache1(p, PFIFO_STEP_WORDS - done, &t);
		if (!n)
			break;
		done += n;
		f->work_rest += n;
		sched_charge(gpu, f->work_rest / PFIFO_WORK_PER_UNIT);
		f->work_rest %= PFIFO_WORK_PER_UNIT;
	}
	if (more || done)
		pfifo_kick_at(f, t > gpu->now ? t : gpu->now + 1);
}

/* ---------------------------------------------------------------- registers */

/* INTR (write 1 to clear): writing CACHE_ERROR clears the CACHE_ERROR
 * register too (86Box vid_riva128.c; UNVERIFIED elsewhere), so the pullers
 * go on. */
void p1_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)stored;
	(void)old;
	struct pio01 *p = ctx;
	if (r->offset == P1_INTR && (written & INTR_CACHE_ERROR))
		*p->cache_error = 0;
	pfifo_update_intr(&p->f);
	pfifo_kick(&p->f);
}

void p1_wr_kick(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	pfifo_kick(ctx);
}

/* NV03 CACHE1 DMA_CTRL ACCESS (rnndb): the launch of the kernel-driven DMA
 * (digest 8: the header format and the fetch are undocumented). Not
 * modelled: the registers keep what is written, the launch is reported
 * and nothing is fetched; DMA_CTRL reads back the ACCESS bit. */
void p1_wr_dma_ctrl(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct pio01 *p = ctx;
	if (*stored & 1)
		emit(p->f.gpu, NVM_EV_UNMODELLED, "pfifo", "nv3_dma", bus_get(p->f.gpu, 0x3228), written,
		     "NV3 DMA launch (DMA_GET 0x%06x, DMA_COUNT 0x%06x, DMA_TARGET %u): the NV3 DMA pusher is not "
		     "modelled",
		     bus_get(p->f.gpu, 0x3228), bus_get(p->f.gpu, 0x3224), bus_get(p->f.gpu, 0x322c));
}

/* PULL_CTRL: ACCESS writable; HASH_FAILED and DEVICE_SOFTWARE read-only
 * (E-hw scan). UNVERIFIED: a write clears them (as the NV04 model's PULL0). */
void p1_wr_pull_ctrl(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	*stored &= P1_PULL_ACCESS;
	pfifo_kick(ctx);
}

/* RUNOUT_PUT / RUNOUT_GET: RAMRO made empty clears the CACHE1 runout flag.
 * UNVERIFIED (digest 3: E-hw treats the flag with RAMRO empty as
 * impossible and loads a clean state by writing PUT = GET). */
void p1_wr_runout_ptr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	struct pio01 *p = ctx;
	if (ramro_empty(p))
		p->runout = false;
	pfifo_kick(&p->f);
}

/* E-hw PFifoStatusTest: RUNOUT_STATUS EMPTY 4 (PUT == GET) or RANOUT 0,
 * FULL 8 when GET == next(PUT). */
uint32_t p1_rd_runout_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pio01 *p = ctx;
	struct p1_layout l;
	layout(p, &l);
	uint32_t v = ramro_empty(p) ? 0x10u : 0x1u;
	if (*p->runout_get == ((*p->runout_put + 8) & (l.ramro_size - 8)))
		v |= 0x100;
	return v;
}

/* CACHE0 STATUS: EMPTY 4 when PUT == GET, else FULL 8. */
uint32_t p1_rd_c0_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pio01 *p = ctx;
	return *p->c0_put == *p->c0_get ? 0x10u : 0x100u;
}

/* CACHE1 STATUS: EMPTY 4, or FULL 8 when next(PUT) == GET; RANOUT 0 is the
 * runout flag. */
uint32_t p1_rd_c1_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pio01 *p = ctx;
	uint32_t v = c1_empty(p) ? 0x10u : c1_full(p) ? 0x100u : 0;
	return v | (p->runout ? 1u : 0);
}

/* PULL_STATE: the puller keeps SUBCHANNEL 2:0, CTX 4 and OBJECT 8 on both
 * generations; NV3 shows only CTX (E-hw scan mask 0x10). UNVERIFIED: NV3
 * keeps the others hidden and saves them to RAMFC as NV1 does. */
uint32_t p1_rd_pull_state(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct pio01 *p = ctx;
	return stored & p->im->pull_state_mask;
}

/* CACHE1 ADDR(i) / DATA(i) at 0x3300 + 8i (NV3T: 0x3400 + 8i, 64 of them),
 * by raw slot index (E-hw). */
static bool p1_win_rd(struct pfifo *f, uint32_t addr, uint32_t *val)
{
	struct pio01 *p = P(f);
	uint32_t base = p->im->array;
	if (addr < base || addr >= base + p->im->slots * 8)
		return false;
	uint32_t i = (addr - base) >> 3;
	*val = addr & 4 ? p->data[i] : p->addr[i];
	return true;
}

static bool p1_win_wr(struct pfifo *f, uint32_t addr, uint32_t val)
{
	struct pio01 *p = P(f);
	uint32_t base = p->im->array;
	if (addr < base || addr >= base + p->im->slots * 8)
		return false;
	uint32_t i = (addr - base) >> 3;
	if (addr & 4)
		p->data[i] = val;
	else
		p->addr[i] = val & 0xfffc;
	return true;
}

/* ---------------------------------------------------------------- reset */

/* PMC ENABLE bit 8 clear (nv1-pfifo.rst "Introduction"): WAIT_RETRY,
 * INTR_EN, CHSW_ENABLE, both PUSH_ACCESS, both PULL_CTRL ACCESS and
 * CACHE1.DMA_CTRL go to 0; on NV3 also RAMHT 0, RAMFC 0x1c00, RAMRO
 * 0x1e00, PULL_STATE 0 (the generation's reset values of those
 * registers: struct pio01_impl reset). Nothing else changes. UNVERIFIED:
 * it happens on every write that leaves bit 8 clear; the runout flag stays. */
static void pmc_enable(void *ctx, uint32_t old, uint32_t val)
{
	(void)old;
	struct pio01 *p = ctx;
	if (val & (1u << 8))
		return;
	for (size_t i = 0; i < p->f.nregs; i++) {
		const struct reg_desc *r = &p->f.regs[i];
		for (size_t k = 0; k < p->im->nreset; k++)
			if (p->im->reset[k] == r->offset)
				bus_set(p->f.gpu, r->offset, r->reset);
	}
	*p->c0_pull &= ~P1_PULL_ACCESS;
	*p->c1_pull &= ~P1_PULL_ACCESS;
	pfifo_update_intr(&p->f);
}

/* ---------------------------------------------------------------- RAMFC */

static bool p1_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w)
{
	struct p1_layout l;
	layout(P(f), &l);
	return pfifo_ramin_rd32(f, l.ramfc + (chid % l.ramfc_chans) * 32 + off, w);
}

static bool p1_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w)
{
	struct p1_layout l;
	layout(P(f), &l);
	return pfifo_ramin_wr32(f, l.ramfc + (chid % l.ramfc_chans) * 32 + off, w);
}

static uint32_t p1_ramfc_base(const struct pfifo *f)
{
	struct p1_layout l;
	layout(P((struct pfifo *)f), &l);
	return l.ramfc;
}

static bool p1_chan_dma(const struct pfifo *f, uint32_t chid)
{
	(void)f;
	(void)chid;
	return false; /* PIO only (NV03's DMA is not modelled) */
}

static int p1_next_channel(struct pfifo *f)
{
	(void)f;
	return -1; /* no switcher: a USER store switches (E-hw) */
}

static bool p1_false(struct pfifo *f)
{
	(void)f;
	return false;
}

static uint32_t p1_pusher_run(struct pfifo *f, uint32_t max, uint64_t *t)
{
	(void)f;
	(void)max;
	(void)t;
	return 0;
}

/* ---------------------------------------------------------------- init */

static nvm_status p1_init(struct pfifo *f)
{
	struct pio01 *p = P(f);
	const struct pio01_impl *im = f->chip->impl;
	nvm_gpu *g = f->gpu;
	p->im = im;
	p->intr = pfifo_reg_slot(f, P1_INTR);
	p->cache_error = pfifo_reg_slot(f, P1_CACHE_ERROR);
	p->config = pfifo_reg_slot(f, P1_CONFIG);
	p->runout_put = pfifo_reg_slot(f, P1_RUNOUT_PUT);
	p->runout_get = pfifo_reg_slot(f, P1_RUNOUT_GET);
	p->chsw = pfifo_reg_slot(f, P1_CHSW_ENABLE);
	p->c0_push = pfifo_reg_slot(f, P1_C0_PUSH_ACCESS);
	p->c0_chid = pfifo_reg_slot(f, im->c0_chid);
	p->c0_put = pfifo_reg_slot(f, im->c0_put);
	p->c0_get = pfifo_reg_slot(f, P1_C0_GET);
	p->c0_pull = pfifo_reg_slot(f, P1_C0_PULL_CTRL);
	p->c0_ctx = pfifo_reg_slot(f, P1_C0_CTX);
	p->c0_addr = pfifo_reg_slot(f, P1_C0_ADDR);
	p->c0_data = pfifo_reg_slot(f, P1_C0_DATA);
	p->c1_push = pfifo_reg_slot(f, P1_C1_PUSH_ACCESS);
	p->c1_chid = pfifo_reg_slot(f, im->c1_chid);
	p->c1_put = pfifo_reg_slot(f, im->c1_put);
	p->c1_get = pfifo_reg_slot(f, P1_C1_GET);
	p->c1_pull = pfifo_reg_slot(f, P1_C1_PULL_CTRL);
	p->c1_pstate = pfifo_reg_slot(f, P1_C1_PULL_STATE);
	for (unsigned i = 0; i < 8; i++)
		p->c1_ctx[i] = pfifo_reg_slot(f, P1_C1_CTX(i));
	port_pmc_enable_connect(g, pmc_enable, p);
	return im->init ? im->init(p) : NVM_OK;
}

const struct pfifo_ops pio01_ops = {
	.init = p1_init,
	.win_rd = p1_win_rd,
	.win_wr = p1_win_wr,
	.ramfc_rd = p1_ramfc_rd,
	.ramfc_wr = p1_ramfc_wr,
	.ramfc_base = p1_ramfc_base,
	.chan_dma = p1_chan_dma,
	.next_channel = p1_next_channel,
	.chan_busy = p1_false,
	.pusher_ready = p1_false,
	.pusher_run = p1_pusher_run,
	.count_load = pusher_count_load,
	.count_store = pusher_count_store,
	.pio_refused = p1_pio_refused,
	.ramht_lookup = p1_ramht_lookup,
	.obj_rd32 = pfifo_ramin_rd32,
	.acquire_done = puller_acquire_done,
	.sem_where = puller_sem_where,
	.big_endian = puller_big_endian,
	.step = p1_step,
	.pio_store = p1_pio_store,
	.user_read = p1_user_read,
};
