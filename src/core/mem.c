/*
 * Sparse memory apertures.
 *
 * A 4-level radix tree of 512-pointer nodes indexes 4 KiB pages by page
 * number (36 bits: 2^48 bytes), so touching one byte at 2^39 costs three
 * small nodes and one page, not the range. Reads of untouched memory return
 * zeros from a shared page and allocate nothing.
 *
 * The host memory behind the pages of one leaf node (2 MiB of guest space)
 * is one slab of contiguous address space, reserved when the guest first
 * writes there and filled by the host's page faults as pages are touched:
 * each page is still allocated and charged to the budget alone, and pages
 * keep their addresses. When half the leaf's pages exist, the slab is made
 * one 2 MiB host page (MADV_COLLAPSE, Linux 6.1 and later; elsewhere
 * nothing happens), so that a GPU reading thousands of channels' structures
 * does not pay a page walk for each: the host memory stays below twice what
 * the budget counts. Where no slab can be reserved, pages come from calloc.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define RADIX_BITS   9u
#define RADIX_FANOUT (1u << RADIX_BITS)
#define RADIX_LEVELS 4u
#define PN_LIMIT     (1ull << (RADIX_BITS * RADIX_LEVELS))

#if defined(__SANITIZE_ADDRESS__)
#define MEM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MEM_ASAN 1
#endif
#endif

#if defined(__linux__)
#include <sys/mman.h>
#define MEM_SLABS 1
#ifndef MADV_COLLAPSE
#define MADV_COLLAPSE 25 /* Linux 6.1 */
#endif
#endif

#ifdef MEM_ASAN
#include <sanitizer/asan_interface.h>
/* A poisoned page between two pages, so that a read or write past a page
 * still stops the sanitizer as it did when each page was its own block. */
#define SLAB_STRIDE    (2u * NVM_PAGE_SIZE)
#define POISON(p, n)   ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define SLAB_STRIDE    NVM_PAGE_SIZE
#define POISON(p, n)   ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif
#define SLAB_SIZE  ((size_t)RADIX_FANOUT * SLAB_STRIDE)
#define SLAB_ALIGN ((size_t)2 << 20)  /* a host huge page */
#define SLAB_DENSE (RADIX_FANOUT / 2) /* pages that make a slab one huge page */

/* A node of the last level: the pointers to its pages (first, so that the
 * walks treat it as any node) and where they live. */
struct mem_leaf {
	void *page[RADIX_FANOUT];
	uint8_t *slab; /* the pages' slab, NULL: pages from calloc (or none) */
	unsigned n;    /* pages allocated */
};

const uint8_t mem_zero_page[NVM_PAGE_SIZE];

void mem_init(struct mem_space *m, uint64_t size, uint64_t *budget_used, uint64_t budget)
{
	memset(m, 0, sizeof(*m));
	m->size = size;
	m->budget_used = budget_used;
	m->budget = budget;
	m->last_pn = UINT64_MAX;
}

/* ---------------------------------------------------------------- slabs */

/* Address space for a leaf's pages, aligned to a host huge page, not yet
 * backed (MAP_NORESERVE: untouched pages cost nothing); NULL if refused. */
static uint8_t *slab_new(void)
{
#ifdef MEM_SLABS
	size_t len = SLAB_SIZE + SLAB_ALIGN;
	uint8_t *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	size_t head = (size_t)(-(uintptr_t)p & (SLAB_ALIGN - 1));
	if (head)
		munmap(p, head);
	if (len - head > SLAB_SIZE)
		munmap(p + head + SLAB_SIZE, len - head - SLAB_SIZE);
	POISON(p + head, SLAB_SIZE);
	return p + head;
#else
	return NULL;
#endif
}

static void slab_free(uint8_t *slab)
{
#ifdef MEM_SLABS
	UNPOISON(slab, SLAB_SIZE);
	munmap(slab, SLAB_SIZE);
#else
	(void)slab;
#endif
}

/* A new zeroed page i of leaf l (not yet counted). */
static void *leaf_page_new(struct mem_leaf *l, unsigned i)
{
	if (!l->n && !l->slab)
		l->slab = slab_new();
	if (!l->slab)
		return calloc(1, NVM_PAGE_SIZE);
	uint8_t *p = l->slab + (size_t)i * SLAB_STRIDE; /* zero: never touched, or given back */
	UNPOISON(p, NVM_PAGE_SIZE);
#if defined(MEM_SLABS) && !defined(MEM_ASAN)
	if (l->n + 1 == SLAB_DENSE)
		madvise(l->slab, SLAB_SIZE, MADV_COLLAPSE); /* a speed-up only: may fail */
#endif
	return p;
}

/* Frees page i of leaf l (already uncounted); all: every page of the leaf
 * goes (the slab is unmapped afterwards, no need to give pages back). */
static void leaf_page_free(struct mem_leaf *l, unsigned i, bool all)
{
	if (!l->slab) {
		free(l->page[i]);
	} else if (!all) {
		POISON(l->page[i], NVM_PAGE_SIZE);
#ifdef MEM_SLABS
		/* The host page goes back; the address reads zeros again. */
		madvise(l->page[i], NVM_PAGE_SIZE, MADV_DONTNEED);
#endif
	}
	l->page[i] = NULL;
}

/* Frees the pages [lo, hi) of leaf l; returns how many there were. */
static unsigned leaf_drop(struct mem_leaf *l, unsigned lo, unsigned hi)
{
	unsigned n = 0;
	for (unsigned i = lo; i < hi && n < l->n; i++)
		n += l->page[i] != NULL;
	bool all = n == l->n;
	for (unsigned i = lo, left = n; i < hi && left; i++)
		if (l->page[i]) {
			leaf_page_free(l, i, all);
			left--;
		}
	l->n -= n;
	if (!l->n && l->slab) {
		slab_free(l->slab);
		l->slab = NULL;
	}
	return n;
}

/* Forgets the lookup caches (pages went, or caller ranges changed). */
static void lookup_cache_drop(struct mem_space *m)
{
	m->last_pn = UINT64_MAX;
	m->last_page = NULL;
	memset(m->leaf_tag, 0, sizeof(m->leaf_tag));
	m->epoch++;
}

/* Frees a subtree; *left counts the pages and nodes not yet freed. The
 * RADIX_LEVELS - level nodes from the root to this one are freed last, so
 * once *left is down to them nothing is left below and the scan of the 512
 * slots ends (a GPU that touched a few pages frees them without reading
 * every slot). */
static void free_node(void **node, unsigned level, uint64_t *left)
{
	if (!node)
		return;
	if (level == 0) {
		*left -= leaf_drop((struct mem_leaf *)node, 0, RADIX_FANOUT);
	} else {
		for (unsigned i = 0; i<RADIX_FANOUT && * left> RADIX_LEVELS - level; i++)
			free_node(node[i], level - 1, left);
	}
	free(node);
	--*left;
}

void mem_fini(struct mem_space *m)
{
	/* Give the budget back: a shared pool outlives this GPU. */
	*m->budget_used -= (m->pages + m->nodes) * NVM_PAGE_SIZE;
	uint64_t left = m->pages + m->nodes;
	free_node(m->root, RADIX_LEVELS - 1, &left);
	m->root = NULL;
	m->pages = m->nodes = 0;
	lookup_cache_drop(m);
	free(m->watch);
	m->watch = NULL;
	m->nwatch = m->capwatch = 0;
	free(m->range);
	m->range = NULL;
	m->nrange = 0;
}

static bool charge(struct mem_space *m)
{
	if (m->budget && *m->budget_used + NVM_PAGE_SIZE > m->budget)
		return false;
	*m->budget_used += NVM_PAGE_SIZE;
	return true;
}

/* A charged allocation that failed after all. */
static void *uncharge(struct mem_space *m)
{
	*m->budget_used -= NVM_PAGE_SIZE;
	return NULL;
}

/* The leaf over page pn (created with alloc), through the leaf cache. */
static struct mem_leaf *leaf_lookup(struct mem_space *m, uint64_t pn, bool alloc)
{
	uint64_t tag = (pn >> RADIX_BITS) + 1;
	unsigned c = (unsigned)tag & (MEM_LEAF_CACHE - 1);
	if (m->leaf_tag[c] == tag)
		return m->leaf[c];
	void ***slot = (void ***)&m->root;
	for (unsigned level = RADIX_LEVELS; level-- > 0;) {
		if (!*slot) {
			if (!alloc || !charge(m))
				return NULL;
			/* Interior nodes and data pages are both charged 4 KiB. */
			*slot = level ? calloc(RADIX_FANOUT, sizeof(void *)) : calloc(1, sizeof(struct mem_leaf));
			if (!*slot)
				return uncharge(m);
			m->nodes++;
		}
		if (!level)
			break;
		unsigned idx = (unsigned)(pn >> (level * RADIX_BITS)) & (RADIX_FANOUT - 1);
		slot = (void ***)&(*slot)[idx];
	}
	m->leaf_tag[c] = tag;
	m->leaf[c] = *slot;
	return m->leaf[c];
}

/* Finds (and with alloc, creates) the page for page number pn. */
static uint8_t *page_lookup(struct mem_space *m, uint64_t pn, bool alloc)
{
	if (pn == m->last_pn)
		return m->last_page;
	struct mem_leaf *l = leaf_lookup(m, pn, alloc);
	if (!l)
		return NULL;
	unsigned i = (unsigned)pn & (RADIX_FANOUT - 1);
	if (!l->page[i]) {
		if (!alloc || !charge(m))
			return NULL;
		l->page[i] = leaf_page_new(l, i);
		if (!l->page[i])
			return uncharge(m);
		l->n++;
		m->pages++;
	}
	m->last_pn = pn;
	m->last_page = (uint8_t *)l->page[i];
	return m->last_page;
}

static bool in_range(const struct mem_space *m, uint64_t addr, size_t len)
{
	return addr < m->size && len <= m->size - addr && (addr >> NVM_PAGE_SHIFT) < PN_LIMIT;
}

/* The caller range holding page pn, or NULL (few ranges: a scan). */
static const struct mem_range *range_of(const struct mem_space *m, uint64_t pn)
{
	for (size_t i = 0; i < m->nrange; i++)
		if (pn >= m->range[i].lo && pn < m->range[i].hi)
			return &m->range[i];
	return NULL;
}

/* mem_span's answer for addr in page: the bytes from addr to the page's
 * end, no more than the aperture holds. */
static inline nvm_status span_out(const struct mem_space *m, uint8_t *page, uint64_t addr, uint8_t **ptr, size_t *avail)
{
	size_t off = (size_t)(addr & (NVM_PAGE_SIZE - 1));
	*ptr = page + off;
	*avail = NVM_PAGE_SIZE - off;
	if (*avail > m->size - addr)
		*avail = (size_t)(m->size - addr);
	return NVM_OK;
}

/* mem_span beyond its cached path. */
static __attribute__((noinline)) nvm_status span_slow(struct mem_space *m, uint64_t addr, bool for_write, uint8_t **ptr,
                                                      size_t *avail)
{
	if (!in_range(m, addr, 1))
		return NVM_ERR_RANGE;
	uint64_t pn = addr >> NVM_PAGE_SHIFT;
	uint8_t *page;
	const struct mem_range *r;
	if (m->nrange && pn != m->last_pn && (r = range_of(m, pn))) {
		if (!r->base)
			return NVM_ERR_NOPTR;
		page = r->base + ((pn - r->lo) << NVM_PAGE_SHIFT);
		m->last_pn = pn; /* page_lookup's cache serves caller pages too */
		m->last_page = page;
	} else {
		page = page_lookup(m, pn, for_write);
	}
	if (!page) {
		if (for_write)
			return NVM_ERR_NOMEM;
		page = (uint8_t *)mem_zero_page;
	}
	return span_out(m, page, addr, ptr, avail);
}

/* The page of the last lookup, or one the leaf cache points at when no
 * caller range could hold it, is what span_slow would find: taken without
 * a call, in a function that saves no registers (mem_span is the model's
 * most frequent memory lookup: RAMFC, USERD, GPFIFO entries, semaphores). */
nvm_status mem_span(struct mem_space *m, uint64_t addr, bool for_write, uint8_t **ptr, size_t *avail)
{
	uint64_t pn = addr >> NVM_PAGE_SHIFT, tag = (pn >> RADIX_BITS) + 1;
	unsigned c = (unsigned)tag & (MEM_LEAF_CACHE - 1);
	uint8_t *page;
	if (addr >= m->size)
		return NVM_ERR_RANGE;
	if (pn == m->last_pn) {
		page = m->last_page;
	} else if (!m->nrange && m->leaf_tag[c] == tag && pn < PN_LIMIT &&
	           (page = ((struct mem_leaf *)m->leaf[c])->page[pn & (RADIX_FANOUT - 1)])) {
		m->last_pn = pn; /* as page_lookup */
		m->last_page = page;
	} else {
		return span_slow(m, addr, for_write, ptr, avail);
	}
	return span_out(m, page, addr, ptr, avail);
}

/* Bytes at addr (len of them at most) behind a caller's callbacks, moved
 * in one call up to the range's end; 0 when addr is not in such a range. */
static size_t io_copy(struct mem_space *m, uint64_t addr, uint8_t *buf, size_t len, bool write, nvm_status *st)
{
	const struct mem_range *r = m->nrange ? range_of(m, addr >> NVM_PAGE_SHIFT) : NULL;
	if (!r || r->base)
		return 0;
	uint64_t left = (r->hi << NVM_PAGE_SHIFT) - addr;
	size_t n = len < left ? len : (size_t)left;
	int rc = write ? r->io.write(r->io.ctx, addr, buf, n) : r->io.read(r->io.ctx, addr, buf, n);
	*st = rc ? NVM_ERR_RANGE : NVM_OK;
	return n;
}

/* The one copy loop of both directions: page by page through mem_span,
 * caller callbacks a range at a time. */
static nvm_status mem_copy(struct mem_space *m, uint64_t addr, uint8_t *buf, size_t len, bool write)
{
	if (!in_range(m, addr, len))
		return NVM_ERR_RANGE;
	while (len) {
		uint8_t *p;
		size_t n;
		nvm_status st = NVM_OK;
		if ((n = io_copy(m, addr, buf, len, write, &st)) == 0) {
			size_t avail;
			st = mem_span(m, addr, write, &p, &avail);
			if (!st) {
				n = avail < len ? avail : len;
				if (write)
					memcpy(p, buf, n);
				else
					memcpy(buf, p, n);
			}
		}
		if (st)
			return st;
		buf += n;
		addr += n;
		len -= n;
	}
	return NVM_OK;
}

nvm_status mem_read(struct mem_space *m, uint64_t addr, void *buf, size_t len)
{
	return mem_copy(m, addr, buf, len, false);
}

nvm_status mem_write(struct mem_space *m, uint64_t addr, const void *buf, size_t len)
{
	/* mem_copy only reads through buf when write is true. */
	nvm_status st = mem_copy(m, addr, (uint8_t *)(uintptr_t)buf, len, true);
	if (!st && m->nwatch)
		mem_notify_write(m, addr, len);
	return st;
}

/* ---------------------------------------------------------------- caller ranges */

/* Frees the model's pages in [lo, hi) under a node of the given level
 * whose first page is base (interior nodes stay: mem_fini frees them). */
static void drop_pages(struct mem_space *m, void **node, unsigned level, uint64_t base, uint64_t lo, uint64_t hi)
{
	if (!level) {
		unsigned a = lo > base ? (unsigned)(lo - base) : 0;
		unsigned b = hi - base < RADIX_FANOUT ? (unsigned)(hi - base) : RADIX_FANOUT;
		unsigned n = leaf_drop((struct mem_leaf *)node, a, b);
		m->pages -= n;
		*m->budget_used -= (uint64_t)n * NVM_PAGE_SIZE;
		return;
	}
	uint64_t per = 1ull << (level * RADIX_BITS); /* pages under one slot */
	for (unsigned i = 0; i < RADIX_FANOUT; i++) {
		uint64_t first = base + i * per;
		if (first >= hi)
			break;
		if (node[i] && first + per > lo)
			drop_pages(m, node[i], level - 1, first, lo, hi);
	}
}

nvm_status mem_map(struct mem_space *m, uint64_t addr, uint64_t size, uint8_t *base, const nvm_mem_io *io)
{
	if ((addr | size) & (NVM_PAGE_SIZE - 1))
		return NVM_ERR_ALIGN;
	if (!size || !in_range(m, addr, size))
		return NVM_ERR_RANGE;
	uint64_t lo = addr >> NVM_PAGE_SHIFT, hi = lo + (size >> NVM_PAGE_SHIFT);
	size_t at = 0;
	for (; at < m->nrange && m->range[at].lo < hi; at++)
		if (m->range[at].hi > lo)
			return NVM_ERR_ARG; /* overlaps a caller range */
	if (m->nrange == NVM_MEM_MAX_RANGES)
		return NVM_ERR_NOMEM;
	struct mem_range *v = realloc(m->range, (m->nrange + 1) * sizeof(*v));
	if (!v)
		return NVM_ERR_NOMEM;
	m->range = v;
	memmove(&v[at + 1], &v[at], (m->nrange - at) * sizeof(*v));
	v[at] = (struct mem_range){ lo, hi, base, io ? *io : (nvm_mem_io){ 0 } };
	m->nrange++;
	if (m->root)
		drop_pages(m, m->root, RADIX_LEVELS - 1, 0, lo, hi);
	lookup_cache_drop(m);
	return NVM_OK;
}

static bool page_each(void **node, unsigned level, uint64_t base,
                      bool (*fn)(void *ctx, uint64_t pn, const uint8_t *page), void *ctx)
{
	uint64_t per = 1ull << (level * RADIX_BITS);
	for (unsigned i = 0; i < RADIX_FANOUT; i++) {
		if (!node[i])
			continue;
		if (level ? !page_each(node[i], level - 1, base + i * per, fn, ctx) : !fn(ctx, base + i, node[i]))
			return false;
	}
	return true;
}

void mem_page_each(struct mem_space *m, bool (*fn)(void *ctx, uint64_t pn, const uint8_t *page), void *ctx)
{
	if (m->root)
		page_each(m->root, RADIX_LEVELS - 1, 0, fn, ctx);
}

void mem_drop_model_pages(struct mem_space *m)
{
	if (m->root)
		drop_pages(m, m->root, RADIX_LEVELS - 1, 0, 0, PN_LIMIT);
	lookup_cache_drop(m);
}

bool mem_range_has(const struct mem_space *m, uint64_t pn)
{
	return range_of(m, pn) != NULL;
}

nvm_status mem_unmap(struct mem_space *m, uint64_t addr, uint64_t size)
{
	uint64_t lo = addr >> NVM_PAGE_SHIFT, hi = lo + (size >> NVM_PAGE_SHIFT);
	for (size_t i = 0; i < m->nrange; i++) {
		if (m->range[i].lo != lo || m->range[i].hi != hi || ((addr | size) & (NVM_PAGE_SIZE - 1)))
			continue;
		memmove(&m->range[i], &m->range[i + 1], (m->nrange - i - 1) * sizeof(m->range[0]));
		m->nrange--;
		lookup_cache_drop(m);
		return NVM_OK;
	}
	return NVM_ERR_NOENT;
}

/* ---------------------------------------------------------------- watches */

nvm_status mem_watch_add(struct mem_space *m, uint64_t lo, uint64_t len, mem_watch_fn fn, void *ctx, uint64_t arg)
{
	if (m->nwatch == m->capwatch) {
		if (m->capwatch > UINT32_MAX / 2)
			return NVM_ERR_NOMEM;
		uint32_t cap = m->capwatch ? m->capwatch * 2 : 8;
		struct mem_watch *w = realloc(m->watch, cap * sizeof(*w));
		if (!w)
			return NVM_ERR_NOMEM;
		m->watch = w;
		m->capwatch = cap;
	}
	m->watch[m->nwatch++] = (struct mem_watch){ lo, lo + len < lo ? UINT64_MAX : lo + len, fn, ctx, arg };
	return NVM_OK;
}

void mem_watch_del(struct mem_space *m, mem_watch_fn fn, void *ctx, uint64_t arg)
{
	size_t j = 0;
	for (size_t i = 0; i < m->nwatch; i++)
		if (m->watch[i].fn != fn || m->watch[i].ctx != ctx || m->watch[i].arg != arg)
			m->watch[j++] = m->watch[i];
	m->nwatch = j;
}

void mem_notify_write(struct mem_space *m, uint64_t addr, uint64_t len)
{
	uint64_t end = addr + len < addr ? UINT64_MAX : addr + len;
	/* A callback may not add or remove watches (it only notes the hit), so
	 * the array is stable during the scan. */
	for (size_t i = 0; i < m->nwatch; i++)
		if (addr < m->watch[i].hi && m->watch[i].lo < end)
			m->watch[i].fn(m->watch[i].ctx, m->watch[i].arg);
}
