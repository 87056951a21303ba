#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import Foundation
import Testing

@testable import ArcadeTerminal

/// The device status answers the frame pacing waits for: taken out of the input stream, never
/// keys, however they are cut.
@Suite("Input decoder: status answers")
struct StatusAnswerDecodingTests {
    @Test("`CSI 0 n` and `CSI 3 n` are answers, the keys around them stay keys")
    func answersAreNotKeys() {
        var decoder = InputDecoder()
        let events = decoder.decode(bytes("a\u{1B}[0nb\u{1B}[3n\u{1B}[A"))
        #expect(events == [key("a"), key("b"), key("up")])
        #expect(decoder.takeReplies() == [.deviceStatus, .deviceStatus])
    }

    @Test("an answer cut at any read boundary is still one answer")
    func cutAnswers() {
        let stream = bytes("x\u{1B}[0ny")
        for cut in 1..<stream.count {
            var decoder = InputDecoder()
            var events = decoder.decode(stream[..<cut])
            events += decoder.decode(stream[cut...])
            #expect(events == [key("x"), key("y")], "cut after byte \(cut)")
            #expect(decoder.takeReplies() == [.deviceStatus])
        }
    }
}

extension TerminalPseudoTerminalTests {
    /// Reads input as the loop does until `done`, for at most two seconds.
    private func readUntil(_ terminal: Terminal, _ done: () -> Bool) throws -> [InputEvent] {
        var events: [InputEvent] = []
        let start = TTY.monotonicSeconds()
        while !done() && TTY.monotonicSeconds() - start < 2 {
            try terminal.readEvents(timeout: 0.05, into: &events)
        }
        return events
    }

    @Test("a status query is written as it is, out of the recording's sight, and its answer counted")
    func statusQueryAndAnswer() throws {
        final class Seen { var bytes: [UInt8] = [] }
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        let seen = Seen()
        terminal.outputTap = { seen.bytes += Array($0) }
        try terminal.enter()
        defer { terminal.restore() }
        _ = tty.output()
        try terminal.write("frame")
        try terminal.askStatus()
        try terminal.askStatus()
        #expect(tty.output() == bytes("frame\u{1B}[5n\u{1B}[5n"))
        #expect(seen.bytes.suffix(5) == bytes("frame")[...], "the tap saw a query")
        #expect(terminal.unansweredStatusQueries == 2)
        #expect(!terminal.answersStatus)

        tty.type("\u{1B}[0nq\u{1B}[0n")
        let events = try readUntil(terminal) { terminal.unansweredStatusQueries == 0 }
        #expect(events == [key("q")])
        #expect(terminal.takeStatusAnswers() == 2)
        #expect(terminal.takeStatusAnswers() == 0)
        #expect(terminal.answersStatus)
    }

    @Test("leaving with a status answer on its way waits for it, so it never reaches the shell")
    func quitDrainsTheStatusAnswer() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        tty.type("\u{1B}[?62;22c\u{1B}[0n")  // the start-up answer, and one to an earlier query
        try terminal.askStatus()
        _ = try readUntil(terminal) { terminal.answersStatus }
        try terminal.askStatus()
        // the last frame is still crossing a slow link: its answer comes 300 ms later
        let answer = Thread {
            usleep(300_000)
            tty.type("\u{1B}[0n")
        }
        answer.start()
        terminal.restore()
        usleep(100_000)
        var fds = pollfd(fd: tty.secondary, events: Int16(POLLIN), revents: 0)
        #expect(poll(&fds, 1, 0) == 0, "the answer was left in the shell's input")
    }

    @Test("a terminal that never answered a status query does not hold up leaving")
    func silentStatusQuitIsQuick() throws {
        let tty = try #require(PseudoTerminal())
        let terminal = try Terminal(input: tty.secondary, output: tty.secondary)
        try terminal.enter()
        tty.type("\u{1B}[?62;22c")
        _ = try readUntil(terminal) { terminal.keyboardMode != .probing }
        for _ in 0..<5 { try terminal.askStatus() }
        // never having answered one, it is not waited for: restore() has no answer to
        // expect (it would wait the whole statusReplyWait for answers that never come)
        #expect(!terminal.answersStatus)
        terminal.restore()
        #expect(String(decoding: tty.output(), as: UTF8.self).contains("\u{1B}[?1049l"))
    }
}
