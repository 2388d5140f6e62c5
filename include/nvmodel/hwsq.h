/*
 * nvmodel — HWSQ, the hardware sequencer of NV17:GF100 (seed 004).
 *
 * Four variants: nv17 (NV17:NV20, NV25:NV41), nv41 (NV41:G80), g80 (G80:G92)
 * and g92 (G92:GF100). A GPU opened with a chip profile that has HWSQ uses
 * that profile's variant (nv17 and nv40 -> nv17, nv41 -> nv41, g80/g84 ->
 * g80, g92/gt215 -> g92); the flags a chip has come from its own profile. The
 * assembler and disassembler work without a GPU.
 */
#ifndef NVMODEL_HWSQ_H
#define NVMODEL_HWSQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/nvmodel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

typedef enum nvm_hwsq_variant {
	NVM_HWSQ_NV17 = 0,
	NVM_HWSQ_NV41,
	NVM_HWSQ_G80,
	NVM_HWSQ_G92,
	NVM_HWSQ_VARIANT_COUNT
} nvm_hwsq_variant;

/* "nv17" / "nv41" / "g80" / "g92" (case-insensitive); NVM_ERR_ARG if unknown. */
nvm_status nvm_hwsq_variant_parse(const char *name, nvm_hwsq_variant *out);
const char *nvm_hwsq_variant_name(nvm_hwsq_variant v);
/* The chip profile that carries the variant ("nv17", "nv41", "g80", "g92"). */
const char *nvm_hwsq_variant_chip(nvm_hwsq_variant v);
/* Code RAM size in bytes (0x40, 0x80, 0x100, 0x200); 0 for a bad variant. */
uint32_t nvm_hwsq_code_size(nvm_hwsq_variant v);
/* The variant of an open GPU; NVM_ERR_NOENT when its chip has no HWSQ. */
nvm_status nvm_hwsq_gpu_variant(const nvm_gpu *gpu, nvm_hwsq_variant *out);

/* ---------------------------------------------------------------- disassembler */

/* Longest line nvm_hwsq_dis_next writes, with its NUL. */
#define NVM_HWSQ_LINE_MAX 96

/* The disassembler's tables, filled by nvm_hwsq_dis_init. PRIVATE: the
 * caller allocates it (about 17 KiB) and reads no field but variant and
 * quiet; size and layout may change with any release. */
typedef struct nvm_hwsq_dis {
	nvm_hwsq_variant variant;
	bool quiet;          /* no address and bytes columns */
	const void *op[256]; /* first byte -> opcode table row (NULL: unknown) */
	/* Pre-formatted line tail of every single-byte opcode (bytes column,
	 * unless quiet, then the text and the newline): the hot path copies it. */
	char one[256][64];
	uint8_t one_len[256];
} nvm_hwsq_dis;

nvm_status nvm_hwsq_dis_init(nvm_hwsq_dis *d, nvm_hwsq_variant v, bool quiet);
/* Disassembles the instruction at code[*pos] (pos < len) into line (at least
 * NVM_HWSQ_LINE_MAX bytes; newline-terminated, NUL-terminated) and advances
 * *pos past it. Returns the line length without the NUL. An opcode that runs
 * past len is decoded with the missing bytes read as zero and marked
 * " [incomplete]". */
size_t nvm_hwsq_dis_next(const nvm_hwsq_dis *d, const uint8_t *code, size_t len, size_t *pos, char *line);

/* What nvm_hwsq_insn.arg holds. */
typedef enum nvm_hwsq_operand {
	NVM_HWSQ_OPND_NONE = 0, /* exit, nop, unknown opcodes */
	NVM_HWSQ_OPND_WAIT,     /* arg[0] length, arg[1] shift * 2 */
	NVM_HWSQ_OPND_FLAG,     /* arg[0] flag */
	NVM_HWSQ_OPND_EVENT,    /* arg[0] event (bits 12:8), arg[1] value (bit 16) */
	NVM_HWSQ_OPND_IMM,      /* arg[0] immediate */
} nvm_hwsq_operand;

/* Structured decode of one instruction (for --json). */
typedef struct nvm_hwsq_insn {
	const char *mnemonic; /* "wait", ... ; "???" when unknown */
	uint8_t len;          /* bytes the opcode occupies */
	uint8_t avail;        /* bytes present (< len: truncated) */
	bool known;
	nvm_hwsq_operand opnd;
	uint32_t arg[2]; /* operands: wait (len, shift*2), flag, event+value, imm */
	uint8_t nargs;
	/* The flag's or event's name as the text has it (without '#'), as
	 * current envydis prints it for the variant; NULL: printed as a number. */
	const char *name;
	char text[64]; /* "wait 0x1 shl 0x4" */
} nvm_hwsq_insn;
void nvm_hwsq_decode(const nvm_hwsq_dis *d, const uint8_t *code, size_t len, size_t pos, nvm_hwsq_insn *out);

/* ---------------------------------------------------------------- assembler */

typedef struct nvm_hwsq_asm_error {
	int line; /* 1-based line of the problem; 0 when not tied to a line */
	char message[160];
} nvm_hwsq_asm_error;

/* Assembles source text for variant v (envyas text or a whole envydis
 * listing, docs/hwsq.md) into out (capacity cap). Programs of any length
 * assemble, as with envyas: whether they fit the code RAM
 * (nvm_hwsq_code_size) is the caller's check. NVM_ERR_ARG with *err filled
 * on a source error; NVM_ERR_RANGE when cap is too small, with *outlen the
 * size needed and out untouched (out NULL, cap 0: ask for the size). */
nvm_status nvm_hwsq_assemble(nvm_hwsq_variant v, const char *src, size_t srclen, uint8_t *out, size_t cap,
                             size_t *outlen, nvm_hwsq_asm_error *err);
/* Address of a label after a successful assemble of the same source, or -1. */
long nvm_hwsq_asm_label(nvm_hwsq_variant v, const char *src, size_t srclen, const char *label);

/* ---------------------------------------------------------------- model */

typedef enum nvm_hwsq_flag_state {
	NVM_HWSQ_UNSET = 0,
	NVM_HWSQ_SET0,
	NVM_HWSQ_SET1,
} nvm_hwsq_flag_state;

typedef struct nvm_hwsq_slot_state {
	uint32_t ip;
	bool executing;
	bool illegal;
	uint32_t addr, data; /* the slot's MMIO poke state */
} nvm_hwsq_slot_state;

/* A debugger's view of the sequencer; reading it is not a bus access, so it
 * works while an FB pause holds host MMIO. */
typedef struct nvm_hwsq_state {
	nvm_hwsq_variant variant;
	unsigned nslots;
	nvm_hwsq_slot_state slot[2]; /* [0] = slot A, [1] = slot B */
	uint32_t status;             /* what STATUS reads */
	uint32_t flags0, flags1;     /* what FLAGS_0 / FLAGS_1 read */
	uint32_t events;             /* what EVENTS reads */
	bool fb_pause;               /* flag 16 requests the pause */
	bool fb_paused;              /* the pause has completed (event 0) */
	uint64_t instructions;       /* executed since open */
} nvm_hwsq_state;

nvm_status nvm_hwsq_get_state(nvm_gpu *gpu, nvm_hwsq_state *st);
nvm_hwsq_flag_state nvm_hwsq_flag(const nvm_hwsq_state *st, unsigned flag);

/* Drives event input n (1..31; event 0 FB_PAUSED belongs to the model) to
 * level. An ewait waiting for it resumes at the current virtual time. */
nvm_status nvm_hwsq_set_event(nvm_gpu *gpu, unsigned n, bool level);

/* Copies bytes into the code RAM at off, as a debugger would (not through
 * the windows). NVM_ERR_RANGE if it does not fit. */
nvm_status nvm_hwsq_load(nvm_gpu *gpu, uint32_t off, const uint8_t *code, size_t len);

/* Name of flag n / event n in variant v as current envydis prints it
 * ("FB_PAUSE", "HEAD0_VBLANK"), or NULL when it prints a number. Text only:
 * a name does not mean the model gives the flag a register target. */
const char *nvm_hwsq_flag_name(nvm_hwsq_variant v, unsigned n);
const char *nvm_hwsq_event_name(nvm_hwsq_variant v, unsigned n);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
