#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// The tty the arcade plays on: raw mode, the alternate screen, mouse and kitty keyboard
/// reporting, input events, and a restore that always happens.
///
/// Life cycle: `init` checks that input and output are terminals (and throws otherwise, so the
/// host can suggest `--headless`); `enter()` switches every mode on; the loop calls
/// `readEvents(timeout:)` and `write(_:)`; `restore()` (also run by `deinit`, by a handler for
/// fatal and terminating signals, and at `exit`) switches them off again. Only one terminal
/// may be entered at a time, because the signal handlers restore one.
///
/// Not thread-safe: one thread (the loop) owns it.
public final class Terminal {
    /// Where keys come from (normally standard input).
    public let inputFD: Int32
    /// Where frames go (normally standard output).
    public let outputFD: Int32

    /// True between `enter()` and `restore()`.
    public private(set) var isActive = false

    /// How keys are reported: found out after `enter()` from the terminal's answers.
    public internal(set) var keyboardMode: KeyboardMode = .probing

    /// How long input must be quiet before a held-back ESC counts as the Esc key (seconds).
    /// Sequences arrive in one burst, so a gap this long means the ESC stood alone.
    public var escapeTimeout: Double = 0.025

    /// Whether `readEvents` infers key releases with `holdTracker` when the terminal does not
    /// report them (every mode but `.kitty`).
    public var infersKeyRelease = true

    /// The release inference used when `infersKeyRelease` is on; its timeouts may be tuned.
    public var holdTracker = KeyHoldTracker()

    var decoder = InputDecoder()
    /// The terminal modes from before `enter()`.
    var originalTermios = termios()
    /// The self-pipe the SIGWINCH handler writes to.
    var wakeRead: Int32 = -1
    var wakeWrite: Int32 = -1
    /// Reused read buffer and event scratch, so reading allocates nothing per call.
    var readBuffer = [UInt8](repeating: 0, count: 4096)
    var scratch: [InputEvent] = []
    var pollSet = [pollfd](repeating: pollfd(), count: 2)
    /// When the last input byte arrived (monotonic seconds), for the lone-ESC timeout.
    var lastByteTime = 0.0
    /// The size last reported, so a SIGWINCH that changes nothing reports nothing.
    var lastSize = TerminalSize.fallback
    /// Status queries (`askStatus()`) written and not answered yet.
    public internal(set) var unansweredStatusQueries = 0
    /// True once the terminal answered a status query: it answers every one, in order.
    public internal(set) var answersStatus = false
    /// Answers not yet counted out by `takeStatusAnswers()`.
    var untakenStatusAnswers = 0
    /// The watch for Ctrl-C during long work (``watchingForInterrupt(_:_:)``), made on first use.
    var interruptWatch: InterruptWatch?
    /// Input the watch read, for the next `readEvents` to decode first.
    var carriedInput: [UInt8] = []

    /// Sees every byte written to the terminal, in order, right after it was written: the
    /// set-up sequence, each `write`, and the restore sequence (for recordings, `--cast`).
    /// Not called from the signal handlers' restore.
    public var outputTap: ((UnsafeRawBufferPointer) -> Void)?

    /// Opens the terminal on `input` and `output` (standard input and output by default)
    /// without changing anything yet.
    ///
    /// - Throws: `TerminalError.outputNotATerminal` or `.inputNotATerminal` when either is a
    ///   pipe, a file or anything else that is not a tty.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(TerminalError) {
        guard isatty(output) == 1 else { throw .outputNotATerminal }
        guard isatty(input) == 1 else { throw .inputNotATerminal }
        inputFD = input
        outputFD = output
        scratch.reserveCapacity(64)
        lastSize = size
    }

    deinit {
        restore()
    }

    /// The terminal's size now (`ioctl(TIOCGWINSZ)`); `TerminalSize.fallback` (80 x 24) when
    /// the terminal will not say.
    public var size: TerminalSize {
        TTY.windowSize(outputFD) ?? TTY.windowSize(inputFD) ?? .fallback
    }

    /// Switches the terminal into play: raw mode (the original modes kept for `restore()`), the
    /// restore handlers for fatal and terminating signals, the SIGWINCH handler, then
    /// `enterSequence` (alternate screen, hidden cursor, SGR mouse, bracketed paste off, and
    /// the kitty keyboard query, answered later through `readEvents`). Does nothing if already
    /// entered.
    ///
    /// - Throws: `TerminalError.alreadyActive` when another terminal is entered, or
    ///   `.systemCall` when the tty refuses; everything done so far is undone first.
    public func enter() throws(TerminalError) {
        if isActive { return }
        guard terminalClaimed.compareExchange(
            expected: false, desired: true, ordering: .sequentiallyConsistent
        ).exchanged else { throw .alreadyActive }
        isActive = true
        do throws(TerminalError) {
            guard tcgetattr(inputFD, &originalTermios) == 0 else {
                throw .systemCall("tcgetattr", errno: errno)
            }
            (wakeRead, wakeWrite) = try TTY.makeWakePipe()
            var raw = TTY.rawMode(from: originalTermios)
            SignalGuard.arm(
                inputFD: inputFD, outputFD: outputFD, saved: originalTermios, raw: raw, wakeFD: wakeWrite)
            SignalGuard.install()
            guard tcsetattr(inputFD, TCSAFLUSH, &raw) == 0 else {
                throw .systemCall("tcsetattr", errno: errno)
            }
            keyboardMode = .probing
            (unansweredStatusQueries, untakenStatusAnswers, answersStatus) = (0, 0, false)
            decoder.reset()
            _ = decoder.takeReplies()
            _ = holdTracker.releaseAll()
            lastSize = size
            try write(Self.enterSequence)
        } catch {
            restore()
            throw error
        }
    }

    /// Gives the terminal back as it was: `restoreSequence` (kitty flags popped if we pushed
    /// them, mouse off, cursor shown, alternate screen left, attributes reset), the original
    /// termios, pending input dropped, and the signal handlers removed. Safe to call any number
    /// of times, and after a signal handler already restored.
    public func restore() {
        guard isActive else { return }
        isActive = false
        awaitAnswers(startup: true)
        if SignalGuard.restore(), let outputTap {
            let bytes = keyboardMode == .kitty ? Self.restoreSequence : Self.restoreSequenceWithoutKittyPop
            bytes.withUnsafeBytes { outputTap($0) }
        }
        SignalGuard.uninstall()
        for end in [wakeRead, wakeWrite] where end >= 0 { close(end) }
        (wakeRead, wakeWrite) = (-1, -1)
        terminalClaimed.store(false, ordering: .sequentiallyConsistent)
    }

    /// Suspends the process the way Ctrl-Z does in a shell (raw mode delivers Ctrl-Z as a key,
    /// so the loop calls this): the terminal is restored, the process stops, and once a `fg`
    /// continues it the terminal is entered again and ``takeContinued()`` turns true. Returns
    /// after the process continued; does nothing when SIGTSTP was ignored at start (then the
    /// shell has no job control to come back with).
    public func suspend() {
        guard isActive else { return }
        awaitAnswers(startup: false)  // so that none reaches the shell
        _ = raise(SIGTSTP)
    }

    /// True once after the process continued from a stop (a suspension or a SIGSTOP): the
    /// screen was given to someone else meanwhile, so repaint all of it; held keys were
    /// released long ago. A size changed meanwhile comes as a resize from the next read.
    public func takeContinued() -> Bool {
        guard continuedAfterStop.exchange(false, ordering: .sequentiallyConsistent) else { return false }
        _ = holdTracker.releaseAll()
        return true
    }

    /// Writes `bytes` to the terminal, all of them: partial writes are continued, interrupted
    /// ones retried.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(TerminalError) {
        try TTY.writeAll(outputFD, bytes)
        outputTap?(bytes)
    }

    /// Writes `bytes` to the terminal, all of them.
    public func write(_ bytes: [UInt8]) throws(TerminalError) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(TerminalError) in try write(buffer) }
        }.get()
    }

    /// Writes `text` as UTF-8 to the terminal, all of it.
    public func write(_ text: String) throws(TerminalError) {
        var text = text
        try text.withUTF8 { buffer in
            Result { () throws(TerminalError) in try write(UnsafeRawBufferPointer(buffer)) }
        }.get()
    }
}
