/*
 * Fuzz the Host, copy-engine and GMMU parts of a snapshot (host_snap.c,
 * ce.c, mmu_snap.c): a Volta-and-later GPU (the input picks gv100, tu102,
 * ga100 or gh100) runs a driver-like channel (a long method sequence, a
 * copy, a semaphore acquire) for an input-chosen number of short runs, is
 * saved, and the input damages bytes of the engines' and blocks' sections
 * (their CRCs made right again, so that the blocks' own checks see the
 * damage). A fresh GPU loads it through nvm_snapshot_load: refused, it must
 * be unchanged; restored, it runs on and saves again without a crash or an
 * out-of-bounds access.
 */
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "fuzz.h"
#include "nvmodel/setup.h"

static const char *const chips[] = { "gv100", "tu102", "ga100", "gh100" };
static const uint32_t ce_classes[] = { 0xC3B5, 0xC5B5, 0xC6B5, 0xC8B5 };

#define INC(subch, mthd, n)  (0x20000000u | (uint32_t)(n) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(mthd) >> 2)
#define NINC(subch, mthd, n) (0x60000000u | (uint32_t)(n) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(mthd) >> 2)

static nvm_gpu *open_chip(unsigned c)
{
	nvm_config cfg = { .chip = chips[c], .vram_size = 16u << 20, .sysmem_size = 1u << 20 };
	nvm_gpu *gpu = NULL;
	return nvm_open(&cfg, &gpu) ? NULL : gpu;
}

/* The driver's channel: false when a helper refused (then nothing is fuzzed). */
static bool drive(nvm_gpu *gpu, unsigned c, unsigned runs)
{
	nvm_heap heap;
	nvm_gmmu_vm *vm = NULL;
	if (nvm_heap_init(&heap, NVM_MMU_TGT_VID, 0x100000, 12u << 20) || nvm_setup_host_init(gpu) ||
	    nvm_gmmu_vm_create(gpu, &heap, 0x100000000ull, &vm))
		return false;
	uint64_t sem_va, src, dst;
	nvm_place sem;
	nvm_channel_desc d;
	nvm_channel_desc_init(&d);
	d.chid = 1;
	d.runlist = 0;
	d.gpfifo_entries = 16;
	nvm_setup_channel ch;
	nvm_rl_entry e[2];
	nvm_place rl;
	bool ok = !nvm_gmmu_alloc_map(gpu, vm, NULL, 4096, NULL, &sem_va, &sem) &&
	          !nvm_gmmu_alloc_map(gpu, vm, NULL, 16384, NULL, &src, NULL) &&
	          !nvm_gmmu_alloc_map(gpu, vm, NULL, 16384, NULL, &dst, NULL) &&
	          !nvm_channel_create(gpu, vm, NULL, &d, &ch);
	if (ok) {
		nvm_rl_tsg(&e[0], 1, 1, 1, 0);
		nvm_rl_chan(&e[1], ch.chid, 0, ch.inst, ch.userd);
		ok = !nvm_runlist_write(gpu, &heap, e, 2, &rl) && !nvm_runlist_submit(gpu, 0, rl, 2);
	}
	static uint32_t pb[1 + 600];
	pb[0] = NINC(0, 0x200, 600);
	for (unsigned i = 1; i <= 600; i++)
		pb[i] = i;
	uint32_t copy[] = { INC(4, 0, 1),
		            ce_classes[c],
		            INC(4, 0x400, 8),
		            (uint32_t)(src >> 32),
		            (uint32_t)src,
		            (uint32_t)(dst >> 32),
		            (uint32_t)dst,
		            16384,
		            16384,
		            16384,
		            1,
		            INC(4, 0x300, 1),
		            0x182 };
	uint32_t acq[] = { INC(0, 0x5c, 4), (uint32_t)sem_va, (uint32_t)(sem_va >> 32), 1, 0, INC(0, 0x6c, 1), 0 };
	ok = ok && !nvm_channel_push(gpu, &ch, pb, sizeof(pb), NULL, 0, NULL, NULL) &&
	     !nvm_channel_push(gpu, &ch, copy, sizeof(copy), NULL, 0, NULL, NULL) &&
	     !nvm_channel_push(gpu, &ch, acq, sizeof(acq), NULL, 1, NULL, NULL);
	nvm_gmmu_vm_free(vm);
	for (unsigned i = 0; ok && i < runs; i++) {
		nvm_run_opts ro = { .ns = 2000, .max_events = 2 };
		nvm_run(gpu, &ro);
	}
	return ok;
}

#define SNAP_HEADER 44u

/* Where the engines' section starts (the blocks' follow it). */
static size_t engines_at(const uint8_t *b, size_t len)
{
	size_t pos = SNAP_HEADER;
	while (pos + 12 <= len) {
		if (!memcmp(b + pos, "ENGS", 4))
			return pos;
		pos += 12 + (size_t)fz_le(b + pos + 4, 8) + 4;
	}
	return len;
}

static uint8_t *save(nvm_gpu *gpu, size_t *len)
{
	if (nvm_snapshot_save(gpu, NULL, 0, len))
		return NULL;
	uint8_t *buf = malloc(*len);
	if (buf && nvm_snapshot_save(gpu, buf, *len, len)) {
		free(buf);
		return NULL;
	}
	return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_in in = { data, size };
	unsigned c = fz_take(&in, 1) % 4, runs = fz_take(&in, 1) & 15;
	nvm_gpu *a = open_chip(c);
	if (!a)
		return 0;
	size_t len = 0;
	uint8_t *buf = drive(a, c, runs) ? save(a, &len) : NULL;
	nvm_close(a);
	if (!buf)
		return 0;
	size_t from = engines_at(buf, len);
	for (uint32_t k = fz_take(&in, 1) & 31; k && from < len; k--) {
		size_t at = from + fz_take(&in, 3) % (len - from);
		uint32_t how = fz_take(&in, 1);
		uint32_t v = fz_take(&in, 4);
		if (how & 1)
			buf[at] ^= (uint8_t)v; /* a byte changed */
		else
			for (unsigned i = 0; i < 4 && at + i < len; i++)
				buf[at + i] = (uint8_t)(v >> (8 * i)); /* a word set */
	}
	snap_reseal(buf, len);
	nvm_gpu *b = open_chip(c);
	if (b) {
		size_t l0 = 0, l1 = 0;
		uint8_t *before = save(b, &l0);
		nvm_status st = nvm_snapshot_load(b, buf, len);
		if (st && st != NVM_ERR_NOMEM) {
			uint8_t *after = save(b, &l1);
			if (before && after && (l0 != l1 || memcmp(before, after, l0)))
				abort(); /* a refused snapshot changed the GPU */
			free(after);
		} else if (!st) {
			nvm_run_opts ro = { .ns = 50000, .max_events = 2000 };
			nvm_run(b, &ro);
			free(save(b, &l1));
		}
		free(before);
		nvm_close(b);
	}
	free(buf);
	return 0;
}
