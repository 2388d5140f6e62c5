/*
 * Printers of decoded pushbuffers: a nvm_pb_sink that formats into a nvm_pb_out
 * buffer, in one of four styles (docs/pushbuf.md "Output styles"). The
 * formatting is hand-rolled (no printf per line) so that text decoding keeps
 * up with large dumps.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pb_internal.h"

#if defined(__SSE2__) && defined(__x86_64__)
#include <emmintrin.h>
#endif

/* The output is handed to the flush callback in pieces of about 1 MiB: a
 * write system call costs about 3 us on the VMs the benchmarks run on
 * (whatever its size, to /dev/null), 4 ns a text method at 64 KiB, 7 ns a
 * JSON one; at 1 MiB 0.3 and 0.5. A buffer with a flush starts at
 * OUT_FLUSHED_CAP, which leaves room past OUT_FLUSH_AT for the lines
 * written between two flush checks (32 text lines reserve 32 KiB): it is
 * not grown by doubling (copies and fresh pages each time). */
#define OUT_FLUSH_AT    (960u << 10)
#define OUT_FLUSHED_CAP (1024u << 10)

/* ---------------------------------------------------------------- nvm_pb_out */

static bool o_grow(nvm_pb_out *o, size_t need)
{
	if (o->oom)
		return false;
	size_t cap = o->cap ? o->cap : o->flush ? OUT_FLUSHED_CAP : 4096;
	while (cap - o->len < need)
		cap *= 2;
	char *nb = realloc(o->buf, cap);
	if (!nb) {
		o->oom = true;
		return false;
	}
	o->buf = nb;
	o->cap = cap;
	return true;
}

static inline char *o_room(nvm_pb_out *o, size_t n)
{
	if (o->cap - o->len < n && !o_grow(o, n))
		return NULL;
	return o->buf + o->len;
}

static inline void o_mem(nvm_pb_out *o, const char *s, size_t n)
{
	char *d = o_room(o, n);
	if (d) {
		memcpy(d, s, n);
		o->len += n;
	}
}

static inline void o_str(nvm_pb_out *o, const char *s)
{
	o_mem(o, s, strlen(s));
}

static inline void o_ch(nvm_pb_out *o, char c)
{
	char *d = o_room(o, 1);
	if (d) {
		*d = c;
		o->len++;
	}
}

static const char hexdig[] = "0123456789abcdef";

/* "00".."ff": two digits per table lookup. */
static char hex2[256][2];

static void hex2_init(void)
{
	if (hex2[1][1])
		return;
	for (int i = 0; i < 256; i++) {
		hex2[i][0] = hexdig[i >> 4];
		hex2[i][1] = hexdig[i & 15];
	}
}

/* Exactly `digits` hex digits. */
static inline void o_hexw(nvm_pb_out *o, uint64_t v, int digits)
{
	char *d = o_room(o, 16);
	if (!d)
		return;
	int i = digits;
	while (i >= 2) {
		i -= 2;
		memcpy(d + i, hex2[v & 0xff], 2);
		v >>= 8;
	}
	if (i)
		d[0] = hexdig[v & 15];
	o->len += (size_t)digits;
}

/* 0x and the shortest hex form. */
static void o_hex(nvm_pb_out *o, uint64_t v)
{
	int digits = v ? (67 - __builtin_clzll(v)) / 4 : 1;
	o_mem(o, "0x", 2);
	o_hexw(o, v, digits);
}

static void o_dec(nvm_pb_out *o, uint64_t v)
{
	char tmp[24];
	int i = 24;
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	o_mem(o, tmp + i, (size_t)(24 - i));
}

static void o_maybe_flush(nvm_pb_out *o)
{
	if (o->flush && o->len >= OUT_FLUSH_AT)
		nvm_pb_out_flush(o);
}

void nvm_pb_out_flush(nvm_pb_out *o)
{
	if (o->flush && o->len)
		o->flush(o->ctx, o->buf, o->len);
	if (o->flush)
		o->len = 0;
}

void nvm_pb_out_free(nvm_pb_out *o)
{
	free(o->buf);
	o->buf = NULL;
	o->len = o->cap = 0;
}

/* JSON string (names and messages are plain ASCII, no escapes needed, but
 * quote anyway for safety). */
static void o_jstr(nvm_pb_out *o, const char *s)
{
	o_ch(o, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			o_ch(o, '\\');
		o_ch(o, *s);
	}
	o_ch(o, '"');
}

/* ---------------------------------------------------------------- names */

/* A method as a printer names it. */
struct mref {
	const nvm_pb_method *m; /* NULL: not in the table (or no table) */
	uint32_t index;         /* array element */
	const nvm_pb_class *cls;
	uint16_t prefix; /* mesa: the class id Mesa prints (NV%04X_) */
};

/* The class whose Mesa view the mesa style uses for c: its own, or (as
 * Mesa's dispatch does for a class it has no dumper for) the newest older
 * class of the same family that has one; NULL: print with our table.
 * UNVERIFIED: measured for gv100's classes only (docs/fidelity.md). */
static const nvm_pb_class *mesa_source(const nvm_pb_class *c)
{
	if (c->mesa)
		return c;
	const nvm_pb_class *best = NULL;
	for (size_t i = 0; i < nvm_pb_nclasses; i++) {
		const nvm_pb_class *k = &nvm_pb_classes[i];
		if (k->mesa && (k->id & 0xff) == (c->id & 0xff) && k->id < c->id && (!best || k->id > best->id))
			best = k;
	}
	return best;
}

/* The method of entry i of a view's list (ours or Mesa's). */
static const nvm_pb_method *view_method(const nvm_pb_view *v, size_t i)
{
	return &nvm_pb_methods[v->mesa ? v->src->mesa[i].method : v->cls->methods[i]];
}

static size_t view_len(const nvm_pb_view *v)
{
	return v->mesa ? v->src->nmesa : v->cls->nmethods;
}

/* Empties a view. A short list (a host class: the mesa style changes the
 * host view with the subchannel) is cleared slot by slot, not all 8 KB. */
static void view_clear(nvm_pb_view *v)
{
	if (!v->cls || view_len(v) > 64) {
		memset(v->slot, 0, sizeof(v->slot));
		return;
	}
	for (size_t i = 0; i < view_len(v); i++) {
		const nvm_pb_method *m = view_method(v, i);
		uint32_t elems = m->count ? m->count : 1;
		for (uint32_t k = 0; k < elems; k++) {
			uint32_t a = m->addr + k * m->stride;
			if (a < 0x4000)
				v->slot[a >> 2] = 0;
		}
	}
}

static void view_build(nvm_pb_view *v, const nvm_pb_class *c, bool mesa)
{
	view_clear(v);
	v->cls = c;
	v->mesa = false;
	v->src = c;
	if (mesa) {
		const nvm_pb_class *src = mesa_source(c);
		if (src) {
			v->mesa = true;
			v->src = src;
		}
	}
	size_t n = v->mesa ? v->src->nmesa : c->nmethods;
	for (size_t i = n; i-- > 0;) {
		const nvm_pb_method *m = &nvm_pb_methods[v->mesa ? v->src->mesa[i].method : c->methods[i]];
		uint32_t elems = m->count ? m->count : 1;
		for (uint32_t k = 0; k < elems; k++) {
			uint32_t a = m->addr + k * m->stride;
			if (a < 0x4000)
				v->slot[a >> 2] = (uint16_t)(i + 1);
		}
	}
}

/* The host class Mesa's vk_push_print names a method below 0x100 with: not
 * the channel's, but the newest host class Mesa has whose high byte is not
 * above that of the class bound on the subchannel (nv_push_class_dump.h's
 * P_PARSE_NV_MTHD), the channel's class on a subchannel without one. So a
 * Turing stream's C597 subchannel prints C56F's methods, A140's prints
 * A16F's and 902D's 906F's. The mesa style only: the hardware's Host
 * decodes these methods whatever the subchannel holds (seed 000). */
static const nvm_pb_class *mesa_host(const nvm_pb_printer *p, uint32_t subch)
{
	uint32_t id = p->bound_id[subch & 7];
	if (!id)
		return p->host;
	const nvm_pb_class *best = NULL;
	for (size_t i = 0; i < nvm_pb_nclasses; i++) {
		const nvm_pb_class *k = &nvm_pb_classes[i];
		if ((k->id & 0xff) == 0x6f && k->mesa && (k->id >> 8) <= (id >> 8))
			best = k; /* sorted by id: the last one is the newest */
	}
	return best ? best : p->host;
}

/* The view a method is named in: the host class's ([8]) for a method
 * below 0x100 (seed 000: Host methods ignore the subchannel), else the
 * subchannel's. */
static inline unsigned view_index(const nvm_pb_printer *p, uint32_t subch, uint32_t method)
{
	return p->host && method < 0x100 ? 8 : (subch & 7);
}

/* Method `method` of class c in view vi. */
static inline struct mref method_in(nvm_pb_printer *p, unsigned vi, const nvm_pb_class *c, uint32_t method)
{
	struct mref r = { 0 };
	r.cls = c;
	if (!c || method >= 0x4000)
		return r;
	nvm_pb_view *v = &p->view[vi];
	if (v->cls != c)
		view_build(v, c, p->style == NVM_PB_STYLE_MESA);
	uint32_t s = v->slot[method >> 2];
	if (!s)
		return r;
	if (v->mesa) {
		const nvm_pb_mesa_entry *e = &v->src->mesa[s - 1];
		r.m = &nvm_pb_methods[e->method];
		r.prefix = e->prefix;
	} else {
		r.m = &nvm_pb_methods[c->methods[s - 1]];
		r.prefix = (uint16_t)c->id;
	}
	if (r.m->count)
		r.index = (r.m->stride & (r.m->stride - 1)) ? (method - r.m->addr) / r.m->stride
		                                            : (method - r.m->addr) >> __builtin_ctz(r.m->stride);
	return r;
}

static inline struct mref method_of(nvm_pb_printer *p, uint32_t subch, uint32_t method)
{
	unsigned vi = view_index(p, subch, method);
	const nvm_pb_class *c =
	        vi == 8 ? (p->style == NVM_PB_STYLE_MESA ? mesa_host(p, subch) : p->host) : p->bound[vi];
	return method_in(p, vi, c, method);
}

/* The name offset of value v of an enum field, or 0 (no name starts at 0).
 * Without data-dependent branches (field values are what a printer cannot
 * predict): the first of the values equal to v. */
static inline uint32_t value_name(const nvm_pb_field *f, uint32_t v)
{
	const nvm_pb_value *vals = &nvm_pb_values[f->values];
	unsigned n = f->nvalues;
	if (n <= 8) {
		uint32_t name = 0;
		for (unsigned i = n; i-- > 0;)
			name = vals[i].value == v ? vals[i].name : name;
		return name;
	}
	/* the first index whose value is not below v */
	const nvm_pb_value *base = vals;
	while (n > 1) {
		unsigned half = n / 2;
		base = base[half - 1].value < v ? base + half : base;
		n -= half;
	}
	if (base->value < v)
		base++;
	return base < vals + f->nvalues && base->value == v ? base->name : 0;
}

/* Bits hi:lo of data, without a branch for the 32-bit field (2u << 31
 * wraps to 0: mask all ones). */
static inline uint32_t field_get(uint32_t data, const nvm_pb_field *f)
{
	return (data >> f->lo) & ((2u << (f->hi - f->lo)) - 1u);
}

/* A class tag: four hex digits. */
static inline void o_tag(nvm_pb_out *o, const nvm_pb_class *c)
{
	char *d = o_room(o, 4);
	if (d) {
		memcpy(d, c->tag, 4);
		o->len += 4;
	}
}

/* A name from nvm_pb_names: copied in 32-byte blocks (the pool is padded). */
static inline void o_name(nvm_pb_out *o, uint32_t off)
{
	size_t n = nvm_pb_name_len(off);
	char *d = o_room(o, n + 32);
	if (!d)
		return;
	const char *s = nvm_pb_names + off;
	memcpy(d, s, 32);
	if (n > 32)
		memcpy(d + 32, s + 32, n - 32);
	o->len += n;
}

/* "NAME", "NAME(i)" or "NAME(i,j)" */
static void o_method_name(nvm_pb_out *o, const struct mref *r)
{
	o_name(o, r->m->name);
	if (!r->m->count)
		return;
	o_ch(o, '(');
	if (r->m->flags & NVM_PB_METHOD_2D) {
		o_dec(o, r->index / r->m->inner);
		o_ch(o, ',');
		o_dec(o, r->index % r->m->inner);
	} else {
		o_dec(o, r->index);
	}
	o_ch(o, ')');
}

/* A float field as printf writes it with "%f" (fixed, 6 decimals: Mesa's
 * "%ff") or "%g" (at most 6 significant digits), into d (room for 64
 * bytes); returns the end. The values drivers write (0.5, 1, 1920 ...) have
 * at most 6 decimals and are formatted here; anything else goes to
 * snprintf. */
static char *w_float(char *d, uint32_t bits, bool fixed)
{
	float f;
	memcpy(&f, &bits, sizeof(f));
	double scaled = (double)f * 1e6; /* exact: 24 + 20 bits */
	if (scaled == scaled && scaled > -1e15 && scaled < 1e15 && scaled == (double)(int64_t)scaled &&
	    !(f == 0 && (bits >> 31))) {
		uint64_t u = (uint64_t)(scaled < 0 ? -scaled : scaled);
		uint64_t ip = u / 1000000, fp = u % 1000000;
		char *start = d;
		if (scaled < 0)
			*d++ = '-';
		char digits[24];
		int nd = 0;
		do {
			digits[nd++] = (char)('0' + ip % 10);
			ip /= 10;
		} while (ip);
		int sig = (u >= 1000000) ? nd : 0; /* significant digits before the point */
		while (nd)
			*d++ = digits[--nd];
		char frac[6];
		for (int k = 5; k >= 0; k--, fp /= 10)
			frac[k] = (char)('0' + fp % 10);
		if (fixed) {
			*d++ = '.';
			memcpy(d, frac, 6);
			return d + 6;
		}
		int last = 5; /* %g drops trailing zeros */
		while (last >= 0 && frac[last] == '0')
			last--;
		int lead = 0; /* zeros after the point before the first digit (for |f| < 1) */
		while (!sig && lead <= last && frac[lead] == '0')
			lead++;
		int total = sig + (last + 1) - (sig ? 0 : lead);
		bool small_ok = sig || u == 0 || lead < 4; /* %g switches to an exponent below 1e-4 */
		if (total <= 6 && small_ok) {
			if (last >= 0) {
				*d++ = '.';
				memcpy(d, frac, (size_t)(last + 1));
				d += last + 1;
			}
			return d;
		}
		d = start;
	}
	int n = snprintf(d, 64, fixed ? "%f" : "%g", (double)f);
	return d + (n > 0 ? (n < 64 ? n : 63) : 0);
}

/* ---------------------------------------------------------------- raw writers */

/* The text style writes a method line through a pointer into room reserved
 * for the whole line (text_line_room), without a check per item. */
static inline char *w_mem(char *d, const char *s, size_t n)
{
	memcpy(d, s, n);
	return d + n;
}

#if defined(__SSE2__) && defined(__x86_64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 hex digits of a then the 8 of b, most significant first, as the 16
 * bytes of a vector in memory order: each byte's nibbles side by side
 * (unpack), 10..15 -> 'a'... (SSE2 is part of x86-64: a dozen instructions
 * for both, where the scalar form below takes two dozen for one). */
static inline __m128i hex16(uint32_t a, uint32_t b)
{
	__m128i x = _mm_cvtsi64_si128((long long)((uint64_t)__builtin_bswap32(b) << 32 | __builtin_bswap32(a)));
	__m128i m = _mm_set1_epi8(0x0f);
	__m128i n = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), m), _mm_and_si128(x, m));
	__m128i letters = _mm_and_si128(_mm_cmpgt_epi8(n, _mm_set1_epi8(9)), _mm_set1_epi8('a' - '0' - 10));
	return _mm_add_epi8(n, _mm_add_epi8(letters, _mm_set1_epi8('0')));
}

static inline uint64_t hex8(uint32_t v)
{
	return (uint64_t)_mm_cvtsi128_si64(hex16(v, 0));
}
#else
/* The 8 hex digits of v, most significant first, as the bytes of a
 * uint64 in memory order (no table, no branch). */
static inline uint64_t hex8(uint32_t v)
{
	uint64_t x = v;
	x = ((x & 0xffff0000u) << 16) | (x & 0xffffu);
	x = ((x & 0x0000ff000000ff00ull) << 8) | (x & 0x000000ff000000ffull);
	x = ((x & 0x00f000f000f000f0ull) << 4) | (x & 0x000f000f000f000full);
	/* each byte a nibble, the least significant in the low byte: 10..15 -> 'a'.. */
	uint64_t letters = ((x + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
	x += 0x3030303030303030ull + letters * ('a' - '0' - 10);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	return __builtin_bswap64(x); /* the most significant digit in the first byte */
#else
	return x;
#endif
}
#endif

/* The 8 hex digits of a and of b (the text style's offset and data word). */
static inline void hex8x2(uint32_t a, uint32_t b, uint64_t *ha, uint64_t *hb)
{
#if defined(__SSE2__) && defined(__x86_64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	__m128i x = hex16(a, b);
	*ha = (uint64_t)_mm_cvtsi128_si64(x);
	*hb = (uint64_t)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));
#else
	*ha = hex8(a);
	*hb = hex8(b);
#endif
}

/* The last `digits` (0..8) of the 8 hex digits h (hex8): writes 8 bytes
 * (the room has slack), advances by digits (0: none, the bytes are
 * scratch). */
static inline char *w_hexd(char *d, uint64_t h, int digits)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	h >>= (8 * (8 - digits)) & 63; /* drop the leading bytes */
#else
	h <<= (8 * (8 - digits)) & 63;
#endif
	memcpy(d, &h, 8);
	return d + digits;
}

/* The number of hex digits of v (one for 0). */
static inline int hex_digits(uint32_t v)
{
	return (int)((35u - (unsigned)__builtin_clz(v | 1)) >> 2);
}

/* The last `digits` (1..8) of the 8 hex digits of v: writes 8 bytes (the
 * room has slack), advances by digits. */
static inline char *w_hexw(char *d, uint32_t v, int digits)
{
	return w_hexd(d, hex8(v), digits);
}

static inline char *w_hex(char *d, uint32_t v)
{
	memcpy(d, "0x", 2);
	return w_hexw(d + 2, v, hex_digits(v));
}

/* "00".."99" */
static const char dec2[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                           "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                           "8081828384858687888990919293949596979899";

static const uint64_t pow10_u64[20] = { 1ull,
	                                10ull,
	                                100ull,
	                                1000ull,
	                                10000ull,
	                                100000ull,
	                                1000000ull,
	                                10000000ull,
	                                100000000ull,
	                                1000000000ull,
	                                10000000000ull,
	                                100000000000ull,
	                                1000000000000ull,
	                                10000000000000ull,
	                                100000000000000ull,
	                                1000000000000000ull,
	                                10000000000000000ull,
	                                100000000000000000ull,
	                                1000000000000000000ull,
	                                10000000000000000000ull };

/* The number of decimal digits of v: log10 from the bit length, corrected
 * by one comparison (v | 1: one digit for 0). */
static inline unsigned dec_digits(uint32_t v)
{
	unsigned n = ((32u - (unsigned)__builtin_clz(v | 1)) * 1233u) >> 12; /* floor(log10(2) * bits) */
	return n + ((v | 1) >= pow10_u64[n]);
}

/* Decimal, two digits per division, written in place from the last digit
 * (no buffer: a copy out of one just written stalls). For offsets and
 * counters: their digit count seldom changes, so the loop's branches
 * predict well, and small numbers take few steps. */
static inline char *w_dec_loop(char *d, uint64_t v)
{
	unsigned n = v <= UINT32_MAX ? dec_digits((uint32_t)v) : ((64u - (unsigned)__builtin_clzll(v)) * 1233u) >> 12;
	n += v > UINT32_MAX && v >= pow10_u64[n];
	char *e = d + n, *q = e;
	while (v >= 100) {
		q -= 2;
		memcpy(q, dec2 + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(q - 2, dec2 + 2 * v, 2);
	else
		q[-1] = (char)('0' + v);
	return e;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 decimal digits of v < 1e8 as the bytes of a uint64 in memory
 * order, without a division loop: 4+4 digits in two 32-bit lanes, 2+2 in
 * 16-bit lanes, one digit a byte (x * 10486 >> 20 is x / 100 for x <
 * 10000, x * 103 >> 10 is x / 10 for x < 100). */
static inline uint64_t dec8(uint32_t v)
{
	uint64_t x = (v / 10000) | (uint64_t)(v % 10000) << 32;
	uint64_t q = ((x * 10486) >> 20) & 0x0000007f0000007full;
	x = q | (x - q * 100) << 16;
	q = ((x * 103) >> 10) & 0x000f000f000f000full;
	x = q | (x - q * 10) << 8;
	return x + 0x3030303030303030ull;
}

/* A 32-bit decimal ready to write, without a data-dependent branch (field
 * values and data are what a printer cannot predict): the digits above the
 * last 8 (none, one or two) from a table, then the last 8 with their
 * leading zeros shifted out when there are no more. */
struct decw {
	uint64_t lo;
	uint16_t hi;
	uint8_t nhi, nlo;
};

static inline struct decw dec_split(uint32_t v)
{
	unsigned n = dec_digits(v);
	uint32_t hi = v / 100000000u; /* 0..42 */
	unsigned nhi = n > 8 ? n - 8 : 0, nlo = n - nhi;
	uint16_t h;
	memcpy(&h, dec2 + 2 * hi, 2);
	struct decw x = { dec8(v - hi * 100000000u) >> (8 * (8 - nlo)),
		          (uint16_t)(h >> (8 * (2 - nhi)) & 0xffff), /* nhi 1: the units only */
		          (uint8_t)nhi, (uint8_t)nlo };
	return x;
}

/* Writes up to 10 bytes (the room has slack). */
static inline char *w_decw(char *d, struct decw x)
{
	memcpy(d, &x.hi, 2);
	d += x.nhi;
	memcpy(d, &x.lo, 8);
	return d + x.nlo;
}

/* The digits of v, x those of v - 1 (offsets that count up): the last
 * digit incremented, unless it is a 9. */
static inline struct decw dec_next(struct decw x, uint32_t v)
{
	unsigned last = 8 * (x.nlo - 1u);
	if (__builtin_expect(((x.lo >> last) & 0xff) != '9', 1)) {
		x.lo += 1ull << last;
		return x;
	}
	return dec_split(v);
}
#else
struct decw {
	uint32_t v;
};

static inline struct decw dec_split(uint32_t v)
{
	struct decw x = { v };
	return x;
}

static inline char *w_decw(char *d, struct decw x)
{
	return w_dec_loop(d, x.v);
}

static inline struct decw dec_next(struct decw x, uint32_t v)
{
	(void)x;
	return dec_split(v);
}
#endif

static inline char *w_dec(char *d, uint32_t v)
{
	return w_decw(d, dec_split(v));
}

static inline char *w_dec64(char *d, uint64_t v)
{
	return v <= UINT32_MAX ? w_dec(d, (uint32_t)v) : w_dec_loop(d, v);
}

static inline char *w_name(char *d, uint32_t off)
{
	size_t n = nvm_pb_name_len(off);
	const char *s = nvm_pb_names + off;
	/* fixed-size blocks (a variable-size copy is a libc call, a variable
	 * count of blocks a mispredicted branch): 64 bytes hold most names, a
	 * block starts inside the name, and the pool ends in 64 bytes of padding */
	memcpy(d, s, 64);
	for (size_t k = 64; k < n; k += 32)
		memcpy(d + k, s + k, 32);
	return d + n;
}

/* "(i)" or "(i,j)" after an array method's name; nothing after a single
 * method. */
static inline char *w_index(char *d, const struct mref *mr)
{
	const nvm_pb_method *m = mr->m;
	if (!m->count)
		return d;
	*d++ = '(';
	if (m->flags & NVM_PB_METHOD_2D) {
		d = w_dec(d, mr->index / m->inner);
		*d++ = ',';
		d = w_dec(d, mr->index % m->inner);
	} else {
		d = w_dec(d, mr->index);
	}
	*d++ = ')';
	return d;
}

/* The writers below are the text and JSON layouts of a method's name and
 * fields: a line formatted from the tables uses them, and so does the text
 * formatted once (the "compiled methods" section), so both print the same
 * bytes. */

/* Text: " TAG.NAME(i)" of a method the tables name. */
static char *w_text_name(char *d, const struct mref *mr)
{
	*d++ = ' ';
	d = w_mem(d, mr->cls->tag, 4);
	*d++ = '.';
	return w_index(w_name(d, mr->m->name), mr);
}

/* Whether field f of method m prints its float after the number: the
 * 32-bit field of a float method. */
static inline bool float_field(const nvm_pb_method *m, const nvm_pb_field *f)
{
	return (m->flags & NVM_PB_METHOD_FLOAT) && f->hi == 31 && f->lo == 0;
}

/* Text: " NAME=VALUE" of field f with value v: the value's name, or 0x%x
 * and, for a float field, " (%g)". */
static inline char *w_text_field(char *d, const nvm_pb_field *f, uint32_t v, bool flt)
{
	uint32_t vn = value_name(f, v);
	*d++ = ' ';
	d = w_name(d, f->name);
	*d++ = '=';
	if (vn)
		return w_name(d, vn);
	d = w_hex(d, v);
	if (flt) {
		d = w_mem(d, " (", 2);
		d = w_float(d, v, false);
		*d++ = ')';
	}
	return d;
}

/* JSON: , "name": "TAG.NAME(i)", "fields": { of a method the tables name. */
static char *w_json_name(char *d, const struct mref *mr)
{
	d = w_mem(d, ", \"name\": \"", 11);
	d = w_mem(d, mr->cls->tag, 4);
	*d++ = '.';
	d = w_index(w_name(d, mr->m->name), mr);
	return w_mem(d, "\", \"fields\": {", 14);
}

/* JSON: "NAME": 123 or "NAME": "VALUE", after ", " unless first. */
static inline char *w_json_field(char *d, const nvm_pb_field *f, uint32_t v, bool first)
{
	uint32_t vn = value_name(f, v);
	if (!first)
		d = w_mem(d, ", ", 2);
	*d++ = '"';
	d = w_name(d, f->name);
	d = w_mem(d, "\": ", 3);
	if (!vn)
		return w_dec(d, v);
	*d++ = '"';
	d = w_name(d, vn);
	*d++ = '"';
	return d;
}

/* Records the class a SET_OBJECT binds (new format, method 0 of any
 * subchannel: NVCLASS 15:0). Returns the id when the tables do not know it
 * and it was not reported before (the caller prints a note), else 0. */
/* Whether Mesa's vk_push_print keeps a class SET_OBJECT binds: only the
 * device's own classes (nv_device_uses_class: its 3D, compute, I2M, 2D,
 * copy and channel classes); any other leaves the subchannel unbound. */
static bool mesa_device_class(const nvm_pb_printer *p, uint32_t id)
{
	if (!p->gen || !id)
		return false;
	if (id == p->gen->host_class)
		return true;
	for (unsigned s = 0; s < 8; s++)
		if (p->gen->subch_class[s] == id)
			return true;
	return false;
}

static uint32_t follow_set_object(nvm_pb_printer *p, const nvm_pb_run *r, uint32_t i)
{
	uint32_t subch = r->subch, data = r->data[i];
	/* Method 0 itself, not an INC / 1INC sequence that wrapped to it (a
	 * count_overflow error). */
	bool at_zero =
	        r->method == 0 && (r->index + i == 0 || r->mode == NVM_PB_MODE_NINC || r->mode == NVM_PB_MODE_IMMD);
	/* Before Fermi method 0 takes an object's handle, not a class (the
	 * RAMHT gives the class): only --class pins bind there. */
	if (!at_zero || !p->host || p->format != NVM_PB_FORMAT_NEW || r->masked || (p->pinned & (1u << (subch & 7))))
		return 0;
	uint32_t id = data & 0xffff;
	if (p->style == NVM_PB_STYLE_MESA && !mesa_device_class(p, id))
		id = 0; /* Mesa unbinds the subchannel: its methods go to the channel class */
	p->bound_id[subch & 7] = id;
	p->bound[subch & 7] = NULL;
	if (!id)
		return 0;
	p->bound[subch & 7] = nvm_pb_class_find(id);
	if (p->bound[subch & 7])
		return 0;
	for (uint32_t k = 0; k < p->nunknown; k++)
		if (p->unknown[k] == id)
			return 0;
	if (p->nunknown < sizeof(p->unknown) / sizeof(p->unknown[0]))
		p->unknown[p->nunknown++] = id;
	return id;
}

static const char *const ctrl_upper[NVM_PB_CTRL_COUNT] = {
	[NVM_PB_CTRL_NOP] = "NOP",
	[NVM_PB_CTRL_SET_SUBDEVICE_MASK] = "SET_SUBDEVICE_MASK",
	[NVM_PB_CTRL_STORE_SUBDEVICE_MASK] = "STORE_SUBDEVICE_MASK",
	[NVM_PB_CTRL_USE_SUBDEVICE_MASK] = "USE_SUBDEVICE_MASK",
	[NVM_PB_CTRL_END_SEGMENT] = "END_PB_SEGMENT",
	[NVM_PB_CTRL_IGNORED] = "IGNORED",
	[NVM_PB_CTRL_OLD_JUMP] = "OLD_JUMP",
	[NVM_PB_CTRL_JUMP] = "JUMP",
	[NVM_PB_CTRL_CALL] = "CALL",
	[NVM_PB_CTRL_RETURN] = "RETURN",
	[NVM_PB_CTRL_SLI_CONDITIONAL] = "SLI_CONDITIONAL",
};

static bool in_input(const nvm_pb_printer *p, uint64_t off)
{
	return off >= p->base && off - p->base < p->n;
}

/* Only for callers that do not set nvm_pb_control.data. */

static uint32_t input_word(const nvm_pb_printer *p, uint64_t off)
{
	return p->input && in_input(p, off) ? p->input[off - p->base] : 0;
}

/* ---------------------------------------------------------------- compiled methods */

/*
 * The text and JSON styles print a method line mostly from text formatted
 * when the printer first meets the method (its class and address), with the
 * writers above: the method part ("  mthd 0x1a00 C397.SET_CT_WRITE(0)"; in
 * JSON the keys around the data, and the name) and, per field, a step
 * compiled into the method: where the field's bits are, and how its value
 * prints. A step copies a slot of text, then (by kind) a number:
 *  - a field of at most PC_TABLE_VALUES values: the slot of its value, from
 *    a table of its " NAME=VALUE" texts (JSON ", "NAME": VALUE"); no number;
 *  - a number field: its label " NAME=0x" (JSON ", "NAME": "), then the
 *    number; a float field then its " (%g)", from a small cache by value;
 *  - a wider enum field, or a label too long for a slot: the writer above,
 *    as a line formatted from the tables.
 * Tables are built once per printer and field, and shared by the methods
 * that list the field; their slots are 16, 32 or 64 bytes (the text's
 * length, then the text), whatever the longest value needs, to keep them
 * few cache lines. The memory is bounded (PC_ARENA_MAX): past it, or when
 * memory runs out, a line is formatted from the tables, with the same
 * bytes.
 */
#define PC_ARENA_MAX    (16u << 20)
#define PC_SLOT_MAX     64 /* bytes of a slot: the length, then up to 63 bytes of text */
#define PC_COPY         64 /* bytes a step copies from a slot's text */
#define PC_TABLE_VALUES 64
#define PC_FIELD_ROOM   700 /* most bytes w_text_field / w_json_field write, copy slack included */

/* PC_DATA: a number field of all 32 bits (the data itself) */
enum pc_kind { PC_TABLE, PC_NUM, PC_DATA, PC_FLOAT, PC_WRITER };

/* A field's step in a compiled method. */
struct pc_step {
	uint8_t kind, lo, shift, flt; /* shift: log2 of the slot size; flt: float_field() */
	uint32_t mask;
	uint32_t tmask; /* the value bits that pick the slot: mask for a table, else 0 */
	uint32_t num;   /* all ones when a number follows the slot (text style) */
	uint32_t slots; /* arena offset of slot 0 */
	uint32_t field; /* index in nvm_pb_fields */
};

/* A compiled method (in the arena): its steps, then text1 and text2. */
struct pc_entry {
	uint32_t room;       /* most bytes a line of it writes, copy slack included */
	uint16_t len1, len2; /* text: text1 "  mthd 0xMMMM TAG.NAME(i)", no text2; JSON: text1
	                      * ", "method": M, "data": ", text2 the name (w_json_name) or nothing */
	uint8_t nfields, named;
	uint16_t text1; /* offset of text1 from the entry (text2 follows) */
	struct pc_step step[];
};

/* Float texts " (%g)" by value, direct-mapped (drivers write few values). */
struct pc_float {
	uint32_t bits;
	uint32_t len; /* 0: empty */
	char text[24];
};

struct pb_print_cache {
	bool json;
	char *arena; /* offsets, not pointers, into it: it grows */
	size_t len, cap;
	size_t max;                 /* PC_ARENA_MAX (the tests set less) */
	const nvm_pb_class *cls[9]; /* the class tab[] is for, per view (method_in) */
	uint32_t *tab[9];           /* by method dword address: a compiled method's pc_word, 0 none yet */
	uint32_t *bycls[256];       /* the tables by class (nvm_pb_classes index), [nvm_pb_nclasses] no class */
	uint32_t empty;             /* an empty slot */
	uint32_t nfields;           /* fields[] by 2 * field index + float_field(): the arena offset of a step */
	uint32_t *fields;
	struct pc_float flt[256];
};

/* The number of entries of nvm_pb_fields the classes' method lists use. */
static uint32_t fields_used;

static uint32_t count_fields(void)
{
	if (fields_used)
		return fields_used;
	uint32_t n = 1;
	for (size_t c = 0; c < nvm_pb_nclasses; c++)
		for (size_t i = 0; i < nvm_pb_classes[c].nmethods; i++) {
			const nvm_pb_method *m = nvm_pb_class_method_at(&nvm_pb_classes[c], i);
			if (m->fields + m->nfields > n)
				n = m->fields + m->nfields;
		}
	fields_used = n; /* idempotent: a race only counts twice */
	return n;
}

static void pc_free(struct pb_print_cache *k)
{
	if (!k)
		return;
	for (size_t i = 0; i < sizeof(k->bycls) / sizeof(k->bycls[0]); i++)
		free(k->bycls[i]);
	free(k->fields);
	free(k->arena);
	free(k);
}

/* n bytes of the arena, 8-aligned, followed by at least 128 zero bytes
 * (fixed-size copies read past a text); its offset, 0 when full. */
static uint32_t pc_alloc(struct pb_print_cache *k, size_t n)
{
	size_t off = (k->len + 7) & ~(size_t)7;
	size_t need = off + n + 128;
	if (need > k->max)
		return 0;
	if (need > k->cap) {
		size_t cap = k->cap ? k->cap : 64u << 10;
		while (cap < need)
			cap *= 2;
		char *nb = realloc(k->arena, cap);
		if (!nb)
			return 0;
		memset(nb + k->cap, 0, cap - k->cap);
		k->arena = nb;
		k->cap = cap;
	}
	k->len = off + n;
	return (uint32_t)off;
}

static struct pb_print_cache *pc_new(bool json)
{
	if (nvm_pb_nclasses >= 256)
		return NULL;
	struct pb_print_cache *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->json = json;
	k->nfields = 2 * count_fields();
	k->fields = calloc(k->nfields, sizeof(*k->fields));
	k->len = 8; /* offset 0: none */
	k->max = PC_ARENA_MAX;
	if (!k->fields || !(k->empty = pc_alloc(k, PC_SLOT_MAX))) {
		pc_free(k);
		return NULL;
	}
	return k;
}

/* Field f's text for value v (text style; JSON: after ", "). */
static char *pc_value_text(const struct pb_print_cache *k, char *d, const nvm_pb_field *f, uint32_t v, bool flt)
{
	return k->json ? w_json_field(d, f, v, false) : w_text_field(d, f, v, flt);
}

/* The step of field f of method m (its slots built on first use); false
 * when the arena is full. */
static bool pc_field(struct pb_print_cache *k, const nvm_pb_method *m, const nvm_pb_field *f, struct pc_step *st)
{
	bool flt = !k->json && float_field(m, f);
	size_t fi = 2 * (size_t)(f - nvm_pb_fields) + flt;
	if (fi >= k->nfields)
		return false;
	if (k->fields[fi]) {
		memcpy(st, k->arena + k->fields[fi], sizeof(*st));
		return true;
	}
	struct pc_step h = { .lo = f->lo,
		             .flt = flt,
		             .mask = (2u << (f->hi - f->lo)) - 1u,
		             .field = (uint32_t)(f - nvm_pb_fields) };
	char tmp[PC_FIELD_ROOM + 64];
	size_t longest = 0;
	bool table = h.mask < PC_TABLE_VALUES && !flt;
	for (uint32_t v = 0; table && v <= h.mask; v++) {
		size_t n = (size_t)(pc_value_text(k, tmp, f, v, flt) - tmp);
		longest = n > longest ? n : longest;
		table = n < PC_SLOT_MAX;
	}
	/* a number's label: the text of value 0 without its "0" */
	size_t label = (size_t)(pc_value_text(k, tmp, f, 0, false) - tmp - 1), nslots = 1;
	if (table) {
		h.kind = PC_TABLE;
		h.tmask = h.mask;
		nslots = h.mask + 1u;
	} else if (!f->nvalues && label < PC_SLOT_MAX) {
		h.kind = flt ? PC_FLOAT : h.mask == UINT32_MAX ? PC_DATA : PC_NUM;
		h.num = UINT32_MAX;
		longest = label;
	} else {
		h.kind = PC_WRITER;
		longest = 0;
	}
	h.shift = longest < 16 ? 4 : longest < 32 ? 5 : 6;
	uint32_t off = pc_alloc(k, sizeof(h) + (nslots << h.shift));
	if (!off)
		return false;
	h.slots = off + (uint32_t)sizeof(h);
	char *slot = k->arena + h.slots;
	if (h.kind == PC_TABLE) {
		for (uint32_t v = 0; v <= h.mask; v++, slot += (size_t)1 << h.shift) {
			size_t n = (size_t)(pc_value_text(k, tmp, f, v, flt) - tmp);
			slot[0] = (char)n;
			memcpy(slot + 1, tmp, n);
		}
	} else if (h.kind != PC_WRITER) {
		slot[0] = (char)label;
		memcpy(slot + 1, tmp, label);
	}
	memcpy(k->arena + off, &h, sizeof(h));
	k->fields[fi] = off;
	*st = h;
	return true;
}

/* The most bytes a step writes (copy slack included). */
static size_t pc_step_room(const struct pc_step *st)
{
	return PC_COPY + 16 + (st->kind == PC_FLOAT ? 32 : 0) + (st->kind == PC_WRITER ? PC_FIELD_ROOM : 0);
}

/* Method `method` of class c (view vi) compiled; its offset, 0 when the
 * arena is full. */
static uint32_t pc_method(nvm_pb_printer *p, struct pb_print_cache *k, unsigned vi, const nvm_pb_class *c,
                          uint32_t method)
{
	struct mref mr = method_in(p, vi, c, method);
	unsigned nf = mr.m ? mr.m->nfields : 0, nsteps = nf ? nf : 1;
	struct pc_step st[256];
	st[0] = (struct pc_step){ .slots = k->empty }; /* a table of one empty slot */
	for (unsigned i = 0; i < nf; i++)
		if (!pc_field(k, mr.m, nvm_pb_method_field(mr.m, i), &st[i]))
			return 0;
	char t1[400], t2[400];
	char *e1 = t1, *e2 = t2;
	if (k->json) {
		e1 = w_mem(e1, ", \"method\": ", 12);
		e1 = w_dec(e1, method);
		e1 = w_mem(e1, ", \"data\": ", 10);
		if (mr.m)
			e2 = w_json_name(e2, &mr);
	} else {
		e1 = w_mem(e1, "  mthd 0x", 9);
		e1 = w_hexw(e1, method, 4);
		if (mr.m)
			e1 = w_text_name(e1, &mr);
	}
	size_t len1 = (size_t)(e1 - t1), len2 = (size_t)(e2 - t2);
	size_t head = sizeof(struct pc_entry) + nsteps * sizeof(struct pc_step);
	uint32_t off = pc_alloc(k, head + len1 + len2);
	if (!off)
		return 0;
	struct pc_entry *e = (struct pc_entry *)(void *)(k->arena + off);
	e->len1 = (uint16_t)len1;
	e->len2 = (uint16_t)len2;
	e->nfields = (uint8_t)nf;
	e->named = mr.m != NULL;
	e->text1 = (uint16_t)head;
	size_t room = 320 + len1 + len2; /* the line's other parts: offsets, data, kind, masked */
	for (unsigned i = 0; i < nsteps; i++)
		room += pc_step_room(&st[i]);
	e->room = (uint32_t)room;
	memcpy(e->step, st, nsteps * sizeof(*st));
	memcpy(k->arena + off + head, t1, len1);
	memcpy(k->arena + off + head + len1, t2, len2);
	return off;
}

#define PC_CHUNK     32
#define PC_LINE_ROOM 1024

/* A compiled method's word in the tables: its arena offset (below
 * PC_ARENA_MAX), and what a text line of it needs to know before the
 * method is loaded, so that its branches do not wait for that load: the
 * number of steps (an empty one when it has no field), whether it is one float field (PC_ONE_FLOAT: its " (%g)"
 * follows), and whether the line is special (another float, a wider enum
 * field, a method text of more than 64 bytes or a value text of more than
 * 31, more than PC_LINE_ROOM bytes). 0: not compiled. */
#define PC_OFF_MASK  0xffffffu
#define PC_NF_SHIFT  24
#define PC_NF_MAX    63u
#define PC_SPECIAL   (1u << 30)
#define PC_ONE_FLOAT (1u << 31)

static uint32_t pc_word(const struct pb_print_cache *k, uint32_t off)
{
	if (!off)
		return 0;
	const struct pc_entry *e = (const struct pc_entry *)(const void *)(k->arena + off);
	bool special = e->room > PC_LINE_ROOM || e->nfields > PC_NF_MAX || e->len1 > 64;
	bool one_float = e->nfields == 1 && e->step[0].kind == PC_FLOAT;
	unsigned nsteps = e->nfields ? e->nfields : 1;
	for (unsigned i = 0; i < nsteps; i++)
		special |= (e->step[i].kind >= PC_FLOAT && !one_float) || e->step[i].shift > 5;
	return off | (uint32_t)(nsteps & PC_NF_MAX) << PC_NF_SHIFT | (special ? PC_SPECIAL : 0) |
	       (one_float ? PC_ONE_FLOAT : 0);
}

/* Points view vi's table at class c's; false if c is not one of the tables'
 * classes or memory runs out. */
static bool pc_view(struct pb_print_cache *k, unsigned vi, const nvm_pb_class *c)
{
	size_t ci = nvm_pb_nclasses;
	if (c) {
		uintptr_t a = (uintptr_t)c, b = (uintptr_t)nvm_pb_classes;
		if (a < b || a - b >= nvm_pb_nclasses * sizeof(*c) || (a - b) % sizeof(*c))
			return false;
		ci = (a - b) / sizeof(*c);
	}
	if (!k->bycls[ci] && !(k->bycls[ci] = calloc(4096, sizeof(uint32_t))))
		return false;
	k->cls[vi] = c;
	k->tab[vi] = k->bycls[ci];
	return true;
}

/* The compiled method a line of subch / method prints, NULL: format it from
 * the tables. */
static inline const struct pc_entry *pc_lookup(nvm_pb_printer *p, struct pb_print_cache *k, uint32_t subch,
                                               uint32_t method)
{
	unsigned vi = view_index(p, subch, method);
	const nvm_pb_class *c = vi == 8 ? p->host : p->bound[vi];
	if ((k->cls[vi] != c || !k->tab[vi]) && !pc_view(k, vi, c)) {
		k->tab[vi] = NULL;
		return NULL;
	}
	if (method >= 0x4000)
		return NULL;
	uint32_t t = k->tab[vi][method >> 2];
	if (!t && !(t = k->tab[vi][method >> 2] = pc_word(k, pc_method(p, k, vi, c, method))))
		return NULL;
	return (const struct pc_entry *)(const void *)(k->arena + (t & PC_OFF_MASK));
}

static inline const char *pc_text1(const struct pc_entry *e)
{
	return (const char *)e + e->text1;
}

/* A compiled text of n bytes: fixed-size blocks (the arena has slack), the
 * first one of `first` bytes. */
static inline char *w_block(char *d, const char *s, size_t n, size_t first)
{
	memcpy(d, s, 32);
	if (first == 64)
		memcpy(d + 32, s + 32, 32);
	for (size_t k = first; k < n; k += 32)
		memcpy(d + k, s + k, 32);
	return d + n;
}

/* " (%g)" of float bits v, from the cache. */
static char *w_pc_float(struct pb_print_cache *k, char *d, uint32_t v)
{
	struct pc_float *s = &k->flt[(v * 0x9e3779b1u) >> 24];
	if (s->bits != v || !s->len) {
		char tmp[80], *e = w_mem(tmp, " (", 2);
		e = w_float(e, v, false);
		*e++ = ')';
		s->bits = v;
		s->len = (uint32_t)(e - tmp);
		if (s->len > sizeof(s->text)) {
			s->len = 0; /* does not fit (it does: %g of a float is at most 13 bytes) */
			return w_mem(d, tmp, (size_t)(e - tmp));
		}
		memcpy(s->text, tmp, s->len);
	}
	memcpy(d, s->text, sizeof(s->text));
	return d + s->len;
}

/* A step's slot for value v, its text from byte skip on (JSON's first field
 * leaves out the ", "). */
static inline char *w_pc_slot(const struct pb_print_cache *k, char *d, const struct pc_step *st, uint32_t v,
                              size_t skip)
{
	const char *s = k->arena + st->slots + ((size_t)(v & st->tmask) << st->shift);
	memcpy(d, s + 1 + skip, PC_COPY);
	return d + (unsigned char)s[0] - skip;
}

/* A step of the text style: the slot, then the hex digits, advanced over
 * only after a number's label (num), so that tables and numbers take the
 * same instructions (which one comes changes from line to line: a branch
 * on it mispredicts). */
static inline char *w_pc_text_step(struct pb_print_cache *k, char *d, const struct pc_step *st, uint32_t data)
{
	uint32_t v = (data >> st->lo) & st->mask;
	d = w_pc_slot(k, d, st, v, 0);
	d = w_hexd(d, hex8(v), hex_digits(v) & (int)st->num);
	if (__builtin_expect(st->kind >= PC_FLOAT, 0))
		d = st->kind == PC_FLOAT ? w_pc_float(k, d, v) : w_text_field(d, &nvm_pb_fields[st->field], v, st->flt);
	return d;
}

/* The fields of data after a compiled method's name, text style. */
static inline char *w_pc_text_fields(struct pb_print_cache *k, char *d, const struct pc_entry *e, uint32_t data)
{
	d = w_pc_text_step(k, d, &e->step[0], data); /* an empty step when there is no field */
	for (unsigned i = 1; i < e->nfields; i++)
		d = w_pc_text_step(k, d, &e->step[i], data);
	return d;
}

/* JSON (dd: the digits of data, for a 32-bit field). */
static inline char *w_pc_json_fields(struct pb_print_cache *k, char *d, const struct pc_entry *e, uint32_t data,
                                     struct decw dd)
{
	for (unsigned i = 0; i < e->nfields; i++) {
		const struct pc_step *st = &e->step[i];
		uint32_t v = (data >> st->lo) & st->mask;
		size_t skip = i ? 0 : 2;
		switch (st->kind) {
		case PC_TABLE: d = w_pc_slot(k, d, st, v, skip); break;
		case PC_NUM: d = w_dec(w_pc_slot(k, d, st, v, skip), v); break;
		case PC_DATA: d = w_decw(w_pc_slot(k, d, st, v, skip), dd); break;
		default: d = w_json_field(d, &nvm_pb_fields[st->field], v, i == 0); break;
		}
	}
	return d;
}

/* ---------------------------------------------------------------- text */

static void text_prefix(nvm_pb_out *o, uint64_t off, uint32_t word)
{
	o_hexw(o, off, 8);
	o_mem(o, ": ", 2);
	o_hexw(o, word, 8);
	o_ch(o, ' ');
}

/* One method line: prefix (or blanks for IMMD data), "  mthd 0xMMMM", the
 * name and fields when the class is known, "(masked)". The room is
 * reserved once: 128 bytes for the fixed parts and 32-byte copy slack, 300
 * for the name, and for each field its name, a value name or a number with
 * its float (the names are at most 255 bytes). */
static void text_method(nvm_pb_printer *p, const nvm_pb_run *r, uint32_t i, uint32_t method)
{
	nvm_pb_out *o = p->out;
	struct mref mr = method_of(p, r->subch, method);
	size_t room = 128 + 300 + (mr.m ? (size_t)mr.m->nfields * 640 : 0);
	char *d = o_room(o, room);
	if (!d)
		return;
	if (r->mode == NVM_PB_MODE_IMMD) {
		d = w_mem(d, "                   ", 19);
	} else {
		d = w_hexw(d, (uint32_t)(r->offset + i), 8); /* offsets print as 8 digits */
		d = w_mem(d, ": ", 2);
		d = w_hexw(d, r->data[i], 8);
		*d++ = ' ';
	}
	d = w_mem(d, "  mthd 0x", 9);
	d = w_hexw(d, method, 4);
	if (mr.m) {
		const nvm_pb_method *m = mr.m;
		d = w_text_name(d, &mr);
		uint32_t data = r->data[i];
		for (unsigned k = 0; k < m->nfields; k++) {
			const nvm_pb_field *f = nvm_pb_method_field(m, k);
			d = w_text_field(d, f, field_get(data, f), float_field(m, f));
		}
	}
	if (r->masked)
		d = w_mem(d, " (masked)", 9);
	*d++ = '\n';
	o->len = (size_t)(d - o->buf);
}

static void text_set_object(nvm_pb_printer *p, const nvm_pb_run *r, uint32_t i)
{
	uint32_t unknown = follow_set_object(p, r, i);
	if (unknown) {
		nvm_pb_out *o = p->out;
		o_str(o, "                     unknown class ");
		o_hex(o, unknown);
		o_str(o, " on subchannel ");
		o_dec(o, r->subch);
		o_str(o, ": its methods print as numbers\n");
	}
}

static void text_header(void *ctx, const nvm_pb_header *h)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	/* "MODE subch S mthd 0x" by mode, written whole and then the
	 * subchannel's digit over its S */
	static const char head[4][32] = { "INC  subch 0 mthd 0x", "NINC subch 0 mthd 0x", "1INC subch 0 mthd 0x",
		                          "IMMD subch 0 mthd 0x" };
	/* one reservation for the line, as text_method */
	char *d = o_room(o, 128);
	if (!d)
		return;
	uint64_t ho, hw;
	hex8x2((uint32_t)h->offset, h->word, &ho, &hw);
	memcpy(d, &ho, 8);
	memcpy(d + 8, ": ", 2);
	memcpy(d + 10, &hw, 8);
	d[18] = ' ';
	memcpy(d + 19, head[h->mode & 3], 32);
	d[30] = (char)('0' + (h->subch & 7));
	memcpy(d + 39, hex2[(h->method >> 8) & 0xff], 2); /* the method's last 4 hex digits */
	memcpy(d + 41, hex2[h->method & 0xff], 2);
	d += 43;
	if (h->mode == NVM_PB_MODE_IMMD) {
		d = w_mem(d, " data ", 6);
		d = w_hex(d, FIELD_GET(h->word, 28, 16));
	} else if (h->count < 100) {
		/* most counts: one or two digits, without a branch on which */
		d = w_mem(d, " count ", 7);
		memcpy(d, dec2 + 2 * h->count + (h->count < 10), 2);
		d += 1 + (h->count >= 10);
	} else {
		d = w_mem(d, " count ", 7);
		d = w_dec(d, h->count);
	}
	if (h->masked)
		d = w_mem(d, " (masked)", 9);
	*d++ = '\n';
	o->len = (size_t)(d - o->buf);
	if (h->ndwords == 2) {
		text_prefix(o, h->offset + 1, h->word2);
		o_mem(o, "  (count word)\n", 15);
	}
	o_maybe_flush(o);
}

/* text_method's line from a compiled method (reserved: its room is). */
static void text_method_pc(nvm_pb_out *o, struct pb_print_cache *k, const struct pc_entry *e, const nvm_pb_run *r,
                           uint32_t i, bool reserved)
{
	char *d = reserved ? o->buf + o->len : o_room(o, e->room);
	if (!d)
		return;
	uint32_t data = r->data[i];
	uint64_t ho, hd;
	hex8x2((uint32_t)(r->offset + i), data, &ho, &hd);
	if (r->mode == NVM_PB_MODE_IMMD) {
		d = w_mem(d, "                   ", 19);
	} else {
		memcpy(d, &ho, 8);
		memcpy(d + 8, ": ", 2);
		memcpy(d + 10, &hd, 8);
		d[18] = ' ';
		d += 19;
	}
	d = w_block(d, pc_text1(e), e->len1, 64);
	d = w_pc_text_fields(k, d, e, data);
	if (r->masked)
		d = w_mem(d, " (masked)", 9);
	*d++ = '\n';
	o->len = (size_t)(d - o->buf);
}

/* A run's lines one by one through pc_lookup (a table could not be set
 * up for the run: each line finds its own way, as before a run). */
static void text_run_each(nvm_pb_printer *p, const nvm_pb_run *r)
{
	nvm_pb_out *o = p->out;
	struct pb_print_cache *k = p->cache;
	/* Room reserved, and the flush checked, once per PC_CHUNK lines (a
	 * compiled line of up to PC_LINE_ROOM bytes then needs no check). */
	for (uint32_t i = 0; i < r->count;) {
		uint32_t end = r->count - i > PC_CHUNK ? i + PC_CHUNK : r->count;
		bool reserved = k && o_room(o, (size_t)(end - i) * PC_LINE_ROOM);
		for (; i < end; i++) {
			uint32_t m = nvm_pb_run_method(r, i);
			const struct pc_entry *e = k ? pc_lookup(p, k, r->subch, m) : NULL;
			if (e && e->room <= PC_LINE_ROOM) {
				text_method_pc(o, k, e, r, i, reserved);
			} else {
				if (e)
					text_method_pc(o, k, e, r, i, false);
				else
					text_method(p, r, i, m);
				reserved = false; /* it used room of its own */
			}
			if (m == 0) {
				text_set_object(p, r, i);
				reserved = false;
			}
		}
		o_maybe_flush(o);
	}
}

/* The compiled-method table of view vi for the class it names now; NULL
 * when there is none (pc_lookup's test). */
static const uint32_t *pc_tab(nvm_pb_printer *p, struct pb_print_cache *k, unsigned vi)
{
	const nvm_pb_class *c = vi == 8 ? p->host : p->bound[vi];
	if ((k->cls[vi] != c || !k->tab[vi]) && !pc_view(k, vi, c)) {
		k->tab[vi] = NULL;
		return NULL;
	}
	return k->tab[vi];
}

/* Entries from..count-1 of run r, line by line. */
static void text_run_rest(nvm_pb_printer *p, const nvm_pb_run *r, uint32_t from)
{
	if (from >= r->count)
		return;
	nvm_pb_run rest = *r;
	rest.index += from;
	rest.offset += from;
	rest.count -= from;
	rest.data += from;
	text_run_each(p, &rest);
}

/* w_pc_text_step with the arena and the step's fields in registers: the
 * line's stores go through a char pointer, which may alias anything in
 * memory, so that what stays in memory is loaded again after each store. */
static inline char *w_pc_text_step_r(const char *arena, char *d, const struct pc_step *stp, uint32_t data)
{
	unsigned lo = stp->lo, shift = stp->shift;
	uint32_t mask = stp->mask, tmask = stp->tmask, num = stp->num, slots = stp->slots;
	uint32_t v = (data >> lo) & mask;
	const char *s = arena + slots + ((size_t)(v & tmask) << shift);
	size_t len = (unsigned char)s[0];
	memcpy(d, s + 1, 32); /* at most 31 bytes (else special) */
	d += len;
	/* the hex digits (scratch after a table's text): the 8 of hex8 less
	 * the leading zeros, counted in nibbles from the highest bit set */
	unsigned hi = 31u - (unsigned)__builtin_clz(v | 1), lead = 7u - (hi >> 2);
	uint64_t h = hex8(v);
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	h >>= 8 * lead;
#else
	h <<= 8 * lead;
#endif
	memcpy(d, &h, 8);
	return d + ((8u - lead) & num);
}

static void text_run(void *ctx, const nvm_pb_run *r)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	struct pb_print_cache *k = p->cache;
	unsigned sub = r->subch & 7;
	/* The tables of the run's views, found once a run (and again after a
	 * SET_OBJECT): methods below 0x100 in the host class's (tl), the others
	 * in the subchannel's (th). Anything unusual goes line by line. */
	const uint32_t *th = NULL, *tl = NULL;
	if (!k || r->method >= 0x4000 || (r->method & 3) || !(th = pc_tab(p, k, sub)) ||
	    !(tl = p->host ? pc_tab(p, k, 8) : th)) {
		text_run_each(p, r);
		return;
	}
	/* The run in registers (see w_pc_text_step_r). nvm_pb_run_method without a
	 * branch on the mode: the method of sequence entry j is method + 4 *
	 * min(j, lim). */
	const uint32_t *data = r->data;
	uint32_t method = r->method, index = r->index, count = r->count, offset = (uint32_t)r->offset;
	uint32_t lim = r->mode == NVM_PB_MODE_INC ? UINT32_MAX : r->mode == NVM_PB_MODE_1INC ? 1u : 0u;
	bool masked = r->masked;
	const char *arena = k->arena;
	/* IMMD lines start with blanks, the others with the offset and the data */
	uint64_t immd = r->mode == NVM_PB_MODE_IMMD ? ~0ull : 0;
	uint64_t blank = 0x2020202020202020ull & immd;
	uint16_t colon = (uint16_t)(((':' | ' ' << 8) & ~immd) | (0x2020 & immd));
	for (uint32_t i = 0; i < count;) {
		uint32_t end = count - i > PC_CHUNK ? i + PC_CHUNK : count;
		char *d = o_room(o, (size_t)(end - i) * PC_LINE_ROOM);
		if (!d) {
			text_run_rest(p, r, i); /* out of memory: as o_room per line has it */
			return;
		}
		for (; i < end; i++) {
			uint32_t j = index + i;
			uint32_t m = (method + 4u * (j < lim ? j : lim)) & 0x3ffcu;
			uint32_t t = (m < 0x100 ? tl : th)[m >> 2];
			if (__builtin_expect(!t, 0)) {
				unsigned vi = view_index(p, r->subch, m);
				t = k->tab[vi][m >> 2] =
				        pc_word(k, pc_method(p, k, vi, vi == 8 ? p->host : p->bound[vi], m));
				arena = k->arena; /* it may have moved */
			}
			if (__builtin_expect(!t || m == 0, 0)) {
				o->len = (size_t)(d - o->buf);
				text_run_rest(p, r, i); /* the arena is full, or a SET_OBJECT */
				return;
			}
			const struct pc_entry *e = (const struct pc_entry *)(const void *)(arena + (t & PC_OFF_MASK));
			if (__builtin_expect(t & PC_SPECIAL, 0)) {
				o->len = (size_t)(d - o->buf);
				text_method_pc(o, k, e, r, i, false);
				if (!(d = o_room(o, (size_t)(end - i) * PC_LINE_ROOM))) {
					text_run_rest(p, r, i + 1);
					return;
				}
				continue;
			}
			uint32_t w = data[i];
			uint64_t ho, hd;
			hex8x2(offset + i, w, &ho, &hd);
			ho = (ho & ~immd) | blank;
			hd = (hd & ~immd) | blank;
			memcpy(d, &ho, 8);
			memcpy(d + 8, &colon, 2);
			memcpy(d + 10, &hd, 8);
			d[18] = ' ';
			/* its text (at most 64 bytes, else special) follows the steps
			 * (pc_method): its address from the table word, so that its
			 * cache line and the method's are fetched together */
			unsigned nsteps = t >> PC_NF_SHIFT & PC_NF_MAX;
			const char *t1 = (const char *)e + sizeof(*e) + nsteps * sizeof(struct pc_step);
			memcpy(d + 19, t1, 64);
			d += 19 + e->len1;
			d = w_pc_text_step_r(arena, d, &e->step[0], w); /* an empty step when there is no field */
			for (unsigned f = 1; f < nsteps; f++)
				d = w_pc_text_step_r(arena, d, &e->step[f], w);
			if (t & PC_ONE_FLOAT)
				d = w_pc_float(k, d, w); /* the field is the data word */
			if (masked)
				d = w_mem(d, " (masked)", 9);
			*d++ = '\n';
		}
		o->len = (size_t)(d - o->buf);
		o_maybe_flush(o);
	}
}

static void text_control(void *ctx, const nvm_pb_control *c)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	if (c->kind == NVM_PB_CTRL_IGNORED) {
		o_hexw(o, c->offset, 8);
		o_mem(o, ": ........ ignored ", 19);
		o_dec(o, c->value);
		o_str(o, " entries after END_PB_SEGMENT\n");
		return;
	}
	text_prefix(o, c->offset, c->word);
	o_str(o, ctrl_upper[c->kind]);
	if (c->has_value) {
		o_ch(o, ' ');
		o_hex(o, c->value);
	}
	if (c->kind == NVM_PB_CTRL_SET_SUBDEVICE_MASK || c->kind == NVM_PB_CTRL_USE_SUBDEVICE_MASK ||
	    c->kind == NVM_PB_CTRL_SLI_CONDITIONAL)
		o_str(o, c->active ? " (active)" : " (inactive)");
	o_ch(o, '\n');
	o_maybe_flush(o);
}

static void text_error(void *ctx, const nvm_pb_error *e)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	p->errors++;
	text_prefix(o, e->offset, e->word);
	o_mem(o, "ERROR ", 6);
	o_str(o, nvm_pb_err_name(e->code));
	o_mem(o, ": ", 2);
	o_str(o, nvm_pb_err_message(e->code));
	if (e->code == NVM_PB_ERR_TRUNCATED && e->missing) {
		o_mem(o, " (", 2);
		o_dec(o, e->missing);
		o_str(o, " entries missing)");
	}
	const char *intr = nvm_pb_err_interrupt(e->code, p->format);
	if (intr) {
		o_mem(o, " [", 2);
		o_str(o, intr);
		o_ch(o, ']');
	}
	o_ch(o, '\n');
}

/* ---------------------------------------------------------------- json */

static void json_key_u(nvm_pb_out *o, const char *key, uint64_t v)
{
	o_mem(o, ", \"", 3);
	o_str(o, key);
	o_mem(o, "\": ", 3);
	o_dec(o, v);
}

/* , "fields": {"NAME": value or "ENUM", ...} */
static void json_fields(nvm_pb_out *o, const nvm_pb_method *m, uint32_t data)
{
	o_str(o, ", \"fields\": {");
	for (unsigned i = 0; i < m->nfields; i++) {
		const nvm_pb_field *f = nvm_pb_method_field(m, i);
		uint32_t v = FIELD_GET(data, f->hi, f->lo);
		uint32_t vn = value_name(f, v);
		if (i)
			o_mem(o, ", ", 2);
		o_jstr(o, nvm_pb_name(f->name));
		o_mem(o, ": ", 2);
		if (vn)
			o_jstr(o, nvm_pb_name(vn));
		else
			o_dec(o, v);
	}
	o_ch(o, '}');
}

static void json_header(void *ctx, const nvm_pb_header *h)
{
	nvm_pb_printer *p = ctx;
	if (h->count)
		return; /* its methods carry it */
	nvm_pb_out *o = p->out;
	o_mem(o, "{\"offset\": ", 11);
	o_dec(o, h->offset);
	json_key_u(o, "subch", h->subch);
	json_key_u(o, "method", h->method);
	o_mem(o, ", \"kind\": ", 10);
	o_jstr(o, nvm_pb_mode_name(h->mode));
	json_key_u(o, "count", 0);
	json_key_u(o, "header", h->word);
	o_mem(o, "}\n", 2);
	o_maybe_flush(o);
}

/* Whether every name of the tables is plain (no '"' or '\\': they are C
 * identifiers), so that the JSON printer copies names without escaping.
 * Computed once (idempotent: a race only computes it twice). */
static int names_plain_state; /* 0 unknown, 1 plain, 2 not */

static bool plain(uint32_t off)
{
	const char *s = nvm_pb_name(off);
	for (size_t i = 0, n = nvm_pb_name_len(off); i < n; i++)
		if (s[i] == '"' || s[i] == '\\')
			return false;
	return true;
}

static bool names_plain(void)
{
	if (names_plain_state)
		return names_plain_state == 1;
	bool ok = true;
	for (size_t c = 0; c < nvm_pb_nclasses && ok; c++) {
		for (size_t i = 0; i < nvm_pb_classes[c].nmethods && ok; i++) {
			const nvm_pb_method *m = nvm_pb_class_method_at(&nvm_pb_classes[c], i);
			ok = plain(m->name);
			for (unsigned k = 0; k < m->nfields && ok; k++) {
				const nvm_pb_field *f = nvm_pb_method_field(m, k);
				ok = plain(f->name);
				for (unsigned v = 0; v < f->nvalues && ok; v++)
					ok = plain(nvm_pb_field_value(f, v)->name);
			}
		}
	}
	names_plain_state = ok ? 1 : 2;
	return ok;
}

/* One method's JSON line written through a pointer into room reserved for
 * the whole line, as text_method does (names plain: no escaping). The same
 * bytes as the o_* writers of json_method_escaped. */
static void json_method(nvm_pb_printer *p, const nvm_pb_run *r, uint32_t i, uint32_t method)
{
	nvm_pb_out *o = p->out;
	struct mref mr = method_of(p, r->subch, method);
	size_t room = 256 + 300 + (mr.m ? (size_t)mr.m->nfields * 560 : 0);
	char *d = o_room(o, room);
	if (!d)
		return;
	d = w_mem(d, "{\"offset\": ", 11);
	d = w_dec64(d, r->hdr_offset);
	d = w_mem(d, ", \"subch\": ", 11);
	d = w_dec(d, r->subch);
	d = w_mem(d, ", \"method\": ", 12);
	d = w_dec(d, method);
	d = w_mem(d, ", \"data\": ", 10);
	d = w_dec(d, r->data[i]);
	d = w_mem(d, ", \"kind\": \"", 11);
	/* nvm_pb_mode_name's names, copied in 4 bytes */
	static const char mode_lower[4][4] = { { 'i', 'n', 'c', 0 },
		                               { 'n', 'i', 'n', 'c' },
		                               { '1', 'i', 'n', 'c' },
		                               { 'i', 'm', 'm', 'd' } };
	memcpy(d, mode_lower[r->mode & 3], 4);
	d += r->mode == NVM_PB_MODE_INC ? 3 : 4;
	d = w_mem(d, "\", \"data_offset\": ", 18);
	d = w_dec64(d, r->mode == NVM_PB_MODE_IMMD ? r->offset : r->offset + i);
	if (mr.m) {
		const nvm_pb_method *m = mr.m;
		d = w_json_name(d, &mr);
		uint32_t data = r->data[i];
		for (unsigned k = 0; k < m->nfields; k++) {
			const nvm_pb_field *f = nvm_pb_method_field(m, k);
			d = w_json_field(d, f, field_get(data, f), k == 0);
		}
		*d++ = '}';
	}
	if (r->masked)
		d = w_mem(d, ", \"masked\": true", 16);
	d = w_mem(d, "}\n", 2);
	o->len = (size_t)(d - o->buf);
}

static void json_method_escaped(nvm_pb_printer *p, const nvm_pb_run *r, uint32_t i, uint32_t m, const char *kind)
{
	nvm_pb_out *o = p->out;
	o_mem(o, "{\"offset\": ", 11);
	o_dec(o, r->hdr_offset);
	json_key_u(o, "subch", r->subch);
	json_key_u(o, "method", m);
	json_key_u(o, "data", r->data[i]);
	o_mem(o, ", \"kind\": ", 10);
	o_jstr(o, kind);
	json_key_u(o, "data_offset", r->mode == NVM_PB_MODE_IMMD ? r->offset : r->offset + i);
	struct mref mr = method_of(p, r->subch, m);
	if (mr.m) {
		o_mem(o, ", \"name\": \"", 11);
		o_tag(o, mr.cls);
		o_ch(o, '.');
		o_method_name(o, &mr);
		o_ch(o, '"');
		json_fields(o, mr.m, r->data[i]);
	}
	if (r->masked)
		o_mem(o, ", \"masked\": true", 16);
	o_mem(o, "}\n", 2);
}

/* json_method's line from a compiled method. */
static void json_method_pc(nvm_pb_out *o, struct pb_print_cache *k, const struct pc_entry *e, const nvm_pb_run *r,
                           uint32_t i, struct decw ho, struct decw od)
{
	/* ", "kind": "inc", "data_offset": " ... in blocks of 48 */
	static const struct {
		char text[48];
		size_t len;
	} kinds[4] = {
		{ ", \"kind\": \"inc\", \"data_offset\": ", 32 },
		{ ", \"kind\": \"ninc\", \"data_offset\": ", 33 },
		{ ", \"kind\": \"1inc\", \"data_offset\": ", 33 },
		{ ", \"kind\": \"immd\", \"data_offset\": ", 33 },
	};
	char *d = o_room(o, e->room);
	if (!d)
		return;
	uint32_t data = r->data[i];
	struct decw dd = dec_split(data);
	d = w_decw(w_mem(d, "{\"offset\": ", 11), ho);
	d = w_mem(d, ", \"subch\": ", 11);
	*d++ = (char)('0' + (r->subch & 7));
	d = w_block(d, pc_text1(e), e->len1, 32);
	d = w_decw(d, dd);
	memcpy(d, kinds[r->mode & 3].text, 48);
	d += kinds[r->mode & 3].len;
	d = w_decw(d, od);
	d = w_block(d, pc_text1(e) + e->len1, e->len2, 64);
	d = w_pc_json_fields(k, d, e, data, dd);
	*d = '}'; /* closes the fields */
	d += e->named;
	if (r->masked)
		d = w_mem(d, ", \"masked\": true", 16);
	d = w_mem(d, "}\n", 2);
	o->len = (size_t)(d - o->buf);
}

static void json_run(void *ctx, const nvm_pb_run *r)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	const char *kind = nvm_pb_mode_name(r->mode);
	bool fast = names_plain();
	struct pb_print_cache *k = fast ? p->cache : NULL;
	/* the header's offset, the same on each line, and data_offset: the
	 * run's offsets count up (IMMD: one line) */
	if (r->offset + r->count > UINT32_MAX || r->subch > 7)
		k = NULL;
	struct decw ho = dec_split((uint32_t)r->hdr_offset), od = dec_split((uint32_t)r->offset);
	for (uint32_t i = 0; i < r->count; i++) {
		uint32_t m = nvm_pb_run_method(r, i);
		const struct pc_entry *e = k ? pc_lookup(p, k, r->subch, m) : NULL;
		if (i)
			od = dec_next(od, (uint32_t)(r->offset + i));
		if (e)
			json_method_pc(o, k, e, r, i, ho, od);
		else if (fast)
			json_method(p, r, i, m);
		else
			json_method_escaped(p, r, i, m, kind);
		if (m == 0) {
			uint32_t unknown = follow_set_object(p, r, i);
			if (unknown) {
				o_mem(o, "{\"offset\": ", 11);
				o_dec(o, r->hdr_offset);
				o_str(o, ", \"note\": \"unknown class\"");
				json_key_u(o, "class", unknown);
				json_key_u(o, "subch", r->subch);
				o_mem(o, "}\n", 2);
			}
		}
		o_maybe_flush(o);
	}
}

static void json_control(void *ctx, const nvm_pb_control *c)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	o_mem(o, "{\"offset\": ", 11);
	o_dec(o, c->offset);
	o_mem(o, ", \"control\": ", 13);
	o_jstr(o, nvm_pb_ctrl_name(c->kind));
	if (c->has_value)
		json_key_u(o, "value", c->value);
	json_key_u(o, "word", c->word);
	if (c->kind == NVM_PB_CTRL_SET_SUBDEVICE_MASK || c->kind == NVM_PB_CTRL_USE_SUBDEVICE_MASK ||
	    c->kind == NVM_PB_CTRL_SLI_CONDITIONAL)
		o_str(o, c->active ? ", \"active\": true" : ", \"active\": false");
	o_mem(o, "}\n", 2);
	o_maybe_flush(o);
}

static void json_error(void *ctx, const nvm_pb_error *e)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	p->errors++;
	o_mem(o, "{\"offset\": ", 11);
	o_dec(o, e->offset);
	o_mem(o, ", \"error\": ", 11);
	o_jstr(o, nvm_pb_err_name(e->code));
	o_mem(o, ", \"message\": ", 13);
	o_jstr(o, nvm_pb_err_message(e->code));
	json_key_u(o, "word", e->word);
	if (e->code == NVM_PB_ERR_TRUNCATED)
		json_key_u(o, "missing", e->missing);
	const char *intr = nvm_pb_err_interrupt(e->code, p->format);
	o_mem(o, ", \"interrupt\": ", 15);
	if (intr)
		o_jstr(o, intr);
	else
		o_str(o, "null");
	o_mem(o, "}\n", 2);
}

/* ---------------------------------------------------------------- mesa */

/* The layout of Mesa's vk_push_print (src/nouveau/headers/nv_push.c;
 * docs/pushbuf.md "Mesa style"). Mesa labels SEC_OP 1 (incrementing) "NINC"
 * and SEC_OP 3 (non-incrementing) "0INC". UNVERIFIED: the per-field
 * formatting of Mesa's generated class dumpers (docs/fidelity.md). */
static const char *const mesa_mode[] = { " NINC", " 0INC", " 1INC", " IMMD" };

static void mesa_hdr(nvm_pb_out *o, uint64_t off, uint32_t word)
{
	o_mem(o, "[0x", 3);
	o_hexw(o, off, 8);
	o_mem(o, "] HDR ", 6);
	/* %x: no leading zeros */
	int digits = 1;
	while (digits < 8 && (word >> (4 * digits)))
		digits++;
	o_hexw(o, word, digits);
}

/* One method as Mesa's generated dumpers print it (P_PARSE_*_MTHD for the
 * name, P_DUMP_*_MTHD_DATA for the fields): enum fields by value name or
 * 0x%x, float methods %ff (0x%x), other fields (0x%x). */
static void mesa_method(nvm_pb_printer *p, uint32_t subch, uint32_t method, uint32_t data)
{
	nvm_pb_out *o = p->out;
	struct mref r = method_of(p, subch, method);
	/* one reservation for the block (see text_method) */
	char *d = o_room(o, 128 + 300 + (r.m ? (size_t)r.m->nfields * 640 : 0));
	if (!d)
		return;
	d = w_mem(d, "\tmthd ", 6);
	d = w_hexw(d, method, 4);
	*d++ = ' ';
	if (!r.m) {
		d = w_mem(d, "unknown method\n\t\t.VALUE = ", 26);
		d = w_hex(d, data);
		*d++ = '\n';
		o->len = (size_t)(d - o->buf);
		return;
	}
	const nvm_pb_method *m = r.m;
	d = w_mem(d, "NV", 2);
	for (int k = 3; k >= 0; k--)
		*d++ = "0123456789ABCDEF"[(r.prefix >> (4 * k)) & 15];
	*d++ = '_';
	d = w_index(w_name(d, m->name), &r);
	*d++ = '\n';
	for (unsigned i = 0; i < m->nfields; i++) {
		const nvm_pb_field *f = nvm_pb_method_field(m, i);
		uint32_t v = FIELD_GET(data, f->hi, f->lo);
		d = w_mem(d, "\t\t.", 3);
		d = w_name(d, f->name);
		d = w_mem(d, " = ", 3);
		if (f->nvalues) {
			uint32_t vn = value_name(f, v);
			d = vn ? w_name(d, vn) : w_hex(d, v);
		} else if (m->flags & NVM_PB_METHOD_FLOAT) {
			d = w_float(d, v, true);
			d = w_mem(d, "f (", 3);
			d = w_hex(d, v);
			*d++ = ')';
		} else {
			*d++ = '(';
			d = w_hex(d, v);
			*d++ = ')';
		}
		*d++ = '\n';
	}
	o->len = (size_t)(d - o->buf);
}

static void mesa_header(void *ctx, const nvm_pb_header *h)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	mesa_hdr(o, h->offset, h->word);
	o_mem(o, " subch ", 7);
	o_dec(o, h->subch);
	o_str(o, mesa_mode[h->mode]);
	o_ch(o, '\n');
	p->seq_left = h->count;
	if (!h->count)
		o_ch(o, '\n');
	o_maybe_flush(o);
}

static void mesa_run(void *ctx, const nvm_pb_run *r)
{
	nvm_pb_printer *p = ctx;
	for (uint32_t i = 0; i < r->count; i++) {
		uint32_t m = nvm_pb_run_method(r, i);
		/* Mesa binds the class before it names SET_OBJECT (whose host
		 * class then follows the new class, mesa_host()). */
		if (m == 0)
			follow_set_object(p, r, i);
		mesa_method(p, r->subch, m, r->data[i]);
		o_maybe_flush(p->out);
	}
	p->seq_left -= r->count < p->seq_left ? r->count : p->seq_left;
	if (!p->seq_left)
		o_ch(p->out, '\n');
}

static void mesa_control(void *ctx, const nvm_pb_control *c)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	if (c->kind == NVM_PB_CTRL_IGNORED) {
		/* UNVERIFIED extension: Mesa has no such line. */
		o_mem(o, "[0x", 3);
		o_hexw(o, c->offset, 8);
		o_str(o, "] IGNORED ");
		o_dec(o, c->value);
		o_str(o, "\n\n");
		return;
	}
	mesa_hdr(o, c->offset, c->word);
	switch (c->kind) {
	case NVM_PB_CTRL_NOP:
		/* Mesa decodes 0 as SEC_OP 0 / TERT_OP 0 with COUNT 0. */
		o_str(o, " subch 0 NINC\n\n");
		break;
	case NVM_PB_CTRL_SET_SUBDEVICE_MASK:
	case NVM_PB_CTRL_STORE_SUBDEVICE_MASK:
	case NVM_PB_CTRL_USE_SUBDEVICE_MASK:
		o_str(o, " subch N/A SUB_DEVICE_OP\n\tmthd ");
		o_hexw(o, FIELD_GET(c->word, 17, 16), 4);
		o_ch(o, ' ');
		o_str(o, ctrl_upper[c->kind]);
		o_ch(o, '\n');
		if (c->kind != NVM_PB_CTRL_USE_SUBDEVICE_MASK) {
			o_str(o, "\t\t.VALUE = ");
			o_hex(o, c->value);
			o_ch(o, '\n');
		}
		o_ch(o, '\n');
		break;
	default:
		o_ch(o, ' ');
		o_str(o, ctrl_upper[c->kind]);
		if (c->has_value) {
			o_ch(o, ' ');
			o_hex(o, c->value);
		}
		o_str(o, "\n\n");
		break;
	}
	o_maybe_flush(o);
}

static void mesa_error(void *ctx, const nvm_pb_error *e)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	p->errors++;
	if (p->seq_left) {
		/* a sequence cut short: close its block */
		o_ch(o, '\n');
		p->seq_left = 0;
	}
	/* UNVERIFIED extension: Mesa's printer does not validate. */
	mesa_hdr(o, e->offset, e->word);
	o_str(o, " ERROR ");
	o_str(o, nvm_pb_err_name(e->code));
	o_str(o, "\n\n");
}

/* ---------------------------------------------------------------- asm */

#define ASM_PER_LINE 8

static void asm_word_line_item(nvm_pb_printer *p, uint32_t w, const char *first)
{
	nvm_pb_out *o = p->out;
	if (p->line_items >= ASM_PER_LINE) {
		o_ch(o, '\n');
		p->line_items = 0;
	}
	if (p->line_items == 0)
		o_str(o, first);
	o_ch(o, ' ');
	o_mem(o, "0x", 2);
	o_hexw(o, w, 8);
	p->line_items++;
}

static void asm_end_line(nvm_pb_printer *p)
{
	if (p->line_items) {
		o_ch(p->out, '\n');
		p->line_items = 0;
	}
}

static void asm_method_operand(nvm_pb_printer *p, uint32_t subch, uint32_t method)
{
	struct mref r = method_of(p, subch, method);
	o_ch(p->out, ' ');
	if (r.m) {
		o_tag(p->out, r.cls);
		o_ch(p->out, '.');
		o_method_name(p->out, &r);
	} else {
		o_hex(p->out, method);
	}
}

static void asm_header(void *ctx, const nvm_pb_header *h)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	asm_end_line(p);
	uint32_t w = 0;
	bool ok;
	if (h->ndwords == 2)
		ok = h->word == (0x00030000u | h->subch << 13 | h->method) && h->word2 == h->count;
	else
		ok = nvm_pb_encode_method(p->format, h->mode, h->subch, h->method,
		                          h->mode == NVM_PB_MODE_IMMD ? FIELD_GET(h->word, 28, 16) : h->count, &w) &&
		     w == h->word;
	/* A sequence whose data does not all follow cannot be written as one line. */
	if (h->mode != NVM_PB_MODE_IMMD && h->count && !in_input(p, h->offset + h->ndwords + h->count - 1))
		ok = false;
	p->raw_seq = !ok;
	p->seq_left = h->mode == NVM_PB_MODE_IMMD ? 0 : h->count;
	if (!ok) {
		o_str(o, ".word 0x");
		o_hexw(o, h->word, 8);
		if (h->ndwords == 2) {
			o_str(o, " 0x");
			o_hexw(o, h->word2, 8);
		}
		o_ch(o, '\n');
		return;
	}
	static const char *const kw[] = { "inc", "ninc", "1inc", "immd" };
	o_str(o, h->ndwords == 2 ? "long_ninc" : kw[h->mode]);
	o_ch(o, ' ');
	o_dec(o, h->subch);
	asm_method_operand(p, h->subch, h->method);
	if (h->mode == NVM_PB_MODE_IMMD) {
		o_ch(o, ' ');
		o_hex(o, FIELD_GET(h->word, 28, 16));
		o_ch(o, '\n');
		return;
	}
	if (!h->count)
		o_ch(o, '\n');
	else
		p->line_items = 1; /* data continues this line */
	o_maybe_flush(o);
}

static void asm_run(void *ctx, const nvm_pb_run *r)
{
	nvm_pb_printer *p = ctx;
	for (uint32_t i = 0; i < r->count; i++)
		if (nvm_pb_run_method(r, i) == 0)
			follow_set_object(p, r, i);
	if (r->mode == NVM_PB_MODE_IMMD)
		return;
	for (uint32_t i = 0; i < r->count; i++)
		asm_word_line_item(p, r->data[i], p->raw_seq ? ".word" : "+");
	p->seq_left -= r->count < p->seq_left ? r->count : p->seq_left;
	if (!p->seq_left || p->raw_seq)
		asm_end_line(p);
	o_maybe_flush(p->out);
}

static void asm_control(void *ctx, const nvm_pb_control *c)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	asm_end_line(p);
	if (c->kind == NVM_PB_CTRL_IGNORED) {
		o_str(o, "# ignored after end_segment\n");
		for (uint32_t i = 0; i < c->ndwords; i++)
			asm_word_line_item(p, c->data ? c->data[i] : input_word(p, c->offset + i), ".word");
		asm_end_line(p);
		return;
	}
	uint32_t w;
	if (!nvm_pb_encode_control(p->format, c->kind, c->value, &w) || w != c->word) {
		o_str(o, ".word 0x");
		o_hexw(o, c->word, 8);
		o_str(o, "\n");
		return;
	}
	o_str(o, nvm_pb_ctrl_name(c->kind));
	if (c->has_value && c->kind != NVM_PB_CTRL_USE_SUBDEVICE_MASK) {
		o_ch(o, ' ');
		o_hex(o, c->value);
	}
	o_ch(o, '\n');
	o_maybe_flush(o);
}

static void asm_error(void *ctx, const nvm_pb_error *e)
{
	nvm_pb_printer *p = ctx;
	nvm_pb_out *o = p->out;
	p->errors++;
	asm_end_line(p);
	if (e->ndwords == 1) {
		/* the word this error consumed (an invalid instruction, or a
		 * long header whose count word never came) */
		o_str(o, ".word 0x");
		o_hexw(o, e->word, 8);
		o_str(o, "  ");
	}
	o_str(o, "# error ");
	o_str(o, nvm_pb_err_name(e->code));
	o_str(o, ": ");
	o_str(o, nvm_pb_err_message(e->code));
	o_ch(o, '\n');
}

/* ---------------------------------------------------------------- setup */

void nvm_pb_printer_init(nvm_pb_printer *p, nvm_pb_style style, const nvm_pb_config *cfg, const uint32_t *input,
                         uint64_t base, size_t n, nvm_pb_out *out)
{
	/* Field by field: the views are large and need no clearing (a view is
	 * built when its class is first used). */
	p->style = style;
	p->format = cfg->format;
	p->input = input;
	p->base = base;
	p->n = n;
	p->out = out;
	p->errors = 0;
	p->seq_left = p->line_items = 0;
	p->raw_seq = false;
	p->pinned = 0;
	p->nunknown = 0;
	for (unsigned i = 0; i < 9; i++)
		p->view[i].cls = NULL;
	p->cache = style == NVM_PB_STYLE_TEXT || style == NVM_PB_STYLE_JSON ? pc_new(style == NVM_PB_STYLE_JSON) : NULL;
	hex2_init();
	p->host = nvm_pb_host_class(cfg->gen, cfg->format);
	p->gen = cfg->gen;
	for (unsigned s = 0; s < 8; s++) {
		p->bound_id[s] = p->host ? cfg->gen->subch_class[s] : 0;
		p->bound[s] = p->bound_id[s] ? nvm_pb_class_find(p->bound_id[s]) : NULL;
	}
}

void nvm_pb_printer_bind(nvm_pb_printer *p, unsigned subch, const nvm_pb_class *c, bool pin)
{
	subch &= 7;
	p->bound[subch] = c;
	p->bound_id[subch] = c ? c->id : 0;
	if (pin)
		p->pinned |= (uint8_t)(1u << subch);
}

nvm_pb_sink nvm_pb_printer_sink(nvm_pb_printer *p)
{
	switch (p->style) {
	case NVM_PB_STYLE_JSON: return (nvm_pb_sink){ p, json_header, json_run, json_control, json_error, NULL, NULL };
	case NVM_PB_STYLE_MESA: return (nvm_pb_sink){ p, mesa_header, mesa_run, mesa_control, mesa_error, NULL, NULL };
	case NVM_PB_STYLE_ASM: return (nvm_pb_sink){ p, asm_header, asm_run, asm_control, asm_error, NULL, NULL };
	default: return (nvm_pb_sink){ p, text_header, text_run, text_control, text_error, NULL, NULL };
	}
}

void nvm_pb_printer_begin(nvm_pb_printer *p)
{
	if (p->style != NVM_PB_STYLE_ASM)
		return;
	o_str(p->out, p->format == NVM_PB_FORMAT_NEW ? ".format new\n" : ".format old\n");
	for (unsigned s = 0; s < 8; s++) {
		if (!p->bound[s] || !(p->pinned & (1u << s)))
			continue;
		o_str(p->out, ".class ");
		o_dec(p->out, s);
		o_ch(p->out, ' ');
		o_hex(p->out, p->bound[s]->id);
		o_ch(p->out, '\n');
	}
}

void nvm_pb_printer_end(nvm_pb_printer *p)
{
	if (p->style == NVM_PB_STYLE_ASM)
		asm_end_line(p);
	nvm_pb_out_flush(p->out);
	pb_printer_uncached(p);
}

void pb_printer_uncached(nvm_pb_printer *p)
{
	pc_free(p->cache);
	p->cache = NULL;
}

void pb_printer_cache_limit(nvm_pb_printer *p, size_t bytes)
{
	if (p->cache)
		p->cache->max = bytes < PC_ARENA_MAX ? bytes : PC_ARENA_MAX; /* offsets fit PC_OFF_MASK */
}

/* ---------------------------------------------------------------- GP entries */

void nvm_pb_print_gp(nvm_pb_out *o, nvm_pb_style style, uint64_t index, const nvm_pb_gp_entry *g)
{
	hex2_init();
	const char *opn = nvm_pb_gp_entry_op_name(g);
	bool ext = opn && g->opcode == NVM_PB_GP_SET_PB_SEGMENT_EXTENDED_BASE;
	if (style == NVM_PB_STYLE_JSON) {
		o_mem(o, "{\"index\": ", 10);
		o_dec(o, index);
		json_key_u(o, "e0", g->e0);
		json_key_u(o, "e1", g->e1);
		if (g->control) {
			o_mem(o, ", \"control\": ", 13);
			if (opn)
				o_jstr(o, opn);
			else
				o_str(o, "null");
			json_key_u(o, "opcode", g->opcode);
			json_key_u(o, "operand", g->operand);
			if (ext)
				json_key_u(o, "pb_extended_base_operand", g->extended_base);
		} else {
			json_key_u(o, "get", g->get);
			json_key_u(o, "length", g->length);
			o_str(o,
			      g->fetch_conditional ? ", \"fetch\": \"conditional\"" : ", \"fetch\": \"unconditional\"");
			o_str(o, g->level_subroutine ? ", \"level\": \"subroutine\"" : ", \"level\": \"main\"");
		}
		o_str(o, g->sync_wait ? ", \"sync\": \"wait\"" : ", \"sync\": \"proceed\"");
		o_str(o, g->priv ? ", \"priv\": \"kernel\"" : ", \"priv\": \"user\"");
		if (g->err) {
			o_mem(o, ", \"error\": ", 11);
			o_jstr(o, nvm_pb_gp_err_name(g->err));
			o_mem(o, ", \"message\": ", 13);
			o_jstr(o, nvm_pb_gp_err_message(g->err));
			o_str(o, ", \"interrupt\": \"GPENTRY\"");
		}
		o_mem(o, "}\n", 2);
		o_maybe_flush(o);
		return;
	}
	o_hexw(o, index, 8);
	o_mem(o, ": ", 2);
	o_hexw(o, g->e0, 8);
	o_ch(o, ' ');
	o_hexw(o, g->e1, 8);
	if (g->control) {
		o_mem(o, " CONTROL ", 9);
		if (opn) {
			for (const char *s = opn; *s; s++)
				o_ch(o, (char)(*s >= 'a' && *s <= 'z' ? *s - 32 : *s));
		} else {
			o_str(o, "opcode ");
			o_hex(o, g->opcode);
		}
		o_str(o, " operand ");
		o_hex(o, g->operand);
		if (ext) {
			o_str(o, " pb_extended_base_operand ");
			o_hex(o, g->extended_base);
		}
	} else {
		o_mem(o, " SEGMENT get 0x", 15);
		o_hexw(o, g->get, 10);
		o_str(o, " length ");
		o_dec(o, g->length);
		o_str(o, g->fetch_conditional ? " fetch=conditional" : " fetch=unconditional");
		o_str(o, g->level_subroutine ? " level=subroutine" : " level=main");
	}
	o_str(o, g->sync_wait ? " sync=wait" : " sync=proceed");
	o_str(o, g->priv ? " priv=kernel" : " priv=user");
	if (g->err) {
		o_str(o, " ERROR ");
		o_str(o, nvm_pb_gp_err_name(g->err));
		o_str(o, ": ");
		o_str(o, nvm_pb_gp_err_message(g->err));
		o_str(o, " [GPENTRY]");
	}
	o_ch(o, '\n');
	o_maybe_flush(o);
}
