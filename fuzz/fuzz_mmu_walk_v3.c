/*
 * Fuzz target: the ver3 (gh100) walker and enumerator on arbitrary
 * page-table memory and virtual addresses (57-bit VAs), plus translations
 * through a GMMU block of the gh100 generation (TLB, fault reporting into
 * the NV_VIRTUAL_FUNCTION_PRIV_MMU fault buffer at 0xB83000 when the input
 * enables it). The GPU is a row holding just the gh100 GMMU (no chip row
 * has it yet).
 *
 * Input: va (8 bytes LE), flags (1: access 2:0, privileged 3, enable fault
 * buffer 0 4), pdb target (1), pdb page (2, LE, in 4 KiB units), then the
 * VRAM image (at most 256 KiB; the second half is also system memory).
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "fuzz.h"
#include "mmu/mmu_gens.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

#define IMG_MAX (256u << 10)

static const struct chip gh100_mmu = {
	{ "gh100-mmu", "TEST", 0x180000a1u, IMG_MAX, IMG_MAX / 2, "pmc ptimer mmu" },
	false,
	PMC_GV100,
	{ { &mmu_class, &mmu_gh100 } },
};

static int on_map(void *user, const nvm_mmu_mapping *m)
{
	uint64_t *sum = user;
	*sum += m->size ^ m->attr.pa;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 12)
		return 0;
	uint64_t va = fz_le(data, 8) & ((1ull << 58) - 1); /* a bit beyond 57 too */
	uint8_t flags = data[8];
	unsigned target = data[9] & 3;
	uint64_t pdb = (uint64_t)(data[10] | data[11] << 8) << 12;
	size_t len = size - 12 > IMG_MAX ? IMG_MAX : size - 12;
	nvm_config cfg = { .vram_size = IMG_MAX, .sysmem_size = IMG_MAX / 2 };
	nvm_gpu *gpu;
	if (gpu_open(&gh100_mmu, &cfg, &gpu))
		return 0;
	fz_write_image(gpu, NVM_AP_VRAM, data + 12, len);
	if (len > IMG_MAX / 2)
		fz_write_image(gpu, NVM_AP_SYSMEM, data + 12 + IMG_MAX / 2, len - IMG_MAX / 2);
	nvm_mmu_access acc = (nvm_mmu_access)(flags & 7);
	if (acc > NVM_MMU_ATOMIC_WEAK)
		acc = NVM_MMU_READ;
	nvm_mmu_result r;
	nvm_mmu_walk_trace tr;
	nvm_mmu_walk(gpu, target, pdb, va, acc, (flags >> 3) & 1, &r, &tr);
	uint64_t sum = 0;
	nvm_mmu_enum_ops ops = { on_map, NULL, &sum };
	nvm_mmu_enum(gpu, target, pdb, 20000, &ops);
	if (flags & 16) { /* buffer 0 at the end of VRAM, physical */
		nvm_reg_write(gpu, 0xB83004, 0);
		nvm_reg_write(gpu, 0xB83000, (IMG_MAX - 4096) | 1u);
		nvm_reg_write(gpu, 0xB83010, 0x80000000u | 64u);
	}
	nvm_mmu_request q = { 0 };
	q.use_pdb = 1;
	q.pdb_target = target;
	q.pdb_addr = pdb;
	q.veid = -1;
	q.va = va;
	q.access = acc;
	q.engine_id = 43;
	for (int i = 0; i < 2; i++) {
		nvm_mmu_translate(gpu, &q, &r);
		q.va ^= 0x1000;
	}
	nvm_close(gpu);
	return 0;
}
