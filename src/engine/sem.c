/*
 * Semaphore reductions shared by the Host (SEM_EXECUTE, pbdma.c) and the copy
 * engine (LAUNCH_DMA SEMAPHORE_REDUCTION, ce.c). silicon H100: the copy
 * engine's reductions "behave exactly as the Host reductions", so both use
 * this one definition.
 */
#include <string.h>

#include "engine.h"

/* NV_UDMA_SEM_EXECUTE (gv100_dev_pbdma.ref "Semaphore reduction operations"):
 * which (payload size, format) pairs each reduction supports, one bit per
 * pair: bit 0 32-bit unsigned, 1 32-bit signed, 2 64-bit unsigned, 3 64-bit
 * signed. */
static const uint8_t red_pairs[SEM_RED_DEC + 1] = {
	[SEM_RED_IMIN] = 0xf, [SEM_RED_IMAX] = 0xf, [SEM_RED_IXOR] = 0xf,
	[SEM_RED_IAND] = 0xf, [SEM_RED_IOR] = 0xf,  [SEM_RED_IADD] = 0x7, /* not 64-bit signed */
	[SEM_RED_INC] = 0x1,  [SEM_RED_DEC] = 0x1,                        /* 32-bit unsigned only (silicon H100) */
};

bool sem_red_valid(unsigned red, bool is64, bool sgn)
{
	if (red > SEM_RED_DEC)
		return false;
	return (red_pairs[red] >> ((is64 ? 2 : 0) + (sgn ? 1 : 0))) & 1u;
}

uint64_t sem_reduce(unsigned red, bool is64, bool sgn, uint64_t v, uint64_t pl)
{
	uint64_t mask = is64 ? ~0ull : 0xffffffffull;
	int64_t sv = is64 ? (int64_t)v : (int64_t)(int32_t)(uint32_t)v;
	int64_t sp = is64 ? (int64_t)pl : (int64_t)(int32_t)(uint32_t)pl;
	v &= mask;
	pl &= mask;
	switch (red) {
	case SEM_RED_IMIN: return (sgn ? sv < sp : v < pl) ? v : pl;
	case SEM_RED_IMAX: return (sgn ? sv > sp : v > pl) ? v : pl;
	case SEM_RED_IXOR: return v ^ pl;
	case SEM_RED_IAND: return v & pl;
	case SEM_RED_IOR: return v | pl;
	case SEM_RED_IADD: return (v + pl) & mask;
	/* silicon H100: INC wraps to 0 at the payload, DEC reloads it at 0 or above it. */
	case SEM_RED_INC: return v >= pl ? 0 : v + 1;
	default: return (v == 0 || v > pl) ? pl : v - 1;
	}
}

/* f32 add, as IEEE-754 binary32 with round to nearest and denormals kept
 * (silicon H100); a NaN result is stored as 0x7fffffff. */
uint32_t sem_fadd32(uint32_t v, uint32_t pl)
{
	float a, b;
	memcpy(&a, &v, 4);
	memcpy(&b, &pl, 4);
	float s = a + b;
	if (s != s)
		return 0x7fffffffu;
	uint32_t out;
	memcpy(&out, &s, 4);
	return out;
}
