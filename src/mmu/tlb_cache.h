/*
 * The TLB cache shared by the MMUs (the Volta GMMU's TLB and page-directory
 * cache, the G80 VM's per-engine TLBs): a direct-mapped table of fixed-size
 * entries selected by a hash of the key, allocated in pieces on first use,
 * with a list of the valid slots so that a flush costs what it drops, not
 * the table size. What an entry holds and how it is keyed is the user's;
 * every entry starts with a struct tlbc_hdr.
 */
#ifndef NVM_TLB_CACHE_H
#define NVM_TLB_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tlbc_hdr {
	bool valid;
	uint32_t live; /* its index in the live list, while valid */
};

#define TLBC_CHUNK     64u
#define TLBC_MAX_SLOTS 65536u

struct tlb_cache {
	uint32_t slots; /* a power of two, at most TLBC_MAX_SLOTS */
	size_t esize;   /* bytes per entry, a struct beginning with tlbc_hdr */
	uint8_t *chunk[TLBC_MAX_SLOTS / TLBC_CHUNK];
	uint32_t *live; /* slots of the valid entries, unordered; NULL until the first fill */
	size_t nlive;
};

void tlbc_init(struct tlb_cache *c, uint32_t slots, size_t esize);
void tlbc_fini(struct tlb_cache *c);
/* The entry in slot; NULL when its piece is not allocated and alloc is
 * false (or memory ran out: the cache then just misses). */
void *tlbc_at(struct tlb_cache *c, size_t slot, bool alloc);
/* Makes slot's entry valid (adding it to the live list when it was not) and
 * returns it for the caller to fill; NULL when out of memory. */
void *tlbc_fill(struct tlb_cache *c, size_t slot);
/* The i-th live entry, and its removal (the last live entry moves to i). */
void *tlbc_live(struct tlb_cache *c, size_t i);
void tlbc_drop(struct tlb_cache *c, size_t i);
/* A slot for a key of three words. */
size_t tlbc_slot(const struct tlb_cache *c, uint64_t a, uint64_t b, uint64_t d);

/* The strict-TLB check both MMUs offer: the translation a TLB entry gave
 * (cached) against a fresh walk of the page tables (fresh), compared by
 * same(); a difference means the tables changed without a flush and is
 * reported as an NVM_EV_GUEST_ERROR "stale_tlb" of block, at va (what is
 * the flush is named in flush). Returns true when they differ. */
struct nvm_gpu;
bool tlbc_strict_check(struct nvm_gpu *gpu, const char *block, const char *flush, uint64_t va, uint64_t pa,
                       const void *cached, const void *fresh, bool (*same)(const void *, const void *));

#endif
