/*
 * PFIFO of NV04..NV4x, submission by PIO: instance memory and the PRAMIN
 * window (envytools bars.rst / nv1-vram.rst "RAMIN"), RAMHT (puller.rst
 * "RAMHT and the FIFO objects", nouveau's hash), the PIO pusher, CACHE1 and
 * RAMRO (seed 001 "The pusher"), the puller's object binding, handle
 * translation and SOFTWARE engine (seed 001 "The puller", puller.rst
 * "Engine objects"), interrupts (nv1-pfifo.rst "Interrupt reporting").
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

/* bars.rst "BAR2/BAR3: RAMIN aperture": RAMIN starts from the end of VRAM
 * and goes in reverse, 32-bit words (nv1-vram.rst ramin_to_vram); BAR0
 * 0x700000 is the PRAMIN window (hw/mmio.rst: nv4-pramin, 1 MiB). */
static void pramin_maps_ramin_from_vram_end(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv10");
	uint64_t vram = nvm_mem_size(e.gpu, NVM_AP_VRAM);
	pe_wr(&e, 0, 0x11223344);
	pe_wr(&e, 4, 0x55667788);
	pe_wr(&e, 0xffffc, 0xcafe);
	uint32_t v;
	assert_int_equal(nvm_mem_rd32(e.gpu, NVM_AP_VRAM, vram - 4, &v), NVM_OK);
	assert_int_equal(v, 0x11223344);
	assert_int_equal(nvm_mem_rd32(e.gpu, NVM_AP_VRAM, vram - 8, &v), NVM_OK);
	assert_int_equal(v, 0x55667788);
	assert_int_equal(nvm_mem_rd32(e.gpu, NVM_AP_VRAM, vram - 0x100000, &v), NVM_OK);
	assert_int_equal(v, 0xcafe);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, vram - 12, 0xabcd);
	assert_int_equal(pe_rd(&e, 8), 0xabcd);
	pe_fini(&e);

	/* With less VRAM than the window, the rest reads 0 and is reported. */
	nvm_gpu *g;
	nvm_config cfg = { .chip = "nv04", .vram_size = 0x40000, .sysmem_size = 0x100000 };
	assert_int_equal(nvm_open(&cfg, &g), NVM_OK);
	uint64_t errs = nvm_event_count(g, NVM_EV_GUEST_ERROR);
	wr(g, PE_PRAMIN + 0x40000, 5);
	assert_int_equal(rd(g, PE_PRAMIN + 0x40000), 0);
	assert_int_equal(nvm_event_count(g, NVM_EV_GUEST_ERROR), errs + 2);
	nvm_close(g);
}

/* NV40's RAMIN BAR (nouveau's nv40 instmem: PCI BAR 2 or 3, offset = RAMIN
 * address; nv4-vram.rst "RAMIN" is "todo"): the same RAMIN as the PRAMIN
 * window, also beyond its 1 MiB, any alignment. Only on NV40/NV41.
 * UNVERIFIED: 16 MiB, within VRAM. */
static void ramin_bar_nv40(void **state)
{
	(void)state;
	const char *bar_chips[] = { "nv40", "nv41", "nv17", "nv04" };
	for (size_t c = 0; c < 4; c++) {
		struct penv e;
		pe_init(&e, bar_chips[c]);
		uint8_t b[8] = { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 }, r[8] = { 0 };
		if (!e.nv40) {
			assert_int_equal(nvm_pfifo_ramin_bar_write(e.gpu, 0x10000, b, 4), NVM_ERR_NOENT);
			assert_int_equal(nvm_pfifo_ramin_bar_read(e.gpu, 0x10000, r, 4), NVM_ERR_NOENT);
			pe_fini(&e);
			continue;
		}
		assert_int_equal(nvm_pfifo_ramin_bar_write(e.gpu, 0x10000, b, 4), NVM_OK);
		assert_int_equal(pe_rd(&e, 0x10000), 0x44332211u);
		pe_wr(&e, 0x10004, 0xcafef00du);
		assert_int_equal(nvm_pfifo_ramin_bar_read(e.gpu, 0x10003, r, 3), NVM_OK);
		assert_int_equal(r[0], 0x44);
		assert_int_equal(r[1], 0x0d);
		assert_int_equal(r[2], 0xf0);
		/* beyond the PRAMIN window: RAMIN 0x200000 at VRAM end - 4 - 0x200000 */
		assert_int_equal(nvm_pfifo_ramin_bar_write(e.gpu, 0x200000, b + 4, 4), NVM_OK);
		uint32_t v = 0;
		assert_int_equal(nvm_mem_rd32(e.gpu, NVM_AP_VRAM, (16u << 20) - 4 - 0x200000, &v), NVM_OK);
		assert_int_equal(v, 0x88776655u);
		/* the last word of VRAM-sized RAMIN, and past it */
		assert_int_equal(nvm_pfifo_ramin_bar_read(e.gpu, (16u << 20) - 4, r, 4), NVM_OK);
		assert_int_equal(nvm_pfifo_ramin_bar_read(e.gpu, (16u << 20) - 2, r, 4), NVM_ERR_RANGE);
		assert_int_equal(nvm_pfifo_ramin_bar_write(e.gpu, 0xffffffffu, b, 2), NVM_ERR_RANGE);
		assert_int_equal(nvm_pfifo_ramin_bar_read(e.gpu, 0, NULL, 4), NVM_ERR_ARG);
		/* a channel's RAMFC written through the BAR is what the switcher loads */
		uint32_t put = 0x40;
		assert_int_equal(nvm_pfifo_ramin_bar_write(e.gpu, e.ramfc + 2 * e.ramfc_size, &put, 4), NVM_OK);
		assert_int_equal(rd(e.gpu, PE_USER + 2 * 0x10000 + 0x40), 0x40);
		pe_fini(&e);
	}
}

/* The RAMHT hash nouveau uses (nvkm_ramht_hash) and the context words of
 * nv04_fifo_dma_object_ctor / nv40_eobj_ramht_add. */
static void ramht_hash_and_contexts(void **state)
{
	(void)state;
	/* handle folded in 12-bit pieces, XOR chid << 8 */
	assert_int_equal(nvm_pfifo_ramht_hash(0xbeef0002, 2, 12), (0x002 ^ 0xef0 ^ 0xbe ^ (2u << 8)) & 0xfff);
	assert_int_equal(nvm_pfifo_ramht_hash(0, 0, 9), 0);
	assert_int_equal(nvm_pfifo_ramht_hash(0x1ff, 1, 9), 0x1ff ^ 0x20);
	uint32_t ctx;
	assert_int_equal(nvm_pfifo_ramht_context("nv04", 0x30010, 1, 5, &ctx), NVM_OK);
	assert_int_equal(ctx, 0x80000000u | 5u << 24 | 1u << 16 | 0x3001);
	assert_int_equal(nvm_pfifo_ramht_context("nv17", 0x30010, 0, 31, &ctx), NVM_OK);
	assert_int_equal(ctx, 0x80000000u | 31u << 24 | 0x3001);
	assert_int_equal(nvm_pfifo_ramht_context("nv40", 0x30010, 1, 31, &ctx), NVM_OK);
	assert_int_equal(ctx, 31u << 23 | 1u << 20 | 0x3001);
	/* NV04 has 16 channels: chid 16 does not fit */
	assert_int_equal(nvm_pfifo_ramht_context("nv04", 0x30010, 1, 16, &ctx), NVM_ERR_RANGE);
	assert_int_equal(nvm_pfifo_ramht_context("gv100", 0x30010, 1, 1, &ctx), NVM_ERR_CHIP);
	nvm_ramht_entry en;
	assert_int_equal(nvm_pfifo_ramht_entry("nv40", 0x1234, 31u << 23 | 1u << 20 | 0x3001, &en), NVM_OK);
	assert_int_equal(en.chid, 31);
	assert_int_equal(en.engine, 1);
	assert_int_equal(en.instance, 0x30010);
	assert_true(en.valid);
	assert_int_equal(nvm_pfifo_ramht_entry("nv04", 0x1234, 0x7fffffff, &en), NVM_OK);
	assert_false(en.valid);
}

/* Seed 001: method 0 binds an object through RAMHT; 0x100-0x17c and
 * 0x200-0x1ffc go to the engine; 0x180-0x1fc get handle -> instance
 * translation. Every profile. */
static void pio_binds_and_submits(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		uint32_t gr = pe_grobj(&e, 0x5f);
		uint32_t dma = pe_dmaobj(&e, 0x3d, 0, 0, 0, 0xffff);
		pe_ramht_add(&e, 3, 0x1234, gr, 1);
		pe_ramht_add(&e, 3, 0xd0d0, dma, 0);
		pe_pio(&e, 3, 1, 0x000, 0x1234);
		pe_pio(&e, 3, 1, 0x184, 0xd0d0);
		pe_pio(&e, 3, 1, 0x300, 7);
		pe_pio(&e, 3, 1, 0x304, 8);
		assert_string_equal(pe_run(&e, 100000), "idle");
		nvm_method log[8];
		assert_int_equal(pe_log(&e, "pgraph", log, 8), 4);
		uint32_t want_m[] = { 0, 0x184, 0x300, 0x304 }, want_d[] = { gr >> 4, dma >> 4, 7, 8 };
		for (int i = 0; i < 4; i++) {
			assert_int_equal(log[i].chid, 3);
			assert_int_equal(log[i].subch, 1);
			assert_int_equal(log[i].cls, 0x5f);
			assert_int_equal(log[i].method, want_m[i]);
			assert_int_equal(log[i].data, want_d[i]);
		}
		/* CACHE1 ENGINE: PGRAPH on subchannel 1; HASH the last lookup */
		assert_int_equal((rd(e.gpu, PE_ENGINE) >> 4) & 0xf, 1);
		uint32_t vb = e.nv40 ? 24 : 16;
		assert_int_equal(rd(e.gpu, PE_HASH), (dma >> 4) | 1u << vb);
		assert_int_equal(rd(e.gpu, PE_PUSH1) & 0x1ff, 3);
		assert_int_equal(rd(e.gpu, PE_INTR), 0);
		pe_fini(&e);
	}
}

/* Seed 001: "free count" at channel + subchannel * 0x2000 + 0x10, in data
 * bytes; CACHE1 GET/PUT count bytes too. */
static void free_count_in_bytes(void **state)
{
	(void)state;
	const uint32_t empty[] = { 0x7c, 0x1fc, 0x1fc, 0x1fc, 0x7fc, 0x7fc };
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		wr(e.gpu, PE_PULL0, 0); /* hold the puller */
		assert_int_equal(rd(e.gpu, PE_USER + 0x10000 + 0x2000 * 3 + 0x10), empty[c]);
		pe_pio(&e, 1, 0, 0x100, 1);
		pe_pio(&e, 1, 2, 0x100, 2);
		assert_int_equal(rd(e.gpu, PE_USER + 0x10000 + 0x10), empty[c] - 8);
		assert_int_equal(rd(e.gpu, PE_PUT), 8);
		assert_int_equal(rd(e.gpu, PE_GET), 0);
		/* another channel sees no room while channel 1 holds CACHE1 */
		assert_int_equal(rd(e.gpu, PE_USER + 0x20000 + 0x10), 0);
		/* CACHE1 METHOD(i)/DATA(i): SUBCH 15:13, MTHD 12:2 */
		uint32_t mbase = e.nv40 ? 0x90000u : 0x3800u;
		assert_int_equal(rd(e.gpu, mbase + 8), 2u << 13 | 0x100);
		assert_int_equal(rd(e.gpu, mbase + 12), 2);
		assert_int_equal(rd(e.gpu, PE_STATUS), 0); /* neither EMPTY nor FULL */
		wr(e.gpu, PE_ENGINE, 0x101);               /* PGRAPH on subchannels 0 and 2 */
		wr(e.gpu, PE_PULL0, 1);
		pe_run(&e, 100000);
		assert_int_equal(rd(e.gpu, PE_STATUS), 1u << 4); /* EMPTY */
		assert_int_equal(rd(e.gpu, PE_USER + 0x20000 + 0x10), empty[c]);
		pe_fini(&e);
	}
}

static uint32_t ramro_word(struct penv *e, unsigned i, unsigned w)
{
	return pe_rd(e, e->ramro + i * 8 + w * 4);
}

/* Seed 001: every failing PIO access goes to RAMRO with RUNOUT: a reserved
 * method, not an aligned 32-bit word, past the free count, CACHE1 held by
 * another channel. */
static void runout_reasons(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv04");
	wr(e.gpu, PE_PULL0, 0);
	uint32_t u1 = PE_USER + 0x10000;
	/* an 8-bit store and an unaligned 32-bit store: ILLEGAL_ACCESS */
	assert_int_equal(nvm_pfifo_user_write(e.gpu, u1 + 0x2000 + 0x101, 0xaa, 1), NVM_OK);
	assert_int_equal(nvm_pfifo_user_write(e.gpu, u1 + 0x102, 0xbbbb, 4), NVM_OK);
	assert_int_equal(nvm_pfifo_user_write(e.gpu, u1 + 0x104, 0xcc, 2), NVM_OK);
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_RUNOUT);
	assert_int_equal(nvm_intr_line(e.gpu), 1);
	assert_int_equal(ramro_word(&e, 0, 0), 0x101u | 1u << 13 | 1u << 16 | 1u << 22 | 0u << 28);
	assert_int_equal(ramro_word(&e, 0, 1), 0xaa);
	assert_int_equal(ramro_word(&e, 1, 0), 0x102u | 1u << 16 | 0u << 22);
	assert_int_equal(ramro_word(&e, 2, 0), 0x104u | 1u << 16 | 2u << 22);
	/* a reserved method: NV04 knows none of 0x04..0xfc (REF_CNT is NV10+) */
	pe_pio(&e, 1, 0, 0x050, 5);
	assert_int_equal(ramro_word(&e, 3, 0), 0x050u | 1u << 16 | 5u << 28);
	assert_int_equal(rd(e.gpu, PE_RUNOUT_PUT), 4 * 8);
	assert_int_equal(rd(e.gpu, PE_RUNOUT_ST), 1); /* RANOUT */
	/* past the free count: 31 entries fit in NV04's CACHE1 */
	for (uint32_t i = 0; i < 31; i++)
		pe_pio(&e, 1, 0, 0x100, i);
	assert_int_equal(rd(e.gpu, u1 + 0x10), 0);
	assert_int_equal(rd(e.gpu, PE_STATUS), 1u << 8); /* FULL */
	pe_pio(&e, 1, 0, 0x100, 99);
	assert_int_equal(ramro_word(&e, 4, 0), 0x100u | 1u << 16 | 2u << 28);
	assert_int_equal(ramro_word(&e, 4, 1), 99);
	/* CACHE1 held by channel 1: channel 2's store runs out */
	pe_pio(&e, 2, 0, 0x100, 77);
	assert_int_equal(ramro_word(&e, 5, 0), 0x100u | 2u << 16 | 1u << 28);
	/* the driver reads and acknowledges */
	wr(e.gpu, PE_RUNOUT_GET, 6 * 8);
	assert_int_equal(rd(e.gpu, PE_RUNOUT_ST), 1u << 4); /* EMPTY */
	wr(e.gpu, PE_INTR, PE_INTR_RUNOUT);
	assert_int_equal(nvm_intr_line(e.gpu), 0);
	nvm_pfifo_stats s;
	assert_int_equal(nvm_pfifo_get_stats(e.gpu, &s), NVM_OK);
	assert_int_equal(s.ramro_entries, 6);
	assert_int_equal(s.pio_writes, 31);
	pe_fini(&e);
}

/* Seed 001: "When RAMRO overflows, the RUNOUT_OVERFLOW interrupt is
 * triggered": a 512-byte RAMRO holds 63 entries. */
static void runout_overflow(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv17");
	for (uint32_t i = 0; i < 63; i++)
		pe_pio(&e, 4, 0, 0x010, i);                      /* reserved method */
	assert_int_equal(rd(e.gpu, PE_RUNOUT_ST), 1u | 1u << 8); /* RANOUT, FULL */
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_RUNOUT);
	pe_pio(&e, 4, 0, 0x010, 63);
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_RUNOUT | PE_INTR_RUNOUT_OVF);
	assert_int_equal(rd(e.gpu, PE_RUNOUT_PUT), 63 * 8);
	nvm_pfifo_stats s;
	nvm_pfifo_get_stats(e.gpu, &s);
	assert_int_equal(s.ramro_overflows, 1);
	/* RAMRO SIZE 16:16 = 1: 8 KiB, room again */
	wr(e.gpu, PE_RAMRO, (e.ramro >> 8) | 1u << 16);
	pe_pio(&e, 4, 0, 0x010, 64);
	assert_int_equal(rd(e.gpu, PE_RUNOUT_PUT), 64 * 8);
	pe_fini(&e);
}

/* Seed 001's race: all applications read the free count of an empty CACHE1
 * (0x7c), send that much; the first store switches CACHE1 to its channel
 * and the others' stores land in RAMRO, which overflows. */
static void pio_race_overflows_ramro(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv04");
	uint32_t gr = pe_grobj(&e, 0x5f);
	for (uint32_t ch = 0; ch < 4; ch++)
		pe_ramht_add(&e, ch, 0x1000 + ch, gr, 1);
	uint32_t free[4];
	for (uint32_t ch = 0; ch < 4; ch++)
		free[ch] = rd(e.gpu, PE_USER + ch * 0x10000 + 0x10);
	for (uint32_t ch = 0; ch < 4; ch++)
		assert_int_equal(free[ch], 0x7c);
	for (uint32_t ch = 0; ch < 4; ch++)
		for (uint32_t i = 0; i < free[ch] / 4; i++)
			pe_pio(&e, ch, 0, 0x100, ch << 8 | i);
	/* channel 0 got CACHE1: its 31 stores are in it; 3 * 31 ran out into a
	 * 63-entry RAMRO: 30 lost */
	assert_int_equal(rd(e.gpu, PE_PUSH1) & 0xf, 0);
	assert_int_equal(rd(e.gpu, PE_PUT), 31 * 4);
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_RUNOUT | PE_INTR_RUNOUT_OVF);
	nvm_pfifo_stats s;
	nvm_pfifo_get_stats(e.gpu, &s);
	assert_int_equal(s.ramro_entries, 63);
	assert_int_equal(s.ramro_overflows, 30);
	assert_int_equal(ramro_word(&e, 0, 0), 0x100u | 1u << 16 | 1u << 28); /* NO_CACHE_AVAILABLE */
	pe_fini(&e);
}

/* A switch between PIO channels saves CACHE1's channel state in RAMFC and
 * loads the next one (nouveau's nv04/nv17 RAMFC layouts: ENGINE at 0x14 /
 * 0x18). */
static void pio_switch_saves_ramfc(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv17");
	pe_object(&e, 1, 0x11, 0x62, 1);
	pe_pio(&e, 1, 5, 0x000, 0x11);
	pe_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PE_ENGINE), 1u << 20);
	/* channel 2 takes the empty CACHE1: channel 1's ENGINE goes to RAMFC */
	pe_pio(&e, 2, 0, 0x100, 1);
	assert_int_equal(rd(e.gpu, PE_PUSH1) & 0x1f, 2);
	assert_int_equal(pe_rd(&e, e.ramfc + 1 * 64 + 0x18), 1u << 20);
	assert_int_equal(rd(e.gpu, PE_ENGINE), 0);
	/* channel 2's subchannel 0 has no engine: SOFTWARE, CACHE_ERROR */
	pe_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_CACHE_ERROR);
	pe_fini(&e);
}

/* puller.rst: a handle RAMHT does not have raises CACHE_ERROR (NO_HASH,
 * PULL0 HASH_FAILED) and the puller waits for the driver; nouveau's
 * handler steps GET over the entry, acknowledges and re-enables PULL0. */
static void no_hash_waits_for_driver(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv10");
	pe_object(&e, 1, 0x11, 0x62, 1);
	pe_pio(&e, 1, 0, 0x000, 0x22); /* not in RAMHT */
	pe_pio(&e, 1, 0, 0x000, 0x11);
	pe_pio(&e, 1, 0, 0x200, 5);
	assert_string_equal(pe_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_CACHE_ERROR);
	assert_int_equal(rd(e.gpu, PE_PULL0) & 0x10, 0x10); /* HASH_FAILED */
	assert_int_equal(rd(e.gpu, 0x2080) & 0x10, 0x10);   /* DEBUG_0 CACHE_ERROR1 */
	assert_int_equal(rd(e.gpu, PE_GET), 0);
	assert_int_equal(nvm_intr_line(e.gpu), 1);
	nvm_method log[4];
	assert_int_equal(pe_log(&e, "pgraph", log, 4), 0);
	/* clearing the interrupt alone: the puller retries the same entry */
	wr(e.gpu, PE_INTR, PE_INTR_CACHE_ERROR);
	pe_run(&e, 100000);
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_CACHE_ERROR);
	/* nouveau: PUSH0 off, GET + 4, PUSH0 on, HASH 0, PULL0 1, ack */
	wr(e.gpu, PE_GET, rd(e.gpu, PE_GET) + 4);
	wr(e.gpu, PE_HASH, 0);
	wr(e.gpu, PE_PULL0, 1);
	wr(e.gpu, PE_INTR, PE_INTR_CACHE_ERROR);
	assert_int_equal(rd(e.gpu, PE_PULL0), 1);
	assert_string_equal(pe_run(&e, 100000), "idle");
	assert_int_equal(pe_log(&e, "pgraph", log, 4), 2);
	assert_int_equal(log[1].method, 0x200);
	assert_int_equal(rd(e.gpu, PE_INTR), 0);
	pe_fini(&e);
}

/* Seed 001 / puller.rst: an object of the SOFTWARE engine: every method
 * submitted to it raises CACHE_ERROR and waits for the CPU. The driver
 * (nouveau's nv04_fifo_swmthd) reads METHOD/DATA at GET, HASH for the
 * instance, sets the subchannel's ENGINE to SOFTWARE itself on method 0. */
static void software_engine(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv04");
	uint32_t sw = pe_object(&e, 2, 0x5005, 0x506e, 0);
	uint32_t dma = pe_dmaobj(&e, 0x3d, 2, 0, 0, 0xfff);
	pe_ramht_add(&e, 2, 0xd, dma, 0);
	pe_pio(&e, 2, 3, 0x000, 0x5005);
	pe_pio(&e, 2, 3, 0x180, 0xd);
	pe_pio(&e, 2, 3, 0x500, 0x42);
	unsigned handled = 0;
	for (int round = 0; round < 3; round++) {
		assert_string_equal(pe_run(&e, 100000), "idle");
		assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_CACHE_ERROR);
		assert_int_equal(rd(e.gpu, PE_PULL0) & 0x100, 0x100); /* DEVICE_SOFTWARE */
		uint32_t get = rd(e.gpu, PE_GET), mthd = rd(e.gpu, 0x3800 + get * 2),
		         data = rd(e.gpu, 0x3804 + get * 2);
		uint32_t subc = (mthd >> 13) & 7, m = mthd & 0x1ffc;
		assert_int_equal(subc, 3);
		if (m == 0) {
			assert_int_equal(data, 0x5005);
			assert_int_equal(rd(e.gpu, PE_HASH), (sw >> 4) | 1u << 16);
			wr(e.gpu, PE_ENGINE, rd(e.gpu, PE_ENGINE) & ~(0xfu << (subc * 4)));
		} else if (m == 0x180) {
			assert_int_equal(rd(e.gpu, PE_HASH) & 0xffff, dma >> 4);
		} else {
			assert_int_equal(m, 0x500);
			assert_int_equal(data, 0x42);
		}
		handled++;
		wr(e.gpu, PE_GET, get + 4);
		wr(e.gpu, PE_PULL0, 1);
		wr(e.gpu, PE_INTR, PE_INTR_CACHE_ERROR);
	}
	assert_string_equal(pe_run(&e, 100000), "idle");
	assert_int_equal(handled, 3);
	assert_int_equal(rd(e.gpu, PE_INTR), 0);
	nvm_method log[4];
	assert_int_equal(pe_log(&e, "software", log, 4), 3);
	assert_int_equal(log[2].method, 0x500);
	assert_int_equal(pe_log(&e, "pgraph", log, 4), 0);
	pe_fini(&e);
}

/* nv1-pfifo.rst "Interrupt reporting": INTR bits are set whatever the
 * enables; INTR_EN gates the PFIFO line (PMC bit 8); writing 1 clears. */
static void interrupt_enables(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv40");
	wr(e.gpu, PE_INTR_EN, 0);
	pe_pio(&e, 0, 0, 0x004, 1); /* reserved: RUNOUT */
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_RUNOUT);
	assert_int_equal(nvm_intr_line(e.gpu), 0);
	assert_int_equal(rd(e.gpu, 0x100) & 0x100, 0);
	wr(e.gpu, PE_INTR_EN, PE_INTR_RUNOUT);
	assert_int_equal(nvm_intr_line(e.gpu), 1);
	assert_int_equal(rd(e.gpu, 0x100) & 0x100, 0x100);
	wr(e.gpu, PE_INTR, 0);
	assert_int_equal(rd(e.gpu, PE_INTR), PE_INTR_RUNOUT);
	wr(e.gpu, PE_INTR, PE_INTR_RUNOUT);
	assert_int_equal(nvm_intr_line(e.gpu), 0);
	pe_fini(&e);
}

/* Register names and per-chip presence (rnndb nv4_pfifo.xml variants). */
static void registers_per_chip(void **state)
{
	(void)state;
	for (size_t c = 0; c < NCHIPS; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		assert_string_equal(nvm_reg_name(e.gpu, PE_PULL0), "NV04_PFIFO_CACHE1_PULL0");
		assert_true((nvm_reg_name(e.gpu, PE_REF) != NULL) == !e.nv04);
		assert_true((nvm_reg_name(e.gpu, PE_SEMAPHORE) != NULL) == (c >= 2));
		assert_true((nvm_reg_name(e.gpu, 0x2058) != NULL) == e.nv40);
		assert_true((nvm_reg_name(e.gpu, PE_RAMFC) != NULL) == !e.nv40);
		assert_true((nvm_reg_name(e.gpu, PE_DATA_SHD) != NULL) == !e.nv04);
		/* MODE: one bit per channel */
		wr(e.gpu, PE_MODE, 0xffffffffu);
		assert_int_equal(rd(e.gpu, PE_MODE), e.nv04 ? 0xffffu : 0xffffffffu);
		wr(e.gpu, PE_MODE, 0);
		pe_fini(&e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pramin_maps_ramin_from_vram_end),
		cmocka_unit_test(ramin_bar_nv40),
		cmocka_unit_test(ramht_hash_and_contexts),
		cmocka_unit_test(pio_binds_and_submits),
		cmocka_unit_test(free_count_in_bytes),
		cmocka_unit_test(runout_reasons),
		cmocka_unit_test(runout_overflow),
		cmocka_unit_test(pio_race_overflows_ramro),
		cmocka_unit_test(pio_switch_saves_ramfc),
		cmocka_unit_test(no_hash_waits_for_driver),
		cmocka_unit_test(software_engine),
		cmocka_unit_test(interrupt_enables),
		cmocka_unit_test(registers_per_chip),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
