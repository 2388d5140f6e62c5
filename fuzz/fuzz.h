/* The libFuzzer entry point every fuzz/fuzz_*.c defines. */
#ifndef NVM_FUZZ_H
#define NVM_FUZZ_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nvmodel/nvmodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An input consumed front to back; reads past its end give zeros. */
struct fz_in {
	const uint8_t *p;
	size_t n;
};

/* The next `bytes` bytes (at most 4) as a little-endian number. */
static inline uint32_t fz_take(struct fz_in *in, unsigned bytes)
{
	uint32_t v = 0;
	for (unsigned i = 0; i < bytes; i++) {
		v |= (uint32_t)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

/* n bytes (at most 8) at p as a little-endian number. */
static inline uint64_t fz_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* The work budget of one input's runs. Every run may spend at most `run`
 * units (nvm_run_opts.max_events) and all runs together about `pool`: a run
 * that does not end idle (a self-loop, a pushbuffer of zeros, time running
 * out while a channel works) takes its whole allowance from the pool, a run
 * that ends idle one unit (the API does not tell what it spent); once the
 * pool is spent, runs are skipped and the input's other operations go on.
 * A loop then costs an input a few thousand pushbuffer words, not millions,
 * while what an input pushes itself still runs. */
struct fz_budget {
	uint64_t run, pool;
};

static inline nvm_run_status fz_run(nvm_gpu *gpu, uint64_t ns, struct fz_budget *b)
{
	if (!b->pool)
		return NVM_RUN_HANG;
	nvm_run_opts o = { .ns = ns, .flags = NVM_RUN_UNTIL_IDLE, .max_events = b->run < b->pool ? b->run : b->pool };
	nvm_run_status st = nvm_run(gpu, &o);
	b->pool -= st == NVM_RUN_IDLE ? 1 : o.max_events;
	return st;
}

/* Writes len bytes of img to ap at 0, skipping the 4 KiB pages that are all
 * zero (memory reads as zero until written: a page allocated and cleared
 * per input for nothing). */
static inline void fz_write_image(nvm_gpu *gpu, nvm_aperture ap, const uint8_t *img, size_t len)
{
	static const uint8_t zero[4096];
	for (size_t at = 0; at < len; at += 4096) {
		size_t n = len - at < 4096 ? len - at : 4096;
		if (memcmp(img + at, zero, n))
			nvm_mem_write(gpu, ap, at, img + at, n);
	}
}

/* A GPU of chip with img_max bytes of VRAM and half that of system memory
 * (mem_budget 0: the default), the image (cut to img_max bytes) in VRAM and
 * its second half also in system memory. NULL when it cannot be opened. */
static inline nvm_gpu *fz_open_image(const char *chip, uint64_t img_max, uint64_t mem_budget, const uint8_t *img,
                                     size_t len)
{
	if (len > img_max)
		len = (size_t)img_max;
	nvm_config cfg = { .chip = chip, .vram_size = img_max, .sysmem_size = img_max / 2, .mem_budget = mem_budget };
	nvm_gpu *gpu;
	if (nvm_open(&cfg, &gpu))
		return NULL;
	fz_write_image(gpu, NVM_AP_VRAM, img, len);
	if (len > img_max / 2)
		fz_write_image(gpu, NVM_AP_SYSMEM, img + img_max / 2, len - (size_t)(img_max / 2));
	return gpu;
}
#endif
