/*
 * HWSQ instruction set and variants (seed 004 "Opcodes", "Flags", "Events";
 * envytools hwsq.rst known-flags table). The opcode table below is the one
 * description of the encoding: the disassembler here, the assembler
 * (hwsq_as.c) and the interpreter (hwsq.c) all read it.
 */
#include <string.h>
#include <strings.h>

#include "hwsq_internal.h"

/* seed 004 "Opcodes": the first byte selects the opcode and its length. */
const struct hwsq_op hwsq_ops[] = {
	/* 0x00 is a wait of 0 clocks; envydis names it "nop" (its first row). */
	{ 0x00, 0xff, 1, HK_WAIT, HO_NONE, false, "nop" },      { 0x00, 0xc0, 1, HK_WAIT, HO_WAIT, false, "wait" },
	{ 0x40, 0xff, 3, HK_ADDRLO, HO_IMM16, true, "addrlo" }, { 0x42, 0xff, 3, HK_DATALO, HO_IMM16, true, "datalo" },
	{ 0x5f, 0xff, 3, HK_EWAIT, HO_EVENT, true, "ewait" },   { 0x7f, 0xff, 1, HK_EXIT, HO_NONE, false, "exit" },
	{ 0x80, 0xe0, 1, HK_UNSET, HO_FLAG, false, "unset" },   { 0xa0, 0xe0, 1, HK_SET1, HO_FLAG, false, "set1" },
	{ 0xc0, 0xe0, 1, HK_SET0, HO_FLAG, false, "set0" },     { 0xe0, 0xff, 5, HK_ADDR, HO_IMM32, true, "addr" },
	{ 0xe2, 0xff, 5, HK_DATA, HO_IMM32, true, "data" },
};
const size_t hwsq_nops = sizeof(hwsq_ops) / sizeof(hwsq_ops[0]);

/* The model's override targets: seed 004's known-flags table (envytools
 * hwsq.rst) with its chip ranges applied to each profile. Flags 0-3 and
 * 14-15 live in 60081c; UNVERIFIED: the 60281c / CR4d mirrors of those bits
 * are not modelled. */
#define F(n, reg, b) [n] = { reg, b }
/* NV17:G80: GPIO_2_OUT/OE, GPIO_3_OUT/OE (60081c bits 0, 1, 4, 5),
 * PRAMDAC0/1_UNK880_29, PWM_0_ENABLE, PBUS_DEBUG_1_UNK22/24/26/27. */
#define TARGETS_NV17_G80                                                                                               \
	F(0, 0x60081cu, 0), F(1, 0x60081cu, 1), F(2, 0x60081cu, 4), F(3, 0x60081cu, 5), F(6, 0x680880u, 29),           \
	        F(7, 0x682880u, 29), F(27, 0x10f0u, 31), F(28, 0x1084u, 22), F(29, 0x1084u, 24), F(30, 0x1084u, 26),   \
	        F(31, 0x1084u, 27)
/* NV17:NV40 (hwsq.rst): PRAMDAC0/1_UNK880_28. */
#define TARGETS_NV17_NV40 F(4, 0x680880u, 28), F(5, 0x682880u, 28)
/* NV31:G80 (hwsq.rst): GPIO_9_OUT, GPIO_9_OE. */
#define TARGETS_NV31_G80 F(14, 0x60081cu, 28), F(15, 0x60081cu, 29)
/* NV41:G80 (hwsq.rst): PWM_2_ENABLE, PWM_1_ENABLE. */
#define TARGETS_NV41_G80 F(25, 0x15fcu, 31), F(26, 0x15f4u, 31)

/* The names current envydis prints (envytools master, envydis/hwsq.c
 * tabfl/tabevent, checked at commit 946d711370af; rnndb pbus.xml has the
 * same names): its features nv17f (nv17 and nv41 variants), nv41f (nv41)
 * and nv41op (nv41 and g80, the FB_PAUSE flag and the events). Text only.
 * UNVERIFIED: envydis names flags 4/5 on nv41 and 14/15 on nv17 where
 * hwsq.rst's ranges (the targets above) leave them out; g92 takes envydis'
 * g80 ("G80+") names (docs/fidelity.md). */
#define NAMES_NV17F                                                                                                    \
	[0] = "GPIO_2_OUT", [1] = "GPIO_2_OE", [2] = "GPIO_3_OUT", [3] = "GPIO_3_OE", [4] = "PRAMDAC0_UNK880_28",      \
	[5] = "PRAMDAC1_UNK880_28", [6] = "PRAMDAC0_UNK880_29", [7] = "PRAMDAC1_UNK880_29", [14] = "GPIO_9_OUT",       \
	[15] = "GPIO_9_OE", [27] = "PWM_0_ENABLE", [28] = "PBUS_DEBUG_1_UNK22", [29] = "PBUS_DEBUG_1_UNK24",           \
	[30] = "PBUS_DEBUG_1_UNK26", [31] = "PBUS_DEBUG_1_UNK27"

static const char *const flag_names_nv17[32] = { NAMES_NV17F };
static const char *const flag_names_nv41[32] = {
	NAMES_NV17F,
	[16] = "FB_PAUSE",
	[25] = "PWM_2_ENABLE",
	[26] = "PWM_1_ENABLE",
};
static const char *const flag_names_g80[32] = { [16] = "FB_PAUSE" };
/* Matched on the whole event byte: 0x21 is event 1 with bit 13 set, and
 * prints as a number with the stray bit flagged. */
static const char *const event_names_nv41[32] = {
	"FB_PAUSED", "HEAD0_VBLANK", "HEAD0_HBLANK", "HEAD1_VBLANK", "HEAD1_HBLANK",
};
static const char *const no_names[32];

/* envydis before the rename (2012: envydis/hwsq.c tabfl/tabevent) printed
 * BUS_PAUSE, CRTC0_VBLANK and CRTC1_VBLANK, and earlier nvmodel took the
 * CRTC names of hwsq.rst's event list: old listings and scripts use them. */
const struct hwsq_alias hwsq_aliases[] = {
	{ "BUS_PAUSE", false, 16 },  { "CRTC0_VBLANK", true, 1 }, { "CRTC0_HBLANK", true, 2 },
	{ "CRTC1_VBLANK", true, 3 }, { "CRTC1_HBLANK", true, 4 },
};
const size_t hwsq_naliases = sizeof(hwsq_aliases) / sizeof(hwsq_aliases[0]);

/* nv17 variant, profile nv17: flags 4/5 are NV17:NV40, 14/15 NV31:G80 (so
 * not on NV17 itself), no FB_PAUSE, no PWM 1/2. */
const struct hwsq_variant hwsq_var_nv17 = {
	.id = NVM_HWSQ_NV17,
	.name = "nv17",
	.chip = "nv17",
	.code_size = 0x40,
	.nslots = 2,
	.nv41_ops = false,
	.illegal_hang = false,
	.ip_high = false,
	.fb_pause = false,
	.pause_mmio = false,
	.flags = { TARGETS_NV17_G80, TARGETS_NV17_NV40 },
	.flag_names = flag_names_nv17,
	.event_names = no_names,
};

/* The nv17 variant as NV40 has it (profile nv40): NV40 is past NV31 and
 * not before NV40, so flags 14/15 but not 4/5. */
const struct hwsq_variant hwsq_var_nv40 = {
	.id = NVM_HWSQ_NV17,
	.name = "nv17",
	.chip = "nv40",
	.code_size = 0x40,
	.nslots = 2,
	.nv41_ops = false,
	.illegal_hang = false,
	.ip_high = false,
	.fb_pause = false,
	.pause_mmio = false,
	.flags = { TARGETS_NV17_G80, TARGETS_NV31_G80 },
	.flag_names = flag_names_nv17,
	.event_names = no_names,
};

const struct hwsq_variant hwsq_var_nv41 = {
	.id = NVM_HWSQ_NV41,
	.name = "nv41",
	.chip = "nv41",
	.code_size = 0x80,
	.nslots = 2,
	.nv41_ops = true,
	.illegal_hang = true,
	.ip_high = false,
	.fb_pause = true,
	.pause_mmio = false,
	.flags = { TARGETS_NV17_G80, TARGETS_NV31_G80, TARGETS_NV41_G80 },
	.flag_names = flag_names_nv41,
	.event_names = event_names_nv41,
};

/* G80+: only FB_PAUSE (flag 16, no register target) is known. */
const struct hwsq_variant hwsq_var_g80 = {
	.id = NVM_HWSQ_G80,
	.name = "g80",
	.chip = "g80",
	.code_size = 0x100,
	.nslots = 2,
	.nv41_ops = true,
	.illegal_hang = true,
	.ip_high = false,
	.fb_pause = true,
	.pause_mmio = true,
	.flags = { { 0 } },
	.flag_names = flag_names_g80,
	.event_names = event_names_nv41,
};

/* envydis has no g92 variant: its g80 one ("G80+") covers G92. */
const struct hwsq_variant hwsq_var_g92 = {
	.id = NVM_HWSQ_G92,
	.name = "g92",
	.chip = "g92",
	.code_size = 0x200,
	.nslots = 1,
	.nv41_ops = true,
	.illegal_hang = false,
	.ip_high = true,
	.fb_pause = true,
	.pause_mmio = true,
	.flags = { { 0 } },
	.flag_names = flag_names_g80,
	.event_names = event_names_nv41,
};

static const struct hwsq_variant *const variants[NVM_HWSQ_VARIANT_COUNT] = {
	&hwsq_var_nv17,
	&hwsq_var_nv41,
	&hwsq_var_g80,
	&hwsq_var_g92,
};

const struct hwsq_variant *hwsq_variant_get(nvm_hwsq_variant v)
{
	return (unsigned)v < NVM_HWSQ_VARIANT_COUNT ? variants[v] : NULL;
}

nvm_status nvm_hwsq_variant_parse(const char *name, nvm_hwsq_variant *out)
{
	if (!name || !out)
		return NVM_ERR_ARG;
	for (unsigned i = 0; i < NVM_HWSQ_VARIANT_COUNT; i++) {
		if (!strcasecmp(name, variants[i]->name)) {
			*out = (nvm_hwsq_variant)i;
			return NVM_OK;
		}
	}
	return NVM_ERR_ARG;
}

const char *nvm_hwsq_variant_name(nvm_hwsq_variant v)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	return var ? var->name : NULL;
}

const char *nvm_hwsq_variant_chip(nvm_hwsq_variant v)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	return var ? var->chip : NULL;
}

uint32_t nvm_hwsq_code_size(nvm_hwsq_variant v)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	return var ? var->code_size : 0;
}

const char *nvm_hwsq_flag_name(nvm_hwsq_variant v, unsigned n)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	return var && n < 32 ? var->flag_names[n] : NULL;
}

const char *nvm_hwsq_event_name(nvm_hwsq_variant v, unsigned n)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	return var && n < 32 ? var->event_names[n] : NULL;
}

void hwsq_decode_table(const struct hwsq_variant *v, const struct hwsq_op *tab[256])
{
	for (unsigned b = 0; b < 256; b++) {
		tab[b] = NULL;
		for (size_t i = 0; i < hwsq_nops; i++) {
			const struct hwsq_op *op = &hwsq_ops[i];
			if ((b & op->mask) == op->match && (!op->nv41 || v->nv41_ops)) {
				tab[b] = op;
				break;
			}
		}
	}
}

/* ---------------------------------------------------------------- text */

static const char hexdig[] = "0123456789abcdef";

/* "0x%x" without printf: the disassembler's hot path. */
static char *put_hex(char *p, uint32_t v)
{
	*p++ = '0';
	*p++ = 'x';
	int n = 1;
	while (n < 8 && (v >> (4 * n)))
		n++;
	for (int i = n - 1; i >= 0; i--)
		*p++ = hexdig[(v >> (4 * i)) & 15];
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);
	memcpy(p, s, n);
	return p + n;
}

/* A flag or event: "#NAME" where envydis names it, else its number. */
static char *put_named(char *p, const char *name, uint32_t n)
{
	if (name) {
		*p++ = '#';
		return put_str(p, name);
	}
	return put_hex(p, n);
}

/* Bits of an instruction no field decodes, as envydis reports them
 * (" [unknown: xx ...]"): all of an unknown opcode, and in ewait bits 15:13
 * of the event byte and 23:17 of the value byte. Returns whether any is set. */
static bool unused_bits(const struct hwsq_op *op, const uint8_t *b, uint8_t res[5])
{
	memset(res, 0, 5);
	if (!op)
		res[0] = b[0];
	else if (op->opnd == HO_EVENT) {
		res[1] = b[1] & 0xe0;
		res[2] = b[2] & 0xfe;
	}
	return res[0] | res[1] | res[2];
}

/* " [unknown: xx xx ??]": one group per opcode byte, ?? past the input. */
static char *put_unknown(char *p, const uint8_t res[5], size_t len, size_t avail)
{
	p = put_str(p, " [unknown:");
	for (size_t i = 0; i < len; i++) {
		*p++ = ' ';
		*p++ = i < avail ? hexdig[res[i] >> 4] : '?';
		*p++ = i < avail ? hexdig[res[i] & 15] : '?';
	}
	*p++ = ']';
	return p;
}

/* The public operand kind of each encoding (nvm_hwsq_insn.opnd). */
static const nvm_hwsq_operand opnd_kind[] = {
	[HO_NONE] = NVM_HWSQ_OPND_NONE,   [HO_WAIT] = NVM_HWSQ_OPND_WAIT, [HO_FLAG] = NVM_HWSQ_OPND_FLAG,
	[HO_EVENT] = NVM_HWSQ_OPND_EVENT, [HO_IMM16] = NVM_HWSQ_OPND_IMM, [HO_IMM32] = NVM_HWSQ_OPND_IMM,
};

/* Formats op of variant v from the instruction bytes b[0..len) and fills
 * the operand fields of in. */
static char *put_insn(char *p, const struct hwsq_variant *v, const struct hwsq_op *op, const uint8_t *b,
                      nvm_hwsq_insn *in)
{
	p = put_str(p, op->name);
	in->opnd = opnd_kind[op->opnd];
	in->nargs = 0;
	in->name = NULL;
	switch (op->opnd) {
	case HO_NONE: break;
	case HO_WAIT:
		in->arg[0] = FIELD_GET(b[0], 1, 0);
		in->arg[1] = FIELD_GET(b[0], 5, 2) * 2;
		in->nargs = 2;
		p = put_str(p, " ");
		p = put_hex(p, in->arg[0]);
		p = put_str(p, " shl ");
		p = put_hex(p, in->arg[1]);
		break;
	case HO_FLAG:
		in->arg[0] = FIELD_GET(b[0], 4, 0);
		in->nargs = 1;
		in->name = v->flag_names[in->arg[0]];
		*p++ = ' ';
		p = put_named(p, in->name, in->arg[0]);
		break;
	case HO_EVENT:
		/* envydis: a name when byte 1 is exactly a named event, else the
		 * event from bits 12:8; the value is bit 16. */
		in->arg[0] = b[1] & 0x1f;
		in->arg[1] = b[2] & 1;
		in->nargs = 2;
		in->name = b[1] < 32 ? v->event_names[b[1]] : NULL;
		*p++ = ' ';
		p = put_named(p, in->name, in->arg[0]);
		*p++ = ' ';
		p = put_hex(p, in->arg[1]);
		break;
	case HO_IMM16:
		in->arg[0] = (uint32_t)b[1] | (uint32_t)b[2] << 8;
		in->nargs = 1;
		*p++ = ' ';
		p = put_hex(p, in->arg[0]);
		break;
	case HO_IMM32:
		in->arg[0] = (uint32_t)b[1] | (uint32_t)b[2] << 8 | (uint32_t)b[3] << 16 | (uint32_t)b[4] << 24;
		in->nargs = 1;
		*p++ = ' ';
		p = put_hex(p, in->arg[0]);
		break;
	}
	return p;
}

/* envydis' byte column: " xx" per byte of the opcode, " ??" for bytes
 * past the end of the input, "   " up to the longest opcode (5), then two
 * spaces, the two (here empty) branch-target marks and a space. */
static char *put_bytes_col(char *p, const uint8_t *b, size_t len, size_t avail)
{
	for (size_t i = 0; i < 5; i++) {
		*p++ = ' ';
		*p++ = i >= len ? ' ' : i < avail ? hexdig[b[i] >> 4] : '?';
		*p++ = i >= len ? ' ' : i < avail ? hexdig[b[i] & 15] : '?';
	}
	return put_str(p, "     ");
}

nvm_status nvm_hwsq_dis_init(nvm_hwsq_dis *d, nvm_hwsq_variant v, bool quiet)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	if (!d || !var)
		return NVM_ERR_ARG;
	memset(d, 0, sizeof(*d));
	d->variant = v;
	d->quiet = quiet;
	const struct hwsq_op *tab[256];
	hwsq_decode_table(var, tab);
	for (unsigned b = 0; b < 256; b++) {
		d->op[b] = tab[b];
		char *p = d->one[b];
		uint8_t bytes[5] = { (uint8_t)b };
		if (tab[b] && tab[b]->len != 1)
			continue; /* formatted per instruction */
		if (!quiet)
			p = put_bytes_col(p, bytes, 1, 1);
		uint8_t res[5];
		if (!tab[b]) {
			p = put_str(p, "???");
			if (unused_bits(NULL, bytes, res))
				p = put_unknown(p, res, 1, 1);
			p = put_str(p, " [unknown instruction]");
		} else {
			nvm_hwsq_insn in;
			p = put_insn(p, var, tab[b], bytes, &in);
		}
		*p++ = '\n';
		d->one_len[b] = (uint8_t)(p - d->one[b]);
	}
	return NVM_OK;
}

void nvm_hwsq_decode(const nvm_hwsq_dis *d, const uint8_t *code, size_t len, size_t pos, nvm_hwsq_insn *out)
{
	memset(out, 0, sizeof(*out));
	if (!d || !code || pos >= len) {
		out->mnemonic = "???";
		return;
	}
	const struct hwsq_op *op = d->op[code[pos]];
	uint8_t b[5] = { 0 };
	if (!op) {
		out->mnemonic = "???";
		out->len = out->avail = 1;
		memcpy(out->text, "???", 4);
		return;
	}
	size_t avail = len - pos < op->len ? len - pos : op->len;
	memcpy(b, code + pos, avail);
	out->mnemonic = op->name;
	out->len = op->len;
	out->avail = (uint8_t)avail;
	out->known = 1;
	char *p = put_insn(out->text, hwsq_variant_get(d->variant), op, b, out);
	*p = 0;
}

size_t nvm_hwsq_dis_next(const nvm_hwsq_dis *d, const uint8_t *code, size_t len, size_t *pos, char *line)
{
	size_t at = *pos;
	uint8_t first = code[at];
	const struct hwsq_op *op = d->op[first];
	char *p = line;
	if (!d->quiet) {
		/* "%08x:" */
		for (int i = 3; i >= 0; i--) {
			uint8_t x = (uint8_t)(at >> (8 * i));
			*p++ = hexdig[x >> 4];
			*p++ = hexdig[x & 15];
		}
		*p++ = ':';
	}
	if (!op || op->len == 1) {
		/* The hot path: one fixed-size copy of the pre-formatted tail. */
		memcpy(p, d->one[first], sizeof(d->one[first]));
		p += d->one_len[first];
		*p = 0;
		*pos = at + 1;
		return (size_t)(p - line);
	}
	size_t avail = len - at < op->len ? len - at : op->len;
	uint8_t b[5] = { 0 };
	memcpy(b, code + at, avail);
	if (!d->quiet)
		p = put_bytes_col(p, b, op->len, avail);
	nvm_hwsq_insn in;
	uint8_t res[5];
	p = put_insn(p, hwsq_variant_get(d->variant), op, b, &in);
	if (unused_bits(op, b, res))
		p = put_unknown(p, res, op->len, avail);
	if (avail < op->len)
		p = put_str(p, " [incomplete]");
	*p++ = '\n';
	*p = 0;
	*pos = at + avail;
	return (size_t)(p - line);
}
