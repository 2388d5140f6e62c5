/*
 * The text and JSON printers' compiled methods (print.c "compiled methods")
 * print the same bytes as lines formatted from the tables: the benchmark's
 * driver-like streams against hashes of what the printer printed before
 * the compiled methods existed, and every class's methods with random
 * data, random streams on every chip profile, and a cache too small for
 * the stream, each printed both ways and compared byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "drvstream.h"
#include "nvmodel/pushbuf.h"
#include "pushbuf/pb_internal.h"

struct cap {
	char *text;
	size_t len;
};

static void cap_flush(void *ctx, const char *s, size_t n)
{
	struct cap *c = ctx;
	char *t = realloc(c->text, c->len + n + 1);
	assert_non_null(t);
	c->text = t;
	memcpy(c->text + c->len, s, n);
	c->len += n;
	c->text[c->len] = 0;
}

enum way {
	CACHED,   /* the default: compiled methods */
	UNCACHED, /* every line from the tables */
	SMALL,    /* compiled methods until 8 KiB are used, then from the tables */
};

struct print_opts {
	const char *chip;
	nvm_pb_format format;
	nvm_pb_style style;
	uint32_t subdevice; /* 0: the default */
	int pin_subch;      /* -1: none */
	uint32_t pin_class;
	const struct ds_seg *segs; /* fed segment by segment (NULL: at once) */
	size_t nsegs;
};

/* pb decode's output of w in a way. */
static struct cap print_way(const struct print_opts *o, const uint32_t *w, size_t n, enum way way)
{
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup(o->chip), o->format));
	if (o->subdevice)
		cfg.subdevice_id = o->subdevice;
	struct cap cap = { 0 };
	nvm_pb_out out = { .flush = cap_flush, .ctx = &cap };
	nvm_pb_printer *p = malloc(sizeof(*p));
	assert_non_null(p);
	nvm_pb_printer_init(p, o->style, &cfg, w, 0, n, &out);
	if (way == UNCACHED)
		pb_printer_uncached(p);
	if (way == SMALL)
		pb_printer_cache_limit(p, 8192);
	if (o->pin_subch >= 0)
		nvm_pb_printer_bind(p, (unsigned)o->pin_subch, nvm_pb_class_find(o->pin_class), true);
	nvm_pb_sink sink = nvm_pb_printer_sink(p);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &sink);
	nvm_pb_printer_begin(p);
	if (o->segs) {
		for (size_t i = 0; i < o->nsegs; i++) {
			nvm_pb_feed(&d, w + o->segs[i].off, o->segs[i].n);
			nvm_pb_segment_end(&d);
		}
	} else {
		nvm_pb_feed(&d, w, n);
		nvm_pb_segment_end(&d);
	}
	nvm_pb_finish(&d);
	nvm_pb_printer_end(p);
	assert_false(out.oom);
	nvm_pb_out_free(&out);
	free(p);
	if (!cap.text)
		cap.text = calloc(1, 1);
	return cap;
}

/* The first line where a and b differ, for the failure message. */
static void report_diff(const struct cap *a, const struct cap *b, const char *what)
{
	size_t i = 0;
	while (i < a->len && i < b->len && a->text[i] == b->text[i])
		i++;
	size_t start = i;
	while (start > 0 && a->text[start - 1] != '\n')
		start--;
	print_error("%s: outputs differ at byte %zu (lengths %zu, %zu)\n  from the tables: %.200s\n  compiled:        "
	            "%.200s\n",
	            what, i, a->len, b->len, a->text + start, b->text + start);
}

/* The three ways print the same bytes. */
static void same_every_way(const struct print_opts *o, const uint32_t *w, size_t n, const char *what)
{
	struct cap ref = print_way(o, w, n, UNCACHED);
	for (int way = CACHED; way <= SMALL; way += SMALL - CACHED) {
		struct cap c = print_way(o, w, n, (enum way)way);
		if (c.len != ref.len || memcmp(c.text, ref.text, c.len)) {
			report_diff(&ref, &c, what);
			fail();
		}
		free(c.text);
	}
	free(ref.text);
}

static uint64_t fnv1a(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

static void drv(enum ds_format f, uint32_t seed, size_t words, struct ds_stream *s)
{
	struct ds_config c = { .format = f, .seed = seed, .words = words, .sem_va = f == DS_FMT_NEW ? 0x200000 : 0 };
	assert_int_equal(ds_generate(&c, s), 0);
}

/* The benchmark's streams (bench/drvstream.c, seed 7, 64 Ki words) as
 * `nvmodel pb decode FILE [--chip g84] [--json]` printed them before the
 * compiled methods: the length and FNV-1a hash of the output. A change of
 * the generator changes them too (then take them again from a build
 * before the printer change). */
static void test_drvstream_hashes(void **state)
{
	(void)state;
	static const struct {
		enum ds_format f;
		const char *chip;
		nvm_pb_format pf;
		nvm_pb_style style;
		size_t len;
		uint64_t hash;
	} cases[] = {
		{ DS_FMT_NEW, "gv100", NVM_PB_FORMAT_NEW, NVM_PB_STYLE_TEXT, 5230370, 0xd4c79b1fba05bea6ull },
		{ DS_FMT_NEW, "gv100", NVM_PB_FORMAT_NEW, NVM_PB_STYLE_JSON, 9805001, 0x35669f5f76a8a099ull },
		{ DS_FMT_G80_IB, "g84", NVM_PB_FORMAT_OLD, NVM_PB_STYLE_TEXT, 2381245, 0x68c04496282a60beull },
		{ DS_FMT_G80_IB, "g84", NVM_PB_FORMAT_OLD, NVM_PB_STYLE_JSON, 5482289, 0x14c8e7a0fc3ed8efull },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ds_stream s;
		drv(cases[i].f, 7, 65536, &s);
		struct print_opts o = { .chip = cases[i].chip,
			                .format = cases[i].pf,
			                .style = cases[i].style,
			                .pin_subch = -1 };
		for (int way = CACHED; way <= SMALL; way++) {
			struct cap c = print_way(&o, s.words, s.nwords, (enum way)way);
			if (c.len != cases[i].len || fnv1a(c.text, c.len) != cases[i].hash) {
				print_error("case %zu way %d: %zu bytes, hash %016llx; expected %zu, %016llx\n", i,
				            (int)way, c.len, (unsigned long long)fnv1a(c.text, c.len), cases[i].len,
				            (unsigned long long)cases[i].hash);
				fail();
			}
			free(c.text);
		}
		ds_free(&s);
	}
}

/* More driver-like streams, fed GP entry by GP entry, other seeds. */
static void test_drvstream_segments(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 3; seed++) {
		for (int fmt = 0; fmt < 2; fmt++) {
			struct ds_stream s;
			drv(fmt ? DS_FMT_G80_IB : DS_FMT_NEW, seed, 40000, &s);
			for (nvm_pb_style st = NVM_PB_STYLE_TEXT; st <= NVM_PB_STYLE_JSON; st++) {
				struct print_opts o = { .chip = fmt ? "g84" : "gv100",
					                .format = fmt ? NVM_PB_FORMAT_OLD : NVM_PB_FORMAT_NEW,
					                .style = st,
					                .pin_subch = -1,
					                .segs = s.segs,
					                .nsegs = s.nsegs };
				same_every_way(&o, s.words, s.nwords, "driver-like stream");
			}
			ds_free(&s);
		}
	}
}

static uint64_t rng_state;

static uint32_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* Data of every kind a field meets: small values, enum values, floats,
 * addresses, noise, all ones. */
static uint32_t rnd_data(void)
{
	static const uint32_t floats[] = { 0x00000000, 0x3f800000, 0x3f000000, 0xbf800000, 0x44f00000,
		                           0x3b808081, 0x7f800000, 0xff800000, 0x7fc00000, 0x80000000,
		                           0x00000001, 0x38d1b717, 0x4b189680, 0x358637bd };
	switch (rnd() % 6) {
	case 0: return rnd() & 0xff;
	case 1: return rnd() & 0xf;
	case 2: return floats[rnd() % (sizeof(floats) / sizeof(floats[0]))];
	case 3: return rnd() & 0xfffff000u;
	case 4: return rnd() % 2 ? 0xffffffffu : rnd() % 0x20000;
	default: return rnd();
	}
}

/* Every method of every class, new format: each class bound by SET_OBJECT
 * (or, for those whose methods the old format names, pinned), its methods
 * in INC runs with data of every kind, some IMMD, some masked. */
static void test_every_class(void **state)
{
	(void)state;
	rng_state = 42;
	size_t cap = 1u << 16;
	uint32_t *w = malloc(cap * sizeof(*w));
	assert_non_null(w);
	for (size_t ci = 0; ci < nvm_pb_nclasses; ci++) {
		const nvm_pb_class *c = nvm_pb_class_get(ci);
		size_t n = 0;
		/* subchannel 3: SET_OBJECT (a host class just names SET_OBJECT) */
		nvm_pb_encode_method(NVM_PB_FORMAT_NEW, NVM_PB_MODE_INC, 3, 0, 1, &w[n++]);
		w[n++] = c->id;
		for (size_t i = 0; i < c->nmethods && n + 40 < cap; i++) {
			const nvm_pb_method *m = nvm_pb_class_method_at(c, i);
			if (i == c->nmethods / 2) /* the rest masked when SUBDEVICE_ID is 0x001 */
				nvm_pb_encode_control(NVM_PB_FORMAT_NEW, NVM_PB_CTRL_SET_SUBDEVICE_MASK, 0x002,
				                      &w[n++]);
			uint32_t elems = m->count ? m->count : 1, count = elems < 6 ? elems : 6;
			if (m->addr < 0x100 || m->addr + 4 * count > 0x3ffc)
				continue;
			if (rnd() % 8 == 0) {
				nvm_pb_encode_method(NVM_PB_FORMAT_NEW, NVM_PB_MODE_IMMD, 3, m->addr, rnd() % 0x2000,
				                     &w[n++]);
				continue;
			}
			nvm_pb_encode_method(NVM_PB_FORMAT_NEW, NVM_PB_MODE_INC, 3, m->addr, count, &w[n++]);
			for (uint32_t k = 0; k < count; k++)
				w[n++] = rnd_data();
		}
		for (nvm_pb_style st = NVM_PB_STYLE_TEXT; st <= NVM_PB_STYLE_JSON; st++) {
			struct print_opts o = { .chip = "gv100",
				                .format = NVM_PB_FORMAT_NEW,
				                .style = st,
				                .pin_subch = -1 };
			same_every_way(&o, w, n, c->tag);
			/* the same bound by --class (a class SET_OBJECT cannot bind, masked lines) */
			o.pin_subch = 3;
			o.pin_class = c->id;
			o.subdevice = 0x001;
			same_every_way(&o, w, n, c->tag);
		}
	}
	free(w);
}

/* Random words and random method sequences on every chip profile, both
 * formats where the chip accepts them, pins and subdevice masks. */
static void test_random_streams(void **state)
{
	(void)state;
	rng_state = 7;
	enum { N = 3000 };
	uint32_t *w = malloc(N * sizeof(*w));
	assert_non_null(w);
	for (size_t gi = 0; nvm_pb_gen_get(gi); gi++) {
		const nvm_pb_gen *gen = nvm_pb_gen_get(gi);
		for (int fmt = 0; fmt < 2; fmt++) {
			nvm_pb_format f = fmt ? NVM_PB_FORMAT_OLD : NVM_PB_FORMAT_NEW;
			nvm_pb_config cfg;
			if (!nvm_pb_config_init(&cfg, gen, f))
				continue;
			for (int round = 0; round < 4; round++) {
				size_t n = 0;
				while (n + 20 < N) {
					uint32_t r = rnd() % 16;
					if (r == 0) {
						w[n++] = rnd(); /* anything: controls, errors */
					} else if (r == 1 && f == NVM_PB_FORMAT_NEW) {
						/* a SET_OBJECT of a class with a table, or of none */
						nvm_pb_encode_method(f, NVM_PB_MODE_INC, rnd() % 8, 0, 1, &w[n++]);
						const nvm_pb_class *c = nvm_pb_class_get(rnd() % nvm_pb_nclasses);
						w[n++] = rnd() % 4 ? c->id : rnd() & 0xffff;
					} else {
						nvm_pb_mode mode = (nvm_pb_mode)(rnd() % 4);
						uint32_t count =
						        mode == NVM_PB_MODE_IMMD ? rnd() % 0x2000 : 1 + rnd() % 12;
						uint32_t m = (rnd() % (f == NVM_PB_FORMAT_NEW ? 0x1000 : 0x800)) * 4;
						if (rnd() % 4 == 0)
							m = (rnd() % 0x40) * 4; /* host methods */
						if (!nvm_pb_encode_method(f, mode, rnd() % 8, m, count, &w[n]))
							continue;
						n++;
						for (uint32_t k = 0; mode != NVM_PB_MODE_IMMD && k < count && n < N;
						     k++)
							w[n++] = rnd_data();
					}
				}
				for (nvm_pb_style st = NVM_PB_STYLE_TEXT; st <= NVM_PB_STYLE_JSON; st++) {
					struct print_opts o = { .chip = gen->chip,
						                .format = f,
						                .style = st,
						                .pin_subch = round == 1 ? (int)(rnd() % 8) : -1,
						                .pin_class =
						                        nvm_pb_class_get(rnd() % nvm_pb_nclasses)->id,
						                .subdevice = round == 2 ? 0x001 : 0 };
					same_every_way(&o, w, n, gen->chip);
				}
			}
		}
	}
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drvstream_hashes),
		cmocka_unit_test(test_drvstream_segments),
		cmocka_unit_test(test_every_class),
		cmocka_unit_test(test_random_streams),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
