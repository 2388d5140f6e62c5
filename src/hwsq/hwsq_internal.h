/*
 * HWSQ internals shared by the ISA tables (hwsq_isa.c), the assembler
 * (hwsq_as.c) and the model (hwsq.c). One opcode table drives all three.
 */
#ifndef NVM_HWSQ_INTERNAL_H
#define NVM_HWSQ_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/core.h"
#include "hwsq_gens.h"
#include "nvmodel/hwsq.h"

/* What an opcode does (seed 004 "Opcodes"). */
enum hwsq_kind {
	HK_WAIT,
	HK_ADDRLO,
	HK_DATALO,
	HK_EWAIT,
	HK_EXIT,
	HK_UNSET,
	HK_SET1,
	HK_SET0,
	HK_ADDR,
	HK_DATA,
};

/* How its operands are encoded. */
enum hwsq_opnd {
	HO_NONE,  /* exit */
	HO_WAIT,  /* bits 1:0 length, bits 5:2 shift (written premultiplied by 2) */
	HO_FLAG,  /* bits 4:0 flag */
	HO_EVENT, /* byte 1 event, byte 2 value */
	HO_IMM16, /* bytes 1-2 little-endian */
	HO_IMM32, /* bytes 1-4 little-endian */
};

struct hwsq_op {
	uint8_t match, mask; /* (byte & mask) == match */
	uint8_t len;         /* bytes, opcode included */
	enum hwsq_kind kind;
	enum hwsq_opnd opnd;
	bool nv41; /* exists on NV41+ only */
	const char *name;
};

extern const struct hwsq_op hwsq_ops[];
extern const size_t hwsq_nops;

/* A flag's override target in the model: register bit `bit` of BAR0 `reg`
 * (seed 004's known-flags table for the chip). reg 0: the flag overrides no
 * register (FB_PAUSE, or a flag the table does not list for the chip). */
struct hwsq_flag_def {
	uint32_t reg;
	uint8_t bit;
};

struct hwsq_variant {
	nvm_hwsq_variant id;
	const char *name;
	const char *chip;
	uint32_t code_size; /* bytes of code RAM */
	uint8_t nslots;     /* 2 (A and B) before G92, 1 after */
	bool nv41_ops;      /* addr/data/ewait opcodes and EVENTS (NV41+) */
	bool illegal_hang;  /* unknown opcodes light STATUS bit 9 and hang (NV41:G92) */
	bool ip_high;       /* ENTRY_POINT_HIGH, STATUS bit 10, 0x80000 window (G92+) */
	bool fb_pause;      /* flag 16 pauses the framebuffer (NV41:GF100) */
	bool pause_mmio;    /* the pause also holds host MMIO (G80+) */
	/* What the model does: which flag overrides which register bit. */
	struct hwsq_flag_def flags[32];
	/* Text only: the names envydis prints and envyas takes for the variant
	 * (32 entries each, NULL: printed as a number). They may name a flag
	 * the model gives no target on this chip (docs/hwsq.md "Flags"). */
	const char *const *flag_names;
	const char *const *event_names;
};

/* Names earlier envydis versions printed (and nvmodel before them):
 * accepted by the assembler on every variant, never printed. */
struct hwsq_alias {
	const char *name;
	bool event; /* an ewait event, else a flag */
	uint8_t num;
};
extern const struct hwsq_alias hwsq_aliases[];
extern const size_t hwsq_naliases;

const struct hwsq_variant *hwsq_variant_get(nvm_hwsq_variant v);
/* Fills tab[b] with the opcode row that first byte b selects on variant v
 * (NULL: unknown opcode there). */
void hwsq_decode_table(const struct hwsq_variant *v, const struct hwsq_op *tab[256]);

/* The value the hardware uses for an override-target register (flag
 * overrides applied while HWSQ_ENABLE is 1), whatever HWSQ_OVERRIDE_MODE
 * makes MMIO reads return. False if addr is not such a register. */
bool hwsq_reg_effective(nvm_gpu *gpu, uint32_t addr, uint32_t *val);

/* Delay of a wait opcode in PTIMER clocks (seed 004 "PTIMER wait opcodes"). */
static inline uint64_t hwsq_wait_clocks(uint8_t op)
{
	uint64_t len = FIELD_GET(op, 1, 0), shift = FIELD_GET(op, 5, 2);
	return (len << (shift * 2)) * 0x20;
}
/* One PTIMER clock advances TIME_* by 0x20, and the model's PTIMER counts
 * nanoseconds: one clock is 32 ns. */
#define HWSQ_NS_PER_CLOCK 32u

/* ---------------------------------------------------------------- the block's state (hwsq.c, hwsq_snap.c) */

enum hwsq_block_state {
	HB_NONE,  /* running (or idle) */
	HB_WAIT,  /* PTIMER wait in progress */
	HB_EWAIT, /* waiting for an event value */
	HB_HOLD,  /* a poke waits for HWSQ_ENABLE */
};

struct hwsq_slot {
	uint32_t ip;
	bool exec, illegal;
	uint32_t addr, data;
};

/* Where the slots ran since the engine last blocked: lowest and highest
 * IP and the instruction count, for the diagnostic of a spinning script. */
struct ip_span {
	uint32_t lo[2], hi[2];
	uint64_t n[2];
};

struct hwsq {
	nvm_gpu *gpu;
	const struct hwsq_variant *v;
	const struct hwsq_op *dec[256];
	uint8_t code[0x200];
	uint32_t mask; /* code_size - 1 */
	struct hwsq_slot slot[2];
	uint32_t events;
	enum hwsq_block_state blk;
	unsigned blk_slot;
	uint8_t ew_event, ew_value;
	uint32_t hold_addr, hold_data;
	uint64_t ev_id;    /* pending engine event (wait end or continuation) */
	uint64_t pause_id; /* pending FB_PAUSED completion */
	bool pause_req;
	bool in_exec;
	unsigned next; /* slot tried first */
	uint64_t ninsn;
	struct ip_span span;
	uint32_t *debug6, *flags[2], *ep, *eph; /* latched register values */
	nvm_hwsq_dis dis;                       /* for trace lines (set up on first use) */
	bool dis_ready;
};

/* Snapshots (hwsq_snap.c): the block's part, and the functions of its
 * events (hwsq.c). */
extern const struct block_snap hwsq_snap;
void hwsq_engine_ev(nvm_gpu *gpu, void *ctx, uint64_t arg);
void hwsq_pause_done(nvm_gpu *gpu, void *ctx, uint64_t arg);

#endif
