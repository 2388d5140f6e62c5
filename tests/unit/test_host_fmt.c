/*
 * Decoders and checkers of the Volta Host structures (host_fmt.h) on
 * hand-written images. Documents: seed 000 sections 2 (RAMIN), 3 (RAMFC),
 * 4 (RAMUSERD) and 5 (RAMRL), gv100_dev_ram.ref.txt, gv100_dev_pbdma.ref.txt
 * (the NV_PPBDMA_* register each RAMFC dword mirrors), gv100_dev_fifo.ref.txt
 * (SCHED_ERROR codes), volta-facts.md section 3 (what nouveau writes),
 * silicon-h100.md (USERD offsets).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "nvmodel/host_fmt.h"

#define N(a) (sizeof(a) / sizeof(a[0]))

static void put(uint8_t *buf, unsigned dw, uint32_t v)
{
	for (unsigned b = 0; b < 4; b++)
		buf[4 * dw + b] = (uint8_t)(v >> (8 * b));
}

/* ---------------------------------------------------------------- tables */

/* Finds the field called name in a layout; *dword gets its (first) dword. */
static const nvm_hf_field *find(nvm_hf_struct s, const char *name, unsigned *dword, const nvm_hf_word **word)
{
	const nvm_hf_layout *l = nvm_hf_layout_get(s);
	for (size_t i = 0; i < l->nwords; i++)
		for (unsigned k = 0; k < l->words[i].nfields; k++)
			if (!strcmp(l->words[i].fields[k].name, name)) {
				*dword = l->words[i].dword;
				if (word)
					*word = &l->words[i];
				return &l->words[i].fields[k];
			}
	fail_msg("no field %s", name);
	return NULL;
}

static void expect_field(nvm_hf_struct s, const char *name, unsigned dword, unsigned hi, unsigned lo)
{
	unsigned d;
	const nvm_hf_field *f = find(s, name, &d, NULL);
	if (d != dword || f->hi != hi || f->lo != lo)
		fail_msg("%s: dword %u %u:%u, want dword %u %u:%u", name, d, f->hi, f->lo, dword, hi, lo);
}

/* Every layout: words in dword order and not overlapping (array copies
 * included), inside the structure; fields inside 31:0, not overlapping. */
static void test_tables_well_formed(void **state)
{
	(void)state;
	for (int s = 0; s < NVM_HF_STRUCT_COUNT; s++) {
		const nvm_hf_layout *l = nvm_hf_layout_get((nvm_hf_struct)s);
		assert_non_null(l);
		uint8_t seen[1024] = { 0 };
		assert_true(l->size / 4 <= sizeof(seen));
		for (size_t i = 0; i < l->nwords; i++) {
			const nvm_hf_word *w = &l->words[i];
			assert_true(w->count >= 1 && w->nfields >= 1);
			if (i)
				assert_true(w->dword > l->words[i - 1].dword);
			for (unsigned c = 0; c < w->count; c++) {
				unsigned d = w->dword + c * w->stride;
				assert_true(d < l->size / 4);
				assert_int_equal(seen[d], 0);
				seen[d] = 1;
				unsigned idx;
				assert_ptr_equal(nvm_hf_word_at(l, d, &idx), w);
				assert_int_equal(idx, c);
			}
			uint32_t used = 0;
			for (unsigned k = 0; k < w->nfields; k++) {
				const nvm_hf_field *f = &w->fields[k];
				assert_true(f->hi <= 31 && f->lo <= f->hi);
				uint32_t m = (uint32_t)((f->hi - f->lo == 31) ? 0xffffffffu
				                                              : ((1u << (f->hi - f->lo + 1)) - 1u))
				             << f->lo;
				assert_int_equal(used & m, 0);
				used |= m;
				assert_non_null(f->name);
				assert_true(!strncmp(f->name, "NV_", 3));
			}
			assert_int_equal(nvm_hf_undefined_bits(w), ~used);
		}
	}
	assert_null(nvm_hf_layout_get(NVM_HF_STRUCT_COUNT));
}

/* dev_ram "FIFO CONTEXT RAM": the NV_RAMFC_* dwords and the register each
 * mirrors (the seed's RAMFC Entry / PBDMA Register table). */
static void test_ramfc_dwords(void **state)
{
	(void)state;
	static const struct {
		unsigned dw;
		const char *name, *reg;
	} want[] = {
		{ 0, "NV_RAMFC_GP_PUT", "NV_PPBDMA_GP_PUT" },
		{ 1, "NV_RAMFC_MEM_OP_A", "NV_PPBDMA_MEM_OP_A" },
		{ 2, "NV_RAMFC_USERD", "NV_PPBDMA_USERD" },
		{ 3, "NV_RAMFC_USERD_HI", "NV_PPBDMA_USERD_HI" },
		{ 4, "NV_RAMFC_SIGNATURE", "NV_PPBDMA_SIGNATURE" },
		{ 5, "NV_RAMFC_GP_GET", "NV_PPBDMA_GP_GET" },
		{ 6, "NV_RAMFC_PB_GET", "NV_PPBDMA_GET" },
		{ 7, "NV_RAMFC_PB_GET_HI", "NV_PPBDMA_GET_HI" },
		{ 8, "NV_RAMFC_PB_TOP_LEVEL_GET", "NV_PPBDMA_TOP_LEVEL_GET" },
		{ 9, "NV_RAMFC_PB_TOP_LEVEL_GET_HI", "NV_PPBDMA_TOP_LEVEL_GET_HI" },
		{ 10, "NV_RAMFC_REF", "NV_PPBDMA_REF" },
		{ 11, "NV_RAMFC_RUNTIME", "NV_PPBDMA_RUNTIME" },
		{ 12, "NV_RAMFC_ACQUIRE", "NV_PPBDMA_ACQUIRE" },
		{ 13, "NV_RAMFC_ACQUIRE_DEADLINE", "NV_PPBDMA_ACQUIRE_DEADLINE" },
		{ 14, "NV_RAMFC_SEM_ADDR_HI", "NV_PPBDMA_SEM_ADDR_HI" },
		{ 15, "NV_RAMFC_SEM_ADDR_LO", "NV_PPBDMA_SEM_ADDR_LO" },
		{ 16, "NV_RAMFC_SEM_PAYLOAD_LO", "NV_PPBDMA_SEM_PAYLOAD_LO" },
		{ 17, "NV_RAMFC_SEM_EXECUTE", "NV_PPBDMA_SEM_EXECUTE" },
		{ 18, "NV_RAMFC_GP_BASE", "NV_PPBDMA_GP_BASE" },
		{ 19, "NV_RAMFC_GP_BASE_HI", "NV_PPBDMA_GP_BASE_HI" },
		{ 20, "NV_RAMFC_GP_FETCH", "NV_PPBDMA_GP_FETCH" },
		{ 21, "NV_RAMFC_PB_FETCH", "NV_PPBDMA_PB_FETCH" },
		{ 22, "NV_RAMFC_PB_FETCH_HI", "NV_PPBDMA_PB_FETCH_HI" },
		{ 23, "NV_RAMFC_PB_PUT", "NV_PPBDMA_PUT" },
		{ 24, "NV_RAMFC_PB_PUT_HI", "NV_PPBDMA_PUT_HI" },
		{ 25, "NV_RAMFC_MEM_OP_B", "NV_PPBDMA_MEM_OP_B" },
		{ 26, "NV_RAMFC_RESERVED26", NULL },
		{ 27, "NV_RAMFC_RESERVED27", NULL },
		{ 28, "NV_RAMFC_RESERVED28", NULL },
		{ 29, "NV_RAMFC_GP_CRC", "NV_PPBDMA_GP_CRC" },
		{ 33, "NV_RAMFC_PB_HEADER", "NV_PPBDMA_PB_HEADER" },
		{ 34, "NV_RAMFC_PB_COUNT", "NV_PPBDMA_PB_COUNT" },
		{ 37, "NV_RAMFC_SUBDEVICE", "NV_PPBDMA_SUBDEVICE" },
		{ 38, "NV_RAMFC_PB_CRC", "NV_PPBDMA_PB_CRC" },
		{ 39, "NV_RAMFC_SEM_PAYLOAD_HI", "NV_PPBDMA_SEM_PAYLOAD_HI" },
		{ 40, "NV_RAMFC_MEM_OP_C", "NV_PPBDMA_MEM_OP_C" },
		{ 41, "NV_RAMFC_RESERVED20", NULL },
		{ 42, "NV_RAMFC_RESERVED21", NULL },
		{ 43, "NV_RAMFC_TARGET", "NV_PPBDMA_TARGET" },
		{ 44, "NV_RAMFC_METHOD_CRC", "NV_PPBDMA_METHOD_CRC" },
		{ 48, "NV_RAMFC_METHOD0", "NV_PPBDMA_METHOD0" },
		{ 49, "NV_RAMFC_DATA0", "NV_PPBDMA_DATA0" },
		{ 50, "NV_RAMFC_METHOD1", "NV_PPBDMA_METHOD1" },
		{ 51, "NV_RAMFC_DATA1", "NV_PPBDMA_DATA1" },
		{ 52, "NV_RAMFC_METHOD2", "NV_PPBDMA_METHOD2" },
		{ 53, "NV_RAMFC_DATA2", "NV_PPBDMA_DATA2" },
		{ 54, "NV_RAMFC_METHOD3", "NV_PPBDMA_METHOD3" },
		{ 55, "NV_RAMFC_DATA3", "NV_PPBDMA_DATA3" },
		{ 57, "NV_RAMFC_HCE_CTRL", "NV_PPBDMA_HCE_CTRL" },
		{ 61, "NV_RAMFC_CONFIG", "NV_PPBDMA_CONFIG" },
		{ 63, "NV_RAMFC_SET_CHANNEL_INFO", "NV_PPBDMA_SET_CHANNEL_INFO" },
	};
	const nvm_hf_layout *l = nvm_hf_layout_get(NVM_HF_RAMFC);
	assert_int_equal(l->nwords, N(want));
	assert_int_equal(l->size, 512); /* NV_RAMFC_SIZE_VAL 0x200 */
	for (size_t i = 0; i < N(want); i++) {
		const nvm_hf_word *w = nvm_hf_word_at(l, want[i].dw, NULL);
		assert_non_null(w);
		assert_string_equal(w->name, want[i].name);
		if (want[i].reg) {
			assert_string_equal(w->reg, want[i].reg);
			/* sub-fields carry the register's name */
			for (unsigned k = 0; k < w->nfields; k++)
				assert_true(!strncmp(w->fields[k].name, want[i].reg, strlen(want[i].reg)));
		} else {
			assert_null(w->reg);
		}
	}
	/* dwords the gv100 manual leaves unnamed (nouveau writes 58 and 62) */
	assert_null(nvm_hf_word_at(l, 58, NULL));
	assert_null(nvm_hf_word_at(l, 62, NULL));
	assert_null(nvm_hf_word_at(l, 30, NULL));
}

/* gv100_dev_pbdma: the sub-fields the RAMFC decoder names. */
static void test_ramfc_subfields(void **state)
{
	(void)state;
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_USERD_TARGET", 2, 1, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_USERD_ADDR", 2, 31, 9);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_USERD_HI_ADDR", 3, 7, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SIGNATURE_HW", 4, 15, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SIGNATURE_SW", 4, 31, 16);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_ACQUIRE_RETRY_MAN", 12, 6, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_ACQUIRE_RETRY_EXP", 12, 10, 7);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_ACQUIRE_TIMEOUT_EXP", 12, 14, 11);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_ACQUIRE_TIMEOUT_MAN", 12, 30, 15);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_ACQUIRE_TIMEOUT_EN", 12, 31, 31);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SEM_EXECUTE_OPERATION", 17, 2, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SEM_EXECUTE_ACQUIRE_SWITCH_TSG", 17, 12, 12);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SEM_EXECUTE_REDUCTION", 17, 30, 27);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_GP_BASE_OFFSET", 18, 31, 3);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_GP_BASE_HI_OFFSET", 19, 7, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_GP_BASE_HI_LIMIT2", 19, 20, 16);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_PB_FETCH_HI_LENGTH", 22, 31, 11);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_PB_HEADER_SUBCHANNEL", 33, 18, 16);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_PB_HEADER_TYPE", 33, 31, 29);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_PB_COUNT_VALUE", 34, 12, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SUBDEVICE_ID", 37, 11, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SUBDEVICE_STORED_MASK", 37, 27, 16);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SUBDEVICE_STATUS", 37, 28, 28);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SUBDEVICE_CHANNEL_DMA", 37, 29, 29);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_TARGET_ENGINE", 43, 4, 0);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_TARGET_ENG_CTX_VALID", 43, 16, 16);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_TARGET_CE_CTX_VALID", 43, 17, 17);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_METHOD0_ADDR", 48, 13, 2);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_METHOD3_VALID", 54, 31, 31);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_HCE_CTRL_HCE_PRIV_MODE", 57, 5, 5);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_CONFIG_AUTH_LEVEL", 61, 8, 8);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_CONFIG_USERD_WRITEBACK", 61, 12, 12);
	expect_field(NVM_HF_RAMFC, "NV_PPBDMA_SET_CHANNEL_INFO_VEID", 63, 13, 8);
	/* value names: SIGNATURE_HW_VALID 0xface, HW_HOST_CLASS_ID 50031 */
	unsigned d;
	const nvm_hf_field *f = find(NVM_HF_RAMFC, "NV_PPBDMA_SIGNATURE_HW", &d, NULL);
	assert_string_equal(nvm_hf_enum_name(f, 0xface), "VALID");
	assert_string_equal(nvm_hf_enum_name(f, 50031), "HOST_CLASS_ID");
	assert_null(nvm_hf_enum_name(f, 0));
	f = find(NVM_HF_RAMFC, "NV_PPBDMA_USERD_TARGET", &d, NULL);
	assert_string_equal(nvm_hf_enum_name(f, 1), "VID_MEM_NVLINK_COHERENT");
	f = find(NVM_HF_RAMFC, "NV_PPBDMA_PB_HEADER_TYPE", &d, NULL);
	assert_string_equal(nvm_hf_enum_name(f, 7), "END_SEG");
}

/* Seed 000 section 2: the NV_RAMIN_* positions. */
static void test_ramin_fields(void **state)
{
	(void)state;
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_PAGE_DIR_BASE_TARGET", 128, 1, 0);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_PAGE_DIR_BASE_VOL", 128, 2, 2);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_PAGE_DIR_BASE_FAULT_REPLAY_TEX", 128, 4, 4);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_PAGE_DIR_BASE_FAULT_REPLAY_GCC", 128, 5, 5);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_USE_VER2_PT_FORMAT", 128, 10, 10);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_BIG_PAGE_SIZE", 128, 11, 11);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_PAGE_DIR_BASE_LO", 128, 31, 12);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_PAGE_DIR_BASE_HI", 129, 31, 0);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENGINE_CS", 132, 3, 3);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENGINE_WFI_TARGET", 132, 1, 0);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENGINE_WFI_MODE", 132, 2, 2);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENGINE_WFI_PTR_LO", 132, 31, 12);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENGINE_WFI_PTR_HI", 133, 7, 0);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENGINE_WFI_VEID", 134, 5, 0); /* (134*32+(6-1)) */
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENABLE_ATS", 135, 31, 31);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_PASID", 135, 19, 0); /* (135*32+(20-1)) */
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENG_METHOD_BUFFER_ADDR_LO", 136, 31, 0);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_ENG_METHOD_BUFFER_ADDR_HI", 137, 16, 0); /* (49-1)-32 */
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_SC_PAGE_DIR_BASE_TARGET", 168, 1, 0);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_SC_USE_VER2_PT_FORMAT", 168, 10, 10);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_SC_BIG_PAGE_SIZE", 168, 11, 11);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_SC_PAGE_DIR_BASE_HI", 169, 31, 0);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_SC_ENABLE_ATS", 170, 31, 31);
	expect_field(NVM_HF_RAMIN, "NV_RAMIN_SC_PASID", 170, 19, 0);
	/* SC_*(i) at ((168+(i)*4)*32+...): 64 copies, 4 dwords apart */
	const nvm_hf_layout *l = nvm_hf_layout_get(NVM_HF_RAMIN);
	unsigned idx;
	const nvm_hf_word *w = nvm_hf_word_at(l, 168 + 63 * 4, &idx);
	assert_non_null(w);
	assert_int_equal(idx, 63);
	assert_int_equal(w->count, 64);
	assert_int_equal(w->stride, 4);
	assert_null(nvm_hf_word_at(l, 171, NULL)); /* (171 + 4i) holds nothing */
	char bits[48];
	assert_string_equal(nvm_hf_bits_text(l, w, 5, &w->fields[0], bits, sizeof(bits)), "(188*32+1):(188*32+0)");
	assert_null(nvm_hf_word_at(l, 168 + 64 * 4, NULL));
}

/* Seed 000 section 4: NV_RAMUSERD_* dwords; silicon-h100.md confirms the
 * byte offsets PUT 0x40 ... GP_PUT 0x8c. */
static void test_userd_fields(void **state)
{
	(void)state;
	static const struct {
		unsigned off;
		const char *name, *reg;
	} want[] = {
		{ 0x40, "NV_RAMUSERD_PUT", "NV_PPBDMA_PUT" },
		{ 0x44, "NV_RAMUSERD_GET", "NV_PPBDMA_GET" },
		{ 0x48, "NV_RAMUSERD_REF", "NV_PPBDMA_REF" },
		{ 0x4c, "NV_RAMUSERD_PUT_HI", "NV_PPBDMA_PUT_HI" },
		{ 0x58, "NV_RAMUSERD_TOP_LEVEL_GET", "NV_PPBDMA_TOP_LEVEL_GET" },
		{ 0x5c, "NV_RAMUSERD_TOP_LEVEL_GET_HI", "NV_PPBDMA_TOP_LEVEL_GET_HI" },
		{ 0x60, "NV_RAMUSERD_GET_HI", "NV_PPBDMA_GET_HI" },
		{ 0x88, "NV_RAMUSERD_GP_GET", "NV_PPBDMA_GP_GET" },
		{ 0x8c, "NV_RAMUSERD_GP_PUT", "NV_PPBDMA_GP_PUT" },
	};
	const nvm_hf_layout *l = nvm_hf_layout_get(NVM_HF_USERD);
	assert_int_equal(l->size, 512); /* NV_RAMUSERD_CHAN_SIZE */
	assert_int_equal(l->nwords, N(want));
	for (size_t i = 0; i < N(want); i++) {
		const nvm_hf_word *w = nvm_hf_word_at(l, want[i].off / 4, NULL);
		assert_non_null(w);
		assert_string_equal(w->name, want[i].name);
		assert_string_equal(w->reg, want[i].reg);
	}
	expect_field(NVM_HF_USERD, "NV_PPBDMA_TOP_LEVEL_GET_HI_VALID", 23, 31, 31);
}

/* Seed 000 section 5: NV_RAMRL_ENTRY_* positions, written by the manual as
 * (bit+dword*32). */
static void test_rl_fields(void **state)
{
	(void)state;
	expect_field(NVM_HF_RL_TSG, "NV_RAMRL_ENTRY_TYPE", 0, 0, 0);
	expect_field(NVM_HF_RL_TSG, "NV_RAMRL_ENTRY_TSG_TIMESLICE_SCALE", 0, 19, 16);
	expect_field(NVM_HF_RL_TSG, "NV_RAMRL_ENTRY_TSG_TIMESLICE_TIMEOUT", 0, 31, 24);
	expect_field(NVM_HF_RL_TSG, "NV_RAMRL_ENTRY_TSG_LENGTH", 1, 7, 0);
	expect_field(NVM_HF_RL_TSG, "NV_RAMRL_ENTRY_TSG_TSGID", 2, 11, 0);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_RUNQUEUE_SELECTOR", 0, 1, 1);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_INST_TARGET", 0, 5, 4);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_USERD_TARGET", 0, 7, 6);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_USERD_PTR_LO", 0, 31, 8);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_USERD_PTR_HI", 1, 31, 0);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_CHID", 2, 11, 0);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_INST_PTR_LO", 2, 31, 12);
	expect_field(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_INST_PTR_HI", 3, 31, 0);
	unsigned d;
	const nvm_hf_word *w;
	const nvm_hf_field *f = find(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_INST_TARGET", &d, &w);
	char bits[48];
	assert_string_equal(nvm_hf_bits_text(nvm_hf_layout_get(NVM_HF_RL_CHAN), w, 0, f, bits, sizeof(bits)),
	                    "(5+0*32):(4+0*32)");
	assert_string_equal(f->brief, "INST_TARGET");
	assert_null(nvm_hf_enum_name(f, 1)); /* INST_TARGET defines 0, 2, 3 */
	f = find(NVM_HF_RL_CHAN, "NV_RAMRL_ENTRY_CHAN_USERD_TARGET", &d, NULL);
	assert_string_equal(nvm_hf_enum_name(f, 1), "VID_MEM_NVLINK_COHERENT");
	/* a register-style position */
	f = find(NVM_HF_RAMFC, "NV_PPBDMA_GP_BASE_HI_LIMIT2", &d, &w);
	assert_string_equal(nvm_hf_bits_text(nvm_hf_layout_get(NVM_HF_RAMFC), w, 0, f, bits, sizeof(bits)), "20:16");
}

/* ---------------------------------------------------------------- RAMFC / RAMIN */

#define GPFIFO 0x1000000ull
#define USERD  0x20000ull
#define PDB    0x100000ull

/* An instance block as nouveau writes it for gv100 (volta-facts.md
 * section 3, gv100_chan_ramfc_write) with a ver2 page directory (seed 000
 * section 2: USE_VER2_PT_FORMAT TRUE, BIG_PAGE_SIZE 64KB). */
static void nouveau_inst(uint8_t *inst)
{
	memset(inst, 0, NVM_RAMIN_SIZE);
	put(inst, 0x008 / 4, (uint32_t)USERD);
	put(inst, 0x00c / 4, (uint32_t)(USERD >> 32));
	put(inst, 0x010 / 4, 0x0000face);
	put(inst, 0x030 / 4, 0x7ffff902);
	put(inst, 0x048 / 4, (uint32_t)GPFIFO);
	put(inst, 0x04c / 4, (uint32_t)(GPFIFO >> 32) | 9u << 16); /* LIMIT2 9: 512 entries */
	put(inst, 0x084 / 4, 0x20400000);
	put(inst, 0x094 / 4, 0x30000fff);
	put(inst, 0x0e4 / 4, 0x20);
	put(inst, 0x0e8 / 4, 3); /* chid, dword 58 */
	put(inst, 0x0f4 / 4, 0x1100);
	put(inst, 0x0f8 / 4, 0x10003080);
	put(inst, 0x0ac / 4, 1u << 16); /* TARGET ENG_CTX_VALID */
	/* RAMIN 0x200: PDB | ver2 (bit 10) | 64KB (bit 11), VID_MEM */
	put(inst, 128, (uint32_t)PDB | 1u << 10 | 1u << 11);
	put(inst, 129, 0);
	put(inst, 132, 0x00200000 | 4u); /* ENGINE_WFI_PTR_LO | MODE VIRTUAL */
}

static void test_nouveau_instance_block(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nouveau_inst(inst);
	nvm_hf_problem p[8];
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 0);
	nvm_ramin_info in;
	nvm_ramin_decode(inst, &in);
	assert_int_equal(in.fc.signature_hw, 0xface);
	assert_int_equal(in.fc.userd_target, 0);
	assert_int_equal(in.fc.userd_addr, USERD);
	assert_int_equal(in.fc.gp_base, GPFIFO);
	assert_int_equal(in.fc.limit2, 9);
	/* ACQUIRE 0x7FFFF902: RETRY_MAN 2, RETRY_EXP 2, timeout disabled */
	assert_int_equal(in.fc.acquire_retry_clk, 2u << 2);
	assert_int_equal(in.fc.acquire_timeout_en, 0);
	assert_int_equal(in.fc.acquire_timeout_ns, 1024ull * 0xffff << 15);
	/* SUBDEVICE 0x30000FFF: STATUS_ACTIVE, CHANNEL_DMA_ENABLE, ID 0xFFF */
	assert_int_equal(in.fc.subdevice_id, 0xfff);
	assert_int_equal(in.fc.subdevice_active, 1);
	assert_int_equal(in.fc.channel_dma, 1);
	/* CONFIG 0x1100: USERD_WRITEBACK_EN | AUTH_LEVEL_PRIVILEGED */
	assert_int_equal(in.fc.auth_privileged, 1);
	assert_int_equal(in.fc.userd_writeback, 1);
	assert_int_equal(in.fc.eng_ctx_valid, 1);
	assert_int_equal(in.fc.ce_ctx_valid, 0);
	assert_int_equal(in.pdb.target, 0);
	assert_int_equal(in.pdb.addr, PDB);
	assert_int_equal(in.pdb.ver2, 1);
	assert_int_equal(in.pdb.big_page_64k, 1);
	assert_int_equal(in.wfi_virtual, 1);
	assert_int_equal(in.wfi_ptr, 0x200000);
	/* the same RAMFC alone */
	assert_int_equal(nvm_ramfc_check(inst, NULL, 0), 0);
	/* a field through the table: PB_HEADER TYPE INC, FIRST TRUE */
	unsigned d;
	const nvm_hf_word *w;
	const nvm_hf_field *f = find(NVM_HF_RAMFC, "NV_PPBDMA_PB_HEADER_TYPE", &d, &w);
	assert_int_equal(nvm_hf_get(inst, sizeof(inst), w, 0, f), 1);
	f = find(NVM_HF_RAMFC, "NV_PPBDMA_PB_HEADER_FIRST", &d, &w);
	assert_int_equal(nvm_hf_get(inst, sizeof(inst), w, 0, f), 1);
	/* reads outside the buffer give 0 */
	assert_int_equal(nvm_hf_dword(inst, 8, 2), 0);
	assert_int_equal(nvm_hf_dword(inst, 12, 2), (uint32_t)USERD);
	assert_int_equal(nvm_hf_dword(NULL, 0, 0), 0);
}

/* gv100_dev_pbdma SIGNATURE: HW must be HW_VALID (0xface) or
 * HW_HOST_CLASS_ID (50031), else INTR_0 SIGNATURE; "The SW field is for use
 * by software. Host is not affected by the value." */
static void test_signature(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[4];
	nouveau_inst(inst);
	put(inst, 4, 0xabcd0000u | 50031u);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 0);
	put(inst, 4, 0xffffface);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 0);
	put(inst, 4, 0);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_SIGNATURE);
	assert_int_equal(p[0].where, 4);
	assert_int_equal(p[0].value, 0);
	put(inst, 4, 0x0000facf);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].value, 0xfacf);
	const nvm_hf_check_info *ci = nvm_hf_check_get(NVM_HF_SIGNATURE);
	assert_int_equal(ci->severity, NVM_HF_ERROR);
	assert_non_null(strstr(ci->effect, "SIGNATURE"));
}

/* GP_PUT, GP_GET, GP_FETCH: "If ... the value equals or exceeds the size of
 * the circular buffer that stores GP entries (1<<NV_PPBDMA_GP_BASE_HI_LIMIT2),
 * Host will initiate an interrupt (NV_PPBDMA_INTR_*_GPPTR)". */
static void test_gpptr(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[4];
	nouveau_inst(inst);
	put(inst, 19, 4u << 16); /* LIMIT2 4: 16 entries */
	put(inst, 0, 15);        /* GP_PUT */
	put(inst, 5, 15);        /* GP_GET */
	put(inst, 20, 15);       /* GP_FETCH */
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 0);
	put(inst, 0, 16);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_GPPTR);
	assert_int_equal(p[0].where, 0);
	assert_string_equal(p[0].field, "NV_RAMFC_GP_PUT");
	assert_int_equal(p[0].value, 16);
	assert_int_equal(p[0].limit, 16);
	put(inst, 5, 0xffffffff);
	put(inst, 20, 17);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 3);
	assert_int_equal(p[1].where, 5);
	assert_string_equal(p[1].field, "NV_RAMFC_GP_GET");
	assert_int_equal(p[2].where, 20);
	assert_string_equal(p[2].field, "NV_RAMFC_GP_FETCH");
	/* LIMIT2 31: 2^31 entries */
	put(inst, 19, 31u << 16);
	put(inst, 0, 0x7fffffff);
	put(inst, 5, 0x80000000);
	put(inst, 20, 0);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].where, 5);
	assert_int_equal(p[0].limit, 1ull << 31);
	/* LIMIT2 0 (a zeroed RAMFC): one entry, pointers must be 0 */
	put(inst, 19, 0);
	put(inst, 0, 0);
	put(inst, 5, 0);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 0);
}

/* GP_BASE: "If OFFSET + (1<<LIMIT2)*GP_ENTRY__SIZE - 1 > 0xFFFFFFFFFF, then
 * Host will initiate a CPU interrupt (NV_PPBDMA_INTR_0_GPFIFO)." */
static void test_gpfifo(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[4];
	nouveau_inst(inst);
	put(inst, 18, 0xfffff000);
	put(inst, 19, 0xffu | 9u << 16); /* 0xff_fffff000 + 512 * 8 - 1 = 0xff_ffffffff */
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 0);
	put(inst, 18, 0xfffff008);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_GPFIFO);
	assert_int_equal(p[0].value, 0xfffffff008ull);
	assert_int_equal(p[0].limit, 512);
	/* GP_BASE RSVD 2:0 are not address bits */
	nvm_ramfc_info fc;
	put(inst, 18, 0x1007);
	put(inst, 19, 0x12u | 3u << 16);
	nvm_ramfc_decode(inst, &fc);
	assert_int_equal(fc.gp_base, 0x1200001000ull);
	assert_int_equal(fc.limit2, 3);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 0);
}

/* NV_PPBDMA_USERD: ADDR 31:9 of a NV_RAMUSERD_CHAN_SIZE-aligned block;
 * bits 8:2 set mean an unaligned address (a warning, no interrupt). */
static void test_ramfc_userd(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[4];
	nvm_ramfc_info fc;
	nouveau_inst(inst);
	put(inst, 2, 0x12345700u | 2u); /* SYS_MEM_COHERENT, bit 8 set */
	put(inst, 3, 0x1ab);            /* USERD_HI ADDR 7:0 = 0xab */
	nvm_ramfc_decode(inst, &fc);
	assert_int_equal(fc.userd_target, 2);
	assert_int_equal(fc.userd_addr, 0xab12345600ull);
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_USERD_ALIGN);
	assert_int_equal(p[0].where, 2);
	assert_int_equal(p[0].value, 0xab12345700ull);
	assert_int_equal(nvm_hf_check_get(p[0].code)->severity, NVM_HF_WARNING);
	put(inst, 2, 0x12345a00u | 3u); /* bit 9 is an address bit */
	assert_int_equal(nvm_ramfc_check(inst, p, N(p)), 0);
}

/* Seed 000 section 2: PAGE_DIR_BASE_TARGET INVALID "unbinds"; the old PT
 * format and 128KB big pages give an UNBOUND_INSTANCE fault. */
static void test_ramin_pdb(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[8];
	nouveau_inst(inst);
	put(inst, 128, (uint32_t)PDB | 1u << 10 | 1u << 11 | 1u); /* INVALID */
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_PDB_INVALID);
	assert_int_equal(p[0].where, 128);
	assert_int_equal(p[0].sub, -1);
	put(inst, 128, (uint32_t)PDB | 1u << 11 | 2u); /* SYS_MEM_COHERENT, ver2 FALSE */
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_OLD_PT_FORMAT);
	assert_string_equal(p[0].field, "NV_RAMIN_USE_VER2_PT_FORMAT");
	put(inst, 128, (uint32_t)PDB | 1u << 10 | 3u); /* SYS_MEM_NONCOHERENT, 128KB */
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_BIG_PAGE_128K);
	assert_non_null(strstr(nvm_hf_check_get(p[0].code)->effect, "UNBOUND_INST_BLOCK"));
	/* all three at once, in the order of the seed's text */
	put(inst, 128, 1u);
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 3);
	assert_int_equal(p[0].code, NVM_HF_PDB_INVALID);
	assert_int_equal(p[1].code, NVM_HF_OLD_PT_FORMAT);
	assert_int_equal(p[2].code, NVM_HF_BIG_PAGE_128K);
	/* decode: VOL, replay bits, PDB_HI */
	nvm_ramin_info in;
	put(inst, 128, 0xabcde000u | 1u << 11 | 1u << 10 | 1u << 5 | 1u << 4 | 1u << 2);
	put(inst, 129, 0x1);
	nvm_ramin_decode(inst, &in);
	assert_int_equal(in.pdb.addr, 0x1abcde000ull);
	assert_int_equal(in.pdb.vol, 1);
	assert_int_equal(in.pdb.replay_tex, 1);
	assert_int_equal(in.pdb.replay_gcc, 1);
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 0);
}

/* Seed 000 section 2: SC_PDB_VALID(i) says which SC_PAGE_DIR_BASE(i) are
 * "valid/filled in"; those obey the same rules ("Using INVALID, unbinds
 * the selected subcontext"; old format: UNBOUND_INSTANCE). */
static void test_ramin_subcontexts(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[8];
	nouveau_inst(inst);
	/* every subcontext INVALID, none valid: nothing to report */
	for (unsigned i = 0; i < 64; i++) {
		put(inst, 168 + 4 * i, 1);
		put(inst, 169 + 4 * i, 1);
	}
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 0);
	/* subcontext 0 valid with a good PDB; 33 valid but INVALID */
	put(inst, 168, (uint32_t)PDB | 1u << 10 | 1u << 11);
	put(inst, 168 + 4 * 33, 1u | 1u << 10 | 1u << 11);
	put(inst, 169, 0);
	put(inst, 166, 1);
	put(inst, 167, 1u << 1);
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_PDB_INVALID);
	assert_int_equal(p[0].sub, 33);
	assert_int_equal(p[0].where, 168 + 4 * 33);
	assert_string_equal(p[0].field, "NV_RAMIN_SC_PAGE_DIR_BASE_TARGET");
	/* 33: VID_MEM, old format, no 64KB bit (UNVERIFIED for SC) */
	put(inst, 168 + 4 * 33, 0x5000);
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 2);
	assert_int_equal(p[0].code, NVM_HF_OLD_PT_FORMAT);
	assert_int_equal(p[1].code, NVM_HF_BIG_PAGE_128K);
	assert_int_equal(p[1].sub, 33);
	char msg[128];
	nvm_hf_problem_text(&p[0], msg, sizeof(msg));
	assert_non_null(strstr(msg, "subcontext 33"));
	nvm_ramin_info in;
	put(inst, 170 + 4 * 33, 1u << 31 | 0x12345);
	nvm_ramin_decode(inst, &in);
	assert_int_equal(in.sc_pdb_valid, (1ull << 33) | 1u);
	assert_int_equal(in.sc[33].addr, 0x100005000ull); /* SC_PAGE_DIR_BASE_HI(33) is still 1 */
	assert_int_equal(in.sc[33].ats, 1);
	assert_int_equal(in.sc[33].pasid, 0x12345);
	assert_int_equal(in.sc[0].addr, PDB);
}

/* Seed 000 section 2: ENGINE_WFI_TARGET defines LOCAL_MEM (0), SYS_MEM_*
 * (2, 3); ENGINE_CS "must always be set to WFI". */
static void test_ramin_engine(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[8];
	nvm_ramin_info in;
	nouveau_inst(inst);
	put(inst, 132, 0xfedcb000u | 1u << 3 | 1u);
	put(inst, 133, 0xffffff12); /* PTR_HI 7:0 */
	put(inst, 134, 0xffffffe5); /* VEID 5:0 */
	put(inst, 135, 0x800abcde); /* ENABLE_ATS, PASID 19:0 */
	put(inst, 136, 0x89abcdef);
	put(inst, 137, 0xfffe1234); /* ADDR_HI 16:0 */
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 2);
	assert_int_equal(p[0].code, NVM_HF_UNDEFINED_TARGET);
	assert_string_equal(p[0].field, "NV_RAMIN_ENGINE_WFI_TARGET");
	assert_int_equal(p[1].code, NVM_HF_ENGINE_CS);
	assert_int_equal(p[1].where, 132);
	nvm_ramin_decode(inst, &in);
	assert_int_equal(in.wfi_target, 1);
	assert_int_equal(in.engine_cs_fg, 1);
	assert_int_equal(in.wfi_virtual, 0);
	assert_int_equal(in.wfi_ptr, 0x12fedcb000ull);
	assert_int_equal(in.wfi_veid, 0x25);
	assert_int_equal(in.pdb.ats, 1);
	assert_int_equal(in.pdb.pasid, 0xabcde);
	assert_int_equal(in.method_buffer, 0x123489abcdefull); /* HI 16:0 of 0xfffe1234 is 0x01234 */
	put(inst, 132, 2);                                     /* SYS_MEM_COHERENT, WFI */
	assert_int_equal(nvm_ramin_check(inst, p, N(p)), 0);
}

/* A too-small out[] still counts every problem. */
static void test_check_max(void **state)
{
	(void)state;
	uint8_t inst[NVM_RAMIN_SIZE];
	nvm_hf_problem p[2];
	memset(inst, 0, sizeof(inst)); /* SIGNATURE 0, ver2 FALSE, 128KB */
	memset(p, 0xff, sizeof(p));
	assert_int_equal(nvm_ramin_check(inst, p, 1), 3);
	assert_int_equal(p[0].code, NVM_HF_SIGNATURE);
	assert_int_equal(p[1].where, 0xffffffffu); /* untouched */
	assert_int_equal(nvm_ramin_check(inst, NULL, 0), 3);
}

/* ---------------------------------------------------------------- USERD */

/* Seed 000 section 4 and silicon-h100.md (offsets, TOP_LEVEL_GET_HI bit 31). */
static void test_userd(void **state)
{
	(void)state;
	uint8_t u[NVM_USERD_SIZE] = { 0 };
	nvm_userd_info ui;
	nvm_hf_problem p[4];
	put(u, 0x40 / 4, 0x00402003); /* PUT: OFFSET 31:2 */
	put(u, 0x44 / 4, 0x00401f00); /* GET */
	put(u, 0x48 / 4, 7);          /* REF */
	put(u, 0x4c / 4, 0x10);       /* PUT_HI */
	put(u, 0x58 / 4, 0x00401f00); /* TOP_LEVEL_GET */
	put(u, 0x5c / 4, 0x80000010); /* TOP_LEVEL_GET_HI with VALID */
	put(u, 0x60 / 4, 0x10);       /* GET_HI */
	put(u, 0x88 / 4, 3);          /* GP_GET */
	put(u, 0x8c / 4, 5);          /* GP_PUT */
	nvm_userd_decode(u, &ui);
	assert_int_equal(ui.put, 0x1000402000ull);
	assert_int_equal(ui.get, 0x1000401f00ull);
	assert_int_equal(ui.top_level_get, 0x1000401f00ull);
	assert_int_equal(ui.top_level_get_valid, 1);
	assert_int_equal(ui.ref, 7);
	assert_int_equal(ui.gp_get, 3);
	assert_int_equal(ui.gp_put, 5);
	/* without LIMIT2 nothing can be checked */
	assert_int_equal(nvm_userd_check(u, -1, p, N(p)), 0);
	assert_int_equal(nvm_userd_check(u, 3, p, N(p)), 0);
	/* 2^2 = 4 entries: GP_PUT 5 is out of range (GPPTR) */
	assert_int_equal(nvm_userd_check(u, 2, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_GPPTR);
	assert_int_equal(p[0].where, 35);
	assert_string_equal(p[0].field, "NV_RAMUSERD_GP_PUT");
	assert_int_equal(nvm_userd_check(u, 1, p, N(p)), 2);
	assert_int_equal(p[0].where, 34);
	assert_int_equal(nvm_userd_check(u, 32, p, N(p)), 0); /* not a LIMIT2 */
}

/* ---------------------------------------------------------------- runlists */

/* volta-facts.md section 3: nouveau's TSG entry (TIMEOUT 128, SCALE 3,
 * TYPE TSG; dw1 = channel count; dw2 = TSGID) and channel entry (dw0 =
 * USERD lo | runq << 1, dw1 = USERD hi, dw2 = INST lo | CHID, dw3 = INST hi). */
static void tsg_entry(uint8_t *e, unsigned tsgid, unsigned len)
{
	put(e, 0, 128u << 24 | 3u << 16 | 1u);
	put(e, 1, len);
	put(e, 2, tsgid);
	put(e, 3, 0);
}

static void chan_entry(uint8_t *e, unsigned chid, uint64_t inst, uint64_t userd, unsigned runq)
{
	put(e, 0, (uint32_t)userd | runq << 1);
	put(e, 1, (uint32_t)(userd >> 32));
	put(e, 2, (uint32_t)inst | chid);
	put(e, 3, (uint32_t)(inst >> 32));
}

/* Seed 000 section 5: timeslice = (TIMEOUT << SCALE) * 1024 ns; "A timeslice
 * of zero will be treated as a timeslice period of one". silicon-h100.md: the
 * driver's default TIMEOUT 128 << SCALE 3 read back as 1024 us. */
static void test_timeslice(void **state)
{
	(void)state;
	assert_int_equal(nvm_rl_timeslice_ns(3, 128), 1048576);
	assert_int_equal(nvm_rl_timeslice_ns(0, 1), 1024);
	assert_int_equal(nvm_rl_timeslice_ns(0, 0), 1024);  /* UNVERIFIED: zero counts as one */
	assert_int_equal(nvm_rl_timeslice_ns(15, 0), 1024); /* (0 << 15) is still zero */
	assert_int_equal(nvm_rl_timeslice_ns(15, 255), (255ull << 15) * 1024);
	uint8_t e[16];
	nvm_rl_entry d;
	tsg_entry(e, 7, 2);
	nvm_rl_entry_decode(e, &d);
	assert_int_equal(d.type, NVM_RL_TYPE_TSG);
	assert_int_equal(d.id, 7);
	assert_int_equal(d.tsg_length, 2);
	assert_int_equal(d.timeslice_scale, 3);
	assert_int_equal(d.timeslice_timeout, 128);
	assert_int_equal(d.timeslice_ns, 1048576);
}

static void test_rl_entry_decode(void **state)
{
	(void)state;
	uint8_t e[16];
	nvm_rl_entry d;
	chan_entry(e, 0xabc, 0x12fedcb000ull, 0x3456789a00ull, 1);
	nvm_rl_entry_decode(e, &d);
	assert_int_equal(d.type, NVM_RL_TYPE_CHAN);
	assert_int_equal(d.id, 0xabc);
	assert_int_equal(d.runqueue_selector, 1);
	assert_int_equal(d.inst_target, 0);
	assert_int_equal(d.userd_target, 0);
	assert_int_equal(d.inst_addr, 0x12fedcb000ull);
	assert_int_equal(d.userd_addr, 0x3456789a00ull);
	for (int i = 0; i < 4; i++)
		assert_int_equal(d.stray[i], 0);
	/* targets: INST 5:4, USERD 7:6; bits 3:2 belong to no field */
	put(e, 0, 0x56789a00u | 3u << 6 | 2u << 4 | 3u << 2);
	nvm_rl_entry_decode(e, &d);
	assert_int_equal(d.inst_target, 2);
	assert_int_equal(d.userd_target, 3);
	assert_int_equal(d.runqueue_selector, 0);
	assert_int_equal(d.stray[0], 0xc);
	nvm_hf_problem p[NVM_RL_STEP_MAX];
	assert_int_equal(nvm_rl_entry_check(&d, 9, p), 1);
	assert_int_equal(p[0].code, NVM_HF_STRAY_BITS);
	assert_int_equal(p[0].where, 9);
	assert_int_equal(p[0].value, 0);
	assert_int_equal(p[0].limit, 0xc);
	/* TSG: everything but TYPE, SCALE, TIMEOUT, LENGTH 7:0, TSGID 11:0 */
	put(e, 0, 0xffffffff);
	put(e, 1, 0xffffffff);
	put(e, 2, 0xffffffff);
	put(e, 3, 0x1);
	nvm_rl_entry_decode(e, &d);
	assert_int_equal(d.type, NVM_RL_TYPE_TSG);
	assert_int_equal(d.stray[0], 0x00f0fffe);
	assert_int_equal(d.stray[1], 0xffffff00);
	assert_int_equal(d.stray[2], 0xfffff000);
	assert_int_equal(d.stray[3], 0x1);
	assert_int_equal(nvm_rl_entry_check(&d, 0, p), 4);
	assert_int_equal(p[3].value, 3);
}

/* The encoder puts each field where the manual says: compare with the
 * hand-built entries above. */
static void test_rl_entry_encode(void **state)
{
	(void)state;
	uint8_t want[16], got[16];
	nvm_rl_entry d = { 0 };
	d.type = NVM_RL_TYPE_CHAN;
	d.id = 5;
	d.runqueue_selector = 1;
	d.inst_addr = 0x123456000ull;
	d.userd_addr = 0x1000020200ull;
	nvm_rl_entry_encode(&d, got);
	chan_entry(want, 5, 0x123456000ull, 0x1000020200ull, 1);
	assert_memory_equal(got, want, 16);
	memset(&d, 0, sizeof(d));
	d.type = NVM_RL_TYPE_TSG;
	d.id = 9;
	d.tsg_length = 3;
	d.timeslice_scale = 3;
	d.timeslice_timeout = 128;
	nvm_rl_entry_encode(&d, got);
	tsg_entry(want, 9, 3);
	assert_memory_equal(got, want, 16);
	/* decode(encode) keeps stray bits and fields */
	d.stray[3] = 0xdead;
	nvm_rl_entry_encode(&d, got);
	nvm_rl_entry back;
	nvm_rl_entry_decode(got, &back);
	assert_int_equal(back.stray[3], 0xdead);
	assert_int_equal(back.tsg_length, 3);
}

/* A runlist as nouveau builds it: TSG headers, each followed by its
 * channels (seed 000 section 5 "Host Scheduling Memory Layout"). */
static void test_rl_nouveau(void **state)
{
	(void)state;
	uint8_t rl[6 * 16];
	tsg_entry(rl, 0, 2);
	chan_entry(rl + 16, 0, 0x10000, 0x20000, 0);
	chan_entry(rl + 32, 1, 0x11000, 0x20200, 1);
	tsg_entry(rl + 48, 1, 2);
	chan_entry(rl + 64, 2, 0x12000, 0x20400, 0);
	chan_entry(rl + 80, 3, 0x13000, 0x20600, 0);
	nvm_hf_problem p[8];
	assert_int_equal(nvm_rl_check(rl, 6, p, N(p)), 0);
	/* the walker, one entry at a time, as a scheduler would use it */
	nvm_rl_walker w;
	nvm_rl_walk_init(&w);
	static const int member[6] = { 0, 1, 1, 0, 1, 1 };
	static const unsigned tsg_at[6] = { 0, 0, 0, 3, 3, 3 };
	static const unsigned left[6] = { 2, 1, 0, 2, 1, 0 };
	for (int i = 0; i < 6; i++) {
		nvm_rl_entry e;
		nvm_rl_entry_decode(rl + 16 * i, &e);
		assert_int_equal(nvm_rl_walk_step(&w, &e, p), 0);
		assert_int_equal(w.member, member[i]);
		assert_int_equal(w.tsg_index, tsg_at[i]);
		assert_int_equal(w.tsg_left, left[i]);
		assert_int_equal(w.in_tsg, left[i] != 0);
	}
	assert_int_equal(nvm_rl_walk_end(&w, p), 0);
	assert_int_equal(w.tsgs, 2);
	assert_int_equal(w.chans, 4);
	assert_int_equal(w.next, 6);
	/* an empty runlist is no error */
	assert_int_equal(nvm_rl_check(rl, 0, p, N(p)), 0);
}

/* "If a channel entry is encountered outside a TSG, Host will raise the
 * NV_PFIFO_INTR_SCHED_ERROR_CODE_BAD_TSG interrupt." (0x20, dev_fifo) */
static void test_rl_chan_outside(void **state)
{
	(void)state;
	uint8_t rl[3 * 16];
	nvm_hf_problem p[8];
	chan_entry(rl, 4, 0x10000, 0x20000, 0);
	tsg_entry(rl + 16, 1, 1);
	chan_entry(rl + 32, 5, 0x11000, 0x20200, 0);
	assert_int_equal(nvm_rl_check(rl, 3, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_CHAN_OUTSIDE_TSG);
	assert_int_equal(p[0].where, 0);
	assert_int_equal(p[0].value, 4);
	const nvm_hf_check_info *ci = nvm_hf_check_get(NVM_HF_CHAN_OUTSIDE_TSG);
	assert_int_equal(ci->severity, NVM_HF_ERROR);
	assert_non_null(strstr(ci->effect, "BAD_TSG"));
	assert_non_null(strstr(ci->effect, "0x20"));
	/* after a complete TSG, the next channel is outside again */
	chan_entry(rl, 6, 0x10000, 0x20000, 0);
	uint8_t rl2[4 * 16];
	memcpy(rl2, rl + 16, 32);
	chan_entry(rl2 + 32, 6, 0x12000, 0x20400, 0);
	tsg_entry(rl2 + 48, 2, 0);
	assert_int_equal(nvm_rl_check(rl2, 4, p, N(p)), 2);
	assert_int_equal(p[0].code, NVM_HF_CHAN_OUTSIDE_TSG);
	assert_int_equal(p[0].where, 2);
	assert_int_equal(p[1].code, NVM_HF_TSG_LENGTH_ZERO);
	assert_int_equal(p[1].where, 3);
}

/* "... or if it encounters a TSG of length 0, a SCHED_ERROR interrupt will
 * be generated with ERROR_CODE_BAD_TSG"; no TSG opens. */
static void test_rl_tsg_zero(void **state)
{
	(void)state;
	uint8_t rl[2 * 16];
	nvm_hf_problem p[8];
	tsg_entry(rl, 3, 0);
	chan_entry(rl + 16, 1, 0x10000, 0x20000, 0);
	assert_int_equal(nvm_rl_check(rl, 2, p, N(p)), 2);
	assert_int_equal(p[0].code, NVM_HF_TSG_LENGTH_ZERO);
	assert_int_equal(p[0].where, 0);
	assert_int_equal(p[0].value, 3);
	assert_int_equal(p[1].code, NVM_HF_CHAN_OUTSIDE_TSG);
	assert_int_equal(p[1].where, 1);
	/* a lone empty TSG */
	assert_int_equal(nvm_rl_check(rl, 1, p, N(p)), 1);
}

/* "If Host ... receives another entry of type NV_RAMRL_ENTRY_TYPE_TSG before
 * processing TSG_LENGTH additional runlist entries": BAD_TSG. */
static void test_rl_tsg_cut_by_tsg(void **state)
{
	(void)state;
	uint8_t rl[5 * 16];
	nvm_hf_problem p[8];
	tsg_entry(rl, 1, 3);
	chan_entry(rl + 16, 1, 0x10000, 0x20000, 0);
	tsg_entry(rl + 32, 2, 2);
	chan_entry(rl + 48, 2, 0x11000, 0x20200, 0);
	chan_entry(rl + 64, 3, 0x12000, 0x20400, 0);
	assert_int_equal(nvm_rl_check(rl, 5, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_TSG_CUT_BY_TSG);
	assert_int_equal(p[0].where, 2);
	assert_int_equal(p[0].value, 2); /* channels still expected */
	assert_int_equal(p[0].limit, 0); /* the TSG cut short */
	char msg[128];
	nvm_hf_problem_text(&p[0], msg, sizeof(msg));
	assert_non_null(strstr(msg, "entry 0"));
}

/* "If Host reaches the end of the runlist ... before processing TSG_LENGTH
 * additional runlist entries": BAD_TSG, reported at the TSG header. */
static void test_rl_tsg_cut_by_end(void **state)
{
	(void)state;
	uint8_t rl[3 * 16];
	nvm_hf_problem p[8];
	tsg_entry(rl, 1, 1);
	chan_entry(rl + 16, 1, 0x10000, 0x20000, 0);
	tsg_entry(rl + 32, 2, 4);
	assert_int_equal(nvm_rl_check(rl, 3, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_TSG_CUT_BY_END);
	assert_int_equal(p[0].where, 2);
	assert_int_equal(p[0].value, 4);
	/* the same runlist cut after its first entry ends inside TSG 1 */
	assert_int_equal(nvm_rl_check(rl, 1, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_TSG_CUT_BY_END);
	assert_int_equal(p[0].where, 0);
	assert_int_equal(p[0].value, 1);
}

/* NV_RAMRL_ENTRY_TSG_LENGTH_MAX is 0x80 (UNVERIFIED: longer is BAD_TSG).
 * The TSG still spans TSG_LENGTH entries. */
static void test_rl_tsg_too_long(void **state)
{
	(void)state;
	static uint8_t rl[131 * 16];
	nvm_hf_problem p[8];
	tsg_entry(rl, 1, 128);
	for (unsigned i = 1; i <= 128; i++)
		chan_entry(rl + 16 * i, i, 0x10000, 0x20000, 0);
	assert_int_equal(nvm_rl_check(rl, 129, p, N(p)), 0);
	tsg_entry(rl, 1, 129);
	chan_entry(rl + 16 * 129, 129, 0x10000, 0x20000, 0);
	assert_int_equal(nvm_rl_check(rl, 130, p, N(p)), 1);
	assert_int_equal(p[0].code, NVM_HF_TSG_TOO_LONG);
	assert_int_equal(p[0].where, 0);
	assert_int_equal(p[0].value, 129);
	assert_int_equal(p[0].limit, NVM_RL_TSG_LENGTH_MAX);
	/* the largest TSG_LENGTH (255), cut short by another TSG */
	tsg_entry(rl, 1, 255);
	tsg_entry(rl + 16 * 130, 2, 0);
	assert_int_equal(nvm_rl_check(rl, 131, p, N(p)), 3);
	assert_int_equal(p[1].code, NVM_HF_TSG_CUT_BY_TSG);
	assert_int_equal(p[1].value, 255 - 129);
	assert_int_equal(p[2].code, NVM_HF_TSG_LENGTH_ZERO);
}

/* Channel-entry fields the Host ignores ("The hardware ignores the RAMRL
 * INST fields", "... the RAMRL USERD fields") are still checked against
 * their definitions: a warning, no interrupt. */
static void test_rl_chan_fields(void **state)
{
	(void)state;
	uint8_t rl[2 * 16];
	nvm_hf_problem p[8];
	tsg_entry(rl, 1, 1);
	chan_entry(rl + 16, 1, 0x10000, 0x20100, 0); /* USERD 256-byte aligned only */
	put(rl + 16, 0, 0x20100u | 1u << 4);         /* INST_TARGET 1 */
	assert_int_equal(nvm_rl_check(rl, 2, p, N(p)), 2);
	assert_int_equal(p[0].code, NVM_HF_UNDEFINED_TARGET);
	assert_int_equal(p[0].where, 1);
	assert_string_equal(p[0].field, "NV_RAMRL_ENTRY_CHAN_INST_TARGET");
	assert_int_equal(p[1].code, NVM_HF_USERD_ALIGN);
	assert_int_equal(p[1].value, 0x20100);
	assert_int_equal(nvm_hf_check_get(p[0].code)->severity, NVM_HF_WARNING);
	assert_null(nvm_hf_check_get(p[1].code)->effect);
	/* USERD_TARGET 1 is VID_MEM_NVLINK_COHERENT: defined */
	put(rl + 16, 0, 0x20200u | 1u << 6 | 3u << 4);
	assert_int_equal(nvm_rl_check(rl, 2, p, N(p)), 0);
}

/* ---------------------------------------------------------------- problem texts */

static void test_check_catalogue(void **state)
{
	(void)state;
	for (int c = 0; c < NVM_HF_CHECK_COUNT; c++) {
		const nvm_hf_check_info *ci = nvm_hf_check_get((nvm_hf_check)c);
		assert_non_null(ci);
		assert_non_null(ci->id);
		assert_non_null(ci->text);
		assert_non_null(ci->cite);
		/* an error names what the hardware raises */
		assert_true(ci->severity == NVM_HF_WARNING || ci->effect != NULL);
		for (int k = 0; k < c; k++)
			assert_true(strcmp(ci->id, nvm_hf_check_get((nvm_hf_check)k)->id) != 0);
		nvm_hf_problem p = { (nvm_hf_check)c, 1, -1, "NV_X", 5, 4 };
		char msg[200];
		int n = nvm_hf_problem_text(&p, msg, sizeof(msg));
		assert_true(n > 0 && (size_t)n < sizeof(msg));
		assert_int_equal(strlen(msg), (size_t)n);
		/* short buffers are cut, never overrun */
		char tiny[6];
		memset(tiny, 'x', sizeof(tiny));
		assert_int_equal(nvm_hf_problem_text(&p, tiny, 4), n);
		assert_int_equal(strlen(tiny), 3);
		assert_int_equal(tiny[5], 'x');
		p.sub = 12;
		assert_true(nvm_hf_problem_text(&p, NULL, 0) > n);
		assert_int_equal(nvm_hf_problem_text(&p, tiny, 1), n + (int)strlen("subcontext 12: "));
		assert_int_equal(tiny[0], 0);
	}
	assert_null(nvm_hf_check_get(NVM_HF_CHECK_COUNT));
	nvm_hf_problem bad = { NVM_HF_CHECK_COUNT, 0, -1, NULL, 0, 0 };
	char msg[32];
	nvm_hf_problem_text(&bad, msg, sizeof(msg));
	assert_string_equal(msg, "unknown problem");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_well_formed),
		cmocka_unit_test(test_ramfc_dwords),
		cmocka_unit_test(test_ramfc_subfields),
		cmocka_unit_test(test_ramin_fields),
		cmocka_unit_test(test_userd_fields),
		cmocka_unit_test(test_rl_fields),
		cmocka_unit_test(test_nouveau_instance_block),
		cmocka_unit_test(test_signature),
		cmocka_unit_test(test_gpptr),
		cmocka_unit_test(test_gpfifo),
		cmocka_unit_test(test_ramfc_userd),
		cmocka_unit_test(test_ramin_pdb),
		cmocka_unit_test(test_ramin_subcontexts),
		cmocka_unit_test(test_ramin_engine),
		cmocka_unit_test(test_check_max),
		cmocka_unit_test(test_userd),
		cmocka_unit_test(test_timeslice),
		cmocka_unit_test(test_rl_entry_decode),
		cmocka_unit_test(test_rl_entry_encode),
		cmocka_unit_test(test_rl_nouveau),
		cmocka_unit_test(test_rl_chan_outside),
		cmocka_unit_test(test_rl_tsg_zero),
		cmocka_unit_test(test_rl_tsg_cut_by_tsg),
		cmocka_unit_test(test_rl_tsg_cut_by_end),
		cmocka_unit_test(test_rl_tsg_too_long),
		cmocka_unit_test(test_rl_chan_fields),
		cmocka_unit_test(test_check_catalogue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
