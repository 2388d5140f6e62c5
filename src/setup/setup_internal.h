/* Shared by the files of the set-up helpers (src/setup/). */
#ifndef NVM_SETUP_INTERNAL_H
#define NVM_SETUP_INTERNAL_H

#include "nvmodel/setup.h"

/* The widest physical address a helper places anything at (SYS PTE ADDRESS 53:8 = PA 57:12). */
#define SETUP_PA_LIMIT (1ull << 58)

unsigned setup_addr_bits(nvm_mmu_target target);
/* Memory writes at a place (the target's aperture). */
nvm_status setup_wr32(nvm_gpu *gpu, nvm_place at, uint32_t v);
nvm_status setup_wr64(nvm_gpu *gpu, nvm_place at, uint64_t v);
nvm_status setup_write(nvm_gpu *gpu, nvm_place at, const void *buf, size_t len);
nvm_status setup_zero(nvm_gpu *gpu, nvm_place at, uint64_t size);

/* The heap a VM builder takes its tables from. */
nvm_heap *setup_vm_heap(const nvm_gmmu_vm *vm);

#endif
