/*
 * nvmodel — the method record every front end shares: the Volta Host
 * (nvmodel/host.h) and PFIFO of NV04..G80 (nvmodel/pfifo.h) hand methods to
 * engines, and each engine keeps a log of what it received. Both front ends
 * read those logs with the same three calls (nvm_<front end>_log_config,
 * _log_read, _log_clear; engines by name), in this record.
 */
#ifndef NVMODEL_METHOD_H
#define NVMODEL_METHOD_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One method an engine received. */
typedef struct nvm_host_method {
	uint64_t time_ns;
	uint32_t chid;
	uint32_t subch;
	uint32_t cls;    /* class bound on the subchannel by SET_OBJECT, 0 if none */
	uint32_t method; /* byte address */
	uint32_t data;
} nvm_host_method;

/* The same record under the name that does not say which front end sent it. */
typedef nvm_host_method nvm_method;

#ifdef __cplusplus
}
#endif
#endif
