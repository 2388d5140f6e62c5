/*
 * PFIFO of NV01 and NV03 (src/pfifo/pio01.c, nv01.c, nv03.c). Sources, as
 * the digest ../shared/refs/nv01-nv03-facts.md names them: envytools
 * hwtest/pfifo.cc ("E-hw": the register scan and the USER-write simulator
 * validated on a real NV1), nv1-pfifo.rst, nv1-vram.rst, puller.rst, rnndb
 * fifo/nv1_pfifo.xml, and rivafb / xf86-video-nv (riva_tbl.h nv3TablePFIFO,
 * nv3TablePRAMIN, RivaTableFIFO) for NV3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"
#include "core/core.h"
#include "nvmodel/method.h"
#include "nvmodel/pfifo.h"
#include "pfifo_env.h"

#define USER 0x800000u

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 4u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

static void run(nvm_gpu *gpu)
{
	nvm_run_opts o = { .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_IDLE);
}

struct scan {
	uint32_t reg, mask;
};

static void scan(nvm_gpu *gpu, const struct scan *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		wr(gpu, s[i].reg, 0xffffffffu);
		uint32_t all1 = rd(gpu, s[i].reg);
		wr(gpu, s[i].reg, 0);
		uint32_t all0 = rd(gpu, s[i].reg);
		if (all1 != s[i].mask || all0)
			fail_msg("register 0x%06x reads 0x%08x / 0x%08x, the scan says 0x%08x / 0", s[i].reg, all1,
			         all0, s[i].mask);
	}
}

/* E-hw PFifoScanTest / pfifo_regs (NV1, commit a1a1d0f5: the list run on
 * hardware), after INTR = ~0 and the cache pointers zeroed. */
static void scan_nv01(void **state)
{
	(void)state;
	static const struct scan s[] = {
		{ 0x602200, 0x3 },     { 0x2040, 0xff },      { 0x2080, 0 },         { 0x2100, 0 },
		{ 0x2140, 0x111 },     { 0x2200, 0x3 },       { 0x2410, 0x3ff8 },    { 0x2420, 0x3ff8 },
		{ 0x2500, 1 },         { 0x3010, 0x7f },      { 0x3030, 0x4 },       { 0x3050, 0x100 },
		{ 0x3070, 0x4 },       { 0x3080, 0x7fffff },  { 0x3100, 0xfffc },    { 0x3104, 0xffffffff },
		{ 0x3210, 0x7f },      { 0x3230, 0x7c },      { 0x3250, 0x117 },     { 0x3270, 0x7c },
		{ 0x3280, 0x17fffff }, { 0x3290, 0x17fffff }, { 0x32a0, 0x17fffff }, { 0x32b0, 0x17fffff },
		{ 0x32c0, 0x17fffff }, { 0x32d0, 0x17fffff }, { 0x32e0, 0x17fffff }, { 0x32f0, 0x17fffff },
		{ 0x3000, 1 },         { 0x3040, 1 },         { 0x3200, 1 },         { 0x3240, 1 },
	};
	nvm_gpu *gpu = open_chip("nv01");
	wr(gpu, 0x2100, 0xffffffffu);
	wr(gpu, 0x3030, 0);
	wr(gpu, 0x3070, 0);
	wr(gpu, 0x3230, 0);
	wr(gpu, 0x3270, 0);
	scan(gpu, s, sizeof(s) / sizeof(s[0]));
	struct scan a[64];
	for (unsigned i = 0; i < 32; i++) {
		a[2 * i] = (struct scan){ 0x3300 + 8 * i, 0xfffc };
		a[2 * i + 1] = (struct scan){ 0x3304 + 8 * i, 0xffffffffu };
	}
	scan(gpu, a, 64);
	nvm_close(gpu);
}

/* E-hw's NV3 list (digest section 2: measured on an NV3T), with CACHE1
 * PUT/GET 0x7c for a plain NV3's 32 entries (digest: "NV3 non-T masks are a
 * guess"; the NV3T reads 0x1fc). */
static void scan_nv03(void **state)
{
	(void)state;
	static const struct scan s[] = {
		{ 0x2040, 0xff },     { 0x2080, 0 },        { 0x2100, 0 },          { 0x2140, 0x11111 },
		{ 0x2200, 0xfc0300 }, { 0x2210, 0x3f000 },  { 0x2214, 0xfe00 },     { 0x2218, 0x1fe00 },
		{ 0x2410, 0x1ff8 },   { 0x2420, 0x3ff8 },   { 0x3004, 0x7f },       { 0x3010, 0x4 },
		{ 0x3070, 0x4 },      { 0x3080, 0xffffff }, { 0x3100, 0xfffc },     { 0x3104, 0xffffffff },
		{ 0x3204, 0x17f },    { 0x3210, 0x7c },     { 0x3218, 0x5ffcfffc }, { 0x3220, 0x1 },
		{ 0x3224, 0xfffffc }, { 0x3228, 0xfffffc }, { 0x3234, 0xfffff001 }, { 0x3238, 0xffffc },
		{ 0x3250, 0x10 },     { 0x3270, 0x7c },     { 0x3280, 0xffffff },   { 0x32f0, 0xffffff },
		{ 0x3000, 1 },        { 0x3040, 1 },        { 0x3200, 1 },          { 0x3240, 1 },
	};
	nvm_gpu *gpu = open_chip("nv03");
	wr(gpu, 0x2100, 0xffffffffu);
	wr(gpu, 0x3010, 0);
	wr(gpu, 0x3070, 0);
	wr(gpu, 0x3210, 0);
	wr(gpu, 0x3270, 0);
	scan(gpu, s, sizeof(s) / sizeof(s[0]));
	nvm_close(gpu);
}

/* E-hw's NV3 list exactly as measured on an NV3T (nv03t): CACHE1 PUT/GET
 * 0x1fc and 64 ADDR/DATA pairs at 0x3400. 63 entries fit (Gray-coded, 6
 * bits), FREE counts them down from 0xfc. */
static void scan_nv03t(void **state)
{
	(void)state;
	static const struct scan s[] = {
		{ 0x3204, 0x17f }, { 0x3210, 0x1fc }, { 0x3270, 0x1fc }, { 0x3280, 0xffffff }, { 0x2420, 0x3ff8 },
	};
	nvm_gpu *gpu = open_chip("nv03t");
	wr(gpu, 0x2100, 0xffffffffu);
	scan(gpu, s, sizeof(s) / sizeof(s[0]));
	struct scan a[128];
	for (unsigned i = 0; i < 64; i++) {
		a[2 * i] = (struct scan){ 0x3400 + 8 * i, 0xfffc };
		a[2 * i + 1] = (struct scan){ 0x3404 + 8 * i, 0xffffffffu };
	}
	scan(gpu, a, 128);
	wr(gpu, 0x3200, 1);
	assert_int_equal(rd(gpu, USER + 0x10), 0xfc);
	for (unsigned i = 1; i <= 63; i++)
		wr(gpu, USER + 0x100, i);
	assert_int_equal(rd(gpu, USER + 0x10), 0);
	assert_int_equal(rd(gpu, 0x3214), 0x100); /* FULL */
	assert_int_equal(rd(gpu, 0x3210), (63 ^ 31) << 2);
	assert_int_equal(rd(gpu, 0x3400 + 8 * (62 ^ 31) + 4), 63); /* the last entry, at gray(62) */
	nvm_close(gpu);
}

/* nv1-pfifo.rst: clearing PMC ENABLE bit 8 zeroes WAIT_RETRY, INTR_EN,
 * CHSW_ENABLE, PUSH_ACCESS and PULL ACCESS of both caches, DMA_CTRL; on
 * NV3 RAMHT 0, RAMFC 0x1c00, RAMRO 0x1e00, PULL_STATE 0; nothing else. */
static void pmc_enable_resets(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv03");
	assert_int_equal(rd(gpu, 0x2214), 0x1c00);
	assert_int_equal(rd(gpu, 0x2218), 0x1e00);
	static const uint32_t regs[] = { 0x2040, 0x2140, 0x2500, 0x3000, 0x3040, 0x3200, 0x3240,
		                         0x2210, 0x2214, 0x2218, 0x3220, 0x3250, 0x2200, 0x3204 };
	for (size_t i = 0; i < sizeof(regs) / sizeof(regs[0]); i++)
		wr(gpu, regs[i], 0xffffffffu);
	wr(gpu, 0x200, 0xffffffffu); /* bit 8 set: nothing */
	assert_int_equal(rd(gpu, 0x2500), 1);
	wr(gpu, 0x200, 0xffff00ffu); /* rivafb's RivaTablePMC */
	wr(gpu, 0x200, 0xffffffffu);
	for (size_t i = 0; i < 12; i++) {
		uint32_t want = regs[i] == 0x2214 ? 0x1c00 : regs[i] == 0x2218 ? 0x1e00 : 0;
		assert_int_equal(rd(gpu, regs[i]), want);
	}
	assert_int_equal(rd(gpu, 0x2200), 0xfc0300); /* CONFIG stays */
	assert_int_equal(rd(gpu, 0x3204), 0x17f);    /* CHID stays */
	nvm_close(gpu);

	gpu = open_chip("nv01");
	wr(gpu, 0x2214, 0x1234); /* no such register on NV1: not kept */
	wr(gpu, 0x2200, 3);
	wr(gpu, 0x2140, 0x111);
	wr(gpu, 0x200, 0xffffeeffu); /* E-hw's reset */
	assert_int_equal(rd(gpu, 0x2140), 0);
	assert_int_equal(rd(gpu, 0x2200), 3);
	nvm_close(gpu);
}

/* ---------------------------------------------------------------- the E-hw simulator */

/* A reference model of NV1 PIO written from E-hw pfifo_sim_user_write /
 * pfifo_runout (the digest section 3 lists its rules): the model must
 * end every random USER store in the same state. */
/* Where the two chips keep what the simulator needs (nv01.c / nv03.c
 * tables); NV3 takes NV1's rules with its 24-bit contexts (UNVERIFIED:
 * E-hw's simulator runs on NV1 only). */
struct cd {
	const char *chip;
	uint32_t c0_chid, c1_chid, c1_put, c1_status, ctx_mask, ps_mask;
	bool nv3;
};
static const struct cd cd_nv01 = { "nv01", 0x3010, 0x3210, 0x3230, 0x3220, 0x017fffff, 0x117, false };
static const struct cd cd_nv03 = { "nv03", 0x3004, 0x3204, 0x3210, 0x3214, 0x00ffffff, 0x10, true };

struct sim {
	const struct cd *cd;
	uint32_t intr, runout_put, runout_get, chsw, c0_push, c0_chid, c0_put, c0_get, c1_push, c1_chid, c1_put, c1_get,
	        c1_ps;
	uint32_t ctx[8], addr[32], data[32];
	bool runout;
	uint32_t ram_size;                            /* NV1 PRAM CONFIG; NV3 RAMRO SIZE */
	uint32_t ro_size, fc_chans, ro_base, fc_base; /* NV3: RAMIN addresses */
	uint32_t ro[0x1000], fc[0x400];               /* RAMRO and RAMFC words */
};

static void ramin_put(nvm_gpu *gpu, const struct sim *s, bool ro, uint32_t i, uint32_t v)
{
	if (!s->cd->nv3) {
		wr(gpu, (ro ? 0x650000 : 0x648000) + 4 * i, v);
		return;
	}
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	assert_int_equal(nvm_pfifo_ramin_bar_write(gpu, (ro ? s->ro_base : s->fc_base) + 4 * i, b, 4), NVM_OK);
}

static uint32_t ramin_get(nvm_gpu *gpu, const struct sim *s, bool ro, uint32_t i)
{
	if (!s->cd->nv3)
		return rd(gpu, (ro ? 0x650000 : 0x648000) + 4 * i);
	uint8_t b[4];
	assert_int_equal(nvm_pfifo_ramin_bar_read(gpu, (ro ? s->ro_base : s->fc_base) + 4 * i, b, 4), NVM_OK);
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint32_t gnext(uint32_t ptr)
{
	uint32_t g = (ptr >> 2) & 31, i = g;
	i ^= i >> 1;
	i ^= i >> 2;
	i ^= i >> 4;
	i = (i + 1) & 31;
	return (i ^ i >> 1) << 2;
}

static void sim_runout(struct sim *s, uint32_t w, uint32_t d, bool intr)
{
	uint32_t m = s->ro_size - 8, next = (s->runout_put + 8) & m;
	if (intr)
		s->intr |= 0x10;
	if (next == s->runout_get) {
		if (intr)
			s->intr |= 0x100;
		return;
	}
	uint32_t put = s->runout_put & m;
	if (intr) {
		s->ro[put / 4] = w;
		s->ro[put / 4 + 1] = d;
	}
	s->runout_put = next;
}

static void sim_store(struct sim *s, uint32_t addr, uint32_t val, unsigned be)
{
	uint32_t nchid = (addr >> 16) & 0x7f, m = addr & 0x1fff;
	int err = -1;
	bool intr = true, ramro_empty = s->runout_get == s->runout_put, c1_empty = s->c1_get == s->c1_put;
	if ((m & 0x1ff0) == 0x20) {
		if (be != 0xf || (s->c1_chid != nchid && (!s->chsw || !ramro_empty || !c1_empty)))
			err = 0;
		intr = false;
	} else if ((m & 0x1ff0) == 0x10 && (be == 3 || be == 0xc || be == 0xf)) {
		err = 5;
	} else if (be != 0xf) {
		err = 0;
	} else if (!(m & 0x1f00) && (m & 0x1ffc)) {
		err = 5;
	} else if (!s->c1_push) {
		err = 1;
	} else if (nchid == s->c0_chid && s->c0_push) {
		err = 1;
	} else if (nchid != s->c1_chid) {
		if (!ramro_empty || !s->chsw || !c1_empty) {
			err = 1;
		} else {
			uint32_t r = s->c1_chid % s->fc_chans;
			for (int i = 0; i < 8; i++) {
				uint32_t v = s->ctx[i] | (s->c1_ps & 7) << 28 | ((s->c1_ps >> 8) & 1) << 31;
				if (!i || (s->c1_ps & 0x10))
					s->fc[r * 8 + i] = v;
			}
			s->c1_chid = nchid;
			r = nchid % s->fc_chans;
			for (int i = 0; i < 8; i++)
				s->ctx[i] = s->fc[r * 8 + i] & s->cd->ctx_mask;
			s->c1_ps = (s->fc[r * 8] >> 28 & 7) | (s->fc[r * 8] >> 31) << 8;
		}
	} else if (s->runout) {
		err = 2;
	} else if (s->c1_get == gnext(s->c1_put)) {
		err = (s->ctx[s->c1_ps & 7] >> 24) & 1 ? 4 : 3;
	}
	if (err < 0 && (m & 0x1ff0) != 0x20) {
		s->addr[s->c1_put >> 2] = addr & 0xfffc;
		s->data[s->c1_put >> 2] = val;
		s->c1_put = gnext(s->c1_put);
	}
	if (err >= 0) {
		if (nchid == s->c1_chid)
			s->runout = true;
		sim_runout(s, (addr & 0x7fffff) | (uint32_t)err << 28, val, intr);
	}
}

static uint32_t rnd32(void)
{
	return (uint32_t)rand() << 16 ^ (uint32_t)rand();
}

/* Loads a random state into the model and the simulator (E-hw
 * pfifo_gen_state / pfifo_load_state, pullers off). */
static void load_random(nvm_gpu *gpu, struct sim *s, const struct cd *cd)
{
	memset(s, 0, sizeof(*s));
	s->cd = cd;
	wr(gpu, 0x200, 0xffffeeffu);
	wr(gpu, 0x200, 0xffffffffu);
	if (cd->nv3) {
		s->ram_size = rnd32() & 1;
		s->ro_size = s->ram_size ? 0x2000 : 0x200;
		s->fc_chans = 128;
		s->ro_base = 0x4000;
		s->fc_base = 0x8000;
		wr(gpu, 0x2218, s->ro_base | s->ram_size << 16);
		wr(gpu, 0x2214, s->fc_base);
	} else {
		s->ram_size = rnd32() & 3;
		if (s->ram_size == 2)
			s->ram_size = 1; /* layout 2 overlaps RAMHT and RAMFC (nv1-vram.rst "buggy") */
		s->ro_size = 0x800u << s->ram_size;
		s->fc_chans = s->ram_size ? 128 : 64;
		wr(gpu, 0x602200, s->ram_size);
	}
	wr(gpu, 0x2410, 0); /* RAMRO empty: no runout flag */
	wr(gpu, 0x2420, 0);
	uint32_t rsz = s->ro_size, m = rsz - 8;
	s->runout_put = rnd32() & m;
	s->runout_get = rnd32() & 3 ? s->runout_put : rnd32() & m;
	if (!(rnd32() & 3))
		s->runout_get = (s->runout_put + 8) & m;
	s->runout = s->runout_get != s->runout_put && (rnd32() & 1);
	if (s->runout) {
		/* a FREE-row store on CACHE1's channel sets the flag */
		wr(gpu, 0x2410, s->runout_put);
		wr(gpu, 0x2420, (s->runout_put + 0x10) & m);
		wr(gpu, 0x3200, 1);
		wr(gpu, cd->c1_chid, 0);
		wr(gpu, USER + 0x10, 0xdeadbeef);
		assert_int_equal(rd(gpu, cd->c1_status) & 1, 1);
	}
	wr(gpu, 0x2410, s->runout_put); /* RAMRO stays non-empty while the flag is wanted */
	wr(gpu, 0x2420, s->runout_get);
	wr(gpu, 0x2100, 0xffffffffu);
	s->chsw = rnd32() & 1;
	s->c0_push = rnd32() & 1;
	s->c0_chid = rnd32() & 0x7f;
	s->c1_push = rnd32() & 3 ? 1 : 0;
	s->c1_chid = rnd32() & 1 ? s->c0_chid : rnd32() & 0x7f;
	s->c1_put = (rnd32() & 31) << 2;
	s->c1_get = rnd32() & 3 ? (rnd32() & 31) << 2 : gnext(s->c1_put);
	if (!(rnd32() & 3))
		s->c1_get = s->c1_put;
	s->c1_ps = rnd32() & 0x117;
	s->c0_put = rnd32() & 4;
	s->c0_get = rnd32() & 4;
	wr(gpu, cd->nv3 ? 0x3010 : 0x3030, s->c0_put);
	wr(gpu, 0x3070, s->c0_get);
	wr(gpu, 0x2500, s->chsw);
	wr(gpu, 0x3000, s->c0_push);
	wr(gpu, cd->c0_chid, s->c0_chid);
	wr(gpu, 0x3200, s->c1_push);
	wr(gpu, cd->c1_chid, s->c1_chid);
	wr(gpu, cd->c1_put, s->c1_put);
	wr(gpu, 0x3270, s->c1_get);
	wr(gpu, 0x3250, s->c1_ps);
	wr(gpu, 0x3240, 0);
	wr(gpu, 0x3040, 0);
	for (int i = 0; i < 8; i++) {
		s->ctx[i] = rnd32() & cd->ctx_mask;
		wr(gpu, 0x3280 + 0x10 * i, s->ctx[i]);
	}
	for (int i = 0; i < 32; i++) {
		s->addr[i] = rnd32() & 0xfffc;
		s->data[i] = rnd32();
		wr(gpu, 0x3300 + 8 * i, s->addr[i]);
		wr(gpu, 0x3304 + 8 * i, s->data[i]);
	}
	for (uint32_t i = 0; i < rsz / 4; i++) {
		s->ro[i] = rnd32();
		ramin_put(gpu, s, true, i, s->ro[i]);
	}
	uint32_t fcw = s->fc_chans * 8;
	for (uint32_t i = 0; i < fcw; i++) {
		s->fc[i] = rnd32();
		ramin_put(gpu, s, false, i, s->fc[i]);
	}
}

/* E-hw pfifo_cache1_free (digest section 3): FREE as a channel sees it. */
static uint32_t sim_free(const struct sim *s, uint32_t chid, uint32_t config)
{
	if (s->runout)
		return 0;
	if (chid != s->c1_chid || !s->c1_push)
		return s->runout_get == s->runout_put ? 0x7c : 0;
	if (!s->cd->nv3 && (config & 3) && ((s->ctx[s->c1_ps & 7] >> 24) & 1))
		return (0x100u << ((config & 3) - 1)) - 4;
	uint32_t g = s->c1_get >> 2, p = s->c1_put >> 2;
	for (uint32_t k = 1; k < 32; k <<= 1) {
		g ^= g >> k;
		p ^= p >> k;
	}
	return ((g - p - 1) * 4) & 0x7c;
}

static void compare(nvm_gpu *gpu, const struct sim *s, uint32_t addr, unsigned size)
{
	uint32_t config = rnd32() & 3;
	wr(gpu, 0x2200, s->cd->nv3 ? 0 : config);
	for (uint32_t c = 0; c < 2; c++) {
		uint32_t chid = c ? (s->c1_chid + 1 + (rnd32() & 0x3f)) & 0x7f : s->c1_chid;
		assert_int_equal(rd(gpu, USER + chid * 0x10000 + (rnd32() & 7) * 0x2000 + 0x10),
		                 sim_free(s, chid, s->cd->nv3 ? 0 : config));
	}
	struct {
		uint32_t reg, want;
	} r[] = {
		{ 0x2100, s->intr },
		{ 0x2410, s->runout_put },
		{ s->cd->c1_chid, s->c1_chid },
		{ s->cd->c1_put, s->c1_put },
		{ 0x3250, s->c1_ps & s->cd->ps_mask },
		{ s->cd->c1_status, 0 },
	};
	r[5].want = (s->c1_get == s->c1_put ? 0x10 : gnext(s->c1_put) == s->c1_get ? 0x100 : 0) | s->runout;
	for (size_t i = 0; i < sizeof(r) / sizeof(r[0]); i++)
		if (rd(gpu, r[i].reg) != r[i].want)
			fail_msg("store to 0x%06x (%u bytes): register 0x%04x is 0x%08x, E-hw says 0x%08x", addr, size,
			         r[i].reg, rd(gpu, r[i].reg), r[i].want);
	/* E-hw PFifoStatusTest: RUNOUT_STATUS and CACHE0 STATUS */
	uint32_t m = s->ro_size - 8, rs = s->runout_get == s->runout_put ? 0x10 : 1;
	if (s->runout_get == ((s->runout_put + 8) & m))
		rs |= 0x100;
	assert_int_equal(rd(gpu, 0x2400), rs);
	assert_int_equal(rd(gpu, s->cd->nv3 ? 0x3014 : 0x3020), s->c0_get == s->c0_put ? 0x10 : 0x100);
	for (int i = 0; i < 8; i++)
		assert_int_equal(rd(gpu, 0x3280 + 0x10 * i), s->ctx[i]);
	for (int i = 0; i < 32; i++) {
		assert_int_equal(rd(gpu, 0x3300 + 8 * i), s->addr[i]);
		assert_int_equal(rd(gpu, 0x3304 + 8 * i), s->data[i]);
	}
	for (uint32_t i = 0; i < s->ro_size / 4; i++)
		if (ramin_get(gpu, s, true, i) != s->ro[i])
			fail_msg("store to 0x%06x (%u bytes): RAMRO word 0x%x is 0x%08x, E-hw says 0x%08x", addr, size,
			         i, ramin_get(gpu, s, true, i), s->ro[i]);
	for (uint32_t i = 0; i < s->fc_chans * 8; i++)
		assert_int_equal(ramin_get(gpu, s, false, i), s->fc[i]);
}

/* E-hw PFifoUserWriteTest: random states, random 8/16/32-bit stores
 * (sometimes to the FREE or password rows, to CACHE1's or CACHE0's
 * channel); a store across a word is two accesses. */
static void user_writes(const struct cd *cd, int n)
{
	srand(1);
	nvm_gpu *gpu = open_chip(cd->chip);
	static struct sim s;
	for (int it = 0; it < n; it++) {
		load_random(gpu, &s, cd);
		unsigned sz = rnd32() % 3;
		uint32_t addr = rnd32() & 0x7fffff;
		if (!(rnd32() & 7))
			addr = (addr & ~0x1ff0u) | 0x20;
		if (!(rnd32() & 7))
			addr = (addr & ~0x1ff0u) | 0x10;
		if (rnd32() & 1) {
			sz = 2;
			addr &= ~3u;
		}
		if (rnd32() & 1)
			addr = (addr & ~0x7f0000u) | s.c1_chid << 16;
		if (!(rnd32() & 3))
			addr = (addr & ~0x7f0000u) | s.c0_chid << 16;
		if (addr + (1u << sz) > 0x800000)
			addr -= 4;
		uint32_t val = rnd32();
		if (sz < 2)
			val &= (1u << (8 << sz)) - 1;
		assert_int_equal(nvm_pfifo_user_write(gpu, USER + addr, val, 1u << sz), NVM_OK);
		unsigned be = ((1u << (1u << sz)) - 1) << (addr & 3);
		sim_store(&s, addr, val << (addr & 3) * 8, be & 0xf);
		if (be & 0xf0)
			sim_store(&s, (addr | 3) + 1, val >> ((-addr & 3) * 8), be >> 4);
		compare(gpu, &s, addr, 1u << sz);
	}
	nvm_close(gpu);
}

static void user_writes_as_ehw(void **state)
{
	(void)state;
	user_writes(&cd_nv01, 400);
}

static void user_writes_nv03(void **state)
{
	(void)state;
	user_writes(&cd_nv03, 200);
}

/* ---------------------------------------------------------------- a Riva 128 as rivafb drives it */

static void bar1_wr(nvm_gpu *gpu, uint32_t ramin, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	assert_int_equal(nvm_pfifo_ramin_bar_write(gpu, ramin, b, 4), NVM_OK);
}

static uint32_t bar1_rd(nvm_gpu *gpu, uint32_t ramin)
{
	uint8_t b[4];
	assert_int_equal(nvm_pfifo_ramin_bar_read(gpu, ramin, b, 4), NVM_OK);
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* riva_tbl.h nv3TablePRAMIN: the RAMHT entries of channel 0 (handle,
 * context), at 0x800 + 16 * the XOR of the handle's bytes. */
static const uint32_t riva_objs[][2] = {
	{ 0x80000000, 0x00c20341 }, { 0x80000001, 0x00c50342 }, { 0x80000002, 0x00c60343 }, { 0x80000003, 0x00dc0348 },
	{ 0x80000004, 0x00dc0349 }, { 0x80000010, 0x00d10344 }, { 0x80000011, 0x00d00345 }, { 0x80000012, 0x00cc0346 },
	{ 0x80000013, 0x00d70347 }, { 0x80000016, 0x00ca034c },
};
/* RivaTableFIFO: subchannel i binds these */
static const uint32_t riva_binds[8] = { 0x80000000, 0x80000001, 0x80000002, 0x80000010,
	                                0x80000011, 0x80000012, 0x80000016, 0x80000013 };

static uint32_t xorbytes(uint32_t h)
{
	return (h ^ h >> 8 ^ h >> 16 ^ h >> 24) & 0xff;
}

/* riva_hw.c LoadStateExt for NV3: RivaTablePMC, nv3TablePFIFO in its
 * order, the RAMHT of nv3TablePRAMIN, RivaTableFIFO's eight binds (no FREE
 * check), then FifoEmptyCount = FREE. */
static nvm_gpu *riva_init(uint32_t *empty)
{
	nvm_gpu *gpu = open_chip("nv03");
	wr(gpu, 0x140, 0);
	wr(gpu, 0x200, 0xffff00ffu);
	wr(gpu, 0x200, 0xffffffffu);
	static const uint32_t fifo[][2] = {
		{ 0x2500, 0 },      { 0x3200, 0 },      { 0x3240, 0 }, { 0x3250, 0 }, { 0x3204, 0 },   { 0x2210, 0 },
		{ 0x2218, 0x2000 }, { 0x2214, 0x2200 }, { 0x3210, 0 }, { 0x3270, 0 }, { 0x2410, 0 },   { 0x2420, 0 },
		{ 0x2400, 0 },      { 0x3280, 0 },      { 0x3290, 0 }, { 0x32a0, 0 }, { 0x32b0, 0 },   { 0x32c0, 0 },
		{ 0x32d0, 0 },      { 0x32e0, 0 },      { 0x32f0, 0 }, { 0x2140, 0 }, { 0x2100, ~0u }, { 0x3200, 1 },
		{ 0x3240, 1 },      { 0x2500, 1 },
	};
	for (size_t i = 0; i < sizeof(fifo) / sizeof(fifo[0]); i++)
		wr(gpu, fifo[i][0], fifo[i][1]);
	for (size_t i = 0; i < sizeof(riva_objs) / sizeof(riva_objs[0]); i++) {
		/* where nv3TablePRAMIN puts them: 0x800 + 16 * the low byte */
		assert_int_equal(16 * xorbytes(riva_objs[i][0]), 0x800 + 16 * (riva_objs[i][0] & 0xff));
		bar1_wr(gpu, 16 * xorbytes(riva_objs[i][0]), riva_objs[i][0]);
		bar1_wr(gpu, 16 * xorbytes(riva_objs[i][0]) + 4, riva_objs[i][1]);
	}
	for (unsigned s = 0; s < 8; s++)
		wr(gpu, USER + s * 0x2000, riva_binds[s]);
	*empty = rd(gpu, USER + 0x10);
	return gpu;
}

static uint32_t ctx_of(uint32_t handle)
{
	for (size_t i = 0; i < sizeof(riva_objs) / sizeof(riva_objs[0]); i++)
		if (riva_objs[i][0] == handle)
			return riva_objs[i][1];
	return 0;
}

/* RIVA_FIFO_FREE: poll the subchannel's FREE (32-bit read, >> 2) until n
 * words fit; the model's puller drains CACHE1 while we run. */
static void fifo_free(nvm_gpu *gpu, uint32_t subc, uint32_t n, uint32_t *count)
{
	for (int spins = 0; *count < n; spins++) {
		assert_true(spins < 100);
		*count = rd(gpu, USER + subc * 0x2000 + 0x10) >> 2;
		if (*count < n)
			run(gpu);
	}
	*count -= n;
}

static size_t pgraph_log(nvm_gpu *gpu, nvm_method *m, size_t max)
{
	size_t n;
	assert_int_equal(nvm_method_log_read(gpu, "pgraph", 0, m, max, &n, NULL), NVM_OK);
	return n;
}

/* puller.rst "Engine objects": method 0 looks the handle up in RAMHT and
 * sends the 24-bit context to PGRAPH; a method on another subchannel than
 * the last is preceded by that subchannel's context, sent by PFIFO itself
 * (the log's implicit). rivafb_fillrect / rivafb_copyarea sequences. */
static void riva_session(void **state)
{
	(void)state;
	uint32_t empty, count = 0;
	nvm_gpu *gpu = riva_init(&empty);
	assert_int_equal(empty, 0x7c - 8 * 4); /* read at once: the binds are still in CACHE1 */
	run(gpu);
	assert_int_equal(rd(gpu, USER + 0x10), 0x7c);
	nvm_method m[64];
	size_t n = pgraph_log(gpu, m, 64);
	assert_int_equal(n, 8);
	for (unsigned s = 0; s < 8; s++) {
		assert_int_equal(m[s].subch, s);
		assert_int_equal(m[s].method, 0);
		assert_int_equal(m[s].data, ctx_of(riva_binds[s]));
		assert_int_equal(m[s].ctx, ctx_of(riva_binds[s]));
		assert_false(m[s].implicit);
		assert_int_equal(rd(gpu, 0x3280 + 0x10 * s), ctx_of(riva_binds[s]));
	}
	nvm_method_log_clear(gpu, "pgraph");
	/* riva_set_rop_solid: Patt (2) x4, Rop (0) x1; fillrect: Bitmap (5) */
	fifo_free(gpu, 2, 4, &count);
	for (unsigned i = 0; i < 4; i++)
		wr(gpu, USER + 2 * 0x2000 + 0x310 + 4 * i, 0xffffffffu);
	fifo_free(gpu, 0, 1, &count);
	wr(gpu, USER + 0x300, 0xcc);
	fifo_free(gpu, 5, 3, &count);
	wr(gpu, USER + 5 * 0x2000 + 0x3fc, 0x1234);
	wr(gpu, USER + 5 * 0x2000 + 0x400, 10 << 16 | 20);
	wr(gpu, USER + 5 * 0x2000 + 0x404, 30 << 16 | 40);
	run(gpu);
	n = pgraph_log(gpu, m, 64);
	/* Patt: implicit 0 + 4; Rop: implicit 0 + 1; Bitmap: implicit 0 + 3.
	 * (The last bind was subchannel 7: Patt's context goes again.) */
	assert_int_equal(n, 11);
	static const struct {
		uint32_t subc, method;
		bool implicit;
	} want[] = { { 2, 0, true },      { 2, 0x310, false }, { 2, 0x314, false }, { 2, 0x318, false },
		     { 2, 0x31c, false }, { 0, 0, true },      { 0, 0x300, false }, { 5, 0, true },
		     { 5, 0x3fc, false }, { 5, 0x400, false }, { 5, 0x404, false } };
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(m[i].subch, want[i].subc);
		assert_int_equal(m[i].method, want[i].method);
		assert_int_equal(m[i].implicit, want[i].implicit);
		assert_int_equal(m[i].ctx, ctx_of(riva_binds[want[i].subc]));
		assert_int_equal(m[i].cls, FIELD_GET(ctx_of(riva_binds[want[i].subc]), 22, 16));
		if (want[i].implicit)
			assert_int_equal(m[i].data, m[i].ctx);
	}
	nvm_close(gpu);
}

/* nv3SetSurfaces2D re-binds subchannel 7 at run time (method 0 lookups);
 * a handle not in RAMHT: CACHE_ERROR with PULL_CTRL HASH_FAILED and
 * CACHE_ERROR1, the entry held at GET (puller.rst, rnndb); the driver
 * clears PULL_CTRL, steps GET over it and acks INTR. */
static void rebind_and_missing_handle(void **state)
{
	(void)state;
	uint32_t empty;
	nvm_gpu *gpu = riva_init(&empty);
	run(gpu);
	nvm_method_log_clear(gpu, "pgraph");
	wr(gpu, USER + 7 * 0x2000, 0x80000003);
	wr(gpu, USER + 7 * 0x2000 + 0x30c, 0x100000);
	wr(gpu, USER + 7 * 0x2000, 0x80000013);
	run(gpu);
	nvm_method m[8];
	assert_int_equal(pgraph_log(gpu, m, 8), 3);
	assert_int_equal(m[0].ctx, 0x00dc0348);
	assert_int_equal(m[1].ctx, 0x00dc0348);
	assert_false(m[1].implicit); /* same subchannel, no context again */
	assert_int_equal(m[2].ctx, 0x00d70347);

	nvm_method_log_clear(gpu, "pgraph");
	uint32_t get = rd(gpu, 0x3270);
	wr(gpu, USER + 0x2000, 0xdeadbeef); /* no such handle */
	wr(gpu, USER + 0x2000 + 0x300, 1);
	run(gpu);
	assert_int_equal(rd(gpu, 0x2100) & 1, 1);
	assert_int_equal(rd(gpu, 0x2080), 0x10);
	assert_int_equal(rd(gpu, 0x3240), 0x11);
	assert_int_equal(rd(gpu, 0x3270), get); /* held */
	assert_int_equal(pgraph_log(gpu, m, 8), 0);
	/* recovery */
	wr(gpu, 0x3240, 0);
	uint32_t i = (get >> 2), lin = i ^ i >> 1 ^ i >> 2 ^ i >> 3 ^ i >> 4, nx = ((lin + 1) & 31);
	wr(gpu, 0x3270, (nx ^ nx >> 1) << 2);
	wr(gpu, 0x2100, 1);
	assert_int_equal(rd(gpu, 0x2080), 0);
	wr(gpu, 0x3240, 1);
	run(gpu);
	assert_int_equal(pgraph_log(gpu, m, 8), 2); /* subchannel 1's context, then the method */
	assert_true(m[0].implicit);
	assert_int_equal(m[0].ctx, 0x00c50342);
	assert_int_equal(m[1].method, 0x300);
	nvm_close(gpu);
}

/* SOFTWARE objects (context engine bit 23 clear, puller.rst): the bind and
 * every method on the subchannel raise CACHE_ERROR DEVICE_SOFTWARE and go
 * to the software engine; rivafb zeroes CTX[0..7], so a subchannel never
 * bound is SOFTWARE too. */
static void software_objects(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv03");
	wr(gpu, 0x2218, 0x2000);
	wr(gpu, 0x2214, 0x2200);
	bar1_wr(gpu, 16 * xorbytes(0x5000), 0x5000);
	bar1_wr(gpu, 16 * xorbytes(0x5000) + 4, 0x00420010); /* engine 0 */
	assert_int_equal(bar1_rd(gpu, 16 * xorbytes(0x5000)), 0x5000);
	wr(gpu, 0x3200, 1);
	wr(gpu, 0x3240, 1);
	wr(gpu, USER + 3 * 0x2000, 0x5000);
	run(gpu);
	assert_int_equal(rd(gpu, 0x3240), 0x101);
	assert_int_equal(rd(gpu, 0x2080), 0x10);
	assert_int_equal(rd(gpu, 0x3280 + 0x30), 0x420010);
	nvm_method m[4];
	size_t n;
	assert_int_equal(nvm_method_log_read(gpu, "software", 0, m, 4, &n, NULL), NVM_OK);
	assert_int_equal(n, 1);
	assert_int_equal(m[0].ctx, 0x420010);
	nvm_close(gpu);
}

/* E-hw pfifo_cache1_free / PFifoFreeTest: 0 while CACHE1 ran out; 0x7c
 * for a channel CACHE1 does not hold (0 while RAMRO has entries); the NV1
 * free-count lie 0xfc / 0x1fc / 0x3fc (CONFIG FREE_LIE with CTX bit 24 of
 * the puller's subchannel); else the free bytes, one slot kept empty. */
static void free_count(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv01");
	wr(gpu, 0x3200, 1);
	wr(gpu, 0x2500, 1);
	assert_int_equal(rd(gpu, USER + 0x10), 0x7c);
	for (unsigned i = 1; i <= 31; i++) {
		wr(gpu, USER + 0x100, i);
		assert_int_equal(rd(gpu, USER + 0x4010), 0x7c - 4 * i); /* any subchannel */
	}
	assert_int_equal(rd(gpu, 0x3220), 0x100);        /* FULL */
	assert_int_equal(rd(gpu, USER + 0x50010), 0x7c); /* another channel */
	wr(gpu, 0x3280, 1u << 24);                       /* CTX[0] FREE_LIE */
	for (unsigned lie = 1; lie <= 3; lie++) {
		wr(gpu, 0x2200, lie);
		assert_int_equal(rd(gpu, USER + 0x10), (0x100u << (lie - 1)) - 4);
	}
	wr(gpu, USER + 0x100, 32); /* CACHE1 full, the subchannel lied */
	assert_int_equal(rd(gpu, 0x2410), 8);
	assert_int_equal(FIELD_GET(rd(gpu, 0x650000), 31, 28), 4); /* CAUGHT_LYING */
	assert_int_equal(rd(gpu, USER + 0x10), 0);                 /* ran out */
	assert_int_equal(rd(gpu, USER + 0x50010), 0);              /* RAMRO not empty */
	assert_int_equal(rd(gpu, 0x3220), 0x101);
	nvm_close(gpu);
}

/* E-hw rules 4, 8 and pfifo_runout: a store to 0x04..0xfc is
 * RESERVED_ACCESS (RAMRO word 0 = the USER offset | reason << 28, word 1
 * the data; RUNOUT), the channel's later stores CACHE_RAN_OUT until the
 * driver empties RAMRO (RUNOUT_GET = RUNOUT_PUT); a full RAMRO (next(PUT)
 * == GET) loses the entry with RUNOUT_OVERFLOW and PUT stays. */
static void runout_and_recovery(void **state)
{
	(void)state;
	uint32_t empty;
	nvm_gpu *gpu = riva_init(&empty);
	run(gpu);
	wr(gpu, USER + 0x40, 0x1234); /* rivafb never does: a reserved method */
	assert_int_equal(rd(gpu, 0x2100), 0x10);
	assert_int_equal(rd(gpu, 0x2410), 8);
	assert_int_equal(bar1_rd(gpu, 0x2000), 0x50000040u);
	assert_int_equal(bar1_rd(gpu, 0x2004), 0x1234);
	assert_int_equal(rd(gpu, 0x2400), 0x1); /* RANOUT */
	assert_int_equal(rd(gpu, USER + 0x10), 0);
	wr(gpu, USER + 0x300, 0xcc);
	assert_int_equal(FIELD_GET(bar1_rd(gpu, 0x2008), 31, 28), 2); /* CACHE_RAN_OUT */
	/* the driver: read the entries, RUNOUT_GET = RUNOUT_PUT, ack */
	wr(gpu, 0x2420, rd(gpu, 0x2410));
	wr(gpu, 0x2100, 0x10);
	assert_int_equal(rd(gpu, 0x2400), 0x10);
	assert_int_equal(rd(gpu, 0x2100), 0);
	assert_int_equal(rd(gpu, USER + 0x10), 0x7c);
	wr(gpu, USER + 0x300, 0xcc);
	run(gpu);
	nvm_method m[16];
	size_t n = pgraph_log(gpu, m, 16);
	assert_int_equal(m[n - 1].method, 0x300);

	/* 512-byte RAMRO: 63 entries, the 64th overflows */
	wr(gpu, 0x2410, 0);
	wr(gpu, 0x2420, 0);
	for (unsigned i = 0; i < 63; i++)
		wr(gpu, USER + 0x44, i);
	assert_int_equal(rd(gpu, 0x2410), 63 * 8);
	assert_int_equal(rd(gpu, 0x2400), 0x101); /* FULL */
	assert_int_equal(rd(gpu, 0x2100), 0x10);
	wr(gpu, USER + 0x44, 99);
	assert_int_equal(rd(gpu, 0x2100), 0x110); /* RUNOUT_OVERFLOW */
	assert_int_equal(rd(gpu, 0x2410), 63 * 8);
	nvm_close(gpu);
}

/* E-hw rule 7: a store for another channel with CACHE1 and RAMRO empty
 * and CHSW_ENABLE saves CACHE1's channel to RAMFC and loads the new one;
 * puller.rst: after a switch the context goes to PGRAPH again. */
static void channel_switch(void **state)
{
	(void)state;
	uint32_t empty;
	nvm_gpu *gpu = riva_init(&empty);
	run(gpu);
	/* channel 1's ROP object: channel 1 in the context's 30:24 and the hash */
	uint32_t h = xorbytes(0x80000000) ^ 1;
	bar1_wr(gpu, 16 * h, 0x80000000);
	bar1_wr(gpu, 16 * h + 4, 1u << 24 | 0x00c20350);
	wr(gpu, USER + 0x10000, 0x80000000);
	assert_int_equal(rd(gpu, 0x3204), 1);
	/* channel 0 saved: CTX[0..7] (PULL_STATE CTX was set by the binds) */
	for (unsigned s = 0; s < 8; s++)
		assert_int_equal(bar1_rd(gpu, 0x2200 + 4 * s) & 0xffffff, ctx_of(riva_binds[s]));
	assert_int_equal(FIELD_GET(bar1_rd(gpu, 0x2200), 30, 28), 7); /* the last subchannel */
	/* channel 0 cannot come back while CACHE1 holds channel 1's entry */
	wr(gpu, USER + 0x300, 0xcc);
	assert_int_equal(FIELD_GET(bar1_rd(gpu, 0x2000), 31, 28), 1); /* NO_CACHE_AVAILABLE */
	wr(gpu, 0x2420, rd(gpu, 0x2410));
	wr(gpu, 0x2100, ~0u);
	run(gpu);
	nvm_method_log_clear(gpu, "pgraph");
	wr(gpu, USER + 0x300, 0xcc); /* back to channel 0 */
	assert_int_equal(rd(gpu, 0x3204), 0);
	assert_int_equal(rd(gpu, 0x3280), 0x00c20341);
	run(gpu);
	nvm_method m[4];
	assert_int_equal(pgraph_log(gpu, m, 4), 2);
	assert_true(m[0].implicit); /* subchannel 0 again after the switch */
	assert_int_equal(m[0].chid, 0);
	assert_int_equal(m[0].data, 0x00c20341);
	nvm_close(gpu);
}

/* nv1-vram.rst: PRAM CONFIG places RAMHT / RAMRO / RAMFC; the PRAMHT,
 * PRAMFC, PRAMRO windows map them (wrapping past the area) and PRAMIN
 * (0x700000) all of RAMIN. NV1 has no RAMIN BAR, NV3 no PRAMIN window. */
static void nv01_ramin_windows(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv01");
	wr(gpu, 0x602200, 1); /* RAMHT 0x2000, RAMRO 0x2000 @0x2000, RAMFC @0x3000 */
	wr(gpu, 0x640004, 0x11);
	wr(gpu, 0x650008, 0x22);
	wr(gpu, 0x648000 + 0x1000 + 4, 0x33); /* past RAMFC's 0x1000: wraps */
	assert_int_equal(rd(gpu, 0x700004), 0x11);
	assert_int_equal(rd(gpu, 0x702008), 0x22);
	assert_int_equal(rd(gpu, 0x703004), 0x33);
	wr(gpu, 0x602200, 3);
	assert_int_equal(rd(gpu, 0x650008), 0);    /* RAMRO at 0x8000 now */
	assert_int_equal(rd(gpu, 0x642008), 0x22); /* and 0x2008 is in the 32 KiB RAMHT */
	uint8_t b[4];
	assert_int_equal(nvm_pfifo_ramin_bar_read(gpu, 0, b, 4), NVM_ERR_NOENT);
	nvm_close(gpu);
	gpu = open_chip("nv03");
	uint32_t v = 0;
	assert_int_equal(nvm_reg_read(gpu, 0x700000, &v), NVM_OK);
	assert_int_equal(v, 0); /* unmodelled offset */
	nvm_close(gpu);
}

/* CACHE0 (E-hw pgraph_mthd.cc's injection): CHID, CTX with bit 23, ADDR,
 * DATA, PUT = 4, GET = 0, PUSH / PULL on: PGRAPH gets the context, then the
 * method. */
static void cache0_injection(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv03");
	wr(gpu, 0x3004, 2);
	wr(gpu, 0x3010, 4);
	wr(gpu, 0x3070, 0);
	wr(gpu, 0x3080, 0x00d00345);
	wr(gpu, 0x3100, 4u << 13 | 0x304);
	wr(gpu, 0x3104, 0xabcd);
	wr(gpu, 0x3000, 1);
	wr(gpu, 0x3040, 1);
	assert_int_equal(rd(gpu, 0x3014), 0x100);
	run(gpu);
	assert_int_equal(rd(gpu, 0x3014), 0x10);
	nvm_method m[4];
	assert_int_equal(pgraph_log(gpu, m, 4), 2);
	assert_true(m[0].implicit);
	assert_int_equal(m[0].chid, 2);
	assert_int_equal(m[1].method, 0x304);
	assert_int_equal(m[1].subch, 4);
	assert_int_equal(m[1].ctx, 0x00d00345);
	nvm_close(gpu);
}

/* NV04..NV4x: the record's ctx is the bound object's instance >> 4, what
 * PGRAPH got through method 0 (puller.rst "Engine objects": on NV4+ the
 * puller passes the object's address down); never implicit. */
static void nv04_ctx_in_log(void **state)
{
	(void)state;
	static const char *const chips[] = { "nv04", "nv10", "nv17", "nv40" };
	for (size_t c = 0; c < 4; c++) {
		struct penv e;
		pe_init(&e, chips[c]);
		uint32_t a = pe_object(&e, 0, 0x1111, 0x42, 1), b = pe_object(&e, 0, 0x2222, 0x19, 1);
		pe_pio(&e, 0, 1, 0, 0x1111);
		pe_pio(&e, 0, 2, 0, 0x2222);
		pe_pio(&e, 0, 1, 0x300, 5);
		pe_pio(&e, 0, 2, 0x304, 6);
		assert_string_equal(pe_run(&e, 1000000), "idle");
		nvm_method m[8];
		assert_int_equal(pe_log(&e, "pgraph", m, 8), 4);
		uint32_t want[] = { a >> 4, b >> 4, a >> 4, b >> 4 };
		for (int i = 0; i < 4; i++) {
			assert_int_equal(m[i].ctx, want[i]);
			assert_false(m[i].implicit);
		}
		pe_fini(&e);
	}
}

/* The same records once the log's rings are full (a cap of 2: the third
 * and fourth methods take engine_log_append's usual case, not the path
 * that grows the rings): ctx must be kept there too. */
static void nv04_ctx_in_full_log(void **state)
{
	(void)state;
	struct penv e;
	pe_init(&e, "nv04");
	assert_int_equal(nvm_method_log_config(e.gpu, "pgraph", 2), NVM_OK);
	uint32_t a = pe_object(&e, 0, 0x1111, 0x42, 1), b = pe_object(&e, 0, 0x2222, 0x19, 1);
	pe_pio(&e, 0, 1, 0, 0x1111);
	pe_pio(&e, 0, 2, 0, 0x2222);
	pe_pio(&e, 0, 1, 0x300, 5);
	pe_pio(&e, 0, 2, 0x304, 6);
	assert_string_equal(pe_run(&e, 1000000), "idle");
	nvm_method m[4];
	assert_int_equal(pe_log(&e, "pgraph", m, 4), 2);
	assert_int_equal(m[0].method, 0x300);
	assert_int_equal(m[0].ctx, a >> 4);
	assert_int_equal(m[1].method, 0x304);
	assert_int_equal(m[1].ctx, b >> 4);
	pe_fini(&e);
}

/* NV03's DMA (digest 8, nv1-pfifo.rst "todo"): its registers keep what
 * the scan says; a launch (DMA_CTRL ACCESS) is reported as unmodelled and
 * fetches nothing. */
static void nv03_dma_unmodelled(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv03");
	uint64_t un = nvm_event_count(gpu, NVM_EV_UNMODELLED);
	wr(gpu, 0x3228, 0x1000);
	wr(gpu, 0x3224, 0x40);
	wr(gpu, 0x322c, 2);
	wr(gpu, 0x3220, 1);
	assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), un + 1);
	run(gpu);
	assert_int_equal(rd(gpu, 0x3224), 0x40);
	nvm_method m[2];
	assert_int_equal(pgraph_log(gpu, m, 2), 0);
	nvm_close(gpu);
}

/* nv1-pfifo.rst "Interrupts": PFIFO's line (PMC input 8) is INTR &
 * INTR_EN; masked bits still show in INTR. */
static void interrupt_line(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv01");
	wr(gpu, 0x140, 1);
	wr(gpu, 0x3200, 1);
	wr(gpu, USER + 0x40, 1); /* RESERVED_ACCESS: RUNOUT */
	assert_int_equal(rd(gpu, 0x2100), 0x10);
	assert_int_equal(nvm_intr_line(gpu), 0);
	wr(gpu, 0x2140, 0x10);
	assert_int_equal(nvm_intr_line(gpu), 1);
	assert_int_equal(rd(gpu, 0x100) & (1u << 8), 1u << 8);
	wr(gpu, 0x2100, 0x10);
	assert_int_equal(nvm_intr_line(gpu), 0);
	nvm_close(gpu);
}

/* nvm_pfifo_ramht_slot: NV01/NV03 one bucket of 2^bits / 256 entries at
 * the XOR of the handle's bytes and the channel; NV04 nouveau's hash with
 * RAMHT SEARCH deciding the probe. */
static void ramht_slot(void **state)
{
	(void)state;
	unsigned probe;
	assert_int_equal(nvm_pfifo_ramht_slot("nv03", 0x80000011, 0, 9, &probe), 0x91 * 2);
	assert_int_equal(probe, 2);
	assert_int_equal(nvm_pfifo_ramht_slot("nv01", 0x80000011, 3, 12, &probe), (0x91 ^ 3) * 16);
	assert_int_equal(probe, 16);
	assert_int_equal(nvm_pfifo_ramht_slot("nv04", 0x1234, 1, 12, &probe), nvm_pfifo_ramht_hash(0x1234, 1, 12));
	assert_int_equal(probe, 0);
	assert_int_equal(nvm_pfifo_ramht_slot("nv99", 1, 0, 12, &probe), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scan_nv01),           cmocka_unit_test(scan_nv03),
		cmocka_unit_test(scan_nv03t),          cmocka_unit_test(pmc_enable_resets),
		cmocka_unit_test(user_writes_as_ehw),  cmocka_unit_test(user_writes_nv03),
		cmocka_unit_test(riva_session),        cmocka_unit_test(rebind_and_missing_handle),
		cmocka_unit_test(software_objects),    cmocka_unit_test(free_count),
		cmocka_unit_test(runout_and_recovery), cmocka_unit_test(channel_switch),
		cmocka_unit_test(nv01_ramin_windows),  cmocka_unit_test(cache0_injection),
		cmocka_unit_test(nv04_ctx_in_log),     cmocka_unit_test(nv04_ctx_in_full_log),
		cmocka_unit_test(nv03_dma_unmodelled), cmocka_unit_test(interrupt_line),
		cmocka_unit_test(ramht_slot),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
