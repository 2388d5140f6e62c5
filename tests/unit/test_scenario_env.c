/* The scenario runner's environment (src/scenario/scn_libs.c): errors name
 * a file and a line even when the Lua heap runs out, in the main chunk or
 * in a coroutine; math.random follows the seed. */
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

static void heap_exhaustion_has_a_position(void **state)
{
	(void)state;
	struct scn_opts o = { .mem_limit = 4u << 20 };
	struct scn_result res;
	run("local t = {}\nfor i = 1, 1e9 do\n  t[i] = string.rep('x', 100) .. i\nend\n", &o, &res);
	assert_false(res.ok);
	assert_non_null(strstr(res.error, "t.lua:3: Lua heap limit of 4 MiB exhausted"));
	/* The same in a coroutine. */
	run("local co = coroutine.wrap(function()\n  local t = {}\n  for i = 1, 1e9 do t[i] = {} end\nend)\nco()\n", &o,
	    &res);
	assert_false(res.ok);
	assert_non_null(strstr(res.error, "t.lua:3: Lua heap limit of 4 MiB exhausted"));
	/* A script that catches it can go on once it let go of the memory. */
	run("local ok, e = pcall(function()\n  local t = {}\n  for i = 1, 1e9 do t[i] = {} end\nend)\n"
	    "collectgarbage()\ncheck(not ok and e:find('heap limit'), e)\nlocal t = {}\nfor i = 1, 1000 do t[i] = i "
	    "end\n",
	    &o, &res);
	assert_true(res.ok);
}

static void one_huge_allocation_names_the_file(void **state)
{
	(void)state;
	struct scn_opts o = { .mem_limit = 4u << 20 };
	struct scn_result res;
	run("local s = string.rep('x', 64 << 20)\n", &o, &res);
	assert_false(res.ok);
	assert_non_null(strstr(res.error, "t.lua"));
	assert_non_null(strstr(res.error, "heap limit of 4 MiB"));
}

static uint64_t first_random(uint64_t seed)
{
	char buf[64] = { 0 };
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");
	assert_non_null(f);
	struct scn_opts o = { .seed = seed, .out = f };
	struct scn_result res;
	run("print(math.random(1 << 40))", &o, &res);
	fclose(f);
	assert_true(res.ok);
	return strtoull(buf, NULL, 10);
}

static void random_follows_the_seed(void **state)
{
	(void)state;
	assert_int_equal(first_random(1), first_random(1));
	assert_int_not_equal(first_random(1), first_random(2));
	assert_int_equal(first_random(0), first_random(0));
}

static void sandbox_drops_io_os_package_debug(void **state)
{
	(void)state;
	struct scn_opts o = { .sandbox = 1 };
	struct scn_result res;
	run("check(io == nil and os == nil and package == nil and debug == nil and require == nil)\n"
	    "check(dofile == nil and loadfile == nil)\ncheck(load('return 1')() == 1)\n",
	    &o, &res);
	assert_true(res.ok);
}

/* run_budget caps every run's work budget, also one a script asks for. */
static void run_budget_caps_runs(void **state)
{
	(void)state;
	struct scn_opts o = { .run_budget = 1000 };
	struct scn_result res;
	run("local g = nvmodel.open{ chip = 'g80' }\n"
	    "g:wr32(0x1098, 8)\ng:wr32(0x130c, 3)\n"
	    "check(g:run{ ns = 1000000000, max_events = 1000000 } == 'hang')\n"
	    "check(g:hwsq_state().instructions <= 1000)\n",
	    &o, &res);
	if (!res.ok)
		fail_msg("%s", res.error);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(heap_exhaustion_has_a_position), cmocka_unit_test(one_huge_allocation_names_the_file),
		cmocka_unit_test(random_follows_the_seed),        cmocka_unit_test(sandbox_drops_io_os_package_debug),
		cmocka_unit_test(run_budget_caps_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
