/*
 * Builders offered to scripts on top of the raw gpu methods:
 *
 *   nvmodel.pb_asm / nvmodel.pb_words   (scn_pb.c)
 *   nvmodel.host_layout                 (scn_host.c: Host structure offsets for the builders)
 *   nvmodel._setup                      (scn_setup.c: the library's set-up helpers, nvmodel/setup.h)
 *   nvmodel.pfifo_layout / nvmodel.pfifo_ramht_context   (scn_pfifo.c)
 *   nvmodel.util                        (src/scenario/util.lua, embedded: the builders' checks)
 *   nvmodel.volta                       (src/scenario/volta.lua, embedded)
 *   nvmodel.nv03                        (src/scenario/nv03.lua, embedded: NV01, NV03)
 *   nvmodel.nv04                        (src/scenario/nv04.lua, embedded)
 *   nvmodel.g80                         (src/scenario/g80.lua, embedded)
 *   nvmodel.g80fifo                     (src/scenario/g80fifo.lua, embedded)
 *
 * The Lua builder modules are compiled into the binary and loaded on first
 * use, either as `nvmodel.volta` (works in the sandbox, which has no
 * `require`) or as `require "nvmodel.volta"`; both give the same table.
 * Their chunk names start with "=nvmodel/", so the runner's message handler
 * (scenario.c) reports errors at the script line that called into them.
 */
#include <string.h>

#include "scn_internal.h"

extern const char nvm_util_lua[];
extern const size_t nvm_util_lua_len;
extern const char nvm_volta_lua[];
extern const size_t nvm_volta_lua_len;
extern const char nvm_nv03_lua[];
extern const size_t nvm_nv03_lua_len;
extern const char nvm_nv04_lua[];
extern const size_t nvm_nv04_lua_len;
extern const char nvm_g80_lua[];
extern const size_t nvm_g80_lua_len;
extern const char nvm_g80fifo_lua[];
extern const size_t nvm_g80fifo_lua_len;
extern const luaL_Reg scn_pb_funcs[];
extern const luaL_Reg scn_host_funcs[];
extern const luaL_Reg scn_pfifo_funcs[];

/* The embedded modules: name (nvmodel.NAME, require "nvmodel.NAME"), text. */
static const struct module {
	const char *name, *key, *chunk;
	const char *text;
	const size_t *len;
} modules[] = {
	{ "util", "nvmodel.util", "=" SCN_MODULE_PREFIX "util.lua", nvm_util_lua, &nvm_util_lua_len },
	{ "volta", "nvmodel.volta", "=" SCN_MODULE_PREFIX "volta.lua", nvm_volta_lua, &nvm_volta_lua_len },
	{ "nv03", "nvmodel.nv03", "=" SCN_MODULE_PREFIX "nv03.lua", nvm_nv03_lua, &nvm_nv03_lua_len },
	{ "nv04", "nvmodel.nv04", "=" SCN_MODULE_PREFIX "nv04.lua", nvm_nv04_lua, &nvm_nv04_lua_len },
	{ "g80", "nvmodel.g80", "=" SCN_MODULE_PREFIX "g80.lua", nvm_g80_lua, &nvm_g80_lua_len },
	{ "g80fifo", "nvmodel.g80fifo", "=" SCN_MODULE_PREFIX "g80fifo.lua", nvm_g80fifo_lua, &nvm_g80fifo_lua_len },
};
#define NMODULES (sizeof(modules) / sizeof(modules[0]))

/* Loads module i once (cached in the registry under its key). */
static int load_module(lua_State *L, const struct module *m)
{
	if (lua_getfield(L, LUA_REGISTRYINDEX, m->key) != LUA_TNIL)
		return 1;
	lua_pop(L, 1);
	if (luaL_loadbufferx(L, m->text, *m->len, m->chunk, "t") != LUA_OK)
		return lua_error(L);
	lua_call(L, 0, 1);
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, m->key);
	return 1;
}

static int load_upvalue_module(lua_State *L)
{
	return load_module(L, &modules[lua_tointeger(L, lua_upvalueindex(1))]);
}

/* __index of the nvmodel table: the builder modules, loaded on first use. */
static int module_index(lua_State *L)
{
	if (lua_type(L, 2) != LUA_TSTRING)
		return 0;
	for (size_t i = 0; i < NMODULES; i++)
		if (!strcmp(lua_tostring(L, 2), modules[i].name))
			return load_module(L, &modules[i]);
	return 0;
}

void scn_open_builders(lua_State *L)
{
	luaL_setfuncs(L, scn_pb_funcs, 0);
	luaL_setfuncs(L, scn_host_funcs, 0);
	luaL_setfuncs(L, scn_pfifo_funcs, 0);
	scn_open_setup(L);
	lua_createtable(L, 0, 1);
	lua_pushcfunction(L, module_index);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	/* package.preload exists unless the sandbox left the package library out. */
	int top = lua_gettop(L);
	if (lua_getglobal(L, "package") == LUA_TTABLE && lua_getfield(L, -1, "preload") == LUA_TTABLE) {
		for (size_t i = 0; i < NMODULES; i++) {
			lua_pushinteger(L, (lua_Integer)i);
			lua_pushcclosure(L, load_upvalue_module, 1);
			lua_setfield(L, -2, modules[i].key);
		}
	}
	lua_settop(L, top);
}
