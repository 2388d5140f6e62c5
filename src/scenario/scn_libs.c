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
 * --sandbox also drops io, os, package, debug, dofile and loadfile, refuses
 * __gc finalizers (Lua runs them with hooks off: outside the instruction
 * budget), and charges the loops of the C library to the instruction budget
 * before they run (charged_funcs), so a few instructions cannot buy hours
 * of work.
 *
 * In every mode coroutine.resume, wrap and close are ours, over lua_resume:
 * the runner must know which thread runs to stop it at once when the heap
 * limit or the budget runs out (scn_switch_thread). And when standard output
 * belongs to the tool (--trace -, --json), io.write and io.stdout write
 * where print does.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lualib.h>

#include "scenario.h"
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

/* ---------------------------------------------------------------- coroutines */

/* Resumes co with the narg values on top of L. Returns how many results it
 * moved to L, or -1 with the error value on top of L. */
static int resume_co(lua_State *L, lua_State *co, int narg)
{
	if (!lua_checkstack(co, narg)) {
		lua_pushliteral(L, "too many arguments to resume");
		return -1;
	}
	lua_xmove(L, co, narg);
	int nres;
	lua_State *prev = scn_switch_thread(L, co);
	int st = lua_resume(co, L, narg, &nres);
	scn_switch_thread(L, prev);
	if (st != LUA_OK && st != LUA_YIELD) {
		lua_xmove(co, L, 1);
		return -1;
	}
	if (!lua_checkstack(L, nres + 1)) {
		lua_pop(co, nres);
		lua_pushliteral(L, "too many results to resume");
		return -1;
	}
	lua_xmove(co, L, nres);
	return nres;
}

static lua_State *check_co(lua_State *L, int idx)
{
	lua_State *co = lua_tothread(L, idx);
	luaL_argexpected(L, co, idx, "coroutine");
	return co;
}

/* Closes co's pending to-be-closed variables, as co runs them. */
static int reset_co(lua_State *L, lua_State *co)
{
	lua_State *prev = scn_switch_thread(L, co);
	int st = lua_resetthread(co);
	scn_switch_thread(L, prev);
	return st;
}

static int l_co_resume(lua_State *L)
{
	lua_State *co = check_co(L, 1);
	int r = resume_co(L, co, lua_gettop(L) - 1);
	lua_pushboolean(L, r >= 0);
	if (r < 0) {
		lua_insert(L, -2);
		return 2;
	}
	lua_insert(L, -(r + 1));
	return r + 1;
}

/* The function coroutine.wrap returns (upvalue 1: the coroutine). An error
 * closes the coroutine and is raised in the caller, a string error with the
 * caller's position in front. */
static int l_co_wrapped(lua_State *L)
{
	lua_State *co = lua_tothread(L, lua_upvalueindex(1));
	int r = resume_co(L, co, lua_gettop(L));
	if (r >= 0)
		return r;
	int st = lua_status(co);
	if (st != LUA_OK && st != LUA_YIELD) {
		st = reset_co(L, co);
		lua_xmove(co, L, 1);
	}
	if (st != LUA_ERRMEM && lua_type(L, -1) == LUA_TSTRING) {
		luaL_where(L, 1);
		lua_insert(L, -2);
		lua_concat(L, 2);
	}
	return lua_error(L);
}

static int l_co_wrap(lua_State *L)
{
	luaL_checktype(L, 1, LUA_TFUNCTION);
	lua_State *co = lua_newthread(L);
	lua_pushvalue(L, 1);
	lua_xmove(L, co, 1);
	lua_pushcclosure(L, l_co_wrapped, 1);
	return 1;
}

/* coroutine.close: a dead or suspended coroutine only. */
static int l_co_close(lua_State *L)
{
	lua_State *co = check_co(L, 1);
	lua_Debug ar;
	int st = lua_status(co);
	bool closable = co != L && (st != LUA_OK || !lua_getstack(co, 0, &ar));
	if (!closable)
		return luaL_error(L, "cannot close a %s coroutine", co == L ? "running" : "normal");
	if (reset_co(L, co) == LUA_OK) {
		lua_pushboolean(L, 1);
		return 1;
	}
	lua_pushboolean(L, 0);
	lua_xmove(co, L, 1);
	return 2;
}

/* ---------------------------------------------------------------- xpcall */

/* The message handler xpcall gets (upvalue 1: the script's handler). */
static int guarded_msgh(lua_State *L)
{
	if (scn_error_from_hook(L))
		return 1; /* the error as it is */
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

static int xpcall_done(lua_State *L, int status, lua_KContext ctx)
{
	(void)status;
	(void)ctx;
	return lua_gettop(L);
}

/* xpcall(f, msgh, ...) with a Lua msgh guarded (upvalue 1: the original). */
static int l_xpcall(lua_State *L)
{
	int n = lua_gettop(L);
	luaL_checktype(L, 2, LUA_TFUNCTION);
	if (!lua_iscfunction(L, 2)) {
		lua_pushvalue(L, 2);
		lua_pushcclosure(L, guarded_msgh, 1);
		lua_replace(L, 2);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_callk(L, n, LUA_MULTRET, 0, xpcall_done); /* a yield inside f stays allowed */
	return lua_gettop(L);
}

static void own_coroutines(lua_State *L)
{
	static const luaL_Reg fns[] = {
		{ "resume", l_co_resume },
		{ "wrap", l_co_wrap },
		{ "close", l_co_close },
		{ NULL, NULL },
	};
	lua_getglobal(L, LUA_COLIBNAME);
	luaL_setfuncs(L, fns, 0);
	lua_pop(L, 1);
	wrap_global(L, "xpcall", l_xpcall);
}

/* ---------------------------------------------------------------- sandbox: C loops */

/* Length of the string (or number, as a string) at idx, else 0. */
static uint64_t arg_len(lua_State *L, int idx)
{
	int t = lua_type(L, idx);
	return t == LUA_TSTRING ? (uint64_t)lua_rawlen(L, idx) : t == LUA_TNUMBER ? 64 : 0;
}

/* The integer at idx; def when none or nil, or not an integer (the library
 * function then raises its own error). */
static lua_Integer arg_int(lua_State *L, int idx, lua_Integer def)
{
	int isnum;
	lua_Integer v = lua_tointegerx(L, idx, &isnum);
	return isnum ? v : def;
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* Bytes of the slice [i, j] of the string at 1, positions as Lua takes
 * them (negative from the end). */
static uint64_t slice_len(lua_State *L, lua_Integer i, lua_Integer j)
{
	lua_Integer n = (lua_Integer)arg_len(L, 1);
	if (i < 0)
		i = i < -n ? 1 : n + i + 1;
	else if (i == 0)
		i = 1;
	if (j < 0)
		j = j < -n ? 0 : n + j + 1;
	else if (j > n)
		j = n;
	return i > j ? 0 : (uint64_t)(j - i) + 1;
}

/* Elements from i to j. */
static uint64_t range_len(lua_Integer i, lua_Integer j)
{
	return j < i ? 0 : (uint64_t)j - (uint64_t)i + 1;
}

/* The length of the table at idx, written into argument slot `slot` when
 * that is absent, so that the library function does not call __len again. */
static lua_Integer len_into(lua_State *L, int idx, int slot)
{
	if (!lua_isnoneornil(L, slot))
		return arg_int(L, slot, 0);
	if (lua_gettop(L) < slot)
		lua_settop(L, slot);
	lua_Integer n = luaL_len(L, idx);
	lua_pushinteger(L, n);
	lua_replace(L, slot);
	return n;
}

/* Does character c belong to class letter k (%a, %d... ; upper case: the
 * complement)? Other letters stand for themselves. */
static bool in_class(unsigned char c, unsigned char k)
{
	bool r;
	switch (tolower(k)) {
	case 'a': r = isalpha(c); break;
	case 'c': r = iscntrl(c); break;
	case 'd': r = isdigit(c); break;
	case 'g': r = isgraph(c); break;
	case 'l': r = islower(c); break;
	case 'p': r = ispunct(c); break;
	case 's': r = isspace(c); break;
	case 'u': r = isupper(c); break;
	case 'w': r = isalnum(c); break;
	case 'x': r = isxdigit(c); break;
	default: return c == k;
	}
	return isupper(k) ? !r : r;
}

/* Does c match the set p[0..end) ("[...]" without its brackets)? */
static bool in_set(unsigned char c, const char *p, size_t end)
{
	size_t i = 0;
	bool neg = end && p[0] == '^';
	if (neg)
		i++;
	for (; i < end; i++) {
		if (p[i] == '%' && i + 1 < end) {
			if (in_class(c, (unsigned char)p[++i]))
				return !neg;
		} else if (i + 2 < end && p[i + 1] == '-') {
			if ((unsigned char)p[i] <= c && c <= (unsigned char)p[i + 2])
				return !neg;
			i += 2;
		} else if ((unsigned char)p[i] == c) {
			return !neg;
		}
	}
	return neg;
}

/* Length of the single-character item at p[i] (".", "%a", "[set]", "x"),
 * with the set's bounds in *set_lo and *set_hi. */
static size_t item_len(const char *p, size_t m, size_t i, size_t *set_lo, size_t *set_hi)
{
	if (p[i] == '%')
		return i + 1 < m ? 2 : 1;
	if (p[i] != '[')
		return 1;
	size_t k = i + 1;
	if (k < m && p[k] == '^')
		k++;
	if (k < m && p[k] == ']') /* a ']' first is a member */
		k++;
	while (k < m && p[k] != ']')
		k += p[k] == '%' ? 2 : 1;
	*set_lo = i + 1;
	*set_hi = k < m ? k : m;
	return (k < m ? k + 1 : m) - i;
}

static bool item_matches(unsigned char c, const char *p, size_t i, size_t set_lo, size_t set_hi)
{
	if (p[i] == '.')
		return true;
	if (p[i] == '%')
		return in_class(c, (unsigned char)p[i + 1]);
	if (p[i] == '[')
		return in_set(c, p + set_lo, set_hi - set_lo);
	return (unsigned char)p[i] == c;
}

/* The longest run of subject characters the item at p[i] matches: how many
 * ways a repetition of it (*, +, -) can end, at any position. */
static uint64_t longest_run(const char *s, size_t n, const char *p, size_t i, size_t set_lo, size_t set_hi)
{
	uint64_t best = 0, run = 0;
	for (size_t k = 0; k < n; k++) {
		run = item_matches((unsigned char)s[k], p, i, set_lo, set_hi) ? run + 1 : 0;
		best = run > best ? run : best;
	}
	return best;
}

/* A bound on the work of Lua's backtracking matcher, in steps: every start
 * position (one when anchored) times, per start, the pattern's length times
 * the ways each repeated item can end (its longest run in the subject, plus
 * one), two per '?', the subject length per %b and back reference. Plus the
 * scans that found the runs. */
static uint64_t pattern_cost(lua_State *L, bool find, bool gmatch)
{
	size_t n = (size_t)arg_len(L, 1), m;
	const char *p = lua_type(L, 2) == LUA_TSTRING ? lua_tolstring(L, 2, &m) : NULL;
	const char *s = lua_type(L, 1) == LUA_TSTRING ? lua_tostring(L, 1) : NULL;
	if (!p || !s)
		return n + 1;
	if (find && (lua_toboolean(L, 4) || !strpbrk(p, "^$*+?.([%-"))) /* plain: memchr and memcmp */
		return mul_sat(n + 1, m + 1);
	uint64_t per_start = m + 1, scans = 0;
	for (size_t i = 0; i < m;) {
		if (p[i] == '(' || p[i] == ')') {
			i++;
			continue;
		}
		if (p[i] == '%' && i + 1 < m && (p[i + 1] == 'b' || (p[i + 1] >= '0' && p[i + 1] <= '9'))) {
			per_start = mul_sat(per_start, n + 1);
			i += p[i + 1] == 'b' ? 4 : 2;
			continue;
		}
		if (p[i] == '%' && i + 1 < m && p[i + 1] == 'f') {
			size_t lo = 0, hi = 0;
			i += 2 + (i + 2 < m ? item_len(p, m, i + 2, &lo, &hi) : 0);
			continue;
		}
		size_t lo = 0, hi = 0, len = item_len(p, m, i, &lo, &hi);
		char q = i + len < m ? p[i + len] : 0;
		if (q == '*' || q == '+' || q == '-') {
			per_start = mul_sat(per_start, longest_run(s, n, p, i, lo, hi) + 1);
			scans += n;
			len++;
		} else if (q == '?') {
			per_start = mul_sat(per_start, 2);
			len++;
		}
		i += len;
	}
	bool anchored = !gmatch && m && p[0] == '^';
	uint64_t total = mul_sat(anchored ? 1 : n + 1, per_start);
	return total + scans < total ? UINT64_MAX : total + scans;
}

static uint64_t cost_find(lua_State *L)
{
	return pattern_cost(L, true, false);
}

static uint64_t cost_match(lua_State *L)
{
	return pattern_cost(L, false, false);
}

static uint64_t cost_gmatch(lua_State *L)
{
	return pattern_cost(L, false, true);
}

/* string.rep(s, n [, sep]): n copies, also of an empty string. A result too
 * large to make is refused by rep itself. */
static uint64_t cost_rep(lua_State *L)
{
	lua_Integer n = arg_int(L, 2, 0);
	uint64_t each = arg_len(L, 1) + arg_len(L, 3);
	if (n <= 0 || (each && (uint64_t)n > (uint64_t)LUA_MAXINTEGER / each))
		return 0;
	return (uint64_t)n + mul_sat((uint64_t)n, each) / SCN_BYTES_PER_STEP;
}

static uint64_t cost_byte(lua_State *L)
{
	lua_Integer i = arg_int(L, 2, 1);
	return slice_len(L, i, arg_int(L, 3, i));
}

static uint64_t cost_utf8_len(lua_State *L)
{
	return slice_len(L, arg_int(L, 2, 1), arg_int(L, 3, -1));
}

/* Functions that scan their whole string argument. */
static uint64_t cost_scan(lua_State *L)
{
	return arg_len(L, 1);
}

static uint64_t cost_move(lua_State *L)
{
	return range_len(arg_int(L, 2, 1), arg_int(L, 3, 0));
}

static uint64_t cost_concat(lua_State *L)
{
	if (!lua_istable(L, 1))
		return 0;
	lua_Integer j = len_into(L, 1, 4);
	return range_len(arg_int(L, 3, 1), j);
}

static uint64_t cost_unpack(lua_State *L)
{
	lua_Integer j = len_into(L, 1, 3);
	return range_len(arg_int(L, 2, 1), j);
}

/* The length of the table at 1 (sort, insert and remove read it again). */
static uint64_t table_len(lua_State *L)
{
	if (!lua_istable(L, 1))
		return 0;
	lua_Integer n = luaL_len(L, 1);
	return n > 0 ? (uint64_t)n : 0;
}

static uint64_t cost_sort(lua_State *L)
{
	uint64_t n = table_len(L), log = 1;
	while (log < 64 && (n >> log))
		log++;
	return mul_sat(n, 2 * log);
}

/* insert(t, pos, v) and remove(t [, pos]) move the elements after pos. */
static uint64_t cost_shift(lua_State *L)
{
	return lua_gettop(L) >= 2 ? table_len(L) + 1 : 1;
}

static uint64_t cost_tonumber(lua_State *L)
{
	return arg_len(L, 1) / SCN_BYTES_PER_STEP;
}

/* A full collection (or a step, up to one) visits the whole heap. */
static uint64_t cost_collect(lua_State *L)
{
	const char *opt = luaL_optstring(L, 1, "collect");
	if (strcmp(opt, "collect") && strcmp(opt, "step"))
		return 0;
	return (uint64_t)lua_gc(L, LUA_GCCOUNT) * 1024 / SCN_BYTES_PER_STEP;
}

struct charged {
	const char *lib; /* NULL: a global */
	const char *name;
	uint64_t (*cost)(lua_State *L);
};

static const struct charged charged_funcs[] = {
	{ LUA_STRLIBNAME, "find", cost_find },       { LUA_STRLIBNAME, "match", cost_match },
	{ LUA_STRLIBNAME, "gmatch", cost_gmatch },   { LUA_STRLIBNAME, "gsub", cost_gmatch },
	{ LUA_STRLIBNAME, "rep", cost_rep },         { LUA_STRLIBNAME, "byte", cost_byte },
	{ LUA_UTF8LIBNAME, "codepoint", cost_byte }, { LUA_UTF8LIBNAME, "len", cost_utf8_len },
	{ LUA_UTF8LIBNAME, "offset", cost_scan },    { LUA_TABLIBNAME, "move", cost_move },
	{ LUA_TABLIBNAME, "concat", cost_concat },   { LUA_TABLIBNAME, "unpack", cost_unpack },
	{ LUA_TABLIBNAME, "sort", cost_sort },       { LUA_TABLIBNAME, "insert", cost_shift },
	{ LUA_TABLIBNAME, "remove", cost_shift },    { NULL, "tonumber", cost_tonumber },
	{ NULL, "collectgarbage", cost_collect },
};

/* A library function charged first (upvalue 1: the original, 2: its index
 * in charged_funcs). The cost comes from the arguments alone, before any
 * work is done. */
static int l_charged(lua_State *L)
{
	const struct charged *c = &charged_funcs[lua_tointeger(L, lua_upvalueindex(2))];
	scn_charge(L, c->cost(L));
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
	return lua_gettop(L);
}

/* setmetatable refusing a __gc field: Lua runs finalizers with hooks off,
 * where no budget reaches them. (A __gc added to the metatable afterwards
 * does not make the object finalized.) */
static int l_setmetatable_nogc(lua_State *L)
{
	if (lua_type(L, 2) == LUA_TTABLE) {
		lua_pushliteral(L, "__gc");
		if (lua_rawget(L, 2) != LUA_TNIL)
			return luaL_error(L, "setmetatable: __gc finalizers are not allowed under --sandbox (they run "
			                     "outside the instruction budget)");
		lua_pop(L, 1);
	}
	lua_pushvalue(L, lua_upvalueindex(1));
	lua_insert(L, 1);
	lua_call(L, lua_gettop(L) - 1, 1);
	return 1;
}

/* An error message names a library function from its call site, else from
 * package.loaded (luaL_argerror): the wrappers call the originals, so there
 * the libraries keep them, in copies. Nothing else reads package.loaded
 * under --sandbox (no require). */
static void name_originals(lua_State *L)
{
	static const char *const libs[] = { LUA_STRLIBNAME, LUA_TABLIBNAME, LUA_UTF8LIBNAME };
	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	for (size_t i = 0; i < sizeof(libs) / sizeof(libs[0]); i++) {
		lua_newtable(L);
		lua_getglobal(L, libs[i]);
		lua_pushnil(L);
		while (lua_next(L, -2)) { /* copy, lib, key, value */
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_settable(L, -5);
		}
		lua_pop(L, 1);
		lua_setfield(L, -2, libs[i]);
	}
	lua_pop(L, 1);
}

static void charge_c_loops(lua_State *L)
{
	name_originals(L);
	size_t n = sizeof(charged_funcs) / sizeof(charged_funcs[0]);
	for (size_t i = 0; i < n; i++) {
		const struct charged *c = &charged_funcs[i];
		if (c->lib)
			lua_getglobal(L, c->lib);
		else
			lua_pushglobaltable(L);
		lua_getfield(L, -1, c->name);
		lua_pushinteger(L, (lua_Integer)i);
		lua_pushcclosure(L, l_charged, 2);
		lua_setfield(L, -2, c->name);
		lua_pop(L, 1);
	}
	/* string methods ("x"):rep(n) go through the same table. */
	wrap_global(L, "setmetatable", l_setmetatable_nogc);
}

/* ---------------------------------------------------------------- standard output */

static int stream_noclose(lua_State *L)
{
	luaL_Stream *p = luaL_checkudata(L, 1, LUA_FILEHANDLE);
	p->closef = stream_noclose; /* stays open */
	luaL_pushfail(L);
	lua_pushliteral(L, "cannot close standard file");
	return 2;
}

/* io.stdout and io.write's default output become out (what print uses). */
static void redirect_stdout(lua_State *L, FILE *out)
{
	luaL_Stream *p = lua_newuserdatauv(L, sizeof(*p), 0);
	p->f = out;
	p->closef = stream_noclose;
	luaL_setmetatable(L, LUA_FILEHANDLE);
	lua_getglobal(L, LUA_IOLIBNAME);
	lua_pushvalue(L, -2);
	lua_setfield(L, -2, "stdout");
	lua_getfield(L, -1, "output");
	lua_pushvalue(L, -3);
	lua_call(L, 1, 0);
	lua_pop(L, 2);
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

void scn_open_libs(lua_State *L, const struct scn_opts *opts)
{
	static const luaL_Reg always[] = {
		{ LUA_GNAME, luaopen_base },        { LUA_TABLIBNAME, luaopen_table },
		{ LUA_STRLIBNAME, luaopen_string }, { LUA_MATHLIBNAME, luaopen_math },
		{ LUA_UTF8LIBNAME, luaopen_utf8 },  { LUA_COLIBNAME, luaopen_coroutine },
	};
	for (size_t i = 0; i < sizeof(always) / sizeof(always[0]); i++)
		open_lib(L, always[i].name, always[i].func);
	wrap_global(L, "load", l_load_text);
	own_coroutines(L);
	if (opts->sandbox) {
		remove_global(L, "dofile");
		remove_global(L, "loadfile");
		charge_c_loops(L);
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
		if (opts->out && opts->out != stdout)
			redirect_stdout(L, opts->out);
	}
	/* math.random is seeded from the clock by luaopen_math: reseed it. */
	lua_getglobal(L, LUA_MATHLIBNAME);
	lua_getfield(L, -1, "randomseed");
	lua_pushinteger(L, (lua_Integer)opts->seed);
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
