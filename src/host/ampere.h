/*
 * What the Ampere-style Host generations share (ga100.c, ga102.c,
 * gh100.c): the generation description with the data ga100.c's operations
 * read, the PTOP device rows, the PBDMA register files and the C56F method
 * table.
 */
#ifndef NVM_HOST_AMPERE_H
#define NVM_HOST_AMPERE_H

#include "host_internal.h"

/* One engine as PTOP publishes it (nouveau top/ga100.c). */
struct ampere_dev {
	uint8_t type;      /* TYPE: 0 GR, 0x13 CE */
	uint8_t inst;      /* INST: the instance of that type */
	uint8_t fault;     /* FAULT: the MMU engine id */
	uint32_t addr;     /* ADDR: the engine's PRI base */
	uint8_t reset;     /* RESET: its reset id */
	uint8_t runlist;   /* the runlist serving it (its PRI base is published) */
	uint8_t rl_engine; /* ENGINE: its index in that runlist (ENGINE_STATUS0(i)) */
};

/* A generation of the Ampere design: struct host_gen first (h->gen points
 * at it), then what ga100.c's operations read. */
struct ampere_gen {
	struct host_gen g;
	unsigned rl_base_shift;  /* NV_RUNLIST_SUBMIT_BASE_LO alignment (ga102: 10) */
	uint32_t usermode_class; /* NV_VIRTUAL_FUNCTION_CFG0 USERMODE_CLASS_ID */
	const struct ampere_dev *dev;
	size_t ndev;
};

extern const struct host_gen_ops ga100_ops;
extern const struct reg_desc ampere_pbdma_regs[PBR_COUNT];
extern const struct reg_desc hopper_pbdma_regs[PBR_COUNT];
/* The methods of C56F (clc56f.h): C36F's without CRC_CHECK (0x7c),
 * CLEAR_FAULTED by handle; C76F differs in MEM_OP_D (MMU_OPERATION). */
#define AMPERE_HOST_METHODS(mem_op_d)                                                                                  \
	{                                                                                                              \
		[0x00 >> 2] = hm_set_object, [0x04 >> 2] = hm_illegal, [0x08 >> 2] = hm_nop,                           \
		         [0x10 >> 2] = hm_semaphore_a, [0x14 >> 2] = hm_semaphore_b, [0x18 >> 2] = hm_semaphore_c,     \
		         [0x1c >> 2] = hm_semaphore_d, [0x20 >> 2] = hm_non_stall_interrupt,                           \
		         [0x24 >> 2] = hm_fb_flush, [0x28 >> 2] = hm_mem_op_a, [0x2c >> 2] = hm_mem_op_b,              \
		         [0x30 >> 2] = hm_mem_op_c, [0x34 >> 2] = (mem_op_d), [0x50 >> 2] = hm_set_reference,          \
		         [0x5c >> 2] = hm_sem_addr_lo, [0x60 >> 2] = hm_sem_addr_hi, [0x64 >> 2] = hm_sem_payload_lo,  \
		         [0x68 >> 2] = hm_sem_payload_hi, [0x6c >> 2] = hm_sem_execute, [0x78 >> 2] = hm_wfi,          \
		         [0x80 >> 2] = hm_yield, [0x84 >> 2] = hm_clear_faulted_handle,                                \
	}
extern const host_method_fn c56f_methods[64];
extern const host_method_fn c76f_methods[64]; /* ga102.c */
extern const uint8_t ampere_bad_tsg_codes[NVM_HF_CHECK_COUNT];
extern const struct ampere_dev ampere_devs[];
extern const size_t ampere_ndevs;
void ampere_rl_entry_decode(const uint8_t *raw, nvm_rl_entry *out);

#define AMPERE_CHRAM_N 2048u /* channels per runlist (NV_CHRAM_CHANNEL__SIZE_1) */

#endif
