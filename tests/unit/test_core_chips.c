/* The chip registry (src/chips/: one row per chip naming each block's
 * generation, decoder profiles included), blocks found by kind, the
 * CPU-fault port and the interrupt-line kind of the core. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"

#include "core/core.h"
#include "host/host_gens.h"
#include "hwsq/hwsq_gens.h"
#include "mmu/mmu_gens.h"
#include "pfifo/pfifo_gens.h"
#include "pushbuf/pb_gens.h"

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

/* The modelled chips come first, in the order `nvmodel chips` lists them, and
 * each names the decoder profile of its own name; the decode-only rows
 * follow: nvm_pb_gen_lookup finds them, nvm_open and nvm_chip_find do not. */
static void one_registry(void **state)
{
	(void)state;
	size_t n = nvm_chip_count();
	assert_int_equal(n, 18); /* nv01 nv03 nv03t, nv04 .. gv100, tu102 ga100 ga102 gh100 */
	for (size_t i = 0; i < n; i++) {
		const nvm_chip_info *ci = nvm_chip_get(i);
		const nvm_pb_gen *g = nvm_pb_gen_get(i);
		assert_non_null(g);
		assert_string_equal(g->chip, ci->name);
		assert_false(g->decode_only);
		assert_ptr_equal(nvm_pb_gen_lookup(ci->name), g);
		assert_ptr_equal(nvm_chip_find(ci->name), ci);
	}
	assert_null(nvm_chip_get(n));
	size_t i = n;
	for (; nvm_pb_gen_get(i); i++) {
		const nvm_pb_gen *g = nvm_pb_gen_get(i);
		assert_true(g->decode_only);
		assert_ptr_equal(nvm_pb_gen_lookup(g->chip), g);
		assert_null(nvm_chip_find(g->chip));
		nvm_config cfg = { .chip = g->chip };
		nvm_gpu *gpu = (nvm_gpu *)1;
		assert_int_equal(nvm_open(&cfg, &gpu), NVM_ERR_CHIP);
		assert_null(gpu);
	}
	assert_int_equal(i, 21); /* then ad102 gb100 gb202 */
	assert_string_equal(nvm_pb_gen_get(n)->chip, "ad102");
	assert_null(nvm_pb_gen_lookup("nv99"));
	assert_null(chip_lookup("nv99"));
	assert_true(chip_lookup("AD102")->decode_only);
	assert_false(chip_lookup("TU102")->decode_only);
	assert_ptr_equal(&chip_lookup("g84")->info, nvm_chip_find("g84"));
	assert_ptr_equal(chip_lookup(NULL), chip_lookup(NVM_DEFAULT_CHIP));
	assert_ptr_equal(nvm_pb_gen_lookup(NULL), nvm_pb_gen_lookup(NVM_DEFAULT_CHIP));
}

/* A block's state and a chip's generation data are found by block kind. */
static void blocks_by_kind(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv17");
	assert_non_null(gpu_block(gpu, &pfifo_class));
	assert_non_null(gpu_block(gpu, &hwsq_class));
	assert_null(gpu_block(gpu, &host_class));
	assert_null(gpu_block(gpu, &mmu_class));
	assert_null(gpu_block(gpu, &pb_decoder_class)); /* data only, no state */
	assert_ptr_equal(chip_data(gpu->chip, &hwsq_class), &hwsq_var_nv17);
	assert_ptr_equal(pb_chip_gen(gpu->chip), nvm_pb_gen_lookup("nv17"));
	nvm_close(gpu);

	gpu = open_chip("gv100");
	assert_non_null(gpu_block(gpu, &host_class));
	assert_non_null(gpu_block(gpu, &mmu_class));
	assert_null(gpu_block(gpu, &pfifo_class));
	assert_null(gpu_block(gpu, &g80vm_class));
	assert_ptr_equal(chip_data(gpu->chip, &host_class), &host_gv100);
	assert_ptr_equal(pb_chip_gen(gpu->chip), nvm_pb_gen_lookup("gv100"));
	nvm_close(gpu);
}

static int faults_seen;
static enum cpu_fault fault_kind;
static void listener(void *ctx, enum cpu_fault kind)
{
	(void)ctx;
	faults_seen++;
	fault_kind = kind;
}

/* The CPU-fault port: nothing without a listener; the G80 PFIFO listens
 * and raises INTR BAR_FAULT (4) / PEEPHOLE_FAULT (6) (g80_pfifo.xml). */
static void cpu_fault_port(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	port_cpu_fault(gpu, CPU_FAULT_BAR); /* no listener: no effect */
	port_cpu_fault_connect(gpu, listener, NULL);
	port_cpu_fault(gpu, CPU_FAULT_PEEPHOLE);
	assert_int_equal(faults_seen, 1);
	assert_int_equal(fault_kind, CPU_FAULT_PEEPHOLE);
	nvm_close(gpu);

	gpu = open_chip("g84");
	assert_int_equal(rd(gpu, 0x2100) & 0x50u, 0);
	port_cpu_fault(gpu, CPU_FAULT_BAR);
	assert_int_equal(rd(gpu, 0x2100) & 0x50u, 0x10u);
	port_cpu_fault(gpu, CPU_FAULT_PEEPHOLE);
	assert_int_equal(rd(gpu, 0x2100) & 0x50u, 0x50u);
	nvm_close(gpu);
}

/* ---------------------------------------------------------------- interrupt lines */

#define T_BASE   0xf00000u
#define T_STATUS (T_BASE + 0x0)
#define T_EN     (T_BASE + 0x4)
#define T_SET    (T_BASE + 0x8)
#define T_CLR    (T_BASE + 0xc)
#define T_BIT    5u

struct tblk {
	struct intr_line latched, held;
};

static void t_wr(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)stored;
	(void)old;
	struct tblk *t = ctx;
	if (r->offset == T_SET)
		intr_enable_set(&t->held, written);
	else if (r->offset == T_CLR)
		intr_enable_clear(&t->held, written);
	else
		intr_update(&t->latched);
}

static const struct reg_desc t_regs[] = {
	{ T_STATUS, "T_STATUS", 0, 0, 0xffu, NULL, t_wr },
	{ T_EN, "T_EN", 0, 0xffu, 0, NULL, t_wr },
	{ T_SET, "T_SET", 0, 0, 0, NULL, t_wr },
	{ T_CLR, "T_CLR", 0, 0, 0, NULL, t_wr },
};

static uint32_t t_status(void *ctx)
{
	return *(uint32_t *)ctx;
}

/* Status latched and w1c, enable a register: the line is (status & enable). */
static void intr_line_latched(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct tblk t;
	struct reg_block blk = { .name = "t", .base = T_BASE, .size = 0x10, .regs = t_regs, .nregs = 4, .ctx = &t };
	assert_int_equal(bus_add(gpu, &blk), NVM_OK);
	static const struct intr_desc d = { T_STATUS, T_EN, T_BIT, NULL, NULL };
	intr_init(&t.latched, gpu, &d, &t);
	intr_raise(&t.latched, 0x3);
	assert_int_equal(rd(gpu, T_STATUS), 0x3);
	assert_int_equal(gpu->pmc.lines & (1u << T_BIT), 0); /* not enabled */
	wr(gpu, T_EN, 0x2);
	assert_int_equal(intr_pending(&t.latched), 0x2);
	assert_int_equal(gpu->pmc.lines & (1u << T_BIT), 1u << T_BIT);
	wr(gpu, T_STATUS, 0x2); /* write 1 to clear */
	assert_int_equal(gpu->pmc.lines & (1u << T_BIT), 0);
	assert_int_equal(rd(gpu, T_STATUS), 0x1);
	nvm_close(gpu);
}

/* Status computed, enable held by the line (SET / CLEAR registers). */
static void intr_line_held_enable(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct tblk t;
	struct reg_block blk = { .name = "t", .base = T_BASE, .size = 0x10, .regs = t_regs, .nregs = 4, .ctx = &t };
	assert_int_equal(bus_add(gpu, &blk), NVM_OK);
	static uint32_t level = 0x4;
	static const struct intr_desc d = { 0, 0, T_BIT, t_status, NULL };
	intr_init(&t.held, gpu, &d, &level);
	intr_update(&t.held);
	assert_int_equal(gpu->pmc.lines & (1u << T_BIT), 0);
	wr(gpu, T_SET, 0x6);
	assert_int_equal(intr_enabled(&t.held), 0x6);
	assert_int_equal(gpu->pmc.lines & (1u << T_BIT), 1u << T_BIT);
	wr(gpu, T_CLR, 0x4);
	assert_int_equal(intr_enabled(&t.held), 0x2);
	assert_int_equal(gpu->pmc.lines & (1u << T_BIT), 0);
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_registry),          cmocka_unit_test(blocks_by_kind),
		cmocka_unit_test(cpu_fault_port),        cmocka_unit_test(intr_line_latched),
		cmocka_unit_test(intr_line_held_enable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
