/*
 * The PIO PFIFO of NV01 and NV03 (pio01.c), shared by the two generations
 * (nv01.c, nv03.c): the USER area with its write rules and RAMRO runouts,
 * CACHE0 and the Gray-coded CACHE1, the RAMFC channel switch and the
 * puller that hands PGRAPH the 24-bit object context through method 0.
 * Sources: envytools hwtest/pfifo.cc (a register scan and a PIO simulator
 * run against a real NV1: "E-hw"), docs/hw/fifo/nv1-pfifo.rst, pio.rst,
 * puller.rst, rnndb fifo/nv1_pfifo.xml; the digest
 * ../shared/refs/nv01-nv03-facts.md names every fact's source.
 * docs/pfifo.md "NV01 and NV03".
 */
#ifndef NVM_PFIFO_PIO01_H
#define NVM_PFIFO_PIO01_H

#include "pfifo_internal.h"

/* Registers at the same place on NV1 and NV3 (rnndb nv1_pfifo.xml). */
#define P1_WAIT_RETRY     0x2040u
#define P1_CACHE_ERROR    0x2080u /* CACHE_ERROR0 0, CACHE_ERROR1 4 */
#define P1_INTR           0x2100u
#define P1_INTR_EN        0x2140u
#define P1_CONFIG         0x2200u
#define P1_RUNOUT_STATUS  0x2400u
#define P1_RUNOUT_PUT     0x2410u
#define P1_RUNOUT_GET     0x2420u
#define P1_CHSW_ENABLE    0x2500u /* CACHES_REASSIGN */
#define P1_C0_PUSH_ACCESS 0x3000u
#define P1_C0_PULL_CTRL   0x3040u
#define P1_C0_GET         0x3070u
#define P1_C0_CTX         0x3080u
#define P1_C0_ADDR        0x3100u
#define P1_C0_DATA        0x3104u
#define P1_C1_PUSH_ACCESS 0x3200u
#define P1_C1_PULL_CTRL   0x3240u
#define P1_C1_PULL_STATE  0x3250u
#define P1_C1_GET         0x3270u
#define P1_C1_CTX(i)      (0x3280u + 0x10u * (i))

/* PULL_CTRL (rnndb): ACCESS 0, HASH_FAILED 4, DEVICE_SOFTWARE 8 */
#define P1_PULL_ACCESS          (1u << 0)
#define P1_PULL_HASH_FAILED     (1u << 4)
#define P1_PULL_DEVICE_SOFTWARE (1u << 8)
/* PULL_STATE (rnndb, NV1): SUBCHANNEL 2:0, CTX 4 (dirty), OBJECT 8 */
#define P1_PS_CTX    (1u << 4)
#define P1_PS_OBJECT (1u << 8)

/* RAMRO REASON 31:28 (rnndb NV1_RAMRO) */
enum p1_reason {
	P1_ILLEGAL_ACCESS = 0,
	P1_NO_CACHE_AVAILABLE = 1,
	P1_CACHE_RAN_OUT = 2,
	P1_FREE_COUNT_OVERRUN = 3,
	P1_CAUGHT_LYING = 4,
	P1_RESERVED_ACCESS = 5,
};

struct pio01;

/* Where RAMHT, RAMFC and RAMRO are in RAMIN (NV1: PRAM CONFIG; NV3: the
 * RAMHT / RAMFC / RAMRO registers). */
struct p1_layout {
	uint32_t ramht, ramht_size;
	uint32_t ramfc, ramfc_chans; /* channels RAMFC holds (NV1 RAM_SIZE 0: 64) */
	uint32_t ramro, ramro_size;
};

/* What differs between NV1 and NV3 beyond the register tables. */
struct pio01_impl {
	/* the registers that move (rnndb: CHID and PUT of both caches; STATUS
	 * moves too, its table entry names it) */
	uint32_t c0_chid, c0_put, c1_chid, c1_put;
	uint32_t slots;           /* CACHE1 entries: 32, NV3T 64 (E-hw masks 0x7c / 0x1fc) */
	uint32_t array;           /* CACHE1 ADDR(0): 0x3300, NV3T 0x3400 (E-hw, rnndb) */
	uint32_t ctx_mask;        /* CTX bits kept (E-hw: NV1 0x017fffff, NV3 0x00ffffff) */
	uint32_t pull_state_mask; /* PULL_STATE bits that read back (NV1 0x117, NV3 0x10) */
	bool free_lie;            /* NV1: CONFIG FREE_LIE 1:0 with CTX FREE_LIE 24 */
	unsigned eng_bit;         /* the context bit that selects PGRAPH (1) or SOFTWARE (0) */
	void (*layout)(struct pio01 *p, struct p1_layout *l);
	/* the registers PMC ENABLE bit 8 sets to their reset values */
	const uint32_t *reset;
	size_t nreset;
	/* Generation windows and state (NV1's PRAM windows); NULL: none. */
	nvm_status (*init)(struct pio01 *p);
};

/* The state: struct pfifo first (the shared block), then the PIO unit's. */
struct pio01 {
	struct pfifo f;
	const struct pio01_impl *im;
	uint32_t *intr, *cache_error, *config, *runout_put, *runout_get, *chsw;
	uint32_t *c0_push, *c0_chid, *c0_put, *c0_get, *c0_pull, *c0_ctx, *c0_addr, *c0_data;
	uint32_t *c1_push, *c1_chid, *c1_put, *c1_get, *c1_pull, *c1_pstate, *c1_ctx[8];
	uint32_t addr[64], data[64]; /* CACHE1 ADDR(i) / DATA(i), by Gray slot */
	bool runout;                 /* the CACHE1 runout flag (CACHE1 STATUS bit 0) */
	bool resend;                 /* the context goes to PGRAPH before the next method (channel switch) */
	bool c0_sent;                /* CACHE0's context went to PGRAPH */
	uint32_t pram_config;        /* NV1 PRAM CONFIG (0x602200) RAM_SIZE 1:0 */
};

/* The block's operations every NV01/NV03 generation takes (pio01.c). */
extern const struct pfifo_ops pio01_ops;

/* Handlers the generations' register tables use. */
void p1_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void p1_wr_kick(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void p1_wr_dma_ctrl(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void p1_wr_pull_ctrl(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void p1_wr_runout_ptr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
uint32_t p1_rd_runout_status(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t p1_rd_c0_status(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t p1_rd_c1_status(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t p1_rd_pull_state(void *ctx, const struct reg_desc *r, uint32_t stored);

#endif
