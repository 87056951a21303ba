import CLua
#if canImport(Glibc)
import Glibc
#endif

/// The time budget's watchdog: one thread for the whole process that looks, every few
/// milliseconds, at each VM's current callback and signals the thread of any that has run
/// past its budget. The signal handler (in CLua) then installs the hook that stops it.
///
/// Lua code thus runs with no hook at all on the normal path: a count hook would make Lua
/// 5.4 trap on every instruction. Only an overrunning callback pays, once.
final class Watchdog: @unchecked Sendable {
    static let shared = Watchdog()

    /// How often the watchdog looks: the budget is kept to within about this much.
    static let tick = 0.005

    private var lock = pthread_mutex_t()
    private var watched: [UnsafeMutablePointer<arcade_vm>] = []
    private var thread: pthread_t?

    private init() {
        pthread_mutex_init(&lock, nil)
        arcade_install_watchdog_handler()
    }

    /// Starts watching `vm` (until ``unwatch(_:)``); starts the thread on first use.
    func watch(_ vm: UnsafeMutablePointer<arcade_vm>) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
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
    }

    /// Stops watching `vm`; after this no signal for it is on its way to this thread.
    func unwatch(_ vm: UnsafeMutablePointer<arcade_vm>) {
        pthread_mutex_lock(&lock)
        watched.removeAll { $0 == vm }
        pthread_mutex_unlock(&lock)
        arcade_take_pending_watchdog_signal()
    }

    private func run() -> Never {
        var pause = timespec(tv_sec: 0, tv_nsec: Int(Self.tick * 1e9))
        while true {
            nanosleep(&pause, nil)
            let now = arcade_now_ns()
            pthread_mutex_lock(&lock)
            // signalled under the lock, so the VM cannot go away meanwhile
            for vm in watched { arcade_watch(vm, now) }
            pthread_mutex_unlock(&lock)
        }
    }
}
