/* BAR0 register bus: masks, write-1-to-clear, handlers, unknown offsets,
 * table validation (issue 2 "BAR0 register bus"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"

#include "core/core.h"

struct probe {
	int writes;
	uint32_t last_old, last_written, last_stored;
	int reads;
};

static uint32_t rd_plus_one(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	((struct probe *)ctx)->reads++;
	return stored + 1;
}

static void wr_probe(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	struct probe *p = ctx;
	p->writes++;
	p->last_old = old;
	p->last_written = written;
	p->last_stored = *stored;
}

#define BASE 0xf00000u /* free on every chip profile */
static const struct reg_desc test_regs[] = {
	{ BASE + 0x0, "T_PLAIN", 0x12345678, 0xffffffff, 0, NULL, NULL },
	{ BASE + 0x4, "T_MASKED", 0xa5a5a5a5, 0x0000ff00, 0, NULL, NULL },
	{ BASE + 0x8, "T_W1C", 0x000000f0, 0x0000000f, 0x000000f0, NULL, wr_probe },
	{ BASE + 0xc, "T_RO", 0xdeadbeef, 0, 0, NULL, NULL },
	{ BASE + 0x10, "T_HANDLED", 5, 0xffffffff, 0, rd_plus_one, NULL },
};

struct seen {
	int n;
	nvm_event last;
	char msg[256];
};

static void record(void *user, const nvm_event *ev)
{
	struct seen *s = user;
	s->n++;
	s->last = *ev;
	snprintf(s->msg, sizeof(s->msg), "%s", ev->message);
	s->last.message = s->msg;
}

static nvm_gpu *gpu_with_block(struct probe *p)
{
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(NULL, &gpu), NVM_OK);
	struct reg_block b = { .name = "test",
		               .base = BASE,
		               .size = 0x100,
		               .regs = test_regs,
		               .nregs = sizeof(test_regs) / sizeof(test_regs[0]),
		               .ctx = p };
	assert_int_equal(bus_add(gpu, &b), NVM_OK);
	return gpu;
}

static void reset_values_and_masks(void **state)
{
	(void)state;
	struct probe p = { 0 };
	nvm_gpu *gpu = gpu_with_block(&p);
	assert_int_equal(rd(gpu, BASE), 0x12345678);
	assert_int_equal(nvm_reg_write(gpu, BASE, 0xcafef00d), NVM_OK);
	assert_int_equal(rd(gpu, BASE), 0xcafef00d);
	/* Only bits 15:8 of T_MASKED are writable. */
	assert_int_equal(nvm_reg_write(gpu, BASE + 4, 0x00000000), NVM_OK);
	assert_int_equal(rd(gpu, BASE + 4), 0xa5a500a5);
	assert_int_equal(nvm_reg_write(gpu, BASE + 4, 0xffffffff), NVM_OK);
	assert_int_equal(rd(gpu, BASE + 4), 0xa5a5ffa5);
	/* Read-only: writes change nothing. */
	assert_int_equal(nvm_reg_write(gpu, BASE + 0xc, 0), NVM_OK);
	assert_int_equal(rd(gpu, BASE + 0xc), 0xdeadbeef);
	assert_string_equal(nvm_reg_name(gpu, BASE + 4), "T_MASKED");
	assert_null(nvm_reg_name(gpu, BASE + 0x20));
	nvm_close(gpu);
}

static void write_one_to_clear(void **state)
{
	(void)state;
	struct probe p = { 0 };
	nvm_gpu *gpu = gpu_with_block(&p);
	/* Writing 1 to a W1C bit clears it, 0 leaves it; writable bits store. */
	assert_int_equal(nvm_reg_write(gpu, BASE + 8, 0x00000030 | 0x5), NVM_OK);
	assert_int_equal(rd(gpu, BASE + 8), 0x000000c5);
	assert_int_equal(p.writes, 1);
	assert_int_equal(p.last_old, 0xf0);
	assert_int_equal(p.last_written, 0x35);
	assert_int_equal(p.last_stored, 0xc5);
	assert_int_equal(nvm_reg_write(gpu, BASE + 8, 0x000000f5), NVM_OK);
	assert_int_equal(rd(gpu, BASE + 8), 0x00000005);
	nvm_close(gpu);
}

static void read_handler(void **state)
{
	(void)state;
	struct probe p = { 0 };
	nvm_gpu *gpu = gpu_with_block(&p);
	assert_int_equal(rd(gpu, BASE + 0x10), 6);
	assert_int_equal(p.reads, 1);
	nvm_close(gpu);
}

static void unknown_offsets_read_zero_and_report(void **state)
{
	(void)state;
	struct probe p = { 0 };
	nvm_gpu *gpu = gpu_with_block(&p);
	struct seen s = { 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_UNMODELLED), record, &s, NULL), NVM_OK);
	/* Inside a block's range but not in its table. */
	assert_int_equal(rd(gpu, BASE + 0x40), 0);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.last.code, "unknown_reg_read");
	assert_string_equal(s.last.block, "test");
	assert_int_equal(s.last.addr, BASE + 0x40);
	/* Outside every block. */
	assert_int_equal(rd(gpu, 0xfff000), 0);
	assert_string_equal(s.last.block, "bus");
	assert_int_equal(nvm_reg_write(gpu, 0xfff000, 1), NVM_OK);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.last.code, "unknown_reg_write");
	assert_int_equal(nvm_event_count(gpu, NVM_EV_UNMODELLED), 3);
	/* Beyond BAR0 or misaligned: an API error, not an event. */
	uint32_t v;
	assert_int_equal(nvm_reg_read(gpu, BAR0_SIZE, &v), NVM_ERR_RANGE);
	assert_int_equal(nvm_reg_write(gpu, 0x102, 0), NVM_ERR_ALIGN);
	assert_int_equal(s.n, 3);
	nvm_close(gpu);
}

static void mmio_trace_events(void **state)
{
	(void)state;
	struct probe p = { 0 };
	nvm_gpu *gpu = gpu_with_block(&p);
	struct seen s = { 0 };
	int id;
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_MMIO), record, &s, &id), NVM_OK);
	assert_int_equal(nvm_reg_write(gpu, BASE, 0x42), NVM_OK);
	assert_int_equal(s.n, 1);
	assert_int_equal(s.last.addr, BASE);
	assert_int_equal(s.last.value, 0x42);
	assert_non_null(strstr(s.msg, "T_PLAIN"));
	assert_int_equal(nvm_hook_del(gpu, id), NVM_OK);
	assert_int_equal(nvm_hook_del(gpu, id), NVM_ERR_NOENT);
	assert_int_equal(nvm_reg_write(gpu, BASE, 0x43), NVM_OK);
	assert_int_equal(s.n, 1);
	nvm_close(gpu);
}

static void table_validation(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(NULL, &gpu), NVM_OK);
	static const struct reg_desc unsorted[] = {
		{ 0x900004, "B", 0, 0, 0, NULL, NULL },
		{ 0x900000, "A", 0, 0, 0, NULL, NULL },
	};
	static const struct reg_desc misaligned[] = { { 0x900002, "A", 0, 0, 0, NULL, NULL } };
	static const struct reg_desc outside[] = { { 0x900100, "A", 0, 0, 0, NULL, NULL } };
	struct reg_block b = { .name = "v", .base = 0x900000, .size = 0x100, .regs = unsorted, .nregs = 2 };
	assert_int_equal(bus_add(gpu, &b), NVM_ERR_ARG);
	b.regs = misaligned;
	b.nregs = 1;
	assert_int_equal(bus_add(gpu, &b), NVM_ERR_ARG);
	b.regs = outside;
	assert_int_equal(bus_add(gpu, &b), NVM_ERR_ARG);
	/* Overlap with PMC (0x0-0xfff) or PTIMER (0x9000-0x9fff). */
	struct reg_block o = { .name = "o", .base = 0x9800, .size = 0x1000 };
	assert_int_equal(bus_add(gpu, &o), NVM_ERR_ARG);
	o.base = BAR0_SIZE - 0x10;
	o.size = 0x20;
	assert_int_equal(bus_add(gpu, &o), NVM_ERR_ARG);
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reset_values_and_masks), cmocka_unit_test(write_one_to_clear),
		cmocka_unit_test(read_handler),           cmocka_unit_test(unknown_offsets_read_zero_and_report),
		cmocka_unit_test(mmio_trace_events),      cmocka_unit_test(table_validation),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
