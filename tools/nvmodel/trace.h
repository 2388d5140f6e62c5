/* Chrome trace-event JSON writer (opens in Perfetto and chrome://tracing). */
#ifndef NVM_TRACE_H
#define NVM_TRACE_H

#include <stdio.h>

#include "nvmodel/nvmodel.h"

struct trace_writer {
	FILE *f;
	char *path, *tmp_path;
	int nevents;
	const char *blocks[32]; /* block name -> tid */
	int nblocks;
	int gpus_named;
	uint32_t cache1_open;     /* per GPU index: a "CACHE1" residency slice is open */
	uint32_t cache1_chid[32]; /* its channel */
};

/* Opens a temporary file beside path; the real path is written only by
 * trace_finish, so a failed run never clobbers an existing trace. */
int trace_open(struct trace_writer *t, const char *path);
void trace_event(void *user, int gpu_index, const nvm_event *ev);
/* Closes the JSON and renames into place; returns 0 on success. */
int trace_finish(struct trace_writer *t);
void trace_abort(struct trace_writer *t);

#endif
