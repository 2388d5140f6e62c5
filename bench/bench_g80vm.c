/*
 * G80 VM benchmark: translations that hit the per-engine TLB against the
 * same translations without a TLB (DMA object, PDE and PTE read each time).
 */
#include "bench.h"
#include "nvmodel/g80vm.h"
#include "nvmodel/nvmodel.h"

#define NPAGES 256

static void w32(nvm_gpu *gpu, uint64_t addr, uint32_t v)
{
	nvm_mem_wr32(gpu, NVM_AP_VRAM, addr, v);
}

static void w64(nvm_gpu *gpu, uint64_t addr, uint64_t v)
{
	w32(gpu, addr, (uint32_t)v);
	w32(gpu, addr + 4, (uint32_t)(v >> 32));
}

/* A G84 channel at 0x10000 with nouveau's paged DMA object at selector
 * 0x500 and NPAGES small pages at virtual 0x20000000 (PDE 1). */
static int bench_tlb(double scale, struct bench_result *out)
{
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "g84", .vram_size = 1ull << 30 };
	if (nvm_open(&cfg, &gpu))
		return 1;
	const uint64_t ch = 0x10000, pt = 0x100000;
	const uint32_t w[6] = { 0x7fc00000u, 0xffffffffu, 0, 0xff000000u, 0, 0 };
	for (int i = 0; i < 6; i++)
		w32(gpu, ch + 0x5000 + 4u * (unsigned)i, w[i]);
	w64(gpu, ch + 0x200 + 8, pt | 3);
	for (uint64_t i = 0; i < NPAGES; i++)
		w64(gpu, pt + 8 * i, 1 | (0x4000000 + i * 0x1000));
	nvm_g80_req q = { (uint32_t)(ch >> 12), 0x500, 0, NVM_G80_ENG_PFIFO, 8, 0, false, false };
	nvm_g80_layout lay;
	nvm_g80_chip_layout(gpu, &lay);
	uint64_t n = (uint64_t)(4e6 * scale);
	if (n < NPAGES * 4)
		n = NPAGES * 4;
	nvm_g80_res r;
	uint64_t s = 0;
	double t0 = bench_now();
	for (uint64_t i = 0; i < n; i++) {
		q.offset = 0x20000000 + (i % NPAGES) * 0x1000 + 0x10;
		nvm_g80_walk(gpu, &lay, &q, &r, NULL);
		s += r.addr;
	}
	double t1 = bench_now();
	for (uint64_t i = 0; i < n; i++) {
		q.offset = 0x20000000 + (i % NPAGES) * 0x1000 + 0x10;
		nvm_g80_translate(gpu, &q, &r);
		s += r.addr;
	}
	double t2 = bench_now();
	bench_sink(s);
	nvm_g80_stats st;
	nvm_g80_get_stats(gpu, &st);
	nvm_close(gpu);
	if (st.tlb_hits * 10 < n * 9 || st.faults) /* not measuring what it claims */
		return 1;
	static char unit[96];
	bench_tlb_result(out, unit, sizeof(unit), n, st.tlb_hits, t0, t1, t2,
	                 "the same translations without a TLB (nvm_g80_walk)");
	return 0;
}

const struct bench_case bench_g80vm_cases[] = {
	{ "g80vm.translate_tlb", "G80 VM translations that hit the TLB vs without a TLB", bench_tlb },
	{ NULL, NULL, NULL },
};
