/*
 * The G80 PFIFO family (g80.c, ib.c; G84..GT215 in g84.c): its state and
 * the parts in which its members differ. docs/g80.md describes it.
 */
#ifndef NVM_PFIFO_G80_H
#define NVM_PFIFO_G80_H

#include "pfifo_internal.h"

/* The G80 PFIFO's state: the shared one and what only G80+ has. */
struct g80_pfifo {
	struct pfifo base;
	uint32_t playlist[128]; /* the channels of the last PLAYLIST_LEN write */
	uint32_t nplaylist;
	uint32_t chan_table[128]; /* CHAN_TABLE(i) */
	uint32_t *r_freeze, *r_ib_put, *r_ib_get, *r_method_count, *r_mget, *r_mget_hi;
	uint32_t *r_put_hi, *r_get_hi;
};

static inline struct g80_pfifo *g80_of(struct pfifo *f)
{
	return (struct g80_pfifo *)f;
}

static inline const struct g80_pfifo *g80_cof(const struct pfifo *f)
{
	return (const struct g80_pfifo *)f;
}

/* What a member of the family changes (pfifo_gen.impl). */
struct g80_impl {
	/* The channel descriptor (seed 002: address 12-39 in 27:0, target 29:28). */
	uint32_t (*chan_desc)(struct pfifo *f, uint32_t chid);
	/* Where channel chid's RAMFC and its saved cache are. */
	void (*ramfc_where)(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr);
	void (*cache_where)(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr);
	unsigned playlist_len_hi; /* PLAYLIST_LEN LEN hi bit */
	bool acq_source;          /* PULL1 ACQUIRE_SOURCE 5 / ACQUIRE_MODE 7, background acquire reads */
	/* The semaphore address of ACQUIRE_SOURCE 1 (with acq_source). */
	uint64_t (*sem_addr)(const struct pfifo *f);
};

/* RAMFC (rnndb domain G80_RAMFC). CACHE_CNT (0x84) is written by the cache
 * save, not from a register. */
#define G80_RAMFC_FIELD(name, reg, off)                                                                                \
	{                                                                                                              \
		name, reg, off, 0, 32, 0                                                                               \
	}
#define G80_RAMFC_FIELDS                                                                                               \
	G80_RAMFC_FIELD("IB_PUT", R_G80_IB_PUT, 0x00), G80_RAMFC_FIELD("IB_GET", R_G80_IB_GET, 0x04),                  \
	        G80_RAMFC_FIELD("DMA_PUT", R_DMA_PUT, 0x08), G80_RAMFC_FIELD("DMA_PUT_HIGH", R_G80_PUT_HIGH, 0x0c),    \
	        G80_RAMFC_FIELD("DMA_GET", R_DMA_GET, 0x10), G80_RAMFC_FIELD("DMA_GET_HIGH", R_G80_GET_HIGH, 0x14),    \
	        G80_RAMFC_FIELD("DMA_MGET", R_G80_MGET, 0x18),                                                         \
	        G80_RAMFC_FIELD("DMA_MGET_HIGH", R_G80_MGET_HIGH, 0x1c),                                               \
	        G80_RAMFC_FIELD("DMA_GET_HIGH_RDSHADOW", R_G80_GET_HIGH_RS, 0x20),                                     \
	        G80_RAMFC_FIELD("DMA_PUT_HIGH_RDSHADOW", R_G80_PUT_HIGH_RS, 0x24),                                     \
	        G80_RAMFC_FIELD("DMA_PUT_HIGH_WRSHADOW", R_G80_PUT_HIGH_WS, 0x28),                                     \
	        G80_RAMFC_FIELD("DMA_MGET_HIGH_RDSHADOW", R_G80_MGET_HIGH_RS, 0x2c),                                   \
	        G80_RAMFC_FIELD("DMA_STATE", R_DMA_STATE, 0x30),                                                       \
	        G80_RAMFC_FIELD("METHOD_COUNT", R_G80_METHOD_COUNT, 0x34),                                             \
	        G80_RAMFC_FIELD("DMA_DCOUNT_SHADOW", R_DCOUNT, 0x38), G80_RAMFC_FIELD("DMA_FETCH", R_DMA_FETCH, 0x3c), \
	        G80_RAMFC_FIELD("SUBROUTINE", R_SUBROUTINE, 0x40),                                                     \
	        G80_RAMFC_FIELD("DMA_TIMESLICE", R_DMA_TIMESLICE, 0x44),                                               \
	        G80_RAMFC_FIELD("DMA_INSTANCE", R_DMA_INSTANCE, 0x48),                                                 \
	        G80_RAMFC_FIELD("DMA_LIMIT", R_DMA_LIMIT, 0x4c),                                                       \
	        G80_RAMFC_FIELD("IB_ADDRESS_LOW", R_G80_IB_ADDRESS, 0x50),                                             \
	        G80_RAMFC_FIELD("IB_CONFIG", R_G80_IB_CONFIG, 0x54), G80_RAMFC_FIELD("ENGINE", R_ENGINE, 0x58),        \
	        G80_RAMFC_FIELD("PULL1", R_PULL1, 0x5c), G80_RAMFC_FIELD("ACQUIRE_TIMEOUT", R_ACQ_TIMEOUT, 0x60),      \
	        G80_RAMFC_FIELD("ACQUIRE_TIMESTAMP", R_ACQ_TIMESTAMP, 0x64),                                           \
	        G80_RAMFC_FIELD("ACQUIRE_VALUE", R_ACQ_VALUE, 0x68), G80_RAMFC_FIELD("SEMAPHORE", R_SEMAPHORE, 0x6c),  \
	        G80_RAMFC_FIELD("UNK0E4", R_G80_UNK0E4, 0x70), G80_RAMFC_FIELD("REF", R_REF, 0x74),                    \
	        G80_RAMFC_FIELD("UNK88", R_G80_DEBUG_2, 0x78), G80_RAMFC_FIELD("SLI", R_SLI, 0x7c),                    \
	        G80_RAMFC_FIELD("RAMHT", R_RAMHT, 0x80)

/* What every member of the family has alike (a designated-initialiser
 * prefix of its pfifo_gen). */
#define G80_METHODS                                                                                                    \
	(PF_METHOD(0x50) | PF_METHOD(0x60) | PF_METHOD(0x64) | PF_METHOD(0x68) | PF_METHOD(0x6c) | PF_METHOD(0x80))
#define G80_GEN_COMMON                                                                                                 \
	.nchan = 128, .cache_entries = 128, .pio_channels = 1, .chid_mask = 0x7f, .push1_mode = 1u << 16,              \
	.ramfc_addr_mask = 0, .class_mask = 0xffff, .cache_addr_mask = 0xfffd, .hash_valid = 16,                       \
	.ramht = { 15, 23, 20, 31, 24, -1, false }, .pb_vram = true, .ninc = true, .paired = true,                     \
	.subr_in_state = true, .sli = true, .ramin_bar = true, .user_ref = true, .fresh_runs = true,                   \
	.sem_errors = pfifo_g80_sem_errors

static inline const struct g80_impl *g80_impl(const struct pfifo *f)
{
	return f->chip->impl;
}

#define RAMFC_CACHE_CNT 0x84u
#define PFIFO_G80_SIZE  sizeof(struct g80_pfifo)

/* g80.c */
extern const struct pfifo_ops pfifo_g80_ops;
extern const struct reg_layer pfifo_g80_regs;
extern const char *const pfifo_g80_sem_errors[8];
bool g80_lin_rd32(struct pfifo *f, unsigned target, uint64_t addr, uint32_t *w);
bool g80_lin_wr32(struct pfifo *f, unsigned target, uint64_t addr, uint32_t w);
uint64_t g80_desc_addr(uint32_t desc);
unsigned g80_desc_target(uint32_t desc);
bool g80_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w);
bool g80_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w);
bool g80_obj_rd32(struct pfifo *f, uint32_t inst, uint32_t *w); /* a word of CACHE1's channel structure */
bool g80_big_endian(struct pfifo *f);
/* VM clients of PFIFO (seed 002 "DMA slots", engine/client/slot). */
enum g80_slot { G80_PB_READ, G80_SEM_WRITE, G80_SEM_READ, G80_SEM_BG_READ };
/* Translates offset off of DMA object sel of CACHE1's channel through the
 * VM (include/nvmodel/g80vm.h). False on a VM fault (recorded by the VM).
 * *span (may be NULL): bytes from there that map linearly. */
bool g80_xlat(struct pfifo *f, uint32_t sel, uint64_t off, enum g80_slot slot, nvm_aperture *ap, uint64_t *lin,
              uint64_t *span);
/* The puller's G80 methods 0x60-0x6c: 1 done, 0 stalled, -1 not one of them. */
int g80_puller_method(struct pfifo *f, uint32_t a, uint32_t m, uint32_t d, uint64_t *t, uint32_t inst);
bool g80_sem_where(struct pfifo *f, enum g80_slot slot, nvm_aperture *ap, uint64_t *addr);
bool g80_sem_rw(struct pfifo *f, uint64_t off, enum g80_slot slot, uint32_t *v);
int g80_sem_fail(struct pfifo *f, unsigned sub, uint32_t a, uint32_t d, const char *why);
void g80_wait_engine(struct pfifo *f, uint64_t *t);
void g80_acquire_wait(struct pfifo *f, uint32_t value, bool src_new, bool gequal);

/* The G80 operations G84+ reuse (pfifo_g80_ops). */
nvm_status g80_init(struct pfifo *f);
bool g80_win_rd(struct pfifo *f, uint32_t addr, uint32_t *val);
bool g80_win_wr(struct pfifo *f, uint32_t addr, uint32_t val);
bool g80_chan_dma(const struct pfifo *f, uint32_t chid);
int g80_next_channel(struct pfifo *f);
bool g80_chan_busy(struct pfifo *f);
void g80_cache_save(struct pfifo *f, uint32_t chid);
void g80_cache_load(struct pfifo *f, uint32_t chid);
bool g80_frozen(struct pfifo *f);
void g80_count_load(struct pfifo *f, nvm_pb_decoder_state *d, uint32_t dma_state);
uint32_t g80_count_store(struct pfifo *f, const nvm_pb_decoder_state *d, uint32_t dma_state);
void g80_pio_refused(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size, unsigned reason);
bool g80_ramht_lookup(struct pfifo *f, uint32_t chid, uint32_t handle, uint32_t *inst, unsigned *engine);
bool g80_puller_sem_where(struct pfifo *f, nvm_aperture *ap, uint64_t *addr);

/* The core's CPU-fault port listener (ctx: the pfifo): INTR BAR_FAULT / PEEPHOLE_FAULT. */
void pfifo_g80_cpu_fault(void *ctx, enum cpu_fault kind);

/* ib.c: the G80 DMA pusher (NV4-style DMA mode and IB mode). */
bool g80_pusher_ready(struct pfifo *f);
uint32_t g80_pusher_run(struct pfifo *f, uint32_t max, uint64_t *t);

#endif
