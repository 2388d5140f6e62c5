/* The shared pushbuffer fetch loop (fetch.h). */
#include <string.h>

#include "fetch.h"

static inline uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

/* Words from GET to PUT (UINT32_MAX: not bounded). */
static uint64_t words_to_put(const struct fifo_fetch *x)
{
	if (x->put > x->get)
		return (x->put - x->get) / 4;
	return x->wrap ? ((x->put - x->get) & x->wrap) / 4 : UINT32_MAX;
}

uint32_t fifo_fetch_run(struct fifo_fetch *x)
{
	const struct fifo_fetch_ops *o = x->ops;
	struct fifo_span s = { 0 };
	bool mapped = false;
	while (x->words < x->max) {
		if (x->get == x->put) {
			if (!o->refill || !o->refill(x))
				break;
			mapped = false;
			continue;
		}
		if (o->ready && !o->ready(x))
			break;
		if (!mapped || s.bytes < 4) {
			if (!o->translate(x, &s))
				break;
			mapped = true;
		}
		uint8_t *ptr;
		size_t avail;
		const uint32_t *w;
		uint64_t lim;
		if (s.sparse) {
			ptr = (uint8_t *)mem_zero_page;
			avail = NVM_PAGE_SIZE - (size_t)(s.pa & (NVM_PAGE_SIZE - 1));
		} else if (mem_span(s.mem, s.pa, false, &ptr, &avail) || avail < 4) {
			if (!x->edge_words) {
				o->mem_fault(x, &s);
				break;
			}
			ptr = NULL; /* at a memory edge: one word */
		}
		if (!ptr || (s.pa & 3)) {
			/* Not word aligned (or at an edge): one word, read bytewise. */
			uint8_t b[4];
			if (mem_read(s.mem, s.pa, b, 4)) {
				o->mem_fault(x, &s);
				break;
			}
			memcpy(x->buf, b, 4);
			w = x->buf;
			lim = 1;
		} else {
			w = (const uint32_t *)(const void *)ptr;
			lim = avail / 4;
			if (s.bytes / 4 < lim)
				lim = s.bytes / 4;
			uint64_t to_put = words_to_put(x);
			if (to_put < lim)
				lim = to_put;
			if (x->max - x->words < lim)
				lim = x->max - x->words;
			if (x->swap && lim > FIFO_FETCH_CHUNK)
				lim = FIFO_FETCH_CHUNK;
			if (!lim)
				lim = 1; /* a translation shorter than a word */
		}
		uint32_t n = o->portion ? o->portion(x, (uint32_t)lim) : (uint32_t)lim;
		if (x->swap) {
			for (uint32_t i = 0; i < n; i++)
				x->buf[i] = bswap32(w[i]);
			w = x->buf;
		}
		uint64_t get0 = x->get;
		uint32_t used = (uint32_t)pb_feed(x->dec, w, n);
		if (o->fed) {
			if (!o->fed(x, n, used))
				break;
		} else {
			x->get += 4ull * used;
			x->words += used;
			if (pb_stopped(x->dec))
				break;
		}
		if (x->keep_span && x->get == get0 + 4ull * used) {
			s.pa += 4ull * used;
			s.bytes -= 4ull * used;
		} else {
			mapped = false;
		}
	}
	return x->words;
}
