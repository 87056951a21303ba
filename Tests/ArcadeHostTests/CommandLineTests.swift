import Foundation
import Testing
import ArcadeCore
@testable import ArcadeHost

/// Runs the built `arcade` with `args` (in `environment` and `folder` when given): (exit
/// status, stdout, stderr).
func runArcade(_ args: [String], environment: [String: String]? = nil, in folder: String? = nil) throws
    -> (status: Int32, out: String, err: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: try arcadeExecutable())
    p.arguments = args
    if let environment { p.environment = environment }
    if let folder { p.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let out = Pipe(), err = Pipe()
    p.standardOutput = out
    p.standardError = err
    try p.run()
    let o = out.fileHandleForReading.readDataToEndOfFile()
    let e = err.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self))
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder(_ label: String) throws -> String {
    let path = NSTemporaryDirectory() + "arcade-\(label)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite struct CheckCommandTests {
    /// `--games DIR` as play, dev and list take it.
    @Test func takesGamesLikeTheOtherCommands() throws {
        let r = try runArcade(["check", "--games", fixtureGames, "--steps", "30"])
        #expect(r.status == 1)  // the fixtures include a broken and a crashing game
        #expect(r.out.contains("ok    tiny\n"))
        #expect(r.out.contains("FAIL  crashy: crashy/main.lua:7:"))
        #expect(r.out.contains("1 passed, 2 failed\n"))
    }

    /// One game's folder checks just that game.
    @Test func takesASingleGameFolder() throws {
        let r = try runArcade(["check", fixtureGames + "/tiny", "--steps", "30"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "ok    tiny\n1 passed, 0 failed\n")
        let slash = try runArcade(["check", "--games", fixtureGames + "/tiny/", "--steps", "30"])
        #expect(slash.out == "ok    tiny\n1 passed, 0 failed\n")
    }

    /// Nothing found: say what a games folder should hold.
    @Test func saysWhatItExpectedWhenItFindsNothing() throws {
        let empty = try temporaryFolder("check-empty")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let r = try runArcade(["check", empty])
        #expect(r.status == 2)
        #expect(r.err.contains("no games found in \(empty)"))
        #expect(r.err.contains("expected a games folder, with one folder per game, or a game's own folder"))
        let missing = try runArcade(["check", empty + "/nope"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("\(empty)/nope is not a folder"))
    }

    @Test func catalogOfPathsMixesGamesFoldersAndGameFolders() {
        let c = GameCatalog(paths: [fixtureGames + "/tiny", fixtureGames])
        #expect(c.entries.map(\.id) == ["tiny", "broken-manifest", "crashy", "tiny"])
        #expect(c.entries[0].isPlayable)
        #expect(c.entries[0].gamesDir == fixtureGames)  // its lib/ is found
        #expect(c.entries[3].problem?.hasPrefix("duplicate id 'tiny'") == true)
    }
}

@Suite struct HeadlessOutputTests {
    /// `--dump-frame` ends with a newline, so `--state` and `--stats` start on lines of their own.
    @Test func dumpFrameEndsItsLastRowAndStateAndStatsFollow() throws {
        let r = try runArcade(["play", "tiny", "--games", fixtureGames, "--headless", "--frames", "40",
                               "--size", "40x10", "--dump-frame", "--state", "--stats"])
        #expect(r.status == 0, "\(r.err)")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 12)
        #expect(lines[10] == "{")  // ten rows of frame, then the state
        #expect(lines[..<10].contains { $0.contains("tiny: no keys yet") })
        let stats = String(lines[lines.count - 2])
        #expect(lines.last == "")
        #expect(stats.hasPrefix("{\"nodes\":1,\"animations\":0,\"timers\":0,\"bodies\":0,\"lua_kib\":"))
        #expect(stats.hasSuffix(",\"worlds\":0,\"walls\":0,\"frame\":40}"))
    }

    /// A recording knows where its run stopped; a replay without `--frames` stops there.
    @Test func aReplayStopsWhereTheRecordingEnded() throws {
        let dir = try temporaryFolder("replay")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "3 key r\n50 key r\n".write(toFile: dir + "/in.txt", atomically: true, encoding: .utf8)
        let common = ["play", "tiny", "--games", fixtureGames, "--headless", "--state"]
        let recorded = try runArcade(common + ["--frames", "120", "--seed", "5", "--input", dir + "/in.txt",
                                               "--record", dir + "/run.rec"])
        #expect(recorded.status == 0, "\(recorded.err)")
        let recording = try String(contentsOfFile: dir + "/run.rec", encoding: .utf8)
        #expect(recording == "arcade-recording game=tiny seed=5 size=80x24\n3 key r\n50 key r\n120 end\n")
        let replayed = try runArcade(common + ["--replay", dir + "/run.rec"])
        #expect(replayed.status == 0, "\(replayed.err)")
        #expect(replayed.out == recorded.out)
        #expect(replayed.out.contains("\"ticks\": 120"))
        // the end line counts in an --input script too
        let asInput = try runArcade(common + ["--input", dir + "/run.rec"])
        #expect(asInput.out == recorded.out)
        // --frames still wins
        let longer = try runArcade(common + ["--replay", dir + "/run.rec", "--frames", "130"])
        #expect(longer.out.contains("\"ticks\": 130"))
    }

    /// The terminal recorder writes the end line when the game closes.
    @Test func theRecorderWritesWhereTheRunEnded() throws {
        let dir = try temporaryFolder("recorder")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let recorder = InputRecorder(path: dir + "/r.rec", game: "tiny", seed: 2, cols: 80, rows: 24)
        recorder.record(.key(KeyEvent("a")), frame: 4)
        recorder.finish(at: 77)
        let script = try InputScript.parse(String(contentsOfFile: dir + "/r.rec", encoding: .utf8))
        #expect(script.end == 77)
        #expect(script.entries.count == 1)
        #expect(script.header?.seed == 2)
    }
}
