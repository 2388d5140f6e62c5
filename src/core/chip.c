/*
 * Chip profiles: const data that selects blocks and variants. A new chip is
 * a new row here (and, if it needs one, a new variant table in its block);
 * there is no #ifdef per generation anywhere.
 *
 * UNVERIFIED: families are envytools' grouping (hw/intro): NV04, NV10
 * (Celsius: NV10, NV11, NV17), NV40 (Curie), G80 (Tesla), GV100 (Volta).
 *
 * PMC_BOOT_0 values follow envytools pmc.rst "Card identification": NV04
 * uses the pmc-id-nv4 layout (architecture 4 in bits 15:12), NV10+ carry the
 * GPU id in bits 27:20, and GV100 the ARCHITECTURE 28:24 = 0x14 field of
 * gv100_dev_master.ref.txt. UNVERIFIED: the stepping bits (7:0) are a
 * plausible A1/A2, not read off a real board.
 */
#include <strings.h>

#include "core.h"

#define MiB(x) ((uint64_t)(x) << 20)
#define GiB(x) ((uint64_t)(x) << 30)
#define TiB(x) ((uint64_t)(x) << 40)

/* Blocks every profile has beside PMC (which is not optional). */
#define CORE_BLOCKS                                                                                                    \
	{                                                                                                              \
		&ptimer_class, NULL                                                                                    \
	}

/* HWSQ (src/hwsq): the variant is the block's per-chip data. */
extern const struct block_class hwsq_class;
struct hwsq_variant;
extern const struct hwsq_variant hwsq_var_nv17, hwsq_var_nv40, hwsq_var_nv41, hwsq_var_g80, hwsq_var_g92;
#define HWSQ_BLOCKS(var)                                                                                               \
	{ &ptimer_class, NULL },                                                                                       \
	{                                                                                                              \
		&hwsq_class, &(var)                                                                                    \
	}

/* The GMMU (src/mmu/mmu.c) and its gv100 data. */
extern const struct block_class mmu_class;
struct mmu_chip;
extern const struct mmu_chip mmu_gv100;

/* The G80 VM (src/mmu/g80vm.c) and its per-generation data. */
extern const struct block_class g80vm_class;
struct g80vm_chip;
extern const struct g80vm_chip g80vm_g80, g80vm_g84, g80vm_gt215;
#define G80VM(var)                                                                                                     \
	{                                                                                                              \
		&g80vm_class, &(var)                                                                                   \
	}

/* The Host (src/host/) and its generations (src/host/gv100.c). */
extern const struct block_class host_class;
struct host_gen;
extern const struct host_gen host_gv100;

/* PFIFO of NV04..NV4x (src/pfifo/) and its per-chip data. */
extern const struct block_class pfifo_class;
struct pfifo_chip;
extern const struct pfifo_chip pfifo_nv04, pfifo_nv10, pfifo_nv11, pfifo_nv17, pfifo_nv40, pfifo_nv41;
extern const struct pfifo_chip pfifo_g80, pfifo_g84, pfifo_g92, pfifo_gt215;
#define PFIFO(var)                                                                                                     \
	{                                                                                                              \
		&pfifo_class, &(var)                                                                                   \
	}

static const struct chip chips[] = {
	{ { "nv04", "NV04", 0x20004000u, MiB(16), GiB(4), "pmc ptimer pfifo" },
	  PMC_NV04,
	  { CORE_BLOCKS, PFIFO(pfifo_nv04) } },
	{ { "nv10", "NV10", 0x010000a1u, MiB(128), GiB(4), "pmc ptimer pfifo" },
	  PMC_NV04,
	  { CORE_BLOCKS, PFIFO(pfifo_nv10) } },
	{ { "nv11", "NV10", 0x011000a1u, MiB(128), GiB(4), "pmc ptimer pfifo" },
	  PMC_NV04,
	  { CORE_BLOCKS, PFIFO(pfifo_nv11) } },
	{ { "nv17", "NV10", 0x017000a1u, MiB(128), GiB(4), "pmc ptimer hwsq pfifo" },
	  PMC_NV04,
	  { HWSQ_BLOCKS(hwsq_var_nv17), PFIFO(pfifo_nv17) } },
	{ { "nv40", "NV40", 0x040000a1u, MiB(512), GiB(4), "pmc ptimer hwsq pfifo" },
	  PMC_NV04,
	  { HWSQ_BLOCKS(hwsq_var_nv40), PFIFO(pfifo_nv40) } },
	{ { "nv41", "NV40", 0x041000a1u, MiB(512), GiB(4), "pmc ptimer hwsq pfifo" },
	  PMC_NV04,
	  { HWSQ_BLOCKS(hwsq_var_nv41), PFIFO(pfifo_nv41) } },
	{ { "g80", "G80", 0x050000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  PMC_NV04,
	  { HWSQ_BLOCKS(hwsq_var_g80), G80VM(g80vm_g80), PFIFO(pfifo_g80) } },
	{ { "g84", "G80", 0x084000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  PMC_NV04,
	  { HWSQ_BLOCKS(hwsq_var_g80), G80VM(g80vm_g84), PFIFO(pfifo_g84) } },
	{ { "g92", "G80", 0x092000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  PMC_NV04,
	  { HWSQ_BLOCKS(hwsq_var_g92), G80VM(g80vm_g84), PFIFO(pfifo_g92) } },
	{ { "gt215", "G80", 0x0a3000a2u, GiB(4), TiB(1), "pmc ptimer hwsq g80vm pfifo" },
	  PMC_NV04,
	  { HWSQ_BLOCKS(hwsq_var_g92), G80VM(g80vm_gt215), PFIFO(pfifo_gt215) } },
	/* GV100: 32 GiB of HBM2 on the largest boards; system memory reaches
	 * 2^47 bytes (the sysmem address width of the ver2 PTE). */
	{ { "gv100", "GV100", 0x140000a1u, GiB(32), 1ull << 47, "pmc ptimer mmu host" },
	  PMC_GV100,
	  { { &ptimer_class, NULL }, { &mmu_class, &mmu_gv100 }, { &host_class, &host_gv100 } } },
};

#define NCHIPS (sizeof(chips) / sizeof(chips[0]))

size_t nvm_chip_count(void)
{
	return NCHIPS;
}

const nvm_chip_info *nvm_chip_get(size_t i)
{
	return i < NCHIPS ? &chips[i].info : NULL;
}

const struct chip *chip_lookup(const char *name)
{
	if (!name)
		name = NVM_DEFAULT_CHIP;
	for (size_t i = 0; i < NCHIPS; i++)
		if (!strcasecmp(chips[i].info.name, name))
			return &chips[i];
	return NULL;
}

const nvm_chip_info *nvm_chip_find(const char *name)
{
	const struct chip *c = chip_lookup(name);
	return c ? &c->info : NULL;
}
