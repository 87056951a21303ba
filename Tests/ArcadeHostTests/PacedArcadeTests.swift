import Foundation
import Testing
import ArcadeCore
import ArcadeRender
import ArcadeTerminal
import ArcadeTestSupport
@testable import ArcadeHost

/// Everything the arcade writes to a pseudo-terminal, read as it comes by a thread of its own
/// (so that a write never waits on a full tty buffer).
final class TerminalTranscript: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var data: [UInt8] = []
    private var running = true
    private var thread: Thread?

    init(reading fd: Int32) {
        self.fd = fd
        let thread = Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while lock.withLock({ running }) {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 10) > 0 else { continue }
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { lock.withLock { data += chunk[0..<n] } } else if n == 0 || errno == EIO { return }
            }
        }
        self.thread = thread
        thread.start()
    }

    /// What was written so far, once nothing more has come for `quiet` seconds.
    func bytes(quiet: Double = 0.1) -> [UInt8] {
        var seen = -1
        while true {
            let now = lock.withLock { data.count }
            if now == seen { break }
            seen = now
            usleep(useconds_t(quiet * 1e6))
        }
        return lock.withLock { data }
    }

    func stop() {
        lock.withLock { running = false }
        while thread?.isFinished == false { usleep(1000) }
    }
}

/// The interactive arcade playing fishing on a pseudo-terminal, driven a turn at a time on a
/// clock of the test's own (a 60th of a second a turn, one step each), with the test as the
/// terminal: it answers each status query `delay` seconds after the frame it follows went out
/// (nil: never), as a link that takes that long would.
final class PacedArcade {
    let app: ArcadeApp
    let pty: PseudoTerminal
    let transcript: TerminalTranscript
    let delay: Double?
    private(set) var time = 0.0
    private(set) var turns = 0
    /// The turns that wrote a frame.
    private(set) var drawnAt: [Int] = []
    /// When each query not answered yet went out.
    private var asked: [Double] = []
    private var read: [InputEvent] = []

    /// `answersStartup`: the terminal answered the start-up query (so it is known to answer).
    init(delay: Double?, answersStartup: Bool = true, cols: Int = 160, rows: Int = 50) throws {
        self.delay = delay
        (app, pty) = try InteractiveAppTests.app(games: repositoryGames, id: "fishing", cols: cols, rows: rows)
        makeRaw(pty)
        app.output.encoder.colorMode = .trueColor  // so that a screen replayed shows the frame's own colours
        transcript = TerminalTranscript(reading: pty.primary)
        app.pacingClock = { [unowned self] in time }
        app.profileWindowStart = 0
        // every write but the queries: one a frame
        app.terminal.outputTap = { [unowned self] _ in drawnAt.append(turns) }
        if answersStartup {
            pty.type("\u{1B}[?62;22c")
            try readUntil { app.terminal.keyboardMode != .probing }
        }
    }

    deinit { transcript.stop() }

    /// Reads input as the loop does until `done`, for two seconds at most.
    private func readUntil(_ done: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(2)
        while !done() && Date() < deadline { try app.terminal.readEvents(timeout: 0.05, into: &read) }
        #expect(done(), "the terminal's input never arrived")
    }

    /// One turn: the answers due by now reach the arcade, then `events` and one step.
    func turn(_ events: [InputEvent] = []) throws {
        if let delay {
            let due = asked.prefix { $0 + delay <= time + 1e-9 }.count
            if due > 0 {
                asked.removeFirst(due)
                let expected = app.terminal.unansweredStatusQueries - due
                pty.type(String(repeating: "\u{1B}[0n", count: due))
                try readUntil { app.terminal.unansweredStatusQueries == expected }
            }
        }
        try app.turn(read + events, steps: 1, at: time)
        read.removeAll()
        for _ in asked.count..<max(asked.count, app.terminal.unansweredStatusQueries) { asked.append(time) }
        turns += 1
        time = Double(turns) / 60
    }

    /// Frames written so far (each starts a synchronized update).
    var output: [UInt8] { transcript.bytes() }
}

/// Raw mode on the arcade's side, as the terminal layer sets it when it enters: bytes pass
/// untouched both ways.
func makeRaw(_ pty: PseudoTerminal) {
    var raw = pty.modes
    cfmakeraw(&raw)
    tcsetattr(pty.secondary, TCSANOW, &raw)
}

/// Splits `bytes` at each frame start; the pieces and how many status queries there were.
func frames(in bytes: [UInt8]) -> [[UInt8]] {
    let start = Array("\u{1B}[?2026h".utf8)
    var pieces: [[UInt8]] = []
    var i = 0
    while i < bytes.count {
        if bytes[i...].starts(with: start) || pieces.isEmpty { pieces.append([]) }
        pieces[pieces.count - 1].append(bytes[i])
        i += 1
    }
    return pieces
}

/// `bytes` without any status query in them.
func withoutStatusQueries(_ bytes: [UInt8]) -> [UInt8] {
    let query = Terminal.statusQuery
    var out: [UInt8] = []
    var i = 0
    while i < bytes.count {
        if bytes[i...].starts(with: query) { i += query.count; continue }
        out.append(bytes[i])
        i += 1
    }
    return out
}

func screen(of bytes: [UInt8], cols: Int = 160, rows: Int = 50) -> VTModel {
    var model = VTModel(columns: cols, rows: rows,
                        fill: .init(scalar: " ", foreground: VTModel.defaultForeground, background: VTModel.defaultBackground))
    model.feed(bytes)
    return model
}

/// Frame pacing in the interactive arcade, on the test's own clock, so that nothing depends on
/// how fast the machine is: the frames it lets out, their bytes, and the game's time.
@Suite(.serialized) struct PacedArcadeTests {
    /// A local terminal answers within a step: a frame every step, each followed by one status
    /// query, and without those queries the bytes are exactly what the loop wrote before
    /// pacing (a step, then `draw()`, every turn).
    @Test func atFullSpeedEveryStepDrawsTheSameBytes() throws {
        let turns = 120
        let paced = try PacedArcade(delay: 0)
        for i in 0..<turns { try paced.turn(i == 20 ? [.key(KeyEvent("space"))] : []) }
        let pacedBytes = paced.output

        let (app, pty) = try InteractiveAppTests.app(games: repositoryGames, id: "fishing", cols: 160, rows: 50)
        makeRaw(pty)
        app.output.encoder.colorMode = .trueColor
        let reference = TerminalTranscript(reading: pty.primary)
        defer { reference.stop() }
        for i in 0..<turns {
            app.handle(i == 20 ? [.key(KeyEvent("space"))] : [])
            app.step()
            _ = try app.draw()
        }
        let today = reference.bytes()

        let pacedFrames = frames(in: pacedBytes)
        #expect(pacedFrames.count == turns, "one frame a step")
        #expect(pacedFrames.allSatisfy { $0.count > Terminal.statusQuery.count && $0.suffix(4) == Terminal.statusQuery[...] },
                "each frame ends with its status query")
        // (compared first: a failed #expect on two arrays this long would diff them for ever)
        let same = withoutStatusQueries(pacedBytes) == today
        #expect(same, "the frames' bytes are not today's")
        #expect(withoutStatusQueries(pacedBytes).count == pacedBytes.count - turns * Terminal.statusQuery.count)
        #expect(app.session?.frame == paced.app.session?.frame)
    }

    /// Over a link whose answers take 100 ms, the game steps on at 60 Hz exactly as it does at
    /// full speed (the same steps, the same state), only the frames are fewer; and the frame
    /// after the last answer shows the latest state exactly, though it was encoded against a
    /// frame many steps older.
    @Test func pacingLeavesGameTimeAlone() throws {
        let turns = 300
        let script: [Int: InputEvent] = [30: .key(KeyEvent("space")), 150: .key(KeyEvent("space")), 200: .key(KeyEvent("down"))]
        func play(_ delay: Double) throws -> (PacedArcade, [UInt8]) {
            let run = try PacedArcade(delay: delay)
            for i in 0..<turns { try run.turn(script[i].map { [$0] } ?? []) }
            return (run, run.output)
        }
        let (fast, fastBytes) = try play(0)
        let (slow, slowBytes) = try play(0.1)
        let fastSession = try #require(fast.app.session)
        let slowSession = try #require(slow.app.session)
        #expect(fastSession.stepsRun == turns && slowSession.stepsRun == turns)
        #expect(try fastSession.state().json(pretty: true) == slowSession.state().json(pretty: true))

        let fastFrames = frames(in: fastBytes).count
        let slowFrames = frames(in: slowBytes).count
        #expect(fastFrames == turns)
        // a frame, then 100 ms (six steps) until its answer lets the next one go
        #expect(slowFrames == (turns + 5) / 6, "\(slowFrames) frames")

        // the last frame of the slow run went out at step 294 and shows that step exactly:
        // the fast run's screen six steps before its end
        let fastScreen = screen(of: Array(frames(in: fastBytes).prefix(turns - 5).joined()))
        let slowScreen = screen(of: slowBytes)
        #expect(slowScreen.errors.isEmpty && fastScreen.errors.isEmpty, "\(slowScreen.errors.prefix(3))")
        let differing = (0..<(160 * 50)).filter { i in
            slowScreen.appearance(column: i % 160, row: i / 160) != fastScreen.appearance(column: i % 160, row: i / 160)
        }
        #expect(differing.isEmpty, "the slow run's screen differs in \(differing.count) cells from the state it was drawn from")
    }

    /// A terminal that answers nothing still gets a frame every quarter second, then, once
    /// it has missed eight answers, a frame every step as without pacing.
    @Test func aSilentTerminalStillGetsFrames() throws {
        let run = try PacedArcade(delay: nil, answersStartup: false)
        // Esc last: under the card nothing changes, so nothing is written
        for i in 0..<180 { try run.turn(i == 170 ? [.key(KeyEvent("esc"))] : []) }
        #expect(Array(run.drawnAt.prefix(9)) == Array(stride(from: 0, through: 120, by: 15)), "\(run.drawnAt)")
        #expect(run.app.pacer.mode == .silent)
        #expect(run.drawnAt.dropFirst(9) == ArraySlice(121...170))
        let output = run.output
        #expect(frames(in: output).count == run.drawnAt.count)
        #expect(screen(of: output).shows("PAUSED"))
    }

    /// The round trips reach the profiler: the F3 overlay shows them beside the frames a
    /// second the link allowed.
    @Test func theOverlayShowsTheRoundTrip() throws {
        let run = try PacedArcade(delay: 0.05)
        run.app.showProfile = true
        for _ in 0..<90 { try run.turn() }
        let report = try #require(run.app.profileReport)
        // three steps a frame: 20 frames a second, each answered 50 ms later
        #expect(report.framesPerSecond > 15 && report.framesPerSecond < 25, "\(report.framesPerSecond)")
        let trip = try #require(report.roundTripMilliseconds)
        #expect(abs(trip - 50) < 0.001, "\(trip)")
        run.app.composeFrame()
        let panel = run.app.frame.plainLines(isBlank: { _ in false }).prefix(14).map {
            String($0.suffix(ProfileOverlay.width)).replacingOccurrences(of: "█", with: " ")
        }
        #expect(panel.contains { $0.contains("round trip ms") && $0.contains("50.000") }, "\(panel.joined(separator: "\n"))")
    }
}
