/*
 * PFIFO, the shared mechanism of every generation (NV04..GT215): the block
 * and its register table built from the generation's layers, instance
 * memory (RAMIN and the PRAMIN window), RAMFC channel switches, interrupts
 * and the scheduling step that runs the pushers and the puller in virtual
 * time. What a generation is and does differently is its const
 * description (struct pfifo_gen, one file each: nv04.c, nv10.c, nv17.c,
 * nv40.c, g80.c, g84.c), called through its operations. The pushers are in
 * pusher.c (ib.c: G80's), the puller in puller.c. docs/pfifo.md, docs/g80.md.
 */
#include <stdlib.h>
#include <string.h>

#include "pfifo_internal.h"

/* ---------------------------------------------------------------- generations */

/* A chip's PFIFO generation: the data of its pfifo block in the chip
 * registry (src/core/chip.c), so a new generation is a file and a chip
 * row, with no list here. */
const struct pfifo_gen *pfifo_gen_find(const char *name)
{
	const struct chip *c = name ? chip_lookup(name) : NULL;
	return c ? chip_data(c, &pfifo_class) : NULL;
}

const char *pfifo_engine_name(const struct pfifo_gen *c, unsigned id)
{
	return id < ENG_IDS && c->eng_names[id] ? c->eng_names[id] : "?";
}

static struct pfifo *pfifo_of(const nvm_gpu *gpu)
{
	return gpu ? (struct pfifo *)gpu_block(gpu, &pfifo_class) : NULL;
}

void pfifo_quick_set(nvm_gpu *gpu, bool on)
{
	struct pfifo *f = pfifo_of(gpu);
	if (f)
		f->quick_off = !on;
}

/* ---------------------------------------------------------------- RAMIN */

/* nv4-vram / bars.rst "RAMIN": instance memory starts from the end of VRAM
 * and its addresses go in reverse, in 32-bit words (nv1-vram.rst
 * ramin_to_vram: every address bit but the low two flipped). UNVERIFIED:
 * nv4-vram.rst is "todo"; the NV1 rule is applied to every profile, the
 * PRAMIN window covers RAMIN 0..1 MiB and NV40's RAMIN BAR
 * (nvm_pfifo_ramin_bar_*) 0..16 MiB. */
static bool ramin_vram(const struct pfifo *f, uint32_t addr, uint64_t *va)
{
	uint64_t size = f->gpu->mem[NVM_AP_VRAM].size;
	uint64_t a = addr & ~3u;
	if (a + 4 > size)
		return false;
	*va = size - 4 - a;
	return true;
}

bool pfifo_ramin_rd32(struct pfifo *f, uint32_t addr, uint32_t *val)
{
	uint64_t va;
	uint8_t b[4];
	if (!ramin_vram(f, addr, &va) || mem_read(&f->gpu->mem[NVM_AP_VRAM], va, b, 4)) {
		*val = 0;
		return false;
	}
	*val = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return true;
}

bool pfifo_ramin_wr32(struct pfifo *f, uint32_t addr, uint32_t val)
{
	uint64_t va;
	uint8_t b[4] = { (uint8_t)val, (uint8_t)(val >> 8), (uint8_t)(val >> 16), (uint8_t)(val >> 24) };
	return ramin_vram(f, addr, &va) && !mem_write(&f->gpu->mem[NVM_AP_VRAM], va, b, 4);
}

bool pfifo_pramin_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	struct pfifo *f = ctx;
	if (!pfifo_ramin_rd32(f, addr - PFIFO_PRAMIN, val))
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "pramin_range", addr, 0,
		     "PRAMIN read at RAMIN 0x%05x beyond VRAM: reads 0", addr - PFIFO_PRAMIN);
	return true;
}

bool pfifo_pramin_wr(void *ctx, uint32_t addr, uint32_t val)
{
	struct pfifo *f = ctx;
	if (!pfifo_ramin_wr32(f, addr - PFIFO_PRAMIN, val))
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "pramin_range", addr, val,
		     "PRAMIN write at RAMIN 0x%05x beyond VRAM: dropped", addr - PFIFO_PRAMIN);
	return true;
}

/* ---------------------------------------------------------------- interrupts */

static const struct intr_desc pfifo_intr = { R_INTR, R_INTR_EN, PMC_INTR_PFIFO, NULL, NULL };

void pfifo_update_intr(struct pfifo *f)
{
	intr_update(&f->intr);
}

void pfifo_raise(struct pfifo *f, uint32_t bits)
{
	intr_raise(&f->intr, bits);
}

/* ---------------------------------------------------------------- CACHE1 */

uint32_t pfifo_chid(const struct pfifo *f)
{
	return *f->r_push1 & f->chip->chid_mask;
}

void pfifo_hints_drop(struct pfifo *f)
{
	memset(f->cache_hint, 0, (f->cache_mask + 1) * sizeof(*f->cache_hint));
}

void pfifo_cache_push(struct pfifo *f, uint32_t addr, uint32_t data)
{
	uint32_t slot = (*f->r_put >> 2) & f->cache_mask;
	f->cache_hint[slot] = 0;
	f->cache_addr[slot] = addr;
	f->cache_data[slot] = data;
	*f->r_put = ((slot + 1) & f->cache_mask) << 2;
	f->stats.cache_pushes++;
}

/* CACHE1 METHOD(i) / DATA(i): i indexes the slots modulo their number
 * (rnndb: the upper entries of the pre-NV40 array alias the lower). */
bool pfifo_cache1_rd(struct pfifo *f, uint32_t rel, uint32_t *val)
{
	uint32_t slot = (rel >> 3) & f->cache_mask;
	*val = rel & 4 ? f->cache_data[slot] : f->cache_addr[slot];
	return true;
}

bool pfifo_cache1_wr(struct pfifo *f, uint32_t rel, uint32_t val)
{
	uint32_t slot = (rel >> 3) & f->cache_mask;
	pfifo_hints_drop(f); /* a command's entry may have changed */
	if (rel & 4)
		f->cache_data[slot] = val;
	else
		f->cache_addr[slot] = val & f->chip->cache_addr_mask;
	return true;
}

static bool pfifo_win_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	struct pfifo *f = ctx;
	return f->chip->ops->win_rd(f, addr, val);
}

static bool pfifo_win_wr(void *ctx, uint32_t addr, uint32_t val)
{
	struct pfifo *f = ctx;
	return f->chip->ops->win_wr(f, addr, val);
}

/* ---------------------------------------------------------------- RAMFC */

const struct ramfc_layout *pfifo_ramfc_layout(const struct pfifo *f)
{
	/* NV1A+ RAMFC LARGE (16:16) selects the 64-byte entries nouveau's nv17
	 * code uses; NV10-style 32-byte entries otherwise. */
	if (f->chip->ramfc_large && FIELD_GET(bus_get(f->gpu, R_RAMFC), 16, 16))
		return f->chip->ramfc_large;
	return f->chip->ramfc;
}

static uint32_t fmask(unsigned bits)
{
	return bits >= 32 ? 0xffffffffu : (1u << bits) - 1u;
}

bool pfifo_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w)
{
	return f->chip->ops->ramfc_rd(f, chid, off, w);
}

bool pfifo_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w)
{
	return f->chip->ops->ramfc_wr(f, chid, off, w);
}

bool pfifo_chan_dma(const struct pfifo *f, uint32_t chid)
{
	return f->chip->ops->chan_dma(f, chid);
}

/* Register reg's value in channel chid's RAMFC entry (0 when absent). */
static uint32_t ramfc_find(struct pfifo *f, uint32_t chid, uint32_t reg, bool *found)
{
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	uint32_t v = 0;
	*found = false;
	for (size_t i = 0; i < l->n; i++) {
		const nvm_ramfc_field *fl = &l->f[i];
		if (fl->reg != reg)
			continue;
		uint32_t w;
		pfifo_ramfc_rd(f, chid, fl->off, &w);
		v |= ((w >> fl->ctx_lo) & fmask(fl->bits)) << fl->reg_lo;
		*found = true;
	}
	return v;
}

uint32_t pfifo_ramfc_get(struct pfifo *f, uint32_t chid, uint32_t reg)
{
	bool found;
	return ramfc_find(f, chid, reg, &found);
}

static void ramfc_put(struct pfifo *f, uint32_t chid, const nvm_ramfc_field *fl, uint32_t regval)
{
	uint32_t w;
	pfifo_ramfc_rd(f, chid, fl->off, &w);
	uint32_t cm = fmask(fl->bits) << fl->ctx_lo;
	w = (w & ~cm) | ((((regval >> fl->reg_lo) & fmask(fl->bits)) << fl->ctx_lo) & cm);
	pfifo_ramfc_wr(f, chid, fl->off, w);
}

uint32_t pfifo_chan_reg(struct pfifo *f, uint32_t chid, uint32_t reg)
{
	if (chid == pfifo_chid(f))
		return bus_get(f->gpu, reg);
	return pfifo_ramfc_get(f, chid, reg);
}

void pfifo_chan_reg_set(struct pfifo *f, uint32_t chid, uint32_t reg, uint32_t v)
{
	if (chid == pfifo_chid(f)) {
		bus_set(f->gpu, reg, v);
		return;
	}
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	for (size_t i = 0; i < l->n; i++)
		if (l->f[i].reg == reg)
			ramfc_put(f, chid, &l->f[i], v);
}

/* The register slot of each field of layout l (NULL: a register this
 * generation lacks), found once per layout rather than per switch; NULL
 * without memory (the caller looks the registers up itself). */
static uint32_t **ramfc_slots(struct pfifo *f, const struct ramfc_layout *l)
{
	if (f->rf_for != l) {
		uint32_t **s = realloc(f->rf_slot, (l->n ? l->n : 1) * sizeof(*s));
		if (!s)
			return NULL;
		for (size_t i = 0; i < l->n; i++)
			s[i] = bus_reg(f->gpu, l->f[i].reg);
		f->rf_slot = s;
		f->rf_for = l;
	}
	return f->rf_slot;
}

/* Saves CACHE1's channel to its RAMFC entry and loads chid's (nouveau's
 * nv04_fifo_dma_fini does the save half in software). UNVERIFIED:
 * registers that the layout does not hold keep their values. */
static void ctx_switch(struct pfifo *f, uint32_t chid)
{
	const struct ramfc_layout *l = pfifo_ramfc_layout(f);
	uint32_t old = pfifo_chid(f);
	puller_acq_switch_out(f, old);
	puller_acq_switch_in(f, chid);
	f->acq_fence = false;
	/* seed 001: from NV50 the cache is saved to memory on a switch. */
	if (f->chip->ops->cache_save)
		f->chip->ops->cache_save(f, old);
	uint32_t **slot = ramfc_slots(f, l);
	for (size_t i = 0; i < l->n; i++) {
		const uint32_t *r = slot ? slot[i] : bus_reg(f->gpu, l->f[i].reg);
		if (r)
			ramfc_put(f, old, &l->f[i], *r);
	}
	for (size_t i = 0; i < l->n; i++) {
		const nvm_ramfc_field *fl = &l->f[i];
		uint32_t *r = slot ? slot[i] : bus_reg(f->gpu, fl->reg);
		if (!r)
			continue;
		uint32_t w;
		pfifo_ramfc_rd(f, chid, fl->off, &w);
		uint32_t rm = fmask(fl->bits) << fl->reg_lo;
		*r = (*r & ~rm) | ((((w >> fl->ctx_lo) & fmask(fl->bits)) << fl->reg_lo) & rm);
	}
	bool dma = pfifo_chan_dma(f, chid);
	*f->r_push1 = chid | (dma ? f->chip->push1_mode : 0);
	if (f->chip->ops->cache_load)
		f->chip->ops->cache_load(f, chid);
	pfifo_hints_drop(f);
	/* UNVERIFIED: the cached pushbuffer DMA object is re-read after a load. */
	bus_set(f->gpu, R_DMA_CTL, 0);
	f->stats.ctx_switches++;
	f->yield = false;
	f->fresh = true;
	/* DMA_TIMESLICE / PIO_TIMESLICE SELECT 16:0 by the channel's mode */
	uint32_t ts = FIELD_GET(bus_get(f->gpu, dma ? R_DMA_TIMESLICE : R_PIO_TIMESLICE), 16, 0);
	f->slice_end = f->clock + ts + 1;
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "ctx_switch", chid, old, "CACHE1: channel %u out, channel %u in (%s)", old,
	     chid, dma ? "DMA" : "PIO");
}

/* A unit stopped until the driver acts: the DMA pusher after an error or
 * DMA_PTE, the puller after CACHE_ERROR or SEMAPHORE. UNVERIFIED: CACHE1 keeps its
 * channel meanwhile, so the handler finds it in PUSH1 (nouveau reads it). */
static bool waits_for_driver(const struct pfifo *f)
{
	return (*f->r_dma_push & DMA_PUSH_SUSPENDED) ||
	       (*f->r_intr & (INTR_CACHE_ERROR | INTR_SEMAPHORE | INTR_DMA_PTE));
}

/* A PIO channel keeps CACHE1 until its timeslice is over when
 * PIO_TIMESLICE TIMEOUT (24:24, rnndb) is set. UNVERIFIED: without it a
 * PIO channel gives an empty CACHE1 up at once (docs/pfifo.md). */
bool pfifo_pio_slice_holds(const struct pfifo *f)
{
	uint64_t now = f->clock > f->gpu->now ? f->clock : f->gpu->now; /* f->clock inside a step */
	return !(*f->r_push1 & f->chip->push1_mode) && FIELD_GET(bus_get(f->gpu, R_PIO_TIMESLICE), 24, 24) &&
	       now < f->slice_end;
}

/* Pre-G80 CACHE1 must be empty to change channels; from G80 it is saved
 * to memory (seed 001). */
static bool cache_pins(const struct pfifo *f)
{
	return !f->chip->ops->cache_save && pfifo_cache_count(f);
}

bool pfifo_switch_to(struct pfifo *f, uint32_t chid)
{
	if (chid == pfifo_chid(f))
		return true;
	f->clock = f->gpu->now;
	if (cache_pins(f) || !FIELD_GET(*f->r_caches, 0, 0) || waits_for_driver(f) || pfifo_pio_slice_holds(f))
		return false;
	ctx_switch(f, chid);
	return true;
}

/* ---------------------------------------------------------------- scheduling */

/* UNVERIFIED (G80): a channel just loaded does some work before the
 * switcher looks again, so a timeslice shorter than a switch cannot make
 * the channels pass CACHE1 around without progress. */
static bool fresh(const struct pfifo *f)
{
	return f->chip->fresh_runs && f->fresh;
}

static bool dma_ready(struct pfifo *f)
{
	return f->chip->ops->pusher_ready(f);
}

void pfifo_kick(struct pfifo *f)
{
	if (!f->ev)
		f->ev = sched_at(f->gpu, f->gpu->now, pfifo_step_ev, f, 0, 0);
}

static int next_dma_channel(struct pfifo *f)
{
	return f->chip->ops->next_channel(f);
}

/* The switcher (intro.rst "PFIFO switcher"): with REASSIGN set and CACHE1
 * empty (seed 001: pre-G80 CACHE1 must be empty to switch; UNVERIFIED on
 * NV40, which intro.rst says switches "at essentially any moment"), a channel whose
 * pushbuffer has words takes CACHE1 when the current one has nothing to
 * push, its timeslice (DMA_TIMESLICE SELECT 16:0, ns in the model) is over,
 * or it executed YIELD. UNVERIFIED: the unit of SELECT. */
/* NEXT_CHANNEL (rnndb: CHID, MODE, SWITCH 12:12). UNVERIFIED (no document
 * or nouveau use): a driver write with SWITCH set asks for a switch to
 * CHID at the next chance, ahead of the timeslice and whether or not the
 * channel has pushbuffer words; the channel's mode comes from MODE.
 * SWITCH reads 1 until the switch is done. */
static bool next_channel_request(struct pfifo *f, uint32_t *chid)
{
	uint32_t nc = bus_get(f->gpu, R_NEXT_CHANNEL);
	if (!FIELD_GET(nc, 12, 12))
		return false;
	*chid = nc & f->chip->chid_mask;
	if (*chid < f->chip->nchan)
		return true;
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "next_channel", *chid, nc,
	     "NEXT_CHANNEL asks for channel %u, beyond the chip's %u: ignored", *chid, f->chip->nchan);
	bus_set(f->gpu, R_NEXT_CHANNEL, nc & ~(1u << 12));
	return false;
}

static bool switcher(struct pfifo *f, uint64_t *t)
{
	if (!FIELD_GET(*f->r_caches, 0, 0) || cache_pins(f) || waits_for_driver(f))
		return false;
	uint32_t want;
	if (next_channel_request(f, &want)) {
		bus_set(f->gpu, R_NEXT_CHANNEL, bus_get(f->gpu, R_NEXT_CHANNEL) & ~(1u << 12));
		if (want == pfifo_chid(f))
			return false;
		ctx_switch(f, want);
		*t += PFIFO_NS_CTXSW;
		return true;
	}
	bool expired = (f->yield || f->clock >= f->slice_end) && !fresh(f);
	if (pfifo_pio_slice_holds(f))
		return false;
	if (f->chip->ops->chan_busy(f) && !expired)
		return false;
	int c = next_dma_channel(f);
	if (c < 0) {
		f->yield = false;
		return false;
	}
	ctx_switch(f, (uint32_t)c);
	*t += PFIFO_NS_CTXSW;
	return true;
}

/* Whether the current channel stops pushing so that CACHE1 drains for a
 * switch: its timeslice is over (or it yielded) and another channel waits. */
static bool switch_pending(struct pfifo *f)
{
	uint32_t want;
	if (f->chip->ops->frozen && f->chip->ops->frozen(f))
		return true; /* FREEZE: stop fetching */
	if (!FIELD_GET(*f->r_caches, 0, 0) || waits_for_driver(f))
		return false;
	if (next_channel_request(f, &want) && want != pfifo_chid(f))
		return true;
	if ((!f->yield && f->clock < f->slice_end) || fresh(f))
		return false;
	return next_dma_channel(f) >= 0;
}

/* The scheduled step: the generation's work (pfifo_step on NV04..G80). */
void pfifo_step_ev(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	(void)arg;
	struct pfifo *f = ctx;
	f->ev = 0;
	f->chip->ops->step(f);
}

void pfifo_kick_at(struct pfifo *f, uint64_t t)
{
	if (!f->ev)
		f->ev = sched_at(f->gpu, t > f->gpu->now ? t : f->gpu->now, pfifo_step_ev, f, 0, 0);
}

/* The step of NV04..G80: the CACHE0 and CACHE1 pullers, the switcher and
 * the DMA pusher, until nothing moves or the step's work is done. */
void pfifo_step(struct pfifo *f)
{
	nvm_gpu *gpu = f->gpu;
	uint64_t t = gpu->now;
	uint32_t done = 0;
	bool more = false;
	if (f->chip->ops->frozen && f->chip->ops->frozen(f))
		return;
	puller_acq_wakeups(f);
	for (;;) {
		if (!sched_budget_left(gpu) || done >= PFIFO_STEP_WORDS) {
			more = true;
			break;
		}
		uint32_t n = 0;
		f->clock = t;
		n += puller_run_cache0(f, &t);
		f->clock = t;
		if (puller_ready(f))
			n += puller_run(f, PFIFO_STEP_WORDS, &t);
		f->clock = t;
		if (switcher(f, &t)) {
			/* a RAMFC save and load: a unit of the run budget, so
			 * channels that switch to and fro without progress hang */
			n++;
			sched_charge(gpu, 1);
		}
		f->clock = t;
		if (dma_ready(f) && !switch_pending(f)) {
			/* no more words than the run budget has left (charged per
			 * PFIFO_WORK_PER_UNIT below): a self-loop stops within a unit */
			uint64_t room = sched_budget_left(gpu);
			room = room < PFIFO_STEP_WORDS / PFIFO_WORK_PER_UNIT ? room * PFIFO_WORK_PER_UNIT
			                                                     : PFIFO_STEP_WORDS;
			uint32_t max = PFIFO_STEP_WORDS - done < room ? PFIFO_STEP_WORDS - done : (uint32_t)room;
			n += f->chip->ops->pusher_run(f, max, &t);
		}
		if (!n)
			break;
		if (n > 1 || !f->fresh)
			f->fresh = false; /* more than the switch itself */
		done += n;
		f->work_rest += n;
		sched_charge(gpu, f->work_rest / PFIFO_WORK_PER_UNIT);
		f->work_rest %= PFIFO_WORK_PER_UNIT;
	}
	f->clock = gpu->now;
	if (done && emit_wanted(gpu, NVM_EV_TRACE))
		emit(gpu, NVM_EV_TRACE, "pfifo", "cache", pfifo_chid(f), pfifo_cache_count(f),
		     "CACHE1: %u entries after the step (channel %u)", pfifo_cache_count(f), pfifo_chid(f));
	/* UNVERIFIED (the costs are the model's): a method logged in this step
	 * carries the step time t it was delivered at (puller_submit), not the
	 * step's start. The work done costs time: the next step runs when it is over (and
	 * finds nothing to do if nothing changed meanwhile). A channel stuck
	 * before its timeslice ends while another waits is looked at again
	 * when the timeslice is over. */
	if (more || done)
		f->ev = sched_at(gpu, t > gpu->now ? t : gpu->now + 1, pfifo_step_ev, f, 0, 0);
	else if (f->slice_end > gpu->now && FIELD_GET(*f->r_caches, 0, 0) && next_dma_channel(f) >= 0)
		f->ev = sched_at(gpu, f->slice_end, pfifo_step_ev, f, 0, 0);
}

/* ---------------------------------------------------------------- handlers */

uint32_t pfifo_rd_intr(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)ctx;
	(void)r;
	return stored;
}

void pfifo_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)stored;
	(void)old;
	struct pfifo *f = ctx;
	/* UNVERIFIED: clearing ACQUIRE_TIMEOUT while the acquire still waits
	 * starts a new interval (ACQUIRE_TIMESTAMP = PTIMER; a generation
	 * without the register has no acquire). */
	if (r->offset == R_INTR && (written & INTR_ACQUIRE_TIMEOUT) && (*f->r_pull1 & PULL1_ACQUIRE_ACTIVE))
		bus_set(f->gpu, R_ACQ_TIMESTAMP, (uint32_t)ptimer_read(f->gpu));
	pfifo_update_intr(f);
	pfifo_kick(f); /* clearing an interrupt resumes the unit it stopped */
}

void pfifo_wr_kick(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	pfifo_kick(ctx);
}

/* PULL0: ACCESS is the only writable bit; a write clears the error status
 * (HASH_FAILED, DEVICE_SOFTWARE, SEMAPHORE_ERROR), as nouveau's handlers
 * expect when they write 1 after a CACHE_ERROR or SEMAPHORE interrupt. */
void pfifo_wr_pull0(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	*stored &= PULL0_ACCESS | PULL0_ACQUIRE_BUSY;
	pfifo_kick(ctx);
}

uint32_t pfifo_rd_debug0(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	/* CACHE_ERROR1 (4:4): the CACHE1 puller is stopped on an error. */
	return (*f->r_intr & INTR_CACHE_ERROR) ? 0x10u : 0;
}

/* RUNOUT_STATUS: RANOUT 0, EMPTY 4, FULL 8 (rnndb), from RUNOUT_PUT/GET. */
static uint32_t ramro_size(struct pfifo *f)
{
	return FIELD_GET(bus_get(f->gpu, R_RAMRO), 16, 16) ? 0x2000u : 0x200u;
}

uint32_t pfifo_rd_runout_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	uint32_t m = ramro_size(f) - 1, put = bus_get(f->gpu, R_RUNOUT_PUT) & m,
	         get = bus_get(f->gpu, R_RUNOUT_GET) & m;
	uint32_t v = 0;
	if (put != get)
		v |= 1u;
	else
		v |= 1u << 4;
	if (((put + 8) & m) == get)
		v |= 1u << 8;
	return v;
}

uint32_t pfifo_rd_caches(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct pfifo *f = ctx;
	/* DMA_SUSPEND_BUSY (4:4): the DMA pusher has a burst in flight. */
	return (stored & 1u) | (f->ev && pusher_dma_ready(f) ? 0x10u : 0);
}

uint32_t pfifo_rd_dma_pending(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	uint32_t v = 0;
	for (uint32_t c = 0; c < f->chip->nchan; c++) {
		if (!FIELD_GET(*f->r_mode, c, c))
			continue;
		uint32_t put = pfifo_chan_reg(f, c, R_DMA_PUT), get = pfifo_chan_reg(f, c, R_DMA_GET);
		if ((put ^ get) & ~3u)
			v |= 1u << c;
	}
	return v;
}

/* CACHE0 STATUS: EMPTY 4 while PUT == GET, FULL 8 otherwise (one slot). */
uint32_t pfifo_rd_cache0_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	return pcache_count(&f->c0) ? 1u << 8 : 1u << 4;
}

uint32_t pfifo_rd_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct pfifo *f = ctx;
	uint32_t n = pfifo_cache_count(f);
	return (n ? 0 : 1u << 4) | (n == f->cache_mask ? 1u << 8 : 0);
}

uint32_t pfifo_rd_dma_push(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct pfifo *f = ctx;
	uint32_t v = stored & (DMA_PUSH_ACCESS | DMA_PUSH_SUSPENDED);
	if (!((*f->r_dma_put ^ *f->r_dma_get) & ~3u))
		v |= DMA_PUSH_EMPTY;
	else if (pusher_dma_ready(f))
		v |= DMA_PUSH_BUSY;
	return v;
}

uint32_t pfifo_rd_pull0(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct pfifo *f = ctx;
	return (stored & ~PULL0_ACQUIRE_BUSY) | ((*f->r_pull1 & PULL1_ACQUIRE_ACTIVE) ? PULL0_ACQUIRE_BUSY : 0);
}

/* MODE: a channel's PIO/DMA bit; CACHE1's channel takes it in PUSH1 MODE. */
void pfifo_wr_mode(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	struct pfifo *f = ctx;
	uint32_t c = pfifo_chid(f);
	if (c < f->chip->nchan) {
		bool dma = (*stored >> c) & 1;
		*f->r_push1 = (*f->r_push1 & ~f->chip->push1_mode) | (dma ? f->chip->push1_mode : 0);
	}
	pfifo_kick(f);
}

void pfifo_wr_ptr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	struct pfifo *f = ctx;
	pfifo_hints_drop(f); /* GET or PUT anywhere */
	*stored &= f->cache_mask << 2;
	pfifo_kick(f);
}

void pfifo_wr_push1(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct pfifo *f = ctx;
	*stored = written & (f->chip->chid_mask | f->chip->push1_mode);
	pfifo_kick(f);
}

/* ---------------------------------------------------------------- registers */

/* A register of a layer, with the layer's rank. */
struct layer_reg {
	struct reg_desc r;
	size_t layer;
};

static int layer_reg_cmp(const void *a, const void *b)
{
	const struct layer_reg *x = a, *y = b;
	if (x->r.offset != y->r.offset)
		return x->r.offset < y->r.offset ? -1 : 1;
	return x->layer < y->layer ? -1 : x->layer > y->layer;
}

/* The layers' registers (or their drops, with only the offset set), sorted
 * by (offset, layer). */
static struct layer_reg *layer_regs(const struct reg_layer *const *layers, bool gone, size_t *n)
{
	*n = 0;
	for (size_t l = 0; layers[l]; l++)
		*n += gone ? layers[l]->ngone : layers[l]->n;
	struct layer_reg *all = malloc((*n ? *n : 1) * sizeof(*all));
	if (!all)
		return NULL;
	size_t k = 0;
	for (size_t l = 0; layers[l]; l++)
		for (size_t j = 0; j < (gone ? layers[l]->ngone : layers[l]->n); j++)
			all[k++] = gone ? (struct layer_reg){ { .offset = layers[l]->gone[j] }, l }
			                : (struct layer_reg){ layers[l]->r[j], l };
	qsort(all, *n, sizeof(*all), layer_reg_cmp);
	return all;
}

/* The generation's registers: its layers from the oldest ancestor on, each
 * dropping registers and adding or replacing others. Sorted by (offset,
 * layer), an offset's register is its last layer's, unless a later layer
 * drops it (a layer's drops come before its own additions); the drops,
 * sorted the same way, are merged in (the last layer dropping an offset
 * is the one that counts). */
static nvm_status build_regs(struct pfifo *f)
{
	const struct reg_layer *const *layers = f->chip->regs;
	size_t n, ngone;
	struct layer_reg *all = layer_regs(layers, false, &n), *gone = layer_regs(layers, true, &ngone);
	f->regs = calloc(n ? n : 1, sizeof(*f->regs));
	if (!all || !gone || !f->regs) {
		free(all);
		free(gone);
		return NVM_ERR_NOMEM;
	}
	size_t g = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t off = all[i].r.offset;
		if (i + 1 < n && all[i + 1].r.offset == off)
			continue; /* replaced by a later layer */
		while (g < ngone && gone[g].r.offset < off)
			g++;
		while (g + 1 < ngone && gone[g + 1].r.offset == off)
			g++;
		if (g < ngone && gone[g].r.offset == off && gone[g].layer > all[i].layer)
			continue; /* dropped by a later layer */
		struct reg_desc *r = &f->regs[f->nregs++];
		*r = all[i].r;
		if (r->write == pfifo_wr_mode)
			r->wmask = (uint32_t)(((uint64_t)1 << f->chip->nchan) - 1);
		if (r->write == pfifo_wr_ptr)
			r->wmask = f->cache_mask << 2;
	}
	free(all);
	free(gone);
	return NVM_OK;
}

/* ---------------------------------------------------------------- USER areas */

static bool user_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	struct pfifo *f = ctx;
	*val = f->chip->ops->user_read(f, addr);
	return true;
}

static bool user_wr(void *ctx, uint32_t addr, uint32_t val)
{
	struct pfifo *f = ctx;
	f->chip->ops->pio_store(f, addr, val, 4);
	return true;
}

/* ---------------------------------------------------------------- block */

static void pfifo_destroy(nvm_gpu *gpu, void *state)
{
	(void)gpu;
	struct pfifo *f = state;
	if (!f)
		return;
	puller_fini(f);
	if (f->chip->ops->fini)
		f->chip->ops->fini(f);
	for (unsigned i = 0; i < ENG_IDS; i++)
		engine_free(f->eng[i]);
	free(f->regs);
	free(f->rf_slot);
	free(f->cache_addr);
	free(f->cache_data);
	free(f->cache_hint);
	free(f->cls);
	free(f->objctx);
	free(f);
}

uint32_t *pfifo_reg_slot(struct pfifo *f, uint32_t addr)
{
	uint32_t *p = bus_reg(f->gpu, addr);
	return p ? p : &f->absent;
}

nvm_status pfifo_add_window(struct pfifo *f, const char *name, uint32_t base, uint32_t size, win_read_fn rd,
                            win_write_fn wr)
{
	return bus_add(f->gpu, &(struct reg_block){ .name = name,
	                                            .base = base,
	                                            .size = size,
	                                            .ctx = f,
	                                            .win_read = rd,
	                                            .win_write = wr });
}

static nvm_status pfifo_create(nvm_gpu *gpu, const void *data, void **state)
{
	const struct pfifo_gen *chip = data;
	struct pfifo *f = calloc(1, chip->size);
	if (!f)
		return NVM_ERR_NOMEM;
	*state = f;
	f->gpu = gpu;
	f->chip = chip;
	f->pbgen = pb_chip_gen(gpu->chip);
	f->cache_mask = chip->cache_entries - 1;
	f->cache_addr = calloc(chip->cache_entries, sizeof(uint32_t));
	f->cache_data = calloc(chip->cache_entries, sizeof(uint32_t));
	f->cache_hint = calloc(chip->cache_entries, sizeof(uint16_t));
	f->cls = calloc(chip->nchan, sizeof(*f->cls));
	f->objctx = calloc(chip->nchan, sizeof(*f->objctx));
	if (!f->pbgen || !f->cache_addr || !f->cache_data || !f->cache_hint || !f->cls || !f->objctx)
		return NVM_ERR_NOMEM;
	nvm_status st = engine_new(gpu, "software", pfifo_engine_name(chip, ENG_SOFTWARE), 0, &f->eng[ENG_SOFTWARE]);
	for (unsigned i = ENG_PGRAPH; !st && i < ENG_IDS; i++)
		if (i == ENG_PGRAPH || (chip->engines & (1u << i)))
			st = engine_new(gpu, "recorder", pfifo_engine_name(chip, i), 0, &f->eng[i]);
	f->sw = f->eng[ENG_SOFTWARE];
	f->pgraph = f->eng[ENG_PGRAPH];
	if (!st)
		st = build_regs(f);
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "pfifo",
		                                       .base = 0x2000,
		                                       .size = 0x2000,
		                                       .regs = f->regs,
		                                       .nregs = f->nregs,
		                                       .ctx = f,
		                                       .win_read = pfifo_win_rd,
		                                       .win_write = pfifo_win_wr });
	if (!st)
		st = pfifo_add_window(f, "pfifo_user", PFIFO_USER, chip->pio_channels * 0x10000u, user_rd, user_wr);
	if (st)
		return st;
	intr_init(&f->intr, gpu, &pfifo_intr, f);
	f->r_intr = pfifo_reg_slot(f, R_INTR);
	f->r_intr_en = pfifo_reg_slot(f, R_INTR_EN);
	f->r_push0 = pfifo_reg_slot(f, R_PUSH0);
	f->r_push1 = pfifo_reg_slot(f, R_PUSH1);
	f->r_put = pfifo_reg_slot(f, R_PUT);
	f->r_get = pfifo_reg_slot(f, R_GET);
	f->r_pull0 = pfifo_reg_slot(f, R_PULL0);
	f->r_pull1 = pfifo_reg_slot(f, R_PULL1);
	f->r_caches = pfifo_reg_slot(f, R_CACHES);
	f->r_mode = pfifo_reg_slot(f, R_MODE);
	f->r_dma_push = pfifo_reg_slot(f, R_DMA_PUSH);
	f->r_dma_state = pfifo_reg_slot(f, R_DMA_STATE);
	f->r_dma_put = pfifo_reg_slot(f, R_DMA_PUT);
	f->r_dma_get = pfifo_reg_slot(f, R_DMA_GET);
	f->r_dma_fetch = pfifo_reg_slot(f, R_DMA_FETCH);
	f->r_dma_inst = pfifo_reg_slot(f, R_DMA_INSTANCE);
	f->r_engine = pfifo_reg_slot(f, R_ENGINE);
	f->r_hash = pfifo_reg_slot(f, R_HASH);
	f->r_ref = pfifo_reg_slot(f, R_REF);
	f->r_subr = pfifo_reg_slot(f, R_SUBROUTINE);
	f->r_sem = pfifo_reg_slot(f, R_SEMAPHORE);
	f->r_acq_value = pfifo_reg_slot(f, R_ACQ_VALUE);
	f->r_sli = pfifo_reg_slot(f, R_SLI);
	f->r_dcount = pfifo_reg_slot(f, R_DCOUNT);
	f->r_jmp_shd = pfifo_reg_slot(f, R_GET_JMP_SHD);
	f->r_rsvd_shd = pfifo_reg_slot(f, R_RSVD_SHD);
	f->r_data_shd = pfifo_reg_slot(f, R_DATA_SHD);
	f->r_dma_tlb_tag = pfifo_reg_slot(f, R_DMA_TLB_TAG);
	f->r_dma_tlb_pte = pfifo_reg_slot(f, R_DMA_TLB_PTE);
	f->c1 = (struct pcache){ "",
		                 f->r_push1,
		                 f->r_put,
		                 f->r_get,
		                 f->r_pull0,
		                 f->r_pull1,
		                 f->r_hash,
		                 f->r_engine,
		                 f->cache_addr,
		                 f->cache_data,
		                 f->cache_mask,
		                 f->cache_mask << 2,
		                 false,
		                 false,
		                 f->cache_hint,
		                 0 };
	f->c0 = (struct pcache){ "CACHE0: ",
		                 pfifo_reg_slot(f, R_CACHE0_PUSH1),
		                 pfifo_reg_slot(f, R_CACHE0_PUT),
		                 pfifo_reg_slot(f, R_CACHE0_GET),
		                 pfifo_reg_slot(f, R_CACHE0_PULL0),
		                 pfifo_reg_slot(f, R_CACHE0_PULL1),
		                 pfifo_reg_slot(f, R_CACHE0_HASH),
		                 pfifo_reg_slot(f, R_CACHE0_ENGINE),
		                 pfifo_reg_slot(f, R_CACHE0_METHOD),
		                 pfifo_reg_slot(f, R_CACHE0_DATA),
		                 0,
		                 4,
		                 true,
		                 false,
		                 NULL,
		                 0 };
	f->c0.hint = &f->c0.hint0;
	f->pc = &f->c1;
	return chip->ops->init(f);
}

static bool pfifo_busy(void *state)
{
	return ((struct pfifo *)state)->ev != 0;
}

const struct block_class pfifo_class = {
	.name = "pfifo",
	.create = pfifo_create,
	.destroy = pfifo_destroy,
	.busy = pfifo_busy,
	.snap = &pfifo_snap,
};

/* ---------------------------------------------------------------- public API */

nvm_status nvm_pfifo_user_write(nvm_gpu *gpu, uint32_t addr, uint32_t val, unsigned size)
{
	struct pfifo *f = pfifo_of(gpu);
	if (!gpu || (size != 1 && size != 2 && size != 4))
		return NVM_ERR_ARG;
	if (!f)
		return NVM_ERR_NOENT;
	if (addr < PFIFO_USER || addr - PFIFO_USER >= f->chip->pio_channels * 0x10000u)
		return NVM_ERR_RANGE;
	if (hold_check(gpu, NVM_HOLD_MMIO, "MMIO", addr))
		return NVM_ERR_BLOCKED;
	api_enter(gpu);
	f->chip->ops->pio_store(f, addr, val, size);
	api_leave(gpu);
	return NVM_OK;
}

/* The NV40 RAMIN BAR (nv4-vram.rst "RAMIN" is "todo"; nouveau's
 * nv40_instmem_new maps PCI BAR 2 or 3 and accesses RAMIN address a at
 * a). UNVERIFIED: it covers RAMIN 0..16 MiB (within VRAM) with the same
 * end-of-VRAM, reversed-word placement as the PRAMIN window. */
static nvm_status ramin_bar_check(nvm_gpu *gpu, uint32_t off, size_t len, struct pfifo **out)
{
	struct pfifo *f = pfifo_of(gpu);
	if (!gpu)
		return NVM_ERR_ARG;
	if (!f || !f->chip->ramin_bar)
		return NVM_ERR_NOENT;
	uint64_t end = (uint64_t)off + len;
	if (end > NVM_PFIFO_RAMIN_BAR_SIZE || end > f->gpu->mem[NVM_AP_VRAM].size)
		return NVM_ERR_RANGE;
	if (hold_check(gpu, NVM_HOLD_MMIO, "RAMIN BAR", off))
		return NVM_ERR_BLOCKED;
	*out = f;
	return NVM_OK;
}

nvm_status nvm_pfifo_ramin_bar_read(nvm_gpu *gpu, uint32_t off, void *buf, size_t len)
{
	struct pfifo *f = NULL;
	nvm_status st = buf || !len ? ramin_bar_check(gpu, off, len, &f) : NVM_ERR_ARG;
	for (size_t i = 0; !st && i < len; i++) {
		uint32_t a = off + (uint32_t)i, w;
		pfifo_ramin_rd32(f, a & ~3u, &w);
		((uint8_t *)buf)[i] = (uint8_t)(w >> (8 * (a & 3)));
	}
	return st;
}

nvm_status nvm_pfifo_ramin_bar_write(nvm_gpu *gpu, uint32_t off, const void *buf, size_t len)
{
	struct pfifo *f = NULL;
	nvm_status st = buf || !len ? ramin_bar_check(gpu, off, len, &f) : NVM_ERR_ARG;
	for (size_t i = 0; !st && i < len; i++) {
		uint32_t a = off + (uint32_t)i, w, sh = 8 * (a & 3);
		pfifo_ramin_rd32(f, a & ~3u, &w);
		w = (w & ~(0xffu << sh)) | (uint32_t)((const uint8_t *)buf)[i] << sh;
		pfifo_ramin_wr32(f, a & ~3u, w);
	}
	return st;
}

nvm_status nvm_pfifo_get_stats(const nvm_gpu *gpu, nvm_pfifo_stats *out)
{
	struct pfifo *f = pfifo_of(gpu);
	if (!gpu || !out)
		return NVM_ERR_ARG;
	if (!f)
		return NVM_ERR_NOENT;
	*out = f->stats;
	return NVM_OK;
}

const nvm_ramfc_field *nvm_pfifo_ramfc_layout(const char *chip, int large, size_t *n, uint32_t *size)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	if (!c || !n || !size)
		return NULL;
	const struct ramfc_layout *l = large && c->ramfc_large ? c->ramfc_large : c->ramfc;
	*n = l->n;
	*size = l->size;
	return l->f;
}

bool nvm_pfifo_has_engine(const char *chip, unsigned engine)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	return c && (engine <= ENG_PGRAPH || (engine < 32 && (c->engines & (1u << engine))));
}

const char *nvm_pfifo_engine_name(const char *chip, unsigned engine)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	const char *n = c ? pfifo_engine_name(c, engine) : "?";
	return strcmp(n, "?") ? n : NULL;
}

int nvm_pfifo_ramht_has_chid(const char *chip)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	return c ? c->ramht.chid : -1;
}

uint32_t nvm_pfifo_channels(const char *chip)
{
	const struct pfifo_gen *c = pfifo_gen_find(chip);
	return c ? c->nchan : 0;
}
