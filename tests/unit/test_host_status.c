/*
 * What the Host shows of its engines and channels (issue: Host fidelity):
 * NV_PFIFO_ENGINE_STATUS(i) with _INST / _NEXT_INST (gv100_dev_fifo.ref
 * ENGINE_STATUS, and the preempt sequence step 4b that reads it), the run
 * ending when the engines finish rather than when the PBDMA goes idle,
 * USERD writeback by timer (NV_PFIFO_USERD_WRITEBACK, gv100_dev_pbdma.ref
 * CONFIG USERD_WRITEBACK) and the BIND_ERROR / CHSW_ERROR interrupts
 * (gv100_dev_fifo.ref INTR_0, INTR_BIND_ERROR, INTR_CHSW_ERROR).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "host_env.h"

#define ENGSTAT(i)    (0x2640u + (i)*8u)
#define ENGINST(i)    (0x3100u + (i)*4u)
#define ENGNEXT(i)    (0x3000u + (i)*4u)
#define CTX_STATUS(v) (((v) >> 13) & 7u)
#define ENG_BUSY      (1u << 31)
#define ENG_FAULTED   (1u << 30)

static void run_ns(struct env *e, uint64_t ns)
{
	nvm_run(e->gpu, &(nvm_run_opts){ .ns = ns });
}

/* A GR push of n NINC methods to 0x200 (1 ns each in the recording engine). */
static void push_gr(struct env *e, struct env_chan *c, uint32_t n)
{
	static uint32_t pb[4097];
	assert_true(n <= 4096);
	pb[0] = HDR_NINC(0, 0x200, n);
	for (uint32_t i = 1; i <= n; i++)
		pb[i] = i;
	env_push(e, c, pb, n + 1);
}

/* ENGINE 31:31 is BUSY while the engine still has methods to finish after
 * the PBDMA has gone idle, and the run ends when it finishes: the GPU's time
 * covers the engine's last method (docs/host.md "Timing"). */
static void engine_busy_until_done(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint64_t t0 = nvm_time_ns(e.gpu);
	push_gr(&e, c, 4000);
	/* the load (1000 ns) and the PBDMA's step: the channel is out of work
	 * and saved, the engine still busy with 4000 methods */
	run_ns(&e, 1500);
	assert_int_equal(rd(e.gpu, 0x3080) >> 13 & 7, 0); /* PBDMA_STATUS: no channel */
	uint32_t v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(v & ENG_BUSY, ENG_BUSY);
	assert_int_equal(CTX_STATUS(v), 1); /* VALID: the context stays on the engine */
	assert_int_equal(v & 0xfffu, 1);    /* ID: TSG 1 */
	assert_string_equal(env_run(&e, 100000), "idle");
	uint64_t t1 = nvm_time_ns(e.gpu);
	nvm_method log[1];
	size_t n = 0;
	uint64_t total = 0;
	assert_int_equal(nvm_method_log_read(e.gpu, "gr", 3999, log, 1, &n, &total), NVM_OK);
	assert_int_equal(total, 4000);
	assert_int_equal(n, 1);
	/* the idle GPU's time is past the engine's last method, not the load */
	assert_true(t1 > log[0].time_ns);
	assert_true(t1 >= t0 + 1000 + 4000);
	v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(v & ENG_BUSY, 0);
	assert_int_equal(CTX_STATUS(v), 1);
	env_fini(&e);
}

/* CTX_STATUS through a first load (CTXSW_LOAD, NEXT_ID), a switch to a
 * second TSG (CTXSW_SWITCH with ID and NEXT_ID), _INST / _NEXT_INST PTR,
 * TARGET and VALID of the instance blocks, and a preempt that saves the
 * context while the engine is busy (CTXSW_SAVE, then INVALID). */
static void engine_ctx_switches(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *a = env_chan(&e, 0, 5), *b = env_chan(&e, 1, 6);
	assert_int_equal(rd(e.gpu, ENGSTAT(0)), 0); /* reset: INVALID, IDLE */
	uint32_t w[16];
	env_rl_tsg(w, 1, 1, 128, 3);
	env_rl_chan(w + 4, a, 0);
	env_rl_tsg(w + 8, 2, 1, 128, 3);
	env_rl_chan(w + 12, b, 0);
	env_submit(&e, 0, w, 4);
	/* runlist fetch (100 + 4 ns), then the 1000 ns load of channel 6 (the
	 * scheduler starts after the current TSG, index 0) */
	run_ns(&e, 600);
	uint32_t v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(CTX_STATUS(v), 5); /* CTXSW_LOAD; CTXSW 15:15 set */
	assert_int_equal(v >> 15 & 1, 1);
	assert_int_equal(v >> 16 & 0xfffu, 2); /* NEXT_ID TSG 2 */
	assert_int_equal(v >> 28 & 1, 1);      /* NEXT_ID_TYPE TSGID */
	assert_int_equal(rd(e.gpu, ENGINST(0)), 0);
	assert_int_equal(rd(e.gpu, ENGNEXT(0)), 1u << 31 | (uint32_t)(b->inst >> 12));
	/* the submission gave both TSGs work: TSG 2 ran, then TSG 1 */
	assert_string_equal(env_run(&e, 100000), "idle");
	v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(CTX_STATUS(v), 1);
	assert_int_equal(v & 0x1fffu, 1u | 1u << 12); /* ID 1, ID_TYPE TSGID */
	assert_int_equal(v >> 16 & 0xfffu, 0);
	assert_int_equal(rd(e.gpu, ENGINST(0)), 1u << 31 | (uint32_t)(a->inst >> 12));
	assert_int_equal(rd(e.gpu, ENGNEXT(0)), 0);

	/* work for TSG 2: the engine switches from TSG 1 */
	push_gr(&e, b, 8);
	run_ns(&e, 500);
	v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(CTX_STATUS(v), 7); /* CTXSW_SWITCH */
	assert_int_equal(v & 0xfffu, 1);
	assert_int_equal(v >> 16 & 0xfffu, 2);
	assert_int_equal(rd(e.gpu, ENGINST(0)), 1u << 31 | (uint32_t)(a->inst >> 12));
	assert_int_equal(rd(e.gpu, ENGNEXT(0)), 1u << 31 | (uint32_t)(b->inst >> 12));
	assert_string_equal(env_run(&e, 100000), "idle");
	v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(CTX_STATUS(v), 1);
	assert_int_equal(v & 0xfffu, 2);
	assert_int_equal(rd(e.gpu, ENGINST(0)), 1u << 31 | (uint32_t)(b->inst >> 12));

	/* a long push, then PREEMPT TSG 2 while the engine is still busy */
	push_gr(&e, b, 4000);
	run_ns(&e, 1500);
	wr(e.gpu, 0x2634, 2u | 1u << 24);
	v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(CTX_STATUS(v), 6); /* CTXSW_SAVE */
	assert_int_equal(v & 0xfffu, 2);
	assert_int_equal(v & ENG_BUSY, ENG_BUSY);
	assert_string_equal(env_run(&e, 100000), "idle");
	v = rd(e.gpu, ENGSTAT(0));
	assert_int_equal(v, 0); /* INVALID: switched off, IDLE */
	assert_int_equal(rd(e.gpu, ENGINST(0)), 0);
	env_fini(&e);
}

/* An engine error (an illegal copy-engine method: the channel gets
 * ENG_FAULTED) sets FAULTED 30:30 of the engine's status until software
 * clears the channel's ENG_FAULTED. */
static void engine_faulted(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 9);
	env_submit_tsg(&e, 1, 3, &c, 1); /* runlist 1: ce2, ENGINE_STATUS(2) */
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, ENGSTAT(2)) & ENG_FAULTED, 0);
	uint32_t pb[] = { HDR_INC(0, 0x1234, 1), 7 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x800004 + 9 * 8) >> 23 & 1, 1); /* ENG_FAULTED */
	uint32_t v = rd(e.gpu, ENGSTAT(2));
	assert_int_equal(v & ENG_FAULTED, ENG_FAULTED);
	assert_int_equal(v & 0xfffu, 3);
	/* software skips the method (METHOD0 in the saved RAMFC) and clears */
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0xc0, 0);
	wr(e.gpu, 0x800004 + 9 * 8, 1u << 23);
	assert_int_equal(rd(e.gpu, ENGSTAT(2)) & ENG_FAULTED, 0);
	assert_string_equal(env_run(&e, 100000), "idle");
	assert_int_equal(rd(e.gpu, ENGSTAT(2)) & ENG_FAULTED, 0);
	env_fini(&e);
}

/* The USERD writeback timer (dev_pbdma CONFIG USERD_WRITEBACK: "USERD will
 * also be written back to memory whenever ... the writeback timer configured
 * via NV_PFIFO_USERD_WRITEBACK_TIMER expires"): a channel frozen on a
 * software method mid-segment has GET in its PBDMA, not in USERD, until the
 * timer (TIMER 3 = SHORT, TIMESCALE 0: 3 us) writes it back. With TIMER
 * DISABLED, or CONFIG USERD_WRITEBACK DISABLE, USERD waits for the save. */
static void userd_writeback_case(uint32_t timer, uint32_t config, bool expect)
{
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	nvm_mem_wr32(e.gpu, NVM_AP_VRAM, c->inst + 0xf4, config); /* RAMFC CONFIG */
	wr(e.gpu, 0x225c, timer);
	uint32_t pb[] = { HDR_INC(0, 0x200, 1), 1, HDR_INC(5, 0x100, 1), 0xd0d0, HDR_INC(0, 0x200, 1), 2 };
	env_push(&e, c, pb, 6);
	run_ns(&e, 1500); /* loaded (1000 ns), frozen on INTR_0 DEVICE */
	assert_int_equal(rd(e.gpu, PB0 + 0x108), 1u << 23);
	uint32_t get = rd(e.gpu, PB0 + 0x18);
	assert_int_equal(get, (uint32_t)(c->pb_va + 16));
	assert_int_not_equal(env_userd(&e, c, 0x44), get);
	run_ns(&e, 3000);
	if (expect)
		assert_int_equal(env_userd(&e, c, 0x44), get); /* USERD GET */
	else
		assert_int_not_equal(env_userd(&e, c, 0x44), get);
	/* an idle GPU with the timer armed is idle: a background event */
	assert_string_equal(env_run(&e, 100000), "idle");
	env_fini(&e);
}

static void userd_writeback_timer(void **state)
{
	(void)state;
	userd_writeback_case(3, 0x1100, true);
	userd_writeback_case(0, 0x1100, false); /* TIMER_DISABLED */
	userd_writeback_case(3, 0x0100, false); /* CONFIG USERD_WRITEBACK DISABLE */
}

/* gv100_dev_fifo INTR_0 BIND_ERROR 0:0 with NV_PFIFO_INTR_BIND_ERROR CODE
 * 7:0: UNBIND_WHILE_RUNNING (3) for a channel unbound while loaded on a
 * PBDMA, INVALID_CTX_TGT (6) for a bind whose TARGET 29:28 is not an
 * aperture (the bind is refused: UNVERIFIED); the bit is write-1-to-clear. */
static void bind_errors(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	assert_int_equal(rd(e.gpu, 0x2100) & 1u, 0);
	uint32_t pb[] = { HDR_INC(5, 0x100, 1), 0xd0d0 };
	env_push(&e, c, pb, 2);
	env_run(&e, 100000); /* frozen on the software method, still loaded */
	assert_int_equal(rd(e.gpu, 0x3080), 5u | 1u << 13);
	wr(e.gpu, 0x800000 + 5 * 8, (uint32_t)(c->inst >> 12)); /* BIND 0 */
	assert_int_equal(rd(e.gpu, 0x2100) & 1u, 1u);
	assert_int_equal(rd(e.gpu, 0x252c), 3); /* UNBIND_WHILE_RUNNING */
	wr(e.gpu, 0x2100, 1u);
	assert_int_equal(rd(e.gpu, 0x2100) & 1u, 0);

	wr(e.gpu, 0x800000 + 7 * 8, 1u << 31 | 1u << 28 | 0x123u);
	assert_int_equal(rd(e.gpu, 0x800000 + 7 * 8), 1u << 28 | 0x123u); /* BIND reads 0 */
	assert_int_equal(rd(e.gpu, 0x2100) & 1u, 1u);
	assert_int_equal(rd(e.gpu, 0x252c), 6); /* INVALID_CTX_TGT */
	/* a good bind raises nothing */
	wr(e.gpu, 0x2100, 1u);
	wr(e.gpu, 0x800000 + 8 * 8, 1u << 31 | 0x124u);
	assert_int_equal(rd(e.gpu, 0x2100) & 1u, 0);
	env_fini(&e);
}

/* A channel whose instance block lies outside VRAM cannot be loaded: INTR_0
 * CHSW_ERROR 16:16 with NV_PFIFO_INTR_CHSW_ERROR CODE RDAT_TIMEOUT (4)
 * (UNVERIFIED: the closest documented code) and PBDMA_FAULTED. */
static void chsw_error_bad_ramfc(void **state)
{
	(void)state;
	struct env e;
	env_init(&e);
	struct env_chan *c = env_chan(&e, 0, 7);
	wr(e.gpu, 0x800000 + 7 * 8, 1u << 31 | (128u << 20) >> 12); /* 128 MiB: past VRAM */
	env_submit_tsg(&e, 0, 1, &c, 1);
	env_run(&e, 100000);
	assert_int_equal(rd(e.gpu, 0x2100) >> 16 & 1u, 1u);
	assert_int_equal(rd(e.gpu, 0x256c), 4);
	assert_int_equal(rd(e.gpu, 0x800004 + 7 * 8) >> 22 & 1u, 1u);
	wr(e.gpu, 0x2100, 1u << 16);
	assert_int_equal(rd(e.gpu, 0x2100) >> 16 & 1u, 0);
	env_fini(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(engine_busy_until_done),
		cmocka_unit_test(engine_ctx_switches),
		cmocka_unit_test(engine_faulted),
		cmocka_unit_test(userd_writeback_timer),
		cmocka_unit_test(bind_errors),
		cmocka_unit_test(chsw_error_bad_ramfc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
