/* Driver-like method streams (drvstream.h). */
#include "drvstream.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- binds */

/* NVK's subchannels on Volta (nvk_cmd_buffer.h: 3D 0, compute 1, M2MF 2,
 * 2D 3, copy 4). The weights: most of a frame's methods are 3D state. */
static const struct ds_bind binds_new[] = {
	{ 0, 0xC397, 0, 60 }, { 1, 0xC3C0, 0, 15 }, { 2, 0xA140, 0, 5 }, { 3, 0x902D, 0, 8 }, { 4, 0xC3B5, 0, 12 },
};

/* nv40: the PGRAPH objects nouveau's 2D / M2MF code binds (the 3D class
 * 4097 has no method table in src/pushbuf, so it is not in the mix). */
static const struct ds_bind binds_nv04[] = {
	{ 0, 0x0039, 0x80000001, 30 }, { 1, 0x0042, 0x80000002, 20 }, { 2, 0x004a, 0x80000003, 20 },
	{ 3, 0x0077, 0x80000004, 15 }, { 4, 0x0065, 0x80000005, 15 },
};

/* g84: 2D, M2MF and compute (5097 has no table in src/pushbuf). */
static const struct ds_bind binds_g80[] = {
	{ 0, 0x50C0, 0x80000001, 40 },
	{ 1, 0x5039, 0x80000002, 20 },
	{ 2, 0x502D, 0x80000003, 40 },
};

const struct ds_bind *ds_default_binds(enum ds_format f, unsigned *n)
{
	switch (f) {
	case DS_FMT_NEW: *n = sizeof(binds_new) / sizeof(binds_new[0]); return binds_new;
	case DS_FMT_NV04_DMA: *n = sizeof(binds_nv04) / sizeof(binds_nv04[0]); return binds_nv04;
	default: *n = sizeof(binds_g80) / sizeof(binds_g80[0]); return binds_g80;
	}
}

/* ---------------------------------------------------------------- generator state */

#define DS_MAX_BINDS 8
#define DS_MAX_ADDRS 4096
#define DS_MAX_CMD   20 /* dwords of the longest command, the jump included */
#define DS_HOT       48 /* a class's frequent methods (a driver's state): 7 runs in 8 start there */

/* The copy class executes what it gets: only its state methods are sent
 * (no LAUNCH_DMA, no render enable), as a driver's setup of a copy. */
static const uint16_t ce_state[] = { 0x240, 0x244, 0x248, 0x400, 0x404, 0x408, 0x40c,
	                             0x410, 0x414, 0x418, 0x41c, 0x700, 0x704, 0x708 };

struct ds_sub {
	uint32_t subch, cls, handle;
	unsigned weight;
	uint16_t *addr; /* method addresses a run may start at */
	size_t naddr;
	bool strict;          /* a run may only touch addr[] (the copy class) */
	uint8_t fl[4096 / 8]; /* by method dword address: the data is a float */
	uint16_t hot[DS_HOT]; /* the state a driver sets again and again */
};

struct gen {
	const struct ds_config *c;
	nvm_pb_format pf;
	uint32_t maxm; /* highest method byte address of the format */
	uint64_t rng;
	struct ds_sub sub[DS_MAX_BINDS];
	unsigned nsub, wsum;
	struct ds_stream *s;
	size_t cap, segcap;
	uint64_t seg_va;  /* address of the current segment's first dword */
	size_t seg_off;   /* its first dword in s->words */
	uint32_t seg_len; /* dwords the current segment is to have */
	uint32_t ref, sem_payload, sem_acquire;
};

static uint32_t rnd(struct gen *g)
{
	/* splitmix64: deterministic, and good enough for picking */
	uint64_t z = (g->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static uint32_t below(struct gen *g, uint32_t n)
{
	return (uint32_t)(((uint64_t)rnd(g) * n) >> 32);
}

static int put(struct gen *g, uint32_t w)
{
	if (g->s->nwords == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 4096;
		uint32_t *p = realloc(g->s->words, cap * sizeof(*p));
		if (!p)
			return -1;
		g->s->words = p;
		g->cap = cap;
	}
	g->s->words[g->s->nwords++] = w;
	return 0;
}

static int add_seg(struct gen *g, uint64_t va, size_t off, uint32_t n, uint64_t putv)
{
	if (!n)
		return 0;
	if (g->s->nsegs == g->segcap) {
		size_t cap = g->segcap ? g->segcap * 2 : 64;
		struct ds_seg *p = realloc(g->s->segs, cap * sizeof(*p));
		if (!p)
			return -1;
		g->s->segs = p;
		g->segcap = cap;
	}
	g->s->segs[g->s->nsegs++] = (struct ds_seg){ va, off, n, putv };
	return 0;
}

/* The method addresses of class cls a run may start at. */
/* The engine method addresses of class cls (elements 0-15 of an array),
 * and which addresses take a float. */
static int sub_table(const struct gen *g, struct ds_sub *u)
{
	const nvm_pb_class *c = nvm_pb_class_find(u->cls);
	if (!c)
		return -1;
	for (size_t i = 0; i < c->nmethods; i++) {
		const nvm_pb_method *m = nvm_pb_class_method_at(c, i);
		unsigned elems = m->count ? m->count : 1;
		uint32_t stride = m->count ? (m->stride ? m->stride : 4) : 0;
		for (unsigned k = 0; k < elems; k++) {
			uint32_t a = m->addr + k * stride;
			if ((m->flags & NVM_PB_METHOD_FLOAT) && a < 0x4000)
				u->fl[a >> 5] |= (uint8_t)(1u << ((a >> 2) & 7));
			/* engine methods only; the old formats' 0x180-0x1fc carry
			 * object handles the puller translates */
			if (k >= 16 || u->naddr >= DS_MAX_ADDRS || a < 0x100 || a > g->maxm ||
			    (g->pf == NVM_PB_FORMAT_OLD && a >= 0x180 && a < 0x200))
				continue;
			u->addr[u->naddr++] = (uint16_t)a;
		}
	}
	return 0;
}

/* The method addresses of the class bound by b a run may start at, and the
 * hot ones among them. */
static int sub_init(struct gen *g, struct ds_sub *u, const struct ds_bind *b)
{
	*u = (struct ds_sub){ .subch = b->subch & 7,
		              .cls = b->cls,
		              .handle = b->handle,
		              .weight = b->weight ? b->weight : 1 };
	u->addr = malloc(DS_MAX_ADDRS * sizeof(*u->addr));
	if (!u->addr)
		return -1;
	if (g->pf == NVM_PB_FORMAT_NEW && (b->cls & 0xff) == 0xb5) {
		memcpy(u->addr, ce_state, sizeof(ce_state));
		u->naddr = sizeof(ce_state) / sizeof(ce_state[0]);
		u->strict = true;
	} else if (sub_table(g, u)) {
		return -1;
	}
	for (unsigned i = 0; i < DS_HOT && u->naddr; i++)
		u->hot[i] = u->addr[below(g, (uint32_t)u->naddr)];
	return u->naddr ? 0 : -1;
}

/* ---------------------------------------------------------------- commands */

static int header(struct gen *g, nvm_pb_mode mode, uint32_t subch, uint32_t m, uint32_t count)
{
	uint32_t w;
	if (!nvm_pb_encode_method(g->pf, mode, subch, m, count, &w))
		return -1;
	g->s->headers++;
	return put(g, w);
}

static void count_engine(struct gen *g, const struct ds_sub *u, uint32_t m, uint32_t data)
{
	g->s->methods++;
	g->s->engine_methods++;
	g->s->checksum += ds_hash(u->subch, u->cls, m, data);
}

/* A host (or bind) method: INC of n methods below 0x100. */
static int host_inc(struct gen *g, uint32_t subch, uint32_t m, const uint32_t *data, uint32_t n)
{
	if (header(g, NVM_PB_MODE_INC, subch, m, n))
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (put(g, data[i]))
			return -1;
	g->s->methods += n;
	g->s->host_methods += n;
	return 0;
}

/* Methods per header of an INC run: 1-8, short runs the most common (a
 * driver's state is set one to a few registers at a time; vertex attribute,
 * viewport and constant arrays give the longer ones). */
static uint32_t run_len(struct gen *g)
{
	static const uint8_t len[16] = { 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 8, 8, 8 };
	return len[below(g, 16)];
}

/* 0, 1, 0.5, -1, 2, 0.25, 960, 540, 1920, 1080, 0.125, 4, 255, 1/255 (as
 * the driver writes it, rounded), 0.75 */
static const uint32_t floats[] = { 0x00000000, 0x3f800000, 0x3f000000, 0xbf800000, 0x40000000,
	                           0x3e800000, 0x44700000, 0x44070000, 0x44f00000, 0x44870000,
	                           0x3e000000, 0x40800000, 0x437f0000, 0x3b808081, 0x3f400000 };

static bool allowed(const struct ds_sub *u, uint32_t a)
{
	for (size_t i = 0; i < u->naddr; i++)
		if (u->addr[i] == a)
			return true;
	return false;
}

static int engine_cmd(struct gen *g)
{
	uint32_t pick = below(g, g->wsum);
	const struct ds_sub *u = g->sub;
	for (unsigned i = 0; i < g->nsub; i++, u++) {
		if (pick < u->weight)
			break;
		pick -= u->weight;
	}
	uint32_t m = below(g, 8) ? u->hot[below(g, DS_HOT)] : u->addr[below(g, (uint32_t)u->naddr)];
	uint32_t kind = below(g, 100);
	if (g->pf == NVM_PB_FORMAT_NEW && kind < 11) {
		/* IMMD: enables, small enums and counts */
		uint32_t d = below(g, 8) ? below(g, 16) : below(g, 0x2000);
		if (header(g, NVM_PB_MODE_IMMD, u->subch, m, d))
			return -1;
		count_engine(g, u, m, d);
		return 0;
	}
	nvm_pb_mode mode = NVM_PB_MODE_INC;
	/* the old formats have no IMMD: a one-method INC instead */
	uint32_t n = g->pf == NVM_PB_FORMAT_OLD && kind < 14 ? 1 : run_len(g);
	if (kind >= 88) {
		/* NINC: constant / inline data uploads */
		mode = NVM_PB_MODE_NINC;
		n = 4 + below(g, 13);
	} else if (kind >= 85 && g->pf == NVM_PB_FORMAT_NEW) {
		mode = NVM_PB_MODE_1INC; /* a macro call: method then parameters */
		n = 2 + below(g, 3);
	}
	if (mode == NVM_PB_MODE_1INC && u->strict && !allowed(u, m + 4))
		mode = NVM_PB_MODE_NINC;
	for (uint32_t k = 1; mode != NVM_PB_MODE_NINC && k < n; k++)
		if (m + 4 * k > g->maxm || (mode == NVM_PB_MODE_INC && u->strict && !allowed(u, m + 4 * k)))
			n = k;
	if (header(g, mode, u->subch, m, n))
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t mi = mode == NVM_PB_MODE_INC ? m + 4 * i : mode == NVM_PB_MODE_1INC && i ? m + 4 : m;
		uint32_t d = rnd(g);
		/* addresses, sizes and small enums, not noise; floats are the
		 * scales, offsets and constants a driver sets */
		if (mi < 0x4000 && (u->fl[mi >> 5] >> ((mi >> 2) & 7) & 1))
			d = floats[d % (sizeof(floats) / sizeof(floats[0]))];
		else if (!(d & 3))
			d &= 0xff;
		else if ((d & 3) == 1)
			d &= 0xfffff000u;
		if (put(g, d))
			return -1;
		count_engine(g, u, mi, d);
	}
	return 0;
}

/* Now and then a host method: a reference (the driver's fence counter), or
 * in the new format with a semaphore, a release and later an acquire of the
 * value released. */
static int host_cmd(struct gen *g)
{
	const struct ds_config *c = g->c;
	if (c->format == DS_FMT_NEW && c->sem_va && below(g, 2)) {
		bool acquire = g->sem_acquire < g->sem_payload && below(g, 2);
		uint32_t payload = acquire ? ++g->sem_acquire : ++g->sem_payload;
		/* SEM_EXECUTE: RELEASE (1) with RELEASE_WFI, or ACQ_STRICT_GEQ (2) */
		uint32_t d[5] = { (uint32_t)c->sem_va, (uint32_t)(c->sem_va >> 32), payload, 0,
			          acquire ? 2u : 1u | 1u << 20 };
		return host_inc(g, 0, 0x5c, d, 5);
	}
	uint32_t ref = ++g->ref;
	return host_inc(g, 0, 0x50, &ref, 1);
}

static int command(struct gen *g)
{
	return below(g, 100) < 3 ? host_cmd(g) : engine_cmd(g);
}

static int binds(struct gen *g)
{
	for (unsigned i = 0; i < g->nsub; i++) {
		uint32_t d = g->pf == NVM_PB_FORMAT_NEW ? g->sub[i].cls : g->sub[i].handle;
		if (host_inc(g, g->sub[i].subch, 0, &d, 1))
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- segments */

static uint32_t seg_words(struct gen *g)
{
	uint32_t lo = g->c->seg_min ? g->c->seg_min : 4096, hi = g->c->seg_max ? g->c->seg_max : 65536;
	if (hi < lo)
		hi = lo;
	uint32_t b = lo + below(g, hi - lo + 1);
	return b / 4 < DS_MAX_CMD * 2 ? DS_MAX_CMD * 2 : b / 4;
}

/* Closes the current segment at the current end of the stream. */
static int close_seg(struct gen *g)
{
	uint32_t n = (uint32_t)(g->s->nwords - g->seg_off);
	uint64_t end = g->seg_va + 4ull * n;
	if (add_seg(g, g->seg_va, g->seg_off, n, end))
		return -1;
	g->seg_va = end;
	g->seg_off = g->s->nwords;
	g->seg_len = seg_words(g);
	return 0;
}

/* NV04 DMA: the ring is full up to the end: a jump to its start (its own
 * kick, PUT then at the ring start), as nouveau does at a wrap. */
static int wrap(struct gen *g)
{
	const struct ds_config *c = g->c;
	uint32_t w;
	if (close_seg(g) ||
	    !nvm_pb_encode_control(NVM_PB_FORMAT_OLD, c->old_jump ? NVM_PB_CTRL_OLD_JUMP : NVM_PB_CTRL_JUMP,
	                           (uint32_t)c->pb_va, &w))
		return -1;
	size_t off = g->s->nwords;
	if (put(g, w) || add_seg(g, g->seg_va, off, 1, c->pb_va))
		return -1;
	g->seg_va = c->pb_va;
	g->seg_off = g->s->nwords;
	return 0;
}

int ds_generate(const struct ds_config *c, struct ds_stream *out)
{
	memset(out, 0, sizeof(*out));
	struct gen g = { .c = c, .s = out, .rng = 0x5eed0000ull ^ c->seed };
	g.pf = c->format == DS_FMT_NEW ? NVM_PB_FORMAT_NEW : NVM_PB_FORMAT_OLD;
	g.maxm = g.pf == NVM_PB_FORMAT_NEW ? 0x3ffc : 0x1ffc;
	unsigned nb;
	const struct ds_bind *b = c->binds ? c->binds : ds_default_binds(c->format, &nb);
	if (c->binds)
		nb = c->nbinds;
	int rc = 0;
	for (unsigned i = 0; i < nb && i < DS_MAX_BINDS && !rc; i++) {
		rc = sub_init(&g, &g.sub[g.nsub], &b[i]);
		g.wsum += g.sub[g.nsub].weight;
		g.nsub++;
	}
	uint64_t ring = c->format == DS_FMT_NV04_DMA ? (c->ring_bytes ? c->ring_bytes : 256u << 10) / 4 : 0;
	if (!rc && (!nb || c->words < 2 * nb + DS_MAX_CMD || (ring && ring < 4 * DS_MAX_CMD)))
		rc = -1;
	g.seg_va = c->pb_va;
	if (!rc) {
		g.seg_len = seg_words(&g);
		rc = binds(&g);
	}
	while (!rc && out->nwords + DS_MAX_CMD + 1 < c->words) {
		uint32_t used = (uint32_t)(out->nwords - g.seg_off);
		if (ring && (g.seg_va - c->pb_va) / 4 + used + DS_MAX_CMD + 1 > ring)
			rc = wrap(&g);
		else if (used + DS_MAX_CMD > g.seg_len)
			rc = close_seg(&g);
		if (!rc)
			rc = command(&g);
	}
	if (!rc)
		rc = close_seg(&g);
	for (unsigned i = 0; i < g.nsub; i++)
		free(g.sub[i].addr);
	if (rc)
		ds_free(out);
	return rc;
}

void ds_free(struct ds_stream *s)
{
	free(s->words);
	free(s->segs);
	memset(s, 0, sizeof(*s));
}

uint64_t ds_run_sum(uint32_t cls, const nvm_pb_run *r, uint32_t first, uint32_t n)
{
	uint64_t sum = 0;
	for (uint32_t i = first; i < first + n; i++) {
		uint32_t m = nvm_pb_run_method(r, i);
		if (m >= 0x100)
			sum += ds_hash(r->subch, cls, m, r->data[i]);
	}
	return sum;
}
