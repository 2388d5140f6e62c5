/*
 * The G80 DMA pusher (envytools dma-pusher.rst "The pusher pseudocode -
 * pre-GF100", "IB mode", "Channel control area"): NV4-style DMA mode and IB
 * mode, reading the pushbuffer and the IB ring through the pushbuffer DMA
 * object (DMA_INSTANCE, a selector of the channel) and the G80 VM (seed 002
 * DMA slot 5/8/0 "FIFO pushbuf read"). Commands go to the shared decoder
 * (src/pushbuf/, IB mode: the long non-increasing form, no jumps); its
 * sinks in pusher.c put the methods into CACHE1.
 */
#include <string.h>

#include "fifo/fetch.h"
#include "g80.h"

/* DMA_FETCH IB_ENABLE 30, DMA_STATE NON_MAIN 18, DMA_MGET_HIGH VALID 31
 * (rnndb). */
#define FETCH_IB_ENABLE (1u << 30)
#define STATE_NON_MAIN  (1u << 18)
#define MGET_VALID      (1u << 31)
#define VA_MASK         0xffffffffffull

static uint64_t reg40(const uint32_t *lo, const uint32_t *hi)
{
	return (uint64_t)(*hi & 0xff) << 32 | *lo;
}

static void set40(uint32_t *lo, uint32_t *hi, uint64_t v)
{
	*lo = (uint32_t)v;
	*hi = (uint32_t)(v >> 32) & 0xff;
}

static bool ib_on(const struct pfifo *f)
{
	return *f->r_dma_fetch & FETCH_IB_ENABLE;
}

/* IB_CONFIG ORDER 31:16: the ring holds 2^ORDER entries (dma-pusher.rst).
 * UNVERIFIED: ORDER above 30 is taken as 30 (the size range is "???"). */
static uint32_t ib_entries(const struct pfifo *f)
{
	uint32_t order = FIELD_GET(bus_get(f->gpu, R_G80_IB_CONFIG), 31, 16);
	return 1u << (order > 30 ? 30 : order);
}

bool g80_pusher_ready(struct pfifo *f)
{
	if (pusher_acquire_holds(f))
		return false;
	if (!(*f->r_push1 & f->chip->push1_mode) || !(*f->r_push0 & 1) || !(*f->r_dma_push & DMA_PUSH_ACCESS) ||
	    (*f->r_dma_push & DMA_PUSH_SUSPENDED) || FIELD_GET(*f->r_dma_state, 31, 29) || !pfifo_cache_free(f))
		return false;
	uint64_t get = reg40(f->r_dma_get, g80_of(f)->r_get_hi) & ~3ull,
	         put = reg40(f->r_dma_put, g80_of(f)->r_put_hi) & ~3ull;
	return get != put || (ib_on(f) && *g80_of(f)->r_ib_get != *g80_of(f)->r_ib_put);
}

static uint32_t bswap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

static uint32_t sel_of(const struct pfifo *f)
{
	return *f->r_dma_inst & 0xffffu;
}

/* One word of the pushbuffer DMA object (the IB ring). */
static bool read_word(struct pfifo *f, uint64_t off, uint32_t *w)
{
	nvm_aperture ap;
	uint64_t lin;
	uint8_t b[4];
	if (!g80_xlat(f, sel_of(f), off & VA_MASK, G80_PB_READ, &ap, &lin, NULL) ||
	    mem_read(&f->gpu->mem[ap], lin, b, 4))
		return false;
	*w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	if (g80_big_endian(f))
		*w = bswap32(*w);
	return true;
}

/* Reads IB entry IB_GET (pseudocode: "current pushbuffer empty, but we have
 * more IB entries to read"): the next pushbuffer piece, or an error. */
static unsigned ib_fetch(struct pfifo *f, uint64_t *get, uint64_t *put, bool *nonmain, const char **why)
{
	uint64_t base = reg40(bus_reg(f->gpu, R_G80_IB_ADDRESS), bus_reg(f->gpu, R_G80_IB_CONFIG)) & ~3ull;
	uint32_t n = ib_entries(f), idx = *g80_of(f)->r_ib_get & (n - 1), e0, e1;
	uint64_t at = base + (uint64_t)idx * 8;
	if (!read_word(f, at, &e0) || !read_word(f, at + 4, &e1)) {
		*why = "VM fault reading the IB entry";
		return DMA_ERR_MEM_FAULT;
	}
	*g80_of(f)->r_ib_get = (idx + 1) & (n - 1);
	sched_charge(f->gpu, 1); /* an IB entry costs a unit, as a command word (PFIFO_WORK_PER_UNIT) */
	nvm_pb_ib_entry e;
	nvm_pb_ib_decode(e0, e1, &e);
	if (emit_wanted(f->gpu, NVM_EV_TRACE))
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "ib_entry", e.address, e.size,
		     "channel %u: IB entry %u: 0x%010llx, %u words%s", pfifo_chid(f), idx,
		     (unsigned long long)e.address, e.size, e.not_main ? " (not main)" : "");
	if (!e.size) {
		*why = "an IB entry of length 0";
		return DMA_ERR_IB_EMPTY;
	}
	*get = e.address;
	*put = (e.address + (uint64_t)e.size * 4) & VA_MASK;
	*nonmain = e.not_main;
	return DMA_ERR_NONE;
}

static const char *err_why(unsigned e)
{
	switch (e) {
	case DMA_ERR_INVALID_MTHD: return "a method 0x04..0xfc the puller does not know";
	case DMA_ERR_INVALID_CMD: return "no command form matches the word in this mode";
	case DMA_ERR_CALL_SUBR_ACTIVE: return "call while a subroutine is active";
	case DMA_ERR_RET_SUBR_INACTIVE: return "return while no subroutine is active";
	default: return "VM fault reading the pushbuffer";
	}
}

/* The G80 pusher's side of the shared fetch loop (src/fifo/fetch.h). */
struct ib_fetch {
	struct pfifo *f;
	uint64_t *t;
	uint64_t limit; /* DMA_LIMIT (DMA mode) */
	bool ib, nonmain, slice_live;
	bool data;     /* a method sequence is pending: the next words are its data */
	uint32_t free; /* CACHE1 room */
	const char *why;
};

/* Budget and time slice: a burst ends with the channel's timeslice, so the
 * switcher gets a look. */
static bool ib_time_left(struct ib_fetch *c, uint32_t words)
{
	if (!sched_budget_left(c->f->gpu))
		return false;
	return !(c->slice_live && *c->t + (uint64_t)words * PFIFO_NS_DMA_WORD >= c->f->slice_end);
}

/* Room in CACHE1 for pending data. */
static bool ib_room(struct ib_fetch *c)
{
	struct pfifo *f = c->f;
	c->free = pfifo_cache_free(f);
	c->data = f->dec.remaining != 0 && !f->dec.lenp;
	return !(c->data && !c->free);
}

/* Main fetch position (DMA_MGET), unless the piece is NOT_MAIN. */
static void ib_mget(struct ib_fetch *c, uint64_t get)
{
	if (!c->nonmain) {
		set40(g80_of(c->f)->r_mget, g80_of(c->f)->r_mget_hi, get);
		*g80_of(c->f)->r_mget_hi |= MGET_VALID;
	}
}

static bool ib_refill(struct fifo_fetch *x)
{
	struct ib_fetch *c = x->ctx;
	struct pfifo *f = c->f;
	if (!ib_time_left(c, x->words) || !c->ib || *g80_of(f)->r_ib_get == *g80_of(f)->r_ib_put)
		return false;
	f->burst_err = ib_fetch(f, &x->get, &x->put, &c->nonmain, &c->why);
	x->words += 2;
	if (f->burst_err)
		return false;
	ib_mget(c, x->get);
	return true;
}

static bool ib_ready(struct fifo_fetch *x)
{
	struct ib_fetch *c = x->ctx;
	struct pfifo *f = c->f;
	if (!ib_time_left(c, x->words))
		return false;
	/* pseudocode: outside IB mode dma_get >= dma_limit is a MEM_FAULT */
	if (!c->ib && x->get >= c->limit) {
		f->burst_err = DMA_ERR_MEM_FAULT;
		c->why = "DMA_GET reached DMA_LIMIT";
		return false;
	}
	return ib_room(c);
}

static void ib_mem_fault(struct fifo_fetch *x, const struct fifo_span *s)
{
	struct ib_fetch *c = x->ctx;
	(void)s;
	c->f->burst_err = DMA_ERR_MEM_FAULT;
	c->why = "VM fault reading the pushbuffer";
}

/* The words at GET mapped linearly by one translation (the contig block,
 * or an unpaged object up to its limit). */
static bool ib_translate(struct fifo_fetch *x, struct fifo_span *s)
{
	struct ib_fetch *c = x->ctx;
	nvm_aperture ap;
	/* A translation is work (a TLB lookup or a walk): a pushbuffer that
	 * jumps to itself pays for it beside the jump's command word. */
	sched_charge(c->f->gpu, 1);
	if (!g80_xlat(c->f, sel_of(c->f), x->get, G80_PB_READ, &ap, &s->pa, &s->bytes)) {
		ib_mem_fault(x, s);
		return false;
	}
	s->mem = &c->f->gpu->mem[ap];
	s->sparse = false;
	return true;
}

/* The checks before the piece k words into a chained feed (pusher_portion):
 * ib_ready's. A failed check is left for the loop to find again. */
static bool ib_chain_ready(struct fifo_fetch *x, uint32_t k)
{
	struct ib_fetch *c = x->ctx;
	return ib_time_left(c, x->words + k) && (c->ib || ((x->get + 4ull * k) & VA_MASK) < c->limit) && ib_room(c);
}

/* As the DMA pusher's (pusher_portion), data not cut into chunks. */
static uint32_t ib_portion(struct fifo_fetch *x, uint32_t lim)
{
	struct ib_fetch *c = x->ctx;
	/* ib_chain_ready's limit check (DMA mode): GET + 4 k below DMA_LIMIT,
	 * unless the 40-bit address wraps within the piece (no quick feed) */
	struct pusher_quick_env q = { .kmax = UINT64_MAX, .slice_live = c->slice_live };
	if (!c->ib)
		q.kmax = x->get + 4ull * lim > VA_MASK ? 0 : x->get < c->limit ? (c->limit - x->get + 3) / 4 : 0;
	return pusher_portion(c->f, x, c->data, c->free, lim, UINT32_MAX, ib_chain_ready, &q);
}

static bool ib_fed(struct fifo_fetch *x, uint32_t n, uint32_t used)
{
	struct ib_fetch *c = x->ctx;
	struct pfifo *f = c->f;
	n = pusher_fed(f, x->get, n, used);
	uint32_t lo = (uint32_t)x->get + 4 * n;
	if (f->burst_err == DMA_ERR_INVALID_MTHD) {
		/* The bad word was read (DMA_GET past it) but not counted. */
		n = used + 1;
		x->get = (x->get + 4 * n) & VA_MASK;
	} else if (f->dma_get != lo) {
		/* A jump, call or return (DMA mode). UNVERIFIED: the 32-bit
		 * target clears DMA_GET_HIGH (dma-pusher.rst: no 40-bit jumps). */
		x->get = f->dma_get;
	} else {
		x->get = (x->get + 4 * n) & VA_MASK;
	}
	x->words += n;
	ib_mget(c, x->get);
	if (f->burst_err) {
		c->why = err_why(f->burst_err);
		return false;
	}
	return !f->acq_fence;
}

static const struct fifo_fetch_ops ib_fetch_ops = {
	.ready = ib_ready,
	.refill = ib_refill,
	.translate = ib_translate,
	.mem_fault = ib_mem_fault,
	.portion = ib_portion,
	.fed = ib_fed,
};

uint32_t g80_pusher_run(struct pfifo *f, uint32_t max, uint64_t *t)
{
	nvm_gpu *gpu = f->gpu;
	uint64_t get = reg40(f->r_dma_get, g80_of(f)->r_get_hi) & ~3ull,
	         put = reg40(f->r_dma_put, g80_of(f)->r_put_hi) & ~3ull;
	uint64_t start = get;
	uint32_t buf[FIFO_FETCH_CHUNK];
	struct ib_fetch c = { .f = f,
		              .t = t,
		              .limit = bus_get(gpu, R_DMA_LIMIT),
		              .ib = ib_on(f),
		              .nonmain = *f->r_dma_state & STATE_NON_MAIN,
		              .slice_live = *t < f->slice_end };
	pusher_dec_load(f, c.ib);
	f->burst_t = t;
	f->burst_err = DMA_ERR_NONE;
	struct fifo_fetch x = { .ops = &ib_fetch_ops,
		                .ctx = &c,
		                .dec = &f->dec,
		                .get = get,
		                .put = put,
		                .wrap = VA_MASK,
		                .max = max,
		                .swap = g80_big_endian(f),
		                .edge_words = true,
		                .keep_span = true,
		                .buf = buf };
	uint32_t words = fifo_fetch_run(&x);
	get = x.get;
	put = x.put;
	const char *why = c.why;
	bool nonmain = c.nonmain;
	set40(f->r_dma_get, g80_of(f)->r_get_hi, get);
	set40(f->r_dma_put, g80_of(f)->r_put_hi, put);
	pusher_dec_store(f);
	*f->r_dma_state = (*f->r_dma_state & ~STATE_NON_MAIN) | (nonmain ? STATE_NON_MAIN : 0);
	f->stats.dma_words += words;
	*t += (uint64_t)words * PFIFO_NS_DMA_WORD;
	if (words && emit_wanted(gpu, NVM_EV_TRACE))
		emit(gpu, NVM_EV_TRACE, "pfifo", "dma_fetch", start, words,
		     "channel %u: DMA pusher read %u words from 0x%010llx, DMA_GET now 0x%010llx", pfifo_chid(f), words,
		     (unsigned long long)start, (unsigned long long)get);
	if (f->burst_err) {
		pusher_dma_error(f, f->burst_err, get, why);
		return words ? words : 1;
	}
	return words;
}
