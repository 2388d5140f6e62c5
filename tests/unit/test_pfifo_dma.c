/*
 * PFIFO of NV04..NV4x, the DMA pusher (envytools dma-pusher.rst: "Pusher
 * state", "Errors", "Channel control area", "NV4-style mode", "The
 * commands - pre-GF100 format", "The pusher pseudocode - pre-GF100"; seed
 * 001 "The pusher") and channel switches with RAMFC (seed 001, intro.rst).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "pfifo_env.h"

static const char *const chips[] = { "nv04", "nv10", "nv11", "nv17", "nv40", "nv41" };
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

#define DMA_STATE_ERROR(s) ((s) >> 29)
#define SUSPENDED          (1u << 12)

static bool has_call(const char *chip)
{
	return strcmp(chip, "nv04") && strcmp(chip, "nv10");
}

/* Every profile: a DMA channel's pushbuffer reaches PGRAPH; DMA_GET and
 * (NV10+) REF read through the channel control area (0x44, 0x48). */
static void dma_channel_each_chip(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 2, 0x62);
		uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0002, PB_INC(0, 0x300, 3), 1, 2, 3, PB_INC(0, 0x50, 1), 0x77 };
		size_t n = e.nv04 ? 6 : 8;
		pe_pb(&e, 0, pb, n);
		pe_put(&e, 2, (uint32_t)n * 4);
		assert_string_equal(pe_run(&e, 1000000), "idle");
		nvm_method log[8];
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 4);
		assert_int_equal(log[3].method, 0x308);
		assert_int_equal(log[3].data, 3);
		assert_int_equal(log[3].cls, 0x62);
		uint32_t u = pe_user(&e, 2);
		assert_int_equal(rd(e.gpu, u + 0x44), n * 4);
		assert_int_equal(rd(e.gpu, u + 0x40), n * 4);
		if (!e.nv04)
			assert_int_equal(rd(e.gpu, u + 0x48), 0x77);
		/* DMA_PUSH: ACCESS, EMPTY */
		assert_int_equal(rd(e.gpu, PE_DMA_PUSH), 1u | 1u << 8);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		pe_fini(&e);
	}
}

static void expect_dma_error(struct penv *e, unsigned code, uint32_t get)
{
	assert_int_equal(rd(e->gpu, PE_INTR) & PE_INTR_DMA_PUSHER, PE_INTR_DMA_PUSHER);
	assert_int_equal(DMA_STATE_ERROR(rd(e->gpu, PE_DMA_STATE)), code);
	assert_int_equal(rd(e->gpu, PE_DMA_PUSH) & SUSPENDED, SUSPENDED);
	assert_int_equal(rd(e->gpu, PE_DMA_GET), get);
	assert_int_equal(nvm_intr_line(e->gpu), 1);
}

/* nouveau's nv04_fifo_dma_pusher: skip to PUT, clear DMA_STATE, DMA_PUSH
 * 1, acknowledge: the pusher runs again. */
static void nouveau_recover(struct penv *e)
{
	wr(e->gpu, PE_DMA_GET, rd(e->gpu, PE_DMA_PUT));
	wr(e->gpu, PE_DMA_STATE, 0);
	wr(e->gpu, PE_DMA_PUSH, 1);
	wr(e->gpu, PE_INTR, PE_INTR_DMA_PUSHER);
}

/* "old jump [NV4+]": 001JJ..J00 sets dma_get; NV5+ keeps the address after
 * the jump in dma_get_jmp_shadow. */
static void old_jump(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 0, 0x62);
		uint32_t a[] = { PB_INC(0, 0, 1), 0xbeef0000, PB_OLD_JUMP(0x100) };
		uint32_t b[] = { PB_INC(0, 0x300, 1), 5 };
		pe_pb(&e, 0, a, 3);
		pe_pb(&e, 0x100, b, 2);
		pe_put(&e, 0, 0x108);
		pe_run(&e, 1000000);
		nvm_method log[4];
		assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].data, 5);
		assert_int_equal(rd(e.gpu, PE_DMA_GET), 0x108);
		if (!e.nv04) {
			assert_int_equal(rd(e.gpu, PE_JMP_SHD), 12);
			assert_int_equal(rd(e.gpu, PE_RSVD_SHD), PB_INC(0, 0x300, 1));
			assert_int_equal(rd(e.gpu, PE_DATA_SHD), 5);
		}
		pe_fini(&e);
	}
}

/* "jump [NV1A+]" (JJ..J01), "call" (JJ..J10), "return" (0x00020000): NV11,
 * NV17, NV4x take them; NV04 and NV10 raise INVALID_CMD (the seed: call and
 * return from NV11; envytools: NV1A+, which comes before NV11). */
static void jump_call_return(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 0, 0x62);
		uint32_t main_[] = {
			PB_INC(0, 0, 1), 0xbeef0000, PB_CALL(0x200), PB_INC(0, 0x304, 1), 6, PB_JUMP(0x300)
		};
		uint32_t sub[] = { PB_INC(0, 0x300, 1), 5, PB_RETURN };
		uint32_t tail[] = { PB_INC(0, 0x308, 1), 7 };
		pe_pb(&e, 0, main_, 6);
		pe_pb(&e, 0x200, sub, 3);
		pe_pb(&e, 0x300, tail, 2);
		if (!has_call(chips[c])) {
			pe_put(&e, 0, 24);
			pe_run(&e, 1000000);
			expect_dma_error(&e, 4, 12); /* INVALID_CMD, past the call word */
			assert_int_equal(rd(e.gpu, PE_RSVD_SHD) == PB_CALL(0x200), !e.nv04);
			pe_fini(&e);
			continue;
		}
		/* stop inside the subroutine: DMA_CGET (NV40 area) is subr_return */
		pe_put(&e, 0, 0x208);
		pe_run(&e, 1000000);
		assert_int_equal(rd(e.gpu, PE_DMA_GET), 0x208);
		if (e.nv40) {
			assert_int_equal(rd(e.gpu, pe_user(&e, 0) + 0x54), 12);
			assert_int_equal(rd(e.gpu, PE_DMA_STATE) & (1u << 17), 1u << 17);
		} else {
			assert_int_equal(rd(e.gpu, PE_SUBR), 12 | 1u);
		}
		pe_put(&e, 0, 0x308);
		pe_run(&e, 1000000);
		nvm_method log[8];
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 4);
		assert_int_equal(log[1].method, 0x300);
		assert_int_equal(log[2].method, 0x304);
		assert_int_equal(log[3].method, 0x308);
		assert_int_equal(rd(e.gpu, PE_JMP_SHD), 24);
		if (e.nv40)
			assert_int_equal(rd(e.gpu, pe_user(&e, 0) + 0x54), 0x308);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		pe_fini(&e);
	}
}

/* Pseudocode: call while subr_active -> CALL_SUBR_ACTIVE (1); return while
 * not -> RET_SUBR_INACTIVE (3). */
static void subroutine_errors(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv17");
	pe_std_channel(&e, 0, 0x62);
	uint32_t main_[] = { PB_CALL(0x100) };
	uint32_t sub[] = { PB_CALL(0x200) };
	pe_pb(&e, 0, main_, 1);
	pe_pb(&e, 0x100, sub, 1);
	pe_put(&e, 0, 4);
	pe_run(&e, 1000000);
	expect_dma_error(&e, 1, 0x104);
	nouveau_recover(&e);
	assert_int_equal(rd(e.gpu, PE_DMA_GET), 4);
	uint32_t ret[] = { PB_RETURN };
	pe_pb(&e, 4, ret, 1);
	wr(e.gpu, PE_SUBR, 0); /* the driver also drops the subroutine */
	pe_put(&e, 0, 8);
	pe_run(&e, 1000000);
	expect_dma_error(&e, 3, 8);
	pe_fini(&e);
}

/* "non-increasing methods [NV10+]": every data word to one method, the NI
 * flag in the CACHE1 entry (ADDR NONINC 0:0); NV04 raises INVALID_CMD. */
static void non_increasing(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 0, 0x62);
		uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0000, PB_NINC(0, 0x400, 3), 1, 2, 3 };
		pe_pb(&e, 0, pb, 6);
		wr(e.gpu, PE_PULL0, 0);
		pe_put(&e, 0, 24);
		pe_run(&e, 1000000);
		if (e.nv04) {
			expect_dma_error(&e, 4, 12);
			pe_fini(&e);
			continue;
		}
		uint32_t m = e.nv40 ? 0x90000u : 0x3800u;
		assert_int_equal(rd(e.gpu, m + 8), 0x400u | 1u);
		assert_int_equal(rd(e.gpu, m + 24), 0x400u | 1u);
		wr(e.gpu, PE_PULL0, 1);
		pe_run(&e, 1000000);
		nvm_method log[8];
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 4);
		for (int i = 1; i < 4; i++) {
			assert_int_equal(log[i].method, 0x400);
			assert_int_equal(log[i].data, (uint32_t)i);
		}
		pe_fini(&e);
	}
}

/* "An attempt to submit invalid method in 0..0xfc range will cause a
 * DMA_PUSHER error of type INVALID_MTHD": after dma_get moved past the data
 * word and data_shadow took it, before the count went down. REF_CNT (0x50)
 * is such a method on NV04 only. */
static void invalid_method(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 0, 0x62);
		uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0000, PB_INC(0, 0x50, 1), 9, PB_INC(1, 0x0c, 2), 0xaa, 0xbb };
		pe_pb(&e, 0, pb, 7);
		pe_put(&e, 0, 28);
		pe_run(&e, 1000000);
		if (e.nv04) {
			expect_dma_error(&e, 2, 16);
			assert_int_equal(rd(e.gpu, PE_DMA_STATE) & 0x1fffffffu, 1u << 18 | 0x50);
			pe_fini(&e);
			continue;
		}
		expect_dma_error(&e, 2, 24);
		/* METHOD 0x0c, SUBCHANNEL 1, METHOD_COUNT 2 */
		assert_int_equal(rd(e.gpu, PE_DMA_STATE) & 0x1fffffffu, 2u << 18 | 1u << 13 | 0x0c);
		assert_int_equal(rd(e.gpu, PE_DATA_SHD), 0xaa);
		assert_int_equal(rd(e.gpu, PE_RSVD_SHD), PB_INC(1, 0x0c, 2));
		assert_int_equal(rd(e.gpu, PE_DCOUNT), 0);
		assert_int_equal(rd(e.gpu, pe_user(&e, 0) + 0x48), 9); /* REF_CNT was done */
		/* nouveau's recovery resumes the channel */
		nouveau_recover(&e);
		uint32_t more[] = { PB_INC(0, 0x300, 1), 1 };
		pe_pb(&e, 28, more, 2);
		pe_put(&e, 0, 36);
		pe_run(&e, 1000000);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		nvm_method log[4];
		assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
		pe_fini(&e);
	}
}

/* "At all times, dma_get has to be <= dma_limit. Going past the limit or
 * getting a VM fault ... results in DMA_PUSHER error of type MEM_FAULT";
 * NV04 fetches only from PCI/AGP memory (seed 001). */
static void mem_faults(void **state)
{
	(void)state;
	struct penv e;
	/* past the limit: a 256-byte pushbuffer object */
	pe_init(&e, "nv10");
	uint32_t pb = pe_dmaobj(&e, 0x3d, 2, 0, PE_PB, PE_PB + 0xff);
	pe_dma_channel(&e, 0, pb, 0);
	pe_put(&e, 0, 0x200);
	pe_run(&e, 1000000);
	expect_dma_error(&e, 6, 0x100);
	pe_fini(&e);
	/* no page table */
	pe_init(&e, "nv17");
	pb = pe_dmaobj(&e, 0x3d, 2, 0, PE_PB, PE_PB + 0xfff);
	pe_wr(&e, pb, pe_rd(&e, pb) & ~0x1000u);
	pe_dma_channel(&e, 0, pb, 0);
	pe_put(&e, 0, 0x10);
	pe_run(&e, 1000000);
	expect_dma_error(&e, 6, 0);
	pe_fini(&e);
	/* outside system memory */
	pe_init(&e, "nv40");
	pb = pe_dmaobj(&e, 0x3d, 2, 0, 0xff000000u, 0xff000fffu);
	pe_dma_channel(&e, 0, pb, 0);
	pe_put(&e, 0, 0x10);
	pe_run(&e, 1000000);
	expect_dma_error(&e, 6, 0);
	pe_fini(&e);
	/* a VRAM pushbuffer: NV04 faults, NV05+ (nv10) reads it */
	for (int k = 0; k < 2; k++) {
		pe_init(&e, k ? "nv10" : "nv04");
		pb = pe_dmaobj(&e, 0x3d, 0, 0, 0x200000, 0x200fff);
		pe_dma_channel(&e, 0, pb, 0);
		pe_object(&e, 0, 1, 0x62, 1);
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, 0x200000, PB_INC(0, 0, 1));
		nvm_mem_wr32(e.gpu, NVM_AP_VRAM, 0x200004, 1);
		pe_put(&e, 0, 8);
		pe_run(&e, 1000000);
		if (!k) {
			expect_dma_error(&e, 6, 0);
		} else {
			nvm_method log[2];
			assert_int_equal(pe_log(&e, "pgraph", log, 2), 1);
		}
		pe_fini(&e);
	}
}

/* A DMA object without PT_LINEAR: one PTE per 4 KiB page (nv4-dmaobj). */
static void paged_pushbuffer(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv11");
	uint32_t pb = pe_alloc(&e, 16);
	pe_wr(&e, pb, 0x3d | 0x1000u | 2u << 16); /* PT_PRESENT, PCI, not linear */
	pe_wr(&e, pb + 4, 0x1fff);
	pe_wr(&e, pb + 8, PE_PB + 0x5003); /* frame | PRESENT | WRITABLE, as nouveau's NV04 GART */
	pe_wr(&e, pb + 12, PE_PB + 0x3003);
	pe_dma_channel(&e, 0, pb, 0xff8);
	pe_object(&e, 0, 1, 0x62, 1);
	uint32_t w1[] = { PB_INC(0, 0, 1), 1 }, w2[] = { PB_INC(0, 0x300, 1), 3 };
	pe_pb(&e, 0x5ff8, w1, 2);
	pe_pb(&e, 0x3000, w2, 2);
	pe_put(&e, 0, 0x1008);
	pe_run(&e, 1000000);
	nvm_method log[2];
	assert_int_equal(pe_log(&e, "pgraph", log, 2), 2);
	assert_int_equal(log[1].data, 3);
	pe_fini(&e);
}

/* A hook that rewrites the pushbuffer's page table while the pusher runs
 * (here: from the event of a method the pusher passed straight to PGRAPH):
 * the pusher translates DMA_GET again before every command, so the next
 * command comes from the new frame. The pusher's chained feeds must find
 * the change where the piece-by-piece loop did. */
static uint32_t repage_pte_at;
static void repage_hook(void *user, const nvm_event *ev)
{
	struct penv *e = user;
	if (ev->type == NVM_EV_METHOD && ev->addr == 0x300)
		pe_wr(e, repage_pte_at, PE_PB + 0x7003);
}

static void hook_repages_pushbuffer(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		uint32_t pb = pe_alloc(&e, 16);
		pe_wr(&e, pb, 0x3d | 0x1000u | 2u << 16); /* PT_PRESENT, PCI, not linear */
		pe_wr(&e, pb + 4, 0x1fff);
		pe_wr(&e, pb + 8, PE_PB + 0x5003);
		pe_wr(&e, pb + 12, PE_PB + 0x3003); /* page 1 */
		repage_pte_at = pb + 12;
		pe_dma_channel(&e, 0, pb, 0x1000);
		pe_object(&e, 0, 1, e.nv40 ? 0x4097 : 0x62, 1);
		uint32_t bind[] = { PB_INC(0, 0, 1), 1 };
		uint32_t a[] = { PB_INC(0, 0x300, 1), 3, PB_INC(0, 0x304, 1), 4 }, b[] = { PB_INC(0, 0x304, 1), 0x44 };
		pe_pb(&e, 0x3000, bind, 2);
		pe_put(&e, 0, 0x1008);
		pe_run(&e, 1000000);
		pe_pb(&e, 0x3008, a, 4);
		pe_pb(&e, 0x7010, b, 2);
		int id;
		assert_int_equal(nvm_hook_add(e.gpu, NVM_EV_MASK(NVM_EV_METHOD), repage_hook, &e, &id), NVM_OK);
		pe_put(&e, 0, 0x1018);
		pe_run(&e, 1000000);
		nvm_method log[3];
		assert_int_equal(pe_log(&e, "pgraph", log, 3), 3);
		assert_int_equal(log[1].method, 0x300);
		assert_int_equal(log[2].method, 0x304);
		assert_int_equal(log[2].data, 0x44);
		pe_fini(&e);
	}
}

/* rnndb INTR DMA_PTE 16, CACHE1 DMA_TLB_TAG / DMA_TLB_PTE. UNVERIFIED
 * (docs/fidelity.md): the pusher meets a PTE without PRESENT (bit 0, as
 * nouveau's NV04 GART PTEs have it) of a DMA object without PT_LINEAR: it
 * stops at that word with DMA_PTE raised, the TLB registers naming the
 * page and PTE; DMA_STATE has no error. The driver fixes the PTE and
 * clears the interrupt: the pusher goes on. Every profile. */
static void dma_pte_not_present(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(chips) / sizeof(chips[0]); c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		uint32_t pb = pe_alloc(&e, 16);
		pe_wr(&e, pb, 0x3d | 0x1000u | 2u << 16); /* PT_PRESENT, PCI, not linear */
		pe_wr(&e, pb + 4, 0x1fff);
		pe_wr(&e, pb + 8, PE_PB + 0x5003);
		pe_wr(&e, pb + 12, PE_PB + 0x3002); /* page 1: not present */
		pe_dma_channel(&e, 0, pb, 0xff8);
		pe_object(&e, 0, 1, e.nv40 ? 0x4097 : 0x62, 1);
		uint32_t w1[] = { PB_INC(0, 0, 1), 1 }, w2[] = { PB_INC(0, 0x300, 1), 3 };
		pe_pb(&e, 0x5ff8, w1, 2);
		pe_pb(&e, 0x3000, w2, 2);
		pe_put(&e, 0, 0x1008);
		assert_string_equal(pe_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, PE_INTR), 1u << 16);
		assert_int_equal(rd(e.gpu, PE_DMA_GET), 0x1000);
		assert_int_equal(rd(e.gpu, 0x3238), 1);              /* DMA_TLB_TAG: page 1 */
		assert_int_equal(rd(e.gpu, 0x323c), PE_PB + 0x3002); /* DMA_TLB_PTE */
		assert_int_equal(rd(e.gpu, PE_DMA_STATE) >> 29, 0);
		assert_int_equal(rd(e.gpu, PE_DMA_PUSH) & 0x1000, 0); /* not SUSPENDED */
		nvm_method log[2];
		assert_int_equal(pe_log(&e, "pgraph", log, 2), 1);
		nvm_pfifo_stats st;
		assert_int_equal(nvm_pfifo_get_stats(e.gpu, &st), NVM_OK);
		assert_int_equal(st.dma_pte_faults, 1);
		/* still faulting after a clear without a fix: raised again */
		wr(e.gpu, PE_INTR, 1u << 16);
		assert_string_equal(pe_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, PE_INTR), 1u << 16);
		pe_wr(&e, pb + 12, PE_PB + 0x3003);
		wr(e.gpu, PE_INTR, 1u << 16);
		assert_string_equal(pe_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		assert_int_equal(rd(e.gpu, PE_DMA_GET), 0x1008);
		assert_int_equal(pe_log(&e, "pgraph", log, 2), 2);
		assert_int_equal(log[1].data, 3);
		pe_fini(&e);
	}
}

/* "SLI conditional [NV40+, if enabled]": sli_active = mask & sli_mask;
 * methods are discarded while inactive; without sli_enable the command is
 * INVALID_CMD, and before NV40 it does not exist. */
static void sli_conditional(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv40");
	pe_std_channel(&e, 0, 0x4097);
	uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0000,          PB_SLI(2), PB_INC(0, 0x300, 1), 5,
		          PB_SLI(3),       PB_INC(0, 0x304, 1), 6 };
	pe_pb(&e, 0, pb, 8);
	/* sli_mask in the SLI register (nouveau writes 1); sli_enable and
	 * sli_active are channel state in RAMFC 0x18 29:28, which nouveau's
	 * NV40 channels start with set */
	wr(e.gpu, 0x2058, 1u);
	pe_put(&e, 0, 32);
	pe_run(&e, 1000000);
	nvm_method log[4];
	assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
	assert_int_equal(log[1].method, 0x304);
	assert_int_equal(rd(e.gpu, 0x2058) & (1u << 28), 1u << 28);
	pe_fini(&e);
	for (int k = 0; k < 2; k++) {
		pe_init(&e, k ? "nv17" : "nv40");
		pe_std_channel(&e, 0, 0x62);
		if (e.nv40) /* nouveau's NV40 RAMFC sets SLI ENABLE and ACTIVE (0x18 29:28) */
			pe_wr(&e, e.ramfc + 0x18, pe_rd(&e, e.ramfc + 0x18) & ~0x30000000u);
		uint32_t w[] = { PB_SLI(1) };
		pe_pb(&e, 0, w, 1);
		pe_put(&e, 0, 4);
		pe_run(&e, 1000000);
		expect_dma_error(&e, 4, 4);
		pe_fini(&e);
	}
}

/* intro.rst: NV1A introduced big-endian mode for pushbuffer reads, per
 * channel (DMA_FETCH ENDIAN 31:31). */
static void big_endian_fetch(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv17");
	pe_std_channel(&e, 0, 0x62);
	pe_wr(&e, e.ramfc + 0x14, pe_rd(&e, e.ramfc + 0x14) | 1u << 31);
	uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0000, PB_INC(0, 0x300, 1), 0x11223344 };
	for (int i = 0; i < 4; i++)
		pb[i] = (pb[i] >> 24) | ((pb[i] >> 8) & 0xff00u) | ((pb[i] << 8) & 0xff0000u) | (pb[i] << 24);
	pe_pb(&e, 0, pb, 4);
	pe_put(&e, 0, 16);
	pe_run(&e, 1000000);
	nvm_method log[2];
	assert_int_equal(pe_log(&e, "pgraph", log, 2), 2);
	assert_int_equal(log[1].data, 0x11223344);
	pe_fini(&e);
}

/* A pushbuffer that jumps to itself never empties: the run reports a hang
 * (the run budget), it does not loop forever. */
static void self_jump_is_a_hang(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv04");
	pe_std_channel(&e, 0, 0x62);
	uint32_t pb[] = { PB_OLD_JUMP(0) };
	pe_pb(&e, 0, pb, 1);
	pe_put(&e, 0, 8);
	nvm_run_opts o = { .ns = 1000000000ull, .flags = NVM_RUN_UNTIL_IDLE, .max_events = 200000 };
	assert_int_equal(nvm_run(e.gpu, &o), NVM_RUN_HANG);
	assert_int_equal(rd(e.gpu, PE_INTR), 0);
	pe_fini(&e);
}

/* Issue 23 item 5: every loop a pushbuffer can make spends the run budget
 * within a bounded number of words, so it is reported as a hang in well
 * under a second. Each command word costs a work unit and data words one
 * per PFIFO_WORK_PER_UNIT (4): with a budget of `units`, the pusher stops
 * after at most ~4 * units words (before the fix: 256 words per unit, a
 * jump back over zero words decoded 2.4e9 words with the default budget). */
#define LOOP_UNITS 20000u

static uint64_t loop_words(struct penv *e)
{
	nvm_run_opts o = { .ns = 1ull << 40, .flags = NVM_RUN_UNTIL_IDLE, .max_events = LOOP_UNITS };
	assert_int_equal(nvm_run(e->gpu, &o), NVM_RUN_HANG);
	nvm_pfifo_stats s;
	assert_int_equal(nvm_pfifo_get_stats(e->gpu, &s), NVM_OK);
	assert_true(s.dma_words > 0);
	assert_true(s.dma_words <= 4u * LOOP_UNITS + 4096u);
	return s.dma_words;
}

/* A jump back over 1024 zero words (each an empty method header). */
static void loop_over_zero_words_is_a_hang(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 0, 0x62);
		uint32_t pb[] = { PB_OLD_JUMP(0) };
		pe_pb(&e, 0x1000, pb, 1);
		pe_put(&e, 0, 0x1004);
		loop_words(&e);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		pe_fini(&e);
	}
}

/* A loop of data: a bind, then 1024 increasing PGRAPH methods and a jump
 * back to them. */
static void loop_of_data_is_a_hang(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 0, 0x62);
		uint32_t pb[1028];
		pb[0] = PB_INC(0, 0, 1);
		pb[1] = 0xbeef0000u;
		pb[2] = PB_INC(0, 0x400, 1024);
		for (uint32_t i = 0; i < 1024; i++)
			pb[3 + i] = i;
		pb[1027] = PB_OLD_JUMP(8);
		pe_pb(&e, 0, pb, 1028);
		pe_put(&e, 0, 1028 * 4);
		loop_words(&e);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		pe_fini(&e);
	}
}

/* A call without a return: the subroutine jumps back over zero words to
 * its own start (NV1A+ calls). */
static void call_without_return_is_a_hang(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		if (!has_call(chips[c]))
			continue;
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 0, 0x62);
		uint32_t pb[] = { PB_CALL(0x100) }, sub[] = { PB_JUMP(0x100) };
		pe_pb(&e, 0, pb, 1);
		pe_pb(&e, 0x1000, sub, 1);
		pe_put(&e, 0, 4);
		loop_words(&e);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		pe_fini(&e);
	}
}

/* Two DMA channels: CACHE1 switches between them when empty (seed 001:
 * "Pre-NV50, it needs to be empty before the pusher can switch channels"),
 * saving and loading RAMFC; with a short DMA_TIMESLICE they alternate. */
static void channels_take_turns(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv10");
	uint32_t pbo = pe_dmaobj(&e, 0x3d, 2, 0, PE_PB, PE_PB + 0xfffff);
	uint32_t gr = pe_grobj(&e, 0x62);
	enum { N = 3000 };
	static uint32_t w[N + 2];
	for (uint32_t ch = 1; ch <= 2; ch++) {
		pe_dma_channel(&e, ch, pbo, ch * 0x10000);
		pe_ramht_add(&e, ch, 0x77, gr, 1);
		w[0] = PB_INC(0, 0, 1);
		w[1] = 0x77;
		for (uint32_t i = 0; i < N; i++)
			w[2 + i] = (i & 1) ? ch << 16 | i : PB_INC(0, 0x300, 1);
		pe_pb(&e, ch * 0x10000, w, N + 2);
	}
	wr(e.gpu, 0x2044, 0x01000000u | 999u); /* 1 us timeslices */
	pe_put(&e, 1, 0x10000 + (N + 2) * 4);
	pe_put(&e, 2, 0x20000 + (N + 2) * 4);
	assert_string_equal(pe_run(&e, 100000000), "idle");
	static nvm_method log[N + 8];
	size_t n = pe_log(&e, "pgraph", log, N + 8);
	assert_int_equal(n, 2 * (1 + N / 2));
	unsigned turns = 0;
	for (size_t i = 1; i < n; i++)
		turns += log[i].chid != log[i - 1].chid;
	assert_true(turns > 4);
	nvm_pfifo_stats s;
	nvm_pfifo_get_stats(e.gpu, &s);
	assert_true(s.ctx_switches > 4);
	/* both pushbuffers consumed; the channel CACHE1 does not hold has its
	 * state in RAMFC */
	assert_int_equal(rd(e.gpu, pe_user(&e, 1) + 0x44), 0x10000 + (N + 2) * 4);
	assert_int_equal(rd(e.gpu, pe_user(&e, 2) + 0x44), 0x20000 + (N + 2) * 4);
	uint32_t other = (rd(e.gpu, PE_PUSH1) & 0x1f) == 1 ? 2 : 1;
	assert_int_equal(pe_rd(&e, e.ramfc + other * 32 + 4), other * 0x10000 + (N + 2) * 4);
	pe_fini(&e);
}

/* A channel switched out in the middle of a long method sequence carries
 * it in RAMFC DMA_STATE (METHOD, SUBCHANNEL, METHOD_COUNT, NONINC) and
 * goes on where it stopped; a channel whose MODE bit is set while CACHE1
 * holds it becomes a DMA channel at once (PUSH1 MODE). */
static void switch_inside_a_sequence(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv17");
	uint32_t pbo = pe_dmaobj(&e, 0x3d, 2, 0, PE_PB, PE_PB + 0xfffff);
	uint32_t gr = pe_grobj(&e, 0x99);
	enum { N = 2000 };
	static uint32_t w[N + 3];
	for (uint32_t ch = 1; ch <= 2; ch++) {
		pe_dma_channel(&e, ch, pbo, ch * 0x10000);
		pe_ramht_add(&e, ch, 0x77, gr, 1);
		w[0] = PB_INC(3, 0, 1);
		w[1] = 0x77;
		w[2] = PB_NINC(3, 0x400, N);
		for (uint32_t i = 0; i < N; i++)
			w[3 + i] = ch << 16 | i;
		pe_pb(&e, ch * 0x10000, w, N + 3);
	}
	wr(e.gpu, 0x2044, 0x01000000u | 299u);
	pe_put(&e, 1, 0x10000 + (N + 3) * 4);
	pe_put(&e, 2, 0x20000 + (N + 3) * 4);
	assert_string_equal(pe_run(&e, 100000000), "idle");
	static nvm_method log[2 * N + 4];
	size_t n = pe_log(&e, "pgraph", log, 2 * N + 4);
	assert_int_equal(n, 2 * (N + 1));
	uint32_t next[3] = { 0, 0, 0 };
	unsigned turns = 0;
	for (size_t i = 0; i < n; i++) {
		turns += i && log[i].chid != log[i - 1].chid;
		if (log[i].method != 0x400)
			continue;
		assert_int_equal(log[i].subch, 3);
		assert_int_equal(log[i].data, log[i].chid << 16 | next[log[i].chid]);
		next[log[i].chid]++;
	}
	assert_int_equal(next[1], N);
	assert_int_equal(next[2], N);
	assert_true(turns > 4);
	pe_fini(&e);

	/* MODE set for the channel CACHE1 holds */
	pe_init(&e, "nv10");
	pe_pio(&e, 5, 0, 0x0100, 1); /* channel 5 takes CACHE1 in PIO mode */
	wr(e.gpu, PE_ENGINE, 1);
	pe_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PE_PUSH1), 5);
	wr(e.gpu, PE_MODE, 1u << 5);
	assert_int_equal(rd(e.gpu, PE_PUSH1), 5u | 1u << 8);
	pe_fini(&e);
}

/* NV10+ submits methods to the engine in pairs (seed 001): the same
 * pushbuffer takes less time than on NV04. */
static void paired_submission_is_faster(void **state)
{
	(void)state;
	uint64_t took[2];
	for (int k = 0; k < 2; k++) {
		struct penv e;
		pe_init(&e, k ? "nv10" : "nv04");
		pe_std_channel(&e, 0, 0x62);
		static uint32_t w[1002];
		w[0] = PB_INC(0, 0, 1);
		w[1] = 0xbeef0000;
		w[2] = PB_INC(0, 0x400, 999);
		for (int i = 0; i < 999; i++)
			w[3 + i] = (uint32_t)i;
		pe_pb(&e, 0, w, 1002);
		uint64_t t0 = nvm_time_ns(e.gpu);
		pe_put(&e, 0, 1002 * 4);
		assert_string_equal(pe_run(&e, 100000000), "idle");
		took[k] = nvm_time_ns(e.gpu) - t0;
		nvm_method log[1];
		size_t n;
		uint64_t total;
		nvm_method_log_read(e.gpu, "pgraph", 0, log, 0, &n, &total);
		assert_int_equal(total, 1000);
		pe_fini(&e);
	}
	assert_true(took[1] < took[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(dma_channel_each_chip),
		cmocka_unit_test(old_jump),
		cmocka_unit_test(jump_call_return),
		cmocka_unit_test(subroutine_errors),
		cmocka_unit_test(non_increasing),
		cmocka_unit_test(invalid_method),
		cmocka_unit_test(mem_faults),
		cmocka_unit_test(paged_pushbuffer),
		cmocka_unit_test(dma_pte_not_present),
		cmocka_unit_test(hook_repages_pushbuffer),
		cmocka_unit_test(sli_conditional),
		cmocka_unit_test(big_endian_fetch),
		cmocka_unit_test(self_jump_is_a_hang),
		cmocka_unit_test(loop_over_zero_words_is_a_hang),
		cmocka_unit_test(loop_of_data_is_a_hang),
		cmocka_unit_test(call_without_return_is_a_hang),
		cmocka_unit_test(channels_take_turns),
		cmocka_unit_test(switch_inside_a_sequence),
		cmocka_unit_test(paired_submission_is_faster),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
