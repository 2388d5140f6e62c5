/*
 * nvmodel host: decode the in-memory structures of the Volta Host from a
 * bug report, with every dword and field named as the manuals name it, and
 * flag what the Host would reject (include/nvmodel/host_fmt.h,
 * docs/host_formats.md).
 *
 *   host ramin FILE     an instance block: RAMFC + memory-management state
 *   host userd FILE     a USERD page
 *   host runlist FILE   runlist entries: TSG headers and channels
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nvmodel/host_fmt.h"
#include "nvmodel/nvmodel.h"

struct host_opts {
	struct cli_dump in;
	const char *chip; /* --chip: whose layouts (NULL: the default chip) */
	uint64_t count;
	bool has_count;
	int limit2; /* -1: not given */
};

static void usage_host(FILE *f)
{
	fprintf(f,
	        "usage: %s host <ramin|userd|runlist> FILE [options]\n"
	        "\n"
	        "Decodes the in-memory structures of the Volta Host (docs/host_formats.md),\n"
	        "naming every dword and field as the manuals do, and lists what the Host would\n"
	        "reject with the interrupt, SCHED_ERROR code or MMU fault it raises.\n"
	        "\n"
	        "  host ramin FILE     a 4096-byte instance block: RAMFC (dwords 0-127, each a\n"
	        "                      NV_PPBDMA_* register) and the NV_RAMIN state after it\n"
	        "  host userd FILE     a 512-byte USERD page (NV_RAMUSERD)\n"
	        "  host runlist FILE   16-byte runlist entries (NV_RAMRL_ENTRY), checked as the\n"
	        "                      scheduler walks them (TSG headers and channels)\n"
	        "\n"
	        "options:\n"
	        "  --offset N    start N bytes into the input (default 0)\n"
	        "  --count N     runlist: decode N entries (default: all to the end)\n"
	        "  --limit2 N    userd: the channel's GP_BASE_HI_LIMIT2, to check GP_PUT/GP_GET\n"
	        "  --chip C      the chip whose Host lays the structures out (gv100, tu102,\n"
	        "                ga100, ga102, gh100; default gv100): the names of its manual\n"
	        "  --hex         input is text: 32-bit words separated by spaces, commas or\n"
	        "                newlines, 0x optional (as pasted from a log)\n"
	        "  --all         ramin, userd: also zero dwords and fields, and every subcontext;\n"
	        "                runlist: every field of each entry with its manual name\n"
	        "  --json        one JSON object\n"
	        "\n"
	        "Exit codes: 0 clean, 1 problems found, 2 usage or unreadable input.\n",
	        cli_prog);
}

/* ---------------------------------------------------------------- input */

/* The options of host's own: --count, --limit2. */
static int own_opt(void *user, int argc, char **argv, int *i)
{
	struct host_opts *o = user;
	const char *v;
	uint64_t x;
	int r;
	if ((r = cli_opt(argc, argv, i, "--count", &v))) {
		if (strcmp(o->in.cmd, "host runlist"))
			return cli_usage_error(o->in.cmd, "--count is for runlists");
		if (r < 0 || !cli_parse_u64(v, &o->count) || o->count == 0)
			return cli_usage_error(o->in.cmd, "--count needs a number of entries (1 or more)");
		o->has_count = true;
		return EXIT_OK;
	}
	if ((r = cli_opt(argc, argv, i, "--limit2", &v))) {
		if (strcmp(o->in.cmd, "host userd"))
			return cli_usage_error(o->in.cmd, "--limit2 is for USERD pages");
		if (r < 0 || !cli_parse_u64(v, &x) || x > 31)
			return cli_usage_error(o->in.cmd, "--limit2 needs a number 0-31 (NV_PPBDMA_GP_BASE_HI_LIMIT2)");
		o->limit2 = (int)x;
		return EXIT_OK;
	}
	if ((r = cli_opt(argc, argv, i, "--chip", &v))) {
		if (r < 0 || !nvm_hf_layout_chip(v, NVM_HF_RAMFC))
			return cli_usage_error(o->in.cmd,
			                       "--chip needs a chip with a Host (gv100, tu102, ga100, ga102, gh100)");
		o->chip = v;
		return EXIT_OK;
	}
	return CLI_NOT_MINE;
}

/* The layouts of the chip --chip names (host_chip), gv100's by default. */
static const char *host_chip;

/* A runlist entry as the chip's Host reads it (Ampere: 11-bit ids). */
static void rl_decode(const uint8_t *raw, nvm_rl_entry *e)
{
	if (!nvm_rl_entry_decode_chip(host_chip, raw, e))
		nvm_rl_entry_decode(raw, e);
}

static const nvm_hf_layout *layout(nvm_hf_struct s)
{
	return nvm_hf_layout_chip(host_chip, s);
}

/* Loads the input (cli_dump_load) and checks that `need` bytes (one `what`)
 * are there at the offset; a binary input is read for `want` bytes at most,
 * so a structure in a large dump costs its own size. */
static int load(const struct host_opts *o, const char *what, size_t need, uint64_t want, uint8_t **base,
                const uint8_t **data, size_t *len)
{
	int rc = cli_dump_load(&o->in, want, base, data, len);
	if (rc)
		return rc;
	if (*len < need) {
		free(*base);
		return cli_error(EXIT_USAGE, o->in.cmd, "%s: only %zu bytes from offset %llu; %s needs %zu", o->in.file,
		                 *len, (unsigned long long)o->in.offset, what, need);
	}
	return EXIT_OK;
}

/* ---------------------------------------------------------------- problems */

static const char *severity_name(nvm_hf_severity s)
{
	return s == NVM_HF_ERROR ? "error" : "warning";
}

/* "dword 4 (+0x10)" or "entry 3 (+0x30)". */
static void problem_text(const struct host_opts *o, const nvm_hf_problem *p, bool entries)
{
	const nvm_hf_check_info *ci = nvm_hf_check_get(p->code);
	char msg[256];
	nvm_hf_problem_text(p, msg, sizeof(msg));
	unsigned long long off = (unsigned long long)p->where * (entries ? 16u : 4u);
	printf("%s: %s %u (+0x%llx): %s: %s -> %s\n", o->in.file, entries ? "entry" : "dword", p->where, off, ci->id,
	       msg, ci->effect ? ci->effect : "no interrupt documented");
}

static void problem_json(const nvm_hf_problem *p, bool entries)
{
	const nvm_hf_check_info *ci = nvm_hf_check_get(p->code);
	char msg[256];
	nvm_hf_problem_text(p, msg, sizeof(msg));
	printf("{\"%s\": %u, \"check\": \"%s\", \"severity\": \"%s\", ", entries ? "entry" : "dword", p->where, ci->id,
	       severity_name(ci->severity));
	if (p->sub >= 0)
		printf("\"subcontext\": %d, ", p->sub);
	printf("\"field\": ");
	if (p->field)
		json_str(stdout, p->field);
	else
		printf("null");
	printf(", \"message\": ");
	json_str(stdout, msg);
	printf(", \"effect\": ");
	if (ci->effect)
		json_str(stdout, ci->effect);
	else
		printf("null");
	printf(", \"cite\": ");
	json_str(stdout, ci->cite);
	printf("}");
}

struct tally {
	size_t errors, warnings;
};

static void count(struct tally *t, const nvm_hf_problem *p)
{
	if (nvm_hf_check_get(p->code)->severity == NVM_HF_ERROR)
		t->errors++;
	else
		t->warnings++;
}

static void tally_line(const struct host_opts *o, const struct tally *t)
{
	if (!t->errors && !t->warnings)
		printf("%s: no problems\n", o->in.file);
	else
		printf("%s: %zu problem%s (%zu error%s, %zu warning%s)\n", o->in.file, t->errors + t->warnings,
		       t->errors + t->warnings == 1 ? "" : "s", t->errors, t->errors == 1 ? "" : "s", t->warnings,
		       t->warnings == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- field tables */

/* What a structure view prints: the bytes, the problems found in them, and
 * which copies of array words (NV_RAMIN_SC_*(i)) to show. */
struct view {
	const struct host_opts *o;
	const uint8_t *buf;
	size_t len;
	const nvm_hf_problem *probs;
	size_t nprobs;
	uint64_t copies;
	bool first; /* JSON: no comma before the next word */
};

static bool has_problem(const struct view *v, unsigned dword)
{
	for (size_t i = 0; i < v->nprobs; i++)
		if (v->probs[i].where == dword)
			return true;
	return false;
}

/* "NV_RAMIN_SC_PAGE_DIR_BASE_TARGET(5)" for array words. */
static const char *field_name(const nvm_hf_word *w, unsigned idx, const nvm_hf_field *f, char *buf, size_t len)
{
	if (w->count > 1)
		snprintf(buf, len, "%s(%u)", f->name, idx);
	else
		snprintf(buf, len, "%s", f->name);
	return buf;
}

/* A word and its fields: by default the fields that are not zero (all of
 * them when a problem points at the word), with --all every field. */
static void word_text(const struct view *v, const nvm_hf_layout *l, const nvm_hf_word *w, unsigned idx, unsigned d,
                      uint32_t val)
{
	bool every = v->o->in.all || has_problem(v, d);
	printf("  +0x%03x dw %-4u ", d * 4, d);
	if (w->name)
		printf("%s = 0x%08x", w->name, val);
	else if (w->count > 1)
		printf("%s dword %u (subcontext %u) = 0x%08x", l->name, d, idx, val);
	else
		printf("%s dword %u = 0x%08x", l->name, d, val);
	if (w->reg)
		printf("  (%s)", w->reg);
	printf("\n");
	for (unsigned k = 0; k < w->nfields; k++) {
		const nvm_hf_field *f = &w->fields[k];
		uint32_t fv = nvm_hf_get(v->buf, v->len, w, idx, f);
		const char *en = nvm_hf_enum_name(f, fv);
		if (!every && fv == 0)
			continue;
		char name[96], bits[48];
		printf("      %-46s %-24s 0x%x%s%s\n", field_name(w, idx, f, name, sizeof(name)),
		       nvm_hf_bits_text(l, w, idx, f, bits, sizeof(bits)), fv, en ? " " : "", en ? en : "");
	}
}

static void fields_json(const nvm_hf_layout *l, const nvm_hf_word *w, unsigned idx, const uint8_t *buf, size_t len)
{
	printf("[");
	for (unsigned k = 0; k < w->nfields; k++) {
		const nvm_hf_field *f = &w->fields[k];
		uint32_t fv = nvm_hf_get(buf, len, w, idx, f);
		const char *en = nvm_hf_enum_name(f, fv);
		char name[96], bits[48];
		printf("%s{\"name\": ", k ? ", " : "");
		json_str(stdout, field_name(w, idx, f, name, sizeof(name)));
		printf(", \"bits\": \"%s\", \"value\": %u, \"enum\": ",
		       nvm_hf_bits_text(l, w, idx, f, bits, sizeof(bits)), fv);
		if (en)
			json_str(stdout, en);
		else
			printf("null");
		printf("}");
	}
	printf("]");
}

static void word_json(struct view *v, const nvm_hf_layout *l, const nvm_hf_word *w, unsigned idx, unsigned d,
                      uint32_t val)
{
	printf("%s  {\"layout\": \"%s\", \"dword\": %u, \"offset\": %u, \"name\": ", v->first ? "" : ",\n", l->name, d,
	       d * 4);
	v->first = false;
	if (w && w->name)
		json_str(stdout, w->name);
	else
		printf("null");
	printf(", \"register\": ");
	if (w && w->reg)
		json_str(stdout, w->reg);
	else
		printf("null");
	if (w && w->count > 1)
		printf(", \"index\": %u", idx);
	printf(", \"value\": %u, \"fields\": ", val);
	if (w)
		fields_json(l, w, idx, v->buf, v->len);
	else
		printf("[]");
	printf("}");
}

/* Every dword from first to the end of the layout: the words the manual
 * names (zero ones only with --all or a problem; in JSON all of them), and
 * the other dwords when they are not zero. */
static void print_layout(struct view *v, const nvm_hf_layout *l, unsigned first, const char *what)
{
	bool json = v->o->in.json;
	if (!json)
		printf("%s: %s\n", l->name, what);
	for (unsigned d = first; d < l->size / 4; d++) {
		unsigned idx = 0;
		const nvm_hf_word *w = nvm_hf_word_at(l, d, &idx);
		uint32_t val = nvm_hf_dword(v->buf, v->len, d);
		if (w && w->count > 1 && idx < 64 && !((v->copies >> idx) & 1u))
			continue; /* a subcontext that is not shown */
		if (!w) {
			if (!val)
				continue;
			if (json)
				word_json(v, l, NULL, 0, d, val);
			else
				printf("  +0x%03x dw %-4u 0x%08x (not named in the %s manual)\n", d * 4, d, val,
				       host_chip ? host_chip : NVM_DEFAULT_CHIP);
			continue;
		}
		if (json)
			word_json(v, l, w, idx, d, val);
		else if (val || v->o->in.all || has_problem(v, d))
			word_text(v, l, w, idx, d, val);
	}
}

/* Name of value val of the field at bit lo of dword d of a layout. */
static const char *enum_at(nvm_hf_struct s, unsigned d, unsigned lo, uint32_t val, char *buf, size_t len)
{
	unsigned idx;
	const nvm_hf_word *w = nvm_hf_word_at(layout(s), d, &idx);
	for (unsigned k = 0; w && k < w->nfields; k++)
		if (w->fields[k].lo == lo) {
			const char *n = nvm_hf_enum_name(&w->fields[k], val);
			if (n)
				return n;
		}
	snprintf(buf, len, "%u", val);
	return buf;
}

/* Collects the problems of a structure: the checker run twice, first to
 * count them. */
typedef size_t (*check_fn)(const uint8_t *buf, int arg, nvm_hf_problem *out, size_t max);

static nvm_hf_problem *collect(check_fn fn, const uint8_t *buf, int arg, size_t *n)
{
	*n = fn(buf, arg, NULL, 0);
	nvm_hf_problem *p = calloc(*n ? *n : 1, sizeof(*p));
	if (p)
		*n = fn(buf, arg, p, *n);
	return p;
}

static void problems_out(const struct host_opts *o, const nvm_hf_problem *p, size_t n, struct tally *t)
{
	if (o->in.json)
		printf(",\n \"problems\": [");
	for (size_t i = 0; i < n; i++) {
		count(t, &p[i]);
		if (o->in.json) {
			printf("%s\n  ", i ? "," : "");
			problem_json(&p[i], false);
		} else {
			problem_text(o, &p[i], false);
		}
	}
	if (o->in.json)
		printf("%s],\n \"errors\": %zu, \"warnings\": %zu}\n", n ? "\n " : "", t->errors, t->warnings);
	else
		tally_line(o, t);
}

/* ---------------------------------------------------------------- ramin */

static size_t check_ramin(const uint8_t *buf, int arg, nvm_hf_problem *out, size_t max)
{
	(void)arg;
	return nvm_ramin_check_chip(host_chip, buf, out, max);
}

#define ULL(x) ((unsigned long long)(x))

static void ramin_summary(const struct host_opts *o, const nvm_ramin_info *in)
{
	const nvm_ramfc_info *fc = &in->fc;
	char b1[16], b2[16], b3[16];
	const char *userd_t = enum_at(NVM_HF_RAMFC, 2, 0, fc->userd_target, b1, sizeof(b1));
	const char *pdb_t = enum_at(NVM_HF_RAMIN, 128, 0, in->pdb.target, b2, sizeof(b2));
	const char *wfi_t = enum_at(NVM_HF_RAMIN, 132, 0, in->wfi_target, b3, sizeof(b3));
	if (o->in.json) {
		printf(",\n \"summary\": {\"signature_hw\": %u, \"gpfifo\": {\"base\": %llu, \"limit2\": %u, "
		       "\"entries\": %llu, \"gp_put\": %u, \"gp_get\": %u, \"gp_fetch\": %u}, ",
		       fc->signature_hw, ULL(fc->gp_base), fc->limit2, 1ull << fc->limit2, fc->gp_put, fc->gp_get,
		       fc->gp_fetch);
		printf("\"userd\": {\"target\": \"%s\", \"addr\": %llu}, ", userd_t, ULL(fc->userd_addr));
		printf("\"pb\": {\"get\": %llu, \"put\": %llu, \"top_level_get\": %llu, \"top_level_get_valid\": %s, "
		       "\"fetch\": %llu}, ",
		       ULL(fc->pb_get), ULL(fc->pb_put), ULL(fc->pb_top_level_get),
		       fc->pb_top_level_get_valid ? "true" : "false", ULL(fc->pb_fetch));
		printf("\"page_directory\": {\"target\": \"%s\", \"addr\": %llu}, ", pdb_t, ULL(in->pdb.addr));
		printf("\"engine_wfi\": {\"target\": \"%s\", \"mode\": \"%s\", \"ptr\": %llu, \"veid\": %u}, ", wfi_t,
		       in->wfi_virtual ? "VIRTUAL" : "PHYSICAL", ULL(in->wfi_ptr), in->wfi_veid);
		printf("\"method_buffer\": %llu, \"subcontexts\": [", ULL(in->method_buffer));
		for (unsigned i = 0, k = 0; i < NVM_RAMIN_SUBCTX; i++)
			if ((in->sc_pdb_valid >> i) & 1u)
				printf("%s%u", k++ ? ", " : "", i);
		printf("]}");
		return;
	}
	printf("summary\n");
	printf("  GPFIFO          0x%llx, 2^%u = %llu entries; GP_PUT %u, GP_GET %u, GP_FETCH %u\n", ULL(fc->gp_base),
	       fc->limit2, 1ull << fc->limit2, fc->gp_put, fc->gp_get, fc->gp_fetch);
	printf("  USERD           %s 0x%llx\n", userd_t, ULL(fc->userd_addr));
	printf("  PB              GET 0x%llx, PUT 0x%llx, TOP_LEVEL_GET 0x%llx%s, FETCH 0x%llx\n", ULL(fc->pb_get),
	       ULL(fc->pb_put), ULL(fc->pb_top_level_get), fc->pb_top_level_get_valid ? " (VALID)" : "",
	       ULL(fc->pb_fetch));
	printf("  page directory  %s 0x%llx\n", pdb_t, ULL(in->pdb.addr));
	printf("  engine context  %s 0x%llx %s, VEID %u\n", wfi_t, ULL(in->wfi_ptr),
	       in->wfi_virtual ? "VIRTUAL" : "PHYSICAL", in->wfi_veid);
	printf("  method buffer   0x%llx\n", ULL(in->method_buffer));
	printf("  subcontexts    ");
	if (!in->sc_pdb_valid)
		printf(" none");
	for (unsigned i = 0; i < NVM_RAMIN_SUBCTX; i++)
		if ((in->sc_pdb_valid >> i) & 1u)
			printf(" %u", i);
	printf("\n");
}

static int host_ramin(struct host_opts *o)
{
	uint8_t *base;
	const uint8_t *buf;
	size_t len;
	int rc = load(o, "an instance block", NVM_RAMIN_SIZE, NVM_RAMIN_SIZE, &base, &buf, &len);
	if (rc)
		return rc;
	size_t n;
	nvm_hf_problem *p = collect(check_ramin, buf, 0, &n);
	if (!p) {
		free(base);
		return cli_error(EXIT_INTERNAL, o->in.cmd, "out of memory");
	}
	nvm_ramin_info in;
	nvm_ramin_decode(buf, &in);
	struct view v = { o, buf, NVM_RAMIN_SIZE, p, n, o->in.all ? ~0ull : in.sc_pdb_valid, true };
	if (o->in.json) {
		printf("{\"structure\": \"instance block\", \"file\": ");
		json_str(stdout, o->in.file);
		printf(", \"offset\": %llu, \"size\": %u,\n \"words\": [\n", ULL(o->in.offset), NVM_RAMIN_SIZE);
	} else {
		printf("%s: instance block at offset 0x%llx (%u bytes)\n", o->in.file, ULL(o->in.offset),
		       NVM_RAMIN_SIZE);
	}
	print_layout(&v, layout(NVM_HF_RAMFC), 0,
	             "Host state, dwords 0-127; each mirrors the NV_PPBDMA_* register named after it");
	print_layout(&v, layout(NVM_HF_RAMIN), NVM_RAMFC_SIZE / 4,
	             "memory management and engine state, dwords 128-1023");
	if (o->in.json)
		printf("\n ]");
	ramin_summary(o, &in);
	struct tally t = { 0 };
	problems_out(o, p, n, &t);
	free(p);
	free(base);
	return t.errors + t.warnings ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- userd */

static size_t check_userd(const uint8_t *buf, int limit2, nvm_hf_problem *out, size_t max)
{
	return nvm_userd_check(buf, limit2, out, max);
}

static int host_userd(struct host_opts *o)
{
	uint8_t *base;
	const uint8_t *buf;
	size_t len;
	int rc = load(o, "a USERD page", NVM_USERD_SIZE, NVM_USERD_SIZE, &base, &buf, &len);
	if (rc)
		return rc;
	size_t n;
	nvm_hf_problem *p = collect(check_userd, buf, o->limit2, &n);
	if (!p) {
		free(base);
		return cli_error(EXIT_INTERNAL, o->in.cmd, "out of memory");
	}
	nvm_userd_info u;
	nvm_userd_decode(buf, &u);
	struct view v = { o, buf, NVM_USERD_SIZE, p, n, 0, true };
	/* Entries pending: GP_PUT - GP_GET modulo the ring, when its size is known. */
	uint64_t ring = o->limit2 >= 0 ? 1ull << o->limit2 : 0;
	if (o->in.json) {
		printf("{\"structure\": \"USERD\", \"file\": ");
		json_str(stdout, o->in.file);
		printf(", \"offset\": %llu, \"size\": %u,\n \"words\": [\n", ULL(o->in.offset), NVM_USERD_SIZE);
		print_layout(&v, layout(NVM_HF_USERD), 0, NULL);
		printf("\n ],\n \"summary\": {\"gp_put\": %u, \"gp_get\": %u, \"get\": %llu, \"put\": %llu, "
		       "\"top_level_get\": %llu, \"top_level_get_valid\": %s, \"ref\": %u, \"limit2\": ",
		       u.gp_put, u.gp_get, ULL(u.get), ULL(u.put), ULL(u.top_level_get),
		       u.top_level_get_valid ? "true" : "false", u.ref);
		if (ring)
			printf("%d, \"gp_pending\": %llu}", o->limit2, ULL((u.gp_put - u.gp_get) & (ring - 1)));
		else
			printf("null, \"gp_pending\": null}");
	} else {
		printf("%s: USERD at offset 0x%llx (%u bytes)\n", o->in.file, ULL(o->in.offset), NVM_USERD_SIZE);
		print_layout(&v, layout(NVM_HF_USERD), 0,
		             "user-driver state; each dword mirrors the NV_PPBDMA_* register named after it");
		printf("summary\n  GP_PUT %u, GP_GET %u", u.gp_put, u.gp_get);
		if (ring)
			printf(" (%llu GP entries pending in a ring of %llu)", ULL((u.gp_put - u.gp_get) & (ring - 1)),
			       ULL(ring));
		printf("\n  PB GET 0x%llx, PUT 0x%llx, TOP_LEVEL_GET 0x%llx%s; REF 0x%x\n", ULL(u.get), ULL(u.put),
		       ULL(u.top_level_get), u.top_level_get_valid ? " (VALID)" : "", u.ref);
	}
	struct tally t = { 0 };
	problems_out(o, p, n, &t);
	free(p);
	free(base);
	return t.errors + t.warnings ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- runlist */

static void entry_fields_text(const nvm_rl_entry *e, const uint8_t *raw)
{
	const nvm_hf_layout *l = layout(e->type == NVM_RL_TYPE_TSG ? NVM_HF_RL_TSG : NVM_HF_RL_CHAN);
	for (size_t k = 0; k < l->nwords; k++) {
		const nvm_hf_word *w = &l->words[k];
		for (unsigned j = 0; j < w->nfields; j++) {
			const nvm_hf_field *f = &w->fields[j];
			uint32_t fv = nvm_hf_get(raw, NVM_RL_ENTRY_SIZE, w, 0, f);
			const char *en = nvm_hf_enum_name(f, fv);
			char bits[48];
			printf("        %-38s %-24s 0x%x%s%s\n", f->name,
			       nvm_hf_bits_text(l, w, 0, f, bits, sizeof(bits)), fv, en ? " " : "", en ? en : "");
		}
	}
}

static void entry_text(const nvm_rl_entry *e, uint32_t idx, bool member, const nvm_hf_problem *p, size_t np)
{
	char b1[16], b2[16];
	printf("%-6u +0x%05llx  %s", idx, ULL(idx) * 16u, member ? "  " : "");
	if (e->type == NVM_RL_TYPE_TSG) {
		printf("TSG  TSGID %u  TSG_LENGTH %u  TIMESLICE_TIMEOUT %u  TIMESLICE_SCALE %u  (timeslice %llu ns)",
		       e->id, e->tsg_length, e->timeslice_timeout, e->timeslice_scale, ULL(e->timeslice_ns));
	} else {
		printf("CHAN CHID %u  RUNQUEUE_SELECTOR %u  INST %s 0x%llx  USERD %s 0x%llx", e->id,
		       e->runqueue_selector, enum_at(NVM_HF_RL_CHAN, 0, 4, e->inst_target, b1, sizeof(b1)),
		       ULL(e->inst_addr), enum_at(NVM_HF_RL_CHAN, 0, 6, e->userd_target, b2, sizeof(b2)),
		       ULL(e->userd_addr));
	}
	for (size_t i = 0; i < np; i++)
		printf("%s%s", i ? ", " : "  <- ", nvm_hf_check_get(p[i].code)->id);
	printf("\n");
}

static void entry_json(const nvm_rl_entry *e, const uint8_t *raw, uint32_t idx, const nvm_rl_walker *w, bool first)
{
	char b1[16], b2[16];
	printf("%s  {\"entry\": %u, \"offset\": %llu, \"raw\": [%u, %u, %u, %u], ", first ? "" : ",\n", idx,
	       ULL(idx) * 16u, e->dw[0], e->dw[1], e->dw[2], e->dw[3]);
	if (e->type == NVM_RL_TYPE_TSG) {
		printf("\"type\": \"TSG\", \"tsgid\": %u, \"tsg_length\": %u, \"timeslice_scale\": %u, "
		       "\"timeslice_timeout\": %u, \"timeslice_ns\": %llu, ",
		       e->id, e->tsg_length, e->timeslice_scale, e->timeslice_timeout, ULL(e->timeslice_ns));
	} else {
		printf("\"type\": \"CHAN\", \"chid\": %u, \"tsg_entry\": ", e->id);
		if (w->member)
			printf("%u", w->tsg_index);
		else
			printf("null");
		printf(", \"runqueue_selector\": %u, \"inst_target\": \"%s\", \"inst\": %llu, \"userd_target\": "
		       "\"%s\", "
		       "\"userd\": %llu, ",
		       e->runqueue_selector, enum_at(NVM_HF_RL_CHAN, 0, 4, e->inst_target, b1, sizeof(b1)),
		       ULL(e->inst_addr), enum_at(NVM_HF_RL_CHAN, 0, 6, e->userd_target, b2, sizeof(b2)),
		       ULL(e->userd_addr));
	}
	const nvm_hf_layout *l = layout(e->type == NVM_RL_TYPE_TSG ? NVM_HF_RL_TSG : NVM_HF_RL_CHAN);
	printf("\"fields\": [");
	bool any = false;
	for (size_t k = 0; k < l->nwords; k++) {
		const nvm_hf_word *wd = &l->words[k];
		for (unsigned j = 0; j < wd->nfields; j++) {
			const nvm_hf_field *f = &wd->fields[j];
			uint32_t fv = nvm_hf_get(raw, NVM_RL_ENTRY_SIZE, wd, 0, f);
			const char *en = nvm_hf_enum_name(f, fv);
			char bits[48];
			printf("%s{\"name\": \"%s\", \"brief\": \"%s\", \"bits\": \"%s\", \"value\": %u, \"enum\": ",
			       any ? ", " : "", f->name, f->brief ? f->brief : f->name,
			       nvm_hf_bits_text(l, wd, 0, f, bits, sizeof(bits)), fv);
			any = true;
			if (en)
				json_str(stdout, en);
			else
				printf("null");
			printf("}");
		}
	}
	printf("]}");
}

/* Two passes over the entries: the listing (with the problem ids of each
 * entry), then the problems in full. Nothing is stored per entry, so a
 * runlist of any length runs in constant memory. */
static int host_runlist(struct host_opts *o)
{
	uint8_t *base;
	const uint8_t *buf;
	size_t len;
	/* With --count, only those entries are read. */
	uint64_t want =
	        o->has_count && o->count <= CLI_ALL / NVM_RL_ENTRY_SIZE ? o->count * NVM_RL_ENTRY_SIZE : CLI_ALL;
	int rc = load(o, "a runlist entry", NVM_RL_ENTRY_SIZE, want, &base, &buf, &len);
	if (rc)
		return rc;
	size_t entries = len / NVM_RL_ENTRY_SIZE;
	if (o->has_count) {
		if (o->count > entries) {
			free(base);
			return cli_error(EXIT_USAGE, o->in.cmd, "%s: --count %llu entries, only %zu from offset %llu",
			                 o->in.file, ULL(o->count), entries, ULL(o->in.offset));
		}
		entries = (size_t)o->count;
	} else if (len % NVM_RL_ENTRY_SIZE) {
		free(base);
		return cli_error(EXIT_USAGE, o->in.cmd,
		                 "%s: %zu bytes from offset %llu is not a whole number of %u-byte entries", o->in.file,
		                 len, ULL(o->in.offset), NVM_RL_ENTRY_SIZE);
	}
	if (entries > UINT32_MAX) {
		free(base);
		return cli_error(EXIT_USAGE, o->in.cmd, "%s: more than 2^32 entries", o->in.file);
	}
	if (o->in.json) {
		printf("{\"structure\": \"runlist\", \"file\": ");
		json_str(stdout, o->in.file);
		printf(", \"offset\": %llu, \"count\": %zu,\n \"entries\": [\n", ULL(o->in.offset), entries);
	} else {
		printf("%s: %zu runlist entr%s at offset 0x%llx\n", o->in.file, entries, entries == 1 ? "y" : "ies",
		       ULL(o->in.offset));
	}
	nvm_rl_walker w;
	nvm_hf_problem step[2 * NVM_RL_STEP_MAX];
	nvm_rl_walk_init(&w);
	for (size_t i = 0; i < entries; i++) {
		const uint8_t *raw = buf + i * NVM_RL_ENTRY_SIZE;
		nvm_rl_entry e;
		rl_decode(raw, &e);
		size_t np = nvm_rl_walk_step(&w, &e, step);
		np += nvm_rl_entry_check(&e, (uint32_t)i, step + np);
		if (o->in.json) {
			entry_json(&e, raw, (uint32_t)i, &w, i == 0);
		} else {
			entry_text(&e, (uint32_t)i, w.member, step, np);
			if (o->in.all)
				entry_fields_text(&e, raw);
		}
	}
	nvm_rl_walk_end(&w, step);
	if (o->in.json)
		printf("\n ],\n \"tsgs\": %u, \"channels\": %u,\n \"problems\": [", w.tsgs, w.chans);
	else
		printf("%u TSG%s, %u channel%s\n", w.tsgs, w.tsgs == 1 ? "" : "s", w.chans, w.chans == 1 ? "" : "s");
	struct tally t = { 0 };
	nvm_rl_walker w2;
	nvm_rl_walk_init(&w2);
	size_t shown = 0;
	for (size_t i = 0; i <= entries; i++) {
		size_t np;
		if (i < entries) {
			nvm_rl_entry e;
			rl_decode(buf + i * NVM_RL_ENTRY_SIZE, &e);
			np = nvm_rl_walk_step(&w2, &e, step);
			np += nvm_rl_entry_check(&e, (uint32_t)i, step + np);
		} else {
			np = nvm_rl_walk_end(&w2, step);
		}
		for (size_t k = 0; k < np; k++) {
			count(&t, &step[k]);
			if (o->in.json) {
				printf("%s\n  ", shown++ ? "," : "");
				problem_json(&step[k], true);
			} else {
				problem_text(o, &step[k], true);
			}
		}
	}
	if (o->in.json)
		printf("%s],\n \"errors\": %zu, \"warnings\": %zu}\n", shown ? "\n " : "", t.errors, t.warnings);
	else
		tally_line(o, &t);
	free(base);
	return t.errors + t.warnings ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- command */

int cmd_host(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("host", "missing sub-command (ramin, userd or runlist)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage_host(stdout);
		return EXIT_OK;
	}
	static const struct {
		const char *name, *cmd;
		int (*fn)(struct host_opts *o);
	} subs[] = {
		{ "ramin", "host ramin", host_ramin },
		{ "userd", "host userd", host_userd },
		{ "runlist", "host runlist", host_runlist },
	};
	for (size_t i = 0; i < sizeof(subs) / sizeof(subs[0]); i++) {
		if (strcmp(argv[1], subs[i].name))
			continue;
		if (cli_wants_help(argc - 1, argv + 1)) {
			usage_host(stdout);
			return EXIT_OK;
		}
		struct host_opts o = { .in.cmd = subs[i].cmd, .limit2 = -1 };
		int rc = cli_dump_parse(&o.in, argc - 1, argv + 1, own_opt, &o);
		host_chip = o.chip;
		return rc ? rc : subs[i].fn(&o);
	}
	return cli_usage_error("host", "unknown sub-command '%s' (ramin, userd or runlist)", argv[1]);
}
