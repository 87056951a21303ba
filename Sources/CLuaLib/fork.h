/*
** What the files of the fork share (not seen by Swift; see include/CLuaLib.h for why the
** fork exists and what each file mirrors).
*/
#ifndef ARCADE_CLUALIB_FORK_H
#define ARCADE_CLUALIB_FORK_H

#include <limits.h>
#include <stdint.h>

/* lua.h, lauxlib.h and lualib.h, and the time budget's work count (arcade_work,
** arcade_raise_budget, arcade_state_overdue), which stays in CLua with the rest of the
** budget. A system-library target adds no include path, hence the relative one. */
#include "../CLua/shim.h"
#include "CLuaLib.h"

/* patterns.c */
int arcade_string_find(lua_State *L);
int arcade_string_match(lua_State *L);
int arcade_string_gmatch(lua_State *L);
int arcade_string_gsub(lua_State *L);

/* strlib.c */
int arcade_string_rep(lua_State *L);
void arcade_push_format(lua_State *L);

/* tablib.c */
int arcade_table_concat(lua_State *L);
int arcade_table_insert(lua_State *L);
int arcade_table_move(lua_State *L);
int arcade_table_remove(lua_State *L);
int arcade_table_sort(lua_State *L);
int arcade_table_unpack(lua_State *L);

/* utf8lib.c */
int arcade_utf8_len(lua_State *L);
int arcade_utf8_offset(lua_State *L);

/* baselib.c */
int arcade_load(lua_State *L);

#endif
