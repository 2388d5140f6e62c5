/*
 * The PFIFO pushers of NV04..NV4x: the USER areas, the PIO pusher with its
 * RAMRO runouts (seed 001 "The pusher"), and the DMA pusher (envytools
 * dma-pusher.rst, "The pusher pseudocode - pre-GF100"), which reads the
 * pushbuffer through its NV04-style DMA object and splits it into commands
 * with the shared old-format decoder (src/pushbuf/). The decoder reports
 * jumps, calls and returns; the pusher follows them.
 */
#include <string.h>

#include "fifo/fetch.h"
#include "pfifo_internal.h"

/* ---------------------------------------------------------------- methods */

/* dma-pusher.rst: the pusher only passes methods 0x100+ and the 0..0xfc
 * methods the puller recognises (puller.rst's table, per generation). */
bool pusher_knows_method(const struct pfifo *f, uint32_t m)
{
	if (m == 0 || m >= 0x100)
		return true;
	return !(m & 3) && (f->chip->methods & PF_METHOD(m));
}

/* ---------------------------------------------------------------- RAMRO */

static const char *const ramro_reason_names[] = {
	[RAMRO_ILLEGAL_ACCESS] = "ILLEGAL_ACCESS",
	[RAMRO_NO_CACHE_AVAILABLE] = "NO_CACHE_AVAILABLE",
	[RAMRO_CACHE_RAN_OUT] = "CACHE_RAN_OUT",
	[3] = "?",
	[4] = "?",
	[RAMRO_RESERVED_ACCESS] = "RESERVED_ACCESS",
};

/* Stores a rejected USER-area access in RAMRO and raises RUNOUT, or
 * RUNOUT_OVERFLOW when RAMRO is full (seed 001). RAMRO: RAMRO ADDRESS 8:1
 * (<< 9), SIZE 16:16 (512 bytes or 8 KiB), 8-byte entries between
 * RUNOUT_GET and RUNOUT_PUT. UNVERIFIED entry layout (docs/pfifo.md):
 * word 0 METHOD 12:0 (the byte offset in the subchannel), SUBCHANNEL 15:13,
 * CHID 20:16, TYPE 21:21 (0 write), SIZE 23:22 (0 32-bit, 1 8-bit,
 * 2 16-bit), REASON 31:28; word 1 the data. */
void pusher_ramro_store(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size, unsigned reason)
{
	uint32_t off = addr - PFIFO_USER;
	uint32_t chid = off >> 16, subch = (off >> 13) & 7, m = off & 0x1fff;
	uint32_t rsize = FIELD_GET(bus_get(f->gpu, R_RAMRO), 16, 16) ? 0x2000u : 0x200u;
	uint32_t base = (bus_get(f->gpu, R_RAMRO) & 0x1feu) << 8;
	uint32_t put = bus_get(f->gpu, R_RUNOUT_PUT) & (rsize - 1), get = bus_get(f->gpu, R_RUNOUT_GET) & (rsize - 1);
	const char *why = nvm_pfifo_ramro_reason_name(reason);
	if (((put + 8) & (rsize - 1)) == get) {
		f->stats.ramro_overflows++;
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "runout_overflow", addr, val,
		     "channel %u subchannel %u method 0x%04x: %s, and RAMRO is full: the access is lost "
		     "(RUNOUT_OVERFLOW)",
		     chid, subch, m, why);
		pfifo_raise(f, INTR_RUNOUT_OVERFLOW);
		return;
	}
	uint32_t w0 = m | subch << 13 | (chid & 0x1f) << 16 |
	              (size == 1   ? 1u
	               : size == 2 ? 2u
	                           : 0u)
	                      << 22 |
	              (uint32_t)reason << 28;
	pfifo_ramin_wr32(f, base + put, w0);
	pfifo_ramin_wr32(f, base + put + 4, val);
	bus_set(f->gpu, R_RUNOUT_PUT, (put + 8) & (rsize - 1));
	f->stats.ramro_entries++;
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "runout", addr, reason,
	     "channel %u subchannel %u method 0x%04x data 0x%08x (%u bytes): %s, stored in RAMRO at 0x%05x (RUNOUT)",
	     chid, subch, m, val, size, why, base + put);
	pfifo_raise(f, INTR_RUNOUT);
}

/* ---------------------------------------------------------------- USER areas */

/* Can channel chid put entries into CACHE1 now (it holds CACHE1, or CACHE1
 * is empty and may be reassigned)? UNVERIFIED: also what FREE reports
 * (0 for a channel that cannot). */
static bool cache_available(struct pfifo *f, uint32_t chid)
{
	if (!(*f->r_push0 & 1))
		return false;
	if (chid == pfifo_chid(f))
		return true;
	return !pfifo_cache_count(f) && FIELD_GET(*f->r_caches, 0, 0) && !pfifo_pio_slice_holds(f);
}

static void dma_put_write(struct pfifo *f, uint32_t chid, uint32_t val)
{
	/* UNVERIFIED: a DMA_PUT store for a channel CACHE1 does not hold goes
	 * to its RAMFC entry, which the switcher reads. */
	pfifo_chan_reg_set(f, chid, R_DMA_PUT, val & ~3u);
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "dma_put", chid, val, "channel %u: DMA_PUT 0x%08x", chid, val);
	pfifo_kick(f);
}

/* The PIO pusher (seed 001): a store to channel + subchannel * 0x2000 +
 * method goes into CACHE1, or to RAMRO when it cannot. */
void pusher_pio_store(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size)
{
	uint32_t off = addr - PFIFO_USER;
	uint32_t chid = off >> 16, subch = (off >> 13) & 7, m = off & 0x1fff;
	if (pfifo_chan_dma(f, chid)) {
		/* dma-pusher.rst "Channel control area": DMA_PUT is the only
		 * writable address of a DMA channel. UNVERIFIED: other stores to a
		 * DMA channel's area are ignored. */
		if (size == 4 && m == 0x40) {
			dma_put_write(f, chid, val);
			return;
		}
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "user_ignored", addr, val,
		     "channel %u is in DMA mode: store of 0x%08x to USER offset 0x%04x ignored", chid, val, m);
		return;
	}
	unsigned reason;
	if (size != 4 || (addr & 3))
		reason = RAMRO_ILLEGAL_ACCESS;
	else if (!pusher_knows_method(f, m))
		reason = RAMRO_RESERVED_ACCESS;
	else if (!cache_available(f, chid) || !pfifo_switch_to(f, chid))
		reason = RAMRO_NO_CACHE_AVAILABLE;
	else if (!pfifo_cache_free(f))
		reason = RAMRO_CACHE_RAN_OUT;
	else {
		pfifo_cache_push(f, subch << 13 | m, val);
		f->stats.pio_writes++;
		pfifo_kick(f);
		return;
	}
	f->chip->ops->pio_refused(f, addr, val, size, reason);
}

static uint32_t user_chid(uint32_t addr, bool new_area, uint32_t *m)
{
	if (new_area) {
		*m = (addr - PFIFO_USER_NEW) & 0xfff;
		return (addr - PFIFO_USER_NEW) >> 12;
	}
	*m = (addr - PFIFO_USER) & 0x1fff;
	return (addr - PFIFO_USER) >> 16;
}

/* Reads of the channel control area (dma-pusher.rst table; FREE at 0x10,
 * seed 001). UNVERIFIED: other offsets read 0. */
uint32_t pusher_user_read(struct pfifo *f, uint32_t addr, bool new_area)
{
	uint32_t m, chid = user_chid(addr, new_area, &m);
	switch (m) {
	case 0x10:
		if (!new_area) /* free bytes of CACHE1 for this channel, data bytes only */
			return cache_available(f, chid) ? pfifo_cache_free(f) * 4 : 0;
		break;
	case 0x40: return pfifo_chan_reg(f, chid, R_DMA_PUT);
	case 0x44: return pfifo_chan_reg(f, chid, R_DMA_GET);
	case 0x48:
		if (f->chip->user_ref)
			return pfifo_chan_reg(f, chid, R_REF);
		break;
	case 0x54:
		/* DMA_CGET: nv40+, the new-style area only: subr_return while a
		 * subroutine is active, dma_get otherwise. */
		if (new_area && FIELD_GET(pfifo_chan_reg(f, chid, R_DMA_STATE), 17, 17))
			return pfifo_chan_reg(f, chid, R_SUBROUTINE) & ~3u;
		if (new_area)
			return pfifo_chan_reg(f, chid, R_DMA_GET);
		break;
	}
	emit(f->gpu, NVM_EV_UNMODELLED, "pfifo", "user_read", addr, 0,
	     "read of USER offset 0x%04x (channel %u) returns 0", m, chid);
	return 0;
}

uint32_t pusher_pio_read(struct pfifo *f, uint32_t addr)
{
	return pusher_user_read(f, addr, false);
}

void pusher_user_write(struct pfifo *f, uint32_t addr, uint32_t val, bool new_area)
{
	if (!new_area) {
		pusher_pio_store(f, addr, val, 4);
		return;
	}
	uint32_t m, chid = user_chid(addr, true, &m);
	/* The new-style area supports only DMA mode (dma-pusher.rst). */
	if (m == 0x40) {
		dma_put_write(f, chid, val);
		return;
	}
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "user_ignored", addr, val,
	     "store of 0x%08x to DMA USER offset 0x%03x of channel %u ignored (only DMA_PUT is writable)", val, m,
	     chid);
}

/* ---------------------------------------------------------------- DMA pusher */

static const char *const dma_err_names[] = { "NONE",        "CALL_SUBR_ACTIVE", "INVALID_MTHD", "RET_SUBR_INACTIVE",
	                                     "INVALID_CMD", "IB_EMPTY",         "MEM_FAULT",    "?" };

const char *nvm_pfifo_dma_error_name(unsigned code)
{
	return dma_err_names[code & 7];
}

const char *nvm_pfifo_ramro_reason_name(unsigned code)
{
	return code < sizeof(ramro_reason_names) / sizeof(ramro_reason_names[0]) ? ramro_reason_names[code] : "?";
}

/* UNVERIFIED: every fetch fault but a PTE not present (pb_pte_fault) is
 * DMA_PUSHER MEM_FAULT (the pseudocode). */
void pusher_dma_error(struct pfifo *f, unsigned code, uint64_t get, const char *why)
{
	*f->r_dma_state = FIELD_SET(*f->r_dma_state, 31, 29, code);
	*f->r_dma_push |= DMA_PUSH_SUSPENDED;
	f->stats.dma_pusher_errors++;
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "dma_pusher", get, code,
	     "channel %u: DMA_PUSHER %s at DMA_GET 0x%010llx: %s", pfifo_chid(f), dma_err_names[code & 7],
	     (unsigned long long)get, why);
	pfifo_raise(f, INTR_DMA_PUSHER);
}

/* UNVERIFIED (dma-pusher.rst leaves "check pusher reaction on ACQUIRE
 * submission: pause?" open): the pusher pauses after the data word that put
 * SEMAPHORE_ACQUIRE into CACHE1 (pre-G80; G80, which saves its cache on a
 * switch, after the command) until the puller has emptied it, and while
 * the acquire waits; so CACHE1 is empty and another channel can take it
 * and release the semaphore (docs/pfifo.md "Semaphores"). nouveau's NV17+
 * fence (nv17_fence_sync) sends DMA_SEMAPHORE, OFFSET, ACQUIRE and RELEASE
 * as one command. */
bool pusher_acquire_holds(struct pfifo *f)
{
	if (f->acq_fence && !pfifo_cache_count(f))
		f->acq_fence = false;
	return f->acq_fence || (*f->r_pull1 & PULL1_ACQUIRE_ACTIVE);
}

bool pusher_dma_ready(struct pfifo *f)
{
	if (pusher_acquire_holds(f))
		return false;
	return (*f->r_push1 & f->chip->push1_mode) && (*f->r_push0 & 1) && (*f->r_dma_push & DMA_PUSH_ACCESS) &&
	       !(*f->r_dma_push & DMA_PUSH_SUSPENDED) && !(*f->r_intr & INTR_DMA_PTE) &&
	       ((*f->r_dma_put ^ *f->r_dma_get) & ~3u) && !FIELD_GET(*f->r_dma_state, 31, 29) && pfifo_cache_free(f);
}

/* The pushbuffer DMA object at DMA_INSTANCE << 4 (nv4-dmaobj; the layout
 * nouveau's nv04_dmaobj_bind writes): word 0 class 11:0, PT_PRESENT 12,
 * PT_LINEAR 13, ACCESS 15:14, TARGET 17:16 (0 VRAM, 2 PCI, 3 AGP), ADJUST
 * 31:20; word 1 the limit; word 2.. the PTEs (frame 31:12). The decoded
 * object is cached in DMA_CTL / DMA_LIMIT (rnndb DMA_CTL). */
static bool pb_load(struct pfifo *f, struct pbobj *o, const char **why)
{
	o->inst = (*f->r_dma_inst & 0xfffffu) << 4;
	uint32_t w0, w1, w2;
	if (!pfifo_ramin_rd32(f, o->inst, &w0) || !pfifo_ramin_rd32(f, o->inst + 4, &w1) ||
	    !pfifo_ramin_rd32(f, o->inst + 8, &w2)) {
		*why = "the pushbuffer DMA object is outside instance memory";
		return false;
	}
	unsigned target = FIELD_GET(w0, 17, 16);
	if (!FIELD_GET(w0, 12, 12)) {
		*why = "the pushbuffer DMA object has no page table (PT_PRESENT 0)";
		return false;
	}
	if (target == 1 || (target == 0 && !f->chip->pb_vram)) {
		/* seed 001: NV03/NV04 fetch only from PCI/AGP memory, NV05+ also
		 * from VRAM. UNVERIFIED: another target is a MEM_FAULT. */
		*why = target == 1 ? "the pushbuffer DMA object has TARGET 1 (no memory)"
		                   : "NV04 fetches pushbuffers only from PCI/AGP memory (TARGET VRAM)";
		return false;
	}
	o->ap = target == 0 ? NVM_AP_VRAM : NVM_AP_SYSMEM;
	o->linear = FIELD_GET(w0, 13, 13);
	o->adjust = FIELD_GET(w0, 31, 20);
	o->limit = w1;
	o->pte0 = w2;
	bus_set(f->gpu, R_DMA_CTL, (o->adjust & 0xffcu) | (w0 & 0x3000u) | target << 16 | 1u << 31); /* VALID 31:31 */
	bus_set(f->gpu, R_DMA_LIMIT, o->limit);
	return true;
}

enum pb_xlat { PB_OK, PB_FAULT, PB_PTE };

/* Byte offset off of the pushbuffer to an address in o->ap. The page and
 * its PTE go to DMA_TLB_TAG / DMA_TLB_PTE (rnndb; the pusher's one-entry
 * TLB). UNVERIFIED (nv4-dmaobj.rst is "todo"): a PTE of an object without
 * PT_LINEAR has PRESENT in bit 0, as nouveau's NV04 PCI GART writes its
 * PTEs (frame | 3); a PTE without it is a DMA_PTE fault (pb_pte_fault). */
static enum pb_xlat pb_phys(struct pfifo *f, const struct pbobj *o, uint32_t off, uint64_t *pa)
{
	uint64_t x = (uint64_t)off + o->adjust;
	uint32_t pte = o->pte0;
	if (!o->linear && (x >> 12) && !pfifo_ramin_rd32(f, o->inst + 8 + (uint32_t)(x >> 12) * 4, &pte))
		return PB_FAULT;
	*f->r_dma_tlb_tag = (uint32_t)(x >> 12);
	*f->r_dma_tlb_pte = pte;
	if (!o->linear && !(pte & 1u))
		return PB_PTE;
	*pa = o->linear ? (uint64_t)(pte & 0xfffff000u) + x : (uint64_t)(pte & 0xfffff000u) + (x & 0xfff);
	return PB_OK;
}

/* INTR DMA_PTE 16 (rnndb). UNVERIFIED (no document or nouveau handler
 * says more): the pusher stops before the word of a page whose PTE is not
 * present, DMA_GET at that word and DMA_TLB_TAG / DMA_TLB_PTE naming the
 * page, and goes on (re-reading the PTE) once the driver has cleared the
 * interrupt. Not a DMA_PUSHER error: DMA_STATE is untouched. */
static void pb_pte_fault(struct pfifo *f, uint32_t get)
{
	f->stats.dma_pte_faults++;
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "dma_pte", get, bus_get(f->gpu, R_DMA_TLB_PTE),
	     "channel %u: DMA_PTE at DMA_GET 0x%08x: page 0x%x of the pushbuffer DMA object has PTE 0x%08x (not "
	     "present)",
	     pfifo_chid(f), get, bus_get(f->gpu, R_DMA_TLB_TAG), bus_get(f->gpu, R_DMA_TLB_PTE));
	pfifo_raise(f, INTR_DMA_PTE);
}

static bool subr_active(const struct pfifo *f)
{
	return f->chip->subr_in_state ? FIELD_GET(*f->r_dma_state, 17, 17) : (*f->r_subr & 1);
}

static void subr_set(struct pfifo *f, bool active, uint32_t ret)
{
	if (f->chip->subr_in_state) {
		*f->r_dma_state = FIELD_SET(*f->r_dma_state, 17, 17, active);
		*f->r_subr = ret & ~3u;
	} else {
		*f->r_subr = (ret & ~3u) | active;
	}
}

/* Decoder sink: a method header starts a command (rsvd_shadow, dcount). */
static void sink_header(void *ctx, const nvm_pb_header *h)
{
	struct pfifo *f = ctx;
	if (f->chain && h->offset != f->chain_pos &&
	    !f->chain_ready(f->chain_x, (uint32_t)(h->offset - f->chain_pos))) {
		nvm_pb_stop_at(&f->dec, h->offset); /* the loop would stop before this header */
		return;
	}
	*f->r_rsvd_shd = h->word;
	*f->r_dcount = 0;
	sched_charge(f->gpu, 1); /* every command word costs a unit (PFIFO_WORK_PER_UNIT) */
}

/* A short method header with data (INC, or NINC where the generation has
 * it): what a chained feed may go on to (pusher_portion). */
static bool short_header(const struct pfifo *f, uint32_t w)
{
	if ((w & 0xe0030003u) == 0x40000000u && !(f->pbgen->accepts & NVM_PB_ACC_OLD_NINC))
		return false;
	return (w & 0xa0030003u) == 0 && (w >> 18 & 0x7ffu);
}

/* A run of a chained feed: the checks the loop makes before a piece of
 * data, then the words pusher_portion would have fed (straight through an
 * empty CACHE1, or into CACHE1 up to its room and the pusher's chunk); the
 * feed stops where the loop would have stopped or cut the data, and
 * before anything but a short header after the sequence. */
static uint32_t chain_take(struct pfifo *f, const nvm_pb_run *r)
{
	uint32_t k = (uint32_t)(r->offset - f->chain_pos), take = 0;
	if (!k || f->chain_ready(f->chain_x, k)) {
		f->direct = puller_direct_ok(f, f->dec.subch) &&
		            (take = pusher_direct_words(f, (uint32_t)(f->dec.feed_end - r->offset))) != 0;
		if (!f->direct) {
			take = pfifo_cache_free(f);
			if (take > f->chain_chunk)
				take = f->chain_chunk;
		}
	}
	if (take < r->count)
		nvm_pb_stop_run(&f->dec, r, take);
	else if (r->count == f->dec.remaining && r->offset + r->count < f->dec.feed_end &&
	         !short_header(f, r->data[r->count]))
		nvm_pb_stop_run(&f->dec, r, r->count);
	return take < r->count ? take : r->count;
}

/* CACHE1 PUT after `pushed` entries were written up to slot put. */
static void cache_put(struct pfifo *f, uint32_t put, uint32_t pushed)
{
	if (pushed) {
		*f->r_put = put << 2;
		f->stats.cache_pushes += pushed;
	}
}

/* Decoder sink: method data words go to CACHE1 (pseudocode "data word of
 * methods command"): INVALID_MTHD for a 0x4..0xfc method the puller does
 * not know; discarded while the SLI conditional is inactive. UNVERIFIED:
 * an increasing run past 0x1ffc wraps to 0 (the 11-bit MTHD). */
static void sink_run(void *ctx, const nvm_pb_run *run)
{
	struct pfifo *f = ctx;
	const nvm_pb_run *r = run;
	nvm_pb_run part;
	if (f->quick_skip)
		return; /* words pusher_quick took (pusher_portion) */
	if (f->chain) {
		uint32_t take = chain_take(f, run);
		if (!take)
			return;
		if (take < run->count) {
			part = *run;
			part.count = take;
			r = &part;
		}
	}
	if (f->direct) {
		/* Plain PGRAPH methods with CACHE1 empty and the puller running:
		 * they pass through CACHE1 (PUT and GET move together) and are
		 * submitted at once. UNVERIFIED: the CACHE1 slots they passed
		 * through are not written (docs/pfifo.md "Timing"). */
		if (!r->masked) {
			puller_submit(f, r, f->burst_t);
			uint32_t p = ((*f->r_put >> 2) + r->count) & f->cache_mask;
			*f->r_put = *f->r_get = p << 2;
			f->stats.cache_pushes += r->count;
			f->stats.methods += r->count;
		}
		if (r->count)
			*f->r_data_shd = r->data[r->count - 1];
		*f->r_dcount += r->count;
		return;
	}
	uint32_t ni = (r->mode == NVM_PB_MODE_NINC && f->chip->ninc) ? 1u : 0u;
	uint32_t base = r->subch << 13 | ni;
	bool checked = r->method >= 0x100 &&
	               (r->mode == NVM_PB_MODE_NINC || r->method + 4u * (r->index + r->count - 1) <= 0x1ffcu);
	/* pfifo_cache_push, PUT written once */
	uint32_t put = (*f->r_put >> 2) & f->cache_mask, pushed = 0;
	if (checked && !r->masked) {
		/* methods 0x100+ inside 0x1ffc: nothing to refuse or to wait for */
		uint32_t m = r->mode == NVM_PB_MODE_NINC ? r->method : r->method + 4 * r->index;
		uint32_t step = r->mode == NVM_PB_MODE_NINC ? 0 : 4;
		uint16_t hint = r->count <= CACHE_HINT_N ? (uint16_t)(r->count | (step ? 0u : CACHE_HINT_NINC)) : 0;
		for (uint32_t i = 0; i < r->count; i++, m += step, hint = 0) {
			f->cache_hint[put] = hint; /* the puller's (consecutive methods) */
			f->cache_addr[put] = base | m;
			f->cache_data[put] = r->data[i];
			put = (put + 1) & f->cache_mask;
		}
		pushed = r->count;
	}
	for (uint32_t i = pushed ? r->count : 0; i < r->count; i++) {
		uint32_t m = nvm_pb_run_method(r, i) & 0x1ffcu;
		if (!checked && !pusher_knows_method(f, m)) {
			cache_put(f, put, pushed);
			*f->r_data_shd = r->data[i];
			*f->r_dcount += i;
			f->burst_err = DMA_ERR_INVALID_MTHD;
			nvm_pb_stop_run(&f->dec, run, i); /* the bad word stays pending */
			return;
		}
		if (!r->masked) {
			f->cache_hint[put] = 0;
			f->cache_addr[put] = base | m;
			f->cache_data[put] = r->data[i];
			put = (put + 1) & f->cache_mask;
			pushed++;
			if (m < 0x100 && f->chip->ops->acquires && f->chip->ops->acquires(m, r->data[i])) {
				f->acq_fence = true;
				/* CACHE1 must drain for a switch (no cache_save):
				 * the pusher stops right after the acquire, the
				 * rest of the sequence pending in DMA_STATE, so the
				 * channel that will release can take CACHE1. */
				if (!f->chip->ops->cache_save) {
					cache_put(f, put, pushed);
					*f->r_data_shd = r->data[i];
					*f->r_dcount += i + 1;
					nvm_pb_stop_run(&f->dec, run, i + 1);
					return;
				}
			}
		}
	}
	cache_put(f, put, pushed);
	if (r->count)
		*f->r_data_shd = r->data[r->count - 1];
	*f->r_dcount += r->count;
	if (f->chain && f->acq_fence)
		nvm_pb_stop_run(&f->dec, run, r->count); /* the loop stops after this piece */
}

/* Decoder sink: the control-flow commands (dma-pusher.rst "NV4 control
 * flow commands") and the SLI conditional. */
static void sink_control(void *ctx, const nvm_pb_control *c)
{
	struct pfifo *f = ctx;
	*f->r_rsvd_shd = c->word;
	sched_charge(f->gpu, 1); /* a command word: a pushbuffer that jumps to itself spends the run budget */
	switch (c->kind) {
	case NVM_PB_CTRL_OLD_JUMP:
	case NVM_PB_CTRL_JUMP:
		*f->r_jmp_shd = f->dma_get;
		f->dma_get = c->value;
		break;
	case NVM_PB_CTRL_CALL:
		if (subr_active(f)) {
			f->burst_err = DMA_ERR_CALL_SUBR_ACTIVE;
			return;
		}
		subr_set(f, true, f->dma_get);
		f->dma_get = c->value;
		break;
	case NVM_PB_CTRL_RETURN:
		if (!subr_active(f)) {
			f->burst_err = DMA_ERR_RET_SUBR_INACTIVE;
			return;
		}
		f->dma_get = *f->r_subr & ~3u;
		subr_set(f, false, *f->r_subr);
		break;
	case NVM_PB_CTRL_SLI_CONDITIONAL: *f->r_sli = FIELD_SET(*f->r_sli, 28, 28, c->active); break;
	default: break;
	}
}

static void sink_error(void *ctx, const nvm_pb_error *e)
{
	struct pfifo *f = ctx;
	*f->r_rsvd_shd = e->word;
	f->burst_err = DMA_ERR_INVALID_CMD;
}

/* Sets the decoder up from DMA_STATE (METHOD 12:2, SUBCHANNEL 15:13,
 * METHOD_COUNT 28:18, NONINC 0:0) and the SLI register: the registers are
 * the pusher's whole state, so RAMFC save and restore carry it. */
void pusher_dec_load(struct pfifo *f, bool ib)
{
	nvm_pb_config cfg;
	nvm_pb_config_init(&cfg, f->pbgen, NVM_PB_FORMAT_OLD);
	cfg.ib_mode = ib;
	bool sli = f->chip->sli && FIELD_GET(*f->r_sli, 29, 29);
	cfg.sli_enable = sli;
	cfg.subdevice_id = FIELD_GET(*f->r_sli, 11, 0);
	nvm_pb_sink sink = { .ctx = f,
		             .header = sink_header,
		             .run = sink_run,
		             .control = sink_control,
		             .error = sink_error };
	nvm_pb_decoder_init(&f->dec, &cfg, &sink);
	uint32_t st = *f->r_dma_state;
	nvm_pb_decoder_state d;
	nvm_pb_save(&f->dec, &d);
	f->chip->ops->count_load(f, &d, st);
	d.method = FIELD_GET(st, 12, 2) << 2;
	d.subch = FIELD_GET(st, 15, 13);
	d.mode = f->chip->ninc && FIELD_GET(st, 0, 0) ? NVM_PB_MODE_NINC : NVM_PB_MODE_INC;
	d.hdr_word = *f->r_rsvd_shd;
	d.active = !sli || FIELD_GET(*f->r_sli, 28, 28);
	nvm_pb_restore(&f->dec, &d);
}

/* METHOD_COUNT is DMA_STATE 28:18 (NV04..NV4x). */
void pusher_count_load(struct pfifo *f, nvm_pb_decoder_state *d, uint32_t dma_state)
{
	(void)f;
	d->remaining = FIELD_GET(dma_state, 28, 18);
	d->lenp = false;
}

uint32_t pusher_count_store(struct pfifo *f, const nvm_pb_decoder_state *d, uint32_t dma_state)
{
	(void)f;
	return FIELD_SET(dma_state, 28, 18, d->remaining);
}

void pusher_dec_store(struct pfifo *f)
{
	nvm_pb_decoder_state ds;
	nvm_pb_save(&f->dec, &ds);
	const nvm_pb_decoder_state *d = &ds;
	/* The long form's header sets the non-increasing state before its
	 * count word (pseudocode: dma_state.ni = 1 with lenp). */
	bool ni = d->mode == NVM_PB_MODE_NINC || d->lenp;
	uint32_t m = (ni ? d->method : d->method + 4u * d->index) & 0x1ffcu;
	uint32_t st = *f->r_dma_state;
	st = FIELD_SET(st, 0, 0, ni);
	st = FIELD_SET(st, 12, 2, m >> 2);
	st = FIELD_SET(st, 15, 13, d->subch);
	*f->r_dma_state = f->chip->ops->count_store(f, d, st);
}

#define BURST_CHUNK 1024u

/* Plain PGRAPH methods (0x100-0x17c, 0x200-0x1ffc) the pending method
 * sequence has next, at most n: how many may take the direct path. */
uint32_t pusher_direct_words(const struct pfifo *f, uint32_t n)
{
	const nvm_pb_decoder *d = &f->dec;
	if (n > d->remaining)
		n = d->remaining;
	uint32_t m = d->mode == NVM_PB_MODE_INC ? d->method + 4u * d->index : d->method;
	if (m > 0x1ffc || m < 0x100 || (m >= 0x180 && m < 0x200))
		return 0;
	if (d->mode == NVM_PB_MODE_INC) {
		uint32_t last = m < 0x180 ? 0x17cu : 0x1ffcu;
		if ((last - m) / 4 + 1 < n)
			n = (last - m) / 4 + 1;
	}
	return n;
}

/* The NV04 DMA pusher's side of the shared fetch loop (src/fifo/fetch.h). */
struct dma_fetch {
	struct pfifo *f;
	const struct pbobj *o;
	uint64_t *t;
	bool slice_live;
	bool data;     /* a method sequence is pending: the next words are its data */
	uint32_t free; /* CACHE1 room */
	bool pte_fault;
	const char *why;
	uint64_t pa; /* the last translation */
};

static const char *const mem_outside = "the pushbuffer address is outside its memory";

/* Room in CACHE1 for pending data, the run budget and the timeslice, for
 * a piece `words` words into the burst. */
static bool dma_room(struct dma_fetch *c, uint32_t words)
{
	struct pfifo *f = c->f;
	c->free = pfifo_cache_free(f);
	c->data = f->dec.remaining != 0;
	if ((c->data && !c->free) || !sched_budget_left(f->gpu))
		return false;
	/* A burst ends with the channel's timeslice, so the switcher gets a look. */
	return !(c->slice_live && *c->t + (uint64_t)words * PFIFO_NS_DMA_WORD >= f->slice_end);
}

static bool dma_ready(struct fifo_fetch *x)
{
	struct dma_fetch *c = x->ctx;
	/* pseudocode: dma_get >= dma_limit is a MEM_FAULT */
	if (x->get >= c->o->limit) {
		c->f->burst_err = DMA_ERR_MEM_FAULT;
		c->why = "DMA_GET reached the pushbuffer DMA object's limit";
		return false;
	}
	return dma_room(c, x->words);
}

static bool dma_translate(struct fifo_fetch *x, struct fifo_span *s)
{
	struct dma_fetch *c = x->ctx;
	uint32_t get = (uint32_t)x->get;
	enum pb_xlat r = pb_phys(c->f, c->o, get, &s->pa);
	if (r == PB_PTE) {
		c->pte_fault = true;
		return false;
	}
	if (r != PB_OK) {
		c->f->burst_err = DMA_ERR_MEM_FAULT;
		c->why = mem_outside;
		return false;
	}
	s->mem = &c->f->gpu->mem[c->o->ap];
	s->sparse = false;
	c->pa = s->pa;
	s->bytes = 4 * (((uint64_t)c->o->limit - get + 3) / 4); /* up to the limit */
	return true;
}

static void dma_mem_fault(struct fifo_fetch *x, const struct fifo_span *s)
{
	struct dma_fetch *c = x->ctx;
	(void)s;
	c->f->burst_err = DMA_ERR_MEM_FAULT;
	c->why = mem_outside;
}

/* Slots 0..7 of a (METHOD, DATA) array pair get METHOD base + 4 i (inc)
 * or base (not inc) and DATA d[i] for i < c, the others what they hold:
 * four vector words read and written by mask, no branch on c (drivers
 * vary it from command to command). d[0..7] must be readable. The
 * methods' steps are selected by mask, not multiplied (SSE2 has no 32-bit
 * vector multiply). */
typedef uint32_t slot_vec __attribute__((vector_size(16)));
typedef int32_t slot_ivec __attribute__((vector_size(16)));
static inline void slots8_put(uint32_t *ca, uint32_t *cd, uint32_t base, bool inc, uint32_t c, const uint32_t *d)
{
	const slot_ivec i0 = { 0, 1, 2, 3 }, i1 = { 4, 5, 6, 7 };
	const slot_vec s0 = { 0, 4, 8, 12 }, s1 = { 16, 20, 24, 28 };
	/* c <= 8: a signed compare (SSE2 has no unsigned one) */
	slot_ivec cv = (slot_ivec){ 0, 0, 0, 0 } + (int32_t)c;
	slot_vec in0 = (slot_vec)(i0 < cv), in1 = (slot_vec)(i1 < cv);
	uint32_t sm = 0u - (uint32_t)inc;
	slot_vec a0 = base + (s0 & sm), a1 = base + (s1 & sm), o0, o1, x0, x1;
	memcpy(&o0, ca, 16);
	memcpy(&o1, ca + 4, 16);
	memcpy(&x0, d, 16);
	memcpy(&x1, d + 4, 16);
	o0 = (a0 & in0) | (o0 & ~in0);
	o1 = (a1 & in1) | (o1 & ~in1);
	memcpy(ca, &o0, 16);
	memcpy(ca + 4, &o1, 16);
	memcpy(&a0, cd, 16);
	memcpy(&a1, cd + 4, 16);
	a0 = (x0 & in0) | (a0 & ~in0);
	a1 = (x1 & in1) | (a1 & ~in1);
	memcpy(cd, &a0, 16);
	memcpy(cd + 4, &a1, 16);
}

/* The quick feed's part of a header word h at k (short_header, its data
 * readable: c words within lim): its count, 0 if it is not one. */
static inline uint32_t quick_count(uint32_t h, uint32_t short_mask, uint32_t k, uint32_t lim)
{
	uint32_t c = h >> 18 & 0x7ffu;
	return (h & short_mask) || c >= lim - k ? 0u : c;
}

/* The quick feed's timeslice check for the header at k as a bound: it
 * passes (the time after words + k + 1 words is before slice_end) iff
 * k + 1 < the value returned. */
static inline uint32_t quick_slice_kend(uint64_t t, uint64_t slice_end, uint32_t words)
{
	if (t >= slice_end)
		return 0;
	uint64_t q = (slice_end - t + PFIFO_NS_DMA_WORD - 1) / PFIFO_NS_DMA_WORD; /* words + k + 1 < q */
	if (q <= words)
		return 0;
	return q - words > UINT32_MAX ? UINT32_MAX : (uint32_t)(q - words);
}

/* The quick feed's state (pusher_quick): what its loops read and move. */
struct quick {
	struct pfifo *f;
	const uint32_t *w;
	uint32_t lim, chunk, mask, put, room, ni_bit;
	uint32_t *restrict ca, *restrict cd;
};

/* The command of c words (header h) at k goes into CACHE1 if sink_run
 * would take it without stopping: all of it fits (CACHE1's room, the
 * chunk), its methods 0x100+ inside 0x1ffc, or a single method the puller
 * knows that does not make the pusher wait (a bind, REF_CNT ...). false:
 * nothing done. */
static inline bool quick_cache_cmd(struct quick *z, uint32_t h, uint32_t c, uint32_t k)
{
	struct pfifo *f = z->f;
	uint32_t subch = h >> 13 & 7, m = h & 0x1ffcu, put = z->put, mask = z->mask;
	bool ninc = h & 0x40000000u;
	if (c > z->room || c > z->chunk)
		return false;
	if ((m < 0x100 || (!ninc && m + 4u * (c - 1) > 0x1ffcu)) &&
	    (c != 1 || !pusher_knows_method(f, m) ||
	     (f->chip->ops->acquires && f->chip->ops->acquires(m, z->w[k + 1]))))
		return false;
	uint32_t base = subch << 13 | (ninc ? z->ni_bit : 0u) | m, step = ninc ? 0 : 4;
	const uint32_t *d = z->w + k + 1;
	/* the puller's hint (cache_hint): at the first slot, 0 in the others */
	uint16_t hint = (uint16_t)(c | (ninc ? CACHE_HINT_NINC : 0u));
	if (c <= 8 && put + 8 <= mask + 1 && k + 9 <= z->lim) {
		/* a short command: eight slots rewritten, those past the
		 * command with what they hold (no branch on the count, which
		 * drivers vary from command to command) */
		slots8_put(z->ca + put, z->cd + put, base, !ninc, c, d);
		/* free slots past the command lose theirs: no matter */
		uint64_t h0 = hint, h1 = 0; /* little-endian or not: slot put gets it */
		memcpy(&f->cache_hint[put], &h1, sizeof(h1));
		memcpy(&f->cache_hint[put + 4], &h1, sizeof(h1));
		f->cache_hint[put] = (uint16_t)h0;
		put = (put + c) & mask;
	} else {
		for (uint32_t i = 0; i < c; i++, base += step, hint = 0) {
			f->cache_hint[put] = hint;
			z->ca[put] = base;
			z->cd[put] = d[i];
			put = (put + 1) & mask;
		}
	}
	z->put = put;
	z->room -= c;
	return true;
}

/* The quick feed: the short INC / NINC commands at the start of a feed
 * that a chained feed would take whole without stopping (the checks
 * between pieces pass: the limit, the run budget after the header's unit,
 * the timeslice, CACHE1 room), each going either straight to its engine
 * (puller_direct_ok, pusher_direct_words: all its methods) or into CACHE1
 * (quick_cache_cmd), decoded here rather than by the decoder. They leave
 * what sink_header and sink_run would have (the registers, CACHE1, the
 * engines' calls, the budget's units, the decoder's state after them); the
 * pusher then hands the decoder their words as one run the sinks ignore,
 * so that it stands past them. Nothing can look in between: no hooks are
 * installed, so nothing runs but the engines. Two loops: the commands
 * that go straight to their engine while CACHE1 is empty, then those that
 * go into CACHE1 (after one entry is pushed, nothing goes the direct way).
 * Returns the words taken (whole commands), 0 when the first command is
 * not one of these. */
static uint32_t pusher_quick(struct pfifo *f, const uint32_t *w, uint32_t lim, uint32_t chunk, uint32_t words,
                             const struct pusher_quick_env *q)
{
	nvm_gpu *gpu = f->gpu;
	uint64_t budget = sched_budget_left(gpu), *t = f->burst_t, pos = f->dec.pos;
	uint32_t k = 0, kl = 0, cmds = 0, mask = f->cache_mask;
	/* short_header: INC, and NINC where the generation has it; !c too */
	uint32_t short_mask = f->pbgen->accepts & NVM_PB_ACC_OLD_NINC ? 0xa0030003u : 0xe0030003u;
	/* CACHE1 (PUT written once at the end: nothing reads it in between) */
	uint32_t used = pfifo_cache_count(f);
	struct quick z = { .f = f,
		           .w = w,
		           .lim = lim,
		           .chunk = chunk,
		           .mask = mask,
		           .put = (*f->r_put >> 2) & mask,
		           .room = mask - used,
		           .ni_bit = f->chip->ninc ? 1u : 0u,
		           .ca = f->cache_addr,
		           .cd = f->cache_data };
	/* The checks before the header (k) and its data (k + 1): those at
	 * k + 1 imply those at k (the header's unit is charged in between):
	 * k + 1 < kmax, the budget left after cmds + 1 units, the timeslice. */
	uint32_t kend = lim < q->kmax ? lim : (uint32_t)q->kmax;
	uint64_t max_cmds = budget ? budget - 1 : 0;
	uint64_t tt = *t;
	bool cached = false; /* the command at k went into CACHE1 */
	if (!used) {
		/* puller_direct_ok but for CACHE1 being empty: only the engines
		 * run meanwhile, and they leave PFIFO alone. Commands that
		 * puller_submit would only count are summed: their methods
		 * (cmethods) and the time (tt, *t's value meanwhile). */
		uint32_t direct_subch = puller_direct_mask(f);
		uint32_t counted = puller_counted_mask(f, direct_subch), cmethods = 0;
		while (k + 1 < kend && cmds < max_cmds) {
			uint32_t h = w[k], c = quick_count(h, short_mask, k, lim);
			if (!c || (q->slice_live && tt + (uint64_t)(words + k + 1) * PFIFO_NS_DMA_WORD >= f->slice_end))
				break;
			uint32_t subch = h >> 13 & 7, m = h & 0x1ffcu;
			bool ninc = h & 0x40000000u;
			if (!(direct_subch >> subch & 1) || m < 0x100 || (m >= 0x180 && m < 0x200)) {
				/* into CACHE1: the loop below goes on from here */
				if ((cached = quick_cache_cmd(&z, h, c, k))) {
					kl = k;
					k += 1 + c;
					cmds++;
				}
				break;
			}
			/* pusher_direct_words of the whole command */
			uint32_t last = m < 0x180 ? 0x17cu : 0x1ffcu;
			if (!ninc && (last - m) / 4 + 1 < c)
				break;
			if (counted >> subch & 1) {
				tt += puller_counted_ns(f, c);
				cmethods += c;
			} else {
				nvm_pb_run r = { .hdr_offset = pos + k,
					         .offset = pos + k + 1,
					         .ndwords = c,
					         .subch = subch,
					         .method = m,
					         .count = c,
					         .mode = ninc ? NVM_PB_MODE_NINC : NVM_PB_MODE_INC,
					         .data = w + k + 1 };
				puller_count_runs(f, cmethods, tt);
				cmethods = 0;
				*t = tt;
				puller_submit(f, &r, t);
				tt = *t;
				counted = puller_counted_mask(f, direct_subch);
			}
			z.put = (z.put + c) & mask;
			*f->r_put = *f->r_get = z.put << 2;
			f->stats.cache_pushes += c;
			f->stats.methods += c;
			kl = k;
			k += 1 + c;
			cmds++;
		}
		puller_count_runs(f, cmethods, tt);
		*t = tt;
	} else {
		cached = true;
	}
	if (cached) {
		/* The time does not move from here on: the timeslice's bound */
		if (q->slice_live) {
			uint32_t ks = quick_slice_kend(tt, f->slice_end, words);
			if (ks < kend)
				kend = ks;
		}
		while (k + 1 < kend && cmds < max_cmds) {
			uint32_t h = w[k], c = quick_count(h, short_mask, k, lim);
			if (!c || !quick_cache_cmd(&z, h, c, k))
				break;
			kl = k;
			k += 1 + c;
			cmds++;
		}
	}
	if (!cmds)
		return 0;
	uint32_t pushed = mask - used - z.room;
	if (pushed) {
		*f->r_put = z.put << 2;
		f->stats.cache_pushes += pushed;
	}
	uint32_t lh = w[kl], lc = lh >> 18 & 0x7ffu;
	/* the last command's registers (sink_header, sink_run) */
	*f->r_rsvd_shd = lh;
	*f->r_dcount = lc;
	*f->r_data_shd = w[k - 1];
	sched_charge(gpu, cmds); /* a unit per command word (sink_header) */
	nvm_pb_decoder_state *d = &f->quick_state;
	nvm_pb_save(&f->dec, d);
	d->remaining = 0;
	d->index = lc;
	d->subch = lh >> 13 & 7;
	d->method = lh & 0x1ffcu;
	d->mode = lh & 0x40000000u ? NVM_PB_MODE_NINC : NVM_PB_MODE_INC;
	d->hdr_word = lh;
	/* the decoder passes the words taken as one run (quick_skip) */
	nvm_pb_decoder_state skip = *d;
	skip.remaining = k;
	skip.index = 0;
	nvm_pb_restore(&f->dec, &skip);
	f->quick_skip = true;
	return k;
}

/* The words to feed at once, of `lim` readable ones (both pushers): a
 * command word alone (the decoder reports it before anything else is read),
 * plain PGRAPH methods straight through an empty CACHE1, or method data up
 * to `chunk` and the room in CACHE1. DMA_GET is set past them: a
 * call's return address, which a jump overwrites. */
uint32_t pusher_portion(struct pfifo *f, struct fifo_fetch *x, bool data, uint32_t room, uint32_t lim, uint32_t chunk,
                        bool (*chain_ready)(struct fifo_fetch *x, uint32_t k), const struct pusher_quick_env *q)
{
	uint32_t n;
	/* With the quick feed, a chained feed ends with its first command
	 * (after it the quick feed may take the next ones). */
	bool quick = q && !f->quick_off && !f->gpu->hook_mask;
	f->direct = false;
	f->chain = false;
	if (!data) {
		n = 1;
		/* A short header: the feed may run on through its data and the
		 * commands after it (the sinks check each step, chain_take). */
		if (lim > 1 && !x->swap && short_header(f, x->at[0])) {
			if (quick && f->dec.active && !f->dec.lenp && !f->acq_fence &&
			    (n = pusher_quick(f, x->at, lim, chunk, x->words, q)) != 0) {
				f->dma_get = (uint32_t)x->get + 4 * n;
				return n;
			}
			f->chain = f->direct = true;
			uint32_t c = x->at[0] >> 18 & 0x7ffu;
			if (quick && c < lim - 1)
				lim = 1 + c;
		}
	} else if (puller_direct_ok(f, f->dec.subch) && (n = pusher_direct_words(f, lim)) != 0) {
		f->direct = true;
		f->chain = !x->swap && n < lim && !quick;
	} else {
		n = lim < chunk ? lim : chunk;
		if (n > f->dec.remaining)
			n = f->dec.remaining;
		if (n > room)
			n = room;
	}
	if (f->chain) {
		/* Fed as pieces would be; pusher_fed sets DMA_GET past what the
		 * decoder consumed. */
		n = lim;
		f->chain_chunk = chunk;
		f->chain_pos = f->dec.pos;
		f->chain_x = x;
		f->chain_ready = chain_ready;
	}
	f->dma_get = (uint32_t)x->get + 4 * n;
	return n;
}

uint32_t pusher_fed(struct pfifo *f, uint64_t get, uint32_t n, uint32_t used)
{
	if (f->quick_skip) {
		/* the decoder passed the quick feed's words: its state after them */
		f->quick_skip = false;
		nvm_pb_restore(&f->dec, &f->quick_state);
		return n;
	}
	if (!f->chain)
		return n;
	f->chain = false;
	f->dma_get = (uint32_t)get + 4 * used;
	return used;
}

/* The checks before the piece k words into a chained feed: dma_ready's, and
 * the translation the loop makes for every piece (DMA_TLB_TAG / PTE), which
 * must give the address the feed reads (a hook may rewrite the page table).
 * A failed check is left for the loop to find again (no error raised here). */
static bool dma_chain_ready(struct fifo_fetch *x, uint32_t k)
{
	struct dma_fetch *c = x->ctx;
	uint64_t get = x->get + 4ull * k, pa;
	if (get >= c->o->limit || !dma_room(c, x->words + k))
		return false;
	/* A feed stays within one page: without hooks nothing can have changed
	 * the page table or the TLB registers since the piece's translation. */
	if (!c->f->gpu->hook_mask)
		return true;
	return pb_phys(c->f, c->o, (uint32_t)get, &pa) == PB_OK && pa == c->pa + 4ull * k;
}

static uint32_t dma_portion(struct fifo_fetch *x, uint32_t lim)
{
	struct dma_fetch *c = x->ctx;
	/* dma_chain_ready's limit check: GET + 4 k below the object's limit */
	struct pusher_quick_env q = { .kmax = x->get < c->o->limit ? (c->o->limit - x->get + 3) / 4 : 0,
		                      .slice_live = c->slice_live };
	return pusher_portion(c->f, x, c->data, c->free, lim, BURST_CHUNK, dma_chain_ready, &q);
}

static bool dma_fed(struct fifo_fetch *x, uint32_t n, uint32_t used)
{
	struct dma_fetch *c = x->ctx;
	struct pfifo *f = c->f;
	n = pusher_fed(f, x->get, n, used);
	if (f->burst_err == DMA_ERR_INVALID_MTHD) {
		/* The bad word was read (DMA_GET past it) but not counted. */
		f->dma_get = (uint32_t)x->get + 4 * (used + 1);
		x->words += used + 1;
		c->why = "a method 0x04..0xfc the puller does not know";
	} else if (nvm_pb_stopped(&f->dec)) {
		/* stopped after an acquire (sink_run): the words after it wait */
		f->dma_get = (uint32_t)x->get + 4 * used;
		x->words += used;
	} else {
		x->words += n;
	}
	x->get = f->dma_get;
	if (f->acq_fence && !f->burst_err)
		return false;
	if (f->burst_err) {
		if (f->burst_err == DMA_ERR_INVALID_CMD)
			c->why = "no command form matches the word for this chip";
		else if (f->burst_err == DMA_ERR_CALL_SUBR_ACTIVE)
			c->why = "call while a subroutine is active";
		else if (f->burst_err == DMA_ERR_RET_SUBR_INACTIVE)
			c->why = "return while no subroutine is active";
		return false;
	}
	return true;
}

static const struct fifo_fetch_ops dma_fetch_ops = {
	.ready = dma_ready,
	.translate = dma_translate,
	.mem_fault = dma_mem_fault,
	.portion = dma_portion,
	.fed = dma_fed,
};

uint32_t pusher_dma_run(struct pfifo *f, uint32_t max, uint64_t *t)
{
	nvm_gpu *gpu = f->gpu;
	uint32_t get = *f->r_dma_get & ~3u, put = *f->r_dma_put & ~3u, start = get;
	const char *why = NULL;
	if (!pb_load(f, &f->pb, &why)) {
		pusher_dma_error(f, DMA_ERR_MEM_FAULT, get, why);
		return 1;
	}
	pusher_dec_load(f, false);
	f->burst_t = t;
	f->burst_err = DMA_ERR_NONE;
	uint32_t buf[FIFO_FETCH_CHUNK];
	struct dma_fetch c = { .f = f, .o = &f->pb, .t = t, .slice_live = *t < f->slice_end };
	struct fifo_fetch x = { .ops = &dma_fetch_ops,
		                .ctx = &c,
		                .dec = &f->dec,
		                .get = get,
		                .put = put,
		                .max = max,
		                .swap = f->chip->be_fetch && FIELD_GET(*f->r_dma_fetch, 31, 31),
		                .buf = buf };
	uint32_t words = fifo_fetch_run(&x);
	get = (uint32_t)x.get;
	why = c.why;
	*f->r_dma_get = get;
	pusher_dec_store(f);
	f->stats.dma_words += words;
	*t += (uint64_t)words * PFIFO_NS_DMA_WORD;
	if (words && emit_wanted(gpu, NVM_EV_TRACE))
		emit(gpu, NVM_EV_TRACE, "pfifo", "dma_fetch", start, words,
		     "channel %u: DMA pusher read %u words from 0x%08x, DMA_GET now 0x%08x", pfifo_chid(f), words,
		     start, get);
	if (f->burst_err) {
		pusher_dma_error(f, f->burst_err, get, why);
		return words ? words : 1;
	}
	if (c.pte_fault) {
		pb_pte_fault(f, get);
		return words ? words : 1;
	}
	return words;
}
