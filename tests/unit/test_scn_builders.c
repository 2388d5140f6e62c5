/* The scripts' builders: nvmodel.pb_asm / pb_words errors (docs/pushbuf.md
 * "Assembler syntax" gives the line and message; the script gets them as
 * `name:line: message` at its own line) and the embedded nvmodel.volta
 * module (loaded in the sandbox too; its errors point at the calling line). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "scenario/scenario.h"

static struct scn_result run(const char *src, int sandbox, uint64_t mem_limit)
{
	struct scn_opts o = { .sandbox = sandbox, .mem_limit = mem_limit };
	struct scn_result r;
	scn_run_buffer(src, strlen(src), "t.lua", &o, &r);
	return r;
}

static void fails_with(const char *src, const char *want)
{
	struct scn_result r = run(src, 0, 0);
	assert_false(r.ok);
	assert_string_equal(r.error, want);
}

static void starts_with(const char *src, const char *prefix, const char *contains)
{
	struct scn_result r = run(src, 0, 0);
	assert_false(r.ok);
	if (strncmp(r.error, prefix, strlen(prefix)) || !strstr(r.error, contains))
		fail_msg("error \"%s\" lacks \"%s\" ... \"%s\"", r.error, prefix, contains);
}

static void pb_asm_errors_name_line_and_text(void **state)
{
	(void)state;
	fails_with("nvmodel.pb_asm('nop\\ninc 0 FOO 1')", "t.lua:1: pb_asm:2: unknown method 'FOO'");
	fails_with("local x = 1\nnvmodel.pb_words('x', 'new', 'seg.s')", "t.lua:2: seg.s:1: unknown instruction 'x'");
	fails_with("nvmodel.pb_asm('immd 0 0x100 0x2000')",
	           "t.lua:1: pb_asm:1: immd value 0x2000 does not fit 13 bits");
	fails_with("nvmodel.pb_asm('set_subdevice_mask 0x1000')",
	           "t.lua:1: pb_asm:1: set_subdevice_mask: operand 0x1000 cannot be encoded");
	starts_with("nvmodel.pb_asm('nop', 'newer')", "t.lua:1: bad argument #2", "invalid option 'newer'");
}

static void pb_asm_results(void **state)
{
	(void)state;
	struct scn_result r = run("local s = nvmodel.pb_asm('inc 0 0x5c 1 2')\n"
	                          "check(s == '\\x17\\x00\\x02\\x20\\x01\\0\\0\\0\\x02\\0\\0\\0')\n"
	                          "local w = nvmodel.pb_words('end_segment\\nnop')\n"
	                          "check(#w == 2 and w[1] == 0xe0000000 and w[2] == 0)\n",
	                          0, 0);
	assert_true(r.ok);
	assert_int_equal(r.checks_passed, 2);
}

/* Copying a large result out under a small Lua heap limit fails with the
 * heap-limit error at the script line; the assembler's buffer is still
 * freed (ASan checks). */
static void pb_asm_out_of_memory_does_not_leak(void **state)
{
	(void)state;
	struct scn_result r = run("local t = string.rep('nop\\n', 200000)\nlocal s = nvmodel.pb_asm(t)", 0, 1500000);
	assert_false(r.ok);
	/* the error names the script line and the heap limit (scn_libs.c) */
	assert_non_null(strstr(r.error, "t.lua:2: Lua heap limit of 1500000 bytes exhausted"));
	r = run("local t = string.rep('nop\\n', 200000)\nlocal s = nvmodel.pb_words(t)", 0, 1500000);
	assert_false(r.ok);
}

static void volta_errors_point_at_the_caller(void **state)
{
	(void)state;
	fails_with("local volta = require 'nvmodel.volta'\n\nvolta.heap(nil, 'vram', 0, 4096)",
	           "t.lua:3: volta.heap: argument 1 must be a gpu object (from nvmodel.open), got nil");
	/* An error raised by a gpu method the module calls: both positions. */
	starts_with("local v = nvmodel.volta\nlocal gpu = nvmodel.open{vram='1M'}\n"
	            "local h = v.heap(gpu, 'vram', 0xff000, '64K')\nv.vm(gpu, h):alloc_map(4096)",
	            "t.lua:4: nvmodel/volta.lua:", "mem_write: address out of range");
	fails_with("local v = nvmodel.volta\nlocal gpu = nvmodel.open{vram='16M'}\n"
	           "local vm = v.vm(gpu, v.heap(gpu, 'vram', 0x100000, '4M'))\n"
	           "local ch = v.channel(gpu, vm, {chid = 1})\n"
	           "ch:push('nop\\nbogus')",
	           "t.lua:5: push:2: unknown instruction 'bogus'");
}

static void volta_in_the_sandbox(void **state)
{
	(void)state;
	struct scn_result r = run("check(require == nil)\n"
	                          "local v = nvmodel.volta\n"
	                          "check(type(v.channel) == 'function' and nvmodel.volta == v)\n"
	                          "check(nvmodel.nothing == nil)\n",
	                          1, 0);
	if (!r.ok)
		fail_msg("%s", r.error);
	assert_int_equal(r.checks_passed, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pb_asm_errors_name_line_and_text),
		cmocka_unit_test(pb_asm_results),
		cmocka_unit_test(pb_asm_out_of_memory_does_not_leak),
		cmocka_unit_test(volta_errors_point_at_the_caller),
		cmocka_unit_test(volta_in_the_sandbox),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
