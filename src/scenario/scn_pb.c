/*
 * Pushbuffer assembly for scripts (docs/scenarios.md "Pushbuffers"):
 *
 *   nvmodel.pb_asm(text [, format [, name]])    -> bytes (little-endian dwords)
 *   nvmodel.pb_words(text [, format [, name]])  -> { dword, ... }
 *
 * The text is the `nvmodel pb asm` syntax (docs/pushbuf.md "Assembler
 * syntax"); format is "new" (default) or "old"; name is what errors call
 * the text ("pb_asm" unless given): `name:line: message`.
 */
#include <stdlib.h>

#include "nvmodel/pushbuf.h"
#include "scn_internal.h"

#define WORDS_MT "nvmodel.pb_words_box"

/* The assembler's output lives in malloc'd memory; a box owns it until it
 * is freed, so a Lua error while copying it out (memory limit) cannot leak it. */
struct words_box {
	uint32_t *words;
};

static int box_gc(lua_State *L)
{
	struct words_box *b = luaL_checkudata(L, 1, WORDS_MT);
	free(b->words);
	b->words = NULL;
	return 0;
}

/* Assembles argument 1; leaves a box at the top of the stack. */
static struct words_box *assemble(lua_State *L, size_t *n)
{
	static const char *const formats[] = { "new", "old", NULL };
	size_t len;
	const char *text = luaL_checklstring(L, 1, &len);
	nvm_pb_format f = luaL_checkoption(L, 2, "new", formats) ? NVM_PB_FORMAT_OLD : NVM_PB_FORMAT_NEW;
	const char *name = luaL_optstring(L, 3, "pb_asm");
	struct words_box *b = lua_newuserdatauv(L, sizeof(*b), 0);
	b->words = NULL;
	if (luaL_newmetatable(L, WORDS_MT)) {
		lua_pushcfunction(L, box_gc);
		lua_setfield(L, -2, "__gc");
	}
	lua_setmetatable(L, -2);
	nvm_pb_asm_result res;
	if (!nvm_pb_asm(text, len, f, &res))
		scn_error(L, "%s:%u: %s", name, res.line, res.msg);
	b->words = res.words;
	*n = res.n;
	return b;
}

static int l_pb_asm(lua_State *L)
{
	size_t n;
	struct words_box *b = assemble(L, &n);
	luaL_Buffer buf;
	unsigned char *p = (unsigned char *)luaL_buffinitsize(L, &buf, n * 4);
	for (size_t i = 0; i < n; i++) {
		uint32_t w = b->words[i];
		p[4 * i] = (unsigned char)w;
		p[4 * i + 1] = (unsigned char)(w >> 8);
		p[4 * i + 2] = (unsigned char)(w >> 16);
		p[4 * i + 3] = (unsigned char)(w >> 24);
	}
	luaL_pushresultsize(&buf, n * 4);
	free(b->words);
	b->words = NULL;
	return 1;
}

static int l_pb_words(lua_State *L)
{
	size_t n;
	struct words_box *b = assemble(L, &n);
	if (n > (size_t)INT32_MAX)
		return luaL_error(L, "pb_words: too many words");
	lua_createtable(L, (int)n, 0);
	for (size_t i = 0; i < n; i++) {
		lua_pushinteger(L, b->words[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	free(b->words);
	b->words = NULL;
	return 1;
}

const luaL_Reg scn_pb_funcs[] = {
	{ "pb_asm", l_pb_asm },
	{ "pb_words", l_pb_words },
	{ NULL, NULL },
};
