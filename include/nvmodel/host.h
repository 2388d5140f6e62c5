/*
 * nvmodel — the Volta Host (gv100): runlists, TSGs, channels, PBDMA units
 * and the engines they feed. Everything a driver does goes through BAR0
 * registers and memory (nvmodel.h); this header adds what a C user or a
 * tool wants to look at beyond that: channel and PBDMA state and statistics
 * (the engines' method logs: nvmodel/method.h). docs/host.md describes the model.
 */
#ifndef NVMODEL_HOST_H
#define NVMODEL_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/method.h"
#include "nvmodel/nvmodel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* Engines by name (the names of the method log, nvmodel/method.h): "gr"
 * (graphics/compute, runlist 0), "grce" (GRCOPY on the GR runlist,
 * subchannel 4), "ce2".."ce8" (the copy engines with a runlist each). */

/* What the Host knows of one channel (PCCSR and the scheduler's view). */
typedef struct nvm_host_channel {
	uint32_t chid;
	bool bound, enabled;
	uint32_t status;    /* NV_PCCSR_CHANNEL_STATUS */
	bool busy;          /* NV_PCCSR_CHANNEL_BUSY */
	bool pbdma_faulted; /* NV_PCCSR_CHANNEL_PBDMA_FAULTED */
	bool eng_faulted;
	int runlist;   /* runlist that lists it, -1 if none */
	int tsgid;     /* TSG that holds it, -1 if none */
	int pbdma;     /* PBDMA it is loaded on, -1 if none */
	uint64_t inst; /* instance block address (PCCSR_CHANNEL_INST) */
	unsigned inst_target;
	uint64_t methods; /* methods the channel sent to engines */
} nvm_host_channel;
nvm_status nvm_host_channel_info(nvm_gpu *gpu, uint32_t chid, nvm_host_channel *out);

/* Compute NV_PPBDMA_METHOD_CRC over the methods sent to engines, so that
 * the CRC_CHECK method is checked (dev_pbdma METHOD_CRC). Off by default:
 * it costs every engine method a few ns; while off, CRC_CHECK is reported
 * as unmodelled and passes. */
nvm_status nvm_host_set_method_crc(nvm_gpu *gpu, bool on);

typedef struct nvm_host_stats {
	uint64_t doorbells, runlist_submits, ctx_loads, ctx_saves;
	uint64_t gp_entries, pb_dwords, methods, host_methods, sw_methods;
	uint64_t sem_releases, sem_acquires, acquire_waits;
	uint64_t pbdma_intrs, sched_errors;
} nvm_host_stats;
nvm_status nvm_host_get_stats(const nvm_gpu *gpu, nvm_host_stats *out);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
