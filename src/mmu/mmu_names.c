/*
 * Fault-buffer packets (seed 003, NV_MMU_FAULT_BUF_ENTRY_*) and the names of
 * the fault enums (gv100_dev_fault.ref.txt; engine and client ids from
 * volta-facts.md section f).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "mmu_gens.h"
#include "mmu_internal.h"

/* ---------------------------------------------------------------- packets */

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Dword 7 ("INFO"): the same layout as NV_PFB_PRI_MMU_FAULT_INFO. */
uint32_t mmu_packet_dw7(const nvm_mmu_fault_info *f);
uint32_t mmu_packet_dw7(const nvm_mmu_fault_info *f)
{
	uint32_t w = 0;
	w = FIELD_SET(w, 4, 0, f->fault_type);    /* FAULT_TYPE (4+7*32):(7*32+0) */
	w = FIELD_SET(w, 7, 7, f->replayable);    /* REPLAYABLE_FAULT */
	w = FIELD_SET(w, 14, 8, f->client);       /* CLIENT */
	w = FIELD_SET(w, 19, 16, f->access_type); /* ACCESS_TYPE */
	w = FIELD_SET(w, 20, 20, f->client_type); /* MMU_CLIENT_TYPE */
	w = FIELD_SET(w, 28, 24, f->gpc_id);      /* GPC_ID */
	w = FIELD_SET(w, 29, 29, f->protected_mode);
	w = FIELD_SET(w, 30, 30, f->replayable_en); /* REPLAYABLE_FAULT_EN */
	w = FIELD_SET(w, 31, 31, f->valid);         /* VALID */
	return w;
}

void nvm_mmu_packet_encode(const nvm_mmu_fault_info *f, uint8_t out[NVM_MMU_PACKET_SIZE])
{
	uint32_t dw[8] = { 0 };
	dw[0] = FIELD_SET(dw[0], 9, 8, f->inst_aperture);                 /* INST_APERTURE */
	dw[0] = FIELD_SET(dw[0], 31, 12, (uint32_t)(f->inst_addr >> 12)); /* INST_LO */
	dw[1] = (uint32_t)(f->inst_addr >> 32);                           /* INST_HI */
	dw[2] = FIELD_SET(dw[2], 1, 0, f->addr_phys_aperture);            /* ADDR_PHYS_APERTURE */
	dw[2] = FIELD_SET(dw[2], 31, 12, (uint32_t)(f->addr >> 12));      /* ADDR_LO */
	dw[3] = (uint32_t)(f->addr >> 32);                                /* ADDR_HI */
	dw[4] = (uint32_t)f->timestamp;                                   /* TIMESTAMP_LO */
	dw[5] = (uint32_t)(f->timestamp >> 32);                           /* TIMESTAMP_HI */
	dw[6] = FIELD_SET(dw[6], 8, 0, f->engine_id);                     /* ENGINE_ID */
	dw[7] = mmu_packet_dw7(f);
	for (int i = 0; i < 8; i++)
		put32(out + 4 * i, dw[i]);
}

void nvm_mmu_packet_decode(const uint8_t in[NVM_MMU_PACKET_SIZE], nvm_mmu_fault_info *f)
{
	uint32_t dw[8];
	for (int i = 0; i < 8; i++)
		dw[i] = get32(in + 4 * i);
	memset(f, 0, sizeof(*f));
	f->inst_aperture = FIELD_GET(dw[0], 9, 8);
	f->inst_addr = ((uint64_t)dw[1] << 32) | ((uint64_t)FIELD_GET(dw[0], 31, 12) << 12);
	f->addr_phys_aperture = FIELD_GET(dw[2], 1, 0);
	f->addr = ((uint64_t)dw[3] << 32) | ((uint64_t)FIELD_GET(dw[2], 31, 12) << 12);
	f->timestamp = ((uint64_t)dw[5] << 32) | dw[4];
	f->engine_id = FIELD_GET(dw[6], 8, 0);
	f->fault_type = FIELD_GET(dw[7], 4, 0);
	f->replayable = (int)FIELD_GET(dw[7], 7, 7);
	f->client = FIELD_GET(dw[7], 14, 8);
	f->access_type = FIELD_GET(dw[7], 19, 16);
	f->client_type = FIELD_GET(dw[7], 20, 20);
	f->gpc_id = FIELD_GET(dw[7], 28, 24);
	f->protected_mode = (int)FIELD_GET(dw[7], 29, 29);
	f->replayable_en = (int)FIELD_GET(dw[7], 30, 30);
	f->valid = (int)FIELD_GET(dw[7], 31, 31);
}

/* ---------------------------------------------------------------- names */

static const char *const fault_names[32] = {
	"PDE",
	"PDE_SIZE",
	"PTE",
	"VA_LIMIT_VIOLATION",
	"UNBOUND_INST_BLOCK",
	"PRIV_VIOLATION",
	"RO_VIOLATION",
	"WO_VIOLATION",
	"PITCH_MASK_VIOLATION",
	"WORK_CREATION",
	"UNSUPPORTED_APERTURE",
	"COMPRESSION_FAILURE",
	"UNSUPPORTED_KIND",
	"REGION_VIOLATION",
	"POISONED",
	"ATOMIC_VIOLATION",
};

const char *nvm_mmu_fault_type_name(unsigned type)
{
	return type < 32 ? fault_names[type] : NULL;
}

static const char *const access_names[16] = {
	[0] = "VIRT_READ",     [1] = "VIRT_WRITE",       [2] = "VIRT_ATOMIC_STRONG",
	[3] = "VIRT_PREFETCH", [4] = "VIRT_ATOMIC_WEAK", [8] = "PHYS_READ",
	[9] = "PHYS_WRITE",    [10] = "PHYS_ATOMIC",     [11] = "PHYS_PREFETCH",
};

const char *nvm_mmu_access_name(unsigned access)
{
	return access < 16 ? access_names[access] : NULL;
}

/* MMU engine ids, as ranges: {first, last, name}; a range names its members
 * NAME<n-first>. */
static const struct id_range engine_ranges[] = {
	{ 1, 1, "DISPLAY" }, { 2, 2, "GSP" },  { 3, 3, "PTP" },        { 4, 4, "BAR1" },    { 5, 5, "BAR2" },
	{ 6, 6, "PWR_PMU" }, { 8, 8, "IFB" },  { 9, 9, "PERF" },       { 10, 10, "NVDEC" }, { 11, 13, "NVENC" },
	{ 14, 14, "SEC" },   { 15, 23, "CE" }, { 31, 31, "PHYSICAL" }, { 32, 45, "HOST" },  { 64, 511, "GRAPHICS" },
};

const char *mmu_range_name(const struct id_range *t, size_t n, unsigned id, char *buf, size_t len)
{
	for (size_t i = 0; i < n; i++) {
		if (id < t[i].first || id > t[i].last)
			continue;
		if (t[i].first == t[i].last)
			snprintf(buf, len, "%s", t[i].name);
		else
			snprintf(buf, len, "%s%u", t[i].name, id - t[i].first);
		return buf;
	}
	return NULL;
}

/* The name of id, or its number in hex. */
static const char *range_name(const struct id_range *t, size_t n, unsigned id, char *buf, size_t len)
{
	if (mmu_range_name(t, n, id, buf, len))
		return buf;
	snprintf(buf, len, "0x%x", id);
	return buf;
}

const struct mmu_eng_ids mmu_eng_gv100 = {
	NVM_MMU_ENG_BAR1,     NVM_MMU_ENG_BAR2, NVM_MMU_ENG_IFB, NVM_MMU_ENG_PHYSICAL,
	NVM_MMU_ENG_GRAPHICS, NVM_MMU_ENG_CE0,  engine_ranges,   sizeof(engine_ranges) / sizeof(engine_ranges[0]),
};

/* gh100 (RM's published gh100 dev_fault.h, NV_PFAULT_MMU_ENG_ID_*; it lists
 * no HOST, NVDEC, NVENC or IFB ids: UNVERIFIED, those stay unnamed and the
 * GMMU has no IFB engine). */
static const struct id_range engine_ranges_gh100[] = {
	{ 1, 1, "DISPLAY" },    { 2, 2, "GSP" },      { 3, 3, "PTP" },      { 4, 4, "FLA" },
	{ 5, 5, "PWR_PMU" },    { 7, 7, "FSP" },      { 10, 10, "PERF" },   { 43, 52, "CE" },
	{ 56, 56, "PHYSICAL" }, { 256, 256, "BAR1" }, { 320, 320, "BAR2" },
};
const struct mmu_eng_ids mmu_eng_gh100 = {
	256, 320, ~0u, 56, 384, 43, engine_ranges_gh100, sizeof(engine_ranges_gh100) / sizeof(engine_ranges_gh100[0]),
};

static const char *engine_name(const struct mmu_eng_ids *ids, unsigned engine_id, char *buf, size_t len)
{
	if (!buf || !len)
		return NULL;
	if (engine_id >= ids->graphics) { /* GRAPHICS + VEID */
		snprintf(buf, len, "GRAPHICS(VEID %u)", engine_id - ids->graphics);
		return buf;
	}
	return range_name(ids->names, ids->nnames, engine_id, buf, len);
}

const char *nvm_mmu_engine_name(unsigned engine_id, char *buf, size_t len)
{
	return engine_name(&mmu_eng_gv100, engine_id, buf, len);
}

const char *nvm_mmu_chip_engine_name(const char *chip, unsigned engine_id, char *buf, size_t len)
{
	const struct chip *row = chip_lookup(chip);
	const struct mmu_chip *gen = row ? chip_data(row, &mmu_class) : NULL;
	return gen ? engine_name(gen->eng, engine_id, buf, len) : NULL;
}

unsigned nvm_mmu_ce0_engine_id(const nvm_gpu *gpu)
{
	const struct mmu_chip *gen = gpu ? chip_data(gpu->chip, &mmu_class) : NULL;
	return gen ? gen->eng->ce0 : NVM_MMU_ENG_CE0;
}

unsigned nvm_mmu_gen_engine_id(const nvm_gpu *gpu, unsigned id)
{
	const struct mmu_chip *gen = gpu ? chip_data(gpu->chip, &mmu_class) : NULL;
	const struct mmu_eng_ids *e = gen ? gen->eng : &mmu_eng_gv100;
	if (id >= NVM_MMU_ENG_GRAPHICS)
		return e->graphics + (id - NVM_MMU_ENG_GRAPHICS);
	if (id >= NVM_MMU_ENG_CE0 && id <= NVM_MMU_ENG_CE0 + 8) /* CE0..CE8 (gv100 15..23) */
		return e->ce0 + (id - NVM_MMU_ENG_CE0);
	if (id == NVM_MMU_ENG_BAR1)
		return e->bar1;
	if (id == NVM_MMU_ENG_BAR2)
		return e->bar2;
	if (id == NVM_MMU_ENG_PHYSICAL)
		return e->physical;
	return id;
}

const char *nvm_mmu_format(const nvm_gpu *gpu)
{
	const struct mmu_chip *gen = gpu ? chip_data(gpu->chip, &mmu_class) : NULL;
	return gen ? gen->fmt->name : NULL;
}

static const struct id_range hub_clients[] = {
	{ 0, 0, "VIP" },         { 1, 1, "CE0" },
	{ 2, 2, "CE1" },         { 3, 3, "DNISO" },
	{ 4, 4, "FE" },          { 5, 5, "FECS" },
	{ 6, 6, "HOST" },        { 7, 7, "HOST_CPU" },
	{ 8, 8, "HOST_CPU_NB" }, { 9, 9, "ISO" },
	{ 10, 10, "MMU" },       { 11, 11, "NVDEC" },
	{ 0x18, 0x18, "CE2" },   { 0x1f, 0x1f, "DONT_CARE" },
	{ 0x20, 0x29, "HSCE" },  { 0x39, 0x39, "GSP" },
};

static const struct id_range gpc_clients[] = {
	{ 0, 7, "T1_" },
	{ 8, 15, "PE_" },
	{ 0x10, 0x10, "RAST" },
	{ 0x11, 0x11, "GCC" },
	{ 0x12, 0x12, "GPCCS" },
	{ 0x13, 0x16, "PROP_" },
	{ 0x17, 0x17, "GPM" },
	{ 0x18, 0x1f, "LTP_UTLB_" },
	{ 0x20, 0x20, "RGG_UTLB" },
};

const char *nvm_mmu_client_name(unsigned client_type, unsigned client, char *buf, size_t len)
{
	if (!buf || !len)
		return NULL;
	if (client_type == NVM_MMU_CLIENT_HUB)
		return range_name(hub_clients, sizeof(hub_clients) / sizeof(hub_clients[0]), client, buf, len);
	return range_name(gpc_clients, sizeof(gpc_clients) / sizeof(gpc_clients[0]), client, buf, len);
}

const char *nvm_mmu_target_name(nvm_mmu_target t)
{
	static const char *const n[4] = { "vram", "peer", "sysmem_coh", "sysmem_ncoh" };
	return (unsigned)t < 4 ? n[t] : NULL;
}

bool nvm_mmu_parse_access(const char *s, nvm_mmu_access *out)
{
	static const struct {
		const char *name;
		nvm_mmu_access a;
	} t[] = { { "read", NVM_MMU_READ },
		  { "write", NVM_MMU_WRITE },
		  { "atomic", NVM_MMU_ATOMIC },
		  { "prefetch", NVM_MMU_PREFETCH },
		  { "atomic_weak", NVM_MMU_ATOMIC_WEAK } };
	if (!s || !out)
		return false;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!strcasecmp(s, t[i].name)) {
			*out = t[i].a;
			return true;
		}
	}
	return false;
}
