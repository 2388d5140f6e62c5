/*
 * What the G80 VM (src/mmu/g80vm.c) tells the G80 PFIFO: a CPU access
 * through BAR1 / BAR3 or the PEEPHOLE faulted in the VM. PFIFO owns the
 * interrupt bits (g80_pfifo.xml INTR BAR_FAULT 4, PEEPHOLE_FAULT 6, with
 * their INTR_EN bits, to PMC's PFIFO line).
 */
#ifndef NVM_PFIFO_G80_HOST_H
#define NVM_PFIFO_G80_HOST_H

#include "core/core.h"

enum pfifo_host_fault { PFIFO_HOST_BAR_FAULT, PFIFO_HOST_PEEPHOLE_FAULT };

/* Raises the INTR bit of kind; nothing without a G80 PFIFO. */
void pfifo_g80_host_fault(nvm_gpu *gpu, enum pfifo_host_fault kind);

#endif
