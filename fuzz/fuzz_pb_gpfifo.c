/*
 * GP entries (`pb gpfifo`): arbitrary pairs of words decoded and printed in
 * the text and JSON styles, every second pair of entries as gh100 defines
 * them (OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE). Checks: a decoded entry's fields stay in their
 * ranges, the error code is known, and the text has no NUL byte.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/pushbuf.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_pb_gpfifo: %s\n", what);
		abort();
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nvm_pb_out out = { 0 };
	for (size_t i = 0; i + 8 <= size; i += 8) {
		nvm_pb_gp_entry g;
		bool gh100 = (i / 16) & 1;
		nvm_pb_gp_decode_gen(le32(data + i), le32(data + i + 4), gh100, &g);
		check(g.extended_base <= 0x1ffffu && (gh100 || g.extended_base == 0), "PB_EXTENDED_BASE_OPERAND range");
		check(nvm_pb_gp_err_name(g.err) != NULL && nvm_pb_gp_err_message(g.err) != NULL,
		      "unknown GP error code");
		nvm_pb_print_gp(&out, (i / 8) & 1 ? NVM_PB_STYLE_JSON : NVM_PB_STYLE_TEXT, i / 8, &g);
	}
	check(!out.oom, "out of memory");
	check(memchr(out.buf ? out.buf : "", 0, out.len) == NULL, "NUL byte in the output");
	nvm_pb_out_free(&out);
	return 0;
}
