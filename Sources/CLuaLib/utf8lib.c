/*
** The arcade's fork of utf8.len and utf8.offset, from Lua 5.4.4's lutf8lib.c (utflen,
** byteoffset, with utf8_decode and u_posrelat under them). See include/CLuaLib.h for why
** the fork exists.
**
** Both walk a string a character at a time in one call, and a string can be megabytes
** long, out of the time budget hook's reach. These versions count one unit of work per
** character (or byte stepped over) and otherwise keep Lua's results and messages.
*/
#include "fork.h"

/* ===================================================================== */
/* utf8.len, utf8.offset                                                  */
/* ===================================================================== */

/* The end of the UTF-8 sequence at s, or NULL when it is not one: Lua 5.4's rules, up to
** six bytes (code points below 2^31), no overlong forms; strict also refuses surrogates
** and anything past U+10FFFF. Reads past the end stop at the string's closing '\0'.
** (Stock: utf8_decode, without the code point, which neither function needs.) */
static inline const char *arcade_utf8_next(const char *s, int strict) {
    unsigned c = (unsigned char)s[0];
    if (c < 0x80) return s + 1;
    int extra;
    unsigned long code, least;
    if (c < 0xC0) return NULL;                  /* a continuation byte cannot start one */
    else if (c < 0xE0) { extra = 1; code = c & 0x1F; least = 0x80; }
    else if (c < 0xF0) { extra = 2; code = c & 0x0F; least = 0x800; }
    else if (c < 0xF8) { extra = 3; code = c & 0x07; least = 0x10000; }
    else if (c < 0xFC) { extra = 4; code = c & 0x03; least = 0x200000; }
    else if (c < 0xFE) { extra = 5; code = c & 0x01; least = 0x4000000; }
    else return NULL;
    for (int k = 1; k <= extra; k++) {
        unsigned cc = (unsigned char)s[k];
        if ((cc & 0xC0) != 0x80) return NULL;
        code = (code << 6) | (cc & 0x3F);
    }
    if (code < least) return NULL;
    if (strict && (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))) return NULL;
    return s + extra + 1;
}

/* A 0-based offset from a utf8 function's position argument; may be negative (out of range).
** (Stock: u_posrelat.) */
static inline lua_Integer arcade_utf8_position(lua_Integer pos, size_t len) {
    if (pos >= 0) return pos;
    if (0u - (size_t)pos > len) return 0;
    return (lua_Integer)len + pos + 1;
}

static inline int arcade_utf8_is_continuation(const char *p) { return ((unsigned char)*p & 0xC0) == 0x80; }

/* utf8.len(s [, i [, j [, lax]]]): Lua 5.4's utflen, forked for the budget. */
int arcade_utf8_len(lua_State *L) {
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer i = arcade_utf8_position(luaL_optinteger(L, 2, 1), len);
    lua_Integer j = arcade_utf8_position(luaL_optinteger(L, 3, -1), len);
    int strict = !lua_toboolean(L, 4);
    luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 2, "initial position out of bounds");
    luaL_argcheck(L, --j < (lua_Integer)len, 3, "final position out of bounds");
    arcade_work w;
    arcade_work_init(&w, L);
    lua_Integer count = 0;
    while (i <= j) {
        const char *next = arcade_utf8_next(s + i, strict);
        if (next == NULL) {
            luaL_pushfail(L);
            lua_pushinteger(L, i + 1);
            return 2;
        }
        i = next - s;
        count++;
        arcade_work_add(&w, 1);
    }
    arcade_work_done(&w);
    lua_pushinteger(L, count);
    return 1;
}

/* utf8.offset(s, n [, i]): Lua 5.4's byteoffset, forked for the budget. */
int arcade_utf8_offset(lua_State *L) {
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    lua_Integer n = luaL_checkinteger(L, 2);
    lua_Integer i = arcade_utf8_position(luaL_optinteger(L, 3, n >= 0 ? 1 : (lua_Integer)len + 1), len);
    luaL_argcheck(L, 1 <= i && --i <= (lua_Integer)len, 3, "position out of bounds");
    arcade_work w;
    arcade_work_init(&w, L);
    if (n == 0) {       /* the start of the character holding byte i */
        while (i > 0 && arcade_utf8_is_continuation(s + i)) {
            i--;
            arcade_work_add(&w, 1);
        }
    } else {
        if (arcade_utf8_is_continuation(s + i)) return luaL_error(L, "initial position is a continuation byte");
        if (n < 0) {
            for (; n < 0 && i > 0; n++) {   /* back to the start of the character before */
                do {
                    i--;
                    arcade_work_add(&w, 1);
                } while (i > 0 && arcade_utf8_is_continuation(s + i));
            }
        } else {
            for (n--; n > 0 && i < (lua_Integer)len; n--) {     /* the first character is at i */
                do {
                    i++;
                    arcade_work_add(&w, 1);
                } while (arcade_utf8_is_continuation(s + i));   /* the closing '\0' stops it */
            }
        }
    }
    arcade_work_done(&w);
    if (n == 0) lua_pushinteger(L, i + 1);
    else luaL_pushfail(L);
    return 1;
}

