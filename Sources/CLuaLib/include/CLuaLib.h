/*
** CLuaLib: the arcade's fork of the Lua 5.4 library functions that can run for a long time
** in one call, and the opening of the libraries games get.
**
** Why a fork. The time budget (CLua's shim.h) stops a callback with a count hook, which
** runs between Lua instructions; a C library function is one instruction however long it
** works, so `string.rep("x", 1e9)`, a backtracking pattern or a sort of millions of
** elements would run out of its reach for seconds or minutes. The project keeps Debian's
** liblua5.4 (no Lua sources of its own), so instead of patching the stock functions it
** replaces them in the library tables with versions that do the same work in pieces and
** look at the budget between pieces (arcade_work in shim.h); once the callback is overdue
** they raise the budget error from C, where a longjmp is safe. They keep Lua 5.4.4's
** results and error messages; LibraryCompatibilityTests runs each of them in a game's VM
** and the stock one in a plain lua_State on the same cases and compares.
**
** What is forked, and the stock function each mirrors:
**   patterns.c  string.find, string.match (str_find_aux), string.gmatch (gmatch, gmatch_aux),
**               string.gsub (str_gsub, add_s, add_value), and the matcher under them
**               (lstrlib.c's match and its helpers);
**   strlib.c    string.rep (str_rep), string.format (a wrapper around the stock str_format
**               that quotes a long string for "%q" in pieces);
**   tablib.c    table.concat (tconcat), table.insert (tinsert), table.remove (tremove),
**               table.move (tmove), table.unpack (tunpack), table.sort (sort, auxsort);
**   utf8lib.c   utf8.len (utflen), utf8.offset (byteoffset);
**   baselib.c   load (luaB_load).
** Everything else (string.byte, char, sub, pack, table.pack, utf8.char...) is Lua's own.
**
** Where the fork deliberately differs from Lua 5.4 (LibraryDifferenceTests shows each):
**   - table.sort is a quicksort of its own that always takes the middle element as pivot,
**     where Lua's switches to a pivot seeded from clock() and time() when a partition comes
**     out unbalanced. So elements that compare equal end in the same order on every run (a
**     game's outcome may not depend on the wall clock), though not always in the order
**     Lua's sort leaves them. Its comparisons are not Lua's, so a comparison function is
**     called for other pairs, and an invalid order function may be noticed ("invalid order
**     function for sorting") where Lua's sort finishes, or the other way round.
**   - load takes text chunks only (a crafted binary chunk can crash the VM), and refuses a
**     mode without 't' with a message of its own.
**   - string.format with a string over 64 KB for "%q" calls a "%s" argument's __tostring
**     twice (the result is Lua's).
**   - string.rep("", n) returns "" at once for any n (the stock loop copies nothing n times).
**
** Why a C target of its own: CLua is a system-library target (Debian's lua.h and liblua5.4
** through pkg-config), which SwiftPM does not let hold .c files, so before this target the
** fork was static inline functions in CLua's headers, compiled as part of whichever Swift
** module called them. This target depends on CLua for lua.h and for the budget's work
** count (shim.h), which stays there with the rest of the budget; this header is all that
** Swift sees of it.
*/
#ifndef ARCADE_CLUALIB_H
#define ARCADE_CLUALIB_H

#include <lua.h>

/* Pushes a C function that opens the libraries games may use (base, table, string, math,
** utf8, coroutine; no io, os, debug or package) with the fork's functions in place of Lua's.
** The host calls it in protected mode, as the libraries' opening can raise. */
void arcade_push_open_safe_libs(lua_State *L);

/* Puts the fork's functions into the string, table and utf8 tables of L (the string
** metatable's __index is the string table, so s:find and the like get them too) and
** replaces the global load. The libraries must be open. */
void arcade_install_library(lua_State *L);

/* Pushes { string = {...}, table = {...}, utf8 = {...}, load = f }: the fork's functions,
** leaving Lua's in place, for a test or a benchmark to compare the two in one state. */
void arcade_push_library(lua_State *L);

#endif
