/* Core benchmarks: sparse memory reads and the register bus. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "nvmodel/nvmodel.h"

static uint64_t sum_dwords(const uint8_t *p, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i + 4 <= n; i += 4) {
		uint32_t v;
		memcpy(&v, p + i, 4);
		s += v;
	}
	return s;
}

/* Bulk reads through nvm_mem_page (one lookup per 4 KiB page), against the
 * same sum over a flat malloc'd buffer. */
static int bench_mem_page_read(double scale, struct bench_result *out)
{
	size_t bytes = (size_t)(64.0 * scale) << 20;
	if (bytes < (1u << 20))
		bytes = 1u << 20;
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "gv100" };
	if (nvm_open(&cfg, &gpu))
		return 1;
	uint8_t *flat = malloc(bytes);
	if (!flat) {
		nvm_close(gpu);
		return 1;
	}
	for (size_t i = 0; i < bytes; i++)
		flat[i] = (uint8_t)(i * 7);
	if (nvm_mem_write(gpu, NVM_AP_VRAM, 0, flat, bytes)) {
		free(flat);
		nvm_close(gpu);
		return 1;
	}
	int reps = 4;
	double t0 = bench_now();
	for (int r = 0; r < reps; r++)
		bench_sink(sum_dwords(flat, bytes));
	double t1 = bench_now();
	for (int r = 0; r < reps; r++) {
		uint64_t s = 0;
		for (uint64_t a = 0; a < bytes;) {
			uint8_t *p;
			size_t avail;
			if (nvm_mem_page(gpu, NVM_AP_VRAM, a, 0, &p, &avail))
				break;
			s += sum_dwords(p, avail);
			a += avail;
		}
		bench_sink(s);
	}
	double t2 = bench_now();
	double dwords = (double)bytes / 4 * reps;
	out->unit = "dwords/s";
	out->rate = dwords / (t2 - t1);
	out->baseline_rate = dwords / (t1 - t0);
	out->baseline = "sum of a flat buffer";
	out->target_ratio = 0.5;
	free(flat);
	nvm_close(gpu);
	return 0;
}

/* Register reads through the table-driven bus (PTIMER TIME_0 has a handler). */
static int bench_bus_read(double scale, struct bench_result *out)
{
	nvm_gpu *gpu;
	if (nvm_open(NULL, &gpu))
		return 1;
	uint64_t n = (uint64_t)(20e6 * scale);
	if (n < 1000)
		n = 1000;
	uint64_t s = 0;
	double t0 = bench_now();
	for (uint64_t i = 0; i < n; i++) {
		uint32_t v;
		nvm_reg_read(gpu, (i & 1) ? 0x9400 : 0x000, &v);
		s += v;
	}
	double t1 = bench_now();
	bench_sink(s);
	out->unit = "reads/s";
	out->rate = (double)n / (t1 - t0);
	out->target_rate = 10e6;
	nvm_close(gpu);
	return 0;
}

const struct bench_case bench_core_cases[] = {
	{ "core.mem_page_read", "sum of 64 MiB of VRAM through nvm_mem_page", bench_mem_page_read },
	{ "core.bus_read", "BAR0 register reads (PMC_BOOT_0, PTIMER_TIME_0)", bench_bus_read },
	{ NULL, NULL, NULL },
};
