/*
 * Snapshot container and the core's sections (issue 22 item 3, groundwork).
 *
 * A snapshot is a header and a list of sections, each with a four-letter
 * tag, its length and a CRC-32 of its bytes, so that a truncated or
 * corrupted buffer is refused before anything is restored. The reader is
 * a parser of untrusted bytes: every count and length it takes is checked
 * against what is left, and it never reads past the buffer (fuzz_snapshot).
 *
 * The core saves what it owns: virtual time, the work counters, every
 * register value the bus latches (the blocks' tables and arrays), and the
 * model-owned pages of both apertures (caller-owned ranges are the
 * caller's: only their places are recorded, and a load requires the same
 * ranges). The blocks' private state and the pending events are not saved
 * yet, which is why nvm_snapshot_* are not public.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* ---------------------------------------------------------------- CRC-32 */

uint32_t snap_crc32(uint32_t crc, const uint8_t *p, size_t n)
{
	/* The reflected 0xEDB88320 polynomial of zlib, bit by bit per byte:
	 * snapshots are rare, a table would be 1 KiB of .rodata for nothing. */
	crc = ~crc;
	while (n--) {
		crc ^= *p++;
		for (unsigned k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

/* ---------------------------------------------------------------- writer */

void snap_put(struct snap_w *w, const void *p, size_t n)
{
	if (w->err)
		return;
	if (w->buf && n > w->cap - w->len) {
		w->err = NVM_ERR_NOMEM; /* the caller's buffer is too small */
		return;
	}
	if (w->buf && n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void snap_u32(struct snap_w *w, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	snap_put(w, b, 4);
}

void snap_u64(struct snap_w *w, uint64_t v)
{
	snap_u32(w, (uint32_t)v);
	snap_u32(w, (uint32_t)(v >> 32));
}

/* A section: tag, length (patched by snap_end), bytes, CRC. */
void snap_begin(struct snap_w *w, const char tag[4])
{
	snap_put(w, tag, 4);
	w->sect = w->len;
	snap_u64(w, 0);
}

void snap_end(struct snap_w *w)
{
	size_t start = w->sect + 8, n = w->len - start;
	if (!w->err && w->buf) {
		for (unsigned i = 0; i < 8; i++)
			w->buf[w->sect + i] = (uint8_t)((uint64_t)n >> (8 * i));
		snap_u32(w, snap_crc32(0, w->buf + start, n));
	} else {
		snap_u32(w, 0);
	}
}

/* ---------------------------------------------------------------- reader */

bool snap_get(struct snap_r *r, void *p, size_t n)
{
	if (r->err || n > r->len - r->pos) {
		r->err = r->err ? r->err : NVM_ERR_CORRUPT; /* truncated */
		if (p && n)
			memset(p, 0, n);
		return false;
	}
	if (p && n)
		memcpy(p, r->p + r->pos, n);
	r->pos += n;
	return true;
}

uint32_t snap_get_u32(struct snap_r *r)
{
	uint8_t b[4];
	if (!snap_get(r, b, 4))
		return 0;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

uint64_t snap_get_u64(struct snap_r *r)
{
	uint64_t lo = snap_get_u32(r);
	return lo | (uint64_t)snap_get_u32(r) << 32;
}

/* The next section must be `tag`, its CRC right: *sub reads its bytes. */
bool snap_section(struct snap_r *r, const char tag[4], struct snap_r *sub)
{
	char t[4];
	if (!snap_get(r, t, 4) || memcmp(t, tag, 4)) {
		r->err = r->err ? r->err : NVM_ERR_CORRUPT;
		return false;
	}
	uint64_t n = snap_get_u64(r);
	if (r->err || n > r->len - r->pos || r->len - r->pos - n < 4) {
		r->err = NVM_ERR_CORRUPT;
		return false;
	}
	*sub = (struct snap_r){ r->p + r->pos, (size_t)n, 0, NVM_OK };
	r->pos += (size_t)n;
	if (snap_get_u32(r) != snap_crc32(0, sub->p, sub->len)) {
		r->err = NVM_ERR_CORRUPT;
		return false;
	}
	return true;
}

bool snap_get_below(struct snap_r *r, uint64_t lim, uint64_t *v)
{
	*v = snap_get_u64(r);
	if (!r->err && *v >= lim)
		r->err = NVM_ERR_CORRUPT;
	if (r->err)
		*v = 0;
	return !r->err;
}

bool snap_get_bool(struct snap_r *r)
{
	uint8_t b = 0;
	snap_get(r, &b, 1);
	if (b > 1 && !r->err)
		r->err = NVM_ERR_CORRUPT;
	return b == 1;
}

/* ---------------------------------------------------------------- the core */

#define SNAP_MAGIC   "NVMSNAP\x1a"
#define SNAP_FORMAT  1u
#define SNAP_NAMELEN 16u

static void put_name(struct snap_w *w, const char *s)
{
	char b[SNAP_NAMELEN] = { 0 };
	strncpy(b, s, SNAP_NAMELEN - 1);
	snap_put(w, b, SNAP_NAMELEN);
}

/* A name field: exactly s, zero-padded. */
static bool name_is(struct snap_r *r, const char *s)
{
	char b[SNAP_NAMELEN], want[SNAP_NAMELEN] = { 0 };
	strncpy(want, s, SNAP_NAMELEN - 1);
	return snap_get(r, b, SNAP_NAMELEN) && !memcmp(b, want, SNAP_NAMELEN);
}

/* Every latched register value, block by block, in the bus's order. */
static void save_regs(struct snap_w *w, const nvm_gpu *gpu)
{
	snap_begin(w, "REGS");
	snap_u64(w, gpu->bus.nblocks);
	for (size_t i = 0; i < gpu->bus.nblocks; i++) {
		const struct reg_block *b = &gpu->bus.blocks[i];
		put_name(w, b->name);
		snap_u64(w, b->nregs);
		for (size_t k = 0; k < b->nregs; k++)
			snap_u32(w, b->vals[k]);
		snap_u64(w, b->narrays);
		for (size_t a = 0; a < b->narrays; a++) {
			size_t n = (size_t)b->arrays[a].count * b->arrays[a].nregs;
			snap_u64(w, n);
			for (size_t k = 0; k < n; k++)
				snap_u32(w, b->arrays[a].vals[k]);
		}
	}
	snap_end(w);
}

/* Reads the REGS section; with apply, stores the values (a first call
 * without it checks the whole section's shape). */
static nvm_status load_regs(struct snap_r *top, nvm_gpu *gpu, bool apply)
{
	struct snap_r r;
	if (!snap_section(top, "REGS", &r))
		return top->err;
	if (snap_get_u64(&r) != gpu->bus.nblocks)
		return NVM_ERR_CORRUPT;
	for (size_t i = 0; i < gpu->bus.nblocks; i++) {
		struct reg_block *b = &gpu->bus.blocks[i];
		if (!name_is(&r, b->name) || snap_get_u64(&r) != b->nregs)
			return NVM_ERR_CORRUPT;
		for (size_t k = 0; k < b->nregs; k++) {
			uint32_t v = snap_get_u32(&r);
			if (apply)
				b->vals[k] = v;
		}
		if (snap_get_u64(&r) != b->narrays)
			return NVM_ERR_CORRUPT;
		for (size_t a = 0; a < b->narrays; a++) {
			size_t n = (size_t)b->arrays[a].count * b->arrays[a].nregs;
			if (snap_get_u64(&r) != n)
				return NVM_ERR_CORRUPT;
			for (size_t k = 0; k < n; k++) {
				uint32_t v = snap_get_u32(&r);
				if (apply)
					b->arrays[a].vals[k] = v;
			}
		}
		if (r.err)
			return r.err;
	}
	return r.pos == r.len ? NVM_OK : NVM_ERR_CORRUPT;
}

/* The model-owned pages of an aperture (mem_page_each), and the places of
 * its caller ranges. */
static bool save_page(void *ctx, uint64_t pn, const uint8_t *page)
{
	struct snap_w *w = ctx;
	snap_u64(w, pn);
	snap_put(w, page, NVM_PAGE_SIZE);
	return !w->err;
}

static void save_mem(struct snap_w *w, struct mem_space *m, const char tag[4])
{
	snap_begin(w, tag);
	snap_u64(w, m->size);
	snap_u64(w, m->nrange);
	for (size_t i = 0; i < m->nrange; i++) {
		snap_u64(w, m->range[i].lo);
		snap_u64(w, m->range[i].hi);
	}
	snap_u64(w, m->pages);
	mem_page_each(m, save_page, w);
	snap_end(w);
}

static nvm_status load_mem(struct snap_r *top, struct mem_space *m, const char tag[4], bool apply)
{
	struct snap_r r;
	if (!snap_section(top, tag, &r))
		return top->err;
	if (snap_get_u64(&r) != m->size)
		return r.err ? r.err : NVM_ERR_ARG; /* another aperture size */
	if (snap_get_u64(&r) != m->nrange)
		return NVM_ERR_ARG; /* the caller's ranges must be in place, the same */
	for (size_t i = 0; i < m->nrange; i++)
		if (snap_get_u64(&r) != m->range[i].lo || snap_get_u64(&r) != m->range[i].hi)
			return NVM_ERR_ARG;
	uint64_t npages = snap_get_u64(&r);
	size_t rec = 8 + NVM_PAGE_SIZE;
	if (r.err || (r.len - r.pos) % rec || (r.len - r.pos) / rec != npages)
		return NVM_ERR_CORRUPT;
	if (apply)
		mem_drop_model_pages(m);
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t pn = snap_get_u64(&r);
		if (pn >= (m->size + NVM_PAGE_SIZE - 1) / NVM_PAGE_SIZE || mem_range_has(m, pn))
			return NVM_ERR_CORRUPT;
		if (apply) {
			nvm_status st = mem_write(m, pn << NVM_PAGE_SHIFT, r.p + r.pos, NVM_PAGE_SIZE);
			if (st)
				return st; /* the memory budget: what was written stays */
		}
		snap_get(&r, NULL, NVM_PAGE_SIZE);
	}
	return NVM_OK;
}

/* ---------------------------------------------------------------- PMC */

static void save_pmc(struct snap_w *w, const nvm_gpu *gpu)
{
	snap_begin(w, "PMC ");
	snap_u32(w, gpu->pmc.lines);
	snap_u32(w, gpu->pmc.en);
	snap_u32(w, gpu->pmc.soft);
	snap_u32(w, (uint32_t)gpu->pmc.out);
	snap_u32(w, gpu->pmc.tree);
	snap_u32(w, gpu->hold);
	for (unsigned t = 0; t < NVM_EV_COUNT; t++)
		snap_u64(w, gpu->ev_count[t]);
	snap_end(w);
}

static nvm_status load_pmc(struct snap_r *top, nvm_gpu *gpu, bool apply)
{
	struct snap_r r;
	if (!snap_section(top, "PMC ", &r))
		return top->err;
	struct pmc p;
	p.lines = snap_get_u32(&r);
	p.en = snap_get_u32(&r);
	p.soft = snap_get_u32(&r);
	uint32_t out = snap_get_u32(&r), tree = snap_get_u32(&r), hold = snap_get_u32(&r);
	uint64_t count[NVM_EV_COUNT];
	for (unsigned t = 0; t < NVM_EV_COUNT; t++)
		count[t] = snap_get_u64(&r);
	if (r.err || r.pos != r.len || out > 1 || tree > 1 || hold & ~(NVM_HOLD_MEM | NVM_HOLD_MMIO))
		return NVM_ERR_CORRUPT;
	if (apply) {
		p.out = (int)out;
		p.tree = tree;
		gpu->pmc = p;
		gpu->hold = hold;
		memcpy(gpu->ev_count, count, sizeof(count));
	}
	return NVM_OK;
}

/* ---------------------------------------------------------------- events and watches */

/* Who can own an event or a watch: PTIMER (the core's own) and the blocks
 * of the chip row that have state, in row order. */
struct owner {
	const struct block_snap *s;
	void *state;
	const char *name;
};

static size_t owners(const nvm_gpu *gpu, struct owner *o)
{
	size_t n = 0;
	o[n++] = (struct owner){ &ptimer_snap, gpu->ptimer, "ptimer" };
	const struct chip_block *b = gpu->chip->blocks;
	for (size_t i = 0; i < CHIP_MAX_BLOCKS && b[i].cls; i++)
		if (gpu->blk[i])
			o[n++] = (struct owner){ b[i].cls->snap, gpu->blk[i], b[i].cls->name };
	return n;
}

/* The (owner, function, object) numbers of fn / ctx: false when no owner
 * knows them (a block without a snapshot part, or a table that misses a
 * function: a bug, reported as NVM_ERR_NOENT). */
static bool owner_of(const struct owner *o, size_t n, bool watch, const void *fn, const void *ctx, uint32_t id[3])
{
	for (size_t i = 0; i < n; i++) {
		const struct block_snap *s = o[i].s;
		if (!s)
			continue;
		size_t nf = watch ? s->nwatches : s->nevents;
		for (size_t k = 0; k < nf; k++) {
			const void *f = watch ? (const void *)s->watches[k] : (const void *)s->events[k];
			if (f != fn)
				continue;
			id[0] = (uint32_t)i;
			id[1] = (uint32_t)k;
			if (s->ctx_id)
				return s->ctx_id(o[i].state, ctx, &id[2]);
			id[2] = 0;
			return ctx == o[i].state;
		}
	}
	return false;
}

/* Back from the numbers: NULL when they are out of range. */
static const struct block_snap *owner_find(const struct owner *o, size_t n, bool watch, const uint32_t id[3],
                                           void **ctx)
{
	if (id[0] >= n || !o[id[0]].s)
		return NULL;
	const struct block_snap *s = o[id[0]].s;
	if (id[1] >= (watch ? s->nwatches : s->nevents))
		return NULL;
	*ctx = s->ctx_ptr ? s->ctx_ptr(o[id[0]].state, id[2]) : id[2] == 0 ? o[id[0]].state : NULL;
	return *ctx ? s : NULL;
}

static void save_events(struct snap_w *w, const nvm_gpu *gpu)
{
	struct owner o[CHIP_MAX_BLOCKS + 1];
	size_t no = owners(gpu, o);
	const struct sched *s = &gpu->sched;
	snap_begin(w, "EVTS");
	snap_u64(w, s->next_seq);
	snap_u64(w, s->n);
	for (size_t i = 0; i < s->n && !w->err; i++) {
		const struct sched_ev *e = &s->heap[i];
		uint32_t id[3];
		if (!owner_of(o, no, false, (const void *)e->fn, e->ctx, id)) {
			w->err = NVM_ERR_NOENT;
			break;
		}
		snap_u64(w, e->time);
		snap_u64(w, e->seq);
		snap_u64(w, e->arg);
		snap_u32(w, e->flags);
		for (unsigned k = 0; k < 3; k++)
			snap_u32(w, id[k]);
	}
	snap_end(w);
}

/* The function and object of a saved event or watch, checked. */
static const struct block_snap *load_who(struct snap_r *r, const struct owner *o, size_t no, bool watch, uint64_t arg,
                                         size_t *fn, void **ctx)
{
	uint32_t id[3];
	for (unsigned k = 0; k < 3; k++)
		id[k] = snap_get_u32(r);
	const struct block_snap *s = r->err ? NULL : owner_find(o, no, watch, id, ctx);
	if (!s || (s->arg_ok ? !s->arg_ok(o[id[0]].state, watch, id[1], arg) : arg != 0) ||
	    (s->ctx_ok && !s->ctx_ok(o[id[0]].state, watch, id[1], id[2]))) {
		r->err = r->err ? r->err : NVM_ERR_CORRUPT;
		return NULL;
	}
	*fn = id[1];
	return s;
}

static nvm_status load_events(struct snap_r *top, nvm_gpu *gpu, uint64_t now, bool apply)
{
	struct snap_r r;
	if (!snap_section(top, "EVTS", &r))
		return top->err;
	struct owner o[CHIP_MAX_BLOCKS + 1];
	size_t no = owners(gpu, o);
	uint64_t next = snap_get_u64(&r), n;
	if (!snap_get_below(&r, (r.len - r.pos) / 40 + 1, &n))
		return r.err;
	gpu->sched.load_seq = next + 1; /* the ids the blocks may keep (sched_id_ok) */
	if (apply) {
		sched_clear(gpu);
		gpu->sched.next_seq = next;
	}
	for (uint64_t i = 0; i < n; i++) {
		struct sched_ev e;
		e.time = snap_get_u64(&r);
		e.seq = snap_get_u64(&r);
		e.arg = snap_get_u64(&r);
		e.flags = snap_get_u32(&r);
		size_t fn;
		const struct block_snap *s = load_who(&r, o, no, false, e.arg, &fn, &e.ctx);
		if (!s || e.time < now || !e.seq || e.seq > next || e.flags & ~SCHED_BACKGROUND)
			return NVM_ERR_CORRUPT;
		e.fn = s->events[fn];
		nvm_status st = apply ? sched_put(gpu, &e) : NVM_OK;
		if (st)
			return st;
	}
	return r.err ? r.err : r.pos == r.len ? NVM_OK : NVM_ERR_CORRUPT;
}

static void save_watches(struct snap_w *w, const nvm_gpu *gpu, const struct mem_space *m, const char tag[4])
{
	struct owner o[CHIP_MAX_BLOCKS + 1];
	size_t no = owners(gpu, o);
	snap_begin(w, tag);
	snap_u64(w, m->nwatch);
	for (size_t i = 0; i < m->nwatch && !w->err; i++) {
		const struct mem_watch *x = &m->watch[i];
		uint32_t id[3];
		if (!owner_of(o, no, true, (const void *)x->fn, x->ctx, id)) {
			w->err = NVM_ERR_NOENT;
			break;
		}
		snap_u64(w, x->lo);
		snap_u64(w, x->hi);
		snap_u64(w, x->arg);
		for (unsigned k = 0; k < 3; k++)
			snap_u32(w, id[k]);
	}
	snap_end(w);
}

static nvm_status load_watches(struct snap_r *top, nvm_gpu *gpu, struct mem_space *m, const char tag[4], bool apply)
{
	struct snap_r r;
	if (!snap_section(top, tag, &r))
		return top->err;
	struct owner o[CHIP_MAX_BLOCKS + 1];
	size_t no = owners(gpu, o);
	uint64_t n;
	if (!snap_get_below(&r, (r.len - r.pos) / 36 + 1, &n))
		return r.err;
	if (apply)
		m->nwatch = 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t lo = snap_get_u64(&r), hi = snap_get_u64(&r), arg = snap_get_u64(&r);
		size_t fn;
		void *ctx;
		const struct block_snap *s = load_who(&r, o, no, true, arg, &fn, &ctx);
		if (!s || lo >= hi)
			return NVM_ERR_CORRUPT;
		nvm_status st = apply ? mem_watch_add(m, lo, hi - lo, s->watches[fn], ctx, arg) : NVM_OK;
		if (st)
			return st;
	}
	return r.err ? r.err : r.pos == r.len ? NVM_OK : NVM_ERR_CORRUPT;
}

/* ---------------------------------------------------------------- the core */

nvm_status snap_save_core(nvm_gpu *gpu, struct snap_w *w)
{
	snap_put(w, SNAP_MAGIC, 8);
	snap_u32(w, SNAP_FORMAT);
	put_name(w, nvm_version());
	put_name(w, gpu->chip->info.name);
	snap_begin(w, "TIME");
	snap_u64(w, gpu->now);
	snap_u64(w, gpu->work_total);
	snap_end(w);
	save_regs(w, gpu);
	save_mem(w, &gpu->mem[NVM_AP_VRAM], "VRAM");
	save_mem(w, &gpu->mem[NVM_AP_SYSMEM], "SYSM");
	save_pmc(w, gpu);
	save_events(w, gpu);
	save_watches(w, gpu, &gpu->mem[NVM_AP_VRAM], "WVRM");
	save_watches(w, gpu, &gpu->mem[NVM_AP_SYSMEM], "WSYS");
	return w->err;
}

nvm_status snap_check_header(struct snap_r *r, const nvm_gpu *gpu)
{
	char magic[8];
	if (!snap_get(r, magic, 8) || memcmp(magic, SNAP_MAGIC, 8))
		return NVM_ERR_CORRUPT; /* not a snapshot */
	if (snap_get_u32(r) != SNAP_FORMAT || !name_is(r, nvm_version()))
		return r->err ? r->err : NVM_ERR_VERSION; /* another format or library version */
	if (!name_is(r, gpu->chip->info.name))
		return r->err ? r->err : NVM_ERR_CHIP;
	return r->err;
}

nvm_status snap_load_core(nvm_gpu *gpu, struct snap_r *r, bool apply)
{
	nvm_status st;
	struct snap_r t;
	if ((st = snap_check_header(r, gpu)))
		return st;
	if (!snap_section(r, "TIME", &t))
		return r->err;
	uint64_t now = snap_get_u64(&t), work = snap_get_u64(&t);
	if (t.err || t.pos != t.len)
		return NVM_ERR_CORRUPT;
	if (apply) {
		gpu->now = now; /* before the events: sched_at clamps to now */
		gpu->work_total = work;
	}
	if ((st = load_regs(r, gpu, apply)) || (st = load_mem(r, &gpu->mem[NVM_AP_VRAM], "VRAM", apply)) ||
	    (st = load_mem(r, &gpu->mem[NVM_AP_SYSMEM], "SYSM", apply)) || (st = load_pmc(r, gpu, apply)) ||
	    (st = load_events(r, gpu, now, apply)) ||
	    (st = load_watches(r, gpu, &gpu->mem[NVM_AP_VRAM], "WVRM", apply)) ||
	    (st = load_watches(r, gpu, &gpu->mem[NVM_AP_SYSMEM], "WSYS", apply)))
		return st;
	return NVM_OK;
}

/* ---------------------------------------------------------------- the blocks */

/* Each block with state: a section "BLKi" (i its place in the chip row)
 * holding its class name and what its save wrote. PTIMER's part goes
 * first, as "PTMR". */
static void block_tag(char tag[4], size_t i)
{
	memcpy(tag, "BLK", 3);
	tag[3] = (char)('0' + i);
}

static nvm_status save_part(struct snap_w *w, const struct owner *o, const char tag[4])
{
	if (!o->s || !o->s->save)
		return w->err ? w->err : NVM_ERR_NOENT; /* the block cannot be saved */
	snap_begin(w, tag);
	put_name(w, o->name);
	o->s->save(o->state, w);
	snap_end(w);
	return w->err;
}

static nvm_status load_part(struct snap_r *top, const struct owner *o, const char tag[4], bool apply)
{
	struct snap_r r;
	if (!o->s || !o->s->load)
		return NVM_ERR_NOENT;
	if (!snap_section(top, tag, &r))
		return top->err;
	if (!name_is(&r, o->name))
		return NVM_ERR_CORRUPT;
	nvm_status st = o->s->load(o->state, &r, apply);
	if (st)
		return st;
	return r.err ? r.err : r.pos == r.len ? NVM_OK : NVM_ERR_CORRUPT;
}

nvm_status snap_save_blocks(nvm_gpu *gpu, struct snap_w *w)
{
	struct owner o[CHIP_MAX_BLOCKS + 1];
	size_t no = owners(gpu, o);
	nvm_status st = save_part(w, &o[0], "PTMR");
	for (size_t i = 1; i < no && !st; i++) {
		char tag[4];
		block_tag(tag, i - 1);
		st = save_part(w, &o[i], tag);
	}
	return st;
}

nvm_status snap_load_blocks(nvm_gpu *gpu, struct snap_r *r, bool apply)
{
	struct owner o[CHIP_MAX_BLOCKS + 1];
	size_t no = owners(gpu, o);
	nvm_status st = load_part(r, &o[0], "PTMR", apply);
	for (size_t i = 1; i < no && !st; i++) {
		char tag[4];
		block_tag(tag, i - 1);
		st = load_part(r, &o[i], tag, apply);
	}
	return st;
}

/* ---------------------------------------------------------------- peek */

/* The first words of an aperture's section: its size, its caller ranges
 * and its page count. */
static void peek_mem(struct snap_r *sub, uint64_t *size, uint64_t *ranges, uint64_t *pages)
{
	*size = snap_get_u64(sub);
	*ranges = snap_get_u64(sub);
	if (*ranges > (sub->len - sub->pos) / 16) {
		sub->err = NVM_ERR_CORRUPT;
		return;
	}
	snap_get(sub, NULL, (size_t)*ranges * 16);
	*pages = snap_get_u64(sub);
}

nvm_status snap_peek(struct snap_r *r, nvm_snapshot_info *info)
{
	memset(info, 0, sizeof(*info));
	char magic[8];
	if (!snap_get(r, magic, 8) || memcmp(magic, SNAP_MAGIC, 8))
		return NVM_ERR_CORRUPT;
	info->format = snap_get_u32(r);
	snap_get(r, info->version, SNAP_NAMELEN);
	snap_get(r, info->chip, SNAP_NAMELEN);
	info->version[SNAP_NAMELEN - 1] = info->chip[SNAP_NAMELEN - 1] = 0;
	if (r->err)
		return r->err;
	if (info->format != SNAP_FORMAT || strcmp(info->version, nvm_version()))
		return NVM_ERR_VERSION;
	while (r->pos < r->len) {
		char tag[4];
		if (r->len - r->pos < 4)
			return NVM_ERR_CORRUPT;
		memcpy(tag, r->p + r->pos, 4);
		struct snap_r sub;
		if (!snap_section(r, tag, &sub))
			return r->err;
		info->sections++;
		if (!memcmp(tag, "TIME", 4))
			info->time_ns = snap_get_u64(&sub);
		else if (!memcmp(tag, "VRAM", 4))
			peek_mem(&sub, &info->vram_size, &info->vram_ranges, &info->vram_pages);
		else if (!memcmp(tag, "SYSM", 4))
			peek_mem(&sub, &info->sysmem_size, &info->sysmem_ranges, &info->sysmem_pages);
		if (sub.err)
			return sub.err;
	}
	return NVM_OK;
}

void snap_reseal(uint8_t *buf, size_t len)
{
	size_t pos = 8 + 4 + 2 * SNAP_NAMELEN;
	while (pos <= len && len - pos >= 16) {
		uint64_t n = 0;
		for (unsigned i = 0; i < 8; i++)
			n |= (uint64_t)buf[pos + 4 + i] << (8 * i);
		if (n > len - pos - 16)
			return;
		size_t at = pos + 12 + (size_t)n;
		uint32_t crc = snap_crc32(0, buf + pos + 12, (size_t)n);
		for (unsigned i = 0; i < 4; i++)
			buf[at + i] = (uint8_t)(crc >> (8 * i));
		pos = at + 4;
	}
}
