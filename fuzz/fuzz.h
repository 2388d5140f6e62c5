/* The libFuzzer entry point every fuzz/fuzz_*.c defines. */
#ifndef NVM_FUZZ_H
#define NVM_FUZZ_H
#include <stddef.h>
#include <stdint.h>
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
#endif
