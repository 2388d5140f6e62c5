/*
 * Builders offered to scripts on top of the raw gpu methods:
 *
 *   nvmodel.pb_asm / nvmodel.pb_words   (scn_pb.c)
 *   nvmodel.volta                       (src/scenario/volta.lua, embedded)
 *
 * The Lua builder modules are compiled into the binary and loaded on first
 * use, either as `nvmodel.volta` (works in the sandbox, which has no
 * `require`) or as `require "nvmodel.volta"`; both give the same table.
 * Their chunk names start with "=nvmodel/", so the runner's message handler
 * (scenario.c) reports errors at the script line that called into them.
 */
#include <string.h>

#include "scn_internal.h"

extern const char nvm_volta_lua[];
extern const size_t nvm_volta_lua_len;
extern const luaL_Reg scn_pb_funcs[];

#define VOLTA_KEY "nvmodel.volta" /* registry cache and require name */

static int load_volta(lua_State *L)
{
	if (lua_getfield(L, LUA_REGISTRYINDEX, VOLTA_KEY) != LUA_TNIL)
		return 1;
	lua_pop(L, 1);
	if (luaL_loadbufferx(L, nvm_volta_lua, nvm_volta_lua_len, "=" SCN_MODULE_PREFIX "volta.lua", "t") != LUA_OK)
		return lua_error(L);
	lua_call(L, 0, 1);
	lua_pushvalue(L, -1);
	lua_setfield(L, LUA_REGISTRYINDEX, VOLTA_KEY);
	return 1;
}

/* __index of the nvmodel table: the builder modules, loaded on first use. */
static int module_index(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TSTRING && !strcmp(lua_tostring(L, 2), "volta"))
		return load_volta(L);
	return 0;
}

void scn_open_builders(lua_State *L)
{
	luaL_setfuncs(L, scn_pb_funcs, 0);
	lua_createtable(L, 0, 1);
	lua_pushcfunction(L, module_index);
	lua_setfield(L, -2, "__index");
	lua_setmetatable(L, -2);
	/* package.preload exists unless the sandbox left the package library out. */
	int top = lua_gettop(L);
	if (lua_getglobal(L, "package") == LUA_TTABLE && lua_getfield(L, -1, "preload") == LUA_TTABLE) {
		lua_pushcfunction(L, load_volta);
		lua_setfield(L, -2, VOLTA_KEY);
	}
	lua_settop(L, top);
}
