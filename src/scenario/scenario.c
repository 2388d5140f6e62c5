/*
 * Lua scenario runner: the `nvmodel` module and gpu objects.
 *
 * Budgets: a Lua instruction budget (so `while true do end` ends with an
 * error, not a hang), a Lua heap limit, and text-only chunks (binary chunks
 * are not verified by Lua and could crash the interpreter). The instruction
 * budget also pays for the model's work (SCN_STEPS_PER_WORK steps per work
 * unit of the run budget) and, under --sandbox, for the loops of the C
 * library (scn_libs.c): a script cannot buy unbounded work with a few
 * instructions. Running out is final: the error is raised again at the next
 * instruction of every thread, so pcall, coroutines, error handlers and
 * __close handlers cannot catch it for good, and the script fails.
 *
 * Event callbacks run under lua_pcall inside the library's run loop; a
 * failing callback stops the run (nvm_stop) and its error is raised once
 * control is back in the script, never longjmp'd through library frames.
 *
 * Lifetime: Lua code can run in the middle of a method (event callbacks,
 * metamethods of an argument table, finalizers at any allocation), and it
 * may close the gpu the method is using. So every method pins the gpu it
 * checks (a to-be-closed guard that unpins when the method returns or
 * raises), and gpu:close() on a pinned gpu only marks it closed and stops
 * its run: the last unpin frees it. Garbage collection frees it at once: an
 * unreachable gpu is on no live stack.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <lualib.h>

#include "scenario.h"
#include "scn_internal.h"

#define GPU_MT        "nvmodel.gpu"
#define PIN_MT        "nvmodel.gpu_pin"
#define DEFAULT_STEPS 4000000000ull
#define DEFAULT_MEM   (1ull << 30)
#define STEP_GRANULE  10000
#define CHIP_NAME_MAX 64

struct scn_state {
	const struct scn_opts *opts;
	struct scn_result *res;
	uint64_t mem_used;
	uint64_t steps;
	int gpus;          /* opened so far */
	int gpus_open;     /* not closed yet */
	nvm_mem_pool pool; /* simulated memory of all the GPUs */
	char pending[512]; /* error raised by an event callback */
	int has_pending;
	lua_State *main;   /* the main thread: callbacks run there (it outlives coroutines) */
	bool over;         /* the Lua heap went over its limit: step_hook raises the error */
	bool exhausted;    /* the instruction budget ran out: final (see step_hook) */
	bool closing;      /* lua_close is running: open is refused (a finalizer's GPU would leak) */
	bool hook_raising; /* step_hook raised the heap error: until the next instruction, see scn_error_from_hook */
	/* The thread running now (main, a coroutine resumed through
	 * scn_switch_thread, main again for event callbacks): the one whose hook
	 * the heap limit and the budget set to fire at once. */
	lua_State *current;
	char limit_text[32];
	char budget_where[300]; /* "file:line: " where the budget ran out */
};

struct scn_gpu {
	nvm_gpu *gpu; /* NULL once freed */
	int index;
	int cb_ref;   /* registry ref of {event type -> {fn...}}, LUA_NOREF if none */
	lua_State *L; /* main state, for callbacks */
	struct scn_state *S;
	int pins;           /* methods in progress on this gpu */
	bool closed;        /* gpu:close() was called; freed by the last unpin */
	bool running;       /* inside gpu:run() */
	uint64_t work_seen; /* nvm_work_done() already charged to the instruction budget */
};

static struct scn_state *state_of(lua_State *L)
{
	void *ud;
	lua_getallocf(L, &ud);
	return ud;
}

/* ---------------------------------------------------------------- budgets */

static uint64_t heap_limit(const struct scn_state *S)
{
	return S->opts->mem_limit ? S->opts->mem_limit : DEFAULT_MEM;
}

static const char *heap_limit_text(struct scn_state *S)
{
	scn_fmt_size(S->limit_text, sizeof(S->limit_text), heap_limit(S));
	return S->limit_text;
}

static void step_hook(lua_State *L, lua_Debug *ar);

static uint64_t step_limit(const struct scn_state *S)
{
	return S->opts->max_steps ? S->opts->max_steps : DEFAULT_STEPS;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* Makes the hooks of the running thread and of the main thread fire before
 * their next instruction. */
static void hook_now(struct scn_state *S, lua_State *L)
{
	if (L)
		lua_sethook(L, step_hook, LUA_MASKCOUNT, 1); /* allowed at any time */
	if (S->current && S->current != L)
		lua_sethook(S->current, step_hook, LUA_MASKCOUNT, 1);
	if (S->main && S->main != L && S->main != S->current)
		lua_sethook(S->main, step_hook, LUA_MASKCOUNT, 1);
}

/* Adds n steps; once over the budget, it is exhausted for good. Returns
 * whether it is. */
static bool add_steps(struct scn_state *S, lua_State *L, uint64_t n)
{
	S->steps = sat_add(S->steps, n);
	if (!S->exhausted && S->steps > step_limit(S)) {
		S->exhausted = true;
		lua_Debug ar;
		for (int level = 0; L && lua_getstack(L, level, &ar); level++)
			if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
				snprintf(S->budget_where, sizeof(S->budget_where), "%s:%d: ", ar.short_src,
				         ar.currentline);
				break;
			}
	}
	if (S->exhausted)
		hook_now(S, L);
	return S->exhausted;
}

static const char *budget_text(struct scn_state *S, char *buf, size_t n)
{
	snprintf(buf, n, "instruction budget of %llu Lua steps exhausted (a loop that never ends?)",
	         (unsigned long long)step_limit(S));
	return buf;
}

void scn_charge(lua_State *L, uint64_t steps)
{
	struct scn_state *S = state_of(L);
	if (add_steps(S, L, steps)) {
		char b[128];
		luaL_error(L, "%s", budget_text(S, b, sizeof(b)));
	}
}

lua_State *scn_switch_thread(lua_State *L, lua_State *to)
{
	struct scn_state *S = state_of(L);
	lua_State *prev = S->current;
	S->current = to;
	/* The new thread inherits no pending "at once": what is due, is due there. */
	if (S->exhausted || S->over)
		lua_sethook(to, step_hook, LUA_MASKCOUNT, 1);
	return prev;
}

/* The Lua heap limit. Lua reports a refused allocation as a memory error
 * without a position, so the first allocation over the limit is granted
 * from a reserve and the main thread's hook is set to fire at once: it
 * raises an ordinary error there, with file and line. Only an allocation
 * beyond the reserve is refused. */
static void *limited_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	struct scn_state *S = ud;
	uint64_t limit = heap_limit(S);
	if (!ptr)
		osize = 0;
	if (nsize == 0) {
		S->mem_used -= osize;
		free(ptr);
		return NULL;
	}
	if (nsize > osize && S->mem_used + (nsize - osize) > limit) {
		if (S->mem_used + (nsize - osize) > limit + limit / 4 + (1u << 20))
			return NULL;
		if (!S->over && S->main) {
			S->over = true;
			hook_now(S, NULL);
		}
	}
	void *p = realloc(ptr, nsize);
	if (p) {
		S->mem_used = S->mem_used - osize + nsize;
		/* Under --sandbox, bytes cost steps: a few instructions that copy
		 * a long string (.., string.rep, gsub) over and over are work. */
		if (S->opts->sandbox && nsize > osize && S->main)
			add_steps(S, NULL, (nsize - osize) / SCN_BYTES_PER_STEP);
	}
	return p;
}

/* An error raised from a hook: a hook has no frame of its own, so the
 * position is that of level 0, the function being run (luaL_error would
 * name its caller). */
static int hook_error(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int hook_error(lua_State *L, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	lua_Debug ar;
	if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "Sl", &ar) && ar.currentline > 0)
		lua_pushfstring(L, "%s:%d: %s", ar.short_src, ar.currentline, buf);
	else
		lua_pushstring(L, buf);
	return lua_error(L);
}

/* Every STEP_GRANULE instructions of every thread, or at the next one when
 * something is due (hook_now). */
static void step_hook(lua_State *L, lua_Debug *ar)
{
	(void)ar;
	struct scn_state *S = state_of(L);
	S->hook_raising = false; /* an instruction after the error: it was caught */
	int count = lua_gethookcount(L);
	if (count != STEP_GRANULE)
		lua_sethook(L, step_hook, LUA_MASKCOUNT, STEP_GRANULE);
	if (add_steps(S, L, (uint64_t)count)) {
		/* Final: raised again before the next instruction of any thread,
		 * whoever catches it (add_steps set the hooks). */
		char b[128];
		hook_error(L, "%s", budget_text(S, b, sizeof(b)));
	}
	if (S->over) {
		S->over = false;
		/* Garbage may be all that is over (a caught error let go of it). */
		if (S->mem_used > heap_limit(S))
			lua_gc(L, LUA_GCCOLLECT);
		if (S->mem_used > heap_limit(S)) {
			S->hook_raising = true;
			lua_sethook(L, step_hook, LUA_MASKCOUNT, 1);
			hook_error(L, "Lua heap limit of %s exhausted", heap_limit_text(S));
		}
	}
}

bool scn_error_from_hook(lua_State *L)
{
	struct scn_state *S = state_of(L);
	bool r = S->exhausted || S->hook_raising;
	S->hook_raising = false;
	return r;
}

/* Charges the model's work on g since the last charge; with raise, the
 * budget error is raised here when it is spent, else at the next
 * instruction. */
static void charge_work(lua_State *L, struct scn_gpu *g, bool raise)
{
	if (!g->gpu)
		return;
	uint64_t w = nvm_work_done(g->gpu), d = w - g->work_seen;
	g->work_seen = w;
	uint64_t steps = d > UINT64_MAX / SCN_STEPS_PER_WORK ? UINT64_MAX : d * SCN_STEPS_PER_WORK;
	if (raise)
		scn_charge(L, steps);
	else
		add_steps(g->S, L, steps);
}

/* ---------------------------------------------------------------- helpers */

int scn_error(lua_State *L, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return luaL_error(L, "%s", buf);
}

lua_Integer scn_checkrange(lua_State *L, int idx, lua_Integer lo, lua_Integer hi)
{
	lua_Integer v = luaL_checkinteger(L, idx);
	if (v < lo || v > hi)
		luaL_error(L, "bad argument #%d: %I out of range [%I, %I]", idx - 1, v, lo, hi);
	return v;
}

nvm_aperture scn_checkaperture(lua_State *L, int idx)
{
	const char *name = luaL_checkstring(L, idx);
	nvm_aperture ap;
	if (nvm_aperture_parse(name, &ap))
		luaL_error(L, "bad argument #%d: unknown aperture '%s' (use \"vram\" or \"sysmem\")", idx - 1, name);
	return ap;
}

static void gpu_free(struct scn_gpu *g)
{
	if (g->gpu) {
		nvm_close(g->gpu);
		g->gpu = NULL;
	}
}

/* The guard's __close: the method that pinned the gpu has returned or
 * raised an error. */
static int l_unpin(lua_State *L)
{
	struct scn_gpu *g = *(struct scn_gpu **)luaL_checkudata(L, 1, PIN_MT);
	charge_work(L, g, false); /* may be unwinding an error: no error of its own */
	if (--g->pins == 0 && g->closed)
		gpu_free(g);
	return 0;
}

/* Pins the gpu at idx for the rest of the calling C function: pushes its
 * guard (the userdata's user value) as a to-be-closed slot. The stack is
 * first filled up to SCN_MAX_ARGS with nils, so an optional argument that
 * was not given reads as nil, never as the guard. */
static void pin(lua_State *L, struct scn_gpu *g, int idx)
{
	if (lua_gettop(L) < SCN_MAX_ARGS)
		lua_settop(L, SCN_MAX_ARGS);
	lua_getiuservalue(L, idx, 1);
	g->pins++;
	lua_toclose(L, -1);
}

static struct scn_gpu *check_sgpu(lua_State *L, int idx)
{
	idx = lua_absindex(L, idx);
	struct scn_gpu *g = luaL_checkudata(L, idx, GPU_MT);
	if (!g->gpu || g->closed)
		luaL_error(L, "gpu object is closed");
	pin(L, g, idx);
	return g;
}

nvm_gpu *scn_checkgpu(lua_State *L, int idx)
{
	return check_sgpu(L, idx)->gpu;
}

void scn_rethrow(lua_State *L)
{
	struct scn_state *S = state_of(L);
	if (S->has_pending) {
		S->has_pending = 0;
		lua_pushstring(L, S->pending);
		lua_error(L);
	}
}

static uint32_t check_u32(lua_State *L, int idx)
{
	lua_Integer v = luaL_checkinteger(L, idx);
	if (v < -(lua_Integer)0x80000000ll || v > (lua_Integer)0xffffffffll)
		scn_error(L, "bad argument #%d: 0x%llx does not fit in 32 bits", idx - 1, (unsigned long long)v);
	return (uint32_t)v;
}

static uint64_t check_addr(lua_State *L, int idx)
{
	lua_Integer v = luaL_checkinteger(L, idx);
	if (v < 0)
		luaL_error(L, "bad argument #%d: negative address %I", idx - 1, v);
	return (uint64_t)v;
}

void scn_fmt_size(char *buf, size_t n, uint64_t v)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;
	while (u < 4 && v && !(v & 1023)) {
		v >>= 10;
		u++;
	}
	snprintf(buf, n, "%llu %s", (unsigned long long)v, units[u]);
}

int scn_nomem(lua_State *L, const char *what)
{
	struct scn_state *S = state_of(L);
	char b[32];
	scn_fmt_size(b, sizeof(b), S->pool.budget);
	return scn_error(L,
	                 "%s: simulated memory budget exhausted: the script's GPUs hold %s, the limit (raise it "
	                 "with --mem-budget)",
	                 what, b);
}

static void mem_error(lua_State *L, const char *what, nvm_gpu *gpu, nvm_aperture ap, uint64_t addr, size_t len,
                      nvm_status st)
{
	if (st == NVM_ERR_NOMEM)
		scn_nomem(L, what);
	scn_error(L, "%s: %s (%s 0x%llx + %llu, size 0x%llx)", what, nvm_status_str(st), nvm_aperture_name(ap),
	          (unsigned long long)addr, (unsigned long long)len, (unsigned long long)nvm_mem_size(gpu, ap));
}

/* Sizes as integers or strings with a K/M/G/T suffix ("256M"). */
static uint64_t opt_size(lua_State *L, int t, const char *key)
{
	uint64_t v = 0;
	int ty = lua_getfield(L, t, key);
	if (ty == LUA_TNUMBER && lua_isinteger(L, -1) && lua_tointeger(L, -1) >= 0) {
		v = (uint64_t)lua_tointeger(L, -1);
	} else if (ty == LUA_TSTRING) {
		const char *s = lua_tostring(L, -1);
		char *end;
		errno = 0;
		unsigned long long n = strtoull(s, &end, 0);
		unsigned shift = 0;
		switch (*end) {
		case 'k':
		case 'K':
			shift = 10;
			end++;
			break;
		case 'm':
		case 'M':
			shift = 20;
			end++;
			break;
		case 'g':
		case 'G':
			shift = 30;
			end++;
			break;
		case 't':
		case 'T':
			shift = 40;
			end++;
			break;
		default: break;
		}
		if (errno || end == s || *end || (shift && n > (UINT64_MAX >> shift)))
			luaL_error(L, "open: bad %s size '%s' (use bytes or a K/M/G/T suffix)", key, s);
		v = (uint64_t)n << shift;
	} else if (ty != LUA_TNIL) {
		luaL_error(L, "open: %s must be a non-negative integer or a size string", key);
	}
	lua_pop(L, 1);
	return v;
}

/* ---------------------------------------------------------------- events */

static void push_event(lua_State *L, const nvm_event *ev)
{
	lua_createtable(L, 0, 7);
	lua_pushstring(L, nvm_event_type_name(ev->type));
	lua_setfield(L, -2, "type");
	lua_pushinteger(L, (lua_Integer)ev->time_ns);
	lua_setfield(L, -2, "time_ns");
	lua_pushstring(L, ev->block ? ev->block : "");
	lua_setfield(L, -2, "block");
	lua_pushstring(L, ev->code ? ev->code : "");
	lua_setfield(L, -2, "code");
	lua_pushinteger(L, (lua_Integer)ev->addr);
	lua_setfield(L, -2, "addr");
	lua_pushinteger(L, (lua_Integer)ev->value);
	lua_setfield(L, -2, "value");
	lua_pushstring(L, ev->message ? ev->message : "");
	lua_setfield(L, -2, "message");
	scn_record(L);
}

struct callback_call {
	struct scn_gpu *g;
	const nvm_event *ev;
};

/* The callbacks of one event, run by lua_hook under lua_pcall: building the
 * event table allocates, and a memory error (or any other) must not unwind
 * through the library's frames. The first error ends the event. */
static int call_callbacks(lua_State *L)
{
	const struct callback_call *c = lua_touserdata(L, 1);
	struct scn_gpu *g = c->g;
	lua_rawgeti(L, LUA_REGISTRYINDEX, g->cb_ref);
	if (lua_rawgeti(L, -1, (lua_Integer)c->ev->type + 1) != LUA_TTABLE)
		return 0;
	lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
	for (lua_Integer i = 1; i <= n && !g->closed; i++) {
		lua_rawgeti(L, -1, i);
		push_event(L, c->ev);
		lua_call(L, 1, 0);
	}
	return 0;
}

static void set_pending(struct scn_gpu *g, const char *m)
{
	snprintf(g->S->pending, sizeof(g->S->pending), "%s", m ? m : "error in event callback");
	g->S->has_pending = 1;
	nvm_stop(g->gpu);
}

static void lua_hook(void *user, const nvm_event *ev)
{
	struct scn_gpu *g = user;
	lua_State *L = g->L;
	struct scn_state *S = g->S;
	if (S->has_pending || g->cb_ref == LUA_NOREF)
		return;
	char b[128];
	if (S->exhausted) {
		set_pending(g, budget_text(S, b, sizeof(b)));
		return;
	}
	if (!lua_checkstack(L, 4)) { /* does not raise */
		set_pending(g, "event callback: Lua stack overflow");
		return;
	}
	int top = lua_gettop(L);
	struct callback_call c = { g, ev };
	lua_State *prev = scn_switch_thread(L, L);
	lua_pushcfunction(L, call_callbacks);
	lua_pushlightuserdata(L, &c);
	if (lua_pcall(L, 1, 0, 0) != LUA_OK)
		set_pending(g, lua_tostring(L, -1));
	scn_switch_thread(L, prev);
	lua_settop(L, top);
}

static void trace_hook(void *user, const nvm_event *ev)
{
	struct scn_gpu *g = user;
	g->S->opts->on_event(g->S->opts->event_user, g->index, ev);
}

/* ---------------------------------------------------------------- gpu methods */

static int l_wr32(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr = (uint32_t)scn_checkrange(L, 2, 0, 0xffffffffll);
	uint32_t v = check_u32(L, 3);
	nvm_status st = nvm_reg_write(gpu, addr, v);
	if (st)
		scn_error(L, "wr32(0x%x): %s (BAR0 is 16 MiB, accesses are 4-byte aligned)", addr, nvm_status_str(st));
	scn_rethrow(L);
	return 0;
}

static int l_rd32(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr = (uint32_t)scn_checkrange(L, 2, 0, 0xffffffffll);
	uint32_t v = 0;
	nvm_status st = nvm_reg_read(gpu, addr, &v);
	if (st)
		scn_error(L, "rd32(0x%x): %s (BAR0 is 16 MiB, accesses are 4-byte aligned)", addr, nvm_status_str(st));
	scn_rethrow(L);
	lua_pushinteger(L, v);
	return 1;
}

static int l_mem_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_aperture ap = scn_checkaperture(L, 2);
	uint64_t addr = check_addr(L, 3);
	size_t len;
	const char *data = luaL_checklstring(L, 4, &len);
	nvm_status st = nvm_mem_write(gpu, ap, addr, data, len);
	if (st)
		mem_error(L, "mem_write", gpu, ap, addr, len, st);
	return 0;
}

static int l_mem_read(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_aperture ap = scn_checkaperture(L, 2);
	uint64_t addr = check_addr(L, 3);
	size_t len = (size_t)scn_checkrange(L, 4, 0, 64ll << 20);
	luaL_Buffer b;
	char *p = luaL_buffinitsize(L, &b, len);
	nvm_status st = nvm_mem_read(gpu, ap, addr, p, len);
	if (st)
		mem_error(L, "mem_read", gpu, ap, addr, len, st);
	luaL_pushresultsize(&b, len);
	return 1;
}

static int l_mem_wr32(lua_State *L)
{
	int n = lua_gettop(L) - 3; /* before scn_checkgpu pushes its guard */
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_aperture ap = scn_checkaperture(L, 2);
	uint64_t addr = check_addr(L, 3);
	if (n < 1)
		luaL_error(L, "mem_wr32: no value given");
	for (int i = 0; i < n; i++) {
		nvm_status st = nvm_mem_wr32(gpu, ap, addr + 4ull * (uint64_t)i, check_u32(L, 4 + i));
		if (st)
			mem_error(L, "mem_wr32", gpu, ap, addr + 4ull * (uint64_t)i, 4, st);
	}
	return 0;
}

static int l_mem_rd32(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_aperture ap = scn_checkaperture(L, 2);
	uint64_t addr = check_addr(L, 3);
	int n = (int)luaL_optinteger(L, 4, 1);
	if (n < 1 || n > 4096)
		luaL_error(L, "mem_rd32: count %d out of range [1, 4096]", n);
	luaL_checkstack(L, n, "mem_rd32");
	for (int i = 0; i < n; i++) {
		uint32_t v;
		nvm_status st = nvm_mem_rd32(gpu, ap, addr + 4ull * (uint64_t)i, &v);
		if (st)
			mem_error(L, "mem_rd32", gpu, ap, addr + 4ull * (uint64_t)i, 4, st);
		lua_pushinteger(L, v);
	}
	return n;
}

static int l_run(lua_State *L)
{
	struct scn_gpu *g = check_sgpu(L, 1);
	nvm_run_opts o = { 0 };
	if (lua_isinteger(L, 2)) {
		o.ns = (uint64_t)scn_checkrange(L, 2, 0, LUA_MAXINTEGER);
	} else {
		luaL_checktype(L, 2, LUA_TTABLE);
		if (lua_getfield(L, 2, "ns") != LUA_TNUMBER || !lua_isinteger(L, -1) || lua_tointeger(L, -1) < 0)
			luaL_error(L, "run: ns must be a non-negative integer (run{ns=1000})");
		o.ns = (uint64_t)lua_tointeger(L, -1);
		lua_getfield(L, 2, "idle");
		if (lua_toboolean(L, -1))
			o.flags |= NVM_RUN_UNTIL_IDLE;
		if (lua_getfield(L, 2, "max_events") != LUA_TNIL) {
			if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1)
				luaL_error(L, "run: max_events must be a positive integer");
			o.max_events = (uint64_t)lua_tointeger(L, -1);
		}
		lua_pop(L, 3);
	}
	/* The tool's run budget bounds what a script may ask for, and so does
	 * what is left of its instruction budget. */
	struct scn_state *S = g->S;
	uint64_t cap = S->opts->run_budget ? S->opts->run_budget : SCN_RUN_BUDGET;
	uint64_t left = S->steps >= step_limit(S) ? 0 : step_limit(S) - S->steps;
	if (left / SCN_STEPS_PER_WORK + 1 < cap)
		cap = left / SCN_STEPS_PER_WORK + 1;
	if (!o.max_events || o.max_events > cap)
		o.max_events = cap;
	if (g->closed) /* by a metamethod of the options table */
		luaL_error(L, "gpu object is closed");
	if (g->running)
		luaL_error(L, "run: called from an event callback of a run of the same gpu");
	g->running = true;
	nvm_run_status rs = nvm_run(g->gpu, &o);
	g->running = false;
	g->S->res->time_ns = nvm_time_ns(g->gpu);
	scn_rethrow(L);
	charge_work(L, g, true);
	lua_pushstring(L, nvm_run_status_str(rs));
	return 1;
}

static int l_time_ns(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)nvm_time_ns(scn_checkgpu(L, 1)));
	return 1;
}

static int event_type_of(const char *name)
{
	for (int t = 0; t < NVM_EV_COUNT; t++)
		if (!strcmp(name, nvm_event_type_name((nvm_event_type)t)))
			return t;
	return -1;
}

static int l_on(lua_State *L)
{
	struct scn_gpu *g = check_sgpu(L, 1);
	const char *name = luaL_checkstring(L, 2);
	luaL_checktype(L, 3, LUA_TFUNCTION);
	int all = !strcmp(name, "*") || !strcmp(name, "any");
	int t = all ? 0 : event_type_of(name);
	if (t < 0)
		luaL_error(L,
		           "on: unknown event '%s' (guest_error, unmodelled, interrupt, fault, method, mmio, "
		           "trace, or \"*\")",
		           name);
	if (g->cb_ref == LUA_NOREF) {
		lua_newtable(L);
		g->cb_ref = luaL_ref(L, LUA_REGISTRYINDEX);
		if (nvm_hook_add(g->gpu, NVM_EV_ALL, lua_hook, g, NULL))
			luaL_error(L, "on: too many hooks on this gpu");
	}
	lua_rawgeti(L, LUA_REGISTRYINDEX, g->cb_ref);
	for (int ty = all ? 0 : t; ty < (all ? NVM_EV_COUNT : t + 1); ty++) {
		if (lua_rawgeti(L, -1, ty + 1) != LUA_TTABLE) {
			lua_pop(L, 1);
			lua_newtable(L);
			lua_pushvalue(L, -1);
			lua_rawseti(L, -3, ty + 1);
		}
		lua_pushvalue(L, 3);
		lua_rawseti(L, -2, (lua_Integer)lua_rawlen(L, -2) + 1);
		lua_pop(L, 1);
	}
	return 0;
}

/* Closed as far as the script can tell: methods refuse it, callbacks stop. */
static void mark_closed(lua_State *L, struct scn_gpu *g)
{
	if (g->closed)
		return;
	g->closed = true;
	g->S->gpus_open--;
	if (g->cb_ref != LUA_NOREF) {
		luaL_unref(L, LUA_REGISTRYINDEX, g->cb_ref);
		g->cb_ref = LUA_NOREF;
	}
}

static int l_close(lua_State *L)
{
	struct scn_gpu *g = luaL_checkudata(L, 1, GPU_MT);
	mark_closed(L, g);
	if (!g->pins)
		gpu_free(g);
	else if (g->gpu)
		nvm_stop(g->gpu); /* a method below is using it: the last unpin frees it */
	return 0;
}

/* Unreachable: no stack holds it, so nothing can be using it. */
static int l_gc(lua_State *L)
{
	struct scn_gpu *g = luaL_checkudata(L, 1, GPU_MT);
	mark_closed(L, g);
	gpu_free(g);
	return 0;
}

static int l_chip(lua_State *L)
{
	lua_pushstring(L, nvm_gpu_chip(scn_checkgpu(L, 1))->name);
	return 1;
}

static int l_intr(lua_State *L)
{
	lua_pushboolean(L, nvm_intr_line(scn_checkgpu(L, 1)));
	return 1;
}

static int l_idle(lua_State *L)
{
	lua_pushboolean(L, nvm_idle(scn_checkgpu(L, 1)));
	return 1;
}

static int l_reg_name(lua_State *L)
{
	const char *n = nvm_reg_name(scn_checkgpu(L, 1), (uint32_t)scn_checkrange(L, 2, 0, 0xffffffffll));
	if (n)
		lua_pushstring(L, n);
	else
		lua_pushnil(L);
	return 1;
}

static int l_mem_size(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	lua_pushinteger(L, (lua_Integer)nvm_mem_size(gpu, scn_checkaperture(L, 2)));
	return 1;
}

static int l_mem_pages(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	lua_pushinteger(L, (lua_Integer)nvm_mem_pages(gpu, scn_checkaperture(L, 2)));
	return 1;
}

static int l_event_count(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *name = luaL_checkstring(L, 2);
	int t = event_type_of(name);
	if (t < 0)
		luaL_error(L, "event_count: unknown event '%s'", name);
	lua_pushinteger(L, (lua_Integer)nvm_event_count(gpu, (nvm_event_type)t));
	return 1;
}

/* gpu:snapshot() -> string: the GPU's save state (nvm_snapshot_save). */
static int l_snapshot(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	size_t len;
	nvm_status st = nvm_snapshot_save(gpu, NULL, 0, &len);
	if (!st) {
		luaL_Buffer b;
		char *p = luaL_buffinitsize(L, &b, len);
		st = nvm_snapshot_save(gpu, p, len, &len);
		if (!st) {
			luaL_pushresultsize(&b, len);
			return 1;
		}
	}
	return scn_error(L, "snapshot: %s", nvm_status_str(st));
}

/* gpu:restore(s): back to a state gpu:snapshot() gave (nvm_snapshot_load);
 * a refused snapshot changes nothing and is an error. */
static int l_restore(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	size_t len;
	const char *s = luaL_checklstring(L, 2, &len);
	nvm_status st = nvm_snapshot_load(gpu, s, len);
	if (st)
		scn_error(L, "restore: %s", nvm_status_str(st));
	return 0;
}

static const luaL_Reg core_methods[] = {
	{ "snapshot", l_snapshot },
	{ "restore", l_restore },
	{ "wr32", l_wr32 },
	{ "rd32", l_rd32 },
	{ "mem_write", l_mem_write },
	{ "mem_read", l_mem_read },
	{ "mem_wr32", l_mem_wr32 },
	{ "mem_rd32", l_mem_rd32 },
	{ "run", l_run },
	{ "time_ns", l_time_ns },
	{ "on", l_on },
	{ "close", l_close },
	{ "chip", l_chip },
	{ "intr", l_intr },
	{ "idle", l_idle },
	{ "reg_name", l_reg_name },
	{ "mem_size", l_mem_size },
	{ "mem_pages", l_mem_pages },
	{ "event_count", l_event_count },
	{ NULL, NULL },
};

/* Every table of gpu methods; blocks add theirs here. */
extern const luaL_Reg scn_hwsq_methods[];
extern const luaL_Reg scn_mmu_methods[];
extern const luaL_Reg scn_host_methods[];
extern const luaL_Reg scn_pfifo_methods[];
extern const luaL_Reg scn_g80_methods[];
static const luaL_Reg *const scn_method_tables[] = {
	core_methods, scn_hwsq_methods, scn_mmu_methods, scn_host_methods, scn_pfifo_methods, scn_g80_methods, NULL,
};

/* ---------------------------------------------------------------- module */

static int l_open(lua_State *L)
{
	struct scn_state *S = state_of(L);
	nvm_config cfg = { 0 };
	if (S->closing) /* a finalizer at the end: nothing would free it */
		luaL_error(L, "open: the script has ended");
	char chip[CHIP_NAME_MAX];
	if (!lua_isnoneornil(L, 1)) {
		luaL_checktype(L, 1, LUA_TTABLE);
		/* A copy: t's __index may have made the string, and reading the
		 * other options may collect it once it is off the stack. */
		if (lua_getfield(L, 1, "chip") != LUA_TNIL) {
			size_t n;
			const char *c = luaL_checklstring(L, -1, &n);
			if (n >= sizeof(chip) || strlen(c) != n)
				luaL_error(L, "open: unknown chip '%s' (see `nvmodel chips`)", c);
			memcpy(chip, c, n + 1);
			cfg.chip = chip;
		}
		lua_pop(L, 1);
		cfg.vram_size = opt_size(L, 1, "vram");
		cfg.sysmem_size = opt_size(L, 1, "sysmem");
	}
	if (!cfg.chip)
		cfg.chip = S->opts->default_chip;
	cfg.mem_pool = &S->pool;
	int max_gpus = S->opts->max_gpus ? S->opts->max_gpus : SCN_MAX_GPUS;
	if (S->gpus_open >= max_gpus) {
		/* Unreachable gpus may not have been collected yet. */
		lua_gc(L, LUA_GCCOLLECT);
		if (S->gpus_open >= max_gpus)
			luaL_error(L, "open: %d GPUs are open, the limit (close some with gpu:close())", max_gpus);
	}
	struct scn_gpu *g = lua_newuserdatauv(L, sizeof(*g), 1);
	memset(g, 0, sizeof(*g));
	g->cb_ref = LUA_NOREF;
	g->S = S;
	g->closed = true; /* until nvm_open succeeds: its __gc has nothing to do */
	luaL_setmetatable(L, GPU_MT);
	*(struct scn_gpu **)lua_newuserdatauv(L, sizeof(g), 0) = g;
	luaL_setmetatable(L, PIN_MT);
	lua_setiuservalue(L, -2, 1);
	nvm_status st = nvm_open(&cfg, &g->gpu);
	if (st == NVM_ERR_CHIP)
		luaL_error(L, "open: unknown chip '%s' (see `nvmodel chips`)", cfg.chip);
	if (st) {
		const nvm_chip_info *ci = nvm_chip_find(cfg.chip ? cfg.chip : NVM_DEFAULT_CHIP);
		const char *what = st == NVM_ERR_RANGE   ? "a size is larger than the chip has"
		                   : st == NVM_ERR_ALIGN ? "sizes must be multiples of 4 KiB"
		                                         : nvm_status_str(st);
		scn_error(L, "open: %s (chip %s: vram up to 0x%llx, sysmem up to 0x%llx, 4 KiB multiples)", what,
		          ci->name, (unsigned long long)ci->vram_max, (unsigned long long)ci->sysmem_max);
	}
	g->closed = false;
	g->work_seen = nvm_work_done(g->gpu);
	g->index = S->gpus++;
	S->gpus_open++;
	g->L = S->main;
	S->res->gpus_opened = S->gpus;
	if (S->opts->on_event)
		nvm_hook_add(g->gpu, NVM_EV_ALL, trace_hook, g, NULL);
	return 1;
}

static int l_chips(lua_State *L)
{
	lua_createtable(L, (int)nvm_chip_count(), 0);
	for (size_t i = 0; i < nvm_chip_count(); i++) {
		lua_pushstring(L, nvm_chip_get(i)->name);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 1;
}

/* nvmodel.chip_info(name) -> {name, family, boot_0, vram_max, sysmem_max,
 * blocks}, or nil for an unknown chip. */
static int l_chip_info(lua_State *L)
{
	const nvm_chip_info *c = nvm_chip_find(luaL_checkstring(L, 1));
	if (!c) {
		lua_pushnil(L);
		return 1;
	}
	lua_createtable(L, 0, 6);
	lua_pushstring(L, c->name);
	lua_setfield(L, -2, "name");
	lua_pushstring(L, c->family);
	lua_setfield(L, -2, "family");
	lua_pushinteger(L, c->boot_0);
	lua_setfield(L, -2, "boot_0");
	lua_pushinteger(L, (lua_Integer)c->vram_max);
	lua_setfield(L, -2, "vram_max");
	lua_pushinteger(L, (lua_Integer)c->sysmem_max);
	lua_setfield(L, -2, "sysmem_max");
	lua_pushstring(L, c->blocks);
	lua_setfield(L, -2, "blocks");
	scn_record(L);
	return 1;
}

static int l_check(lua_State *L)
{
	luaL_checkany(L, 1);
	if (!lua_toboolean(L, 1)) {
		const char *msg = luaL_optstring(L, 2, "condition is false");
		return luaL_error(L, "check failed: %s", msg);
	}
	state_of(L)->res->checks_passed++;
	return 0;
}

static int l_print(lua_State *L)
{
	FILE *out = state_of(L)->opts->out;
	int n = lua_gettop(L);
	for (int i = 1; i <= n; i++) {
		size_t len;
		const char *s = luaL_tolstring(L, i, &len);
		if (out) {
			if (i > 1)
				fputc('\t', out);
			fwrite(s, 1, len, out);
		}
		lua_pop(L, 1);
	}
	if (out)
		fputc('\n', out);
	return 0;
}

static const luaL_Reg module_funcs[] = {
	{ "open", l_open },
	{ "chips", l_chips },
	{ "chip_info", l_chip_info },
	{ NULL, NULL },
};

static void setup(lua_State *L, const struct scn_opts *opts)
{
	scn_open_libs(L, opts);
	scn_record_setup(L);
	luaL_newmetatable(L, GPU_MT);
	lua_newtable(L);
	for (const luaL_Reg *const *t = scn_method_tables; *t; t++)
		luaL_setfuncs(L, *t, 0);
	lua_setfield(L, -2, "__index");
	lua_pushcfunction(L, l_gc);
	lua_setfield(L, -2, "__gc");
	lua_pushcfunction(L, l_close);
	lua_setfield(L, -2, "__close");
	lua_pushliteral(L, "nvmodel gpu");
	lua_setfield(L, -2, "__name");
	/* getmetatable(gpu).__gc(gpu) from a callback would free a gpu in use. */
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);
	luaL_newmetatable(L, PIN_MT);
	lua_pushcfunction(L, l_unpin);
	lua_setfield(L, -2, "__close");
	lua_pushboolean(L, 0);
	lua_setfield(L, -2, "__metatable");
	lua_pop(L, 1);

	luaL_newlib(L, module_funcs);
	lua_pushstring(L, nvm_version());
	lua_setfield(L, -2, "version");
	lua_pushstring(L, opts->default_chip ? opts->default_chip : NVM_DEFAULT_CHIP);
	lua_setfield(L, -2, "default_chip");
	scn_open_builders(L);
	lua_setglobal(L, "nvmodel");
	lua_pushcfunction(L, l_check);
	lua_setglobal(L, "check");
	lua_pushcfunction(L, l_print);
	lua_setglobal(L, "print");

	lua_createtable(L, opts->argc, 0);
	for (int i = 0; i < opts->argc; i++) {
		lua_pushstring(L, opts->argv[i]);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setglobal(L, "arg");
}

static int protected_setup(lua_State *L)
{
	setup(L, lua_touserdata(L, 1));
	return 0;
}

void scn_run_buffer(const char *src, size_t len, const char *chunkname, const struct scn_opts *opts,
                    struct scn_result *res)
{
	memset(res, 0, sizeof(*res));
	struct scn_state S = { .opts = opts, .res = res };
	S.pool.budget = opts->mem_budget ? opts->mem_budget : SCN_MEM_BUDGET;
	lua_State *L = lua_newstate(limited_alloc, &S);
	if (!L) {
		snprintf(res->error, sizeof(res->error), "%s: cannot create a Lua state", chunkname);
		return;
	}
	S.main = S.current = L;
	lua_sethook(L, step_hook, LUA_MASKCOUNT, STEP_GRANULE);
	lua_pushcfunction(L, protected_setup);
	lua_pushlightuserdata(L, (void *)opts);
	int st = lua_pcall(L, 1, 0, 0);
	if (st == LUA_OK) {
		char name[512];
		snprintf(name, sizeof(name), "@%s", chunkname);
		lua_pushcfunction(L, scn_msgh);
		src = scn_skip_header(src, &len);
		st = luaL_loadbufferx(L, src, len, name, "t");
		if (st == LUA_OK)
			st = lua_pcall(L, 0, 0, -2);
	}
	const char *top = st != LUA_OK ? lua_tostring(L, -1) : NULL;
	if (S.exhausted && !(top && strstr(top, "instruction budget of"))) {
		/* Whatever the script made of it (a caught budget error, an error
		 * object a __close handler put in its place), it failed there. */
		char b[128];
		snprintf(res->error, sizeof(res->error), "%s%s", S.budget_where, budget_text(&S, b, sizeof(b)));
	} else if (st == LUA_OK) {
		res->ok = 1;
	} else if (st == LUA_ERRMEM) {
		/* Lua calls no message handler for these: no position is known.
		 * Most scripts that run out are stopped earlier, with one (see
		 * limited_alloc). */
		snprintf(res->error, sizeof(res->error), "%s: Lua heap limit of %s exhausted (not enough memory)",
		         chunkname, heap_limit_text(&S));
	} else {
		const char *m = lua_tostring(L, -1);
		snprintf(res->error, sizeof(res->error), "%s", m ? m : "unknown error");
	}
	S.closing = true;
	lua_close(L);
}

void scn_run_file(const char *path, const struct scn_opts *opts, struct scn_result *res)
{
	memset(res, 0, sizeof(*res));
	bool is_stdin = !strcmp(path, "-");
	FILE *f = is_stdin ? stdin : fopen(path, "rb");
	if (!f) {
		snprintf(res->error, sizeof(res->error), "%s: cannot open: %s", path, strerror(errno));
		res->io_error = 1;
		return;
	}
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	bool too_large = false;
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
		if (len == cap) {
			too_large = cap >= (64u << 20);
			char *nb = too_large ? NULL : realloc(buf, cap * 2);
			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	int err = ferror(f) ? (errno ? errno : EIO) : 0; /* EISDIR for a directory */
	if (!is_stdin)
		fclose(f);
	if (!buf || err) {
		snprintf(res->error, sizeof(res->error), "%s: cannot read: %s", path,
		         buf         ? strerror(err)
		         : too_large ? "file too large (64 MiB limit)"
		                     : "out of memory");
		res->io_error = 1;
		res->oom = !buf && !too_large;
		free(buf);
		return;
	}
	if (!len) {
		/* Every command of the tool treats an empty input alike. */
		snprintf(res->error, sizeof(res->error), "%s: empty input", path);
		res->io_error = 1;
		free(buf);
		return;
	}
	scn_run_buffer(buf, len, is_stdin ? "stdin" : path, opts, res);
	free(buf);
}
