/*
 * The memory-image loader of `vm walk` / `vm dump` (tools/nvmodel/image.c):
 * the input is split into a VRAM and a system-memory image at a point the
 * first two bytes choose, loaded as the tool loads them (apertures sized to
 * the images), then a page-table root at the start of each is walked and
 * enumerated. Checks: every image byte reads back, and the apertures are
 * the image sizes rounded up to 4 KiB.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "image.h"
#include "nvmodel/mmu.h"

static void check(bool ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_image: %s\n", what);
		abort();
	}
}

static int on_map(void *user, const nvm_mmu_mapping *m)
{
	(void)m;
	(*(unsigned *)user)++;
	return 0;
}

static void same(nvm_gpu *gpu, nvm_aperture ap, const uint8_t *img, size_t len)
{
	uint8_t *back = malloc(len ? len : 1);
	check(back != NULL, "out of memory");
	check(nvm_mem_read(gpu, ap, 0, back, len) == NVM_OK, "image read back fails");
	check(!memcmp(back, img, len), "image reads back different");
	check(nvm_mem_size(gpu, ap) == (len ? (len + 4095) / 4096 * 4096 : 4096), "aperture size");
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2 || size > (1u << 20))
		return 0;
	size_t split = ((size_t)data[0] | (size_t)data[1] << 8) % (size - 1);
	const uint8_t *v = data + 2, *s = data + 2 + split;
	size_t vlen = split, slen = size - 2 - split;
	nvm_gpu *gpu;
	nvm_status st = image_open("gv100", v, vlen, slen ? s : NULL, slen, &gpu);
	check(st == NVM_OK && gpu != NULL, "image_open fails on a small image");
	same(gpu, NVM_AP_VRAM, v, vlen);
	if (slen)
		same(gpu, NVM_AP_SYSMEM, s, slen);
	unsigned maps = 0;
	nvm_mmu_enum_ops ops = { on_map, NULL, &maps };
	nvm_mmu_enum(gpu, NVM_MMU_PDB_VID, 0, 4096, &ops);
	nvm_mmu_enum(gpu, NVM_MMU_PDB_SYS_COH, 0, 4096, &ops);
	nvm_mmu_result r;
	nvm_mmu_walk(gpu, NVM_MMU_PDB_VID, 0, (uint64_t)data[0] << 21, NVM_MMU_READ, 0, &r, NULL);
	nvm_close(gpu);
	return 0;
}
