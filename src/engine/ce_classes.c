/*
 * The copy-engine classes, one const table each, and the operations a
 * class adds (the FMIN/FMAX reductions). What changed from class to class
 * is the diff of NVIDIA's class headers (refs/nvidia-classes/dma-copy/
 * clc3b5.h .. clc8b5.h; refs/host-generations-facts.md T9, A10, H5):
 *
 *   C5B5 TURING_DMA_COPY_A  SEMAPHORE_TYPE 3 RELEASE_CONDITIONAL_INTR_SEMAPHORE,
 *                           LAUNCH_DMA DISABLE_PLC 26:26
 *   C6B5 AMPERE_DMA_COPY_A  PHYS_MODE TARGET 3 PEERMEM, PEER_ID 8:6, FLA 9:9;
 *                           LAUNCH_DMA SRC/DST_BYPASS_L2 20/21 removed
 *   C7B5 AMPERE_DMA_COPY_B  SEMAPHORE_PAYLOAD_SIZE 27:27 (ONE_WORD/TWO_WORD),
 *                           SET_SEMAPHORE_PAYLOAD_UPPER 0x24C, reductions FMIN
 *                           0xB / FMAX 0xC, SET_MONITORED_FENCE_* 0x21C-0x224
 *   C8B5 HOPPER_DMA_COPY_A  address UPPER fields 24:0; LAUNCH_DMA COPY_TYPE
 *                           21:20, VPRMODE 22:22, MEMORY_SCRUB_ENABLE 23:23;
 *                           SET_SECURE_COPY_MODE 0x500, auth tag / IV
 *                           addresses 0x514-0x53C, SET_MEMORY_SCRUB_PARAMETERS
 *                           0x6FC
 */
#include <string.h>

#include "ce_internal.h"

/* ---------------------------------------------------------------- reductions */

/* IMIN .. DEC: the Host's rules (silicon H100: the CE's reductions "behave
 * exactly as the Host reductions"). */
static bool int_valid(unsigned op, bool is64, bool sgn)
{
	return sem_red_valid(op, is64, sgn);
}

/* silicon H100 (Host semaphores; the CE's "behave exactly as the Host
 * reductions"): IADD ignores the format, so a 64-bit signed IADD is valid
 * and carries, where the gv100 manual calls it invalid. The Hopper class
 * follows silicon. */
static bool int_valid_h100(unsigned op, bool is64, bool sgn)
{
	return op == SEM_RED_IADD || sem_red_valid(op, is64, sgn);
}

static uint64_t int_apply(unsigned op, bool is64, bool sgn, uint64_t v, uint64_t pl)
{
	return sem_reduce(op, is64, sgn, v, pl);
}

/* The float reductions are f32 (SIGN has no meaning for them).
 * UNVERIFIED: with SEMAPHORE_PAYLOAD_SIZE TWO_WORD they are a launch error
 * (the header names no f64 reduction). */
static bool float_valid(unsigned op, bool is64, bool sgn)
{
	(void)op;
	(void)sgn;
	return !is64;
}

static uint64_t fadd_apply(unsigned op, bool is64, bool sgn, uint64_t v, uint64_t pl)
{
	(void)op;
	(void)is64;
	(void)sgn;
	return sem_fadd32((uint32_t)v, (uint32_t)pl);
}

static float as_float(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* FMIN / FMAX (clc7b5.h 0xB / 0xC). UNVERIFIED: IEEE minNum/maxNum (a NaN
 * operand loses to a number; two NaNs give 0x7fffffff as FADD's NaN does),
 * -0 below +0, denormals kept. */
static uint64_t fminmax_apply(unsigned op, bool is64, bool sgn, uint64_t v, uint64_t pl)
{
	(void)is64;
	(void)sgn;
	uint32_t a = (uint32_t)v, b = (uint32_t)pl;
	float fa = as_float(a), fb = as_float(b);
	bool max = op == 0xC;
	if (fa != fa && fb != fb)
		return 0x7fffffffu;
	if (fa != fa)
		return b;
	if (fb != fb)
		return a;
	if (fa == fb) /* equal, or -0 and +0: the sign bit decides */
		return max ? (a & b) : (a | b);
	return (fa < fb) != max ? a : b;
}

static const struct ce_red red_int = { int_valid, int_apply };
static const struct ce_red red_int_h100 = { int_valid_h100, int_apply };
static const struct ce_red red_fadd = { float_valid, fadd_apply };
static const struct ce_red red_fminmax = { float_valid, fminmax_apply };

/* ---------------------------------------------------------------- C3B5 */

/* Every method of class C3B5 (clc3b5.h), by address. */
static const struct ce_mthd c3b5_mthds[] = {
	{ 0x100, S_NONE, "NOP", ce_m_nop },
	{ 0x140, S_NONE, "PM_TRIGGER", ce_m_unmodelled },
	{ 0x240, S_SEM_A, "SET_SEMAPHORE_A", ce_m_store },
	{ 0x244, S_SEM_B, "SET_SEMAPHORE_B", ce_m_store },
	{ 0x248, S_SEM_PAYLOAD, "SET_SEMAPHORE_PAYLOAD", ce_m_store },
	{ 0x254, S_RENDER_A, "SET_RENDER_ENABLE_A", ce_m_store },
	{ 0x258, S_RENDER_B, "SET_RENDER_ENABLE_B", ce_m_store },
	{ 0x25c, S_RENDER_C, "SET_RENDER_ENABLE_C", ce_m_render },
	{ 0x260, S_SRC_PHYS, "SET_SRC_PHYS_MODE", ce_m_store },
	{ 0x264, S_DST_PHYS, "SET_DST_PHYS_MODE", ce_m_store },
	{ 0x300, S_NONE, "LAUNCH_DMA", ce_m_launch },
	{ 0x400, S_IN_UPPER, "OFFSET_IN_UPPER", ce_m_store },
	{ 0x404, S_IN_LOWER, "OFFSET_IN_LOWER", ce_m_store },
	{ 0x408, S_OUT_UPPER, "OFFSET_OUT_UPPER", ce_m_store },
	{ 0x40c, S_OUT_LOWER, "OFFSET_OUT_LOWER", ce_m_store },
	{ 0x410, S_PITCH_IN, "PITCH_IN", ce_m_store },
	{ 0x414, S_PITCH_OUT, "PITCH_OUT", ce_m_store },
	{ 0x418, S_LINE_LENGTH, "LINE_LENGTH_IN", ce_m_store },
	{ 0x41c, S_LINE_COUNT, "LINE_COUNT", ce_m_store },
	{ 0x700, S_CONST_A, "SET_REMAP_CONST_A", ce_m_store },
	{ 0x704, S_CONST_B, "SET_REMAP_CONST_B", ce_m_store },
	{ 0x708, S_REMAP, "SET_REMAP_COMPONENTS", ce_m_store },
	{ 0x70c, S_DST_BLOCK, "SET_DST_BLOCK_SIZE", ce_m_store },
	{ 0x710, S_DST_WIDTH, "SET_DST_WIDTH", ce_m_store },
	{ 0x714, S_DST_HEIGHT, "SET_DST_HEIGHT", ce_m_store },
	{ 0x718, S_DST_DEPTH, "SET_DST_DEPTH", ce_m_store },
	{ 0x71c, S_DST_LAYER, "SET_DST_LAYER", ce_m_store },
	{ 0x720, S_DST_ORIGIN_X, "SET_DST_ORIGIN", ce_m_origin },
	{ 0x728, S_SRC_BLOCK, "SET_SRC_BLOCK_SIZE", ce_m_store },
	{ 0x72c, S_SRC_WIDTH, "SET_SRC_WIDTH", ce_m_store },
	{ 0x730, S_SRC_HEIGHT, "SET_SRC_HEIGHT", ce_m_store },
	{ 0x734, S_SRC_DEPTH, "SET_SRC_DEPTH", ce_m_store },
	{ 0x738, S_SRC_LAYER, "SET_SRC_LAYER", ce_m_store },
	{ 0x73c, S_SRC_ORIGIN_X, "SET_SRC_ORIGIN", ce_m_origin },
	{ 0x744, S_SRC_ORIGIN_X, "SRC_ORIGIN_X", ce_m_store },
	{ 0x748, S_SRC_ORIGIN_Y, "SRC_ORIGIN_Y", ce_m_store },
	{ 0x74c, S_DST_ORIGIN_X, "DST_ORIGIN_X", ce_m_store },
	{ 0x750, S_DST_ORIGIN_Y, "DST_ORIGIN_Y", ce_m_store },
	{ 0x1114, S_NONE, "PM_TRIGGER_END", ce_m_unmodelled },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* VPRMODE 23:22 (protected memory): copied as VPR_NONE. */
static const struct ce_launch_field c3b5_fields[] = {
	{ 23, 22, 0, "VPRMODE", "vprmode" },
};

/* IMIN .. DEC and FADD (0xA); 8, 9, 0xB .. 0xF undefined. */
#define RED_C3B5                                                                                                       \
	[0] = &red_int, [1] = &red_int, [2] = &red_int, [3] = &red_int, [4] = &red_int, [5] = &red_int,                \
	[6] = &red_int, [7] = &red_int, [0xA] = &red_fadd

const struct ce_class ce_c3b5 = {
	.id = 0xC3B5,
	.name = "VOLTA_DMA_COPY_A",
	.short_name = "C3B5",
	.mthds = c3b5_mthds,
	.nmthds = N(c3b5_mthds),
	.upper_hi = 16,
	.sem_types = 0x7, /* NONE, ONE_WORD, FOUR_WORD */
	.red = { RED_C3B5 },
	/* LOCAL_FB, COHERENT_SYSMEM, NONCOHERENT_SYSMEM; 3 undefined */
	.phys = { CE_PHYS_VRAM, CE_PHYS_SYSMEM, CE_PHYS_SYSMEM, CE_PHYS_UNDEFINED },
	.fields = c3b5_fields,
	.nfields = N(c3b5_fields),
};

/* ---------------------------------------------------------------- C5B5 */

/* DISABLE_PLC 26:26 (post-L2 compression) has no effect in the model. */
const struct ce_class ce_c5b5 = {
	.id = 0xC5B5,
	.name = "TURING_DMA_COPY_A",
	.short_name = "C5B5",
	.parent = &ce_c3b5,
	.upper_hi = 16,
	.sem_types = 0xf,
	.sem_cond_intr = 3, /* RELEASE_CONDITIONAL_INTR_SEMAPHORE */
	.red = { RED_C3B5 },
	.phys = { CE_PHYS_VRAM, CE_PHYS_SYSMEM, CE_PHYS_SYSMEM, CE_PHYS_UNDEFINED },
	.fields = c3b5_fields,
	.nfields = N(c3b5_fields),
};

/* ---------------------------------------------------------------- C6B5 */

/* PHYS_MODE PEER_ID 8:6 and FLA 9:9 only qualify PEERMEM, which is not
 * modelled. */
static const struct ce_launch_field c6b5_fields[] = {
	{ 23, 22, 0, "VPRMODE", "vprmode" },
};

const struct ce_class ce_c6b5 = {
	.id = 0xC6B5,
	.name = "AMPERE_DMA_COPY_A",
	.short_name = "C6B5",
	.parent = &ce_c5b5,
	.upper_hi = 16,
	.sem_types = 0xf,
	.sem_cond_intr = 3,
	.red = { RED_C3B5 },
	.phys = { CE_PHYS_VRAM, CE_PHYS_SYSMEM, CE_PHYS_SYSMEM, CE_PHYS_PEER }, /* 3 PEERMEM */
	.fields = c6b5_fields,
	.nfields = N(c6b5_fields),
};

/* ---------------------------------------------------------------- C7B5 */

/* UNVERIFIED: SET_MONITORED_FENCE_* are stored nowhere (no LAUNCH_DMA field
 * of the class uses them); reported as unmodelled. */
static const struct ce_mthd c7b5_mthds[] = {
	{ 0x21c, S_NONE, "SET_MONITORED_FENCE_TYPE", ce_m_unmodelled },
	{ 0x220, S_NONE, "SET_MONITORED_FENCE_SIGNAL_ADDR_BASE_UPPER", ce_m_unmodelled },
	{ 0x224, S_NONE, "SET_MONITORED_FENCE_SIGNAL_ADDR_BASE_LOWER", ce_m_unmodelled },
	{ 0x24c, S_SEM_PAYLOAD_UPPER, "SET_SEMAPHORE_PAYLOAD_UPPER", ce_m_store },
};

#define RED_C7B5 RED_C3B5, [0xB] = &red_fminmax, [0xC] = &red_fminmax

const struct ce_class ce_c7b5 = {
	.id = 0xC7B5,
	.name = "AMPERE_DMA_COPY_B",
	.short_name = "C7B5",
	.parent = &ce_c6b5,
	.mthds = c7b5_mthds,
	.nmthds = N(c7b5_mthds),
	.upper_hi = 16,
	.sem_types = 0xf,
	.sem_cond_intr = 3,
	.payload_size_bit = 27,
	.red = { RED_C7B5 },
	.phys = { CE_PHYS_VRAM, CE_PHYS_SYSMEM, CE_PHYS_SYSMEM, CE_PHYS_PEER },
	.fields = c6b5_fields,
	.nfields = N(c6b5_fields),
};

/* ---------------------------------------------------------------- C8B5 */

/* Confidential-computing copies (secure copy mode, auth tags, IVs) and
 * memory scrubbing are not modelled: the methods are reported, and a launch
 * with COPY_TYPE SECURE/NONPROT2NONPROT or MEMORY_SCRUB_ENABLE runs as a
 * plain copy (UNVERIFIED); COPY_TYPE RESERVED (3) is a launch error
 * (UNVERIFIED). */
static const struct ce_mthd c8b5_mthds[] = {
	{ 0x500, S_NONE, "SET_SECURE_COPY_MODE", ce_m_unmodelled },
	{ 0x514, S_NONE, "SET_DECRYPT_AUTH_TAG_COMPARE_ADDR_UPPER", ce_m_unmodelled },
	{ 0x518, S_NONE, "SET_DECRYPT_AUTH_TAG_COMPARE_ADDR_LOWER", ce_m_unmodelled },
	{ 0x530, S_NONE, "SET_ENCRYPT_AUTH_TAG_ADDR_UPPER", ce_m_unmodelled },
	{ 0x534, S_NONE, "SET_ENCRYPT_AUTH_TAG_ADDR_LOWER", ce_m_unmodelled },
	{ 0x538, S_NONE, "SET_ENCRYPT_IV_ADDR_UPPER", ce_m_unmodelled },
	{ 0x53c, S_NONE, "SET_ENCRYPT_IV_ADDR_LOWER", ce_m_unmodelled },
	{ 0x6fc, S_NONE, "SET_MEMORY_SCRUB_PARAMETERS", ce_m_unmodelled },
};

static const struct ce_launch_field c8b5_fields[] = {
	{ 21, 20, 3, "COPY_TYPE", "copy_type" },
	{ 22, 22, 0, "VPRMODE", "vprmode" },
	{ 23, 23, 0, "MEMORY_SCRUB_ENABLE", "memory_scrub" },
};

const struct ce_class ce_c8b5 = {
	.id = 0xC8B5,
	.name = "HOPPER_DMA_COPY_A",
	.short_name = "C8B5",
	.parent = &ce_c7b5,
	.mthds = c8b5_mthds,
	.nmthds = N(c8b5_mthds),
	.upper_hi = 24,
	.sem_types = 0xf,
	.sem_cond_intr = 3,
	.payload_size_bit = 27,
	.red = { [0] = &red_int,
	         [1] = &red_int,
	         [2] = &red_int,
	         [3] = &red_int,
	         [4] = &red_int,
	         [5] = &red_int_h100, /* IADD */
	         [6] = &red_int,
	         [7] = &red_int,
	         [0xA] = &red_fadd,
	         [0xB] = &red_fminmax,
	         [0xC] = &red_fminmax },
	.phys = { CE_PHYS_VRAM, CE_PHYS_SYSMEM, CE_PHYS_SYSMEM, CE_PHYS_PEER },
	.fields = c8b5_fields,
	.nfields = N(c8b5_fields),
};

/* ---------------------------------------------------------------- lookups */

static const struct ce_class *const classes[] = { &ce_c3b5, &ce_c5b5, &ce_c6b5, &ce_c7b5, &ce_c8b5 };

const struct ce_class *ce_class_find(uint32_t id)
{
	for (size_t i = 0; i < N(classes); i++)
		if (classes[i]->id == id)
			return classes[i];
	return NULL;
}

static const struct ce_mthd *find_in(const struct ce_mthd *t, size_t n, uint32_t addr)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t[mid].addr == addr)
			return &t[mid];
		if (t[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const struct ce_mthd *ce_class_mthd(const struct ce_class *c, uint32_t addr)
{
	for (; c; c = c->parent) {
		const struct ce_mthd *m = find_in(c->mthds, c->nmthds, addr);
		if (m)
			return m;
	}
	return NULL;
}
