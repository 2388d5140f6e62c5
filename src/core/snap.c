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

static uint32_t crc32_update(uint32_t crc, const uint8_t *p, size_t n)
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
		snap_u32(w, crc32_update(0, w->buf + start, n));
	} else {
		snap_u32(w, 0);
	}
}

/* ---------------------------------------------------------------- reader */

bool snap_get(struct snap_r *r, void *p, size_t n)
{
	if (r->err || n > r->len - r->pos) {
		r->err = NVM_ERR_RANGE;
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
		r->err = r->err ? r->err : NVM_ERR_ARG;
		return false;
	}
	uint64_t n = snap_get_u64(r);
	if (r->err || n > r->len - r->pos || r->len - r->pos - n < 4) {
		r->err = NVM_ERR_RANGE;
		return false;
	}
	*sub = (struct snap_r){ r->p + r->pos, (size_t)n, 0, NVM_OK };
	r->pos += (size_t)n;
	if (snap_get_u32(r) != crc32_update(0, sub->p, sub->len)) {
		r->err = NVM_ERR_ARG;
		return false;
	}
	return true;
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
		return NVM_ERR_ARG;
	for (size_t i = 0; i < gpu->bus.nblocks; i++) {
		struct reg_block *b = &gpu->bus.blocks[i];
		if (!name_is(&r, b->name) || snap_get_u64(&r) != b->nregs)
			return NVM_ERR_ARG;
		for (size_t k = 0; k < b->nregs; k++) {
			uint32_t v = snap_get_u32(&r);
			if (apply)
				b->vals[k] = v;
		}
		if (snap_get_u64(&r) != b->narrays)
			return NVM_ERR_ARG;
		for (size_t a = 0; a < b->narrays; a++) {
			size_t n = (size_t)b->arrays[a].count * b->arrays[a].nregs;
			if (snap_get_u64(&r) != n)
				return NVM_ERR_ARG;
			for (size_t k = 0; k < n; k++) {
				uint32_t v = snap_get_u32(&r);
				if (apply)
					b->arrays[a].vals[k] = v;
			}
		}
		if (r.err)
			return r.err;
	}
	return r.pos == r.len ? NVM_OK : NVM_ERR_ARG;
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
		return NVM_ERR_ARG;
	if (snap_get_u64(&r) != m->nrange)
		return NVM_ERR_ARG; /* the caller's ranges must be in place, the same */
	for (size_t i = 0; i < m->nrange; i++)
		if (snap_get_u64(&r) != m->range[i].lo || snap_get_u64(&r) != m->range[i].hi)
			return NVM_ERR_ARG;
	uint64_t npages = snap_get_u64(&r);
	size_t rec = 8 + NVM_PAGE_SIZE;
	if (r.err || (r.len - r.pos) % rec || (r.len - r.pos) / rec != npages)
		return NVM_ERR_ARG;
	if (apply)
		mem_drop_model_pages(m);
	for (uint64_t i = 0; i < npages; i++) {
		uint64_t pn = snap_get_u64(&r);
		if (pn >= (m->size + NVM_PAGE_SIZE - 1) / NVM_PAGE_SIZE || mem_range_has(m, pn))
			return NVM_ERR_ARG;
		if (apply) {
			nvm_status st = mem_write(m, pn << NVM_PAGE_SHIFT, r.p + r.pos, NVM_PAGE_SIZE);
			if (st)
				return st; /* the memory budget: what was written stays */
		}
		snap_get(&r, NULL, NVM_PAGE_SIZE);
	}
	return NVM_OK;
}

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
	return w->err;
}

nvm_status snap_check_header(struct snap_r *r, const nvm_gpu *gpu)
{
	char magic[8];
	if (!snap_get(r, magic, 8) || memcmp(magic, SNAP_MAGIC, 8))
		return NVM_ERR_ARG;
	if (snap_get_u32(r) != SNAP_FORMAT || !name_is(r, nvm_version()))
		return NVM_ERR_ARG; /* another format or library version */
	if (!name_is(r, gpu->chip->info.name))
		return NVM_ERR_CHIP;
	return r->err;
}

/* Checks the whole snapshot, then restores it: a buffer that is refused
 * changes nothing. */
nvm_status snap_load_core(nvm_gpu *gpu, struct snap_r *r)
{
	nvm_status st = NVM_OK;
	for (int apply = 0; apply < 2 && !st; apply++) {
		struct snap_r p = *r, t;
		if ((st = snap_check_header(&p, gpu)))
			break;
		if (!snap_section(&p, "TIME", &t)) {
			st = p.err;
			break;
		}
		uint64_t now = snap_get_u64(&t), work = snap_get_u64(&t);
		if (t.err || t.pos != t.len) {
			st = NVM_ERR_ARG;
			break;
		}
		if ((st = load_regs(&p, gpu, apply)) || (st = load_mem(&p, &gpu->mem[NVM_AP_VRAM], "VRAM", apply)) ||
		    (st = load_mem(&p, &gpu->mem[NVM_AP_SYSMEM], "SYSM", apply)))
			break;
		if (apply) {
			gpu->now = now;
			gpu->work_total = work;
			*r = p;
		}
	}
	return st;
}
