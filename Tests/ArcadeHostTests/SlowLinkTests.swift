import Foundation
import Testing
import ArcadeTerminal
import ArcadeTestSupport

/// The arcade played over a slow link: the real executable on a pseudo-terminal whose output
/// is read eagerly and drained to a terminal model at a set rate (``SlowLink``), fishing at
/// 160x50 (about 250 KB/s of frames at full speed).
///
/// These run on a shared machine, whose load says how fast anything happens: they check what
/// arrives (the card, frames, one frame at a time in the link), with generous waits, never
/// how fast. The figures (how soon the card shows, frames per step) are `arcade-bench`'s
/// `link.*` rows.
@Suite(.serialized) struct SlowLinkTests {
    /// Fishing at 160x50 (saves in `data`) on a link at full speed until its first frame is on
    /// the screen, then at `rate` bytes a second.
    static func start(rate: Int?, data: String, answers: Bool = true, arguments: [String] = [],
                      transcript: Bool = false, stderr: String = "/dev/null") throws -> SlowLink {
        var settings = SlowLink.Settings()
        settings.answers = answers
        settings.keepsTranscript = transcript
        settings.stderrPath = stderr
        let link = try SlowLink(arguments: [try arcadeExecutable(), "play", "fishing", "--games", repositoryGames,
                                            "--seed", "1", "--data", data] + arguments, settings: settings)
        #expect(link.waitForGame(), "fishing never showed")
        link.bytesPerSecond = rate
        return link
    }

    static func milliseconds(_ values: [Double]) -> String {
        values.map { $0.isFinite ? String(Int($0 * 1000)) : "never" }.joined(separator: ", ") + " ms"
    }

    /// Waits (generously) until `count` more frames than `before` have been written.
    static func waitForFrames(_ link: SlowLink, after before: Int, count: Int, timeout: Double = 60) -> Bool {
        let deadline = SlowLink.now() + timeout
        while link.stats.framesWritten - before < count && SlowLink.now() < deadline { usleep(10_000) }
        return link.stats.framesWritten - before >= count
    }

    /// 100 KB/s: Esc shows the pause card (and Esc again takes it away) every time, and the
    /// link never holds two frames at once (the next is written once the last has crossed).
    @Test func at100kBpsEscShowsTheCardAndTheLinkHoldsOneFrame() throws {
        let dir = try temporaryFolder("slowlink")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let link = try Self.start(rate: 100_000, data: dir)
        defer { link.stop() }
        link.run(for: 1.5)
        link.resetPeaks()
        let before = link.stats
        let latencies = link.pauseLatencies(tries: 5)
        let stats = link.stats
        #expect(latencies.count == 5 && latencies.allSatisfy(\.isFinite), "\(Self.milliseconds(latencies))")
        #expect(stats.peakFramesInLink <= 1, "\(stats.peakFramesInLink) frames were in the link at once")
        #expect(stats.peakBacklogBytes < 64_000, "\(stats.peakBacklogBytes) bytes waited at once")
        // each card shown and each taken away is a frame of its own
        #expect(stats.framesWritten - before.framesWritten >= 10, "the game kept drawing")
    }

    /// 2 MB/s: more than fishing sends; Esc shows the card every time, one frame at a time.
    @Test func at2MBpsEscShowsTheCard() throws {
        let dir = try temporaryFolder("slowlink")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let link = try Self.start(rate: 2_000_000, data: dir)
        defer { link.stop() }
        link.run(for: 0.5)
        let latencies = link.pauseLatencies(tries: 5)
        #expect(latencies.count == 5 && latencies.allSatisfy(\.isFinite), "\(Self.milliseconds(latencies))")
        #expect(link.stats.peakFramesInLink <= 1)
    }

    /// At full speed the terminal gets what the arcade recorded (`--cast` sees every byte but
    /// the queries) with one status query behind each frame and nothing else added; and the
    /// run's profile has its steps, frames and the measured round trip.
    @Test func atFullSpeedTheFramesAreTodaysWithAQueryBehindEach() throws {
        let dir = try temporaryFolder("slowlink")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let link = try Self.start(rate: nil, data: dir, arguments: ["--cast", dir + "/play.cast", "--profile"], transcript: true,
                                  stderr: dir + "/stderr.txt")
        #expect(Self.waitForFrames(link, after: 0, count: 40), "\(link.stats.framesWritten) frames came")
        let status = link.stop()
        #expect(status.map { $0 & 0x7f == 0 && ($0 >> 8) & 0xff == 0 } == true, "exit status \(String(describing: status))")
        let sent = link.transcript

        let cast = try String(contentsOfFile: dir + "/play.cast", encoding: .utf8)
        var recorded: [UInt8] = []
        for line in cast.split(separator: "\n").dropFirst() {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
            if event[1] as? String == "o" { recorded += Array((event[2] as? String ?? "").utf8) }
        }
        let same = withoutStatusQueries(sent) == recorded
        #expect(same, "the terminal got more than the frames and their queries")
        let pieces = Array(frames(in: sent).dropFirst())  // the first piece is the set-up sequence
        #expect(pieces.count > 30)
        let queries = pieces.map { piece in (0..<piece.count).filter { piece[$0...].starts(with: Terminal.statusQuery) } }
        #expect(pieces.indices.allSatisfy { i in
            queries[i].count == 1 && queries[i][0] > pieces[i].count - 30 || i == pieces.indices.last
        }, "one query right behind each frame")

        let table = try String(contentsOfFile: dir + "/stderr.txt", encoding: .utf8)
        let steps = try #require(Self.row(table, "steps/s"))
        let frames = try #require(Self.row(table, "frames/s"))
        #expect(steps > 0 && frames > 0, "\(table)")
        let trip = try #require(Self.row(table, "round trip"), "\(table)")
        #expect(trip > 0, "\(table)")
    }

    /// 100 KB/s with `--profile`: the table has the steps and frames, and a round trip no
    /// shorter than the link allows (a paced frame of a few KB takes tens of ms to cross at
    /// 100 KB/s, however fast the machine: at least half the mean frame's crossing time).
    @Test func theProfileReportsWhatTheLinkAllowed() throws {
        let dir = try temporaryFolder("slowlink")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let link = try Self.start(rate: 100_000, data: dir, arguments: ["--profile"], stderr: dir + "/stderr.txt")
        #expect(Self.waitForFrames(link, after: 0, count: 20), "\(link.stats.framesWritten) frames came")
        link.stop()
        let crossing = 1000 * Double(link.stats.bytesWritten) / Double(max(1, link.stats.framesWritten)) / 100_000
        let table = try String(contentsOfFile: dir + "/stderr.txt", encoding: .utf8)
        let steps = try #require(Self.row(table, "steps/s"), "\(table)")
        let frames = try #require(Self.row(table, "frames/s"), "\(table)")
        let trip = try #require(Self.row(table, "round trip"), "\(table)")
        #expect(steps > 0 && frames > 0, "\(table)")
        #expect(crossing > 5 && trip > crossing / 2, "a mean frame crosses in \(crossing) ms\n\(table)")
    }

    /// A terminal that answers no query still gets frames: the card shows soon after Esc.
    @Test func aTerminalThatNeverAnswersStillGetsFrames() throws {
        let dir = try temporaryFolder("slowlink")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let link = try Self.start(rate: nil, data: dir, answers: false)
        defer { link.stop() }
        let before = link.stats.framesWritten
        #expect(Self.waitForFrames(link, after: before, count: 3), "no frames after the first")
        let latencies = link.pauseLatencies(tries: 3)
        #expect(latencies.count == 3 && latencies.allSatisfy(\.isFinite), "\(Self.milliseconds(latencies))")
        #expect(link.stats.statusQueries > 0 && link.stats.attributeQueries == 1)
    }

    /// The number at the start of `name`'s row in a `--profile` table.
    static func row(_ table: String, _ name: String) -> Double? {
        let line = table.split(separator: "\n").first { $0.hasPrefix(name + " ") }
        return line.flatMap { Double($0.dropFirst(name.count).split(separator: " ").first ?? "") }
    }
}
