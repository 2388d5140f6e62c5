/*
 * The Lua environment scripts run in: which standard libraries they get and
 * what is taken out of them, reproducible randomness and iteration order,
 * and error messages that always name a file and a line.
 *
 * Trusted scripts (the default) keep io, os and package for their own
 * files. What is taken out in every mode is what would let a script crash
 * the interpreter or escape its budgets:
 *  - binary chunks (load, loadfile, dofile, require): Lua does not verify
 *    bytecode, so a crafted chunk can crash it;
 *  - the debug functions that remove the instruction budget (sethook),
 *    change values under running C code (setlocal, setupvalue, upvaluejoin,
 *    setuservalue), give any userdata any metatable (setmetatable: a file
 *    handle with the gpu metatable is a type confusion), or reach internals
 *    (getregistry, getlocal and getuservalue reach the guards that keep a
 *    gpu alive while a method uses it, getmetatable the gpu's __gc).
 * --sandbox also drops io, os, package, debug, dofile and loadfile.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

#include "scn_internal.h"

#define RECORD_MT "nvmodel.record"

/* ---------------------------------------------------------------- text-only loading */

/* Calls the original loader (upvalue 1) with its mode argument, at
 * position mode_arg, forced to text. Arguments past the given ones stay
 * "none": load treats a nil env as an env of nil. */
static int load_text(lua_State *L, int mode_arg, const char *what)
{
	const char *mode = luaL_optstring(L, mode_arg, "t");
	if (!strchr(mode, 't'))
		return luaL_error(L, "%s: binary chunks are not allowed (mode '%s')", what, mode);
	int n = lua_gettop(L) > mode_arg ? lua_gettop(L) : mode_arg;
	lua_settop(L, n);
	lua_pushliteral(L, "t");
	lua_replace(L, mode_arg);
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, n, LUA_MULTRET);
	return lua_gettop(L);
}

/* load(chunk [, name [, mode [, env]]]) */
static int l_load_text(lua_State *L)
{
	return load_text(L, 3, "load");
}

/* loadfile([file [, mode [, env]]]) */
static int l_loadfile_text(lua_State *L)
{
	return load_text(L, 2, "loadfile");
}

static int l_dofile_text(lua_State *L)
{
	const char *name = luaL_optstring(L, 1, NULL);
	lua_settop(L, 1);
	if (luaL_loadfilex(L, name, "t") != LUA_OK)
		return lua_error(L);
	lua_call(L, 0, LUA_MULTRET);
	return lua_gettop(L) - 1;
}

/* package.searchers[2], the Lua-file searcher, loading text only. Upvalue:
 * the package table. */
static int l_search_lua_text(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	lua_getfield(L, lua_upvalueindex(1), "searchpath");
	lua_pushstring(L, name);
	lua_getfield(L, lua_upvalueindex(1), "path");
	lua_call(L, 2, 2);
	if (lua_isnil(L, -2))
		return 1; /* the message listing the files tried */
	const char *file = luaL_checkstring(L, -2);
	if (luaL_loadfilex(L, file, "t") != LUA_OK)
		return luaL_error(L, "error loading module '%s' from file '%s':\n\t%s", name, file,
		                  lua_tostring(L, -1));
	lua_pushstring(L, file);
	return 2;
}

/* Replaces global `name` by fn with the original as upvalue 1. */
static void wrap_global(lua_State *L, const char *name, lua_CFunction fn)
{
	lua_getglobal(L, name);
	lua_pushcclosure(L, fn, 1);
	lua_setglobal(L, name);
}

/* os.exit(code [, close]) always closes the state first, as close = true
 * does: the script's GPUs are closed and its memory freed before the
 * process exits, where the tool completes its outputs (docs/cli.md). An
 * os.exit from a finalizer run by that close exits without closing again. */
static int l_exit_closing(lua_State *L)
{
	static bool closing;
	if (!lua_isboolean(L, 1))
		luaL_optinteger(L, 1, 0); /* a bad code is an error before anything closes */
	lua_settop(L, 1);
	lua_pushboolean(L, !closing);
	closing = true;
	return lua_tocfunction(L, lua_upvalueindex(1))(L);
}

static void closing_exit(lua_State *L)
{
	lua_getglobal(L, LUA_OSLIBNAME);
	lua_getfield(L, -1, "exit");
	lua_pushcclosure(L, l_exit_closing, 1);
	lua_setfield(L, -2, "exit");
	lua_pop(L, 1);
}

static void text_only_package(lua_State *L)
{
	if (lua_getglobal(L, LUA_LOADLIBNAME) != LUA_TTABLE) {
		lua_pop(L, 1);
		return;
	}
	lua_getfield(L, -1, "searchers");
	lua_pushvalue(L, -2);
	lua_pushcclosure(L, l_search_lua_text, 1);
	lua_rawseti(L, -2, 2);
	lua_pop(L, 2);
}

/* ---------------------------------------------------------------- debug */

static void restricted_debug(lua_State *L)
{
	static const char *const keep[] = { "traceback", "getinfo", "gethook", "upvalueid", NULL };
	luaL_requiref(L, LUA_DBLIBNAME, luaopen_debug, 0);
	lua_createtable(L, 0, 4);
	for (const char *const *k = keep; *k; k++) {
		lua_getfield(L, -2, *k);
		lua_setfield(L, -2, *k);
	}
	/* Both the global and what require("debug") returns. */
	lua_pushvalue(L, -1);
	lua_setglobal(L, LUA_DBLIBNAME);
	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	lua_pushvalue(L, -2);
	lua_setfield(L, -2, LUA_DBLIBNAME);
	lua_pop(L, 3);
}

/* ---------------------------------------------------------------- libraries */

static void open_lib(lua_State *L, const char *name, lua_CFunction fn)
{
	luaL_requiref(L, name, fn, 1);
	lua_pop(L, 1);
}

static void remove_global(lua_State *L, const char *name)
{
	lua_pushnil(L);
	lua_setglobal(L, name);
}

void scn_open_libs(lua_State *L, int sandbox, uint64_t seed)
{
	static const luaL_Reg always[] = {
		{ LUA_GNAME, luaopen_base },        { LUA_TABLIBNAME, luaopen_table },
		{ LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math },
		{ LUA_UTF8LIBNAME, luaopen_utf8 },  { LUA_COLIBNAME, luaopen_coroutine },
	};
	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		open_lib(L, always[i].name, always[i].func);
	wrap_global(L, "load", l_load_text);
	if (sandbox) {
		remove_global(L, "dofile");
		remove_global(L, "loadfile");
	} else {
		open_lib(L, LUA_IOLIBNAME, luaopen_io);
		open_lib(L, LUA_OSLIBNAME, luaopen_os);
		closing_exit(L);
		open_lib(L, LUA_LOADLIBNAME, luaopen_package);
		restricted_debug(L);
		wrap_global(L, "loadfile", l_loadfile_text);
		lua_pushcfunction(L, l_dofile_text);
		lua_setglobal(L, "dofile");
		text_only_package(L);
	}
	/* math.random is seeded from the clock by luaopen_math: reseed it. */
	lua_getglobal(L, LUA_MATHLIBNAME);
	lua_getfield(L, -1, "randomseed");
	lua_pushinteger(L, (lua_Integer)seed);
	lua_call(L, 1, 0);
	lua_pop(L, 1);
}

/* ---------------------------------------------------------------- stable pairs */

/* Order of keys: integers, then other numbers, then strings, each ascending;
 * keys of other types (none in API tables) after them in any order. */
static int key_rank(lua_State *L, int idx)
{
	switch (lua_type(L, idx)) {
	case LUA_TNUMBER: return lua_isinteger(L, idx) ? 0 : 1;
	case LUA_TSTRING: return 2;
	default: return 3;
	}
}

static bool key_before(lua_State *L, int a, int b)
{
	int ra = key_rank(L, a), rb = key_rank(L, b);
	if (ra != rb)
		return ra < rb;
	return ra < 3 && lua_compare(L, a, b, LUA_OPLT);
}

/* Insertion sort of the array part of the table at idx (n keys): API tables
 * have a handful of fields. */
static void sort_keys(lua_State *L, int idx, lua_Integer n)
{
	for (lua_Integer i = 2; i <= n; i++) {
		lua_rawgeti(L, idx, i);
		lua_Integer j = i - 1;
		for (; j >= 1; j--) {
			lua_rawgeti(L, idx, j);
			if (!key_before(L, -2, -1)) {
				lua_pop(L, 1);
				break;
			}
			lua_rawseti(L, idx, j + 1);
		}
		lua_rawseti(L, idx, j + 1);
	}
}

/* The iterator: upvalue 1 the sorted keys, upvalue 2 the position. Keys
 * removed since pairs() started are skipped. */
static int record_next(lua_State *L)
{
	lua_Integer i = lua_tointeger(L, lua_upvalueindex(2));
	for (;;) {
		i++;
		if (lua_rawgeti(L, lua_upvalueindex(1), i) == LUA_TNIL)
			return 1;
		lua_pushvalue(L, -1);
		if (lua_rawget(L, 1) != LUA_TNIL)
			break;
		lua_pop(L, 2);
	}
	lua_pushinteger(L, i);
	lua_replace(L, lua_upvalueindex(2));
	return 2;
}

static int record_pairs(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	lua_newtable(L);
	lua_Integer n = 0;
	lua_pushnil(L);
	while (lua_next(L, 1)) {
		lua_pop(L, 1);
		lua_pushvalue(L, -1);
		lua_rawseti(L, 2, ++n);
	}
	sort_keys(L, 2, n);
	lua_pushinteger(L, 0);
	lua_pushcclosure(L, record_next, 2);
	lua_pushvalue(L, 1);
	lua_pushnil(L);
	return 3;
}

void scn_record_setup(lua_State *L)
{
	luaL_newmetatable(L, RECORD_MT);
	lua_pushcfunction(L, record_pairs);
	lua_setfield(L, -2, "__pairs");
	lua_pop(L, 1);
}

void scn_record(lua_State *L)
{
	luaL_setmetatable(L, RECORD_MT);
}

/* ---------------------------------------------------------------- messages */

static int call_tostring(lua_State *L)
{
	luaL_tolstring(L, 1, NULL);
	return 1;
}

/* The error object as a string: its own text, what its __tostring says, or
 * its type (also when __tostring itself fails). */
static const char *error_text(lua_State *L)
{
	const char *msg = lua_tostring(L, 1);
	if (msg)
		return msg;
	if (luaL_getmetafield(L, 1, "__tostring") != LUA_TNIL) {
		lua_pop(L, 1);
		lua_pushcfunction(L, call_tostring);
		lua_pushvalue(L, 1);
		if (lua_pcall(L, 1, 1, 0) == LUA_OK && lua_type(L, -1) == LUA_TSTRING)
			return lua_tostring(L, -1);
		const char *why = lua_tostring(L, -1);
		return lua_pushfstring(L, "(error object is a %s value; its __tostring failed: %s)",
		                       luaL_typename(L, 1), why ? why : "?");
	}
	return lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
}

/* Length of a "chunk:123: " prefix at s, or 0. */
static size_t position_prefix(const char *s)
{
	const char *c = strstr(s, ": ");
	if (!c || c == s)
		return 0;
	const char *d = c;
	while (d > s && d[-1] >= '0' && d[-1] <= '9')
		d--;
	if (d == c || d == s || d[-1] != ':')
		return 0;
	return (size_t)(c - s) + 2;
}

int scn_msgh(lua_State *L)
{
	const char *msg = error_text(L);
	/* coroutine.wrap adds the resume's position in front of the one the
	 * error already has: keep the inner one, where it was raised. */
	size_t p;
	while ((p = position_prefix(msg)) && position_prefix(msg + p))
		msg += p;
	/* Frames of the built-in modules (nvmodel.volta) do not count: an error
	 * inside a builder is reported at the script line that called it, in
	 * front of the module's own position if the message has one. */
	size_t mp = strlen(SCN_MODULE_PREFIX), pp = position_prefix(msg);
	/* The message already names a script position when its prefix is a
	 * .lua chunk that is not a module; "pb_asm:2:" (a line of assembled
	 * text) is not one. */
	const char *colon = pp ? memchr(msg, ':', pp) : NULL;
	bool own =
	        colon && colon - msg >= 4 && !memcmp(colon - 4, ".lua", 4) && strncmp(msg, SCN_MODULE_PREFIX, mp) != 0;
	lua_Debug ar;
	for (int level = 1; lua_getstack(L, level, &ar); level++) {
		lua_getinfo(L, "Sl", &ar);
		if (ar.currentline <= 0 || (ar.source[0] == '=' && !strncmp(ar.source + 1, SCN_MODULE_PREFIX, mp)))
			continue;
		size_t n = strlen(ar.short_src);
		if (!own && (strncmp(msg, ar.short_src, n) != 0 || msg[n] != ':'))
			msg = lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, msg);
		break;
	}
	lua_pushstring(L, msg);
	return 1;
}

/* ---------------------------------------------------------------- source text */

const char *scn_skip_header(const char *src, size_t *len)
{
	if (*len >= 3 && !memcmp(src, "\xef\xbb\xbf", 3)) {
		src += 3;
		*len -= 3;
	}
	if (*len && src[0] == '#') {
		/* A shebang line: drop it, keep its newline so lines still count. */
		const char *nl = memchr(src, '\n', *len);
		size_t skip = nl ? (size_t)(nl - src) : *len;
		src += skip;
		*len -= skip;
	}
	return src;
}
