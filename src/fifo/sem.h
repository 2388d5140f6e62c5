/*
 * The semaphore unit the front ends share: the Volta PBDMA (SEM_EXECUTE,
 * SEMAPHORED), the NV04..NV40 puller (SEMAPHORE_ACQUIRE / RELEASE) and the
 * G80 puller (SEMAPHORE_TRIGGER). It holds what they do alike: the acquire
 * comparisons, the 32-bit semaphore word in little- or big-endian memory,
 * and the waiter (a write watch on the semaphore through the core's
 * mem_watch, woken without polling, and a deadline event on the core's
 * scheduler). Reductions live in src/engine/sem.c (the copy engine uses
 * them too). What differs per generation stays with the front end, as
 * tables from its encoding to enum sem_cmp, and its own error codes:
 *
 *   front end          encoding                       comparisons
 *   Volta PBDMA        SEM_EXECUTE OPERATION 2:0      0 EQ, 2 STRICT_GEQ, 3 CIRC_GEQ, 4 AND, 5 NOR
 *   NV04..NV40 puller  SEMAPHORE_ACQUIRE              EQ
 *   G84 puller         PULL1 ACQUIRE_MODE 7           0 EQ, 1 CIRC_GEQ (32-bit)
 *   G84 puller         SEMAPHORE_TRIGGER 2:0          1 EQ, 4 CIRC_GEQ (32-bit)
 *
 * A lower part: it knows the core, no front end.
 */
#ifndef NVM_FIFO_SEM_H
#define NVM_FIFO_SEM_H

#include "core/core.h"

enum sem_cmp {
	SEM_CMP_EQ = 0,     /* value == payload */
	SEM_CMP_STRICT_GEQ, /* value >= payload, unsigned */
	SEM_CMP_CIRC_GEQ,   /* value - payload >= 0 in wrapping (signed) arithmetic */
	SEM_CMP_AND,        /* value & payload != 0 */
	SEM_CMP_NOR,        /* ~(value | payload) != 0 */
	SEM_CMP_COUNT
};

/* Whether semaphore value v satisfies an acquire of payload pl, compared at
 * 32 or 64 bits. */
bool sem_acquire_ok(enum sem_cmp cmp, bool is64, uint64_t v, uint64_t pl);

/* The semaphore word at addr, in the channel's byte order (big_endian). */
bool sem_rd32(struct mem_space *m, uint64_t addr, bool big_endian, uint32_t *v);
bool sem_wr32(struct mem_space *m, uint64_t addr, bool big_endian, uint32_t v);

/* Arms a write watch on [addr, addr + len) of m for (fn, ctx, arg),
 * replacing one that (fn, ctx, arg) had; false when no memory is left for
 * it (the caller then looks again at once). */
bool sem_watch(struct mem_space *m, uint64_t addr, uint64_t len, mem_watch_fn fn, void *ctx, uint64_t arg);
/* Removes the watch of (fn, ctx, arg) on m. */
void sem_unwatch(struct mem_space *m, mem_watch_fn fn, void *ctx, uint64_t arg);

/* The waiter's deadline: an event at `when` in *ev (0: none), replacing the
 * one armed before. With `at` non-NULL, a deadline already armed for the
 * same time is kept (*at holds its time). flags: SCHED_BACKGROUND when the
 * wait must not keep an idle GPU busy. */
void sem_deadline(nvm_gpu *gpu, uint64_t *ev, uint64_t *at, uint64_t when, sched_fn fn, void *ctx, uint64_t arg,
                  unsigned flags);

#endif
