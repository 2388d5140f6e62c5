/*
 * HWSQ assembler (docs/hwsq.md "Assembly syntax"). Two passes over the
 * source: the first places labels, the second emits bytes. Mnemonics,
 * encodings and variant availability come from the opcode table
 * (hwsq_isa.c); flag and event names from the variant.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "hwsq_internal.h"

#define MAX_LABELS 256
#define MAX_TOKENS 16
#define LABEL_LEN  48

struct label {
	char name[LABEL_LEN];
	uint32_t addr;
};

struct as {
	const struct hwsq_variant *v;
	const char *src;
	size_t len, pos;
	int line;
	bool in_comment;
	int pass; /* 1: place labels, 2: emit */
	uint8_t *out;
	size_t cap;
	uint32_t pc;
	struct label labels[MAX_LABELS];
	size_t nlabels;
	nvm_hwsq_asm_error *err;
	bool failed;
};

static bool fail(struct as *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct as *a, const char *fmt, ...)
{
	if (a->failed)
		return false;
	a->failed = true;
	a->err->line = a->line;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->err->message, sizeof(a->err->message), fmt, ap);
	va_end(ap);
	return false;
}

/* Copies the next source line into buf with comments removed. */
static bool next_line(struct as *a, char *buf, size_t cap)
{
	if (a->pos >= a->len)
		return false;
	a->line++;
	size_t n = 0;
	bool too_long = false;
	while (a->pos < a->len && a->src[a->pos] != '\n') {
		char c = a->src[a->pos];
		char d = a->pos + 1 < a->len ? a->src[a->pos + 1] : 0;
		if (a->in_comment) {
			if (c == '*' && d == '/') {
				a->in_comment = false;
				a->pos++;
			}
			a->pos++;
			continue;
		}
		if (c == '/' && d == '*') {
			a->in_comment = true;
			a->pos += 2;
			if (n + 1 < cap)
				buf[n++] = ' ';
			continue;
		}
		if (c == '/' && d == '/') {
			while (a->pos < a->len && a->src[a->pos] != '\n')
				a->pos++;
			break;
		}
		if (c == 0 || (c < 0x20 && c != '\t' && c != '\r'))
			c = '\x01'; /* flagged as a stray character below */
		if (n + 1 < cap)
			buf[n++] = c;
		else
			too_long = true;
		a->pos++;
	}
	if (a->pos < a->len)
		a->pos++; /* the newline */
	buf[n] = 0;
	if (too_long)
		fail(a, "line too long");
	return true;
}

static bool is_ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '.' || c == '$' || c == '#';
}

/* Splits a line into tokens (whitespace or commas separate them). Labels
 * "name:" come back with their colon. */
static int tokenize(struct as *a, char *s, char *tok[MAX_TOKENS])
{
	int n = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == ',')
			s++;
		if (!*s)
			return n;
		if (n == MAX_TOKENS) {
			fail(a, "too many operands");
			return -1;
		}
		tok[n++] = s;
		while (*s && is_ident_char(*s))
			s++;
		if (*s == ':')
			s++;
		if (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != ',') {
			if ((unsigned char)*s < 0x20)
				fail(a, "stray control character");
			else
				fail(a, "unexpected character '%c'", *s);
			return -1;
		}
		if (*s)
			*s++ = 0;
	}
}

static struct label *find_label(struct as *a, const char *name)
{
	for (size_t i = 0; i < a->nlabels; i++)
		if (!strcmp(a->labels[i].name, name))
			return &a->labels[i];
	return NULL;
}

/* A number (decimal, 0x hex, 0b binary) or a label. */
static bool value(struct as *a, const char *t, uint64_t *out)
{
	if (isdigit((unsigned char)t[0])) {
		int base = 10;
		const char *p = t;
		if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
			base = 16, p += 2;
		else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
			base = 2, p += 2;
		if (!*p)
			return fail(a, "bad number '%s'", t);
		uint64_t v = 0;
		for (; *p; p++) {
			int d = isdigit((unsigned char)*p)    ? *p - '0'
			        : isxdigit((unsigned char)*p) ? tolower((unsigned char)*p) - 'a' + 10
			                                      : 99;
			if (d >= base || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
				return fail(a, "bad number '%s'", t);
			v = v * (uint64_t)base + (uint64_t)d;
		}
		*out = v;
		return true;
	}
	if (isalpha((unsigned char)t[0]) || t[0] == '_') {
		struct label *l = find_label(a, t);
		if (l) {
			*out = l->addr;
			return true;
		}
		if (a->pass == 1) {
			*out = 0;
			return true;
		}
		return fail(a, "undefined label '%s'", t);
	}
	return fail(a, "expected a number, got '%s'", t);
}

static bool value_max(struct as *a, const char *t, uint64_t max, const char *what, uint64_t *out)
{
	if (!value(a, t, out))
		return false;
	if (*out > max)
		return fail(a, "%s 0x%llx out of range (0..0x%llx)", what, (unsigned long long)*out,
		            (unsigned long long)max);
	return true;
}

/* The names envydis prints (envytools envydis/hwsq.c): encodings, valid on
 * every variant, as envyas accepts them. */
static const struct {
	const char *kind, *name;
	unsigned num;
} envy_names[] = {
	{ "flag", "BUS_PAUSE", 16 },
	{ "event", "CRTC0_VBLANK", 1 },
	{ "event", "CRTC1_VBLANK", 3 },
};

/* A flag or event operand: #name, $name, name, or a number. Names are the
 * envydis ones or the variant's descriptive ones (docs/hwsq.md). */
static bool named(struct as *a, const char *t, const char *kind, const char *const *names, size_t stride, uint64_t max,
                  uint64_t *out)
{
	const char *n = (t[0] == '#' || t[0] == '$') ? t + 1 : t;
	if (isdigit((unsigned char)n[0]))
		return value_max(a, n, max, kind, out);
	for (size_t i = 0; i < sizeof(envy_names) / sizeof(envy_names[0]); i++) {
		if (!strcmp(kind, envy_names[i].kind) && !strcasecmp(n, envy_names[i].name)) {
			*out = envy_names[i].num;
			return true;
		}
	}
	for (unsigned i = 0; i < 32; i++) {
		const char *nm = *(const char *const *)((const char *)names + i * stride);
		if (nm && !strcasecmp(nm, n)) {
			*out = i;
			return true;
		}
	}
	return fail(a, "unknown %s '%s' on %s", kind, t, a->v->name);
}

/* A flag operand. The descriptive names are those of every chip the
 * variant covers (the nv17 variant spans NV17, with flags 4/5, and NV31+,
 * with flags 14/15): a name is an encoding, and the variant has it. */
static bool flag_operand(struct as *a, const char *t, uint64_t *out)
{
	static const struct hwsq_variant *const profiles[] = {
		&hwsq_var_nv17, &hwsq_var_nv40, &hwsq_var_nv41, &hwsq_var_g80, &hwsq_var_g92,
	};
	const char *n = (t[0] == '#' || t[0] == '$') ? t + 1 : t;
	for (size_t p = 0; p < sizeof(profiles) / sizeof(profiles[0]); p++) {
		const struct hwsq_variant *v = profiles[p];
		for (unsigned i = 0; v->id == a->v->id && i < 32; i++) {
			if (v->flags[i].name && !strcasecmp(v->flags[i].name, n)) {
				*out = i;
				return true;
			}
		}
	}
	return named(a, t, "flag", &a->v->flags[0].name, sizeof(a->v->flags[0]), 31, out);
}

static bool emit_byte(struct as *a, uint8_t b)
{
	if (a->pc >= a->v->code_size)
		return fail(a, "code does not fit the %s code RAM (0x%x bytes)", a->v->name, a->v->code_size);
	if (a->pass == 2) {
		if (a->pc >= a->cap)
			return fail(a, "output buffer too small");
		a->out[a->pc] = b;
	}
	a->pc++;
	return true;
}

static bool emit_le(struct as *a, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!emit_byte(a, (uint8_t)(v >> (8 * i))))
			return false;
	return true;
}

static bool need_args(struct as *a, const char *mn, int got, int want)
{
	if (got != want)
		return fail(a, "'%s' takes %d operand%s, got %d", mn, want, want == 1 ? "" : "s", got);
	return true;
}

static bool directive(struct as *a, char **tok, int n)
{
	static const struct {
		const char *name;
		unsigned size;
	} dirs[] = {
		{ ".b8", 1 },
		{ ".b16", 2 },
		{ ".b32", 4 },
	};
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		if (strcasecmp(tok[0], dirs[i].name))
			continue;
		if (n < 2)
			return fail(a, "'%s' needs at least one value", tok[0]);
		uint64_t max = dirs[i].size == 4 ? 0xffffffffu : (1u << (8 * dirs[i].size)) - 1;
		for (int k = 1; k < n; k++) {
			uint64_t v;
			if (!value_max(a, tok[k], max, "value", &v) || !emit_le(a, v, dirs[i].size))
				return false;
		}
		return true;
	}
	return fail(a, "unknown directive '%s'", tok[0]);
}

static bool insn(struct as *a, char **tok, int n)
{
	const struct hwsq_op *op = NULL;
	for (size_t i = 0; i < hwsq_nops; i++)
		if (!strcasecmp(tok[0], hwsq_ops[i].name))
			op = &hwsq_ops[i];
	if (!op)
		return fail(a, "unknown mnemonic '%s'", tok[0]);
	if (op->nv41 && !a->v->nv41_ops)
		return fail(a, "'%s' needs an NV41+ variant (%s has no MMIO pokes or event waits)", op->name,
		            a->v->name);
	int nargs = n - 1;
	uint64_t x, y;
	switch (op->opnd) {
	case HO_NONE: return need_args(a, op->name, nargs, 0) && emit_byte(a, op->match);
	case HO_WAIT:
		/* wait LEN [shl SHIFT*2] (seed 004 "PTIMER wait opcodes"). */
		if (nargs != 1 && !(nargs == 3 && !strcasecmp(tok[2], "shl")))
			return fail(a, "'wait' takes LEN [shl SHIFT] (LEN 0..3, SHIFT even 0..30)");
		if (!value_max(a, tok[1], 3, "wait length", &x))
			return false;
		y = 0;
		if (nargs == 3 && !value_max(a, tok[3], 30, "wait shift", &y))
			return false;
		if (y & 1)
			return fail(a, "wait shift %llu is odd (it is written premultiplied by 2)",
			            (unsigned long long)y);
		return emit_byte(a, (uint8_t)FIELD_SET(FIELD_SET(op->match, 1, 0, x), 5, 2, y / 2));
	case HO_FLAG:
		if (!need_args(a, op->name, nargs, 1) || !flag_operand(a, tok[1], &x))
			return false;
		return emit_byte(a, (uint8_t)(op->match | x));
	case HO_EVENT:
		if (!need_args(a, op->name, nargs, 2) ||
		    !named(a, tok[1], "event", &a->v->events[0], sizeof(a->v->events[0]), 31, &x) ||
		    !value_max(a, tok[2], 1, "event value", &y))
			return false;
		return emit_byte(a, op->match) && emit_byte(a, (uint8_t)x) && emit_byte(a, (uint8_t)y);
	case HO_IMM16:
		return need_args(a, op->name, nargs, 1) && value_max(a, tok[1], 0xffff, "immediate", &x) &&
		       emit_byte(a, op->match) && emit_le(a, x, 2);
	case HO_IMM32:
		return need_args(a, op->name, nargs, 1) && value_max(a, tok[1], 0xffffffffu, "immediate", &x) &&
		       emit_byte(a, op->match) && emit_le(a, x, 4);
	}
	return fail(a, "internal: bad operand kind");
}

static bool define_label(struct as *a, char *t)
{
	size_t n = strlen(t) - 1;
	t[n] = 0;
	if (!n || !(isalpha((unsigned char)t[0]) || t[0] == '_'))
		return fail(a, "bad label name '%s'", t);
	if (n >= LABEL_LEN)
		return fail(a, "label name '%s' too long", t);
	if (a->pass == 2)
		return true;
	if (find_label(a, t))
		return fail(a, "label '%s' defined twice", t);
	if (a->nlabels == MAX_LABELS)
		return fail(a, "too many labels");
	struct label *l = &a->labels[a->nlabels++];
	memcpy(l->name, t, n + 1);
	l->addr = a->pc;
	return true;
}

static bool pass(struct as *a, int which)
{
	a->pass = which;
	a->pos = 0;
	a->line = 0;
	a->pc = 0;
	a->in_comment = false;
	char buf[512];
	while (!a->failed && next_line(a, buf, sizeof(buf))) {
		char *tok[MAX_TOKENS];
		int n = tokenize(a, buf, tok);
		if (n < 0)
			break;
		int i = 0;
		while (i < n && tok[i][strlen(tok[i]) - 1] == ':')
			if (!define_label(a, tok[i++]))
				break;
		if (a->failed || i == n)
			continue;
		if (tok[i][0] == '.')
			directive(a, tok + i, n - i);
		else
			insn(a, tok + i, n - i);
	}
	if (!a->failed && a->in_comment) {
		a->line = 0;
		fail(a, "unterminated /* comment");
	}
	return !a->failed;
}

static bool assemble(struct as *a)
{
	return pass(a, 1) && pass(a, 2);
}

nvm_status nvm_hwsq_assemble(nvm_hwsq_variant v, const char *src, size_t srclen, uint8_t *out, size_t cap,
                             size_t *outlen, nvm_hwsq_asm_error *err)
{
	nvm_hwsq_asm_error dummy;
	if (!err)
		err = &dummy;
	memset(err, 0, sizeof(*err));
	const struct hwsq_variant *var = hwsq_variant_get(v);
	if (!var || (!src && srclen) || (!out && cap) || !outlen)
		return NVM_ERR_ARG;
	struct as *a = calloc(1, sizeof(*a));
	if (!a)
		return NVM_ERR_NOMEM;
	*a = (struct as){ .v = var, .src = src, .len = srclen, .out = out, .cap = cap, .err = err };
	bool ok = assemble(a);
	*outlen = ok ? a->pc : 0;
	free(a);
	return ok ? NVM_OK : NVM_ERR_ARG;
}

long nvm_hwsq_asm_label(nvm_hwsq_variant v, const char *src, size_t srclen, const char *label)
{
	const struct hwsq_variant *var = hwsq_variant_get(v);
	if (!var || !src || !label)
		return -1;
	struct as *a = calloc(1, sizeof(*a));
	if (!a)
		return -1;
	nvm_hwsq_asm_error err;
	*a = (struct as){ .v = var, .src = src, .len = srclen, .err = &err };
	long r = -1;
	if (pass(a, 1)) {
		struct label *l = find_label(a, label);
		if (l)
			r = l->addr;
	}
	free(a);
	return r;
}
