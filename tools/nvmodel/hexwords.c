#include <stdlib.h>

#include "hexwords.h"

static bool is_sep(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',';
}

static int hex_digit(uint8_t d)
{
	if (d >= '0' && d <= '9')
		return d - '0';
	if (d >= 'a' && d <= 'f')
		return d - 'a' + 10;
	if (d >= 'A' && d <= 'F')
		return d - 'A' + 10;
	return -1;
}

/* One token t[0..tl) as a word; false when it is not one. */
static bool parse_word(const uint8_t *t, size_t tl, uint32_t *v)
{
	if (tl >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
		t += 2;
		tl -= 2;
	}
	if (tl < 1 || tl > 8)
		return false;
	*v = 0;
	for (size_t k = 0; k < tl; k++) {
		int d = hex_digit(t[k]);
		if (d < 0)
			return false;
		*v = *v << 4 | (uint32_t)d;
	}
	return true;
}

bool hex_words(const uint8_t *text, size_t len, uint32_t **out, size_t *n, struct hex_error *err)
{
	size_t cap = 1024, count = 0;
	uint32_t *w = malloc(cap * sizeof(*w));
	unsigned line = 1;
	size_t i = 0;
	*err = (struct hex_error){ 0 };
	while (w && i < len) {
		if (is_sep(text[i])) {
			line += text[i] == '\n';
			i++;
			continue;
		}
		size_t start = i;
		while (i < len && !is_sep(text[i]))
			i++;
		uint32_t v;
		if (!parse_word(text + start, i - start, &v)) {
			*err = (struct hex_error){ line, start, i - start > 40 ? 40 : i - start, false };
			free(w);
			return false;
		}
		if (count == cap) {
			uint32_t *nw = realloc(w, (cap *= 2) * sizeof(*w));
			if (!nw)
				free(w);
			w = nw;
			if (!w)
				break;
		}
		w[count++] = v;
	}
	if (!w) {
		err->oom = true;
		return false;
	}
	*out = w;
	*n = count;
	return true;
}
