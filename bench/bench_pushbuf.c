/*
 * Pushbuffer decoder benchmarks on driver-like streams (drvstream.h):
 * decoding to a counting sink and to a sink that reads every data word
 * (checked against the stream's checksum), against a plain streaming read
 * of the same words in the same run (methods/s, ns per method); one bulk
 * case for reference; `pb decode` text and JSON output to /dev/null; and
 * `pb check` of a file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "drvstream.h"
#include "nvmodel/pushbuf.h"

struct count_sink {
	uint64_t methods, sum;
};

/* The counting sink: counts methods and runs, in batches. It does not read
 * the data (a run hands the consumer a pointer; what it does with the data
 * is the consumer's cost). */
static void count_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	struct count_sink *c = ctx;
	uint64_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += r[i].count;
	c->methods += m;
	c->sum += n;
}

/* The same for the runs of complete sequences, which come as headers
 * (sink.hdrs; the other runs come to count_runs): each header's method
 * count from its word. It reads no data either (each run's data follows
 * its header, hdr[i] + 1). */
static void count_hdrs(void *ctx, const nvm_pb_hdrs *b)
{
	struct count_sink *c = ctx;
	c->methods += nvm_pb_hdrs_methods(b);
	c->sum += b->n;
}

static void count_error(void *ctx, const nvm_pb_error *e)
{
	(void)e;
	++*(uint64_t *)ctx;
}

static uint64_t sum_dwords(const uint32_t *w, size_t n)
{
	uint64_t s = 0;
	for (size_t i = 0; i < n; i++)
		s += w[i];
	return s;
}

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Bulk: INC headers with 1024 data entries each (no driver sends these). */
static size_t fill_inc(uint32_t *w, size_t n)
{
	size_t i = 0;
	uint32_t seed = 1;
	while (i + 1025 <= n) {
		nvm_pb_encode_method(NVM_PB_FORMAT_NEW, NVM_PB_MODE_INC, 0, 0x0, 1024, &w[i++]);
		for (int k = 0; k < 1024; k++)
			w[i++] = lcg(&seed);
	}
	return i;
}

/* A driver-like stream (drvstream.h) of about `words` dwords in format f. */
static int drv_stream(enum ds_format f, size_t words, struct ds_stream *s)
{
	struct ds_config c = { .format = f, .seed = 11, .words = words < 4096 ? 4096 : words, .sem_va = 0x200000 };
	return ds_generate(&c, s);
}

/* The checking sink: reads every data word into the checksum of drvstream
 * (the class of each subchannel from its SET_OBJECT, new format). */
struct check_sink {
	uint32_t cls[8];
	uint64_t methods, sum;
};

static void check_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	struct check_sink *c = ctx;
	for (size_t i = 0; i < n; i++) {
		c->methods += r[i].count;
		if (r[i].method == 0 && r[i].count == 1)
			c->cls[r[i].subch] = r[i].data[0]; /* SET_OBJECT */
		else
			c->sum += ds_run_sum(c->cls[r[i].subch], &r[i], 0, r[i].count);
	}
}

/* The floor of any decoder of a stream: from each method header to the
 * next (its data entries stepped over), counting methods, nothing checked
 * and nothing delivered. Where a header is depends on the header before
 * it, so this is a chain of dependent loads, one per header, that no
 * decoder shortens; a decoder, and a front end around it, only adds to
 * it. New format: COUNT 28:16 data entries, none for IMMD (SEC_OP 4: one
 * method); old format (the G80 IB stream holds method headers only):
 * COUNT 28:18. */
static uint64_t walk_headers(const uint32_t *p, const uint32_t *end, bool old)
{
	uint64_t m = 0;
	while (p < end) {
		uint32_t w = *p;
		uint32_t take = old ? (w >> 18) & 0x7ffu : ((w >> 16) & 0x1fffu) & (uint32_t)((int32_t)(w << 2) >> 31);
		m += old ? take : nvm_pb_take_count(w);
		p += 1 + take;
	}
	return m;
}

enum dec_sink {
	SINK_COUNT, /* count_runs / count_hdrs */
	SINK_CHECK, /* check_runs */
	SINK_WALK,  /* no decoder: walk_headers */
};

/* Decoder to a sink (counting, or reading every data word into the
 * checksum), or the header walk, against a streaming read of the same
 * words, interleaved, the best of several rounds of each. */
static int bench_decode(double scale, struct bench_result *out, enum ds_format f, bool bulk, enum dec_sink how)
{
	bool check = how == SINK_CHECK;
	size_t cap = (size_t)(4e6 * scale) < 4096 ? 4096 : (size_t)(4e6 * scale);
	struct ds_stream s = { 0 };
	const uint32_t *w;
	size_t n;
	uint32_t *bw = NULL;
	if (bulk) {
		bw = malloc(cap * sizeof(*bw));
		if (!bw)
			return 1;
		n = fill_inc(bw, cap);
		w = bw;
	} else {
		if (drv_stream(f, cap, &s))
			return 1;
		w = s.words;
		n = s.nwords;
	}
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup(f == DS_FMT_NEW ? "gv100" : "g84"),
	                   f == DS_FMT_NEW ? NVM_PB_FORMAT_NEW : NVM_PB_FORMAT_OLD);
	struct count_sink c = { 0 };
	struct check_sink k = { 0 };
	nvm_pb_sink sink = check ? (nvm_pb_sink){ .ctx = &k, .runs = check_runs }
	                         : (nvm_pb_sink){ .ctx = &c, .runs = count_runs, .hdrs = count_hdrs };
	const int reps = 5;
	double best_sum = 1e30, best_dec = 1e30;
	uint64_t methods = 0;
	for (int r = 0; r < reps; r++) {
		double t0 = bench_now();
		bench_sink(sum_dwords(w, n));
		double t1 = bench_now();
		c.methods = 0;
		k = (struct check_sink){ 0 };
		if (how == SINK_WALK) {
			c.methods = walk_headers(w, w + n, f != DS_FMT_NEW);
		} else {
			nvm_pb_decoder d;
			nvm_pb_decoder_init(&d, &cfg, &sink);
			nvm_pb_feed(&d, w, n);
			nvm_pb_finish(&d);
		}
		double t2 = bench_now();
		methods = check ? k.methods : c.methods;
		if (t1 - t0 < best_sum)
			best_sum = t1 - t0;
		if (t2 - t1 < best_dec)
			best_dec = t2 - t1;
	}
	bench_sink(c.sum);
	static char msg[160], note[96];
	int rc = 0;
	if (!bulk && (methods != s.methods || (check && k.sum != s.checksum))) {
		snprintf(msg, sizeof(msg),
		         "CHECK FAILED: the sink got %llu methods (checksum %016llx), the stream has %llu "
		         "(checksum %016llx)",
		         (unsigned long long)methods, (unsigned long long)k.sum, (unsigned long long)s.methods,
		         (unsigned long long)s.checksum);
		out->error = msg;
		rc = 1;
	}
	out->unit = "methods/s";
	out->rate = (double)methods / best_dec;
	out->baseline_rate = (double)methods / best_sum; /* the same methods at the speed of a plain read */
	out->baseline = "streaming read of the same words";
	out->per_method_ns = best_dec * 1e9 / (double)methods;
	out->bulk = bulk;
	if (!bulk) {
		snprintf(note, sizeof(note), "%s %llu methods, %.2f methods/header%s",
		         check ? "checksum of" : "count of", (unsigned long long)s.methods,
		         (double)s.methods / (double)s.headers,
		         how == SINK_WALK ? " (header to header: the floor of any decoder)" : "");
		out->check = note;
	}
	free(bw);
	ds_free(&s);
	return rc;
}

static int bench_count(double scale, struct bench_result *out)
{
	int rc = bench_decode(scale, out, DS_FMT_NEW, false, SINK_COUNT);
	out->target_ratio = 0.25;
	out->target = ">= 0.25 of a streaming read";
	return rc;
}

static int bench_check(double scale, struct bench_result *out)
{
	return bench_decode(scale, out, DS_FMT_NEW, false, SINK_CHECK);
}

static int bench_old(double scale, struct bench_result *out)
{
	return bench_decode(scale, out, DS_FMT_G80_IB, false, SINK_COUNT);
}

static int bench_bulk(double scale, struct bench_result *out)
{
	return bench_decode(scale, out, DS_FMT_NEW, true, SINK_COUNT);
}

static int bench_walk(double scale, struct bench_result *out)
{
	return bench_decode(scale, out, DS_FMT_NEW, false, SINK_WALK);
}

static int bench_walk_old(double scale, struct bench_result *out)
{
	return bench_decode(scale, out, DS_FMT_G80_IB, false, SINK_WALK);
}

struct print_file {
	FILE *f;
	uint64_t bytes;
};

static void to_file(void *ctx, const char *s, size_t n)
{
	struct print_file *pf = ctx;
	pf->bytes += n;
	fwrite(s, 1, n, pf->f);
}

/* `pb decode` of a driver-like stream to /dev/null, as the command does it
 * (a printer with the chip's default classes, its output buffer (flushed past 960 KiB)
 * written with fwrite), in a style: methods per second. */
static int bench_print(double scale, struct bench_result *out, nvm_pb_style style, double target)
{
	size_t cap = (size_t)(2e6 * scale) < 4096 ? 4096 : (size_t)(2e6 * scale);
	struct ds_stream s;
	FILE *f = fopen("/dev/null", "w");
	nvm_pb_printer *p = malloc(sizeof(*p));
	if (!f || !p || drv_stream(DS_FMT_NEW, cap, &s)) {
		free(p);
		if (f)
			fclose(f);
		return 1;
	}
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
	double best = 1e30;
	uint64_t errors = 0;
	struct print_file pf = { f, 0 };
	for (int rep = 0; rep < 3; rep++) {
		pf.bytes = 0;
		nvm_pb_out o = { .flush = to_file, .ctx = &pf };
		double t0 = bench_now();
		nvm_pb_printer_init(p, style, &cfg, s.words, 0, s.nwords, &o);
		nvm_pb_sink sink = nvm_pb_printer_sink(p);
		nvm_pb_decoder d;
		nvm_pb_decoder_init(&d, &cfg, &sink);
		nvm_pb_printer_begin(p);
		nvm_pb_feed(&d, s.words, s.nwords);
		nvm_pb_segment_end(&d);
		nvm_pb_finish(&d);
		nvm_pb_printer_end(p);
		nvm_pb_out_flush(&o);
		double t1 = bench_now();
		errors += p->errors;
		nvm_pb_out_free(&o);
		if (t1 - t0 < best)
			best = t1 - t0;
	}
	static char note[2][128];
	char *nt = note[style == NVM_PB_STYLE_JSON];
	/* the text's rate too: a printer writes bytes, and lines of another
	 * length would move the methods/s */
	snprintf(nt, 128, "%llu methods, %.2f methods/header, %.0f bytes/method (%.2f GB/s), %llu errors printed",
	         (unsigned long long)s.methods, (double)s.methods / (double)s.headers,
	         (double)pf.bytes / (double)s.methods, (double)pf.bytes / best * 1e-9, (unsigned long long)errors);
	out->unit = "methods/s";
	out->rate = (double)s.methods / best;
	out->per_method_ns = best * 1e9 / (double)s.methods;
	out->target_rate = target;
	out->check = nt;
	free(p);
	fclose(f);
	ds_free(&s);
	return errors ? 1 : 0;
}

static int bench_text(double scale, struct bench_result *out)
{
	int rc = bench_print(scale, out, NVM_PB_STYLE_TEXT, 5e7);
	out->target = ">= 5e7 methods/s";
	return rc;
}

static int bench_json(double scale, struct bench_result *out)
{
	int rc = bench_print(scale, out, NVM_PB_STYLE_JSON, 2.5e7);
	out->target = ">= 2.5e7 methods/s";
	return rc;
}

/* `pb check` on a file: a driver-like stream written to a temporary file, read
 * back in 4 MiB pieces and decoded (the errors-only sink of pb check),
 * against the same reads summing the words. */
static int bench_check_file(double scale, struct bench_result *out)
{
	size_t n_words = (size_t)(16e6 * scale);
	if (n_words < (1u << 20))
		n_words = 1u << 20;
	const size_t piece = 1u << 20;
	uint32_t *w = malloc(piece * sizeof(*w));
	FILE *f = tmpfile();
	struct ds_stream ds = { 0 };
	size_t filled = w && !drv_stream(DS_FMT_NEW, piece, &ds) ? ds.nwords : 0;
	if (filled)
		memcpy(w, ds.words, filled * sizeof(*w));
	ds_free(&ds);
	if (!w || !f || !filled) {
		free(w);
		if (f)
			fclose(f);
		return 1;
	}
	size_t total = 0;
	while (total + filled <= n_words) {
		if (fwrite(w, sizeof(*w), filled, f) != filled)
			break;
		total += filled;
	}
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
	uint64_t errors = 0;
	double best_read = 1e30, best_check = 1e30;
	for (int rep = 0; rep < 5; rep++) {
		for (int mode = 0; mode < 2; mode++) {
			rewind(f);
			nvm_pb_decoder d;
			nvm_pb_sink sink = { .ctx = &errors, .error = count_error };
			nvm_pb_decoder_init(&d, &cfg, &sink);
			uint64_t sum = 0;
			double t0 = bench_now();
			size_t got;
			while ((got = fread(w, sizeof(*w), piece, f)) != 0) {
				if (mode)
					nvm_pb_feed(&d, w, got);
				else
					sum += sum_dwords(w, got);
			}
			nvm_pb_finish(&d);
			double t1 = bench_now();
			bench_sink(sum);
			double *best = mode ? &best_check : &best_read;
			if (t1 - t0 < *best)
				*best = t1 - t0;
		}
	}
	bench_sink(errors);
	out->unit = "dwords/s";
	out->rate = (double)total / best_check;
	out->baseline_rate = (double)total / best_read;
	out->baseline = "reading the file in the same pieces";
	out->target_ratio = 0.25;
	fclose(f);
	free(w);
	return 0;
}

const struct bench_case bench_pushbuf_cases[] = {
	{ "pb.decode_count", "decode a driver-like gv100 stream to a sink that counts methods", bench_count },
	{ "pb.decode_check", "the same, the sink reads every data word (drvstream checksum, checked)", bench_check },
	{ "pb.decode_old", "decode a driver-like g84 IB stream (old format) to a counting sink", bench_old },
	{ "pb.walk", "the floor: header to header through the gv100 stream, no decoder (counted, nothing checked)",
	  bench_walk },
	{ "pb.walk_old", "the same through the g84 IB stream (old format)", bench_walk_old },
	{ "pb.decode_bulk", "bulk (not driver-like): INC runs of 1024 to a counting sink", bench_bulk },
	{ "pb.decode_text", "`pb decode` (text style) of a driver-like gv100 stream to /dev/null", bench_text },
	{ "pb.decode_json", "`pb decode --style json` of the same stream to /dev/null", bench_json },
	{ "pb.check_file", "pb check of a driver-like stream file read in 4 MiB pieces, vs reading it",
	  bench_check_file },
	{ NULL, NULL, NULL },
};
