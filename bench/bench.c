#include <stdio.h>
#include <time.h>

#include "bench.h"
#include "drvstream.h"

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

/* The CPU time of the calling thread, not the wall clock: the machines the
 * benchmarks run on are shared (CI, 2 cores for several jobs), and a
 * process that waits for a core would otherwise be charged for the wait.
 * On an idle machine the two agree. */
double bench_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

uint64_t bench_sum32(const uint32_t *w, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += w[i];
	return s;
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

int bench_check_tap(struct bench_result *out, uint64_t n, uint64_t sum)
{
	static char msg[200];
	if (ds_tap_count() == n && ds_tap_sum() == sum)
		return 0;
	snprintf(msg, sizeof(msg),
	         "CHECK FAILED: the engines received %llu methods (checksum %016llx), the stream has %llu (checksum "
	         "%016llx)",
	         (unsigned long long)ds_tap_count(), (unsigned long long)ds_tap_sum(), (unsigned long long)n,
	         (unsigned long long)sum);
	out->error = msg;
	return -1;
}

int bench_check_total(struct bench_result *out, uint64_t got, uint64_t want)
{
	static char msg[160];
	if (got == want)
		return 0;
	snprintf(msg, sizeof(msg),
	         "CHECK FAILED: a timed round delivered %llu methods to the engines, the checked one %llu",
	         (unsigned long long)got, (unsigned long long)want);
	out->error = msg;
	return -1;
}
