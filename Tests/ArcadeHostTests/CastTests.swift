import Foundation
import Testing
import ArcadeCore
import ArcadeRender
import ArcadeTerminal
import ArcadeTestSupport
@testable import ArcadeHost

/// Writes `chunks` through an ``AsciicastWriter`` (one output event per chunk, at 1, 2, 3...
/// seconds) and returns the file's lines.
private func castLines(_ chunks: [[UInt8]], finish: Bool = true) throws -> [String] {
    let path = NSTemporaryDirectory() + "arcade-cast-\(UUID().uuidString).cast"
    defer { unlink(path) }
    let writer = try AsciicastWriter(path: path, cols: 10, rows: 4, title: "t", timestamp: 1)
    for (i, chunk) in chunks.enumerated() { writer.output(chunk, atMicroseconds: UInt64(i + 1) * 1_000_000) }
    if finish { try writer.finish() }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
}

/// The data of every output event of a cast, in order.
private func outputs(_ cast: AsciicastFile) -> [String] {
    cast.events.filter { $0.code == "o" }.map(\.data)
}

@Suite struct AsciicastWriterTests {
    @Test func headerAndEscaping() throws {
        let lines = try castLines([Array("\u{1B}[H\"q\\\n\r\t\u{7F}é▀😀".utf8)])
        #expect(lines[0] == #"{"version": 2, "width": 10, "height": 4, "timestamp": 1, "title": "t"}"#)
        #expect(lines[1] == #"[1.000000, "o", "\u001b[H\"q\\\u000a\u000d\u0009\u007fé▀😀"]"#)
        #expect(lines[2] == "")  // the file ends with a newline
        #expect(lines.count == 3)
    }

    /// A character split across writes lands whole in the event that completes it.
    @Test func multiByteCharactersSplitAcrossWrites() throws {
        let lines = try castLines([[0x41, 0xE2], [0x96], [0x80, 0x42], [0xF0, 0x9F, 0x98], [0x80]])
        let cast = try AsciicastFile.parse(Array((lines.joined(separator: "\n")).utf8))
        #expect(outputs(cast) == ["A", "▀B", "😀"])
        #expect(cast.events.map(\.time) == [1, 3, 5])
    }

    /// Bytes that are not UTF-8 become U+FFFD; so does a character cut off at the end.
    @Test func invalidBytesBecomeReplacementCharacters() throws {
        let lines = try castLines([[0xFF, 0x41, 0x80, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0x42], [0xE2, 0x96]])
        let cast = try AsciicastFile.parse(Array((lines.joined(separator: "\n")).utf8))
        #expect(outputs(cast) == ["\u{FFFD}A\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}B", "\u{FFFD}\u{FFFD}"])
    }

    /// Whatever the chunking, the events put back together are the text written.
    @Test func anyChunkingKeepsTheText() throws {
        var rng = SeededRandom(seed: 17)
        let alphabet: [Character] = ["a", " ", "\u{1B}", "[", "\"", "\\", "é", "▀", "▄", "█", "😀", "\n", "\u{0}"]
        for _ in 0..<40 {
            let text = String((0..<Int(rng.nextInt(in: 1, 60))).map { _ in alphabet[Int(rng.nextInt(in: 0, Int64(alphabet.count - 1)))] })
            let bytes = Array(text.utf8)
            var chunks: [[UInt8]] = []
            var i = 0
            while i < bytes.count {
                let n = Int(rng.nextInt(in: 1, 5))
                chunks.append(Array(bytes[i..<min(bytes.count, i + n)]))
                i += n
            }
            let lines = try castLines(chunks)
            let cast = try AsciicastFile.parse(Array(lines.joined(separator: "\n").utf8))
            #expect(outputs(cast).joined() == text)
        }
    }

    @Test func timesNeverGoBack() throws {
        let path = NSTemporaryDirectory() + "arcade-cast-\(UUID().uuidString).cast"
        defer { unlink(path) }
        let writer = try AsciicastWriter(path: path, cols: 10, rows: 4)
        writer.output([0x61], atMicroseconds: 5_000_000)
        writer.output([0x62], atMicroseconds: 3_000_000)
        writer.resize(cols: 20, rows: 6, atMicroseconds: 7_123_456)
        try writer.finish()
        let cast = try AsciicastFile.parse(try #require(FileManager.default.contents(atPath: path)).map { $0 })
        #expect(cast.events == [.init(time: 5, code: "o", data: "a"), .init(time: 5, code: "o", data: "b"),
                                .init(time: 7.123456, code: "r", data: "20x6")])
        #expect(cast.header.timestamp != nil)
    }

    @Test func unwritablePathIsRefusedAtOnce() {
        #expect(throws: AsciicastWriter.Problem.self) {
            try AsciicastWriter(path: "/nonexistent-folder/x.cast", cols: 80, rows: 24)
        }
    }
}

@Suite struct AsciicastFileTests {
    let header = #"{"version": 2, "width": 80, "height": 24}"#

    @Test(arguments: [
        (#"{"version": 2, "width": 80, "height": 24}"# + "\n" + #"[0.5, "o", "hi"]"#, "line 2: the file must end with a newline"),
        ("", "line 1: the file must end with a newline"),
        ("\n", "line 1: header: invalid JSON at byte 0: unexpected end of text, expected a value"),
        (#"{"version": 1, "width": 80, "height": 24}"# + "\n", "line 1: header: version 1, expected 2"),
        (#"{"width": 80, "height": 24}"# + "\n", "line 1: header: 'version' is missing"),
        (#"{"version": 2, "width": 0, "height": 24}"# + "\n", "line 1: header: 'width' must be a whole number above 0"),
        (#"{"version": 2, "width": 80}"# + "\n", "line 1: header: 'height' must be a whole number above 0"),
        (#"{"version": 2, "width": 80, "height": 24, "colour": 1}"# + "\n", "line 1: header: unknown field 'colour'"),
        (#"{"version": 2, "width": 80, "height": 24, "title": 5}"# + "\n", "line 1: header: 'title' must be a string"),
        (#"{"version": 2, "width": 80, "height": 24, "env": {"TERM": 1}}"# + "\n", "line 1: header: 'env' must be an object of strings"),
        (#"[2, 80, 24]"# + "\n", "line 1: the header must be a JSON object"),
    ])
    func badHeader(text: String, message: String) {
        #expect(problem(text) == message)
    }

    @Test(arguments: [
        (#"[0.5, "o"]"#, "line 2: an event must be an array [time, code, data]"),
        (#"{"time": 0.5}"#, "line 2: an event must be an array [time, code, data]"),
        (#"[-1, "o", "x"]"#, "line 2: an event's time must be a number of seconds, 0 or more"),
        (#"["0.5", "o", "x"]"#, "line 2: an event's time must be a number of seconds, 0 or more"),
        (#"[0.5, "x", "x"]"#, "line 2: an event's code must be \"o\", \"i\", \"m\" or \"r\""),
        (#"[0.5, "o", 7]"#, "line 2: an event's data must be a string"),
        (#"[0.5, "r", "80 by 24"]"#, "line 2: a resize event's data must be COLSxROWS, got \"80 by 24\""),
        (#"[0.5, "o", "a"] x"#, "line 2: invalid JSON at byte 16: unexpected 'x' after the value"),
        ("[0.5, \"o\", \"\u{1B}\"]", "line 2: invalid JSON at byte 12: control character 0x1b must be escaped in a string"),
        ("", "line 2: blank line"),
    ])
    func badEvent(line: String, message: String) {
        #expect(problem(header + "\n" + line + "\n") == message)
    }

    @Test func timeMustNotGoBack() {
        #expect(problem(header + "\n[1.5, \"o\", \"a\"]\n[1.5, \"o\", \"b\"]\n[1.25, \"o\", \"c\"]\n")
                == "line 4: time 1.25 comes before the previous event's 1.5")
    }

    @Test func goodFile() throws {
        let text = #"{"version": 2, "width": 80, "height": 24, "timestamp": 1700000000, "title": "x", "env": {"TERM": "xterm"}, "idle_time_limit": 2.5}"#
            + "\n" + #"[0.0, "o", "\u001b[Hé"]"# + "\n" + #"[0.25, "r", "100x30"]"# + "\n" + #"[0.25, "m", ""]"# + "\n"
        let cast = try AsciicastFile.parse(Array(text.utf8))
        #expect(cast.header == .init(width: 80, height: 24, timestamp: 1_700_000_000, title: "x"))
        #expect(cast.events == [.init(time: 0, code: "o", data: "\u{1B}[Hé"), .init(time: 0.25, code: "r", data: "100x30"),
                                .init(time: 0.25, code: "m", data: "")])
    }

    func problem(_ text: String) -> String? {
        do {
            _ = try AsciicastFile.parse(Array(text.utf8))
            return nil
        } catch {
            return error.description
        }
    }
}

/// `--cast`, headless: the recording of a coin bank burst, replayed through a model of the
/// terminal, shows at every step exactly the frame the game drew at that step.
@Suite struct CastReplayTests {
    static let script = "1 key space\n70 resize 100 30\n"

    /// The frame after each step of the same run, in process.
    func framesInProcess(steps: Int) throws -> (frames: [Frame], background: Color) {
        let session = try GameSession(entry: try repositoryGame("coinbank"), options: .init(seed: 4))
        let script = try InputScript.parse(Self.script)
        var frames: [Frame] = []
        for step in 0..<steps {
            session.step(events: script.entries.filter { $0.frame == step }.map(\.event))
            frames.append(session.renderFrame())
        }
        return (frames, session.scene.background)
    }

    @Test func headlessCastReplaysToTheHeadlessFrames() throws {
        let dir = try temporaryFolder("cast")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.script.write(toFile: dir + "/burst.txt", atomically: true, encoding: .utf8)
        let steps = 150
        let common = ["play", "coinbank", "--games", repositoryGames, "--headless", "--seed", "4", "--input", dir + "/burst.txt"]
        let run = try runArcade(common + ["--frames", "\(steps)", "--cast", dir + "/burst.cast"])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out.isEmpty)
        let bytes = try #require(FileManager.default.contents(atPath: dir + "/burst.cast")).map { $0 }
        let cast = try AsciicastFile.parse(bytes)

        let check = try runArcade(["cast-check", dir + "/burst.cast"])
        #expect(check.status == 0)
        #expect(check.out.hasPrefix("ok    \(dir)/burst.cast: asciicast v2, 80x24, "))

        #expect(cast.header.width == 80 && cast.header.height == 24)
        #expect(cast.header.title == "arcade: Coin Bank")
        let first = try #require(cast.events.first)
        #expect(first.time == 0 && first.data == String(decoding: Terminal.enterSequence, as: UTF8.self))
        let last = try #require(cast.events.last)
        #expect(last.data == String(decoding: Terminal.restoreSequenceWithoutKittyPop, as: UTF8.self))
        #expect(abs(last.time - Double(steps) / 60) < 1e-5)
        #expect(cast.events.filter { $0.code == "r" }.map(\.data) == ["100x30"])

        let (frames, background) = try framesInProcess(steps: steps)
        var screen = VTModel(columns: cast.header.width, rows: cast.header.height,
                             fill: .init(scalar: "?", foreground: .white, background: .white))
        var next = 0
        var compared = 0
        for step in 1...steps {
            // the events up to this step's time: frame n is at n / 60 s
            while next < cast.events.count, Int((cast.events[next].time * 60).rounded()) <= step {
                let e = cast.events[next]
                if e.code == "r", let size = AsciicastFile.parseSize(e.data) {
                    screen.resize(columns: size.cols, rows: size.rows)
                } else if e.code == "o" {
                    screen.feed(Array(e.data.utf8))
                }
                next += 1
            }
            let frame = frames[step - 1]
            try #require(screen.columns == frame.columns && screen.rows == frame.rows, "size at step \(step)")
            var wrong = 0
            for row in 0..<frame.rows {
                for column in 0..<frame.columns where screen.appearance(column: column, row: row) != frame[column, row].appearance {
                    wrong += 1
                }
            }
            #expect(wrong == 0, "\(wrong) cells differ at step \(step)")
            compared += 1
        }
        #expect(compared == steps)
        #expect(screen.errors.isEmpty, "\(screen.errors.prefix(5))")
        #expect(screen.queries == ["?u", "c"])  // the set-up's kitty and device queries, nothing else

        // and as text, the frame --dump-frame prints at step 60, mid-burst
        let dump = try runArcade(common + ["--frames", "60", "--dump-frame"])
        var replay = VTModel(columns: 80, rows: 24, fill: .init(scalar: " ", foreground: .white, background: .black))
        for e in cast.events where e.code == "o" && Int((e.time * 60).rounded()) <= 60 { replay.feed(Array(e.data.utf8)) }
        var shown = Frame(columns: 80, rows: 24)
        for row in 0..<24 {
            for column in 0..<80 {
                let g = replay[column, row]
                shown[column, row] = Cell(character: g.scalar, foreground: g.foreground, background: g.background)
            }
        }
        #expect(shown.plainText(background: background) + "\n" == dump.out)
    }

    /// `--profile` and `--cast` together: the recording is the same as without the profiler.
    @Test func profilingRecordsTheSameBytes() throws {
        let dir = try temporaryFolder("cast-profile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try Self.script.write(toFile: dir + "/burst.txt", atomically: true, encoding: .utf8)
        let common = ["play", "coinbank", "--games", repositoryGames, "--headless", "--seed", "4", "--input", dir + "/burst.txt",
                      "--frames", "90"]
        #expect(try runArcade(common + ["--cast", dir + "/a.cast"]).status == 0)
        #expect(try runArcade(common + ["--cast", dir + "/b.cast", "--profile"]).status == 0)
        let a = try AsciicastFile.parse(try #require(FileManager.default.contents(atPath: dir + "/a.cast")).map { $0 })
        let b = try AsciicastFile.parse(try #require(FileManager.default.contents(atPath: dir + "/b.cast")).map { $0 })
        #expect(a.events == b.events)
    }

    @Test func badCastPathFailsBeforeTheRun() throws {
        let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--frames", "5", "--cast", "/nonexistent-dir/x.cast"])
        #expect(r.status == 2)
        #expect(r.err.contains("cannot write the recording '/nonexistent-dir/x.cast'"))
    }
}
