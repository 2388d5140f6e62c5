/*
 * nvmodel — the command-line tool. One file per sub-command; this table is
 * the only place that lists them.
 */
#include <string.h>

#include "cli.h"
#include "nvmodel/nvmodel.h"

const struct command cli_commands[] = {
	{ "demo", "run the built-in demonstration scenario", cmd_demo },
	{ "run", "run a Lua scenario script", cmd_run },
	{ "chips", "list the chip profiles", cmd_chips },
	{ "bench", "run the performance benchmarks", cmd_bench },
	{ "hwsq", "HWSQ scripts: disassemble, assemble, run (dis|as|run)", cmd_hwsq },
	{ "pb", "decode, check and assemble pushbuffers and GP entries", cmd_pb },
	{ "vm", "walk or dump GPU page tables in a memory image", cmd_vm },
	{ "fault", "decode GPU fault-buffer packets", cmd_fault },
	{ "host", "decode and check Volta Host structures (ramin|userd|runlist)", cmd_host },
	{ "pfifo", "decode and check NV04..G80 PFIFO structures (ramht|ramfc)", cmd_pfifo },
	{ "snapshot", "inspect and check GPU save states (info|check)", cmd_snapshot },
	{ "version", "print the version", cmd_version },
	{ "help", "show help for a command", cmd_help },
	{ NULL, NULL, NULL },
};

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: %s <command> [options]\n"
	        "\n"
	        "A functional model of the NVIDIA GPU front end: command submission,\n"
	        "memory management and the hardware sequencer.\n"
	        "\n"
	        "commands:\n",
	        cli_prog);
	for (const struct command *c = cli_commands; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	fprintf(f,
	        "\n"
	        "Run '%s <command> --help' for a command's options.\n"
	        "Exit codes: 0 ok, 1 the run found a problem, 2 usage or input error,\n"
	        "3 internal error.\n",
	        cli_prog);
}

static const struct command *find(const char *name)
{
	for (const struct command *c = cli_commands; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int cmd_help(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	const struct command *c = find(argv[1]);
	if (!c || c->fn == cmd_help)
		return c ? (usage(stdout), EXIT_OK) : cli_usage_error(NULL, "unknown command '%s'", argv[1]);
	char *args[] = { (char *)c->name, "--help", NULL };
	return c->fn(2, args);
}

int cmd_version(int argc, char **argv)
{
	if (cli_wants_help(argc, argv)) {
		printf("usage: %s version [--json]\n\nPrints the version of the tool and library.\n", cli_prog);
		return EXIT_OK;
	}
	bool json;
	int rc = cli_only_json("version", argc, argv, &json);
	if (rc)
		return rc;
	if (json)
		printf("{\"version\": \"%s\"}\n", nvm_version());
	else
		printf("nvmodel %s\n", nvm_version());
	return EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	const char *name = argv[1];
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(name, "--version"))
		name = "version";
	const struct command *c = find(name);
	if (!c)
		return cli_usage_error(NULL, "unknown command '%s'", name);
	cli_stdout_command(c->name);
	return c->fn(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
	cli_stdout_begin();
	return cli_stdout_end(dispatch(argc, argv));
}
