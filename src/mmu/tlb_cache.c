/*
 * The shared TLB cache (tlb_cache.h).
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tlb_cache.h"

void tlbc_init(struct tlb_cache *c, uint32_t slots, size_t esize)
{
	memset(c, 0, sizeof(*c));
	c->slots = slots > TLBC_MAX_SLOTS ? TLBC_MAX_SLOTS : slots;
	c->esize = esize;
}

void tlbc_fini(struct tlb_cache *c)
{
	/* Only chunks of slots below c->slots are ever allocated. */
	for (size_t i = 0; i < (c->slots + TLBC_CHUNK - 1) / TLBC_CHUNK; i++)
		free(c->chunk[i]);
	free(c->live);
	memset(c, 0, sizeof(*c));
}

void *tlbc_at(struct tlb_cache *c, size_t slot, bool alloc)
{
	uint8_t **p = &c->chunk[slot / TLBC_CHUNK];
	if (!*p && (!alloc || !(*p = calloc(TLBC_CHUNK, c->esize))))
		return NULL;
	return *p + (slot % TLBC_CHUNK) * c->esize;
}

void *tlbc_fill(struct tlb_cache *c, size_t slot)
{
	if (!c->live && !(c->live = malloc(c->slots * sizeof(*c->live))))
		return NULL;
	struct tlbc_hdr *h = tlbc_at(c, slot, true);
	if (!h)
		return NULL;
	if (!h->valid) {
		h->valid = true;
		h->live = (uint32_t)c->nlive;
		c->live[c->nlive++] = (uint32_t)slot;
	}
	return h;
}

void *tlbc_live(struct tlb_cache *c, size_t i)
{
	return tlbc_at(c, c->live[i], false);
}

void tlbc_drop(struct tlb_cache *c, size_t i)
{
	struct tlbc_hdr *h = tlbc_at(c, c->live[i], false);
	h->valid = false;
	uint32_t last = c->live[--c->nlive];
	c->live[i] = last;
	((struct tlbc_hdr *)tlbc_at(c, last, false))->live = (uint32_t)i;
}

size_t tlbc_slot(const struct tlb_cache *c, uint64_t a, uint64_t b, uint64_t d)
{
	uint64_t h = a ^ (b * 0x9e3779b97f4a7c15ull) ^ (d * 0xc2b2ae3d27d4eb4full);
	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (size_t)(h & (c->slots - 1));
}

bool tlbc_strict_check(struct nvm_gpu *gpu, const char *block, const char *flush, uint64_t va, uint64_t pa,
                       const void *cached, const void *fresh, bool (*same)(const void *, const void *))
{
	if (same(cached, fresh))
		return false;
	emit(gpu, NVM_EV_GUEST_ERROR, block, "stale_tlb", va, pa,
	     "cached translation for va 0x%llx used after its page tables changed without %s", (unsigned long long)va,
	     flush);
	return true;
}
