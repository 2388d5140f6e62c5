/*
 * Lua methods of the GMMU (include/nvmodel/mmu.h):
 *
 *   gpu:mmu_translate{inst = {"vram", 0x10000} | pdb = {"vram", 0x1000},
 *                     veid = -1, va = n, access = "read", engine = n,
 *                     client_type = "gpc"|"hub", client = n, gpc = n, priv = bool}
 *   gpu:mmu_walk("vram", pdb, va [, access [, priv]])   -- pure walk, no TLB/faults
 *   gpu:mmu_invalidate{all_pdb, all_va, pdb = {...}, va, size_log2, replay = "start"|
 *                      "start_ack_all"|"cancel_targeted"|"cancel_global"|"cancel_va_global",
 *                      client, gpc, client_type, cancel_access}
 *   gpu:mmu_pending(), gpu:mmu_strict_tlb(on), gpu:mmu_stats()
 *   gpu:mmu_bar_write(bar, off, data), gpu:mmu_bar_read(bar, off, len)
 *
 * Translations return a table {fault = nil|"PTE"..., pa, aperture, page_size,
 * kind, priv, ro, vol, atomic_disable, sparse, replayable, ticket}. Faults
 * also arrive as "fault" events (gpu:on("fault", fn)): code = the fault type,
 * addr = the 4 KiB-aligned VA, value = the type number.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "nvmodel/mmu.h"
#include "scn_internal.h"

static unsigned target_of(lua_State *L, const char *s)
{
	if (!strcasecmp(s, "vram") || !strcasecmp(s, "vid"))
		return NVM_MMU_PDB_VID;
	if (!strcasecmp(s, "sysmem") || !strcasecmp(s, "sysmem_coh"))
		return NVM_MMU_PDB_SYS_COH;
	if (!strcasecmp(s, "sysmem_ncoh"))
		return NVM_MMU_PDB_SYS_NCOH;
	if (!strcasecmp(s, "invalid"))
		return NVM_MMU_PDB_INVALID;
	return (unsigned)luaL_error(L, "unknown target '%s' (vram, sysmem_coh, sysmem_ncoh, invalid)", s);
}

static lua_Integer opt_int(lua_State *L, int t, const char *k, lua_Integer def, lua_Integer lo, lua_Integer hi)
{
	lua_Integer v = def;
	if (lua_getfield(L, t, k) != LUA_TNIL) {
		if (!lua_isinteger(L, -1))
			luaL_error(L, "field '%s' must be an integer", k);
		v = lua_tointeger(L, -1);
		if (v < lo || v > hi)
			luaL_error(L, "field '%s' out of range", k);
	}
	lua_pop(L, 1);
	return v;
}

static bool opt_bool(lua_State *L, int t, const char *k)
{
	lua_getfield(L, t, k);
	bool b = lua_toboolean(L, -1);
	lua_pop(L, 1);
	return b;
}

/* A {"aperture", addr} pair in field k; false when absent. */
static bool opt_place(lua_State *L, int t, const char *k, unsigned *target, uint64_t *addr)
{
	if (lua_getfield(L, t, k) == LUA_TNIL) {
		lua_pop(L, 1);
		return false;
	}
	luaL_checktype(L, -1, LUA_TTABLE);
	lua_rawgeti(L, -1, 1);
	lua_rawgeti(L, -2, 2);
	*target = target_of(L, luaL_checkstring(L, -2));
	if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0)
		luaL_error(L, "field '%s' wants {aperture, address}", k);
	*addr = (uint64_t)lua_tointeger(L, -1);
	lua_pop(L, 3);
	return true;
}

static nvm_mmu_access access_of(lua_State *L, const char *s)
{
	nvm_mmu_access a;
	if (!nvm_mmu_parse_access(s, &a))
		luaL_error(L, "unknown access '%s' (read, write, atomic, prefetch)", s);
	return a;
}

static void push_result(lua_State *L, const nvm_mmu_result *r)
{
	lua_createtable(L, 0, 12);
	if (r->fault != NVM_MMU_FAULT_NONE) {
		lua_pushstring(L, nvm_mmu_fault_type_name((unsigned)r->fault));
		lua_setfield(L, -2, "fault");
	}
	lua_pushboolean(L, r->sparse);
	lua_setfield(L, -2, "sparse");
	if (r->fault == NVM_MMU_FAULT_NONE && !r->sparse) {
		lua_pushinteger(L, (lua_Integer)r->pa);
		lua_setfield(L, -2, "pa");
		lua_pushstring(L, nvm_mmu_target_name(r->target));
		lua_setfield(L, -2, "aperture");
	}
	lua_pushinteger(L, (lua_Integer)r->page_size);
	lua_setfield(L, -2, "page_size");
	lua_pushinteger(L, (lua_Integer)r->kind);
	lua_setfield(L, -2, "kind");
	lua_pushboolean(L, r->priv);
	lua_setfield(L, -2, "priv");
	lua_pushboolean(L, r->ro);
	lua_setfield(L, -2, "ro");
	lua_pushboolean(L, r->vol);
	lua_setfield(L, -2, "vol");
	lua_pushboolean(L, r->atomic_disable);
	lua_setfield(L, -2, "atomic_disable");
	lua_pushboolean(L, r->replayable);
	lua_setfield(L, -2, "replayable");
	lua_pushinteger(L, (lua_Integer)r->ticket);
	lua_setfield(L, -2, "ticket");
	scn_record(L);
}

static int l_mmu_translate(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	nvm_mmu_request q = { 0 };
	if (opt_place(L, 2, "pdb", &q.pdb_target, &q.pdb_addr))
		q.use_pdb = 1;
	else if (!opt_place(L, 2, "inst", &q.inst_target, &q.inst_addr))
		luaL_error(L, "mmu_translate: give inst = {aperture, addr} or pdb = {aperture, addr}");
	q.veid = (int)opt_int(L, 2, "veid", -1, -1, 63);
	q.va = (uint64_t)opt_int(L, 2, "va", 0, 0, INT64_MAX);
	lua_getfield(L, 2, "access");
	q.access = lua_isnil(L, -1) ? NVM_MMU_READ : access_of(L, luaL_checkstring(L, -1));
	lua_pop(L, 1);
	q.engine_id = (unsigned)opt_int(L, 2, "engine", q.veid >= 0 ? 64 + q.veid : 64, 0, 511);
	lua_getfield(L, 2, "client_type");
	const char *ct = lua_isnil(L, -1) ? "gpc" : luaL_checkstring(L, -1);
	if (strcasecmp(ct, "gpc") && strcasecmp(ct, "hub"))
		luaL_error(L, "client_type must be \"gpc\" or \"hub\"");
	q.client_type = strcasecmp(ct, "hub") ? NVM_MMU_CLIENT_GPC : NVM_MMU_CLIENT_HUB;
	lua_pop(L, 1);
	q.client_id = (unsigned)opt_int(L, 2, "client", 0, 0, 127);
	q.gpc_id = (unsigned)opt_int(L, 2, "gpc", 0, 0, 31);
	q.privileged = opt_bool(L, 2, "priv");
	nvm_mmu_result r;
	nvm_status st = nvm_mmu_translate(gpu, &q, &r);
	scn_rethrow(L);
	if (st && st != NVM_ERR_FAULT) /* a fault: r tells */
		luaL_error(L, "mmu_translate: %s (this chip has no GMMU?)", nvm_status_str(st));
	push_result(L, &r);
	return 1;
}

static int l_mmu_walk(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	unsigned t = target_of(L, luaL_checkstring(L, 2));
	uint64_t pdb = (uint64_t)scn_checkrange(L, 3, 0, INT64_MAX);
	uint64_t va = (uint64_t)scn_checkrange(L, 4, 0, INT64_MAX);
	nvm_mmu_access a = access_of(L, luaL_optstring(L, 5, "read"));
	nvm_mmu_result r;
	nvm_mmu_walk(gpu, t, pdb, va, a, lua_toboolean(L, 6), &r, NULL);
	push_result(L, &r);
	return 1;
}

static int l_mmu_invalidate(lua_State *L)
{
	static const char *const replays[] = {
		"none", "start", "start_ack_all", "cancel_targeted", "cancel_global", "cancel_va_global", NULL
	};
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_mmu_inval op = { 0 };
	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		op.all_pdb = opt_bool(L, 2, "all_pdb");
		op.all_va = opt_bool(L, 2, "all_va");
		if (!opt_place(L, 2, "pdb", &op.pdb_target, &op.pdb_addr) && !op.all_pdb)
			op.all_pdb = 1;
		op.va = (uint64_t)opt_int(L, 2, "va", 0, 0, INT64_MAX);
		if (lua_getfield(L, 2, "va") == LUA_TNIL)
			op.all_va = 1;
		lua_pop(L, 1);
		op.size_log2 = (unsigned)opt_int(L, 2, "size_log2", 0, 0, 63);
		lua_getfield(L, 2, "size_log2");
		op.use_size = !lua_isnil(L, -1);
		lua_pop(L, 1);
		lua_getfield(L, 2, "replay");
		op.replay = (nvm_mmu_replay)(lua_isnil(L, -1) ? 0 : luaL_checkoption(L, -1, NULL, replays));
		lua_pop(L, 1);
		op.cancel_client_id = (unsigned)opt_int(L, 2, "client", 0, 0, 63);
		op.cancel_gpc_id = (unsigned)opt_int(L, 2, "gpc", 0, 0, 31);
		lua_getfield(L, 2, "client_type");
		op.cancel_client_type = lua_isstring(L, -1) && !strcasecmp(lua_tostring(L, -1), "hub");
		lua_pop(L, 1);
		op.cancel_access = (unsigned)opt_int(L, 2, "cancel_access", 7, 0, 7);
	} else {
		op.all_pdb = op.all_va = 1;
	}
	nvm_status st = nvm_mmu_invalidate(gpu, &op);
	scn_rethrow(L);
	if (st)
		luaL_error(L, "mmu_invalidate: %s", nvm_status_str(st));
	return 0;
}

static int l_mmu_pending(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)nvm_mmu_pending(scn_checkgpu(L, 1)));
	return 1;
}

static int l_mmu_strict_tlb(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	if (nvm_mmu_set_strict_tlb(gpu, lua_toboolean(L, 2)))
		luaL_error(L, "mmu_strict_tlb: this chip has no GMMU");
	return 0;
}

static int l_mmu_stats(lua_State *L)
{
	nvm_mmu_stats s;
	if (nvm_mmu_get_stats(scn_checkgpu(L, 1), &s))
		luaL_error(L, "mmu_stats: this chip has no GMMU");
	lua_createtable(L, 0, 10);
	const struct {
		const char *k;
		uint64_t v;
	} f[] = { { "translations", s.translations },
		  { "tlb_hits", s.tlb_hits },
		  { "walks", s.walks },
		  { "faults", s.faults },
		  { "replayed_ok", s.replayed_ok },
		  { "cancelled", s.cancelled },
		  { "packets_nonreplay", s.packets_written[0] },
		  { "packets_replay", s.packets_written[1] },
		  { "dropped_nonreplay", s.packets_dropped[0] },
		  { "dropped_replay", s.packets_dropped[1] } };
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		lua_pushinteger(L, (lua_Integer)f[i].v);
		lua_setfield(L, -2, f[i].k);
	}
	scn_record(L);
	return 1;
}

int scn_bar_write(lua_State *L, nvm_gpu *gpu, int bar, scn_bar_write_fn wr)
{
	uint64_t off = (uint64_t)scn_checkrange(L, 3, 0, INT64_MAX);
	size_t len;
	const char *data = luaL_checklstring(L, 4, &len);
	nvm_status st = wr(gpu, bar, off, data, len);
	scn_rethrow(L);
	lua_pushboolean(L, st == NVM_OK);
	return 1;
}

int scn_bar_read(lua_State *L, nvm_gpu *gpu, int bar, scn_bar_read_fn rd, const char *what)
{
	uint64_t off = (uint64_t)scn_checkrange(L, 3, 0, INT64_MAX);
	size_t len = (size_t)scn_checkrange(L, 4, 0, 1 << 20);
	char *buf = malloc(len ? len : 1);
	if (!buf)
		return luaL_error(L, "%s: out of memory", what);
	nvm_status st = rd(gpu, bar, off, buf, len);
	if (st) {
		free(buf);
		scn_rethrow(L);
		lua_pushnil(L);
		return 1;
	}
	lua_pushlstring(L, buf, len);
	free(buf);
	scn_rethrow(L);
	return 1;
}

static int l_mmu_bar_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	return scn_bar_write(L, gpu, (int)scn_checkrange(L, 2, 1, 2), nvm_mmu_bar_write);
}

static int l_mmu_bar_read(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	return scn_bar_read(L, gpu, (int)scn_checkrange(L, 2, 1, 2), nvm_mmu_bar_read, "mmu_bar_read");
}

const luaL_Reg scn_mmu_methods[] = {
	{ "mmu_translate", l_mmu_translate },
	{ "mmu_walk", l_mmu_walk },
	{ "mmu_invalidate", l_mmu_invalidate },
	{ "mmu_pending", l_mmu_pending },
	{ "mmu_strict_tlb", l_mmu_strict_tlb },
	{ "mmu_stats", l_mmu_stats },
	{ "mmu_bar_write", l_mmu_bar_write },
	{ "mmu_bar_read", l_mmu_bar_read },
	{ NULL, NULL },
};
