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

#include "pfifo_internal.h"

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
	uint64_t get = reg40(f->r_dma_get, f->r_get_hi) & ~3ull, put = reg40(f->r_dma_put, f->r_put_hi) & ~3ull;
	return get != put || (ib_on(f) && *f->r_ib_get != *f->r_ib_put);
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
	uint32_t n = ib_entries(f), idx = *f->r_ib_get & (n - 1), e0, e1;
	uint64_t at = base + (uint64_t)idx * 8;
	if (!read_word(f, at, &e0) || !read_word(f, at + 4, &e1)) {
		*why = "VM fault reading the IB entry";
		return DMA_ERR_MEM_FAULT;
	}
	*f->r_ib_get = (idx + 1) & (n - 1);
	pb_ib_entry e;
	pb_ib_decode(e0, e1, &e);
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

/* Words at get readable at once: mapped linearly by one translation (the
 * contig block, or an unpaged object up to its limit), at most `want`. *w points at them,
 * byte-swapped into buf when needed. */
static uint32_t fetch(struct pfifo *f, uint64_t get, uint32_t want, uint32_t *buf, const uint32_t **w)
{
	nvm_aperture ap;
	uint64_t lin;
	uint8_t *p;
	size_t avail;
	uint64_t span;
	if (!g80_xlat(f, sel_of(f), get, G80_PB_READ, &ap, &lin, &span))
		return 0;
	if (span / 4 < want)
		want = span / 4 ? (uint32_t)(span / 4) : 1;
	if ((lin & 3) || mem_span(&f->gpu->mem[ap], lin, false, &p, &avail) || avail < 4) {
		/* not word aligned or at a memory edge: one word */
		uint8_t b[4];
		if (mem_read(&f->gpu->mem[ap], lin, b, 4))
			return 0;
		memcpy(buf, b, 4);
		*w = buf;
		want = 1;
	} else {
		if (avail / 4 < want)
			want = (uint32_t)(avail / 4);
		*w = (const uint32_t *)(const void *)p;
	}
	if (g80_big_endian(f)) {
		if (want > 1024)
			want = 1024;
		for (uint32_t i = 0; i < want; i++)
			buf[i] = bswap32((*w)[i]);
		*w = buf;
	}
	return want;
}

/* What the pseudocode does with the words from get on, up to n of them:
 * the decoder's sinks push methods; returns the words consumed. */
static uint32_t feed(struct pfifo *f, uint64_t *get, const uint32_t *w, uint32_t n)
{
	uint32_t rem0 = f->dec.remaining, idx0 = f->dec.index;
	uint32_t lo = (uint32_t)*get + 4 * n;
	f->dma_get = lo;
	pb_feed(&f->dec, w, n);
	if (f->burst_err == DMA_ERR_INVALID_MTHD) {
		/* The bad word was read (DMA_GET past it) but not counted. */
		f->dec.remaining = rem0 - f->err_word;
		f->dec.index = idx0 + f->err_word;
		n = f->err_word + 1;
		*get = (*get + 4 * n) & VA_MASK;
		return n;
	}
	/* A jump, call or return (DMA mode). UNVERIFIED: the 32-bit target
	 * clears DMA_GET_HIGH (dma-pusher.rst: no 40-bit jumps). */
	if (f->dma_get != lo)
		*get = f->dma_get;
	else
		*get = (*get + 4 * n) & VA_MASK;
	return n;
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

uint32_t g80_pusher_run(struct pfifo *f, uint32_t max, uint64_t *t)
{
	nvm_gpu *gpu = f->gpu;
	bool ib = ib_on(f), nonmain = *f->r_dma_state & STATE_NON_MAIN;
	uint64_t get = reg40(f->r_dma_get, f->r_get_hi) & ~3ull, put = reg40(f->r_dma_put, f->r_put_hi) & ~3ull;
	uint64_t start = get, limit = bus_get(gpu, R_DMA_LIMIT);
	const char *why = NULL;
	uint32_t words = 0, buf[1024];
	/* the words fetched last: win_n from win_get at win_w */
	uint64_t win_get = 0;
	const uint32_t *win_w = NULL;
	uint32_t win_n = 0;
	bool slice_live = *t < f->slice_end;
	pusher_dec_load(f, ib);
	f->burst_t = t;
	f->burst_err = DMA_ERR_NONE;
	while (words < max && !f->burst_err) {
		if (!sched_budget_left(gpu))
			break;
		if (slice_live && *t + (uint64_t)words * PFIFO_NS_DMA_WORD >= f->slice_end)
			break;
		if (get == put) {
			if (!ib || *f->r_ib_get == *f->r_ib_put)
				break;
			f->burst_err = ib_fetch(f, &get, &put, &nonmain, &why);
			words += 2;
			win_n = 0;
			if (!nonmain && !f->burst_err) {
				set40(f->r_mget, f->r_mget_hi, get);
				*f->r_mget_hi |= MGET_VALID;
			}
			continue;
		}
		/* pseudocode: outside IB mode dma_get >= dma_limit is a MEM_FAULT */
		if (!ib && get >= limit) {
			f->burst_err = DMA_ERR_MEM_FAULT;
			why = "DMA_GET reached DMA_LIMIT";
			break;
		}
		uint32_t free = pfifo_cache_free(f);
		bool data = f->dec.remaining != 0 && !f->dec.lenp;
		if (data && !free)
			break;
		uint64_t left = ((put - get) & VA_MASK) / 4;
		uint32_t want = left < max - words ? (uint32_t)left : max - words;
		const uint32_t *w;
		uint32_t lim;
		if (win_n && get >= win_get && !((get - win_get) & 3) && (get - win_get) / 4 < win_n) {
			/* after a command word (which delivers no method), the
			 * words already fetched need no second translation */
			uint32_t skip = (uint32_t)((get - win_get) / 4);
			w = win_w + skip;
			lim = win_n - skip < want ? win_n - skip : want;
		} else {
			lim = fetch(f, get, want, buf, &w);
			win_get = get;
			win_w = w;
			win_n = lim;
		}
		if (!lim) {
			f->burst_err = DMA_ERR_MEM_FAULT;
			why = "VM fault reading the pushbuffer";
			break;
		}
		uint32_t n;
		f->direct = false;
		if (!data) {
			n = 1; /* a command word (or the long form's count) */
		} else if (puller_direct_ok(f, f->dec.subch) && (n = pusher_direct_words(f, lim)) != 0) {
			f->direct = true;
		} else {
			n = lim;
			if (n > f->dec.remaining)
				n = f->dec.remaining;
			if (n > free)
				n = free;
		}
		if (data)
			win_n = 0; /* methods went out: translate afresh */
		words += feed(f, &get, w, n);
		if (!nonmain) {
			set40(f->r_mget, f->r_mget_hi, get);
			*f->r_mget_hi |= MGET_VALID;
		}
		if (f->burst_err)
			why = err_why(f->burst_err);
		else if (f->acq_fence)
			break;
	}
	set40(f->r_dma_get, f->r_get_hi, get);
	set40(f->r_dma_put, f->r_put_hi, put);
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
