#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import Foundation
import Testing

@testable import ArcadeTerminal

@Suite("Terminal without a tty")
struct TerminalRefusalTests {
    @Test("refuses an output that is a pipe")
    func pipeOutput() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(throws: TerminalError.outputNotATerminal) {
            try Terminal(input: ends[0], output: ends[1])
        }
        #expect(TerminalError.outputNotATerminal.description.contains("--headless"))
    }

    @Test("refuses an input that is a pipe", .enabled(if: PseudoTerminal.isAvailable))
    func pipeInput() throws {
        let tty = try #require(PseudoTerminal())
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(throws: TerminalError.inputNotATerminal) {
            try Terminal(input: ends[0], output: tty.secondary)
        }
    }

    @Test("refuses a regular file")
    func fileOutput() throws {
        let fd = open("/dev/null", O_WRONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(throws: TerminalError.outputNotATerminal) { try Terminal(input: fd, output: fd) }
    }
}

@Suite("Terminal control sequences")
struct TerminalSequenceTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test("every private mode enter switches on, restore switches off")
    func modesUndone() throws {
        let enter = text(Terminal.enterSequence)
        let restore = text(Terminal.restoreSequence)
        let set = try Regex(#"\x1B\[\?(\d+)h"#)
        let modes = enter.matches(of: set).map { String($0.output[1].substring!) }
        #expect(Set(modes) == ["1049", "1000", "1002", "1003", "1006"])
        for mode in modes {
            #expect(restore.contains("\u{1B}[?\(mode)l"), "mode \(mode) is not switched off")
        }
        // A suspension's resume turns the same modes on again, without the queries.
        let resume = text(Terminal.resumeSequence)
        #expect(Set(resume.matches(of: set).map { String($0.output[1].substring!) }) == Set(modes))
        #expect(!resume.contains("\u{1B}[c") && !resume.contains("\u{1B}[?u"))
        // The cursor goes the other way: hidden on enter, shown on restore.
        #expect(enter.contains("\u{1B}[?25l") && restore.contains("\u{1B}[?25h"))
    }

    @Test("restore pops kitty first, mouse and cursor before the screen, attributes last")
    func restoreOrder() throws {
        let restore = text(Terminal.restoreSequence)
        func position(_ piece: String) throws -> String.Index {
            try #require(restore.range(of: piece)).lowerBound
        }
        #expect(restore.hasPrefix("\u{1B}[<u"))
        #expect(try position("\u{1B}[?2026l") < position("\u{1B}[?1049l"))
        #expect(try position("\u{1B}[?1000l") < position("\u{1B}[?25h"))
        #expect(try position("\u{1B}[?25h") < position("\u{1B}[?1049l"))
        #expect(restore.hasSuffix("\u{1B}[?1049l\u{1B}[0m"))
    }

    @Test("enter queries kitty flags before the device attributes; the push asks for releases")
    func kittyQueries() throws {
        let enter = text(Terminal.enterSequence)
        let query = try #require(enter.range(of: "\u{1B}[?u"))
        let attributes = try #require(enter.range(of: "\u{1B}[c"))
        #expect(query.upperBound <= attributes.lowerBound)
        #expect(Terminal.kittyKeyboardFlags & 2 != 0)  // event types: repeats and releases
        #expect(Terminal.kittyKeyboardFlags & 8 != 0)  // releases for text keys too
        #expect(text(Terminal.kittyPushSequence) == "\u{1B}[>\(Terminal.kittyKeyboardFlags)u")
    }
}

/// Tests on a pseudo-terminal. Serialized: only one terminal may be entered per process, and
/// these install process-wide signal handlers.
@Suite("Terminal on a pseudo-terminal", .serialized, .enabled(if: PseudoTerminal.isAvailable))
struct TerminalPseudoTerminalTests {
    /// Reads until `done` holds for what arrived, for at most `seconds`.
    private func read(
        _ terminal: Terminal, seconds: Double = 2, until done: ([InputEvent]) -> Bool
    ) throws -> [InputEvent] {
        var events: [InputEvent] = []
        let start = TTY.monotonicSeconds()
        while !done(events) && TTY.monotonicSeconds() - start < seconds {
            try terminal.readEvents(timeout: 0.05, into: &events)
        }
        return events
    }

    @Test("enter sets raw mode and writes the enter sequence; restore undoes both, once")
    func enterAndRestore() throws {
        let tty = try #require(PseudoTerminal())
        let before = tty.modes()
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        #expect(terminal.isActive)
        #expect(tty.output() == Terminal.enterSequence)
        let raw = tty.modes()
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(raw.c_oflag & tcflag_t(OPOST) == 0)

        terminal.restore()
        #expect(!terminal.isActive)
        // Never pushed kitty flags, so nothing to pop.
        let restore = Terminal.restoreSequence.dropFirst(Terminal.kittyPopSequence.count)
        #expect(tty.output() == Array(restore))
        let after = tty.modes()
        #expect(after.c_lflag == before.c_lflag)
        #expect(after.c_iflag == before.c_iflag)
        #expect(after.c_oflag == before.c_oflag)
        #expect(after.c_cflag == before.c_cflag)

        terminal.restore()
        #expect(tty.output(quiet: 0.05).isEmpty)
    }

    @Test("keys typed arrive as events, a lone Esc after the timeout, releases inferred")
    func keys() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        terminal.holdTracker = KeyHoldTracker(initialHold: 0.2, repeatHold: 0.05)
        try terminal.enter()
        defer { terminal.restore() }
        _ = tty.output()

        tty.type("q\u{1B}[1;5A")
        let pressed = try read(terminal) { $0.count >= 2 }
        #expect(Array(pressed.prefix(2)) == [key("q"), key("up", .ctrl)])

        tty.type([0x1B])
        let all = try pressed + read(terminal, seconds: 5) { $0.contains(keyUp("esc")) }
        #expect(all.count == 6)
        #expect(
            Set(all) == [
                key("q"), key("up", .ctrl), key("esc"),
                keyUp("q"), keyUp("up", .ctrl), keyUp("esc"),
            ])
        let escape = try #require(all.firstIndex(of: key("esc")))
        let escapeUp = try #require(all.firstIndex(of: keyUp("esc")))
        #expect(escape < escapeUp)
    }

    @Test("a kitty answer pushes our flags, turns inference off, and restore pops them")
    func kittyProtocol() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        defer { terminal.restore() }
        _ = tty.output()
        #expect(terminal.keyboardMode == .probing)

        tty.type("\u{1B}[?0u\u{1B}[?62;22c")
        _ = try read(terminal, seconds: 0.3) { _ in terminal.keyboardMode != .probing }
        #expect(terminal.keyboardMode == .kitty)
        #expect(tty.output() == Terminal.kittyPushSequence)

        tty.type("\u{1B}[97u")
        #expect(try read(terminal) { !$0.isEmpty } == [key("a")])
        // No inference in kitty mode: nothing is released until the terminal says so.
        #expect(try read(terminal, seconds: 0.7) { !$0.isEmpty }.isEmpty)
        tty.type("\u{1B}[97;1:3u")
        #expect(try read(terminal) { !$0.isEmpty } == [keyUp("a")])

        terminal.restore()
        #expect(tty.output() == Terminal.restoreSequence)
    }

    @Test("the output tap sees exactly the bytes the terminal got, set-up and restore included")
    func outputTap() throws {
        final class Seen { var bytes: [UInt8] = [] }
        for kitty in [false, true] {
            let tty = try #require(PseudoTerminal())
            let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
            let seen = Seen()
            terminal.outputTap = { seen.bytes += Array($0) }
            try terminal.enter()
            var got = tty.output()
            tty.type(kitty ? "\u{1B}[?0u\u{1B}[?62;22c" : "\u{1B}[?62;22c")
            _ = try read(terminal, seconds: 0.3) { _ in terminal.keyboardMode != .probing }
            try terminal.write("frame ▀▄ one")
            try terminal.write([0x1B, 0x5B, 0x48])
            terminal.restore()
            got += tty.output()
            #expect(seen.bytes == got, "kitty: \(kitty)")
            #expect(got.starts(with: Terminal.enterSequence))
            let restore = kitty ? Terminal.restoreSequence : Terminal.restoreSequenceWithoutKittyPop
            #expect(Array(got.suffix(restore.count)) == restore)
        }
    }

    @Test("a device attributes answer alone means legacy keys")
    func legacyProtocol() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        defer { terminal.restore() }
        tty.type("\u{1B}[?62;22c")
        _ = try read(terminal, seconds: 0.3) { _ in terminal.keyboardMode != .probing }
        #expect(terminal.keyboardMode == .legacy)
    }

    @Test("a quit before the start-up query is answered waits for the answer, so it never reaches the shell")
    func quickQuitDrainsTheAnswer() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        #expect(terminal.keyboardMode == .probing)
        // the emulator answers 80 ms later, while restore() is already under way
        let answer = Thread {
            usleep(80_000)
            tty.type("\u{1B}[?62;22c")
        }
        answer.start()
        terminal.restore()
        usleep(150_000)
        var fds = pollfd(fd: tty.secondary, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fds, 1, 0) == 0, "the answer was left in the shell's input")
    }

    /// Its bound is `Terminal.startupReplyWait`; what the test checks is that restore()
    /// returns without the answer, not how soon (a loaded machine decides that).
    @Test("a terminal that never answers delays a quit by a bounded time only", .timeLimit(.minutes(1)))
    func silentTerminalQuitIsBounded() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        terminal.restore()
        // and the terminal is restored all the same
        #expect(String(decoding: tty.output(), as: UTF8.self).contains("\u{1B}[?1049l"))
    }

    @Test("SIGWINCH becomes a resize event with the new size")
    func resize() throws {
        let tty = try #require(PseudoTerminal(cols: 80, rows: 24))
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        #expect(terminal.size == TerminalSize(cols: 80, rows: 24))
        try terminal.enter()
        defer { terminal.restore() }
        tty.resize(cols: 132, rows: 43)
        // To the process, not this thread: test threads block SIGWINCH, as libdispatch's do.
        kill(getpid(), SIGWINCH)
        let events = try read(terminal) { !$0.isEmpty }
        #expect(events == [.resize(cols: 132, rows: 43)])
        #expect(terminal.size == TerminalSize(cols: 132, rows: 43))
        // A SIGWINCH that changes nothing reports nothing.
        kill(getpid(), SIGWINCH)
        #expect(try read(terminal, seconds: 0.2) { !$0.isEmpty }.isEmpty)
    }

    @Test("a terminal that hangs up ends the input with inputClosed")
    func hangUp() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        defer { terminal.restore() }
        tty.hangUp()
        #expect(throws: TerminalError.inputClosed) {
            for _ in 0..<20 { _ = try terminal.readEvents(timeout: 0.05) }
        }
    }

    @Test("only one terminal may be entered at a time")
    func oneAtATime() throws {
        let first = try #require(PseudoTerminal())
        let second = try #require(PseudoTerminal())
        let a = try Terminal(input: first.secondary, output: first.secondary)
        let b = try Terminal(input: second.secondary, output: second.secondary)
        try a.enter()
        #expect(throws: TerminalError.alreadyActive) { try b.enter() }
        a.restore()
        try b.enter()
        #expect(b.isActive)
        b.restore()
    }

    @Test("write delivers everything through a full, non-blocking tty buffer")
    func largeWrite() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        defer { terminal.restore() }
        _ = tty.output()
        _ = fcntl(tty.secondary, F_SETFL, fcntl(tty.secondary, F_GETFL) | O_NONBLOCK)
        defer { _ = fcntl(tty.secondary, F_SETFL, fcntl(tty.secondary, F_GETFL) & ~O_NONBLOCK) }

        let payload = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let received = Received()
        let reader = Thread { received.bytes = tty.output(quiet: 10, expected: payload.count) }
        reader.start()
        try terminal.write(payload)
        while !received.isDone { usleep(10_000) }
        #expect(received.bytes == payload)
    }
}

/// What the reader thread of `largeWrite` collected.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [UInt8]? = nil
    var bytes: [UInt8] {
        get { lock.withLock { stored ?? [] } }
        set { lock.withLock { stored = newValue } }
    }
    var isDone: Bool { lock.withLock { stored != nil } }
}
