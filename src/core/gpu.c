/*
 * The GPU object: open/close, the blocks of a chip row, ports, memory access
 * by aperture, hooks and events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core.h"

const char *nvm_version(void)
{
#define STR2(x) #x
#define STR(x)  STR2(x)
	return STR(NVM_VERSION_MAJOR) "." STR(NVM_VERSION_MINOR) "." STR(NVM_VERSION_PATCH);
}

const char *nvm_status_str(nvm_status st)
{
	static const char *const names[] = {
		[NVM_OK] = "ok",
		[NVM_ERR_ARG] = "invalid argument",
		[NVM_ERR_CHIP] = "unknown chip",
		[NVM_ERR_RANGE] = "address out of range",
		[NVM_ERR_NOMEM] = "out of memory",
		[NVM_ERR_APERTURE] = "unknown aperture",
		[NVM_ERR_ALIGN] = "misaligned address",
		[NVM_ERR_NOENT] = "not found",
		[NVM_ERR_BLOCKED] = "blocked by a framebuffer pause",
		[NVM_ERR_FAULT] = "memory fault",
		[NVM_ERR_NOPTR] = "caller memory behind callbacks (no pointer)",
		[NVM_ERR_BUSY] = "not allowed inside a library call",
		[NVM_ERR_FULL] = "no room left",
		[NVM_ERR_VERSION] = "snapshot of another format or version",
		[NVM_ERR_CORRUPT] = "snapshot truncated or corrupted",
	};
	if ((unsigned)st < sizeof(names) / sizeof(names[0]) && names[st])
		return names[st];
	return "unknown status";
}

/* ---------------------------------------------------------------- events */

const char *nvm_event_type_name(nvm_event_type t)
{
	static const char *const names[NVM_EV_COUNT] = {
		[NVM_EV_GUEST_ERROR] = "guest_error",
		[NVM_EV_UNMODELLED] = "unmodelled",
		[NVM_EV_INTERRUPT] = "interrupt",
		[NVM_EV_FAULT] = "fault",
		[NVM_EV_METHOD] = "method",
		[NVM_EV_MMIO] = "mmio",
		[NVM_EV_TRACE] = "trace",
	};
	return (unsigned)t < NVM_EV_COUNT ? names[t] : NULL;
}

static void deliver(nvm_gpu *gpu, nvm_event_type type, const char *block, const char *code, uint64_t addr,
                    uint64_t value, const void *detail, const char *fmt, va_list ap)
{
	char msg[256];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	nvm_event ev = { type, gpu->now, block, code, addr, value, msg, detail };
	/* Hooks may add or remove hooks: iterate over a snapshot. A hook that
	 * closes the GPU ends the delivery (the depth keeps the memory alive). */
	struct hook snap[NVM_MAX_HOOKS];
	size_t n = gpu->nhooks;
	memcpy(snap, gpu->hooks, n * sizeof(snap[0]));
	gpu->depth++;
	for (size_t i = 0; i < n && !gpu->closing; i++)
		if (snap[i].mask & NVM_EV_MASK(type))
			snap[i].fn(snap[i].user, &ev);
	gpu->depth--;
}

void emit(nvm_gpu *gpu, nvm_event_type type, const char *block, const char *code, uint64_t addr, uint64_t value,
          const char *fmt, ...)
{
	gpu->ev_count[type]++;
	if (!emit_wanted(gpu, type) || gpu->closing)
		return;
	va_list ap;
	va_start(ap, fmt);
	deliver(gpu, type, block, code, addr, value, NULL, fmt, ap);
	va_end(ap);
}

void emit_detail(nvm_gpu *gpu, nvm_event_type type, const char *block, const char *code, uint64_t addr, uint64_t value,
                 const void *detail, const char *fmt, ...)
{
	gpu->ev_count[type]++;
	if (!emit_wanted(gpu, type) || gpu->closing)
		return;
	va_list ap;
	va_start(ap, fmt);
	deliver(gpu, type, block, code, addr, value, detail, fmt, ap);
	va_end(ap);
}

static void recompute_hook_mask(nvm_gpu *gpu)
{
	unsigned m = 0;
	for (size_t i = 0; i < gpu->nhooks; i++)
		m |= gpu->hooks[i].mask;
	gpu->hook_mask = m;
}

nvm_status nvm_hook_add(nvm_gpu *gpu, unsigned mask, nvm_hook_fn fn, void *user, int *id)
{
	if (!gpu || !fn || !(mask & NVM_EV_ALL))
		return NVM_ERR_ARG;
	if (gpu->nhooks == NVM_MAX_HOOKS)
		return NVM_ERR_NOMEM;
	struct hook *h = &gpu->hooks[gpu->nhooks++];
	h->id = ++gpu->next_hook_id;
	h->mask = mask & NVM_EV_ALL;
	h->fn = fn;
	h->user = user;
	recompute_hook_mask(gpu);
	if (id)
		*id = h->id;
	return NVM_OK;
}

nvm_status nvm_hook_del(nvm_gpu *gpu, int id)
{
	if (!gpu)
		return NVM_ERR_ARG;
	for (size_t i = 0; i < gpu->nhooks; i++) {
		if (gpu->hooks[i].id == id) {
			memmove(&gpu->hooks[i], &gpu->hooks[i + 1], (gpu->nhooks - i - 1) * sizeof(gpu->hooks[0]));
			gpu->nhooks--;
			recompute_hook_mask(gpu);
			return NVM_OK;
		}
	}
	return NVM_ERR_NOENT;
}

uint64_t nvm_event_count(const nvm_gpu *gpu, nvm_event_type t)
{
	return gpu && (unsigned)t < NVM_EV_COUNT ? gpu->ev_count[t] : 0;
}

/* ---------------------------------------------------------------- open/close */

static void gpu_free(nvm_gpu *gpu);

nvm_status gpu_open(const struct chip *chip, const nvm_config *cfg, nvm_gpu **out)
{
	uint64_t vram = cfg->vram_size ? cfg->vram_size : chip->info.vram_max;
	uint64_t sys = cfg->sysmem_size ? cfg->sysmem_size : chip->info.sysmem_max;
	if (vram > chip->info.vram_max || sys > chip->info.sysmem_max)
		return NVM_ERR_RANGE;
	if ((vram | sys) & (NVM_PAGE_SIZE - 1))
		return NVM_ERR_ALIGN;
	nvm_gpu *gpu = calloc(1, sizeof(*gpu));
	if (!gpu)
		return NVM_ERR_NOMEM;
	gpu->chip = chip;
	uint64_t *used = cfg->mem_pool ? &cfg->mem_pool->used : &gpu->mem_used;
	uint64_t budget = cfg->mem_pool ? cfg->mem_pool->budget : cfg->mem_budget;
	mem_init(&gpu->mem[NVM_AP_VRAM], vram, used, budget);
	mem_init(&gpu->mem[NVM_AP_SYSMEM], sys, used, budget);
	nvm_status st = pmc_init(gpu);
	if (!st)
		st = ptimer_init(gpu);
	for (size_t i = 0; !st && i < CHIP_MAX_BLOCKS && chip->blocks[i].cls; i++) {
		const struct block_class *c = chip->blocks[i].cls;
		if (c->create)
			st = c->create(gpu, chip->blocks[i].data, &gpu->blk[i]);
		if (st)
			gpu->blk[i] = NULL; /* only blocks that were created are destroyed */
	}
	if (st) {
		gpu_free(gpu);
		return st;
	}
	*out = gpu;
	return NVM_OK;
}

/* Blocks are destroyed in reverse row order. */
static void gpu_free(nvm_gpu *gpu)
{
	const struct chip *chip = gpu->chip;
	for (size_t i = CHIP_MAX_BLOCKS; i-- > 0;)
		if (chip->blocks[i].cls && gpu->blk[i] && chip->blocks[i].cls->destroy)
			chip->blocks[i].cls->destroy(gpu, gpu->blk[i]);
	ptimer_fini(gpu);
	for (int i = 0; i < NVM_AP_COUNT; i++)
		mem_fini(&gpu->mem[i]);
	bus_fini(&gpu->bus);
	sched_fini(&gpu->sched);
	free(gpu);
}

void nvm_close(nvm_gpu *gpu)
{
	if (!gpu || gpu->closing)
		return;
	if (gpu->depth) {
		/* From a hook: library frames below still use the GPU. */
		gpu->closing = true;
		gpu->stop = true;
		return;
	}
	gpu_free(gpu);
}

void api_leave(nvm_gpu *gpu)
{
	if (--gpu->depth == 0 && gpu->closing)
		gpu_free(gpu);
}

const nvm_chip_info *nvm_gpu_chip(const nvm_gpu *gpu)
{
	return gpu ? &gpu->chip->info : NULL;
}

/* ---------------------------------------------------------------- blocks */

const void *chip_data(const struct chip *chip, const struct block_class *cls)
{
	for (size_t i = 0; i < CHIP_MAX_BLOCKS && chip->blocks[i].cls; i++)
		if (chip->blocks[i].cls == cls)
			return chip->blocks[i].data;
	return NULL;
}

/* ---------------------------------------------------------------- ports */

void port_cpu_fault_connect(nvm_gpu *gpu, cpu_fault_fn fn, void *ctx)
{
	gpu->cpu_fault.fn = fn;
	gpu->cpu_fault.ctx = ctx;
}

void port_cpu_fault(nvm_gpu *gpu, enum cpu_fault kind)
{
	if (gpu->cpu_fault.fn)
		gpu->cpu_fault.fn(gpu->cpu_fault.ctx, kind);
}

void port_pmc_enable_connect(nvm_gpu *gpu, pmc_enable_fn fn, void *ctx)
{
	gpu->pmc_enable.fn = fn;
	gpu->pmc_enable.ctx = ctx;
}

void port_pmc_enable(nvm_gpu *gpu, uint32_t old, uint32_t val)
{
	if (gpu->pmc_enable.fn)
		gpu->pmc_enable.fn(gpu->pmc_enable.ctx, old, val);
}

/* ---------------------------------------------------------------- memory */

nvm_status nvm_aperture_parse(const char *name, nvm_aperture *out)
{
	static const struct {
		const char *name;
		nvm_aperture ap;
	} names[] = {
		{ "vram", NVM_AP_VRAM },  { "vid", NVM_AP_VRAM },          { "sysmem", NVM_AP_SYSMEM },
		{ "sys", NVM_AP_SYSMEM }, { "sysmem_coh", NVM_AP_SYSMEM }, { "sysmem_ncoh", NVM_AP_SYSMEM },
	};
	if (!name || !out)
		return NVM_ERR_ARG;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcasecmp(name, names[i].name)) {
			*out = names[i].ap;
			return NVM_OK;
		}
	}
	return NVM_ERR_APERTURE;
}

const char *nvm_aperture_name(nvm_aperture ap)
{
	return ap == NVM_AP_VRAM ? "vram" : ap == NVM_AP_SYSMEM ? "sysmem" : NULL;
}

nvm_status hold_check(nvm_gpu *gpu, unsigned what, const char *kind, uint64_t addr)
{
	if (!(gpu->hold & what))
		return NVM_OK;
	emit(gpu, NVM_EV_GUEST_ERROR, "hwsq", "blocked", addr, 0,
	     "host %s access at 0x%llx held by the framebuffer pause: not done", kind, (unsigned long long)addr);
	return NVM_ERR_BLOCKED;
}

static struct mem_space *aperture(nvm_gpu *gpu, nvm_aperture ap)
{
	return gpu && (unsigned)ap < NVM_AP_COUNT ? &gpu->mem[ap] : NULL;
}

uint64_t nvm_mem_size(const nvm_gpu *gpu, nvm_aperture ap)
{
	return gpu && (unsigned)ap < NVM_AP_COUNT ? gpu->mem[ap].size : 0;
}

uint64_t nvm_mem_pages(const nvm_gpu *gpu, nvm_aperture ap)
{
	return gpu && (unsigned)ap < NVM_AP_COUNT ? gpu->mem[ap].pages : 0;
}

/* The checks every host memory access makes before touching an aperture:
 * arguments, and an FB pause holding host accesses. */
static nvm_status host_access(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, const void *buf, size_t len,
                              struct mem_space **m)
{
	*m = aperture(gpu, ap);
	if (!*m)
		return gpu ? NVM_ERR_APERTURE : NVM_ERR_ARG;
	if (!buf && len)
		return NVM_ERR_ARG;
	if (hold_check(gpu, NVM_HOLD_MEM, "memory", addr))
		return NVM_ERR_BLOCKED;
	return NVM_OK;
}

/* A host copy in either direction: the checks, then the aperture. The hold
 * check may emit, so the copy is bracketed as a public call. */
static nvm_status host_copy(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, void *buf, size_t len, bool write)
{
	if (!gpu)
		return NVM_ERR_ARG;
	api_enter(gpu);
	struct mem_space *m;
	nvm_status st = host_access(gpu, ap, addr, buf, len, &m);
	if (!st)
		st = write ? mem_write(m, addr, buf, len) : mem_read(m, addr, buf, len);
	api_leave(gpu);
	return st;
}

nvm_status nvm_mem_read(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, void *buf, size_t len)
{
	return host_copy(gpu, ap, addr, buf, len, false);
}

nvm_status nvm_mem_write(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, const void *buf, size_t len)
{
	/* host_copy only writes through buf when write is false. */
	return host_copy(gpu, ap, addr, (void *)(uintptr_t)buf, len, true);
}

nvm_status nvm_mem_rd32(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint32_t *val)
{
	if (addr & 3)
		return NVM_ERR_ALIGN;
	uint8_t b[4];
	nvm_status st = nvm_mem_read(gpu, ap, addr, b, 4);
	if (!st)
		*val = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	return st;
}

nvm_status nvm_mem_wr32(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint32_t val)
{
	if (addr & 3)
		return NVM_ERR_ALIGN;
	uint8_t b[4] = { (uint8_t)val, (uint8_t)(val >> 8), (uint8_t)(val >> 16), (uint8_t)(val >> 24) };
	return nvm_mem_write(gpu, ap, addr, b, 4);
}

/* Caller ranges change what pointers the model may hold mid-run: only
 * between library calls. */
static nvm_status map_check(nvm_gpu *gpu, nvm_aperture ap, struct mem_space **m)
{
	*m = aperture(gpu, ap);
	if (!*m)
		return gpu ? NVM_ERR_APERTURE : NVM_ERR_ARG;
	return gpu->depth || gpu->closing ? NVM_ERR_BUSY : NVM_OK;
}

nvm_status nvm_mem_map_ptr(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t size, void *ptr)
{
	struct mem_space *m;
	nvm_status st = map_check(gpu, ap, &m);
	if (st)
		return st;
	return ptr ? mem_map(m, addr, size, ptr, NULL) : NVM_ERR_ARG;
}

nvm_status nvm_mem_map_io(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t size, const nvm_mem_io *io)
{
	struct mem_space *m;
	nvm_status st = map_check(gpu, ap, &m);
	if (st)
		return st;
	return io && io->read && io->write ? mem_map(m, addr, size, NULL, io) : NVM_ERR_ARG;
}

nvm_status nvm_mem_unmap(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t size)
{
	struct mem_space *m;
	nvm_status st = map_check(gpu, ap, &m);
	return st ? st : mem_unmap(m, addr, size);
}

nvm_status nvm_mem_written(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, uint64_t len)
{
	struct mem_space *m = aperture(gpu, ap);
	if (!m)
		return gpu ? NVM_ERR_APERTURE : NVM_ERR_ARG;
	if (!len || addr >= m->size || len > m->size - addr)
		return len ? NVM_ERR_RANGE : NVM_OK;
	api_enter(gpu);
	if (m->nwatch)
		mem_notify_write(m, addr, len);
	api_leave(gpu);
	return NVM_OK;
}

nvm_status nvm_mem_page(nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, int for_write, uint8_t **ptr, size_t *avail)
{
	struct mem_space *m = aperture(gpu, ap);
	if (!m)
		return gpu ? NVM_ERR_APERTURE : NVM_ERR_ARG;
	if (!ptr || !avail)
		return NVM_ERR_ARG;
	api_enter(gpu);
	nvm_status st = hold_check(gpu, NVM_HOLD_MEM, "memory", addr);
	if (!st)
		st = mem_span(m, addr, for_write != 0, ptr, avail);
	api_leave(gpu);
	return st;
}
