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
	l->enable = d->enable_fn ? NULL : bus_reg(gpu, d->enable);
}

uint32_t intr_pending(const struct intr_line *l)
{
	uint32_t st = l->status ? *l->status : l->d->status_fn(l->ctx);
	uint32_t en = l->enable ? *l->enable : l->d->enable_fn(l->ctx);
	return st & en;
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
