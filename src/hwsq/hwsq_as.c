/*
 * HWSQ assembler (docs/hwsq.md "Assembly syntax"). Two passes over the
 * source: the first places labels, the second emits bytes. Mnemonics,
 * encodings and variant availability come from the opcode table
 * (hwsq_isa.c); flag and event names from the variant. It takes envyas'
 * text (envytools easm: #NAME, octal 0NN) and whole envydis listings.
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
	uint32_t pc; /* no code RAM bound: callers check the size they need */
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

/* The base of number t and where its digits start: 0x hex, 0 octal (as
 * envyas and C read "010"), 0b binary (an nvmodel extension), else decimal. */
static int number_base(const char *t, const char **digits)
{
	*digits = t;
	if (t[0] != '0' || !t[1])
		return 10;
	if (t[1] == 'x' || t[1] == 'X' || t[1] == 'b' || t[1] == 'B') {
		*digits = t + 2;
		return t[1] == 'x' || t[1] == 'X' ? 16 : 2;
	}
	*digits = t + 1;
	return 8;
}

/* A number or a label. */
static bool value(struct as *a, const char *t, uint64_t *out)
{
	if (isdigit((unsigned char)t[0])) {
		const char *p;
		int base = number_base(t, &p);
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

/* A flag or event operand: a number, a name of the variant (as envyas
 * takes it, "#NAME"), or an old name (hwsq_aliases). UNVERIFIED: beyond
 * envyas, for scripts written for earlier nvmodel, names may also be lower
 * case and come as $name or bare (docs/fidelity.md). */
static bool named(struct as *a, const char *t, bool event, uint64_t *out)
{
	const char *kind = event ? "event" : "flag";
	const char *n = (t[0] == '#' || t[0] == '$') ? t + 1 : t;
	if (isdigit((unsigned char)n[0]))
		return value_max(a, n, 31, kind, out);
	const char *const *names = event ? a->v->event_names : a->v->flag_names;
	for (unsigned i = 0; i < 32; i++) {
		if (names[i] && !strcasecmp(names[i], n)) {
			*out = i;
			return true;
		}
	}
	for (size_t i = 0; i < hwsq_naliases; i++) {
		if (hwsq_aliases[i].event == event && !strcasecmp(hwsq_aliases[i].name, n)) {
			*out = hwsq_aliases[i].num;
			return true;
		}
	}
	return fail(a, "unknown %s '%s' on %s", kind, t, a->v->name);
}

/* Any length, as envyas: whether the code fits the code RAM is the
 * uploader's question (docs/hwsq.md). Pass 2 runs only once pass 1 has
 * found that the output fits cap. */
static bool emit_byte(struct as *a, uint8_t b)
{
	if (a->pc == UINT32_MAX)
		return fail(a, "program longer than 4 GiB");
	if (a->pass == 2) {
		if (a->pc >= a->cap) /* pass 1 sized it; kept for safety */
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
		if (!need_args(a, op->name, nargs, 1) || !named(a, tok[1], false, &x))
			return false;
		return emit_byte(a, (uint8_t)(op->match | x));
	case HO_EVENT:
		if (!need_args(a, op->name, nargs, 2) || !named(a, tok[1], true, &x) ||
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

/* " xx" or " ??" of envydis' byte column: two hex digits (or ??) alone. */
static bool is_byte_col(const char *p)
{
	bool hex = isxdigit((unsigned char)p[0]) && isxdigit((unsigned char)p[1]);
	bool missing = p[0] == '?' && p[1] == '?';
	return (hex || missing) && (p[2] == 0 || p[2] == ' ' || p[2] == '\t' || p[2] == '\r');
}

/* envydis' full form puts "%08x:" and the opcode's bytes before the
 * instruction (envydis/core-dis.c); both are dropped, so a whole listing
 * assembles: the text, not the stale bytes, says what to emit. A line is
 * a listing line only with at least one byte: "deadbeef: exit" stays a
 * label (no mnemonic is two hex digits). */
static char *skip_listing_cols(char *s)
{
	char *p = s + strspn(s, " \t");
	for (int i = 0; i < 8; i++)
		if (!isxdigit((unsigned char)p[i]))
			return s;
	if (p[8] != ':')
		return s;
	char *q = p + 9, *r;
	bool bytes = false;
	while (r = q + strspn(q, " \t"), is_byte_col(r)) {
		q = r + 2;
		bytes = true;
	}
	return bytes ? q : s;
}

/* envydis' markers (" [unknown: ...]", "[incomplete]", "???"): the listing
 * shows bytes no text can express, so it cannot assemble back. */
static bool envydis_marker(struct as *a, const char *s)
{
	if (!strstr(s, "[unknown") && !strstr(s, "[incomplete") && !strstr(s, "???"))
		return false;
	return !fail(a, "envydis could not decode this line (a [...] marker, or \?\?\?): "
	                "only valid code assembles back");
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
		char *line = skip_listing_cols(buf);
		if (envydis_marker(a, line))
			break;
		char *tok[MAX_TOKENS];
		int n = tokenize(a, line, tok);
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

/* Both passes; pass 2 only when pass 1's size fits the output. */
static nvm_status assemble(struct as *a)
{
	if (!pass(a, 1))
		return NVM_ERR_ARG;
	if (a->pc > a->cap) {
		a->line = 0;
		fail(a, "the program is 0x%x bytes, the output buffer 0x%zx", a->pc, a->cap);
		return NVM_ERR_RANGE;
	}
	return pass(a, 2) ? NVM_OK : NVM_ERR_ARG;
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
	nvm_status st = assemble(a);
	*outlen = st == NVM_OK || st == NVM_ERR_RANGE ? a->pc : 0;
	free(a);
	return st;
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
