/*
 * Lua methods of PFIFO for NV04..NV4x and G80..GT215 (include/nvmodel/pfifo.h):
 *
 *   gpu:pfifo_log(engine [, first [, max]])  -- {{time_ns, chid, subch, cls, method, data}, ...}
 *   gpu:pfifo_log_total(engine)              -- methods the engine received since open
 *   gpu:pfifo_log_config(engine, cap)        -- ring size, 0 = count only
 *   gpu:pfifo_log_clear(engine)
 *   gpu:pfifo_stats()                        -- {pio_writes, ramro_entries, dma_words, ...}
 *   gpu:pfifo_user_write(addr, value, size)  -- a 1/2/4-byte USER-area store at any alignment
 *   gpu:pfifo_ramin_bar_read(addr)           -- NV03's (BAR1 + 0xC00000) and NV40's RAMIN BAR: the 32-bit word at RAMIN
 * addr gpu:pfifo_ramin_bar_write(addr, value)
 *
 * and the model's own layout descriptions, which the builders (nvmodel.nv04,
 * nvmodel.g80fifo) read rather than copy:
 *
 *   nvmodel.pfifo_layout(chip [, large])  -- {channels, ramfc_size, has_large,
 *                                            ramfc = {NAME = {off, lo, bits, reg_lo}, ...}}
 *   nvmodel.pfifo_ramht_context(chip, instance, engine, chid)  -- the RAMHT context word
 *
 * Engines: "pgraph", "software", and on NV40+ "pmpeg", "pme" (NV41+ "pvp1"); G80 "pmpeg", "pme",
 * "pvp1"; G84/G92 "pmpeg", "pvp2", "pcipher", "pbsp"; GT215 "pppp", "pcopy", "ppdec", "pvld". The structures (RAMHT
 * entries, RAMFC, DMA objects, channels, pushbuffers) are built by the nvmodel.nv04 Lua module through gpu:wr32 /
 * gpu:mem_* as a driver builds them.
 */
#include <stdint.h>

#include "nvmodel/pfifo.h"
#include "scn_internal.h"

static const char *check_engine(lua_State *L, nvm_gpu *gpu, int idx)
{
	const char *e = luaL_checkstring(L, idx);
	size_t n;
	nvm_pfifo_stats ps;
	/* PFIFO's engines only (a Volta Host GPU has none): the method log
	 * itself answers for any front end's. */
	bool pfifo = !nvm_pfifo_get_stats(gpu, &ps);
	nvm_status st = pfifo ? nvm_method_log_read(gpu, e, 0, NULL, 0, &n, NULL) : NVM_ERR_NOENT;
	if (st == NVM_ERR_NOENT && (!pfifo || nvm_method_log_read(gpu, "pgraph", 0, NULL, 0, &n, NULL)))
		scn_error(L, "this chip has no NV04-style PFIFO (nv04..nv41)");
	if (st)
		scn_error(L,
		          "unknown engine '%s' for this chip (pgraph, software; NV40+ pmpeg, pme; NV41+ pvp1; "
		          "G80 pmpeg, pme, pvp1; G84/G92 pmpeg, pvp2, pcipher, pbsp; GT215 pppp, pcopy, ppdec, pvld)",
		          e);
	return e;
}

static int l_log(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	return scn_push_method_log(L, gpu, check_engine(L, gpu, 2));
}

static int l_log_total(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *e = check_engine(L, gpu, 2);
	size_t n;
	uint64_t total = 0;
	nvm_method_log_read(gpu, e, 0, NULL, 0, &n, &total);
	lua_pushinteger(L, (lua_Integer)total);
	return 1;
}

static int l_log_config(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	const char *e = check_engine(L, gpu, 2);
	lua_Integer cap = scn_checkrange(L, 3, 0, 1 << 24);
	if (nvm_method_log_config(gpu, e, (size_t)cap))
		scn_error(L, "pfifo_log_config: out of memory for %lld entries", (long long)cap);
	return 0;
}

static int l_log_clear(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_method_log_clear(gpu, check_engine(L, gpu, 2));
	return 0;
}

static int l_stats(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	nvm_pfifo_stats s;
	if (nvm_pfifo_get_stats(gpu, &s))
		scn_error(L, "pfifo_stats: this chip has no NV04-style PFIFO (nv04..nv41)");
	lua_createtable(L, 0, 16);
	scn_set_int(L, "pio_writes", (lua_Integer)s.pio_writes);
	scn_set_int(L, "ramro_entries", (lua_Integer)s.ramro_entries);
	scn_set_int(L, "ramro_overflows", (lua_Integer)s.ramro_overflows);
	scn_set_int(L, "dma_words", (lua_Integer)s.dma_words);
	scn_set_int(L, "cache_pushes", (lua_Integer)s.cache_pushes);
	scn_set_int(L, "methods", (lua_Integer)s.methods);
	scn_set_int(L, "engine_methods", (lua_Integer)s.engine_methods);
	scn_set_int(L, "sw_methods", (lua_Integer)s.sw_methods);
	scn_set_int(L, "ramht_lookups", (lua_Integer)s.ramht_lookups);
	scn_set_int(L, "ramht_misses", (lua_Integer)s.ramht_misses);
	scn_set_int(L, "ctx_switches", (lua_Integer)s.ctx_switches);
	scn_set_int(L, "dma_pusher_errors", (lua_Integer)s.dma_pusher_errors);
	scn_set_int(L, "cache_errors", (lua_Integer)s.cache_errors);
	scn_set_int(L, "semaphore_errors", (lua_Integer)s.semaphore_errors);
	scn_set_int(L, "acquire_waits", (lua_Integer)s.acquire_waits);
	scn_set_int(L, "acquire_timeouts", (lua_Integer)s.acquire_timeouts);
	scn_set_int(L, "dma_pte_faults", (lua_Integer)s.dma_pte_faults);
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

static void ramin_bar_error(lua_State *L, nvm_status st, uint32_t addr)
{
	scn_rethrow(L);
	if (st == NVM_ERR_NOENT)
		scn_error(L, "this chip has no RAMIN BAR (nv03: BAR1 + 0xC00000; nv40, nv41)");
	if (st == NVM_ERR_RANGE)
		scn_error(L, "RAMIN BAR: 0x%x is beyond the aperture or VRAM", addr);
	if (st)
		scn_error(L, "RAMIN BAR: %s", nvm_status_str(st));
}

static int l_ramin_bar_read(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr = (uint32_t)scn_checkrange(L, 2, 0, NVM_PFIFO_RAMIN_BAR_SIZE - 4);
	uint8_t b[4] = { 0 };
	ramin_bar_error(L, nvm_pfifo_ramin_bar_read(gpu, addr, b, 4), addr);
	lua_pushinteger(
	        L, (lua_Integer)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24));
	return 1;
}

static int l_ramin_bar_write(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t addr = (uint32_t)scn_checkrange(L, 2, 0, NVM_PFIFO_RAMIN_BAR_SIZE - 4);
	uint32_t v = (uint32_t)scn_checkrange(L, 3, INT32_MIN, UINT32_MAX);
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
	ramin_bar_error(L, nvm_pfifo_ramin_bar_write(gpu, addr, b, 4), addr);
	return 0;
}

const luaL_Reg scn_pfifo_methods[] = {
	{ "pfifo_log", l_log },
	{ "pfifo_log_total", l_log_total },
	{ "pfifo_log_config", l_log_config },
	{ "pfifo_log_clear", l_log_clear },
	{ "pfifo_stats", l_stats },
	{ "pfifo_user_write", l_user_write },
	{ "pfifo_ramin_bar_read", l_ramin_bar_read },
	{ "pfifo_ramin_bar_write", l_ramin_bar_write },
	{ NULL, NULL },
};

/* nvmodel.pfifo_layout(chip [, large]): the chip's RAMFC layout as the model
 * saves and restores CACHE1 (nvm_pfifo_ramfc_layout). */
static int l_layout(lua_State *L)
{
	const char *chip = luaL_checkstring(L, 1);
	int large = lua_toboolean(L, 2);
	size_t n, n1;
	uint32_t size, size1;
	const nvm_ramfc_field *f = nvm_pfifo_ramfc_layout(chip, large, &n, &size);
	if (!f)
		scn_error(L, "pfifo_layout: chip '%s' has no PFIFO", chip);
	const nvm_ramfc_field *small = nvm_pfifo_ramfc_layout(chip, 0, &n1, &size1);
	const nvm_ramfc_field *big = nvm_pfifo_ramfc_layout(chip, 1, &n1, &size1);
	lua_createtable(L, 0, 4);
	scn_set_int(L, "channels", (lua_Integer)nvm_pfifo_channels(chip));
	scn_set_int(L, "ramfc_size", (lua_Integer)size);
	lua_pushboolean(L, small != big);
	lua_setfield(L, -2, "has_large");
	lua_createtable(L, 0, (int)n);
	for (size_t i = 0; i < n; i++) {
		lua_createtable(L, 0, 4);
		scn_set_int(L, "off", f[i].off);
		scn_set_int(L, "lo", f[i].ctx_lo);
		scn_set_int(L, "bits", f[i].bits);
		scn_set_int(L, "reg_lo", f[i].reg_lo);
		lua_setfield(L, -2, f[i].name);
	}
	lua_setfield(L, -2, "ramfc");
	return 1;
}

/* nvmodel.pfifo_ramht_context(chip, instance, engine, chid) */
static int l_ramht_context(lua_State *L)
{
	const char *chip = luaL_checkstring(L, 1);
	lua_Integer inst = luaL_checkinteger(L, 2), eng = luaL_checkinteger(L, 3), chid = luaL_checkinteger(L, 4);
	uint32_t ctx;
	if (inst < 0 || inst > 0xffffffff || eng < 0 || eng > 0xffff || chid < 0 || chid > 0xffff)
		scn_error(L, "pfifo_ramht_context: argument out of range");
	nvm_status st = nvm_pfifo_ramht_context(chip, (uint32_t)inst, (unsigned)eng, (uint32_t)chid, &ctx);
	if (st == NVM_ERR_CHIP)
		scn_error(L, "pfifo_ramht_context: chip '%s' has no PFIFO", chip);
	if (st)
		scn_error(L,
		          "pfifo_ramht_context: instance 0x%llx, engine %lld or channel %lld does not fit the context",
		          (unsigned long long)inst, (long long)eng, (long long)chid);
	lua_pushinteger(L, ctx);
	return 1;
}

const luaL_Reg scn_pfifo_funcs[] = {
	{ "pfifo_layout", l_layout },
	{ "pfifo_ramht_context", l_ramht_context },
	{ NULL, NULL },
};
