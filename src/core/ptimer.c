/*
 * PTIMER: the nanosecond time counter and its alarm
 * (envytools hw/bus/ptimer.rst "The time counter", "The alarm and interrupts";
 * gv100_dev_timer.ref.txt NV_PTIMER_INTR_0 / INTR_EN_0 / ALARM_0).
 *
 * The counter is the model's virtual time plus an offset a driver can set by
 * writing TIME_0/TIME_1. It occupies bits 60:5 of a 64-bit value whose bits
 * 4:0 read as zero: TIME_0 bits 31:5 and TIME_1 bits 28:0.
 */
#include <stdlib.h>

#include "core.h"

#define NV_PTIMER_INTR_0    0x9100
#define NV_PTIMER_INTR_EN_0 0x9140
#define NV_PTIMER_TIME_0    0x9400
#define NV_PTIMER_TIME_1    0x9410
#define NV_PTIMER_ALARM_0   0x9420
#define INTR_0_ALARM        0x1u

struct ptimer {
	nvm_gpu *gpu;
	uint64_t offset;   /* counter = now + offset (mod 2^64) */
	uint64_t alarm_id; /* pending alarm event, 0 if none */
	bool armed;        /* ALARM_0 has been written */
	struct intr_line intr;
};

/* INTR_0 ALARM, enabled by INTR_EN_0, on PMC_INTR bit 20. */
static const struct intr_desc ptimer_intr = { NV_PTIMER_INTR_0, NV_PTIMER_INTR_EN_0, PMC_INTR_PTIMER, NULL, NULL };

uint64_t ptimer_read(nvm_gpu *gpu)
{
	struct ptimer *t = gpu->ptimer;
	uint64_t v = gpu->now + (t ? t->offset : 0);
	/* TIME_0 bits 4:0 always 0; TIME_1 bits 31:29 always 0. */
	return v & 0x1fffffffffffffe0ull;
}

static void alarm_fire(nvm_gpu *gpu, void *ctx, uint64_t arg);

/* The alarm fires when TIME_0 bits 31:5 equal ALARM_0 bits 31:5; the next
 * match is at most 2^32 ns away. */
static void alarm_schedule(struct ptimer *t)
{
	if (!t->armed)
		return;
	if (t->alarm_id)
		sched_cancel(t->gpu, t->alarm_id);
	uint32_t alarm = *bus_reg(t->gpu, NV_PTIMER_ALARM_0) & 0xffffffe0u;
	uint32_t low = (uint32_t)(t->gpu->now + t->offset);
	/* Already matching: fire now. Otherwise alarm - low (mod 2^32) is > 0. */
	uint64_t delta = (low & 0xffffffe0u) == alarm ? 0 : (uint32_t)(alarm - low);
	t->alarm_id = sched_at(t->gpu, t->gpu->now + delta, alarm_fire, t, 0, SCHED_BACKGROUND);
}

static void alarm_fire(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)arg;
	struct ptimer *t = ctx;
	t->alarm_id = 0;
	intr_raise(&t->intr, INTR_0_ALARM);
	/* Re-arm for the next wrap of TIME_0 (2^32 ns later). */
	t->alarm_id = sched_at(gpu, gpu->now + (1ull << 32), alarm_fire, t, 0, SCHED_BACKGROUND);
}

static uint32_t rd_time(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)stored;
	struct ptimer *t = ctx;
	uint64_t v = ptimer_read(t->gpu);
	return r->offset == NV_PTIMER_TIME_0 ? (uint32_t)v : (uint32_t)(v >> 32);
}

/* UNVERIFIED: a write to TIME_0 or TIME_1 sets that half of the counter at
 * once (nouveau writes TIME_1 then TIME_0; no document gives a latch rule). */
static void wr_time(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)old;
	struct ptimer *t = ctx;
	uint64_t cur = t->gpu->now + t->offset;
	uint64_t want;
	if (r->offset == NV_PTIMER_TIME_0)
		want = (cur & 0xffffffff00000000ull) | (written & 0xffffffe0u);
	else
		want = ((uint64_t)(written & 0x1fffffffu) << 32) | (cur & 0xffffffffull);
	t->offset = want - t->gpu->now;
	*stored = 0;
	alarm_schedule(t);
}

static void wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	intr_update(&((struct ptimer *)ctx)->intr);
}

/* UNVERIFIED: the alarm is armed by the first write to ALARM_0, so a GPU
 * fresh from open does not raise ALARM at time 0 (ALARM_0 resets to 0). */
static void wr_alarm(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	struct ptimer *t = ctx;
	t->armed = true;
	alarm_schedule(t);
}

/* NV03+ register list (envytools ptimer.rst). CLOCK_DIV/MUL are stored only:
 * the model counts nanoseconds, which is what drivers program them for. */
static const struct reg_desc ptimer_regs[] = {
	{ NV_PTIMER_INTR_0, "NV_PTIMER_INTR_0", 0, 0, INTR_0_ALARM, NULL, wr_intr },
	{ NV_PTIMER_INTR_EN_0, "NV_PTIMER_INTR_EN_0", 0, INTR_0_ALARM, 0, NULL, wr_intr },
	{ 0x9200, "NV_PTIMER_CLOCK_DIV", 0, 0xffffu, 0, NULL, NULL },
	{ 0x9210, "NV_PTIMER_CLOCK_MUL", 0, 0xffffu, 0, NULL, NULL },
	{ NV_PTIMER_TIME_0, "NV_PTIMER_TIME_0", 0, 0, 0, rd_time, wr_time },
	{ NV_PTIMER_TIME_1, "NV_PTIMER_TIME_1", 0, 0, 0, rd_time, wr_time },
	{ NV_PTIMER_ALARM_0, "NV_PTIMER_ALARM_0", 0, 0xffffffe0u, 0, NULL, wr_alarm },
};

/* PTIMER is the core's own: every modelled chip has it, at 0x9000. */
nvm_status ptimer_init(nvm_gpu *gpu)
{
	struct ptimer *t = calloc(1, sizeof(*t));
	if (!t)
		return NVM_ERR_NOMEM;
	t->gpu = gpu;
	struct reg_block blk = {
		.name = "ptimer",
		.base = 0x9000,
		.size = 0x1000,
		.regs = ptimer_regs,
		.nregs = sizeof(ptimer_regs) / sizeof(ptimer_regs[0]),
		.ctx = t,
	};
	nvm_status st = bus_add(gpu, &blk);
	if (st) {
		free(t);
		return st;
	}
	intr_init(&t->intr, gpu, &ptimer_intr, t);
	gpu->ptimer = t;
	return NVM_OK;
}

void ptimer_fini(nvm_gpu *gpu)
{
	free(gpu->ptimer);
	gpu->ptimer = NULL;
}

/* ---------------------------------------------------------------- snapshots */

static void ptimer_save(void *state, struct snap_w *w)
{
	const struct ptimer *t = state;
	snap_u64(w, t->offset);
	snap_u64(w, t->alarm_id);
	snap_u32(w, t->armed);
}

static nvm_status ptimer_load(void *state, struct snap_r *r, bool apply)
{
	struct ptimer *t = state;
	uint64_t offset = snap_get_u64(r), alarm = snap_get_u64(r);
	uint32_t armed = snap_get_u32(r);
	if (r->err || armed > 1 || !sched_id_ok(t->gpu, alarm))
		return NVM_ERR_CORRUPT;
	if (apply) {
		t->offset = offset;
		t->alarm_id = alarm;
		t->armed = armed;
	}
	return NVM_OK;
}

static const sched_fn ptimer_events[] = { alarm_fire };

const struct block_snap ptimer_snap = {
	.save = ptimer_save,
	.load = ptimer_load,
	.events = ptimer_events,
	.nevents = 1,
};
