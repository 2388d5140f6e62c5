/*
 * The GMMU generations after Volta, tested on their own tables (a test chip
 * row holding just the GMMU generation, until the Host rows exist):
 *
 * - gh100's ver3 page tables: six levels, 57-bit VA, PCF flags, 512 MiB /
 *   2 MiB / 64 KiB / 4 KiB pages, sparse PCF values (RM's gh100 dev_mmu.h
 *   NV_MMU_VER3_*, refs/host-generations-facts.md H6). The entries are
 *   encoded here from the header's field positions, independently of the
 *   walker.
 * - tu102 / ga100 / ga102 / gh100 fault registers at
 *   NV_VIRTUAL_FUNCTION_PRIV_MMU_* (VF 0x3000 = BAR0 0xB83000;
 *   tu104_dev_vm.ref, ga100_dev_vm.ref), gv100's at NV_PFB_PRI_MMU_*.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bar0.h"
#include "core/core.h"
#include "mmu/mmu_gens.h"
#include "mmu_pt.h"

/* ---------------------------------------------------------------- a test row */

static struct chip row_of(const struct mmu_chip *gen)
{
	struct chip c = { { "mmu-test", "TEST", 0x170000a1u, 1ull << 36, 1ull << 52, "pmc ptimer mmu" },
		          false,
		          PMC_GV100,
		          { { &mmu_class, gen } } };
	return c;
}

static struct chip row; /* gpu_open keeps a pointer to it */

static nvm_gpu *open_gen(const struct mmu_chip *gen)
{
	row = row_of(gen);
	nvm_config cfg = { .vram_size = 1ull << 30, .sysmem_size = 1ull << 30 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(gpu_open(&row, &cfg, &gpu), NVM_OK);
	return gpu;
}

/* ---------------------------------------------------------------- ver3 tables */

/* NV_MMU_VER3_PDE: APERTURE 2:1 (1 VIDEO_MEMORY), PCF 5:3, ADDRESS 51:12. */
static uint64_t v3_pde(uint64_t table)
{
	return (1ull << 1) | (table & 0x000ffffffffff000ull);
}

/* NV_MMU_VER3_PTE: VALID 0, APERTURE 2:1 (0 VIDEO_MEMORY), PCF 7:3, KIND
 * 11:8, ADDRESS 51:12. */
static uint64_t v3_pte(uint64_t pa, unsigned pcf, unsigned kind)
{
	return 1ull | (uint64_t)pcf << 3 | (uint64_t)kind << 8 | (pa & 0x000ffffffffff000ull);
}

#define PCF_PRIVILEGE 2u
#define PCF_RO        4u
#define PCF_NO_ATOMIC 8u

struct v3 {
	nvm_gpu *gpu;
	uint64_t next, pdb;
};

static uint64_t v3_alloc(struct v3 *t, uint64_t size)
{
	uint64_t a = t->next;
	t->next += (size + 4095) & ~4095ull;
	return a;
}

static void w64(nvm_gpu *gpu, uint64_t a, uint64_t v)
{
	ptb_w64(gpu, NVM_AP_VRAM, a, v);
}

static uint64_t r64(nvm_gpu *gpu, uint64_t a)
{
	return ptb_r64(gpu, NVM_AP_VRAM, a);
}

/* The table a PDE slot points to, made when absent. */
static uint64_t v3_child(struct v3 *t, uint64_t slot)
{
	uint64_t e = r64(t->gpu, slot);
	if (e & 6)
		return e & 0x000ffffffffff000ull;
	uint64_t c = v3_alloc(t, 4096);
	w64(t->gpu, slot, v3_pde(c));
	return c;
}

/* The PDE0 slot (16 bytes) of va, making PDE4..PDE1 tables. */
static uint64_t v3_pde0_slot(struct v3 *t, uint64_t va)
{
	uint64_t tab = t->pdb;
	static const unsigned shift[4] = { 56, 47, 38, 29 }, bits[4] = { 1, 9, 9, 9 };
	for (int l = 0; l < 4; l++)
		tab = v3_child(t, tab + ((va >> shift[l]) & ((1u << bits[l]) - 1)) * 8);
	return tab + ((va >> 21) & 0xff) * 16;
}

/* Maps a 4 KiB (small) or 64 KiB (big) PTE under the dual PDE0 of va. */
static void v3_map(struct v3 *t, uint64_t va, uint64_t pte, bool big)
{
	uint64_t slot = v3_pde0_slot(t, va);
	uint64_t lo = r64(t->gpu, slot), hi = r64(t->gpu, slot + 8);
	if (big) {
		uint64_t pt = (lo >> 1) & 3 ? (((lo >> 8) & 0xfffffffffffull) << 8) : 0;
		if (!pt) {
			pt = v3_alloc(t, 4096);
			/* APERTURE_BIG 2:1 VIDEO_MEMORY, ADDRESS_BIG 51:8 */
			w64(t->gpu, slot, (1ull << 1) | ((pt >> 8) << 8));
		}
		w64(t->gpu, pt + ((va >> 16) & 31) * 8, pte);
	} else {
		uint64_t pt = (hi >> 1) & 3 ? (hi & 0x000ffffffffff000ull) : 0;
		if (!pt) {
			pt = v3_alloc(t, 4096);
			/* APERTURE_SMALL 66:65 VIDEO_MEMORY, ADDRESS_SMALL 115:76 */
			w64(t->gpu, slot + 8, (1ull << 1) | pt);
		}
		w64(t->gpu, pt + ((va >> 12) & 511) * 8, pte);
	}
}

static void v3_init(struct v3 *t, nvm_gpu *gpu)
{
	t->gpu = gpu;
	t->next = 0x100000;
	t->pdb = v3_alloc(t, 4096);
}

static nvm_mmu_result walk(struct v3 *t, uint64_t va, nvm_mmu_access a, int priv, nvm_mmu_walk_trace *tr)
{
	nvm_mmu_result r;
	nvm_status st = nvm_mmu_walk(t->gpu, NVM_MMU_PDB_VID, t->pdb, va, a, priv, &r, tr);
	assert_int_equal(st, r.fault != NVM_MMU_FAULT_NONE ? NVM_ERR_FAULT : NVM_OK);
	return r;
}

/* A 4 KiB page through all six levels; VA bit 56 picks PDE4 entry 1; VAs
 * of 57 bits and more are a VA_LIMIT_VIOLATION. */
static void ver3_six_levels(void **state)
{
	(void)state;
	struct v3 t;
	v3_init(&t, open_gen(&mmu_gh100));
	uint64_t va = (1ull << 56) | (0x1a5ull << 47) | (0x0c3ull << 38) | (0x111ull << 29) | (0x42ull << 21) |
	              (0x7ull << 16) | (0x5ull << 12) | 0x123;
	v3_map(&t, va, v3_pte(0x3456000, 0, 0), false);
	nvm_mmu_walk_trace tr;
	nvm_mmu_result r = walk(&t, va, NVM_MMU_READ, 0, &tr);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_true(r.pa == 0x3456123);
	assert_int_equal(r.page_size, 4096);
	assert_int_equal(r.target, NVM_MMU_TGT_VID);
	assert_int_equal(r.level, 5);
	static const char *names[] = { "PDE4", "PDE3", "PDE2", "PDE1", "PDE0", "PTE_SMALL" };
	static const unsigned idx[] = { 1, 0x1a5, 0x0c3, 0x111, 0x42, 0x75 };
	assert_int_equal(tr.n, 6);
	for (int i = 0; i < 6; i++) {
		assert_string_equal(tr.lv[i].name, names[i]);
		assert_int_equal(tr.lv[i].index, idx[i]);
	}
	assert_int_equal(tr.lv[4].nwords, 2);
	r = walk(&t, 1ull << 57, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_VA_LIMIT_VIOLATION);
	/* unmapped: PDE fault at the level whose entry is invalid */
	r = walk(&t, 0, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PDE);
	assert_int_equal(r.level, 0);
	nvm_close(t.gpu);
}

/* 2 MiB (PDE0 IS_PTE), 512 MiB (PDE1 IS_PTE) and 64 KiB (big table) pages;
 * a valid small PTE wins over a big one. */
static void ver3_page_sizes(void **state)
{
	(void)state;
	struct v3 t;
	v3_init(&t, open_gen(&mmu_gh100));
	uint64_t va2m = 0x40000000000ull | (3ull << 21);
	w64(t.gpu, v3_pde0_slot(&t, va2m), v3_pte(0x1200000, 0, 6));
	nvm_mmu_result r = walk(&t, va2m + 0x12345, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_true(r.pa == 0x1212345);
	assert_int_equal(r.page_size, 2u << 20);
	assert_int_equal(r.kind, 6);
	/* 512 MiB at a PDE1 slot */
	uint64_t va512 = 0x80000000000ull;
	uint64_t tab = t.pdb;
	static const unsigned shift[3] = { 56, 47, 38 }, bits[3] = { 1, 9, 9 };
	for (int l = 0; l < 3; l++)
		tab = v3_child(&t, tab + ((va512 >> shift[l]) & ((1u << bits[l]) - 1)) * 8);
	w64(t.gpu, tab + ((va512 >> 29) & 511) * 8, v3_pte(0x20000000, 0, 0));
	r = walk(&t, va512 + 0x1234567, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_true(r.pa == 0x21234567);
	assert_int_equal(r.page_size, 512u << 20);
	assert_int_equal(r.level, 3);
	/* 64 KiB big page; then a small PTE in the same range wins */
	uint64_t va64 = 0x7000000000ull;
	v3_map(&t, va64, v3_pte(0x500000, 0, 0), true);
	r = walk(&t, va64 + 0x5678, NVM_MMU_READ, 0, NULL);
	assert_true(r.pa == 0x505678);
	assert_int_equal(r.page_size, 64u << 10);
	v3_map(&t, va64 + 0x5000, v3_pte(0x900000, 0, 0), false);
	r = walk(&t, va64 + 0x5678, NVM_MMU_READ, 0, NULL);
	assert_true(r.pa == 0x900678);
	assert_int_equal(r.page_size, 4096);
	nvm_close(t.gpu);
}

/* PCF of a valid PTE: PRIVILEGE, RO, NO_ATOMIC, UNCACHED (VOL); KIND 11:8
 * with 7 INVALID. */
static void ver3_pcf_and_kind(void **state)
{
	(void)state;
	struct v3 t;
	v3_init(&t, open_gen(&mmu_gh100));
	uint64_t va = 0x10000000ull;
	struct {
		unsigned pcf, kind;
		nvm_mmu_access acc;
		int priv;
		nvm_mmu_fault_type want;
	} cases[] = {
		{ 0, 0, NVM_MMU_WRITE, 0, NVM_MMU_FAULT_NONE },
		{ PCF_RO, 0, NVM_MMU_READ, 0, NVM_MMU_FAULT_NONE },
		{ PCF_RO, 0, NVM_MMU_WRITE, 0, NVM_MMU_FAULT_RO_VIOLATION },
		{ PCF_PRIVILEGE, 0, NVM_MMU_READ, 0, NVM_MMU_FAULT_PRIV_VIOLATION },
		{ PCF_PRIVILEGE, 0, NVM_MMU_READ, 1, NVM_MMU_FAULT_NONE },
		{ PCF_NO_ATOMIC, 0, NVM_MMU_ATOMIC, 0, NVM_MMU_FAULT_ATOMIC_VIOLATION },
		{ PCF_NO_ATOMIC, 0, NVM_MMU_WRITE, 0, NVM_MMU_FAULT_NONE },
		{ 0, 7, NVM_MMU_READ, 0, NVM_MMU_FAULT_UNSUPPORTED_KIND },
		{ 0, 0xf, NVM_MMU_READ, 0, NVM_MMU_FAULT_NONE },
	};
	for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		v3_map(&t, va + k * 4096ull, v3_pte(0x600000 + k * 4096ull, cases[k].pcf, cases[k].kind), false);
		nvm_mmu_result r = walk(&t, va + k * 4096ull, cases[k].acc, cases[k].priv, NULL);
		assert_int_equal(r.fault, cases[k].want);
	}
	v3_map(&t, va + 0x20000, v3_pte(0x700000, 1, 0), false); /* REGULAR_RW_ATOMIC_UNCACHED_ACE */
	assert_int_equal(walk(&t, va + 0x20000, NVM_MMU_READ, 0, NULL).vol, 1);
	nvm_close(t.gpu);
}

/* Sparse: an invalid PTE with PCF SPARSE; a PDE with APERTURE INVALID and
 * PCF SPARSE_*; an invalid big PTE with NO_VALID_4KB_PAGE hides the small
 * table; a table outside memory is a fault with oob set. */
static void ver3_sparse_and_bounds(void **state)
{
	(void)state;
	struct v3 t;
	v3_init(&t, open_gen(&mmu_gh100));
	uint64_t va = 0x20000000ull;
	v3_map(&t, va, 1ull << 3, false); /* VALID 0, PCF 1 SPARSE */
	nvm_mmu_result r = walk(&t, va, NVM_MMU_WRITE, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
	assert_int_equal(r.sparse, 1);
	v3_map(&t, va + 4096, 2ull << 3, false); /* MAPPING_NOWHERE */
	assert_int_equal(walk(&t, va + 4096, NVM_MMU_READ, 0, NULL).fault, NVM_MMU_FAULT_PTE);
	/* PDE3 entry 2: APERTURE INVALID, PCF SPARSE_ATS_ALLOWED */
	uint64_t pde3 = v3_child(&t, t.pdb);
	w64(t.gpu, pde3 + 2 * 8, 1ull << 3);
	r = walk(&t, 2ull << 47, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.sparse, 1);
	assert_true(r.page_size == 1ull << 47);
	assert_int_equal(r.level, 1);
	/* NO_VALID_4KB_PAGE in the big PTE: the valid small PTE is not read */
	uint64_t vb = 0x30000000ull;
	v3_map(&t, vb, v3_pte(0x800000, 0, 0), false);
	v3_map(&t, vb, 3ull << 3, true);
	nvm_mmu_walk_trace tr;
	r = walk(&t, vb, NVM_MMU_READ, 0, &tr);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PTE);
	assert_string_equal(tr.lv[tr.n - 1].name, "PTE_BIG");
	/* a PDE pointing outside VRAM */
	w64(t.gpu, pde3 + 3 * 8, v3_pde(0xfff0000000ull));
	r = walk(&t, 3ull << 47, NVM_MMU_READ, 0, NULL);
	assert_int_equal(r.fault, NVM_MMU_FAULT_PDE);
	assert_int_equal(r.oob, 1);
	nvm_close(t.gpu);
}

struct seen {
	unsigned n;
	uint64_t va[8], size[8], pa[8];
	int sparse[8];
};

static int on_map(void *user, const nvm_mmu_mapping *m)
{
	struct seen *s = user;
	if (s->n < 8) {
		s->va[s->n] = m->va;
		s->size[s->n] = m->size;
		s->pa[s->n] = m->attr.pa;
		s->sparse[s->n] = m->attr.sparse;
	}
	s->n++;
	return 0;
}

/* The enumeration of a ver3 tree, in VA order, bounded by its budget. */
static void ver3_enumeration(void **state)
{
	(void)state;
	struct v3 t;
	v3_init(&t, open_gen(&mmu_gh100));
	v3_map(&t, 0x1000, v3_pte(0x400000, 0, 0), false);
	w64(t.gpu, v3_pde0_slot(&t, 0x40000000000ull), v3_pte(0x1200000, 0, 0));
	v3_map(&t, (1ull << 56) + 0x2000, 1ull << 3, false);
	struct seen s = { 0 };
	nvm_mmu_enum_ops ops = { on_map, NULL, &s };
	assert_int_equal(nvm_mmu_enum(t.gpu, NVM_MMU_PDB_VID, t.pdb, 1u << 20, &ops), NVM_OK);
	assert_int_equal(s.n, 3);
	assert_true(s.va[0] == 0x1000 && s.pa[0] == 0x400000 && s.size[0] == 4096);
	assert_true(s.va[1] == 0x40000000000ull && s.size[1] == 2u << 20);
	assert_true(s.va[2] == (1ull << 56) + 0x2000 && s.sparse[2]);
	s.n = 0;
	assert_int_equal(nvm_mmu_enum(t.gpu, NVM_MMU_PDB_VID, t.pdb, 100, &ops), NVM_ERR_RANGE);
	nvm_close(t.gpu);
}

/* ---------------------------------------------------------------- fault registers */

#define INST 0x80000u

/* A non-replayable fault lands in buffer 0 at the generation's registers:
 * LO/HI/GET/PUT/SIZE at buf, the other-fault registers unused. */
static void fault_buffer_at(const struct mmu_chip *gen, uint32_t buf, uint32_t stride, uint32_t status)
{
	nvm_gpu *gpu = open_gen(gen);
	struct ptb b;
	ptb_init(&b, gpu, NVM_AP_VRAM, 0x100000);
	ptb_ramin(gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, b.pdb, 0, 0);
	uint64_t base = 0x2000000;
	wr(gpu, buf + 0x10, 0);                 /* SIZE, ENABLE clear */
	wr(gpu, buf + 4, 0);                    /* HI */
	wr(gpu, buf, (uint32_t)base | 1u);      /* LO, ADDR_MODE PHYSICAL */
	wr(gpu, buf + 0x10, 16u | 0x80000000u); /* SIZE | ENABLE */
	wr(gpu, buf + stride + 0x10, 16u);      /* buffer 1 disabled */
	nvm_mmu_request rq = { 0 };
	rq.inst_target = NVM_MMU_PDB_VID;
	rq.inst_addr = INST;
	rq.veid = -1;
	rq.va = 0x123456000ull;
	rq.access = NVM_MMU_WRITE;
	rq.engine_id = NVM_MMU_ENG_CE0 + 2;
	rq.client_type = NVM_MMU_CLIENT_HUB;
	rq.client_id = 0x18;
	nvm_mmu_result res;
	assert_int_equal(nvm_mmu_translate(gpu, &rq, &res), NVM_ERR_FAULT);
	assert_int_equal(res.fault, NVM_MMU_FAULT_PDE);
	assert_int_equal(rd(gpu, buf + 0xC), 1); /* PUT */
	uint8_t pkt[NVM_MMU_PACKET_SIZE];
	assert_int_equal(nvm_mem_read(gpu, NVM_AP_VRAM, base, pkt, sizeof(pkt)), NVM_OK);
	nvm_mmu_fault_info f;
	nvm_mmu_packet_decode(pkt, &f);
	assert_true(f.valid && f.addr == 0x123456000ull && f.engine_id == NVM_MMU_ENG_CE0 + 2);
	assert_true(f.inst_addr == INST);
	assert_int_equal((rd(gpu, status) >> 9) & 1, 1); /* STATUS NON_REPLAYABLE */
	wr(gpu, buf + 8, 1);                             /* GET = PUT */
	assert_int_equal((rd(gpu, status) >> 9) & 1, 0);
	nvm_close(gpu);
}

static void fault_registers_per_generation(void **state)
{
	(void)state;
	fault_buffer_at(&mmu_gv100, 0x100E24, 20, 0x100E60);
	fault_buffer_at(&mmu_tu102, 0xB83000, 32, 0xB83094);
	fault_buffer_at(&mmu_ga100, 0xB83000, 32, 0xB83094);
	fault_buffer_at(&mmu_ga102, 0xB83000, 32, 0xB83094);
	/* gh100: the same, with a ver3 tree (the fault is a PDE fault at PDE4) */
	fault_buffer_at(&mmu_gh100, 0xB83000, 32, 0xB83094);
	/* Turing on has no fault buffer at the gv100 address */
	nvm_gpu *gpu = open_gen(&mmu_tu102);
	wr(gpu, 0x100E34, 0x80000010u);
	assert_int_equal(rd(gpu, 0x100E34), 0);
	assert_int_equal(rd(gpu, 0xB83070), 3); /* PAGE_FAULT_CTRL resets to SEND_NONE */
	nvm_close(gpu);
}

/* gh100 through the block: a translation walks ver3 and fills the TLB. */
static void ver3_through_the_block(void **state)
{
	(void)state;
	struct v3 t;
	v3_init(&t, open_gen(&mmu_gh100));
	uint64_t va = (1ull << 55) | 0x4000;
	v3_map(&t, va, v3_pte(0x654000, 0, 0), false);
	nvm_mmu_request rq = { 0 };
	rq.use_pdb = 1;
	rq.pdb_target = NVM_MMU_PDB_VID;
	rq.pdb_addr = t.pdb;
	rq.veid = -1;
	rq.va = va + 0x10;
	rq.engine_id = NVM_MMU_ENG_CE0;
	rq.client_type = NVM_MMU_CLIENT_HUB;
	nvm_mmu_result r;
	for (int i = 0; i < 2; i++) {
		assert_int_equal(nvm_mmu_translate(t.gpu, &rq, &r), NVM_OK);
		assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
		assert_true(r.pa == 0x654010);
	}
	nvm_mmu_stats st;
	assert_int_equal(nvm_mmu_get_stats(t.gpu, &st), NVM_OK);
	assert_true(st.walks == 1 && st.tlb_hits == 1);
	nvm_close(t.gpu);
}

/* Turing on: NV_VIRTUAL_FUNCTION_PRIV_MMU_INVALIDATE_PDB (0x30A0: APERTURE
 * 1:1, ADDR 31:4 = PDB >> 12), UPPER_PDB (0x30A4) and INVALIDATE (0x30B0,
 * TRIGGER 31, ALL_VA 0; tu104_dev_vm.ref), as nouveau's tu102 flush writes
 * them, drop the TLB entries of that address space. */
static void vf_invalidate(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gen(&mmu_tu102);
	struct ptb b;
	ptb_init(&b, gpu, NVM_AP_VRAM, 0x100000);
	uint64_t va = 0x4000000;
	ptb_map(&b, va, 4096, ptb_pte(0x800000, 0, 0, 0));
	nvm_mmu_request rq = { 0 };
	rq.use_pdb = 1;
	rq.pdb_target = NVM_MMU_PDB_VID;
	rq.pdb_addr = b.pdb;
	rq.veid = -1;
	rq.va = va;
	rq.engine_id = NVM_MMU_ENG_CE0;
	rq.client_type = NVM_MMU_CLIENT_HUB;
	nvm_mmu_result r;
	assert_int_equal(nvm_mmu_translate(gpu, &rq, &r), NVM_OK);
	assert_true(r.pa == 0x800000);
	ptb_map(&b, va, 4096, ptb_pte(0x900000, 0, 0, 0));
	assert_int_equal(nvm_mmu_translate(gpu, &rq, &r), NVM_OK);
	assert_true(r.pa == 0x800000); /* the TLB still holds the old page */
	wr(gpu, 0xB830A0, (uint32_t)(b.pdb >> 12) << 4);
	wr(gpu, 0xB830A4, 0);
	wr(gpu, 0xB830B0, 1u << 31 | 1u); /* TRIGGER, ALL_VA */
	assert_int_equal(rd(gpu, 0xB830B0) >> 31, 0);
	assert_int_equal(nvm_mmu_translate(gpu, &rq, &r), NVM_OK);
	assert_true(r.pa == 0x900000);
	nvm_close(gpu);
}

/* The engine ids each generation numbers its units by (gh100: RM's gh100
 * dev_fault.h), and the format it walks. */
static void engine_ids_and_format(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_gen(&mmu_gh100);
	assert_int_equal(nvm_mmu_ce0_engine_id(gpu), 43);
	assert_string_equal(nvm_mmu_format(gpu), "ver3");
	nvm_close(gpu);
	gpu = open_gen(&mmu_tu102);
	assert_int_equal(nvm_mmu_ce0_engine_id(gpu), 15);
	assert_string_equal(nvm_mmu_format(gpu), "ver2");
	nvm_close(gpu);
	char b[32];
	assert_string_equal(nvm_mmu_chip_engine_name("tu102", 15, b, sizeof(b)), "CE0");
	assert_null(nvm_mmu_chip_engine_name("nv04", 15, b, sizeof(b)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ver3_six_levels),        cmocka_unit_test(ver3_page_sizes),
		cmocka_unit_test(ver3_pcf_and_kind),      cmocka_unit_test(ver3_sparse_and_bounds),
		cmocka_unit_test(ver3_enumeration),       cmocka_unit_test(fault_registers_per_generation),
		cmocka_unit_test(ver3_through_the_block), cmocka_unit_test(engine_ids_and_format),
		cmocka_unit_test(vf_invalidate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
