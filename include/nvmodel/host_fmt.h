/*
 * nvmodel — decoders and checkers for the in-memory structures of the Volta
 * Host (seed 000 sections 2-5, gv100_dev_ram.ref.txt, gv100_dev_pbdma.ref.txt):
 *
 *  - the instance block (NV_RAMIN, 4096 bytes), whose first 128 dwords are
 *    the FIFO context (NV_RAMFC), each mirroring a NV_PPBDMA_* register;
 *  - the user-driver area (NV_RAMUSERD, 512 bytes);
 *  - runlists (NV_RAMRL_ENTRY, 16 bytes each: TSG headers and channels).
 *
 * Pure functions over byte buffers (little-endian dwords, as the GPU stores
 * them): no GPU is needed. Field tables (nvm_hf_layout) name every dword and
 * field as the manuals do, with the manuals' hi:lo positions; the same tables
 * drive text and JSON output. The checkers report what the Host would do with
 * a malformed structure: the interrupt, SCHED_ERROR code or MMU fault it
 * raises (nvm_hf_check_info). The runlist checker is a state machine fed one
 * entry at a time (nvm_rl_walker), so a running scheduler can share it.
 */
#ifndef NVMODEL_HOST_FMT_H
#define NVMODEL_HOST_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

#define NVM_RAMIN_SIZE        4096u /* NV_RAMIN_ALLOC_SIZE */
#define NVM_RAMFC_SIZE        512u  /* NV_RAMFC_SIZE_VAL */
#define NVM_USERD_SIZE        512u  /* NV_RAMUSERD_CHAN_SIZE */
#define NVM_RL_ENTRY_SIZE     16u   /* NV_RAMRL_ENTRY_SIZE */
#define NVM_RL_TSG_LENGTH_MAX 128u  /* NV_RAMRL_ENTRY_TSG_LENGTH_MAX */
#define NVM_RAMIN_SUBCTX      64u   /* NV_RAMIN_SC_PDB_VALID__SIZE_1 */

/* ---------------------------------------------------------------- field tables */

/* A named value of a field: NV_PPBDMA_USERD_TARGET_SYS_MEM_COHERENT is
 * { 2, "SYS_MEM_COHERENT" }. Lists end with name == NULL. */
typedef struct nvm_hf_enum {
	uint32_t value;
	const char *name;
} nvm_hf_enum;

/* A field of one dword: bits hi:lo of the dword (0..31). name is the
 * manual's full name ("NV_PPBDMA_USERD_TARGET", "NV_RAMIN_PAGE_DIR_BASE_VOL");
 * brief, when not NULL, the short name seed 000 uses in its field lists
 * ("TSG_LENGTH", "CHID"). */
typedef struct nvm_hf_field {
	const char *name;
	const char *brief;
	uint8_t hi, lo;
	const nvm_hf_enum *enums; /* NULL: a plain number */
} nvm_hf_field;

/* A dword of a structure, or an array of them (count copies, stride dwords
 * apart: NV_RAMIN_SC_*(i)). name is the manual's name of the whole dword
 * ("NV_RAMFC_USERD"; NULL when the manual names only its fields), reg the
 * register it mirrors ("NV_PPBDMA_USERD"; NULL if none). */
typedef struct nvm_hf_word {
	const char *name;
	const char *reg;
	uint16_t dword;
	uint16_t count;
	uint16_t stride;
	uint16_t nfields;
	const nvm_hf_field *fields;
} nvm_hf_word;

typedef struct nvm_hf_layout {
	const char *name; /* "NV_RAMFC", "NV_RAMIN", "NV_RAMUSERD", ... */
	uint32_t size;    /* bytes */
	int abs_bits;     /* how the manual writes positions: 0 "hi:lo" within the
	                   * dword, 1 "(d*32+hi):(d*32+lo)", 2 "(hi+d*32):(lo+d*32)" */
	size_t nwords;    /* words sorted by dword, not overlapping */
	const nvm_hf_word *words;
} nvm_hf_layout;

typedef enum nvm_hf_struct {
	NVM_HF_RAMFC = 0,   /* dwords 0..127 of the instance block */
	NVM_HF_RAMIN = 1,   /* dwords 128..1023 of the instance block */
	NVM_HF_USERD = 2,   /* NV_RAMUSERD */
	NVM_HF_RL_TSG = 3,  /* a runlist TSG header */
	NVM_HF_RL_CHAN = 4, /* a runlist channel entry */
	NVM_HF_STRUCT_COUNT
} nvm_hf_struct;

/* The field table of a structure; NULL for an unknown one. */
const nvm_hf_layout *nvm_hf_layout_get(nvm_hf_struct which);
/* The same, as the Host generation of chip lays it out (NULL: the default
 * chip); NULL for an unknown structure, or a chip that is unknown or has no
 * Host of this kind (gv100, tu102 ...). nvm_hf_layout_get is gv100's. */
const nvm_hf_layout *nvm_hf_layout_chip(const char *chip, nvm_hf_struct which);

/* Little-endian dword d of buf (len bytes); 0 when it lies outside. */
uint32_t nvm_hf_dword(const uint8_t *buf, size_t len, unsigned d);
/* Value of field f of copy idx of word w in buf; 0 when outside. */
uint32_t nvm_hf_get(const uint8_t *buf, size_t len, const nvm_hf_word *w, unsigned idx, const nvm_hf_field *f);
/* Name of value v of field f, or NULL. */
const char *nvm_hf_enum_name(const nvm_hf_field *f, uint32_t v);
/* The word of layout l that covers dword d (*idx gets the array index), or
 * NULL when the manual names nothing there. */
const nvm_hf_word *nvm_hf_word_at(const nvm_hf_layout *l, unsigned d, unsigned *idx);
/* Mask of the bits of one copy of word w that no field covers. */
uint32_t nvm_hf_undefined_bits(const nvm_hf_word *w);
/* The field's position as the manual writes it (l->abs_bits): "1:0" for a
 * register field, "(128*32+1):(128*32+0)" in RAMIN, "(5+0*32):(4+0*32)" in
 * RAMRL (dword of copy idx). Returns buf. */
const char *nvm_hf_bits_text(const nvm_hf_layout *l, const nvm_hf_word *w, unsigned idx, const nvm_hf_field *f,
                             char *buf, size_t len);

/* ---------------------------------------------------------------- problems */

/* What a checker can find. nvm_hf_check_info gives each one's name, the
 * effect the hardware documents and the document that says so. */
typedef enum nvm_hf_check {
	/* runlist structure (seed 000 section 5): SCHED_ERROR BAD_TSG */
	NVM_HF_CHAN_OUTSIDE_TSG = 0, /* a channel entry not inside a TSG */
	NVM_HF_TSG_LENGTH_ZERO,      /* a TSG header with TSG_LENGTH 0 */
	NVM_HF_TSG_TOO_LONG,         /* TSG_LENGTH above 128 (TSG_LENGTH_MAX) */
	NVM_HF_TSG_CUT_BY_TSG,       /* a TSG header before the previous TSG's channels were all seen */
	NVM_HF_TSG_CUT_BY_END,       /* the runlist ends inside a TSG */
	/* fields */
	NVM_HF_STRAY_BITS,       /* bits set outside every field of a runlist entry */
	NVM_HF_USERD_ALIGN,      /* a USERD pointer that is not 512-byte aligned */
	NVM_HF_UNDEFINED_TARGET, /* an aperture value the manual does not define */
	NVM_HF_SIGNATURE,        /* RAMFC SIGNATURE_HW not HW_VALID or HOST_CLASS_ID: INTR_0 SIGNATURE */
	NVM_HF_GPPTR,            /* GP_PUT/GP_GET/GP_FETCH >= 2^LIMIT2: INTR_0 GPPTR */
	NVM_HF_GPFIFO,           /* the GPFIFO ring crosses 2^40: INTR_0 GPFIFO */
	NVM_HF_PDB_INVALID,      /* PAGE_DIR_BASE_TARGET INVALID: unbound (UNBOUND_INST_BLOCK) */
	NVM_HF_OLD_PT_FORMAT,    /* USE_VER2_PT_FORMAT FALSE: UNBOUND_INST_BLOCK */
	NVM_HF_BIG_PAGE_128K,    /* BIG_PAGE_SIZE 128KB: UNBOUND_INST_BLOCK */
	NVM_HF_ENGINE_CS,        /* NV_RAMIN_ENGINE_CS not WFI */
	NVM_HF_CHECK_COUNT
} nvm_hf_check;

typedef enum nvm_hf_severity {
	NVM_HF_ERROR = 0,   /* the hardware raises the effect below */
	NVM_HF_WARNING = 1, /* malformed, but no hardware effect is documented */
} nvm_hf_severity;

typedef struct nvm_hf_check_info {
	const char *id; /* "chan_outside_tsg" (JSON, tests) */
	nvm_hf_severity severity;
	const char *effect; /* "SCHED_ERROR BAD_TSG (code 0x20)"; NULL if none documented */
	const char *text;   /* what is wrong, one line */
	const char *cite;   /* the document section */
} nvm_hf_check_info;

/* NULL for a code out of range. */
const nvm_hf_check_info *nvm_hf_check_get(nvm_hf_check code);

typedef struct nvm_hf_problem {
	nvm_hf_check code;
	uint32_t where;    /* runlist: entry index; RAMIN/RAMFC/USERD: dword index */
	int sub;           /* subcontext for NV_RAMIN_SC_* checks, else -1 */
	const char *field; /* manual name of the field or dword concerned (static), or NULL */
	uint64_t value;    /* the offending value (see nvm_hf_problem_text) */
	uint64_t limit;    /* the bound, other entry or mask it is measured against */
} nvm_hf_problem;

/* One line describing p, without the effect ("NV_RAMFC_GP_PUT 0x400 is not
 * below 2^LIMIT2 = 0x400"). Returns the length snprintf would have written. */
int nvm_hf_problem_text(const nvm_hf_problem *p, char *buf, size_t len);

/* ---------------------------------------------------------------- RAMFC, RAMIN */

typedef struct nvm_ramfc_info {
	uint32_t signature_hw, signature_sw; /* NV_PPBDMA_SIGNATURE_HW / _SW */
	uint64_t gp_base;                    /* GPFIFO virtual address: GP_BASE_OFFSET, GP_BASE_HI_OFFSET */
	unsigned limit2;                     /* NV_PPBDMA_GP_BASE_HI_LIMIT2: log2 of the entries */
	uint32_t gp_put, gp_get, gp_fetch;   /* GP entry indices */
	unsigned userd_target;               /* NV_PPBDMA_USERD_TARGET */
	uint64_t userd_addr;                 /* ADDR 31:9 and USERD_HI ADDR 7:0 */
	uint64_t pb_get, pb_put, pb_top_level_get, pb_fetch; /* 40-bit PB addresses */
	bool pb_top_level_get_valid;                         /* TOP_LEVEL_GET_HI_VALID */
	uint32_t ref;                                        /* NV_PPBDMA_REF_CNT */
	uint64_t sem_addr;                                   /* SEM_ADDR_HI/LO */
	uint64_t sem_payload;                                /* SEM_PAYLOAD_HI/LO */
	unsigned subdevice_id;                               /* NV_PPBDMA_SUBDEVICE_ID */
	bool subdevice_active, channel_dma;                  /* SUBDEVICE_STATUS, SUBDEVICE_CHANNEL_DMA */
	unsigned target_engine;                              /* NV_PPBDMA_TARGET_ENGINE */
	bool eng_ctx_valid, ce_ctx_valid;                    /* NV_PPBDMA_TARGET_*_CTX_VALID */
	bool auth_privileged, userd_writeback;               /* NV_PPBDMA_CONFIG_AUTH_LEVEL, _USERD_WRITEBACK */
	bool acquire_timeout_en;                             /* NV_PPBDMA_ACQUIRE_TIMEOUT_EN */
	uint64_t acquire_timeout_ns;                         /* 1024 * TIMEOUT_MAN * 2^TIMEOUT_EXP */
	uint64_t acquire_retry_clk;                          /* RETRY_MAN * 2^RETRY_EXP nvclk cycles */
	unsigned veid;                                       /* NV_PPBDMA_SET_CHANNEL_INFO_VEID */
} nvm_ramfc_info;

typedef struct nvm_ramin_pdb {
	unsigned target;             /* PAGE_DIR_BASE_TARGET: 0 VID_MEM, 1 INVALID, 2/3 SYS_MEM */
	bool vol;                    /* PAGE_DIR_BASE_VOL */
	bool replay_tex, replay_gcc; /* PAGE_DIR_BASE_FAULT_REPLAY_TEX / _GCC */
	int ver2;                    /* USE_VER2_PT_FORMAT */
	int big_page_64k;            /* BIG_PAGE_SIZE: 1 = 64KB, 0 = 128KB */
	uint64_t addr;               /* PAGE_DIR_BASE_HI:LO, 4 KiB aligned */
	bool ats;                    /* ENABLE_ATS */
	uint32_t pasid;              /* PASID */
} nvm_ramin_pdb;

typedef struct nvm_ramin_info {
	nvm_ramfc_info fc;
	nvm_ramin_pdb pdb;                  /* NV_RAMIN_PAGE_DIR_BASE_*, ENABLE_ATS, PASID */
	unsigned wfi_target;                /* NV_RAMIN_ENGINE_WFI_TARGET */
	bool wfi_virtual;                   /* NV_RAMIN_ENGINE_WFI_MODE */
	bool engine_cs_fg;                  /* NV_RAMIN_ENGINE_CS (must be WFI = 0) */
	uint64_t wfi_ptr;                   /* ENGINE_WFI_PTR_HI:LO */
	unsigned wfi_veid;                  /* NV_RAMIN_ENGINE_WFI_VEID */
	uint64_t method_buffer;             /* ENG_METHOD_BUFFER_ADDR_HI:LO (a BAR2 virtual address) */
	uint64_t sc_pdb_valid;              /* NV_RAMIN_SC_PDB_VALID(i), bit i */
	nvm_ramin_pdb sc[NVM_RAMIN_SUBCTX]; /* NV_RAMIN_SC_*(i) */
} nvm_ramin_info;

void nvm_ramfc_decode(const uint8_t ramfc[NVM_RAMFC_SIZE], nvm_ramfc_info *out);
void nvm_ramin_decode(const uint8_t inst[NVM_RAMIN_SIZE], nvm_ramin_info *out);

/* Each checker writes at most max problems to out (out may be NULL when max
 * is 0) and returns how many it found (which may be more than max). */
size_t nvm_ramfc_check(const uint8_t ramfc[NVM_RAMFC_SIZE], nvm_hf_problem *out, size_t max);
/* RAMFC (the first 512 bytes) and the memory-management state. */
size_t nvm_ramin_check(const uint8_t inst[NVM_RAMIN_SIZE], nvm_hf_problem *out, size_t max);
/* The same for chip's Host (NULL or a chip without one: gv100's): its RAMFC
 * layout says which SIGNATURE_HW HOST_CLASS_ID is valid and whether RAMFC
 * holds USERD. nvm_ramfc_check / nvm_ramin_check are gv100's. */
size_t nvm_ramin_check_chip(const char *chip, const uint8_t inst[NVM_RAMIN_SIZE], nvm_hf_problem *out, size_t max);

/* ---------------------------------------------------------------- USERD */

typedef struct nvm_userd_info {
	uint32_t gp_put, gp_get;  /* NV_RAMUSERD_GP_PUT / _GP_GET */
	uint64_t get, put;        /* GET_HI:GET, PUT_HI:PUT (40-bit PB addresses) */
	uint64_t top_level_get;   /* TOP_LEVEL_GET_HI:TOP_LEVEL_GET */
	bool top_level_get_valid; /* NV_PPBDMA_TOP_LEVEL_GET_HI_VALID */
	uint32_t ref;             /* NV_RAMUSERD_REF */
} nvm_userd_info;

void nvm_userd_decode(const uint8_t userd[NVM_USERD_SIZE], nvm_userd_info *out);
/* limit2: the channel's GP_BASE_HI_LIMIT2 when known (GP_PUT and GP_GET are
 * checked against 2^limit2), or -1. */
size_t nvm_userd_check(const uint8_t userd[NVM_USERD_SIZE], int limit2, nvm_hf_problem *out, size_t max);

/* ---------------------------------------------------------------- runlists */

#define NVM_RL_TYPE_CHAN 0u /* NV_RAMRL_ENTRY_TYPE_CHAN */
#define NVM_RL_TYPE_TSG  1u /* NV_RAMRL_ENTRY_TYPE_TSG */

typedef struct nvm_rl_entry {
	uint32_t dw[4]; /* the raw entry (decode fills it; encode ignores it) */
	unsigned type;  /* NV_RAMRL_ENTRY_TYPE */
	unsigned id;    /* NV_RAMRL_ENTRY_ID: CHID of a channel, TSGID of a TSG */
	/* TSG header */
	unsigned tsg_length;        /* NV_RAMRL_ENTRY_TSG_LENGTH */
	unsigned timeslice_scale;   /* NV_RAMRL_ENTRY_TSG_TIMESLICE_SCALE */
	unsigned timeslice_timeout; /* NV_RAMRL_ENTRY_TSG_TIMESLICE_TIMEOUT */
	uint64_t timeslice_ns;      /* nvm_rl_timeslice_ns(scale, timeout) */
	/* channel */
	unsigned runqueue_selector; /* NV_RAMRL_ENTRY_CHAN_RUNQUEUE_SELECTOR */
	unsigned inst_target;       /* NV_RAMRL_ENTRY_CHAN_INST_TARGET */
	unsigned userd_target;      /* NV_RAMRL_ENTRY_CHAN_USERD_TARGET */
	uint64_t inst_addr;         /* (INST_PTR_HI << 32) | (INST_PTR_LO << 12) */
	uint64_t userd_addr;        /* (USERD_PTR_HI << 32) | (USERD_PTR_LO << 8) */
	/* bits set outside the fields of this entry type, per dword */
	uint32_t stray[4];
} nvm_rl_entry;

/* The TSG timeslice, (TIMEOUT << SCALE) * 1024 ns; a zero timeslice counts
 * as one (seed 000 section 5). */
uint64_t nvm_rl_timeslice_ns(unsigned scale, unsigned timeout);

void nvm_rl_entry_decode(const uint8_t e[NVM_RL_ENTRY_SIZE], nvm_rl_entry *out);
/* nvm_rl_entry_decode as the chip's Host reads an entry (Ampere: the id
 * is ID_HW 10:0, bit 11 a stray bit); false for a chip without a Host. */
bool nvm_rl_entry_decode_chip(const char *chip, const uint8_t e[NVM_RL_ENTRY_SIZE], nvm_rl_entry *out);
/* Builds an entry from the fields of in (type, id and the fields of that
 * type; out-of-range values are truncated to their fields) plus in->stray. */
void nvm_rl_entry_encode(const nvm_rl_entry *in, uint8_t out[NVM_RL_ENTRY_SIZE]);

/* Most problems one step of the checkers below reports. */
#define NVM_RL_STEP_MAX 4

/* Problems of one entry taken alone (stray bits, targets, alignment), at
 * most NVM_RL_STEP_MAX; index is the entry's position, for out[].where. */
size_t nvm_rl_entry_check(const nvm_rl_entry *e, uint32_t index, nvm_hf_problem out[NVM_RL_STEP_MAX]);

/* The TSG structure of a runlist, one entry at a time: feed every entry in
 * order to nvm_rl_walk_step, then call nvm_rl_walk_end. Each reports the
 * SCHED_ERROR BAD_TSG cases of seed 000 section 5 it finds. After a problem
 * the walk goes on (a TSG header always opens a new TSG; a TSG of length 0
 * opens none) so every problem of a runlist is listed; the Host itself
 * raises the interrupt at the first. */
typedef struct nvm_rl_walker {
	uint32_t next;      /* index of the next entry */
	bool in_tsg;        /* a TSG is open */
	uint32_t tsg_index; /* index of the last TSG header */
	uint32_t tsg_left;  /* channel entries the open TSG still expects */
	uint32_t tsgs, chans;
	/* role of the entry just stepped: */
	bool member; /* 1: a channel of the TSG at tsg_index; 0 otherwise */
} nvm_rl_walker;

void nvm_rl_walk_init(nvm_rl_walker *w);
size_t nvm_rl_walk_step(nvm_rl_walker *w, const nvm_rl_entry *e, nvm_hf_problem out[NVM_RL_STEP_MAX]);
size_t nvm_rl_walk_end(nvm_rl_walker *w, nvm_hf_problem out[NVM_RL_STEP_MAX]);

/* A whole runlist of count entries (16 * count bytes at rl): the walker and
 * nvm_rl_entry_check on every entry, problems in entry order (for each
 * entry the walker's first), then nvm_rl_walk_end's. */
size_t nvm_rl_check(const uint8_t *rl, size_t count, nvm_hf_problem *out, size_t max);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
