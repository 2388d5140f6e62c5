/* BAR0 access for unit tests: every access must succeed (include after cmocka.h). */
#ifndef TEST_BAR0_H
#define TEST_BAR0_H

#include "nvmodel/nvmodel.h"

static inline uint32_t rd(nvm_gpu *gpu, uint32_t a)
{
	uint32_t v = 0xdeadbeef; /* a read that stored nothing shows */
	assert_int_equal(nvm_reg_read(gpu, a, &v), NVM_OK);
	return v;
}

static inline void wr(nvm_gpu *gpu, uint32_t a, uint32_t v)
{
	assert_int_equal(nvm_reg_write(gpu, a, v), NVM_OK);
}

#endif
