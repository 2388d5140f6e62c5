/*
 * The Turing Host generation (tu102): what changed from gv100.c, as the
 * tu104 manuals give it (refs/nvidia-tu104/, host-generations-facts.md
 * "Turing"): per-runlist RUNLIST_BASE_LO/HI, SUBMIT and SUBMIT_INFO at
 * 0x2B00 + 16i in place of NV_PFIFO_RUNLIST_BASE/RUNLIST; the doorbell
 * takes a handle RUNLIST_ID 22:16 | CHID 11:0 (tu104 dev_usermode) and has
 * a virtual-function alias NV_VIRTUAL_FUNCTION_DOORBELL (BAR0 0xBB0090,
 * tu104 dev_vm) behind NV_CTRL_VIRTUAL_CHANNEL_CFG PENDING_ENABLE (tu104
 * dev_ctrl); the device-info table NV_PTOP_DEVICE_INFO(i) at 0x22700 (tu104
 * dev_top); 12 PBDMAs, 11 runlists, 13 engine statuses; PFIFO_INTR_0 gains
 * CTXSW_TIMEOUT and the RUNLIST_* trees; host class C46F (CLEAR_FAULTED
 * takes the handle), copy class C5B5. PCCSR, the PBDMA register file, the
 * interrupt line and the status registers are gv100's (gv100.h), as
 * nouveau's tu102.c reuses gk104/gv100.
 */
#include <string.h>

#include "gv100.h"
#include "host_fmt_internal.h"

#define TU102_NCHAN    4096u /* NV_PFIFO_CFG1_NUM_CHANNELS_INIT */
#define TU102_NPBDMA   12u   /* NV_PFIFO_CFG0_NUM_PBDMA_INIT (hwproject.h NV_HOST_NUM_PBDMA) */
#define TU102_NRUNLIST 11u   /* NV_PFIFO_RUNLIST_BASE_LO__SIZE_1 */
#define TU102_NENGSTAT 13u   /* NV_PFIFO_ENGINE_STATUS__SIZE_1 */
#define TU102_NVCHCFG  64u   /* NV_CTRL_VIRTUAL_CHANNEL_CFG__SIZE_1 */

_Static_assert(TU102_NPBDMA <= GV100_NPBDMA && TU102_NENGSTAT <= GV100_NENGSTAT && TU102_NCHAN <= GV100_NCHAN,
               "struct gv100's arrays hold tu102's counts");

#define R_PTOP_DEVICE_INFO 0x22700u /* NV_PTOP_DEVICE_INFO(i), tu104 dev_top */
#define TU102_NDEVINFO     64u      /* NV_PTOP_DEVICE_INFO__SIZE_1 */
#define R_RUNLIST_BASE_LO  0x2B00u  /* NV_PFIFO_RUNLIST_BASE_LO(i), + 16i */
#define R_CTRL_VCHAN_CFG   0xB65000u
#define R_VF               0xBB0000u /* NV_VIRTUAL_FUNCTION (0x30000) in NV_VIRTUAL_FUNCTION_FULL_PHYS_OFFSET */

/* NV_PFIFO_INTR_0 (tu104 dev_fifo): the write-1-to-clear bits (BIND_ERROR,
 * SCHED_ERROR, CHSW_ERROR, MEMOP_TIMEOUT, LB_ERROR, TSG_PREEMPT_COMPLETE,
 * CHANNEL_INTR) and the bits INTR_EN_0 has (those and CTXSW_TIMEOUT,
 * RUNLIST_IDLE .. RUNLIST_ACQUIRE_AND_ENG_IDLE, PBDMA_INTR, RUNLIST_EVENT). */
#define TU102_INTR_W1C 0x91810101u
#define TU102_INTR_EN  0xf18101f3u

/* NV_USERMODE_NOTIFY_CHANNEL_PENDING / NV_CTRL_DOORBELL handle fields. */
#define HANDLE_RUNLIST_ALL 15u

struct tu102 {
	struct gv100 base;
	uint32_t rl_vals[TU102_NRUNLIST * 4]; /* BASE_LO, BASE_HI, SUBMIT, SUBMIT_INFO */
	uint32_t vchan_cfg[TU102_NVCHCFG];    /* NV_CTRL_VIRTUAL_CHANNEL_CFG(i) */
	uint32_t pbstat_inst[TU102_NPBDMA];   /* NV_PFIFO_PBDMA_STATUS_INST(i) */
	uint32_t pbstat_userd[TU102_NPBDMA];  /* NV_PFIFO_PBDMA_STATUS_USERD(i) */
	uint32_t pbstat_userd_hi[TU102_NPBDMA];
	uint32_t devinfo[TU102_NDEVINFO]; /* NV_PTOP_DEVICE_INFO(i) */
	struct reg_array ctrl_array, devinfo_array;
};

static struct tu102 *ts(const struct host *h)
{
	return h->gs;
}

/* ---------------------------------------------------------------- runlist submit */

/* NV_PFIFO_RUNLIST_SUBMIT(i) LENGTH 15:0: submits the runlist at
 * RUNLIST_BASE_HI(i) PTR_HI 7:0 : RUNLIST_BASE_LO(i) PTR_LO 31:12, TARGET
 * 1:0; SUBMIT_INFO(i) PENDING 15:15 reads 1 until the runlist is taken.
 * UNVERIFIED: OFFSET 31:16 (not described) is kept and the runlist is read
 * from its first entry. */
static void wr_submit(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	struct tu102 *t = ts(h);
	uint32_t id = (uint32_t)((stored - t->rl_vals) / 4);
	if (id >= h->gen->nrunlist) {
		/* UNVERIFIED: a runlist with no engine wired in this model. */
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "bad_runlist_id", R_RUNLIST_BASE_LO + 16 * id + 8, id,
		     "NV_PFIFO_RUNLIST_SUBMIT(%u): this model wires %u runlists", id, h->gen->nrunlist);
		return;
	}
	uint32_t lo = t->rl_vals[id * 4], hi = t->rl_vals[id * 4 + 1];
	t->rl_vals[id * 4 + 3] |= 1u << 15;
	uint64_t base = (uint64_t)FIELD_GET(hi, 7, 0) << 32 | (uint64_t)FIELD_GET(lo, 31, 12) << 12;
	host_runlist_submit(h, &h->rl[id], FIELD_GET(lo, 1, 0), base, FIELD_GET(written, 15, 0));
}

static void tu102_runlist_taken(struct host *h, struct runlist *rl)
{
	uint32_t *info = &ts(h)->rl_vals[rl->id * 4 + 3];
	*info = FIELD_SET(*info, 15, 15, 0); /* SUBMIT_INFO PENDING: the runlist has been taken */
}

static const struct reg_desc runlist_regs[] = {
	{ 0x0, "NV_PFIFO_RUNLIST_BASE_LO", 0, 0xfffff003u, 0, NULL, NULL },
	{ 0x4, "NV_PFIFO_RUNLIST_BASE_HI", 0, 0xffu, 0, NULL, NULL },
	{ 0x8, "NV_PFIFO_RUNLIST_SUBMIT", 0, 0xffffffffu, 0, NULL, wr_submit },
	{ 0xc, "NV_PFIFO_RUNLIST_SUBMIT_INFO", 0, 0, 0, NULL, NULL },
};

/* ---------------------------------------------------------------- PBDMA status */

/* gv100's NV_PFIFO_PBDMA_STATUS(i), and tu104's new PBDMA_STATUS_INST(i)
 * (PTR 27:0, TARGET 29:28, VALID 31:31), _USERD(i) (TARGET 1:0, ADDR 31:8)
 * and _USERD_HI(i) (ADDR 7:0) of the loaded channel. UNVERIFIED: after the
 * unload VALID clears and the pointers keep the last channel's. */
static void tu102_pbdma_status(struct host *h, const struct pbdma *p, bool loaded)
{
	gv100_pbdma_status(h, p, loaded);
	struct tu102 *t = ts(h);
	if (!loaded) {
		t->pbstat_inst[p->id] &= ~(1u << 31);
		return;
	}
	t->pbstat_inst[p->id] = ((uint32_t)(p->inst >> 12) & 0x0fffffffu) | (p->inst_target & 3u) << 28 | 1u << 31;
	t->pbstat_userd[p->id] = p->r[PBR_USERD] & 0xffffff03u;
	t->pbstat_userd_hi[p->id] = p->r[PBR_USERD_HI] & 0xffu;
}

static const struct reg_desc pbstat_inst_regs[] = { { 0x0, "NV_PFIFO_PBDMA_STATUS_INST", 0, 0, 0, NULL, NULL } };
static const struct reg_desc pbstat_userd_regs[] = { { 0x0, "NV_PFIFO_PBDMA_STATUS_USERD", 0, 0, 0, NULL, NULL } };
static const struct reg_desc pbstat_userd_hi_regs[] = { { 0x0, "NV_PFIFO_PBDMA_STATUS_USERD_HI", 0, 0, 0, NULL,
	                                                  NULL } };

/* ---------------------------------------------------------------- doorbells */

/* tu104 dev_usermode NOTIFY_CHANNEL_PENDING: CHID 11:0, RUNLIST_ID 22:16
 * (ALL = 15). A handle with a bit outside these fields, a CHID that is no
 * channel or a RUNLIST_ID that is neither ALL nor a runlist is invalid.
 * UNVERIFIED: a valid RUNLIST_ID other than the channel's own still makes
 * the channel PENDING (the manual says only which handles are invalid);
 * ALL (15) is valid although the manual also says a RUNLIST_ID above
 * NV_HOST_NUM_RUNLISTS - 1 (10 here) has no effect: its list of invalid
 * handles names ALL as valid. */
static bool tu102_handle_chid(const struct host *h, uint32_t handle, uint32_t *chid)
{
	uint32_t rl = FIELD_GET(handle, 22, 16);
	*chid = FIELD_GET(handle, 11, 0);
	return !(handle & ~0x007f0fffu) && *chid < h->gen->nchan && (rl < TU102_NRUNLIST || rl == HANDLE_RUNLIST_ALL);
}

/* "if the written value is not a valid handle, the write will be ignored" */
static void doorbell(struct host *h, uint32_t reg, uint32_t handle)
{
	uint32_t chid;
	if (!tu102_handle_chid(h, handle, &chid)) {
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "bad_doorbell", reg, handle,
		     "doorbell handle 0x%08x is invalid (RUNLIST_ID 22:16 | CHID 11:0): ignored", handle);
		return;
	}
	host_doorbell(h, chid);
}

static void wr_notify(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)old;
	*stored = 0;
	doorbell(ctx, r->offset, written);
}

/* NV_VIRTUAL_FUNCTION_DOORBELL. UNVERIFIED: it takes effect only while
 * NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE 31:31 is set (reset 0;
 * nouveau's tu102_fifo_init_pbdmas sets it before it rings 0xBB0090); the
 * manuals do not say what the bit gates. */
static void wr_vf_doorbell(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)old;
	struct host *h = ctx;
	*stored = 0;
	if (!FIELD_GET(ts(h)->vchan_cfg[0], 31, 31)) {
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "doorbell_disabled", r->offset, written,
		     "NV_VIRTUAL_FUNCTION_DOORBELL 0x%08x while NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE is "
		     "FALSE: ignored",
		     written);
		return;
	}
	doorbell(h, r->offset, written);
}

static const struct reg_desc usermode_regs[] = {
	{ 0x810000, "NV_USERMODE_CFG0", 50273, 0, 0, NULL, NULL }, /* USERMODE_CLASS_ID_VALUE (0xC461) */
	{ 0x810080, "NV_USERMODE_TIME_0", 0, 0, 0, gv100_rd_time0, NULL },
	{ 0x810084, "NV_USERMODE_TIME_1", 0, 0, 0, gv100_rd_time1, NULL },
	{ 0x810090, "NV_USERMODE_NOTIFY_CHANNEL_PENDING", 0, 0xffffffffu, 0, NULL, wr_notify },
};

/* NV_VIRTUAL_FUNCTION (tu104 dev_vm), the aliases of the usermode registers. */
static const struct reg_desc vf_regs[] = {
	{ R_VF + 0x00, "NV_VIRTUAL_FUNCTION_CFG0", 50273, 0, 0, NULL, NULL },
	{ R_VF + 0x80, "NV_VIRTUAL_FUNCTION_TIME_0", 0, 0, 0, gv100_rd_time0, NULL },
	{ R_VF + 0x84, "NV_VIRTUAL_FUNCTION_TIME_1", 0, 0, 0, gv100_rd_time1, NULL },
	{ R_VF + 0x90, "NV_VIRTUAL_FUNCTION_DOORBELL", 0, 0xffffffffu, 0, NULL, wr_vf_doorbell },
};

/* The CPU interrupt tree (tu104 dev_vm, the same offsets in the
 * NV_VIRTUAL_FUNCTION page as ga100's: CPU_INTR_LEAF(i) 0x1000 + 4i,
 * LEAF_EN_SET 0x1200, LEAF_EN_CLEAR 0x1400, __SIZE_1 8, CPU_INTR_TOP(0)
 * 0x1600, TOP_EN_SET 0x1608, TOP_EN_CLEAR 0x1610). No Host source reaches
 * it: tu104's dev_fifo has no INTR vector registers and PFIFO_INTR_0 stays
 * on PMC line 8 (nouveau's tu102 fifo serves it there). */
static const struct intr_tree_desc tu102_intr_tree = { R_VF, 0x1000, 0x1200, 0x1400, 0x1600, 0x1608, 0x1610, 8, 2 };

/* NV_CTRL_VIRTUAL_CHANNEL_CFG(i): MASK 11:0 (0xFFF), SET 27:16, PENDING_ENABLE 31:31. */
static const struct reg_desc vchan_cfg_regs[] = {
	{ 0x0, "NV_CTRL_VIRTUAL_CHANNEL_CFG", 0xfffu, 0x8fff0fffu, 0, NULL, NULL },
};

/* ---------------------------------------------------------------- PFIFO */

static const struct reg_desc pfifo_regs[] = {
	{ 0x2004, "NV_PFIFO_CFG0", TU102_NPBDMA | (NVM_MMU_ENG_HOST0 << 16), 0, 0, NULL, NULL },
	{ 0x2008, "NV_PFIFO_CFG1", TU102_NCHAN, 0, 0, NULL, NULL },
	{ 0x200c, "NV_PFIFO_CFG2", 50287, 0, 0, NULL, NULL }, /* HOST_CLASS_ID_VALUE (0xC46F) */
	{ 0x2100, "NV_PFIFO_INTR_0", 0, 0, TU102_INTR_W1C, gv100_rd_pfifo_intr, gv100_wr_intr },
	{ 0x2140, "NV_PFIFO_INTR_EN_0", 0, TU102_INTR_EN, 0, NULL, gv100_wr_intr },
	{ 0x2180, "NV_PFIFO_INTR_0_MASK_SET", 0, 1u << 28, 0, NULL, NULL },
	{ 0x21c0, "NV_PFIFO_INTR_0_MASK_CLEAR", 0, 1u << 28, 0, NULL, NULL },
	{ 0x2200, "NV_PFIFO_CONFIG", 0x10u, 0x311u, 0, NULL, NULL },
	{ 0x2250, "NV_PFIFO_ACQ_PRETEST", 8, 0xf0ffu, 0, NULL, NULL },
	{ 0x225c, "NV_PFIFO_USERD_WRITEBACK", 0x64, 0xf0ffu, 0, NULL, gv100_wr_userd_writeback },
	{ 0x2528, "NV_PFIFO_INTR_EN_1", 0, TU102_INTR_EN, 0, NULL, NULL },
	{ 0x252c, "NV_PFIFO_INTR_BIND_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x2530, "NV_PFIFO_INTR_STALL", 0x01810101u, 0xe1810101u, 0, NULL, NULL },
	{ 0x254c, "NV_PFIFO_INTR_SCHED_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x256c, "NV_PFIFO_INTR_CHSW_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x258c, "NV_PFIFO_INTR_LB_ERROR", 0, 0, 0, NULL, NULL },
	{ 0x25a0, "NV_PFIFO_INTR_PBDMA_ID", 0, 0, 0, gv100_rd_pbdma_id, NULL },
	{ 0x2630, "NV_PFIFO_SCHED_DISABLE", 0, 0x7ffu, 0, NULL, gv100_wr_sched_disable },
	{ 0x2634, "NV_PFIFO_PREEMPT", 0, 0x03000fffu, 0, NULL, gv100_wr_preempt },
	{ 0x2638, "NV_PFIFO_RUNLIST_PREEMPT", 0, 0x7ffu, 0, NULL, gv100_wr_rl_preempt },
	{ 0x263c, "NV_PFIFO_SCHED_STATUS", 0, 0, 0, NULL, NULL },
	{ 0x2a00, "NV_PFIFO_INTR_RUNLIST", 0, 0, 0x7ffu, NULL, NULL },
	{ 0x2a0c, "NV_PFIFO_ENG_CTXSW_TIMEOUT", 0x803fffffu, 0xffffffffu, 0, NULL, NULL },
	{ 0x2a14, "NV_PFIFO_CLEAR_FAULTED_TIMEOUT", 0x800003ffu, 0xbfffffffu, 0, NULL, NULL },
	{ 0x2a30, "NV_PFIFO_INTR_CTXSW_TIMEOUT", 0, 0, 0xffffffffu, NULL, NULL },
};

/* ---------------------------------------------------------------- PTOP */

/* NV_PTOP_DEVICE_INFO's devices: exactly the engines tu102's runlists wire
 * (TYPE_ENUM GRAPHICS 0, LCE 19 with INST_ID; ENGINE_ENUM is the engine's
 * NV_PFIFO_ENGINE_STATUS index, the runlists' engstat; FAULT_ID the MMU
 * engine id the model uses). All LCEs share PRI_BASE 0x104000 (tu104 NV_CE
 * 0x105fff:0x104000; the manual: LCEs "share a PRI_BASE across all devices
 * of the same engine type"). UNVERIFIED: GRCOPY's ENGINE_ENUM 1, the
 * RESET_ENUM and INTR_ENUM ids (GR 12, CEn 6 + n; GR intr 12, CEn 15 + n). */
static const struct ptop_dev tu102_devs[] = {
	{ .type = 0,
	  .inst = 0,
	  .fault = NVM_MMU_ENG_GRAPHICS,
	  .addr = 0x400000,
	  .reset = 12,
	  .runlist = 0,
	  .engine = 0,
	  .intr = 12 },
	{ .type = 0x13, .inst = 0, .fault = 15, .addr = 0x104000, .reset = 6, .runlist = 0, .engine = 1, .intr = 15 },
	{ .type = 0x13, .inst = 2, .fault = 17, .addr = 0x104000, .reset = 8, .runlist = 1, .engine = 2, .intr = 17 },
	{ .type = 0x13, .inst = 3, .fault = 18, .addr = 0x104000, .reset = 9, .runlist = 2, .engine = 3, .intr = 18 },
	{ .type = 0x13, .inst = 4, .fault = 19, .addr = 0x104000, .reset = 10, .runlist = 3, .engine = 4, .intr = 19 },
};
static const size_t tu102_ndevs = sizeof(tu102_devs) / sizeof(tu102_devs[0]);

/* tu104 dev_top "DEVICE_INFO REGISTERS": each device is a chain of entries
 * (CHAIN 31:31 set on all but its last), ENTRY 1:0 saying what one holds:
 * ENGINE_TYPE (3) TYPE_ENUM 30:2; DATA (1) DATA_TYPE 30:30 ENUM2, INST_ID
 * 29:26, PRI_BASE 23:12, FAULT_ID_ENUM 9:3 with FAULT_ID 2:2 VALID; ENUM
 * (2) ENGINE_ENUM 29:26, RUNLIST_ENUM 24:21, INTR_ENUM 19:15, RESET_ENUM
 * 13:9 with their VALID bits ENGINE 5:5, RUNLIST 4:4, INTR 3:3, RESET 2:2.
 * UNVERIFIED: the entry order ENGINE_TYPE, DATA, ENUM (the manual fixes
 * none; nouveau's gk104_top_parse accepts any). Entries past the table
 * read 0 (ENTRY NOT_VALID). */
static unsigned tu102_devinfo_fill(const struct host *h, uint32_t *e)
{
	unsigned n = 0;
	for (size_t i = 0; i < tu102_ndevs && n + 3 <= TU102_NDEVINFO; i++) {
		const struct ptop_dev *d = &tu102_devs[i];
		uint32_t fault = nvm_mmu_gen_engine_id(h->gpu, d->fault) & 0x7fu;
		e[n++] = 1u << 31 | (uint32_t)d->type << 2 | 3u;
		e[n++] = 1u << 31 | (uint32_t)(d->inst & 0xfu) << 26 | (d->addr & 0x00fff000u) | fault << 3 | 1u << 2 |
		         1u;
		e[n++] = (uint32_t)(d->engine & 0xfu) << 26 | (uint32_t)(d->runlist & 0xfu) << 21 |
		         (uint32_t)(d->intr & 0x1fu) << 15 | (uint32_t)(d->reset & 0x1fu) << 9 | 0xfu << 2 | 2u;
	}
	return n;
}

/* Read-only to the guest (R--4A): a write stores nothing. */
static const struct reg_desc devinfo_regs[] = { { 0x0, "NV_PTOP_DEVICE_INFO", 0, 0, 0, NULL, NULL } };

static nvm_status tu102_add_devinfo(struct host *h)
{
	struct tu102 *t = ts(h);
	t->devinfo_array = (struct reg_array){ R_PTOP_DEVICE_INFO, 4, TU102_NDEVINFO, devinfo_regs, 1, t->devinfo };
	const struct reg_block b = {
		"ptop", R_PTOP_DEVICE_INFO, 4 * TU102_NDEVINFO, NULL, 0, h, NULL, NULL, &t->devinfo_array, 1, NULL
	};
	nvm_status st = bus_add(h->gpu, &b);
	if (!st)
		tu102_devinfo_fill(h, t->devinfo);
	return st;
}

static nvm_status tu102_create(struct host *h)
{
	nvm_status st = gv100_state_new(h, sizeof(struct tu102));
	if (st)
		return st;
	struct tu102 *t = ts(h);
	struct gv100 *g = &t->base;
	const struct reg_array arrays[] = {
		{ 0x2390, 4, TU102_NPBDMA, gv100_pbdma_map_regs, 1, g->pbdma_map_vals },
		{ 0x2640, 8, TU102_NENGSTAT, gv100_engstat_regs, 2, g->engstat_vals },
		{ 0x2790, 4, TU102_NPBDMA, pbstat_inst_regs, 1, t->pbstat_inst },
		{ 0x2800, 4, TU102_NPBDMA, pbstat_userd_regs, 1, t->pbstat_userd },
		{ 0x2880, 4, TU102_NPBDMA, pbstat_userd_hi_regs, 1, t->pbstat_userd_hi },
		{ R_RUNLIST_BASE_LO, 16, TU102_NRUNLIST, runlist_regs, 4, t->rl_vals },
		{ 0x3000, 4, TU102_NENGSTAT, gv100_engstat_next_inst_regs, 1, g->engstat_next_inst_vals },
		{ 0x3080, 4, TU102_NPBDMA, gv100_pbstat_regs, 1, g->pbstat_vals },
		{ 0x3100, 4, TU102_NENGSTAT, gv100_engstat_inst_regs, 1, g->engstat_inst_vals },
	};
	memcpy(g->pfifo_arrays, arrays, sizeof(arrays));
	st = gv100_add_pfifo(h, pfifo_regs, sizeof(pfifo_regs) / sizeof(pfifo_regs[0]),
	                     sizeof(arrays) / sizeof(arrays[0]));
	if (!st)
		st = gv100_add_pccsr(h);
	if (!st)
		st = gv100_add_block(h, R_USERMODE, 0x100, usermode_regs,
		                     sizeof(usermode_regs) / sizeof(usermode_regs[0]));
	if (!st)
		st = gv100_add_block(h, R_VF, 0x100, vf_regs, sizeof(vf_regs) / sizeof(vf_regs[0]));
	if (!st)
		st = intr_tree_init(&h->tree, h->gpu, &tu102_intr_tree);
	if (!st) {
		t->ctrl_array =
		        (struct reg_array){ R_CTRL_VCHAN_CFG, 4, TU102_NVCHCFG, vchan_cfg_regs, 1, t->vchan_cfg };
		const struct reg_block ctrl = {
			"host", R_CTRL_VCHAN_CFG, 4 * TU102_NVCHCFG, NULL, 0, h, NULL, NULL, &t->ctrl_array, 1, NULL
		};
		st = bus_add(h->gpu, &ctrl);
	}
	if (!st)
		st = tu102_add_devinfo(h);
	if (!st)
		gv100_map_pbdmas(h);
	return st;
}

/* ---------------------------------------------------------------- host class C46F */

/* TURING_CHANNEL_GPFIFO_A (clc46f.h): C36F's methods at the same offsets;
 * CLEAR_FAULTED takes HANDLE 30:0 instead of CHID 11:0. */
static const host_method_fn c46f_methods[64] = HOST_METHODS(hm_mem_op_d, hm_crc_check, hm_clear_faulted_handle);

/* UNVERIFIED: GR accepts the Turing classes only (TURING_A C597,
 * TURING_COMPUTE_A C5C0, inline-to-memory A140, 2D 902D: the decoder's
 * tu102 profile); copy engines accept TURING_DMA_COPY_A C5B5. */
static const uint32_t tu102_gr_classes[] = { 0xC597, 0xC5C0, 0xA140, 0x902D };

/* ---------------------------------------------------------------- topology */

/* UNVERIFIED topology (published by NV_PTOP_DEVICE_INFO, tu102_devs): nouveau's
 * TU102 has copy engines CE0..CE4 (device/base.c nv162_chipset ce mask
 * 0x1f). Runlist 0 is graphics/compute with GRCOPY (CE0) on subchannel 4
 * and two PBDMAs; runlists 1..3 are CE2..CE4, one PBDMA each (2..4): gv100's
 * first four runlists. MMU engine ids as gv100's (tu104 publishes no
 * dev_fault engine list). */
#define TU102_NRL 4u /* the runlists: the first four of gv100_runlists */

static const struct host_gen_ops tu102_ops = {
	.create = tu102_create,
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
	.runlist_taken = tu102_runlist_taken,
	.engine_status = gv100_engine_status,
	.pbdma_status = tu102_pbdma_status,
	.handle_chid = tu102_handle_chid,
};

const struct host_gen host_tu102 = {
	.name = "tu102",
	.nchan = TU102_NCHAN,
	.npbdma = TU102_NPBDMA,
	.nrunlist = TU102_NRL,
	.rl = gv100_runlists,
	.pbdma_base = 0x40000u,
	.pbdma_stride = 0x2000u, /* tu104 dev_pbdma (i)*8192 */
	/* UNVERIFIED: NV_PPBDMA_RUNTIME (0x2c) is gone from tu104 dev_pbdma but
	 * NV_RAMFC_RUNTIME still names it; the register file is gv100's. */
	.pbdma_regs = gv100_pbdma_regs,
	.r_userd_writeback = 0x225cu,
	.r_clear_faulted_timeout = 0x2a14u,
	.r_doorbell = R_USERMODE + 0x90,
	.host_class = 0xC46F,
	.methods = c46f_methods,
	.sig_valid = 0xface,
	.sig_host_class = 50287, /* tu104 NV_PPBDMA_SIGNATURE_HW_HOST_CLASS_ID (0xC46F) */
	.gr_classes = tu102_gr_classes,
	.ngr_classes = sizeof(tu102_gr_classes) / sizeof(tu102_gr_classes[0]),
	.ce_class = 0xC5B5,
	.gp_limit2_reg = PBR_GP_BASE_HI, /* as gv100: GP_BASE_HI LIMIT2 20:16, OFFSET 7:0 */
	.gp_limit2_lo = 16,
	.gp_base_hi_bits = 8,
	.sem_addr_hi_bits = 8, /* C46F SEM_ADDR_HI OFFSET 7:0 */
	.gpfifo_va_bits = 40,
	.sem_red_valid = sem_red_valid,
	.layouts = hf_tu102_layouts,
	.rl_entry_decode = nvm_rl_entry_decode,
	.state_bytes = sizeof(struct tu102) + 2u * TU102_NCHAN * sizeof(uint32_t),
	.ops = &tu102_ops,
};
