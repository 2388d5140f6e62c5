/* Chrome trace-event JSON writer (opens in Perfetto and chrome://tracing). */
#ifndef NVM_TRACE_H
#define NVM_TRACE_H

#include <stdio.h>

#include "nvmodel/nvmodel.h"
#include "outfile.h"

struct trace_writer {
	FILE *f;
	struct out_file out;
	int nevents;
	const char *blocks[32]; /* block name -> tid */
	int nblocks;
	int gpus_named;
	uint32_t cache1_open;     /* per GPU index: a "CACHE1" residency slice is open */
	uint32_t cache1_chid[32]; /* its channel */
};

/* Opens the output (outfile.h: a temporary beside a regular file, renamed
 * into place by trace_finish; FIFOs, devices and "-" written through).
 * Returns 0, or -1 with errno set. */
int trace_open(struct trace_writer *t, const char *path);
void trace_event(void *user, int gpu_index, const nvm_event *ev);
/* Closes the JSON and puts the file in place; returns 0 on success. */
int trace_finish(struct trace_writer *t);
void trace_abort(struct trace_writer *t);

#endif
