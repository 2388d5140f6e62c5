/*
 * Set-up helpers shared by every generation: places, the heap, GP entries
 * (include/nvmodel/setup.h).
 */
#include "nvmodel/setup.h"
#include "setup/setup_internal.h"

nvm_status nvm_target_aperture(nvm_mmu_target target, nvm_aperture *out)
{
	switch (target) {
	case NVM_MMU_TGT_VID: *out = NVM_AP_VRAM; return NVM_OK;
	case NVM_MMU_TGT_SYS_COH:
	case NVM_MMU_TGT_SYS_NCOH: *out = NVM_AP_SYSMEM; return NVM_OK;
	default: return NVM_ERR_APERTURE;
	}
}

/* Width of the ver2 entries' ADDRESS field for a target: VID (35-3):8
 * holds PA 36:12, SYS 53:8 holds PA 57:12. */
unsigned setup_addr_bits(nvm_mmu_target target)
{
	return target == NVM_MMU_TGT_VID ? 37 : 58;
}

nvm_status setup_wr32(nvm_gpu *gpu, nvm_place at, uint32_t v)
{
	nvm_aperture ap;
	nvm_status st = nvm_target_aperture(at.target, &ap);
	return st ? st : nvm_mem_wr32(gpu, ap, at.addr, v);
}

nvm_status setup_write(nvm_gpu *gpu, nvm_place at, const void *buf, size_t len)
{
	nvm_aperture ap;
	nvm_status st = nvm_target_aperture(at.target, &ap);
	return st ? st : nvm_mem_write(gpu, ap, at.addr, buf, len);
}

nvm_status setup_wr64(nvm_gpu *gpu, nvm_place at, uint64_t v)
{
	uint8_t b[8];
	for (unsigned i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return setup_write(gpu, at, b, sizeof(b));
}

nvm_status setup_zero(nvm_gpu *gpu, nvm_place at, uint64_t size)
{
	static const uint8_t zero[4096];
	for (uint64_t off = 0; off < size; off += sizeof(zero)) {
		uint64_t n = size - off < sizeof(zero) ? size - off : sizeof(zero);
		nvm_status st = setup_write(gpu, (nvm_place){ at.target, at.addr + off }, zero, (size_t)n);
		if (st)
			return st;
	}
	return NVM_OK;
}

/* ---------------------------------------------------------------- heap */

nvm_status nvm_heap_init(nvm_heap *h, nvm_mmu_target target, uint64_t base, uint64_t size)
{
	nvm_aperture ap;
	if (!h)
		return NVM_ERR_ARG;
	if (nvm_target_aperture(target, &ap))
		return NVM_ERR_APERTURE;
	if (!size)
		return NVM_ERR_ARG;
	if (size > UINT64_MAX - base)
		return NVM_ERR_RANGE;
	*h = (nvm_heap){ .target = target, .base = base, .size = size, .next = base };
	return NVM_OK;
}

nvm_status nvm_heap_alloc(nvm_heap *h, uint64_t size, uint64_t align, uint64_t *addr)
{
	if (!h || !addr || !size)
		return NVM_ERR_ARG;
	if (!align)
		align = 4096;
	if (align & (align - 1))
		return NVM_ERR_ARG;
	if (h->next > UINT64_MAX - (align - 1))
		return NVM_ERR_FULL;
	uint64_t a = (h->next + align - 1) & ~(align - 1);
	uint64_t end = h->base + h->size;
	if (a > end || size > end - a)
		return NVM_ERR_FULL;
	h->next = a + size;
	*addr = a;
	return NVM_OK;
}

/* ---------------------------------------------------------------- GP entries */

nvm_status nvm_gp_entry(uint64_t va, uint32_t ndwords, const nvm_gp_opts *o, uint32_t *e0, uint32_t *e1)
{
	static const nvm_gp_opts none;
	if (!e0 || !e1)
		return NVM_ERR_ARG;
	if (!o)
		o = &none;
	if (va >> 40)
		return NVM_ERR_RANGE;
	if (va & 3)
		return NVM_ERR_ALIGN;
	/* LENGTH 30:10; 0 would make a control entry (nvm_gp_control). */
	if (!ndwords || ndwords >> 21)
		return NVM_ERR_ARG;
	/* E0: FETCH 0:0, GET 31:2; E1: GET_HI 7:0, PRIV 8:8, LEVEL 9:9, LENGTH 30:10, SYNC 31:31 */
	*e0 = ((uint32_t)va & 0xfffffffcu) | (o->fetch_conditional ? 1u : 0u);
	*e1 = (uint32_t)(va >> 32) & 0xffu;
	*e1 |= (o->priv ? 1u : 0u) << 8 | (o->subroutine ? 1u : 0u) << 9 | ndwords << 10 | (o->sync ? 1u : 0u) << 31;
	return NVM_OK;
}

void nvm_gp_control(uint8_t opcode, uint32_t operand, bool sync, uint32_t *e0, uint32_t *e1)
{
	*e0 = operand;
	*e1 = opcode | (sync ? 1u : 0u) << 31;
}
