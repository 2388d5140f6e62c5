/*
 * Fuzz snapshots (nvm_snapshot_save / _load, issue 22 item 3). The input
 * picks a chip and drives a GPU as a driver would (a channel set up with
 * nvmodel/setup.h and fed methods the input chooses, register and memory
 * writes, runs of some nanoseconds), saves it at an input-chosen moment,
 * damages the bytes (changed bytes, a truncation) and mostly reseals the
 * sections' CRCs, so that the damage reaches the blocks' own checks. The
 * bytes are loaded into a fresh GPU, which then runs: a load succeeds or is
 * refused with a status, and what it accepts runs without a crash, an
 * out-of-bounds access or a hang past the budget. In raw mode the input is
 * the snapshot itself.
 */
#include <stdlib.h>

#include "core/core.h"
#include "fuzz.h"
#include "nvmodel/setup.h"

static const char *const chips[] = { "gv100", "tu102", "ga100", "gh100", "nv04", "nv40", "nv03", "nv01", "g84" };
#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 16u << 20, .sysmem_size = 16u << 20, .mem_budget = 64u << 20 };
	nvm_gpu *gpu = NULL;
	return nvm_open(&cfg, &gpu) ? NULL : gpu;
}

static void run(nvm_gpu *gpu, uint64_t ns)
{
	nvm_run_opts o = { .ns = ns, .max_events = 20000 };
	nvm_run(gpu, &o);
}

/* Up to 16 method words from the input: host methods and a class's. */
static size_t take_words(struct fz_in *in, uint32_t *w)
{
	size_t n = fz_take(in, 1) % 17;
	for (size_t i = 0; i < n; i++)
		w[i] = fz_take(in, 4);
	return n;
}

/* A Volta-style channel fed one GP entry of input words. */
static void drive_host(nvm_gpu *gpu, struct fz_in *in)
{
	nvm_heap heap;
	nvm_gmmu_vm *vm = NULL;
	if (nvm_heap_init(&heap, NVM_MMU_TGT_VID, 0x100000, 8u << 20) || nvm_setup_host_init(gpu) ||
	    nvm_gmmu_vm_create(gpu, &heap, 0x100000000ull, &vm))
		return;
	nvm_channel_desc d;
	nvm_channel_desc_init(&d);
	d.chid = fz_take(in, 1) & 7;
	d.gpfifo_entries = 16;
	nvm_setup_channel ch;
	if (!nvm_channel_create(gpu, vm, NULL, &d, &ch)) {
		nvm_rl_entry e[2];
		nvm_rl_tsg(&e[0], 1, 1, 128, 3);
		nvm_rl_chan(&e[1], ch.chid, ch.runq, ch.inst, ch.userd);
		nvm_place rl;
		if (!nvm_runlist_write(gpu, &heap, e, 2, &rl) && !nvm_runlist_submit(gpu, 0, rl, 2)) {
			uint32_t w[16];
			size_t n = take_words(in, w);
			if (n)
				nvm_channel_push(gpu, &ch, w, n * 4, NULL, 1, NULL, NULL);
		}
	}
	nvm_gmmu_vm_free(vm);
}

/* An NV04 DMA channel whose pushbuffer holds input words. */
static void drive_nv04(nvm_gpu *gpu, struct fz_in *in)
{
	nvm_nv04_fifo f;
	uint32_t pb;
	nvm_nv04_dmaobj o = { .class_id = 0x3d, .target = 0, .start = 0x100000, .limit = 0x10ffff };
	if (nvm_nv04_fifo_init(gpu, &f) || nvm_nv04_dmaobj_write(gpu, &f, &o, (pb = UINT32_MAX, &pb)) ||
	    nvm_nv04_dma_channel(gpu, &f, 1, pb, 0, 0))
		return;
	uint32_t w[16];
	size_t n = take_words(in, w);
	for (size_t i = 0; i < n; i++)
		nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x100000 + 4 * i, w[i]);
	nvm_nv04_kick(gpu, &f, 1, (uint32_t)(4 * n));
}

/* Driver actions: the chip's channel, then register and memory writes and
 * runs the input chooses. */
static void drive(nvm_gpu *gpu, unsigned chip, struct fz_in *in)
{
	if (chip < 4)
		drive_host(gpu, in);
	else if (chip < 6)
		drive_nv04(gpu, in);
	for (uint32_t k = fz_take(in, 1) & 7; k; k--) {
		uint32_t op = fz_take(in, 1);
		if (op & 1)
			nvm_reg_write(gpu, fz_take(in, 3) & 0xfffffc, fz_take(in, 4));
		else if (op & 2)
			nvm_mem_wr32(gpu, op & 4 ? NVM_AP_SYSMEM : NVM_AP_VRAM, fz_take(in, 3) & 0xfffffc,
			             fz_take(in, 4));
		else
			run(gpu, fz_take(in, 2));
	}
}

static void load_and_run(unsigned chip, const uint8_t *p, size_t n)
{
	nvm_gpu *b = open_chip(chips[chip]);
	if (!b)
		return;
	if (!nvm_snapshot_load(b, p, n))
		run(b, 100000);
	nvm_close(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	uint32_t mode = fz_take(&in, 1);
	unsigned chip = (unsigned)fz_take(&in, 1) % NCHIPS;
	if (mode & 1) {
		load_and_run(chip, in.p, in.n);
		return 0;
	}
	nvm_gpu *a = open_chip(chips[chip]);
	if (!a)
		return 0;
	drive(a, chip, &in);
	size_t len = 0;
	uint8_t *buf = NULL;
	if (!nvm_snapshot_save(a, NULL, 0, &len) && (buf = malloc(len)) && !nvm_snapshot_save(a, buf, len, &len)) {
		if (mode & 2)
			len = fz_take(&in, 3) % (len + 1);
		for (uint32_t k = fz_take(&in, 1) & 15; k && len; k--) {
			/* mode 8: near the end, where the engines and blocks are */
			size_t at = mode & 8 ? len - 1 - fz_take(&in, 2) % len : fz_take(&in, 3) % len;
			buf[at] ^= (uint8_t)fz_take(&in, 1);
		}
		if (!(mode & 4))
			snap_reseal(buf, len);
		load_and_run(chip, buf, len);
	}
	free(buf);
	nvm_close(a);
	return 0;
}
