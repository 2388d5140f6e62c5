/*
 * The pushbuffer fetch loop every front end shares (the Volta PBDMA, the
 * NV04..NV40 DMA pusher, the G80 IB/DMA pusher): translate the stream
 * address GET, read what is mapped there, byte-swap it when the pushbuffer
 * is big-endian, feed it to the decoder, and move GET by what the decoder
 * consumed, within a word budget; a sink's nvm_pb_stop_* ends the loop where
 * the decoder stopped. What differs per front end (the translation, its
 * checks between pieces, how much to feed at once, what a sink's control
 * flow does to GET) comes through struct fifo_fetch_ops.
 *
 * A lower part shared by the Host and PFIFO: it knows the core's memory
 * and the decoder, no front end.
 */
#ifndef NVM_FIFO_FETCH_H
#define NVM_FIFO_FETCH_H

#include <string.h>

#include "core/core.h"
#include "nvmodel/pushbuf.h"

#define FIFO_FETCH_CHUNK 1024u /* words byte-swapped at once */

/* Where GET lands: bytes readable from pa in *mem, linearly. */
struct fifo_span {
	struct mem_space *mem;
	uint64_t pa;
	uint64_t bytes; /* mapped linearly from pa (the translation's reach) */
	bool sparse;    /* reads as zeros (a sparse page) */
};

struct fifo_fetch;

struct fifo_fetch_ops {
	/* Before each piece (GET != PUT): false ends the loop (out of time,
	 * no room for method data, a limit error). NULL: always ready. */
	bool (*ready)(struct fifo_fetch *x);
	/* GET == PUT: fetch the next piece of work (the G80's IB entry), moving
	 * GET / PUT; false ends the loop. NULL: the loop ends. */
	bool (*refill)(struct fifo_fetch *x);
	/* Translates GET; false ends the loop (a fault the front end has
	 * recorded, or the end of the piece it wanted read). */
	bool (*translate)(struct fifo_fetch *x, struct fifo_span *s);
	/* The memory behind GET cannot be read (the loop ends). */
	void (*mem_fault)(struct fifo_fetch *x, const struct fifo_span *s);
	/* Of `avail` (>= 1) readable words, how many to feed now (1..avail);
	 * the front end may note them for its sinks. NULL: all. */
	uint32_t (*portion)(struct fifo_fetch *x, uint32_t avail);
	/* After a feed of n words of which the decoder consumed `used`: moves
	 * GET (a jump, a call) and counts x->words; false ends the loop. NULL:
	 * GET and words move by `used`, and a decoder stop ends the loop. */
	bool (*fed)(struct fifo_fetch *x, uint32_t n, uint32_t used);
	/* Feeds the n words at w to x->dec and returns the words consumed, as
	 * nvm_pb_feed does (a stop leaves nvm_pb_stopped set). NULL: nvm_pb_feed. */
	uint32_t (*feed)(struct fifo_fetch *x, const uint32_t *w, uint32_t n);
};

struct fifo_fetch {
	const struct fifo_fetch_ops *ops;
	void *ctx; /* the front end */
	nvm_pb_decoder *dec;
	uint64_t get, put; /* stream byte addresses; GET == PUT: nothing to read */
	/* PUT below GET: words to PUT are ((PUT - GET) & wrap) / 4 (a ring);
	 * 0: not bounded by PUT. */
	uint64_t wrap;
	uint32_t max;    /* words to read at most */
	uint32_t words;  /* words read so far */
	bool swap;       /* big-endian pushbuffer: byte-swap each word */
	bool edge_words; /* where memory cannot be mapped, read word by word (else a fault) */
	bool keep_span;  /* one translation serves until its span is used up (else one per piece) */
	/* Room for words read bytewise or byte-swapped: FIFO_FETCH_CHUNK words
	 * with swap, else one. */
	uint32_t *buf;
	const uint32_t *at; /* for portion(): the readable words at GET (not yet byte-swapped) */
};

/* Runs the loop from x->get; returns x->words. */
static inline uint32_t fifo_bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

/* Words from GET to PUT (UINT32_MAX: not bounded). */
static inline uint64_t fifo_words_to_put(const struct fifo_fetch *x)
{
	if (x->put > x->get)
		return (x->put - x->get) / 4;
	return x->wrap ? ((x->put - x->get) & x->wrap) / 4 : UINT32_MAX;
}

/* Inline, so that each front end's call sees its const ops table and the
 * compiler drops the hooks it leaves NULL (the PBDMA's loop is hot). */
static inline __attribute__((always_inline)) uint32_t fifo_fetch_run(struct fifo_fetch *x)
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
		nvm_status ms;
		if (s.sparse) {
			ptr = (uint8_t *)mem_zero_page;
			avail = NVM_PAGE_SIZE - (size_t)(s.pa & (NVM_PAGE_SIZE - 1));
		} else if ((ms = mem_span(s.mem, s.pa, false, &ptr, &avail)) || avail < 4) {
			/* At a memory edge, or in caller memory behind callbacks
			 * (no pointer): one word through mem_read. */
			if (ms != NVM_ERR_NOPTR && !x->edge_words) {
				o->mem_fault(x, &s);
				break;
			}
			ptr = NULL;
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
			uint64_t to_put = fifo_words_to_put(x);
			if (to_put < lim)
				lim = to_put;
			if (x->max - x->words < lim)
				lim = x->max - x->words;
			if (x->swap && lim > FIFO_FETCH_CHUNK)
				lim = FIFO_FETCH_CHUNK;
			if (!lim)
				lim = 1; /* a translation shorter than a word */
		}
		x->at = w;
		uint32_t n = o->portion ? o->portion(x, (uint32_t)lim) : (uint32_t)lim;
		if (x->swap) {
			for (uint32_t i = 0; i < n; i++)
				x->buf[i] = fifo_bswap32(w[i]);
			w = x->buf;
		}
		uint64_t get0 = x->get;
		uint32_t used = o->feed ? o->feed(x, w, n) : (uint32_t)nvm_pb_feed(x->dec, w, n);
		if (o->fed) {
			if (!o->fed(x, n, used))
				break;
		} else {
			x->get += 4ull * used;
			x->words += used;
			if (nvm_pb_stopped(x->dec))
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

#endif
