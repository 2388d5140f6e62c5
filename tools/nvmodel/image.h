/* Memory images (vm walk/dump): a GPU whose VRAM and system memory are the
 * contents of files. Kept apart from the command (it prints nothing) so
 * that a fuzz target can drive it. */
#ifndef NVM_IMAGE_H
#define NVM_IMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "nvmodel/nvmodel.h"

/* Opens a GPU of chip whose apertures are sized to the images (rounded up
 * to 4 KiB, at least one page) so that a pointer past the end of an image
 * is out of range, not a read of zeros; sys may be NULL (one zero page).
 * Zero pages of an image are not stored. NVM_ERR_RANGE: an image is larger
 * than the chip's aperture. On error *gpu is NULL. */
nvm_status image_open(const char *chip, const uint8_t *vram, size_t vlen, const uint8_t *sys, size_t slen,
                      nvm_gpu **gpu);
/* Its two steps, for images streamed from files: a GPU whose apertures fit
 * images of vlen and slen bytes (slen 0: no system memory image), nothing
 * loaded; then each image copied in, a part at a time from byte `at` on
 * (zero pages skipped). */
nvm_status image_gpu(const char *chip, uint64_t vlen, uint64_t slen, nvm_gpu **gpu);
nvm_status image_load(nvm_gpu *gpu, nvm_aperture ap, uint64_t at, const uint8_t *data, size_t len);

#endif
