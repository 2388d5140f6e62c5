#include <stdio.h>
#include <time.h>

#include "bench.h"

extern const struct bench_case bench_core_cases[];
extern const struct bench_case bench_hwsq_cases[];
extern const struct bench_case bench_pushbuf_cases[];
extern const struct bench_case bench_mmu_cases[];
extern const struct bench_case bench_g80vm_cases[];
extern const struct bench_case bench_host_cases[];
extern const struct bench_case bench_ce_cases[];
extern const struct bench_case bench_pfifo_cases[];

const struct bench_case *const bench_tables[] = {
	bench_core_cases, bench_hwsq_cases,  bench_pushbuf_cases,
	bench_mmu_cases,  bench_g80vm_cases, bench_host_cases,
	bench_ce_cases,   bench_pfifo_cases, NULL,
};

double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

volatile uint64_t bench_sink_value;

void bench_sink(uint64_t v)
{
	bench_sink_value += v;
}

void bench_tlb_result(struct bench_result *out, char *unit, size_t unit_size, uint64_t n, uint64_t hits, double t0,
                      double t1, double t2, const char *baseline)
{
	snprintf(unit, unit_size, "translations/s (TLB hit rate %.1f%%)", 100.0 * (double)hits / (double)n);
	out->unit = unit;
	out->rate = (double)n / (t2 - t1);
	out->baseline_rate = (double)n / (t1 - t0);
	out->baseline = baseline;
	out->target_ratio = 1.0;
}
