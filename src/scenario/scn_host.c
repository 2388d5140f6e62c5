/*
 * Lua methods of the Volta Host (include/nvmodel/host.h):
 *
 *   gpu:host_log(engine [, first [, max]])  -- {{time_ns, chid, subch, cls, method, data}, ...}
 *   gpu:host_log_total(engine)              -- methods the engine received since open
 *   gpu:host_log_config(engine, cap)        -- ring size, 0 = count only
 *   gpu:host_log_clear(engine)
 *   gpu:host_channel(chid)                  -- {bound, enabled, status, busy, pbdma_faulted, ...}
 *   gpu:host_stats()                        -- {doorbells, ctx_loads, methods, ...}
 *   gpu:host_method_crc(on)                 -- compute METHOD_CRC so CRC_CHECK is checked
 *   nvmodel.host_layout(which [, fields [, chip]])   -- "ramfc" | "userd": {NAME = byte offset, ...,
 *                                              with fields: fields = {NAME = {FIELD = {hi, lo}}}}
 *
 * Engines: "gr", "grce", "ce2".."ce8". Everything else a driver does goes
 * through gpu:wr32 / gpu:mem_* exactly as on hardware.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "nvmodel/host.h"
#include "nvmodel/host_fmt.h"
#include "scn_internal.h"

#include "nvmodel/pushbuf.h" /* nvm_pb_method_label: the names of logged methods */

void scn_set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

static const char *check_engine(lua_State *L, nvm_gpu *gpu, int idx)
{
	const char *e = luaL_checkstring(L, idx);
	size_t n;
	nvm_host_stats hs;
	/* The Host's engines only (a GPU without the Volta Host has none): the
	 * method log itself answers for any front end's. */
	if (nvm_host_get_stats(gpu, &hs) || nvm_method_log_read(gpu, e, 0, NULL, 0, &n, NULL))
		scn_error(L, "unknown engine '%s' (gr, grce, ce2..ce8 on gv100)", e);
	return e;
}

int scn_push_method_log(lua_State *L, nvm_gpu *gpu, const char *engine)
{
	size_t first = lua_isnoneornil(L, 3) ? 0 : (size_t)scn_checkrange(L, 3, 0, INT32_MAX);
	size_t max = lua_isnoneornil(L, 4) ? 65536 : (size_t)scn_checkrange(L, 4, 0, 1 << 24);
	lua_newtable(L);
	nvm_method buf[256];
	size_t got = 0, n;
	while (got < max) {
		size_t want = max - got < 256 ? max - got : 256;
		if (nvm_method_log_read(gpu, engine, first + got, buf, want, &n, NULL) || !n)
			break;
		for (size_t i = 0; i < n; i++) {
			lua_createtable(L, 0, 6);
			scn_set_int(L, "time_ns", (lua_Integer)buf[i].time_ns);
			scn_set_int(L, "chid", buf[i].chid);
			scn_set_int(L, "subch", buf[i].subch);
			scn_set_int(L, "cls", buf[i].cls);
			scn_set_int(L, "method", buf[i].method);
			scn_set_int(L, "data", buf[i].data);
			/* pre-G80 PFIFO only (nvm_method): absent where 0 / false */
			if (buf[i].ctx)
				scn_set_int(L, "ctx", buf[i].ctx);
			if (buf[i].implicit) {
				lua_pushboolean(L, 1);
				lua_setfield(L, -2, "implicit");
			}
			char name[128]; /* "0039.OFFSET_IN": where the class has a table */
			if (nvm_pb_method_label(buf[i].cls, buf[i].method, name, sizeof(name))) {
				lua_pushstring(L, name);
				lua_setfield(L, -2, "name");
			}
			scn_record(L);
			lua_rawseti(L, -2, (lua_Integer)(got + i + 1));
		}
		got += n;
	}
	return 1;
}

static int l_host_log(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	return scn_push_method_log(L, gpu, check_engine(L, gpu, 2));
}

static int l_host_log_total(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *e = check_engine(L, gpu, 2);
	size_t n;
	uint64_t total = 0;
	nvm_method_log_read(gpu, e, 0, NULL, 0, &n, &total);
	lua_pushinteger(L, (lua_Integer)total);
	return 1;
}

static int l_host_log_config(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *e = check_engine(L, gpu, 2);
	lua_Integer cap = scn_checkrange(L, 3, 0, 1 << 24);
	if (nvm_method_log_config(gpu, e, (size_t)cap))
		scn_error(L, "host_log_config: out of memory for %lld entries", (long long)cap);
	return 0;
}

static int l_host_log_clear(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_method_log_clear(gpu, check_engine(L, gpu, 2));
	return 0;
}

static int l_host_channel(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t chid = (uint32_t)scn_checkrange(L, 2, 0, 4095);
	nvm_host_channel c;
	if (nvm_host_channel_info(gpu, chid, &c))
		scn_error(L, "host_channel: this chip has no Volta Host");
	static const char *const status_names[16] = { "IDLE",
		                                      "PENDING",
		                                      "PENDING_CTX_RELOAD",
		                                      "PENDING_ACQUIRE",
		                                      "PENDING_ACQ_CTX_RELOAD",
		                                      "ON_PBDMA",
		                                      "ON_PBDMA_AND_ENG",
		                                      "ON_ENG",
		                                      "ON_ENG_PENDING_ACQUIRE",
		                                      "ON_ENG_PENDING",
		                                      "ON_PBDMA_CTX_RELOAD",
		                                      "ON_PBDMA_AND_ENG_CTX_RELOAD",
		                                      "ON_ENG_CTX_RELOAD",
		                                      "ON_ENG_PENDING_CTX_RELOAD",
		                                      "ON_ENG_PENDING_ACQ_CTX_RELOAD",
		                                      "?" };
	lua_createtable(L, 0, 14);
	scn_set_int(L, "chid", c.chid);
	lua_pushboolean(L, c.bound);
	lua_setfield(L, -2, "bound");
	lua_pushboolean(L, c.enabled);
	lua_setfield(L, -2, "enabled");
	lua_pushstring(L, status_names[c.status & 15]);
	lua_setfield(L, -2, "status");
	lua_pushboolean(L, c.busy);
	lua_setfield(L, -2, "busy");
	lua_pushboolean(L, c.pbdma_faulted);
	lua_setfield(L, -2, "pbdma_faulted");
	lua_pushboolean(L, c.eng_faulted);
	lua_setfield(L, -2, "eng_faulted");
	scn_set_int(L, "runlist", c.runlist);
	scn_set_int(L, "tsgid", c.tsgid);
	scn_set_int(L, "pbdma", c.pbdma);
	scn_set_int(L, "inst", (lua_Integer)c.inst);
	scn_set_int(L, "inst_target", c.inst_target);
	scn_set_int(L, "methods", (lua_Integer)c.methods);
	scn_record(L);
	return 1;
}

static int l_host_method_crc(lua_State *L)
{
	if (nvm_host_set_method_crc(scn_checkgpu(L, 1), lua_toboolean(L, 2)))
		scn_error(L, "host_method_crc: this chip has no Volta Host");
	return 0;
}

static int l_host_stats(lua_State *L)
{
	nvm_host_stats s;
	if (nvm_host_get_stats(scn_checkgpu(L, 1), &s))
		scn_error(L, "host_stats: this chip has no Volta Host");
	const struct {
		const char *k;
		uint64_t v;
	} f[] = {
		{ "doorbells", s.doorbells },       { "runlist_submits", s.runlist_submits },
		{ "ctx_loads", s.ctx_loads },       { "ctx_saves", s.ctx_saves },
		{ "gp_entries", s.gp_entries },     { "pb_dwords", s.pb_dwords },
		{ "methods", s.methods },           { "host_methods", s.host_methods },
		{ "sw_methods", s.sw_methods },     { "sem_releases", s.sem_releases },
		{ "sem_acquires", s.sem_acquires }, { "acquire_waits", s.acquire_waits },
		{ "pbdma_intrs", s.pbdma_intrs },   { "sched_errors", s.sched_errors },
	};
	lua_createtable(L, 0, (int)(sizeof(f) / sizeof(f[0])));
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		scn_set_int(L, f[i].k, (lua_Integer)f[i].v);
	scn_record(L);
	return 1;
}

const luaL_Reg scn_host_methods[] = {
	{ "host_log", l_host_log },
	{ "host_log_total", l_host_log_total },
	{ "host_log_config", l_host_log_config },
	{ "host_log_clear", l_host_log_clear },
	{ "host_channel", l_host_channel },
	{ "host_stats", l_host_stats },
	{ "host_method_crc", l_host_method_crc },
	{ NULL, NULL },
};

/* name without prefix and '_' (the manual's short name), or name. */
static const char *short_name(const char *name, const char *prefix)
{
	size_t n = prefix ? strlen(prefix) : 0;
	return n && !strncmp(name, prefix, n) && name[n] == '_' ? name + n + 1 : name;
}

/* nvmodel.host_layout(which): the byte offset of each named word of a Host
 * structure and the hi:lo of its fields, from the field tables the model and
 * the `nvmodel host` decoders read (host_fmt.h), so the Lua builders copy no
 * offsets. "ramfc": NV_RAMFC_* (USERD, SIGNATURE, GP_BASE ...); "userd":
 * NV_RAMUSERD_* (PUT, GET, GP_GET, GP_PUT ...). The field positions only
 * when asked (the builders need the offsets; a table per field costs each
 * script that loads nvmodel.volta). A chip name as the third argument gives
 * that chip's layout (default: the default chip's). */
static int l_host_layout(lua_State *L)
{
	static const char *const names[] = { "ramfc", "userd", NULL };
	static const nvm_hf_struct which[] = { NVM_HF_RAMFC, NVM_HF_USERD };
	nvm_hf_struct st = which[luaL_checkoption(L, 1, NULL, names)];
	bool fields = lua_toboolean(L, 2);
	const char *chip = luaL_optstring(L, 3, NULL);
	const nvm_hf_layout *l = nvm_hf_layout_chip(chip, st);
	if (!l)
		return luaL_error(L, "host_layout: chip '%s' has no Volta-style Host (gv100, tu102)", chip);
	lua_settop(L, 0);
	lua_createtable(L, 0, (int)l->nwords + 3);
	lua_pushstring(L, l->name);
	lua_setfield(L, -2, "name");
	scn_set_int(L, "size", l->size);
	lua_createtable(L, 0, fields ? (int)l->nwords : 0); /* fields */
	for (size_t i = 0; i < l->nwords; i++) {
		const nvm_hf_word *w = &l->words[i];
		if (!w->name)
			continue;
		const char *wn = short_name(w->name, l->name);
		lua_pushinteger(L, 4 * (lua_Integer)w->dword);
		lua_setfield(L, -3, wn);
		if (!fields)
			continue;
		lua_createtable(L, 0, w->nfields);
		for (unsigned k = 0; k < w->nfields; k++) {
			const nvm_hf_field *f = &w->fields[k];
			lua_createtable(L, 2, 0);
			lua_pushinteger(L, f->hi);
			lua_rawseti(L, -2, 1);
			lua_pushinteger(L, f->lo);
			lua_rawseti(L, -2, 2);
			lua_setfield(L, -2, short_name(f->name, w->reg ? w->reg : w->name));
		}
		lua_setfield(L, -2, wn);
	}
	lua_setfield(L, -2, "fields");
	return 1;
}

const luaL_Reg scn_host_funcs[] = {
	{ "host_layout", l_host_layout },
	{ NULL, NULL },
};
