/*
 * The pushbuffer decoder: a streaming state machine over PB entries for the
 * Fermi+ format (seed 000 section 6 "Host Pushbuffer Format") and the NV04..G80
 * DMA pusher format (envytools hw/fifo/dma-pusher.rst). See docs/pushbuf.md.
 *
 * Method data is delivered in runs: the hot loop only slices the input,
 * instructions are decoded one dword at a time through the opcode tables.
 */
#include "pb_internal.h"

bool nvm_pb_config_init(nvm_pb_config *cfg, const nvm_pb_gen *gen, nvm_pb_format format)
{
	if (!gen || !(gen->accepts & (format == NVM_PB_FORMAT_NEW ? NVM_PB_ACC_NEW : NVM_PB_ACC_OLD)))
		return false;
	/* UNVERIFIED default: IB mode on G80+, as nouveau runs those channels. */
	*cfg = (nvm_pb_config){
		.gen = gen,
		.format = format,
		.ib_mode = (gen->accepts & NVM_PB_ACC_LONG_NINC) != 0,
		.sli_enable = true,
		.subdevice_id = 0xfff,
	};
	return true;
}

/* ---------------------------------------------------------------- names */

static const char *const mode_names[] = { "inc", "ninc", "1inc", "immd" };

const char *nvm_pb_mode_name(nvm_pb_mode m)
{
	return (unsigned)m < 4 ? mode_names[m] : "?";
}

static const char *const ctrl_names[NVM_PB_CTRL_COUNT] = {
	[NVM_PB_CTRL_NOP] = "nop",
	[NVM_PB_CTRL_SET_SUBDEVICE_MASK] = "set_subdevice_mask",
	[NVM_PB_CTRL_STORE_SUBDEVICE_MASK] = "store_subdevice_mask",
	[NVM_PB_CTRL_USE_SUBDEVICE_MASK] = "use_subdevice_mask",
	[NVM_PB_CTRL_END_SEGMENT] = "end_segment",
	[NVM_PB_CTRL_IGNORED] = "ignored",
	[NVM_PB_CTRL_OLD_JUMP] = "old_jump",
	[NVM_PB_CTRL_JUMP] = "jump",
	[NVM_PB_CTRL_CALL] = "call",
	[NVM_PB_CTRL_RETURN] = "return",
	[NVM_PB_CTRL_SLI_CONDITIONAL] = "sli_conditional",
};

const char *nvm_pb_ctrl_name(nvm_pb_ctrl c)
{
	return (unsigned)c < NVM_PB_CTRL_COUNT ? ctrl_names[c] : "?";
}

struct err_info {
	const char *name, *message;
	const char *intr_new, *intr_old;
};

static const struct err_info err_infos[NVM_PB_ERR_COUNT] = {
	[NVM_PB_ERR_RESERVED_OPCODE] = { "reserved_opcode", "SEC_OP 6 (RESERVED6) is not a valid PB instruction",
	                                 "PBENTRY", NULL },
	[NVM_PB_ERR_OBSOLETE] = { "obsolete_header",
	                          "old-format method header (SEC_OP 0 with TERT_OP 0, or SEC_OP 2) is obsolete",
	                          "PBENTRY", NULL },
	[NVM_PB_ERR_BAD_CONTROL] = { "bad_control", "subdevice-mask control entry with OPCODE 31:16 not 1, 2 or 3",
	                             "PBENTRY", NULL },
	[NVM_PB_ERR_COUNT_OVERFLOW] = { "count_overflow", "COUNT takes the method address past 0xFFF (would wrap)",
	                                "PBENTRY", NULL },
	/* UNVERIFIED: the seed only says bit 12 is reserved; no interrupt is documented. */
	[NVM_PB_ERR_RESERVED_BIT] = { "reserved_bit", "reserved bit 12 of the method header is set", NULL, NULL },
	[NVM_PB_ERR_TRUNCATED] = { "truncated", "the input ends inside a method sequence (data missing)", NULL, NULL },
	[NVM_PB_ERR_INVALID_CMD] = { "invalid_cmd", "no command form matches for this chip and mode", NULL,
	                             "DMA_PUSHER INVALID_CMD" },
};

const char *nvm_pb_err_name(nvm_pb_err e)
{
	return (unsigned)e < NVM_PB_ERR_COUNT ? err_infos[e].name : "?";
}

const char *nvm_pb_err_message(nvm_pb_err e)
{
	return (unsigned)e < NVM_PB_ERR_COUNT ? err_infos[e].message : "?";
}

const char *nvm_pb_err_interrupt(nvm_pb_err e, nvm_pb_format f)
{
	if ((unsigned)e >= NVM_PB_ERR_COUNT)
		return NULL;
	return f == NVM_PB_FORMAT_NEW ? err_infos[e].intr_new : err_infos[e].intr_old;
}

/* ---------------------------------------------------------------- sink helpers */

/* Delivers the batch (nothing after a stop). nbatch stays set during the
 * call: nvm_pb_stop_run needs to know which runs follow the stop. */
static void flush_batch(nvm_pb_decoder *d)
{
	if (d->nbatch) {
		if (!d->stopped) {
			for (uint32_t i = 0; i < d->nbatch; i++)
				d->methods += d->batch[i].count;
			d->sink.runs(d->sink.ctx, d->batch, d->nbatch);
		}
		d->nbatch = 0;
	}
}

/* Where the next run is built: its batch slot, or a scratch run for a
 * direct call. Filling the fields in place (rather than building a struct
 * and copying it) avoids store-forwarding stalls in the hot path. */
static inline nvm_pb_run *run_slot(nvm_pb_decoder *d)
{
	return d->sink.runs ? &d->batch[d->nbatch] : &d->batch[0];
}

static inline void run_commit(nvm_pb_decoder *d, nvm_pb_run *r)
{
	if (d->sink.runs) {
		if (++d->nbatch == NVM_PB_BATCH)
			flush_batch(d);
	} else if (d->sink.run && !d->stopped) {
		d->methods += r->count;
		d->sink.run(d->sink.ctx, r);
	}
}

/* Records, with a run in slot i, what a stop inside it needs: the entries
 * of its sequence after it, and the sequence's header. */
static inline void run_seq(nvm_pb_decoder *d, const nvm_pb_run *r, uint32_t left, uint32_t hdr_word)
{
	size_t i = (size_t)(r - d->batch);
	d->batch_seq[i].left = left;
	d->batch_seq[i].hdr_word = hdr_word;
}

static void put_error(nvm_pb_decoder *d, uint32_t word, nvm_pb_err code, uint32_t ndwords, uint32_t missing,
                      uint64_t offset)
{
	if (!ndwords && offset == d->quiet_at)
		return; /* an IMMD header decoded again after a stop before it: reported once */
	flush_batch(d);
	if (d->sink.error && !d->stopped)
		d->sink.error(d->sink.ctx, &(nvm_pb_error){ .offset = offset,
		                                            .ndwords = ndwords,
		                                            .word = word,
		                                            .code = code,
		                                            .missing = missing });
}

static void put_control(nvm_pb_decoder *d, uint32_t word, nvm_pb_ctrl kind, bool has_value, uint32_t value)
{
	flush_batch(d);
	if (d->sink.control && !d->stopped)
		d->sink.control(d->sink.ctx, &(nvm_pb_control){ .offset = d->pos,
		                                                .ndwords = 1,
		                                                .word = word,
		                                                .kind = kind,
		                                                .has_value = has_value,
		                                                .value = value,
		                                                .active = d->active });
}

/* Starts a method sequence; the header dword(s) end at d->pos. */
static inline void start_sequence(nvm_pb_decoder *d, uint64_t hdr_offset, uint32_t ndwords, uint32_t word,
                                  uint32_t word2, uint32_t subch, uint32_t method, uint32_t count, nvm_pb_mode mode)
{
	bool masked = !d->active;
	/* The runs before it are delivered first, in the new format also
	 * without a header event: a stop after one of its IMMD runs saves the
	 * sequence fields (the subchannel the PBDMA keeps in PB_HEADER) as they
	 * were when it was decoded, whatever the batch boundaries (as with
	 * nvm_pb_take_hdr's runs). The old format has no IMMD. */
	if (d->sink.header || d->cfg.format == NVM_PB_FORMAT_NEW)
		flush_batch(d);
	if (d->sink.header) {
		if (!d->stopped)
			d->sink.header(d->sink.ctx, &(nvm_pb_header){ .offset = hdr_offset,
			                                              .ndwords = ndwords,
			                                              .word = word,
			                                              .word2 = word2,
			                                              .subch = subch,
			                                              .method = method,
			                                              .count = count,
			                                              .mode = mode,
			                                              .masked = masked });
	}
	d->remaining = count;
	d->index = 0;
	d->subch = subch;
	d->method = method;
	d->mode = mode;
	d->hdr_offset = hdr_offset;
	d->hdr_word = word;
}

/* ---------------------------------------------------------------- new format */

enum new_kind { NK_TERT, NK_METHOD, NK_OBSOLETE, NK_IMMD, NK_RESERVED, NK_ENDSEG };

/* NV_FIFO_DMA_SEC_OP (seed 000, "Types of PB Entries" table). SEC_OP 2 is
 * the old non-incrementing header (DMA_SEC_OP_GRP2_USE_TERT in clc36f). */
static const struct {
	uint8_t kind;
	uint8_t mode;
} new_ops[8] = {
	[0] = { NK_TERT, 0 },
	[1] = { NK_METHOD, NVM_PB_MODE_INC },
	[2] = { NK_OBSOLETE, 0 },
	[3] = { NK_METHOD, NVM_PB_MODE_NINC },
	[4] = { NK_IMMD, NVM_PB_MODE_IMMD },
	[5] = { NK_METHOD, NVM_PB_MODE_1INC },
	[6] = { NK_RESERVED, 0 },
	[7] = { NK_ENDSEG, 0 },
};

/* TERT_OP 1..3 under SEC_OP 0. */
static const nvm_pb_ctrl tert_ctrl[4] = { NVM_PB_CTRL_NOP, NVM_PB_CTRL_SET_SUBDEVICE_MASK,
	                                  NVM_PB_CTRL_STORE_SUBDEVICE_MASK, NVM_PB_CTRL_USE_SUBDEVICE_MASK };

static void new_tert(nvm_pb_decoder *d, uint32_t w)
{
	uint32_t tert = PB_FIELD(w, PB_DMA_TERT_OP);
	if (tert == 0) {
		/* SEC_OP 0 / TERT_OP 0 is the old incrementing header. */
		put_error(d, w, NVM_PB_ERR_OBSOLETE, 1, 0, d->pos);
		return;
	}
	/* The control entries' OPCODE is the whole 31:16 field. UNVERIFIED:
	 * other bits set there make the word not decode (PBENTRY). The decoder
	 * assumes SUBDEVICE_CHANNEL_DMA is ENABLE (with DISABLE, SSDM/USE raise
	 * PBENTRY: Host's check, it has the channel state). */
	if (PB_FIELD(w, PB_DMA_CTRL_OPCODE) != tert) {
		put_error(d, w, NVM_PB_ERR_BAD_CONTROL, 1, 0, d->pos);
		return;
	}
	uint32_t mask = PB_FIELD(w, PB_DMA_SUBDEVICE_MASK);
	uint32_t id = d->cfg.subdevice_id & 0xfff;
	nvm_pb_ctrl kind = tert_ctrl[tert];
	flush_batch(d); /* the runs before it see the mask state they were decoded with (nvm_pb_stop_run) */
	if (kind == NVM_PB_CTRL_SET_SUBDEVICE_MASK) {
		d->active = (mask & id) != 0;
	} else if (kind == NVM_PB_CTRL_STORE_SUBDEVICE_MASK) {
		d->stored_mask = mask;
	} else {
		mask = d->stored_mask;
		d->active = (mask & id) != 0;
	}
	put_control(d, w, kind, true, mask);
}

static inline __attribute__((always_inline)) void new_method(nvm_pb_decoder *d, uint32_t w, nvm_pb_mode mode)
{
	uint32_t addr = PB_FIELD(w, PB_DMA_METHOD_ADDRESS);
	uint32_t count = PB_FIELD(w, PB_DMA_METHOD_COUNT);
	if (w & (1u << PB_DMA_RESERVED_BIT))
		put_error(d, w, NVM_PB_ERR_RESERVED_BIT, 0, 0, d->pos);
	/* dev_pbdma PBENTRY: INC / 1INC whose COUNT would take the method
	 * address past the maximum. UNVERIFIED: the sequence is still
	 * delivered so the decode stays in step with the data that follows. */
	uint32_t last = mode == NVM_PB_MODE_INC ? addr + count - 1 : addr + 1;
	if (count && mode != NVM_PB_MODE_NINC && (mode == NVM_PB_MODE_INC || count > 1) && last > 0xfff)
		put_error(d, w, NVM_PB_ERR_COUNT_OVERFLOW, 0, 0, d->pos);
	start_sequence(d, d->pos, 1, w, 0, PB_FIELD(w, PB_DMA_METHOD_SUBCHANNEL), addr << 2, count, mode);
}

static inline void new_immd(nvm_pb_decoder *d, uint32_t w)
{
	uint32_t addr = PB_FIELD(w, PB_DMA_METHOD_ADDRESS);
	if (w & (1u << PB_DMA_RESERVED_BIT))
		put_error(d, w, NVM_PB_ERR_RESERVED_BIT, 0, 0, d->pos);
	uint32_t subch = PB_FIELD(w, PB_DMA_METHOD_SUBCHANNEL);
	bool masked = !d->active;
	if (d->sink.header) {
		flush_batch(d);
		if (!d->stopped)
			d->sink.header(d->sink.ctx, &(nvm_pb_header){ .offset = d->pos,
			                                              .ndwords = 1,
			                                              .word = w,
			                                              .subch = subch,
			                                              .method = addr << 2,
			                                              .count = 1,
			                                              .mode = NVM_PB_MODE_IMMD,
			                                              .masked = masked });
	}
	nvm_pb_run *r = run_slot(d);
	uint32_t *immd = &d->batch_immd[r - d->batch];
	*immd = PB_FIELD(w, PB_DMA_IMMD_DATA);
	r->hdr_offset = d->pos;
	r->offset = d->pos;
	r->ndwords = 0;
	r->subch = subch;
	r->method = addr << 2;
	r->index = 0;
	r->count = 1;
	r->mode = NVM_PB_MODE_IMMD;
	r->masked = masked;
	r->data = immd;
	run_seq(d, r, 0, w);
	run_commit(d, r);
}

/* UNVERIFIED: an invalid instruction consumes just its own word; the next
 * dword is decoded as an instruction (the hardware stops until SW repairs
 * PB_HEADER / PB_COUNT). */
static void new_instruction(nvm_pb_decoder *d, uint32_t w)
{
	if (w == 0) {
		/* NV_FIFO_DMA_NOP: bypasses the header format check. */
		put_control(d, w, NVM_PB_CTRL_NOP, false, 0);
		return;
	}
	uint32_t op = PB_FIELD(w, PB_DMA_SEC_OP);
	switch (new_ops[op].kind) {
	case NK_TERT: new_tert(d, w); break;
	case NK_METHOD: new_method(d, w, (nvm_pb_mode)new_ops[op].mode); break;
	case NK_IMMD: new_immd(d, w); break;
	case NK_OBSOLETE: put_error(d, w, NVM_PB_ERR_OBSOLETE, 1, 0, d->pos); break;
	case NK_RESERVED: put_error(d, w, NVM_PB_ERR_RESERVED_OPCODE, 1, 0, d->pos); break;
	case NK_ENDSEG:
		flush_batch(d);
		d->skipping = true; /* before the event: a stop after it keeps skipping */
		put_control(d, w, NVM_PB_CTRL_END_SEGMENT, false, 0);
		break;
	}
}

/* ---------------------------------------------------------------- old format */

enum old_kind { OK_OLD_JUMP, OK_JUMP, OK_CALL, OK_RETURN, OK_INC, OK_NINC, OK_LONG_NINC, OK_SLI };
enum old_mode_req { REQ_ANY, REQ_DMA, REQ_IB };

/* The command forms, in the order the pusher matches them (dma-pusher.rst
 * "The pusher pseudocode - pre-GF100"). */
static const struct old_form {
	uint32_t mask, match;
	unsigned accept; /* NVM_PB_ACC_* the chip needs */
	uint8_t req;     /* DMA (NV4-style) or IB mode only */
	uint8_t kind;
	uint32_t target; /* mask of the jump/call target */
} old_forms[] = {
	{ 0xe0000003u, 0x20000000u, NVM_PB_ACC_OLD, REQ_DMA, OK_OLD_JUMP, 0x1fffffffu },
	{ 0x00000003u, 0x00000001u, NVM_PB_ACC_JUMP_CALL, REQ_DMA, OK_JUMP, 0xfffffffcu },
	{ 0x00000003u, 0x00000002u, NVM_PB_ACC_JUMP_CALL, REQ_DMA, OK_CALL, 0xfffffffcu },
	{ 0xffffffffu, 0x00020000u, NVM_PB_ACC_JUMP_CALL, REQ_DMA, OK_RETURN, 0 },
	{ 0xe0030003u, 0x00000000u, NVM_PB_ACC_OLD, REQ_ANY, OK_INC, 0 },
	{ 0xe0030003u, 0x40000000u, NVM_PB_ACC_OLD_NINC, REQ_ANY, OK_NINC, 0 },
	{ 0xffff0003u, 0x00030000u, NVM_PB_ACC_LONG_NINC, REQ_IB, OK_LONG_NINC, 0 },
	{ 0xffff0003u, 0x00010000u, NVM_PB_ACC_SLI_COND, REQ_ANY, OK_SLI, 0 },
};

static const nvm_pb_ctrl old_flow_ctrl[] = { [OK_OLD_JUMP] = NVM_PB_CTRL_OLD_JUMP,
	                                     [OK_JUMP] = NVM_PB_CTRL_JUMP,
	                                     [OK_CALL] = NVM_PB_CTRL_CALL,
	                                     [OK_RETURN] = NVM_PB_CTRL_RETURN };

static bool old_form_usable(const nvm_pb_decoder *d, const struct old_form *f)
{
	if (!(d->cfg.gen->accepts & f->accept))
		return false;
	/* Before G80 there is no IB mode. */
	bool ib = d->cfg.ib_mode && (d->cfg.gen->accepts & NVM_PB_ACC_LONG_NINC);
	if ((f->req == REQ_DMA && ib) || (f->req == REQ_IB && !ib))
		return false;
	if (f->kind == OK_SLI && !d->cfg.sli_enable)
		return false;
	return true;
}

/* UNVERIFIED: no error for an increasing run past method 0x1ffc (envytools
 * documents none), and INVALID_MTHD (methods 0..0xfc the puller does not
 * know) is left to PFIFO, which has the puller's table. */
static void old_instruction(nvm_pb_decoder *d, uint32_t w)
{
	const struct old_form *f = NULL;
	for (size_t i = 0; i < sizeof(old_forms) / sizeof(old_forms[0]); i++) {
		if ((w & old_forms[i].mask) == old_forms[i].match && old_form_usable(d, &old_forms[i])) {
			f = &old_forms[i];
			break;
		}
	}
	if (!f) {
		put_error(d, w, NVM_PB_ERR_INVALID_CMD, 1, 0, d->pos);
		return;
	}
	uint32_t subch = PB_FIELD(w, PB_DMA_METHOD_SUBCHANNEL);
	uint32_t method = PB_FIELD(w, PB_DMA_METHOD_ADDRESS_OLD) << 2;
	switch (f->kind) {
	case OK_OLD_JUMP:
	case OK_JUMP:
	case OK_CALL: put_control(d, w, old_flow_ctrl[f->kind], true, w & f->target); break;
	case OK_RETURN: put_control(d, w, NVM_PB_CTRL_RETURN, false, 0); break;
	case OK_INC:
	case OK_NINC:
		start_sequence(d, d->pos, 1, w, 0, subch, method, PB_FIELD(w, PB_DMA_METHOD_COUNT_OLD),
		               f->kind == OK_INC ? NVM_PB_MODE_INC : NVM_PB_MODE_NINC);
		break;
	case OK_LONG_NINC:
		/* The count is in the low 24 bits of the next word. */
		d->lenp = true;
		d->subch = subch;
		d->method = method;
		d->hdr_offset = d->pos;
		d->hdr_word = w;
		break;
	case OK_SLI: {
		uint32_t mask = PB_FIELD(w, PB_DMA_SUBDEVICE_MASK);
		flush_batch(d);
		d->active = (mask & d->cfg.subdevice_id & 0xfff) != 0;
		put_control(d, w, NVM_PB_CTRL_SLI_CONDITIONAL, true, mask);
		break;
	}
	}
}

/* ---------------------------------------------------------------- driver */

/* UNVERIFIED: the channel starts ACTIVE with a stored mask of 0xFFF (RAMFC
 * state that SW initialises; these decode an unmasked stream as written). */
void nvm_pb_decoder_init(nvm_pb_decoder *d, const nvm_pb_config *cfg, const nvm_pb_sink *sink)
{
	/* Field by field: the batch arrays need no clearing (nbatch is 0), and a
	 * PBDMA re-initialises its decoder on every context load. */
	d->cfg = *cfg;
	d->sink = sink ? *sink : (nvm_pb_sink){ 0 };
	d->pos = 0;
	d->remaining = d->index = d->subch = d->method = 0;
	d->mode = NVM_PB_MODE_INC;
	d->hdr_offset = 0;
	d->hdr_word = 0;
	d->lenp = d->skipping = false;
	d->active = true;
	d->stored_mask = 0xfff;
	d->stopped = false;
	d->methods = 0;
	d->quiet_at = UINT64_MAX;
	d->nbatch = 0;
}

/* Delivers up to `avail` entries of the pending sequence from p. */
static inline uint32_t feed_data(nvm_pb_decoder *d, const uint32_t *p, size_t avail)
{
	uint32_t take = d->remaining < avail ? d->remaining : (uint32_t)avail;
	nvm_pb_run *r = run_slot(d);
	r->hdr_offset = d->hdr_offset;
	r->offset = d->pos;
	r->ndwords = take;
	r->subch = d->subch;
	r->method = d->method;
	r->index = d->index;
	r->count = take;
	r->mode = d->mode;
	r->masked = !d->active;
	r->data = p;
	run_seq(d, r, d->remaining - take, d->hdr_word);
	run_commit(d, r);
	d->remaining -= take;
	d->index += take;
	d->pos += take;
	return take;
}

/* Handles the states that are not "expecting an instruction": pending data,
 * skipping after END_PB_SEGMENT, the old long header's count word. Returns
 * the entries consumed (0 when an instruction is next). */
static size_t feed_state(nvm_pb_decoder *d, const uint32_t *p, size_t avail)
{
	if (d->remaining)
		return feed_data(d, p, avail);
	if (d->skipping) {
		/* seed 000 END_PB_SEGMENT: "No further PB entries from that
		 * PB segment will be decoded or processed." */
		uint32_t left = avail > 0xffffffffu ? 0xffffffffu : (uint32_t)avail;
		flush_batch(d);
		if (d->sink.control && !d->stopped)
			d->sink.control(d->sink.ctx, &(nvm_pb_control){ .offset = d->pos,
			                                                .ndwords = left,
			                                                .word = p[0],
			                                                .kind = NVM_PB_CTRL_IGNORED,
			                                                .has_value = true,
			                                                .value = left,
			                                                .active = d->active,
			                                                .data = p });
		d->pos += left;
		return left;
	}
	if (d->lenp) {
		d->lenp = false;
		uint64_t hdr = d->hdr_offset;
		d->pos++;
		start_sequence(d, hdr, 2, d->hdr_word, p[0], d->subch, d->method, p[0] & 0xffffffu, NVM_PB_MODE_NINC);
		return 1;
	}
	return 0;
}

/* Bit i set: SEC_OP i is an INC/NINC/1INC header (1, 3, 5). */
#define NEW_METHOD_OPS 0x2au

/* The batched fast path for the new format, for sinks that take batches and
 * no header events: while the next entry is a well-formed method header
 * whose whole sequence is in this piece (or an IMMD), write the run straight
 * into the batch (nvm_pb_take_hdr, nvm_pb_take_fill), keeping the position in registers. Anything
 * else (control entries, errors, a sequence running past the piece) returns
 * to nvm_pb_feed's general path, which reports it. Returns the first entry not
 * handled. */
static const uint32_t *feed_new_batched(nvm_pb_decoder *d, const uint32_t *p, const uint32_t *end)
{
	uint64_t pos = d->pos;
	uint32_t nb = d->nbatch;
	bool masked = !d->active;
	uint32_t w;
	while ((w = nvm_pb_take_hdr(&p, end, &pos))) {
		nvm_pb_take_fill(d, nb, w, p, pos, masked);
		if (++nb == NVM_PB_BATCH) {
			d->nbatch = nb;
			flush_batch(d);
			nb = 0;
			if (d->stopped)
				break;
		}
	}
	d->pos = pos;
	d->nbatch = nb;
	return p;
}

/* Delivers the n headers of d->hdr_batch / d->hdr_words (from base, at
 * stream offset pos) to sink.hdrs. */
static void put_hdrs(nvm_pb_decoder *d, uint32_t n, const uint32_t *base, uint64_t pos, bool masked)
{
	d->hdrs = (nvm_pb_hdrs){ .hdr = d->hdr_batch,
		                 .word = d->hdr_words,
		                 .n = n,
		                 .base = base,
		                 .pos = pos,
		                 .masked = masked };
	d->methods += nvm_pb_hdrs_methods(&d->hdrs);
	d->sink.hdrs(d->sink.ctx, &d->hdrs);
	d->hdrs.n = 0; /* nvm_pb_stop_hdr outside the call finds no batch */
}

/* feed_new_batched for a sink with `hdrs`: the same headers (nvm_pb_take_hdr),
 * each as a pointer and a copy of its word instead of a run record. The
 * batch is filled in a loop of its own, without the sink call: every value
 * it needs stays in a register. */
static __attribute__((noinline)) const uint32_t *feed_new_hdrs(nvm_pb_decoder *d, const uint32_t *p,
                                                               const uint32_t *end)
{
	flush_batch(d); /* the runs before come first */
	if (d->stopped)
		return p;
	const uint32_t *base = p;
	const uint32_t **hb = d->hdr_batch;
	uint32_t *hw = d->hdr_words;
	uint64_t base_pos = d->pos, unused = 0;
	bool masked = !d->active;
	for (;;) {
		uint32_t nb = 0, w;
		/* the position follows from p (base_pos + (p - base)): not kept here */
		while (nb < NVM_PB_BATCH && (w = nvm_pb_take_hdr(&p, end, &unused))) {
			/* the header is before its data: COUNT entries, none for
			 * IMMD (bit 29 clear), as nvm_pb_take_hdr stepped over */
			uint32_t take = ((w >> 16) & 0x1fffu) & (uint32_t)((int32_t)(w << 2) >> 31);
			hb[nb] = p - (1 + take);
			hw[nb++] = w;
		}
		if (nb)
			put_hdrs(d, nb, base, base_pos, masked);
		if (nb < NVM_PB_BATCH || d->stopped)
			break;
	}
	d->pos = base_pos + (uint64_t)(p - base);
	return p;
}

/* The fast path for a sink that takes no methods at all (errors and
 * controls only, as `pb check`): well-formed headers whose sequence is in
 * this piece, and IMMD headers, are stepped over. Returns the first entry
 * not handled (for the general path). */
static const uint32_t *skip_new_methods(nvm_pb_decoder *d, const uint32_t *p, const uint32_t *end)
{
	const uint32_t *start = p;
	while (p < end) {
		uint32_t w = *p;
		uint32_t op = w >> 29;
		if (w & (1u << PB_DMA_RESERVED_BIT))
			break;
		if ((NEW_METHOD_OPS >> op) & 1) {
			uint32_t addr = PB_FIELD(w, PB_DMA_METHOD_ADDRESS);
			uint32_t cnt = PB_FIELD(w, PB_DMA_METHOD_COUNT);
			if (cnt > (size_t)(end - p) - 1)
				break;
			uint32_t last = op == 1 ? addr + cnt - 1 : addr + (cnt > 1);
			if (op != 3 && cnt && last > 0xfff)
				break;
			p += 1 + cnt;
		} else if (op == 4) {
			p++;
		} else {
			break;
		}
	}
	d->pos += (uint64_t)(p - start);
	return p;
}

size_t nvm_pb_feed(nvm_pb_decoder *d, const uint32_t *dw, size_t n)
{
	const uint32_t *p = dw, *end = dw + n;
	d->stopped = false;
	d->feed_start = d->pos;
	d->feed_end = d->pos + n;
	bool is_new = d->cfg.format == NVM_PB_FORMAT_NEW;
	bool batched = is_new && d->sink.runs && !d->sink.header;
	bool skip = is_new && !d->sink.runs && !d->sink.run && !d->sink.header;
	while (p < end && !d->stopped) {
		if (d->remaining | d->skipping | d->lenp) {
			p += feed_state(d, p, (size_t)(end - p));
			continue;
		}
		if (batched) {
			p = d->sink.hdrs ? feed_new_hdrs(d, p, end) : feed_new_batched(d, p, end);
			if (p == end || d->stopped)
				break;
		} else if (skip) {
			p = skip_new_methods(d, p, end);
			if (p == end)
				break;
		}
		uint32_t w = *p;
		uint32_t op = w >> 29;
		/* A well-formed new-format method header. Everything else goes
		 * through the opcode tables in new_instruction / old_instruction. */
		if (is_new && ((NEW_METHOD_OPS >> op) & 1) && !(w & (1u << PB_DMA_RESERVED_BIT))) {
			new_method(d, w, (nvm_pb_mode)new_ops[op].mode);
			d->pos++;
			p++;
			if (d->remaining && p < end)
				p += feed_data(d, p, (size_t)(end - p));
			continue;
		}
		if (is_new && op == 4 && !(w & (1u << PB_DMA_RESERVED_BIT))) {
			new_immd(d, w);
			d->pos++;
			p++;
			continue;
		}
		if (is_new)
			new_instruction(d, w);
		else
			old_instruction(d, w);
		d->pos++;
		p++;
	}
	flush_batch(d);
	if (!d->stopped)
		return n;
	nvm_pb_take_stop(d);
	return (size_t)(d->pos - d->feed_start);
}

void nvm_pb_take_begin(nvm_pb_decoder *d)
{
	d->stopped = false;
}

void nvm_pb_take_stop(nvm_pb_decoder *d)
{
	nvm_pb_restore(d, &d->stop_state);
	d->pos = d->stop_pos;
	d->hdr_offset = d->stop_hdr_offset;
}

void nvm_pb_stop_run(nvm_pb_decoder *d, const nvm_pb_run *r, uint32_t k)
{
	if (r < d->batch || r >= d->batch + NVM_PB_BATCH)
		return; /* not a run of this decoder */
	size_t i = (size_t)(r - d->batch);
	if (k > r->count)
		k = r->count;
	/* The runs of the batch after r, and r's entries past k, are not delivered. */
	d->methods -= r->count - k;
	if (d->sink.runs)
		for (size_t j = i + 1; j < d->nbatch; j++)
			d->methods -= d->batch[j].count;
	nvm_pb_decoder_state *s = &d->stop_state;
	nvm_pb_save(d, s);
	s->lenp = s->skipping = false;
	s->active = !r->masked;
	d->stop_pos = r->offset + k;
	if (r->mode == NVM_PB_MODE_IMMD) {
		/* no sequence pending; the sequence fields stay as they are. k 0:
		 * the header is decoded again, its reports were given. */
		s->remaining = 0;
		if (!k)
			d->quiet_at = r->offset;
		d->stop_hdr_offset = d->hdr_offset;
	} else {
		s->remaining = d->batch_seq[i].left + (r->count - k);
		s->index = r->index + k;
		s->subch = r->subch;
		s->method = r->method;
		s->mode = r->mode;
		s->hdr_word = d->batch_seq[i].hdr_word;
		d->stop_hdr_offset = r->hdr_offset;
	}
	d->stopped = true;
}

/* The run is built in batch slot 0 (a `hdrs` batch is delivered with no
 * run batch pending, feed_new_hdrs), where nvm_pb_stop_run finds its record. */
void nvm_pb_stop_hdr(nvm_pb_decoder *d, const nvm_pb_hdrs *b, size_t i, uint32_t k)
{
	if (b != &d->hdrs || i >= b->n)
		return; /* not the batch being delivered */
	nvm_pb_run *r = &d->batch[0];
	nvm_pb_hdrs_run(b, i, r, &d->batch_immd[0]);
	d->batch_seq[0].left = 0;
	d->batch_seq[0].hdr_word = b->word[i];
	for (size_t j = i + 1; j < b->n; j++)
		d->methods -= nvm_pb_take_count(b->word[j]); /* not delivered */
	nvm_pb_stop_run(d, r, k);
}

void nvm_pb_stop_at(nvm_pb_decoder *d, uint64_t pos)
{
	nvm_pb_save(d, &d->stop_state);
	d->stop_state.remaining = 0;
	d->stop_state.lenp = false;
	d->stop_hdr_offset = d->hdr_offset;
	d->stop_pos = pos < d->feed_start ? d->feed_start : pos > d->feed_end ? d->feed_end : pos;
	d->stopped = true;
}

void nvm_pb_save(const nvm_pb_decoder *d, nvm_pb_decoder_state *s)
{
	*s = (nvm_pb_decoder_state){ .remaining = d->remaining,
		                     .index = d->index,
		                     .subch = d->subch,
		                     .method = d->method,
		                     .mode = d->mode,
		                     .hdr_word = d->hdr_word,
		                     .lenp = d->lenp,
		                     .skipping = d->skipping,
		                     .active = d->active,
		                     .stored_mask = d->stored_mask };
}

/* Trusted input (a front end's registers, already cut to their fields):
 * only the mode is checked, as nvm_pb_run_method indexes by it. */
void nvm_pb_restore(nvm_pb_decoder *d, const nvm_pb_decoder_state *s)
{
	d->remaining = s->remaining;
	d->index = s->index;
	d->subch = s->subch & 7u;
	d->method = s->method;
	d->mode = (unsigned)s->mode <= NVM_PB_MODE_IMMD ? s->mode : NVM_PB_MODE_INC;
	d->hdr_word = s->hdr_word;
	d->lenp = s->lenp;
	d->skipping = s->skipping;
	d->active = s->active;
	d->stored_mask = s->stored_mask;
}

void nvm_pb_segment_end(nvm_pb_decoder *d)
{
	d->skipping = false;
}

void nvm_pb_finish(nvm_pb_decoder *d)
{
	flush_batch(d);
	if (d->lenp) {
		/* The long header's count word never came: the header is all there is. */
		put_error(d, d->hdr_word, NVM_PB_ERR_TRUNCATED, 1, 0, d->hdr_offset);
		d->lenp = false;
	} else if (d->remaining) {
		put_error(d, d->hdr_word, NVM_PB_ERR_TRUNCATED, 0, d->remaining, d->hdr_offset);
		d->remaining = 0;
	}
	d->skipping = false;
}
