/*
 * The snapshot tests' one check (issue 22 item 3): a run continued from a
 * snapshot is identical, event for event, to the run that was never
 * interrupted.
 *
 * A case is a GPU (chip, config), a set-up and a list of steps (driver
 * actions: register and memory writes, nvm_run of some nanoseconds). The
 * harness runs the whole case once on GPU A, recording every hook event.
 * Then, for each cut k, it runs steps 0..k-1 on B, saves B with
 * nvm_snapshot_save, loads the bytes into a fresh GPU C (with nothing done
 * to it but nvm_open), runs steps k.. on C and checks that
 *   - C's events are exactly A's events after the cut (type, time, block,
 *     code, address, value and message);
 *   - C and A end in the same state: their final snapshots are the same
 *     bytes (registers, memory, engines and their method logs, events,
 *     every block's state);
 *   - a snapshot of C taken at once after the load is B's snapshot again.
 * A step must not keep pointers into the GPU between steps (the driver's
 * state lives in the GPU's memory and registers, or in the step's index).
 */
#ifndef NVM_TEST_SNAP_TRACE_H
#define NVM_TEST_SNAP_TRACE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvmodel/nvmodel.h"
#include "snap_bytes.h"

struct snap_case {
	const char *name;
	nvm_config cfg;
	void (*setup)(nvm_gpu *gpu);
	void (*step)(nvm_gpu *gpu, unsigned i);
	unsigned nsteps;
	/* Optional, for memory the caller owns (nvm_mem_map_*): attach maps
	 * it into a GPU just opened (role 0 the whole run A, 1 the saved B, 2
	 * the restored C), before the set-up or the load; carry copies what
	 * the caller keeps of B into C's, before the load (the snapshot holds
	 * only where that memory is). */
	void (*attach)(nvm_gpu *gpu, unsigned role);
	void (*carry)(unsigned from, unsigned to);
};

/* One recorded event, as a line of text. */
struct snap_trace {
	char **line;
	size_t n, cap;
};

static void snap_trace_hook(void *user, const nvm_event *ev)
{
	struct snap_trace *t = user;
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 256;
		t->line = realloc(t->line, t->cap * sizeof(*t->line));
		assert_non_null(t->line);
	}
	char buf[512];
	snprintf(buf, sizeof(buf), "%d %llu %s %s %llx %llx %s", (int)ev->type, (unsigned long long)ev->time_ns,
	         ev->block, ev->code, (unsigned long long)ev->addr, (unsigned long long)ev->value,
	         ev->message ? ev->message : "");
	t->line[t->n] = strdup(buf);
	assert_non_null(t->line[t->n]);
	t->n++;
}

static void snap_trace_free(struct snap_trace *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->line[i]);
	free(t->line);
	memset(t, 0, sizeof(*t));
}

static nvm_gpu *snap_case_open(const struct snap_case *c, struct snap_trace *t, unsigned role)
{
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&c->cfg, &gpu), NVM_OK);
	if (c->attach)
		c->attach(gpu, role);
	int id;
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_ALL, snap_trace_hook, t, &id), NVM_OK);
	return gpu;
}

/* Runs the case whole, and cut at every step; returns how many cuts were
 * checked. */
static unsigned snap_case_check(const struct snap_case *c)
{
	struct snap_trace ta = { 0 };
	nvm_gpu *a = snap_case_open(c, &ta, 0);
	c->setup(a);
	size_t *mark = calloc(c->nsteps + 1, sizeof(*mark)); /* A's events before step k */
	assert_non_null(mark);
	for (unsigned i = 0; i < c->nsteps; i++) {
		mark[i] = ta.n;
		c->step(a, i);
	}
	mark[c->nsteps] = ta.n;
	size_t alen;
	uint8_t *afinal = snap_of(a, &alen);
	for (unsigned k = 0; k <= c->nsteps; k++) {
		struct snap_trace tb = { 0 }, tc = { 0 };
		nvm_gpu *b = snap_case_open(c, &tb, 1);
		c->setup(b);
		for (unsigned i = 0; i < k; i++)
			c->step(b, i);
		size_t blen;
		uint8_t *bsnap = snap_of(b, &blen);
		nvm_gpu *cg = snap_case_open(c, &tc, 2);
		if (c->carry)
			c->carry(1, 2);
		nvm_status st = nvm_snapshot_load(cg, bsnap, blen);
		if (st)
			fail_msg("%s: cut %u: load: %s", c->name, k, nvm_status_str(st));
		size_t clen;
		uint8_t *again = snap_of(cg, &clen);
		if (clen != blen || memcmp(again, bsnap, blen))
			fail_msg("%s: cut %u: the restored GPU saves to other bytes", c->name, k);
		for (unsigned i = k; i < c->nsteps; i++)
			c->step(cg, i);
		size_t want = ta.n - mark[k];
		for (size_t i = 0; i < tc.n && i < want; i++)
			if (strcmp(tc.line[i], ta.line[mark[k] + i]))
				fail_msg("%s: cut %u: event %zu after the cut differs:\n  run: %s\n  restored: %s",
				         c->name, k, i, ta.line[mark[k] + i], tc.line[i]);
		if (tc.n != want)
			fail_msg("%s: cut %u: %zu events after the cut, the whole run had %zu", c->name, k, tc.n, want);
		uint8_t *cfinal = snap_of(cg, &clen);
		if (clen != alen || memcmp(cfinal, afinal, alen))
			fail_msg("%s: cut %u: the final state differs from the whole run's", c->name, k);
		free(cfinal);
		free(again);
		free(bsnap);
		nvm_close(cg);
		nvm_close(b);
		snap_trace_free(&tb);
		snap_trace_free(&tc);
	}
	free(afinal);
	free(mark);
	nvm_close(a);
	snap_trace_free(&ta);
	return c->nsteps + 1;
}

#endif
