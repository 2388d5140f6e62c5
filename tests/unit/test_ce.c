/*
 * The copy engine, driven through real channels. The whole suite runs
 * twice: with class C3B5 (VOLTA_DMA_COPY_A, bound by SET_OBJECT) and with
 * C8B5 (HOPPER_DMA_COPY_A, the class the H100 silicon record used; set as
 * the engine's class, as a Hopper Host generation does, since the gv100
 * Host accepts only C3B5 in SET_OBJECT). Then the class differences of
 * clc5b5.h .. clc8b5.h (refs/host-generations-facts.md T9, A10, H5). Methods and
 * fields of clc3b5.h (refs/nvidia-gv100/ce-c3b5-facts.md), the behaviour
 * silicon H100 showed (refs/silicon-h100.md "Copy engine", cited as
 * "silicon H100"), faults as the GMMU reports them (gv100_pri_mmu_hub.ref,
 * volta-facts.md f) and the Host's ENG_FAULTED path (gv100_dev_fifo.ref
 * NV_PCCSR_CHANNEL).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "bar0.h"
#include "core/core.h"
#include "engine/engine.h"
#include "host_env.h"
#include "snap_bytes.h"

#define CHID 9u
#define FAR  0x7000000000ull /* an unmapped VA */

/* LAUNCH_DMA fields (clc3b5.h NVC3B5_LAUNCH_DMA_*). */
#define L_PIPELINED     (1u << 0) /* DATA_TRANSFER_TYPE 1:0 */
#define L_NON_PIPELINED (2u << 0)
#define L_FLUSH         (1u << 2) /* FLUSH_ENABLE 2:2 */
#define L_SEM_ONE       (1u << 3) /* SEMAPHORE_TYPE 4:3 */
#define L_SEM_FOUR      (2u << 3)
#define L_INTR_BLOCKING (1u << 5) /* INTERRUPT_TYPE 6:5 */
#define L_INTR_NONBLOCK (2u << 5)
#define L_SRC_PITCH     (1u << 7)    /* SRC_MEMORY_LAYOUT 7:7 */
#define L_DST_PITCH     (1u << 8)    /* DST_MEMORY_LAYOUT 8:8 */
#define L_MULTI         (1u << 9)    /* MULTI_LINE_ENABLE 9:9 */
#define L_REMAP         (1u << 10)   /* REMAP_ENABLE 10:10 */
#define L_SRC_PHYS      (1u << 12)   /* SRC_TYPE 12:12 */
#define L_DST_PHYS      (1u << 13)   /* DST_TYPE 13:13 */
#define L_RED(op)       ((op) << 14) /* SEMAPHORE_REDUCTION 17:14 */
#define L_RED_UNSIGNED  (1u << 18)   /* SEMAPHORE_REDUCTION_SIGN 18:18 */
#define L_RED_ENABLE    (1u << 19)   /* SEMAPHORE_REDUCTION_ENABLE 19:19 */
#define L_VPR           (1u << 22)   /* VPRMODE 23:22 VID2VID */
#define L_COPY          (L_NON_PIPELINED | L_SRC_PITCH | L_DST_PITCH)

/* SET_REMAP_COMPONENTS: DST_X 2:0 .. DST_W 14:12, COMPONENT_SIZE 17:16,
 * NUM_SRC_COMPONENTS 21:20, NUM_DST_COMPONENTS 25:24 (sizes and counts - 1). */
#define REMAP(x, y, z, w, size, nsrc, ndst)                                                                            \
	((x) | (y) << 4 | (z) << 8 | (w) << 12 | ((size)-1u) << 16 | ((nsrc)-1u) << 20 | ((ndst)-1u) << 24)
#define SRC_X    0u
#define SRC_Y    1u
#define SRC_Z    2u
#define SRC_W    3u
#define CONST_A  4u
#define CONST_B  5u
#define NO_WRITE 6u

/* ---------------------------------------------------------------- harness */

/* The copy class of the run (a group's setup sets it). */
static uint32_t ce_cls = 0xc3b5;

struct ct {
	struct env e;
	struct env_chan *c;
	int hook; /* on_event's */
	unsigned sub;
	uint32_t w[2048];
	uint32_t n;
};

/* The events of interest, as the hooks saw them. */
static struct {
	char err[32];
	uint64_t err_addr, err_value;
	unsigned errors, unmodelled, launches, nonstall;
} seen;

static void on_event(void *user, const nvm_event *ev)
{
	(void)user;
	if (ev->type == NVM_EV_GUEST_ERROR && strcmp(ev->code, "eng_faulted")) {
		snprintf(seen.err, sizeof(seen.err), "%s", ev->code);
		seen.err_addr = ev->addr;
		seen.err_value = ev->value;
		seen.errors++;
	}
	if (ev->type == NVM_EV_UNMODELLED)
		seen.unmodelled++;
	if (ev->type == NVM_EV_TRACE && !strcmp(ev->code, "launch"))
		seen.launches++;
	if (ev->type == NVM_EV_TRACE && !strcmp(ev->code, "nonstall_intr"))
		seen.nonstall++;
}

static void mth(struct ct *t, uint32_t m, uint32_t v)
{
	assert_true(t->n + 2 <= sizeof(t->w) / sizeof(t->w[0]));
	t->w[t->n++] = HDR_INC(t->sub, m, 1);
	t->w[t->n++] = v;
}

/* A channel whose CE subchannel is bound to VOLTA_DMA_COPY_A: "ce2" (runlist
 * 1, any subchannel) or GRCOPY ("grce", runlist 0, subchannel 4). */
static void ct_init(struct ct *t, bool grce)
{
	memset(&seen, 0, sizeof(seen));
	env_init(&t->e);
	t->c = env_chan(&t->e, 0, CHID);
	t->sub = grce ? 4 : 1;
	t->n = 0;
	env_submit_tsg(&t->e, grce ? 0 : 1, 1, &t->c, 1);
	assert_string_equal(env_run(&t->e, 100000), "idle");
	nvm_hook_add(t->e.gpu,
	             NVM_EV_MASK(NVM_EV_GUEST_ERROR) | NVM_EV_MASK(NVM_EV_UNMODELLED) | NVM_EV_MASK(NVM_EV_TRACE),
	             on_event, NULL, &t->hook);
	if (ce_cls == 0xc3b5) {
		mth(t, 0x000, 0xc3b5); /* SET_OBJECT */
		return;
	}
	/* The engines' class, as a Host generation with this ce_class sets it. */
	unsigned set = 0;
	for (struct engine *e = t->e.gpu->engines; e; e = e->next)
		set += engine_ce_set_class(e, ce_cls) == NVM_OK;
	assert_true(set >= 2);
}

/* Pushes the methods gathered so far and runs until idle. */
static const char *go(struct ct *t)
{
	env_push(&t->e, t->c, t->w, t->n);
	t->n = 0;
	return env_run(&t->e, 100000000);
}

static uint64_t buf(struct ct *t, uint64_t size, uint64_t *pa)
{
	return env_map(&t->e, size, pa);
}

static void fill(struct ct *t, uint64_t pa, size_t len, uint8_t seed)
{
	uint8_t *b = malloc(len);
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed + i * 7 + (i >> 8));
	nvm_mem_write(t->e.gpu, NVM_AP_VRAM, pa, b, len);
	free(b);
}

static void set_bytes(struct ct *t, uint64_t pa, size_t len, uint8_t v)
{
	uint8_t *b = malloc(len);
	memset(b, v, len);
	nvm_mem_write(t->e.gpu, NVM_AP_VRAM, pa, b, len);
	free(b);
}

static uint8_t *get(struct ct *t, nvm_aperture ap, uint64_t pa, size_t len)
{
	uint8_t *b = malloc(len);
	nvm_mem_read(t->e.gpu, ap, pa, b, len);
	return b;
}

static void set_io(struct ct *t, uint64_t in, uint64_t out)
{
	mth(t, 0x400, (uint32_t)(in >> 32)); /* OFFSET_IN_UPPER 16:0 */
	mth(t, 0x404, (uint32_t)in);
	mth(t, 0x408, (uint32_t)(out >> 32)); /* OFFSET_OUT_UPPER 16:0 */
	mth(t, 0x40c, (uint32_t)out);
}

static void set_lines(struct ct *t, uint32_t pitch_in, uint32_t pitch_out, uint32_t len, uint32_t count)
{
	mth(t, 0x410, pitch_in);
	mth(t, 0x414, pitch_out);
	mth(t, 0x418, len);
	mth(t, 0x41c, count);
}

static void set_sem(struct ct *t, uint64_t va, uint32_t payload)
{
	mth(t, 0x240, (uint32_t)(va >> 32)); /* SET_SEMAPHORE_A UPPER 16:0 */
	mth(t, 0x244, (uint32_t)va);
	mth(t, 0x248, payload);
}

static uint32_t chan_word(struct ct *t)
{
	return rd(t->e.gpu, 0x800004 + CHID * 8); /* NV_PCCSR_CHANNEL */
}

static bool eng_faulted(struct ct *t)
{
	return chan_word(t) >> 23 & 1; /* ENG_FAULTED 23:23 */
}

static uint32_t ramfc(struct ct *t, uint32_t off)
{
	return env_mem(&t->e, t->c->inst + off);
}

/* NV_PPBDMA_METHOD0 as saved in RAMFC: ADDR 13:2, SUBCH 18:16, VALID 31:31. */
static uint32_t method0(uint32_t m, uint32_t subch)
{
	return 1u << 31 | subch << 16 | m;
}

/* The stopping method is parked in METHOD0 and the channel is switched out
 * with ENG_FAULTED; software skips the method (clears VALID in RAMFC) and
 * writes 1 to ENG_FAULTED: the channel goes on after it. */
static void skip_and_clear(struct ct *t)
{
	assert_true(eng_faulted(t));
	nvm_host_channel info;
	assert_int_equal(nvm_host_channel_info(t->e.gpu, CHID, &info), NVM_OK);
	assert_int_equal(info.pbdma, -1);
	nvm_mem_wr32(t->e.gpu, NVM_AP_VRAM, t->c->inst + 0xc0, 0);
	wr(t->e.gpu, 0x800004 + CHID * 8, 1u << 23);
	assert_false(eng_faulted(t));
	assert_string_equal(env_run(&t->e, 1000000), "idle");
}

/* A launch the CE rejects: a launch error, nothing after it runs. */
static void expect_launch_error(struct ct *t, uint32_t launch)
{
	assert_string_equal(seen.err, "launch_error");
	assert_int_equal(seen.err_value, launch);
	assert_true(eng_faulted(t));
	assert_int_equal(ramfc(t, 0xc0), method0(0x300, t->sub));
	assert_int_equal(ramfc(t, 0xc4), launch); /* DATA0 */
	seen.err[0] = 0;
	skip_and_clear(t);
}

/* ---------------------------------------------------------------- copies */

/* silicon H100: a 1-D copy (MULTI_LINE off) writes exactly [dst, dst +
 * LINE_LENGTH_IN) for any length and alignment, pipelined or not, with or
 * without FLUSH; LINE_COUNT and the pitches are ignored. */
static void copy_1d_exact(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, 3 * 4096, &spa), dva = buf(&t, 3 * 4096, &dpa);
	fill(&t, spa, 3 * 4096, 1);
	uint8_t *src = get(&t, NVM_AP_VRAM, spa, 3 * 4096);
	struct {
		uint32_t so, dof, len, launch;
	} cases[] = {
		{ 0, 0, 1, L_COPY },
		{ 3, 5, 4093, L_COPY | L_FLUSH },
		{ 100, 4000, 5000, (L_COPY & ~3u) | L_PIPELINED },
		{ 1, 2, 3 * 4096 - 3, L_COPY | L_FLUSH },
	};
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		set_bytes(&t, dpa, 3 * 4096, 0xaa);
		set_io(&t, sva + cases[k].so, dva + cases[k].dof);
		set_lines(&t, 1, 1, cases[k].len, 7); /* pitch 1 and LINE_COUNT 7: ignored */
		mth(&t, 0x300, cases[k].launch);
		assert_string_equal(go(&t), "idle");
		uint8_t *dst = get(&t, NVM_AP_VRAM, dpa, 3 * 4096);
		for (uint32_t i = 0; i < 3 * 4096; i++) {
			bool in = i >= cases[k].dof && i < cases[k].dof + cases[k].len;
			assert_int_equal(dst[i], in ? src[cases[k].so + i - cases[k].dof] : 0xaa);
		}
		free(dst);
	}
	assert_int_equal(seen.launches, 4);
	assert_int_equal(seen.errors, 0);
	free(src);
	env_fini(&t.e);
}

/* silicon H100: LINE_LENGTH_IN 0 and DATA_TRANSFER_TYPE NONE copy nothing
 * and are no error (the semaphore of the launch is still released);
 * MULTI_LINE with LINE_COUNT 0 copies nothing. */
static void nothing_to_copy(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa, mpa;
	uint64_t sva = buf(&t, 4096, &spa), dva = buf(&t, 4096, &dpa), mva = buf(&t, 4096, &mpa);
	fill(&t, spa, 4096, 3);
	set_bytes(&t, dpa, 4096, 0xaa);
	set_io(&t, sva, dva);
	set_lines(&t, 64, 64, 0, 4);
	set_sem(&t, mva, 1);
	mth(&t, 0x300, L_COPY | L_MULTI | L_SEM_ONE);
	mth(&t, 0x418, 64); /* LINE_LENGTH_IN */
	mth(&t, 0x248, 2);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE); /* DATA_TRANSFER_TYPE NONE */
	mth(&t, 0x41c, 0);                                     /* LINE_COUNT 0 */
	mth(&t, 0x248, 3);
	mth(&t, 0x300, L_COPY | L_MULTI | L_SEM_ONE);
	assert_string_equal(go(&t), "idle");
	assert_false(eng_faulted(&t));
	assert_int_equal(env_mem(&t.e, mpa), 3);
	uint8_t *dst = get(&t, NVM_AP_VRAM, dpa, 4096);
	for (unsigned i = 0; i < 4096; i++)
		assert_int_equal(dst[i], 0xaa);
	free(dst);
	assert_int_equal(seen.launches, 3);
	env_fini(&t.e);
}

/* silicon H100: overlapping source and destination give the memmove result,
 * in both directions and across pages. */
static void overlap_is_memmove(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t pa;
	uint64_t va = buf(&t, 5 * 4096, &pa);
	struct {
		uint32_t so, dof, len;
	} cases[] = { { 0, 100, 9000 }, { 200, 100, 9000 }, { 0, 4096, 12000 }, { 4100, 3, 12000 }, { 50, 50, 5000 } };
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		fill(&t, pa, 5 * 4096, (uint8_t)(k + 5));
		uint8_t *want = get(&t, NVM_AP_VRAM, pa, 5 * 4096);
		memmove(want + cases[k].dof, want + cases[k].so, cases[k].len);
		set_io(&t, va + cases[k].so, va + cases[k].dof);
		mth(&t, 0x418, cases[k].len);
		mth(&t, 0x300, k & 1 ? L_COPY : (L_COPY & ~3u) | L_PIPELINED);
		assert_string_equal(go(&t), "idle");
		uint8_t *got = get(&t, NVM_AP_VRAM, pa, 5 * 4096);
		assert_memory_equal(got, want, 5 * 4096);
		free(got);
		free(want);
	}
	env_fini(&t.e);
}

/* silicon H100: a 2-D copy moves line i from in + i*PITCH_IN to out +
 * i*PITCH_OUT and leaves the bytes between lines alone; with LINE_COUNT >= 2
 * a pitch smaller than the line is a launch error (nothing written); one
 * line accepts any pitch. */
static void copy_2d(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, 2 * 4096, &spa), dva = buf(&t, 2 * 4096, &dpa);
	fill(&t, spa, 2 * 4096, 9);
	set_bytes(&t, dpa, 2 * 4096, 0xaa);
	uint8_t *src = get(&t, NVM_AP_VRAM, spa, 2 * 4096);
	set_io(&t, sva + 7, dva + 1);
	set_lines(&t, 300, 520, 250, 10);
	mth(&t, 0x300, L_COPY | L_MULTI);
	assert_string_equal(go(&t), "idle");
	uint8_t *dst = get(&t, NVM_AP_VRAM, dpa, 2 * 4096);
	for (uint32_t i = 0; i < 2 * 4096; i++) {
		uint32_t line = (i - 1) / 520, x = (i - 1) % 520;
		bool in = i >= 1 && line < 10 && x < 250;
		assert_int_equal(dst[i], in ? src[7 + line * 300 + x] : 0xaa);
	}
	free(dst);
	/* one line: a pitch of 0 is fine */
	set_bytes(&t, dpa, 2 * 4096, 0xaa);
	set_lines(&t, 0, 0, 250, 1);
	mth(&t, 0x300, L_COPY | L_MULTI);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_mem(&t.e, dpa) >> 8 & 0xff, src[7]);
	/* two lines, PITCH_IN 249 < 250: rejected, nothing written */
	set_bytes(&t, dpa, 2 * 4096, 0xaa);
	set_lines(&t, 249, 520, 250, 2);
	mth(&t, 0x300, L_COPY | L_MULTI);
	go(&t);
	expect_launch_error(&t, L_COPY | L_MULTI);
	/* PITCH_OUT below the line */
	set_lines(&t, 250, 100, 250, 2);
	mth(&t, 0x300, L_COPY | L_MULTI);
	go(&t);
	expect_launch_error(&t, L_COPY | L_MULTI);
	dst = get(&t, NVM_AP_VRAM, dpa, 2 * 4096);
	for (uint32_t i = 0; i < 2 * 4096; i++)
		assert_int_equal(dst[i], 0xaa);
	free(dst);
	free(src);
	env_fini(&t.e);
}

/* silicon H100: OFFSET_*, PITCH_*, LINE_*, SET_SEMAPHORE_* persist between
 * launches: a second launch with only a new OFFSET_OUT copies the same
 * source again and releases the same semaphore. */
static void state_persists(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa, mpa;
	uint64_t sva = buf(&t, 4096, &spa), dva = buf(&t, 4096, &dpa), mva = buf(&t, 4096, &mpa);
	fill(&t, spa, 4096, 11);
	set_io(&t, sva, dva);
	mth(&t, 0x418, 100);
	set_sem(&t, mva, 0x55);
	mth(&t, 0x300, L_COPY | L_SEM_ONE);
	mth(&t, 0x40c, (uint32_t)dva + 1000); /* OFFSET_OUT_LOWER only */
	mth(&t, 0x300, L_COPY);
	assert_string_equal(go(&t), "idle");
	nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa, 0);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_mem(&t.e, mpa), 0x55);
	uint8_t *a = get(&t, NVM_AP_VRAM, dpa, 100), *b = get(&t, NVM_AP_VRAM, dpa + 1000, 100),
	        *s = get(&t, NVM_AP_VRAM, spa, 100);
	assert_memory_equal(a, s, 100);
	assert_memory_equal(b, s, 100);
	free(a);
	free(b);
	free(s);
	env_fini(&t.e);
}

/* The method state is the channel's own (silicon H100: it persists between
 * launches): two channels of one TSG on ce2 set different offsets and
 * lengths, then each launches with nothing but LAUNCH_DMA. */
static void state_is_per_channel(void **state)
{
	(void)state;
	struct ct t;
	memset(&seen, 0, sizeof(seen));
	env_init(&t.e);
	struct env_chan *chs[2] = { env_chan(&t.e, 0, CHID), env_chan(&t.e, 1, CHID + 1) };
	env_submit_tsg(&t.e, 1, 1, chs, 2);
	assert_string_equal(env_run(&t.e, 100000), "idle");
	t.sub = 1;
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, 4096, &spa), dva = buf(&t, 4096, &dpa);
	fill(&t, spa, 4096, 91);
	for (unsigned k = 0; k < 2; k++) {
		t.c = chs[k];
		t.n = 0;
		set_io(&t, sva + 100 * k, dva + 1000 * k);
		mth(&t, 0x418, 50 + 10 * k);
		go(&t);
	}
	for (unsigned k = 0; k < 2; k++) {
		t.c = chs[k];
		mth(&t, 0x300, L_COPY);
		assert_string_equal(go(&t), "idle");
	}
	uint8_t *s = get(&t, NVM_AP_VRAM, spa, 4096), *d = get(&t, NVM_AP_VRAM, dpa, 4096);
	assert_memory_equal(d, s, 50);
	assert_int_equal(d[50], 0);
	assert_memory_equal(d + 1000, s + 100, 60);
	assert_int_equal(d[1060], 0);
	free(s);
	free(d);
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- semaphores */

/* silicon H100: ONE_WORD writes 4 bytes; FOUR_WORD writes the payload, 0 and
 * an 8-byte PTIMER timestamp (bits 4:0 zero); the release (and its
 * timestamp) comes after the copy of the same launch, which costs virtual
 * time at about 45 GB/s. */
static void semaphore_layouts(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa, mpa;
	uint64_t sva = buf(&t, 1u << 20, &spa), dva = buf(&t, 1u << 20, &dpa), mva = buf(&t, 4096, &mpa);
	set_bytes(&t, mpa, 64, 0xff);
	set_sem(&t, mva, 0x12345678);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_mem(&t.e, mpa), 0x12345678);
	assert_int_equal(env_mem(&t.e, mpa + 4), 0xffffffffu);
	fill(&t, spa, 1u << 20, 2);
	set_io(&t, sva, dva);
	mth(&t, 0x418, 1u << 20);
	set_sem(&t, mva + 16, 0xabcd);
	mth(&t, 0x300, L_COPY | L_SEM_FOUR);
	uint64_t t0 = nvm_time_ns(t.e.gpu);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_mem(&t.e, mpa + 16), 0xabcd);
	assert_int_equal(env_mem(&t.e, mpa + 20), 0);
	uint64_t ts = env_mem(&t.e, mpa + 24) | (uint64_t)env_mem(&t.e, mpa + 28) << 32;
	assert_int_equal(ts & 31, 0);
	assert_true(ts >= t0 + (1u << 20) / 45 - 32);
	assert_int_equal(env_mem(&t.e, mpa + 32), 0xffffffffu);
	uint8_t *a = get(&t, NVM_AP_VRAM, spa, 1u << 20), *b = get(&t, NVM_AP_VRAM, dpa, 1u << 20);
	assert_memory_equal(a, b, 1u << 20);
	free(a);
	free(b);
	env_fini(&t.e);
}

/* silicon H100: one-word semaphores need 4-byte and four-word ones 16-byte
 * alignment, else a launch error (memory unchanged). */
static void semaphore_alignment(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t mpa;
	uint64_t mva = buf(&t, 4096, &mpa);
	uint32_t launch = L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE;
	set_sem(&t, mva + 2, 1);
	mth(&t, 0x300, launch);
	go(&t);
	expect_launch_error(&t, launch);
	launch = L_SRC_PITCH | L_DST_PITCH | L_SEM_FOUR;
	set_sem(&t, mva + 4, 1);
	mth(&t, 0x300, launch);
	go(&t);
	expect_launch_error(&t, launch);
	for (unsigned i = 0; i < 8; i++)
		assert_int_equal(env_mem(&t.e, mpa + 4 * i), 0);
	set_sem(&t, mva + 4, 7); /* one word at +4 is fine */
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_mem(&t.e, mpa + 4), 7);
	env_fini(&t.e);
}

/* silicon H100: the reductions behave as the Host's (signed or unsigned
 * IMIN/IMAX, wrapping IADD, INC and DEC with their reload rules); FADD adds
 * f32 values keeping denormals and stores 0x7fffffff for a NaN. */
static void semaphore_reductions(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t mpa;
	uint64_t mva = buf(&t, 4096, &mpa);
	struct {
		unsigned op;
		bool uns;
		uint32_t old, pl, want;
	} cases[] = {
		{ 0, false, 0xffffffffu, 1, 0xffffffffu }, /* IMIN signed: -1 */
		{ 0, true, 0xffffffffu, 1, 1 },            /* IMIN unsigned */
		{ 1, false, 0xffffffffu, 1, 1 },           /* IMAX signed */
		{ 1, true, 0xffffffffu, 1, 0xffffffffu },  /* IMAX unsigned */
		{ 2, false, 0xf0f0, 0xff00, 0x0ff0 },      /* IXOR */
		{ 3, true, 0xf0f0, 0xff00, 0xf000 },       /* IAND */
		{ 4, false, 0xf0f0, 0xff00, 0xfff0 },      /* IOR */
		{ 5, false, 0xffffffffu, 2, 1 },           /* IADD wraps */
		{ 6, true, 5, 5, 0 },                      /* INC: old >= payload -> 0 */
		{ 6, true, 7, 5, 0 },
		{ 6, true, 4, 5, 5 },
		{ 7, true, 0, 5, 5 }, /* DEC: 0 or above the payload -> payload */
		{ 7, true, 6, 5, 5 },
		{ 7, true, 3, 5, 2 },
		{ 0xa, false, 0x3fc00000u, 0x40100000u, 0x40700000u }, /* FADD 1.5 + 2.25 */
		{ 0xa, false, 1, 1, 2 },                               /* denormals kept */
		{ 0xa, true, 0x00800000u, 0x80000001u, 0x007fffffu },  /* a denormal result */
		{ 0xa, false, 0x7f800000u, 0xff800000u, 0x7fffffffu }, /* inf - inf: NaN */
		{ 0xa, false, 0x7fc00000u, 0x3f800000u, 0x7fffffffu }, /* NaN + 1 */
	};
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa, cases[k].old);
		set_sem(&t, mva, cases[k].pl);
		mth(&t, 0x300,
		    L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_RED_ENABLE | L_RED(cases[k].op) |
		            (cases[k].uns ? L_RED_UNSIGNED : 0));
		assert_string_equal(go(&t), "idle");
		assert_int_equal(env_mem(&t.e, mpa), cases[k].want);
	}
	/* a four-word reduction: the reduced payload, 0, the timestamp */
	nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa + 16, 10);
	nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa + 20, 0xffffffffu);
	set_sem(&t, mva + 16, 5);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_FOUR | L_RED_ENABLE | L_RED(5));
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_mem(&t.e, mpa + 16), 15);
	assert_int_equal(env_mem(&t.e, mpa + 20), 0);
	assert_true(env_mem(&t.e, mpa + 24) != 0);
	/* INC and DEC with SIGN SIGNED, and an undefined reduction: launch
	 * errors, memory unchanged */
	uint32_t bad[] = { L_RED(6), L_RED(7), L_RED(8) | L_RED_UNSIGNED, L_RED(0xf) };
	for (unsigned k = 0; k < 4; k++) {
		nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa, 3);
		uint32_t launch = L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_RED_ENABLE | bad[k];
		mth(&t, 0x300, launch);
		go(&t);
		expect_launch_error(&t, launch);
		assert_int_equal(env_mem(&t.e, mpa), 3);
	}
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- remap */

/* silicon H100: with REMAP_ENABLE, LINE_LENGTH_IN counts pixels of
 * NUM_SRC_COMPONENTS x COMPONENT_SIZE bytes in and NUM_DST_COMPONENTS x
 * COMPONENT_SIZE out; each DST_k is a source component, CONST_A/B truncated
 * to the component size, or NO_WRITE; pitches stay in bytes; a 4-byte
 * CONST_A remap is how drivers memset. */
static void remap_components(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, 4096, &spa), dva = buf(&t, 4096, &dpa);
	fill(&t, spa, 4096, 21);
	uint8_t *src = get(&t, NVM_AP_VRAM, spa, 4096);
	/* memset: the source is never read (it is not even mapped) */
	set_bytes(&t, dpa, 4096, 0xaa);
	set_io(&t, FAR, dva + 8);
	mth(&t, 0x700, 0xdeadbeef); /* SET_REMAP_CONST_A */
	mth(&t, 0x708, REMAP(CONST_A, NO_WRITE, NO_WRITE, NO_WRITE, 4, 1, 1));
	mth(&t, 0x418, 100);
	mth(&t, 0x300, L_COPY | L_REMAP);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_mem(&t.e, dpa + 4), 0xaaaaaaaau);
	for (unsigned i = 0; i < 100; i++)
		assert_int_equal(env_mem(&t.e, dpa + 8 + 4 * i), 0xdeadbeefu);
	assert_int_equal(env_mem(&t.e, dpa + 408), 0xaaaaaaaau);
	/* 1-byte components, 4 in and out, reversed */
	set_io(&t, sva, dva);
	mth(&t, 0x708, REMAP(SRC_W, SRC_Z, SRC_Y, SRC_X, 1, 4, 4));
	mth(&t, 0x418, 16);
	mth(&t, 0x300, L_COPY | L_REMAP);
	assert_string_equal(go(&t), "idle");
	uint8_t *d = get(&t, NVM_AP_VRAM, dpa, 64);
	for (unsigned i = 0; i < 64; i++)
		assert_int_equal(d[i], src[(i & ~3u) + 3 - (i & 3)]);
	free(d);
	/* 2-byte components, 2 in, 3 out: SRC_Y, CONST_B (low 2 bytes), NO_WRITE */
	set_bytes(&t, dpa, 4096, 0xaa);
	mth(&t, 0x704, 0x11223344); /* SET_REMAP_CONST_B */
	mth(&t, 0x708, REMAP(SRC_Y, CONST_B, NO_WRITE, SRC_W, 2, 2, 3));
	mth(&t, 0x418, 5);
	mth(&t, 0x300, L_COPY | L_REMAP);
	assert_string_equal(go(&t), "idle");
	d = get(&t, NVM_AP_VRAM, dpa, 64);
	for (unsigned p = 0; p < 5; p++) {
		assert_int_equal(d[6 * p], src[4 * p + 2]);
		assert_int_equal(d[6 * p + 1], src[4 * p + 3]);
		assert_int_equal(d[6 * p + 2], 0x44);
		assert_int_equal(d[6 * p + 3], 0x33);
		assert_int_equal(d[6 * p + 4], 0xaa);
		assert_int_equal(d[6 * p + 5], 0xaa);
	}
	assert_int_equal(d[30], 0xaa);
	free(d);
	/* 2-D: pitches in bytes, 3 lines of 5 pixels (2 x 2 bytes in, 2 out) */
	set_bytes(&t, dpa, 4096, 0xaa);
	set_lines(&t, 32, 16, 5, 3);
	mth(&t, 0x708, REMAP(SRC_Y, NO_WRITE, NO_WRITE, NO_WRITE, 2, 2, 1));
	mth(&t, 0x300, L_COPY | L_REMAP | L_MULTI);
	assert_string_equal(go(&t), "idle");
	d = get(&t, NVM_AP_VRAM, dpa, 64);
	for (unsigned i = 0; i < 64; i++) {
		unsigned line = i / 16, x = i % 16;
		bool in = line < 3 && x < 10;
		assert_int_equal(d[i], in ? src[line * 32 + (x / 2) * 4 + 2 + (x & 1)] : 0xaa);
	}
	free(d);
	/* errors: COMPONENT_SIZE THREE; DST_Y reading SRC_Z with two source
	 * components; a destination pitch below the remapped line (5 x 2 bytes) */
	mth(&t, 0x708, REMAP(SRC_X, SRC_Y, SRC_Z, SRC_W, 3, 4, 4));
	mth(&t, 0x300, L_COPY | L_REMAP);
	go(&t);
	expect_launch_error(&t, L_COPY | L_REMAP);
	mth(&t, 0x708, REMAP(SRC_X, SRC_Z, NO_WRITE, NO_WRITE, 1, 2, 2));
	mth(&t, 0x300, L_COPY | L_REMAP);
	go(&t);
	expect_launch_error(&t, L_COPY | L_REMAP);
	mth(&t, 0x708, REMAP(SRC_X, SRC_Y, NO_WRITE, NO_WRITE, 1, 2, 2));
	set_lines(&t, 32, 9, 5, 2);
	mth(&t, 0x300, L_COPY | L_REMAP | L_MULTI);
	go(&t);
	expect_launch_error(&t, L_COPY | L_REMAP | L_MULTI);
	/* a component beyond NUM_DST_COMPONENTS is not looked at */
	mth(&t, 0x708, REMAP(SRC_X, SRC_Y, SRC_Z, SRC_W, 1, 1, 1));
	mth(&t, 0x300, L_COPY | L_REMAP);
	assert_string_equal(go(&t), "idle");
	assert_false(eng_faulted(&t));
	free(src);
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- physical */

/* clc3b5.h SRC_TYPE / DST_TYPE PHYSICAL with SET_SRC/DST_PHYS_MODE TARGET
 * LOCAL_FB, COHERENT_SYSMEM, NONCOHERENT_SYSMEM. */
static void physical_targets(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t vpa = env_alloc(&t.e, 8192, 4096), back = env_alloc(&t.e, 8192, 4096);
	fill(&t, vpa, 8192, 33);
	set_io(&t, vpa + 1, 0x3000);
	mth(&t, 0x418, 6000);
	mth(&t, 0x260, 0); /* SET_SRC_PHYS_MODE LOCAL_FB */
	mth(&t, 0x264, 1); /* SET_DST_PHYS_MODE COHERENT_SYSMEM */
	mth(&t, 0x300, L_COPY | L_SRC_PHYS | L_DST_PHYS);
	set_io(&t, 0x3000, back);
	mth(&t, 0x260, 2 | 5u << 2); /* NONCOHERENT_SYSMEM, BASIC_KIND ignored */
	mth(&t, 0x264, 0);
	mth(&t, 0x300, L_COPY | L_SRC_PHYS | L_DST_PHYS);
	assert_string_equal(go(&t), "idle");
	uint8_t *a = get(&t, NVM_AP_VRAM, vpa + 1, 6000), *s = get(&t, NVM_AP_SYSMEM, 0x3000, 6000),
	        *b = get(&t, NVM_AP_VRAM, back, 6000);
	assert_memory_equal(a, s, 6000);
	assert_memory_equal(a, b, 6000);
	free(a);
	free(s);
	free(b);
	/* a physical address past the aperture: the CE stops (ENG_FAULTED), no
	 * MMU fault packet */
	uint64_t faults = nvm_event_count(t.e.gpu, NVM_EV_FAULT);
	set_io(&t, vpa, 64ull << 20);
	mth(&t, 0x300, L_COPY | L_SRC_PHYS | L_DST_PHYS);
	go(&t);
	assert_string_equal(seen.err, "pa_out_of_range");
	assert_int_equal(nvm_event_count(t.e.gpu, NVM_EV_FAULT), faults);
	skip_and_clear(&t);
	/* PHYS_MODE TARGET 3 is not defined in C3B5; from C6B5 on it is PEERMEM
	 * (not modelled: an engine error, c6b5_peermem) */
	mth(&t, 0x264, 3);
	mth(&t, 0x300, L_COPY | L_SRC_PHYS | L_DST_PHYS);
	go(&t);
	if (ce_cls < 0xc6b5) {
		expect_launch_error(&t, L_COPY | L_SRC_PHYS | L_DST_PHYS);
	} else {
		assert_int_equal(ramfc(&t, 0xc0), method0(0x300, 1));
		skip_and_clear(&t);
	}
	env_fini(&t.e);
}

/* Without a hook the Host hands a run of state methods to the copy engine
 * without a call (pbdma.c deliver_state, the engine's struct eng_state):
 * the copies, the channel's state and the snapshot's engine section are
 * those of the general path (a hook installed), after a launch that
 * faulted and was skipped (the state methods after it drop its job,
 * drop_stale_job: a launch in progress holds the state path) and after a
 * launch that ran to its end (its translation, which only the general
 * path's next methods unmark, is saved as unused: save_side). */
static void state_path_matches(void **state)
{
	(void)state;
	uint8_t *engs[2], *got[2];
	size_t len[2];
	for (int k = 0; k < 2; k++) {
		struct ct t;
		ct_init(&t, false);
		if (k)
			assert_int_equal(nvm_hook_del(t.e.gpu, t.hook), NVM_OK);
		uint64_t spa, dpa, src = buf(&t, 0x2000, &spa), dst = buf(&t, 0x2000, &dpa);
		fill(&t, spa, 0x2000, 3);
		set_io(&t, FAR, dst + 0x1800); /* its source unmapped: an MMU fault */
		mth(&t, 0x418, 256);
		mth(&t, 0x300, L_COPY);
		go(&t);
		skip_and_clear(&t);
		/* the first run makes the subchannel's decision (the general
		 * path); OFFSET_IN_UPPER .. OFFSET_OUT_LOWER after it in one INC
		 * run of 4 */
		mth(&t, 0x418, 0x1000);
		const uint32_t io[4] = { (uint32_t)(src >> 32), (uint32_t)src, (uint32_t)(dst >> 32), (uint32_t)dst };
		t.w[t.n++] = HDR_INC(t.sub, 0x400, 4);
		for (int i = 0; i < 4; i++)
			t.w[t.n++] = io[i];
		mth(&t, 0x300, L_COPY);
		set_io(&t, src + 0x1000, dst + 0x1000);
		mth(&t, 0x418, 0x800);
		assert_string_equal(go(&t), "idle");
		assert_false(eng_faulted(&t));
		got[k] = get(&t, NVM_AP_VRAM, dpa, 0x1000);
		uint8_t *want = get(&t, NVM_AP_VRAM, spa, 0x1000);
		assert_memory_equal(got[k], want, 0x1000);
		free(want);
		engs[k] = section_of(t.e.gpu, "ENGS", &len[k]);
		env_fini(&t.e);
	}
	assert_int_equal(len[0], len[1]);
	assert_memory_equal(engs[0], engs[1], len[0]);
	for (int k = 0; k < 2; k++) {
		free(engs[k]);
		free(got[k]);
	}
}

/* The copy engine's plain state methods for the Host's hot loop
 * (engine_ops.state, engine_state_takes): runs of SET_OFFSET_IN_UPPER ..
 * (stores) are taken, LAUNCH_DMA is not; a launch in progress holds them
 * (a faulted one stays until the general path's next run drops it:
 * drop_stale_job), and so does a class table pushed out of the engine's
 * cache of two by runs of two other classes. */
static void state_view_holds(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	struct engine *ce = t.e.gpu->engines;
	while (ce && strcmp(ce->name, "ce2"))
		ce = ce->next;
	assert_non_null(ce);
	struct eng_src src = { .chid = CHID, .subch = t.sub, .cls = ce_cls };
	struct eng_state st;
	assert_true(ce->ops->state(ce, &src, &st));
	assert_true(engine_state_takes(&st, 0x400, NVM_PB_MODE_INC, 4));
	assert_true(engine_state_takes(&st, 0x418, NVM_PB_MODE_NINC, 16));
	assert_false(engine_state_takes(&st, 0x300, NVM_PB_MODE_INC, 1));  /* LAUNCH_DMA */
	assert_false(engine_state_takes(&st, 0x2fc, NVM_PB_MODE_1INC, 2)); /* no method at 0x2fc */
	uint64_t dpa, dst = buf(&t, 0x1000, &dpa);
	set_io(&t, FAR, dst);
	mth(&t, 0x418, 256);
	mth(&t, 0x300, L_COPY);
	go(&t);
	assert_true(eng_faulted(&t));
	assert_false(engine_state_takes(&st, 0x400, NVM_PB_MODE_INC, 4));
	skip_and_clear(&t);
	mth(&t, 0x418, 16); /* the general path's first run drops the job */
	assert_string_equal(go(&t), "idle");
	assert_true(engine_state_takes(&st, 0x400, NVM_PB_MODE_INC, 4));
	static const uint32_t others[2] = { 0xc5b5, 0xc6b5 };
	for (int k = 0; k < 2; k++) {
		uint32_t d = 64;
		nvm_pb_run r = { .subch = t.sub, .method = 0x418, .count = 1, .mode = NVM_PB_MODE_INC, .data = &d };
		struct eng_src o = { .chid = CHID, .subch = t.sub, .cls = others[k] };
		struct eng_result res;
		assert_int_equal(ce->ops->methods(ce, &o, &r, 0, 1, &res), ENG_OK);
	}
	assert_false(engine_state_takes(&st, 0x400, NVM_PB_MODE_INC, 4));
	assert_true(ce->ops->state(ce, &src, &st));
	assert_true(engine_state_takes(&st, 0x400, NVM_PB_MODE_INC, 4));
	env_fini(&t.e);
}

/* GMMU sparse mappings (gv100_dev_mmu.ref: "If Valid is 0 and Volatile is
 * 1, the PTE is sparse"): a sparse source reads zeros, writes to a sparse
 * destination are dropped, and neither faults. */
static void sparse_mappings(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, 8192, &spa), dva = buf(&t, 8192, &dpa);
	fill(&t, spa, 8192, 81);
	fill(&t, dpa, 8192, 82);
	ptb_map(&t.e.pt, FAR, 4096, PTB_VOL);
	ptb_map(&t.e.pt, FAR + 4096, 4096, PTB_VOL);
	set_io(&t, FAR + 100, dva + 10);
	mth(&t, 0x418, 5000);
	mth(&t, 0x300, L_COPY);
	set_io(&t, sva, FAR + 7);
	mth(&t, 0x300, L_COPY);
	assert_string_equal(go(&t), "idle");
	assert_false(eng_faulted(&t));
	uint8_t *d = get(&t, NVM_AP_VRAM, dpa, 8192);
	for (unsigned i = 10; i < 5010; i++)
		assert_int_equal(d[i], 0);
	assert_int_equal(d[9], (uint8_t)(82 + 9 * 7));
	assert_int_equal(d[5010], (uint8_t)(82 + 5010 * 7 + (5010 >> 8)));
	free(d);
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- faults */

struct fault {
	unsigned engine, client, client_type, access;
	uint64_t va;
};

/* NV_PFB_PRI_MMU_FAULT_INST_LO ENGINE_ID 8:0; FAULT_INFO CLIENT 14:8,
 * ACCESS_TYPE 19:16, CLIENT_TYPE 20:20; FAULT_ADDR_LO/HI; FAULT_STATUS
 * VALID 31:31 is cleared by writing it. */
static struct fault last_fault(struct ct *t)
{
	nvm_gpu *g = t->e.gpu;
	uint32_t info = rd(g, 0x100e5c);
	struct fault f = { rd(g, 0x100e54) & 0x1ff, info >> 8 & 0x7f, info >> 20 & 1, info >> 16 & 0xf,
		           (uint64_t)rd(g, 0x100e50) << 32 | (rd(g, 0x100e4c) & ~0xfffu) };
	wr(g, 0x100e60, 1u << 31);
	return f;
}

/* silicon H100: an unmapped source, destination or semaphore faults with
 * the CE's engine id (read or write access) and nothing after it runs; the
 * Host parks LAUNCH_DMA in METHOD0 and marks the channel ENG_FAULTED
 * (NV_PCCSR_CHANNEL 23:23); once the page is mapped, writing 1 to
 * ENG_FAULTED lets the launch continue. ce2 is MMU engine CE2 (17), HUB
 * client CE2 (0x18) (volta-facts.md f). */
static void faults_stop_the_channel(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t spa, dpa, mpa;
	uint64_t sva = buf(&t, 8192, &spa), dva = buf(&t, 8192, &dpa), mva = buf(&t, 4096, &mpa);
	fill(&t, spa, 8192, 41);
	struct {
		uint64_t in, out, sem;
		uint32_t launch;
		unsigned access;
		uint64_t fault_va;
	} cases[] = {
		{ FAR, dva, mva, L_COPY | L_SEM_ONE, 0, FAR },                     /* source: READ */
		{ sva, FAR + 0x10000, mva, L_COPY | L_SEM_ONE, 1, FAR + 0x10000 }, /* destination: WRITE */
		{ sva, dva, FAR + 0x20000, L_COPY | L_SEM_ONE, 1, FAR + 0x20000 }, /* release: WRITE */
		{ sva, dva, FAR + 0x30000, L_COPY | L_SEM_ONE | L_RED_ENABLE | L_RED(5), 2,
		  FAR + 0x30000 }, /* IADD: ATOMIC */
	};
	for (unsigned k = 0; k < 4; k++) {
		uint64_t faults = nvm_event_count(t.e.gpu, NVM_EV_FAULT);
		nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa + 64, 0);
		set_io(&t, cases[k].in, cases[k].out);
		mth(&t, 0x418, 6000);
		set_sem(&t, cases[k].sem, 1);
		mth(&t, 0x300, cases[k].launch);
		set_sem(&t, mva + 64, 0x77); /* must not run */
		mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE);
		go(&t);
		assert_int_equal(nvm_event_count(t.e.gpu, NVM_EV_FAULT), faults + 1);
		struct fault f = last_fault(&t);
		assert_int_equal(f.engine, 17);
		assert_int_equal(f.client, 0x18);
		assert_int_equal(f.client_type, 1);
		assert_int_equal(f.access, cases[k].access);
		assert_int_equal(f.va, cases[k].fault_va);
		assert_true(eng_faulted(&t));
		assert_int_equal(ramfc(&t, 0xc0), method0(0x300, 1));
		assert_int_equal(ramfc(&t, 0xc4), cases[k].launch);
		assert_int_equal(env_mem(&t.e, mpa + 64), 0);
		/* map the page, invalidate, clear ENG_FAULTED: the launch goes on */
		uint64_t pa = env_alloc(&t.e, 8192, 4096);
		ptb_map(&t.e.pt, cases[k].fault_va, 4096, ptb_pte(pa, 0, 0, 0));
		ptb_map(&t.e.pt, cases[k].fault_va + 4096, 4096, ptb_pte(pa + 4096, 0, 0, 0));
		wr(t.e.gpu, 0x100cbc, 0x80000003u); /* PFB_PRI_MMU_INVALIDATE all */
		wr(t.e.gpu, 0x800004 + CHID * 8, 1u << 23);
		assert_string_equal(env_run(&t.e, 1000000), "idle");
		assert_false(eng_faulted(&t));
		assert_int_equal(env_mem(&t.e, mpa + 64), 0x77);
		uint8_t *s = get(&t, NVM_AP_VRAM, k == 0 ? pa : spa, 6000);
		uint8_t *d = get(&t, NVM_AP_VRAM, k == 1 ? pa : dpa, 6000);
		assert_memory_equal(s, d, 6000);
		free(s);
		free(d);
		if (k >= 2)
			assert_int_equal(env_mem(&t.e, pa), 1);
	}
	env_fini(&t.e);
}

/* GRCOPY on the GR runlist (subchannel 4) copies as well, and its faults
 * carry MMU engine CE0 (15) and HUB client CE0 (1) (volta-facts.md f). */
static void grcopy(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, true);
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, 4096, &spa), dva = buf(&t, 4096, &dpa);
	fill(&t, spa, 4096, 51);
	set_io(&t, sva, dva);
	mth(&t, 0x418, 4096);
	mth(&t, 0x300, L_COPY);
	assert_string_equal(go(&t), "idle");
	uint8_t *a = get(&t, NVM_AP_VRAM, spa, 4096), *b = get(&t, NVM_AP_VRAM, dpa, 4096);
	assert_memory_equal(a, b, 4096);
	free(a);
	free(b);
	nvm_method log[8];
	assert_int_equal(env_log(&t.e, "grce", log, 8), 6);
	assert_int_equal(log[5].method, 0x300);
	set_io(&t, sva, FAR);
	mth(&t, 0x300, L_COPY);
	go(&t);
	struct fault f = last_fault(&t);
	assert_int_equal(f.engine, 15);
	assert_int_equal(f.client, 1);
	assert_int_equal(f.access, 1);
	assert_true(eng_faulted(&t));
	assert_int_equal(ramfc(&t, 0xc0), method0(0x300, 4));
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- methods */

/* silicon H100: an undefined method is an illegal-method error reported
 * with its method and data; undefined values of LAUNCH_DMA's fields
 * (DATA_TRANSFER_TYPE, SEMAPHORE_TYPE, INTERRUPT_TYPE 3) are launch errors
 * (UNVERIFIED, docs/fidelity.md). */
static void illegal_methods(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t mpa;
	uint64_t mva = buf(&t, 4096, &mpa);
	/* 0x24c is SET_SEMAPHORE_PAYLOAD_UPPER from C7B5 on */
	uint32_t undefined[] = { 0x104, 0x200, 0x304, 0x420, 0x724, 0x740, 0x754, 0x1110, 0x24c };
	unsigned nundef = sizeof(undefined) / sizeof(undefined[0]) - (ce_cls >= 0xc7b5);
	for (unsigned k = 0; k < nundef; k++) {
		nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa, 0);
		mth(&t, undefined[k], 0xabc0 + k);
		set_sem(&t, mva, 5);
		mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE);
		go(&t);
		assert_string_equal(seen.err, "illegal_method");
		assert_int_equal(seen.err_addr, undefined[k]);
		assert_int_equal(seen.err_value, 0xabc0 + k);
		assert_int_equal(ramfc(&t, 0xc0), method0(undefined[k], 1));
		assert_int_equal(ramfc(&t, 0xc4), 0xabc0 + k);
		assert_int_equal(env_mem(&t.e, mpa), 0);
		skip_and_clear(&t);
		assert_int_equal(env_mem(&t.e, mpa), 5); /* the methods after it ran */
	}
	/* SEMAPHORE_TYPE 3 is defined from C5B5 on */
	uint32_t bad[] = { 3u | L_SRC_PITCH | L_DST_PITCH, 3u << 5, 3u << 3 };
	for (unsigned k = 0; k < (ce_cls == 0xc3b5 ? 3u : 2u); k++) {
		mth(&t, 0x300, bad[k]);
		go(&t);
		expect_launch_error(&t, bad[k]);
	}
	env_fini(&t.e);
}

/* Methods the model keeps but does not act on are reported as unmodelled:
 * PM_TRIGGER, PM_TRIGGER_END, SET_RENDER_ENABLE_C other than TRUE, VPRMODE;
 * every other method of clc3b5.h is accepted. */
static void accepted_methods(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint32_t plain[] = { 0x100, 0x240, 0x244, 0x248, 0x254, 0x258, 0x260, 0x264, 0x400, 0x404, 0x408, 0x40c,
		             0x410, 0x414, 0x418, 0x41c, 0x700, 0x704, 0x708, 0x70c, 0x710, 0x714, 0x718, 0x71c,
		             0x720, 0x728, 0x72c, 0x730, 0x734, 0x738, 0x73c, 0x744, 0x748, 0x74c, 0x750 };
	for (unsigned k = 0; k < sizeof(plain) / sizeof(plain[0]); k++)
		mth(&t, plain[k], 0);
	mth(&t, 0x25c, 1); /* SET_RENDER_ENABLE_C MODE TRUE */
	assert_string_equal(go(&t), "idle");
	assert_int_equal(seen.unmodelled, 0);
	assert_int_equal(seen.errors, 0);
	mth(&t, 0x140, 1);     /* PM_TRIGGER */
	mth(&t, 0x1114, 1);    /* PM_TRIGGER_END */
	mth(&t, 0x25c, 2);     /* CONDITIONAL */
	mth(&t, 0x300, L_VPR); /* VPRMODE VPR_VID2VID */
	assert_string_equal(go(&t), "idle");
	assert_int_equal(seen.unmodelled, 4);
	assert_false(eng_faulted(&t));
	nvm_method log[64];
	assert_int_equal(env_log(&t.e, "ce2", log, 64), 40);
	env_fini(&t.e);
}

/* LAUNCH_DMA INTERRUPT_TYPE NON_BLOCKING and BLOCKING raise the non-stall
 * interrupt (NV_PFIFO_INTR_0 CHANNEL_INTR 31:31, write 1 to clear); NONE
 * does not. */
static void nonstall_interrupt(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint32_t types[] = { 0, L_INTR_NONBLOCK, L_INTR_BLOCKING };
	for (unsigned k = 0; k < 3; k++) {
		mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | types[k]);
		assert_string_equal(go(&t), "idle");
		assert_int_equal(rd(t.e.gpu, 0x2100) >> 31, k ? 1 : 0);
		wr(t.e.gpu, 0x2100, 1u << 31);
	}
	assert_int_equal(seen.nonstall, 2);
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- bounds */

static unsigned launch_deliveries;
static void count_launch(void *user, const nvm_event *ev)
{
	(void)user;
	launch_deliveries += ev->addr == 0x300;
}

/* A long copy yields to the Host between pieces (ENG_BUSY: the launch comes
 * back from METHOD0) and still copies every byte, costing virtual time at
 * the documented rate (silicon H100: about 45 GB/s). */
static void long_copy_yields(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	uint64_t size = 10u << 20;
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, size, &spa), dva = buf(&t, size, &dpa);
	fill(&t, spa, size, 61);
	launch_deliveries = 0;
	nvm_hook_add(t.e.gpu, NVM_EV_MASK(NVM_EV_METHOD), count_launch, NULL, NULL);
	uint64_t mpa;
	uint64_t mva = buf(&t, 4096, &mpa);
	set_io(&t, sva, dva);
	mth(&t, 0x418, (uint32_t)size);
	set_sem(&t, mva, 1);
	mth(&t, 0x300, L_COPY | L_SEM_FOUR);
	uint64_t t0 = nvm_time_ns(t.e.gpu);
	assert_string_equal(go(&t), "idle");
	assert_true(launch_deliveries > 1);
	assert_int_equal(seen.launches, 1);
	uint64_t ts = env_mem(&t.e, mpa + 8) | (uint64_t)env_mem(&t.e, mpa + 12) << 32;
	assert_true(ts - t0 >= size / 45 - 32);
	uint8_t *a = get(&t, NVM_AP_VRAM, spa, size), *b = get(&t, NVM_AP_VRAM, dpa, size);
	assert_memory_equal(a, b, size);
	free(a);
	free(b);
	env_fini(&t.e);
}

/* Guest counts are hostile: 2^32 - 1 lines (or one 4 GiB line) of untouched
 * memory neither hang the model nor allocate; the run budget bounds each run
 * (reported as a hang) and the next run goes on. */
static void huge_launch_is_bounded(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	set_io(&t, 0x2000000, 0x1000000);
	set_lines(&t, 1, 1, 1, 0xffffffffu);
	mth(&t, 0x264, 1); /* destination: COHERENT_SYSMEM */
	mth(&t, 0x300, L_COPY | L_MULTI | L_SRC_PHYS | L_DST_PHYS);
	env_push(&t.e, t.c, t.w, t.n);
	t.n = 0;
	uint64_t pages = nvm_mem_pages(t.e.gpu, NVM_AP_VRAM), spages = nvm_mem_pages(t.e.gpu, NVM_AP_SYSMEM);
	nvm_run_opts o = { .ns = UINT64_MAX / 4, .flags = NVM_RUN_UNTIL_IDLE, .max_events = 5000 };
	assert_int_equal(nvm_run(t.e.gpu, &o), NVM_RUN_HANG);
	assert_int_equal(nvm_run(t.e.gpu, &o), NVM_RUN_HANG);
	assert_false(eng_faulted(&t));
	assert_int_equal(nvm_mem_pages(t.e.gpu, NVM_AP_VRAM), pages);
	assert_int_equal(nvm_mem_pages(t.e.gpu, NVM_AP_SYSMEM), spages);
	assert_int_equal(seen.launches, 0);
	env_fini(&t.e);

	ct_init(&t, false);
	set_io(&t, 0x1000000, 0x1000000);
	mth(&t, 0x264, 1);
	mth(&t, 0x418, 0xffffffffu);
	mth(&t, 0x300, L_COPY | L_SRC_PHYS | L_DST_PHYS);
	env_push(&t.e, t.c, t.w, t.n);
	pages = nvm_mem_pages(t.e.gpu, NVM_AP_VRAM);
	assert_int_equal(nvm_run(t.e.gpu, &o), NVM_RUN_HANG);
	assert_int_equal(nvm_mem_pages(t.e.gpu, NVM_AP_VRAM), pages);
	assert_int_equal(nvm_mem_pages(t.e.gpu, NVM_AP_SYSMEM), spages);
	env_fini(&t.e);
}

/* A copy onto a semaphore wakes a Host acquire waiting on it (the CE's
 * writes reach the Host's write watches): channel 1 on the GR runlist waits
 * for 1 (ACQUIRE), the CE channel copies a 1 there. */
static void copy_wakes_acquire(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	struct env_chan *g = env_chan(&t.e, 1, 1);
	env_submit_tsg(&t.e, 0, 2, &g, 1);
	env_run(&t.e, 100000);
	uint64_t spa, mpa;
	uint64_t sva = buf(&t, 4096, &spa), mva = buf(&t, 4096, &mpa);
	nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, spa, 1);
	uint32_t acq[] = {
		HDR_INC(0, 0x5c, 5), (uint32_t)mva, (uint32_t)(mva >> 32), 1, 0, 0, HDR_INC(0, 0x200, 1), 0xa
	};
	env_push(&t.e, g, acq, 8);
	env_run(&t.e, 100000);
	nvm_method log[4];
	assert_int_equal(env_log(&t.e, "gr", log, 4), 0);
	set_io(&t, sva, mva);
	mth(&t, 0x418, 4);
	mth(&t, 0x300, L_COPY);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(env_log(&t.e, "gr", log, 4), 1);
	assert_int_equal(log[0].data, 0xa);
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- block linear */

/* The block-linear layout as NVIDIA documents it for Fermi and later (GOBs
 * of 64 bytes x 8 rows made of 16-byte sectors; blocks of 2^HEIGHT GOBs
 * high, 2^DEPTH deep, one GOB wide), written independently of the model. */
static uint64_t ref_bl(uint64_t width, uint64_t height, unsigned bh, unsigned bd, uint64_t x, uint64_t y, uint64_t z)
{
	uint64_t gobs_high = 1ull << bh, gobs_deep = 1ull << bd;
	uint64_t blocks_wide = (width + 63) / 64, blocks_high = (height + 8 * gobs_high - 1) / (8 * gobs_high);
	uint64_t block_bytes = 512 * gobs_high * gobs_deep;
	uint64_t sector = ((x % 64) / 32) * 16 + ((y % 8) / 2) * 4 + ((x % 32) / 16) * 2 + y % 2;
	uint64_t gob = (z % gobs_deep) * gobs_high + (y / 8) % gobs_high;
	uint64_t block = ((z / gobs_deep) * blocks_high + y / (8 * gobs_high)) * blocks_wide + x / 64;
	return block * block_bytes + gob * 512 + sector * 16 + x % 16;
}

/* clc3b5.h SET_DST/SRC_BLOCK_SIZE (WIDTH 3:0 ONE_GOB, HEIGHT 7:4, DEPTH
 * 11:8, GOB_HEIGHT 15:12 FERMI_8), WIDTH, HEIGHT, LAYER and ORIGIN: a
 * pitch image copied into a block-linear surface lands where the layout
 * says, and copies back unchanged. */
static void block_linear(void **state)
{
	(void)state;
	struct ct t;
	ct_init(&t, false);
	const uint32_t W = 256, H = 40, bh = 1, bd = 1, layer = 3, ox = 10, oy = 3, len = 200, lines = 30;
	uint64_t spa, bpa, rpa;
	uint64_t sva = buf(&t, 8192, &spa), bva = buf(&t, 64 * 1024, &bpa), rva = buf(&t, 8192, &rpa);
	fill(&t, spa, 8192, 71);
	uint8_t *src = get(&t, NVM_AP_VRAM, spa, 8192);
	mth(&t, 0x70c, 0 | bh << 4 | bd << 8 | 1u << 12); /* SET_DST_BLOCK_SIZE */
	mth(&t, 0x710, W);
	mth(&t, 0x714, H);
	mth(&t, 0x718, 4);
	mth(&t, 0x71c, layer);
	mth(&t, 0x74c, ox); /* DST_ORIGIN_X */
	mth(&t, 0x750, oy);
	set_io(&t, sva, bva);
	set_lines(&t, 256, 0, len, lines);
	mth(&t, 0x300, L_NON_PIPELINED | L_SRC_PITCH | L_MULTI);
	assert_string_equal(go(&t), "idle");
	uint8_t *bl = get(&t, NVM_AP_VRAM, bpa, 64 * 1024);
	for (uint32_t y = 0; y < lines; y++)
		for (uint32_t x = 0; x < len; x++)
			assert_int_equal(bl[ref_bl(W, H, bh, bd, ox + x, oy + y, layer)], src[y * 256 + x]);
	free(bl);
	/* and back: block linear to pitch (SET_SRC_ORIGIN packs X 15:0, Y 31:16) */
	mth(&t, 0x728, 0 | bh << 4 | bd << 8 | 1u << 12);
	mth(&t, 0x72c, W);
	mth(&t, 0x730, H);
	mth(&t, 0x734, 4);
	mth(&t, 0x738, layer);
	mth(&t, 0x73c, oy << 16 | ox);
	set_io(&t, bva, rva);
	set_lines(&t, 0, 256, len, lines);
	mth(&t, 0x300, L_NON_PIPELINED | L_DST_PITCH | L_MULTI);
	assert_string_equal(go(&t), "idle");
	uint8_t *r = get(&t, NVM_AP_VRAM, rpa, 8192);
	for (uint32_t y = 0; y < lines; y++)
		assert_memory_equal(r + y * 256, src + y * 256, len);
	free(r);
	/* with remap, WIDTH and ORIGIN X count pixels (4-byte pixels here) */
	set_bytes(&t, bpa, 64 * 1024, 0);
	mth(&t, 0x708, REMAP(SRC_X, NO_WRITE, NO_WRITE, NO_WRITE, 4, 1, 1));
	mth(&t, 0x710, W / 4);
	mth(&t, 0x74c, 2);
	set_io(&t, sva, bva);
	set_lines(&t, 256, 0, 8, 2);
	mth(&t, 0x300, L_NON_PIPELINED | L_SRC_PITCH | L_MULTI | L_REMAP);
	assert_string_equal(go(&t), "idle");
	bl = get(&t, NVM_AP_VRAM, bpa, 64 * 1024);
	for (uint32_t y = 0; y < 2; y++)
		for (uint32_t x = 0; x < 32; x++)
			assert_int_equal(bl[ref_bl(W, H, bh, bd, 8 + x, oy + y, layer)], src[y * 256 + x]);
	free(bl);
	/* block sizes the class does not define: launch errors */
	uint32_t bad[] = { 1u | 1u << 12, 6u << 4 | 1u << 12, 6u << 8 | 1u << 12, 0 };
	for (unsigned k = 0; k < 4; k++) {
		mth(&t, 0x70c, bad[k]);
		mth(&t, 0x300, L_NON_PIPELINED | L_SRC_PITCH);
		go(&t);
		expect_launch_error(&t, L_NON_PIPELINED | L_SRC_PITCH);
	}
	free(src);
	env_fini(&t.e);
}

/* ---------------------------------------------------------------- classes */

#define L_TWO_WORD (1u << 27) /* clc7b5.h SEMAPHORE_PAYLOAD_SIZE 27:27 TWO_WORD */

static void ct_class(struct ct *t, uint32_t cls)
{
	ce_cls = cls;
	ct_init(t, false);
}

static uint64_t mem64(struct ct *t, uint64_t pa)
{
	return env_mem(&t->e, pa) | (uint64_t)env_mem(&t->e, pa + 4) << 32;
}

static void wr64(struct ct *t, uint64_t pa, uint64_t v)
{
	nvm_mem_wr32(t->e.gpu, NVM_AP_VRAM, pa, (uint32_t)v);
	nvm_mem_wr32(t->e.gpu, NVM_AP_VRAM, pa + 4, (uint32_t)(v >> 32));
}

/* clc5b5.h: SEMAPHORE_TYPE 3 RELEASE_CONDITIONAL_INTR_SEMAPHORE (C3B5: a
 * launch error, illegal_methods). UNVERIFIED: released as ONE_WORD and
 * reported, its condition being unpublished. */
static void c5b5_conditional_intr(void **state)
{
	(void)state;
	struct ct t;
	ct_class(&t, 0xc5b5);
	uint64_t mpa;
	uint64_t mva = buf(&t, 4096, &mpa);
	nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa + 4, 0x55);
	set_sem(&t, mva, 0x1234);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | 3u << 3);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(seen.errors, 0);
	assert_int_equal(seen.unmodelled, 1);
	assert_int_equal(env_mem(&t.e, mpa), 0x1234);
	assert_int_equal(env_mem(&t.e, mpa + 4), 0x55); /* one word */
	/* DISABLE_PLC 26:26 is accepted */
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | 1u << 26);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(seen.errors, 0);
	env_fini(&t.e);
}

/* clc6b5.h: SET_*_PHYS_MODE TARGET 3 PEERMEM. Peer memory is not modelled:
 * the launch stops the channel (an engine error) and is reported as
 * unmodelled, as a virtual address that maps peer memory is; C5B5 has no
 * TARGET 3 (a launch error). */
static void c6b5_peermem(void **state)
{
	(void)state;
	uint32_t classes[] = { 0xc5b5, 0xc6b5 };
	for (unsigned k = 0; k < 2; k++) {
		struct ct t;
		ct_class(&t, classes[k]);
		uint64_t dpa;
		uint64_t dva = buf(&t, 4096, &dpa);
		set_bytes(&t, dpa, 4096, 0xaa);
		mth(&t, 0x260, 3u | 2u << 6); /* TARGET PEERMEM, PEER_ID 2 */
		set_io(&t, 0, dva);
		mth(&t, 0x418, 64);
		uint32_t launch = L_COPY | L_SRC_PHYS;
		mth(&t, 0x300, launch);
		go(&t);
		assert_true(eng_faulted(&t));
		if (k == 0) {
			expect_launch_error(&t, launch);
		} else {
			assert_int_equal(seen.errors, 0);
			assert_int_equal(seen.unmodelled, 1);
			assert_int_equal(ramfc(&t, 0xc0), method0(0x300, 1));
		}
		assert_int_equal(env_mem(&t.e, dpa), 0xaaaaaaaau);
		env_fini(&t.e);
	}
}

/* clc7b5.h: SEMAPHORE_PAYLOAD_SIZE TWO_WORD with SET_SEMAPHORE_PAYLOAD_UPPER
 * (0x24C): an 8-byte payload; with a timestamp it sits at +8 (UNVERIFIED,
 * facts A10 ASSUMED); 64-bit reductions follow the Host's rules. C6B5 has
 * no PAYLOAD_SIZE (bit 27 ignored, one word) and no method 0x24C. */
static void c7b5_two_word(void **state)
{
	(void)state;
	struct ct t;
	ct_class(&t, 0xc7b5);
	uint64_t mpa;
	uint64_t mva = buf(&t, 4096, &mpa);
	set_sem(&t, mva, 0x89abcdefu);
	mth(&t, 0x24c, 0x01234567u);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_TWO_WORD);
	assert_string_equal(go(&t), "idle");
	assert_true(mem64(&t, mpa) == 0x0123456789abcdefull);
	/* with a timestamp: payload, then PTIMER at +8 */
	set_sem(&t, mva + 16, 7);
	mth(&t, 0x24c, 8);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_FOUR | L_TWO_WORD);
	assert_string_equal(go(&t), "idle");
	assert_true(mem64(&t, mpa + 16) == (8ull << 32 | 7));
	assert_true(mem64(&t, mpa + 24) != 0);
	assert_int_equal(env_mem(&t.e, mpa + 24) & 0x1f, 0);
	/* a 64-bit IADD carries; IMAX unsigned at 64 bits */
	wr64(&t, mpa + 32, 0x00000000ffffffffull);
	set_sem(&t, mva + 32, 1);
	mth(&t, 0x24c, 0);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_TWO_WORD | L_RED_ENABLE | L_RED(5) | L_RED_UNSIGNED);
	assert_string_equal(go(&t), "idle");
	assert_true(mem64(&t, mpa + 32) == 0x100000000ull);
	mth(&t, 0x24c, 0x80000000u);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_TWO_WORD | L_RED_ENABLE | L_RED(1) | L_RED_UNSIGNED);
	assert_string_equal(go(&t), "idle");
	assert_true(mem64(&t, mpa + 32) == 0x8000000000000001ull);
	/* launch errors: a two-word semaphore not 8-byte aligned; 64-bit INC;
	 * a float reduction at 64 bits (UNVERIFIED) */
	uint32_t bad[] = { L_SEM_ONE | L_TWO_WORD, L_SEM_ONE | L_TWO_WORD | L_RED_ENABLE | L_RED(6) | L_RED_UNSIGNED,
		           L_SEM_ONE | L_TWO_WORD | L_RED_ENABLE | L_RED(0xb) };
	uint64_t at[] = { mva + 36, mva + 32, mva + 32 };
	for (unsigned k = 0; k < 3; k++) {
		set_sem(&t, at[k], 1);
		mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | bad[k]);
		go(&t);
		expect_launch_error(&t, L_SRC_PITCH | L_DST_PITCH | bad[k]);
	}
	assert_true(mem64(&t, mpa + 32) == 0x8000000000000001ull);
	env_fini(&t.e);
	/* C6B5: bit 27 is no field (one word written), 0x24C is undefined */
	ct_class(&t, 0xc6b5);
	mva = buf(&t, 4096, &mpa);
	wr64(&t, mpa, ~0ull);
	set_sem(&t, mva, 3);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_TWO_WORD);
	assert_string_equal(go(&t), "idle");
	assert_true(mem64(&t, mpa) == 0xffffffff00000003ull);
	mth(&t, 0x24c, 1);
	go(&t);
	assert_string_equal(seen.err, "illegal_method");
	env_fini(&t.e);
}

/* A signed 64-bit IADD (TWO_WORD, SIGN SIGNED): the gv100 manual's rule
 * (invalid: a launch error) on C7B5; on C8B5 silicon H100's (IADD ignores
 * the format: valid, it carries). */
static void iadd64_signed(void **state)
{
	(void)state;
	uint32_t classes[] = { 0xc7b5, 0xc8b5 };
	for (unsigned k = 0; k < 2; k++) {
		struct ct t;
		ct_class(&t, classes[k]);
		uint64_t mpa;
		uint64_t mva = buf(&t, 4096, &mpa);
		wr64(&t, mpa, 0x00000000ffffffffull);
		set_sem(&t, mva, 1);
		mth(&t, 0x24c, 0);
		uint32_t launch = L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_TWO_WORD | L_RED_ENABLE | L_RED(5);
		mth(&t, 0x300, launch);
		go(&t);
		if (k == 0) {
			expect_launch_error(&t, launch);
			assert_true(mem64(&t, mpa) == 0xffffffffull);
		} else {
			assert_int_equal(seen.errors, 0);
			assert_true(mem64(&t, mpa) == 0x100000000ull);
		}
		env_fini(&t.e);
	}
}

/* clc7b5.h: SEMAPHORE_REDUCTION FMIN (0xB) and FMAX (0xC), f32.
 * UNVERIFIED: IEEE minNum/maxNum (a NaN loses to a number), -0 < +0. C6B5
 * has neither (launch errors). */
static void c7b5_fmin_fmax(void **state)
{
	(void)state;
	struct ct t;
	ct_class(&t, 0xc7b5);
	uint64_t mpa;
	uint64_t mva = buf(&t, 4096, &mpa);
	struct {
		unsigned op;
		uint32_t old, pl, want;
	} cases[] = {
		{ 0xb, 0x3fc00000u, 0x40100000u, 0x3fc00000u }, /* FMIN(1.5, 2.25) */
		{ 0xc, 0x3fc00000u, 0x40100000u, 0x40100000u }, /* FMAX */
		{ 0xb, 0xbf800000u, 0x3f800000u, 0xbf800000u }, /* FMIN(-1, 1) */
		{ 0xc, 0xbf800000u, 0x3f800000u, 0x3f800000u },
		{ 0xb, 0x00000000u, 0x80000000u, 0x80000000u }, /* -0 below +0 */
		{ 0xc, 0x00000000u, 0x80000000u, 0x00000000u },
		{ 0xb, 0x7fc00000u, 0x40000000u, 0x40000000u }, /* a NaN loses */
		{ 0xc, 0x40000000u, 0x7fc00000u, 0x40000000u },
		{ 0xb, 0x7fc00000u, 0xffc00000u, 0x7fffffffu }, /* two NaNs */
		{ 0xb, 0x00000001u, 0x00000002u, 0x00000001u }, /* denormals kept */
	};
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		nvm_mem_wr32(t.e.gpu, NVM_AP_VRAM, mpa, cases[k].old);
		set_sem(&t, mva, cases[k].pl);
		mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_RED_ENABLE | L_RED(cases[k].op));
		assert_string_equal(go(&t), "idle");
		assert_int_equal(env_mem(&t.e, mpa), cases[k].want);
	}
	assert_int_equal(seen.errors, 0);
	env_fini(&t.e);
	ct_class(&t, 0xc6b5);
	mva = buf(&t, 4096, &mpa);
	for (unsigned op = 0xb; op <= 0xc; op++) {
		uint32_t launch = L_SRC_PITCH | L_DST_PITCH | L_SEM_ONE | L_RED_ENABLE | L_RED(op);
		set_sem(&t, mva, 1);
		mth(&t, 0x300, launch);
		go(&t);
		expect_launch_error(&t, launch);
	}
	env_fini(&t.e);
}

/* clc8b5.h: OFFSET_IN/OUT_UPPER and SET_SEMAPHORE_A UPPER are 24:0 (16:0
 * before): bit 17 of UPPER is dropped by C7B5 and addresses VA bit 49 on
 * C8B5 (beyond the ver2 page tables of this GPU: an MMU fault). */
static void c8b5_upper_bits(void **state)
{
	(void)state;
	uint32_t classes[] = { 0xc7b5, 0xc8b5 };
	for (unsigned k = 0; k < 2; k++) {
		struct ct t;
		ct_class(&t, classes[k]);
		uint64_t spa, dpa;
		uint64_t sva = buf(&t, 4096, &spa), dva = buf(&t, 4096, &dpa);
		fill(&t, spa, 4096, 9);
		set_bytes(&t, dpa, 4096, 0);
		mth(&t, 0x400, (uint32_t)(sva >> 32) | 1u << 17);
		mth(&t, 0x404, (uint32_t)sva);
		mth(&t, 0x408, (uint32_t)(dva >> 32));
		mth(&t, 0x40c, (uint32_t)dva);
		mth(&t, 0x418, 256);
		mth(&t, 0x300, L_COPY);
		go(&t);
		assert_int_equal(eng_faulted(&t), k == 1);
		assert_int_equal(env_mem(&t.e, dpa) == env_mem(&t.e, spa), k == 0);
		env_fini(&t.e);
	}
}

/* clc8b5.h LAUNCH_DMA: COPY_TYPE 21:20 (SECURE, NONPROT2NONPROT reported;
 * RESERVED a launch error, UNVERIFIED), VPRMODE 22:22, MEMORY_SCRUB_ENABLE
 * 23:23 (reported; the launch copies as a plain one, UNVERIFIED); the new
 * methods (secure copy, auth tags, IVs, scrub parameters) are reported.
 * On C7B5 bit 23 is VPRMODE's and 0x500 is undefined. */
static void c8b5_launch_fields(void **state)
{
	(void)state;
	struct ct t;
	ct_class(&t, 0xc8b5);
	uint64_t spa, dpa;
	uint64_t sva = buf(&t, 4096, &spa), dva = buf(&t, 4096, &dpa);
	fill(&t, spa, 4096, 4);
	uint32_t fields[] = { 1u << 20, 2u << 20, 1u << 22, 1u << 23 };
	for (unsigned k = 0; k < 4; k++) {
		set_bytes(&t, dpa, 4096, 0);
		set_io(&t, sva, dva);
		mth(&t, 0x418, 128);
		seen.unmodelled = 0;
		mth(&t, 0x300, L_COPY | fields[k]);
		assert_string_equal(go(&t), "idle");
		assert_int_equal(seen.unmodelled, 1);
		assert_int_equal(env_mem(&t.e, dpa + 124), env_mem(&t.e, spa + 124));
	}
	mth(&t, 0x300, L_COPY | 3u << 20);
	go(&t);
	expect_launch_error(&t, L_COPY | 3u << 20);
	uint32_t added[] = { 0x500, 0x514, 0x518, 0x530, 0x534, 0x538, 0x53c, 0x6fc };
	seen.unmodelled = seen.errors = 0;
	for (unsigned k = 0; k < 8; k++)
		mth(&t, added[k], 0);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(seen.unmodelled, 8);
	assert_int_equal(seen.errors, 0);
	env_fini(&t.e);
	ct_class(&t, 0xc7b5);
	mth(&t, 0x300, L_SRC_PITCH | L_DST_PITCH | 1u << 23);
	assert_string_equal(go(&t), "idle");
	assert_int_equal(seen.unmodelled, 1); /* VPRMODE 23:22 */
	mth(&t, 0x500, 0);
	go(&t);
	assert_string_equal(seen.err, "illegal_method");
	env_fini(&t.e);
}

/* The class lookup the Host generations use (their ce_class). */
static void class_lookup(void **state)
{
	(void)state;
	assert_ptr_equal(ce_class_find(0xc3b5), &ce_c3b5);
	assert_ptr_equal(ce_class_find(0xc5b5), &ce_c5b5);
	assert_ptr_equal(ce_class_find(0xc6b5), &ce_c6b5);
	assert_ptr_equal(ce_class_find(0xc7b5), &ce_c7b5);
	assert_ptr_equal(ce_class_find(0xc8b5), &ce_c8b5);
	assert_null(ce_class_find(0xc4b5));
	assert_null(ce_class_find(0xc86f));
}

static int use_c3b5(void **state)
{
	(void)state;
	ce_cls = 0xc3b5;
	return 0;
}

static int use_c8b5(void **state)
{
	(void)state;
	ce_cls = 0xc8b5;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(copy_1d_exact),
		cmocka_unit_test(nothing_to_copy),
		cmocka_unit_test(overlap_is_memmove),
		cmocka_unit_test(copy_2d),
		cmocka_unit_test(state_persists),
		cmocka_unit_test(state_is_per_channel),
		cmocka_unit_test(semaphore_layouts),
		cmocka_unit_test(semaphore_alignment),
		cmocka_unit_test(semaphore_reductions),
		cmocka_unit_test(remap_components),
		cmocka_unit_test(physical_targets),
		cmocka_unit_test(sparse_mappings),
		cmocka_unit_test(faults_stop_the_channel),
		cmocka_unit_test(grcopy),
		cmocka_unit_test(illegal_methods),
		cmocka_unit_test(accepted_methods),
		cmocka_unit_test(nonstall_interrupt),
		cmocka_unit_test(long_copy_yields),
		cmocka_unit_test(huge_launch_is_bounded),
		cmocka_unit_test(copy_wakes_acquire),
		cmocka_unit_test(block_linear),
		cmocka_unit_test(state_path_matches),
		cmocka_unit_test(state_view_holds),
	};
	const struct CMUnitTest class_tests[] = {
		cmocka_unit_test(class_lookup),    cmocka_unit_test(c5b5_conditional_intr),
		cmocka_unit_test(c6b5_peermem),    cmocka_unit_test(c7b5_two_word),
		cmocka_unit_test(c7b5_fmin_fmax),  cmocka_unit_test(iadd64_signed),
		cmocka_unit_test(c8b5_upper_bits), cmocka_unit_test(c8b5_launch_fields),
	};
	int failed = cmocka_run_group_tests_name("C3B5", tests, use_c3b5, NULL);
	failed += cmocka_run_group_tests_name("C8B5 (silicon H100 cases)", tests, use_c8b5, NULL);
	return failed + cmocka_run_group_tests_name("classes", class_tests, NULL, NULL);
}
