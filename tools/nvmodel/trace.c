#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "trace.h"

int trace_open(struct trace_writer *t, const char *path)
{
	memset(t, 0, sizeof(*t));
	if (out_open(&t->out, path))
		return -1;
	t->f = t->out.f;
	fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [\n", t->f);
	return 0;
}

static int block_tid(struct trace_writer *t, const char *block)
{
	for (int i = 0; i < t->nblocks; i++)
		if (!strcmp(t->blocks[i], block))
			return i + 1;
	if (t->nblocks == (int)(sizeof(t->blocks) / sizeof(t->blocks[0])))
		return 0;
	t->blocks[t->nblocks++] = block; /* block names are static strings */
	fprintf(t->f, "%s{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 0, \"tid\": %d, \"args\": {\"name\": ",
	        t->nevents++ ? ",\n" : "", t->nblocks);
	json_str(t->f, block);
	fputs("}}", t->f);
	return t->nblocks;
}

/* Channel residency: a PBDMA's ctx_load / ctx_save events (value = PBDMA)
 * become a duration slice "channel N" on a track per PBDMA. */
static void residency(struct trace_writer *t, int gpu_index, const nvm_event *ev)
{
	static const char *const tracks[] = { "PBDMA 0",  "PBDMA 1",  "PBDMA 2",  "PBDMA 3", "PBDMA 4",
		                              "PBDMA 5",  "PBDMA 6",  "PBDMA 7",  "PBDMA 8", "PBDMA 9",
		                              "PBDMA 10", "PBDMA 11", "PBDMA 12", "PBDMA 13" };
	bool load = !strcmp(ev->code, "ctx_load");
	if ((!load && strcmp(ev->code, "ctx_save")) || ev->value >= sizeof(tracks) / sizeof(tracks[0]))
		return;
	int tid = block_tid(t, tracks[ev->value]);
	fprintf(t->f, "%s{\"ph\": \"%s\", \"pid\": %d, \"tid\": %d, \"ts\": %llu.%03llu, \"name\": \"channel %llu\"}",
	        t->nevents++ ? ",\n" : "", load ? "B" : "E", gpu_index, tid, (unsigned long long)(ev->time_ns / 1000),
	        (unsigned long long)(ev->time_ns % 1000), (unsigned long long)ev->addr);
}

/* NV04..NV4x PFIFO: the channel CACHE1 holds (ctx_switch: addr = the
 * channel coming in) as slices "channel N" on a "CACHE1" track, and CACHE1
 * occupancy after each step (cache: value = entries) as a counter. */
static void pfifo_tracks(struct trace_writer *t, int gpu_index, const nvm_event *ev)
{
	unsigned long long us = (unsigned long long)(ev->time_ns / 1000), ns = (unsigned long long)(ev->time_ns % 1000);
	if (!strcmp(ev->code, "cache")) {
		fprintf(t->f,
		        "%s{\"ph\": \"C\", \"pid\": %d, \"ts\": %llu.%03llu, \"name\": \"CACHE1 entries\", \"args\": "
		        "{\"entries\": %llu}}",
		        t->nevents++ ? ",\n" : "", gpu_index, us, ns, (unsigned long long)ev->value);
		return;
	}
	if (strcmp(ev->code, "ctx_switch") || gpu_index < 0 || gpu_index >= 32)
		return;
	int tid = block_tid(t, "CACHE1");
	uint32_t bit = 1u << gpu_index;
	if (t->cache1_open & bit)
		fprintf(t->f,
		        "%s{\"ph\": \"E\", \"pid\": %d, \"tid\": %d, \"ts\": %llu.%03llu, \"name\": \"channel %u\"}",
		        t->nevents++ ? ",\n" : "", gpu_index, tid, us, ns, t->cache1_chid[gpu_index]);
	fprintf(t->f, "%s{\"ph\": \"B\", \"pid\": %d, \"tid\": %d, \"ts\": %llu.%03llu, \"name\": \"channel %llu\"}",
	        t->nevents++ ? ",\n" : "", gpu_index, tid, us, ns, (unsigned long long)ev->addr);
	t->cache1_open |= bit;
	t->cache1_chid[gpu_index] = (uint32_t)ev->addr;
}

void trace_event(void *user, int gpu_index, const nvm_event *ev)
{
	struct trace_writer *t = user;
	if (!t->f)
		return;
	if (ev->type == NVM_EV_TRACE && ev->block && !strcmp(ev->block, "pbdma"))
		residency(t, gpu_index, ev);
	if (ev->type == NVM_EV_TRACE && ev->block && !strcmp(ev->block, "pfifo"))
		pfifo_tracks(t, gpu_index, ev);
	int tid = block_tid(t, ev->block ? ev->block : "?");
	fprintf(t->f, "%s{\"ph\": \"i\", \"s\": \"t\", \"pid\": %d, \"tid\": %d, \"ts\": %llu.%03llu, \"cat\": ",
	        t->nevents++ ? ",\n" : "", gpu_index, tid, (unsigned long long)(ev->time_ns / 1000),
	        (unsigned long long)(ev->time_ns % 1000));
	json_str(t->f, nvm_event_type_name(ev->type));
	fputs(", \"name\": ", t->f);
	json_str(t->f, ev->code);
	fprintf(t->f, ", \"args\": {\"addr\": %llu, \"value\": %llu, \"message\": ", (unsigned long long)ev->addr,
	        (unsigned long long)ev->value);
	json_str(t->f, ev->message);
	fputs("}}", t->f);
}

int trace_finish(struct trace_writer *t)
{
	if (!t->f)
		return -1;
	fputs("\n]}\n", t->f);
	t->f = NULL;
	return out_commit(&t->out);
}

void trace_abort(struct trace_writer *t)
{
	t->f = NULL;
	out_abort(&t->out);
}
