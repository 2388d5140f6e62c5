/*
 * Lua methods of PFIFO for NV04..NV4x (include/nvmodel/pfifo.h):
 *
 *   gpu:pfifo_log(engine [, first [, max]])  -- {{time_ns, chid, subch, cls, method, data}, ...}
 *   gpu:pfifo_log_total(engine)              -- methods the engine received since open
 *   gpu:pfifo_log_config(engine, cap)        -- ring size, 0 = count only
 *   gpu:pfifo_log_clear(engine)
 *   gpu:pfifo_stats()                        -- {pio_writes, ramro_entries, dma_words, ...}
 *   gpu:pfifo_user_write(addr, value, size)  -- a 1/2/4-byte USER-area store at any alignment
 *
 * Engines: "pgraph" and "software". The structures (RAMHT entries, RAMFC,
 * DMA objects, channels, pushbuffers) are built by the nvmodel.nv04 Lua
 * module through gpu:wr32 / gpu:mem_* as a driver builds them.
 */
#include <stdint.h>

#include "nvmodel/pfifo.h"
#include "scn_internal.h"

static void set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static const char *check_engine(lua_State *L, nvm_gpu *gpu, int idx)
{
	const char *e = luaL_checkstring(L, idx);
	size_t n;
	nvm_status st = nvm_pfifo_log_read(gpu, e, 0, NULL, 0, &n, NULL);
	if (st == NVM_ERR_NOENT && nvm_pfifo_log_read(gpu, "pgraph", 0, NULL, 0, &n, NULL))
		scn_error(L, "this chip has no NV04-style PFIFO (nv04..nv41)");
	if (st)
		scn_error(L, "unknown engine '%s' (pgraph, software)", e);
	return e;
}

static int l_log(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *e = check_engine(L, gpu, 2);
	size_t first = lua_isnoneornil(L, 3) ? 0 : (size_t)scn_checkrange(L, 3, 0, INT32_MAX);
	size_t max = lua_isnoneornil(L, 4) ? 65536 : (size_t)scn_checkrange(L, 4, 0, 1 << 24);
	lua_newtable(L);
	nvm_host_method buf[256];
	size_t got = 0, n;
	while (got < max) {
		size_t want = max - got < 256 ? max - got : 256;
		if (nvm_pfifo_log_read(gpu, e, first + got, buf, want, &n, NULL) || !n)
			break;
		for (size_t i = 0; i < n; i++) {
			lua_createtable(L, 0, 6);
			set_int(L, "time_ns", (lua_Integer)buf[i].time_ns);
			set_int(L, "chid", buf[i].chid);
			set_int(L, "subch", buf[i].subch);
			set_int(L, "cls", buf[i].cls);
			set_int(L, "method", buf[i].method);
			set_int(L, "data", buf[i].data);
			lua_rawseti(L, -2, (lua_Integer)(got + i + 1));
		}
		got += n;
	}
	return 1;
}

static int l_log_total(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *e = check_engine(L, gpu, 2);
	size_t n;
	uint64_t total = 0;
	nvm_pfifo_log_read(gpu, e, 0, NULL, 0, &n, &total);
	lua_pushinteger(L, (lua_Integer)total);
	return 1;
}

static int l_log_config(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *e = check_engine(L, gpu, 2);
	lua_Integer cap = scn_checkrange(L, 3, 0, 1 << 24);
	if (nvm_pfifo_log_config(gpu, e, (size_t)cap))
		scn_error(L, "pfifo_log_config: out of memory for %lld entries", (long long)cap);
	return 0;
}

static int l_log_clear(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_pfifo_log_clear(gpu, check_engine(L, gpu, 2));
	return 0;
}

static int l_stats(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_pfifo_stats s;
	if (nvm_pfifo_get_stats(gpu, &s))
		scn_error(L, "pfifo_stats: this chip has no NV04-style PFIFO (nv04..nv41)");
	lua_createtable(L, 0, 16);
	set_int(L, "pio_writes", (lua_Integer)s.pio_writes);
	set_int(L, "ramro_entries", (lua_Integer)s.ramro_entries);
	set_int(L, "ramro_overflows", (lua_Integer)s.ramro_overflows);
	set_int(L, "dma_words", (lua_Integer)s.dma_words);
	set_int(L, "cache_pushes", (lua_Integer)s.cache_pushes);
	set_int(L, "methods", (lua_Integer)s.methods);
	set_int(L, "engine_methods", (lua_Integer)s.engine_methods);
	set_int(L, "sw_methods", (lua_Integer)s.sw_methods);
	set_int(L, "ramht_lookups", (lua_Integer)s.ramht_lookups);
	set_int(L, "ramht_misses", (lua_Integer)s.ramht_misses);
	set_int(L, "ctx_switches", (lua_Integer)s.ctx_switches);
	set_int(L, "dma_pusher_errors", (lua_Integer)s.dma_pusher_errors);
	set_int(L, "cache_errors", (lua_Integer)s.cache_errors);
	set_int(L, "semaphore_errors", (lua_Integer)s.semaphore_errors);
	set_int(L, "acquire_waits", (lua_Integer)s.acquire_waits);
	return 1;
}

static int l_user_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr = (uint32_t)scn_checkrange(L, 2, 0, 0xffffff);
	uint32_t v = (uint32_t)scn_checkrange(L, 3, INT32_MIN, UINT32_MAX);
	lua_Integer size = luaL_optinteger(L, 4, 4);
	if (size != 1 && size != 2 && size != 4)
		scn_error(L, "pfifo_user_write: size must be 1, 2 or 4 (got %lld)", (long long)size);
	nvm_status st = nvm_pfifo_user_write(gpu, addr, v, (unsigned)size);
	scn_rethrow(L);
	if (st == NVM_ERR_RANGE)
		scn_error(L, "pfifo_user_write: 0x%06x is not in a channel's USER area", addr);
	if (st)
		scn_error(L, "pfifo_user_write: %s", nvm_status_str(st));
	return 0;
}

const luaL_Reg scn_pfifo_methods[] = {
	{ "pfifo_log", l_log },
	{ "pfifo_log_total", l_log_total },
	{ "pfifo_log_config", l_log_config },
	{ "pfifo_log_clear", l_log_clear },
	{ "pfifo_stats", l_stats },
	{ "pfifo_user_write", l_user_write },
	{ NULL, NULL },
};
