/*
 * The ver2 walker (src/mmu/mmu_walk.c) on page tables built the way nouveau
 * and UVM build them (mmu_pt.h). Documents: gv100_dev_mmu.ref.txt
 * NV_MMU_VER2_*, gp100-mmu-format.txt, volta-facts.md section e.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "mmu_pt.h"

#define K4  (1ull << 12)
#define K64 (1ull << 16)
#define M2  (1ull << 21)

struct fx {
	nvm_gpu *gpu;
	struct ptb b;
};

static int setup(void **state)
{
	static struct fx f;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 30, .sysmem_size = 1ull << 32 };
	if (nvm_open(&cfg, &f.gpu))
		return -1;
	ptb_init(&f.b, f.gpu, NVM_AP_VRAM, 0x100000);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	nvm_close(f->gpu);
	return 0;
}

static nvm_mmu_result walk(struct fx *f, uint64_t va, nvm_mmu_access a, int priv, nvm_mmu_walk_trace *tr)
{
	nvm_mmu_result r;
	nvm_status st = nvm_mmu_walk(f->gpu, NVM_MMU_PDB_VID, f->b.pdb, va, a, priv, &r, tr);
	assert_int_equal(st, r.fault != NVM_MMU_FAULT_NONE ? NVM_ERR_FAULT : NVM_OK);
	return r;
}

/* volta-facts e: PDE3 va[48:47], PDE2 46:38, PDE1 37:29, PDE0 28:21 (16 B),
 * small PT 20:12. A 4 KiB page visits five levels. */
static void test_small_page_levels(void **state)
{
	struct fx *f = *state;
	uint64_t va = (1ull << 47) | (5ull << 38) | (7ull << 29) | (9ull << 21) | (0x1abull << 12) | 0x123;
	ptb_map(&f->b, va, K4, ptb_pte(0x4567000, 0, 0, 0));
	nvm_mmu_walk_trace tr;
	nvm_mmu_result r = walk(f, va, NVM_MMU_READ, 0, &tr);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.target, NVM_MMU_TGT_VID);
	assert_int_equal(r.page_size, K4);
	assert_int_equal(r.pa, 0x4567123);
	assert_int_equal(tr.n, 5);
	assert_string_equal(tr.lv[0].name, "PDE3");
	assert_int_equal(tr.lv[0].index, 1);
	assert_int_equal(tr.lv[1].index, 5);
	assert_int_equal(tr.lv[2].index, 7);
	assert_int_equal(tr.lv[3].index, 9);
	assert_int_equal(tr.lv[3].nwords, 2);
	assert_string_equal(tr.lv[4].name, "PTE_SMALL");
	assert_int_equal(tr.lv[4].index, 0x1ab);
	assert_int_equal(tr.lv[0].table, f->b.pdb);
}

/* Dual PDE big table (ADDRESS_BIG, BIG_SHIFT 8) indexed by va[20:16]. */
static void test_big_page(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x40000000ull + 0x1b0000 + 0x4321;
	ptb_map(&f->b, va & ~(K64 - 1), K64, ptb_pte(0x20000000, 0, 0, 0));
	nvm_mmu_walk_trace tr;
	nvm_mmu_result r = walk(f, va, NVM_MMU_READ, 0, &tr);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.page_size, K64);
	assert_int_equal(r.pa, 0x20000000 + (va & (K64 - 1)));
	assert_string_equal(tr.lv[4].name, "PTE_BIG");
	assert_int_equal(tr.lv[4].index, 0x1b);
	/* The big table is 256-byte aligned, not 4 KiB: BIG_SHIFT is 8. */
	assert_int_equal(tr.lv[4].table & 0xff, 0);
}

/* gv100_dev_mmu.ref NV_MMU_VER2_DUAL_PDE_ADDRESS_BIG_VID (35-3):(8-4) with
 * NV_MMU_VER2_DUAL_PDE_ADDRESS_BIG_SHIFT 8: a big page table may sit on any
 * 256-byte boundary. Here it is at 0x...300 (not 4 KiB aligned), so reading
 * the field as 32:8 << 12 would find a different table. */
static void test_big_table_256_aligned(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x7c0000000ull + 0x50000 + 0x1234;
	uint64_t d = ptb_pde0(&f->b, va);
	uint64_t big = ptb_alloc(&f->b, 0x400, 4096) + 0x300;
	assert_int_not_equal(big & 0xfff, 0);
	/* A decoy at the 4 KiB-truncated address, where a 12-bit shift would land. */
	ptb_w64(f->gpu, NVM_AP_VRAM, (big & ~0xfffull) + 5 * 8, ptb_pte(0x11110000, 0, 0, 0));
	ptb_w64(f->gpu, NVM_AP_VRAM, big + 5 * 8, ptb_pte(0x22220000, 0, 0, 0));
	/* ADDRESS_BIG in 35:4 holds big >> 8; APERTURE_BIG 2:1 = VID (1). */
	ptb_w64(f->gpu, NVM_AP_VRAM, d, (big >> 8) << 4 | 1ull << 1);
	ptb_w64(f->gpu, NVM_AP_VRAM, d + 8, 0);
	nvm_mmu_walk_trace tr;
	nvm_mmu_result r = walk(f, va, NVM_MMU_READ, 0, &tr);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.page_size, K64);
	assert_int_equal(r.pa, 0x22220000 + 0x1234);
	assert_string_equal(tr.lv[4].name, "PTE_BIG");
	assert_int_equal(tr.lv[4].table, big);
	assert_int_equal(tr.lv[4].entry_addr, big + 5 * 8);
}

/* A PDE0 slot with IS_PTE = 1 is a 2 MiB PTE (volta-facts e, dual PDE). */
static void test_2m_page(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x80000000ull + 3 * M2 + 0x12345;
	ptb_map(&f->b, va & ~(M2 - 1), M2, ptb_pte(0x30000000, 0, 0, 0));
	nvm_mmu_walk_trace tr;
	nvm_mmu_result r = walk(f, va, NVM_MMU_READ, 0, &tr);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.page_size, M2);
	assert_int_equal(r.pa, 0x30000000 + 0x12345);
	assert_int_equal(tr.n, 4);
	assert_int_equal(r.level, 3);
}

/* PTE APERTURE: 0 VID, 1 PEER, 2 SYS_COH, 3 SYS_NCOH; ADDRESS_SYS 53:8,
 * ADDRESS_VID (35-3):8 with PEER in 35:33. */
static void test_apertures_and_widths(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x100000000ull;
	ptb_map(&f->b, va, K4, ptb_pte(0x123456789000ull, 2, 0, 0));
	ptb_map(&f->b, va + K4, K4, ptb_pte(0x5000, 3, 0, 0));
	/* Peer 5 in bits 35:33 of the PTE; VID address bits stop at 32. */
	uint64_t peer = ptb_pte(0x7000, 1, 0, 0) | (5ull << 33);
	ptb_map(&f->b, va + 2 * K4, K4, peer);
	/* A VID PTE with bit 33 set: not part of ADDRESS_VID. */
	ptb_map(&f->b, va + 3 * K4, K4, ptb_pte(0x9000, 0, 0, 0) | (1ull << 33));
	nvm_mmu_result r = walk(f, va, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.target, NVM_MMU_TGT_SYS_COH);
	assert_int_equal(r.pa, 0x123456789000ull);
	r = walk(f, va + K4, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.target, NVM_MMU_TGT_SYS_NCOH);
	assert_int_equal(r.pa, 0x5000);
	r = walk(f, va + 2 * K4, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.target, NVM_MMU_TGT_PEER);
	assert_int_equal(r.peer, 5);
	assert_int_equal(r.pa, 0x7000);
	r = walk(f, va + 3 * K4, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.target, NVM_MMU_TGT_VID);
	assert_int_equal(r.pa, 0x9000);
}

/* Page tables in system memory (PDE APERTURE 2). */
static void test_tables_in_sysmem(void **state)
{
	struct fx *f = *state;
	struct ptb sb;
	ptb_init(&sb, f->gpu, NVM_AP_SYSMEM, 0x10000000);
	ptb_map(&sb, 0x200000, K4, ptb_pte(0xabc000, 0, 0, 0));
	nvm_mmu_result r;
	assert_int_equal(nvm_mmu_walk(f->gpu, NVM_MMU_PDB_SYS_COH, sb.pdb, 0x200010, NVM_MMU_READ, 0, &r, NULL),
	                 NVM_OK);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.pa, 0xabc010);
	/* The same tables read as VRAM find nothing there. */
	assert_int_equal(nvm_mmu_walk(f->gpu, NVM_MMU_PDB_VID, sb.pdb, 0x200010, NVM_MMU_READ, 0, &r, NULL),
	                 NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PDE);
}

/* PTE attribute bits VOL 3, ENCRYPTED 4, PRIVILEGE 5, READ_ONLY 6,
 * ATOMIC_DISABLE 7, KIND 63:56. */
static void test_attributes(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x200000000ull;
	ptb_map(&f->b, va, K4, ptb_pte(0x1000, 2, PTB_VOL | PTB_ENC | PTB_PRIV | PTB_RO | PTB_AD, 0xfe));
	nvm_mmu_result r = walk(f, va, NVM_MMU_READ, 1, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_true(r.vol && r.encrypted && r.priv && r.ro && r.atomic_disable);
	assert_int_equal(r.kind, 0xfe);
	ptb_map(&f->b, va + K4, K4, ptb_pte(0x1000, 0, 0, 0xca));
	r = walk(f, va + K4, NVM_MMU_READ, 0, NULL);
	assert_false(r.vol || r.encrypted || r.priv || r.ro || r.atomic_disable);
	assert_int_equal(r.kind, 0xca);
}

/* gp100-mmu-format: PRIVILEGE "causes non-privileged requests to fault",
 * READ_ONLY "causes writes to this page to fault", ATOMIC_DISABLE "An atomic
 * request to a page with Atomic Disable high will fault". */
static void test_permission_faults(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x300000000ull;
	ptb_map(&f->b, va, K4, ptb_pte(0x1000, 0, PTB_PRIV, 0));
	ptb_map(&f->b, va + K4, K4, ptb_pte(0x1000, 0, PTB_RO, 0));
	ptb_map(&f->b, va + 2 * K4, K4, ptb_pte(0x1000, 0, PTB_AD, 0));
	assert_int_equal(walk(f, va, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_PRIV_VIOLATION);
	assert_int_equal(walk(f, va, NVM_MMU_READ, 1, NULL).fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(walk(f, va + K4, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(walk(f, va + K4, NVM_MMU_PREFETCH, 0, NULL).fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(walk(f, va + K4, NVM_MMU_WRITE, 0, NULL).fault, NVM_MMU_FAULT_RO_VIOLATION);
	assert_int_equal(walk(f, va + K4, NVM_MMU_ATOMIC, 0, NULL).fault, NVM_MMU_FAULT_RO_VIOLATION);
	assert_int_equal(walk(f, va + 2 * K4, NVM_MMU_WRITE, 0, NULL).fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(walk(f, va + 2 * K4, NVM_MMU_ATOMIC, 0, NULL).fault, NVM_MMU_FAULT_ATOMIC_VIOLATION);
	assert_int_equal(walk(f, va + 2 * K4, NVM_MMU_ATOMIC_WEAK, 0, NULL).fault, NVM_MMU_FAULT_ATOMIC_VIOLATION);
}

/* KIND: gv100_dev_mmu defines NV_MMU_PTE_KIND_INVALID 0xff and leaves gaps
 * (0x6e, 0x93-0x96, 0xaf-0xb2, 0xc9); UNVERIFIED choice: those fault
 * UNSUPPORTED_KIND. */
static void test_kind_faults(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x310000000ull;
	ptb_map(&f->b, va, K4, ptb_pte(0x1000, 0, 0, 0xff));
	ptb_map(&f->b, va + K4, K4, ptb_pte(0x1000, 0, 0, 0x6e));
	ptb_map(&f->b, va + 2 * K4, K4, ptb_pte(0x1000, 0, 0, 0x6d));
	assert_int_equal(walk(f, va, NVM_MMU_READ, 1, NULL).fault, NVM_MMU_FAULT_UNSUPPORTED_KIND);
	assert_int_equal(walk(f, va + K4, NVM_MMU_READ, 1, NULL).fault, NVM_MMU_FAULT_UNSUPPORTED_KIND);
	assert_int_equal(walk(f, va + 2 * K4, NVM_MMU_READ, 1, NULL).fault, NVM_MMU_FAULT_NONE);
}

/* Fault types PDE / PTE / PDE_SIZE / VA_LIMIT_VIOLATION / UNBOUND_INST_BLOCK
 * (gv100_dev_fault.ref NV_PFAULT_FAULT_TYPE_*). */
static void test_structural_faults(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x400000000ull;
	/* Nothing mapped: the PDE3 slot is invalid. */
	nvm_mmu_result r = walk(f, 0x1000000000000ull, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PDE);
	assert_int_equal(r.level, 0);
	/* Table present, PTE invalid. */
	ptb_map(&f->b, va, K4, ptb_pte(0x1000, 0, 0, 0));
	r = walk(f, va + K4, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PTE);
	assert_int_equal(r.level, 4);
	/* IS_PTE in a PDE1 slot: "Huge pages are unsupported above PD0". */
	uint64_t va2 = 0x480000000ull;
	ptb_map(&f->b, va2, K4, ptb_pte(0x1000, 0, 0, 0));
	uint64_t t2 = ptb_next(&f->b, f->b.pdb + ((va2 >> 47) & 3) * 8);
	uint64_t t1 = ptb_next(&f->b, t2 + ((va2 >> 38) & 511) * 8);
	ptb_w64(f->gpu, NVM_AP_VRAM, t1 + ((va2 >> 29) & 511) * 8, ptb_pte(0x40000000, 0, 0, 0));
	r = walk(f, va2, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PDE_SIZE);
	assert_int_equal(r.level, 2);
	/* 49-bit VA limit. */
	assert_int_equal(walk(f, 1ull << 49, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_VA_LIMIT_VIOLATION);
	assert_int_equal(walk(f, (1ull << 49) - 1, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_PDE);
	/* PAGE_DIR_BASE_TARGET INVALID: "Using INVALID, unbinds". */
	assert_int_equal(nvm_mmu_walk(f->gpu, NVM_MMU_PDB_INVALID, f->b.pdb, va, NVM_MMU_READ, 0, &r, NULL),
	                 NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
}

/* Sparse: "If Valid and Aperture are 0, and Volatile is 1, then the PDE is
 * sparse"; dual PDE: "The big page VOL bit determines sparseness when both
 * pointers are not valid"; PTE: "If Valid is 0 and Volatile is 1, the PTE
 * is sparse". */
static void test_sparse(void **state)
{
	struct fx *f = *state;
	/* Sparse PDE2 slot (covers 256 GiB). */
	uint64_t va = 0x8000000000ull;
	uint64_t t2 = ptb_next(&f->b, f->b.pdb + ((va >> 47) & 3) * 8);
	ptb_w64(f->gpu, NVM_AP_VRAM, t2 + ((va >> 38) & 511) * 8, 1ull << 3);
	nvm_mmu_result r = walk(f, va + 0x1234, NVM_MMU_WRITE, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_true(r.sparse);
	assert_int_equal(r.level, 1);
	assert_int_equal(r.page_size, 1ull << 38); /* a PDE2 entry covers va[46:38] */
	/* Same slot without VOL: a PDE fault. */
	ptb_w64(f->gpu, NVM_AP_VRAM, t2 + ((va >> 38) & 511) * 8, 0);
	assert_int_equal(walk(f, va, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_PDE);
	/* Dual PDE with both pointers invalid and VOL_BIG. */
	uint64_t va2 = 0x500000000ull;
	uint64_t d = ptb_pde0(&f->b, va2);
	ptb_w64(f->gpu, NVM_AP_VRAM, d, 1ull << 3);
	r = walk(f, va2, NVM_MMU_READ, 0, NULL);
	assert_true(r.sparse);
	assert_int_equal(r.page_size, M2);
	ptb_w64(f->gpu, NVM_AP_VRAM, d, 0);
	assert_int_equal(walk(f, va2, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_PDE);
	/* Invalid PTE with VOL. */
	uint64_t va3 = 0x600000000ull;
	ptb_map(&f->b, va3, K4, ptb_pte(0x1000, 0, 0, 0));
	ptb_map(&f->b, va3 + K4, K4, PTB_VOL); /* VALID 0, VOL 1 */
	r = walk(f, va3 + K4, NVM_MMU_READ, 0, NULL);
	assert_true(r.sparse);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.page_size, K4);
}

/* Both tables under one dual PDE0: the small PTE wins where valid, the big
 * PTE serves the rest; an invalid big PTE with PRIVILEGE "indicates that no
 * small page PTEs in this range are valid" (gp100-mmu-format, Privileged). */
static void test_big_and_small(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0x700000000ull;
	ptb_map(&f->b, va, K64, ptb_pte(0x10000000, 0, 0, 0));
	ptb_map(&f->b, va + K4, K4, ptb_pte(0x20000000, 0, 0, 0));
	nvm_mmu_result r = walk(f, va + K4 + 8, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.page_size, K4);
	assert_int_equal(r.pa, 0x20000008);
	r = walk(f, va + 2 * K4 + 8, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.page_size, K64);
	assert_int_equal(r.pa, 0x10000000 + 2 * K4 + 8);
	/* Second 64K chunk: big PTE invalid with PRIV hides a valid small PTE. */
	ptb_map(&f->b, va + K64, K64, PTB_PRIV);
	ptb_map(&f->b, va + K64, K4, ptb_pte(0x30000000, 0, 0, 0));
	assert_int_equal(walk(f, va + K64, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_PTE);
	ptb_map(&f->b, va + K64, K64, 0);
	assert_int_equal(walk(f, va + K64, NVM_MMU_READ, 0, NULL).pa, 0x30000000);
}

/* Bounds: a PDE pointing past the aperture gives a fault with oob set,
 * never an access outside it. */
static void test_out_of_range_tables(void **state)
{
	struct fx *f = *state;
	uint64_t va = 0xa00000000ull;
	ptb_map(&f->b, va, K4, ptb_pte(0x1000, 0, 0, 0));
	uint64_t d = ptb_pde0(&f->b, va);
	/* Small table at 16 GiB of VRAM (the GPU has 1 GiB). */
	ptb_w64(f->gpu, NVM_AP_VRAM, d + 8, ((1ull << 34) >> 12) << 8 | 1ull << 1);
	nvm_mmu_result r = walk(f, va, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PTE);
	assert_true(r.oob);
	/* PDB itself out of range. */
	assert_int_equal(nvm_mmu_walk(f->gpu, NVM_MMU_PDB_VID, 1ull << 36, va, NVM_MMU_READ, 0, &r, NULL),
	                 NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PDE);
	assert_true(r.oob);
	assert_int_equal(r.level, 0);
}

struct enum_acc {
	int n;
	uint64_t bytes;
	int sparse;
};

static int count_map(void *user, const nvm_mmu_mapping *m)
{
	struct enum_acc *a = user;
	a->n++;
	a->bytes += m->size;
	a->sparse += m->attr.sparse;
	return 0;
}

static void test_enum(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 30 };
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	struct ptb b;
	ptb_init(&b, gpu, NVM_AP_VRAM, 0x1000);
	ptb_map(&b, 0x200000, M2, ptb_pte(0x400000, 0, 0, 0));
	ptb_map(&b, 0x400000, K64, ptb_pte(0x800000, 0, 0, 0));
	ptb_map(&b, 0x410000, K4, ptb_pte(0x900000, 0, 0, 0));
	ptb_map(&b, 0x411000, K4, PTB_VOL);
	struct enum_acc a = { 0 };
	nvm_mmu_enum_ops ops = { count_map, NULL, &a };
	assert_int_equal(nvm_mmu_enum(gpu, NVM_MMU_PDB_VID, b.pdb, 1u << 20, &ops), NVM_OK);
	assert_int_equal(a.n, 1 + 16 + 1 + 1); /* big page seen as 4K pieces next to a small table */
	assert_int_equal(a.bytes, M2 + K64 + 2 * K4);
	assert_int_equal(a.sparse, 1);
	/* A budget too small for the tree is reported. */
	memset(&a, 0, sizeof(a));
	assert_int_equal(nvm_mmu_enum(gpu, NVM_MMU_PDB_VID, b.pdb, 10, &ops), NVM_ERR_RANGE);
	nvm_close(gpu);
}

/* gv100_dev_mmu.ref NV_MMU_VER2_PDE_ADDRESS_SYS 53:8 against ADDRESS_VID
 * (35-3):8, and NV_MMU_VER2_DUAL_PDE_ADDRESS_SMALL_SYS 117:72 / ADDRESS_BIG_SYS
 * 53:(8-4): directory entries with APERTURE SYSTEM_COHERENT_MEMORY (2) keep
 * address bits above 36, which the 25-bit VID field cannot hold. Every table
 * of this tree lies above 2^38 in system memory. */
static void test_pde_sys_address_width(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 30, .sysmem_size = 1ull << 40 };
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	struct ptb sb;
	ptb_init(&sb, gpu, NVM_AP_SYSMEM, (1ull << 38) | (1ull << 37));
	uint64_t va = 0x1234000000ull;
	ptb_map(&sb, va, K4, ptb_pte(0x3000, 0, 0, 0));
	ptb_map(&sb, va + M2, K64, ptb_pte(0x50000, 0, 0, 0));
	/* The PDE chain as written by the builder, independently of the walker. */
	uint64_t t2 = ptb_next(&sb, sb.pdb + ((va >> 47) & 3) * 8);
	uint64_t t1 = ptb_next(&sb, t2 + ((va >> 38) & 511) * 8);
	uint64_t t0 = ptb_next(&sb, t1 + ((va >> 29) & 511) * 8);
	assert_true(t2 >> 38 && t1 >> 38 && t0 >> 38);
	nvm_mmu_walk_trace tr;
	nvm_mmu_result r;
	assert_int_equal(nvm_mmu_walk(gpu, NVM_MMU_PDB_SYS_COH, sb.pdb, va + 0x10, NVM_MMU_READ, 0, &r, &tr), NVM_OK);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.pa, 0x3010);
	assert_int_equal(tr.n, 5);
	assert_int_equal(tr.lv[1].table, t2);
	assert_int_equal(tr.lv[1].table_target, NVM_MMU_TGT_SYS_COH);
	assert_int_equal(tr.lv[2].table, t1);
	assert_int_equal(tr.lv[3].table, t0);
	/* The dual PDE0 small pointer (ADDRESS_SMALL_SYS) above 2^38. */
	assert_string_equal(tr.lv[4].name, "PTE_SMALL");
	assert_true(tr.lv[4].table >> 38);
	assert_int_equal(tr.lv[4].table, ((tr.lv[3].raw[1] >> 8) & ((1ull << 46) - 1)) << 12);
	/* The big pointer (ADDRESS_BIG_SYS) above 2^38 too. */
	assert_int_equal(nvm_mmu_walk(gpu, NVM_MMU_PDB_SYS_COH, sb.pdb, va + M2 + 0x20, NVM_MMU_READ, 0, &r, &tr),
	                 NVM_OK);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.pa, 0x50020);
	assert_string_equal(tr.lv[4].name, "PTE_BIG");
	assert_true(tr.lv[4].table >> 38);
	nvm_close(gpu);
}

struct enum_log {
	int n;
	uint64_t va[8], pa[8], size[8];
	uint64_t big_child, small_child;
};

static int log_map(void *user, const nvm_mmu_mapping *m)
{
	struct enum_log *l = user;
	if (l->n < 8) {
		l->va[l->n] = m->va;
		l->pa[l->n] = m->attr.pa;
		l->size[l->n] = m->size;
	}
	l->n++;
	return 0;
}

static int log_edge(void *user, const char *level, nvm_mmu_target tgt, uint64_t table, unsigned index,
                    const char *child_level, nvm_mmu_target child_tgt, uint64_t child)
{
	(void)level;
	(void)tgt;
	(void)table;
	(void)index;
	(void)child_tgt;
	struct enum_log *l = user;
	if (!strcmp(child_level, "PTE_BIG"))
		l->big_child = child;
	if (!strcmp(child_level, "PTE_SMALL"))
		l->small_child = child;
	return 0;
}

/* The enumerator decodes the same fields as the walker: BIG_SHIFT 8 for a
 * big table at a 256-byte (not 4 KiB) boundary, and ADDRESS_SYS 53:8 /
 * ADDRESS_SMALL_SYS 117:72 for tables above 2^38 (gv100_dev_mmu.ref
 * NV_MMU_VER2_PDE / NV_MMU_VER2_DUAL_PDE). */
static void test_enum_field_widths(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 30, .sysmem_size = 1ull << 40 };
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	/* VRAM tree: one big page through a table at 0x...300. */
	struct ptb b;
	ptb_init(&b, gpu, NVM_AP_VRAM, 0x1000);
	uint64_t va = 0x600000;
	uint64_t d = ptb_pde0(&b, va);
	uint64_t big = ptb_alloc(&b, 0x400, 4096) + 0x300;
	ptb_w64(gpu, NVM_AP_VRAM, (big & ~0xfffull) + 2 * 8, ptb_pte(0x11110000, 0, 0, 0)); /* decoy */
	ptb_w64(gpu, NVM_AP_VRAM, big + 2 * 8, ptb_pte(0x22220000, 0, 0, 0));
	ptb_w64(gpu, NVM_AP_VRAM, d, (big >> 8) << 4 | 1ull << 1);
	struct enum_log l;
	memset(&l, 0, sizeof(l));
	nvm_mmu_enum_ops ops = { log_map, log_edge, &l };
	assert_int_equal(nvm_mmu_enum(gpu, NVM_MMU_PDB_VID, b.pdb, 1u << 20, &ops), NVM_OK);
	assert_int_equal(l.big_child, big);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.va[0], va + 2 * K64);
	assert_int_equal(l.pa[0], 0x22220000);
	/* Sysmem tree above 2^38: a small page. */
	struct ptb sb;
	ptb_init(&sb, gpu, NVM_AP_SYSMEM, 1ull << 38);
	ptb_map(&sb, 0x800000, K4, ptb_pte(0x7000, 0, 0, 0));
	memset(&l, 0, sizeof(l));
	assert_int_equal(nvm_mmu_enum(gpu, NVM_MMU_PDB_SYS_COH, sb.pdb, 1u << 20, &ops), NVM_OK);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.va[0], 0x800000);
	assert_int_equal(l.pa[0], 0x7000);
	assert_true(l.small_child >> 38);
	nvm_close(gpu);
}

/* The budget counts every entry read, all-zero and outside-memory ones
 * included: one 4 KiB page costs PDE3 4 + PDE2 512 + PDE1 512 + PDE0 256 +
 * 32 big PTEs (the big table, outside VRAM) + 512 small PTEs = 1828. */
static void test_enum_budget_counts_every_entry(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 30 };
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	struct ptb b;
	ptb_init(&b, gpu, NVM_AP_VRAM, 0x1000);
	uint64_t va = 0x40000000ull + 7 * M2;
	ptb_map(&b, va + 5 * K4, K4, ptb_pte(0x9000, 0, 0, 0));
	uint64_t d = ptb_pde0(&b, va);
	/* APERTURE_BIG VID, ADDRESS_BIG 2^31 >> 8: past the end of VRAM. */
	ptb_w64(gpu, NVM_AP_VRAM, d,
	        (ptb_r64(gpu, NVM_AP_VRAM, d) & ~0xfffffffffull) | (1ull << 31 >> 8) << 4 | 1u << 1);
	struct enum_acc a = { 0 };
	nvm_mmu_enum_ops ops = { count_map, NULL, &a };
	assert_int_equal(nvm_mmu_enum(gpu, NVM_MMU_PDB_VID, b.pdb, 1828, &ops), NVM_OK);
	assert_int_equal(a.n, 1);
	assert_int_equal(nvm_mmu_enum(gpu, NVM_MMU_PDB_VID, b.pdb, 1827, &ops), NVM_ERR_RANGE);
	assert_int_equal(a.n, 2);
	nvm_close(gpu);
}

/* A map callback that writes the small table being enumerated, never
 * written before (it reads as zero), is seen by the next entry's read. */
struct enum_writer {
	struct enum_log l; /* first: log_edge's user */
	nvm_gpu *gpu;
};

static int write_next_small(void *user, const nvm_mmu_mapping *m)
{
	struct enum_writer *w = user;
	log_map(&w->l, m);
	if (w->l.n == 1)
		ptb_w64(w->gpu, NVM_AP_VRAM, w->l.small_child + (((m->va >> 12) + 1) & 511) * 8,
		        ptb_pte(0x5000000, 0, 0, 0));
	return 0;
}

static void test_enum_sees_callback_writes(void **state)
{
	(void)state;
	struct enum_writer u;
	memset(&u, 0, sizeof(u));
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 30 };
	assert_int_equal(nvm_open(&cfg, &u.gpu), NVM_OK);
	struct ptb b;
	ptb_init(&b, u.gpu, NVM_AP_VRAM, 0x1000);
	uint64_t va = 0x600000;
	ptb_map(&b, va, K64, ptb_pte(0x800000, 0, 0, 0));
	/* A small table nothing has written, beside the big one. */
	uint64_t d = ptb_pde0(&b, va), small = 0x2000000;
	ptb_w64(u.gpu, NVM_AP_VRAM, d + 8, ptb_pde(small, 1));
	nvm_mmu_enum_ops ops = { write_next_small, log_edge, &u };
	assert_int_equal(nvm_mmu_enum(u.gpu, NVM_MMU_PDB_VID, b.pdb, 1u << 20, &ops), NVM_OK);
	assert_int_equal(u.l.small_child, small);
	assert_int_equal(u.l.n, 16);
	assert_int_equal(u.l.pa[0], 0x800000);  /* the big page */
	assert_int_equal(u.l.pa[1], 0x5000000); /* the small PTE the callback wrote */
	assert_int_equal(u.l.pa[2], 0x800000 + 2 * K4);
	nvm_close(u.gpu);
}

/* The walker is pure (any chip's memory); the block API needs a chip with a
 * GMMU (gv100 in src/chips/chips.c). */
static void test_chip_without_mmu(void **state)
{
	(void)state;
	nvm_gpu *gpu;
	nvm_config cfg = { .chip = "nv40" };
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	nvm_mmu_request q = { 0 };
	nvm_mmu_result r;
	assert_int_equal(nvm_mmu_translate(gpu, &q, &r), NVM_ERR_NOENT);
	assert_int_equal(nvm_mmu_set_strict_tlb(gpu, 1), NVM_ERR_NOENT);
	assert_int_equal(nvm_mmu_walk(gpu, NVM_MMU_PDB_VID, 0, 0, NVM_MMU_READ, 0, &r, NULL), NVM_ERR_FAULT);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PDE);
	assert_null(nvm_reg_name(gpu, 0x100CBC));
	nvm_close(gpu);
	cfg.chip = "gv100";
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	assert_string_equal(nvm_reg_name(gpu, 0x100CBC), "NV_PFB_PRI_MMU_INVALIDATE");
	assert_string_equal(nvm_reg_name(gpu, 0x1714), "NV_PBUS_BAR2_BLOCK");
	assert_null(nvm_reg_name(gpu, 0x1710)); /* BIND_STATUS: not claimed */
	nvm_close(gpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_small_page_levels, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_table_256_aligned, setup, teardown),
		cmocka_unit_test_setup_teardown(test_2m_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_apertures_and_widths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_tables_in_sysmem, setup, teardown),
		cmocka_unit_test_setup_teardown(test_attributes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_permission_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kind_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_structural_faults, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sparse, setup, teardown),
		cmocka_unit_test_setup_teardown(test_big_and_small, setup, teardown),
		cmocka_unit_test_setup_teardown(test_out_of_range_tables, setup, teardown),
		cmocka_unit_test(test_enum),
		cmocka_unit_test(test_pde_sys_address_width),
		cmocka_unit_test(test_enum_field_widths),
		cmocka_unit_test(test_enum_budget_counts_every_entry),
		cmocka_unit_test(test_enum_sees_callback_writes),
		cmocka_unit_test(test_chip_without_mmu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
