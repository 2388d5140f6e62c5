/* The scenario runner's budgets and sandbox (issue 23): the instruction
 * budget is final, pays for the model's work and for the C library's loops
 * under --sandbox; gpu:run cannot lift the run budget; option strings stay
 * alive while they are used; memory errors and finalizers do not leak GPUs.
 * Every check counts work or reads the budget error: no timing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "scenario/scenario.h"

static void run(const char *src, const struct scn_opts *o, struct scn_result *res)
{
	scn_run_buffer(src, strlen(src), "t.lua", o, res);
}

static void expect_ok(const char *src, const struct scn_opts *o)
{
	struct scn_result res;
	run(src, o, &res);
	if (!res.ok)
		fail_msg("%s\n-- for:\n%s", res.error, src);
}

static void expect_budget(const char *src, const struct scn_opts *o)
{
	struct scn_result res;
	run(src, o, &res);
	if (res.ok || !strstr(res.error, "instruction budget of"))
		fail_msg("expected the budget error, got %s: %s\n-- for:\n%s", res.ok ? "ok" : "error", res.error, src);
}

/* Item 1: the chip name an __index made, read while the other options'
 * __index runs the collector (ASan: use after free in chip_lookup). */
static void open_keeps_the_chip_name(void **state)
{
	(void)state;
	struct scn_opts o = { .sandbox = 1 };
	expect_ok("local t = setmetatable({}, { __index = function(_, k)\n"
	          "  if k == 'chip' then return ('g8' .. '0x'):sub(1, 3) end\n"
	          "  collectgarbage() collectgarbage()\n"
	          "end })\n"
	          "check(nvmodel.open(t):chip() == 'g8' .. '0') -- no 'g80' constant keeps the string alive\n",
	          &o);
	/* A name longer than any chip's is unknown, not truncated. */
	struct scn_result res;
	run("nvmodel.open{ chip = 'g80' .. ('x'):rep(100) }", &o, &res);
	assert_false(res.ok);
	assert_non_null(strstr(res.error, "unknown chip"));
}

/* Item 2: nothing catches the budget for good. */
static void budget_is_final(void **state)
{
	(void)state;
	struct scn_opts o = { .sandbox = 1, .max_steps = 100000 };
	static const char *const scripts[] = {
		/* caught, and the script would end well */
		"pcall(function() while true do end end)\n",
		"while true do pcall(function() while true do end end) end\n",
		"while true do xpcall(function() while true do end end, function() while true do end end) end\n",
		"while true do coroutine.resume(coroutine.create(function() while true do end end)) end\n",
		"while true do pcall(coroutine.wrap(function() while true do end end)) end\n",
		"while true do pcall(function()\n"
		"  local x <close> = setmetatable({}, { __close = function() while true do end end })\n"
		"  while true do end\nend) end\n",
		"while true do pcall(function()\n"
		"  local x <close> = setmetatable({}, { __close = function() error({}) end })\n"
		"  while true do end\nend) end\n",
		"local co = coroutine.create(function()\n"
		"  local x <close> = setmetatable({}, { __close = function() while true do end end })\n"
		"  coroutine.yield()\nend)\ncoroutine.resume(co)\n"
		"while true do pcall(function() while true do end end) coroutine.close(co) end\n",
		/* an event callback that catches it */
		"local g = nvmodel.open{ chip = 'nv04' }\n"
		"g:on('mmio', function() pcall(function() while true do end end) end)\n"
		"while true do pcall(g.wr32, g, 0x1000, 0) end\n",
	};
	for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++)
		expect_budget(scripts[i], &o);
	/* Finalizers run with hooks off: the sandbox refuses them. */
	struct scn_result res;
	run("setmetatable({}, { __gc = function() while true do end end })\n", &o, &res);
	assert_false(res.ok);
	assert_non_null(strstr(res.error, "t.lua:1: setmetatable: __gc finalizers are not allowed"));
}

/* Item 3: the C library's loops are charged before they run. */
static void sandbox_charges_c_loops(void **state)
{
	(void)state;
	struct scn_opts o = { .sandbox = 1, .max_steps = 1000000 };
	static const char *const scripts[] = {
		"(('a'):rep(20000)):find('.-.-.-.-.-b')\n",
		"string.match(('a'):rep(20000), '^(.-)%s*(.-)%s*$')\n",
		"for w in (('a'):rep(20000)):gmatch('a-a-a-b') do end\n",
		"string.gsub(('a'):rep(20000), '(a*)*b', '')\n",
		"local s = ('a'):rep(1 << 16)\nwhile true do s:find(('a'):rep(1 << 12) .. 'b', 1, true) end\n",
		"table.move({}, 1, 1 << 62, 2)\n",
		"local s = ('') :rep(1 << 50)\n",
		"local t = setmetatable({}, { __len = function() return 1 << 40 end, __index = tostring })\n"
		"table.concat(t)\n",
		"local t = setmetatable({}, { __len = function() return 1 << 40 end, __index = rawequal,\n"
		"  __newindex = rawequal })\ntable.insert(t, 1, 0)\n",
		"local t = setmetatable({}, { __len = function() return (1 << 31) - 2 end, __index = rawlen })\n"
		"table.sort(t)\n",
		"local s = ('\\xe4'):rep(1 << 16)\nwhile true do utf8.len(s) end\n",
		"local s = ('9'):rep(1 << 16)\nwhile true do tonumber(s) end\n",
		"local s = ('x'):rep(1 << 16)\nwhile true do local t = s .. 'y' end\n",
		"local t = {}\nfor i = 1, 1000 do t[i] = {} end\nwhile true do collectgarbage() end\n",
	};
	for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++)
		expect_budget(scripts[i], &o);
	/* Ordinary uses fit in an ordinary budget (a pattern is charged its
	 * worst case: about 3e5 steps for this one on this line). */
	o.max_steps = 100000000;
	expect_ok("for i = 1, 100 do\n"
	          "  local a, b = ('  key = value  '):match('^%s*(%w+)%s*=%s*(.-)%s*$')\n"
	          "  check(a == 'key' and b == 'value')\n"
	          "  check(table.concat({ 'a', 'b' }, ',') == 'a,b' and select('#', table.unpack({ 1, 2, 3 })) == 3)\n"
	          "  local t = { 3, 1, 2 } table.sort(t) check(t[1] == 1)\n"
	          "  check(('ab'):rep(3, '-') == 'ab-ab-ab' and utf8.len('h\\u{e9}') == 2)\n"
	          "end\n",
	          &o);
}

/* An HWSQ program that never exits (g80): every run hangs. */
#define HWSQ_LOOP "local g = nvmodel.open{ chip = 'g80' }\ng:wr32(0x1098, 8)\ng:wr32(0x130c, 3)\n"

/* Item 4: max_events cannot lift the run budget the tool set, nor the
 * default one. */
static void max_events_cannot_lift_the_run_budget(void **state)
{
	(void)state;
	struct scn_opts o = { 0 };
	expect_ok(HWSQ_LOOP "check(g:run{ ns = 1 << 62, max_events = math.maxinteger } == 'hang')\n"
	                    "local n = g:hwsq_state().instructions\n"
	                    "check(n > 0 and n <= 10000000, n)\n",
	          &o);
}

/* Item 6: the model's work is charged to the script's budget, so a loop of
 * runs that each spend a run budget ends within the script's budget. */
static void runs_are_charged(void **state)
{
	(void)state;
	char buf[4096] = { 0 };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_non_null(f);
	uint64_t steps = 20 * SCN_STEPS_PER_WORK * 100000ull;
	struct scn_opts o = { .sandbox = 1, .max_steps = steps, .run_budget = 100000, .out = f };
	expect_budget(HWSQ_LOOP "while true do g:run{ ns = 1 << 62 } print(g:hwsq_state().instructions) end\n", &o);
	fclose(f);
	/* The last line printed: the model's work before the budget ran out. */
	const char *last = buf, *nl;
	while ((nl = strchr(last, '\n')) && nl[1])
		last = nl + 1;
	unsigned long long done = strtoull(last, NULL, 10);
	assert_true(done > 0);
	assert_true(done <= steps / SCN_STEPS_PER_WORK);
	/* A run is also cut to what is left of the budget. */
	struct scn_opts o2 = { .max_steps = 1000 * SCN_STEPS_PER_WORK };
	expect_budget(HWSQ_LOOP "g:run{ ns = 1 << 62 }\n", &o2);
}

/* Item 7: a coroutine fills the heap to its hard limit, then an event
 * callback's table cannot be allocated: an error in the script, not a
 * longjmp through the library (which leaked the GPU: LeakSanitizer). */
static void heap_limit_in_a_coroutine(void **state)
{
	(void)state;
	struct scn_opts o = { .mem_limit = 4u << 20 };
	struct scn_result res;
	run("local g = nvmodel.open{ chip = 'nv04' }\n"
	    "g:on('*', function(ev) end)\n"
	    "local tail = {}\n"
	    "local keep = tail\n"
	    "local function fill() while true do tail[1] = {} tail = tail[1] end end\n"
	    "coroutine.wrap(function()\n"
	    "  for k = 1, 100 do pcall(fill) end\n"
	    "  collectgarbage() -- no garbage left to free: the next rounds end at the hard limit\n"
	    "  for k = 1, 100 do pcall(fill) end\n"
	    "  for i = 1, 100 do g:wr32(0x1000, i) end\n"
	    "end)()\n",
	    &o, &res);
	assert_false(res.ok);
	if (!strstr(res.error, "heap limit") && !strstr(res.error, "not enough memory"))
		fail_msg("%s", res.error);
	/* The soft limit is raised in the coroutine, with a position. */
	run("coroutine.wrap(function()\n  local t = {}\n  for i = 1, 1e9 do t[i] = ('x'):rep(4096) .. i end\nend)()\n",
	    &o, &res);
	assert_false(res.ok);
	assert_non_null(strstr(res.error, "t.lua:3: Lua heap limit of 4 MiB exhausted"));
}

/* Item 8: a finalizer that opens a GPU while the state closes (trusted
 * scripts may have finalizers): refused, nothing leaks (LeakSanitizer). */
static void finalizer_cannot_open_at_exit(void **state)
{
	(void)state;
	char buf[512] = { 0 };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_non_null(f);
	struct scn_opts o = { .out = f };
	expect_ok("keep = setmetatable({}, { __gc = function()\n"
	          "  local ok, e = pcall(nvmodel.open, { chip = 'nv04' })\n"
	          "  print(ok, e)\n"
	          "end })\n",
	          &o);
	fclose(f);
	assert_non_null(strstr(buf, "false\t"));
	assert_non_null(strstr(buf, "open: the script has ended"));
}

int main(int argc, char **argv)
{
	if (argc > 1) /* a test's name: run that one */
		cmocka_set_test_filter(argv[1]);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(open_keeps_the_chip_name),
		cmocka_unit_test(budget_is_final),
		cmocka_unit_test(sandbox_charges_c_loops),
		cmocka_unit_test(max_events_cannot_lift_the_run_budget),
		cmocka_unit_test(runs_are_charged),
		cmocka_unit_test(heap_limit_in_a_coroutine),
		cmocka_unit_test(finalizer_cannot_open_at_exit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
