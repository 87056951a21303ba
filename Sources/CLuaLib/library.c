/*
** Installing the fork (include/CLuaLib.h) in a Lua state, and opening the libraries games
** get with the fork in place.
*/
#include "fork.h"

/* The fork's functions by library, as the stock luaL_Reg tables list them (Lua's strlib,
** tab_funcs and funcs of lutf8lib.c); string.format and load are installed on their own. */
static const luaL_Reg arcade_string_functions[] = {
    {"find", arcade_string_find}, {"match", arcade_string_match}, {"gmatch", arcade_string_gmatch},
    {"gsub", arcade_string_gsub}, {"rep", arcade_string_rep}, {NULL, NULL}};
static const luaL_Reg arcade_table_functions[] = {
    {"concat", arcade_table_concat}, {"insert", arcade_table_insert}, {"move", arcade_table_move},
    {"remove", arcade_table_remove}, {"sort", arcade_table_sort}, {"unpack", arcade_table_unpack}, {NULL, NULL}};
static const luaL_Reg arcade_utf8_functions[] = {
    {"len", arcade_utf8_len}, {"offset", arcade_utf8_offset}, {NULL, NULL}};

/* Pushes { string = {...}, table = {...}, utf8 = {...}, load = f }: the arcade's versions,
** for a test to compare with the stock ones (which must still be in place). */
void arcade_push_library(lua_State *L) {
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
void arcade_install_library(lua_State *L) {
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

/* Opens the libraries games may use (nothing else: no io, os, debug, package), with the
** arcade's own versions of the functions that could otherwise run long in one call. */
static int arcade_open_safe_libs(lua_State *L) {
    luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
    luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
    luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
    luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
    luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
    luaL_requiref(L, LUA_COLIBNAME, luaopen_coroutine, 1);
    lua_pop(L, 6);
    arcade_install_library(L);
    return 0;
}

void arcade_push_open_safe_libs(lua_State *L) { lua_pushcfunction(L, arcade_open_safe_libs); }
