/* The benchmarks' driver-like stream generator (bench/drvstream.c): the
 * stream decodes without a problem in its format, has the promised shape
 * (short runs, about 4.9 methods per header, segments of 4-64 KiB), is the
 * same for the same seed, and its checksum is the one a decoder-side sum
 * of the engine methods gives (and changes when one data word does). The
 * engine tap (bench/drvtap.c) sees that checksum through a gv100 channel,
 * and another one when a data word in memory differs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../bench/drvstream.c"
#include "../../bench/drvtap.c"
#include "bar0.h"
#include "host_env.h"
#include "snap_bytes.h"

struct sum_sink {
	uint32_t cls[8];
	uint64_t sum, methods, engine, headers, errors, jumps, maxrun;
	bool new_format;
};

static void on_header(void *ctx, const nvm_pb_header *h)
{
	struct sum_sink *s = ctx;
	s->headers++;
	if (h->count > s->maxrun && h->mode != NVM_PB_MODE_NINC)
		s->maxrun = h->count;
}

static void on_run(void *ctx, const nvm_pb_run *r)
{
	struct sum_sink *s = ctx;
	s->methods += r->count;
	for (uint32_t i = 0; i < r->count; i++) {
		uint32_t m = nvm_pb_run_method(r, i);
		if (m == 0 && s->new_format)
			s->cls[r->subch] = r->data[i]; /* SET_OBJECT */
		else if (m >= 0x100)
			s->engine++;
	}
	s->sum += ds_run_sum(s->cls[r->subch], r, 0, r->count);
}

static void on_control(void *ctx, const nvm_pb_control *c)
{
	struct sum_sink *s = ctx;
	s->jumps += c->kind == NVM_PB_CTRL_JUMP || c->kind == NVM_PB_CTRL_OLD_JUMP;
}

static void on_error(void *ctx, const nvm_pb_error *e)
{
	(void)e;
	((struct sum_sink *)ctx)->errors++;
}

/* Decodes s segment by segment (as a front end fetches them). */
static struct sum_sink decode(const struct ds_config *c, const struct ds_stream *s, const char *chip)
{
	struct sum_sink k = { .new_format = c->format == DS_FMT_NEW };
	unsigned nb;
	const struct ds_bind *b = ds_default_binds(c->format, &nb);
	if (c->format != DS_FMT_NEW)
		for (unsigned i = 0; i < nb; i++)
			k.cls[b[i].subch] = b[i].cls; /* the object the handle names */
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup(chip),
	                               c->format == DS_FMT_NEW ? NVM_PB_FORMAT_NEW : NVM_PB_FORMAT_OLD));
	nvm_pb_sink sink = { .ctx = &k, .header = on_header, .run = on_run, .control = on_control, .error = on_error };
	for (size_t i = 0; i < s->nsegs; i++) {
		nvm_pb_decoder d;
		nvm_pb_decoder_init(&d, &cfg, &sink);
		nvm_pb_feed(&d, s->words + s->segs[i].off, s->segs[i].n);
		nvm_pb_finish(&d);
	}
	return k;
}

static void check_format(enum ds_format f, const char *chip)
{
	struct ds_config c = { .format = f, .seed = 3, .words = 1u << 20, .pb_va = 0x1000000, .sem_va = 0x200000 };
	struct ds_stream s, s2;
	assert_int_equal(ds_generate(&c, &s), 0);
	assert_int_equal(ds_generate(&c, &s2), 0);
	/* deterministic */
	assert_int_equal(s.nwords, s2.nwords);
	assert_memory_equal(s.words, s2.words, s.nwords * 4);
	assert_true(s.nwords <= c.words && s.nwords > c.words - 64);
	struct sum_sink k = decode(&c, &s, chip);
	assert_int_equal(k.errors, 0);
	assert_int_equal(k.headers, s.headers);
	assert_int_equal(k.methods, s.methods);
	assert_int_equal(k.engine, s.engine_methods);
	assert_true(k.sum == s.checksum);
	assert_true(k.maxrun <= 8 || f != DS_FMT_NEW);
	double per = (double)s.methods / (double)s.headers;
	print_message("%s: %.2f methods per header, %zu segments\n", chip, per, s.nsegs);
	assert_true(per > 4.5 && per < 5.3);
	/* segments of 4-64 KiB (the NV04 ring's wrap cuts some shorter) */
	size_t total = 0, big = 0;
	for (size_t i = 0; i < s.nsegs; i++) {
		assert_true(s.segs[i].n <= 65536 / 4);
		total += s.segs[i].n;
		big += s.segs[i].n >= 4096 / 4;
	}
	assert_int_equal(total, s.nwords);
	assert_true(big * 10 >= s.nsegs * 9 || f == DS_FMT_NV04_DMA);
	if (f == DS_FMT_NV04_DMA)
		assert_true(k.jumps >= 3); /* 4 MiB through a 256 KiB ring */
	/* one data word changed: another checksum */
	s2.words[s2.nwords - 1] ^= 1;
	k = decode(&c, &s2, chip);
	assert_true(k.sum != s.checksum);
	ds_free(&s);
	ds_free(&s2);
}

static void test_new(void **state)
{
	(void)state;
	check_format(DS_FMT_NEW, "gv100");
}

static void test_nv04(void **state)
{
	(void)state;
	check_format(DS_FMT_NV04_DMA, "nv40");
}

static void test_g80(void **state)
{
	(void)state;
	check_format(DS_FMT_G80_IB, "g84");
}

/* Another seed, another stream. */
static void test_seed(void **state)
{
	(void)state;
	struct ds_config c = { .format = DS_FMT_NEW, .seed = 1, .words = 4096 };
	struct ds_stream a, b;
	assert_int_equal(ds_generate(&c, &a), 0);
	c.seed = 2;
	assert_int_equal(ds_generate(&c, &b), 0);
	assert_true(a.checksum != b.checksum);
	ds_free(&a);
	ds_free(&b);
	c.words = 8; /* too small for the binds */
	assert_int_equal(ds_generate(&c, &a), -1);
}

/* Runs the stream's segments through channel c; returns the tap's sum. */
static uint64_t run_tapped(struct env *e, struct env_chan *c, const struct ds_stream *s)
{
	assert_int_equal(ds_tap_install(e->gpu), 0);
	for (size_t i = 0; i < s->nsegs; i++)
		env_gp(e, c, c->pb_va + 4ull * s->segs[i].off, s->segs[i].n, 0);
	env_kick(e, c);
	assert_string_equal(env_run(e, 100000000), "idle");
	uint64_t sum = ds_tap_sum();
	ds_tap_remove(e->gpu);
	return sum;
}

static void test_tap(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t sem_pa, sem = env_map(&e, 4096, &sem_pa);
	struct ds_config cfg = { .format = DS_FMT_NEW, .seed = 5, .words = ENV_PB_BYTES / 4, .sem_va = sem };
	struct ds_stream s;
	assert_int_equal(ds_generate(&cfg, &s), 0);
	assert_true(s.nsegs < ENV_GP_ENTRIES);
	env_pb(&e, c, s.words, (uint32_t)s.nwords);
	uint64_t before = ds_engine_total(e.gpu);
	assert_true(run_tapped(&e, c, &s) == s.checksum);
	assert_int_equal(ds_tap_count(), s.engine_methods);
	assert_int_equal(ds_engine_total(e.gpu) - before, s.engine_methods);
	/* the last data word differs in memory: the engines get another sum */
	uint32_t last = s.words[s.nwords - 1] ^ 0x100;
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->pb_pa + 4ull * (s.nwords - 1), last);
	assert_true(run_tapped(&e, c, &s) != s.checksum);
	assert_int_equal(ds_tap_count(), s.engine_methods);
	ds_free(&s);
	env_fini(&e);
}

static void no_hook(void *user, const nvm_event *ev)
{
	(void)ev;
	(*(unsigned *)user)++;
}

/* The GR and GRCE logs (cap methods each) after the stream ran through a
 * fresh channel, with a hook installed (the PBDMA's general path: every
 * run built and delivered by deliver_run) or without (the header-first
 * path, deliver_rec, logs the recorder's runs from their headers); the
 * virtual time and the counts at the end. */
struct logs {
	nvm_method *m[2];
	size_t n[2];
	uint64_t total[2], now, methods;
	unsigned hooked;
	/* the snapshot's engine section (engine_snap_save: every engine's
	 * method log as it lies in memory, both rings whole, so slots no read
	 * returns too) */
	uint8_t *engs;
	size_t engs_len;
};

static void run_logged(const struct ds_stream *s, uint64_t sem_seed, size_t cap, bool hook, struct logs *l)
{
	static const char *const eng[2] = { "gr", "grce" };
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t sem_pa, sem = env_map(&e, 4096, &sem_pa);
	assert_int_equal(sem, sem_seed);
	env_pb(&e, c, s->words, (uint32_t)s->nwords);
	memset(l, 0, sizeof(*l));
	for (int k = 0; k < 2; k++)
		assert_int_equal(nvm_method_log_config(e.gpu, eng[k], cap), NVM_OK);
	int id = -1;
	if (hook)
		assert_int_equal(nvm_hook_add(e.gpu, NVM_EV_MASK(NVM_EV_UNMODELLED), no_hook, &l->hooked, &id), NVM_OK);
	for (size_t i = 0; i < s->nsegs; i++)
		env_gp(&e, c, c->pb_va + 4ull * s->segs[i].off, s->segs[i].n, 0);
	env_kick(&e, c);
	assert_string_equal(env_run(&e, 100000000), "idle");
	for (int k = 0; k < 2; k++) {
		l->m[k] = calloc(cap ? cap : 1, sizeof(nvm_method));
		assert_non_null(l->m[k]);
		assert_int_equal(nvm_method_log_read(e.gpu, eng[k], 0, l->m[k], cap, &l->n[k], &l->total[k]), NVM_OK);
	}
	l->now = nvm_time_ns(e.gpu);
	l->methods = ds_engine_total(e.gpu);
	l->engs = section_of(e.gpu, "ENGS", &l->engs_len);
	env_fini(&e);
}

/* The semaphore VA run_logged's channel maps (the first env_map of a
 * fresh env_one_channel): the streams' sem_va. */
static uint64_t logged_sem_va(void)
{
	struct env e;
	env_one_channel(&e);
	uint64_t sem_pa, sem = env_map(&e, 4096, &sem_pa);
	env_fini(&e);
	return sem;
}

/* a (the header-first path) and b (a hook installed: the general path),
 * run_logged of one stream with one cap, hold the same: the virtual time,
 * the engine counts, both logs field by field, the snapshots' engine
 * sections byte for byte. Frees both. */
static void logs_same(struct logs *a, struct logs *b)
{
	assert_int_equal(b->hooked, 0);
	assert_int_equal(a->now, b->now);
	assert_int_equal(a->methods, b->methods);
	assert_int_equal(a->engs_len, b->engs_len);
	assert_memory_equal(a->engs, b->engs, a->engs_len);
	free(a->engs);
	free(b->engs);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(a->total[k], b->total[k]);
		assert_int_equal(a->n[k], b->n[k]);
		for (size_t i = 0; i < a->n[k]; i++) { /* field by field: the records have padding */
			assert_int_equal(a->m[k][i].time_ns, b->m[k][i].time_ns);
			assert_int_equal(a->m[k][i].chid, b->m[k][i].chid);
			assert_int_equal(a->m[k][i].subch, b->m[k][i].subch);
			assert_int_equal(a->m[k][i].cls, b->m[k][i].cls);
			assert_int_equal(a->m[k][i].method, b->m[k][i].method);
			assert_int_equal(a->m[k][i].data, b->m[k][i].data);
			assert_int_equal(a->m[k][i].ctx, b->m[k][i].ctx);
			assert_int_equal(a->m[k][i].implicit, b->m[k][i].implicit);
		}
		free(a->m[k]);
		free(b->m[k]);
	}
}

/* The recorder's runs logged from their headers (recording on, the
 * default; log_stretch, their records from templates) are the records the
 * general path logs: every field of every method held, with the default
 * log and with one of 5 methods (longer runs take the general path, the
 * rings wrap at every few runs), and the rings are the same byte for byte
 * (the snapshot's engine section). Without
 * a log (recording off: deliver_rec's runs counted together, rec_flush)
 * the counts and the virtual time are the general path's. */
static void test_logs(void **state)
{
	(void)state;
	uint64_t sem = logged_sem_va();
	struct ds_config cfg = { .format = DS_FMT_NEW, .seed = 7, .words = ENV_PB_BYTES / 4, .sem_va = sem };
	struct ds_stream s;
	assert_int_equal(ds_generate(&cfg, &s), 0);
	static const size_t caps[] = { 4096, 5, 0 };
	for (size_t ci = 0; ci < 3; ci++) {
		struct logs a, b;
		run_logged(&s, sem, caps[ci], false, &a);
		run_logged(&s, sem, caps[ci], true, &b);
		assert_int_equal(a.methods, s.engine_methods);
		for (int k = 0; k < 2; k++)
			assert_int_equal(a.n[k], a.total[k] < caps[ci] ? a.total[k] : caps[ci]);
		logs_same(&a, &b);
	}
	ds_free(&s);
}

/* The log tests' GR stream: runs i0 .. i0 + runs - 1 appended to w (*nw
 * words), run i of 1 + i % 5 methods from 0x200 + 4 * (i % 8), datum j
 * of it i << 8 | j; the methods in want_m / want_d (*nm of them). */
static void gr_runs(uint32_t *w, size_t *nw, uint32_t i0, uint32_t runs, uint32_t *want_m, uint32_t *want_d, size_t *nm)
{
	for (uint32_t i = i0; i < i0 + runs; i++) {
		uint32_t k = 1 + i % 5, m = 0x200 + 4 * (i % 8);
		w[(*nw)++] = HDR_INC(0, m, k);
		for (uint32_t j = 0; j < k; j++, (*nm)++) {
			w[(*nw)++] = want_d[*nm] = i << 8 | j;
			want_m[*nm] = m + 4 * j;
		}
	}
}

/* 16 NOPs (Host method 0x008) after w's *nw words: what follows the last
 * logged run, readable, logged by nothing. */
static void nops(uint32_t *w, size_t *nw)
{
	for (int j = 0; j < 16; j++)
		w[(*nw)++] = HDR_IMMD(0, 0x008, 0);
}

/* The last 64 methods of GR's log (cap 64) are want's last 64. */
static void gr_log_is(nvm_gpu *gpu, const uint32_t *want_m, const uint32_t *want_d, size_t nm)
{
	nvm_method m[64];
	size_t n = 0;
	uint64_t total = 0;
	assert_int_equal(nvm_method_log_read(gpu, "gr", 0, m, 64, &n, &total), NVM_OK);
	assert_int_equal(total, nm);
	assert_int_equal(n, 64);
	for (size_t i = 0; i < 64; i++) {
		assert_int_equal(m[i].method, want_m[nm - 64 + i]);
		assert_int_equal(m[i].data, want_d[nm - 64 + i]);
	}
}

enum { LOG_RUNS = 300, LOG_WORDS = 2 + LOG_RUNS * 6 + 2 + 16 };

/* issue 19: the recorder's short runs logged from their headers go into
 * the data ring as 8 words at once (engine_log_put_tpl), the words past a
 * run landing in slots that hold no method kept (the ring has
 * ENG_LOG_SPARE slots more than it keeps). A log of 64 methods that wraps
 * many times, the last run one method with NOPs after it (8 readable
 * words past its datum, nothing logged after it): the 64 methods held are
 * the last 64 sent, as with the general path (a hook installed), and the
 * snapshots' engine sections are the same byte for byte (the slots no
 * method held is in saved as 0). */
static void test_log_copy8(void **state)
{
	(void)state;
	uint64_t sem = logged_sem_va();
	static uint32_t w[LOG_WORDS], want_m[LOG_RUNS * 5 + 1], want_d[LOG_RUNS * 5 + 1];
	size_t nw = 0, nm = 0;
	w[nw++] = HDR_INC(0, 0x000, 1);
	w[nw++] = 0xc397;
	gr_runs(w, &nw, 0, LOG_RUNS, want_m, want_d, &nm);
	w[nw++] = HDR_INC(0, 0x240, 1);
	w[nw++] = want_d[nm] = 0xabcd;
	want_m[nm++] = 0x240;
	nops(w, &nw);
	struct ds_seg seg = { .off = 0, .n = (uint32_t)nw };
	struct ds_stream st = { .words = w, .nwords = nw, .segs = &seg, .nsegs = 1 };
	struct logs a, b;
	run_logged(&st, sem, 64, false, &a);
	run_logged(&st, sem, 64, true, &b);
	assert_int_equal(a.total[0], nm);
	assert_int_equal(a.n[0], 64);
	for (size_t i = 0; i < 64; i++) {
		assert_int_equal(a.m[0][i].method, want_m[nm - 64 + i]);
		assert_int_equal(a.m[0][i].data, want_d[nm - 64 + i]);
	}
	logs_same(&a, &b);
}

/* Snapshots saved while the data ring had no slots past those it keeps
 * (0.1.0: the power of two at or above cap) still load and go on: GR's log
 * of 64, full after 40 runs, its snapshot rewritten to that layout (a data
 * ring of 64 words, each method held at its index modulo 64), loads into a
 * fresh GPU, which reads back the same 64 methods and logs 60 runs more
 * (the stretch's copies into a ring that is not log_wide) as the GPU never
 * saved does. */
static void test_log_old_ring(void **state)
{
	(void)state;
	struct env a, b;
	struct env_chan *ca = env_one_channel(&a), *cb = env_one_channel(&b);
	assert_int_equal(nvm_method_log_config(a.gpu, "gr", 64), NVM_OK);
	static uint32_t w[LOG_WORDS], want_m[LOG_RUNS * 5], want_d[LOG_RUNS * 5];
	size_t nw = 0, nm = 0;
	w[nw++] = HDR_INC(0, 0x000, 1);
	w[nw++] = 0xc397;
	gr_runs(w, &nw, 0, 40, want_m, want_d, &nm);
	nops(w, &nw);
	env_push(&a, ca, w, (uint32_t)nw);
	assert_string_equal(env_run(&a, 1000000), "idle");
	gr_log_is(a.gpu, want_m, want_d, nm);
	/* the snapshot, GR's log in it: cap 64, 128 data slots, full */
	size_t len, n;
	uint8_t *s = snap_of(a.gpu, &len);
	uint8_t *d = section(s, len, "ENGS", &n);
	size_t at = engs_log(d, n, "gr");
	assert_true(at);
	uint64_t rsize = get64(d + at + 48), seq = get64(d + at + 56);
	assert_int_equal(get64(d + at + 24), 64);
	assert_int_equal(get64(d + at + 40), 128);
	assert_int_equal(get32(d + at + 76), 2); /* ring_max */
	assert_int_equal(seq, nm);
	/* the same state with a data ring of 64 words */
	size_t ds = (size_t)(d - s), data = ds + at + 80 + (size_t)rsize * 45, olen = len - 64 * 4;
	uint8_t *o = malloc(olen);
	assert_non_null(o);
	memcpy(o, s, data);
	put64(o + ds + at + 40, 64);
	for (uint64_t m = seq - 64; m < seq; m++)
		put32(o + data + 4 * (m & 63), get32(s + data + 4 * (m & 127)));
	memcpy(o + data + 64 * 4, s + data + 128 * 4, len - data - 128 * 4);
	put64(o + ds - 8, n - 64 * 4); /* the section's length, then its CRC */
	fix_crc(o + ds, n - 64 * 4);
	assert_int_equal(nvm_snapshot_load(b.gpu, o, olen), NVM_OK);
	gr_log_is(b.gpu, want_m, want_d, nm);
	/* 20 runs more on both (the PBDMA's engine decisions, which a
	 * snapshot does not keep, are made again: the header-first path logs
	 * from the next fetch on), then 40 */
	*cb = *ca; /* the driver's bookkeeping goes on from the snapshot's */
	for (uint32_t i0 = 40, k = 20; i0 < 100; i0 += k, k = 40) {
		size_t nw2 = 0;
		static uint32_t w2[LOG_WORDS];
		gr_runs(w2, &nw2, i0, k, want_m, want_d, &nm);
		nops(w2, &nw2);
		env_push(&a, ca, w2, (uint32_t)nw2);
		env_push(&b, cb, w2, (uint32_t)nw2);
		assert_string_equal(env_run(&a, 1000000), "idle");
		assert_string_equal(env_run(&b, 1000000), "idle");
		gr_log_is(a.gpu, want_m, want_d, nm);
		gr_log_is(b.gpu, want_m, want_d, nm);
	}
	free(o);
	free(s);
	env_fini(&a);
	env_fini(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new),       cmocka_unit_test(test_nv04),         cmocka_unit_test(test_g80),
		cmocka_unit_test(test_seed),      cmocka_unit_test(test_tap),          cmocka_unit_test(test_logs),
		cmocka_unit_test(test_log_copy8), cmocka_unit_test(test_log_old_ring),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
