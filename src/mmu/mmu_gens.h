/*
 * What the chip registry (src/chips/) names of the memory management
 * blocks: the Volta GMMU (mmu.c) and the G80 VM (g80vm.c), their block kinds
 * and per-generation data.
 */
#ifndef NVM_MMU_GENS_H
#define NVM_MMU_GENS_H

#include "core/core.h"

struct mmu_chip;
extern const struct block_class mmu_class;
/* GMMU generations: gv100 (mmu.c), tu102, ga100, ga102 (ver2), gh100
 * (ver3) (mmu_gens.c). */
extern const struct mmu_chip mmu_gv100, mmu_tu102, mmu_ga100, mmu_ga102, mmu_gh100;

struct g80vm_chip;
extern const struct block_class g80vm_class;
extern const struct g80vm_chip g80vm_g80, g80vm_g84, g80vm_gt215;

#endif
