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

/* Known flags (envytools hwsq.rst "The known flags are", names from rnndb
 * pbus.xml nv_pbus_hwsq_flag_0/1). Flags 0-3 and 14-15 live in 60081c;
 * UNVERIFIED: the 60281c / CR4d mirrors of those bits are not modelled. */
#define F_GPIO(n, name, b)     [n] = { name, 0x60081cu, b }
#define F_DAC(n, name, reg, b) [n] = { name, reg, b }
#define FLAGS_NV17_G80                                                                                                 \
	F_GPIO(0, "gpio_2_out", 0), F_GPIO(1, "gpio_2_oe", 1), F_GPIO(2, "gpio_3_out", 4), F_GPIO(3, "gpio_3_oe", 5),  \
	        F_DAC(6, "pramdac0_unk880_29", 0x680880u, 29), F_DAC(7, "pramdac1_unk880_29", 0x682880u, 29),          \
	        [27] = { "pwm_0_enable", 0x10f0u, 31 }, [28] = { "pbus_debug_1_unk22", 0x1084u, 22 },                  \
	        [29] = { "pbus_debug_1_unk24", 0x1084u, 24 }, [30] = { "pbus_debug_1_unk26", 0x1084u, 26 },            \
	        [31] = { "pbus_debug_1_unk27", 0x1084u, 27 }

/* seed 004 "Events" / rnndb HWSQ_EVENTS (NV41+). */
#define EVENTS_NV41                                                                                                    \
	{                                                                                                              \
		"fb_paused", "crtc0_vblank", "crtc0_hblank", "crtc1_vblank", "crtc1_hblank"                            \
	}

/* nv17 variant, profile nv17: flags 4/5 are NV17:NV40, 14/15 NV31:G80 (so
 * not on NV17 itself), no FB_PAUSE, no PWM 1/2. */
const struct hwsq_variant hwsq_var_nv17 = {
	NVM_HWSQ_NV17,
	"nv17",
	"nv17",
	0x40,
	2,
	false,
	false,
	false,
	false,
	false,
	{ FLAGS_NV17_G80, F_DAC(4, "pramdac0_unk880_28", 0x680880u, 28),
	  F_DAC(5, "pramdac1_unk880_28", 0x682880u, 28) },
	{ NULL },
};

/* The nv17 variant as NV40 has it (profile nv40): NV40 is past NV31 and
 * not before NV40, so flags 14/15 but not 4/5. */
const struct hwsq_variant hwsq_var_nv40 = {
	NVM_HWSQ_NV17,
	"nv17",
	"nv40",
	0x40,
	2,
	false,
	false,
	false,
	false,
	false,
	{ FLAGS_NV17_G80, F_GPIO(14, "gpio_9_out", 28), F_GPIO(15, "gpio_9_oe", 29) },
	{ NULL },
};

const struct hwsq_variant hwsq_var_nv41 = {
	NVM_HWSQ_NV41,
	"nv41",
	"nv41",
	0x80,
	2,
	true,
	true,
	false,
	true,
	false,
	{ FLAGS_NV17_G80, F_GPIO(14, "gpio_9_out", 28), F_GPIO(15, "gpio_9_oe", 29), [16] = { "fb_pause", 0, 0 },
	  [25] = { "pwm_2_enable", 0x15fcu, 31 }, [26] = { "pwm_1_enable", 0x15f4u, 31 } },
	EVENTS_NV41,
};

const struct hwsq_variant hwsq_var_g80 = {
	NVM_HWSQ_G80, "g80", "g80", 0x100, 2, true, true, false, true, true, { [16] = { "fb_pause", 0, 0 } },
	EVENTS_NV41,
};

const struct hwsq_variant hwsq_var_g92 = {
	NVM_HWSQ_G92, "g92", "g92", 0x200, 1, true, false, true, true, true, { [16] = { "fb_pause", 0, 0 } },
	EVENTS_NV41,
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
	return var && n < 32 ? var->flags[n].name : NULL;
}

const char *nvm_hwsq_event_name(nvm_hwsq_variant v, unsigned n)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	return var && n < 32 ? var->events[n] : NULL;
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

/* The only flag and event names envydis -m hwsq knows (envytools
 * envydis/hwsq.c tabfl/tabevent), printed as "#NAME" labels; the variant's
 * descriptive names (v->flags, v->events) are accepted by the assembler. */
static const char *const dis_flag_names[32] = { [16] = "BUS_PAUSE" };
static const char *const dis_event_names[4] = { [1] = "CRTC0_VBLANK", [3] = "CRTC1_VBLANK" };

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

/* Formats the operands of op from the instruction bytes b[0..len). */
static char *put_insn(char *p, const struct hwsq_op *op, const uint8_t *b, uint32_t arg[2], uint8_t *nargs)
{
	p = put_str(p, op->name);
	*nargs = 0;
	switch (op->opnd) {
	case HO_NONE: break;
	case HO_WAIT:
		arg[0] = FIELD_GET(b[0], 1, 0);
		arg[1] = FIELD_GET(b[0], 5, 2) * 2;
		*nargs = 2;
		p = put_str(p, " ");
		p = put_hex(p, arg[0]);
		p = put_str(p, " shl ");
		p = put_hex(p, arg[1]);
		break;
	case HO_FLAG:
		arg[0] = FIELD_GET(b[0], 4, 0);
		*nargs = 1;
		*p++ = ' ';
		p = put_named(p, dis_flag_names[arg[0]], arg[0]);
		break;
	case HO_EVENT:
		/* envydis: the event is bits 12:8 unless byte 1 is exactly a named
		 * event, the value bit 16. */
		arg[0] = b[1] & 0x1f;
		arg[1] = b[2] & 1;
		*nargs = 2;
		*p++ = ' ';
		p = put_named(p, b[1] < 4 ? dis_event_names[b[1]] : NULL, arg[0]);
		*p++ = ' ';
		p = put_hex(p, arg[1]);
		break;
	case HO_IMM16:
		arg[0] = (uint32_t)b[1] | (uint32_t)b[2] << 8;
		*nargs = 1;
		*p++ = ' ';
		p = put_hex(p, arg[0]);
		break;
	case HO_IMM32:
		arg[0] = (uint32_t)b[1] | (uint32_t)b[2] << 8 | (uint32_t)b[3] << 16 | (uint32_t)b[4] << 24;
		*nargs = 1;
		*p++ = ' ';
		p = put_hex(p, arg[0]);
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

nvm_status nvm_hwsq_dis_init(nvm_hwsq_dis *d, nvm_hwsq_variant v, int quiet)
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
			uint32_t arg[2];
			uint8_t n;
			p = put_insn(p, tab[b], bytes, arg, &n);
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
	char *p = put_insn(out->text, op, b, out->arg, &out->nargs);
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
	uint32_t arg[2];
	uint8_t n, res[5];
	p = put_insn(p, op, b, arg, &n);
	if (unused_bits(op, b, res))
		p = put_unknown(p, res, op->len, avail);
	if (avail < op->len)
		p = put_str(p, " [incomplete]");
	*p++ = '\n';
	*p = 0;
	*pos = at + avail;
	return (size_t)(p - line);
}
