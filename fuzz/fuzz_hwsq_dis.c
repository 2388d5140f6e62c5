/* libFuzzer: the HWSQ disassembler, decoder and assembler on arbitrary
 * bytes. Byte 0 picks the variant and the quiet flag; the rest is code (and,
 * read as text, assembler source). Checks the line contract: every line
 * ends in one newline, fits NVM_HWSQ_LINE_MAX and advances the position. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvmodel/hwsq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	nvm_hwsq_variant v = (nvm_hwsq_variant)(data[0] % NVM_HWSQ_VARIANT_COUNT);
	int quiet = (data[0] >> 2) & 1;
	const uint8_t *code = data + 1;
	size_t len = size - 1;
	static nvm_hwsq_dis d;
	if (nvm_hwsq_dis_init(&d, v, quiet))
		abort();
	char line[NVM_HWSQ_LINE_MAX];
	for (size_t pos = 0; pos < len;) {
		size_t before = pos;
		nvm_hwsq_insn in;
		nvm_hwsq_decode(&d, code, len, pos, &in);
		size_t n = nvm_hwsq_dis_next(&d, code, len, &pos, line);
		if (pos <= before || pos > len || n == 0 || n >= NVM_HWSQ_LINE_MAX || line[n - 1] != '\n' ||
		    strlen(line) != n || in.avail != pos - before)
			abort();
	}
	uint8_t out[0x200];
	size_t outlen = 0;
	nvm_hwsq_asm_error err;
	/* Any length assembles; what does not fit the buffer is reported with
	 * the size it needs, and nothing is written. */
	nvm_status st = nvm_hwsq_assemble(v, (const char *)code, len, out, sizeof(out), &outlen, &err);
	if ((st == NVM_OK && outlen > sizeof(out)) || (st == NVM_ERR_RANGE && outlen <= sizeof(out)))
		abort();
	return 0;
}
