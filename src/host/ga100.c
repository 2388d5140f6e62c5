/*
 * The Ampere Host generation (ga100; ga102.c and gh100.c are deltas of it):
 * the device-info table PTOP publishes (engines and their runlists), one
 * register space per runlist (ga100_dev_runlist.ref.txt: config, submit,
 * doorbell, preempt, interrupts, engine status), the channel RAM CHRAM (one
 * word per channel and runlist, no instance pointer: the runlist entry
 * carries the instance block and USERD), the PBDMA register file at a
 * 0x800 stride with the set/clear interrupt-enable trees
 * (ga100_dev_pbdma.ref.txt), the VF doorbell (ga100_dev_vm.ref.txt) and
 * host class C56F. The mechanism is host.c and pbdma.c, as for gv100.
 *
 * Channel ids are per runlist (each runlist has its own CHRAM of 2048
 * words): the Host's channel index is runlist * 2048 + CHID, which is what
 * nvm_host_channel_info and the traces show.
 *
 * UNVERIFIED (docs/fidelity.md "Ampere and Hopper Host"): where BAR0 places
 * the runlist spaces and CHRAMs (PTOP and NV_RUNLIST_CHANNEL_CONFIG publish
 * them, the manuals give no address), the topology, the doorbell handle's
 * field positions (Turing's), the CHRAM status bits the Host keeps, the
 * INTR_BAD_TSG codes per malformation, and the interrupt route: a runlist's
 * INTR_0 & INTR_0_EN_SET_TREE(0) drives PMC line 8 instead of the NV_CTRL
 * leaf vector.
 */
#include <stdlib.h>
#include <string.h>

#include "ampere.h"
#include "host_fmt_internal.h"

#define GA100_CHRAM_N   AMPERE_CHRAM_N
#define GA100_RL_MAX    8u
#define GA100_NENGSTAT  3u  /* NV_RUNLIST_ENGINE_STATUS0__SIZE_1 */
#define GA100_PTOP_ROWS 64u /* rows the model's table has room for */

/* UNVERIFIED placement (see above). Runlist i's registers at RL_BASE +
 * i * RL_STRIDE (NV_PTOP RUNLIST PRI base 23:10 has 1 KiB granularity), its
 * CHRAM at CHRAM_BASE + i * 0x2000, so the CHRAMs are one array indexed by
 * the Host's channel index. */
#define R_RL_BASE    0xC00000u
#define R_RL_STRIDE  0x400u
#define R_CHRAM_BASE 0xC20000u
#define R_PTOP_CFG   0x0224FCu /* NV_PTOP_DEVICE_INFO_CFG: NUM_ROWS 31:20 (nouveau top/ga100.c) */
#define R_PTOP_INFO  0x022800u /* NV_PTOP_DEVICE_INFO2(i) */
#define R_VF         0xBB0000u /* NV_VIRTUAL_FUNCTION_FULL_PHYS_OFFSET + NV_VIRTUAL_FUNCTION 0x30000 */
#define R_PBDMA_BASE 0x040000u
#define PBDMA_STRIDE 0x800u

/* NV_RUNLIST_* register offsets within a runlist's space */
#define RL_CHANNEL_CONFIG  0x004u
#define RL_DOORBELL_CONFIG 0x008u
#define RL_PBDMA_CONFIG    0x010u
#define RL_SUBMIT_BASE_LO  0x080u
#define RL_SUBMIT_BASE_HI  0x084u
#define RL_SUBMIT          0x088u
#define RL_SUBMIT_INFO     0x08Cu
#define RL_SCHED_DISABLE   0x094u
#define RL_INTR_0          0x100u
#define RL_INTR_0_EN_SET0  0x120u
#define RL_INTR_BAD_TSG    0x174u
#define RL_INTR_VECTORID   0x160u
#define RL_ENGINE_STATUS0  0x200u
#define RL_EN_DIST         2 /* rl_regs slots from INTR_0_EN_SET_TREE(i) to _EN_CLEAR_TREE(i) */

/* NV_RUNLIST_INTR_0 bits */
#define RL_INTR_BAD_TSG_BIT (1u << 12)
#define RL_INTR_W1C         0x000013F7u /* CTXSW_TIMEOUT_ENG0-2, IDLE.., PREEMPT_COMPLETE, BAD_TSG */

/* NV_CHRAM_CHANNEL */
#define CHRAM_WRITE_CONTROL (1u << 0)
#define CHRAM_ENABLE        (1u << 1)
#define CHRAM_BUSY          (1u << 3)
#define CHRAM_PBDMA_FAULTED (1u << 4)
#define CHRAM_ENG_FAULTED   (1u << 5)
#define CHRAM_ON_PBDMA      (1u << 6)
#define CHRAM_PENDING       (1u << 8)
#define CHRAM_ACQUIRE_FAIL  (1u << 12)
#define CHRAM_RW            0x00001336u /* ENABLE, NEXT, *_FAULTED, PENDING, CTX_RELOAD, ACQUIRE_FAIL */

#define RL_NO_SLOT 0xffu

#define INST_LISTED 4u /* rl_ent.inst: a runlist entry gave the channel its block */

/* What the channel's last runlist entry said (RAMFC no longer holds them). */
struct rl_ent {
	uint64_t inst;  /* INST address | INST_LISTED | INST_TARGET */
	uint64_t userd; /* USERD address | USERD_TARGET */
};

/* The entries are kept in chunks of ENT_CHUNK channels, each allocated when
 * a runlist entry first names a channel of it (opening a GPU clears no
 * table of 10 000 channels); a channel of a chunk never allocated has the
 * zero entry (no instance block). */
#define ENT_CHUNK 64u

/* A runlist's interrupt registers (slots of rl_vals): the line and the
 * tree read them at every change of a PBDMA's interrupts. */
struct rl_intr_regs {
	uint32_t *intr0, *en[2], *vectorid[2]; /* INTR_0, _EN_SET_TREE(j), INTR_VECTORID(j) */
};

/* The generation's own state. */
struct ga100 {
	uint32_t *chram;                                              /* [nrunlist * 2048] NV_CHRAM_CHANNEL */
	struct rl_ent *ent[GA100_RL_MAX * GA100_CHRAM_N / ENT_CHUNK]; /* by channel / ENT_CHUNK */
	uint32_t rl_vals[GA100_RL_MAX * 128];                         /* the runlist spaces (rl_regs order) */
	uint8_t rl_slot[R_RL_STRIDE / 4]; /* rl_regs index by offset / 4 (RL_NO_SLOT: none) */
	struct rl_intr_regs ri[GA100_RL_MAX];
	uint32_t ptop_vals[GA100_PTOP_ROWS]; /* NV_PTOP_DEVICE_INFO2(i) */
	struct reg_array rl_array, chram_array, ptop_array;
};

static struct ga100 *gs(const struct host *h)
{
	return h->gs;
}

static const struct ampere_gen *agen(const struct host *h)
{
	return (const struct ampere_gen *)h->gen;
}

/* ---------------------------------------------------------------- runlist registers */

static uint32_t rl_addr(unsigned rl, uint32_t off)
{
	return R_RL_BASE + rl * R_RL_STRIDE + off;
}

/* Runlist rl's stored value of the register at off (bus_reg's slot,
 * without the bus's block and register searches: the interrupt line and
 * tree read these at every PBDMA register write); NULL when off names none.
 * off is one of the RL_* offsets (below R_RL_STRIDE, word-aligned) and rl
 * one of the generation's runlists: the callers' constants, not guest
 * values. */
static inline uint32_t *rl_slot(const struct host *h, unsigned rl, uint32_t off)
{
	uint8_t s = gs(h)->rl_slot[off / 4 % (R_RL_STRIDE / 4)];
	return s == RL_NO_SLOT ? NULL : &gs(h)->rl_vals[rl * gs(h)->rl_array.nregs + s];
}

static uint32_t rl_reg(const struct host *h, unsigned rl, uint32_t off)
{
	const uint32_t *p = rl_slot(h, rl, off);
	return p ? *p : 0;
}

static void rl_reg_set(struct host *h, unsigned rl, uint32_t off, uint32_t v)
{
	uint32_t *p = rl_slot(h, rl, off);
	if (p)
		*p = v;
}

/* The channel's runlist entry: the zero entry if none was ever listed. */
static const struct rl_ent *ent_peek(const struct host *h, uint32_t chid)
{
	static const struct rl_ent none;
	const struct rl_ent *c = gs(h)->ent[chid / ENT_CHUNK];
	return c ? &c[chid % ENT_CHUNK] : &none;
}

/* The runlist whose space holds the register value *stored. */
static struct runlist *rl_of(struct host *h, const uint32_t *stored)
{
	return &h->rl[(size_t)(stored - gs(h)->rl_vals) / gs(h)->rl_array.nregs];
}

/* ---------------------------------------------------------------- interrupts */

/* NV_RUNLIST_INTR_0 as read: the latched bits and, as levels, the
 * PBDMAk_INTR_TREE_j bits (16 + k + 2j) of the runlist's PBDMAs whose
 * INTR_0 / INTR_1 have a bit enabled in tree j (dev_pbdma "The bit
 * propagation to dev_runlist is level based"). */
static uint32_t rl_intr_value(const struct host *h, const struct runlist *rl)
{
	uint32_t v = *gs(h)->ri[rl->id].intr0 & ~0x000F0000u;
	for (unsigned q = 0; q < rl->desc->npbdma && q < 2; q++) {
		const uint32_t *r = rl->pb[q]->r;
		for (unsigned j = 0; j < 2; j++)
			if ((r[PBR_INTR_0] & r[PBR_INTR_0_EN_SET_TREE0 + j]) ||
			    (r[PBR_INTR_1] & r[PBR_INTR_1_EN_SET_TREE0 + j]))
				v |= 1u << (16 + q + 2 * j);
	}
	return v;
}

/* Any runlist's INTR_0 bit enabled in tree 0 (the one nouveau enables):
 * the stored INTR_0, which ga100_update_intr keeps equal to rl_intr_value
 * (every change reaches the line through it). */
static uint32_t line_status(void *ctx)
{
	const struct host *h = ctx;
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		if (*gs(h)->ri[i].intr0 & *gs(h)->ri[i].en[0])
			return 1;
	return 0;
}

static uint32_t line_enable(void *ctx)
{
	(void)ctx;
	return 1;
}

static const struct intr_desc ga100_intr = { 0, 0, PMC_INTR_PFIFO, line_status, line_enable };

/* The CPU interrupt tree (dev_vm NV_VIRTUAL_FUNCTION_PRIV_CPU_INTR_*): a
 * runlist whose INTR_0 has a bit enabled in EN_SET_TREE(j) latches the
 * LEAF bit of NV_RUNLIST_INTR_VECTORID(j) VECTOR 11:0 while that register's
 * CPU 31:31 is ENABLE. UNVERIFIED: the leaf latches at every change of the
 * runlist's interrupts while one is pending (so clearing the LEAF before
 * INTR_0, as nouveau does, and a RETRIGGER write both re-latch a bit still
 * pending); the manuals give the registers, not the edge. */
static void ga100_route_tree(struct host *h)
{
	for (unsigned i = 0; i < h->gen->nrunlist; i++) {
		const struct rl_intr_regs *ri = &gs(h)->ri[i];
		for (unsigned j = 0; j < 2; j++)
			if ((*ri->intr0 & *ri->en[j]) && (*ri->vectorid[j] >> 31))
				intr_tree_raise(&h->tree, FIELD_GET(*ri->vectorid[j], 11, 0));
	}
}

/* The tree bits are levels: latched into each runlist's INTR_0 at every
 * change of a PBDMA's interrupts or enables (all of which call this), so a
 * read of INTR_0 sees them. */
static void ga100_update_intr(struct host *h)
{
	for (unsigned i = 0; i < h->gen->nrunlist; i++)
		*gs(h)->ri[i].intr0 = rl_intr_value(h, &h->rl[i]);
	intr_update(&h->intr);
	ga100_route_tree(h);
}

/* NV_UDMA_NON_STALL_INT latches the vector NV_PPBDMA_INTR_NOTIFY names
 * (ga100_dev_pbdma: "part of the RAMFC image of the channel", RAMFC 0x0f8;
 * VECTOR 11:0, CTRL_CPU 31:31) in the CPU interrupt tree; nouveau's
 * ga100_chan_ramfc_write stores 0x80000000 | the engine's non-stall vector
 * there. The model keeps no PBDMA copy of INTR_NOTIFY: it reads the word
 * from the channel's RAMFC (the PBDMA never writes it back, so the two
 * agree). A RAMFC the host cannot read raises nothing; host.c's trace
 * event stays. */
static uint64_t ga100_chan_inst(const struct host *h, uint32_t chid, unsigned *target);

static void ga100_nonstall(struct host *h, uint32_t chid)
{
	unsigned target;
	uint64_t inst = ga100_chan_inst(h, chid, &target);
	uint8_t w[4];
	if (target == 1 || mem_read(&h->gpu->mem[target >= 2 ? NVM_AP_SYSMEM : NVM_AP_VRAM], inst + 0xf8, w, 4))
		return;
	uint32_t v = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
	if (v >> 31)
		intr_tree_raise(&h->tree, FIELD_GET(v, 11, 0));
}

static void rl_error(struct host *h, struct runlist *rl, uint32_t code, uint64_t addr, const char *why)
{
	rl_reg_set(h, rl->id, RL_INTR_BAD_TSG, code);
	rl_reg_set(h, rl->id, RL_INTR_0, rl_reg(h, rl->id, RL_INTR_0) | RL_INTR_BAD_TSG_BIT);
	emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "sched_error", addr, code, "runlist %u INTR_BAD_TSG code %u: %s",
	     rl->id, code, why);
	host_update_intr(h);
}

/* The runlist being fetched (host.c calls sched_error from its fetch). */
static struct runlist *fetching(struct host *h)
{
	return h->rl_fetching ? h->rl_fetching : &h->rl[0];
}

static void ga100_sched_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	if (code >= 1 && code <= 6) {
		rl_error(h, fetching(h), code, addr, why);
		return;
	}
	/* UNVERIFIED: a runlist outside its aperture has no INTR_BAD_TSG code. */
	emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "sched_error", addr, code, "runlist read: %s", why);
}

/* UNVERIFIED: Ampere publishes no CHSW_ERROR register: the event only. */
static void ga100_chsw_error(struct host *h, uint32_t code, uint64_t addr, const char *why)
{
	emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "chsw_error", addr, code, "context switch error 0x%02x: %s", code,
	     why);
}

static void wr_rl_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	(void)written;
	host_update_intr(ctx);
}

/* NV_RUNLIST_INTR_0_EN_SET_TREE(i) / _EN_CLEAR_TREE(i) (0x120 / 0x140 + 8i):
 * one enable per tree, read through either. */
static void wr_rl_en_set(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	*stored = old | written;
	stored[RL_EN_DIST] = *stored; /* EN_CLEAR_TREE(i) reads the same enable */
	host_update_intr(ctx);
}

/* ---------------------------------------------------------------- runlist submit, doorbell, preempt */

static void wr_submit(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	struct runlist *rl = rl_of(h, stored);
	/* NV_RUNLIST_SUBMIT_BASE_LO PTR_LO 31:12 (ga102: 1 KiB aligned, its
	 * RAMRL BASE_SHIFT 10), TARGET 1:0; _BASE_HI PTR_HI 7:0; SUBMIT
	 * LENGTH 15:0. UNVERIFIED: OFFSET 31:16 is ignored (the fetch starts
	 * at the first entry). */
	uint32_t lo = rl_reg(h, rl->id, RL_SUBMIT_BASE_LO), hi = rl_reg(h, rl->id, RL_SUBMIT_BASE_HI);
	unsigned shift = agen(h)->rl_base_shift;
	uint64_t base = ((uint64_t)FIELD_GET(hi, 7, 0) << 32) | (lo & ~((1u << shift) - 1u));
	rl_reg_set(h, rl->id, RL_SUBMIT_INFO, rl_reg(h, rl->id, RL_SUBMIT_INFO) | (1u << 15));
	host_runlist_submit(h, rl, FIELD_GET(lo, 1, 0), base, FIELD_GET(written, 15, 0));
}

static void ga100_runlist_taken(struct host *h, struct runlist *rl)
{
	rl_reg_set(h, rl->id, RL_SUBMIT_INFO, rl_reg(h, rl->id, RL_SUBMIT_INFO) & ~(1u << 15)); /* PENDING */
}

static bool ga100_sched_disabled(const struct host *h, const struct runlist *rl)
{
	return rl_reg(h, rl->id, RL_SCHED_DISABLE) & 1u; /* NV_RUNLIST_SCHED_DISABLE_RUNLIST 0:0 */
}

static void wr_sched_disable(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)written;
	struct host *h = ctx;
	if ((old & 1u) && !(*stored & 1u))
		host_schedule(h, rl_of(h, stored));
}

/* NV_RUNLIST_INTERNAL_DOORBELL CHID 10:0 (GFID 21:16 ignored). */
static void wr_internal_doorbell(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	struct runlist *rl = rl_of(h, stored);
	*stored = 0;
	host_doorbell(h, rl->id * GA100_CHRAM_N + FIELD_GET(written, 10, 0));
}

/* NV_RUNLIST_PREEMPT ID 10:0, TYPE 25:24 (RUNLIST 0, TSG 1); the preempt is
 * done at once, so TSG_/RUNLIST_PREEMPT_PENDING (20, 21) read 0. */
static void wr_preempt(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	struct runlist *rl = rl_of(h, stored);
	*stored &= ~(3u << 20);
	if (FIELD_GET(written, 25, 24) == 1)
		host_preempt_tsg_on(h, rl, FIELD_GET(written, 10, 0));
	else if (FIELD_GET(written, 25, 24) == 0)
		host_preempt_runlist(h, rl);
}

/* NV_RUNLIST_INTR_0_EN_CLEAR_TREE(i): clears bits of the enable that
 * EN_SET_TREE(i) (0x20 below it) holds; both read the enable. */
static void wr_rl_en_clear(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	uint32_t *set = stored - RL_EN_DIST;
	*set &= ~written;
	*stored = *set;
	host_update_intr(ctx);
}

/* The runlist space (ga100_dev_runlist), relative to its PRI base. */
static const struct reg_desc rl_regs[] = {
	{ 0x000, "NV_RUNLIST_CONFIG", 0x10u, 0x713u, 0, NULL, NULL },
	{ 0x004, "NV_RUNLIST_CHANNEL_CONFIG", 0, 0, 0, NULL, NULL },
	{ 0x008, "NV_RUNLIST_DOORBELL_CONFIG", 0, 0, 0, NULL, NULL },
	{ 0x00c, "NV_RUNLIST_FB_CONFIG", 0, 0, 0, NULL, NULL },
	{ 0x010, "NV_RUNLIST_PBDMA_CONFIG(0)", 0, 0, 0, NULL, NULL },
	{ 0x014, "NV_RUNLIST_PBDMA_CONFIG(1)", 0, 0, 0, NULL, NULL },
	{ 0x020, "NV_RUNLIST_ACQ_PRETEST", 8, 0xf0ffu, 0, NULL, NULL },
	{ 0x024, "NV_RUNLIST_IDLE_FILTER", 0, 0xffu, 0, NULL, NULL },
	{ 0x050, "NV_RUNLIST_BLKCG", 0, 0xffffffffu, 0, NULL, NULL },
	{ 0x054, "NV_RUNLIST_BLKCG1", 0, 0xffffffffu, 0, NULL, NULL },
	{ 0x080, "NV_RUNLIST_SUBMIT_BASE_LO", 0, 0xfffff003u, 0, NULL, NULL },
	{ 0x084, "NV_RUNLIST_SUBMIT_BASE_HI", 0, 0xffu, 0, NULL, NULL },
	{ 0x088, "NV_RUNLIST_SUBMIT", 0, 0xffffffffu, 0, NULL, wr_submit },
	{ 0x08c, "NV_RUNLIST_SUBMIT_INFO", 0, 0, 0, NULL, NULL },
	{ 0x090, "NV_RUNLIST_INTERNAL_DOORBELL", 0, 0, 0, NULL, wr_internal_doorbell },
	{ 0x094, "NV_RUNLIST_SCHED_DISABLE", 0, 1u, 0, NULL, wr_sched_disable },
	{ 0x098, "NV_RUNLIST_PREEMPT", 0, 0x030007ffu, 0, NULL, wr_preempt },
	{ 0x100, "NV_RUNLIST_INTR_0", 0, 0, RL_INTR_W1C, NULL, wr_rl_intr },
	{ 0x108, "NV_RUNLIST_INFO", 0, 0, 0, NULL, NULL },
	{ 0x110, "NV_RUNLIST_INTR_0_MASK_SET", 0, 0x100u, 0, NULL, NULL },
	{ 0x118, "NV_RUNLIST_INTR_0_MASK_CLEAR", 0, 0x100u, 0, NULL, NULL },
	{ 0x120, "NV_RUNLIST_INTR_0_EN_SET_TREE(0)", 0, 0, 0, NULL, wr_rl_en_set },
	{ 0x128, "NV_RUNLIST_INTR_0_EN_SET_TREE(1)", 0, 0, 0, NULL, wr_rl_en_set },
	{ 0x140, "NV_RUNLIST_INTR_0_EN_CLEAR_TREE(0)", 0, 0, 0, NULL, wr_rl_en_clear },
	{ 0x148, "NV_RUNLIST_INTR_0_EN_CLEAR_TREE(1)", 0, 0, 0, NULL, wr_rl_en_clear },
	{ 0x160, "NV_RUNLIST_INTR_VECTORID(0)", 0xc0000000u, 0xc0000fffu, 0, NULL, NULL },
	{ 0x164, "NV_RUNLIST_INTR_VECTORID(1)", 0xc0000000u, 0xc0000fffu, 0, NULL, NULL },
	{ 0x174, "NV_RUNLIST_INTR_BAD_TSG", 0, 0, 0, NULL, NULL },
	{ 0x180, "NV_RUNLIST_INTR_RETRIGGER(0)", 0, 0, 0, NULL, wr_rl_intr },
	{ 0x184, "NV_RUNLIST_INTR_RETRIGGER(1)", 0, 0, 0, NULL, wr_rl_intr },
#define ENGSTAT(i)                                                                                                     \
	{ 0x200 + 64 * (i), "NV_RUNLIST_ENGINE_STATUS0(" #i ")", 0, 0, 0, NULL, NULL },                                \
	        { 0x204 + 64 * (i), "NV_RUNLIST_ENGINE_STATUS1(" #i ")", 0, 0, 0, NULL, NULL },                        \
	        { 0x208 + 64 * (i), "NV_RUNLIST_ENGINE_STATUS_CHANNEL(" #i ",0)", 0, 0, 0, NULL, NULL },               \
	        { 0x20c + 64 * (i), "NV_RUNLIST_ENGINE_STATUS_CHANNEL(" #i ",1)", 0, 0, 0, NULL, NULL },               \
	        { 0x210 + 64 * (i), "NV_RUNLIST_ENGINE_STATUS_INST(" #i ")", 0, 0, 0, NULL, NULL },                    \
	        { 0x214 + 64 * (i), "NV_RUNLIST_ENGINE_STATUS_INST_HI(" #i ")", 0, 0, 0, NULL, NULL },                 \
	        { 0x218 + 64 * (i), "NV_RUNLIST_ENGINE_STATUS_NEXT_INST(" #i ")", 0, 0, 0, NULL, NULL },               \
	        { 0x21c + 64 * (i), "NV_RUNLIST_ENGINE_STATUS_NEXT_INST_HI(" #i ")", 0, 0, 0, NULL, NULL },            \
	        { 0x220 + 64 * (i), "NV_RUNLIST_ENGINE_CTXSW_TIMEOUT_CONFIG(" #i ")", 0, 0xffffffffu, 0, NULL, NULL }, \
	        { 0x224 + 64 * (i), "NV_RUNLIST_ENGINE_CTXSW_TIMEOUT_INFO(" #i ")", 0, 0, 0, NULL, NULL },             \
	{                                                                                                              \
		0x228 + 64 * (i), "NV_RUNLIST_ENGINE_STATUS_DEBUG(" #i ")", 0, 0, 0, NULL, NULL                        \
	}
	ENGSTAT(0),
	ENGSTAT(1),
	ENGSTAT(2),
#undef ENGSTAT
#define VCC(i)                                                                                                         \
	{                                                                                                              \
		0x300 + 4 * (i), "NV_RUNLIST_VIRTUAL_CHANNEL_CFG(" #i ")", 0, 0x87ff07ffu, 0, NULL, NULL               \
	}
	VCC(0),
	VCC(1),
	VCC(2),
	VCC(3),
	VCC(4),
	VCC(5),
	VCC(6),
	VCC(7),
#undef VCC
};

#define NRLREGS (sizeof(rl_regs) / sizeof(rl_regs[0]))

/* ---------------------------------------------------------------- CHRAM */

static uint32_t *chram(const struct host *h, uint32_t chid)
{
	return &gs(h)->chram[chid];
}

static bool ga100_chan_runnable(const struct host *h, uint32_t chid)
{
	uint32_t v = *chram(h, chid);
	return (v & CHRAM_ENABLE) && !(v & (CHRAM_PBDMA_FAULTED | CHRAM_ENG_FAULTED));
}

/* The instance block of the channel's runlist entry: INST_TARGET 5:4 (1
 * names none) and INST_PTR. A channel no runlist listed has none. */
static uint64_t ga100_chan_inst(const struct host *h, uint32_t chid, unsigned *target)
{
	uint64_t v = ent_peek(h, chid)->inst;
	*target = v & INST_LISTED ? (unsigned)(v & 3u) : 1u;
	return v & ~0xfffull;
}

/* UNVERIFIED: the Host's channel states as CHRAM shows them: PENDING 8
 * (work), ACQUIRE_FAIL 12 (blocked on an acquire), ON_PBDMA 6 and BUSY 3
 * (loaded). */
static void ga100_chan_set_status(struct host *h, uint32_t chid, unsigned status)
{
	uint32_t *v = chram(h, chid);
	*v &= ~(CHRAM_PENDING | CHRAM_ACQUIRE_FAIL | CHRAM_ON_PBDMA | CHRAM_BUSY);
	if (status == PCCSR_STATUS_PENDING)
		*v |= CHRAM_PENDING;
	else if (status == PCCSR_STATUS_PENDING_ACQUIRE)
		*v |= CHRAM_ACQUIRE_FAIL;
	else if (status == PCCSR_STATUS_ON_PBDMA)
		*v |= CHRAM_ON_PBDMA | CHRAM_BUSY;
}

static uint32_t fault_bit(enum host_fault f)
{
	return f == HOST_ENG_FAULTED ? CHRAM_ENG_FAULTED : CHRAM_PBDMA_FAULTED;
}

static bool ga100_chan_faulted(const struct host *h, uint32_t chid, enum host_fault f)
{
	return (*chram(h, chid) & fault_bit(f)) != 0;
}

static void ga100_chan_set_faulted(struct host *h, uint32_t chid, enum host_fault f, bool on)
{
	uint32_t *v = chram(h, chid);
	*v = on ? *v | fault_bit(f) : *v & ~fault_bit(f);
}

static void ga100_chan_info(const struct host *h, uint32_t chid, nvm_host_channel *out)
{
	uint32_t v = *chram(h, chid);
	unsigned target;
	out->inst = ga100_chan_inst(h, chid, &target);
	out->inst_target = target;
	out->bound = ent_peek(h, chid)->inst != 0;
	out->enabled = (v & CHRAM_ENABLE) != 0;
	out->busy = (v & CHRAM_BUSY) != 0;
	out->status = v & CHRAM_ON_PBDMA       ? PCCSR_STATUS_ON_PBDMA
	              : v & CHRAM_ACQUIRE_FAIL ? PCCSR_STATUS_PENDING_ACQUIRE
	              : v & CHRAM_PENDING      ? PCCSR_STATUS_PENDING
	                                       : PCCSR_STATUS_IDLE;
	out->pbdma_faulted = (v & CHRAM_PBDMA_FAULTED) != 0;
	out->eng_faulted = (v & CHRAM_ENG_FAULTED) != 0;
}

/* NV_CHRAM_CHANNEL: WRITE_CONTROL 0:0 says whether the ones of the written
 * value set (ONES_SET_BITS) or clear (ONES_CLEAR_BITS) the channel's bits;
 * ENABLE_CHANNEL 0x2, DISABLE_CHANNEL 0x3, RESET_PBDMA_FAULTED 0x11,
 * RESET_ENG_FAULTED 0x21, CLEAR_CHANNEL 0xFFFFFFFF. The read-only bits (BUSY,
 * ON_PBDMA, ON_ENG, PBDMA_BUSY, ENG_BUSY) are the Host's. */
static void wr_chram(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	struct host *h = ctx;
	uint32_t chid = (uint32_t)(stored - gs(h)->chram);
	uint32_t bits = written & CHRAM_RW;
	*stored = written & CHRAM_WRITE_CONTROL ? old & ~bits : old | bits;
	host_chan_changed(h, chid);
}

static const struct reg_desc chram_regs[] = {
	{ 0x0, "NV_CHRAM_CHANNEL", 0, 0, 0, NULL, wr_chram },
};

/* ---------------------------------------------------------------- runlist entries */

/* The runlist's own channel RAM: the entry's CHID (ID_HW 10:0, the decoder
 * already dropped bit 11) within runlist rl; the entry's INST and USERD
 * are the channel's from now on. Out of memory for the chunk, the channel
 * keeps the zero entry (no instance block: a load faults it). */
static uint32_t ga100_rl_chan(struct host *h, struct runlist *rl, const nvm_rl_entry *e)
{
	uint32_t idx = rl->id * GA100_CHRAM_N + (e->id & (GA100_CHRAM_N - 1));
	struct rl_ent **c = &gs(h)->ent[idx / ENT_CHUNK];
	if (!*c && !(*c = calloc(ENT_CHUNK, sizeof(**c))))
		return idx;
	/* INST_TARGET 1 names no aperture: kept, the load faults the channel. */
	(*c)[idx % ENT_CHUNK] = (struct rl_ent){ (e->inst_addr & ~0xfffull) | INST_LISTED | e->inst_target,
		                                 (e->userd_addr & ~0x1ffull) | e->userd_target };
	return idx;
}

/* A PBDMA loaded the channel: USERD comes from its runlist entry (RAMFC
 * dwords 2/3 are reserved on Ampere). The hidden NV_PPBDMA_USERD slots keep
 * it in gv100's form for the mechanism; NV_PPBDMA_STATUS_USERD shows it
 * (TARGET 1:0, VALID 7, PTR_LO 31:8; _HI). */
static void ga100_chan_load(struct host *h, struct pbdma *p)
{
	uint64_t u = ent_peek(h, p->chid)->userd;
	uint32_t target = (uint32_t)(u & 3u), lo = (uint32_t)u & ~0x1ffu;
	p->r[PBR_USERD] = lo | target;
	p->r[PBR_USERD_HI] = (uint32_t)(u >> 32) & 0xffu;
	p->r[PBR_STATUS_USERD] = lo | target | 1u << 7;
	p->r[PBR_STATUS_USERD_HI] = (uint32_t)(u >> 32);
}

/* The doorbell-style handle of C56F CLEAR_FAULTED and the VF doorbell:
 * RUNLIST_ID 22:16 (the runlist's DOORBELL_CONFIG ID), CHID 11:0 (the
 * layout of Turing's dev_usermode); -1 when a bit lies outside them or the
 * runlist or channel does not exist. */
static bool ga100_handle_chid(const struct host *h, uint32_t handle, uint32_t *chid)
{
	uint32_t rl = FIELD_GET(handle, 22, 16), c = FIELD_GET(handle, 11, 0);
	if ((handle & ~0x007f0fffu) || rl >= h->gen->nrunlist || c >= GA100_CHRAM_N)
		return false;
	*chid = rl * GA100_CHRAM_N + c;
	return true;
}

/* ---------------------------------------------------------------- status */

/* gv100's ENGINE_STATUS word in Ampere's NV_RUNLIST_ENGINE_STATUS0 form:
 * CTX_STATUS CTXSW_LOAD and _SAVE swapped their codes (6 and 5); TSGID_HW
 * 10:0. The instance words: TARGET 1:0, VALID 11, PTR_LO 31:12, _HI. */
static void inst_words(uint32_t v, uint32_t *lo, uint32_t *hi)
{
	uint64_t ptr = FIELD_GET(v, 27, 0);
	*lo = (uint32_t)(ptr << 12) | FIELD_GET(v, 29, 28) | (FIELD_GET(v, 31, 31) << 11);
	*hi = (uint32_t)(ptr >> 20);
}

static void ga100_engine_status(struct host *h, const struct runlist *rl, uint32_t status, uint32_t inst,
                                uint32_t next_inst)
{
	uint32_t st = FIELD_GET(status, 15, 13);
	st = st == 5 ? 6 : st == 6 ? 5 : st;
	status = FIELD_SET(status, 15, 13, st);
	status &= ~((1u << 11) | (1u << 12) | (1u << 27) | (1u << 28)); /* no ID_TYPE; 11-bit ids */
	uint32_t lo, hi;
	rl_reg_set(h, rl->id, RL_ENGINE_STATUS0, status);
	inst_words(inst, &lo, &hi);
	rl_reg_set(h, rl->id, 0x210, lo);
	rl_reg_set(h, rl->id, 0x214, hi);
	inst_words(next_inst, &lo, &hi);
	rl_reg_set(h, rl->id, 0x218, lo);
	rl_reg_set(h, rl->id, 0x21c, hi);
}

static void ga100_pbdma_status(struct host *h, const struct pbdma *p, bool loaded)
{
	(void)h;
	if (!loaded)
		p->r[PBR_STATUS_USERD] &= ~(1u << 7); /* VALID */
}

/* ---------------------------------------------------------------- PBDMA interrupt trees */

#define INTR0_TREE_BITS 0xCFAFE000u /* the INTR_0 bits EN_SET_TREE defines */
#define INTR1_TREE_BITS 0x8000001Fu

/* NV_PPBDMA_INTR_{0,1}_EN_SET_TREE(i,j) / _EN_CLEAR_TREE(i,j): one enable
 * per tree; SET ones enable, CLEAR ones disable, both read it. */
static void wr_tree(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	struct host *h = ctx;
	bool clear = r->offset >= 0x190;
	bool intr1 = (r->offset & 0x10u) == 0; /* 0x180, 0x1a0: INTR_1; 0x170, 0x190: INTR_0 */
	uint32_t mask = intr1 ? INTR1_TREE_BITS : INTR0_TREE_BITS;
	/* the SET slot of this tree (enum pbr: SET_TREE0..1 per INTR, then CLEAR) */
	uint32_t *set = clear ? stored - (PBR_INTR_0_EN_CLEAR_TREE0 - PBR_INTR_0_EN_SET_TREE0) : stored;
	uint32_t *clr = set + (PBR_INTR_0_EN_CLEAR_TREE0 - PBR_INTR_0_EN_SET_TREE0);
	uint32_t en = clear ? *set & ~(written & mask) : (old | (written & mask));
	*set = en;
	*clr = en;
	host_update_intr(h);
}

#define RW(off, name, reset)                                                                                           \
	{                                                                                                              \
		off, "NV_PPBDMA_" name, reset, 0xffffffffu, 0, NULL, NULL                                              \
	}
#define RO(off, name, reset)                                                                                           \
	{                                                                                                              \
		off, "NV_PPBDMA_" name, reset, 0, 0, NULL, NULL                                                        \
	}
#define HIDDEN(off, reset)                                                                                             \
	{                                                                                                              \
		off, NULL, reset, 0, 0, NULL, NULL                                                                     \
	}
#define TREE(off, name)                                                                                                \
	{                                                                                                              \
		off, "NV_PPBDMA_" name, 0, 0, 0, NULL, wr_tree                                                         \
	}

/* In enum pbr order (ga100_dev_pbdma). USERD/_HI, METHOD_CRC, TIMEOUT,
 * INTR_EN_0/1 and INTR_STALL/_1 are gone: hidden slots (the PBDMA freezes
 * on every pending interrupt: INTR_STALL all ones). GP_INFO is gh100's. */
#define AMPERE_PBDMA_REGS(gp_info)                                                                                     \
	{                                                                                                              \
		RW(0x000, "GP_PUT", 0), RW(0x004, "MEM_OP_A", 0), HIDDEN(0x008, 0), HIDDEN(0x00c, 0),                  \
		        RW(0x010, "SIGNATURE", 0), RW(0x014, "GP_GET", 0), RW(0x018, "GET", 0),                        \
		        RW(0x01c, "GET_HI", 0), RW(0x020, "TOP_LEVEL_GET", 0), RW(0x024, "TOP_LEVEL_GET_HI", 0),       \
		        RW(0x028, "REF", 0), RW(0x02c, "RUNTIME", 0), RW(0x030, "ACQUIRE", 0),                         \
		        RW(0x034, "ACQUIRE_DEADLINE", 0), RW(0x038, "SEM_ADDR_HI", 0), RW(0x03c, "SEM_ADDR_LO", 0),    \
		        RW(0x040, "SEM_PAYLOAD_LO", 0), RW(0x044, "SEM_EXECUTE", 0), RW(0x048, "GP_BASE", 0),          \
		        RW(0x04c, "GP_BASE_HI", 0), RW(0x050, "GP_FETCH", 0), RW(0x054, "PB_FETCH", 0),                \
		        RW(0x058, "PB_FETCH_HI", 0), RW(0x05c, "PUT", 0), RW(0x060, "PUT_HI", 0),                      \
		        RW(0x064, "MEM_OP_B", 0), RW(0x074, "GP_CRC", 0), RW(0x084, "PB_HEADER", 0),                   \
		        RW(0x088, "PB_COUNT", 0), RW(0x094, "SUBDEVICE", 0), RW(0x098, "PB_CRC", 0),                   \
		        RW(0x09c, "SEM_PAYLOAD_HI", 0), RW(0x0a0, "MEM_OP_C", 0), gp_info, RW(0x0ac, "TARGET", 0),     \
		        HIDDEN(0x0b0, 0), RW(0x0c0, "METHOD0", 0), RW(0x0c4, "DATA0", 0), RW(0x0c8, "METHOD1", 0),     \
		        RW(0x0cc, "DATA1", 0), RW(0x0d0, "METHOD2", 0), RW(0x0d4, "DATA2", 0),                         \
		        RW(0x0d8, "METHOD3", 0), RW(0x0dc, "DATA3", 0), RW(0x0e4, "HCE_CTRL", 0),                      \
		        RW(0x0f4, "CONFIG", 0), RW(0x0fc, "SET_CHANNEL_INFO", 0), RO(0x100, "STATUS", 0),              \
		        { 0x108, "NV_PPBDMA_INTR_0", 0, 0, 0xffffffffu, NULL, pbdma_wr_intr }, HIDDEN(0x10c, 0),       \
		        RO(0x110, "GP_SHADOW_0", 0), RO(0x114, "GP_SHADOW_1", 0), RO(0x118, "HDR_SHADOW", 0),          \
		        RO(0x120, "CHANNEL", 0), HIDDEN(0x12c, 0), HIDDEN(0x13c, 0xffffffffu),                         \
		        HIDDEN(0x140, 0xffffffffu),                                                                    \
		        { 0x148, "NV_PPBDMA_INTR_1", 0, 0, 0xffffffffu, NULL, pbdma_wr_intr }, HIDDEN(0x14c, 0),       \
		        RW(0x150, "HCE_DBG0", 0), RW(0x154, "HCE_DBG1", 0), RO(0x168, "STATUS_USERD", 0),              \
		        RO(0x16c, "STATUS_USERD_HI", 0), TREE(0x170, "INTR_0_EN_SET_TREE(0)"),                         \
		        TREE(0x174, "INTR_0_EN_SET_TREE(1)"), TREE(0x180, "INTR_1_EN_SET_TREE(0)"),                    \
		        TREE(0x184, "INTR_1_EN_SET_TREE(1)"), TREE(0x190, "INTR_0_EN_CLEAR_TREE(0)"),                  \
		        TREE(0x194, "INTR_0_EN_CLEAR_TREE(1)"), TREE(0x1a0, "INTR_1_EN_CLEAR_TREE(0)"),                \
		        TREE(0x1a4, "INTR_1_EN_CLEAR_TREE(1)"),                                                        \
	}

const struct reg_desc ampere_pbdma_regs[PBR_COUNT] = AMPERE_PBDMA_REGS(HIDDEN(0x0a4, 0));
const struct reg_desc hopper_pbdma_regs[PBR_COUNT] = AMPERE_PBDMA_REGS(RW(0x0a4, "GP_INFO", 0));

/* ---------------------------------------------------------------- usermode (VF) */

/* NV_VIRTUAL_FUNCTION_DOORBELL HANDLE 31:0: a handle that names no channel
 * is dropped (UNVERIFIED, as Turing's dev_usermode says). */
static void wr_vf_doorbell(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct host *h = ctx;
	*stored = 0;
	uint32_t chid;
	if (!ga100_handle_chid(h, written, &chid)) {
		emit(h->gpu, NVM_EV_GUEST_ERROR, "host", "bad_doorbell", R_VF + 0x90, written,
		     "NV_VIRTUAL_FUNCTION_DOORBELL handle 0x%x names no channel", written);
		return;
	}
	host_doorbell(h, chid);
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

/* ---------------------------------------------------------------- PTOP */

/* NV_PTOP_DEVICE_INFO2 rows as nouveau's top/ga100.c reads them: row 0
 * TYPE 29:24, INST 19:16, FAULT 6:0 (UNVERIFIED: the model fills 10:0, the
 * DEV_FAULT_ID width RM publishes for gb100's dev_top, so that gh100's
 * GRAPHICS 384 fits; ga100's ids are below 128); row 1 ADDR 23:12, RESET 4:0; row 2
 * RUNLIST PRI base 23:10, ENGINE 1:0 (the engine's index in its runlist);
 * bit 31 chains a row to the next. */
static unsigned ptop_fill(const struct host *h, uint32_t *rows)
{
	const struct ampere_gen *a = agen(h);
	unsigned n = 0;
	for (size_t i = 0; i < a->ndev && n + 3 <= GA100_PTOP_ROWS; i++) {
		const struct ptop_dev *d = &a->dev[i];
		uint32_t fault = nvm_mmu_gen_engine_id(h->gpu, d->fault); /* the GMMU generation's id */
		rows[n++] = 1u << 31 | (uint32_t)d->type << 24 | (uint32_t)d->inst << 16 | (fault & 0x7ffu);
		rows[n++] = 1u << 31 | (d->addr & 0x00fff000u) | (d->reset & 0x1fu);
		rows[n++] = (rl_addr(d->runlist, 0) & 0x00fffc00u) | (d->rl_engine & 3u);
	}
	return n;
}

/* ---------------------------------------------------------------- create */

static nvm_status ga100_create(struct host *h)
{
	const struct ampere_gen *a = agen(h);
	unsigned nrl = h->gen->nrunlist;
	if (nrl > GA100_RL_MAX || NRLREGS > 128)
		return NVM_ERR_CHIP;
	struct ga100 *g = calloc(1, sizeof(*g));
	if (!g)
		return NVM_ERR_NOMEM;
	h->gs = g;
	g->chram = malloc((size_t)nrl * GA100_CHRAM_N * sizeof(uint32_t)); /* bus_add clears it */
	if (!g->chram)
		return NVM_ERR_NOMEM;
	g->rl_array = (struct reg_array){ R_RL_BASE, R_RL_STRIDE, nrl, rl_regs, NRLREGS, g->rl_vals };
	memset(g->rl_slot, RL_NO_SLOT, sizeof(g->rl_slot));
	for (size_t i = 0; i < NRLREGS; i++)
		if (rl_regs[i].name && rl_regs[i].offset < R_RL_STRIDE && !(rl_regs[i].offset & 3u))
			g->rl_slot[rl_regs[i].offset / 4] = (uint8_t)i;
	for (unsigned i = 0; i < nrl; i++) {
		struct rl_intr_regs *ri = &g->ri[i];
		*ri = (struct rl_intr_regs){ rl_slot(h, i, RL_INTR_0),
			                     { rl_slot(h, i, RL_INTR_0_EN_SET0), rl_slot(h, i, RL_INTR_0_EN_SET0 + 8) },
			                     { rl_slot(h, i, RL_INTR_VECTORID), rl_slot(h, i, RL_INTR_VECTORID + 4) } };
		if (!ri->intr0 || !ri->en[0] || !ri->en[1] || !ri->vectorid[0] || !ri->vectorid[1])
			return NVM_ERR_CHIP;
	}
	const struct reg_block rlb = { "host", R_RL_BASE, nrl * R_RL_STRIDE, NULL, 0,   h,
		                       NULL,   NULL,      &g->rl_array,      1,    NULL };
	nvm_status st = bus_add(h->gpu, &rlb);
	if (st)
		return st;
	g->chram_array = (struct reg_array){ R_CHRAM_BASE, 4, nrl * GA100_CHRAM_N, chram_regs, 1, g->chram };
	const struct reg_block cb = { "host", R_CHRAM_BASE, nrl * GA100_CHRAM_N * 4, NULL, 0,   h,
		                      NULL,   NULL,         &g->chram_array,         1,    NULL };
	st = bus_add(h->gpu, &cb);
	if (st)
		return st;
	/* The device-info table. */
	static const struct reg_desc ptop_regs[] = { { R_PTOP_CFG, "NV_PTOP_DEVICE_INFO_CFG", 0, 0, 0, NULL, NULL } };
	static const struct reg_desc ptop_row[] = { { 0x0, "NV_PTOP_DEVICE_INFO2", 0, 0, 0, NULL, NULL } };
	g->ptop_array = (struct reg_array){ R_PTOP_INFO, 4, GA100_PTOP_ROWS, ptop_row, 1, g->ptop_vals };
	const struct reg_block pt = { "ptop",    R_PTOP_CFG, R_PTOP_INFO + 4 * GA100_PTOP_ROWS - R_PTOP_CFG,
		                      ptop_regs, 1,          h,
		                      NULL,      NULL,       &g->ptop_array,
		                      1,         NULL };
	st = bus_add(h->gpu, &pt);
	if (st)
		return st;
	unsigned rows = ptop_fill(h, g->ptop_vals);
	bus_set(h->gpu, R_PTOP_CFG, rows << 20); /* NUM_ROWS 31:20 */
	/* The VF usermode page. */
	static const struct reg_desc vf_regs[] = {
		{ R_VF + 0x00, "NV_VIRTUAL_FUNCTION_CFG0", 0, 0, 0, NULL, NULL },
		{ R_VF + 0x80, "NV_VIRTUAL_FUNCTION_TIME_0", 0, 0, 0, rd_time0, NULL },
		{ R_VF + 0x84, "NV_VIRTUAL_FUNCTION_TIME_1", 0, 0, 0, rd_time1, NULL },
		{ R_VF + 0x90, "NV_VIRTUAL_FUNCTION_DOORBELL", 0, 0xffffffffu, 0, NULL, wr_vf_doorbell },
	};
	const struct reg_block vf = { "host", R_VF, 0x100, vf_regs, 4, h, NULL, NULL, NULL, 0, NULL };
	st = bus_add(h->gpu, &vf);
	if (st)
		return st;
	bus_set(h->gpu, R_VF, a->usermode_class); /* CFG0 USERMODE_CLASS_ID */
	/* The runlists' read-only configuration. */
	for (unsigned i = 0; i < nrl; i++) {
		const struct runlist *rl = &h->rl[i];
		rl_reg_set(h, i, RL_CHANNEL_CONFIG, (R_CHRAM_BASE + i * GA100_CHRAM_N * 4) | 11u); /* LOG2_2K */
		rl_reg_set(h, i, RL_DOORBELL_CONFIG, i << 16);
		for (unsigned q = 0; q < rl->desc->npbdma && q < 2; q++)
			rl_reg_set(h, i, RL_PBDMA_CONFIG + 4 * q,
			           (R_PBDMA_BASE + rl->pb[q]->id * PBDMA_STRIDE) | 1u << 31); /* VALID */
	}
	/* UNVERIFIED: VECTORID(j) VECTOR resets to 0x40 + 2i + j for runlist i
	 * (the manual gives no reset value; nouveau only reads it). */
	for (unsigned i = 0; i < nrl; i++)
		for (unsigned j = 0; j < 2; j++)
			rl_reg_set(h, i, RL_INTR_VECTORID + 4 * j, 0xc0000000u | (0x40u + 2 * i + j));
	intr_init(&h->intr, h->gpu, &ga100_intr, h);
	return intr_tree_init(&h->tree, h->gpu, a->tree);
}

static void ga100_destroy(struct host *h)
{
	struct ga100 *g = h->gs;
	if (g) {
		free(g->chram);
		for (size_t i = 0; i < sizeof(g->ent) / sizeof(g->ent[0]); i++)
			free(g->ent[i]);
	}
	free(g);
}

/* ---------------------------------------------------------------- host class C56F */

/* AMPERE_CHANNEL_GPFIFO_A (clc56f.h): C36F's methods without CRC_CHECK
 * (0x7c); CLEAR_FAULTED takes the handle (ops.handle_chid).
 * UNVERIFIED: YIELD OP 2 (RUNLIST_TIMESLICE, gone from the header) still
 * ends the timeslice. */
const host_method_fn c56f_methods[64] = HOST_METHODS(hm_mem_op_d, NULL, hm_clear_faulted_handle);

/* ---------------------------------------------------------------- the generation */

/* ---------------------------------------------------------------- snapshots */

/* The runlist entries' INST and USERD (the rest of the generation's state
 * is registers): the chunks that were allocated, entry by entry. */
static void ga100_snap_save(const struct host *h, struct snap_w *w)
{
	const struct ga100 *g = gs(h);
	uint32_t nchunk = h->gen->nchan / ENT_CHUNK;
	for (uint32_t i = 0; i < nchunk; i++) {
		if (!g->ent[i])
			continue;
		snap_u32(w, i);
		for (unsigned k = 0; k < ENT_CHUNK; k++) {
			snap_u64(w, g->ent[i][k].inst);
			snap_u64(w, g->ent[i][k].userd);
		}
	}
	snap_u32(w, UINT32_MAX);
}

/* An entry as ga100_rl_chan leaves it: none, or INST 4 KiB aligned with
 * INST_LISTED and a TARGET, USERD 512-byte aligned with a TARGET. */
static bool ent_ok(uint64_t inst, uint64_t userd)
{
	if (!inst && !userd)
		return true;
	return (inst & 0xfffu & ~3ull) == INST_LISTED && (userd & 0x1ffu) <= 3u;
}

static void ga100_snap_load(struct host *h, struct snap_r *r, bool apply)
{
	struct ga100 *g = gs(h);
	uint32_t nchunk = h->gen->nchan / ENT_CHUNK;
	if (apply)
		for (uint32_t i = 0; i < nchunk; i++) {
			free(g->ent[i]);
			g->ent[i] = NULL;
		}
	int64_t last = -1;
	for (;;) {
		uint32_t i = snap_get_u32(r);
		if (r->err || i == UINT32_MAX)
			return;
		if (i >= nchunk || (int64_t)i <= last) {
			r->err = NVM_ERR_CORRUPT; /* chunks in order, each once */
			return;
		}
		last = i;
		struct rl_ent *c = apply ? calloc(ENT_CHUNK, sizeof(*c)) : NULL;
		if (apply && !c) {
			r->err = NVM_ERR_NOMEM;
			return;
		}
		if (apply)
			g->ent[i] = c;
		for (unsigned k = 0; k < ENT_CHUNK; k++) {
			uint64_t inst = snap_get_u64(r), userd = snap_get_u64(r);
			if (!r->err && !ent_ok(inst, userd))
				r->err = NVM_ERR_CORRUPT;
			if (c)
				c[k] = (struct rl_ent){ inst, userd };
		}
	}
}

const struct host_gen_ops ga100_ops = {
	.create = ga100_create,
	.destroy = ga100_destroy,
	.chan_runnable = ga100_chan_runnable,
	.chan_inst = ga100_chan_inst,
	.chan_set_status = ga100_chan_set_status,
	.chan_faulted = ga100_chan_faulted,
	.chan_set_faulted = ga100_chan_set_faulted,
	.chan_info = ga100_chan_info,
	.update_intr = ga100_update_intr,
	.nonstall = ga100_nonstall,
	.sched_error = ga100_sched_error,
	.chsw_error = ga100_chsw_error,
	.sched_disabled = ga100_sched_disabled,
	.runlist_taken = ga100_runlist_taken,
	.engine_status = ga100_engine_status,
	.pbdma_status = ga100_pbdma_status,
	.rl_chan = ga100_rl_chan,
	.chan_load = ga100_chan_load,
	.handle_chid = ga100_handle_chid,
	.snap_save = ga100_snap_save,
	.snap_load = ga100_snap_load,
};

/* ga100_dev_ram NV_RAMRL_ENTRY_ID_HW 10:0: the decoder of gv100 with bit 11
 * of the id counted as a stray bit (the hardware keeps 11 bits). */
void ampere_rl_entry_decode(const uint8_t *raw, nvm_rl_entry *out)
{
	nvm_rl_entry_decode(raw, out);
	if (out->id & ~(GA100_CHRAM_N - 1)) {
		out->stray[2] |= out->id & ~(GA100_CHRAM_N - 1);
		out->id &= GA100_CHRAM_N - 1;
	}
}

/* INTR_BAD_TSG CODE per malformation (ga100_dev_runlist). UNVERIFIED: the
 * manual lists the codes, not which case raises which. */
const uint8_t ampere_bad_tsg_codes[NVM_HF_CHECK_COUNT] = {
	[NVM_HF_CHAN_OUTSIDE_TSG] = 5, /* EXPECTED_A_TSG_HEADER */
	[NVM_HF_TSG_LENGTH_ZERO] = 1,  /* ZERO_LENGTH_TSG */
	[NVM_HF_TSG_TOO_LONG] = 2,     /* MAX_LENGTH_EXCEEDED */
	[NVM_HF_TSG_CUT_BY_TSG] = 4,   /* EXPECTED_A_CHID_ENTRY */
	[NVM_HF_TSG_CUT_BY_END] = 3,   /* RUNLIST_OVERFLOW */
};

/* UNVERIFIED topology of GA100: runlist 0 is GR with GRCOPY (CE0, the
 * runlist's engine 1) on subchannel 4 and two PBDMAs; runlists 1..4 are
 * the copy engines CE2..CE5, one PBDMA each. MMU engine ids as gv100
 * numbers them (GR 64, CE0 15, CE2.. 17..): the chip's GMMU generation
 * gives the ids the engines use (nvm_mmu_gen_engine_id; gh100 GR 384,
 * CE0 43). */
static const struct host_rl_desc ga100_runlists[] = {
	{ "gr", "recorder", "grce", NVM_MMU_ENG_GRAPHICS, 15, 0, { 0, 1 }, 2 },
	{ "ce2", "ce", NULL, 17, 0, 0, { 2 }, 1 },
	{ "ce3", "ce", NULL, 18, 0, 0, { 3 }, 1 },
	{ "ce4", "ce", NULL, 19, 0, 0, { 4 }, 1 },
	{ "ce5", "ce", NULL, 20, 0, 0, { 5 }, 1 },
};

/* PTOP rows: TYPE 0 GR, 0x13 CE (nouveau top/ga100.c). UNVERIFIED: the
 * engines' PRI addresses and reset ids. */
const struct ptop_dev ampere_devs[] = {
	{ 0x00, 0, 64, 0x400000, 12, 0, 0, 0, 0 }, /* GR0 */
	{ 0x13, 0, 15, 0x104000, 6, 0, 1, 0, 0 },  /* CE0: GRCOPY of runlist 0 */
	{ 0x13, 2, 17, 0x106000, 8, 1, 0, 0, 0 },  /* CE2 */
	{ 0x13, 3, 18, 0x107000, 9, 2, 0, 0, 0 },  /* CE3 */
	{ 0x13, 4, 19, 0x108000, 10, 3, 0, 0, 0 }, /* CE4 */
	{ 0x13, 5, 20, 0x109000, 11, 4, 0, 0, 0 }, /* CE5 */
};
const size_t ampere_ndevs = sizeof(ampere_devs) / sizeof(ampere_devs[0]);

/* The CPU interrupt tree (ga100 dev_vm, NV_VIRTUAL_FUNCTION at 0x30000 of
 * the VF aperture, BAR0 0xBB0000 through NV_VIRTUAL_FUNCTION_FULL_PHYS_OFFSET):
 * CPU_INTR_LEAF(i) 0x1000 + 4i, LEAF_EN_SET(i) 0x1200 + 4i, LEAF_EN_CLEAR(i)
 * 0x1400 + 4i, __SIZE_1 8; CPU_INTR_TOP(0) 0x1600, TOP_EN_SET 0x1608,
 * TOP_EN_CLEAR 0x1610; a TOP SUBTREE bit per two leaves. */
const struct intr_tree_desc ampere_intr_tree = { R_VF, 0x1000, 0x1200, 0x1400, 0x1600, 0x1608, 0x1610, 8, 2 };

/* GR classes of GA100 (the pushbuffer profile's: compute C6C0, C697,
 * A140, 902D). */
static const uint32_t ga100_gr_classes[] = { 0xC697, 0xC6C0, 0xA140, 0x902D };

#define NRL (sizeof(ga100_runlists) / sizeof(ga100_runlists[0]))

const struct ampere_gen host_ga100_gen = {
	.g =
	        {
	                .name = "ga100",
	                .nchan = NRL * GA100_CHRAM_N,
	                .npbdma = 6,
	                .nrunlist = NRL,
	                .rl = ga100_runlists,
	                .pbdma_base = R_PBDMA_BASE,
	                .pbdma_stride = PBDMA_STRIDE,
	                .pbdma_regs = ampere_pbdma_regs,
	                .r_userd_writeback = 0,
	                .r_clear_faulted_timeout = 0,
	                .r_doorbell = R_VF + 0x90,
	                .host_class = 0xC56F,
	                .methods = c56f_methods,
	                .sig_valid = 0xface,
	                .sig_host_class = 50543, /* NV_PPBDMA_SIGNATURE_HW_HOST_CLASS_ID (0xC56F) */
	                .gr_classes = ga100_gr_classes,
	                .ngr_classes = sizeof(ga100_gr_classes) / sizeof(ga100_gr_classes[0]),
	                .ce_class = 0xC6B5,
	                .gp_limit2_reg = PBR_GP_BASE_HI,
	                .gp_limit2_lo = 16,
	                .gp_base_hi_bits = 8,
	                .sem_addr_hi_bits = 8,
	                .gpfifo_va_bits = 40,
	                .sem_red_valid = sem_red_valid,
	                .layouts = hf_ga100_layouts,
	                .rl_entry_decode = ampere_rl_entry_decode,
	                .bad_tsg_codes = ampere_bad_tsg_codes,
	                .state_bytes = sizeof(struct ga100) + NRL * GA100_CHRAM_N * 20u,
	                .ops = &ga100_ops,
	        },
	.rl_base_shift = 12, /* NV_RUNLIST_SUBMIT_BASE_LO_PTR_ALIGN_SHIFT */
	.usermode_class = 50273, /* NV_VIRTUAL_FUNCTION_CFG0_USERMODE_CLASS_ID_VALUE (0xC461) */
	.tree = &ampere_intr_tree,
	.dev = ampere_devs,
	.ndev = sizeof(ampere_devs) / sizeof(ampere_devs[0]),
};
