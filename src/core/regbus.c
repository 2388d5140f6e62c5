/*
 * The BAR0 register bus: one shared read/write path over per-block register
 * tables {offset, name, reset, writable mask, write-1-to-clear mask, handler}.
 *
 * Lookup is two binary searches (block by base, register by offset), so a
 * block table can be as large as the manual's list without a switch ladder.
 * Unknown offsets read 0 and are reported as NVM_EV_UNMODELLED; they never
 * fail, because real hardware answers every BAR0 read.
 */
#include <stdlib.h>
#include <string.h>

#include "core.h"

static struct reg_block *find_block(const struct regbus *bus, uint32_t addr)
{
	size_t lo = 0, hi = bus->nblocks;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct reg_block *b = &bus->blocks[mid];
		if (addr < b->base)
			hi = mid;
		else if (addr - b->base >= b->size)
			lo = mid + 1;
		else
			return b;
	}
	return NULL;
}

static const struct reg_desc *find_reg(const struct reg_block *b, uint32_t addr, size_t *idx)
{
	size_t lo = 0, hi = b->nregs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t off = b->regs[mid].offset;
		if (addr < off)
			hi = mid;
		else if (addr > off)
			lo = mid + 1;
		else {
			*idx = mid;
			return &b->regs[mid];
		}
	}
	return NULL;
}

nvm_status bus_add(nvm_gpu *gpu, const struct reg_block *blk)
{
	struct regbus *bus = &gpu->bus;
	if (!blk || !blk->size || blk->base >= BAR0_SIZE || blk->size > BAR0_SIZE - blk->base)
		return NVM_ERR_ARG;
	for (size_t i = 0; i < blk->nregs; i++) {
		uint32_t off = blk->regs[i].offset;
		if ((off & 3) || off < blk->base || off - blk->base >= blk->size)
			return NVM_ERR_ARG;
		if (i && off <= blk->regs[i - 1].offset)
			return NVM_ERR_ARG;
	}
	for (size_t a = 0; a < blk->narrays; a++) {
		const struct reg_array *ra = &blk->arrays[a];
		uint64_t end = (uint64_t)ra->base + (uint64_t)ra->stride * ra->count;
		if (!ra->vals || !ra->count || !ra->stride || (ra->stride & 3) || ra->base < blk->base ||
		    end > (uint64_t)blk->base + blk->size)
			return NVM_ERR_ARG;
		for (size_t i = 0; i < ra->nregs; i++) {
			uint32_t off = ra->regs[i].offset;
			if ((off & 3) || off >= ra->stride || (i && off <= ra->regs[i - 1].offset))
				return NVM_ERR_ARG;
		}
		bool zero = true;
		for (size_t i = 0; i < ra->nregs; i++)
			zero = zero && !ra->regs[i].reset;
		if (zero) /* the common case (PCCSR's 4096 channels): one memset per GPU open */
			memset(ra->vals, 0, (size_t)ra->count * ra->nregs * sizeof(*ra->vals));
		else { /* the first element's values, then copies of them */
			for (size_t i = 0; i < ra->nregs; i++)
				ra->vals[i] = ra->regs[i].reset;
			for (uint32_t e = 1; e < ra->count; e++)
				memcpy(&ra->vals[e * ra->nregs], ra->vals, ra->nregs * sizeof(*ra->vals));
		}
	}
	for (size_t i = 0; i < bus->nblocks; i++) {
		const struct reg_block *o = &bus->blocks[i];
		if (blk->base < o->base + o->size && o->base < blk->base + blk->size)
			return NVM_ERR_ARG;
	}
	if (bus->nblocks == bus->cap) {
		size_t cap = bus->cap ? bus->cap * 2 : 16;
		struct reg_block *nb = realloc(bus->blocks, cap * sizeof(*nb));
		if (!nb)
			return NVM_ERR_NOMEM;
		bus->blocks = nb;
		bus->cap = cap;
	}
	uint32_t *vals = calloc(blk->nregs ? blk->nregs : 1, sizeof(uint32_t));
	if (!vals)
		return NVM_ERR_NOMEM;
	for (size_t i = 0; i < blk->nregs; i++)
		vals[i] = blk->regs[i].reset;
	size_t pos = 0;
	while (pos < bus->nblocks && bus->blocks[pos].base < blk->base)
		pos++;
	memmove(&bus->blocks[pos + 1], &bus->blocks[pos], (bus->nblocks - pos) * sizeof(*bus->blocks));
	bus->blocks[pos] = *blk;
	bus->blocks[pos].vals = vals;
	bus->nblocks++;
	return NVM_OK;
}

void bus_fini(struct regbus *bus)
{
	for (size_t i = 0; i < bus->nblocks; i++)
		free(bus->blocks[i].vals);
	free(bus->blocks);
	memset(bus, 0, sizeof(*bus));
}

/* A register of one of the block's arrays: its descriptor and value slot. */
static const struct reg_desc *find_array_reg(const struct reg_block *b, uint32_t addr, uint32_t **val)
{
	for (size_t a = 0; a < b->narrays; a++) {
		const struct reg_array *ra = &b->arrays[a];
		if (addr < ra->base || (addr - ra->base) / ra->stride >= ra->count)
			continue;
		uint32_t e = (addr - ra->base) / ra->stride, rel = (addr - ra->base) % ra->stride;
		size_t lo = 0, hi = ra->nregs;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (rel < ra->regs[mid].offset)
				hi = mid;
			else if (rel > ra->regs[mid].offset)
				lo = mid + 1;
			else {
				/* A slot without a name is the block's own state, not a
				 * register (a generation that lacks a register its
				 * ancestors' table order has). */
				if (!ra->regs[mid].name)
					return NULL;
				*val = &ra->vals[e * ra->nregs + mid];
				return &ra->regs[mid];
			}
		}
		return NULL;
	}
	return NULL;
}

/* The register at addr in block b (table first, then arrays) and its slot. */
static const struct reg_desc *block_reg(struct reg_block *b, uint32_t addr, uint32_t **val)
{
	size_t idx;
	const struct reg_desc *r = find_reg(b, addr, &idx);
	if (r) {
		*val = &b->vals[idx];
		return r;
	}
	return find_array_reg(b, addr, val);
}

uint32_t *bus_reg(nvm_gpu *gpu, uint32_t addr)
{
	struct reg_block *b = find_block(&gpu->bus, addr);
	uint32_t *v;
	return b && block_reg(b, addr, &v) ? v : NULL;
}

uint32_t bus_get(nvm_gpu *gpu, uint32_t addr)
{
	uint32_t *p = bus_reg(gpu, addr);
	return p ? *p : 0;
}

void bus_set(nvm_gpu *gpu, uint32_t addr, uint32_t v)
{
	uint32_t *p = bus_reg(gpu, addr);
	if (p)
		*p = v;
}

const char *bus_reg_name(const nvm_gpu *gpu, uint32_t addr)
{
	struct reg_block *b = find_block(&gpu->bus, addr);
	uint32_t *v;
	const struct reg_desc *r = b ? block_reg(b, addr, &v) : NULL;
	return r ? r->name : NULL;
}

static nvm_status check_addr(uint32_t addr)
{
	if (addr >= BAR0_SIZE)
		return NVM_ERR_RANGE;
	if (addr & 3)
		return NVM_ERR_ALIGN;
	return NVM_OK;
}

/* Checks addr and finds its block and register (either may be NULL). */
static nvm_status lookup(nvm_gpu *gpu, uint32_t addr, struct reg_block **b, const struct reg_desc **r, uint32_t **val)
{
	nvm_status st = check_addr(addr);
	if (st)
		return st;
	*b = find_block(&gpu->bus, addr);
	*r = *b ? block_reg(*b, addr, val) : NULL;
	return NVM_OK;
}

nvm_status bus_read(nvm_gpu *gpu, uint32_t addr, uint32_t *val)
{
	struct reg_block *b;
	const struct reg_desc *r;
	uint32_t *slot;
	nvm_status st = lookup(gpu, addr, &b, &r, &slot);
	if (st)
		return st;
	if (r) {
		*val = r->read ? r->read(b->ctx, r, *slot) : *slot;
		return NVM_OK;
	}
	if (b && b->win_read && b->win_read(b->ctx, addr, val))
		return NVM_OK;
	*val = 0;
	emit(gpu, NVM_EV_UNMODELLED, b ? b->name : "bus", "unknown_reg_read", addr, 0,
	     "read of unmodelled register 0x%06x returns 0", addr);
	return NVM_OK;
}

nvm_status bus_write(nvm_gpu *gpu, uint32_t addr, uint32_t val)
{
	struct reg_block *b;
	const struct reg_desc *r;
	uint32_t *stored;
	nvm_status st = lookup(gpu, addr, &b, &r, &stored);
	if (st)
		return st;
	if (emit_wanted(gpu, NVM_EV_MMIO))
		emit(gpu, NVM_EV_MMIO, b ? b->name : "bus", "wr32", addr, val, "%s <- 0x%08x", r ? r->name : "?", val);
	if (r) {
		uint32_t old = *stored;
		uint32_t v = (old & ~r->wmask) | (val & r->wmask);
		v &= ~(val & r->w1c);
		*stored = v;
		if (r->write)
			r->write(b->ctx, r, stored, old, val);
		return NVM_OK;
	}
	if (b && b->win_write && b->win_write(b->ctx, addr, val))
		return NVM_OK;
	emit(gpu, NVM_EV_UNMODELLED, b ? b->name : "bus", "unknown_reg_write", addr, val,
	     "write of 0x%08x to unmodelled register 0x%06x ignored", val, addr);
	return NVM_OK;
}

/* Host accesses: the FB pause hold, then the shared path. Both may emit
 * (and handlers may raise interrupts), so they are bracketed public calls. */
nvm_status nvm_reg_read(nvm_gpu *gpu, uint32_t addr, uint32_t *val)
{
	if (!gpu || !val)
		return NVM_ERR_ARG;
	api_enter(gpu);
	nvm_status st = hold_check(gpu, NVM_HOLD_MMIO, "MMIO", addr);
	if (!st)
		st = bus_read(gpu, addr, val);
	api_leave(gpu);
	return st;
}

nvm_status nvm_reg_write(nvm_gpu *gpu, uint32_t addr, uint32_t val)
{
	if (!gpu)
		return NVM_ERR_ARG;
	api_enter(gpu);
	nvm_status st = hold_check(gpu, NVM_HOLD_MMIO, "MMIO", addr);
	if (!st)
		st = bus_write(gpu, addr, val);
	api_leave(gpu);
	return st;
}

const char *nvm_reg_name(const nvm_gpu *gpu, uint32_t addr)
{
	return gpu ? bus_reg_name(gpu, addr) : NULL;
}
