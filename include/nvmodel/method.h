/*
 * nvmodel — the method record and the method log every front end shares:
 * the Volta Host (nvmodel/host.h) and PFIFO of NV04..G80 (nvmodel/pfifo.h)
 * hand methods to engines, and each engine keeps a log of what it received.
 * The calls below read any engine's log by name, whichever front end feeds
 * it ("gr", "grce", "ce2".."ce8" on gv100; "pgraph", "software" and the G80
 * engines on NV04..G80).
 */
#ifndef NVMODEL_METHOD_H
#define NVMODEL_METHOD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nvmodel/nvmodel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The shared library exports what this header declares and nothing else
 * (the library is compiled with -fvisibility=hidden; docs/embedding.md). */
#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif

/* One method an engine received. */
typedef struct nvm_method {
	uint64_t time_ns;
	uint32_t chid;
	uint32_t subch;
	uint32_t cls;    /* class bound on the subchannel by SET_OBJECT, 0 if none */
	uint32_t method; /* byte address */
	uint32_t data;
	/* PFIFO: the object context in force for the method (NV01/NV03: the
	 * 24-bit RAMHT context of the subchannel; NV04..G80: the bound object's
	 * instance >> 4, what the engine got through method 0); 0 on the Host. */
	uint32_t ctx;
	/* NV01/NV03: a context load PFIFO sent through method 0 without a
	 * method 0 in the stream (a subchannel change, a channel switch). */
	bool implicit;
} nvm_method;

/* The engine's method log: a ring of the last `cap` methods (set cap to 0 to
 * stop recording; the default is 4096). NVM_ERR_NOENT: no engine of that
 * name on this GPU's chip. */
nvm_status nvm_method_log_config(nvm_gpu *gpu, const char *engine, size_t cap);
/* Copies up to max methods of the log, oldest first, starting at the
 * first-th still held; *n gets how many were copied. *total (may be NULL)
 * gets how many the engine received since open. */
nvm_status nvm_method_log_read(nvm_gpu *gpu, const char *engine, size_t first, nvm_method *out, size_t max, size_t *n,
                               uint64_t *total);
nvm_status nvm_method_log_clear(nvm_gpu *gpu, const char *engine);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#ifdef __cplusplus
}
#endif
#endif
