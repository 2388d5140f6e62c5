/*
 * The pushbuffer decoder on arbitrary bytes, both formats. Byte 0 picks the
 * chip profile, format and mode; byte 1 the piece size the stream is fed in
 * (pieces are copied to exact-size heap buffers so ASan sees any read past
 * a piece). Checks: every dword is accounted for exactly once, offsets only
 * move forward, every run's data lies inside the piece it came from, the
 * batched sinks (sink.runs, and sink.runs with sink.hdrs) see the same runs,
 * and a sink that stops the decoder every few methods (one run at a time,
 * in batches, as headers) sees the same methods.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvmodel/pushbuf.h"

struct runrec {
	uint64_t offset;
	uint32_t count, method0, data0;
};

struct acct {
	struct runrec *runs; /* every run seen (for the batch comparison) */
	size_t nruns, cap, cmp;
	bool comparing;
	uint64_t dwords;
	uint64_t next; /* lowest offset not yet accounted */
	const uint32_t *piece;
	size_t piece_n;
	const uint32_t *all; /* the whole stream */
	uint64_t errs[64];   /* the first errors (offset << 8 | code) */
	size_t nerrs, errcmp;
	bool err_comparing;
};

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_pb_decode: %s\n", what);
		abort();
	}
}

/* An event accounting for n dwords at offset off must start at `next`. */
static void take(struct acct *a, uint64_t off, uint32_t n)
{
	if (!n)
		return;
	check(off == a->next, "accounted dwords out of order or twice");
	a->next += n;
	a->dwords += n;
}

static void on_header(void *ctx, const nvm_pb_header *h)
{
	struct acct *a = ctx;
	check(h->subch < 8 && h->mode <= NVM_PB_MODE_IMMD, "bad header fields");
	take(a, h->offset, h->ndwords);
}

static void record(struct acct *a, const nvm_pb_run *r)
{
	struct runrec x = { r->offset, r->count, nvm_pb_run_method(r, 0), r->count ? r->data[0] : 0 };
	if (a->comparing) {
		check(a->cmp < a->nruns, "batched decode gives more runs");
		struct runrec *y = &a->runs[a->cmp++];
		check(x.offset == y->offset && x.count == y->count && x.method0 == y->method0 && x.data0 == y->data0,
		      "batched decode gives a different run");
		return;
	}
	if (a->nruns == a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 64;
		struct runrec *nr = realloc(a->runs, cap * sizeof(*nr));
		check(nr != NULL, "out of memory");
		a->runs = nr;
		a->cap = cap;
	}
	a->runs[a->nruns++] = x;
}

static void on_run(void *ctx, const nvm_pb_run *r)
{
	struct acct *a = ctx;
	record(a, r);
	if (r->mode != NVM_PB_MODE_IMMD) {
		check(r->count == r->ndwords, "run count != ndwords");
		check(r->data >= a->piece && r->data + r->count <= a->piece + a->piece_n, "run data outside its piece");
		for (uint32_t i = 0; i < r->count; i++)
			check(r->data[i] == a->all[r->offset + i], "run data is not the stream's dword at its offset");
	}
	take(a, r->offset, r->ndwords);
}

static void on_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	struct acct *a = ctx;
	check(n >= 1 && n <= NVM_PB_BATCH, "batch size");
	for (size_t i = 0; i < n; i++) {
		if (r[i].mode != NVM_PB_MODE_IMMD)
			check(r[i].data >= a->piece && r[i].data + r[i].count <= a->piece + a->piece_n,
			      "batched run data outside its piece");
		record(a, &r[i]);
	}
}

/* sink.hdrs: the header pointers and their words, in the piece, each run
 * (nvm_pb_hdrs_run) recorded as on_runs records it. */
static void on_hdrs(void *ctx, const nvm_pb_hdrs *b)
{
	struct acct *a = ctx;
	check(b->n >= 1 && b->n <= NVM_PB_BATCH, "hdrs batch size");
	uint64_t methods = 0;
	for (size_t i = 0; i < b->n; i++) {
		nvm_pb_run r;
		uint32_t immd;
		check(b->word[i] == *b->hdr[i], "hdrs word is not its header's");
		nvm_pb_hdrs_run(b, i, &r, &immd);
		check(b->hdr[i] >= a->piece && b->hdr[i] + 1 + r.ndwords <= a->piece + a->piece_n,
		      "hdrs header or data outside its piece");
		check(a->all[r.hdr_offset] == b->word[i], "hdrs header is not the stream's dword at its offset");
		methods += r.count;
		record(a, &r);
	}
	check(methods == nvm_pb_hdrs_methods(b), "nvm_pb_hdrs_methods");
}

/* The same stream through the batched sink (no header callback, so batches
 * fill up), with or without sink.hdrs, must give the same runs in the same
 * order. */
static void batch_compare(const nvm_pb_config *cfg, const uint32_t *all, size_t n, size_t piece, bool segs,
                          struct acct *a, bool hdrs)
{
	a->comparing = true;
	a->cmp = 0;
	nvm_pb_sink sink = { .ctx = a, .runs = on_runs, .hdrs = hdrs ? on_hdrs : NULL };
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, cfg, &sink);
	for (size_t i = 0; i < n; i += piece) {
		size_t len = n - i < piece ? n - i : piece;
		uint32_t *p = malloc(len * sizeof(*p));
		if (!p)
			break;
		memcpy(p, all + i, len * sizeof(*p));
		a->piece = p;
		a->piece_n = len;
		nvm_pb_feed(&d, p, len);
		if (segs)
			nvm_pb_segment_end(&d);
		free(p);
	}
	nvm_pb_finish(&d);
	check(a->cmp == a->nruns, "batched decode gives fewer runs");
}

static void on_control(void *ctx, const nvm_pb_control *c)
{
	take(ctx, c->offset, c->ndwords);
}

static void on_error(void *ctx, const nvm_pb_error *e)
{
	struct acct *a = ctx;
	check((unsigned)e->code < NVM_PB_ERR_COUNT, "bad error code");
	uint64_t key = e->offset << 8 | (uint64_t)e->code;
	if (a->err_comparing) {
		/* the errors-only sink (pb check) takes a fast path over methods */
		if (a->errcmp < a->nerrs)
			check(a->errs[a->errcmp] == key, "errors-only decode reports another error");
		a->errcmp++;
		return;
	}
	if (a->nerrs < sizeof(a->errs) / sizeof(a->errs[0]))
		a->errs[a->nerrs++] = key;
	else
		a->errcmp = SIZE_MAX; /* too many to compare */
	take(a, e->offset, e->ndwords);
}

/* The same stream through a sink with only an error callback gives the same
 * errors at the same offsets. */
static void errors_compare(const nvm_pb_config *cfg, const uint32_t *all, size_t n, size_t piece, bool segments,
                           struct acct *a)
{
	if (a->errcmp == SIZE_MAX)
		return;
	a->err_comparing = true;
	a->errcmp = 0;
	nvm_pb_sink sink = { .ctx = a, .error = on_error };
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, cfg, &sink);
	for (size_t i = 0; i < n; i += piece) {
		size_t len = n - i < piece ? n - i : piece;
		nvm_pb_feed(&d, all + i, len);
		if (segments)
			nvm_pb_segment_end(&d);
	}
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	check(a->errcmp == a->nerrs, "errors-only decode reports a different number of errors");
}

/* Back-pressure: a sink that takes only a few methods per feed and stops
 * the decoder (nvm_pb_stop_run), the feed resumed where nvm_pb_feed says it
 * stopped, must see the same methods as one that takes everything. */
struct stopper {
	nvm_pb_decoder *d;
	uint32_t budget;
	bool record; /* the reference pass: take everything */
	uint64_t *m; /* method << 33 | masked << 32 | data */
	size_t nm, cap, cmp;
	size_t nerr;
};

/* Takes what the budget allows of run r; returns the entries taken. */
static uint32_t st_take(struct stopper *s, const nvm_pb_run *r)
{
	uint32_t k = r->count;
	if (!s->record && s->budget < k)
		k = s->budget;
	for (uint32_t i = 0; i < k; i++) {
		uint64_t x = (uint64_t)nvm_pb_run_method(r, i) << 33 | (uint64_t)r->masked << 32 | r->data[i];
		if (s->record) {
			if (s->nm == s->cap) {
				size_t cap = s->cap ? s->cap * 2 : 256;
				uint64_t *nm = realloc(s->m, cap * sizeof(*nm));
				check(nm != NULL, "out of memory");
				s->m = nm;
				s->cap = cap;
			}
			s->m[s->nm++] = x;
		} else {
			check(s->cmp < s->nm && s->m[s->cmp] == x, "a stopped and resumed decode gives another method");
			s->cmp++;
		}
	}
	if (!s->record)
		s->budget -= k;
	return k;
}

static void st_run(void *ctx, const nvm_pb_run *r)
{
	struct stopper *s = ctx;
	uint32_t k = st_take(s, r);
	if (k < r->count)
		nvm_pb_stop_run(s->d, r, k);
}

static void st_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	struct stopper *s = ctx;
	for (size_t i = 0; i < n && !nvm_pb_stopped(s->d); i++) {
		uint32_t k = st_take(s, &r[i]);
		if (k < r[i].count)
			nvm_pb_stop_run(s->d, &r[i], k);
	}
}

/* sink.hdrs: the same, the stop given with nvm_pb_stop_hdr. */
static void st_hdrs(void *ctx, const nvm_pb_hdrs *b)
{
	struct stopper *s = ctx;
	for (size_t i = 0; i < b->n && !nvm_pb_stopped(s->d); i++) {
		nvm_pb_run r;
		uint32_t immd;
		nvm_pb_hdrs_run(b, i, &r, &immd);
		uint32_t k = st_take(s, &r);
		if (k < r.count)
			nvm_pb_stop_hdr(s->d, b, i, k);
	}
}

static void st_error(void *ctx, const nvm_pb_error *e)
{
	(void)e;
	((struct stopper *)ctx)->nerr++;
}

enum { SK_RUN, SK_RUNS, SK_HDRS };

static void stop_compare(const nvm_pb_config *cfg, const uint32_t *all, size_t n, size_t piece, bool segs,
                         uint32_t budget, int kind)
{
	struct stopper s = { .record = true };
	nvm_pb_decoder d;
	s.d = &d;
	size_t nerr = 0;
	for (int pass = 0; pass < 2; pass++) {
		nvm_pb_sink sink = { .ctx = &s,
			             .error = st_error,
			             .run = kind == SK_RUN ? st_run : NULL,
			             .runs = kind != SK_RUN ? st_runs : NULL,
			             .hdrs = kind == SK_HDRS ? st_hdrs : NULL };
		nvm_pb_decoder_init(&d, cfg, &sink);
		s.nerr = 0;
		for (size_t i = 0; i < n; i += piece) {
			size_t len = n - i < piece ? n - i : piece, at = 0;
			for (size_t guard = 0; at < len; guard++) {
				check(guard <= len, "a stopped decode makes no progress");
				s.budget = budget;
				size_t used = nvm_pb_feed(&d, all + i + at, len - at);
				check(used <= len - at && (nvm_pb_stopped(&d) || used == len - at), "pb_feed's count");
				at += used;
			}
			if (segs)
				nvm_pb_segment_end(&d);
		}
		nvm_pb_finish(&d);
		if (pass == 0)
			nerr = s.nerr;
		s.record = false;
	}
	check(s.cmp == s.nm, "a stopped and resumed decode gives fewer methods");
	check(s.nerr == nerr, "a stopped and resumed decode reports another number of errors");
	free(s.m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint8_t sel = data[0], step = data[1];
	data += 2;
	size -= 2;
	const nvm_pb_gen *gen = nvm_pb_gen_get((sel & 0x0f) % 11);
	if (!gen)
		return 0;
	nvm_pb_format f = gen->native;
	nvm_pb_config cfg;
	if (!nvm_pb_config_init(&cfg, gen, f))
		return 0;
	cfg.ib_mode = sel & 0x10;
	cfg.sli_enable = !(sel & 0x20);
	cfg.subdevice_id = (sel & 0x40) ? 0x001 : 0xfff;
	size_t n = size / 4;
	uint32_t *all = malloc((n ? n : 1) * sizeof(*all));
	if (!all)
		return 0;
	memcpy(all, data, n * 4);
	struct acct a = { .all = all };
	nvm_pb_sink sink = { &a, on_header, on_run, on_control, on_error, NULL, NULL };
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &sink);
	size_t piece = (size_t)(step & 0x3f) + 1;
	for (size_t i = 0; i < n; i += piece) {
		size_t len = n - i < piece ? n - i : piece;
		uint32_t *p = malloc(len * sizeof(*p));
		if (!p)
			break;
		memcpy(p, all + i, len * sizeof(*p));
		a.piece = p;
		a.piece_n = len;
		nvm_pb_feed(&d, p, len);
		if (step & 0x80)
			nvm_pb_segment_end(&d); /* each piece its own PB segment */
		free(p);
	}
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	check(a.dwords == n, "not every dword accounted for exactly once");
	batch_compare(&cfg, all, n, piece, step & 0x80, &a, false);
	batch_compare(&cfg, all, n, piece, step & 0x80, &a, true);
	errors_compare(&cfg, all, n, piece, step & 0x80, &a);
	uint32_t budget = 1u + (sel >> 7) + (step & 0x40 ? 2u : 0u);
	stop_compare(&cfg, all, n, piece, step & 0x80, budget, sel & 0x80 ? SK_RUNS : SK_RUN);
	if (sel & 0x80)
		stop_compare(&cfg, all, n, piece, step & 0x80, budget, SK_HDRS);
	free(all);
	free(a.runs);
	return 0;
}
