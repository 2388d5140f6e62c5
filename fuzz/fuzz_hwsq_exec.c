/* libFuzzer: the HWSQ interpreter on arbitrary code RAM and register
 * states. Layout of the input:
 *   byte 0      chip (nv17, nv40, nv41, g80, g92)
 *   bytes 1-24  DEBUG_6, ENTRY_POINT, ENTRY_POINT_HIGH, FLAGS_0, FLAGS_1,
 *               event inputs (little-endian words, written as a driver)
 *   next 0x200  code RAM (as much as the input has, clipped to the RAM)
 *   rest        host actions, 5 bytes each: kind, 32-bit value
 * Checks that runs stay bounded and STATUS / state stay within the variant. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvmodel/hwsq.h"
#include "nvmodel/nvmodel.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void check(nvm_gpu *gpu, uint32_t code_size)
{
	nvm_hwsq_state st;
	if (nvm_hwsq_get_state(gpu, &st))
		abort();
	for (unsigned s = 0; s < st.nslots; s++)
		if (st.slot[s].ip >= code_size || (st.slot[s].illegal && !st.slot[s].executing))
			abort();
	if (st.nslots == 1 && (st.status >> 16))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const chips[] = { "nv17", "nv40", "nv41", "g80", "g92" };
	if (size < 25)
		return 0;
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = chips[data[0] % 5],
		           .vram_size = 1u << 16,
		           .sysmem_size = 1u << 16,
		           .mem_budget = 1u << 20 };
	if (nvm_open(&cfg, &gpu))
		abort();
	nvm_hwsq_variant v;
	nvm_hwsq_gpu_variant(gpu, &v);
	uint32_t code_size = nvm_hwsq_code_size(v);
	static const uint32_t regs[] = { 0x1098, 0x1304, 0x1318, 0x1310, 0x1314 };
	for (unsigned i = 0; i < 5; i++)
		nvm_reg_write(gpu, regs[i], le32(data + 1 + 4 * i));
	uint32_t ev = le32(data + 21);
	for (unsigned e = 1; e < 32; e++)
		nvm_hwsq_set_event(gpu, e, (int)((ev >> e) & 1));
	size_t pos = 25;
	size_t n = size - pos < code_size ? size - pos : code_size;
	nvm_hwsq_load(gpu, 0, data + pos, n);
	pos += n;
	nvm_reg_write(gpu, 0x130c, 1 | ((uint32_t)data[0] & 0xe));
	unsigned runs = 0; /* at most 32 bounded runs: a runaway script costs time */
	for (; pos + 5 <= size; pos += 5) {
		uint32_t val = le32(data + pos + 1);
		switch (data[pos] % 6) {
		case 0: nvm_reg_write(gpu, 0x130c, val); break; /* TRIGGER */
		case 1: nvm_reg_write(gpu, 0x1098, val); break; /* DEBUG_6 */
		case 2: nvm_hwsq_set_event(gpu, val % 32, (int)(val >> 8) & 1); break;
		case 3: nvm_reg_write(gpu, 0x1400 + (val & 0xfc) % (code_size < 0x100 ? code_size : 0x100), val); break;
		case 4: nvm_reg_write(gpu, 0x1310 + 4 * (val & 1), val); break; /* FLAGS */
		default: {
			nvm_run_opts o = { .ns = (uint64_t)val * 64, .max_events = 64 };
			if (runs++ < 32)
				nvm_run(gpu, &o);
			break;
		}
		}
		uint32_t x;
		nvm_mem_rd32(gpu, NVM_AP_VRAM, 0, &x);
		check(gpu, code_size);
	}
	nvm_run_opts o = { .ns = 1000000, .max_events = 256 };
	nvm_run(gpu, &o);
	check(gpu, code_size);
	nvm_close(gpu);
	return 0;
}
