/*
 * Field tables of the Volta Host structures (include/nvmodel/host_fmt.h).
 *
 * Positions and names are the manuals': NV_RAMFC_* dwords and the NV_RAMIN,
 * NV_RAMUSERD and NV_RAMRL_ENTRY layouts from gv100_dev_ram.ref.txt (seed 000
 * sections 2-5); the sub-fields of each RAMFC and RAMUSERD dword from the
 * NV_PPBDMA_* register it mirrors in gv100_dev_pbdma.ref.txt ("The offsets of
 * the fields within each entry in RAMFC match those of the corresponding
 * register"). Value names are the manuals' defines without the field prefix;
 * *_ZERO / *_NULL defines are left out.
 */
#include "host_fmt_internal.h"

/* ---------------------------------------------------------------- value names */

static const nvm_hf_enum e_false_true[] = { { 0, "FALSE" }, { 1, "TRUE" }, { 0, NULL } };
static const nvm_hf_enum e_dis_en[] = { { 0, "DIS" }, { 1, "EN" }, { 0, NULL } };
static const nvm_hf_enum e_disable_enable[] = { { 0, "DISABLE" }, { 1, "ENABLE" }, { 0, NULL } };
static const nvm_hf_enum e_no_yes[] = { { 0, "NO" }, { 1, "YES" }, { 0, NULL } };
static const nvm_hf_enum e_disabled_enabled[] = { { 0, "DISABLED" }, { 1, "ENABLED" }, { 0, NULL } };
static const nvm_hf_enum e_main_sub[] = { { 0, "MAIN" }, { 1, "SUBROUTINE" }, { 0, NULL } };

/* NV_RAMIN_PAGE_DIR_BASE_TARGET, NV_RAMIN_SC_PAGE_DIR_BASE_TARGET(i) */
static const nvm_hf_enum e_pdb_target[] = {
	{ 0, "VID_MEM" }, { 1, "INVALID" }, { 2, "SYS_MEM_COHERENT" }, { 3, "SYS_MEM_NONCOHERENT" }, { 0, NULL }
};
/* NV_PPBDMA_USERD_TARGET, NV_RAMRL_ENTRY_CHAN_USERD_TARGET */
static const nvm_hf_enum e_userd_target[] = { { 0, "VID_MEM" },
	                                      { 1, "VID_MEM_NVLINK_COHERENT" },
	                                      { 2, "SYS_MEM_COHERENT" },
	                                      { 3, "SYS_MEM_NONCOHERENT" },
	                                      { 0, NULL } };
/* NV_RAMRL_ENTRY_CHAN_INST_TARGET: 1 is not defined */
static const nvm_hf_enum e_inst_target[] = {
	{ 0, "VID_MEM" }, { 2, "SYS_MEM_COHERENT" }, { 3, "SYS_MEM_NONCOHERENT" }, { 0, NULL }
};
/* NV_RAMIN_ENGINE_WFI_TARGET: 1 is not defined */
static const nvm_hf_enum e_wfi_target[] = {
	{ 0, "LOCAL_MEM" }, { 2, "SYS_MEM_COHERENT" }, { 3, "SYS_MEM_NONCOHERENT" }, { 0, NULL }
};
static const nvm_hf_enum e_vol[] = { { 0, "FALSE" }, { 1, "TRUE" }, { 0, NULL } };
static const nvm_hf_enum e_big_page[] = { { 0, "128KB" }, { 1, "64KB" }, { 0, NULL } };
static const nvm_hf_enum e_sc_big_page[] = { { 1, "64KB" }, { 0, NULL } };
static const nvm_hf_enum e_engine_cs[] = { { 0, "WFI" }, { 1, "FG" }, { 0, NULL } };
static const nvm_hf_enum e_wfi_mode[] = { { 0, "PHYSICAL" }, { 1, "VIRTUAL" }, { 0, NULL } };

/* NV_PPBDMA_SIGNATURE_HW */
static const nvm_hf_enum e_signature_hw[] = { { 0xface, "VALID" }, { 50031, "HOST_CLASS_ID" }, { 0, NULL } };
/* NV_PPBDMA_ACQUIRE_TIMEOUT_EXP, TIMEOUT_MAN */
static const nvm_hf_enum e_timeout_exp[] = { { 0xf, "MAX" }, { 0, NULL } };
static const nvm_hf_enum e_timeout_man[] = { { 0xffff, "MAX" }, { 0, NULL } };
/* NV_PPBDMA_SEM_EXECUTE_* */
static const nvm_hf_enum e_sem_op[] = { { 0, "ACQUIRE" },      { 1, "RELEASE" }, { 2, "ACQ_STRICT_GEQ" },
	                                { 3, "ACQ_CIRC_GEQ" }, { 4, "ACQ_AND" }, { 5, "ACQ_NOR" },
	                                { 6, "REDUCTION" },    { 0, NULL } };
static const nvm_hf_enum e_payload_size[] = { { 0, "32BIT" }, { 1, "64BIT" }, { 0, NULL } };
static const nvm_hf_enum e_reduction[] = { { 0, "IMIN" }, { 1, "IMAX" }, { 2, "IXOR" }, { 3, "IAND" }, { 4, "IOR" },
	                                   { 5, "IADD" }, { 6, "INC" },  { 7, "DEC" },  { 0, NULL } };
static const nvm_hf_enum e_reduction_format[] = { { 0, "SIGNED" }, { 1, "UNSIGNED" }, { 0, NULL } };
static const nvm_hf_enum e_sync[] = { { 0, "PROCEED" }, { 1, "WAIT" }, { 0, NULL } };
/* NV_PPBDMA_PB_HEADER_TYPE */
static const nvm_hf_enum e_pb_header_type[] = { { 0, "SSDM" },    { 1, "INC" },     { 2, "STORE_SDM" },
	                                        { 3, "NON_INC" }, { 4, "IMMD" },    { 5, "INC_ONCE" },
	                                        { 6, "USE_SDM" }, { 7, "END_SEG" }, { 0, NULL } };
static const nvm_hf_enum e_subdevice_id[] = { { 0xfff, "ENABLE" }, { 0, NULL } };
static const nvm_hf_enum e_subdevice_status[] = { { 0, "INACTIVE" }, { 1, "ACTIVE" }, { 0, NULL } };
static const nvm_hf_enum e_target_engine[] = { { 31, "SW" }, { 0, NULL } };
static const nvm_hf_enum e_tsg_event_reason[] = { { 0, "PBDMA_IDLE" },
	                                          { 1, "SEMAPHORE_ACQUIRE_FAILURE" },
	                                          { 2, "TSG_YIELD" },
	                                          { 3, "HOST_SUBCHANNEL_SWITCH" },
	                                          { 0, NULL } };
static const nvm_hf_enum e_l2_evict[] = { { 0, "FIRST" }, { 1, "NORMAL" }, { 0, NULL } };
static const nvm_hf_enum e_ce_split[] = { { 0, "ENABLE" }, { 1, "DISABLE" }, { 0, NULL } };
static const nvm_hf_enum e_throttle[] = { { 0, "THROTTLE" }, { 1, "NO_THROTTLE" }, { 0, NULL } };
static const nvm_hf_enum e_auth_level[] = { { 0, "NON_PRIVILEGED" }, { 1, "PRIVILEGED" }, { 0, NULL } };
static const nvm_hf_enum e_scg_type[] = { { 0, "GRAPHICS_COMPUTE0" }, { 1, "COMPUTE1" }, { 0, NULL } };
/* NV_RAMRL_ENTRY_* */
static const nvm_hf_enum e_rl_type[] = { { 0, "CHAN" }, { 1, "TSG" }, { 0, NULL } };
static const nvm_hf_enum e_timeslice_timeout[] = { { 0, "1US" }, { 0, NULL } };

#define N(a) (uint16_t)(sizeof(a) / sizeof((a)[0]))

/* ---------------------------------------------------------------- NV_RAMFC */

/* One dword with a single 31:0 field of the mirrored register. */
#define WHOLE(var, reg, sub) static const nvm_hf_field var[] = { { reg "_" sub, NULL, 31, 0, NULL } }

WHOLE(f_gp_put, "NV_PPBDMA_GP_PUT", "ENTRY");
WHOLE(f_mem_op_a, "NV_PPBDMA_MEM_OP_A", "DATA");
static const nvm_hf_field f_userd[] = {
	{ "NV_PPBDMA_USERD_TARGET", NULL, 1, 0, e_userd_target },
	{ "NV_PPBDMA_USERD_ADDR", NULL, 31, 9, NULL },
};
static const nvm_hf_field f_userd_hi[] = { { "NV_PPBDMA_USERD_HI_ADDR", NULL, 7, 0, NULL } };
static const nvm_hf_field f_signature[] = {
	{ "NV_PPBDMA_SIGNATURE_HW", NULL, 15, 0, e_signature_hw },
	{ "NV_PPBDMA_SIGNATURE_SW", NULL, 31, 16, NULL },
};
WHOLE(f_gp_get, "NV_PPBDMA_GP_GET", "ENTRY");
static const nvm_hf_field f_get[] = { { "NV_PPBDMA_GET_OFFSET", NULL, 31, 2, NULL } };
static const nvm_hf_field f_get_hi[] = { { "NV_PPBDMA_GET_HI_OFFSET", NULL, 7, 0, NULL } };
static const nvm_hf_field f_top_level_get[] = {
	{ "NV_PPBDMA_TOP_LEVEL_GET_RSVD", NULL, 1, 0, NULL },
	{ "NV_PPBDMA_TOP_LEVEL_GET_OFFSET", NULL, 31, 2, NULL },
};
static const nvm_hf_field f_top_level_get_hi[] = {
	{ "NV_PPBDMA_TOP_LEVEL_GET_HI_OFFSET", NULL, 7, 0, NULL },
	{ "NV_PPBDMA_TOP_LEVEL_GET_HI_VALID", NULL, 31, 31, e_false_true },
};
WHOLE(f_ref, "NV_PPBDMA_REF", "CNT");
WHOLE(f_runtime, "NV_PPBDMA_RUNTIME", "VALUE");
static const nvm_hf_field f_acquire[] = {
	{ "NV_PPBDMA_ACQUIRE_RETRY_MAN", NULL, 6, 0, NULL },
	{ "NV_PPBDMA_ACQUIRE_RETRY_EXP", NULL, 10, 7, NULL },
	{ "NV_PPBDMA_ACQUIRE_TIMEOUT_EXP", NULL, 14, 11, e_timeout_exp },
	{ "NV_PPBDMA_ACQUIRE_TIMEOUT_MAN", NULL, 30, 15, e_timeout_man },
	{ "NV_PPBDMA_ACQUIRE_TIMEOUT_EN", NULL, 31, 31, e_disable_enable },
};
WHOLE(f_acquire_deadline, "NV_PPBDMA_ACQUIRE_DEADLINE", "TIMESTAMP");
static const nvm_hf_field f_sem_addr_hi[] = { { "NV_PPBDMA_SEM_ADDR_HI_ADDR", NULL, 7, 0, NULL } };
static const nvm_hf_field f_sem_addr_lo[] = { { "NV_PPBDMA_SEM_ADDR_LO_ADDR", NULL, 31, 2, NULL } };
WHOLE(f_sem_payload_lo, "NV_PPBDMA_SEM_PAYLOAD_LO", "DATA");
static const nvm_hf_field f_sem_execute[] = {
	{ "NV_PPBDMA_SEM_EXECUTE_OPERATION", NULL, 2, 0, e_sem_op },
	{ "NV_PPBDMA_SEM_EXECUTE_ACQUIRE_SWITCH_TSG", NULL, 12, 12, e_dis_en },
	{ "NV_PPBDMA_SEM_EXECUTE_ACQUIRE_FAIL", NULL, 19, 19, e_false_true },
	{ "NV_PPBDMA_SEM_EXECUTE_RELEASE_WFI", NULL, 20, 20, e_dis_en },
	{ "NV_PPBDMA_SEM_EXECUTE_PAYLOAD_SIZE", NULL, 24, 24, e_payload_size },
	{ "NV_PPBDMA_SEM_EXECUTE_RELEASE_TIMESTAMP", NULL, 25, 25, e_dis_en },
	{ "NV_PPBDMA_SEM_EXECUTE_REDUCTION", NULL, 30, 27, e_reduction },
	{ "NV_PPBDMA_SEM_EXECUTE_REDUCTION_FORMAT", NULL, 31, 31, e_reduction_format },
};
static const nvm_hf_field f_gp_base[] = {
	{ "NV_PPBDMA_GP_BASE_RSVD", NULL, 2, 0, NULL },
	{ "NV_PPBDMA_GP_BASE_OFFSET", NULL, 31, 3, NULL },
};
static const nvm_hf_field f_gp_base_hi[] = {
	{ "NV_PPBDMA_GP_BASE_HI_OFFSET", NULL, 7, 0, NULL },
	{ "NV_PPBDMA_GP_BASE_HI_RSVDA", NULL, 15, 8, NULL },
	{ "NV_PPBDMA_GP_BASE_HI_LIMIT2", NULL, 20, 16, NULL },
	{ "NV_PPBDMA_GP_BASE_HI_RSVDB", NULL, 31, 21, NULL },
};
WHOLE(f_gp_fetch, "NV_PPBDMA_GP_FETCH", "ENTRY");
static const nvm_hf_field f_pb_fetch[] = {
	{ "NV_PPBDMA_PB_FETCH_CONDITIONAL", NULL, 0, 0, e_false_true },
	{ "NV_PPBDMA_PB_FETCH_ADDR", NULL, 31, 2, NULL },
};
static const nvm_hf_field f_pb_fetch_hi[] = {
	{ "NV_PPBDMA_PB_FETCH_HI_ADDR", NULL, 7, 0, NULL },
	{ "NV_PPBDMA_PB_FETCH_HI_LEVEL", NULL, 9, 9, e_main_sub },
	{ "NV_PPBDMA_PB_FETCH_HI_SYNC", NULL, 10, 10, e_sync },
	{ "NV_PPBDMA_PB_FETCH_HI_LENGTH", NULL, 31, 11, NULL },
};
static const nvm_hf_field f_put[] = {
	{ "NV_PPBDMA_PUT_RSVD", NULL, 1, 0, NULL },
	{ "NV_PPBDMA_PUT_OFFSET", NULL, 31, 2, NULL },
};
static const nvm_hf_field f_put_hi[] = { { "NV_PPBDMA_PUT_HI_OFFSET", NULL, 7, 0, NULL } };
WHOLE(f_mem_op_b, "NV_PPBDMA_MEM_OP_B", "DATA");
static const nvm_hf_field f_reserved26[] = { { "NV_RAMFC_RESERVED26", NULL, 31, 0, NULL } };
static const nvm_hf_field f_reserved27[] = { { "NV_RAMFC_RESERVED27", NULL, 31, 0, NULL } };
static const nvm_hf_field f_reserved28[] = { { "NV_RAMFC_RESERVED28", NULL, 31, 0, NULL } };
WHOLE(f_gp_crc, "NV_PPBDMA_GP_CRC", "VALUE");
/* METHOD 13:2 and SDMASK 15:4 overlay METHOD_OR_SDMASK 15:2; the table keeps
 * the field that holds both (which one applies depends on TYPE). */
static const nvm_hf_field f_pb_header[] = {
	{ "NV_PPBDMA_PB_HEADER_METHOD_OR_SDMASK", NULL, 15, 2, NULL },
	{ "NV_PPBDMA_PB_HEADER_SUBCHANNEL", NULL, 18, 16, NULL },
	{ "NV_PPBDMA_PB_HEADER_LEVEL", NULL, 20, 20, e_main_sub },
	{ "NV_PPBDMA_PB_HEADER_FIRST", NULL, 22, 22, e_false_true },
	{ "NV_PPBDMA_PB_HEADER_CONDITIONAL", NULL, 23, 23, e_false_true },
	{ "NV_PPBDMA_PB_HEADER_FINAL", NULL, 24, 24, e_false_true },
	{ "NV_PPBDMA_PB_HEADER_TYPE", NULL, 31, 29, e_pb_header_type },
};
static const nvm_hf_field f_pb_count[] = {
	{ "NV_PPBDMA_PB_COUNT_VALUE", NULL, 12, 0, NULL },
	{ "NV_PPBDMA_PB_COUNT_CONDITIONAL0", NULL, 14, 14, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_FINAL0", NULL, 15, 15, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_DATAVAL0", NULL, 16, 16, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_LEVEL0", NULL, 18, 18, e_main_sub },
	{ "NV_PPBDMA_PB_COUNT_DATAVAL1", NULL, 20, 20, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_LEVEL1", NULL, 22, 22, e_main_sub },
	{ "NV_PPBDMA_PB_COUNT_DATAVAL2", NULL, 24, 24, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_LEVEL2", NULL, 26, 26, e_main_sub },
	{ "NV_PPBDMA_PB_COUNT_CONDITIONAL1", NULL, 28, 28, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_FINAL1", NULL, 29, 29, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_CONDITIONAL2", NULL, 30, 30, e_false_true },
	{ "NV_PPBDMA_PB_COUNT_FINAL2", NULL, 31, 31, e_false_true },
};
static const nvm_hf_field f_subdevice[] = {
	{ "NV_PPBDMA_SUBDEVICE_ID", NULL, 11, 0, e_subdevice_id },
	{ "NV_PPBDMA_SUBDEVICE_STORED_MASK", NULL, 27, 16, e_subdevice_id },
	{ "NV_PPBDMA_SUBDEVICE_STATUS", NULL, 28, 28, e_subdevice_status },
	{ "NV_PPBDMA_SUBDEVICE_CHANNEL_DMA", NULL, 29, 29, e_disable_enable },
};
WHOLE(f_pb_crc, "NV_PPBDMA_PB_CRC", "VALUE");
WHOLE(f_sem_payload_hi, "NV_PPBDMA_SEM_PAYLOAD_HI", "DATA");
WHOLE(f_mem_op_c, "NV_PPBDMA_MEM_OP_C", "DATA");
static const nvm_hf_field f_reserved20[] = { { "NV_RAMFC_RESERVED20", NULL, 31, 0, NULL } };
static const nvm_hf_field f_reserved21[] = { { "NV_RAMFC_RESERVED21", NULL, 31, 0, NULL } };
static const nvm_hf_field f_target[] = {
	{ "NV_PPBDMA_TARGET_ENGINE", NULL, 4, 0, e_target_engine },
	{ "NV_PPBDMA_TARGET_ENG_CTX_VALID", NULL, 16, 16, e_false_true },
	{ "NV_PPBDMA_TARGET_CE_CTX_VALID", NULL, 17, 17, e_false_true },
	{ "NV_PPBDMA_TARGET_HOST_TSG_EVENT_REASON", NULL, 25, 24, e_tsg_event_reason },
	{ "NV_PPBDMA_TARGET_SHOULD_SEND_HOST_TSG_EVENT", NULL, 29, 29, e_false_true },
	{ "NV_PPBDMA_TARGET_NEEDS_HOST_TSG_EVENT", NULL, 31, 31, e_false_true },
};
WHOLE(f_method_crc, "NV_PPBDMA_METHOD_CRC", "VALUE");

/* NV_PPBDMA_METHOD0..3: the same fields under each register's name. */
#define METHOD_FIELDS(var, reg)                                                                                        \
	static const nvm_hf_field var[] = {                                                                            \
		{ reg "_INCR", NULL, 0, 0, e_false_true },   { reg "_ADDR", NULL, 13, 2, NULL },                       \
		{ reg "_SUBCH", NULL, 18, 16, NULL },        { reg "_FIRST", NULL, 22, 22, e_false_true },             \
		{ reg "_DUAL", NULL, 23, 23, e_false_true }, { reg "_VALID", NULL, 31, 31, e_false_true },             \
	}
METHOD_FIELDS(f_method0, "NV_PPBDMA_METHOD0");
METHOD_FIELDS(f_method1, "NV_PPBDMA_METHOD1");
METHOD_FIELDS(f_method2, "NV_PPBDMA_METHOD2");
METHOD_FIELDS(f_method3, "NV_PPBDMA_METHOD3");
WHOLE(f_data0, "NV_PPBDMA_DATA0", "VALUE");
WHOLE(f_data1, "NV_PPBDMA_DATA1", "VALUE");
WHOLE(f_data2, "NV_PPBDMA_DATA2", "VALUE");
WHOLE(f_data3, "NV_PPBDMA_DATA3", "VALUE");
static const nvm_hf_field f_hce_ctrl[] = {
	{ "NV_PPBDMA_HCE_CTRL_SP_AWAITS_HCEH", NULL, 0, 0, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_HCE_RENDER_DISABLED", NULL, 2, 2, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_HCE_SUBCHSW", NULL, 4, 4, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_HCE_PRIV_MODE", NULL, 5, 5, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_LAUNCH_DMA_RCVD", NULL, 16, 16, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_NOP_RCVD", NULL, 17, 17, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_PM_TRIGGER_RCVD", NULL, 18, 18, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_PM_TRIGGER_END_RCVD", NULL, 19, 19, e_no_yes },
	{ "NV_PPBDMA_HCE_CTRL_SET_RENDER_ENABLE_C_RCVD", NULL, 20, 20, e_no_yes },
};
static const nvm_hf_field f_config[] = {
	{ "NV_PPBDMA_CONFIG_L2_EVICT", NULL, 1, 0, e_l2_evict },
	{ "NV_PPBDMA_CONFIG_CE_SPLIT", NULL, 4, 4, e_ce_split },
	{ "NV_PPBDMA_CONFIG_CE_THROTTLE_MODE", NULL, 5, 5, e_throttle },
	{ "NV_PPBDMA_CONFIG_AUTH_LEVEL", NULL, 8, 8, e_auth_level },
	{ "NV_PPBDMA_CONFIG_USERD_WRITEBACK", NULL, 12, 12, e_disable_enable },
};
static const nvm_hf_field f_set_channel_info[] = {
	{ "NV_PPBDMA_SET_CHANNEL_INFO_SCG_TYPE", NULL, 0, 0, e_scg_type },
	{ "NV_PPBDMA_SET_CHANNEL_INFO_VEID", NULL, 13, 8, NULL },
	{ "NV_PPBDMA_SET_CHANNEL_INFO_RESERVED", NULL, 31, 16, NULL },
};

/* NV_RAMFC_* (dev_ram "FIFO CONTEXT RAM"), in dword order. UNVERIFIED: the
 * dwords the gv100 manual does not name (30-32, 35, 36, 45-47, 56, 58-60, 62,
 * 64-127) have no row; nouveau writes the channel id to 58 and 0x10003080 to
 * 62 (RESERVED62 in the Turing manual), and the tool shows them raw.
 * One table for every generation: what differs is data. USERD
 * (dwords 2, 3) left RAMFC on Ampere (RESERVED2/3: the runlist entry
 * carries it), each generation has its own signature (HOST_CLASS_ID),
 * Hopper its GP_BASE_HI; dword 26 is RESERVED26 on gv100 only, 41 is
 * RESERVED20 or Hopper's GP_INFO, 44 METHOD_CRC or Ampere's RESERVED44, 62
 * RESERVED62 on tu102 only. w26 and w62 are an entry and its comma, or
 * nothing. */
/* clang-format off */
#define RAMFC_WORDS(w2, w3, sig, gp_base_hi, w26, w41, w44, w62) \
	{ \
		{ "NV_RAMFC_GP_PUT", "NV_PPBDMA_GP_PUT", 0, 1, 0, N(f_gp_put), f_gp_put }, \
		{ "NV_RAMFC_MEM_OP_A", "NV_PPBDMA_MEM_OP_A", 1, 1, 0, N(f_mem_op_a), f_mem_op_a }, \
		w2, \
		w3, \
		{ "NV_RAMFC_SIGNATURE", "NV_PPBDMA_SIGNATURE", 4, 1, 0, N(sig), sig }, \
		{ "NV_RAMFC_GP_GET", "NV_PPBDMA_GP_GET", 5, 1, 0, N(f_gp_get), f_gp_get }, \
		{ "NV_RAMFC_PB_GET", "NV_PPBDMA_GET", 6, 1, 0, N(f_get), f_get }, \
		{ "NV_RAMFC_PB_GET_HI", "NV_PPBDMA_GET_HI", 7, 1, 0, N(f_get_hi), f_get_hi }, \
		{ "NV_RAMFC_PB_TOP_LEVEL_GET", "NV_PPBDMA_TOP_LEVEL_GET", 8, 1, 0, N(f_top_level_get), f_top_level_get }, \
		{ "NV_RAMFC_PB_TOP_LEVEL_GET_HI", "NV_PPBDMA_TOP_LEVEL_GET_HI", 9, 1, 0, N(f_top_level_get_hi), f_top_level_get_hi }, \
		{ "NV_RAMFC_REF", "NV_PPBDMA_REF", 10, 1, 0, N(f_ref), f_ref }, \
		{ "NV_RAMFC_RUNTIME", "NV_PPBDMA_RUNTIME", 11, 1, 0, N(f_runtime), f_runtime }, \
		{ "NV_RAMFC_ACQUIRE", "NV_PPBDMA_ACQUIRE", 12, 1, 0, N(f_acquire), f_acquire }, \
		{ "NV_RAMFC_ACQUIRE_DEADLINE", "NV_PPBDMA_ACQUIRE_DEADLINE", 13, 1, 0, N(f_acquire_deadline), f_acquire_deadline }, \
		{ "NV_RAMFC_SEM_ADDR_HI", "NV_PPBDMA_SEM_ADDR_HI", 14, 1, 0, N(f_sem_addr_hi), f_sem_addr_hi }, \
		{ "NV_RAMFC_SEM_ADDR_LO", "NV_PPBDMA_SEM_ADDR_LO", 15, 1, 0, N(f_sem_addr_lo), f_sem_addr_lo }, \
		{ "NV_RAMFC_SEM_PAYLOAD_LO", "NV_PPBDMA_SEM_PAYLOAD_LO", 16, 1, 0, N(f_sem_payload_lo), f_sem_payload_lo }, \
		{ "NV_RAMFC_SEM_EXECUTE", "NV_PPBDMA_SEM_EXECUTE", 17, 1, 0, N(f_sem_execute), f_sem_execute }, \
		{ "NV_RAMFC_GP_BASE", "NV_PPBDMA_GP_BASE", 18, 1, 0, N(f_gp_base), f_gp_base }, \
		{ "NV_RAMFC_GP_BASE_HI", "NV_PPBDMA_GP_BASE_HI", 19, 1, 0, N(gp_base_hi), gp_base_hi }, \
		{ "NV_RAMFC_GP_FETCH", "NV_PPBDMA_GP_FETCH", 20, 1, 0, N(f_gp_fetch), f_gp_fetch }, \
		{ "NV_RAMFC_PB_FETCH", "NV_PPBDMA_PB_FETCH", 21, 1, 0, N(f_pb_fetch), f_pb_fetch }, \
		{ "NV_RAMFC_PB_FETCH_HI", "NV_PPBDMA_PB_FETCH_HI", 22, 1, 0, N(f_pb_fetch_hi), f_pb_fetch_hi }, \
		{ "NV_RAMFC_PB_PUT", "NV_PPBDMA_PUT", 23, 1, 0, N(f_put), f_put }, \
		{ "NV_RAMFC_PB_PUT_HI", "NV_PPBDMA_PUT_HI", 24, 1, 0, N(f_put_hi), f_put_hi }, \
		{ "NV_RAMFC_MEM_OP_B", "NV_PPBDMA_MEM_OP_B", 25, 1, 0, N(f_mem_op_b), f_mem_op_b }, \
		w26 \
		{ "NV_RAMFC_RESERVED27", NULL, 27, 1, 0, N(f_reserved27), f_reserved27 }, \
		{ "NV_RAMFC_RESERVED28", NULL, 28, 1, 0, N(f_reserved28), f_reserved28 }, \
		{ "NV_RAMFC_GP_CRC", "NV_PPBDMA_GP_CRC", 29, 1, 0, N(f_gp_crc), f_gp_crc }, \
		{ "NV_RAMFC_PB_HEADER", "NV_PPBDMA_PB_HEADER", 33, 1, 0, N(f_pb_header), f_pb_header }, \
		{ "NV_RAMFC_PB_COUNT", "NV_PPBDMA_PB_COUNT", 34, 1, 0, N(f_pb_count), f_pb_count }, \
		{ "NV_RAMFC_SUBDEVICE", "NV_PPBDMA_SUBDEVICE", 37, 1, 0, N(f_subdevice), f_subdevice }, \
		{ "NV_RAMFC_PB_CRC", "NV_PPBDMA_PB_CRC", 38, 1, 0, N(f_pb_crc), f_pb_crc }, \
		{ "NV_RAMFC_SEM_PAYLOAD_HI", "NV_PPBDMA_SEM_PAYLOAD_HI", 39, 1, 0, N(f_sem_payload_hi), f_sem_payload_hi }, \
		{ "NV_RAMFC_MEM_OP_C", "NV_PPBDMA_MEM_OP_C", 40, 1, 0, N(f_mem_op_c), f_mem_op_c }, \
		w41, \
		{ "NV_RAMFC_RESERVED21", NULL, 42, 1, 0, N(f_reserved21), f_reserved21 }, \
		{ "NV_RAMFC_TARGET", "NV_PPBDMA_TARGET", 43, 1, 0, N(f_target), f_target }, \
		w44, \
		{ "NV_RAMFC_METHOD0", "NV_PPBDMA_METHOD0", 48, 1, 0, N(f_method0), f_method0 }, \
		{ "NV_RAMFC_DATA0", "NV_PPBDMA_DATA0", 49, 1, 0, N(f_data0), f_data0 }, \
		{ "NV_RAMFC_METHOD1", "NV_PPBDMA_METHOD1", 50, 1, 0, N(f_method1), f_method1 }, \
		{ "NV_RAMFC_DATA1", "NV_PPBDMA_DATA1", 51, 1, 0, N(f_data1), f_data1 }, \
		{ "NV_RAMFC_METHOD2", "NV_PPBDMA_METHOD2", 52, 1, 0, N(f_method2), f_method2 }, \
		{ "NV_RAMFC_DATA2", "NV_PPBDMA_DATA2", 53, 1, 0, N(f_data2), f_data2 }, \
		{ "NV_RAMFC_METHOD3", "NV_PPBDMA_METHOD3", 54, 1, 0, N(f_method3), f_method3 }, \
		{ "NV_RAMFC_DATA3", "NV_PPBDMA_DATA3", 55, 1, 0, N(f_data3), f_data3 }, \
		{ "NV_RAMFC_HCE_CTRL", "NV_PPBDMA_HCE_CTRL", 57, 1, 0, N(f_hce_ctrl), f_hce_ctrl }, \
		{ "NV_RAMFC_CONFIG", "NV_PPBDMA_CONFIG", 61, 1, 0, N(f_config), f_config }, \
		w62 \
		{ "NV_RAMFC_SET_CHANNEL_INFO", "NV_PPBDMA_SET_CHANNEL_INFO", 63, 1, 0, N(f_set_channel_info), f_set_channel_info }, \
	}
/* The words that differ (an optional one with its comma). */
#define W_USERD      { "NV_RAMFC_USERD", "NV_PPBDMA_USERD", 2, 1, 0, N(f_userd), f_userd }
#define W_USERD_HI   { "NV_RAMFC_USERD_HI", "NV_PPBDMA_USERD_HI", 3, 1, 0, N(f_userd_hi), f_userd_hi }
#define W_RESERVED26 { "NV_RAMFC_RESERVED26", NULL, 26, 1, 0, N(f_reserved26), f_reserved26 },
#define W_RESERVED20 { "NV_RAMFC_RESERVED20", NULL, 41, 1, 0, N(f_reserved20), f_reserved20 }
#define W_METHOD_CRC { "NV_RAMFC_METHOD_CRC", "NV_PPBDMA_METHOD_CRC", 44, 1, 0, N(f_method_crc), f_method_crc }
#define W_NONE
/* clang-format on */

static const nvm_hf_word ramfc_words[] =
        RAMFC_WORDS(W_USERD, W_USERD_HI, f_signature, f_gp_base_hi, W_RESERVED26, W_RESERVED20, W_METHOD_CRC, W_NONE);

/* ---------------------------------------------------------------- Ampere, Hopper */

/* ga100_dev_ram NV_RAMFC: USERD left RAMFC (dwords 2/3 reserved; the runlist
 * entry carries it), METHOD_CRC is RESERVED44; the signature's HOST_CLASS_ID
 * is 50543 (C56F, ga100_dev_pbdma); GA102's host class is C76F (nouveau
 * ga102_fifo_sclass), its id 51055 by the same rule (UNVERIFIED: no
 * ga102 manual). Hopper (no public manual): GP_BASE_HI
 * OFFSET 24:0 without LIMIT2 and the GP_INFO dword 41 (OGKM gh100 dev_ram.h,
 * dev_esched_pbdma.h); UNVERIFIED: HOST_CLASS_ID 51311 (C86F), the rest as
 * ga100. */
static const nvm_hf_field f_reserved2[] = { { "NV_RAMFC_RESERVED2", NULL, 31, 0, NULL } };
static const nvm_hf_field f_reserved3[] = { { "NV_RAMFC_RESERVED3", NULL, 31, 0, NULL } };
static const nvm_hf_field f_reserved44[] = { { "NV_RAMFC_RESERVED44", NULL, 31, 0, NULL } };
static const nvm_hf_enum e_signature_hw_c56f[] = { { 0xface, "VALID" }, { 50543, "HOST_CLASS_ID" }, { 0, NULL } };
static const nvm_hf_enum e_signature_hw_c76f[] = { { 0xface, "VALID" }, { 51055, "HOST_CLASS_ID" }, { 0, NULL } };
static const nvm_hf_enum e_signature_hw_c86f[] = { { 0xface, "VALID" }, { 51311, "HOST_CLASS_ID" }, { 0, NULL } };
static const nvm_hf_field f_signature_c56f[] = {
	{ "NV_PPBDMA_SIGNATURE_HW", NULL, 15, 0, e_signature_hw_c56f },
	{ "NV_PPBDMA_SIGNATURE_SW", NULL, 31, 16, NULL },
};
static const nvm_hf_field f_signature_c76f[] = {
	{ "NV_PPBDMA_SIGNATURE_HW", NULL, 15, 0, e_signature_hw_c76f },
	{ "NV_PPBDMA_SIGNATURE_SW", NULL, 31, 16, NULL },
};
static const nvm_hf_field f_signature_c86f[] = {
	{ "NV_PPBDMA_SIGNATURE_HW", NULL, 15, 0, e_signature_hw_c86f },
	{ "NV_PPBDMA_SIGNATURE_SW", NULL, 31, 16, NULL },
};
static const nvm_hf_field f_gp_base_hi_gh100[] = { { "NV_PPBDMA_GP_BASE_HI_OFFSET", NULL, 24, 0, NULL } };
static const nvm_hf_field f_gp_info[] = {
	{ "NV_PPBDMA_GP_INFO_LIMIT2", NULL, 4, 0, NULL },
	{ "NV_PPBDMA_GP_INFO_PB_SEGMENT_EXTENDED_BASE", NULL, 24, 8, NULL },
};

/* clang-format off */
#define W_RESERVED2  { "NV_RAMFC_RESERVED2", NULL, 2, 1, 0, N(f_reserved2), f_reserved2 }
#define W_RESERVED3  { "NV_RAMFC_RESERVED3", NULL, 3, 1, 0, N(f_reserved3), f_reserved3 }
#define W_RESERVED44 { "NV_RAMFC_RESERVED44", NULL, 44, 1, 0, N(f_reserved44), f_reserved44 }
#define W_GP_INFO    { "NV_RAMFC_GP_INFO", "NV_PPBDMA_GP_INFO", 41, 1, 0, N(f_gp_info), f_gp_info }
/* clang-format on */
static const nvm_hf_word ga100_ramfc_words[] = RAMFC_WORDS(W_RESERVED2, W_RESERVED3, f_signature_c56f, f_gp_base_hi,
                                                           W_NONE, W_RESERVED20, W_RESERVED44, W_NONE);
static const nvm_hf_word ga102_ramfc_words[] = RAMFC_WORDS(W_RESERVED2, W_RESERVED3, f_signature_c76f, f_gp_base_hi,
                                                           W_NONE, W_RESERVED20, W_RESERVED44, W_NONE);
static const nvm_hf_word gh100_ramfc_words[] = RAMFC_WORDS(W_RESERVED2, W_RESERVED3, f_signature_c86f,
                                                           f_gp_base_hi_gh100, W_NONE, W_GP_INFO, W_RESERVED44, W_NONE);

/* ---------------------------------------------------------------- NV_RAMIN */

static const nvm_hf_field f_pdb_lo[] = {
	{ "NV_RAMIN_PAGE_DIR_BASE_TARGET", NULL, 1, 0, e_pdb_target },
	{ "NV_RAMIN_PAGE_DIR_BASE_VOL", NULL, 2, 2, e_vol },
	{ "NV_RAMIN_PAGE_DIR_BASE_FAULT_REPLAY_TEX", NULL, 4, 4, e_disabled_enabled },
	{ "NV_RAMIN_PAGE_DIR_BASE_FAULT_REPLAY_GCC", NULL, 5, 5, e_disabled_enabled },
	{ "NV_RAMIN_USE_VER2_PT_FORMAT", NULL, 10, 10, e_false_true },
	{ "NV_RAMIN_BIG_PAGE_SIZE", NULL, 11, 11, e_big_page },
	{ "NV_RAMIN_PAGE_DIR_BASE_LO", NULL, 31, 12, NULL },
};
static const nvm_hf_field f_pdb_hi[] = { { "NV_RAMIN_PAGE_DIR_BASE_HI", NULL, 31, 0, NULL } };
static const nvm_hf_field f_engine_wfi[] = {
	{ "NV_RAMIN_ENGINE_WFI_TARGET", NULL, 1, 0, e_wfi_target },
	{ "NV_RAMIN_ENGINE_WFI_MODE", NULL, 2, 2, e_wfi_mode },
	{ "NV_RAMIN_ENGINE_CS", NULL, 3, 3, e_engine_cs },
	{ "NV_RAMIN_ENGINE_WFI_PTR_LO", NULL, 31, 12, NULL },
};
static const nvm_hf_field f_engine_wfi_hi[] = { { "NV_RAMIN_ENGINE_WFI_PTR_HI", NULL, 7, 0, NULL } };
static const nvm_hf_field f_engine_wfi_veid[] = { { "NV_RAMIN_ENGINE_WFI_VEID", NULL, 5, 0, NULL } };
static const nvm_hf_field f_ats[] = {
	{ "NV_RAMIN_PASID", NULL, 19, 0, NULL },
	{ "NV_RAMIN_ENABLE_ATS", NULL, 31, 31, e_false_true },
};
static const nvm_hf_field f_method_buffer_lo[] = { { "NV_RAMIN_ENG_METHOD_BUFFER_ADDR_LO", NULL, 31, 0, NULL } };
/* (137*32+((49-1)-32)):(137*32+0): 16:0 */
static const nvm_hf_field f_method_buffer_hi[] = { { "NV_RAMIN_ENG_METHOD_BUFFER_ADDR_HI", NULL, 16, 0, NULL } };
/* NV_RAMIN_SC_PDB_VALID(i) is bit i of dwords 166-167; the table names each
 * dword's 32 bits as one field and the tool lists the subcontexts. */
static const nvm_hf_field f_sc_pdb_valid_0[] = { { "NV_RAMIN_SC_PDB_VALID(31:0)", NULL, 31, 0, NULL } };
static const nvm_hf_field f_sc_pdb_valid_1[] = { { "NV_RAMIN_SC_PDB_VALID(63:32)", NULL, 31, 0, NULL } };
static const nvm_hf_field f_sc_pdb_lo[] = {
	{ "NV_RAMIN_SC_PAGE_DIR_BASE_TARGET", NULL, 1, 0, e_pdb_target },
	{ "NV_RAMIN_SC_PAGE_DIR_BASE_VOL", NULL, 2, 2, e_vol },
	{ "NV_RAMIN_SC_PAGE_DIR_BASE_FAULT_REPLAY_TEX", NULL, 4, 4, e_disabled_enabled },
	{ "NV_RAMIN_SC_PAGE_DIR_BASE_FAULT_REPLAY_GCC", NULL, 5, 5, e_disabled_enabled },
	{ "NV_RAMIN_SC_USE_VER2_PT_FORMAT", NULL, 10, 10, e_false_true },
	{ "NV_RAMIN_SC_BIG_PAGE_SIZE", NULL, 11, 11, e_sc_big_page },
	{ "NV_RAMIN_SC_PAGE_DIR_BASE_LO", NULL, 31, 12, NULL },
};
static const nvm_hf_field f_sc_pdb_hi[] = { { "NV_RAMIN_SC_PAGE_DIR_BASE_HI", NULL, 31, 0, NULL } };
static const nvm_hf_field f_sc_ats[] = {
	{ "NV_RAMIN_SC_PASID", NULL, 19, 0, NULL },
	{ "NV_RAMIN_SC_ENABLE_ATS", NULL, 31, 31, e_false_true },
};

/* NV_RAMIN dwords past RAMFC (dev_ram "GPU INSTANCE RAM"), in dword order. */
static const nvm_hf_word ramin_words[] = {
	{ NULL, NULL, 128, 1, 0, N(f_pdb_lo), f_pdb_lo },
	{ NULL, NULL, 129, 1, 0, N(f_pdb_hi), f_pdb_hi },
	{ NULL, NULL, 132, 1, 0, N(f_engine_wfi), f_engine_wfi },
	{ NULL, NULL, 133, 1, 0, N(f_engine_wfi_hi), f_engine_wfi_hi },
	{ NULL, NULL, 134, 1, 0, N(f_engine_wfi_veid), f_engine_wfi_veid },
	{ NULL, NULL, 135, 1, 0, N(f_ats), f_ats },
	{ NULL, NULL, 136, 1, 0, N(f_method_buffer_lo), f_method_buffer_lo },
	{ NULL, NULL, 137, 1, 0, N(f_method_buffer_hi), f_method_buffer_hi },
	{ NULL, NULL, 166, 1, 0, N(f_sc_pdb_valid_0), f_sc_pdb_valid_0 },
	{ NULL, NULL, 167, 1, 0, N(f_sc_pdb_valid_1), f_sc_pdb_valid_1 },
	{ NULL, NULL, 168, NVM_RAMIN_SUBCTX, 4, N(f_sc_pdb_lo), f_sc_pdb_lo },
	{ NULL, NULL, 169, NVM_RAMIN_SUBCTX, 4, N(f_sc_pdb_hi), f_sc_pdb_hi },
	{ NULL, NULL, 170, NVM_RAMIN_SUBCTX, 4, N(f_sc_ats), f_sc_ats },
};

/* ---------------------------------------------------------------- NV_RAMUSERD */

static const nvm_hf_word userd_words[] = {
	{ "NV_RAMUSERD_PUT", "NV_PPBDMA_PUT", 16, 1, 0, N(f_put), f_put },
	{ "NV_RAMUSERD_GET", "NV_PPBDMA_GET", 17, 1, 0, N(f_get), f_get },
	{ "NV_RAMUSERD_REF", "NV_PPBDMA_REF", 18, 1, 0, N(f_ref), f_ref },
	{ "NV_RAMUSERD_PUT_HI", "NV_PPBDMA_PUT_HI", 19, 1, 0, N(f_put_hi), f_put_hi },
	{ "NV_RAMUSERD_TOP_LEVEL_GET", "NV_PPBDMA_TOP_LEVEL_GET", 22, 1, 0, N(f_top_level_get), f_top_level_get },
	{ "NV_RAMUSERD_TOP_LEVEL_GET_HI", "NV_PPBDMA_TOP_LEVEL_GET_HI", 23, 1, 0, N(f_top_level_get_hi),
	  f_top_level_get_hi },
	{ "NV_RAMUSERD_GET_HI", "NV_PPBDMA_GET_HI", 24, 1, 0, N(f_get_hi), f_get_hi },
	{ "NV_RAMUSERD_GP_GET", "NV_PPBDMA_GP_GET", 34, 1, 0, N(f_gp_get), f_gp_get },
	{ "NV_RAMUSERD_GP_PUT", "NV_PPBDMA_GP_PUT", 35, 1, 0, N(f_gp_put), f_gp_put },
};

/* ---------------------------------------------------------------- NV_RAMRL_ENTRY */

/* brief: the names of seed 000's field lists (Fig 5.1, 5.2). */
static const nvm_hf_field f_tsg_dw0[] = {
	{ "NV_RAMRL_ENTRY_TYPE", "ENTRY_TYPE", 0, 0, e_rl_type },
	{ "NV_RAMRL_ENTRY_TSG_TIMESLICE_SCALE", "TIMESLICE_SCALE", 19, 16, NULL },
	{ "NV_RAMRL_ENTRY_TSG_TIMESLICE_TIMEOUT", "TIMESLICE_TIMEOUT", 31, 24, e_timeslice_timeout },
};
static const nvm_hf_field f_tsg_dw1[] = { { "NV_RAMRL_ENTRY_TSG_LENGTH", "TSG_LENGTH", 7, 0, NULL } };
static const nvm_hf_field f_tsg_dw2[] = { { "NV_RAMRL_ENTRY_TSG_TSGID", "TSGID", 11, 0, NULL } };

static const nvm_hf_word rl_tsg_words[] = {
	{ NULL, NULL, 0, 1, 0, N(f_tsg_dw0), f_tsg_dw0 },
	{ NULL, NULL, 1, 1, 0, N(f_tsg_dw1), f_tsg_dw1 },
	{ NULL, NULL, 2, 1, 0, N(f_tsg_dw2), f_tsg_dw2 },
};

static const nvm_hf_field f_chan_dw0[] = {
	{ "NV_RAMRL_ENTRY_TYPE", "ENTRY_TYPE", 0, 0, e_rl_type },
	{ "NV_RAMRL_ENTRY_CHAN_RUNQUEUE_SELECTOR", "RUNQUEUE_SELECTOR", 1, 1, NULL },
	{ "NV_RAMRL_ENTRY_CHAN_INST_TARGET", "INST_TARGET", 5, 4, e_inst_target },
	{ "NV_RAMRL_ENTRY_CHAN_USERD_TARGET", "USERD_TARGET", 7, 6, e_userd_target },
	{ "NV_RAMRL_ENTRY_CHAN_USERD_PTR_LO", "USERD_PTR_LO", 31, 8, NULL },
};
static const nvm_hf_field f_chan_dw1[] = { { "NV_RAMRL_ENTRY_CHAN_USERD_PTR_HI", "USERD_PTR_HI", 31, 0, NULL } };
static const nvm_hf_field f_chan_dw2[] = {
	{ "NV_RAMRL_ENTRY_CHAN_CHID", "CHID", 11, 0, NULL },
	{ "NV_RAMRL_ENTRY_CHAN_INST_PTR_LO", "INST_PTR_LO", 31, 12, NULL },
};
static const nvm_hf_field f_chan_dw3[] = { { "NV_RAMRL_ENTRY_CHAN_INST_PTR_HI", "INST_PTR_HI", 31, 0, NULL } };

static const nvm_hf_word rl_chan_words[] = {
	{ NULL, NULL, 0, 1, 0, N(f_chan_dw0), f_chan_dw0 },
	{ NULL, NULL, 1, 1, 0, N(f_chan_dw1), f_chan_dw1 },
	{ NULL, NULL, 2, 1, 0, N(f_chan_dw2), f_chan_dw2 },
	{ NULL, NULL, 3, 1, 0, N(f_chan_dw3), f_chan_dw3 },
};

/* ---------------------------------------------------------------- Turing (tu102) */

/* tu104_dev_ram.ref.txt against gv100's: the RAMFC field list is the same
 * except that RESERVED26 is gone and RESERVED62 is named (nouveau writes
 * 0x10003080 there); NV_PPBDMA_SIGNATURE_HW_HOST_CLASS_ID is 50287 (0xC46F,
 * tu104 dev_pbdma); the TSG entry gains NV_RAMRL_ENTRY_TSG_GFID
 * (11+0*32):(4+0*32). RAMIN and RAMUSERD are gv100's. */
static const nvm_hf_enum e_tu102_signature_hw[] = { { 0xface, "VALID" }, { 50287, "HOST_CLASS_ID" }, { 0, NULL } };
static const nvm_hf_field f_tu102_signature[] = {
	{ "NV_PPBDMA_SIGNATURE_HW", NULL, 15, 0, e_tu102_signature_hw },
	{ "NV_PPBDMA_SIGNATURE_SW", NULL, 31, 16, NULL },
};
static const nvm_hf_field f_reserved62[] = { { "NV_RAMFC_RESERVED62", NULL, 31, 0, NULL } };

/* clang-format off */
#define W_RESERVED62 { "NV_RAMFC_RESERVED62", NULL, 62, 1, 0, N(f_reserved62), f_reserved62 },
/* clang-format on */
static const nvm_hf_word tu102_ramfc_words[] = RAMFC_WORDS(W_USERD, W_USERD_HI, f_tu102_signature, f_gp_base_hi, W_NONE,
                                                           W_RESERVED20, W_METHOD_CRC, W_RESERVED62);

static const nvm_hf_field f_tu102_tsg_dw0[] = {
	{ "NV_RAMRL_ENTRY_TYPE", "ENTRY_TYPE", 0, 0, e_rl_type },
	{ "NV_RAMRL_ENTRY_TSG_GFID", "GFID", 11, 4, NULL },
	{ "NV_RAMRL_ENTRY_TSG_TIMESLICE_SCALE", "TIMESLICE_SCALE", 19, 16, NULL },
	{ "NV_RAMRL_ENTRY_TSG_TIMESLICE_TIMEOUT", "TIMESLICE_TIMEOUT", 31, 24, e_timeslice_timeout },
};

static const nvm_hf_word tu102_rl_tsg_words[] = {
	{ NULL, NULL, 0, 1, 0, N(f_tu102_tsg_dw0), f_tu102_tsg_dw0 },
	{ NULL, NULL, 1, 1, 0, N(f_tsg_dw1), f_tsg_dw1 },
	{ NULL, NULL, 2, 1, 0, N(f_tsg_dw2), f_tsg_dw2 },
};

/* ---------------------------------------------------------------- layouts */

const nvm_hf_layout hf_gv100_layouts[NVM_HF_STRUCT_COUNT] = {
	[NVM_HF_RAMFC] = { "NV_RAMFC", NVM_RAMFC_SIZE, 0, sizeof(ramfc_words) / sizeof(ramfc_words[0]), ramfc_words },
	[NVM_HF_RAMIN] = { "NV_RAMIN", NVM_RAMIN_SIZE, 1, sizeof(ramin_words) / sizeof(ramin_words[0]), ramin_words },
	[NVM_HF_USERD] = { "NV_RAMUSERD", NVM_USERD_SIZE, 0, sizeof(userd_words) / sizeof(userd_words[0]),
	                   userd_words },
	[NVM_HF_RL_TSG] = { "NV_RAMRL_ENTRY (TSG)", NVM_RL_ENTRY_SIZE, 2,
	                    sizeof(rl_tsg_words) / sizeof(rl_tsg_words[0]), rl_tsg_words },
	[NVM_HF_RL_CHAN] = { "NV_RAMRL_ENTRY (CHAN)", NVM_RL_ENTRY_SIZE, 2,
	                     sizeof(rl_chan_words) / sizeof(rl_chan_words[0]), rl_chan_words },
};

/* ga100_dev_ram NV_RAMUSERD: REF_THRESHOLD (dword 20, "FIXME REMOVE") is
 * new; the PBDMA writes back the same entries as gv100's. */
WHOLE(f_ref_threshold, "NV_RAMUSERD_REF_THRESHOLD", "VALUE");
static const nvm_hf_word ga100_userd_words[] = {
	{ "NV_RAMUSERD_PUT", "NV_PPBDMA_PUT", 16, 1, 0, N(f_put), f_put },
	{ "NV_RAMUSERD_GET", "NV_PPBDMA_GET", 17, 1, 0, N(f_get), f_get },
	{ "NV_RAMUSERD_REF", "NV_PPBDMA_REF", 18, 1, 0, N(f_ref), f_ref },
	{ "NV_RAMUSERD_PUT_HI", "NV_PPBDMA_PUT_HI", 19, 1, 0, N(f_put_hi), f_put_hi },
	{ "NV_RAMUSERD_REF_THRESHOLD", NULL, 20, 1, 0, N(f_ref_threshold), f_ref_threshold },
	{ "NV_RAMUSERD_TOP_LEVEL_GET", "NV_PPBDMA_TOP_LEVEL_GET", 22, 1, 0, N(f_top_level_get), f_top_level_get },
	{ "NV_RAMUSERD_TOP_LEVEL_GET_HI", "NV_PPBDMA_TOP_LEVEL_GET_HI", 23, 1, 0, N(f_top_level_get_hi),
	  f_top_level_get_hi },
	{ "NV_RAMUSERD_GET_HI", "NV_PPBDMA_GET_HI", 24, 1, 0, N(f_get_hi), f_get_hi },
	{ "NV_RAMUSERD_GP_GET", "NV_PPBDMA_GP_GET", 34, 1, 0, N(f_gp_get), f_gp_get },
	{ "NV_RAMUSERD_GP_PUT", "NV_PPBDMA_GP_PUT", 35, 1, 0, N(f_gp_put), f_gp_put },
};

/* ga100_dev_ram NV_RAMRL_ENTRY: ID (11+2*32):(0+2*32) of which the hardware
 * keeps ID_HW 10:0 (2048 channels and TSGs). Hopper: USERD_PTR_HI_HW 19:0
 * (OGKM gh100 dev_ram.h); the model keeps 40-bit USERD addresses. */
static const nvm_hf_field f_tsg_dw2_ga100[] = { { "NV_RAMRL_ENTRY_TSG_TSGID", "TSGID", 10, 0, NULL } };
static const nvm_hf_word ga100_rl_tsg_words[] = {
	{ NULL, NULL, 0, 1, 0, N(f_tsg_dw0), f_tsg_dw0 },
	{ NULL, NULL, 1, 1, 0, N(f_tsg_dw1), f_tsg_dw1 },
	{ NULL, NULL, 2, 1, 0, N(f_tsg_dw2_ga100), f_tsg_dw2_ga100 },
};
static const nvm_hf_field f_chan_dw2_ga100[] = {
	{ "NV_RAMRL_ENTRY_CHAN_CHID", "CHID", 10, 0, NULL },
	{ "NV_RAMRL_ENTRY_CHAN_INST_PTR_LO", "INST_PTR_LO", 31, 12, NULL },
};
static const nvm_hf_word ga100_rl_chan_words[] = {
	{ NULL, NULL, 0, 1, 0, N(f_chan_dw0), f_chan_dw0 },
	{ NULL, NULL, 1, 1, 0, N(f_chan_dw1), f_chan_dw1 },
	{ NULL, NULL, 2, 1, 0, N(f_chan_dw2_ga100), f_chan_dw2_ga100 },
	{ NULL, NULL, 3, 1, 0, N(f_chan_dw3), f_chan_dw3 },
};

#define LAYOUTS(fc)                                                                                                    \
	{                                                                                                              \
		[NVM_HF_RAMFC] = { "NV_RAMFC", NVM_RAMFC_SIZE, 0, N(fc), fc },                                         \
		[NVM_HF_RAMIN] = { "NV_RAMIN", NVM_RAMIN_SIZE, 1, N(ramin_words), ramin_words },                       \
		[NVM_HF_USERD] = { "NV_RAMUSERD", NVM_USERD_SIZE, 0, N(ga100_userd_words), ga100_userd_words },        \
		[NVM_HF_RL_TSG] = { "NV_RAMRL_ENTRY (TSG)", NVM_RL_ENTRY_SIZE, 2, N(ga100_rl_tsg_words),               \
			            ga100_rl_tsg_words },                                                              \
		[NVM_HF_RL_CHAN] = { "NV_RAMRL_ENTRY (CHAN)", NVM_RL_ENTRY_SIZE, 2, N(ga100_rl_chan_words),            \
			             ga100_rl_chan_words },                                                            \
	}

const nvm_hf_layout hf_ga100_layouts[NVM_HF_STRUCT_COUNT] = LAYOUTS(ga100_ramfc_words);
const nvm_hf_layout hf_ga102_layouts[NVM_HF_STRUCT_COUNT] = LAYOUTS(ga102_ramfc_words);
const nvm_hf_layout hf_gh100_layouts[NVM_HF_STRUCT_COUNT] = LAYOUTS(gh100_ramfc_words);

const nvm_hf_layout hf_tu102_layouts[NVM_HF_STRUCT_COUNT] = {
	[NVM_HF_RAMFC] = { "NV_RAMFC", NVM_RAMFC_SIZE, 0, sizeof(tu102_ramfc_words) / sizeof(tu102_ramfc_words[0]),
	                   tu102_ramfc_words },
	[NVM_HF_RAMIN] = { "NV_RAMIN", NVM_RAMIN_SIZE, 1, sizeof(ramin_words) / sizeof(ramin_words[0]), ramin_words },
	[NVM_HF_USERD] = { "NV_RAMUSERD", NVM_USERD_SIZE, 0, sizeof(userd_words) / sizeof(userd_words[0]),
	                   userd_words },
	[NVM_HF_RL_TSG] = { "NV_RAMRL_ENTRY (TSG)", NVM_RL_ENTRY_SIZE, 2,
	                    sizeof(tu102_rl_tsg_words) / sizeof(tu102_rl_tsg_words[0]), tu102_rl_tsg_words },
	[NVM_HF_RL_CHAN] = { "NV_RAMRL_ENTRY (CHAN)", NVM_RL_ENTRY_SIZE, 2,
	                     sizeof(rl_chan_words) / sizeof(rl_chan_words[0]), rl_chan_words },
};

const nvm_hf_layout *nvm_hf_layout_get(nvm_hf_struct which)
{
	return (unsigned)which < NVM_HF_STRUCT_COUNT ? &hf_gv100_layouts[which] : NULL;
}
