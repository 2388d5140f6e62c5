/*
 * Shared helpers of the nvmodel tool: the sub-command table, exit codes,
 * number parsing, error messages and JSON output.
 */
#ifndef NVM_CLI_H
#define NVM_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes (docs/cli.md). */
enum {
	EXIT_OK = 0,       /* success */
	EXIT_FAIL = 1,     /* the work ran and found a problem: failed check, script error, bad data */
	EXIT_USAGE = 2,    /* bad command line, unreadable or malformed input file */
	EXIT_INTERNAL = 3, /* out of memory or another failure of the tool itself */
};

struct command {
	const char *name;
	const char *summary;
	int (*fn)(int argc, char **argv); /* argv[0] is the command name */
};

/* The table lives in main.c. */
extern const struct command cli_commands[];
extern const char *cli_prog; /* "nvmodel" */

/* "nvmodel CMD: error: MESSAGE" + a hint to --help; returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "nvmodel CMD: error: MESSAGE"; returns code. */
int cli_error(int code, const char *cmd, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The usage error of an option value: "OPT needs WANT" when val is NULL
 * (missing), else "OPT: bad value 'VAL' (WANT)". Returns EXIT_USAGE. */
int cli_bad_opt(const char *cmd, const char *opt, const char *val, const char *want);

/* Parses an unsigned number: decimal, 0x hex, 0b binary, optional K/M/G/T
 * suffix (binary multiples). False on garbage or overflow. */
bool cli_parse_u64(const char *s, uint64_t *out);

/* Does argv contain -h / --help before a "--"? */
bool cli_wants_help(int argc, char **argv);

/* Option with a value: if argv[*i] is NAME or NAME=V, stores V in *val and
 * returns 1 (advancing *i past a separate value); -1 when the value is
 * missing or the next argument is an option (starts with '-' and is not
 * "-"; NAME=-V passes such a value); 0 when argv[*i] is something else. */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);

/* For commands whose only option is --json: sets *json; returns EXIT_OK or
 * (after printing the error) EXIT_USAGE. */
int cli_only_json(const char *cmd, int argc, char **argv, bool *json);

/* Standard output, the one output layer of every command: main() calls
 * cli_stdout_begin before the command and returns cli_stdout_end(rc) after
 * it. Output that could not be written (a full disk, /dev/full, a closed
 * pipe) is an internal error: "nvmodel CMD: error: standard output: REASON",
 * exit 3, whatever the command found (unless it returned 3 after its own
 * message). A script's os.exit() ends the process without returning: an
 * atexit handler makes the same check then (_exit(3) on a write error). */
void cli_stdout_begin(void);
/* The command whose output it is, for the message. */
void cli_stdout_command(const char *cmd);
int cli_stdout_end(int rc);
/* fflush that keeps the reason of a failure on standard output for that
 * message; for commands that flush before their end. */
void cli_flush(FILE *f);

/* JSON helpers. */
void json_str(FILE *f, const char *s);

/* Input files: "-" is standard input. A command reads what it needs and
 * holds at most CLI_INPUT_MAX bytes of one input (commands that can stream
 * a regular file, pb decode and the vm images, do so instead): more is a
 * usage error, "PATH: more than 64 MiB from offset N, the most a command
 * holds" (exit 2), even from an endless input (/dev/zero); out of memory
 * while reading is exit 3. */
#define CLI_INPUT_MAX ((size_t)64 << 20)
#define CLI_ALL       UINT64_MAX
/* Reads up to `want` bytes (CLI_ALL: to the end) from byte `from` on:
 * skipped by seeking where the input can, else read and dropped. Returns
 * EXIT_OK with *buf (to free; may be NULL when *len is 0) and *len bytes
 * (fewer than want at the end of the input), *size the bytes the input was
 * seen to have (less than from when it ends before); or the exit code after
 * the message (unreadable: 2, too large: 2, out of memory: 3). */
int cli_read_part(const char *cmd, const char *path, uint64_t from, uint64_t want, uint8_t **buf, size_t *len,
                  uint64_t *size);
/* An input file of a command, read whole (cli_read_part): unreadable and
 * empty inputs are both usage errors (exit 2, "PATH: empty input"), for
 * every command alike. Returns EXIT_OK with *buf to free, or the exit
 * code. */
int cli_read_input(const char *cmd, const char *path, uint8_t **buf, size_t *len);

/* The input of the structure decoders (host, pfifo): bytes, or with hex
 * 32-bit words that become little-endian bytes, as the GPU stores them.
 * Unreadable or empty input (also hex text without a word) is a usage error
 * (exit 2, "PATH: empty input"). Returns EXIT_OK with *buf to free, or the
 * exit code. */
int cli_read_bytes(const char *cmd, const char *path, bool hex, uint8_t **buf, size_t *len);

/* What the structure decoders (host, pfifo) share on their command line:
 * one input FILE, --offset N, --hex, --json and --all. */
struct cli_dump {
	const char *cmd; /* "host ramin" ... */
	const char *file;
	uint64_t offset;
	bool hex, json, all;
};
/* Loads a dump command's input as bytes from --offset: a binary input is
 * read from there for `want` bytes at most (CLI_ALL: to its end), hex text
 * whole. An empty input or an offset past the end is a usage error. *data
 * points at the offset, *len bytes follow; *base is the allocation to free. */
int cli_dump_load(const struct cli_dump *in, uint64_t want, uint8_t **base, const uint8_t **data, size_t *len);
/* Returned by a command's own option parser for an argument not its own. */
#define CLI_NOT_MINE (-1)
/* Parses argv (argv[0] the sub-command) into d; the options d does not know
 * go first to own(o, argc, argv, &i), which returns CLI_NOT_MINE, EXIT_OK,
 * or EXIT_USAGE after the error. Returns EXIT_OK or the exit code. */
int cli_dump_parse(struct cli_dump *d, int argc, char **argv, int (*own)(void *o, int argc, char **argv, int *i),
                   void *o);

/* Parses hex text (hexwords.c: 32-bit words separated by spaces, tabs,
 * commas or newlines, 0x optional) into words. Returns NULL after printing
 * the error ("PATH:LINE: bad hex word"); caller frees. */
uint32_t *cli_parse_hex(const char *cmd, const char *path, const uint8_t *buf, size_t len, size_t *nout);

/* Sub-commands. */
int cmd_demo(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_chips(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_hwsq(int argc, char **argv);
int cmd_pb(int argc, char **argv);
int cmd_version(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_vm(int argc, char **argv);
/* vm walk / dump (cmd_vm.c), the options of both formats (volta, g80):
 * --vram, --sysmem, --json; dump also --dot and --max-entries. */
struct vm_common {
	const char *vram, *sysmem, *max_s;
	bool json, dot;
	uint64_t max_entries;
};
#define VM_DEFAULT_MAX_ENTRIES 4000000ull
/* If argv[*i] is one of them: 1 (advancing *i past a value), or -1 when its
 * value is missing; 0 when it is something else. */
int vm_common_opt(int argc, char **argv, int *i, struct vm_common *c, bool walk);
/* The checks of --max-entries (default set here) and --dot after parsing:
 * EXIT_OK or EXIT_USAGE after the error. */
int vm_common_check(const char *cmd, struct vm_common *c, bool walk);
/* Loads --vram / --sysmem into a GPU of chip. */
struct nvm_gpu;
int vm_open_images(const char *cmd, const struct vm_common *c, const char *chip, struct nvm_gpu **gpu);
int cmd_fault(int argc, char **argv);
int cmd_host(int argc, char **argv);
int cmd_pfifo(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);

#endif
