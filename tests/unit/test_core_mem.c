/* Memory apertures: bounds, sparseness, big addresses, direct page access.
 * (issue 2 "Memory apertures"; brief principle 5 "sparse memory"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "core/core.h"

static nvm_gpu *open_gpu(const char *chip, uint64_t vram, uint64_t sys)
{
	nvm_config cfg = { .chip = chip, .vram_size = vram, .sysmem_size = sys };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

static void untouched_reads_zero_and_allocates_nothing(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu("gv100", 0, 0);
	uint8_t buf[64];
	memset(buf, 0xaa, sizeof(buf));
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, 0x12345, buf, sizeof(buf)), NVM_OK);
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], 0);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 0);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_SYSMEM), 0);
	nvm_close(gpu);
}

/* Done-when: touching one byte at 2^39 of system memory costs one page. */
static void one_byte_at_2_39_costs_one_page(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu("gv100", 0, 1ull << 40);
	uint8_t v = 0x5a, r = 0;
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_SYSMEM, 1ull << 39, &v, 1), NVM_OK);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_SYSMEM), 1);
	/* Interior radix nodes: at most one per level. */
	assert_true(gpu->mem[NVM_AP_SYSMEM].nodes <= 4);
	assert_true(gpu->mem_used <= 5 * NVM_PAGE_SIZE);
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_SYSMEM, 1ull << 39, &r, 1), NVM_OK);
	assert_int_equal(r, 0x5a);
	/* The neighbouring byte is still zero and still costs nothing more. */
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_SYSMEM, (1ull << 39) + 4096, &r, 1), NVM_OK);
	assert_int_equal(r, 0);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_SYSMEM), 1);
	nvm_close(gpu);
}

static void bounds_are_checked(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu("gv100", 1 << 20, 1 << 20);
	uint8_t buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	uint32_t v;
	/* Last bytes fit; one past the end does not, and nothing is touched. */
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_VRAM, (1 << 20) - 8, buf, 8), NVM_OK);
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_VRAM, (1 << 20) - 7, buf, 8), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_VRAM, 1 << 20, buf, 1), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, UINT64_MAX, buf, 2), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, UINT64_MAX - 1, buf, 8), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, (1 << 20) - 4, &v), NVM_OK);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 1 << 20, &v), NVM_ERR_RANGE);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, 2, &v), NVM_ERR_ALIGN);
	assert_int_equal(nvm_mem_wr32(gpu, (nvm_aperture)7, 0, 1), NVM_ERR_APERTURE);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 1);
	nvm_close(gpu);
}

static void crossing_pages_and_wr32_endianness(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu("nv04", 0, 0);
	uint8_t in[10000], out[10000];
	for (size_t i = 0; i < sizeof(in); i++)
		in[i] = (uint8_t)(i * 31 + 7);
	assert_int_equal(nvm_mem_write(gpu, NVM_AP_VRAM, 4090, in, sizeof(in)), NVM_OK);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 4); /* 4090..14089 spans pages 0-3 */
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, 4090, out, sizeof(out)), NVM_OK);
	assert_memory_equal(in, out, sizeof(in));
	uint32_t v;
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_SYSMEM, 0x100, 0x11223344), NVM_OK);
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_SYSMEM, 0x100, out, 4), NVM_OK);
	assert_int_equal(out[0], 0x44); /* little-endian */
	assert_int_equal(out[3], 0x11);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_SYSMEM, 0x100, &v), NVM_OK);
	assert_int_equal(v, 0x11223344);
	nvm_close(gpu);
}

static void page_pointer_for_bulk_reads(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu("gv100", 1 << 20, 0);
	uint8_t *p;
	size_t avail;
	/* Untouched: a zero page, nothing allocated. */
	assert_int_equal(nvm_mem_page(gpu, NVM_AP_VRAM, 0x2010, 0, &p, &avail), NVM_OK);
	assert_int_equal(avail, 4096 - 0x10);
	assert_int_equal(p[0], 0);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 0);
	/* For write: allocated, and writes through it are seen by reads. */
	assert_int_equal(nvm_mem_page(gpu, NVM_AP_VRAM, 0x2010, 1, &p, &avail), NVM_OK);
	p[0] = 0x77;
	uint8_t r;
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, 0x2010, &r, 1), NVM_OK);
	assert_int_equal(r, 0x77);
	assert_int_equal(nvm_mem_page(gpu, NVM_AP_VRAM, 1 << 20, 0, &p, &avail), NVM_ERR_RANGE);
	nvm_close(gpu);
}

static void sizes_are_validated(void **state)
{
	(void)state;
	nvm_gpu *gpu = (nvm_gpu *)1;
	nvm_config cfg = { .chip = "nv04", .vram_size = 32ull << 20 }; /* > NV04's 16 MiB */
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_ERR_RANGE);
	assert_null(gpu);
	cfg.vram_size = 4097;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_ERR_ALIGN);
	cfg.vram_size = 0;
	cfg.chip = "nv99";
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_ERR_CHIP);
	cfg.chip = "GV100"; /* names are case-insensitive */
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	assert_int_equal(nvm_mem_size(gpu, NVM_AP_VRAM), 32ull << 30);
	assert_int_equal(nvm_mem_size(gpu, NVM_AP_SYSMEM), 1ull << 47);
	nvm_close(gpu);
}

static void budget_limits_host_memory(void **state)
{
	(void)state;
	nvm_config cfg = { .mem_budget = 8 * NVM_PAGE_SIZE };
	nvm_gpu *gpu;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	uint8_t b = 1;
	nvm_status st = NVM_OK;
	int written = 0;
	for (uint64_t a = 0; a < 64ull << 20 && !st; a += 1 << 21, written++)
		st = nvm_mem_write(gpu, NVM_AP_VRAM, a, &b, 1);
	assert_int_equal(st, NVM_ERR_NOMEM);
	assert_true(gpu->mem_used <= 8 * NVM_PAGE_SIZE);
	assert_true(written > 1);
	nvm_close(gpu);
}

/* One pool bounds several GPUs together, and a closed GPU gives its pages
 * back (a script that opens GPUs in a loop stays bounded). */
static void pool_is_shared_and_given_back(void **state)
{
	(void)state;
	nvm_mem_pool pool = { .budget = 16 * NVM_PAGE_SIZE };
	nvm_config cfg = { .chip = "nv04", .mem_pool = &pool };
	nvm_gpu *a, *b;
	assert_int_equal(nvm_open(&cfg, &a), NVM_OK);
	assert_int_equal(nvm_open(&cfg, &b), NVM_OK);
	uint8_t x = 1;
	/* One page and its 4 radix-tree nodes each time. */
	assert_int_equal(nvm_mem_write(a, NVM_AP_VRAM, 0, &x, 1), NVM_OK);
	assert_int_equal(pool.used, 5 * NVM_PAGE_SIZE);
	assert_int_equal(nvm_mem_write(b, NVM_AP_SYSMEM, 0, &x, 1), NVM_OK);
	assert_int_equal(pool.used, 10 * NVM_PAGE_SIZE);
	nvm_status st = NVM_OK;
	for (uint64_t addr = NVM_PAGE_SIZE; !st; addr += NVM_PAGE_SIZE)
		st = nvm_mem_write(b, NVM_AP_SYSMEM, addr, &x, 1);
	assert_int_equal(st, NVM_ERR_NOMEM);
	assert_int_equal(pool.used, 16 * NVM_PAGE_SIZE);
	/* a is out of budget too: the pool is shared. */
	assert_int_equal(nvm_mem_write(a, NVM_AP_VRAM, 1ull << 22, &x, 1), NVM_ERR_NOMEM);
	nvm_close(b);
	assert_int_equal(pool.used, 5 * NVM_PAGE_SIZE);
	assert_int_equal(nvm_mem_write(a, NVM_AP_VRAM, 1ull << 22, &x, 1), NVM_OK);
	nvm_close(a);
	assert_int_equal(pool.used, 0);
}

/* The pages of 2 MiB of guest space share one host slab (src/core/mem.c):
 * still allocated and charged one by one, past half of them one host huge
 * page, each keeping its address and contents; a page dropped under a
 * caller range and touched again after the unmap is a new zeroed page. */
static void slab_pages_charged_one_by_one(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gpu("gv100", 16u << 20, 0);
	const uint64_t base = 2u << 20, n = 300; /* past SLAB_DENSE (256) */
	uint8_t *first = NULL;
	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, base + i * NVM_PAGE_SIZE, (uint32_t)i + 1), NVM_OK);
		assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), i + 1);
		if (!i) {
			size_t avail;
			assert_int_equal(nvm_mem_page(gpu, NVM_AP_VRAM, base, 0, &first, &avail), NVM_OK);
		}
	}
	assert_int_equal(gpu->mem_used, (n + 4) * NVM_PAGE_SIZE); /* the pages and one node per level */
	uint8_t *p;
	size_t avail;
	assert_int_equal(nvm_mem_page(gpu, NVM_AP_VRAM, base, 0, &p, &avail), NVM_OK);
	assert_ptr_equal(p, first); /* pages do not move */
	uint32_t v;
	for (uint64_t i = 0; i < n; i++) {
		assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, base + i * NVM_PAGE_SIZE, &v), NVM_OK);
		assert_int_equal(v, i + 1);
	}
	/* Pages 10..19 dropped under a caller range, then touched again. */
	static uint8_t buf[10 * NVM_PAGE_SIZE];
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, base + 10 * NVM_PAGE_SIZE, sizeof(buf), buf), NVM_OK);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), n - 10);
	assert_int_equal(gpu->mem_used, (n - 10 + 4) * NVM_PAGE_SIZE);
	assert_int_equal(nvm_mem_unmap(gpu, NVM_AP_VRAM, base + 10 * NVM_PAGE_SIZE, sizeof(buf)), NVM_OK);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, base + 12 * NVM_PAGE_SIZE, &v), NVM_OK);
	assert_int_equal(v, 0);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), n - 10);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, base + 12 * NVM_PAGE_SIZE + 8, 7), NVM_OK);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, base + 12 * NVM_PAGE_SIZE, &v), NVM_OK);
	assert_int_equal(v, 0); /* a new page: zeros but the word written */
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), n - 9);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, base + 20 * NVM_PAGE_SIZE, &v), NVM_OK);
	assert_int_equal(v, 21);
	/* Every page of the slab dropped (it is given back), then a new one. */
	static uint8_t big[2u << 20];
	assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_VRAM, base, sizeof(big), big), NVM_OK);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 0);
	assert_int_equal(gpu->mem_used, 4 * NVM_PAGE_SIZE);
	assert_int_equal(nvm_mem_unmap(gpu, NVM_AP_VRAM, base, sizeof(big)), NVM_OK);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, base + 5 * NVM_PAGE_SIZE, &v), NVM_OK);
	assert_int_equal(v, 0);
	assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, base + 5 * NVM_PAGE_SIZE, 9), NVM_OK);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, base + 5 * NVM_PAGE_SIZE, &v), NVM_OK);
	assert_int_equal(v, 9);
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, base + 6 * NVM_PAGE_SIZE, &v), NVM_OK);
	assert_int_equal(v, 0);
	assert_int_equal(nvm_mem_pages(gpu, NVM_AP_VRAM), 1);
	nvm_close(gpu);
}

static void aperture_names(void **state)
{
	(void)state;
	nvm_aperture ap;
	assert_int_equal(nvm_aperture_parse("vram", &ap), NVM_OK);
	assert_int_equal(ap, NVM_AP_VRAM);
	/* Coherent and non-coherent system memory both land in sysmem. */
	assert_int_equal(nvm_aperture_parse("sysmem_coh", &ap), NVM_OK);
	assert_int_equal(ap, NVM_AP_SYSMEM);
	assert_int_equal(nvm_aperture_parse("sysmem_ncoh", &ap), NVM_OK);
	assert_int_equal(ap, NVM_AP_SYSMEM);
	assert_int_equal(nvm_aperture_parse("peer", &ap), NVM_ERR_APERTURE);
	assert_string_equal(nvm_aperture_name(NVM_AP_SYSMEM), "sysmem");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(untouched_reads_zero_and_allocates_nothing),
		cmocka_unit_test(one_byte_at_2_39_costs_one_page),
		cmocka_unit_test(bounds_are_checked),
		cmocka_unit_test(crossing_pages_and_wr32_endianness),
		cmocka_unit_test(page_pointer_for_bulk_reads),
		cmocka_unit_test(sizes_are_validated),
		cmocka_unit_test(budget_limits_host_memory),
		cmocka_unit_test(pool_is_shared_and_given_back),
		cmocka_unit_test(slab_pages_charged_one_by_one),
		cmocka_unit_test(aperture_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
