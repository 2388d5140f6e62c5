/*
 * nvmodel vm walk|dump --format g80: the G80 (Tesla) VM structures of a
 * memory image (seed 002): a channel descriptor and a logical address
 * through the DMA object, the PDE and the PTE, every field named; or every
 * mapping of a channel's page tables.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "nvmodel/g80vm.h"
#include "nvmodel/nvmodel.h"

struct g80_opts {
	struct vm_common c;
	const char *chan_s, *sel_s, *off_s, *chip;
	bool write, user;
	uint32_t chan, sel;
	uint64_t off;
	nvm_g80_layout lay;
};

static void walk_help(void)
{
	printf("usage: %s vm walk --format g80 --vram FILE [--sysmem FILE] --chan DESC --selector SEL\n"
	       "                  --offset ADDR [--chip g80|g84|g92|gt215] [--write] [--user] [--json]\n\n"
	       "Translates one logical address of a G80 (Tesla) channel in a memory image:\n"
	       "the channel descriptor (27:0 = structure address 39:12, 29:28 target), the\n"
	       "DMA object at structure + SEL * 0x10, then for paged objects the PDE and the\n"
	       "PTE, every field named, and the translation or the VM fault. --chip picks\n"
	       "the channel-structure layout (default g84: page directory at 0x200; g80:\n"
	       "0x1400) and GT215 medium pages. The access is a read by a supervisor unless\n"
	       "--write / --user. Exit 0: translated; 1: a VM fault.\n",
	       cli_prog);
}

static void dump_help(void)
{
	printf("usage: %s vm dump --format g80 --vram FILE [--sysmem FILE] --chan DESC\n"
	       "                  [--chip C] [--json | --dot] [--max-entries N]\n\n"
	       "Lists every present page of a G80 channel's page tables as merged ranges\n"
	       "(virtual range -> target and linear range, page size, attributes); --json\n"
	       "gives JSON Lines, --dot a Graphviz picture (channel -> page tables).\n"
	       "Reading stops after N entries (default %llu): exit 1 then.\n",
	       cli_prog, (unsigned long long)VM_DEFAULT_MAX_ENTRIES);
}

static int parse_chip(const char *cmd, const char *s, nvm_g80_layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	if (!s || !strcmp(s, "g84") || !strcmp(s, "g92"))
		lay->gen = NVM_G80_GEN_G84;
	else if (!strcmp(s, "g80"))
		lay->gen = NVM_G80_GEN_G80;
	else if (!strcmp(s, "gt215"))
		lay->gen = NVM_G80_GEN_GT215;
	else
		return cli_bad_opt(cmd, "--chip", s, "g80, g84, g92 or gt215");
	return 0;
}

static int parse(const char *cmd, int argc, char **argv, struct g80_opts *o, bool walk)
{
	memset(o, 0, sizeof(*o));
	const char *fmt = NULL;
	for (int i = 1; i < argc; i++) {
		int r;
		if ((r = vm_common_opt(argc, argv, &i, &o->c, walk)) ||
		    (r = cli_opt(argc, argv, &i, "--format", &fmt)) ||
		    (r = cli_opt(argc, argv, &i, "--chan", &o->chan_s)) ||
		    (r = cli_opt(argc, argv, &i, "--chip", &o->chip)) ||
		    (walk && (r = cli_opt(argc, argv, &i, "--selector", &o->sel_s))) ||
		    (walk && (r = cli_opt(argc, argv, &i, "--offset", &o->off_s)))) {
			if (r < 0)
				return cli_bad_opt(cmd, argv[i], NULL, "a value");
			continue;
		}
		if (walk && !strcmp(argv[i], "--write"))
			o->write = true;
		else if (walk && !strcmp(argv[i], "--user"))
			o->user = true;
		else
			return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
	}
	uint64_t v;
	if (!o->c.vram)
		return cli_usage_error(cmd, "--vram FILE is required");
	if (!o->chan_s)
		return cli_usage_error(cmd, "--chan DESC is required");
	if (!cli_parse_u64(o->chan_s, &v) || v > 0x3fffffffu)
		return cli_bad_opt(cmd, "--chan", o->chan_s, "a 30-bit channel descriptor");
	o->chan = (uint32_t)v;
	if ((o->chan >> 28) == 1)
		return cli_bad_opt(cmd, "--chan", o->chan_s, "target 29:28 must be 0, 2 or 3");
	if (parse_chip(cmd, o->chip, &o->lay))
		return EXIT_USAGE;
	if (walk) {
		if (!o->sel_s || !o->off_s)
			return cli_usage_error(cmd, "--selector SEL and --offset ADDR are required");
		if (!cli_parse_u64(o->sel_s, &v) || v > 0xffff)
			return cli_bad_opt(cmd, "--selector", o->sel_s, "a 16-bit selector");
		o->sel = (uint32_t)v;
		if (!cli_parse_u64(o->off_s, &o->off) || o->off >> 40)
			return cli_bad_opt(cmd, "--offset", o->off_s, "a 40-bit logical address");
	}
	return vm_common_check(cmd, &o->c, walk);
}

static int open_images(const char *cmd, const struct g80_opts *o, nvm_gpu **gpu)
{
	static const char *const chips[] = { "g80", "g84", "gt215" };
	return vm_open_images(cmd, &o->c, chips[o->lay.gen], gpu);
}

static const char *tgt(unsigned t)
{
	return nvm_g80_target_name(t);
}

static const char *st_name(unsigned t)
{
	const char *n = nvm_g80_storage_type_name(t);
	return n ? n : "?";
}

static const char *tf(bool b)
{
	return b ? "true" : "false";
}

/* ---------------------------------------------------------------- walk */

static void walk_text(const struct g80_opts *o, const nvm_g80_res *r, const nvm_g80_walk_trace *t)
{
	printf("channel 0x%08x: structure %s:0x%llx, selector 0x%04x, offset 0x%010llx, %s %s\n", o->chan,
	       nvm_aperture_name(t->chan_ap), (unsigned long long)t->chan_base, o->sel, (unsigned long long)o->off,
	       o->user ? "user" : "supervisor", o->write ? "write" : "read");
	if (t->have_dmaobj) {
		const nvm_g80_dmaobj *d = &r->dmaobj;
		printf("DMAOBJ    @0x%llx = %08x %08x %08x %08x %08x %08x\n", (unsigned long long)t->dmaobj_addr,
		       d->w[0], d->w[1], d->w[2], d->w[3], d->w[4], d->w[5]);
		printf("          class=0x%04x target=%s ro=%u us=%u storage_type=0x%02x comp=%u supervisor=%u\n",
		       d->cls, d->target ? tgt(d->target == 1 ? 0 : d->target) : "VM", d->ro, d->us, d->storage_type,
		       d->comp, d->supervisor);
		printf("          base=0x%010llx limit=0x%010llx tag_base=0x%03x tag_limit=0x%03x comp_base=0x%llx "
		       "part_cycle=%u encrypt=%u\n",
		       (unsigned long long)d->base, (unsigned long long)d->limit, d->tag_base, d->tag_limit,
		       (unsigned long long)d->comp_base, d->part_cycle, d->encrypt);
	} else if (o->sel) {
		printf("DMAOBJ    @0x%llx  outside the image\n", (unsigned long long)t->dmaobj_addr);
	}
	if (t->have_pde) {
		const nvm_g80_pde *p = &t->pde;
		printf("PDE       [%u] @0x%llx = 0x%016llx\n", t->pde_index, (unsigned long long)t->pde_addr,
		       (unsigned long long)p->raw);
		printf("          type=%u page_size=0x%llx target=%s bit4=%u size=%u entries=0x%x addr=0x%llx\n",
		       p->type, (unsigned long long)p->page_size, tgt(p->target), p->bit4, p->size, p->entries,
		       (unsigned long long)p->addr);
	}
	if (t->have_pte) {
		const nvm_g80_pte *p = &t->pte;
		printf("PTE       [%u] %s:0x%llx = 0x%016llx\n", t->pte_index, nvm_aperture_name(t->pt_ap),
		       (unsigned long long)t->pte_addr, (unsigned long long)p->raw);
		printf("          present=%u unk1=%u ro=%u target=%s supervisor_only=%u contig_log2=%u addr=0x%llx\n",
		       p->present, p->unk1, p->ro, tgt(p->target), p->supervisor_only, p->contig_log2,
		       (unsigned long long)p->addr);
		printf("          storage_type=0x%02x (%s) comp=%u tag=0x%03x part_cycle=%u encrypted=%u\n",
		       p->storage_type, st_name(p->storage_type), p->comp, p->tag, p->part_cycle, p->encrypted);
	}
	if (r->fault) {
		printf("result: fault %s (reason 0x%x)%s\n", nvm_g80_fault_name(r->reason), r->reason,
		       r->oob ? ", a structure outside the image" : "");
		return;
	}
	printf("result: %s 0x%010llx %s page 0x%llx block 0x%llx storage_type=0x%02x (%s) comp=%u tag=0x%03x "
	       "part_cycle=%s ro=%d supervisor_only=%d encrypted=%d\n",
	       tgt(r->target), (unsigned long long)r->addr, r->paged ? "paged" : "unpaged",
	       (unsigned long long)r->page_size, (unsigned long long)r->block, r->storage_type,
	       st_name(r->storage_type), r->comp, r->tag, r->part_cycle ? "long" : "short", r->ro, r->supervisor_only,
	       r->encrypted);
}

static void walk_json(const struct g80_opts *o, const nvm_g80_res *r, const nvm_g80_walk_trace *t)
{
	printf("{\"chan\": %u, \"structure\": {\"aperture\": \"%s\", \"addr\": %llu}, \"selector\": %u, \"offset\": "
	       "%llu, \"write\": %s, \"supervisor\": %s, \"fault\": ",
	       o->chan, nvm_aperture_name(t->chan_ap), (unsigned long long)t->chan_base, o->sel,
	       (unsigned long long)o->off, tf(o->write), tf(!o->user));
	if (r->fault)
		json_str(stdout, nvm_g80_fault_name(r->reason));
	else
		printf("null");
	printf(", \"dmaobj\": ");
	if (t->have_dmaobj) {
		const nvm_g80_dmaobj *d = &r->dmaobj;
		printf("{\"addr\": %llu, \"words\": [%u, %u, %u, %u, %u, %u], \"class\": %u, \"target\": %u, \"ro\": "
		       "%u, "
		       "\"us\": %u, \"storage_type\": %u, \"comp\": %u, \"supervisor\": %s, \"base\": %llu, \"limit\": "
		       "%llu, \"tag_base\": %u, \"tag_limit\": %u, \"comp_base\": %llu, \"part_cycle\": %u, "
		       "\"encrypt\": %u}",
		       (unsigned long long)t->dmaobj_addr, d->w[0], d->w[1], d->w[2], d->w[3], d->w[4], d->w[5], d->cls,
		       d->target, d->ro, d->us, d->storage_type, d->comp, tf(d->supervisor),
		       (unsigned long long)d->base, (unsigned long long)d->limit, d->tag_base, d->tag_limit,
		       (unsigned long long)d->comp_base, d->part_cycle, d->encrypt);
	} else {
		printf("null");
	}
	printf(", \"pde\": ");
	if (t->have_pde)
		printf("{\"index\": %u, \"addr\": %llu, \"raw\": %llu, \"type\": %u, \"page_size\": %llu, \"target\": "
		       "\"%s\", \"bit4\": %u, \"size\": %u, \"entries\": %u, \"table\": %llu}",
		       t->pde_index, (unsigned long long)t->pde_addr, (unsigned long long)t->pde.raw, t->pde.type,
		       (unsigned long long)t->pde.page_size, tgt(t->pde.target), t->pde.bit4, t->pde.size,
		       t->pde.entries, (unsigned long long)t->pde.addr);
	else
		printf("null");
	printf(", \"pte\": ");
	if (t->have_pte)
		printf("{\"index\": %u, \"aperture\": \"%s\", \"addr\": %llu, \"raw\": %llu, \"present\": %s, "
		       "\"unk1\": "
		       "%u, \"ro\": %s, \"target\": \"%s\", \"supervisor_only\": %s, \"contig_log2\": %u, \"page\": "
		       "%llu, \"storage_type\": %u, \"comp\": %u, \"tag\": %u, \"part_cycle\": %u, \"encrypted\": %s}",
		       t->pte_index, nvm_aperture_name(t->pt_ap), (unsigned long long)t->pte_addr,
		       (unsigned long long)t->pte.raw, tf(t->pte.present), t->pte.unk1, tf(t->pte.ro),
		       tgt(t->pte.target), tf(t->pte.supervisor_only), t->pte.contig_log2,
		       (unsigned long long)t->pte.addr, t->pte.storage_type, t->pte.comp, t->pte.tag, t->pte.part_cycle,
		       tf(t->pte.encrypted));
	else
		printf("null");
	if (r->fault)
		printf(", \"oob\": %s}\n", tf(r->oob));
	else
		printf(", \"target\": \"%s\", \"addr\": %llu, \"paged\": %s, \"virt\": %llu, \"page_size\": %llu, "
		       "\"block\": %llu, \"ro\": %s, \"supervisor_only\": %s, \"storage_type\": %u, \"comp\": %u, "
		       "\"tag\": %u, \"part_cycle\": %u, \"encrypted\": %s}\n",
		       tgt(r->target), (unsigned long long)r->addr, tf(r->paged), (unsigned long long)r->virt,
		       (unsigned long long)r->page_size, (unsigned long long)r->block, tf(r->ro),
		       tf(r->supervisor_only), r->storage_type, r->comp, r->tag, r->part_cycle, tf(r->encrypted));
}

int cmd_vm_g80_walk(int argc, char **argv);
int cmd_vm_g80_walk(int argc, char **argv)
{
	const char *cmd = "vm walk";
	if (cli_wants_help(argc, argv)) {
		walk_help();
		return EXIT_OK;
	}
	struct g80_opts o;
	int rc = parse(cmd, argc, argv, &o, true);
	if (rc)
		return rc;
	nvm_gpu *gpu = NULL;
	if ((rc = open_images(cmd, &o, &gpu)))
		return rc;
	nvm_g80_req req = { o.chan, o.sel, o.off, 0, 0, 0, o.write, !o.user };
	nvm_g80_res r;
	nvm_g80_walk_trace t;
	nvm_g80_walk(gpu, &o.lay, &req, &r, &t);
	if (o.c.json)
		walk_json(&o, &r, &t);
	else
		walk_text(&o, &r, &t);
	nvm_close(gpu);
	return r.fault ? EXIT_FAIL : EXIT_OK;
}

/* ---------------------------------------------------------------- dump */

struct dump {
	const struct g80_opts *o;
	bool have;
	nvm_g80_mapping cur;
	uint64_t size, count, ranges;
};

static bool same(const nvm_g80_pte *a, const nvm_g80_pte *b)
{
	return a->ro == b->ro && a->target == b->target && a->supervisor_only == b->supervisor_only &&
	       a->storage_type == b->storage_type && a->comp == b->comp && a->part_cycle == b->part_cycle &&
	       a->encrypted == b->encrypted;
}

static void flush(struct dump *d)
{
	if (!d->have)
		return;
	const nvm_g80_mapping *m = &d->cur;
	const nvm_g80_pte *p = &m->pte;
	d->ranges++;
	if (d->o->c.json)
		printf("{\"virt\": %llu, \"size\": %llu, \"target\": \"%s\", \"lin\": %llu, \"page_size\": %llu, "
		       "\"ro\": %s, \"supervisor_only\": %s, \"storage_type\": %u, \"comp\": %u, \"tag\": %u, "
		       "\"part_cycle\": %u, \"encrypted\": %s}\n",
		       (unsigned long long)m->virt, (unsigned long long)d->size, tgt(p->target),
		       (unsigned long long)m->lin, (unsigned long long)m->page_size, tf(p->ro), tf(p->supervisor_only),
		       p->storage_type, p->comp, p->tag, p->part_cycle, tf(p->encrypted));
	else
		printf("0x%010llx-0x%010llx -> %-14s 0x%010llx-0x%010llx size 0x%llx page %lluK %s%s storage 0x%02x "
		       "comp %u tag 0x%03x%s%s\n",
		       (unsigned long long)m->virt, (unsigned long long)(m->virt + d->size - 1), tgt(p->target),
		       (unsigned long long)m->lin, (unsigned long long)(m->lin + d->size - 1),
		       (unsigned long long)d->size, (unsigned long long)(m->page_size >> 10), p->ro ? "ro" : "rw",
		       p->supervisor_only ? " supervisor" : "", p->storage_type, p->comp, p->tag,
		       p->part_cycle ? " long" : "", p->encrypted ? " encrypted" : "");
	d->have = false;
}

static int dump_map(void *user, const nvm_g80_mapping *m)
{
	struct dump *d = user;
	d->count++;
	if (d->have && d->cur.virt + d->size == m->virt && d->cur.lin + d->size == m->lin &&
	    d->cur.page_size == m->page_size && same(&d->cur.pte, &m->pte)) {
		d->size += m->page_size;
		return 0;
	}
	flush(d);
	d->cur = *m;
	d->size = m->page_size;
	d->have = true;
	return 0;
}

static int dump_pde(void *user, unsigned index, uint64_t at, const nvm_g80_pde *p)
{
	struct dump *d = user;
	(void)at;
	printf("  \"channel 0x%08x\" -> \"PT %s:0x%llx (%lluK pages, 0x%x entries)\" [label=\"PDE %u\"];\n", d->o->chan,
	       tgt(p->target), (unsigned long long)p->addr, (unsigned long long)(p->page_size >> 10), p->entries,
	       index);
	return 0;
}

int cmd_vm_g80_dump(int argc, char **argv);
int cmd_vm_g80_dump(int argc, char **argv)
{
	const char *cmd = "vm dump";
	if (cli_wants_help(argc, argv)) {
		dump_help();
		return EXIT_OK;
	}
	struct g80_opts o;
	int rc = parse(cmd, argc, argv, &o, false);
	if (rc)
		return rc;
	nvm_gpu *gpu = NULL;
	if ((rc = open_images(cmd, &o, &gpu)))
		return rc;
	struct dump d = { &o, false, { 0 }, 0, 0, 0 };
	nvm_g80_enum_ops ops = { o.c.dot ? dump_pde : NULL, o.c.dot ? NULL : dump_map, &d };
	if (o.c.dot)
		printf("digraph g80vm {\n  node [shape=box];\n");
	nvm_status st = nvm_g80_enum(gpu, &o.lay, o.chan, o.c.max_entries, &ops);
	flush(&d);
	if (o.c.dot)
		printf("}\n");
	else if (!o.c.json && !st)
		printf("%llu range(s) from %llu page(s)\n", (unsigned long long)d.ranges, (unsigned long long)d.count);
	nvm_close(gpu);
	if (st == NVM_ERR_RANGE)
		return cli_error(EXIT_FAIL, cmd, "stopped after %llu page-table entries (--max-entries)",
		                 (unsigned long long)o.c.max_entries);
	if (st)
		return cli_error(EXIT_FAIL, cmd, "the page directory of channel 0x%08x lies outside the image", o.chan);
	return EXIT_OK;
}
