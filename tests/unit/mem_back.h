/*
 * Caller-owned memory for the test environments (host_env.h, pfifo_env.h,
 * g80_env.h): built again with ENV_MEM (tests/CMakeLists.txt), a test
 * program runs with both apertures in its own memory, "ptr" a buffer the
 * model uses in place (nvm_mem_map_ptr), "io" the same buffer behind
 * read/write callbacks (nvm_mem_map_io): every behaviour must be the same
 * as with the model's pages. env_io_calls counts the callbacks.
 */
#ifndef TEST_MEM_BACK_H
#define TEST_MEM_BACK_H

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "nvmodel/nvmodel.h"

static uint8_t *env_backing[NVM_AP_COUNT];
static size_t env_backing_size[NVM_AP_COUNT];
static uint64_t env_io_calls;

static inline int env_io_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	env_io_calls++;
	memcpy(buf, (uint8_t *)ctx + addr, len);
	return 0;
}

static inline int env_io_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	env_io_calls++;
	memcpy((uint8_t *)ctx + addr, buf, len);
	return 0;
}

/* Backs both apertures of a fresh GPU whole ("ptr" or "io"). */
static inline nvm_status env_back(nvm_gpu *gpu, const char *how)
{
	for (unsigned ap = 0; ap < NVM_AP_COUNT; ap++) {
		uint64_t size = nvm_mem_size(gpu, (nvm_aperture)ap);
		/* Anonymous pages: zero until touched, as the model's (calloc of
		 * 2 x 256 MiB per GPU would cost ASan seconds). */
		if (env_backing[ap])
			munmap(env_backing[ap], env_backing_size[ap]);
		void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		env_backing[ap] = p == MAP_FAILED ? NULL : p;
		env_backing_size[ap] = size;
		if (!env_backing[ap])
			return NVM_ERR_NOMEM;
		nvm_mem_io io = { env_io_read, env_io_write, env_backing[ap] };
		nvm_status st = strcmp(how, "ptr") ? nvm_mem_map_io(gpu, (nvm_aperture)ap, 0, size, &io)
		                                   : nvm_mem_map_ptr(gpu, (nvm_aperture)ap, 0, size, env_backing[ap]);
		if (st)
			return st;
	}
	return NVM_OK;
}

#endif
