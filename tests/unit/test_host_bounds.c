/*
 * The Volta Host's bounds: a loop the guest builds out of the Host's own
 * work ends its run with a hang after a bounded amount of work (issue 23
 * item 5), and a write the model cannot do for want of simulated memory is
 * a `mem_budget` guest error (item 12). The tests count work (GP entries,
 * PB entries, work units), never wall time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"
#include "host/host_internal.h"
#include "host_env.h"

#define BUDGET 100000u /* work units of the runs below */

/* SEM_EXECUTE: OPERATION REDUCTION, REDUCTION INC, FORMAT UNSIGNED, RELEASE_WFI. */
#define SEM_INC (6u | 6u << 27 | 1u << 31 | 1u << 20)

static const char *run_budget(struct env *e, uint64_t max_events)
{
	nvm_run_opts o = { .ns = UINT64_MAX / 2, .flags = NVM_RUN_UNTIL_IDLE, .max_events = max_events };
	return nvm_run_status_str(nvm_run(e->gpu, &o));
}

/* A segment that increments the channel's own USERD GP_PUT (mapped at a VA)
 * by one, modulo the ring: every GP entry of the ring points at it, so each
 * entry the PBDMA takes publishes the next one. Returns the segment's VA. */
static uint64_t self_refilling_ring(struct env *e, struct env_chan *c)
{
	uint64_t uva = 0x300000000ull;
	uint64_t upage = c->userd & ~0xfffull; /* ver3 PTE (gh100): ADDRESS 51:12 | VALID, as env_map */
	ptb_map(&e->pt, uva, 4096, e->pt.v3 ? upage | 1 : ptb_pte(upage, 0, 0, 0));
	uint64_t gp_put = uva + (c->userd & 0xfff) + 0x8c;
	uint32_t pb[] = { HDR_INC(0, 0x5c, 4), (uint32_t)gp_put, (uint32_t)(gp_put >> 32), ENV_GP_ENTRIES - 1, 0,
		          HDR_INC(0, 0x6c, 1), SEM_INC };
	uint64_t va = env_pb(e, c, pb, 7);
	for (unsigned i = 0; i < ENV_GP_ENTRIES; i++)
		env_gp(e, c, va, 7, 0);
	return va;
}

/* Issue 23 item 5: a GP ring the channel refills itself never runs dry.
 * The run ends with a hang once its budget is spent, and the work done by
 * then is bounded by the budget: each GP entry costs HOST_UNITS_GP_ENTRY and
 * each semaphore HOST_UNITS_SEM (before, a step charged only its PB entries
 * and ran 16 Ki of them whatever the budget: millions of GP entries). */
static void gp_ring_refilled_by_the_channel_hangs(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	self_refilling_ring(&e, c);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->userd + 0x8c, 1); /* one entry published */
	e.gen->doorbell(&e, c);                               /* the generation's doorbell */
	nvm_host_stats s0, s1;
	assert_int_equal(nvm_host_get_stats(e.gpu, &s0), NVM_OK);
	assert_string_equal(run_budget(&e, BUDGET), "hang");
	assert_int_equal(nvm_host_get_stats(e.gpu, &s1), NVM_OK);
	uint64_t gp = s1.gp_entries - s0.gp_entries, sem = s1.sem_releases - s0.sem_releases;
	assert_true(gp > 1000); /* it did loop */
	assert_true(gp * HOST_UNITS_GP_ENTRY + sem * HOST_UNITS_SEM <= BUDGET + HOST_UNITS_GP_ENTRY + HOST_UNITS_SEM);
	assert_true(s1.pb_dwords - s0.pb_dwords <= 7 * gp);
	/* The next run goes on where this one stopped, and hangs again. */
	assert_string_equal(run_budget(&e, BUDGET), "hang");
	env_fini(&e);
}

/* The same loop on a runlist that lists its channel in two TSGs (a runlist
 * that refers to the same channel twice): the scheduler switches the channel
 * between them at every step, and each switch (context save and load) is
 * charged HOST_UNITS_CTXSW. */
static void runlist_listing_a_channel_twice_hangs(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 5);
	uint32_t w[16];
	env_rl_tsg(w, 1, 1, 1, 0); /* timeslices of 1 << 0 * 1 us */
	env_rl_chan(w + 4, c, 0);
	env_rl_tsg(w + 8, 2, 1, 1, 0);
	env_rl_chan(w + 12, c, 0);
	env_submit(&e, 0, w, 4);
	assert_string_equal(env_run(&e, 100000), "idle");
	self_refilling_ring(&e, c);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->userd + 0x8c, 1);
	e.gen->doorbell(&e, c); /* the generation's doorbell */
	nvm_host_stats s0, s1;
	assert_int_equal(nvm_host_get_stats(e.gpu, &s0), NVM_OK);
	assert_string_equal(run_budget(&e, BUDGET), "hang");
	assert_int_equal(nvm_host_get_stats(e.gpu, &s1), NVM_OK);
	uint64_t gp = s1.gp_entries - s0.gp_entries, sem = s1.sem_releases - s0.sem_releases;
	uint64_t sw = (s1.ctx_loads - s0.ctx_loads) + (s1.ctx_saves - s0.ctx_saves);
	assert_true(gp > 100);
	assert_true(gp * HOST_UNITS_GP_ENTRY + sem * HOST_UNITS_SEM + sw * HOST_UNITS_CTXSW <=
	            BUDGET + HOST_UNITS_GP_ENTRY + HOST_UNITS_SEM + HOST_UNITS_CTXSW);
	env_fini(&e);
}

/* ---------------------------------------------------------------- mem_budget */

struct seen {
	unsigned mem_budget, out_of_range;
};

static void on_err(void *user, const nvm_event *ev)
{
	struct seen *s = user;
	if (!strcmp(ev->code, "mem_budget") && !strcmp(ev->block, "pbdma"))
		s->mem_budget++;
	if (!strcmp(ev->code, "pa_out_of_range"))
		s->out_of_range++;
}

/* Opens a GPU whose memory budget is spent: every page written from now on
 * that was never written before fails with NVM_ERR_NOMEM. */
static void env_init_budget(struct env *e, struct seen *seen)
{
	memset(e, 0, sizeof(*e));
	nvm_config cfg = { .chip = "gv100",
		           .vram_size = 64ull << 20,
		           .sysmem_size = 64ull << 20,
		           .mem_budget = 2u << 20 };
	assert_int_equal(nvm_open(&cfg, &e->gpu), NVM_OK);
	ptb_init(&e->pt, e->gpu, NVM_AP_VRAM, 0x100000);
	e->va_next = 0x200000000ull;
	memset(seen, 0, sizeof(*seen));
	nvm_hook_add(e->gpu, NVM_EV_MASK(NVM_EV_GUEST_ERROR), on_err, seen, NULL);
}

static void env_spend_budget(struct env *e)
{
	uint64_t a = 32ull << 20;
	while (nvm_mem_wr32(e->gpu, NVM_AP_SYSMEM, a, 1) == NVM_OK)
		a += 4096;
}

/* A semaphore release to a page never written: `mem_budget` (not
 * `pa_out_of_range`) and the channel is PBDMA_FAULTED. */
static void release_without_memory(void **state)
{
	(void)state;
	struct env e;
	struct seen seen;
	env_init_budget(&e, &seen);
	struct env_chan *c = env_chan(&e, 0, 5);
	env_submit_tsg(&e, 0, 1, &c, 1);
	assert_string_equal(env_run(&e, 100000), "idle");
	uint64_t pa = 0, va = env_map(&e, 4096, &pa); /* mapped, never written */
	uint32_t pb[] = { HDR_INC(0, 0x5c, 4), (uint32_t)va, (uint32_t)(va >> 32), 0x1234, 0,
		          HDR_INC(0, 0x6c, 1), 0x100001 };
	env_gp(&e, c, env_pb(&e, c, pb, 7), 7, 0);
	env_spend_budget(&e);
	env_kick(&e, c);
	env_run(&e, 1000000);
	assert_int_equal(seen.mem_budget, 1);
	assert_int_equal(seen.out_of_range, 0);
	assert_true(rd(e.gpu, 0x800004 + 5 * 8) & (1u << 22)); /* PBDMA_FAULTED */
	env_fini(&e);
}

/* A channel whose instance block and USERD lie in pages never written: its
 * context save and its USERD writeback cannot be written. Before, both were
 * dropped without a word. */
static void save_and_writeback_without_memory(void **state)
{
	(void)state;
	struct env e;
	struct seen seen;
	env_init_budget(&e, &seen);
	struct env_chan *c = env_chan(&e, 0, 5);
	uint64_t inst = env_alloc(&e, 4096, 4096); /* never written: RAMFC reads 0, USERD at 0 */
	wr(e.gpu, 0x800000 + 5 * 8, 0x80000000u | (uint32_t)(inst >> 12));
	env_submit_tsg(&e, 0, 1, &c, 1);
	env_spend_budget(&e);
	env_run(&e, 100000);
	/* SIGNATURE 0 is neither 0xFACE nor 50031: INTR_0 SIGNATURE; clear it. */
	assert_true(rd(e.gpu, PB0 + 0x108) & (1u << 31));
	wr(e.gpu, PB0 + 0x108, 1u << 31);
	env_run(&e, 100000);
	assert_int_equal(seen.mem_budget, 2); /* the RAMFC save and the USERD writeback */
	env_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gp_ring_refilled_by_the_channel_hangs),
		cmocka_unit_test(runlist_listing_a_channel_twice_hangs),
		cmocka_unit_test(release_without_memory),
		cmocka_unit_test(save_and_writeback_without_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
