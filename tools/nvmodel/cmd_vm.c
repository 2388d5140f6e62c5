/*
 * nvmodel vm walk | dump: the page tables of a memory image, in the format
 * of the chosen chip's GMMU (ver2, or ver3 for gh100).
 *
 * The images (--vram, --sysmem) are loaded into a GPU's apertures sized to
 * the files, so a table pointer past the end of an image is reported as a
 * fault, as the library's bounds checks make it.
 */
#define _GNU_SOURCE /* SEEK_DATA, SEEK_HOLE (Linux, BSD, macOS; without them every page is read) */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "image.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

struct vm_opts {
	struct vm_common c;
	const char *pdb_s, *va_s, *access_s, *chip;
	bool priv;
	unsigned pdb_target;
	uint64_t pdb, va;
	nvm_mmu_access access;
};

static void walk_help(void)
{
	printf("usage: %s vm walk --vram FILE [--sysmem FILE] --pdb APERTURE:ADDR --va VA\n"
	       "                  [--access read|write|atomic|prefetch] [--priv] [--chip C] [--json]\n\n"
	       "Walks the page tables rooted at the page directory base for one virtual\n"
	       "address and prints every level visited (table, index, raw entry, decoded\n"
	       "fields) and the translation or the fault. APERTURE is vram, sysmem_coh or\n"
	       "sysmem_ncoh (sysmem = sysmem_coh). --priv makes the access privileged.\n"
	       "--chip picks the GMMU generation and so the format (default gv100: ver2;\n"
	       "gh100: ver3). Exit 0: translated (or sparse); 1: the walk faults.\n",
	       cli_prog);
}

static void dump_help(void)
{
	printf("usage: %s vm dump --vram FILE [--sysmem FILE] --pdb APERTURE:ADDR\n"
	       "                  [--chip C] [--json | --dot] [--max-entries N]\n\n"
	       "Lists every mapping of a page-table tree (the format of --chip's GMMU,\n"
	       "default gv100) as ranges (VA range -> PA\n"
	       "range, size, page size, attributes); --json gives JSON Lines, --dot a\n"
	       "Graphviz picture of the tables. Reading stops after N entries (default\n"
	       "%llu) so that looping or huge trees end: exit 1 then.\n",
	       cli_prog, (unsigned long long)VM_DEFAULT_MAX_ENTRIES);
}

static int parse_pdb(const char *cmd, const char *s, unsigned *target, uint64_t *addr)
{
	const char *colon = strchr(s, ':');
	if (!colon)
		return cli_usage_error(cmd, "--pdb wants APERTURE:ADDR, got '%s'", s);
	size_t n = (size_t)(colon - s);
	if (n == 4 && !strncmp(s, "vram", 4))
		*target = NVM_MMU_PDB_VID;
	else if ((n == 6 && !strncmp(s, "sysmem", 6)) || (n == 10 && !strncmp(s, "sysmem_coh", 10)))
		*target = NVM_MMU_PDB_SYS_COH;
	else if (n == 11 && !strncmp(s, "sysmem_ncoh", 11))
		*target = NVM_MMU_PDB_SYS_NCOH;
	else
		return cli_usage_error(cmd, "unknown aperture '%.*s' in --pdb (vram, sysmem_coh, sysmem_ncoh)", (int)n,
		                       s);
	if (!cli_parse_u64(colon + 1, addr))
		return cli_usage_error(cmd, "bad address in --pdb '%s'", s);
	if (*addr & 0xfff)
		return cli_usage_error(cmd, "--pdb address 0x%llx is not 4 KiB aligned", (unsigned long long)*addr);
	return 0;
}

static int parse_opts(const char *cmd, int argc, char **argv, struct vm_opts *o, bool walk)
{
	memset(o, 0, sizeof(*o));
	for (int i = 1; i < argc; i++) {
		int r;
		if ((r = vm_common_opt(argc, argv, &i, &o->c, walk)) ||
		    (r = cli_opt(argc, argv, &i, "--pdb", &o->pdb_s)) ||
		    (r = cli_opt(argc, argv, &i, "--chip", &o->chip)) ||
		    (walk && (r = cli_opt(argc, argv, &i, "--va", &o->va_s))) ||
		    (walk && (r = cli_opt(argc, argv, &i, "--access", &o->access_s)))) {
			if (r < 0)
				return cli_bad_opt(cmd, argv[i], NULL, "a value");
			continue;
		}
		if (walk && !strcmp(argv[i], "--priv"))
			o->priv = true;
		else
			return cli_usage_error(cmd, "unexpected argument '%s'", argv[i]);
	}
	if (!o->c.vram)
		return cli_usage_error(cmd, "--vram FILE is required");
	if (!o->chip)
		o->chip = "gv100";
	char probe[8];
	if (!nvm_mmu_chip_engine_name(o->chip, 0, probe, sizeof(probe)))
		return cli_bad_opt(cmd, "--chip", o->chip, "a chip with a GMMU (see 'nvmodel chips')");
	if (!o->pdb_s)
		return cli_usage_error(cmd, "--pdb APERTURE:ADDR is required");
	if (parse_pdb(cmd, o->pdb_s, &o->pdb_target, &o->pdb))
		return EXIT_USAGE;
	if (walk) {
		if (!o->va_s)
			return cli_usage_error(cmd, "--va VA is required");
		if (!cli_parse_u64(o->va_s, &o->va))
			return cli_bad_opt(cmd, "--va", o->va_s, "a virtual address");
		o->access = NVM_MMU_READ;
		if (o->access_s && !nvm_mmu_parse_access(o->access_s, &o->access))
			return cli_bad_opt(cmd, "--access", o->access_s, "read, write, atomic or prefetch");
	}
	return vm_common_check(cmd, &o->c, walk);
}

int vm_common_opt(int argc, char **argv, int *i, struct vm_common *c, bool walk)
{
	int r;
	if ((r = cli_opt(argc, argv, i, "--vram", &c->vram)) || (r = cli_opt(argc, argv, i, "--sysmem", &c->sysmem)) ||
	    (!walk && (r = cli_opt(argc, argv, i, "--max-entries", &c->max_s))))
		return r;
	if (!strcmp(argv[*i], "--json"))
		c->json = true;
	else if (!walk && !strcmp(argv[*i], "--dot"))
		c->dot = true;
	else
		return 0;
	return 1;
}

int vm_common_check(const char *cmd, struct vm_common *c, bool walk)
{
	if (!walk) {
		c->max_entries = VM_DEFAULT_MAX_ENTRIES;
		if (c->max_s && (!cli_parse_u64(c->max_s, &c->max_entries) || !c->max_entries))
			return cli_bad_opt(cmd, "--max-entries", c->max_s, "a positive number");
	}
	if (c->json && c->dot)
		return cli_usage_error(cmd, "--json and --dot exclude each other");
	return 0;
}

/* A memory image: a regular file is streamed into the GPU (fd, size);
 * standard input and other streams are read whole (buf), within the cap
 * of every input (cli.h). */
struct image_in {
	int fd;
	uint64_t size;
	uint8_t *buf;
};

static int image_in_open(const char *cmd, const char *path, struct image_in *im)
{
	*im = (struct image_in){ .fd = -1 };
	if (strcmp(path, "-")) {
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return cli_error(EXIT_USAGE, cmd, "%s: %s", path, strerror(errno));
		struct stat st;
		if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
			if (!st.st_size) {
				close(fd);
				return cli_error(EXIT_USAGE, cmd, "%s: empty input", path);
			}
			im->fd = fd;
			im->size = (uint64_t)st.st_size;
			return EXIT_OK;
		}
		close(fd);
	}
	size_t len;
	int rc = cli_read_input(cmd, path, &im->buf, &len);
	im->size = len;
	return rc;
}

static void image_in_close(struct image_in *im)
{
	if (im->fd >= 0)
		close(im->fd);
	free(im->buf);
	im->fd = -1;
	im->buf = NULL;
}

/* Copies a regular file into an aperture a page at a time, over its holes
 * (SEEK_DATA): a large sparse image costs what it holds. */
static int image_stream(const char *cmd, const char *path, const struct image_in *im, nvm_gpu *gpu, nvm_aperture ap)
{
	uint8_t page[4096];
	uint64_t off = 0;
	while (off < im->size) {
#ifdef SEEK_DATA
		off_t data = lseek(im->fd, (off_t)off, SEEK_DATA);
		if (data < 0 && errno == ENXIO)
			break; /* only a hole is left */
		off_t hole = data < 0 ? -1 : lseek(im->fd, data, SEEK_HOLE);
#else
		off_t data = -1, hole = -1;
#endif
		uint64_t from = data < 0 ? off : (uint64_t)data & ~4095ull;
		uint64_t to = hole < 0 || (uint64_t)hole > im->size ? im->size : (uint64_t)hole;
		for (off = from; off < to; off += sizeof(page)) {
			size_t n = im->size - off < sizeof(page) ? (size_t)(im->size - off) : sizeof(page);
			ssize_t got = pread(im->fd, page, n, (off_t)off);
			if (got != (ssize_t)n)
				return cli_error(EXIT_USAGE, cmd, "%s: %s", path,
				                 got < 0 ? strerror(errno) : "the file got shorter while reading");
			nvm_status st = image_load(gpu, ap, off, page, n);
			if (st)
				return cli_error(EXIT_INTERNAL, cmd, "cannot load the memory images: %s",
				                 nvm_status_str(st));
		}
		off = to > off ? to : off;
	}
	return EXIT_OK;
}

static int image_fill(const char *cmd, const char *path, const struct image_in *im, nvm_gpu *gpu, nvm_aperture ap)
{
	if (im->fd >= 0)
		return image_stream(cmd, path, im, gpu, ap);
	nvm_status st = image_load(gpu, ap, 0, im->buf, (size_t)im->size);
	return st ? cli_error(EXIT_INTERNAL, cmd, "cannot load the memory images: %s", nvm_status_str(st)) : EXIT_OK;
}

int vm_open_images(const char *cmd, const struct vm_common *c, const char *chip, nvm_gpu **gpu)
{
	const char *vram = c->vram, *sysmem = c->sysmem;
	*gpu = NULL;
	if (sysmem && !strcmp(vram, "-") && !strcmp(sysmem, "-"))
		return cli_usage_error(cmd, "--vram and --sysmem cannot both be standard input");
	struct image_in v, s = { .fd = -1 };
	int rc = image_in_open(cmd, vram, &v);
	if (!rc && sysmem)
		rc = image_in_open(cmd, sysmem, &s);
	nvm_status st = rc ? NVM_OK : image_gpu(chip, v.size, s.size, gpu);
	if (st == NVM_ERR_RANGE)
		rc = cli_error(EXIT_USAGE, cmd, "memory image too large for %s", chip);
	else if (st)
		rc = cli_error(EXIT_INTERNAL, cmd, "cannot load the memory images: %s", nvm_status_str(st));
	if (!rc)
		rc = image_fill(cmd, vram, &v, *gpu, NVM_AP_VRAM);
	if (!rc && sysmem)
		rc = image_fill(cmd, sysmem, &s, *gpu, NVM_AP_SYSMEM);
	image_in_close(&v);
	image_in_close(&s);
	if (rc && *gpu) {
		nvm_close(*gpu);
		*gpu = NULL;
	}
	return rc;
}

static const char *pde_ap_name(unsigned a)
{
	static const char *const n[4] = { "invalid", "vram", "sysmem_coh", "sysmem_ncoh" };
	return n[a & 3];
}

/* Decoded fields of one level's entry, for the text output. */
static void print_fields(const nvm_mmu_walk_level *l)
{
	uint64_t e = l->raw[0];
	if (!strcmp(l->name, "PTE_BIG") || !strcmp(l->name, "PTE_SMALL") || (!strcmp(l->name, "PDE0") && (e & 1))) {
		unsigned ap = (unsigned)(e >> 1) & 3;
		uint64_t addr = (ap == 0 || ap == 1 ? (e >> 8) & ((1ull << 25) - 1) : (e >> 8) & ((1ull << 46) - 1))
		                << 12;
		printf("  %s valid=%u aperture=%s vol=%u encrypted=%u priv=%u ro=%u atomic_disable=%u kind=0x%02x "
		       "addr=0x%llx",
		       (l->nwords == 2) ? "2M PTE" : "PTE", (unsigned)(e & 1), nvm_mmu_target_name((nvm_mmu_target)ap),
		       (unsigned)(e >> 3) & 1, (unsigned)(e >> 4) & 1, (unsigned)(e >> 5) & 1, (unsigned)(e >> 6) & 1,
		       (unsigned)(e >> 7) & 1, (unsigned)(e >> 56), (unsigned long long)addr);
		if (ap == 1)
			printf(" peer=%u", (unsigned)(e >> 33) & 7);
		return;
	}
	if (l->nwords == 2) {
		unsigned ab = (unsigned)(e >> 1) & 3, as = (unsigned)(l->raw[1] >> 1) & 3;
		uint64_t big = (ab == 1 ? (e >> 4) & ((1ull << 29) - 1) : (e >> 4) & ((1ull << 50) - 1)) << 8;
		uint64_t sm = (as == 1 ? (l->raw[1] >> 8) & ((1ull << 25) - 1) : (l->raw[1] >> 8) & ((1ull << 46) - 1))
		              << 12;
		printf("  big: aperture=%s vol=%u addr=0x%llx  small: aperture=%s vol=%u addr=0x%llx", pde_ap_name(ab),
		       (unsigned)(e >> 3) & 1, (unsigned long long)(ab ? big : 0), pde_ap_name(as),
		       (unsigned)(l->raw[1] >> 3) & 1, (unsigned long long)(as ? sm : 0));
		return;
	}
	unsigned ap = (unsigned)(e >> 1) & 3;
	uint64_t addr = (ap == 1 ? (e >> 8) & ((1ull << 25) - 1) : (e >> 8) & ((1ull << 46) - 1)) << 12;
	printf("  is_pte=%u aperture=%s vol=%u no_ats=%u addr=0x%llx", (unsigned)(e & 1), pde_ap_name(ap),
	       (unsigned)(e >> 3) & 1, (unsigned)(e >> 5) & 1, (unsigned long long)(ap ? addr : 0));
}

/* The same for ver3 (RM's gh100 dev_mmu.h NV_MMU_VER3_*): PCF replaces
 * the flag bits, addresses are 51:12 (51:8 for the big table). */
static void print_fields_v3(const nvm_mmu_walk_level *l)
{
	uint64_t e = l->raw[0];
	bool pte = !strcmp(l->name, "PTE_BIG") || !strcmp(l->name, "PTE_SMALL") || (e & 1);
	if (pte) {
		unsigned ap = (unsigned)(e >> 1) & 3;
		uint64_t addr = (ap <= 1 ? (e >> 12) & ((1ull << 28) - 1) : (e >> 12) & ((1ull << 40) - 1)) << 12;
		printf("  %s valid=%u aperture=%s pcf=0x%02x kind=0x%x addr=0x%llx",
		       l->nwords == 2             ? "2M PTE"
		       : !strcmp(l->name, "PDE1") ? "512M PTE"
		                                  : "PTE",
		       (unsigned)(e & 1), nvm_mmu_target_name((nvm_mmu_target)ap), (unsigned)(e >> 3) & 0x1f,
		       (unsigned)(e >> 8) & 0xf, (unsigned long long)addr);
		if (ap == 1)
			printf(" peer=%u", (unsigned)(e >> 61));
		return;
	}
	if (l->nwords == 2) {
		unsigned ab = (unsigned)(e >> 1) & 3, as = (unsigned)(l->raw[1] >> 1) & 3;
		uint64_t big = ((e >> 8) & ((1ull << 44) - 1)) << 8;
		uint64_t sm = ((l->raw[1] >> 12) & ((1ull << 40) - 1)) << 12;
		printf("  big: aperture=%s pcf=%u addr=0x%llx  small: aperture=%s pcf=%u addr=0x%llx", pde_ap_name(ab),
		       (unsigned)(e >> 3) & 7, (unsigned long long)(ab ? big : 0), pde_ap_name(as),
		       (unsigned)(l->raw[1] >> 3) & 7, (unsigned long long)(as ? sm : 0));
		return;
	}
	unsigned ap = (unsigned)(e >> 1) & 3;
	uint64_t addr = ((e >> 12) & ((1ull << 40) - 1)) << 12;
	printf("  is_pte=0 aperture=%s pcf=%u addr=0x%llx", pde_ap_name(ap), (unsigned)(e >> 3) & 7,
	       (unsigned long long)(ap ? addr : 0));
}

static const char *pdb_ap_name(unsigned t)
{
	return t == NVM_MMU_PDB_VID ? "vram" : t == NVM_MMU_PDB_SYS_NCOH ? "sysmem_ncoh" : "sysmem_coh";
}

static void walk_text(const struct vm_opts *o, const nvm_mmu_result *r, const nvm_mmu_walk_trace *tr, bool v3)
{
	printf("va 0x%016llx pdb %s:0x%llx access %s%s\n", (unsigned long long)o->va, pdb_ap_name(o->pdb_target),
	       (unsigned long long)o->pdb, nvm_mmu_access_name(o->access), o->priv ? " privileged" : "");
	for (int i = 0; i < tr->n; i++) {
		const nvm_mmu_walk_level *l = &tr->lv[i];
		printf("%-9s %s:0x%010llx[%u] @0x%llx", l->name, nvm_mmu_target_name((nvm_mmu_target)l->table_target),
		       (unsigned long long)l->table, l->index, (unsigned long long)l->entry_addr);
		if (!l->read_ok) {
			printf("  entry outside the %s image\n", nvm_mmu_target_name((nvm_mmu_target)l->table_target));
			continue;
		}
		if (l->nwords == 2)
			printf(" = 0x%016llx 0x%016llx\n         ", (unsigned long long)l->raw[0],
			       (unsigned long long)l->raw[1]);
		else
			printf(" = 0x%016llx\n         ", (unsigned long long)l->raw[0]);
		if (v3)
			print_fields_v3(l);
		else
			print_fields(l);
		printf("\n");
	}
	if (r->fault != NVM_MMU_FAULT_NONE)
		printf("result: fault %s\n", nvm_mmu_fault_type_name((unsigned)r->fault));
	else if (r->sparse)
		printf("result: sparse (0x%llx range): reads 0, writes dropped\n", (unsigned long long)r->page_size);
	else
		printf("result: %s 0x%llx page %lluK kind 0x%02x priv=%d ro=%d vol=%d atomic_disable=%d encrypted=%d\n",
		       nvm_mmu_target_name(r->target), (unsigned long long)r->pa,
		       (unsigned long long)(r->page_size >> 10), r->kind, r->priv, r->ro, r->vol, r->atomic_disable,
		       r->encrypted);
}

static void walk_json(const struct vm_opts *o, const nvm_mmu_result *r, const nvm_mmu_walk_trace *tr)
{
	printf("{\"va\": %llu, \"pdb\": {\"aperture\": \"%s\", \"addr\": %llu}, \"access\": \"%s\", \"privileged\": "
	       "%s, ",
	       (unsigned long long)o->va, pdb_ap_name(o->pdb_target), (unsigned long long)o->pdb,
	       nvm_mmu_access_name(o->access), o->priv ? "true" : "false");
	printf("\"fault\": ");
	if (r->fault != NVM_MMU_FAULT_NONE)
		json_str(stdout, nvm_mmu_fault_type_name((unsigned)r->fault));
	else
		printf("null");
	bool mapped = r->fault == NVM_MMU_FAULT_NONE && !r->sparse;
	printf(", \"sparse\": %s, \"aperture\": ", r->sparse ? "true" : "false");
	if (mapped || (r->fault != NVM_MMU_FAULT_NONE && r->page_size))
		printf("\"%s\", \"pa\": %llu, \"page_size\": %llu, \"kind\": %u, \"priv\": %s, \"ro\": %s, \"vol\": "
		       "%s, "
		       "\"atomic_disable\": %s, \"encrypted\": %s, \"peer\": %u",
		       nvm_mmu_target_name(r->target), (unsigned long long)r->pa, (unsigned long long)r->page_size,
		       r->kind, r->priv ? "true" : "false", r->ro ? "true" : "false", r->vol ? "true" : "false",
		       r->atomic_disable ? "true" : "false", r->encrypted ? "true" : "false", r->peer);
	else
		printf("null, \"pa\": null, \"page_size\": null");
	if (r->sparse)
		printf(", \"sparse_size\": %llu", (unsigned long long)r->page_size);
	printf(", \"levels\": [");
	for (int i = 0; i < tr->n; i++) {
		const nvm_mmu_walk_level *l = &tr->lv[i];
		printf("%s{\"level\": \"%s\", \"table_aperture\": \"%s\", \"table\": %llu, \"index\": %u, "
		       "\"entry_addr\": %llu, "
		       "\"read_ok\": %s, \"raw\": [%llu",
		       i ? ", " : "", l->name, nvm_mmu_target_name((nvm_mmu_target)l->table_target),
		       (unsigned long long)l->table, l->index, (unsigned long long)l->entry_addr,
		       l->read_ok ? "true" : "false", (unsigned long long)l->raw[0]);
		if (l->nwords == 2)
			printf(", %llu", (unsigned long long)l->raw[1]);
		printf("]}");
	}
	printf("]}\n");
}

static int vm_walk(int argc, char **argv)
{
	const char *cmd = "vm walk";
	if (cli_wants_help(argc, argv)) {
		walk_help();
		return EXIT_OK;
	}
	struct vm_opts o;
	int rc = parse_opts(cmd, argc, argv, &o, true);
	if (rc)
		return rc;
	nvm_gpu *gpu = NULL;
	if ((rc = vm_open_images(cmd, &o.c, o.chip, &gpu)))
		return rc;
	nvm_mmu_result r;
	nvm_mmu_walk_trace tr;
	nvm_mmu_walk(gpu, o.pdb_target, o.pdb, o.va, o.access, o.priv, &r, &tr);
	if (o.c.json)
		walk_json(&o, &r, &tr);
	else
		walk_text(&o, &r, &tr, !strcmp(nvm_mmu_format(gpu), "ver3"));
	nvm_close(gpu);
	return r.fault == NVM_MMU_FAULT_NONE ? EXIT_OK : EXIT_FAIL;
}

/* ---------------------------------------------------------------- dump */

struct dump_state {
	const struct vm_opts *o;
	bool have;
	nvm_mmu_mapping cur; /* the range being merged */
	uint64_t count, ranges;
};

static bool same_attrs(const nvm_mmu_result *a, const nvm_mmu_result *b)
{
	return a->sparse == b->sparse && a->target == b->target && a->kind == b->kind && a->priv == b->priv &&
	       a->ro == b->ro && a->vol == b->vol && a->atomic_disable == b->atomic_disable &&
	       a->encrypted == b->encrypted && a->peer == b->peer;
}

static void flush_range(struct dump_state *d)
{
	if (!d->have)
		return;
	const nvm_mmu_mapping *m = &d->cur;
	const nvm_mmu_result *a = &m->attr;
	d->ranges++;
	if (d->o->c.json) {
		printf("{\"va\": %llu, \"size\": %llu, \"sparse\": %s", (unsigned long long)m->va,
		       (unsigned long long)m->size, a->sparse ? "true" : "false");
		if (!a->sparse)
			printf(", \"aperture\": \"%s\", \"pa\": %llu, \"page_size\": %llu, \"kind\": %u, \"priv\": %s, "
			       "\"ro\": %s, "
			       "\"vol\": %s, \"atomic_disable\": %s, \"encrypted\": %s, \"peer\": %u",
			       nvm_mmu_target_name(a->target), (unsigned long long)a->pa,
			       (unsigned long long)a->page_size, a->kind, a->priv ? "true" : "false",
			       a->ro ? "true" : "false", a->vol ? "true" : "false",
			       a->atomic_disable ? "true" : "false", a->encrypted ? "true" : "false", a->peer);
		printf("}\n");
	} else if (!d->o->c.dot) {
		printf("0x%012llx-0x%012llx ", (unsigned long long)m->va, (unsigned long long)(m->va + m->size - 1));
		if (a->sparse)
			printf("sparse%*s size 0x%llx\n", 38, "", (unsigned long long)m->size);
		else
			printf("-> %-11s 0x%012llx-0x%012llx size 0x%llx page %lluK kind 0x%02x %s%s%s%s%s\n",
			       nvm_mmu_target_name(a->target), (unsigned long long)a->pa,
			       (unsigned long long)(a->pa + m->size - 1), (unsigned long long)m->size,
			       (unsigned long long)(a->page_size >> 10), a->kind, a->ro ? "ro" : "rw",
			       a->priv ? " priv" : "", a->vol ? " vol" : "", a->atomic_disable ? " atomic_disable" : "",
			       a->encrypted ? " encrypted" : "");
	}
	d->have = false;
}

static int dump_map(void *user, const nvm_mmu_mapping *m)
{
	struct dump_state *d = user;
	d->count++;
	nvm_mmu_mapping *c = &d->cur;
	if (d->have && c->va + c->size == m->va && same_attrs(&c->attr, &m->attr) &&
	    c->attr.page_size == m->attr.page_size && (m->attr.sparse || c->attr.pa + c->size == m->attr.pa)) {
		c->size += m->size;
		return 0;
	}
	flush_range(d);
	d->cur = *m;
	d->have = true;
	return 0;
}

static int dump_edge(void *user, const char *level, nvm_mmu_target tgt, uint64_t table, unsigned index,
                     const char *child_level, nvm_mmu_target ctgt, uint64_t child)
{
	(void)user;
	printf("  \"%s %s:0x%llx\" -> \"%s %s:0x%llx\" [label=\"%u\"];\n", level, nvm_mmu_target_name(tgt),
	       (unsigned long long)table, child_level, nvm_mmu_target_name(ctgt), (unsigned long long)child, index);
	return 0;
}

static int vm_dump(int argc, char **argv)
{
	const char *cmd = "vm dump";
	if (cli_wants_help(argc, argv)) {
		dump_help();
		return EXIT_OK;
	}
	struct vm_opts o;
	int rc = parse_opts(cmd, argc, argv, &o, false);
	if (rc)
		return rc;
	nvm_gpu *gpu = NULL;
	if ((rc = vm_open_images(cmd, &o.c, o.chip, &gpu)))
		return rc;
	/* A root outside the image would read as an empty tree: say so, as
	 * vm walk does. */
	nvm_aperture ap = o.pdb_target == NVM_MMU_PDB_VID ? NVM_AP_VRAM : NVM_AP_SYSMEM;
	const char *image = ap == NVM_AP_VRAM ? o.c.vram : o.c.sysmem;
	uint64_t size = image ? nvm_mem_size(gpu, ap) : 0;
	if (o.pdb >= size || size - o.pdb < 4096) {
		nvm_close(gpu);
		if (!image)
			return cli_error(EXIT_FAIL, cmd, "the PDB is in system memory but no --sysmem image was given");
		return cli_error(EXIT_FAIL, cmd, "PDB %s is outside the %s image %s (0x%llx bytes)", o.pdb_s,
		                 nvm_aperture_name(ap), image, (unsigned long long)size);
	}
	struct dump_state d = { &o, false, { 0 }, 0, 0 };
	nvm_mmu_enum_ops ops = { o.c.dot ? NULL : dump_map, o.c.dot ? dump_edge : NULL, &d };
	if (o.c.dot)
		printf("digraph pagetables {\n  node [shape=box];\n");
	nvm_status st = nvm_mmu_enum(gpu, o.pdb_target, o.pdb, o.c.max_entries, &ops);
	flush_range(&d);
	if (o.c.dot)
		printf("}\n");
	else if (!o.c.json)
		printf("%llu range(s) from %llu leaf entries\n", (unsigned long long)d.ranges,
		       (unsigned long long)d.count);
	nvm_close(gpu);
	if (st == NVM_ERR_RANGE)
		return cli_error(EXIT_FAIL, cmd, "stopped after %llu page-table entries (--max-entries)",
		                 (unsigned long long)o.c.max_entries);
	return EXIT_OK;
}

int cmd_vm_g80_walk(int argc, char **argv);
int cmd_vm_g80_dump(int argc, char **argv);

/* --format: "volta" (ver2, the default) or "g80" (cmd_vm_g80.c). Returns
 * 1 for g80, 0 for volta (the option removed from argv), or -1 after an
 * error. */
static int take_format(int *argc, char **argv)
{
	for (int i = 1; i < *argc; i++) {
		const char *v = NULL;
		int j = i, r = cli_opt(*argc, argv, &j, "--format", &v);
		if (!r)
			continue;
		if (r < 0 || (strcmp(v, "g80") && strcmp(v, "volta"))) {
			cli_bad_opt("vm", "--format", v, "volta or g80");
			return -1;
		}
		if (!strcmp(v, "g80"))
			return 1;
		int n = j - i + 1; /* "--format X" or "--format=X" */
		memmove(argv + i, argv + i + n, (size_t)(*argc - i - n) * sizeof(*argv));
		*argc -= n;
		return 0;
	}
	return 0;
}

int cmd_vm(int argc, char **argv)
{
	if (argc < 2)
		return cli_usage_error("vm", "missing sub-command (walk, dump)");
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		printf("usage: %s vm walk|dump [--format volta|g80] [options]\n\n"
		       "  walk   translate one VA through ver2 page tables in a memory image\n"
		       "  dump   list every mapping of a page-table tree (--dot: Graphviz)\n\n"
		       "--format g80: G80 (Tesla) channels, DMA objects and page tables.\n"
		       "Run '%s vm walk --help' (or 'vm walk --format g80 --help') for the options.\n",
		       cli_prog, cli_prog);
		return EXIT_OK;
	}
	int g80 = take_format(&argc, argv);
	if (g80 < 0)
		return EXIT_USAGE;
	if (g80 && !strcmp(argv[1], "walk"))
		return cmd_vm_g80_walk(argc - 1, argv + 1);
	if (g80 && !strcmp(argv[1], "dump"))
		return cmd_vm_g80_dump(argc - 1, argv + 1);
	if (!strcmp(argv[1], "walk"))
		return vm_walk(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dump"))
		return vm_dump(argc - 1, argv + 1);
	return cli_usage_error("vm", "unknown sub-command '%s' (walk, dump)", argv[1]);
}
