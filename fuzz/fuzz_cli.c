/*
 * Fuzz target: the tool's structure decoders through their commands, the
 * printing layers included: `pfifo ramht|ramfc` (every PFIFO chip, --bits,
 * --search, --large, --channel), `host ramin|userd|runlist` (--count,
 * --limit2), `fault decode`, `vm walk|dump` of both formats (range merging,
 * --dot, --json, --max-entries). Standard output goes to a memory stream,
 * standard error to /dev/null, the input file is a memfd.
 *
 * Input: command (1: low 4 bits), flags (1: --json 0, --all 1, --dot 2,
 * --hex 3, --sysmem 4, --large / --write 5, 7:6 a choice), P (4, LE), Q (2,
 * LE), then the file. Checks: the exit code is 0, 1 or 2; no NUL in the
 * output; with --json the output is one JSON value or every line is one
 * (JSON Lines; RFC 8259, UTF-8); --dot output is one digraph.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "fuzz.h"
#include "json_check.h"

#define HDR 8u

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_cli: %s\n", what);
		abort();
	}
}

static const char *const pfifo_chips[] = { "nv01", "nv03", "nv03t", "nv04", "nv10", "nv11", "nv17",
	                                   "nv40", "nv41", "g80",   "g84",  "g92",  "gt215" };
/* The GMMU and Host chips (host, fault and vm take --chip). */
static const char *const gmmu_chips[] = { "gv100", "tu102", "ga100", "ga102", "gh100" };
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))
static const char *const g80_chips[] = { "g80", "g84", "g92", "gt215" };
static const char *const apertures[] = { "vram", "sysmem", "sysmem_ncoh", "sysmem_coh" };

struct argv_b {
	char *v[32];
	char num[12][24];
	int n, nn;
};

static void arg(struct argv_b *a, const char *s)
{
	if (a->n < 31)
		a->v[a->n++] = (char *)s;
}

static void arg_num(struct argv_b *a, const char *opt, const char *fmt, unsigned long long x)
{
	if (a->nn == 12)
		return;
	snprintf(a->num[a->nn], sizeof(a->num[0]), fmt, x);
	arg(a, opt);
	arg(a, a->num[a->nn++]);
}

/* The checks on what a command printed. */
static void check_output(const char *out, size_t len, bool json, bool dot)
{
	check(!memchr(out, 0, len), "NUL byte in the output");
	if (dot && len) {
		check(len >= 10 && !memcmp(out, "digraph", 7), "--dot output does not start a digraph");
		check(!memcmp(out + len - 2, "}\n", 2), "--dot output does not end the digraph");
	}
	if (!json || dot || json_valid(out, len))
		return; /* one JSON object (host, pfifo, vm walk), or JSON Lines: */
	for (size_t i = 0; i < len;) {
		const char *nl = memchr(out + i, '\n', len - i);
		check(nl != NULL, "JSON output does not end with a newline");
		size_t n = (size_t)(nl - (out + i));
		check(json_valid(out + i, n), "a JSON line is not one valid JSON value");
		i += n + 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	static FILE *null_err;
	if (fd < 0) {
		fd = memfd_create("fuzz_cli", 0);
		null_err = fopen("/dev/null", "w");
		check(fd >= 0 && null_err, "memfd_create or /dev/null");
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (size < HDR)
		return 0;
	unsigned cmd = data[0] % 10, fl = data[1];
	uint32_t p = (uint32_t)fz_le(data + 2, 4);
	uint32_t q = (uint32_t)fz_le(data + 6, 2);
	check(ftruncate(fd, 0) == 0 && pwrite(fd, data + HDR, size - HDR, 0) == (ssize_t)(size - HDR), "memfd write");
	bool json = fl & 1, dot = false;
	struct argv_b a = { 0 };
	int (*fn)(int, char **) = NULL;
	switch (cmd) {
	case 0:
	case 1:
		fn = cmd_pfifo;
		arg(&a, "pfifo");
		arg(&a, cmd ? "ramfc" : "ramht");
		arg(&a, path);
		arg(&a, "--chip");
		arg(&a, pfifo_chips[q % NELEM(pfifo_chips)]);
		if (!cmd && (fl & 0x40))
			arg_num(&a, "--bits", "%llu", 9 + (p & 3));
		if (!cmd && (fl & 0x80))
			arg_num(&a, "--search", "%llu", 16ull << (p >> 2 & 3));
		if (cmd && (fl & 0x20))
			arg(&a, "--large");
		if (cmd && (fl & 0x40))
			arg_num(&a, "--channel", "%llu", p & 0x7f);
		break;
	case 2:
	case 3:
	case 4:
		fn = cmd_host;
		arg(&a, "host");
		arg(&a, cmd == 2 ? "ramin" : cmd == 3 ? "userd" : "runlist");
		arg(&a, path);
		if (cmd == 4 && (fl & 0x40))
			arg_num(&a, "--count", "%llu", p & 0xffff);
		if (cmd == 3 && (fl & 0x40))
			arg_num(&a, "--limit2", "%llu", p & 0x1f);
		if (fl & 0x80) {
			arg(&a, "--chip");
			arg(&a, gmmu_chips[q % NELEM(gmmu_chips)]);
		}
		break;
	case 5:
		fn = cmd_fault;
		arg(&a, "fault");
		arg(&a, "decode");
		arg(&a, path);
		if (fl & 0x80) {
			arg(&a, "--chip");
			arg(&a, gmmu_chips[q % NELEM(gmmu_chips)]);
		}
		break;
	default: {
		bool g80 = cmd >= 8, walk = cmd == 6 || cmd == 8;
		dot = !walk && !json && (fl & 4);
		fn = cmd_vm;
		arg(&a, "vm");
		arg(&a, walk ? "walk" : "dump");
		if (g80) {
			arg(&a, "--format");
			arg(&a, "g80");
			arg(&a, "--chip");
			arg(&a, g80_chips[fl >> 6]);
		}
		arg(&a, "--vram");
		arg(&a, path);
		if (fl & 0x10) {
			arg(&a, "--sysmem");
			arg(&a, path);
		}
		if (g80) {
			arg_num(&a, "--chan", "0x%llx", p & 0x3fffffffu);
			if (walk) {
				arg_num(&a, "--selector", "0x%llx", q);
				arg_num(&a, "--offset", "0x%llx", (unsigned long long)p << 8 ^ q);
				if (fl & 0x20)
					arg(&a, "--write");
				if (fl & 8)
					arg(&a, "--user");
			}
		} else {
			if (fl & 0x20) {
				arg(&a, "--chip");
				arg(&a, gmmu_chips[q % NELEM(gmmu_chips)]);
			}
			if (a.nn < 12) {
				snprintf(a.num[a.nn], sizeof(a.num[0]), "%s:0x%llx", apertures[fl >> 6],
				         (unsigned long long)(q & 0xfff) << 12);
				arg(&a, "--pdb");
				arg(&a, a.num[a.nn++]);
			}
			if (walk)
				arg_num(&a, "--va", "0x%llx", (unsigned long long)p << 16);
		}
		if (!walk)
			arg_num(&a, "--max-entries", "%llu", 1 + (p >> 20 & 0xfff));
		break;
	}
	}
	if (cmd <= 4 && (fl & 8))
		arg(&a, "--hex");
	if (cmd <= 5 && (fl & 2))
		arg(&a, "--all");
	if (json)
		arg(&a, "--json");
	if (dot)
		arg(&a, "--dot");
	a.v[a.n] = NULL;
	char *out = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&out, &len);
	check(mem != NULL, "open_memstream");
	FILE *old_out = stdout, *old_err = stderr;
	stdout = mem;
	stderr = null_err;
	int rc = fn(a.n, a.v);
	stdout = old_out;
	stderr = old_err;
	check(fclose(mem) == 0, "memory stream");
	check(rc == EXIT_OK || rc == EXIT_FAIL || rc == EXIT_USAGE, "exit code other than 0, 1 or 2");
	if (rc != EXIT_USAGE)
		check_output(out, len, json, dot);
	free(out);
	return 0;
}
