/* A strict JSON (RFC 8259) checker for the fuzz targets that print JSON:
 * one value, UTF-8 text, no trailing garbage. */
#ifndef NVM_FUZZ_JSON_CHECK_H
#define NVM_FUZZ_JSON_CHECK_H
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct jc {
	const unsigned char *p, *end;
	unsigned depth;
};

static void jc_ws(struct jc *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static bool jc_lit(struct jc *j, const char *s)
{
	size_t n = strlen(s);
	if ((size_t)(j->end - j->p) < n || memcmp(j->p, s, n))
		return false;
	j->p += n;
	return true;
}

/* One UTF-8 sequence of 2-4 bytes (no overlongs, surrogates or > U+10FFFF). */
static bool jc_utf8(struct jc *j)
{
	unsigned c = *j->p, n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
	if (c < 0xc2 || c > 0xf4 || (size_t)(j->end - j->p) <= n)
		return false;
	unsigned cp = c & (0x3fu >> n);
	for (unsigned i = 1; i <= n; i++) {
		if ((j->p[i] & 0xc0) != 0x80)
			return false;
		cp = cp << 6 | (j->p[i] & 0x3fu);
	}
	if ((n == 2 && (cp < 0x800 || (cp >= 0xd800 && cp < 0xe000))) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff)))
		return false;
	j->p += n + 1;
	return true;
}

static bool jc_string(struct jc *j)
{
	if (!jc_lit(j, "\""))
		return false;
	while (j->p < j->end) {
		unsigned c = *j->p;
		if (c == '"') {
			j->p++;
			return true;
		}
		if (c < 0x20)
			return false;
		if (c == '\\') {
			if (++j->p == j->end)
				return false;
			if (*j->p == 'u') {
				if (j->end - j->p < 5)
					return false;
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", j->p[i]) || !j->p[i])
						return false;
				j->p += 5;
			} else if (*j->p && strchr("\"\\/bfnrt", *j->p)) {
				j->p++;
			} else {
				return false;
			}
		} else if (c >= 0x80) {
			if (!jc_utf8(j))
				return false;
		} else {
			j->p++;
		}
	}
	return false;
}

static bool jc_digits(struct jc *j)
{
	const unsigned char *s = j->p;
	while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
		j->p++;
	return j->p > s;
}

static bool jc_number(struct jc *j)
{
	if (j->p < j->end && *j->p == '-')
		j->p++;
	if (j->p < j->end && *j->p == '0')
		j->p++;
	else if (!jc_digits(j))
		return false;
	if (j->p < j->end && *j->p == '.') {
		j->p++;
		if (!jc_digits(j))
			return false;
	}
	if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
		j->p++;
		if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
			j->p++;
		if (!jc_digits(j))
			return false;
	}
	return true;
}

static bool jc_value(struct jc *j);

/* An object ('{', members '}') or an array ('[', values ']'). */
static bool jc_container(struct jc *j, char open, char close)
{
	if (!jc_lit(j, open == '{' ? "{" : "[") || ++j->depth > 256)
		return false;
	jc_ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return true;
	}
	for (;;) {
		jc_ws(j);
		if (open == '{') {
			if (!jc_string(j))
				return false;
			jc_ws(j);
			if (!jc_lit(j, ":"))
				return false;
		}
		if (!jc_value(j))
			return false;
		jc_ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return true;
		}
		return false;
	}
}

static bool jc_value(struct jc *j)
{
	jc_ws(j);
	if (j->p == j->end)
		return false;
	switch (*j->p) {
	case '{': return jc_container(j, '{', '}');
	case '[': return jc_container(j, '[', ']');
	case '"': return jc_string(j);
	case 't': return jc_lit(j, "true");
	case 'f': return jc_lit(j, "false");
	case 'n': return jc_lit(j, "null");
	default: return jc_number(j);
	}
}

/* Is s[0..n) exactly one JSON value (whitespace around it allowed)? */
static inline bool json_valid(const char *s, size_t n)
{
	struct jc j = { (const unsigned char *)s, (const unsigned char *)s + n, 0 };
	if (!jc_value(&j))
		return false;
	jc_ws(&j);
	return j.p == j.end;
}
#endif
