/*
 * nvmodel pb: pushbuffer and GPFIFO tools on the shared decoder
 * (src/pushbuf/, include/nvmodel/pushbuf.h). docs/pushbuf.md has the
 * formats, output styles and the assembler syntax.
 *
 *   pb decode FILE   print the decoded pushbuffer
 *   pb check FILE    list the problems and the interrupt each would raise
 *   pb asm FILE.s    assemble text into PB entries
 *   pb gpfifo FILE   decode GP entries
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "cli.h"
#include "outfile.h"
#include "nvmodel/nvmodel.h"
#include "nvmodel/pushbuf.h"

struct pb_opts {
	const char *cmd; /* "pb decode" ... */
	const char *file;
	const char *out; /* asm -o */
	bool hex, json;
	uint64_t offset, length;
	bool has_length;
	const char *format, *chip, *mode;
	nvm_pb_style style;
	uint32_t subdevice;
	bool has_subdevice;
	const nvm_pb_class *bound[8];
	uint64_t chunk; /* --chunk: words per read (0: CHUNK_WORDS) */
};

static void usage_pb(FILE *f)
{
	fprintf(f,
	        "usage: %s pb <decode|check|asm|gpfifo> FILE [options] | pb classes [--json]\n"
	        "\n"
	        "Pushbuffer and GPFIFO tools (docs/pushbuf.md).\n"
	        "\n"
	        "  pb decode FILE   decode PB entries: methods, control entries, errors\n"
	        "  pb check FILE    list problems and the interrupt the hardware raises;\n"
	        "                   exit 0 clean, 1 problems found\n"
	        "  pb asm FILE.s -o FILE.bin   assemble (decode --style asm prints this syntax)\n"
	        "  pb gpfifo FILE   decode 8-byte GP entries (Volta)\n"
	        "  pb classes       list the classes with method tables\n"
	        "\n"
	        "input options (decode, check, gpfifo):\n"
	        "  --hex               input is text: 32-bit words separated by spaces, commas\n"
	        "                      or newlines, 0x optional (default: little-endian binary)\n"
	        "  --offset N          start at entry N (dwords; GP entries for gpfifo)\n"
	        "  --length N          decode N entries\n"
	        "  --chunk N           read binary input N words at a time (default 1048576)\n"
	        "decode / check options:\n"
	        "  --chip NAME         chip profile (default gv100): which forms are valid, the\n"
	        "                      host class and the classes on subchannels 0-4 until a\n"
	        "                      SET_OBJECT: gv100, tu102, ga100, ga102, ad102, gh100,\n"
	        "                      gb100, gb202; nv04 .. gt215 (old format); gpfifo:\n"
	        "                      gh100 defines OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE\n"
	        "  --format new|old    new = Fermi+ (default on gv100), old = NV04..G80\n"
	        "  --mode dma|ib       old format on G80+: NV4-style DMA or IB mode (default ib)\n"
	        "  --class S=CLASS     bind CLASS on subchannel S whatever SET_OBJECT says,\n"
	        "                      e.g. 4=0xc3b5 or 4=C3B5\n"
	        "  --subdevice ID      SUBDEVICE_ID / sli_mask for masking (default 0xfff)\n"
	        "output options (decode, gpfifo):\n"
	        "  --style text|mesa|asm|json   output layout (default text)\n"
	        "  --json              JSON Lines (same as --style json)\n"
	        "asm options:\n"
	        "  -o FILE             output file (required unless --hex)\n"
	        "  --hex               print hex words to stdout instead\n"
	        "  --format new|old    format until a .format line (default new)\n"
	        "\n"
	        "Exit codes: 0 ok, 1 the input has errors, 2 usage or unreadable input.\n",
	        cli_prog);
}

/* ---------------------------------------------------------------- input */

static void out_to_stdout(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	fwrite(s, 1, n, stdout);
}

/* Loads FILE as words, applying --offset/--length in units of `unit` words.
 * *base is the index of the first word kept. Returns an exit code. */
static int load_words(const struct pb_opts *o, unsigned unit, uint32_t **words, size_t *n, uint64_t *base)
{
	size_t len;
	uint8_t *buf;
	int rc = cli_read_input(o->cmd, o->file, &buf, &len);
	if (rc)
		return rc;
	uint32_t *w;
	size_t nw;
	if (o->hex) {
		w = cli_parse_hex(o->cmd, o->file, buf, len, &nw);
		free(buf);
		if (!w)
			return EXIT_USAGE;
	} else {
		if (len % (4u * unit)) {
			free(buf);
			return cli_error(EXIT_USAGE, o->cmd, "%s: length %zu is not a multiple of %u bytes", o->file,
			                 len, 4u * unit);
		}
		nw = len / 4;
		w = malloc((nw ? nw : 1) * sizeof(*w));
		if (!w) {
			free(buf);
			return cli_error(EXIT_INTERNAL, o->cmd, "out of memory");
		}
		for (size_t i = 0; i < nw; i++)
			w[i] = (uint32_t)buf[4 * i] | (uint32_t)buf[4 * i + 1] << 8 | (uint32_t)buf[4 * i + 2] << 16 |
			       (uint32_t)buf[4 * i + 3] << 24;
		free(buf);
	}
	if (nw == 0) {
		free(w);
		return cli_error(EXIT_USAGE, o->cmd, "%s: empty input", o->file);
	}
	if (nw % unit) {
		free(w);
		return cli_error(EXIT_USAGE, o->cmd, "%s: %zu words is not a whole number of %u-word entries", o->file,
		                 nw, unit);
	}
	uint64_t entries = nw / unit;
	if (o->offset > entries || (o->offset == entries && entries)) {
		free(w);
		return cli_error(EXIT_USAGE, o->cmd, "%s: --offset %llu is past the end (%llu entries)", o->file,
		                 (unsigned long long)o->offset, (unsigned long long)entries);
	}
	uint64_t count = entries - o->offset;
	if (o->has_length) {
		if (o->length > count || o->length == 0) {
			free(w);
			return cli_error(EXIT_USAGE, o->cmd,
			                 "%s: --length %llu does not fit (%llu entries from the offset)", o->file,
			                 (unsigned long long)o->length, (unsigned long long)count);
		}
		count = o->length;
	}
	memmove(w, w + o->offset * unit, count * unit * sizeof(*w));
	*words = w;
	*n = count * unit;
	*base = o->offset * unit;
	return EXIT_OK;
}

/* A pushbuffer input, read in pieces: a binary file is read CHUNK_WORDS at
 * a time into one buffer (a multi-GiB dump takes bounded memory); --hex
 * text, standard input ("-") and other input that is not a regular file are
 * read whole. */
#define CHUNK_WORDS (1u << 20) /* 4 MiB */

struct pb_input {
	FILE *f;         /* chunked binary input; NULL when words holds all of it */
	uint32_t *words; /* the chunk buffer, or the whole input */
	uint64_t base;   /* index of the first entry (dwords) */
	uint64_t n;      /* dwords to deliver */
	uint64_t done;   /* dwords delivered */
	size_t chunk;    /* words per read */
	const char *path, *cmd;
	bool failed; /* a read error (reported) */
};

static bool host_is_le(void)
{
	const uint16_t one = 1;
	return *(const uint8_t *)&one == 1;
}

/* The checks load_words makes, on a binary file of `bytes` bytes. */
static int check_extent(const struct pb_opts *o, uint64_t bytes, uint64_t *first, uint64_t *count)
{
	if (bytes % 4)
		return cli_error(EXIT_USAGE, o->cmd, "%s: length %llu is not a multiple of 4 bytes", o->file,
		                 (unsigned long long)bytes);
	uint64_t entries = bytes / 4;
	if (!entries)
		return cli_error(EXIT_USAGE, o->cmd, "%s: empty input", o->file);
	if (o->offset >= entries)
		return cli_error(EXIT_USAGE, o->cmd, "%s: --offset %llu is past the end (%llu entries)", o->file,
		                 (unsigned long long)o->offset, (unsigned long long)entries);
	uint64_t c = entries - o->offset;
	if (o->has_length) {
		if (o->length > c || o->length == 0)
			return cli_error(EXIT_USAGE, o->cmd,
			                 "%s: --length %llu does not fit (%llu entries from the offset)", o->file,
			                 (unsigned long long)o->length, (unsigned long long)c);
		c = o->length;
	}
	*first = o->offset;
	*count = c;
	return EXIT_OK;
}

static int input_open(const struct pb_opts *o, struct pb_input *in)
{
	*in = (struct pb_input){ .path = o->file, .cmd = o->cmd, .chunk = o->chunk ? (size_t)o->chunk : CHUNK_WORDS };
	struct stat st;
	FILE *f = NULL;
	if (!o->hex && strcmp(o->file, "-")) {
		f = fopen(o->file, "rb");
		if (!f)
			return cli_error(EXIT_USAGE, o->cmd, "%s: %s", o->file, strerror(errno));
		if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
			fclose(f);
			f = NULL;
		}
	}
	if (!f) {
		size_t n;
		int rc = load_words(o, 1, &in->words, &n, &in->base);
		in->n = n;
		return rc;
	}
	int rc = check_extent(o, (uint64_t)st.st_size, &in->base, &in->n);
	if (!rc && fseeko(f, (off_t)(in->base * 4), SEEK_SET))
		rc = cli_error(EXIT_USAGE, o->cmd, "%s: %s", o->file, strerror(errno));
	if (!rc) {
		size_t words = in->n < in->chunk ? (size_t)in->n : in->chunk;
		in->words = malloc(words * sizeof(uint32_t));
		if (!in->words)
			rc = cli_error(EXIT_INTERNAL, o->cmd, "out of memory");
	}
	if (rc) {
		fclose(f);
		return rc;
	}
	in->f = f;
	return EXIT_OK;
}

/* The next piece of the input: its word count (0 at the end or on a read
 * error, which sets in->failed), the words in *w. */
static size_t input_next(struct pb_input *in, const uint32_t **w)
{
	if (in->done >= in->n)
		return 0;
	if (!in->f) {
		in->done = in->n;
		*w = in->words;
		return (size_t)in->n;
	}
	uint64_t left = in->n - in->done;
	size_t want = left < in->chunk ? (size_t)left : in->chunk;
	size_t got = fread(in->words, 4, want, in->f);
	if (got != want) {
		cli_error(EXIT_USAGE, in->cmd, "%s: %s", in->path,
		          ferror(in->f) ? strerror(errno ? errno : EIO) : "the file got shorter while reading");
		in->failed = true;
		in->done = in->n;
		return 0;
	}
	if (!host_is_le()) {
		for (size_t i = 0; i < got; i++) {
			const uint8_t *b = (const uint8_t *)&in->words[i];
			in->words[i] =
			        (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		}
	}
	in->done += got;
	*w = in->words;
	return got;
}

static void input_close(struct pb_input *in)
{
	if (in->f)
		fclose(in->f);
	free(in->words);
	in->f = NULL;
	in->words = NULL;
}

/* ---------------------------------------------------------------- options */

static int parse_class(struct pb_opts *o, const char *v)
{
	uint64_t s, id;
	const char *eq = strchr(v, '=');
	char sub[8];
	if (!eq || (size_t)(eq - v) >= sizeof(sub))
		return cli_bad_opt(o->cmd, "--class", v, "SUBCH=CLASS, e.g. 4=0xc3b5");
	memcpy(sub, v, (size_t)(eq - v));
	sub[eq - v] = 0;
	if (!cli_parse_u64(sub, &s) || s > 7)
		return cli_usage_error(o->cmd, "--class: subchannel '%s' is not 0-7", sub);
	const nvm_pb_class *c = NULL;
	if (cli_parse_u64(eq + 1, &id))
		c = id <= 0xffff ? nvm_pb_class_find((uint32_t)id) : NULL;
	else
		c = nvm_pb_class_find_tag(eq + 1);
	if (!c)
		return cli_usage_error(o->cmd, "--class: unknown class '%s' ('%s pb classes' lists them)", eq + 1,
		                       cli_prog);
	o->bound[s] = c;
	return EXIT_OK;
}

static int parse_style(struct pb_opts *o, const char *v)
{
	static const char *const names[] = { "text", "json", "mesa", "asm" };
	for (int i = 0; i < 4; i++)
		if (!strcmp(v, names[i])) {
			o->style = (nvm_pb_style)i;
			return EXIT_OK;
		}
	return cli_bad_opt(o->cmd, "--style", v, "text, mesa, asm or json");
}

static int parse_opts(struct pb_opts *o, int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *v;
		int r;
		uint64_t x;
		const char *a = argv[i];
		if (!strcmp(a, "--hex")) {
			o->hex = true;
		} else if (!strcmp(a, "--json")) {
			o->json = true;
			o->style = NVM_PB_STYLE_JSON;
		} else if ((r = cli_opt(argc, argv, &i, "--offset", &v))) {
			if (r < 0 || !cli_parse_u64(v, &o->offset))
				return cli_bad_opt(o->cmd, "--offset", r < 0 ? NULL : v, "a number of entries");
		} else if ((r = cli_opt(argc, argv, &i, "--length", &v))) {
			if (r < 0 || !cli_parse_u64(v, &o->length))
				return cli_bad_opt(o->cmd, "--length", r < 0 ? NULL : v, "a number of entries");
			o->has_length = true;
		} else if ((r = cli_opt(argc, argv, &i, "--chunk", &v))) {
			if (r < 0 || !cli_parse_u64(v, &o->chunk) || !o->chunk || o->chunk > CHUNK_WORDS)
				return cli_usage_error(o->cmd, "--chunk needs a number of words (1 to %u)",
				                       CHUNK_WORDS);
		} else if ((r = cli_opt(argc, argv, &i, "--format", &v))) {
			if (r < 0 || (strcmp(v, "new") && strcmp(v, "old")))
				return cli_bad_opt(o->cmd, "--format", r < 0 ? NULL : v, "new or old");
			o->format = v;
		} else if ((r = cli_opt(argc, argv, &i, "--chip", &v))) {
			if (r < 0)
				return cli_bad_opt(o->cmd, "--chip", NULL, "a chip name");
			o->chip = v;
		} else if ((r = cli_opt(argc, argv, &i, "--mode", &v))) {
			if (r < 0 || (strcmp(v, "dma") && strcmp(v, "ib")))
				return cli_bad_opt(o->cmd, "--mode", r < 0 ? NULL : v, "dma or ib");
			o->mode = v;
		} else if ((r = cli_opt(argc, argv, &i, "--class", &v))) {
			if (r < 0)
				return cli_bad_opt(o->cmd, "--class", NULL, "SUBCH=CLASS");
			if (parse_class(o, v))
				return EXIT_USAGE;
		} else if ((r = cli_opt(argc, argv, &i, "--style", &v))) {
			if (r < 0)
				return cli_bad_opt(o->cmd, "--style", NULL, "text, mesa, asm or json");
			if (parse_style(o, v))
				return EXIT_USAGE;
		} else if ((r = cli_opt(argc, argv, &i, "--subdevice", &v))) {
			if (r < 0 || !cli_parse_u64(v, &x) || x > 0xfff)
				return cli_bad_opt(o->cmd, "--subdevice", r < 0 ? NULL : v, "a 12-bit mask");
			o->subdevice = (uint32_t)x;
			o->has_subdevice = true;
		} else if ((r = cli_opt(argc, argv, &i, "-o", &v))) {
			if (r < 0)
				return cli_bad_opt(o->cmd, "-o", NULL, "an output file");
			o->out = v;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error(o->cmd, "unknown option '%s'", a);
		} else if (!o->file) {
			o->file = a;
		} else {
			return cli_usage_error(o->cmd, "unexpected argument '%s'", a);
		}
	}
	if (!o->file && strcmp(o->cmd, "pb classes"))
		return cli_usage_error(o->cmd, "no input file");
	if (o->file && !strcmp(o->cmd, "pb classes"))
		return cli_usage_error(o->cmd, "unexpected argument '%s'", o->file);
	return EXIT_OK;
}

static int make_config(const struct pb_opts *o, nvm_pb_config *cfg)
{
	const nvm_pb_gen *gen = nvm_pb_gen_lookup(o->chip);
	if (!gen)
		return cli_usage_error(o->cmd, "unknown chip '%s' (see '%s chips')", o->chip, cli_prog);
	nvm_pb_format f = gen->native;
	if (o->format)
		f = o->format[0] == 'n' ? NVM_PB_FORMAT_NEW : NVM_PB_FORMAT_OLD;
	if (!nvm_pb_config_init(cfg, gen, f))
		return cli_usage_error(o->cmd, "%s does not accept the %s format", gen->chip,
		                       f == NVM_PB_FORMAT_NEW ? "new" : "old");
	if (o->mode)
		cfg->ib_mode = !strcmp(o->mode, "ib");
	if (o->has_subdevice)
		cfg->subdevice_id = o->subdevice;
	return EXIT_OK;
}

/* What decode and check both start with: the decoder configuration from
 * the options, then the input. */
static int open_pushbuffer(struct pb_opts *o, nvm_pb_config *cfg, struct pb_input *in)
{
	int rc = make_config(o, cfg);
	return rc ? rc : input_open(o, in);
}

/* ---------------------------------------------------------------- decode */

static int cmd_pb_decode(struct pb_opts *o)
{
	nvm_pb_config cfg;
	struct pb_input in;
	int rc = open_pushbuffer(o, &cfg, &in);
	if (rc)
		return rc;
	nvm_pb_out out = { .flush = out_to_stdout };
	/* The printer is large (its method views): not on the stack. */
	nvm_pb_printer *p = malloc(sizeof(*p));
	if (!p) {
		input_close(&in);
		return cli_error(EXIT_INTERNAL, o->cmd, "out of memory");
	}
	nvm_pb_printer_init(p, o->style, &cfg, in.f ? NULL : in.words, in.base, (size_t)in.n, &out);
	for (unsigned s = 0; s < 8; s++)
		if (o->bound[s])
			nvm_pb_printer_bind(p, s, o->bound[s], true);
	nvm_pb_sink sink = nvm_pb_printer_sink(p);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &sink);
	d.pos = in.base;
	nvm_pb_printer_begin(p);
	const uint32_t *w;
	size_t n;
	while ((n = input_next(&in, &w)) != 0)
		nvm_pb_feed(&d, w, n);
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	nvm_pb_printer_end(p);
	bool oom = out.oom, failed = in.failed;
	uint64_t errors = p->errors;
	nvm_pb_out_free(&out);
	free(p);
	input_close(&in);
	if (failed)
		return EXIT_USAGE;
	if (oom)
		return cli_error(EXIT_INTERNAL, o->cmd, "out of memory");
	return errors ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- check */

struct check_ctx {
	const struct pb_opts *o;
	nvm_pb_format format;
	uint64_t problems;
};

static void check_error(void *ctx, const nvm_pb_error *e)
{
	struct check_ctx *c = ctx;
	const char *intr = nvm_pb_err_interrupt(e->code, c->format);
	c->problems++;
	if (c->o->json) {
		printf("{\"offset\": %llu, \"error\": \"%s\", \"message\": \"%s\", \"word\": %u, \"interrupt\": ",
		       (unsigned long long)e->offset, nvm_pb_err_name(e->code), nvm_pb_err_message(e->code), e->word);
		if (intr)
			printf("\"%s\"}\n", intr);
		else
			printf("null}\n");
		return;
	}
	printf("%s: entry %llu (0x%llx): word 0x%08x: %s: %s", c->o->file, (unsigned long long)e->offset,
	       (unsigned long long)e->offset * 4, e->word, nvm_pb_err_name(e->code), nvm_pb_err_message(e->code));
	if (e->code == NVM_PB_ERR_TRUNCATED && e->missing)
		printf(" (%u entries missing)", e->missing);
	printf(" -> %s\n", intr ? intr : "no interrupt documented");
}

static int cmd_pb_check(struct pb_opts *o)
{
	nvm_pb_config cfg;
	struct pb_input in;
	int rc = open_pushbuffer(o, &cfg, &in);
	if (rc)
		return rc;
	struct check_ctx c = { .o = o, .format = cfg.format };
	nvm_pb_sink sink = { .ctx = &c, .error = check_error };
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &sink);
	d.pos = in.base;
	const uint32_t *w;
	size_t n;
	while ((n = input_next(&in, &w)) != 0)
		nvm_pb_feed(&d, w, n);
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	bool failed = in.failed;
	uint64_t total = in.n;
	input_close(&in);
	if (failed)
		return EXIT_USAGE;
	if (!o->json) {
		if (c.problems)
			printf("%s: %llu problem%s in %llu entries\n", o->file, (unsigned long long)c.problems,
			       c.problems == 1 ? "" : "s", (unsigned long long)total);
		else
			printf("%s: clean, %llu entries\n", o->file, (unsigned long long)total);
	}
	return c.problems ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- gpfifo */

static int cmd_pb_gpfifo(struct pb_opts *o)
{
	if (o->style == NVM_PB_STYLE_MESA || o->style == NVM_PB_STYLE_ASM)
		return cli_usage_error(o->cmd, "gpfifo prints text or json only");
	const nvm_pb_gen *gen = nvm_pb_gen_lookup(o->chip); /* which OPCODEs GP entries define */
	if (!gen)
		return cli_usage_error(o->cmd, "unknown chip '%s' (see '%s chips')", o->chip, cli_prog);
	uint32_t *w;
	size_t n;
	uint64_t base;
	int rc = load_words(o, 2, &w, &n, &base);
	if (rc)
		return rc;
	nvm_pb_out out = { .flush = out_to_stdout };
	uint64_t bad = 0;
	for (size_t i = 0; i + 1 < n; i += 2) {
		nvm_pb_gp_entry g;
		nvm_pb_gp_decode_gen(w[i], w[i + 1], gen->gp_extended_base, &g);
		bad += g.err != NVM_PB_GP_OK;
		nvm_pb_print_gp(&out, o->style, (base + i) / 2, &g);
	}
	nvm_pb_out_flush(&out);
	bool oom = out.oom;
	nvm_pb_out_free(&out);
	free(w);
	if (oom)
		return cli_error(EXIT_INTERNAL, o->cmd, "out of memory");
	return bad ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- classes */

static int cmd_pb_classes(struct pb_opts *o)
{
	for (size_t i = 0; nvm_pb_class_get(i); i++) {
		const nvm_pb_class *c = nvm_pb_class_get(i);
		if (o->json)
			printf("{\"class\": %u, \"tag\": \"%s\", \"name\": \"%s\", \"methods\": %zu, \"mesa\": %s}\n",
			       c->id, c->tag, c->name, c->nmethods, c->mesa ? "true" : "false");
		else
			printf("0x%04x %-32s %4zu methods%s\n", c->id, c->name, c->nmethods,
			       c->mesa ? "" : "  (no Mesa dumper)");
	}
	return EXIT_OK;
}

/* ---------------------------------------------------------------- asm */

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!strcmp(a, b))
		return true;
	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static int cmd_pb_asm(struct pb_opts *o)
{
	if (!o->out && !o->hex)
		return cli_usage_error(o->cmd, "-o FILE is required (or --hex to print words)");
	if (o->out && !out_is_stdout(o->out) && same_file(o->out, o->file))
		return cli_usage_error(o->cmd, "refusing to overwrite the input '%s'", o->file);
	if (o->out && o->hex && out_is_stdout(o->out))
		return cli_usage_error(o->cmd, "-o - and --hex would both write to standard output");
	struct out_file out = { 0 };
	if (o->out && out_open(&out, o->out))
		return cli_error(EXIT_INTERNAL, o->cmd, "%s: cannot write: %s", o->out, strerror(errno));
	size_t len;
	uint8_t *buf;
	int rc = cli_read_input(o->cmd, o->file, &buf, &len);
	if (rc) {
		out_abort(&out);
		return rc;
	}
	nvm_pb_format f = o->format && o->format[0] == 'o' ? NVM_PB_FORMAT_OLD : NVM_PB_FORMAT_NEW;
	nvm_pb_asm_result res;
	bool ok = nvm_pb_asm((const char *)buf, len, f, &res);
	free(buf);
	if (!ok) {
		out_abort(&out);
		return cli_error(EXIT_FAIL, o->cmd, "%s:%u: %s", o->file, res.line, res.msg);
	}
	if (o->hex) {
		for (size_t i = 0; i < res.n; i++)
			printf("0x%08x%c", res.words[i], (i % 8 == 7 || i + 1 == res.n) ? '\n' : ' ');
	}
	rc = EXIT_OK;
	if (o->out) {
		for (size_t i = 0; i < res.n; i++) {
			uint8_t b[4] = { (uint8_t)res.words[i], (uint8_t)(res.words[i] >> 8),
				         (uint8_t)(res.words[i] >> 16), (uint8_t)(res.words[i] >> 24) };
			fwrite(b, 1, 4, out.f);
		}
		if (out_commit(&out))
			rc = cli_error(EXIT_INTERNAL, o->cmd, "%s: write failed: %s", o->out, strerror(errno));
	}
	free(res.words);
	return rc;
}

/* ---------------------------------------------------------------- dispatch */

int cmd_pb(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_pb(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	static const struct {
		const char *name, *cmd;
		int (*fn)(struct pb_opts *);
	} subs[] = {
		{ "decode", "pb decode", cmd_pb_decode },
		{ "check", "pb check", cmd_pb_check },
		{ "asm", "pb asm", cmd_pb_asm },
		{ "gpfifo", "pb gpfifo", cmd_pb_gpfifo },
		{ "classes", "pb classes", cmd_pb_classes },
	};
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		if (strcmp(argv[1], subs[i].name))
			continue;
		if (cli_wants_help(argc - 1, argv + 1)) {
			usage_pb(stdout);
			return EXIT_OK;
		}
		struct pb_opts o = { .cmd = subs[i].cmd };
		int rc = parse_opts(&o, argc - 1, argv + 1);
		if (rc)
			return rc;
		return subs[i].fn(&o);
	}
	return cli_usage_error("pb", "unknown sub-command '%s' (decode, check, asm, gpfifo, classes)", argv[1]);
}
