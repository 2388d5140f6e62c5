/*
 * The Host's generation description (struct host_gen, src/host/gv100.c):
 * the shared mechanism takes counts, registers and layouts from it, and the
 * RAMFC and RAMUSERD layouts (host_fmt_tables.c) are the one description
 * the PBDMA's context load/save and USERD writeback, the `nvmodel host`
 * decoders and the Lua builder read (issue 18 items 1 and 4).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"
#include "host/host_internal.h"
#include "nvmodel/host_fmt.h"

static struct host *open_chip(const char *chip, nvm_gpu **gpu)
{
	nvm_config cfg = { .chip = chip, .vram_size = 64ull << 20, .sysmem_size = 64ull << 20 };
	assert_int_equal(nvm_open(&cfg, gpu), NVM_OK);
	struct host *h = host_of(*gpu);
	assert_non_null(h);
	return h;
}

static struct host *open_gv100(nvm_gpu **gpu)
{
	return open_chip("gv100", gpu);
}

/* Every Host generation. */
static const char *const host_chips[] = { "gv100", "tu102", "ga100", "ga102", "gh100" };

/* The counts are the generation's data and the PFIFO CFG registers show them. */
static void counts_are_data(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	struct host *h = open_gv100(&gpu);
	assert_ptr_equal(h->gen, &host_gv100);
	assert_int_equal(rd(gpu, 0x2008), h->gen->nchan);         /* NV_PFIFO_CFG1 NUM_CHANNELS */
	assert_int_equal(rd(gpu, 0x2004) & 0xff, h->gen->npbdma); /* NV_PFIFO_CFG0 NUM_PBDMA */
	assert_int_equal(h->gen->nchan, 4096);
	assert_int_equal(h->gen->npbdma, 14);
	assert_int_equal(h->gen->nrunlist, 8);
	nvm_host_channel c;
	assert_int_equal(nvm_host_channel_info(gpu, h->gen->nchan - 1, &c), NVM_OK);
	assert_int_equal(nvm_host_channel_info(gpu, h->gen->nchan, &c), NVM_ERR_ARG);
	nvm_close(gpu);
}

/* A context load and save carry exactly the registers RAMFC mirrors: every
 * PBDMA register below 0x100 (seed 000's table ends at SET_CHANNEL_INFO,
 * dword 63), at dword offset / 4, found through the RAMFC layout by name. */
static void ramfc_map_from_the_layout(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	struct host *h = open_gv100(&gpu);
	bool seen[PBR_COUNT] = { false };
	for (unsigned i = 0; i < h->nramfc; i++) {
		unsigned d = h->ramfc[i].dword, r = h->ramfc[i].reg;
		assert_true(r < PBR_COUNT && !seen[r]);
		seen[r] = true;
		assert_int_equal(h->gen->pbdma_regs[r].offset, 4 * d);
		const nvm_hf_word *w = nvm_hf_word_at(nvm_hf_layout_get(NVM_HF_RAMFC), d, NULL);
		assert_non_null(w);
		assert_string_equal(w->reg, h->gen->pbdma_regs[r].name);
	}
	/* every slot up to SET_CHANNEL_INFO but gh100's GP_INFO, which gv100 lacks */
	assert_int_equal(h->nramfc, PBR_SET_CHANNEL_INFO);
	for (unsigned r = 0; r <= PBR_SET_CHANNEL_INFO; r++)
		assert_true(seen[r] == (r != PBR_GP_INFO));
	nvm_close(gpu);
}

/* The runs a context load and save copy (pbdma_ramfc_runs, as h->ramfc_blk)
 * are the word map h->ramfc, in order, with nothing left out or added, on
 * every Host generation; on gv100 the 46 words make 9 runs. */
static void ramfc_runs_are_the_map(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(host_chips) / sizeof(host_chips[0]); c++) {
		nvm_gpu *gpu;
		struct host *h = open_chip(host_chips[c], &gpu);
		struct ramfc_run runs[PBR_COUNT];
		unsigned i = 0, nruns = pbdma_ramfc_runs(h, runs);
		for (unsigned r = 0; r < nruns; r++) {
			assert_true(runs[r].n >= 1);
			for (unsigned k = 0; k < runs[r].n; k++, i++) {
				assert_true(i < h->nramfc);
				assert_int_equal(runs[r].dword + k, h->ramfc[i].dword);
				assert_int_equal(runs[r].reg + k, h->ramfc[i].reg);
			}
		}
		assert_int_equal(i, h->nramfc);
		if (!strcmp(host_chips[c], "gv100"))
			assert_int_equal(nruns, 9);
		nvm_close(gpu);
	}
}

/* The block copies of a context load and save (pbdma_ramfc_to_regs,
 * pbdma_regs_to_ramfc over h->ramfc_blk) do what copying the word map
 * h->ramfc word by word does, on every Host generation: every mirrored
 * word arrives, and no other register or RAMFC word is touched (each
 * destination starts out filled with a pattern the copy must leave). A
 * block running past its run, or a run's words left out, fails it. */
static void ramfc_blocks_are_the_map(void **state)
{
	(void)state;
	for (size_t c = 0; c < sizeof(host_chips) / sizeof(host_chips[0]); c++) {
		nvm_gpu *gpu;
		struct host *h = open_chip(host_chips[c], &gpu);
		uint32_t src[NVM_RAMFC_SIZE / 4], regs[PBR_COUNT], want_regs[PBR_COUNT];
		uint32_t fc[NVM_RAMFC_SIZE / 4], want_fc[NVM_RAMFC_SIZE / 4];
		for (unsigned i = 0; i < NVM_RAMFC_SIZE / 4; i++)
			src[i] = 0x10000u * (unsigned)c + i * 2654435761u;
		for (unsigned i = 0; i < PBR_COUNT; i++)
			regs[i] = want_regs[i] = 0xdead0000u + i;
		for (unsigned i = 0; i < h->nramfc; i++)
			want_regs[h->ramfc[i].reg] = src[h->ramfc[i].dword];
		pbdma_ramfc_to_regs(h, regs, src);
		assert_memory_equal(regs, want_regs, sizeof(regs));
		/* back: the registers (changed) into an image of other words */
		for (unsigned i = 0; i < PBR_COUNT; i++)
			regs[i] = 0x5a000000u + 7u * i;
		for (unsigned i = 0; i < NVM_RAMFC_SIZE / 4; i++)
			fc[i] = want_fc[i] = 0xbeef0000u + i;
		for (unsigned i = 0; i < h->nramfc; i++)
			want_fc[h->ramfc[i].dword] = regs[h->ramfc[i].reg];
		pbdma_regs_to_ramfc(h, fc, regs);
		assert_memory_equal(fc, want_fc, sizeof(fc));
		if (!strcmp(host_chips[c], "gv100")) {
			assert_int_equal(h->nramfc_blk[0], 10);
			assert_int_equal(h->nramfc_blk[1], 2);
			assert_int_equal(h->nramfc_blk[2], 4);
		}
		nvm_close(gpu);
	}
}

/* The USERD writeback: the eight read-only entries of seed 000 section 4
 * between PUT (0x40) and GP_GET (0x88); GP_PUT (0x8c) is software's. */
static void userd_map_from_the_layout(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	struct host *h = open_gv100(&gpu);
	assert_int_equal(h->userd_gp_put, 0x8c);
	assert_int_equal(h->userd_wb_lo, 0x40);
	assert_int_equal(h->userd_wb_hi, 0x8c);
	assert_int_equal(h->nuserd_wb, 8);
	static const struct {
		uint16_t off;
		uint8_t reg;
	} want[] = { { 0x40, PBR_PUT },    { 0x44, PBR_GET },           { 0x48, PBR_REF },
		     { 0x4c, PBR_PUT_HI }, { 0x58, PBR_TOP_LEVEL_GET }, { 0x5c, PBR_TOP_LEVEL_GET_HI },
		     { 0x60, PBR_GET_HI }, { 0x88, PBR_GP_GET } };
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		bool found = false;
		for (unsigned k = 0; k < h->nuserd_wb; k++)
			found |= h->userd_wb[k].off == want[i].off && h->userd_wb[k].reg == want[i].reg;
		assert_true(found);
	}
	nvm_close(gpu);
}

/* Host methods go through the generation's C36F table: defined methods
 * have a handler, ILLEGAL (0x04) raises METHOD, and the rest is looked up
 * in the class (unmodelled) or raises METHOD. */
static void method_table(void **state)
{
	(void)state;
	const host_method_fn *m = host_gv100.methods;
	static const uint32_t defined[] = { 0x00, 0x04, 0x08, 0x10, 0x14, 0x18, 0x1c, 0x20, 0x24, 0x28, 0x2c, 0x30,
		                            0x34, 0x50, 0x5c, 0x60, 0x64, 0x68, 0x6c, 0x78, 0x7c, 0x80, 0x84 };
	unsigned n = 0;
	for (unsigned i = 0; i < 64; i++)
		n += m[i] != NULL;
	assert_int_equal(n, sizeof(defined) / sizeof(defined[0]));
	for (size_t i = 0; i < sizeof(defined) / sizeof(defined[0]); i++)
		assert_non_null(m[defined[i] >> 2]);
	assert_ptr_equal(m[0x04 >> 2], hm_illegal);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_are_data),           cmocka_unit_test(ramfc_map_from_the_layout),
		cmocka_unit_test(ramfc_runs_are_the_map),    cmocka_unit_test(ramfc_blocks_are_the_map),
		cmocka_unit_test(userd_map_from_the_layout), cmocka_unit_test(method_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
