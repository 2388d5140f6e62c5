/*
 * Fuzz the snapshot parts of PFIFO (every generation), the G80 VM and HWSQ
 * (src/pfifo/pfifo_snap.c, src/mmu/g80vm_snap.c, src/hwsq/hwsq_snap.c).
 * The input picks a chip, drives it (register writes in the blocks'
 * ranges, USER-area stores, memory writes, short runs), saves it, damages
 * bytes in the blocks' sections (the last ones) and mends every section's
 * CRC, so that the damage reaches the blocks' checks rather than the
 * container's. A fresh GPU loads it: the load succeeds or refuses; a GPU
 * that accepted it runs and saves again. Nothing may crash or read out of
 * bounds.
 */
#include <stdlib.h>

#include "core/core.h"
#include "fuzz.h"

static const char *const chips[] = { "nv01", "nv03", "nv04", "nv17", "nv40", "g80", "g84" };

/* Where the driving writes go: PFIFO, PFIFO's CACHE1 array (NV04 / NV40),
 * the USER areas, HWSQ, the G80 VM's registers. */
static const struct {
	uint32_t base, size;
} ranges[] = {
	{ 0x2000, 0x2000 }, { 0x3800, 0x400 },  { 0x800000, 0x20000 }, { 0xc00000, 0x4000 },
	{ 0x1300, 0x280 },  { 0x100c80, 0x20 }, { 0x1700, 0x20 },      { 0x90000, 0x1000 },
};

static uint8_t *save(nvm_gpu *gpu, size_t *len)
{
	if (nvm_snapshot_save(gpu, NULL, 0, len))
		return NULL;
	uint8_t *b = malloc(*len);
	if (b && nvm_snapshot_save(gpu, b, *len, len)) {
		free(b);
		return NULL;
	}
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	nvm_config cfg = { .chip = chips[fz_take(&in, 1) % (sizeof(chips) / sizeof(chips[0]))],
		           .vram_size = 1u << 20,
		           .sysmem_size = 1u << 20 };
	nvm_gpu *a = NULL, *b = NULL;
	if (nvm_open(&cfg, &a))
		return 0;
	for (uint32_t k = fz_take(&in, 1) & 31; k; k--) {
		uint32_t kind = fz_take(&in, 1);
		if (kind < 160) {
			uint32_t r = kind % (sizeof(ranges) / sizeof(ranges[0]));
			uint32_t addr = ranges[r].base + ((fz_take(&in, 2) * 4) % ranges[r].size);
			nvm_reg_write(a, addr, fz_take(&in, 4));
		} else if (kind < 200) {
			nvm_mem_wr32(a, kind & 1 ? NVM_AP_SYSMEM : NVM_AP_VRAM, (fz_take(&in, 3) & 0xffffc),
			             fz_take(&in, 4));
		} else {
			nvm_run_opts o = { .ns = fz_take(&in, 2), .max_events = 1 + fz_take(&in, 1) };
			nvm_run(a, &o);
		}
	}
	size_t len;
	uint8_t *buf = save(a, &len);
	if (buf) {
		snap_reseal(buf, len);
		/* damage in the blocks' sections: the bytes after ENGS (the last
		 * sections), as positions counted back from the end */
		for (uint32_t k = fz_take(&in, 1) & 7; k && len; k--) {
			size_t back = fz_take(&in, 2) % len;
			buf[len - 1 - back] ^= (uint8_t)fz_take(&in, 1);
		}
		snap_reseal(buf, len);
		if (!nvm_open(&cfg, &b) && !nvm_snapshot_load(b, buf, len)) {
			nvm_run_opts o = { .ns = 2000, .max_events = 2000 };
			nvm_run(b, &o);
			size_t l2;
			free(save(b, &l2));
		}
	}
	free(buf);
	nvm_close(a);
	nvm_close(b);
	return 0;
}
