/*
 * GP entries (GPFIFO entries, 8 bytes): gv100_dev_pbdma.ref.txt
 * "GP_ENTRY0 and GP_ENTRY1 - GP-Entry Memory Format", refs/volta-facts.md
 * section a. PRIV (E1 8:8) is only in the class header clc36f.h.
 */
#include "pb_internal.h"

#define GP_ENTRY0_FETCH   0, 0
#define GP_ENTRY0_GET     31, 2
#define GP_ENTRY0_OPERAND 31, 0
/* clc86f.h NVC86F_GP_ENTRY0_PB_EXTENDED_BASE_OPERAND, with GP_ENTRY1
 * OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE (gh100). */
#define GP_ENTRY0_PB_EXTENDED_BASE_OPERAND 24, 8
#define GP_ENTRY1_GET_HI                   7, 0
#define GP_ENTRY1_OPCODE                   7, 0
#define GP_ENTRY1_PRIV                     8, 8
#define GP_ENTRY1_LEVEL                    9, 9
#define GP_ENTRY1_LENGTH                   30, 10
#define GP_ENTRY1_SYNC                     31, 31

/* The last usable PB entry ends here: a segment may not contain the last
 * dword of the 40-bit virtual address space, because PUT (the first byte
 * past the segment) must still be an address. */
#define GP_VA_END 0xfffffffffcull

static const char *const gp_op_names[] = { "nop", "illegal", "gp_crc", "pb_crc", "set_pb_segment_extended_base" };

const char *nvm_pb_gp_op_name(uint32_t opcode)
{
	return opcode <= NVM_PB_GP_PB_CRC ? gp_op_names[opcode] : NULL;
}

const char *nvm_pb_gp_entry_op_name(const nvm_pb_gp_entry *g)
{
	if (!g->control || g->err == NVM_PB_GP_ERR_BAD_OPCODE ||
	    g->opcode >= sizeof(gp_op_names) / sizeof(gp_op_names[0]))
		return NULL;
	return gp_op_names[g->opcode];
}

static const struct {
	const char *name, *message;
} gp_errs[] = {
	[NVM_PB_GP_OK] = { "ok", "valid" },
	[NVM_PB_GP_ERR_ILLEGAL] = { "illegal", "control entry with OPCODE_ILLEGAL" },
	[NVM_PB_GP_ERR_BAD_OPCODE] = { "bad_opcode", "control entry with an undefined OPCODE" },
	[NVM_PB_GP_ERR_END_OF_VA] = { "end_of_va", "PB segment reaches the last dword of the 40-bit address space" },
};

const char *nvm_pb_gp_err_name(nvm_pb_gp_err e)
{
	return (unsigned)e < sizeof(gp_errs) / sizeof(gp_errs[0]) ? gp_errs[e].name : "?";
}

const char *nvm_pb_gp_err_message(nvm_pb_gp_err e)
{
	return (unsigned)e < sizeof(gp_errs) / sizeof(gp_errs[0]) ? gp_errs[e].message : "?";
}

void nvm_pb_gp_decode(uint32_t e0, uint32_t e1, nvm_pb_gp_entry *g)
{
	nvm_pb_gp_decode_gen(e0, e1, false, g);
}

void nvm_pb_gp_decode_gen(uint32_t e0, uint32_t e1, bool extended_base, nvm_pb_gp_entry *g)
{
	*g = (nvm_pb_gp_entry){ .e0 = e0, .e1 = e1 };
	g->length = PB_FIELD(e1, GP_ENTRY1_LENGTH);
	g->control = g->length == 0; /* LENGTH_CONTROL */
	g->priv = PB_FIELD(e1, GP_ENTRY1_PRIV);
	g->level_subroutine = PB_FIELD(e1, GP_ENTRY1_LEVEL);
	g->sync_wait = PB_FIELD(e1, GP_ENTRY1_SYNC);
	if (g->control) {
		g->opcode = PB_FIELD(e1, GP_ENTRY1_OPCODE);
		g->operand = PB_FIELD(e0, GP_ENTRY0_OPERAND);
		nvm_pb_gp_op last = extended_base ? NVM_PB_GP_SET_PB_SEGMENT_EXTENDED_BASE : NVM_PB_GP_PB_CRC;
		if (g->opcode == NVM_PB_GP_ILLEGAL)
			g->err = NVM_PB_GP_ERR_ILLEGAL;
		else if (g->opcode > last)
			g->err = NVM_PB_GP_ERR_BAD_OPCODE;
		else if (g->opcode == NVM_PB_GP_SET_PB_SEGMENT_EXTENDED_BASE)
			g->extended_base = PB_FIELD(e0, GP_ENTRY0_PB_EXTENDED_BASE_OPERAND);
		return;
	}
	g->fetch_conditional = PB_FIELD(e0, GP_ENTRY0_FETCH);
	g->get = ((uint64_t)PB_FIELD(e1, GP_ENTRY1_GET_HI) << 32) + ((uint64_t)PB_FIELD(e0, GP_ENTRY0_GET) << 2);
	if (g->get + (uint64_t)g->length * 4 > GP_VA_END)
		g->err = NVM_PB_GP_ERR_END_OF_VA;
}

/* G80 IB entries: the GP entry's fields without control entries.
 * UNVERIFIED: SIZE is 22 bits (the pseudocode, rnndb G80:GF100); the text
 * calls bit 63 NO_PREFETCH "probably". */
void nvm_pb_ib_decode(uint32_t e0, uint32_t e1, nvm_pb_ib_entry *e)
{
	e->address = (uint64_t)(e1 & 0xffu) << 32 | (e0 & ~3u);
	e->unk8 = (e1 >> 8) & 1;
	e->not_main = (e1 >> 9) & 1;
	e->size = e1 >> 10;
}
