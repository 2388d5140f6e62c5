/*
 * The PBDMA units of the Host (gv100_dev_pbdma.ref.txt): the registers
 * RAMFC mirrors (seed 000 section 3), context load and save, USERD (section
 * 4), GP entries (volta-facts.md a), PB segments through the channel's MMU,
 * the shared pushbuffer decoder (src/pushbuf), Host methods, semaphores and
 * the PBDMA interrupts (volta-facts.md c). The register file, the RAMFC and
 * RAMUSERD layouts and the host class's method table are the generation's
 * (struct host_gen, gv100.c).
 *
 * A PBDMA works in steps: one scheduled event handles up to
 * HOST_STEP_DWORDS PB entries, then schedules the next step after the
 * virtual time they cost. A method that cannot complete (a software method,
 * an invalid method, a failing acquire) is left in METHOD0/DATA0 with VALID
 * set, as the hardware's method FIFO keeps it; the decoder is rewound to just
 * past it, and the method is executed again from METHOD0 when the PBDMA
 * resumes (after software cleared the interrupt, or the acquire's memory
 * changed).
 */
#include <stdio.h>
#include <string.h>

#include "fifo/fetch.h"
#include "fifo/sem.h"
#include "host_internal.h"

/* ---------------------------------------------------------------- registers */

static struct pbdma *pbdma_of_reg(void *ctx, const uint32_t *stored)
{
	struct host *h = ctx;
	return &h->pb[(size_t)(stored - h->pbdma_vals) / PBR_COUNT];
}

nvm_status pbdma_add_regs(struct host *h)
{
	const struct host_gen *g = h->gen;
	h->pbdma_array = (struct reg_array){ g->pbdma_base, g->pbdma_stride, g->npbdma,
		                             g->pbdma_regs, PBR_COUNT,       h->pbdma_vals };
	const struct reg_block b = {
		"pbdma", g->pbdma_base, g->npbdma * g->pbdma_stride, NULL, 0, h, NULL, NULL, &h->pbdma_array, 1, NULL
	};
	return bus_add(h->gpu, &b);
}

/* The PBDMA register (enum pbr) named reg, PBR_COUNT if none. Every GPU
 * open asks for a few dozen: a name's first letter is compared before the
 * whole name. */
static unsigned pbr_named(const struct host_gen *g, const char *reg)
{
	for (unsigned i = 0; reg && i < PBR_COUNT; i++)
		if (g->pbdma_regs[i].name && g->pbdma_regs[i].name[0] == reg[0] && !strcmp(g->pbdma_regs[i].name, reg))
			return i;
	return PBR_COUNT;
}

unsigned pbdma_ramfc_runs(const struct host *h, struct ramfc_run *runs)
{
	unsigned n = 0;
	for (unsigned i = 0; i < h->nramfc; i++) {
		struct ramfc_run *run = n ? &runs[n - 1] : NULL;
		if (run && run->dword + run->n == h->ramfc[i].dword && run->reg + run->n == h->ramfc[i].reg)
			run->n++;
		else
			runs[n++] = (struct ramfc_run){ h->ramfc[i].dword, h->ramfc[i].reg, 1 };
	}
	return n;
}

/* The RAMFC layout names the register each dword mirrors ("The offsets of
 * the fields within each entry in RAMFC match those of the corresponding
 * register", seed 000 section 3): a context load and save carry exactly
 * those. The RAMUSERD layout gives the entries the PBDMA writes back (all
 * that mirror a register but GP_PUT, which software writes) and GP_PUT. */
nvm_status pbdma_layouts(struct host *h)
{
	const struct host_gen *g = h->gen;
	const nvm_hf_layout *fc = &g->layouts[NVM_HF_RAMFC], *ud = &g->layouts[NVM_HF_USERD];
	h->nramfc = 0;
	/* The register at each offset of the RAMFC's size (PBR_COUNT: none). */
	_Static_assert(PBR_COUNT < 256, "a register index fits a byte");
	uint8_t at[NVM_RAMFC_SIZE / 4];
	memset(at, PBR_COUNT, sizeof(at));
	for (unsigned r = PBR_COUNT; r-- > 0;)
		if (g->pbdma_regs[r].offset < NVM_RAMFC_SIZE && !(g->pbdma_regs[r].offset & 3))
			at[g->pbdma_regs[r].offset / 4] = (uint8_t)r;
	for (size_t i = 0; i < fc->nwords; i++) {
		const nvm_hf_word *w = &fc->words[i];
		if (!w->reg)
			continue;
		/* the register at the dword's offset must bear the name */
		unsigned r = w->dword < NVM_RAMFC_SIZE / 4 ? at[w->dword] : PBR_COUNT;
		if (r == PBR_COUNT || !g->pbdma_regs[r].name || strcmp(g->pbdma_regs[r].name, w->reg) ||
		    h->nramfc == PBR_COUNT)
			return NVM_ERR_CHIP; /* the generation's register file and RAMFC disagree */
		h->ramfc[h->nramfc].dword = (uint8_t)w->dword;
		h->ramfc[h->nramfc++].reg = (uint8_t)r;
		if (r == PBR_USERD)
			h->ramfc_userd = (uint8_t)w->dword;
		if (r == PBR_USERD_HI)
			h->ramfc_userd_hi = (uint8_t)w->dword;
		if (r == PBR_GP_GET)
			h->ramfc_gp_get = (uint8_t)w->dword;
	}
	struct ramfc_run runs[PBR_COUNT];
	unsigned nruns = pbdma_ramfc_runs(h, runs);
	memset(h->nramfc_blk, 0, sizeof(h->nramfc_blk));
	for (unsigned i = 0; i < nruns; i++) {
		const struct ramfc_run *run = &runs[i];
		/* size class c copies w words: 16, 8 or 4 bytes */
		unsigned c = run->n >= 4 ? 0 : run->n >= 2 ? 1 : 2, w = 4u >> c;
		for (unsigned k = 0; k < run->n; k += w) {
			unsigned o = k + w <= run->n ? k : run->n - w; /* the last one overlaps */
			h->ramfc_blk[c][h->nramfc_blk[c]++] =
			        (struct ramfc_blk){ (uint8_t)(run->dword + o), (uint8_t)(run->reg + o) };
		}
	}
	h->userd_wb_lo = UINT32_MAX;
	h->userd_wb_hi = 0;
	h->nuserd_wb = 0;
	for (size_t i = 0; i < ud->nwords; i++) {
		const nvm_hf_word *w = &ud->words[i];
		if (!w->reg)
			continue; /* mirrors no register (ga100 REF_THRESHOLD) */
		unsigned r = pbr_named(g, w->reg);
		if (r == PBR_GP_PUT) {
			h->userd_gp_put = 4u * w->dword;
			continue;
		}
		if (r == PBR_COUNT || h->nuserd_wb == HOST_USERD_WB_MAX)
			return NVM_ERR_CHIP;
		h->userd_wb[h->nuserd_wb].off = (uint16_t)(4u * w->dword);
		h->userd_wb[h->nuserd_wb++].reg = (uint8_t)r;
		if (4u * w->dword < h->userd_wb_lo)
			h->userd_wb_lo = 4u * w->dword;
		if (4u * w->dword + 4 > h->userd_wb_hi)
			h->userd_wb_hi = 4u * w->dword + 4;
	}
	return h->nuserd_wb && h->userd_wb_hi - h->userd_wb_lo <= 4 * HOST_USERD_WB_SPAN ? NVM_OK : NVM_ERR_CHIP;
}

void pbdma_init(struct host *h, struct pbdma *p, unsigned id)
{
	memset(p, 0, sizeof(*p));
	p->h = h;
	p->id = id;
	p->chid = -1;
	p->r = &h->pbdma_vals[id * PBR_COUNT];
}

/* What the PBDMA keeps only for speed, derived from its state: the
 * engine decisions of its run loop (pick_valid, pick, pick_rec, pick_log, pick_st;
 * pick_log also picks take_runs' version, a hint). Dropped, they are made
 * again from the registers and the channel at the next runs: a restored
 * PBDMA calls this. */
void pbdma_drop_derived(struct pbdma *p)
{
	p->pick_valid = 0;
	p->pick_rec = 0;
	p->pick_log = 0;
	p->pick_st = 0;
	memset(p->pick, 0, sizeof(p->pick));
}

void pbdma_fini(struct pbdma *p)
{
	(void)p;
}

static nvm_gpu *gpu_of(const struct pbdma *p)
{
	return p->h->gpu;
}

static struct chan *cur_chan(struct pbdma *p)
{
	return host_chan(p->h, (uint32_t)p->chid);
}

/* ---------------------------------------------------------------- interrupts */

static const char *const intr0_names[32] = {
	[0] = "MEMREQ",   [5] = "MEMFLUSH",   [13] = "GPFIFO",  [14] = "GPPTR",     [15] = "GPENTRY",
	[16] = "GPCRC",   [17] = "PBPTR",     [18] = "PBENTRY", [19] = "PBCRC",     [20] = "CLEAR_FAULTED_ERROR",
	[21] = "METHOD",  [22] = "METHODCRC", [23] = "DEVICE",  [24] = "ENG_RESET", [25] = "SEMAPHORE",
	[26] = "ACQUIRE", [27] = "PRI",       [30] = "PBSEG",   [31] = "SIGNATURE",
};

static void raise(struct pbdma *p, enum pbr reg, uint32_t bit, const char *why)
{
	struct host *h = p->h;
	p->r[reg] |= bit;
	h->stats.pbdma_intrs++;
	unsigned n = 0;
	while (n < 31 && !((bit >> n) & 1u))
		n++;
	const char *name = reg == PBR_INTR_0 ? intr0_names[n] : n == 31 ? "CTXNOTVALID" : "HCE";
	/* A software method is normal operation, not a guest error. */
	nvm_event_type t = bit == INTR0_DEVICE && reg == PBR_INTR_0 ? NVM_EV_TRACE : NVM_EV_GUEST_ERROR;
	emit(h->gpu, t, "pbdma", "pbdma_intr", p->id, bit, "PBDMA %u channel %d: INTR_%d %s: %s", p->id, p->chid,
	     reg == PBR_INTR_0 ? 0 : 1, name ? name : "?", why);
	host_update_intr(h);
}

static void step(nvm_gpu *gpu, void *ctx, uint64_t arg);

static void arm_step(struct pbdma *p, uint64_t delay)
{
	if (!p->ev)
		p->ev = sched_at(gpu_of(p), gpu_of(p)->now + delay, step, p, 0, 0);
}

void pbdma_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	struct pbdma *p = pbdma_of_reg(ctx, stored);
	host_update_intr(p->h);
	if (pbdma_stalled(p))
		return;
	/* Cleared: the unit resumes (METHOD0 is executed again if still VALID). */
	if (p->state == PBS_RUN)
		arm_step(p, 0);
	else if (p->rl)
		host_schedule(p->h, p->rl);
}

void pbdma_wr_intr_en(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	host_update_intr(pbdma_of_reg(ctx, stored)->h);
}

/* ---------------------------------------------------------------- memory */

/* Translates a Host access of the loaded channel (MMU engine HOST0 + id,
 * HUB client HOST). false after a fault (reported by the MMU). */
static bool pb_translate_page(struct pbdma *p, uint64_t va, nvm_mmu_access acc, nvm_aperture *ap, uint64_t *pa,
                              bool *sparse, uint64_t *left)
{
	struct host *h = p->h;
	nvm_mmu_request req = {
		.inst_target = p->inst_target,
		.inst_addr = p->inst,
		.veid = -1,
		.va = va,
		.access = acc,
		.engine_id = NVM_MMU_ENG_HOST0 + p->id,
		.client_type = NVM_MMU_CLIENT_HUB,
		.client_id = 6, /* HOST (volta-facts.md f) */
		/* UNVERIFIED: a channel with CONFIG AUTH_LEVEL PRIVILEGED may
		 * reach PRIVILEGE pages. */
		.privileged = (int)FIELD_GET(p->r[PBR_CONFIG], 8, 8),
	};
	nvm_mmu_result res;
	if (nvm_mmu_translate(h->gpu, &req, &res) || res.fault != NVM_MMU_FAULT_NONE)
		return false;
	*sparse = res.sparse != 0;
	*ap = res.target == NVM_MMU_TGT_VID ? NVM_AP_VRAM : NVM_AP_SYSMEM;
	*pa = res.pa;
	*left = res.page_size - (va & (res.page_size - 1));
	return true;
}

static bool pb_translate(struct pbdma *p, uint64_t va, nvm_mmu_access acc, nvm_aperture *ap, uint64_t *pa, bool *sparse)
{
	uint64_t left;
	return pb_translate_page(p, va, acc, ap, pa, sparse, &left);
}

/* The channel faulted (an MMU fault of a Host access, reported already):
 * NV_PCCSR_CHANNEL_PBDMA_FAULTED is set and the channel waits for software. */
static void chan_faulted(struct pbdma *p, uint64_t va, const char *what)
{
	host_chan_fault(p->h, (uint32_t)p->chid, HOST_PBDMA_FAULTED);
	emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "pbdma_faulted", va, (uint64_t)p->chid,
	     "channel %d: %s at va 0x%llx faulted: PBDMA_FAULTED", p->chid, what, (unsigned long long)va);
}

/* A write the model could not do for want of simulated memory (nvm_config
 * mem_budget, --mem-budget): reported as the copy engine reports it; the
 * guest's memory is left as it was. */
static void mem_budget_error(struct pbdma *p, nvm_aperture ap, uint64_t pa, const char *what)
{
	emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "mem_budget", pa, (uint64_t)ap,
	     "channel %d: no simulated memory left for the %s page at 0x%llx (%s)", p->chid, what,
	     (unsigned long long)pa, nvm_aperture_name(ap));
}

/* len bytes at pa of m, read or written as mem_read / mem_write do, through
 * the page pointer in the usual case of one page the model holds (a
 * semaphore, USERD, a RAMFC: no copy loop, a fixed-size copy when len is a
 * constant). */
static inline __attribute__((always_inline)) nvm_status phys_copy(struct mem_space *m, uint64_t pa, void *buf,
                                                                  size_t len, bool write)
{
	uint8_t *span;
	size_t avail;
	if (mem_span(m, pa, write, &span, &avail) || avail < len)
		return write ? mem_write(m, pa, buf, len) : mem_read(m, pa, buf, len);
	if (write) {
		memcpy(span, buf, len);
		if (m->nwatch)
			mem_notify_write(m, pa, len);
	} else {
		memcpy(buf, span, len);
	}
	return NVM_OK;
}

/* Reads (acc READ or ATOMIC) or writes (WRITE) len bytes, not crossing a
 * page, at a channel VA; *ap_at (if not NULL) gets the aperture + 1 (0 for
 * a sparse page) and *pa_at the physical address. */
static bool va_access_at(struct pbdma *p, uint64_t va, void *buf, size_t len, nvm_mmu_access acc, const char *what,
                         uint8_t *ap_at, uint64_t *pa_at)
{
	bool write = acc == NVM_MMU_WRITE;
	nvm_aperture ap;
	uint64_t pa;
	bool sparse;
	if (!pb_translate(p, va, acc, &ap, &pa, &sparse)) {
		chan_faulted(p, va, what);
		return false;
	}
	struct mem_space *m = &gpu_of(p)->mem[ap];
	nvm_status st = NVM_OK;
	if (ap_at) {
		*ap_at = sparse ? 0 : (uint8_t)(ap + 1);
		*pa_at = pa;
	}
	if (sparse) {
		if (!write)
			memset(buf, 0, len);
	} else {
		st = phys_copy(m, pa, buf, len, write);
	}
	if (st == NVM_ERR_NOMEM) {
		/* UNVERIFIED (a limit of the model, not of the GPU): the access
		 * faults the channel as one outside its aperture does. */
		mem_budget_error(p, ap, pa, what);
		chan_faulted(p, va, what);
		return false;
	}
	if (st) {
		/* UNVERIFIED: a mapping past the end of its aperture is treated as
		 * a fault of the channel. */
		emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "pa_out_of_range", pa, (uint64_t)ap,
		     "channel %d: %s at va 0x%llx maps outside %s", p->chid, what, (unsigned long long)va,
		     nvm_aperture_name(ap));
		chan_faulted(p, va, what);
		return false;
	}
	return true;
}

static bool va_access(struct pbdma *p, uint64_t va, void *buf, size_t len, nvm_mmu_access acc, const char *what)
{
	return va_access_at(p, va, buf, len, acc, what, NULL, NULL);
}

/* ---------------------------------------------------------------- USERD */

static uint64_t userd_addr(const struct pbdma *p, nvm_aperture *ap)
{
	/* NV_PPBDMA_USERD: TARGET 1:0, ADDR 31:9; USERD_HI ADDR 7:0. Physical. */
	*ap = FIELD_GET(p->r[PBR_USERD], 1, 0) >= 2 ? NVM_AP_SYSMEM : NVM_AP_VRAM;
	return ((uint64_t)FIELD_GET(p->r[PBR_USERD_HI], 7, 0) << 32) | (p->r[PBR_USERD] & 0xfffffe00u);
}

/* The read-only USERD entries (seed 000 section 4). UNVERIFIED: when the
 * model writes them back: at every context save (the seed), and with
 * CONFIG USERD_WRITEBACK enabled also after every GP entry, before every
 * semaphore release and on SET_REFERENCE (silicon H100: "the values were in
 * place when the last release was visible"). */
static void userd_writeback(struct pbdma *p)
{
	/* One read-modify-write of the range the written-back entries span
	 * (RAMUSERD layout: 0x40..0x8b on gv100; GP_PUT at 0x8c, the entry
	 * software writes, is outside it). */
	const struct host *h = p->h;
	size_t len = h->userd_wb_hi - h->userd_wb_lo;
	nvm_aperture ap;
	uint64_t a = userd_addr(p, &ap) + h->userd_wb_lo;
	struct mem_space *m = &gpu_of(p)->mem[ap];
	const uint32_t *r = p->r;
	uint8_t *span;
	size_t avail;
	if ((a & 3) == 0 && a + len <= m->size && !mem_span(m, a, true, &span, &avail) && avail >= len) {
		/* The usual case: the range in one page, written in place. */
		for (unsigned i = 0; i < h->nuserd_wb; i++)
			memcpy(span + h->userd_wb[i].off - h->userd_wb_lo, &r[h->userd_wb[i].reg], 4);
		if (m->nwatch)
			mem_notify_write(m, a, len);
		return;
	}
	uint32_t u[HOST_USERD_WB_SPAN];
	if (mem_read(m, a, u, len)) {
		emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "userd_out_of_range", a, (uint64_t)p->chid,
		     "channel %d: USERD at 0x%llx lies outside %s", p->chid, (unsigned long long)a,
		     nvm_aperture_name(ap));
		return;
	}
	for (unsigned i = 0; i < h->nuserd_wb; i++)
		u[(h->userd_wb[i].off - h->userd_wb_lo) / 4] = r[h->userd_wb[i].reg];
	if (mem_write(m, a, u, len))
		mem_budget_error(p, ap, a, "USERD writeback"); /* the read above checked the range */
}

static void userd_writeback_if_enabled(struct pbdma *p)
{
	if (FIELD_GET(p->r[PBR_CONFIG], 12, 12))
		userd_writeback(p);
}

/* dev_pbdma CONFIG USERD_WRITEBACK: with ENABLE, USERD is also written
 * back "whenever ... the writeback timer configured via
 * NV_PFIFO_USERD_WRITEBACK_TIMER expires" (TIMER 7:0, TIMESCALE 15:12;
 * TIMER 0 is DISABLED). UNVERIFIED: the period is TIMER << TIMESCALE
 * microseconds (TIMER_100US is 100 at TIMESCALE 0), the timer runs per
 * PBDMA from the channel's load, also while the PBDMA is frozen on an
 * interrupt. A background event: it never keeps an idle GPU busy. */

static void wb_event(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	(void)arg;
	struct pbdma *p = ctx;
	p->wb_ev = 0;
	if (p->state != PBS_RUN)
		return;
	userd_writeback_if_enabled(p);
	pbdma_wb_timer(p);
}

void pbdma_wb_timer(struct pbdma *p)
{
	nvm_gpu *gpu = gpu_of(p);
	if (p->wb_ev)
		sched_cancel(gpu, p->wb_ev);
	p->wb_ev = 0;
	/* A generation without the register (0) has no writeback timer. */
	struct host *h = p->h;
	if (h->gen->r_userd_writeback && !h->userd_wb_timer)
		h->userd_wb_timer = bus_reg(gpu, h->gen->r_userd_writeback);
	uint32_t v = h->userd_wb_timer ? *h->userd_wb_timer : 0;
	uint64_t ns = ((uint64_t)FIELD_GET(v, 7, 0) * 1000u) << FIELD_GET(v, 15, 12);
	if (ns && p->state == PBS_RUN && FIELD_GET(p->r[PBR_CONFIG], 12, 12))
		p->wb_ev = sched_at(gpu, gpu->now + ns, wb_event, p, 0, SCHED_BACKGROUND);
}

void pbdma_wb_timers(struct host *h)
{
	for (unsigned i = 0; i < h->gen->npbdma; i++)
		pbdma_wb_timer(&h->pb[i]);
}

/* GP_PUT comes from USERD (the only entry software writes). */
static void userd_read_gp_put(struct pbdma *p)
{
	nvm_aperture ap;
	uint64_t a = userd_addr(p, &ap) + p->h->userd_gp_put;
	uint32_t v;
	if (!phys_copy(&gpu_of(p)->mem[ap], a, &v, 4, false))
		p->r[PBR_GP_PUT] = v;
	else
		emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "userd_out_of_range", a, (uint64_t)p->chid,
		     "channel %d: USERD GP_PUT at 0x%llx lies outside %s: the channel sees no new work", p->chid,
		     (unsigned long long)a, nvm_aperture_name(ap));
}

/* ---------------------------------------------------------------- decoder state <-> PB_HEADER / PB_COUNT */

/* NV_PPBDMA_PB_HEADER TYPE 31:29 for a pending sequence. */
static const uint32_t header_type[4] = { 1 /* INC */, 3 /* NON_INC */, 5 /* INC_ONCE */, 4 /* IMMD */ };

static void decoder_save(struct pbdma *p)
{
	nvm_pb_decoder_state st;
	nvm_pb_save(&p->dec, &st);
	const nvm_pb_decoder_state *d = &st;
	uint32_t hdr = p->r[PBR_PB_HEADER] & ((1u << 20) | (1u << 22)); /* keep LEVEL, FIRST */
	uint32_t type = 1, method = 0, count = 0;
	if (d->skipping) {
		type = 7; /* END_SEG: the rest of the segment is discarded */
	} else if (d->remaining) {
		type = header_type[d->mode];
		method = d->method;
		if (d->mode == NVM_PB_MODE_INC)
			method += 4u * d->index;
		else if (d->mode == NVM_PB_MODE_1INC && d->index) {
			/* UNVERIFIED: after its first method an increment-once
			 * sequence continues as non-incrementing at ADDRESS + 4. */
			method += 4;
			type = 3;
		}
		count = d->remaining;
	}
	hdr = FIELD_SET(hdr, 31, 29, type);
	hdr = FIELD_SET(hdr, 13, 2, method >> 2);
	hdr = FIELD_SET(hdr, 18, 16, d->subch);
	p->r[PBR_PB_HEADER] = hdr;
	p->r[PBR_PB_COUNT] = FIELD_SET(p->r[PBR_PB_COUNT], 12, 0, count);
	uint32_t sd = p->r[PBR_SUBDEVICE];
	sd = FIELD_SET(sd, 27, 16, d->stored_mask);
	sd = FIELD_SET(sd, 28, 28, d->active);
	p->r[PBR_SUBDEVICE] = sd;
}

static void on_runs(void *ctx, const nvm_pb_run *runs, size_t n);
static void on_error(void *ctx, const nvm_pb_error *e);

static void decoder_load(struct pbdma *p)
{
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, p->h->pb_gen, NVM_PB_FORMAT_NEW);
	uint32_t sd = p->r[PBR_SUBDEVICE];
	cfg.subdevice_id = FIELD_GET(sd, 11, 0);
	nvm_pb_sink sink = { .ctx = p, .error = on_error, .runs = on_runs };
	nvm_pb_decoder_init(&p->dec, &cfg, &sink);
	nvm_pb_decoder_state st;
	nvm_pb_save(&p->dec, &st);
	nvm_pb_decoder_state *d = &st;
	d->active = FIELD_GET(sd, 28, 28);
	d->stored_mask = FIELD_GET(sd, 27, 16);
	uint32_t hdr = p->r[PBR_PB_HEADER], count = FIELD_GET(p->r[PBR_PB_COUNT], 12, 0);
	uint32_t type = FIELD_GET(hdr, 31, 29);
	static const int8_t mode_of_type[8] = {
		-1, NVM_PB_MODE_INC, -1, NVM_PB_MODE_NINC, -1, NVM_PB_MODE_1INC, -1, -1
	};
	if (type == 7) {
		d->skipping = true;
	} else if (count && mode_of_type[type] >= 0) {
		d->remaining = count;
		d->mode = (nvm_pb_mode)mode_of_type[type];
		d->method = FIELD_GET(hdr, 13, 2) << 2;
		d->subch = FIELD_GET(hdr, 18, 16);
		d->hdr_word = hdr;
	}
	nvm_pb_restore(&p->dec, &st);
}

/* ---------------------------------------------------------------- methods */

/* Keeps the method that could not complete in METHOD0 / DATA0 (VALID). */
static void park_method(struct pbdma *p, uint32_t subch, uint32_t method, uint32_t data)
{
	uint32_t m = FIELD_SET(0, 13, 2, method >> 2);
	m = FIELD_SET(m, 18, 16, subch);
	p->r[PBR_METHOD0] = m | (1u << 31);
	p->r[PBR_DATA0] = data;
}

static struct engine *engine_for(struct pbdma *p, uint32_t subch, bool *copy)
{
	struct runlist *rl = p->rl;
	if (rl->grce && subch == 4) {
		*copy = true;
		return rl->grce;
	}
	*copy = rl->grce == NULL; /* the runlist's own engine is a copy engine */
	return rl->eng;
}

static enum mres sw_method(struct pbdma *p, uint32_t subch, uint32_t method, uint32_t data)
{
	p->h->stats.sw_methods++;
	park_method(p, subch, method, data);
	raise(p, PBR_INTR_0, INTR0_DEVICE, "software method (subchannel 5-7)");
	return M_STALL;
}

/* The classes the engines accept in SET_OBJECT (the generation's). */
static bool class_ok(const struct host_gen *g, bool copy, uint32_t cls)
{
	if (copy)
		return cls == g->ce_class;
	for (size_t i = 0; i < g->ngr_classes; i++)
		if (g->gr_classes[i] == cls)
			return true;
	return false;
}

static enum mres set_object(struct pbdma *p, uint32_t subch, uint32_t data)
{
	struct chan *c = cur_chan(p);
	uint32_t cls = FIELD_GET(data, 15, 0);
	bool copy;
	struct engine *e = engine_for(p, subch, &copy);
	if (!class_ok(p->h->gen, copy, cls)) {
		if (copy) {
			/* volta-facts.md b: "CE: checked on HCE, else INTR_1_HCE_ILLEGAL_CLASS" */
			park_method(p, subch, 0, data);
			raise(p, PBR_INTR_1, INTR1_HCE_ILLEGAL_CLASS, "SET_OBJECT class is not a copy class");
			return M_STALL;
		}
		emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "bad_class", cls, subch,
		     "channel %d: SET_OBJECT class 0x%04x on subchannel %u is not a %s graphics class (the engine "
		     "would raise an exception)",
		     p->chid, cls, subch, p->h->gen->name);
	}
	c->cls[subch] = cls;
	p->pick_valid = 0; /* on_runs: the engine decisions name the old class */
	struct eng_src src = { (uint32_t)p->chid, subch, cls, 0, 0, 0, false };
	e->ops->bind(e, &src);
	return M_DONE;
}

/* SEM_EXECUTE OPERATION 2:0 of an acquire -> the shared comparison
 * (ACQUIRE, ACQ_STRICT_GEQ, ACQ_CIRC_GEQ, ACQ_AND, ACQ_NOR; 1 RELEASE and 6
 * REDUCTION are no acquires, 7 is refused before). */
static const uint8_t acquire_cmp[8] = {
	[0] = SEM_CMP_EQ, [2] = SEM_CMP_STRICT_GEQ, [3] = SEM_CMP_CIRC_GEQ, [4] = SEM_CMP_AND, [5] = SEM_CMP_NOR,
};

static void acq_wake(nvm_gpu *gpu, void *ctx, uint64_t chid);

/* The acquire deadline passed: the channel retries, and the retry raises
 * INTR_0 ACQUIRE if the semaphore still does not satisfy it. */
static void acq_timeout(nvm_gpu *gpu, void *ctx, uint64_t chid)
{
	struct host *h = ctx;
	host_chan(h, (uint32_t)chid)->acq_timeout_ev = 0;
	acq_wake(gpu, ctx, chid);
}

/* A write reached the watched semaphore: look again (from an event, never
 * from inside the write). */
static void acq_hit(void *ctx, uint64_t chid)
{
	struct host *h = ctx;
	struct chan *c = host_chan(h, (uint32_t)chid);
	if (!c->acq_wake_ev)
		c->acq_wake_ev = sched_at(h->gpu, h->gpu->now, acq_wake, h, chid, 0);
}

static void acq_wake(nvm_gpu *gpu, void *ctx, uint64_t chid)
{
	struct host *h = ctx;
	struct chan *c = host_chan(h, (uint32_t)chid);
	(void)gpu;
	c->acq_wake_ev = 0;
	if (!c->acq_wait)
		return;
	sem_unwatch(&gpu->mem[c->acq_ap], acq_hit, h, chid);
	c->acq_wait = false;
	chan_set_work(h, (uint32_t)chid, true);
	struct pbdma *p = chan_loaded_pbdma(c) >= 0 ? &h->pb[chan_loaded_pbdma(c)] : NULL;
	if (p && p->state == PBS_RUN && !pbdma_stalled(p))
		arm_step(p, 0);
	if (chan_runlist(c) >= 0)
		host_schedule(h, &h->rl[chan_runlist(c)]);
}

/* NV_PPBDMA_ACQUIRE_DEADLINE TIMESTAMP 31:0, in 1024 ns units of PTIMER
 * (the manual limits the period to 0x7FFF8000 so that it fits). Armed at
 * the first failure of an acquire (or CLEAR_FAULTED) with TIMEOUT_EN. */
static uint32_t ptimer_1024(struct pbdma *p)
{
	return (uint32_t)(ptimer_read(gpu_of(p)) >> 10);
}

static bool deadline_passed(struct pbdma *p)
{
	if (!FIELD_GET(p->r[PBR_SEM_EXECUTE], 19, 19) || !FIELD_GET(p->r[PBR_ACQUIRE], 31, 31))
		return false;
	return (int32_t)(ptimer_1024(p) - p->r[PBR_ACQUIRE_DEADLINE]) >= 0;
}

static void acq_timeout(nvm_gpu *gpu, void *ctx, uint64_t chid);

/* First failure: ACQUIRE_FAIL and, with ACQUIRE TIMEOUT_EN 31:31, the
 * deadline 1024 * TIMEOUT_MAN 30:15 * 2^TIMEOUT_EXP 14:11 ns later and an
 * event that wakes the channel then. */
static void arm_acquire_deadline(struct pbdma *p)
{
	uint32_t acq = p->r[PBR_ACQUIRE];
	if (FIELD_GET(p->r[PBR_SEM_EXECUTE], 19, 19))
		return; /* armed at the first failure */
	p->r[PBR_SEM_EXECUTE] |= 1u << 19;
	if (!FIELD_GET(acq, 31, 31))
		return;
	uint64_t units = (uint64_t)FIELD_GET(acq, 30, 15) << FIELD_GET(acq, 14, 11);
	if (units > 0x7fff8000u)
		units = 0x7fff8000u;
	p->r[PBR_ACQUIRE_DEADLINE] = ptimer_1024(p) + (uint32_t)units;
	/* Foreground: the GPU is not idle while a timeout is pending. */
	sem_deadline(gpu_of(p), &cur_chan(p)->acq_timeout_ev, NULL, gpu_of(p)->now + units * 1024u, acq_timeout, p->h,
	             (uint64_t)p->chid, 0);
}

static enum mres acquire_block(struct pbdma *p, nvm_aperture ap, uint64_t pa, size_t len, bool switch_tsg)
{
	struct chan *c = cur_chan(p);
	struct host *h = p->h;
	h->stats.acquire_waits++;
	arm_acquire_deadline(p);
	chan_set_acq_wait(h, (uint32_t)p->chid, true);
	c->acq_switch = switch_tsg;
	c->acq_ap = ap;
	if (!sem_watch(&h->gpu->mem[ap], pa, len, acq_hit, h, (uint64_t)p->chid))
		acq_hit(h, (uint64_t)p->chid); /* no memory for a watch: look again at once */
	emit(h->gpu, NVM_EV_TRACE, "pbdma", "acquire_wait", pa, (uint64_t)p->chid,
	     "channel %d waits on a semaphore acquire at 0x%llx (%s)", p->chid, (unsigned long long)pa,
	     nvm_aperture_name(ap));
	return M_BLOCK;
}

/* The semaphore operation of SEM_EXECUTE data `data`; (pm, pd) is the
 * method that carried it (SEM_EXECUTE, or the legacy SEMAPHORED), parked in
 * METHOD0 when it cannot complete. */
static enum mres sem_op(struct pbdma *p, uint32_t data, uint32_t pm, uint32_t pd)
{
	uint32_t *r = p->r;
	/* ACQUIRE_FAIL 19:19 stays set across the retries of one acquire: the
	 * timeout counts from the first failure (dev_pbdma ACQUIRE). */
	r[PBR_SEM_EXECUTE] = (data & ~(1u << 19)) | (r[PBR_SEM_EXECUTE] & (1u << 19));
	unsigned op = FIELD_GET(data, 2, 0), red = FIELD_GET(data, 30, 27);
	bool is64 = FIELD_GET(data, 24, 24), ts = FIELD_GET(data, 25, 25), sgn = !FIELD_GET(data, 31, 31);
	uint64_t va = ((uint64_t)FIELD_GET(r[PBR_SEM_ADDR_HI], p->h->gen->sem_addr_hi_bits - 1u, 0) << 32) |
	              (r[PBR_SEM_ADDR_LO] & ~3u);
	uint64_t pl = is64 ? ((uint64_t)r[PBR_SEM_PAYLOAD_HI] << 32) | r[PBR_SEM_PAYLOAD_LO] : r[PBR_SEM_PAYLOAD_LO];
	bool release = op == 1 || op == 6;
	const char *bad = NULL;
	if (op == 7)
		bad = "undefined OPERATION 7";
	else if (op == 6 && red >= 8)
		bad = "undefined REDUCTION";
	else if (op == 6 && !p->h->gen->sem_red_valid(red, is64, sgn))
		bad = "reduction not supported for this payload size and format";
	else if (is64 && (va & 7))
		bad = "64-bit semaphore not 8-byte aligned";
	else if (release && ts && (va & 15))
		bad = "timestamped release not 16-byte aligned";
	if (bad) {
		/* Seed/dev_pbdma: INTR_0 SEMAPHORE, memory unchanged. */
		park_method(p, 0, pm, pd);
		raise(p, PBR_INTR_0, INTR0_SEMAPHORE, bad);
		return M_STALL;
	}
	size_t len = is64 ? 8 : 4;
	uint8_t cur[8] = { 0 };
	if (!release || op == 6) {
		if (!va_access(p, va, cur, len, op == 6 ? NVM_MMU_ATOMIC : NVM_MMU_READ, "semaphore"))
			return M_BLOCK;
	}
	uint64_t v = 0;
	memcpy(&v, cur, len);
	if (!release) {
		p->h->stats.sem_acquires++;
		if (sem_acquire_ok((enum sem_cmp)acquire_cmp[op], is64, v, pl)) {
			chan_set_acq_wait(p->h, (uint32_t)p->chid, false);
			r[PBR_SEM_EXECUTE] &= ~(1u << 19);
			return M_DONE;
		}
		park_method(p, 0, pm, pd);
		if (deadline_passed(p)) {
			/* dev_pbdma ACQUIRE: the timeout; the counter is not reset. */
			raise(p, PBR_INTR_0, INTR0_ACQUIRE, "semaphore acquire timed out");
			return M_STALL;
		}
		nvm_aperture ap;
		uint64_t pa;
		bool sparse;
		if (!pb_translate(p, va, NVM_MMU_READ, &ap, &pa, &sparse))
			return M_BLOCK;
		return acquire_block(p, ap, pa, len, FIELD_GET(data, 12, 12));
	}
	uint64_t nv = op == 6 ? sem_reduce(red, is64, sgn, v, pl) : pl;
	p->h->stats.sem_releases++;
	userd_writeback_if_enabled(p);
	if (ts) {
		/* dev_pbdma: the timestamp at +8 is written before the payload;
		 * silicon H100: a 32-bit payload's upper four bytes are written 0. */
		uint64_t t = ptimer_read(gpu_of(p));
		if (!va_access(p, va + 8, &t, 8, NVM_MMU_WRITE, "semaphore timestamp"))
			return M_BLOCK;
		len = 8;
		if (!is64)
			nv &= 0xffffffffull;
	}
	if (!va_access(p, va, &nv, len, NVM_MMU_WRITE, "semaphore release"))
		return M_BLOCK;
	return M_DONE;
}

static enum mres sem_execute(struct pbdma *p, uint32_t data)
{
	return sem_op(p, data, 0x6c, data);
}

/* The legacy SEMAPHORED (clc36f.h; NVIDIA's UVM uses it on Volta), as the
 * SEM_EXECUTE operation it stands for: OPERATION 4:0 one-hot (ACQUIRE,
 * RELEASE, ACQ_GEQ, ACQ_AND, REDUCTION), ACQUIRE_SWITCH 12, RELEASE_WFI 20
 * (EN = 0: inverted), RELEASE_SIZE 24 (16BYTE = 0: payload, 0, timestamp;
 * 4BYTE = 1: payload only; silicon H100), REDUCTION 30:27 and FORMAT 31 at
 * SEM_EXECUTE's positions; 32-bit payloads. UNVERIFIED: SEMAPHOREA/B/C
 * share SEM_ADDR_HI / SEM_ADDR_LO / SEM_PAYLOAD_LO with the SEM_* methods;
 * ACQ_GEQ compares circularly (ACQ_CIRC_GEQ: UVM relies on wrap-safe
 * compares); an OPERATION that is not one of the five raises SEMAPHORE. */
static enum mres semaphore_d(struct pbdma *p, uint32_t d)
{
	static const struct {
		uint32_t onehot, op;
	} ops[] = { { 0x01, 0 }, { 0x02, 1 }, { 0x04, 3 }, { 0x08, 4 }, { 0x10, 6 } };
	uint32_t oh = FIELD_GET(d, 4, 0), op = 7; /* 7: undefined -> SEMAPHORE */
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].onehot == oh)
			op = ops[i].op;
	uint32_t x = op | (d & (1u << 12)) | (d & (0xfu << 27)) | (d & (1u << 31));
	x |= FIELD_GET(d, 20, 20) ? 0 : 1u << 20; /* RELEASE_WFI */
	x |= FIELD_GET(d, 24, 24) ? 0 : 1u << 25; /* 16BYTE: RELEASE_TIMESTAMP */
	return sem_op(p, x, 0x1c, d);
}

/* MEM_OP_D OPERATION 31:27 (volta-facts.md b, dev_pbdma MEM_OP): MMU TLB
 * invalidates (with replay and cancel) go to the GMMU with A..C; they and
 * ACCESS_COUNTER_CLR need CONFIG AUTH_LEVEL PRIVILEGED, else INTR_0 METHOD.
 * Barriers and L2 operations complete at once: the model's memory is
 * coherent. UNVERIFIED: an OPERATION the manual does not list raises
 * METHOD. C76F adds MMU_OPERATION (0xb, clc76f.h; mmu_op: the class has
 * it). UNVERIFIED: it needs PRIVILEGED as the other MMU operations, and
 * completes without effect (VIDMEM_ACCESS_BIT_DUMP: access bits are not
 * modelled). */
static enum mres mem_op_d(struct pbdma *p, uint32_t d, bool mmu_op)
{
	enum { PRIV = 1, MMU = 2, C76F = 4 };
	static const struct {
		uint8_t op, flags;
	} ops[] = {
		{ 0x05, 0 },           /* MEMBAR */
		{ 0x09, PRIV | MMU },  /* MMU_TLB_INVALIDATE */
		{ 0x0a, PRIV | MMU },  /* MMU_TLB_INVALIDATE_TARGETED */
		{ 0x0b, PRIV | C76F }, /* MMU_OPERATION (C76F) */
		{ 0x0d, 0 },           /* L2_PEERMEM_INVALIDATE */
		{ 0x0e, 0 },           /* L2_SYSMEM_INVALIDATE */
		{ 0x0f, 0 },           /* L2_CLEAN_COMPTAGS */
		{ 0x10, 0 },           /* L2_FLUSH_DIRTY */
		{ 0x15, 0 },           /* L2_WAIT_FOR_SYS_PENDING_READS */
		{ 0x16, PRIV },        /* ACCESS_COUNTER_CLR (access counters are not modelled) */
	};
	uint32_t op = FIELD_GET(d, 31, 27);
	size_t i = 0;
	while (i < sizeof(ops) / sizeof(ops[0]) && ops[i].op != op)
		i++;
	const char *bad = NULL;
	if (i == sizeof(ops) / sizeof(ops[0]) || ((ops[i].flags & C76F) && !mmu_op))
		bad = "MEM_OP_D OPERATION not defined";
	else if ((ops[i].flags & PRIV) && !FIELD_GET(p->r[PBR_CONFIG], 8, 8))
		bad = "privileged MEM_OP from a channel with CONFIG AUTH_LEVEL NON_PRIVILEGED";
	if (bad) {
		park_method(p, 0, 0x34, d);
		raise(p, PBR_INTR_0, INTR0_METHOD, bad);
		return M_STALL;
	}
	if (ops[i].flags & MMU)
		nvm_mmu_mem_op(gpu_of(p), p->r[PBR_MEM_OP_A], p->r[PBR_MEM_OP_B], p->r[PBR_MEM_OP_C], d);
	return M_DONE;
}

/* IEEE 802.3 CRC-32 (0x04c11db7), MSB first, as dev_pbdma's pseudocode. */
static uint32_t crc32_byte(uint32_t crc, uint8_t b)
{
	crc ^= (uint32_t)b << 24;
	for (int k = 0; k < 8; k++)
		crc = crc & 0x80000000u ? (crc << 1) ^ 0x04c11db7u : crc << 1;
	return crc;
}

/* METHOD_CRC over the methods sent to engines: each method as a 6-byte
 * value added least significant byte first. UNVERIFIED: its layout is data
 * 31:0, method address (dword) 43:32, subchannel 46:44. */
static void method_crc(struct pbdma *p, const nvm_pb_run *r, uint32_t first, uint32_t n)
{
	uint32_t crc = p->r[PBR_METHOD_CRC];
	for (uint32_t i = first; i < first + n; i++) {
		uint64_t v = r->data[i] | (uint64_t)(nvm_pb_run_method(r, i) >> 2 & 0xfff) << 32 |
		             (uint64_t)(r->subch & 7) << 44;
		for (int b = 0; b < 6; b++)
			crc = crc32_byte(crc, (uint8_t)(v >> (8 * b)));
	}
	p->r[PBR_METHOD_CRC] = crc;
}

/* CRC_CHECK: METHOD_CRC against the data, INTR_0 METHODCRC on a mismatch;
 * the register is cleared after each comparison. Computing the CRC costs
 * every engine method a few ns, so the model computes it only when it is
 * enabled (nvm_host_set_method_crc); otherwise CRC_CHECK is not checked
 * and reported as unmodelled. */
static enum mres crc_check(struct pbdma *p, uint32_t data)
{
	if (!p->h->method_crc) {
		emit(gpu_of(p), NVM_EV_UNMODELLED, "pbdma", "crc_check", 0x7c, data,
		     "channel %d: CRC_CHECK not checked (method CRCs are off: nvm_host_set_method_crc)", p->chid);
		return M_DONE;
	}
	uint32_t crc = p->r[PBR_METHOD_CRC];
	p->r[PBR_METHOD_CRC] = 0;
	if (crc == data)
		return M_DONE;
	park_method(p, 0, 0x7c, data);
	raise(p, PBR_INTR_0, 1u << 22, "METHOD_CRC does not match CRC_CHECK");
	return M_STALL;
}

/* YIELD OP 1:0: NOP; RUNLIST_TIMESLICE (the TSG's timeslice ends); TSG (the
 * next channel of the TSG runs; the TSG keeps its timeslice); anything else
 * INTR_0 METHOD. The method after a yield runs only when the channel is
 * scheduled again. */
static enum mres yield(struct pbdma *p, uint32_t data)
{
	uint32_t op = FIELD_GET(data, 1, 0);
	if (op == 1) {
		park_method(p, 0, 0x80, data);
		raise(p, PBR_INTR_0, INTR0_METHOD, "YIELD with an undefined OP");
		return M_STALL;
	}
	if (op == 0)
		return M_DONE;
	if (op == 2)
		p->rl->slice_end = gpu_of(p)->now;
	p->yield = true;
	emit(gpu_of(p), NVM_EV_TRACE, "pbdma", "yield", op, (uint64_t)p->chid, "channel %d: YIELD %s", p->chid,
	     op == 2 ? "RUNLIST_TIMESLICE" : "TSG");
	return M_YIELD;
}

/* CLEAR_FAULTED CHID 11:0 (C36F) or HANDLE 30:0 (C46F on: the doorbell
 * handle, decoded by the generation into chid; valid false when it names no
 * channel), TYPE 31:31 (PBDMA_FAULTED / ENG_FAULTED): clears
 * the target's bit when it is set; otherwise retries every microsecond until
 * it is, or until NV_PFIFO_CLEAR_FAULTED_TIMEOUT (PERIOD 29:0, DETECTION
 * 31:31) after the first attempt, then INTR_0 CLEAR_FAULTED_ERROR. The
 * deadline uses ACQUIRE_FAIL / ACQUIRE_DEADLINE as the manual says.
 * UNVERIFIED: PERIOD counts 1024 ns units like ACQUIRE_DEADLINE. */
static enum mres clear_faulted(struct pbdma *p, uint32_t data, bool valid, uint32_t chid)
{
	struct host *h = p->h;
	uint32_t bit = FIELD_GET(data, 31, 31) ? 23 : 22;
	enum host_fault f = bit == 23 ? HOST_ENG_FAULTED : HOST_PBDMA_FAULTED;
	uint32_t *se = &p->r[PBR_SEM_EXECUTE];
	/* UNVERIFIED: a handle that names no channel targets no FAULTED bit,
	 * so the method retries until CLEAR_FAULTED_TIMEOUT as for a channel
	 * that never faulted (the manuals do not say). */
	if (valid && h->gen->ops->chan_faulted(h, chid, f)) {
		h->gen->ops->chan_set_faulted(h, chid, f, false);
		*se &= ~(1u << 19);
		emit(h->gpu, NVM_EV_TRACE, "pbdma", "clear_faulted", chid, bit,
		     "channel %d: CLEAR_FAULTED channel %u %s", p->chid, chid,
		     bit == 23 ? "ENG_FAULTED" : "PBDMA_FAULTED");
		if (chan_runlist(host_chan_peek(h, chid)) >= 0)
			host_schedule_later(h, &h->rl[chan_runlist(host_chan_peek(h, chid))]);
		return M_DONE;
	}
	/* UNVERIFIED: a generation without the timeout register (0) retries
	 * without end, as does a handle that names no channel. */
	uint32_t to = h->gen->r_clear_faulted_timeout ? bus_get(h->gpu, h->gen->r_clear_faulted_timeout) : 0;
	if (!FIELD_GET(*se, 19, 19)) {
		*se |= 1u << 19;
		p->r[PBR_ACQUIRE_DEADLINE] = ptimer_1024(p) + FIELD_GET(to, 29, 0);
	} else if (FIELD_GET(to, 31, 31) && (int32_t)(ptimer_1024(p) - p->r[PBR_ACQUIRE_DEADLINE]) >= 0) {
		*se &= ~(1u << 19);
		park_method(p, 0, 0x84, data);
		raise(p, PBR_INTR_0, 1u << 20, "CLEAR_FAULTED: the channel's FAULTED bit was never set");
		return M_STALL;
	}
	park_method(p, 0, 0x84, data);
	p->wait_until = gpu_of(p)->now + 1000;
	return M_RETRY;
}

/* ---------------------------------------------------------------- the host class's methods */

/* The Host methods the generations' method tables name (gv100.c c36f_methods).
 * Seed 000 section 6: "the subchannel field is ignored" for Host-only
 * methods. */
enum mres hm_set_object(struct pbdma *p, uint32_t subch, uint32_t data)
{
	return subch >= 5 ? sw_method(p, subch, 0x00, data) : set_object(p, subch, data);
}

enum mres hm_illegal(struct pbdma *p, uint32_t subch, uint32_t data)
{
	park_method(p, subch, 0x04, data);
	raise(p, PBR_INTR_0, INTR0_METHOD, "ILLEGAL method");
	return M_STALL;
}

enum mres hm_nop(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)p;
	(void)subch;
	(void)data;
	return M_DONE;
}

/* WFI: engines finish within the step that sent their methods. */
enum mres hm_wfi(struct pbdma *p, uint32_t subch, uint32_t data)
{
	return hm_nop(p, subch, data);
}

/* FB_FLUSH: memory is coherent in the model; UNVERIFIED: never times out
 * (MEMFLUSH). */
enum mres hm_fb_flush(struct pbdma *p, uint32_t subch, uint32_t data)
{
	return hm_nop(p, subch, data);
}

/* Register-setting methods: the register and the bits the method writes. */
static enum mres set_reg(struct pbdma *p, enum pbr reg, uint32_t data)
{
	p->r[reg] = data;
	return M_DONE;
}

enum mres hm_semaphore_a(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_SEM_ADDR_HI, data & 0xffu); /* SEMAPHOREA OFFSET_UPPER 7:0 */
}

enum mres hm_semaphore_b(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_SEM_ADDR_LO, data & ~3u); /* SEMAPHOREB OFFSET_LOWER 31:2 */
}

enum mres hm_semaphore_c(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_SEM_PAYLOAD_LO, data); /* SEMAPHOREC PAYLOAD */
}

enum mres hm_semaphore_d(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	p->units += HOST_UNITS_SEM;
	return semaphore_d(p, data);
}

/* NON_STALL_INTERRUPT: CHANNEL_INTR, no stall, data ignored. */
enum mres hm_non_stall_interrupt(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	(void)data;
	host_nonstall(p->h, (uint32_t)p->chid);
	return M_DONE;
}

enum mres hm_mem_op_a(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_MEM_OP_A, data);
}

enum mres hm_mem_op_b(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_MEM_OP_B, data);
}

enum mres hm_mem_op_c(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_MEM_OP_C, data);
}

enum mres hm_mem_op_d(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return mem_op_d(p, data, false);
}

enum mres hm_mem_op_d_c76f(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return mem_op_d(p, data, true);
}

/* SET_REFERENCE: after the engines are idle (they are, between steps). */
enum mres hm_set_reference(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	p->r[PBR_REF] = data;
	userd_writeback_if_enabled(p);
	return M_DONE;
}

enum mres hm_sem_addr_lo(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_SEM_ADDR_LO, data & ~3u);
}

enum mres hm_sem_addr_hi(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	uint32_t bits = p->h->gen->sem_addr_hi_bits; /* C36F 7:0, C86F 24:0 */
	return set_reg(p, PBR_SEM_ADDR_HI, data & ((1u << bits) - 1u));
}

enum mres hm_sem_payload_lo(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_SEM_PAYLOAD_LO, data);
}

enum mres hm_sem_payload_hi(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return set_reg(p, PBR_SEM_PAYLOAD_HI, data);
}

enum mres hm_sem_execute(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	p->units += HOST_UNITS_SEM;
	return sem_execute(p, data);
}

enum mres hm_crc_check(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return crc_check(p, data);
}

enum mres hm_yield(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return yield(p, data);
}

enum mres hm_clear_faulted(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	return clear_faulted(p, data, true, FIELD_GET(data, 11, 0));
}

/* C46F and later: CLEAR_FAULTED HANDLE 30:0 (clc46f.h). */
enum mres hm_clear_faulted_handle(struct pbdma *p, uint32_t subch, uint32_t data)
{
	(void)subch;
	uint32_t chid = 0;
	bool valid = p->h->gen->ops->handle_chid(p->h, FIELD_GET(data, 30, 0), &chid);
	return clear_faulted(p, data, valid, chid);
}

/* A Host method (address below 0x100), through the generation's method
 * table; a method the class defines but the model does not implement is
 * reported and ignored, any other raises INTR_0 METHOD. */
static enum mres host_method(struct pbdma *p, uint32_t subch, uint32_t m, uint32_t data)
{
	p->h->stats.host_methods++;
	host_method_fn fn = p->h->gen->methods[m >> 2];
	if (fn)
		return fn(p, subch, data);
	const nvm_pb_method *pm = nvm_pb_class_method(p->h->host_class, m);
	if (pm) {
		emit(gpu_of(p), NVM_EV_UNMODELLED, "pbdma", "host_method", m, data,
		     "channel %d: host method 0x%03x (%s) is not modelled yet: ignored", p->chid, m,
		     nvm_pb_name(pm->name));
		return M_DONE;
	}
	park_method(p, subch, m, data);
	raise(p, PBR_INTR_0, INTR0_METHOD, "undefined host method");
	return M_STALL;
}

/* The PBDMA's methods go to engine e from now on (NV_PPBDMA_TARGET_ENGINE):
 * seed 000, a switch between GR and GRCOPY waits for the first engine to
 * finish and idle, then a sysmem barrier. */
static inline void engine_switch(struct pbdma *p, struct engine *e, uint32_t subch)
{
	nvm_gpu *gpu = gpu_of(p);
	if (p->target) {
		if (p->target->busy_until > gpu->now + p->cost)
			p->cost = p->target->busy_until - gpu->now;
		/* Drivers switch engines every few runs: without a hook for the
		 * event, only its count (what emit does then), not a call. */
		if (!emit_wanted(gpu, NVM_EV_TRACE))
			gpu->ev_count[NVM_EV_TRACE]++;
		else
			emit(gpu, NVM_EV_TRACE, "pbdma", "subch_switch", subch, (uint64_t)p->chid,
			     "channel %d: engine switch %s -> %s (WFI, sysmem barrier)", p->chid, p->target->name,
			     e->name);
	}
	p->target = e;
}

/* Where the engine methods of subchannel subch go: the engine (NULL after
 * INTR_1 CTXNOTVALID, with data[first] parked) and *src. Notes an engine
 * switch. Depends only on the runlist, TARGET, the last target and the
 * subchannel's class, so later runs may reuse it (on_runs). */
static struct engine *engine_prepare(struct pbdma *p, const nvm_pb_run *r, uint32_t first, struct eng_src *src)
{
	bool copy;
	struct engine *e = engine_for(p, r->subch, &copy);
	/* NV_PPBDMA_TARGET ENG_CTX_VALID 16:16 / CE_CTX_VALID 17:17: an engine
	 * method without a valid context raises INTR_1 CTXNOTVALID. */
	if (!FIELD_GET(p->r[PBR_TARGET], copy ? 17 : 16, copy ? 17 : 16)) {
		park_method(p, r->subch, nvm_pb_run_method(r, first), r->data[first]);
		raise(p, PBR_INTR_1, INTR1_CTXNOTVALID,
		      copy ? "copy method without TARGET CE_CTX_VALID" : "engine method without TARGET ENG_CTX_VALID");
		return NULL;
	}
	if (p->target != e)
		engine_switch(p, e, r->subch);
	*src = (struct eng_src){
		(uint32_t)p->chid, r->subch, cur_chan(p)->cls[r->subch], p->inst_target, p->inst, 0, false
	};
	return e;
}

/* The engine stopped at data[first + res->done] of n: the method is parked
 * in METHOD0, and the channel waits (ENG_BUSY) or gets ENG_FAULTED. */
static enum mres engine_stopped(struct pbdma *p, struct engine *e, const nvm_pb_run *r, uint32_t first, uint32_t n,
                                enum eng_status st, uint32_t done)
{
	uint32_t k = first + (done < n ? done : n - 1);
	park_method(p, r->subch, nvm_pb_run_method(r, k), r->data[k]);
	p->stop_done = done;
	if (st == ENG_BUSY) {
		/* Not done yet (a long copy): METHOD0 delivers it again after the
		 * time it has cost so far. */
		arm_step(p, p->cost);
		return M_BLOCK;
	}
	host_chan_fault(p->h, (uint32_t)p->chid, HOST_ENG_FAULTED);
	host_eng_faulted(p->h, p->rl, (uint32_t)p->chid);
	emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "eng_faulted", nvm_pb_run_method(r, k), (uint64_t)p->chid,
	     "channel %d: engine %s %s at method 0x%04x: ENG_FAULTED", p->chid, e->name,
	     st == ENG_FAULT ? "faulted" : "rejected a method", nvm_pb_run_method(r, k));
	return M_BLOCK;
}

/* Methods data[first .. first + n) of r to engine e (engine_prepare). */
static inline enum mres engine_deliver(struct pbdma *p, struct engine *e, const struct eng_src *src,
                                       const nvm_pb_run *r, uint32_t first, uint32_t n)
{
	nvm_gpu *gpu = gpu_of(p);
	if (emit_wanted(gpu, NVM_EV_METHOD))
		for (uint32_t i = first; i < first + n; i++)
			emit(gpu, NVM_EV_METHOD, e->name, "method", nvm_pb_run_method(r, i), r->data[i],
			     "channel %d subch %u class 0x%04x: method 0x%04x <- 0x%08x", p->chid, r->subch, src->cls,
			     nvm_pb_run_method(r, i), r->data[i]);
	struct eng_result res = { 0, 0 };
	enum eng_status st = engine_send(e, src, r, first, n, &res);
	if (p->h->method_crc)
		method_crc(p, r, first, res.done);
	p->cost += res.cost;
	e->busy_until = gpu->now + p->cost;
	cur_chan(p)->methods += res.done;
	p->h->stats.methods += res.done;
	if (st == ENG_OK)
		return M_DONE;
	return engine_stopped(p, e, r, first, n, st, res.done);
}

static enum mres engine_methods(struct pbdma *p, const nvm_pb_run *r, uint32_t first, uint32_t n)
{
	struct eng_src src;
	struct engine *e = engine_prepare(p, r, first, &src);
	return e ? engine_deliver(p, e, &src, r, first, n) : M_STALL;
}

/* One method (from METHOD0 on resume). */
static enum mres exec_one(struct pbdma *p, uint32_t subch, uint32_t m, uint32_t data)
{
	if (m < 0x100 && (m != 0 || subch < 5))
		return host_method(p, subch, m, data);
	if (subch >= 5)
		return sw_method(p, subch, m, data);
	nvm_pb_run run = { .subch = subch, .method = m, .count = 1, .mode = NVM_PB_MODE_NINC, .data = &data };
	return engine_methods(p, &run, 0, 1);
}

/* ---------------------------------------------------------------- decoder sink */

/* Stops the segment inside a decoder callback: the decoder stops just past
 * data[i] of run r (which is parked in METHOD0 or done). */
static void stop_at(struct pbdma *p, const nvm_pb_run *r, uint32_t i, enum mres res)
{
	p->stop = true;
	p->stop_res = res;
	nvm_pb_stop_run(&p->dec, r, i + 1);
}

static void on_run(struct pbdma *p, const nvm_pb_run *r)
{
	if (p->stop || r->masked)
		return; /* silicon H100: masked methods, Host methods included, are dropped */
	uint32_t i = 0;
	while (i < r->count) {
		uint32_t m = nvm_pb_run_method(r, i);
		enum mres res;
		if (m < 0x100 || r->subch >= 5) {
			res = exec_one(p, r->subch, m, r->data[i]);
			if (res) {
				stop_at(p, r, i, res);
				return;
			}
			i++;
			continue;
		}
		/* From an engine method on, the rest of an INC / NINC / 1INC run
		 * stays at or above 0x100. */
		p->stop_done = 0;
		res = engine_methods(p, r, i, r->count - i);
		if (res) {
			stop_at(p, r, i + p->stop_done, res);
			return;
		}
		i = r->count;
	}
}

/* Runs of the decoder's fast path, one after another (on_runs, pbf_feed):
 * what is kept from run to run. A run of engine methods reuses the engine
 * decision (engine_prepare) an earlier run made for its subchannel in the
 * same feed_segment (which clears them): it depends on the channel, its
 * TARGET register, the runlist and the subchannel's class, and within a
 * feed_segment only SET_OBJECT changes one of those (it forgets the
 * decisions); software (from a hook) could change any, so with a hook
 * installed nothing is reused; a context load, a stopping engine or method
 * end the feed. An engine switch is still noted at every run
 * (engine_switch). */
struct deliv {
	nvm_gpu *gpu;
	bool reuse;
	/* No method events or CRCs wanted: the engine's methods are counted
	 * here and added to the channel's and the Host's counts at the end. */
	bool plain;
	uint32_t valid; /* bit s: p->pick[s] holds subchannel s's decision */
	uint64_t methods;
};

static inline void deliv_begin(struct pbdma *p, struct deliv *v)
{
	v->gpu = gpu_of(p);
	v->reuse = !v->gpu->hook_mask;
	v->plain = v->reuse && !p->h->method_crc;
	v->valid = v->reuse ? p->pick_valid : 0;
	v->methods = 0;
}

static inline void deliv_end(struct pbdma *p, struct deliv *v)
{
	p->pick_valid = p->stop ? 0 : v->valid;
	cur_chan(p)->methods += v->methods;
	p->h->stats.methods += v->methods;
	v->methods = 0;
}

/* One run; false when it stopped the PBDMA (p->stop, the decoder stopped
 * in it). */
static inline __attribute__((always_inline)) bool deliver_run(struct pbdma *p, struct deliv *v, const nvm_pb_run *r)
{
	if (r->masked)
		return true; /* silicon H100: masked methods, Host methods included, are dropped */
	uint32_t s = r->subch;
	/* The decoder's fast-path runs start their sequence (index 0). */
	uint32_t m = r->index ? nvm_pb_run_method(r, 0) : r->method;
	if (s >= 5 || m < 0x100) {
		/* Host methods keep the engine decisions, but SET_OBJECT
		 * (set_object forgets them). */
		p->pick_valid = v->valid;
		cur_chan(p)->methods += v->methods;
		p->h->stats.methods += v->methods;
		v->methods = 0;
		on_run(p, r);
		v->valid = p->pick_valid;
		return !p->stop;
	}
	/* From an engine method on, the rest of an INC / NINC / 1INC run
	 * stays at or above 0x100 (on_run). */
	struct engine *e;
	if ((v->valid >> s) & 1) {
		e = p->pick[s].e;
		if (e != p->target)
			engine_switch(p, e, s);
	} else {
		e = p->pick[s].e = engine_prepare(p, r, 0, &p->pick[s].src);
		if (!e) {
			stop_at(p, r, 0, M_STALL);
			return false;
		}
		v->valid = v->reuse ? v->valid | 1u << s : 0;
		bool counts = engine_counts_only(e), logs = e->ops->methods == engine_rec_methods && e->cap;
		p->pick_rec = counts ? p->pick_rec | 1u << s : p->pick_rec & ~(1u << s);
		p->pick_log = logs ? p->pick_log | 1u << s : p->pick_log & ~(1u << s);
		bool st = e->ops->state && e->ops->state(e, &p->pick[s].src, &p->pick[s].st);
		p->pick_st = st ? p->pick_st | 1u << s : p->pick_st & ~(1u << s);
	}
	const struct eng_src *src = &p->pick[s].src;
	if (v->plain) {
		struct eng_result res = { 0, 0 };
		enum eng_status st = engine_send(e, src, r, 0, r->count, &res);
		p->cost += res.cost;
		e->busy_until = v->gpu->now + p->cost;
		v->methods += res.done;
		if (st == ENG_OK)
			return true;
		stop_at(p, r, res.done, engine_stopped(p, e, r, 0, r->count, st, res.done));
		return false;
	}
	p->stop_done = 0;
	enum mres res = engine_deliver(p, e, src, r, 0, r->count);
	if (res) {
		stop_at(p, r, p->stop_done, res);
		return false;
	}
	return true;
}

/* What the runs deliver_rec and log_stretch took since the last rec_flush
 * leave to do: the methods of the engine p->target (a recorder), to add to
 * its count and busy time, p->cost and v->methods. Nothing reads those between
 * two runs deliver_rec takes: a run it does not take, an engine switch and
 * the loop's end flush them first. */
static inline void rec_flush(struct pbdma *p, struct deliv *v, uint64_t *acc)
{
	if (!*acc)
		return;
	struct engine *e = p->target;
	p->cost += engine_rec_count(e, *acc);
	e->busy_until = v->gpu->now + p->cost;
	v->methods += *acc;
	*acc = 0;
}

/* deliver_run's common case without the run (nvm_pb_take_hdr's header w): the
 * engine methods of a subchannel whose engine, decided before, is a
 * recorder without a log (engine_send's first case), on a PBDMA with no
 * hooks or method CRCs and methods not masked (rec: the subchannels for
 * which those hold); its methods are added to *acc (rec_flush). false: the
 * run needs log_stretch or deliver_run. */
static inline __attribute__((always_inline)) bool deliver_rec(struct pbdma *p, struct deliv *v, uint32_t rec,
                                                              uint32_t w, uint64_t *acc)
{
	uint32_t s = (w >> 13) & 7u;
	if (!(rec >> s & 1) || (w & 0xfffu) < 0x100 / 4)
		return false;
	struct engine *e = p->pick[s].e;
	if (e != p->target) {
		rec_flush(p, v, acc);
		engine_switch(p, e, s);
	}
	*acc += nvm_pb_take_count(w);
	return true;
}

/* The run of header w (nvm_pb_take_hdr's), its n data words before q, as
 * nvm_pb_take_fill makes it: IMMD (SEC_OP 4) is one method, mode
 * NVM_PB_MODE_IMMD, its datum the header's IMMD_DATA 28:16; the others
 * take the mode from SEC_OP 2:1 and their first datum from the stream. */
static inline nvm_pb_mode hdr_mode(uint32_t w)
{
	return w >> 29 == 4 ? NVM_PB_MODE_IMMD : (nvm_pb_mode)(w >> 30);
}
static inline uint32_t hdr_first(uint32_t w, const uint32_t *q, uint32_t n)
{
	return w >> 29 == 4 ? (w >> 16) & 0x1fffu : *(q - n);
}

/* deliver_run's case of a run of plain state methods (struct eng_state)
 * of a subchannel whose engine, decided before, has them (st: the
 * subchannels for which that and deliver_rec's conditions hold), the run
 * of header w, its data before q: the engine's methods without the call
 * (engine_send's result: each datum in its slot, their cost, the count,
 * the log when the engine has one). false: the run needs deliver_run. */
static inline __attribute__((always_inline)) bool
deliver_state(struct pbdma *p, struct deliv *v, uint32_t st, uint32_t w, const uint32_t *q, uint64_t pos, uint64_t *acc)
{
	uint32_t s = (w >> 13) & 7u, m = (w & 0xfffu) << 2;
	if (!(st >> s & 1) || m < 0x100)
		return false;
	uint32_t n = nvm_pb_take_count(w);
	nvm_pb_mode mode = hdr_mode(w);
	const struct eng_state *es = &p->pick[s].st;
	if (!engine_state_takes(es, m, mode, n))
		return false;
	struct engine *e = p->pick[s].e;
	if (e != p->target) {
		rec_flush(p, v, acc);
		engine_switch(p, e, s);
	}
	engine_state_store(es, m, mode, q - n, hdr_first(w, q, n), n);
	if (e->cap)
		engine_log(e, &p->pick[s].src, nvm_pb_take_fill(&p->dec, 0, w, q, pos, false), 0, n);
	else
		e->total += n;
	p->cost += (uint64_t)n * es->ns;
	e->busy_until = v->gpu->now + p->cost;
	v->methods += n;
	return true;
}

/* The records log_stretch starts from (engine_log_tpl), one for each
 * subchannel with bit s of have set. Made on first use in a take_runs and
 * kept for it: the engines' time does not move during a feed (only the
 * scheduler moves gpu->now, and e->at is set only by pre-GF100 PFIFO
 * around its own sends), and a subchannel's source changes only with its
 * engine decision, in deliver_run, after which have keeps only the
 * decisions still valid (a decision made again starts a new template). */
struct log_tpls {
	uint32_t have;
	struct log_run tpl[5];
	/* sm[s] (bit s of smv): the subchannels of logm whose runs go to
	 * subchannel s's engine, kept while logm does not change (take_runs
	 * drops them when it does: a decision made again first leaves logm). */
	uint32_t smv;
	uint32_t sm[5];
};

/* Whether log_stretch starts at header w (nvm_pb_take_hdr's; logm: the
 * subchannels the header-first path may take whose recorder has a log,
 * from p->pick_log): engine methods of such a subchannel. (A run its log
 * does not take inline ends the stretch, even as its first.) */
static inline bool log_takes(uint32_t logm, uint32_t w)
{
	return (logm >> ((w >> 13) & 7u) & 1) && (w & 0xfffu) >= 0x100 / 4;
}

/* deliver_rec for the runs of a recorder with a method log, from header w
 * (log_takes holds) on, one after another while they go to the same
 * engine and its log takes them inline: the log's state stays in
 * registers (engine_log_open) and each record is made from the header's
 * fields (its data just before it) and the subchannel's template, the
 * same as engine_log_append makes from the run nvm_pb_take_fill builds.
 * Their methods are added to *acc (rec_flush) and *taken. Returns the
 * next header (nvm_pb_take_hdr's, from *qp), not taken, 0 if none. */
static inline uint32_t log_stretch(struct pbdma *p, struct deliv *v, struct log_tpls *t, uint32_t logm, uint32_t w,
                                   const uint32_t **qp, const uint32_t *end, uint64_t *pos, uint64_t *acc,
                                   uint64_t *taken)
{
	uint32_t s = (w >> 13) & 7u;
	struct engine *e = p->pick[s].e;
	if (e != p->target) {
		rec_flush(p, v, acc);
		engine_switch(p, e, s);
	}
	/* the subchannels whose runs go to e, with their templates */
	uint32_t sm = t->sm[s];
	if (!(t->smv >> s & 1)) {
		sm = 0;
		for (uint32_t k = 0; k < 5; k++) {
			if (!(logm >> k & 1) || p->pick[k].e != e)
				continue;
			sm |= 1u << k;
			if (!(t->have >> k & 1))
				engine_log_tpl(e, &p->pick[k].src, &t->tpl[k]);
		}
		t->have |= sm;
		t->sm[s] = sm;
		t->smv |= 1u << s;
	}
	struct log_cursor c;
	engine_log_open(e, &c);
	const uint32_t *q = *qp;
	do {
		uint32_t n = nvm_pb_take_count(w);
		if (!(sm >> s & 1) || (w & 0xfffu) < 0x100 / 4 || !engine_log_fits(&c, n))
			break;
		const uint32_t *data = q - n;
		engine_log_put_tpl(e, &c, &t->tpl[s], (w & 0xfffu) << 2, hdr_mode(w), data, hdr_first(w, q, n), n,
		                   end - data >= 8);
		w = nvm_pb_take_hdr(&q, end, pos);
		s = (w >> 13) & 7u;
	} while (w);
	engine_log_close(e, &c);
	uint64_t n = (uint64_t)(c.dp - c.dp0);
	*acc += n; /* counted as deliver_rec's (rec_flush) */
	*taken += n;
	*qp = q;
	return w;
}

/* A run of pbf_feed's loop built (nvm_pb_take_fill: header w, its data just
 * before next, the stream offset pos past it) for deliver_run, out of the
 * loop (take_runs without logging). false: the PBDMA stopped. */
static __attribute__((noinline)) bool deliver_built(struct pbdma *p, struct deliv *v, uint32_t w, const uint32_t *next,
                                                    uint64_t pos, bool masked)
{
	return deliver_run(p, v, nvm_pb_take_fill(&p->dec, 0, w, next, pos, masked));
}

/* pbf_feed's loop over the decoder's fast-path runs (nvm_pb_take_hdr) from *qp
 * to end; false when the PBDMA stopped in one. Two versions of the same
 * runs, chosen for speed only: with logging, a logged recorder's runs go
 * through log_stretch in the loop; without, everything deliver_rec does
 * not take goes out of the loop (deliver_built), which leaves the loop's
 * registers to deliver_rec (recording off). */
static inline __attribute__((always_inline)) bool take_runs(struct pbdma *p, struct deliv *v, const uint32_t **qp,
                                                            const uint32_t *end, bool logging)
{
	nvm_pb_decoder *d = &p->dec;
	const uint32_t *q = *qp, *q0 = q;
	/* nvm_pb_take_hdr moves the stream position as it moves q: it is
	 * worked out from q where it is needed (one addition less a run) */
	uint64_t pos0 = d->pos, pos = pos0, taken = 0;
	bool masked = !d->active, go = true;
	uint32_t fast = v->plain && !masked ? 0x1fu : 0, hdr;
	uint32_t rec = fast & v->valid & p->pick_rec, logm = logging ? fast & v->valid & p->pick_log : 0;
	uint32_t st = fast & v->valid & p->pick_st;
	uint64_t acc = 0; /* deliver_rec's methods not yet flushed (rec_flush) */
	struct log_tpls t;
	t.have = t.smv = 0;
	while ((hdr = nvm_pb_take_hdr(&q, end, &pos))) {
		if (logging && log_takes(logm, hdr)) {
			hdr = log_stretch(p, v, &t, logm, hdr, &q, end, &pos, &acc, &taken);
			if (!hdr)
				break;
		}
		taken += nvm_pb_take_count(hdr);
		if (deliver_rec(p, v, rec, hdr, &acc))
			continue;
		if (deliver_state(p, v, st, hdr, q, pos0 + (uint64_t)(q - q0), &acc))
			continue;
		if (logging) {
			rec_flush(p, v, &acc);
			go = deliver_run(p, v, nvm_pb_take_fill(d, 0, hdr, q, pos0 + (uint64_t)(q - q0), masked));
			t.have &= v->valid;
		} else {
			rec_flush(p, v, &acc);
			go = deliver_built(p, v, hdr, q, pos0 + (uint64_t)(q - q0), masked);
		}
		if (!go)
			break;
		rec = fast & v->valid & p->pick_rec;
		st = fast & v->valid & p->pick_st;
		if (logging) {
			uint32_t was = logm;
			logm = fast & v->valid & p->pick_log;
			t.smv = logm == was ? t.smv : 0;
		}
	}
	rec_flush(p, v, &acc);
	nvm_pb_take_sync(d, pos0 + (uint64_t)(q - q0), taken);
	*qp = q;
	return go;
}

/* The decoder's batches (the runs of its general path): in order, none
 * after a stop. */
static void on_runs(void *ctx, const nvm_pb_run *runs, size_t n)
{
	struct pbdma *p = ctx;
	if (p->stop)
		return;
	struct deliv v;
	deliv_begin(p, &v);
	for (size_t k = 0; k < n && deliver_run(p, &v, &runs[k]); k++)
		;
	deliv_end(p, &v);
}

static void on_error(void *ctx, const nvm_pb_error *e)
{
	struct pbdma *p = ctx;
	if (p->stop || e->code == NVM_PB_ERR_RESERVED_BIT)
		return; /* silicon H100: reserved bit 12 decodes as if clear */
	/* dev_pbdma PBENTRY; silicon H100: "nothing after the word runs ...
	 * USERD GET points just past the bad word". */
	p->stop = true;
	p->stop_res = M_STALL;
	nvm_pb_stop_at(&p->dec, e->offset + 1);
	p->r[PBR_HDR_SHADOW] = e->word;
	raise(p, PBR_INTR_0, INTR0_PBENTRY, nvm_pb_err_message(e->code));
}

/* ---------------------------------------------------------------- GP entries and PB segments */

/* gh100: GP_INFO PB_SEGMENT_EXTENDED_BASE 24:8, set by a GP entry with
 * OPCODE SET_PB_SEGMENT_EXTENDED_BASE, kept in RAMFC GP_INFO.
 * UNVERIFIED: its 17 bits are VA bits 56:40, above the 40 bits that GET_HI
 * 7:0 and GET 31:2 give (17 + 40 = the 57-bit VER3 VA); a segment stays in
 * its 2^40 window (GP entry END_OF_VA check unchanged). */
static uint64_t pb_extended_base(const struct pbdma *p)
{
	if (!p->h->gen->gp_extended_base)
		return 0;
	return (uint64_t)FIELD_GET(p->r[PBR_GP_INFO], 24, 8) << 40;
}

static uint64_t pb_get(const struct pbdma *p)
{
	return pb_extended_base(p) | ((uint64_t)FIELD_GET(p->r[PBR_GET_HI], 7, 0) << 32) | (p->r[PBR_GET] & ~3u);
}

static uint64_t pb_put(const struct pbdma *p)
{
	return pb_extended_base(p) | ((uint64_t)FIELD_GET(p->r[PBR_PUT_HI], 7, 0) << 32) | (p->r[PBR_PUT] & ~3u);
}

static void set_get(struct pbdma *p, uint64_t va)
{
	p->r[PBR_GET] = (uint32_t)va;
	p->r[PBR_GET_HI] = (uint32_t)(va >> 32) & 0xffu;
	if (!FIELD_GET(p->r[PBR_PB_FETCH_HI], 9, 9)) {
		/* LEVEL MAIN: TOP_LEVEL_GET follows; silicon H100 reads
		 * TOP_LEVEL_GET_HI with VALID (31:31) set. */
		p->r[PBR_TOP_LEVEL_GET] = (uint32_t)va;
		p->r[PBR_TOP_LEVEL_GET_HI] = ((uint32_t)(va >> 32) & 0xffu) | (1u << 31);
	}
}

/* The PBDMA's side of the shared fetch loop: one translation per call (an
 * MMU page, up to 2 MiB), read 4 KiB backing page by page. */
struct pb_fetch {
	struct pbdma *p;
	uint64_t va; /* the piece's first address */
	bool translated;
	bool halt, xlat_fault;
};

/* One translation of GET. Then the first bytes of the segment are fetched
 * into the host's caches at once, before the decoder reads them one after
 * another (a channel's segment is cold when thousands of channels take
 * turns), and the channel's PB hint (struct chan) notes the mapping. */
static bool pbf_translate(struct fifo_fetch *x, struct fifo_span *s)
{
	struct pb_fetch *c = x->ctx;
	struct pbdma *p = c->p;
	if (c->translated)
		return false; /* the page is read: the step loop calls again */
	c->translated = true;
	nvm_aperture ap;
	if (!pb_translate_page(p, x->get, NVM_MMU_READ, &ap, &s->pa, &s->sparse, &s->bytes)) {
		chan_faulted(p, c->va, "pushbuffer fetch");
		c->halt = c->xlat_fault = true;
		return false;
	}
	s->mem = &gpu_of(p)->mem[ap];
	if (!s->sparse) {
		host_prefetch_mem(s->mem, s->pa, x->put - x->get);
		struct chan *ch = cur_chan(p);
		ch->pb_hint = s->pa - x->get;
		ch->pb_hint_ap = (uint8_t)(ap + 1);
	}
	return true;
}

static void pbf_mem_fault(struct fifo_fetch *x, const struct fifo_span *s)
{
	struct pb_fetch *c = x->ctx;
	struct pbdma *p = c->p;
	nvm_aperture ap = (nvm_aperture)(s->mem - gpu_of(p)->mem);
	emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "pa_out_of_range", s->pa, (uint64_t)ap,
	     "channel %d: pushbuffer va 0x%llx maps outside %s", p->chid, (unsigned long long)x->get,
	     nvm_aperture_name(ap));
	chan_faulted(p, c->va, "pushbuffer fetch");
	c->halt = true;
}

/* Feeds a piece to the decoder: the runs of its fast path are taken and
 * delivered here one by one (nvm_pb_take_hdr), everything else (control
 * entries, errors, a sequence that continues from the previous piece) goes
 * through nvm_pb_feed and the sink, one instruction or pending sequence at a
 * time. The same runs, in the same order, as nvm_pb_feed would deliver. */
static uint32_t pbf_feed(struct fifo_fetch *x, const uint32_t *w, uint32_t n)
{
	struct pb_fetch *c = x->ctx;
	struct pbdma *p = c->p;
	nvm_pb_decoder *d = x->dec;
	const uint32_t *q = w, *end = w + n;
	uint64_t pos0 = d->pos;
	struct deliv v;
	nvm_pb_take_begin(d);
	deliv_begin(p, &v);
	while (q < end) {
		if (nvm_pb_take_ready(d)) {
			/* a recorder with a log has been seen: the version with
			 * logging (a hint, p->pick_log) */
			bool stopped =
			        !(p->pick_log ? take_runs(p, &v, &q, end, true) : take_runs(p, &v, &q, end, false));
			if (stopped) {
				deliv_end(p, &v);
				nvm_pb_take_stop(d);
				return (uint32_t)(d->pos - pos0);
			}
			if (q == end)
				break;
		}
		/* The general path: one instruction, or the data of the
		 * pending sequence, or the rest of a skipped segment. */
		size_t avail = (size_t)(end - q);
		size_t k = d->remaining ? (d->remaining < avail ? d->remaining : avail) : d->skipping ? avail : 1;
		deliv_end(p, &v);
		q += nvm_pb_feed(d, q, k);
		if (nvm_pb_stopped(d))
			return (uint32_t)(q - w);
		deliv_begin(p, &v);
	}
	deliv_end(p, &v);
	return n;
}

static const struct fifo_fetch_ops pbdma_fetch_ops = {
	.translate = pbf_translate,
	.mem_fault = pbf_mem_fault,
	.feed = pbf_feed,
};

/* Feeds the next piece of the current segment (up to one page and the
 * step's budget). Returns the PB entries consumed; sets *halt when the
 * PBDMA cannot go on. */
static uint32_t feed_segment(struct pbdma *p, uint32_t budget, bool *halt)
{
	uint64_t va = pb_get(p), end = pb_put(p);
	uint32_t one;
	struct pb_fetch c = { .p = p, .va = va };
	struct fifo_fetch x = { .ops = &pbdma_fetch_ops,
		                .ctx = &c,
		                .dec = &p->dec,
		                .get = va,
		                .put = end,
		                .max = budget,
		                .keep_span = true,
		                .buf = &one };
	p->stop = false;
	p->pick_valid = 0;
	uint32_t used = fifo_fetch_run(&x);
	if (c.halt || p->stop)
		*halt = true;
	if (c.xlat_fault)
		return 0;
	set_get(p, va + 4ull * used);
	p->cost += (uint64_t)used * HOST_NS_PER_DWORD;
	p->h->stats.pb_dwords += used;
	if (pb_get(p) >= end) {
		nvm_pb_segment_end(&p->dec);
		userd_writeback_if_enabled(p);
	}
	return used;
}

/* NV_PPBDMA_GP_BASE OFFSET 31:3 + GP_BASE_HI OFFSET 7:0 (gh100: 24:0),
 * LIMIT2 GP_BASE_HI 20:16 (gh100: GP_INFO 4:0). */
static uint64_t gp_base(const struct pbdma *p)
{
	const struct host_gen *g = p->h->gen;
	return ((uint64_t)FIELD_GET(p->r[PBR_GP_BASE_HI], g->gp_base_hi_bits - 1u, 0) << 32) |
	       (p->r[PBR_GP_BASE] & ~7u);
}

/* Takes the next GP entry. false when the PBDMA cannot go on (out of work,
 * an interrupt, a fault); *idle tells the first. */
static bool next_gp_entry(struct pbdma *p, bool *idle)
{
	uint32_t *r = p->r;
	const struct host_gen *hg = p->h->gen;
	uint64_t size = 1ull << FIELD_GET(r[hg->gp_limit2_reg], hg->gp_limit2_lo + 4u, hg->gp_limit2_lo);
	if (gp_base(p) + size * 8 - 1 > (1ull << hg->gpfifo_va_bits) - 1) {
		raise(p, PBR_INTR_0, INTR0_GPFIFO, "GPFIFO crosses the end of the address space");
		return false;
	}
	if (r[PBR_GP_GET] == r[PBR_GP_PUT])
		userd_read_gp_put(p); /* a USERD poll before declaring the channel idle */
	if (r[PBR_GP_PUT] >= size || r[PBR_GP_GET] >= size || r[PBR_GP_FETCH] >= size) {
		raise(p, PBR_INTR_0, INTR0_GPPTR, "GP_PUT, GP_GET or GP_FETCH not below 1 << LIMIT2");
		return false;
	}
	if (r[PBR_GP_GET] == r[PBR_GP_PUT]) {
		*idle = true;
		return false;
	}
	uint64_t eva = gp_base(p) + (uint64_t)r[PBR_GP_GET] * 8;
	uint32_t e[2];
	struct chan *c = cur_chan(p);
	uint64_t pa;
	if (!va_access_at(p, eva, e, 8, NVM_MMU_READ, "GPFIFO fetch", &c->gp_hint_ap, &pa))
		return false;
	c->gp_hint = pa - 8ull * r[PBR_GP_GET]; /* where entry 0 is if the ring is linear */
	r[PBR_GP_SHADOW_0] = e[0];
	r[PBR_GP_SHADOW_1] = e[1];
	r[PBR_GP_GET] = (uint32_t)((r[PBR_GP_GET] + 1) % size);
	r[PBR_GP_FETCH] = r[PBR_GP_GET];
	p->h->stats.gp_entries++;
	p->units += HOST_UNITS_GP_ENTRY;
	p->cost += HOST_NS_PER_DWORD * 2;
	nvm_pb_gp_entry g;
	nvm_pb_gp_decode_gen(e[0], e[1], hg->gp_extended_base, &g);
	if (g.err != NVM_PB_GP_OK) {
		/* volta-facts.md a: GPENTRY; the entry is discarded and the unit
		 * continues after the clear. */
		raise(p, PBR_INTR_0, INTR0_GPENTRY, nvm_pb_gp_err_message(g.err));
		return false;
	}
	if (g.control) {
		if (g.opcode == NVM_PB_GP_SET_PB_SEGMENT_EXTENDED_BASE)
			r[PBR_GP_INFO] = FIELD_SET(r[PBR_GP_INFO], 24, 8, g.extended_base);
		else if (g.opcode != NVM_PB_GP_NOP)
			emit(gpu_of(p), NVM_EV_UNMODELLED, "pbdma", "gp_crc", g.opcode, g.operand,
			     "channel %d: GP %s entry: CRC checks are not modelled", p->chid,
			     nvm_pb_gp_op_name(g.opcode));
		userd_writeback_if_enabled(p);
		return true;
	}
	/* FETCH_CONDITIONAL: fetched only while SUBDEVICE_STATUS is ACTIVE. */
	if (g.fetch_conditional && !p->dec.active)
		return true;
	uint32_t fh = FIELD_SET(0, 7, 0, (uint32_t)(g.get >> 32));
	fh = FIELD_SET(fh, 9, 9, g.level_subroutine);
	fh = FIELD_SET(fh, 10, 10, g.sync_wait);
	r[PBR_PB_FETCH] = ((uint32_t)g.get & ~3u) | (g.fetch_conditional ? 1u : 0u);
	r[PBR_PB_FETCH_HI] = fh;
	uint64_t end = g.get + 4ull * g.length;
	r[PBR_PUT] = (uint32_t)end;
	r[PBR_PUT_HI] = (uint32_t)(end >> 32) & 0xffu;
	set_get(p, g.get);
	nvm_pb_segment_end(&p->dec); /* a new segment: END_PB_SEGMENT skipping ends */
	if (g.fetch_conditional && p->dec.remaining) {
		/* dev_pbdma PBSEG: a sequence begun in an unconditional segment
		 * continues into a conditional one; after the clear its first
		 * entries are taken as method data. */
		raise(p, PBR_INTR_0, INTR0_PBSEG, "method data continues into a conditionally fetched segment");
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- load / save */

/* The n copies of `bytes` bytes of blocks b, from src to dst: registers
 * into the RAMFC image (to_ramfc) or back. Inline with constants: each
 * copy is a fixed-size move. */
static inline __attribute__((always_inline)) void ramfc_blk_copy(const struct ramfc_blk *b, unsigned n, size_t bytes,
                                                                 uint32_t *restrict dst, const uint32_t *restrict src,
                                                                 bool to_ramfc)
{
	for (unsigned i = 0; i < n; i++)
		memcpy(dst + (to_ramfc ? b[i].dword : b[i].reg), src + (to_ramfc ? b[i].reg : b[i].dword), bytes);
}

/* Every size class of h->ramfc_blk (16, 8, 4 bytes), in one direction. */
static inline __attribute__((always_inline)) void ramfc_copy(const struct host *h, uint32_t *restrict dst,
                                                             const uint32_t *restrict src, bool to_ramfc)
{
	ramfc_blk_copy(h->ramfc_blk[0], h->nramfc_blk[0], 16, dst, src, to_ramfc);
	ramfc_blk_copy(h->ramfc_blk[1], h->nramfc_blk[1], 8, dst, src, to_ramfc);
	ramfc_blk_copy(h->ramfc_blk[2], h->nramfc_blk[2], 4, dst, src, to_ramfc);
}

/* The RAMFC's mirrored words into the registers, and back (the copies of
 * h->ramfc_blk: no `rep movs`, no call, no remainder per run). */
void pbdma_ramfc_to_regs(const struct host *h, uint32_t *restrict r, const uint32_t *restrict ramfc)
{
	ramfc_copy(h, r, ramfc, false);
}

void pbdma_regs_to_ramfc(const struct host *h, uint32_t *restrict ramfc, const uint32_t *restrict r)
{
	ramfc_copy(h, ramfc, r, true);
}

static uint64_t inst_addr(const struct pbdma *p, unsigned *target)
{
	*target = p->inst_target;
	return p->inst;
}

static void set_status(struct pbdma *p, bool loaded)
{
	p->h->gen->ops->pbdma_status(p->h, p, loaded);
	p->r[PBR_CHANNEL] = loaded ? (uint32_t)p->chid : 0;
	p->r[PBR_STATUS] = loaded ? 0x80000000u : 0; /* PBDMA BUSY 31:28 = 8 */
}

static bool do_load(struct pbdma *p)
{
	unsigned target;
	uint64_t a = inst_addr(p, &target);
	/* Straight into p->ramfc: the dwords no register mirrors come back
	 * unchanged on save (a failed read copies nothing). */
	uint32_t *ramfc = p->ramfc;
	if (target == 1 ||
	    phys_copy(&gpu_of(p)->mem[target >= 2 ? NVM_AP_SYSMEM : NVM_AP_VRAM], a, ramfc, sizeof(p->ramfc), false)) {
		/* UNVERIFIED: an instance block that cannot be read faults the
		 * channel (PBDMA_FAULTED) instead of loading it, and raises
		 * CHSW_ERROR RDAT_TIMEOUT (the read data of the switch never
		 * comes, as SCHED_ERROR RL_RDAT_TIMEOUT for a runlist). */
		emit(gpu_of(p), NVM_EV_GUEST_ERROR, "pbdma", "bad_inst", a, (uint64_t)p->chid,
		     "channel %d: instance block at 0x%llx (target %u) cannot be read", p->chid, (unsigned long long)a,
		     target);
		host_chan_fault(p->h, (uint32_t)p->chid, HOST_PBDMA_FAULTED);
		host_chsw_error(p->h, 0x04 /* CODE_RDAT_TIMEOUT */, a, "RAMFC read outside its aperture");
		return false;
	}
	const struct host *h = p->h;
	pbdma_ramfc_to_regs(h, p->r, ramfc);
	if (h->gen->ops->chan_load)
		h->gen->ops->chan_load(p->h, p);
	p->h->stats.ctx_loads++;
	decoder_load(p);
	p->target = NULL;
	set_status(p, true);
	host_engstat_loaded(p->h, p->rl, p);
	pbdma_wb_timer(p);
	host_set_chan_status(p->h, (uint32_t)p->chid, PCCSR_STATUS_ON_PBDMA);
	emit(gpu_of(p), NVM_EV_TRACE, "pbdma", "ctx_load", (uint64_t)p->chid, p->id, "PBDMA %u: channel %d loaded",
	     p->id, p->chid);
	/* dev_pbdma SIGNATURE: HW 15:0 must be HW_VALID (0xFACE) or
	 * HW_HOST_CLASS_ID (50031 on gv100, C36F), else INTR_0 SIGNATURE. */
	const struct host_gen *g = p->h->gen;
	uint32_t sig = FIELD_GET(p->r[PBR_SIGNATURE], 15, 0);
	if (sig != g->sig_valid && sig != g->sig_host_class) {
		char why[80];
		snprintf(why, sizeof(why), "RAMFC SIGNATURE HW is neither 0x%X nor the host class %u", g->sig_valid,
		         g->sig_host_class);
		raise(p, PBR_INTR_0, INTR0_SIGNATURE, why);
	} else if (pb_get(p) > pb_put(p))
		raise(p, PBR_INTR_0, 1u << 17, "GET is above PUT (PBPTR)");
	userd_read_gp_put(p);
	return true;
}

void pbdma_chan_changed(struct pbdma *p)
{
	if (p->chid >= 0)
		p->inst = host_chan_inst(p->h, (uint32_t)p->chid, &p->inst_target);
}

void pbdma_load(struct pbdma *p, uint32_t chid)
{
	p->chid = (int)chid;
	pbdma_chan_changed(p);
	chan_set_loaded(host_chan(p->h, chid), (int)p->id);
	p->state = PBS_LOADING;
	p->ev = 0;
	arm_step(p, HOST_NS_CTXSW);
	/* The engine status (CTXSW_LOAD / SWITCH) is refreshed by the caller,
	 * host_schedule, once its decisions for every PBDMA are made: a call
	 * here would compute the same and, with this step pending, schedule
	 * nothing (host_engstat). */
}

void pbdma_save(struct pbdma *p)
{
	if (p->chid < 0)
		return;
	struct host *h = p->h;
	struct chan *c = cur_chan(p);
	if (p->ev)
		sched_cancel(h->gpu, p->ev);
	p->ev = 0;
	if (p->state == PBS_RUN) {
		decoder_save(p);
		unsigned target;
		uint64_t a = inst_addr(p, &target);
		nvm_aperture ap = target >= 2 ? NVM_AP_SYSMEM : NVM_AP_VRAM;
		pbdma_regs_to_ramfc(h, p->ramfc, p->r);
		if (phys_copy(&h->gpu->mem[ap], a, p->ramfc, sizeof(p->ramfc), true))
			mem_budget_error(p, ap, a, "RAMFC save"); /* the load read the same bytes */
		userd_writeback(p);
		h->stats.ctx_saves++;
		sched_charge(h->gpu, HOST_UNITS_CTXSW);
		emit(h->gpu, NVM_EV_TRACE, "pbdma", "ctx_save", (uint64_t)p->chid, p->id, "PBDMA %u: channel %d saved",
		     p->id, p->chid);
	}
	host_set_chan_status(h, (uint32_t)p->chid,
	                     c->acq_wait                                           ? PCCSR_STATUS_PENDING_ACQUIRE
	                     : c->work && host_chan_runnable(h, (uint32_t)p->chid) ? PCCSR_STATUS_PENDING
	                                                                           : PCCSR_STATUS_IDLE);
	chan_set_loaded(c, -1);
	p->chid = -1;
	p->state = PBS_IDLE;
	set_status(p, false);
	pbdma_wb_timer(p); /* stops it */
	if (p->rl)
		host_engstat(h, p->rl);
}

void pbdma_kick(struct pbdma *p)
{
	if (p->state == PBS_RUN && !pbdma_stalled(p))
		arm_step(p, 0);
}

/* ---------------------------------------------------------------- the step */

static void step(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)arg;
	struct pbdma *p = ctx;
	struct host *h = p->h;
	p->ev = 0;
	/* A context load's units are charged after the step's own work, so
	 * that even a run of a few units decodes what its budget allows. */
	uint64_t load_units = 0;
	if (p->state == PBS_LOADING) {
		p->state = PBS_RUN;
		load_units = HOST_UNITS_CTXSW;
		if (!do_load(p)) {
			sched_charge(gpu, load_units);
			p->state = PBS_IDLE;
			chan_set_loaded(host_chan(h, (uint32_t)p->chid), -1);
			p->chid = -1;
			host_schedule(h, p->rl);
			return;
		}
	}
	if (p->state != PBS_RUN || pbdma_stalled(p)) {
		sched_charge(gpu, load_units);
		return;
	}
	if (p->wait_until > gpu->now) {
		sched_charge(gpu, load_units);
		arm_step(p, p->wait_until - gpu->now); /* a CLEAR_FAULTED retry */
		return;
	}
	struct chan *c = cur_chan(p);
	p->cost = 0;
	p->units = 0;
	bool halt = false, idle = false;
	uint32_t done = 0;
	/* A method parked in METHOD0 runs first (seed: "Fixing the invalid
	 * method in METHOD0 (or changing it to NOP) and clearing the interrupt
	 * will allow the PBDMA unit to continue"). */
	uint32_t m0 = p->r[PBR_METHOD0];
	if (FIELD_GET(m0, 31, 31)) {
		p->r[PBR_METHOD0] = m0 & ~(1u << 31);
		if (exec_one(p, FIELD_GET(m0, 18, 16), FIELD_GET(m0, 13, 2) << 2, p->r[PBR_DATA0]))
			halt = true;
	}
	/* No more entries than the run budget has left (charged per
	 * HOST_WORK_PER_UNIT below), and the step ends when the budget is
	 * spent: a loop of GP entries or semaphores is a hang of this run, not
	 * a step without end. The step's first GP entry and its segment run
	 * whatever their units, so that a run of a few units still decodes. */
	uint64_t left = sched_budget_left(gpu), gp0 = h->stats.gp_entries;
	uint32_t max =
	        left < HOST_STEP_DWORDS / HOST_WORK_PER_UNIT ? (uint32_t)left * HOST_WORK_PER_UNIT : HOST_STEP_DWORDS;
	while (!halt && done < max &&
	       ((!done && h->stats.gp_entries - gp0 <= 1) || done / HOST_WORK_PER_UNIT + p->units < left) &&
	       host_chan_runnable(h, (uint32_t)p->chid)) {
		if (pb_get(p) < pb_put(p))
			done += feed_segment(p, max - done, &halt);
		else if (!next_gp_entry(p, &idle))
			halt = true;
		if (pbdma_stalled(p))
			halt = true;
	}
	sched_charge(gpu, done / HOST_WORK_PER_UNIT + p->units + load_units);
	if (pbdma_stalled(p)) {
		host_engstat(h, p->rl);
		return; /* frozen until software clears the interrupt */
	}
	if (idle)
		chan_set_work(h, (uint32_t)p->chid, false); /* the scheduler saves it (RAMFC, USERD) */
	if (halt || !host_chan_runnable(h, (uint32_t)p->chid) || c->acq_wait) {
		host_schedule(h, p->rl);
		return;
	}
	arm_step(p, p->cost ? p->cost : 1);
	host_engstat(h, p->rl);
}

/* ---------------------------------------------------------------- snapshots (host_snap.c) */

void pbdma_decoder_init(struct pbdma *p, uint32_t subdevice_id)
{
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, p->h->pb_gen, NVM_PB_FORMAT_NEW);
	cfg.subdevice_id = subdevice_id;
	nvm_pb_sink sink = { .ctx = p, .error = on_error, .runs = on_runs };
	nvm_pb_decoder_init(&p->dec, &cfg, &sink);
}

const sched_fn host_snap_events[HOST_SNAP_NEVENTS] = {
	rl_fetch, slice_event, schedule_event, eng_idle_event, step, wb_event, acq_wake, acq_timeout,
};
const mem_watch_fn host_snap_watches[1] = { acq_hit };
