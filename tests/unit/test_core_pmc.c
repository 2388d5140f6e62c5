/* PMC identification and interrupt aggregation, and the chip table
 * (envytools hw/bus/pmc.rst "Card identification", "Interrupts";
 * gv100_dev_master.ref.txt NV_PMC_BOOT_0, NV_PMC_INTR, NV_PMC_INTR_EN_SET/CLEAR). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"

#include "core/core.h"

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

/* pmc.rst pmc-id-nv1 / pmc-id-nv4 / pmc-id-nv10 and NV_PMC_BOOT_0_ARCHITECTURE (28:24). */
static void boot_0_identifies_every_chip(void **state)
{
	(void)state;
	assert_true(nvm_chip_count() >= 11);
	for (size_t i = 0; i < nvm_chip_count(); i++) {
		const nvm_chip_info *ci = nvm_chip_get(i);
		nvm_gpu *gpu = open_chip(ci->name);
		uint32_t boot0 = rd(gpu, 0x000);
		assert_int_equal(boot0, ci->boot_0);
		if (!strncmp(ci->name, "nv01", 4) || !strncmp(ci->name, "nv03", 4)) {
			/* pmc-id-nv1: GPU 19:16 (1 NV1, 3 NV3), implementation 11:8
			 * always 1 but on NV2, revision 0x20 and up for NV3T */
			assert_int_equal(FIELD_GET(boot0, 19, 16), ci->name[3] - '0');
			assert_int_equal(FIELD_GET(boot0, 11, 8), 1);
			assert_int_equal(FIELD_GET(boot0, 7, 0) >= 0x20, !strcmp(ci->name, "nv03t"));
		} else if (!strcmp(ci->name, "nv04")) {
			assert_int_equal(FIELD_GET(boot0, 15, 12), 4); /* architecture */
			assert_int_equal(FIELD_GET(boot0, 23, 20), 0); /* major revision 0: NV4 */
		} else if (!strcmp(ci->name, "gv100")) {
			assert_int_equal(FIELD_GET(boot0, 28, 24), 0x14); /* ARCHITECTURE_GV100 */
			assert_int_equal(FIELD_GET(boot0, 23, 20), 0);    /* IMPLEMENTATION 0 */
		} else if (!strcmp(ci->name, "ga100") || !strcmp(ci->name, "ga102") || !strcmp(ci->name, "gh100")) {
			/* nouveau's chipset (boot0 >> 20) & 0x1ff: 0x170, 0x172, 0x180 */
			unsigned id = !strcmp(ci->name, "ga100") ? 0x170 : !strcmp(ci->name, "ga102") ? 0x172 : 0x180;
			assert_int_equal(FIELD_GET(boot0, 28, 20), id);
		} else if (!strcmp(ci->name, "tu102")) {
			/* nouveau nv162_chipset: ARCHITECTURE 0x16, IMPLEMENTATION 2 */
			assert_int_equal(FIELD_GET(boot0, 28, 24), 0x16);
			assert_int_equal(FIELD_GET(boot0, 23, 20), 2);
		} else {
			/* NV10+: the GPU id in bits 27:20 is the number after "nv"/"g". */
			unsigned id = (unsigned)strtoul(ci->name + (ci->name[0] == 'n' ? 2 : 1), NULL, 16);
			if (!strcmp(ci->name, "gt215"))
				id = 0xa3;
			else if (!strcmp(ci->name, "g80"))
				id = 0x50;
			assert_int_equal(FIELD_GET(boot0, 27, 20), id);
		}
		/* Read-only. */
		nvm_reg_write(gpu, 0x000, 0);
		assert_int_equal(rd(gpu, 0x000), ci->boot_0);
		nvm_close(gpu);
	}
	assert_null(nvm_chip_get(nvm_chip_count()));
	assert_non_null(nvm_chip_find("GT215"));
	assert_null(nvm_chip_find("gf100"));
	assert_string_equal(nvm_chip_find(NULL)->name, "gv100"); /* the default */
}

struct lvl {
	int n;
	int level;
};

static void on_intr(void *user, const nvm_event *ev)
{
	struct lvl *l = user;
	l->n++;
	l->level = (int)ev->value;
}

/* pmc.rst pmc-intr-enable-host: bit 0 gates hardware interrupts (bits 0-30),
 * bit 1 the software interrupt (bit 31); pmc-intr-host: bits 0-30 read-only,
 * bit 31 set/clear by software. */
static void nv04_style_enable_and_software_interrupt(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("nv17");
	struct lvl l = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_INTERRUPT), on_intr, &l, NULL);
	pmc_set_line(gpu, PMC_INTR_PFIFO, true);
	assert_int_equal(rd(gpu, 0x100), 1u << 8);
	assert_false(nvm_intr_line(gpu)); /* INTR_EN resets to 0 */
	nvm_reg_write(gpu, 0x140, 1);
	assert_true(nvm_intr_line(gpu));
	assert_int_equal(l.n, 1);
	/* Hardware bits cannot be cleared by writing INTR. */
	nvm_reg_write(gpu, 0x100, 0xffffffff & ~0x80000000u);
	assert_int_equal(rd(gpu, 0x100), 1u << 8);
	pmc_set_line(gpu, PMC_INTR_PFIFO, false);
	assert_false(nvm_intr_line(gpu));
	assert_int_equal(l.n, 2);
	/* Software interrupt: set by writing bit 31, gated by INTR_EN bit 1. */
	nvm_reg_write(gpu, 0x100, 0x80000000u);
	assert_int_equal(rd(gpu, 0x100), 0x80000000u);
	assert_false(nvm_intr_line(gpu));
	nvm_reg_write(gpu, 0x140, 3);
	assert_true(nvm_intr_line(gpu));
	nvm_reg_write(gpu, 0x100, 0);
	assert_false(nvm_intr_line(gpu));
	assert_int_equal(rd(gpu, 0x140), 3);
	nvm_reg_write(gpu, 0x140, 0xffffffff);
	assert_int_equal(rd(gpu, 0x140), 3); /* only bits 1:0 exist */
	nvm_close(gpu);
}

/* gv100_dev_master.ref.txt: NV_PMC_INTR_EN(i) is read-only (R--4A); the
 * enable mask changes through INTR_EN_SET (0x160) and INTR_EN_CLEAR (0x180). */
static void gv100_enable_set_clear(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("gv100");
	struct lvl l = { 0 };
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_INTERRUPT), on_intr, &l, NULL);
	pmc_set_line(gpu, PMC_INTR_HUB, true);
	pmc_set_line(gpu, PMC_INTR_PFIFO, true);
	assert_int_equal(rd(gpu, 0x100), (1u << 8) | (1u << 9));
	nvm_reg_write(gpu, 0x140, 0xffffffff); /* read-only: ignored */
	assert_int_equal(rd(gpu, 0x140), 0);
	assert_false(nvm_intr_line(gpu));
	nvm_reg_write(gpu, 0x160, 1u << 9);
	assert_int_equal(rd(gpu, 0x140), 1u << 9);
	assert_true(nvm_intr_line(gpu));
	nvm_reg_write(gpu, 0x160, 1u << 20);
	assert_int_equal(rd(gpu, 0x140), (1u << 9) | (1u << 20));
	nvm_reg_write(gpu, 0x180, 1u << 9);
	assert_int_equal(rd(gpu, 0x140), 1u << 20);
	assert_false(nvm_intr_line(gpu));
	assert_int_equal(l.n, 2);
	assert_int_equal(l.level, 0);
	/* The write-only registers read back 0. */
	assert_int_equal(rd(gpu, 0x160), 0);
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(boot_0_identifies_every_chip),
		cmocka_unit_test(nv04_style_enable_and_software_interrupt),
		cmocka_unit_test(gv100_enable_set_clear),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
