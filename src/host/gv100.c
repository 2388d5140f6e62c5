/*
 * The Volta Host generation (gv100): PFIFO registers
 * (gv100_dev_fifo.ref.txt), the channel RAM PCCSR, the usermode doorbell
 * (gv100_dev_usermode.ref.txt), one runlist submit register pair, the
 * PBDMA register file (gv100_dev_pbdma.ref.txt), host class C36F and the
 * topology. The mechanism these tables drive is in host.c and pbdma.c; a
 * later generation (tu102.c, ga100.c ...) is a file like this one that
 * reuses what did not change (docs/architecture.md).
 */
#include <stdlib.h>
#include <string.h>

#include "gv100.h"
#include "host_fmt_internal.h"

static struct gv100 *gs(const struct host *h)
{
	return h->gs;
}

/* ---------------------------------------------------------------- registers */

#define R_PFIFO_RUNLIST_BASE 0x2270u
#define R_PFIFO_RUNLIST      0x2274u
#define R_PFIFO_SCHED_ERROR  0x254Cu
#define R_PFIFO_BIND_ERROR   0x252Cu
#define R_PFIFO_CHSW_ERROR   0x256Cu

/* NV_PFIFO_INTR_0 */
#define PFIFO_INTR_BIND_ERROR   (1u << 0)
#define PFIFO_INTR_SCHED_ERROR  (1u << 8)
#define PFIFO_INTR_CHSW_ERROR   (1u << 16)
#define PFIFO_INTR_PBDMA_INTR   (1u << 29)
#define PFIFO_INTR_CHANNEL_INTR (1u << 31)
#define PFIFO_INTR_W1C          0x81810101u /* BIND, SCHED, CHSW, MEMOP_TIMEOUT, LB, CHANNEL */

#define BIND_ERROR_CODE_UNBIND_WHILE_RUNNING 0x03u
#define BIND_ERROR_CODE_INVALID_CTX_TGT      0x06u

/* NV_PCCSR_CHANNEL */
#define PCCSR_ENABLE        0
#define PCCSR_PBDMA_FAULTED 22
#define PCCSR_ENG_FAULTED   23

static uint32_t reg(const struct host *h, uint32_t addr)
{
	return bus_get(h->gpu, addr);
}

static void reg_set(struct host *h, uint32_t addr, uint32_t v)
{
	bus_set(h->gpu, addr, v);
}

/* ---------------------------------------------------------------- interrupts */

/* NV_PFIFO_INTR_PBDMA_ID: the PBDMAs with an enabled interrupt pending. */
static uint32_t pbdma_intr_ids(const struct host *h)
{
	uint32_t ids = 0;
	for (unsigned i = 0; i < h->gen->npbdma; i++) {
		const uint32_t *r = h->pb[i].r;
		if ((r[PBR_INTR_0] & r[PBR_INTR_EN_0]) || (r[PBR_INTR_1] & r[PBR_INTR_EN_1]))
			ids |= 1u << i;
	}
	return ids;
}

static uint32_t pfifo_intr_value(const struct host *h)
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
static const struct intr_desc gv100_pfifo_intr = { R_PFIFO_INTR_0, R_PFIFO_INTR_EN_0, PMC_INTR_PFIFO, pfifo_intr_status,
	                                           NULL };

void gv100_update_intr(struct host *h)
{
	intr_update(&h->intr);
}

/* NV_PFIFO_INTR_0 CHANNEL_INTR */
void gv100_nonstall(struct host *h, uint32_t chid)
{
	(void)chid;
	reg_set(h, R_PFIFO_INTR_0, reg(h, R_PFIFO_INTR_0) | PFIFO_INTR_CHANNEL_INTR);
}

uint32_t gv100_rd_pfifo_intr(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return pfifo_intr_value(ctx);
}

uint32_t gv100_rd_pbdma_id(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return pbdma_intr_ids(ctx);
}

void gv100_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
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

void gv100_sched_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	pfifo_error(h, R_PFIFO_SCHED_ERROR, PFIFO_INTR_SCHED_ERROR, code, "sched_error", "SCHED_ERROR", addr, why);
}

static void bind_error(struct host *h, uint32_t code, uint32_t chid, const char *why)
{
	pfifo_error(h, R_PFIFO_BIND_ERROR, PFIFO_INTR_BIND_ERROR, code, "bind_error", "BIND_ERROR", chid, why);
}

void gv100_chsw_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	pfifo_error(h, R_PFIFO_CHSW_ERROR, PFIFO_INTR_CHSW_ERROR, code, "chsw_error", "CHSW_ERROR", addr, why);
}

/* ---------------------------------------------------------------- runlist submit */

/* NV_PFIFO_RUNLIST: ID 23:20, LENGTH 15:0; the base is NV_PFIFO_RUNLIST_BASE
 * (PTR 27:0, TARGET 29:28), latched into NV_PFIFO_ENG_RUNLIST_BASE(ID) and
 * NV_PFIFO_ENG_RUNLIST(ID) with PENDING 20:20 until the runlist is taken. */
static void wr_runlist(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	struct gv100 *g = gs(h);
	uint32_t id = FIELD_GET(written, 23, 20);
	uint32_t len = FIELD_GET(written, 15, 0);
	*stored = written;
	if (id >= h->gen->nrunlist) {
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "bad_runlist_id", R_PFIFO_RUNLIST, id,
		     "NV_PFIFO_RUNLIST names runlist %u; this chip has %u", id, h->gen->nrunlist);
		return;
	}
	uint32_t b = reg(h, R_PFIFO_RUNLIST_BASE);
	g->eng_rl_vals[id * 2] = b;
	g->eng_rl_vals[id * 2 + 1] = len | (1u << 20);
	host_runlist_submit(h, &h->rl[id], FIELD_GET(b, 29, 28), (uint64_t)FIELD_GET(b, 27, 0) << 12, len);
}

static void gv100_runlist_taken(struct host *h, struct runlist *rl)
{
	uint32_t *eng = &gs(h)->eng_rl_vals[rl->id * 2 + 1];
	*eng = FIELD_SET(*eng, 20, 20, 0); /* PENDING: the runlist has been taken */
}

bool gv100_sched_disabled(const struct host *h, const struct runlist *rl)
{
	/* Every scheduling decision asks: the register's value is found on the
	 * bus once (its storage does not move). */
	struct gv100 *g = gs(h);
	if (!g->sched_disable)
		g->sched_disable = bus_reg(h->gpu, R_PFIFO_SCHED_DISABLE);
	uint32_t v = g->sched_disable ? *g->sched_disable : 0;
	return FIELD_GET(v, rl->id, rl->id); /* dev_fifo SCHED_DISABLE */
}

/* ---------------------------------------------------------------- status registers */

void gv100_engine_status(struct host *h, const struct runlist *rl, uint32_t status, uint32_t inst, uint32_t next_inst)
{
	struct gv100 *g = gs(h);
	unsigned i = rl->desc->engstat;
	g->engstat_vals[i * 2] = status;
	g->engstat_inst_vals[i] = inst;
	g->engstat_next_inst_vals[i] = next_inst;
}

/* NV_PFIFO_PBDMA_STATUS: ID 11:0, ID_TYPE 12:12 (CHID), CHAN_STATUS 15:13 */
void gv100_pbdma_status(struct host *h, const struct pbdma *p, bool loaded)
{
	uint32_t *v = &gs(h)->pbstat_vals[p->id];
	*v = loaded ? (uint32_t)p->chid | (1u << 13) : *v & 0xfffu;
}

/* ---------------------------------------------------------------- PCCSR */

bool gv100_chan_runnable(const struct host *h, uint32_t chid)
{
	const uint32_t *pccsr = gs(h)->pccsr;
	uint32_t inst = pccsr[2 * chid], ch = pccsr[2 * chid + 1];
	/* bound, enabled, and neither PBDMA_FAULTED nor ENG_FAULTED */
	return FIELD_GET(inst, 31, 31) && FIELD_GET(ch, 0, 0) && !FIELD_GET(ch, 23, 22);
}

/* NV_PCCSR_CHANNEL_INST: PTR 27:0 (4 KiB units), TARGET 29:28, BIND 31:31. */
uint64_t gv100_chan_inst(const struct host *h, uint32_t chid, unsigned *target)
{
	uint32_t inst = gs(h)->pccsr[2 * chid];
	*target = FIELD_GET(inst, 29, 28);
	return (uint64_t)FIELD_GET(inst, 27, 0) << 12;
}

/* NV_PCCSR_CHANNEL STATUS 27:24, BUSY 28:28. */
void gv100_chan_set_status(struct host *h, uint32_t chid, unsigned status)
{
	uint32_t *v = &gs(h)->pccsr[2 * chid + 1];
	*v = FIELD_SET(*v, 27, 24, status);
	*v = FIELD_SET(*v, 28, 28, status >= PCCSR_STATUS_ON_PBDMA);
}

static unsigned fault_bit(enum host_fault f)
{
	return f == HOST_ENG_FAULTED ? PCCSR_ENG_FAULTED : PCCSR_PBDMA_FAULTED;
}

bool gv100_chan_faulted(const struct host *h, uint32_t chid, enum host_fault f)
{
	return (gs(h)->pccsr[2 * chid + 1] >> fault_bit(f)) & 1u;
}

void gv100_chan_set_faulted(struct host *h, uint32_t chid, enum host_fault f, bool on)
{
	uint32_t *v = &gs(h)->pccsr[2 * chid + 1];
	*v = on ? *v | 1u << fault_bit(f) : *v & ~(1u << fault_bit(f));
}

void gv100_chan_info(const struct host *h, uint32_t chid, nvm_host_channel *out)
{
	const uint32_t *pccsr = gs(h)->pccsr;
	uint32_t inst = pccsr[2 * chid], ch = pccsr[2 * chid + 1];
	out->bound = (int)FIELD_GET(inst, 31, 31);
	out->enabled = (int)FIELD_GET(ch, 0, 0);
	out->status = FIELD_GET(ch, 27, 24);
	out->busy = (int)FIELD_GET(ch, 28, 28);
	out->pbdma_faulted = (int)FIELD_GET(ch, 22, 22);
	out->eng_faulted = (int)FIELD_GET(ch, 23, 23);
	out->inst = (uint64_t)FIELD_GET(inst, 27, 0) << 12;
	out->inst_target = FIELD_GET(inst, 29, 28);
}

static struct host *pccsr_owner(void *ctx, uint32_t *stored, uint32_t *chid)
{
	struct host *h = ctx;
	*chid = (uint32_t)((stored - gs(h)->pccsr) / 2);
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
	if (FIELD_GET(old, 31, 31) && !FIELD_GET(*stored, 31, 31) && host_chan_loaded(h, chid))
		bind_error(h, BIND_ERROR_CODE_UNBIND_WHILE_RUNNING, chid, "channel unbound while loaded on a PBDMA");
	/* dev_fifo INTR_BIND_ERROR CODE_INVALID_CTX_TGT: TARGET 29:28 = 1 names
	 * no aperture (VID_MEM 0, SYS_MEM_COHERENT 2, _NONCOHERENT 3).
	 * UNVERIFIED: the bind is refused (BIND reads 0). */
	if (FIELD_GET(*stored, 31, 31) && FIELD_GET(*stored, 29, 28) == 1) {
		*stored &= ~(1u << 31);
		bind_error(h, BIND_ERROR_CODE_INVALID_CTX_TGT, chid, "instance block TARGET is not an aperture");
	}
	host_chan_changed(h, chid);
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
	host_chan_changed(h, chid);
}

static const struct reg_desc pccsr_regs[] = {
	{ 0x0, "NV_PCCSR_CHANNEL_INST", 0, 0xbfffffffu, 0, NULL, wr_chan_inst },
	{ 0x4, "NV_PCCSR_CHANNEL", 0, (1u << 1) | (1u << 8), (1u << 22) | (1u << 23), NULL, wr_chan },
};

/* ---------------------------------------------------------------- usermode */

/* gv100_dev_usermode NOTIFY_CHANNEL_PENDING ID 31:0: the handle is the chid. */
bool gv100_handle_chid(const struct host *h, uint32_t handle, uint32_t *chid)
{
	*chid = handle;
	return handle < h->gen->nchan;
}

/* NV_USERMODE_NOTIFY_CHANNEL_PENDING ID 31:0: the token is the chid. */
static void wr_notify(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	*stored = 0;
	host_doorbell(ctx, written);
}

uint32_t gv100_rd_time0(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return (uint32_t)ptimer_read(((struct host *)ctx)->gpu) & ~0x1fu;
}

uint32_t gv100_rd_time1(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return (uint32_t)(ptimer_read(((struct host *)ctx)->gpu) >> 32) & 0x1fffffffu;
}

static const struct reg_desc usermode_regs[] = {
	{ 0x810000, "NV_USERMODE_CFG0", 50017, 0, 0, NULL, NULL },
	{ 0x810080, "NV_USERMODE_TIME_0", 0, 0, 0, gv100_rd_time0, NULL },
	{ 0x810084, "NV_USERMODE_TIME_1", 0, 0, 0, gv100_rd_time1, NULL },
	{ 0x810090, "NV_USERMODE_NOTIFY_CHANNEL_PENDING", 0, 0xffffffffu, 0, NULL, wr_notify },
};

/* ---------------------------------------------------------------- PFIFO */

void gv100_wr_sched_disable(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)written;
	struct host *h = ctx;
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		if (FIELD_GET(old, i, i) && !FIELD_GET(*stored, i, i))
			host_schedule(h, &h->rl[i]);
}

/* NV_PFIFO_PREEMPT: ID 11:0, TYPE 25:24 (CHANNEL, TSG), PENDING 20:20. The
 * save is done at once (a PBDMA between steps), so PENDING reads 0 after the
 * write. */
void gv100_wr_preempt(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	host_preempt(ctx, FIELD_GET(written, 25, 24) != 0, FIELD_GET(written, 11, 0));
	*stored = FIELD_SET(*stored, 20, 20, 0);
}

void gv100_wr_rl_preempt(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		if (FIELD_GET(written, i, i))
			host_preempt_runlist(h, &h->rl[i]);
	*stored = 0; /* RUNLIST_PREEMPT bits read DONE once the preempt is done */
}

/* NV_PFIFO_USERD_WRITEBACK: the loaded channels' timers take the new period. */
void gv100_wr_userd_writeback(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	pbdma_wb_timers(ctx);
}

static const struct reg_desc pfifo_regs[] = {
	{ 0x2004, "NV_PFIFO_CFG0", GV100_NPBDMA | (NVM_MMU_ENG_HOST0 << 16), 0, 0, NULL, NULL },
	{ 0x2008, "NV_PFIFO_CFG1", GV100_NCHAN, 0, 0, NULL, NULL },
	{ 0x200c, "NV_PFIFO_CFG2", 50031, 0, 0, NULL, NULL },
	{ 0x2100, "NV_PFIFO_INTR_0", 0, 0, PFIFO_INTR_W1C, gv100_rd_pfifo_intr, gv100_wr_intr },
	{ 0x2140, "NV_PFIFO_INTR_EN_0", 0, 0xe1810101u, 0, NULL, gv100_wr_intr },
	{ 0x2200, "NV_PFIFO_CONFIG", 0, 0x300u, 0, NULL, NULL },
	{ 0x2250, "NV_PFIFO_ACQ_PRETEST", 8, 0xf0ffu, 0, NULL, NULL },
	{ 0x225c, "NV_PFIFO_USERD_WRITEBACK", 0x64, 0xf0ffu, 0, NULL, gv100_wr_userd_writeback },
	{ 0x2270, "NV_PFIFO_RUNLIST_BASE", 0, 0x3fffffffu, 0, NULL, NULL },
	{ 0x2274, "NV_PFIFO_RUNLIST", 0, 0x00f0ffffu, 0, NULL, wr_runlist },
	{ 0x2528, "NV_PFIFO_INTR_EN_1", 0, 0xe1810101u, 0, NULL, NULL },
	{ 0x252c, "NV_PFIFO_INTR_BIND_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x2530, "NV_PFIFO_INTR_STALL", 0x01810101u, 0xe1810101u, 0, NULL, NULL },
	{ 0x254c, "NV_PFIFO_INTR_SCHED_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x256c, "NV_PFIFO_INTR_CHSW_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x258c, "NV_PFIFO_INTR_LB_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x25a0, "NV_PFIFO_INTR_PBDMA_ID", 0, 0, 0, gv100_rd_pbdma_id, NULL },
	{ 0x2630, "NV_PFIFO_SCHED_DISABLE", 0, 0x1fffu, 0, NULL, gv100_wr_sched_disable },
	{ 0x2634, "NV_PFIFO_PREEMPT", 0, 0x03000fffu, 0, NULL, gv100_wr_preempt },
	{ 0x2638, "NV_PFIFO_RUNLIST_PREEMPT", 0, 0x1fffu, 0, NULL, gv100_wr_rl_preempt },
	{ 0x263c, "NV_PFIFO_SCHED_STATUS", 0, 0, 0, NULL, NULL },
	{ 0x2a00, "NV_PFIFO_INTR_RUNLIST", 0, 0, 0x1fffu, NULL, NULL },
	{ 0x2a0c, "NV_PFIFO_ENG_TIMEOUT", 0x803fffffu, 0xffffffffu, 0, NULL, NULL },
	{ 0x2a14, "NV_PFIFO_CLEAR_FAULTED_TIMEOUT", 0x800003ffu, 0xbfffffffu, 0, NULL, NULL },
};

static const struct reg_desc eng_rl_regs[] = {
	{ 0x0, "NV_PFIFO_ENG_RUNLIST_BASE", 0, 0, 0, NULL, NULL },
	{ 0x4, "NV_PFIFO_ENG_RUNLIST", 0, 0, 0, NULL, NULL },
};
const struct reg_desc gv100_pbdma_map_regs[] = { { 0x0, "NV_PFIFO_PBDMA_MAP", 0, 0, 0, NULL, NULL } };
const struct reg_desc gv100_engstat_regs[] = {
	{ 0x0, "NV_PFIFO_ENGINE_STATUS", 0, 0, 0, NULL, NULL },
	{ 0x4, "NV_PFIFO_ENGINE_STATUS_DEBUG", 0, 0, 0, NULL, NULL },
};
const struct reg_desc gv100_engstat_inst_regs[] = { { 0x0, "NV_PFIFO_ENGINE_STATUS_INST", 0, 0, 0, NULL, NULL } };
const struct reg_desc gv100_engstat_next_inst_regs[] = { { 0x0, "NV_PFIFO_ENGINE_STATUS_NEXT_INST", 0, 0, 0, NULL,
	                                                   NULL } };
const struct reg_desc gv100_pbstat_regs[] = { { 0x0, "NV_PFIFO_PBDMA_STATUS", 0, 0, 0, NULL, NULL } };

nvm_status gv100_state_new(struct host *h, size_t size)
{
	struct gv100 *g = calloc(1, size);
	if (!g)
		return NVM_ERR_NOMEM;
	h->gs = g;
	g->pccsr = calloc(2u * h->gen->nchan, sizeof(uint32_t));
	return g->pccsr ? NVM_OK : NVM_ERR_NOMEM;
}

nvm_status gv100_add_pfifo(struct host *h, const struct reg_desc *regs, size_t nregs, size_t narrays)
{
	struct gv100 *g = gs(h);
	const struct reg_block pfifo = { "host", 0x2000, 0x1200,          regs,    nregs, h,
		                         NULL,   NULL,   g->pfifo_arrays, narrays, NULL };
	nvm_status st = bus_add(h->gpu, &pfifo);
	if (!st)
		intr_init(&h->intr, h->gpu, &gv100_pfifo_intr, h);
	return st;
}

nvm_status gv100_add_pccsr(struct host *h)
{
	struct gv100 *g = gs(h);
	uint32_t n = h->gen->nchan;
	g->pccsr_array = (struct reg_array){ R_PCCSR, 8, n, pccsr_regs, 2, g->pccsr };
	const struct reg_block pccsr = { "host", R_PCCSR, n * 8, NULL, 0, h, NULL, NULL, &g->pccsr_array, 1, NULL };
	return bus_add(h->gpu, &pccsr);
}

nvm_status gv100_add_block(struct host *h, uint32_t base, uint32_t size, const struct reg_desc *regs, size_t nregs)
{
	const struct reg_block b = { "host", base, size, regs, nregs, h, NULL, NULL, NULL, 0, NULL };
	return bus_add(h->gpu, &b);
}

void gv100_map_pbdmas(struct host *h)
{
	/* NV_PFIFO_PBDMA_MAP(i) RUNLISTS 15:0 (after bus_add set the resets) */
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		for (unsigned q = 0; q < h->rl[i].desc->npbdma; q++)
			gs(h)->pbdma_map_vals[h->rl[i].pb[q]->id] |= 1u << i;
}

static nvm_status gv100_create(struct host *h)
{
	nvm_status st = gv100_state_new(h, sizeof(struct gv100));
	if (st)
		return st;
	struct gv100 *g = gs(h);
	const struct reg_array pfifo_arrays[] = {
		{ 0x2280, 8, GV100_NRUNLIST, eng_rl_regs, 2, g->eng_rl_vals },
		{ 0x2390, 4, GV100_NPBDMA, gv100_pbdma_map_regs, 1, g->pbdma_map_vals },
		{ 0x2640, 8, GV100_NENGSTAT, gv100_engstat_regs, 2, g->engstat_vals },
		{ 0x3080, 4, GV100_NPBDMA, gv100_pbstat_regs, 1, g->pbstat_vals },
		{ 0x3100, 4, GV100_NENGSTAT, gv100_engstat_inst_regs, 1, g->engstat_inst_vals },
		{ 0x3000, 4, GV100_NENGSTAT, gv100_engstat_next_inst_regs, 1, g->engstat_next_inst_vals },
	};
	memcpy(g->pfifo_arrays, pfifo_arrays, sizeof(pfifo_arrays));
	st = gv100_add_pfifo(h, pfifo_regs, sizeof(pfifo_regs) / sizeof(pfifo_regs[0]), 6);
	if (!st)
		st = gv100_add_pccsr(h);
	if (!st)
		st = gv100_add_block(h, R_USERMODE, 0x100, usermode_regs,
		                     sizeof(usermode_regs) / sizeof(usermode_regs[0]));
	if (!st)
		gv100_map_pbdmas(h);
	return st;
}

void gv100_destroy(struct host *h)
{
	struct gv100 *g = h->gs;
	if (g)
		free(g->pccsr);
	free(g);
}

/* ---------------------------------------------------------------- PBDMA registers */

#define RW(off, name, reset)                                                                                           \
	{                                                                                                              \
		off, "NV_PPBDMA_" name, reset, 0xffffffffu, 0, NULL, NULL                                              \
	}
#define RO(off, name, reset)                                                                                           \
	{                                                                                                              \
		off, "NV_PPBDMA_" name, reset, 0, 0, NULL, NULL                                                        \
	}
/* A slot of enum pbr that this generation has no register for. */
#define HIDDEN(off)                                                                                                    \
	{                                                                                                              \
		off, NULL, 0, 0, 0, NULL, NULL                                                                         \
	}

/* In enum pbr order. The RAMFC layout (host_fmt_tables.c) says which of them
 * a context save and load carry. UNVERIFIED: reset values are 0 where the
 * manual gives none; every RAMFC-mirrored register is writable (debug
 * access). */
const struct reg_desc gv100_pbdma_regs[PBR_COUNT] = {
	RW(0x000, "GP_PUT", 0),
	RW(0x004, "MEM_OP_A", 0),
	RW(0x008, "USERD", 0),
	RW(0x00c, "USERD_HI", 0),
	RW(0x010, "SIGNATURE", 0),
	RW(0x014, "GP_GET", 0),
	RW(0x018, "GET", 0),
	RW(0x01c, "GET_HI", 0),
	RW(0x020, "TOP_LEVEL_GET", 0),
	RW(0x024, "TOP_LEVEL_GET_HI", 0),
	RW(0x028, "REF", 0),
	RW(0x02c, "RUNTIME", 0),
	RW(0x030, "ACQUIRE", 0),
	RW(0x034, "ACQUIRE_DEADLINE", 0),
	RW(0x038, "SEM_ADDR_HI", 0),
	RW(0x03c, "SEM_ADDR_LO", 0),
	RW(0x040, "SEM_PAYLOAD_LO", 0),
	RW(0x044, "SEM_EXECUTE", 0),
	RW(0x048, "GP_BASE", 0),
	RW(0x04c, "GP_BASE_HI", 0),
	RW(0x050, "GP_FETCH", 0),
	RW(0x054, "PB_FETCH", 0),
	RW(0x058, "PB_FETCH_HI", 0),
	RW(0x05c, "PUT", 0),
	RW(0x060, "PUT_HI", 0),
	RW(0x064, "MEM_OP_B", 0),
	RW(0x074, "GP_CRC", 0),
	RW(0x084, "PB_HEADER", 0),
	RW(0x088, "PB_COUNT", 0),
	RW(0x094, "SUBDEVICE", 0),
	RW(0x098, "PB_CRC", 0),
	RW(0x09c, "SEM_PAYLOAD_HI", 0),
	RW(0x0a0, "MEM_OP_C", 0),
	HIDDEN(0x0a4), /* PBR_GP_INFO: gh100 only */
	RW(0x0ac, "TARGET", 0),
	RW(0x0b0, "METHOD_CRC", 0),
	RW(0x0c0, "METHOD0", 0),
	RW(0x0c4, "DATA0", 0),
	RW(0x0c8, "METHOD1", 0),
	RW(0x0cc, "DATA1", 0),
	RW(0x0d0, "METHOD2", 0),
	RW(0x0d4, "DATA2", 0),
	RW(0x0d8, "METHOD3", 0),
	RW(0x0dc, "DATA3", 0),
	RW(0x0e4, "HCE_CTRL", 0),
	RW(0x0f4, "CONFIG", 0),
	RW(0x0fc, "SET_CHANNEL_INFO", 0),
	RO(0x100, "STATUS", 0),
	{ 0x108, "NV_PPBDMA_INTR_0", 0, 0, 0xffffffffu, NULL, pbdma_wr_intr },
	{ 0x10c, "NV_PPBDMA_INTR_EN_0", 0, 0xffffffffu, 0, NULL, pbdma_wr_intr_en },
	RO(0x110, "GP_SHADOW_0", 0),
	RO(0x114, "GP_SHADOW_1", 0),
	RO(0x118, "HDR_SHADOW", 0),
	RO(0x120, "CHANNEL", 0),
	RW(0x12c, "TIMEOUT", 0),
	RW(0x13c, "INTR_STALL", 0xffffffffu),
	RW(0x140, "INTR_STALL_1", 0xffffffffu),
	{ 0x148, "NV_PPBDMA_INTR_1", 0, 0, 0xffffffffu, NULL, pbdma_wr_intr },
	{ 0x14c, "NV_PPBDMA_INTR_EN_1", 0, 0xffffffffu, 0, NULL, pbdma_wr_intr_en },
	RW(0x150, "HCE_DBG0", 0),
	RW(0x154, "HCE_DBG1", 0),
	/* Ampere's (ga100.c): no such registers on gv100 */
	HIDDEN(0x168),
	HIDDEN(0x16c),
	HIDDEN(0x170),
	HIDDEN(0x174),
	HIDDEN(0x180),
	HIDDEN(0x184),
	HIDDEN(0x190),
	HIDDEN(0x194),
	HIDDEN(0x1a0),
	HIDDEN(0x1a4),
};

/* ---------------------------------------------------------------- host class C36F */

/* VOLTA_CHANNEL_GPFIFO_A (clc36f.h), the table the later classes vary. */
static const host_method_fn c36f_methods[64] = HOST_METHODS(hm_mem_op_d, hm_crc_check, hm_clear_faulted);

/* Classes each engine accepts in SET_OBJECT. UNVERIFIED: GR accepts the
 * gv100 classes only (3D C397, compute C3C0, inline-to-memory A140, 2D
 * 902D); copy engines accept VOLTA_DMA_COPY_A C3B5. */
static const uint32_t gv100_gr_classes[] = { 0xC397, 0xC3C0, 0xA140, 0x902D };

/* ---------------------------------------------------------------- topology */

/* UNVERIFIED topology: the gv100 manuals do not list which engine each
 * runlist serves (that is NV_PTOP device info, not modelled). Runlist 0 is
 * graphics/compute with GRCOPY (CE0) on subchannel 4 and two PBDMAs (the two
 * FE pipes RUNQUEUE_SELECTOR picks between, seed 000 section 5); runlists
 * 1..7 are the copy engines CE2..CE8, one PBDMA each (PBDMA 2..8). MMU
 * engine ids: GRAPHICS 64, CE0..CE8 = 15..23 (volta-facts.md f). */
const struct host_rl_desc gv100_runlists[8] = {
	{ "gr", "recorder", "grce", NVM_MMU_ENG_GRAPHICS, 15, 0, { 0, 1 }, 2 },
	{ "ce2", "ce", NULL, 17, 0, 2, { 2 }, 1 },
	{ "ce3", "ce", NULL, 18, 0, 3, { 3 }, 1 },
	{ "ce4", "ce", NULL, 19, 0, 4, { 4 }, 1 },
	{ "ce5", "ce", NULL, 20, 0, 5, { 5 }, 1 },
	{ "ce6", "ce", NULL, 21, 0, 6, { 6 }, 1 },
	{ "ce7", "ce", NULL, 22, 0, 7, { 7 }, 1 },
	{ "ce8", "ce", NULL, 23, 0, 8, { 8 }, 1 },
};

static const struct host_gen_ops gv100_ops = {
	.create = gv100_create,
	.destroy = gv100_destroy,
	.chan_runnable = gv100_chan_runnable,
	.chan_inst = gv100_chan_inst,
	.chan_set_status = gv100_chan_set_status,
	.chan_faulted = gv100_chan_faulted,
	.chan_set_faulted = gv100_chan_set_faulted,
	.chan_info = gv100_chan_info,
	.update_intr = gv100_update_intr,
	.nonstall = gv100_nonstall,
	.sched_error = gv100_sched_error,
	.chsw_error = gv100_chsw_error,
	.sched_disabled = gv100_sched_disabled,
	.runlist_taken = gv100_runlist_taken,
	.engine_status = gv100_engine_status,
	.pbdma_status = gv100_pbdma_status,
	.handle_chid = gv100_handle_chid,
};

const struct host_gen host_gv100 = {
	.name = "gv100",
	.nchan = GV100_NCHAN,
	.npbdma = GV100_NPBDMA,
	.nrunlist = sizeof(gv100_runlists) / sizeof(gv100_runlists[0]),
	.rl = gv100_runlists,
	.pbdma_base = 0x40000u,
	.pbdma_stride = 0x2000u,
	.pbdma_regs = gv100_pbdma_regs,
	.r_userd_writeback = 0x225cu,
	.r_clear_faulted_timeout = 0x2a14u,
	.r_doorbell = R_USERMODE + 0x90,
	.host_class = 0xC36F,
	.methods = c36f_methods,
	.sig_valid = 0xface,
	.sig_host_class = 50031, /* NV_PPBDMA_SIGNATURE_HW_HOST_CLASS_ID (0xC36F) */
	.gr_classes = gv100_gr_classes,
	.ngr_classes = sizeof(gv100_gr_classes) / sizeof(gv100_gr_classes[0]),
	.ce_class = 0xC3B5,
	.gp_limit2_reg = PBR_GP_BASE_HI,
	.gp_limit2_lo = 16,    /* GP_BASE_HI LIMIT2 20:16 */
	.gp_base_hi_bits = 8,  /* GP_BASE_HI OFFSET 7:0 */
	.sem_addr_hi_bits = 8, /* C36F SEM_ADDR_HI OFFSET 7:0 */
	.gpfifo_va_bits = 40,  /* INTR_0 GPFIFO: the ring crosses 2^40 */
	.sem_red_valid = sem_red_valid,
	.layouts = hf_gv100_layouts,
	.rl_entry_decode = nvm_rl_entry_decode,
	.state_bytes = sizeof(struct gv100) + 2u * GV100_NCHAN * sizeof(uint32_t),
	.ops = &gv100_ops,
};
