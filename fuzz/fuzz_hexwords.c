/*
 * The --hex parser of the pb tools (tools/nvmodel/hexwords.c) on arbitrary
 * text. Checks: on success, printing the words back and parsing that gives
 * the same words; on failure, the reported word lies inside the text on a
 * line that exists.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hexwords.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_hexwords: %s\n", what);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t *w;
	size_t n;
	struct hex_error e;
	if (!hex_words(data, size, &w, &n, &e)) {
		check(!e.oom, "out of memory");
		check(e.at < size && e.len >= 1 && e.len <= 40 && e.at + e.len <= size, "error position");
		size_t lines = 1;
		for (size_t i = 0; i < e.at; i++)
			lines += data[i] == '\n';
		check(e.line == lines, "error line");
		return 0;
	}
	char *text = malloc(n * 11 + 1);
	check(text != NULL, "out of memory");
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += (size_t)sprintf(text + len, "0x%x%c", w[i], i % 3 ? ',' : '\n');
	uint32_t *w2;
	size_t n2;
	check(hex_words((const uint8_t *)text, len, &w2, &n2, &e), "printed words do not parse");
	check(n2 == n && !memcmp(w, w2, n * sizeof(*w)), "words differ after a round trip");
	free(w2);
	free(text);
	free(w);
	return 0;
}
