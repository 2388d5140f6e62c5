/*
 * Fuzz target: the ver2 walker and enumerator on arbitrary page-table memory
 * and virtual addresses, plus a translation through the GMMU block (TLB,
 * fault reporting with no buffers enabled).
 *
 * Input: va (8 bytes LE), flags (1: access 2:0, privileged 3, strict TLB 4),
 * pdb target (1), pdb page (2, LE, in 4 KiB units), then the VRAM image
 * (at most 256 KiB; the second half of the image is also system memory).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

#define IMG_MAX (256u << 10)

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
	uint64_t va = fz_le(data, 8);
	uint8_t flags = data[8];
	unsigned target = data[9] & 3;
	uint64_t pdb = (uint64_t)(data[10] | data[11] << 8) << 12;
	const uint8_t *img = data + 12;
	nvm_gpu *gpu = fz_open_image("gv100", IMG_MAX, 0, img, size - 12);
	if (!gpu)
		return 0;
	nvm_mmu_access acc = (nvm_mmu_access)(flags & 7);
	if (acc > NVM_MMU_ATOMIC_WEAK)
		acc = NVM_MMU_READ;
	nvm_mmu_result r;
	nvm_mmu_walk_trace tr;
	nvm_mmu_walk(gpu, target, pdb, va, acc, (flags >> 3) & 1, &r, &tr);
	uint64_t sum = 0;
	nvm_mmu_enum_ops ops = { on_map, NULL, &sum };
	nvm_mmu_enum(gpu, target, pdb, 20000, &ops);
	nvm_mmu_set_strict_tlb(gpu, (flags >> 4) & 1);
	nvm_mmu_request q = { 0 };
	q.use_pdb = 1;
	q.pdb_target = target;
	q.pdb_addr = pdb;
	q.veid = -1;
	q.va = va;
	q.access = acc;
	q.engine_id = 64;
	for (int i = 0; i < 2; i++) {
		nvm_mmu_translate(gpu, &q, &r);
		q.va ^= 0x1000;
	}
	/* Also through an instance block at the start of the image. */
	q.use_pdb = 0;
	q.inst_target = target;
	q.inst_addr = pdb;
	q.veid = (int)(flags >> 5) - 1;
	nvm_mmu_translate(gpu, &q, &r);
	nvm_close(gpu);
	return 0;
}
