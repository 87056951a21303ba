/*
** CLua shim: the small amount of C the arcade needs around Debian's Lua 5.4.
**
** Everything here is static inline so the system-library target needs no C
** sources. (The arcade's fork of the library functions that can run long in one call,
** which uses the work count below, is C of its own: the CLuaLib target.) Three jobs:
**   1. wrap Lua's macros as functions Swift can call;
**   2. own the per-state bookkeeping that must run inside Lua's own frames
**      (the allocator with its memory cap, the time budget's hook and signal);
**   3. the error trampoline: Swift functions exposed to Lua never raise a Lua
**      error themselves (a longjmp must never cross a Swift frame). They push
**      the message and return ARCADE_RAISE; the trampoline raises it after the
**      Swift frame has returned.
*/
#ifndef ARCADE_CLUA_SHIM_H
#define ARCADE_CLUA_SHIM_H

#include <lua.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <locale.h>
#include <stdatomic.h>
#include <signal.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <errno.h>
#include <stdint.h>
#include <math.h>
#include <unistd.h>

/* ===================================================================== */
/* Per-state bookkeeping                                                  */
/* ===================================================================== */

/* Returned by a Swift function: "the message on top of the stack is an error". */
#define ARCADE_RAISE (-1)

/* Which time budget stopped the running call (arcade_vm.budget_exhausted), so the host need
   not read it from the message: none, the callback's own, or the step's, which every
   callback of one step shares. */
#define ARCADE_BUDGET_NONE 0
#define ARCADE_BUDGET_CALL 1
#define ARCADE_BUDGET_STEP 2
/* Not a budget: the player interrupted the running work (Ctrl-C), which stops like one. */
#define ARCADE_BUDGET_INTERRUPT 3

/* The signal the watchdog sends to a thread whose callback overran its budget. SIGURG is
   ignored by default, so a stray one (before the handler is installed) does nothing. */
#define ARCADE_WATCHDOG_SIGNAL SIGURG

typedef int (*arcade_dispatch_fn)(lua_State *L, lua_Integer function_id);

/* How the watchdog thread sleeps while no budgeted callback runs anywhere (one for the
** process, owned by the Swift Watchdog): it sets `asleep` and waits on `wake`; the next
** callback to begin clears `asleep` and posts. */
/* The VMs the watchdog may signal, one a slot. A signal names its VM by a token, never by a
** pointer: the slot's index, the generation of the slot's registration and a magic number.
** The handler acts only on a token whose slot holds it now, so a SIGURG someone else sent
** (kill, sigqueue with any value) or one still on its way after its VM went is ignored. */
#define ARCADE_WATCHDOG_SLOTS 4096
#define ARCADE_WATCHDOG_MAGIC 0xA4CDULL

struct arcade_vm;

typedef struct arcade_watchdog_slot {
    _Atomic(struct arcade_vm *) vm;
    _Atomic unsigned long long token;   /* 0: free */
} arcade_watchdog_slot;

typedef struct arcade_watchdog_wake {
    _Atomic int asleep;
    _Atomic long sleeps;        /* how many times it went to sleep (for tests) */
    sem_t wake;
    /* the registry (ARCADE_WATCHDOG_SLOTS slots, made by arcade_install_watchdog_handler and
       kept for the life of the process), changed only under the Swift Watchdog's lock */
    unsigned long long generation;
    arcade_watchdog_slot *slots;
} arcade_watchdog_wake;

typedef struct arcade_vm {
    /* memory */
    size_t mem_used;            /* bytes Lua holds now */
    size_t native_bytes;        /* bytes the host charges for the game's native objects
                                   (nodes, images, animations, timers, physics); counted
                                   with mem_used against mem_limit */
    size_t mem_peak;            /* high-water mark */
    size_t mem_limit;           /* cap while Lua code runs */
    size_t mem_native_slack;    /* extra allowed while a Swift function runs */
    int mem_refused;            /* an allocation was refused since the flag was cleared */
    int mem_over_in_native;     /* the cap was passed while a Swift function ran */
    int native_depth;           /* Swift functions on the C stack */
    /* time budget: a watchdog thread marks a callback overdue and signals its thread,
       whose handler installs the hook; until then Lua runs with no hook at all. The budgets
       count the CPU time of the thread running the call (its own work only: time the
       machine gives other processes never counts), with a much larger wall-clock backstop
       for a call blocked where CPU time cannot see it. */
    _Atomic long long call_id;          /* outermost calls so far */
    _Atomic long long call_start_ns;    /* CLOCK_MONOTONIC at its start; 0 between calls */
    _Atomic long long overdue_call;     /* the call_id the watchdog found overdue */
    long long budget_ns;                /* CPU time one callback may use; 0: no limit */
    long long wall_budget_ns;           /* wall time one callback may take (the backstop) */
    _Atomic long long step_deadline_ns; /* the thread's CPU clock reading at which the running
                                           step's budget ends; 0: none */
    _Atomic long long step_wall_deadline_ns; /* CLOCK_MONOTONIC at which the step's wall-clock
                                                backstop ends; 0: none */
    pthread_t thread;                   /* the thread running the current call */
    _Atomic clockid_t cpu_clock;        /* that thread's CPU clock (pthread_getcpuclockid) */
    /* the watchdog's own: the call it first saw running, and the thread's CPU clock then
       (reading another thread's CPU clock costs a system call, so the running thread never
       reads it on a call's way in; the CPU the call used before that first look, under one
       watchdog tick, goes uncounted) */
    long long cpu_seen_call;
    long long cpu_seen_ns;
    lua_State *main_thread;
    lua_State *running;                 /* the Lua thread (main or coroutine) running now */
    int budget_exhausted;               /* which budget ran out (ARCADE_BUDGET_*), until the call ends */
    const char *budget_label;           /* e.g. "update()", owned by the host */
    arcade_watchdog_wake *watchdog;     /* NULL until the watchdog watches this vm */
    _Atomic unsigned long long watchdog_token; /* its slot's token there (0: none), which
                                                  the watchdog's signals carry */
    /* the state is being closed: finalizers may run, the host's modules may be gone */
    int closing;
    /* __gc finalizers of game tables waiting to run as an ordinary, budgeted callback */
    int finalizers_pending;
    /* set by the host, from any thread, when the player interrupts the work running now
       (arcade_interrupt): every call stops as if overdue until the host clears it */
    _Atomic int interrupted;
    /* the host */
    arcade_dispatch_fn dispatch;
    void *host;                 /* unretained pointer to the Swift VM object */
    void *functions;            /* the host's table of native functions, by id */
} arcade_vm;

static inline arcade_vm *arcade_vm_of(lua_State *L) {
    return *(arcade_vm **)lua_getextraspace(L);
}

/* ===================================================================== */
/* Allocator with a cap                                                   */
/* ===================================================================== */

static inline void *arcade_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
    arcade_vm *vm = (arcade_vm *)ud;
    size_t old = ptr ? osize : 0;  /* with ptr == NULL, osize is a type tag */
    if (nsize == 0) {
        free(ptr);
        vm->mem_used -= old;
        return NULL;
    }
    if (nsize > old) {
        size_t after = vm->mem_used - old + nsize + vm->native_bytes;
        if (after > vm->mem_limit) {
            /* A Swift function cannot take a longjmp, so while one runs the cap
            ** bends by the slack and the trampoline raises afterwards. */
            if (vm->native_depth > 0 && after <= vm->mem_limit + vm->mem_native_slack) {
                vm->mem_over_in_native = 1;
            } else {
                vm->mem_refused = 1;
                return NULL;  /* Lua raises LUA_ERRMEM; shrinking never fails */
            }
        }
    }
    void *p = realloc(ptr, nsize);
    if (p == NULL) {
        vm->mem_refused = 1;
        return NULL;
    }
    vm->mem_used = vm->mem_used - old + nsize;
    if (vm->mem_used > vm->mem_peak) vm->mem_peak = vm->mem_used;
    return p;
}

/* ===================================================================== */
/* Time budget                                                            */
/* ===================================================================== */

static inline long long arcade_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The CPU time the calling thread has used, in ns (a system call: Linux's vDSO reads only
** the wall clocks, so this is for once a step and for the slow paths, never once a call). */
static inline long long arcade_thread_cpu_ns(void) {
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The CPU time used so far by the thread whose CPU clock is `clock`, in ns; -1 if it
** cannot be read. */
static inline long long arcade_clock_cpu_ns(clockid_t clock) {
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0) return -1;
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The wall-clock backstop of a CPU budget: this many times the budget. */
#define ARCADE_WALL_BACKSTOP_FACTOR 10

/* glibc's, declared here because the module is not built with _GNU_SOURCE. */
extern int pthread_sigqueue(pthread_t thread, int sig, const union sigval value);

static inline int arcade_is_overdue(arcade_vm *vm) {
    return (atomic_load(&vm->overdue_call) == atomic_load(&vm->call_id) && atomic_load(&vm->call_start_ns) != 0)
        || atomic_load_explicit(&vm->interrupted, memory_order_relaxed);
}

/* Pushes "src:line: " for the innermost function of the game at or above level: the
** sandbox's own Lua helpers (coroutine.resume, require...) are skipped, as their lines mean
** nothing to the game's author; "" when there is none. */
static inline void arcade_push_budget_where(lua_State *L, int level) {
    lua_Debug ar;
    while (lua_getstack(L, level++, &ar)) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0 && strcmp(ar.source, "=sandbox") != 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
    }
    lua_pushliteral(L, "");
}

/* Whether the running step's budget has run out (the step, not the callback): its CPU
** deadline on this thread's clock, or its wall-clock backstop. Called on the step's thread. */
static inline int arcade_step_overrun(arcade_vm *vm) {
    long long deadline = atomic_load(&vm->step_deadline_ns);
    long long wall = atomic_load(&vm->step_wall_deadline_ns);
    return (deadline != 0 && arcade_thread_cpu_ns() >= deadline) || (wall != 0 && arcade_now_ns() >= wall);
}

/* Pushes the budget error of the running call, "<where><label> exceeded its time budget", or
** "... ran past the step's time budget" when the step's deadline has passed, or "... was
** interrupted (Ctrl-C)" when the player interrupted it, and records which budget ran out.
** <where> is the game's innermost function at or above level. */
static inline void arcade_push_budget_error(lua_State *L, int level) {
    arcade_vm *vm = arcade_vm_of(L);
    int interrupted = atomic_load(&vm->interrupted);
    int step = !interrupted && arcade_step_overrun(vm);
    vm->budget_exhausted = interrupted ? ARCADE_BUDGET_INTERRUPT : step ? ARCADE_BUDGET_STEP : ARCADE_BUDGET_CALL;
    arcade_push_budget_where(L, level);
    lua_pushfstring(L, interrupted ? "%s was interrupted (Ctrl-C)"
                       : step ? "%s ran past the step's time budget" : "%s exceeded its time budget",
                    vm->budget_label ? vm->budget_label : "the script");
    lua_concat(L, 2);
}

/* Installed on a thread once its callback is overdue: raises at every instruction, so a
** script that catches the error with pcall cannot keep running (each instruction after a
** catching pcall raises again, unwinding one level at a time). On a thread where it was
** left from an earlier, finished call, it removes itself. */
static inline void arcade_budget_hook(lua_State *L, lua_Debug *ar) {
    (void)ar;
    arcade_vm *vm = arcade_vm_of(L);
    if (!arcade_is_overdue(vm)) {
        lua_sethook(L, NULL, 0, 0);
        return;
    }
    arcade_push_budget_error(L, 0);
    lua_error(L);
}

/* The token of a registration (never 0): the magic, then the generation, then the slot. */
static inline unsigned long long arcade_watchdog_token(unsigned long long generation, unsigned slot) {
    return (ARCADE_WATCHDOG_MAGIC << 48) | ((generation & 0xFFFFFFFFULL) << 16) | (unsigned long long)slot;
}

/* The watchdog the handler reads its registry from. A static in a header is a separate copy
** in every file that includes it: this one is only ever read by the handler and written by
** arcade_install_watchdog_handler, which installs the handler of its own copy. */
static inline _Atomic(arcade_watchdog_wake *) *arcade_handler_watchdog(void) {
    static _Atomic(arcade_watchdog_wake *) watchdog = NULL;
    return &watchdog;
}

/* The vm a signal's token names, if the watchdog sent it: sent by this process with
** sigqueue (the watchdog's pthread_sigqueue), carrying a token whose slot holds it now.
** Anything else (kill, raise, a sigqueue from elsewhere or with another value, a signal for
** a vm gone meanwhile) gives NULL. Reads the registry only; dereferences no pointer the
** signal carried. */
static inline arcade_vm *arcade_watchdog_sender_vm(const siginfo_t *info) {
    if (info == NULL || info->si_code != SI_QUEUE || info->si_pid != getpid()) return NULL;
    arcade_watchdog_wake *w = atomic_load(arcade_handler_watchdog());
    if (w == NULL || w->slots == NULL) return NULL;
    unsigned long long token = (unsigned long long)(uintptr_t)info->si_value.sival_ptr;
    if ((token >> 48) != ARCADE_WATCHDOG_MAGIC) return NULL;
    unsigned slot = (unsigned)(token & 0xFFFF);
    if (slot >= ARCADE_WATCHDOG_SLOTS) return NULL;
    arcade_watchdog_slot *s = &w->slots[slot];
    if (atomic_load(&s->token) != token) return NULL;
    arcade_vm *vm = atomic_load(&s->vm);
    /* a vm in the registry; its own token says it is the one the signal named (the slot may
       have changed hands between the two loads above) */
    if (vm == NULL || atomic_load(&vm->watchdog_token) != token) return NULL;
    return vm;
}

/* The watchdog's signal, on the overrunning thread, naming the vm: arm the hook on the Lua
** thread that runs now and on the main thread (which a coroutine's error returns to).
** Lua allows lua_sethook from a signal handler: the standalone interpreter stops a script
** on Ctrl-C this way. (The vm's token travels in the signal, not the vm in a thread-local:
** a static in this header would be a separate copy in every file that includes it.) Any
** SIGURG the watchdog did not send is ignored. */
static inline void arcade_watchdog_action(int sig, siginfo_t *info, void *context) {
    (void)sig; (void)context;
    int saved = errno;
    arcade_vm *vm = arcade_watchdog_sender_vm(info);
    if (vm != NULL && pthread_equal(vm->thread, pthread_self()) && arcade_is_overdue(vm)) {
        if (vm->running != NULL && vm->running != vm->main_thread)
            lua_sethook(vm->running, arcade_budget_hook, LUA_MASKCOUNT, 1);
        lua_sethook(vm->main_thread, arcade_budget_hook, LUA_MASKCOUNT, 1);
    }
    errno = saved;
}

/* Once per process, with the watchdog whose registry names the vms its signals are for
** (made here). */
static inline void arcade_install_watchdog_handler(arcade_watchdog_wake *w) {
    if (w->slots == NULL) w->slots = (arcade_watchdog_slot *)calloc(ARCADE_WATCHDOG_SLOTS, sizeof(arcade_watchdog_slot));
    atomic_store(arcade_handler_watchdog(), w);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = arcade_watchdog_action;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART | SA_SIGINFO;
    sigaction(ARCADE_WATCHDOG_SIGNAL, &sa, NULL);
}

/* For the Swift Watchdog, under its lock: gives vm a free slot and a fresh token, which its
** signals will carry. 0 when every slot is taken. */
static inline int arcade_watchdog_register(arcade_watchdog_wake *w, arcade_vm *vm) {
    if (w->slots == NULL) return 0;
    for (unsigned i = 0; i < ARCADE_WATCHDOG_SLOTS; i++) {
        arcade_watchdog_slot *s = &w->slots[i];
        if (atomic_load(&s->token) != 0) continue;
        w->generation += 1;
        unsigned long long token = arcade_watchdog_token(w->generation, i);
        /* the vm first, the token last: a handler that sees the token sees the vm */
        atomic_store(&vm->watchdog_token, token);
        atomic_store(&s->vm, vm);
        atomic_store(&s->token, token);
        vm->watchdog = w;
        return 1;
    }
    return 0;
}

/* For the Swift Watchdog, under its lock: frees vm's slot; a signal for vm still on its way
** finds its token gone and does nothing. */
static inline void arcade_watchdog_unregister(arcade_watchdog_wake *w, arcade_vm *vm) {
    unsigned long long token = atomic_load(&vm->watchdog_token);
    if (token == 0 || w->slots == NULL) return;
    arcade_watchdog_slot *s = &w->slots[token & 0xFFFF];
    /* the token first: a handler that still sees the vm finds the token gone */
    atomic_store(&s->token, 0);
    atomic_store(&vm->watchdog_token, 0);
    atomic_store(&s->vm, NULL);
}

/* Lets a watchdog signal already sent to this thread arrive now (unblocking delivers
** pending signals), so none can reach a vm after it is freed. */
static inline void arcade_take_pending_watchdog_signal(void) {
    sigset_t set, old;
    sigemptyset(&set);
    sigaddset(&set, ARCADE_WATCHDOG_SIGNAL);
    pthread_sigmask(SIG_BLOCK, &set, &old);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* Wakes the watchdog if it sleeps, after vm's call_start_ns was set: a budgeted call runs.
** The store of call_start_ns and this load pair with the watchdog's store of `asleep` and
** its second look at the calls: one of the two sides sees the other. */
static inline void arcade_wake_watchdog(arcade_vm *vm) {
    arcade_watchdog_wake *w = vm->watchdog;
    if (w != NULL && atomic_load(&w->asleep) && atomic_exchange(&w->asleep, 0))
        sem_post(&w->wake);
}

/* Starts an outermost call's budget of budget_ns of this thread's CPU time (0: none) on
** this thread, with a wall-clock backstop of ARCADE_WALL_BACKSTOP_FACTOR times as much. */
static inline void arcade_call_begin(lua_State *L, long long budget_ns, const char *label) {
    /* Worker threads (libdispatch's, say) start with most signals blocked; the watchdog's
       must get through to whichever thread runs Lua. Once per thread, with the thread's
       CPU clock id (computed, no system call). */
    static _Thread_local int watchdog_signal_open = 0;
    static _Thread_local clockid_t cpu_clock = CLOCK_THREAD_CPUTIME_ID;
    if (!watchdog_signal_open) {
        sigset_t set;
        sigemptyset(&set);
        sigaddset(&set, ARCADE_WATCHDOG_SIGNAL);
        pthread_sigmask(SIG_UNBLOCK, &set, NULL);
        if (pthread_getcpuclockid(pthread_self(), &cpu_clock) != 0) cpu_clock = CLOCK_THREAD_CPUTIME_ID;
        watchdog_signal_open = 1;
    }
    arcade_vm *vm = arcade_vm_of(L);
    vm->budget_ns = budget_ns;
    vm->wall_budget_ns = budget_ns * ARCADE_WALL_BACKSTOP_FACTOR;
    vm->budget_label = label;
    vm->budget_exhausted = ARCADE_BUDGET_NONE;
    vm->thread = pthread_self();
    atomic_store_explicit(&vm->cpu_clock, cpu_clock, memory_order_relaxed);  /* published by the call_id below */
    vm->running = vm->main_thread;
    atomic_fetch_add(&vm->call_id, 1);
    atomic_store(&vm->call_start_ns, budget_ns > 0 ? arcade_now_ns() : 0);
    if (budget_ns > 0) arcade_wake_watchdog(vm);
    /* interrupted (arcade_interrupt) and not cleared yet: this call stops at once too */
    if (atomic_load_explicit(&vm->interrupted, memory_order_relaxed))
        lua_sethook(vm->main_thread, arcade_budget_hook, LUA_MASKCOUNT, 1);
}

/* Ends the outermost call: nothing is overdue any more, and the main thread's hook goes
** (a coroutine's removes itself the next time it runs). */
static inline void arcade_call_end(lua_State *L) {
    arcade_vm *vm = arcade_vm_of(L);
    atomic_store(&vm->call_start_ns, 0);
    atomic_fetch_add(&vm->call_id, 1);
    if (lua_gethook(vm->main_thread) != NULL) lua_sethook(vm->main_thread, NULL, 0, 0);
    vm->running = vm->main_thread;
}

/* Stops the clock of the running call's budget while the host does work of its own on this
** thread from inside a native function (the test runner stepping a game, whose callbacks
** have budgets of their own): the watchdog ignores the call until the clock runs again. */
static inline void arcade_budget_pause(lua_State *L) {
    atomic_store(&arcade_vm_of(L)->call_start_ns, 0);
}

/* Starts the clock again, with the whole budget. The call gets a new id first, so a mark the
** watchdog made before the pause is void: a signal still on its way finds nothing overdue,
** and a hook it already installed removes itself. */
static inline void arcade_budget_resume(lua_State *L) {
    arcade_vm *vm = arcade_vm_of(L);
    if (vm->budget_ns <= 0) return;
    atomic_fetch_add(&vm->call_id, 1);
    atomic_store(&vm->call_start_ns, arcade_now_ns());
    /* the watchdog may have gone to sleep while the clock stood */
    arcade_wake_watchdog(vm);
}

/* For the watchdog thread: if vm's current call has used up its CPU budget (its thread's
** CPU time since the watchdog first saw the call) or its step's (the thread's CPU clock at
** the step's deadline), or has run past a wall-clock backstop at now_ns, marks it overdue
** and signals its thread. The call may end meanwhile: then the id has moved on and the
** handler does nothing. Returns whether a budgeted call is running. */
static inline int arcade_watch(arcade_vm *vm, long long now_ns) {
    long long id = atomic_load(&vm->call_id);
    long long start = atomic_load(&vm->call_start_ns);
    long long deadline = atomic_load(&vm->step_deadline_ns);
    long long wall_deadline = atomic_load(&vm->step_wall_deadline_ns);
    if (start == 0 || vm->budget_ns <= 0) return 0;
    long long cpu = arcade_clock_cpu_ns(atomic_load(&vm->cpu_clock));
    if (cpu >= 0 && vm->cpu_seen_call != id) {
        vm->cpu_seen_call = id;
        vm->cpu_seen_ns = cpu;
    }
    int call_over = (cpu >= 0 && cpu - vm->cpu_seen_ns >= vm->budget_ns) || now_ns - start >= vm->wall_budget_ns;
    int step_over = (deadline != 0 && cpu >= deadline) || (wall_deadline != 0 && now_ns >= wall_deadline);
    if (!call_over && !step_over) return 1;
    if (atomic_load(&vm->overdue_call) == id) return 1;  /* already signalled */
    atomic_store(&vm->overdue_call, id);
    union sigval value;
    value.sival_ptr = (void *)(uintptr_t)atomic_load(&vm->watchdog_token);
    pthread_sigqueue(vm->thread, ARCADE_WATCHDOG_SIGNAL, value);
    return 1;
}

/* The player interrupts the work running in vm (Ctrl-C): from any thread, while vm lives.
** Every call stops as an overdue one does, the one running now at its next instruction
** (the watchdog's signal arms the hook) or at its native loop's next look, until the host
** clears the mark with arcade_clear_interrupt. */
static inline void arcade_interrupt(arcade_vm *vm) {
    atomic_store(&vm->interrupted, 1);
    unsigned long long token = atomic_load(&vm->watchdog_token);
    if (token == 0 || atomic_load(&vm->call_id) == 0) return;  /* no call has run: no thread to signal */
    union sigval value;
    value.sival_ptr = (void *)(uintptr_t)token;
    pthread_sigqueue(vm->thread, ARCADE_WATCHDOG_SIGNAL, value);
}

static inline void arcade_clear_interrupt(arcade_vm *vm) { atomic_store(&vm->interrupted, 0); }
static inline int arcade_is_interrupted(arcade_vm *vm) { return atomic_load(&vm->interrupted); }

/* The running step's deadlines, set by the host on the thread that runs the step: the
** thread's CPU time (arcade_thread_cpu_ns) at which its budget ends, and the CLOCK_MONOTONIC
** time of its wall-clock backstop (ns; 0: none). */
static inline void arcade_set_step_deadline(arcade_vm *vm, long long cpu_deadline_ns, long long wall_deadline_ns) {
    atomic_store(&vm->step_deadline_ns, cpu_deadline_ns);
    atomic_store(&vm->step_wall_deadline_ns, wall_deadline_ns);
}

/* The watchdog thread's side of `asleep` (C11 atomics are not visible to Swift). */
static inline void arcade_watchdog_set_asleep(arcade_watchdog_wake *w, int v) { atomic_store(&w->asleep, v); }
static inline void arcade_watchdog_count_sleep(arcade_watchdog_wake *w) { atomic_fetch_add(&w->sleeps, 1); }
static inline long arcade_watchdog_sleeps(arcade_watchdog_wake *w) { return atomic_load(&w->sleeps); }
static inline int arcade_watchdog_exchange_asleep(arcade_watchdog_wake *w, int v) { return atomic_exchange(&w->asleep, v); }

/* For the watchdog thread: whether vm has a budgeted call running (no side effects). */
static inline int arcade_is_running(arcade_vm *vm) {
    return atomic_load(&vm->call_start_ns) != 0 && vm->budget_ns > 0;
}

/* ===================================================================== */
/* Work inside one C function                                             */
/* ===================================================================== */

/* The hook only runs between Lua instructions, so a library function that works for
** minutes in one call (a backtracking pattern, a sort of millions of elements) is out
** of its reach. The arcade's own versions of those functions count their work and,
** every ARCADE_WORK_QUANTUM units, look at whether the watchdog found their callback
** overdue; if so they raise the budget error themselves, from C, where a longjmp is
** safe. A unit is roughly one step of a loop: a character compared, an element moved. */

#define ARCADE_WORK_QUANTUM 16384

typedef struct arcade_work {
    lua_State *L;
    arcade_vm *vm;      /* NULL in a state the arcade does not run (tests compare with stock Lua) */
    long countdown;     /* units left before the next look at the budget */
} arcade_work;

/* The vm of a state made by arcade_newstate; NULL for any other (see arcade_forget_vm). */
static inline arcade_vm *arcade_vm_or_null(lua_State *L) { return arcade_vm_of(L); }

/* For a plain state (luaL_newstate) that uses the arcade's library functions: no vm, so no
** budget. Lua leaves the extra space uninitialised. */
static inline void arcade_forget_vm(lua_State *L) { *(arcade_vm **)lua_getextraspace(L) = NULL; }

/* For a C function, or a Swift one through the trampoline, that found its callback overdue:
** arms the hook on every thread that may catch the error, so a pcall around the call gets
** no further than its next instruction, and pushes the budget error (arcade_push_budget_error)
** with <where> the innermost Lua function calling it. A Swift function returns ARCADE_RAISE
** then, and the trampoline raises it. */
static inline void arcade_push_budget_stop(lua_State *L) {
    arcade_vm *vm = arcade_vm_of(L);
    lua_sethook(L, arcade_budget_hook, LUA_MASKCOUNT, 1);
    if (vm->running != NULL && vm->running != L)
        lua_sethook(vm->running, arcade_budget_hook, LUA_MASKCOUNT, 1);
    if (vm->main_thread != L)
        lua_sethook(vm->main_thread, arcade_budget_hook, LUA_MASKCOUNT, 1);
    arcade_push_budget_error(L, 1);
}

/* Raises the budget error (arcade_push_budget_error) from a C function, where <where> is
** the innermost Lua function calling it. The hook is armed first on every thread that may
** catch the error, so a pcall around the call gets no further than its next instruction. */
static inline int arcade_raise_budget(lua_State *L) {
    arcade_push_budget_stop(L);
    return lua_error(L);
}

static inline void arcade_work_init(arcade_work *w, lua_State *L) {
    w->L = L;
    w->vm = arcade_vm_or_null(L);
    w->countdown = ARCADE_WORK_QUANTUM;
}

/* The slow path of arcade_work_add: a look at the budget. */
static inline void arcade_work_check(arcade_work *w) {
    w->countdown = ARCADE_WORK_QUANTUM;
    if (w->vm != NULL && arcade_is_overdue(w->vm)) arcade_raise_budget(w->L);
}

/* Counts `units` of work; raises the budget error if the callback is overdue. */
static inline void arcade_work_add(arcade_work *w, long units) {
    w->countdown -= units;
    if (w->countdown <= 0) arcade_work_check(w);
}

/* A last look before a function returns: its final copy of a result may have taken the
** call past its budget, and the error is better raised from inside it than at the next
** instruction of its caller. */
static inline void arcade_work_done(arcade_work *w) {
    if (w->vm != NULL && arcade_is_overdue(w->vm)) arcade_raise_budget(w->L);
}

/* True when the current callback of L's vm is overdue (never in a plain state). */
static inline int arcade_state_overdue(lua_State *L) {
    arcade_vm *vm = arcade_vm_or_null(L);
    return vm != NULL && arcade_is_overdue(vm);
}

/* coroutine.resume / wrap go through this (from the sandbox) so the handler knows which
** Lua thread to stop: mark_running(co) before resuming, mark_running(caller) after. */
static inline int arcade_mark_running(lua_State *L) {
    lua_State *co = lua_tothread(L, 1);
    if (co != NULL) arcade_vm_of(L)->running = co;
    return 0;
}

static inline void arcade_push_mark_running(lua_State *L) { lua_pushcfunction(L, arcade_mark_running); }

/* ===================================================================== */
/* The error trampoline                                                   */
/* ===================================================================== */

static inline int arcade_trampoline(lua_State *L) {
    arcade_vm *vm = arcade_vm_of(L);
    if (vm->closing)  /* a __gc at close: nothing of the host may be touched any more */
        return luaL_error(L, "arcade functions are not available while the game closes (called from a finalizer)");
    vm->native_depth++;
    int n = vm->dispatch(L, lua_tointegerx(L, lua_upvalueindex(1), NULL));
    vm->native_depth--;
    /* The Swift frame is gone: raising is safe from here on. */
    if (n == ARCADE_RAISE) return lua_error(L);
    if (vm->mem_over_in_native && vm->native_depth == 0) {
        vm->mem_over_in_native = 0;
        if (vm->mem_used + vm->native_bytes > vm->mem_limit) {
            vm->mem_refused = 1;
            return luaL_error(L, "not enough memory");
        }
    }
    return n;
}

/* Pushes a Lua function that calls the host's dispatch with function_id. */
static inline void arcade_push_native(lua_State *L, lua_Integer function_id) {
    lua_pushinteger(L, function_id);
    lua_pushcclosure(L, arcade_trampoline, 1);
}

/* ===================================================================== */
/* Finalizers of game tables                                              */
/* ===================================================================== */

/* Lua runs __gc metamethods inside the collector with hooks off, so a loop in one could
** never be stopped, and at close they would run after the host's modules are gone. The
** sandbox's setmetatable therefore wraps a table's __gc: when the collector calls it, the
** object and the game's function are queued, and the host runs the queue as an ordinary
** callback (with its budget and hooks) after the callback during which they were queued. */

#define ARCADE_FINALIZER_QUEUE "arcade.finalizers"

static inline int arcade_gc_defer(lua_State *L) {
    arcade_vm *vm = arcade_vm_of(L);
    if (vm->closing) return 0;  /* the game is gone: nothing left to finalize for */
    if (lua_getfield(L, LUA_REGISTRYINDEX, ARCADE_FINALIZER_QUEUE) != LUA_TTABLE) {
        lua_pop(L, 1);
        lua_createtable(L, 8, 0);
        lua_pushvalue(L, -1);
        lua_setfield(L, LUA_REGISTRYINDEX, ARCADE_FINALIZER_QUEUE);
    }
    lua_Integer n = (lua_Integer)lua_rawlen(L, -1);
    lua_pushvalue(L, 1);
    lua_rawseti(L, -2, n + 1);
    lua_pushvalue(L, lua_upvalueindex(1));
    lua_rawseti(L, -2, n + 2);
    vm->finalizers_pending++;
    return 0;
}

/* The queue so far (nil when empty), which starts over. */
static inline int arcade_take_finalizers(lua_State *L) {
    arcade_vm *vm = arcade_vm_of(L);
    lua_getfield(L, LUA_REGISTRYINDEX, ARCADE_FINALIZER_QUEUE);
    lua_pushnil(L);
    lua_setfield(L, LUA_REGISTRYINDEX, ARCADE_FINALIZER_QUEUE);
    vm->finalizers_pending = 0;
    return 1;
}

/* setmetatable(t, mt) as Lua 5.4's, except that a __gc in mt is wrapped (once). */
static inline int arcade_setmetatable(lua_State *L) {
    int mt = lua_type(L, 2);
    luaL_checktype(L, 1, LUA_TTABLE);
    luaL_argexpected(L, mt == LUA_TNIL || mt == LUA_TTABLE, 2, "nil or table");
    if (luaL_getmetafield(L, 1, "__metatable") != LUA_TNIL)
        return luaL_error(L, "cannot change a protected metatable");
    lua_settop(L, 2);
    if (mt == LUA_TTABLE) {
        lua_pushliteral(L, "__gc");
        if (lua_rawget(L, 2) != LUA_TNIL && lua_tocfunction(L, -1) != arcade_gc_defer) {
            lua_pushcclosure(L, arcade_gc_defer, 1);
            lua_pushliteral(L, "__gc");
            lua_insert(L, -2);
            lua_rawset(L, 2);
        } else {
            lua_pop(L, 1);
        }
    }
    lua_setmetatable(L, 1);
    return 1;
}

static inline void arcade_push_setmetatable(lua_State *L) { lua_pushcfunction(L, arcade_setmetatable); }
static inline void arcade_push_take_finalizers(lua_State *L) { lua_pushcfunction(L, arcade_take_finalizers); }

/* ===================================================================== */
/* Message handler: message + traceback, non-string errors described      */
/* ===================================================================== */

/* luaL_tolstring of the value at 1, for a protected call. */
static inline int arcade_tolstring_body(lua_State *L) {
    luaL_tolstring(L, 1, NULL);
    return 1;
}

/* Appends what __tostring makes of the value at idx; a __tostring that raises (or returns
   no string) must not take the message handler down with it, so it runs protected. */
static inline void arcade_add_tostring(lua_State *L, luaL_Buffer *b, int idx) {
    idx = lua_absindex(L, idx);
    lua_pushcfunction(L, arcade_tolstring_body);
    lua_pushvalue(L, idx);
    if (lua_pcall(L, 1, 1, 0) == LUA_OK) {
        luaL_addvalue(b);
        return;
    }
    size_t len = 0;
    const char *why = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : "a non-string error";
    if (lua_type(L, -1) != LUA_TSTRING) len = strlen(why);
    lua_pushlstring(L, why, len > 120 ? 120 : len);  /* lua_pushfstring has no precision */
    lua_pushfstring(L, "(a %s whose __tostring failed: %s)", luaL_typename(L, idx), lua_tostring(L, -1));
    lua_replace(L, -3);
    lua_pop(L, 1);
    luaL_addvalue(b);
}

/* Appends a short description of the value at idx (depth-limited for tables). */
static inline void arcade_describe(lua_State *L, luaL_Buffer *b, int idx, int depth) {
    idx = lua_absindex(L, idx);
    switch (lua_type(L, idx)) {
    case LUA_TSTRING: {
        luaL_addchar(b, '"');
        size_t len;
        const char *s = lua_tolstring(L, idx, &len);
        luaL_addlstring(b, s, len > 60 ? 60 : len);
        if (len > 60) luaL_addstring(b, "...");
        luaL_addchar(b, '"');
        break;
    }
    case LUA_TTABLE: {
        if (luaL_getmetafield(L, idx, "__tostring") != LUA_TNIL) {
            lua_pop(L, 1);
            arcade_add_tostring(L, b, idx);
            break;
        }
        if (depth > 1) { luaL_addstring(b, "{...}"); break; }
        luaL_addchar(b, '{');
        int n = 0;
        lua_pushnil(L);
        while (lua_next(L, idx) != 0) {
            if (n > 0) luaL_addstring(b, ", ");
            if (++n > 8) { lua_pop(L, 2); luaL_addstring(b, "..."); break; }
            /* keys: identifiers bare, everything else in brackets */
            if (lua_type(L, -2) == LUA_TSTRING) {
                lua_pushvalue(L, -2);
                luaL_addvalue(b);
            } else {
                luaL_addchar(b, '[');
                arcade_describe(L, b, -2, depth + 1);
                luaL_addchar(b, ']');
            }
            luaL_addstring(b, " = ");
            arcade_describe(L, b, -1, depth + 1);
            lua_pop(L, 1);
        }
        luaL_addchar(b, '}');
        break;
    }
    default:
        arcade_add_tostring(L, b, idx);
        break;
    }
}

/* The location of the innermost Lua function at or above level, as "src:line: ". */
static inline void arcade_push_lua_where(lua_State *L, int level) {
    lua_Debug ar;
    while (lua_getstack(L, level, &ar)) {
        lua_getinfo(L, "Sl", &ar);
        if (ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: ", ar.short_src, ar.currentline);
            return;
        }
        level++;
    }
    lua_pushliteral(L, "");
}

/* Used as the message handler of every protected call the host makes. */
static inline int arcade_message_handler(lua_State *L) {
    if (lua_type(L, 1) == LUA_TSTRING) {
        lua_settop(L, 1);
        lua_tostring(L, 1);
    } else {
        luaL_Buffer b;
        arcade_push_lua_where(L, 1);
        luaL_buffinit(L, &b);
        if (lua_type(L, 1) == LUA_TTABLE && luaL_getmetafield(L, 1, "__tostring") == LUA_TNIL) {
            luaL_addstring(&b, "error object is a table: ");
        } else if (lua_type(L, 1) == LUA_TTABLE) {
            lua_pop(L, 1);
        } else {
            lua_pushfstring(L, "error object is a %s value: ", luaL_typename(L, 1));
            luaL_addvalue(&b);
        }
        arcade_describe(L, &b, 1, 0);
        luaL_pushresult(&b);
        lua_concat(L, 2);
    }
    luaL_traceback(L, L, lua_tostring(L, -1), 1);
    return 1;
}

/* ===================================================================== */
/* State creation and macro wrappers                                      */
/* ===================================================================== */

static inline int arcade_panic(lua_State *L) {
    const char *msg = lua_tostring(L, -1);
    fprintf(stderr, "arcade: unprotected Lua error: %s\n", msg ? msg : "(not a string)");
    return 0;  /* Lua aborts after this */
}

/* A new state whose allocator and hook report to vm (owned by the caller). */
static inline lua_State *arcade_newstate(arcade_vm *vm) {
    lua_State *L = lua_newstate(arcade_alloc, vm);
    if (L == NULL) return NULL;
    *(arcade_vm **)lua_getextraspace(L) = vm;
    vm->main_thread = L;
    vm->running = L;
    lua_atpanic(L, arcade_panic);
    return L;
}

static inline void arcade_push_message_handler(lua_State *L) { lua_pushcfunction(L, arcade_message_handler); }
/* A full collection (lua_gc is variadic, which Swift cannot call). */
static inline void arcade_full_gc(lua_State *L) { lua_gc(L, LUA_GCCOLLECT); }
static inline int arcade_upvalueindex(int i) { return lua_upvalueindex(i); }
static inline int arcade_registryindex(void) { return LUA_REGISTRYINDEX; }
static inline void arcade_pop(lua_State *L, int n) { lua_pop(L, n); }
static inline void arcade_newtable(lua_State *L) { lua_newtable(L); }
static inline int arcade_pcall(lua_State *L, int nargs, int nresults, int msgh) {
    return lua_pcall(L, nargs, nresults, msgh);
}
static inline const char *arcade_tostring(lua_State *L, int idx, size_t *len) {
    return lua_tolstring(L, idx, len);
}
static inline lua_Number arcade_tonumber(lua_State *L, int idx, int *isnum) { return lua_tonumberx(L, idx, isnum); }
static inline lua_Integer arcade_tointeger(lua_State *L, int idx, int *isnum) { return lua_tointegerx(L, idx, isnum); }
static inline int arcade_isinteger(lua_State *L, int idx) { return lua_isinteger(L, idx); }
static inline void *arcade_newuserdata(lua_State *L, size_t size) { return lua_newuserdatauv(L, size, 0); }

/* Reads items 1...n of the list at absolute index t into out, with raw reads only (so nothing
** raises; the caller made room for one value): 0 when every item is a finite number, else the
** first item that is not (out is then partly written). */
static inline lua_Integer arcade_read_numbers(lua_State *L, int t, lua_Integer n, double *out) {
    for (lua_Integer k = 1; k <= n; k++) {
        int isnumber = lua_rawgeti(L, t, k) == LUA_TNUMBER;
        double v = isnumber ? (double)lua_tonumberx(L, -1, NULL) : 0;
        lua_settop(L, -2);
        if (!isnumber || !isfinite(v)) return k;
        out[k - 1] = v;
    }
    return 0;
}
static inline void arcade_pushglobaltable(lua_State *L) { lua_pushglobaltable(L); }
static inline int arcade_loadbuffer(lua_State *L, const char *buf, size_t len, const char *name, const char *mode) {
    return luaL_loadbufferx(L, buf, len, name, mode);
}

#endif
