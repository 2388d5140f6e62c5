/* The decoder's runs taken one at a time by the front end (nvm_pb_take_begin,
 * nvm_pb_take_hdr, nvm_pb_take_fill, nvm_pb_take_sync, nvm_pb_take_stop: the Volta PBDMA's
 * hot path), and nvm_pb_feed with a sink that takes them as headers
 * (sink.hdrs, nvm_pb_hdrs_run, nvm_pb_stop_hdr), against nvm_pb_feed with a
 * batched sink: on random new-format
 * streams of every kind of entry, cut in random pieces and segments, the
 * same runs in the same order, the same errors and controls, and with a
 * consumer that stops (inside a run, at its end, before it) after every
 * possible number of methods, the same entries consumed, the same decoder
 * state and the same methods after every feed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nvmodel/nvmodel.h"
#include "nvmodel/pushbuf.h"

#define MAXW    4096
#define MAXRUNS 4096

/* NV_FIFO_DMA_* new-format header: SEC_OP 31:29, COUNT/IMMD 28:16,
 * SUBCHANNEL 15:13, ADDRESS 11:0 (dword address). */
static uint32_t hdr(uint32_t sec, uint32_t count, uint32_t subch, uint32_t dw_addr)
{
	return sec << 29 | (count & 0x1fffu) << 16 | (subch & 7u) << 13 | (dw_addr & 0xfffu);
}

static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rng >> 33) % n;
}

/* A random stream: mostly well-formed INC / NINC / 1INC / IMMD runs, and
 * every other kind of entry now and then (count 0, the reserved bit, a
 * count that overflows the method address, NOPs, subdevice masks, bad
 * controls, reserved and obsolete opcodes, END_PB_SEGMENT). */
static size_t gen(uint32_t *w, size_t max)
{
	size_t n = 0;
	while (n + 20 < max) {
		uint32_t k = rnd(100), subch = rnd(8), addr = rnd(0x1000);
		if (k < 60) {
			static const uint32_t sec[3] = { 1, 3, 5 };
			uint32_t cnt = rnd(10);
			if (rnd(40) == 0)
				addr = 0xffe; /* overflows for INC / 1INC with count > 1 or 2 */
			uint32_t h = hdr(sec[rnd(3)], cnt, subch, addr);
			if (rnd(50) == 0)
				h |= 1u << 12; /* reserved bit */
			w[n++] = h;
			for (uint32_t i = 0; i < cnt; i++)
				w[n++] = rnd(0xffffffffu);
		} else if (k < 88) {
			w[n++] = hdr(4, rnd(0x2000), subch, addr) | (rnd(50) == 0 ? 1u << 12 : 0);
		} else if (k < 91) {
			w[n++] = 0; /* NOP */
		} else if (k < 95) {
			uint32_t t = 1 + rnd(3); /* SET / STORE / USE_SUBDEVICE_MASK */
			w[n++] = t << 16 | rnd(0x1000) << 4 | (rnd(20) == 0 ? 0x40000000u : 0);
		} else if (k < 97) {
			w[n++] = rnd(2) ? 6u << 29 | rnd(0x1fffffff) : 2u << 29 | rnd(0x1fffffff);
		} else if (k < 98) {
			w[n++] = 7u << 29; /* END_PB_SEGMENT */
		} else {
			w[n++] = hdr(1, 0, subch, addr); /* count 0 */
		}
	}
	return n;
}

/* What a consumer saw: each run whole (its fields and data entries). */
struct seen {
	nvm_pb_run r;
	uint32_t data[16];
	int kind; /* 0 run, 1 error, 2 control */
	uint64_t offset;
	uint32_t code;
};

/* The consumer: takes at most `budget` methods per feed (-1: all), then
 * stops the decoder in the run it is in; with `boundary`, also when the
 * budget ends exactly at the end of a run. */
struct cons {
	nvm_pb_decoder d;
	int64_t budget;
	bool boundary;
	struct seen s[MAXRUNS];
	size_t n;
	uint64_t taken; /* methods */
	uint64_t nhdrs; /* runs given through sink.hdrs */
};

/* Takes run r (what the budget allows); true: stop after *stop_k entries. */
static bool take_k(struct cons *c, const nvm_pb_run *r, uint32_t *stop_k)
{
	uint32_t k = r->count;
	if (c->budget >= 0 && k > c->budget)
		k = (uint32_t)c->budget;
	if (c->n < MAXRUNS) {
		struct seen *s = &c->s[c->n++];
		memset(s, 0, sizeof(*s));
		s->r = *r;
		s->r.count = k;
		s->r.data = NULL;
		for (uint32_t i = 0; i < k && i < 16; i++)
			s->data[i] = r->data[i];
	}
	c->taken += k;
	if (c->budget < 0)
		return false;
	c->budget -= k;
	*stop_k = k;
	return k < r->count || (c->boundary && !c->budget);
}

static void take(struct cons *c, const nvm_pb_run *r)
{
	uint32_t k;
	if (take_k(c, r, &k))
		nvm_pb_stop_run(&c->d, r, k);
}

/* sink.hdrs: each header's run built with nvm_pb_hdrs_run and taken as
 * above, the stop given with nvm_pb_stop_hdr. */
static void c_hdrs(void *ctx, const nvm_pb_hdrs *b)
{
	struct cons *c = ctx;
	assert_true(b->n >= 1 && b->n <= NVM_PB_BATCH);
	c->nhdrs += b->n;
	for (size_t i = 0; i < b->n && !nvm_pb_stopped(&c->d); i++) {
		nvm_pb_run r;
		uint32_t immd, k;
		assert_int_equal(b->word[i], *b->hdr[i]);
		nvm_pb_hdrs_run(b, i, &r, &immd);
		if (take_k(c, &r, &k))
			nvm_pb_stop_hdr(&c->d, b, i, k);
	}
}

static void c_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	struct cons *c = ctx;
	for (size_t i = 0; i < n && !nvm_pb_stopped(&c->d); i++)
		take(c, &r[i]);
}

static void c_error(void *ctx, const nvm_pb_error *e)
{
	struct cons *c = ctx;
	if (c->n < MAXRUNS)
		c->s[c->n++] = (struct seen){ .kind = 1, .offset = e->offset, .code = e->code };
}

static void c_control(void *ctx, const nvm_pb_control *e)
{
	struct cons *c = ctx;
	if (c->n < MAXRUNS)
		c->s[c->n++] = (struct seen){ .kind = 2, .offset = e->offset, .code = e->kind };
}

static void cons_init(struct cons *c, const nvm_pb_config *cfg, bool hdrs)
{
	memset(c, 0, sizeof(*c));
	nvm_pb_sink sink = { .ctx = c,
		             .error = c_error,
		             .control = c_control,
		             .runs = c_runs,
		             .hdrs = hdrs ? c_hdrs : NULL };
	nvm_pb_decoder_init(&c->d, cfg, &sink);
}

/* The front end's loop (as pbf_feed in src/host/pbdma.c): the fast path's
 * runs taken here, the rest through nvm_pb_feed one instruction (or pending
 * sequence) at a time. */
static size_t take_feed(struct cons *c, const uint32_t *w, size_t n)
{
	nvm_pb_decoder *d = &c->d;
	const uint32_t *q = w, *end = w + n;
	uint64_t pos0 = d->pos;
	nvm_pb_take_begin(d);
	while (q < end) {
		if (nvm_pb_take_ready(d)) {
			uint64_t pos = d->pos, taken = 0;
			bool masked = !d->active, stopped = false;
			uint32_t h;
			while ((h = nvm_pb_take_hdr(&q, end, &pos))) {
				taken += nvm_pb_take_count(h);
				take(c, nvm_pb_take_fill(d, 0, h, q, pos, masked));
				if (nvm_pb_stopped(d)) {
					stopped = true;
					break;
				}
			}
			nvm_pb_take_sync(d, pos, taken);
			if (stopped) {
				nvm_pb_take_stop(d);
				return (size_t)(d->pos - pos0);
			}
			if (q == end)
				break;
		}
		size_t avail = (size_t)(end - q);
		size_t k = d->remaining ? (d->remaining < avail ? d->remaining : avail) : d->skipping ? avail : 1;
		q += nvm_pb_feed(d, q, k);
		if (nvm_pb_stopped(d))
			return (size_t)(q - w);
	}
	return n;
}

static void assert_seen_equal(const struct cons *a, const struct cons *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct seen *x = &a->s[i], *y = &b->s[i];
		assert_int_equal(x->kind, y->kind);
		assert_int_equal(x->offset, y->offset);
		assert_int_equal(x->code, y->code);
		if (x->kind)
			continue;
		assert_int_equal(x->r.hdr_offset, y->r.hdr_offset);
		assert_int_equal(x->r.offset, y->r.offset);
		assert_int_equal(x->r.ndwords, y->r.ndwords);
		assert_int_equal(x->r.subch, y->r.subch);
		assert_int_equal(x->r.method, y->r.method);
		assert_int_equal(x->r.index, y->r.index);
		assert_int_equal(x->r.count, y->r.count);
		assert_int_equal(x->r.mode, y->r.mode);
		assert_int_equal(x->r.masked, y->r.masked);
		assert_memory_equal(x->data, y->data, sizeof(x->data));
	}
}

static void assert_dec_equal(const nvm_pb_decoder *a, const nvm_pb_decoder *b)
{
	nvm_pb_decoder_state x, y;
	nvm_pb_save(a, &x);
	nvm_pb_save(b, &y);
	assert_int_equal(x.remaining, y.remaining);
	assert_int_equal(x.index, y.index);
	assert_int_equal(x.subch, y.subch);
	assert_int_equal(x.method, y.method);
	assert_int_equal(x.mode, y.mode);
	assert_int_equal(x.hdr_word, y.hdr_word);
	assert_int_equal(x.lenp, y.lenp);
	assert_int_equal(x.skipping, y.skipping);
	assert_int_equal(x.active, y.active);
	assert_int_equal(x.stored_mask, y.stored_mask);
	assert_int_equal(a->pos, b->pos);
	assert_int_equal(a->methods, b->methods);
	assert_int_equal(a->hdr_offset, b->hdr_offset);
}

/* Decodes w with all three (reference: nvm_pb_feed with `runs`; test:
 * take_feed, and nvm_pb_feed with `runs` and `hdrs`) in lockstep: segments
 * and pieces of random length, `budget` methods per feed. */
static void lockstep(const uint32_t *w, size_t n, int64_t budget, bool boundary, uint32_t piece_max)
{
	static struct cons ref, tk, hd;
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW));
	cons_init(&ref, &cfg, false);
	cons_init(&tk, &cfg, false);
	cons_init(&hd, &cfg, true);
	ref.boundary = tk.boundary = hd.boundary = boundary;
	size_t at = 0, seg_end = 0, piece_end = 0, rounds = 0, last = 1;
	while (at < n) {
		assert_true(++rounds < 20 * n + 20);
		if (at >= seg_end) {
			seg_end = at + 1 + rnd(600);
			if (seg_end > n)
				seg_end = n;
		}
		if (at >= piece_end) {
			piece_end = at + 1 + rnd(piece_max);
			if (piece_end > seg_end)
				piece_end = seg_end;
		}
		/* a feed that made no progress (a stop before the first run) is
		 * followed by one that may take a method more */
		ref.budget = tk.budget = hd.budget = budget >= 0 && !last ? budget + 1 : budget;
		size_t u1 = nvm_pb_feed(&ref.d, w + at, piece_end - at);
		size_t u2 = take_feed(&tk, w + at, piece_end - at);
		size_t u3 = nvm_pb_feed(&hd.d, w + at, piece_end - at);
		assert_int_equal(u1, u2);
		assert_int_equal(u1, u3);
		assert_int_equal(nvm_pb_stopped(&ref.d), nvm_pb_stopped(&tk.d));
		assert_int_equal(nvm_pb_stopped(&ref.d), nvm_pb_stopped(&hd.d));
		assert_int_equal(ref.taken, tk.taken);
		assert_int_equal(ref.taken, hd.taken);
		assert_dec_equal(&ref.d, &tk.d);
		assert_dec_equal(&ref.d, &hd.d);
		at += u1;
		last = u1;
		if (at == seg_end) {
			nvm_pb_segment_end(&ref.d);
			nvm_pb_segment_end(&tk.d);
			nvm_pb_segment_end(&hd.d);
		}
	}
	nvm_pb_finish(&ref.d);
	nvm_pb_finish(&tk.d);
	nvm_pb_finish(&hd.d);
	assert_dec_equal(&ref.d, &tk.d);
	assert_dec_equal(&ref.d, &hd.d);
	assert_seen_equal(&ref, &tk);
	assert_seen_equal(&ref, &hd);
	/* the fast path's runs came through sink.hdrs (not all through `runs`) */
	if (ref.taken > 100)
		assert_true(hd.nhdrs > 0);
	assert_true(ref.nhdrs == 0);
}

/* The header's checks at their edges against their plain statement
 * (nvm_pb_take_hdr takes them without branches on the kind, and
 * nvm_pb_feed's batched path uses it too, so lockstep cannot see them):
 * every SEC_OP, addresses at both ends, counts that end at 0xFFF or one
 * past it, the reserved bit 12 (at address 0 too), the data cut short. */
static void test_header_edges(void **state)
{
	(void)state;
	static uint32_t w[0x2002];
	static const uint32_t addrs[] = { 0, 1, 0x7ff, 0xffd, 0xffe, 0xfff };
	static const uint32_t cnts[] = { 0, 1, 2, 3, 4, 0x800, 0x801, 0x1000, 0x1001, 0x1fff };
	for (uint32_t op = 0; op < 8; op++)
		for (size_t a = 0; a < sizeof(addrs) / sizeof(addrs[0]); a++)
			for (size_t c = 0; c < sizeof(cnts) / sizeof(cnts[0]); c++)
				for (uint32_t bit12 = 0; bit12 < 2; bit12++) {
					uint32_t cnt = cnts[c], h = hdr(op, cnt, 1, addrs[a]) | bit12 << 12;
					uint32_t take = op == 4 ? 0 : cnt;
					uint32_t span = op == 1 ? cnt : op == 5 ? (cnt < 2 ? cnt : 2) : 0;
					bool ok = (op == 1 || op == 3 || op == 4 || op == 5) && !bit12 &&
					          addrs[a] + span <= 0x1000;
					for (uint32_t avail = take ? take - 1 : 0; avail <= take + 1; avail++) {
						w[0] = h;
						for (uint32_t k = 1; k <= avail; k++)
							w[k] = 7u << 29; /* END_PB_SEGMENT: never taken */
						const uint32_t *q = w;
						uint64_t pos = 0;
						uint32_t got = nvm_pb_take_hdr(&q, w + 1 + avail, &pos);
						bool taken = ok && take <= avail;
						/* COUNT 0 (not IMMD): stepped over, then END_PB_SEGMENT */
						bool nop = taken && !cnt && op != 4;
						assert_int_equal(got, taken && !nop ? h : 0);
						assert_int_equal(q - w, taken ? 1 + take : 0);
						assert_int_equal(pos, taken ? 1 + take : 0);
					}
				}
}

static void test_same_runs(void **state)
{
	(void)state;
	static uint32_t w[MAXW];
	for (uint64_t seed = 1; seed <= 60; seed++) {
		rng = seed;
		size_t n = gen(w, MAXW);
		lockstep(w, n, -1, false, seed % 3 ? 300 : 8);
	}
}

/* Stops after every number of methods up to 40 per feed, inside runs, at
 * their ends and before them (budget 0). */
static void test_stops(void **state)
{
	(void)state;
	static uint32_t w[1024];
	for (uint64_t seed = 1; seed <= 6; seed++) {
		for (int64_t budget = 0; budget <= 40; budget++) {
			for (int boundary = 0; boundary < 2; boundary++) {
				rng = seed;
				size_t n = gen(w, 1024);
				rng = seed * 1000 + (uint64_t)budget;
				lockstep(w, n, budget, boundary, seed & 1 ? 200 : 13);
			}
		}
	}
}

/* A run the front end stops in is resumed by nvm_pb_feed's general path (the
 * rest of its sequence), and a masked run is taken masked. */
static void test_resume_and_mask(void **state)
{
	(void)state;
	const uint32_t w[] = {
		hdr(1, 3, 0, 0x100),   10, 11, 12, /* INC, stopped after 1 */
		hdr(4, 7, 1, 0x200),               /* IMMD */
		1u << 16 | 0x000 << 4,             /* SET_SUBDEVICE_MASK 0: masked */
		hdr(3, 2, 2, 0x300),   20, 21,     /* NINC, masked */
		1u << 16 | 0xfff << 4,             /* unmasked */
		hdr(5, 2, 3, 0x400),   30, 31,     /* 1INC */
	};
	for (int64_t budget = 0; budget <= 8; budget++)
		for (int boundary = 0; boundary < 2; boundary++)
			lockstep(w, sizeof(w) / sizeof(w[0]), budget, boundary, 100);
	/* The fast path's run has every field nvm_pb_feed gives it. */
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW));
	static struct cons c;
	cons_init(&c, &cfg, false);
	c.budget = -1;
	assert_int_equal(take_feed(&c, w, sizeof(w) / sizeof(w[0])), sizeof(w) / sizeof(w[0]));
	assert_int_equal(c.s[0].r.count, 3);
	assert_int_equal(c.s[0].r.offset, 1);
	assert_int_equal(c.s[0].data[2], 12);
	assert_int_equal(c.s[1].r.mode, NVM_PB_MODE_IMMD);
	assert_int_equal(c.s[1].data[0], 7);
	assert_int_equal(c.s[1].r.offset, 4);
	assert_true(c.s[3].r.masked);
	assert_int_equal(c.s[5].r.mode, NVM_PB_MODE_1INC);
	assert_false(c.s[5].r.masked);
	assert_int_equal(c.d.methods, 3 + 1 + 2 + 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_runs),
		cmocka_unit_test(test_header_edges),
		cmocka_unit_test(test_stops),
		cmocka_unit_test(test_resume_and_mask),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
