/*
 * GMMU benchmarks: translations through the TLB against full ver2 walks, and
 * a sparse 49-bit address space with 1 GiB mapped in 2 MiB pages (what it
 * costs in host memory).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

static void w64(nvm_gpu *gpu, uint64_t addr, uint64_t v)
{
	nvm_mem_write(gpu, NVM_AP_VRAM, addr, &v, 8); /* little-endian hosts */
}

static uint64_t pde(uint64_t table)
{
	return ((table >> 12) << 8) | (1u << 1);
}

/* Builds PDE3..PDE0 for va at fixed tables and returns the PDE0 slot. */
static uint64_t pde0_slot(nvm_gpu *gpu, uint64_t pdb, uint64_t *next, uint64_t va)
{
	uint64_t t = pdb;
	static const unsigned shifts[3] = { 47, 38, 29 };
	static const unsigned masks[3] = { 3, 511, 511 };
	for (int l = 0; l < 3; l++) {
		uint64_t slot = t + ((va >> shifts[l]) & masks[l]) * 8;
		uint64_t e = 0;
		nvm_mem_read(gpu, NVM_AP_VRAM, slot, &e, 8);
		if (!((e >> 1) & 3)) {
			e = pde(*next);
			*next += 4096;
			w64(gpu, slot, e);
		}
		t = ((e >> 8) & ((1ull << 25) - 1)) << 12;
	}
	return t + ((va >> 21) & 255) * 16;
}

static nvm_gpu *open_gpu(void)
{
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 34 };
	return nvm_open(&cfg, &gpu) ? NULL : gpu;
}

#define NPAGES 256

/* TLB hits: 256 mapped 4 KiB pages translated over and over, against the
 * same translations done as full 5-level walks (nvm_mmu_walk). */
static int bench_tlb(double scale, struct bench_result *out)
{
	nvm_gpu *gpu = open_gpu();
	if (!gpu)
		return 1;
	uint64_t pdb = 0x100000, next = 0x101000, va0 = 0x123400000000ull;
	uint64_t small = next;
	next += 4096;
	uint64_t d = pde0_slot(gpu, pdb, &next, va0);
	w64(gpu, d + 8, pde(small));
	for (int i = 0; i < NPAGES; i++)
		w64(gpu, small + 8ull * i, 1 | ((0x10000000ull + (uint64_t)i * 4096) >> 12) << 8);
	nvm_mmu_request q = { 0 };
	q.use_pdb = 1;
	q.pdb_target = NVM_MMU_PDB_VID;
	q.pdb_addr = pdb;
	q.veid = -1;
	q.engine_id = 64;
	uint64_t n = (uint64_t)(4e6 * scale);
	if (n < NPAGES * 4)
		n = NPAGES * 4;
	nvm_mmu_result r;
	uint64_t s = 0;
	double t0 = bench_now();
	for (uint64_t i = 0; i < n; i++) {
		nvm_mmu_walk(gpu, NVM_MMU_PDB_VID, pdb, va0 + (i % NPAGES) * 4096, NVM_MMU_READ, 0, &r, NULL);
		s += r.pa;
	}
	double t1 = bench_now();
	for (uint64_t i = 0; i < n; i++) {
		q.va = va0 + (i % NPAGES) * 4096;
		nvm_mmu_translate(gpu, &q, &r);
		s += r.pa;
	}
	double t2 = bench_now();
	bench_sink(s);
	nvm_mmu_stats st;
	nvm_mmu_get_stats(gpu, &st);
	nvm_close(gpu);
	if (st.tlb_hits * 10 < n * 9) /* not measuring what it claims */
		return 1;
	static char unit[96];
	bench_tlb_result(out, unit, sizeof(unit), n, st.tlb_hits, t0, t1, t2, "full 5-level ver2 walks (nvm_mmu_walk)");
	return 0;
}

/* A sparse 49-bit space: 1 GiB mapped with 512 2 MiB PTEs near the top of
 * the VA range; translations at random addresses through the block, the
 * whole TLB dropped every 64 translations. */
static int bench_sparse_1g(double scale, struct bench_result *out)
{
	static char unit[160];
	nvm_gpu *gpu = open_gpu();
	if (!gpu)
		return 1;
	uint64_t pdb = 0x100000, next = 0x101000, va0 = 0x1ff0000000000ull;
	for (uint64_t i = 0; i < 512; i++) {
		uint64_t va = va0 + (i << 21);
		w64(gpu, pde0_slot(gpu, pdb, &next, va), 1 | ((0x200000000ull + (i << 21)) >> 12) << 8);
		w64(gpu, pde0_slot(gpu, pdb, &next, va) + 8, 0);
	}
	uint64_t bytes = (nvm_mem_pages(gpu, NVM_AP_VRAM) + nvm_mem_pages(gpu, NVM_AP_SYSMEM)) * 4096;
	nvm_mmu_request q = { 0 };
	q.use_pdb = 1;
	q.pdb_target = NVM_MMU_PDB_VID;
	q.pdb_addr = pdb;
	q.veid = -1;
	q.engine_id = 64;
	nvm_mmu_inval all = { .all_pdb = 1, .all_va = 1 };
	uint64_t n = (uint64_t)(2e5 * scale);
	if (n < 1000)
		n = 1000;
	uint64_t x = 88172645463325252ull, s = 0;
	nvm_mmu_result r;
	double t0 = bench_now();
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		q.va = va0 + (x & ((1ull << 30) - 1));
		if ((i & 63) == 0)
			nvm_mmu_invalidate(gpu, &all);
		nvm_mmu_translate(gpu, &q, &r);
		s += r.pa;
	}
	double t1 = bench_now();
	bench_sink(s);
	snprintf(unit, sizeof(unit), "translations/s (page tables for 1 GiB in 2 MiB pages: %llu KiB of host memory)",
	         (unsigned long long)(bytes >> 10));
	out->unit = unit;
	out->rate = (double)n / (t1 - t0);
	nvm_close(gpu);
	return 0;
}

const struct bench_case bench_mmu_cases[] = {
	{ "mmu.translate_tlb", "GMMU translations that hit the TLB vs full 5-level walks", bench_tlb },
	{ "mmu.sparse_1g", "translations over 1 GiB mapped in 2 MiB pages in a sparse 49-bit space", bench_sparse_1g },
	{ NULL, NULL, NULL },
};
