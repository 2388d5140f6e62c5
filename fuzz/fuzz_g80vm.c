/*
 * Fuzz target: the G80 VM on arbitrary channel structures, DMA objects and
 * page tables: the pure walk, the enumerator (with a budget), translations
 * through the block (TLB, strict mode, trap registers, a TLB flush through
 * 0x100c80 in virtual time), a read crossing pages, BAR1 / BAR3 with
 * arbitrary HOST_MEM registers, and the PEEPHOLE ports (the BAR1 value as
 * the PEEPHOLE object, the offset as the port addresses).
 *
 * Input: chip (1: g80, g84, g92, gt215 by the low 2 bits), channel
 * descriptor (4, LE), selector (2), offset (5), flags (1: write 0,
 * supervisor 1, strict TLB 2, engine 7:4), BAR1 / BAR3 register values
 * (4 + 4), then the VRAM image (at most 256 KiB; the second half is also
 * system memory).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/g80vm.h"
#include "nvmodel/nvmodel.h"

#define IMG_MAX (256u << 10)
#define HDR     21u

static int on_map(void *user, const nvm_g80_mapping *m)
{
	uint64_t *sum = user;
	*sum += m->virt ^ m->lin;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const chips[4] = { "g80", "g84", "g92", "gt215" };
	if (size < HDR)
		return 0;
	nvm_g80_req q = { 0 };
	q.chan = (uint32_t)fz_le(data + 1, 4) & 0x3fffffffu;
	q.selector = (uint32_t)fz_le(data + 5, 2);
	q.offset = fz_le(data + 7, 5);
	uint8_t flags = data[12];
	q.write = flags & 1;
	q.supervisor = (flags >> 1) & 1;
	q.engine = flags >> 4;
	q.client = 3;
	uint32_t bar1 = (uint32_t)fz_le(data + 13, 4), bar3 = (uint32_t)fz_le(data + 17, 4);
	const uint8_t *img = data + HDR;
	nvm_gpu *gpu = fz_open_image(chips[data[0] & 3], IMG_MAX, 0, img, size - HDR);
	if (!gpu)
		return 0;
	nvm_g80_layout lay;
	nvm_g80_chip_layout(gpu, &lay);
	nvm_g80_res r;
	nvm_g80_walk_trace tr;
	nvm_g80_walk(gpu, &lay, &q, &r, &tr);
	uint64_t sum = 0;
	nvm_g80_enum_ops ops = { NULL, on_map, &sum };
	nvm_g80_enum(gpu, &lay, q.chan, 20000, &ops);
	nvm_g80_set_strict_tlb(gpu, (flags >> 2) & 1);
	for (int i = 0; i < 3; i++) {
		nvm_g80_translate(gpu, &q, &r);
		q.offset ^= (uint64_t)0x1000 << i;
	}
	uint8_t buf[0x3000];
	nvm_g80_read(gpu, &q, buf, sizeof(buf), &r);
	nvm_reg_write(gpu, 0x100c80, (uint32_t)q.engine << 16 | 1);
	nvm_run_opts o = { .ns = 1000, .flags = NVM_RUN_UNTIL_IDLE };
	nvm_run(gpu, &o);
	nvm_g80_translate(gpu, &q, &r);
	nvm_reg_write(gpu, 0x1704, 0x40000000u | (q.chan & 0x3fffffffu));
	nvm_reg_write(gpu, 0x1708, bar1);
	nvm_reg_write(gpu, 0x170c, bar3);
	nvm_g80_bar_read(gpu, 1, q.offset, buf, 0x1800);
	nvm_g80_bar_write(gpu, 3, q.offset, buf, 0x20);
	uint32_t ph = data[0] & 3 ? 0x60000u : 0x1560u, v;
	nvm_reg_write(gpu, 0x1704, q.chan & 0x3fffffffu);
	nvm_reg_write(gpu, 0x1710, bar1);
	nvm_reg_write(gpu, ph + 0x10, (uint32_t)q.offset);
	nvm_reg_read(gpu, ph + 0x14, &v);
	nvm_reg_write(gpu, ph + 0x14, v ^ bar3);
	nvm_reg_write(gpu, 0x155c, flags & 0x103u);
	nvm_reg_write(gpu, ph, (uint32_t)q.offset);
	nvm_reg_write(gpu, ph + 4, bar3);
	nvm_reg_write(gpu, ph + 4, bar3);
	nvm_close(gpu);
	return 0;
}
