/*
 * Fault-buffer packets (`fault decode`): arbitrary 32-byte packets decoded,
 * every field named, and encoded again. Checks: the names exist (or are
 * NULL for unknown types, never garbage), name buffers are NUL-terminated
 * within their size, and decode(encode(decode(p))) == decode(p).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/mmu.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_fault_decode: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	for (size_t i = 0; i + NVM_MMU_PACKET_SIZE <= size; i += NVM_MMU_PACKET_SIZE) {
		nvm_mmu_fault_info f, g;
		nvm_mmu_packet_decode(data + i, &f);
		char eng[32], cli[32];
		/* Small buffers too: the names must be cut, not overrun. */
		size_t len = 1 + data[i] % sizeof(eng);
		nvm_mmu_engine_name(f.engine_id, eng, len);
		nvm_mmu_client_name(f.client_type, f.client, cli, len);
		check(memchr(eng, 0, len) && memchr(cli, 0, len), "name not terminated within its buffer");
		const char *t = nvm_mmu_fault_type_name(f.fault_type);
		const char *a = nvm_mmu_access_name(f.access_type);
		check(!t || strlen(t) < 64, "fault type name");
		check(!a || strlen(a) < 64, "access type name");
		uint8_t again[NVM_MMU_PACKET_SIZE];
		nvm_mmu_packet_encode(&f, again);
		nvm_mmu_packet_decode(again, &g);
		check(!memcmp(&f, &g, sizeof(f)), "decode(encode(decode(p))) differs from decode(p)");
	}
	return 0;
}
