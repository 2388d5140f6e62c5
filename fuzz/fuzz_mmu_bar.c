/*
 * BAR1 / BAR2 translation: an arbitrary memory image holds instance blocks
 * and page tables; NV_PBUS_BAR1_BLOCK / BAR2_BLOCK are set from the input,
 * then BAR offsets are translated, read and written.
 *
 * Input: BAR1_BLOCK (4 bytes LE), BAR2_BLOCK (4), then operations of 10
 * bytes (kind, offset 8 bytes LE, length) until the image, which starts at
 * the first operation whose kind byte is 0xff or after 64 operations (at
 * most 128 KiB of VRAM; its second half is also system memory).
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"

#define IMG_MAX (128u << 10)
#define MAX_OPS 64u /* an image without a 0xff kind byte is not 13 000 operations */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 8)
		return 0;
	size_t ops = 8;
	while (ops + 10 <= size && data[ops] != 0xff && ops < 8 + 10 * MAX_OPS)
		ops += 10;
	size_t nops = (ops - 8) / 10;
	const uint8_t *img = data + ops;
	nvm_gpu *gpu = fz_open_image("gv100", IMG_MAX, 4u << 20, img, size - ops);
	if (!gpu)
		return 0;
	nvm_reg_write(gpu, 0x1704, (uint32_t)fz_le(data, 4));
	nvm_reg_write(gpu, 0x1714, (uint32_t)fz_le(data + 4, 4));
	uint8_t buf[256];
	for (size_t i = 0; i < nops; i++) {
		const uint8_t *op = data + 8 + 10 * i;
		int bar = 1 + (op[0] & 1);
		uint64_t off = fz_le(op + 1, 8);
		size_t n = op[9] % sizeof(buf);
		nvm_mmu_result r;
		switch (op[0] >> 1 & 3) {
		case 0: nvm_mmu_bar_translate(gpu, bar, off, (nvm_mmu_access)(op[9] % 5), &r); break;
		case 1: nvm_mmu_bar_read(gpu, bar, off, buf, n); break;
		case 2:
			memset(buf, op[0], n);
			nvm_mmu_bar_write(gpu, bar, off, buf, n);
			break;
		default: nvm_reg_write(gpu, bar == 1 ? 0x1704 : 0x1714, (uint32_t)off); break;
		}
	}
	nvm_close(gpu);
	return 0;
}
