/*
 * Driver-like method streams for the benchmarks (and for anyone who wants a
 * stream shaped like what Mesa / NVK / nouveau emit rather than bulk runs).
 *
 * ds_generate() writes a deterministic stream (a seeded PRNG, no clock):
 * a SET_OBJECT (new format) or object bind (old formats) per subchannel at
 * the start, then mostly short INC / NINC / IMMD runs of 1-8 methods (about
 * 4.9 methods per header on average) at method addresses of the bound
 * classes' tables (src/pushbuf), a host method now and then (references;
 * semaphore release/acquire pairs when a semaphore address is given), cut
 * into GP / IB entries or DMA kicks of 4-64 KiB. In the NV04 DMA format the
 * stream lives in a ring and wraps with a jump to the ring start, as the
 * drivers do.
 *
 * It also returns a checksum of every engine method: the sum over the
 * methods an engine must receive of ds_hash(subch, class, method, data).
 * ds_tap_install() wraps the engines of a GPU so that the same sum is taken
 * over what they do receive: a benchmark compares the two and fails loudly
 * if they differ (every method delivered, once, with its data). The model
 * is deterministic: a benchmark checks one tapped round of a stream and
 * times untapped rounds of the same stream (whose engine counts it checks).
 */
#ifndef NVM_BENCH_DRVSTREAM_H
#define NVM_BENCH_DRVSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/nvmodel.h"
#include "nvmodel/pushbuf.h"

enum ds_format {
	DS_FMT_NEW = 0,  /* Volta+ (Fermi+ format): GPFIFO entries -> PB segments */
	DS_FMT_NV04_DMA, /* NV04..NV4x DMA pusher: a ring kicked through PUT, a jump at wrap */
	DS_FMT_G80_IB,   /* G80 IB mode: IB entries -> pushbuffer segments (old method format) */
};

/* A class bound on a subchannel at the start of the stream. handle: the
 * object handle the old formats bind (the data of method 0); the new format
 * binds the class id. */
struct ds_bind {
	uint32_t subch;
	uint32_t cls;
	uint32_t handle;
	unsigned weight; /* share of the runs that go to this subchannel */
};

struct ds_config {
	enum ds_format format;
	uint32_t seed;
	size_t words;   /* pushbuffer dwords to produce (the stream ends at or just below) */
	uint64_t pb_va; /* address of the stream's first dword (NV04: the ring start, a
	                 * pushbuffer DMA object offset; G80 IB: the IB entries' address) */
	/* Bytes per GP / IB entry (DMA kick); 0: 4 KiB and 64 KiB. */
	uint32_t seg_min, seg_max;
	uint32_t ring_bytes; /* NV04 DMA: the ring's size; 0: 256 KiB */
	bool old_jump;       /* NV04 DMA: the NV04 jump (0x20000000 | addr) rather than NV1A+'s */
	/* Semaphore (16 bytes, new format only): release/acquire pairs now and
	 * then; 0: none (references only). */
	uint64_t sem_va;
	const struct ds_bind *binds; /* NULL: ds_default_binds(format) */
	unsigned nbinds;
};

/* A GP / IB entry, or for NV04 DMA a kick: words[off .. off + n) go to
 * address va, then the driver writes PUT = put (NV04 DMA; the ring start
 * after the jump at a wrap). */
struct ds_seg {
	uint64_t va;
	size_t off;
	uint32_t n;
	uint64_t put;
};

struct ds_stream {
	uint32_t *words; /* all dwords in the order they are written (malloc'd) */
	size_t nwords;
	struct ds_seg *segs; /* malloc'd */
	size_t nsegs;
	uint64_t headers;        /* method headers */
	uint64_t methods;        /* every method (host and engine) */
	uint64_t engine_methods; /* methods an engine must receive (at or above 0x100) */
	uint64_t host_methods;   /* methods below 0x100, the binds included */
	uint64_t checksum;       /* sum of ds_hash over the engine methods */
};

/* The binds a driver makes for a format (NVK on gv100: 3D, compute,
 * inline-to-memory, 2D, copy; nouveau on nv40 and g84: the 2D / M2MF /
 * compute objects the tables describe). *n gets the count. */
const struct ds_bind *ds_default_binds(enum ds_format f, unsigned *n);

/* Fills *out (freed by ds_free). Returns 0, or -1 (out of memory, a bind
 * whose class has no table, or words too small for the binds). */
int ds_generate(const struct ds_config *c, struct ds_stream *out);
void ds_free(struct ds_stream *s);

/* One engine method's share of the checksum: a mix of all four values, so
 * that a method dropped, repeated, sent to another address / subchannel /
 * class or with other data changes the sum. */
static inline uint64_t ds_hash(uint32_t subch, uint32_t cls, uint32_t method, uint32_t data)
{
	uint64_t x = ((uint64_t)((cls & 0xffffu) << 15 | (subch & 7u) << 12 | ((method >> 2) & 0xfffu)) << 32) | data;
	x *= 0x9e3779b97f4a7c15ull;
	x ^= x >> 29;
	x *= 0xbf58476d1ce4e5b9ull;
	return x ^ (x >> 32);
}

/* The checksum of data[first .. first + n) of run r, as an engine of class
 * cls receives it; methods below 0x100 (the old formats' object binds) do
 * not count. */
uint64_t ds_run_sum(uint32_t cls, const nvm_pb_run *r, uint32_t first, uint32_t n);

/* Wraps every engine of gpu (the method delivery of each kind) so that
 * ds_tap_sum / ds_tap_count give the checksum and the count of the engine
 * methods they received since. One GPU at a time (the sums are global);
 * the wrapping stays until the GPU is closed. Returns 0, or -1 if there are
 * more engine kinds than the tap has slots. */
int ds_tap_install(nvm_gpu *gpu);
uint64_t ds_tap_sum(void);
uint64_t ds_tap_count(void);
/* Puts gpu's engines back as they were (the timed rounds of a benchmark
 * run without the tap's cost; a tapped round proves the delivery). */
void ds_tap_remove(nvm_gpu *gpu);
/* Methods all engines of gpu received since open (their counters, tap or not). */
uint64_t ds_engine_total(nvm_gpu *gpu);

#endif
