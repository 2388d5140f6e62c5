/*
 * The PFIFO puller of NV04..NV4x (envytools puller.rst, seed 001 "The
 * puller"): takes (subchannel, method, data) entries out of CACHE1, binds
 * objects through RAMHT (method 0), translates handles for methods
 * 0x180-0x1fc, executes its own methods 0x4-0xfc (REF_CNT, the old-style
 * semaphores, YIELD) and submits the rest to the engine bound on the
 * subchannel: the recording PGRAPH, or the SOFTWARE engine, whose every
 * method raises CACHE_ERROR for the driver.
 */
#include <string.h>

#include "fifo/sem.h"
#include "pfifo_internal.h"

/* ---------------------------------------------------------------- RAMHT */

uint32_t nvm_pfifo_ramht_hash(uint32_t handle, uint32_t chid, unsigned bits)
{
	if (bits < 4 || bits > 24)
		return 0;
	uint32_t h = 0, mask = (1u << bits) - 1;
	while (handle) {
		h ^= handle & mask;
		handle >>= bits;
	}
	/* UNVERIFIED: the channel bits that pass the table size are dropped. */
	return (h ^ chid << (bits - 4)) & mask;
}

uint32_t nvm_pfifo_ramht_slot(const char *chip, uint32_t handle, uint32_t chid, unsigned bits, unsigned *probe)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	*probe = 0;
	if (!c || bits < 8 || bits > 24)
		return 0;
	if (!c->ramht_bucket)
		return nvm_pfifo_ramht_hash(handle, chid, bits);
	*probe = 1u << (bits - 8);
	return ramht_xor_hash(handle, chid) << (bits - 8);
}

void ramht_decode(const struct pfifo_gen *c, uint32_t handle, uint32_t ctx, nvm_ramht_entry *e)
{
	const struct ramht_fmt *r = &c->ramht;
	e->handle = handle;
	e->context = ctx;
	e->instance = FIELD_GET(ctx, r->inst_hi, 0) << 4;
	e->engine = FIELD_GET(ctx, r->eng_hi, r->eng_lo);
	/* G80: a RAMHT per channel, no CHID in the context (seed 001) */
	e->chid = r->chid ? FIELD_GET(ctx, r->chid_hi, r->chid_lo) : 0;
	/* UNVERIFIED: NV40 contexts have no valid bit; a zero context is free. */
	e->valid = r->valid >= 0 ? (int)FIELD_GET(ctx, r->valid, r->valid) : ctx != 0;
}

nvm_status nvm_pfifo_ramht_entry(const char *chip, uint32_t handle, uint32_t context, nvm_ramht_entry *out)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	if (!out)
		return NVM_ERR_ARG;
	if (!c)
		return NVM_ERR_CHIP;
	ramht_decode(c, handle, context, out);
	return NVM_OK;
}

nvm_status nvm_pfifo_ramht_context(const char *chip, uint32_t instance, unsigned engine, uint32_t chid,
                                   uint32_t *context)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	if (!context)
		return NVM_ERR_ARG;
	if (!c)
		return NVM_ERR_CHIP;
	const struct ramht_fmt *r = &c->ramht;
	if ((instance & 15) || (instance >> 4) > FIELD_MASK(r->inst_hi, 0) ||
	    engine > (FIELD_MASK(r->eng_hi, r->eng_lo) >> r->eng_lo) ||
	    chid > (FIELD_MASK(r->chid_hi, r->chid_lo) >> r->chid_lo))
		return NVM_ERR_RANGE;
	uint32_t v = instance >> 4;
	v = FIELD_SET(v, r->eng_hi, r->eng_lo, engine);
	v = FIELD_SET(v, r->chid_hi, r->chid_lo, chid);
	if (r->valid >= 0)
		v |= 1u << r->valid;
	*context = v;
	return NVM_OK;
}

/* RAMHT (puller.rst "RAMHT and the FIFO objects"; rnndb RAMHT: ADDRESS 8:4
 * << 12, SIZE 17:16 = 4K << n, SEARCH 25:24 = 16 << n entries). The lookup
 * probes SEARCH entries from the hash slot, wrapping at the table end, for
 * a valid entry of this channel with this handle (UNVERIFIED: the probe
 * order is nouveau's insertion order). */
bool ramht_lookup(struct pfifo *f, uint32_t chid, uint32_t handle, uint32_t *inst, unsigned *engine)
{
	uint32_t reg = bus_get(f->gpu, R_RAMHT);
	uint32_t base = (reg & 0x1f0u) << 8;
	unsigned bits = 9 + FIELD_GET(reg, 17, 16);
	uint32_t n = 1u << bits, search = 16u << FIELD_GET(reg, 25, 24);
	uint32_t h = nvm_pfifo_ramht_hash(handle, chid, bits);
	f->stats.ramht_lookups++;
	for (uint32_t i = 0; i < search && i < n; i++) {
		uint32_t a = base + ((h + i) & (n - 1)) * 8, hd, ctx;
		if (!pfifo_ramin_rd32(f, a, &hd) || !pfifo_ramin_rd32(f, a + 4, &ctx))
			break;
		nvm_ramht_entry e;
		ramht_decode(f->chip, hd, ctx, &e);
		if (e.valid && hd == handle && e.chid == chid) {
			*inst = e.instance;
			*engine = e.engine;
			return true;
		}
	}
	f->stats.ramht_misses++;
	return false;
}

/* CACHE1 HASH: the last lookup's instance (INSTANCE 15:0 / VALID 16;
 * NV40: 23:0 / 24), which the driver reads for software methods. */
static void set_hash(struct pfifo *f, uint32_t inst, bool valid)
{
	unsigned vb = f->chip->hash_valid;
	*f->pc->hash = ((inst >> 4) & ((1u << vb) - 1)) | (valid ? 1u << vb : 0);
}

/* ---------------------------------------------------------------- errors */

/* The channel of the cache the puller works on (its PUSH1 CHID). */
static uint32_t pull_chid(const struct pfifo *f)
{
	return *f->pc->push1 & f->chip->chid_mask;
}

static void cache_error(struct pfifo *f, uint32_t pull0_bits, uint32_t a, uint32_t d, const char *code, const char *why)
{
	*f->pc->pull0 |= pull0_bits;
	f->pc->err = f->pc->cache0;
	f->stats.cache_errors++;
	emit(f->gpu, pull0_bits == PULL0_DEVICE_SOFTWARE ? NVM_EV_TRACE : NVM_EV_GUEST_ERROR, "pfifo", code,
	     (a >> 13) & 7, d, "%schannel %u subchannel %u method 0x%04x data 0x%08x: CACHE_ERROR, %s", f->pc->tag,
	     pull_chid(f), (a >> 13) & 7, a & 0x1ffc, d, why);
	pfifo_raise(f, INTR_CACHE_ERROR);
}

void puller_sem_error(struct pfifo *f, unsigned subtype, uint32_t a, uint32_t d, const char *why)
{
	*f->r_pull0 = FIELD_SET(*f->r_pull0, 23, 20, subtype);
	f->stats.semaphore_errors++;
	const char *name = subtype < 8 ? f->chip->sem_errors[subtype] : "?";
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "semaphore", a & 0x1ffc, subtype,
	     "channel %u method 0x%04x data 0x%08x: SEMAPHORE %s: %s", pfifo_chid(f), a & 0x1ffc, d, name, why);
	pfifo_raise(f, INTR_SEMAPHORE);
}

/* ---------------------------------------------------------------- engines */

/* The class PGRAPH has bound on a subchannel of chid. CACHE1 PUSH1 CHID is
 * wider than the channels on NV40 (8:0 for 32 channels): a driver may load
 * a channel number the model has no state for; it reads class 0.
 * UNVERIFIED: the bound classes are kept by the model, not in RAMIN. */
static uint32_t *cls_slot(struct pfifo *f, uint32_t chid, uint32_t subch)
{
	f->cls_none = 0;
	return chid < f->chip->nchan ? &f->cls[chid][subch & 7] : &f->cls_none;
}

/* The bound object's instance >> 4 on a subchannel of chid (the method
 * record's ctx: what PGRAPH got through method 0), beside cls_slot. */
static uint32_t *ctx_slot(struct pfifo *f, uint32_t chid, uint32_t subch)
{
	f->cls_none = 0;
	return chid < f->chip->nchan ? &f->objctx[chid][subch & 7] : &f->cls_none;
}

/* The ENGINE nibble of a subchannel (rnndb CACHE1 / CACHE0 ENGINE). */
static unsigned subch_engine(const struct pcache *c, uint32_t subch)
{
	return (*c->engine >> (subch * 4)) & 0xf;
}

static void set_subch_engine(struct pfifo *f, uint32_t subch, unsigned eng)
{
	*f->pc->engine = (*f->pc->engine & ~(0xfu << (subch * 4))) | eng << (subch * 4);
}

/* The engine methods go to for engine id eng: one the chip has and that
 * takes methods (not SOFTWARE), or NULL. */
static struct engine *method_engine(const struct pfifo *f, unsigned eng)
{
	return eng != ENG_SOFTWARE && eng < ENG_IDS ? f->eng[eng] : NULL;
}

/* The time every engine has finished the methods it was given. */
static uint64_t engines_idle_at(const struct pfifo *f)
{
	uint64_t t = 0;
	for (unsigned i = 0; i < ENG_IDS; i++)
		if (f->eng[i] && f->eng[i]->busy_until > t)
			t = f->eng[i]->busy_until;
	return t;
}

/* Submits run r to the engine bound on its subchannel (the engine
 * interface). puller.rst: switching engines waits for the last one to
 * finish the channel's methods; PGRAPH switches channel when it gets
 * another channel's method. NV10+ submits pairs of methods (the same or
 * consecutive) in one puller cycle. The engine logs method i at *t + i
 * (each its own virtual time). */
/* The source of a run the puller submits on subchannel subch of chid:
 * the class and object cls_slot / ctx_slot give (0 past nchan). */
static inline struct eng_src submit_src(const struct pfifo *f, uint32_t chid, uint32_t subch)
{
	bool known = chid < f->chip->nchan;
	return (struct eng_src){ .chid = chid,
		                 .subch = subch,
		                 .cls = known ? f->cls[chid][subch & 7] : 0,
		                 .ctx = known ? f->objctx[chid][subch & 7] : 0 };
}

/* The METHOD event of a submitted run (out of the hot path). */
static __attribute__((noinline)) void submit_event(struct pfifo *f, const struct engine *e, uint32_t chid,
                                                   const nvm_pb_run *r)
{
	struct eng_src src = submit_src(f, chid, r->subch);
	/* named from the class the RAMHT object carries, where the tables have it */
	char name[128] = " ";
	if (!nvm_pb_method_label(src.cls, nvm_pb_run_method(r, 0), name + 1, sizeof(name) - 1))
		name[0] = 0;
	emit(f->gpu, NVM_EV_METHOD, "pfifo", e->name, nvm_pb_run_method(r, 0), r->data[0],
	     "%schannel %u subchannel %u class 0x%04x: method 0x%04x%s x%u (first data 0x%08x)", f->pc->tag, src.chid,
	     r->subch, src.cls, nvm_pb_run_method(r, 0), name, r->count, r->data[0]);
}

/* engine_send of run r to e at time *t (the engine's time e->at). */
static __attribute__((noinline)) uint64_t submit_send(struct pfifo *f, struct engine *e, uint32_t chid,
                                                      const nvm_pb_run *r, const uint64_t *t)
{
	struct eng_src src = submit_src(f, chid, r->subch);
	struct eng_result res = { 0 };
	uint64_t now = f->gpu->now;
	e->at = *t > now ? *t : now;
	engine_send(e, &src, r, 0, r->count, &res);
	e->at = 0;
	return res.cost;
}

/* What a submission to engine id does first (submit_to): after another
 * engine, it waits until that one is done (PULL1 ENGINE); PGRAPH switches
 * to the channel. */
static inline void submit_switch(struct pfifo *f, unsigned id, uint32_t chid, uint64_t *t)
{
	uint32_t *pull1 = f->pc->pull1;
	unsigned last = FIELD_GET(*pull1, 3, 0);
	if (last != id) {
		if (f->eng[last] && *t < f->eng[last]->busy_until)
			*t = f->eng[last]->busy_until;
		*pull1 = FIELD_SET(*pull1, 3, 0, id);
	}
	if (id == ENG_PGRAPH && f->gr_chid != chid) {
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "pgraph_ctxsw", chid, f->gr_chid, "PGRAPH: channel %u -> %u",
		     f->gr_chid, chid);
		f->gr_chid = chid;
	}
}

/* puller_submit once the engine e (id) is known. A recorder without a log
 * only counts the methods (engine_counts_only): no source is built. */
static inline __attribute__((always_inline)) void submit_to(struct pfifo *f, struct engine *e, unsigned id,
                                                            const nvm_pb_run *r, uint64_t *t)
{
	uint32_t chid = pull_chid(f);
	submit_switch(f, id, chid, t);
	uint64_t cost = engine_counts_only(e) ? engine_rec_count(e, r->count) : submit_send(f, e, chid, r, t);
	/* paired: (count + 1) / 2 puller cycles */
	uint32_t paired = f->chip->paired, steps = (r->count + paired) >> paired;
	*t += cost + (uint64_t)steps * PFIFO_NS_PULL;
	e->busy_until = *t;
	f->stats.engine_methods += r->count;
	if (emit_wanted(f->gpu, NVM_EV_METHOD))
		submit_event(f, e, chid, r);
}

uint32_t puller_counted_mask(const struct pfifo *f, uint32_t mask)
{
	unsigned id = FIELD_GET(*f->pc->pull1, 3, 0);
	const struct engine *e = method_engine(f, id);
	if (!e || !engine_counts_only(e) || (id == ENG_PGRAPH && f->gr_chid != pull_chid(f)))
		return 0;
	uint32_t counted = 0;
	for (uint32_t s = 0; s < 8; s++)
		if (subch_engine(f->pc, s) == id)
			counted |= 1u << s;
	return counted & mask;
}

void puller_count_runs(struct pfifo *f, uint32_t methods, uint64_t t)
{
	struct engine *e = method_engine(f, FIELD_GET(*f->pc->pull1, 3, 0));
	if (!methods || !e)
		return;
	engine_rec_count(e, methods);
	e->busy_until = t;
	f->stats.engine_methods += methods;
}

void puller_submit(struct pfifo *f, const nvm_pb_run *r, uint64_t *t)
{
	unsigned id = subch_engine(f->pc, r->subch);
	struct engine *e = method_engine(f, id);
	if (e) /* callers check the engine */
		submit_to(f, e, id, r, t);
}

static void submit_one(struct pfifo *f, uint32_t subch, uint32_t m, uint32_t d, uint64_t *t)
{
	uint32_t data = d;
	nvm_pb_run r = { .subch = subch, .method = m, .count = 1, .mode = NVM_PB_MODE_INC, .data = &data };
	puller_submit(f, &r, t);
}

/* The SOFTWARE engine: the method goes to it (it logs it and refuses it)
 * and the puller stops with CACHE_ERROR until the driver has handled it. */
static void software(struct pfifo *f, uint32_t a, uint32_t m, uint32_t d, const uint64_t *t)
{
	uint32_t chid = pull_chid(f), subch = (a >> 13) & 7;
	struct eng_src src = { .chid = chid,
		               .subch = subch,
		               .cls = *cls_slot(f, chid, subch),
		               .ctx = *ctx_slot(f, chid, subch) };
	nvm_pb_run r = { .subch = subch, .method = m, .count = 1, .mode = NVM_PB_MODE_INC, .data = &d };
	struct eng_result res = { 0 };
	f->sw->at = *t > f->gpu->now ? *t : f->gpu->now;
	f->sw->ops->methods(f->sw, &src, &r, 0, 1, &res);
	f->sw->at = 0;
	f->stats.sw_methods++;
	cache_error(f, PULL0_DEVICE_SOFTWARE, a, d, "sw_method", "the SOFTWARE engine waits for the driver");
}

/* UNVERIFIED: an engine id the chip does not have (rnndb nv4_pfifo_engine
 * variants: PMPEG NV31+, PME NV40+, PVP1 NV41+; 5..15 none) drops the
 * method. */
static void other_engine(struct pfifo *f, unsigned eng, uint32_t a, uint32_t d)
{
	emit(f->gpu, NVM_EV_UNMODELLED, "pfifo", "engine", eng, d,
	     "%schannel %u subchannel %u method 0x%04x: this chip has no engine %u, the method is dropped", f->pc->tag,
	     pull_chid(f), (a >> 13) & 7, a & 0x1ffc, eng);
}

/* ---------------------------------------------------------------- semaphores */

/* CACHE1 SEMAPHORE: CTXDMA_VALID 0, OFFSET 11:2, PAGE 31:12 (rnndb), with
 * PULL1 SEMAPHORE_TARGET 17:16 (0 VRAM, 2 PCI, 3 AGP). */
bool puller_sem_where(struct pfifo *f, nvm_aperture *ap, uint64_t *addr)
{
	unsigned tgt = FIELD_GET(*f->r_pull1, 17, 16);
	if (tgt == 1)
		return false;
	*ap = tgt ? NVM_AP_SYSMEM : NVM_AP_VRAM;
	*addr = *f->r_sem & 0xfffffffcu;
	return true;
}

/* Semaphore words use the channel's big_endian flag (DMA_FETCH ENDIAN 31,
 * NV1A+) like pushbuffer reads (puller.rst "Semaphores"). */
bool puller_big_endian(struct pfifo *f)
{
	return f->chip->be_fetch && FIELD_GET(*f->r_dma_fetch, 31, 31);
}

static bool sem_where(struct pfifo *f, nvm_aperture *ap, uint64_t *addr)
{
	return f->chip->ops->sem_where(f, ap, addr);
}

static bool big_endian(struct pfifo *f)
{
	return f->chip->ops->big_endian(f);
}

/* SEMAPHORE_ACQUIRE (0x68) makes the puller wait (NV1A+). */
bool puller_acquires(uint32_t m, uint32_t d)
{
	(void)d;
	return m == 0x68;
}

static bool sem_read(struct pfifo *f, uint32_t *v)
{
	nvm_aperture ap;
	uint64_t addr;
	return sem_where(f, &ap, &addr) && sem_rd32(&f->gpu->mem[ap], addr, big_endian(f), v);
}

static bool sem_write(struct pfifo *f, uint32_t v)
{
	nvm_aperture ap;
	uint64_t addr;
	return sem_where(f, &ap, &addr) && sem_wr32(&f->gpu->mem[ap], addr, big_endian(f), v);
}

void puller_acq_wake(void *ctx, uint64_t arg)
{
	(void)arg;
	pfifo_kick(ctx);
}

void puller_unwatch(struct pfifo *f)
{
	if (f->acq_watch)
		sem_unwatch(&f->gpu->mem[f->acq_ap], puller_acq_wake, f, 0);
	f->acq_watch = false;
}

/* Watches of channels CACHE1 does not hold (arg chid + 1) only note the
 * write; the step looks at them (a watch callback may not change watches). */
void puller_acq_wake_chan(void *ctx, uint64_t arg)
{
	struct pfifo *f = ctx;
	bit_put(f->acq_wake, (uint32_t)(arg - 1), true);
	pfifo_kick(f);
}

void puller_acq_switch_out(struct pfifo *f, uint32_t chid)
{
	puller_unwatch(f);
	nvm_aperture ap;
	uint64_t addr;
	if (chid >= f->chip->nchan || !(*f->r_pull1 & PULL1_ACQUIRE_ACTIVE) || !sem_where(f, &ap, &addr))
		return;
	if (sem_watch(&f->gpu->mem[ap], addr, 4, puller_acq_wake_chan, f, chid + 1)) {
		bit_put(f->acq_blocked, chid, true);
		f->acq_ch_ap[chid] = ap;
		f->acq_ch_addr[chid] = addr;
	}
}

void puller_acq_switch_in(struct pfifo *f, uint32_t chid)
{
	if (chid >= f->chip->nchan || !bit_get(f->acq_blocked, chid))
		return;
	sem_unwatch(&f->gpu->mem[f->acq_ch_ap[chid]], puller_acq_wake_chan, f, chid + 1);
	bit_put(f->acq_blocked, chid, false);
	bit_put(f->acq_wake, chid, false);
}

void puller_acq_wakeups(struct pfifo *f)
{
	/* every step: only the channels whose semaphore was written (mostly none) */
	for (uint32_t w = 0; w < sizeof(f->acq_wake) / sizeof(f->acq_wake[0]); w++)
		for (uint32_t bits = f->acq_wake[w]; bits; bits &= bits - 1) {
			uint32_t c = w * 32 + (uint32_t)__builtin_ctz(bits);
			if (c < f->chip->nchan && bit_get(f->acq_blocked, c))
				puller_acq_switch_in(f, c);
		}
	memset(f->acq_wake, 0, sizeof(f->acq_wake));
}

void puller_fini(struct pfifo *f)
{
	puller_unwatch(f);
	for (uint32_t c = 0; c < f->chip->nchan; c++)
		puller_acq_switch_in(f, c);
}

/* Whether semaphore value v ends the pending acquire: equal to
 * ACQUIRE_VALUE, or on G84+ with PULL1 ACQUIRE_MODE (7) GEQUAL, greater
 * or equal in wrapping 32-bit arithmetic (puller.rst "Semaphores"). */
bool puller_acquire_done(const struct pfifo *f, uint32_t v)
{
	return sem_acquire_ok(SEM_CMP_EQ, false, v, *f->r_acq_value);
}

void puller_acq_timer(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	(void)arg;
	struct pfifo *f = ctx;
	f->acq_to_ev = 0;
	pfifo_kick(f);
}

/* The acquire timeout (INTR ACQUIRE_TIMEOUT 24, rnndb; registers
 * ACQUIRE_TIMEOUT TIMEOUT 30:0 and ACQUIRE_TIMESTAMP). UNVERIFIED
 * (puller.rst: "There's also apparently a timeout, but it's not REd yet"):
 * TIMEOUT is a PTIMER interval (ns), 0 disables it; when PTIMER has passed
 * ACQUIRE_TIMESTAMP + TIMEOUT while the acquire waits, the interrupt is
 * raised and ACQUIRE_TIMESTAMP restarts; the acquire keeps waiting (the
 * driver may end it by clearing PULL1 ACQUIRE_ACTIVE). While the interrupt
 * is pending no new interval is timed. A one-shot event at the deadline
 * wakes the step (no polling); the wait itself does not keep the GPU busy. */
static void acquire_timeout(struct pfifo *f)
{
	uint32_t to = bus_get(f->gpu, R_ACQ_TIMEOUT) & 0x7fffffffu;
	if (!to || (*f->r_intr & INTR_ACQUIRE_TIMEOUT))
		return;
	uint32_t now = (uint32_t)ptimer_read(f->gpu), el = now - bus_get(f->gpu, R_ACQ_TIMESTAMP);
	if (el >= to) {
		bus_set(f->gpu, R_ACQ_TIMESTAMP, now);
		f->stats.acquire_timeouts++;
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "acquire_timeout", pfifo_chid(f), *f->r_acq_value,
		     "channel %u: semaphore acquire of 0x%08x still waits after %u ns (ACQUIRE_TIMEOUT)", pfifo_chid(f),
		     *f->r_acq_value, to);
		pfifo_raise(f, INTR_ACQUIRE_TIMEOUT);
		return;
	}
	sem_deadline(f->gpu, &f->acq_to_ev, &f->acq_to_at, f->gpu->now + (to - el), puller_acq_timer, f, 0,
	             SCHED_BACKGROUND);
}

/* A pending acquire: done when the semaphore holds ACQUIRE_VALUE; until
 * then the puller waits, woken by a write to the word (no polling) or by
 * its timeout. */
static bool acquire_pending(struct pfifo *f)
{
	if (!(*f->r_pull1 & PULL1_ACQUIRE_ACTIVE)) {
		puller_unwatch(f);
		return false;
	}
	uint32_t v;
	if (sem_read(f, &v) && f->chip->ops->acquire_done(f, v)) {
		*f->r_pull1 &= ~PULL1_ACQUIRE_ACTIVE;
		puller_unwatch(f);
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "acquire_done", pfifo_chid(f), v,
		     "channel %u: semaphore acquire of 0x%08x done", pfifo_chid(f), v);
		return false;
	}
	nvm_aperture ap;
	uint64_t addr;
	if (!f->acq_watch && sem_where(f, &ap, &addr) && sem_watch(&f->gpu->mem[ap], addr, 4, puller_acq_wake, f, 0)) {
		f->acq_watch = true;
		f->acq_ap = ap;
		f->acq_addr = addr;
	}
	acquire_timeout(f); /* nothing without ACQUIRE_TIMEOUT (NV1A+) */
	return true;
}

/* DMA_SEMAPHORE (puller.rst): pre-G80 accepts only a write-only DMA object
 * of class 0x0002 with a page table. The object's first frame goes to
 * CACHE1 SEMAPHORE PAGE 31:12 and its target to PULL1 SEMAPHORE_TARGET
 * before the check, CTXDMA_VALID telling whether it passed: nouveau's
 * SEMAPHORE handler (nv04_fifo_intr) only sets CTXDMA_VALID and skips the
 * method, and its NV17+ fences, which bind a read-write object (NvSema,
 * nv17_fence_context_new), work on hardware, so a refused object's address
 * must already be there. UNVERIFIED: that a wrong class or a missing page
 * table latch the same words (no source; the model treats the three
 * refusals alike). OFFSET is kept (UNVERIFIED: ADJUST unused). */
static bool dma_semaphore(struct pfifo *f, uint32_t a, uint32_t inst, uint32_t d)
{
	uint32_t w0, w2;
	if (!pfifo_ramin_rd32(f, inst, &w0) || !pfifo_ramin_rd32(f, inst + 8, &w2)) {
		puller_sem_error(f, SEM_ERR_INVALID_OPERAND, a, d, "the object is outside instance memory");
		return false;
	}
	*f->r_sem = (w2 & 0xfffff000u) | (*f->r_sem & 0xffcu);
	*f->r_pull1 = FIELD_SET(*f->r_pull1, 17, 16, FIELD_GET(w0, 17, 16));
	const char *why = NULL;
	if (FIELD_GET(w0, 11, 0) != 0x002)
		why = "the object is not of class 0x0002";
	else if (FIELD_GET(w0, 15, 14) != 2)
		why = "the DMA object is not write-only";
	else if (!FIELD_GET(w0, 12, 12))
		why = "the DMA object has no page table";
	if (why) {
		puller_sem_error(f, SEM_ERR_INVALID_OPERAND, a, d, why);
		return false;
	}
	*f->r_sem |= 1u; /* CTXDMA_VALID */
	return true;
}

/* ---------------------------------------------------------------- one entry */

enum { PULL_STALL = 0, PULL_DONE = 1 };

/* Executes the entry at GET that is not a plain PGRAPH method. */
static int pull_one(struct pfifo *f, uint32_t a, uint32_t d, uint64_t *t)
{
	uint32_t chid = pull_chid(f), subch = (a >> 13) & 7, m = a & 0x1ffcu;
	unsigned eng = subch_engine(f->pc, subch);
	uint32_t inst = 0;
	unsigned oeng = 0;
	if (m == 0 || (m >= 0x180 && m < 0x200) || m == 0x60) {
		/* handle -> instance through RAMHT */
		*t += PFIFO_NS_HASH;
		if (!f->chip->ops->ramht_lookup(f, chid, d, &inst, &oeng)) {
			set_hash(f, 0, false);
			cache_error(f, PULL0_HASH_FAILED, a, d, "no_hash",
			            "handle not in RAMHT for this channel (NO_HASH)");
			return PULL_STALL;
		}
		set_hash(f, inst, true);
	}
	if (m == 0) {
		/* OBJECT: the engine is remembered per subchannel; PGRAPH gets
		 * the instance as method 0 and reads the object's class. */
		if (oeng == ENG_SOFTWARE) {
			software(f, a, m, d, t);
			return PULL_STALL;
		}
		set_subch_engine(f, subch, oeng);
		struct engine *e = method_engine(f, oeng);
		if (!e) {
			other_engine(f, oeng, a, d);
			return PULL_DONE;
		}
		uint32_t w0 = 0;
		f->chip->ops->obj_rd32(f, inst, &w0);
		uint32_t cls = w0 & f->chip->class_mask;
		*cls_slot(f, chid, subch) = cls;
		*ctx_slot(f, chid, subch) = inst >> 4;
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "bind", subch, cls,
		     "%schannel %u subchannel %u: handle 0x%08x -> %s object 0x%05x class 0x%04x", f->pc->tag, chid,
		     subch, d, pfifo_engine_name(f->chip, oeng), inst, cls);
		submit_one(f, subch, 0, inst >> 4, t);
		return PULL_DONE;
	}
	if (m >= 0x100) {
		uint32_t data = m < 0x200 && m >= 0x180 ? inst >> 4 : d;
		if (eng == ENG_SOFTWARE) {
			software(f, a, m, d, t);
			return PULL_STALL;
		}
		if (!method_engine(f, eng)) {
			other_engine(f, eng, a, d);
			return PULL_DONE;
		}
		submit_one(f, subch, m, data, t);
		return PULL_DONE;
	}
	/* The puller's own methods (puller.rst "Puller builtin methods"). */
	*t += PFIFO_NS_PULL;
	if (f->pc->cache0) {
		/* UNVERIFIED: CACHE0 has none of the state these methods use
		 * (rnndb lists no REF, SEMAPHORE or ACQUIRE registers for it). */
		cache_error(f, 0, a, d, "bad_method", "CACHE0 does not execute the puller's methods 0x04..0xfc");
		return PULL_STALL;
	}
	if (f->chip->ops->puller_method) {
		int r = f->chip->ops->puller_method(f, a, m, d, t, inst);
		if (r >= 0)
			return r ? PULL_DONE : PULL_STALL;
	}
	switch (pusher_knows_method(f, m) ? m : 0xffffu) {
	case 0x50: /* REF_CNT: waits for the engines to finish the channel's methods */
		if (*t < engines_idle_at(f))
			*t = engines_idle_at(f);
		*f->r_ref = d;
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "ref_cnt", chid, d, "channel %u: REF 0x%08x", chid, d);
		return PULL_DONE;
	case 0x60: /* DMA_SEMAPHORE */ return dma_semaphore(f, a, inst, d) ? PULL_DONE : PULL_STALL;
	case 0x64: /* SEMAPHORE_OFFSET: divisible by 4 and within 12 bits */
		if (d & ~0xffcu) {
			puller_sem_error(f, SEM_ERR_INVALID_OPERAND, a, d,
			                 "the offset is not a multiple of 4 below 0x1000");
			return PULL_STALL;
		}
		*f->r_sem = FIELD_SET(*f->r_sem, 11, 2, d >> 2);
		return PULL_DONE;
	case 0x68: { /* SEMAPHORE_ACQUIRE */
		uint32_t v;
		if (!(*f->r_sem & 1)) {
			puller_sem_error(f, SEM_ERR_INVALID_STATE, a, d, "no DMA_SEMAPHORE bound");
			return PULL_STALL;
		}
		if (sem_read(f, &v) && sem_acquire_ok(SEM_CMP_EQ, false, v, d))
			return PULL_DONE;
		*f->r_pull1 |= PULL1_ACQUIRE_ACTIVE;
		*f->r_acq_value = d;
		bus_set(f->gpu, R_ACQ_TIMESTAMP, (uint32_t)ptimer_read(f->gpu));
		f->stats.acquire_waits++;
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "acquire_wait", chid, d,
		     "channel %u: semaphore acquire waits for 0x%08x", chid, d);
		return PULL_DONE;
	}
	case 0x6c: /* SEMAPHORE_RELEASE. UNVERIFIED: waits for the engine like REF_CNT. */
		if (!(*f->r_sem & 1)) {
			puller_sem_error(f, SEM_ERR_INVALID_STATE, a, d, "no DMA_SEMAPHORE bound");
			return PULL_STALL;
		}
		if (*t < engines_idle_at(f))
			*t = engines_idle_at(f);
		if (!sem_write(f, d))
			emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "semaphore_range", *f->r_sem & ~3u, d,
			     "channel %u: semaphore release outside memory: dropped", chid);
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "release", chid, d, "channel %u: semaphore release 0x%08x", chid,
		     d);
		return PULL_DONE;
	case 0x80: /* YIELD: switch now if another channel has work */ f->yield = true; return PULL_DONE;
	default:
		/* Only reachable by writing CACHE1 directly: the pushers refuse it.
		 * UNVERIFIED: the puller stops with CACHE_ERROR. */
		cache_error(f, 0, a, d, "bad_method", "a method 0x04..0xfc the puller does not know");
		return PULL_STALL;
	}
}

/* ---------------------------------------------------------------- the loop */

/* Whether entries for subchannel subch could go through an empty CACHE1
 * straight to PGRAPH now: the puller runs, waits for nothing, and the
 * subchannel is bound to PGRAPH. */
bool puller_direct_ok(const struct pfifo *f, uint32_t subch)
{
	return (*f->r_pull0 & PULL0_ACCESS) && !(*f->r_intr & (INTR_CACHE_ERROR | INTR_SEMAPHORE)) &&
	       !(*f->r_pull1 & PULL1_ACQUIRE_ACTIVE) && method_engine(f, subch_engine(&f->c1, subch)) &&
	       !pfifo_cache_count(f);
}

uint32_t puller_direct_mask(const struct pfifo *f)
{
	if (!(*f->r_pull0 & PULL0_ACCESS) || (*f->r_intr & (INTR_CACHE_ERROR | INTR_SEMAPHORE)) ||
	    (*f->r_pull1 & PULL1_ACQUIRE_ACTIVE))
		return 0;
	uint32_t mask = 0;
	for (uint32_t s = 0; s < 8; s++)
		if (method_engine(f, subch_engine(&f->c1, s)))
			mask |= 1u << s;
	return mask;
}

bool puller_ready(struct pfifo *f)
{
	if (!(*f->r_pull0 & PULL0_ACCESS) || (*f->r_intr & (INTR_CACHE_ERROR | INTR_SEMAPHORE)))
		return false;
	if (acquire_pending(f))
		return false;
	return pfifo_cache_count(f) != 0;
}

/* Plain PGRAPH methods (0x100-0x17c, 0x200-0x1ffc on a PGRAPH subchannel)
 * that follow each other in CACHE1 on one subchannel with increasing or
 * equal methods: how many, from the slot at GET (whose method is plain),
 * not past the last slot. Bits 15:2 of an entry are its subchannel and
 * method: the next entry of an increasing run is the first's + 4 n, as long
 * as the methods stay below the end of the first's plain range (0x180 or
 * 0x2000, so no carry reaches the subchannel). */
static uint32_t plain_run(const struct pcache *c, uint32_t slot, uint32_t avail, nvm_pb_mode *mode)
{
	const uint32_t *ad = c->addr + slot;
	uint32_t a0 = ad[0] & 0xfffcu, m0 = a0 & 0x1ffcu, n = 1;
	uint32_t lim = c->slot_mask + 1 - slot < avail ? c->slot_mask + 1 - slot : avail;
	*mode = NVM_PB_MODE_INC;
	if (lim < 2)
		return 1;
	if ((ad[1] & 0xfffcu) == a0) {
		*mode = NVM_PB_MODE_NINC;
		for (n = 2; n < lim && (ad[n] & 0xfffcu) == a0; n++)
			;
		return n;
	}
	uint32_t nmax = ((m0 < 0x180 ? 0x180u : 0x2000u) - m0) / 4;
	if (lim > nmax)
		lim = nmax;
	/* Eight entries compared at once while they are in the cache (the
	 * run's length varies: a loop ending at it mispredicts every run). */
	while (n < lim && slot + n + 8 <= c->slot_mask + 1) {
		uint32_t miss = 0;
		for (uint32_t i = 0; i < 8; i++)
			miss |= (uint32_t)((ad[n + i] & 0xfffcu) != a0 + 4 * (n + i)) << i;
		uint32_t same = (uint32_t)__builtin_ctz(miss | 0x100u);
		if (same < 8 || n + 8 >= lim)
			return n + same < lim ? n + same : lim;
		n += 8;
	}
	while (n < lim && (ad[n] & 0xfffcu) == a0 + 4 * n)
		n++;
	return n;
}

/* plain_run from a slot with a hint (cache_hint): the command's entries
 * up to avail and the slots' end, and for an increasing one the end of the
 * first's plain range; 0 when the run may go on past the command (the
 * entry after it has the last one's method, or the next one). */
static inline uint32_t hinted_run(const struct pcache *c, uint32_t slot, uint32_t avail, uint32_t hint,
                                  nvm_pb_mode *mode)
{
	const uint32_t *ad = c->addr + slot;
	uint32_t n0 = hint & CACHE_HINT_N, a0 = ad[0] & 0xfffcu, m0 = a0 & 0x1ffcu;
	uint32_t lim = c->slot_mask + 1 - slot < avail ? c->slot_mask + 1 - slot : avail;
	uint32_t n = n0 < lim ? n0 : lim, last = a0;
	*mode = NVM_PB_MODE_INC;
	if (n0 > 1 && (hint & CACHE_HINT_NINC)) {
		if (n > 1)
			*mode = NVM_PB_MODE_NINC;
	} else if (n0 > 1) {
		uint32_t nmax = ((m0 < 0x180 ? 0x180u : 0x2000u) - m0) / 4;
		if (n >= nmax)
			return nmax; /* plain_run ends at the range's end */
		last = a0 + 4 * (n - 1);
	}
	/* (one method: plain_run's mode would come from the next entry) */
	if (n == n0 && n < lim) {
		uint32_t k = ad[n] & 0xfffcu;
		if (k == last || k == last + 4)
			return 0;
	}
	return n;
}

/* The run of plain methods at slot (plain_run), through its hint when it
 * has one (0: none); where GET will stop inside the entries the hint
 * covers, the rest of them get theirs. */
static inline uint32_t run_at(struct pcache *c, uint32_t slot, uint32_t avail, uint32_t hint, nvm_pb_mode *mode)
{
	uint32_t n = hint ? hinted_run(c, slot, avail, hint, mode) : 0;
	if (n && n < (hint & CACHE_HINT_N))
		c->hint[(slot + n) & c->slot_mask] = (uint16_t)(((hint & CACHE_HINT_N) - n) | (hint & CACHE_HINT_NINC));
	else if (!n)
		n = plain_run(c, slot, avail, mode);
	return n;
}

/* Whether method m is plain (0x100-0x17c, 0x200-0x1ffc): the puller hands
 * it to the engine as it is. */
static inline bool plain_method(uint32_t m)
{
	return m >= 0x100 && (m < 0x180 || m >= 0x200);
}

/* pull_entries' common case without hooks (lean): the runs of plain
 * methods from GET on, one after another, on subchannels bound to one
 * engine that only counts them (engine_counts_only), at most max entries.
 * What submit_to does for each run is summed: the engine's count, the
 * time (each run costs its methods and its puller cycles, (n + 1) / 2 when
 * paired, so the runs are cut exactly as pull_entries cuts them: run_at),
 * the statistics, GET, written once. The engine switch and PGRAPH's
 * channel (submit_to's) happen at the first run; nothing can look in
 * between (no hooks, and the engine is not called). Returns the entries
 * taken, 0 when the entry at GET is not such a run. */
static uint32_t pull_counted(struct pfifo *f, uint32_t max, uint64_t *t)
{
	struct pcache *c = &f->c1;
	uint32_t get = *c->get, avail = pcache_count(c), engines = *c->engine;
	uint32_t a = c->addr[(get >> 2) & c->slot_mask];
	unsigned id = (engines >> ((a >> 13 & 7) * 4)) & 0xf;
	struct engine *e = method_engine(f, id);
	if (!plain_method(a & 0x1ffcu) || !e || !engine_counts_only(e))
		return 0;
	submit_switch(f, id, pull_chid(f), t); /* submit_to's, before the first run */
	if (avail > max)
		avail = max;
	uint32_t taken = 0;
	uint64_t ns = 0;
	do {
		uint32_t slot = (get >> 2) & c->slot_mask;
		a = c->addr[slot];
		if (!plain_method(a & 0x1ffcu) || ((engines >> ((a >> 13 & 7) * 4)) & 0xf) != id)
			break;
		nvm_pb_mode mode;
		uint32_t n = run_at(c, slot, avail - taken, c->hint[slot], &mode);
		ns += puller_counted_ns(f, n);
		taken += n;
		get = (get + 4 * n) & c->ptr_mask;
	} while (taken < avail);
	engine_rec_count(e, taken);
	*t += ns;
	e->busy_until = *t;
	*c->get = get;
	f->stats.engine_methods += taken;
	f->stats.methods += taken;
	return taken;
}

/* Takes entries out of cache c (f->pc) while ready(f) allows, at most max.
 * After a run of plain methods the CACHE1 puller is still ready while
 * CACHE1 has entries when no hooks are installed: nothing but the engine
 * ran, and engines leave PFIFO's registers alone (puller_submit changes
 * only PULL1 ENGINE). */
static uint32_t pull_entries(struct pfifo *f, uint32_t max, uint64_t *t, bool (*ready)(struct pfifo *f))
{
	struct pcache *c = f->pc;
	bool lean = c == &f->c1 && !f->gpu->hook_mask;
	uint32_t taken = 0;
	while (taken < max && ready(f)) {
		if (lean && !f->quick_off) { /* quick_off: the reference path (tests) */
			uint32_t k = pull_counted(f, max - taken, t);
			taken += k;
			if (k && (taken >= max || !pcache_count(c)))
				continue; /* (the loop below would stop here) */
		}
		for (;;) {
			uint32_t get = *c->get, slot = (get >> 2) & c->slot_mask;
			uint32_t a = c->addr[slot], m = a & 0x1ffcu, subch = (a >> 13) & 7;
			unsigned id = subch_engine(c, subch);
			struct engine *e = method_engine(f, id);
			uint32_t hint = f->quick_off ? 0u : c->hint[slot]; /* quick_off: the reference path (tests) */
			if (plain_method(m) && e) {
				uint32_t avail = pcache_count(c);
				if (avail > max - taken)
					avail = max - taken;
				nvm_pb_mode mode;
				uint32_t n = run_at(c, slot, avail, hint, &mode);
				nvm_pb_run r = { .subch = subch,
					         .method = m,
					         .count = n,
					         .mode = mode,
					         .data = &c->data[slot] };
				submit_to(f, e, id, &r, t);
				*c->get = (get + 4 * n) & c->ptr_mask;
				taken += n;
				f->stats.methods += n;
				if (lean && taken < max && pcache_count(c))
					continue;
				break;
			}
			if (pull_one(f, a, c->data[slot], t) == PULL_STALL)
				return taken;
			if ((hint & CACHE_HINT_N) > 1) /* GET stops inside the entries */
				c->hint[(slot + 1) & c->slot_mask] = (uint16_t)(hint - 1);
			*c->get = (get + 4) & c->ptr_mask;
			taken++;
			f->stats.methods++;
			break;
		}
	}
	return taken;
}

uint32_t puller_run(struct pfifo *f, uint32_t max, uint64_t *t)
{
	f->pc = &f->c1;
	return pull_entries(f, max, t, puller_ready);
}

/* The CACHE0 puller (seed 001: CACHE0 "can be used for quick manual
 * injection of single commands, for example for software method
 * emulation"). It runs the CACHE1 puller's logic on CACHE0's registers
 * when CACHE0 PULL0 ACCESS is set and its slot is full (PUT != GET).
 * UNVERIFIED: a CACHE_ERROR it raises stops it until the interrupt is
 * cleared, and one CACHE1 raised does not stop it, so a driver can inject
 * commands while it handles CACHE1's software method. */
static bool cache0_ready(struct pfifo *f)
{
	struct pcache *c = &f->c0;
	if (c->err && !(*f->r_intr & INTR_CACHE_ERROR))
		c->err = false;
	return (*c->pull0 & PULL0_ACCESS) && !c->err && pcache_count(c);
}

uint32_t puller_run_cache0(struct pfifo *f, uint64_t *t)
{
	f->pc = &f->c0;
	uint32_t n = cache0_ready(f) ? pull_entries(f, 1, t, cache0_ready) : 0;
	f->pc = &f->c1;
	return n;
}
