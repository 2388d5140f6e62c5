/* nvmodel bench: the performance harness (bench/). */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"

/* One line per case: the rate (and ns per method), the ratio to the
 * baseline of the same run, the target, and plainly "MISSED" when it is
 * missed; an indented line says what was checked. */
static void print_text(const struct bench_case *b, const struct bench_result *r, double ratio, bool has_target, bool ok)
{
	printf("%-22s %10.3g %-10s", b->name, r->rate, r->unit);
	if (r->per_method_ns > 0)
		printf(" %7.2f ns/method", r->per_method_ns);
	if (r->baseline_rate > 0)
		printf("  ratio %.3f vs %s", ratio, r->baseline);
	if (r->target)
		printf("  (target %s)", r->target);
	else if (r->target_ratio)
		printf("  (target >= %.2f)", r->target_ratio);
	if (!r->target && r->target_rate)
		printf("  (target >= %.3g %s)", r->target_rate, r->unit);
	printf("  %s%s\n", has_target ? (ok ? "met" : "MISSED") : "(no target)",
	       r->bulk ? "  [bulk (not driver-like)]" : "");
	if (r->check)
		printf("%-22s checked: %s\n", "", r->check);
}

static void print_json(const struct bench_case *b, const struct bench_result *r, double ratio, bool has_target, bool ok)
{
	printf("{\"name\": \"%s\", \"unit\": \"%s\", \"rate\": %.0f", b->name, r->unit, r->rate);
	if (r->per_method_ns > 0)
		printf(", \"ns_per_method\": %.3f", r->per_method_ns);
	if (r->baseline_rate > 0)
		printf(", \"baseline\": \"%s\", \"baseline_rate\": %.0f, \"ratio\": %.3f", r->baseline,
		       r->baseline_rate, ratio);
	if (r->target_ratio)
		printf(", \"target_ratio\": %.3f", r->target_ratio);
	if (r->target_rate)
		printf(", \"target_rate\": %.0f", r->target_rate);
	if (r->target) {
		printf(", \"target\": ");
		json_str(stdout, r->target);
	}
	if (r->check) {
		printf(", \"checked\": ");
		json_str(stdout, r->check);
	}
	printf(", \"bulk\": %s, \"ok\": %s}\n", r->bulk ? "true" : "false", !has_target || ok ? "true" : "false");
}

int cmd_bench(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		printf("usage: %s bench [--filter TEXT] [--scale X] [--list] [--json]\n"
		       "\n"
		       "Runs the benchmarks. Each reports a rate and, where it has one, the rate\n"
		       "of a plain baseline over the same data measured in the same run, and the\n"
		       "ratio against its target (\"met\" or \"MISSED\"). The method benchmarks run\n"
		       "driver-like streams and check that every engine method arrived with its data\n"
		       "(docs/performance.md). Exit 1 if a target is missed, 3 if a check fails.\n"
		       "\n"
		       "options:\n"
		       "  --filter TEXT  only benchmarks whose name contains TEXT\n"
		       "  --scale X      work size factor (default 1.0; 0.01 for a smoke run)\n"
		       "  --list         list the benchmarks and exit\n"
		       "  --json         one JSON object per benchmark (with --list: name and\n"
		       "                 description)\n",
		       cli_prog);
		return EXIT_OK;
	}
	const char *filter = NULL, *val;
	double scale = 1.0;
	bool json = false, list = false;
	for (int i = 1; i < argc; i++) {
		int r;
		if ((r = cli_opt(argc, argv, &i, "--filter", &val))) {
			if (r < 0)
				return cli_bad_opt("bench", "--filter", NULL, "a text");
			filter = val;
		} else if ((r = cli_opt(argc, argv, &i, "--scale", &val))) {
			char *end;
			scale = r > 0 ? strtod(val, &end) : 0;
			if (r < 0 || *end || !(scale > 0) || scale > 1000)
				return cli_bad_opt("bench", "--scale", r < 0 ? NULL : val, "a number in (0, 1000]");
		} else if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (!strcmp(argv[i], "--list")) {
			list = true;
		} else {
			return cli_usage_error("bench", "unexpected argument '%s'", argv[i]);
		}
	}
	int missed = 0, ran = 0;
	for (const struct bench_case *const *t = bench_tables; *t; t++) {
		for (const struct bench_case *b = *t; b->name; b++) {
			if (filter && !strstr(b->name, filter))
				continue;
			ran++;
			if (list && json) {
				printf("{\"name\": ");
				json_str(stdout, b->name);
				printf(", \"description\": ");
				json_str(stdout, b->desc);
				printf("}\n");
				continue;
			}
			if (list) {
				printf("%-22s %s\n", b->name, b->desc);
				continue;
			}
			struct bench_result r = { 0 };
			if (b->run(scale, &r))
				return cli_error(EXIT_INTERNAL, "bench", "%s: %s", b->name,
				                 r.error ? r.error : "could not run");
			double ratio = r.baseline_rate > 0 ? r.rate / r.baseline_rate : 0;
			bool ok = (!r.target_ratio || ratio >= r.target_ratio) &&
			          (!r.target_rate || r.rate >= r.target_rate);
			bool has_target = r.target_ratio || r.target_rate;
			missed += !ok;
			if (json)
				print_json(b, &r, ratio, has_target, ok);
			else
				print_text(b, &r, ratio, has_target, ok);
			cli_flush(stdout);
		}
	}
	if (!ran)
		return cli_usage_error("bench", "no benchmark matches '%s'", filter ? filter : "");
	return missed ? EXIT_FAIL : EXIT_OK;
}
