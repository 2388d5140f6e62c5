/*
 * Lua methods for HWSQ (docs/hwsq.md "Lua"). Uploads, entry points and
 * triggers go through the registers, as a driver does them; the state
 * query is the debugger view (it works while an FB pause holds MMIO).
 */
#include <string.h>

#include "nvmodel/hwsq.h"
#include "scn_internal.h"

#define HWSQ_ENTRY_POINT      0x1304u
#define HWSQ_TRIGGER          0x130cu
#define HWSQ_ENTRY_POINT_HIGH 0x1318u

static nvm_hwsq_variant check_variant(lua_State *L, nvm_gpu *gpu)
{
	nvm_hwsq_variant v;
	if (nvm_hwsq_gpu_variant(gpu, &v))
		luaL_error(L, "this chip (%s) has no HWSQ (nv17, nv40, nv41, g80, g84, g92, gt215 do)",
		           nvm_gpu_chip(gpu)->name);
	return v;
}

static void reg_wr(lua_State *L, nvm_gpu *gpu, uint32_t addr, uint32_t v)
{
	nvm_status st = nvm_reg_write(gpu, addr, v);
	if (st)
		scn_error(L, "write of 0x%x to 0x%x: %s", v, addr, nvm_status_str(st));
	scn_rethrow(L);
}

static uint32_t reg_rd(lua_State *L, nvm_gpu *gpu, uint32_t addr)
{
	uint32_t v = 0;
	nvm_status st = nvm_reg_read(gpu, addr, &v);
	if (st)
		scn_error(L, "read of 0x%x: %s", addr, nvm_status_str(st));
	scn_rethrow(L);
	return v;
}

/* gpu:hwsq_asm(source) -> binary string, for this GPU's variant, of any
 * length (as envyas); hwsq_upload refuses what does not fit the code RAM. */
static int l_hwsq_asm(lua_State *L)
{
	nvm_hwsq_variant v = check_variant(L, scn_checkgpu(L, 1));
	size_t len;
	const char *src = luaL_checklstring(L, 2, &len);
	size_t n;
	nvm_hwsq_asm_error err;
	nvm_status st = nvm_hwsq_assemble(v, src, len, NULL, 0, &n, &err);
	if (st == NVM_ERR_RANGE) {
		luaL_Buffer b;
		uint8_t *out = (uint8_t *)luaL_buffinitsize(L, &b, n);
		st = nvm_hwsq_assemble(v, src, len, out, n, &n, &err);
		if (st == NVM_OK) {
			luaL_pushresultsize(&b, n);
			return 1;
		}
	}
	if (st == NVM_OK) {
		lua_pushliteral(L, "");
		return 1;
	}
	return luaL_error(L, "hwsq_asm: line %d: %s", err.line, err.message);
}

/* gpu:hwsq_upload(bytes [, offset]): little-endian words through the code
 * window at 0x1400 (0x80000 beyond 0x100 on G92). */
static int l_hwsq_upload(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t size = nvm_hwsq_code_size(check_variant(L, gpu));
	size_t len;
	const char *code = luaL_checklstring(L, 2, &len);
	uint32_t off = lua_isnoneornil(L, 3) ? 0 : (uint32_t)scn_checkrange(L, 3, 0, size);
	if (off & 3)
		return scn_error(L, "hwsq_upload: offset 0x%x is not word aligned", off);
	if (len > size - off)
		return scn_error(L, "hwsq_upload: %zu (0x%zx) bytes at 0x%x do not fit the %s code RAM (0x%x bytes)",
		                 len, len, off, nvm_hwsq_variant_name(check_variant(L, gpu)), size);
	for (size_t i = 0; i < len; i += 4) {
		uint32_t w = 0;
		for (size_t k = 0; k < 4 && i + k < len; k++)
			w |= (uint32_t)(uint8_t)code[i + k] << (8 * k);
		uint32_t a = off + (uint32_t)i;
		if (len - i < 4) /* keep the bytes past the end of the code */
			w |= reg_rd(L, gpu, a < 0x100 ? 0x1400 + a : 0x80000 + a) &
			     ~(0xffffffffu >> (8 * (4 - (len - i))));
		reg_wr(L, gpu, a < 0x100 ? 0x1400 + a : 0x80000 + a, w);
	}
	return 0;
}

/* gpu:hwsq_entry(n, addr): ENTRY_POINT byte n (and ENTRY_POINT_HIGH bit). */
static int l_hwsq_entry(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	uint32_t size = nvm_hwsq_code_size(check_variant(L, gpu));
	unsigned n = (unsigned)scn_checkrange(L, 2, 0, 3);
	uint32_t addr = (uint32_t)scn_checkrange(L, 3, 0, size - 1);
	uint32_t ep = reg_rd(L, gpu, HWSQ_ENTRY_POINT);
	ep = (ep & ~(0xffu << (8 * n))) | ((addr & 0xffu) << (8 * n));
	reg_wr(L, gpu, HWSQ_ENTRY_POINT, ep);
	if (size > 0x100) {
		uint32_t hi = reg_rd(L, gpu, HWSQ_ENTRY_POINT_HIGH);
		hi = (hi & ~(1u << (8 * n))) | ((addr >> 8) << (8 * n));
		reg_wr(L, gpu, HWSQ_ENTRY_POINT_HIGH, hi);
	}
	return 0;
}

static uint32_t slot_bit(lua_State *L, int idx)
{
	const char *s = luaL_optstring(L, idx, "A");
	if (!strcmp(s, "A") || !strcmp(s, "a"))
		return 2;
	if (!strcmp(s, "B") || !strcmp(s, "b"))
		return 0;
	return (uint32_t)luaL_error(L, "bad slot '%s' (\"A\" or \"B\")", s);
}

/* gpu:hwsq_start(entry [, slot]) / gpu:hwsq_abort([slot]): TRIGGER writes. */
static int l_hwsq_start(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	check_variant(L, gpu);
	unsigned e = (unsigned)scn_checkrange(L, 2, 0, 3);
	reg_wr(L, gpu, HWSQ_TRIGGER, 1u | slot_bit(L, 3) | (e << 2));
	return 0;
}

static int l_hwsq_abort(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	check_variant(L, gpu);
	reg_wr(L, gpu, HWSQ_TRIGGER, slot_bit(L, 2));
	return 0;
}

/* gpu:hwsq_event(n, level): drive event input n (1-31). */
static int l_hwsq_event(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	check_variant(L, gpu);
	unsigned n = (unsigned)scn_checkrange(L, 2, 1, 31);
	int level = lua_isboolean(L, 3) ? lua_toboolean(L, 3) : (int)scn_checkrange(L, 3, 0, 1);
	nvm_hwsq_set_event(gpu, n, level);
	scn_rethrow(L);
	return 0;
}

static void set_slot(lua_State *L, const nvm_hwsq_slot_state *s, const char *name)
{
	lua_createtable(L, 0, 5);
	lua_pushinteger(L, s->ip);
	lua_setfield(L, -2, "ip");
	lua_pushboolean(L, s->executing);
	lua_setfield(L, -2, "executing");
	lua_pushboolean(L, s->illegal);
	lua_setfield(L, -2, "illegal");
	lua_pushinteger(L, s->addr);
	lua_setfield(L, -2, "addr");
	lua_pushinteger(L, s->data);
	lua_setfield(L, -2, "data");
	scn_record(L);
	lua_setfield(L, -2, name);
}

/* gpu:hwsq_state() -> { status, a = {ip, executing, illegal, addr, data},
 * b = {...} (two-slot variants), flags = {[0..31] = "unset"|"set0"|"set1"},
 * events, fb_pause, fb_paused, instructions, variant } */
static int l_hwsq_state(lua_State *L)
{
	nvm_gpu *gpu = scn_checkgpu(L, 1);
	check_variant(L, gpu);
	nvm_hwsq_state st;
	nvm_hwsq_get_state(gpu, &st);
	static const char *const names[] = { "unset", "set0", "set1" };
	lua_createtable(L, 0, 10);
	lua_pushstring(L, nvm_hwsq_variant_name(st.variant));
	lua_setfield(L, -2, "variant");
	lua_pushinteger(L, st.status);
	lua_setfield(L, -2, "status");
	set_slot(L, &st.slot[0], "a");
	if (st.nslots > 1)
		set_slot(L, &st.slot[1], "b");
	lua_createtable(L, 32, 0);
	for (unsigned f = 0; f < 32; f++) {
		lua_pushstring(L, names[nvm_hwsq_flag(&st, f)]);
		lua_rawseti(L, -2, f);
	}
	scn_record(L); /* key 0 is in the hash part */
	lua_setfield(L, -2, "flags");
	lua_pushinteger(L, st.events);
	lua_setfield(L, -2, "events");
	lua_pushboolean(L, st.fb_pause);
	lua_setfield(L, -2, "fb_pause");
	lua_pushboolean(L, st.fb_paused);
	lua_setfield(L, -2, "fb_paused");
	lua_pushinteger(L, (lua_Integer)st.instructions);
	lua_setfield(L, -2, "instructions");
	scn_record(L);
	return 1;
}

/* gpu:hwsq_dis(bytes) -> text, one instruction a line (quiet form). */
static int l_hwsq_dis(lua_State *L)
{
	nvm_hwsq_variant v = check_variant(L, scn_checkgpu(L, 1));
	size_t len;
	const uint8_t *code = (const uint8_t *)luaL_checklstring(L, 2, &len);
	nvm_hwsq_dis *d = lua_newuserdatauv(L, sizeof(*d), 0);
	nvm_hwsq_dis_init(d, v, 1);
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (size_t pos = 0; pos < len;) {
		char line[NVM_HWSQ_LINE_MAX];
		size_t n = nvm_hwsq_dis_next(d, code, len, &pos, line);
		luaL_addlstring(&b, line, n);
	}
	luaL_pushresult(&b);
	return 1;
}

const luaL_Reg scn_hwsq_methods[] = {
	{ "hwsq_asm", l_hwsq_asm },     { "hwsq_upload", l_hwsq_upload }, { "hwsq_entry", l_hwsq_entry },
	{ "hwsq_start", l_hwsq_start }, { "hwsq_abort", l_hwsq_abort },   { "hwsq_event", l_hwsq_event },
	{ "hwsq_state", l_hwsq_state }, { "hwsq_dis", l_hwsq_dis },       { NULL, NULL },
};
