/*
 * Virtual time: a binary min-heap of events ordered by (time, sequence).
 * The sequence number makes events scheduled for the same nanosecond run in
 * the order they were scheduled, so runs are deterministic.
 */
#include <stdlib.h>

#include "core.h"

static bool ev_before(const struct sched_ev *a, const struct sched_ev *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

static void swap_ev(struct sched_ev *a, struct sched_ev *b)
{
	struct sched_ev t = *a;
	*a = *b;
	*b = t;
}

static void sift_up(struct sched *s, size_t i)
{
	while (i && ev_before(&s->heap[i], &s->heap[(i - 1) / 2])) {
		swap_ev(&s->heap[i], &s->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
}

static void sift_down(struct sched *s, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < s->n && ev_before(&s->heap[l], &s->heap[m]))
			m = l;
		if (r < s->n && ev_before(&s->heap[r], &s->heap[m]))
			m = r;
		if (m == i)
			return;
		swap_ev(&s->heap[i], &s->heap[m]);
		i = m;
	}
}

uint64_t sched_at(nvm_gpu *gpu, uint64_t when, sched_fn fn, void *ctx, uint64_t arg, unsigned flags)
{
	struct sched *s = &gpu->sched;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct sched_ev *h = realloc(s->heap, cap * sizeof(*h));
		if (!h)
			return 0;
		s->heap = h;
		s->cap = cap;
	}
	if (when < gpu->now)
		when = gpu->now;
	struct sched_ev *e = &s->heap[s->n];
	e->time = when;
	uint64_t id = ++s->next_seq;
	e->seq = id;
	e->fn = fn;
	e->ctx = ctx;
	e->arg = arg;
	e->flags = flags;
	if (!(flags & SCHED_BACKGROUND))
		s->foreground++;
	sift_up(s, s->n++);
	return id;
}

static void remove_at(struct sched *s, size_t i)
{
	if (!(s->heap[i].flags & SCHED_BACKGROUND))
		s->foreground--;
	s->heap[i] = s->heap[--s->n];
	if (i < s->n) {
		sift_down(s, i);
		sift_up(s, i);
	}
}

void sched_cancel(nvm_gpu *gpu, uint64_t id)
{
	struct sched *s = &gpu->sched;
	for (size_t i = 0; i < s->n; i++) {
		if (s->heap[i].seq == id) {
			remove_at(s, i);
			return;
		}
	}
}

bool sched_id_ok(const nvm_gpu *gpu, uint64_t id)
{
	return gpu->sched.load_seq ? id < gpu->sched.load_seq : id <= gpu->sched.next_seq;
}

void sched_clear(nvm_gpu *gpu)
{
	gpu->sched.n = gpu->sched.foreground = 0;
}

nvm_status sched_put(nvm_gpu *gpu, const struct sched_ev *ev)
{
	struct sched *s = &gpu->sched;
	uint64_t next = s->next_seq;
	s->next_seq = ev->seq - 1;
	uint64_t id = sched_at(gpu, ev->time, ev->fn, ev->ctx, ev->arg, ev->flags);
	s->next_seq = next;
	return id ? NVM_OK : NVM_ERR_NOMEM;
}

void sched_fini(struct sched *s)
{
	free(s->heap);
	s->heap = NULL;
	s->n = s->cap = s->foreground = 0;
}

bool nvm_idle(nvm_gpu *gpu)
{
	if (!gpu)
		return 1;
	if (gpu->sched.foreground)
		return 0;
	const struct chip_block *b = gpu->chip->blocks;
	for (size_t i = 0; i < CHIP_MAX_BLOCKS && b[i].cls; i++)
		if (b[i].cls->busy && gpu->blk[i] && b[i].cls->busy(gpu->blk[i]))
			return 0;
	return 1;
}

#define DEFAULT_MAX_EVENTS 10000000ull

void sched_charge(nvm_gpu *gpu, uint64_t units)
{
	gpu->work = gpu->work + units < gpu->work ? UINT64_MAX : gpu->work + units;
	gpu->work_total = gpu->work_total + units < gpu->work_total ? UINT64_MAX : gpu->work_total + units;
}

uint64_t nvm_work_done(const nvm_gpu *gpu)
{
	return gpu ? gpu->work_total : 0;
}

uint64_t sched_budget_left(const nvm_gpu *gpu)
{
	if (!gpu->running)
		return UINT64_MAX;
	return gpu->work >= gpu->work_max ? 0 : gpu->work_max - gpu->work;
}

static nvm_run_status run_loop(nvm_gpu *gpu, const nvm_run_opts *opts, uint64_t end)
{
	struct sched *s = &gpu->sched;
	for (;;) {
		if ((opts->flags & NVM_RUN_UNTIL_IDLE) && nvm_idle(gpu))
			return NVM_RUN_IDLE;
		if (!s->n || s->heap[0].time > end) {
			gpu->now = end;
			return NVM_RUN_BUDGET;
		}
		if (gpu->work >= gpu->work_max) {
			emit(gpu, NVM_EV_GUEST_ERROR, "sched", "event_budget", 0, gpu->work,
			     "%llu work units (events and block steps) without reaching the time budget: reported as a "
			     "hang",
			     (unsigned long long)gpu->work);
			return NVM_RUN_HANG;
		}
		struct sched_ev e = s->heap[0];
		remove_at(s, 0);
		gpu->now = e.time;
		e.fn(gpu, e.ctx, e.arg);
		sched_charge(gpu, 1);
		if (gpu->stop)
			return NVM_RUN_STOPPED;
	}
}

nvm_run_status nvm_run(nvm_gpu *gpu, const nvm_run_opts *opts)
{
	/* A run from inside a hook of a run would restart the budget and step
	 * blocks that are in the middle of an event: refused. */
	if (!gpu || !opts || gpu->running || gpu->closing)
		return NVM_RUN_STOPPED;
	uint64_t end = gpu->now + opts->ns < gpu->now ? UINT64_MAX : gpu->now + opts->ns;
	api_enter(gpu);
	gpu->work_max = opts->max_events ? opts->max_events : DEFAULT_MAX_EVENTS;
	gpu->work = 0;
	gpu->running = true;
	gpu->stop = false;
	nvm_run_status st = run_loop(gpu, opts, end);
	gpu->running = false;
	api_leave(gpu);
	return st;
}

const char *nvm_run_status_str(nvm_run_status st)
{
	switch (st) {
	case NVM_RUN_BUDGET: return "budget";
	case NVM_RUN_IDLE: return "idle";
	case NVM_RUN_HANG: return "hang";
	case NVM_RUN_STOPPED: return "stopped";
	}
	return "unknown";
}

uint64_t nvm_time_ns(const nvm_gpu *gpu)
{
	return gpu ? gpu->now : 0;
}

void nvm_stop(nvm_gpu *gpu)
{
	if (gpu)
		gpu->stop = true;
}
