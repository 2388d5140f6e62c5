/*
 * Test environment for the G80 PFIFO: sets it up the way nouveau's nv50 /
 * g84 fifo code does (nv50_fifo_init, the gpfifo channel constructors, the
 * playlist, RAMHT inserts with engine << 20 | offset >> 4), with raw bit
 * positions: channel structures in VRAM (64 KiB each; G80: RAMFC at 0,
 * cache at 0x400; G84+: cache at 0x4400, RAMFC at 0x5400), RAMHT at 0x8000
 * of the structure (32 KiB, SEARCH_FULL), unpaged DMA objects (g80_env.h)
 * for the pushbuffer / IB ring (system memory) and semaphores (VRAM).
 * Include after cmocka.h and bar0.h.
 */
#ifndef TEST_G80FIFO_ENV_H
#define TEST_G80FIFO_ENV_H

#include <stdbool.h>
#include <string.h>

#include "g80_env.h"
#include "nvmodel/pfifo.h"

#define GE_INTR         0x2100u
#define GE_INTR_EN      0x2140u
#define GE_CACHES       0x2500u
#define GE_FREEZE       0x2504u
#define GE_CHAN_TABLE   0x2600u
#define GE_PUSH0        0x3200u
#define GE_PUSH1        0x3204u
#define GE_PUT          0x3210u
#define GE_GET          0x3270u
#define GE_DMA_PUSH     0x3220u
#define GE_DMA_FETCH    0x3224u
#define GE_DMA_STATE    0x3228u
#define GE_DMA_PUT      0x3240u
#define GE_DMA_GET      0x3244u
#define GE_PULL0        0x3250u
#define GE_PULL1        0x3254u
#define GE_SEMAPHORE    0x326cu
#define GE_PLAYLIST_LEN 0x32ecu
#define GE_PLAYLIST     0x32f4u
#define GE_IB_PUT       0x3330u
#define GE_IB_GET       0x3334u
#define GE_MCOUNT       0x3364u

#define GE_INTR_CACHE_ERROR (1u << 0)
#define GE_INTR_PIO_ERROR   (1u << 8)
#define GE_INTR_DMA_PUSHER  (1u << 12)
#define GE_INTR_SEMAPHORE   (1u << 20)
#define GE_INTR_NOTIFY      (1u << 30)

#define GE_CHAN(c)    (0x1000000ull + (uint64_t)(c)*0x10000u) /* channel structures in VRAM */
#define GE_PLAYLIST_A 0x0f00000ull
#define GE_SEM        0x0e00000ull                            /* semaphore area in VRAM */
#define GE_PB(c)      (0x100000ull + (uint64_t)(c)*0x100000u) /* pushbuffer (system memory) */
#define GE_IB_OFF     0x80000u                                /* IB ring at GE_PB + this */
#define GE_SEL_PB     0x600u                                  /* selectors of the channel's objects */
#define GE_SEL_SEM    0x602u
#define GE_SEL_GR     0x604u
#define GE_SEL_SW     0x606u
#define GE_RAMHT_OFF  0x8000u

/* old-format commands (dma-pusher.rst "The commands - pre-GF100 format") */
#define GE_INC(s, m, n)  ((uint32_t)(n) << 18 | (uint32_t)(s) << 13 | (uint32_t)(m))
#define GE_NINC(s, m, n) (0x40000000u | GE_INC(s, m, n))
#define GE_LONG(s, m)    (0x00030000u | (uint32_t)(s) << 13 | (uint32_t)(m))

struct genv {
	nvm_gpu *gpu;
	const char *chip;
	bool g84;
	uint32_t ib_put[128]; /* the driver's copy of IB_PUT */
	uint32_t pb_put[128]; /* next free byte of the pushbuffer */
	uint32_t order;       /* IB ring of 2^order entries */
	uint32_t playlist[128], nplaylist;
};

static inline uint64_t ge_ramfc(const struct genv *e, uint32_t c)
{
	return GE_CHAN(c) + (e->g84 ? 0x5400u : 0);
}

static inline uint64_t ge_cache(const struct genv *e, uint32_t c)
{
	return GE_CHAN(c) + (e->g84 ? 0x4400u : 0x400u);
}

static inline void ge_vw(struct genv *e, uint64_t a, uint32_t v)
{
	assert_int_equal(nvm_mem_wr32(e->gpu, NVM_AP_VRAM, a, v), NVM_OK);
}

static inline uint32_t ge_vr(struct genv *e, uint64_t a)
{
	uint32_t v = 0;
	assert_int_equal(nvm_mem_rd32(e->gpu, NVM_AP_VRAM, a, &v), NVM_OK);
	return v;
}

static inline void ge_sw(struct genv *e, uint64_t a, uint32_t v)
{
	assert_int_equal(nvm_mem_wr32(e->gpu, NVM_AP_SYSMEM, a, v), NVM_OK);
}

/* nv50_fifo_init */
static inline void ge_init(struct genv *e, const char *chip)
{
	memset(e, 0, sizeof(*e));
	e->chip = chip;
	e->g84 = strcmp(chip, "g80") != 0;
	e->gpu = g80e_open(chip);
	assert_non_null(e->gpu);
	e->order = 9;
	wr(e->gpu, 0x250c, 0x6f3cfc34);
	wr(e->gpu, 0x2044, 0x01003fff);
	wr(e->gpu, GE_INTR, 0xffffffffu);
	wr(e->gpu, GE_INTR_EN, 0xbfffffffu);
	wr(e->gpu, 0x140, 1); /* PMC INTR_EN */
	for (uint32_t i = 0; i < 128; i++)
		wr(e->gpu, GE_CHAN_TABLE + 4 * i, 0);
	wr(e->gpu, GE_PUSH0, 1);
	wr(e->gpu, GE_PULL0, 1);
	wr(e->gpu, GE_CACHES, 1);
}

static inline void ge_fini(struct genv *e)
{
	nvm_close(e->gpu);
}

/* nv50_runl_update / commit: the channel ids, then PLAYLIST and LEN. */
static inline void ge_playlist_commit(struct genv *e)
{
	for (uint32_t i = 0; i < e->nplaylist; i++)
		ge_vw(e, GE_PLAYLIST_A + 4 * i, e->playlist[i]);
	wr(e->gpu, GE_PLAYLIST, (uint32_t)(GE_PLAYLIST_A >> 12));
	wr(e->gpu, GE_PLAYLIST_LEN, e->nplaylist);
}

/* nvkm_ramht_insert on nv50: hash of the handle with channel 0. */
static inline void ge_ramht_add(struct genv *e, uint32_t c, uint32_t handle, uint32_t sel, unsigned engine)
{
	uint32_t h = nvm_pfifo_ramht_hash(handle, 0, 12);
	for (uint32_t i = 0; i < 4096; i++) {
		uint64_t a = GE_CHAN(c) + GE_RAMHT_OFF + ((h + i) & 4095) * 8;
		if (ge_vr(e, a + 4) == 0) {
			ge_vw(e, a, handle);
			ge_vw(e, a + 4, engine << 20 | sel);
			return;
		}
	}
	fail();
}

/* A gpfifo channel (g84_fifo_gpfifo_new / nv50): DMA objects (pushbuffer
 * and IB in system memory, semaphores in VRAM, both unpaged, read-write),
 * a PGRAPH object of class cls bound by handle 0xbeef0000 + c, RAMFC, the
 * channel table entry, the playlist. ib selects IB mode (DMA_FETCH
 * 0x403f6078) or NV4-style DMA mode (0x003f6078, DMA_LIMIT all ones). */
static inline void ge_channel(struct genv *e, uint32_t c, uint32_t cls, bool ib)
{
	uint64_t ch = GE_CHAN(c), fc = ge_ramfc(e, c);
	for (uint32_t o = 0; o < 0x10000; o += 4)
		ge_vw(e, ch + o, 0);
	g80e_dma_simple(e->gpu, NVM_AP_VRAM, ch, GE_SEL_PB, g80e_dw0(0x3d, 2, 2, 0, 0, 0, 0), 0, 0xffffffffffull);
	g80e_dma_simple(e->gpu, NVM_AP_VRAM, ch, GE_SEL_SEM, g80e_dw0(0x3d, 1, 2, 0, 0, 0, 0), GE_SEM, GE_SEM + 0xfff);
	ge_vw(e, ch + GE_SEL_GR * 16, cls);
	ge_ramht_add(e, c, 0xbeef0000u + c, GE_SEL_GR << 4 >> 4, 1);
	ge_ramht_add(e, c, 0xdead0000u + c, GE_SEL_SEM, 0);
	uint64_t iba = GE_PB(c) + GE_IB_OFF;
	ge_vw(e, fc + 0x3c, ib ? 0x403f6078u : 0x003f6078u);
	ge_vw(e, fc + 0x44, 0x01003fffu);
	ge_vw(e, fc + 0x48, GE_SEL_PB);
	ge_vw(e, fc + 0x4c, ib ? 0 : 0xffffffffu);
	if (ib) {
		ge_vw(e, fc + 0x50, (uint32_t)iba);
		ge_vw(e, fc + 0x54, (uint32_t)(iba >> 32) | e->order << 16);
	} else {
		ge_vw(e, fc + 0x08, (uint32_t)GE_PB(c));
		ge_vw(e, fc + 0x10, (uint32_t)GE_PB(c));
	}
	ge_vw(e, fc + 0x60, 0x7fffffffu);
	ge_vw(e, fc + 0x78, 0);
	ge_vw(e, fc + 0x7c, 0x30000001u);
	ge_vw(e, fc + 0x80, 3u << 27 | 4u << 24 | GE_RAMHT_OFF >> 4);
	if (e->g84) {
		ge_vw(e, fc + 0x88, (uint32_t)(ge_cache(e, c) >> 10));
		ge_vw(e, fc + 0x98, (uint32_t)(ch >> 12));
		wr(e->gpu, GE_CHAN_TABLE + 4 * c, 0x80000000u | (uint32_t)(fc >> 8));
	} else {
		wr(e->gpu, GE_CHAN_TABLE + 4 * c, 0x80000000u | (uint32_t)(ch >> 12));
	}
	e->pb_put[c] = 0;
	e->ib_put[c] = 0;
	e->playlist[e->nplaylist++] = c;
	ge_playlist_commit(e);
}

static inline uint32_t ge_user(uint32_t c)
{
	return 0xc00000u + c * 0x2000u;
}

/* Writes words to the channel's pushbuffer; returns their address. */
static inline uint64_t ge_pb(struct genv *e, uint32_t c, const uint32_t *w, size_t n)
{
	uint64_t a = GE_PB(c) + e->pb_put[c];
	for (size_t i = 0; i < n; i++)
		ge_sw(e, a + 4 * i, w[i]);
	e->pb_put[c] += (uint32_t)n * 4;
	return a;
}

/* One raw IB entry (not yet submitted). */
static inline void ge_ib_raw(struct genv *e, uint32_t c, uint32_t e0, uint32_t e1)
{
	uint64_t a = GE_PB(c) + GE_IB_OFF + (uint64_t)(e->ib_put[c] & ((1u << e->order) - 1)) * 8;
	ge_sw(e, a, e0);
	ge_sw(e, a + 4, e1);
	e->ib_put[c] = (e->ib_put[c] + 1) & ((1u << e->order) - 1);
}

static inline void ge_ib_entry(struct genv *e, uint32_t c, uint64_t addr, uint32_t words, bool not_main)
{
	ge_ib_raw(e, c, (uint32_t)addr, (uint32_t)(addr >> 32) | (not_main ? 1u << 9 : 0) | words << 10);
}

static inline void ge_ib_kick(struct genv *e, uint32_t c)
{
	wr(e->gpu, ge_user(c) + 0x8c, e->ib_put[c]);
}

/* nouveau's nv50_dma_push + FIRE_RING: the words as one IB entry. */
static inline void ge_push(struct genv *e, uint32_t c, const uint32_t *w, size_t n)
{
	uint64_t a = ge_pb(e, c, w, n);
	ge_ib_entry(e, c, a, (uint32_t)n, false);
	ge_ib_kick(e, c);
}

static inline const char *ge_run(struct genv *e, uint64_t ns)
{
	nvm_run_opts o = { .ns = ns, .flags = NVM_RUN_UNTIL_IDLE };
	return nvm_run_status_str(nvm_run(e->gpu, &o));
}

static inline size_t ge_log(struct genv *e, const char *engine, nvm_method *out, size_t max)
{
	size_t n = 0;
	assert_int_equal(nvm_method_log_read(e->gpu, engine, 0, out, max, &n, NULL), NVM_OK);
	return n;
}

static inline void ge_expect_dma_error(struct genv *e, unsigned code)
{
	assert_int_equal(rd(e->gpu, GE_INTR) & GE_INTR_DMA_PUSHER, GE_INTR_DMA_PUSHER);
	assert_int_equal(rd(e->gpu, GE_DMA_STATE) >> 29, code);
	assert_int_equal(rd(e->gpu, GE_DMA_PUSH) & (1u << 12), 1u << 12);
	assert_int_equal(nvm_intr_line(e->gpu), 1);
}

#endif
