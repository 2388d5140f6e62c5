/*
 * An outside program, the way an emulator or a driver's test harness embeds
 * nvmodel (issue 22), built against an installed nvmodel with nothing but
 * `pkg-config --cflags --libs nvmodel` (tests/install/check.sh).
 *
 * System memory is this program's own buffer (nvm_mem_map_ptr). The
 * library's set-up helpers (nvmodel/setup.h) build a Volta channel in it:
 * page tables, instance block, USERD, GPFIFO ring, pushbuffer and runlist.
 * The program then drives the channel as a driver does: GR methods and a
 * semaphore release, then an acquire of a value the CPU writes later into
 * its own buffer, then another release. Each release is read back from the
 * program's buffer, not through the library.
 *
 * Then the save states: the same driver steps run on GPU A without a break,
 * and, for each cut between two steps, on GPU B up to the cut, which is
 * saved (nvm_snapshot_save), loaded into a fresh GPU C (with a copy of B's
 * buffer: caller-owned memory is the caller's to keep) and run on from
 * there. C's events after the load must be A's events after the cut, line
 * for line, and C's buffer must end as A's. One cut falls in the middle of
 * the pushbuffer, one while the acquire waits.
 *
 * Exit 0 when all of that holds; 1 with a message otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nvmodel/nvmodel.h>
#include <nvmodel/setup.h>

#define SYSMEM_SIZE (4u << 20)

/* A method header of the Fermi+ format: SEC_OP 31:29 (1 INC), COUNT 28:16,
 * SUBCHANNEL 15:13, METHOD ADDRESS 11:0 (dwords). */
#define INC(subch, mthd, n) (0x20000000u | (uint32_t)(n) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(mthd) >> 2)

/* C36F (Volta host class) methods. */
#define SEM_ADDR_LO 0x5c /* then SEM_ADDR_HI, SEM_PAYLOAD_LO, SEM_PAYLOAD_HI */
#define SEM_EXECUTE 0x6c
/* SEM_EXECUTE OPERATION 2:0 (RELEASE 1, ACQ_STRICT_GEQ 2), RELEASE_WFI
 * 20:20 (clc36f.h). */
#define SEM_RELEASE_WFI 0x100001u
#define SEM_ACQUIRE_GEQ 0x000002u

/* The driver's state: plain data, copied from B to C with the buffer. */
struct driver {
	nvm_setup_channel ch;
	uint64_t sem_va; /* two semaphore words: +0 released by the GPU, +16 by the CPU */
	nvm_place sem;
};

struct gpu_run {
	nvm_gpu *gpu;
	uint8_t *mem; /* the program's system memory */
	struct driver drv;
	char **line; /* every event, as text */
	size_t n, cap;
	int oom;
};

static int failed;

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "channel: FAILED: %s\n", what);
		failed = 1;
	}
}

static int ok_st(nvm_status st, const char *what)
{
	if (st != NVM_OK) {
		fprintf(stderr, "channel: %s: %s\n", what, nvm_status_str(st));
		failed = 1;
	}
	return st == NVM_OK;
}

static void record(void *user, const nvm_event *ev)
{
	struct gpu_run *r = user;
	if (r->n == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 256;
		char **l = realloc(r->line, cap * sizeof(*l));
		if (!l) {
			r->oom = 1;
			return;
		}
		r->line = l;
		r->cap = cap;
	}
	char buf[512];
	snprintf(buf, sizeof(buf), "%s %llu %s %s 0x%llx 0x%llx %s", nvm_event_type_name(ev->type),
	         (unsigned long long)ev->time_ns, ev->block, ev->code, (unsigned long long)ev->addr,
	         (unsigned long long)ev->value, ev->message ? ev->message : "");
	size_t len = strlen(buf) + 1;
	if (!(r->line[r->n] = malloc(len)))
		r->oom = 1;
	else
		memcpy(r->line[r->n++], buf, len);
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Opens a gv100 whose system memory is r->mem, with every event recorded. */
static int gpu_open(struct gpu_run *r)
{
	nvm_config cfg = { .chip = "gv100", .vram_size = 64u << 20, .sysmem_size = SYSMEM_SIZE };
	int id;
	memset(r, 0, sizeof(*r));
	r->mem = aligned_alloc(4096, SYSMEM_SIZE);
	if (!r->mem)
		return 0;
	memset(r->mem, 0, SYSMEM_SIZE);
	return ok_st(nvm_open(&cfg, &r->gpu), "nvm_open") &&
	       ok_st(nvm_mem_map_ptr(r->gpu, NVM_AP_SYSMEM, 0, SYSMEM_SIZE, r->mem), "nvm_mem_map_ptr") &&
	       ok_st(nvm_hook_add(r->gpu, NVM_EV_ALL, record, r, &id), "nvm_hook_add");
}

static void gpu_close(struct gpu_run *r)
{
	nvm_close(r->gpu);
	free(r->mem);
	for (size_t i = 0; i < r->n; i++)
		free(r->line[i]);
	free(r->line);
}

/* The driver's set-up, everything in the program's memory: a heap over it,
 * the VM, a semaphore page, channel 3 on runlist 0 in a TSG of its own. */
static int setup(struct gpu_run *r)
{
	nvm_gpu *gpu = r->gpu;
	struct driver *d = &r->drv;
	nvm_heap heap;
	nvm_gmmu_vm *vm = NULL;
	nvm_channel_desc cd;
	nvm_rl_entry e[2];
	nvm_place rl;
	nvm_channel_desc_init(&cd);
	cd.chid = 3;
	cd.runlist = 0;
	cd.gpfifo_entries = 16;
	cd.pb_size = 131072;
	int ok = ok_st(nvm_heap_init(&heap, NVM_MMU_TGT_SYS_COH, 0x1000, SYSMEM_SIZE - 0x1000), "heap") &&
	         ok_st(nvm_setup_host_init(gpu), "nvm_setup_host_init") &&
	         ok_st(nvm_gmmu_vm_create(gpu, &heap, 0x100000000ull, &vm), "nvm_gmmu_vm_create") &&
	         ok_st(nvm_gmmu_alloc_map(gpu, vm, NULL, 4096, NULL, &d->sem_va, &d->sem), "semaphore page") &&
	         ok_st(nvm_channel_create(gpu, vm, NULL, &cd, &d->ch), "nvm_channel_create");
	if (ok) {
		nvm_rl_tsg(&e[0], 3, 1, 128, 3);
		nvm_rl_chan(&e[1], d->ch.chid, d->ch.runq, d->ch.inst, d->ch.userd);
		ok = ok_st(nvm_runlist_write(gpu, &heap, e, 2, &rl), "nvm_runlist_write") &&
		     ok_st(nvm_runlist_submit(gpu, 0, rl, 2), "nvm_runlist_submit");
		d->ch.submitted = 0;
	}
	nvm_gmmu_vm_free(vm); /* the tables stay in memory; the builder's records are not needed */
	return ok;
}

/* A semaphore method group: address, payload, then SEM_EXECUTE op. */
static size_t sem_methods(uint32_t *pb, uint64_t va, uint32_t payload, uint32_t op)
{
	uint32_t m[] = {
		INC(0, SEM_ADDR_LO, 4), (uint32_t)va, (uint32_t)(va >> 32), payload, 0, INC(0, SEM_EXECUTE, 1), op
	};
	memcpy(pb, m, sizeof(m));
	return sizeof(m) / 4;
}

/* The driver's steps after the set-up; the same on A, B and C. */
enum { STEP_PUSH, STEP_RUN_PART, STEP_RUN_IDLE, STEP_CPU_WRITE, STEP_RUN_END, NSTEPS };

static int step(struct gpu_run *r, unsigned i)
{
	nvm_gpu *gpu = r->gpu;
	struct driver *d = &r->drv;
	nvm_run_opts part = { .ns = 5000 }, idle = { .ns = 10000000, .flags = NVM_RUN_UNTIL_IDLE };
	static uint32_t pb[24000];
	size_t n = 0;
	switch (i) {
	case STEP_PUSH:
		/* GP entry 0: SET_OBJECT VOLTA_A (C397) on subchannel 1,
		 * 16000 GR methods in short runs (more than a PBDMA step
		 * takes), a release of 1. GP entry 1: an acquire of 2 at +16
		 * (the CPU's), then a release of 3. */
		pb[n++] = INC(1, 0, 1);
		pb[n++] = 0xc397;
		for (unsigned k = 0; k < 4000; k++) {
			pb[n++] = INC(1, 0x200 + 16 * (k % 8), 4);
			for (unsigned j = 0; j < 4; j++)
				pb[n++] = k * 4 + j;
		}
		n += sem_methods(pb + n, d->sem_va, 1, SEM_RELEASE_WFI);
		if (!ok_st(nvm_channel_push(gpu, &d->ch, pb, 4 * n, NULL, 0, NULL, NULL), "push 0"))
			return 0;
		n = sem_methods(pb, d->sem_va + 16, 2, SEM_ACQUIRE_GEQ);
		n += sem_methods(pb + n, d->sem_va, 3, SEM_RELEASE_WFI);
		return ok_st(nvm_channel_push(gpu, &d->ch, pb, 4 * n, NULL, 1, NULL, NULL), "push 1");
	case STEP_RUN_PART: /* 5 us: the Host is in the middle of GP entry 0 */ nvm_run(gpu, &part); return 1;
	case STEP_RUN_IDLE: /* the release of 1 lands, the acquire waits */ nvm_run(gpu, &idle); return 1;
	case STEP_CPU_WRITE: /* the CPU releases 2 in its own memory, and says so */
		memcpy(r->mem + d->sem.addr + 16, &(uint32_t){ 2 }, 4);
		return ok_st(nvm_mem_written(gpu, NVM_AP_SYSMEM, d->sem.addr + 16, 4), "nvm_mem_written");
	case STEP_RUN_END: nvm_run(gpu, &idle); return 1;
	}
	return 0;
}

/* The semaphore the program read in its own memory after a step of run A. */
static void check_sem(uint32_t got, unsigned after, uint32_t want)
{
	char what[96];
	snprintf(what, sizeof(what), "semaphore 0x%x in the program's buffer after step %u (want 0x%x)", got, after,
	         want);
	check(got == want, what);
}

int main(void)
{
	/* A: the whole run, no break. */
	struct gpu_run a;
	if (!gpu_open(&a) || !setup(&a))
		return 1;
	size_t mark[NSTEPS + 1];
	uint32_t sem_at[NSTEPS];
	for (unsigned i = 0; i < NSTEPS; i++) {
		mark[i] = a.n;
		if (!step(&a, i))
			return 1;
		sem_at[i] = le32(a.mem + a.drv.sem.addr);
	}
	mark[NSTEPS] = a.n;
	check_sem(sem_at[STEP_RUN_PART], STEP_RUN_PART, 0); /* mid-pushbuffer */
	check_sem(sem_at[STEP_RUN_IDLE], STEP_RUN_IDLE, 1); /* the acquire waits */
	check_sem(sem_at[STEP_CPU_WRITE], STEP_CPU_WRITE, 1);
	check_sem(sem_at[STEP_RUN_END], STEP_RUN_END, 3);
	check(!a.oom, "out of memory recording events");
	uint32_t get = 0;
	nvm_channel_userd_rd32(a.gpu, &a.drv.ch, 0x88, &get); /* NV_RAMUSERD_GP_GET */
	check(get == 2, "USERD GP_GET is 2 after both GP entries");
	printf("run A: %zu events, semaphore 0x%x in the program's buffer, GP_GET %u\n", a.n,
	       le32(a.mem + a.drv.sem.addr), get);

	/* For each cut: B runs up to it and is saved; C loads it and runs on. */
	for (unsigned cut = STEP_RUN_PART; cut <= STEP_RUN_END; cut++) {
		struct gpu_run b, c;
		if (!gpu_open(&b) || !setup(&b))
			return 1;
		for (unsigned i = 0; i < cut; i++)
			if (!step(&b, i))
				return 1;
		size_t len = 0;
		nvm_snapshot_save(b.gpu, NULL, 0, &len); /* measure */
		void *snap = malloc(len);
		if (!snap || !ok_st(nvm_snapshot_save(b.gpu, snap, len, &len), "nvm_snapshot_save"))
			return 1;
		if (!gpu_open(&c))
			return 1;
		memcpy(c.mem, b.mem, SYSMEM_SIZE); /* the caller's memory is the caller's to carry */
		c.drv = b.drv;
		if (!ok_st(nvm_snapshot_load(c.gpu, snap, len), "nvm_snapshot_load"))
			return 1;
		for (unsigned i = cut; i < NSTEPS; i++)
			if (!step(&c, i))
				return 1;
		/* C's events are A's from the cut on. */
		size_t want = mark[NSTEPS] - mark[cut], same = 0;
		while (same < want && same < c.n && !strcmp(a.line[mark[cut] + same], c.line[same]))
			same++;
		char what[160];
		snprintf(what, sizeof(what),
		         "cut before step %u: restored run has %zu events, A has %zu; first %zu equal", cut, c.n, want,
		         same);
		check(same == want && c.n == want, what);
		if (same < want && same < c.n)
			fprintf(stderr, "  A: %s\n  C: %s\n", a.line[mark[cut] + same], c.line[same]);
		check(!memcmp(a.mem, c.mem, SYSMEM_SIZE), "the restored run's memory ends as A's");
		check(nvm_time_ns(a.gpu) == nvm_time_ns(c.gpu), "the restored run ends at A's virtual time");
		printf("cut before step %u: snapshot %zu bytes at %llu ns, %zu events after it, identical to run A: "
		       "%s\n",
		       cut, len, (unsigned long long)nvm_time_ns(b.gpu), c.n,
		       same == want && c.n == want ? "yes" : "NO");
		free(snap);
		gpu_close(&b);
		gpu_close(&c);
	}
	gpu_close(&a);
	if (!failed)
		printf("channel: ok\n");
	return failed;
}
