/*
 * What the chip registry (src/chips/) names of the Host: its block kind
 * and its generations (struct host_gen, one file each: gv100.c, tu102.c).
 */
#ifndef NVM_HOST_GENS_H
#define NVM_HOST_GENS_H

#include "core/core.h"

struct host_gen;
extern const struct block_class host_class;
extern const struct host_gen host_gv100, host_tu102;

#endif
