#include <string.h>

#include "image.h"

nvm_status image_load(nvm_gpu *gpu, nvm_aperture ap, uint64_t at, const uint8_t *data, size_t len)
{
	static const uint8_t zero[4096];
	for (size_t off = 0; off < len; off += 4096) {
		size_t n = len - off < 4096 ? len - off : 4096;
		if (!memcmp(data + off, zero, n))
			continue; /* memory stays sparse */
		nvm_status st = nvm_mem_write(gpu, ap, at + off, data + off, n);
		if (st)
			return st;
	}
	return NVM_OK;
}

static uint64_t round_page(uint64_t len)
{
	uint64_t r = (len + 4095) & ~4095ull;
	return r ? r : 4096;
}

nvm_status image_gpu(const char *chip, uint64_t vlen, uint64_t slen, nvm_gpu **gpu)
{
	*gpu = NULL;
	const nvm_chip_info *ci = nvm_chip_find(chip);
	if (!ci)
		return NVM_ERR_CHIP;
	nvm_config cfg = { .chip = chip, .vram_size = round_page(vlen), .sysmem_size = round_page(slen) };
	if (vlen > ci->vram_max || slen > ci->sysmem_max || cfg.vram_size > ci->vram_max ||
	    cfg.sysmem_size > ci->sysmem_max)
		return NVM_ERR_RANGE;
	return nvm_open(&cfg, gpu);
}

nvm_status image_open(const char *chip, const uint8_t *vram, size_t vlen, const uint8_t *sys, size_t slen,
                      nvm_gpu **gpu)
{
	nvm_status st = image_gpu(chip, vlen, sys ? slen : 0, gpu);
	if (st)
		return st;
	st = image_load(*gpu, NVM_AP_VRAM, 0, vram, vlen);
	if (!st && sys)
		st = image_load(*gpu, NVM_AP_SYSMEM, 0, sys, slen);
	if (st) {
		nvm_close(*gpu);
		*gpu = NULL;
	}
	return st;
}
