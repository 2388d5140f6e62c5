/* The --hex input of the pb tools: 32-bit words in hex text. Kept apart
 * from the command (it prints nothing) so that a fuzz target can drive it. */
#ifndef NVM_HEXWORDS_H
#define NVM_HEXWORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hex_error {
	unsigned line; /* 1-based line of the bad word */
	size_t at;     /* its offset in the text */
	size_t len;    /* how much of it to show (at most 40 bytes) */
	bool oom;      /* out of memory instead */
};

/* Words separated by spaces, tabs, commas or newlines, "0x" optional, at
 * most 8 hex digits each. On success *out is malloc'd (never NULL) with *n
 * words; on failure returns false and fills *err. */
bool hex_words(const uint8_t *text, size_t len, uint32_t **out, size_t *n, struct hex_error *err);

#endif
