/*
 * G80 PFIFO, the puller and the channels: semaphores (envytools puller.rst
 * "Semaphores": old-style on G80+, new-style and the long semaphore on
 * G84+, the G80:GF100 SEMAPHORE error subtypes), REF_CNT ("Syncing with
 * host"), NOTIFY_INTR (G84+), the SOFTWARE engine; seed 001 NV50 parts:
 * PIO channel 0 at 0x800000, channel switches saving the cache to memory,
 * FREEZE (0x2504 ENABLE 0 / FROZEN 4); rnndb fifo/g80_pfifo.xml.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "g80fifo_env.h"

static const char *const chips[] = { "g80", "g84", "g92", "gt215" };
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

#define SEM_ERR(e) ((rd((e)->gpu, GE_PULL0) >> 20) & 0xf)

/* A channel with the PGRAPH object bound on subchannel 0 and the semaphore
 * object on DMA_SEMAPHORE. */
static void sem_channel(struct genv *e, uint32_t c)
{
	ge_channel(e, c, 0x5097, true);
	uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0000u + c, GE_INC(0, 0x60, 1), 0xdead0000u + c };
	ge_push(e, c, pb, 4);
	assert_string_equal(ge_run(e, 1000000), "idle");
	assert_int_equal(rd(e->gpu, GE_INTR), 0);
}

static void expect_sem_error(struct genv *e, unsigned sub)
{
	assert_int_equal(rd(e->gpu, GE_INTR) & GE_INTR_SEMAPHORE, GE_INTR_SEMAPHORE);
	assert_int_equal(SEM_ERR(e), sub);
	assert_int_equal(nvm_intr_line(e->gpu), 1);
}

/* puller.rst: old-style semaphores on G80:GF100: DMA_SEMAPHORE without
 * verification, a 16-bit SEMAPHORE_OFFSET, RELEASE writes the word through
 * the DMA object (slot 5/4/1), ACQUIRE waits until it is equal. */
static void old_style_release_acquire(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		sem_channel(&e, 1);
		ge_vw(&e, GE_SEM + 0x10, 0);
		uint32_t pb[] = { GE_INC(0, 0x64, 1), 0x10, GE_INC(0, 0x6c, 1),  0xabcd,
			          GE_INC(0, 0x68, 1), 5,    GE_INC(0, 0x200, 1), 0x99 };
		ge_push(&e, 1, pb, 8);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(ge_vr(&e, GE_SEM + 0x10), 0xabcd);
		assert_int_equal(rd(e.gpu, GE_PULL1) & 0x10, 0x10); /* ACQUIRE_ACTIVE */
		assert_int_equal(rd(e.gpu, GE_SEMAPHORE) & 0x7fff, 0x4000u | (0x10 >> 2));
		assert_int_equal(rd(e.gpu, GE_SEMAPHORE) >> 16, GE_SEL_SEM);
		nvm_method log[4];
		assert_int_equal(ge_log(&e, "pgraph", log, 4), 1); /* 0x200 waits behind the acquire */
		ge_vw(&e, GE_SEM + 0x10, 5);                       /* the CPU releases */
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].data, 0x99);
		assert_int_equal(rd(e.gpu, GE_PULL1) & 0x10, 0);
		ge_fini(&e);
	}
}

/* puller.rst "G80:GF100 SEMAPHORE error subtypes": 1 ADDRESS_UNALIGNED,
 * 2 INVALID_STATE (acquire/release without a valid offset), 3
 * ADDRESS_TOO_LARGE (>16-bit offset), 4 MEM_FAULT (VM fault). */
static void old_style_errors(void **state)
{
	(void)state;
	struct {
		uint32_t m, d;
		unsigned sub;
		bool need_offset;
	} cases[] = {
		{ 0x64, 0x12, 1, false },
		{ 0x64, 0x10000, 3, false },
		{ 0x6c, 1, 2, false },
		{ 0x68, 1, 2, false },
		{ 0x6c, 1, 4, true } /* offset 0x2000 is past the object's limit */,
		{ 0x68, 1, 4, true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct genv e;
		ge_init(&e, chips[i % NCHIPS]);
		sem_channel(&e, 2);
		if (cases[i].need_offset) {
			uint32_t o[] = { GE_INC(0, 0x64, 1), 0x2000 };
			ge_push(&e, 2, o, 2);
		}
		uint32_t pb[] = { GE_INC(0, cases[i].m, 1), cases[i].d };
		ge_push(&e, 2, pb, 2);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		expect_sem_error(&e, cases[i].sub);
		/* nouveau: step GET, write PULL0, acknowledge: the puller goes on */
		wr(e.gpu, GE_GET, (rd(e.gpu, GE_GET) + 4) & 0x1fc);
		wr(e.gpu, GE_PULL0, 1);
		wr(e.gpu, GE_INTR, GE_INTR_SEMAPHORE);
		assert_int_equal(SEM_ERR(&e), 0);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, GE_INTR), 0);
		ge_fini(&e);
	}
}

/* puller.rst "New-style semaphores" (G84+): SEMAPHORE_ADDRESS_HIGH/LOW,
 * SEQUENCE, TRIGGER 2 (WRITE_LONG: sequence, 0, 64-bit PTIMER time). */
static void new_style_write_long(void **state)
{
	(void)state;
	for (size_t k = 1; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		sem_channel(&e, 3);
		for (int i = 0; i < 4; i++)
			ge_vw(&e, GE_SEM + 0x100 + 4u * (uint32_t)i, 0xffffffffu);
		uint32_t pb[] = { GE_INC(0, 0x10, 4), 0, 0x100, 0x1234, 2 };
		ge_push(&e, 3, pb, 5);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, GE_INTR), 0);
		assert_int_equal(ge_vr(&e, GE_SEM + 0x100), 0x1234);
		assert_int_equal(ge_vr(&e, GE_SEM + 0x104), 0);
		uint64_t ts = (uint64_t)ge_vr(&e, GE_SEM + 0x10c) << 32 | ge_vr(&e, GE_SEM + 0x108);
		assert_true(ts != 0xffffffffffffffffull);
		assert_true(ts <= nvm_time_ns(e.gpu) + 1000000);
		ge_fini(&e);
	}
}

/* puller.rst: TRIGGER 1 ACQUIRE_EQUAL waits for == sequence, 4
 * ACQUIRE_GEQUAL for (int32_t)(val - sequence) >= 0; PULL1 ACQUIRE_SOURCE
 * (5) NEW, ACQUIRE_MODE (7). */
static void new_style_acquire_modes(void **state)
{
	(void)state;
	for (size_t k = 1; k < NCHIPS; k++) {
		for (int geq = 0; geq < 2; geq++) {
			struct genv e;
			ge_init(&e, chips[k]);
			sem_channel(&e, 4);
			ge_vw(&e, GE_SEM + 0x20, 0x100);
			uint32_t pb[] = { GE_INC(0, 0x10, 4), 0, 0x20, 0x200, geq ? 4u : 1u, GE_INC(0, 0x204, 1), 7 };
			ge_push(&e, 4, pb, 7);
			assert_string_equal(ge_run(&e, 1000000), "idle");
			uint32_t p1 = rd(e.gpu, GE_PULL1);
			assert_int_equal(p1 & 0x10, 0x10);
			assert_int_equal((p1 >> 5) & 1, 1);
			assert_int_equal((p1 >> 7) & 1, (uint32_t)geq);
			ge_vw(&e, GE_SEM + 0x20, 0x300); /* greater: only GEQUAL is satisfied */
			assert_string_equal(ge_run(&e, 1000000), "idle");
			nvm_method log[4];
			assert_int_equal(ge_log(&e, "pgraph", log, 4), geq ? 2 : 1);
			ge_vw(&e, GE_SEM + 0x20, 0x200);
			assert_string_equal(ge_run(&e, 1000000), "idle");
			assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
			ge_fini(&e);
		}
	}
}

/* puller.rst: ACQUIRE_GEQUAL is "(int32_t)(val - semaphore_sequence) >= 0,
 * ie. [...] greater or equal [...] in 32-bit wrapping arithmetic": a value
 * just below a sequence across 0x80000000 waits, one past it does not. */
static void gequal_wraps(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g92");
	sem_channel(&e, 4);
	ge_vw(&e, GE_SEM + 0x30, 0x7fffff00u);
	uint32_t pb[] = { GE_INC(0, 0x10, 4), 0, 0x30, 0x80000100u, 4, GE_INC(0, 0x204, 1), 7 };
	ge_push(&e, 4, pb, 7);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, GE_PULL1) & 0x10, 0x10);
	ge_vw(&e, GE_SEM + 0x30, 0x80000200u);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, GE_PULL1) & 0x10, 0);
	nvm_method log[4];
	assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
	ge_fini(&e);
}

/* puller.rst: SEMAPHORE_ADDRESS_HIGH beyond 8 bits is ADDRESS_TOO_LARGE,
 * SEMAPHORE_ADDRESS_LOW not divisible by 4 ADDRESS_UNALIGNED; a trigger at
 * an address the DMA object does not map is MEM_FAULT. */
static void new_style_errors(void **state)
{
	(void)state;
	struct {
		uint32_t m, d;
		unsigned sub;
	} cases[] = { { 0x10, 0x100, 3 }, { 0x14, 0x22, 1 }, { 0x1c, 2, 4 }, { 0x1c, 1, 4 } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct genv e;
		ge_init(&e, chips[1 + i % 3]);
		sem_channel(&e, 5);
		uint32_t a[] = { GE_INC(0, 0x14, 1), 0x5000 }; /* past the object's 4 KiB */
		ge_push(&e, 5, a, 2);
		uint32_t pb[] = { GE_INC(0, cases[i].m, 1), cases[i].d };
		ge_push(&e, 5, pb, 2);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		expect_sem_error(&e, cases[i].sub);
		ge_fini(&e);
	}
}

/* puller.rst "Syncing with host": REF_CNT sets the reference counter
 * (USER 0x48); G84 NOTIFY_INTR raises INTR NOTIFY (30) to PMC. */
static void ref_cnt_and_notify(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		sem_channel(&e, 6);
		uint32_t pb[] = { GE_INC(0, 0x50, 1), 0x1111 };
		ge_push(&e, 6, pb, 2);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, ge_user(6) + 0x48), 0x1111);
		if (k) {
			wr(e.gpu, GE_INTR_EN, 0xffffffffu);
			uint32_t n[] = { GE_INC(0, 0x20, 1), 0 };
			ge_push(&e, 6, n, 2);
			assert_string_equal(ge_run(&e, 1000000), "idle");
			assert_int_equal(rd(e.gpu, GE_INTR), GE_INTR_NOTIFY);
			assert_int_equal(nvm_intr_line(e.gpu), 1);
			wr(e.gpu, GE_INTR, GE_INTR_NOTIFY);
			assert_int_equal(nvm_intr_line(e.gpu), 0);
		}
		ge_fini(&e);
	}
}

/* seed 001: "On NV50+, channels have separate RAMHTs": the same handle
 * names different objects in two channels; a handle not in the channel's
 * RAMHT is CACHE_ERROR (NO_HASH, PULL0 HASH_FAILED 4). */
static void per_channel_ramht(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g92");
	ge_channel(&e, 1, 0x5097, true);
	ge_channel(&e, 2, 0x502d, true);
	ge_ramht_add(&e, 1, 0xcafe, GE_SEL_GR, 1);
	ge_ramht_add(&e, 2, 0xcafe, GE_SEL_GR, 1);
	uint32_t pb[] = { GE_INC(0, 0, 1), 0xcafe, GE_INC(0, 0x200, 1), 1 };
	ge_push(&e, 1, pb, 4);
	ge_push(&e, 2, pb, 4);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	nvm_method log[8];
	assert_int_equal(ge_log(&e, "pgraph", log, 8), 4);
	assert_int_equal(log[1].cls, 0x5097);
	assert_int_equal(log[3].cls, 0x502d);
	uint32_t bad[] = { GE_INC(0, 0, 1), 0xbeef0001u }; /* channel 1's handle in channel 2 */
	ge_push(&e, 2, bad, 2);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, GE_INTR) & GE_INTR_CACHE_ERROR, GE_INTR_CACHE_ERROR);
	assert_int_equal(rd(e.gpu, GE_PULL0) & 0x10, 0x10);
	ge_fini(&e);
}

/* rnndb g80_pfifo_engine: the engine ids and their names by chip (G80 PMPEG
 * 2, PME 3, PVP1 4; G84/G92 PMPEG 2, PVP2 4, PCIPHER 5, PBSP 6; GT215 PPPP 2,
 * PCOPY 3, PPDEC 4, PVLD 6), seed 002's engine-context selectors. An
 * object whose RAMHT context names the engine routes its subchannel's
 * methods to that engine's recorder; an id the chip lacks (G84 3, GT215 5)
 * reaches no engine. */
static void other_engines(void **state)
{
	(void)state;
	static const struct {
		const char *chip;
		unsigned eng;
		const char *log; /* NULL: the chip has no engine with this id */
	} c[] = {
		{ "g80", 2, "pmpeg" },   { "g80", 3, "pme" },     { "g80", 4, "pvp1" }, { "g80", 5, NULL },
		{ "g84", 2, "pmpeg" },   { "g84", 3, NULL },      { "g84", 4, "pvp2" }, { "g84", 5, "pcipher" },
		{ "g84", 6, "pbsp" },    { "g92", 5, "pcipher" }, { "g92", 6, "pbsp" }, { "gt215", 2, "pppp" },
		{ "gt215", 3, "pcopy" }, { "gt215", 4, "ppdec" }, { "gt215", 5, NULL }, { "gt215", 6, "pvld" },
	};
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct genv e;
		ge_init(&e, c[i].chip);
		ge_channel(&e, 3, 0x5097, true);
		ge_vw(&e, GE_CHAN(3) + 0x700 * 16, 0x74b0); /* the engine object's class */
		ge_ramht_add(&e, 3, 0x7000, 0x700, c[i].eng);
		uint32_t pb[] = { GE_INC(4, 0, 1), 0x7000,      GE_INC(4, 0x400, 2), 0x11, 0x22,
			          GE_INC(0, 0, 1), 0xbeef0003u, GE_INC(0, 0x300, 1), 0x33 };
		ge_push(&e, 3, pb, 9);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		nvm_method log[4];
		if (c[i].log) {
			assert_int_equal(rd(e.gpu, GE_INTR), 0);
			assert_int_equal(ge_log(&e, c[i].log, log, 4), 3);
			assert_int_equal(log[0].method, 0);
			assert_int_equal(log[0].data, 0x700);
			assert_int_equal(log[1].method, 0x400);
			assert_int_equal(log[2].data, 0x22);
			assert_int_equal(log[2].subch, 4);
			assert_int_equal(log[2].cls, 0x74b0);
		}
		/* PGRAPH got its own methods only */
		assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].method, 0x300);
		ge_fini(&e);
	}
	/* names a chip lacks have no log */
	struct genv e;
	ge_init(&e, "gt215");
	size_t n;
	assert_int_equal(nvm_method_log_read(e.gpu, "pcipher", 0, NULL, 0, &n, NULL), NVM_ERR_NOENT);
	assert_int_equal(nvm_method_log_read(e.gpu, "pmpeg", 0, NULL, 0, &n, NULL), NVM_ERR_NOENT);
	ge_fini(&e);
}

/* A SOFTWARE object (engine 0): its methods go to the SOFTWARE engine and
 * stop the puller with CACHE_ERROR (puller.rst, seed 001). */
static void software_engine(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g84");
	ge_channel(&e, 8, 0x5097, true);
	ge_vw(&e, GE_CHAN(8) + GE_SEL_SW * 16, 0x506e);
	ge_ramht_add(&e, 8, 0x5005, GE_SEL_SW, 0);
	uint32_t pb[] = { GE_INC(2, 0, 1), 0x5005 };
	ge_push(&e, 8, pb, 2);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal(rd(e.gpu, GE_INTR) & GE_INTR_CACHE_ERROR, GE_INTR_CACHE_ERROR);
	assert_int_equal(rd(e.gpu, GE_PULL0) & 0x100, 0x100); /* DEVICE_SOFTWARE */
	nvm_method log[2];
	assert_int_equal(ge_log(&e, "software", log, 2), 1);
	/* CACHE1 METHOD/DATA at 0x90000 + slot * 8, read as nouveau's
	 * nv04_fifo_cache_error does on G80 (NV40_PFIFO_CACHE1_METHOD(ptr));
	 * UNVERIFIED, not in rnndb g80_pfifo.xml */
	uint32_t ptr = (rd(e.gpu, GE_GET) & 0x7ff) >> 2;
	assert_int_equal(rd(e.gpu, 0x90000 + ptr * 8) & 0x1ffc, 0);
	assert_int_equal((rd(e.gpu, 0x90000 + ptr * 8) >> 13) & 7, 2);
	assert_int_equal(rd(e.gpu, 0x90004 + ptr * 8), 0x5005);
	nvm_reg_write(e.gpu, 0x90000 + 5 * 8, 0x2104); /* written as nv50's channel load does */
	nvm_reg_write(e.gpu, 0x90004 + 5 * 8, 0xabcd);
	assert_int_equal(rd(e.gpu, 0x90000 + 5 * 8), 0x2104);
	assert_int_equal(rd(e.gpu, 0x90004 + 5 * 8), 0xabcd);
	ge_fini(&e);
}

/* dma-pusher.rst "Channel control area": on G80 channel 0 is the PIO
 * channel with its area at 0x800000 (rnndb USER_PIO, FREE at 0x10). */
static void pio_channel0(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 0, 0x5097, false);
		/* CACHE1 starts on channel 0 without a switch: its RAMHT (and, G84+,
		 * CHAN_INST) registers are set directly, as RAMFC would load them. */
		wr(e.gpu, 0x2210, ge_vr(&e, ge_ramfc(&e, 0) + 0x80));
		if (k)
			wr(e.gpu, 0x3410, (uint32_t)(GE_CHAN(0) >> 12));
		uint32_t free0 = rd(e.gpu, 0x800010);
		assert_true(free0 > 0);
		wr(e.gpu, 0x800000, 0xbeef0000u);
		wr(e.gpu, 0x800000 + 0x200, 0x1234);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		nvm_method log[4];
		assert_int_equal(ge_log(&e, "pgraph", log, 4), 2);
		assert_int_equal(log[1].method, 0x200);
		assert_int_equal(log[1].data, 0x1234);
		assert_int_equal(log[1].chid, 0);
		/* a store the pusher refuses (an unknown low method) */
		wr(e.gpu, 0x800000 + 0x44, 1);
		assert_int_equal(rd(e.gpu, GE_INTR) & GE_INTR_PIO_ERROR, GE_INTR_PIO_ERROR);
		/* channel 1 has no PIO area */
		assert_int_equal(nvm_pfifo_user_write(e.gpu, 0x810000, 1, 4), NVM_ERR_RANGE);
		ge_fini(&e);
	}
}

/* seed 001: "Starting with NV50, [the cache is] saved to memory like other
 * parts of PFIFO context on channel switch": with the puller stopped,
 * channel 1's methods sit in CACHE1 when channel 2 takes it; they are in
 * channel 1's cache area (RAMFC CACHE_CNT 0x84) and come back with it. */
static void switch_saves_cache(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 1, 0x5097, true);
		ge_channel(&e, 2, 0x502d, true);
		uint32_t b1[] = { GE_INC(0, 0, 1), 0xbeef0001u, GE_INC(0, 0x300, 2), 0x11, 0x12 };
		uint32_t b2[] = { GE_INC(0, 0, 1), 0xbeef0002u, GE_INC(0, 0x400, 1), 0x21 };
		wr(e.gpu, GE_PULL0, 0);
		ge_push(&e, 1, b1, 5);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		ge_push(&e, 2, b2, 4);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, GE_PUSH1) & 0x7f, 2);
		assert_int_equal(ge_vr(&e, ge_ramfc(&e, 1) + 0x84), 3);
		/* the rest of its state too (rnndb G80_RAMFC): IB_GET 0x04, DMA_GET 0x10 */
		assert_int_equal(ge_vr(&e, ge_ramfc(&e, 1) + 0x04), 1);
		assert_int_equal(ge_vr(&e, ge_ramfc(&e, 1) + 0x10), (uint32_t)GE_PB(1) + 20);
		assert_int_equal(ge_vr(&e, ge_cache(&e, 1) + 4), 0xbeef0001u);
		assert_int_equal(ge_vr(&e, ge_cache(&e, 1) + 16), 0x304);
		assert_int_equal(ge_vr(&e, ge_cache(&e, 1) + 20), 0x12);
		wr(e.gpu, GE_PULL0, 1);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		nvm_method log[8];
		assert_int_equal(ge_log(&e, "pgraph", log, 8), 5);
		assert_int_equal(log[1].data, 0x21);
		assert_int_equal(log[1].cls, 0x502d);
		assert_int_equal(log[4].method, 0x304);
		assert_int_equal(log[4].cls, 0x5097);
		assert_int_equal(log[4].chid, 1);
		ge_fini(&e);
	}
}

/* The playlist and CHAN_TABLE ENABLE (31) decide which channels run
 * (nouveau's nv50_runl_commit, nv50_chan_start/stop). */
static void playlist_and_enable(void **state)
{
	(void)state;
	struct genv e;
	ge_init(&e, "g80");
	ge_channel(&e, 1, 0x5097, true);
	ge_channel(&e, 2, 0x5097, true);
	e.nplaylist = 1; /* only channel 1 */
	ge_playlist_commit(&e);
	uint32_t b2[] = { GE_INC(0, 0, 1), 0xbeef0002u };
	ge_push(&e, 2, b2, 2);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	nvm_method log[4];
	assert_int_equal(ge_log(&e, "pgraph", log, 4), 0);
	e.nplaylist = 2;
	wr(e.gpu, GE_CHAN_TABLE + 8, rd(e.gpu, GE_CHAN_TABLE + 8) & ~0x80000000u);
	ge_playlist_commit(&e);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal(ge_log(&e, "pgraph", log, 4), 0);
	wr(e.gpu, GE_CHAN_TABLE + 8, rd(e.gpu, GE_CHAN_TABLE + 8) | 0x80000000u);
	assert_string_equal(ge_run(&e, 1000000), "idle");
	assert_int_equal(ge_log(&e, "pgraph", log, 4), 1);
	ge_fini(&e);
}

/* seed 001 "NV50 & NVC0": FREEZE ENABLE (0) pauses PFIFO, FROZEN (4) comes
 * to 1; clearing ENABLE resumes it and FROZEN comes to 0. */
static void freeze(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		ge_channel(&e, 1, 0x5097, true);
		wr(e.gpu, GE_FREEZE, 1);
		assert_int_equal(rd(e.gpu, GE_FREEZE), 1);
		assert_string_equal(ge_run(&e, 1000), "idle");
		assert_int_equal(rd(e.gpu, GE_FREEZE), 0x11);
		uint32_t pb[] = { GE_INC(0, 0, 1), 0xbeef0001u };
		ge_push(&e, 1, pb, 2);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		nvm_method log[2];
		assert_int_equal(ge_log(&e, "pgraph", log, 2), 0);
		wr(e.gpu, GE_FREEZE, 0);
		assert_int_equal(rd(e.gpu, GE_FREEZE), 0x10);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		assert_int_equal(rd(e.gpu, GE_FREEZE), 0);
		assert_int_equal(ge_log(&e, "pgraph", log, 2), 1);
		ge_fini(&e);
	}
}

/* An acquire across channels: channel 1 waits, channel 2 releases through
 * the same semaphore; both finish. */
static void acquire_across_channels(void **state)
{
	(void)state;
	for (size_t k = 0; k < NCHIPS; k++) {
		struct genv e;
		ge_init(&e, chips[k]);
		sem_channel(&e, 1);
		sem_channel(&e, 120);
		ge_vw(&e, GE_SEM + 0x40, 0);
		uint32_t w[] = { GE_INC(0, 0x64, 1), 0x40, GE_INC(0, 0x68, 1), 9, GE_INC(0, 0x200, 1), 1 };
		ge_push(&e, 1, w, 6);
		assert_string_equal(ge_run(&e, 1000000), "idle");
		uint32_t r[] = { GE_INC(0, 0x64, 1), 0x40, GE_INC(0, 0x6c, 1), 9 };
		ge_push(&e, 120, r, 4);
		assert_string_equal(ge_run(&e, 10000000), "idle");
		nvm_method log[8];
		size_t n = ge_log(&e, "pgraph", log, 8);
		assert_int_equal(log[n - 1].method, 0x200);
		assert_int_equal(log[n - 1].chid, 1);
		assert_int_equal(rd(e.gpu, GE_INTR), 0);
		ge_fini(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(old_style_release_acquire),
		cmocka_unit_test(old_style_errors),
		cmocka_unit_test(new_style_write_long),
		cmocka_unit_test(new_style_acquire_modes),
		cmocka_unit_test(new_style_errors),
		cmocka_unit_test(ref_cnt_and_notify),
		cmocka_unit_test(per_channel_ramht),
		cmocka_unit_test(software_engine),
		cmocka_unit_test(other_engines),
		cmocka_unit_test(pio_channel0),
		cmocka_unit_test(switch_saves_cache),
		cmocka_unit_test(playlist_and_enable),
		cmocka_unit_test(freeze),
		cmocka_unit_test(acquire_across_channels),
		cmocka_unit_test(gequal_wraps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
