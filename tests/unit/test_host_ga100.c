/*
 * The Ampere and Hopper Host (ga100, ga102, gh100; src/host/ga100.c): what
 * differs from gv100, each test citing the ga100 manual section
 * (refs/nvidia-ga100/) or class header it checks: the device-info table
 * (nouveau top/ga100.c), the runlist register spaces (ga100_dev_runlist
 * NV_RUNLIST_*), the channel RAM (NV_CHRAM_CHANNEL), the PBDMA register file
 * and its interrupt trees (ga100_dev_pbdma), the VF doorbell (ga100_dev_vm),
 * runlist errors (NV_RUNLIST_INTR_BAD_TSG), engine status, CLEAR_FAULTED by
 * handle (clc56f.h) and what Hopper publishes (GP_INFO).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "nvmodel/host_fmt.h"
#include "host_env.h"

#define FIELD_GET(v, hi, lo) (((v) >> (lo)) & ((2u << ((hi) - (lo))) - 1u))

static uint32_t vram32(nvm_gpu *g, uint64_t a)
{
	uint32_t v = 0;
	nvm_mem_rd32(g, NVM_AP_VRAM, a, &v);
	return v;
}

#define VF_DOORBELL 0xbb0090u

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

/* An Ampere GPU with channel chid in TSG 1 on runlist 0 (GR). */
static struct env_chan *one_channel(struct env *e, const char *chip, uint32_t chid)
{
	env_init_chip(e, chip);
	struct env_chan *c = env_chan(e, 0, chid);
	env_submit_tsg(e, 0, 1, &c, 1);
	assert_string_equal(env_run(e, 100000), "idle");
	return c;
}

/* nouveau top/ga100.c: NV_PTOP_DEVICE_INFO_CFG NUM_ROWS 31:20; an engine is
 * three rows chained by bit 31: TYPE 29:24, INST 19:16, FAULT 6:0 / ADDR
 * 23:12, RESET 4:0 / RUNLIST PRI base 23:10, ENGINE 1:0. ga100_dev_runlist
 * CHANNEL_CONFIG NUM_CHANNELS_LOG2 3:0 = 11 (2K), CHRAM_BAR0_OFFSET 31:4;
 * DOORBELL_CONFIG ID 31:16; PBDMA_CONFIG(i) PBDMA_BAR0_OFFSET 25:10, VALID
 * 31 (nouveau's runq id ((v & 0x03fffc00) - 0x40000) / 0x800). */
static void device_info_and_runlist_spaces(void **state)
{
	(void)state;
	nvm_gpu *g = open_chip("ga100");
	uint32_t rows = rd(g, 0x224fc) >> 20;
	assert_int_equal(rows, 18); /* GR, CE0, CE2..CE5: three rows each */
	uint32_t r0 = rd(g, 0x22800), r1 = rd(g, 0x22804), r2 = rd(g, 0x22808);
	assert_int_equal(r0 >> 31, 1);
	assert_int_equal(FIELD_GET(r0, 29, 24), 0); /* GR */
	assert_int_equal(FIELD_GET(r0, 6, 0), 64);  /* MMU engine id GRAPHICS */
	assert_int_equal(r1 >> 31, 1);
	assert_int_equal(FIELD_GET(r1, 23, 12) << 12, 0x400000);
	assert_int_equal(r2 >> 31, 0); /* the last row of the entry */
	uint32_t gr = r2 & 0x00fffc00u;
	/* CE0 is GRCOPY: the GR runlist's engine 1. */
	assert_int_equal(FIELD_GET(rd(g, 0x2280c), 29, 24), 0x13);
	assert_int_equal(rd(g, 0x22814) & 0x00fffc00u, gr);
	assert_int_equal(rd(g, 0x22814) & 3, 1);
	assert_int_equal(rd(g, gr + 0x004) & 0xf, 11);
	uint32_t chram = rd(g, gr + 0x004) & ~0xfu;
	assert_int_equal(rd(g, chram), 0);
	assert_string_equal(nvm_reg_name(g, chram), "NV_CHRAM_CHANNEL");
	assert_int_equal(rd(g, gr + 0x008) >> 16, 0); /* doorbell id of runlist 0 */
	uint32_t p0 = rd(g, gr + 0x010), p1 = rd(g, gr + 0x014);
	assert_int_equal(p0 >> 31, 1);
	assert_int_equal(((p0 & 0x03fffc00u) - 0x40000) / 0x800, 0);
	assert_int_equal(((p1 & 0x03fffc00u) - 0x40000) / 0x800, 1);
	/* the second runlist (CE2): one PBDMA, PBDMA 2 */
	uint32_t ce2 = rd(g, 0x22820) & 0x00fffc00u;
	assert_int_not_equal(ce2, gr);
	assert_int_equal(rd(g, ce2 + 0x008) >> 16, 1);
	assert_int_equal(((rd(g, ce2 + 0x010) & 0x03fffc00u) - 0x40000) / 0x800, 2);
	assert_int_equal(rd(g, ce2 + 0x014) >> 31, 0);
	/* VF page: NV_VIRTUAL_FUNCTION_CFG0 USERMODE_CLASS_ID 50273 */
	assert_int_equal(rd(g, 0xbb0000), 50273);
	/* gv100's PFIFO and PCCSR are gone */
	assert_null(nvm_reg_name(g, 0x2270));
	assert_null(nvm_reg_name(g, 0x800000));
	nvm_close(g);
}

/* ga100_dev_pbdma: the PBDMAs are 0x800 apart; NV_PPBDMA_USERD/_HI,
 * METHOD_CRC, TIMEOUT, INTR_EN_0/1, INTR_STALL/_1 are gone; STATUS_USERD
 * 0x168 and the EN_SET/CLEAR trees are new. Hopper (OGKM dev_esched_pbdma.h)
 * adds GP_INFO 0x0A4. */
static void pbdma_register_files(void **state)
{
	(void)state;
	nvm_gpu *g = open_chip("ga100");
	assert_string_equal(nvm_reg_name(g, 0x40800 + 0x048), "NV_PPBDMA_GP_BASE");
	assert_null(nvm_reg_name(g, 0x40008));
	assert_null(nvm_reg_name(g, 0x4010c));
	assert_null(nvm_reg_name(g, 0x400a4));
	assert_string_equal(nvm_reg_name(g, 0x40168), "NV_PPBDMA_STATUS_USERD");
	assert_string_equal(nvm_reg_name(g, 0x40190), "NV_PPBDMA_INTR_0_EN_CLEAR_TREE(0)");
	nvm_close(g);
	g = open_chip("gh100");
	assert_string_equal(nvm_reg_name(g, 0x400a4), "NV_PPBDMA_GP_INFO");
	nvm_close(g);
	g = open_chip("gv100"); /* unchanged */
	assert_string_equal(nvm_reg_name(g, 0x40008), "NV_PPBDMA_USERD");
	assert_null(nvm_reg_name(g, 0x400a4));
	nvm_close(g);
}

/* ga100_dev_runlist NV_CHRAM_CHANNEL: WRITE_CONTROL 0:0 ONES_SET_BITS /
 * ONES_CLEAR_BITS; UPDATE ENABLE_CHANNEL 0x2, DISABLE_CHANNEL 0x3,
 * RESET_PBDMA_FAULTED 0x11, RESET_ENG_FAULTED 0x21, CLEAR_CHANNEL
 * 0xFFFFFFFF; BUSY 3, ON_PBDMA 6, ON_ENG 7, PBDMA_BUSY 10, ENG_BUSY 11 are
 * read-only. */
static void chram_set_and_clear(void **state)
{
	(void)state;
	nvm_gpu *g = open_chip("ga100");
	uint32_t ch = (rd(g, 0xc00004) & ~0xfu) + 4 * 7;
	wr(g, ch, 0x2);
	assert_int_equal(rd(g, ch), 0x2);
	wr(g, ch, 0x30); /* ONES_SET_BITS: PBDMA_FAULTED, ENG_FAULTED */
	assert_int_equal(rd(g, ch), 0x32);
	wr(g, ch, 0x11);
	assert_int_equal(rd(g, ch), 0x22);
	wr(g, ch, 0x21);
	assert_int_equal(rd(g, ch), 0x2);
	wr(g, ch, 0xcc8); /* only read-only bits */
	assert_int_equal(rd(g, ch), 0x2);
	wr(g, ch, 0x3);
	assert_int_equal(rd(g, ch), 0);
	wr(g, ch, 0x1336 & ~1u);
	assert_int_equal(rd(g, ch), 0x1336);
	wr(g, ch, 0xffffffffu);
	assert_int_equal(rd(g, ch), 0);
	nvm_close(g);
}

/* A channel set up as nouveau's ga100 code does runs its methods: the
 * runlist entry carries INST and USERD (RAMFC dwords 2/3 are reserved;
 * env_ramfc's words there are not read). SUBMIT_INFO PENDING 15 until the
 * runlist is taken; the VF doorbell rings it; ENGINE_STATUS0 CTX_STATUS
 * VALID with the TSGID; STATUS_USERD VALID 7 only while loaded. */
static void channel_runs(void **state)
{
	(void)state;
	struct env e;
	env_init_chip(&e, "ga100");
	struct env_chan *c = env_chan(&e, 0, 5);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0x008, 0xdead0000u); /* a wrong USERD in RAMFC: ignored */
	env_submit_tsg(&e, 0, 3, &c, 1);
	uint32_t b = env_rl_base(&e, 0);
	assert_int_equal(rd(e.gpu, b + 0x08c) >> 15 & 1, 1);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, b + 0x08c) >> 15 & 1, 0);
	uint64_t sem_pa, sem = env_map(&e, 4096, &sem_pa);
	uint32_t pb[] = { HDR_INC(0, 0x50, 1), 0x77, /* SET_REFERENCE */
		          HDR_INC(0, 0x5c, 4), (uint32_t)sem, (uint32_t)(sem >> 32), 0xa100, 0,
		          HDR_INC(0, 0x6c, 1), 0x100001 };
	env_push(&e, c, pb, 9);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(vram32(e.gpu, sem_pa), 0xa100);
	assert_int_equal(vram32(e.gpu, c->userd + 0x48), 0x77);
	uint32_t es = rd(e.gpu, b + 0x200);
	assert_int_equal(FIELD_GET(es, 15, 13), 1); /* CTX_STATUS VALID */
	assert_int_equal(FIELD_GET(es, 10, 0), 3);  /* TSGID */
	uint32_t inst = rd(e.gpu, b + 0x210);
	assert_int_equal(inst >> 11 & 1, 1);                 /* VALID */
	assert_int_equal(inst & ~0xfffu, (uint32_t)c->inst); /* PTR_LO */
	assert_int_equal(rd(e.gpu, 0x40168) >> 7 & 1, 0);    /* saved: STATUS_USERD not VALID */
	nvm_host_channel ch;
	assert_int_equal(nvm_host_channel_info(e.gpu, 5, &ch), NVM_OK);
	assert_true(ch.enabled && ch.bound);
	assert_int_equal(ch.inst, c->inst);
	env_fini(&e);
}

/* ga100_dev_runlist NV_RUNLIST_INTR_0 BAD_TSG 12 with NV_RUNLIST_INTR_BAD_TSG
 * CODE 3:0: a channel entry outside a TSG is EXPECTED_A_TSG_HEADER (5), a
 * TSG of length 0 ZERO_LENGTH_TSG (1); INTR_0 is write-1-to-clear. */
static void bad_tsg_codes(void **state)
{
	(void)state;
	struct env e;
	env_init_chip(&e, "ga100");
	struct env_chan *c = env_chan(&e, 0, 5);
	uint32_t b = env_rl_base(&e, 0), w[8];
	env_rl_chan(w, c, 0);
	env_submit(&e, 0, w, 1);
	env_run(&e, 10000);
	assert_int_equal(rd(e.gpu, b + 0x100) >> 12 & 1, 1);
	assert_int_equal(rd(e.gpu, b + 0x174), 5);
	wr(e.gpu, b + 0x100, 1u << 12);
	assert_int_equal(rd(e.gpu, b + 0x100) >> 12 & 1, 0);
	env_rl_tsg(w, 1, 0, 128, 3);
	env_submit(&e, 0, w, 1);
	env_run(&e, 10000);
	assert_int_equal(rd(e.gpu, b + 0x174), 1);
	env_fini(&e);
}

/* ga100_dev_pbdma INTR_*_EN_SET_TREE / _EN_CLEAR_TREE: "The value of an
 * EN_SET_TREE register always matches the value in the corresponding
 * EN_CLEAR_TREE"; a PBDMA interrupt bit enabled in tree j sets the level
 * NV_RUNLIST_INTR_0_PBDMAi_INTR_TREE_j (16 + i + 2j) of its runlist. A
 * software method (subchannel 5: INTR_0 DEVICE) freezes the PBDMA until
 * software clears it. */
static void interrupt_trees(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = one_channel(&e, "ga100", 5);
	uint32_t b = env_rl_base(&e, 0);
	wr(e.gpu, 0x40190, 0xffffffffu); /* all of tree 0 off */
	wr(e.gpu, 0x40170, 1u << 23 | 1u << 0);
	assert_int_equal(rd(e.gpu, 0x40170), 1u << 23); /* bit 0 (MEMREQ) is not in the tree */
	assert_int_equal(rd(e.gpu, 0x40190), 1u << 23);
	wr(e.gpu, b + 0x120, 1u << 16); /* runlist tree 0: PBDMA0_INTR_TREE_0 */
	wr(e.gpu, 0x160, 1u << 8);
	uint32_t pb[] = { HDR_INC(5, 0x100, 1), 0xd0d0, HDR_INC(0, 0x200, 1), 9 };
	env_push(&e, c, pb, 4);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x40108), 1u << 23);
	assert_int_equal(rd(e.gpu, b + 0x100) & 0xf0000u, 1u << 16);
	assert_true(nvm_intr_line(e.gpu));
	wr(e.gpu, 0x40190, 1u << 23); /* disabled in the tree: the level drops, INTR_0 stays */
	assert_int_equal(rd(e.gpu, b + 0x100) & 0xf0000u, 0);
	assert_false(nvm_intr_line(e.gpu));
	assert_int_equal(rd(e.gpu, 0x40108), 1u << 23);
	wr(e.gpu, 0x400c0, 0);        /* METHOD0 serviced */
	wr(e.gpu, 0x40108, 1u << 23); /* clear: the PBDMA continues */
	assert_string_equal(env_run(&e, 100000), "idle");
	size_t n = 0;
	uint64_t total = 0;
	nvm_method m;
	assert_int_equal(nvm_method_log_read(e.gpu, "gr", 0, &m, 1, &n, &total), NVM_OK);
	assert_int_equal(total, 1);
	env_fini(&e);
}

/* NV_VIRTUAL_FUNCTION_DOORBELL HANDLE: DOORBELL_CONFIG ID << 16 | CHID (nouveau
 * ga100_chan_doorbell_handle); handles naming no runlist or channel are
 * dropped as guest errors. Channel ids are per runlist: CHID 5 of runlist 1
 * is another channel than CHID 5 of runlist 0. */
static void doorbell_handles_and_ids(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = one_channel(&e, "ga100", 5);
	uint64_t bad0 = nvm_event_count(e.gpu, NVM_EV_GUEST_ERROR);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1 };
	uint64_t va = env_pb(&e, c, pb, 2);
	env_gp(&e, c, va, 2, 0);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->userd + 0x8c, c->gp_put);
	wr(e.gpu, VF_DOORBELL, 1u << 31 | 5); /* a bit outside the fields */
	wr(e.gpu, VF_DOORBELL, 9u << 16 | 5); /* no runlist 9 */
	wr(e.gpu, VF_DOORBELL, 1u << 16 | 5); /* runlist 1's CHID 5: not this channel */
	assert_int_equal(nvm_event_count(e.gpu, NVM_EV_GUEST_ERROR) - bad0, 2);
	env_run(&e, 100000);
	size_t n = 0;
	uint64_t total = 0;
	nvm_method m;
	nvm_method_log_read(e.gpu, "gr", 0, &m, 1, &n, &total);
	assert_int_equal(total, 0);
	wr(e.gpu, VF_DOORBELL, 0u << 16 | 5);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method_log_read(e.gpu, "gr", 0, &m, 1, &n, &total);
	assert_int_equal(total, 1);
	nvm_host_channel ch;
	assert_int_equal(nvm_host_channel_info(e.gpu, 2048 + 5, &ch), NVM_OK);
	assert_false(ch.enabled);
	env_fini(&e);
}

/* The INST and USERD of a runlist entry stay the channel's whatever its
 * CHID (the model keeps them in chunks allocated on first listing): the
 * last channel of runlist 0 runs from its entry's USERD; channels never
 * listed, in its chunk or in one never allocated, have no instance block. */
static void entry_of_the_last_channel(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = one_channel(&e, "ga100", 2047);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 7 };
	env_push(&e, c, pb, 2);
	assert_string_equal(env_run(&e, 100000), "idle");
	size_t n = 0;
	uint64_t total = 0;
	nvm_method m;
	nvm_method_log_read(e.gpu, "gr", 0, &m, 1, &n, &total);
	assert_int_equal(total, 1);
	nvm_host_channel ch;
	assert_int_equal(nvm_host_channel_info(e.gpu, 2047, &ch), NVM_OK);
	assert_true(ch.bound);
	assert_int_equal(ch.inst, c->inst);
	const uint32_t never[] = { 2046, 0, 2048 + 2047 };
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(nvm_host_channel_info(e.gpu, never[i], &ch), NVM_OK);
		assert_false(ch.bound);
		assert_int_equal(ch.inst, 0);
		assert_int_equal(ch.inst_target, 1);
	}
	env_fini(&e);
}

/* clc56f.h CLEAR_FAULTED HANDLE 30:0 (the doorbell handle), TYPE 31:31:
 * clears the named channel's CHRAM ENG_FAULTED. */
static void clear_faulted_by_handle(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = one_channel(&e, "ga100", 5);
	uint32_t chram = rd(e.gpu, env_rl_base(&e, 0) + 0x004) & ~0xfu;
	wr(e.gpu, chram + 4 * 9, 0x20 | 0x2); /* channel 9: ENG_FAULTED, enabled */
	uint32_t pb[] = { HDR_INC(0, 0x84, 1), 1u << 31 | 0u << 16 | 9 };
	env_push(&e, c, pb, 2);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, chram + 4 * 9), 0x2);
	env_fini(&e);
}

/* A ga100/ga102 channel whose RAMFC SIGNATURE HW is sig runs pb: the
 * PBDMA 0 INTR_0 it leaves. */
static uint32_t run_sig(const char *chip, uint32_t sig, const uint32_t *pb, uint32_t n)
{
	struct env e;
	struct env_chan *c = one_channel(&e, chip, 5);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0x010, sig);
	env_push(&e, c, pb, n);
	env_run(&e, 100000);
	uint32_t intr = rd(e.gpu, 0x40108);
	env_fini(&e);
	return intr;
}

static bool has_problem(const char *chip, const uint8_t *inst, nvm_hf_check code)
{
	nvm_hf_problem pr[64];
	size_t n = nvm_ramin_check_chip(chip, inst, pr, 64);
	for (size_t i = 0; i < n && i < 64; i++)
		if (pr[i].code == code)
			return true;
	return false;
}

/* GA102's host class is AMPERE_CHANNEL_GPFIFO_B (C76F; nouveau ga102.c
 * ga102_fifo_sclass), GA100's AMPERE_CHANNEL_GPFIFO_A (C56F). clc76f.h
 * adds MEM_OP_D OPERATION MMU_OPERATION 0xb (MMU_OPERATION_TYPE 23:20):
 * accepted on ga102, an undefined operation (INTR_0 METHOD) on ga100.
 * NV_PPBDMA_SIGNATURE_HW HOST_CLASS_ID is the class: 51055 on ga102. */
static void ga102_host_class_c76f(void **state)
{
	(void)state;
	uint32_t mmu_op[] = { HDR_INC(0, 0x34, 1), 0xbu << 27 | 1u << 20 }; /* VIDMEM_ACCESS_BIT_DUMP */
	uint32_t nop[] = { HDR_INC(0, 0x08, 1), 0 };
	assert_int_equal(run_sig("ga102", 0xface, mmu_op, 2) & (1u << 21), 0);
	assert_int_equal(run_sig("ga100", 0xface, mmu_op, 2) & (1u << 21), 1u << 21);
	assert_int_equal(run_sig("ga102", 51055, nop, 2), 0);
	assert_int_equal(run_sig("ga102", 50543, nop, 2) & (1u << 31), 1u << 31); /* C56F's id: SIGNATURE */
	assert_int_equal(run_sig("ga100", 50543, nop, 2), 0);
	static uint8_t inst[NVM_RAMIN_SIZE]; /* the checker names the same class id */
	inst[0x10] = 51055 & 0xff, inst[0x11] = 51055 >> 8;
	assert_false(has_problem("ga102", inst, NVM_HF_SIGNATURE));
	assert_true(has_problem("ga100", inst, NVM_HF_SIGNATURE));
	inst[0x10] = 50543 & 0xff, inst[0x11] = 50543 >> 8;
	assert_true(has_problem("ga102", inst, NVM_HF_SIGNATURE));
	assert_false(has_problem("ga100", inst, NVM_HF_SIGNATURE));
}

/* The CPU interrupt tree, serviced as nouveau's Ampere code does it
 * (nvkm/subdev/vfn tu102/ga100, nvkm/core/intr.c, the runlist INTR_0 vector
 * of nvkm/engine/fifo/ga100.c). ga100_dev_vm NV_VIRTUAL_FUNCTION_PRIV_CPU_INTR_LEAF(i)
 * 0x1000 + 4i (RW, write 1 to clear), LEAF_EN_SET(i) 0x1200 + 4i,
 * LEAF_EN_CLEAR(i) 0x1400 + 4i, CPU_INTR_TOP(0) 0x1600 SUBTREE(i) per two
 * leaves, TOP_EN_SET 0x1608, TOP_EN_CLEAR 0x1610 (the VF page at BAR0
 * 0xBB0000); ga100_dev_runlist NV_RUNLIST_INTR_VECTORID(0) VECTOR 11:0, CPU
 * 31:31. A software method (INTR_0 DEVICE) raises the runlist's
 * PBDMA0_INTR_TREE_0, which latches the vector's leaf. */
#define VF_LEAF(i)        (0xbb1000u + 4u * (i))
#define VF_LEAF_EN_SET(i) (0xbb1200u + 4u * (i))
#define VF_LEAF_EN_CLR(i) (0xbb1400u + 4u * (i))
#define VF_TOP            0xbb1600u
#define VF_TOP_EN_SET     0xbb1608u
#define VF_TOP_EN_CLEAR   0xbb1610u

static void cpu_intr_tree_nouveau(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = one_channel(&e, "ga100", 5);
	uint32_t b = env_rl_base(&e, 0);
	/* nouveau's init: the runlist's vector from INTR_VECTORID(0), its leaf
	 * bit enabled, the PBDMA's DEVICE and the runlist's PBDMA0 tree bit in
	 * tree 0, the TOP armed. */
	uint32_t id = rd(e.gpu, b + 0x160);
	assert_int_equal(id >> 31, 1); /* CPU ENABLE */
	unsigned vec = FIELD_GET(id, 11, 0);
	unsigned leaf = vec / 32, bit = vec % 32;
	assert_true(leaf < 8);
	assert_int_equal(rd(e.gpu, VF_LEAF_EN_SET(leaf)), 0); /* VALUE_INIT */
	wr(e.gpu, VF_LEAF_EN_SET(leaf), 1u << bit);
	assert_int_equal(rd(e.gpu, VF_LEAF_EN_CLR(leaf)), 1u << bit);
	wr(e.gpu, 0x40170, 1u << 23);
	wr(e.gpu, b + 0x120, 1u << 16);
	wr(e.gpu, VF_TOP_EN_SET, 0xffffffffu);
	assert_false(nvm_intr_line(e.gpu));
	uint32_t pb[] = { HDR_INC(5, 0x100, 1), 0xd0d0, HDR_INC(0, 0x200, 1), 9 };
	env_push(&e, c, pb, 4);
	env_run(&e, 100000);
	assert_true(nvm_intr_line(e.gpu));
	/* the handler: disarm, read TOP, read the leaves it names */
	wr(e.gpu, VF_TOP_EN_CLEAR, 0xffffffffu);
	uint32_t top = rd(e.gpu, VF_TOP);
	assert_int_equal(top, 1u << (leaf / 2));
	uint32_t stat = rd(e.gpu, VF_LEAF(leaf));
	assert_int_equal(stat, 1u << bit);
	wr(e.gpu, VF_LEAF(leaf), stat); /* clear the leaf first */
	/* dispatch to the runlist's INTR_0 handler: PBDMA 0 tree 0 */
	uint32_t intr0 = rd(e.gpu, b + 0x100);
	assert_int_equal(intr0 & 0xf0000u, 1u << 16);
	assert_int_equal(rd(e.gpu, 0x40108), 1u << 23); /* DEVICE: the software method */
	assert_int_equal(rd(e.gpu, 0x400c0) & 0xfffcu, 0x100u);
	wr(e.gpu, 0x400c0, 0);        /* METHOD0 serviced */
	wr(e.gpu, 0x40108, 1u << 23); /* PBDMA INTR_0 cleared */
	wr(e.gpu, b + 0x100, intr0);  /* runlist INTR_0 acknowledged */
	assert_int_equal(rd(e.gpu, b + 0x100) & 0xf0000u, 0);
	wr(e.gpu, VF_TOP_EN_SET, 0xffffffffu); /* re-armed: nothing left */
	assert_int_equal(rd(e.gpu, VF_TOP), 0);
	assert_int_equal(rd(e.gpu, VF_LEAF(leaf)), 0);
	assert_false(nvm_intr_line(e.gpu));
	assert_string_equal(env_run(&e, 100000), "idle");
	size_t n = 0;
	uint64_t total = 0;
	nvm_method m;
	assert_int_equal(nvm_method_log_read(e.gpu, "gr", 0, &m, 1, &n, &total), NVM_OK);
	assert_int_equal(total, 1);
	env_fini(&e);
}

/* The gates: a latched leaf whose LEAF_EN is clear, or whose TOP SUBTREE is
 * not armed, does not reach the CPU; CPU_INTR_TOP is read-only; a leaf
 * cleared while the runlist's interrupt is still pending latches again at
 * the runlist's next change (NV_RUNLIST_INTR_RETRIGGER). */
static void cpu_intr_tree_gates(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = one_channel(&e, "ga100", 5);
	uint32_t b = env_rl_base(&e, 0);
	unsigned vec = FIELD_GET(rd(e.gpu, b + 0x160), 11, 0);
	unsigned leaf = vec / 32, bit = vec % 32;
	wr(e.gpu, 0x40170, 1u << 23);
	wr(e.gpu, b + 0x120, 1u << 16);
	wr(e.gpu, 0x160, 0); /* PMC line 8 off: only the tree drives the CPU */
	uint32_t pb[] = { HDR_INC(5, 0x100, 1), 0xd0d0 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, VF_LEAF(leaf)), 1u << bit); /* latched ... */
	assert_int_equal(rd(e.gpu, VF_TOP), 0);                /* ... not enabled */
	wr(e.gpu, VF_LEAF_EN_SET(leaf), 1u << bit);
	assert_int_equal(rd(e.gpu, VF_TOP), 1u << (leaf / 2));
	assert_false(nvm_intr_line(e.gpu)); /* TOP not armed */
	wr(e.gpu, VF_TOP, 0xffffffffu);     /* read-only */
	wr(e.gpu, VF_TOP_EN_SET, 1u << (leaf / 2));
	assert_true(nvm_intr_line(e.gpu));
	wr(e.gpu, VF_LEAF(leaf), 1u << bit);
	assert_false(nvm_intr_line(e.gpu));
	wr(e.gpu, b + 0x180, 1); /* RETRIGGER(0): still pending */
	assert_int_equal(rd(e.gpu, VF_LEAF(leaf)), 1u << bit);
	assert_true(nvm_intr_line(e.gpu));
	wr(e.gpu, VF_LEAF_EN_CLR(leaf), 1u << bit);
	assert_false(nvm_intr_line(e.gpu));
	/* a vector beyond LEAF(7) (the PF tree's, not modelled) latches nothing */
	wr(e.gpu, VF_LEAF(leaf), 1u << bit);
	wr(e.gpu, b + 0x160, 0x80000400u);
	uint64_t un = nvm_event_count(e.gpu, NVM_EV_UNMODELLED);
	wr(e.gpu, b + 0x180, 1);
	assert_true(nvm_event_count(e.gpu, NVM_EV_UNMODELLED) > un);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(rd(e.gpu, VF_LEAF(i)), 0);
	env_fini(&e);
}

/* NON_STALL_INTERRUPT (clc56f.h 0x20) on ga100: the PBDMA raises the vector
 * NV_PPBDMA_INTR_NOTIFY names (ga100_dev_pbdma INTR_NOTIFY, RAMFC 0x0f8:
 * VECTOR 11:0, CTRL_CPU 31:31; nouveau's ga100_chan_ramfc_write stores
 * 0x80000000 | the engine's non-stall vector) in the CPU interrupt tree; the
 * handler reads TOP and the leaf, clears the leaf and re-arms. With CTRL_CPU
 * DISABLE nothing is latched. */
static void cpu_intr_tree_nonstall(void **state)
{
	(void)state;
	const unsigned vec = 0x53, leaf = vec / 32, bit = vec % 32;
	for (unsigned cpu = 0; cpu < 2; cpu++) {
		struct env e;
		struct env_chan *c = one_channel(&e, "ga100", 5);
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0x0f8, cpu << 31 | vec);
		wr(e.gpu, VF_LEAF_EN_SET(leaf), 1u << bit);
		wr(e.gpu, VF_TOP_EN_SET, 0xffffffffu);
		uint32_t pb[] = { HDR_INC(0, 0x20, 1), 0 };
		env_push(&e, c, pb, 2);
		assert_string_equal(env_run(&e, 100000), "idle");
		assert_int_equal(nvm_intr_line(e.gpu), (int)cpu);
		wr(e.gpu, VF_TOP_EN_CLEAR, 0xffffffffu);
		assert_int_equal(rd(e.gpu, VF_TOP), cpu << (leaf / 2));
		uint32_t stat = rd(e.gpu, VF_LEAF(leaf));
		assert_int_equal(stat, cpu << bit);
		wr(e.gpu, VF_LEAF(leaf), stat);
		wr(e.gpu, VF_TOP_EN_SET, 0xffffffffu);
		assert_int_equal(rd(e.gpu, VF_TOP), 0);
		assert_false(nvm_intr_line(e.gpu));
		env_fini(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(device_info_and_runlist_spaces),
		cmocka_unit_test(pbdma_register_files),
		cmocka_unit_test(chram_set_and_clear),
		cmocka_unit_test(channel_runs),
		cmocka_unit_test(bad_tsg_codes),
		cmocka_unit_test(interrupt_trees),
		cmocka_unit_test(cpu_intr_tree_nouveau),
		cmocka_unit_test(cpu_intr_tree_gates),
		cmocka_unit_test(cpu_intr_tree_nonstall),
		cmocka_unit_test(doorbell_handles_and_ids),
		cmocka_unit_test(entry_of_the_last_channel),
		cmocka_unit_test(clear_faulted_by_handle),
		cmocka_unit_test(ga102_host_class_c76f),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
