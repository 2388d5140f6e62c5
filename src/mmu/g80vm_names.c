/*
 * Names of the G80 VM (seed 002 "VM users"; envytools rnndb memory/g80_vm.xml
 * enums G80_VM_ENGINE, G80_VM_CLIENT, G80_VM_FAULT, G80_STORAGE_TYPE): const
 * tables with the generations each row exists on, for tools and traces.
 */
#include "g80vm_internal.h"
#include "mmu_internal.h"

struct g80_name {
	unsigned value;
	const char *name;
	unsigned gens; /* G80M_* */
};

static const char *name_find(const struct g80_name *t, size_t n, unsigned value, unsigned gen)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].value == value && (t[i].gens >> gen) & 1u)
			return t[i].name;
	return NULL;
}

#define N(t) (sizeof(t) / sizeof((t)[0]))

/* G80_VM_ENGINE. "PFIFO_BG" is seed 002's name for the engine the rnndb
 * calls SEMAPHORE_BG. */
static const struct g80_name engines[] = {
	{ 0x0, "PGRAPH", G80M_ALL },
	{ 0x1, "PVP1", G80M_G80 },
	{ 0x1, "PVP2", G80M_G84 },
	{ 0x1, "PPDEC", G80M_GT215 },
	{ 0x4, "PEEPHOLE", G80M_ALL },
	{ 0x5, "PFIFO", G80M_ALL },
	{ 0x6, "BAR", G80M_ALL },
	{ 0x7, "PME", G80M_G80 },
	{ 0x8, "PMPEG", G80M_G80 | G80M_G84 },
	{ 0x8, "PPPP", G80M_GT215 },
	{ 0x9, "PBSP", G80M_G80 | G80M_G84 },
	{ 0x9, "PVLD", G80M_GT215 },
	{ 0xa, "PCIPHER", G80M_G84 },
	{ 0xb, "PCOUNTER", G80M_G84 | G80M_GT215 },
	{ 0xc, "PFIFO_BG", G80M_G84 | G80M_GT215 },
	{ 0xd, "PCOPY", G80M_GT215 },
	{ 0xe, "PDAEMON", G80M_GT215 },
};

/* G80_VM_CLIENT. */
static const struct g80_name clients[] = {
	{ 0x00, "STRMOUT", G80M_ALL },
	{ 0x03, "DISPATCH", G80M_ALL },
	{ 0x04, "PFIFO_WRITE", G80M_ALL },
	{ 0x05, "CCACHE", G80M_ALL },
	{ 0x06, "PVPE", G80M_G80 | G80M_G84 },
	{ 0x06, "PPPP", G80M_GT215 },
	{ 0x07, "CLIPID", G80M_ALL },
	{ 0x08, "PFIFO_READ", G80M_ALL },
	{ 0x09, "VFETCH", G80M_ALL },
	{ 0x0a, "TEXTURE", G80M_ALL },
	{ 0x0b, "PROP", G80M_ALL },
	{ 0x0c, "PVP2", G80M_G84 },
	{ 0x0c, "PPDEC", G80M_GT215 },
	{ 0x0d, "PBSP", G80M_G84 },
	{ 0x0d, "PVLD", G80M_GT215 },
	{ 0x0e, "PCIPHER", G80M_G84 },
	{ 0x0f, "PCOUNTER", G80M_G84 | G80M_GT215 },
	{ 0x11, "PDAEMON", G80M_GT215 },
	{ 0x13, "PCOPY", G80M_GT215 },
};

/* G80_VM_FAULT (the trap reason). */
static const struct g80_name faults[] = {
	{ 0x0, "PT_NOT_PRESENT", G80M_ALL },   { 0x1, "PT_TOO_SHORT", G80M_ALL },
	{ 0x2, "PAGE_NOT_PRESENT", G80M_ALL }, { 0x3, "PAGE_SUPERVISOR_ONLY", G80M_ALL },
	{ 0x4, "PAGE_READ_ONLY", G80M_ALL },   { 0x5, "NO_CHANNEL", G80M_ALL },
	{ 0x6, "NULL_DMAOBJ", G80M_ALL },      { 0x7, "WRONG_MEMTYPE", G80M_ALL },
	{ 0xb, "VRAM_LIMIT", G80M_ALL },       { 0xf, "DMAOBJ_LIMIT", G80M_ALL },
};

/* Seed 002's DMA slot list [engine/client/slot]: the slots of each
 * engine/client pair as an id-range row (mmu_range_name: a range names its
 * slots "<name> <n>" counting from 0). Generation ranges as the
 * seed gives them: [G80:G84] G80 only; [G80:G98 G200:MCP77] G80 and G84/G92;
 * [G84:G98 ...] G84/G92; [G84:GF100] G84 on; [G98:G200 MCP77-] GT215;
 * [G98:GT215] none of the profiles; [GT215-] GT215. */
struct g80_slot {
	unsigned engine, client;
	struct id_range slots;
	unsigned gens;
};

static const struct g80_slot slots[] = {
	{ 0x0, 0x0, { 0, 0, "PGRAPH STRMOUT" }, G80M_ALL },
	{ 0x0, 0x3, { 0, 0, "PGRAPH context" }, G80M_ALL },
	{ 0x0, 0x3, { 1, 1, "PGRAPH NOTIFY" }, G80M_ALL },
	{ 0x0, 0x3, { 2, 2, "PGRAPH QUERY" }, G80M_ALL },
	{ 0x0, 0x3, { 3, 3, "PGRAPH COND" }, G80M_ALL },
	{ 0x0, 0x3, { 4, 4, "PGRAPH m2mf BUFFER_IN" }, G80M_ALL },
	{ 0x0, 0x3, { 5, 5, "PGRAPH m2mf BUFFER_OUT" }, G80M_ALL },
	{ 0x0, 0x3, { 6, 6, "PGRAPH m2mf BUFFER_NOTIFY" }, G80M_ALL },
	{ 0x0, 0x5, { 0, 0, "PGRAPH CODE_CB" }, G80M_ALL },
	{ 0x0, 0x5, { 1, 1, "PGRAPH TIC" }, G80M_ALL },
	{ 0x0, 0x5, { 2, 2, "PGRAPH TSC" }, G80M_ALL },
	{ 0x0, 0x7, { 0, 0, "PGRAPH CLIPID" }, G80M_ALL },
	{ 0x0, 0x9, { 0, 0, "PGRAPH VERTEX" }, G80M_ALL },
	{ 0x0, 0xa, { 0, 0, "PGRAPH TEXTURE / SRC2D" }, G80M_ALL },
	{ 0x0, 0xb, { 0, 7, "PGRAPH RT " }, G80M_ALL },
	{ 0x0, 0xb, { 8, 8, "PGRAPH ZETA" }, G80M_ALL },
	{ 0x0, 0xb, { 9, 9, "PGRAPH LOCAL" }, G80M_ALL },
	{ 0x0, 0xb, { 0xa, 0xa, "PGRAPH GLOBAL" }, G80M_ALL },
	{ 0x0, 0xb, { 0xb, 0xb, "PGRAPH STACK" }, G80M_ALL },
	{ 0x0, 0xb, { 0xc, 0xc, "PGRAPH DST2D" }, G80M_ALL },
	{ 0x4, 0x4, { 0, 0, "PEEPHOLE write" }, G80M_ALL },
	{ 0x4, 0x8, { 0, 0, "PEEPHOLE read" }, G80M_ALL },
	{ 0x6, 0x4, { 0, 0, "BAR1 write" }, G80M_ALL },
	{ 0x6, 0x8, { 0, 0, "BAR1 read" }, G80M_ALL },
	{ 0x6, 0x4, { 1, 1, "BAR3 write" }, G80M_ALL },
	{ 0x6, 0x8, { 1, 1, "BAR3 read" }, G80M_ALL },
	{ 0x5, 0x8, { 0, 0, "FIFO pushbuf read" }, G80M_ALL },
	{ 0x5, 0x4, { 1, 1, "FIFO semaphore write" }, G80M_ALL },
	{ 0x5, 0x8, { 1, 1, "FIFO semaphore read" }, G80M_ALL },
	{ 0xc, 0x8, { 1, 1, "FIFO background semaphore read" }, G80M_ALL },
	{ 0x1, 0x6, { 8, 8, "PVP1 context" }, G80M_G80 },
	{ 0x7, 0x6, { 4, 4, "PME context" }, G80M_G80 },
	{ 0x8, 0x6, { 1, 1, "PMPEG CMD" }, G80M_G80 | G80M_G84 },
	{ 0x8, 0x6, { 2, 2, "PMPEG DATA" }, G80M_G80 | G80M_G84 },
	{ 0x8, 0x6, { 3, 3, "PMPEG IMAGE" }, G80M_G80 | G80M_G84 },
	{ 0x8, 0x6, { 4, 4, "PMPEG context" }, G80M_G80 | G80M_G84 },
	{ 0x8, 0x6, { 5, 5, "PMPEG QUERY" }, G80M_G84 },
	{ 0xb, 0xf, { 0, 0, "PCOUNTER record buffer" }, G80M_G84 | G80M_GT215 },
	{ 0x1, 0xc, { 0, 0xf, "PVP2 DMA port " }, G80M_G84 },
	{ 0x9, 0xd, { 0, 0xf, "PBSP DMA port " }, G80M_G84 },
	{ 0xa, 0xe, { 0, 0, "PCIPHER context" }, G80M_G84 },
	{ 0xa, 0xe, { 1, 1, "PCIPHER SRC" }, G80M_G84 },
	{ 0xa, 0xe, { 2, 2, "PCIPHER DST" }, G80M_G84 },
	{ 0xa, 0xe, { 3, 3, "PCIPHER QUERY" }, G80M_G84 },
	{ 0x1, 0xc, { 0, 7, "PPDEC falcon port " }, G80M_GT215 },
	{ 0x8, 0x6, { 0, 7, "PPPP falcon port " }, G80M_GT215 },
	{ 0x9, 0xd, { 0, 7, "PVLD falcon port " }, G80M_GT215 },
	{ 0xd, 0x13, { 0, 7, "PCOPY falcon port " }, G80M_GT215 },
	{ 0xe, 0x11, { 0, 7, "PDAEMON falcon port " }, G80M_GT215 },
};

/* G80_STORAGE_TYPE (the G200- rows are valid on GT215 only; names are given
 * for every generation: tools decode images whose chip they may not know). */
static const struct g80_name storage[] = {
	{ 0x00, "PITCH", G80M_ALL },
	{ 0x10, "S8_Z24_MS1", G80M_ALL },
	{ 0x11, "S8_Z24_MS2", G80M_ALL },
	{ 0x12, "S8_Z24_MS4", G80M_ALL },
	{ 0x13, "S8_Z24_MS8", G80M_ALL },
	{ 0x18, "S8_Z24_LSR_MS1", G80M_ALL },
	{ 0x19, "S8_Z24_LSR_MS2", G80M_ALL },
	{ 0x1a, "S8_Z24_LSR_MS4", G80M_ALL },
	{ 0x1b, "S8_Z24_LSR_MS8", G80M_ALL },
	{ 0x20, "Z24_S8_MS1", G80M_ALL },
	{ 0x21, "Z24_S8_MS2", G80M_ALL },
	{ 0x22, "Z24_S8_MS4", G80M_ALL },
	{ 0x23, "Z24_S8_MS8", G80M_ALL },
	{ 0x24, "Z24_C8_MS4_CS4", G80M_ALL },
	{ 0x25, "Z24_C8_MS4_CS12", G80M_ALL },
	{ 0x26, "Z24_C8_MS8_CS8", G80M_ALL },
	{ 0x28, "Z24_S8_MS1_LSR", G80M_ALL },
	{ 0x29, "Z24_S8_MS2_LSR", G80M_ALL },
	{ 0x2a, "Z24_S8_MS4_LSR", G80M_ALL },
	{ 0x2b, "Z24_S8_MS8_LSR", G80M_ALL },
	{ 0x2c, "Z24_C8_MS4_CS4_LSR", G80M_ALL },
	{ 0x2d, "Z24_C8_MS4_CS12_LSR", G80M_ALL },
	{ 0x2e, "Z24_C8_MS8_CS8_LSR", G80M_ALL },
	{ 0x40, "Z32_MS1", G80M_ALL },
	{ 0x41, "Z32_MS2", G80M_ALL },
	{ 0x42, "Z32_MS4", G80M_ALL },
	{ 0x43, "Z32_MS8", G80M_ALL },
	{ 0x44, "BLOCKLINEAR_24", G80M_ALL },
	{ 0x45, "BLOCKLINEAR_24_MS4", G80M_ALL },
	{ 0x46, "BLOCKLINEAR_24_MS8", G80M_ALL },
	{ 0x47, "Z32_MS1_LSR", G80M_ALL },
	{ 0x48, "Z32_MS2_LSR", G80M_ALL },
	{ 0x49, "Z32_MS4_LSR", G80M_ALL },
	{ 0x4a, "Z32_MS8_LSR", G80M_ALL },
	{ 0x4b, "BLOCKLINEAR_24_LSR", G80M_ALL },
	{ 0x4c, "BLOCKLINEAR_24_MS4_LSR", G80M_ALL },
	{ 0x4d, "BLOCKLINEAR_24_MS8_LSR", G80M_ALL },
	{ 0x54, "Z24_X8_S8_C8_X16_MS4_CS4", G80M_ALL },
	{ 0x55, "Z24_X8_S8_C8_X16_MS4_CS12", G80M_ALL },
	{ 0x56, "Z24_X8_S8_C8_X16_MS8_CS8", G80M_ALL },
	{ 0x60, "Z32_S8_X24_MS1", G80M_ALL },
	{ 0x61, "Z32_S8_X24_MS2", G80M_ALL },
	{ 0x62, "Z32_S8_X24_MS4", G80M_ALL },
	{ 0x63, "Z32_S8_X24_MS8", G80M_ALL },
	{ 0x64, "Z32_S8_C8_X16_MS4_CS4", G80M_ALL },
	{ 0x65, "Z32_S8_C8_X16_MS4_CS12", G80M_ALL },
	{ 0x66, "Z32_S8_C8_X16_MS8_CS8", G80M_ALL },
	{ 0x68, "Z16_MS1", G80M_ALL },
	{ 0x69, "Z16_MS2", G80M_ALL },
	{ 0x6a, "Z16_MS4", G80M_ALL },
	{ 0x6b, "Z16_MS8", G80M_ALL },
	{ 0x6c, "Z16_MS1_LSR", G80M_ALL },
	{ 0x6d, "Z16_MS2_LSR", G80M_ALL },
	{ 0x6e, "Z16_MS4_LSR", G80M_ALL },
	{ 0x6f, "Z16_MS8_LSR", G80M_ALL },
	{ 0x70, "BLOCKLINEAR", G80M_ALL },
	{ 0x72, "BLOCKLINEAR_LSR", G80M_ALL },
	{ 0x74, "BLOCKLINEAR_128", G80M_ALL },
	{ 0x76, "BLOCKLINEAR_128_LSR", G80M_ALL },
	{ 0x78, "BLOCKLINEAR_32_MS4", G80M_ALL },
	{ 0x79, "BLOCKLINEAR_32_MS8", G80M_ALL },
	{ 0x7a, "BLOCKLINEAR_32_MS4_LSR", G80M_ALL },
	{ 0x7b, "BLOCKLINEAR_32_MS8_LSR", G80M_ALL },
	{ 0x7c, "BLOCKLINEAR_64_MS4", G80M_ALL },
	{ 0x7d, "BLOCKLINEAR_64_MS8", G80M_ALL },
	{ 0x7f, "USEVM", G80M_ALL },
};

const char *nvm_g80_engine_name(unsigned engine, unsigned gen)
{
	return gen <= NVM_G80_GEN_GT215 ? name_find(engines, N(engines), engine, gen) : NULL;
}

const char *nvm_g80_client_name(unsigned client, unsigned gen)
{
	return gen <= NVM_G80_GEN_GT215 ? name_find(clients, N(clients), client, gen) : NULL;
}

const char *nvm_g80_fault_name(unsigned reason)
{
	return name_find(faults, N(faults), reason, NVM_G80_GEN_G80);
}

const char *nvm_g80_storage_type_name(unsigned type)
{
	return name_find(storage, N(storage), type, NVM_G80_GEN_G80);
}

const char *nvm_g80_target_name(unsigned target)
{
	static const char *const t[4] = { "VRAM", "INVALID", "SYSRAM_SNOOP", "SYSRAM_NOSNOOP" };
	return target < 4 ? t[target] : NULL;
}

const char *nvm_g80_slot_name(unsigned engine, unsigned client, unsigned slot, unsigned gen, char *buf, size_t len)
{
	if (gen > NVM_G80_GEN_GT215)
		return NULL;
	if (!buf || !len)
		return NULL;
	for (size_t i = 0; i < N(slots); i++) {
		const struct g80_slot *s = &slots[i];
		if (s->engine == engine && s->client == client && ((s->gens >> gen) & 1u) &&
		    mmu_range_name(&s->slots, 1, slot, buf, len))
			return buf;
	}
	return NULL;
}
