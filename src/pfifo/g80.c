/*
 * PFIFO of G80..GT215 (seed 001 NV50 parts, seed 002 "Channels", rnndb
 * fifo/g80_pfifo.xml, envytools dma-pusher.rst and puller.rst; nouveau's
 * nv50/g84 fifo code where those are silent): what differs from NV04..NV4x.
 * 128 channels; a channel table pointing at each channel's RAMFC (in the
 * channel structure on G80, anywhere on G84+); the cache saved to memory on
 * a channel switch; the playlist; FREEZE; the 0xc00000 USER areas; a RAMHT
 * per channel inside its channel structure; every pushbuffer, IB and
 * semaphore access through the G80 VM; the G80/G84 semaphore methods. The
 * G80 DMA pusher (DMA and IB modes) is in ib.c; the rest is shared with the
 * older chips (pfifo.c, pusher.c, puller.c). docs/g80.md describes it.
 */
#include <string.h>

#include "nvmodel/g80vm.h"
#include "g80_host.h"
#include "fifo/sem.h"
#include "pfifo_internal.h"

/* ---------------------------------------------------------------- chip data */

#define F(name, reg, off)                                                                                              \
	{                                                                                                              \
		name, reg, off, 0, 32, 0                                                                               \
	}
/* RAMFC (rnndb domain G80_RAMFC). CACHE_CNT (0x84) is written by the cache
 * save, not from a register; G84+ adds 0x88..0x98. */
#define G80_RAMFC_FIELDS                                                                                               \
	F("IB_PUT", R_G80_IB_PUT, 0x00), F("IB_GET", R_G80_IB_GET, 0x04), F("DMA_PUT", R_DMA_PUT, 0x08),               \
	        F("DMA_PUT_HIGH", R_G80_PUT_HIGH, 0x0c), F("DMA_GET", R_DMA_GET, 0x10),                                \
	        F("DMA_GET_HIGH", R_G80_GET_HIGH, 0x14), F("DMA_MGET", R_G80_MGET, 0x18),                              \
	        F("DMA_MGET_HIGH", R_G80_MGET_HIGH, 0x1c), F("DMA_GET_HIGH_RDSHADOW", R_G80_GET_HIGH_RS, 0x20),        \
	        F("DMA_PUT_HIGH_RDSHADOW", R_G80_PUT_HIGH_RS, 0x24),                                                   \
	        F("DMA_PUT_HIGH_WRSHADOW", R_G80_PUT_HIGH_WS, 0x28),                                                   \
	        F("DMA_MGET_HIGH_RDSHADOW", R_G80_MGET_HIGH_RS, 0x2c), F("DMA_STATE", R_DMA_STATE, 0x30),              \
	        F("METHOD_COUNT", R_G80_METHOD_COUNT, 0x34), F("DMA_DCOUNT_SHADOW", R_DCOUNT, 0x38),                   \
	        F("DMA_FETCH", R_DMA_FETCH, 0x3c), F("SUBROUTINE", R_SUBROUTINE, 0x40),                                \
	        F("DMA_TIMESLICE", R_DMA_TIMESLICE, 0x44), F("DMA_INSTANCE", R_DMA_INSTANCE, 0x48),                    \
	        F("DMA_LIMIT", R_DMA_LIMIT, 0x4c), F("IB_ADDRESS_LOW", R_G80_IB_ADDRESS, 0x50),                        \
	        F("IB_CONFIG", R_G80_IB_CONFIG, 0x54), F("ENGINE", R_ENGINE, 0x58), F("PULL1", R_PULL1, 0x5c),         \
	        F("ACQUIRE_TIMEOUT", R_ACQ_TIMEOUT, 0x60), F("ACQUIRE_TIMESTAMP", R_ACQ_TIMESTAMP, 0x64),              \
	        F("ACQUIRE_VALUE", R_ACQ_VALUE, 0x68), F("SEMAPHORE", R_SEMAPHORE, 0x6c),                              \
	        F("UNK0E4", R_G80_UNK0E4, 0x70), F("REF", R_REF, 0x74), F("UNK88", R_G80_DEBUG_2, 0x78),               \
	        F("SLI", R_SLI, 0x7c), F("RAMHT", R_RAMHT, 0x80)
static const nvm_ramfc_field ramfc_g80_f[] = { G80_RAMFC_FIELDS };
static const nvm_ramfc_field ramfc_g84_f[] = {
	G80_RAMFC_FIELDS,
	F("CACHE_INST", R_G84_CACHE_INST, 0x88),
	F("SEMAPHORE_ADDRESS_HIGH", R_G84_SEM_ADDR_HIGH, 0x8c),
	F("SEMAPHORE_ADDRESS_LOW", R_G84_SEM_ADDR_LOW, 0x90),
	F("SEMAPHORE_SEQUENCE", R_G84_SEM_SEQUENCE, 0x94),
	F("CHAN_INST", R_G84_CHAN_INST, 0x98),
};
#undef F
static const struct ramfc_layout ramfc_g80 = { "g80", 0x200, ramfc_g80_f,
	                                       sizeof(ramfc_g80_f) / sizeof(ramfc_g80_f[0]) };
static const struct ramfc_layout ramfc_g84 = { "g84", 0x100, ramfc_g84_f,
	                                       sizeof(ramfc_g84_f) / sizeof(ramfc_g84_f[0]) };

#define RAMFC_CACHE_CNT 0x84u

/* RAMHT context (nouveau nv50/g84: engine << 20 | offset in the channel
 * structure >> 4). UNVERIFIED: ENGINE 23:20, INSTANCE 15:0 (objects end at
 * 0xffff0, seed 002), no channel and no valid bit (a zero context is a
 * free entry); the chid field is never compared. */
#define RAMHT_G80                                                                                                      \
	{                                                                                                              \
		15, 23, 20, 31, 24, -1                                                                                 \
	}

/* 128 channels (seed 001). UNVERIFIED: 128 CACHE1 slots. Object classes are
 * 16 bits (seed 002 "DMA objects": bits 0-15). */
#define G80_FEAT (PF_NV10 | PF_NV5 | PF_NV1A | PF_NV40 | PF_G80)
/* Engines beyond SOFTWARE and PGRAPH (rnndb g80_pfifo_engine, by chip; seed
 * 002's context selectors): G80 PMPEG 2, PME 3, PVP1 4; G84 and G92 PMPEG 2,
 * PVP2 4, PCIPHER 5, PBSP 6; GT215 PPPP 2, PCOPY 3, PPDEC 4, PVLD 6 (PSEC 5
 * is MCP77:GT215). Each is a recording engine (src/engine). */
static const char *const eng_g80[ENG_IDS] = { "software", "pgraph", "pmpeg", "pme", "pvp1" };
static const char *const eng_g84[ENG_IDS] = { "software", "pgraph", "pmpeg", NULL, "pvp2", "pcipher", "pbsp" };
static const char *const eng_gt215[ENG_IDS] = { "software", "pgraph", "pppp", "pcopy", "ppdec", NULL, "pvld" };
#define ENGS_G80   (1u << ENG_PMPEG | 1u << ENG_PME | 1u << ENG_PVP1)
#define ENGS_G84   (1u << ENG_PMPEG | 1u << ENG_PVP1 | 1u << ENG_G84_5 | 1u << ENG_G84_6)
#define ENGS_GT215 (1u << ENG_PMPEG | 1u << ENG_PME | 1u << ENG_PVP1 | 1u << ENG_G84_6)
const struct pfifo_chip pfifo_g80 = { "g80",  G80_FEAT,   128,  128,       0x7f,     1u << 16, 0,
	                              0xffff, &ramfc_g80, NULL, RAMHT_G80, ENGS_G80, eng_g80 };
const struct pfifo_chip pfifo_g84 = { "g84",  G80_FEAT | PF_G84, 128,  128,       0x7f,     1u << 16, 0,
	                              0xffff, &ramfc_g84,        NULL, RAMHT_G80, ENGS_G84, eng_g84 };
const struct pfifo_chip pfifo_g92 = { "g92",  G80_FEAT | PF_G84, 128,  128,       0x7f,     1u << 16, 0,
	                              0xffff, &ramfc_g84,        NULL, RAMHT_G80, ENGS_G84, eng_g84 };
const struct pfifo_chip pfifo_gt215 = { "gt215", G80_FEAT | PF_G84, 128,  128,       0x7f,       1u << 16, 0,
	                                0xffff,  &ramfc_g84,        NULL, RAMHT_G80, ENGS_GT215, eng_gt215 };

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
 * 29:28): in CHAN_TABLE on G80 (CHAN 29:0), in RAMFC CHAN_INST on G84+
 * (nouveau writes inst >> 12 there). */
uint32_t g80_chan_desc(struct pfifo *f, uint32_t chid)
{
	if (chid >= f->chip->nchan)
		return 0;
	if (!pf_has(f, PF_G84))
		return f->chan_table[chid] & 0x3fffffffu;
	return pfifo_chan_reg(f, chid, R_G84_CHAN_INST) & 0x3fffffffu;
}

static uint64_t desc_addr(uint32_t desc)
{
	return (uint64_t)(desc & 0x0fffffffu) << 12;
}

static unsigned desc_target(uint32_t desc)
{
	return FIELD_GET(desc, 29, 28);
}

/* Where channel chid's RAMFC is: G80 at the start of its channel structure
 * (seed 002), G84+ at CHAN_TABLE RAMFC_ADDR 23:0 << 8, TARGET 25:24. */
static void ramfc_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	uint32_t e = f->chan_table[chid];
	if (pf_has(f, PF_G84)) {
		*addr = (uint64_t)FIELD_GET(e, 23, 0) << 8;
		*target = FIELD_GET(e, 25, 24);
	} else {
		*addr = desc_addr(e);
		*target = desc_target(e);
	}
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
	uint32_t d = g80_chan_desc(f, pfifo_chid(f));
	return g80_lin_rd32(f, desc_target(d), desc_addr(d) + inst, w);
}

/* ---------------------------------------------------------------- cache */

/* Where a channel's saved cache is: G80 at 0x400 of the channel structure
 * (seed 002), G84+ at CACHE_INST ADDRESS 29:0 << 10, TARGET 31:30 (rnndb;
 * nouveau writes cache->addr >> 10). */
static void cache_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	if (pf_has(f, PF_G84)) {
		uint32_t ci = pfifo_chan_reg(f, chid, R_G84_CACHE_INST);
		*addr = (uint64_t)FIELD_GET(ci, 29, 0) << 10;
		*target = FIELD_GET(ci, 31, 30);
	} else {
		uint32_t d = g80_chan_desc(f, chid);
		*addr = desc_addr(d) + 0x400;
		*target = desc_target(d);
	}
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

/* PLAYLIST_LEN (LEN 7:0 on G80, 11:0 on G84+): the channel ids at PLAYLIST
 * (ADDRESS 27:0 << 12, TARGET 29:28), one 32-bit word each (nouveau's
 * nv50_runl_insert_chan). UNVERIFIED: the list is read at the write (no
 * pending state: the UNK8 bit nouveau polls reads 0); entries past 128
 * are ignored. */
static void wr_playlist_len(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct pfifo *f = ctx;
	uint32_t len = pf_has(f, PF_G84) ? FIELD_GET(written, 11, 0) : FIELD_GET(written, 7, 0);
	uint32_t pl = bus_get(f->gpu, R_G80_PLAYLIST);
	uint64_t base = (uint64_t)FIELD_GET(pl, 27, 0) << 12;
	*stored = len;
	if (len > 128) {
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "playlist_len", len, 128,
		     "PLAYLIST_LEN %u: only the first 128 entries are used", len);
		len = 128;
	}
	f->nplaylist = 0;
	for (uint32_t i = 0; i < len; i++) {
		uint32_t c;
		if (!g80_lin_rd32(f, FIELD_GET(pl, 29, 28), base + 4 * i, &c)) {
			emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "playlist_range", base + 4 * i, i,
			     "playlist entry %u at 0x%010llx is outside memory: the list ends there", i,
			     (unsigned long long)(base + 4 * i));
			break;
		}
		f->playlist[f->nplaylist++] = c & 0x7f;
	}
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "playlist", f->nplaylist, base, "playlist: %u channels", f->nplaylist);
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
	uint32_t cur = pfifo_chid(f), n = f->nplaylist, at = 0;
	for (uint32_t i = 0; i < n; i++)
		if (f->playlist[i] == cur)
			at = i + 1;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t c = f->playlist[(at + i) % n];
		if (c == cur || !pfifo_chan_dma(f, c) || !(f->chan_table[c] >> 31) || bit_get(f->acq_blocked, c))
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
	bool en = *f->r_freeze & 1;
	if (en != FIELD_GET(*f->r_freeze, 4, 4))
		emit(f->gpu, NVM_EV_TRACE, "pfifo", en ? "frozen" : "unfrozen", en, 0, "PFIFO %s",
		     en ? "frozen" : "running again");
	*f->r_freeze = FIELD_SET(*f->r_freeze, 4, 4, en);
	return en;
}

/* ---------------------------------------------------------------- USER */

/* The DMA channel control area (dma-pusher.rst "Channel control area", rnndb
 * USER_DMA): 0x2000 per channel at 0xc00000. Reading a low part latches the
 * high part into its read shadow; DMA_PUT_HIGH writes go to the write shadow
 * and the DMA_PUT write takes them. DMA_PUT and DMA_PUT_HIGH are only
 * writable when not in IB mode. UNVERIFIED: channel 0 (PIO) has no DMA
 * area (its accesses read 0 and are ignored); other offsets read 0. */
uint32_t g80_user_read(struct pfifo *f, uint32_t addr)
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

void g80_user_write(struct pfifo *f, uint32_t addr, uint32_t val)
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
bool g80_ramht_lookup(struct pfifo *f, uint32_t handle, uint32_t *inst, unsigned *engine)
{
	uint32_t reg = bus_get(f->gpu, R_RAMHT);
	uint32_t base = FIELD_GET(reg, 15, 0) << 4;
	unsigned bits = 9 + FIELD_GET(reg, 28, 27);
	uint32_t n = 1u << bits, search = FIELD_GET(reg, 26, 26) ? n : 16u << FIELD_GET(reg, 25, 24);
	uint32_t h = nvm_pfifo_ramht_hash(handle, 0, bits);
	f->stats.ramht_lookups++;
	for (uint32_t i = 0; i < search && i < n; i++) {
		uint32_t a = base + ((h + i) & (n - 1)) * 8, hd, ctx;
		if (!g80_obj_rd32(f, a, &hd) || !g80_obj_rd32(f, a + 4, &ctx))
			break;
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
 * background semaphore read (acquire retries on G84+, puller.rst). */
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
	nvm_g80_req req = { .chan = g80_chan_desc(f, pfifo_chid(f)),
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
 * 31:16 (the selector of DMA_SEMAPHORE's object). PULL1 (G84+):
 * ACQUIRE_SOURCE 5 (0 OFFSET, 1 SEMAPHORE_ADDRESS), ACQUIRE_MODE 7 (0
 * EQUAL, 1 GEQUAL). */
#define SEM_OFFSET_VALID (1u << 14)

static uint64_t sem_new_addr(const struct pfifo *f)
{
	return (uint64_t)(*f->r_sem_hi & 0xff) << 32 | *f->r_sem_lo;
}

bool g80_sem_where(struct pfifo *f, enum g80_slot slot, nvm_aperture *ap, uint64_t *addr)
{
	bool src_new = pf_has(f, PF_G84) && FIELD_GET(*f->r_pull1, 5, 5);
	uint64_t off = src_new ? sem_new_addr(f) : (uint64_t)FIELD_GET(*f->r_sem, 13, 0) << 2;
	/* puller.rst: on G84+ acquire retries read through SEMAPHORE_BG.
	 * UNVERIFIED: a retry that faults leaves the acquire waiting. */
	if (slot == G80_SEM_READ && pf_has(f, PF_G84) && (*f->r_pull1 & PULL1_ACQUIRE_ACTIVE))
		slot = G80_SEM_BG_READ;
	return g80_xlat(f, FIELD_GET(*f->r_sem, 31, 16), off, slot, ap, addr, NULL);
}

/* A semaphore word at offset off of the semaphore DMA object. */
static bool sem_rw(struct pfifo *f, uint64_t off, enum g80_slot slot, uint32_t *v)
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
static void wait_engine(struct pfifo *f, uint64_t *t)
{
	if (*t < f->pgraph->busy_until)
		*t = f->pgraph->busy_until;
}

static int sem_fail(struct pfifo *f, unsigned sub, uint32_t a, uint32_t d, const char *why)
{
	puller_sem_error(f, sub, a, d, why);
	return 0;
}

/* An acquire that does not succeed at once (puller.rst pseudocode). */
static void acquire_wait(struct pfifo *f, uint32_t value, bool src_new, bool gequal)
{
	*f->r_pull1 |= PULL1_ACQUIRE_ACTIVE;
	if (pf_has(f, PF_G84)) {
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
		return sem_fail(f, G80_SEM_INVALID_STATE, a, d, "no valid SEMAPHORE_OFFSET");
	if (m == 0x68) { /* SEMAPHORE_ACQUIRE */
		if (!sem_rw(f, off, G80_SEM_READ, &v))
			return sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault reading the semaphore");
		if (!sem_acquire_ok(SEM_CMP_EQ, false, v, d)) {
			if (pf_has(f, PF_G84))
				*f->r_pull1 &= ~(1u << 5); /* ACQUIRE_SOURCE OLD, before the address is used */
			acquire_wait(f, d, false, false);
		}
		return 1;
	}
	wait_engine(f, t); /* SEMAPHORE_RELEASE */
	if (!sem_rw(f, off, G80_SEM_WRITE, &d))
		return sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault writing the semaphore");
	emit(f->gpu, NVM_EV_TRACE, "pfifo", "release", chid, d, "channel %u: semaphore release 0x%08x", chid, d);
	return 1;
}

/* SEMAPHORE_TRIGGER operations 2:0 that acquire -> the shared comparison
 * (0: none). */
static const uint8_t trigger_cmp[8] = { [1] = SEM_CMP_EQ + 1, [4] = SEM_CMP_CIRC_GEQ + 1 };

/* SEMAPHORE_TRIGGER (G84+): 1 ACQUIRE_EQUAL, 2 WRITE_LONG, 4 ACQUIRE_GEQUAL.
 * WRITE_LONG writes the 16-byte long semaphore: sequence, 0, the 64-bit
 * PTIMER time. UNVERIFIED: puller.rst's pseudocode writes `param` as the
 * first word, its text semaphore_sequence; the model writes the sequence.
 * Other operations hang PFIFO (puller.rst): the puller stops at the entry. */
static int trigger(struct pfifo *f, uint32_t a, uint32_t d, uint64_t *t)
{
	uint32_t chid = pfifo_chid(f), seq = *f->r_sem_seq, op = d & 7, v;
	uint64_t addr = sem_new_addr(f);
	if (d == 2) {
		wait_engine(f, t);
		uint64_t ts = ptimer_read(f->gpu);
		uint32_t w[4] = { seq, 0, (uint32_t)ts, (uint32_t)(ts >> 32) };
		for (unsigned i = 0; i < 4; i++)
			if (!sem_rw(f, addr + 4 * i, G80_SEM_WRITE, &w[i]))
				return sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault writing the long semaphore");
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "release", chid, seq,
		     "channel %u: long semaphore release 0x%08x at 0x%010llx", chid, seq, (unsigned long long)addr);
		return 1;
	}
	if (!trigger_cmp[op]) {
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "sem_trigger", chid, d,
		     "channel %u: SEMAPHORE_TRIGGER 0x%08x is no operation: PFIFO hangs on it", chid, d);
		return 0;
	}
	if (!sem_rw(f, addr, G80_SEM_READ, &v))
		return sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault reading the semaphore");
	enum sem_cmp cmp = (enum sem_cmp)(trigger_cmp[op] - 1);
	if (!sem_acquire_ok(cmp, false, v, seq))
		acquire_wait(f, seq, true, cmp == SEM_CMP_CIRC_GEQ);
	return 1;
}

int g80_puller_method(struct pfifo *f, uint32_t a, uint32_t m, uint32_t d, uint64_t *t, uint32_t inst)
{
	uint32_t chid = pfifo_chid(f);
	switch (pusher_knows_method(f, m) ? m : 0xffffu) {
	case 0x10: /* SEMAPHORE_ADDRESS_HIGH */
		if (d & 0xffffff00u)
			return sem_fail(f, G80_SEM_ADDRESS_TOO_LARGE, a, d, "address beyond 40 bits");
		*f->r_sem_hi = d;
		return 1;
	case 0x14: /* SEMAPHORE_ADDRESS_LOW */
		if (d & 3)
			return sem_fail(f, G80_SEM_ADDRESS_UNALIGNED, a, d, "address not divisible by 4");
		*f->r_sem_lo = d;
		return 1;
	case 0x18: *f->r_sem_seq = d; return 1; /* SEMAPHORE_SEQUENCE */
	case 0x1c: return trigger(f, a, d, t);
	case 0x20: /* NOTIFY_INTR */
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "notify", chid, d, "channel %u: NOTIFY_INTR", chid);
		pfifo_raise(f, INTR_G84_NOTIFY);
		return 1;
	case 0x24: /* WRCACHE_FLUSH: the model has no write post cache */ return 1;
	case 0x60: /* DMA_SEMAPHORE: "G80 doesn't bother with verification" */
		*f->r_sem = FIELD_SET(*f->r_sem, 31, 16, inst >> 4);
		return 1;
	case 0x64: /* SEMAPHORE_OFFSET */
		if (d & 3)
			return sem_fail(f, G80_SEM_ADDRESS_UNALIGNED, a, d, "offset not divisible by 4");
		if (d & 0xffff0000u)
			return sem_fail(f, G80_SEM_ADDRESS_TOO_LARGE, a, d, "offset beyond 16 bits");
		*f->r_sem = FIELD_SET(*f->r_sem, 13, 0, d >> 2) | SEM_OFFSET_VALID;
		return 1;
	case 0x68:
	case 0x6c: return old_style(f, a, m, d, t);
	}
	return -1;
}

/* ---------------------------------------------------------------- VM faults */

/* g80_pfifo.xml INTR BAR_FAULT (4) / PEEPHOLE_FAULT (6): the G80 VM reports
 * a faulting CPU access through the BARs or the PEEPHOLE here. */
void pfifo_g80_host_fault(nvm_gpu *gpu, enum pfifo_host_fault kind)
{
	struct pfifo *f = gpu ? gpu->blk[BLK_PFIFO] : NULL;
	if (!f || !pf_has(f, PF_G80))
		return;
	bool bar = kind == PFIFO_HOST_BAR_FAULT;
	emit(gpu, NVM_EV_TRACE, "pfifo", bar ? "bar_fault" : "peephole_fault", 0, 0, "%s",
	     bar ? "INTR BAR_FAULT" : "INTR PEEPHOLE_FAULT");
	pfifo_raise(f, bar ? INTR_G80_BAR_FAULT : INTR_G80_PEEPHOLE_FAULT);
}

/* ---------------------------------------------------------------- registers */

#define ALL 0xffffffffu
const struct reg_def pfifo_g80_regs[] = {
	/* INTR (rnndb): CACHE_ERROR 0, BAR_FAULT 4, PEEPHOLE_FAULT 6,
	 * PIO_ERROR 8, DMA_PUSHER 12, SEMAPHORE 20, NOTIFY 30 (G84+), the UNK
	 * bits; write 1 to clear. */
	{ { R_INTR, "G80_PFIFO_INTR", 0, 0, 0x7fff1f51u, NULL, pfifo_wr_intr }, PF_G80, 0 },
	{ { R_INTR_EN, "G80_PFIFO_INTR_EN", 0, 0x7fff1f51u, 0, NULL, pfifo_wr_intr }, PF_G80, 0 },
	{ { R_RAMHT, "G80_PFIFO_RAMHT", 0, 0x1fffffffu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_FREEZE, "G80_PFIFO_FREEZE", 0, 0x1u, 0, NULL, wr_freeze }, PF_G80, 0 },
	{ { 0x250c, "G80_PFIFO_CHSW_DEBUG_1", 0, ALL, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_PULL1, "G80_PFIFO_CACHE1_PULL1", 0, 0xbfu, 0, NULL, pfifo_wr_kick }, PF_G80, 0 },
	{ { R_SEMAPHORE, "G80_PFIFO_CACHE1_SEMAPHORE", 0, 0xffff7fffu, 0, NULL, pfifo_wr_kick }, PF_G80, 0 },
	{ { R_G80_PLAYLIST_LEN, "G80_PFIFO_CACHE1_PLAYLIST_LEN", 0, 0xfffu, 0, NULL, wr_playlist_len }, PF_G80, 0 },
	{ { R_G80_PLAYLIST, "G80_PFIFO_CACHE1_PLAYLIST", 0, 0x3fffffffu, 0, NULL, NULL }, PF_G80, 0 },
	/* UNVERIFIED: KICK_CHANNEL unloads at once (nouveau polls it for a
	 * value other than 0xffffffff). */
	{ { R_G80_KICK_CHANNEL, "G80_PFIFO_CACHE1_KICK_CHANNEL", 0, ALL, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_FIFO_ENDIAN, "G80_PFIFO_CACHE1_FIFO_ENDIAN", 0, 0x3u, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_PUT_HIGH, "G80_PFIFO_CACHE1_DMA_PUT_HIGH", 0, 0xffu, 0, NULL, pfifo_wr_kick }, PF_G80, 0 },
	{ { R_G80_GET_HIGH, "G80_PFIFO_CACHE1_DMA_GET_HIGH", 0, 0xffu, 0, NULL, pfifo_wr_kick }, PF_G80, 0 },
	{ { R_G80_IB_PUT, "G80_PFIFO_CACHE1_IB_PUT", 0, ALL, 0, NULL, pfifo_wr_kick }, PF_G80, 0 },
	{ { R_G80_IB_GET, "G80_PFIFO_CACHE1_IB_GET", 0, ALL, 0, NULL, pfifo_wr_kick }, PF_G80, 0 },
	{ { R_G80_IB_ADDRESS, "G80_PFIFO_CACHE1_IB_ADDRESS_LOW", 0, 0xfffffffcu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_IB_CONFIG, "G80_PFIFO_CACHE1_IB_CONFIG", 0, ALL, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_METHOD_COUNT, "G80_PFIFO_CACHE1_METHOD_COUNT", 0, 0xffffffu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_MGET, "G80_PFIFO_CACHE1_DMA_MGET", 0, ALL, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_MGET_HIGH, "G80_PFIFO_CACHE1_DMA_MGET_HIGH", 0, 0x800000ffu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_GET_HIGH_RS, "G80_PFIFO_CACHE1_DMA_GET_HIGH_RDSHADOW", 0, 0xffu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_PUT_HIGH_RS, "G80_PFIFO_CACHE1_DMA_PUT_HIGH_RDSHADOW", 0, 0xffu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_PUT_HIGH_WS, "G80_PFIFO_CACHE1_DMA_PUT_HIGH_WRSHADOW", 0, 0xffu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G80_MGET_HIGH_RS, "G80_PFIFO_CACHE1_DMA_MGET_HIGH_RDSHADOW", 0, 0x800000ffu, 0, NULL, NULL }, PF_G80, 0 },
	{ { R_G84_SEM_ADDR_HIGH, "G84_PFIFO_CACHE1_SEMAPHORE_ADDRESS_HIGH", 0, 0xffu, 0, NULL, NULL }, PF_G84, 0 },
	{ { R_G84_SEM_ADDR_LOW, "G84_PFIFO_CACHE1_SEMAPHORE_ADDRESS_LOW", 0, 0xfffffffcu, 0, NULL, NULL }, PF_G84, 0 },
	{ { R_G84_SEM_SEQUENCE, "G84_PFIFO_CACHE1_SEMAPHORE_SEQUENCE", 0, ALL, 0, NULL, NULL }, PF_G84, 0 },
	{ { R_G84_CACHE_INST, "G84_PFIFO_CACHE1_CACHE_INST", 0, ALL, 0, NULL, NULL }, PF_G84, 0 },
	{ { R_G84_CHAN_INST, "G84_PFIFO_CACHE1_CHAN_INST", 0, 0x3fffffffu, 0, NULL, NULL }, PF_G84, 0 },
};
const size_t pfifo_g80_nregs = sizeof(pfifo_g80_regs) / sizeof(pfifo_g80_regs[0]);
