/*
 * Test environment for PFIFO of NV04..NV4x: sets the block up the way
 * nouveau's nv04/nv17/nv40 fifo and instmem code does (RAMHT at RAMIN
 * 0x10000, 32 KiB, search 128; RAMFC at 0x18000 or, on NV40, 0x20000;
 * RAMRO at 0x18800 / 0x18000), builds DMA objects, graph objects, RAMHT
 * entries and channels through the PRAMIN window, and pokes the USER area
 * as a driver does. Include after cmocka.h and bar0.h.
 */
#ifndef TEST_PFIFO_ENV_H
#define TEST_PFIFO_ENV_H

#include <stdbool.h>
#include <string.h>

#include "mem_back.h"
#include "nvmodel/pfifo.h"

#define PE_PRAMIN 0x700000u
#define PE_USER   0x800000u
#define PE_PB     0x100000u /* pushbuffers in system memory (PCI) */

/* PFIFO registers */
#define PE_INTR       0x2100u
#define PE_INTR_EN    0x2140u
#define PE_RAMHT      0x2210u
#define PE_RAMFC      0x2214u
#define PE_RAMRO      0x2218u
#define PE_RUNOUT_ST  0x2400u
#define PE_RUNOUT_PUT 0x2410u
#define PE_RUNOUT_GET 0x2420u
#define PE_CACHES     0x2500u
#define PE_MODE       0x2504u
#define PE_PUSH0      0x3200u
#define PE_PUSH1      0x3204u
#define PE_PUT        0x3210u
#define PE_STATUS     0x3214u
#define PE_DMA_PUSH   0x3220u
#define PE_DMA_FETCH  0x3224u
#define PE_DMA_STATE  0x3228u
#define PE_DMA_PUT    0x3240u
#define PE_DMA_GET    0x3244u
#define PE_REF        0x3248u
#define PE_SUBR       0x324cu
#define PE_PULL0      0x3250u
#define PE_PULL1      0x3254u
#define PE_HASH       0x3258u
#define PE_SEMAPHORE  0x326cu
#define PE_GET        0x3270u
#define PE_ENGINE     0x3280u
#define PE_DCOUNT     0x32a0u
#define PE_JMP_SHD    0x32a4u
#define PE_RSVD_SHD   0x32a8u
#define PE_DATA_SHD   0x32acu

#define PE_INTR_CACHE_ERROR (1u << 0)
#define PE_INTR_RUNOUT      (1u << 4)
#define PE_INTR_RUNOUT_OVF  (1u << 8)
#define PE_INTR_DMA_PUSHER  (1u << 12)
#define PE_INTR_SEMAPHORE   (1u << 20)

/* old-format commands (dma-pusher.rst "The commands - pre-GF100 format") */
#define PB_INC(sc, m, n)  ((uint32_t)(n) << 18 | (uint32_t)(sc) << 13 | (uint32_t)(m))
#define PB_NINC(sc, m, n) (0x40000000u | PB_INC(sc, m, n))
#define PB_OLD_JUMP(a)    (0x20000000u | (uint32_t)(a))
#define PB_JUMP(a)        ((uint32_t)(a) | 1u)
#define PB_CALL(a)        ((uint32_t)(a) | 2u)
#define PB_RETURN         0x00020000u
#define PB_SLI(mask)      (0x00010000u | (uint32_t)(mask) << 4)

struct penv {
	nvm_gpu *gpu;
	const char *chip;
	bool nv40, nv04;
	uint32_t nchan;
	uint32_t ramht, ramfc, ramro, ramfc_size;
	unsigned ramht_bits;
	uint32_t inst_next;
};

static inline void pe_wr(struct penv *e, uint32_t a, uint32_t v)
{
	wr(e->gpu, PE_PRAMIN + a, v);
}

static inline uint32_t pe_rd(struct penv *e, uint32_t a)
{
	return rd(e->gpu, PE_PRAMIN + a);
}

/* nv04_fifo_init / nv17_fifo_init / nv40_fifo_init */
static inline void pe_init(struct penv *e, const char *chip)
{
	memset(e, 0, sizeof(*e));
	e->chip = chip;
	e->nv40 = !strcmp(chip, "nv40") || !strcmp(chip, "nv41");
	e->nv04 = !strcmp(chip, "nv04");
	e->nchan = e->nv04 ? 16 : 32;
	nvm_config cfg = { .chip = chip, .vram_size = 16u << 20, .sysmem_size = 16u << 20 };
	assert_int_equal(nvm_open(&cfg, &e->gpu), NVM_OK);
#ifdef ENV_MEM
	assert_int_equal(env_back(e->gpu, ENV_MEM), NVM_OK);
#endif
	e->ramht = 0x10000;
	e->ramht_bits = 12;
	e->ramro = e->nv40 ? 0x18000 : 0x18800;
	e->ramfc = e->nv40 ? 0x20000 : 0x18000;
	bool large = !strcmp(chip, "nv17") || !strcmp(chip, "nv11");
	e->ramfc_size = e->nv40 ? 128 : large ? 64 : 32;
	e->inst_next = 0x30000;
	nvm_gpu *g = e->gpu;
	wr(g, 0x2040, 0xff);
	wr(g, 0x2044, e->nv40 ? 0x2101ffffu : 0x0101ffffu);
	wr(g, PE_RAMHT, (3u << 24) | ((e->ramht_bits - 9) << 16) | (e->ramht >> 8));
	wr(g, PE_RAMRO, e->ramro >> 8);
	if (e->nv40)
		wr(g, 0x2220, 0x00030002u);
	else
		wr(g, PE_RAMFC, (e->ramfc >> 8) | (large ? 0x10000u : 0));
	wr(g, PE_PUSH1, e->nchan - 1);
	wr(g, PE_INTR, 0xffffffffu);
	wr(g, PE_INTR_EN, 0xffffffffu);
	wr(g, PE_PUSH0, 1);
	wr(g, PE_PULL0, 1);
	wr(g, PE_CACHES, 1);
	wr(g, 0x140, 1); /* PMC_INTR_EN: hardware interrupts */
}

static inline void pe_fini(struct penv *e)
{
	nvm_close(e->gpu);
}

static inline uint32_t pe_alloc(struct penv *e, uint32_t size)
{
	uint32_t a = (e->inst_next + 15) & ~15u;
	e->inst_next = a + size;
	return a;
}

/* An NV04 DMA object (nouveau's nv04_dmaobj_bind): target 0 VRAM, 2 PCI,
 * 3 AGP; access 0 RW, 1 RO, 2 WO; linear. */
static inline uint32_t pe_dmaobj(struct penv *e, uint32_t cls, unsigned target, unsigned access, uint32_t start,
                                 uint32_t limit)
{
	uint32_t inst = pe_alloc(e, 16);
	uint32_t w0 = cls | 0x3000u | target << 16 | access << 14 | (start & 0xfffu) << 20;
	uint32_t w2 = (start & 0xfffff000u) | (access != 1 ? 2u : 0u);
	pe_wr(e, inst, w0);
	pe_wr(e, inst + 4, limit - start);
	pe_wr(e, inst + 8, w2);
	pe_wr(e, inst + 12, w2);
	return inst;
}

/* A graph object: its class in the first word. */
static inline uint32_t pe_grobj(struct penv *e, uint32_t cls)
{
	uint32_t inst = pe_alloc(e, 16);
	pe_wr(e, inst, cls);
	return inst;
}

/* nvkm_ramht_insert: the first free entry from the hash slot. */
static inline void pe_ramht_add(struct penv *e, uint32_t chid, uint32_t handle, uint32_t inst, unsigned engine)
{
	uint32_t ctx;
	assert_int_equal(nvm_pfifo_ramht_context(e->chip, inst, engine, chid, &ctx), NVM_OK);
	uint32_t n = 1u << e->ramht_bits, h = nvm_pfifo_ramht_hash(handle, chid, e->ramht_bits);
	for (uint32_t i = 0; i < n; i++) {
		uint32_t a = e->ramht + ((h + i) & (n - 1)) * 8;
		if (!pe_rd(e, a + 4)) {
			pe_wr(e, a, handle);
			pe_wr(e, a + 4, ctx);
			return;
		}
	}
	fail_msg("RAMHT full");
}

/* A graph object of class cls under handle in channel chid's RAMHT, for
 * engine (0 software, 1 PGRAPH); returns its instance. */
static inline uint32_t pe_object(struct penv *e, uint32_t chid, uint32_t handle, uint32_t cls, unsigned engine)
{
	uint32_t inst = pe_grobj(e, cls);
	pe_ramht_add(e, chid, handle, inst, engine);
	return inst;
}

/* A DMA channel as nouveau creates it (nv04/nv10/nv17/nv40 RAMFC write),
 * its pushbuffer at `offset` in the DMA object pb_inst. */
static inline void pe_dma_channel(struct penv *e, uint32_t chid, uint32_t pb_inst, uint32_t offset)
{
	uint32_t f = e->ramfc + chid * e->ramfc_size;
	uint32_t fetch = 0x78u | 0x6000u | 0x80000u; /* TRIG_128 | SIZE_128 | MAX_REQS_8 */
	pe_wr(e, f + 0x00, offset);
	pe_wr(e, f + 0x04, offset);
	if (e->nv40) {
		pe_wr(e, f + 0x0c, pb_inst >> 4);
		pe_wr(e, f + 0x18, 0x30000000u | fetch);
		pe_wr(e, f + 0x3c, 0x0001ffffu);
	} else if (e->nv04) {
		pe_wr(e, f + 0x08, pb_inst >> 4);
		pe_wr(e, f + 0x10, fetch);
	} else {
		pe_wr(e, f + 0x0c, pb_inst >> 4);
		pe_wr(e, f + 0x14, fetch);
	}
	wr(e->gpu, PE_MODE, rd(e->gpu, PE_MODE) | 1u << chid);
}

/* The channel's USER (control) area: NV40's DMA area at 0xc00000. */
static inline uint32_t pe_user(struct penv *e, uint32_t chid)
{
	return e->nv40 ? 0xc00000u + chid * 0x1000u : PE_USER + chid * 0x10000u;
}

static inline void pe_put(struct penv *e, uint32_t chid, uint32_t put)
{
	wr(e->gpu, pe_user(e, chid) + 0x40, put);
}

static inline void pe_pio(struct penv *e, uint32_t chid, uint32_t subch, uint32_t method, uint32_t data)
{
	wr(e->gpu, PE_USER + chid * 0x10000u + subch * 0x2000u + method, data);
}

/* Writes n pushbuffer words at byte offset off of system memory PE_PB. */
static inline void pe_pb(struct penv *e, uint32_t off, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		assert_int_equal(nvm_mem_wr32(e->gpu, NVM_AP_SYSMEM, PE_PB + off + 4 * i, w[i]), NVM_OK);
}

static inline const char *pe_run(struct penv *e, uint64_t ns)
{
	nvm_run_opts o = { .ns = ns, .flags = NVM_RUN_UNTIL_IDLE };
	return nvm_run_status_str(nvm_run(e->gpu, &o));
}

static inline size_t pe_log(struct penv *e, const char *engine, nvm_method *out, size_t max)
{
	size_t n = 0;
	assert_int_equal(nvm_method_log_read(e->gpu, engine, 0, out, max, &n, NULL), NVM_OK);
	return n;
}

/* A DMA channel with its pushbuffer (PCI, the whole 1 MiB at PE_PB), a
 * PGRAPH object of class cls bound by handle 0xbeef0000 + chid. */
static inline uint32_t pe_std_channel(struct penv *e, uint32_t chid, uint32_t cls)
{
	uint32_t pb = pe_dmaobj(e, 0x3d, 2, 0, PE_PB, PE_PB + 0xfffff);
	pe_dma_channel(e, chid, pb, 0);
	uint32_t gr = pe_grobj(e, cls);
	pe_ramht_add(e, chid, 0xbeef0000u + chid, gr, 1);
	return gr;
}

#endif
