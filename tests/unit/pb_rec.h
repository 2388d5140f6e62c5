/* A recording sink for the pushbuffer decoder tests: expands runs to one
 * method per data entry and counts the dwords every event accounts for. */
#ifndef PB_REC_H
#define PB_REC_H

#include <string.h>

#include "nvmodel/pushbuf.h"

#define REC_MAX 512

struct rec_method {
	uint64_t hdr_offset;
	uint32_t subch, method, data;
	pb_mode mode;
	bool masked;
};

struct rec {
	struct rec_method m[REC_MAX];
	size_t nm;
	pb_header h[REC_MAX];
	size_t nh;
	pb_control c[REC_MAX];
	size_t nc;
	pb_error e[REC_MAX];
	size_t ne;
	size_t runs;
	uint64_t accounted;
};

static inline void rec_header(void *ctx, const pb_header *h)
{
	struct rec *r = ctx;
	if (r->nh < REC_MAX)
		r->h[r->nh++] = *h;
	r->accounted += h->ndwords;
}

static inline void rec_run(void *ctx, const pb_run *run)
{
	struct rec *r = ctx;
	r->runs++;
	r->accounted += run->ndwords;
	for (uint32_t i = 0; i < run->count && r->nm < REC_MAX; i++)
		r->m[r->nm++] = (struct rec_method){ run->hdr_offset, run->subch, pb_run_method(run, i),
			                             run->data[i],    run->mode,  run->masked };
}

static inline void rec_control(void *ctx, const pb_control *c)
{
	struct rec *r = ctx;
	if (r->nc < REC_MAX)
		r->c[r->nc++] = *c;
	r->accounted += c->ndwords;
}

static inline void rec_error(void *ctx, const pb_error *e)
{
	struct rec *r = ctx;
	if (r->ne < REC_MAX)
		r->e[r->ne++] = *e;
	r->accounted += e->ndwords;
}

static inline pb_sink rec_sink(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	return (pb_sink){ r, rec_header, rec_run, rec_control, rec_error, NULL };
}

/* Decodes dw[0..n) in one piece with cfg into sink s (pb_finish also ends
 * the segment). */
static inline void decode_all(const pb_config *cfg, const pb_sink *s, const uint32_t *dw, size_t n)
{
	pb_decoder d;
	pb_decoder_init(&d, cfg, s);
	pb_feed(&d, dw, n);
	pb_finish(&d);
}

/* Decodes one whole segment for chip/format into r. */
static inline void rec_decode(struct rec *r, const char *chip, pb_format f, bool ib, const uint32_t *dw, size_t n)
{
	pb_config cfg;
	pb_config_init(&cfg, pb_gen_lookup(chip), f);
	cfg.ib_mode = ib;
	pb_sink s = rec_sink(r);
	decode_all(&cfg, &s, dw, n);
}

#endif
