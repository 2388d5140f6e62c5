/*
 * G80 VM translation (seed 002 "Tesla virtual memory"): channel descriptors,
 * DMA objects (every field, NULL_DMAOBJ and DMAOBJ_LIMIT), the unpaged
 * compression tag, page directory and page tables (every PDE and PTE field,
 * small / medium / large pages, the small-page table size limit), contig
 * blocks, G80 vs G84 channel structures, and bounds-checked structure reads.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "g80_env.h"

static nvm_g80_req rq(uint32_t chan, unsigned sel, uint64_t off, bool write)
{
	nvm_g80_req r = { chan, sel, off, NVM_G80_ENG_PGRAPH, 3, 1, write, false };
	return r;
}

static nvm_g80_res tr(nvm_gpu *gpu, unsigned sel, uint64_t off, bool write)
{
	return g80e_translate(gpu, rq(g80e_chan(CH, 0), sel, off, write));
}

/* seed 002 "DMA objects": "If the selector is 0, NULL_DMAOBJ fault happens." */
static void null_dmaobj(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	nvm_g80_res r = tr(gpu, 0, 0x1000, false);
	assert_int_equal(r.fault, NVM_G80_FAULT_NULL_DMAOBJ);
	assert_int_equal(r.reason, 6);
	/* only the low 16 bits are the selector */
	r = tr(gpu, 0x10000, 0x1000, false);
	assert_int_equal(r.fault, NVM_G80_FAULT_NULL_DMAOBJ);
	nvm_close(gpu);
}

/* seed 002 "DMA objects": unpaged VRAM object, base + logical, limit
 * compared "larger or equal" -> DMAOBJ_LIMIT. */
static void unpaged_vram_and_limit(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, g80e_dw0(0x3d, 1, 2, 1, 0, 0, 0), 0x300000, 0x310000);
	nvm_g80_res r = tr(gpu, SEL, 0x1234, true);
	assert_int_equal(r.fault, 0);
	assert_false(r.paged);
	assert_int_equal(r.ap, NVM_AP_VRAM);
	assert_int_equal(r.target, NVM_G80_TGT_VRAM);
	assert_int_equal(r.addr, 0x301234);
	assert_int_equal(r.dmaobj.cls, 0x3d);
	r = tr(gpu, SEL, 0xffff, false);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.addr, 0x30ffff);
	r = tr(gpu, SEL, 0x10000, false);
	assert_int_equal(r.fault, NVM_G80_FAULT_DMAOBJ_LIMIT);
	assert_int_equal(r.reason, 0xf);
	nvm_close(gpu);
}

/* seed 002: targets 2 SYSRAM_SNOOP and 3 SYSRAM_NOSNOOP give SYSRAM
 * addresses; VRAM linear addresses are 32-bit ("high 8 bits are ignored"),
 * SYSRAM ones 40-bit (word 3 7:0 = base 39:32, 31:24 = limit 39:32). */
static void unpaged_targets_and_high_bits(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g92");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, g80e_dw0(2, 2, 0, 0, 0, 0, 0), 0x4000, 0x8000);
	nvm_g80_res r = tr(gpu, SEL, 0x10, false);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.ap, NVM_AP_SYSMEM);
	assert_int_equal(r.target, NVM_G80_TGT_SYSRAM_SNOOP);
	assert_int_equal(r.addr, 0x4010);
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, g80e_dw0(2, 3, 0, 0, 0, 0, 0), 0x4000, 0x8000);
	r = tr(gpu, SEL, 0x10, false);
	assert_int_equal(r.target, NVM_G80_TGT_SYSRAM_NOSNOOP);
	assert_int_equal(r.ap, NVM_AP_SYSMEM);
	/* VRAM: base 0x1_0000_2000 lands at 0x2000 */
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, g80e_dw0(2, 1, 0, 0, 0, 0, 0), 0x100002000ull, 0x200000000ull);
	r = tr(gpu, SEL, 0x10, false);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.dmaobj.base, 0x100002000ull);
	assert_int_equal(r.dmaobj.limit, 0x200000000ull);
	assert_int_equal(r.addr, 0x2010);
	/* SYSRAM keeps 40 bits: beyond the model's 256 MiB of sysmem it faults
	 * (UNVERIFIED: VRAM_LIMIT) */
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, g80e_dw0(2, 2, 0, 0, 0, 0, 0), 0x100002000ull, 0x200000000ull);
	r = tr(gpu, SEL, 0x10, false);
	assert_int_equal(r.fault, NVM_G80_FAULT_VRAM_LIMIT);
	nvm_close(gpu);
}

/* seed 002 word 0 19:18 read-only (1 RO, 2 RW) and 21:20 supervisor-only
 * (1 user-supervisor, 2 supervisor-only) on an unpaged object; faults
 * PAGE_READ_ONLY / PAGE_SUPERVISOR_ONLY (g80_vm.xml G80_VM_FAULT). */
static void unpaged_ro_supervisor(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, g80e_dw0(2, 1, 1, 1, 0, 0, 0), 0x300000, 0x310000);
	assert_int_equal(tr(gpu, SEL, 0, false).fault, 0);
	nvm_g80_res r = tr(gpu, SEL, 0, true);
	assert_int_equal(r.fault, NVM_G80_FAULT_PAGE_READ_ONLY);
	assert_true(r.ro);
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, g80e_dw0(2, 1, 2, 2, 0, 0, 1), 0x300000, 0x310000);
	r = tr(gpu, SEL, 0, true);
	assert_int_equal(r.fault, NVM_G80_FAULT_PAGE_SUPERVISOR_ONLY);
	assert_true(r.supervisor_only);
	assert_true(r.dmaobj.supervisor); /* bit 31 */
	nvm_g80_req q = rq(g80e_chan(CH, 0), SEL, 0, true);
	q.supervisor = true;
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_OK);
	assert_int_equal(r.fault, 0);
	assert_false(r.ro);
	nvm_close(gpu);
}

/* seed 002: storage type 28:22, partition cycle (word 5 17:16), encryption
 * (word 5 19:18, G84-) and the unpaged compression tag computation. */
static void unpaged_attributes_and_tag(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	/* SINGLE compression, storage 0x70, comp base 0x300000 (w5 15:0 = 0x30),
	 * tags 0x10..0x13, long cycle (2), encrypted (1) */
	uint32_t w[6] = { g80e_dw0(0x3d, 1, 2, 1, 0x70, 1, 0), 0x800000, 0x200000, 0, 0x10 | 0x13u << 16,
		          0x30 | 2u << 16 | 1u << 18 };
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	nvm_g80_res r = tr(gpu, SEL, 0x130000, false); /* linear 0x330000: 3 units above the base */
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.storage_type, 0x70);
	assert_int_equal(r.comp, NVM_G80_COMP_SINGLE);
	assert_int_equal(r.tag, 0x13); /* 0x10 + 3 */
	assert_int_equal(r.part_cycle, 1);
	assert_true(r.encrypted);
	/* below the compression base: "force compression mode to none" */
	r = tr(gpu, SEL, 0x0ffff, false);
	assert_int_equal(r.comp, NVM_G80_COMP_NONE);
	/* tag above the limit tag: none */
	r = tr(gpu, SEL, 0x130000 + 0x10000, false); /* 0x10 + 4 > 0x13 */
	assert_int_equal(r.comp, NVM_G80_COMP_NONE);
	r = tr(gpu, SEL, 0x120000, false); /* 0x10 + 2 <= 0x13 */
	assert_int_equal(r.comp, NVM_G80_COMP_SINGLE);
	assert_int_equal(r.tag, 0x12);
	/* short cycle (1) */
	w[5] = 1u << 16;
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	assert_int_equal(tr(gpu, SEL, 0, false).part_cycle, 0);
	nvm_close(gpu);
	/* G80: the encryption field does not exist */
	gpu = g80e_open("g80");
	w[5] = 1u << 18;
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	r = tr(gpu, SEL, 0, false);
	assert_int_equal(r.dmaobj.encrypt, 1);
	assert_false(r.encrypted);
	nvm_close(gpu);
}

/* Every field of the 0x18-byte object through the decoder, and the encoder
 * giving the same words back (seed 002 "DMA objects", g80_vm.xml G80_DMAOBJ). */
static void dmaobj_decoder(void **s)
{
	(void)s;
	const uint32_t w[6] = { 0xdfc5003du, 0x89abcdefu, 0x01234567u, 0x7f0000a5u, 0x0abc0123u, 0x000ebeefu };
	nvm_g80_dmaobj d;
	nvm_g80_dmaobj_decode(w, &d);
	assert_int_equal(d.cls, 0x3d);
	assert_int_equal(d.target, 1);
	assert_int_equal(d.ro, 1);
	assert_int_equal(d.us, 0);
	assert_int_equal(d.storage_type, 0x7f);
	assert_int_equal(d.comp, 2);
	assert_true(d.supervisor);
	assert_int_equal(d.limit, 0x7f89abcdefull);
	assert_int_equal(d.base, 0xa501234567ull);
	assert_int_equal(d.tag_base, 0x123);
	assert_int_equal(d.tag_limit, 0xabc);
	assert_int_equal(d.comp_base, 0xbeef0000ull);
	assert_int_equal(d.part_cycle, 2);
	assert_int_equal(d.encrypt, 3);
	uint32_t back[6];
	nvm_g80_dmaobj_encode(&d, back);
	/* the encoder writes the defined fields only: word 4 bits 15:12 and
	 * 31:28, word 3 23:8, word 5 31:20 are zero in w */
	assert_memory_equal(back, w, sizeof(w));
}

/* seed 002 "Page tables": the page directory at 0x1400 (G80) or 0x200
 * (G84+) of the channel structure; 0x800 PDEs of 0x20000000 bytes each. */
static void map_small(nvm_gpu *gpu, uint32_t pd_off, uint64_t va, uint64_t pte)
{
	g80e_w64(gpu, NVM_AP_VRAM, CH + pd_off + (va >> 29) * 8, g80e_pde(3, 0, 0, PT));
	g80e_w64(gpu, NVM_AP_VRAM, PT + ((va & 0x1fffffff) >> 12) * 8, pte);
}

static void page_directory_g80_vs_g84(void **s)
{
	(void)s;
	const char *chips[] = { "g80", "g84", "g92", "gt215" };
	for (int i = 0; i < 4; i++) {
		nvm_gpu *gpu = g80e_open(chips[i]);
		uint32_t pd = i == 0 ? 0x1400 : 0x200, other = i == 0 ? 0x200 : 0x1400;
		g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
		uint64_t va = 0x60001000ull; /* PDE 3 */
		map_small(gpu, other, va, g80e_pte_vram(0x500000));
		nvm_g80_res r = tr(gpu, SEL, va + 0x10, false);
		assert_int_equal(r.fault, NVM_G80_FAULT_PT_NOT_PRESENT);
		assert_int_equal(r.reason, 0);
		map_small(gpu, pd, va, g80e_pte_vram(0x500000));
		r = tr(gpu, SEL, va + 0x10, false);
		assert_int_equal(r.fault, 0);
		assert_true(r.paged);
		assert_int_equal(r.virt, va + 0x10);
		assert_int_equal(r.addr, 0x500010);
		assert_int_equal(r.page_size, 0x1000);
		nvm_g80_layout lay;
		assert_int_equal(nvm_g80_chip_layout(gpu, &lay), NVM_OK);
		assert_int_equal(lay.pd_offset, pd);
		nvm_close(gpu);
	}
}

/* seed 002 PTE fields: present, read-only 3, target 5:4, supervisor-only 6,
 * storage type 46:40, compression 48:47, tag 60:49, partition cycle 61,
 * encryption 62 [G84-]; a paged object taking them all from the page tables. */
static void pte_fields(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	/* word 5: partition cycle 0 and encryption 2, both from the page tables */
	const uint32_t w[6] = { G80E_PAGED_W0, 0xffffffffu, 0, 0xff000000u, 0, 2u << 18 };
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	struct g80e_pte p = { .present = 1,
		              .ro = 1,
		              .target = 2,
		              .sup = 1,
		              .storage = 0x70,
		              .comp = 2,
		              .tag = 0xabc,
		              .part = 1,
		              .enc = 1,
		              .addr = 0x7654000 };
	map_small(gpu, 0x200, 0x2000, g80e_pte(&p));
	nvm_g80_req q = rq(g80e_chan(CH, 0), SEL, 0x2008, false);
	q.supervisor = true;
	nvm_g80_res r;
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_OK);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.target, NVM_G80_TGT_SYSRAM_SNOOP);
	assert_int_equal(r.ap, NVM_AP_SYSMEM);
	assert_int_equal(r.addr, 0x7654008);
	assert_true(r.ro);
	assert_true(r.supervisor_only);
	assert_int_equal(r.storage_type, 0x70);
	assert_int_equal(r.comp, 2);
	assert_int_equal(r.tag, 0xabc);
	assert_int_equal(r.part_cycle, 1);
	assert_true(r.encrypted);
	/* user access: PAGE_SUPERVISOR_ONLY; supervisor write: PAGE_READ_ONLY */
	q.supervisor = false;
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_G80_FAULT_PAGE_SUPERVISOR_ONLY);
	q.supervisor = true;
	q.write = true;
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_G80_FAULT_PAGE_READ_ONLY);
	/* the raw decoder agrees, bits 2:1 included */
	nvm_g80_pte d;
	nvm_g80_pte_decode(g80e_pte(&p) | 6, &d);
	assert_true(d.present);
	assert_int_equal(d.unk1, 3);
	assert_int_equal(d.contig_log2, 0);
	assert_int_equal(d.addr, 0x7654000);
	/* page not present */
	map_small(gpu, 0x200, 0x3000, 0);
	r = tr(gpu, SEL, 0x3000, false);
	assert_int_equal(r.fault, NVM_G80_FAULT_PAGE_NOT_PRESENT);
	assert_int_equal(r.reason, 2);
	nvm_close(gpu);
	/* G80: bit 62 does not exist */
	gpu = g80e_open("g80");
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	map_small(gpu, 0x1400, 0x2000, g80e_pte(&p));
	q.write = false;
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_OK);
	assert_int_equal(r.fault, 0);
	assert_false(r.encrypted);
	nvm_close(gpu);
}

/* seed 002 "DMA objects": on a paged object the read-only, supervisor,
 * storage type, compression, partition-cycle and encryption fields
 * override the page tables unless they say "use page tables". */
static void paged_overrides(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	struct g80e_pte p = { .present = 1,
		              .ro = 1,
		              .sup = 1,
		              .storage = 0x70,
		              .comp = 2,
		              .part = 1,
		              .enc = 1,
		              .addr = 0x600000 };
	map_small(gpu, 0x200, 0, g80e_pte(&p));
	uint32_t w[6] = { g80e_dw0(0x3d, 0, 2, 1, 0x10, 0, 0), 0xffffffffu, 0, 0xff000000u, 0, 1u << 16 | 0u << 18 };
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	nvm_g80_res r = tr(gpu, SEL, 0x40, true);
	assert_int_equal(r.fault, 0);
	assert_false(r.ro);
	assert_false(r.supervisor_only);
	assert_int_equal(r.storage_type, 0x10);
	assert_int_equal(r.comp, 0);
	assert_int_equal(r.part_cycle, 0);
	assert_false(r.encrypted);
	assert_int_equal(r.addr, 0x600040);
	/* encryption 2: from the page tables */
	w[5] = 2u << 18;
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	assert_true(tr(gpu, SEL, 0x40, true).encrypted);
	/* read-only 1 on a read-write page */
	p.ro = 0;
	map_small(gpu, 0x200, 0, g80e_pte(&p));
	nvm_g80_tlb_flush(gpu, NVM_G80_ENG_PGRAPH);
	w[0] = g80e_dw0(0x3d, 0, 1, 1, 0x7f, 3, 0);
	g80e_dmaobj(gpu, NVM_AP_VRAM, CH, SEL, w);
	r = tr(gpu, SEL, 0x40, true);
	assert_int_equal(r.fault, NVM_G80_FAULT_PAGE_READ_ONLY);
	r = tr(gpu, SEL, 0x40, false);
	assert_int_equal(r.storage_type, 0x70);
	assert_int_equal(r.comp, 2);
	nvm_close(gpu);
}

/* seed 002: small 0x1000, medium 0x4000 [GT215-] and large 0x10000 pages;
 * the PTE address uses bits 39:12, 39:14 or 39:16. */
static void page_sizes(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("gt215");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	/* PDE 0: large pages; PDE 1: medium pages */
	g80e_w64(gpu, NVM_AP_VRAM, CH + 0x200, g80e_pde(1, 0, 0, PT));
	g80e_w64(gpu, NVM_AP_VRAM, CH + 0x208, g80e_pde(2, 0, 0, PT + 0x10000));
	uint64_t va = 0x35000 + 0x123;                                             /* large page 3 */
	g80e_w64(gpu, NVM_AP_VRAM, PT + 3 * 8, g80e_pte_vram(0x1230000 | 0xf000)); /* 15:12 ignored */
	nvm_g80_res r = tr(gpu, SEL, va, false);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.page_size, 0x10000);
	assert_int_equal(r.addr, 0x1230000 + 0x5123);
	uint64_t mva = 0x20000000ull + 0x9000 + 0x77; /* medium page 2 of PDE 1 */
	g80e_w64(gpu, NVM_AP_VRAM, PT + 0x10000 + 2 * 8, g80e_pte_vram(0x2340000 | 0x3000)); /* 13:12 ignored */
	r = tr(gpu, SEL, mva, false);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.page_size, 0x4000);
	assert_int_equal(r.addr, 0x2340000 + 0x1077);
	nvm_g80_pde pde;
	nvm_g80_pde_decode(g80e_pde(2, 0, 0, PT + 0x10000), &pde);
	assert_int_equal(pde.entries, 0x8000);
	nvm_g80_pde_decode(g80e_pde(1, 0, 0, PT), &pde);
	assert_int_equal(pde.entries, 0x2000);
	nvm_close(gpu);
	/* before GT215 the medium-page PDE is not valid (UNVERIFIED: PT_NOT_PRESENT) */
	gpu = g80e_open("g92");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	g80e_w64(gpu, NVM_AP_VRAM, CH + 0x208, g80e_pde(2, 0, 0, PT + 0x10000));
	g80e_w64(gpu, NVM_AP_VRAM, PT + 0x10000 + 2 * 8, g80e_pte_vram(0x2340000));
	assert_int_equal(tr(gpu, SEL, mva, false).fault, NVM_G80_FAULT_PT_NOT_PRESENT);
	nvm_close(gpu);
}

/* seed 002 PDE 6:5: small-page tables limited to 0x8000, 0x4000 or 0x2000
 * entries; "the pages over this limit will fault" (PT_TOO_SHORT). */
static void small_pt_size_limit(void **s)
{
	(void)s;
	static const uint32_t entries[4] = { 0x20000, 0x8000, 0x4000, 0x2000 };
	nvm_gpu *gpu = g80e_open("g84");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	for (unsigned sz = 0; sz < 4; sz++) {
		g80e_w64(gpu, NVM_AP_VRAM, CH + 0x200, g80e_pde(3, 0, sz, PT));
		uint64_t last = (uint64_t)(entries[sz] - 1);
		g80e_w64(gpu, NVM_AP_VRAM, PT + last * 8, g80e_pte_vram(0x700000));
		g80e_w64(gpu, NVM_AP_VRAM, PT + last * 8 + 8, g80e_pte_vram(0x701000));
		nvm_g80_tlb_flush(gpu, NVM_G80_ENG_PGRAPH);
		nvm_g80_res r = tr(gpu, SEL, last << 12, false);
		assert_int_equal(r.fault, 0);
		assert_int_equal(r.addr, 0x700000);
		r = tr(gpu, SEL, (last + 1) << 12, false);
		if (sz == 0) {
			/* a full table: the next page is in the next PDE (not present) */
			assert_int_equal(r.fault, NVM_G80_FAULT_PT_NOT_PRESENT);
		} else {
			assert_int_equal(r.fault, NVM_G80_FAULT_PT_TOO_SHORT);
			assert_int_equal(r.reason, 1);
		}
	}
	nvm_close(gpu);
}

/* seed 002 PDE target 3:2 and PTE target: page tables in SYSRAM. */
static void pt_in_sysram(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	g80e_w64(gpu, NVM_AP_VRAM, CH + 0x200, g80e_pde(3, 3, 0, 0x40000));
	g80e_w64(gpu, NVM_AP_SYSMEM, 0x40000 + 8, g80e_pte_vram(0x900000));
	nvm_g80_res r = tr(gpu, SEL, 0x1004, false);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.addr, 0x900004);
	/* PDE target 1 "invalid, do not use" (UNVERIFIED: PT_NOT_PRESENT) */
	g80e_w64(gpu, NVM_AP_VRAM, CH + 0x200, g80e_pde(3, 1, 0, 0x40000));
	nvm_g80_tlb_flush(gpu, NVM_G80_ENG_PGRAPH);
	assert_int_equal(tr(gpu, SEL, 0x1004, false).fault, NVM_G80_FAULT_PT_NOT_PRESENT);
	nvm_close(gpu);
}

/* seed 002 "linear addresses": VRAM addresses are 32-bit, "high 8 bits are
 * ignored", for the page tables and channel structures as for data. */
static void vram_high_bits_ignored(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	g80e_w64(gpu, NVM_AP_VRAM, CH + 0x200, g80e_pde(3, 0, 0, 0x4200000000ull | PT));
	g80e_w64(gpu, NVM_AP_VRAM, PT + 8, g80e_pte_vram(0x1200500000ull));
	nvm_g80_res r = tr(gpu, SEL, 0x1008, false);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.addr, 0x500008);
	/* the channel structure too: descriptor bits 27:20 are address 39:32 */
	nvm_g80_req q = rq(g80e_chan(0xab00000000ull | CH, 0), SEL, 0x1008, false);
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_OK);
	assert_int_equal(r.fault, 0);
	assert_int_equal(r.addr, 0x500008);
	nvm_close(gpu);
}

/* seed 002 "contig blocks": 2^o pages, all PTEs identical, holding the
 * address of the first page; the virtual address aligned, the linear one
 * need not be. */
static void contig_blocks(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	struct g80e_pte p = { .present = 1, .contig = 2, .addr = 0x803000 }; /* not 16 KiB aligned */
	for (int i = 0; i < 4; i++)
		map_small(gpu, 0x200, 0x10000 + (uint64_t)i * 0x1000, g80e_pte(&p));
	for (int i = 0; i < 4; i++) {
		nvm_g80_res r = tr(gpu, SEL, 0x10000 + (uint64_t)i * 0x1000 + 0x10, false);
		assert_int_equal(r.fault, 0);
		assert_int_equal(r.addr, 0x803000 + (uint64_t)i * 0x1000 + 0x10);
		assert_int_equal(r.block, 0x4000);
	}
	nvm_close(gpu);
}

/* Hostile structures: a channel, DMA object or page table outside memory
 * faults (UNVERIFIED: VRAM_LIMIT) with a diagnostic, never a bad access;
 * the invalid channel target faults NO_CHANNEL (UNVERIFIED). */
static int oob_events;
static void count_oob(void *u, const nvm_event *ev)
{
	(void)u;
	if (!strcmp(ev->code, "vm_out_of_range"))
		oob_events++;
}

static void structures_outside_memory(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	oob_events = 0;
	nvm_hook_add(gpu, NVM_EV_MASK(NVM_EV_GUEST_ERROR), count_oob, NULL, NULL);
	nvm_g80_req q = rq(g80e_chan(0xffff000000ull, 0), 1, 0, false);
	nvm_g80_res r;
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_G80_FAULT_VRAM_LIMIT);
	assert_true(r.oob);
	assert_int_equal(oob_events, 1);
	/* DMA object straddling the end of VRAM */
	q = rq(g80e_chan((256ull << 20) - 0x1000, 0), 0xff, 0, false);
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_G80_FAULT_VRAM_LIMIT);
	/* page table far outside */
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	g80e_w64(gpu, NVM_AP_VRAM, CH + 0x200, g80e_pde(3, 0, 0, 0x80000000ull));
	r = tr(gpu, SEL, 0, false);
	assert_int_equal(r.fault, NVM_G80_FAULT_VRAM_LIMIT);
	assert_true(r.oob);
	assert_int_equal(oob_events, 3);
	/* the invalid target of a channel descriptor */
	q = rq(g80e_chan(CH, 1), SEL, 0, false);
	assert_int_equal(nvm_g80_translate(gpu, &q, &r), NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_G80_FAULT_NO_CHANNEL);
	nvm_close(gpu);
}

/* nvm_g80_read / nvm_g80_write cross pages and stop at a fault: nothing at
 * or past the faulting page is transferred. */
static void read_write_cross_pages(void **s)
{
	(void)s;
	nvm_gpu *gpu = g80e_open("g84");
	g80e_dma_simple(gpu, NVM_AP_VRAM, CH, SEL, G80E_PAGED_W0, 0, 0xffffffffffull);
	map_small(gpu, 0x200, 0x0000, g80e_pte_vram(0x900000));
	map_small(gpu, 0x200, 0x1000, g80e_pte_vram(0x700000)); /* not contiguous */
	uint8_t buf[0x1800], back[0x1800];
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	nvm_g80_req q = rq(g80e_chan(CH, 0), SEL, 0x800, true);
	nvm_g80_res r;
	assert_int_equal(nvm_g80_write(gpu, &q, buf, sizeof(buf), &r), NVM_OK);
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, 0x900800, back, 0x800), NVM_OK);
	assert_memory_equal(back, buf, 0x800);
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, 0x700000, back, 0x1000), NVM_OK);
	assert_memory_equal(back, buf + 0x800, 0x1000);
	memset(back, 0, sizeof(back));
	assert_int_equal(nvm_g80_read(gpu, &q, back, sizeof(back), &r), NVM_OK);
	assert_memory_equal(back, buf, sizeof(buf));
	/* page 2 not present: the first 0x1800 bytes go, then the fault */
	uint8_t big[0x2000];
	memset(big, 0xee, sizeof(big));
	assert_int_equal(nvm_g80_write(gpu, &q, big, sizeof(big), &r), NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_G80_FAULT_PAGE_NOT_PRESENT);
	assert_int_equal(r.virt, 0x2000);
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, 0x700ff0, back, 0x10), NVM_OK);
	assert_int_equal(back[0], 0xee);
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(null_dmaobj),
		cmocka_unit_test(unpaged_vram_and_limit),
		cmocka_unit_test(unpaged_targets_and_high_bits),
		cmocka_unit_test(unpaged_ro_supervisor),
		cmocka_unit_test(unpaged_attributes_and_tag),
		cmocka_unit_test(dmaobj_decoder),
		cmocka_unit_test(page_directory_g80_vs_g84),
		cmocka_unit_test(pte_fields),
		cmocka_unit_test(paged_overrides),
		cmocka_unit_test(page_sizes),
		cmocka_unit_test(small_pt_size_limit),
		cmocka_unit_test(pt_in_sysram),
		cmocka_unit_test(vram_high_bits_ignored),
		cmocka_unit_test(contig_blocks),
		cmocka_unit_test(structures_outside_memory),
		cmocka_unit_test(read_write_cross_pages),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
