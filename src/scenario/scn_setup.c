/*
 * nvmodel._setup: the library's channel set-up helpers (nvmodel/setup.h)
 * for the Lua builders (volta.lua), which keep the script-facing API, its
 * argument checks and messages, and leave the structures and registers to
 * these. Objects are userdata: a heap (nvm_heap), a VM (nvm_gmmu_vm, which
 * keeps its heap alive as its user value) and a channel (nvm_setup_channel).
 * Calls that write take the gpu object each time, as the C API does.
 *
 * The helpers' conditions come back as nil, a status name and a text
 * (fail_status) for the builder to word; the memory budget's error raises.
 */
#include <string.h>

#include "nvmodel/setup.h"
#include "scn_internal.h"

#define HEAP_MT "nvmodel.setup_heap"
#define VM_MT   "nvmodel.setup_vm"
#define CHAN_MT "nvmodel.setup_chan"

typedef struct vm_ud {
	nvm_gmmu_vm *vm;
} vm_ud;

static nvm_mmu_target check_target(lua_State *L, int idx)
{
	lua_Integer t = luaL_checkinteger(L, idx);
	if (t != NVM_MMU_TGT_VID && t != NVM_MMU_TGT_SYS_COH && t != NVM_MMU_TGT_SYS_NCOH)
		luaL_error(L, "bad target %d", (int)t);
	return (nvm_mmu_target)t;
}

static uint64_t check_u64(lua_State *L, int idx)
{
	lua_Integer v = luaL_checkinteger(L, idx);
	if (v < 0)
		luaL_error(L, "bad argument #%d: negative", idx);
	return (uint64_t)v;
}

/* Returns nil, a status name for the builder to word ("full", "noent",
 * "range" ...) and a text for the others, or raises the memory budget's
 * error (the helpers' own conditions never are NVM_ERR_NOMEM, setup.h). A
 * range error the builder did not rule out is a memory write outside the
 * aperture (a heap placed past the end of the memory). */
static int fail_status(lua_State *L, nvm_status st)
{
	static const char *const names[] = {
		[NVM_ERR_ARG] = "arg",           [NVM_ERR_CHIP] = "chip",   [NVM_ERR_RANGE] = "range",
		[NVM_ERR_APERTURE] = "aperture", [NVM_ERR_ALIGN] = "align", [NVM_ERR_NOENT] = "noent",
		[NVM_ERR_BLOCKED] = "blocked",   [NVM_ERR_FAULT] = "fault", [NVM_ERR_FULL] = "full",
	};
	if (st == NVM_ERR_NOMEM)
		return scn_nomem(L, "nvmodel.volta");
	lua_pushnil(L);
	lua_pushstring(L, (unsigned)st < sizeof(names) / sizeof(names[0]) && names[st] ? names[st] : "error");
	if (st == NVM_ERR_RANGE)
		lua_pushstring(L, "mem_write: address out of range");
	else
		lua_pushstring(L, nvm_status_str(st));
	return 3;
}

/* The helpers' loops and host memory count against the instruction budget
 * (docs/scenarios.md "Budgets"): 8 steps (SCN_STEPS_PER_WORK's measure of a
 * Lua instruction's worth) per page, entry or word a call walks, charged
 * before it runs, and one per 16 bytes of host memory a builder takes,
 * charged after. */
static void charge_pages(lua_State *L, uint64_t size, uint64_t page)
{
	uint64_t n = page ? size / page + 1 : 1;
	scn_charge(L, n > UINT64_MAX / 8 ? UINT64_MAX : 8 * n);
}

static void charge_bytes(lua_State *L, size_t before, size_t after)
{
	if (after > before)
		scn_charge(L, (after - before) / 16);
}

static int opt_field_int(lua_State *L, int t, const char *k, lua_Integer dflt)
{
	lua_getfield(L, t, k);
	lua_Integer v = lua_isnil(L, -1) ? dflt : luaL_checkinteger(L, -1);
	lua_pop(L, 1);
	return (int)v;
}

static int opt_field_bool(lua_State *L, int t, const char *k, int dflt)
{
	lua_getfield(L, t, k);
	int v = lua_isnil(L, -1) ? dflt : lua_toboolean(L, -1);
	lua_pop(L, 1);
	return v;
}

/* ---------------------------------------------------------------- heap */

/* heap_new(target, base, size) -> heap */
static int l_heap_new(lua_State *L)
{
	nvm_mmu_target t = check_target(L, 1);
	uint64_t base = check_u64(L, 2), size = check_u64(L, 3);
	nvm_heap *h = lua_newuserdatauv(L, sizeof(*h), 0);
	nvm_status st = nvm_heap_init(h, t, base, size);
	if (st)
		return luaL_error(L, "heap: %s", nvm_status_str(st));
	luaL_setmetatable(L, HEAP_MT);
	return 1;
}

/* heap_alloc(heap, size, align) -> addr | nil, status */
static int l_heap_alloc(lua_State *L)
{
	nvm_heap *h = luaL_checkudata(L, 1, HEAP_MT);
	uint64_t addr;
	nvm_status st = nvm_heap_alloc(h, check_u64(L, 2), check_u64(L, 3), &addr);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, (lua_Integer)addr);
	return 1;
}

/* heap_state(heap) -> base, size, next */
static int l_heap_state(lua_State *L)
{
	nvm_heap *h = luaL_checkudata(L, 1, HEAP_MT);
	lua_pushinteger(L, (lua_Integer)h->base);
	lua_pushinteger(L, (lua_Integer)h->size);
	lua_pushinteger(L, (lua_Integer)h->next);
	return 3;
}

/* ---------------------------------------------------------------- VM */

static nvm_gmmu_vm *check_vm(lua_State *L, int idx)
{
	vm_ud *u = luaL_checkudata(L, idx, VM_MT);
	if (!u->vm)
		luaL_error(L, "vm is freed");
	return u->vm;
}

static int l_vm_gc(lua_State *L)
{
	vm_ud *u = luaL_checkudata(L, 1, VM_MT);
	nvm_gmmu_vm_free(u->vm);
	u->vm = NULL;
	return 0;
}

/* vm_new(gpu, heap, va_base) -> vm, pdb target, pdb addr, ver3 | nil, status */
static int l_vm_new(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_heap *h = luaL_checkudata(L, 2, HEAP_MT);
	uint64_t va_base = check_u64(L, 3);
	vm_ud *u = lua_newuserdatauv(L, sizeof(*u), 1);
	u->vm = NULL;
	luaL_setmetatable(L, VM_MT);
	lua_pushvalue(L, 2);
	lua_setiuservalue(L, -2, 1); /* the heap lives as long as the VM */
	nvm_status st = nvm_gmmu_vm_create(gpu, h, va_base, &u->vm);
	if (st)
		return fail_status(L, st);
	charge_bytes(L, 0, nvm_gmmu_vm_footprint(u->vm));
	nvm_place pdb = nvm_gmmu_vm_pdb(u->vm);
	lua_pushinteger(L, (lua_Integer)pdb.target);
	lua_pushinteger(L, (lua_Integer)pdb.addr);
	lua_pushboolean(L, nvm_gmmu_vm_ver3(u->vm));
	return 4;
}

static void map_opts(lua_State *L, int t, nvm_gmmu_map_opts *o)
{
	*o = (nvm_gmmu_map_opts){ 0 };
	if (lua_isnoneornil(L, t))
		return;
	luaL_checktype(L, t, LUA_TTABLE);
	o->page = (uint32_t)opt_field_int(L, t, "page", 4096);
	o->kind = (uint32_t)opt_field_int(L, t, "kind", 0);
	o->vol = opt_field_bool(L, t, "vol", 0);
	o->priv = opt_field_bool(L, t, "priv", 0);
	o->ro = opt_field_bool(L, t, "ro", 0);
	o->atomic_disable = opt_field_bool(L, t, "atomic_disable", 0);
}

/* vm_conflict(vm, va, size, page) -> nil | the VA of the slot in the way */
static int l_vm_conflict(lua_State *L)
{
	uint64_t where;
	nvm_status st = nvm_gmmu_map_conflict(check_vm(L, 1), check_u64(L, 2), check_u64(L, 3),
	                                      (uint32_t)check_u64(L, 4), &where);
	if (st == NVM_ERR_ARG) {
		lua_pushinteger(L, (lua_Integer)where);
		return 1;
	}
	return 0;
}

/* vm_map(gpu, vm, va, target, pa, size, opts) -> true | nil, status */
static int l_vm_map(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_gmmu_map_opts o;
	map_opts(L, 7, &o);
	nvm_gmmu_vm *vm = check_vm(L, 2);
	charge_pages(L, check_u64(L, 6), o.page);
	size_t fp = nvm_gmmu_vm_footprint(vm);
	nvm_status st =
	        nvm_gmmu_map(gpu, vm, check_u64(L, 3), check_target(L, 4), check_u64(L, 5), check_u64(L, 6), &o);
	charge_bytes(L, fp, nvm_gmmu_vm_footprint(vm));
	if (st)
		return fail_status(L, st);
	lua_pushboolean(L, 1);
	return 1;
}

/* vm_alloc_map(gpu, vm, heap, size, opts) -> va, pa | nil, status */
static int l_vm_alloc_map(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_gmmu_map_opts o;
	map_opts(L, 5, &o);
	uint64_t va;
	nvm_place pa;
	nvm_gmmu_vm *vm = check_vm(L, 2);
	charge_pages(L, check_u64(L, 4), o.page);
	size_t fp = nvm_gmmu_vm_footprint(vm);
	nvm_status st = nvm_gmmu_alloc_map(gpu, vm, luaL_checkudata(L, 3, HEAP_MT), check_u64(L, 4), &o, &va, &pa);
	charge_bytes(L, fp, nvm_gmmu_vm_footprint(vm));
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, (lua_Integer)va);
	lua_pushinteger(L, (lua_Integer)pa.addr);
	return 2;
}

/* vm_lookup(vm, va) -> target, pa, left | nil */
static int l_vm_lookup(lua_State *L)
{
	nvm_place pa;
	uint64_t left;
	if (nvm_gmmu_lookup(check_vm(L, 1), check_u64(L, 2), &pa, &left))
		return 0;
	lua_pushinteger(L, (lua_Integer)pa.target);
	lua_pushinteger(L, (lua_Integer)pa.addr);
	lua_pushinteger(L, (lua_Integer)left);
	return 3;
}

/* vm_pte(target, pa, opts) -> the ver2 PTE */
static int l_vm_pte(lua_State *L)
{
	nvm_gmmu_map_opts o;
	map_opts(L, 3, &o);
	uint64_t pte;
	nvm_status st = nvm_gmmu_pte_ver2(check_target(L, 1), check_u64(L, 2), &o, &pte);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, (lua_Integer)pte);
	return 1;
}

/* ---------------------------------------------------------------- Host */

/* host(gpu) -> { name, nrunlist, nchid, ramfc_userd, chram, subdevice } | nil */
static int l_host(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_setup_host_info h;
	if (nvm_setup_host_get(gpu, &h))
		return 0;
	lua_createtable(L, 0, 6);
	lua_pushstring(L, h.name);
	lua_setfield(L, -2, "name");
	scn_set_int(L, "nrunlist", h.nrunlist);
	scn_set_int(L, "nchid", h.nchid);
	lua_pushboolean(L, h.ramfc_userd);
	lua_setfield(L, -2, "ramfc_userd");
	lua_pushboolean(L, h.per_runlist_chram);
	lua_setfield(L, -2, "chram");
	scn_set_int(L, "subdevice", h.subdevice);
	return 1;
}

static int raise_status(lua_State *L, const char *what, nvm_status st)
{
	if (st == NVM_ERR_NOMEM)
		return scn_nomem(L, what);
	return luaL_error(L, "%s: %s", what, nvm_status_str(st));
}

static int l_host_init(lua_State *L)
{
	nvm_status st = nvm_setup_host_init(scn_checkgpu(L, 1));
	return st ? raise_status(L, "host init", st) : 0;
}

/* instance(gpu, target, addr, o) with o = { pdb_target, pdb, userd_target, userd, gpfifo,
 * gpfifo_entries, chid, priv, subdevice, replay, vol, subcontexts, ctx_valid } -> true | nil, status */
static int l_instance(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_place inst = { check_target(L, 2), check_u64(L, 3) };
	luaL_checktype(L, 4, LUA_TTABLE);
	nvm_instance_desc d;
	nvm_instance_desc_init(&d);
	d.pdb.target = (nvm_mmu_target)opt_field_int(L, 4, "pdb_target", 0);
	lua_getfield(L, 4, "pdb");
	d.pdb.addr = (uint64_t)luaL_checkinteger(L, -1);
	lua_getfield(L, 4, "userd");
	d.userd.addr = (uint64_t)luaL_checkinteger(L, -1);
	lua_getfield(L, 4, "gpfifo");
	d.gpfifo_va = (uint64_t)luaL_checkinteger(L, -1);
	lua_pop(L, 3);
	d.userd.target = (nvm_mmu_target)opt_field_int(L, 4, "userd_target", 0);
	d.gpfifo_entries = (uint32_t)opt_field_int(L, 4, "gpfifo_entries", 0);
	d.chid = (uint32_t)opt_field_int(L, 4, "chid", 0);
	d.priv = opt_field_bool(L, 4, "priv", 1);
	d.subdevice = opt_field_int(L, 4, "subdevice", -1);
	d.replay = opt_field_bool(L, 4, "replay", 0);
	lua_getfield(L, 4, "vol");
	d.vol = lua_isnil(L, -1) ? -1 : lua_toboolean(L, -1);
	lua_pop(L, 1);
	d.subcontexts = (unsigned)opt_field_int(L, 4, "subcontexts", 1);
	d.ctx_valid = opt_field_bool(L, 4, "ctx_valid", 1);
	nvm_status st = nvm_instance_write(gpu, inst, &d);
	if (st)
		return raise_status(L, "volta.instance", st);
	lua_pushboolean(L, 1);
	return 1;
}

/* ---------------------------------------------------------------- channels */

static nvm_setup_channel *check_chan(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, CHAN_MT);
}

/* channel_new(gpu, vm, heap, userd_heap, o) with o = { chid, runq, runlist, gpfifo_entries,
 * pb_size, priv, subdevice, replay, subcontexts } -> chan (not bound: the builder binds) */
static int l_channel_new(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_gmmu_vm *vm = check_vm(L, 2);
	nvm_heap *heap = luaL_checkudata(L, 3, HEAP_MT);
	nvm_heap *uheap = luaL_checkudata(L, 4, HEAP_MT);
	luaL_checktype(L, 5, LUA_TTABLE);
	nvm_channel_desc d;
	nvm_channel_desc_init(&d);
	d.chid = (uint32_t)opt_field_int(L, 5, "chid", 0);
	d.runq = (unsigned)opt_field_int(L, 5, "runq", 0);
	d.runlist = opt_field_int(L, 5, "runlist", -1);
	d.gpfifo_entries = (uint32_t)opt_field_int(L, 5, "gpfifo_entries", 512);
	lua_getfield(L, 5, "pb_size");
	d.pb_size = lua_isnil(L, -1) ? 0x10000 : (uint64_t)luaL_checkinteger(L, -1);
	lua_pop(L, 1);
	d.userd_heap = uheap;
	d.priv = opt_field_bool(L, 5, "priv", 1);
	d.subdevice = opt_field_int(L, 5, "subdevice", -1);
	d.replay = opt_field_bool(L, 5, "replay", 0);
	d.subcontexts = (unsigned)opt_field_int(L, 5, "subcontexts", 1);
	d.bind = 0;
	nvm_setup_channel *ch = lua_newuserdatauv(L, sizeof(*ch), 0);
	luaL_setmetatable(L, CHAN_MT);
	charge_pages(L, 8ull * d.gpfifo_entries + d.pb_size, 4096);
	size_t fp = nvm_gmmu_vm_footprint(vm);
	nvm_status st = nvm_channel_create(gpu, vm, heap, &d, ch);
	charge_bytes(L, fp, nvm_gmmu_vm_footprint(vm));
	if (st)
		return fail_status(L, st);
	return 1;
}

/* channel_state(chan) -> { inst_target, inst, userd_target, userd, gpfifo_va, gpfifo_pa,
 * pb_va, pb_pa, put, pb_next } */
static int l_channel_state(lua_State *L)
{
	nvm_setup_channel *ch = check_chan(L, 1);
	lua_createtable(L, 0, 10);
	scn_set_int(L, "inst_target", ch->inst.target);
	scn_set_int(L, "inst", (lua_Integer)ch->inst.addr);
	scn_set_int(L, "userd_target", ch->userd.target);
	scn_set_int(L, "userd", (lua_Integer)ch->userd.addr);
	scn_set_int(L, "gpfifo_va", (lua_Integer)ch->gpfifo_va);
	scn_set_int(L, "gpfifo_pa", (lua_Integer)ch->gpfifo.addr);
	scn_set_int(L, "pb_va", (lua_Integer)ch->pb_va);
	scn_set_int(L, "pb_pa", (lua_Integer)ch->pb.addr);
	scn_set_int(L, "put", ch->put);
	scn_set_int(L, "pb_next", (lua_Integer)ch->pb_next);
	return 1;
}

/* channel_set(chan, submitted) */
static int l_channel_set(lua_State *L)
{
	check_chan(L, 1)->submitted = (int)scn_checkrange(L, 2, -1, 4095);
	return 0;
}

typedef nvm_status (*chan_op)(nvm_gpu *gpu, const nvm_setup_channel *ch);

static int chan_call(lua_State *L, chan_op op, const char *what)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = op(gpu, check_chan(L, 2));
	return st ? raise_status(L, what, st) : 0;
}

static int l_channel_bind(lua_State *L)
{
	return chan_call(L, nvm_channel_bind, "ch:bind");
}

static int l_channel_enable(lua_State *L)
{
	return chan_call(L, nvm_channel_enable, "ch:enable");
}

static int l_channel_disable(lua_State *L)
{
	return chan_call(L, nvm_channel_disable, "ch:disable");
}

static int l_channel_kick(lua_State *L)
{
	return chan_call(L, nvm_channel_kick, "ch:kick");
}

/* channel_push_entry(gpu, chan, e0, e1, kick) -> index | nil, status */
static int l_channel_push_entry(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t index;
	nvm_status st = nvm_channel_push_entry(gpu, check_chan(L, 2), (uint32_t)luaL_checkinteger(L, 3),
	                                       (uint32_t)luaL_checkinteger(L, 4), lua_toboolean(L, 5), &index);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, index);
	return 1;
}

/* channel_push(gpu, chan, data, o, kick) with o = { fetch, priv, level, sync } (numbers
 * / booleans) -> index, va | nil, status */
static int l_channel_push(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_setup_channel *ch = check_chan(L, 2);
	size_t len;
	const char *data = luaL_checklstring(L, 3, &len);
	luaL_checktype(L, 4, LUA_TTABLE);
	nvm_gp_opts o = { .fetch_conditional = opt_field_int(L, 4, "fetch", 0),
		          .priv = opt_field_bool(L, 4, "priv", 0),
		          .subroutine = opt_field_int(L, 4, "level", 0),
		          .sync = opt_field_bool(L, 4, "sync", 0) };
	uint32_t index;
	uint64_t va;
	charge_pages(L, len, 16);
	nvm_status st = nvm_channel_push(gpu, ch, data, len, &o, lua_toboolean(L, 5), &index, &va);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, index);
	lua_pushinteger(L, (lua_Integer)va);
	return 2;
}

/* gp_entry(va, ndwords, fetch, priv, level, sync) -> e0, e1 | nil, status */
static int l_gp_entry(lua_State *L)
{
	nvm_gp_opts o = { .fetch_conditional = (int)luaL_checkinteger(L, 3),
		          .priv = lua_toboolean(L, 4),
		          .subroutine = (int)luaL_checkinteger(L, 5),
		          .sync = lua_toboolean(L, 6) };
	uint32_t e0, e1;
	nvm_status st = nvm_gp_entry(check_u64(L, 1), (uint32_t)scn_checkrange(L, 2, 0, UINT32_MAX), &o, &e0, &e1);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, e0);
	lua_pushinteger(L, e1);
	return 2;
}

/* gp_control(opcode, operand, sync) -> e0, e1 */
static int l_gp_control(lua_State *L)
{
	uint32_t e0, e1;
	nvm_gp_control((uint8_t)scn_checkrange(L, 1, 0, 0xff), (uint32_t)luaL_checkinteger(L, 2), lua_toboolean(L, 3),
	               &e0, &e1);
	lua_pushinteger(L, e0);
	lua_pushinteger(L, e1);
	return 2;
}

/* ---------------------------------------------------------------- runlists */

/* runlist_write(gpu, heap, entries) with entries a flat list, 7 numbers per entry:
 * TSG 1, tsgid, length, timeout, scale, 0, 0; channel 0, chid, runq, inst target, inst,
 * userd target, userd -> addr | nil, status */
static int l_runlist_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_heap *h = luaL_checkudata(L, 2, HEAP_MT);
	luaL_checktype(L, 3, LUA_TTABLE);
	lua_Integer n = luaL_len(L, 3) / 7;
	charge_pages(L, (uint64_t)(n > 0 ? n : 0), 1);
	nvm_rl_entry *e = lua_newuserdatauv(L, sizeof(*e) * (size_t)(n ? n : 1), 0);
	for (lua_Integer i = 0; i < n; i++) {
		lua_Integer v[7];
		for (int k = 0; k < 7; k++) {
			lua_geti(L, 3, 7 * i + k + 1);
			v[k] = luaL_checkinteger(L, -1);
			lua_pop(L, 1);
		}
		if (v[0] == 1)
			nvm_rl_tsg(&e[i], (uint32_t)v[1], (unsigned)v[2], (unsigned)v[3], (unsigned)v[4]);
		else
			nvm_rl_chan(&e[i], (uint32_t)v[1], (unsigned)v[2],
			            (nvm_place){ (nvm_mmu_target)v[3], (uint64_t)v[4] },
			            (nvm_place){ (nvm_mmu_target)v[5], (uint64_t)v[6] });
	}
	nvm_place at;
	nvm_status st = nvm_runlist_write(gpu, h, e, (size_t)n, &at);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, (lua_Integer)at.addr);
	return 1;
}

/* runlist_submit(gpu, id, target, addr, length) -> true | nil, status */
static int l_runlist_submit(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_runlist_submit(gpu, (unsigned)scn_checkrange(L, 2, 0, 4095),
	                                   (nvm_place){ check_target(L, 3), check_u64(L, 4) },
	                                   (uint32_t)scn_checkrange(L, 5, 0, 0xffff));
	if (st)
		return fail_status(L, st);
	lua_pushboolean(L, 1);
	return 1;
}

/* runlist_pending(gpu, id) -> bool */
static int l_runlist_pending(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	bool pending;
	nvm_status st = nvm_runlist_pending(gpu, (unsigned)scn_checkrange(L, 2, 0, 4095), &pending);
	if (st)
		return raise_status(L, "rl:pending", st);
	lua_pushboolean(L, pending);
	return 1;
}

/* runlist_space(gpu, id) -> base, chram, dbid | nil, count */
static int l_runlist_space(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_runlist_space r;
	unsigned count = 0;
	nvm_status st = nvm_runlist_space_get(gpu, (unsigned)scn_checkrange(L, 2, 0, 4095), &r, &count);
	if (st == NVM_ERR_NOENT) {
		lua_pushnil(L);
		lua_pushinteger(L, count);
		return 2;
	}
	if (st)
		return raise_status(L, "runlist space", st);
	lua_pushinteger(L, r.base);
	lua_pushinteger(L, r.chram);
	lua_pushinteger(L, r.dbid);
	return 3;
}

/* ---------------------------------------------------------------- PFIFO: NV04 .. NV4x */

#define NV04_MT "nvmodel.setup_nv04"

static nvm_nv04_fifo *check_nv04(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, NV04_MT);
}

/* nv04_fifo(gpu) -> fifo, { ramfc, ramro, nv40, nchan, size, large, ramht, ramht_bits } | nil */
static int l_nv04_fifo(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_nv04_fifo *f = lua_newuserdatauv(L, sizeof(*f), 0);
	luaL_setmetatable(L, NV04_MT);
	nvm_status st = nvm_nv04_fifo_init(gpu, f);
	if (st == NVM_ERR_CHIP)
		return 0;
	if (st)
		return raise_status(L, "fifo", st);
	lua_createtable(L, 0, 8);
	scn_set_int(L, "ramfc", f->ramfc);
	scn_set_int(L, "ramro", f->ramro);
	lua_pushboolean(L, f->nv40);
	lua_setfield(L, -2, "nv40");
	scn_set_int(L, "nchan", f->nchan);
	scn_set_int(L, "size", f->ramfc_size);
	lua_pushboolean(L, f->large);
	lua_setfield(L, -2, "large");
	scn_set_int(L, "ramht", f->ramht);
	scn_set_int(L, "ramht_bits", f->ramht_bits);
	return 2;
}

/* nv04_alloc(fifo, size, align) -> inst | nil, status */
static int l_nv04_alloc(lua_State *L)
{
	uint32_t inst;
	nvm_status st = nvm_nv04_alloc(check_nv04(L, 1), (uint32_t)scn_checkrange(L, 2, 0, 0x100000),
	                               (uint32_t)scn_checkrange(L, 3, 0, 0x100000), &inst);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, inst);
	return 1;
}

/* nv04_next(fifo) -> the allocator's next free byte */
static int l_nv04_next(lua_State *L)
{
	lua_pushinteger(L, check_nv04(L, 1)->next);
	return 1;
}

/* nv04_dmaobj(gpu, fifo, class, target, access, start, limit, inst or nil) -> inst | nil, status */
static int l_nv04_dmaobj(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_nv04_dmaobj o = { .class_id = (uint32_t)scn_checkrange(L, 3, 0, 0xfff),
		              .target = (unsigned)scn_checkrange(L, 4, 0, 3),
		              .access = (unsigned)scn_checkrange(L, 5, 0, 2),
		              .start = (uint32_t)scn_checkrange(L, 6, 0, UINT32_MAX),
		              .limit = (uint32_t)scn_checkrange(L, 7, 0, UINT32_MAX) };
	uint32_t inst = lua_isnoneornil(L, 8) ? UINT32_MAX : (uint32_t)scn_checkrange(L, 8, 0, UINT32_MAX - 1);
	nvm_status st = nvm_nv04_dmaobj_write(gpu, check_nv04(L, 2), &o, &inst);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, inst);
	return 1;
}

/* nv04_object(gpu, fifo, class) -> inst | nil, status */
static int l_nv04_object(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t inst;
	nvm_status st = nvm_nv04_object(gpu, check_nv04(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 0xffff), &inst);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, inst);
	return 1;
}

/* nv04_ramht_add(gpu, fifo, chid, handle, inst, engine) -> addr | nil, status */
static int l_nv04_ramht_add(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr;
	nvm_status st = nvm_nv04_ramht_add(gpu, check_nv04(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 31),
	                                   (uint32_t)scn_checkrange(L, 4, 0, UINT32_MAX),
	                                   (uint32_t)scn_checkrange(L, 5, 0, 0xffff0),
	                                   (unsigned)scn_checkrange(L, 6, 0, 7), &addr);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, addr);
	return 1;
}

/* nv04_ramfc_set(gpu, fifo, chid, name, value) -> true | nil, status */
static int l_nv04_ramfc_set(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_nv04_ramfc_set(gpu, check_nv04(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 31),
	                                   luaL_checkstring(L, 4), (uint32_t)luaL_checkinteger(L, 5));
	if (st)
		return fail_status(L, st);
	lua_pushboolean(L, 1);
	return 1;
}

/* nv04_channel(gpu, fifo, chid, pushbuf inst, offset, big_endian) */
static int l_nv04_channel(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_nv04_dma_channel(gpu, check_nv04(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 31),
	                                     (uint32_t)scn_checkrange(L, 4, 0, 0xffff0),
	                                     (uint32_t)scn_checkrange(L, 5, 0, 0xfffffffc), lua_toboolean(L, 6));
	return st ? raise_status(L, "channel", st) : 0;
}

/* nv04_user(fifo, chid) -> the channel's USER area */
static int l_nv04_user(lua_State *L)
{
	lua_pushinteger(L, nvm_nv04_user(check_nv04(L, 1), (uint32_t)scn_checkrange(L, 2, 0, 31)));
	return 1;
}

/* nv04_kick(gpu, fifo, chid, put) */
static int l_nv04_kick(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_nv04_kick(gpu, check_nv04(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 31),
	                              (uint32_t)luaL_checkinteger(L, 4));
	return st ? raise_status(L, "kick", st) : 0;
}

/* nv04_pio(gpu, fifo, chid, subch, method, data) */
static int l_nv04_pio(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_nv04_pio(gpu, check_nv04(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 31),
	                             (unsigned)scn_checkrange(L, 4, 0, 7), (uint32_t)scn_checkrange(L, 5, 0, 0x1ffc),
	                             (uint32_t)luaL_checkinteger(L, 6));
	return st ? raise_status(L, "pio", st) : 0;
}

/* pfifo_ramht_hash(handle, chid, bits) */
static int l_ramht_hash(lua_State *L)
{
	lua_pushinteger(L, nvm_pfifo_ramht_hash((uint32_t)luaL_checkinteger(L, 1), (uint32_t)luaL_checkinteger(L, 2),
	                                        (unsigned)scn_checkrange(L, 3, 1, 31)));
	return 1;
}

/* ---------------------------------------------------------------- G80 VM */

#define G80VM_MT "nvmodel.setup_g80vm"

typedef struct g80vm_ud {
	nvm_g80_vmb *vm;
	int owned; /* 0: a channel's (its user value keeps the channel alive) */
} g80vm_ud;

static nvm_g80_vmb *check_g80vm(lua_State *L, int idx)
{
	g80vm_ud *u = luaL_checkudata(L, idx, G80VM_MT);
	if (!u->vm)
		luaL_error(L, "g80 vm is freed");
	return u->vm;
}

static int l_g80vm_gc(lua_State *L)
{
	g80vm_ud *u = luaL_checkudata(L, 1, G80VM_MT);
	if (u->owned)
		nvm_g80_vmb_free(u->vm);
	u->vm = NULL;
	return 0;
}

static nvm_mmu_target g80_target_arg(lua_State *L, int t, const char *k)
{
	lua_getfield(L, t, k);
	nvm_mmu_target v = lua_isnil(L, -1) ? NVM_MMU_TGT_VID : check_target(L, -1);
	lua_pop(L, 1);
	return v;
}

static uint64_t field_u64(lua_State *L, int t, const char *k, uint64_t dflt)
{
	lua_getfield(L, t, k);
	uint64_t v = lua_isnil(L, -1) ? dflt : (uint64_t)luaL_checkinteger(L, -1);
	lua_pop(L, 1);
	return v;
}

static void pte_desc(lua_State *L, int t, nvm_g80_pte_desc *d)
{
	*d = (nvm_g80_pte_desc){ .addr = field_u64(L, t, "addr", 0),
		                 .target = g80_target_arg(L, t, "target"),
		                 .ro = opt_field_bool(L, t, "ro", 0),
		                 .supervisor = opt_field_bool(L, t, "supervisor", 0),
		                 .contig = (unsigned)field_u64(L, t, "contig", 0),
		                 .storage = (unsigned)field_u64(L, t, "storage", 0),
		                 .comp = (unsigned)field_u64(L, t, "comp", 0),
		                 .tag = (unsigned)field_u64(L, t, "tag", 0),
		                 .long_cycle = opt_field_bool(L, t, "long", 0),
		                 .encrypted = opt_field_bool(L, t, "encrypted", 0) };
}

/* g80_chan_desc(addr, target) -> desc | nil, status */
static int l_g80_chan_desc(lua_State *L)
{
	uint32_t d;
	nvm_status st = nvm_g80_chan_desc(check_u64(L, 1), check_target(L, 2), &d);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, d);
	return 1;
}

/* g80_pde(page, entries, addr, target) -> pde | nil, status */
static int l_g80_pde(lua_State *L)
{
	uint64_t v;
	nvm_status st = nvm_g80_pde_make((uint32_t)scn_checkrange(L, 1, 0, UINT32_MAX),
	                                 (uint32_t)scn_checkrange(L, 2, 0, UINT32_MAX), check_u64(L, 3),
	                                 check_target(L, 4), &v);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, (lua_Integer)v);
	return 1;
}

/* g80_pte{ addr, target, ro, supervisor, contig, storage, comp, tag, long, encrypted } -> pte | nil, status */
static int l_g80_pte(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	nvm_g80_pte_desc d;
	pte_desc(L, 1, &d);
	uint64_t v;
	nvm_status st = nvm_g80_pte_make(&d, &v);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, (lua_Integer)v);
	return 1;
}

/* A DMA object's fields from a table of numbers (class, target, ro, us, storage, comp,
 * supervisor, base, limit, tag_base, tag_limit, comp_base, part_cycle, encrypt). */
static void g80_dmaobj_arg(lua_State *L, int t, nvm_g80_dmaobj *o)
{
	luaL_checktype(L, t, LUA_TTABLE);
	*o = (nvm_g80_dmaobj){ .cls = (unsigned)field_u64(L, t, "class", 0),
		               .target = (unsigned)field_u64(L, t, "target", 0),
		               .ro = (unsigned)field_u64(L, t, "ro", 0),
		               .us = (unsigned)field_u64(L, t, "us", 0),
		               .storage_type = (unsigned)field_u64(L, t, "storage", 0x7f),
		               .comp = (unsigned)field_u64(L, t, "comp", 3),
		               .supervisor = opt_field_bool(L, t, "supervisor", 0),
		               .base = field_u64(L, t, "base", 0),
		               .limit = field_u64(L, t, "limit", (1ull << 40) - 1),
		               .tag_base = (unsigned)field_u64(L, t, "tag_base", 0),
		               .tag_limit = (unsigned)field_u64(L, t, "tag_limit", 0),
		               .comp_base = field_u64(L, t, "comp_base", 0),
		               .part_cycle = (unsigned)field_u64(L, t, "part_cycle", 0),
		               .encrypt = (unsigned)field_u64(L, t, "encrypt", 0) };
}

/* g80_dmaobj_words(fields) -> w0 .. w5 (nvm_g80_dmaobj_encode) */
static int l_g80_dmaobj_words(lua_State *L)
{
	nvm_g80_dmaobj o;
	uint32_t w[6];
	g80_dmaobj_arg(L, 1, &o);
	nvm_g80_dmaobj_encode(&o, w);
	for (int i = 0; i < 6; i++)
		lua_pushinteger(L, w[i]);
	return 6;
}

static void push_g80vm(lua_State *L, nvm_g80_vmb *vm)
{
	g80vm_ud *u = lua_newuserdatauv(L, sizeof(*u), 1);
	u->vm = vm;
	u->owned = 1;
	luaL_setmetatable(L, G80VM_MT);
}

/* g80_vm_new(gpu, addr, target, objects or nil, heap or nil) -> vm, desc | nil, status */
static int l_g80_vm_new(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_vm_desc d;
	nvm_g80_vm_desc_init(&d);
	d.addr = check_u64(L, 2);
	d.target = check_target(L, 3);
	if (!lua_isnoneornil(L, 4))
		d.objects = check_u64(L, 4);
	if (!lua_isnoneornil(L, 5))
		d.heap = check_u64(L, 5);
	nvm_g80_vmb *vm;
	nvm_status st = nvm_g80_vmb_create(gpu, &d, &vm);
	if (st)
		return fail_status(L, st);
	push_g80vm(L, vm);
	charge_bytes(L, 0, nvm_g80_vmb_footprint(vm));
	lua_pushinteger(L, nvm_g80_vmb_desc(vm));
	return 2;
}

/* g80_vm_dmaobj(gpu, vm, fields, selector or nil) -> selector | nil, status */
static int l_g80_vm_dmaobj(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_dmaobj o;
	g80_dmaobj_arg(L, 3, &o);
	uint32_t sel = lua_isnoneornil(L, 4) ? 0 : (uint32_t)scn_checkrange(L, 4, 1, 0xffff);
	nvm_status st = nvm_g80_vmb_dmaobj(gpu, check_g80vm(L, 2), &o, &sel);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, sel);
	return 1;
}

/* g80_vm_map(gpu, vm, { virt, lin, size, page, entries, blocks (CONTIG), pte fields }) -> true |
 * nil, status, text, bad VA */
static int l_g80_vm_map(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_vmb *vm = check_g80vm(L, 2);
	luaL_checktype(L, 3, LUA_TTABLE);
	nvm_g80_map_desc m;
	nvm_g80_map_desc_init(&m);
	m.virt = field_u64(L, 3, "virt", 0);
	m.lin = field_u64(L, 3, "lin", 0);
	m.size = field_u64(L, 3, "size", 0);
	m.page = (uint32_t)field_u64(L, 3, "page", 0x1000);
	m.entries = (uint32_t)field_u64(L, 3, "entries", 0);
	m.contig = opt_field_bool(L, 3, "blocks", 1);
	pte_desc(L, 3, &m.pte);
	uint64_t bad = 0;
	charge_pages(L, m.size, m.page);
	size_t fp = nvm_g80_vmb_footprint(vm);
	nvm_status st = nvm_g80_vmb_map(gpu, vm, &m, &bad);
	charge_bytes(L, fp, nvm_g80_vmb_footprint(vm));
	if (st) {
		fail_status(L, st);
		lua_pushinteger(L, (lua_Integer)bad);
		return 4;
	}
	lua_pushboolean(L, 1);
	return 1;
}

/* g80_vm_unmap(gpu, vm, virt, size, page) */
static int l_g80_vm_unmap(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	charge_pages(L, check_u64(L, 4), (uint64_t)scn_checkrange(L, 5, 0, UINT32_MAX));
	nvm_status st = nvm_g80_vmb_unmap(gpu, check_g80vm(L, 2), check_u64(L, 3), check_u64(L, 4),
	                                  (uint32_t)scn_checkrange(L, 5, 0, UINT32_MAX));
	return st ? raise_status(L, "vm:unmap", st) : 0;
}

/* g80_vm_pt(vm, i) -> addr, page, entries | nil */
static int l_g80_vm_pt(lua_State *L)
{
	uint64_t addr;
	uint32_t page, entries;
	if (nvm_g80_vmb_pt(check_g80vm(L, 1), (unsigned)scn_checkrange(L, 2, 0, 4095), &addr, &page, &entries))
		return 0;
	lua_pushinteger(L, (lua_Integer)addr);
	lua_pushinteger(L, page);
	lua_pushinteger(L, entries);
	return 3;
}

/* g80_bar(gpu, mem, bar1_size, bar3_size) -> vm, desc, sel1, sel3 | nil, status */
static int l_g80_bar(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_vmb *vm;
	uint32_t s1, s3;
	nvm_status st = nvm_g80_bar_setup(gpu, check_u64(L, 2), check_u64(L, 3), check_u64(L, 4), &vm, &s1, &s3);
	if (st)
		return fail_status(L, st);
	push_g80vm(L, vm);
	charge_bytes(L, 0, nvm_g80_vmb_footprint(vm));
	lua_pushinteger(L, nvm_g80_vmb_desc(vm));
	lua_pushinteger(L, s1);
	lua_pushinteger(L, s3);
	return 4;
}

/* ---------------------------------------------------------------- PFIFO: G80 */

#define G80FIFO_MT "nvmodel.setup_g80fifo"
#define G80CH_MT   "nvmodel.setup_g80ch"

static int l_g80ch_gc(lua_State *L)
{
	nvm_g80_channel_release(luaL_checkudata(L, 1, G80CH_MT));
	return 0;
}

/* g80fifo_new(gpu) -> fifo | nil */
static int l_g80fifo_new(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_fifo *f = lua_newuserdatauv(L, sizeof(*f), 0);
	luaL_setmetatable(L, G80FIFO_MT);
	nvm_status st = nvm_g80_fifo_init(gpu, f);
	if (st == NVM_ERR_CHIP)
		return 0;
	return st ? raise_status(L, "fifo", st) : 1;
}

/* g80fifo_commit(gpu, fifo): the playlist again */
static int l_g80fifo_commit(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_g80_fifo_commit(gpu, luaL_checkudata(L, 2, G80FIFO_MT));
	return st ? raise_status(L, "commit", st) : 0;
}

/* g80fifo_channel(gpu, fifo, { chid, ib, ib_order, vram, vm }) -> chan | nil, status, text */
static int l_g80fifo_channel(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_fifo *f = luaL_checkudata(L, 2, G80FIFO_MT);
	luaL_checktype(L, 3, LUA_TTABLE);
	nvm_g80_channel_desc d;
	nvm_g80_channel_desc_init(&d);
	d.chid = (uint32_t)field_u64(L, 3, "chid", 0);
	d.ib = opt_field_bool(L, 3, "ib", 1);
	d.ib_order = (unsigned)field_u64(L, 3, "ib_order", 9);
	d.pb_ap = opt_field_bool(L, 3, "vram", 0) ? NVM_AP_VRAM : NVM_AP_SYSMEM;
	d.vm = opt_field_bool(L, 3, "vm", 0);
	nvm_g80_channel *ch = lua_newuserdatauv(L, sizeof(*ch), 0);
	memset(ch, 0, sizeof(*ch));
	luaL_setmetatable(L, G80CH_MT);
	charge_pages(L, 0x10000 + (d.vm ? 0x100000 : 0), 4096); /* the structure, the pushbuffer's pages */
	nvm_status st = nvm_g80_channel_create(gpu, f, &d, ch);
	if (st)
		return fail_status(L, st);
	charge_bytes(L, 0, nvm_g80_vmb_footprint(ch->vm));
	return 1;
}

static nvm_g80_channel *check_g80ch(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, G80CH_MT);
}

/* g80ch_state(ch) -> { base, pb, pb_put, ib, ib_put, order, va_off, next } */
static int l_g80ch_state(lua_State *L)
{
	nvm_g80_channel *ch = check_g80ch(L, 1);
	lua_createtable(L, 0, 8);
	scn_set_int(L, "base", (lua_Integer)ch->base);
	scn_set_int(L, "pb", (lua_Integer)ch->pb);
	scn_set_int(L, "pb_put", (lua_Integer)ch->pb_put);
	scn_set_int(L, "ib", (lua_Integer)ch->ib_addr);
	scn_set_int(L, "ib_put", ch->ib_put);
	scn_set_int(L, "order", ch->order);
	scn_set_int(L, "va_off", ch->va_off);
	scn_set_int(L, "next", ch->next);
	return 1;
}

/* g80ch_alloc(ch, size) -> off | nil, status */
static int l_g80ch_alloc(lua_State *L)
{
	uint32_t off;
	nvm_status st = nvm_g80_channel_alloc(check_g80ch(L, 1), (uint32_t)scn_checkrange(L, 2, 0, 0x10000), &off);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, off);
	return 1;
}

/* g80ch_ramht_add(gpu, ch, handle, sel, engine) -> off | nil, status */
static int l_g80ch_ramht_add(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t off;
	nvm_status st = nvm_g80_channel_ramht_add(gpu, check_g80ch(L, 2), (uint32_t)scn_checkrange(L, 3, 0, UINT32_MAX),
	                                          (uint32_t)scn_checkrange(L, 4, 0, 0xffff),
	                                          (unsigned)scn_checkrange(L, 5, 0, 15), &off);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, off);
	return 1;
}

/* g80ch_dmaobj(gpu, ch, fields, offset or nil, handle or nil) -> selector | nil, status */
static int l_g80ch_dmaobj(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_dmaobj o;
	g80_dmaobj_arg(L, 3, &o);
	uint32_t off = lua_isnoneornil(L, 4) ? UINT32_MAX : (uint32_t)scn_checkrange(L, 4, 0, 0xffe8);
	int has = !lua_isnoneornil(L, 5);
	uint32_t handle = has ? (uint32_t)scn_checkrange(L, 5, 0, UINT32_MAX) : 0, sel;
	nvm_status st = nvm_g80_channel_dmaobj(gpu, check_g80ch(L, 2), &o, &off, has, handle, &sel);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, sel);
	return 1;
}

/* g80ch_object(gpu, ch, class, handle, engine) -> selector | nil, status */
static int l_g80ch_object(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t sel;
	nvm_status st = nvm_g80_channel_object(gpu, check_g80ch(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 0xffff),
	                                       (uint32_t)scn_checkrange(L, 4, 0, UINT32_MAX),
	                                       (unsigned)scn_checkrange(L, 5, 0, 15), &sel);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, sel);
	return 1;
}

/* The words of a Lua list (each taken & 0xffffffff), in a userdata buffer on the stack. */
static uint32_t *words_arg(lua_State *L, int idx, size_t *n)
{
	luaL_checktype(L, idx, LUA_TTABLE);
	lua_Integer len = luaL_len(L, idx);
	*n = len > 0 ? (size_t)len : 0;
	charge_pages(L, *n, 1);
	uint32_t *w = lua_newuserdatauv(L, 4 * (*n ? *n : 1), 0);
	for (size_t i = 0; i < *n; i++) {
		lua_geti(L, idx, (lua_Integer)i + 1);
		w[i] = (uint32_t)luaL_checkinteger(L, -1);
		lua_pop(L, 1);
	}
	return w;
}

/* g80ch_write(gpu, ch, words) -> addr | nil, status */
static int l_g80ch_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	size_t n;
	uint32_t *w = words_arg(L, 3, &n);
	uint64_t a;
	nvm_status st = nvm_g80_channel_write(gpu, check_g80ch(L, 2), w, n, &a);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, (lua_Integer)a);
	return 1;
}

/* g80ch_push(gpu, ch, words) -> true | nil, status */
static int l_g80ch_push(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	size_t n;
	uint32_t *w = words_arg(L, 3, &n);
	nvm_status st = nvm_g80_channel_push(gpu, check_g80ch(L, 2), w, n);
	if (st)
		return fail_status(L, st);
	lua_pushboolean(L, 1);
	return 1;
}

/* g80ch_ib_entry(gpu, ch, addr, nwords, not_main) */
static int l_g80ch_ib_entry(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_g80_channel_ib_entry(gpu, check_g80ch(L, 2), (uint64_t)luaL_checkinteger(L, 3),
	                                         (uint32_t)luaL_checkinteger(L, 4), lua_toboolean(L, 5));
	return st ? raise_status(L, "ib_entry", st) : 0;
}

/* g80ch_vm(ch) -> vm, desc | nil: the page tables of a channel made with vm = true */
static int l_g80ch_vm(lua_State *L)
{
	nvm_g80_channel *ch = check_g80ch(L, 1);
	if (!ch->vm)
		return 0;
	push_g80vm(L, ch->vm);
	((g80vm_ud *)lua_touserdata(L, -1))->owned = 0;
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, -2, 1);
	lua_pushinteger(L, nvm_g80_vmb_desc(ch->vm));
	return 2;
}

/* g80ch_kick(gpu, ch) */
static int l_g80ch_kick(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_g80_channel_kick(gpu, check_g80ch(L, 2));
	return st ? raise_status(L, "kick", st) : 0;
}

/* ---------------------------------------------------------------- PFIFO: NV01, NV03 */

#define NV03_MT "nvmodel.setup_nv03"

static nvm_nv03_fifo *check_nv03(lua_State *L, int idx)
{
	return luaL_checkudata(L, idx, NV03_MT);
}

/* nv03_fifo(gpu) -> fifo, { ramht, ramht_size, ramro, ramfc, bar } | nil */
static int l_nv03_fifo(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_nv03_fifo *f = lua_newuserdatauv(L, sizeof(*f), 0);
	luaL_setmetatable(L, NV03_MT);
	nvm_status st = nvm_nv03_fifo_init(gpu, f);
	if (st == NVM_ERR_CHIP)
		return 0;
	if (st)
		return raise_status(L, "fifo", st);
	lua_createtable(L, 0, 5);
	scn_set_int(L, "ramht", f->ramht);
	scn_set_int(L, "ramht_size", f->ramht_size);
	scn_set_int(L, "ramro", f->ramro);
	scn_set_int(L, "ramfc", f->ramfc);
	lua_pushboolean(L, f->bar);
	lua_setfield(L, -2, "bar");
	return 2;
}

/* nv03_wr(gpu, fifo, addr, v) */
static int l_nv03_wr(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr = (uint32_t)scn_checkrange(L, 3, 0, UINT32_MAX);
	nvm_status st = nvm_nv03_ramin_wr(gpu, check_nv03(L, 2), addr, (uint32_t)luaL_checkinteger(L, 4));
	return st ? scn_error(L, "RAMIN 0x%x: %s", addr, nvm_status_str(st)) : 0;
}

/* nv03_rd(gpu, fifo, addr) -> v */
static int l_nv03_rd(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr = (uint32_t)scn_checkrange(L, 3, 0, UINT32_MAX), v = 0;
	nvm_status st = nvm_nv03_ramin_rd(gpu, check_nv03(L, 2), addr, &v);
	if (st)
		return scn_error(L, "RAMIN 0x%x: %s", addr, nvm_status_str(st));
	lua_pushinteger(L, v);
	return 1;
}

/* nv03_context(fifo, type, instance, engine, flags) -> ctx | nil, status */
static int l_nv03_context(lua_State *L)
{
	uint32_t ctx;
	nvm_status st =
	        nvm_nv03_context(check_nv03(L, 1), (unsigned)scn_checkrange(L, 2, 0, 0x7f),
	                         (uint32_t)scn_checkrange(L, 3, 0, UINT32_MAX), (unsigned)scn_checkrange(L, 4, 0, 1),
	                         (uint32_t)scn_checkrange(L, 5, 0, UINT32_MAX), &ctx);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, ctx);
	return 1;
}

/* nv03_ramht_add(gpu, fifo, chid, handle, context) -> addr | nil, status */
static int l_nv03_ramht_add(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t a;
	nvm_status st = nvm_nv03_ramht_add(gpu, check_nv03(L, 2), (uint32_t)scn_checkrange(L, 3, 0, 127),
	                                   (uint32_t)scn_checkrange(L, 4, 0, UINT32_MAX),
	                                   (uint32_t)scn_checkrange(L, 5, 0, 0xffffff), &a);
	if (st)
		return fail_status(L, st);
	lua_pushinteger(L, a);
	return 1;
}

/* nv03_pio(gpu, chid, subch, method, data) */
static int l_nv03_pio(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_status st = nvm_nv03_pio(gpu, (uint32_t)scn_checkrange(L, 2, 0, 127), (unsigned)scn_checkrange(L, 3, 0, 7),
	                             (uint32_t)scn_checkrange(L, 4, 0, 0x1ffc), (uint32_t)luaL_checkinteger(L, 5));
	return st ? raise_status(L, "pio", st) : 0;
}

/* ramht_slot(chip, handle, chid, bits) -> first entry, entries probed */
static int l_ramht_slot(lua_State *L)
{
	unsigned probe = 0;
	uint32_t slot =
	        nvm_pfifo_ramht_slot(luaL_checkstring(L, 1), (uint32_t)luaL_checkinteger(L, 2),
	                             (uint32_t)luaL_checkinteger(L, 3), (unsigned)scn_checkrange(L, 4, 1, 31), &probe);
	lua_pushinteger(L, slot);
	lua_pushinteger(L, probe);
	return 2;
}

static const luaL_Reg setup_funcs[] = {
	{ "heap_new", l_heap_new },
	{ "heap_alloc", l_heap_alloc },
	{ "heap_state", l_heap_state },
	{ "vm_new", l_vm_new },
	{ "vm_conflict", l_vm_conflict },
	{ "vm_map", l_vm_map },
	{ "vm_alloc_map", l_vm_alloc_map },
	{ "vm_lookup", l_vm_lookup },
	{ "vm_pte", l_vm_pte },
	{ "host", l_host },
	{ "host_init", l_host_init },
	{ "instance", l_instance },
	{ "channel_new", l_channel_new },
	{ "channel_state", l_channel_state },
	{ "channel_set", l_channel_set },
	{ "channel_bind", l_channel_bind },
	{ "channel_enable", l_channel_enable },
	{ "channel_disable", l_channel_disable },
	{ "channel_kick", l_channel_kick },
	{ "channel_push_entry", l_channel_push_entry },
	{ "channel_push", l_channel_push },
	{ "gp_entry", l_gp_entry },
	{ "gp_control", l_gp_control },
	{ "runlist_write", l_runlist_write },
	{ "runlist_submit", l_runlist_submit },
	{ "runlist_pending", l_runlist_pending },
	{ "runlist_space", l_runlist_space },
	{ "nv04_fifo", l_nv04_fifo },
	{ "nv04_alloc", l_nv04_alloc },
	{ "nv04_next", l_nv04_next },
	{ "nv04_dmaobj", l_nv04_dmaobj },
	{ "nv04_object", l_nv04_object },
	{ "nv04_ramht_add", l_nv04_ramht_add },
	{ "nv04_ramfc_set", l_nv04_ramfc_set },
	{ "nv04_channel", l_nv04_channel },
	{ "nv04_user", l_nv04_user },
	{ "nv04_kick", l_nv04_kick },
	{ "nv04_pio", l_nv04_pio },
	{ "ramht_hash", l_ramht_hash },
	{ "g80_chan_desc", l_g80_chan_desc },
	{ "g80_pde", l_g80_pde },
	{ "g80_pte", l_g80_pte },
	{ "g80_dmaobj_words", l_g80_dmaobj_words },
	{ "g80_vm_new", l_g80_vm_new },
	{ "g80_vm_dmaobj", l_g80_vm_dmaobj },
	{ "g80_vm_map", l_g80_vm_map },
	{ "g80_vm_unmap", l_g80_vm_unmap },
	{ "g80_vm_pt", l_g80_vm_pt },
	{ "g80_bar", l_g80_bar },
	{ "nv03_fifo", l_nv03_fifo },
	{ "nv03_wr", l_nv03_wr },
	{ "nv03_rd", l_nv03_rd },
	{ "nv03_context", l_nv03_context },
	{ "nv03_ramht_add", l_nv03_ramht_add },
	{ "nv03_pio", l_nv03_pio },
	{ "ramht_slot", l_ramht_slot },
	{ "g80fifo_new", l_g80fifo_new },
	{ "g80fifo_channel", l_g80fifo_channel },
	{ "g80fifo_commit", l_g80fifo_commit },
	{ "g80ch_state", l_g80ch_state },
	{ "g80ch_alloc", l_g80ch_alloc },
	{ "g80ch_ramht_add", l_g80ch_ramht_add },
	{ "g80ch_dmaobj", l_g80ch_dmaobj },
	{ "g80ch_object", l_g80ch_object },
	{ "g80ch_write", l_g80ch_write },
	{ "g80ch_push", l_g80ch_push },
	{ "g80ch_ib_entry", l_g80ch_ib_entry },
	{ "g80ch_kick", l_g80ch_kick },
	{ "g80ch_vm", l_g80ch_vm },
	{ NULL, NULL },
};

/* Adds nvmodel._setup to the nvmodel table at the top of the stack. */
void scn_open_setup(lua_State *L)
{
	luaL_newmetatable(L, HEAP_MT);
	lua_pop(L, 1);
	luaL_newmetatable(L, CHAN_MT);
	lua_pop(L, 1);
	luaL_newmetatable(L, NV04_MT);
	lua_pop(L, 1);
	luaL_newmetatable(L, NV03_MT);
	lua_pop(L, 1);
	luaL_newmetatable(L, G80FIFO_MT);
	lua_pop(L, 1);
	luaL_newmetatable(L, G80CH_MT);
	lua_pushcfunction(L, l_g80ch_gc);
	lua_setfield(L, -2, "__gc");
	lua_pop(L, 1);
	luaL_newmetatable(L, G80VM_MT);
	lua_pushcfunction(L, l_g80vm_gc);
	lua_setfield(L, -2, "__gc");
	lua_pop(L, 1);
	luaL_newmetatable(L, VM_MT);
	lua_pushcfunction(L, l_vm_gc);
	lua_setfield(L, -2, "__gc");
	lua_pop(L, 1);
	luaL_newlib(L, setup_funcs);
	lua_setfield(L, -2, "_setup");
}
