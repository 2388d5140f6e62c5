/*
 * The pushbuffer assembler: text (docs/pushbuf.md "Assembler syntax") to
 * PB entries. Instruction keywords come from a table; method names come
 * from the class tables (classes.c); encoding is encode.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pb_internal.h"

#define MAX_TOKS 64

enum asm_op {
	A_METHOD, /* inc/ninc/1inc/long_ninc S M [data...] */
	A_IMMD,   /* immd S M V */
	A_CTRL0,  /* a control entry without operand */
	A_CTRL1,  /* a control entry with one operand */
};

static const struct asm_kw {
	const char *name;
	uint8_t op;
	uint8_t arg;     /* nvm_pb_mode or nvm_pb_ctrl */
	bool long_form;  /* long_ninc */
	uint8_t formats; /* bit 0 new, bit 1 old */
} asm_kws[] = {
	{ "inc", A_METHOD, NVM_PB_MODE_INC, false, 3 },
	{ "ninc", A_METHOD, NVM_PB_MODE_NINC, false, 3 },
	{ "1inc", A_METHOD, NVM_PB_MODE_1INC, false, 1 },
	{ "long_ninc", A_METHOD, NVM_PB_MODE_NINC, true, 2 },
	{ "immd", A_IMMD, NVM_PB_MODE_IMMD, false, 1 },
	{ "nop", A_CTRL0, NVM_PB_CTRL_NOP, false, 1 },
	{ "set_subdevice_mask", A_CTRL1, NVM_PB_CTRL_SET_SUBDEVICE_MASK, false, 1 },
	{ "store_subdevice_mask", A_CTRL1, NVM_PB_CTRL_STORE_SUBDEVICE_MASK, false, 1 },
	{ "use_subdevice_mask", A_CTRL0, NVM_PB_CTRL_USE_SUBDEVICE_MASK, false, 1 },
	{ "end_segment", A_CTRL0, NVM_PB_CTRL_END_SEGMENT, false, 1 },
	{ "old_jump", A_CTRL1, NVM_PB_CTRL_OLD_JUMP, false, 2 },
	{ "jump", A_CTRL1, NVM_PB_CTRL_JUMP, false, 2 },
	{ "call", A_CTRL1, NVM_PB_CTRL_CALL, false, 2 },
	{ "return", A_CTRL0, NVM_PB_CTRL_RETURN, false, 2 },
	{ "sli_conditional", A_CTRL1, NVM_PB_CTRL_SLI_CONDITIONAL, false, 2 },
};

struct asm_state {
	nvm_pb_asm_result *res;
	nvm_pb_format format;
	const nvm_pb_class *bound[8];
	size_t cap;
	/* the open method sequence ('+' lines add to it) */
	bool open;
	size_t hdr_idx;
	const struct asm_kw *kw;
	uint32_t subch, method, count;
	unsigned line;
};

static bool fail(struct asm_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool fail(struct asm_state *s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(s->res->msg, sizeof(s->res->msg), fmt, ap);
	va_end(ap);
	s->res->line = s->line;
	return false;
}

static bool put(struct asm_state *s, uint32_t w)
{
	nvm_pb_asm_result *r = s->res;
	if (r->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		uint32_t *nw = realloc(r->words, cap * sizeof(*nw));
		if (!nw)
			return fail(s, "out of memory");
		r->words = nw;
		s->cap = cap;
	}
	r->words[r->n++] = w;
	return true;
}

static bool parse_num(const char *t, uint32_t *v)
{
	const char *p = t;
	int base = 10;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (!*p)
		return false;
	uint64_t x = 0;
	for (; *p; p++) {
		int d;
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			return false;
		x = x * (uint64_t)base + (uint64_t)d;
		if (x > 0xffffffffu)
			return false;
	}
	*v = (uint32_t)x;
	return true;
}

static bool num(struct asm_state *s, const char *t, const char *what, uint32_t *v)
{
	if (!parse_num(t, v))
		return fail(s, "bad %s '%s'", what, t);
	return true;
}

/* A method operand: a byte address, NAME or NAME(i) (host class, then the
 * class bound on the subchannel) or TAG.NAME. */
static bool method_operand(struct asm_state *s, const char *t, uint32_t subch, uint32_t *m)
{
	if (parse_num(t, m))
		return true;
	bool ok = false;
	const char *dot = strchr(t, '.');
	if (dot) {
		char tag[8];
		size_t tl = (size_t)(dot - t);
		if (tl < sizeof(tag)) {
			memcpy(tag, t, tl);
			tag[tl] = 0;
			ok = nvm_pb_class_resolve(nvm_pb_class_find_tag(tag), dot + 1, m);
		}
	} else {
		if (s->format == NVM_PB_FORMAT_NEW)
			ok = nvm_pb_class_resolve(nvm_pb_class_find(0xc36f), t, m);
		if (!ok)
			ok = nvm_pb_class_resolve(s->bound[subch], t, m);
	}
	if (!ok)
		return fail(s, "unknown method '%s'", t);
	return true;
}

/* Writes the open sequence's final COUNT into its header. */
static bool close_seq(struct asm_state *s)
{
	if (!s->open)
		return true;
	s->open = false;
	uint32_t *w = &s->res->words[s->hdr_idx];
	if (s->kw->long_form) {
		if (s->count > 0xffffff)
			return fail(s, "long_ninc count %u does not fit 24 bits", s->count);
		w[1] = s->count;
		return true;
	}
	if (!nvm_pb_encode_method(s->format, (nvm_pb_mode)s->kw->arg, s->subch, s->method, s->count, w))
		return fail(s, "%s: %u data entries do not fit COUNT", s->kw->name, s->count);
	return true;
}

/* A SET_OBJECT (new format: method 0 of any subchannel) binds its class for
 * the names that follow, as the decoder does. */
static void follow_set_object(struct asm_state *s, uint32_t subch, uint32_t method, uint32_t v)
{
	if (s->format == NVM_PB_FORMAT_NEW && method == 0)
		s->bound[subch & 7] = nvm_pb_class_find(v & 0xffff);
}

static bool add_data(struct asm_state *s, char **tok, int n)
{
	for (int i = 0; i < n; i++) {
		uint32_t v;
		if (!num(s, tok[i], "data value", &v) || !put(s, v))
			return false;
		uint32_t m = s->method;
		if (s->kw->arg == NVM_PB_MODE_INC)
			m += 4 * s->count;
		else if (s->kw->arg == NVM_PB_MODE_1INC && s->count)
			m += 4;
		follow_set_object(s, s->subch, m, v);
		s->count++;
	}
	return true;
}

static bool do_method(struct asm_state *s, const struct asm_kw *kw, char **tok, int n)
{
	if (n < 3)
		return fail(s, "%s needs a subchannel and a method", kw->name);
	uint32_t subch, m;
	if (!num(s, tok[1], "subchannel", &subch))
		return false;
	if (subch > 7)
		return fail(s, "subchannel %u out of range (0-7)", subch);
	if (!method_operand(s, tok[2], subch, &m))
		return false;
	uint32_t lim = s->format == NVM_PB_FORMAT_NEW ? 0x3ffc : 0x1ffc;
	if ((m & 3) || m > lim)
		return fail(s, "method 0x%x is not a multiple of 4 up to 0x%x", m, lim);
	if (kw->op == A_IMMD) {
		uint32_t v, w;
		if (n != 4)
			return fail(s, "immd needs a subchannel, a method and one value");
		if (!num(s, tok[3], "value", &v))
			return false;
		if (v > 0x1fff)
			return fail(s, "immd value 0x%x does not fit 13 bits", v);
		if (!nvm_pb_encode_method(s->format, NVM_PB_MODE_IMMD, subch, m, v, &w))
			return fail(s, "immd cannot be encoded");
		follow_set_object(s, subch, m, v);
		return put(s, w);
	}
	s->open = true;
	s->hdr_idx = s->res->n;
	s->kw = kw;
	s->subch = subch;
	s->method = m;
	s->count = 0;
	if (!put(s, kw->long_form ? (0x00030000u | subch << 13 | m) : 0))
		return false;
	if (kw->long_form && !put(s, 0))
		return false;
	return add_data(s, tok + 3, n - 3);
}

static bool do_directive(struct asm_state *s, char **tok, int n)
{
	if (!strcmp(tok[0], ".word")) {
		for (int i = 1; i < n; i++) {
			uint32_t v;
			if (!num(s, tok[i], "word", &v) || !put(s, v))
				return false;
		}
		return true;
	}
	if (!strcmp(tok[0], ".format")) {
		if (n != 2 || (strcmp(tok[1], "new") && strcmp(tok[1], "old")))
			return fail(s, ".format needs 'new' or 'old'");
		s->format = tok[1][0] == 'n' ? NVM_PB_FORMAT_NEW : NVM_PB_FORMAT_OLD;
		return true;
	}
	if (!strcmp(tok[0], ".class")) {
		uint32_t subch, id;
		if (n != 3)
			return fail(s, ".class needs a subchannel and a class");
		if (!num(s, tok[1], "subchannel", &subch))
			return false;
		if (subch > 7)
			return fail(s, "subchannel %u out of range (0-7)", subch);
		const nvm_pb_class *c = parse_num(tok[2], &id) ? nvm_pb_class_find(id) : nvm_pb_class_find_tag(tok[2]);
		if (!c)
			return fail(s, "unknown class '%s'", tok[2]);
		s->bound[subch] = c;
		return true;
	}
	return fail(s, "unknown directive '%s'", tok[0]);
}

static bool do_line(struct asm_state *s, char **tok, int n)
{
	if (!strcmp(tok[0], "+")) {
		if (!s->open)
			return fail(s, "'+' without an open method sequence");
		return add_data(s, tok + 1, n - 1);
	}
	if (!close_seq(s))
		return false;
	if (tok[0][0] == '.')
		return do_directive(s, tok, n);
	const struct asm_kw *kw = NULL;
	for (size_t i = 0; i < sizeof(asm_kws) / sizeof(asm_kws[0]); i++)
		if (!strcasecmp(asm_kws[i].name, tok[0]))
			kw = &asm_kws[i];
	if (!kw)
		return fail(s, "unknown instruction '%s'", tok[0]);
	if (!(kw->formats & (s->format == NVM_PB_FORMAT_NEW ? 1 : 2)))
		return fail(s, "'%s' does not exist in the %s format", kw->name,
		            s->format == NVM_PB_FORMAT_NEW ? "new" : "old");
	if (kw->op == A_METHOD || kw->op == A_IMMD)
		return do_method(s, kw, tok, n);
	uint32_t v = 0, w;
	if (kw->op == A_CTRL1) {
		if (n != 2)
			return fail(s, "%s needs one operand", kw->name);
		if (!num(s, tok[1], "operand", &v))
			return false;
	} else if (n != 1) {
		return fail(s, "%s takes no operand", kw->name);
	}
	if (!nvm_pb_encode_control(s->format, (nvm_pb_ctrl)kw->arg, v, &w))
		return fail(s, "%s: operand 0x%x cannot be encoded", kw->name, v);
	return put(s, w);
}

/* Items are separated by blanks or commas; a comma inside parentheses
 * belongs to the item (NAME(i,j)). Stores the next item in *tok (terminated
 * in place) and returns where to continue, or NULL at the end of the line. */
static char *next_token(char *p, char **tok)
{
	while (*p == ' ' || *p == '\t' || *p == '\r' || *p == ',')
		p++;
	if (!*p)
		return NULL;
	*tok = p;
	int depth = 0;
	for (; *p; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')' && depth)
			depth--;
		else if (*p == ' ' || *p == '\t' || *p == '\r' || (*p == ',' && !depth))
			break;
	}
	if (*p)
		*p++ = 0;
	return p;
}

bool nvm_pb_asm(const char *text, size_t len, nvm_pb_format format, nvm_pb_asm_result *res)
{
	*res = (nvm_pb_asm_result){ 0 };
	struct asm_state s = { .res = res, .format = format };
	size_t pos = 0;
	char line[4096];
	while (pos < len) {
		s.line++;
		size_t end = pos;
		while (end < len && text[end] != '\n')
			end++;
		size_t ll = end - pos;
		if (ll >= sizeof(line)) {
			fail(&s, "line longer than %zu characters", sizeof(line) - 1);
			goto err;
		}
		memcpy(line, text + pos, ll);
		line[ll] = 0;
		pos = end + 1;
		char *hash = strpbrk(line, "#;");
		if (hash)
			*hash = 0;
		char *tok[MAX_TOKS];
		int n = 0;
		for (char *p = line; (p = next_token(p, &tok[n])) != NULL;) {
			if (++n == MAX_TOKS) {
				fail(&s, "more than %d items on a line", MAX_TOKS - 1);
				goto err;
			}
		}
		if (n && !do_line(&s, tok, n))
			goto err;
	}
	if (close_seq(&s))
		return true;
err:
	free(res->words);
	res->words = NULL;
	res->n = 0;
	return false;
}
