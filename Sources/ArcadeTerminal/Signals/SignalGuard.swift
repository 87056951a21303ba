#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Everything the signal handlers read, laid out before the first handler is installed, so a
/// handler only loads from memory and makes async-signal-safe calls (`write`, `tcsetattr`,
/// `tcflush`, `poll`, `sigaction`, `raise`): no allocation, no locks, no Swift runtime work.
struct SignalTimeState {
    /// Where the terminal modes are restored.
    var inputFD: Int32 = -1
    /// Where the restore bytes are written.
    var outputFD: Int32 = -1
    /// The terminal modes from before raw mode.
    var savedTermios = termios()
    /// The raw modes the terminal is in while entered, put back after a suspension.
    var rawTermios = termios()
    /// A private copy of `Terminal.restoreSequence`, so a handler never touches an array.
    var restoreBytes: UnsafeMutablePointer<UInt8>
    var restoreCount: Int
    /// A private copy of `Terminal.resumeSequence` and of the kitty push, written when the
    /// process continues after a suspension.
    var resumeBytes: UnsafeMutablePointer<UInt8>
    var resumeCount: Int
    var kittyPushBytes: UnsafeMutablePointer<UInt8>
    var kittyPushCount: Int
    /// The write end of the self-pipe the SIGWINCH handler writes to.
    var wakeFD: Int32 = -1
    /// The disposition each signal had before ours, indexed by signal number, so a fatal
    /// signal goes on to whoever handled it before (the Swift runtime's backtracer, or the
    /// default action).
    var previousActions: UnsafeMutablePointer<sigaction>
    /// Which signals we installed handlers for (bit `signo`), to put back exactly those.
    var installed: UInt128 = 0
}

/// The one signal-time state of the process.
///
/// `nonisolated(unsafe)` is sound here because the pointee is written only by the thread that
/// enters or restores the terminal, and only while no handler reads it: the fields are filled
/// before `restoreArmed` is set and the handlers are installed, and not touched again until
/// the handlers are removed (`Terminal` admits one active instance, via `terminalClaimed`).
/// Handlers only read. It is a pointer to heap memory rather than a global struct because
/// Swift checks exclusive access to global variables at run time, and a handler interrupting
/// the main thread's access to one would trip that check.
nonisolated(unsafe) let signalTimeState: UnsafeMutablePointer<SignalTimeState> = {
    let state = UnsafeMutablePointer<SignalTimeState>.allocate(capacity: 1)
    let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Terminal.restoreSequence.count)
    bytes.initialize(from: Terminal.restoreSequence, count: Terminal.restoreSequence.count)
    let resume = UnsafeMutablePointer<UInt8>.allocate(capacity: Terminal.resumeSequence.count)
    resume.initialize(from: Terminal.resumeSequence, count: Terminal.resumeSequence.count)
    let push = UnsafeMutablePointer<UInt8>.allocate(capacity: Terminal.kittyPushSequence.count)
    push.initialize(from: Terminal.kittyPushSequence, count: Terminal.kittyPushSequence.count)
    let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: Int(NSIG))
    actions.initialize(repeating: sigaction(), count: Int(NSIG))
    state.initialize(
        to: SignalTimeState(
            restoreBytes: bytes, restoreCount: Terminal.restoreSequence.count,
            resumeBytes: resume, resumeCount: Terminal.resumeSequence.count,
            kittyPushBytes: push, kittyPushCount: Terminal.kittyPushSequence.count,
            previousActions: actions))
    return state
}()

/// True while a terminal is in raw mode and not yet restored. Whoever flips it to false first
/// (a handler, `restore()` or the exit hook) does the restore, so it happens exactly once.
let restoreArmed = Atomic<Bool>(false)

/// How many bytes at the start of the restore sequence to skip: the kitty pop, until the flags
/// were pushed.
let restoreStart = Atomic<Int>(0)

/// True while some `Terminal` is entered; the signal-time state has room for one.
let terminalClaimed = Atomic<Bool>(false)

/// True once the exit hook is registered (it is registered once per process).
let exitHookRegistered = Atomic<Bool>(false)

/// Set when the process continued after a stop (SIGCONT); the loop takes it to repaint.
let continuedAfterStop = Atomic<Bool>(false)

/// Restores the terminal when the process dies by a signal, and turns SIGWINCH into a byte on
/// the self-pipe.
///
/// Fatal signals (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT; Swift's runtime traps
/// raise SIGILL or SIGTRAP) and terminating ones (every other signal whose default action ends
/// the process: SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGXCPU from a CPU-time limit, SIGSYS, the
/// real-time signals and the rest, see ``terminatingSignals``) are handled alike: write the precomputed restore bytes, put back the saved termios, drop
/// pending input, then raise the signal again. A fatal signal goes on to the previous
/// disposition, so a crash still reaches the Swift backtracer, now printing to a sane
/// terminal. A terminating one goes to the default action: the Swift runtime catches SIGQUIT
/// too, to print a backtrace and then wait at a prompt, and a quit is no crash. Either way
/// the process dies of the signal it got (a shell reports 128+signo). Terminating signals end
/// the process at once instead of setting a flag for the loop: the loop may be busy in a long
/// Lua call or blocked writing to a terminal that hung up, and a quit that depends on it might
/// never come.
/// Signals that were ignored when we started (SIGHUP under `nohup`, SIGINT in a background
/// job) stay ignored.
///
/// SIGTSTP (Ctrl-Z reaches the loop as a key in raw mode and is turned into this signal;
/// `kill -TSTP` sends it directly) suspends the way a full-screen program should: restore the
/// terminal, stop, and when continued put raw mode and the screen modes back and wake the loop,
/// which repaints everything. SIGCONT alone (after an uncatchable SIGSTOP) wakes it too.
enum SignalGuard {
    static let fatalSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]
    /// Signals whose default action does not end the process: they are ignored (SIGCHLD,
    /// SIGURG, SIGWINCH), continue it (SIGCONT) or stop it (SIGSTOP, SIGTSTP, SIGTTIN,
    /// SIGTTOU). POSIX fixes this list; every other signal ends the process by default.
    static let harmlessByDefault: [Int32] = [SIGCHLD, SIGURG, SIGWINCH, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU]

    /// Every signal whose default action ends the process, other than the fatal ones and
    /// SIGKILL (which cannot be caught): all numbers from 1 to the last real-time signal, less
    /// ``harmlessByDefault``, the numbers the C library keeps for itself below `SIGRTMIN`, and
    /// SIGXFSZ, which the arcade ignores from its start (`ArcadeProcess.start()`) so that a write
    /// past a file size limit fails with a message. Derived from the table, so a signal is never left out by hand.
    static let terminatingSignals: [Int32] = {
        let firstRealTime = __libc_current_sigrtmin(), lastRealTime = __libc_current_sigrtmax()
        let skipped = Set(harmlessByDefault + fatalSignals + [SIGKILL, SIGXFSZ])
        return (Int32(1)...lastRealTime).filter { signal in
            !skipped.contains(signal) && (signal <= SIGSYS || signal >= firstRealTime)
        }
    }()

    /// Fills the signal-time state and arms the restore. Call before `install()`.
    static func arm(inputFD: Int32, outputFD: Int32, saved: termios, raw: termios, wakeFD: Int32) {
        let state = signalTimeState
        state.pointee.inputFD = inputFD
        state.pointee.outputFD = outputFD
        state.pointee.savedTermios = saved
        state.pointee.rawTermios = raw
        state.pointee.wakeFD = wakeFD
        restoreStart.store(Terminal.kittyPopSequence.count, ordering: .sequentiallyConsistent)
        restoreArmed.store(true, ordering: .sequentiallyConsistent)
        if !exitHookRegistered.exchange(true, ordering: .sequentiallyConsistent) {
            // A host that calls exit() without restoring still leaves a usable shell.
            atexit { SignalGuard.restore() }
        }
    }

    /// Makes the restore include the kitty pop, once our flags are pushed.
    static func includeKittyPop() {
        restoreStart.store(0, ordering: .sequentiallyConsistent)
    }

    /// Installs the handlers, remembering the previous dispositions.
    static func install() {
        ensureAlternateStack()
        for signal in fatalSignals {
            install(signal, handler: handleDeadlySignal, flags: SA_ONSTACK)
        }
        for signal in terminatingSignals {
            install(signal, handler: handleTerminatingSignal, flags: 0)
        }
        install(SIGWINCH, handler: handleResizeSignal, flags: SA_RESTART)
        install(SIGTSTP, handler: handleStopSignal, flags: SA_RESTART)
        install(SIGCONT, handler: handleContinueSignal, flags: SA_RESTART)
    }

    /// Puts back the dispositions `install()` replaced.
    static func uninstall() {
        let state = signalTimeState
        let installed = state.pointee.installed
        for signal in Int32(1)..<Int32(NSIG) where installed & (1 << UInt128(signal)) != 0 {
            _ = sigaction(signal, state.pointee.previousActions + Int(signal), nil)
        }
        state.pointee.installed = 0
    }

    /// Restores the terminal if it is still armed; async-signal-safe. True if this call did it.
    @discardableResult
    static func restore() -> Bool {
        guard restoreArmed.exchange(false, ordering: .sequentiallyConsistent) else { return false }
        let state = signalTimeState
        let start = restoreStart.load(ordering: .sequentiallyConsistent)
        writeForRestore(
            state.pointee.outputFD, state.pointee.restoreBytes + start,
            state.pointee.restoreCount - start)
        _ = tcsetattr(state.pointee.inputFD, TCSANOW, &state.pointee.savedTermios)
        // Key reports still queued (kitty releases above all) would otherwise be typed into
        // the shell as garbage.
        _ = tcflush(state.pointee.inputFD, TCIFLUSH)
        return true
    }

    /// Suspends the process as SIGTSTP's default action would, with the terminal given back
    /// first and taken again after the process continues; async-signal-safe. Returns once
    /// continued (at once when the terminal is not entered: then the process just stops).
    static func suspend() {
        let state = signalTimeState
        let entered = restoreArmed.load(ordering: .sequentiallyConsistent)
        if entered {
            let start = restoreStart.load(ordering: .sequentiallyConsistent)
            writeForRestore(
                state.pointee.outputFD, state.pointee.restoreBytes + start,
                state.pointee.restoreCount - start)
            _ = tcsetattr(state.pointee.inputFD, TCSADRAIN, &state.pointee.savedTermios)
        }
        // Stop by the default action: the handler steps aside, the signal is raised and
        // unblocked (it is blocked while its handler runs), and the process stops right here.
        var ours = sigaction()
        var fallback = sigaction()
        fallback.__sigaction_handler.sa_handler = nil  // SIG_DFL
        _ = sigaction(SIGTSTP, &fallback, &ours)
        var only = sigset_t()
        var before = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, SIGTSTP)
        _ = raise(SIGTSTP)
        _ = sigprocmask(SIG_UNBLOCK, &only, &before)
        // ... stopped until SIGCONT ...
        _ = sigprocmask(SIG_SETMASK, &before, nil)
        _ = sigaction(SIGTSTP, &ours, nil)
        if entered && restoreArmed.load(ordering: .sequentiallyConsistent) {
            _ = tcsetattr(state.pointee.inputFD, TCSADRAIN, &state.pointee.rawTermios)
            writeForRestore(state.pointee.outputFD, state.pointee.resumeBytes, state.pointee.resumeCount)
            if restoreStart.load(ordering: .sequentiallyConsistent) == 0 {
                writeForRestore(state.pointee.outputFD, state.pointee.kittyPushBytes, state.pointee.kittyPushCount)
            }
        }
        markContinued()
    }

    /// Tells the loop that the process continued: a flag, and a byte on the self-pipe to wake
    /// its `poll`.
    static func markContinued() {
        continuedAfterStop.store(true, ordering: .sequentiallyConsistent)
        var byte: UInt8 = 0x43
        _ = write(signalTimeState.pointee.wakeFD, &byte, 1)
    }

    private static func install(
        _ signal: Int32, handler: @convention(c) (Int32) -> Void, flags: Int32
    ) {
        let state = signalTimeState
        let previous = state.pointee.previousActions + Int(signal)
        guard sigaction(signal, nil, previous) == 0 else { return }
        let disposition = previous.pointee.__sigaction_handler.sa_handler
        let ignored = unsafeBitCast(SIG_IGN, to: Int.self)
        if unsafeBitCast(disposition, to: Int.self) == ignored { return }
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        // Block our other signals while one is handled, so two never restore at once.
        sigfillset(&action.sa_mask)
        action.sa_flags = flags
        guard sigaction(signal, &action, nil) == 0 else { return }
        state.pointee.installed |= 1 << UInt128(signal)
    }

    /// Gives this thread an alternate signal stack if it has none, so a stack overflow (SIGSEGV
    /// with no stack left) can still run the handler. The memory is never freed: a handler may
    /// run on it at any time until the process ends.
    private static func ensureAlternateStack() {
        var current = stack_t()
        guard sigaltstack(nil, &current) == 0, Int(current.ss_flags) & SS_DISABLE != 0 else {
            return
        }
        let size = 64 * 1024
        var stack = stack_t(
            ss_sp: UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16), ss_flags: 0,
            ss_size: size)
        _ = sigaltstack(&stack, nil)
    }

    /// `write(2)` until done, in a handler: retries interruptions, waits briefly when the
    /// descriptor is non-blocking and full, and gives up on any other error (the terminal may
    /// be gone, as after SIGHUP).
    private static func writeForRestore(_ fd: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) {
        var offset = 0
        var waits = 0
        while offset < count {
            let written = write(fd, bytes + offset, count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) && waits < 10 {
                waits += 1
                var wait = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&wait, 1, 100)
            } else {
                return
            }
        }
    }
}

/// The handler for fatal and terminating signals; see `SignalGuard`.
private func handleDeadlySignal(_ signal: Int32) {
    let savedErrno = errno
    SignalGuard.restore()
    _ = sigaction(signal, signalTimeState.pointee.previousActions + Int(signal), nil)
    // The signal is blocked while we run, so this one is delivered, to the previous
    // disposition, the moment we return: before the faulting code runs again.
    _ = raise(signal)
    errno = savedErrno
}

/// The handler for terminating signals: as for a fatal one, but the signal is raised again
/// to its default action, whatever handled it before (the Swift runtime's backtracer takes
/// SIGQUIT, then waits at a prompt); see `SignalGuard`.
private func handleTerminatingSignal(_ signal: Int32) {
    let savedErrno = errno
    SignalGuard.restore()
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = nil  // SIG_DFL
    _ = sigaction(signal, &fallback, nil)
    _ = raise(signal)
    errno = savedErrno
}

/// The SIGTSTP handler; see `SignalGuard.suspend()`.
private func handleStopSignal(_ signal: Int32) {
    let savedErrno = errno
    SignalGuard.suspend()
    errno = savedErrno
}

/// The SIGCONT handler: the loop repaints (the screen may have been used while we were
/// stopped by a signal we could not catch).
private func handleContinueSignal(_ signal: Int32) {
    let savedErrno = errno
    SignalGuard.markContinued()
    errno = savedErrno
}

/// The SIGWINCH handler: one byte on the self-pipe wakes the reader, which asks the size
/// itself. A full pipe already has a wake-up waiting, so a failed write loses nothing.
private func handleResizeSignal(_ signal: Int32) {
    let savedErrno = errno
    var byte: UInt8 = 0x57
    _ = write(signalTimeState.pointee.wakeFD, &byte, 1)
    errno = savedErrno
}
