/*
 * nvmodel — PFIFO of NV04..NV4x (seed 001, envytools hw/fifo): channels,
 * the PIO and DMA pushers, CACHE1, the puller, RAMHT, RAMFC and RAMRO, and
 * the engines the puller feeds (a recording PGRAPH and the SOFTWARE engine).
 *
 * A driver programs all of it through BAR0 (nvm_reg_*: the PFIFO registers
 * at 0x2000, the PRAMIN window at 0x700000, the USER areas at 0x800000 and,
 * on NV40, 0xc00000) and memory, as on hardware. This header adds what a C
 * user, a test or a tool wants beyond that (the engines' method logs:
 * nvmodel/method.h): USER-area accesses narrower than 32 bits, statistics,
 * and decoders of RAMHT and RAMFC images. docs/pfifo.md describes the model.
 */
#ifndef NVMODEL_PFIFO_H
#define NVMODEL_PFIFO_H

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

/* ---------------------------------------------------------------- engines */

/* Engines by name (the names of the method log, nvmodel/method.h):
 * "pgraph" (the recording PGRAPH: every method the puller submits, with the
 * class of the object bound on the subchannel) and "software" (methods the
 * puller handed to the SOFTWARE engine, each one raising CACHE_ERROR). */

/* ---------------------------------------------------------------- USER area */

/* An access to a channel's USER area (BAR0 0x800000 + chid * 0x10000) of
 * `size` bytes (1, 2 or 4) at any alignment: what a CPU store of that width
 * does. BAR0's nvm_reg_write only does aligned 32-bit accesses; the PIO
 * pusher stores every other access in RAMRO (seed 001). NVM_ERR_RANGE when
 * addr is outside the USER areas of the chip. */
nvm_status nvm_pfifo_user_write(nvm_gpu *gpu, uint32_t addr, uint32_t val, unsigned size);

/* NV40's instance memory BAR: a PCI aperture onto RAMIN besides BAR0's
 * PRAMIN window, which nouveau's nv40 instmem maps (PCI BAR 2, or 3) and
 * reads and writes RAMIN through, byte offset = RAMIN address. NV03 has no
 * BAR0 PRAMIN: its RAMIN is at BAR1 + 0xC00000 (rivafb), the same calls
 * with off = the RAMIN address. len bytes at off (any alignment).
 * NVM_ERR_NOENT on chips without it (nv01, nv04..nv17, G80+),
 * NVM_ERR_RANGE beyond the aperture (16 MiB, and not beyond VRAM); nothing
 * is touched then. */
#define NVM_PFIFO_RAMIN_BAR_SIZE 0x1000000u
nvm_status nvm_pfifo_ramin_bar_read(nvm_gpu *gpu, uint32_t off, void *buf, size_t len);
nvm_status nvm_pfifo_ramin_bar_write(nvm_gpu *gpu, uint32_t off, const void *buf, size_t len);

/* ---------------------------------------------------------------- state */

typedef struct nvm_pfifo_stats {
	uint64_t pio_writes;      /* USER-area stores that reached CACHE1 */
	uint64_t ramro_entries;   /* stores that went to RAMRO (RUNOUT) */
	uint64_t ramro_overflows; /* stores lost with RUNOUT_OVERFLOW */
	uint64_t dma_words;       /* pushbuffer words the DMA pusher read */
	uint64_t cache_pushes;    /* entries written into CACHE1 */
	uint64_t methods;         /* entries the puller took out of CACHE1 and CACHE0 */
	uint64_t engine_methods;  /* methods submitted to PGRAPH and the other engines */
	uint64_t sw_methods;      /* methods handed to the SOFTWARE engine */
	uint64_t ramht_lookups, ramht_misses;
	uint64_t ctx_switches; /* CACHE1 channel switches (RAMFC save + load) */
	uint64_t dma_pusher_errors, cache_errors, semaphore_errors;
	uint64_t acquire_waits;
	uint64_t acquire_timeouts; /* ACQUIRE_TIMEOUT interrupts raised */
	uint64_t dma_pte_faults;   /* DMA_PTE interrupts raised */
} nvm_pfifo_stats;
nvm_status nvm_pfifo_get_stats(const nvm_gpu *gpu, nvm_pfifo_stats *out);

/* ---------------------------------------------------------------- RAMHT */

/* The RAMHT hash of handle for channel chid in a table of 2^bits entries
 * (RAMHT SIZE 4K..32K: bits 9..12), as nouveau computes it: the handle
 * folded by XOR in bits-wide pieces, XOR chid << (bits - 4). Returns the
 * entry index (multiply by 8 for the byte offset). */
uint32_t nvm_pfifo_ramht_hash(uint32_t handle, uint32_t chid, unsigned bits);
/* The first entry a lookup of (handle, chid) reads in a chip's RAMHT of
 * 2^bits entries, and in *probe how many it reads from there: NV04..G80
 * nvm_pfifo_ramht_hash and 0 (the RAMHT SEARCH register decides); NV01 /
 * NV03 the bucket of the XOR of the handle's bytes and the channel, of
 * 2^bits / 256 entries (docs/pfifo.md "NV01 and NV03"). 0 for an unknown
 * chip. */
uint32_t nvm_pfifo_ramht_slot(const char *chip, uint32_t handle, uint32_t chid, unsigned bits, unsigned *probe);

/* Whether a chip ("nv04".."nv41", "g80".."gt215") has PFIFO engine id
 * `engine` (rnndb nv4_pfifo_engine / g80_pfifo_engine): SOFTWARE (0) and
 * PGRAPH (1) on every chip, PMPEG (2) and PME (3) on nv40/nv41, PVP1 (4) on
 * nv41; G80 chips: docs/g80.md "Per-chip data". false for an unknown chip. */
bool nvm_pfifo_has_engine(const char *chip, unsigned engine);
/* The name of engine id `engine` in the chip's generation ("software",
 * "pgraph", "pmpeg", ...: the names of nvm_method_log_read; NV04..NV4x
 * name ids 0..4 on every chip, whether it has the engine or not), NULL
 * where the generation names none. */
const char *nvm_pfifo_engine_name(const char *chip, unsigned engine);
/* 1 when the chip's RAMHT contexts name a channel (NV04..NV4x: one RAMHT
 * for all channels), 0 on G80 (a RAMHT per channel, seed 001; the context
 * is engine and instance only), -1 for an unknown chip. */
int nvm_pfifo_ramht_has_chid(const char *chip);

/* One RAMHT entry decoded for a chip ("nv04".."nv41", "g80".."gt215"; G80:
 * chid 0, no valid bit: a zero context is free). */
typedef struct nvm_ramht_entry {
	uint32_t handle, context;
	bool valid;        /* NV04..NV3x: bit 31; NV40: context != 0 (UNVERIFIED) */
	uint32_t instance; /* RAMIN byte address of the object (INSTANCE << 4) */
	unsigned engine;   /* 0 SOFTWARE, 1 PGRAPH, 2.. others */
	uint32_t chid;
} nvm_ramht_entry;
/* Returns NVM_ERR_CHIP for a chip without this PFIFO. */
nvm_status nvm_pfifo_ramht_entry(const char *chip, uint32_t handle, uint32_t context, nvm_ramht_entry *out);
/* The context word a driver writes (valid set on NV04..NV3x). */
nvm_status nvm_pfifo_ramht_context(const char *chip, uint32_t instance, unsigned engine, uint32_t chid,
                                   uint32_t *context);

/* ---------------------------------------------------------------- RAMFC */

/* One field of a RAMFC entry: `bits` bits at bit ctx_lo of the word at byte
 * off hold the CACHE1 register reg's bits from reg_lo (the layouts nouveau
 * saves and restores: nv04, nv10, nv17 (NV1A+ RAMFC LARGE), nv40). */
typedef struct nvm_ramfc_field {
	const char *name; /* the register's name without NV.._PFIFO_CACHE1_: "DMA_PUT" */
	uint32_t reg;     /* BAR0 address of the register */
	uint8_t off, ctx_lo, bits, reg_lo;
} nvm_ramfc_field;

/* The RAMFC layout of a chip: *n fields, *size bytes per channel. large
 * selects the 64-byte NV1A+ layout where the chip has both (nv11, nv17).
 * NULL for a chip without this PFIFO. */
const nvm_ramfc_field *nvm_pfifo_ramfc_layout(const char *chip, int large, size_t *n, uint32_t *size);
/* Channels of the chip's PFIFO (16 or 32), 0 if none. */
uint32_t nvm_pfifo_channels(const char *chip);

/* Names of DMA_STATE ERROR codes (dma-pusher.rst "Errors"), SEMAPHORE
 * error subtypes and RAMRO reasons (docs/pfifo.md); "?" when unknown. */
const char *nvm_pfifo_dma_error_name(unsigned code);
const char *nvm_pfifo_ramro_reason_name(unsigned code);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
