/*
 * HWSQ, the hardware sequencer (seed 004; envytools hw/bus/hwsq.rst; rnndb
 * bus/pbus.xml). Registers, code RAM, the two execution slots, flags and
 * their register overrides, events, MMIO pokes and the framebuffer pause.
 *
 * Execution model: one engine runs the slots' instructions in turn (slot A
 * first, then alternating per instruction while both execute). Instructions
 * other than waits take no virtual time; a PTIMER wait, an event wait or a
 * poke held by HWSQ_ENABLE = 0 blocks the whole engine, which is how a long
 * wait on one slot also hangs the other (seed 004 "Script execution").
 */
#include <stdlib.h>
#include <string.h>

#include "hwsq_internal.h"

#define NV_PBUS_DEBUG_6               0x1098u
#define DEBUG_6_HWSQ_ENABLE           3
#define DEBUG_6_HWSQ_OVERRIDE_MODE    4
#define NV_PBUS_HWSQ_ENTRY_POINT      0x1304u
#define NV_PBUS_HWSQ_STATUS           0x1308u
#define NV_PBUS_HWSQ_TRIGGER          0x130cu
#define NV_PBUS_HWSQ_FLAGS_0          0x1310u
#define NV_PBUS_HWSQ_FLAGS_1          0x1314u
#define NV_PBUS_HWSQ_ENTRY_POINT_HIGH 0x1318u
#define NV_PBUS_HWSQ_CODE             0x1400u
#define NV_PBUS_HWSQ_EVENTS           0x1578u
#define NV_PBUS_HWSQ_NEW_CODE         0x80000u

#define FLAG_FB_PAUSE   16
#define EVENT_FB_PAUSED 0

/* UNVERIFIED: the memory controller completes a pause 1 us after FB_PAUSE
 * is set (the documents give no figure). */
#define FB_PAUSE_DELAY_NS 1000u
/* UNVERIFIED: instructions other than waits take no time; after this many
 * in a row the engine lets one PTIMER clock pass, so an exit-less script
 * running around the code RAM still advances virtual time. */
#define HWSQ_QUANTUM 512u

static void kick(struct hwsq *h);
static void run_engine(struct hwsq *h);

static bool reg_bit(const uint32_t *r, unsigned bit)
{
	return (*r >> bit) & 1u;
}

static bool hwsq_enabled(const struct hwsq *h)
{
	return reg_bit(h->debug6, DEBUG_6_HWSQ_ENABLE);
}

/* seed 004 "Flags": FLAGS_n bits 15:0 values, 31:16 override enables
 * (rnndb layout; the seed's "15-31" is a typo, see docs/fidelity.md). */
static nvm_hwsq_flag_state flag_state(const struct hwsq *h, unsigned f)
{
	uint32_t r = *h->flags[f / 16];
	unsigned b = f % 16;
	if (!((r >> (16 + b)) & 1u))
		return NVM_HWSQ_UNSET;
	return ((r >> b) & 1u) ? NVM_HWSQ_SET1 : NVM_HWSQ_SET0;
}

/* ---------------------------------------------------------------- events, pause */

static void ewait_check(struct hwsq *h)
{
	if (h->blk != HB_EWAIT)
		return;
	uint32_t level = h->ew_event < 32 ? (h->events >> h->ew_event) & 1u : 0;
	if (level == (h->ew_value & 1u)) {
		h->blk = HB_NONE;
		kick(h);
	}
}

void hwsq_pause_done(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	(void)arg;
	struct hwsq *h = ctx;
	h->pause_id = 0;
	h->events |= 1u << EVENT_FB_PAUSED;
	emit(h->gpu, NVM_EV_TRACE, "hwsq", "fb_paused", 0, 1, "framebuffer paused");
	ewait_check(h);
}

/* seed 004 "Framebuffer pause feature": the pause is requested iff flag 16
 * is in the override-to-1 state, whatever HWSQ_ENABLE says. UNVERIFIED:
 * host accesses are held from the request on, not only once FB_PAUSED. */
static void pause_update(struct hwsq *h)
{
	bool want = h->v->fb_pause && flag_state(h, FLAG_FB_PAUSE) == NVM_HWSQ_SET1;
	unsigned hold = NVM_HOLD_MEM | (h->v->pause_mmio ? NVM_HOLD_MMIO : 0);
	if (want == h->pause_req)
		return;
	h->pause_req = want;
	if (want) {
		h->gpu->hold |= hold;
		h->pause_id = sched_at(h->gpu, h->gpu->now + FB_PAUSE_DELAY_NS, hwsq_pause_done, h, 0, 0);
		emit(h->gpu, NVM_EV_TRACE, "hwsq", "fb_pause", 0, 1, "framebuffer pause requested");
	} else {
		h->gpu->hold &= ~hold;
		if (h->pause_id)
			sched_cancel(h->gpu, h->pause_id);
		h->pause_id = 0;
		h->events &= ~(1u << EVENT_FB_PAUSED);
		emit(h->gpu, NVM_EV_TRACE, "hwsq", "fb_pause", 0, 0, "framebuffer pause released");
		ewait_check(h);
	}
}

static void set_flag(struct hwsq *h, unsigned f, nvm_hwsq_flag_state st)
{
	uint32_t *r = h->flags[f / 16];
	unsigned b = f % 16;
	if (st == NVM_HWSQ_UNSET) {
		/* UNVERIFIED: unset clears the override enable only; the value bit
		 * keeps what it was. */
		*r &= ~(1u << (16 + b));
	} else {
		*r |= 1u << (16 + b);
		*r = (*r & ~(1u << b)) | ((st == NVM_HWSQ_SET1 ? 1u : 0u) << b);
	}
	if (f == FLAG_FB_PAUSE)
		pause_update(h);
}

/* ---------------------------------------------------------------- engine */

/* UNVERIFIED: a poke to an address outside BAR0 or not 4-byte aligned is
 * dropped (with a diagnostic); the documents say nothing about it. */
static void poke(struct hwsq *h, uint32_t addr, uint32_t data)
{
	emit(h->gpu, NVM_EV_TRACE, "hwsq", "poke", addr, data, "MMIO 0x%06x <- 0x%08x", addr, data);
	if (addr >= BAR0_SIZE || (addr & 3)) {
		emit(h->gpu, NVM_EV_GUEST_ERROR, "hwsq", "bad_poke", addr, data,
		     "poke of 0x%08x to 0x%08x (outside BAR0 or unaligned) dropped", data, addr);
		return;
	}
	bus_write(h->gpu, addr, data);
}

void hwsq_engine_ev(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)gpu;
	(void)arg;
	struct hwsq *h = ctx;
	h->ev_id = 0;
	if (h->blk == HB_WAIT)
		h->blk = HB_NONE;
	run_engine(h);
}

static void cancel_block(struct hwsq *h)
{
	if (h->ev_id)
		sched_cancel(h->gpu, h->ev_id);
	h->ev_id = 0;
	h->blk = HB_NONE;
}

static bool runnable(const struct hwsq *h, unsigned s)
{
	return h->slot[s].exec && !h->slot[s].illegal;
}

static void trace_insn(struct hwsq *h, unsigned s, uint32_t ip)
{
	uint8_t b[5];
	for (unsigned i = 0; i < 5; i++)
		b[i] = h->code[(ip + i) & h->mask];
	nvm_hwsq_insn in;
	if (!h->dis_ready) /* formats 256 one-byte forms: only when tracing */
		h->dis_ready = nvm_hwsq_dis_init(&h->dis, h->v->id, 1) == NVM_OK;
	nvm_hwsq_decode(&h->dis, b, 5, 0, &in);
	emit(h->gpu, NVM_EV_TRACE, "hwsq", "exec", ip, s, "slot %c 0x%03x: %s", s ? 'B' : 'A', ip, in.text);
}

static uint32_t imm(const struct hwsq *h, uint32_t ip, unsigned n)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < n; i++)
		v |= (uint32_t)h->code[(ip + 1 + i) & h->mask] << (8 * i);
	return v;
}

/* Executes one instruction of slot s. */
static void step(struct hwsq *h, unsigned s)
{
	struct hwsq_slot *sl = &h->slot[s];
	uint32_t ip = sl->ip;
	uint8_t b0 = h->code[ip];
	const struct hwsq_op *op = h->dec[b0];
	h->ninsn++;
	if (emit_wanted(h->gpu, NVM_EV_TRACE))
		trace_insn(h, s, ip);
	if (!op) {
		/* seed 004 "Script execution": NV41:G92 light the illegal bit and
		 * hang (still executing); NV17:NV41 and G92+ skip one byte.
		 * UNVERIFIED: the IP of a hung slot stays on the bad opcode. */
		if (h->v->illegal_hang) {
			sl->illegal = true;
			emit(h->gpu, NVM_EV_GUEST_ERROR, "hwsq", "illegal_opcode", ip, b0,
			     "slot %c: unknown opcode 0x%02x at 0x%03x: hung", s ? 'B' : 'A', b0, ip);
		} else {
			sl->ip = (ip + 1) & h->mask;
		}
		return;
	}
	uint32_t next = (ip + op->len) & h->mask;
	switch (op->kind) {
	case HK_WAIT: {
		sl->ip = next; /* the IP points past a wait in progress */
		uint64_t clocks = hwsq_wait_clocks(b0);
		if (clocks) {
			h->blk = HB_WAIT;
			h->blk_slot = s;
			h->ev_id = sched_at(h->gpu, h->gpu->now + clocks * HWSQ_NS_PER_CLOCK, hwsq_engine_ev, h, 0, 0);
		}
		break;
	}
	case HK_EXIT:
		sl->exec = false; /* exit does not advance the IP */
		break;
	case HK_UNSET:
	case HK_SET1:
	case HK_SET0:
		sl->ip = next;
		set_flag(h, FIELD_GET(b0, 4, 0),
		         op->kind == HK_UNSET  ? NVM_HWSQ_UNSET
		         : op->kind == HK_SET1 ? NVM_HWSQ_SET1
		                               : NVM_HWSQ_SET0);
		break;
	case HK_DATA:
		sl->ip = next;
		sl->data = imm(h, ip, 4);
		break;
	case HK_DATALO:
		sl->ip = next;
		sl->data = (sl->data & 0xffff0000u) | imm(h, ip, 2);
		break;
	case HK_ADDR:
	case HK_ADDRLO:
		sl->ip = next;
		sl->addr = op->kind == HK_ADDR ? imm(h, ip, 4) : (sl->addr & 0xffff0000u) | imm(h, ip, 2);
		if (!hwsq_enabled(h)) {
			/* seed 004 "HWSQ_ENABLE": MMIO accesses hang until it is 1. */
			h->blk = HB_HOLD;
			h->blk_slot = s;
			h->hold_addr = sl->addr;
			h->hold_data = sl->data;
		} else {
			poke(h, sl->addr, sl->data);
		}
		break;
	case HK_EWAIT:
		sl->ip = next;
		h->blk = HB_EWAIT;
		h->blk_slot = s;
		/* UNVERIFIED: bit 0 of the value byte is compared; events 32-255 read 0. */
		h->ew_event = (uint8_t)imm(h, ip, 1);
		h->ew_value = (uint8_t)(imm(h, ip, 2) >> 8);
		if (((h->ew_event < 32 ? h->events >> h->ew_event : 0) & 1u) == (h->ew_value & 1u))
			h->blk = HB_NONE;
		break;
	}
}

static int pick_slot(struct hwsq *h)
{
	unsigned n = h->v->nslots;
	for (unsigned k = 0; k < n; k++) {
		unsigned s = (h->next + k) % n;
		if (runnable(h, s))
			return (int)s;
	}
	return -1;
}

static void span_add(struct ip_span *sp, unsigned s, uint32_t ip)
{
	if (!sp->n[s]++ || ip < sp->lo[s])
		sp->lo[s] = ip;
	if (ip > sp->hi[s])
		sp->hi[s] = ip;
}

/* The run budget ran out while the sequencer still had work: it is what
 * keeps the run from ending, so say where it spins. The engine resumes
 * from the same place in the next run. UNVERIFIED: hardware would spin for
 * ever; stopping and reporting is the model's (docs/fidelity.md). */
static void report_spin(struct hwsq *h)
{
	const struct ip_span *sp = &h->span;
	for (unsigned s = 0; s < h->v->nslots; s++) {
		if (!sp->n[s])
			continue;
		emit(h->gpu, NVM_EV_GUEST_ERROR, "hwsq", "spin", sp->lo[s], s,
		     "slot %c still executing when the run budget ran out: %llu instructions since it last "
		     "waited, all in 0x%03x..0x%03x (no exit)",
		     s ? 'B' : 'A', (unsigned long long)sp->n[s], sp->lo[s], sp->hi[s]);
	}
}

/* Runs instructions until the engine blocks, nothing is runnable, the
 * quantum is used up or the run budget is: each instruction is one unit
 * of the run budget (sched_charge), so a script that never exits ends the
 * run as a hang instead of spinning. Re-entry (a poke to TRIGGER or DEBUG_6
 * from inside a script) only changes state; the outer loop picks it up. */
static void run_engine(struct hwsq *h)
{
	if (h->in_exec || h->ev_id)
		return;
	h->in_exec = true;
	for (unsigned n = 0; h->blk == HB_NONE && !h->gpu->closing; n++) {
		int s = pick_slot(h);
		if (s < 0)
			break;
		if (n == HWSQ_QUANTUM) {
			h->ev_id = sched_at(h->gpu, h->gpu->now + HWSQ_NS_PER_CLOCK, hwsq_engine_ev, h, 0, 0);
			break;
		}
		if (!sched_budget_left(h->gpu)) {
			report_spin(h);
			h->ev_id = sched_at(h->gpu, h->gpu->now, hwsq_engine_ev, h, 0, 0);
			break;
		}
		span_add(&h->span, (unsigned)s, h->slot[s].ip);
		step(h, (unsigned)s);
		sched_charge(h->gpu, 1);
		if (h->v->nslots > 1)
			h->next = (unsigned)s ^ 1u;
	}
	if (!h->ev_id || h->blk != HB_NONE) /* blocked or done, not merely paused */
		h->span = (struct ip_span){ 0 };
	h->in_exec = false;
}

/* Runs the engine from a register write: at the current time, but from the
 * event loop, so the host's write returns first. */
static void kick(struct hwsq *h)
{
	if (h->in_exec || h->ev_id || h->blk != HB_NONE)
		return;
	if (pick_slot(h) >= 0)
		h->ev_id = sched_at(h->gpu, h->gpu->now, hwsq_engine_ev, h, 0, 0);
}

/* ---------------------------------------------------------------- registers */

static uint32_t entry_point(const struct hwsq *h, unsigned n)
{
	uint32_t ep = FIELD_GET(*h->ep, 8 * n + 7, 8 * n);
	if (h->v->ip_high)
		ep |= FIELD_GET(*h->eph, 8 * n, 8 * n) << 8;
	/* UNVERIFIED: entry points beyond the code RAM wrap around it. */
	return ep & h->mask;
}

static uint32_t slot_status(const struct hwsq *h, unsigned s)
{
	const struct hwsq_slot *sl = &h->slot[s];
	uint32_t v = FIELD_SET(0, 7, 0, sl->ip);
	v = FIELD_SET(v, 8, 8, sl->exec);
	if (h->v->illegal_hang)
		v = FIELD_SET(v, 9, 9, sl->illegal);
	if (h->v->ip_high)
		v = FIELD_SET(v, 10, 10, sl->ip >> 8);
	return v;
}

static uint32_t status_value(const struct hwsq *h)
{
	uint32_t v = slot_status(h, 0);
	if (h->v->nslots > 1)
		v = FIELD_SET(v, 31, 16, slot_status(h, 1));
	return v;
}

static uint32_t rd_status(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return status_value(ctx);
}

static uint32_t rd_events(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return ((struct hwsq *)ctx)->events;
}

static void start_slot(struct hwsq *h, unsigned s, unsigned entry)
{
	struct hwsq_slot *sl = &h->slot[s];
	/* UNVERIFIED: starting a slot that is executing restarts it. */
	if (h->blk != HB_NONE && h->blk_slot == s)
		cancel_block(h);
	sl->ip = entry_point(h, entry);
	sl->exec = true;
	sl->illegal = false;
}

static void abort_slot(struct hwsq *h, unsigned s)
{
	struct hwsq_slot *sl = &h->slot[s];
	if (sl->illegal) {
		/* The second abort clears the unknown-opcode condition. */
		sl->illegal = false;
		sl->exec = false;
	} else if (h->v->illegal_hang && sl->exec && h->blk == HB_WAIT && h->blk_slot == s) {
		/* seed 004 "Script execution": "in some cases on wait instructions,
		 * the abort triggers an unknown opcode condition". UNVERIFIED: the
		 * case modelled is an abort while a PTIMER wait of that slot is in
		 * progress, on the variants that have the illegal bit. */
		cancel_block(h);
		sl->illegal = true;
		emit(h->gpu, NVM_EV_GUEST_ERROR, "hwsq", "abort_hang", sl->ip, s,
		     "slot %c: abort during a wait hangs with the unknown-opcode condition", s ? 'B' : 'A');
	} else {
		if (h->blk != HB_NONE && h->blk_slot == s)
			cancel_block(h);
		sl->exec = false;
	}
}

/* seed 004 TRIGGER: bit 0 type (0 abort, 1 start), bit 1 slot (1 = A,
 * 0 = B; NV17:G92), bits 3:2 entry point. */
static void wr_trigger(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct hwsq *h = ctx;
	*stored = 0; /* write-only */
	unsigned s = h->v->nslots > 1 && !FIELD_GET(written, 1, 1) ? 1 : 0;
	if (FIELD_GET(written, 0, 0))
		start_slot(h, s, FIELD_GET(written, 3, 2));
	else
		abort_slot(h, s);
	kick(h);
}

static void wr_debug6(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	(void)written;
	struct hwsq *h = ctx;
	if (reg_bit(stored, DEBUG_6_HWSQ_ENABLE) && h->blk == HB_HOLD) {
		h->blk = HB_NONE;
		poke(h, h->hold_addr, h->hold_data);
		kick(h);
	}
}

static void wr_flags(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	pause_update(ctx);
}

/* UNVERIFIED: DEBUG_6 resets to 0 (HWSQ disabled) and keeps bits 6:3 (the
 * rnndb-named ones); FLAGS_0/1 are host-writable ("can be accessed"). */
static const struct reg_desc debug6_regs[] = {
	{ NV_PBUS_DEBUG_6, "NV_PBUS_DEBUG_6", 0, 0x78u, 0, NULL, wr_debug6 },
};

static const struct reg_desc hwsq_regs[] = {
	{ NV_PBUS_HWSQ_ENTRY_POINT, "NV_PBUS_HWSQ_ENTRY_POINT", 0, 0xffffffffu, 0, NULL, NULL },
	{ NV_PBUS_HWSQ_STATUS, "NV_PBUS_HWSQ_STATUS", 0, 0, 0, rd_status, NULL },
	{ NV_PBUS_HWSQ_TRIGGER, "NV_PBUS_HWSQ_TRIGGER", 0, 0, 0, NULL, wr_trigger },
	{ NV_PBUS_HWSQ_FLAGS_0, "NV_PBUS_HWSQ_FLAGS_0", 0, 0xffffffffu, 0, NULL, wr_flags },
	{ NV_PBUS_HWSQ_FLAGS_1, "NV_PBUS_HWSQ_FLAGS_1", 0, 0xffffffffu, 0, NULL, wr_flags },
	{ NV_PBUS_HWSQ_ENTRY_POINT_HIGH, "NV_PBUS_HWSQ_ENTRY_POINT_HIGH", 0, 0x01010101u, 0, NULL, NULL },
};

static const struct reg_desc events_regs[] = {
	{ NV_PBUS_HWSQ_EVENTS, "NV_PBUS_HWSQ_EVENTS", 0, 0, 0, rd_events, NULL },
};

/* Registers whose bits known flags override (envytools known-flags table).
 * UNVERIFIED: the names; the model stores them as plain registers. */
static uint32_t rd_target(void *ctx, const struct reg_desc *r, uint32_t stored);
static const struct reg_desc target_regs[] = {
	{ 0x1084u, "NV_PBUS_DEBUG_1", 0, 0xffffffffu, 0, rd_target, NULL },
	{ 0x10f0u, "NV_PBUS_PWM_0", 0, 0xffffffffu, 0, rd_target, NULL },
	{ 0x15f4u, "NV_PBUS_PWM_1", 0, 0xffffffffu, 0, rd_target, NULL },
	{ 0x15fcu, "NV_PBUS_PWM_2", 0, 0xffffffffu, 0, rd_target, NULL },
	{ 0x60081cu, "NV_PCRTC0_GPIO", 0, 0xffffffffu, 0, rd_target, NULL },
	{ 0x680880u, "NV_PRAMDAC0_UNK880", 0, 0xffffffffu, 0, rd_target, NULL },
	{ 0x682880u, "NV_PRAMDAC1_UNK880", 0, 0xffffffffu, 0, rd_target, NULL },
};

/* The value hardware uses: overrides apply while HWSQ_ENABLE is 1. */
static uint32_t apply_overrides(const struct hwsq *h, uint32_t addr, uint32_t v)
{
	if (!hwsq_enabled(h))
		return v;
	for (unsigned f = 0; f < 32; f++) {
		const struct hwsq_flag_def *d = &h->v->flags[f];
		/* reg 0: FB_PAUSE "doesn't override any actual register bitfield"
		 * (hwsq.rst), so it must not touch PMC_BOOT_0. */
		if (!d->reg || d->reg != addr)
			continue;
		nvm_hwsq_flag_state st = flag_state(h, f);
		if (st != NVM_HWSQ_UNSET)
			v = (v & ~(1u << d->bit)) | ((st == NVM_HWSQ_SET1 ? 1u : 0u) << d->bit);
	}
	return v;
}

/* seed 004 "HWSQ_OVERRIDE_MODE": READ_NORMAL (0) reads the pre-override
 * value, READ_OVERRIDE (1) the one HWSQ provides. */
static uint32_t rd_target(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	struct hwsq *h = ctx;
	if (!reg_bit(h->debug6, DEBUG_6_HWSQ_OVERRIDE_MODE))
		return stored;
	return apply_overrides(h, r->offset, stored);
}

bool hwsq_reg_effective(nvm_gpu *gpu, uint32_t addr, uint32_t *val)
{
	struct hwsq *h = gpu_block(gpu, &hwsq_class);
	uint32_t *r = h ? bus_reg(gpu, addr) : NULL;
	if (!r)
		return false;
	*val = apply_overrides(h, addr, *r);
	return true;
}

/* Code RAM windows: little-endian words over the byte RAM (seed 004 "Code
 * space"). The 0x1400 window covers the first min(size, 0x100) bytes. */
static bool win_rd(struct hwsq *h, uint32_t off, uint32_t *val)
{
	*val = (uint32_t)h->code[off] | (uint32_t)h->code[off + 1] << 8 | (uint32_t)h->code[off + 2] << 16 |
	       (uint32_t)h->code[off + 3] << 24;
	return true;
}

static bool win_wr(struct hwsq *h, uint32_t off, uint32_t val)
{
	for (unsigned i = 0; i < 4; i++)
		h->code[off + i] = (uint8_t)(val >> (8 * i));
	return true;
}

static bool code_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	return win_rd(ctx, addr - NV_PBUS_HWSQ_CODE, val);
}

static bool code_wr(void *ctx, uint32_t addr, uint32_t val)
{
	return win_wr(ctx, addr - NV_PBUS_HWSQ_CODE, val);
}

static bool new_code_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	return win_rd(ctx, addr - NV_PBUS_HWSQ_NEW_CODE, val);
}

static bool new_code_wr(void *ctx, uint32_t addr, uint32_t val)
{
	return win_wr(ctx, addr - NV_PBUS_HWSQ_NEW_CODE, val);
}

/* ---------------------------------------------------------------- block */

static nvm_status add_regs(struct hwsq *h, const char *name, uint32_t base, uint32_t size, const struct reg_desc *regs,
                           size_t n)
{
	return bus_add(
	        h->gpu,
	        &(struct reg_block){ .name = name, .base = base, .size = size, .regs = regs, .nregs = n, .ctx = h });
}

static nvm_status add_targets(struct hwsq *h)
{
	for (size_t i = 0; i < sizeof(target_regs) / sizeof(target_regs[0]); i++) {
		bool used = false;
		for (unsigned f = 0; f < 32; f++)
			used |= h->v->flags[f].reg == target_regs[i].offset;
		if (!used)
			continue;
		nvm_status st = add_regs(h, "hwsq", target_regs[i].offset, 4, &target_regs[i], 1);
		if (st)
			return st;
	}
	return NVM_OK;
}

static nvm_status hwsq_create(nvm_gpu *gpu, const void *data, void **state)
{
	const struct hwsq_variant *v = data;
	struct hwsq *h = calloc(1, sizeof(*h));
	if (!h)
		return NVM_ERR_NOMEM;
	h->gpu = gpu;
	h->v = v;
	h->mask = v->code_size - 1;
	hwsq_decode_table(v, h->dec);
	*state = h; /* freed by destroy even if a bus_add below fails */
	size_t nregs = sizeof(hwsq_regs) / sizeof(hwsq_regs[0]) - (v->ip_high ? 0 : 1);
	uint32_t win = v->code_size < 0x100 ? v->code_size : 0x100;
	nvm_status st = add_regs(h, "hwsq", NV_PBUS_DEBUG_6, 4, debug6_regs, 1);
	if (!st)
		st = add_regs(h, "hwsq", NV_PBUS_HWSQ_ENTRY_POINT, (uint32_t)nregs * 4, hwsq_regs, nregs);
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "hwsq",
		                                       .base = NV_PBUS_HWSQ_CODE,
		                                       .size = win,
		                                       .ctx = h,
		                                       .win_read = code_rd,
		                                       .win_write = code_wr });
	if (!st && v->nv41_ops)
		st = add_regs(h, "hwsq", NV_PBUS_HWSQ_EVENTS, 4, events_regs, 1);
	if (!st && v->ip_high)
		st = bus_add(gpu, &(struct reg_block){ .name = "hwsq",
		                                       .base = NV_PBUS_HWSQ_NEW_CODE,
		                                       .size = v->code_size,
		                                       .ctx = h,
		                                       .win_read = new_code_rd,
		                                       .win_write = new_code_wr });
	if (!st)
		st = add_targets(h);
	if (st)
		return st;
	h->debug6 = bus_reg(gpu, NV_PBUS_DEBUG_6);
	h->flags[0] = bus_reg(gpu, NV_PBUS_HWSQ_FLAGS_0);
	h->flags[1] = bus_reg(gpu, NV_PBUS_HWSQ_FLAGS_1);
	h->ep = bus_reg(gpu, NV_PBUS_HWSQ_ENTRY_POINT);
	h->eph = v->ip_high ? bus_reg(gpu, NV_PBUS_HWSQ_ENTRY_POINT_HIGH) : h->ep;
	return NVM_OK;
}

static void hwsq_destroy(nvm_gpu *gpu, void *state)
{
	(void)gpu;
	free(state);
}

/* Busy while the sequencer can progress by itself: a runnable slot that is
 * not blocked on an event or HWSQ_ENABLE, a wait in progress or a pause
 * completing. */
static bool hwsq_busy(void *state)
{
	const struct hwsq *h = state;
	if (h->ev_id || h->pause_id)
		return true;
	if (h->blk != HB_NONE)
		return false;
	for (unsigned s = 0; s < h->v->nslots; s++)
		if (runnable(h, s))
			return true;
	return false;
}

const struct block_class hwsq_class = {
	.name = "hwsq",
	.create = hwsq_create,
	.destroy = hwsq_destroy,
	.busy = hwsq_busy,
	.snap = &hwsq_snap,
};

/* ---------------------------------------------------------------- public API */

static struct hwsq *get(const nvm_gpu *gpu)
{
	return gpu ? gpu_block(gpu, &hwsq_class) : NULL;
}

nvm_status nvm_hwsq_gpu_variant(const nvm_gpu *gpu, nvm_hwsq_variant *out)
{
	const struct hwsq *h = get(gpu);
	if (!h || !out)
		return gpu && out ? NVM_ERR_NOENT : NVM_ERR_ARG;
	*out = h->v->id;
	return NVM_OK;
}

nvm_status nvm_hwsq_get_state(nvm_gpu *gpu, nvm_hwsq_state *st)
{
	struct hwsq *h = get(gpu);
	if (!h || !st)
		return gpu && st ? NVM_ERR_NOENT : NVM_ERR_ARG;
	memset(st, 0, sizeof(*st));
	st->variant = h->v->id;
	st->nslots = h->v->nslots;
	for (unsigned s = 0; s < h->v->nslots; s++) {
		const struct hwsq_slot *sl = &h->slot[s];
		st->slot[s] = (nvm_hwsq_slot_state){ sl->ip, sl->exec, sl->illegal, sl->addr, sl->data };
	}
	st->status = status_value(h);
	st->flags0 = *h->flags[0];
	st->flags1 = *h->flags[1];
	st->events = h->events;
	st->fb_pause = h->pause_req;
	st->fb_paused = (int)(h->events & 1u);
	st->instructions = h->ninsn;
	return NVM_OK;
}

nvm_hwsq_flag_state nvm_hwsq_flag(const nvm_hwsq_state *st, unsigned flag)
{
	if (!st || flag >= 32)
		return NVM_HWSQ_UNSET;
	uint32_t r = flag < 16 ? st->flags0 : st->flags1;
	unsigned b = flag % 16;
	if (!((r >> (16 + b)) & 1u))
		return NVM_HWSQ_UNSET;
	return ((r >> b) & 1u) ? NVM_HWSQ_SET1 : NVM_HWSQ_SET0;
}

nvm_status nvm_hwsq_set_event(nvm_gpu *gpu, unsigned n, bool level)
{
	struct hwsq *h = get(gpu);
	if (!h)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	if (n == EVENT_FB_PAUSED || n >= 32)
		return NVM_ERR_ARG;
	h->events = (h->events & ~(1u << n)) | ((level ? 1u : 0u) << n);
	ewait_check(h);
	return NVM_OK;
}

nvm_status nvm_hwsq_load(nvm_gpu *gpu, uint32_t off, const uint8_t *code, size_t len)
{
	struct hwsq *h = get(gpu);
	if (!h)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	if (!code && len)
		return NVM_ERR_ARG;
	if (off > h->v->code_size || len > h->v->code_size - off)
		return NVM_ERR_RANGE;
	if (len)
		memcpy(h->code + off, code, len);
	return NVM_OK;
}
