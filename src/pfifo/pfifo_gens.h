/*
 * What the chip registry (src/chips/) names of PFIFO (NV01..GT215): its block
 * kind and per-chip data.
 */
#ifndef NVM_PFIFO_GENS_H
#define NVM_PFIFO_GENS_H

#include "core/core.h"

struct pfifo_gen;
extern const struct block_class pfifo_class;
extern const struct pfifo_gen pfifo_nv01, pfifo_nv03, pfifo_nv03t;
extern const struct pfifo_gen pfifo_nv04, pfifo_nv10, pfifo_nv11, pfifo_nv17, pfifo_nv40, pfifo_nv41;
extern const struct pfifo_gen pfifo_g80, pfifo_g84, pfifo_g92, pfifo_gt215;

#endif
