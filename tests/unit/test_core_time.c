/* Virtual time: event ordering, run budgets, idle, hangs, and PTIMER
 * (envytools hw/bus/ptimer.rst "The time counter", "The alarm and interrupts"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"

struct log {
	int n;
	uint64_t tag[32];
	uint64_t when[32];
};

static void log_ev(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	struct log *l = ctx;
	if (l->n < 32) {
		l->tag[l->n] = arg;
		l->when[l->n] = gpu->now;
	}
	l->n++;
}

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

static void events_run_in_time_then_schedule_order(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip(NULL);
	struct log l = { 0 };
	sched_at(gpu, 300, log_ev, &l, 3, 0);
	sched_at(gpu, 100, log_ev, &l, 1, 0);
	sched_at(gpu, 200, log_ev, &l, 21, 0);
	sched_at(gpu, 200, log_ev, &l, 22, 0); /* same time: after 21 */
	sched_at(gpu, 200, log_ev, &l, 23, 0);
	nvm_run_opts o = { .ns = 1000 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_BUDGET);
	assert_int_equal(l.n, 5);
	uint64_t want[] = { 1, 21, 22, 23, 3 };
	uint64_t when[] = { 100, 200, 200, 200, 300 };
	for (int i = 0; i < 5; i++) {
		assert_int_equal(l.tag[i], want[i]);
		assert_int_equal(l.when[i], when[i]);
	}
	assert_int_equal(nvm_time_ns(gpu), 1000);
	nvm_close(gpu);
}

static void budget_stops_before_later_events(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip(NULL);
	struct log l = { 0 };
	sched_at(gpu, 500, log_ev, &l, 1, 0);
	sched_at(gpu, 1500, log_ev, &l, 2, 0);
	nvm_run_opts o = { .ns = 1000 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_BUDGET);
	assert_int_equal(l.n, 1);
	assert_int_equal(nvm_time_ns(gpu), 1000);
	assert_false(nvm_idle(gpu));
	/* An event exactly at the end of the budget runs. */
	o.ns = 500;
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_BUDGET);
	assert_int_equal(l.n, 2);
	assert_int_equal(nvm_time_ns(gpu), 1500);
	nvm_close(gpu);
}

static void idle_stops_early(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip(NULL);
	struct log l = { 0 };
	nvm_run_opts o = { .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE };
	/* Idle at the start: time does not move. */
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_IDLE);
	assert_int_equal(nvm_time_ns(gpu), 0);
	sched_at(gpu, 700, log_ev, &l, 1, 0);
	/* Background events (timer alarms) do not keep the GPU busy. */
	sched_at(gpu, 5000, log_ev, &l, 2, SCHED_BACKGROUND);
	assert_false(nvm_idle(gpu));
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_IDLE);
	assert_int_equal(nvm_time_ns(gpu), 700);
	assert_int_equal(l.n, 1);
	assert_true(nvm_idle(gpu));
	nvm_close(gpu);
}

static void cancel(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip(NULL);
	struct log l = { 0 };
	uint64_t a = sched_at(gpu, 10, log_ev, &l, 1, 0);
	sched_at(gpu, 20, log_ev, &l, 2, 0);
	uint64_t c = sched_at(gpu, 30, log_ev, &l, 3, 0);
	assert_true(a && c && a != c);
	sched_cancel(gpu, a);
	sched_cancel(gpu, c);
	sched_cancel(gpu, c); /* twice: harmless */
	nvm_run_opts o = { .ns = 100, .flags = NVM_RUN_UNTIL_IDLE };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_IDLE);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.tag[0], 2);
	nvm_close(gpu);
}

static void forever(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)ctx;
	sched_at(gpu, gpu->now, forever, NULL, arg + 1, 0);
}

static void count_ev(void *user, const nvm_event *ev)
{
	(void)ev;
	++*(int *)user;
}

/* Principle 2: a run is bounded; an endless loop is reported as a hang. */
static void endless_loop_is_a_hang(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip(NULL);
	int errors = 0;
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_GUEST_ERROR), count_ev, &errors, NULL);
	sched_at(gpu, 5, forever, NULL, 0, 0);
	nvm_run_opts o = { .ns = 1000, .max_events = 1000 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_HANG);
	assert_int_equal(errors, 1);
	assert_int_equal(nvm_time_ns(gpu), 5);
	assert_string_equal(nvm_run_status_str(NVM_RUN_HANG), "hang");
	nvm_close(gpu);
}

static void stopper(nvm_gpu *gpu, void *ctx, uint64_t arg)
{
	(void)ctx;
	(void)arg;
	nvm_stop(gpu);
}

static void stop_request(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip(NULL);
	struct log l = { 0 };
	sched_at(gpu, 10, stopper, NULL, 0, 0);
	sched_at(gpu, 20, log_ev, &l, 1, 0);
	nvm_run_opts o = { .ns = 100 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_STOPPED);
	assert_int_equal(nvm_time_ns(gpu), 10);
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_BUDGET); /* resumes */
	assert_int_equal(l.n, 1);
	nvm_close(gpu);
}

static uint64_t ptimer_now(nvm_gpu *gpu)
{
	uint32_t lo, hi;
	assert_int_equal(nvm_reg_read(gpu, 0x9410, &hi), NVM_OK);
	assert_int_equal(nvm_reg_read(gpu, 0x9400, &lo), NVM_OK);
	return (uint64_t)hi << 32 | lo;
}

/* ptimer.rst "The time counter": TIME_LOW bits 4:0 always 0, TIME_HIGH
 * bits 31:29 always 0; the counter is in bits 60:5 of the 64-bit value. */
static void ptimer_counts_virtual_ns(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv40");
	assert_int_equal(ptimer_now(gpu), 0);
	nvm_run_opts o = { .ns = 1000 };
	nvm_run(gpu, &o);
	assert_int_equal(ptimer_now(gpu), 992); /* 1000 with bits 4:0 cleared */
	/* Setting the counter: TIME_1 then TIME_0, as drivers do. */
	assert_int_equal(nvm_reg_write(gpu, 0x9410, 0xffffffff), NVM_OK);
	assert_int_equal(nvm_reg_write(gpu, 0x9400, 0xfffffc1f), NVM_OK);
	uint64_t t = ptimer_now(gpu);
	assert_int_equal(t >> 32, 0x1fffffff);         /* bits 31:29 of TIME_1 read 0 */
	assert_int_equal(t & 0xffffffff, 0xfffffc00u); /* bits 4:0 of TIME_0 read 0 */
	o.ns = 2000;
	nvm_run(gpu, &o);
	/* The 61-bit counter wraps to 0 after 0x1fffffff_ffffffe0. */
	assert_int_equal(ptimer_now(gpu), (0x1ffffffffffffc00ull + 2000) & 0x1fffffffffffffe0ull);
	assert_int_equal(nvm_time_ns(gpu), 3000); /* virtual time itself is untouched */
	nvm_close(gpu);
}

struct intr_log {
	int n;
	uint64_t when[8];
	uint64_t level[8];
};

static void on_intr(void *user, const nvm_event *ev)
{
	struct intr_log *l = user;
	if (l->n < 8) {
		l->when[l->n] = ev->time_ns;
		l->level[l->n] = ev->value;
	}
	l->n++;
}

/* ptimer.rst "The alarm and interrupts": ALARM fires when TIME_LOW bits 31:5
 * equal ALARM bits 31:5; INTR is write-1-to-clear; masked interrupts still
 * show in INTR but do not drive the line (PMC_INTR bit 20). */
static void ptimer_alarm(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct intr_log l = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_INTERRUPT), on_intr, &l, NULL);
	uint32_t v;
	nvm_run_opts o = { .ns = 100 };
	nvm_run(gpu, &o);
	assert_int_equal(nvm_reg_write(gpu, 0x9420, 5000 + 17), NVM_OK); /* bits 4:0 ignored */
	nvm_reg_read(gpu, 0x9420, &v);
	assert_int_equal(v, 5000 & ~31u);
	o.ns = 4800 - 100;
	nvm_run(gpu, &o);
	nvm_reg_read(gpu, 0x9100, &v);
	assert_int_equal(v, 0); /* not yet: 4800 < 4992 */
	o.ns = 1000;
	nvm_run(gpu, &o);
	nvm_reg_read(gpu, 0x9100, &v);
	assert_int_equal(v, 1); /* ALARM pending */
	nvm_reg_read(gpu, 0x100, &v);
	assert_int_equal(v & (1u << 20), 0); /* masked in PTIMER_INTR_EN_0 */
	assert_int_equal(l.n, 0);
	/* Enable in PTIMER and PMC: the line goes up at once. */
	nvm_reg_write(gpu, 0x9140, 1);
	nvm_reg_read(gpu, 0x100, &v);
	assert_int_equal(v, 1u << 20);
	nvm_reg_write(gpu, 0x160, 1u << 20);
	assert_true(nvm_intr_line(gpu));
	assert_int_equal(l.n, 1);
	assert_int_equal(l.level[0], 1);
	/* Writing 0 does not clear; writing 1 does. */
	nvm_reg_write(gpu, 0x9100, 0);
	assert_true(nvm_intr_line(gpu));
	nvm_reg_write(gpu, 0x9100, 1);
	assert_false(nvm_intr_line(gpu));
	assert_int_equal(l.n, 2);
	assert_int_equal(l.level[1], 0);
	nvm_close(gpu);
}

static void alarm_fires_at_match_time(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("g80");
	struct intr_log l = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_INTERRUPT), on_intr, &l, NULL);
	nvm_reg_write(gpu, 0x9140, 1);
	nvm_reg_write(gpu, 0x140, 1); /* NV04-style INTR_EN: hardware interrupts */
	nvm_reg_write(gpu, 0x9420, 0x1000);
	nvm_run_opts o = { .ns = 10000 };
	nvm_run(gpu, &o);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.when[0], 0x1000);
	/* The GPU stays idle: the alarm is a background event. */
	assert_true(nvm_idle(gpu));
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(events_run_in_time_then_schedule_order),
		cmocka_unit_test(budget_stops_before_later_events),
		cmocka_unit_test(idle_stops_early),
		cmocka_unit_test(cancel),
		cmocka_unit_test(endless_loop_is_a_hang),
		cmocka_unit_test(stop_request),
		cmocka_unit_test(ptimer_counts_virtual_ns),
		cmocka_unit_test(ptimer_alarm),
		cmocka_unit_test(alarm_fires_at_match_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
