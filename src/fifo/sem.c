/* The shared semaphore unit (sem.h). */
#include "sem.h"

bool sem_acquire_ok(enum sem_cmp cmp, bool is64, uint64_t v, uint64_t pl)
{
	uint64_t mask = is64 ? ~0ull : 0xffffffffull;
	v &= mask;
	pl &= mask;
	switch (cmp) {
	case SEM_CMP_EQ: return v == pl;
	case SEM_CMP_STRICT_GEQ: return v >= pl;
	case SEM_CMP_CIRC_GEQ: return is64 ? (int64_t)(v - pl) >= 0 : (int32_t)(uint32_t)(v - pl) >= 0;
	case SEM_CMP_AND: return (v & pl) != 0;
	default: return (~(v | pl) & mask) != 0; /* NOR */
	}
}

static uint32_t le32(const uint8_t *b)
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint32_t swap32(uint32_t v)
{
	return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

bool sem_rd32(struct mem_space *m, uint64_t addr, bool big_endian, uint32_t *v)
{
	uint8_t b[4];
	if (mem_read(m, addr, b, 4))
		return false;
	*v = big_endian ? swap32(le32(b)) : le32(b);
	return true;
}

bool sem_wr32(struct mem_space *m, uint64_t addr, bool big_endian, uint32_t v)
{
	if (big_endian)
		v = swap32(v);
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	return !mem_write(m, addr, b, 4);
}

bool sem_watch(struct mem_space *m, uint64_t addr, uint64_t len, mem_watch_fn fn, void *ctx, uint64_t arg)
{
	mem_watch_del(m, fn, ctx, arg);
	return !mem_watch_add(m, addr, len, fn, ctx, arg);
}

void sem_unwatch(struct mem_space *m, mem_watch_fn fn, void *ctx, uint64_t arg)
{
	mem_watch_del(m, fn, ctx, arg);
}

void sem_deadline(nvm_gpu *gpu, uint64_t *ev, uint64_t *at, uint64_t when, sched_fn fn, void *ctx, uint64_t arg,
                  unsigned flags)
{
	if (at && *ev && *at == when)
		return;
	if (*ev)
		sched_cancel(gpu, *ev);
	if (at)
		*at = when;
	*ev = sched_at(gpu, when, fn, ctx, arg, flags);
}
