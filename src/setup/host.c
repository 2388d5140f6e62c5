/*
 * Channels of the Host generations as a driver starts them (include/
 * nvmodel/setup.h): instance block, USERD, GPFIFO ring, runlists, doorbells.
 *
 * RAMIN, RAMFC, runlist entries and GP entries are the same from gv100 to
 * gh100 up to what the RAMFC layout of each chip says (host_fmt.h: whether
 * RAMFC holds USERD, whether LIMIT2 moved to GP_INFO); the offsets come from
 * that layout. What a driver does differently per generation is a row of
 * hosts[] below: nouveau's values and its register sequences (gv100 / tu102
 * / ga100 fifo code; RM's for gh100, which reuses GA100's runlist paths),
 * with the operations that changed as functions, as nvkm does.
 */
#include <string.h>

#include "nvmodel/setup.h"
#include "setup/setup_internal.h"

typedef struct host_gen host_gen;

typedef struct host_ops {
	nvm_status (*init)(nvm_gpu *gpu);
	nvm_status (*bind)(nvm_gpu *gpu, const nvm_setup_channel *ch);
	nvm_status (*enable)(nvm_gpu *gpu, const nvm_setup_channel *ch);
	nvm_status (*disable)(nvm_gpu *gpu, const nvm_setup_channel *ch);
	nvm_status (*submit)(nvm_gpu *gpu, unsigned id, nvm_place rl, uint32_t length);
	nvm_status (*pending)(nvm_gpu *gpu, unsigned id, bool *pending);
	nvm_status (*doorbell)(nvm_gpu *gpu, const nvm_setup_channel *ch);
} host_ops;

struct host_gen {
	const char *name;
	unsigned nrunlist, nchid;
	int chram;
	uint32_t subdevice;  /* NV_RAMFC_SUBDEVICE ID the driver writes */
	uint32_t ramfc_dw62; /* RAMFC dword 62 (0x0f8) */
	const host_ops *ops;
};

static uint32_t lo32(uint64_t v)
{
	return (uint32_t)v;
}

static uint32_t hi32(uint64_t v)
{
	return (uint32_t)(v >> 32);
}

/* The runlist id a channel's doorbell and channel RAM name: the one it was
 * made for, else the one it was submitted on, else dflt. */
static unsigned chan_runlist(const nvm_setup_channel *ch, unsigned dflt)
{
	return ch->runlist >= 0 ? (unsigned)ch->runlist : ch->submitted >= 0 ? (unsigned)ch->submitted : dflt;
}

/* ---------------------------------------------------------------- gv100, tu102: PCCSR */

/* NV_PCCSR_CHANNEL_INST(chid) at 0x800000 + chid*8: PTR 27:0 = inst >> 12, TARGET 29:28, BIND 31:31. */
static nvm_status pccsr_bind(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	return nvm_reg_write(gpu, 0x800000 + 8 * ch->chid,
	                     0x80000000u | (uint32_t)ch->inst.target << 28 | (uint32_t)(ch->inst.addr >> 12));
}

/* NV_PCCSR_CHANNEL(chid) at 0x800004 + chid*8: ENABLE_SET 10:10, ENABLE_CLR 11:11. */
static nvm_status pccsr_enable(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	return nvm_reg_write(gpu, 0x800004 + 8 * ch->chid, 0x400);
}

static nvm_status pccsr_disable(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	return nvm_reg_write(gpu, 0x800004 + 8 * ch->chid, 0x800);
}

/* gv100_dev_fifo NV_PFIFO_RUNLIST_BASE (0x2270): PTR 27:0 = addr >> 12, TARGET 29:28; then
 * NV_PFIFO_RUNLIST (0x2274): LENGTH 15:0, ID 23:20 (this write starts the fetch). */
static nvm_status gv100_submit(nvm_gpu *gpu, unsigned id, nvm_place rl, uint32_t length)
{
	if (rl.addr >> 40)
		return NVM_ERR_RANGE;
	nvm_status st = nvm_reg_write(gpu, 0x2270, (uint32_t)rl.target << 28 | (uint32_t)(rl.addr >> 12));
	return st ? st : nvm_reg_write(gpu, 0x2274, id << 20 | length);
}

/* NV_PFIFO_ENG_RUNLIST(id) at 0x2284 + id*8: PENDING 20:20. */
static nvm_status gv100_pending(nvm_gpu *gpu, unsigned id, bool *pending)
{
	uint32_t v;
	nvm_status st = nvm_reg_read(gpu, 0x2284 + 8 * id, &v);
	*pending = (v >> 20) & 1;
	return st;
}

/* gv100_dev_usermode NV_USERMODE_NOTIFY_CHANNEL_PENDING (0x810090) ID 31:0 = the channel id. */
static nvm_status gv100_doorbell(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	return nvm_reg_write(gpu, 0x810090, ch->chid);
}

/* tu102_fifo_init_pbdmas: NV_CTRL_VIRTUAL_CHANNEL_CFG(0) PENDING_ENABLE 31:31 (0xB65000, tu104 dev_ctrl). */
static nvm_status tu102_init(nvm_gpu *gpu)
{
	uint32_t v;
	nvm_status st = nvm_reg_read(gpu, 0xb65000, &v);
	return st ? st : nvm_reg_write(gpu, 0xb65000, v | 1u << 31);
}

/* tu104 dev_fifo NV_PFIFO_RUNLIST_BASE_LO(i) 0x2B00+16i: PTR_LO 31:12, TARGET 1:0;
 * _BASE_HI(i) 0x2B04+16i: PTR_HI 7:0; _SUBMIT(i) 0x2B08+16i: LENGTH 15:0 (nouveau
 * tu102_runl_commit: lo, hi, count). */
static nvm_status tu102_submit(nvm_gpu *gpu, unsigned id, nvm_place rl, uint32_t length)
{
	if (rl.addr >> 40)
		return NVM_ERR_RANGE;
	nvm_status st = nvm_reg_write(gpu, 0x2b00 + 16 * id, lo32(rl.addr) | (uint32_t)rl.target);
	if (!st)
		st = nvm_reg_write(gpu, 0x2b04 + 16 * id, hi32(rl.addr));
	return st ? st : nvm_reg_write(gpu, 0x2b08 + 16 * id, length);
}

/* _SUBMIT_INFO(i) 0x2B0C+16i: PENDING 15:15. */
static nvm_status tu102_pending(nvm_gpu *gpu, unsigned id, bool *pending)
{
	uint32_t v;
	nvm_status st = nvm_reg_read(gpu, 0x2b0c + 16 * id, &v);
	*pending = (v >> 15) & 1;
	return st;
}

/* The doorbell handle RUNLIST_ID 22:16 | CHID 11:0 (tu104 dev_usermode), written to
 * NV_VIRTUAL_FUNCTION_DOORBELL, BAR0 0xB80000 + 0x30000 + 0x90 (nouveau vfn/tu102.c,
 * tu102_chan_doorbell_handle); RUNLIST_ID_ALL (15) when the runlist is not known. */
static nvm_status tu102_doorbell(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	return nvm_reg_write(gpu, 0xbb0090, chan_runlist(ch, 15) << 16 | ch->chid);
}

/* ---------------------------------------------------------------- ga100, ga102, gh100 */

/* NV_PTOP_DEVICE_INFO_CFG (0x224FC) NUM_ROWS 31:20; rows at 0x22800 + 4i, an entry's
 * rows chained by bit 31, its third row the RUNLIST PRI base 23:10 (nouveau top/ga100.c).
 * From the space: CHRAM (NV_RUNLIST_CHANNEL_CONFIG 31:4) and the doorbell id
 * (NV_RUNLIST_DOORBELL_CONFIG ID 31:16). */
nvm_status nvm_runlist_space_get(nvm_gpu *gpu, unsigned id, nvm_runlist_space *out, unsigned *count)
{
	uint32_t cfg, v, bases[64];
	unsigned nbase = 0, row = 0;
	if (!gpu || !out)
		return NVM_ERR_ARG;
	nvm_status st = nvm_reg_read(gpu, 0x224fc, &cfg);
	if (st)
		return st;
	for (uint32_t i = 0; i < cfg >> 20; i++) {
		if ((st = nvm_reg_read(gpu, 0x22800 + 4 * i, &v)))
			return st;
		if (++row == 3) {
			uint32_t b = v & 0x00fffc00u;
			unsigned k = 0;
			while (k < nbase && bases[k] != b)
				k++;
			if (k == nbase && nbase < sizeof(bases) / sizeof(bases[0]))
				bases[nbase++] = b;
		}
		if (!(v >> 31))
			row = 0;
	}
	if (count)
		*count = nbase;
	if (id >= nbase)
		return NVM_ERR_NOENT;
	out->base = bases[id];
	if ((st = nvm_reg_read(gpu, out->base + 4, &v)))
		return st;
	out->chram = v & 0xfffffff0u;
	if ((st = nvm_reg_read(gpu, out->base + 8, &v)))
		return st;
	out->dbid = v >> 16;
	return NVM_OK;
}

/* ga100_dev_runlist as nouveau writes it: no channel RAM instance pointer (the runlist
 * entry carries INST and USERD: bind does nothing); start = NV_CHRAM_CHANNEL(chid)
 * ENABLE_CHANNEL 0x2, then NV_RUNLIST_INTERNAL_DOORBELL (+0x090) = CHID (ga100_chan_start);
 * stop = DISABLE_CHANNEL 0x3. */
static nvm_status chram_bind(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	(void)gpu;
	(void)ch;
	return NVM_OK;
}

static nvm_status chram_enable(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	nvm_runlist_space r;
	nvm_status st = nvm_runlist_space_get(gpu, chan_runlist(ch, 0), &r, NULL);
	if (!st)
		st = nvm_reg_write(gpu, r.chram + 4 * ch->chid, 0x2);
	return st ? st : nvm_reg_write(gpu, r.base + 0x090, ch->chid);
}

static nvm_status chram_disable(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	nvm_runlist_space r;
	nvm_status st = nvm_runlist_space_get(gpu, chan_runlist(ch, 0), &r, NULL);
	return st ? st : nvm_reg_write(gpu, r.chram + 4 * ch->chid, 0x3);
}

/* SUBMIT_BASE_LO (+0x080) PTR_LO 31:12 | TARGET 1:0, _BASE_HI (+0x084), SUBMIT (+0x088)
 * LENGTH (ga100_runl_commit). */
static nvm_status ga100_submit(nvm_gpu *gpu, unsigned id, nvm_place rl, uint32_t length)
{
	nvm_runlist_space r;
	nvm_status st = nvm_runlist_space_get(gpu, id, &r, NULL);
	if (!st)
		st = nvm_reg_write(gpu, r.base + 0x080, lo32(rl.addr) | (uint32_t)rl.target);
	if (!st)
		st = nvm_reg_write(gpu, r.base + 0x084, hi32(rl.addr));
	return st ? st : nvm_reg_write(gpu, r.base + 0x088, length);
}

/* SUBMIT_INFO (+0x08C) PENDING 15:15. */
static nvm_status ga100_pending(nvm_gpu *gpu, unsigned id, bool *pending)
{
	nvm_runlist_space r;
	uint32_t v = 0;
	nvm_status st = nvm_runlist_space_get(gpu, id, &r, NULL);
	if (!st)
		st = nvm_reg_read(gpu, r.base + 0x08c, &v);
	*pending = (v >> 15) & 1;
	return st;
}

/* NV_VIRTUAL_FUNCTION_DOORBELL (0xB80000 + 0x30090) = DOORBELL_CONFIG ID << 16 | chid
 * (ga100_chan_doorbell_handle). */
static nvm_status ga100_doorbell(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	nvm_runlist_space r;
	nvm_status st = nvm_runlist_space_get(gpu, chan_runlist(ch, 0), &r, NULL);
	return st ? st : nvm_reg_write(gpu, 0xbb0090, r.dbid << 16 | ch->chid);
}

/* ---------------------------------------------------------------- the generations */

static const host_ops gv100_ops = { NULL,         pccsr_bind,    pccsr_enable,  pccsr_disable,
	                            gv100_submit, gv100_pending, gv100_doorbell };
static const host_ops tu102_ops = { tu102_init,   pccsr_bind,    pccsr_enable,  pccsr_disable,
	                            tu102_submit, tu102_pending, tu102_doorbell };
static const host_ops ga100_ops = { NULL,         chram_bind,    chram_enable,  chram_disable,
	                            ga100_submit, ga100_pending, ga100_doorbell };

/* nrunlist: NV_PFIFO_ENG_RUNLIST__SIZE_1 (gv100), NV_PFIFO_RUNLIST_BASE_LO__SIZE_1 (tu102),
 * the runlists the model's device-info table publishes (Ampere, Hopper). nchid:
 * NV_PCCSR_CHANNEL__SIZE_1 4096; Ampere NV_CHRAM_CHANNEL__SIZE_1 2048 per runlist.
 * subdevice: nouveau writes 0xfff; RM on Hopper ID 1 (bit 0 on a single GPU, silicon H100).
 * RAMFC dword 62: UNVERIFIED: nouveau writes 0x10003080 (RESERVED62 in Turing's manual, no
 * name in gv100's); ga100_chan_ramfc_write writes 0x80000000 | the runlist's non-stall
 * vector to 0x0f8 (NV_PPBDMA_INTR_NOTIFY); UNVERIFIED: vector 0 (the model has no NV_CTRL tree). */
static const host_gen hosts[] = {
	{ "gv100", 13, 4096, 0, 0xfff, 0x10003080u, &gv100_ops },
	{ "tu102", 11, 4096, 0, 0xfff, 0x10003080u, &tu102_ops },
	{ "ga100", 5, 2048, 1, 0xfff, 0x80000000u, &ga100_ops },
	{ "ga102", 5, 2048, 1, 0xfff, 0x80000000u, &ga100_ops },
	{ "gh100", 5, 2048, 1, 1, 0x80000000u, &ga100_ops },
};

static const host_gen *host_of(const nvm_gpu *gpu)
{
	const nvm_chip_info *c = gpu ? nvm_gpu_chip(gpu) : NULL;
	for (size_t i = 0; c && i < sizeof(hosts) / sizeof(hosts[0]); i++)
		if (!strcmp(hosts[i].name, c->name))
			return &hosts[i];
	return NULL;
}

/* Byte offset of the word of layout l named name, or -1. */
static long word_off(const nvm_hf_layout *l, const char *name)
{
	for (size_t i = 0; l && i < l->nwords; i++)
		if (l->words[i].name && !strcmp(l->words[i].name, name))
			return 4L * l->words[i].dword;
	return -1;
}

nvm_status nvm_setup_host_get(const nvm_gpu *gpu, nvm_setup_host_info *out)
{
	const host_gen *h = host_of(gpu);
	if (!out)
		return NVM_ERR_ARG;
	if (!h)
		return NVM_ERR_CHIP;
	const nvm_hf_layout *fc = nvm_hf_layout_chip(h->name, NVM_HF_RAMFC);
	*out = (nvm_setup_host_info){ .name = h->name,
		                      .nrunlist = h->nrunlist,
		                      .nchid = h->nchid,
		                      .ramfc_userd = word_off(fc, "NV_RAMFC_USERD") >= 0,
		                      .per_runlist_chram = h->chram,
		                      .subdevice = h->subdevice };
	return NVM_OK;
}

nvm_status nvm_setup_host_init(nvm_gpu *gpu)
{
	const host_gen *h = host_of(gpu);
	if (!h)
		return NVM_ERR_CHIP;
	return h->ops->init ? h->ops->init(gpu) : NVM_OK;
}

/* ---------------------------------------------------------------- instance block */

void nvm_instance_desc_init(nvm_instance_desc *d)
{
	*d = (nvm_instance_desc){ .priv = 1, .subdevice = -1, .vol = -1, .subcontexts = 1, .ctx_valid = 1 };
}

static int is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

nvm_status nvm_instance_write(nvm_gpu *gpu, nvm_place inst, const nvm_instance_desc *d)
{
	const host_gen *h = host_of(gpu);
	nvm_aperture ap;
	if (!h)
		return NVM_ERR_CHIP;
	if (!d || nvm_target_aperture(inst.target, &ap) || nvm_target_aperture(d->pdb.target, &ap) ||
	    nvm_target_aperture(d->userd.target, &ap))
		return NVM_ERR_ARG;
	if (inst.addr >> 40 || d->userd.addr >> 40 || d->gpfifo_va >> 40 || d->pdb.addr >= SETUP_PA_LIMIT)
		return NVM_ERR_RANGE;
	/* NV_RAMIN_BASE_SHIFT 12, NV_RAMUSERD_BASE_SHIFT 9, GP_BASE OFFSET 31:3 */
	if (inst.addr & 0xfff || d->pdb.addr & 0xfff || d->userd.addr & 0x1ff || d->gpfifo_va & 7)
		return NVM_ERR_ALIGN;
	if (!is_pow2(d->gpfifo_entries) || d->chid >= 4096 || d->subcontexts > NVM_RAMIN_SUBCTX ||
	    d->subdevice > 0xfff || d->subdevice < -1)
		return NVM_ERR_ARG;
	const nvm_hf_layout *fc = nvm_hf_layout_chip(h->name, NVM_HF_RAMFC);
	enum {
		USERD,
		USERD_HI,
		SIGNATURE,
		ACQUIRE,
		GP_BASE,
		GP_BASE_HI,
		GP_INFO,
		PB_HEADER,
		SUBDEVICE,
		TARGET,
		HCE_CTRL,
		CONFIG,
		NWORD
	};
	static const char *const names[NWORD] = {
		"NV_RAMFC_USERD",     "NV_RAMFC_USERD_HI",   "NV_RAMFC_SIGNATURE", "NV_RAMFC_ACQUIRE",
		"NV_RAMFC_GP_BASE",   "NV_RAMFC_GP_BASE_HI", "NV_RAMFC_GP_INFO",   "NV_RAMFC_PB_HEADER",
		"NV_RAMFC_SUBDEVICE", "NV_RAMFC_TARGET",     "NV_RAMFC_HCE_CTRL",  "NV_RAMFC_CONFIG",
	};
	long off[NWORD];
	for (unsigned i = 0; i < NWORD; i++) {
		off[i] = word_off(fc, names[i]);
		/* USERD (before Ampere) and GP_INFO (Hopper) are where the layout has them. */
		if (off[i] < 0 && i != USERD && i != USERD_HI && i != GP_INFO)
			return NVM_ERR_CHIP;
	}
	unsigned limit2 = 0;
	while ((1ull << limit2) < d->gpfifo_entries)
		limit2++;
	uint32_t subdevice = d->subdevice < 0 ? h->subdevice : (uint32_t)d->subdevice;
	/* nouveau (gf100_vmm_join_) sets PAGE_DIR_BASE_VOL when the directory is in coherent system memory. */
	int vol = d->vol < 0 ? d->pdb.target == NVM_MMU_TGT_SYS_COH : !!d->vol;
	uint32_t w[NVM_RAMIN_SIZE / 4] = { 0 };

	/* RAMFC (seed 000 section 3), the words nouveau writes (volta-facts.md section 3); fields from dev_pbdma. */
	if (off[USERD] >= 0) {
		w[off[USERD] / 4] = lo32(d->userd.addr) | (uint32_t)d->userd.target; /* TARGET 1:0, ADDR 31:9 */
		w[off[USERD_HI] / 4] = hi32(d->userd.addr);                          /* ADDR 7:0 */
	}
	w[off[SIGNATURE] / 4] = 0x0000face; /* HW 15:0 = VALID (0xFACE), SW 31:16 = 0 */
	/* RETRY_MAN 6:0 = 2, RETRY_EXP 10:7 = 2, TIMEOUT_EXP 14:11 = 15, TIMEOUT_MAN 30:15 = 0xFFFF,
	 * TIMEOUT_EN 31 = DISABLE */
	w[off[ACQUIRE] / 4] = 0x7ffff902;
	w[off[GP_BASE] / 4] = lo32(d->gpfifo_va); /* OFFSET 31:3 */
	if (off[GP_INFO] >= 0) {
		/* RM's kfifoWriteRamfcGpfifo_GH100: GP_BASE_HI OFFSET 24:0 only, GP_INFO LIMIT2 4:0. */
		w[off[GP_BASE_HI] / 4] = hi32(d->gpfifo_va);
		w[off[GP_INFO] / 4] = limit2;
	} else {
		w[off[GP_BASE_HI] / 4] = hi32(d->gpfifo_va) | limit2 << 16; /* OFFSET 7:0, LIMIT2 20:16 */
	}
	w[off[PB_HEADER] / 4] = 0x20400000; /* TYPE 31:29 = INC, FIRST 22:22 = TRUE */
	/* ID 11:0, STATUS 28:28 = ACTIVE, CHANNEL_DMA 29:29 = ENABLE */
	w[off[SUBDEVICE] / 4] = 0x30000000u | subdevice;
	/* TARGET: ENG_CTX_VALID 16:16 and CE_CTX_VALID 17:17, as nouveau sets them once the engine
	 * context / CE method buffer exist (volta-facts.md section 3); without them an engine
	 * method raises PBDMA INTR_1 CTXNOTVALID. */
	w[off[TARGET] / 4] = d->ctx_valid ? 0x30000 : 0;
	w[off[HCE_CTRL] / 4] = d->priv ? 0x20 : 0; /* HCE_PRIV_MODE 5:5 */
	/* UNVERIFIED: dword 58 has no name in the manuals; nouveau writes the chid there. */
	w[58] = d->chid;
	w[off[CONFIG] / 4] = 0x1000u | (d->priv ? 0x100u : 0); /* USERD_WRITEBACK 12:12 = ENABLE, AUTH_LEVEL 8:8 */
	w[62] = h->ramfc_dw62;

	/* NV_RAMIN_PAGE_DIR_BASE (dword 128): TARGET 1:0, VOL 2:2, FAULT_REPLAY_TEX 4:4,
	 * FAULT_REPLAY_GCC 5:5, USE_VER2_PT_FORMAT 10:10 = TRUE, BIG_PAGE_SIZE 11:11 = 64KB,
	 * PAGE_DIR_BASE_LO 31:12; PAGE_DIR_BASE_HI is dword 129. */
	uint32_t replay = d->replay ? 1 : 0;
	uint32_t dir = (lo32(d->pdb.addr) & 0xfffff000u) | (uint32_t)d->pdb.target | (uint32_t)vol << 2 | replay << 4 |
	               replay << 5 | 1u << 10 | 1u << 11;
	w[128] = dir;
	w[129] = hi32(d->pdb.addr);
	/* NV_RAMIN_SC_PAGE_DIR_BASE_*(i) at dwords 168 + 4i / 169 + 4i, same layout: the first
	 * `subcontexts` get this directory and an SC_PDB_VALID bit (dwords 166-167); the others
	 * are TARGET = INVALID ("unbinds the selected subcontext"), as nouveau does. */
	uint64_t valid = 0;
	for (unsigned i = 0; i < NVM_RAMIN_SUBCTX; i++) {
		if (i < d->subcontexts) {
			w[168 + 4 * i] = dir;
			w[169 + 4 * i] = hi32(d->pdb.addr);
			valid |= 1ull << i;
		} else {
			w[168 + 4 * i] = 1;
		}
	}
	w[166] = lo32(valid);
	w[167] = hi32(valid);
	uint8_t b[NVM_RAMIN_SIZE];
	for (unsigned i = 0; i < NVM_RAMIN_SIZE; i++)
		b[i] = (uint8_t)(w[i / 4] >> (8 * (i % 4)));
	return setup_write(gpu, inst, b, sizeof(b));
}

/* ---------------------------------------------------------------- channels */

void nvm_channel_desc_init(nvm_channel_desc *d)
{
	*d = (nvm_channel_desc){ .runlist = -1,
		                 .gpfifo_entries = 512,
		                 .pb_size = 0x10000,
		                 .priv = 1,
		                 .subdevice = -1,
		                 .subcontexts = 1,
		                 .bind = 1,
		                 .enable = 1 };
}

nvm_status nvm_channel_create(nvm_gpu *gpu, nvm_gmmu_vm *vm, nvm_heap *heap, const nvm_channel_desc *d,
                              nvm_setup_channel *out)
{
	const host_gen *h = host_of(gpu);
	if (!h)
		return NVM_ERR_CHIP;
	if (!vm || !d || !out)
		return NVM_ERR_ARG;
	if (d->chid >= h->nchid || d->runq > 1 || d->runlist >= (int)h->nrunlist || d->runlist < -1 ||
	    d->gpfifo_entries < 2 || !is_pow2(d->gpfifo_entries) || !d->pb_size || d->pb_size & 3)
		return NVM_ERR_ARG;
	nvm_place pdb = nvm_gmmu_vm_pdb(vm);
	if (!heap)
		heap = setup_vm_heap(vm);
	nvm_heap *uheap = d->userd_heap ? d->userd_heap : heap;
	nvm_setup_channel ch = { .chid = d->chid, .runq = d->runq, .runlist = d->runlist, .submitted = -1 };
	uint64_t inst, userd;
	nvm_status st;
	/* NV_RAMIN_BASE_SHIFT 12, NV_RAMIN_ALLOC_SIZE 4096; NV_RAMUSERD_CHAN_SIZE 512, _BASE_SHIFT 9 */
	if ((st = nvm_heap_alloc(heap, NVM_RAMIN_SIZE, 4096, &inst)) ||
	    (st = nvm_heap_alloc(uheap, NVM_USERD_SIZE, 512, &userd)))
		return st;
	ch.inst = (nvm_place){ heap->target, inst };
	ch.userd = (nvm_place){ uheap->target, userd };
	if ((st = setup_zero(gpu, ch.userd, NVM_USERD_SIZE)))
		return st;
	ch.gpfifo_entries = d->gpfifo_entries;
	ch.pb_size = d->pb_size;
	if ((st = nvm_gmmu_alloc_map(gpu, vm, heap, 8ull * d->gpfifo_entries, NULL, &ch.gpfifo_va, &ch.gpfifo)) ||
	    (st = nvm_gmmu_alloc_map(gpu, vm, heap, d->pb_size, NULL, &ch.pb_va, &ch.pb)))
		return st;
	nvm_instance_desc id;
	nvm_instance_desc_init(&id);
	id.pdb = pdb;
	id.userd = ch.userd;
	id.gpfifo_va = ch.gpfifo_va;
	id.gpfifo_entries = ch.gpfifo_entries;
	id.chid = ch.chid;
	id.priv = d->priv;
	id.subdevice = d->subdevice;
	id.replay = d->replay;
	id.subcontexts = d->subcontexts;
	if ((st = nvm_instance_write(gpu, ch.inst, &id)))
		return st;
	*out = ch;
	if (d->bind && (st = nvm_channel_bind(gpu, out)))
		return st;
	if (d->bind && d->enable && (st = nvm_channel_enable(gpu, out)))
		return st;
	return NVM_OK;
}

nvm_status nvm_channel_bind(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	const host_gen *h = host_of(gpu);
	return !h ? NVM_ERR_CHIP : !ch || ch->chid >= h->nchid ? NVM_ERR_ARG : h->ops->bind(gpu, ch);
}

nvm_status nvm_channel_enable(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	const host_gen *h = host_of(gpu);
	return !h ? NVM_ERR_CHIP : !ch || ch->chid >= h->nchid ? NVM_ERR_ARG : h->ops->enable(gpu, ch);
}

nvm_status nvm_channel_disable(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	const host_gen *h = host_of(gpu);
	return !h ? NVM_ERR_CHIP : !ch || ch->chid >= h->nchid ? NVM_ERR_ARG : h->ops->disable(gpu, ch);
}

/* Byte offset of NV_RAMUSERD_<name> in gpu's USERD layout. */
static nvm_status userd_off(nvm_gpu *gpu, const char *name, uint32_t *off)
{
	const host_gen *h = host_of(gpu);
	long o = h ? word_off(nvm_hf_layout_chip(h->name, NVM_HF_USERD), name) : -1;
	if (o < 0)
		return NVM_ERR_CHIP;
	*off = (uint32_t)o;
	return NVM_OK;
}

nvm_status nvm_channel_userd_rd32(nvm_gpu *gpu, const nvm_setup_channel *ch, uint32_t off, uint32_t *val)
{
	nvm_aperture ap;
	if (!gpu || !ch || !val || off > NVM_USERD_SIZE - 4)
		return NVM_ERR_ARG;
	nvm_status st = nvm_target_aperture(ch->userd.target, &ap);
	return st ? st : nvm_mem_rd32(gpu, ap, ch->userd.addr + off, val);
}

nvm_status nvm_channel_kick(nvm_gpu *gpu, const nvm_setup_channel *ch)
{
	const host_gen *h = host_of(gpu);
	uint32_t off;
	if (!h)
		return NVM_ERR_CHIP;
	if (!ch)
		return NVM_ERR_ARG;
	/* NV_RAMUSERD_GP_PUT, then the generation's doorbell (gv100/tu104 dev_usermode). */
	nvm_status st = userd_off(gpu, "NV_RAMUSERD_GP_PUT", &off);
	if (!st)
		st = setup_wr32(gpu, (nvm_place){ ch->userd.target, ch->userd.addr + off }, ch->put);
	return st ? st : h->ops->doorbell(gpu, ch);
}

/* Room for one more entry: advancing put must not reach GP_GET as Host
 * writes it back to USERD. *get gets GP_GET. */
static nvm_status ring_room(nvm_gpu *gpu, const nvm_setup_channel *ch, uint32_t *get)
{
	uint32_t off;
	nvm_status st = userd_off(gpu, "NV_RAMUSERD_GP_GET", &off);
	if (!st)
		st = nvm_channel_userd_rd32(gpu, ch, off, get);
	if (st)
		return st;
	return (ch->put + 1) % ch->gpfifo_entries == *get ? NVM_ERR_FULL : NVM_OK;
}

nvm_status nvm_channel_push_entry(nvm_gpu *gpu, nvm_setup_channel *ch, uint32_t e0, uint32_t e1, bool kick,
                                  uint32_t *index)
{
	uint32_t get;
	if (!gpu || !ch || !ch->gpfifo_entries || ch->put >= ch->gpfifo_entries)
		return NVM_ERR_ARG;
	nvm_status st = ring_room(gpu, ch, &get);
	if (!st)
		st = setup_wr32(gpu, (nvm_place){ ch->gpfifo.target, ch->gpfifo.addr + 8ull * ch->put }, e0);
	if (!st)
		st = setup_wr32(gpu, (nvm_place){ ch->gpfifo.target, ch->gpfifo.addr + 8ull * ch->put + 4 }, e1);
	if (st)
		return st;
	if (index)
		*index = ch->put;
	ch->put = (ch->put + 1) % ch->gpfifo_entries;
	return kick ? nvm_channel_kick(gpu, ch) : NVM_OK;
}

nvm_status nvm_channel_push(nvm_gpu *gpu, nvm_setup_channel *ch, const void *data, size_t len, const nvm_gp_opts *o,
                            bool kick, uint32_t *index, uint64_t *va)
{
	uint32_t get, e0, e1;
	if (!gpu || !ch || !data || !len || len & 3 || !ch->gpfifo_entries || ch->put >= ch->gpfifo_entries ||
	    ch->pb_next > ch->pb_size)
		return NVM_ERR_ARG;
	nvm_status st = ring_room(gpu, ch, &get);
	if (st)
		return st;
	if (len > ch->pb_size)
		return NVM_ERR_RANGE;
	if (ch->pb_next + len > ch->pb_size) {
		/* Start again at the beginning only once Host has processed every entry pushed so far. */
		if (get != ch->put)
			return NVM_ERR_FULL;
		ch->pb_next = 0;
	}
	uint64_t v = ch->pb_va + ch->pb_next;
	if ((st = nvm_gp_entry(v, (uint32_t)(len / 4), o, &e0, &e1)) ||
	    (st = setup_write(gpu, (nvm_place){ ch->pb.target, ch->pb.addr + ch->pb_next }, data, len)))
		return st;
	ch->pb_next += len;
	if (va)
		*va = v;
	return nvm_channel_push_entry(gpu, ch, e0, e1, kick, index);
}

/* ---------------------------------------------------------------- runlists */

void nvm_rl_tsg(nvm_rl_entry *e, uint32_t tsgid, unsigned length, unsigned timeout, unsigned scale)
{
	/* NV_RAMRL_ENTRY_TSG_*: TYPE 0:0 = TSG, TIMESLICE_SCALE 19:16, TIMESLICE_TIMEOUT 31:24;
	 * TSG_LENGTH 7:0; TSGID 11:0 */
	*e = (nvm_rl_entry){ .type = NVM_RL_TYPE_TSG,
		             .id = tsgid,
		             .tsg_length = length,
		             .timeslice_timeout = timeout,
		             .timeslice_scale = scale };
}

void nvm_rl_chan(nvm_rl_entry *e, uint32_t chid, unsigned runq, nvm_place inst, nvm_place userd)
{
	/* NV_RAMRL_ENTRY_CHAN_*: TYPE 0:0 = CHAN, RUNQUEUE_SELECTOR 1:1, INST_TARGET 5:4,
	 * USERD_TARGET 7:6, USERD_PTR_LO 31:8, USERD_PTR_HI; CHID 11:0, INST_PTR_LO 31:12, INST_PTR_HI */
	*e = (nvm_rl_entry){ .type = NVM_RL_TYPE_CHAN,
		             .id = chid,
		             .runqueue_selector = runq,
		             .inst_target = (unsigned)inst.target,
		             .inst_addr = inst.addr,
		             .userd_target = (unsigned)userd.target,
		             .userd_addr = userd.addr };
}

nvm_status nvm_runlist_write(nvm_gpu *gpu, nvm_heap *heap, const nvm_rl_entry *e, size_t n, nvm_place *out)
{
	uint64_t addr;
	if (!gpu || !heap || !out || (n && !e))
		return NVM_ERR_ARG;
	if (n > 0xffff) /* NV_PFIFO_RUNLIST_LENGTH 15:0 */
		return NVM_ERR_ARG;
	/* NV_RAMRL_ENTRY_SIZE 16; the base is 4 KiB aligned (NV_RAMRL_ENTRY_BASE_SHIFT 12). */
	nvm_status st = nvm_heap_alloc(heap, n ? NVM_RL_ENTRY_SIZE * n : NVM_RL_ENTRY_SIZE, 4096, &addr);
	if (st)
		return st;
	*out = (nvm_place){ heap->target, addr };
	for (size_t i = 0; i < n; i++) {
		uint8_t b[NVM_RL_ENTRY_SIZE];
		nvm_rl_entry_encode(&e[i], b);
		if ((st = setup_write(gpu, (nvm_place){ heap->target, addr + NVM_RL_ENTRY_SIZE * i }, b, sizeof(b))))
			return st;
	}
	return NVM_OK;
}

nvm_status nvm_runlist_submit(nvm_gpu *gpu, unsigned id, nvm_place rl, uint32_t length)
{
	const host_gen *h = host_of(gpu);
	nvm_aperture ap;
	if (!h)
		return NVM_ERR_CHIP;
	if (id >= h->nrunlist || length > 0xffff || nvm_target_aperture(rl.target, &ap))
		return NVM_ERR_ARG;
	return h->ops->submit(gpu, id, rl, length);
}

nvm_status nvm_runlist_pending(nvm_gpu *gpu, unsigned id, bool *pending)
{
	const host_gen *h = host_of(gpu);
	if (!h)
		return NVM_ERR_CHIP;
	if (id >= h->nrunlist || !pending)
		return NVM_ERR_ARG;
	return h->ops->pending(gpu, id, pending);
}
