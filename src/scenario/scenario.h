/*
 * Lua 5.4 scenario scripts: the `nvmodel` module, gpu objects and check().
 * See docs/scenarios.md for the script-facing API.
 *
 * This layer belongs to the tool side: scripts may print (through opts.out),
 * but nothing here exits; errors come back as a message "file:line: text".
 */
#ifndef NVM_SCENARIO_H
#define NVM_SCENARIO_H

#include <stdint.h>
#include <stdio.h>

#include "nvmodel/nvmodel.h"

/* Called for every event of every GPU the script opens (for --trace). */
typedef void (*scn_event_fn)(void *user, int gpu_index, const nvm_event *ev);

#define SCN_MEM_BUDGET (1ull << 30)
#define SCN_MAX_GPUS   64
/* The work budget of a gpu:run when run_budget is 0 (the library's default). */
#define SCN_RUN_BUDGET 10000000ull
/* What the model's work costs in instruction-budget steps: one work unit of
 * the run budget (an event, 256 pushbuffer words...) takes about as long as
 * this many Lua instructions. */
#define SCN_STEPS_PER_WORK 8
/* Under sandbox, bytes allocated per step charged. */
#define SCN_BYTES_PER_STEP 16

struct scn_opts {
	const char *default_chip; /* used when nvmodel.open{} names no chip; NULL = gv100 */
	FILE *out;                /* where print() goes; NULL discards */
	scn_event_fn on_event;    /* optional */
	void *event_user;
	uint64_t
	        max_steps; /* instruction budget (Lua instructions, model work, sandboxed C loops); 0 = default (4e9) */
	uint64_t mem_limit;  /* bytes for the Lua heap; 0 = default (1 GiB) */
	uint64_t mem_budget; /* simulated memory of all the script's GPUs together; 0 = default (SCN_MEM_BUDGET) */
	int max_gpus;        /* GPUs open at once; 0 = default (SCN_MAX_GPUS) */
	uint64_t run_budget; /* upper bound on the work budget of every gpu:run; 0 = SCN_RUN_BUDGET */
	int sandbox;         /* untrusted scripts: no io, os, package, debug, dofile, loadfile */
	uint64_t seed;       /* math.randomseed at the start: math.random is reproducible */
	const char **argv;   /* script arguments, exposed as the global `arg` */
	int argc;
};

struct scn_result {
	int ok;            /* 1 when the script ran to its end */
	int io_error;      /* the file could not be read (a usage error, not a script failure) */
	int oom;           /* ... for want of memory (an internal error) */
	char error[1024];  /* "file:line: message" when !ok */
	int checks_passed; /* check() calls that held */
	int gpus_opened;
	uint64_t time_ns; /* virtual time of the last GPU used */
};

/* Runs Lua source text. chunkname is what messages call the file ("demo.lua"). */
void scn_run_buffer(const char *src, size_t len, const char *chunkname, const struct scn_opts *opts,
                    struct scn_result *res);
/* Reads and runs a file ("-": standard input, named "stdin" in messages);
 * an unreadable or empty file is an error in res (io_error). */
void scn_run_file(const char *path, const struct scn_opts *opts, struct scn_result *res);

#endif
