/*
 * A snapshot's bytes, for tests that take, damage or rewrite one: little-endian
 * words, the sections (tag 4, length 8, data, CRC-32 4 of the data) after
 * the header, and the CRC a rewritten section needs.
 */
#ifndef NVM_TEST_SNAP_BYTES_H
#define NVM_TEST_SNAP_BYTES_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "nvmodel/nvmodel.h"

#define SNAP_HEADER 44u /* magic 8, format 4, version 16, chip 16 */

/* gpu's snapshot (malloc'd), its length in *len: the size asked first,
 * then the snapshot, which must have that size. */
static inline uint8_t *snap_of(nvm_gpu *gpu, size_t *len)
{
	assert_int_equal(nvm_snapshot_save(gpu, NULL, 0, len), NVM_OK);
	uint8_t *buf = malloc(*len);
	assert_non_null(buf);
	size_t len2;
	assert_int_equal(nvm_snapshot_save(gpu, buf, *len, &len2), NVM_OK);
	assert_int_equal(len2, *len);
	return buf;
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static inline void put32(uint8_t *p, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static inline void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)v);
	put32(p + 4, (uint32_t)(v >> 32));
}

/* The data of the section whose contents start with the block name (a
 * block's) or whose tag is name (ENGS); *n gets its length. */
static inline uint8_t *section(uint8_t *buf, size_t len, const char *name, size_t *n)
{
	size_t pos = SNAP_HEADER;
	*n = 0;
	while (pos + 12 <= len) {
		uint64_t l = get64(buf + pos + 4);
		uint8_t *d = buf + pos + 12;
		if (!memcmp(buf + pos, name, 4) || (!memcmp(buf + pos, "BLK", 3) && !strcmp((const char *)d, name))) {
			*n = (size_t)l;
			return d;
		}
		pos += 12 + (size_t)l + 4;
	}
	fail_msg("no section %s", name);
	return buf; /* not reached (fail_msg ends the test) */
}

/* A copy (malloc'd) of the data of section name of gpu's snapshot, its
 * length in *n. */
static inline uint8_t *section_of(nvm_gpu *gpu, const char *name, size_t *n)
{
	size_t len;
	uint8_t *b = snap_of(gpu, &len);
	uint8_t *d = section(b, len, name, n);
	uint8_t *out = malloc(*n);
	assert_non_null(out);
	memcpy(out, d, *n);
	free(b);
	return out;
}

/* The CRC after a section's n bytes of data d, for its data as it is now. */
static inline void fix_crc(uint8_t *d, size_t n)
{
	put32(d + n, snap_crc32(0, d, n));
}

/* The method log of engine name in the ENGS section's data d (n bytes):
 * the offset of its record past the name (busy_until, at, total, cap,
 * keep, dsize, rsize, seq, rseq at 0, 8, .. 64, log_fast and the flags
 * at 72 and 76, then the run ring of rsize 45-byte records and the data
 * ring of dsize words), 0 if there is none. */
static inline size_t engs_log(const uint8_t *d, size_t n, const char *name)
{
	size_t l = strlen(name);
	for (size_t i = 0; i + 8 + l <= n; i++)
		if (get64(d + i) == l && !memcmp(d + i + 8, name, l))
			return i + 8 + l;
	return 0;
}

#endif
