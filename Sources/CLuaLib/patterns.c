/*
** The arcade's fork of Lua 5.4's pattern matching: string.find, string.match, string.gmatch
** and string.gsub, mirroring the pattern section of Lua 5.4.4's lstrlib.c (str_find_aux,
** gmatch and gmatch_aux, str_gsub with add_s and add_value, and the matcher under them:
** match, classend, singlematch, matchbalance, max_expand, min_expand...).
**
** Why a fork: the time budget's hook runs between Lua instructions, and a library function
** is one instruction however long it works. A pattern that backtracks, like ".-.-.-.-b"
** over a long subject, or a plain find over megabytes, would run out of the budget's reach
** for seconds or minutes. These versions count their work (arcade_work, in CLua's shim.h)
** and every ARCADE_WORK_QUANTUM units look at whether the watchdog found the callback
** overdue; if so they raise the usual "exceeded its time budget" error from C, where a
** longjmp is safe. Otherwise they keep Lua 5.4's patterns, results and error messages
** (LibraryCompatibilityTests runs them in a game's VM and the stock ones in a plain state
** on the same cases and compares). Lua's own limits stay: 32 captures, and at most 200
** nested matcher calls ("pattern too complex"), so no pattern can overflow the C stack.
*/
#include "fork.h"

/* glibc's (linear-time), declared here because the target is not built with _GNU_SOURCE. */
extern void *memmem(const void *haystack, size_t haystack_len, const void *needle, size_t needle_len);

#define ARCADE_PATTERN_CAPTURES 32      /* as LUA_MAXCAPTURES */
#define ARCADE_PATTERN_DEPTH 200        /* nested matcher calls, as the stock library's MAXCCALLS */
#define ARCADE_CAPTURE_OPEN (-1)        /* a capture whose ')' is not reached yet */
#define ARCADE_CAPTURE_POSITION (-2)    /* a "()" capture: a position, not text */
#define ARCADE_PLAIN_WINDOW (1 << 20)   /* a plain search looks at the budget this often (bytes) */
#define ARCADE_LONG_NEEDLE (1 << 16)    /* longer plain patterns are found by a rolling hash */

/* One matching run over one subject with one pattern (stock: MatchState). */
typedef struct arcade_match {
    const char *subject;
    const char *subject_end;
    const char *pattern_end;
    lua_State *L;
    int depth_left;                     /* nested calls allowed from here */
    int ncaptures;
    struct {
        const char *start;
        ptrdiff_t len;                  /* or ARCADE_CAPTURE_OPEN / _POSITION */
    } capture[ARCADE_PATTERN_CAPTURES];
    arcade_work work;
} arcade_match;

/* As prepstate and reprepstate. */
static inline void arcade_match_init(arcade_match *m, lua_State *L, const char *s, size_t ls,
                                     const char *p, size_t lp) {
    m->L = L;
    m->subject = s;
    m->subject_end = s + ls;
    m->pattern_end = p + lp;
    m->depth_left = ARCADE_PATTERN_DEPTH;
    m->ncaptures = 0;
    arcade_work_init(&m->work, L);
}

/* ===================================================================== */
/* Single-character items                                                 */
/* ===================================================================== */

/* Whether byte c is in the class named by cl (the letter after '%'). An upper-case letter
** is the complement; any other character stands for itself ("%." is a dot). The classes
** are the C locale's, written out so they cost no call and no locale can change them.
** (Stock: match_class, through ctype.h.) */
static inline int arcade_pattern_class(int c, int cl) {
    unsigned u = (unsigned)c;
    int in;
    switch (cl | 0x20) {        /* lower-cases letters; no other byte reaches a letter case */
    case 'a': in = ((u | 0x20) - 'a') < 26; break;
    case 'c': in = u < 32 || u == 127; break;
    case 'd': in = (u - '0') < 10; break;
    case 'g': in = (u - 33) < 94; break;
    case 'l': in = (u - 'a') < 26; break;
    case 'p': in = (u - 33) < 94 && ((u | 0x20) - 'a') >= 26 && (u - '0') >= 10; break;
    case 's': in = u == ' ' || (u - '\t') < 5; break;
    case 'u': in = (u - 'A') < 26; break;
    case 'w': in = ((u | 0x20) - 'a') < 26 || (u - '0') < 10; break;
    case 'x': in = (u - '0') < 10 || ((u | 0x20) - 'a') < 6; break;
    case 'z': in = (u == 0); break;     /* Lua 5.1's class of '\0', which 5.4 still accepts */
    default: return cl == c;
    }
    if ((unsigned)(cl - 'A') < 26) in = !in;
    return in;
}

/* Whether byte c is in the set that opens with the '[' at p and closes with the ']' at
** set_end: single characters, ranges "a-z", classes "%d", and '^' first for the complement.
** (Stock: matchbracketclass.) */
static inline int arcade_pattern_in_set(int c, const char *p, const char *set_end) {
    int found = 1;                      /* what finding c means */
    p++;
    if (*p == '^') {
        found = 0;
        p++;
    }
    for (; p < set_end; p++) {
        if (*p == '%') {
            p++;
            if (arcade_pattern_class(c, (unsigned char)*p)) return found;
        } else if (p[1] == '-' && p + 2 < set_end) {    /* a '-' first or last is literal */
            if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return found;
            p += 2;
        } else if ((unsigned char)*p == c) {
            return found;
        }
    }
    return !found;
}

/* The end of the single-character item at p ('.', 'x', "%a", "[...]"). Lua strings end
** with a '\0' past their length, so looking one byte ahead of the end is safe. (Stock:
** classend.) */
static inline const char *arcade_pattern_item_end(arcade_match *m, const char *p) {
    char first = *p++;
    if (first == '%') {
        if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (ends with '%%')");
        return p + 1;
    }
    if (first == '[') {
        if (*p == '^') p++;
        do {    /* the set's first character is never its end: "[]]" holds ']' */
            if (p >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing ']')");
            if (*p++ == '%' && p < m->pattern_end) p++;     /* "%]" is not the end either */
        } while (*p != ']');
        return p + 1;
    }
    return p;
}

/* Whether the subject character at s matches the item from p to ep. (Stock: singlematch.) */
static inline int arcade_pattern_single(arcade_match *m, const char *s, const char *p, const char *ep) {
    if (s >= m->subject_end) return 0;
    int c = (unsigned char)*s;
    switch (*p) {
    case '.': return 1;
    case '%': return arcade_pattern_class(c, (unsigned char)p[1]);
    case '[': return arcade_pattern_in_set(c, p, ep - 1);
    default: return (unsigned char)*p == c;
    }
}

/* ===================================================================== */
/* The matcher                                                            */
/* ===================================================================== */

static inline const char *arcade_pattern_match(arcade_match *m, const char *s, const char *p);

/* "%bxy": from an x at s to its balancing y. p points at x. (Stock: matchbalance; this one
** counts the bytes it walks.) */
static inline const char *arcade_pattern_balance(arcade_match *m, const char *s, const char *p) {
    if (p + 1 >= m->pattern_end) luaL_error(m->L, "malformed pattern (missing arguments to '%%b')");
    if (s >= m->subject_end || *s != p[0]) return NULL;
    char open = p[0], close = p[1];
    long depth = 1;
    const char *from = s;
    while (++s < m->subject_end) {
        if (((s - from) & 4095) == 0) arcade_work_add(&m->work, 4096);
        if (*s == close) {      /* tested first: with x == y the next x closes */
            if (--depth == 0) return s + 1;
        } else if (*s == open) {
            depth++;
        }
    }
    return NULL;
}

/* "%1".."%9": the text of an earlier, closed capture, again. (Stock: match_capture with
** check_capture.) */
static inline const char *arcade_pattern_backref(arcade_match *m, const char *s, int digit) {
    int n = digit - '1';
    if (n < 0 || n >= m->ncaptures || m->capture[n].len == ARCADE_CAPTURE_OPEN)
        luaL_error(m->L, "invalid capture index %%%d", n + 1);
    ptrdiff_t len = m->capture[n].len;
    if (len < 0) return NULL;   /* a position capture has no text to repeat */
    if (m->subject_end - s < len || memcmp(m->capture[n].start, s, (size_t)len) != 0) return NULL;
    arcade_work_add(&m->work, len);
    return s + len;
}

/* '(' at p - 1: a new capture starting at s, then the rest of the pattern. (Stock:
** start_capture.) */
static inline const char *arcade_pattern_open(arcade_match *m, const char *s, const char *p, ptrdiff_t kind) {
    if (m->ncaptures >= ARCADE_PATTERN_CAPTURES) luaL_error(m->L, "too many captures");
    int n = m->ncaptures++;
    m->capture[n].start = s;
    m->capture[n].len = kind;
    const char *e = arcade_pattern_match(m, s, p);
    if (e == NULL) m->ncaptures--;      /* undone on backtracking */
    return e;
}

/* ')' at p - 1: closes the innermost open capture at s, then the rest of the pattern.
** (Stock: end_capture with capture_to_close.) */
static inline const char *arcade_pattern_close(arcade_match *m, const char *s, const char *p) {
    int n = m->ncaptures - 1;
    while (n >= 0 && m->capture[n].len != ARCADE_CAPTURE_OPEN) n--;
    if (n < 0) luaL_error(m->L, "invalid pattern capture");
    m->capture[n].len = s - m->capture[n].start;
    const char *e = arcade_pattern_match(m, s, p);
    if (e == NULL) m->capture[n].len = ARCADE_CAPTURE_OPEN;
    return e;
}

/* "x*" from s (or "x+" from one past its first x): the longest run first, then one
** character shorter at a time until the rest of the pattern (after ep) matches. (Stock:
** max_expand; this one counts the characters it runs over.) */
static inline const char *arcade_pattern_longest(arcade_match *m, const char *s, const char *p, const char *ep) {
    ptrdiff_t n = 0;
    while (arcade_pattern_single(m, s + n, p, ep)) {
        n++;
        arcade_work_add(&m->work, 1);
    }
    for (;;) {
        const char *e = arcade_pattern_match(m, s + n, ep + 1);
        if (e != NULL) return e;
        if (n == 0) return NULL;
        n--;
    }
}

/* "x-": the shortest run first, one x longer at a time. (Stock: min_expand.) */
static inline const char *arcade_pattern_shortest(arcade_match *m, const char *s, const char *p, const char *ep) {
    for (;;) {
        const char *e = arcade_pattern_match(m, s, ep + 1);
        if (e != NULL) return e;
        if (!arcade_pattern_single(m, s, p, ep)) return NULL;
        s++;
    }
}

/* Matches the pattern from p against the subject from s; the end of the match, or NULL.
** Recursion happens only where the matcher may have to come back (captures and
** quantifiers), each level counted against ARCADE_PATTERN_DEPTH; everything else loops.
** (Stock: match, whose MAXCCALLS is the same 200. Forked for its work count: one unit a
** call, so a pattern that backtracks for long looks at the budget as it goes.) */
static inline const char *arcade_pattern_match(arcade_match *m, const char *s, const char *p) {
    if (m->depth_left-- == 0) luaL_error(m->L, "pattern too complex");
    arcade_work_add(&m->work, 1);
    while (p < m->pattern_end) {
        switch (*p) {
        case '(':
            s = p[1] == ')' ? arcade_pattern_open(m, s, p + 2, ARCADE_CAPTURE_POSITION)
                            : arcade_pattern_open(m, s, p + 1, ARCADE_CAPTURE_OPEN);
            goto done;
        case ')':
            s = arcade_pattern_close(m, s, p + 1);
            goto done;
        case '$':
            if (p + 1 == m->pattern_end) {      /* an anchor only at the very end */
                if (s != m->subject_end) s = NULL;
                goto done;
            }
            break;
        case '%':
            if (p[1] == 'b') {
                s = arcade_pattern_balance(m, s, p + 2);
                if (s == NULL) goto done;
                p += 4;
                continue;
            }
            if (p[1] == 'f') {      /* frontier: between a byte outside the set and one in it */
                p += 2;
                if (*p != '[') luaL_error(m->L, "missing '[' after '%%f' in pattern");
                const char *ep = arcade_pattern_item_end(m, p);
                int before = s == m->subject ? 0 : (unsigned char)s[-1];
                int after = s < m->subject_end ? (unsigned char)*s : 0;
                if (arcade_pattern_in_set(before, p, ep - 1) || !arcade_pattern_in_set(after, p, ep - 1)) {
                    s = NULL;
                    goto done;
                }
                p = ep;
                continue;
            }
            if (((unsigned char)p[1] - (unsigned)'0') < 10) {
                s = arcade_pattern_backref(m, s, p[1]);
                if (s == NULL) goto done;
                p += 2;
                continue;
            }
            break;
        default:
            break;
        }
        /* a single-character item, perhaps with a quantifier after it */
        const char *ep = arcade_pattern_item_end(m, p);
        char quantifier = ep < m->pattern_end ? *ep : '\0';
        if (!arcade_pattern_single(m, s, p, ep)) {
            if (quantifier == '*' || quantifier == '?' || quantifier == '-') {  /* zero of them will do */
                p = ep + 1;
                continue;
            }
            s = NULL;
            goto done;
        }
        switch (quantifier) {
        case '?': {
            const char *e = arcade_pattern_match(m, s + 1, ep + 1);
            if (e != NULL) {
                s = e;
                goto done;
            }
            p = ep + 1;         /* without the optional character */
            continue;
        }
        case '+':
            s = arcade_pattern_longest(m, s + 1, p, ep);
            goto done;
        case '*':
            s = arcade_pattern_longest(m, s, p, ep);
            goto done;
        case '-':
            s = arcade_pattern_shortest(m, s, p, ep);
            goto done;
        default:
            s++;
            p = ep;
            continue;
        }
    }
done:
    m->depth_left++;
    return s;
}

/* ===================================================================== */
/* Captures                                                               */
/* ===================================================================== */

/* Capture i of a match from s to e as text (*text, its length returned) or, for a position
** capture, pushed as an integer (ARCADE_CAPTURE_POSITION returned). With no captures at
** all, "capture 1" is the whole match. (Stock: get_onecapture.) */
static inline ptrdiff_t arcade_pattern_capture_text(arcade_match *m, int i, const char *s, const char *e,
                                                    const char **text) {
    if (i >= m->ncaptures) {
        if (i != 0) luaL_error(m->L, "invalid capture index %%%d", i + 1);
        *text = s;
        return e - s;
    }
    ptrdiff_t len = m->capture[i].len;
    *text = m->capture[i].start;
    if (len == ARCADE_CAPTURE_OPEN) luaL_error(m->L, "unfinished capture");
    if (len == ARCADE_CAPTURE_POSITION) lua_pushinteger(m->L, (m->capture[i].start - m->subject) + 1);
    return len;
}

/* As push_onecapture. */
static inline void arcade_pattern_push_capture(arcade_match *m, int i, const char *s, const char *e) {
    const char *text;
    ptrdiff_t len = arcade_pattern_capture_text(m, i, s, e, &text);
    if (len != ARCADE_CAPTURE_POSITION) lua_pushlstring(m->L, text, (size_t)len);
}

/* Pushes every capture, or the whole match (s to e) when there are none and s is given;
** returns how many values. (Stock: push_captures.) */
static inline int arcade_pattern_push_captures(arcade_match *m, const char *s, const char *e) {
    int n = (m->ncaptures == 0 && s != NULL) ? 1 : m->ncaptures;
    luaL_checkstack(m->L, n, "too many captures");
    for (int i = 0; i < n; i++) arcade_pattern_push_capture(m, i, s, e);
    return n;
}

/* ===================================================================== */
/* string.find, string.match                                              */
/* ===================================================================== */

/* A 1-based start position from Lua's: negative counts from the end, 0 and anything
** before the start mean 1. (Stock: posrelatI.) */
static inline size_t arcade_string_start(lua_Integer pos, size_t len) {
    if (pos > 0) return (size_t)pos;
    if (pos == 0 || pos < -(lua_Integer)len) return 1;
    return len + (size_t)pos + 1;
}

/* True when the pattern has none of the characters that make a pattern more than text.
** (Stock: nospecials, with SPECIALS "^$*+?.([%-".) */
static inline int arcade_pattern_is_plain(const char *p, size_t lp) {
    for (size_t i = 0; i < lp; i++) {
        switch (p[i]) {
        case '^': case '$': case '*': case '+': case '?': case '.': case '(': case '[': case '%': case '-':
            return 0;
        default:
            break;
        }
    }
    return 1;
}

/* The first occurrence of a long p (over ARCADE_LONG_NEEDLE bytes) at an offset up to last
** in s: a hash of lp bytes rolls along s, and only where it equals p's hash are the bytes
** compared. Linear, like memmem, but it looks at the budget as it goes (memmem cannot be
** stopped, and with a needle of megabytes each call works on megabytes). */
static inline const char *arcade_find_long_text(arcade_work *w, const char *s, size_t last, const char *p, size_t lp) {
    const uint64_t base = 0x100000001B3ULL;     /* odd; arithmetic wraps modulo 2^64 */
    uint64_t hp = 0, hs = 0, top = 1;           /* top = base^(lp-1) */
    for (size_t i = 0; i < lp; i++) {
        hp = hp * base + (unsigned char)p[i];
        hs = hs * base + (unsigned char)s[i];
        if (i > 0) top *= base;
    }
    arcade_work_add(w, (long)(lp >> 5));
    for (size_t at = 0;; at++) {
        if (hs == hp && memcmp(s + at, p, lp) == 0) return s + at;
        if (at == last) return NULL;
        hs = (hs - (unsigned char)s[at] * top) * base + (unsigned char)s[at + lp];
        if ((at & 0xFFFF) == 0xFFFF) arcade_work_add(w, 0x10000 >> 4);
    }
}

/* The first occurrence of p in s, searched a window at a time so a long search looks at
** the budget now and then (windows overlap by lp - 1 bytes, so none is missed). (Stock:
** lmemfind, a memchr and memcmp loop that cannot be stopped.) */
static inline const char *arcade_find_text(arcade_work *w, const char *s, size_t ls, const char *p, size_t lp) {
    if (lp == 0) return s;
    if (lp > ls) return NULL;
    if (ls <= 4096) {   /* short: the first byte, then the rest (at worst 4096 * lp compared) */
        const char *end = s + (ls - lp) + 1;
        for (const char *at = s; at < end; at++) {
            at = (const char *)memchr(at, p[0], (size_t)(end - at));
            if (at == NULL) return NULL;
            if (memcmp(at + 1, p + 1, lp - 1) == 0) return at;
        }
        return NULL;
    }
    size_t last = ls - lp;                          /* the last offset an occurrence can start at */
    if (lp > ARCADE_LONG_NEEDLE) return arcade_find_long_text(w, s, last, p, lp);
    for (size_t at = 0;; at += ARCADE_PLAIN_WINDOW) {
        size_t starts = last - at + 1 < ARCADE_PLAIN_WINDOW ? last - at + 1 : ARCADE_PLAIN_WINDOW;
        const char *hit = (const char *)memmem(s + at, starts + lp - 1, p, lp);
        if (hit != NULL) return hit;
        if (last - at < ARCADE_PLAIN_WINDOW) return NULL;
        arcade_work_add(w, (long)((starts + lp) >> 6));
    }
}

/* find(s, pattern [, init [, plain]]) and match(s, pattern [, init]): Lua 5.4's str_find_aux,
** forked for the budget. A plain find (plain, or a pattern without specials) searches a
** window at a time (arcade_find_text); a pattern match counts its work in the matcher. */
static inline int arcade_string_search(lua_State *L, int find) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = arcade_string_start(luaL_optinteger(L, 3, 1), ls) - 1;
    if (init > ls) {                /* starts past the end: nothing to find */
        luaL_pushfail(L);
        return 1;
    }
    if (find && (lua_toboolean(L, 4) || arcade_pattern_is_plain(p, lp))) {
        arcade_work w;
        arcade_work_init(&w, L);
        const char *hit = arcade_find_text(&w, s + init, ls - init, p, lp);
        if (hit != NULL) {
            lua_pushinteger(L, (hit - s) + 1);
            lua_pushinteger(L, (lua_Integer)((size_t)(hit - s) + lp));
            return 2;
        }
    } else {
        arcade_match m;
        int anchored = (*p == '^');
        if (anchored) {
            p++;
            lp--;
        }
        arcade_match_init(&m, L, s, ls, p, lp);
        for (const char *from = s + init;; from++) {
            m.ncaptures = 0;
            const char *e = arcade_pattern_match(&m, from, p);
            if (e != NULL) {
                arcade_work_done(&m.work);
                if (!find) return arcade_pattern_push_captures(&m, from, e);
                lua_pushinteger(L, (from - s) + 1);
                lua_pushinteger(L, e - s);
                return arcade_pattern_push_captures(&m, NULL, NULL) + 2;
            }
            if (anchored || from >= m.subject_end) break;
        }
    }
    luaL_pushfail(L);
    return 1;
}

/* string.find: Lua 5.4's str_find, forked for the budget (arcade_string_search). */
int arcade_string_find(lua_State *L) { return arcade_string_search(L, 1); }
/* string.match: Lua 5.4's str_match, forked for the budget (arcade_string_search). */
int arcade_string_match(lua_State *L) { return arcade_string_search(L, 0); }

/* ===================================================================== */
/* string.gmatch                                                          */
/* ===================================================================== */

/* Where an iteration goes on from. The closure keeps the subject and the pattern alive as
** upvalues, so the pointers stay valid. (Stock: GMatchState, which keeps lastmatch as a
** pointer.) */
typedef struct arcade_gmatch_state {
    const char *s, *p;
    size_t ls, lp;
    size_t next;            /* the offset to try first */
    size_t last_end;        /* the end of the last match: an empty match there is skipped */
    int matched;            /* whether last_end is set */
} arcade_gmatch_state;

/* The iterator gmatch returns: the next match from g->next. (Stock: gmatch_aux; the matcher
** counts its work, so a long search for the next match looks at the budget.) */
static int arcade_gmatch_next(lua_State *L) {
    arcade_gmatch_state *g = (arcade_gmatch_state *)lua_touserdata(L, lua_upvalueindex(3));
    const char *s = g->s, *p = g->p;
    size_t ls = g->ls;
    arcade_match m;
    arcade_match_init(&m, L, s, ls, p, g->lp);
    for (size_t at = g->next; at <= ls; at++) {
        m.ncaptures = 0;
        const char *e = arcade_pattern_match(&m, s + at, p);
        if (e != NULL && !(g->matched && (size_t)(e - s) == g->last_end)) {
            g->next = g->last_end = (size_t)(e - s);
            g->matched = 1;
            return arcade_pattern_push_captures(&m, s + at, e);
        }
    }
    return 0;
}

/* string.gmatch(s, pattern [, init]): Lua 5.4's gmatch, forked for the budget (the iterator
** it returns does the work). A '^' is an ordinary character here, as in Lua 5.4. */
int arcade_string_gmatch(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    size_t init = arcade_string_start(luaL_optinteger(L, 3, 1), ls) - 1;
    lua_settop(L, 2);       /* the closure keeps both strings alive */
    arcade_gmatch_state *g = (arcade_gmatch_state *)lua_newuserdatauv(L, sizeof *g, 0);
    g->s = s;
    g->p = p;
    g->ls = ls;
    g->lp = lp;
    g->next = init > ls ? ls + 1 : init;
    g->last_end = 0;
    g->matched = 0;
    lua_pushcclosure(L, arcade_gmatch_next, 3);
    return 1;
}

/* ===================================================================== */
/* string.gsub                                                            */
/* ===================================================================== */

/* A replacement string: "%0" the match, "%1".."%9" captures, "%%" a percent sign.
** (Stock: add_s.) */
static inline void arcade_gsub_template(arcade_match *m, luaL_Buffer *b, const char *s, const char *e) {
    size_t len;
    const char *t = lua_tolstring(m->L, 3, &len);
    const char *end = t + len;
    arcade_work_add(&m->work, (long)(len >> 4));
    const char *pct;
    while ((pct = (const char *)memchr(t, '%', (size_t)(end - t))) != NULL) {
        luaL_addlstring(b, t, (size_t)(pct - t));
        char c = pct[1];    /* '\0' when the template ends with '%' */
        if (c == '%') {
            luaL_addchar(b, '%');
        } else if (c == '0') {
            luaL_addlstring(b, s, (size_t)(e - s));
        } else if (((unsigned char)c - (unsigned)'0') < 10) {
            const char *text;
            ptrdiff_t n = arcade_pattern_capture_text(m, c - '1', s, e, &text);
            if (n == ARCADE_CAPTURE_POSITION) luaL_addvalue(b);
            else luaL_addlstring(b, text, (size_t)n);
        } else {
            luaL_error(m->L, "invalid use of '%c' in replacement string", '%');
        }
        t = pct + 2;
    }
    luaL_addlstring(b, t, (size_t)(end - t));
}

/* Adds the replacement for the match from s to e; returns whether it changed anything
** (a function or table giving false or nil keeps the match as it was). (Stock: add_value.) */
static inline int arcade_gsub_replace(arcade_match *m, luaL_Buffer *b, const char *s, const char *e, int kind) {
    lua_State *L = m->L;
    if (kind == LUA_TFUNCTION) {
        lua_pushvalue(L, 3);
        int n = arcade_pattern_push_captures(m, s, e);
        lua_call(L, n, 1);
    } else if (kind == LUA_TTABLE) {
        arcade_pattern_push_capture(m, 0, s, e);
        lua_gettable(L, 3);
    } else {
        arcade_gsub_template(m, b, s, e);
        return 1;
    }
    if (!lua_toboolean(L, -1)) {
        lua_pop(L, 1);
        luaL_addlstring(b, s, (size_t)(e - s));
        return 0;
    }
    if (!lua_isstring(L, -1)) return luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
    luaL_addvalue(b);
    return 1;
}

/* string.gsub(s, pattern, replacement [, n]): Lua 5.4's str_gsub, forked for the budget: the
** matcher counts its work, and so does copying a replacement string. */
int arcade_string_gsub(lua_State *L) {
    size_t ls, lp;
    const char *s = luaL_checklstring(L, 1, &ls);
    const char *p = luaL_checklstring(L, 2, &lp);
    int kind = lua_type(L, 3);
    lua_Integer limit = luaL_optinteger(L, 4, (lua_Integer)ls + 1);
    luaL_argexpected(L, kind == LUA_TNUMBER || kind == LUA_TSTRING || kind == LUA_TFUNCTION || kind == LUA_TTABLE,
                     3, "string/function/table");
    int anchored = (*p == '^');
    if (anchored) {
        p++;
        lp--;
    }
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    arcade_match m;
    arcade_match_init(&m, L, s, ls, p, lp);
    const char *at = s;
    const char *last_end = NULL;    /* an empty match right after a match is skipped */
    lua_Integer count = 0;
    int changed = 0;
    while (count < limit) {
        m.ncaptures = 0;
        const char *e = arcade_pattern_match(&m, at, p);
        if (e != NULL && e != last_end) {
            count++;
            changed |= arcade_gsub_replace(&m, &b, at, e, kind);
            at = last_end = e;
        } else if (at < m.subject_end) {
            luaL_addchar(&b, *at++);
        } else {
            break;
        }
        if (anchored) break;
    }
    if (!changed) {
        lua_pushvalue(L, 1);        /* the subject itself, no copy */
    } else {
        luaL_addlstring(&b, at, (size_t)(m.subject_end - at));
        luaL_pushresult(&b);
    }
    arcade_work_done(&m.work);
    lua_pushinteger(L, count);
    return 2;
}

