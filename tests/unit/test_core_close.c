/* nvm_close from inside a hook: every kind of callback the library makes
 * (event hooks from a run, a register access, a memory access held by an FB
 * pause, an MMU fault event hook, page-table enumeration callbacks) may close the
 * GPU it reports on. The library defers the free until its outermost call
 * returns, so under ASan these tests catch any use after the close. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"

#include "nvmodel/hwsq.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

struct closer {
	nvm_gpu *gpu;
	int calls; /* hook calls seen, including after the close */
	int closed;
};

static void close_hook(void *user, const nvm_event *ev)
{
	(void)ev;
	struct closer *c = user;
	c->calls++;
	if (!c->closed) {
		c->closed = 1;
		nvm_close(c->gpu);
		nvm_close(c->gpu); /* a second close inside the hook is harmless */
	}
}

static nvm_gpu *open_chip(const char *chip)
{
	nvm_gpu *gpu = NULL;
	nvm_config cfg = { .chip = chip, .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

/* The PTIMER alarm raises the interrupt from a scheduled event; the hook
 * closes the GPU in the middle of nvm_run. */
static void close_from_interrupt_during_run(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct closer c = { gpu, 0, 0 };
	wr(gpu, 0x9140, 1);       /* PTIMER_INTR_EN_0 ALARM */
	wr(gpu, 0x160, 1u << 20); /* PMC_INTR_EN_SET(0): PTIMER */
	wr(gpu, 0x9420, 64);      /* ALARM_0 */
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_ALL, close_hook, &c, NULL), NVM_OK);
	/* A second hook after the closing one must not be called. */
	struct closer other = { NULL, 0, 1 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_ALL, close_hook, &other, NULL), NVM_OK);
	nvm_run_opts o = { .ns = 100000 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_STOPPED);
	assert_int_equal(c.calls, 1);
	assert_int_equal(other.calls, 0);
}

/* A register write reports itself (mmio) and then runs its handler. */
static void close_from_mmio_hook(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct closer c = { gpu, 0, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_MMIO), close_hook, &c, NULL), NVM_OK);
	/* The handler of INTR_EN_SET raises the interrupt line after the hook. */
	wr(gpu, 0x9140, 1);
	assert_int_equal(c.calls, 1);
}

/* Unknown registers report from the read path. */
static void close_from_unmodelled_read(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv04");
	struct closer c = { gpu, 0, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_ALL, close_hook, &c, NULL), NVM_OK);
	uint32_t v = 1;
	assert_int_equal(nvm_reg_read(gpu, 0x123450, &v), NVM_OK);
	assert_int_equal(v, 0);
	assert_int_equal(c.calls, 1);
}

/* HWSQ emits a trace line per instruction and a poke per MMIO write, in
 * the middle of its execution loop. */
static void close_from_hwsq_trace(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv41");
	nvm_hwsq_variant v;
	assert_int_equal(nvm_hwsq_gpu_variant(gpu, &v), NVM_OK);
	const char *src = "data 0x1\naddr 0x1500\naddr 0x1504\nexit\n";
	uint8_t code[0x200];
	size_t n;
	nvm_hwsq_asm_error err;
	assert_int_equal(nvm_hwsq_assemble(v, src, strlen(src), code, sizeof(code), &n, &err), NVM_OK);
	assert_int_equal(nvm_hwsq_load(gpu, 0, code, n), NVM_OK);
	wr(gpu, 0x1098, 1u << 3); /* HWSQ_ENABLE */
	wr(gpu, 0x130c, 3);       /* start slot A at entry 0 */
	struct closer c = { gpu, 0, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_TRACE), close_hook, &c, NULL), NVM_OK);
	nvm_run_opts o = { .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_STOPPED);
	assert_int_equal(c.calls, 1);
}

/* A host memory access held by the FB pause reports a guest error. */
static void close_from_held_memory_access(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("g80");
	wr(gpu, 0x1314, 0x00010001u); /* FLAGS_1: flag 16 (FB_PAUSE) overridden to 1 */
	struct closer c = { gpu, 0, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_GUEST_ERROR), close_hook, &c, NULL), NVM_OK);
	uint8_t *p;
	size_t avail;
	assert_int_equal(nvm_mem_page(gpu, NVM_AP_VRAM, 0, 1, &p, &avail), NVM_ERR_BLOCKED);
	assert_int_equal(c.calls, 1);
}

static void close_from_held_memory_write(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("g80");
	wr(gpu, 0x1314, 0x00010001u);
	struct closer c = { gpu, 0, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_GUEST_ERROR), close_hook, &c, NULL), NVM_OK);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0, 1), NVM_ERR_BLOCKED);
	assert_int_equal(c.calls, 1);
}

static void close_fault_hook(void *user, const nvm_event *ev)
{
	const nvm_mmu_fault_event *f = ev->detail;
	assert_false(f->cancelled);
	assert_int_equal(f->info.addr, 0x1000);
	close_hook(user, NULL);
}

/* A translation through an empty page directory faults: a hook reading the
 * fault record (what the MMU's own fault hook got before issue 22 item 6)
 * closes the GPU. */
static void close_from_mmu_fault_hook(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct closer c = { gpu, 0, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_FAULT), close_fault_hook, &c, NULL), NVM_OK);
	nvm_mmu_request q = { 0 };
	q.use_pdb = 1;
	q.pdb_target = NVM_MMU_PDB_VID;
	q.veid = -1;
	q.va = 0x1000;
	nvm_mmu_result r;
	assert_int_equal(nvm_mmu_translate(gpu, &q, &r), NVM_ERR_FAULT);
	assert_int_not_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(c.calls, 1);
}

static void close_from_fault_event(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct closer c = { gpu, 0, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_FAULT), close_hook, &c, NULL), NVM_OK);
	nvm_mmu_request q = { 0 };
	q.use_pdb = 1;
	q.pdb_target = NVM_MMU_PDB_VID;
	q.veid = -1;
	nvm_mmu_result r;
	assert_int_equal(nvm_mmu_translate(gpu, &q, &r), NVM_ERR_FAULT);
	assert_int_equal(c.calls, 1);
}

static int close_map(void *user, const nvm_mmu_mapping *m)
{
	(void)m;
	close_hook(user, NULL);
	return 0; /* asks to go on: the closed GPU ends the enumeration anyway */
}

/* Enumeration callbacks are user code too. A PDB whose entries all point at
 * sparse ranges gives mappings to report. */
static void close_from_enum_callback(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	/* PDE3 entry 0 and 1: invalid with the sparse (VOL) bit set. */
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0, 1u << 3), NVM_OK);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 8, 1u << 3), NVM_OK);
	struct closer c = { gpu, 0, 0 };
	nvm_mmu_enum_ops ops = { .map = close_map, .user = &c };
	nvm_mmu_enum(gpu, NVM_MMU_PDB_VID, 0, 1000, &ops);
	assert_int_equal(c.calls, 1);
}

/* A run from a hook of a run would restart the budget: refused. */
struct nested {
	nvm_gpu *gpu;
	nvm_run_status st;
	int calls;
};

static void nested_run_hook(void *user, const nvm_event *ev)
{
	(void)ev;
	struct nested *n = user;
	nvm_run_opts o = { .ns = 1000 };
	n->st = nvm_run(n->gpu, &o);
	n->calls++;
}

static void nested_run_is_refused(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	wr(gpu, 0x9140, 1);
	wr(gpu, 0x160, 1u << 20);
	wr(gpu, 0x9420, 64);
	struct nested n = { gpu, NVM_RUN_BUDGET, 0 };
	assert_int_equal(nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_INTERRUPT), nested_run_hook, &n, NULL), NVM_OK);
	nvm_run_opts o = { .ns = 1000 };
	assert_int_equal(nvm_run(gpu, &o), NVM_RUN_BUDGET);
	assert_int_equal(n.calls, 1);
	assert_int_equal(n.st, NVM_RUN_STOPPED);
	assert_int_equal(nvm_time_ns(gpu), 1000);
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(close_from_interrupt_during_run), cmocka_unit_test(close_from_mmio_hook),
		cmocka_unit_test(close_from_unmodelled_read),      cmocka_unit_test(close_from_hwsq_trace),
		cmocka_unit_test(close_from_held_memory_access),   cmocka_unit_test(close_from_held_memory_write),
		cmocka_unit_test(close_from_mmu_fault_hook),       cmocka_unit_test(close_from_fault_event),
		cmocka_unit_test(close_from_enum_callback),        cmocka_unit_test(nested_run_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
