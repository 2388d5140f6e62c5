/*
 * Checkers of the Volta Host structures (include/nvmodel/host_fmt.h): what
 * the Host (or the MMU, for RAMIN) does with a malformed RAMFC, RAMIN, USERD
 * or runlist. Each rule cites its document; rules the documents leave open
 * are marked UNVERIFIED and listed in docs/fidelity.md.
 */
#include <string.h>

#include "host_fmt_internal.h"

#define GP_ADDR_MAX 0xffffffffffull /* "the end of the memory address space (0xFFFFFFFFFF)" */

/* ---------------------------------------------------------------- RAMFC */

/* GP_PUT, GP_GET and GP_FETCH "equals or exceeds the size of the circular
 * buffer that stores GP entries (1<<NV_PPBDMA_GP_BASE_HI_LIMIT2)": INTR_0
 * GPPTR (gv100_dev_pbdma GP_PUT, GP_GET, GP_FETCH). */
static void gpptr(nvm_hf_problem *out, size_t max, size_t *n, unsigned dw, const char *name, uint32_t v,
                  unsigned limit2)
{
	uint64_t entries = 1ull << limit2;
	if (v >= entries)
		hf_add(out, max, n, NVM_HF_GPPTR, dw, -1, name, v, entries);
}

/* The value of SIGNATURE_HW the layout names HOST_CLASS_ID (the chip's host
 * class id), 0 if none. */
static uint32_t host_class_id(const nvm_hf_layout *fc)
{
	unsigned idx;
	const nvm_hf_word *w = nvm_hf_word_at(fc, 4, &idx);
	for (unsigned k = 0; w && k < w->nfields; k++)
		for (const nvm_hf_enum *e = w->fields[k].enums; e && e->name; e++)
			if (!strcmp(e->name, "HOST_CLASS_ID"))
				return e->value;
	return 0;
}

/* The checks of a RAMFC laid out as fc (the chip's layout: which words
 * exist, which SIGNATURE values are valid). */
static size_t ramfc_check(const nvm_hf_layout *fc_l, const uint8_t ramfc[NVM_RAMFC_SIZE], nvm_hf_problem *out,
                          size_t max)
{
	size_t n = 0;
	nvm_ramfc_info fc;
	nvm_ramfc_decode(ramfc, &fc);
	uint64_t entries = 1ull << fc.limit2;

	gpptr(out, max, &n, 0, "NV_RAMFC_GP_PUT", fc.gp_put, fc.limit2);

	/* NV_PPBDMA_USERD keeps ADDR 31:9 of a block "NV_RAMUSERD_CHAN_SIZE-byte
	 * aligned"; bits 8:2 have no field. UNVERIFIED: the Host is assumed to
	 * ignore them (no interrupt documented), so this is a warning. */
	unsigned idx;
	const nvm_hf_word *uw = nvm_hf_word_at(fc_l, 2, &idx);
	uint32_t userd = hf_rd32(ramfc, 2);
	if (uw && uw->name && !strcmp(uw->name, "NV_RAMFC_USERD") && FIELD_GET(userd, 8, 2))
		hf_add(out, max, &n, NVM_HF_USERD_ALIGN, 2, -1, "NV_RAMFC_USERD",
		       ((uint64_t)FIELD_GET(hf_rd32(ramfc, 3), 7, 0) << 32) | (userd & ~3u), 0);

	/* SIGNATURE: "if the HW field does not contain the class ID specified by
	 * HW_HOST_CLASS_ID or the value HW_VALID, then Host will freeze and
	 * initiate an NV_PPBDMA_INTR_*_SIGNATURE interrupt." Both values pass
	 * (the manual), not 0xFACE alone (issue 8's wording). */
	uint32_t class_id = host_class_id(fc_l);
	if (fc.signature_hw != 0xface && fc.signature_hw != class_id)
		hf_add(out, max, &n, NVM_HF_SIGNATURE, 4, -1, "NV_RAMFC_SIGNATURE", fc.signature_hw, class_id);

	gpptr(out, max, &n, 5, "NV_RAMFC_GP_GET", fc.gp_get, fc.limit2);

	/* "If OFFSET + (1<<LIMIT2)*GP_ENTRY__SIZE - 1 > 0xFFFFFFFFFF, then Host
	 * will initiate a CPU interrupt (NV_PPBDMA_INTR_0_GPFIFO)." */
	if (fc.gp_base + entries * 8u - 1u > GP_ADDR_MAX)
		hf_add(out, max, &n, NVM_HF_GPFIFO, 19, -1, "NV_RAMFC_GP_BASE_HI", fc.gp_base, entries);

	gpptr(out, max, &n, 20, "NV_RAMFC_GP_FETCH", fc.gp_fetch, fc.limit2);
	return n;
}

size_t nvm_ramfc_check(const uint8_t ramfc[NVM_RAMFC_SIZE], nvm_hf_problem *out, size_t max)
{
	return ramfc_check(&hf_gv100_layouts[NVM_HF_RAMFC], ramfc, out, max);
}

/* ---------------------------------------------------------------- RAMIN */

/* The page-directory rules of seed 000 section 2, for PAGE_DIR_BASE (sc < 0)
 * or SC_PAGE_DIR_BASE(sc). */
static void pdb_check(const nvm_ramin_pdb *p, int sc, nvm_hf_problem *out, size_t max, size_t *n)
{
	uint32_t dw = sc < 0 ? 128u : 168u + 4u * (unsigned)sc;
	/* "Using INVALID, unbinds the selected engine" (subcontext for SC). */
	if (p->target == 1)
		hf_add(out, max, n, NVM_HF_PDB_INVALID, dw, sc,
		       sc < 0 ? "NV_RAMIN_PAGE_DIR_BASE_TARGET" : "NV_RAMIN_SC_PAGE_DIR_BASE_TARGET", p->target, 0);
	/* "Volta only supports the new format. Selecting the old format results
	 * in an UNBOUND_INSTANCE fault." (both PAGE_DIR_BASE and SC_*) */
	if (!p->ver2)
		hf_add(out, max, n, NVM_HF_OLD_PT_FORMAT, dw, sc,
		       sc < 0 ? "NV_RAMIN_USE_VER2_PT_FORMAT" : "NV_RAMIN_SC_USE_VER2_PT_FORMAT", 0, 0);
	/* "Selecting 128KB for big pages results in an UNBOUND_INSTANCE fault."
	 * UNVERIFIED for SC_BIG_PAGE_SIZE(i), which the seed gives only the 64KB
	 * value for; the MMU block treats both alike (src/mmu/mmu.c). */
	if (!p->big_page_64k)
		hf_add(out, max, n, NVM_HF_BIG_PAGE_128K, dw, sc,
		       sc < 0 ? "NV_RAMIN_BIG_PAGE_SIZE" : "NV_RAMIN_SC_BIG_PAGE_SIZE", 0, 0);
}

static size_t ramin_check(const nvm_hf_layout *fc_l, const uint8_t inst[NVM_RAMIN_SIZE], nvm_hf_problem *out,
                          size_t max)
{
	size_t n = ramfc_check(fc_l, inst, out, max);
	nvm_ramin_info in;
	nvm_ramin_decode(inst, &in);
	pdb_check(&in.pdb, -1, out, max, &n);
	/* ENGINE_WFI_TARGET defines LOCAL_MEM, SYS_MEM_COHERENT and
	 * SYS_MEM_NONCOHERENT; UNVERIFIED: what an engine does with 1. */
	if (in.wfi_target == 1)
		hf_add(out, max, &n, NVM_HF_UNDEFINED_TARGET, 132, -1, "NV_RAMIN_ENGINE_WFI_TARGET", 1, 0);
	/* "This field must always be set to WFI for legacy reasons".
	 * UNVERIFIED: what FG does; reported as a warning. */
	if (in.engine_cs_fg)
		hf_add(out, max, &n, NVM_HF_ENGINE_CS, 132, -1, "NV_RAMIN_ENGINE_CS", 1, 0);
	/* SC_PDB_VALID tells "which of the below array of PDBs are valid/filled
	 * in"; the others are not bound and not checked. */
	for (int i = 0; i < (int)NVM_RAMIN_SUBCTX; i++)
		if ((in.sc_pdb_valid >> i) & 1u)
			pdb_check(&in.sc[i], i, out, max, &n);
	return n;
}

size_t nvm_ramin_check(const uint8_t inst[NVM_RAMIN_SIZE], nvm_hf_problem *out, size_t max)
{
	return ramin_check(&hf_gv100_layouts[NVM_HF_RAMFC], inst, out, max);
}

size_t nvm_ramin_check_chip(const char *chip, const uint8_t inst[NVM_RAMIN_SIZE], nvm_hf_problem *out, size_t max)
{
	const nvm_hf_layout *fc = nvm_hf_layout_chip(chip, NVM_HF_RAMFC);
	return ramin_check(fc ? fc : &hf_gv100_layouts[NVM_HF_RAMFC], inst, out, max);
}

/* ---------------------------------------------------------------- USERD */

size_t nvm_userd_check(const uint8_t userd[NVM_USERD_SIZE], int limit2, nvm_hf_problem *out, size_t max)
{
	size_t n = 0;
	/* NV_RAMUSERD_GP_GET / GP_PUT mirror NV_PPBDMA_GP_GET / GP_PUT, whose
	 * values must be below 2^LIMIT2 (GPPTR otherwise). */
	if (limit2 >= 0 && limit2 <= 31) {
		gpptr(out, max, &n, 34, "NV_RAMUSERD_GP_GET", hf_rd32(userd, 34), (unsigned)limit2);
		gpptr(out, max, &n, 35, "NV_RAMUSERD_GP_PUT", hf_rd32(userd, 35), (unsigned)limit2);
	}
	return n;
}

/* ---------------------------------------------------------------- runlists */

size_t nvm_rl_entry_check(const nvm_rl_entry *e, uint32_t index, nvm_hf_problem out[NVM_RL_STEP_MAX])
{
	size_t n = 0;
	if (e->type == NVM_RL_TYPE_CHAN) {
		/* INST_TARGET defines VID_MEM, SYS_MEM_COHERENT, SYS_MEM_NONCOHERENT.
		 * "The hardware ignores the RAMRL INST fields", so no effect. */
		if (e->inst_target == 1)
			hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_UNDEFINED_TARGET, index, -1,
			       "NV_RAMRL_ENTRY_CHAN_INST_TARGET", 1, 0);
		/* "the 512-byte-aligned USERD pointer"; USERD_PTR_LO starts at
		 * address bit 8. Ignored by the hardware, "must match" RAMFC. */
		if (e->userd_addr & 0x1ffu)
			hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_USERD_ALIGN, index, -1,
			       "NV_RAMRL_ENTRY_CHAN_USERD_PTR_LO", e->userd_addr, 0);
	}
	/* UNVERIFIED: bits outside every field are reported, with no effect. */
	for (unsigned i = 0; i < 4; i++)
		if (e->stray[i])
			hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_STRAY_BITS, index, -1, NULL, i, e->stray[i]);
	return n < NVM_RL_STEP_MAX ? n : NVM_RL_STEP_MAX;
}

void nvm_rl_walk_init(nvm_rl_walker *w)
{
	*w = (nvm_rl_walker){ 0 };
}

/* Seed 000 section 5: "After a TSG header runlist entry, the next TSG_LENGTH
 * runlist entries are considered to be part of the timeslice group." "If Host
 * reaches the end of the runlist or receives another entry of type
 * NV_RAMRL_ENTRY_TYPE_TSG before processing TSG_LENGTH additional runlist
 * entries, or if it encounters a TSG of length 0, a SCHED_ERROR interrupt will
 * be generated with ERROR_CODE_BAD_TSG." "If a channel entry is encountered
 * outside a TSG, Host will raise ... BAD_TSG". */
/* UNVERIFIED: what the Host does after the first BAD_TSG is not documented;
 * the walk goes on with the rules of nvm_rl_walker so that every problem is
 * listed, and reports a runlist that ends inside a TSG at that TSG's header. */
size_t nvm_rl_walk_step(nvm_rl_walker *w, const nvm_rl_entry *e, nvm_hf_problem out[NVM_RL_STEP_MAX])
{
	size_t n = 0;
	uint32_t idx = w->next++;
	w->member = 0;
	if (e->type == NVM_RL_TYPE_TSG) {
		w->tsgs++;
		if (w->in_tsg && w->tsg_left)
			hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_TSG_CUT_BY_TSG, idx, -1, NULL, w->tsg_left,
			       w->tsg_index);
		w->tsg_index = idx;
		w->in_tsg = 0;
		w->tsg_left = 0;
		if (e->tsg_length == 0) {
			/* No TSG opens: the channels that follow are outside one. */
			hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_TSG_LENGTH_ZERO, idx, -1, NULL, e->id, 0);
			return n;
		}
		/* UNVERIFIED: a TSG longer than TSG_LENGTH_MAX is BAD_TSG (the seed
		 * gives the limit, not the effect); it still spans TSG_LENGTH
		 * entries, so the walk stays in step with the writer's intent. */
		if (e->tsg_length > NVM_RL_TSG_LENGTH_MAX)
			hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_TSG_TOO_LONG, idx, -1, NULL, e->tsg_length,
			       NVM_RL_TSG_LENGTH_MAX);
		w->in_tsg = 1;
		w->tsg_left = e->tsg_length;
		return n;
	}
	w->chans++;
	if (!w->in_tsg) {
		hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_CHAN_OUTSIDE_TSG, idx, -1, NULL, e->id, 0);
		return n;
	}
	w->member = 1;
	if (--w->tsg_left == 0)
		w->in_tsg = 0;
	return n;
}

size_t nvm_rl_walk_end(nvm_rl_walker *w, nvm_hf_problem out[NVM_RL_STEP_MAX])
{
	size_t n = 0;
	if (w->in_tsg && w->tsg_left)
		hf_add(out, NVM_RL_STEP_MAX, &n, NVM_HF_TSG_CUT_BY_END, w->tsg_index, -1, NULL, w->tsg_left, w->next);
	w->in_tsg = 0;
	w->tsg_left = 0;
	w->member = 0;
	return n;
}

/* Copies step problems into the caller's array, counting all. */
static void take(nvm_hf_problem *out, size_t max, size_t *n, const nvm_hf_problem *p, size_t k)
{
	for (size_t i = 0; i < k; i++) {
		if (out && *n < max)
			out[*n] = p[i];
		(*n)++;
	}
}

size_t nvm_rl_check(const uint8_t *rl, size_t count, nvm_hf_problem *out, size_t max)
{
	size_t n = 0;
	nvm_rl_walker w;
	nvm_hf_problem step[NVM_RL_STEP_MAX];
	nvm_rl_walk_init(&w);
	for (size_t i = 0; rl && i < count && i < UINT32_MAX; i++) {
		nvm_rl_entry e;
		nvm_rl_entry_decode(rl + i * NVM_RL_ENTRY_SIZE, &e);
		take(out, max, &n, step, nvm_rl_walk_step(&w, &e, step));
		take(out, max, &n, step, nvm_rl_entry_check(&e, (uint32_t)i, step));
	}
	take(out, max, &n, step, nvm_rl_walk_end(&w, step));
	return n;
}
