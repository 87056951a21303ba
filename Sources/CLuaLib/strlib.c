/*
** The arcade's fork of string.rep and string.format, from Lua 5.4.4's lstrlib.c (str_rep,
** str_format). See include/CLuaLib.h for why the fork exists.
**
** Both can build a result of many megabytes in one call, out of the time budget hook's
** reach. rep is written anew, as a doubling copy that looks at the budget between chunks;
** format is Lua's own str_format (kept as an upvalue) except for quoting a long string for
** "%q", which goes in pieces with a look at the budget between them.
*/
#include "fork.h"

#define ARCADE_MAX_STRING ((size_t)INT_MAX)     /* the stock library's limit on a result (MAXSIZE) */
#define ARCADE_COPY_CHUNK ((size_t)1 << 20)     /* bytes copied between looks at the budget */

/* ===================================================================== */
/* string.rep                                                             */
/* ===================================================================== */

/* string.rep(s, n [, sep]): n copies of s with sep between them. Lua 5.4's str_rep, forked
** for the budget: the stock loop copies one piece at a time in one go (a gigabyte of
** pieces is seconds out of the hook's reach). Written as a doubling copy that looks at the
** budget every ARCADE_COPY_CHUNK bytes, so even a million one-byte pieces are a few large
** memcpy calls; "" repeated any number of times is "" at once (the stock loop would copy
** nothing 2^63 times). The same arguments, limits and messages as str_rep. */
int arcade_string_rep(lua_State *L) {
    size_t l, lsep;
    const char *s = luaL_checklstring(L, 1, &l);
    lua_Integer n = luaL_checkinteger(L, 2);
    const char *sep = luaL_optlstring(L, 3, "", &lsep);
    if (n <= 0 || (l == 0 && (lsep == 0 || n == 1))) {
        lua_pushliteral(L, "");
        return 1;
    }
    if (l + lsep < l || l + lsep > ARCADE_MAX_STRING / (size_t)n)
        return luaL_error(L, "resulting string too large");
    size_t total = (size_t)n * l + (size_t)(n - 1) * lsep;
    size_t unit = l + lsep;         /* the result is s..sep repeating, cut at total */
    arcade_work w;
    arcade_work_init(&w, L);
    luaL_Buffer b;
    char *out = luaL_buffinitsize(L, &b, total);
    size_t filled = l < total ? l : total;
    memcpy(out, s, filled);
    if (filled < total) {
        size_t k = lsep < total - filled ? lsep : total - filled;
        memcpy(out + filled, sep, k);
        filled += k;
    }
    while (filled < total) {
        /* out[i] = out[i mod unit]: copy from the same phase of the first period */
        size_t from = filled % unit;
        size_t k = total - filled;
        if (k > filled - from) k = filled - from;
        if (k > ARCADE_COPY_CHUNK) k = ARCADE_COPY_CHUNK;
        memcpy(out + filled, out + from, k);
        filled += k;
        arcade_work_add(&w, (long)(k >> 6));
    }
    luaL_pushresultsize(&b, total);     /* a copy of the whole result, in Lua 5.4.4 */
    arcade_work_done(&w);
    return 1;
}

/* ===================================================================== */
/* string.format                                                          */
/* ===================================================================== */

/* Lua's own format (upvalue 1) does everything, except quoting a long string for "%q",
** which it does a byte at a time in one go (a 16 MB string takes a few hundred ms). With
** such an argument the format is first checked by Lua's format with the long strings
** replaced by "" (so every error is Lua's own, with the same argument numbers), then built
** in parts: the text between the long "%q"s by Lua's format, each long string quoted by
** Lua's format 64 KB at a time, with a look at the budget between pieces. (Stock: the
** "%q" case of str_format, addliteral and addquoted.) */

#define ARCADE_QUOTE_PIECE (1 << 16)
#define ARCADE_FORMAT_SAVED "arcade.format.saved"

/* The next conversion of a format string from *at: its letter (0 at the end), with *start
** at its '%' and *at past it. "%%" is text. Flags, width and precision are skipped as Lua
** reads them; only a format Lua accepted is ever built from this. */
static inline int arcade_format_next(const char **at, const char *end, const char **start) {
    const char *p = *at;
    while (p < end) {
        if (*p++ != '%') continue;
        if (p < end && *p == '%') {
            p++;
            continue;
        }
        *start = p - 1;
        while (p < end && *p != '\0' && strchr("-+ #0123456789.", *p) != NULL) p++;
        if (p >= end) break;
        *at = p + 1;
        return (unsigned char)*p;
    }
    *at = end;
    return 0;
}

/* Whether argument i is a string long enough to be quoted in pieces. */
static inline int arcade_format_long_quote(lua_State *L, int i, int top) {
    return i <= top && lua_type(L, i) == LUA_TSTRING && lua_rawlen(L, i) > ARCADE_QUOTE_PIECE;
}

/* Adds Lua's format(fmt, args at first..last) to b. */
static inline void arcade_format_part(lua_State *L, luaL_Buffer *b, lua_CFunction lua_format,
                                      const char *fmt, size_t len, int first, int last) {
    luaL_checkstack(L, 3 + (last >= first ? last - first + 1 : 0), "too many arguments");
    lua_pushcfunction(L, lua_format);
    lua_pushlstring(L, fmt, len);
    for (int i = first; i <= last; i++) lua_pushvalue(L, i);
    lua_call(L, 1 + (last >= first ? last - first + 1 : 0), 1);
    luaL_addvalue(b);
}

/* Adds string argument i quoted as "%q" does, in pieces. A piece never ends between a
** control character and a digit, the one place where Lua's quoting looks ahead. */
static inline void arcade_format_quote(lua_State *L, luaL_Buffer *b, lua_CFunction lua_format, int i,
                                       arcade_work *w) {
    size_t len;
    const char *s = lua_tolstring(L, i, &len);
    luaL_addchar(b, '"');
    for (size_t at = 0; at < len;) {
        size_t end = len - at > ARCADE_QUOTE_PIECE ? at + ARCADE_QUOTE_PIECE : len;
        while (end < len && ((unsigned char)s[end - 1] < 32 || s[end - 1] == 127) &&
               (unsigned char)(s[end] - '0') < 10)
            end++;
        lua_pushcfunction(L, lua_format);
        lua_pushliteral(L, "%q");
        lua_pushlstring(L, s + at, end - at);
        lua_call(L, 2, 1);
        size_t quoted;
        const char *q = lua_tolstring(L, -1, &quoted);
        lua_pushlstring(L, q + 1, quoted - 2);      /* without its quotes */
        lua_remove(L, -2);
        luaL_addvalue(b);   /* the buffer grows only from the top of the stack */
        arcade_work_add(w, ARCADE_WORK_QUANTUM);
        at = end;
    }
    luaL_addchar(b, '"');
}

/* string.format(fmt, ...): Lua 5.4's str_format (upvalue 1) itself, forked only for a
** "%q" of a string longer than ARCADE_QUOTE_PIECE (see above). One deliberate difference:
** with such an argument the format runs twice over the other arguments, so a __tostring
** met by "%s" is called twice (its result is used once). */
static int arcade_string_format(lua_State *L) {
    lua_CFunction lua_format = lua_tocfunction(L, lua_upvalueindex(1));
    size_t lf;
    const char *f = lua_type(L, 1) == LUA_TSTRING ? lua_tolstring(L, 1, &lf) : NULL;
    int top = lua_gettop(L);
    int found = 0;
    if (f != NULL && memchr(f, 'q', lf) != NULL) {
        const char *at = f, *start;
        int c;
        for (int arg = 2; (c = arcade_format_next(&at, f + lf, &start)) != 0; arg++)
            if (c == 'q' && arcade_format_long_quote(L, arg, top)) found = 1;
    }
    if (!found) return lua_format(L);   /* the same call, so the same messages */

    /* 1: Lua's format checks it all, with each long string saved away and "" in its place */
    lua_createtable(L, 0, 0);
    const char *at = f, *start;
    int c;
    for (int arg = 2; (c = arcade_format_next(&at, f + lf, &start)) != 0; arg++) {
        if (c == 'q' && arcade_format_long_quote(L, arg, top)) {
            lua_pushvalue(L, arg);
            lua_rawseti(L, -2, arg);
            lua_pushliteral(L, "");
            lua_replace(L, arg);
        }
    }
    lua_setfield(L, LUA_REGISTRYINDEX, ARCADE_FORMAT_SAVED);
    lua_format(L);
    lua_settop(L, top);
    lua_getfield(L, LUA_REGISTRYINDEX, ARCADE_FORMAT_SAVED);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, ARCADE_FORMAT_SAVED);
    for (int arg = 2; arg <= top; arg++) {
        if (lua_rawgeti(L, top + 1, arg) == LUA_TSTRING) lua_replace(L, arg);
        else lua_pop(L, 1);
    }
    lua_pop(L, 1);

    /* 2: the result, in parts */
    arcade_work w;
    arcade_work_init(&w, L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    const char *part = f;
    int first = 2;
    at = f;
    for (int arg = 2; (c = arcade_format_next(&at, f + lf, &start)) != 0; arg++) {
        if (c == 'q' && arcade_format_long_quote(L, arg, top)) {
            arcade_format_part(L, &b, lua_format, part, (size_t)(start - part), first, arg - 1);
            arcade_format_quote(L, &b, lua_format, arg, &w);
            part = at;
            first = arg + 1;
        }
    }
    arcade_format_part(L, &b, lua_format, part, (size_t)(f + lf - part), first, top);
    luaL_pushresult(&b);
    arcade_work_done(&w);
    return 1;
}

/* Pushes Lua's string.format (the string table's, which must still be Lua's) wrapped as the
** arcade's. */
void arcade_push_format(lua_State *L) {
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_getfield(L, -1, "format");
    lua_pushcclosure(L, arcade_string_format, 1);
    lua_remove(L, -2);
}
