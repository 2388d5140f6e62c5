/* The pushbuffer decoder, new (Fermi+) format. Seed 000 section 6 "Host
 * Pushbuffer Format (FIFO_DMA)" unless a comment says otherwise. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "nvmodel/nvmodel.h"
#include "pb_rec.h"

#define N(a) (sizeof(a) / sizeof(a[0]))

/* NV_FIFO_DMA_{INCR,NONINCR,ONEINCR,IMMD}: OPCODE 31:29, COUNT/DATA 28:16,
 * SUBCHANNEL 15:13, ADDRESS 11:0 (dword address). */
static uint32_t hdr(uint32_t sec, uint32_t count, uint32_t subch, uint32_t byte_addr)
{
	return sec << 29 | count << 16 | subch << 13 | byte_addr >> 2;
}

static struct rec R;

static void decode_new(const uint32_t *dw, size_t n)
{
	rec_decode(&R, "gv100", NVM_PB_FORMAT_NEW, false, dw, n);
	/* every dword accounted for exactly once */
	assert_int_equal(R.accounted, n);
}

/* "Incrementing PB Method Header Format": addr, addr+1 (dword), ... */
static void test_inc(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(1, 3, 4, 0x400), 11, 22, 33 };
	decode_new(pb, N(pb));
	assert_int_equal(R.nh, 1);
	assert_int_equal(R.h[0].count, 3);
	assert_int_equal(R.h[0].subch, 4);
	assert_int_equal(R.h[0].mode, NVM_PB_MODE_INC);
	assert_int_equal(R.nm, 3);
	assert_int_equal(R.m[0].method, 0x400);
	assert_int_equal(R.m[1].method, 0x404);
	assert_int_equal(R.m[2].method, 0x408);
	assert_int_equal(R.m[2].data, 33);
	assert_int_equal(R.runs, 1); /* one run, not one call per dword */
	assert_int_equal(R.ne, 0);
}

/* "ADDRESS is a dword-address": byte address = ADDRESS << 2. */
static void test_address_is_dword(void **state)
{
	(void)state;
	uint32_t pb[] = { (1u << 29) | (1u << 16) | 0xc0u, 5 };
	decode_new(pb, N(pb));
	assert_int_equal(R.m[0].method, 0x300);
}

/* "Non-Incrementing PB Method Header Format": every method has the same address. */
static void test_ninc(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(3, 3, 2, 0x200), 1, 2, 3 };
	decode_new(pb, N(pb));
	assert_int_equal(R.nm, 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(R.m[i].method, 0x200);
		assert_int_equal(R.m[i].data, (uint32_t)i + 1);
		assert_int_equal(R.m[i].mode, NVM_PB_MODE_NINC);
	}
}

/* "Increment-Once PB Method Header Format": addr, addr+1, addr+1, ... */
static void test_1inc(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(5, 4, 1, 0x100), 1, 2, 3, 4 };
	decode_new(pb, N(pb));
	assert_int_equal(R.nm, 4);
	assert_int_equal(R.m[0].method, 0x100);
	assert_int_equal(R.m[1].method, 0x104);
	assert_int_equal(R.m[3].method, 0x104);
}

/* 1INC with COUNT 1 generates just the first method. */
static void test_1inc_count1(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(5, 1, 1, 0x3ffc), 9, 0 };
	decode_new(pb, N(pb));
	assert_int_equal(R.nm, 1);
	assert_int_equal(R.m[0].method, 0x3ffc);
	assert_int_equal(R.ne, 0); /* address 0xFFF + 0 does not wrap */
	assert_int_equal(R.nc, 1); /* the NOP after it is an instruction again */
	assert_int_equal(R.c[0].kind, NVM_PB_CTRL_NOP);
}

/* "If the COUNT field is zero, the other fields are ignored, and the PB
 * method effectively becomes a no-op with no method data entries". */
static void test_count_zero(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(1, 0, 0, 0x400), hdr(3, 0, 0, 0x3ffc), hdr(5, 0, 0, 0x3ffc), hdr(4, 7, 0, 0x500) };
	decode_new(pb, N(pb));
	assert_int_equal(R.nh, 4);
	assert_int_equal(R.h[0].count, 0);
	assert_int_equal(R.nm, 1); /* only the IMMD generates a method */
	assert_int_equal(R.m[0].method, 0x500);
	assert_int_equal(R.m[0].data, 7);
	assert_int_equal(R.ne, 0);
}

/* "Immediate-Data PB Method Header Format": IMMD_DATA 28:16, 13 bits. */
static void test_immd_max(void **state)
{
	(void)state;
	uint32_t pb[] = { 0x9fff0000u | (3u << 13) | 0x0c0u };
	decode_new(pb, N(pb));
	assert_int_equal(R.nm, 1);
	assert_int_equal(R.m[0].data, 0x1fff);
	assert_int_equal(R.m[0].method, 0x300);
	assert_int_equal(R.m[0].subch, 3);
	assert_int_equal(R.m[0].mode, NVM_PB_MODE_IMMD);
	assert_int_equal(R.h[0].ndwords, 1);
}

/* NV_FIFO_DMA_NOP 0x00000000: a universal NOP, not a method header. */
static void test_nop(void **state)
{
	(void)state;
	uint32_t pb[] = { 0, 0 };
	decode_new(pb, N(pb));
	assert_int_equal(R.nc, 2);
	assert_int_equal(R.c[1].kind, NVM_PB_CTRL_NOP);
	assert_int_equal(R.c[1].offset, 1);
	assert_int_equal(R.nh, 0);
}

/* SET/STORE/USE_SUBDEVICE_MASK (SEC_OP 0, TERT_OP 1/2/3, VALUE 15:4) and
 * dev_pbdma "SUBDEVICE": methods are ignored while mask & SUBDEVICE_ID == 0. */
static void test_subdevice_mask(void **state)
{
	(void)state;
	uint32_t pb[] = {
		0x00010000u | (0x002u << 4), /* SSDM 0x002 */
		hdr(4, 1, 0, 0x300),         /* masked for id 1 */
		0x00020000u | (0x001u << 4), /* STORE 0x001 */
		hdr(4, 2, 0, 0x300),         /* still masked */
		0x00030000u,                 /* USE: mask 0x001 -> active */
		hdr(4, 3, 0, 0x300),
	};
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW));
	cfg.subdevice_id = 0x001;
	nvm_pb_sink s = rec_sink(&R);
	decode_all(&cfg, &s, pb, N(pb));
	assert_int_equal(R.nc, 3);
	assert_int_equal(R.c[0].kind, NVM_PB_CTRL_SET_SUBDEVICE_MASK);
	assert_int_equal(R.c[0].value, 0x002);
	assert_false(R.c[0].active);
	assert_int_equal(R.c[1].kind, NVM_PB_CTRL_STORE_SUBDEVICE_MASK);
	assert_int_equal(R.c[1].value, 0x001);
	assert_int_equal(R.c[2].kind, NVM_PB_CTRL_USE_SUBDEVICE_MASK);
	assert_int_equal(R.c[2].value, 0x001);
	assert_true(R.c[2].active);
	assert_int_equal(R.nm, 3);
	assert_true(R.m[0].masked);
	assert_true(R.m[1].masked);
	assert_false(R.m[2].masked);
}

/* The control entries' OPCODE is bits 31:16 = 1/2/3; other bits set there
 * do not decode into a PB instruction (dev_pbdma PBENTRY). */
static void test_bad_control(void **state)
{
	(void)state;
	uint32_t pb[] = { 0x00050000u, 0x10010000u };
	decode_new(pb, N(pb));
	assert_int_equal(R.ne, 2); /* bit 18 set; bit 28 set */
	assert_int_equal(R.e[0].code, NVM_PB_ERR_BAD_CONTROL);
	assert_int_equal(R.e[0].offset, 0);
	assert_int_equal(R.e[1].code, NVM_PB_ERR_BAD_CONTROL);
	assert_int_equal(R.e[1].offset, 1);
	assert_int_equal(R.nh, 0);
}

/* END_PB_SEGMENT: "No further PB entries from that PB segment will be
 * decoded or processed." The next segment decodes normally. */
static void test_end_segment(void **state)
{
	(void)state;
	uint32_t seg1[] = { hdr(4, 1, 0, 0x300), 0xe0000000u, hdr(1, 2, 0, 0x400), 1, 2 };
	uint32_t seg2[] = { hdr(4, 2, 0, 0x300) };
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
	nvm_pb_sink s = rec_sink(&R);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &s);
	nvm_pb_feed(&d, seg1, 3); /* the segment arrives in two pieces */
	nvm_pb_feed(&d, seg1 + 3, 2);
	nvm_pb_segment_end(&d);
	nvm_pb_feed(&d, seg2, 1);
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	assert_int_equal(R.accounted, 6);
	assert_int_equal(R.nm, 2);
	assert_int_equal(R.m[1].data, 2);
	assert_int_equal(R.m[1].hdr_offset, 5);
	assert_int_equal(R.c[0].kind, NVM_PB_CTRL_END_SEGMENT);
	assert_int_equal(R.c[0].offset, 1);
	assert_int_equal(R.c[1].kind, NVM_PB_CTRL_IGNORED);
	assert_int_equal(R.c[1].offset, 2);
	assert_int_equal(R.c[2].kind, NVM_PB_CTRL_IGNORED);
	assert_int_equal(R.c[2].offset, 3);
	assert_int_equal(R.c[1].ndwords + R.c[2].ndwords, 3);
	assert_int_equal(R.ne, 0);
}

/* "the PB method data entries may be located in a PB segment separate from
 * their corresponding method header": every split point gives the same methods. */
static void test_split_anywhere(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(1, 3, 4, 0x400), 11, 22, 33, hdr(5, 2, 1, 0x100), 7, 8, hdr(4, 5, 2, 0x80), 0,
		          hdr(3, 2, 0, 0x200), 1,  2 };
	struct rec whole;
	rec_decode(&whole, "gv100", NVM_PB_FORMAT_NEW, false, pb, N(pb));
	for (size_t cut = 0; cut <= N(pb); cut++) {
		nvm_pb_config cfg;
		nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
		nvm_pb_sink s = rec_sink(&R);
		nvm_pb_decoder d;
		nvm_pb_decoder_init(&d, &cfg, &s);
		nvm_pb_feed(&d, pb, cut);
		nvm_pb_segment_end(&d);
		nvm_pb_feed(&d, pb + cut, N(pb) - cut);
		nvm_pb_segment_end(&d);
		nvm_pb_finish(&d);
		assert_int_equal(R.accounted, N(pb));
		assert_int_equal(R.nm, whole.nm);
		for (size_t i = 0; i < whole.nm; i++) {
			assert_int_equal(R.m[i].hdr_offset, whole.m[i].hdr_offset);
			assert_int_equal(R.m[i].method, whole.m[i].method);
			assert_int_equal(R.m[i].subch, whole.m[i].subch);
			assert_int_equal(R.m[i].data, whole.m[i].data);
			assert_int_equal(R.m[i].mode, whole.m[i].mode);
		}
		assert_int_equal(R.ne, 0);
	}
}

/* SEC_OP 6 is RESERVED6; SEC_OP 0/TERT_OP 0 and SEC_OP 2 are the old
 * headers, "obsolete" (dev_pbdma PBENTRY). Each costs one dword; decoding
 * resumes with the next dword as an instruction. */
static void test_invalid_opcodes(void **state)
{
	(void)state;
	uint32_t pb[] = { 0xc0000000u, 0x00040100u, 0x40040100u, hdr(4, 1, 0, 0x300) };
	decode_new(pb, N(pb));
	assert_int_equal(R.ne, 3);
	assert_int_equal(R.e[0].code, NVM_PB_ERR_RESERVED_OPCODE);
	assert_int_equal(R.e[1].code, NVM_PB_ERR_OBSOLETE);
	assert_int_equal(R.e[2].code, NVM_PB_ERR_OBSOLETE);
	assert_int_equal(R.e[2].offset, 2);
	assert_string_equal(nvm_pb_err_interrupt(R.e[0].code, NVM_PB_FORMAT_NEW), "PBENTRY");
	assert_int_equal(R.nm, 1);
}

/* dev_pbdma PBENTRY: an INC or 1INC header whose COUNT takes the method
 * address past the maximum (0xFFF) is invalid; NINC is not affected. */
static void test_count_overflow(void **state)
{
	(void)state;
	uint32_t ok[] = { hdr(1, 2, 0, 0x3ff8), 1, 2, hdr(3, 9, 0, 0x3ffc), 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	decode_new(ok, N(ok));
	assert_int_equal(R.ne, 0);
	uint32_t inc[] = { hdr(1, 3, 0, 0x3ff8), 1, 2, 3 };
	decode_new(inc, N(inc));
	assert_int_equal(R.ne, 1);
	assert_int_equal(R.e[0].code, NVM_PB_ERR_COUNT_OVERFLOW);
	assert_int_equal(R.e[0].ndwords, 0);
	assert_int_equal(R.nm, 3); /* the data stays in step */
	uint32_t one[] = { hdr(5, 2, 0, 0x3ffc), 1, 2 };
	decode_new(one, N(one));
	assert_int_equal(R.ne, 1);
	assert_int_equal(R.e[0].code, NVM_PB_ERR_COUNT_OVERFLOW);
}

/* "Bit 12 is reserved for the future expansion": reported, header still decoded. */
static void test_reserved_bit(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(1, 1, 0, 0x400) | (1u << 12), 5, hdr(4, 1, 0, 0x300) | (1u << 12) };
	decode_new(pb, N(pb));
	assert_int_equal(R.ne, 2);
	assert_int_equal(R.e[0].code, NVM_PB_ERR_RESERVED_BIT);
	assert_int_equal(R.e[1].offset, 2);
	assert_int_equal(R.nm, 2);
	assert_int_equal(R.m[0].method, 0x400);
}

/* The input ends while the header still expects data. */
static void test_truncated(void **state)
{
	(void)state;
	uint32_t pb[] = { hdr(1, 5, 0, 0x400), 1, 2 };
	decode_new(pb, N(pb));
	assert_int_equal(R.ne, 1);
	assert_int_equal(R.e[0].code, NVM_PB_ERR_TRUNCATED);
	assert_int_equal(R.e[0].offset, 0);
	assert_int_equal(R.e[0].missing, 3);
	assert_int_equal(R.nm, 2);
}

/* The batched sink: same runs, in order, IMMD data kept per run, batches
 * of at most NVM_PB_BATCH, delivered before a control entry. */
static uint32_t batch_data[200];
static uint64_t batch_off[200], batch_hdr[200];
static size_t batch_n, batch_calls, batch_ctrl_at;

static void batch_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	(void)ctx;
	assert_true(n >= 1 && n <= NVM_PB_BATCH);
	batch_calls++;
	for (size_t i = 0; i < n; i++)
		for (uint32_t k = 0; k < r[i].count; k++) {
			batch_off[batch_n] = r[i].mode == NVM_PB_MODE_IMMD ? r[i].offset : r[i].offset + k;
			batch_hdr[batch_n] = r[i].hdr_offset;
			batch_data[batch_n++] = r[i].data[k];
		}
}

static void batch_control(void *ctx, const nvm_pb_control *c)
{
	(void)ctx;
	(void)c;
	batch_ctrl_at = batch_n;
}

static void test_batch_sink(void **state)
{
	(void)state;
	uint32_t pb[120];
	size_t n = 0;
	for (uint32_t i = 0; i < 70; i++)
		pb[n++] = hdr(4, i, 1, 0x300); /* IMMD data i */
	pb[n++] = 0;                           /* NOP: flushes */
	pb[n++] = hdr(1, 3, 0, 0x400);
	pb[n++] = 100;
	pb[n++] = 101;
	pb[n++] = 102;
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
	nvm_pb_sink s = { .runs = batch_runs, .control = batch_control };
	batch_n = batch_calls = 0;
	decode_all(&cfg, &s, pb, n);
	assert_int_equal(batch_n, 73);
	for (uint32_t i = 0; i < 70; i++) {
		assert_int_equal(batch_data[i], i);
		assert_int_equal(batch_off[i], i); /* IMMD: the data is in the header */
		assert_int_equal(batch_hdr[i], i);
	}
	assert_int_equal(batch_data[72], 102);
	assert_int_equal(batch_hdr[72], 71);
	assert_int_equal(batch_off[72], 74);
	assert_int_equal(batch_ctrl_at, 70); /* the IMMD runs came before the NOP */
	assert_int_equal(batch_calls, 4);    /* 32 + 32 + 6, then the INC run */
}

/* The batched fast path and the general path give the same runs and
 * errors on bad input too: reserved bit 12 (seed 000 section 6), count
 * overflow (PBENTRY), masked methods after SET_SUBDEVICE_MASK. */
struct flat {
	uint64_t v[400];
	size_t n;
};

static void flat_put(struct flat *f, uint64_t a, uint64_t b, uint64_t c)
{
	if (f->n + 3 <= 400) {
		f->v[f->n++] = a;
		f->v[f->n++] = b;
		f->v[f->n++] = c;
	}
}

static void flat_run(void *ctx, const nvm_pb_run *r)
{
	struct flat *f = ctx;
	flat_put(f, r->offset << 32 | r->hdr_offset, (uint64_t)r->method << 32 | r->count,
	         (uint64_t)r->mode << 40 | (uint64_t)r->masked << 32 | r->data[r->count - 1]);
}

static void flat_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		flat_run(ctx, &r[i]);
}

static void flat_error(void *ctx, const nvm_pb_error *e)
{
	flat_put(ctx, 0xeeee, e->offset, e->code);
}

static void test_batch_matches_general_on_bad_input(void **state)
{
	(void)state;
	uint32_t pb[] = {
		hdr(1, 2, 1, 0x100),
		1,
		2, /* INC */
		hdr(1, 1, 0, 0x100) | (1u << 12),
		3, /* reserved bit 12 */
		hdr(1, 3, 0, 0x3ffc),
		4,
		5,
		6, /* INC past 0xFFF: count_overflow */
		hdr(5, 2, 2, 0x3ffc),
		7,
		8,                         /* 1INC at 0xFFF with 2: count_overflow */
		0x00010000u | (0x2u << 4), /* SET_SUBDEVICE_MASK 2: masked (ID 1) */
		hdr(3, 2, 3, 0x200),
		9,
		10,                   /* NINC, masked */
		hdr(4, 77, 4, 0x300), /* IMMD, masked */
		0x00030000u,          /* USE_SUBDEVICE_MASK (stored 0xFFF): active */
		hdr(4, 78, 4, 0x304),
	};
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
	cfg.subdevice_id = 1;
	struct flat general = { .n = 0 }, batched = { .n = 0 };
	nvm_pb_sink sg = { .ctx = &general, .run = flat_run, .error = flat_error };
	nvm_pb_sink sb = { .ctx = &batched, .runs = flat_runs, .error = flat_error };
	decode_all(&cfg, &sg, pb, N(pb));
	decode_all(&cfg, &sb, pb, N(pb));
	assert_int_equal(general.n, 3 * (7 + 3)); /* 7 runs, 3 errors */
	assert_int_equal(general.n, batched.n);
	assert_memory_equal(general.v, batched.v, general.n * sizeof(general.v[0]));
	/* And the masking is there: the NINC run (data 10) is masked, the last IMMD is not. */
	bool saw_masked = false;
	for (size_t i = 0; i + 2 < general.n; i += 3)
		if (general.v[i] != 0xeeee && (general.v[i + 2] & 0xffffffffu) == 10)
			saw_masked = (general.v[i + 2] >> 32) & 1;
	assert_true(saw_masked);
	assert_int_equal((general.v[general.n - 1] >> 32) & 1, 0);
}

/* Every field of every run, and its data, in one flat record (the order
 * of the runs and of the errors kept). */
struct runrec {
	uint64_t v[1 << 15];
	size_t n;
};

static void rr_put(struct runrec *f, uint64_t x)
{
	if (f->n < N(f->v))
		f->v[f->n++] = x;
}

static void rr_run(void *ctx, const nvm_pb_run *r)
{
	struct runrec *f = ctx;
	rr_put(f, r->hdr_offset);
	rr_put(f, r->offset);
	rr_put(f, (uint64_t)r->ndwords << 32 | r->subch);
	rr_put(f, (uint64_t)r->method << 32 | r->index);
	rr_put(f, (uint64_t)r->count << 32 | (uint64_t)r->mode << 8 | r->masked);
	for (uint32_t i = 0; i < r->count; i++)
		rr_put(f, r->data[i]);
}

static void rr_runs(void *ctx, const nvm_pb_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rr_run(ctx, &r[i]);
}

/* The piece being fed (sink.hdrs's pointers must lie in it) and the runs
 * given through sink.hdrs. */
static const uint32_t *rr_piece;
static size_t rr_piece_n, rr_nhdrs;

/* sink.hdrs: each header's run as nvm_pb_hdrs_run builds it, recorded as
 * rr_run records a run; its header and data in the piece being fed. */
static void rr_hdrs(void *ctx, const nvm_pb_hdrs *b)
{
	assert_true(b->n >= 1 && b->n <= NVM_PB_BATCH);
	uint64_t methods = 0;
	for (size_t i = 0; i < b->n; i++) {
		nvm_pb_run r;
		uint32_t immd;
		assert_int_equal(b->word[i], *b->hdr[i]);
		nvm_pb_hdrs_run(b, i, &r, &immd);
		assert_true(b->hdr[i] >= rr_piece && b->hdr[i] + 1 + r.ndwords <= rr_piece + rr_piece_n);
		assert_int_equal(r.count, nvm_pb_take_count(b->word[i]));
		methods += r.count;
		rr_run(ctx, &r);
	}
	assert_int_equal(methods, nvm_pb_hdrs_methods(b));
	rr_nhdrs += b->n;
}

static void rr_error(void *ctx, const nvm_pb_error *e)
{
	rr_put(ctx, 0xeeee0000u | e->code);
	rr_put(ctx, e->offset);
}

static uint32_t rr_rnd(uint64_t *s, uint32_t n)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33) % n;
}

/* The batched fast path (nvm_pb_take_hdr / nvm_pb_take_fill, built without
 * branches on the header kind), and the same with the complete sequences
 * given as headers (sink.hdrs), against the general path (a sink taking one
 * run at a time), on random driver-like streams (short INC / NINC / 1INC
 * runs and IMMD headers mixed at random, as drivers mix them, some count 0
 * headers, reserved bits, overflowing counts, subdevice masks) fed in
 * random pieces: the same runs, every field and the data, and the same
 * errors. */
static void test_batch_matches_general_random(void **state)
{
	(void)state;
	static uint32_t pb[4096];
	static struct runrec general, batched, hdrs;
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_NEW);
	cfg.subdevice_id = 1;
	uint64_t s = 19;
	for (int round = 0; round < 200; round++) {
		size_t n = 0;
		while (n + 20 < N(pb)) {
			uint32_t k = rr_rnd(&s, 100), subch = rr_rnd(&s, 8), addr = rr_rnd(&s, 0x1000) << 2;
			if (rr_rnd(&s, 30) == 0)
				addr = 0x3ff8; /* INC / 1INC with a longer count overflow */
			uint32_t extra = rr_rnd(&s, 60) == 0 ? 1u << 12 : 0; /* reserved bit */
			if (k < 55) {
				static const uint32_t sec[3] = { 1, 3, 5 };
				uint32_t cnt = rr_rnd(&s, 12) == 0 ? 0 : 1 + rr_rnd(&s, 16);
				pb[n++] = hdr(sec[rr_rnd(&s, 3)], cnt, subch, addr) | extra;
				for (uint32_t i = 0; i < cnt; i++)
					pb[n++] = rr_rnd(&s, 0xffffffffu);
			} else if (k < 97) {
				pb[n++] = hdr(4, rr_rnd(&s, 0x2000), subch, addr) | extra;
			} else {
				/* SET_SUBDEVICE_MASK 1 or 2: methods after it masked or not (ID 1) */
				pb[n++] = 0x00010000u | (1u + rr_rnd(&s, 2)) << 4;
			}
		}
		general.n = batched.n = hdrs.n = 0;
		rr_nhdrs = 0;
		nvm_pb_sink sg = { .ctx = &general, .run = rr_run, .error = rr_error };
		nvm_pb_sink sb = { .ctx = &batched, .runs = rr_runs, .error = rr_error };
		nvm_pb_sink sh = { .ctx = &hdrs, .runs = rr_runs, .hdrs = rr_hdrs, .error = rr_error };
		nvm_pb_decoder dg, db, dh;
		nvm_pb_decoder_init(&dg, &cfg, &sg);
		nvm_pb_decoder_init(&db, &cfg, &sb);
		nvm_pb_decoder_init(&dh, &cfg, &sh);
		for (size_t at = 0; at < n;) {
			size_t piece = 1 + rr_rnd(&s, 300);
			if (piece > n - at)
				piece = n - at;
			assert_int_equal(nvm_pb_feed(&dg, pb + at, piece), piece);
			assert_int_equal(nvm_pb_feed(&db, pb + at, piece), piece);
			rr_piece = pb + at;
			rr_piece_n = piece;
			assert_int_equal(nvm_pb_feed(&dh, pb + at, piece), piece);
			at += piece;
		}
		nvm_pb_finish(&dg);
		nvm_pb_finish(&db);
		nvm_pb_finish(&dh);
		assert_true(general.n > 1000 && general.n < N(general.v));
		assert_int_equal(general.n, batched.n);
		assert_memory_equal(general.v, batched.v, general.n * sizeof(general.v[0]));
		assert_int_equal(dg.methods, db.methods);
		/* sink.hdrs (with runs for the rest): the same runs, fields, data,
		 * errors and methods, most runs given as headers */
		assert_int_equal(general.n, hdrs.n);
		assert_memory_equal(general.v, hdrs.v, general.n * sizeof(general.v[0]));
		assert_int_equal(dg.methods, dh.methods);
		assert_true(rr_nhdrs > 100);
	}
}

/* GV100 does not take the old format. */
static void test_gen_formats(void **state)
{
	(void)state;
	nvm_pb_config cfg;
	assert_true(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("GV100"), NVM_PB_FORMAT_NEW));
	assert_false(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("gv100"), NVM_PB_FORMAT_OLD));
	assert_false(nvm_pb_config_init(&cfg, nvm_pb_gen_lookup("nv40"), NVM_PB_FORMAT_NEW));
	assert_null(nvm_pb_gen_lookup("nv99"));
	/* every chip profile of the core has a pushbuffer profile */
	for (size_t i = 0; i < nvm_chip_count(); i++)
		assert_non_null(nvm_pb_gen_lookup(nvm_chip_get(i)->name));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_inc),
		cmocka_unit_test(test_address_is_dword),
		cmocka_unit_test(test_ninc),
		cmocka_unit_test(test_1inc),
		cmocka_unit_test(test_1inc_count1),
		cmocka_unit_test(test_count_zero),
		cmocka_unit_test(test_immd_max),
		cmocka_unit_test(test_nop),
		cmocka_unit_test(test_subdevice_mask),
		cmocka_unit_test(test_bad_control),
		cmocka_unit_test(test_end_segment),
		cmocka_unit_test(test_split_anywhere),
		cmocka_unit_test(test_invalid_opcodes),
		cmocka_unit_test(test_count_overflow),
		cmocka_unit_test(test_reserved_bit),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_gen_formats),
		cmocka_unit_test(test_batch_sink),
		cmocka_unit_test(test_batch_matches_general_on_bad_input),
		cmocka_unit_test(test_batch_matches_general_random),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
