/* The libFuzzer entry point every fuzz/fuzz_*.c defines. */
#ifndef NVM_FUZZ_H
#define NVM_FUZZ_H
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
