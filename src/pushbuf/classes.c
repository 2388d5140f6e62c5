/*
 * Method name tables of the classes the decoder names: the Volta host class
 * C36F (VOLTA_CHANNEL_GPFIFO_A) and the Volta copy engine C3B5
 * (VOLTA_DMA_COPY_A). Transcribed from refs/nvidia-gv100/host-c36f-facts.md,
 * ce-c3b5-facts.md and refs/volta-facts.md section b (facts of NVIDIA's
 * clc36f.h / clc3b5.h). These tables drive the decoder's text output and
 * the assembler's method names; there is no per-method code. Field and
 * value lists that several methods share (a 31:0 VALUE, FALSE/TRUE, the GOB
 * sizes ...) are one table named after its content (f_value, v_false_true).
 */
#include <strings.h>

#include "pb_internal.h"

#define V(a) a, sizeof(a) / sizeof(a[0])
#define F(a) a, sizeof(a) / sizeof(a[0])

static const pb_value v_c36f_SET_OBJECT_ENGINE[] = {
	{ "SW", 0x1f },
};
static const pb_field f_c36f_SET_OBJECT[] = {
	{ "NVCLASS", 15, 0, NULL, 0 },
	{ "ENGINE", 20, 16, V(v_c36f_SET_OBJECT_ENGINE) },
};
static const pb_field f_handle[] = {
	{ "HANDLE", 31, 0, NULL, 0 },
};
static const pb_field f_c36f_SEMAPHOREA[] = {
	{ "OFFSET_UPPER", 7, 0, NULL, 0 },
};
static const pb_field f_c36f_SEMAPHOREB[] = {
	{ "OFFSET_LOWER", 31, 2, NULL, 0 },
};
static const pb_field f_payload[] = {
	{ "PAYLOAD", 31, 0, NULL, 0 },
};
static const pb_value v_c36f_SEMAPHORED_OPERATION[] = {
	{ "ACQUIRE", 0x1 }, { "RELEASE", 0x2 }, { "ACQ_GEQ", 0x4 }, { "ACQ_AND", 0x8 }, { "REDUCTION", 0x10 },
};
static const pb_value v_c36f_SEMAPHORED_ACQUIRE_SWITCH[] = {
	{ "DISABLED", 0x0 },
	{ "ENABLED", 0x1 },
};
static const pb_value v_c36f_SEMAPHORED_RELEASE_WFI[] = {
	{ "EN", 0x0 },
	{ "DIS", 0x1 },
};
static const pb_value v_c36f_SEMAPHORED_RELEASE_SIZE[] = {
	{ "16BYTE", 0x0 },
	{ "4BYTE", 0x1 },
};
static const pb_value v_c36f_SEMAPHORED_REDUCTION[] = {
	{ "MIN", 0x0 }, { "MAX", 0x1 }, { "XOR", 0x2 }, { "AND", 0x3 },
	{ "OR", 0x4 },  { "ADD", 0x5 }, { "INC", 0x6 }, { "DEC", 0x7 },
};
static const pb_value v_signed_unsigned[] = {
	{ "SIGNED", 0x0 },
	{ "UNSIGNED", 0x1 },
};
static const pb_field f_c36f_SEMAPHORED[] = {
	{ "OPERATION", 4, 0, V(v_c36f_SEMAPHORED_OPERATION) },
	{ "ACQUIRE_SWITCH", 12, 12, V(v_c36f_SEMAPHORED_ACQUIRE_SWITCH) },
	{ "RELEASE_WFI", 20, 20, V(v_c36f_SEMAPHORED_RELEASE_WFI) },
	{ "RELEASE_SIZE", 24, 24, V(v_c36f_SEMAPHORED_RELEASE_SIZE) },
	{ "REDUCTION", 30, 27, V(v_c36f_SEMAPHORED_REDUCTION) },
	{ "FORMAT", 31, 31, V(v_signed_unsigned) },
};
/* MEM_OP_A..D: volta-facts.md section b "MEM_OP fields" (the class listing
 * is incomplete for these); fields that overlap are alternative meanings that
 * depend on MEM_OP_D OPERATION. */
static const pb_value v_dis_en[] = {
	{ "DIS", 0x0 },
	{ "EN", 0x1 },
};
static const pb_field f_c36f_MEM_OP_A[] = {
	{ "TLB_INVALIDATE_CANCEL_TARGET_CLIENT_UNIT_ID", 5, 0, NULL, 0 },
	{ "TLB_INVALIDATE_INVALIDATION_SIZE", 5, 0, NULL, 0 },
	{ "TLB_INVALIDATE_CANCEL_MMU_ENGINE_ID", 6, 0, NULL, 0 },
	{ "TLB_INVALIDATE_CANCEL_TARGET_GPC_ID", 10, 6, NULL, 0 },
	{ "TLB_INVALIDATE_SYSMEMBAR", 11, 11, V(v_dis_en) },
	{ "TLB_INVALIDATE_TARGET_ADDR_LO", 31, 12, NULL, 0 },
};
static const pb_field f_c36f_MEM_OP_B[] = {
	{ "TLB_INVALIDATE_TARGET_ADDR_HI", 31, 0, NULL, 0 },
};
static const pb_value v_c36f_MEM_OP_C_MEMBAR_TYPE[] = {
	{ "SYS_MEMBAR", 0x0 },
	{ "MEMBAR", 0x1 },
};
static const pb_value v_c36f_MEM_OP_C_PDB[] = {
	{ "ONE", 0x0 },
	{ "ALL", 0x1 },
};
static const pb_value v_c36f_MEM_OP_C_GPC[] = {
	{ "ENABLE", 0x0 },
	{ "DISABLE", 0x1 },
};
static const pb_value v_c36f_MEM_OP_C_REPLAY[] = {
	{ "NONE", 0x0 },          { "START", 0x1 },
	{ "START_ACK_ALL", 0x2 }, { "CANCEL_TARGETED", 0x3 },
	{ "CANCEL_GLOBAL", 0x4 }, { "CANCEL_VA_GLOBAL", 0x5 },
};
static const pb_value v_c36f_MEM_OP_C_ACK_TYPE[] = {
	{ "NONE", 0x0 },
	{ "GLOBALLY", 0x1 },
	{ "INTRANODE", 0x2 },
};
static const pb_value v_c36f_MEM_OP_C_PAGE_TABLE_LEVEL[] = {
	{ "ALL", 0x0 },        { "PTE_ONLY", 0x1 },   { "UP_TO_PDE0", 0x2 }, { "UP_TO_PDE1", 0x3 },
	{ "UP_TO_PDE2", 0x4 }, { "UP_TO_PDE3", 0x5 }, { "UP_TO_PDE4", 0x6 }, { "UP_TO_PDE5", 0x7 },
};
static const pb_value v_c36f_MEM_OP_C_PDB_APERTURE[] = {
	{ "VID_MEM", 0x0 },
	{ "SYS_MEM_COHERENT", 0x2 },
	{ "SYS_MEM_NONCOHERENT", 0x3 },
};
static const pb_field f_c36f_MEM_OP_C[] = {
	{ "MEMBAR_TYPE", 2, 0, V(v_c36f_MEM_OP_C_MEMBAR_TYPE) },
	{ "TLB_INVALIDATE_PDB", 0, 0, V(v_c36f_MEM_OP_C_PDB) },
	{ "TLB_INVALIDATE_GPC", 1, 1, V(v_c36f_MEM_OP_C_GPC) },
	{ "TLB_INVALIDATE_REPLAY", 4, 2, V(v_c36f_MEM_OP_C_REPLAY) },
	{ "TLB_INVALIDATE_ACK_TYPE", 6, 5, V(v_c36f_MEM_OP_C_ACK_TYPE) },
	{ "TLB_INVALIDATE_PAGE_TABLE_LEVEL", 9, 7, V(v_c36f_MEM_OP_C_PAGE_TABLE_LEVEL) },
	{ "TLB_INVALIDATE_PDB_APERTURE", 11, 10, V(v_c36f_MEM_OP_C_PDB_APERTURE) },
	{ "TLB_INVALIDATE_PDB_ADDR_LO", 31, 12, NULL, 0 },
	{ "ACCESS_COUNTER_CLR_TARGETED_NOTIFY_TAG", 19, 0, NULL, 0 },
};
static const pb_value v_c36f_MEM_OP_D_OPERATION[] = {
	{ "MEMBAR", 0x5 },
	{ "MMU_TLB_INVALIDATE", 0x9 },
	{ "MMU_TLB_INVALIDATE_TARGETED", 0xa },
	{ "L2_PEERMEM_INVALIDATE", 0xd },
	{ "L2_SYSMEM_INVALIDATE", 0xe },
	{ "L2_CLEAN_COMPTAGS", 0xf },
	{ "L2_FLUSH_DIRTY", 0x10 },
	{ "L2_WAIT_FOR_SYS_PENDING_READS", 0x15 },
	{ "ACCESS_COUNTER_CLR", 0x16 },
};
static const pb_value v_c36f_MEM_OP_D_ACCESS_COUNTER_CLR_TYPE[] = {
	{ "MIMC", 0x0 },
	{ "MOMC", 0x1 },
	{ "ALL", 0x2 },
	{ "TARGETED", 0x3 },
};
static const pb_field f_c36f_MEM_OP_D[] = {
	{ "TLB_INVALIDATE_PDB_ADDR_HI", 26, 0, NULL, 0 },
	{ "ACCESS_COUNTER_CLR_TYPE", 1, 0, V(v_c36f_MEM_OP_D_ACCESS_COUNTER_CLR_TYPE) },
	{ "ACCESS_COUNTER_CLR_TARGETED_TYPE", 2, 2, V(v_c36f_MEM_OP_D_ACCESS_COUNTER_CLR_TYPE) },
	{ "ACCESS_COUNTER_CLR_TARGETED_BANK", 6, 3, NULL, 0 },
	{ "OPERATION", 31, 27, V(v_c36f_MEM_OP_D_OPERATION) },
};
static const pb_field f_c36f_SET_REFERENCE[] = {
	{ "COUNT", 31, 0, NULL, 0 },
};
static const pb_field f_c36f_SEM_ADDR_LO[] = {
	{ "OFFSET", 31, 2, NULL, 0 },
};
static const pb_field f_c36f_SEM_ADDR_HI[] = {
	{ "OFFSET", 7, 0, NULL, 0 },
};
static const pb_value v_c36f_SEM_EXECUTE_OPERATION[] = {
	{ "ACQUIRE", 0x0 }, { "RELEASE", 0x1 }, { "ACQ_STRICT_GEQ", 0x2 }, { "ACQ_CIRC_GEQ", 0x3 },
	{ "ACQ_AND", 0x4 }, { "ACQ_NOR", 0x5 }, { "REDUCTION", 0x6 },
};
static const pb_value v_c36f_SEM_EXECUTE_PAYLOAD_SIZE[] = {
	{ "32BIT", 0x0 },
	{ "64BIT", 0x1 },
};
static const pb_value v_c36f_SEM_EXECUTE_REDUCTION[] = {
	{ "IMIN", 0x0 }, { "IMAX", 0x1 }, { "IXOR", 0x2 }, { "IAND", 0x3 },
	{ "IOR", 0x4 },  { "IADD", 0x5 }, { "INC", 0x6 },  { "DEC", 0x7 },
};
static const pb_field f_c36f_SEM_EXECUTE[] = {
	{ "OPERATION", 2, 0, V(v_c36f_SEM_EXECUTE_OPERATION) },
	{ "ACQUIRE_SWITCH_TSG", 12, 12, V(v_dis_en) },
	{ "RELEASE_WFI", 20, 20, V(v_dis_en) },
	{ "PAYLOAD_SIZE", 24, 24, V(v_c36f_SEM_EXECUTE_PAYLOAD_SIZE) },
	{ "RELEASE_TIMESTAMP", 25, 25, V(v_dis_en) },
	{ "REDUCTION", 30, 27, V(v_c36f_SEM_EXECUTE_REDUCTION) },
	{ "REDUCTION_FORMAT", 31, 31, V(v_signed_unsigned) },
};
static const pb_value v_c36f_WFI_SCOPE[] = {
	{ "CURRENT_VEID", 0x0 }, /* the Volta name (volta-facts b), printed first */
	{ "CURRENT_SCG_TYPE", 0x0 },
	{ "ALL", 0x1 },
};
static const pb_field f_c36f_WFI[] = {
	{ "SCOPE", 0, 0, V(v_c36f_WFI_SCOPE) },
};
static const pb_field f_value[] = {
	{ "VALUE", 31, 0, NULL, 0 },
};
static const pb_value v_c36f_YIELD_OP[] = {
	{ "NOP", 0x0 },
	{ "RUNLIST_TIMESLICE", 0x2 },
	{ "TSG", 0x3 },
};
static const pb_field f_c36f_YIELD[] = {
	{ "OP", 1, 0, V(v_c36f_YIELD_OP) },
};
static const pb_value v_c36f_CLEAR_FAULTED_TYPE[] = {
	{ "PBDMA_FAULTED", 0x0 },
	{ "ENG_FAULTED", 0x1 },
};
static const pb_field f_c36f_CLEAR_FAULTED[] = {
	{ "CHID", 11, 0, NULL, 0 },
	{ "TYPE", 31, 31, V(v_c36f_CLEAR_FAULTED_TYPE) },
};
static const pb_method m_c36f[] = {
	{ 0x000, "SET_OBJECT", F(f_c36f_SET_OBJECT) },
	{ 0x004, "ILLEGAL", F(f_handle) },
	{ 0x008, "NOP", F(f_handle) },
	{ 0x010, "SEMAPHOREA", F(f_c36f_SEMAPHOREA) },
	{ 0x014, "SEMAPHOREB", F(f_c36f_SEMAPHOREB) },
	{ 0x018, "SEMAPHOREC", F(f_payload) },
	{ 0x01c, "SEMAPHORED", F(f_c36f_SEMAPHORED) },
	{ 0x020, "NON_STALL_INTERRUPT", F(f_handle) },
	{ 0x024, "FB_FLUSH", F(f_handle) },
	{ 0x028, "MEM_OP_A", F(f_c36f_MEM_OP_A) },
	{ 0x02c, "MEM_OP_B", F(f_c36f_MEM_OP_B) },
	{ 0x030, "MEM_OP_C", F(f_c36f_MEM_OP_C) },
	{ 0x034, "MEM_OP_D", F(f_c36f_MEM_OP_D) },
	{ 0x050, "SET_REFERENCE", F(f_c36f_SET_REFERENCE) },
	{ 0x05c, "SEM_ADDR_LO", F(f_c36f_SEM_ADDR_LO) },
	{ 0x060, "SEM_ADDR_HI", F(f_c36f_SEM_ADDR_HI) },
	{ 0x064, "SEM_PAYLOAD_LO", F(f_payload) },
	{ 0x068, "SEM_PAYLOAD_HI", F(f_payload) },
	{ 0x06c, "SEM_EXECUTE", F(f_c36f_SEM_EXECUTE) },
	{ 0x078, "WFI", F(f_c36f_WFI) },
	{ 0x07c, "CRC_CHECK", F(f_value) },
	{ 0x080, "YIELD", F(f_c36f_YIELD) },
	{ 0x084, "CLEAR_FAULTED", F(f_c36f_CLEAR_FAULTED) },
};
static const pb_field f_c3b5_NOP[] = {
	{ "PARAMETER", 31, 0, NULL, 0 },
};
static const pb_field f_v[] = {
	{ "V", 31, 0, NULL, 0 },
};
static const pb_field f_upper_16_0[] = {
	{ "UPPER", 16, 0, NULL, 0 },
};
static const pb_field f_lower[] = {
	{ "LOWER", 31, 0, NULL, 0 },
};
static const pb_field f_c3b5_SET_RENDER_ENABLE_A[] = {
	{ "UPPER", 7, 0, NULL, 0 },
};
static const pb_value v_c3b5_SET_RENDER_ENABLE_C_MODE[] = {
	{ "FALSE", 0x0 },
	{ "TRUE", 0x1 },
	{ "CONDITIONAL", 0x2 },
	{ "RENDER_IF_EQUAL", 0x3 },
	{ "RENDER_IF_NOT_EQUAL", 0x4 },
};
static const pb_field f_c3b5_SET_RENDER_ENABLE_C[] = {
	{ "MODE", 2, 0, V(v_c3b5_SET_RENDER_ENABLE_C_MODE) },
};
static const pb_value v_local_fb_noncoherent_sysmem[] = {
	{ "LOCAL_FB", 0x0 },
	{ "COHERENT_SYSMEM", 0x1 },
	{ "NONCOHERENT_SYSMEM", 0x2 },
};
static const pb_field f_target_basic_kind[] = {
	{ "TARGET", 1, 0, V(v_local_fb_noncoherent_sysmem) },
	{ "BASIC_KIND", 5, 2, NULL, 0 },
};
static const pb_value v_c3b5_LAUNCH_DMA_DATA_TRANSFER_TYPE[] = {
	{ "NONE", 0x0 },
	{ "PIPELINED", 0x1 },
	{ "NON_PIPELINED", 0x2 },
};
static const pb_value v_false_true[] = {
	{ "FALSE", 0x0 },
	{ "TRUE", 0x1 },
};
static const pb_value v_c3b5_LAUNCH_DMA_FLUSH_TYPE[] = {
	{ "SYS", 0x0 },
	{ "GL", 0x1 },
};
static const pb_value v_c3b5_LAUNCH_DMA_SEMAPHORE_TYPE[] = {
	{ "NONE", 0x0 },
	{ "RELEASE_ONE_WORD_SEMAPHORE", 0x1 },
	{ "RELEASE_FOUR_WORD_SEMAPHORE", 0x2 },
};
static const pb_value v_c3b5_LAUNCH_DMA_INTERRUPT_TYPE[] = {
	{ "NONE", 0x0 },
	{ "BLOCKING", 0x1 },
	{ "NON_BLOCKING", 0x2 },
};
static const pb_value v_blocklinear_pitch[] = {
	{ "BLOCKLINEAR", 0x0 },
	{ "PITCH", 0x1 },
};
static const pb_value v_virtual_physical[] = {
	{ "VIRTUAL", 0x0 },
	{ "PHYSICAL", 0x1 },
};
static const pb_value v_c3b5_LAUNCH_DMA_SEMAPHORE_REDUCTION[] = {
	{ "IMIN", 0x0 }, { "IMAX", 0x1 }, { "IXOR", 0x2 }, { "IAND", 0x3 }, { "IOR", 0x4 },
	{ "IADD", 0x5 }, { "INC", 0x6 },  { "DEC", 0x7 },  { "FADD", 0xa },
};
static const pb_value v_use_pte_setting_force_volatile[] = {
	{ "USE_PTE_SETTING", 0x0 },
	{ "FORCE_VOLATILE", 0x1 },
};
static const pb_value v_c3b5_LAUNCH_DMA_VPRMODE[] = {
	{ "VPR_NONE", 0x0 },
	{ "VPR_VID2VID", 0x1 },
};
static const pb_field f_c3b5_LAUNCH_DMA[] = {
	{ "DATA_TRANSFER_TYPE", 1, 0, V(v_c3b5_LAUNCH_DMA_DATA_TRANSFER_TYPE) },
	{ "FLUSH_ENABLE", 2, 2, V(v_false_true) },
	{ "FLUSH_TYPE", 25, 25, V(v_c3b5_LAUNCH_DMA_FLUSH_TYPE) },
	{ "SEMAPHORE_TYPE", 4, 3, V(v_c3b5_LAUNCH_DMA_SEMAPHORE_TYPE) },
	{ "INTERRUPT_TYPE", 6, 5, V(v_c3b5_LAUNCH_DMA_INTERRUPT_TYPE) },
	{ "SRC_MEMORY_LAYOUT", 7, 7, V(v_blocklinear_pitch) },
	{ "DST_MEMORY_LAYOUT", 8, 8, V(v_blocklinear_pitch) },
	{ "MULTI_LINE_ENABLE", 9, 9, V(v_false_true) },
	{ "REMAP_ENABLE", 10, 10, V(v_false_true) },
	{ "FORCE_RMWDISABLE", 11, 11, V(v_false_true) },
	{ "SRC_TYPE", 12, 12, V(v_virtual_physical) },
	{ "DST_TYPE", 13, 13, V(v_virtual_physical) },
	{ "SEMAPHORE_REDUCTION", 17, 14, V(v_c3b5_LAUNCH_DMA_SEMAPHORE_REDUCTION) },
	{ "SEMAPHORE_REDUCTION_SIGN", 18, 18, V(v_signed_unsigned) },
	{ "SEMAPHORE_REDUCTION_ENABLE", 19, 19, V(v_false_true) },
	{ "SRC_BYPASS_L2", 20, 20, V(v_use_pte_setting_force_volatile) },
	{ "DST_BYPASS_L2", 21, 21, V(v_use_pte_setting_force_volatile) },
	{ "VPRMODE", 23, 22, V(v_c3b5_LAUNCH_DMA_VPRMODE) },
	{ "RESERVED_START_OF_COPY", 24, 24, NULL, 0 },
	{ "RESERVED_ERR_CODE", 31, 28, NULL, 0 },
};
static const pb_value v_src_x_no_write[] = {
	{ "SRC_X", 0x0 },   { "SRC_Y", 0x1 },   { "SRC_Z", 0x2 },    { "SRC_W", 0x3 },
	{ "CONST_A", 0x4 }, { "CONST_B", 0x5 }, { "NO_WRITE", 0x6 },
};
static const pb_value v_one_four[] = {
	{ "ONE", 0x0 },
	{ "TWO", 0x1 },
	{ "THREE", 0x2 },
	{ "FOUR", 0x3 },
};
static const pb_field f_c3b5_SET_REMAP_COMPONENTS[] = {
	{ "DST_X", 2, 0, V(v_src_x_no_write) },          { "DST_Y", 6, 4, V(v_src_x_no_write) },
	{ "DST_Z", 10, 8, V(v_src_x_no_write) },         { "DST_W", 14, 12, V(v_src_x_no_write) },
	{ "COMPONENT_SIZE", 17, 16, V(v_one_four) },     { "NUM_SRC_COMPONENTS", 21, 20, V(v_one_four) },
	{ "NUM_DST_COMPONENTS", 25, 24, V(v_one_four) },
};
static const pb_value v_one_gob[] = {
	{ "ONE_GOB", 0x0 },
};
static const pb_value v_one_gob_thirtytwo_gobs[] = {
	{ "ONE_GOB", 0x0 },    { "TWO_GOBS", 0x1 },     { "FOUR_GOBS", 0x2 },
	{ "EIGHT_GOBS", 0x3 }, { "SIXTEEN_GOBS", 0x4 }, { "THIRTYTWO_GOBS", 0x5 },
};
static const pb_value v_gob_height_fermi_8[] = {
	{ "GOB_HEIGHT_FERMI_8", 0x1 },
};
static const pb_field f_width_height_depth_gob_height[] = {
	{ "WIDTH", 3, 0, V(v_one_gob) },
	{ "HEIGHT", 7, 4, V(v_one_gob_thirtytwo_gobs) },
	{ "DEPTH", 11, 8, V(v_one_gob_thirtytwo_gobs) },
	{ "GOB_HEIGHT", 15, 12, V(v_gob_height_fermi_8) },
};
static const pb_field f_x_y[] = {
	{ "X", 15, 0, NULL, 0 },
	{ "Y", 31, 16, NULL, 0 },
};
static const pb_method m_c3b5[] = {
	{ 0x100, "NOP", F(f_c3b5_NOP) },
	{ 0x140, "PM_TRIGGER", F(f_v) },
	{ 0x240, "SET_SEMAPHORE_A", F(f_upper_16_0) },
	{ 0x244, "SET_SEMAPHORE_B", F(f_lower) },
	{ 0x248, "SET_SEMAPHORE_PAYLOAD", F(f_payload) },
	{ 0x254, "SET_RENDER_ENABLE_A", F(f_c3b5_SET_RENDER_ENABLE_A) },
	{ 0x258, "SET_RENDER_ENABLE_B", F(f_lower) },
	{ 0x25c, "SET_RENDER_ENABLE_C", F(f_c3b5_SET_RENDER_ENABLE_C) },
	{ 0x260, "SET_SRC_PHYS_MODE", F(f_target_basic_kind) },
	{ 0x264, "SET_DST_PHYS_MODE", F(f_target_basic_kind) },
	{ 0x300, "LAUNCH_DMA", F(f_c3b5_LAUNCH_DMA) },
	{ 0x400, "OFFSET_IN_UPPER", F(f_upper_16_0) },
	{ 0x404, "OFFSET_IN_LOWER", F(f_value) },
	{ 0x408, "OFFSET_OUT_UPPER", F(f_upper_16_0) },
	{ 0x40c, "OFFSET_OUT_LOWER", F(f_value) },
	{ 0x410, "PITCH_IN", F(f_value) },
	{ 0x414, "PITCH_OUT", F(f_value) },
	{ 0x418, "LINE_LENGTH_IN", F(f_value) },
	{ 0x41c, "LINE_COUNT", F(f_value) },
	{ 0x700, "SET_REMAP_CONST_A", F(f_v) },
	{ 0x704, "SET_REMAP_CONST_B", F(f_v) },
	{ 0x708, "SET_REMAP_COMPONENTS", F(f_c3b5_SET_REMAP_COMPONENTS) },
	{ 0x70c, "SET_DST_BLOCK_SIZE", F(f_width_height_depth_gob_height) },
	{ 0x710, "SET_DST_WIDTH", F(f_v) },
	{ 0x714, "SET_DST_HEIGHT", F(f_v) },
	{ 0x718, "SET_DST_DEPTH", F(f_v) },
	{ 0x71c, "SET_DST_LAYER", F(f_v) },
	{ 0x720, "SET_DST_ORIGIN", F(f_x_y) },
	{ 0x728, "SET_SRC_BLOCK_SIZE", F(f_width_height_depth_gob_height) },
	{ 0x72c, "SET_SRC_WIDTH", F(f_v) },
	{ 0x730, "SET_SRC_HEIGHT", F(f_v) },
	{ 0x734, "SET_SRC_DEPTH", F(f_v) },
	{ 0x738, "SET_SRC_LAYER", F(f_v) },
	{ 0x73c, "SET_SRC_ORIGIN", F(f_x_y) },
	{ 0x744, "SRC_ORIGIN_X", F(f_value) },
	{ 0x748, "SRC_ORIGIN_Y", F(f_value) },
	{ 0x74c, "DST_ORIGIN_X", F(f_value) },
	{ 0x750, "DST_ORIGIN_Y", F(f_value) },
	{ 0x1114, "PM_TRIGGER_END", F(f_v) }, /* END_V 31:0 (ce-c3b5-facts.md PM_TRIGGER) */
};

#define NELEM(a) (sizeof(a) / sizeof(a[0]))

static const pb_class pb_classes[] = {
	{ 0xc36f, "VOLTA_CHANNEL_GPFIFO_A", "C36F", m_c36f, NELEM(m_c36f) },
	{ 0xc3b5, "VOLTA_DMA_COPY_A", "C3B5", m_c3b5, NELEM(m_c3b5) },
};

const pb_class *pb_class_find(uint32_t id)
{
	for (size_t i = 0; i < NELEM(pb_classes); i++)
		if (pb_classes[i].id == id)
			return &pb_classes[i];
	return NULL;
}

const pb_class *pb_class_find_tag(const char *tag)
{
	for (size_t i = 0; i < NELEM(pb_classes); i++)
		if (!strcasecmp(pb_classes[i].tag, tag))
			return &pb_classes[i];
	return NULL;
}

const pb_method *pb_class_method(const pb_class *c, uint32_t addr)
{
	if (!c)
		return NULL;
	size_t lo = 0, hi = c->nmethods;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c->methods[mid].addr == addr)
			return &c->methods[mid];
		if (c->methods[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

const pb_method *pb_class_method_by_name(const pb_class *c, const char *name)
{
	if (!c)
		return NULL;
	for (size_t i = 0; i < c->nmethods; i++)
		if (!strcasecmp(c->methods[i].name, name))
			return &c->methods[i];
	return NULL;
}

const pb_class *pb_host_class(const pb_gen *gen, pb_format f)
{
	/* Only Volta's host class is described in the references. */
	if (gen && f == PB_FORMAT_NEW && (gen->accepts & PB_ACC_NEW))
		return &pb_classes[0];
	return NULL;
}
