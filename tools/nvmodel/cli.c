#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "hexwords.h"

const char *cli_prog = "nvmodel";

static void vmsg(const char *cmd, const char *fmt, va_list ap)
{
	if (cmd)
		fprintf(stderr, "%s %s: error: ", cli_prog, cmd);
	else
		fprintf(stderr, "%s: error: ", cli_prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(cmd, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "Try '%s %s --help'.\n", cli_prog, cmd);
	else
		fprintf(stderr, "Try '%s --help'.\n", cli_prog);
	return EXIT_USAGE;
}

int cli_error(int code, const char *cmd, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg(cmd, fmt, ap);
	va_end(ap);
	return code;
}

int cli_bad_opt(const char *cmd, const char *opt, const char *val, const char *want)
{
	if (!val)
		return cli_usage_error(cmd, "%s needs %s", opt, want);
	return cli_usage_error(cmd, "%s: bad value '%s' (%s)", opt, val, want);
}

/* ---------------------------------------------------------------- stdout */

static const char *stdout_cmd;
static bool stdout_done;
static int stdout_errno; /* why a flush failed, for the message at the end */

void cli_flush(FILE *f)
{
	if (fflush(f) && f == stdout && !stdout_errno)
		stdout_errno = errno;
}

/* Flushes standard output; false (errno set) when some of it was lost. */
static bool stdout_flush(void)
{
	cli_flush(stdout);
	if (!ferror(stdout))
		return true;
	/* EIO when the failed write is not known (a flush inside stdio). */
	errno = stdout_errno ? stdout_errno : EIO;
	return false;
}

/* Reached only when the process exits without returning from main (a
 * script's os.exit()): the exit status cannot be changed but by _exit. */
static void stdout_at_exit(void)
{
	if (stdout_done)
		return;
	stdout_done = true;
	if (!stdout_flush()) {
		cli_error(EXIT_INTERNAL, stdout_cmd, "standard output: %s", strerror(errno));
		_exit(EXIT_INTERNAL);
	}
}

void cli_stdout_begin(void)
{
	atexit(stdout_at_exit);
}

void cli_stdout_command(const char *cmd)
{
	stdout_cmd = cmd;
}

int cli_stdout_end(int rc)
{
	stdout_done = true;
	if (stdout_flush())
		return rc;
	if (rc == EXIT_INTERNAL) /* the command has reported its failure */
		return rc;
	return cli_error(EXIT_INTERNAL, stdout_cmd, "standard output: %s", strerror(errno));
}

/* ---------------------------------------------------------------- numbers */

bool cli_parse_u64(const char *s, uint64_t *out)
{
	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	int base = 10;
	const char *p = s;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	} else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B')) {
		base = 2;
		p += 2;
	}
	if (!*p)
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(p, &end, base);
	if (errno || end == p)
		return false;
	unsigned shift = 0;
	if (*end && base == 10) {
		switch (*end) {
		case 'k':
		case 'K': shift = 10; break;
		case 'm':
		case 'M': shift = 20; break;
		case 'g':
		case 'G': shift = 30; break;
		case 't':
		case 'T': shift = 40; break;
		default: return false;
		}
		end++;
	}
	if (*end)
		return false;
	if (shift && v > (UINT64_MAX >> shift))
		return false;
	*out = (uint64_t)v << shift;
	return true;
}

bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return false;
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return true;
	}
	return false;
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0: overlong forms,
 * surrogates and code points above U+10FFFF are not valid. */
static size_t utf8_len(const unsigned char *p)
{
	static const struct {
		unsigned char lead_min, lead_max, n, second_min, second_max;
	} forms[] = {
		{ 0xc2, 0xdf, 2, 0x80, 0xbf }, { 0xe0, 0xe0, 3, 0xa0, 0xbf }, { 0xe1, 0xec, 3, 0x80, 0xbf },
		{ 0xed, 0xed, 3, 0x80, 0x9f }, { 0xee, 0xef, 3, 0x80, 0xbf }, { 0xf0, 0xf0, 4, 0x90, 0xbf },
		{ 0xf1, 0xf3, 4, 0x80, 0xbf }, { 0xf4, 0xf4, 4, 0x80, 0x8f },
	};
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		if (p[0] < forms[i].lead_min || p[0] > forms[i].lead_max)
			continue;
		if (p[1] < forms[i].second_min || p[1] > forms[i].second_max)
			return 0;
		for (size_t k = 2; k < forms[i].n; k++)
			if ((p[k] & 0xc0) != 0x80)
				return 0;
		return forms[i].n;
	}
	return 0;
}

void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fprintf(f, "\\u%04x", *p);
			} else if (*p < 0x80) {
				fputc(*p, f);
			} else {
				/* Valid UTF-8 is copied; any other byte is escaped as the
				 * code point of the same value, so the output stays UTF-8. */
				size_t n = utf8_len(p);
				if (n) {
					fwrite(p, 1, n, f);
					p += n - 1;
				} else {
					fprintf(f, "\\u%04x", *p);
				}
			}
		}
	}
	fputc('"', f);
}

/* ---------------------------------------------------------------- input */

/* The bytes of a regular file from where f stands to its end; -1 for other
 * inputs (a pipe, a device) or when the size is not known. */
static int64_t bytes_left(FILE *f)
{
	struct stat st;
	off_t pos = ftello(f);
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || pos < 0 || pos > st.st_size)
		return -1;
	return (int64_t)(st.st_size - pos);
}

/* An input's bytes before `from` (from where it stands: standard input may
 * have been read already): seeked over where the input can seek (a regular
 * file, /dev/zero), else read and dropped. *seen: the bytes passed (fewer
 * than from when the input ends first). 0 or errno. */
static int skip_to(FILE *f, uint64_t from, uint64_t *seen)
{
	*seen = 0;
	if (!from)
		return 0;
	int64_t left = bytes_left(f);
	uint64_t by = left >= 0 && (uint64_t)left < from ? (uint64_t)left : from;
	if (by <= (uint64_t)INT64_MAX && !fseeko(f, (off_t)by, SEEK_CUR)) {
		*seen = by;
		return 0;
	}
	clearerr(f);
	static uint8_t drop[1 << 16];
	while (*seen < from) {
		size_t want = from - *seen < sizeof(drop) ? (size_t)(from - *seen) : sizeof(drop);
		size_t got = fread(drop, 1, want, f);
		*seen += got;
		if (got < want)
			return ferror(f) ? (errno ? errno : EIO) : 0;
	}
	return 0;
}

int cli_read_part(const char *cmd, const char *path, uint64_t from, uint64_t want, uint8_t **out, size_t *len,
                  uint64_t *size)
{
	*out = NULL;
	*len = 0;
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f)
		return cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(errno));
	uint64_t seen;
	int e = skip_to(f, from, &seen);
	/* A regular file's size is known: what it cannot hold is refused
	 * before anything is read, and the buffer is sized once. */
	int64_t rest = e ? -1 : bytes_left(f);
	bool known = rest >= 0;
	uint64_t left = known && (uint64_t)rest < want ? (uint64_t)rest : want;
	/* One byte past the cap tells that there is more. */
	uint64_t goal = left < CLI_INPUT_MAX + 1 ? left : CLI_INPUT_MAX + 1;
	if (known && goal > CLI_INPUT_MAX)
		goal = 0;
	uint8_t *buf = NULL;
	size_t n = 0, cap = 0;
	int rc = EXIT_OK;
	while (!e && seen == from && n < goal) {
		if (n == cap) {
			size_t c = (size_t)goal;
			if (!known && c > (cap ? 2 * cap : 65536))
				c = cap ? 2 * cap : 65536;
			uint8_t *nb = realloc(buf, c);
			if (!nb) {
				rc = cli_error(EXIT_INTERNAL, cmd, "%s: out of memory", path);
				break;
			}
			buf = nb;
			cap = c;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (!got) {
			if (ferror(f))
				e = errno ? errno : EIO; /* EISDIR for a directory */
			break;
		}
	}
	if (!rc && !e && (n > CLI_INPUT_MAX || (known && left > CLI_INPUT_MAX)))
		rc = cli_error(EXIT_USAGE, cmd, "%s: more than %zu MiB from offset %llu, the most a command holds",
		               path, CLI_INPUT_MAX >> 20, (unsigned long long)from);
	if (!rc && e)
		rc = cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(e));
	if (!is_stdin)
		fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*len = n;
	*size = seen + n;
	return EXIT_OK;
}

int cli_read_input(const char *cmd, const char *path, uint8_t **buf, size_t *len)
{
	uint64_t size;
	int rc = cli_read_part(cmd, path, 0, CLI_ALL, buf, len, &size);
	if (rc)
		return rc;
	if (!*len) {
		free(*buf);
		*buf = NULL;
		return cli_error(EXIT_USAGE, cmd, "%s: empty input", path);
	}
	return EXIT_OK;
}

uint32_t *cli_parse_hex(const char *cmd, const char *path, const uint8_t *buf, size_t len, size_t *nout)
{
	uint32_t *w;
	struct hex_error e;
	if (hex_words(buf, len, &w, nout, &e))
		return w;
	if (e.oom) {
		cli_error(EXIT_INTERNAL, cmd, "out of memory");
		return NULL;
	}
	/* A NUL or control byte would cut the quoted word short: name its line
	 * and column instead. */
	size_t line_start = e.at;
	while (line_start > 0 && buf[line_start - 1] != '\n')
		line_start--;
	for (size_t k = e.at;
	     k < len && buf[k] != ' ' && buf[k] != '\t' && buf[k] != '\r' && buf[k] != '\n' && buf[k] != ','; k++) {
		if (buf[k] < 0x20 || buf[k] >= 0x7f) {
			cli_error(EXIT_USAGE, cmd, "%s:%u:%zu: byte 0x%02x in a hex word", path, e.line,
			          k - line_start + 1, buf[k]);
			return NULL;
		}
	}
	cli_error(EXIT_USAGE, cmd, "%s:%u: bad hex word '%.*s'", path, e.line, (int)e.len, (const char *)buf + e.at);
	return NULL;
}

int cli_opt(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);
	if (strncmp(a, name, n) != 0)
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n] != '\0')
		return 0;
	/* A separate value is never another option ("--trace --json" is a
	 * missing value, not a file named --json); "-" alone is a value. */
	const char *v = *i + 1 < argc ? argv[*i + 1] : NULL;
	if (!v || (v[0] == '-' && v[1]))
		return -1;
	*val = argv[++*i];
	return 1;
}

int cli_only_json(const char *cmd, int argc, char **argv, bool *json)
{
	*json = false;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json"))
			return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
		*json = true;
	}
	return EXIT_OK;
}

int cli_read_bytes(const char *cmd, const char *path, bool hex, uint8_t **buf, size_t *len)
{
	int rc = cli_read_input(cmd, path, buf, len);
	if (rc || !hex)
		return rc;
	size_t nw;
	uint32_t *w = cli_parse_hex(cmd, path, *buf, *len, &nw);
	free(*buf);
	*buf = NULL;
	if (!w)
		return EXIT_USAGE;
	if (!nw) {
		free(w);
		return cli_error(EXIT_USAGE, cmd, "%s: empty input", path);
	}
	uint8_t *b = malloc(nw * 4);
	if (!b) {
		free(w);
		return cli_error(EXIT_INTERNAL, cmd, "out of memory");
	}
	for (size_t i = 0; i < nw; i++)
		for (unsigned k = 0; k < 4; k++)
			b[4 * i + k] = (uint8_t)(w[i] >> (8 * k));
	free(w);
	*buf = b;
	*len = nw * 4;
	return EXIT_OK;
}

int cli_dump_parse(struct cli_dump *d, int argc, char **argv, int (*own)(void *o, int argc, char **argv, int *i),
                   void *o)
{
	for (int i = 1; i < argc; i++) {
		const char *v, *a = argv[i];
		int r;
		if (!strcmp(a, "--hex")) {
			d->hex = true;
		} else if (!strcmp(a, "--json")) {
			d->json = true;
		} else if (!strcmp(a, "--all")) {
			d->all = true;
		} else if ((r = cli_opt(argc, argv, &i, "--offset", &v))) {
			if (r < 0 || !cli_parse_u64(v, &d->offset))
				return cli_usage_error(d->cmd, "--offset needs a number");
		} else if ((r = own(o, argc, argv, &i)) != CLI_NOT_MINE) {
			if (r)
				return r;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error(d->cmd, "unknown option '%s'", a);
		} else if (!d->file) {
			d->file = a;
		} else {
			return cli_usage_error(d->cmd, "unexpected argument '%s'", a);
		}
	}
	if (!d->file)
		return cli_usage_error(d->cmd, "no input file");
	return EXIT_OK;
}

int cli_dump_load(const struct cli_dump *in, uint64_t want, uint8_t **base, const uint8_t **data, size_t *len)
{
	size_t n;
	uint64_t size;
	uint8_t *buf;
	uint64_t from = in->hex ? 0 : in->offset;
	int rc = in->hex ? cli_read_bytes(in->cmd, in->file, true, &buf, &n) /* empty: exit 2 */
	                 : cli_read_part(in->cmd, in->file, from, want, &buf, &n, &size);
	if (rc)
		return rc;
	if (in->hex)
		size = n;
	if (!size) {
		free(buf);
		return cli_error(EXIT_USAGE, in->cmd, "%s: empty input", in->file);
	}
	if (in->offset >= size) {
		free(buf);
		return cli_error(EXIT_USAGE, in->cmd, "%s: --offset %llu is past the end (%llu bytes)", in->file,
		                 (unsigned long long)in->offset, (unsigned long long)size);
	}
	*base = buf;
	*data = buf + (in->offset - from);
	*len = n - (size_t)(in->offset - from);
	return EXIT_OK;
}
