/*
 * Fuzz target: the Hopper Host (gh100), as fuzz_host_ga100.c on gh100's
 * channel set-up: ver3 page tables, RAMFC GP_BASE_HI without LIMIT2 and
 * GP_INFO; GP control entries reach OPCODE 4 SET_PB_SEGMENT_EXTENDED_BASE
 * (clc86f.h), whose extended base moves later segments above 2^40.
 */
#define FZ_CHIP   "gh100"
#define FZ_HOPPER 1
#include "fuzz_host_ga100.c"
