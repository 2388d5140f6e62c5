/*
 * Lua methods of the G80 VM (include/nvmodel/g80vm.h):
 *
 *   gpu:g80_translate{chan = n, selector = n, offset = n, engine = n,
 *                     client = n, slot = n, write = bool, supervisor = bool}
 *   gpu:g80_read(req, len), gpu:g80_write(req, data)  -- req as above
 *   gpu:g80_flush(engine)                 -- the TLB of one VM engine, at once
 *   gpu:g80_bar_read(bar, off, len), gpu:g80_bar_write(bar, off, data)  -- bar 1 or 3
 *   gpu:g80_strict_tlb(on), gpu:g80_stats()
 *
 * Translations return {fault = nil|"PT_NOT_PRESENT"..., reason, aperture,
 * target, addr, virt, paged, page_size, block, ro, supervisor_only,
 * storage_type, comp, tag, part_cycle, encrypted, tlb_hit}. g80_read and
 * g80_write return the data / true, or nil and the fault's name. Faults also
 * arrive as "fault" events (block "g80vm"). The structures themselves are
 * built by the nvmodel.g80 Lua module (src/scenario/g80.lua).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "nvmodel/g80vm.h"
#include "scn_internal.h"

static lua_Integer field_int(lua_State *L, int t, const char *k, lua_Integer def, lua_Integer hi)
{
	lua_Integer v = def;
	if (lua_getfield(L, t, k) != LUA_TNIL) {
		if (!lua_isinteger(L, -1))
			scn_error(L, "field '%s' must be an integer", k);
		v = lua_tointeger(L, -1);
		if (v < 0 || v > hi)
			scn_error(L, "field '%s' = %lld out of range [0, 0x%llx]", k, (long long)v, (long long)hi);
	}
	lua_pop(L, 1);
	return v;
}

static bool field_bool(lua_State *L, int t, const char *k, bool def)
{
	bool b = def;
	if (lua_getfield(L, t, k) != LUA_TNIL)
		b = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return b;
}

static nvm_g80_req check_req(lua_State *L, int t)
{
	luaL_checktype(L, t, LUA_TTABLE);
	nvm_g80_req q;
	q.chan = (uint32_t)field_int(L, t, "chan", 0, 0x3fffffff);
	q.selector = (uint32_t)field_int(L, t, "selector", 0, 0xffff);
	q.offset = (uint64_t)field_int(L, t, "offset", 0, (1ll << 40) - 1);
	q.engine = (unsigned)field_int(L, t, "engine", 0, 0xf);
	q.client = (unsigned)field_int(L, t, "client", 0, 0x1f);
	q.slot = (unsigned)field_int(L, t, "slot", 0, 0xf);
	q.write = field_bool(L, t, "write", false);
	q.supervisor = field_bool(L, t, "supervisor", false);
	return q;
}

static void push_res(lua_State *L, const nvm_g80_res *r)
{
	lua_createtable(L, 0, 18);
	if (r->fault) {
		const char *n = nvm_g80_fault_name(r->reason);
		lua_pushstring(L, n ? n : "?");
		lua_setfield(L, -2, "fault");
		scn_set_int(L, "reason", r->reason);
	} else {
		lua_pushstring(L, nvm_aperture_name(r->ap));
		lua_setfield(L, -2, "aperture");
		lua_pushstring(L, nvm_g80_target_name(r->target));
		lua_setfield(L, -2, "target");
		scn_set_int(L, "addr", (lua_Integer)r->addr);
	}
	scn_set_int(L, "virt", (lua_Integer)r->virt);
	lua_pushboolean(L, r->paged);
	lua_setfield(L, -2, "paged");
	scn_set_int(L, "page_size", (lua_Integer)r->page_size);
	scn_set_int(L, "block", (lua_Integer)r->block);
	lua_pushboolean(L, r->ro);
	lua_setfield(L, -2, "ro");
	lua_pushboolean(L, r->supervisor_only);
	lua_setfield(L, -2, "supervisor_only");
	scn_set_int(L, "storage_type", r->storage_type);
	scn_set_int(L, "comp", r->comp);
	scn_set_int(L, "tag", r->tag);
	scn_set_int(L, "part_cycle", r->part_cycle);
	lua_pushboolean(L, r->encrypted);
	lua_setfield(L, -2, "encrypted");
	lua_pushboolean(L, r->tlb_hit);
	lua_setfield(L, -2, "tlb_hit");
	scn_record(L);
}

static void check_status(lua_State *L, const char *what, nvm_status st)
{
	if (st == NVM_ERR_NOENT)
		scn_error(L, "%s: this chip has no G80 VM (g80, g84, g92, gt215)", what);
	if (st == NVM_ERR_NOMEM)
		scn_nomem(L, what);
	if (st && st != NVM_ERR_FAULT)
		scn_error(L, "%s: %s", what, nvm_status_str(st));
}

static int l_translate(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_req q = check_req(L, 2);
	nvm_g80_res r;
	nvm_status st = nvm_g80_translate(gpu, &q, &r);
	scn_rethrow(L);
	check_status(L, "g80_translate", st == NVM_ERR_FAULT ? NVM_OK : st); /* a fault: r tells */
	push_res(L, &r);
	return 1;
}

static int push_fault(lua_State *L, const nvm_g80_res *r)
{
	lua_pushnil(L);
	const char *n = nvm_g80_fault_name(r->reason);
	lua_pushstring(L, n ? n : "?");
	return 2;
}

static int l_read(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_req q = check_req(L, 2);
	size_t len = (size_t)scn_checkrange(L, 3, 0, 1 << 24);
	char *buf = malloc(len ? len : 1);
	if (!buf)
		return luaL_error(L, "g80_read: out of memory");
	nvm_g80_res r;
	nvm_status st = nvm_g80_read(gpu, &q, buf, len, &r);
	if (st) {
		free(buf);
		scn_rethrow(L);
		check_status(L, "g80_read", st);
		return push_fault(L, &r);
	}
	lua_pushlstring(L, buf, len);
	free(buf);
	scn_rethrow(L);
	return 1;
}

static int l_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_g80_req q = check_req(L, 2);
	size_t len;
	const char *data = luaL_checklstring(L, 3, &len);
	nvm_g80_res r;
	nvm_status st = nvm_g80_write(gpu, &q, data, len, &r);
	scn_rethrow(L);
	check_status(L, "g80_write", st);
	if (st)
		return push_fault(L, &r);
	lua_pushboolean(L, 1);
	return 1;
}

static int l_flush(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	unsigned e = (unsigned)scn_checkrange(L, 2, 0, 15);
	check_status(L, "g80_flush", nvm_g80_tlb_flush(gpu, e));
	return 0;
}

static int check_bar(lua_State *L, nvm_gpu *gpu)
{
	nvm_g80_layout lay;
	check_status(L, "g80 BAR", nvm_g80_chip_layout(gpu, &lay));
	int bar = (int)scn_checkrange(L, 2, 1, 3);
	if (bar == 2)
		scn_error(L, "g80 BARs are 1 and 3");
	return bar;
}

static int l_bar_read(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	return scn_bar_read(L, gpu, check_bar(L, gpu), nvm_g80_bar_read, "g80_bar_read");
}

static int l_bar_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	return scn_bar_write(L, gpu, check_bar(L, gpu), nvm_g80_bar_write);
}

static int l_strict_tlb(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	check_status(L, "g80_strict_tlb", nvm_g80_set_strict_tlb(gpu, lua_toboolean(L, 2)));
	return 0;
}

static int l_stats(lua_State *L)
{
	nvm_g80_stats s;
	check_status(L, "g80_stats", nvm_g80_get_stats(scn_checkgpu(L, 1), &s));
	lua_createtable(L, 0, 6);
	scn_set_int(L, "translations", (lua_Integer)s.translations);
	scn_set_int(L, "tlb_hits", (lua_Integer)s.tlb_hits);
	scn_set_int(L, "walks", (lua_Integer)s.walks);
	scn_set_int(L, "faults", (lua_Integer)s.faults);
	scn_set_int(L, "flushes", (lua_Integer)s.flushes);
	scn_set_int(L, "tlb_entries", (lua_Integer)s.tlb_entries);
	scn_record(L);
	return 1;
}

const luaL_Reg scn_g80_methods[] = {
	{ "g80_translate", l_translate },   { "g80_read", l_read },         { "g80_write", l_write },
	{ "g80_flush", l_flush },           { "g80_bar_read", l_bar_read }, { "g80_bar_write", l_bar_write },
	{ "g80_strict_tlb", l_strict_tlb }, { "g80_stats", l_stats },       { NULL, NULL },
};
