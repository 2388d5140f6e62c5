/* The decoder's back-pressure (nvm_pb_stop_run / nvm_pb_stop_at, nvm_pb_feed's count of
 * entries consumed) and its saved state (nvm_pb_save / nvm_pb_restore), as the
 * PBDMA and the DMA pushers use them (include/nvmodel/pushbuf.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nvmodel/nvmodel.h"
#include "pb_rec.h"

#define N(a) (sizeof(a) / sizeof(a[0]))

/* NV_FIFO_DMA_* new-format header: SEC_OP 31:29, COUNT/IMMD 28:16,
 * SUBCHANNEL 15:13, ADDRESS 11:0 (dword address). */
#define hdr(sec, count, subch, byte_addr)                                                                              \
	((uint32_t)(sec) << 29 | (uint32_t)(count) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(byte_addr) >> 2)

/* Old format: COUNT_OLD 28:18, SUBCHANNEL 15:13, METHOD 12:2, bit 30 NINC. */
#define old_hdr(ninc, count, subch, byte_addr)                                                                         \
	((ninc) ? 0x40000000u : 0u) | (uint32_t)(count) << 18 | (uint32_t)(subch) << 13 | ((byte_addr)&0x1ffcu)

/* A sink that takes at most `budget` method entries, then stops the decoder
 * in the run it is in (a PBDMA whose engine stalls, a pusher whose CACHE1
 * is full). */
struct stopper {
	nvm_pb_decoder *d;
	uint32_t budget;
	struct rec_method m[REC_MAX];
	size_t nm;
	size_t nerr;
};

/* Field by field: nvm_pb_decoder_state has padding that nvm_pb_save leaves alone. */
static void assert_state_equal(const nvm_pb_decoder_state *a, const nvm_pb_decoder_state *b)
{
	assert_int_equal(a->remaining, b->remaining);
	assert_int_equal(a->index, b->index);
	assert_int_equal(a->subch, b->subch);
	assert_int_equal(a->method, b->method);
	assert_int_equal(a->mode, b->mode);
	assert_int_equal(a->hdr_word, b->hdr_word);
	assert_int_equal(a->lenp, b->lenp);
	assert_int_equal(a->skipping, b->skipping);
	assert_int_equal(a->active, b->active);
	assert_int_equal(a->stored_mask, b->stored_mask);
}

/* Records the first methods of run r the budget allows; returns how many
 * (fewer than r->count: the sink must stop there). */
static uint32_t record(struct stopper *s, const nvm_pb_run *r)
{
	uint32_t k = r->count < s->budget ? r->count : s->budget;
	for (uint32_t i = 0; i < k && s->nm < REC_MAX; i++)
		s->m[s->nm++] =
		        (struct rec_method){ 0, r->subch, nvm_pb_run_method(r, i), r->data[i], r->mode, r->masked };
	s->budget -= k;
	return k;
}

static void take(struct stopper *s, const nvm_pb_run *r)
{
	uint32_t k = record(s, r);
	if (k < r->count)
		nvm_pb_stop_run(s->d, r, k);
}

static void st_run(void *ctx, const nvm_pb_run *r)
{
	take(ctx, r);
}

static void st_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	struct stopper *s = ctx;
	for (size_t i = 0; i < n && !nvm_pb_stopped(s->d); i++)
		take(s, &r[i]);
}

/* sink.hdrs: each header's run (nvm_pb_hdrs_run) recorded as take() does, the
 * stop given with nvm_pb_stop_hdr. */
static void st_hdrs(void *ctx, const nvm_pb_hdrs *b)
{
	struct stopper *s = ctx;
	for (size_t i = 0; i < b->n && !nvm_pb_stopped(s->d); i++) {
		nvm_pb_run r;
		uint32_t immd;
		nvm_pb_hdrs_run(b, i, &r, &immd);
		uint32_t k = record(s, &r);
		if (k < r.count)
			nvm_pb_stop_hdr(s->d, b, i, k);
	}
}

/* The sinks the tests run: one run at a time, batches, batches with the
 * complete sequences as headers. */
enum sink_kind { SK_RUN, SK_RUNS, SK_HDRS, SK_COUNT };

static nvm_pb_sink stopper_sink(struct stopper *s, enum sink_kind k)
{
	return (nvm_pb_sink){ .ctx = s,
		              .run = k == SK_RUN ? st_run : NULL,
		              .runs = k != SK_RUN ? st_runs : NULL,
		              .hdrs = k == SK_HDRS ? st_hdrs : NULL };
}

/* A fresh stopper s on decoder d (budget methods), the decoder started
 * with sink (its ctx s). */
static void stopper_start(struct stopper *s, nvm_pb_decoder *d, const nvm_pb_config *cfg, const nvm_pb_sink *sink,
                          uint32_t budget)
{
	memset(s, 0, sizeof(*s));
	s->d = d;
	s->budget = budget;
	nvm_pb_decoder_init(d, cfg, sink);
}

static void st_error(void *ctx, const nvm_pb_error *e)
{
	struct stopper *s = ctx;
	(void)e;
	s->nerr++;
}

static nvm_pb_config config(const char *chip, nvm_pb_format f)
{
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup(chip), f));
	return cfg;
}

/* Decodes dw in pieces of `piece` entries with a sink that takes `budget`
 * methods per feed; when `reload`, every stop saves the state and restores
 * it into a fresh decoder (a context switch). The methods must come out as
 * from one uninterrupted decode. */
static void stop_and_resume(const nvm_pb_config *cfg, const uint32_t *dw, size_t n, size_t piece, uint32_t budget,
                            enum sink_kind kind, bool reload)
{
	struct rec ref;
	nvm_pb_sink rs = rec_sink(&ref);
	decode_all(cfg, &rs, dw, n);

	static struct stopper s;
	static nvm_pb_decoder d;
	nvm_pb_sink sink = stopper_sink(&s, kind);
	sink.error = st_error;
	stopper_start(&s, &d, cfg, &sink, 0);
	size_t at = 0, rounds = 0, end = 0;
	uint64_t methods = 0;
	while (at < n) {
		assert_true(++rounds < 10 * n + 10);
		if (at >= end)
			end = at + piece < n ? at + piece : n; /* pieces of one segment */
		s.budget = budget;
		uint64_t m0 = d.methods, pos0 = d.pos;
		size_t used = nvm_pb_feed(&d, dw + at, end - at);
		assert_true(used <= end - at);
		assert_int_equal(d.pos, pos0 + used);
		if (!nvm_pb_stopped(&d))
			assert_int_equal(used, end - at);
		/* methods delivered and kept: what the sink took */
		assert_int_equal(d.methods - m0, budget - s.budget);
		methods += d.methods - m0;
		at += used;
		if (reload && nvm_pb_stopped(&d)) {
			nvm_pb_decoder_state st, st2;
			nvm_pb_save(&d, &st);
			nvm_pb_decoder_init(&d, cfg, &sink);
			nvm_pb_restore(&d, &st);
			nvm_pb_save(&d, &st2);
			assert_state_equal(&st, &st2);
			d.pos = pos0 + used;
		}
	}
	nvm_pb_finish(&d);
	assert_int_equal(s.nm, ref.nm);
	assert_int_equal(methods, ref.nm);
	assert_int_equal(s.nerr, ref.ne);
	for (size_t i = 0; i < ref.nm; i++) {
		assert_int_equal(s.m[i].subch, ref.m[i].subch);
		assert_int_equal(s.m[i].method, ref.m[i].method);
		assert_int_equal(s.m[i].data, ref.m[i].data);
		assert_int_equal(s.m[i].mode, ref.m[i].mode);
		assert_int_equal(s.m[i].masked, ref.m[i].masked);
	}
}

/* Every form: increasing, non-increasing, increment-once, immediate, a
 * zero-count header, NOPs, subdevice masking and END_PB_SEGMENT. */
static const uint32_t new_stream[] = {
	hdr(1, 5, 0, 0x400),
	1,
	2,
	3,
	4,
	5, /* INC */
	hdr(3, 4, 1, 0x500),
	6,
	7,
	8,
	9,                       /* NINC */
	hdr(4, 0x123, 2, 0x600), /* IMMD */
	hdr(5, 3, 3, 0x700),
	10,
	11,
	12,                         /* 1INC */
	0,                          /* NOP */
	hdr(1, 0, 0, 0x800),        /* no data */
	(1u << 16) | (0x002u << 4), /* SET_SUBDEVICE_MASK: inactive for id 0x001 */
	hdr(1, 2, 0, 0x900),
	13,
	14,                         /* masked */
	hdr(4, 7, 0, 0x904),        /* masked IMMD */
	(2u << 16) | (0x001u << 4), /* STORE_SUBDEVICE_MASK 0x001 */
	(3u << 16),                 /* USE_SUBDEVICE_MASK: active again */
	hdr(3, 6, 4, 0xa00),
	15,
	16,
	17,
	18,
	19,
	20,
	hdr(4, 1, 5, 0xb00),
	hdr(4, 2, 5, 0xb04),
	hdr(4, 3, 5, 0xb08),
	hdr(7, 0, 0, 0), /* END_PB_SEGMENT */
	99,
	98, /* ignored up to the segment end */
};

static void test_stop_resume_new(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("gv100", NVM_PB_FORMAT_NEW);
	cfg.subdevice_id = 0x001;
	for (uint32_t budget = 1; budget <= 7; budget++)
		for (size_t piece = 1; piece <= N(new_stream); piece += (piece < 8 ? 1 : 9))
			for (int mode = 0; mode < 2 * SK_COUNT; mode++)
				stop_and_resume(&cfg, new_stream, N(new_stream), piece, budget, mode % SK_COUNT,
				                mode >= SK_COUNT);
}

/* Old format on G80 in IB mode: the long non-increasing form's count word
 * is a state of its own; the SLI conditional masks. */
static const uint32_t old_stream[] = {
	old_hdr(false, 4, 1, 0x100),
	1,
	2,
	3,
	4,
	old_hdr(true, 3, 2, 0x200),
	5,
	6,
	7,
	0x00030000u | (3u << 13) | 0x300u,
	3,
	8,
	9,
	10,                          /* long NINC, count 3 */
	0x00010000u | (0x002u << 4), /* SLI conditional: inactive */
	old_hdr(false, 2, 0, 0x400),
	11,
	12,
	0x00010000u | (0x001u << 4), /* active */
	old_hdr(false, 0, 0, 0x500), /* no data */
	old_hdr(false, 2, 4, 0x600),
	13,
	14,
};

static void test_stop_resume_old(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("g80", NVM_PB_FORMAT_OLD);
	cfg.subdevice_id = 0x001;
	for (uint32_t budget = 1; budget <= 5; budget++)
		for (size_t piece = 1; piece <= N(old_stream); piece++)
			for (int mode = 0; mode < 2 * SK_COUNT; mode++)
				stop_and_resume(&cfg, old_stream, N(old_stream), piece, budget, mode % SK_COUNT,
				                mode >= SK_COUNT);
}

/* Stop after k = 2 methods in the middle of a run, for an increasing, a
 * non-increasing and an increment-once sequence: nvm_pb_feed reports the
 * header and two data entries consumed, the rest stays pending. */
static void check_mid_run(uint32_t sec, nvm_pb_mode mode, uint32_t third, enum sink_kind kind)
{
	nvm_pb_config cfg = config("gv100", NVM_PB_FORMAT_NEW);
	uint32_t pb[] = { hdr(sec, 4, 3, 0x400), 1, 2, 3, 4, hdr(4, 5, 0, 0x100) };
	static struct stopper s;
	static nvm_pb_decoder d;
	nvm_pb_sink sink = stopper_sink(&s, kind);
	stopper_start(&s, &d, &cfg, &sink, 2);
	assert_int_equal(nvm_pb_feed(&d, pb, N(pb)), 3);
	assert_true(nvm_pb_stopped(&d));
	assert_int_equal(s.nm, 2);
	assert_int_equal(d.methods, 2);
	nvm_pb_decoder_state st;
	nvm_pb_save(&d, &st);
	assert_int_equal(st.remaining, 2);
	assert_int_equal(st.index, 2);
	assert_int_equal(st.method, 0x400);
	assert_int_equal(st.subch, 3);
	assert_int_equal(st.mode, mode);
	s.budget = 10;
	assert_int_equal(nvm_pb_feed(&d, pb + 3, N(pb) - 3), 3);
	assert_false(nvm_pb_stopped(&d));
	assert_int_equal(s.nm, 5);
	assert_int_equal(s.m[2].method, third);
	assert_int_equal(s.m[2].data, 3);
	assert_int_equal(s.m[3].data, 4);
	assert_int_equal(s.m[4].mode, NVM_PB_MODE_IMMD);
	assert_int_equal(s.m[4].data, 5);
}

static void test_stop_mid_run(void **state)
{
	(void)state;
	for (int b = 0; b < SK_COUNT; b++) {
		check_mid_run(1, NVM_PB_MODE_INC, 0x408, b);
		check_mid_run(3, NVM_PB_MODE_NINC, 0x400, b);
		check_mid_run(5, NVM_PB_MODE_1INC, 0x404, b);
	}
}

/* An immediate-data method: k 0 stops before its header, so the next feed
 * starts with it. */
static void test_stop_immd(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("gv100", NVM_PB_FORMAT_NEW);
	uint32_t pb[] = { hdr(1, 1, 0, 0x400), 1, hdr(4, 9, 0, 0x100), hdr(4, 8, 0, 0x104) };
	for (int b = 0; b < SK_COUNT; b++) {
		static struct stopper s;
		static nvm_pb_decoder d;
		nvm_pb_sink sink = stopper_sink(&s, b);
		stopper_start(&s, &d, &cfg, &sink, 1);
		assert_int_equal(nvm_pb_feed(&d, pb, N(pb)), 2);
		nvm_pb_decoder_state st;
		nvm_pb_save(&d, &st);
		assert_int_equal(st.remaining, 0);
		s.budget = 1;
		assert_int_equal(nvm_pb_feed(&d, pb + 2, 2), 1); /* takes the first IMMD, stops before the second */
		assert_int_equal(s.nm, 2);
		assert_int_equal(s.m[1].data, 9);
		assert_int_equal(d.pos, 3);
	}
}

/* A stop before an IMMD header that carries a report (reserved bit 12):
 * the header is decoded again on resume, the report is given once. */
static void test_stop_immd_report_once(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("gv100", NVM_PB_FORMAT_NEW);
	uint32_t pb[] = { hdr(1, 1, 0, 0x400), 1, hdr(4, 9, 0, 0x100) | (1u << 12) };
	static struct stopper s;
	static nvm_pb_decoder d;
	nvm_pb_sink sink = { .ctx = &s, .run = st_run, .error = st_error };
	stopper_start(&s, &d, &cfg, &sink, 1);
	assert_int_equal(nvm_pb_feed(&d, pb, N(pb)), 2);
	assert_int_equal(s.nerr, 1);
	s.budget = 1;
	assert_int_equal(nvm_pb_feed(&d, pb + 2, 1), 1);
	assert_int_equal(s.nerr, 1);
	assert_int_equal(s.nm, 2);
	assert_int_equal(s.m[1].data, 9);
}

/* A stop in runs delivered (batched) just before a mask control: the state
 * is the one they were decoded with, not the control's. */
static void test_stop_before_mask(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("gv100", NVM_PB_FORMAT_NEW);
	uint32_t pb[] = { hdr(4, 1, 0, 0x100), hdr(4, 2, 0, 0x104), (2u << 16) | (0x005u << 4), (1u << 16) };
	for (int b = SK_RUNS; b <= SK_HDRS; b++) {
		static struct stopper s;
		static nvm_pb_decoder d;
		nvm_pb_sink sink = stopper_sink(&s, b);
		stopper_start(&s, &d, &cfg, &sink, 1);
		assert_int_equal(nvm_pb_feed(&d, pb, N(pb)), 1);
		assert_int_equal(d.methods, 1);
		nvm_pb_decoder_state st;
		nvm_pb_save(&d, &st);
		assert_int_equal(st.stored_mask, 0xfff);
		assert_true(st.active);
		s.budget = 5;
		assert_int_equal(nvm_pb_feed(&d, pb + 1, 3), 3);
		nvm_pb_save(&d, &st);
		assert_int_equal(st.stored_mask, 0x005);
		assert_false(st.active); /* SET_SUBDEVICE_MASK 0 */
	}
}

/* A sequence whose data comes in the next feed: the stop falls in the
 * second piece, and the state carries the header's place in the sequence. */
static void test_stop_across_feeds(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("gv100", NVM_PB_FORMAT_NEW);
	uint32_t pb[] = { hdr(1, 5, 2, 0x200), 1, 2, 3, 4, 5 };
	static struct stopper s;
	static nvm_pb_decoder d;
	nvm_pb_sink sink = { .ctx = &s, .run = st_run };
	stopper_start(&s, &d, &cfg, &sink, 3);
	assert_int_equal(nvm_pb_feed(&d, pb, 3), 3); /* header + 2: no stop */
	assert_false(nvm_pb_stopped(&d));
	assert_int_equal(nvm_pb_feed(&d, pb + 3, 3), 1); /* one more, then the stop */
	assert_true(nvm_pb_stopped(&d));
	nvm_pb_decoder_state st;
	nvm_pb_save(&d, &st);
	assert_int_equal(st.remaining, 2);
	assert_int_equal(st.index, 3);
	assert_int_equal(st.hdr_word, pb[0]);
	s.budget = 9;
	assert_int_equal(nvm_pb_feed(&d, pb + 4, 2), 2);
	assert_int_equal(s.nm, 5);
	assert_int_equal(s.m[3].method, 0x20c);
	assert_int_equal(s.m[4].method, 0x210);
}

/* nvm_pb_stop_at from an error (the PBDMA's PBENTRY): just past the bad word,
 * nothing after it is delivered. */
struct at_stop {
	nvm_pb_decoder *d;
	size_t nm;
};

static void at_run(void *ctx, const nvm_pb_run *r)
{
	struct at_stop *s = ctx;
	s->nm += r->count;
}

static void at_error(void *ctx, const nvm_pb_error *e)
{
	struct at_stop *s = ctx;
	nvm_pb_stop_at(s->d, e->offset + 1);
}

static void test_stop_at_error(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("gv100", NVM_PB_FORMAT_NEW);
	uint32_t pb[] = { hdr(1, 1, 0, 0x400), 1, hdr(6, 0, 0, 0), hdr(1, 1, 0, 0x404), 2 };
	nvm_pb_decoder d;
	struct at_stop s = { &d, 0 };
	nvm_pb_sink sink = { .ctx = &s, .run = at_run, .error = at_error };
	nvm_pb_decoder_init(&d, &cfg, &sink);
	assert_int_equal(nvm_pb_feed(&d, pb, N(pb)), 3);
	assert_true(nvm_pb_stopped(&d));
	assert_int_equal(s.nm, 1);
	assert_int_equal(nvm_pb_feed(&d, pb + 3, 2), 2);
	assert_int_equal(s.nm, 2);
}

/* nvm_pb_save / nvm_pb_restore carry every field a front end keeps in its
 * registers, and the restored decoder continues the sequence. */
static void test_save_restore(void **state)
{
	(void)state;
	nvm_pb_config cfg = config("g84", NVM_PB_FORMAT_OLD);
	uint32_t pb[] = { 0x00030000u | (2u << 13) | 0x180u, 4, 1, 2, 3, 4 };
	struct rec r1;
	nvm_pb_sink s1 = rec_sink(&r1);
	nvm_pb_decoder a, b;
	nvm_pb_decoder_init(&a, &cfg, &s1);
	nvm_pb_feed(&a, pb, 1); /* the long header: its count word pending */
	nvm_pb_decoder_state st, st2;
	nvm_pb_save(&a, &st);
	assert_true(st.lenp);
	assert_int_equal(st.subch, 2);
	assert_int_equal(st.method, 0x180);
	nvm_pb_decoder_init(&b, &cfg, &s1);
	nvm_pb_restore(&b, &st);
	nvm_pb_save(&b, &st2);
	assert_state_equal(&st, &st2);
	nvm_pb_feed(&b, pb + 1, 3); /* count 4, two data */
	nvm_pb_save(&b, &st);
	assert_false(st.lenp);
	assert_int_equal(st.remaining, 2);
	assert_int_equal(st.index, 2);
	assert_int_equal(st.mode, NVM_PB_MODE_NINC);
	nvm_pb_decoder_init(&a, &cfg, &s1);
	nvm_pb_restore(&a, &st);
	nvm_pb_feed(&a, pb + 4, 2);
	assert_int_equal(r1.nm, 4);
	assert_int_equal(r1.m[3].data, 4);
	assert_int_equal(r1.m[3].method, 0x180);
	/* the mask state and a hostile mode */
	st = (nvm_pb_decoder_state){ .mode = (nvm_pb_mode)9, .active = false, .stored_mask = 0x5a5, .skipping = true };
	nvm_pb_restore(&a, &st);
	nvm_pb_save(&a, &st2);
	assert_int_equal(st2.mode, NVM_PB_MODE_INC);
	assert_false(st2.active);
	assert_true(st2.skipping);
	assert_int_equal(st2.stored_mask, 0x5a5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stop_mid_run),          cmocka_unit_test(test_stop_immd),
		cmocka_unit_test(test_stop_across_feeds),     cmocka_unit_test(test_stop_at_error),
		cmocka_unit_test(test_save_restore),          cmocka_unit_test(test_stop_resume_new),
		cmocka_unit_test(test_stop_resume_old),       cmocka_unit_test(test_stop_before_mask),
		cmocka_unit_test(test_stop_immd_report_once),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
