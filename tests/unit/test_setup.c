/*
 * The channel set-up helpers (nvmodel/setup.h) on every Host generation: a
 * channel built with the C API alone runs (semaphore release, USERD REF and
 * GP_GET written back), its instance block passes the model's own checker,
 * the page tables translate through the model's GMMU, and the helpers'
 * errors are the documented statuses.
 */
#include <setjmp.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "nvmodel/g80vm.h"
#include "nvmodel/host_fmt.h"
#include "nvmodel/mmu.h"
#include "nvmodel/nvmodel.h"
#include "nvmodel/pfifo.h"
#include "nvmodel/setup.h"

#define INC(subch, mthd, n) (0x20000000u | (uint32_t)(n) << 16 | (uint32_t)(subch) << 13 | (uint32_t)(mthd) >> 2)

static const char *const host_chips[] = { "gv100", "tu102", "ga100", "ga102", "gh100" };
#define NCHIPS (sizeof(host_chips) / sizeof(host_chips[0]))

static nvm_gpu *open_chip(const char *chip)
{
	nvm_config cfg = { .chip = chip, .vram_size = 256u << 20, .sysmem_size = 256u << 20 };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
	return gpu;
}

static uint32_t mem32(nvm_gpu *gpu, nvm_place p)
{
	nvm_aperture ap;
	uint32_t v = 0;
	assert_int_equal(nvm_target_aperture(p.target, &ap), NVM_OK);
	assert_int_equal(nvm_mem_rd32(gpu, ap, p.addr, &v), NVM_OK);
	return v;
}

static void run_idle(nvm_gpu *gpu)
{
	nvm_run_opts ro = { .ns = 1000000, .flags = NVM_RUN_UNTIL_IDLE };
	assert_int_equal(nvm_run(gpu, &ro), NVM_RUN_IDLE);
}

/* A whole channel on chip: heap, VM, channel, runlist, one segment that
 * sets REF and releases a semaphore; userd_target puts USERD elsewhere. */
static void channel_on(const char *chip, nvm_mmu_target userd_target)
{
	nvm_gpu *gpu = open_chip(chip);
	nvm_heap heap, uheap;
	assert_int_equal(nvm_heap_init(&heap, NVM_MMU_TGT_VID, 0x100000, 64u << 20), NVM_OK);
	assert_int_equal(nvm_heap_init(&uheap, userd_target, 0x200000, 1u << 20), NVM_OK);
	assert_int_equal(nvm_setup_host_init(gpu), NVM_OK);
	nvm_gmmu_vm *vm = NULL;
	assert_int_equal(nvm_gmmu_vm_create(gpu, &heap, 0x100000000ull, &vm), NVM_OK);
	assert_int_equal(nvm_gmmu_vm_ver3(vm), !strcmp(chip, "gh100"));

	uint64_t sem_va;
	nvm_place sem;
	assert_int_equal(nvm_gmmu_alloc_map(gpu, vm, NULL, 4096, NULL, &sem_va, &sem), NVM_OK);

	nvm_channel_desc d;
	nvm_channel_desc_init(&d);
	d.chid = 1;
	d.runlist = 0;
	d.gpfifo_entries = 16;
	d.userd_heap = &uheap;
	nvm_setup_channel ch;
	assert_int_equal(nvm_channel_create(gpu, vm, NULL, &d, &ch), NVM_OK);
	assert_int_equal(ch.userd.target, userd_target);

	/* The instance block as the model's own checker reads it. */
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_aperture ap;
	assert_int_equal(nvm_target_aperture(ch.inst.target, &ap), NVM_OK);
	assert_int_equal(nvm_mem_read(gpu, ap, ch.inst.addr, inst, sizeof(inst)), NVM_OK);
	assert_int_equal(nvm_ramin_check_chip(chip, inst, NULL, 0), 0);

	nvm_rl_entry e[2];
	nvm_rl_tsg(&e[0], 3, 1, 128, 3);
	nvm_rl_chan(&e[1], ch.chid, ch.runq, ch.inst, ch.userd);
	nvm_place rl;
	assert_int_equal(nvm_runlist_write(gpu, &heap, e, 2, &rl), NVM_OK);
	assert_int_equal(nvm_runlist_submit(gpu, 0, rl, 2), NVM_OK);
	ch.submitted = 0;
	run_idle(gpu);
	bool pending = true;
	assert_int_equal(nvm_runlist_pending(gpu, 0, &pending), NVM_OK);
	assert_int_equal(pending, 0);

	uint32_t pb[] = { INC(0, 0x50, 1),
		          0x77, /* SET_REFERENCE */
		          INC(0, 0x5c, 4),
		          (uint32_t)sem_va,
		          (uint32_t)(sem_va >> 32),
		          0xa100,
		          0,
		          INC(0, 0x6c, 1),
		          0x100001 }; /* SEM_EXECUTE RELEASE */
	uint32_t index = 99;
	uint64_t va = 0;
	assert_int_equal(nvm_channel_push(gpu, &ch, pb, sizeof(pb), NULL, 1, &index, &va), NVM_OK);
	assert_int_equal(index, 0);
	assert_int_equal(va, ch.pb_va);
	assert_int_equal(ch.put, 1);
	run_idle(gpu);
	assert_int_equal(mem32(gpu, sem), 0xa100);
	const nvm_hf_layout *ud = nvm_hf_layout_chip(chip, NVM_HF_USERD);
	assert_non_null(ud);
	uint32_t v = 0;
	for (size_t i = 0; i < ud->nwords; i++) {
		const char *n = ud->words[i].name;
		if (n && (!strcmp(n, "NV_RAMUSERD_REF") || !strcmp(n, "NV_RAMUSERD_GP_GET"))) {
			assert_int_equal(nvm_channel_userd_rd32(gpu, &ch, 4u * ud->words[i].dword, &v), NVM_OK);
			assert_int_equal(v, !strcmp(n, "NV_RAMUSERD_REF") ? 0x77 : 1);
		}
	}
	/* A second segment follows the first in the area. */
	assert_int_equal(nvm_channel_push(gpu, &ch, pb, sizeof(pb), NULL, 1, &index, &va), NVM_OK);
	assert_int_equal(va, ch.pb_va + sizeof(pb));
	assert_int_equal(nvm_channel_disable(gpu, &ch), NVM_OK);
	nvm_gmmu_vm_free(vm);
	nvm_close(gpu);
}

static void channels_run_on_every_host(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCHIPS; i++)
		channel_on(host_chips[i], NVM_MMU_TGT_VID);
}

static void userd_in_system_memory(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCHIPS; i++) {
		channel_on(host_chips[i], NVM_MMU_TGT_SYS_COH);
		channel_on(host_chips[i], NVM_MMU_TGT_SYS_NCOH);
	}
}

/* What nvm_gmmu_map writes, the model's GMMU translates, page size and attributes included. */
static void page_tables_translate(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCHIPS; i++) {
		nvm_gpu *gpu = open_chip(host_chips[i]);
		nvm_heap heap;
		nvm_gmmu_vm *vm = NULL;
		assert_int_equal(nvm_heap_init(&heap, NVM_MMU_TGT_VID, 0x100000, 16u << 20), NVM_OK);
		assert_int_equal(nvm_gmmu_vm_create(gpu, &heap, 0x100000000ull, &vm), NVM_OK);
		int v3 = nvm_gmmu_vm_ver3(vm);
		static const uint32_t pages[] = { 4096, 65536, 0x200000 };
		for (unsigned k = 0; k < (v3 ? 2u : 3u); k++) {
			uint64_t va = 0x4000000000ull + k * 0x400000ull, pa = 0x2000000ull + k * 0x400000ull;
			nvm_gmmu_map_opts o = { .page = pages[k], .kind = 5, .ro = 1 };
			assert_int_equal(nvm_gmmu_map(gpu, vm, va, NVM_MMU_TGT_SYS_NCOH, pa, 2ull * pages[k], &o),
			                 NVM_OK);
			nvm_mmu_request rq = { .use_pdb = 1,
				               .pdb_target = NVM_MMU_TGT_VID,
				               .veid = -1,
				               .va = va + pages[k] + 8,
				               .access = NVM_MMU_READ };
			rq.pdb_addr = nvm_gmmu_vm_pdb(vm).addr;
			nvm_mmu_result r;
			assert_int_equal(nvm_mmu_translate(gpu, &rq, &r), NVM_OK);
			assert_int_equal(r.fault, NVM_MMU_FAULT_NONE);
			assert_int_equal(r.target, NVM_MMU_TGT_SYS_NCOH);
			assert_int_equal(r.pa, pa + pages[k] + 8);
			assert_int_equal(r.page_size, pages[k]);
			assert_int_equal(r.kind, 5);
			assert_int_equal(r.ro, 1);
			nvm_place got;
			uint64_t left;
			assert_int_equal(nvm_gmmu_lookup(vm, va + 8, &got, &left), NVM_OK);
			assert_int_equal(got.addr, pa + 8);
			assert_int_equal(left, 2ull * pages[k] - 8);
		}
		uint64_t where = 0;
		if (!v3) {
			/* A 4 KiB page in a 2 MiB slot, and the reverse. */
			assert_int_equal(nvm_gmmu_map_conflict(vm, 0x4000800000ull, 4096, 4096, &where), NVM_ERR_ARG);
			assert_int_equal(where, 0x4000800000ull);
			assert_int_equal(nvm_gmmu_map_conflict(vm, 0x4000000000ull, 0x200000, 0x200000, &where),
			                 NVM_ERR_ARG);
		} else {
			nvm_gmmu_map_opts o = { .page = 0x200000 };
			assert_int_equal(nvm_gmmu_map(gpu, vm, 0x4000800000ull, NVM_MMU_TGT_VID, 0, 0x200000, &o),
			                 NVM_ERR_ARG);
		}
		/* CPU access through the builder's records. */
		uint64_t va;
		assert_int_equal(nvm_gmmu_alloc_map(gpu, vm, NULL, 8192, NULL, &va, NULL), NVM_OK);
		assert_int_equal(nvm_gmmu_write(gpu, vm, va + 4090, "abcdefgh", 8), NVM_OK);
		char buf[8];
		assert_int_equal(nvm_gmmu_read(gpu, vm, va + 4090, buf, 8), NVM_OK);
		assert_memory_equal(buf, "abcdefgh", 8);
		assert_int_equal(nvm_gmmu_read(gpu, vm, va + 8190, buf, 8), NVM_ERR_NOENT);
		nvm_gmmu_vm_free(vm);
		nvm_close(gpu);
	}
}

static void statuses(void **state)
{
	(void)state;
	nvm_heap h;
	uint64_t a;
	assert_int_equal(nvm_heap_init(&h, NVM_MMU_TGT_PEER, 0, 4096), NVM_ERR_APERTURE);
	assert_int_equal(nvm_heap_init(&h, NVM_MMU_TGT_VID, 0x1000, 0x2000), NVM_OK);
	assert_int_equal(nvm_heap_alloc(&h, 16, 24, &a), NVM_ERR_ARG);
	assert_int_equal(nvm_heap_alloc(&h, 0x1000, 0x2000, &a), NVM_OK);
	assert_int_equal(a, 0x2000);
	assert_int_equal(nvm_heap_alloc(&h, 0x1000, 0, &a), NVM_ERR_FULL);
	assert_int_equal(h.next, 0x3000);

	uint32_t e0, e1;
	nvm_gp_opts o = { .fetch_conditional = 1, .priv = 1, .subroutine = 1, .sync = 1 };
	assert_int_equal(nvm_gp_entry(0x12345678ull | 0xab00000000ull, 7, &o, &e0, &e1), NVM_OK);
	assert_int_equal(e0, 0x12345679u);
	assert_int_equal(e1, 0xab | 1u << 8 | 1u << 9 | 7u << 10 | 1u << 31);
	assert_int_equal(nvm_gp_entry(0x1002, 1, NULL, &e0, &e1), NVM_ERR_ALIGN);
	assert_int_equal(nvm_gp_entry(1ull << 40, 1, NULL, &e0, &e1), NVM_ERR_RANGE);
	assert_int_equal(nvm_gp_entry(0x1000, 0, NULL, &e0, &e1), NVM_ERR_ARG);
	nvm_gp_control(2, 0x1234, 1, &e0, &e1);
	assert_int_equal(e0, 0x1234);
	assert_int_equal(e1, 2u | 1u << 31);

	/* No Host, no GMMU: a PFIFO chip. */
	nvm_config pcfg = { .chip = "nv04" };
	nvm_gpu *gpu = NULL;
	assert_int_equal(nvm_open(&pcfg, &gpu), NVM_OK);
	nvm_setup_host_info info;
	nvm_gmmu_vm *vm = NULL;
	assert_int_equal(nvm_setup_host_get(gpu, &info), NVM_ERR_CHIP);
	assert_int_equal(nvm_gmmu_vm_create(gpu, &h, 0, &vm), NVM_ERR_CHIP);
	nvm_close(gpu);

	/* A full ring: nothing written, put unchanged. */
	gpu = open_chip("gv100");
	assert_int_equal(nvm_setup_host_get(gpu, &info), NVM_OK);
	assert_int_equal(info.nrunlist, 13);
	assert_int_equal(info.ramfc_userd, 1);
	assert_int_equal(nvm_heap_init(&h, NVM_MMU_TGT_VID, 0x100000, 1u << 20), NVM_OK);
	assert_int_equal(nvm_gmmu_vm_create(gpu, &h, 0x100000000ull, &vm), NVM_OK);
	nvm_channel_desc d;
	nvm_channel_desc_init(&d);
	d.gpfifo_entries = 4;
	d.pb_size = 4096;
	nvm_setup_channel ch;
	assert_int_equal(nvm_channel_create(gpu, vm, NULL, &d, &ch), NVM_OK);
	uint32_t nop = 0;
	for (int i = 0; i < 3; i++)
		assert_int_equal(nvm_channel_push(gpu, &ch, &nop, 4, NULL, 0, NULL, NULL), NVM_OK);
	assert_int_equal(nvm_channel_push(gpu, &ch, &nop, 4, NULL, 0, NULL, NULL), NVM_ERR_FULL);
	assert_int_equal(nvm_channel_push_entry(gpu, &ch, 0, 0, 0, NULL), NVM_ERR_FULL);
	assert_int_equal(ch.put, 3);
	static uint32_t big[1025];
	assert_int_equal(nvm_channel_push(gpu, &ch, big, sizeof(big), NULL, 0, NULL, NULL), NVM_ERR_FULL);
	d.chid = 4096;
	assert_int_equal(nvm_channel_create(gpu, vm, NULL, &d, &ch), NVM_ERR_ARG);
	/* gv100's runlist pointer is 40 bits; a runlist id beyond the 13. */
	assert_int_equal(nvm_runlist_submit(gpu, 0, (nvm_place){ NVM_MMU_TGT_SYS_COH, 1ull << 40 }, 1), NVM_ERR_RANGE);
	assert_int_equal(nvm_runlist_submit(gpu, 13, (nvm_place){ NVM_MMU_TGT_VID, 0 }, 1), NVM_ERR_ARG);
	/* The heap is spent: the next table does not fit. */
	nvm_heap tiny;
	assert_int_equal(nvm_heap_init(&tiny, NVM_MMU_TGT_VID, 0x800000, 0x1000), NVM_OK);
	nvm_gmmu_vm *vm2 = NULL;
	assert_int_equal(nvm_gmmu_vm_create(gpu, &tiny, 0, &vm2), NVM_OK);
	assert_int_equal(nvm_gmmu_map(gpu, vm2, 0, NVM_MMU_TGT_VID, 0, 4096, NULL), NVM_ERR_FULL);
	nvm_gmmu_vm_free(vm2);
	nvm_gmmu_vm_free(vm);
	nvm_close(gpu);
}

/* Ampere: the runlist spaces the device-info table publishes. */
static void ampere_runlist_spaces(void **state)
{
	(void)state;
	nvm_gpu *gpu = open_chip("ga100");
	nvm_runlist_space r;
	unsigned n = 0;
	assert_int_equal(nvm_runlist_space_get(gpu, 0, &r, &n), NVM_OK);
	assert_true(n >= 1);
	assert_int_not_equal(r.base, 0);
	assert_int_equal(nvm_runlist_space_get(gpu, n, &r, NULL), NVM_ERR_NOENT);
	nvm_close(gpu);
}

/* NV04..NV4x: a DMA channel and a PIO store built with the PFIFO helpers
 * reach PGRAPH with the object's class (the method log). */
static void nv04_channels(void **state)
{
	(void)state;
	static const char *const chips[] = { "nv04", "nv10", "nv11", "nv17", "nv40", "nv41" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		nvm_config cfg = { .chip = chips[i], .vram_size = 16u << 20, .sysmem_size = 16u << 20 };
		nvm_gpu *gpu = NULL;
		assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
		nvm_nv04_fifo f;
		assert_int_equal(nvm_nv04_fifo_init(gpu, &f), NVM_OK);
		uint32_t v = 0;
		assert_int_equal(nvm_reg_read(gpu, 0x2210, &v), NVM_OK);
		assert_int_equal(v, 0x03030100); /* RAMHT SEARCH 128, SIZE 32K, at 0x10000 */
		nvm_nv04_dmaobj o = { .class_id = 0x3d, .target = 2, .start = 0x100000, .limit = 0x1fffff };
		uint32_t pb = UINT32_MAX, gr, a;
		assert_int_equal(nvm_nv04_dmaobj_write(gpu, &f, &o, &pb), NVM_OK);
		assert_int_equal(pb, 0x30000);
		assert_int_equal(nvm_nv04_object(gpu, &f, 0x62, &gr), NVM_OK);
		assert_int_equal(nvm_nv04_ramht_add(gpu, &f, 1, 0xbeef, gr, 1, &a), NVM_OK);
		assert_int_equal(a, 0x10000 + nvm_pfifo_ramht_hash(0xbeef, 1, 12) * 8);
		/* The same handle again takes the next entry. */
		assert_int_equal(nvm_nv04_ramht_add(gpu, &f, 1, 0xbeef, gr, 1, &a), NVM_OK);
		assert_int_equal(a, 0x10000 + ((nvm_pfifo_ramht_hash(0xbeef, 1, 12) + 1) % 4096) * 8);
		assert_int_equal(nvm_nv04_ramfc_set(gpu, &f, 1, "NO_SUCH_FIELD", 0), NVM_ERR_NOENT);
		assert_int_equal(nvm_nv04_dma_channel(gpu, &f, 1, pb, 0x40, 0), NVM_OK);
		/* old-format INC headers: COUNT 28:18, SUBCHANNEL 15:13, METHOD 12:2 */
		uint32_t words[] = { 1u << 18, 0xbeef, 3u << 18 | 0x300, 1, 2, 3 };
		assert_int_equal(nvm_mem_write(gpu, NVM_AP_SYSMEM, 0x100040, words, sizeof(words)), NVM_OK);
		assert_int_equal(nvm_nv04_kick(gpu, &f, 1, 0x40 + sizeof(words)), NVM_OK);
		run_idle(gpu);
		nvm_method log[8];
		size_t n = 0;
		assert_int_equal(nvm_method_log_read(gpu, "pgraph", 0, log, 8, &n, NULL), NVM_OK);
		assert_int_equal(n, 4);
		assert_int_equal(log[3].method, 0x308);
		assert_int_equal(log[3].cls, 0x62);
		assert_int_equal(log[3].chid, 1);
		assert_int_equal(nvm_reg_read(gpu, nvm_nv04_user(&f, 1) + 0x44, &v), NVM_OK);
		assert_int_equal(v, 0x40 + sizeof(words)); /* DMA_GET */
		/* PIO on channel 2 */
		assert_int_equal(nvm_nv04_ramht_add(gpu, &f, 2, 0xf00d, gr, 1, NULL), NVM_OK);
		assert_int_equal(nvm_nv04_pio(gpu, &f, 2, 3, 0x0000, 0xf00d), NVM_OK);
		assert_int_equal(nvm_nv04_pio(gpu, &f, 2, 3, 0x0400, 0x55), NVM_OK);
		run_idle(gpu);
		assert_int_equal(nvm_method_log_read(gpu, "pgraph", 0, log, 8, &n, NULL), NVM_OK);
		assert_int_equal(n, 6);
		assert_int_equal(log[5].data, 0x55);
		assert_int_equal(log[5].chid, 2);
		nvm_close(gpu);
	}
	/* Not this PFIFO. */
	nvm_gpu *gpu = open_chip("gv100");
	nvm_nv04_fifo f;
	assert_int_equal(nvm_nv04_fifo_init(gpu, &f), NVM_ERR_CHIP);
	nvm_close(gpu);
}

/* G80 VM: a paged DMA object and page tables built with the helpers
 * translate through the model's G80 VM; BAR1 set up by them maps. */
static void g80_vm(void **state)
{
	(void)state;
	static const char *const chips[] = { "g80", "g84", "g92", "gt215" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		nvm_config cfg = { .chip = chips[i], .vram_size = 64u << 20, .sysmem_size = 16u << 20 };
		nvm_gpu *gpu = NULL;
		assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
		nvm_g80_vm_desc d;
		nvm_g80_vm_desc_init(&d);
		d.addr = 0x100000;
		nvm_g80_vmb *vm = NULL;
		assert_int_equal(nvm_g80_vmb_create(gpu, &d, &vm), NVM_OK);
		assert_int_equal(nvm_g80_vmb_desc(vm), 0x100);
		nvm_g80_dmaobj paged = { .cls = 0x3d, .storage_type = 0x7f, .comp = 3, .limit = (1ull << 40) - 1 };
		uint32_t sel = 0;
		assert_int_equal(nvm_g80_vmb_dmaobj(gpu, vm, &paged, &sel), NVM_OK);
		nvm_g80_map_desc m;
		nvm_g80_map_desc_init(&m);
		m.virt = 0x20000000;
		m.lin = 0x1234000;
		m.size = 0x4000;
		m.pte.storage = 0x70;
		assert_int_equal(nvm_g80_vmb_map(gpu, vm, &m, NULL), NVM_OK);
		nvm_g80_req rq = { .chan = nvm_g80_vmb_desc(vm), .selector = sel, .offset = 0x20002010, .engine = 5 };
		nvm_g80_res r;
		assert_int_equal(nvm_g80_translate(gpu, &rq, &r), NVM_OK);
		assert_int_equal(r.fault, 0);
		assert_int_equal(r.addr, 0x1236010);
		assert_int_equal(r.storage_type, 0x70);
		assert_int_equal(r.block, 0x4000); /* one CONTIG block of four pages */
		/* 64 KiB pages where the PDE has 4 KiB ones: refused, the VA named. */
		uint64_t bad = 0;
		m.page = 0x10000;
		m.size = 0x10000;
		m.virt = 0x20010000;
		m.lin = 0x1240000;
		assert_int_equal(nvm_g80_vmb_map(gpu, vm, &m, &bad), NVM_ERR_ARG);
		assert_int_equal(bad, 0x20010000);
		/* medium pages: before gt215 none; on gt215 the PDE has 4 KiB pages */
		m.page = 0x4000;
		m.size = 0x4000;
		assert_int_equal(nvm_g80_vmb_map(gpu, vm, &m, &bad), NVM_ERR_ARG);
		/* a mapping that passes 2^40: nothing written, the end named */
		nvm_g80_map_desc far;
		nvm_g80_map_desc_init(&far);
		far.virt = (1ull << 40) - 0x1000;
		far.size = 0x2000;
		assert_int_equal(nvm_g80_vmb_map(gpu, vm, &far, &bad), NVM_ERR_RANGE);
		assert_int_equal(bad, 1ull << 40);
		nvm_g80_vmb_free(vm);

		uint32_t s1, s3;
		assert_int_equal(nvm_g80_bar_setup(gpu, 0x10000, 0x10000000, 0x1000000, &vm, &s1, &s3), NVM_OK);
		nvm_g80_map_desc_init(&m);
		m.lin = 0x800000;
		m.size = 0x10000;
		m.page = 0x10000;
		assert_int_equal(nvm_g80_vmb_map(gpu, vm, &m, NULL), NVM_OK);
		uint32_t v = 0x5a5a1234, back = 0;
		assert_int_equal(nvm_mem_wr32(gpu, NVM_AP_VRAM, 0x800040, v), NVM_OK);
		assert_int_equal(nvm_g80_bar_read(gpu, 1, 0x40, &back, 4), NVM_OK);
		assert_int_equal(back, v);
		nvm_g80_vmb_free(vm);
		nvm_close(gpu);
	}
}

/* G80 PFIFO: IB-mode and DMA-mode channels built with the helpers (the
 * pushbuffer unpaged or through page tables) deliver their methods to
 * PGRAPH with the object's class. */
static void g80_channels(void **state)
{
	(void)state;
	static const char *const chips[] = { "g80", "g84", "g92", "gt215" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		nvm_config cfg = { .chip = chips[i], .vram_size = 256u << 20, .sysmem_size = 256u << 20 };
		nvm_gpu *gpu = NULL;
		assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
		nvm_g80_fifo f;
		assert_int_equal(nvm_g80_fifo_init(gpu, &f), NVM_OK);
		for (int mode = 0; mode < 3; mode++) {
			nvm_g80_channel_desc d;
			nvm_g80_channel_desc_init(&d);
			d.chid = 1 + (uint32_t)mode;
			d.ib = mode != 2;
			d.vm = mode == 1;
			nvm_g80_channel ch;
			assert_int_equal(nvm_g80_channel_create(gpu, &f, &d, &ch), NVM_OK);
			uint32_t gr;
			assert_int_equal(nvm_g80_channel_object(gpu, &ch, 0x5097, 0xbeef0001, 1, &gr), NVM_OK);
			uint32_t words[] = { 1u << 18, 0xbeef0001, 3u << 18 | 0x300, 1, 2, 3 };
			assert_int_equal(nvm_g80_channel_push(gpu, &ch, words, 6), NVM_OK);
			run_idle(gpu);
			nvm_method log[16];
			size_t n = 0;
			uint64_t total = 0;
			assert_int_equal(nvm_method_log_read(gpu, "pgraph", 0, log, 16, &n, &total), NVM_OK);
			assert_int_equal(n, 4u * ((unsigned)mode + 1));
			assert_int_equal(log[n - 1].method, 0x308);
			assert_int_equal(log[n - 1].cls, 0x5097);
			assert_int_equal(log[n - 1].chid, d.chid);
			nvm_g80_channel_release(&ch);
		}
		assert_int_equal(f.nchannels, 3);
		nvm_close(gpu);
	}
}

/* NV01 / NV03: RAMHT entries and PIO stores made with the helpers reach PGRAPH. */
static void nv03_pio(void **state)
{
	(void)state;
	static const char *const chips[] = { "nv01", "nv03", "nv03t" };
	for (size_t i = 0; i < sizeof(chips) / sizeof(chips[0]); i++) {
		nvm_config cfg = { .chip = chips[i] };
		nvm_gpu *gpu = NULL;
		assert_int_equal(nvm_open(&cfg, &gpu), NVM_OK);
		nvm_nv03_fifo f;
		assert_int_equal(nvm_nv03_fifo_init(gpu, &f), NVM_OK);
		uint32_t ctx, a, v;
		assert_int_equal(nvm_nv03_context(&f, 0x42, 0x3410, 1, 0, &ctx), NVM_OK);
		assert_int_equal(nvm_nv03_ramht_add(gpu, &f, 0, 0x80000000u, ctx, &a), NVM_OK);
		assert_int_equal(nvm_nv03_ramin_rd(gpu, &f, a, &v), NVM_OK);
		assert_int_equal(v, 0x80000000u);
		/* the bucket holds two entries: a third handle of the same bucket does not fit */
		assert_int_equal(nvm_nv03_ramht_add(gpu, &f, 0, 0x80000000u, ctx, NULL), NVM_OK);
		assert_int_equal(nvm_nv03_ramht_add(gpu, &f, 0, 0x80000000u, ctx, NULL), NVM_ERR_FULL);
		assert_int_equal(nvm_nv03_pio(gpu, 0, 0, 0x0000, 0x80000000u), NVM_OK);
		assert_int_equal(nvm_nv03_pio(gpu, 0, 0, 0x0304, 0x1234), NVM_OK);
		run_idle(gpu);
		nvm_method log[8];
		size_t n = 0;
		assert_int_equal(nvm_method_log_read(gpu, "pgraph", 0, log, 8, &n, NULL), NVM_OK);
		assert_true(n >= 1);
		assert_int_equal(log[n - 1].method, 0x304);
		assert_int_equal(log[n - 1].data, 0x1234);
		nvm_close(gpu);
	}
}

/* Everything in system memory the caller owns (nvm_mem_map_ptr): the
 * helpers' page tables, instance block, USERD, ring and pushbuffer land in
 * the caller's buffer, and so does the semaphore release. */
static void channel_in_caller_memory(void **state)
{
	(void)state;
	for (size_t i = 0; i < NCHIPS; i++) {
		nvm_gpu *gpu = open_chip(host_chips[i]);
		const uint64_t size = 4u << 20;
		uint8_t *buf = aligned_alloc(4096, size);
		assert_non_null(buf);
		memset(buf, 0, size);
		assert_int_equal(nvm_mem_map_ptr(gpu, NVM_AP_SYSMEM, 0, size, buf), NVM_OK);
		nvm_heap heap;
		nvm_gmmu_vm *vm = NULL;
		assert_int_equal(nvm_heap_init(&heap, NVM_MMU_TGT_SYS_COH, 0x1000, size - 0x1000), NVM_OK);
		assert_int_equal(nvm_setup_host_init(gpu), NVM_OK);
		assert_int_equal(nvm_gmmu_vm_create(gpu, &heap, 0x100000000ull, &vm), NVM_OK);
		uint64_t sem_va;
		nvm_place sem;
		assert_int_equal(nvm_gmmu_alloc_map(gpu, vm, NULL, 4096, NULL, &sem_va, &sem), NVM_OK);
		nvm_channel_desc d;
		nvm_channel_desc_init(&d);
		d.chid = 2;
		d.runlist = 0;
		d.gpfifo_entries = 8;
		d.pb_size = 4096;
		nvm_setup_channel ch;
		assert_int_equal(nvm_channel_create(gpu, vm, NULL, &d, &ch), NVM_OK);
		nvm_rl_entry e[2];
		nvm_place rl;
		nvm_rl_tsg(&e[0], 2, 1, 128, 3);
		nvm_rl_chan(&e[1], ch.chid, ch.runq, ch.inst, ch.userd);
		assert_int_equal(nvm_runlist_write(gpu, &heap, e, 2, &rl), NVM_OK);
		assert_int_equal(nvm_runlist_submit(gpu, 0, rl, 2), NVM_OK);
		ch.submitted = 0;
		uint32_t pb[] = { INC(0, 0x5c, 4), (uint32_t)sem_va, (uint32_t)(sem_va >> 32), 0xc0ffee, 0,
			          INC(0, 0x6c, 1), 0x100001 };
		assert_int_equal(nvm_channel_push(gpu, &ch, pb, sizeof(pb), NULL, 1, NULL, NULL), NVM_OK);
		run_idle(gpu);
		const uint8_t *b = buf + sem.addr; /* little-endian, as the GPU stores it */
		assert_int_equal((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24,
		                 0xc0ffee);
		nvm_gmmu_vm_free(vm);
		nvm_close(gpu);
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(channels_run_on_every_host),
		cmocka_unit_test(userd_in_system_memory),
		cmocka_unit_test(channel_in_caller_memory),
		cmocka_unit_test(page_tables_translate),
		cmocka_unit_test(statuses),
		cmocka_unit_test(ampere_runlist_spaces),
		cmocka_unit_test(nv04_channels),
		cmocka_unit_test(g80_vm),
		cmocka_unit_test(g80_channels),
		cmocka_unit_test(nv03_pio),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
