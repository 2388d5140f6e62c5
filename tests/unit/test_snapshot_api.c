/* The public snapshot calls (nvmodel.h "snapshots", issue 22 item 3): every
 * chip that opens saves and loads; the statuses the header documents (bad
 * arguments, a buffer too small, a call from inside a hook, another chip,
 * another version, damage); a refused load changes nothing; peek. The
 * trace-identity cases are test_snap_host and test_snap_pfifo. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvmodel/nvmodel.h"
#include "snap_bytes.h"

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 4u << 20, .sysmem_size = 4u << 20 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

/* A GPU with something in it: memory, a PTIMER alarm pending, time gone by. */
static nvm_gpu *used_gpu(const char *chip)
{
	nvm_gpu *gpu = open_chip(chip);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x1000, 0xcafe), NVM_OK);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x3000, 0xbeef), NVM_OK);
	assert_int_equal(nvm_reg_write(gpu, 0x9140, 0x1), NVM_OK);      /* PTIMER_INTR_EN_0 ALARM */
	assert_int_equal(nvm_reg_write(gpu, 0x9420, 0x100000), NVM_OK); /* ALARM_0: pending */
	nvm_run_opts o = { .ns = 5000 };
	nvm_run(gpu, &o);
	return gpu;
}

static void every_chip(void **state)
{
	(void)state;
	size_t tried = 0;
	for (size_t i = 0; i < nvm_chip_count(); i++) {
		const char *chip = nvm_chip_get(i)->name;
		nvm_config cfg = { .chip = chip, .vram_size = 4u << 20, .sysmem_size = 4u << 20 };
		nvm_gpu *a = NULL;
		if (nvm_open(&cfg, &a))
			continue; /* a decoder profile only */
		nvm_close(a);
		a = used_gpu(chip);
		size_t len, len2;
		uint8_t *buf = snap_of(a, &len);
		nvm_gpu *b = open_chip(chip);
		nvm_status st = nvm_snapshot_load(b, buf, len);
		if (st)
			fail_msg("%s: load: %s", chip, nvm_status_str(st));
		uint8_t *again = snap_of(b, &len2);
		assert_int_equal(len, len2);
		assert_memory_equal(buf, again, len);
		/* The alarm fires in the copy as in the original. */
		nvm_run_opts o = { .ns = 0x200000 };
		nvm_run(a, &o);
		nvm_run(b, &o);
		uint32_t ia = 0, ib = 0;
		assert_int_equal(nvm_reg_read(a, 0x9100, &ia), NVM_OK); /* PTIMER_INTR_0 */
		assert_int_equal(nvm_reg_read(b, 0x9100, &ib), NVM_OK);
		assert_int_equal(ia & 1, 1);
		assert_int_equal(ib & 1, 1);
		assert_int_equal(nvm_time_ns(a), nvm_time_ns(b));
		free(again);
		free(buf);
		nvm_close(a);
		nvm_close(b);
		tried++;
	}
	assert_true(tried >= 10);
}

static void bad_arguments(void **state)
{
	(void)state;
	nvm_gpu *a = used_gpu("gv100");
	size_t len = 0;
	uint8_t b[16];
	assert_int_equal(nvm_snapshot_save(NULL, NULL, 0, &len), NVM_ERR_ARG);
	assert_int_equal(nvm_snapshot_save(a, NULL, 0, NULL), NVM_ERR_ARG);
	assert_int_equal(nvm_snapshot_save(a, NULL, 16, &len), NVM_ERR_ARG);
	assert_int_equal(nvm_snapshot_load(NULL, b, sizeof(b)), NVM_ERR_ARG);
	assert_int_equal(nvm_snapshot_load(a, NULL, 0), NVM_ERR_ARG);
	/* Too small a buffer: the size needed, nothing written past cap. */
	size_t need;
	assert_int_equal(nvm_snapshot_save(a, NULL, 0, &need), NVM_OK);
	uint8_t *buf = malloc(need + 1);
	buf[need - 1] = 0x5a;
	assert_int_equal(nvm_snapshot_save(a, buf, need - 1, &len), NVM_ERR_NOMEM);
	assert_int_equal(len, need);
	assert_int_equal(buf[need - 1], 0x5a);
	free(buf);
	nvm_close(a);
}

struct in_hook {
	nvm_gpu *gpu;
	nvm_status save, load;
	int calls;
};

static void hook_saves(void *user, const nvm_event *ev)
{
	(void)ev;
	struct in_hook *h = user;
	uint8_t b[64] = { 0 };
	size_t len;
	h->save = nvm_snapshot_save(h->gpu, NULL, 0, &len);
	h->load = nvm_snapshot_load(h->gpu, b, sizeof(b));
	h->calls++;
}

/* From inside a hook the model is in the middle of an event. */
static void busy_in_hook(void **state)
{
	(void)state;
	struct in_hook h = { used_gpu("nv04"), NVM_OK, NVM_OK, 0 };
	int id;
	assert_int_equal(nvm_hook_add(h.gpu, NVM_EV_MASK(NVM_EV_UNMODELLED), hook_saves, &h, &id), NVM_OK);
	uint32_t v;
	assert_int_equal(nvm_reg_read(h.gpu, 0xfff000, &v), NVM_OK); /* nothing there: UNMODELLED */
	assert_int_equal(h.calls, 1);
	assert_int_equal(h.save, NVM_ERR_BUSY);
	assert_int_equal(h.load, NVM_ERR_BUSY);
	nvm_close(h.gpu);
}

/* Refused snapshots leave the target as it was: its own snapshot is the
 * same bytes before and after. */
static void refused_changes_nothing(void **state)
{
	(void)state;
	nvm_gpu *a = used_gpu("gv100"), *b = used_gpu("gv100"), *t = used_gpu("tu102");
	assert_int_equal(nvm_mem_wr32(b, NVM_AP_VRAM, 0x2000, 0x1234), NVM_OK);
	size_t len, blen, blen2;
	uint8_t *buf = snap_of(a, &len), *before = snap_of(b, &blen);
	assert_int_equal(nvm_snapshot_load(t, buf, len), NVM_ERR_CHIP);
	nvm_status st[4];
	st[0] = nvm_snapshot_load(b, buf, len / 2);
	buf[len - 1] ^= 1; /* the last section's CRC */
	st[1] = nvm_snapshot_load(b, buf, len);
	buf[len - 1] ^= 1;
	buf[9] ^= 1; /* the format number */
	st[2] = nvm_snapshot_load(b, buf, len);
	buf[9] ^= 1;
	buf[0] ^= 1; /* the magic */
	st[3] = nvm_snapshot_load(b, buf, len);
	buf[0] ^= 1;
	assert_int_equal(st[0], NVM_ERR_CORRUPT);
	assert_int_equal(st[1], NVM_ERR_CORRUPT);
	assert_int_equal(st[2], NVM_ERR_VERSION);
	assert_int_equal(st[3], NVM_ERR_CORRUPT);
	uint8_t *after = snap_of(b, &blen2);
	assert_int_equal(blen, blen2);
	assert_memory_equal(before, after, blen);
	/* Another aperture size. */
	nvm_config cfg = { .chip = "gv100", .vram_size = 8u << 20, .sysmem_size = 4u << 20 };
	nvm_gpu *d;
	assert_int_equal(nvm_open(&cfg, &d), NVM_OK);
	assert_int_equal(nvm_snapshot_load(d, buf, len), NVM_ERR_ARG);
	assert_int_equal(nvm_snapshot_load(b, buf, len), NVM_OK);
	free(after);
	free(before);
	free(buf);
	nvm_close(a);
	nvm_close(b);
	nvm_close(t);
	nvm_close(d);
}

static void peek(void **state)
{
	(void)state;
	nvm_gpu *a = used_gpu("g84");
	size_t len;
	uint8_t *buf = snap_of(a, &len);
	nvm_snapshot_info in;
	assert_int_equal(nvm_snapshot_peek(buf, len, &in), NVM_OK);
	assert_string_equal(in.chip, "g84");
	assert_string_equal(in.version, nvm_version());
	assert_int_equal(in.time_ns, nvm_time_ns(a));
	assert_int_equal(in.vram_size, 4u << 20);
	assert_int_equal(in.sysmem_size, 4u << 20);
	assert_int_equal(in.vram_pages, nvm_mem_pages(a, NVM_AP_VRAM));
	assert_int_equal(in.sysmem_pages, nvm_mem_pages(a, NVM_AP_SYSMEM));
	assert_int_equal(in.vram_ranges + in.sysmem_ranges, 0);
	assert_true(in.sections >= 10);
	assert_int_equal(nvm_snapshot_peek(buf, len - 1, &in), NVM_ERR_CORRUPT);
	assert_int_equal(nvm_snapshot_peek(buf, 20, &in), NVM_ERR_CORRUPT);
	buf[len - 1] ^= 1;
	assert_int_equal(nvm_snapshot_peek(buf, len, &in), NVM_ERR_CORRUPT);
	buf[9] ^= 1;
	assert_int_equal(nvm_snapshot_peek(buf, len, &in), NVM_ERR_VERSION);
	assert_int_equal(nvm_snapshot_peek(NULL, len, &in), NVM_ERR_ARG);
	free(buf);
	nvm_close(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_chip),   cmocka_unit_test(bad_arguments),
		cmocka_unit_test(busy_in_hook), cmocka_unit_test(refused_changes_nothing),
		cmocka_unit_test(peek),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
