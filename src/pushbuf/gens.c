/*
 * The pushbuffer profiles: per chip, which forms its pushbuffers may use, its
 * native format and, for the new format, its host class and the classes the
 * subchannels hold before a SET_OBJECT. The chip registry (src/chips/) names
 * each chip's profile; nvm_pb_gen_lookup / nvm_pb_gen_get are served there.
 */
#include "pb_gens.h"
#include "pb_internal.h"

/* The decoder's block kind: no state, only the per-chip profile. */
const struct block_class pb_decoder_class = { .name = "pushbuf" };

const nvm_pb_gen *pb_chip_gen(const struct chip *chip)
{
	return chip_data(chip, &pb_decoder_class);
}

/* Which forms each chip profile accepts. Old format: envytools
 * dma-pusher.rst "The commands - pre-GF100 format" (old jump NV4+,
 * non-increasing NV10+, jump/call/return NV1A+ -- NV11 and NV17 come after
 * NV1A in that ordering, NV10 before -- SLI conditional NV40+, long
 * non-increasing G80+ in IB mode). New format: Fermi+ (seed 000). */
#define ACC_NV04 (NVM_PB_ACC_OLD)
#define ACC_NV10 (ACC_NV04 | NVM_PB_ACC_OLD_NINC)
#define ACC_NV11 (ACC_NV10 | NVM_PB_ACC_JUMP_CALL)
#define ACC_NV40 (ACC_NV11 | NVM_PB_ACC_SLI_COND)
#define ACC_G80  (ACC_NV40 | NVM_PB_ACC_LONG_NINC)

/* Subchannel defaults: NVIDIA's and nouveau's drivers bind 3D on 0, compute
 * on 1, inline-to-memory (M2MF on Fermi) on 2, 2D on 3 and the copy engine on
 * 4 (Mesa's vk_push_print assumes the same). ga100, ga102 and gh100 are
 * modelled (src/host/ga100.c ...); tu102, ad102 and the Blackwells are
 * for decoding only (UNVERIFIED: which classes each
 * generation exposes is driver knowledge, docs/fidelity.md). Hopper's host
 * class C86F is C76F's table with RM's published differences (the
 * generator's DERIVED); Blackwell's (C96F, CA6F) are not in the tables:
 * nvm_pb_host_class() names their methods from the newest that is (C86F). */
#define SUBCH(d3, comp, i2m, d2, copy)                                                                                 \
	{                                                                                                              \
		d3, comp, i2m, d2, copy, 0, 0, 0                                                                       \
	}

/* NV01 has no pushbuffer (PIO only, nv1-pfifo.rst); NV03's kernel-launched
 * DMA reads packets whose header the model takes to be NV4's increasing one
 * (UNVERIFIED, digest 8: DMA_STATE's fields match it bit for bit). */
const nvm_pb_gen pb_gen_nv01 = { "nv01", NVM_PB_FORMAT_OLD, 0, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv03 = { "nv03", NVM_PB_FORMAT_OLD, ACC_NV04, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv03t = { "nv03t", NVM_PB_FORMAT_OLD, ACC_NV04, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv04 = { "nv04", NVM_PB_FORMAT_OLD, ACC_NV04, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv10 = { "nv10", NVM_PB_FORMAT_OLD, ACC_NV10, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv11 = { "nv11", NVM_PB_FORMAT_OLD, ACC_NV11, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv17 = { "nv17", NVM_PB_FORMAT_OLD, ACC_NV11, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv40 = { "nv40", NVM_PB_FORMAT_OLD, ACC_NV40, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_nv41 = { "nv41", NVM_PB_FORMAT_OLD, ACC_NV40, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_g80 = { "g80", NVM_PB_FORMAT_OLD, ACC_G80, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_g84 = { "g84", NVM_PB_FORMAT_OLD, ACC_G80, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_g92 = { "g92", NVM_PB_FORMAT_OLD, ACC_G80, false, 0, { 0 }, false };
const nvm_pb_gen pb_gen_gt215 = { "gt215", NVM_PB_FORMAT_OLD, ACC_G80, false, 0, { 0 }, false };
/* UNVERIFIED: Volta accepts only the new format: seed 000 lists no
 * old-format forms and dev_pbdma's PBENTRY text calls a header "in an
 * obsolete format" invalid (GF100 still took old increasing headers,
 * envytools "GF100 commands"). */
const nvm_pb_gen pb_gen_gv100 = {
	"gv100", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, false, 0xc36f, SUBCH(0xc397, 0xc3c0, 0xa140, 0x902d, 0xc3b5), false
};
const nvm_pb_gen pb_gen_tu102 = {
	"tu102", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, false, 0xc46f, SUBCH(0xc597, 0xc5c0, 0xa140, 0x902d, 0xc5b5), false
};
const nvm_pb_gen pb_gen_ga100 = {
	"ga100", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, false, 0xc56f, SUBCH(0xc697, 0xc6c0, 0xa140, 0x902d, 0xc6b5), false
};
const nvm_pb_gen pb_gen_ga102 = {
	"ga102", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, false, 0xc76f, SUBCH(0xc797, 0xc7c0, 0xa140, 0x902d, 0xc7b5), false
};
const nvm_pb_gen pb_gen_ad102 = {
	"ad102", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, true, 0xc76f, SUBCH(0xc997, 0xc9c0, 0xa140, 0x902d, 0xc7b5), false
};
const nvm_pb_gen pb_gen_gh100 = {
	"gh100", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, false, 0xc86f, SUBCH(0xcb97, 0xcbc0, 0xa140, 0x902d, 0xc8b5), true
};
const nvm_pb_gen pb_gen_gb100 = {
	"gb100", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, true, 0xc96f, SUBCH(0xcd97, 0xcdc0, 0xa140, 0x902d, 0xc9b5), false
};
const nvm_pb_gen pb_gen_gb202 = {
	"gb202", NVM_PB_FORMAT_NEW, NVM_PB_ACC_NEW, true, 0xca6f, SUBCH(0xce97, 0xcec0, 0xa140, 0x902d, 0xcab5), false
};
