#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

@testable import ArcadeTerminal

/// How the child process ends while its terminal is entered.
enum ChildEnding: String, CaseIterable, Sendable {
    case fatalError, nilPointer, stackOverflow, abort, sigterm, sighup, sigint, exit
    // every other signal whose default action ends the process
    case sigquit, sigusr1, sigusr2, sigpipe, sigalrm

    /// How the child should have died: by this signal (a trap may be SIGILL or SIGTRAP), or by
    /// exiting with status 0 (`nil`).
    var signals: Set<Int32>? {
        switch self {
        case .fatalError: [SIGILL, SIGTRAP]
        case .nilPointer, .stackOverflow: [SIGSEGV, SIGBUS]
        case .abort: [SIGABRT]
        case .sigterm: [SIGTERM]
        case .sighup: [SIGHUP]
        case .sigint: [SIGINT]
        case .sigquit: [SIGQUIT]
        case .sigusr1: [SIGUSR1]
        case .sigusr2: [SIGUSR2]
        case .sigpipe: [SIGPIPE]
        case .sigalrm: [SIGALRM]
        case .exit: nil
        }
    }
}

/// The environment variable that turns the test process into a child that dies on purpose.
private let childVariable = "ARCADE_TERMINAL_TEST_CHILD"
/// The same for a child that sends itself the signal whose number this variable holds.
private let signalChildVariable = "ARCADE_TERMINAL_TEST_SIGNAL"

/// Each test spawns this test binary again, running only `child()`, with a pseudo-terminal as
/// its standard input; the child enters the terminal and dies. The parent checks what reached
/// the terminal and its modes afterwards: the real signal handlers, in a real process death.
@Suite("Terminal restore when the process dies")
struct TerminalSignalTests {
    @Test("the terminal is restored", arguments: ChildEnding.allCases)
    func restoredAfter(ending: ChildEnding) throws {
        try Self.expectRestored(child: "child", environment: [childVariable: ending.rawValue], dyingOf: ending.signals)
    }

    /// The signals that end a process by default, as signal(7) lists them: each must be in
    /// the guard's list, which is derived from the table rather than written out.
    @Test("every signal that ends a process by default is handled")
    func theListCoversTheTable() {
        let standard: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGTERM,
                                 16 /* SIGSTKFLT */, SIGXCPU, SIGVTALRM, SIGPROF, SIGIO, 30 /* SIGPWR */, SIGSYS]
        let realTime = Array(__libc_current_sigrtmin()...__libc_current_sigrtmax())
        let handled = Set(SignalGuard.terminatingSignals)
        for signal in standard + realTime { #expect(handled.contains(signal), "signal \(signal) is not handled") }
        // and none whose default action leaves the process running, nor the uncatchable ones
        for signal in SignalGuard.harmlessByDefault + [SIGKILL, SIGXFSZ] { #expect(!handled.contains(signal)) }
    }

    @Test("the terminal is restored after each terminating signal", arguments: SignalGuard.terminatingSignals)
    func restoredAfterSignal(signal: Int32) throws {
        try Self.expectRestored(child: "signalChild", environment: [signalChildVariable: String(signal)], dyingOf: [signal])
    }

    /// Runs this test binary again as the child test `child`, with a pseudo-terminal as its
    /// standard input and `environment` added, and checks that it died of one of `signals` (or
    /// exited with 0, for nil) with the terminal given back as it was.
    static func expectRestored(child name: String, environment extra: [String: String], dyingOf signals: Set<Int32>?,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tty = try #require(PseudoTerminal())
        let before = tty.modes()

        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = [
            "--testing-library", "swift-testing", "--filter", "TerminalSignalTests/\(name)\\(",
        ]
        var environment = ProcessInfo.processInfo.environment
        environment.merge(extra) { $1 }
        environment["SWIFT_BACKTRACE"] = "enable=no"  // die at once, without a backtrace
        child.environment = environment
        child.standardInput = FileHandle(fileDescriptor: tty.secondary, closeOnDealloc: false)
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        child.waitUntilExit()

        if let signals {
            #expect(child.terminationReason == .uncaughtSignal, sourceLocation: sourceLocation)
            #expect(signals.contains(child.terminationStatus), "died of \(child.terminationStatus)",
                    sourceLocation: sourceLocation)
        } else {
            #expect(child.terminationReason == .exit && child.terminationStatus == 0, sourceLocation: sourceLocation)
        }
        let restore = Array(Terminal.restoreSequence.dropFirst(Terminal.kittyPopSequence.count))
        #expect(tty.output() == Terminal.enterSequence + restore, sourceLocation: sourceLocation)
        let after = tty.modes()
        #expect(after.c_lflag == before.c_lflag, sourceLocation: sourceLocation)
        #expect(after.c_iflag == before.c_iflag, sourceLocation: sourceLocation)
        #expect(after.c_oflag == before.c_oflag, sourceLocation: sourceLocation)
    }

    /// The child of `restoredAfterSignal`: enter the terminal, then send itself the signal.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[signalChildVariable] != nil))
    func signalChild() throws {
        let number = try #require(ProcessInfo.processInfo.environment[signalChildVariable].flatMap { Int32($0) })
        // the arcade starts with each signal's default action; a test runner may have changed it
        signal(number, SIG_DFL)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, number)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        let terminal = try Terminal(input: STDIN_FILENO, output: STDIN_FILENO)
        try terminal.enter()
        kill(getpid(), number)
        sleep(10)  // a process-directed signal is handled on another thread meanwhile
        withExtendedLifetime(terminal) {}
    }

    /// The child's part: enter the terminal on standard input, then die as told. Skipped
    /// unless run as a child.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[childVariable] != nil))
    func child() throws {
        let ending = try #require(
            ProcessInfo.processInfo.environment[childVariable].flatMap(ChildEnding.init))
        // the arcade starts with SIGPIPE's default action; a test runner may ignore it
        if ending == .sigpipe { signal(SIGPIPE, SIG_DFL) }
        let terminal = try Terminal(input: STDIN_FILENO, output: STDIN_FILENO)
        try terminal.enter()
        switch ending {
        case .fatalError:
            fatalError("dying on purpose")
        case .nilPointer:
            UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = 1
        case .stackOverflow:
            _ = descend(1)
        case .abort:
            Glibc.abort()
        case .sigterm:
            kill(getpid(), SIGTERM)
        case .sighup:
            kill(getpid(), SIGHUP)
        case .sigint:
            kill(getpid(), SIGINT)
        case .sigquit:
            kill(getpid(), SIGQUIT)
        case .sigusr1:
            kill(getpid(), SIGUSR1)
        case .sigusr2:
            kill(getpid(), SIGUSR2)
        case .sigpipe:
            kill(getpid(), SIGPIPE)
        case .sigalrm:
            kill(getpid(), SIGALRM)
        case .exit:
            Glibc.exit(0)
        }
        sleep(10)  // a process-directed signal is handled on another thread meanwhile
        withExtendedLifetime(terminal) {}
    }
}

/// Recursion that never ends (the optimiser cannot tell), to overflow the stack.
@inline(never) private func descend(_ depth: Int) -> Int {
    var frame = (depth, depth, depth, depth)
    return withUnsafeMutableBytes(of: &frame) { $0.count } + (depth == 0 ? 0 : descend(depth &+ 1))
}
