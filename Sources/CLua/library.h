/*
** The arcade's versions of the standard library functions that can work for a long time
** in one call, out of the time budget hook's reach: string.rep, string.format's "%q" of a
** long string, the table functions that walk ranges (concat, insert, move, remove, sort,
** unpack), utf8.len and utf8.offset, and load (the parser). Each keeps Lua 5.4's
** behaviour, results and messages, and counts its work (arcade_work) so that it stops
** with the budget error once its callback is overdue.
**
** Included by shim.h after the time budget section and patterns.h.
*/
#ifndef ARCADE_CLUA_LIBRARY_H
#define ARCADE_CLUA_LIBRARY_H

#define ARCADE_MAX_STRING ((size_t)INT_MAX)     /* the stock library's limit on a result */
#define ARCADE_COPY_CHUNK ((size_t)1 << 20)     /* bytes copied between looks at the budget */
#define ARCADE_ELEMENT_WORK 8                   /* units for one table element read or written */

/* ===================================================================== */
/* string.rep                                                             */
/* ===================================================================== */

/* rep(s, n [, sep]): n copies of s with sep between them. Written as a doubling copy, so
** even a million one-byte pieces are a few large memcpy calls; "" repeated any number of
** times is "" at once (the stock loop would copy nothing 2^63 times). */
static inline int arcade_string_rep(lua_State *L) {
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
** Lua's format 64 KB at a time, with a look at the budget between pieces. (A __tostring
** for a "%s" in such a format so runs twice.) */

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

static inline int arcade_string_format(lua_State *L) {
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

/* ===================================================================== */
/* table                                                                  */
/* ===================================================================== */

/* As the stock library: anything that is not a table is accepted when its metatable has
** what the function uses (__index to read, __newindex to write, __len for the length). */
static inline void arcade_table_check(lua_State *L, int arg, int read, int write, int length) {
    if (lua_type(L, arg) == LUA_TTABLE) return;
    int top = lua_gettop(L);
    int ok = lua_getmetatable(L, arg);
    if (ok && read) {
        lua_pushliteral(L, "__index");
        ok = lua_rawget(L, top + 1) != LUA_TNIL;
    }
    if (ok && write) {
        lua_pushliteral(L, "__newindex");
        ok = lua_rawget(L, top + 1) != LUA_TNIL;
    }
    if (ok && length) {
        lua_pushliteral(L, "__len");
        ok = lua_rawget(L, top + 1) != LUA_TNIL;
    }
    lua_settop(L, top);
    if (!ok) luaL_checktype(L, arg, LUA_TTABLE);    /* raises "table expected" */
}

/* The length of the table argument 1, checked for read (and write) access. */
static inline lua_Integer arcade_table_length(lua_State *L, int write) {
    arcade_table_check(L, 1, 1, write, 1);
    return luaL_len(L, 1);
}

/* insert(t, [pos,] value) */
static inline int arcade_table_insert(lua_State *L) {
    lua_Integer end = arcade_table_length(L, 1);
    lua_Integer first_empty = (lua_Integer)((lua_Unsigned)end + 1u);
    lua_Integer pos;
    switch (lua_gettop(L)) {
    case 2:
        pos = first_empty;
        break;
    case 3: {
        pos = luaL_checkinteger(L, 2);
        /* pos in [1, first_empty], with the subtraction done unsigned so nothing overflows */
        luaL_argcheck(L, (lua_Unsigned)pos - 1u < (lua_Unsigned)first_empty, 2, "position out of bounds");
        arcade_work w;
        arcade_work_init(&w, L);
        for (lua_Integer i = first_empty; i > pos; i--) {     /* shift up to make room */
            lua_geti(L, 1, i - 1);
            lua_seti(L, 1, i);
            arcade_work_add(&w, 2 * ARCADE_ELEMENT_WORK);
        }
        arcade_work_done(&w);
        break;
    }
    default:
        return luaL_error(L, "wrong number of arguments to 'insert'");
    }
    lua_seti(L, 1, pos);
    return 0;
}

/* remove(t [, pos]) */
static inline int arcade_table_remove(lua_State *L) {
    lua_Integer size = arcade_table_length(L, 1);
    lua_Integer pos = luaL_optinteger(L, 2, size);
    if (pos != size)    /* pos in [1, size + 1]; Lua 5.4.4 names argument 1 here */
        luaL_argcheck(L, (lua_Unsigned)pos - 1u <= (lua_Unsigned)size, 1, "position out of bounds");
    lua_geti(L, 1, pos);    /* the result */
    arcade_work w;
    arcade_work_init(&w, L);
    for (; pos < size; pos++) {     /* shift down over the gap */
        lua_geti(L, 1, pos + 1);
        lua_seti(L, 1, pos);
        arcade_work_add(&w, 2 * ARCADE_ELEMENT_WORK);
    }
    arcade_work_done(&w);
    lua_pushnil(L);
    lua_seti(L, 1, pos);
    return 1;
}

/* move(a1, f, e, t [, a2]): a2[t..] = a1[f..e] */
static inline int arcade_table_move(lua_State *L) {
    lua_Integer f = luaL_checkinteger(L, 2);
    lua_Integer e = luaL_checkinteger(L, 3);
    lua_Integer t = luaL_checkinteger(L, 4);
    int dest = lua_isnoneornil(L, 5) ? 1 : 5;
    arcade_table_check(L, 1, 1, 0, 0);
    arcade_table_check(L, dest, 0, 1, 0);
    if (e >= f) {
        luaL_argcheck(L, f > 0 || e < LUA_MAXINTEGER + f, 3, "too many elements to move");
        lua_Integer n = e - f + 1;
        luaL_argcheck(L, t <= LUA_MAXINTEGER - n + 1, 4, "destination wrap around");
        arcade_work w;
        arcade_work_init(&w, L);
        /* forwards unless the ranges overlap with the destination further on */
        int forwards = t > e || t <= f || (dest != 1 && !lua_compare(L, 1, dest, LUA_OPEQ));
        for (lua_Integer k = 0; k < n; k++) {
            lua_Integer i = forwards ? k : n - 1 - k;
            lua_geti(L, 1, f + i);
            lua_seti(L, dest, t + i);
            arcade_work_add(&w, 2 * ARCADE_ELEMENT_WORK);
        }
        arcade_work_done(&w);
    }
    lua_pushvalue(L, dest);
    return 1;
}

/* Adds the number on top of the stack to b as Lua's tostring writes it (LUA_INTEGER_FMT,
** or LUA_NUMBER_FMT with ".0" after a float that looks like an integer), and pops it.
** Stock concat converts the number where it sits on the stack, which makes a new string
** for every number: a million of them a pass over a table of a million numbers, enough
** garbage to push the heap to its cap and into a full collection nothing can interrupt. */
static inline void arcade_add_number(lua_State *L, luaL_Buffer *b) {
    char text[64];
    int len;
    if (lua_isinteger(L, -1)) {
        len = snprintf(text, sizeof text, LUA_INTEGER_FMT, (LUAI_UACINT)lua_tointeger(L, -1));
    } else {
        len = snprintf(text, sizeof text, LUA_NUMBER_FMT, (LUAI_UACNUMBER)lua_tonumber(L, -1));
        if (len > 0 && len < (int)sizeof text - 2 && text[strspn(text, "-0123456789")] == '\0') {
            text[len++] = lua_getlocaledecpoint();
            text[len++] = '0';
        }
    }
    lua_pop(L, 1);
    luaL_addlstring(b, text, len > 0 ? (size_t)len : 0);
}

/* concat(t [, sep [, i [, j]]]) */
static inline int arcade_table_concat(lua_State *L) {
    lua_Integer last = arcade_table_length(L, 0);
    size_t lsep;
    const char *sep = luaL_optlstring(L, 2, "", &lsep);
    lua_Integer i = luaL_optinteger(L, 3, 1);
    last = luaL_optinteger(L, 4, last);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    arcade_work w;
    arcade_work_init(&w, L);
    for (; i <= last; i++) {
        lua_geti(L, 1, i);
        if (!lua_isstring(L, -1))
            return luaL_error(L, "invalid value (%s) at index %I in table for 'concat'",
                              luaL_typename(L, -1), (LUAI_UACINT)i);
        size_t len;
        if (lua_type(L, -1) == LUA_TNUMBER) {
            len = 24;   /* about what a number takes, for the work count */
            arcade_add_number(L, &b);
        } else {
            lua_tolstring(L, -1, &len);
            luaL_addvalue(&b);
        }
        if (i == last) break;   /* before i++ can overflow at maxinteger */
        luaL_addlstring(&b, sep, lsep);
        arcade_work_add(&w, ARCADE_ELEMENT_WORK + (long)((len + lsep) >> 6));
    }
    luaL_pushresult(&b);
    arcade_work_done(&w);
    return 1;
}

/* unpack(t [, i [, j]]) */
static inline int arcade_table_unpack(lua_State *L) {
    lua_Integer i = luaL_optinteger(L, 2, 1);
    lua_Integer e = lua_isnoneornil(L, 3) ? luaL_len(L, 1) : luaL_checkinteger(L, 3);
    if (i > e) return 0;
    lua_Unsigned n = (lua_Unsigned)e - (lua_Unsigned)i;     /* one less than the count */
    if (n >= (unsigned int)INT_MAX || !lua_checkstack(L, (int)(++n)))
        return luaL_error(L, "too many results to unpack");
    arcade_work w;
    arcade_work_init(&w, L);
    for (; i < e; i++) {
        lua_geti(L, 1, i);
        arcade_work_add(&w, ARCADE_ELEMENT_WORK);
    }
    lua_geti(L, 1, e);
    arcade_work_done(&w);
    return (int)n;
}

/* sort(t [, less]): quicksort in place through lua_geti / lua_seti (metamethods apply),
** median-of-three pivots, the smaller side first so the C stack stays shallow. Equal
** elements may end in any order, as in Lua; this order is the same on every run. */
typedef struct arcade_sorter {
    lua_State *L;
    int custom;             /* a comparison function at index 2 */
    arcade_work work;
} arcade_sorter;

/* Whether the value at stack index a sorts before the one at b. */
static inline int arcade_sort_less(arcade_sorter *st, int a, int b) {
    lua_State *L = st->L;
    arcade_work_add(&st->work, ARCADE_ELEMENT_WORK);
    if (!st->custom) return lua_compare(L, a, b, LUA_OPLT);
    lua_pushvalue(L, 2);
    lua_pushvalue(L, a);
    lua_pushvalue(L, b);
    lua_call(L, 2, 1);
    int less = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return less;
}

/* Puts t[i] and t[j] in order. */
static inline void arcade_sort_order(arcade_sorter *st, lua_Integer i, lua_Integer j) {
    lua_State *L = st->L;
    lua_geti(L, 1, i);
    lua_geti(L, 1, j);
    int top = lua_gettop(L);
    if (arcade_sort_less(st, top, top - 1)) {
        lua_seti(L, 1, i);      /* t[i] = old t[j] */
        lua_seti(L, 1, j);      /* t[j] = old t[i] */
    } else {
        lua_pop(L, 2);
    }
}

static inline void arcade_sort_range(arcade_sorter *st, lua_Integer lo, lua_Integer hi) {
    lua_State *L = st->L;
    while (lo < hi) {
        lua_Integer mid = lo + (hi - lo) / 2;
        /* t[lo] <= t[mid] <= t[hi]: the ends stop the scans below */
        arcade_sort_order(st, lo, hi);
        if (hi - lo == 1) return;
        arcade_sort_order(st, lo, mid);
        arcade_sort_order(st, mid, hi);
        if (hi - lo == 2) return;
        /* the pivot waits at hi - 1 while the rest is split around it */
        lua_geti(L, 1, mid);
        int pivot = lua_gettop(L);
        lua_geti(L, 1, hi - 1);
        lua_seti(L, 1, mid);
        lua_pushvalue(L, pivot);
        lua_seti(L, 1, hi - 1);
        lua_Integer i = lo, j = hi - 1;
        for (;;) {
            /* up to an element not less than the pivot (at the latest the pivot itself) */
            for (;;) {
                lua_geti(L, 1, ++i);
                if (!arcade_sort_less(st, pivot + 1, pivot)) break;
                if (i >= hi - 1) luaL_error(L, "invalid order function for sorting");
                lua_pop(L, 1);
            }
            /* down to an element the pivot is not less than (at the latest t[lo]) */
            for (;;) {
                lua_geti(L, 1, --j);
                if (!arcade_sort_less(st, pivot, pivot + 2)) break;
                if (j <= lo) luaL_error(L, "invalid order function for sorting");
                lua_pop(L, 1);
            }
            if (j < i) {
                lua_pop(L, 2);
                break;
            }
            lua_seti(L, 1, i);      /* t[i] = old t[j] */
            lua_seti(L, 1, j);      /* t[j] = old t[i] */
        }
        /* the pivot into its place at i */
        lua_geti(L, 1, i);
        lua_seti(L, 1, hi - 1);
        lua_seti(L, 1, i);          /* pops the pivot */
        if (i - lo < hi - i) {
            arcade_sort_range(st, lo, i - 1);
            lo = i + 1;
        } else {
            arcade_sort_range(st, i + 1, hi);
            hi = i - 1;
        }
    }
}

static inline int arcade_table_sort(lua_State *L) {
    lua_Integer n = arcade_table_length(L, 1);
    if (n > 1) {
        luaL_argcheck(L, n < INT_MAX, 1, "array too big");
        if (!lua_isnoneornil(L, 2)) luaL_checktype(L, 2, LUA_TFUNCTION);
        lua_settop(L, 2);
        luaL_checkstack(L, 8, "sort");
        arcade_sorter st;
        st.L = L;
        st.custom = !lua_isnil(L, 2);
        arcade_work_init(&st.work, L);
        arcade_sort_range(&st, 1, n);
        arcade_work_done(&st.work);
    }
    return 0;
}

/* ===================================================================== */
/* utf8.len, utf8.offset                                                  */
/* ===================================================================== */

/* The end of the UTF-8 sequence at s, or NULL when it is not one: Lua 5.4's rules, up to
** six bytes (code points below 2^31), no overlong forms; strict also refuses surrogates
** and anything past U+10FFFF. Reads past the end stop at the string's closing '\0'. */
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

/* A 0-based offset from a utf8 function's position argument; may be negative (out of range). */
static inline lua_Integer arcade_utf8_position(lua_Integer pos, size_t len) {
    if (pos >= 0) return pos;
    if (0u - (size_t)pos > len) return 0;
    return (lua_Integer)len + pos + 1;
}

static inline int arcade_utf8_is_continuation(const char *p) { return ((unsigned char)*p & 0xC0) == 0x80; }

/* len(s [, i [, j [, lax]]]) */
static inline int arcade_utf8_len(lua_State *L) {
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

/* offset(s, n [, i]) */
static inline int arcade_utf8_offset(lua_State *L) {
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

/* ===================================================================== */
/* load                                                                   */
/* ===================================================================== */

/* load(chunk [, chunkname [, mode [, env]]]) for games: text chunks only (a crafted binary
** chunk can crash the VM), and the chunk reaches the parser a piece at a time so that
** compiling a huge one looks at the budget between pieces. A reader function's pieces are
** cut up the same way. */

#define ARCADE_LOAD_PIECE 65536
#define ARCADE_LOAD_SLOT 5          /* keeps a reader function's latest piece alive */

typedef struct arcade_chunk_reader {
    const char *piece;      /* what is left of the current piece */
    size_t left;
    int function;           /* the chunk is a reader function (argument 1) */
    int stopped;            /* the budget ran out: the chunk was cut short */
} arcade_chunk_reader;

static inline const char *arcade_load_read(lua_State *L, void *data, size_t *size) {
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

static inline int arcade_load(lua_State *L) {
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

/* ===================================================================== */
/* Installing them                                                        */
/* ===================================================================== */

static const luaL_Reg arcade_string_functions[] = {
    {"find", arcade_string_find}, {"match", arcade_string_match}, {"gmatch", arcade_string_gmatch},
    {"gsub", arcade_string_gsub}, {"rep", arcade_string_rep}, {NULL, NULL}};
static const luaL_Reg arcade_table_functions[] = {
    {"concat", arcade_table_concat}, {"insert", arcade_table_insert}, {"move", arcade_table_move},
    {"remove", arcade_table_remove}, {"sort", arcade_table_sort}, {"unpack", arcade_table_unpack}, {NULL, NULL}};
static const luaL_Reg arcade_utf8_functions[] = {
    {"len", arcade_utf8_len}, {"offset", arcade_utf8_offset}, {NULL, NULL}};

/* Pushes Lua's string.format wrapped as the arcade's (see arcade_string_format). */
static inline void arcade_push_format(lua_State *L) {
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_getfield(L, -1, "format");
    lua_pushcclosure(L, arcade_string_format, 1);
    lua_remove(L, -2);
}

/* Pushes { string = {...}, table = {...}, utf8 = {...}, load = f }: the arcade's versions,
** for a test to compare with the stock ones (which must still be in place). */
static inline void arcade_push_library(lua_State *L) {
    lua_createtable(L, 0, 4);
    luaL_newlib(L, arcade_string_functions);
    arcade_push_format(L);
    lua_setfield(L, -2, "format");
    lua_setfield(L, -2, LUA_STRLIBNAME);
    luaL_newlib(L, arcade_table_functions);
    lua_setfield(L, -2, LUA_TABLIBNAME);
    luaL_newlib(L, arcade_utf8_functions);
    lua_setfield(L, -2, LUA_UTF8LIBNAME);
    lua_pushcfunction(L, arcade_load);
    lua_setfield(L, -2, "load");
}

/* Puts the arcade's versions into the string, table and utf8 tables (the string
** metatable's __index is the string table, so s:find and the like get them too), and load. */
static inline void arcade_install_library(lua_State *L) {
    arcade_push_format(L);
    lua_getglobal(L, LUA_STRLIBNAME);
    lua_insert(L, -2);
    lua_setfield(L, -2, "format");
    luaL_setfuncs(L, arcade_string_functions, 0);
    lua_getglobal(L, LUA_TABLIBNAME);
    luaL_setfuncs(L, arcade_table_functions, 0);
    lua_getglobal(L, LUA_UTF8LIBNAME);
    luaL_setfuncs(L, arcade_utf8_functions, 0);
    lua_pop(L, 3);
    lua_pushcfunction(L, arcade_load);
    lua_setglobal(L, "load");
}

#endif
