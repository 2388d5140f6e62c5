/*
 * An outside program: built against an installed nvmodel with nothing but
 * `pkg-config --cflags --libs nvmodel` (or find_package(nvmodel)), by
 * tests/install/check.sh. It opens a gv100, writes and reads registers,
 * runs virtual time, counts events through a hook, backs a page of system
 * memory with its own buffer, and checks that the library it runs with is
 * the version its headers say.
 */
#include <stdio.h>
#include <string.h>

#include <nvmodel/nvmodel.h>

#define NV_PMC_INTR_EN_0     0x000140u /* NV_PMC_INTR_EN(0) on gv100 */
#define NV_PMC_INTR_EN_SET_0 0x000160u
#define NV_PTIMER_TIME_0     0x009400u

static void count(void *user, const nvm_event *ev)
{
	(void)ev;
	++*(unsigned *)user;
}

static int fail(const char *what, nvm_status st)
{
	fprintf(stderr, "hello: %s: %s\n", what, nvm_status_str(st));
	return 1;
}

int main(void)
{
	if (strcmp(nvm_version(), NVM_VERSION_STRING)) {
		fprintf(stderr, "hello: library %s, headers %s\n", nvm_version(), NVM_VERSION_STRING);
		return 1;
	}
	nvm_config cfg = { .chip = "gv100", .vram_size = 64u << 20, .sysmem_size = 64u << 20 };
	nvm_gpu *gpu;
	nvm_status st = nvm_open(&cfg, &gpu);
	if (st)
		return fail("nvm_open", st);
	unsigned mmio = 0;
	int id;
	if ((st = nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_MMIO), count, &mmio, &id)))
		return fail("nvm_hook_add", st);
	uint32_t en = 0, t0 = 0, t1 = 0;
	if ((st = nvm_reg_write(gpu, NV_PMC_INTR_EN_SET_0, 0x100u)) || (st = nvm_reg_read(gpu, NV_PMC_INTR_EN_0, &en)))
		return fail("register access", st);
	nvm_reg_read(gpu, NV_PTIMER_TIME_0, &t0);
	nvm_run_opts run = { .ns = 1000000 };
	nvm_run_status rs = nvm_run(gpu, &run);
	nvm_reg_read(gpu, NV_PTIMER_TIME_0, &t1);
	/* Caller-owned memory: the model's writes land in buf, ours show. */
	static uint32_t buf[1024];
	uint32_t seen = 0;
	buf[2] = 0xcafe0002u;
	if ((st = nvm_mem_map_ptr(gpu, NVM_AP_SYSMEM, 0x100000, sizeof(buf), buf)) ||
	    (st = nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x100004, 0xcafe0001u)) ||
	    (st = nvm_mem_rd32(gpu, NVM_AP_SYSMEM, 0x100008, &seen)))
		return fail("caller-owned memory", st);
	printf("nvmodel %s (header %d.%d.%d), chip %s\n", nvm_version(), NVM_VERSION_MAJOR, NVM_VERSION_MINOR,
	       NVM_VERSION_PATCH, nvm_gpu_chip(gpu)->name);
	printf("%s = 0x%08x after writing 0x100 to %s\n", nvm_reg_name(gpu, NV_PMC_INTR_EN_0), en,
	       nvm_reg_name(gpu, NV_PMC_INTR_EN_SET_0));
	printf("run: %s, %llu ns, PTIMER_TIME_0 advanced by %u, %u MMIO event(s)\n", nvm_run_status_str(rs),
	       (unsigned long long)nvm_time_ns(gpu), t1 - t0, mmio);
	printf("sysmem 0x100000 backed by the program: buf[1] = 0x%08x, read 0x%08x\n", buf[1], seen);
	nvm_close(gpu);
	return en == 0x100u && mmio == 1 && t1 - t0 == 1000000u && buf[1] == 0xcafe0001u && seen == 0xcafe0002u ? 0 : 1;
}
