/*
 * PFIFO of G80 (seed 001 NV50 parts, seed 002 "Channels", rnndb
 * fifo/g80_pfifo.xml, envytools dma-pusher.rst and puller.rst; nouveau's
 * nv50 fifo code where those are silent): the generation's description and
 * what it changes from NV40 (nv40.c). 128 channels; a channel table
 * pointing at each channel's RAMFC (in the channel structure); the cache
 * saved to memory on a channel switch; the playlist; FREEZE; the 0xc00000
 * USER areas; a RAMHT per channel inside its channel structure; every
 * pushbuffer, IB and semaphore access through the G80 VM; the G80
 * semaphore methods. The G80 DMA pusher (DMA and IB modes) is in ib.c; the
 * family's state and the points where its later members differ are in
 * g80.h (struct g80_impl). docs/g80.md describes it.
 */
#include <string.h>

#include "nvmodel/g80vm.h"
#include "g80.h"
#include "fifo/sem.h"

/* ---------------------------------------------------------------- RAMFC */

static const nvm_ramfc_field ramfc_g80_f[] = { G80_RAMFC_FIELDS };
static const struct ramfc_layout ramfc_g80 = { "g80", 0x200, ramfc_g80_f,
	                                       sizeof(ramfc_g80_f) / sizeof(ramfc_g80_f[0]) };

/* ---------------------------------------------------------------- memory */

/* g80_mem_target: 0 VRAM, 1 invalid, 2 SYSRAM_SNOOP, 3 SYSRAM_NOSNOOP. */
static bool lin_space(unsigned target, nvm_aperture *ap)
{
	if (target == 1)
		return false;
	*ap = target ? NVM_AP_SYSMEM : NVM_AP_VRAM;
	return true;
}

bool g80_lin_rd32(struct pfifo *f, unsigned target, uint64_t addr, uint32_t *w)
{
	nvm_aperture ap;
	uint8_t b[4];
	*w = 0;
	if (!lin_space(target, &ap) || mem_read(&f->gpu->mem[ap], addr, b, 4))
		return false;
	*w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return true;
}

bool g80_lin_wr32(struct pfifo *f, unsigned target, uint64_t addr, uint32_t w)
{
	nvm_aperture ap;
	uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
	return lin_space(target, &ap) && !mem_write(&f->gpu->mem[ap], addr, b, 4);
}

/* ---------------------------------------------------------------- channels */

/* The channel descriptor (seed 002: address 12-39 in bits 27:0, target
 * 29:28): in CHAN_TABLE (CHAN 29:0); g80_impl.chan_desc for later members
 * (nouveau writes inst >> 12 there). */
static uint32_t g80_chan_desc(struct pfifo *f, uint32_t chid)
{
	if (chid >= f->chip->nchan)
		return 0;
	return g80_of(f)->chan_table[chid] & 0x3fffffffu;
}

static uint32_t chan_desc(struct pfifo *f, uint32_t chid)
{
	return g80_impl(f)->chan_desc(f, chid);
}

uint64_t g80_desc_addr(uint32_t desc)
{
	return (uint64_t)(desc & 0x0fffffffu) << 12;
}

unsigned g80_desc_target(uint32_t desc)
{
	return FIELD_GET(desc, 29, 28);
}

/* Where channel chid's RAMFC is: G80 at the start of its channel structure
 * (seed 002). */
static void g80_ramfc_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	uint32_t e = g80_of(f)->chan_table[chid];
	*addr = g80_desc_addr(e);
	*target = g80_desc_target(e);
}

static void ramfc_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	g80_impl(f)->ramfc_where(f, chid, target, addr);
}

bool g80_ramfc_rd(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t *w)
{
	unsigned target;
	uint64_t addr;
	*w = 0;
	if (chid >= f->chip->nchan)
		return false;
	ramfc_where(f, chid, &target, &addr);
	return g80_lin_rd32(f, target, addr + off, w);
}

bool g80_ramfc_wr(struct pfifo *f, uint32_t chid, uint32_t off, uint32_t w)
{
	unsigned target;
	uint64_t addr;
	if (chid >= f->chip->nchan)
		return false;
	ramfc_where(f, chid, &target, &addr);
	return g80_lin_wr32(f, target, addr + off, w);
}

/* A word at byte inst of CACHE1's channel structure (FIFO objects, RAMHT). */
bool g80_obj_rd32(struct pfifo *f, uint32_t inst, uint32_t *w)
{
	uint32_t d = chan_desc(f, pfifo_chid(f));
	return g80_lin_rd32(f, g80_desc_target(d), g80_desc_addr(d) + inst, w);
}

/* ---------------------------------------------------------------- cache */

/* Where a channel's saved cache is: G80 at 0x400 of the channel structure
 * (seed 002). */
static void g80_cache_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	uint32_t d = chan_desc(f, chid);
	*addr = g80_desc_addr(d) + 0x400;
	*target = g80_desc_target(d);
}

static void cache_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	g80_impl(f)->cache_where(f, chid, target, addr);
}

/* seed 001: from NV50 a channel switch saves the cache to memory.
 * UNVERIFIED layout: the entries from GET to PUT as (METHOD, DATA) pairs
 * from the start of the cache area, their number in RAMFC CACHE_CNT. */
void g80_cache_save(struct pfifo *f, uint32_t chid)
{
	if (chid >= f->chip->nchan)
		return;
	unsigned target;
	uint64_t addr;
	cache_where(f, chid, &target, &addr);
	uint32_t n = pfifo_cache_count(f), slot = (*f->r_get >> 2) & f->cache_mask;
	for (uint32_t i = 0; i < n; i++, slot = (slot + 1) & f->cache_mask) {
		g80_lin_wr32(f, target, addr + 8 * i, f->cache_addr[slot]);
		g80_lin_wr32(f, target, addr + 8 * i + 4, f->cache_data[slot]);
	}
	g80_ramfc_wr(f, chid, RAMFC_CACHE_CNT, n);
	*f->r_put = *f->r_get = 0;
}

void g80_cache_load(struct pfifo *f, uint32_t chid)
{
	unsigned target;
	uint64_t addr;
	uint32_t n = 0;
	*f->r_put = *f->r_get = 0;
	if (chid >= f->chip->nchan)
		return;
	cache_where(f, chid, &target, &addr);
	g80_ramfc_rd(f, chid, RAMFC_CACHE_CNT, &n);
	if (n > f->cache_mask) {
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "cache_cnt", chid, n,
		     "channel %u: RAMFC CACHE_CNT %u is more than the cache holds: %u entries loaded", chid, n,
		     f->cache_mask);
		n = f->cache_mask;
	}
	for (uint32_t i = 0; i < n; i++) {
		g80_lin_rd32(f, target, addr + 8 * i, &f->cache_addr[i]);
		g80_lin_rd32(f, target, addr + 8 * i + 4, &f->cache_data[i]);
		f->cache_addr[i] &= 0xfffdu;
	}
	*f->r_put = n << 2;
}

/* ---------------------------------------------------------------- playlist */

/* PLAYLIST_LEN (LEN 7:0 on G80, g80_impl playlist_len_hi): the channel ids at PLAYLIST
 * (ADDRESS 27:0 << 12, TARGET 29:28), one 32-bit word each (nouveau's
 * nv50_runl_insert_chan). UNVERIFIED: the list is read at the write (no
 * pending state: the UNK8 bit nouveau polls reads 0); entries past 128
 * are ignored. */
static void wr_playlist_len(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct pfifo *f = ctx;
	struct g80_pfifo *g = g80_of(f);
	uint32_t len = FIELD_GET(written, g80_impl(f)->playlist_len_hi, 0);
	uint32_t pl = bus_get(f->gpu, R_G80_PLAYLIST);
	uint64_t base = (uint64_t)FIELD_GET(pl, 27, 0) << 12;
	*stored = len;
	if (len > 128) {
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "playlist_len", len, 128,
		     "PLAYLIST_LEN %u: only the first 128 entries are used", len);
		len = 128;
	}
	g->nplaylist = 0;
	for (uint32_t i = 0; i < len; i++) {
		uint32_t c;
		if (!g80_lin_rd32(f, FIELD_GET(pl, 29, 28), base + 4 * i, &c)) {
			emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "playlist_range", base + 4 * i, i,
			     "playlist entry %u at 0x%010llx is outside memory: the list ends there", i,
			     (unsigned long long)(base + 4 * i));
			break;
		}
		g->playlist[g->nplaylist++] = c & 0x7f;
	}
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "playlist", g->nplaylist, base, "playlist: %u channels", g->nplaylist);
	pfifo_kick(f);
}

/* Has channel c, not in CACHE1, work: pushbuffer words (DMA_PUT != DMA_GET),
 * IB entries (IB mode, IB_PUT != IB_GET) or saved cache entries the
 * puller can take, and no pusher error? UNVERIFIED. */
static bool chan_has_work(struct pfifo *f, uint32_t c)
{
	uint32_t w[0x20];
	for (uint32_t i = 0; i < 0x20; i++)
		g80_ramfc_rd(f, c, i * 4, &w[i]);
	uint32_t ib_put = w[0], ib_get = w[1], put = w[2], put_hi = w[3], get = w[4], get_hi = w[5];
	uint32_t state = w[0x30 / 4], fetch = w[0x3c / 4], cnt;
	g80_ramfc_rd(f, c, RAMFC_CACHE_CNT, &cnt);
	if (FIELD_GET(state, 31, 29))
		return false;
	/* saved cache entries are work only when the puller can take them */
	return (cnt && (*f->r_pull0 & PULL0_ACCESS)) || ((put ^ get) & ~3u) || ((put_hi ^ get_hi) & 0xff) ||
	       (FIELD_GET(fetch, 30, 30) && ib_put != ib_get);
}

/* The switcher's choice (UNVERIFIED: round-robin over the playlist after
 * the current channel; a channel takes part when its CHAN_TABLE ENABLE (31)
 * is set, it is a DMA channel and it has work). */
int g80_next_channel(struct pfifo *f)
{
	struct g80_pfifo *g = g80_of(f);
	uint32_t cur = pfifo_chid(f), n = g->nplaylist, at = 0;
	for (uint32_t i = 0; i < n; i++)
		if (g->playlist[i] == cur)
			at = i + 1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = g->playlist[(at + i) % n];
		if (c == cur || !pfifo_chan_dma(f, c) || !(g->chan_table[c] >> 31) || bit_get(f->acq_blocked, c))
			continue;
		if (chan_has_work(f, c))
			return (int)c;
	}
	return -1;
}

/* ---------------------------------------------------------------- freeze */

/* seed 001 "NV50 & NVC0": FREEZE ENABLE (0) pauses PFIFO; the driver waits
 * for FROZEN (4) to come to 1, and after clearing ENABLE for it to come to
 * 0. UNVERIFIED: FROZEN follows ENABLE at the next scheduling step (virtual time),
 * between pushbuffer bursts and puller runs. */
static void wr_freeze(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	struct pfifo *f = ctx;
	*stored = (written & 1u) | (old & 0x10u);
	pfifo_kick(f);
}

bool g80_frozen(struct pfifo *f)
{
	uint32_t *fr = g80_of(f)->r_freeze;
	bool en = *fr & 1;
	if (en != FIELD_GET(*fr, 4, 4))
		emit(f->gpu, NVM_EV_TRACE, "pfifo", en ? "frozen" : "unfrozen", en, 0, "PFIFO %s",
		     en ? "frozen" : "running again");
	*fr = FIELD_SET(*fr, 4, 4, en);
	return en;
}

/* ---------------------------------------------------------------- USER */

/* The DMA channel control area (dma-pusher.rst "Channel control area", rnndb
 * USER_DMA): 0x2000 per channel at 0xc00000. Reading a low part latches the
 * high part into its read shadow; DMA_PUT_HIGH writes go to the write shadow
 * and the DMA_PUT write takes them. DMA_PUT and DMA_PUT_HIGH are only
 * writable when not in IB mode. UNVERIFIED: channel 0 (PIO) has no DMA
 * area (its accesses read 0 and are ignored); other offsets read 0. */
static uint32_t g80_user_read(struct pfifo *f, uint32_t addr)
{
	uint32_t off = addr - PFIFO_USER_G80, chid = off >> 13, m = off & 0x1fff;
	if (chid == 0 || chid >= f->chip->nchan)
		goto none;
	switch (m) {
	case 0x40:
		pfifo_chan_reg_set(f, chid, R_G80_PUT_HIGH_RS, pfifo_chan_reg(f, chid, R_G80_PUT_HIGH));
		return pfifo_chan_reg(f, chid, R_DMA_PUT);
	case 0x44:
		pfifo_chan_reg_set(f, chid, R_G80_GET_HIGH_RS, pfifo_chan_reg(f, chid, R_G80_GET_HIGH));
		return pfifo_chan_reg(f, chid, R_DMA_GET);
	case 0x48: return pfifo_chan_reg(f, chid, R_REF);
	case 0x4c: return pfifo_chan_reg(f, chid, R_G80_PUT_HIGH_RS);
	case 0x54:
		if (FIELD_GET(pfifo_chan_reg(f, chid, R_DMA_STATE), 17, 17))
			return pfifo_chan_reg(f, chid, R_SUBROUTINE) & ~3u;
		return pfifo_chan_reg(f, chid, R_DMA_GET);
	case 0x58:
		pfifo_chan_reg_set(f, chid, R_G80_MGET_HIGH_RS, pfifo_chan_reg(f, chid, R_G80_MGET_HIGH));
		return pfifo_chan_reg(f, chid, R_G80_MGET);
	case 0x5c: return pfifo_chan_reg(f, chid, R_G80_MGET_HIGH_RS);
	case 0x60: return pfifo_chan_reg(f, chid, R_G80_GET_HIGH_RS);
	case 0x88: return pfifo_chan_reg(f, chid, R_G80_IB_GET);
	case 0x8c: return pfifo_chan_reg(f, chid, R_G80_IB_PUT);
	}
none:
	emit(f->gpu, NVM_EV_UNMODELLED, "pfifo", "user_read", addr, 0,
	     "read of DMA USER offset 0x%04x (channel %u) returns 0", m, chid);
	return 0;
}

static bool ib_mode(struct pfifo *f, uint32_t chid)
{
	return FIELD_GET(pfifo_chan_reg(f, chid, R_DMA_FETCH), 30, 30);
}

static void g80_user_write(struct pfifo *f, uint32_t addr, uint32_t val)
{
	uint32_t off = addr - PFIFO_USER_G80, chid = off >> 13, m = off & 0x1fff;
	const char *why = "only DMA_PUT, DMA_PUT_HIGH and IB_PUT are writable";
	if (chid == 0 || chid >= f->chip->nchan) {
		why = "channel 0 has no DMA area";
	} else if ((m == 0x40 || m == 0x4c) && ib_mode(f, chid)) {
		why = "DMA_PUT is not writable in IB mode";
	} else if (m == 0x40) {
		pfifo_chan_reg_set(f, chid, R_G80_PUT_HIGH, pfifo_chan_reg(f, chid, R_G80_PUT_HIGH_WS) & 0xff);
		pfifo_chan_reg_set(f, chid, R_DMA_PUT, val & ~3u);
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "dma_put", chid, val, "channel %u: DMA_PUT 0x%08x", chid, val);
		pfifo_kick(f);
		return;
	} else if (m == 0x4c) {
		pfifo_chan_reg_set(f, chid, R_G80_PUT_HIGH_WS, val & 0xff);
		return;
	} else if (m == 0x8c) {
		pfifo_chan_reg_set(f, chid, R_G80_IB_PUT, val);
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "ib_put", chid, val, "channel %u: IB_PUT %u", chid, val);
		pfifo_kick(f);
		return;
	}
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "user_ignored", addr, val,
	     "store of 0x%08x to DMA USER offset 0x%04x of channel %u ignored: %s", val, m, chid, why);
}

/* ---------------------------------------------------------------- RAMHT */

/* The channel's RAMHT (seed 001: on NV50+ channels have separate RAMHTs):
 * RAMHT INSTANCE 15:0 << 4 in the channel structure, SIZE 28:27 (4K << n),
 * SEARCH 25:24 (16 << n entries), SEARCH_FULL 26 (rnndb; nouveau sets it).
 * UNVERIFIED: SEARCH_FULL probes the whole table; the hash is nouveau's with
 * channel 0 (nvkm_ramht_insert gets chid 0 on nv50). */
bool g80_ramht_lookup(struct pfifo *f, uint32_t chid, uint32_t handle, uint32_t *inst, unsigned *engine)
{
	(void)chid; /* one RAMHT per channel */
	uint32_t reg = bus_get(f->gpu, R_RAMHT);
	uint32_t base = FIELD_GET(reg, 15, 0) << 4;
	unsigned bits = 9 + FIELD_GET(reg, 28, 27);
	uint32_t n = 1u << bits, search = FIELD_GET(reg, 26, 26) ? n : 16u << FIELD_GET(reg, 25, 24);
	uint32_t h = nvm_pfifo_ramht_hash(handle, 0, bits);
	f->stats.ramht_lookups++;
	/* the entries of CACHE1's channel structure (g80_obj_rd32), a
	 * (handle, context) pair at once */
	uint32_t d = chan_desc(f, pfifo_chid(f));
	nvm_aperture ap;
	bool mem = lin_space(g80_desc_target(d), &ap);
	for (uint32_t i = 0; mem && i < search && i < n; i++) {
		uint32_t a = base + ((h + i) & (n - 1)) * 8;
		uint8_t b[8];
		if (mem_read(&f->gpu->mem[ap], g80_desc_addr(d) + a, b, 8))
			break;
		uint32_t hd = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
		uint32_t ctx = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
		nvm_ramht_entry e;
		ramht_decode(f->chip, hd, ctx, &e);
		if (e.valid && hd == handle) {
			*inst = e.instance;
			*engine = e.engine;
			return true;
		}
	}
	f->stats.ramht_misses++;
	return false;
}

/* ---------------------------------------------------------------- the VM */

/* FIFO_ENDIAN (rnndb): PMC_OVERRIDE_ENABLE 0, PMC_OVERRIDE_MODE 1 (BIG).
 * UNVERIFIED: without the override PFIFO is little-endian (PMC ENDIAN is
 * not consulted). */
bool g80_big_endian(struct pfifo *f)
{
	uint32_t e = bus_get(f->gpu, R_G80_FIFO_ENDIAN);
	return (e & 3u) == 3u;
}

/* PFIFO's VM users (seed 002 "DMA slots", engine/client/slot): 5/8/0
 * pushbuf read, 5/4/1 semaphore write, 5/8/1 semaphore read, c/8/1
 * background semaphore read (acquire retries with g80_impl.acq_source, puller.rst). */
static const struct {
	unsigned engine, client, slot;
	bool write;
} vm_users[] = {
	[G80_PB_READ] = { NVM_G80_ENG_PFIFO, NVM_G80_CLIENT_PFIFO_READ, 0, false },
	[G80_SEM_WRITE] = { NVM_G80_ENG_PFIFO, NVM_G80_CLIENT_PFIFO_WRITE, 1, true },
	[G80_SEM_READ] = { NVM_G80_ENG_PFIFO, NVM_G80_CLIENT_PFIFO_READ, 1, false },
	[G80_SEM_BG_READ] = { NVM_G80_ENG_PFIFO_BG, NVM_G80_CLIENT_PFIFO_READ, 1, false },
};

/* UNVERIFIED: PFIFO's accesses are not supervisor accesses. */
bool g80_xlat(struct pfifo *f, uint32_t sel, uint64_t off, enum g80_slot slot, nvm_aperture *ap, uint64_t *lin,
              uint64_t *span)
{
	nvm_g80_req req = { .chan = chan_desc(f, pfifo_chid(f)),
		            .selector = sel & 0xffffu,
		            .offset = off & 0xffffffffffull,
		            .engine = vm_users[slot].engine,
		            .client = vm_users[slot].client,
		            .slot = vm_users[slot].slot,
		            .write = vm_users[slot].write };
	nvm_g80_res res;
	if (nvm_g80_translate(f->gpu, &req, &res) || res.fault)
		return false;
	*ap = res.ap;
	*lin = res.addr;
	if (span) {
		/* Bytes from here that map linearly: the rest of the contig block
		 * (paged), or up to the limit (unpaged; the limit itself excluded,
		 * which is safe whichever way the limit is meant). */
		uint64_t addr = res.dmaobj.base + req.offset;
		if (res.paged)
			*span = res.block - (res.virt & (res.block - 1));
		else
			*span = res.dmaobj.limit > addr ? res.dmaobj.limit - addr : 4;
	}
	return true;
}

/* ---------------------------------------------------------------- semaphores */

/* CACHE1 SEMAPHORE (rnndb): OFFSET 13:0 (>> 2), OFFSET_VALID 14, DMA_INST
 * 31:16 (the selector of DMA_SEMAPHORE's object). PULL1 (with g80_impl.acq_source):
 * ACQUIRE_SOURCE 5 (0 OFFSET, 1 SEMAPHORE_ADDRESS), ACQUIRE_MODE 7 (0
 * EQUAL, 1 GEQUAL). */
#define SEM_OFFSET_VALID (1u << 14)

bool g80_sem_where(struct pfifo *f, enum g80_slot slot, nvm_aperture *ap, uint64_t *addr)
{
	bool src_new = g80_impl(f)->acq_source && FIELD_GET(*f->r_pull1, 5, 5);
	uint64_t off = src_new ? g80_impl(f)->sem_addr(f) : (uint64_t)FIELD_GET(*f->r_sem, 13, 0) << 2;
	/* puller.rst: with ACQUIRE_SOURCE acquire retries read through SEMAPHORE_BG.
	 * UNVERIFIED: a retry that faults leaves the acquire waiting. */
	if (slot == G80_SEM_READ && g80_impl(f)->acq_source && (*f->r_pull1 & PULL1_ACQUIRE_ACTIVE))
		slot = G80_SEM_BG_READ;
	return g80_xlat(f, FIELD_GET(*f->r_sem, 31, 16), off, slot, ap, addr, NULL);
}

/* A semaphore word at offset off of the semaphore DMA object. */
bool g80_sem_rw(struct pfifo *f, uint64_t off, enum g80_slot slot, uint32_t *v)
{
	nvm_aperture ap;
	uint64_t lin;
	if (!g80_xlat(f, FIELD_GET(*f->r_sem, 31, 16), off, slot, &ap, &lin, NULL))
		return false;
	if (slot == G80_SEM_WRITE)
		return sem_wr32(&f->gpu->mem[ap], lin, g80_big_endian(f), *v);
	return sem_rd32(&f->gpu->mem[ap], lin, g80_big_endian(f), v);
}

/* Waits for the engine like REF_CNT. UNVERIFIED for releases (puller.rst
 * says nothing). */
void g80_wait_engine(struct pfifo *f, uint64_t *t)
{
	if (*t < f->pgraph->busy_until)
		*t = f->pgraph->busy_until;
}

int g80_sem_fail(struct pfifo *f, unsigned sub, uint32_t a, uint32_t d, const char *why)
{
	puller_sem_error(f, sub, a, d, why);
	return 0;
}

/* An acquire that does not succeed at once (puller.rst pseudocode). */
void g80_acquire_wait(struct pfifo *f, uint32_t value, bool src_new, bool gequal)
{
	*f->r_pull1 |= PULL1_ACQUIRE_ACTIVE;
	if (g80_impl(f)->acq_source) {
		*f->r_pull1 = FIELD_SET(*f->r_pull1, 5, 5, src_new);
		*f->r_pull1 = FIELD_SET(*f->r_pull1, 7, 7, gequal);
	}
	*f->r_acq_value = value;
	bus_set(f->gpu, R_ACQ_TIMESTAMP, (uint32_t)ptimer_read(f->gpu));
	f->stats.acquire_waits++;
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "acquire_wait", pfifo_chid(f), value,
	     "channel %u: semaphore acquire waits for %s0x%08x", pfifo_chid(f), gequal ? ">= " : "", value);
}

static int old_style(struct pfifo *f, uint32_t a, uint32_t m, uint32_t d, uint64_t *t)
{
	uint32_t chid = pfifo_chid(f), v;
	uint64_t off = (uint64_t)FIELD_GET(*f->r_sem, 13, 0) << 2;
	if (!(*f->r_sem & SEM_OFFSET_VALID))
		return g80_sem_fail(f, G80_SEM_INVALID_STATE, a, d, "no valid SEMAPHORE_OFFSET");
	if (m == 0x68) { /* SEMAPHORE_ACQUIRE */
		if (!g80_sem_rw(f, off, G80_SEM_READ, &v))
			return g80_sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault reading the semaphore");
		if (!sem_acquire_ok(SEM_CMP_EQ, false, v, d)) {
			if (g80_impl(f)->acq_source)
				*f->r_pull1 &= ~(1u << 5); /* ACQUIRE_SOURCE OLD, before the address is used */
			g80_acquire_wait(f, d, false, false);
		}
		return 1;
	}
	g80_wait_engine(f, t); /* SEMAPHORE_RELEASE */
	if (!g80_sem_rw(f, off, G80_SEM_WRITE, &d))
		return g80_sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault writing the semaphore");
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "release", chid, d, "channel %u: semaphore release 0x%08x", chid, d);
	return 1;
}

int g80_puller_method(struct pfifo *f, uint32_t a, uint32_t m, uint32_t d, uint64_t *t, uint32_t inst)
{
	switch (pusher_knows_method(f, m) ? m : 0xffffu) {
	case 0x60: /* DMA_SEMAPHORE: "G80 doesn't bother with verification" */
		*f->r_sem = FIELD_SET(*f->r_sem, 31, 16, inst >> 4);
		return 1;
	case 0x64: /* SEMAPHORE_OFFSET */
		if (d & 3)
			return g80_sem_fail(f, G80_SEM_ADDRESS_UNALIGNED, a, d, "offset not divisible by 4");
		if (d & 0xffff0000u)
			return g80_sem_fail(f, G80_SEM_ADDRESS_TOO_LARGE, a, d, "offset beyond 16 bits");
		*f->r_sem = FIELD_SET(*f->r_sem, 13, 0, d >> 2) | SEM_OFFSET_VALID;
		return 1;
	case 0x68:
	case 0x6c: return old_style(f, a, m, d, t);
	}
	return -1;
}

/* ---------------------------------------------------------------- VM faults */

/* g80_pfifo.xml INTR BAR_FAULT (4) / PEEPHOLE_FAULT (6): the G80 VM reports
 * a faulting CPU access through the BARs or the PEEPHOLE on the core's
 * CPU-fault port, which a G80 PFIFO connects at create. */
void pfifo_g80_cpu_fault(void *ctx, enum cpu_fault kind)
{
	struct pfifo *f = ctx;
	bool bar = kind == CPU_FAULT_BAR;
	emit(f->gpu, NVM_EV_TRACE, "pfifo", bar ? "bar_fault" : "peephole_fault", 0, 0, "%s",
	     bar ? "INTR BAR_FAULT" : "INTR PEEPHOLE_FAULT");
	pfifo_raise(f, bar ? INTR_G80_BAR_FAULT : INTR_G80_PEEPHOLE_FAULT);
}

/* ---------------------------------------------------------------- registers */

/* ---------------------------------------------------------------- the generation */

#define ALL 0xffffffffu
static const struct reg_desc regs_g80[] = {
	/* INTR (rnndb): CACHE_ERROR 0, BAR_FAULT 4, PEEPHOLE_FAULT 6,
	 * PIO_ERROR 8, DMA_PUSHER 12, SEMAPHORE 20, NOTIFY 30 (later members), the UNK
	 * bits; write 1 to clear. */
	{ R_INTR, "G80_PFIFO_INTR", 0, 0, 0x7fff1f51u, NULL, pfifo_wr_intr },
	{ R_INTR_EN, "G80_PFIFO_INTR_EN", 0, 0x7fff1f51u, 0, NULL, pfifo_wr_intr },
	{ R_RAMHT, "G80_PFIFO_RAMHT", 0, 0x1fffffffu, 0, NULL, NULL },
	{ R_G80_FREEZE, "G80_PFIFO_FREEZE", 0, 0x1u, 0, NULL, wr_freeze },
	{ 0x250c, "G80_PFIFO_CHSW_DEBUG_1", 0, ALL, 0, NULL, NULL },
	{ R_PULL1, "G80_PFIFO_CACHE1_PULL1", 0, 0xbfu, 0, NULL, pfifo_wr_kick },
	{ R_SEMAPHORE, "G80_PFIFO_CACHE1_SEMAPHORE", 0, 0xffff7fffu, 0, NULL, pfifo_wr_kick },
	{ R_G80_PLAYLIST_LEN, "G80_PFIFO_CACHE1_PLAYLIST_LEN", 0, 0xfffu, 0, NULL, wr_playlist_len },
	{ R_G80_PLAYLIST, "G80_PFIFO_CACHE1_PLAYLIST", 0, 0x3fffffffu, 0, NULL, NULL },
	/* UNVERIFIED: KICK_CHANNEL unloads at once (nouveau polls it for a
	 * value other than 0xffffffff). */
	{ R_G80_KICK_CHANNEL, "G80_PFIFO_CACHE1_KICK_CHANNEL", 0, ALL, 0, NULL, NULL },
	{ R_G80_FIFO_ENDIAN, "G80_PFIFO_CACHE1_FIFO_ENDIAN", 0, 0x3u, 0, NULL, NULL },
	{ R_G80_PUT_HIGH, "G80_PFIFO_CACHE1_DMA_PUT_HIGH", 0, 0xffu, 0, NULL, pfifo_wr_kick },
	{ R_G80_GET_HIGH, "G80_PFIFO_CACHE1_DMA_GET_HIGH", 0, 0xffu, 0, NULL, pfifo_wr_kick },
	{ R_G80_IB_PUT, "G80_PFIFO_CACHE1_IB_PUT", 0, ALL, 0, NULL, pfifo_wr_kick },
	{ R_G80_IB_GET, "G80_PFIFO_CACHE1_IB_GET", 0, ALL, 0, NULL, pfifo_wr_kick },
	{ R_G80_IB_ADDRESS, "G80_PFIFO_CACHE1_IB_ADDRESS_LOW", 0, 0xfffffffcu, 0, NULL, NULL },
	{ R_G80_IB_CONFIG, "G80_PFIFO_CACHE1_IB_CONFIG", 0, ALL, 0, NULL, NULL },
	{ R_G80_METHOD_COUNT, "G80_PFIFO_CACHE1_METHOD_COUNT", 0, 0xffffffu, 0, NULL, NULL },
	{ R_G80_MGET, "G80_PFIFO_CACHE1_DMA_MGET", 0, ALL, 0, NULL, NULL },
	{ R_G80_MGET_HIGH, "G80_PFIFO_CACHE1_DMA_MGET_HIGH", 0, 0x800000ffu, 0, NULL, NULL },
	{ R_G80_GET_HIGH_RS, "G80_PFIFO_CACHE1_DMA_GET_HIGH_RDSHADOW", 0, 0xffu, 0, NULL, NULL },
	{ R_G80_PUT_HIGH_RS, "G80_PFIFO_CACHE1_DMA_PUT_HIGH_RDSHADOW", 0, 0xffu, 0, NULL, NULL },
	{ R_G80_PUT_HIGH_WS, "G80_PFIFO_CACHE1_DMA_PUT_HIGH_WRSHADOW", 0, 0xffu, 0, NULL, NULL },
	{ R_G80_MGET_HIGH_RS, "G80_PFIFO_CACHE1_DMA_MGET_HIGH_RDSHADOW", 0, 0x800000ffu, 0, NULL, NULL },
};
/* NV04..NV4x registers G80 has not (rnndb g80_pfifo.xml): RAMRO and
 * RUNOUT, MODE, CACHE0, the pusher's cached DMA object and TLB, ... */
static const uint32_t gone_g80[] = { R_NEXT_CHANNEL, R_RAMRO,       R_RAMFC_NV40,    R_RUNOUT_STATUS, R_RUNOUT_PUT,
	                             R_RUNOUT_GET,   R_MODE,        R_DMA,           R_SIZE,          R_CACHE0_PUSH0,
	                             R_CACHE0_PUSH1, R_CACHE0_PUT,  R_CACHE0_STATUS, R_CACHE0_PULL0,  R_CACHE0_PULL1,
	                             R_CACHE0_HASH,  R_CACHE0_GET,  R_CACHE0_ENGINE, R_CACHE0_METHOD, R_CACHE0_DATA,
	                             R_DMA_CTL,      R_DMA_TLB_TAG, R_DMA_TLB_PTE,   R_GRCTX_INST,    R_UNK32E8,
	                             R_UNK3300,      R_UNK330C };
const struct reg_layer pfifo_g80_regs = REG_LAYER(regs_g80, gone_g80);
static const struct reg_layer *const layers_g80[] = { &pfifo_nv04_regs, &pfifo_nv10_regs, &pfifo_nv17_regs,
	                                              &pfifo_nv40_regs, &pfifo_g80_regs,  NULL };

/* CHAN_TABLE(i) at 0x2600, 128 entries. */
bool g80_win_rd(struct pfifo *f, uint32_t addr, uint32_t *val)
{
	if (addr >= R_G80_CHAN_TABLE && addr < R_G80_CHAN_TABLE + 4 * 128) {
		*val = g80_of(f)->chan_table[(addr - R_G80_CHAN_TABLE) >> 2];
		return true;
	}
	return false;
}

bool g80_win_wr(struct pfifo *f, uint32_t addr, uint32_t val)
{
	if (addr >= R_G80_CHAN_TABLE && addr < R_G80_CHAN_TABLE + 4 * 128) {
		/* CHAN_TABLE: CHAN 29:0 (g80_impl.ramfc_where reads it), PENDING
		 * 30, ENABLE 31 (rnndb). UNVERIFIED: PENDING
		 * is not modelled (reads what was written). */
		g80_of(f)->chan_table[(addr - R_G80_CHAN_TABLE) >> 2] = val;
		pfifo_kick(f);
		return true;
	}
	return false;
}

static bool user_g80_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	*val = g80_user_read(ctx, addr);
	return true;
}

static bool user_g80_wr(void *ctx, uint32_t addr, uint32_t val)
{
	g80_user_write(ctx, addr, val);
	return true;
}

/* CACHE1 through the NV40 window: nouveau's nv50 fifo reads and writes it
 * there (NV40_PFIFO_CACHE1_METHOD/DATA(ptr) in its cache error handler and
 * channel load); UNVERIFIED, rnndb g80_pfifo.xml lacks it. No PRAMIN
 * window: instance memory is not reversed RAMIN, the BAR0 PRAMIN window
 * (0x1700) belongs to the VM (src/mmu/). The DMA USER area: 0x2000 per
 * channel at 0xc00000. */
nvm_status g80_init(struct pfifo *f)
{
	struct g80_pfifo *g = g80_of(f);
	nvm_status st = pfifo_add_window(f, "pfifo", PFIFO_CACHE1_NV40, f->chip->cache_entries * 8, nv40_cache_rd,
	                                 nv40_cache_wr);
	if (!st)
		st = pfifo_add_window(f, "pfifo_user", PFIFO_USER_G80, f->chip->nchan * 0x2000u, user_g80_rd,
		                      user_g80_wr);
	if (st)
		return st;
	port_cpu_fault_connect(f->gpu, pfifo_g80_cpu_fault, f);
	f->r_mode = &f->absent; /* 0x2504 is FREEZE */
	g->r_freeze = pfifo_reg_slot(f, R_G80_FREEZE);
	g->r_ib_put = pfifo_reg_slot(f, R_G80_IB_PUT);
	g->r_ib_get = pfifo_reg_slot(f, R_G80_IB_GET);
	g->r_method_count = pfifo_reg_slot(f, R_G80_METHOD_COUNT);
	g->r_mget = pfifo_reg_slot(f, R_G80_MGET);
	g->r_mget_hi = pfifo_reg_slot(f, R_G80_MGET_HIGH);
	g->r_put_hi = pfifo_reg_slot(f, R_G80_PUT_HIGH);
	g->r_get_hi = pfifo_reg_slot(f, R_G80_GET_HIGH);
	return NVM_OK;
}

/* Every channel but 0 is a DMA channel (rnndb PUSH1 MODE). */
bool g80_chan_dma(const struct pfifo *f, uint32_t chid)
{
	return chid != 0 && chid < f->chip->nchan;
}

/* UNVERIFIED: the current channel keeps CACHE1 while its pusher or its
 * puller has work (the cache goes to memory on a switch). */
bool g80_chan_busy(struct pfifo *f)
{
	return g80_pusher_ready(f) || puller_ready(f);
}

/* METHOD_COUNT is a register of its own (24 bits for the long form),
 * DMA_STATE LARGE_NONINCR_LEN_PENDING 16 (rnndb). */
void g80_count_load(struct pfifo *f, nvm_pb_decoder_state *d, uint32_t dma_state)
{
	d->remaining = *g80_of(f)->r_method_count & 0xffffffu;
	d->lenp = FIELD_GET(dma_state, 16, 16);
}

uint32_t g80_count_store(struct pfifo *f, const nvm_pb_decoder_state *d, uint32_t dma_state)
{
	*g80_of(f)->r_method_count = d->remaining & 0xffffffu;
	return FIELD_SET(dma_state, 16, 16, d->lenp);
}

/* UNVERIFIED: G80 has no RAMRO (rnndb lists none); a refused PIO store
 * raises INTR PIO_ERROR (8) and is lost. */
void g80_pio_refused(struct pfifo *f, uint32_t addr, uint32_t val, unsigned size, unsigned reason)
{
	(void)size;
	uint32_t off = addr - PFIFO_USER;
	uint32_t chid = off >> 16, subch = (off >> 13) & 7, m = off & 0x1fff;
	emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "pio_error", addr, val,
	     "channel %u subchannel %u method 0x%04x data 0x%08x: %s, the store is lost (PIO_ERROR)", chid, subch, m,
	     val, nvm_pfifo_ramro_reason_name(reason));
	pfifo_raise(f, INTR_G80_PIO_ERROR);
}

bool g80_puller_sem_where(struct pfifo *f, nvm_aperture *ap, uint64_t *addr)
{
	return g80_sem_where(f, G80_SEM_READ, ap, addr);
}

const struct pfifo_ops pfifo_g80_ops = {
	.init = g80_init,
	.win_rd = g80_win_rd,
	.win_wr = g80_win_wr,
	.ramfc_rd = g80_ramfc_rd,
	.ramfc_wr = g80_ramfc_wr,
	.ramfc_base = nv04_ramfc_base,
	.chan_dma = g80_chan_dma,
	.next_channel = g80_next_channel,
	.chan_busy = g80_chan_busy,
	.cache_save = g80_cache_save,
	.cache_load = g80_cache_load,
	.frozen = g80_frozen,
	.pusher_ready = g80_pusher_ready,
	.pusher_run = g80_pusher_run,
	.count_load = g80_count_load,
	.count_store = g80_count_store,
	.pio_refused = g80_pio_refused,
	.ramht_lookup = g80_ramht_lookup,
	.obj_rd32 = g80_obj_rd32,
	.puller_method = g80_puller_method,
	.acquires = puller_acquires,
	.acquire_done = puller_acquire_done,
	.sem_where = g80_puller_sem_where,
	.big_endian = g80_big_endian,
	.step = pfifo_step,
	.pio_store = pusher_pio_store,
	.user_read = pusher_pio_read,
};

/* PULL0 SEMAPHORE_ERROR (G80:GF100 subtypes, puller.rst "Semaphores"). */
const char *const pfifo_g80_sem_errors[8] = {
	"NONE", "ADDRESS_UNALIGNED", "INVALID_STATE", "ADDRESS_TOO_LARGE", "MEM_FAULT", "?", "?", "?"
};

static const struct g80_impl g80_impl_g80 = {
	.chan_desc = g80_chan_desc,
	.ramfc_where = g80_ramfc_where,
	.cache_where = g80_cache_where,
	.playlist_len_hi = 7,
};

/* 128 channels (seed 001). UNVERIFIED: 128 CACHE1 slots. Object classes are
 * 16 bits (seed 002 "DMA objects": bits 0-15). RAMHT context (nouveau nv50:
 * engine << 20 | offset in the channel structure >> 4). UNVERIFIED: ENGINE
 * 23:20, INSTANCE 15:0 (objects end at 0xffff0, seed 002), no channel and
 * no valid bit (a zero context is a free entry). Engines beyond SOFTWARE
 * and PGRAPH (rnndb g80_pfifo_engine; seed 002's context selectors): PMPEG
 * 2, PME 3, PVP1 4, each a recording engine (src/engine). */
const struct pfifo_gen pfifo_g80 = { G80_GEN_COMMON,
	                             .name = "g80",
	                             .methods = G80_METHODS,
	                             .ramfc = &ramfc_g80,
	                             .engines = 1u << ENG_PMPEG | 1u << ENG_PME | 1u << ENG_PVP1,
	                             .eng_names = pfifo_nv04_eng_names,
	                             .regs = layers_g80,
	                             .size = sizeof(struct g80_pfifo),
	                             .ops = &pfifo_g80_ops,
	                             .impl = &g80_impl_g80 };
