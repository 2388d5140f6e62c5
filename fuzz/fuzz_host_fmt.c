/*
 * libFuzzer: the Volta Host structure decoders and checkers (host_fmt.h) on
 * arbitrary bytes. Byte 0 is the USERD check's LIMIT2 (bits 4:0; bit 7: none
 * given); the rest is read as an instance block, a USERD page (both padded
 * with zeros, in exact-size heap buffers so ASan sees any read past them)
 * and a runlist of every whole 16-byte entry.
 *
 * Checks: problems are in range and their texts fit; a checker counts the
 * same with and without room for the problems; the runlist walker agrees
 * with nvm_rl_check, stays consistent step by step, and every entry
 * re-encodes to its own bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "nvmodel/host_fmt.h"

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "fuzz_host_fmt: %s\n", what);
		abort();
	}
}

static void problems_ok(const nvm_hf_problem *p, size_t n, uint32_t where_max)
{
	for (size_t i = 0; i < n; i++) {
		const nvm_hf_check_info *ci = nvm_hf_check_get(p[i].code);
		check(ci != NULL, "problem code out of range");
		check(p[i].where < where_max, "problem outside the structure");
		check(p[i].sub >= -1 && p[i].sub < (int)NVM_RAMIN_SUBCTX, "bad subcontext");
		char msg[256];
		int len = nvm_hf_problem_text(&p[i], msg, sizeof(msg));
		check(len > 0 && (size_t)len < sizeof(msg) && strlen(msg) == (size_t)len, "problem text");
	}
}

/* Every field of a layout through the table, for each Host generation's
 * layout (nvm_hf_layout_chip: gv100, tu102): values fit their fields. */
static void fields_ok_in(const nvm_hf_layout *l, const uint8_t *buf, size_t len);

static void fields_ok(nvm_hf_struct s, const uint8_t *buf, size_t len)
{
	static const char *const chips[] = { "gv100", "tu102" };
	check(nvm_hf_layout_chip("gv100", s) == nvm_hf_layout_get(s), "gv100's layout is the default");
	for (size_t c = 0; c < sizeof(chips) / sizeof(chips[0]); c++) {
		const nvm_hf_layout *l = nvm_hf_layout_chip(chips[c], s);
		check(l != NULL, "a Host chip has every layout");
		fields_ok_in(l, buf, len);
	}
}

static void fields_ok_in(const nvm_hf_layout *l, const uint8_t *buf, size_t len)
{
	for (size_t i = 0; i < l->nwords; i++) {
		const nvm_hf_word *w = &l->words[i];
		for (unsigned c = 0; c < w->count; c++)
			for (unsigned k = 0; k < w->nfields; k++) {
				const nvm_hf_field *f = &w->fields[k];
				uint32_t v = nvm_hf_get(buf, len, w, c, f);
				unsigned width = f->hi - f->lo + 1u;
				check(width == 32 || v < (1u << width), "field value wider than its field");
				const char *e = nvm_hf_enum_name(f, v);
				check(!e || *e, "empty value name");
			}
	}
}

static void fuzz_ramin(const uint8_t *data, size_t size)
{
	uint8_t *inst = calloc(1, NVM_RAMIN_SIZE);
	if (!inst)
		return;
	memcpy(inst, data, size < NVM_RAMIN_SIZE ? size : NVM_RAMIN_SIZE);
	nvm_ramin_info in;
	nvm_ramin_decode(inst, &in);
	check(in.fc.limit2 <= 31 && in.wfi_veid < 64, "decoded field out of range");
	size_t n = nvm_ramin_check(inst, NULL, 0);
	nvm_hf_problem *p = calloc(n + 1, sizeof(*p));
	if (p) {
		check(nvm_ramin_check(inst, p, n) == n, "count differs with room for the problems");
		problems_ok(p, n, NVM_RAMIN_SIZE / 4);
		/* the RAMFC part alone reports a prefix of the same problems */
		size_t m = nvm_ramfc_check(inst, NULL, 0);
		check(m <= n, "RAMFC problems not in RAMIN's");
		free(p);
	}
	/* tu102's checks (its layout: HOST_CLASS_ID 50287) differ from
	 * gv100's at most in the SIGNATURE problem */
	size_t t = nvm_ramin_check_chip("tu102", inst, NULL, 0);
	check(t + 1 >= n && t <= n + 1, "tu102's RAMIN checks differ beyond SIGNATURE");
	nvm_hf_problem *q = calloc(t + 1, sizeof(*q));
	if (q) {
		check(nvm_ramin_check_chip("tu102", inst, q, t) == t, "tu102: count differs with room");
		problems_ok(q, t, NVM_RAMIN_SIZE / 4);
		free(q);
	}
	fields_ok(NVM_HF_RAMFC, inst, NVM_RAMIN_SIZE);
	fields_ok(NVM_HF_RAMIN, inst, NVM_RAMIN_SIZE);
	free(inst);
}

static void fuzz_userd(const uint8_t *data, size_t size, int limit2)
{
	uint8_t *u = calloc(1, NVM_USERD_SIZE);
	if (!u)
		return;
	memcpy(u, data, size < NVM_USERD_SIZE ? size : NVM_USERD_SIZE);
	nvm_userd_info ui;
	nvm_userd_decode(u, &ui);
	nvm_hf_problem p[4];
	size_t n = nvm_userd_check(u, limit2, p, 4);
	check(n <= 2 && (limit2 >= 0 || n == 0), "USERD problem count");
	problems_ok(p, n, NVM_USERD_SIZE / 4);
	fields_ok(NVM_HF_USERD, u, NVM_USERD_SIZE);
	free(u);
}

static void fuzz_runlist(const uint8_t *data, size_t size)
{
	size_t count = size / NVM_RL_ENTRY_SIZE;
	uint8_t *rl = malloc(count ? count * NVM_RL_ENTRY_SIZE : 1);
	if (!rl)
		return;
	memcpy(rl, data, count * NVM_RL_ENTRY_SIZE);
	nvm_rl_walker w;
	nvm_rl_walk_init(&w);
	nvm_hf_problem step[NVM_RL_STEP_MAX];
	size_t total = 0;
	for (size_t i = 0; i < count; i++) {
		const uint8_t *raw = rl + i * NVM_RL_ENTRY_SIZE;
		nvm_rl_entry e;
		nvm_rl_entry_decode(raw, &e);
		uint8_t back[NVM_RL_ENTRY_SIZE];
		nvm_rl_entry_encode(&e, back);
		check(!memcmp(back, raw, NVM_RL_ENTRY_SIZE), "entry does not re-encode to its bytes");
		check(e.timeslice_ns >= 1024 || e.type != NVM_RL_TYPE_TSG, "timeslice below one unit");
		size_t n = nvm_rl_walk_step(&w, &e, step);
		check(n <= 2, "walker step problem count");
		problems_ok(step, n, (uint32_t)count);
		for (size_t k = 0; k < n; k++)
			check(step[k].where == i, "walker problem not at its entry");
		check(w.in_tsg == (w.tsg_left != 0), "walker open without channels to come");
		check(w.tsg_left <= 255 && w.next == i + 1, "walker state");
		check(!w.member || e.type == NVM_RL_TYPE_CHAN, "a TSG header as a member");
		total += n;
		n = nvm_rl_entry_check(&e, (uint32_t)i, step);
		check(n <= NVM_RL_STEP_MAX, "entry check problem count");
		problems_ok(step, n, (uint32_t)count);
		total += n;
	}
	size_t n = nvm_rl_walk_end(&w, step);
	check(n <= 1 && w.tsgs + w.chans == count, "walker totals");
	problems_ok(step, n, (uint32_t)count);
	total += n;
	check(nvm_rl_check(rl, count, NULL, 0) == total, "nvm_rl_check disagrees with the walker");
	free(rl);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int limit2 = (data[0] & 0x80) ? -1 : (data[0] & 0x1f);
	data++;
	size--;
	fuzz_ramin(data, size);
	fuzz_userd(data, size, limit2);
	if (size / NVM_RL_ENTRY_SIZE <= 1u << 16)
		fuzz_runlist(data, size);
	return 0;
}
