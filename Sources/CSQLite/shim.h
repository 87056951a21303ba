#ifndef ARCADE_CSQLITE_SHIM_H
#define ARCADE_CSQLITE_SHIM_H
#include <sqlite3.h>

/* SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it. */
static inline sqlite3_destructor_type arcade_sqlite_transient(void) { return SQLITE_TRANSIENT; }
/* A busy handler that tries again every millisecond until `ms` milliseconds have passed
 * since the first try of this wait. SQLite's own (sqlite3_busy_timeout) sleeps longer
 * and longer, up to 100 ms between tries: against another process that commits every
 * few milliseconds it looks at the lock a few dozen times a second and can miss every
 * gap between two commits for seconds. Trying each millisecond finds the first gap. */
#include <stdint.h>
#include <time.h>

static inline int64_t arcade_sqlite_now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static inline int arcade_sqlite_busy_poll(void *timeout, int tries) {
    static __thread int64_t started;
    int64_t now = arcade_sqlite_now_ms();
    if (tries == 0) started = now;
    if (now - started >= (int64_t)(intptr_t)timeout) return 0;
    struct timespec pause = { 0, 1000000 };
    nanosleep(&pause, NULL);
    return 1;
}

/* sqlite3_busy_timeout with the handler above (0 or less: no waiting). */
static inline int arcade_sqlite_busy_timeout(sqlite3 *db, int ms) {
    if (ms <= 0) return sqlite3_busy_handler(db, NULL, NULL);
    return sqlite3_busy_handler(db, arcade_sqlite_busy_poll, (void *)(intptr_t)ms);
}
#endif
