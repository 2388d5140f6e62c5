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
	nvm_pb_mode mode;
	bool masked;
};

struct rec {
	struct rec_method m[REC_MAX];
	size_t nm;
	nvm_pb_header h[REC_MAX];
	size_t nh;
	nvm_pb_control c[REC_MAX];
	size_t nc;
	nvm_pb_error e[REC_MAX];
	size_t ne;
	size_t runs;
	uint64_t accounted;
};

static inline void rec_header(void *ctx, const nvm_pb_header *h)
{
	struct rec *r = ctx;
	if (r->nh < REC_MAX)
		r->h[r->nh++] = *h;
	r->accounted += h->ndwords;
}

static inline void rec_run(void *ctx, const nvm_pb_run *run)
{
	struct rec *r = ctx;
	r->runs++;
	r->accounted += run->ndwords;
	for (uint32_t i = 0; i < run->count && r->nm < REC_MAX; i++)
		r->m[r->nm++] = (struct rec_method){ run->hdr_offset, run->subch, nvm_pb_run_method(run, i),
			                             run->data[i],    run->mode,  run->masked };
}

static inline void rec_control(void *ctx, const nvm_pb_control *c)
{
	struct rec *r = ctx;
	if (r->nc < REC_MAX)
		r->c[r->nc++] = *c;
	r->accounted += c->ndwords;
}

static inline void rec_error(void *ctx, const nvm_pb_error *e)
{
	struct rec *r = ctx;
	if (r->ne < REC_MAX)
		r->e[r->ne++] = *e;
	r->accounted += e->ndwords;
}

static inline nvm_pb_sink rec_sink(struct rec *r)
{
	memset(r, 0, sizeof(*r));
	return (nvm_pb_sink){ r, rec_header, rec_run, rec_control, rec_error, NULL, NULL };
}

/* Decodes dw[0..n) in one piece with cfg into sink s (nvm_pb_finish also ends
 * the segment). */
static inline void decode_all(const nvm_pb_config *cfg, const nvm_pb_sink *s, const uint32_t *dw, size_t n)
{
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, cfg, s);
	nvm_pb_feed(&d, dw, n);
	nvm_pb_finish(&d);
}

/* Decodes one whole segment for chip/format into r. */
static inline void rec_decode(struct rec *r, const char *chip, nvm_pb_format f, bool ib, const uint32_t *dw, size_t n)
{
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup(chip), f);
	cfg.ib_mode = ib;
	nvm_pb_sink s = rec_sink(r);
	decode_all(&cfg, &s, dw, n);
}

#endif
