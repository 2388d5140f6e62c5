/*
 * What the Host generations after Volta reuse of gv100.c (as nouveau's
 * tu102.c reuses gk104/gv100 functions): the state of a PCCSR-era Host
 * (the PFIFO arrays and the channel RAM), the register handlers of the
 * PFIFO registers that did not change, the PCCSR and usermode register
 * spaces, and the operations of struct host_gen_ops. A later generation
 * (tu102.c) builds its own register tables from these and fills its ops
 * with the gv100_* functions it keeps. docs/architecture.md "Adding a Host
 * generation".
 */
#ifndef NVM_HOST_GV100_H
#define NVM_HOST_GV100_H

#include "host_internal.h"

/* The largest counts of the PCCSR-era generations (gv100's): the state
 * arrays are sized by them, a generation uses the first of each. */
#define GV100_NCHAN    4096u /* NV_PFIFO_CFG1_NUM_CHANNELS_INIT */
#define GV100_NPBDMA   14u   /* NV_PFIFO_CFG0_NUM_PBDMA_INIT */
#define GV100_NRUNLIST 13u   /* NV_PFIFO_ENG_RUNLIST__SIZE_1 */
#define GV100_NENGSTAT 15u   /* NV_PFIFO_ENGINE_STATUS__SIZE_1 */
#define GV100_NARRAYS  10u   /* PFIFO register arrays a generation may add */

/* The state of a PCCSR-era Host generation: the PFIFO arrays and the
 * channel RAM. A later generation's state begins with it (h->gs). */
struct gv100 {
	uint32_t *pccsr; /* PCCSR values: [2 * chid] INST, [2 * chid + 1] CHANNEL */
	uint32_t eng_rl_vals[GV100_NRUNLIST * 2];
	uint32_t pbdma_map_vals[GV100_NPBDMA];
	uint32_t engstat_vals[GV100_NENGSTAT * 2];
	uint32_t engstat_inst_vals[GV100_NENGSTAT];      /* NV_PFIFO_ENGINE_STATUS_INST(i) */
	uint32_t engstat_next_inst_vals[GV100_NENGSTAT]; /* NV_PFIFO_ENGINE_STATUS_NEXT_INST(i) */
	uint32_t pbstat_vals[GV100_NPBDMA];
	struct reg_array pfifo_arrays[GV100_NARRAYS];
	struct reg_array pccsr_array;
	const uint32_t *sched_disable; /* NV_PFIFO_SCHED_DISABLE's value (gv100_sched_disabled) */
};

/* Register offsets shared by gv100 and tu102 (gv100/tu104 dev_fifo). */
#define R_PFIFO_INTR_0        0x2100u
#define R_PFIFO_INTR_EN_0     0x2140u
#define R_PFIFO_SCHED_DISABLE 0x2630u
#define R_PCCSR               0x800000u
#define R_USERMODE            0x810000u

/* Allocates the generation's state of size bytes (at least struct gv100;
 * zeroed) and the channel RAM for h->gen->nchan channels. */
nvm_status gv100_state_new(struct host *h, size_t size);
/* Adds the PFIFO register block (0x2000-0x31ff) with regs and the first
 * narrays of the state's pfifo_arrays (the caller fills them), and the
 * PFIFO_INTR_0 line. */
nvm_status gv100_add_pfifo(struct host *h, const struct reg_desc *regs, size_t nregs, size_t narrays);
/* Adds the channel RAM NV_PCCSR_CHANNEL_INST / NV_PCCSR_CHANNEL(i). */
nvm_status gv100_add_pccsr(struct host *h);
/* Adds a usermode-style block: name, base, size, table. */
nvm_status gv100_add_block(struct host *h, uint32_t base, uint32_t size, const struct reg_desc *regs, size_t nregs);
/* Fills NV_PFIFO_PBDMA_MAP(i) RUNLISTS from the topology (after bus_add). */
void gv100_map_pbdmas(struct host *h);
void gv100_destroy(struct host *h);

/* PFIFO register handlers (reg_desc read / write functions). */
uint32_t gv100_rd_pfifo_intr(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t gv100_rd_pbdma_id(void *ctx, const struct reg_desc *r, uint32_t stored);
void gv100_wr_intr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void gv100_wr_sched_disable(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void gv100_wr_preempt(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void gv100_wr_rl_preempt(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
void gv100_wr_userd_writeback(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written);
/* NV_USERMODE_TIME_0 / _1. */
uint32_t gv100_rd_time0(void *ctx, const struct reg_desc *r, uint32_t stored);
uint32_t gv100_rd_time1(void *ctx, const struct reg_desc *r, uint32_t stored);
/* The PFIFO register arrays of gv100 that tu102 keeps (one element each). */
extern const struct reg_desc gv100_pbdma_map_regs[1], gv100_engstat_regs[2], gv100_engstat_inst_regs[1],
        gv100_engstat_next_inst_regs[1], gv100_pbstat_regs[1];

/* gv100's runlists: GR, then the copy engines CE2..CE8 (tu102 has the
 * first four of them). */
extern const struct host_rl_desc gv100_runlists[8];

/* The PBDMA register file (enum pbr order) and the methods of C36F that
 * later host classes keep. */
extern const struct reg_desc gv100_pbdma_regs[PBR_COUNT];

/* struct host_gen_ops of gv100. */
bool gv100_chan_runnable(const struct host *h, uint32_t chid);
uint64_t gv100_chan_inst(const struct host *h, uint32_t chid, unsigned *target);
void gv100_chan_set_status(struct host *h, uint32_t chid, unsigned status);
bool gv100_chan_faulted(const struct host *h, uint32_t chid, enum host_fault f);
void gv100_chan_set_faulted(struct host *h, uint32_t chid, enum host_fault f, bool on);
void gv100_chan_info(const struct host *h, uint32_t chid, nvm_host_channel *out);
void gv100_update_intr(struct host *h);
void gv100_nonstall(struct host *h, uint32_t chid);
void gv100_sched_error(struct host *h, uint32_t code, uint64_t addr, const char *why);
void gv100_chsw_error(struct host *h, uint32_t code, uint64_t addr, const char *why);
bool gv100_sched_disabled(const struct host *h, const struct runlist *rl);
void gv100_engine_status(struct host *h, const struct runlist *rl, uint32_t status, uint32_t inst, uint32_t next_inst);
void gv100_pbdma_status(struct host *h, const struct pbdma *p, bool loaded);
bool gv100_handle_chid(const struct host *h, uint32_t handle, uint32_t *chid);

#endif
