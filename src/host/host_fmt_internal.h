/*
 * Internal interface of the Host structure decoders (src/host/host_fmt*.c,
 * public API in include/nvmodel/host_fmt.h).
 */
#ifndef NVM_HOST_FMT_INTERNAL_H
#define NVM_HOST_FMT_INTERNAL_H

#include "core/core.h"
#include "nvmodel/host_fmt.h"

/* Little-endian dword d of a buffer known to hold it. */
static inline uint32_t hf_rd32(const uint8_t *p, unsigned d)
{
	p += 4u * d;
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* The Volta (gv100) layouts, indexed by nvm_hf_struct: the one description
 * of RAMFC, RAMIN, RAMUSERD and runlist entries that the decoders, the
 * model (struct host_gen) and the Lua builder (nvmodel.host_layout) read. */
extern const nvm_hf_layout hf_gv100_layouts[NVM_HF_STRUCT_COUNT];
/* Ampere (ga100, ga102) and Hopper (gh100): RAMFC without USERD, 11-bit
 * runlist ids; gh100's RAMFC has GP_INFO. */
extern const nvm_hf_layout hf_ga100_layouts[NVM_HF_STRUCT_COUNT];
extern const nvm_hf_layout hf_ga102_layouts[NVM_HF_STRUCT_COUNT];
extern const nvm_hf_layout hf_gh100_layouts[NVM_HF_STRUCT_COUNT];
/* Turing's (tu102): gv100's with the tu104 manual's RAMFC names, host class
 * id and TSG_GFID. */
extern const nvm_hf_layout hf_tu102_layouts[NVM_HF_STRUCT_COUNT];

/* Appends a problem to out[] (when there is room) and counts it. */
void hf_add(nvm_hf_problem *out, size_t max, size_t *n, nvm_hf_check code, uint32_t where, int sub, const char *field,
            uint64_t value, uint64_t limit);

#endif
