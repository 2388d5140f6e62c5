/*
 * The copy engine, the mechanism every copy class shares (the classes are
 * tables, ce_classes.c: C3B5, C5B5, C6B5, C7B5, C8B5). Class C3B5
 * (VOLTA_DMA_COPY_A): clc3b5.h and
 * refs/nvidia-gv100/ce-c3b5-facts.md give the methods and fields,
 * refs/silicon-h100.md "Copy engine" what a real copy engine did where the
 * class header leaves a choice open (cited as "silicon H100"). docs/host.md
 * "Copy engine" describes the model.
 *
 * Methods are kept per channel (silicon H100: OFFSET_*, PITCH_*, LINE_*,
 * SET_SEMAPHORE_* and REMAP state persist between launches). LAUNCH_DMA
 * validates the launch, moves the bytes page by page through mem_span
 * pointers (one MMU translation per page), releases the semaphore and raises
 * the non-stall interrupt. A long launch yields (ENG_BUSY) after a bounded
 * amount of work or when the run budget is spent, and resumes where it
 * stopped when the Host delivers it again; a fault also keeps the progress,
 * so clearing ENG_FAULTED continues the launch.
 */
#include <stdlib.h>
#include <string.h>

#include "ce_internal.h"
#include "nvmodel/mmu.h"

/* Virtual-time costs. silicon H100: "about 45 GB/s vidmem to vidmem" for
 * one launch. UNVERIFIED: the fixed costs of a method, a launch (including
 * its semaphore) and a line. */
#define CE_NS_PER_METHOD 1u
#define CE_NS_LAUNCH     100u
#define CE_NS_PER_LINE   1u
#define CE_BYTES_PER_NS  45u

/* Work accounting (the run budget, sched_charge): a piece of a copy costs
 * its bytes plus CE_TICKS_PER_PIECE ticks; CE_TICKS_PER_UNIT ticks are one
 * work unit; a delivery does at most CE_UNITS_PER_STEP units (about 4 MiB)
 * before the launch yields, so long copies interleave with other work in
 * virtual time. */
#define CE_TICKS_PER_PIECE 256u
#define CE_TICKS_PER_UNIT  4096u
#define CE_UNITS_PER_STEP  1024u

#define CE_NCHAN       4096u /* NV_PFIFO_CFG1_NUM_CHANNELS_INIT */
#define CE_REMAP_BATCH 256u  /* pixels remapped per batch (<= 4 KiB each way) */

/* The slots describing one side of a copy (0 source, 1 destination). */
struct side_slots {
	uint8_t upper, lower, pitch, phys, block, width, height, layer, ox, oy;
	unsigned type_bit, layout_bit; /* LAUNCH_DMA SRC/DST_TYPE, SRC/DST_MEMORY_LAYOUT */
	nvm_mmu_access acc;
	const char *name;
};
static const struct side_slots side_slot[2] = {
	{ S_IN_UPPER, S_IN_LOWER, S_PITCH_IN, S_SRC_PHYS, S_SRC_BLOCK, S_SRC_WIDTH, S_SRC_HEIGHT, S_SRC_LAYER,
	  S_SRC_ORIGIN_X, S_SRC_ORIGIN_Y, 12, 7, NVM_MMU_READ, "source" },
	{ S_OUT_UPPER, S_OUT_LOWER, S_PITCH_OUT, S_DST_PHYS, S_DST_BLOCK, S_DST_WIDTH, S_DST_HEIGHT, S_DST_LAYER,
	  S_DST_ORIGIN_X, S_DST_ORIGIN_Y, 13, 8, NVM_MMU_WRITE, "destination" },
};

/* One MMU page of a translation, reused until the address leaves it. */
struct ce_tlb {
	bool valid, sparse;
	nvm_aperture ap;
	uint64_t lo, hi, pa; /* VA range [lo, hi) maps to pa.. */
};

/* One side of a launch, resolved from the method state. */
struct ce_side {
	uint64_t base, pitch;
	bool phys, bl;
	nvm_aperture ap; /* physical target */
	uint32_t bpp;    /* bytes per unit of LINE_LENGTH_IN: 1, or the remap pixel */
	/* block linear (SET_*_BLOCK_SIZE, WIDTH, HEIGHT, LAYER, ORIGIN) */
	unsigned bh, bd; /* block height / depth in GOBs, log2 */
	uint64_t blocks_x, blocks_y, ox, oy, layer;
	const struct side_slots *sl;
	struct ce_tlb tlb;
};

/* A launch in progress (kept across deliveries: ENG_BUSY, ENG_FAULT). */
struct ce_job {
	bool active, copied;
	uint32_t launch; /* the LAUNCH_DMA data */
	struct ce_side s[2];
	uint64_t len, lines; /* units per line (bytes, or pixels with remap), lines */
	bool remap, back;    /* pixel remap; copy backwards (overlap) */
	unsigned cs, nsrc, ndst;
	uint8_t sel[4];      /* DST_X..W */
	uint8_t konst[2][4]; /* CONST_A/B, little-endian bytes */
	bool reads_src, keeps_dst;
	uint64_t line, pos; /* progress: lines done, units of the current line done */
	uint64_t bytes;     /* bytes written so far (the cost follows it) */
};

/* The copy classes' methods below this address are looked up in a table
 * (struct ce_idx): the state and launch methods drivers send. */
#define CE_IDX_END 0x800u

struct ce_chan {
	uint32_t v[S_COUNT];
	struct ce_job job;
};

struct ce {
	/* Channel state by CHID, chan[0..nchan) (grown on first use: most
	 * engines of an open GPU never see a channel). */
	struct ce_chan **chan;
	uint32_t nchan;
	uint64_t ticks_rem; /* ticks not yet charged as a whole unit */
	/* The class a channel runs when SET_OBJECT named no copy class (the
	 * Host generation's, engine_ce_set_class). */
	const struct ce_class *cls;
	/* The method tables of the last two classes run, by address below
	 * CE_IDX_END (ce_class_mthd's binary search through the class and its
	 * parents, done once per class instead of per method); slot `victim`
	 * is replaced next. Allocated on the engine's first methods (9 KiB
	 * that most engines of an open GPU never use); NULL until then. A
	 * cache: dropped with the engine, rebuilt from the class tables. */
	struct ce_idx {
		const struct ce_class *k; /* NULL: empty */
		uint32_t fill;            /* ce->fills when k was put here (ce_state) */
		const struct ce_mthd *at[CE_IDX_END / 4];
		/* 1 + at[i]->slot where at[i] stores its data (ce_m_store,
		 * most methods: the state), else 0 */
		uint8_t store[CE_IDX_END / 4];
	} * idx;
	unsigned victim;
	uint32_t fills; /* tables put in the cache so far */
	/* Copies through caller memory behind callbacks (nvm_mem_map_io), which
	 * has no pointer: a page of each side is staged here (allocated on
	 * first use). */
	uint8_t (*bounce)[NVM_PAGE_SIZE];
	/* class_of's last answer: ce_class_find(find_id) */
	bool find_valid;
	uint32_t find_id;
	const struct ce_class *find_k;
};

/* One delivery of methods. */
struct ce_x {
	struct engine *e;
	const struct eng_src *src;
	struct ce_chan *c;
	const struct ce_class *k; /* the class of the subchannel */
	uint64_t cost;
	uint64_t ticks;
	uint64_t tick_cap; /* CE_TICK_CAP_UNKNOWN until a copy asks (spent) */
};

#define CE_TICK_CAP_UNKNOWN UINT64_MAX

static nvm_gpu *gpu_of(const struct ce_x *x)
{
	return x->e->gpu;
}

/* ---------------------------------------------------------------- errors */

static enum eng_status launch_error(struct ce_x *x, uint32_t data, const char *why)
{
	emit(gpu_of(x), NVM_EV_GUEST_ERROR, x->e->name, "launch_error", 0x300, data,
	     "channel %u: LAUNCH_DMA 0x%08x rejected: %s", x->src->chid, data, why);
	return ENG_ERROR;
}

/* A physical address outside its aperture. UNVERIFIED: treated as a fault of
 * the engine (no MMU packet: nothing was translated), as the Host does. */
static enum eng_status out_of_range(struct ce_x *x, nvm_aperture ap, uint64_t pa, const char *what)
{
	emit(gpu_of(x), NVM_EV_GUEST_ERROR, x->e->name, "pa_out_of_range", pa, (uint64_t)ap,
	     "channel %u: %s address 0x%llx is outside %s", x->src->chid, what, (unsigned long long)pa,
	     nvm_aperture_name(ap));
	return ENG_FAULT;
}

/* ---------------------------------------------------------------- memory */

/* HUB client ids (volta-facts.md f): CE0 1, CE1 2, CE2 0x18. UNVERIFIED:
 * CE3..CE8 have no id of their own there and use CE2's. The CE's index is
 * its MMU engine id less the generation's CE0 (15 gv100, 43 gh100). */
static unsigned hub_client(nvm_gpu *gpu, unsigned mmu_engine_id)
{
	unsigned ce = mmu_engine_id - nvm_mmu_ce0_engine_id(gpu);
	return ce == 0 ? 1u : ce == 1 ? 2u : 0x18u;
}

/* Translates va through the channel's MMU into t (one MMU page). */
static enum eng_status translate(struct ce_x *x, uint64_t va, nvm_mmu_access acc, struct ce_tlb *t)
{
	/* UNVERIFIED: copy-engine requests are not privileged and have no
	 * subcontext (veid -1). */
	nvm_mmu_request req = {
		.inst_target = x->src->inst_target,
		.inst_addr = x->src->inst,
		.veid = -1,
		.va = va,
		.access = acc,
		.engine_id = x->e->mmu_engine_id,
		.client_type = NVM_MMU_CLIENT_HUB,
		.client_id = hub_client(gpu_of(x), x->e->mmu_engine_id),
	};
	nvm_mmu_result res;
	if (nvm_mmu_translate(gpu_of(x), &req, &res) || res.fault != NVM_MMU_FAULT_NONE)
		return ENG_FAULT; /* the GMMU reported it with the CE's engine id */
	if (res.target == NVM_MMU_TGT_PEER) {
		emit(gpu_of(x), NVM_EV_UNMODELLED, x->e->name, "peer", va, res.pa,
		     "channel %u: va 0x%llx maps peer memory, which is not modelled", x->src->chid,
		     (unsigned long long)va);
		return ENG_ERROR;
	}
	uint64_t in_page = va & (res.page_size - 1);
	*t = (struct ce_tlb){ true,
		              res.sparse != 0,
		              res.target == NVM_MMU_TGT_VID ? NVM_AP_VRAM : NVM_AP_SYSMEM,
		              va - in_page,
		              va - in_page + res.page_size,
		              res.pa - in_page };
	return ENG_OK;
}

/* Where a side's address lives: aperture and physical address. */
static enum eng_status locate(struct ce_x *x, struct ce_side *s, uint64_t addr, nvm_aperture *ap, uint64_t *pa,
                              bool *sparse)
{
	if (s->phys) {
		*ap = s->ap;
		*pa = addr;
		*sparse = false;
		return ENG_OK;
	}
	if (!s->tlb.valid || addr < s->tlb.lo || addr >= s->tlb.hi) {
		enum eng_status st = translate(x, addr, s->sl->acc, &s->tlb);
		if (st)
			return st;
	}
	*ap = s->tlb.ap;
	*pa = s->tlb.pa + (addr - s->tlb.lo);
	*sparse = s->tlb.sparse;
	return ENG_OK;
}

/* A pointer into one 4 KiB page of backing store. */
struct span {
	uint8_t *p; /* NULL: writes are dropped (sparse) */
	size_t avail;
	bool zero;   /* reads as zeros and nothing is stored there yet */
	bool staged; /* p is the side's bounce page: writes go out through mem_write */
	nvm_aperture ap;
	uint64_t pa;
};

static bool in_zero_page(const uint8_t *p)
{
	uintptr_t a = (uintptr_t)p, z = (uintptr_t)mem_zero_page;
	return a >= z && a < z + NVM_PAGE_SIZE;
}

/* A page of caller memory behind callbacks, staged in the side's bounce
 * page: read in for a source, written out by `wrote` for a destination. */
static nvm_status stage(struct ce_x *x, const struct ce_side *s, struct mem_space *m, bool for_write, struct span *sp)
{
	struct ce *ce = x->e->priv;
	if (!ce->bounce && !(ce->bounce = malloc(2 * sizeof(*ce->bounce))))
		return NVM_ERR_NOMEM;
	size_t off = (size_t)(sp->pa & (NVM_PAGE_SIZE - 1));
	sp->p = ce->bounce[s != &x->c->job.s[0]];
	sp->avail = NVM_PAGE_SIZE - off;
	if (sp->avail > m->size - sp->pa)
		sp->avail = (size_t)(m->size - sp->pa);
	sp->staged = true;
	return for_write ? NVM_OK : mem_read(m, sp->pa, sp->p, sp->avail);
}

static enum eng_status side_span(struct ce_x *x, struct ce_side *s, uint64_t addr, bool for_write, struct span *sp)
{
	bool sparse;
	enum eng_status st = locate(x, s, addr, &sp->ap, &sp->pa, &sparse);
	if (st)
		return st;
	if (sparse) {
		size_t off = (size_t)(addr & (NVM_PAGE_SIZE - 1));
		/* GMMU: a sparse mapping reads 0 and drops writes, no fault. */
		sp->p = for_write ? NULL : (uint8_t *)mem_zero_page + off;
		sp->avail = NVM_PAGE_SIZE - off;
		sp->zero = true;
		return ENG_OK;
	}
	struct mem_space *m = &gpu_of(x)->mem[sp->ap];
	nvm_status ms = mem_span(m, sp->pa, for_write, &sp->p, &sp->avail);
	sp->staged = false;
	if (ms == NVM_ERR_NOPTR)
		ms = stage(x, s, m, for_write, sp);
	if (ms == NVM_ERR_NOMEM) {
		emit(gpu_of(x), NVM_EV_GUEST_ERROR, x->e->name, "mem_budget", sp->pa, (uint64_t)sp->ap,
		     "channel %u: no simulated memory left for the %s page at 0x%llx", x->src->chid, s->sl->name,
		     (unsigned long long)sp->pa);
		return ENG_ERROR;
	}
	if (ms)
		return out_of_range(x, sp->ap, sp->pa, s->sl->name);
	sp->zero = in_zero_page(sp->p);
	return ENG_OK;
}

/* After n bytes were written through sp: a staged page goes out to the
 * caller's memory; watches learn of the write. */
static void notify(struct ce_x *x, const struct span *sp, size_t n)
{
	struct mem_space *m = &gpu_of(x)->mem[sp->ap];
	if (sp->staged) {
		if (mem_write(m, sp->pa, sp->p, n)) /* watches notified there */
			out_of_range(x, sp->ap, sp->pa, "copy");
		return;
	}
	if (m->nwatch) /* the Host's acquires watch semaphore memory */
		mem_notify_write(m, sp->pa, n);
}

/* Bytes written: the virtual time follows the running total. */
static void account(struct ce_x *x, struct ce_job *j, uint64_t n)
{
	uint64_t before = (j->bytes + CE_BYTES_PER_NS - 1) / CE_BYTES_PER_NS;
	j->bytes += n;
	x->cost += (j->bytes + CE_BYTES_PER_NS - 1) / CE_BYTES_PER_NS - before;
	x->ticks += n + CE_TICKS_PER_PIECE;
}

/* ---------------------------------------------------------------- layouts */

/* Block-linear offset of byte x of row y in slice z. A GOB is 64 bytes x 8
 * rows (512 bytes) laid out in 16-byte pieces: byte x, row y sits at
 * (x/32)*256 + (y/2)*64 + ((x/16)%2)*32 + (y%2)*16 + x%16. A block is one
 * GOB wide (SET_*_BLOCK_SIZE WIDTH ONE_GOB), 2^HEIGHT GOBs high and 2^DEPTH
 * deep, its GOBs in row then slice order; blocks go row by row across the
 * surface (WIDTH bytes, HEIGHT rows), then slab by slab of 2^DEPTH slices. */
static uint64_t bl_offset(const struct ce_side *s, uint64_t x, uint64_t y, uint64_t z)
{
	uint64_t in_gob = ((x & 32) << 3) | ((y & 6) << 5) | ((x & 16) << 1) | ((y & 1) << 4) | (x & 15);
	uint64_t gob_row = y >> 3;
	uint64_t in_block = ((z & ((1ull << s->bd) - 1)) << s->bh) | (gob_row & ((1ull << s->bh) - 1));
	uint64_t block = ((z >> s->bd) * s->blocks_y + (gob_row >> s->bh)) * s->blocks_x + (x >> 6);
	return (block << (9 + s->bh + s->bd)) + in_block * 512 + in_gob;
}

/* Address of byte off of line `line` on a side; *contig bytes from there are
 * contiguous in the side's address space. */
static uint64_t side_addr(const struct ce_side *s, uint64_t line, uint64_t off, uint64_t *contig)
{
	if (!s->bl) {
		*contig = UINT64_MAX;
		return s->base + line * s->pitch + off;
	}
	uint64_t bx = s->ox + off;
	*contig = 16 - (bx & 15);
	return s->base + bl_offset(s, bx, s->oy + line, s->layer);
}

static uint64_t min3(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t m = a < b ? a : b;
	return m < c ? m : c;
}

/* ---------------------------------------------------------------- moving bytes */

/* Moves up to max bytes from source address sa to destination address da,
 * within one 4 KiB page on each side; *done tells how many. */
static enum eng_status move_piece(struct ce_x *x, struct ce_job *j, uint64_t sa, uint64_t da, uint64_t max,
                                  size_t *done)
{
	struct span s, d;
	enum eng_status st = side_span(x, &j->s[0], sa, false, &s);
	if (st)
		return st;
	size_t m = (size_t)(max < s.avail ? max : s.avail);
	if (s.zero) {
		/* Zeros onto memory never written: nothing to store (keeps a huge
		 * copy of untouched memory from allocating). */
		st = side_span(x, &j->s[1], da, false, &d);
		if (st)
			return st;
		if (d.zero) {
			*done = m < d.avail ? m : d.avail;
			return ENG_OK;
		}
	}
	st = side_span(x, &j->s[1], da, true, &d);
	if (st)
		return st;
	if (m > d.avail)
		m = d.avail;
	if (d.p) {
		memmove(d.p, s.p, m);
		notify(x, &d, m);
	}
	*done = m;
	return ENG_OK;
}

static uint64_t tick_cap(nvm_gpu *gpu);

/* The run budget is read when a copy first asks: most deliveries only set
 * state (nothing charges the budget before, so it is the same value). */
static bool spent(struct ce_x *x)
{
	if (x->tick_cap == CE_TICK_CAP_UNKNOWN)
		x->tick_cap = tick_cap(x->e->gpu);
	return x->ticks >= x->tick_cap;
}

/* One line, front to back (any layout, no remap). */
static enum eng_status line_forward(struct ce_x *x, struct ce_job *j, uint64_t li)
{
	while (j->pos < j->len) {
		if (spent(x))
			return ENG_BUSY;
		uint64_t cs, cd;
		uint64_t sa = side_addr(&j->s[0], li, j->pos, &cs), da = side_addr(&j->s[1], li, j->pos, &cd);
		size_t done;
		enum eng_status st = move_piece(x, j, sa, da, min3(j->len - j->pos, cs, cd), &done);
		if (st)
			return st;
		j->pos += done;
		account(x, j, done);
	}
	return ENG_OK;
}

/* One line, back to front (pitch layouts whose destination overlaps the
 * source from above: silicon H100, overlap gives the memmove result). */
static enum eng_status line_backward(struct ce_x *x, struct ce_job *j, uint64_t li)
{
	while (j->pos < j->len) {
		if (spent(x))
			return ENG_BUSY;
		uint64_t unused, left = j->len - j->pos;
		uint64_t se = side_addr(&j->s[0], li, left, &unused), de = side_addr(&j->s[1], li, left, &unused);
		uint64_t m = min3(left, ((se - 1) & (NVM_PAGE_SIZE - 1)) + 1, ((de - 1) & (NVM_PAGE_SIZE - 1)) + 1);
		size_t done;
		enum eng_status st = move_piece(x, j, se - m, de - m, m, &done);
		if (st)
			return st;
		if (done != m) /* only at the end of an aperture */
			return out_of_range(x, j->s[1].phys ? j->s[1].ap : j->s[1].tlb.ap, de - m + done, "copy");
		j->pos += m;
		account(x, j, m);
	}
	return ENG_OK;
}

/* Reads (or writes) n bytes at byte off of line li of a side through buf. */
static enum eng_status side_io(struct ce_x *x, struct ce_side *s, uint64_t li, uint64_t off, uint8_t *buf, size_t n,
                               bool write)
{
	while (n) {
		uint64_t contig;
		uint64_t a = side_addr(s, li, off, &contig);
		struct span sp;
		enum eng_status st = side_span(x, s, a, write, &sp);
		if (st)
			return st;
		size_t m = (size_t)min3(n, contig, sp.avail);
		if (!write)
			memcpy(buf, sp.p, m);
		else if (sp.p) {
			memcpy(sp.p, buf, m);
			notify(x, &sp, m);
		}
		buf += m;
		off += m;
		n -= m;
	}
	return ENG_OK;
}

/* SET_REMAP_COMPONENTS on a batch of pixels: each destination component is a
 * source component, CONST_A/B (truncated to the component size) or left as
 * it was (NO_WRITE). */
static void remap_pixels(const struct ce_job *j, const uint8_t *sb, uint8_t *db, size_t n)
{
	size_t sbpp = j->s[0].bpp, dbpp = j->s[1].bpp;
	for (size_t p = 0; p < n; p++)
		for (unsigned k = 0; k < j->ndst; k++) {
			uint8_t *d = db + p * dbpp + k * j->cs;
			if (j->sel[k] < 4)
				memcpy(d, sb + p * sbpp + j->sel[k] * j->cs, j->cs);
			else if (j->sel[k] < 6)
				memcpy(d, j->konst[j->sel[k] - 4], j->cs);
		}
}

/* One line with remap, in batches of pixels. */
static enum eng_status line_remap(struct ce_x *x, struct ce_job *j, uint64_t li)
{
	uint8_t sb[CE_REMAP_BATCH * 16], db[CE_REMAP_BATCH * 16];
	size_t sbpp = j->s[0].bpp, dbpp = j->s[1].bpp;
	while (j->pos < j->len) {
		if (spent(x))
			return ENG_BUSY;
		size_t n = (size_t)(j->len - j->pos < CE_REMAP_BATCH ? j->len - j->pos : CE_REMAP_BATCH);
		enum eng_status st = ENG_OK;
		if (j->reads_src)
			st = side_io(x, &j->s[0], li, j->pos * sbpp, sb, n * sbpp, false);
		if (!st && j->keeps_dst)
			st = side_io(x, &j->s[1], li, j->pos * dbpp, db, n * dbpp, false);
		if (st)
			return st;
		remap_pixels(j, sb, db, n);
		st = side_io(x, &j->s[1], li, j->pos * dbpp, db, n * dbpp, true);
		if (st)
			return st;
		j->pos += n;
		account(x, j, n * dbpp);
	}
	return ENG_OK;
}

/* The copy: line after line, from where the launch stopped last. */
static enum eng_status copy_lines(struct ce_x *x, struct ce_job *j)
{
	while (j->line < j->lines) {
		uint64_t li = j->back ? j->lines - 1 - j->line : j->line;
		enum eng_status st = j->remap  ? line_remap(x, j, li)
		                     : j->back ? line_backward(x, j, li)
		                               : line_forward(x, j, li);
		if (st)
			return st;
		j->line++;
		j->pos = 0;
		x->cost += CE_NS_PER_LINE;
	}
	return ENG_OK;
}

/* ---------------------------------------------------------------- semaphore */

/* An address from its UPPER and LOWER methods (UPPER 16:0, or 24:0 from
 * C8B5 on). */
static uint64_t addr_of(const struct ce_class *k, uint32_t upper, uint32_t lower)
{
	return (uint64_t)FIELD_GET(upper, k->upper_hi, 0) << 32 | lower;
}

static uint64_t sem_va(const struct ce_x *x)
{
	return addr_of(x->k, x->c->v[S_SEM_A], x->c->v[S_SEM_B]);
}

/* Reads or writes len bytes (one aligned semaphore, inside one page). */
static enum eng_status sem_access(struct ce_x *x, uint64_t va, nvm_mmu_access acc, void *buf, size_t len, bool write)
{
	struct ce_tlb t;
	enum eng_status st = translate(x, va, acc, &t);
	if (st)
		return st;
	if (t.sparse) {
		if (!write)
			memset(buf, 0, len);
		return ENG_OK;
	}
	struct mem_space *m = &gpu_of(x)->mem[t.ap];
	uint64_t pa = t.pa + (va - t.lo);
	nvm_status ms = write ? mem_write(m, pa, buf, len) : mem_read(m, pa, buf, len);
	return ms ? out_of_range(x, t.ap, pa, "semaphore") : ENG_OK;
}

/* LAUNCH_DMA SEMAPHORE_PAYLOAD_SIZE TWO_WORD (C7B5 on: a 64-bit payload,
 * SET_SEMAPHORE_PAYLOAD_UPPER above SET_SEMAPHORE_PAYLOAD). */
static bool two_word(const struct ce_class *k, uint32_t d)
{
	return k->payload_size_bit && FIELD_GET(d, k->payload_size_bit, k->payload_size_bit);
}

/* LAUNCH_DMA SEMAPHORE_TYPE after the copy (silicon H100: the release comes
 * after the copy completes): ONE_WORD writes the 4-byte payload; FOUR_WORD
 * writes payload, 0 and the 8-byte PTIMER timestamp. With TWO_WORD (C7B5
 * on) the payload is 8 bytes: ONE_WORD writes it alone and FOUR_WORD
 * writes it, then the timestamp at +8 (UNVERIFIED: the header gives no
 * layout; refs/host-generations-facts.md A10 ASSUMED, as the Host's 64-bit
 * release). With SEMAPHORE_REDUCTION_ENABLE the payload is the reduction of
 * the old value (the class's reduction table). The conditional-interrupt
 * type (C5B5 on) releases as ONE_WORD; UNVERIFIED: its condition is not
 * published, it is reported and raises no interrupt of its own. */
static enum eng_status sem_release(struct ce_x *x, uint32_t d)
{
	unsigned type = FIELD_GET(d, 4, 3);
	if (!type)
		return ENG_OK;
	const struct ce_chan *c = x->c;
	const struct ce_class *k = x->k;
	uint64_t va = sem_va(x);
	bool is64 = two_word(k, d);
	uint64_t pl = c->v[S_SEM_PAYLOAD] | (is64 ? (uint64_t)c->v[S_SEM_PAYLOAD_UPPER] << 32 : 0);
	bool red = FIELD_GET(d, 19, 19);
	nvm_mmu_access acc = red ? NVM_MMU_ATOMIC : NVM_MMU_WRITE;
	size_t plen = is64 ? 8 : 4;
	if (red) {
		uint8_t ob[8] = { 0 };
		enum eng_status st = sem_access(x, va, acc, ob, plen, false);
		if (st)
			return st;
		uint64_t old = 0;
		for (size_t i = plen; i-- > 0;)
			old = old << 8 | ob[i];
		unsigned op = FIELD_GET(d, 17, 14);
		pl = k->red[op]->apply(op, is64, !FIELD_GET(d, 18, 18), old, pl);
	}
	if (k->sem_cond_intr && type == k->sem_cond_intr)
		emit(gpu_of(x), NVM_EV_UNMODELLED, x->e->name, "conditional_intr", va, d,
		     "channel %u: RELEASE_CONDITIONAL_INTR_SEMAPHORE released as ONE_WORD; its interrupt condition "
		     "is not modelled",
		     x->src->chid);
	uint8_t w[16] = { 0 };
	for (size_t i = 0; i < 8; i++)
		w[i] = (uint8_t)(pl >> (8 * i));
	size_t len = plen;
	if (type == 2) {
		/* PTIMER when the copy completes: the time this delivery has cost
		 * so far is still ahead of the clock (bits 4:0 read 0). */
		uint64_t t = (ptimer_read(gpu_of(x)) + x->cost) & ~0x1full;
		for (size_t i = 0; i < 8; i++)
			w[8 + i] = (uint8_t)(t >> (8 * i));
		len = 16;
	}
	return sem_access(x, va, acc, w, len, true);
}

/* ---------------------------------------------------------------- launch set-up */

/* The semaphore fields of LAUNCH_DMA; NULL when they are acceptable. */
static const char *check_semaphore(const struct ce_x *x, uint32_t d)
{
	const struct ce_class *k = x->k;
	unsigned type = FIELD_GET(d, 4, 3);
	if (!((k->sem_types >> type) & 1u))
		return "SEMAPHORE_TYPE is undefined in the class"; /* UNVERIFIED: a launch error */
	if (!type)
		return NULL;
	bool is64 = two_word(k, d);
	if (FIELD_GET(d, 19, 19)) {
		unsigned op = FIELD_GET(d, 17, 14);
		bool sgn = !FIELD_GET(d, 18, 18);
		if (!k->red[op])
			return "SEMAPHORE_REDUCTION is undefined";
		/* silicon H100: the Host's invalid combinations (INC/DEC signed) */
		if (!k->red[op]->valid(op, is64, sgn))
			return is64 ? "SEMAPHORE_REDUCTION is invalid with a TWO_WORD payload"
			            : "SEMAPHORE_REDUCTION INC/DEC needs SIGN UNSIGNED";
	}
	/* silicon H100: one word 4-byte aligned, four words 16-byte aligned;
	 * UNVERIFIED: a TWO_WORD payload 8-byte aligned. */
	uint64_t align = type == 2 ? 15u : is64 ? 7u : 3u;
	if (sem_va(x) & align)
		return type == 2 ? "four-word semaphore not 16-byte aligned"
		       : is64    ? "two-word semaphore not 8-byte aligned"
		                 : "semaphore not 4-byte aligned";
	return NULL;
}

/* SET_REMAP_COMPONENTS for a remapping launch. */
static const char *setup_remap(const struct ce_chan *c, struct ce_job *j)
{
	uint32_t r = c->v[S_REMAP];
	unsigned size = FIELD_GET(r, 17, 16);
	if (size == 2)
		return "remap COMPONENT_SIZE THREE"; /* silicon H100: a launch error */
	j->cs = size + 1;
	j->nsrc = FIELD_GET(r, 21, 20) + 1;
	j->ndst = FIELD_GET(r, 25, 24) + 1;
	j->reads_src = j->keeps_dst = false;
	for (unsigned k = 0; k < j->ndst; k++) {
		j->sel[k] = (uint8_t)FIELD_GET(r, 4 * k + 2, 4 * k);
		if (j->sel[k] == 7)
			return "remap DST component 7 is undefined"; /* UNVERIFIED: a launch error */
		if (j->sel[k] < 4 && j->sel[k] >= j->nsrc)
			return "remap DST component reads beyond NUM_SRC_COMPONENTS"; /* silicon H100 */
		j->reads_src |= j->sel[k] < 4;
		j->keeps_dst |= j->sel[k] == 6;
	}
	for (unsigned i = 0; i < 4; i++) {
		j->konst[0][i] = (uint8_t)(c->v[S_CONST_A] >> (8 * i));
		j->konst[1][i] = (uint8_t)(c->v[S_CONST_B] >> (8 * i));
	}
	j->s[0].bpp = j->cs * j->nsrc;
	j->s[1].bpp = j->cs * j->ndst;
	return NULL;
}

/* SET_*_BLOCK_SIZE and the surface of a block-linear side. */
static const char *setup_block_linear(const struct ce_chan *c, struct ce_side *s)
{
	const struct side_slots *sl = s->sl;
	uint32_t b = c->v[sl->block];
	/* UNVERIFIED (launch errors): the class defines WIDTH ONE_GOB, HEIGHT
	 * and DEPTH up to THIRTYTWO_GOBS and GOB_HEIGHT FERMI_8 only. */
	if (FIELD_GET(b, 3, 0) != 0)
		return "BLOCK_SIZE WIDTH is not ONE_GOB";
	if (FIELD_GET(b, 7, 4) > 5 || FIELD_GET(b, 11, 8) > 5)
		return "BLOCK_SIZE HEIGHT or DEPTH above THIRTYTWO_GOBS";
	if (FIELD_GET(b, 15, 12) != 1)
		return "BLOCK_SIZE GOB_HEIGHT is not GOB_HEIGHT_FERMI_8";
	s->bh = FIELD_GET(b, 7, 4);
	s->bd = FIELD_GET(b, 11, 8);
	/* WIDTH and ORIGIN X count bytes, or pixels with remap (as Mesa's NVK
	 * programs them); HEIGHT, ORIGIN Y and LAYER count rows and slices. */
	s->blocks_x = ((uint64_t)c->v[sl->width] * s->bpp + 63) >> 6;
	s->blocks_y = ((uint64_t)c->v[sl->height] + (8ull << s->bh) - 1) >> (3 + s->bh);
	s->ox = (uint64_t)c->v[sl->ox] * s->bpp;
	s->oy = c->v[sl->oy];
	s->layer = c->v[sl->layer];
	return NULL;
}

/* The reason a launch with a PEERMEM physical side stops (an engine error,
 * reported as unmodelled, as a virtual address mapping peer memory is). */
static const char why_peer[] = "PHYS_MODE TARGET PEERMEM: peer memory is not modelled";

/* One side: address, addressing mode and layout. */
static const char *setup_side(const struct ce_x *x, uint32_t d, struct ce_side *s)
{
	const struct ce_chan *c = x->c;
	const struct side_slots *sl = s->sl;
	s->base = addr_of(x->k, c->v[sl->upper], c->v[sl->lower]);
	s->pitch = c->v[sl->pitch];
	s->phys = FIELD_GET(d, sl->type_bit, sl->type_bit);
	s->bl = !FIELD_GET(d, sl->layout_bit, sl->layout_bit);
	s->tlb.valid = false;
	if (s->phys) {
		/* SET_*_PHYS_MODE TARGET: LOCAL_FB, COHERENT_SYSMEM,
		 * NONCOHERENT_SYSMEM, and from C6B5 on PEERMEM */
		switch (x->k->phys[FIELD_GET(c->v[sl->phys], 1, 0)]) {
		case CE_PHYS_VRAM: s->ap = NVM_AP_VRAM; break;
		case CE_PHYS_SYSMEM: s->ap = NVM_AP_SYSMEM; break;
		case CE_PHYS_PEER: return why_peer;
		default: return "PHYS_MODE TARGET 3 is undefined"; /* UNVERIFIED: a launch error */
		}
	}
	return s->bl ? setup_block_linear(c, s) : NULL;
}

/* Both sides in one address space and the destination above the start of
 * the source region: copy from the end (silicon H100: memmove result).
 * UNVERIFIED for multi-line copies: the lines go last to first. */
static bool overlaps_from_above(const struct ce_job *j)
{
	const struct ce_side *s = &j->s[0], *d = &j->s[1];
	if (j->remap || s->bl || d->bl || s->phys != d->phys || (s->phys && s->ap != d->ap))
		return false;
	uint64_t extent = (j->lines - 1) * s->pitch + j->len;
	return d->base > s->base && d->base - s->base < extent;
}

/* The copy part of LAUNCH_DMA; NULL when it can run. */
static const char *setup_copy(const struct ce_x *x, uint32_t d, struct ce_job *j)
{
	const struct ce_chan *c = x->c;
	j->lines = FIELD_GET(d, 9, 9) ? c->v[S_LINE_COUNT] : 1; /* MULTI_LINE_ENABLE */
	j->len = c->v[S_LINE_LENGTH];
	j->remap = FIELD_GET(d, 10, 10);
	j->s[0].bpp = j->s[1].bpp = 1;
	const char *why = j->remap ? setup_remap(c, j) : NULL;
	for (unsigned k = 0; k < 2 && !why; k++)
		why = setup_side(x, d, &j->s[k]);
	if (why)
		return why;
	/* silicon H100: with two lines or more a pitch below the line length
	 * (in bytes) is a launch error; one line accepts any pitch. */
	for (unsigned k = 0; k < 2 && j->lines >= 2; k++)
		if (!j->s[k].bl && j->s[k].pitch < j->len * j->s[k].bpp)
			return k ? "PITCH_OUT smaller than the line" : "PITCH_IN smaller than the line";
	if (!j->len) /* silicon H100: LINE_LENGTH_IN 0 copies nothing, no error */
		j->lines = 0;
	j->back = j->lines && overlaps_from_above(j);
	return NULL;
}

/* Validates a launch and resolves its parameters; NULL when it can run. */
static const char *launch_setup(struct ce_x *x, uint32_t d)
{
	struct ce_job *j = &x->c->job;
	memset(j, 0, sizeof(*j));
	j->s[0].sl = &side_slot[0];
	j->s[1].sl = &side_slot[1];
	j->launch = d;
	unsigned xfer = FIELD_GET(d, 1, 0);
	if (xfer == 3)
		return "DATA_TRANSFER_TYPE 3 is undefined"; /* UNVERIFIED: a launch error */
	if (FIELD_GET(d, 6, 5) == 3)
		return "INTERRUPT_TYPE 3 is undefined"; /* UNVERIFIED: a launch error */
	const char *why = check_semaphore(x, d);
	for (size_t i = 0; i < x->k->nfields && !why; i++) {
		const struct ce_launch_field *f = &x->k->fields[i];
		if (f->bad && FIELD_GET(d, f->hi, f->lo) >= f->bad)
			why = "a LAUNCH_DMA field value is undefined"; /* UNVERIFIED: a launch error */
	}
	if (!why && xfer) /* silicon H100: DATA_TRANSFER_TYPE NONE copies nothing */
		why = setup_copy(x, d, j);
	for (size_t i = 0; i < x->k->nfields && !why; i++) {
		const struct ce_launch_field *f = &x->k->fields[i];
		if (FIELD_GET(d, f->hi, f->lo))
			emit(gpu_of(x), NVM_EV_UNMODELLED, x->e->name, f->code, 0x300, d,
			     "channel %u: LAUNCH_DMA %s %u is not modelled: copied as if it were 0", x->src->chid,
			     f->name, FIELD_GET(d, f->hi, f->lo));
	}
	return why;
}

/* ---------------------------------------------------------------- methods */

enum eng_status ce_m_store(struct ce_x *x, const struct ce_mthd *t, uint32_t data)
{
	x->c->v[t->slot] = data;
	return ENG_OK;
}

enum eng_status ce_m_nop(struct ce_x *x, const struct ce_mthd *t, uint32_t data)
{
	(void)x;
	(void)t;
	(void)data;
	return ENG_OK;
}

/* Performance-monitor triggers: nothing to count in the model. */
enum eng_status ce_m_unmodelled(struct ce_x *x, const struct ce_mthd *t, uint32_t data)
{
	emit(gpu_of(x), NVM_EV_UNMODELLED, x->e->name, "method", t->addr, data,
	     "channel %u: %s (0x%04x) is not modelled: ignored", x->src->chid, t->name, t->addr);
	return ENG_OK;
}

/* SET_RENDER_ENABLE_C: stored; UNVERIFIED: conditional launches are not
 * modelled, every launch runs (reported unless MODE is TRUE). */
enum eng_status ce_m_render(struct ce_x *x, const struct ce_mthd *t, uint32_t data)
{
	x->c->v[t->slot] = data;
	return FIELD_GET(data, 2, 0) == 1 ? ENG_OK : ce_m_unmodelled(x, t, data);
}

/* SET_SRC/DST_ORIGIN X 15:0, Y 31:16. UNVERIFIED: the same origin as
 * SRC/DST_ORIGIN_X/Y (the last write of either wins). */
enum eng_status ce_m_origin(struct ce_x *x, const struct ce_mthd *t, uint32_t data)
{
	x->c->v[t->slot] = FIELD_GET(data, 15, 0);
	x->c->v[t->slot + 1] = FIELD_GET(data, 31, 16);
	return ENG_OK;
}

/* A launch ran to its end: the non-stall interrupt if asked for. */
static void launch_done(struct ce_x *x, struct ce_job *j)
{
	/* UNVERIFIED: BLOCKING and NON_BLOCKING both raise the non-stall
	 * interrupt; BLOCKING does not hold the channel. */
	if (FIELD_GET(j->launch, 6, 5) && x->e->nonstall)
		x->e->nonstall(x->e->host, x->src->chid);
	j->active = false;
	emit(gpu_of(x), NVM_EV_TRACE, x->e->name, "launch", j->bytes, x->src->chid,
	     "channel %u: LAUNCH_DMA 0x%08x done, %llu bytes", x->src->chid, j->launch, (unsigned long long)j->bytes);
}

/* LAUNCH_DMA: starts a launch, or continues the one the Host delivers again
 * (after ENG_BUSY, or once software cleared ENG_FAULTED). */
enum eng_status ce_m_launch(struct ce_x *x, const struct ce_mthd *t, uint32_t data)
{
	(void)t;
	struct ce_job *j = &x->c->job;
	if (!j->active) {
		const char *why = launch_setup(x, data);
		if (why == why_peer) {
			emit(gpu_of(x), NVM_EV_UNMODELLED, x->e->name, "peer", 0x300, data,
			     "channel %u: LAUNCH_DMA 0x%08x: %s", x->src->chid, data, why);
			return ENG_ERROR;
		}
		if (why)
			return launch_error(x, data, why);
		j->active = true;
		x->cost += CE_NS_LAUNCH;
	}
	if (!j->copied) {
		enum eng_status st = copy_lines(x, j);
		if (st)
			return st;
		j->copied = true;
	}
	enum eng_status st = sem_release(x, data);
	if (st)
		return st;
	launch_done(x, j);
	return ENG_OK;
}

/* silicon H100: an undefined method is reported (method and data) as an
 * illegal-method error. */
static enum eng_status illegal(struct ce_x *x, uint32_t m, uint32_t data)
{
	emit(gpu_of(x), NVM_EV_GUEST_ERROR, x->e->name, "illegal_method", m, data,
	     "channel %u: method 0x%04x (data 0x%08x) is not a method of class %s", x->src->chid, m, data,
	     x->k->short_name);
	return ENG_ERROR;
}

/* ---------------------------------------------------------------- the engine */

static struct ce_chan *chan_of(struct engine *e, uint32_t chid)
{
	struct ce *ce = e->priv;
	if (chid >= CE_NCHAN)
		return NULL;
	if (chid >= ce->nchan) {
		uint32_t n = ce->nchan ? ce->nchan : 8;
		while (n <= chid)
			n *= 2;
		if (n > CE_NCHAN)
			n = CE_NCHAN;
		struct ce_chan **v = realloc(ce->chan, n * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + ce->nchan, 0, (n - ce->nchan) * sizeof(*v));
		ce->chan = v;
		ce->nchan = n;
	}
	if (!ce->chan[chid])
		ce->chan[chid] = calloc(1, sizeof(struct ce_chan));
	return ce->chan[chid];
}

/* A launch left in progress continues only when its LAUNCH_DMA comes first
 * (the Host's METHOD0 redelivery); anything else means software skipped it. */
static void drop_stale_job(struct ce_chan *c, const nvm_pb_run *r, uint32_t first)
{
	if (c->job.active && (nvm_pb_run_method(r, first) != 0x300 || r->data[first] != c->job.launch))
		c->job.active = false;
	c->job.s[0].tlb.valid = c->job.s[1].tlb.valid = false; /* page tables may have changed */
}

/* The run budget: at most CE_UNITS_PER_STEP units in this delivery, and no
 * more than the run has left. */
static uint64_t tick_cap(nvm_gpu *gpu)
{
	uint64_t left = sched_budget_left(gpu);
	return (left < CE_UNITS_PER_STEP ? left : CE_UNITS_PER_STEP) * CE_TICKS_PER_UNIT;
}

static void charge(struct engine *e, uint64_t ticks)
{
	struct ce *ce = e->priv;
	ce->ticks_rem += ticks;
	sched_charge(e->gpu, ce->ticks_rem / CE_TICKS_PER_UNIT);
	ce->ticks_rem %= CE_TICKS_PER_UNIT;
}

/* The class of the subchannel: the copy class SET_OBJECT bound, else the
 * engine's (the Host generation's copy class). */
static const struct ce_class *class_of(const struct engine *e, const struct eng_src *src)
{
	struct ce *ce = e->priv;
	/* ce_class_find of the last class id asked (a const table) */
	if (!ce->find_valid || ce->find_id != src->cls) {
		ce->find_k = ce_class_find(src->cls);
		ce->find_id = src->cls;
		ce->find_valid = true;
	}
	return ce->find_k ? ce->find_k : ce->cls;
}

/* The table of class k's methods below CE_IDX_END, built on first use;
 * NULL without host memory for it (mthd_at then searches the class). */
static const struct ce_idx *idx_of(struct ce *ce, const struct ce_class *k)
{
	if (!ce->idx && !(ce->idx = calloc(2, sizeof(*ce->idx))))
		return NULL;
	if (ce->idx[0].k == k)
		return &ce->idx[0];
	if (ce->idx[1].k == k)
		return &ce->idx[1];
	struct ce_idx *t = &ce->idx[ce->victim];
	ce->victim ^= 1u;
	t->k = k;
	t->fill = ++ce->fills;
	memset(t->at, 0, sizeof(t->at));
	memset(t->store, 0, sizeof(t->store));
	/* ce_class_mthd's answer for every address: the class chain walked
	 * from its root, so a class's own method replaces its parent's (one
	 * pass over the methods, not a lookup per address). */
	const struct ce_class *chain[8];
	unsigned n = 0;
	for (const struct ce_class *c = k; c && n < 8; c = c->parent)
		chain[n++] = c;
	while (n--)
		for (size_t i = 0; i < chain[n]->nmthds && chain[n]->mthds[i].addr < CE_IDX_END; i++)
			if (!(chain[n]->mthds[i].addr & 3u))
				t->at[chain[n]->mthds[i].addr / 4] = &chain[n]->mthds[i];
	_Static_assert(S_COUNT < 255, "a store's slot + 1 fits a byte");
	for (size_t i = 0; i < CE_IDX_END / 4; i++)
		t->store[i] = t->at[i] && t->at[i]->fn == ce_m_store ? (uint8_t)(t->at[i]->slot + 1u) : 0;
	return t;
}

/* Method m of class k (ce_class_mthd), from its table t when there is one. */
static inline const struct ce_mthd *mthd_at(const struct ce_idx *t, const struct ce_class *k, uint32_t m)
{
	return t && m < CE_IDX_END && !(m & 3u) ? t->at[m / 4] : ce_class_mthd(k, m);
}

static enum eng_status ce_methods(struct engine *e, const struct eng_src *src, const nvm_pb_run *r, uint32_t first,
                                  uint32_t n, struct eng_result *res)
{
	struct ce_x x = { e, src, chan_of(e, src->chid), class_of(e, src), 0, 0, CE_TICK_CAP_UNKNOWN };
	*res = (struct eng_result){ 0, 0 };
	if (!x.c) {
		emit(e->gpu, NVM_EV_GUEST_ERROR, e->name, "out_of_memory", src->chid, 0,
		     "channel %u: no host memory for the copy engine's channel state", src->chid);
		return ENG_ERROR;
	}
	drop_stale_job(x.c, r, first);
	const struct ce_idx *tab = idx_of(e->priv, x.k);
	enum eng_status st = ENG_OK;
	uint32_t i = 0;
	/* Method addresses step by step (nvm_pb_run_method of first + i): INC
	 * adds 4, 1INC is ADDRESS + 4 after its first, NINC and IMMD stay. */
	uint32_t m = n ? nvm_pb_run_method(r, first) : 0;
	uint32_t after = r->mode == NVM_PB_MODE_1INC ? (r->method + 4u) & 0x3ffcu : m;
	uint32_t inc = r->mode == NVM_PB_MODE_INC ? 4u : 0u;
	const uint32_t *data = r->data + first;
	static const uint8_t no_store[CE_IDX_END / 4];
	const uint8_t *store = tab ? tab->store : no_store;
	uint32_t *v = x.c->v;
	while (i < n) {
		/* Most methods set state: ce_m_store without its call, its slot
		 * from the table (m below CE_IDX_END, a multiple of 4), a stretch
		 * of them in registers. */
		uint32_t j = i;
		unsigned sl;
		while (j < n && (sl = !(m & ~(CE_IDX_END - 4u)) ? store[m / 4] : 0) != 0) {
			v[sl - 1] = data[j++];
			m = inc ? (m + inc) & 0x3ffcu : after;
		}
		x.cost += (uint64_t)(j - i) * CE_NS_PER_METHOD;
		i = j;
		if (i == n)
			break;
		const struct ce_mthd *t = mthd_at(tab, x.k, m);
		uint32_t d = data[i++];
		x.cost += CE_NS_PER_METHOD;
		if (t && t->fn == ce_m_store) {
			x.c->v[t->slot] = d;
		} else {
			st = t ? t->fn(&x, t, d) : illegal(&x, m, d);
			if (st)
				break;
		}
		m = inc ? (m + inc) & 0x3ffcu : after;
	}
	/* i counts the method that stopped; it is logged unless it is to be
	 * delivered again (ENG_BUSY). */
	uint32_t logged = st == ENG_BUSY ? i - 1 : i;
	if (e->cap)
		engine_log(e, src, r, first, logged);
	else
		e->total += logged; /* engine_log without a log: the count alone, without the call */
	if (x.ticks)                /* no ticks (state methods only) charge nothing */
		charge(e, x.ticks);
	res->cost = x.cost;
	res->done = st ? i - 1 : n;
	return st;
}

/* The state methods (ce_m_store) of src's channel and class, for the
 * Host's hot loop: what ce_methods does with a run of them when no launch
 * is in progress is to store each datum in its slot, 1 ns each
 * (drop_stale_job then only unmarks translations no one uses: see
 * save_side). Held while the class's table stays in the cache (idx_of)
 * and no launch is in progress. */
static bool ce_state(struct engine *e, const struct eng_src *src, struct eng_state *st)
{
	struct ce_chan *c = chan_of(e, src->chid);
	const struct ce_class *k = class_of(e, src);
	const struct ce_idx *tab = c ? idx_of(e->priv, k) : NULL;
	if (!tab)
		return false;
	*st =
	        (struct eng_state){ c->v,      tab->store, &c->job.active,  &tab->fill,
		                    tab->fill, CE_IDX_END, CE_NS_PER_METHOD };
	return true;
}

static void ce_bind(struct engine *e, const struct eng_src *src)
{
	/* UNVERIFIED: the copy engine runs its class's methods whether or not
	 * SET_OBJECT came first; binding only makes room for the channel. */
	chan_of(e, src->chid);
}

static void ce_destroy(struct engine *e)
{
	struct ce *ce = e->priv;
	if (!ce)
		return;
	for (uint32_t i = 0; i < ce->nchan; i++)
		free(ce->chan[i]);
	free(ce->chan);
	free(ce->idx);
	free(ce->bounce);
	free(ce);
	e->priv = NULL;
}

/* The channel's state (a line or two of its registers and job) is read at
 * its first method: fetched into the host's caches ahead of it. */
static void ce_prefetch(struct engine *e, uint32_t chid)
{
	const struct ce *ce = e->priv;
	if (chid < ce->nchan && ce->chan[chid]) {
		const char *c = (const char *)ce->chan[chid];
		for (size_t i = 0; i < sizeof(struct ce_chan); i += 64)
			__builtin_prefetch(c + i);
	}
}

/* ---------------------------------------------------------------- snapshots */

/* The engine's own state (struct engine_ops save / load; engine.c saves
 * its log and busy time): the tick remainder, and per channel its method
 * state and the launch in progress (a copy stopped by ENG_BUSY continues
 * from its line and position after a load, with the translation it was
 * using). Dropped on a load and rebuilt on use, as caches: the method
 * tables of the last classes (idx, victim), class_of's answer, the bounce
 * pages. The default class is the Host generation's, set at open. */

/* A side's translation is saved as valid only while its launch is in
 * progress (live): a finished launch's is never used again (the next one
 * sets its sides up afresh), and whether it is still marked depends only
 * on how the methods since were delivered (drop_stale_job clears it, the
 * Host's runs of state methods through ce_state do not). */
static void save_side(struct snap_w *w, const struct ce_side *s, bool live)
{
	snap_u64(w, s->base);
	snap_u64(w, s->pitch);
	snap_u32(w, (uint32_t)s->phys | (uint32_t)s->bl << 1 | (uint32_t)(s->tlb.valid && live) << 2 |
	                    (uint32_t)s->tlb.sparse << 3);
	snap_u32(w, (uint32_t)s->ap);
	snap_u32(w, s->bpp);
	snap_u32(w, s->bh);
	snap_u32(w, s->bd);
	snap_u64(w, s->blocks_x);
	snap_u64(w, s->blocks_y);
	snap_u64(w, s->ox);
	snap_u64(w, s->oy);
	snap_u64(w, s->layer);
	snap_u32(w, (uint32_t)s->tlb.ap);
	snap_u64(w, s->tlb.lo);
	snap_u64(w, s->tlb.hi);
	snap_u64(w, s->tlb.pa);
}

static void save_job(struct snap_w *w, const struct ce_job *j)
{
	snap_u32(w, (uint32_t)j->active | (uint32_t)j->copied << 1 | (uint32_t)j->remap << 2 | (uint32_t)j->back << 3 |
	                    (uint32_t)j->reads_src << 4 | (uint32_t)j->keeps_dst << 5);
	snap_u32(w, j->launch);
	for (unsigned k = 0; k < 2; k++)
		save_side(w, &j->s[k], j->active);
	snap_u64(w, j->len);
	snap_u64(w, j->lines);
	snap_u32(w, j->cs);
	snap_u32(w, j->nsrc);
	snap_u32(w, j->ndst);
	snap_put(w, j->sel, 4);
	snap_put(w, j->konst, 8);
	snap_u64(w, j->line);
	snap_u64(w, j->pos);
	snap_u64(w, j->bytes);
}

static void ce_save(const struct engine *e, struct snap_w *w)
{
	const struct ce *ce = e->priv;
	snap_u64(w, ce->ticks_rem);
	snap_u32(w, ce->nchan);
	for (uint32_t i = 0; i < ce->nchan; i++) {
		if (!ce->chan[i])
			continue;
		snap_u32(w, i);
		for (unsigned k = 0; k < S_COUNT; k++)
			snap_u32(w, ce->chan[i]->v[k]);
		save_job(w, &ce->chan[i]->job);
	}
	snap_u32(w, UINT32_MAX);
}

static void load_side(struct snap_r *r, struct ce_side *s, unsigned k)
{
	s->base = snap_get_u64(r);
	s->pitch = snap_get_u64(r);
	uint32_t f = snap_get_u32(r), ap = snap_get_u32(r);
	s->bpp = snap_get_u32(r);
	s->bh = snap_get_u32(r);
	s->bd = snap_get_u32(r);
	s->blocks_x = snap_get_u64(r);
	s->blocks_y = snap_get_u64(r);
	s->ox = snap_get_u64(r);
	s->oy = snap_get_u64(r);
	s->layer = snap_get_u64(r);
	uint32_t tap = snap_get_u32(r);
	s->tlb.lo = snap_get_u64(r);
	s->tlb.hi = snap_get_u64(r);
	s->tlb.pa = snap_get_u64(r);
	/* what launch_setup and translate leave: an aperture, a pixel of at
	 * most 4 components of 4 bytes, blocks of at most 32 GOBs */
	if (!r->err && (f > 15 || ap >= NVM_AP_COUNT || tap >= NVM_AP_COUNT || s->bpp > 16 || s->bh > 5 || s->bd > 5 ||
	                ((f >> 2) & 1u && s->tlb.lo >= s->tlb.hi)))
		r->err = NVM_ERR_CORRUPT;
	s->phys = f & 1u;
	s->bl = (f >> 1) & 1u;
	s->tlb.valid = (f >> 2) & 1u;
	s->tlb.sparse = (f >> 3) & 1u;
	s->ap = (nvm_aperture)(ap < NVM_AP_COUNT ? ap : 0);
	s->tlb.ap = (nvm_aperture)(tap < NVM_AP_COUNT ? tap : 0);
	s->sl = &side_slot[k];
}

/* A launch as launch_setup leaves it; an inactive one is never read
 * (the next LAUNCH_DMA sets it up afresh). */
static bool job_ok(const struct ce_job *j)
{
	if (!j->active)
		return true;
	if (j->line > j->lines || j->pos > j->len)
		return false;
	if (!j->remap)
		return j->s[0].bpp <= 1 && j->s[1].bpp <= 1; /* 0: DATA_TRANSFER_TYPE NONE */
	if ((j->cs != 1 && j->cs != 2 && j->cs != 4) || j->nsrc < 1 || j->nsrc > 4 || j->ndst < 1 || j->ndst > 4 ||
	    j->s[0].bpp != j->cs * j->nsrc || j->s[1].bpp != j->cs * j->ndst)
		return false;
	for (unsigned k = 0; k < j->ndst; k++)
		if (j->sel[k] == 7 || (j->sel[k] < 4 && j->sel[k] >= j->nsrc))
			return false;
	return true;
}

static void load_job(struct snap_r *r, struct ce_job *j)
{
	uint32_t f = snap_get_u32(r);
	j->launch = snap_get_u32(r);
	for (unsigned k = 0; k < 2; k++)
		load_side(r, &j->s[k], k);
	j->len = snap_get_u64(r);
	j->lines = snap_get_u64(r);
	j->cs = snap_get_u32(r);
	j->nsrc = snap_get_u32(r);
	j->ndst = snap_get_u32(r);
	snap_get(r, j->sel, 4);
	snap_get(r, j->konst, 8);
	j->line = snap_get_u64(r);
	j->pos = snap_get_u64(r);
	j->bytes = snap_get_u64(r);
	j->active = f & 1u;
	j->copied = (f >> 1) & 1u;
	j->remap = (f >> 2) & 1u;
	j->back = (f >> 3) & 1u;
	j->reads_src = (f >> 4) & 1u;
	j->keeps_dst = (f >> 5) & 1u;
	if (!r->err && (f > 63 || !job_ok(j)))
		r->err = NVM_ERR_CORRUPT;
}

static void ce_drop_chans(struct ce *ce)
{
	for (uint32_t i = 0; i < ce->nchan; i++)
		free(ce->chan[i]);
	free(ce->chan);
	ce->chan = NULL;
	ce->nchan = 0;
}

static nvm_status ce_load(struct engine *e, struct snap_r *r, bool apply)
{
	struct ce *ce = e->priv;
	uint64_t rem = snap_get_u64(r);
	uint32_t nchan = snap_get_u32(r);
	/* chan_of grows the table by doubling from 8, up to CE_NCHAN */
	if (r->err || rem >= CE_TICKS_PER_UNIT || nchan > CE_NCHAN ||
	    (nchan && nchan != CE_NCHAN && (nchan < 8 || (nchan & (nchan - 1)))))
		return r->err ? r->err : NVM_ERR_CORRUPT;
	struct ce_chan **chan = nchan ? calloc(nchan, sizeof(*chan)) : NULL;
	if (nchan && !chan)
		return NVM_ERR_NOMEM;
	struct ce_chan *one = calloc(1, sizeof(*one));
	nvm_status st = one ? NVM_OK : NVM_ERR_NOMEM;
	int64_t last = -1;
	while (!st) {
		uint32_t i = snap_get_u32(r);
		if (r->err || i == UINT32_MAX)
			break;
		if (i >= nchan || (int64_t)i <= last) {
			st = NVM_ERR_CORRUPT; /* channels in order, each once, within the table */
			break;
		}
		last = i;
		for (unsigned k = 0; k < S_COUNT; k++)
			one->v[k] = snap_get_u32(r);
		load_job(r, &one->job);
		if (r->err)
			break;
		chan[i] = one;
		if (!(one = calloc(1, sizeof(*one))))
			st = NVM_ERR_NOMEM;
	}
	st = st ? st : r->err;
	if (!st && apply) {
		ce_drop_chans(ce);
		ce->chan = chan;
		ce->nchan = nchan;
		ce->ticks_rem = rem;
		free(ce->idx); /* caches: rebuilt on use */
		ce->idx = NULL;
		ce->victim = 0;
		ce->find_valid = false;
		chan = NULL;
	}
	for (uint32_t i = 0; chan && i < nchan; i++)
		free(chan[i]);
	free(chan);
	free(one);
	return st;
}

static const struct engine_ops ce_ops = {
	.methods = ce_methods,
	.bind = ce_bind,
	.destroy = ce_destroy,
	.save = ce_save,
	.load = ce_load,
	.state = ce_state,
};

nvm_status engine_ce_init(struct engine *e)
{
	e->priv = calloc(1, sizeof(struct ce));
	if (!e->priv)
		return NVM_ERR_NOMEM;
	((struct ce *)e->priv)->cls = &ce_c3b5;
	e->ops = &ce_ops;
	e->prefetch = ce_prefetch;
	return NVM_OK;
}

nvm_status engine_ce_set_class(struct engine *e, uint32_t id)
{
	const struct ce_class *k = ce_class_find(id);
	if (!k || e->ops != &ce_ops)
		return NVM_ERR_NOENT;
	((struct ce *)e->priv)->cls = k;
	return NVM_OK;
}
