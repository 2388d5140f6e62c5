/*
 * The pushbuffer fetch loop every front end shares (the Volta PBDMA, the
 * NV04..NV40 DMA pusher, the G80 IB/DMA pusher): translate the stream
 * address GET, read what is mapped there, byte-swap it when the pushbuffer
 * is big-endian, feed it to the decoder, and move GET by what the decoder
 * consumed, within a word budget; a sink's pb_stop_* ends the loop where
 * the decoder stopped. What differs per front end (the translation, its
 * checks between pieces, how much to feed at once, what a sink's control
 * flow does to GET) comes through struct fifo_fetch_ops.
 *
 * A lower part shared by the Host and PFIFO: it knows the core's memory
 * and the decoder, no front end.
 */
#ifndef NVM_FIFO_FETCH_H
#define NVM_FIFO_FETCH_H

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
};

struct fifo_fetch {
	const struct fifo_fetch_ops *ops;
	void *ctx; /* the front end */
	pb_decoder *dec;
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
};

/* Runs the loop from x->get; returns x->words. */
uint32_t fifo_fetch_run(struct fifo_fetch *x);

#endif
