/*
 * Fuzz the register and memory API the Lua scenarios drive, as a byte stream
 * of operations (in the spirit of QEMU's generic-fuzz): the first byte picks
 * the chip, then each operation is an opcode byte and its operands. Any
 * address, length or value is allowed; the library must answer with a status
 * and never crash or touch memory outside its apertures.
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/nvmodel.h"

struct in {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct in *in, unsigned bytes)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < bytes; i++) {
		v |= (uint64_t)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

static void sink(void *user, const nvm_event *ev)
{
	/* Touch every field, so a dangling message pointer would be caught. */
	size_t *n = user;
	*n += strlen(ev->message) + strlen(ev->code) + strlen(ev->block) + (size_t)ev->addr;
}

/* Addresses: sometimes near interesting places (0, register blocks, page and
 * aperture ends), sometimes anything. */
static uint64_t pick_addr(struct in *in, uint64_t size)
{
	uint8_t mode = (uint8_t)take(in, 1);
	uint64_t raw = take(in, mode & 0x80 ? 8 : 3);
	switch (mode & 3) {
	case 0: return raw;
	case 1: return size - (raw & 0xfff);
	case 2: return (raw & ~0xfffull) - (mode >> 4);
	default: return raw << (mode >> 2 & 31);
	}
}

/* Caller-owned memory (nvm_mem_map_*): two buffers of the fuzzer's own
 * that outlive every GPU; the callbacks fold any address into theirs. */
#define CALLER_BYTES 65536u
static uint8_t caller_ptr[CALLER_BYTES], caller_io[CALLER_BYTES];

static int io_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		((uint8_t *)buf)[i] = ((uint8_t *)ctx)[(addr + i) % CALLER_BYTES];
	return (addr & 0xfff) == 0xffc; /* now and then a failing access */
}

static int io_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	for (size_t i = 0; i < len; i++)
		((uint8_t *)ctx)[(addr + i) % CALLER_BYTES] = ((const uint8_t *)buf)[i];
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct in in = { data, size };
	size_t nchips = nvm_chip_count();
	nvm_config cfg = { .chip = nvm_chip_get(take(&in, 1) % nchips)->name, .mem_budget = 32u << 20 };
	cfg.vram_size = (take(&in, 1) & 1) ? 1u << 20 : 0;
	nvm_gpu *gpu;
	if (nvm_open(&cfg, &gpu))
		return 0;
	size_t seen = 0;
	uint8_t buf[8192];
	for (int ops = 0; in.n && ops < 2000; ops++) {
		uint8_t op = (uint8_t)take(&in, 1);
		nvm_aperture ap = (nvm_aperture)((op >> 4) % 3); /* 2 = invalid aperture */
		uint64_t apsize = nvm_mem_size(gpu, ap);
		uint32_t v;
		/* Operands are taken in separate statements: C leaves the order in
		 * which one call's arguments are evaluated unspecified, and a
		 * reproducer must replay the same way under every compiler. */
		uint32_t reg, val;
		uint64_t addr;
		switch (op & 0xf) {
		case 0:
			reg = (uint32_t)take(&in, 3) << (op >> 7);
			val = (uint32_t)take(&in, 4);
			nvm_reg_write(gpu, reg, val);
			break;
		case 1: nvm_reg_read(gpu, (uint32_t)take(&in, 3) << (op >> 7), &v); break;
		case 2:
			addr = pick_addr(&in, apsize);
			val = (uint32_t)take(&in, 4);
			nvm_mem_wr32(gpu, ap, addr, val);
			break;
		case 3: nvm_mem_rd32(gpu, ap, pick_addr(&in, apsize), &v); break;
		case 4: {
			uint64_t a = pick_addr(&in, apsize);
			size_t len = (size_t)take(&in, 2) % sizeof(buf);
			memset(buf, op, len);
			nvm_mem_write(gpu, ap, a, buf, len);
			break;
		}
		case 5: {
			uint64_t a = pick_addr(&in, apsize);
			nvm_mem_read(gpu, ap, a, buf, (size_t)take(&in, 2) % sizeof(buf));
			break;
		}
		case 6: {
			uint8_t *p;
			size_t avail;
			if (!nvm_mem_page(gpu, ap, pick_addr(&in, apsize), op >> 7, &p, &avail)) {
				seen += p[avail - 1];
				if (op >> 7)
					p[0] = op;
			}
			break;
		}
		case 7: {
			nvm_run_opts o = { .ns = take(&in, 3) << (op >> 6),
				           .flags = op >> 5 & 1,
				           .max_events = 100000 };
			nvm_run(gpu, &o);
			break;
		}
		case 8: nvm_hook_add(gpu, (unsigned)take(&in, 1), sink, &seen, NULL); break;
		case 9: nvm_hook_del(gpu, (int)take(&in, 1)); break;
		case 10: /* a size the buffer holds; alignment and place anything */
			addr = pick_addr(&in, apsize);
			nvm_mem_map_ptr(gpu, ap, addr, take(&in, 3) % (CALLER_BYTES + 1), caller_ptr);
			break;
		case 11: {
			nvm_mem_io io = { io_read, io_write, caller_io };
			addr = pick_addr(&in, apsize);
			nvm_mem_map_io(gpu, ap, addr, take(&in, 3) << (op >> 7 ? 12 : 0), &io);
			break;
		}
		case 12:
			addr = pick_addr(&in, apsize);
			nvm_mem_unmap(gpu, ap, addr, take(&in, 3) << (op >> 7 ? 12 : 0));
			break;
		case 13:
			addr = pick_addr(&in, apsize);
			nvm_mem_written(gpu, ap, addr, take(&in, 2));
			break;
		default: seen += nvm_idle(gpu) + nvm_intr_line(gpu) + (size_t)nvm_time_ns(gpu); break;
		}
	}
	nvm_close(gpu);
	return seen == 0xdeadbeef; /* keep `seen` alive */
}
