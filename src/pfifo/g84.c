/*
 * PFIFO of G84, G92 and GT215 (rnndb fifo/g80_pfifo.xml G84 variants,
 * puller.rst "Semaphores", nouveau's g84 fifo code): G80 (g80.c) with RAMFC
 * and the saved cache anywhere in memory (CHAN_TABLE RAMFC_ADDR, RAMFC
 * CACHE_INST and CHAN_INST), the new-style semaphores (SEMAPHORE_ADDRESS,
 * SEQUENCE, TRIGGER with GEQUAL acquires, background acquire reads),
 * NOTIFY_INTR, WRCACHE_FLUSH and a 12-bit PLAYLIST_LEN. docs/g80.md.
 */
#include "fifo/sem.h"
#include "g80.h"

/* G84's state: G80's and the new-style semaphore registers. */
struct g84_pfifo {
	struct g80_pfifo g80;
	uint32_t *r_sem_hi, *r_sem_lo, *r_sem_seq;
};

static struct g84_pfifo *g84_of(struct pfifo *f)
{
	return (struct g84_pfifo *)f;
}

static uint64_t g84_sem_addr(const struct pfifo *f)
{
	const struct g84_pfifo *g = (const struct g84_pfifo *)f;
	return (uint64_t)(*g->r_sem_hi & 0xff) << 32 | *g->r_sem_lo;
}

/* ---------------------------------------------------------------- channels */

/* The channel descriptor in RAMFC CHAN_INST (nouveau writes inst >> 12). */
static uint32_t g84_chan_desc(struct pfifo *f, uint32_t chid)
{
	if (chid >= f->chip->nchan)
		return 0;
	return pfifo_chan_reg(f, chid, R_G84_CHAN_INST) & 0x3fffffffu;
}

/* RAMFC at CHAN_TABLE RAMFC_ADDR 23:0 << 8, TARGET 25:24. */
static void g84_ramfc_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	uint32_t e = g84_of(f)->g80.chan_table[chid];
	*addr = (uint64_t)FIELD_GET(e, 23, 0) << 8;
	*target = FIELD_GET(e, 25, 24);
}

/* The saved cache at CACHE_INST ADDRESS 29:0 << 10, TARGET 31:30 (rnndb;
 * nouveau writes cache->addr >> 10). */
static void g84_cache_where(struct pfifo *f, uint32_t chid, unsigned *target, uint64_t *addr)
{
	uint32_t ci = pfifo_chan_reg(f, chid, R_G84_CACHE_INST);
	*addr = (uint64_t)FIELD_GET(ci, 29, 0) << 10;
	*target = FIELD_GET(ci, 31, 30);
}

/* ---------------------------------------------------------------- semaphores */

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
	uint32_t chid = pfifo_chid(f), seq = *g84_of(f)->r_sem_seq, op = d & 7, v;
	uint64_t addr = g84_sem_addr(f);
	if (d == 2) {
		g80_wait_engine(f, t);
		uint64_t ts = ptimer_read(f->gpu);
		uint32_t w[4] = { seq, 0, (uint32_t)ts, (uint32_t)(ts >> 32) };
		for (unsigned i = 0; i < 4; i++)
			if (!g80_sem_rw(f, addr + 4 * i, G80_SEM_WRITE, &w[i]))
				return g80_sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault writing the long semaphore");
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "release", chid, seq,
		     "channel %u: long semaphore release 0x%08x at 0x%010llx", chid, seq, (unsigned long long)addr);
		return 1;
	}
	if (!trigger_cmp[op]) {
		emit(f->gpu, NVM_EV_GUEST_ERROR, "pfifo", "sem_trigger", chid, d,
		     "channel %u: SEMAPHORE_TRIGGER 0x%08x is no operation: PFIFO hangs on it", chid, d);
		return 0;
	}
	if (!g80_sem_rw(f, addr, G80_SEM_READ, &v))
		return g80_sem_fail(f, G80_SEM_MEM_FAULT, a, d, "VM fault reading the semaphore");
	enum sem_cmp cmp = (enum sem_cmp)(trigger_cmp[op] - 1);
	if (!sem_acquire_ok(cmp, false, v, seq))
		g80_acquire_wait(f, seq, true, cmp == SEM_CMP_CIRC_GEQ);
	return 1;
}

/* The puller's G84 methods 0x10-0x24, then G80's. */
static int g84_puller_method(struct pfifo *f, uint32_t a, uint32_t m, uint32_t d, uint64_t *t, uint32_t inst)
{
	uint32_t chid = pfifo_chid(f);
	switch (pusher_knows_method(f, m) ? m : 0xffffu) {
	case 0x10: /* SEMAPHORE_ADDRESS_HIGH */
		if (d & 0xffffff00u)
			return g80_sem_fail(f, G80_SEM_ADDRESS_TOO_LARGE, a, d, "address beyond 40 bits");
		*g84_of(f)->r_sem_hi = d;
		return 1;
	case 0x14: /* SEMAPHORE_ADDRESS_LOW */
		if (d & 3)
			return g80_sem_fail(f, G80_SEM_ADDRESS_UNALIGNED, a, d, "address not divisible by 4");
		*g84_of(f)->r_sem_lo = d;
		return 1;
	case 0x18: *g84_of(f)->r_sem_seq = d; return 1; /* SEMAPHORE_SEQUENCE */
	case 0x1c: return trigger(f, a, d, t);
	case 0x20: /* NOTIFY_INTR */
		emit(f->gpu, NVM_EV_TRACE, "pfifo", "notify", chid, d, "channel %u: NOTIFY_INTR", chid);
		pfifo_raise(f, INTR_G84_NOTIFY);
		return 1;
	case 0x24: /* WRCACHE_FLUSH: the model has no write post cache */ return 1;
	}
	return g80_puller_method(f, a, m, d, t, inst);
}

/* SEMAPHORE_ACQUIRE, and SEMAPHORE_TRIGGER but WRITE_LONG, make the
 * puller wait. */
static bool g84_acquires(uint32_t m, uint32_t d)
{
	return puller_acquires(m, d) || (m == 0x1c && (d & 7) != 2);
}

/* With PULL1 ACQUIRE_MODE (7) GEQUAL, greater or equal in wrapping 32-bit
 * arithmetic (puller.rst "Semaphores"). */
static bool g84_acquire_done(const struct pfifo *f, uint32_t v)
{
	bool gequal = FIELD_GET(*f->r_pull1, 7, 7);
	return sem_acquire_ok(gequal ? SEM_CMP_CIRC_GEQ : SEM_CMP_EQ, false, v, *f->r_acq_value);
}

/* ---------------------------------------------------------------- the generation */

static nvm_status g84_init(struct pfifo *f)
{
	nvm_status st = g80_init(f);
	struct g84_pfifo *g = g84_of(f);
	g->r_sem_hi = pfifo_reg_slot(f, R_G84_SEM_ADDR_HIGH);
	g->r_sem_lo = pfifo_reg_slot(f, R_G84_SEM_ADDR_LOW);
	g->r_sem_seq = pfifo_reg_slot(f, R_G84_SEM_SEQUENCE);
	return st;
}

/* RAMFC: G80's and 0x88..0x98. */
static const nvm_ramfc_field ramfc_g84_f[] = {
	G80_RAMFC_FIELDS,
	G80_RAMFC_FIELD("CACHE_INST", R_G84_CACHE_INST, 0x88),
	G80_RAMFC_FIELD("SEMAPHORE_ADDRESS_HIGH", R_G84_SEM_ADDR_HIGH, 0x8c),
	G80_RAMFC_FIELD("SEMAPHORE_ADDRESS_LOW", R_G84_SEM_ADDR_LOW, 0x90),
	G80_RAMFC_FIELD("SEMAPHORE_SEQUENCE", R_G84_SEM_SEQUENCE, 0x94),
	G80_RAMFC_FIELD("CHAN_INST", R_G84_CHAN_INST, 0x98),
};
static const struct ramfc_layout ramfc_g84 = { "g84", 0x100, ramfc_g84_f,
	                                       sizeof(ramfc_g84_f) / sizeof(ramfc_g84_f[0]) };

#define ALL 0xffffffffu
static const struct reg_desc regs_g84[] = {
	{ R_G84_SEM_ADDR_HIGH, "G84_PFIFO_CACHE1_SEMAPHORE_ADDRESS_HIGH", 0, 0xffu, 0, NULL, NULL },
	{ R_G84_SEM_ADDR_LOW, "G84_PFIFO_CACHE1_SEMAPHORE_ADDRESS_LOW", 0, 0xfffffffcu, 0, NULL, NULL },
	{ R_G84_SEM_SEQUENCE, "G84_PFIFO_CACHE1_SEMAPHORE_SEQUENCE", 0, ALL, 0, NULL, NULL },
	{ R_G84_CACHE_INST, "G84_PFIFO_CACHE1_CACHE_INST", 0, ALL, 0, NULL, NULL },
	{ R_G84_CHAN_INST, "G84_PFIFO_CACHE1_CHAN_INST", 0, 0x3fffffffu, 0, NULL, NULL },
};
static const struct reg_layer g84_regs = { regs_g84, sizeof(regs_g84) / sizeof(regs_g84[0]), NULL, 0 };
static const struct reg_layer *const layers_g84[] = {
	&pfifo_nv04_regs, &pfifo_nv10_regs, &pfifo_nv17_regs, &pfifo_nv40_regs, &pfifo_g80_regs, &g84_regs, NULL
};

static const struct pfifo_ops g84_ops = {
	.init = g84_init,
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
	.puller_method = g84_puller_method,
	.acquires = g84_acquires,
	.acquire_done = g84_acquire_done,
	.sem_where = g80_puller_sem_where,
	.big_endian = g80_big_endian,
	.step = pfifo_step,
	.pio_store = pusher_pio_store,
	.user_read = pusher_pio_read,
};

static const struct g80_impl g84_impl = {
	.chan_desc = g84_chan_desc,
	.ramfc_where = g84_ramfc_where,
	.cache_where = g84_cache_where,
	.playlist_len_hi = 11,
	.acq_source = true,
	.sem_addr = g84_sem_addr,
};

/* Engines beyond SOFTWARE and PGRAPH (rnndb g80_pfifo_engine, by chip;
 * seed 002's context selectors): G84 and G92 PMPEG 2, PVP2 4, PCIPHER 5,
 * PBSP 6; GT215 PPPP 2, PCOPY 3, PPDEC 4, PVLD 6 (PSEC 5 is MCP77:GT215).
 * Each is a recording engine (src/engine). */
static const char *const eng_g84[ENG_IDS] = { "software", "pgraph", "pmpeg", NULL, "pvp2", "pcipher", "pbsp" };
static const char *const eng_gt215[ENG_IDS] = { "software", "pgraph", "pppp", "pcopy", "ppdec", NULL, "pvld" };
#define ENGS_G84   (1u << ENG_PMPEG | 1u << ENG_PVP1 | 1u << ENG_G84_5 | 1u << ENG_G84_6)
#define ENGS_GT215 (1u << ENG_PMPEG | 1u << ENG_PME | 1u << ENG_PVP1 | 1u << ENG_G84_6)
#define G84_METHODS                                                                                                    \
	(G80_METHODS | PF_METHOD(0x10) | PF_METHOD(0x14) | PF_METHOD(0x18) | PF_METHOD(0x1c) | PF_METHOD(0x20) |       \
	 PF_METHOD(0x24))
#define G84_GEN(nm, engs, names)                                                                                       \
	{                                                                                                              \
		G80_GEN_COMMON, .name = nm, .methods = G84_METHODS, .ramfc = &ramfc_g84, .engines = engs,              \
		                .eng_names = names, .regs = layers_g84, .size = sizeof(struct g84_pfifo),              \
		                .ops = &g84_ops, .impl = &g84_impl                                                     \
	}
const struct pfifo_gen pfifo_g84 = G84_GEN("g84", ENGS_G84, eng_g84);
const struct pfifo_gen pfifo_g92 = G84_GEN("g92", ENGS_G84, eng_g84);
const struct pfifo_gen pfifo_gt215 = G84_GEN("gt215", ENGS_GT215, eng_gt215);
