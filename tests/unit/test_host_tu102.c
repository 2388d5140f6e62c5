/*
 * The Turing Host (tu102, src/host/tu102.c): what differs from gv100, each
 * test citing the tu104 manual section (refs/nvidia-tu104/) or the class
 * header it checks: per-runlist submit registers (dev_fifo
 * NV_PFIFO_RUNLIST_BASE_LO/HI, SUBMIT, SUBMIT_INFO), doorbell handles and
 * their invalid forms (dev_usermode NOTIFY_CHANNEL_PENDING), the VF doorbell
 * alias (dev_vm NV_VIRTUAL_FUNCTION_DOORBELL) behind dev_ctrl
 * VIRTUAL_CHANNEL_CFG PENDING_ENABLE, the counts (dev_fifo CFG0/CFG1/CFG2),
 * host class C46F (clc46f.h CLEAR_FAULTED HANDLE) and copy class C5B5,
 * the device-info table (dev_top DEVICE_INFO REGISTERS).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "host_env.h"

#define RL_BASE_LO(i)     (0x2b00u + 16u * (i))
#define RL_SUBMIT_INFO(i) (0x2b0cu + 16u * (i))
#define VF_DOORBELL       0xbb0090u
#define NOTIFY            0x810090u

/* A tu102 with channel 5 in TSG 1 on the GR runlist (0). */
static struct env_chan *tu_one_channel(struct env *e)
{
	env_init_chip(e, "tu102");
	struct env_chan *c = env_chan(e, 0, 5);
	env_submit_tsg(e, 0, 1, &c, 1);
	assert_string_equal(env_run(e, 100000), "idle");
	return c;
}

/* Writes one GR method as a GP entry with GP_PUT in USERD, no doorbell. */
static void stage_method(struct env *e, struct env_chan *c, uint32_t data)
{
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), data };
	uint64_t va = env_pb(e, c, pb, 2);
	env_gp(e, c, va, 2, 0);
	nvm_mem_wr32(e->gpu, NVM_AP_VRAM, c->userd + 0x8c, c->gp_put);
}

static uint64_t gr_total(struct env *e)
{
	uint64_t total = 0;
	size_t n = 0;
	nvm_method m;
	assert_int_equal(nvm_method_log_read(e->gpu, "gr", 0, &m, 1, &n, &total), NVM_OK);
	return total;
}

/* dev_fifo CFG0 NUM_PBDMA_INIT 12, PBDMA_FAULT_ID_INIT 32; CFG1
 * NUM_CHANNELS_INIT 4096; CFG2 HOST_CLASS_ID_VALUE 50287 (C46F); dev_usermode
 * CFG0 USERMODE_CLASS_ID_VALUE 50273; PBDMA_MAP__SIZE_1 12; dev_ctrl
 * VIRTUAL_CHANNEL_CFG MASK_INIT 0xFFF; gv100's RUNLIST_BASE/RUNLIST are gone. */
static void counts_and_ids(void **state)
{
	(void)state;
	nvm_config cfg = { .chip = "tu102", .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	assert_int_equal(rd(gpu, 0x2004), 12u | 32u << 16);
	assert_int_equal(rd(gpu, 0x2008), 4096);
	assert_int_equal(rd(gpu, 0x200c), 50287);
	assert_int_equal(rd(gpu, 0x810000), 50273);
	assert_int_equal(rd(gpu, 0xbb0000), 50273); /* NV_VIRTUAL_FUNCTION_CFG0 */
	assert_int_equal(rd(gpu, 0xb65000), 0xfff);
	/* PBDMA_MAP(i) RUNLISTS: PBDMAs 0 and 1 serve runlist 0, PBDMA 4 runlist 3 (ce4) */
	assert_int_equal(rd(gpu, 0x2390), 1);
	assert_int_equal(rd(gpu, 0x2394), 1);
	assert_int_equal(rd(gpu, 0x2390 + 4 * 4), 1u << 3);
	wr(gpu, 0x2274, 1);                   /* gv100's NV_PFIFO_RUNLIST */
	assert_int_equal(rd(gpu, 0x2274), 0); /* unmapped on tu102 */
	nvm_host_stats st;
	assert_int_equal(nvm_host_get_stats(gpu, &st), NVM_OK);
	assert_int_equal(st.runlist_submits, 0);
	nvm_close(gpu);
}

/* dev_fifo NV_PFIFO_RUNLIST_SUBMIT(i): the write submits the runlist at
 * RUNLIST_BASE_HI:LO(i); SUBMIT_INFO(i) PENDING reads TRUE until it is
 * taken (nouveau tu102_runl_pending polls it). The other runlists' PENDING
 * stay FALSE. */
static void submit_per_runlist(void **state)
{
	(void)state;
	struct env e;
	env_init_chip(&e, "tu102");
	struct env_chan *g = env_chan(&e, 0, 5), *c = env_chan(&e, 1, 6);
	env_submit_tsg(&e, 0, 1, &g, 1);
	env_submit_tsg(&e, 1, 2, &c, 1);
	assert_int_equal(rd(e.gpu, RL_SUBMIT_INFO(0)) >> 15 & 1, 1);
	assert_int_equal(rd(e.gpu, RL_SUBMIT_INFO(1)) >> 15 & 1, 1);
	assert_int_equal(rd(e.gpu, RL_SUBMIT_INFO(2)) >> 15 & 1, 0);
	assert_int_equal(rd(e.gpu, RL_BASE_LO(1) + 8), 2); /* SUBMIT LENGTH reads back */
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, RL_SUBMIT_INFO(0)) >> 15 & 1, 0);
	assert_int_equal(rd(e.gpu, RL_SUBMIT_INFO(1)) >> 15 & 1, 0);
	nvm_host_channel ch;
	assert_int_equal(nvm_host_channel_info(e.gpu, 6, &ch), NVM_OK);
	assert_int_equal(ch.runlist, 1);
	assert_int_equal(ch.tsgid, 2);
	/* A runlist id the model does not wire (SIZE_1 is 11): no submit. */
	nvm_host_stats st0, st1;
	nvm_host_get_stats(e.gpu, &st0);
	wr(e.gpu, RL_BASE_LO(9) + 8, 2);
	nvm_host_get_stats(e.gpu, &st1);
	assert_int_equal(st1.runlist_submits, st0.runlist_submits);
	env_fini(&e);
}

/* dev_usermode NOTIFY_CHANNEL_PENDING: a handle is RUNLIST_ID 22:16 | CHID
 * 11:0 (ALL = 15); "if the written value is not a valid handle, the write
 * will be ignored": a bit outside both fields, a RUNLIST_ID that is neither
 * ALL nor a runlist. A valid handle makes the channel run. */
static void doorbell_handles(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = tu_one_channel(&e);
	stage_method(&e, c, 0xa);
	static const uint32_t invalid[] = {
		1u << 12 | 5,  /* a bit between CHID and RUNLIST_ID */
		11u << 16 | 5, /* RUNLIST_ID 11: no such runlist (SIZE_1 11) */
		14u << 16 | 5, /* RUNLIST_ID 14 */
		1u << 23 | 5,  /* above RUNLIST_ID */
		1u << 31 | 5,
	};
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		wr(e.gpu, NOTIFY, invalid[i]);
		env_run(&e, 100000);
		assert_int_equal(gr_total(&e), 0);
	}
	wr(e.gpu, NOTIFY, 0u << 16 | 5); /* runlist 0, channel 5 (nouveau tu102_chan_doorbell_handle) */
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(gr_total(&e), 1);
	/* RUNLIST_ID_ALL */
	stage_method(&e, c, 0xb);
	wr(e.gpu, NOTIFY, 15u << 16 | 5);
	env_run(&e, 100000);
	assert_int_equal(gr_total(&e), 2);
	env_fini(&e);
}

/* dev_vm NV_VIRTUAL_FUNCTION_DOORBELL (0x30090 in the VF window at BAR0
 * 0xB80000) takes the same handle. UNVERIFIED (docs/fidelity.md): it acts
 * only while dev_ctrl NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE is set,
 * which nouveau sets before it uses the doorbell. */
static void vf_doorbell_pending_enable(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = tu_one_channel(&e);
	wr(e.gpu, 0xb65000, 0xfff); /* PENDING_ENABLE FALSE */
	stage_method(&e, c, 0xa);
	wr(e.gpu, VF_DOORBELL, 5);
	env_run(&e, 100000);
	assert_int_equal(gr_total(&e), 0);
	wr(e.gpu, 0xb65000, 0x80000fffu);
	assert_int_equal(rd(e.gpu, 0xb65000), 0x80000fffu);
	wr(e.gpu, VF_DOORBELL, 5);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(gr_total(&e), 1);
	env_fini(&e);
}

/* clc46f.h CLEAR_FAULTED HANDLE 30:0 (the doorbell handle), TYPE 31:31: the
 * handle RUNLIST_ID_ALL | chid 1 clears channel 1's PBDMA_FAULTED; an
 * invalid handle targets no channel and the method ends in INTR_0
 * CLEAR_FAULTED_ERROR (20) after NV_PFIFO_CLEAR_FAULTED_TIMEOUT (dev_pbdma). */
static void clear_faulted_by_handle(void **state)
{
	(void)state;
	struct env e;
	env_init_chip(&e, "tu102");
	struct env_chan *a = env_chan(&e, 0, 1), *b = env_chan(&e, 1, 2);
	env_two_tsgs(&e, a, b, 128, 3);
	env_gp(&e, a, 0x7000000000ull, 2, 0); /* a faults on its pushbuffer fetch */
	env_kick(&e, a);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x800004 + 8) >> 22 & 1, 1);
	uint32_t apb[] = { HDR_INC(0, 0x200, 1), 0xa };
	uint64_t pa = env_alloc(&e, 4096, 4096);
	nvm_mem_write(e.gpu, NVM_AP_VRAM, pa, apb, sizeof(apb));
	ptb_map(&e.pt, 0x7000000000ull, 4096, ptb_pte(pa, 0, 0, 0));
	wr(e.gpu, 0x100cbc, 0x80000003u);
	uint32_t bpb[] = { HDR_INC(0, 0x84, 1), 15u << 16 | 1, HDR_INC(0, 0x200, 1), 0xb };
	env_push(&e, b, bpb, 4);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, 0x800004 + 8) >> 22 & 1, 0);
	nvm_method log[4];
	assert_int_equal(env_log(&e, "gr", log, 4), 2);
	assert_int_equal(log[0].data, 0xb);
	assert_int_equal(log[1].data, 0xa);
	env_fini(&e);

	/* 1 << 12 | 1 is not a handle (a bit outside both fields), though C36F
	 * would read CHID 1 in it: channel 1 stays faulted and the method
	 * times out. */
	env_init_chip(&e, "tu102");
	a = env_chan(&e, 0, 1);
	b = env_chan(&e, 1, 2);
	env_two_tsgs(&e, a, b, 128, 3);
	env_gp(&e, a, 0x7000000000ull, 2, 0);
	env_kick(&e, a);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x800004 + 8) >> 22 & 1, 1);
	wr(e.gpu, 0x2a14, 0x80000000u | 8); /* DETECTION, PERIOD 8 */
	uint32_t bad[] = { HDR_INC(0, 0x84, 1), 1u << 12 | 1 };
	env_push(&e, b, bad, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x800004 + 8) >> 22 & 1, 1);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 20);
	env_fini(&e);
}

/* The engines take the Turing classes (the decoder's tu102 profile):
 * TURING_DMA_COPY_A C5B5 on subchannel 4 (GRCOPY) is a copy class, VOLTA's
 * C3B5 is not (dev_pbdma INTR_1 HCE_ILLEGAL_CLASS); TURING_A C597 is logged
 * with its class. */
static void turing_classes(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = tu_one_channel(&e);
	uint32_t ok[] = { HDR_INC(0, 0, 1), 0xc597, HDR_INC(0, 0x200, 1), 1, HDR_INC(4, 0, 1), 0xc5b5 };
	env_push(&e, c, ok, 6);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, PB0 + 0x148), 0);
	nvm_method log[2];
	assert_int_equal(env_log(&e, "gr", log, 2), 1);
	assert_int_equal(log[0].cls, 0xc597);
	uint32_t bad[] = { HDR_INC(4, 0, 1), 0xc3b5 };
	env_push(&e, c, bad, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x148), 1u << 4);
	env_fini(&e);
}

/* dev_fifo NV_PFIFO_PBDMA_STATUS_INST(i) (0x2790), _USERD(i) (0x2800) and
 * _USERD_HI(i) (0x2880), new on Turing: the instance block and USERD of the
 * channel PBDMA 0 loaded, VALID while it is loaded. */
static void pbdma_status_inst_userd(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = tu_one_channel(&e);
	uint32_t sw[] = { HDR_INC(5, 0x100, 1), 0xd0d0 }; /* a software method: PBDMA 0 stalls, loaded */
	env_push(&e, c, sw, 2);
	env_run(&e, 10000);
	uint32_t inst = rd(e.gpu, 0x2790);
	assert_int_equal(inst & 0x0fffffffu, (uint32_t)(c->inst >> 12));
	assert_int_equal(inst >> 28 & 3, 0); /* VID_MEM */
	assert_int_equal(rd(e.gpu, 0x2800), (uint32_t)c->userd);
	assert_int_equal(rd(e.gpu, 0x2880), (uint32_t)(c->userd >> 32));
	assert_int_equal(inst >> 31, 1); /* VALID: the stall keeps the channel on PBDMA 0 */
	assert_int_equal(rd(e.gpu, 0x3080) >> 13 & 1, 1);
	assert_int_equal(rd(e.gpu, 0x2790 + 4), 0); /* PBDMA 1 loaded nothing */
	env_fini(&e);
}

/* dev_fifo NV_PFIFO_INTR_EN_0: the enable bits tu104 defines (CTXSW_TIMEOUT
 * and the RUNLIST_* trees added); NON_STALL_INTERRUPT sets INTR_0
 * CHANNEL_INTR (31), write-1-to-clear, and with PMC's PFIFO enable the
 * interrupt line goes high. */
static void interrupts(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = tu_one_channel(&e);
	wr(e.gpu, 0x2140, 0xffffffffu);
	assert_int_equal(rd(e.gpu, 0x2140), 0xf18101f3u);
	wr(e.gpu, 0x160, 1u << 8); /* NV_PMC_INTR_EN_SET(0): PFIFO */
	uint32_t pb[] = { HDR_INC(0, 0x20, 1), 0 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x2100) >> 31, 1);
	assert_true(nvm_intr_line(e.gpu));
	wr(e.gpu, 0x2100, 1u << 31);
	assert_int_equal(rd(e.gpu, 0x2100) >> 31, 0);
	assert_false(nvm_intr_line(e.gpu));
	env_fini(&e);
}

/* One device of NV_PTOP_DEVICE_INFO as nouveau's gk104_top_parse
 * collects it: fields the manual's entries hold, -1 where none said. */
struct topdev {
	int type, inst, addr, fault, engine, runlist, intr, reset;
};

/* tu104 dev_top "DEVICE_INFO REGISTERS": walks NV_PTOP_DEVICE_INFO(i)
 * (0x22700, __SIZE_1 64) entry by entry, ENTRY 1:0 NOT_VALID skipped, DATA
 * (INST_ID 29:26, PRI_BASE 23:12, FAULT_ID_ENUM 9:3 if FAULT_ID 2:2), ENUM
 * (ENGINE_ENUM 29:26 if 5:5, RUNLIST_ENUM 24:21 if 4:4, INTR_ENUM 19:15 if
 * 3:3, RESET_ENUM 13:9 if 2:2), ENGINE_TYPE (TYPE_ENUM 30:2); a device ends
 * at an entry whose CHAIN 31:31 is DISABLE. */
static size_t walk_device_info(nvm_gpu *g, struct topdev *out, size_t max)
{
	size_t n = 0;
	struct topdev d = { -1, 0, -1, -1, -1, -1, -1, -1 };
	for (uint32_t i = 0; i < 64; i++) {
		uint32_t v = rd(g, 0x22700 + 4 * i);
		switch (v & 3) {
		case 0: continue;
		case 1:
			d.inst = (int)(v >> 26 & 0xf);
			d.addr = (int)(v & 0x00fff000u);
			if (v & 4)
				d.fault = (int)(v >> 3 & 0x7f);
			break;
		case 2:
			if (v & 0x20)
				d.engine = (int)(v >> 26 & 0xf);
			if (v & 0x10)
				d.runlist = (int)(v >> 21 & 0xf);
			if (v & 0x08)
				d.intr = (int)(v >> 15 & 0x1f);
			if (v & 0x04)
				d.reset = (int)(v >> 9 & 0x1f);
			break;
		case 3: d.type = (int)(v >> 2 & 0x1fffffff); break;
		}
		if (v >> 31)
			continue;
		if (n < max)
			out[n++] = d;
		d = (struct topdev){ -1, 0, -1, -1, -1, -1, -1, -1 };
	}
	return n;
}

/* tu104 dev_vm NV_VIRTUAL_FUNCTION_PRIV_MMU_FAULT_INST_LO ENGINE_ID 8:0:
 * the MMU engine id of the fault a C5B5 copy to an unmapped VA takes, on
 * subchannel sub of a channel on runlist rl (0: GRCOPY on subchannel 4). */
static unsigned ce_fault_engine(unsigned rl, unsigned sub)
{
	struct env e;
	env_init_chip(&e, "tu102");
	struct env_chan *c = env_chan(&e, 0, 5);
	env_submit_tsg(&e, rl, 1, &c, 1);
	assert_string_equal(env_run(&e, 100000), "idle");
	uint64_t spa, sva = env_map(&e, 4096, &spa), far = 0x7000000000ull;
	uint32_t pb[] = { HDR_INC(sub, 0x000, 1),
		          0xc5b5,
		          HDR_INC(sub, 0x400, 4),
		          (uint32_t)(sva >> 32),
		          (uint32_t)sva,
		          (uint32_t)(far >> 32),
		          (uint32_t)far,
		          HDR_INC(sub, 0x418, 1),
		          256,
		          HDR_INC(sub, 0x300, 1),
		          2u | 1u << 7 | 1u << 8 }; /* LAUNCH_DMA NON_PIPELINED, pitch to pitch */
	env_push(&e, c, pb, 11);
	env_run(&e, 1000000);
	assert_int_equal(rd(e.gpu, 0xb83094) >> 31, 1); /* FAULT_STATUS VALID */
	unsigned engine = rd(e.gpu, 0xb83088) & 0x1ff;
	env_fini(&e);
	return engine;
}

/* dev_top DEVICE_INFO: the table names the engines tu102 wires, GR
 * (TYPE_ENUM GRAPHICS 0) and GRCOPY (LCE 19, INST_ID 0) on runlist 0 and
 * LCE 2..4 on runlists 1..3, each with a PRI_BASE, FAULT_ID, ENGINE_ENUM,
 * INTR and RESET; it is read-only (R--4A). A channel submitted on the
 * runlist the table names runs on that engine, which then shows the TSG in
 * NV_PFIFO_ENGINE_STATUS(ENGINE_ENUM) (dev_fifo: indexed by the Host
 * engine id); a copy engine's MMU fault carries the FAULT_ID_ENUM the table
 * gives it (dev_top: "the MMU fault id used by this device"). */
static void device_info(void **state)
{
	(void)state;
	struct env e;
	env_init_chip(&e, "tu102");
	struct topdev d[8];
	size_t n = walk_device_info(e.gpu, d, 8);
	assert_int_equal(n, 5);
	/* GR: the MMU id the model uses (NV_PFAULT_MMU_ENG_ID_GRAPHICS 64) */
	assert_int_equal(d[0].type, 0);
	assert_int_equal(d[0].runlist, 0);
	assert_int_equal(d[0].engine, 0);
	assert_int_equal(d[0].fault, 64);
	assert_int_equal(d[0].addr, 0x400000);
	assert_int_equal(d[1].type, 19);
	assert_int_equal(d[1].inst, 0);
	assert_int_equal(d[1].runlist, 0);
	assert_int_equal(d[1].fault, 15);
	for (size_t i = 0; i < n; i++) {
		assert_true(d[i].addr > 0 && d[i].intr >= 0 && d[i].reset >= 0 && d[i].engine >= 0);
		for (size_t j = 0; j < i; j++)
			assert_int_not_equal(d[i].engine, d[j].engine); /* at most one device per ENGINE_ENUM */
	}
	/* A write does not change the table. */
	uint32_t v0 = rd(e.gpu, 0x22700);
	wr(e.gpu, 0x22700, 0);
	assert_int_equal(rd(e.gpu, 0x22700), v0);
	/* GR and LCE 2..4: a channel on each named runlist runs on its engine. */
	static const char *const names[] = { "gr", NULL, "ce2", "ce3", "ce4" };
	for (size_t i = 0; i < n; i++) {
		if (i == 1)
			continue; /* GRCOPY: runlist 0's second engine */
		assert_int_equal(d[i].type, i ? 19 : 0);
		assert_int_equal(d[i].inst, (int)i);
		assert_int_equal(d[i].runlist, i ? (int)i - 1 : 0);
		assert_int_equal(d[i].fault, i ? 15 + (int)i : 64);
		struct env_chan *c = env_chan(&e, (unsigned)i, 10 + (uint32_t)i);
		env_submit_tsg(&e, (unsigned)d[i].runlist, 20 + (uint32_t)i, &c, 1);
		env_run(&e, 100000);
		uint32_t pb[] = { HDR_INC(0, 0x100, 1), 1 };
		env_push(&e, c, pb, 2);
		assert_string_equal(env_run(&e, 100000), "idle");
		nvm_method log[2];
		assert_int_equal(env_log(&e, names[i], log, 2), 1);
		nvm_host_channel ch;
		assert_int_equal(nvm_host_channel_info(e.gpu, 10 + (uint32_t)i, &ch), NVM_OK);
		assert_int_equal(ch.runlist, d[i].runlist);
		/* ENGINE_STATUS(ENGINE_ENUM): ID 11:0 the TSG, CTX_STATUS VALID */
		uint32_t st = rd(e.gpu, 0x2640 + 8 * (uint32_t)d[i].engine);
		assert_int_equal(st & 0xfff, 20 + i);
		assert_int_equal(st >> 13 & 7, 1);
	}
	env_fini(&e);
	assert_int_equal(ce_fault_engine(0, 4), (unsigned)d[1].fault); /* GRCOPY */
	for (size_t i = 2; i < n; i++)
		assert_int_equal(ce_fault_engine((unsigned)d[i].runlist, 0), (unsigned)d[i].fault);
}

/* tu104 dev_vm NV_VIRTUAL_FUNCTION_PRIV_CPU_INTR_*: the CPU interrupt tree
 * at the VF page (BAR0 0xBB0000): LEAF_EN_SET(i) 0x1200 + 4i and
 * LEAF_EN_CLEAR(i) 0x1400 + 4i (__SIZE_1 8) read back one enable (VALUE_INIT
 * 0), TOP_EN_SET 0x1608 / TOP_EN_CLEAR 0x1610 likewise, CPU_INTR_TOP(0)
 * 0x1600 is read-only. tu104's dev_fifo has no vector registers: the
 * non-stall interrupt stays on PFIFO_INTR_0 and PMC line 8 and latches no
 * leaf. */
static void cpu_intr_tree_registers(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = tu_one_channel(&e);
	for (unsigned i = 0; i < 8; i++) {
		assert_int_equal(rd(e.gpu, 0xbb1200 + 4 * i), 0);
		wr(e.gpu, 0xbb1200 + 4 * i, 0xffffffffu);
		wr(e.gpu, 0xbb1400 + 4 * i, 0x0000ffffu);
		assert_int_equal(rd(e.gpu, 0xbb1200 + 4 * i), 0xffff0000u);
		assert_int_equal(rd(e.gpu, 0xbb1400 + 4 * i), 0xffff0000u);
	}
	wr(e.gpu, 0xbb1608, 0xffu);
	wr(e.gpu, 0xbb1610, 0x0fu);
	assert_int_equal(rd(e.gpu, 0xbb1608), 0xf0u);
	assert_int_equal(rd(e.gpu, 0xbb1610), 0xf0u);
	wr(e.gpu, 0xbb1600, 0xffffffffu);
	assert_int_equal(rd(e.gpu, 0xbb1600), 0);
	uint32_t pb[] = { HDR_INC(0, 0x20, 1), 0 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x2100) >> 31, 1);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(rd(e.gpu, 0xbb1000 + 4 * i), 0);
	assert_int_equal(rd(e.gpu, 0xbb1600), 0);
	env_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_and_ids),
		cmocka_unit_test(submit_per_runlist),
		cmocka_unit_test(doorbell_handles),
		cmocka_unit_test(vf_doorbell_pending_enable),
		cmocka_unit_test(clear_faulted_by_handle),
		cmocka_unit_test(turing_classes),
		cmocka_unit_test(interrupts),
		cmocka_unit_test(cpu_intr_tree_registers),
		cmocka_unit_test(pbdma_status_inst_userd),
		cmocka_unit_test(device_info),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
