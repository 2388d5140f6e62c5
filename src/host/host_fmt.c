/*
 * Decoders of the Volta Host structures (include/nvmodel/host_fmt.h): the
 * generic field-table accessors, the typed decoders of RAMFC, RAMIN, USERD
 * and runlist entries, and the catalogue of problems the checkers
 * (host_fmt_check.c) report. Documents: seed 000 sections 2-5,
 * gv100_dev_ram.ref.txt, gv100_dev_pbdma.ref.txt, gv100_dev_fifo.ref.txt.
 */
#include <stdio.h>
#include <string.h>

#include "host_fmt_internal.h"

/* ---------------------------------------------------------------- field tables */

uint32_t nvm_hf_dword(const uint8_t *buf, size_t len, unsigned d)
{
	if (!buf || (uint64_t)d * 4u + 4u > len)
		return 0;
	return hf_rd32(buf, d);
}

uint32_t nvm_hf_get(const uint8_t *buf, size_t len, const nvm_hf_word *w, unsigned idx, const nvm_hf_field *f)
{
	if (!w || !f || idx >= w->count || f->hi > 31 || f->lo > f->hi)
		return 0;
	uint32_t v = nvm_hf_dword(buf, len, (unsigned)w->dword + idx * w->stride);
	return FIELD_GET(v, f->hi, f->lo);
}

const char *nvm_hf_enum_name(const nvm_hf_field *f, uint32_t v)
{
	if (!f || !f->enums)
		return NULL;
	for (const nvm_hf_enum *e = f->enums; e->name; e++)
		if (e->value == v)
			return e->name;
	return NULL;
}

const nvm_hf_word *nvm_hf_word_at(const nvm_hf_layout *l, unsigned d, unsigned *idx)
{
	if (!l)
		return NULL;
	for (size_t i = 0; i < l->nwords; i++) {
		const nvm_hf_word *w = &l->words[i];
		if (d < w->dword)
			continue;
		unsigned off = d - w->dword;
		unsigned stride = w->stride ? w->stride : 1;
		if (off % stride == 0 && off / stride < w->count) {
			if (idx)
				*idx = off / stride;
			return w;
		}
	}
	return NULL;
}

uint32_t nvm_hf_undefined_bits(const nvm_hf_word *w)
{
	uint32_t used = 0;
	for (unsigned i = 0; w && i < w->nfields; i++)
		used |= FIELD_MASK(w->fields[i].hi, w->fields[i].lo);
	return ~used;
}

const char *nvm_hf_bits_text(const nvm_hf_layout *l, const nvm_hf_word *w, unsigned idx, const nvm_hf_field *f,
                             char *buf, size_t len)
{
	if (!buf || !len)
		return buf;
	if (!l || !w || !f) {
		buf[0] = 0;
		return buf;
	}
	unsigned d = (unsigned)w->dword + idx * w->stride;
	if (l->abs_bits == 1) {
		snprintf(buf, len, "(%u*32+%u):(%u*32+%u)", d, f->hi, d, f->lo);
	} else if (l->abs_bits == 2) {
		snprintf(buf, len, "(%u+%u*32):(%u+%u*32)", f->hi, d, f->lo, d);
	} else {
		snprintf(buf, len, "%u:%u", f->hi, f->lo);
	}
	return buf;
}

/* ---------------------------------------------------------------- problems */

void hf_add(nvm_hf_problem *out, size_t max, size_t *n, nvm_hf_check code, uint32_t where, int sub, const char *field,
            uint64_t value, uint64_t limit)
{
	if (out && *n < max)
		out[*n] = (nvm_hf_problem){ code, where, sub, field, value, limit };
	(*n)++;
}

typedef int (*detail_fn)(const nvm_hf_problem *p, char *buf, size_t len);

#define ULL(x) ((unsigned long long)(x))

static int d_chan_outside(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "channel entry (CHID %llu) outside a TSG", ULL(p->value));
}

static int d_tsg_zero(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "TSG header (TSGID %llu) with TSG_LENGTH 0", ULL(p->value));
}

static int d_tsg_long(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "TSG_LENGTH %llu is above NV_RAMRL_ENTRY_TSG_LENGTH_MAX (%llu)", ULL(p->value),
	                ULL(p->limit));
}

static int d_tsg_cut_tsg(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "TSG header while the TSG at entry %llu still expects %llu channel entr%s",
	                ULL(p->limit), ULL(p->value), p->value == 1 ? "y" : "ies");
}

static int d_tsg_cut_end(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "the runlist ends while this TSG still expects %llu channel entr%s", ULL(p->value),
	                p->value == 1 ? "y" : "ies");
}

static int d_stray(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "dword %llu has bits 0x%08llx set outside every field", ULL(p->value), ULL(p->limit));
}

static int d_userd_align(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "%s: USERD address 0x%llx is not 512-byte aligned (NV_RAMUSERD_CHAN_SIZE)",
	                p->field ? p->field : "USERD", ULL(p->value));
}

static int d_target(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "%s is %llu, a value the manual does not define", p->field ? p->field : "target",
	                ULL(p->value));
}

static int d_signature(const nvm_hf_problem *p, char *buf, size_t len)
{
	/* limit: the chip's HW_HOST_CLASS_ID (gv100 50031, tu102 50287) */
	return snprintf(buf, len, "NV_PPBDMA_SIGNATURE_HW is 0x%04llx, neither VALID (0xface) nor HOST_CLASS_ID (%llu)",
	                ULL(p->value), ULL(p->limit ? p->limit : 50031));
}

static int d_gpptr(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "%s %llu is not below 2^LIMIT2 = %llu", p->field ? p->field : "GP pointer",
	                ULL(p->value), ULL(p->limit));
}

static int d_gpfifo(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "the GPFIFO at 0x%llx with %llu entries ends past 0xFFFFFFFFFF", ULL(p->value),
	                ULL(p->limit));
}

static int d_pdb_invalid(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "%s is INVALID", p->field ? p->field : "PAGE_DIR_BASE_TARGET");
}

static int d_old_pt(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "%s is FALSE (old page-table format)", p->field ? p->field : "USE_VER2_PT_FORMAT");
}

static int d_big_page(const nvm_hf_problem *p, char *buf, size_t len)
{
	return snprintf(buf, len, "%s is 128KB (value 0); Volta supports 64KB only",
	                p->field ? p->field : "BIG_PAGE_SIZE");
}

static int d_engine_cs(const nvm_hf_problem *p, char *buf, size_t len)
{
	(void)p;
	return snprintf(buf, len, "NV_RAMIN_ENGINE_CS is FG; it must always be WFI");
}

#define BAD_TSG "SCHED_ERROR BAD_TSG (NV_PFIFO_INTR_0_SCHED_ERROR, code 0x20)"
#define UNBOUND "MMU fault UNBOUND_INST_BLOCK"
#define SEED5   "seed 000 section 5 (RAMRL)"

static const struct check_row {
	nvm_hf_check_info info;
	detail_fn detail;
} checks[NVM_HF_CHECK_COUNT] = {
	[NVM_HF_CHAN_OUTSIDE_TSG] = { { "chan_outside_tsg", NVM_HF_ERROR, BAD_TSG, "channel entry outside a TSG",
	                                SEED5 },
	                              d_chan_outside },
	[NVM_HF_TSG_LENGTH_ZERO] = { { "tsg_length_zero", NVM_HF_ERROR, BAD_TSG, "TSG of length 0", SEED5 },
	                             d_tsg_zero },
	/* UNVERIFIED: seed 000 lists the length 0 and the short TSG as BAD_TSG;
	 * for a length above TSG_LENGTH_MAX it gives only the limit. */
	[NVM_HF_TSG_TOO_LONG] = { { "tsg_too_long", NVM_HF_ERROR, BAD_TSG, "TSG longer than 128 entries",
	                            "gv100_dev_ram NV_RAMRL_ENTRY_TSG_LENGTH_MAX (effect UNVERIFIED)" },
	                          d_tsg_long },
	[NVM_HF_TSG_CUT_BY_TSG] = { { "tsg_cut_by_tsg", NVM_HF_ERROR, BAD_TSG,
	                              "another TSG header before TSG_LENGTH channel entries", SEED5 },
	                            d_tsg_cut_tsg },
	[NVM_HF_TSG_CUT_BY_END] = { { "tsg_cut_by_end", NVM_HF_ERROR, BAD_TSG,
	                              "end of the runlist before TSG_LENGTH channel entries", SEED5 },
	                            d_tsg_cut_end },
	[NVM_HF_STRAY_BITS] = { { "stray_bits", NVM_HF_WARNING, NULL, "bits set outside the entry's fields",
	                          "gv100_dev_ram NV_RAMRL_ENTRY (no field there)" },
	                        d_stray },
	[NVM_HF_USERD_ALIGN] = { { "userd_align", NVM_HF_WARNING, NULL, "USERD pointer not 512-byte aligned",
	                           "seed 000 sections 4-5, gv100_dev_pbdma USERD" },
	                         d_userd_align },
	[NVM_HF_UNDEFINED_TARGET] = { { "undefined_target", NVM_HF_WARNING, NULL, "aperture value not defined",
	                                "gv100_dev_ram (the field's values)" },
	                              d_target },
	[NVM_HF_SIGNATURE] = { { "signature", NVM_HF_ERROR,
	                         "PBDMA INTR_0 SIGNATURE (bit 31); the PBDMA freezes on the RAMFC load",
	                         "RAMFC SIGNATURE_HW invalid", "gv100_dev_pbdma SIGNATURE" },
	                       d_signature },
	[NVM_HF_GPPTR] = { { "gpptr", NVM_HF_ERROR, "PBDMA INTR_0 GPPTR (bit 14); the PBDMA stalls",
	                     "GP pointer not below 2^LIMIT2", "gv100_dev_pbdma GP_PUT, GP_GET, GP_FETCH" },
	                   d_gpptr },
	[NVM_HF_GPFIFO] = { { "gpfifo", NVM_HF_ERROR, "PBDMA INTR_0 GPFIFO (bit 13)", "GPFIFO crosses 2^40",
	                      "gv100_dev_pbdma GP_BASE" },
	                    d_gpfifo },
	[NVM_HF_PDB_INVALID] = { { "pdb_invalid", NVM_HF_ERROR, "engine unbound: " UNBOUND,
	                           "page directory target INVALID", "seed 000 section 2 (PAGE_DIR_BASE_TARGET)" },
	                         d_pdb_invalid },
	[NVM_HF_OLD_PT_FORMAT] = { { "old_pt_format", NVM_HF_ERROR, UNBOUND, "old page-table format selected",
	                             "seed 000 section 2 (USE_VER2_PT_FORMAT)" },
	                           d_old_pt },
	[NVM_HF_BIG_PAGE_128K] = { { "big_page_128k", NVM_HF_ERROR, UNBOUND, "128KB big pages selected",
	                             "seed 000 section 2 (BIG_PAGE_SIZE)" },
	                           d_big_page },
	[NVM_HF_ENGINE_CS] = { { "engine_cs", NVM_HF_WARNING, NULL, "ENGINE_CS not WFI",
	                         "seed 000 section 2 (ENGINE_CS)" },
	                       d_engine_cs },
};

const nvm_hf_check_info *nvm_hf_check_get(nvm_hf_check code)
{
	return (unsigned)code < NVM_HF_CHECK_COUNT ? &checks[code].info : NULL;
}

int nvm_hf_problem_text(const nvm_hf_problem *p, char *buf, size_t len)
{
	char dummy[1];
	if (!buf || !len) {
		buf = dummy;
		len = sizeof(dummy);
	}
	if (!p || (unsigned)p->code >= NVM_HF_CHECK_COUNT)
		return snprintf(buf, len, "unknown problem");
	int pre = 0;
	if (p->sub >= 0)
		pre = snprintf(buf, len, "subcontext %d: ", p->sub);
	size_t used = (size_t)pre < len ? (size_t)pre : len - 1;
	return pre + checks[p->code].detail(p, buf + used, len - used);
}

/* ---------------------------------------------------------------- RAMFC, RAMIN */

/* A 40-bit PB address from a LO dword (bits 31:2) and a HI dword (7:0). */
static uint64_t addr40(uint32_t lo, uint32_t hi)
{
	return ((uint64_t)FIELD_GET(hi, 7, 0) << 32) | (lo & ~3u);
}

void nvm_ramfc_decode(const uint8_t ramfc[NVM_RAMFC_SIZE], nvm_ramfc_info *o)
{
	const uint8_t *f = ramfc;
	memset(o, 0, sizeof(*o));
	uint32_t sig = hf_rd32(f, 4), base = hf_rd32(f, 18), base_hi = hf_rd32(f, 19), userd = hf_rd32(f, 2);
	o->signature_hw = FIELD_GET(sig, 15, 0);
	o->signature_sw = FIELD_GET(sig, 31, 16);
	/* gpfifo_base_ptr = GP_BASE + (GP_BASE_HI_OFFSET << 32), OFFSET 31:3 */
	o->gp_base = ((uint64_t)FIELD_GET(base_hi, 7, 0) << 32) | (base & ~7u);
	o->limit2 = FIELD_GET(base_hi, 20, 16);
	o->gp_put = hf_rd32(f, 0);
	o->gp_get = hf_rd32(f, 5);
	o->gp_fetch = hf_rd32(f, 20);
	o->userd_target = FIELD_GET(userd, 1, 0);
	o->userd_addr = ((uint64_t)FIELD_GET(hf_rd32(f, 3), 7, 0) << 32) | (userd & ~0x1ffu); /* ADDR 31:9 */
	o->pb_get = addr40(hf_rd32(f, 6), hf_rd32(f, 7));
	o->pb_put = addr40(hf_rd32(f, 23), hf_rd32(f, 24));
	o->pb_top_level_get = addr40(hf_rd32(f, 8), hf_rd32(f, 9));
	o->pb_top_level_get_valid = (int)FIELD_GET(hf_rd32(f, 9), 31, 31);
	o->pb_fetch = addr40(hf_rd32(f, 21), hf_rd32(f, 22));
	o->ref = hf_rd32(f, 10);
	o->sem_addr = addr40(hf_rd32(f, 15), hf_rd32(f, 14));
	o->sem_payload = ((uint64_t)hf_rd32(f, 39) << 32) | hf_rd32(f, 16);
	uint32_t sd = hf_rd32(f, 37), tgt = hf_rd32(f, 43), cfg = hf_rd32(f, 61), acq = hf_rd32(f, 12);
	o->subdevice_id = FIELD_GET(sd, 11, 0);
	o->subdevice_active = (int)FIELD_GET(sd, 28, 28);
	o->channel_dma = (int)FIELD_GET(sd, 29, 29);
	o->target_engine = FIELD_GET(tgt, 4, 0);
	o->eng_ctx_valid = (int)FIELD_GET(tgt, 16, 16);
	o->ce_ctx_valid = (int)FIELD_GET(tgt, 17, 17);
	o->auth_privileged = (int)FIELD_GET(cfg, 8, 8);
	o->userd_writeback = (int)FIELD_GET(cfg, 12, 12);
	/* "The acquire timeout period is 1024*MAN*2^EXP ns"; retry MAN*2^EXP nvclk */
	o->acquire_timeout_en = (int)FIELD_GET(acq, 31, 31);
	o->acquire_timeout_ns = 1024ull * FIELD_GET(acq, 30, 15) << FIELD_GET(acq, 14, 11);
	o->acquire_retry_clk = (uint64_t)FIELD_GET(acq, 6, 0) << FIELD_GET(acq, 10, 7);
	o->veid = FIELD_GET(hf_rd32(f, 63), 13, 8);
}

/* PAGE_DIR_BASE_* (or SC_PAGE_DIR_BASE_*(i)) at dword lo, HI at lo+1; the
 * ATS dword at ats. */
static void pdb_decode(const uint8_t *inst, unsigned lo, unsigned ats, nvm_ramin_pdb *p)
{
	uint32_t w = hf_rd32(inst, lo), a = hf_rd32(inst, ats);
	p->target = FIELD_GET(w, 1, 0);
	p->vol = (int)FIELD_GET(w, 2, 2);
	p->replay_tex = (int)FIELD_GET(w, 4, 4);
	p->replay_gcc = (int)FIELD_GET(w, 5, 5);
	p->ver2 = (int)FIELD_GET(w, 10, 10);
	p->big_page_64k = (int)FIELD_GET(w, 11, 11);
	p->addr = ((uint64_t)hf_rd32(inst, lo + 1) << 32) | ((uint64_t)FIELD_GET(w, 31, 12) << 12);
	p->ats = (int)FIELD_GET(a, 31, 31);
	p->pasid = FIELD_GET(a, 19, 0);
}

void nvm_ramin_decode(const uint8_t inst[NVM_RAMIN_SIZE], nvm_ramin_info *o)
{
	memset(o, 0, sizeof(*o));
	nvm_ramfc_decode(inst, &o->fc);
	pdb_decode(inst, 128, 135, &o->pdb);
	uint32_t wfi = hf_rd32(inst, 132);
	o->wfi_target = FIELD_GET(wfi, 1, 0);
	o->wfi_virtual = (int)FIELD_GET(wfi, 2, 2);
	o->engine_cs_fg = (int)FIELD_GET(wfi, 3, 3);
	o->wfi_ptr = ((uint64_t)FIELD_GET(hf_rd32(inst, 133), 7, 0) << 32) | ((uint64_t)FIELD_GET(wfi, 31, 12) << 12);
	o->wfi_veid = FIELD_GET(hf_rd32(inst, 134), 5, 0);
	o->method_buffer = ((uint64_t)FIELD_GET(hf_rd32(inst, 137), 16, 0) << 32) | hf_rd32(inst, 136);
	o->sc_pdb_valid = ((uint64_t)hf_rd32(inst, 167) << 32) | hf_rd32(inst, 166);
	for (unsigned i = 0; i < NVM_RAMIN_SUBCTX; i++)
		pdb_decode(inst, 168 + 4 * i, 170 + 4 * i, &o->sc[i]);
}

/* ---------------------------------------------------------------- USERD */

void nvm_userd_decode(const uint8_t userd[NVM_USERD_SIZE], nvm_userd_info *o)
{
	const uint8_t *u = userd;
	memset(o, 0, sizeof(*o));
	o->put = addr40(hf_rd32(u, 16), hf_rd32(u, 19));
	o->get = addr40(hf_rd32(u, 17), hf_rd32(u, 24));
	o->ref = hf_rd32(u, 18);
	o->top_level_get = addr40(hf_rd32(u, 22), hf_rd32(u, 23));
	o->top_level_get_valid = (int)FIELD_GET(hf_rd32(u, 23), 31, 31);
	o->gp_get = hf_rd32(u, 34);
	o->gp_put = hf_rd32(u, 35);
}

/* ---------------------------------------------------------------- runlist entries */

uint64_t nvm_rl_timeslice_ns(unsigned scale, unsigned timeout)
{
	/* UNVERIFIED: "A timeslice of zero will be treated as a timeslice period
	 * of one": (TIMEOUT << SCALE) = 0 counts as 1, i.e. 1024 ns, which
	 * NV_RAMRL_ENTRY_TSG_TIMESLICE_TIMEOUT_1US (value 0) agrees with. */
	uint64_t t = (uint64_t)(timeout & 0xffu) << (scale & 0xfu);
	return (t ? t : 1u) * 1024u;
}

void nvm_rl_entry_decode(const uint8_t e[NVM_RL_ENTRY_SIZE], nvm_rl_entry *o)
{
	memset(o, 0, sizeof(*o));
	for (unsigned i = 0; i < 4; i++)
		o->dw[i] = hf_rd32(e, i);
	o->type = FIELD_GET(o->dw[0], 0, 0); /* NV_RAMRL_ENTRY_TYPE (0+0*32):(0+0*32) */
	o->id = FIELD_GET(o->dw[2], 11, 0);  /* NV_RAMRL_ENTRY_ID (11+2*32):(0+2*32) */
	if (o->type == NVM_RL_TYPE_TSG) {
		o->timeslice_scale = FIELD_GET(o->dw[0], 19, 16);
		o->timeslice_timeout = FIELD_GET(o->dw[0], 31, 24);
		o->tsg_length = FIELD_GET(o->dw[1], 7, 0);
		o->timeslice_ns = nvm_rl_timeslice_ns(o->timeslice_scale, o->timeslice_timeout);
	} else {
		o->runqueue_selector = FIELD_GET(o->dw[0], 1, 1);
		o->inst_target = FIELD_GET(o->dw[0], 5, 4);
		o->userd_target = FIELD_GET(o->dw[0], 7, 6);
		/* (USERD_PTR_HI << 32) | (USERD_PTR_LO << 8) */
		o->userd_addr = ((uint64_t)o->dw[1] << 32) | ((uint64_t)FIELD_GET(o->dw[0], 31, 8) << 8);
		/* (INST_PTR_HI << 32) | (INST_PTR_LO << 12) */
		o->inst_addr = ((uint64_t)o->dw[3] << 32) | ((uint64_t)FIELD_GET(o->dw[2], 31, 12) << 12);
	}
	/* Stray bits: whatever the entry type's field table leaves uncovered. */
	const nvm_hf_layout *l = nvm_hf_layout_get(o->type == NVM_RL_TYPE_TSG ? NVM_HF_RL_TSG : NVM_HF_RL_CHAN);
	for (unsigned i = 0; i < 4; i++) {
		const nvm_hf_word *w = nvm_hf_word_at(l, i, NULL);
		o->stray[i] = o->dw[i] & (w ? nvm_hf_undefined_bits(w) : ~0u);
	}
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

void nvm_rl_entry_encode(const nvm_rl_entry *in, uint8_t out[NVM_RL_ENTRY_SIZE])
{
	uint32_t dw[4] = { 0 };
	dw[0] = FIELD_SET(dw[0], 0, 0, in->type);
	dw[2] = FIELD_SET(dw[2], 11, 0, in->id);
	if ((in->type & 1u) == NVM_RL_TYPE_TSG) {
		dw[0] = FIELD_SET(dw[0], 19, 16, in->timeslice_scale);
		dw[0] = FIELD_SET(dw[0], 31, 24, in->timeslice_timeout);
		dw[1] = FIELD_SET(dw[1], 7, 0, in->tsg_length);
	} else {
		dw[0] = FIELD_SET(dw[0], 1, 1, in->runqueue_selector);
		dw[0] = FIELD_SET(dw[0], 5, 4, in->inst_target);
		dw[0] = FIELD_SET(dw[0], 7, 6, in->userd_target);
		dw[0] = FIELD_SET(dw[0], 31, 8, (uint32_t)(in->userd_addr >> 8));
		dw[1] = (uint32_t)(in->userd_addr >> 32);
		dw[2] = FIELD_SET(dw[2], 31, 12, (uint32_t)(in->inst_addr >> 12));
		dw[3] = (uint32_t)(in->inst_addr >> 32);
	}
	for (unsigned i = 0; i < 4; i++)
		put32(out + 4 * i, dw[i] | in->stray[i]);
}
