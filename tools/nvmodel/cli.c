#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

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
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}

/* Reads f to its end into a malloc'd buffer; NULL and *err on failure. */
static uint8_t *read_stream(FILE *f, size_t *len, const char **err)
{
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	for (;;) {
		if (!buf) {
			*err = "out of memory";
			return NULL;
		}
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (got == 0)
			break;
		if (n == cap) {
			uint8_t *nb = realloc(buf, cap * 2);
			if (!nb)
				free(buf);
			buf = nb;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		*err = strerror(errno ? errno : EIO);
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

uint8_t *cli_read_file(const char *path, size_t *len, const char **err)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		*err = strerror(errno);
		return NULL;
	}
	uint8_t *buf = read_stream(f, len, err);
	fclose(f);
	return buf;
}

uint8_t *cli_read_input(const char *path, size_t *len, const char **err)
{
	return strcmp(path, "-") ? cli_read_file(path, len, err) : read_stream(stdin, len, err);
}

uint32_t *cli_parse_hex(const char *cmd, const char *path, const uint8_t *buf, size_t len, size_t *nout)
{
	size_t cap = 1024, n = 0;
	uint32_t *w = malloc(cap * sizeof(*w));
	unsigned line = 1;
	size_t i = 0, line_start = 0;
	while (w && i < len) {
		uint8_t c = buf[i];
		if (c == '\n') {
			line++;
			line_start = i + 1;
		}
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',') {
			i++;
			continue;
		}
		size_t start = i;
		while (i < len &&
		       !(buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n' || buf[i] == ','))
			i++;
		size_t tl = i - start;
		const uint8_t *t = buf + start;
		if (tl >= 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
			t += 2;
			tl -= 2;
		}
		uint32_t v = 0;
		bool ok = tl >= 1 && tl <= 8;
		for (size_t k = 0; ok && k < tl; k++) {
			uint8_t d = t[k];
			if (d >= '0' && d <= '9')
				v = v << 4 | (uint32_t)(d - '0');
			else if (d >= 'a' && d <= 'f')
				v = v << 4 | (uint32_t)(d - 'a' + 10);
			else if (d >= 'A' && d <= 'F')
				v = v << 4 | (uint32_t)(d - 'A' + 10);
			else
				ok = false;
		}
		for (size_t k = start; !ok && k < i; k++) {
			/* a NUL or control byte would cut the message short: name
			 * where it is instead of quoting it */
			if (buf[k] < 0x20 || buf[k] >= 0x7f) {
				cli_error(EXIT_USAGE, cmd, "%s:%u:%zu: byte 0x%02x in a hex word", path, line,
				          k - line_start + 1, buf[k]);
				free(w);
				return NULL;
			}
		}
		if (!ok) {
			size_t show = i - start > 40 ? 40 : i - start;
			cli_error(EXIT_USAGE, cmd, "%s:%u: bad hex word '%.*s'", path, line, (int)show,
			          (const char *)buf + start);
			free(w);
			return NULL;
		}
		if (n == cap) {
			uint32_t *nw = realloc(w, (cap *= 2) * sizeof(*w));
			if (!nw)
				free(w);
			w = nw;
			if (!w)
				break;
		}
		w[n++] = v;
	}
	if (!w) {
		cli_error(EXIT_INTERNAL, cmd, "out of memory");
		return NULL;
	}
	*nout = n;
	return w;
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
	if (*i + 1 >= argc)
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
