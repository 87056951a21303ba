/*
** The arcade's fork of table.concat, insert, remove, move, unpack and sort, from Lua 5.4.4's
** ltablib.c (tconcat, tinsert, tremove, tmove, tunpack, sort). See include/CLuaLib.h for
** why the fork exists.
**
** Each of them walks a range of the table in one call, and the range can be millions of
** elements long (or, for insert and remove, as long as the table), out of the time budget
** hook's reach. These versions count their work, ARCADE_ELEMENT_WORK units for each element
** read or written, and so look at the budget every couple of thousand elements. Otherwise
** they are Lua's: the same argument checks, metamethods (__index, __newindex, __len, and
** __lt through lua_compare) and messages. table.sort differs on purpose: see its comment.
*/
#include "fork.h"

#define ARCADE_ELEMENT_WORK 8                   /* units for one table element read or written */

/* ===================================================================== */
/* table                                                                  */
/* ===================================================================== */

/* As the stock library: anything that is not a table is accepted when its metatable has
** what the function uses (__index to read, __newindex to write, __len for the length).
** (Stock: checktab.) */
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

/* The length of the table argument 1, checked for read (and write) access. (Stock: aux_getn.) */
static inline lua_Integer arcade_table_length(lua_State *L, int write) {
    arcade_table_check(L, 1, 1, write, 1);
    return luaL_len(L, 1);
}

/* table.insert(t, [pos,] value): Lua 5.4's tinsert, forked for the budget (moving the
** elements up from pos counts its work). */
int arcade_table_insert(lua_State *L) {
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

/* table.remove(t [, pos]): Lua 5.4's tremove, forked for the budget (moving the elements
** down over pos counts its work). */
int arcade_table_remove(lua_State *L) {
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

/* table.move(a1, f, e, t [, a2]): a2[t..] = a1[f..e]. Lua 5.4's tmove, forked for the
** budget (table.move({}, 1, 1e9, 2) is a billion reads and writes in one call). */
int arcade_table_move(lua_State *L) {
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

/* table.concat(t [, sep [, i [, j]]]): Lua 5.4's tconcat (with addfield), forked for the
** budget, and numbers written by arcade_add_number (the same text, without the garbage). */
int arcade_table_concat(lua_State *L) {
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

/* table.unpack(t [, i [, j]]): Lua 5.4's tunpack, forked for the budget (up to a million
** results or so, as far as lua_checkstack lets the Lua stack grow). */
int arcade_table_unpack(lua_State *L) {
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

/* table.sort(t [, less]): in the place of Lua 5.4's sort (auxsort, partition), a quicksort
** of its own, forked for the budget (every comparison counts) and to be deterministic.
** In place through lua_geti / lua_seti (metamethods apply), median-of-three pivots, the
** smaller side first so the C stack stays shallow.
**
** Deliberate differences from Lua's, which is also a median-of-three quicksort:
**   - the pivot is always the middle element. Lua's takes a pivot seeded from clock() and
**     time() once a partition comes out unbalanced, so the order in which it leaves
**     elements that compare equal can change from one run to the next; here it is the same
**     on every run (it need not be the order Lua's sort gives);
**   - the comparisons made, and so the calls of a comparison function, are not the same
**     ones in the same order;
**   - an invalid order function (one that is not a strict weak order) is noticed when a
**     scan runs past the end of its range, with Lua's message, "invalid order function for
**     sorting"; the bounds differ from Lua's, so one of the two may raise it where the other
**     finishes with the elements in some order. Neither ever reads or writes outside 1..n.
** Otherwise it is Lua's: the same argument checks and messages, and __lt through
** lua_compare without a comparison function. */
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

/* table.sort: see arcade_sorter above for how and why it differs from Lua 5.4's sort. */
int arcade_table_sort(lua_State *L) {
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

