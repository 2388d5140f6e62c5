/* Snapshot container and the core's sections (issue 22 item 3, the core's
 * part: src/core/snap.c). Round trips of registers and model-owned memory;
 * a truncated, corrupted or foreign snapshot is refused and changes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"

static nvm_gpu *open_gpu(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 4u << 20, .sysmem_size = 4u << 20 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

static uint8_t *save(nvm_gpu *gpu, size_t *len)
{
	struct snap_w w = { 0 };
	assert_int_equal(snap_save_core(gpu, &w), NVM_OK); /* measured */
	uint8_t *buf = malloc(w.len);
	assert_non_null(buf);
	struct snap_w w2 = { .buf = buf, .cap = w.len };
	assert_int_equal(snap_save_core(gpu, &w2), NVM_OK);
	assert_int_equal(w2.len, w.len);
	*len = w.len;
	return buf;
}

/* The core's sections, as nvm_snapshot_load reads them: checked, then
 * restored. *pos gets where they end. */
static nvm_status load_at(nvm_gpu *gpu, const uint8_t *buf, size_t len, size_t *pos)
{
	struct snap_r r = { buf, len, 0, NVM_OK }, r2 = r;
	nvm_status st = snap_load_core(gpu, &r, false);
	if (!st)
		st = snap_load_core(gpu, &r2, true);
	*pos = r2.pos;
	return st;
}

static nvm_status load(nvm_gpu *gpu, const uint8_t *buf, size_t len)
{
	size_t pos;
	return load_at(gpu, buf, len, &pos);
}

/* Every latched register value of a and b is the same. */
static bool same_regs(nvm_gpu *a, nvm_gpu *b)
{
	for (size_t i = 0; i < a->bus.nblocks; i++) {
		const struct reg_block *x = &a->bus.blocks[i], *y = &b->bus.blocks[i];
		if (memcmp(x->vals, y->vals, x->nregs * sizeof(uint32_t)))
			return false;
		for (size_t k = 0; k < x->narrays; k++)
			if (memcmp(x->arrays[k].vals, y->arrays[k].vals,
			           (size_t)x->arrays[k].count * x->arrays[k].nregs * sizeof(uint32_t)))
				return false;
	}
	return true;
}

static bool same_mem(nvm_gpu *a, nvm_gpu *b, nvm_aperture ap)
{
	static uint8_t x[4u << 20], y[4u << 20];
	assert_int_equal(nvm_mem_read(a, ap, 0, x, sizeof(x)), NVM_OK);
	assert_int_equal(nvm_mem_read(b, ap, 0, y, sizeof(y)), NVM_OK);
	return !memcmp(x, y, sizeof(x)) && nvm_mem_pages(a, ap) == nvm_mem_pages(b, ap);
}

/* A GPU that has been written: registers of every block (the latched
 * values, as the blocks' own handlers left them) and pages of both
 * apertures. */
static nvm_gpu *written_gpu(const char *chip)
{
	nvm_gpu *gpu = open_gpu(chip);
	for (size_t i = 0; i < gpu->bus.nblocks; i++) {
		struct reg_block *b = &gpu->bus.blocks[i];
		for (size_t k = 0; k < b->nregs; k++)
			b->vals[k] ^= 0x5a5a0000u + (uint32_t)k; /* every value differs from reset */
	}
	for (uint32_t a = 0; a < (4u << 20); a += 0x11000)
		nvm_mem_wr32(gpu, NVM_AP_VRAM, a, a ^ 0xc0ffee);
	nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x3ffffc, 0x12345678);
	gpu->now = 123456789;
	return gpu;
}

static void round_trip(void **state)
{
	(void)state;
	const char *chips[] = { "gv100", "nv04", "g84", "gh100", "nv01" };
	for (size_t c = 0; c < sizeof(chips) / sizeof(chips[0]); c++) {
		nvm_gpu *a = written_gpu(chips[c]), *b = open_gpu(chips[c]);
		nvm_mem_wr32(b, NVM_AP_VRAM, 0x2000, 0xdead); /* replaced by the load */
		assert_false(same_regs(a, b));
		size_t len;
		uint8_t *buf = save(a, &len);
		assert_int_equal(load(b, buf, len), NVM_OK);
		assert_true(same_regs(a, b));
		assert_true(same_mem(a, b, NVM_AP_VRAM));
		assert_true(same_mem(a, b, NVM_AP_SYSMEM));
		assert_int_equal(nvm_time_ns(b), 123456789);
		/* The same state saves to the same bytes. */
		size_t len2;
		uint8_t *buf2 = save(b, &len2);
		assert_int_equal(len, len2);
		assert_memory_equal(buf, buf2, len);
		free(buf);
		free(buf2);
		nvm_close(a);
		nvm_close(b);
	}
}

static void small_buffer(void **state)
{
	(void)state;
	nvm_gpu *a = written_gpu("gv100");
	struct snap_w w = { 0 };
	assert_int_equal(snap_save_core(a, &w), NVM_OK);
	uint8_t *buf = malloc(w.len);
	struct snap_w w2 = { .buf = buf, .cap = w.len - 1 };
	assert_int_equal(snap_save_core(a, &w2), NVM_ERR_NOMEM);
	free(buf);
	nvm_close(a);
}

/* A refused load changes nothing: b is still a fresh GPU. */
static void assert_untouched(nvm_gpu *b, nvm_gpu *fresh)
{
	assert_true(same_regs(b, fresh));
	assert_int_equal(nvm_mem_pages(b, NVM_AP_VRAM), 0);
	assert_int_equal(nvm_mem_pages(b, NVM_AP_SYSMEM), 0);
	assert_int_equal(nvm_time_ns(b), 0);
}

static void truncated_and_corrupted(void **state)
{
	(void)state;
	nvm_gpu *a = written_gpu("nv04"), *b = open_gpu("nv04"), *fresh = open_gpu("nv04");
	size_t len;
	uint8_t *buf = save(a, &len);
	/* Every length short of the whole, in steps that hit every section. */
	for (size_t n = 0; n < len; n += n < 64 ? 1 : 97) {
		assert_int_not_equal(load(b, buf, n), NVM_OK);
		assert_untouched(b, fresh);
	}
	/* One byte changed anywhere: a header field or a section's CRC. */
	for (size_t i = 0; i < len; i += i < 64 ? 1 : 89) {
		buf[i] ^= 0x40;
		assert_int_not_equal(load(b, buf, len), NVM_OK);
		assert_untouched(b, fresh);
		buf[i] ^= 0x40;
	}
	/* Trailing bytes are not part of a snapshot either. */
	uint8_t *more = malloc(len + 4);
	memcpy(more, buf, len);
	memset(more + len, 0, 4);
	size_t pos;
	assert_int_equal(load_at(b, more, len + 4, &pos), NVM_OK);
	assert_int_equal(pos, len); /* the caller sees what is left */
	free(more);
	assert_int_equal(load(b, buf, len), NVM_OK);
	free(buf);
	nvm_close(a);
	nvm_close(b);
	nvm_close(fresh);
}

static void foreign(void **state)
{
	(void)state;
	nvm_gpu *a = written_gpu("gv100"), *b = open_gpu("tu102");
	size_t len;
	uint8_t *buf = save(a, &len);
	assert_int_equal(load(b, buf, len), NVM_ERR_CHIP);
	/* Another library version: the header names it. */
	nvm_gpu *c = open_gpu("gv100");
	buf[12] ^= 1;
	assert_int_equal(load(c, buf, len), NVM_ERR_VERSION);
	buf[12] ^= 1;
	/* Another memory size. */
	nvm_config cfg = { .chip = "gv100", .vram_size = 8u << 20, .sysmem_size = 4u << 20 };
	nvm_gpu *d;
	assert_int_equal(nvm_open(&cfg, &d), NVM_OK);
	assert_int_equal(load(d, buf, len), NVM_ERR_ARG);
	assert_int_equal(load(c, buf, len), NVM_OK);
	free(buf);
	nvm_close(a);
	nvm_close(b);
	nvm_close(c);
	nvm_close(d);
}

/* Caller-owned memory is the caller's: not saved; a load needs the same
 * ranges in place and leaves their contents alone. */
static void caller_ranges(void **state)
{
	(void)state;
	static uint8_t mine_a[8192], mine_b[8192];
	nvm_gpu *a = written_gpu("gv100"), *b = open_gpu("gv100");
	assert_int_equal(nvm_mem_map_ptr(a, NVM_AP_SYSMEM, 0x100000, 8192, mine_a), NVM_OK);
	nvm_mem_wr32(a, NVM_AP_SYSMEM, 0x100000, 0xaaaa);
	size_t len;
	uint8_t *buf = save(a, &len);
	assert_int_equal(load(b, buf, len), NVM_ERR_ARG);
	assert_int_equal(nvm_mem_map_ptr(b, NVM_AP_SYSMEM, 0x100000, 8192, mine_b), NVM_OK);
	assert_int_equal(load(b, buf, len), NVM_OK);
	assert_int_equal(mine_b[0], 0); /* not the caller-owned bytes of a */
	uint32_t v;
	nvm_mem_rd32(b, NVM_AP_SYSMEM, 0x3ffffc, &v);
	assert_int_equal(v, 0x12345678);
	free(buf);
	nvm_close(a);
	nvm_close(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(small_buffer),
		cmocka_unit_test(truncated_and_corrupted),
		cmocka_unit_test(foreign),
		cmocka_unit_test(caller_ranges),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
