/*
 * The G80 VM block (seed 002 "Tesla virtual memory"): translation with
 * per-VM-engine TLBs, the TLB flush register 0x100c80, the VM fault trap
 * registers 0x100c90 / 0x100c94 (g80_pfb.xml MMU VM_FAULT / VM_FAULT_DATA),
 * and BAR1 / BAR3 through the BAR channel (g80 pbus.xml HOST_MEM 0x1700..;
 * programmed as nouveau's nv50 bar code does).
 */
#include <stdlib.h>
#include <string.h>

#include "g80vm_internal.h"
#include "mmu_gens.h"
#include "tlb_cache.h"

#define R_TLB_FLUSH 0x100c80u
#define R_VM_FAULT  0x100c90u
#define R_VM_DATA   0x100c94u
#define R_MMU_CG    0x100c98u
#define R_PD_OFFSET 0x100c9cu

#define R_PMEM     0x1700u
#define R_HOST_CH  0x1704u
#define R_BAR1     0x1708u
#define R_BAR3     0x170cu
#define R_PEEPHOLE 0x1710u
#define PMEM_WIN   0x700000u /* the 1 MiB PMEM window */
#define PMEM_SIZE  0x100000u

/* UNVERIFIED: a TLB flush completes 100 ns after its trigger (seed 002 only
 * says the trigger bit "will auto-reset to 0 when flush is complete"). */
#define FLUSH_NS 100u
/* UNVERIFIED: 16384 TLB entries shared by the engines, direct-mapped by
 * (engine, channel, block); the real sizes are not documented. */
#define TLB_SLOTS 16384u
#define NTRAP     G80VM_NTRAP

/* ---------------------------------------------------------------- chip data */

static const nvm_g80_ctxsel ctx_g80[] = {
	{ 0x20, "PGRAPH" },
	{ 0x22, "PVP1" },
	{ 0x24, "PME" },
	{ 0x26, "PMPEG" },
};
/* G84 and G92 are VP2 chips. */
static const nvm_g80_ctxsel ctx_g84[] = {
	{ 0x02, "PGRAPH" }, { 0x04, "PVP2" }, { 0x06, "PMPEG" }, { 0x08, "PBSP" }, { 0x0a, "PCIPHER" },
};
/* GT215 is a VP4 chip (VP3- rows) with PCOPY; PSEC (VP3 only) is absent. */
static const nvm_g80_ctxsel ctx_gt215[] = {
	{ 0x02, "PGRAPH" }, { 0x04, "PPDEC" }, { 0x06, "PPPP" }, { 0x08, "PVLD" }, { 0x0c, "PCOPY" },
};

/* g80_pfb.xml MMU VM_FAULT enables by VM engine (g80_vm.xml G80_VM_ENGINE):
 * PGRAPH_UNK0..10 (10:0) for PGRAPH, PVP1/PVP2/PPDEC_ENABLE 16 for engine
 * 1, PME 17 (7), PMPEG/PPPP 18 (8), PBSP/PVLD 19 (9), PCIPHER 20 (0xa,
 * G84:G98; PSEC is not on GT215), PCOUNTER 21 (0xb, G84-), PCOPY 11 (0xd,
 * GT215-), PDAEMON 23 (0xe, GT215-). UNVERIFIED: a PGRAPH fault is recorded
 * when any of 10:0 is set (what each bit selects is unknown); an engine
 * without an enable bit (PEEPHOLE, PFIFO, BAR, SEMAPHORE_BG, and PBSP on
 * G80, whose PBSP_ENABLE is G84:G98) is always recorded. */
#define EN_PGRAPH 0x7ffu
#define EN(b)     (1u << (b))
static const uint32_t fault_en_g80[16] = { EN_PGRAPH, EN(16), [7] = EN(17), [8] = EN(18) };
static const uint32_t fault_en_g84[16] = {
	EN_PGRAPH, EN(16), [7] = EN(17), [8] = EN(18), [9] = EN(19), [0xa] = EN(20), [0xb] = EN(21)
};
static const uint32_t fault_en_gt215[16] = {
	EN_PGRAPH, EN(16), [8] = EN(18), [9] = EN(19), [0xb] = EN(21), [0xd] = EN(11), [0xe] = EN(23)
};

#define N(t) (sizeof(t) / sizeof((t)[0]))

const struct g80vm_chip g80vm_g80 = { NVM_G80_GEN_G80, ctx_g80, N(ctx_g80), fault_en_g80 };
const struct g80vm_chip g80vm_g84 = { NVM_G80_GEN_G84, ctx_g84, N(ctx_g84), fault_en_g84 };
const struct g80vm_chip g80vm_gt215 = { NVM_G80_GEN_GT215, ctx_gt215, N(ctx_gt215), fault_en_gt215 };

/* ---------------------------------------------------------------- state */

static struct g80vm *vm_of(const nvm_gpu *gpu)
{
	return gpu ? (struct g80vm *)gpu_block(gpu, &g80vm_class) : NULL;
}

static nvm_g80_layout layout_of(struct g80vm *m)
{
	nvm_g80_layout l = { m->chip->gen, 0 };
	if (m->pd_offset)
		l.pd_offset = *m->pd_offset & ~7u; /* "low 3 bits ignored" */
	if (!l.pd_offset)
		l.pd_offset = m->chip->gen >= NVM_G80_GEN_G84 ? 0x200u : 0x1400u;
	return l;
}

/* ---------------------------------------------------------------- TLB */

/* Block sizes a contig block can have: 4 KiB .. 64 KiB pages << 0..7. */
#define MIN_BLOCK_SHIFT 12
#define MAX_BLOCK_SHIFT 23

static struct g80_tlb_ent *tlb_find(struct g80vm *m, unsigned engine, uint32_t chan, uint64_t virt)
{
	for (unsigned s = MIN_BLOCK_SHIFT; s <= MAX_BLOCK_SHIFT; s++) {
		uint64_t size = 1ull << s, base = virt & ~(size - 1);
		struct g80_tlb_ent *e =
		        tlbc_at(&m->tlb, tlbc_slot(&m->tlb, (uint64_t)engine << 32 | chan, base, size), false);
		if (e && e->h.valid && e->engine == engine && e->chan == chan && e->pt.vbase == base &&
		    e->pt.size == size)
			return e;
	}
	return NULL;
}

static void tlb_fill(struct g80vm *m, unsigned engine, uint32_t chan, const struct g80_pt_res *pt)
{
	struct g80_tlb_ent *e =
	        tlbc_fill(&m->tlb, tlbc_slot(&m->tlb, (uint64_t)engine << 32 | chan, pt->vbase, pt->size));
	if (!e)
		return;
	e->engine = engine;
	e->chan = chan;
	e->pt = *pt;
	m->stats.tlb_entries = m->tlb.nlive;
}

static void tlb_flush(struct g80vm *m, unsigned engine)
{
	for (size_t i = 0; i < m->tlb.nlive;) {
		const struct g80_tlb_ent *e = tlbc_live(&m->tlb, i);
		if (e->engine == engine)
			tlbc_drop(&m->tlb, i);
		else
			i++;
	}
	m->stats.flushes++;
	m->stats.tlb_entries = m->tlb.nlive;
}

static bool same_pt(const void *pa, const void *pb)
{
	const struct g80_pt_res *a = pa, *b = pb;
	return a->fault == b->fault && a->target == b->target && a->vbase == b->vbase && a->size == b->size &&
	       a->lin == b->lin && a->page_size == b->page_size && a->ro == b->ro &&
	       a->supervisor_only == b->supervisor_only && a->storage_type == b->storage_type && a->comp == b->comp &&
	       a->tag == b->tag && a->part_cycle == b->part_cycle && a->encrypted == b->encrypted;
}

/* ---------------------------------------------------------------- faults */

/* The trap words as nouveau's nv50 fb code reads them (UNVERIFIED beyond
 * the g80_pfb.xml register names: word 0 engine / reason / client / slot in
 * 4-bit fields, 8-bit on GT215; words 1-2 the channel in 16-bit halves;
 * words 3-5 the address 15:0, 31:16, 39:32 and bit 8 of word 5 set for a
 * read). */
static void trap_words(unsigned gen, const nvm_g80_fault_info *f, uint32_t t[NTRAP])
{
	unsigned w = gen >= NVM_G80_GEN_GT215 ? 8 : 4;
	uint32_t m = (1u << w) - 1;
	t[0] = (f->engine & m) | (f->reason & m) << w | (f->client & m) << 2 * w | (f->slot & m) << 3 * w;
	t[1] = f->chan & 0xffffu;
	t[2] = f->chan >> 16;
	t[3] = (uint32_t)(f->offset & 0xffffu);
	t[4] = (uint32_t)(f->offset >> 16 & 0xffffu);
	t[5] = (uint32_t)(f->offset >> 32 & 0xffu) | (f->write ? 0u : 0x100u);
}

/* Does VM_FAULT enable recording faults of this VM engine? UNVERIFIED: the
 * enables reset to 0 (nouveau's nv50_fb_init writes them: "needed to get
 * meaningful information from 100c90 on traps"); a filtered fault still
 * reaches the requesting engine (the NVM_EV_FAULT event). */
static bool fault_enabled(struct g80vm *m, unsigned engine)
{
	uint32_t en = m->chip->fault_en[engine & 0xfu];
	return !en || (bus_get(m->gpu, R_VM_FAULT) & en);
}

static void record_fault(struct g80vm *m, const nvm_g80_req *req, const nvm_g80_res *res)
{
	nvm_g80_fault_info f = { res->reason,      req->engine & 0xfu,      req->client & 0x1fu,
		                 req->slot & 0xfu, req->chan & 0x3fffffffu, req->offset & ((1ull << 40) - 1),
		                 req->write };
	m->stats.faults++;
	const char *name = nvm_g80_fault_name(f.reason);
	if (res->oob)
		emit(m->gpu, NVM_EV_GUEST_ERROR, "g80vm", "vm_out_of_range", req->offset, req->chan,
		     "a VM structure of channel 0x%08x lies outside memory (faulting as VRAM_LIMIT)", f.chan);
	emit_detail(m->gpu, NVM_EV_FAULT, "g80vm", name ? name : "fault", f.offset, f.reason, &f,
	            "VM fault %s at 0x%010llx, channel 0x%08x selector 0x%04x, engine %u client %u slot %u, %s",
	            name ? name : "?", (unsigned long long)f.offset, f.chan, req->selector & 0xffffu, f.engine,
	            f.client, f.slot, f.write ? "write" : "read");
	/* UNVERIFIED (after pscnv's nv50 VM notes, not a document): only the
	 * first fault is kept until software acknowledges it ("all but the first
	 * trap is lost"), and the VM raises no interrupt: the faulting engine
	 * does. The address recorded is the logical address of the request. */
	if (m->trap_pending || !fault_enabled(m, f.engine))
		return;
	trap_words(m->chip->gen, &f, m->trap);
	m->trap_pending = true;
}

/* ---------------------------------------------------------------- translation */

static void strict_check(struct g80vm *m, const nvm_g80_layout *lay, nvm_aperture cap, uint64_t cbase, uint64_t virt,
                         const struct g80_pt_res *cached)
{
	struct g80_pt_res fresh;
	g80_pt_walk(m->gpu, lay, cap, cbase, virt, &fresh, NULL);
	tlbc_strict_check(m->gpu, "g80vm", "a TLB flush", virt, cached->lin, cached, &fresh, same_pt);
}

static void translate(struct g80vm *m, const nvm_g80_req *req, nvm_g80_res *res)
{
	memset(res, 0, sizeof(*res));
	m->stats.translations++;
	nvm_aperture cap;
	uint64_t cbase, addr;
	nvm_g80_layout lay = layout_of(m);
	if (!g80_dmaobj_stage(m->gpu, req, res, &cap, &cbase, &addr, NULL)) {
		record_fault(m, req, res);
		return;
	}
	if (res->dmaobj.target != 0) {
		g80_finish(m->gpu, lay.gen, req, &res->dmaobj, addr, NULL, res);
	} else {
		uint64_t virt = addr & ((1ull << 40) - 1);
		unsigned eng = req->engine & 0xfu;
		uint32_t chan = req->chan & 0x3fffffffu;
		struct g80_pt_res pt;
		struct g80_tlb_ent *e = tlb_find(m, eng, chan, virt);
		if (e) {
			m->stats.tlb_hits++;
			pt = e->pt;
			res->tlb_hit = true;
			if (m->strict)
				strict_check(m, &lay, cap, cbase, virt, &pt);
		} else {
			m->stats.walks++;
			g80_pt_walk(m->gpu, &lay, cap, cbase, virt, &pt, NULL);
			if (!pt.fault)
				tlb_fill(m, eng, chan, &pt);
		}
		if (pt.fault) {
			res->paged = true;
			res->virt = virt;
			res->oob = pt.oob;
			res->fault = pt.fault;
			res->reason = NVM_G80_FAULT_REASON(pt.fault);
		} else {
			g80_finish(m->gpu, lay.gen, req, &res->dmaobj, addr, &pt, res);
		}
	}
	if (res->fault)
		record_fault(m, req, res);
}

nvm_status nvm_g80_translate(nvm_gpu *gpu, const nvm_g80_req *req, nvm_g80_res *res)
{
	struct g80vm *m = vm_of(gpu);
	if (!gpu || !req || !res)
		return NVM_ERR_ARG;
	if (!m)
		return NVM_ERR_NOENT;
	api_enter(gpu);
	translate(m, req, res);
	api_leave(gpu);
	return res->fault ? NVM_ERR_FAULT : NVM_OK;
}

/* At most len bytes up to the next 4 KiB boundary of both a and b: a piece
 * that never leaves a page or the memory (whose size is a multiple of
 * 4 KiB). */
static size_t piece(uint64_t a, uint64_t b, size_t len)
{
	size_t n = (size_t)(0x1000 - (a & 0xfff)), n2 = (size_t)(0x1000 - (b & 0xfff));
	if (n2 < n)
		n = n2;
	return n < len ? n : len;
}

/* Page by page, in pieces of both the logical and the linear pages. */
static nvm_status access(struct g80vm *m, const nvm_g80_req *req, uint8_t *p, size_t len, bool write, nvm_g80_res *out)
{
	nvm_g80_req r = *req;
	r.write = write;
	nvm_g80_res res;
	memset(&res, 0, sizeof(res));
	while (len && !m->gpu->closing) {
		translate(m, &r, &res);
		if (res.fault) {
			if (out)
				*out = res;
			return NVM_ERR_FAULT;
		}
		size_t n = piece(res.addr, res.virt, len);
		nvm_status st = write ? mem_write(&m->gpu->mem[res.ap], res.addr, p, n)
		                      : mem_read(&m->gpu->mem[res.ap], res.addr, p, n);
		if (st)
			return st;
		sched_charge(m->gpu, 1);
		p += n;
		len -= n;
		r.offset += n;
	}
	if (out)
		*out = res;
	return NVM_OK;
}

static nvm_status copy(nvm_gpu *gpu, const nvm_g80_req *req, void *buf, size_t len, bool write, nvm_g80_res *res)
{
	struct g80vm *m = vm_of(gpu);
	if (!gpu || !req || (!buf && len))
		return NVM_ERR_ARG;
	if (!m)
		return NVM_ERR_NOENT;
	api_enter(gpu);
	nvm_status st = access(m, req, buf, len, write, res);
	api_leave(gpu);
	return st;
}

nvm_status nvm_g80_read(nvm_gpu *gpu, const nvm_g80_req *req, void *buf, size_t len, nvm_g80_res *res)
{
	return copy(gpu, req, buf, len, false, res);
}

nvm_status nvm_g80_write(nvm_gpu *gpu, const nvm_g80_req *req, const void *buf, size_t len, nvm_g80_res *res)
{
	return copy(gpu, req, (void *)(uintptr_t)buf, len, true, res);
}

/* ---------------------------------------------------------------- registers */

void g80vm_flush_done(nvm_gpu *gpu, void *ctx, uint64_t engine)
{
	(void)gpu;
	struct g80vm *m = ctx;
	tlb_flush(m, (unsigned)engine);
	if (m->flushes_in_flight && !--m->flushes_in_flight)
		bus_set(m->gpu, R_TLB_FLUSH, bus_get(m->gpu, R_TLB_FLUSH) & ~1u);
}

/* "writing engine << 16 | 1 to this register and waiting until bit 0
 * becomes 0". */
static void wr_tlb_flush(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	struct g80vm *m = ctx;
	if (!FIELD_GET(written, 0, 0)) {
		*stored = (*stored & ~1u) | (old & 1u); /* the trigger is not cleared by software */
		return;
	}
	unsigned engine = FIELD_GET(written, 19, 16);
	if (!sched_at(m->gpu, m->gpu->now + FLUSH_NS, g80vm_flush_done, m, engine, 0)) {
		tlb_flush(m, engine); /* out of memory: flush at once */
		*stored &= ~1u;
		return;
	}
	m->flushes_in_flight++;
}

static uint32_t rd_vm_fault(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	struct g80vm *m = ctx;
	return (stored & 0x7fffffffu) | (m->trap_pending ? 0x80000000u : 0u);
}

/* PENDING (31) is cleared by writing 1, as nouveau acknowledges a trap. */
static void wr_vm_fault(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)old;
	struct g80vm *m = ctx;
	if (FIELD_GET(written, 31, 31))
		m->trap_pending = false;
	*stored &= 0x7fffffffu;
}

static uint32_t rd_vm_data(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	struct g80vm *m = ctx;
	unsigned i = FIELD_GET(bus_get(m->gpu, R_VM_FAULT), 26, 24); /* INDEX */
	return i < NTRAP ? m->trap[i] : 0;
}

/* HOST_MEM CHAN: bit 30 WHICH selects the latch the channel goes to
 * (0 PEEPHOLE, 1 BAR). UNVERIFIED: reads return the last value written. */
static void wr_host_chan(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	struct g80vm *m = ctx;
	if (FIELD_GET(written, 30, 30))
		m->bar_chan = FIELD_GET(written, 29, 0);
	else
		m->peephole_chan = FIELD_GET(written, 29, 0);
}

/* The last row, PD_OFFSET, is G84+ only. UNVERIFIED: it resets to 0x200,
 * the page-directory offset of the G84+ channel structure. */
static const struct reg_desc mmu_regs[] = {
	{ R_TLB_FLUSH, "G80_PFB_MMU_TLB_FLUSH", 0, 0x000f0001u, 0, NULL, wr_tlb_flush },
	{ R_VM_FAULT, "G80_PFB_MMU_VM_FAULT", 0, 0x1fffffffu, 0, rd_vm_fault, wr_vm_fault },
	{ R_VM_DATA, "G80_PFB_MMU_VM_FAULT_DATA", 0, 0, 0, rd_vm_data, NULL },
	{ R_MMU_CG, "G80_PFB_MMU_CG", 0, 0xffffffffu, 0, NULL, NULL },
	{ R_PD_OFFSET, "G80_PFB_MMU_PD_OFFSET", 0x200, 0xffffffffu, 0, NULL, NULL },
};

static const struct reg_desc host_mem_regs[] = {
	{ R_PMEM, "G80_PBUS_HOST_MEM_PMEM", 0, 0x03ffffffu, 0, NULL, NULL },
	{ R_HOST_CH, "G80_PBUS_HOST_MEM_CHAN", 0, 0x7fffffffu, 0, NULL, wr_host_chan },
	{ R_BAR1, "G80_PBUS_HOST_MEM_BAR1", 0, 0x8000ffffu, 0, NULL, NULL },
	{ R_BAR3, "G80_PBUS_HOST_MEM_BAR3", 0, 0x8000ffffu, 0, NULL, NULL },
	{ R_PEEPHOLE, "G80_PBUS_HOST_MEM_PEEPHOLE", 0, 0x8000ffffu, 0, NULL, NULL },
};

/* ---------------------------------------------------------------- PMEM */

/* The PMEM window (pbus.xml HOST_MEM PMEM: "the 1MB PMEM window at
 * 0x700000 ... always unpaged and goes directly to VRAM / sysRAM"): BAR0
 * 0x700000 + off reaches linear address (OFFSET 23:0 << 16) + off in TARGET
 * 25:24. VRAM linear addresses keep 32 bits (seed 002). False for the
 * invalid target 1. */
static bool pmem_where(struct g80vm *m, uint32_t addr, nvm_aperture *ap, uint64_t *lin)
{
	uint32_t r = bus_get(m->gpu, R_PMEM);
	if (!g80_target_ap(FIELD_GET(r, 25, 24), ap))
		return false;
	*lin = ((uint64_t)FIELD_GET(r, 23, 0) << 16) + (addr - PMEM_WIN);
	if (*ap == NVM_AP_VRAM)
		*lin &= 0xffffffffu;
	return true;
}

/* UNVERIFIED: a PMEM access with TARGET 1 or past the end of memory reads 0
 * and drops writes (with a guest_error event). */
static bool pmem_rd(void *ctx, uint32_t addr, uint32_t *val)
{
	struct g80vm *m = ctx;
	nvm_aperture ap;
	uint64_t lin = 0;
	*val = 0;
	if (!pmem_where(m, addr, &ap, &lin) || !g80_rd32(m->gpu, ap, lin, val))
		emit(m->gpu, NVM_EV_GUEST_ERROR, "g80vm", "pmem_range", addr, lin,
		     "PMEM read at 0x%06x (linear 0x%llx, PMEM 0x%08x) outside memory or with target 1: reads 0", addr,
		     (unsigned long long)lin, bus_get(m->gpu, R_PMEM));
	return true;
}

static bool pmem_wr(void *ctx, uint32_t addr, uint32_t val)
{
	struct g80vm *m = ctx;
	nvm_aperture ap;
	uint64_t lin = 0;
	uint8_t b[4] = { (uint8_t)val, (uint8_t)(val >> 8), (uint8_t)(val >> 16), (uint8_t)(val >> 24) };
	if (!pmem_where(m, addr, &ap, &lin) || mem_write(&m->gpu->mem[ap], lin, b, 4))
		emit(m->gpu, NVM_EV_GUEST_ERROR, "g80vm", "pmem_range", addr, lin,
		     "PMEM write at 0x%06x (linear 0x%llx, PMEM 0x%08x) outside memory or with target 1: dropped", addr,
		     (unsigned long long)lin, bus_get(m->gpu, R_PMEM));
	return true;
}

/* ---------------------------------------------------------------- BARs */

/* A CPU access through a HOST_MEM DMA object register (BAR1, BAR3,
 * PEEPHOLE; pbus.xml HOST_MEM): with MODE (31) DMAOBJ the offset is a logical
 * address of the object INST 15:0 << 4 of channel chan, translated as VM
 * engine `engine`, client 4 (write) or 8 (read), DMA slot `slot`; a VM fault
 * is reported through the core's CPU-fault port (kind; the G80 PFIFO
 * listens). UNVERIFIED: these are supervisor accesses. */
static void host_translate(struct g80vm *m, uint32_t reg, uint32_t chan, unsigned engine, unsigned slot, uint64_t off,
                           bool write, enum cpu_fault kind, nvm_g80_res *res)
{
	uint32_t v = bus_get(m->gpu, reg);
	if (!FIELD_GET(v, 31, 31)) {
		/* MODE VRAM: the BAR maps VRAM directly ("BAR addresses map
		 * directly to VRAM addresses" with BAR1 VM disabled, bars.rst);
		 * UNVERIFIED: for BAR3 and PEEPHOLE too, and offsets beyond VRAM
		 * fault as VRAM_LIMIT (nothing is recorded in the trap registers). */
		memset(res, 0, sizeof(*res));
		res->ap = NVM_AP_VRAM;
		res->addr = res->virt = off;
		res->page_size = res->block = 0x1000;
		if (off >= nvm_mem_size(m->gpu, NVM_AP_VRAM)) {
			res->fault = NVM_G80_FAULT_VRAM_LIMIT;
			res->reason = NVM_G80_FAULT_REASON(res->fault);
		}
		return;
	}
	nvm_g80_req req = { chan,
		            FIELD_GET(v, 15, 0),
		            off,
		            engine,
		            write ? NVM_G80_CLIENT_PFIFO_WRITE : NVM_G80_CLIENT_PFIFO_READ,
		            slot,
		            write,
		            true };
	translate(m, &req, res);
	/* UNVERIFIED: every faulting access sets its PFIFO INTR bit (rnndb
	 * names BAR_FAULT / PEEPHOLE_FAULT only). */
	if (res->fault)
		port_cpu_fault(m->gpu, kind);
}

nvm_status nvm_g80_bar_translate(nvm_gpu *gpu, int bar, uint64_t off, bool write, nvm_g80_res *res)
{
	struct g80vm *m = vm_of(gpu);
	if (!gpu || !res || (bar != 1 && bar != 3))
		return NVM_ERR_ARG;
	if (!m)
		return NVM_ERR_NOENT;
	api_enter(gpu);
	/* BAR: VM engine 6, slot 0 (BAR1) or 1 (BAR3), seed 002 "VM users". */
	host_translate(m, bar == 1 ? R_BAR1 : R_BAR3, m->bar_chan, NVM_G80_ENG_BAR, bar == 1 ? 0u : 1u, off, write,
	               CPU_FAULT_BAR, res);
	api_leave(gpu);
	return res->fault ? NVM_ERR_FAULT : NVM_OK;
}

static nvm_status bar_pages(nvm_gpu *gpu, int bar, uint64_t off, uint8_t *p, size_t len, bool write)
{
	while (len && !gpu->closing) {
		nvm_g80_res r;
		nvm_status st = nvm_g80_bar_translate(gpu, bar, off, write, &r);
		if (st) /* NVM_ERR_FAULT on a fault */
			return st;
		size_t n = piece(r.addr, off, len);
		st = write ? nvm_mem_write(gpu, r.ap, r.addr, p, n) : nvm_mem_read(gpu, r.ap, r.addr, p, n);
		if (st)
			return st;
		p += n;
		off += n;
		len -= n;
	}
	return NVM_OK;
}

static nvm_status bar_copy(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len, bool write)
{
	if (!gpu || (!buf && len))
		return NVM_ERR_ARG;
	api_enter(gpu);
	nvm_status st = bar_pages(gpu, bar, off, buf, len, write);
	api_leave(gpu);
	return st;
}

nvm_status nvm_g80_bar_read(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len)
{
	return bar_copy(gpu, bar, off, buf, len, false);
}

nvm_status nvm_g80_bar_write(nvm_gpu *gpu, int bar, uint64_t off, const void *buf, size_t len)
{
	return bar_copy(gpu, bar, off, (void *)(uintptr_t)buf, len, true);
}

/* ---------------------------------------------------------------- PEEPHOLE */

/* peephole.rst: a write port (W_ADDR, W_DATA, W_CTRL) and a read-write port
 * (RW_ADDR, RW_DATA) reaching memory 4 bytes at a time through the PEEPHOLE
 * DMA object (HOST_MEM PEEPHOLE 0x1710) of the PEEPHOLE channel (HOST_MEM
 * CHAN with WHICH 0), as VM engine 4, client 4 / 8, slot 0 (seed 002 "VM
 * users"). The port registers are at 0x1560 on G80 (NV30:G84) and in the
 * PPEEPHOLE range 0x60000 on G84+, at the same offsets; W_CTRL stays at
 * 0x155c. */
#define R_PH_W_CTRL  0x155cu
#define R_PH_G80     0x1560u
#define R_PH_G84     0x60000u
#define PH_W_ADDR    0x00u
#define PH_W_DATA    0x04u
#define PH_RW_ADDR   0x10u
#define PH_RW_DATA   0x14u
#define W_ADDR_VALID (1u << 0) /* W_CTRL PAIR_ADDR_VALID */
#define W_DATA_VALID (1u << 1) /* W_CTRL PAIR_DATA_VALID */
#define W_FREEFORM   (1u << 8) /* W_CTRL MODE */

/* One 32-bit access at addr ("only bits 2-31 are valid"). UNVERIFIED: a
 * faulting read returns 0 and a faulting write is dropped (besides the VM
 * fault and PFIFO INTR PEEPHOLE_FAULT). */
static uint32_t ph_access(struct g80vm *m, uint32_t addr, bool write, uint32_t val)
{
	nvm_g80_res res;
	uint8_t b[4] = { (uint8_t)val, (uint8_t)(val >> 8), (uint8_t)(val >> 16), (uint8_t)(val >> 24) };
	host_translate(m, R_PEEPHOLE, m->peephole_chan, NVM_G80_ENG_PEEPHOLE, 0, addr & ~3u, write, CPU_FAULT_PEEPHOLE,
	               &res);
	sched_charge(m->gpu, 1);
	if (res.fault)
		return 0;
	nvm_status st = write ? mem_write(&m->gpu->mem[res.ap], res.addr, b, 4)
	                      : mem_read(&m->gpu->mem[res.ap], res.addr, b, 4);
	if (st || write)
		return 0;
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void ph_mismatch(struct g80vm *m, uint32_t reg)
{
	/* UNVERIFIED: PBUS INTR (PEEPHOLE_W_PAIR_MISMATCH, bit 12) is not
	 * modelled; the mismatch is a guest error and the write is lost. */
	emit(m->gpu, NVM_EV_GUEST_ERROR, "g80vm", "peephole_pair_mismatch", reg, bus_get(m->gpu, R_PH_W_CTRL),
	     "PEEPHOLE write port: a second %s write in paired mode (PBUS INTR PEEPHOLE_W_PAIR_MISMATCH)",
	     reg == m->ph_base + PH_W_ADDR ? "address" : "data");
}

/* The write port as peephole.rst's pseudocode for W_ADDR and W_DATA writes:
 * in PAIR mode the second write of an address/data pair performs the memory
 * write, a repeated one is a mismatch; in FREEFORM mode every data write
 * does. */
static void wr_ph_w(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)stored;
	(void)old;
	(void)written;
	struct g80vm *m = ctx;
	bool data = r->offset - m->ph_base == PH_W_DATA;
	uint32_t ctrl = bus_get(m->gpu, R_PH_W_CTRL);
	uint32_t mine = data ? W_DATA_VALID : W_ADDR_VALID, other = data ? W_ADDR_VALID : W_DATA_VALID;
	uint32_t addr = bus_get(m->gpu, m->ph_base + PH_W_ADDR), val = bus_get(m->gpu, m->ph_base + PH_W_DATA);
	if (ctrl & W_FREEFORM) {
		if (data)
			ph_access(m, addr, true, val);
	} else if (ctrl & mine) {
		ph_mismatch(m, r->offset);
	} else if (ctrl & other) {
		ph_access(m, addr, true, val);
		bus_set(m->gpu, R_PH_W_CTRL, ctrl & ~other);
	} else {
		bus_set(m->gpu, R_PH_W_CTRL, ctrl | mine);
	}
}

/* "All accesses to the data register are translated to equivalent memory
 * accesses at the address selected by the address register, and cause the
 * address register to auto-increment by 4." */
static uint32_t ph_rw_step(struct g80vm *m, bool write, uint32_t val)
{
	uint32_t *a = bus_reg(m->gpu, m->ph_base + PH_RW_ADDR);
	uint32_t addr = *a;
	*a = addr + 4;
	return ph_access(m, addr, write, val);
}

static uint32_t rd_ph_rw(void *ctx, const struct reg_desc *r, uint32_t stored)
{
	(void)r;
	(void)stored;
	return ph_rw_step(ctx, false, 0);
}

static void wr_ph_rw(void *ctx, const struct reg_desc *r, uint32_t *stored, uint32_t old, uint32_t written)
{
	(void)r;
	(void)stored;
	(void)old;
	ph_rw_step(ctx, true, written);
}

/* W_DATA "is actually RW, and a read will return the last written value". */
static const struct reg_desc ph_ctrl_regs[] = {
	{ R_PH_W_CTRL, "G80_PBUS_PEEPHOLE_W_CTRL", 0, 0x103u, 0, NULL, NULL },
};
static const struct reg_desc ph_g80_regs[] = {
	{ R_PH_G80 + PH_W_ADDR, "G80_PBUS_PEEPHOLE_W_ADDR", 0, 0xfffffffcu, 0, NULL, wr_ph_w },
	{ R_PH_G80 + PH_W_DATA, "G80_PBUS_PEEPHOLE_W_DATA", 0, 0xffffffffu, 0, NULL, wr_ph_w },
	{ R_PH_G80 + PH_RW_ADDR, "G80_PBUS_PEEPHOLE_RW_ADDR", 0, 0xfffffffcu, 0, NULL, NULL },
	{ R_PH_G80 + PH_RW_DATA, "G80_PBUS_PEEPHOLE_RW_DATA", 0, 0xffffffffu, 0, rd_ph_rw, wr_ph_rw },
};
static const struct reg_desc ph_g84_regs[] = {
	{ R_PH_G84 + PH_W_ADDR, "G84_PPEEPHOLE_W_ADDR", 0, 0xfffffffcu, 0, NULL, wr_ph_w },
	{ R_PH_G84 + PH_W_DATA, "G84_PPEEPHOLE_W_DATA", 0, 0xffffffffu, 0, NULL, wr_ph_w },
	{ R_PH_G84 + PH_RW_ADDR, "G84_PPEEPHOLE_RW_ADDR_LOW", 0, 0xfffffffcu, 0, NULL, NULL },
	{ R_PH_G84 + PH_RW_DATA, "G84_PPEEPHOLE_RW_DATA", 0, 0xffffffffu, 0, rd_ph_rw, wr_ph_rw },
};

static nvm_status ph_add(struct g80vm *m, bool g84)
{
	m->ph_base = g84 ? R_PH_G84 : R_PH_G80;
	nvm_status st = bus_add(m->gpu, &(struct reg_block){ .name = "peephole",
	                                                     .base = R_PH_W_CTRL,
	                                                     .size = 4,
	                                                     .regs = ph_ctrl_regs,
	                                                     .nregs = N(ph_ctrl_regs),
	                                                     .ctx = m });
	if (!st)
		st = bus_add(m->gpu, &(struct reg_block){ .name = "peephole",
		                                          .base = m->ph_base,
		                                          .size = g84 ? 0x1000u : 0x18u,
		                                          .regs = g84 ? ph_g84_regs : ph_g80_regs,
		                                          .nregs = 4,
		                                          .ctx = m });
	return st;
}

/* ---------------------------------------------------------------- misc API */

nvm_status nvm_g80_tlb_flush(nvm_gpu *gpu, unsigned engine)
{
	struct g80vm *m = vm_of(gpu);
	if (!m)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	if (engine > 0xf)
		return NVM_ERR_ARG;
	tlb_flush(m, engine);
	return NVM_OK;
}

nvm_status nvm_g80_set_strict_tlb(nvm_gpu *gpu, bool on)
{
	struct g80vm *m = vm_of(gpu);
	if (!m)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	m->strict = on != 0;
	return NVM_OK;
}

nvm_status nvm_g80_get_stats(const nvm_gpu *gpu, nvm_g80_stats *out)
{
	struct g80vm *m = vm_of(gpu);
	if (!out)
		return NVM_ERR_ARG;
	if (!m)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	*out = m->stats;
	return NVM_OK;
}

nvm_status nvm_g80_chip_layout(const nvm_gpu *gpu, nvm_g80_layout *out)
{
	struct g80vm *m = vm_of(gpu);
	if (!out)
		return NVM_ERR_ARG;
	if (!m)
		return gpu ? NVM_ERR_NOENT : NVM_ERR_ARG;
	*out = layout_of(m);
	return NVM_OK;
}

size_t nvm_g80_ctx_selectors(const nvm_gpu *gpu, const nvm_g80_ctxsel **out)
{
	struct g80vm *m = vm_of(gpu);
	if (out)
		*out = m ? m->chip->ctx : NULL;
	return m ? m->chip->nctx : 0;
}

/* ---------------------------------------------------------------- block */

static nvm_status g80vm_create(nvm_gpu *gpu, const void *data, void **state)
{
	struct g80vm *m = calloc(1, sizeof(*m));
	if (!m)
		return NVM_ERR_NOMEM;
	m->gpu = gpu;
	m->chip = data ? data : &g80vm_g80;
	tlbc_init(&m->tlb, TLB_SLOTS, sizeof(struct g80_tlb_ent));
	*state = m;
	bool g84 = m->chip->gen >= NVM_G80_GEN_G84;
	nvm_status st = bus_add(gpu, &(struct reg_block){ .name = "g80vm",
	                                                  .base = R_TLB_FLUSH,
	                                                  .size = 0x20,
	                                                  .regs = mmu_regs,
	                                                  .nregs = N(mmu_regs) - (g84 ? 0 : 1),
	                                                  .ctx = m });
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "g80vm",
		                                       .base = R_PMEM,
		                                       .size = 0x14,
		                                       .regs = host_mem_regs,
		                                       .nregs = N(host_mem_regs),
		                                       .ctx = m });
	if (!st)
		st = bus_add(gpu, &(struct reg_block){ .name = "pmem",
		                                       .base = PMEM_WIN,
		                                       .size = PMEM_SIZE,
		                                       .ctx = m,
		                                       .win_read = pmem_rd,
		                                       .win_write = pmem_wr });
	if (!st)
		st = ph_add(m, g84);
	if (st) {
		tlbc_fini(&m->tlb);
		free(m);
		*state = NULL;
		return st;
	}
	if (g84)
		m->pd_offset = bus_reg(gpu, R_PD_OFFSET);
	return st;
}

static void g80vm_destroy(nvm_gpu *gpu, void *state)
{
	(void)gpu;
	struct g80vm *m = state;
	if (!m)
		return;
	tlbc_fini(&m->tlb);
	free(m);
}

static bool g80vm_busy(void *state)
{
	return ((struct g80vm *)state)->flushes_in_flight != 0;
}

const struct block_class g80vm_class = {
	.name = "g80vm",
	.create = g80vm_create,
	.destroy = g80vm_destroy,
	.busy = g80vm_busy,
	.snap = &g80vm_snap,
};
