/*
 * What the chip registry (src/chips/) names of HWSQ: its block kind and the
 * per-chip variants (hwsq_isa.c).
 */
#ifndef NVM_HWSQ_GENS_H
#define NVM_HWSQ_GENS_H

#include "core/core.h"

struct hwsq_variant;
extern const struct block_class hwsq_class;
extern const struct hwsq_variant hwsq_var_nv17, hwsq_var_nv40, hwsq_var_nv41, hwsq_var_g80, hwsq_var_g92;

#endif
