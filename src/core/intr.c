/*
 * Interrupt lines: a status register and an enable mask driving one PMC
 * input line (core.h "interrupt lines"), the pattern of PTIMER_INTR_0 /
 * INTR_EN_0, PFB NISO_INTR / NISO_INTR_EN and PFIFO_INTR_0 / INTR_EN_0.
 */
#include "core.h"

void intr_init(struct intr_line *l, nvm_gpu *gpu, const struct intr_desc *d, void *ctx)
{
	l->d = d;
	l->gpu = gpu;
	l->ctx = ctx;
	l->status = d->status_fn ? NULL : bus_reg(gpu, d->status);
	l->en = 0;
	l->enable = d->enable_fn ? NULL : d->enable ? bus_reg(gpu, d->enable) : &l->en;
}

uint32_t intr_pending(const struct intr_line *l)
{
	uint32_t st = l->status ? *l->status : l->d->status_fn(l->ctx);
	return st & intr_enabled(l);
}

void intr_update(const struct intr_line *l)
{
	pmc_set_line(l->gpu, l->d->pmc_bit, intr_pending(l) != 0);
}

void intr_raise(const struct intr_line *l, uint32_t bits)
{
	if (l->status)
		*l->status |= bits;
	intr_update(l);
}

void intr_enable_set(struct intr_line *l, uint32_t bits)
{
	l->en |= bits;
	intr_update(l);
}

void intr_enable_clear(struct intr_line *l, uint32_t bits)
{
	l->en &= ~bits;
	intr_update(l);
}
