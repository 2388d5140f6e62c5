/*
 * The channel set-up helpers of nvmodel/setup.h as Python types and
 * functions (the nvmodel.setup module re-exports them with names and type
 * hints): a heap, a GMMU VM, a Host channel and runlists for gv100..gh100;
 * the PFIFO of NV04..NV4x, NV01/NV03 and G80 with their channels.
 *
 * Each object keeps a reference to the Gpu it was made for (and a VM to its
 * heap, a G80 channel to its fifo), and checks the Gpu is open on every
 * call: the C structures are plain data or builders that take the gpu each
 * call, so nothing here dangles. Arguments are range-checked where the C
 * helpers leave that to their caller (as the Lua builders do); a helper's
 * status raises NvmError.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "_nvmodel.h"
#include "nvmodel/setup.h"
#include "structmember.h"

/* ---------------------------------------------------------------- arguments and places */

static int check_max(unsigned long long v, unsigned long long max, const char *name)
{
	if (v <= max)
		return 1;
	PyErr_Format(PyExc_ValueError, "%s 0x%llx out of range (0..0x%llx)", name, v, max);
	return 0;
}

/* nvm_mmu_target: an int 0..3 or "vid" ("vram"), "sys_coh" ("sysmem"), "sys_ncoh". */
static int target_arg(PyObject *o, void *out)
{
	static const struct {
		const char *name;
		nvm_mmu_target t;
	} names[] = { { "vid", NVM_MMU_TGT_VID },        { "vram", NVM_MMU_TGT_VID },
		      { "peer", NVM_MMU_TGT_PEER },      { "sys_coh", NVM_MMU_TGT_SYS_COH },
		      { "sysmem", NVM_MMU_TGT_SYS_COH }, { "sys_ncoh", NVM_MMU_TGT_SYS_NCOH } };
	if (PyUnicode_Check(o)) {
		const char *s = PyUnicode_AsUTF8(o);
		if (!s)
			return 0;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(s, names[i].name)) {
				*(nvm_mmu_target *)out = names[i].t;
				return 1;
			}
		PyErr_Format(PyExc_ValueError, "unknown target '%s' (vid, sys_coh, sys_ncoh)", s);
		return 0;
	}
	long v = PyLong_AsLong(o);
	if (v == -1 && PyErr_Occurred())
		return 0;
	if (v < 0 || v > 3) {
		PyErr_SetString(PyExc_ValueError, "target must be 0..3 (VID, PEER, SYS_COH, SYS_NCOH)");
		return 0;
	}
	*(nvm_mmu_target *)out = (nvm_mmu_target)v;
	return 1;
}

/* nvmodel.Place(target, addr): an nvm_place. */
static PyTypeObject PlaceType;
static PyStructSequence_Field place_fields[] = {
	{ "target", "NVM_MMU_TGT_*: 0 VID, 2 SYS_COH, 3 SYS_NCOH" },
	{ "addr", "byte address in the target's memory" },
	{ NULL, NULL },
};
static PyStructSequence_Desc place_desc = { "nvmodel.Place", "An address in an aperture (nvm_place).", place_fields,
	                                    2 };

static PyObject *place_new(nvm_place p)
{
	PyObject *o = PyStructSequence_New(&PlaceType);
	if (!o)
		return NULL;
	PyObject *t = PyLong_FromLong((long)p.target), *a = PyLong_FromUnsignedLongLong(p.addr);
	if (!t || !a) {
		Py_XDECREF(t);
		Py_XDECREF(a);
		Py_DECREF(o);
		return NULL;
	}
	PyStructSequence_SET_ITEM(o, 0, t);
	PyStructSequence_SET_ITEM(o, 1, a);
	return o;
}

/* A Place or any (target, addr) pair. */
static int place_arg(PyObject *o, void *out)
{
	nvm_place *p = out;
	if (!PySequence_Check(o) || PySequence_Size(o) != 2) {
		if (!PyErr_Occurred())
			PyErr_SetString(PyExc_TypeError, "a place is (target, addr)");
		return 0;
	}
	PyObject *t = PySequence_GetItem(o, 0), *a = t ? PySequence_GetItem(o, 1) : NULL;
	unsigned long long addr = 0;
	int ok = t && a && target_arg(t, &p->target) && u64_arg(a, &addr);
	Py_XDECREF(t);
	Py_XDECREF(a);
	p->addr = addr;
	return ok;
}

/* A library call on go's GPU with a close from a hook deferred until it
 * returns (helper_enter / helper_leave): a helper makes several calls. */
#define GUARD(go, call) helper_leave((go), (helper_enter(go), (call)))

/* A helper object's plain state for another Gpu of the same chip (a twin
 * restored from a snapshot): NvmError ERR_CHIP for another chip. */
static int same_chip(const char *chip, GpuObject *g)
{
	if (chip && !strcmp(chip, nvm_gpu_chip(g->gpu)->name))
		return 1;
	raise_status(NVM_ERR_CHIP, "for_gpu: another chip");
	return 0;
}

#define FOR_GPU(Obj, type, field, chip_of, what)                                                                       \
	static PyObject *Obj##_for_gpu(Obj *self, PyObject *args)                                                      \
	{                                                                                                              \
		GpuObject *g;                                                                                          \
		if (!PyArg_ParseTuple(args, "O&", gpu_arg, &g))                                                        \
			return NULL;                                                                                   \
		if (!self->gpu)                                                                                        \
			return PyErr_Format(PyExc_ValueError, "%s not made", what);                                    \
		if (!same_chip(chip_of, g))                                                                            \
			return NULL;                                                                                   \
		Obj *o = (Obj *)(type).tp_alloc(&(type), 0);                                                           \
		if (!o)                                                                                                \
			return NULL;                                                                                   \
		o->field = self->field;                                                                                \
		o->gpu = (GpuObject *)Py_NewRef(g);                                                                    \
		return (PyObject *)o;                                                                                  \
	}

#define RO(name, type, obj, field, doc)                                                                                \
	{                                                                                                              \
		name, type, offsetof(obj, field), READONLY, doc                                                        \
	}

/* ---------------------------------------------------------------- Heap */

typedef struct {
	PyObject_HEAD nvm_heap h;
} HeapObject;

static PyTypeObject HeapType;

static int Heap_init(HeapObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "target", "base", "size", NULL };
	nvm_mmu_target t;
	unsigned long long base, size;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&O&", kwlist, target_arg, &t, u64_arg, &base, u64_arg, &size))
		return -1;
	nvm_status st = nvm_heap_init(&self->h, t, base, size);
	if (st) {
		raise_status(st, "Heap");
		return -1;
	}
	return 0;
}

static PyObject *Heap_alloc(HeapObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "size", "align", NULL };
	unsigned long long size, align = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|O&", kwlist, u64_arg, &size, u64_arg, &align))
		return NULL;
	uint64_t addr;
	nvm_status st = nvm_heap_alloc(&self->h, size, align, &addr);
	return st ? raise_status(st, "Heap.alloc") : PyLong_FromUnsignedLongLong(addr);
}

static PyObject *Heap_place(HeapObject *self, PyObject *args)
{
	unsigned long long addr;
	if (!PyArg_ParseTuple(args, "O&", u64_arg, &addr))
		return NULL;
	return place_new((nvm_place){ self->h.target, addr });
}

static PyMethodDef Heap_methods[] = {
	{ "alloc", (PyCFunction)(void (*)(void))Heap_alloc, METH_VARARGS | METH_KEYWORDS,
	  "alloc(size, align=4096) -> addr (nvm_heap_alloc)" },
	{ "place", (PyCFunction)Heap_place, METH_VARARGS, "place(addr) -> Place(target, addr)" },
	{ NULL, NULL, 0, NULL },
};

static PyMemberDef Heap_members[] = {
	RO("target", T_INT, HeapObject, h.target, "NVM_MMU_TGT_*"),
	RO("base", T_ULONGLONG, HeapObject, h.base, NULL),
	RO("size", T_ULONGLONG, HeapObject, h.size, NULL),
	RO("next", T_ULONGLONG, HeapObject, h.next, "the first free byte"),
	{ NULL, 0, 0, 0, NULL },
};

static PyTypeObject HeapType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.Heap",
	.tp_basicsize = sizeof(HeapObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Heap(target, base, size): a bump allocator over memory of a target (nvm_heap).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Heap_init,
	.tp_methods = Heap_methods,
	.tp_members = Heap_members,
};

/* ---------------------------------------------------------------- GmmuVm */

typedef struct {
	PyObject_HEAD GpuObject *gpu;
	HeapObject *heap; /* the builder allocates its tables from it */
	nvm_gmmu_vm *vm;
} VmObject;

static PyTypeObject VmType;

static int Vm_init(VmObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "gpu", "heap", "va_base", NULL };
	GpuObject *g;
	HeapObject *h;
	unsigned long long va_base = 1ull << 32;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O!|O&", kwlist, gpu_arg, &g, &HeapType, &h, u64_arg, &va_base))
		return -1;
	if (self->vm) {
		PyErr_SetString(PyExc_RuntimeError, "GmmuVm already made");
		return -1;
	}
	PyObject *r = status_or(g, GUARD(g, nvm_gmmu_vm_create(g->gpu, &h->h, va_base, &self->vm)), "GmmuVm", NULL);
	if (!r)
		return -1;
	Py_DECREF(r);
	self->gpu = (GpuObject *)Py_NewRef(g);
	self->heap = (HeapObject *)Py_NewRef(h);
	return 0;
}

static void Vm_dealloc(VmObject *self)
{
	nvm_gmmu_vm_free(self->vm);
	Py_XDECREF(self->gpu);
	Py_XDECREF(self->heap);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int vm_ready(VmObject *v)
{
	if (!v->vm) {
		PyErr_SetString(PyExc_ValueError, "GmmuVm not made");
		return 0;
	}
	return live(v->gpu);
}

static int map_opts_check(unsigned long long page, unsigned long long kind)
{
	return check_max(page, 0x200000, "page") && check_max(kind, 0xff, "kind");
}

static PyObject *Vm_map(VmObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "va",  "target", "pa", "size",           "page", "kind",
		                  "vol", "priv",   "ro", "atomic_disable", NULL };
	unsigned long long va, pa, size, page = 4096, kind = 0;
	nvm_mmu_target t;
	nvm_gmmu_map_opts o = { 0 };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&O&O&|$O&O&O&O&O&O&", kwlist, u64_arg, &va, target_arg, &t,
	                                 u64_arg, &pa, u64_arg, &size, u64_arg, &page, u64_arg, &kind, bool_arg, &o.vol,
	                                 bool_arg, &o.priv, bool_arg, &o.ro, bool_arg, &o.atomic_disable) ||
	    !map_opts_check(page, kind) || !vm_ready(self))
		return NULL;
	o.page = (uint32_t)page;
	o.kind = (uint32_t)kind;
	return status_or(self->gpu, GUARD(self->gpu, nvm_gmmu_map(self->gpu->gpu, self->vm, va, t, pa, size, &o)),
	                 "GmmuVm.map", NULL);
}

static PyObject *Vm_alloc_map(VmObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "size", "heap", "page", "kind", "vol", "priv", "ro", "atomic_disable", NULL };
	unsigned long long size, page = 4096, kind = 0;
	PyObject *heap = Py_None;
	nvm_gmmu_map_opts o = { 0 };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|O$O&O&O&O&O&O&", kwlist, u64_arg, &size, &heap, u64_arg, &page,
	                                 u64_arg, &kind, bool_arg, &o.vol, bool_arg, &o.priv, bool_arg, &o.ro, bool_arg,
	                                 &o.atomic_disable) ||
	    !map_opts_check(page, kind) || !vm_ready(self))
		return NULL;
	if (heap != Py_None && !PyObject_TypeCheck(heap, &HeapType))
		return PyErr_Format(PyExc_TypeError, "heap must be a Heap or None");
	o.page = (uint32_t)page;
	o.kind = (uint32_t)kind;
	uint64_t va = 0;
	nvm_place pa = { 0 };
	nvm_status st = GUARD(self->gpu, nvm_gmmu_alloc_map(self->gpu->gpu, self->vm,
	                                                    heap == Py_None ? NULL : &((HeapObject *)heap)->h, size, &o,
	                                                    &va, &pa));
	PyObject *r = st ? NULL : Py_BuildValue("(KN)", (unsigned long long)va, place_new(pa));
	return status_or(self->gpu, st, "GmmuVm.alloc_map", r);
}

static PyObject *Vm_conflict(VmObject *self, PyObject *args)
{
	unsigned long long va, size, page = 4096;
	if (!PyArg_ParseTuple(args, "O&O&|O&", u64_arg, &va, u64_arg, &size, u64_arg, &page) ||
	    !check_max(page, 0x200000, "page") || !vm_ready(self))
		return NULL;
	uint64_t where = UINT64_MAX;
	nvm_status st = nvm_gmmu_map_conflict(self->vm, va, size, (uint32_t)page, &where);
	if (!st)
		Py_RETURN_NONE;
	if (st == NVM_ERR_ARG && where != UINT64_MAX)
		return PyLong_FromUnsignedLongLong(where);
	return raise_status(st, "GmmuVm.conflict");
}

static PyObject *Vm_lookup(VmObject *self, PyObject *args)
{
	unsigned long long va;
	if (!PyArg_ParseTuple(args, "O&", u64_arg, &va) || !vm_ready(self))
		return NULL;
	nvm_place pa;
	uint64_t left;
	nvm_status st = nvm_gmmu_lookup(self->vm, va, &pa, &left);
	if (st)
		return raise_status(st, "GmmuVm.lookup");
	return Py_BuildValue("(NK)", place_new(pa), (unsigned long long)left);
}

static PyObject *Vm_write(VmObject *self, PyObject *args)
{
	unsigned long long va;
	Py_buffer b;
	if (!PyArg_ParseTuple(args, "O&y*", u64_arg, &va, &b))
		return NULL;
	if (!vm_ready(self)) {
		PyBuffer_Release(&b);
		return NULL;
	}
	nvm_status st = GUARD(self->gpu, nvm_gmmu_write(self->gpu->gpu, self->vm, va, b.buf, (size_t)b.len));
	PyBuffer_Release(&b);
	return status_or(self->gpu, st, "GmmuVm.write", NULL);
}

static PyObject *Vm_read(VmObject *self, PyObject *args)
{
	unsigned long long va;
	Py_ssize_t len;
	if (!PyArg_ParseTuple(args, "O&n", u64_arg, &va, &len) || !vm_ready(self))
		return NULL;
	if (len < 0)
		return PyErr_Format(PyExc_ValueError, "negative length");
	PyObject *b = PyBytes_FromStringAndSize(NULL, len);
	if (!b)
		return NULL;
	nvm_status st =
	        GUARD(self->gpu, nvm_gmmu_read(self->gpu->gpu, self->vm, va, PyBytes_AS_STRING(b), (size_t)len));
	return status_or(self->gpu, st, "GmmuVm.read", b);
}

static PyObject *Vm_pdb(VmObject *self, void *unused)
{
	(void)unused;
	return vm_ready(self) ? place_new(nvm_gmmu_vm_pdb(self->vm)) : NULL;
}

static PyObject *Vm_ver3(VmObject *self, void *unused)
{
	(void)unused;
	return vm_ready(self) ? PyBool_FromLong(nvm_gmmu_vm_ver3(self->vm)) : NULL;
}

static PyObject *Vm_next_va(VmObject *self, void *unused)
{
	(void)unused;
	return vm_ready(self) ? PyLong_FromUnsignedLongLong(nvm_gmmu_vm_next_va(self->vm)) : NULL;
}

static PyObject *Vm_footprint(VmObject *self, void *unused)
{
	(void)unused;
	return vm_ready(self) ? PyLong_FromSize_t(nvm_gmmu_vm_footprint(self->vm)) : NULL;
}

static PyObject *Vm_heap(VmObject *self, void *unused)
{
	(void)unused;
	return self->heap ? Py_NewRef((PyObject *)self->heap) : Py_NewRef(Py_None);
}

static PyGetSetDef Vm_getset[] = {
	{ "pdb", (getter)Vm_pdb, NULL, "the page directory base (Place) for an instance block", NULL },
	{ "ver3", (getter)Vm_ver3, NULL, "the builder writes the ver3 format (gh100)", NULL },
	{ "next_va", (getter)Vm_next_va, NULL, "the next VA alloc_map starts from", NULL },
	{ "footprint", (getter)Vm_footprint, NULL, "host memory the builder holds, bytes", NULL },
	{ "heap", (getter)Vm_heap, NULL, "the heap its tables come from", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef Vm_methods[] = {
	{ "map", (PyCFunction)(void (*)(void))Vm_map, METH_VARARGS | METH_KEYWORDS,
	  "map(va, target, pa, size, *, page=4096, kind=0, vol=False, priv=False, ro=False, atomic_disable=False)" },
	{ "alloc_map", (PyCFunction)(void (*)(void))Vm_alloc_map, METH_VARARGS | METH_KEYWORDS,
	  "alloc_map(size, heap=None, *, page=4096, ...) -> (va, Place)" },
	{ "conflict", (PyCFunction)Vm_conflict, METH_VARARGS,
	  "conflict(va, size, page=4096) -> None, or the first 2 MiB slot in the way" },
	{ "lookup", (PyCFunction)Vm_lookup, METH_VARARGS, "lookup(va) -> (Place, bytes left in the mapping)" },
	{ "write", (PyCFunction)Vm_write, METH_VARARGS, "write(va, data): CPU access by VA" },
	{ "read", (PyCFunction)Vm_read, METH_VARARGS, "read(va, n) -> bytes" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject VmType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.GmmuVm",
	.tp_basicsize = sizeof(VmObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "GmmuVm(gpu, heap, va_base=2**32): GMMU page tables of gpu's chip (nvm_gmmu_vm).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Vm_init,
	.tp_dealloc = (destructor)Vm_dealloc,
	.tp_methods = Vm_methods,
	.tp_getset = Vm_getset,
};

/* ---------------------------------------------------------------- HostChannel */

typedef struct {
	PyObject_HEAD GpuObject *gpu;
	nvm_setup_channel ch;
	const char *chip; /* the chip it was made for */
} ChanObject;

static PyTypeObject ChanType;

static int heap_or_none(PyObject *o, nvm_heap **out, const char *name)
{
	if (o == Py_None) {
		*out = NULL;
		return 1;
	}
	if (!PyObject_TypeCheck(o, &HeapType)) {
		PyErr_Format(PyExc_TypeError, "%s must be a Heap or None", name);
		return 0;
	}
	*out = &((HeapObject *)o)->h;
	return 1;
}

static int Chan_init(ChanObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "vm",      "heap",       "chid", "runq",   "runlist",   "gpfifo_entries",
		                  "pb_size", "userd_heap", "priv", "replay", "subdevice", "subcontexts",
		                  "bind",    "enable",     NULL };
	VmObject *vm;
	PyObject *heap = Py_None, *uheap = Py_None;
	unsigned long long chid = ~0ull, runq = 0, entries = 512, pb_size = 0x10000, subcontexts = 1;
	long long subdevice = -1;
	int runlist = -1;
	nvm_channel_desc d;
	nvm_channel_desc_init(&d);
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|O$O&O&iO&O&OO&O&LO&O&O&", kwlist, &VmType, &vm, &heap, u64_arg,
	                                 &chid, u64_arg, &runq, &runlist, u64_arg, &entries, u64_arg, &pb_size, &uheap,
	                                 bool_arg, &d.priv, bool_arg, &d.replay, &subdevice, u64_arg, &subcontexts,
	                                 bool_arg, &d.bind, bool_arg, &d.enable))
		return -1;
	if (chid == ~0ull) {
		PyErr_SetString(PyExc_TypeError, "HostChannel() needs chid=");
		return -1;
	}
	if (self->gpu) {
		PyErr_SetString(PyExc_RuntimeError, "HostChannel already made");
		return -1;
	}
	nvm_heap *h, *uh;
	if (!heap_or_none(heap, &h, "heap") || !heap_or_none(uheap, &uh, "userd_heap") ||
	    !check_max(chid, 0xffffffff, "chid") || !check_max(runq, 1, "runq") ||
	    !check_max(entries, 0xffffffff, "gpfifo_entries") || !check_max(subcontexts, 64, "subcontexts") ||
	    !vm_ready(vm))
		return -1;
	d.chid = (uint32_t)chid;
	d.runq = (unsigned)runq;
	d.runlist = runlist;
	d.gpfifo_entries = (uint32_t)entries;
	d.pb_size = pb_size;
	d.userd_heap = uh;
	d.subdevice = subdevice;
	d.subcontexts = (unsigned)subcontexts;
	const char *chip = nvm_gpu_chip(vm->gpu->gpu)->name; /* before a hook may close it */
	nvm_status st = GUARD(vm->gpu, nvm_channel_create(vm->gpu->gpu, vm->vm, h, &d, &self->ch));
	PyObject *r = status_or(vm->gpu, st, "HostChannel", NULL);
	if (!r)
		return -1;
	Py_DECREF(r);
	Py_XSETREF(self->gpu, (GpuObject *)Py_NewRef(vm->gpu));
	self->chip = chip;
	return 0;
}

static void Chan_dealloc(ChanObject *self)
{
	Py_XDECREF(self->gpu);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int chan_ready(ChanObject *c)
{
	if (!c->gpu) {
		PyErr_SetString(PyExc_ValueError, "HostChannel not made");
		return 0;
	}
	return live(c->gpu);
}

typedef nvm_status (*chan_op)(nvm_gpu *, const nvm_setup_channel *);

static PyObject *chan_call(ChanObject *self, chan_op op, const char *what)
{
	if (!chan_ready(self))
		return NULL;
	return status_or(self->gpu, GUARD(self->gpu, op(self->gpu->gpu, &self->ch)), what, NULL);
}

static PyObject *Chan_bind(ChanObject *self, PyObject *unused)
{
	(void)unused;
	return chan_call(self, nvm_channel_bind, "HostChannel.bind");
}

static PyObject *Chan_enable(ChanObject *self, PyObject *unused)
{
	(void)unused;
	return chan_call(self, nvm_channel_enable, "HostChannel.enable");
}

static PyObject *Chan_disable(ChanObject *self, PyObject *unused)
{
	(void)unused;
	return chan_call(self, nvm_channel_disable, "HostChannel.disable");
}

static PyObject *Chan_kick(ChanObject *self, PyObject *unused)
{
	(void)unused;
	return chan_call(self, nvm_channel_kick, "HostChannel.kick");
}

static PyObject *Chan_userd_rd32(ChanObject *self, PyObject *args)
{
	unsigned int off;
	if (!PyArg_ParseTuple(args, "O&", u32_arg, &off) || !chan_ready(self))
		return NULL;
	uint32_t v = 0;
	nvm_status st = GUARD(self->gpu, nvm_channel_userd_rd32(self->gpu->gpu, &self->ch, off, &v));
	return status_or(self->gpu, st, "HostChannel.userd_rd32", st ? NULL : PyLong_FromUnsignedLong(v));
}

static PyObject *Chan_push_entry(ChanObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "e0", "e1", "kick", NULL };
	unsigned int e0, e1;
	bool kick = true;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&", kwlist, u32_arg, &e0, u32_arg, &e1, bool_arg, &kick) ||
	    !chan_ready(self))
		return NULL;
	uint32_t index = 0;
	nvm_status st = GUARD(self->gpu, nvm_channel_push_entry(self->gpu->gpu, &self->ch, e0, e1, kick, &index));
	return status_or(self->gpu, st, "HostChannel.push_entry", st ? NULL : PyLong_FromUnsignedLong(index));
}

static PyObject *Chan_push(ChanObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "data", "kick", "fetch_conditional", "priv", "subroutine", "sync", NULL };
	PyObject *data;
	bool kick = true;
	nvm_gp_opts o = { 0 };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O&$O&O&O&O&", kwlist, &data, bool_arg, &kick, bool_arg,
	                                 &o.fetch_conditional, bool_arg, &o.priv, bool_arg, &o.subroutine, bool_arg,
	                                 &o.sync) ||
	    !chan_ready(self))
		return NULL;
	uint32_t *w;
	size_t n;
	if (!words_arg(data, &w, &n))
		return NULL;
	uint32_t index = 0;
	uint64_t va = 0;
	nvm_status st = GUARD(self->gpu, nvm_channel_push(self->gpu->gpu, &self->ch, w, 4 * n, &o, kick, &index, &va));
	PyMem_Free(w);
	return status_or(self->gpu, st, "HostChannel.push",
	                 st ? NULL : Py_BuildValue("(IK)", (unsigned)index, (unsigned long long)va));
}

static PyObject *Chan_for_gpu(ChanObject *self, PyObject *args)
{
	GpuObject *g;
	if (!PyArg_ParseTuple(args, "O&", gpu_arg, &g))
		return NULL;
	if (!self->gpu)
		return PyErr_Format(PyExc_ValueError, "HostChannel not made");
	if (!same_chip(self->chip, g))
		return NULL;
	ChanObject *o = (ChanObject *)ChanType.tp_alloc(&ChanType, 0);
	if (!o)
		return NULL;
	o->ch = self->ch;
	o->chip = self->chip;
	o->gpu = (GpuObject *)Py_NewRef(g);
	return (PyObject *)o;
}

#define CHAN_PLACE_GETTER(field)                                                                                       \
	static PyObject *Chan_##field(ChanObject *self, void *unused)                                                  \
	{                                                                                                              \
		(void)unused;                                                                                          \
		return place_new(self->ch.field);                                                                      \
	}
CHAN_PLACE_GETTER(inst)
CHAN_PLACE_GETTER(userd)
CHAN_PLACE_GETTER(gpfifo)
CHAN_PLACE_GETTER(pb)

static PyGetSetDef Chan_getset[] = {
	{ "inst", (getter)Chan_inst, NULL, "the instance block (Place)", NULL },
	{ "userd", (getter)Chan_userd, NULL, "USERD (Place)", NULL },
	{ "gpfifo", (getter)Chan_gpfifo, NULL, "the GPFIFO ring's memory (Place)", NULL },
	{ "pb", (getter)Chan_pb, NULL, "the pushbuffer area's memory (Place)", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMemberDef Chan_members[] = {
	RO("chid", T_UINT, ChanObject, ch.chid, NULL),
	RO("runq", T_UINT, ChanObject, ch.runq, "RUNQUEUE_SELECTOR"),
	RO("runlist", T_INT, ChanObject, ch.runlist, "the runlist id it was made for, or -1"),
	{ "submitted", T_INT, offsetof(ChanObject, ch.submitted), 0,
	  "the runlist it was last submitted on (set it when you submit one yourself), or -1" },
	RO("gpfifo_va", T_ULONGLONG, ChanObject, ch.gpfifo_va, NULL),
	RO("gpfifo_entries", T_UINT, ChanObject, ch.gpfifo_entries, NULL),
	RO("pb_va", T_ULONGLONG, ChanObject, ch.pb_va, NULL),
	RO("pb_size", T_ULONGLONG, ChanObject, ch.pb_size, NULL),
	RO("pb_next", T_ULONGLONG, ChanObject, ch.pb_next, "offset of the next segment in the area"),
	RO("put", T_UINT, ChanObject, ch.put, "GP_PUT as the channel last wrote it"),
	{ NULL, 0, 0, 0, NULL },
};

static PyMethodDef Chan_methods[] = {
	{ "bind", (PyCFunction)Chan_bind, METH_NOARGS, "PCCSR CHANNEL_INST bind (gv100, tu102)" },
	{ "enable", (PyCFunction)Chan_enable, METH_NOARGS, "enable the channel" },
	{ "disable", (PyCFunction)Chan_disable, METH_NOARGS, "disable the channel" },
	{ "kick", (PyCFunction)Chan_kick, METH_NOARGS, "publish GP_PUT in USERD and ring the doorbell" },
	{ "userd_rd32", (PyCFunction)Chan_userd_rd32, METH_VARARGS, "userd_rd32(off) -> the USERD word at byte off" },
	{ "push_entry", (PyCFunction)(void (*)(void))Chan_push_entry, METH_VARARGS | METH_KEYWORDS,
	  "push_entry(e0, e1, kick=True) -> GP index" },
	{ "for_gpu", (PyCFunction)Chan_for_gpu, METH_VARARGS,
	  "for_gpu(gpu) -> this channel's state for another Gpu of the chip (a restored twin)" },
	{ "push", (PyCFunction)(void (*)(void))Chan_push, METH_VARARGS | METH_KEYWORDS,
	  "push(data, kick=True, *, fetch_conditional=False, priv=False, subroutine=False, sync=False) -> (index, "
	  "va)" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject ChanType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.HostChannel",
	.tp_basicsize = sizeof(ChanObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "HostChannel(vm, heap=None, *, chid, ...): a Host channel (nvm_channel_create).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Chan_init,
	.tp_dealloc = (destructor)Chan_dealloc,
	.tp_methods = Chan_methods,
	.tp_members = Chan_members,
	.tp_getset = Chan_getset,
};

/* ---------------------------------------------------------------- Host functions */

static PyObject *f_host_info(PyObject *m, PyObject *args)
{
	(void)m;
	GpuObject *g;
	if (!PyArg_ParseTuple(args, "O&", gpu_arg, &g))
		return NULL;
	nvm_setup_host_info i;
	nvm_status st = GUARD(g, nvm_setup_host_get(g->gpu, &i));
	if (st)
		return raise_status(st, "host_info");
	return Py_BuildValue("(sIIOOI)", i.name, i.nrunlist, i.nchid, i.ramfc_userd ? Py_True : Py_False,
	                     i.per_runlist_chram ? Py_True : Py_False, i.subdevice);
}

static PyObject *f_host_init(PyObject *m, PyObject *args)
{
	(void)m;
	GpuObject *g;
	if (!PyArg_ParseTuple(args, "O&", gpu_arg, &g))
		return NULL;
	return status_or(g, nvm_setup_host_init(g->gpu), "host_init", NULL);
}

static PyObject *f_runlist_space(PyObject *m, PyObject *args)
{
	(void)m;
	GpuObject *g;
	unsigned int id;
	if (!PyArg_ParseTuple(args, "O&O&", gpu_arg, &g, u32_arg, &id))
		return NULL;
	nvm_runlist_space r;
	nvm_status st = GUARD(g, nvm_runlist_space_get(g->gpu, id, &r, NULL));
	return status_or(g, st, "runlist_space", st ? NULL : Py_BuildValue("(III)", r.base, r.chram, r.dbid));
}

static PyObject *f_instance_write(PyObject *m, PyObject *args, PyObject *kw)
{
	(void)m;
	static char *kwlist[] = { "gpu",  "inst",      "pdb",    "userd", "gpfifo_va",   "gpfifo_entries", "chid",
		                  "priv", "subdevice", "replay", "vol",   "subcontexts", "ctx_valid",      NULL };
	GpuObject *g;
	nvm_place inst;
	nvm_instance_desc d;
	nvm_instance_desc_init(&d);
	unsigned long long va = ~0ull, entries = ~0ull, chid = ~0ull, subcontexts = 1;
	long long subdevice = -1;
	d.pdb.addr = d.userd.addr = UINT64_MAX; /* the required ones: a place's address cannot be all ones */
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|$O&O&O&O&O&O&LO&iO&O&", kwlist, gpu_arg, &g, place_arg, &inst,
	                                 place_arg, &d.pdb, place_arg, &d.userd, u64_arg, &va, u64_arg, &entries,
	                                 u64_arg, &chid, bool_arg, &d.priv, &subdevice, bool_arg, &d.replay, &d.vol,
	                                 u64_arg, &subcontexts, bool_arg, &d.ctx_valid) ||
	    !check_max(entries, 0xffffffff, "gpfifo_entries") || !check_max(chid, 0xffffffff, "chid") ||
	    !check_max(subcontexts, 64, "subcontexts"))
		return NULL;
	if (d.pdb.addr == UINT64_MAX || d.userd.addr == UINT64_MAX || va == ~0ull || entries == ~0ull) {
		PyErr_SetString(PyExc_TypeError,
		                "instance_write() needs pdb=, userd=, gpfifo_va=, gpfifo_entries=, chid=");
		return NULL;
	}
	d.gpfifo_va = va;
	d.gpfifo_entries = (uint32_t)entries;
	d.chid = (uint32_t)chid;
	d.subdevice = subdevice;
	d.subcontexts = (unsigned)subcontexts;
	return status_or(g, GUARD(g, nvm_instance_write(g->gpu, inst, &d)), "instance_write", NULL);
}

static PyObject *f_gp_entry(PyObject *m, PyObject *args, PyObject *kw)
{
	(void)m;
	static char *kwlist[] = { "va", "ndwords", "fetch_conditional", "priv", "subroutine", "sync", NULL };
	unsigned long long va;
	unsigned int n;
	nvm_gp_opts o = { 0 };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|$O&O&O&O&", kwlist, u64_arg, &va, u32_arg, &n, bool_arg,
	                                 &o.fetch_conditional, bool_arg, &o.priv, bool_arg, &o.subroutine, bool_arg,
	                                 &o.sync))
		return NULL;
	uint32_t e0, e1;
	nvm_status st = nvm_gp_entry(va, n, &o, &e0, &e1);
	return st ? raise_status(st, "gp_entry") : Py_BuildValue("(II)", e0, e1);
}

static PyObject *f_gp_control(PyObject *m, PyObject *args, PyObject *kw)
{
	(void)m;
	static char *kwlist[] = { "opcode", "operand", "sync", NULL };
	unsigned int op, operand = 0;
	bool sync = false;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|O&O&", kwlist, u32_arg, &op, u32_arg, &operand, bool_arg,
	                                 &sync) ||
	    !check_max(op, 0xff, "opcode"))
		return NULL;
	uint32_t e0, e1;
	nvm_gp_control((uint8_t)op, operand, sync, &e0, &e1);
	return Py_BuildValue("(II)", e0, e1);
}

static PyObject *f_gmmu_pte_ver2(PyObject *m, PyObject *args, PyObject *kw)
{
	(void)m;
	static char *kwlist[] = { "target", "pa", "kind", "vol", "priv", "ro", "atomic_disable", NULL };
	nvm_mmu_target t;
	unsigned long long pa, kind = 0;
	nvm_gmmu_map_opts o = { 0 };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|$O&O&O&O&O&", kwlist, target_arg, &t, u64_arg, &pa, u64_arg,
	                                 &kind, bool_arg, &o.vol, bool_arg, &o.priv, bool_arg, &o.ro, bool_arg,
	                                 &o.atomic_disable) ||
	    !check_max(kind, 0xffffffff, "kind"))
		return NULL;
	o.kind = (uint32_t)kind;
	uint64_t pte;
	nvm_status st = nvm_gmmu_pte_ver2(t, pa, &o, &pte);
	return st ? raise_status(st, "gmmu_pte_ver2") : PyLong_FromUnsignedLongLong(pte);
}

/* A runlist entry: a HostChannel, ("tsg", tsgid, length, timeout, scale)
 * or ("chan", chid, runq, inst, userd). */
static int rl_entry_arg(PyObject *o, nvm_rl_entry *e)
{
	if (PyObject_TypeCheck(o, &ChanType)) {
		const nvm_setup_channel *c = &((ChanObject *)o)->ch;
		if (!((ChanObject *)o)->gpu) {
			PyErr_SetString(PyExc_ValueError, "HostChannel not made");
			return 0;
		}
		nvm_rl_chan(e, c->chid, c->runq, c->inst, c->userd);
		return 1;
	}
	const char *kind;
	unsigned long long a, b;
	PyObject *x, *y;
	if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 5 ||
	    !PyArg_ParseTuple(o, "sO&O&OO", &kind, u64_arg, &a, u64_arg, &b, &x, &y)) {
		if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_TypeError)) {
			PyErr_Clear();
			PyErr_SetString(PyExc_TypeError,
			                "a runlist entry is a HostChannel, ('tsg', tsgid, length, timeout, scale) or "
			                "('chan', chid, runq, inst, userd)");
		}
		return 0;
	}
	if (!strcmp(kind, "tsg")) {
		unsigned long long timeout, scale;
		if (!u64_arg(x, &timeout) || !u64_arg(y, &scale) || !check_max(a, 0xffffffff, "tsgid") ||
		    !check_max(b, 0xffffffff, "length") || !check_max(timeout, 0xffffffff, "timeout") ||
		    !check_max(scale, 0xffffffff, "scale"))
			return 0;
		nvm_rl_tsg(e, (uint32_t)a, (unsigned)b, (unsigned)timeout, (unsigned)scale);
		return 1;
	}
	if (!strcmp(kind, "chan")) {
		nvm_place inst, userd;
		if (!place_arg(x, &inst) || !place_arg(y, &userd) || !check_max(a, 0xffffffff, "chid") ||
		    !check_max(b, 0xffffffff, "runq"))
			return 0;
		nvm_rl_chan(e, (uint32_t)a, (unsigned)b, inst, userd);
		return 1;
	}
	PyErr_Format(PyExc_ValueError, "runlist entry kind '%s' (tsg, chan)", kind);
	return 0;
}

static PyObject *f_runlist_write(PyObject *m, PyObject *args)
{
	(void)m;
	GpuObject *g;
	HeapObject *h;
	PyObject *entries;
	if (!PyArg_ParseTuple(args, "O&O!O", gpu_arg, &g, &HeapType, &h, &entries))
		return NULL;
	PyObject *seq = PySequence_Fast(entries, "entries must be a sequence");
	if (!seq)
		return NULL;
	Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
	nvm_rl_entry *e = PyMem_Calloc(n ? (size_t)n : 1, sizeof(*e));
	if (!e) {
		Py_DECREF(seq);
		return PyErr_NoMemory();
	}
	for (Py_ssize_t i = 0; i < n; i++)
		if (!rl_entry_arg(PySequence_Fast_GET_ITEM(seq, i), &e[i])) {
			PyMem_Free(e);
			Py_DECREF(seq);
			return NULL;
		}
	Py_DECREF(seq);
	nvm_place rl = { 0 };
	nvm_status st = GUARD(g, nvm_runlist_write(g->gpu, &h->h, e, (size_t)n, &rl));
	PyMem_Free(e);
	return status_or(g, st, "runlist_write", st ? NULL : place_new(rl));
}

static PyObject *f_runlist_submit(PyObject *m, PyObject *args)
{
	(void)m;
	GpuObject *g;
	unsigned int id, length;
	nvm_place rl;
	if (!PyArg_ParseTuple(args, "O&O&O&O&", gpu_arg, &g, u32_arg, &id, place_arg, &rl, u32_arg, &length))
		return NULL;
	return status_or(g, GUARD(g, nvm_runlist_submit(g->gpu, id, rl, length)), "runlist_submit", NULL);
}

static PyObject *f_runlist_pending(PyObject *m, PyObject *args)
{
	(void)m;
	GpuObject *g;
	unsigned int id;
	if (!PyArg_ParseTuple(args, "O&O&", gpu_arg, &g, u32_arg, &id))
		return NULL;
	bool pending = false;
	nvm_status st = GUARD(g, nvm_runlist_pending(g->gpu, id, &pending));
	return status_or(g, st, "runlist_pending", st ? NULL : PyBool_FromLong(pending));
}

/* ---------------------------------------------------------------- PFIFO NV04..NV4x */

typedef struct {
	PyObject_HEAD GpuObject *gpu;
	nvm_nv04_fifo f;
} Nv04Object;

static PyTypeObject Nv04Type;

static int Nv04_init(Nv04Object *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "gpu", NULL };
	GpuObject *g;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&", kwlist, gpu_arg, &g))
		return -1;
	PyObject *r = status_or(g, GUARD(g, nvm_nv04_fifo_init(g->gpu, &self->f)), "Nv04Fifo", NULL);
	if (!r)
		return -1;
	Py_DECREF(r);
	Py_XSETREF(self->gpu, (GpuObject *)Py_NewRef(g));
	return 0;
}

static void Nv04_dealloc(Nv04Object *self)
{
	Py_XDECREF(self->gpu);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int nv04_ready(Nv04Object *s)
{
	if (!s->gpu) {
		PyErr_SetString(PyExc_ValueError, "Nv04Fifo not made");
		return 0;
	}
	return live(s->gpu);
}

static int nv04_chid(Nv04Object *s, unsigned long long chid)
{
	return check_max(chid, s->f.nchan ? s->f.nchan - 1 : 0, "chid");
}

static PyObject *Nv04_alloc(Nv04Object *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "size", "align", NULL };
	unsigned long long size, align = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|O&", kwlist, u64_arg, &size, u64_arg, &align) ||
	    !check_max(size, 0x100000, "size") || !check_max(align, 0x100000, "align") || !nv04_ready(self))
		return NULL;
	uint32_t inst;
	nvm_status st = nvm_nv04_alloc(&self->f, (uint32_t)size, (uint32_t)align, &inst);
	return st ? raise_status(st, "Nv04Fifo.alloc") : PyLong_FromUnsignedLong(inst);
}

static PyObject *Nv04_dmaobj(Nv04Object *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "start", "limit", "target", "access", "class_id", "inst", NULL };
	unsigned int start, limit;
	unsigned long long target = 2, access = 0, cls = 0x3d;
	PyObject *inst_o = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|$O&O&O&O", kwlist, u32_arg, &start, u32_arg, &limit, u64_arg,
	                                 &target, u64_arg, &access, u64_arg, &cls, &inst_o) ||
	    !check_max(target, 3, "target") || !check_max(access, 2, "access") || !check_max(cls, 0xfff, "class_id") ||
	    !nv04_ready(self))
		return NULL;
	uint32_t inst = UINT32_MAX;
	if (inst_o != Py_None) {
		unsigned long long v;
		if (!u64_arg(inst_o, &v) || !check_max(v, 0xffffffff - 1, "inst"))
			return NULL;
		inst = (uint32_t)v;
	}
	nvm_nv04_dmaobj o = { .class_id = (uint32_t)cls,
		              .target = (unsigned)target,
		              .access = (unsigned)access,
		              .start = start,
		              .limit = limit };
	nvm_status st = GUARD(self->gpu, nvm_nv04_dmaobj_write(self->gpu->gpu, &self->f, &o, &inst));
	return status_or(self->gpu, st, "Nv04Fifo.dmaobj", st ? NULL : PyLong_FromUnsignedLong(inst));
}

static PyObject *Nv04_object(Nv04Object *self, PyObject *args)
{
	unsigned long long cls;
	if (!PyArg_ParseTuple(args, "O&", u64_arg, &cls) || !check_max(cls, 0xffff, "class_id") || !nv04_ready(self))
		return NULL;
	uint32_t inst;
	nvm_status st = GUARD(self->gpu, nvm_nv04_object(self->gpu->gpu, &self->f, (uint32_t)cls, &inst));
	return status_or(self->gpu, st, "Nv04Fifo.object", st ? NULL : PyLong_FromUnsignedLong(inst));
}

static PyObject *Nv04_ramht_add(Nv04Object *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "chid", "handle", "inst", "engine", NULL };
	unsigned long long chid, inst, engine = 1;
	unsigned int handle;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&O&|O&", kwlist, u64_arg, &chid, u32_arg, &handle, u64_arg,
	                                 &inst, u64_arg, &engine) ||
	    !nv04_chid(self, chid) || !check_max(inst, 0xffff0, "inst") || !check_max(engine, 7, "engine") ||
	    !nv04_ready(self))
		return NULL;
	uint32_t addr;
	nvm_status st = GUARD(self->gpu, nvm_nv04_ramht_add(self->gpu->gpu, &self->f, (uint32_t)chid, handle,
	                                                    (uint32_t)inst, (unsigned)engine, &addr));
	return status_or(self->gpu, st, "Nv04Fifo.ramht_add", st ? NULL : PyLong_FromUnsignedLong(addr));
}

static PyObject *Nv04_ramfc_set(Nv04Object *self, PyObject *args)
{
	unsigned long long chid;
	const char *name;
	unsigned int v;
	if (!PyArg_ParseTuple(args, "O&sO&", u64_arg, &chid, &name, u32_arg, &v) || !nv04_chid(self, chid) ||
	    !nv04_ready(self))
		return NULL;
	return status_or(self->gpu,
	                 GUARD(self->gpu, nvm_nv04_ramfc_set(self->gpu->gpu, &self->f, (uint32_t)chid, name, v)), name,
	                 NULL);
}

static PyObject *Nv04_dma_channel(Nv04Object *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "chid", "pushbuf_inst", "offset", "big_endian", NULL };
	unsigned long long chid, inst, offset = 0;
	bool be = false;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&O&", kwlist, u64_arg, &chid, u64_arg, &inst, u64_arg,
	                                 &offset, bool_arg, &be) ||
	    !nv04_chid(self, chid) || !check_max(inst, 0xffff0, "pushbuf_inst") ||
	    !check_max(offset, 0xfffffffc, "offset") || !nv04_ready(self))
		return NULL;
	nvm_status st = GUARD(self->gpu, nvm_nv04_dma_channel(self->gpu->gpu, &self->f, (uint32_t)chid, (uint32_t)inst,
	                                                      (uint32_t)offset, be));
	return status_or(self->gpu, st, "Nv04Fifo.dma_channel", NULL);
}

static PyObject *Nv04_user(Nv04Object *self, PyObject *args)
{
	unsigned long long chid;
	if (!PyArg_ParseTuple(args, "O&", u64_arg, &chid) || !nv04_chid(self, chid) || !nv04_ready(self))
		return NULL;
	return PyLong_FromUnsignedLong(nvm_nv04_user(&self->f, (uint32_t)chid));
}

static PyObject *Nv04_kick(Nv04Object *self, PyObject *args)
{
	unsigned long long chid;
	unsigned int put;
	if (!PyArg_ParseTuple(args, "O&O&", u64_arg, &chid, u32_arg, &put) || !nv04_chid(self, chid) ||
	    !nv04_ready(self))
		return NULL;
	return status_or(self->gpu, GUARD(self->gpu, nvm_nv04_kick(self->gpu->gpu, &self->f, (uint32_t)chid, put)),
	                 "Nv04Fifo.kick", NULL);
}

static PyObject *Nv04_pio(Nv04Object *self, PyObject *args)
{
	unsigned long long chid, subch, method;
	unsigned int data;
	if (!PyArg_ParseTuple(args, "O&O&O&O&", u64_arg, &chid, u64_arg, &subch, u64_arg, &method, u32_arg, &data) ||
	    !nv04_chid(self, chid) || !check_max(subch, 7, "subch") || !check_max(method, 0x1ffc, "method") ||
	    !nv04_ready(self))
		return NULL;
	nvm_status st = GUARD(self->gpu, nvm_nv04_pio(self->gpu->gpu, &self->f, (uint32_t)chid, (unsigned)subch,
	                                              (uint32_t)method, data));
	return status_or(self->gpu, st, "Nv04Fifo.pio", NULL);
}

FOR_GPU(Nv04Object, Nv04Type, f, self->f.chip, "Nv04Fifo")

static PyObject *Nv04_chip(Nv04Object *self, void *unused)
{
	(void)unused;
	return PyUnicode_FromString(self->f.chip ? self->f.chip : "");
}

static PyGetSetDef Nv04_getset[] = {
	{ "chip", (getter)Nv04_chip, NULL, "the chip", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMemberDef Nv04_members[] = {
	RO("ramht", T_UINT, Nv04Object, f.ramht, "RAMHT's RAMIN address"),
	RO("ramht_bits", T_UINT, Nv04Object, f.ramht_bits, "log2 of its entries"),
	RO("ramro", T_UINT, Nv04Object, f.ramro, NULL),
	RO("ramfc", T_UINT, Nv04Object, f.ramfc, NULL),
	RO("ramfc_size", T_UINT, Nv04Object, f.ramfc_size, "bytes of a RAMFC entry"),
	RO("nchan", T_UINT, Nv04Object, f.nchan, "channels"),
	RO("large", T_INT, Nv04Object, f.large, "RAMFC LARGE (64-byte entries)"),
	RO("nv40", T_INT, Nv04Object, f.nv40, "NV40's registers"),
	RO("next", T_UINT, Nv04Object, f.next, "the allocator's next free RAMIN byte"),
	{ NULL, 0, 0, 0, NULL },
};

static PyMethodDef Nv04_methods[] = {
	{ "alloc", (PyCFunction)(void (*)(void))Nv04_alloc, METH_VARARGS | METH_KEYWORDS,
	  "alloc(size, align=16) -> RAMIN address" },
	{ "dmaobj", (PyCFunction)(void (*)(void))Nv04_dmaobj, METH_VARARGS | METH_KEYWORDS,
	  "dmaobj(start, limit, *, target=2, access=0, class_id=0x3d, inst=None) -> inst" },
	{ "object", (PyCFunction)Nv04_object, METH_VARARGS, "object(class_id) -> inst" },
	{ "ramht_add", (PyCFunction)(void (*)(void))Nv04_ramht_add, METH_VARARGS | METH_KEYWORDS,
	  "ramht_add(chid, handle, inst, engine=1) -> the entry's RAMIN address" },
	{ "ramfc_set", (PyCFunction)Nv04_ramfc_set, METH_VARARGS, "ramfc_set(chid, field name, value)" },
	{ "dma_channel", (PyCFunction)(void (*)(void))Nv04_dma_channel, METH_VARARGS | METH_KEYWORDS,
	  "dma_channel(chid, pushbuf_inst, offset=0, big_endian=False)" },
	{ "user", (PyCFunction)Nv04_user, METH_VARARGS, "user(chid) -> the channel's USER area (BAR0)" },
	{ "kick", (PyCFunction)Nv04_kick, METH_VARARGS, "kick(chid, put): DMA_PUT" },
	{ "pio", (PyCFunction)Nv04_pio, METH_VARARGS, "pio(chid, subch, method, data)" },
	{ "for_gpu", (PyCFunction)Nv04Object_for_gpu, METH_VARARGS,
	  "for_gpu(gpu) -> this fifo's state for another Gpu of the chip (a restored twin)" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject Nv04Type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.Nv04Fifo",
	.tp_basicsize = sizeof(Nv04Object),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Nv04Fifo(gpu): PFIFO of NV04..NV4x set up as nouveau does (nvm_nv04_fifo_init).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Nv04_init,
	.tp_dealloc = (destructor)Nv04_dealloc,
	.tp_methods = Nv04_methods,
	.tp_members = Nv04_members,
	.tp_getset = Nv04_getset,
};

/* ---------------------------------------------------------------- PFIFO NV01, NV03 */

typedef struct {
	PyObject_HEAD GpuObject *gpu;
	nvm_nv03_fifo f;
} Nv03Object;

static PyTypeObject Nv03Type;

static int Nv03_init(Nv03Object *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "gpu", NULL };
	GpuObject *g;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&", kwlist, gpu_arg, &g))
		return -1;
	PyObject *r = status_or(g, GUARD(g, nvm_nv03_fifo_init(g->gpu, &self->f)), "Nv03Fifo", NULL);
	if (!r)
		return -1;
	Py_DECREF(r);
	Py_XSETREF(self->gpu, (GpuObject *)Py_NewRef(g));
	return 0;
}

static void Nv03_dealloc(Nv03Object *self)
{
	Py_XDECREF(self->gpu);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int nv03_ready(Nv03Object *s)
{
	if (!s->gpu) {
		PyErr_SetString(PyExc_ValueError, "Nv03Fifo not made");
		return 0;
	}
	return live(s->gpu);
}

static PyObject *Nv03_ramin_wr(Nv03Object *self, PyObject *args)
{
	unsigned int addr, v;
	if (!PyArg_ParseTuple(args, "O&O&", u32_arg, &addr, u32_arg, &v) || !nv03_ready(self))
		return NULL;
	return status_or(self->gpu, GUARD(self->gpu, nvm_nv03_ramin_wr(self->gpu->gpu, &self->f, addr, v)),
	                 "Nv03Fifo.ramin_wr", NULL);
}

static PyObject *Nv03_ramin_rd(Nv03Object *self, PyObject *args)
{
	unsigned int addr;
	if (!PyArg_ParseTuple(args, "O&", u32_arg, &addr) || !nv03_ready(self))
		return NULL;
	uint32_t v = 0;
	nvm_status st = GUARD(self->gpu, nvm_nv03_ramin_rd(self->gpu->gpu, &self->f, addr, &v));
	return status_or(self->gpu, st, "Nv03Fifo.ramin_rd", st ? NULL : PyLong_FromUnsignedLong(v));
}

static PyObject *Nv03_context(Nv03Object *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "type", "instance", "engine", "flags", NULL };
	unsigned long long type, engine = 1;
	unsigned int instance, flags = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&O&", kwlist, u64_arg, &type, u32_arg, &instance, u64_arg,
	                                 &engine, u32_arg, &flags) ||
	    !check_max(type, 0x7f, "type") || !check_max(engine, 1, "engine") || !nv03_ready(self))
		return NULL;
	uint32_t ctx;
	nvm_status st = nvm_nv03_context(&self->f, (unsigned)type, instance, (unsigned)engine, flags, &ctx);
	return st ? raise_status(st, "Nv03Fifo.context") : PyLong_FromUnsignedLong(ctx);
}

static PyObject *Nv03_ramht_add(Nv03Object *self, PyObject *args)
{
	unsigned long long chid, ctx;
	unsigned int handle;
	if (!PyArg_ParseTuple(args, "O&O&O&", u64_arg, &chid, u32_arg, &handle, u64_arg, &ctx) ||
	    !check_max(chid, 127, "chid") || !check_max(ctx, 0xffffff, "context") || !nv03_ready(self))
		return NULL;
	uint32_t a;
	nvm_status st = GUARD(self->gpu,
	                      nvm_nv03_ramht_add(self->gpu->gpu, &self->f, (uint32_t)chid, handle, (uint32_t)ctx, &a));
	return status_or(self->gpu, st, "Nv03Fifo.ramht_add", st ? NULL : PyLong_FromUnsignedLong(a));
}

static PyObject *Nv03_pio(Nv03Object *self, PyObject *args)
{
	unsigned long long chid, subch, method;
	unsigned int data;
	if (!PyArg_ParseTuple(args, "O&O&O&O&", u64_arg, &chid, u64_arg, &subch, u64_arg, &method, u32_arg, &data) ||
	    !check_max(chid, 127, "chid") || !check_max(subch, 7, "subch") || !check_max(method, 0x1ffc, "method") ||
	    !nv03_ready(self))
		return NULL;
	nvm_status st =
	        GUARD(self->gpu, nvm_nv03_pio(self->gpu->gpu, (uint32_t)chid, (unsigned)subch, (uint32_t)method, data));
	return status_or(self->gpu, st, "Nv03Fifo.pio", NULL);
}

FOR_GPU(Nv03Object, Nv03Type, f, self->f.chip, "Nv03Fifo")

static PyObject *Nv03_chip(Nv03Object *self, void *unused)
{
	(void)unused;
	return PyUnicode_FromString(self->f.chip ? self->f.chip : "");
}

static PyGetSetDef Nv03_getset[] = {
	{ "chip", (getter)Nv03_chip, NULL, "the chip", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMemberDef Nv03_members[] = {
	RO("ramht", T_UINT, Nv03Object, f.ramht, NULL),
	RO("ramht_size", T_UINT, Nv03Object, f.ramht_size, NULL),
	RO("ramro", T_UINT, Nv03Object, f.ramro, NULL),
	RO("ramfc", T_UINT, Nv03Object, f.ramfc, NULL),
	RO("bar", T_INT, Nv03Object, f.bar, "RAMIN through the BAR (NV03)"),
	{ NULL, 0, 0, 0, NULL },
};

static PyMethodDef Nv03_methods[] = {
	{ "ramin_wr", (PyCFunction)Nv03_ramin_wr, METH_VARARGS, "ramin_wr(addr, value)" },
	{ "ramin_rd", (PyCFunction)Nv03_ramin_rd, METH_VARARGS, "ramin_rd(addr) -> value" },
	{ "context", (PyCFunction)(void (*)(void))Nv03_context, METH_VARARGS | METH_KEYWORDS,
	  "context(type, instance, engine=1, flags=0) -> RAMHT context" },
	{ "ramht_add", (PyCFunction)Nv03_ramht_add, METH_VARARGS,
	  "ramht_add(chid, handle, context) -> the entry's RAMIN address" },
	{ "pio", (PyCFunction)Nv03_pio, METH_VARARGS, "pio(chid, subch, method, data)" },
	{ "for_gpu", (PyCFunction)Nv03Object_for_gpu, METH_VARARGS,
	  "for_gpu(gpu) -> this fifo's state for another Gpu of the chip (a restored twin)" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject Nv03Type = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.Nv03Fifo",
	.tp_basicsize = sizeof(Nv03Object),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "Nv03Fifo(gpu): PFIFO of NV01/NV03 set up as rivafb does (nvm_nv03_fifo_init).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)Nv03_init,
	.tp_dealloc = (destructor)Nv03_dealloc,
	.tp_methods = Nv03_methods,
	.tp_members = Nv03_members,
	.tp_getset = Nv03_getset,
};

/* ---------------------------------------------------------------- PFIFO G80 */

typedef struct {
	PyObject_HEAD GpuObject *gpu;
	nvm_g80_fifo f;
} G80FifoObject;

static PyTypeObject G80FifoType;

static int G80Fifo_init(G80FifoObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "gpu", NULL };
	GpuObject *g;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&", kwlist, gpu_arg, &g))
		return -1;
	PyObject *r = status_or(g, GUARD(g, nvm_g80_fifo_init(g->gpu, &self->f)), "G80Fifo", NULL);
	if (!r)
		return -1;
	Py_DECREF(r);
	Py_XSETREF(self->gpu, (GpuObject *)Py_NewRef(g));
	return 0;
}

static void G80Fifo_dealloc(G80FifoObject *self)
{
	Py_XDECREF(self->gpu);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int g80fifo_ready(G80FifoObject *s)
{
	if (!s->gpu) {
		PyErr_SetString(PyExc_ValueError, "G80Fifo not made");
		return 0;
	}
	return live(s->gpu);
}

static PyObject *G80Fifo_commit(G80FifoObject *self, PyObject *unused)
{
	(void)unused;
	if (!g80fifo_ready(self))
		return NULL;
	return status_or(self->gpu, GUARD(self->gpu, nvm_g80_fifo_commit(self->gpu->gpu, &self->f)), "G80Fifo.commit",
	                 NULL);
}

FOR_GPU(G80FifoObject, G80FifoType, f, self->f.chip, "G80Fifo")

static PyObject *G80Fifo_chip(G80FifoObject *self, void *unused)
{
	(void)unused;
	return PyUnicode_FromString(self->f.chip ? self->f.chip : "");
}

static PyObject *G80Fifo_channels(G80FifoObject *self, void *unused)
{
	(void)unused;
	uint32_t n = self->f.nchannels < 128 ? self->f.nchannels : 128;
	PyObject *l = PyList_New(n);
	for (uint32_t i = 0; l && i < n; i++) {
		PyObject *v = PyLong_FromUnsignedLong(self->f.channels[i]);
		if (!v) {
			Py_CLEAR(l);
			break;
		}
		PyList_SET_ITEM(l, i, v);
	}
	return l;
}

static PyGetSetDef G80Fifo_getset[] = {
	{ "chip", (getter)G80Fifo_chip, NULL, "the chip", NULL },
	{ "channels", (getter)G80Fifo_channels, NULL, "the playlist's channel ids", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMemberDef G80Fifo_members[] = {
	RO("g84", T_INT, G80FifoObject, f.g84, "RAMFC / CACHE at 0x5400 / 0x4400 of the structure (G84+)"),
	RO("nchannels", T_UINT, G80FifoObject, f.nchannels, "channels in the playlist"),
	{ NULL, 0, 0, 0, NULL },
};

static PyMethodDef G80Fifo_methods[] = {
	{ "commit", (PyCFunction)G80Fifo_commit, METH_NOARGS, "write and submit the playlist" },
	{ "for_gpu", (PyCFunction)G80FifoObject_for_gpu, METH_VARARGS,
	  "for_gpu(gpu) -> this fifo's state for another Gpu of the chip (a restored twin)" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject G80FifoType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.G80Fifo",
	.tp_basicsize = sizeof(G80FifoObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "G80Fifo(gpu): PFIFO of the G80 family set up as nouveau does (nvm_g80_fifo_init).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)G80Fifo_init,
	.tp_dealloc = (destructor)G80Fifo_dealloc,
	.tp_methods = G80Fifo_methods,
	.tp_members = G80Fifo_members,
	.tp_getset = G80Fifo_getset,
};

typedef struct {
	PyObject_HEAD G80FifoObject *fifo;
	nvm_g80_channel ch;
} G80ChanObject;

static PyTypeObject G80ChanType;

static int G80Chan_init(G80ChanObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "fifo", "chid", "ib", "ib_order", "pb_aperture", "vm", NULL };
	G80FifoObject *f;
	unsigned long long chid, order = 9;
	nvm_g80_channel_desc d;
	nvm_g80_channel_desc_init(&d);
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O&|$O&O&O&O&", kwlist, &G80FifoType, &f, u64_arg, &chid, bool_arg,
	                                 &d.ib, u64_arg, &order, aperture_arg, &d.pb_ap, bool_arg, &d.vm) ||
	    !check_max(chid, 126, "chid") || !check_max(order, 16, "ib_order") || !g80fifo_ready(f))
		return -1;
	if (self->fifo) {
		PyErr_SetString(PyExc_RuntimeError, "G80Channel already made");
		return -1;
	}
	d.chid = (uint32_t)chid;
	d.ib_order = (unsigned)order;
	nvm_status st = GUARD(f->gpu, nvm_g80_channel_create(f->gpu->gpu, &f->f, &d, &self->ch));
	PyObject *r = status_or(f->gpu, st, "G80Channel", NULL);
	if (!r) {
		nvm_g80_channel_release(&self->ch);
		return -1;
	}
	Py_DECREF(r);
	self->fifo = (G80FifoObject *)Py_NewRef(f);
	return 0;
}

static void G80Chan_dealloc(G80ChanObject *self)
{
	if (self->fifo)
		nvm_g80_channel_release(&self->ch);
	Py_XDECREF(self->fifo);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int g80ch_ready(G80ChanObject *c)
{
	if (!c->fifo) {
		PyErr_SetString(PyExc_ValueError, "G80Channel not made");
		return 0;
	}
	return live(c->fifo->gpu);
}

#define G80G(c) ((c)->fifo->gpu)

static PyObject *G80Chan_alloc(G80ChanObject *self, PyObject *args)
{
	unsigned int size;
	if (!PyArg_ParseTuple(args, "O&", u32_arg, &size) || !g80ch_ready(self))
		return NULL;
	uint32_t off;
	nvm_status st = nvm_g80_channel_alloc(&self->ch, size, &off);
	return st ? raise_status(st, "G80Channel.alloc") : PyLong_FromUnsignedLong(off);
}

static PyObject *G80Chan_ramht_add(G80ChanObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "handle", "sel", "engine", NULL };
	unsigned int handle;
	unsigned long long sel, engine = 0;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&", kwlist, u32_arg, &handle, u64_arg, &sel, u64_arg,
	                                 &engine) ||
	    !check_max(sel, 0xffff, "sel") || !check_max(engine, 15, "engine") || !g80ch_ready(self))
		return NULL;
	uint32_t off;
	nvm_status st = GUARD(G80G(self), nvm_g80_channel_ramht_add(G80G(self)->gpu, &self->ch, handle, (uint32_t)sel,
	                                                            (unsigned)engine, &off));
	return status_or(G80G(self), st, "G80Channel.ramht_add", st ? NULL : PyLong_FromUnsignedLong(off));
}

/* The fields of a G80 DMA object (nvm_g80_dmaobj, the Lua builders'
 * defaults) from keyword arguments, and up to two extra keywords (NULL
 * names none) into extra[]. No positional arguments. */
static int g80_dmaobj_kw(PyObject *args, PyObject *kw, nvm_g80_dmaobj *o, const char *const extra_names[2],
                         PyObject *extra[2])
{
	static const char *const names[] = { "cls",       "target",     "ro",         "us",     "storage_type",
		                             "comp",      "supervisor", "base",       "limit",  "tag_base",
		                             "tag_limit", "comp_base",  "part_cycle", "encrypt" };
	static const unsigned long long max[] = {
		0xffff, 3, 3, 3, 0x7f, 3, 1, (1ull << 40) - 1, (1ull << 40) - 1, 0xfff, 0xfff, 0xffff0000, 3, 3
	};
	unsigned long long v[] = { 0x3d, 0, 0, 0, 0x7f, 3, 0, 0, (1ull << 40) - 1, 0, 0, 0, 0, 0 };
	extra[0] = extra[1] = Py_None;
	if (PyTuple_GET_SIZE(args)) {
		PyErr_SetString(PyExc_TypeError, "dmaobj() takes keyword arguments only");
		return 0;
	}
	PyObject *key, *val;
	Py_ssize_t pos = 0;
	while (kw && PyDict_Next(kw, &pos, &key, &val)) {
		const char *k = PyUnicode_AsUTF8(key);
		if (!k)
			return 0;
		size_t i = 0;
		while (i < 14 && strcmp(k, names[i]))
			i++;
		if (i < 14) {
			if (!u64_arg(val, &v[i]) || !check_max(v[i], max[i], names[i]))
				return 0;
			continue;
		}
		if (extra_names[0] && !strcmp(k, extra_names[0]))
			extra[0] = val;
		else if (extra_names[1] && !strcmp(k, extra_names[1]))
			extra[1] = val;
		else {
			PyErr_Format(PyExc_TypeError, "dmaobj() got an unexpected keyword argument '%s'", k);
			return 0;
		}
	}
	*o = (nvm_g80_dmaobj){ .cls = (unsigned)v[0],
		               .target = (unsigned)v[1],
		               .ro = (unsigned)v[2],
		               .us = (unsigned)v[3],
		               .storage_type = (unsigned)v[4],
		               .comp = (unsigned)v[5],
		               .supervisor = v[6] != 0,
		               .base = v[7],
		               .limit = v[8],
		               .tag_base = (unsigned)v[9],
		               .tag_limit = (unsigned)v[10],
		               .comp_base = v[11],
		               .part_cycle = (unsigned)v[12],
		               .encrypt = (unsigned)v[13] };
	return 1;
}

/* An optional int argument (None: dflt) no larger than max. */
static int opt_u32(PyObject *o, uint32_t dflt, unsigned long long max, const char *name, uint32_t *out)
{
	unsigned long long v;
	if (o == Py_None) {
		*out = dflt;
		return 1;
	}
	if (!u64_arg(o, &v) || !check_max(v, max, name))
		return 0;
	*out = (uint32_t)v;
	return 1;
}

static PyObject *G80Chan_dmaobj(G80ChanObject *self, PyObject *args, PyObject *kw)
{
	static const char *const extra_names[2] = { "off", "handle" };
	PyObject *extra[2];
	nvm_g80_dmaobj o;
	uint32_t off, handle;
	if (!g80_dmaobj_kw(args, kw, &o, extra_names, extra) || !opt_u32(extra[0], UINT32_MAX, 0xffe8, "off", &off) ||
	    !opt_u32(extra[1], 0, 0xffffffff, "handle", &handle) || !g80ch_ready(self))
		return NULL;
	uint32_t sel = 0;
	nvm_status st = GUARD(G80G(self), nvm_g80_channel_dmaobj(G80G(self)->gpu, &self->ch, &o, &off,
	                                                         extra[1] != Py_None, handle, &sel));
	return status_or(G80G(self), st, "G80Channel.dmaobj", st ? NULL : PyLong_FromUnsignedLong(sel));
}

static PyObject *G80Chan_object(G80ChanObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "class_id", "handle", "engine", NULL };
	unsigned long long cls, engine = 1;
	unsigned int handle;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&", kwlist, u64_arg, &cls, u32_arg, &handle, u64_arg,
	                                 &engine) ||
	    !check_max(cls, 0xffff, "class_id") || !check_max(engine, 15, "engine") || !g80ch_ready(self))
		return NULL;
	uint32_t sel;
	nvm_status st = GUARD(G80G(self), nvm_g80_channel_object(G80G(self)->gpu, &self->ch, (uint32_t)cls, handle,
	                                                         (unsigned)engine, &sel));
	return status_or(G80G(self), st, "G80Channel.object", st ? NULL : PyLong_FromUnsignedLong(sel));
}

static PyObject *G80Chan_write(G80ChanObject *self, PyObject *args)
{
	PyObject *data;
	uint32_t *w;
	size_t n;
	if (!PyArg_ParseTuple(args, "O", &data) || !g80ch_ready(self) || !words_arg(data, &w, &n))
		return NULL;
	uint64_t addr = 0;
	nvm_status st = GUARD(G80G(self), nvm_g80_channel_write(G80G(self)->gpu, &self->ch, w, n, &addr));
	PyMem_Free(w);
	return status_or(G80G(self), st, "G80Channel.write", st ? NULL : PyLong_FromUnsignedLongLong(addr));
}

static PyObject *G80Chan_ib_entry(G80ChanObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "addr", "nwords", "not_main", NULL };
	unsigned long long addr;
	unsigned int n;
	bool not_main = false;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&", kwlist, u64_arg, &addr, u32_arg, &n, bool_arg,
	                                 &not_main) ||
	    !g80ch_ready(self))
		return NULL;
	nvm_status st = GUARD(G80G(self), nvm_g80_channel_ib_entry(G80G(self)->gpu, &self->ch, addr, n, not_main));
	return status_or(G80G(self), st, "G80Channel.ib_entry", NULL);
}

static PyObject *G80Chan_kick(G80ChanObject *self, PyObject *unused)
{
	(void)unused;
	if (!g80ch_ready(self))
		return NULL;
	return status_or(G80G(self), GUARD(G80G(self), nvm_g80_channel_kick(G80G(self)->gpu, &self->ch)),
	                 "G80Channel.kick", NULL);
}

static PyObject *G80Chan_push(G80ChanObject *self, PyObject *args)
{
	PyObject *data;
	uint32_t *w;
	size_t n;
	if (!PyArg_ParseTuple(args, "O", &data) || !g80ch_ready(self) || !words_arg(data, &w, &n))
		return NULL;
	nvm_status st = GUARD(G80G(self), nvm_g80_channel_push(G80G(self)->gpu, &self->ch, w, n));
	PyMem_Free(w);
	return status_or(G80G(self), st, "G80Channel.push", NULL);
}

/* for_fifo(fifo): the channel's state on another fifo of the chip (a G80Fifo
 * for_gpu of a restored twin). Not for a channel with a VM: its page-table
 * builder is host memory the library cannot copy. */
static PyObject *G80Chan_for_fifo(G80ChanObject *self, PyObject *args)
{
	G80FifoObject *f;
	if (!PyArg_ParseTuple(args, "O!", &G80FifoType, &f) || !g80fifo_ready(f))
		return NULL;
	if (!self->fifo)
		return PyErr_Format(PyExc_ValueError, "G80Channel not made");
	if (self->ch.vm)
		return PyErr_Format(PyExc_ValueError, "a G80Channel with a VM (vm=True) cannot be copied");
	if (!same_chip(self->ch.chip, f->gpu))
		return NULL;
	G80ChanObject *o = (G80ChanObject *)G80ChanType.tp_alloc(&G80ChanType, 0);
	if (!o)
		return NULL;
	o->ch = self->ch;
	o->fifo = (G80FifoObject *)Py_NewRef(f);
	return (PyObject *)o;
}

static PyObject *G80Chan_pb_aperture(G80ChanObject *self, void *unused)
{
	(void)unused;
	return PyUnicode_FromString(nvm_aperture_name(self->ch.pb_ap));
}

static PyGetSetDef G80Chan_getset[] = {
	{ "pb_aperture", (getter)G80Chan_pb_aperture, NULL, "the pushbuffer's memory ('vram' or 'sysmem')", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMemberDef G80Chan_members[] = {
	RO("chid", T_UINT, G80ChanObject, ch.chid, NULL),
	RO("base", T_ULONGLONG, G80ChanObject, ch.base, "VRAM address of its structure"),
	RO("ramfc", T_ULONGLONG, G80ChanObject, ch.ramfc, NULL),
	RO("cache", T_ULONGLONG, G80ChanObject, ch.cache, NULL),
	RO("next", T_UINT, G80ChanObject, ch.next, "next free object offset in the structure"),
	RO("pb", T_ULONGLONG, G80ChanObject, ch.pb, "the pushbuffer's memory"),
	RO("pb_put", T_ULONGLONG, G80ChanObject, ch.pb_put, "bytes of pushbuffer written"),
	RO("ib", T_INT, G80ChanObject, ch.ib, "IB mode"),
	RO("ib_addr", T_ULONGLONG, G80ChanObject, ch.ib_addr, "the IB ring's memory"),
	RO("ib_put", T_UINT, G80ChanObject, ch.ib_put, NULL),
	RO("order", T_UINT, G80ChanObject, ch.order, "log2 of the IB entries"),
	RO("va_off", T_LONGLONG, G80ChanObject, ch.va_off, "the pushbuffer's address as the channel sees it, minus pb"),
	{ NULL, 0, 0, 0, NULL },
};

static PyMethodDef G80Chan_methods[] = {
	{ "alloc", (PyCFunction)G80Chan_alloc, METH_VARARGS, "alloc(size) -> offset in the structure" },
	{ "ramht_add", (PyCFunction)(void (*)(void))G80Chan_ramht_add, METH_VARARGS | METH_KEYWORDS,
	  "ramht_add(handle, sel, engine=0) -> the entry's offset" },
	{ "dmaobj", (PyCFunction)(void (*)(void))G80Chan_dmaobj, METH_VARARGS | METH_KEYWORDS,
	  "dmaobj(*, cls=0x3d, target=0, ..., off=None, handle=None) -> selector" },
	{ "object", (PyCFunction)(void (*)(void))G80Chan_object, METH_VARARGS | METH_KEYWORDS,
	  "object(class_id, handle, engine=1) -> selector" },
	{ "write", (PyCFunction)G80Chan_write, METH_VARARGS, "write(words) -> their address as the channel sees it" },
	{ "ib_entry", (PyCFunction)(void (*)(void))G80Chan_ib_entry, METH_VARARGS | METH_KEYWORDS,
	  "ib_entry(addr, nwords, not_main=False)" },
	{ "kick", (PyCFunction)G80Chan_kick, METH_NOARGS, "IB_PUT, or DMA_PUT = the pushbuffer's end" },
	{ "push", (PyCFunction)G80Chan_push, METH_VARARGS, "push(words): write, an IB entry in IB mode, kick" },
	{ "for_fifo", (PyCFunction)G80Chan_for_fifo, METH_VARARGS,
	  "for_fifo(fifo) -> this channel's state on another fifo of the chip (not with a VM)" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject G80ChanType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.G80Channel",
	.tp_basicsize = sizeof(G80ChanObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "G80Channel(fifo, chid, *, ib=True, ib_order=9, pb_aperture='sysmem', vm=False) "
	          "(nvm_g80_channel_create).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)G80Chan_init,
	.tp_dealloc = (destructor)G80Chan_dealloc,
	.tp_methods = G80Chan_methods,
	.tp_members = G80Chan_members,
	.tp_getset = G80Chan_getset,
};

/* ---------------------------------------------------------------- G80 VM builder */

typedef struct {
	PyObject_HEAD GpuObject *gpu;
	nvm_g80_vmb *vm;
} G80VmObject;

static PyTypeObject G80VmType;

static int G80Vm_init(G80VmObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "gpu", "addr", "target", "objects", "heap", NULL };
	GpuObject *g;
	nvm_g80_vm_desc d;
	nvm_g80_vm_desc_init(&d);
	unsigned long long addr;
	PyObject *objects = Py_None, *heap = Py_None;
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|O&$OO", kwlist, gpu_arg, &g, u64_arg, &addr, target_arg,
	                                 &d.target, &objects, &heap))
		return -1;
	if (self->vm) {
		PyErr_SetString(PyExc_RuntimeError, "G80Vm already made");
		return -1;
	}
	d.addr = addr;
	if ((objects != Py_None && !u64_arg(objects, &d.objects)) || (heap != Py_None && !u64_arg(heap, &d.heap)))
		return -1;
	nvm_status st = GUARD(g, nvm_g80_vmb_create(g->gpu, &d, &self->vm));
	if (st) {
		raise_status(st, "G80Vm");
		return -1;
	}
	self->gpu = (GpuObject *)Py_NewRef(g);
	return 0;
}

static void G80Vm_dealloc(G80VmObject *self)
{
	nvm_g80_vmb_free(self->vm);
	Py_XDECREF(self->gpu);
	Py_TYPE(self)->tp_free((PyObject *)self);
}

static int g80vm_ready(G80VmObject *v)
{
	if (!v->vm) {
		PyErr_SetString(PyExc_ValueError, "G80Vm not made");
		return 0;
	}
	return live(v->gpu);
}

static PyObject *G80Vm_dmaobj(G80VmObject *self, PyObject *args, PyObject *kw)
{
	static const char *const extra_names[2] = { "sel", NULL };
	PyObject *extra[2];
	nvm_g80_dmaobj o;
	uint32_t sel;
	if (!g80_dmaobj_kw(args, kw, &o, extra_names, extra) || !opt_u32(extra[0], 0, 0xffff, "sel", &sel) ||
	    !g80vm_ready(self))
		return NULL;
	nvm_status st = GUARD(self->gpu, nvm_g80_vmb_dmaobj(self->gpu->gpu, self->vm, &o, &sel));
	return status_or(self->gpu, st, "G80Vm.dmaobj", st ? NULL : PyLong_FromUnsignedLong(sel));
}

/* PTE attributes shared by map and g80_pte: keyword-only. */
#define G80_PTE_KW "target", "ro", "supervisor", "storage", "comp", "tag", "long_cycle", "encrypted"

static int g80_pte_check(const unsigned long long v[4], nvm_g80_pte_desc *p)
{
	if (!check_max(v[0], 0x7f, "storage") || !check_max(v[1], 2, "comp") || !check_max(v[2], 0xfff, "tag"))
		return 0;
	p->storage = (unsigned)v[0];
	p->comp = (unsigned)v[1];
	p->tag = (unsigned)v[2];
	return 1;
}

static PyObject *G80Vm_map(G80VmObject *self, PyObject *args, PyObject *kw)
{
	static char *kwlist[] = { "virt", "lin", "size", "page", "entries", "contig", G80_PTE_KW, NULL };
	nvm_g80_map_desc m;
	nvm_g80_map_desc_init(&m);
	unsigned long long page = m.page, entries = m.entries, v[4] = { 0 };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&O&|$O&O&O&O&O&O&O&O&O&O&O&", kwlist, u64_arg, &m.virt, u64_arg,
	                                 &m.lin, u64_arg, &m.size, u64_arg, &page, u64_arg, &entries, bool_arg,
	                                 &m.contig, target_arg, &m.pte.target, bool_arg, &m.pte.ro, bool_arg,
	                                 &m.pte.supervisor, u64_arg, &v[0], u64_arg, &v[1], u64_arg, &v[2], bool_arg,
	                                 &m.pte.long_cycle, bool_arg, &m.pte.encrypted) ||
	    !check_max(page, 0x10000, "page") || !check_max(entries, 0xffffffff, "entries") ||
	    !g80_pte_check(v, &m.pte) || !g80vm_ready(self))
		return NULL;
	m.page = (uint32_t)page;
	m.entries = (uint32_t)entries;
	uint64_t bad = UINT64_MAX;
	nvm_status st = GUARD(self->gpu, nvm_g80_vmb_map(self->gpu->gpu, self->vm, &m, &bad));
	if (st && bad != UINT64_MAX) {
		char what[64];
		snprintf(what, sizeof(what), "G80Vm.map at 0x%llx", (unsigned long long)bad);
		return status_or(self->gpu, st, what, NULL);
	}
	return status_or(self->gpu, st, "G80Vm.map", NULL);
}

static PyObject *G80Vm_unmap(G80VmObject *self, PyObject *args)
{
	unsigned long long virt, size, page = 0x1000;
	if (!PyArg_ParseTuple(args, "O&O&|O&", u64_arg, &virt, u64_arg, &size, u64_arg, &page) ||
	    !check_max(page, 0x10000, "page") || !g80vm_ready(self))
		return NULL;
	nvm_status st = GUARD(self->gpu, nvm_g80_vmb_unmap(self->gpu->gpu, self->vm, virt, size, (uint32_t)page));
	return status_or(self->gpu, st, "G80Vm.unmap", NULL);
}

static PyObject *G80Vm_pt(G80VmObject *self, PyObject *args)
{
	unsigned int i;
	if (!PyArg_ParseTuple(args, "O&", u32_arg, &i) || !g80vm_ready(self))
		return NULL;
	uint64_t addr;
	uint32_t page, entries;
	nvm_status st = nvm_g80_vmb_pt(self->vm, i, &addr, &page, &entries);
	if (st == NVM_ERR_NOENT)
		Py_RETURN_NONE;
	if (st)
		return raise_status(st, "G80Vm.pt");
	return Py_BuildValue("(KII)", (unsigned long long)addr, page, entries);
}

static PyObject *G80Vm_desc(G80VmObject *self, void *unused)
{
	(void)unused;
	return g80vm_ready(self) ? PyLong_FromUnsignedLong(nvm_g80_vmb_desc(self->vm)) : NULL;
}

static PyObject *G80Vm_footprint(G80VmObject *self, void *unused)
{
	(void)unused;
	return g80vm_ready(self) ? PyLong_FromSize_t(nvm_g80_vmb_footprint(self->vm)) : NULL;
}

static PyGetSetDef G80Vm_getset[] = {
	{ "desc", (getter)G80Vm_desc, NULL, "its channel descriptor (g80_chan_desc)", NULL },
	{ "footprint", (getter)G80Vm_footprint, NULL, "host memory the builder holds, bytes", NULL },
	{ NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef G80Vm_methods[] = {
	{ "dmaobj", (PyCFunction)(void (*)(void))G80Vm_dmaobj, METH_VARARGS | METH_KEYWORDS,
	  "dmaobj(*, cls=0x3d, target=0, ..., sel=None) -> selector" },
	{ "map", (PyCFunction)(void (*)(void))G80Vm_map, METH_VARARGS | METH_KEYWORDS,
	  "map(virt, lin, size, *, page=0x1000, entries=0, contig=True, target=0, ro, supervisor, storage, comp, tag, "
	  "long_cycle, encrypted)" },
	{ "unmap", (PyCFunction)G80Vm_unmap, METH_VARARGS, "unmap(virt, size, page=0x1000)" },
	{ "pt", (PyCFunction)G80Vm_pt, METH_VARARGS, "pt(pde index) -> (addr, page, entries) or None" },
	{ NULL, NULL, 0, NULL },
};

static PyTypeObject G80VmType = {
	PyVarObject_HEAD_INIT(NULL, 0).tp_name = "nvmodel.setup.G80Vm",
	.tp_basicsize = sizeof(G80VmObject),
	.tp_flags = Py_TPFLAGS_DEFAULT,
	.tp_doc = "G80Vm(gpu, addr, target=0, *, objects=None, heap=None): a G80 channel structure, its page "
	          "directory and page tables (nvm_g80_vmb).",
	.tp_new = PyType_GenericNew,
	.tp_init = (initproc)G80Vm_init,
	.tp_dealloc = (destructor)G80Vm_dealloc,
	.tp_methods = G80Vm_methods,
	.tp_getset = G80Vm_getset,
};

static PyObject *f_g80_chan_desc(PyObject *m, PyObject *args)
{
	(void)m;
	unsigned long long addr;
	nvm_mmu_target t = NVM_MMU_TGT_VID;
	if (!PyArg_ParseTuple(args, "O&|O&", u64_arg, &addr, target_arg, &t))
		return NULL;
	uint32_t d;
	nvm_status st = nvm_g80_chan_desc(addr, t, &d);
	return st ? raise_status(st, "g80_chan_desc") : PyLong_FromUnsignedLong(d);
}

static PyObject *f_g80_pte(PyObject *m, PyObject *args, PyObject *kw)
{
	(void)m;
	static char *kwlist[] = { "addr", "contig", G80_PTE_KW, NULL };
	nvm_g80_pte_desc p = { 0 };
	unsigned long long contig = 0, v[4] = { 0 };
	if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|$O&O&O&O&O&O&O&O&O&", kwlist, u64_arg, &p.addr, u64_arg, &contig,
	                                 target_arg, &p.target, bool_arg, &p.ro, bool_arg, &p.supervisor, u64_arg,
	                                 &v[0], u64_arg, &v[1], u64_arg, &v[2], bool_arg, &p.long_cycle, bool_arg,
	                                 &p.encrypted) ||
	    !check_max(contig, 7, "contig") || !g80_pte_check(v, &p))
		return NULL;
	p.contig = (unsigned)contig;
	uint64_t pte;
	nvm_status st = nvm_g80_pte_make(&p, &pte);
	return st ? raise_status(st, "g80_pte") : PyLong_FromUnsignedLongLong(pte);
}

static PyObject *f_g80_pde(PyObject *m, PyObject *args)
{
	(void)m;
	unsigned int page, entries;
	unsigned long long addr;
	nvm_mmu_target t = NVM_MMU_TGT_VID;
	if (!PyArg_ParseTuple(args, "O&O&O&|O&", u32_arg, &page, u32_arg, &entries, u64_arg, &addr, target_arg, &t))
		return NULL;
	uint64_t pde;
	nvm_status st = nvm_g80_pde_make(page, entries, addr, t, &pde);
	return st ? raise_status(st, "g80_pde") : PyLong_FromUnsignedLongLong(pde);
}

/* g80_bar_setup(gpu, mem, bar1_size, bar3_size) -> (G80Vm, sel1, sel3) */
static PyObject *f_g80_bar_setup(PyObject *m, PyObject *args)
{
	(void)m;
	GpuObject *g;
	unsigned long long mem, b1, b3;
	if (!PyArg_ParseTuple(args, "O&O&O&O&", gpu_arg, &g, u64_arg, &mem, u64_arg, &b1, u64_arg, &b3))
		return NULL;
	G80VmObject *vm = PyObject_New(G80VmObject, &G80VmType);
	if (!vm)
		return NULL;
	vm->gpu = NULL;
	vm->vm = NULL;
	uint32_t s1 = 0, s3 = 0;
	nvm_status st = GUARD(g, nvm_g80_bar_setup(g->gpu, mem, b1, b3, &vm->vm, &s1, &s3));
	vm->gpu = (GpuObject *)Py_NewRef(g);
	PyObject *r = st ? NULL : Py_BuildValue("(OII)", (PyObject *)vm, s1, s3);
	Py_DECREF(vm);
	return status_or(g, st, "g80_bar_setup", r);
}

/* ---------------------------------------------------------------- module */

static PyMethodDef setup_functions[] = {
	{ "host_info", f_host_info, METH_VARARGS,
	  "host_info(gpu) -> (name, nrunlist, nchid, ramfc_userd, "
	  "per_runlist_chram, subdevice)" },
	{ "host_init", f_host_init, METH_VARARGS, "host_init(gpu): the once-per-GPU writes" },
	{ "runlist_space", f_runlist_space, METH_VARARGS, "runlist_space(gpu, id) -> (base, chram, dbid)" },
	{ "instance_write", (PyCFunction)(void (*)(void))f_instance_write, METH_VARARGS | METH_KEYWORDS,
	  "instance_write(gpu, inst, *, pdb, userd, gpfifo_va, gpfifo_entries, chid, ...)" },
	{ "gp_entry", (PyCFunction)(void (*)(void))f_gp_entry, METH_VARARGS | METH_KEYWORDS,
	  "gp_entry(va, ndwords, *, fetch_conditional, priv, subroutine, sync) -> (e0, e1)" },
	{ "gp_control", (PyCFunction)(void (*)(void))f_gp_control, METH_VARARGS | METH_KEYWORDS,
	  "gp_control(opcode, operand=0, sync=False) -> (e0, e1)" },
	{ "gmmu_pte_ver2", (PyCFunction)(void (*)(void))f_gmmu_pte_ver2, METH_VARARGS | METH_KEYWORDS,
	  "gmmu_pte_ver2(target, pa, *, kind=0, vol, priv, ro, atomic_disable) -> PTE" },
	{ "runlist_write", f_runlist_write, METH_VARARGS, "runlist_write(gpu, heap, entries) -> Place" },
	{ "runlist_submit", f_runlist_submit, METH_VARARGS, "runlist_submit(gpu, id, place, length)" },
	{ "runlist_pending", f_runlist_pending, METH_VARARGS, "runlist_pending(gpu, id) -> bool" },
	{ "g80_chan_desc", f_g80_chan_desc, METH_VARARGS, "g80_chan_desc(addr, target=0) -> channel descriptor" },
	{ "g80_pte", (PyCFunction)(void (*)(void))f_g80_pte, METH_VARARGS | METH_KEYWORDS,
	  "g80_pte(addr, *, contig=0, target=0, ro, supervisor, storage, comp, tag, long_cycle, encrypted) -> PTE" },
	{ "g80_pde", f_g80_pde, METH_VARARGS, "g80_pde(page, entries, addr, target=0) -> PDE" },
	{ "g80_bar_setup", f_g80_bar_setup, METH_VARARGS,
	  "g80_bar_setup(gpu, mem, bar1_size, bar3_size) -> (G80Vm, bar1 selector, bar3 selector)" },
	{ NULL, NULL, 0, NULL },
};

int nvm_py_setup_init(PyObject *m)
{
	static const struct {
		const char *name;
		PyTypeObject *t;
	} types[] = { { "Heap", &HeapType },          { "GmmuVm", &VmType },     { "HostChannel", &ChanType },
		      { "Nv04Fifo", &Nv04Type },      { "Nv03Fifo", &Nv03Type }, { "G80Fifo", &G80FifoType },
		      { "G80Channel", &G80ChanType }, { "G80Vm", &G80VmType } };
	if (PlaceType.tp_name == NULL && PyStructSequence_InitType2(&PlaceType, &place_desc) < 0)
		return -1;
	if (PyModule_AddObjectRef(m, "Place", (PyObject *)&PlaceType) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (PyType_Ready(types[i].t) < 0 || PyModule_AddObjectRef(m, types[i].name, (PyObject *)types[i].t) < 0)
			return -1;
	return PyModule_AddFunctions(m, setup_functions);
}
