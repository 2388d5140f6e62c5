/*
 * The pushbuffer decoder on arbitrary bytes, both formats. Byte 0 picks the
 * chip profile, format and mode; byte 1 the piece size the stream is fed in
 * (pieces are copied to exact-size heap buffers so ASan sees any read past
 * a piece). Checks: every dword is accounted for exactly once, offsets only
 * move forward, and every run's data lies inside the piece it came from.
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

static void on_header(void *ctx, const pb_header *h)
{
	struct acct *a = ctx;
	check(h->subch < 8 && h->mode <= PB_MODE_IMMD, "bad header fields");
	take(a, h->offset, h->ndwords);
}

static void record(struct acct *a, const pb_run *r)
{
	struct runrec x = { r->offset, r->count, pb_run_method(r, 0), r->count ? r->data[0] : 0 };
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

static void on_run(void *ctx, const pb_run *r)
{
	struct acct *a = ctx;
	record(a, r);
	if (r->mode != PB_MODE_IMMD) {
		check(r->count == r->ndwords, "run count != ndwords");
		check(r->data >= a->piece && r->data + r->count <= a->piece + a->piece_n, "run data outside its piece");
		for (uint32_t i = 0; i < r->count; i++)
			check(r->data[i] == a->all[r->offset + i], "run data is not the stream's dword at its offset");
	}
	take(a, r->offset, r->ndwords);
}

static void on_runs(void *ctx, const pb_run *r, size_t n)
{
	struct acct *a = ctx;
	check(n >= 1 && n <= PB_BATCH, "batch size");
	for (size_t i = 0; i < n; i++) {
		if (r[i].mode != PB_MODE_IMMD)
			check(r[i].data >= a->piece && r[i].data + r[i].count <= a->piece + a->piece_n,
			      "batched run data outside its piece");
		record(a, &r[i]);
	}
}

/* The same stream through the batched sink (no header callback, so batches
 * fill up) must give the same runs in the same order. */
static void batch_compare(const pb_config *cfg, const uint32_t *all, size_t n, size_t piece, bool segs, struct acct *a)
{
	a->comparing = true;
	a->cmp = 0;
	pb_sink sink = { .ctx = a, .runs = on_runs };
	pb_decoder d;
	pb_decoder_init(&d, cfg, &sink);
	for (size_t i = 0; i < n; i += piece) {
		size_t len = n - i < piece ? n - i : piece;
		uint32_t *p = malloc(len * sizeof(*p));
		if (!p)
			break;
		memcpy(p, all + i, len * sizeof(*p));
		a->piece = p;
		a->piece_n = len;
		pb_feed(&d, p, len);
		if (segs)
			pb_segment_end(&d);
		free(p);
	}
	pb_finish(&d);
	check(a->cmp == a->nruns, "batched decode gives fewer runs");
}

static void on_control(void *ctx, const pb_control *c)
{
	take(ctx, c->offset, c->ndwords);
}

static void on_error(void *ctx, const pb_error *e)
{
	struct acct *a = ctx;
	check((unsigned)e->code < PB_ERR_COUNT, "bad error code");
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
static void errors_compare(const pb_config *cfg, const uint32_t *all, size_t n, size_t piece, bool segments,
                           struct acct *a)
{
	if (a->errcmp == SIZE_MAX)
		return;
	a->err_comparing = true;
	a->errcmp = 0;
	pb_sink sink = { .ctx = a, .error = on_error };
	pb_decoder d;
	pb_decoder_init(&d, cfg, &sink);
	for (size_t i = 0; i < n; i += piece) {
		size_t len = n - i < piece ? n - i : piece;
		pb_feed(&d, all + i, len);
		if (segments)
			pb_segment_end(&d);
	}
	pb_segment_end(&d);
	pb_finish(&d);
	check(a->errcmp == a->nerrs, "errors-only decode reports a different number of errors");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	uint8_t sel = data[0], step = data[1];
	data += 2;
	size -= 2;
	const pb_gen *gen = pb_gen_get((sel & 0x0f) % 11);
	if (!gen)
		return 0;
	pb_format f = gen->native;
	pb_config cfg;
	if (!pb_config_init(&cfg, gen, f))
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
	pb_sink sink = { &a, on_header, on_run, on_control, on_error, NULL };
	pb_decoder d;
	pb_decoder_init(&d, &cfg, &sink);
	size_t piece = (size_t)(step & 0x3f) + 1;
	for (size_t i = 0; i < n; i += piece) {
		size_t len = n - i < piece ? n - i : piece;
		uint32_t *p = malloc(len * sizeof(*p));
		if (!p)
			break;
		memcpy(p, all + i, len * sizeof(*p));
		a.piece = p;
		a.piece_n = len;
		pb_feed(&d, p, len);
		if (step & 0x80)
			pb_segment_end(&d); /* each piece its own PB segment */
		free(p);
	}
	pb_segment_end(&d);
	pb_finish(&d);
	check(a.dwords == n, "not every dword accounted for exactly once");
	batch_compare(&cfg, all, n, piece, step & 0x80, &a);
	errors_compare(&cfg, all, n, piece, step & 0x80, &a);
	free(all);
	free(a.runs);
	return 0;
}
