/*
** The arcade's fork of load, from Lua 5.4.4's lbaselib.c (luaB_load, generic_reader,
** load_aux). See include/CLuaLib.h for why the fork exists.
**
** Compiling a chunk is one call of lua_load, and a chunk of megabytes (or a reader function
** that keeps returning pieces) keeps the parser busy out of the time budget hook's reach.
** This version hands the parser a piece at a time and looks at the budget between pieces.
** It also differs on purpose: games may load text chunks only.
*/
#include "fork.h"

/* ===================================================================== */
/* load                                                                   */
/* ===================================================================== */

/* load(chunk [, chunkname [, mode [, env]]]) for games: text chunks only (a crafted binary
** chunk can crash the VM), and the chunk reaches the parser a piece at a time so that
** compiling a huge one looks at the budget between pieces. A reader function's pieces are
** cut up the same way. (Stock: luaB_load, with generic_reader and load_aux.) */

#define ARCADE_LOAD_PIECE 65536
#define ARCADE_LOAD_SLOT 5          /* keeps a reader function's latest piece alive */

typedef struct arcade_chunk_reader {
    const char *piece;      /* what is left of the current piece */
    size_t left;
    int function;           /* the chunk is a reader function (argument 1) */
    int stopped;            /* the budget ran out: the chunk was cut short */
} arcade_chunk_reader;

/* The lua_Reader: the next piece of the chunk, at most ARCADE_LOAD_PIECE bytes, and nothing
** more once the budget has run out. (Stock: generic_reader for a function; a string goes to
** the parser whole, through luaL_loadbufferx.) */
static const char *arcade_load_read(lua_State *L, void *data, size_t *size) {
    arcade_chunk_reader *r = (arcade_chunk_reader *)data;
    *size = 0;
    if (arcade_state_overdue(L)) {
        r->stopped = 1;
        return NULL;
    }
    if (r->left == 0 && r->function) {
        luaL_checkstack(L, 2, "too many nested functions");
        lua_pushvalue(L, 1);
        lua_call(L, 0, 1);
        if (lua_isnil(L, -1)) {
            lua_pop(L, 1);
            return NULL;
        }
        if (!lua_isstring(L, -1)) luaL_error(L, "reader function must return a string");
        lua_replace(L, ARCADE_LOAD_SLOT);
        r->piece = lua_tolstring(L, ARCADE_LOAD_SLOT, &r->left);
    }
    if (r->left == 0) return NULL;
    size_t n = r->left < ARCADE_LOAD_PIECE ? r->left : ARCADE_LOAD_PIECE;
    const char *p = r->piece;
    r->piece += n;
    r->left -= n;
    *size = n;
    return p;
}

/* load: Lua 5.4's luaB_load, forked for the budget, and with two deliberate differences:
**   - a mode without 't' ("b", or anything not a string) gives fail and a message of the
**     arcade's, before the chunk argument is looked at;
**   - a mode with 't' loads text only, so a binary chunk gives Lua's own "attempt to load a
**     binary chunk (mode is 't')" where the stock load with "bt" (its default) loads it.
** Otherwise the same results and messages, and env set as load_aux sets it. */
int arcade_load(lua_State *L) {
    if (!lua_isnoneornil(L, 3)) {   /* any mode that allows text loads text */
        size_t lm = 0;
        const char *mode = lua_type(L, 3) == LUA_TSTRING ? lua_tolstring(L, 3, &lm) : NULL;
        if (mode == NULL || memchr(mode, 't', lm) == NULL) {
            const char *shown = luaL_tolstring(L, 3, NULL);
            luaL_pushfail(L);
            lua_pushfstring(L, "load: only text chunks are allowed in games (mode '%s' refused)", shown);
            return 2;
        }
    }
    int env = lua_isnone(L, 4) ? 0 : 4;
    arcade_chunk_reader r;
    const char *name;
    r.stopped = 0;
    r.piece = lua_tolstring(L, 1, &r.left);
    r.function = r.piece == NULL;
    if (r.function) {
        name = luaL_optstring(L, 2, "=(load)");
        luaL_checktype(L, 1, LUA_TFUNCTION);
        r.left = 0;
    } else {
        name = luaL_optstring(L, 2, r.piece);
    }
    lua_settop(L, ARCADE_LOAD_SLOT);
    int status = lua_load(L, arcade_load_read, &r, name, "t");
    if (r.stopped || arcade_state_overdue(L)) return arcade_raise_budget(L);
    if (status != LUA_OK) {
        luaL_pushfail(L);
        lua_insert(L, -2);
        return 2;
    }
    if (env != 0) {
        lua_pushvalue(L, env);
        if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);   /* as 5.4: the first upvalue is _ENV */
    }
    return 1;
}

