/*
 * nvmodel hwsq dis|as|run: the HWSQ disassembler, assembler and runner
 * (docs/hwsq.md, docs/cli.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "outfile.h"
#include "nvmodel/hwsq.h"
#include "nvmodel/nvmodel.h"

#define CMD "hwsq"

static void hwsq_help(FILE *f)
{
	fprintf(f,
	        "usage: %s hwsq dis FILE.bin --variant V [--quiet] [--json]\n"
	        "       %s hwsq as FILE.s -o OUT.bin --variant V\n"
	        "       %s hwsq run FILE --variant V [--entry N] [--at ADDR] [--event N=L]...\n"
	        "                   [--no-enable] [--max-ns NS] [--trace] [--json]\n"
	        "\n"
	        "HWSQ, the hardware sequencer of NV17:GF100 (docs/hwsq.md).\n"
	        "\n"
	        "  dis   disassemble a binary, one instruction a line as current envydis -m hwsq\n"
	        "        prints it: ADDRESS: BYTES  INSTRUCTION (--quiet: the instruction only;\n"
	        "        --json: one object per instruction)\n"
	        "  as    assemble a source file (envyas text, or a whole envydis listing) into\n"
	        "        a binary; one longer than the variant's code RAM is written with a\n"
	        "        warning (run and the Lua upload refuse it)\n"
	        "  run   run a script (a binary, or FILE.s assembled first) on a fresh GPU of\n"
	        "        the variant, as a driver would: upload through the code window, set\n"
	        "        entry point N (0-3) to ADDR (default: entry 0 at 0, or the label\n"
	        "        entryN in a .s file), set HWSQ_ENABLE, trigger slot A. Prints the\n"
	        "        MMIO writes with their virtual times, the flags, STATUS and the time.\n"
	        "        Exit 1 when the script has not ended (hung, waiting, or over --max-ns).\n"
	        "\n"
	        "FILE '-' is standard input.\n"
	        "\n"
	        "options:\n"
	        "  --variant V    nv17, nv41, g80 or g92 (envydis -V: g80 for g92)\n"
	        "  -o OUT         output file of 'as' ('-' for standard output)\n"
	        "  --entry N      entry point index 0-3 (run)\n"
	        "  --at ADDR      code address for that entry point (run)\n"
	        "  --event N=L    drive event input N (1-31) to level L before the start (run)\n"
	        "  --no-enable    leave PBUS_DEBUG_6 HWSQ_ENABLE at 0 (pokes then hang)\n"
	        "  --max-ns NS    virtual time budget of 'run' (default 10000000000)\n"
	        "  --trace        also print every executed instruction (run)\n"
	        "  --json         JSON output\n"
	        "  -h, --help     this help\n",
	        cli_prog, cli_prog, cli_prog);
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

struct opts {
	const char *sub, *file, *out, *variant_name;
	nvm_hwsq_variant variant;
	bool have_variant, quiet, json, trace, no_enable;
	unsigned entry;
	long at; /* -1: not given */
	uint64_t max_ns;
	uint32_t ev_mask, ev_level;
};

static int parse(int argc, char **argv, struct opts *o)
{
	*o = (struct opts){ .at = -1, .max_ns = 10000000000ull };
	o->sub = argv[1];
	static char name[32];
	snprintf(name, sizeof(name), "hwsq %s", o->sub);
	for (int i = 2; i < argc; i++) {
		const char *val;
		int r;
		uint64_t n;
		if ((r = cli_opt(argc, argv, &i, "--variant", &val))) {
			if (r < 0 || nvm_hwsq_variant_parse(val, &o->variant))
				return cli_bad_opt(name, "--variant", r < 0 ? NULL : val, "nv17, nv41, g80 or g92");
			o->have_variant = true;
		} else if (!strcmp(o->sub, "as") && (r = cli_opt(argc, argv, &i, "-o", &val))) {
			if (r < 0 || !*val)
				return cli_bad_opt(name, "-o", NULL, "an output file");
			o->out = val;
		} else if (!strcmp(o->sub, "run") && (r = cli_opt(argc, argv, &i, "--entry", &val))) {
			if (r < 0 || !cli_parse_u64(val, &n) || n > 3)
				return cli_bad_opt(name, "--entry", r < 0 ? NULL : val, "an entry point index 0-3");
			o->entry = (unsigned)n;
		} else if (!strcmp(o->sub, "run") && (r = cli_opt(argc, argv, &i, "--at", &val))) {
			if (r < 0 || !cli_parse_u64(val, &n) || n > 0x1ff)
				return cli_bad_opt(name, "--at", r < 0 ? NULL : val, "a code address 0-0x1ff");
			o->at = (long)n;
		} else if (!strcmp(o->sub, "run") && (r = cli_opt(argc, argv, &i, "--max-ns", &val))) {
			if (r < 0 || !cli_parse_u64(val, &o->max_ns) || !o->max_ns)
				return cli_bad_opt(name, "--max-ns", r < 0 ? NULL : val, "a positive number of ns");
		} else if (!strcmp(o->sub, "run") && (r = cli_opt(argc, argv, &i, "--event", &val))) {
			const char *eq = r > 0 ? strchr(val, '=') : NULL;
			char num[16];
			uint64_t lvl;
			if (!eq || eq - val >= (long)sizeof(num))
				return cli_bad_opt(name, "--event", r < 0 ? NULL : val,
				                   "N=LEVEL, N 1-31, LEVEL 0 or 1");
			memcpy(num, val, (size_t)(eq - val));
			num[eq - val] = 0;
			if (!cli_parse_u64(num, &n) || n < 1 || n > 31 || !cli_parse_u64(eq + 1, &lvl) || lvl > 1)
				return cli_bad_opt(name, "--event", val, "N=LEVEL, N 1-31, LEVEL 0 or 1");
			o->ev_mask |= 1u << n;
			o->ev_level = (o->ev_level & ~(1u << n)) | ((uint32_t)lvl << n);
		} else if (!strcmp(argv[i], "--json") && strcmp(o->sub, "as")) {
			o->json = true;
		} else if (!strcmp(argv[i], "--quiet") && !strcmp(o->sub, "dis")) {
			o->quiet = true;
		} else if (!strcmp(argv[i], "--trace") && !strcmp(o->sub, "run")) {
			o->trace = true;
		} else if (!strcmp(argv[i], "--no-enable") && !strcmp(o->sub, "run")) {
			o->no_enable = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return cli_usage_error(name, "unknown option '%s'", argv[i]);
		} else if (!o->file) {
			o->file = argv[i];
		} else {
			return cli_usage_error(name, "unexpected argument '%s'", argv[i]);
		}
	}
	if (!o->file)
		return cli_usage_error(name, "no input file given");
	if (!o->have_variant)
		return cli_usage_error(name, "--variant is required (nv17, nv41, g80 or g92)");
	if (!strcmp(o->sub, "as") && !o->out)
		return cli_usage_error(name, "-o OUT.bin is required");
	return -1;
}

/* ---------------------------------------------------------------- dis */

static void put_hex_bytes(FILE *f, const uint8_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%02x", b[i]);
}

/* How messages name the input: "-" is standard input. */
static const char *input_name(const struct opts *o)
{
	return strcmp(o->file, "-") ? o->file : "<stdin>";
}

/* The input (unreadable or empty: exit 2, as for every command). */
static uint8_t *read_input(const struct opts *o, size_t *len, int *rc)
{
	uint8_t *buf;
	*rc = cli_read_input(o->sub[0] == 'd'   ? "hwsq dis"
	                     : o->sub[0] == 'a' ? "hwsq as"
	                                        : "hwsq run",
	                     o->file, &buf, len);
	return *rc ? NULL : buf;
}

/* The operand fields of --json: the number and, where the text has one,
 * the name (null when the flag or event prints as a number). */
static void json_operands(const nvm_hwsq_insn *in)
{
	if (in->opnd != NVM_HWSQ_OPND_FLAG && in->opnd != NVM_HWSQ_OPND_EVENT)
		return;
	bool flag = in->opnd == NVM_HWSQ_OPND_FLAG;
	printf(", \"%s\": %u, \"name\": ", flag ? "flag" : "event", in->arg[0]);
	if (in->name)
		json_str(stdout, in->name);
	else
		printf("null");
	if (!flag)
		printf(", \"value\": %u", in->arg[1]);
}

static int do_dis(const struct opts *o)
{
	size_t len;
	uint8_t *code;
	int rc = cli_read_input("hwsq dis", o->file, &code, &len);
	if (rc)
		return rc;
	nvm_hwsq_dis *d = malloc(sizeof(*d));
	if (!d) {
		free(code);
		return cli_error(EXIT_INTERNAL, CMD, "out of memory");
	}
	nvm_hwsq_dis_init(d, o->variant, o->quiet);
	static char buf[1 << 16];
	size_t used = 0, pos = 0;
	while (pos < len) {
		if (o->json) {
			nvm_hwsq_insn in;
			size_t at = pos;
			nvm_hwsq_decode(d, code, len, pos, &in);
			pos += in.avail;
			printf("{\"addr\": %zu, \"bytes\": \"", at);
			put_hex_bytes(stdout, code + at, in.avail);
			printf("\", \"mnemonic\": ");
			json_str(stdout, in.mnemonic);
			printf(", \"text\": ");
			json_str(stdout, in.text);
			json_operands(&in);
			printf(", \"known\": %s, \"incomplete\": %s}\n", in.known ? "true" : "false",
			       in.avail < in.len ? "true" : "false");
			continue;
		}
		if (used + NVM_HWSQ_LINE_MAX > sizeof(buf)) {
			fwrite(buf, 1, used, stdout);
			used = 0;
		}
		used += nvm_hwsq_dis_next(d, code, len, &pos, buf + used);
	}
	fwrite(buf, 1, used, stdout);
	free(d);
	free(code);
	return EXIT_OK; /* main checks that standard output was written */
}

/* ---------------------------------------------------------------- as */

/* Assembles the input into *out (malloc'd, any length). */
static int assemble_input(const struct opts *o, uint8_t **out, size_t *n, char **src_out, size_t *srclen)
{
	const char *cmd = o->sub[0] == 'a' ? "hwsq as" : "hwsq run";
	uint8_t *src;
	int rc = cli_read_input(cmd, o->file, &src, srclen);
	if (rc)
		return rc;
	nvm_hwsq_asm_error e;
	/* First the size (any length, as envyas), then the bytes. */
	nvm_status st = nvm_hwsq_assemble(o->variant, (const char *)src, *srclen, NULL, 0, n, &e);
	*out = NULL;
	if (st == NVM_ERR_RANGE) {
		*out = malloc(*n);
		st = *out ? nvm_hwsq_assemble(o->variant, (const char *)src, *srclen, *out, *n, n, &e) : NVM_ERR_NOMEM;
	}
	if (st) {
		free(src);
		free(*out);
		if (st == NVM_ERR_NOMEM)
			return cli_error(EXIT_INTERNAL, CMD, "out of memory");
		if (e.line)
			return cli_error(EXIT_FAIL, cmd, "%s:%d: %s", input_name(o), e.line, e.message);
		return cli_error(EXIT_FAIL, cmd, "%s: %s", input_name(o), e.message);
	}
	if (src_out)
		*src_out = (char *)src;
	else
		free(src);
	return EXIT_OK;
}

static int do_as(const struct opts *o)
{
	if (!out_is_stdout(o->out) && strcmp(o->file, "-") && same_file(o->out, o->file))
		return cli_usage_error("hwsq as", "-o %s would overwrite the input", o->out);
	struct out_file out;
	if (out_open(&out, o->out))
		return cli_error(EXIT_INTERNAL, "hwsq as", "%s: cannot write: %s", o->out, strerror(errno));
	uint8_t *code;
	size_t n, srclen;
	int rc = assemble_input(o, &code, &n, NULL, &srclen);
	if (rc) {
		out_abort(&out);
		return rc;
	}
	uint32_t size = nvm_hwsq_code_size(o->variant);
	if (n > size)
		fprintf(stderr,
		        "%s hwsq as: warning: %s: the program is %zu (0x%zx) bytes, more than the %s code RAM "
		        "holds (0x%x bytes); written all the same, but it cannot be uploaded\n",
		        cli_prog, input_name(o), n, n, nvm_hwsq_variant_name(o->variant), size);
	bool bad = n && fwrite(code, 1, n, out.f) != n;
	free(code);
	if (bad) {
		out_abort(&out);
		return cli_error(EXIT_INTERNAL, "hwsq as", "%s: write failed: %s", o->out, strerror(errno));
	}
	if (out_commit(&out))
		return cli_error(EXIT_INTERNAL, "hwsq as", "%s: write failed: %s", o->out, strerror(errno));
	return EXIT_OK;
}

/* ---------------------------------------------------------------- run */

struct run_log {
	const struct opts *o;
	size_t n, cap;
	uint64_t (*w)[3];
	char **trace;
	size_t ntrace, trace_cap;
	char spin[256]; /* where the sequencer spun when the budget ran out */
};

static void log_poke(struct run_log *l, const nvm_event *ev)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		void *nw = realloc(l->w, cap * sizeof(*l->w));
		if (!nw)
			return;
		l->w = nw;
		l->cap = cap;
	}
	l->w[l->n][0] = ev->time_ns;
	l->w[l->n][1] = ev->addr;
	l->w[l->n][2] = ev->value;
	l->n++;
}

static void log_trace_line(struct run_log *l, const nvm_event *ev)
{
	if (l->ntrace == l->trace_cap) {
		size_t cap = l->trace_cap ? l->trace_cap * 2 : 64;
		void *nt = realloc(l->trace, cap * sizeof(char *));
		if (!nt)
			return;
		l->trace = nt;
		l->trace_cap = cap;
	}
	char line[320];
	snprintf(line, sizeof(line), "%llu ns: %s", (unsigned long long)ev->time_ns, ev->message);
	l->trace[l->ntrace] = strdup(line);
	if (l->trace[l->ntrace])
		l->ntrace++;
}

/* With --trace: every trace line of the sequencer (instructions, pokes,
 * pause events). */
static void trace_hook(void *user, const nvm_event *ev)
{
	struct run_log *l = user;
	if (strcmp(ev->block, "hwsq"))
		return;
	if (!strcmp(ev->code, "poke"))
		log_poke(l, ev);
	if (l->o->json)
		log_trace_line(l, ev);
	else
		printf("%12llu ns  %s\n", (unsigned long long)ev->time_ns, ev->message);
}

/* Without --trace the pokes are taken from the register writes they make
 * (and the guest errors of those dropped), so that no instruction trace is
 * formatted: during the run only the sequencer writes registers. */
static void poke_hook(void *user, const nvm_event *ev)
{
	struct run_log *l = user;
	bool dropped = ev->type == NVM_EV_GUEST_ERROR && !strcmp(ev->code, "bad_poke");
	if (ev->type != NVM_EV_MMIO && !dropped)
		return;
	log_poke(l, ev);
	if (!l->o->json)
		printf("%12llu ns  MMIO 0x%06llx <- 0x%08llx\n", (unsigned long long)ev->time_ns,
		       (unsigned long long)ev->addr, (unsigned long long)ev->value);
}

static void spin_hook(void *user, const nvm_event *ev)
{
	struct run_log *l = user;
	if (!strcmp(ev->block, "hwsq") && !strcmp(ev->code, "spin") && !l->spin[0])
		snprintf(l->spin, sizeof(l->spin), "%s", ev->message);
}

static const char *const state_names[] = { "unset", "set0", "set1" };

/* The script to run: a binary, or a .s file assembled first. */
static int load_script(const struct opts *o, uint8_t **code, size_t *n, char **src, size_t *srclen)
{
	size_t flen = strlen(o->file);
	*src = NULL;
	if (flen > 2 && !strcmp(o->file + flen - 2, ".s"))
		return assemble_input(o, code, n, src, srclen);
	int rc;
	*code = read_input(o, n, &rc);
	return *code ? EXIT_OK : rc;
}

static int do_run(const struct opts *o)
{
	uint8_t code[0x200] = { 0 };
	size_t n = 0, srclen = 0;
	char *src;
	uint8_t *script;
	uint32_t size = nvm_hwsq_code_size(o->variant);
	int rc = load_script(o, &script, &n, &src, &srclen);
	if (rc)
		return rc;
	if (n > size) {
		free(script);
		free(src);
		return cli_error(EXIT_FAIL, "hwsq run", "%s: %zu (0x%zx) bytes do not fit the %s code RAM (0x%x bytes)",
		                 input_name(o), n, n, nvm_hwsq_variant_name(o->variant), size);
	}
	if (n)
		memcpy(code, script, n);
	free(script);
	long at = o->at;
	if (at < 0 && src) {
		char label[8];
		snprintf(label, sizeof(label), "entry%u", o->entry);
		at = nvm_hwsq_asm_label(o->variant, src, srclen, label);
	}
	free(src);
	if (at < 0)
		at = 0;
	if ((uint32_t)at >= size)
		return cli_usage_error("hwsq run", "--at 0x%lx is outside the %s code RAM (0x%x bytes)", at,
		                       nvm_hwsq_variant_name(o->variant), size);

	nvm_gpu *gpu;
	nvm_config cfg = { .chip = nvm_hwsq_variant_chip(o->variant), .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	if (nvm_open(&cfg, &gpu))
		return cli_error(EXIT_INTERNAL, CMD, "cannot open a %s GPU", cfg.chip);
	struct run_log log = { .o = o };
	if (o->trace)
		nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_TRACE), trace_hook, &log, NULL);
	if (!o->json)
		printf("variant %s (chip %s), entry %u at 0x%03lx, %zu bytes\n", nvm_hwsq_variant_name(o->variant),
		       cfg.chip, o->entry, at, n);
	/* As a driver: upload through the windows, entry point, enable, trigger. */
	for (uint32_t i = 0; i < size; i += 4) {
		uint32_t w = (uint32_t)code[i] | (uint32_t)code[i + 1] << 8 | (uint32_t)code[i + 2] << 16 |
		             (uint32_t)code[i + 3] << 24;
		nvm_reg_write(gpu, i < 0x100 ? 0x1400 + i : 0x80000 + i, w);
	}
	nvm_reg_write(gpu, 0x1304, (uint32_t)(at & 0xff) << (8 * o->entry));
	if (at > 0xff)
		nvm_reg_write(gpu, 0x1318, 1u << (8 * o->entry));
	if (!o->no_enable)
		nvm_reg_write(gpu, 0x1098, 1u << 3);
	for (unsigned e = 1; e < 32; e++)
		if (o->ev_mask & (1u << e))
			nvm_hwsq_set_event(gpu, e, (int)((o->ev_level >> e) & 1));
	nvm_reg_write(gpu, 0x130c, 0x3u | (o->entry << 2));
	if (!o->trace)
		nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_MMIO) | NVM_EV_MASK(NVM_EV_GUEST_ERROR), poke_hook, &log, NULL);
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_GUEST_ERROR), spin_hook, &log, NULL);
	nvm_run_opts ro = { .ns = o->max_ns, .flags = NVM_RUN_UNTIL_IDLE };
	nvm_run_status rs = nvm_run(gpu, &ro);
	nvm_hwsq_state st;
	nvm_hwsq_get_state(gpu, &st);
	uint64_t t = nvm_time_ns(gpu);
	const nvm_hwsq_slot_state *a = &st.slot[0];
	if (o->json) {
		printf("{\"variant\": \"%s\", \"status\": %u, \"ip\": %u, \"executing\": %s, \"illegal\": %s, "
		       "\"time_ns\": %llu, \"run\": \"%s\", \"instructions\": %llu, \"mmio_writes\": [",
		       nvm_hwsq_variant_name(o->variant), st.status, a->ip, a->executing ? "true" : "false",
		       a->illegal ? "true" : "false", (unsigned long long)t, nvm_run_status_str(rs),
		       (unsigned long long)st.instructions);
		for (size_t i = 0; i < log.n; i++)
			printf("%s[%llu, %llu, %llu]", i ? ", " : "", (unsigned long long)log.w[i][0],
			       (unsigned long long)log.w[i][1], (unsigned long long)log.w[i][2]);
		printf("], \"flags\": [");
		for (unsigned f = 0; f < 32; f++)
			printf("%s[%u, \"%s\"]", f ? ", " : "", f, state_names[nvm_hwsq_flag(&st, f)]);
		printf("]");
		if (o->trace) {
			printf(", \"trace\": [");
			for (size_t i = 0; i < log.ntrace; i++) {
				printf("%s", i ? ", " : "");
				json_str(stdout, log.trace[i]);
			}
			printf("]");
		}
		printf("}\n");
	} else {
		int shown = 0;
		printf("flags:");
		for (unsigned f = 0; f < 32; f++) {
			nvm_hwsq_flag_state fs = nvm_hwsq_flag(&st, f);
			if (fs == NVM_HWSQ_UNSET)
				continue;
			const char *nm = nvm_hwsq_flag_name(o->variant, f);
			printf(" %u%s%s=%s", f, nm ? ":" : "", nm ? nm : "", state_names[fs]);
			shown++;
		}
		printf("%s\n", shown ? "" : " all unset");
		printf("status: 0x%08x (slot A: ip 0x%03x, executing %d, illegal %d)\n", st.status, a->ip, a->executing,
		       a->illegal);
		printf("time: %llu ns (run ended: %s, %llu instructions)\n", (unsigned long long)t,
		       nvm_run_status_str(rs), (unsigned long long)st.instructions);
	}
	for (size_t i = 0; i < log.ntrace; i++)
		free(log.trace[i]);
	free(log.trace);
	free(log.w);
	nvm_close(gpu);
	if (a->executing && log.spin[0])
		return cli_error(EXIT_FAIL, "hwsq run", "%s: the script has not ended: %s", o->file, log.spin);
	if (a->executing) {
		return cli_error(EXIT_FAIL, "hwsq run", "%s: the script has not ended (%s)", o->file,
		                 a->illegal ? "hung on an unknown opcode"
		                            : "still executing: waiting, or a poke held, when the run ended");
	}
	return EXIT_OK;
}

int cmd_hwsq(int argc, char **argv)
{
	if (argc < 2) {
		hwsq_help(stderr);
		return EXIT_USAGE;
	}
	if (cli_wants_help(argc, argv)) {
		hwsq_help(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "dis") && strcmp(argv[1], "as") && strcmp(argv[1], "run"))
		return cli_usage_error(CMD, "unknown sub-command '%s' (dis, as or run)", argv[1]);
	struct opts o;
	int rc = parse(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (!strcmp(o.sub, "dis"))
		return do_dis(&o);
	if (!strcmp(o.sub, "as"))
		return do_as(&o);
	return do_run(&o);
}
