/*
 * The H100 silicon record (refs/silicon-h100.md) on the gh100 profile: its
 * pushbuffer and semaphore cases run on a channel set up as RM's Hopper code
 * writes it (RAMFC GP_BASE_HI without LIMIT2 and GP_INFO, ver3 page tables,
 * the work-submit token at NV_VIRTUAL_FUNCTION_DOORBELL; GA100's runlist and
 * channel RAM, UNVERIFIED). Where silicon disagrees with the gv100 manual
 * (a signed 64-bit IADD is accepted and carries), gh100 follows silicon;
 * test_host_run.c keeps gv100's manual.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "host_env.h"

#define PB0 0x40000u /* PBDMA 0 (GR runlist's first) */

static uint32_t vram32(nvm_gpu *g, uint64_t a)
{
	uint32_t v = 0;
	nvm_mem_rd32(g, NVM_AP_VRAM, a, &v);
	return v;
}

static struct env_chan *gh_channel(struct env *e)
{
	env_init_chip(e, "gh100");
	struct env_chan *c = env_chan(e, 0, 5);
	env_submit_tsg(e, 0, 1, &c, 1);
	assert_string_equal(env_run(e, 100000), "idle");
	return c;
}

static size_t gr_log(struct env *e, nvm_method *log, size_t max)
{
	size_t n = 0;
	uint64_t total = 0;
	assert_int_equal(nvm_method_log_read(e->gpu, "gr", 0, log, max, &n, &total), NVM_OK);
	return n;
}

/* silicon-h100.md "Pushbuffer decoding": INC / NON_INC / IMMD as the manual
 * says; USERD GP_GET, GET, TOP_LEVEL_GET_HI (VALID 31) written back
 * ("USERD"). GP_INFO LIMIT2 sizes the ring (GP_BASE_HI has no LIMIT2). */
static void runs_a_pushbuffer(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = gh_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x000, 1),      0xcb97, HDR_INC(0, 0x200, 3), 1, 2, 3, HDR_NINC(0, 0x300, 2), 7, 8,
		          HDR_IMMD(0, 0x400, 0x1234) };
	env_push(&e, c, pb, 10);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[16];
	assert_int_equal(gr_log(&e, log, 16), 6);
	uint32_t want_m[] = { 0x200, 0x204, 0x208, 0x300, 0x300, 0x400 };
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(log[i].method, want_m[i]);
		assert_int_equal(log[i].cls, 0xcb97);
	}
	assert_int_equal(vram32(e.gpu, c->userd + 0x88), 1);
	assert_int_equal(vram32(e.gpu, c->userd + 0x44), (uint32_t)(c->pb_va + 40));
	assert_int_equal(vram32(e.gpu, c->userd + 0x5c), (uint32_t)(c->pb_va >> 32) | 0x80000000u);
	assert_int_equal(rd(e.gpu, PB0 + 0xa4), 6); /* GP_INFO LIMIT2, loaded from RAMFC dword 41 */
	env_fini(&e);
}

/* silicon-h100.md: SEC_OP 6 raises PBENTRY (INTR_0 18); methods before it
 * ran, nothing after; USERD GET points just past the bad word. */
static void pbentry(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = gh_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1, 0xc0000000u, HDR_INC(0, 0x204, 1), 2 };
	env_push(&e, c, pb, 5);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 18);
	nvm_method log[8];
	assert_int_equal(gr_log(&e, log, 8), 1);
	wr(e.gpu, PB0 + 0x108, 1u << 18);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(gr_log(&e, log, 8), 2);
	assert_int_equal(vram32(e.gpu, c->userd + 0x44), (uint32_t)c->pb_va + 20);
	env_fini(&e);
}

/* silicon-h100.md: an ILLEGAL GP entry raises GPENTRY (INTR_0 15); a
 * LENGTH-0 NOP entry with any operand is a no-op. */
static void gpentry(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = gh_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 9 };
	uint64_t va = env_pb(&e, c, pb, 2);
	env_gp_raw(&e, c, 0x12345678, 0);
	env_gp_raw(&e, c, 0, 1);
	env_gp(&e, c, va, 2, 0);
	env_kick(&e, c);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 15);
	wr(e.gpu, PB0 + 0x108, 1u << 15);
	assert_string_equal(env_run(&e, 100000), "idle");
	nvm_method log[4];
	assert_int_equal(gr_log(&e, log, 4), 1);
	env_fini(&e);
}

/* silicon-h100.md: a header whose COUNT runs past its GP segment takes its
 * data from the next entry; END_PB_SEGMENT ends the segment; a subdevice
 * mask that excludes SUBDEVICE_ID drops methods, Host ones too. */
static void segments_and_masks(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = gh_channel(&e);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	uint32_t s1[] = { HDR_INC(0, 0x200, 3), 1 };
	uint32_t s2[] = { 2, 3, 0xe0000000u, HDR_INC(0, 0x300, 1), 99 };
	uint32_t s3[] = { 0x00010000u,
		          HDR_INC(0, 0x5c, 5),
		          (uint32_t)sva,
		          (uint32_t)(sva >> 32),
		          5,
		          0,
		          1,
		          HDR_INC(0, 0x400, 1),
		          4,
		          0x0001fff0u,
		          HDR_INC(0, 0x404, 1),
		          5 };
	env_gp(&e, c, env_pb(&e, c, s1, 2), 2, 0);
	env_gp(&e, c, env_pb(&e, c, s2, 5), 5, 0);
	env_gp(&e, c, env_pb(&e, c, s3, 12), 12, 0);
	env_kick(&e, c);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[8];
	assert_int_equal(gr_log(&e, log, 8), 4);
	assert_int_equal(log[3].method, 0x404);
	assert_int_equal(vram32(e.gpu, spa), 0);
	env_fini(&e);
}

/* silicon-h100.md "Semaphores": releases (a 32-bit RELEASE_TIMESTAMP writes
 * the payload, 0, and the PTIMER at +8), reductions (IMIN signed/unsigned,
 * IADD wrapping, INC/DEC 32-bit unsigned), invalid INC/DEC forms raising
 * INTR_0 SEMAPHORE with memory unchanged, and the Hopper difference: a
 * 64-bit IADD with either format is accepted and carries. */
static void semaphores(void **state)
{
	(void)state;
	struct {
		uint32_t exec, lo, hi, payload, want_lo, want_hi;
		int intr;
	} cases[] = {
		{ 6u | 6u << 27 | 1u << 31, 4, 0, 5, 5, 0, 0 },                      /* INC: v + 1 */
		{ 6u | 7u << 27 | 1u << 31, 0, 0, 5, 5, 0, 0 },                      /* DEC: 0 -> p */
		{ 6u | 0u << 27, 0xfffffffeu, 0, 1, 0xfffffffeu, 0, 0 },             /* IMIN signed */
		{ 6u | 5u << 27, 0xffffffffu, 7, 2, 1, 7, 0 },                       /* IADD 32-bit wraps */
		{ 6u | 5u << 27 | 1u << 24, 0xffffffffu, 1, 1, 0, 2, 0 },            /* 64-bit signed IADD carries */
		{ 6u | 5u << 27 | 1u << 24 | 1u << 31, 0xffffffffu, 1, 1, 0, 2, 0 }, /* and unsigned */
		{ 6u | 6u << 27, 1, 0, 5, 1, 0, 1 },                                 /* signed INC: invalid */
		{ 6u | 6u << 27 | 1u << 24 | 1u << 31, 1, 0, 5, 1, 0, 1 },           /* 64-bit INC: invalid */
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct env e;
		struct env_chan *c = gh_channel(&e);
		uint64_t spa;
		uint64_t sva = env_map(&e, 4096, &spa);
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa, cases[k].lo);
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 4, cases[k].hi);
		uint32_t pb[] = { HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), cases[k].payload, 0,
			          cases[k].exec };
		env_push(&e, c, pb, 6);
		env_run(&e, 100000);
		assert_int_equal(vram32(e.gpu, spa), cases[k].want_lo);
		assert_int_equal(vram32(e.gpu, spa + 4), cases[k].want_hi);
		assert_int_equal(rd(e.gpu, PB0 + 0x108), cases[k].intr ? 1u << 25 : 0);
		env_fini(&e);
	}
	/* RELEASE with RELEASE_TIMESTAMP, 32-bit: payload, 0, PTIMER at +8. */
	struct env e;
	struct env_chan *c = gh_channel(&e);
	uint64_t spa;
	uint64_t sva = env_map(&e, 4096, &spa);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, spa + 4, 0xffffffffu);
	uint32_t pb[] = { HDR_INC(0, 0x5c, 5), (uint32_t)sva, (uint32_t)(sva >> 32), 0x42, 0, 1u | 1u << 25 };
	env_push(&e, c, pb, 6);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(vram32(e.gpu, spa), 0x42);
	assert_int_equal(vram32(e.gpu, spa + 4), 0);
	assert_int_not_equal(vram32(e.gpu, spa + 8) | vram32(e.gpu, spa + 12), 0);
	env_fini(&e);
}

/* A C8B5 copy to an unmapped VA on subchannel sub of a channel on runlist
 * rl (0: GR, GRCOPY on subchannel 4; 1: CE2): the fault the GMMU latches
 * (NV_VIRTUAL_FUNCTION_PRIV_MMU_FAULT_INST_LO ENGINE_ID 8:0, FAULT_INFO
 * CLIENT 14:8, as the fault packet's). */
static void ce_fault(unsigned rl, unsigned sub, unsigned *engine, unsigned *client)
{
	struct env e;
	env_init_chip(&e, "gh100");
	e.runlist = rl; /* the channel's CHRAM and doorbell are its runlist's */
	struct env_chan *c = env_chan(&e, 0, 5);
	env_submit_tsg(&e, rl, 1, &c, 1);
	assert_string_equal(env_run(&e, 100000), "idle");
	uint64_t spa, sva = env_map(&e, 4096, &spa), far = 0x7000000000ull;
	uint32_t pb[] = { HDR_INC(sub, 0x000, 1),
		          0xc8b5,
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
	*engine = rd(e.gpu, 0xb83088) & 0x1ff;
	*client = rd(e.gpu, 0xb83090) >> 8 & 0x7f;
	env_fini(&e);
}

/* RM's gh100 dev_fault.h numbers the MMU engines GRAPHICS 384, CE0 43 ..:
 * the Host's engines take their ids from the GMMU generation, so PTOP's
 * FAULT_ID, the copy engines' faults and `fault decode --chip gh100` agree
 * (GRCOPY is CE0 with HUB client CE0 1, CE2 45 with HUB client CE2 0x18). */
static void mmu_engine_ids(void **state)
{
	(void)state;
	nvm_gpu *g;
	nvm_config cfg = { .chip = "gh100", .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	assert_int_equal(nvm_open(&cfg, &g), NVM_OK);
	unsigned gr = ~0u, ce0 = ~0u, ce2 = ~0u;
	for (uint32_t i = 0; i + 3 <= (rd(g, 0x224fc) >> 20); i += 3) {
		uint32_t r0 = rd(g, 0x22800 + 4 * i), type = r0 >> 24 & 0x3f, inst = r0 >> 16 & 0xf;
		unsigned fault = r0 & 0x7ff;
		if (type == 0)
			gr = fault;
		else if (type == 0x13 && inst == 0)
			ce0 = fault;
		else if (type == 0x13 && inst == 2)
			ce2 = fault;
	}
	nvm_close(g);
	assert_int_equal(gr, 384);
	assert_int_equal(ce0, 43);
	assert_int_equal(ce2, 45);
	char name[32];
	assert_string_equal(nvm_mmu_chip_engine_name("gh100", gr, name, sizeof(name)), "GRAPHICS(VEID 0)");
	unsigned engine, client;
	ce_fault(1, 1, &engine, &client);
	assert_int_equal(engine, 45);
	assert_int_equal(client, 0x18);
	assert_string_equal(nvm_mmu_chip_engine_name("gh100", engine, name, sizeof(name)), "CE2");
	ce_fault(0, 4, &engine, &client); /* GRCOPY */
	assert_int_equal(engine, 43);
	assert_int_equal(client, 1);
	assert_string_equal(nvm_mmu_chip_engine_name("gh100", engine, name, sizeof(name)), "CE0");
}

/* C86F is C76F's successor (host-generations-facts H4; UNVERIFIED: the
 * methods RM's reduced clc86f.h does not show are C76F's): MEM_OP_D
 * OPERATION MMU_OPERATION (0xb, clc76f.h) is accepted, not INTR_0 METHOD. */
static void mem_op_mmu_operation(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = gh_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x34, 1), 0xbu << 27 | 1u << 20, HDR_INC(0, 0x50, 1), 0x99 };
	env_push(&e, c, pb, 4);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0);
	assert_int_equal(env_userd(&e, c, 0x48), 0x99); /* SET_REFERENCE after it ran */
	env_fini(&e);
}

/* ---------------------------------------------------------------- SET_PB_SEGMENT_EXTENDED_BASE */

#define EXT_BASE 3u           /* PB_EXTENDED_BASE_OPERAND */
#define EXT_LOW  0x7650000ull /* the segment's 40-bit part: unmapped by itself */

/* Maps a page at EXT_BASE << 40 | EXT_LOW holding pb. UNVERIFIED (gh100.c,
 * docs/fidelity.md): the extended base gives VA bits 56:40. */
static void map_high_pb(struct env *e, const uint32_t *pb, uint32_t n)
{
	uint64_t pa = env_alloc(e, 4096, 4096);
	ptb_map(&e->pt, (uint64_t)EXT_BASE << 40 | EXT_LOW, 4096, pa | 1); /* ver3 PTE */
	nvm_mem_write(e->gpu, NVM_AP_VRAM, pa, pb, n * 4);
}

/* clc86f.h: GP_ENTRY1 OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE (LENGTH 0)
 * with GP_ENTRY0 PB_EXTENDED_BASE_OPERAND 24:8 sets GP_INFO
 * PB_SEGMENT_EXTENDED_BASE 24:8 (dev_esched_pbdma.h, 0xA4); the next
 * segments' addresses take it as their upper bits; LIMIT2 4:0 stays. */
static void set_pb_segment_extended_base(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = gh_channel(&e);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 0x77, HDR_INC(0, 0x204, 1), 0x78 };
	map_high_pb(&e, pb, 4);
	env_gp_raw(&e, c, EXT_BASE << 8 | 0xfe0000ffu, 4); /* bits outside 24:8 ignored */
	env_gp(&e, c, EXT_LOW, 2, 0);
	env_gp(&e, c, EXT_LOW + 8, 2, 0); /* still extended */
	env_kick(&e, c);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 0); /* no GPENTRY, no fault */
	assert_int_equal(rd(e.gpu, PB0 + 0xa4), EXT_BASE << 8 | 6);
	nvm_method log[4];
	assert_int_equal(gr_log(&e, log, 4), 2);
	assert_int_equal(log[0].method, 0x200);
	assert_int_equal(log[0].data, 0x77);
	assert_int_equal(log[1].data, 0x78);
	/* OPERAND 0 sets it back: the low PB area runs again */
	env_gp_raw(&e, c, 0, 4);
	env_push(&e, c, (const uint32_t[]){ HDR_INC(0, 0x208, 1), 0x79 }, 2);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, PB0 + 0xa4), 6);
	assert_int_equal(gr_log(&e, log, 4), 3);
	env_fini(&e);
}

/* RAMFC GP_INFO (dword 41, NV_RAMFC_GP_INFO) carries the extended base:
 * loaded with the channel, saved when it is switched out. */
static void extended_base_in_ramfc(void **state)
{
	(void)state;
	struct env e;
	env_init_chip(&e, "gh100");
	struct env_chan *a = env_chan(&e, 0, 5);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, a->inst + 0xa4, EXT_BASE << 8 | 6); /* restored from RAMFC */
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 0x77 };
	map_high_pb(&e, pb, 2);
	env_gp(&e, a, EXT_LOW, 2, 0);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, a->userd + 0x8c, a->gp_put);
	env_submit_tsg(&e, 0, 1, &a, 1);
	assert_string_equal(env_run(&e, 1000000), "idle");
	nvm_method log[4];
	assert_int_equal(gr_log(&e, log, 4), 1);
	assert_int_equal(log[0].data, 0x77);
	/* a: base 5; another TSG takes the PBDMA and a is saved */
	env_gp_raw(&e, a, 5u << 8, 4);
	env_kick(&e, a);
	assert_string_equal(env_run(&e, 1000000), "idle");
	struct env_chan *b = env_chan(&e, 1, 6);
	env_submit_tsg(&e, 0, 2, &b, 1);
	env_push(&e, b, (const uint32_t[]){ HDR_INC(0, 0x204, 1), 1 }, 2);
	assert_string_equal(env_run(&e, 1000000), "idle");
	assert_int_equal(vram32(e.gpu, a->inst + 0xa4), 5u << 8 | 6);
	assert_int_equal(rd(e.gpu, PB0 + 0xa4), 6); /* b's own GP_INFO */
	env_fini(&e);
}

/* gv100..ga102 keep OPCODE 4 undefined (clc36f.h..clc76f.h): INTR_0
 * GPENTRY (15), GP_INFO untouched. */
static void opcode4_undefined_before_hopper(void **state)
{
	(void)state;
	static const char *const chips[] = { "gv100", "tu102", "ga100", "ga102" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		struct env e;
		env_init_chip(&e, chips[i]);
		struct env_chan *c = env_chan(&e, 0, 5);
		env_submit_tsg(&e, 0, 1, &c, 1);
		assert_string_equal(env_run(&e, 100000), "idle");
		env_gp_raw(&e, c, EXT_BASE << 8, 4);
		env_kick(&e, c);
		env_run(&e, 100000);
		uint32_t pb0 = i < 2 ? 0x40000u : PB0;
		assert_int_equal(rd(e.gpu, pb0 + 0x108), 1u << 15);
		env_fini(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_a_pushbuffer),
		cmocka_unit_test(pbentry),
		cmocka_unit_test(gpentry),
		cmocka_unit_test(segments_and_masks),
		cmocka_unit_test(semaphores),
		cmocka_unit_test(mmu_engine_ids),
		cmocka_unit_test(mem_op_mmu_operation),
		cmocka_unit_test(set_pb_segment_extended_base),
		cmocka_unit_test(extended_base_in_ramfc),
		cmocka_unit_test(opcode4_undefined_before_hopper),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
