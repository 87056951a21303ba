import CLua
#if canImport(Glibc)
import Glibc
#endif

/// The time budget's watchdog: one thread for the whole process that looks, every few
/// milliseconds, at each VM's current callback and signals the thread of any that has run
/// past its budget. The signal handler (in CLua) then installs the hook that stops it.
///
/// The budgets are CPU time of the thread running the callback, which the watchdog reads
/// through that thread's CPU clock (`pthread_getcpuclockid`), so the running thread pays
/// for no clock but the wall clock it already read; a call's CPU time counts from the
/// watchdog's first look at it (at most a tick after it began). A wall-clock backstop of
/// ten times the budget stops a call blocked where CPU time does not move.
///
/// Lua code thus runs with no hook at all on the normal path: a count hook would make Lua
/// 5.4 trap on every instruction. Only an overrunning callback pays, once. While no budgeted
/// callback runs anywhere (a menu waiting for a key, a paused game), the thread sleeps until
/// the next one begins, instead of waking 200 times a second for nothing.
final class Watchdog: @unchecked Sendable {
    static let shared = Watchdog()

    /// How often the watchdog looks: the budget is kept to within about this much.
    static let tick = 0.005

    private var lock = pthread_mutex_t()
    private var watched: [UnsafeMutablePointer<arcade_vm>] = []
    private var thread: pthread_t?
    /// Shared with every watched VM, whose first callback after a quiet spell posts it.
    private let wake: UnsafeMutablePointer<arcade_watchdog_wake>

    private init() {
        pthread_mutex_init(&lock, nil)
        wake = .allocate(capacity: 1)
        wake.initialize(to: arcade_watchdog_wake())
        sem_init(&wake.pointee.wake, 0, 0)
        arcade_install_watchdog_handler(wake)
    }

    /// Starts watching `vm` (until ``unwatch(_:)``); starts the thread on first use. False
    /// when the watchdog already watches as many VMs as it can tell apart (4096): a VM it
    /// could not stop must not run.
    func watch(_ vm: UnsafeMutablePointer<arcade_vm>) -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        // the token the watchdog's signals for `vm` carry: its handler ignores any other
        guard arcade_watchdog_register(wake, vm) != 0 else { return false }
        watched.append(vm)
        if thread == nil {
            var t = pthread_t()
            let box = Unmanaged.passUnretained(self).toOpaque()
            if pthread_create(&t, nil, { arg in
                Unmanaged<Watchdog>.fromOpaque(arg!).takeUnretainedValue().run()
            }, box) == 0 {
                pthread_detach(t)
                thread = t
            }
        }
        return true
    }

    /// Stops watching `vm`; after this no signal for it is on its way to this thread.
    func unwatch(_ vm: UnsafeMutablePointer<arcade_vm>) {
        pthread_mutex_lock(&lock)
        watched.removeAll { $0 == vm }
        arcade_watchdog_unregister(wake, vm)
        pthread_mutex_unlock(&lock)
        arcade_take_pending_watchdog_signal()
    }

    /// Whether a budgeted callback runs in any watched VM; with `now`, also signals those
    /// past their budget.
    private func look(now: Int64?) -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        // signalled under the lock, so the VM cannot go away meanwhile
        var running = false
        for vm in watched {
            let busy = now.map { arcade_watch(vm, $0) } ?? arcade_is_running(vm)
            running = running || busy != 0
        }
        return running
    }

    private func run() -> Never {
        var pause = timespec(tv_sec: 0, tv_nsec: Int(Self.tick * 1e9))
        while true {
            nanosleep(&pause, nil)
            if look(now: arcade_now_ns()) { continue }
            // Nothing runs: sleep until a callback begins. The second look catches one that
            // began before it could see `asleep`.
            arcade_watchdog_set_asleep(wake, 1)
            if look(now: nil) {
                if arcade_watchdog_exchange_asleep(wake, 0) == 0 { waitForWake() }  // it posted anyway: take the post
                continue
            }
            arcade_watchdog_count_sleep(wake)
            waitForWake()
            // A first look at once: a call's CPU time counts from the watchdog's first look
            // at it, which should not wait a tick.
            _ = look(now: arcade_now_ns())
        }
    }

    /// How many times the thread has gone to sleep for want of a running callback.
    var sleeps: Int { arcade_watchdog_sleeps(wake) }

    private func waitForWake() {
        while sem_wait(&wake.pointee.wake) != 0 && errno == EINTR {}
    }
}
