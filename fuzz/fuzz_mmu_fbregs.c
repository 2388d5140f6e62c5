/*
 * Fuzz target: the GMMU registers (fault buffers, other-fault, NISO,
 * invalidate, BAR1/BAR2 blocks) under arbitrary write sequences, mixed with
 * faulting translations, replays and BAR accesses.
 *
 * Input: a sequence of 6-byte records {op, reg, value (4 bytes LE)}. An
 * input of odd length runs on tu102, whose fault buffers, other-fault
 * registers and VF invalidate are NV_VIRTUAL_FUNCTION_PRIV_MMU_* at 0xB83000
 * (the register list holds both layouts).
 */
#include <stdint.h>
#include <string.h>

#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

static const uint32_t regs[] = {
	0x100A20,
	0x100A2C,
	0x100A34,
	0x100CAC,
	0x100CB0,
	0x100CB4,
	0x100CB8,
	0x100CBC,
	0x100CE8,
	0x100CEC,
	0x100CF8,
	0x100E24,
	0x100E28,
	0x100E2C,
	0x100E30,
	0x100E34,
	0x100E38,
	0x100E3C,
	0x100E40,
	0x100E44,
	0x100E48,
	0x100E4C,
	0x100E54,
	0x100E5C,
	0x100E60,
	0x100E68,
	0x1704,
	0x1714,
	/* tu102 .. gh100 */
	0xB83000,
	0xB83004,
	0xB83008,
	0xB8300C,
	0xB83010,
	0xB83020,
	0xB83024,
	0xB83028,
	0xB8302C,
	0xB83030,
	0xB83070,
	0xB83080,
	0xB83088,
	0xB83090,
	0xB83094,
	0xB830A0,
	0xB830A4,
	0xB830B0,
};
#define NREGS (sizeof(regs) / sizeof(regs[0]))

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	nvm_config cfg = { .chip = size & 1 ? "tu102" : "gv100", .vram_size = 16u << 20, .sysmem_size = 16u << 20 };
	nvm_gpu *gpu;
	if (nvm_open(&cfg, &gpu))
		return 0;
	/* A small valid tree so that some translations and BAR2 writes work:
	 * PDB 0x1000, va 0..2M mapped 1:1 by a 2 MiB PTE; instance block 0x10000. */
	uint32_t w[2];
	w[0] = (0x2000 >> 12) << 8 | 2;
	w[1] = 0;
	nvm_mem_write(gpu, NVM_AP_VRAM, 0x1000, w, 8);
	w[0] = (0x3000 >> 12) << 8 | 2;
	nvm_mem_write(gpu, NVM_AP_VRAM, 0x2000, w, 8);
	w[0] = (0x4000 >> 12) << 8 | 2;
	nvm_mem_write(gpu, NVM_AP_VRAM, 0x3000, w, 8);
	w[0] = 1;
	nvm_mem_write(gpu, NVM_AP_VRAM, 0x4000, w, 8);
	nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x10000 + 128 * 4, 0x1000 | 1u << 4 | 1u << 5 | 1u << 10 | 1u << 11);
	for (size_t i = 0; i + 6 <= size && i < 6 * 4096; i += 6) {
		uint8_t op = data[i];
		uint32_t reg = regs[data[i + 1] % NREGS];
		uint32_t v = (uint32_t)data[i + 2] | (uint32_t)data[i + 3] << 8 | (uint32_t)data[i + 4] << 16 |
		             (uint32_t)data[i + 5] << 24;
		uint32_t got;
		switch (op % 6) {
		case 0:
		case 1: nvm_reg_write(gpu, reg, v); break;
		case 2: nvm_reg_read(gpu, reg, &got); break;
		case 3: {
			nvm_mmu_request q = { 0 };
			q.inst_target = 0;
			q.inst_addr = 0x10000;
			q.veid = (op >> 3) & 1 ? (int)(v & 63) : -1;
			q.va = (uint64_t)v << (op >> 4 & 7);
			q.access = (nvm_mmu_access)((op >> 4) % 5);
			q.engine_id = (v >> 8) & 0x7f;
			q.client_type = (v >> 15) & 1;
			q.client_id = (v >> 16) & 0x3f;
			q.gpc_id = (v >> 22) & 0x1f;
			nvm_mmu_result r;
			nvm_mmu_translate(gpu, &q, &r);
			break;
		}
		case 4: {
			nvm_mmu_inval o = { 0 };
			o.all_pdb = v & 1;
			o.all_va = (v >> 1) & 1;
			o.replay = (nvm_mmu_replay)((v >> 2) % 6);
			o.va = (uint64_t)(v >> 8) << 12;
			o.use_size = (v >> 5) & 1;
			o.size_log2 = v >> 26;
			o.cancel_access = (v >> 6) & 7;
			o.pdb_addr = 0x1000;
			if (op & 0x80) /* the Host's MEM_OP path */
				nvm_mmu_mem_op(gpu, v, v >> 13, v ^ 0x1000u, (v & 0x1fu) << 27 | (v >> 27));
			else
				nvm_mmu_invalidate(gpu, &o);
			break;
		}
		default: {
			uint8_t buf[64];
			if (op & 0x80)
				nvm_mmu_bar_write(gpu, 1 + (op & 1), v, data + i, 6);
			else
				nvm_mmu_bar_read(gpu, 1 + (op & 1), v, buf, sizeof(buf));
			break;
		}
		}
	}
	nvm_close(gpu);
	return 0;
}
