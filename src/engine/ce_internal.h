/*
 * Internal interface of the copy engine: the mechanism (ce.c) and the copy
 * classes (ce_classes.c, one const table per class: C3B5 Volta, C5B5 Turing,
 * C6B5 GA100, C7B5 GA102, C8B5 Hopper). A class is data the mechanism reads:
 * its methods (those it adds to its parent's), the widths of its address
 * fields, its LAUNCH_DMA fields, semaphore types and reductions, and its
 * physical targets. The mechanism has no branch on a class id.
 */
#ifndef NVM_CE_INTERNAL_H
#define NVM_CE_INTERNAL_H

#include "engine.h"

/* Method state, one slot per stored method. */
enum ce_slot {
	S_SEM_A,
	S_SEM_B,
	S_SEM_PAYLOAD,
	S_SEM_PAYLOAD_UPPER,
	S_RENDER_A,
	S_RENDER_B,
	S_RENDER_C,
	S_SRC_PHYS,
	S_DST_PHYS,
	S_IN_UPPER,
	S_IN_LOWER,
	S_OUT_UPPER,
	S_OUT_LOWER,
	S_PITCH_IN,
	S_PITCH_OUT,
	S_LINE_LENGTH,
	S_LINE_COUNT,
	S_CONST_A,
	S_CONST_B,
	S_REMAP,
	S_DST_BLOCK,
	S_DST_WIDTH,
	S_DST_HEIGHT,
	S_DST_DEPTH,
	S_DST_LAYER,
	S_DST_ORIGIN_X,
	S_DST_ORIGIN_Y,
	S_SRC_BLOCK,
	S_SRC_WIDTH,
	S_SRC_HEIGHT,
	S_SRC_DEPTH,
	S_SRC_LAYER,
	S_SRC_ORIGIN_X,
	S_SRC_ORIGIN_Y,
	S_COUNT,
	S_NONE = 0xff,
};

/* One delivery of methods (ce.c). */
struct ce_x;
struct ce_mthd;
typedef enum eng_status (*ce_fn)(struct ce_x *x, const struct ce_mthd *t, uint32_t data);
struct ce_mthd {
	uint16_t addr;
	uint8_t slot;
	const char *name;
	ce_fn fn;
};

/* The method operations of the mechanism (ce.c). */
enum eng_status ce_m_store(struct ce_x *x, const struct ce_mthd *t, uint32_t data);
enum eng_status ce_m_nop(struct ce_x *x, const struct ce_mthd *t, uint32_t data);
enum eng_status ce_m_unmodelled(struct ce_x *x, const struct ce_mthd *t, uint32_t data);
enum eng_status ce_m_render(struct ce_x *x, const struct ce_mthd *t, uint32_t data);
enum eng_status ce_m_origin(struct ce_x *x, const struct ce_mthd *t, uint32_t data);
enum eng_status ce_m_launch(struct ce_x *x, const struct ce_mthd *t, uint32_t data);

/* A semaphore reduction of LAUNCH_DMA SEMAPHORE_REDUCTION: whether it takes
 * the payload size and sign, and the new value. */
struct ce_red {
	bool (*valid)(unsigned op, bool is64, bool sgn);
	uint64_t (*apply)(unsigned op, bool is64, bool sgn, uint64_t v, uint64_t pl);
};

/* A LAUNCH_DMA field the model reports rather than performs: a non-zero
 * value is an NVM_EV_UNMODELLED event (the launch runs as if it were 0);
 * a value >= bad (when bad != 0) is a launch error. */
struct ce_launch_field {
	uint8_t hi, lo;
	uint8_t bad;
	const char *name; /* the header's field name */
	const char *code; /* the event code */
};

/* What SET_*_PHYS_MODE TARGET selects. */
enum ce_phys {
	CE_PHYS_UNDEFINED = 0, /* a launch error (UNVERIFIED) */
	CE_PHYS_VRAM,
	CE_PHYS_SYSMEM,
	CE_PHYS_PEER, /* peer memory: not modelled (NVM_EV_UNMODELLED, engine error) */
};

struct ce_class {
	uint32_t id;            /* 0xC3B5 */
	const char *name;       /* "VOLTA_DMA_COPY_A" */
	const char *short_name; /* "C3B5" */
	/* Methods this class adds to its parent's (sorted by address). */
	const struct ce_class *parent;
	const struct ce_mthd *mthds;
	size_t nmthds;
	/* The top bit of OFFSET_IN/OUT_UPPER and SET_SEMAPHORE_A UPPER. */
	unsigned upper_hi;
	/* LAUNCH_DMA SEMAPHORE_TYPE 4:3: which values are defined (bit per
	 * value), and the one that raises a conditional interrupt (0: none). */
	uint8_t sem_types;
	uint8_t sem_cond_intr;
	/* LAUNCH_DMA SEMAPHORE_PAYLOAD_SIZE bit (0: the class has one-word
	 * payloads only). */
	uint8_t payload_size_bit;
	/* LAUNCH_DMA SEMAPHORE_REDUCTION 17:14, by value (NULL: undefined). */
	const struct ce_red *red[16];
	/* SET_*_PHYS_MODE TARGET 1:0, by value. */
	uint8_t phys[4];
	/* LAUNCH_DMA fields reported, not performed. */
	const struct ce_launch_field *fields;
	size_t nfields;
};

/* The method of class c at addr (its own table, then its parents'). */
const struct ce_mthd *ce_class_mthd(const struct ce_class *c, uint32_t addr);

#endif
