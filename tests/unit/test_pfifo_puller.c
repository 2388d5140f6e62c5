/*
 * PFIFO of NV04..NV4x, the puller's own methods (envytools puller.rst
 * "Puller builtin methods": REF_CNT, the old-style semaphores with their
 * SEMAPHORE errors, YIELD) and what they do to channels.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "pfifo_env.h"

#define SEM_VRAM 0x300000u

/* A write-only DMA object of class 0x0002 over 4 KiB of VRAM at SEM_VRAM,
 * handle 0x5e0 for channel chid (nouveau inserts DMA objects with engine
 * 0). */
static uint32_t sem_object(struct penv *e, uint32_t chid, uint32_t inst)
{
	if (!inst)
		inst = pe_dmaobj(e, 0x02, 0, 2, SEM_VRAM, SEM_VRAM + 0xfff);
	pe_ramht_add(e, chid, 0x5e0, inst, 0);
	return inst;
}

static uint32_t vram_rd(struct penv *e, uint64_t a)
{
	uint32_t v = 0;
	assert_int_equal(nvm_mem_rd32(e->gpu, NVM_AP_VRAM, a, &v), NVM_OK);
	return v;
}

/* REF_CNT [NV10:] "simply sets the ref counter to its parameter ... also
 * wait[s] for all previously submitted commands to complete". */
static void ref_cnt(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv40");
	pe_std_channel(&e, 6, 0x4097);
	uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0006, PB_INC(0, 0x400, 2), 1, 2, PB_INC(0, 0x50, 1), 0x1111 };
	pe_pb(&e, 0, pb, 7);
	pe_put(&e, 6, 28);
	pe_run(&e, 1000000);
	assert_int_equal(rd(e.gpu, pe_user(&e, 6) + 0x48), 0x1111);
	assert_int_equal(rd(e.gpu, PE_REF), 0x1111);
	/* the old-style area reads it too */
	assert_int_equal(rd(e.gpu, PE_USER + 6 * 0x10000 + 0x48), 0x1111);
	pe_fini(&e);
}

/* DMA_SEMAPHORE, SEMAPHORE_OFFSET, SEMAPHORE_RELEASE [NV1A-]: the release
 * writes the word at the offset of the DMA object; CACHE1 SEMAPHORE holds
 * PAGE 31:12, OFFSET 11:2, CTXDMA_VALID 0. NV11, NV17 and NV4x. */
static void semaphore_release(void **state)
{
	(void)state;
	const char *chips[] = { "nv11", "nv17", "nv40", "nv41" };
	for (int c = 0; c < 4; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		pe_std_channel(&e, 1, 0x62);
		sem_object(&e, 1, 0);
		uint32_t pb[] = { PB_INC(0, 0x60, 2), 0x5e0, 0x10, PB_INC(0, 0x6c, 1), 0xcafe0001 };
		pe_pb(&e, 0, pb, 5);
		pe_put(&e, 1, 20);
		pe_run(&e, 1000000);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		assert_int_equal(vram_rd(&e, SEM_VRAM + 0x10), 0xcafe0001);
		assert_int_equal(rd(e.gpu, PE_SEMAPHORE), SEM_VRAM | 0x10 | 1u);
		pe_fini(&e);
	}
}

/* SEMAPHORE errors, NV1A:G80 subtypes: 1 INVALID_OPERAND (a DMA_SEMAPHORE
 * object that is not write-only class 0x0002 with a page table, an offset
 * not 4-aligned in 12 bits), 2 INVALID_STATE (acquire or release without
 * a DMA object). PULL0 SEMAPHORE_ERROR 23:20; the puller waits; nouveau's
 * handler sets CTXDMA_VALID, steps GET and re-enables PULL0. */
static void semaphore_errors(void **state)
{
	(void)state;
	struct {
		uint32_t cls;
		unsigned access;
		uint32_t method, data;
		unsigned subtype;
	} cases[] = {
		{ 0x3d, 2, 0x60, 0x5e0, 1 },  /* not class 2 */
		{ 0x02, 0, 0x60, 0x5e0, 1 },  /* read-write, not write-only */
		{ 0x02, 2, 0x64, 0x1002, 1 }, /* offset */
		{ 0x02, 2, 0x6c, 1, 2 },      /* release without DMA_SEMAPHORE */
		{ 0x02, 2, 0x68, 1, 2 },      /* acquire without DMA_SEMAPHORE */
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct penv e;
		pe_init(&e, "nv17");
		pe_std_channel(&e, 0, 0x62);
		uint32_t inst = pe_dmaobj(&e, cases[k].cls, 0, cases[k].access, SEM_VRAM, SEM_VRAM + 0xfff);
		sem_object(&e, 0, inst);
		uint32_t pb[] = { PB_INC(0, cases[k].method, 1), cases[k].data, PB_INC(0, 0x50, 1), 0x77 };
		pe_pb(&e, 0, pb, 4);
		pe_put(&e, 0, 16);
		pe_run(&e, 1000000);
		assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_SEMAPHORE);
		assert_int_equal((rd(e.gpu, PE_PULL0) >> 20) & 0xf, cases[k].subtype);
		assert_int_equal(rd(e.gpu, PE_REF), 0);
		/* nouveau's nv04_fifo_intr SEMAPHORE branch */
		wr(e.gpu, PE_INTR, PE_INTR_SEMAPHORE);
		wr(e.gpu, PE_SEMAPHORE, rd(e.gpu, PE_SEMAPHORE) | 1);
		wr(e.gpu, PE_GET, rd(e.gpu, PE_GET) + 4);
		wr(e.gpu, PE_PULL0, 1);
		pe_run(&e, 1000000);
		assert_int_equal(rd(e.gpu, PE_REF), 0x77);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		pe_fini(&e);
	}
}

/* SEMAPHORE_ACQUIRE: "further command processing will halt until the
 * memory location contains the selected value"; another channel's release
 * lets it go on (PULL1 ACQUIRE_ACTIVE 4, ACQUIRE_VALUE). */
static void acquire_waits_for_another_channel(void **state)
{
	(void)state;
	const char *chips[] = { "nv17", "nv40" };
	for (int c = 0; c < 2; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		uint32_t pbo = pe_dmaobj(&e, 0x3d, 2, 0, PE_PB, PE_PB + 0xfffff);
		uint32_t gr = pe_grobj(&e, 0x62);
		uint32_t sem = 0;
		for (uint32_t ch = 1; ch <= 2; ch++) {
			pe_dma_channel(&e, ch, pbo, ch * 0x1000);
			pe_ramht_add(&e, ch, 0x77, gr, 1);
			sem = sem_object(&e, ch, sem);
		}
		uint32_t a[] = { PB_INC(0, 0, 1), 0x77, PB_INC(0, 0x60, 3), 0x5e0, 0x20, 5, PB_INC(0, 0x300, 1), 0xa };
		uint32_t b[] = { PB_INC(0, 0, 1), 0x77, PB_INC(0, 0x304, 1), 0xb, PB_INC(0, 0x60, 2),
			         0x5e0,           0x20, PB_INC(0, 0x6c, 1),  5 };
		pe_pb(&e, 0x1000, a, 8);
		pe_pb(&e, 0x2000, b, 9);
		pe_put(&e, 1, 0x1000 + 32);
		pe_run(&e, 1000000);
		/* channel 1 waits: its 0x300 has not reached PGRAPH */
		nvm_method log[8];
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 1);
		assert_int_equal(rd(e.gpu, PE_PULL1) & 0x10, 0x10);
		assert_int_equal(rd(e.gpu, PE_PULL0) & (1u << 16), 1u << 16); /* ACQUIRE_BUSY */
		assert_int_equal(rd(e.gpu, 0x3268), 5);
		pe_put(&e, 2, 0x2000 + 36);
		assert_string_equal(pe_run(&e, 1000000), "idle");
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 4);
		assert_int_equal(log[2].method, 0x304);
		assert_int_equal(log[3].method, 0x300);
		assert_int_equal(log[3].chid, 1);
		assert_int_equal(vram_rd(&e, SEM_VRAM + 0x20), 5);
		nvm_pfifo_stats s;
		nvm_pfifo_get_stats(e.gpu, &s);
		assert_int_equal(s.acquire_waits, 1);
		pe_fini(&e);
	}
}

/* An acquire satisfied by the CPU writing the semaphore (no polling: the
 * write wakes the puller). */
static void acquire_released_by_cpu(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv11");
	wr(e.gpu, PE_RAMFC, (e.ramfc >> 8) | 0x10000u);
	pe_std_channel(&e, 0, 0x62);
	sem_object(&e, 0, 0);
	uint32_t pb[] = { PB_INC(0, 0, 1), 0xbeef0000, PB_INC(0, 0x60, 3), 0x5e0, 0x40, 9, PB_INC(0, 0x300, 1), 1 };
	pe_pb(&e, 0, pb, 8);
	pe_put(&e, 0, 32);
	assert_string_equal(pe_run(&e, 1000000), "idle");
	nvm_method log[4];
	assert_int_equal(pe_log(&e, "pgraph", log, 4), 1);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, SEM_VRAM + 0x40, 8); /* not yet */
	assert_string_equal(pe_run(&e, 1000000), "idle");
	assert_int_equal(pe_log(&e, "pgraph", log, 4), 1);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, SEM_VRAM + 0x40, 9);
	assert_string_equal(pe_run(&e, 1000000), "idle");
	assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
	assert_int_equal(rd(e.gpu, PE_PULL1) & 0x10, 0);
	pe_fini(&e);
}

/* YIELD [NV40:]: "if there are any other busy channels at the moment, will
 * cause PFIFO to switch to another channel immediately, without waiting
 * for the timeslice to expire": once CACHE1 has drained (seed 001). */
static void yield_switches(void **state)
{
	(void)state;
	for (int yield = 0; yield < 2; yield++) {
		struct penv e;
		pe_init(&e, "nv41");
		uint32_t pbo = pe_dmaobj(&e, 0x3d, 2, 0, PE_PB, PE_PB + 0xfffff);
		uint32_t gr = pe_grobj(&e, 0x4097);
		for (uint32_t ch = 1; ch <= 2; ch++) {
			pe_dma_channel(&e, ch, pbo, ch * 0x10000);
			pe_ramht_add(&e, ch, 0x77, gr, 1);
		}
		static uint32_t a[2000 + 5];
		a[0] = PB_INC(0, 0, 1);
		a[1] = 0x77;
		a[2] = PB_INC(0, yield ? 0x80 : 0x100, 1); /* YIELD, or a NOP for PGRAPH */
		a[3] = 0;
		a[4] = PB_NINC(0, 0x400, 2000);
		uint32_t b[] = { PB_INC(0, 0, 1), 0x77, PB_INC(0, 0x304, 1), 0xb };
		pe_pb(&e, 0x10000, a, 2005);
		pe_pb(&e, 0x20000, b, 4);
		pe_put(&e, 1, 0x10000 + 2005 * 4);
		pe_put(&e, 2, 0x20000 + 16);
		pe_run(&e, 10000000);
		static nvm_method log[2010];
		size_t n = pe_log(&e, "pgraph", log, 2010);
		assert_int_equal(n, 2001 + 2 + (yield ? 0 : 1));
		size_t first2 = n, last1 = 0;
		for (size_t i = 0; i < n; i++) {
			if (log[i].chid == 2 && first2 == n)
				first2 = i;
			if (log[i].chid == 1)
				last1 = i;
		}
		if (yield)
			assert_true(first2 < last1);
		else
			assert_true(first2 > last1);
		pe_fini(&e);
	}
	/* YIELD is a reserved method before NV40 */
	struct penv e;
	pe_init(&e, "nv17");
	pe_std_channel(&e, 0, 0x62);
	uint32_t w[] = { PB_INC(0, 0x80, 1), 0 };
	pe_pb(&e, 0, w, 2);
	pe_put(&e, 0, 8);
	pe_run(&e, 1000000);
	assert_int_equal(rd(e.gpu, PE_DMA_STATE) >> 29, 2); /* INVALID_MTHD */
	pe_fini(&e);
}

/* Entries a driver writes into CACHE1 itself (METHOD(i)/DATA(i), PUT):
 * the puller executes them. A 0x04..0xfc method it does not know (the
 * pushers refuse those) stops it with CACHE_ERROR; a subchannel bound to an
 * engine the model lacks (PMPEG, 2) drops its methods with an unmodelled
 * event (docs/fidelity.md). */
static void cache1_written_by_the_driver(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv10");
	pe_object(&e, 31, 0x3174, 0x3174, 2);
	wr(e.gpu, PE_PULL0, 0);
	wr(e.gpu, 0x3800, 0x000);
	wr(e.gpu, 0x3804, 0x3174);
	wr(e.gpu, 0x3808, 0x400);
	wr(e.gpu, 0x380c, 1);
	wr(e.gpu, 0x3810, 0x014); /* unknown puller method */
	wr(e.gpu, 0x3814, 2);
	wr(e.gpu, PE_PUT, 12);
	uint64_t unm = nvm_event_count(e.gpu, NVM_EV_UNMODELLED);
	wr(e.gpu, PE_PULL0, 1);
	pe_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PE_ENGINE) & 0xf, 2);
	assert_int_equal(nvm_event_count(e.gpu, NVM_EV_UNMODELLED), unm + 2);
	assert_int_equal(rd(e.gpu, PE_GET), 8);
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_CACHE_ERROR);
	nvm_method log[2];
	assert_int_equal(pe_log(&e, "pgraph", log, 2), 0);
	pe_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ref_cnt),
		cmocka_unit_test(semaphore_release),
		cmocka_unit_test(semaphore_errors),
		cmocka_unit_test(acquire_waits_for_another_channel),
		cmocka_unit_test(acquire_released_by_cpu),
		cmocka_unit_test(yield_switches),
		cmocka_unit_test(cache1_written_by_the_driver),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
