/*
 * Interrupt lines: a status register and an enable mask driving one PMC
 * input line (core.h "interrupt lines"), the pattern of PTIMER_INTR_0 /
 * INTR_EN_0, PFB NISO_INTR / NISO_INTR_EN and PFIFO_INTR_0 / INTR_EN_0.
 */
#include <string.h>

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

/* ---------------------------------------------------------------- the CPU interrupt tree */

uint32_t intr_tree_top(const struct intr_tree *t)
{
	uint32_t top = 0;
	for (unsigned i = 0; i < t->d->nleaf; i++)
		if (t->leaf[i] & t->en[i])
			top |= 1u << (i / t->d->leaf_per_top);
	return top;
}

bool intr_tree_pending(const struct intr_tree *t)
{
	return (intr_tree_top(t) & t->top_en) != 0;
}

/* The tree's output reaches the CPU with the PMC line (pmc_set_tree). */
static void tree_update(const struct intr_tree *t)
{
	pmc_set_tree(t->gpu, intr_tree_pending(t));
}

bool intr_tree_raise(struct intr_tree *t, unsigned v)
{
	if (!t->d)
		return false;
	if (v / 32u >= t->d->nleaf) {
		/* a guest-programmed vector beyond the leaves the model has (the
		 * PF tree's other leaves are not modelled) */
		emit(t->gpu, NVM_EV_UNMODELLED, "intr", "vector", v, v,
		     "interrupt vector %u is beyond CPU_INTR_LEAF(%u)", v, t->d->nleaf - 1);
		return false;
	}
	t->leaf[v / 32u] |= 1u << (v % 32u);
	tree_update(t);
	return true;
}

/* Which register of the tree addr is: the kind and the leaf index. */
enum tree_reg { TR_NONE, TR_LEAF, TR_EN_SET, TR_EN_CLEAR, TR_TOP, TR_TOP_EN_SET, TR_TOP_EN_CLEAR };

static enum tree_reg tree_decode(const struct intr_tree *t, uint32_t addr, unsigned *i)
{
	const struct intr_tree_desc *d = t->d;
	uint32_t off = addr - d->base;
	const uint32_t arr[3] = { d->leaf, d->leaf_en_set, d->leaf_en_clear };
	for (unsigned k = 0; k < 3; k++)
		if (off >= arr[k] && off < arr[k] + 4u * d->nleaf && !(off & 3u)) {
			*i = (off - arr[k]) / 4u;
			return (enum tree_reg)(TR_LEAF + k);
		}
	*i = 0;
	if (off == d->top)
		return TR_TOP;
	if (off == d->top_en_set)
		return TR_TOP_EN_SET;
	if (off == d->top_en_clear)
		return TR_TOP_EN_CLEAR;
	return TR_NONE;
}

static bool tree_read(void *ctx, uint32_t addr, uint32_t *val)
{
	const struct intr_tree *t = ctx;
	unsigned i;
	switch (tree_decode(t, addr, &i)) {
	case TR_LEAF: *val = t->leaf[i]; return true;
	case TR_EN_SET:
	case TR_EN_CLEAR: *val = t->en[i]; return true;
	case TR_TOP: *val = intr_tree_top(t); return true;
	case TR_TOP_EN_SET:
	case TR_TOP_EN_CLEAR: *val = t->top_en; return true;
	case TR_NONE: break;
	}
	return false;
}

static bool tree_write(void *ctx, uint32_t addr, uint32_t val)
{
	struct intr_tree *t = ctx;
	unsigned i;
	switch (tree_decode(t, addr, &i)) {
	case TR_LEAF: t->leaf[i] &= ~val; break; /* write 1 to clear */
	case TR_EN_SET: t->en[i] |= val; break;
	case TR_EN_CLEAR: t->en[i] &= ~val; break;
	case TR_TOP: return true; /* R-- */
	case TR_TOP_EN_SET: t->top_en |= val; break;
	case TR_TOP_EN_CLEAR: t->top_en &= ~val; break;
	case TR_NONE: return false;
	}
	tree_update(t);
	return true;
}

nvm_status intr_tree_init(struct intr_tree *t, nvm_gpu *gpu, const struct intr_tree_desc *d)
{
	*t = (struct intr_tree){ .d = d, .gpu = gpu };
	if (d->nleaf > INTR_TREE_MAX_LEAF || !d->leaf_per_top)
		return NVM_ERR_ARG;
	uint32_t lo = d->leaf, hi = d->top_en_clear + 4u;
	const struct reg_block b = { "intr", d->base + lo, hi - lo, NULL, 0, t, tree_read, tree_write, NULL, 0, NULL };
	return bus_add(gpu, &b);
}

/* ---------------------------------------------------------------- snapshots */

/* A line's own state is the mask it holds when no register does (its
 * status and enable registers are the bus's); the PMC line levels are the
 * core's PMC section. */
void intr_line_save(const struct intr_line *l, struct snap_w *w)
{
	snap_u32(w, l->en);
}

void intr_line_load(struct intr_line *l, struct snap_r *r, bool apply)
{
	uint32_t en = snap_get_u32(r);
	if (apply && !r->err)
		l->en = en;
}

void intr_tree_save(const struct intr_tree *t, struct snap_w *w)
{
	for (unsigned i = 0; i < INTR_TREE_MAX_LEAF; i++) {
		snap_u32(w, t->leaf[i]);
		snap_u32(w, t->en[i]);
	}
	snap_u32(w, t->top_en);
}

void intr_tree_load(struct intr_tree *t, struct snap_r *r, bool apply)
{
	uint32_t leaf[INTR_TREE_MAX_LEAF], en[INTR_TREE_MAX_LEAF];
	for (unsigned i = 0; i < INTR_TREE_MAX_LEAF; i++) {
		leaf[i] = snap_get_u32(r);
		en[i] = snap_get_u32(r);
	}
	uint32_t top_en = snap_get_u32(r);
	if (!apply || r->err)
		return;
	memcpy(t->leaf, leaf, sizeof(leaf));
	memcpy(t->en, en, sizeof(en));
	t->top_en = top_en;
}
