/*
 * The engine interface: what a PBDMA hands methods to. Host delivers engine
 * methods as slices of the pushbuffer decoder's method runs (address, mode,
 * count, pointer to data), never one call per dword; an engine reports the
 * virtual time the methods cost, whether it is busy, and may fault.
 *
 * Engines live in src/engine/, one file per kind. The recording engine
 * (engine.c) keeps a bounded log of what it received and idles at once.
 */
#ifndef NVM_ENGINE_H
#define NVM_ENGINE_H

#include "core/core.h"
#include "nvmodel/host.h"
#include "nvmodel/pushbuf.h"

/* Who sends the methods: the channel and the class bound on the subchannel. */
struct eng_src {
	uint32_t chid;
	uint32_t subch;
	uint32_t cls;
	unsigned inst_target; /* the channel's instance block (for the engine's MMU accesses) */
	uint64_t inst;
};

struct engine;

struct engine_ops {
	/* Methods data[first .. first + n - 1] of run r. Returns the virtual
	 * time they cost in ns. */
	uint64_t (*methods)(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first, uint32_t n);
	/* SET_OBJECT reached the engine (class on the subchannel). */
	void (*bind)(struct engine *e, const struct eng_src *src);
	void (*destroy)(struct engine *e);
};

struct engine {
	const char *name;       /* "gr", "grce", "ce2" ... */
	unsigned mmu_engine_id; /* NV_PFAULT_MMU_ENG_ID of its faults */
	nvm_gpu *gpu;
	const struct engine_ops *ops;
	uint64_t busy_until; /* virtual time when its last method completes */
	/* The method log (recording engine and any engine that wants one). */
	nvm_host_method *log;
	size_t cap, head, n;
	uint64_t total;
};

/* A recording engine: logs (class, method, data) into a ring of `cap`
 * (0 = count only) and costs ENG_REC_NS_PER_METHOD per method. */
#define ENG_REC_NS_PER_METHOD 1u
#define ENG_LOG_DEFAULT       4096u
nvm_status engine_recorder_new(nvm_gpu *gpu, const char *name, unsigned mmu_engine_id, struct engine **out);
void engine_free(struct engine *e);
/* Appends methods to e's log (shared by every engine that records). */
void engine_log(struct engine *e, const struct eng_src *src, const pb_run *r, uint32_t first, uint32_t n);
nvm_status engine_log_config(struct engine *e, size_t cap);

#endif
