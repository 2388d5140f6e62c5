/*
 * What the chip registry (src/chips/) names of the Volta Host: its block
 * kind and per-generation data (topology, counts).
 */
#ifndef NVM_HOST_GENS_H
#define NVM_HOST_GENS_H

#include "core/core.h"

struct host_chip;
extern const struct block_class host_class;
extern const struct host_chip host_gv100;

#endif
