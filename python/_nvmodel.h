/*
 * What the extension's files share (python/_nvmodel.c, the Gpu and the
 * module; python/_setup.c, the channel set-up helpers): the Gpu object,
 * argument converters and the error mapping. Internal to the extension.
 */
#ifndef NVM_PY_NVMODEL_H
#define NVM_PY_NVMODEL_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#include "nvmodel/nvmodel.h"

/* Python callbacks behind nvm_mem_map_io. */
struct io_cb {
	struct GpuObject *owner;
	PyObject *rd, *wr;
};

struct mapping {
	nvm_aperture ap;
	uint64_t addr, size;
	struct io_cb *io; /* NULL: view backs the range */
	Py_buffer view;
};

struct hook {
	struct GpuObject *owner;
	PyObject *fn;
	int id;
};

#define MAX_MAPS  NVM_MEM_MAX_RANGES *NVM_AP_COUNT
#define MAX_HOOKS 32

typedef struct GpuObject {
	PyObject_HEAD nvm_gpu *gpu;
	struct mapping maps[MAX_MAPS];
	unsigned nmaps;
	struct hook *hooks[MAX_HOOKS];
	/* The first exception a hook raised during a run: the run is stopped
	 * and the exception raised when it returns. */
	PyObject *pending[3]; /* type, value, traceback (PyErr_Fetch) */
	int running;
	/* Inside a set-up helper (several library calls): a close from a hook
	 * hides the GPU (gpu NULL) and leaves it in deferred until the helper
	 * returns, so that its next calls do not use a freed GPU. */
	int helper;
	nvm_gpu *deferred;
	/* Inside a Python callback (hook, memory callback): the library may
	 * still use the hooks and callbacks, so a close frees them later. */
	int in_cb;
} GpuObject;

extern PyTypeObject nvm_py_gpu_type;
extern PyObject *nvm_py_error; /* nvmodel.NvmError: args (message, status, status name) */

/* Raises NvmError(what, st, its name); returns NULL. */
PyObject *raise_status(nvm_status st, const char *what);
/* 1 when the GPU is open, else ValueError and 0. */
int live(GpuObject *g);
/* r, unless a callback (hook, memory callback) raised during the call that
 * made it: then that exception, and r is dropped. */
PyObject *pending_or(GpuObject *g, PyObject *r);
/* After a library call on g: pending_or of NvmError(what, st) when st,
 * else of ok (a new reference; NULL means None). */
PyObject *status_or(GpuObject *g, nvm_status st, const char *what, PyObject *ok);

/* Around a set-up helper's library calls on g (_setup.c GUARD). */
void helper_enter(GpuObject *g);
nvm_status helper_leave(GpuObject *g, nvm_status st);

/* PyArg "O&" converters: Python ints in range, else OverflowError /
 * TypeError (the "I" and "K" formats would wrap silently). */
int u64_arg(PyObject *o, void *out);      /* unsigned long long */
int u32_arg(PyObject *o, void *out);      /* unsigned int */
int aperture_arg(PyObject *o, void *out); /* nvm_aperture: "vram", "sysmem", 0, 1 */
/* Truth as the "p" format tests it, into a bool ("p" writes an int). */
int bool_arg(PyObject *o, void *out);
/* A Gpu (or subclass) that is open: out is GpuObject *. */
int gpu_arg(PyObject *o, void *out);

/* Pushbuffer words from a bytes-like object (a multiple of 4 bytes,
 * little-endian) or a sequence of ints (each below 2^32): *w is
 * PyMem_Malloc'd (the caller frees it), *n its count. */
int words_arg(PyObject *o, uint32_t **w, size_t *n);

/* Adds the channel set-up helpers' types and functions to the module
 * (python/_setup.c). */
int nvm_py_setup_init(PyObject *m);

#endif
