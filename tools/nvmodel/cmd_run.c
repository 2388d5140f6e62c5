/*
 * nvmodel run FILE.lua / nvmodel demo: run a Lua scenario.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "scenario/scenario.h"
#include "trace.h"

extern const char nvm_demo_lua[];
extern const size_t nvm_demo_lua_len;

static void run_help(const char *cmd)
{
	if (!strcmp(cmd, "demo"))
		printf("usage: %s demo [--chip C] [--trace OUT.json] [--json] [--mem-budget SIZE] [--seed N]\n"
		       "           [--sandbox]\n"
		       "\n"
		       "Runs the built-in demonstration scenario (a copy is examples/demo.lua)\n"
		       "and prints what happened.\n",
		       cli_prog);
	else
		printf("usage: %s run FILE.lua [--chip C] [--trace OUT.json] [--json] [--mem-budget SIZE]\n"
		       "           [--seed N] [--sandbox] [--max-steps N] [-- ARGS...]\n"
		       "\n"
		       "Runs a Lua 5.4 scenario script (docs/scenarios.md). A script error or a\n"
		       "failed check() prints FILE:LINE: MESSAGE and exits 1.\n",
		       cli_prog);
	printf("\n"
	       "options:\n"
	       "  --chip C          chip for nvmodel.open{} calls that name none (default gv100;\n"
	       "                    see 'nvmodel chips')\n"
	       "  --trace OUT.json  write every event as Chrome trace-event JSON (Perfetto)\n"
	       "  --json            print a JSON summary on stdout at the end\n"
	       "  --mem-budget SIZE simulated memory all the script's GPUs may hold together\n"
	       "                    (default 1G; at most 64 GPUs are open at once)\n"
	       "  --seed N          seed of math.random (default 0: runs are reproducible)\n"
	       "  --sandbox         for untrusted scripts: no io, os, package, debug,\n"
	       "                    dofile or loadfile\n");
	if (strcmp(cmd, "demo"))
		printf("  --max-steps N     instruction budget: Lua steps and model work (default 4e9)\n"
		       "  -- ARGS...        arguments for the script, in the global table `arg`\n");
	printf("  -h, --help        this help\n");
}

/* A count as the docs write it: what cli_parse_u64 takes, or NeX ("4e9"). */
static bool parse_count(const char *s, uint64_t *out)
{
	if (cli_parse_u64(s, out))
		return true;
	if (!s || *s < '0' || *s > '9')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || (*end != 'e' && *end != 'E') || end[1] < '0' || end[1] > '9')
		return false;
	unsigned long long x = strtoull(end + 1, &end, 10);
	if (errno || *end || x > 19)
		return false;
	while (x--) {
		if (v > UINT64_MAX / 10)
			return false;
		v *= 10;
	}
	*out = v;
	return true;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* A script's os.exit() calls exit() inside the run: the run ends there as
 * at the end of its script, so the trace so far is completed and put in
 * place (its temporary is never left behind); then the output layer checks
 * standard output (cli.h). The exit status is the script's, or 3 when the
 * trace could not be written. */
static struct trace_writer *exit_trace;
static const char *exit_cmd;

static void trace_at_exit(void)
{
	struct trace_writer *t = exit_trace;
	if (!t)
		return;
	exit_trace = NULL;
	if (trace_finish(t)) {
		cli_error(EXIT_INTERNAL, exit_cmd, "%s: could not write the trace: %s", t->out.name, strerror(errno));
		fflush(stdout);
		_exit(EXIT_INTERNAL);
	}
}

static void trace_during_run(const char *cmd, struct trace_writer *t)
{
	static bool registered;
	if (!registered)
		registered = !atexit(trace_at_exit);
	exit_cmd = cmd;
	exit_trace = t;
}

static int scenario_main(const char *cmd, int argc, char **argv)
{
	bool demo = !strcmp(cmd, "demo");
	if (cli_wants_help(argc, argv)) {
		run_help(cmd);
		return EXIT_OK;
	}
	struct scn_opts o = { .out = stdout };
	const char *file = NULL, *trace_path = NULL, *val = NULL;
	bool json = false;
	for (int i = 1; i < argc; i++) {
		int r;
		if (!strcmp(argv[i], "--")) {
			if (demo)
				return cli_usage_error(cmd, "demo takes no script arguments");
			o.argv = (const char **)&argv[i + 1];
			o.argc = argc - i - 1;
			break;
		} else if ((r = cli_opt(argc, argv, &i, "--chip", &val))) {
			if (r < 0)
				return cli_bad_opt(cmd, "--chip", NULL, "a chip name");
			if (!nvm_chip_find(val))
				return cli_usage_error(cmd, "unknown chip '%s' (see 'nvmodel chips')", val);
			o.default_chip = val;
		} else if ((r = cli_opt(argc, argv, &i, "--trace", &val))) {
			if (r < 0 || !*val)
				return cli_bad_opt(cmd, "--trace", NULL, "an output file");
			trace_path = val;
		} else if ((r = cli_opt(argc, argv, &i, "--mem-budget", &val))) {
			if (r < 0 || !cli_parse_u64(val, &o.mem_budget) || !o.mem_budget)
				return cli_bad_opt(cmd, "--mem-budget", r < 0 ? NULL : val,
				                   "a size in bytes, K/M/G/T suffix allowed");
		} else if ((r = cli_opt(argc, argv, &i, "--seed", &val))) {
			if (r < 0 || !cli_parse_u64(val, &o.seed) || o.seed > (uint64_t)INT64_MAX)
				return cli_bad_opt(cmd, "--seed", r < 0 ? NULL : val, "a number from 0 to 2^63-1");
		} else if (!strcmp(argv[i], "--sandbox")) {
			o.sandbox = 1;
		} else if (!demo && (r = cli_opt(argc, argv, &i, "--max-steps", &val))) {
			if (r < 0 || !parse_count(val, &o.max_steps) || !o.max_steps)
				return cli_bad_opt(cmd, "--max-steps", r < 0 ? NULL : val,
				                   "a positive number (4000000000, 4e9)");
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
		} else if (!demo && !file) {
			file = argv[i];
		} else {
			return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
		}
	}
	if (!demo && !file)
		return cli_usage_error(cmd, "no scenario file given");
	if (trace_path && file && same_file(trace_path, file))
		return cli_usage_error(cmd, "--trace %s would overwrite the scenario itself", trace_path);

	bool trace_stdout = trace_path && out_is_stdout(trace_path);
	if (trace_stdout && json)
		return cli_usage_error(cmd, "--trace - and --json would both write to standard output");

	/* The output is opened before the run: an unwritable one costs no work. */
	struct trace_writer tw;
	if (trace_path) {
		if (trace_open(&tw, trace_path))
			return cli_error(EXIT_INTERNAL, cmd, "%s: cannot write the trace: %s", trace_path,
			                 strerror(errno));
		o.on_event = trace_event;
		o.event_user = &tw;
	}
	/* JSON output or a trace owns stdout: script prints go to stderr then. */
	if (json || trace_stdout)
		o.out = stderr;

	struct scn_result res;
	if (trace_path)
		trace_during_run(cmd, &tw);
	if (demo)
		scn_run_buffer(nvm_demo_lua, nvm_demo_lua_len, "demo.lua", &o, &res);
	else
		scn_run_file(file, &o, &res);
	exit_trace = NULL;
	cli_flush(o.out);

	if (res.io_error) {
		if (trace_path) /* nothing ran: leave an existing trace alone */
			trace_abort(&tw);
		return cli_error(res.oom ? EXIT_INTERNAL : EXIT_USAGE, cmd, "%s", res.error);
	}
	int trace_rc = trace_path ? trace_finish(&tw) : 0;
	if (!res.ok)
		fprintf(stderr, "%s\n", res.error);
	if (json) {
		printf("{\"ok\": %s, \"checks_passed\": %d, \"gpus\": %d, \"time_ns\": %llu, \"error\": ",
		       res.ok ? "true" : "false", res.checks_passed, res.gpus_opened, (unsigned long long)res.time_ns);
		if (res.ok)
			fputs("null", stdout);
		else
			json_str(stdout, res.error);
		printf("}\n");
	}
	if (trace_rc)
		return cli_error(EXIT_INTERNAL, cmd, "%s: could not write the trace: %s", trace_path, strerror(errno));
	return res.ok ? EXIT_OK : EXIT_FAIL;
}

int cmd_run(int argc, char **argv)
{
	return scenario_main("run", argc, argv);
}

int cmd_demo(int argc, char **argv)
{
	return scenario_main("demo", argc, argv);
}
