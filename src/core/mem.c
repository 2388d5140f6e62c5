/*
 * Sparse memory apertures.
 *
 * A 4-level radix tree of 512-pointer nodes indexes 4 KiB pages by page
 * number (36 bits: 2^48 bytes), so touching one byte at 2^39 costs three
 * small nodes and one page, not the range. Reads of untouched memory return
 * zeros from a shared page and allocate nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define RADIX_BITS   9u
#define RADIX_FANOUT (1u << RADIX_BITS)
#define RADIX_LEVELS 4u
#define PN_LIMIT     (1ull << (RADIX_BITS * RADIX_LEVELS))

const uint8_t mem_zero_page[NVM_PAGE_SIZE];

void mem_init(struct mem_space *m, uint64_t size, uint64_t *budget_used, uint64_t budget)
{
	memset(m, 0, sizeof(*m));
	m->size = size;
	m->budget_used = budget_used;
	m->budget = budget;
	m->last_pn = UINT64_MAX;
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
	for (unsigned i = 0; i<RADIX_FANOUT && * left> RADIX_LEVELS - level; i++) {
		if (!node[i])
			continue;
		if (level == 0) {
			free(node[i]);
			--*left;
		} else {
			free_node(node[i], level - 1, left);
		}
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
	m->last_pn = UINT64_MAX;
	m->last_page = NULL;
	free(m->watch);
	m->watch = NULL;
	m->nwatch = m->capwatch = 0;
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

/* Finds (and with alloc, creates) the page for page number pn. */
static uint8_t *page_lookup(struct mem_space *m, uint64_t pn, bool alloc)
{
	if (pn == m->last_pn)
		return m->last_page;
	void ***slot = (void ***)&m->root;
	for (unsigned level = RADIX_LEVELS; level-- > 0;) {
		if (!*slot) {
			if (!alloc || !charge(m))
				return NULL;
			/* Interior nodes and data pages are both 4 KiB. */
			*slot = calloc(RADIX_FANOUT, sizeof(void *));
			if (!*slot)
				return uncharge(m);
			m->nodes++;
		}
		unsigned idx = (unsigned)(pn >> (level * RADIX_BITS)) & (RADIX_FANOUT - 1);
		slot = (void ***)&(*slot)[idx];
	}
	if (!*slot) {
		if (!alloc || !charge(m))
			return NULL;
		*slot = calloc(1, NVM_PAGE_SIZE);
		if (!*slot)
			return uncharge(m);
		m->pages++;
	}
	m->last_pn = pn;
	m->last_page = (uint8_t *)*slot;
	return m->last_page;
}

static bool in_range(const struct mem_space *m, uint64_t addr, size_t len)
{
	return addr < m->size && len <= m->size - addr && (addr >> NVM_PAGE_SHIFT) < PN_LIMIT;
}

nvm_status mem_span(struct mem_space *m, uint64_t addr, bool for_write, uint8_t **ptr, size_t *avail)
{
	if (!in_range(m, addr, 1))
		return NVM_ERR_RANGE;
	size_t off = (size_t)(addr & (NVM_PAGE_SIZE - 1));
	uint8_t *page = page_lookup(m, addr >> NVM_PAGE_SHIFT, for_write);
	if (!page) {
		if (for_write)
			return NVM_ERR_NOMEM;
		page = (uint8_t *)mem_zero_page;
	}
	*ptr = page + off;
	*avail = NVM_PAGE_SIZE - off;
	/* Do not hand out more than the aperture holds. */
	if (*avail > m->size - addr)
		*avail = (size_t)(m->size - addr);
	return NVM_OK;
}

/* The one copy loop of both directions: page by page through mem_span. */
static nvm_status mem_copy(struct mem_space *m, uint64_t addr, uint8_t *buf, size_t len, bool write)
{
	if (!in_range(m, addr, len))
		return NVM_ERR_RANGE;
	while (len) {
		uint8_t *p;
		size_t avail;
		nvm_status st = mem_span(m, addr, write, &p, &avail);
		if (st)
			return st;
		size_t n = avail < len ? avail : len;
		if (write)
			memcpy(p, buf, n);
		else
			memcpy(buf, p, n);
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

/* ---------------------------------------------------------------- watches */

nvm_status mem_watch_add(struct mem_space *m, uint64_t lo, uint64_t len, mem_watch_fn fn, void *ctx, uint64_t arg)
{
	if (m->nwatch == m->capwatch) {
		size_t cap = m->capwatch ? m->capwatch * 2 : 8;
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
