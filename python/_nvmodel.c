/*
 * _nvmodel: the CPython extension under the `nvmodel` package
 * (python/nvmodel/__init__.py wraps it with type hints and names). A thin
 * layer over the C API: every call checks its arguments, maps a status to
 * nvmodel.NvmError, and holds the GIL (the library is not thread-safe,
 * and hooks call back into Python).
 *
 * Buffers the caller maps into an aperture (Gpu.map) are held as
 * Py_buffer views until unmap or close, so Python cannot free or resize
 * them while the model uses them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "_nvmodel.h"
#include "nvmodel/method.h"
#include "nvmodel/pushbuf.h"

PyObject *nvm_py_error;

PyObject *raise_status(nvm_status st, const char *what)
{
	PyObject *args = Py_BuildValue("(sis)", what, (int)st, nvm_status_str(st));
	if (args) {
		PyErr_SetObject(nvm_py_error, args);
		Py_DECREF(args);
	}
	return NULL;
}

/* ---------------------------------------------------------------- Gpu */

static void release_all(GpuObject *g);

/* The library may hold the hooks and callbacks while a run, a set-up helper
 * or a callback is under way: a closed GPU's are freed after. */
static int may_release(const GpuObject *g)
{
	return !g->running && !g->helper && !g->in_cb;
}

int live(GpuObject *g)
{
	if (g->gpu)
		return 1;
	if (may_release(g)) /* closed from a callback: its buffers and hooks go now */
		release_all(g);
	PyErr_SetString(PyExc_ValueError, "the GPU is closed");
	return 0;
}

int u64_arg(PyObject *o, void *out)
{
	unsigned long long v = PyLong_AsUnsignedLongLong(o);
	if (v == (unsigned long long)-1 && PyErr_Occurred())
		return 0;
	*(unsigned long long *)out = v;
	return 1;
}

int bool_arg(PyObject *o, void *out)
{
	int v = PyObject_IsTrue(o);
	if (v < 0)
		return 0;
	*(bool *)out = v;
	return 1;
}

int u32_arg(PyObject *o, void *out)
{
	unsigned long long v;
	if (!u64_arg(o, &v))
		return 0;
	if (v > 0xffffffffull) {
		PyErr_SetString(PyExc_OverflowError, "value does not fit 32 bits");
		return 0;
	}
	*(unsigned int *)out = (unsigned int)v;
	return 1;
}

int aperture_arg(PyObject *o, void *out)
{
	if (PyUnicode_Check(o)) {
		const char *s = PyUnicode_AsUTF8(o);
		if (!s || nvm_aperture_parse(s, out)) {
			if (s)
				PyErr_Format(PyExc_ValueError, "unknown aperture '%s' (vram, sysmem)", s);
			return 0;
		}
		return 1;
	}
	long v = PyLong_AsLong(o);
	if (v == -1 && PyErr_Occurred())
		return 0;
	if (v < 0 || v >= NVM_AP_COUNT) {
		PyErr_SetString(PyExc_ValueError, "aperture must be 'vram', 'sysmem', 0 or 1");
		return 0;
	}
	*(nvm_aperture *)out = (nvm_aperture)v;
	return 1;
}

static void release_mapping(struct mapping *m)
{
	if (!m->io) {
		PyBuffer_Release(&m->view);
		return;
	}
	Py_DECREF(m->io->rd);
	Py_DECREF(m->io->wr);
	PyMem_Free(m->io);
	m->io = NULL;
}

/* A Python exception from a callback (hook, memory callback) while the
 * library was running: kept (the first one) and raised when the call
 * returns to Python; a run in progress is stopped. */
static void stash_exception(struct GpuObject *g);

static void release_all(GpuObject *g)
{
	for (unsigned i = 0; i < g->nmaps; i++)
		release_mapping(&g->maps[i]);
	g->nmaps = 0;
	for (unsigned i = 0; i < MAX_HOOKS; i++) {
		if (g->hooks[i]) {
			Py_DECREF(g->hooks[i]->fn);
			PyMem_Free(g->hooks[i]);
			g->hooks[i] = NULL;
		}
	}
}

void helper_enter(GpuObject *g)
{
	g->helper++;
}

nvm_status helper_leave(GpuObject *g, nvm_status st)
{
	if (--g->helper == 0 && g->deferred) {
		nvm_close(g->deferred);
		g->deferred = NULL;
		if (may_release(g))
			release_all(g);
	}
	return st;
}

static void gpu_close_now(GpuObject *g)
{
	if (g->helper && g->gpu) { /* a hook inside a set-up helper: after it */
		g->deferred = g->gpu;
		g->gpu = NULL;
		return;
	}
	if (g->gpu) {
		nvm_close(g->gpu);
		g->gpu = NULL;
	}
	/* From a hook the library frees the GPU when the call under way
	 * returns; the buffers and callbacks stay until then (run() releases
	 * them, else the next call on the closed Gpu or its deallocation). */
	if (may_release(g))
		release_all(g);
}

static int Gpu_init(GpuObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "chip", "vram_size", "sysmem_size", "mem_budget", NULL };
	const char *chip = NULL;
	unsigned long long vram = 0, sys = 0, budget = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "|zO&O&O&", kwlist, &chip, u64_arg, &vram, u64_arg, &sys, u64_arg,
	                                 &budget))
		return -1;
	if (self->gpu) {
		PyErr_SetString(PyExc_RuntimeError, "Gpu already open");
		return -1;
	}
	nvm_config cfg = { .chip = chip, .vram_size = vram, .sysmem_size = sys, .mem_budget = budget };
	nvm_status st = nvm_open(&cfg, &self->gpu);
	if (st) {
		self->gpu = NULL;
		raise_status(st, chip ? chip : "nvm_open");
		return -1;
	}
	return 0;
}

static void Gpu_dealloc(GpuObject *self)
{
	gpu_close_now(self);
	release_all(self); /* nothing can call back into a Gpu being freed */
	for (unsigned i = 0; i < 3; i++)
		Py_XDECREF(self->pending[i]);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Gpu_close(GpuObject *self, PyObject *unused)
{
	(void)unused;
	gpu_close_now(self);
	Py_RETURN_NONE;
}

static PyObject *Gpu_chip(GpuObject *self, PyObject *unused)
{
	(void)unused;
	if (!live(self))
		return NULL;
	return PyUnicode_FromString(nvm_gpu_chip(self->gpu)->name);
}

static PyObject *Gpu_reg_read(GpuObject *self, PyObject *args)
{
	unsigned int addr;
	if (!PyArg_ParseTuple(args, "O&", u32_arg, &addr) || !live(self))
		return NULL;
	uint32_t v;
	nvm_status st = nvm_reg_read(self->gpu, addr, &v);
	return pending_or(self, st ? raise_status(st, "reg_read") : PyLong_FromUnsignedLong(v));
}

static PyObject *Gpu_reg_write(GpuObject *self, PyObject *args)
{
	unsigned int addr, val;
	if (!PyArg_ParseTuple(args, "O&O&", u32_arg, &addr, u32_arg, &val) || !live(self))
		return NULL;
	nvm_status st = nvm_reg_write(self->gpu, addr, val);
	if (st)
		return pending_or(self, raise_status(st, "reg_write"));
	Py_INCREF(Py_None);
	return pending_or(self, Py_None);
}

static PyObject *Gpu_reg_name(GpuObject *self, PyObject *args)
{
	unsigned int addr;
	if (!PyArg_ParseTuple(args, "O&", u32_arg, &addr) || !live(self))
		return NULL;
	const char *n = nvm_reg_name(self->gpu, addr);
	if (!n)
		Py_RETURN_NONE;
	return PyUnicode_FromString(n);
}

static PyObject *Gpu_mem_read(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	unsigned long long addr;
	Py_ssize_t len;
	if (!PyArg_ParseTuple(args, "O&O&n", aperture_arg, &ap, u64_arg, &addr, &len) || !live(self))
		return NULL;
	if (len < 0)
		return PyErr_Format(PyExc_ValueError, "negative length");
	PyObject *b = PyBytes_FromStringAndSize(NULL, len);
	if (!b)
		return NULL;
	nvm_status st = nvm_mem_read(self->gpu, ap, addr, PyBytes_AS_STRING(b), (size_t)len);
	if (st) {
		Py_DECREF(b);
		return pending_or(self, raise_status(st, "mem_read"));
	}
	return b;
}

static PyObject *Gpu_mem_write(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	unsigned long long addr;
	Py_buffer data;
	if (!PyArg_ParseTuple(args, "O&O&y*", aperture_arg, &ap, u64_arg, &addr, &data))
		return NULL;
	nvm_status st = live(self) ? nvm_mem_write(self->gpu, ap, addr, data.buf, (size_t)data.len) : NVM_OK;
	PyBuffer_Release(&data);
	if (!self->gpu)
		return NULL;
	if (st)
		return pending_or(self, raise_status(st, "mem_write"));
	Py_RETURN_NONE;
}

static PyObject *Gpu_mem_size(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	if (!PyArg_ParseTuple(args, "O&", aperture_arg, &ap) || !live(self))
		return NULL;
	return PyLong_FromUnsignedLongLong(nvm_mem_size(self->gpu, ap));
}

static PyObject *Gpu_mem_pages(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	if (!PyArg_ParseTuple(args, "O&", aperture_arg, &ap) || !live(self))
		return NULL;
	return PyLong_FromUnsignedLongLong(nvm_mem_pages(self->gpu, ap));
}

/* map(ap, addr, buffer): the buffer (writable, contiguous, a multiple of
 * 4 KiB) backs [addr, addr + len) in place. */
static PyObject *Gpu_map(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	unsigned long long addr;
	PyObject *obj;
	if (!PyArg_ParseTuple(args, "O&O&O", aperture_arg, &ap, u64_arg, &addr, &obj) || !live(self))
		return NULL;
	if (self->nmaps == MAX_MAPS)
		return raise_status(NVM_ERR_NOMEM, "map");
	struct mapping *m = &self->maps[self->nmaps];
	m->io = NULL;
	if (PyObject_GetBuffer(obj, &m->view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0)
		return NULL;
	nvm_status st = nvm_mem_map_ptr(self->gpu, ap, addr, (uint64_t)m->view.len, m->view.buf);
	if (st) {
		PyBuffer_Release(&m->view);
		return raise_status(st, "map");
	}
	m->ap = ap;
	m->addr = addr;
	m->size = (uint64_t)m->view.len;
	self->nmaps++;
	Py_RETURN_NONE;
}

static PyObject *Gpu_unmap(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	unsigned long long addr;
	if (!PyArg_ParseTuple(args, "O&O&", aperture_arg, &ap, u64_arg, &addr) || !live(self))
		return NULL;
	for (unsigned i = 0; i < self->nmaps; i++) {
		struct mapping *m = &self->maps[i];
		if (m->ap != ap || m->addr != addr)
			continue;
		nvm_status st = nvm_mem_unmap(self->gpu, ap, addr, m->size);
		if (st)
			return raise_status(st, "unmap");
		release_mapping(m);
		self->maps[i] = self->maps[--self->nmaps];
		Py_RETURN_NONE;
	}
	return raise_status(NVM_ERR_NOENT, "unmap: no buffer mapped there");
}

static PyObject *Gpu_written(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	unsigned long long addr, len;
	if (!PyArg_ParseTuple(args, "O&O&O&", aperture_arg, &ap, u64_arg, &addr, u64_arg, &len) || !live(self))
		return NULL;
	nvm_status st = nvm_mem_written(self->gpu, ap, addr, len);
	if (st)
		return raise_status(st, "written");
	Py_RETURN_NONE;
}

/* A hook: the event as a tuple (type name, time, block, code, addr, value,
 * message); an exception stops the run and is raised by run(). */
static void hook_tramp(void *user, const nvm_event *ev)
{
	struct hook *h = user;
	GpuObject *g = h->owner;
	if (g->pending[0])
		return;
	g->in_cb++;
	PyObject *r = PyObject_CallFunction(h->fn, "(sKssKKs)", nvm_event_type_name(ev->type),
	                                    (unsigned long long)ev->time_ns, ev->block, ev->code,
	                                    (unsigned long long)ev->addr, (unsigned long long)ev->value, ev->message);
	g->in_cb--;
	if (r) {
		Py_DECREF(r);
		return;
	}
	stash_exception(g);
}

static void stash_exception(GpuObject *g)
{
	if (g->pending[0]) {
		PyErr_Clear();
		return;
	}
	PyErr_Fetch(&g->pending[0], &g->pending[1], &g->pending[2]);
	if (g->gpu && g->running)
		nvm_stop(g->gpu);
}

PyObject *pending_or(GpuObject *g, PyObject *r)
{
	if (!g->pending[0])
		return r;
	Py_XDECREF(r);
	PyErr_Restore(g->pending[0], g->pending[1], g->pending[2]);
	g->pending[0] = g->pending[1] = g->pending[2] = NULL;
	return NULL;
}

PyObject *status_or(GpuObject *g, nvm_status st, const char *what, PyObject *ok)
{
	if (st) {
		Py_XDECREF(ok);
		return pending_or(g, raise_status(st, what));
	}
	if (!ok && !PyErr_Occurred()) {
		Py_INCREF(Py_None);
		ok = Py_None;
	}
	return pending_or(g, ok);
}

int gpu_arg(PyObject *o, void *out)
{
	if (!PyObject_TypeCheck(o, &nvm_py_gpu_type)) {
		PyErr_Format(PyExc_TypeError, "expected a Gpu, not %s", Py_TYPE(o)->tp_name);
		return 0;
	}
	if (!live((GpuObject *)o))
		return 0;
	*(GpuObject **)out = (GpuObject *)o;
	return 1;
}

int words_arg(PyObject *o, uint32_t **w, size_t *n)
{
	if (PyObject_CheckBuffer(o)) {
		Py_buffer b;
		if (PyObject_GetBuffer(o, &b, PyBUF_SIMPLE) < 0)
			return 0;
		if (b.len % 4) {
			PyBuffer_Release(&b);
			PyErr_SetString(PyExc_ValueError, "pushbuffer length must be a multiple of 4 bytes");
			return 0;
		}
		*n = (size_t)b.len / 4;
		*w = PyMem_Malloc(*n ? *n * 4 : 4);
		if (*w) {
			const uint8_t *p = b.buf;
			for (size_t i = 0; i < *n; i++)
				(*w)[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
				          (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
		}
		PyBuffer_Release(&b);
		if (!*w)
			PyErr_NoMemory();
		return *w != NULL;
	}
	PyObject *seq = PySequence_Fast(o, "pushbuffer words: bytes-like or a sequence of ints");
	if (!seq)
		return 0;
	Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
	*n = (size_t)len;
	*w = PyMem_Malloc(len ? (size_t)len * 4 : 4);
	if (!*w) {
		Py_DECREF(seq);
		PyErr_NoMemory();
		return 0;
	}
	for (Py_ssize_t i = 0; i < len; i++) {
		unsigned int v;
		if (!u32_arg(PySequence_Fast_GET_ITEM(seq, i), &v)) {
			PyMem_Free(*w);
			*w = NULL;
			Py_DECREF(seq);
			return 0;
		}
		(*w)[i] = v;
	}
	Py_DECREF(seq);
	return 1;
}

static int io_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct io_cb *c = ctx;
	if (c->owner->pending[0])
		return -1;
	c->owner->in_cb++;
	PyObject *r = PyObject_CallFunction(c->rd, "(Kn)", (unsigned long long)addr, (Py_ssize_t)len);
	c->owner->in_cb--;
	Py_buffer v;
	if (r && PyObject_GetBuffer(r, &v, PyBUF_SIMPLE) == 0) {
		int ok = v.len == (Py_ssize_t)len;
		if (ok)
			memcpy(buf, v.buf, len);
		else {
			char m[96];
			snprintf(m, sizeof(m), "map_io read(0x%llx, %zu) returned %zd bytes", (unsigned long long)addr,
			         len, v.len);
			PyErr_SetString(PyExc_ValueError, m);
		}
		PyBuffer_Release(&v);
		Py_DECREF(r);
		if (ok)
			return 0;
	} else {
		Py_XDECREF(r);
	}
	stash_exception(c->owner);
	return -1;
}

static int io_write(void *ctx, uint64_t addr, const void *buf, size_t len)
{
	struct io_cb *c = ctx;
	if (c->owner->pending[0])
		return -1;
	PyObject *b = PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
	c->owner->in_cb++;
	PyObject *r = b ? PyObject_CallFunction(c->wr, "(KO)", (unsigned long long)addr, b) : NULL;
	c->owner->in_cb--;
	Py_XDECREF(b);
	if (r) {
		Py_DECREF(r);
		return 0;
	}
	stash_exception(c->owner);
	return -1;
}

/* map_io(ap, addr, size, read, write): read(addr, n) -> n bytes,
 * write(addr, bytes) back [addr, addr + size) (nvm_mem_map_io). */
static PyObject *Gpu_map_io(GpuObject *self, PyObject *args)
{
	nvm_aperture ap;
	unsigned long long addr, size;
	PyObject *rd, *wr;
	if (!PyArg_ParseTuple(args, "O&O&O&OO", aperture_arg, &ap, u64_arg, &addr, u64_arg, &size, &rd, &wr) ||
	    !live(self))
		return NULL;
	if (!PyCallable_Check(rd) || !PyCallable_Check(wr))
		return PyErr_Format(PyExc_TypeError, "read and write must be callable");
	if (self->nmaps == MAX_MAPS)
		return raise_status(NVM_ERR_NOMEM, "map_io");
	struct io_cb *c = PyMem_Malloc(sizeof(*c));
	if (!c)
		return PyErr_NoMemory();
	*c = (struct io_cb){ self, rd, wr };
	nvm_mem_io io = { io_read, io_write, c };
	nvm_status st = nvm_mem_map_io(self->gpu, ap, addr, size, &io);
	if (st) {
		PyMem_Free(c);
		return raise_status(st, "map_io");
	}
	Py_INCREF(rd);
	Py_INCREF(wr);
	self->maps[self->nmaps++] = (struct mapping){ .ap = ap, .addr = addr, .size = size, .io = c };
	Py_RETURN_NONE;
}

static PyObject *Gpu_hook_add(GpuObject *self, PyObject *args)
{
	unsigned int mask;
	PyObject *fn;
	if (!PyArg_ParseTuple(args, "O&O", u32_arg, &mask, &fn) || !live(self))
		return NULL;
	if (!PyCallable_Check(fn))
		return PyErr_Format(PyExc_TypeError, "hook must be callable");
	unsigned slot = 0;
	while (slot < MAX_HOOKS && self->hooks[slot])
		slot++;
	if (slot == MAX_HOOKS)
		return raise_status(NVM_ERR_NOMEM, "hook_add: too many hooks");
	struct hook *h = PyMem_Malloc(sizeof(*h));
	if (!h)
		return PyErr_NoMemory();
	h->owner = self;
	h->fn = fn;
	nvm_status st = nvm_hook_add(self->gpu, mask, hook_tramp, h, &h->id);
	if (st) {
		PyMem_Free(h);
		return raise_status(st, "hook_add");
	}
	Py_INCREF(fn);
	self->hooks[slot] = h;
	return PyLong_FromLong(h->id);
}

static PyObject *Gpu_hook_del(GpuObject *self, PyObject *args)
{
	int id;
	if (!PyArg_ParseTuple(args, "i", &id) || !live(self))
		return NULL;
	for (unsigned i = 0; i < MAX_HOOKS; i++) {
		struct hook *h = self->hooks[i];
		if (!h || h->id != id)
			continue;
		nvm_status st = nvm_hook_del(self->gpu, id);
		if (st)
			return raise_status(st, "hook_del");
		if (!may_release(self)) /* the library may still hold it in this delivery */
			Py_RETURN_NONE;
		Py_DECREF(h->fn);
		PyMem_Free(h);
		self->hooks[i] = NULL;
		Py_RETURN_NONE;
	}
	return raise_status(NVM_ERR_NOENT, "hook_del");
}

static PyObject *Gpu_run(GpuObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "ns", "until_idle", "max_events", NULL };
	unsigned long long ns = 0, max_events = 0;
	int until_idle = 1;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|pO&", kwlist, u64_arg, &ns, &until_idle, u64_arg, &max_events) ||
	    !live(self))
		return NULL;
	if (self->running)
		return raise_status(NVM_ERR_BUSY, "run: already running (called from a hook)");
	nvm_run_opts o = { .ns = ns, .flags = until_idle ? NVM_RUN_UNTIL_IDLE : 0, .max_events = max_events };
	self->running = 1;
	nvm_run_status rs = nvm_run(self->gpu, &o);
	self->running = 0;
	if (!self->gpu) /* a hook closed it: the library has freed it now */
		release_all(self);
	return pending_or(self, PyUnicode_FromString(nvm_run_status_str(rs)));
}

static PyObject *Gpu_stop(GpuObject *self, PyObject *unused)
{
	(void)unused;
	if (!live(self))
		return NULL;
	nvm_stop(self->gpu);
	Py_RETURN_NONE;
}

static PyObject *Gpu_time_ns(GpuObject *self, PyObject *unused)
{
	(void)unused;
	return live(self) ? PyLong_FromUnsignedLongLong(nvm_time_ns(self->gpu)) : NULL;
}

static PyObject *Gpu_idle(GpuObject *self, PyObject *unused)
{
	(void)unused;
	return live(self) ? PyBool_FromLong(nvm_idle(self->gpu)) : NULL;
}

static PyObject *Gpu_intr_line(GpuObject *self, PyObject *unused)
{
	(void)unused;
	return live(self) ? PyBool_FromLong(nvm_intr_line(self->gpu)) : NULL;
}

static PyObject *Gpu_event_count(GpuObject *self, PyObject *args)
{
	int t;
	if (!PyArg_ParseTuple(args, "i", &t) || !live(self))
		return NULL;
	if (t < 0 || t >= NVM_EV_COUNT)
		return PyErr_Format(PyExc_ValueError, "event type %d out of range", t);
	return PyLong_FromUnsignedLongLong(nvm_event_count(self->gpu, (nvm_event_type)t));
}

static PyObject *Gpu_log_config(GpuObject *self, PyObject *args)
{
	const char *eng;
	Py_ssize_t cap;
	if (!PyArg_ParseTuple(args, "sn", &eng, &cap) || !live(self))
		return NULL;
	if (cap < 0)
		return PyErr_Format(PyExc_ValueError, "negative capacity");
	nvm_status st = nvm_method_log_config(self->gpu, eng, (size_t)cap);
	if (st)
		return raise_status(st, eng);
	Py_RETURN_NONE;
}

static PyObject *Gpu_log_clear(GpuObject *self, PyObject *args)
{
	const char *eng;
	if (!PyArg_ParseTuple(args, "s", &eng) || !live(self))
		return NULL;
	nvm_status st = nvm_method_log_clear(self->gpu, eng);
	if (st)
		return raise_status(st, eng);
	Py_RETURN_NONE;
}

/* log_read(engine, first, max) -> (list of (time_ns, chid, subch, cls,
 * method, data, ctx, implicit), total received). */
static PyObject *Gpu_log_read(GpuObject *self, PyObject *args)
{
	const char *eng;
	Py_ssize_t first = 0, max = 4096;
	if (!PyArg_ParseTuple(args, "s|nn", &eng, &first, &max) || !live(self))
		return NULL;
	if (first < 0 || max < 0)
		return PyErr_Format(PyExc_ValueError, "negative index or count");
	if (max > 1 << 20)
		max = 1 << 20;
	nvm_method *v = PyMem_Malloc(((size_t)max + 1) * sizeof(*v));
	if (!v)
		return PyErr_NoMemory();
	size_t n = 0;
	uint64_t total = 0;
	nvm_status st = nvm_method_log_read(self->gpu, eng, (size_t)first, v, (size_t)max, &n, &total);
	if (st) {
		PyMem_Free(v);
		return raise_status(st, eng);
	}
	PyObject *list = PyList_New((Py_ssize_t)n);
	for (size_t i = 0; list && i < n; i++) {
		PyObject *t =
		        Py_BuildValue("(KIIIIIIO)", (unsigned long long)v[i].time_ns, v[i].chid, v[i].subch, v[i].cls,
		                      v[i].method, v[i].data, v[i].ctx, v[i].implicit ? Py_True : Py_False);
		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, t);
	}
	PyMem_Free(v);
	if (!list)
		return NULL;
	return Py_BuildValue("(NK)", list, (unsigned long long)total);
}

/* snapshot() -> bytes (nvm_snapshot_save: measured, then written). */
static PyObject *Gpu_snapshot(GpuObject *self, PyObject *unused)
{
	(void)unused;
	if (!live(self))
		return NULL;
	size_t len = 0;
	nvm_status st = nvm_snapshot_save(self->gpu, NULL, 0, &len);
	if (st)
		return pending_or(self, raise_status(st, "snapshot"));
	if (len > PY_SSIZE_T_MAX)
		return PyErr_NoMemory();
	PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)len);
	if (!b)
		return NULL;
	size_t got = 0;
	st = nvm_snapshot_save(self->gpu, PyBytes_AS_STRING(b), len, &got);
	if (!st && got != len)
		st = NVM_ERR_NOMEM; /* the measure and the save disagree: a library bug */
	if (st) {
		Py_DECREF(b);
		return pending_or(self, raise_status(st, "snapshot"));
	}
	return pending_or(self, b);
}

/* restore(data): nvm_snapshot_load of any bytes-like object. */
static PyObject *Gpu_restore(GpuObject *self, PyObject *args)
{
	Py_buffer data;
	if (!PyArg_ParseTuple(args, "y*", &data))
		return NULL;
	if (!live(self)) {
		PyBuffer_Release(&data);
		return NULL;
	}
	nvm_status st = nvm_snapshot_load(self->gpu, data.buf, (size_t)data.len);
	PyBuffer_Release(&data);
	if (st)
		return pending_or(self, raise_status(st, "restore"));
	Py_INCREF(Py_None);
	return pending_or(self, Py_None);
}

static PyMethodDef Gpu_methods[] = {
	{ "close", (PyCFunction)Gpu_close, METH_NOARGS, "Close the GPU (safe from a hook)." },
	{ "chip", (PyCFunction)Gpu_chip, METH_NOARGS, "The chip's name." },
	{ "reg_read", (PyCFunction)Gpu_reg_read, METH_VARARGS, "reg_read(addr) -> value" },
	{ "reg_write", (PyCFunction)Gpu_reg_write, METH_VARARGS, "reg_write(addr, value)" },
	{ "reg_name", (PyCFunction)Gpu_reg_name, METH_VARARGS, "reg_name(addr) -> str or None" },
	{ "mem_read", (PyCFunction)Gpu_mem_read, METH_VARARGS, "mem_read(ap, addr, len) -> bytes" },
	{ "mem_write", (PyCFunction)Gpu_mem_write, METH_VARARGS, "mem_write(ap, addr, data)" },
	{ "mem_size", (PyCFunction)Gpu_mem_size, METH_VARARGS, "mem_size(ap) -> bytes" },
	{ "mem_pages", (PyCFunction)Gpu_mem_pages, METH_VARARGS, "mem_pages(ap) -> model pages in use" },
	{ "map", (PyCFunction)Gpu_map, METH_VARARGS, "map(ap, addr, buffer): back a range with the buffer" },
	{ "map_io", (PyCFunction)Gpu_map_io, METH_VARARGS,
	  "map_io(ap, addr, size, read, write): back a range with callbacks" },
	{ "unmap", (PyCFunction)Gpu_unmap, METH_VARARGS, "unmap(ap, addr)" },
	{ "written", (PyCFunction)Gpu_written, METH_VARARGS, "written(ap, addr, len): the caller wrote there" },
	{ "hook_add", (PyCFunction)Gpu_hook_add, METH_VARARGS, "hook_add(mask, fn) -> id" },
	{ "hook_del", (PyCFunction)Gpu_hook_del, METH_VARARGS, "hook_del(id)" },
	{ "run", (PyCFunction)(void (*)(void))Gpu_run, METH_VARARGS | METH_KEYWORDS,
	  "run(ns, until_idle=True, max_events=0) -> 'idle' | 'budget' | 'hang' | 'stopped'" },
	{ "stop", (PyCFunction)Gpu_stop, METH_NOARGS, "Stop the run in progress (from a hook)." },
	{ "time_ns", (PyCFunction)Gpu_time_ns, METH_NOARGS, "Virtual time." },
	{ "idle", (PyCFunction)Gpu_idle, METH_NOARGS, "Every block idle." },
	{ "intr_line", (PyCFunction)Gpu_intr_line, METH_NOARGS, "The PMC interrupt line." },
	{ "event_count", (PyCFunction)Gpu_event_count, METH_VARARGS, "event_count(type) -> n" },
	{ "log_config", (PyCFunction)Gpu_log_config, METH_VARARGS, "log_config(engine, cap)" },
	{ "log_read", (PyCFunction)Gpu_log_read, METH_VARARGS, "log_read(engine, first, max) -> (records, total)" },
	{ "log_clear", (PyCFunction)Gpu_log_clear, METH_VARARGS, "log_clear(engine)" },
	{ "snapshot", (PyCFunction)Gpu_snapshot, METH_NOARGS,
	  "snapshot() -> bytes: the GPU's state (nvm_snapshot_save)" },
	{ "restore", (PyCFunction)Gpu_restore, METH_VARARGS, "restore(data): load a snapshot (nvm_snapshot_load)" },
	{ NULL, NULL, 0, NULL },
};

PyTypeObject nvm_py_gpu_type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel._nvmodel.Gpu",
	.tp_basicsize = sizeof(GpuObject),
	.tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
	.tp_doc = "A simulated GPU (nvm_open).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Gpu_init,
	.tp_dealloc = (destructor)Gpu_dealloc,
	.tp_methods = Gpu_methods,
};

/* ---------------------------------------------------------------- module */

static PyObject *mod_version(PyObject *m, PyObject *unused)
{
	(void)m;
	(void)unused;
	return PyUnicode_FromString(nvm_version());
}

/* chips() -> list of (name, family, boot_0, vram_max, sysmem_max, blocks). */
static PyObject *mod_chips(PyObject *m, PyObject *unused)
{
	(void)m;
	(void)unused;
	size_t n = nvm_chip_count();
	PyObject *list = PyList_New((Py_ssize_t)n);
	for (size_t i = 0; list && i < n; i++) {
		const nvm_chip_info *c = nvm_chip_get(i);
		PyObject *t = Py_BuildValue("(ssIKKs)", c->name, c->family, c->boot_0, (unsigned long long)c->vram_max,
		                            (unsigned long long)c->sysmem_max, c->blocks);
		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, t);
	}
	return list;
}

static int config_for(const char *chip, const char *format, nvm_pb_config *cfg)
{
	const nvm_pb_gen *gen = nvm_pb_gen_lookup(chip);
	if (!gen) {
		PyErr_Format(PyExc_ValueError, "unknown chip '%s'", chip);
		return 0;
	}
	nvm_pb_format f = gen->native;
	if (format && *format)
		f = !strcmp(format, "new") ? NVM_PB_FORMAT_NEW : NVM_PB_FORMAT_OLD;
	if (format && *format && strcmp(format, "new") && strcmp(format, "old")) {
		PyErr_Format(PyExc_ValueError, "format must be 'new' or 'old'");
		return 0;
	}
	if (!nvm_pb_config_init(cfg, gen, f)) {
		PyErr_Format(PyExc_ValueError, "%s does not accept the %s format", chip,
		             f == NVM_PB_FORMAT_NEW ? "new" : "old");
		return 0;
	}
	return 1;
}

/* nvm_pb_asm(text, chip, format) -> bytes of little-endian words. */
static PyObject *mod_pb_asm(PyObject *m, PyObject *args)
{
	(void)m;
	const char *text, *chip = "gv100", *format = NULL;
	Py_ssize_t len;
	if (!PyArg_ParseTuple(args, "s#|sz", &text, &len, &chip, &format))
		return NULL;
	nvm_pb_config cfg;
	if (!config_for(chip, format, &cfg))
		return NULL;
	nvm_pb_asm_result r = { 0 };
	bool ok = nvm_pb_asm(text, (size_t)len, cfg.format, &r);
	if (!ok) {
		free(r.words);
		PyObject *args2 = Py_BuildValue("(sis)", r.msg, (int)NVM_ERR_ARG, "assembly error");
		if (args2) {
			PyErr_SetObject(nvm_py_error, args2);
			Py_DECREF(args2);
		}
		return NULL;
	}
	PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(r.n * 4));
	if (b) {
		uint8_t *o = (uint8_t *)PyBytes_AS_STRING(b);
		for (size_t i = 0; i < r.n; i++)
			for (unsigned k = 0; k < 4; k++)
				o[4 * i + k] = (uint8_t)(r.words[i] >> (8 * k));
	}
	free(r.words);
	return b;
}

/* pb_decode(data, chip, format, style) -> text (the `nvmodel pb decode`
 * styles: "text", "json", "mesa", "asm"). */
static PyObject *mod_pb_decode(PyObject *m, PyObject *args)
{
	(void)m;
	Py_buffer data;
	const char *chip = "gv100", *format = NULL, *style = "text";
	if (!PyArg_ParseTuple(args, "y*|szs", &data, &chip, &format, &style))
		return NULL;
	static const char *const styles[] = { "text", "json", "mesa", "asm" };
	int si = -1;
	for (int i = 0; i < 4; i++)
		if (!strcmp(style, styles[i]))
			si = i;
	nvm_pb_config cfg;
	if (si < 0 || data.len % 4 || !config_for(chip, format, &cfg)) {
		if (!PyErr_Occurred())
			PyErr_Format(PyExc_ValueError, si < 0 ? "style must be text, json, mesa or asm"
			                                      : "pushbuffer length must be a multiple of 4 bytes");
		PyBuffer_Release(&data);
		return NULL;
	}
	size_t n = (size_t)data.len / 4;
	uint32_t *w = PyMem_Malloc(n ? n * 4 : 4);
	nvm_pb_printer *p = PyMem_Malloc(sizeof(*p));
	if (!w || !p) {
		PyMem_Free(w);
		PyMem_Free(p);
		PyBuffer_Release(&data);
		return PyErr_NoMemory();
	}
	const uint8_t *b = data.buf;
	for (size_t i = 0; i < n; i++)
		w[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 | (uint32_t)b[4 * i + 2] << 16 |
		       (uint32_t)b[4 * i + 3] << 24;
	PyBuffer_Release(&data);
	nvm_pb_out out = { 0 };
	nvm_pb_printer_init(p, (nvm_pb_style)si, &cfg, w, 0, n, &out);
	nvm_pb_sink sink = nvm_pb_printer_sink(p);
	nvm_pb_decoder d;
	nvm_pb_decoder_init(&d, &cfg, &sink);
	nvm_pb_printer_begin(p);
	nvm_pb_feed(&d, w, n);
	nvm_pb_segment_end(&d);
	nvm_pb_finish(&d);
	nvm_pb_printer_end(p);
	PyObject *r = out.oom ? PyErr_NoMemory()
	                      : PyUnicode_DecodeUTF8(out.buf ? out.buf : "", (Py_ssize_t)out.len, "replace");
	nvm_pb_out_free(&out);
	PyMem_Free(p);
	PyMem_Free(w);
	return r;
}

/* snapshot_info(data) -> (format, version, chip, time_ns, vram_size,
 * sysmem_size, vram_pages, sysmem_pages, vram_ranges, sysmem_ranges,
 * sections) (nvm_snapshot_peek). */
static PyObject *mod_snapshot_info(PyObject *m, PyObject *args)
{
	(void)m;
	Py_buffer data;
	if (!PyArg_ParseTuple(args, "y*", &data))
		return NULL;
	nvm_snapshot_info i;
	memset(&i, 0, sizeof(i));
	nvm_status st = nvm_snapshot_peek(data.buf, (size_t)data.len, &i);
	PyBuffer_Release(&data);
	if (st)
		return raise_status(st, "snapshot_info");
	return Py_BuildValue(
	        "(Is#s#KKKKKKKK)", (unsigned)i.format, i.version, (Py_ssize_t)strnlen(i.version, 16), i.chip,
	        (Py_ssize_t)strnlen(i.chip, 16), (unsigned long long)i.time_ns, (unsigned long long)i.vram_size,
	        (unsigned long long)i.sysmem_size, (unsigned long long)i.vram_pages, (unsigned long long)i.sysmem_pages,
	        (unsigned long long)i.vram_ranges, (unsigned long long)i.sysmem_ranges, (unsigned long long)i.sections);
}

static PyMethodDef mod_methods[] = {
	{ "version", mod_version, METH_NOARGS, "The library's version." },
	{ "chips", mod_chips, METH_NOARGS, "The chip profiles." },
	{ "pb_asm", mod_pb_asm, METH_VARARGS, "pb_asm(text, chip='gv100', format=None) -> bytes" },
	{ "pb_decode", mod_pb_decode, METH_VARARGS, "pb_decode(data, chip='gv100', format=None, style='text') -> str" },
	{ "snapshot_info", mod_snapshot_info, METH_VARARGS, "snapshot_info(data) -> what a snapshot says of itself" },
	{ NULL, NULL, 0, NULL },
};

static struct PyModuleDef moddef = {
	PyModuleDef_HEAD_INIT,
	"_nvmodel",
	"nvmodel's C API (use the nvmodel package).",
	-1,
	mod_methods,
	NULL,
	NULL,
	NULL,
	NULL,
};

/* The nvm_status values, as ERR_ARG ... (NvmError.status is one). */
static int add_statuses(PyObject *m)
{
	static const struct {
		const char *name;
		nvm_status st;
	} v[] = {
		{ "OK", NVM_OK },
		{ "ERR_ARG", NVM_ERR_ARG },
		{ "ERR_CHIP", NVM_ERR_CHIP },
		{ "ERR_RANGE", NVM_ERR_RANGE },
		{ "ERR_NOMEM", NVM_ERR_NOMEM },
		{ "ERR_APERTURE", NVM_ERR_APERTURE },
		{ "ERR_ALIGN", NVM_ERR_ALIGN },
		{ "ERR_NOENT", NVM_ERR_NOENT },
		{ "ERR_BLOCKED", NVM_ERR_BLOCKED },
		{ "ERR_FAULT", NVM_ERR_FAULT },
		{ "ERR_NOPTR", NVM_ERR_NOPTR },
		{ "ERR_BUSY", NVM_ERR_BUSY },
		{ "ERR_FULL", NVM_ERR_FULL },
		{ "ERR_VERSION", NVM_ERR_VERSION },
		{ "ERR_CORRUPT", NVM_ERR_CORRUPT },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		if (PyModule_AddIntConstant(m, v[i].name, (long)v[i].st) < 0)
			return -1;
	return 0;
}

PyMODINIT_FUNC PyInit__nvmodel(void);
PyMODINIT_FUNC PyInit__nvmodel(void)
{
	if (PyType_Ready(&nvm_py_gpu_type) < 0)
		return NULL;
	PyObject *m = PyModule_Create(&moddef);
	if (!m)
		return NULL;
	nvm_py_error = PyErr_NewException("nvmodel.NvmError", NULL, NULL);
	if (!nvm_py_error || PyModule_AddObjectRef(m, "NvmError", nvm_py_error) < 0 ||
	    PyModule_AddObjectRef(m, "Gpu", (PyObject *)&nvm_py_gpu_type) < 0 || add_statuses(m) < 0 ||
	    nvm_py_setup_init(m) < 0) {
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
