/* The shared semaphore unit (src/fifo/sem.h): the acquire comparisons of
 * every front end, the semaphore word in either byte order, the watch. The
 * front ends' own tests (test_host_methods, test_pfifo_puller,
 * test_g80fifo_puller) cover the waits and timeouts through it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fifo/sem.h"

/* dev_pbdma SEM_EXECUTE ACQ_*: equal, strict and circular greater-or-equal,
 * AND, NOR; at 32 bits the upper halves do not count. */
static void test_compare(void **state)
{
	(void)state;
	assert_true(sem_acquire_ok(SEM_CMP_EQ, false, 0x100000005ull, 5));
	assert_false(sem_acquire_ok(SEM_CMP_EQ, true, 0x100000005ull, 5));
	assert_true(sem_acquire_ok(SEM_CMP_STRICT_GEQ, false, 7, 7));
	assert_false(sem_acquire_ok(SEM_CMP_STRICT_GEQ, false, 1, 0xfffffff0u));
	/* circular: 1 is "after" 0xfffffff0 (wrapped) */
	assert_true(sem_acquire_ok(SEM_CMP_CIRC_GEQ, false, 1, 0xfffffff0u));
	assert_false(sem_acquire_ok(SEM_CMP_CIRC_GEQ, false, 0xfffffff0u, 1));
	assert_true(sem_acquire_ok(SEM_CMP_CIRC_GEQ, true, 1, 0xfffffffffffffff0ull));
	assert_true(sem_acquire_ok(SEM_CMP_CIRC_GEQ, false, 1, 0x80000002u)); /* wrapped at 32 bits */
	assert_false(sem_acquire_ok(SEM_CMP_CIRC_GEQ, true, 1, 0x80000002u)); /* not at 64 */
	assert_true(sem_acquire_ok(SEM_CMP_AND, false, 6, 2));
	assert_false(sem_acquire_ok(SEM_CMP_AND, false, 4, 2));
	assert_true(sem_acquire_ok(SEM_CMP_NOR, false, 0xfffffff0u, 0x7));
	assert_false(sem_acquire_ok(SEM_CMP_NOR, false, 0xfffffff0u, 0xf));
	assert_true(sem_acquire_ok(SEM_CMP_NOR, true, 0xfffffff0u, 0xf)); /* the upper half is 0 */
}

static int hits;

static void on_write(void *ctx, uint64_t arg)
{
	(void)ctx;
	(void)arg;
	hits++;
}

/* The word in little- and big-endian order (puller.rst "Semaphores": the
 * channel's big_endian flag), and a watch armed twice fires once. */
static void test_word_and_watch(void **state)
{
	(void)state;
	static struct mem_space m;
	uint64_t used = 0;
	mem_init(&m, 1u << 20, &used, 0);
	assert_true(sem_wr32(&m, 0x100, false, 0x11223344u));
	uint8_t b[4];
	assert_int_equal(mem_read(&m, 0x100, b, 4), 0);
	assert_int_equal(b[0], 0x44);
	assert_true(sem_wr32(&m, 0x104, true, 0x11223344u));
	assert_int_equal(mem_read(&m, 0x104, b, 4), 0);
	assert_int_equal(b[0], 0x11);
	uint32_t v;
	assert_true(sem_rd32(&m, 0x104, true, &v));
	assert_int_equal(v, 0x11223344u);
	assert_true(sem_rd32(&m, 0x104, false, &v));
	assert_int_equal(v, 0x44332211u);
	assert_false(sem_rd32(&m, (1u << 20) - 2, false, &v)); /* past the end */
	assert_false(sem_wr32(&m, 1u << 20, false, 1));
	hits = 0;
	assert_true(sem_watch(&m, 0x100, 4, on_write, NULL, 1));
	assert_true(sem_watch(&m, 0x100, 4, on_write, NULL, 1)); /* replaces the first */
	assert_true(sem_wr32(&m, 0x100, false, 1));
	assert_int_equal(hits, 1);
	sem_unwatch(&m, on_write, NULL, 1);
	assert_true(sem_wr32(&m, 0x100, false, 2));
	assert_int_equal(hits, 1);
	mem_fini(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compare),
		cmocka_unit_test(test_word_and_watch),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
