/*
 * What the Ampere-style Host generations share (ga100.c, ga102.c,
 * gh100.c): the generation description with the data ga100.c's operations
 * read, the PTOP device rows, the PBDMA register files and the C56F method
 * table.
 */
#ifndef NVM_HOST_AMPERE_H
#define NVM_HOST_AMPERE_H

#include "host_internal.h"

/* A generation of the Ampere design: struct host_gen first (h->gen points
 * at it), then what ga100.c's operations read. */
struct ampere_gen {
	struct host_gen g;
	unsigned rl_base_shift;            /* NV_RUNLIST_SUBMIT_BASE_LO alignment (ga102: 10) */
	uint32_t usermode_class;           /* NV_VIRTUAL_FUNCTION_CFG0 USERMODE_CLASS_ID */
	const struct intr_tree_desc *tree; /* the CPU interrupt tree's layout */
	const struct ptop_dev *dev;
	size_t ndev;
};

extern const struct host_gen_ops ga100_ops;
extern const struct reg_desc ampere_pbdma_regs[PBR_COUNT];
extern const struct reg_desc hopper_pbdma_regs[PBR_COUNT];
extern const host_method_fn c56f_methods[64];
extern const host_method_fn c76f_methods[64]; /* ga102.c */
extern const uint8_t ampere_bad_tsg_codes[NVM_HF_CHECK_COUNT];
extern const struct ptop_dev ampere_devs[];
extern const struct intr_tree_desc ampere_intr_tree;
extern const size_t ampere_ndevs;
void ampere_rl_entry_decode(const uint8_t *raw, nvm_rl_entry *out);

#define AMPERE_CHRAM_N 2048u /* channels per runlist (NV_CHRAM_CHANNEL__SIZE_1) */

#endif
