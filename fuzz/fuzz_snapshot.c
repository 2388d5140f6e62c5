/*
 * Fuzz the snapshot reader (src/core/snap.c): the input is either the
 * snapshot itself (raw) or the recipe of a valid snapshot (memory writes)
 * and of damage done to it (bytes changed, a truncation). A load must
 * either succeed or refuse with a status and leave the GPU as it was; it
 * never reads past the buffer.
 */
#include <stdlib.h>

#include "core/core.h"
#include "fuzz.h"

static nvm_gpu *open_small(void)
{
	nvm_config cfg = { .chip = "nv04", .vram_size = 1u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu = NULL;
	return nvm_open(&cfg, &gpu) ? NULL : gpu;
}

/* Checked, then restored (as nvm_snapshot_load does). */
static void load(nvm_gpu *gpu, const uint8_t *p, size_t n)
{
	struct snap_r r = { p, n, 0, NVM_OK }, r2 = r;
	if (!snap_load_core(gpu, &r, false))
		snap_load_core(gpu, &r2, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	uint32_t mode = fz_take(&in, 1);
	nvm_gpu *b = open_small();
	if (!b)
		return 0;
	if (mode & 1) {
		load(b, in.p, in.n);
		nvm_close(b);
		return 0;
	}
	nvm_gpu *a = open_small();
	if (!a) {
		nvm_close(b);
		return 0;
	}
	for (uint32_t k = fz_take(&in, 1) & 7; k; k--) {
		uint32_t addr = fz_take(&in, 3) & 0xffffc;
		nvm_mem_wr32(a, fz_take(&in, 1) & 1 ? NVM_AP_SYSMEM : NVM_AP_VRAM, addr, fz_take(&in, 4));
	}
	struct snap_w w = { 0 };
	snap_save_core(a, &w);
	uint8_t *buf = malloc(w.len);
	struct snap_w w2 = { .buf = buf, .cap = w.len };
	if (buf && !snap_save_core(a, &w2)) {
		size_t len = w2.len;
		if (mode & 2)
			len = fz_take(&in, 3) % (len + 1);
		for (uint32_t k = fz_take(&in, 1) & 15; k && len; k--) {
			size_t at = fz_take(&in, 3) % len;
			buf[at] ^= (uint8_t)fz_take(&in, 1);
		}
		load(b, buf, len);
	}
	free(buf);
	nvm_close(a);
	nvm_close(b);
	return 0;
}
