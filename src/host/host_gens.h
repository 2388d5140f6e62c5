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
/* Ampere and Hopper (ga100.c, ga102.c, gh100.c): struct ampere_gen, whose
 * first member is the struct host_gen the chip rows name. */
struct ampere_gen;
extern const struct ampere_gen host_ga100_gen, host_ga102_gen, host_gh100_gen;

#endif
