/*
 * The chip registry: one const row per chip naming the generation of each
 * block it has (HWSQ variant, G80 VM or GMMU, PFIFO or Host, pushbuffer
 * profile), its identity and its PMC style. The rows after gv100 are
 * pushbuffer profiles only (decode_only): `pb decode --chip` takes them,
 * nvm_open and `nvmodel chips` do not. A new chip is a new row here (and,
 * if it needs one, a new generation file in its block); there is no #ifdef
 * per generation anywhere.
 *
 * This file is the layer above the blocks that assembles chips: it is the
 * only one that includes every block's registration header (<block>_gens.h:
 * the block kind and its generation tables). The core below knows no block;
 * nvm_open here looks the row up and has the core create its blocks.
 *
 * UNVERIFIED: families are envytools' grouping (hw/intro): NV04, NV10
 * (Celsius: NV10, NV11, NV17), NV40 (Curie), G80 (Tesla), GV100 (Volta),
 * TU100 (Turing).
 *
 * PMC_BOOT_0 values follow envytools pmc.rst "Card identification": NV04
 * uses the pmc-id-nv4 layout (architecture 4 in bits 15:12), NV10+ carry the
 * GPU id in bits 27:20, and GV100 the ARCHITECTURE 28:24 = 0x14 field of
 * gv100_dev_master.ref.txt. UNVERIFIED: the stepping bits (7:0) are a
 * plausible A1/A2, not read off a real board.
 */
#include <strings.h>

#include "core/core.h"
#include "host/host_gens.h"
#include "hwsq/hwsq_gens.h"
#include "mmu/mmu_gens.h"
#include "pfifo/pfifo_gens.h"
#include "pushbuf/pb_gens.h"

#define MiB(x) ((uint64_t)(x) << 20)
#define GiB(x) ((uint64_t)(x) << 30)
#define TiB(x) ((uint64_t)(x) << 40)

#define HWSQ(var)                                                                                                      \
	{                                                                                                              \
		&hwsq_class, &(var)                                                                                    \
	}
#define G80VM(var)                                                                                                     \
	{                                                                                                              \
		&g80vm_class, &(var)                                                                                   \
	}
#define PFIFO(var)                                                                                                     \
	{                                                                                                              \
		&pfifo_class, &(var)                                                                                   \
	}
#define PB(prof)                                                                                                       \
	{                                                                                                              \
		&pb_decoder_class, &(prof)                                                                             \
	}
/* A chip known to the pushbuffer decoder only. */
#define DECODE_ONLY(name)                                                                                              \
	{                                                                                                              \
		{ #name, "", 0, 0, 0, "" }, true, PMC_GV100,                                                           \
		{                                                                                                      \
			PB(pb_gen_##name)                                                                              \
		}                                                                                                      \
	}

static const struct chip chips[] = {
	/* NV01 / NV03: PMC_BOOT_0 in the pmc-id-nv1 layout (GPU 19:16,
	 * implementation 1 in 11:8, revision 7:0; UNVERIFIED: revision 0x00 and,
	 * for the Riva 128, 0x10 below NV3T's 0x20); VRAM 4 MiB (NV1's largest,
	 * nv1-vram.rst; a Riva 128's). UNVERIFIED: PTIMER stays at 0x9000 (NV1's
	 * is at 0x101000, mmio.rst). */
	{ { "nv01", "NV01", 0x00010100u, MiB(4), GiB(4), "pmc ptimer pfifo" },
	  false,
	  PMC_NV04,
	  { PFIFO(pfifo_nv01), PB(pb_gen_nv01) } },
	{ { "nv03", "NV03", 0x00030110u, MiB(4), GiB(4), "pmc ptimer pfifo" },
	  false,
	  PMC_NV04,
	  { PFIFO(pfifo_nv03), PB(pb_gen_nv03) } },
	/* NV3T (Riva 128 ZX): revision 0x20 and up (pmc.rst), 8 MiB of VRAM. */
	{ { "nv03t", "NV03", 0x00030120u, MiB(8), GiB(4), "pmc ptimer pfifo" },
	  false,
	  PMC_NV04,
	  { PFIFO(pfifo_nv03t), PB(pb_gen_nv03t) } },
	{ { "nv04", "NV04", 0x20004000u, MiB(16), GiB(4), "pmc ptimer pfifo" },
	  false,
	  PMC_NV04,
	  { PFIFO(pfifo_nv04), PB(pb_gen_nv04) } },
	{ { "nv10", "NV10", 0x010000a1u, MiB(128), GiB(4), "pmc ptimer pfifo" },
	  false,
	  PMC_NV04,
	  { PFIFO(pfifo_nv10), PB(pb_gen_nv10) } },
	{ { "nv11", "NV10", 0x011000a1u, MiB(128), GiB(4), "pmc ptimer pfifo" },
	  false,
	  PMC_NV04,
	  { PFIFO(pfifo_nv11), PB(pb_gen_nv11) } },
	{ { "nv17", "NV10", 0x017000a1u, MiB(128), GiB(4), "pmc ptimer hwsq pfifo" },
	  false,
	  PMC_NV04,
	  { HWSQ(hwsq_var_nv17), PFIFO(pfifo_nv17), PB(pb_gen_nv17) } },
	{ { "nv40", "NV40", 0x040000a1u, MiB(512), GiB(4), "pmc ptimer hwsq pfifo" },
	  false,
	  PMC_NV04,
	  { HWSQ(hwsq_var_nv40), PFIFO(pfifo_nv40), PB(pb_gen_nv40) } },
	{ { "nv41", "NV40", 0x041000a1u, MiB(512), GiB(4), "pmc ptimer hwsq pfifo" },
	  false,
	  PMC_NV04,
	  { HWSQ(hwsq_var_nv41), PFIFO(pfifo_nv41), PB(pb_gen_nv41) } },
	{ { "g80", "G80", 0x050000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  false,
	  PMC_NV04,
	  { HWSQ(hwsq_var_g80), G80VM(g80vm_g80), PFIFO(pfifo_g80), PB(pb_gen_g80) } },
	{ { "g84", "G80", 0x084000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  false,
	  PMC_NV04,
	  { HWSQ(hwsq_var_g80), G80VM(g80vm_g84), PFIFO(pfifo_g84), PB(pb_gen_g84) } },
	{ { "g92", "G80", 0x092000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  false,
	  PMC_NV04,
	  { HWSQ(hwsq_var_g92), G80VM(g80vm_g84), PFIFO(pfifo_g92), PB(pb_gen_g92) } },
	{ { "gt215", "G80", 0x0a3000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  false,
	  PMC_NV04,
	  { HWSQ(hwsq_var_g92), G80VM(g80vm_gt215), PFIFO(pfifo_gt215), PB(pb_gen_gt215) } },
	/* GV100: 32 GiB of HBM2 on the largest boards; system memory reaches
	 * 2^47 bytes (the sysmem address width of the ver2 PTE). */
	{ { "gv100", "GV100", 0x140000a1u, GiB(32), 1ull << 47, "pmc ptimer mmu host" },
	  false,
	  PMC_GV100,
	  { { &mmu_class, &mmu_gv100 }, { &host_class, &host_gv100 }, PB(pb_gen_gv100) } },
	/* TU102: 48 GiB of GDDR6 on the largest boards (Quadro RTX 8000);
	 * PMC_BOOT_0 chipset 0x162 (nouveau nv162_chipset). The GMMU keeps
	 * gv100's ver2 format (nouveau tu102_mmu uses gv100's page tables);
	 * its fault registers moved to NV_VIRTUAL_FUNCTION_PRIV_MMU (mmu_tu102). */
	{ { "tu102", "TU100", 0x162000a1u, GiB(48), 1ull << 47, "pmc ptimer mmu host" },
	  false,
	  PMC_GV100,
	  { { &mmu_class, &mmu_tu102 }, { &host_class, &host_tu102 }, PB(pb_gen_tu102) } },
	/* Ampere and Hopper (src/host/ga100.c, ga102.c, gh100.c). PMC_BOOT_0:
	 * ARCHITECTURE 28:24 0x17 (GA10x) / 0x18 (GH100), IMPLEMENTATION 23:20
	 * 0 (GA100, GH100) / 2 (GA102), as nouveau's chipset numbers 0x170,
	 * 0x172, 0x180 read them. Memory: 80 GiB (A100 80GB, H100), 24 GiB
	 * (GA102 on an RTX 3090). The GMMU generations are src/mmu's (ga100,
	 * ga102: ver2; gh100: ver3). */
	{ { "ga100", "GA100", 0x170000a1u, GiB(80), 1ull << 47, "pmc ptimer mmu host" },
	  false,
	  PMC_GV100,
	  { { &mmu_class, &mmu_ga100 }, { &host_class, &host_ga100_gen }, PB(pb_gen_ga100) } },
	{ { "ga102", "GA100", 0x172000a1u, GiB(24), 1ull << 47, "pmc ptimer mmu host" },
	  false,
	  PMC_GV100,
	  { { &mmu_class, &mmu_ga102 }, { &host_class, &host_ga102_gen }, PB(pb_gen_ga102) } },
	{ { "gh100", "GH100", 0x180000a1u, GiB(80), 1ull << 47, "pmc ptimer mmu host" },
	  false,
	  PMC_GV100,
	  { { &mmu_class, &mmu_gh100 }, { &host_class, &host_gh100_gen }, PB(pb_gen_gh100) } },
	/* Ada and Blackwell: pushbuffer profiles for `pb decode` only. */
	DECODE_ONLY(ad102),
	DECODE_ONLY(gb100),
	DECODE_ONLY(gb202),
};

#define NROWS (sizeof(chips) / sizeof(chips[0]))

/* The rows a GPU can be opened with come first. */
static size_t nmodelled(void)
{
	size_t n = 0;
	while (n < NROWS && !chips[n].decode_only)
		n++;
	return n;
}

const struct chip *chip_lookup(const char *name)
{
	if (!name)
		name = NVM_DEFAULT_CHIP;
	for (size_t i = 0; i < NROWS; i++)
		if (!strcasecmp(chips[i].info.name, name))
			return &chips[i];
	return NULL;
}

size_t nvm_chip_count(void)
{
	return nmodelled();
}

const nvm_chip_info *nvm_chip_get(size_t i)
{
	return i < nmodelled() ? &chips[i].info : NULL;
}

const nvm_chip_info *nvm_chip_find(const char *name)
{
	const struct chip *c = chip_lookup(name);
	return c && !c->decode_only ? &c->info : NULL;
}

nvm_status nvm_open(const nvm_config *cfg, nvm_gpu **out)
{
	if (!out)
		return NVM_ERR_ARG;
	*out = NULL;
	nvm_config def = { 0 };
	if (!cfg)
		cfg = &def;
	const struct chip *chip = chip_lookup(cfg->chip);
	if (!chip || chip->decode_only)
		return NVM_ERR_CHIP;
	return gpu_open(chip, cfg, out);
}

/* The decoder's profiles, in row order (nvm_chip_get's chips first). */
const nvm_pb_gen *nvm_pb_gen_lookup(const char *chip)
{
	const struct chip *c = chip_lookup(chip);
	return c ? pb_chip_gen(c) : NULL;
}

const nvm_pb_gen *nvm_pb_gen_get(size_t i)
{
	return i < NROWS ? pb_chip_gen(&chips[i]) : NULL;
}
