/*
 * nvmodel pfifo: decode the RAMHT and RAMFC of the NV04..NV4x PFIFO (from a
 * RAMIN dump) and of the G80 PFIFO (from channel-structure / RAMFC dumps;
 * include/nvmodel/pfifo.h, docs/pfifo.md, docs/g80.md):
 *
 *   pfifo ramht FILE --chip C   RAMHT entries: handle, channel, engine,
 *                               instance, and whether the puller finds them
 *   pfifo ramfc FILE --chip C   RAMFC entries, one per channel, field by field
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nvmodel/pfifo.h"

struct pfifo_opts {
	struct cli_dump in;
	const char *chip;
	unsigned bits, search;
	int channel; /* -1: all */
	bool large;
};

static void usage_pfifo(FILE *f)
{
	fprintf(f,
	        "usage: %s pfifo <ramht|ramfc> FILE --chip C [options]\n"
	        "\n"
	        "Decodes the RAMHT and RAMFC of the NV01..NV4x PFIFO (docs/pfifo.md) from a\n"
	        "dump of RAMIN, and those of the G80 PFIFO (docs/g80.md) from a dump of a\n"
	        "channel's RAMHT or RAMFC, as PFIFO reads them, and lists what the puller or\n"
	        "the pusher would trip over.\n"
	        "\n"
	        "  pfifo ramht FILE   RAMHT: 8-byte entries (handle, context). Each used entry\n"
	        "                     with its channel (not on G80: one RAMHT per channel, the\n"
	        "                     context is engine and instance in the channel structure),\n"
	        "                     engine, object instance, its hash slot, and whether a\n"
	        "                     lookup reaches it (NV01/NV03: within the bucket of the\n"
	        "                     XOR of the handle's bytes and the channel)\n"
	        "  pfifo ramfc FILE   RAMFC: one entry per channel from channel 0 (G80: 0x200\n"
	        "                     bytes each, the start of a channel structure; G84+: 0x100\n"
	        "                     bytes each, as CHAN_TABLE RAMFC_ADDR places them), each\n"
	        "                     field named as the CACHE1 register it saves\n"
	        "\n"
	        "options:\n"
	        "  --chip C       nv01, nv03, nv03t, nv04, nv10, nv11, nv17, nv40, nv41, g80,\n"
	        "                 g84, g92 or gt215\n"
	        "                 (required)\n"
	        "  --offset N     start N bytes into the input (default 0)\n"
	        "  --bits N       ramht: the table has 2^N entries, 9..12 (RAMHT SIZE 4K..32K;\n"
	        "                 default: from the input size)\n"
	        "  --search N     ramht: entries a lookup probes, 16/32/64/128 (RAMHT SEARCH;\n"
	        "                 default 128, as nouveau sets it; not on nv01..nv03t)\n"
	        "  --large        ramfc: the 64-byte NV1A+ layout (RAMFC LARGE; nv11, nv17)\n"
	        "  --channel N    ramfc: only channel N (0..31; NV01/NV03, G80: 0..127)\n"
	        "  --all          ramht, ramfc: also empty entries\n"
	        "  --hex          input is text: 32-bit words separated by spaces, commas or\n"
	        "                 newlines, 0x optional\n"
	        "  --json         one JSON object\n"
	        "\n"
	        "Exit codes: 0 clean, 1 problems found, 2 usage or unreadable input.\n",
	        cli_prog);
}

/* The options of pfifo's own: --chip, --large, --bits, --search, --channel. */
static int own_opt(void *user, int argc, char **argv, int *i)
{
	struct pfifo_opts *o = user;
	const char *v;
	uint64_t x;
	int r;
	if (!strcmp(argv[*i], "--large")) {
		o->large = true;
	} else if ((r = cli_opt(argc, argv, i, "--chip", &v))) {
		if (r < 0)
			return cli_usage_error(o->in.cmd, "--chip needs a chip name");
		o->chip = v;
	} else if ((r = cli_opt(argc, argv, i, "--bits", &v))) {
		if (r < 0 || !cli_parse_u64(v, &x) || x < 9 || x > 12)
			return cli_usage_error(o->in.cmd, "--bits needs a number 9-12 (RAMHT SIZE 4K..32K)");
		o->bits = (unsigned)x;
	} else if ((r = cli_opt(argc, argv, i, "--search", &v))) {
		if (r < 0 || !cli_parse_u64(v, &x) || (x != 16 && x != 32 && x != 64 && x != 128))
			return cli_usage_error(o->in.cmd, "--search needs 16, 32, 64 or 128 (RAMHT SEARCH)");
		o->search = (unsigned)x;
	} else if ((r = cli_opt(argc, argv, i, "--channel", &v))) {
		if (r < 0 || !cli_parse_u64(v, &x) || x > 127)
			return cli_usage_error(o->in.cmd, "--channel needs a channel number 0-127");
		o->channel = (int)x;
	} else {
		return CLI_NOT_MINE;
	}
	return EXIT_OK;
}

#define CHIPS "nv01, nv03, nv03t, nv04, nv10, nv11, nv17, nv40, nv41, g80, g84, g92, gt215"

static int parse_opts(struct pfifo_opts *o, int argc, char **argv)
{
	int rc = cli_dump_parse(&o->in, argc, argv, own_opt, o);
	if (rc)
		return rc;
	if (!o->chip)
		return cli_usage_error(o->in.cmd, "--chip is required (" CHIPS ")");
	uint32_t nchan = nvm_pfifo_channels(o->chip);
	if (!nchan)
		return cli_usage_error(o->in.cmd, "chip '%s' has no PFIFO this command decodes (" CHIPS ")", o->chip);
	/* Options of the other sub-command, or a layout the chip lacks, would
	 * be ignored: refused instead. */
	bool ramht = !strcmp(o->in.cmd, "pfifo ramht");
	if (ramht && (o->large || o->channel >= 0))
		return cli_usage_error(o->in.cmd, "%s is for ramfc", o->large ? "--large" : "--channel");
	unsigned probe;
	nvm_pfifo_ramht_slot(o->chip, 0, 0, 12, &probe);
	if (ramht && o->search && probe)
		return cli_usage_error(o->in.cmd, "--search: chip '%s' looks in one bucket of 2^bits / 256 entries",
		                       o->chip);
	if (!ramht && (o->bits || o->search))
		return cli_usage_error(o->in.cmd, "%s is for ramht", o->bits ? "--bits" : "--search");
	size_t nf, nl;
	uint32_t size, sl;
	if (o->large && nvm_pfifo_ramfc_layout(o->chip, 1, &nl, &sl) == nvm_pfifo_ramfc_layout(o->chip, 0, &nf, &size))
		return cli_usage_error(o->in.cmd, "--large: chip '%s' has no RAMFC LARGE layout (nv11, nv17)", o->chip);
	if (o->channel >= (int)nchan)
		return cli_usage_error(o->in.cmd, "--channel %d: chip '%s' has %u channels", o->channel, o->chip,
		                       nchan);
	return EXIT_OK;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ---------------------------------------------------------------- problems */

struct problems {
	size_t n;
	bool json;
	const char *file;
};

static void problem(struct problems *p, const char *where_key, uint32_t where, const char *id, const char *fmt, ...)
        __attribute__((format(printf, 5, 6)));

static void problem(struct problems *p, const char *where_key, uint32_t where, const char *id, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (p->json) {
		printf("%s{\"%s\": %u, \"check\": \"%s\", \"message\": ", p->n ? ", " : "", where_key, where, id);
		json_str(stdout, msg);
		printf("}");
	} else {
		printf(strcmp(where_key, "entry") ? "%s: %s %u: %s: %s\n" : "%s: %s 0x%03x: %s: %s\n", p->file,
		       where_key, where, id, msg);
	}
	p->n++;
}

/* ---------------------------------------------------------------- RAMHT */

/* The chip's name of engine e in capitals ("?" where it has none). */
static const char *engine_name(const char *chip, unsigned e)
{
	static char up[16];
	const char *n = nvm_pfifo_engine_name(chip, e);
	size_t i = 0;
	for (; n && n[i] && i < sizeof(up) - 1; i++)
		up[i] = (char)(n[i] >= 'a' && n[i] <= 'z' ? n[i] - 'a' + 'A' : n[i]);
	up[i] = 0;
	return n ? up : "?";
}

/* " (channel N)" / " of channel N" where contexts name a channel, "" on
 * G80. */
static const char *who(bool chid, uint32_t c, bool of)
{
	static char b[24];
	b[0] = 0;
	if (chid)
		snprintf(b, sizeof(b), of ? " of channel %u" : " (channel %u)", c);
	return b;
}

static int do_ramht(const struct pfifo_opts *o, const uint8_t *d, size_t len)
{
	unsigned bits = o->bits;
	if (!bits) {
		for (bits = 12; bits > 9 && (8u << bits) > len; bits--)
			;
	}
	size_t n = (size_t)1 << bits;
	if (len < n * 8)
		return cli_error(EXIT_USAGE, o->in.cmd, "%s: %zu bytes; a RAMHT of 2^%u entries needs %zu", o->in.file,
		                 len, bits, n * 8);
	unsigned search = o->search ? o->search : 128, probe;
	nvm_pfifo_ramht_slot(o->chip, 0, 0, bits, &probe);
	if (probe)
		search = probe; /* NV01/NV03: one bucket */
	uint32_t nchan = nvm_pfifo_channels(o->chip);
	/* G80: one RAMHT per channel; contexts have no CHID (seed 001) */
	bool chid = nvm_pfifo_ramht_has_chid(o->chip) == 1;
	if (o->in.json)
		printf("{\"chip\": \"%s\", \"bits\": %u, \"entries\": %zu, \"search\": %u, \"used\": [", o->chip, bits,
		       n, search);
	else
		printf("RAMHT (%s): 2^%u entries (%zu bytes), lookups probe %u entries%s\n", o->chip, bits, n * 8,
		       search, chid ? "" : "; one channel's (G80: no CHID, instances in the channel structure)");
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		uint32_t h = le32(d + 8 * i), c = le32(d + 8 * i + 4);
		if (!h && !c && !o->in.all)
			continue;
		nvm_ramht_entry e;
		nvm_pfifo_ramht_entry(o->chip, h, c, &e);
		uint32_t slot = nvm_pfifo_ramht_slot(o->chip, h, e.chid, bits, &probe);
		uint32_t dist = (uint32_t)((i - slot) & (n - 1));
		if (o->in.json) {
			printf("%s{\"entry\": %zu, \"handle\": %u, \"context\": %u, \"valid\": %s, ", used ? ", " : "",
			       i, h, c, e.valid ? "true" : "false");
			if (chid)
				printf("\"chid\": %u, ", e.chid);
			printf("\"engine\": %u, \"engine_name\": \"%s\", \"instance\": %u, \"hash\": %u, "
			       "\"distance\": %u}",
			       e.engine, engine_name(o->chip, e.engine), e.instance, slot, dist);
		} else {
			char ch[24] = "";
			if (chid)
				snprintf(ch, sizeof(ch), " chid %u", e.chid);
			printf("entry 0x%03zx (+0x%04zx): handle 0x%08x context 0x%08x %s%s engine %u %s instance "
			       "0x%05x hash 0x%03x%s\n",
			       i, 8 * i, h, c, e.valid ? "valid" : "NOT VALID", ch, e.engine,
			       engine_name(o->chip, e.engine), e.instance, slot, dist ? "" : " (its slot)");
			if (dist)
				printf("    %u entries after its hash slot\n", dist);
		}
		used++;
	}
	if (o->in.json)
		printf("], \"problems\": [");
	/* What a lookup would not find, or find wrongly (puller.rst "RAMHT"). */
	struct problems p = { 0, o->in.json, o->in.file };
	for (size_t i = 0; i < n; i++) {
		uint32_t h = le32(d + 8 * i), c = le32(d + 8 * i + 4);
		if (!h && !c)
			continue;
		nvm_ramht_entry e;
		nvm_pfifo_ramht_entry(o->chip, h, c, &e);
		if (!e.valid) {
			if (chid && c)
				problem(&p, "entry", (uint32_t)i, "not_valid",
				        "handle 0x%08x: the context has no VALID bit (31:31): lookups skip it", h);
			else
				problem(&p, "entry", (uint32_t)i, "not_valid",
				        "handle 0x%08x: context 0 marks a free entry: lookups skip it", h);
			continue;
		}
		if (chid && e.chid >= nchan)
			problem(&p, "entry", (uint32_t)i, "bad_chid",
			        "handle 0x%08x: CHID %u, but the chip has %u channels", h, e.chid, nchan);
		uint32_t slot = nvm_pfifo_ramht_slot(o->chip, h, e.chid, bits, &probe);
		uint32_t dist = (uint32_t)((i - slot) & (n - 1));
		if (dist >= search)
			problem(&p, "entry", (uint32_t)i, "unreachable",
			        "handle 0x%08x%s: %u entries after its hash slot 0x%03x; lookups probe %u: "
			        "CACHE_ERROR NO_HASH",
			        h, who(chid, e.chid, false), dist, slot, search);
		for (size_t j = 0; j < i; j++) {
			nvm_ramht_entry f;
			nvm_pfifo_ramht_entry(o->chip, le32(d + 8 * j), le32(d + 8 * j + 4), &f);
			if (f.valid && f.handle == h && f.chid == e.chid) {
				problem(&p, "entry", (uint32_t)i, "duplicate",
				        "handle 0x%08x%s is also at entry 0x%03zx", h, who(chid, e.chid, true), j);
				break;
			}
		}
		if (!nvm_pfifo_has_engine(o->chip, e.engine))
			problem(&p, "entry", (uint32_t)i, "engine",
			        "handle 0x%08x: engine %u (%s) is not on this chip: its methods are dropped", h,
			        e.engine, engine_name(o->chip, e.engine));
	}
	if (o->in.json)
		printf("]}\n");
	else
		printf("%zu entries used, %zu problem%s\n", used, p.n, p.n == 1 ? "" : "s");
	return p.n ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- RAMFC */

/* The named subfields of the registers RAMFC holds (rnndb nv4_pfifo.xml). */
/* The G80 meanings where they differ (rnndb g80_pfifo.xml CACHE1 DMA_STATE,
 * DMA_FETCH IB_ENABLE, SEMAPHORE; DMA_INSTANCE is the pushbuffer's DMA
 * object selector in the channel). True when name is one of them. */
static bool ramfc_detail_g80(const char *name, uint32_t v, bool json, char *out, size_t size)
{
	if (!strcmp(name, "DMA_STATE"))
		snprintf(
		        out, size,
		        json ? "\"method\": %u, \"subchannel\": %u, \"noninc\": %u, \"large_nonincr_len_pending\": %u, "
		               "\"non_main\": %u, \"error\": \"%s\""
		             : "METHOD 0x%04x SUBCHANNEL %u NONINC %u LARGE_NONINCR_LEN_PENDING %u NON_MAIN %u ERROR "
		               "%s",
		        ((v >> 2) & 0x7ff) << 2, (v >> 13) & 7, v & 1, (v >> 16) & 1, (v >> 18) & 1,
		        nvm_pfifo_dma_error_name(v >> 29));
	else if (!strcmp(name, "DMA_FETCH"))
		snprintf(out, size, json ? "\"ib_enable\": %u" : "IB_ENABLE %u", (v >> 30) & 1);
	else if (!strcmp(name, "DMA_INSTANCE"))
		snprintf(out, size, json ? "\"selector\": %u" : "pushbuffer DMA object selector 0x%04x", v & 0xffff);
	else if (!strcmp(name, "SEMAPHORE"))
		snprintf(out, size,
		         json ? "\"offset\": %u, \"offset_valid\": %u, \"dma_inst\": %u"
		              : "OFFSET 0x%04x OFFSET_VALID %u DMA_INST 0x%04x",
		         (v & 0x3fff) << 2, (v >> 14) & 1, v >> 16);
	else
		return false;
	return true;
}

static void ramfc_detail(const char *name, uint32_t v, bool json, bool g80, char *out, size_t size)
{
	out[0] = 0;
	if (g80 && ramfc_detail_g80(name, v, json, out, size))
		return;
	if (!strcmp(name, "DMA_STATE")) {
		unsigned err = v >> 29;
		snprintf(out, size,
		         json ? "\"method\": %u, \"subchannel\": %u, \"method_count\": %u, \"noninc\": %u, "
		                "\"error\": \"%s\""
		              : "METHOD 0x%04x SUBCHANNEL %u METHOD_COUNT %u NONINC %u ERROR %s",
		         ((v >> 2) & 0x7ff) << 2, (v >> 13) & 7, (v >> 18) & 0x7ff, v & 1,
		         nvm_pfifo_dma_error_name(err));
	} else if (!strcmp(name, "DMA_FETCH")) {
		snprintf(out, size,
		         json ? "\"trig_bytes\": %u, \"size_bytes\": %u, \"max_reqs\": %u, \"endian\": \"%s\""
		              : "TRIG %u bytes, SIZE %u bytes, MAX_REQS %u, ENDIAN %s",
		         (((v >> 3) & 0x1f) + 1) * 8, (((v >> 13) & 7) + 1) * 32, (v >> 16) & 0x7f,
		         v >> 31 ? "BIG" : "LITTLE");
	} else if (!strcmp(name, "DMA_INSTANCE")) {
		snprintf(out, size, json ? "\"object\": %u" : "pushbuffer DMA object at RAMIN 0x%05x",
		         (v & 0xfffff) << 4);
	} else if (!strcmp(name, "PULL1")) {
		snprintf(out, size,
		         json ? "\"engine\": %u, \"acquire_active\": %u, \"semaphore_target\": %u"
		              : "ENGINE %u ACQUIRE_ACTIVE %u SEMAPHORE_TARGET %u",
		         v & 0xf, (v >> 4) & 1, (v >> 16) & 3);
	} else if (!strcmp(name, "SEMAPHORE")) {
		snprintf(out, size,
		         json ? "\"ctxdma_valid\": %u, \"offset\": %u, \"page\": %u"
		              : "CTXDMA_VALID %u OFFSET 0x%03x PAGE 0x%05x",
		         v & 1, v & 0xffc, v >> 12);
	} else if (!strcmp(name, "ENGINE")) {
		int k = 0;
		for (unsigned s = 0; s < 8 && k >= 0 && (size_t)k < size; s++)
			k += snprintf(out + k, size - (size_t)k, json ? "%s\"subch%u\": %u" : "%s%u:%u",
			              s ? (json ? ", " : " ") : "", s, (v >> (4 * s)) & 0xf);
	}
}

static int do_ramfc(const struct pfifo_opts *o, const uint8_t *d, size_t len)
{
	size_t nf;
	uint32_t size;
	const nvm_ramfc_field *fl = nvm_pfifo_ramfc_layout(o->chip, o->large, &nf, &size);
	uint32_t nchan = nvm_pfifo_channels(o->chip);
	bool g80 = nvm_pfifo_ramht_has_chid(o->chip) == 0;
	size_t have = len / size;
	if (!have)
		return cli_error(EXIT_USAGE, o->in.cmd, "%s: %zu bytes; a RAMFC entry of %s is %u bytes", o->in.file,
		                 len, o->chip, size);
	if (have > nchan)
		have = nchan;
	if (o->channel >= (int)have)
		return cli_error(EXIT_USAGE, o->in.cmd, "%s: channel %d is not in the input (%zu entries)", o->in.file,
		                 o->channel, have);
	if (o->in.json)
		printf("{\"chip\": \"%s\", \"entry_bytes\": %u, \"channels\": [", o->chip, size);
	else
		printf("RAMFC (%s): %u bytes per channel, %zu channel%s in the input\n", o->chip, size, have,
		       have == 1 ? "" : "s");
	struct problems p = { 0, o->in.json, o->in.file };
	size_t shown = 0;
	char det[256];
	for (size_t c = 0; c < have; c++) {
		const uint8_t *e = d + c * size;
		if (o->channel >= 0 && (size_t)o->channel != c)
			continue;
		bool zero = true;
		for (uint32_t b = 0; b < size; b++)
			zero &= !e[b];
		if (zero && !o->in.all && o->channel < 0)
			continue;
		if (o->in.json)
			printf("%s{\"channel\": %zu, \"fields\": {", shown ? ", " : "", c);
		else
			printf("channel %zu (+0x%04zx):\n", c, c * size);
		for (size_t i = 0; i < nf; i++) {
			uint32_t w = le32(e + fl[i].off);
			uint32_t m = fl[i].bits >= 32 ? 0xffffffffu : (1u << fl[i].bits) - 1;
			uint32_t v = ((w >> fl[i].ctx_lo) & m) << fl[i].reg_lo;
			ramfc_detail(fl[i].name, v, o->in.json, g80, det, sizeof(det));
			if (o->in.json) {
				printf("%s\"%s\": {\"value\": %u", i ? ", " : "", fl[i].name, v);
				if (det[0])
					printf(", %s", det);
				printf("}");
			} else {
				printf("  +0x%02x %-17s 0x%08x%s%s\n", fl[i].off, fl[i].name, v, det[0] ? "  " : "",
				       det);
			}
		}
		if (o->in.json)
			printf("}}");
		shown++;
	}
	if (o->in.json)
		printf("], \"problems\": [");
	for (size_t c = 0; c < have; c++) {
		if (o->channel >= 0 && (size_t)o->channel != c)
			continue;
		const uint8_t *e = d + c * size;
		for (size_t i = 0; i < nf; i++) {
			uint32_t v = le32(e + fl[i].off);
			if (!strcmp(fl[i].name, "DMA_STATE") && v >> 29)
				problem(&p, "channel", (uint32_t)c, "dma_pusher",
				        "DMA_STATE ERROR %s: the pusher is stopped until the driver clears it",
				        nvm_pfifo_dma_error_name(v >> 29));
			if ((!strcmp(fl[i].name, "DMA_PUT") || !strcmp(fl[i].name, "DMA_GET")) && (v & 3))
				problem(&p, "channel", (uint32_t)c, "unaligned", "%s 0x%08x is not a multiple of 4",
				        fl[i].name, v);
		}
	}
	if (o->in.json)
		printf("]}\n");
	else
		printf("%zu channel%s shown, %zu problem%s\n", shown, shown == 1 ? "" : "s", p.n, p.n == 1 ? "" : "s");
	return p.n ? EXIT_FAIL : EXIT_OK;
}

int cmd_pfifo(int argc, char **argv)
{
	if (cli_wants_help(argc, argv) || argc < 2) {
		if (argc < 2) {
			usage_pfifo(stderr);
			return EXIT_USAGE;
		}
		usage_pfifo(stdout);
		return EXIT_OK;
	}
	const char *sub = argv[1];
	struct pfifo_opts o = { .channel = -1 };
	if (!strcmp(sub, "ramht"))
		o.in.cmd = "pfifo ramht";
	else if (!strcmp(sub, "ramfc"))
		o.in.cmd = "pfifo ramfc";
	else
		return cli_usage_error("pfifo", "unknown sub-command '%s' (ramht, ramfc)", sub);
	int rc = parse_opts(&o, argc - 1, argv + 1);
	if (rc)
		return rc;
	uint8_t *base = NULL;
	const uint8_t *d = NULL;
	size_t len = 0;
	rc = cli_dump_load(&o.in, CLI_ALL, &base, &d, &len);
	if (rc)
		return rc;
	rc = !strcmp(sub, "ramht") ? do_ramht(&o, d, len) : do_ramfc(&o, d, len);
	free(base);
	return rc;
}
