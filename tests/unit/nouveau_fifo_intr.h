/*
 * nouveau's PFIFO interrupt handler of NV04..G84 as register accesses, in
 * the order and with the values nouveau uses (Linux
 * drivers/gpu/drm/nouveau/nvkm/engine/fifo/nv04.c: nv04_fifo_intr,
 * nv04_fifo_intr_cache_error, nv04_fifo_swmthd, nv04_fifo_intr_dma_pusher;
 * nv10, nv17, nv40, nv50 and g84 fifo use the same .intr). The tests drive
 * a condition on the model, call nfi_intr whenever PMC raises the PFIFO
 * line, and check that the model ends where hardware does. Include after
 * cmocka.h and bar0.h.
 */
#ifndef TEST_NOUVEAU_FIFO_INTR_H
#define TEST_NOUVEAU_FIFO_INTR_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* nouveau's device->card_type values the handler compares with */
enum nfi_card { NFI_NV04 = 0x04, NFI_NV10 = 0x10, NFI_NV40 = 0x40, NFI_NV50 = 0x50 };

/* What one or more handler runs saw and did. */
struct nfi {
	nvm_gpu *gpu;
	enum nfi_card card;
	uint32_t chid_mask; /* fifo->chid->mask: channels - 1 */
	unsigned cache_errors, dma_pushers, semaphores, nonstall, bar_faults;
	uint32_t masked;                             /* bits the catch-all disabled in INTR_EN */
	unsigned sw_calls;                           /* nvkm_sw_mthd calls (always "handled") */
	unsigned errors;                             /* CACHE_ERROR lines nouveau would print */
	uint32_t sw_chid, sw_subc, sw_mthd, sw_data; /* the last nvkm_sw_mthd call */
	uint32_t sw_log[8][2];                       /* the first 8 calls' method and data */
	uint32_t err_mthd, err_data;                 /* the last CACHE_ERROR entry */
	uint32_t dma_state;                          /* DMA_STATE the last DMA_PUSHER saw */
	bool busy;                                   /* the hook's handler is running */
	unsigned hook_calls;
};

/* Run the handler from an interrupt hook (1) or after runs (0). */
static int nfi_in_hook;

static inline void nfi_intr(struct nfi *n);

static inline void nfi_hook(void *user, const nvm_event *ev)
{
	struct nfi *n = user;
	if (!ev->value || n->busy)
		return;
	n->busy = true;
	for (int i = 0; i < 8 && (rd(n->gpu, 0x100) & 0x100); i++) {
		n->hook_calls++;
		nfi_intr(n);
	}
	n->busy = false;
}

static inline void nfi_init(struct nfi *n, nvm_gpu *gpu, enum nfi_card card, uint32_t nchan)
{
	memset(n, 0, sizeof(*n));
	n->gpu = gpu;
	n->card = card;
	n->chid_mask = nchan - 1;
	if (nfi_in_hook)
		assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_INTERRUPT), nfi_hook, n, NULL), NVM_OK);
}

/* nv04_fifo_swmthd: method 0 gives the subchannel to SOFTWARE (ENGINE
 * nibble cleared), methods 0 and 0x180..0x1fc pass CACHE1 HASH's instance
 * (low 16 bits), and every method of a SOFTWARE subchannel goes to
 * nvkm_sw_mthd (recorded here; it handles it). */
static inline bool nfi_swmthd(struct nfi *n, uint32_t chid, uint32_t addr, uint32_t data)
{
	uint32_t subc = (addr >> 13) & 7, mthd = addr & 0x1ffc, mask = 0xfu << (subc * 4);
	uint32_t engine = rd(n->gpu, 0x3280);
	if (mthd == 0) {
		engine &= ~mask;
		wr(n->gpu, 0x3280, engine);
	}
	if (mthd == 0 || (mthd >= 0x180 && mthd <= 0x1fc))
		data = rd(n->gpu, 0x3258) & 0xffff;
	if (mthd == 0 || mthd >= 0x100) {
		if (engine & mask)
			return false;
		if (n->sw_calls < 8) {
			n->sw_log[n->sw_calls][0] = mthd;
			n->sw_log[n->sw_calls][1] = data;
		}
		n->sw_calls++;
		n->sw_chid = chid;
		n->sw_subc = subc;
		n->sw_mthd = mthd;
		n->sw_data = data;
		return true;
	}
	return false;
}

/* nv04_fifo_intr_cache_error */
static inline void nfi_cache_error(struct nfi *n, uint32_t chid, uint32_t get)
{
	nvm_gpu *g = n->gpu;
	uint32_t pull0 = rd(g, 0x3250), ptr = (get & 0x7ff) >> 2;
	uint32_t base = n->card < NFI_NV40 ? 0x3800u : 0x90000u;
	uint32_t mthd = rd(g, base + ptr * 8), data = rd(g, base + ptr * 8 + 4);
	if (!(pull0 & 0x100) || !nfi_swmthd(n, chid, mthd, data)) {
		n->errors++;
		n->err_mthd = mthd;
		n->err_data = data;
	}
	wr(g, 0x3220, 0);
	wr(g, 0x2100, 0x1);
	wr(g, 0x3200, rd(g, 0x3200) & ~1u);
	wr(g, 0x3270, get + 4);
	wr(g, 0x3200, rd(g, 0x3200) | 1u);
	wr(g, 0x3258, 0);
	wr(g, 0x3220, rd(g, 0x3220) | 1u);
	wr(g, 0x3250, 1);
	n->cache_errors++;
}

/* nv04_fifo_intr_dma_pusher */
static inline void nfi_dma_pusher(struct nfi *n)
{
	nvm_gpu *g = n->gpu;
	uint32_t dma_get = rd(g, 0x3244), dma_put = rd(g, 0x3240);
	(void)rd(g, 0x3220);
	n->dma_state = rd(g, 0x3228);
	if (n->card == NFI_NV50) {
		uint32_t ho_get = rd(g, 0x3328), ho_put = rd(g, 0x3320);
		uint32_t ib_get = rd(g, 0x3334), ib_put = rd(g, 0x3330);
		wr(g, 0x3364, 0);
		if (dma_get != dma_put || ho_get != ho_put) {
			wr(g, 0x3244, dma_put);
			wr(g, 0x3328, ho_put);
		} else if (ib_get != ib_put) {
			wr(g, 0x3334, ib_put);
		}
	} else if (dma_get != dma_put) {
		wr(g, 0x3244, dma_put);
	}
	wr(g, 0x3228, 0);
	wr(g, 0x3220, 1);
	wr(g, 0x2100, 0x1000);
	n->dma_pushers++;
}

/* nv04_fifo_intr */
static inline void nfi_intr(struct nfi *n)
{
	nvm_gpu *g = n->gpu;
	uint32_t mask = rd(g, 0x2140), stat = rd(g, 0x2100) & mask;
	uint32_t reassign = rd(g, 0x2500) & 1;
	wr(g, 0x2500, 0);
	uint32_t chid = rd(g, 0x3204) & n->chid_mask, get = rd(g, 0x3270);
	if (stat & 0x1) {
		nfi_cache_error(n, chid, get);
		stat &= ~0x1u;
	}
	if (stat & 0x1000) {
		nfi_dma_pusher(n);
		stat &= ~0x1000u;
	}
	if (stat & 0x100000) {
		stat &= ~0x100000u;
		wr(g, 0x2100, 0x100000);
		uint32_t sem = rd(g, 0x326c);
		wr(g, 0x326c, sem | 1);
		wr(g, 0x3270, get + 4);
		wr(g, 0x3250, 1);
		n->semaphores++;
	}
	if (n->card == NFI_NV50) {
		if (stat & 0x10) {
			stat &= ~0x10u;
			wr(g, 0x2100, 0x10);
			n->bar_faults++;
		}
		if (stat & 0x40000000) {
			wr(g, 0x2100, 0x40000000);
			n->nonstall++;
			stat &= ~0x40000000u;
		}
	}
	if (stat) {
		n->masked |= stat;
		wr(g, 0x2140, rd(g, 0x2140) & ~stat);
		wr(g, 0x2100, stat);
	}
	wr(g, 0x2500, reassign);
}

/* Runs the GPU until idle, calling the handler whenever PMC's PFIFO line
 * (PMC_INTR 8) is up, as nouveau's interrupt path does; at most `max`
 * handler calls. Returns the calls made. */
static inline unsigned nfi_run(struct nfi *n, unsigned max)
{
	unsigned calls = 0;
	if (nfi_in_hook) {
		unsigned before = n->hook_calls;
		nvm_run_opts o = { .ns = 10000000, .flags = NVM_RUN_UNTIL_IDLE };
		nvm_run(n->gpu, &o);
		return n->hook_calls - before;
	}
	for (;;) {
		nvm_run_opts o = { .ns = 10000000, .flags = NVM_RUN_UNTIL_IDLE };
		nvm_run(n->gpu, &o);
		if (!(rd(n->gpu, 0x100) & 0x100) || calls == max)
			return calls;
		nfi_intr(n);
		calls++;
	}
}

#endif
