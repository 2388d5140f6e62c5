/* Caller-owned memory (issue 22 item 2, "Caller-owned memory";
 * include/nvmodel/nvmodel.h nvm_mem_map_*): an aperture range backed by the
 * caller's buffer or by its read/write callbacks. The Host and copy-engine
 * test programs also run whole over both (tests/CMakeLists.txt ENV_MEM);
 * these cover the calls themselves and what a driver written against its
 * own memory sees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"
#include "core/core.h"
#include "host_env.h"

#define MiB (1ull << 20)

static nvm_gpu *open_gpu(uint64_t budget)
{
	nvm_config cfg = { .chip = "gv100", .vram_size = 16 * MiB, .sysmem_size = 16 * MiB, .mem_budget = budget };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

/* The model writes into the buffer in place and reads the caller's writes
 * there; nvm_mem_page hands out pointers into it; no model page is used. */
static void ptr_in_place(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu(0);
	uint8_t *buf = calloc(1, 2 * MiB);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_SYSMEM, 4 * MiB, 2 * MiB, buf), NVM_OK);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 4 * MiB + 0x1234 * 4, 0xcafef00d), NVM_OK);
	uint32_t v;
	memcpy(&v, buf + 0x1234 * 4, 4);
	assert_int_equal(v, 0xcafef00d);
	v = 0x12345678;
	memcpy(buf + 2 * MiB - 4, &v, 4);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_SYSMEM, 6 * MiB - 4, &v), NVM_OK);
	assert_int_equal(v, 0x12345678);
	uint8_t *p;
	size_t avail;
	assert_int_equal(nvm_mem_page(gpu, NVM_AP_SYSMEM, 4 * MiB + 0x10, 1, &p, &avail), NVM_OK);
	assert_ptr_equal(p, buf + 0x10);
	assert_int_equal(avail, 4096 - 0x10);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_SYSMEM), 0);
	/* Outside the range the model's own pages as before. */
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 6 * MiB, 1), NVM_OK);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_SYSMEM), 1);
	/* Unmapped: the range reads zeros again and the buffer is left alone. */
	assert_int_equal(nvm_mem_unmap(gpu, NVM_AP_SYSMEM, 4 * MiB, 2 * MiB), NVM_OK);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_SYSMEM, 4 * MiB + 0x1234 * 4, &v), NVM_OK);
	assert_int_equal(v, 0);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 4 * MiB, 7), NVM_OK);
	assert_int_equal(buf[0], 0);
	nvm_close(gpu);
	free(buf);
}

/* Mapping drops the model's pages in the range and gives their budget back;
 * the budget never counts caller memory. */
static void budget_and_dropped_pages(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu(12 * 4096); /* 8 pages and the 4 radix nodes over them */
	for (uint64_t a = 0; a < 8 * 4096; a += 4096)
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, a, 0xaa), NVM_OK);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 8);
	uint8_t *buf = calloc(1, 4 * MiB);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 4096, 4 * 4096, buf), NVM_OK);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 4);
	uint32_t v;
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 4096, &v), NVM_OK);
	assert_int_equal(v, 0); /* the caller's (zeroed) buffer, not the dropped page */
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 5 * 4096, &v), NVM_OK);
	assert_int_equal(v, 0xaa); /* past the range: the model's page */
	/* Four pages freed: four more fit the budget; then it is full. */
	for (uint64_t a = 8 * 4096; a < 12 * 4096; a += 4096)
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, a, 1), NVM_OK);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 12 * 4096, 1), NVM_ERR_NOMEM);
	/* A large caller range costs the budget nothing. */
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 4 * MiB, 4 * MiB, buf), NVM_OK);
	uint8_t *big = malloc(2 * MiB);
	memset(big, 0x5a, 2 * MiB);
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_VRAM, 5 * MiB, big, 2 * MiB), NVM_OK);
	assert_int_equal(buf[MiB], 0x5a);
	nvm_close(gpu);
	free(buf);
	free(big);
}

static unsigned hook_calls;
static nvm_status hook_status;

static void map_from_hook(void *user, const nvm_event *ev)
{
	(void)ev;
	static uint8_t page[4096];
	hook_calls++;
	hook_status = nvm_mem_map_ptr(user, NVM_AP_SYSMEM, 0, 4096, page);
}

static void map_errors(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu(0);
	static uint8_t buf[64 * 4096];
	nvm_mem_io io = { env_io_read, env_io_write, buf };
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 0x800, 4096, buf), NVM_ERR_ALIGN);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 0, 4095, buf), NVM_ERR_ALIGN);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 0, 0, buf), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 16 * MiB - 4096, 8192, buf), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, UINT64_MAX - 4095, 4096, buf), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 0, 4096, NULL), NVM_ERR_ARG);
	assert_int_equal(nvm_mem_map_ptr(gpu, (nvm_aperture)7, 0, 4096, buf), NVM_ERR_APERTURE);
	assert_int_equal(nvm_mem_map_ptr(NULL, NVM_AP_VRAM, 0, 4096, buf), NVM_ERR_ARG);
	nvm_mem_io half = { env_io_read, NULL, buf };
	assert_int_equal(nvm_mem_map_io(gpu, NVM_AP_VRAM, 0, 4096, &half), NVM_ERR_ARG);
	assert_int_equal(nvm_mem_map_io(gpu, NVM_AP_VRAM, 0, 4096, NULL), NVM_ERR_ARG);
	/* Overlaps: any page in common with a range is refused. */
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 8 * 4096, 8 * 4096, buf), NVM_OK);
	assert_int_equal(nvm_mem_map_io(gpu, NVM_AP_VRAM, 15 * 4096, 4096, &io), NVM_ERR_ARG);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 4 * 4096, 5 * 4096, buf), NVM_ERR_ARG);
	assert_int_equal(nvm_mem_map_io(gpu, NVM_AP_VRAM, 16 * 4096, 4096, &io), NVM_OK); /* adjacent */
	/* Unmap names one whole range. */
	assert_int_equal(nvm_mem_unmap(gpu, NVM_AP_VRAM, 8 * 4096, 4096), NVM_ERR_NOENT);
	assert_int_equal(nvm_mem_unmap(gpu, NVM_AP_VRAM, 0, 4096), NVM_ERR_NOENT);
	assert_int_equal(nvm_mem_unmap(gpu, NVM_AP_VRAM, 8 * 4096, 8 * 4096), NVM_OK);
	assert_int_equal(nvm_mem_unmap(gpu, NVM_AP_VRAM, 8 * 4096, 8 * 4096), NVM_ERR_NOENT);
	/* At most NVM_MEM_MAX_RANGES per aperture. */
	unsigned n = 1; /* the io range above */
	for (uint64_t a = MiB; n < NVM_MEM_MAX_RANGES; a += 8192, n++)
		assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, a, 4096, buf), NVM_OK);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 8 * MiB, 4096, buf), NVM_ERR_NOMEM);
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_SYSMEM, 8 * MiB, 4096, buf), NVM_OK); /* per aperture */
	/* nvm_mem_written: bounds. */
	assert_int_equal(nvm_mem_written(gpu, NVM_AP_VRAM, 16 * MiB - 4, 8), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_written(gpu, NVM_AP_VRAM, 0, 0), NVM_OK);
	assert_int_equal(nvm_mem_written(gpu, (nvm_aperture)2, 0, 4), NVM_ERR_APERTURE);
	nvm_close(gpu);

	/* From a hook (inside nvm_run): refused, a run may hold pointers. */
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	hook_calls = 0;
	assert_int_equal(nvm_hook_add(e.gpu, NVM_EV_MASK(NVM_EV_TRACE), map_from_hook, e.gpu, NULL), NVM_OK);
	uint32_t pb[] = { HDR_INC(0, 0x50, 1), 1 }; /* SET_REFERENCE: traced */
	env_push(&e, c, pb, 2);
	env_run(&e, 100000);
	assert_true(hook_calls > 0);
	assert_int_equal(hook_status, NVM_ERR_BUSY);
	env_fini(&e);
}

/* Callbacks: one call per piece, never across a range's end; an access
 * across a model page, a buffer range and a callback range is stitched
 * together; a failing callback is an access outside the aperture. */
static struct {
	uint64_t lo, hi; /* the io range, bytes */
	unsigned reads, writes;
	int fail;
} io_seen;

static int io_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	assert_true(addr >= io_seen.lo && len >= 1 && addr + len <= io_seen.hi);
	io_seen.reads++;
	memcpy(buf, (uint8_t *)ctx + (addr - io_seen.lo), len);
	return io_seen.fail;
}

static int io_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	assert_true(addr >= io_seen.lo && len >= 1 && addr + len <= io_seen.hi);
	io_seen.writes++;
	memcpy((uint8_t *)ctx + (addr - io_seen.lo), buf, len);
	return io_seen.fail;
}

static void io_pieces(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu(0);
	static uint8_t mine[8192], theirs[3 * 4096];
	memset(&io_seen, 0, sizeof(io_seen));
	io_seen.lo = 0x3000;
	io_seen.hi = 0x6000;
	nvm_mem_io io = { io_read, io_write, theirs };
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, 0x1000, 0x2000, mine), NVM_OK);
	assert_int_equal(nvm_mem_map_io(gpu, NVM_AP_VRAM, 0x3000, 0x3000, &io), NVM_OK);
	uint8_t w[0x7000], r[0x7000];
	for (size_t i = 0; i < sizeof(w); i++)
		w[i] = (uint8_t)(i * 7 + 3);
	/* 0x0..0x7000: model page, buffer, callbacks, model page. */
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_VRAM, 0, w, sizeof(w)), NVM_OK);
	assert_int_equal(io_seen.writes, 1); /* the whole callback range at once */
	assert_memory_equal(mine, w + 0x1000, 0x2000);
	assert_memory_equal(theirs, w + 0x3000, 0x3000);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 2);
	memset(r, 0, sizeof(r));
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, 0, r, sizeof(r)), NVM_OK);
	assert_memory_equal(r, w, sizeof(w));
	assert_int_equal(io_seen.reads, 1);
	/* No pointer into callback memory. */
	uint8_t *p;
	size_t avail;
	assert_int_equal(nvm_mem_page(gpu, NVM_AP_VRAM, 0x4000, 0, &p, &avail), NVM_ERR_NOPTR);
	/* A failing callback: out of range, as memory the aperture lacks. */
	io_seen.fail = 1;
	uint32_t v;
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 0x4000, &v), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x4000, 1), NVM_ERR_RANGE);
	nvm_close(gpu);
}

/* SEM_ADDR / SEM_PAYLOAD / SEM_EXECUTE (clc36f.h, 0x5c..0x6c). */
static void sem_method(uint32_t *pb, uint64_t va, uint32_t payload, uint32_t exec)
{
	uint32_t w[] = { HDR_INC(0, 0x5c, 5), (uint32_t)va, (uint32_t)(va >> 32), payload, 0, exec };
	memcpy(pb, w, sizeof(w));
}

/* A Volta channel whose semaphore page is the caller's system memory (PTE
 * APERTURE 2:1 SYSTEM_COHERENT_MEMORY, dev_mmu NV_MMU_VER2_PTE): the
 * release lands in the caller's buffer; an acquire waits on a value the
 * caller writes in its buffer, woken by nvm_mem_written (issue 22 "Done
 * when": an outside program backs system memory with its own buffer, runs
 * a channel and sees the semaphore release in its buffer). */
static void semaphore_in_caller_memory(void **state)
{
	(void)state;
	struct env e;
	struct env_chan *c = env_one_channel(&e);
	uint8_t *sys = calloc(1, 64 * 4096);
	assert_int_equal(nvm_mem_map_ptr(e.gpu, NVM_AP_SYSMEM, 0x100000, 64 * 4096, sys), NVM_OK);
	uint64_t va = 0x300000000ull;
	ptb_map(&e.pt, va, 4096, ptb_pte(0x100000 + 0x3000, 2, PTB_VOL, 0));
	/* RELEASE (OPERATION 2:0 = 1) of 0x1234 at va + 0x10. */
	uint32_t pb[12];
	sem_method(pb, va + 0x10, 0x1234, 1);
	env_push(&e, c, pb, 6);
	assert_string_equal(env_run(&e, 1000000), "idle");
	uint32_t v;
	memcpy(&v, sys + 0x3010, 4);
	assert_int_equal(v, 0x1234);
	assert_int_equal(nvm_mem_pages(e.gpu, NVM_AP_SYSMEM), 0);

	/* ACQUIRE (OPERATION 0) of 7 at va + 0x20, then RELEASE 9 at va + 0x30. */
	sem_method(pb, va + 0x20, 7, 0);
	sem_method(pb + 6, va + 0x30, 9, 1);
	env_push(&e, c, pb, 12);
	env_run(&e, 1000000);
	memcpy(&v, sys + 0x3030, 4);
	assert_int_equal(v, 0); /* waiting */
	v = 7;
	memcpy(sys + 0x3020, &v, 4); /* the caller's own write */
	env_run(&e, 1000000);
	memcpy(&v, sys + 0x3030, 4);
	assert_int_equal(v, 0); /* no watch saw it: still waiting */
	assert_int_equal(nvm_mem_written(e.gpu, NVM_AP_SYSMEM, 0x103020, 4), NVM_OK);
	assert_string_equal(env_run(&e, 1000000), "idle");
	memcpy(&v, sys + 0x3030, 4);
	assert_int_equal(v, 9);
	env_fini(&e);
	free(sys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ptr_in_place),
		cmocka_unit_test(budget_and_dropped_pages),
		cmocka_unit_test(map_errors),
		cmocka_unit_test(io_pieces),
		cmocka_unit_test(semaphore_in_caller_memory),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
