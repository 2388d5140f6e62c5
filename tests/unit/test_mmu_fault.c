/*
 * RAMIN binding, fault reporting (packets, buffers, other-fault registers,
 * interrupts), replay and cancel, through BAR0 registers as a driver would.
 * Documents: seed 000 (RAMIN memory-management state), seed 003 (fault
 * buffer packets), gv100_pri_mmu_hub.ref.txt, gv100_dev_fault.ref.txt,
 * volta-facts.md sections d, f and 3.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "bar0.h"

#include "mmu_pt.h"

#define INST 0x10000ull
#define FB0  0x800000ull
#define FB1  0x900000ull

#define FB_LO(i)   (0x100E24u + (i)*20u)
#define FB_HI(i)   (0x100E28u + (i)*20u)
#define FB_GET(i)  (0x100E2Cu + (i)*20u)
#define FB_PUT(i)  (0x100E30u + (i)*20u)
#define FB_SIZE(i) (0x100E34u + (i)*20u)
#define INVALIDATE 0x100CBCu
#define STATUS     0x100E60u
#define NISO       0x100A20u

struct fx {
	nvm_gpu *gpu;
	struct ptb b;
};

static int setup(void **state)
{
	static struct fx f;
	nvm_config cfg = { .chip = "gv100", .vram_size = 1ull << 30, .sysmem_size = 1ull << 36 };
	if (nvm_open(&cfg, &f.gpu))
		return -1;
	ptb_init(&f.b, f.gpu, NVM_AP_VRAM, 0x100000);
	ptb_ramin(f.gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f.b.pdb, 0, 0);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	nvm_close(f->gpu);
	return 0;
}

static uint32_t mem32(nvm_gpu *gpu, uint64_t a)
{
	uint32_t v = 0;
	assert_int_equal(nvm_mem_rd32(gpu, NVM_AP_VRAM, a, &v), NVM_OK);
	return v;
}

/* volta-facts 3 (nouveau fault/gv100.c init): SIZE with ENABLE clear, HI,
 * LO (here PHYSICAL, VID), then SIZE | ENABLE. */
static void fb_setup(nvm_gpu *gpu, int i, uint64_t base, uint32_t entries)
{
	wr(gpu, FB_SIZE(i), 0);
	wr(gpu, FB_HI(i), (uint32_t)(base >> 32));
	wr(gpu, FB_LO(i), ((uint32_t)base & 0xfffff000u) | 1u /* ADDR_MODE PHYSICAL */);
	wr(gpu, FB_SIZE(i), entries | 0x80000000u);
}

static nvm_mmu_request req_gpc(uint64_t va, nvm_mmu_access a, unsigned client, unsigned gpc)
{
	nvm_mmu_request r = { 0 };
	r.inst_target = NVM_MMU_PDB_VID;
	r.inst_addr = INST;
	r.veid = -1;
	r.va = va;
	r.access = a;
	r.engine_id = NVM_MMU_ENG_GRAPHICS;
	r.client_type = NVM_MMU_CLIENT_GPC;
	r.client_id = client;
	r.gpc_id = gpc;
	return r;
}

static nvm_mmu_result xl(struct fx *f, nvm_mmu_request r)
{
	nvm_mmu_result res;
	nvm_status st = nvm_mmu_translate(f->gpu, &r, &res);
	assert_int_equal(st, res.fault != NVM_MMU_FAULT_NONE ? NVM_ERR_FAULT : NVM_OK);
	return res;
}

/* Seed 000: target INVALID unbinds; USE_VER2_PT_FORMAT false and 128KB big
 * pages "result in an UNBOUND_INSTANCE fault"; SC_PAGE_DIR_BASE(i) per VEID
 * with SC_PDB_VALID. */
static void test_ramin_binding(void **state)
{
	struct fx *f = *state;
	ptb_map(&f->b, 0x200000, 4096, ptb_pte(0x5000, 0, 0, 0));
	nvm_mmu_request r = req_gpc(0x200010, NVM_MMU_READ, 0x10, 0);
	assert_int_equal(xl(f, r).pa, 0x5010);
	uint32_t lo = mem32(f->gpu, INST + 128 * 4);
	nvm_mem_wr32(f->gpu, NVM_AP_VRAM, INST + 128 * 4, lo & ~(1u << 10));
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
	nvm_mem_wr32(f->gpu, NVM_AP_VRAM, INST + 128 * 4, lo & ~(1u << 11));
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
	nvm_mem_wr32(f->gpu, NVM_AP_VRAM, INST + 128 * 4, (lo & ~3u) | NVM_MMU_PDB_INVALID);
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
	nvm_mem_wr32(f->gpu, NVM_AP_VRAM, INST + 128 * 4, lo);
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_NONE);
	/* Subcontext 3 with its own page tables. */
	struct ptb sc;
	ptb_init(&sc, f->gpu, NVM_AP_VRAM, 0x4000000);
	ptb_map(&sc, 0x200000, 4096, ptb_pte(0x9000, 0, 0, 0));
	ptb_ramin_sc(f->gpu, NVM_AP_VRAM, INST, 3, NVM_MMU_PDB_VID, sc.pdb, 1);
	r.veid = 3;
	r.engine_id = NVM_MMU_ENG_GRAPHICS + 3;
	assert_int_equal(xl(f, r).pa, 0x9010);
	r.veid = 4; /* SC_PDB_VALID(4) false */
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
	ptb_ramin_sc(f->gpu, NVM_AP_VRAM, INST, 3, NVM_MMU_PDB_VID, sc.pdb, 0);
	r.veid = 3;
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
	/* Instance block outside VRAM: a fault and a diagnostic, no crash. */
	uint64_t before = nvm_event_count(f->gpu, NVM_EV_GUEST_ERROR);
	r.veid = -1;
	r.inst_addr = 1ull << 40;
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
	assert_true(nvm_event_count(f->gpu, NVM_EV_GUEST_ERROR) > before);
}

/* Seed 003 NV_MMU_FAULT_BUF_ENTRY_*: every field at its bit position. */
static void test_packet_fields(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 8);
	nvm_run_opts ro = { .ns = 123456 };
	nvm_run(f->gpu, &ro);
	nvm_mmu_request r = req_gpc(0x123456789ull, NVM_MMU_WRITE, 0x10 /* RAST */, 3);
	r.engine_id = NVM_MMU_ENG_GRAPHICS + 2;
	nvm_mmu_result res = xl(f, r);
	assert_int_equal(res.fault, NVM_MMU_FAULT_PDE);
	assert_false(res.replayable);
	uint32_t dw[8];
	for (int i = 0; i < 8; i++)
		dw[i] = mem32(f->gpu, FB0 + 4 * i);
	assert_int_equal(dw[0] & 0x300, 0);        /* INST_APERTURE 9:8 = VID_MEM */
	assert_int_equal(dw[0] >> 12, INST >> 12); /* INST_LO 31:12 */
	assert_int_equal(dw[1], 0);                /* INST_HI */
	/* ADDR_PHYS_APERTURE 1:0: 0 for a virtual fault (UNVERIFIED,
	 * docs/fidelity.md; the model reports virtual faults only). */
	assert_int_equal(dw[2] & 3, 0);
	assert_int_equal(dw[2] & 0xfffff000u, 0x23456000u); /* ADDR_LO (4K aligned) */
	assert_int_equal(dw[3], 0x1);                       /* ADDR_HI */
	uint32_t t0 = rd(f->gpu, 0x9400), t1 = rd(f->gpu, 0x9410);
	assert_int_equal(dw[4], t0); /* TIMESTAMP from PTIMER */
	assert_int_equal(dw[5], t1);
	assert_true(dw[4] != 0);
	assert_int_equal(dw[6] & 0x1ff, 66);         /* ENGINE_ID 8:0 */
	assert_int_equal(dw[7] & 0x1f, 0);           /* FAULT_TYPE PDE */
	assert_int_equal((dw[7] >> 7) & 1, 0);       /* REPLAYABLE_FAULT */
	assert_int_equal((dw[7] >> 8) & 0x7f, 0x10); /* CLIENT 14:8 */
	assert_int_equal((dw[7] >> 16) & 0xf, 1);    /* ACCESS_TYPE 19:16 VIRT_WRITE */
	assert_int_equal((dw[7] >> 20) & 1, 0);      /* MMU_CLIENT_TYPE GPC */
	assert_int_equal((dw[7] >> 24) & 0x1f, 3);   /* GPC_ID 28:24 */
	assert_int_equal((dw[7] >> 29) & 1, 0);      /* PROTECTED_MODE: the model has none */
	assert_int_equal((dw[7] >> 30) & 1, 0);      /* REPLAYABLE_FAULT_EN */
	assert_int_equal(dw[7] >> 31, 1);            /* VALID */
	/* The library's decoder agrees. */
	uint8_t raw[32];
	nvm_mem_read(f->gpu, NVM_AP_VRAM, FB0, raw, 32);
	nvm_mmu_fault_info fi;
	nvm_mmu_packet_decode(raw, &fi);
	assert_int_equal(fi.addr, 0x123456000ull);
	assert_int_equal(fi.timestamp, ((uint64_t)t1 << 32) | t0);
	assert_int_equal(fi.engine_id, 66);
	assert_int_equal(fi.client, 0x10);
	assert_int_equal(fi.gpc_id, 3);
	assert_true(fi.valid);
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 1);
}

static void put_dwords(uint8_t *p, const uint32_t dw[8])
{
	for (int i = 0; i < 8; i++)
		for (int b = 0; b < 4; b++)
			p[4 * i + b] = (uint8_t)(dw[i] >> (8 * b));
}

/* The packet codec against dwords written by hand from seed 003
 * NV_MMU_FAULT_BUF_ENTRY_* (and volta-facts.md section 3 for PROTECTED_MODE
 * dw7 29:29): every field non-zero, then every field with only its top bit
 * set (a narrowed or shifted field changes the dwords). */
static void test_packet_codec_positions(void **state)
{
	(void)state;
	nvm_mmu_fault_info a = {
		.inst_aperture = 3,
		.inst_addr = 0x89abcdef12345000ull,
		.addr_phys_aperture = 2,
		.addr = 0x000123456789a000ull,
		.timestamp = 0x1122334455667788ull,
		.engine_id = 0x1a5,
		.fault_type = 0xf,
		.replayable = 1,
		.client = 0x5a,
		.access_type = 0xb,
		.client_type = 1,
		.gpc_id = 0x13,
		.protected_mode = 1,
		.replayable_en = 1,
		.valid = 1,
	};
	const uint32_t want_a[8] = {
		0x12345300u, /* INST_LO 31:12, INST_APERTURE 9:8 = 3 */
		0x89abcdefu, /* INST_HI */
		0x6789a002u, /* ADDR_LO 31:12, ADDR_PHYS_APERTURE 1:0 = 2 */
		0x00012345u, /* ADDR_HI */
		0x55667788u, /* TIMESTAMP_LO */
		0x11223344u, /* TIMESTAMP_HI */
		0x000001a5u, /* ENGINE_ID 8:0 */
		/* VALID 31, RF_EN 30, PROTECTED_MODE 29, GPC_ID 28:24 = 0x13,
		 * MMU_CLIENT_TYPE 20, ACCESS_TYPE 19:16 = 0xb, CLIENT 14:8 = 0x5a,
		 * REPLAYABLE_FAULT 7, FAULT_TYPE 4:0 = 0xf */
		0xf31b5a8fu,
	};
	nvm_mmu_fault_info b = {
		.inst_aperture = 2,
		.addr_phys_aperture = 2,
		.engine_id = 0x100,
		.fault_type = 0x10,
		.client = 0x40,
		.access_type = 8,
		.gpc_id = 0x10,
	};
	const uint32_t want_b[8] = { 0x200u, 0, 2u, 0, 0, 0, 0x100u, 0x10084010u };
	const nvm_mmu_fault_info *in[2] = { &a, &b };
	const uint32_t *want[2] = { want_a, want_b };
	for (int k = 0; k < 2; k++) {
		uint8_t got[32], exp[32];
		nvm_mmu_packet_encode(in[k], got);
		put_dwords(exp, want[k]);
		assert_memory_equal(got, exp, 32);
		nvm_mmu_fault_info d;
		nvm_mmu_packet_decode(exp, &d);
		assert_int_equal(d.inst_aperture, in[k]->inst_aperture);
		assert_int_equal(d.inst_addr, in[k]->inst_addr);
		assert_int_equal(d.addr_phys_aperture, in[k]->addr_phys_aperture);
		assert_int_equal(d.addr, in[k]->addr);
		assert_int_equal(d.timestamp, in[k]->timestamp);
		assert_int_equal(d.engine_id, in[k]->engine_id);
		assert_int_equal(d.fault_type, in[k]->fault_type);
		assert_int_equal(d.replayable, in[k]->replayable);
		assert_int_equal(d.client, in[k]->client);
		assert_int_equal(d.access_type, in[k]->access_type);
		assert_int_equal(d.client_type, in[k]->client_type);
		assert_int_equal(d.gpc_id, in[k]->gpc_id);
		assert_int_equal(d.protected_mode, in[k]->protected_mode);
		assert_int_equal(d.replayable_en, in[k]->replayable_en);
		assert_int_equal(d.valid, in[k]->valid);
	}
}

/* gv100_pri_mmu_hub.ref NV_PFB_PRI_MMU_FAULT_STATUS_REPLAYABLE 8:8 and
 * _NON_REPLAYABLE 9:9: each follows its own buffer (UNVERIFIED condition:
 * set while that buffer holds unread packets). */
static void test_status_buffer_bits(void **state)
{
	struct fx *f = *state;
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 1, 0);
	fb_setup(f->gpu, 0, FB0, 8);
	fb_setup(f->gpu, 1, FB1, 8);
	assert_int_equal(rd(f->gpu, STATUS) & 0x300u, 0);
	/* A PE client is not TEX: non-replayable, buffer 0. */
	assert_false(xl(f, req_gpc(0x1000, NVM_MMU_READ, 8, 0)).replayable);
	assert_int_equal(rd(f->gpu, STATUS) & 0x300u, 1u << 9);
	/* T1_0 with FAULT_REPLAY_TEX: replayable, buffer 1. */
	assert_true(xl(f, req_gpc(0x2000, NVM_MMU_READ, 0, 0)).replayable);
	assert_int_equal(rd(f->gpu, STATUS) & 0x300u, 1u << 8 | 1u << 9);
	wr(f->gpu, FB_GET(0), 1); /* RM consumes the non-replayable packet */
	assert_int_equal(rd(f->gpu, STATUS) & 0x300u, 1u << 8);
	wr(f->gpu, FB_GET(1), 1); /* UVM consumes the replayable one */
	assert_int_equal(rd(f->gpu, STATUS) & 0x300u, 0);
}

/* NISO_INTR bit 29 (non-replayable) into PMC (volta-facts d), cleared when
 * GET catches up. */
static void test_interrupts(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 8);
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, NISO) & (1u << 29), 1u << 29);
	assert_int_equal(nvm_intr_line(f->gpu), 0);
	wr(f->gpu, 0x100A2C, 1u << 29); /* NISO EN_SET */
	assert_int_equal(rd(f->gpu, 0x100A2C), 1u << 29);
	wr(f->gpu, 0x160, 1u << 9); /* PMC INTR_EN_SET(0): HUB */
	assert_int_equal(rd(f->gpu, 0x100) & (1u << 9), 1u << 9);
	assert_int_equal(nvm_intr_line(f->gpu), 1);
	wr(f->gpu, FB_GET(0), 1);
	assert_int_equal(rd(f->gpu, NISO) & (1u << 29), 0);
	assert_int_equal(nvm_intr_line(f->gpu), 0);
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(nvm_intr_line(f->gpu), 1);
	wr(f->gpu, 0x100A34, 1u << 29); /* EN_CLR */
	assert_int_equal(rd(f->gpu, 0x100A34), 0);
	assert_int_equal(nvm_intr_line(f->gpu), 0);
}

/* Entries wrap at SIZE. */
static void test_buffer_wrap(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 4);
	for (int i = 0; i < 6; i++) {
		xl(f, req_gpc(0x10000ull * (i + 1), NVM_MMU_READ, 0x10, 0));
		uint32_t put = rd(f->gpu, FB_PUT(0));
		assert_int_equal(put, (uint32_t)(i + 1) % 4);
		wr(f->gpu, FB_GET(0), put); /* consume */
		uint32_t slot = (uint32_t)i % 4;
		assert_int_equal(mem32(f->gpu, FB0 + slot * 32 + 8), 0x10000u * (uint32_t)(i + 1));
	}
}

/* Seed 003: "If the buffer has overflowed the GPU will stop writing out new
 * fault entries and proceed to drop entries until SW resets the overflow
 * status"; overflow when PUT == GET - 1 (volta-facts 3). UVM's write_get
 * clears OVERFLOW / GETPTR_CORRUPTED by writing 1. */
static void test_overflow_and_recovery(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 4);
	for (int i = 0; i < 3; i++)
		xl(f, req_gpc(0x10000ull * (i + 1), NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 3);
	xl(f, req_gpc(0x40000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, FB_GET(0)), 0x80000000u);
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 0x80000003u);
	assert_int_equal(rd(f->gpu, STATUS) & (1u << 13), 1u << 13); /* NON_REPLAYABLE_OVERFLOW */
	/* Still dropping after GET moves, until OVERFLOW is cleared. */
	wr(f->gpu, FB_GET(0), 3);
	assert_int_equal(rd(f->gpu, FB_GET(0)), 0x80000003u);
	xl(f, req_gpc(0x50000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, FB_PUT(0)) & 0xfffff, 3);
	nvm_mmu_stats st;
	nvm_mmu_get_stats(f->gpu, &st);
	assert_int_equal(st.packets_dropped[0], 2);
	wr(f->gpu, FB_GET(0), 3u | 0xc0000000u);
	assert_int_equal(rd(f->gpu, FB_GET(0)), 3);
	assert_int_equal(rd(f->gpu, STATUS) & (1u << 13), 0);
	xl(f, req_gpc(0x60000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 0);
	assert_int_equal(mem32(f->gpu, FB0 + 3 * 32 + 8), 0x60000u);
}

/* GETPTR_CORRUPTED (W1C); UNVERIFIED trigger: a GET at or beyond SIZE. */
static void test_getptr_corrupted(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 4);
	wr(f->gpu, FB_GET(0), 7);
	assert_int_equal(rd(f->gpu, FB_GET(0)) & 0x40000000u, 0x40000000u);
	assert_int_equal(rd(f->gpu, FB_PUT(0)) & 0x40000000u, 0x40000000u);
	assert_int_equal(rd(f->gpu, STATUS) & (1u << 15), 1u << 15);
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, FB_PUT(0)) & 0xfffff, 0);
	wr(f->gpu, FB_GET(0), 0x40000000u);
	assert_int_equal(rd(f->gpu, FB_GET(0)), 0);
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 1);
}

/* SIZE SET_DEFAULT: the GMMU writes a recommended VAL (UNVERIFIED: 1024). */
static void test_set_default(void **state)
{
	struct fx *f = *state;
	wr(f->gpu, FB_SIZE(1), 0x40000000u);
	assert_int_equal(rd(f->gpu, FB_SIZE(1)), 1024);
	wr(f->gpu, FB_SIZE(1), 0x80000000u | 1024);
	assert_int_equal(rd(f->gpu, FB_SIZE(1)), 0x80000400u);
}

/* The other-fault registers (pri_mmu_hub FAULT_ADDR/INST/INFO/STATUS) for
 * faults no enabled buffer takes; INFO has the packet's dword-7 layout;
 * STATUS VALID and DROPPED_* clear by writing 1; NISO bit 31. */
static void test_other_fault_registers(void **state)
{
	struct fx *f = *state;
	nvm_mmu_request r = req_gpc(0x987654321ull, NVM_MMU_ATOMIC, 0x11, 5);
	r.engine_id = 70;
	xl(f, r);
	assert_int_equal(rd(f->gpu, 0x100E4C), 0x87654000u); /* ADDR_LO */
	assert_int_equal(rd(f->gpu, 0x100E50), 0x9);         /* ADDR_HI */
	uint32_t il = rd(f->gpu, 0x100E54);
	assert_int_equal(il & 0x1ff, 70);       /* ENGINE_ID 8:0 */
	assert_int_equal((il >> 10) & 3, 0);    /* APERTURE 11:10 */
	assert_int_equal(il >> 12, INST >> 12); /* ADDR 31:12 */
	uint32_t info = rd(f->gpu, 0x100E5C);
	assert_int_equal(info & 0x1f, NVM_MMU_FAULT_PDE);
	assert_int_equal((info >> 8) & 0x7f, 0x11);
	assert_int_equal((info >> 16) & 0xf, 2);
	assert_int_equal((info >> 24) & 0x1f, 5);
	assert_int_equal(info >> 31, 1);
	assert_int_equal(rd(f->gpu, STATUS) >> 31, 1);
	assert_int_equal(rd(f->gpu, NISO) >> 31, 1);
	/* A second one is dropped: DROPPED_OTHER_VIRT (bit 7). */
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, 0x100E4C), 0x87654000u);
	assert_int_equal(rd(f->gpu, STATUS) & 0xff, 0x80);
	wr(f->gpu, STATUS, 0x80000080u);
	assert_int_equal(rd(f->gpu, STATUS), 0);
	assert_int_equal(rd(f->gpu, NISO) >> 31, 0);
	xl(f, req_gpc(0x2000, NVM_MMU_READ, 0x10, 0));
	assert_int_equal(rd(f->gpu, 0x100E4C), 0x2000u);
	/* PROTECTED_MODE (INFO 29:29) stays 0: the model has no protected mode. */
	assert_int_equal((rd(f->gpu, 0x100E5C) >> 29) & 1, 0);
	wr(f->gpu, STATUS, 0x80000000u);
	/* An instance block in non-coherent system memory: INST_LO APERTURE
	 * 11:10 = SYS_MEM_NONCOHERENT (3); a write to a READ_ONLY page gives
	 * FAULT_TYPE 4:0 = RO_VIOLATION (gv100_dev_fault.ref: 0x6). */
	uint64_t sinst = 0x2345000ull;
	ptb_ramin(f->gpu, NVM_AP_SYSMEM, sinst, NVM_MMU_PDB_VID, f->b.pdb, 0, 0);
	ptb_map(&f->b, 0x300000, 4096, ptb_pte(0x5000, 0, PTB_RO, 0));
	r = req_gpc(0x300000, NVM_MMU_WRITE, 0x10, 2);
	r.inst_target = NVM_MMU_PDB_SYS_NCOH;
	r.inst_addr = sinst;
	r.engine_id = 0x41;
	assert_int_equal(xl(f, r).fault, NVM_MMU_FAULT_RO_VIOLATION);
	il = rd(f->gpu, 0x100E54);
	assert_int_equal(il, 0x2345000u | 3u << 10 | 0x41u);
	assert_int_equal(rd(f->gpu, 0x100E58), 0); /* INST_HI */
	info = rd(f->gpu, 0x100E5C);
	assert_int_equal(info & 0x1f, 0x6);
	assert_int_equal(info, 0x80000000u | 2u << 24 | 1u << 16 | 0x10u << 8 | 0x6u);
	assert_int_equal(rd(f->gpu, 0x100E4C), 0x300000u); /* PHYS_APERTURE 1:0 = 0 (virtual) */
}

/* Seed 000 FAULT_REPLAY_TEX / _GCC select replayable faults, which go to
 * the replayable buffer (1) with REPLAYABLE_FAULT and REPLAYABLE_FAULT_EN
 * (seed 003) and wait; a replay (INVALIDATE REPLAY=START) retranslates. */
static void test_replay(void **state)
{
	struct fx *f = *state;
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 1, 0);
	fb_setup(f->gpu, 0, FB0, 8);
	fb_setup(f->gpu, 1, FB1, 8);
	ptb_map(&f->b, 0x200000, 4096, ptb_pte(0x5000, 0, 0, 0));
	nvm_mmu_result res = xl(f, req_gpc(0x201000, NVM_MMU_READ, 0 /* T1_0 */, 1));
	assert_int_equal(res.fault, NVM_MMU_FAULT_PTE);
	assert_true(res.replayable);
	assert_true(res.ticket != 0);
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	assert_int_equal(rd(f->gpu, FB_PUT(1)), 1);
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 0);
	uint32_t dw7 = mem32(f->gpu, FB1 + 28);
	assert_int_equal((dw7 >> 7) & 1, 1);  /* REPLAYABLE_FAULT */
	assert_int_equal((dw7 >> 30) & 1, 1); /* REPLAYABLE_FAULT_EN */
	assert_int_equal(rd(f->gpu, NISO) & (1u << 27), 1u << 27);
	/* Replay with the page still unmapped: reported again, still waiting. */
	wr(f->gpu, INVALIDATE, 0x80000000u | 1u << 3 | 3u); /* ALL_VA, ALL_PDB, START */
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	assert_int_equal(rd(f->gpu, FB_PUT(1)), 2);
	/* UVM maps the page and replays (START_ACK_ALL). */
	ptb_map(&f->b, 0x201000, 4096, ptb_pte(0x6000, 0, 0, 0));
	wr(f->gpu, INVALIDATE, 0x80000000u | 2u << 3 | 3u);
	assert_int_equal(nvm_mmu_pending(f->gpu), 0);
	assert_int_equal(rd(f->gpu, FB_PUT(1)), 2);
	nvm_mmu_stats st;
	nvm_mmu_get_stats(f->gpu, &st);
	assert_int_equal(st.replayed_ok, 1);
	/* A PE client is not TEX: non-replayable, into buffer 0, but
	 * REPLAYABLE_FAULT_EN is still set ("enabled for any client"). */
	res = xl(f, req_gpc(0x300000, NVM_MMU_READ, 8 /* PE_0 */, 1));
	assert_false(res.replayable);
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 1);
	dw7 = mem32(f->gpu, FB0 + 28);
	assert_int_equal((dw7 >> 7) & 1, 0);
	assert_int_equal((dw7 >> 30) & 1, 1);
	/* GCC needs FAULT_REPLAY_GCC. */
	assert_false(xl(f, req_gpc(0x300000, NVM_MMU_READ, 0x11, 1)).replayable);
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 0, 1);
	assert_true(xl(f, req_gpc(0x300000, NVM_MMU_READ, 0x11, 1)).replayable);
	assert_false(xl(f, req_gpc(0x300000, NVM_MMU_READ, 0, 1)).replayable);
}

/* Seed 003: dropped replayable faults "are not lost ... when SW triggers a
 * replay event the requests for the dropped replayable faults will be
 * replayed, fault again, and then be reported". */
static void test_replay_after_overflow(void **state)
{
	struct fx *f = *state;
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 1, 0);
	fb_setup(f->gpu, 1, FB1, 2);
	xl(f, req_gpc(0x400000, NVM_MMU_READ, 0, 0));
	xl(f, req_gpc(0x500000, NVM_MMU_READ, 1, 0)); /* full: dropped */
	assert_int_equal(rd(f->gpu, FB_GET(1)) >> 31, 1);
	assert_int_equal(rd(f->gpu, STATUS) & (1u << 12), 1u << 12); /* REPLAYABLE_OVERFLOW */
	assert_int_equal(nvm_mmu_pending(f->gpu), 2);
	/* UVM: consume, clear overflow, fix the first, replay. */
	wr(f->gpu, FB_GET(1), 1);
	wr(f->gpu, FB_GET(1), 1 | 0xc0000000u);
	ptb_map(&f->b, 0x400000, 4096, ptb_pte(0x5000, 0, 0, 0));
	nvm_mmu_inval op = { .all_pdb = 1, .all_va = 1, .replay = NVM_MMU_REPLAY_START };
	assert_int_equal(nvm_mmu_invalidate(f->gpu, &op), NVM_OK);
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	assert_int_equal(rd(f->gpu, FB_PUT(1)), 0);
	assert_int_equal(mem32(f->gpu, FB1 + 32 + 8), 0x500000u);
}

struct cancel_log {
	int n;
	int rf_set;
	uint64_t tickets[8];
};

/* Cancellations: the NVM_EV_TRACE "cancelled" events of the MMU, carrying
 * the request's fault record (the faults themselves are NVM_EV_FAULT). */
static void cancel_hook(void *user, const nvm_event *ev)
{
	struct cancel_log *l = user;
	const nvm_mmu_fault_event *fe = ev->detail;
	if (ev->type == NVM_EV_FAULT) {
		assert_false(fe->cancelled);
		return;
	}
	if (strcmp(ev->code, "cancelled"))
		return;
	assert_true(fe->cancelled);
	if (l->n < 8)
		l->tickets[l->n] = fe->ticket;
	l->n++;
	l->rf_set += fe->info.replayable;
}

/* Cancels (pri_mmu_hub INVALIDATE_REPLAY CANCEL_TARGETED / CANCEL_GLOBAL /
 * CANCEL_VA_GLOBAL): the requests complete with an error, reported with
 * REPLAYABLE_FAULT false (seed 003). */
static void test_cancel(void **state)
{
	struct fx *f = *state;
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 1, 0);
	fb_setup(f->gpu, 1, FB1, 64);
	struct cancel_log log = { 0 };
	nvm_hook_add(f->gpu, NVM_EV_MASK(NVM_EV_FAULT) | NVM_EV_MASK(NVM_EV_TRACE), cancel_hook, &log, NULL);
	uint64_t t_a = xl(f, req_gpc(0x1000, NVM_MMU_READ, 1, 2)).ticket;
	uint64_t t_b = xl(f, req_gpc(0x2000, NVM_MMU_WRITE, 2, 0)).ticket;
	xl(f, req_gpc(0x3000, NVM_MMU_READ, 3, 0));
	xl(f, req_gpc(0x4000, NVM_MMU_READ, 4, 0));
	assert_int_equal(nvm_mmu_pending(f->gpu), 4);
	/* Targeted: client T1_1 in GPC 2 (CANCEL_CLIENT_ID 14:9, GPC_ID 19:15). */
	wr(f->gpu, INVALIDATE, 0x80000000u | 2u << 15 | 1u << 9 | 3u << 3 | 3u);
	assert_int_equal(nvm_mmu_pending(f->gpu), 3);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.tickets[0], t_a);
	/* By VA: read-only cancel does not match the write; ALL does. */
	wr(f->gpu, 0x100CB4, (0x2000u >> 12) << 4);            /* INVALIDATE_VADDR */
	wr(f->gpu, 0x100CB8, (uint32_t)(f->b.pdb >> 12) << 4); /* INVALIDATE_PDB, VID */
	wr(f->gpu, INVALIDATE, 0x80000000u | 0u << 24 | 5u << 3);
	assert_int_equal(nvm_mmu_pending(f->gpu), 3);
	wr(f->gpu, INVALIDATE, 0x80000000u | 7u << 24 | 5u << 3);
	assert_int_equal(nvm_mmu_pending(f->gpu), 2);
	assert_int_equal(log.tickets[1], t_b);
	/* Global, through the MEM_OP API. */
	nvm_mmu_inval op = { .all_pdb = 1, .all_va = 1, .replay = NVM_MMU_REPLAY_CANCEL_GLOBAL };
	nvm_mmu_invalidate(f->gpu, &op);
	assert_int_equal(nvm_mmu_pending(f->gpu), 0);
	assert_int_equal(log.n, 4);
	assert_int_equal(log.rf_set, 0);
	nvm_mmu_stats st;
	nvm_mmu_get_stats(f->gpu, &st);
	assert_int_equal(st.cancelled, 4);
}

/* PAGE_FAULT_CTRL PRF_FILTER resets to SEND_NONE (RWE-V): prefetch faults
 * are not reported; SEND_ALL reports them. */
static void test_prefetch_filter(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 8);
	assert_int_equal(rd(f->gpu, 0x100CF8), 3);
	assert_int_equal(xl(f, req_gpc(0x1000, NVM_MMU_PREFETCH, 0x10, 0)).fault, NVM_MMU_FAULT_PDE);
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 0);
	wr(f->gpu, 0x100CF8, 0);
	xl(f, req_gpc(0x1000, NVM_MMU_PREFETCH, 0x10, 0));
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 1);
	assert_int_equal((mem32(f->gpu, FB0 + 28) >> 16) & 0xf, 3); /* VIRT_PREFETCH */
}

/* UNVERIFIED: a PEER page in a model without peers is UNSUPPORTED_APERTURE. */
static void test_unsupported_aperture(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 8);
	ptb_map(&f->b, 0x200000, 4096, ptb_pte(0x5000, 1, 0, 0));
	assert_int_equal(xl(f, req_gpc(0x200000, NVM_MMU_READ, 0x10, 0)).fault, NVM_MMU_FAULT_UNSUPPORTED_APERTURE);
	assert_int_equal(mem32(f->gpu, FB0 + 28) & 0x1f, 0xa);
}

/* Seed 003: INST_APERTURE SYS_MEM_COHERENT = 2, INST_LO = inst[31:12],
 * INST_HI = inst[63:32]; seed 000: SC_PAGE_DIR_BASE_FAULT_REPLAY_TEX(i)
 * makes a subcontext's TEX faults replayable. */
static void test_sysmem_instance_and_subcontext_replay(void **state)
{
	struct fx *f = *state;
	uint64_t inst = 0x123456000ull;
	struct ptb sb;
	ptb_init(&sb, f->gpu, NVM_AP_SYSMEM, 0x10000000);
	ptb_map(&sb, 0x200000, 4096, ptb_pte(0x5000, 0, 0, 0));
	/* PAGE_DIR_BASE invalid for non-VEID engines; VEID 5 valid with TEX replay. */
	ptb_ramin(f->gpu, NVM_AP_SYSMEM, inst, NVM_MMU_PDB_INVALID, 0, 0, 0);
	ptb_ramin_sc(f->gpu, NVM_AP_SYSMEM, inst, 5, NVM_MMU_PDB_SYS_COH, sb.pdb, 1);
	uint32_t sc;
	nvm_mem_rd32(f->gpu, NVM_AP_SYSMEM, inst + (168 + 5 * 4) * 4, &sc);
	nvm_mem_wr32(f->gpu, NVM_AP_SYSMEM, inst + (168 + 5 * 4) * 4, sc | 1u << 4);
	fb_setup(f->gpu, 0, FB0, 8);
	fb_setup(f->gpu, 1, FB1, 8);
	nvm_mmu_request r = req_gpc(0x200010, NVM_MMU_READ, 0, 4);
	r.inst_target = NVM_MMU_PDB_SYS_COH;
	r.inst_addr = inst;
	r.veid = 5;
	r.engine_id = NVM_MMU_ENG_GRAPHICS + 5;
	assert_int_equal(xl(f, r).pa, 0x5010);
	r.va = 0x300000;
	nvm_mmu_result res = xl(f, r);
	assert_true(res.replayable);
	uint32_t dw0 = mem32(f->gpu, FB1), dw1 = mem32(f->gpu, FB1 + 4), dw6 = mem32(f->gpu, FB1 + 24);
	assert_int_equal((dw0 >> 8) & 3, 2);
	assert_int_equal(dw0 >> 12, 0x23456);
	assert_int_equal(dw1, 1);
	assert_int_equal(dw6 & 0x1ff, 64 + 5);
	/* The non-VEID path of the same instance block is unbound. */
	r.veid = -1;
	r.engine_id = NVM_MMU_ENG_HOST0;
	res = xl(f, r);
	assert_int_equal(res.fault, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
	assert_false(res.replayable);
	assert_int_equal(mem32(f->gpu, FB0 + 28) & 0x1f, NVM_MMU_FAULT_UNBOUND_INST_BLOCK);
}

/* UNVERIFIED (docs/fidelity.md): seed 000 says "The last bind that does
 * not unbind a sub-context determines the REPLAY_TEX and REPLAY_GCC for all
 * sub-contexts"; the model, which does not see binds, reads each
 * subcontext's own SC_PAGE_DIR_BASE_FAULT_REPLAY_TEX(i). */
static void test_subcontext_replay_bits_per_veid(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 8);
	fb_setup(f->gpu, 1, FB1, 8);
	ptb_ramin_sc(f->gpu, NVM_AP_VRAM, INST, 1, NVM_MMU_PDB_VID, f->b.pdb, 1);
	ptb_ramin_sc(f->gpu, NVM_AP_VRAM, INST, 2, NVM_MMU_PDB_VID, f->b.pdb, 1);
	uint64_t sc1 = INST + (168 + 1 * 4) * 4;
	nvm_mem_wr32(f->gpu, NVM_AP_VRAM, sc1, mem32(f->gpu, sc1) | 1u << 4); /* REPLAY_TEX(1) */
	nvm_mmu_request r = req_gpc(0x1000, NVM_MMU_READ, 0 /* T1_0 */, 0);
	r.veid = 1;
	assert_true(xl(f, r).replayable);
	r.veid = 2;
	assert_false(xl(f, r).replayable);
	assert_int_equal(rd(f->gpu, FB_PUT(1)), 1);
	assert_int_equal(rd(f->gpu, FB_PUT(0)), 1);
}

/* SIZE.OVERFLOW_INTR: an overflowed buffer keeps its NISO bit up even when
 * GET == PUT (UNVERIFIED condition, docs/fidelity.md). */
static void test_overflow_interrupt(void **state)
{
	struct fx *f = *state;
	fb_setup(f->gpu, 0, FB0, 2);
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0));
	xl(f, req_gpc(0x2000, NVM_MMU_READ, 0x10, 0)); /* overflow */
	wr(f->gpu, FB_GET(0), 1);
	assert_int_equal(rd(f->gpu, NISO) & (1u << 29), 0);
	wr(f->gpu, FB_SIZE(0), 0x80000000u | 1u << 29 | 2);
	assert_int_equal(rd(f->gpu, NISO) & (1u << 29), 1u << 29);
	wr(f->gpu, FB_GET(0), 1u | 0x80000000u);
	assert_int_equal(rd(f->gpu, NISO) & (1u << 29), 0);
}

/* CANCEL_VA_GLOBAL access classes (CACHE_LEVEL_CANCEL_*): WRITE_AND_ATOMIC
 * takes writes and atomics, not reads; ATOMIC_WEAK only weak atomics. */
static void test_cancel_va_access_classes(void **state)
{
	struct fx *f = *state;
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 1, 0);
	fb_setup(f->gpu, 1, FB1, 64);
	xl(f, req_gpc(0x5000, NVM_MMU_READ, 0, 0));
	xl(f, req_gpc(0x5000, NVM_MMU_WRITE, 1, 0));
	xl(f, req_gpc(0x5000, NVM_MMU_ATOMIC, 2, 0));
	xl(f, req_gpc(0x5000, NVM_MMU_ATOMIC_WEAK, 3, 0));
	nvm_mmu_inval op = { .pdb_target = NVM_MMU_PDB_VID,
		             .pdb_addr = f->b.pdb,
		             .va = 0x5000,
		             .replay = NVM_MMU_REPLAY_CANCEL_VA_GLOBAL,
		             .cancel_access = 4 };
	nvm_mmu_invalidate(f->gpu, &op);
	assert_int_equal(nvm_mmu_pending(f->gpu), 3);
	op.cancel_access = 6;
	nvm_mmu_invalidate(f->gpu, &op);
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	op.va = 0x6000; /* another page: no match */
	op.cancel_access = 7;
	nvm_mmu_invalidate(f->gpu, &op);
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	op.va = 0x5000;
	op.cancel_access = 0;
	nvm_mmu_invalidate(f->gpu, &op);
	assert_int_equal(nvm_mmu_pending(f->gpu), 0);
}

struct reenter {
	nvm_gpu *gpu;
	int calls;
};

static void reenter_hook(void *user, const nvm_event *ev)
{
	(void)ev;
	struct reenter *r = user;
	r->calls++;
	nvm_mmu_inval op = { .all_pdb = 1, .all_va = 1, .replay = NVM_MMU_REPLAY_START };
	nvm_mmu_invalidate(r->gpu, &op);
}

/* A fault hook that replays from inside a replay is refused with a
 * diagnostic, never a corrupted request list. */
static void test_replay_reentry(void **state)
{
	struct fx *f = *state;
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 1, 0);
	fb_setup(f->gpu, 1, FB1, 64);
	struct reenter re = { f->gpu, 0 };
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0, 0));
	xl(f, req_gpc(0x2000, NVM_MMU_READ, 1, 0));
	int id;
	nvm_hook_add(f->gpu, NVM_EV_MASK(NVM_EV_FAULT), reenter_hook, &re, &id);
	uint64_t errs = nvm_event_count(f->gpu, NVM_EV_GUEST_ERROR);
	nvm_mmu_inval op = { .all_pdb = 1, .all_va = 1, .replay = NVM_MMU_REPLAY_START };
	nvm_mmu_invalidate(f->gpu, &op);
	assert_int_equal(re.calls, 2);
	assert_int_equal(nvm_mmu_pending(f->gpu), 2);
	assert_int_equal(nvm_event_count(f->gpu, NVM_EV_GUEST_ERROR), errs + 2);
	nvm_hook_del(f->gpu, id);
}

/* MEM_OP_A..D as UVM pushes them (volta-facts 3, uvm_hal_volta_replay_faults
 * and cancel_faults_va; field layout volta-facts b). */
static void test_mem_op(void **state)
{
	struct fx *f = *state;
	ptb_ramin(f->gpu, NVM_AP_VRAM, INST, NVM_MMU_PDB_VID, f->b.pdb, 1, 0);
	fb_setup(f->gpu, 1, FB1, 64);
	xl(f, req_gpc(0x1000, NVM_MMU_READ, 0, 0));
	xl(f, req_gpc(0x2000, NVM_MMU_WRITE, 1, 0));
	assert_int_equal(nvm_mmu_pending(f->gpu), 2);
	ptb_map(&f->b, 0x1000, 4096, ptb_pte(0x5000, 0, 0, 0));
	/* Replay: A SYSMEMBAR=DIS addr 0; B 0; C PDB=ONE, GPC=ENABLE,
	 * LEVEL=PTE_ONLY, APERTURE=VID, REPLAY=START_ACK_ALL; D TLB_INVALIDATE_TARGETED. */
	uint32_t c = 0u | 0u << 1 | 1u << 7 | 0u << 10 | 2u << 2;
	assert_int_equal(nvm_mmu_mem_op(f->gpu, 0, 0, c, 0xau << 27), NVM_OK);
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	/* cancel_faults_va: A = engine | VA_LO, C = PDB | CANCEL_VA_GLOBAL |
	 * ACCESS_TYPE VIRT_WRITE_AND_ATOMIC (6). */
	uint32_t a = 64u | 0x2000u;
	c = (uint32_t)(f->b.pdb & 0xfffff000u) | 5u << 2 | 6u << 7;
	assert_int_equal(nvm_mmu_mem_op(f->gpu, a, 0, c, 0xau << 27 | (uint32_t)(f->b.pdb >> 32)), NVM_OK);
	assert_int_equal(nvm_mmu_pending(f->gpu), 0);
	/* MMU_TLB_INVALIDATE (9), PDB=ALL: drops a stale translation. */
	ptb_map(&f->b, 0x1000, 4096, ptb_pte(0x7000, 0, 0, 0));
	assert_int_equal(xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0)).pa, 0x5000);
	assert_int_equal(nvm_mmu_mem_op(f->gpu, 0, 0, 1, 9u << 27), NVM_OK);
	assert_int_equal(xl(f, req_gpc(0x1000, NVM_MMU_READ, 0x10, 0)).pa, 0x7000);
	/* MEMBAR (5) is not an MMU operation. */
	assert_int_equal(nvm_mmu_mem_op(f->gpu, 0, 0, 0, 5u << 27), NVM_ERR_NOENT);
}

/* MEM_OP_C TLB_INVALIDATE_PDB_ADDR_LO 31:12 with MEM_OP_D
 * TLB_INVALIDATE_PDB_ADDR_HI 26:0 (address bits 58:32; volta-facts b):
 * a PDB above 2^32 (here 0xa_0010_0000, in system memory: PDB_APERTURE
 * 11:10 = SYS_MEM_COHERENT 2) is matched by its high bits too. */
static void test_mem_op_pdb_high(void **state)
{
	struct fx *f = *state;
	const uint64_t inst2 = 0x20000;
	struct ptb sb;
	ptb_init(&sb, f->gpu, NVM_AP_SYSMEM, 0xa00100000ull);
	assert_int_equal(sb.pdb >> 32, 0xa);
	ptb_ramin(f->gpu, NVM_AP_VRAM, inst2, NVM_MMU_PDB_SYS_COH, sb.pdb, 1, 0);
	fb_setup(f->gpu, 1, FB1, 64);
	nvm_mmu_request q = req_gpc(0x2000, NVM_MMU_WRITE, 0, 0);
	q.inst_addr = inst2;
	assert_true(xl(f, q).replayable);
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	uint32_t a = 64u | 0x2000u;
	uint32_t c = (uint32_t)(sb.pdb & 0xfffff000u) | 2u << 10 | 5u << 2 | 7u << 7; /* CANCEL_VA_GLOBAL, ALL */
	/* PDB_ADDR_HI 0x2 names another address space: nothing cancelled. */
	assert_int_equal(nvm_mmu_mem_op(f->gpu, a, 0, c, 0xau << 27 | 0x2u), NVM_OK);
	assert_int_equal(nvm_mmu_pending(f->gpu), 1);
	assert_int_equal(nvm_mmu_mem_op(f->gpu, a, 0, c, 0xau << 27 | (uint32_t)(sb.pdb >> 32)), NVM_OK);
	assert_int_equal(nvm_mmu_pending(f->gpu), 0);
	/* A targeted TLB invalidate (PDB=ONE, REPLAY=NONE) of that PDB drops a
	 * stale translation; one naming other high bits does not. */
	ptb_map(&sb, 0x2000, 4096, ptb_pte(0x5000, 0, 0, 0));
	q.access = NVM_MMU_READ;
	q.client_id = 0x10;
	assert_int_equal(xl(f, q).pa, 0x5000);
	ptb_map(&sb, 0x2000, 4096, ptb_pte(0x7000, 0, 0, 0));
	c = (uint32_t)(sb.pdb & 0xfffff000u) | 2u << 10;
	assert_int_equal(nvm_mmu_mem_op(f->gpu, 0x2000, 0, c, 0xau << 27 | 0x8u), NVM_OK);
	assert_int_equal(xl(f, q).pa, 0x5000);
	assert_int_equal(nvm_mmu_mem_op(f->gpu, 0x2000, 0, c, 0xau << 27 | (uint32_t)(sb.pdb >> 32)), NVM_OK);
	assert_int_equal(xl(f, q).pa, 0x7000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ramin_binding, setup, teardown),
		cmocka_unit_test_setup_teardown(test_packet_fields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_interrupts, setup, teardown),
		cmocka_unit_test_setup_teardown(test_buffer_wrap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overflow_and_recovery, setup, teardown),
		cmocka_unit_test_setup_teardown(test_getptr_corrupted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_set_default, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_fault_registers, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_after_overflow, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cancel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_prefetch_filter, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unsupported_aperture, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sysmem_instance_and_subcontext_replay, setup, teardown),
		cmocka_unit_test_setup_teardown(test_overflow_interrupt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cancel_va_access_classes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_replay_reentry, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mem_op, setup, teardown),
		cmocka_unit_test(test_packet_codec_positions),
		cmocka_unit_test_setup_teardown(test_status_buffer_bits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mem_op_pdb_high, setup, teardown),
		cmocka_unit_test_setup_teardown(test_subcontext_replay_bits_per_veid, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
