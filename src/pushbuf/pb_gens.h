/*
 * What the chip registry (src/chips/) names of the pushbuffer decoder: its
 * block kind and the profile of each chip (gens.c).
 */
#ifndef NVM_PB_GENS_H
#define NVM_PB_GENS_H

#include "core/core.h"
#include "nvmodel/pushbuf.h"

extern const struct block_class pb_decoder_class;
extern const nvm_pb_gen pb_gen_nv01, pb_gen_nv03, pb_gen_nv03t, pb_gen_nv04, pb_gen_nv10, pb_gen_nv11, pb_gen_nv17,
        pb_gen_nv40, pb_gen_nv41, pb_gen_g80, pb_gen_g84, pb_gen_g92, pb_gen_gt215, pb_gen_gv100, pb_gen_tu102,
        pb_gen_ga100, pb_gen_ga102, pb_gen_ad102, pb_gen_gh100, pb_gen_gb100, pb_gen_gb202;

/* The pushbuffer profile a chip row names (NULL if none): how a block that
 * feeds the decoder finds its chip's profile. */
const nvm_pb_gen *pb_chip_gen(const struct chip *chip);

#endif
