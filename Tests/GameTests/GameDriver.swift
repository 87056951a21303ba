import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// The repository's `games/` folder, found from this file's place in `Tests/GameTests/`.
let repoGames: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/games"
}()

/// Golden frames live in `Tests/GameTests/Golden/<game>/<name>.txt`.
let goldenDir: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    return parts.joined(separator: "/") + "/Golden"
}()

/// One of the repository's games driven headless, one fixed step at a time, through the
/// same ``SessionDriver`` every other way of running a game uses.
struct GameDriver {
    let driver: SessionDriver
    var session: GameSession { driver.session }

    init(_ id: String, seed: UInt64 = 1, cols: Int = 80, rows: Int = 24, store: SaveStore? = nil,
         games: String = repoGames) throws {
        let entry = try #require(GameCatalog(searchDirs: [games]).game(id))
        #expect(entry.isPlayable, "\(entry.problem ?? "")")
        // The games' rules are under test here, not the time budgets (their own suites test
        // those): a debug build on a loaded machine must not stop a game mid-test.
        let limits = LuaVM.Limits(secondsPerCall: 10, secondsPerStep: 10)
        let session = try GameSession(entry: entry, options: .init(seed: seed, cols: cols, rows: rows, limits: limits),
                                      store: store)
        driver = SessionDriver(session: session)
    }

    static func key(_ name: String) -> InputEvent { .key(KeyEvent(name)) }
    static func keyUp(_ name: String) -> InputEvent { .keyUp(KeyEvent(name)) }
    static func mouse(_ action: MouseAction, _ col: Int, _ row: Int) -> InputEvent {
        .mouse(MouseEvent(action, col: col, row: row))
    }
    /// A press and its release at one cell, as a click arrives from the terminal.
    static func click(_ col: Int, _ row: Int) -> [InputEvent] {
        [mouse(.press, col, row), mouse(.release, col, row)]
    }

    /// Runs `n` steps; `events` arrive with the first.
    func step(_ n: Int = 1, events: [InputEvent] = []) {
        driver.queued = events
        for _ in 0..<n { driver.step() }
    }

    /// Runs an input script (the headless text format) for `frames` steps from now:
    /// each event arrives at the step its line names, counted from this call.
    func run(script: String, frames: Int) throws {
        var parsed = try InputScript.parse(script)
        let now = session.frame
        for i in parsed.entries.indices { parsed.entries[i].frame += now }
        let scripted = SessionDriver(session: session, script: parsed)
        for _ in 0..<frames { scripted.step() }
    }

    func state() throws -> LuaValue { try session.state() }
    func int(_ key: String) throws -> Int64? { try state()[key]?.intValue }
    func double(_ key: String) throws -> Double? { try state()[key]?.doubleValue }
    func string(_ key: String) throws -> String? {
        if case .string(let s)? = try state()[key] { return s }
        return nil
    }
    func bool(_ key: String) throws -> Bool? {
        if case .bool(let b)? = try state()[key] { return b }
        return nil
    }

    /// Steps until `condition` holds, at most `limit` steps; false when it never did.
    func step(until condition: () throws -> Bool, limit: Int = 2000) rethrows -> Bool {
        for _ in 0..<limit {
            if try condition() { return true }
            driver.step()
        }
        return try condition()
    }

    /// The frame as the terminal would show it, as plain text.
    func text() -> String {
        session.renderFrame().plainText(background: session.scene.background)
    }
}

/// The frames a game draws are a function of its seed (and the input `frames` sends): the
/// same seed twice gives the same frames, and `other` gives different ones at each index of
/// `differing` (every frame list as a whole when it is empty).
func expectFramesFollowTheSeed(_ seed: UInt64, other: UInt64, differing: [Int] = [],
                               sourceLocation: SourceLocation = #_sourceLocation,
                               _ frames: (UInt64) throws -> [Frame]) throws {
    let a = try frames(seed), b = try frames(seed), c = try frames(other)
    #expect(a == b, "the same seed drew different frames", sourceLocation: sourceLocation)
    if differing.isEmpty {
        #expect(a != c, "seeds \(seed) and \(other) drew the same frames", sourceLocation: sourceLocation)
    }
    for i in differing {
        #expect(a[i] != c[i], "seeds \(seed) and \(other) drew the same frame \(i)", sourceLocation: sourceLocation)
    }
}

/// Lines without trailing blanks, so an editor trimming them cannot break a golden frame.
func trimmed(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { line -> Substring in
            var l = line[...]
            while l.last == " " { l = l.dropLast() }
            return l
        }
        .joined(separator: "\n")
}

/// Compares `text` with the golden frame `Golden/<game>/<name>.txt`.
///
/// `ARCADE_UPDATE_GOLDEN=1 swift test` writes the files instead (check them by eye before
/// committing). A missing file fails with the frame printed, so a new golden is one run away.
func expectGolden(_ text: String, game: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let path = "\(goldenDir)/\(game)/\(name).txt"
    let got = trimmed(text) + "\n"
    if ProcessInfo.processInfo.environment["ARCADE_UPDATE_GOLDEN"] == "1" {
        try? FileManager.default.createDirectory(atPath: "\(goldenDir)/\(game)", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(got.utf8))
        return
    }
    guard let data = FileManager.default.contents(atPath: path) else {
        Issue.record("no golden frame at \(path) (ARCADE_UPDATE_GOLDEN=1 writes it); the frame was:\n\(got)",
                     sourceLocation: sourceLocation)
        return
    }
    let want = String(decoding: data, as: UTF8.self)
    if want != got {
        let a = want.split(separator: "\n", omittingEmptySubsequences: false)
        let b = got.split(separator: "\n", omittingEmptySubsequences: false)
        var diff: [String] = []
        for i in 0..<max(a.count, b.count) {
            let l = i < a.count ? String(a[i]) : "", r = i < b.count ? String(b[i]) : ""
            if l != r { diff.append("row \(i):\n  want |\(l)|\n  got  |\(r)|") }
        }
        let shown = diff.prefix(12).joined(separator: "\n")
        Issue.record("golden frame \(game)/\(name) differs (ARCADE_UPDATE_GOLDEN=1 rewrites it):\n\(shown)",
                     sourceLocation: sourceLocation)
    }
}
