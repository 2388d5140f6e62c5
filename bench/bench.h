/*
 * The benchmark harness behind `nvmodel bench`. A benchmark measures a rate
 * and, in the same run, the rate of a plain baseline over the same data (a
 * streaming read, a memcpy), and reports the ratio: ratios survive a change
 * of machine where absolute rates do not.
 */
#ifndef NVM_BENCH_H
#define NVM_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct bench_result {
	const char *unit;     /* "dwords/s", "reads/s" ... */
	double rate;          /* units per second of the measured code */
	double baseline_rate; /* units per second of the baseline; 0 = none */
	const char *baseline; /* what the baseline is */
	double target_ratio;  /* rate / baseline_rate must reach this; 0 = no ratio target */
	double target_rate;   /* absolute target (units/s); 0 = none */
	/* Driver-like method benchmarks (docs/performance.md): */
	const char *target;   /* the target in words (issue 19), printed with the figures */
	double per_method_ns; /* ns per method of the measured code; 0 = not a method rate */
	const char *check;    /* what was checked ("engine checksum of 1.6e6 methods") */
	bool bulk;            /* bulk runs, not driver-like: a reference, never a headline */
	const char *error;    /* set with a non-zero return: why the case failed */
};

struct bench_case {
	const char *name;
	const char *desc;
	/* scale 1.0 is the default size; returns 0 on success. */
	int (*run)(double scale, struct bench_result *out);
};

/* Each bench_*.c file exports one NULL-name-terminated table; bench.c lists them. */
extern const struct bench_case *const bench_tables[];

double bench_now(void); /* seconds of the thread's CPU time */
/* A plain streaming read (the sum) of n dwords: the baseline of the method
 * benchmarks. */
uint64_t bench_sum32(const uint32_t *w, size_t n);
/* Keeps a value alive so the compiler cannot drop the work that made it. */
void bench_sink(uint64_t v);

/* The result of a TLB benchmark: n translations through the TLB (hits of
 * them hit) took t2 - t1 seconds, the same n without a TLB (the baseline)
 * t1 - t0. unit is the caller's static buffer of unit_size bytes. */
void bench_tlb_result(struct bench_result *out, char *unit, size_t unit_size, uint64_t n, uint64_t hits, double t0,
                      double t1, double t2, const char *baseline);

/* After a tapped round (drvstream.h): the engines must have received n
 * methods with checksum sum; otherwise out->error says what differs. */
int bench_check_tap(struct bench_result *out, uint64_t n, uint64_t sum);
/* After an untapped (timed) round: as many engine methods as the checked round. */
int bench_check_total(struct bench_result *out, uint64_t got, uint64_t want);

#endif
