/*
 * Test environment for the Volta Host: builds, in simulated memory, what a
 * driver builds (volta-facts.md section 3, "the same steps, as nouveau does
 * them for Volta"): page tables, instance blocks with RAMFC, USERD, GPFIFO
 * rings, pushbuffers and runlists, and pokes the registers as it does.
 * Include after cmocka.h and bar0.h.
 */
#ifndef TEST_HOST_ENV_H
#define TEST_HOST_ENV_H

#include <stdlib.h>
#include <string.h>

#include "mem_back.h"
#include "mmu_pt.h"
#include "nvmodel/host.h"
#include "nvmodel/pushbuf.h"

#define ENV_GP_ENTRIES 64u /* LIMIT2 6 */
#define ENV_PB_BYTES   0x10000u

struct env_chan {
	uint32_t chid;
	uint64_t inst, userd, gpfifo_va, pb_va;
	uint64_t gpfifo_pa, pb_pa;
	uint32_t gp_put;
	uint32_t pb_used; /* bytes of the PB area written */
};

struct env;

/* What a driver writes differently per Host generation (nouveau's gv100 and
 * tu102 code): the runlist submit and the doorbell. */
struct env_gen {
	const char *chip;
	void (*submit)(struct env *e, unsigned id, uint64_t addr, uint32_t n);
	void (*doorbell)(struct env *e, const struct env_chan *c);
	/* Optional: enables the channel (NULL: PCCSR bind and ENABLE_SET). */
	void (*enable)(struct env *e, const struct env_chan *c);
	/* Hopper: ver3 page tables; RAMFC GP_BASE_HI without LIMIT2, GP_INFO (RM). */
	int hopper;
};

struct env {
	nvm_gpu *gpu;
	const struct env_gen *gen;
	struct ptb pt;
	uint64_t va_next;
	struct env_chan ch[8];
	unsigned runlist; /* Ampere: the runlist of the channels env_chan makes */
};

static inline uint64_t env_alloc(struct env *e, uint64_t size, uint64_t align)
{
	return ptb_alloc(&e->pt, size, align);
}

/* Maps size bytes of fresh VRAM (4 KiB pages) at the next VA. */
static inline uint64_t env_map(struct env *e, uint64_t size, uint64_t *pa)
{
	uint64_t va = e->va_next, p = env_alloc(e, size, 4096);
	for (uint64_t o = 0; o < size; o += 4096)
		ptb_map(&e->pt, va + o, 4096, e->pt.v3 ? (p + o) | 1 : ptb_pte(p + o, 0, 0, 0)); /* ver3 PTE: 51:12 */
	e->va_next += (size + 0xffff) & ~0xffffull;
	*pa = p;
	return va;
}

/* gv100_dev_fifo NV_PFIFO_RUNLIST_BASE / NV_PFIFO_RUNLIST ID 23:20. */
static inline void env_submit_gv100(struct env *e, unsigned id, uint64_t a, uint32_t n)
{
	wr(e->gpu, 0x2270, (uint32_t)(a >> 12));
	wr(e->gpu, 0x2274, id << 20 | n);
}

/* gv100_dev_usermode NOTIFY_CHANNEL_PENDING = chid. */
static inline void env_doorbell_gv100(struct env *e, const struct env_chan *c)
{
	wr(e->gpu, 0x810090, c->chid);
}

/* tu104 dev_fifo RUNLIST_BASE_LO/HI, SUBMIT(i) at 0x2B00 + 16i (nouveau
 * tu102_runl_commit: lo, hi, count). */
static inline void env_submit_tu102(struct env *e, unsigned id, uint64_t a, uint32_t n)
{
	wr(e->gpu, 0x2b00 + 16 * id, (uint32_t)a);
	wr(e->gpu, 0x2b04 + 16 * id, (uint32_t)(a >> 32));
	wr(e->gpu, 0x2b08 + 16 * id, n);
}

/* NV_VIRTUAL_FUNCTION_DOORBELL (0xBB0090) = RUNLIST_ID_ALL 15 << 16 | chid
 * (tu104 dev_usermode; nouveau names the channel's runlist). */
static inline void env_doorbell_tu102(struct env *e, const struct env_chan *c)
{
	wr(e->gpu, 0xbb0090, 15u << 16 | c->chid);
}

/* Ampere / Hopper (ga100_dev_runlist): runlist id's register space as
 * nouveau finds it, the id-th distinct RUNLIST PRI base of the device-info
 * table (NV_PTOP_DEVICE_INFO_CFG 0x224FC NUM_ROWS 31:20; rows at 0x22800 +
 * 4i chained by bit 31, the third the PRI base 23:10). */
static inline uint32_t env_rl_base(struct env *e, unsigned id)
{
	uint32_t n = rd(e->gpu, 0x224fc) >> 20, row = 0, seen = 0, last = ~0u;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t v = rd(e->gpu, 0x22800 + 4 * i);
		if (++row == 3 && (v & 0x00fffc00u) != last) {
			last = v & 0x00fffc00u;
			if (seen++ == id)
				return last;
		}
		if (!(v >> 31))
			row = 0;
	}
	fail_msg("runlist %u not in the device-info table", id);
	return 0;
}

/* nouveau ga100_runl_commit: SUBMIT_BASE_LO, _BASE_HI, SUBMIT. */
static inline void env_submit_ga100(struct env *e, unsigned id, uint64_t a, uint32_t n)
{
	uint32_t b = env_rl_base(e, id);
	wr(e->gpu, b + 0x080, (uint32_t)a);
	wr(e->gpu, b + 0x084, (uint32_t)(a >> 32));
	wr(e->gpu, b + 0x088, n);
}

/* NV_VIRTUAL_FUNCTION_DOORBELL = DOORBELL_CONFIG ID << 16 | chid; the
 * channel's runlist is the env's e->runlist (0 unless a test says). */
static inline void env_doorbell_ga100(struct env *e, const struct env_chan *c)
{
	uint32_t b = env_rl_base(e, e->runlist);
	wr(e->gpu, 0xbb0090, (rd(e->gpu, b + 0x008) >> 16) << 16 | c->chid);
}

/* nouveau ga100_chan_start: CHRAM(chid) = ENABLE_CHANNEL; INTERNAL_DOORBELL. */
static inline void env_enable_ga100(struct env *e, const struct env_chan *c)
{
	uint32_t b = env_rl_base(e, e->runlist);
	wr(e->gpu, (rd(e->gpu, b + 0x004) & ~0xfu) + 4 * c->chid, 2);
	wr(e->gpu, b + 0x090, c->chid);
}

static const struct env_gen env_gens[] = {
	{ "gv100", env_submit_gv100, env_doorbell_gv100, NULL, 0 },
	{ "tu102", env_submit_tu102, env_doorbell_tu102, NULL, 0 },
	{ "ga100", env_submit_ga100, env_doorbell_ga100, env_enable_ga100, 0 },
	{ "ga102", env_submit_ga100, env_doorbell_ga100, env_enable_ga100, 0 },
	{ "gh100", env_submit_ga100, env_doorbell_ga100, env_enable_ga100, 1 },
};

/* A fresh GPU of chip (gv100, tu102) as its driver initialises it: tu102
 * sets NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE (nouveau
 * tu102_fifo_init_pbdmas). */
static inline void env_init_chip(struct env *e, const char *chip)
{
	memset(e, 0, sizeof(*e));
	for (size_t i = 0; i < sizeof(env_gens) / sizeof(env_gens[0]); i++)
		if (!strcmp(env_gens[i].chip, chip))
			e->gen = &env_gens[i];
	assert_non_null(e->gen);
	nvm_config cfg = { .chip = chip, .vram_size = 64ull << 20, .sysmem_size = 64ull << 20 };
	assert_int_equal(nvm_open(&cfg, &e->gpu), NVM_OK);
#ifdef ENV_MEM
	assert_int_equal(env_back(e->gpu, ENV_MEM), NVM_OK);
#endif
	ptb_init(&e->pt, e->gpu, NVM_AP_VRAM, 0x100000);
	e->pt.v3 = e->gen->hopper;
	e->va_next = 0x200000000ull;
	if (!strcmp(chip, "tu102"))
		wr(e->gpu, 0xb65000, rd(e->gpu, 0xb65000) | 1u << 31);
}

/* The chip of env_init: gv100, or the one a test build names (tests/CMakeLists.txt
 * builds the Host tests again with ENV_CHIP "tu102": the behaviour Turing shares). */
#ifndef ENV_CHIP
#define ENV_CHIP "gv100"
#endif
/* The MMU's FAULT_INST_LO (ENGINE_ID 8:0): NV_PFB_PRI_MMU_FAULT_INST_LO on
 * gv100; Turing on: NV_VIRTUAL_FUNCTION_PRIV_MMU_FAULT_INST_LO (0xB83088). */
#define ENV_FAULT_INST_LO (strcmp(ENV_CHIP, "gv100") ? 0xb83088u : 0x100e54u)

static inline void env_init(struct env *e)
{
	env_init_chip(e, ENV_CHIP);
}

/* Per generation, what the Host tests read back: the register with runlist
 * 0's PENDING (+ id * stride), the one with its LENGTH 15:0, and the copy
 * engines' class. */
struct env_rl_regs {
	const char *chip;
	uint32_t info, stride, pending_bit, length;
	uint32_t ce_class;
};

static const struct env_rl_regs env_rl_regs_of[] = {
	/* gv100_dev_fifo NV_PFIFO_ENG_RUNLIST(i) PENDING 20:20, LENGTH 15:0; clc3b5.h */
	{ "gv100", 0x2284, 8, 20, 0x2284, 0xc3b5 },
	/* tu104 dev_fifo RUNLIST_SUBMIT_INFO(i) PENDING 15:15, RUNLIST_SUBMIT(i) LENGTH; clc5b5.h */
	{ "tu102", 0x2b0c, 16, 15, 0x2b08, 0xc5b5 },
};

static inline const struct env_rl_regs *env_rl_regs(struct env *e)
{
	for (size_t i = 0; i < sizeof(env_rl_regs_of) / sizeof(env_rl_regs_of[0]); i++)
		if (!strcmp(env_rl_regs_of[i].chip, e->gen->chip))
			return &env_rl_regs_of[i];
	fail_msg("no env_rl_regs_of row for %s", e->gen->chip);
	return NULL;
}

/* The submitted runlist id is not taken yet (the generation's PENDING). */
static inline int env_rl_pending(struct env *e, unsigned id)
{
	const struct env_rl_regs *r = env_rl_regs(e);
	return (int)(rd(e->gpu, r->info + id * r->stride) >> r->pending_bit & 1);
}

/* LENGTH 15:0 of runlist id's submit. */
static inline uint32_t env_rl_length(struct env *e, unsigned id)
{
	const struct env_rl_regs *r = env_rl_regs(e);
	return rd(e->gpu, r->length + id * r->stride) & 0xffff;
}

/* The copy engines' class (SET_OBJECT on subchannel 4). */
static inline uint32_t env_ce_class(struct env *e)
{
	return env_rl_regs(e)->ce_class;
}

static inline void env_fini(struct env *e)
{
	nvm_close(e->gpu);
}

/* RAMFC as gv100_chan_ramfc_write writes it (volta-facts.md section 3),
 * plus NV_RAMFC_TARGET ENG_CTX_VALID / CE_CTX_VALID. */
static inline void env_ramfc(struct env *e, struct env_chan *c)
{
	nvm_gpu *g = e->gpu;
	uint64_t f = c->inst;
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x008, (uint32_t)c->userd); /* USERD, TARGET VID_MEM */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x00c, (uint32_t)(c->userd >> 32));
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x010, 0x0000face); /* SIGNATURE */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x030, 0x7ffff902); /* ACQUIRE */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x048, (uint32_t)c->gpfifo_va);
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x04c, (uint32_t)(c->gpfifo_va >> 32) | (6u << 16)); /* LIMIT2 */
	if (e->gen && e->gen->hopper) { /* RM kfifoWriteRamfcGpfifo_GH100: GP_BASE_HI OFFSET, GP_INFO LIMIT2 */
		nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x04c, (uint32_t)(c->gpfifo_va >> 32));
		nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x0a4, 6);
	}
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x084, 0x20400000); /* PB_HEADER */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x094, 0x30000fff); /* SUBDEVICE */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x0ac, 3u << 16);   /* TARGET: ENG_CTX_VALID, CE_CTX_VALID */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x0e4, 0x20);       /* HCE_CTRL */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x0e8, c->chid);
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x0f4, 0x1100); /* CONFIG: USERD_WRITEBACK, PRIVILEGED */
	nvm_mem_wr32(g, NVM_AP_VRAM, f + 0x0f8, 0x10003080);
}

/* A channel: instance block, USERD, GPFIFO and PB area; bound and enabled. */
static inline struct env_chan *env_chan(struct env *e, unsigned slot, uint32_t chid)
{
	struct env_chan *c = &e->ch[slot];
	c->chid = chid;
	c->inst = env_alloc(e, 4096, 4096);
	c->userd = env_alloc(e, 512, 512);
	c->gpfifo_va = env_map(e, ENV_GP_ENTRIES * 8, &c->gpfifo_pa);
	c->pb_va = env_map(e, ENV_PB_BYTES, &c->pb_pa);
	ptb_ramin(e->gpu, NVM_AP_VRAM, c->inst, 0, e->pt.pdb, 0, 0);
	env_ramfc(e, c);
	if (e->gen && e->gen->enable) {
		e->gen->enable(e, c); /* Ampere: the runlist entry carries the instance block */
		return c;
	}
	wr(e->gpu, 0x800000 + chid * 8, 0x80000000u | (uint32_t)(c->inst >> 12)); /* bind */
	wr(e->gpu, 0x800004 + chid * 8, 0x400);                                   /* ENABLE_SET */
	return c;
}

/* Runlist entries as nouveau writes them (TIMEOUT 128, SCALE 3 unless given). */
static inline void env_rl_tsg(uint32_t *w, uint32_t tsgid, uint32_t len, uint32_t timeout, uint32_t scale)
{
	w[0] = (timeout << 24) | (scale << 16) | 1;
	w[1] = len;
	w[2] = tsgid;
	w[3] = 0;
}

static inline void env_rl_chan(uint32_t *w, const struct env_chan *c, uint32_t runq)
{
	w[0] = (uint32_t)c->userd | runq << 1;
	w[1] = (uint32_t)(c->userd >> 32);
	w[2] = (uint32_t)c->inst | c->chid;
	w[3] = (uint32_t)(c->inst >> 32);
}

/* Writes n 16-byte entries at a fresh 4K and commits them on runlist id. */
static inline void env_submit(struct env *e, unsigned id, const uint32_t *w, uint32_t n)
{
	uint64_t a = env_alloc(e, n ? n * 16 : 16, 4096);
	nvm_mem_write(e->gpu, NVM_AP_VRAM, a, w, n * 16);
	(e->gen ? e->gen : &env_gens[0])->submit(e, id, a, n); /* gv100 unless env_init_chip said */
}

/* One TSG holding the given channels, on runlist id. */
static inline void env_submit_tsg(struct env *e, unsigned id, uint32_t tsgid, struct env_chan **chs, unsigned n)
{
	uint32_t w[4 * 9];
	env_rl_tsg(w, tsgid, n, 128, 3);
	for (unsigned i = 0; i < n; i++)
		env_rl_chan(&w[4 * (i + 1)], chs[i], 0);
	env_submit(e, id, w, n + 1);
}

/* Appends PB words to the channel's PB area; returns their VA. */
static inline uint64_t env_pb(struct env *e, struct env_chan *c, const uint32_t *w, uint32_t n)
{
	uint64_t va = c->pb_va + c->pb_used;
	assert_true(c->pb_used + n * 4 <= ENV_PB_BYTES);
	nvm_mem_write(e->gpu, NVM_AP_VRAM, c->pb_pa + c->pb_used, w, n * 4);
	c->pb_used += n * 4;
	return va;
}

/* Writes a GP entry (volta-facts.md a) at GP_PUT and advances GP_PUT. */
static inline void env_gp_raw(struct env *e, struct env_chan *c, uint32_t e0, uint32_t e1)
{
	uint64_t a = c->gpfifo_pa + (uint64_t)c->gp_put * 8;
	nvm_mem_wr32(e->gpu, NVM_AP_VRAM, a, e0);
	nvm_mem_wr32(e->gpu, NVM_AP_VRAM, a + 4, e1);
	c->gp_put = (c->gp_put + 1) % ENV_GP_ENTRIES;
}

static inline void env_gp(struct env *e, struct env_chan *c, uint64_t va, uint32_t ndw, uint32_t flags_e1)
{
	env_gp_raw(e, c, (uint32_t)va, (uint32_t)(va >> 32) | ndw << 10 | flags_e1);
}

/* USERD GP_PUT (+0x8C), then the generation's doorbell. */
static inline void env_kick(struct env *e, struct env_chan *c)
{
	nvm_mem_wr32(e->gpu, NVM_AP_VRAM, c->userd + 0x8c, c->gp_put);
	(e->gen ? e->gen : &env_gens[0])->doorbell(e, c);
}

/* Pushes words as one segment and kicks. */
static inline void env_push(struct env *e, struct env_chan *c, const uint32_t *w, uint32_t n)
{
	uint64_t va = env_pb(e, c, w, n);
	env_gp(e, c, va, n, 0);
	env_kick(e, c);
}

static inline const char *env_run(struct env *e, uint64_t ns)
{
	return nvm_run_status_str(nvm_run(e->gpu, &(nvm_run_opts){ .ns = ns, .flags = NVM_RUN_UNTIL_IDLE }));
}

/* A fresh GPU with channel 5 in TSG 1 on the GR runlist, ready for pushes. */
static inline struct env_chan *env_one_channel(struct env *e)
{
	env_init(e);
	struct env_chan *c = env_chan(e, 0, 5);
	env_submit_tsg(e, 0, 1, &c, 1);
	assert_string_equal(env_run(e, 100000), "idle");
	return c;
}

/* A fresh GPU with one TSG of two channels (chids ca, cb) on the GR runlist. */
static inline void env_tsg_pair(struct env *e, uint32_t tsgid, uint32_t ca, uint32_t cb, struct env_chan **a,
                                struct env_chan **b)
{
	env_init(e);
	*a = env_chan(e, 0, ca);
	*b = env_chan(e, 1, cb);
	struct env_chan *both[] = { *a, *b };
	env_submit_tsg(e, 0, tsgid, both, 2);
	env_run(e, 100000);
}

/* Two TSGs (1 and 2) of one channel each on the GR runlist. */
static inline void env_two_tsgs(struct env *e, struct env_chan *a, struct env_chan *b, uint32_t timeout, uint32_t scale)
{
	uint32_t w[16];
	env_rl_tsg(w, 1, 1, timeout, scale);
	env_rl_chan(w + 4, a, 0);
	env_rl_tsg(w + 8, 2, 1, timeout, scale);
	env_rl_chan(w + 12, b, 0);
	env_submit(e, 0, w, 4);
	env_run(e, 100000);
}

static inline uint32_t env_userd(struct env *e, struct env_chan *c, uint32_t off)
{
	uint32_t v = 0;
	nvm_mem_rd32(e->gpu, NVM_AP_VRAM, c->userd + off, &v);
	return v;
}

static inline uint32_t env_mem(struct env *e, uint64_t pa)
{
	uint32_t v = 0;
	nvm_mem_rd32(e->gpu, NVM_AP_VRAM, pa, &v);
	return v;
}

/* Method headers (seed 000 section 6). */
#define HDR_INC(subch, mthd, n)  (0x20000000u | (uint32_t)(n) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(mthd) >> 2)
#define HDR_NINC(subch, mthd, n) (0x60000000u | (uint32_t)(n) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(mthd) >> 2)
#define HDR_IMMD(subch, mthd, v) (0x80000000u | (uint32_t)(v) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(mthd) >> 2)

/* The GR log, as an array. */
static inline size_t env_log(struct env *e, const char *eng, nvm_method *out, size_t max)
{
	size_t n = 0;
	assert_int_equal(nvm_method_log_read(e->gpu, eng, 0, out, max, &n, NULL), NVM_OK);
	return n;
}

#define PB0 0x40000u /* NV_PPBDMA registers of PBDMA 0 */

#endif
