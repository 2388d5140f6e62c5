/*
 * The benchmark harness behind `nvmodel bench`. A benchmark measures a rate
 * and, in the same run, the rate of a plain baseline over the same data (a
 * streaming read, a memcpy), and reports the ratio: ratios survive a change
 * of machine where absolute rates do not.
 */
#ifndef NVM_BENCH_H
#define NVM_BENCH_H

#include <stddef.h>
#include <stdint.h>

struct bench_result {
	const char *unit;     /* "dwords/s", "reads/s" ... */
	double rate;          /* units per second of the measured code */
	double baseline_rate; /* units per second of the baseline; 0 = none */
	const char *baseline; /* what the baseline is */
	double target_ratio;  /* rate / baseline_rate must reach this; 0 = no ratio target */
	double target_rate;   /* absolute target (units/s); 0 = none */
};

struct bench_case {
	const char *name;
	const char *desc;
	/* scale 1.0 is the default size; returns 0 on success. */
	int (*run)(double scale, struct bench_result *out);
};

/* Each bench_*.c file exports one NULL-name-terminated table; bench.c lists them. */
extern const struct bench_case *const bench_tables[];

double bench_now(void);
/* Keeps a value alive so the compiler cannot drop the work that made it. */
void bench_sink(uint64_t v);

/* The result of a TLB benchmark: n translations through the TLB (hits of
 * them hit) took t2 - t1 seconds, the same n without a TLB (the baseline)
 * t1 - t0. unit is the caller's static buffer of unit_size bytes. */
void bench_tlb_result(struct bench_result *out, char *unit, size_t unit_size, uint64_t n, uint64_t hits, double t0,
                      double t1, double t2, const char *baseline);

#endif
