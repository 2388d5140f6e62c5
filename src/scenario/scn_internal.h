/*
 * Shared by the files of the scenario layer: each block that offers Lua
 * methods on gpu objects (builders, uploads, translations) writes them in a
 * file of its own here and lists its luaL_Reg table in scn_method_tables
 * (scenario.c).
 */
#ifndef NVM_SCN_INTERNAL_H
#define NVM_SCN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lauxlib.h>
#include <lua.h>

#include "nvmodel/host.h"
#include "nvmodel/nvmodel.h"

/* The gpu object at stack index idx (raises a Lua error when it is not one
 * or is closed). It also pins the gpu until the calling C function returns,
 * so that a gpu:close() from Lua code run meanwhile (an event callback, a
 * metamethod, a finalizer) only frees it afterwards. For that it fills the
 * stack with nils up to SCN_MAX_ARGS and pushes a guard value above: count
 * arguments with lua_gettop before calling it, and read optional arguments
 * as none-or-nil. */
#define SCN_MAX_ARGS 16
nvm_gpu *scn_checkgpu(lua_State *L, int idx);
/* Charges steps to the instruction budget; raises the budget error when it
 * is spent (and from then on, at every instruction: it is final). */
void scn_charge(lua_State *L, uint64_t steps);
/* The thread about to run (a coroutine being resumed or closed, main for an
 * event callback); returns the one that ran before, to switch back to. */
lua_State *scn_switch_thread(lua_State *L, lua_State *to);
/* Whether the error being raised comes from step_hook (the budget, the heap
 * limit). Lua calls the message handler of such an error with hooks off, so
 * a handler written in Lua must not run: nothing would stop it. */
bool scn_error_from_hook(lua_State *L);
/* Raises a pending hook error, if a Lua event callback failed. Call after
 * any library call that can emit events. */
void scn_rethrow(lua_State *L);
/* luaL_checkinteger limited to [lo, hi], with the argument named in errors. */
lua_Integer scn_checkrange(lua_State *L, int idx, lua_Integer lo, lua_Integer hi);
/* luaL_error with printf formats (%llx, %x...): lua_pushfstring knows only a few. */
int scn_error(lua_State *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Raises the error for NVM_ERR_NOMEM from a memory write: the script's
 * simulated memory budget (--mem-budget) is used up. what names the method. */
int scn_nomem(lua_State *L, const char *what);
/* "1 GiB", "64 MiB", "4096 bytes": a size as a user would write it. */
void scn_fmt_size(char *buf, size_t n, uint64_t v);
/* Gives the table on top of the stack a stable pairs() order (integer keys,
 * then strings, ascending), whatever Lua's per-run string hashing does.
 * Every table a method returns goes through it. */
void scn_record(lua_State *L);

/* scn_libs.c: the standard libraries a script gets (text-only loading, a
 * restricted debug library, math.random seeded with seed; io, os, package
 * and debug not at all with sandbox), the record metatable, the message
 * handler that puts file:line on every error, and the source header a
 * script may start with (a UTF-8 BOM, a #! line). */
struct scn_opts;
void scn_open_libs(lua_State *L, const struct scn_opts *opts);
void scn_record_setup(lua_State *L);
int scn_msgh(lua_State *L);
const char *scn_skip_header(const char *src, size_t *len);

/* An aperture name argument ("vram" / "sysmem"). */
nvm_aperture scn_checkaperture(lua_State *L, int idx);

/* Chunk names of the Lua modules built into the binary ("=nvmodel/volta.lua"):
 * errors are reported at the script line that called into them. */
#define SCN_MODULE_PREFIX "nvmodel/"
/* Adds the builders (pb_asm, pb_words, the volta module) to the nvmodel
 * table at the top of the stack (scn_builders.c). */
void scn_open_builders(lua_State *L);
/* Adds nvmodel._setup, the set-up helpers the builders wrap (scn_setup.c). */
void scn_open_setup(lua_State *L);

/* t[k] = v on the table at the top of the stack. */
void scn_set_int(lua_State *L, const char *k, lua_Integer v);

/* An engine's method log as an array of {time_ns, chid, subch, cls, method,
 * data} (arguments 3 and 4: first entry, at most how many), read through
 * nvm_method_log_read (the caller checked that the engine is its front end's). */
int scn_push_method_log(lua_State *L, nvm_gpu *gpu, const char *engine);

/* BAR accesses (scn_mmu.c), shared by the GMMU's BAR1/BAR2 and the G80
 * VM's BAR1/BAR3 methods: arguments 3 (offset) and 4 (bytes / length);
 * true / the bytes, or false / nil when the access failed (a fault). */
typedef nvm_status (*scn_bar_write_fn)(nvm_gpu *gpu, int bar, uint64_t off, const void *buf, size_t len);
typedef nvm_status (*scn_bar_read_fn)(nvm_gpu *gpu, int bar, uint64_t off, void *buf, size_t len);
int scn_bar_write(lua_State *L, nvm_gpu *gpu, int bar, scn_bar_write_fn wr);
int scn_bar_read(lua_State *L, nvm_gpu *gpu, int bar, scn_bar_read_fn rd, const char *what);

#endif
