/*
 * Fuzz target: the trace writer of `nvmodel run --trace` (tools/nvmodel/
 * trace.c) on arbitrary event streams: any event type, block and code
 * (among them the PBDMA residency and PFIFO CACHE1 events it draws tracks
 * for), GPU index, time, address, value, and messages of arbitrary bytes
 * (control characters, quotes, invalid UTF-8). The trace goes to standard
 * output, a memory stream here.
 *
 * Input: records of 12 bytes (type, block, code, GPU index + 2, time u32 LE,
 * addr, value, message length, unused), each followed by its message.
 * Checks: the trace is one valid JSON value (RFC 8259, UTF-8) with no NUL.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "json_check.h"
#include "trace.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_trace: %s\n", what);
		abort();
	}
}

/* Block names are static strings in the model (the writer keeps them). */
static const char *const blocks[] = { "pbdma", "pfifo", "host", "mmu", "hwsq", "sched", "gr", "ce2", "a\"b\\c", "" };
static const char *const codes[] = { "ctx_load", "ctx_save", "cache", "ctx_switch", "exec", "fault", "intr", "x\n" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len), *old = stdout;
	check(mem != NULL, "open_memstream");
	stdout = mem;
	struct trace_writer t;
	check(trace_open(&t, "-") == 0, "trace_open");
	char msg[256];
	for (size_t i = 0; i + 12 <= size;) {
		const uint8_t *r = data + i;
		nvm_event ev = { 0 };
		ev.type = (nvm_event_type)(r[0] % (NVM_EV_COUNT + 1));
		ev.block = r[1] % 11 == 10 ? NULL : blocks[r[1] % 11];
		ev.code = codes[r[2] % 8];
		int gpu_index = (int)r[3] - 2;
		ev.time_ns = fz_le(r + 4, 4) * 997;
		ev.addr = r[8] < 0xf0 ? r[8] : ~0ull - r[8];
		ev.value = r[9] < 0xf0 ? r[9] : ~0ull - r[9];
		size_t n = r[10];
		i += 12;
		if (n > size - i)
			n = size - i;
		memcpy(msg, data + i, n);
		msg[n] = 0;
		i += n;
		ev.message = msg;
		trace_event(&t, gpu_index, &ev);
	}
	int rc = trace_finish(&t);
	stdout = old;
	check(fclose(mem) == 0 && rc == 0, "trace_finish");
	check(!memchr(out, 0, len), "NUL byte in the trace");
	check(json_valid(out, len), "the trace is not one valid JSON value");
	free(out);
	return 0;
}
