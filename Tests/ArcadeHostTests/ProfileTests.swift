import Foundation
import Testing
import ArcadeCore
import ArcadeRender
@testable import ArcadeHost

/// The repository's `games/` folder, from this file's place in `Tests/ArcadeHostTests/`.
let repositoryGames: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/games"
}()

func repositoryGame(_ id: String) throws -> GameEntry {
    try #require(GameCatalog(searchDirs: [repositoryGames]).game(id))
}

/// The profiler's counters (F3 and `--profile`): what they count, that the phases add up,
/// and that counting changes nothing the player sees.
@Suite struct ProfileTests {
    /// A coin bank burst, headless, profiled: every phase that ran has time, the phases
    /// fit inside the busy time, and the counts are the run's.
    @Test func phasesAddUpToTheStepTime() throws {
        var runner = HeadlessRunner(entry: try repositoryGame("coinbank"), options: .init(seed: 5), frames: 90,
                                    script: try InputScript.parse("1 key space"))
        let counters = ProfileCounters()
        runner.profile = counters
        let session = try runner.run()
        #expect(session.failure == nil)
        #expect(counters.steps == 90)
        #expect(counters.frames == 90)
        #expect(counters.bytes > 90 * 50)  // coins fly: every frame changes
        for phase in [ProfilePhase.lua, .animation, .compose, .encode] {
            #expect(counters[phase] > 0, "\(phase.name) took no time")
        }
        let phases = ProfilePhase.allCases.reduce(UInt64(0)) { $0 + counters[$1] }
        #expect(phases <= counters.busyNanos)
        #expect(counters.busyNanos <= counters.wallNanos)

        // the report averages the counters over the steps
        let report = counters.report(wallSeconds: Double(counters.wallNanos) * 1e-9)
        for phase in ProfilePhase.allCases {
            #expect(abs(report[phase] - Double(counters[phase]) / 90 / 1e6) < 1e-9)
        }
        #expect(abs(report.totalMilliseconds - Double(counters.busyNanos) / 90 / 1e6) < 1e-9)
        #expect(report.stepsPerSecond > 0)
        #expect(abs(report.bytesPerFrame - Double(counters.bytes) / 90) < 1e-9)
    }

    /// Without counters nothing is counted; with them the frames are the same, cell for
    /// cell and byte for byte.
    @Test func countingChangesNoFrame() throws {
        let entry = try repositoryGame("coinbank")
        func frames(profiled: Bool) throws -> [[UInt8]] {
            let session = try GameSession(entry: entry, options: .init(seed: 3))
            if profiled { session.profile = ProfileCounters() }
            let encoder = FrameEncoder()
            var frame = Frame(columns: 0, rows: 0)
            var out: [[UInt8]] = []
            for i in 0..<40 {
                session.step(events: i == 0 ? [.key(KeyEvent("space"))] : [])
                session.render(into: &frame)
                out.append(encoder.encode(frame))
            }
            return out
        }
        #expect(try frames(profiled: true) == frames(profiled: false))
        let session = try GameSession(entry: entry, options: .init(seed: 3))
        session.step()
        #expect(session.profile == nil)
    }

    /// Each part of a step's time goes to its own row, on the test's own clock (which moves
    /// only when the test moves it, so the machine's speed and load play no part): the
    /// callbacks' time is Lua, the native phases' their own.
    @Test func eachPhaseLandsInItsRow() throws {
        let clock = TestClock()
        var timer = StepTimer(clock: { clock.now })
        timer.start(budget: 0)
        for (phase, ms) in [(StepPhase.input, 1), (.timerCallbacks, 2), (.update, 4)] {
            timer.begin(phase)
            clock.advance(ms: ms)
        }
        for (phase, ms) in [(StepPhase.animation, 8), (.animationCallbacks, 16), (.physics, 32), (.physicsCallbacks, 64)] {
            timer.begin(phase)
            clock.advance(ms: ms)
            timer.finish()
        }
        let counters = ProfileCounters()
        timer.add(to: counters)
        #expect(counters[.lua] == UInt64(1 + 2 + 4 + 16 + 64) * 1_000_000)
        #expect(counters[.animation] == 8_000_000)
        #expect(counters[.physics] == 32_000_000)
        #expect(counters[.compose] == 0 && counters[.encode] == 0)
    }

    /// A session's steps, timed on the test's clock, which only `update` moves (through a
    /// native function): all of the time is Lua, none animation or physics; a heap of balls
    /// on the real clock gives the physics row time.
    @Test func aSessionsCallbacksLandInTheLuaRow() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              game.world = arcade.physics.world{ gravity = { 0, 10 } }
              game.world:add_ball{ x = 10, y = 10, radius = 2 }
            end
            function game.update() spend(3) end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        let clock = TestClock()
        session.timer = StepTimer(clock: { clock.now })
        session.vm.setGlobal("spend") { s in
            clock.advance(ms: Int(s.number(at: 1) ?? 0))
            return 0
        }
        let counters = ProfileCounters()
        session.profile = counters
        for _ in 0..<10 { session.step() }
        #expect(session.failure == nil, "\(session.failure?.message ?? "")")
        #expect(counters.steps == 10)
        #expect(counters[.lua] == 30_000_000)
        #expect(counters[.animation] == 0 && counters[.physics] == 0)

        let pile = try ScratchGame(files: ["main.lua": StepBudgetTests.ballPile(50)])
        let piled = try GameSession(entry: try #require(pile.entry))
        let real = ProfileCounters()
        piled.profile = real
        for _ in 0..<3 { piled.step() }
        #expect(piled.failure == nil)
        #expect(real[.physics] > 0)
    }

    /// A step broken by a Lua error still counts the Lua time it spent.
    @Test func aFailingCallbackCountsAsLua() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.update() local t = 0 for i = 1, 20000 do t = t + i end error("stop") end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        let counters = ProfileCounters()
        session.profile = counters
        session.step()
        #expect(session.failure != nil)
        #expect(counters[.lua] > 0)
        #expect(counters[.animation] == 0)
    }

    @Test func tableHasEveryRow() throws {
        let c = ProfileCounters()
        c.steps = 4
        c.frames = 2
        c.bytes = 300
        c.add(.lua, nanoseconds: 4_000_000)
        c.add(.compose, nanoseconds: 2_000_000)
        c.busyNanos = 8_000_000
        let report = c.report(wallSeconds: 0.5)
        #expect(report[.lua] == 1)
        #expect(report.otherMilliseconds == 0.5)
        let stats = GameStats(nodes: 7, animations: 2, timers: 1, worlds: 0, bodies: 3, walls: 0, luaBytes: 2048, frame: 4)
        let table = report.table(game: "demo", stats: stats)
        #expect(table == """
            profile: demo, 4 steps, 2 frames in 0.500 s
            phase        ms/step   share
            lua            1.000   50.0%
            animation      0.000    0.0%
            physics        0.000    0.0%
            compose        0.500   25.0%
            encode         0.000    0.0%
            other          0.500   25.0%
            total          2.000  100.0%
            steps/s            8
            frames/s           4
            bytes/frame      150  (300 in all)
            live         nodes 7, animations 2, timers 1, bodies 3, lua heap 2 KiB

            """)
        // in the terminal: the round trip of the frames' status queries, or that none came back
        let silent = report.table(game: "demo", stats: stats, terminal: true)
        #expect(silent.contains("\nround trip         -  (the terminal answered no status query)\n"), "\(silent)")
        c.addRoundTrip(seconds: 0.002)
        c.addRoundTrip(seconds: 0.010)
        let answered = c.report(wallSeconds: 0.5).table(game: "demo", stats: stats, terminal: true)
        #expect(answered.contains("\nround trip     6.000 ms  (longest 10.000 ms, 2 answered)\n"), "\(answered)")
        #expect(!table.contains("round trip"))
    }

    /// The overlay: its rows, in the top-right corner, and nothing drawn outside it.
    @Test func overlayRowsAndPlace() throws {
        let c = ProfileCounters()
        c.steps = 30
        c.frames = 30
        c.bytes = 30 * 1234
        c.add(.lua, nanoseconds: 3_000_000)
        c.busyNanos = 6_000_000
        c.addRoundTrip(seconds: 0.0123)
        let report = c.report(wallSeconds: 0.5)
        let stats = GameStats(nodes: 312, animations: 300, timers: 1, worlds: 1, bodies: 4, walls: 2,
                              luaBytes: 300 * 1024, frame: 99)
        let background = Frame(columns: 80, rows: 24, background: Color(rgb: 0x203040))
        var frame = background
        ProfileOverlay.draw(report, stats: stats, on: &frame)
        let lines = glyphLines(frame)
        let rows = ["profile (F3)", "steps/s 60", "fps 60", "lua", "0.100", "animation", "physics", "compose", "encode",
                    "other", "total", "0.200", "bytes/frame", "1234", "round trip ms", "12.300", "nodes 312", "anims 300",
                    "bodies 4", "lua 300 KiB"]
        let panel = lines.dropFirst().prefix(13).map { String($0.suffix(ProfileOverlay.width)) }.joined(separator: "\n")
        for text in rows { #expect(panel.contains(text), "no \(text) in\n\(panel)") }
        #expect(lines[1].hasSuffix(" profile (F3)     ms/step "), "the header reads whole under the pause mark: \(lines[1])")
        for row in 0..<24 {
            // the top row is the pause mark's: the panel starts under it
            for column in 0..<80 where row == 0 || row >= 14 || column < 80 - ProfileOverlay.width {
                #expect(frame[column, row] == background[column, row], "cell \(column),\(row) changed")
            }
        }
        // before the first window ends
        var early = background
        ProfileOverlay.draw(nil, stats: stats, on: &early)
        #expect(glyphLines(early)[2].contains("measuring..."))
    }

    @Test func fixedDecimals() {
        #expect(fixed(0, places: 3) == "0.000")
        #expect(fixed(1.23456, places: 3) == "1.235")
        #expect(fixed(0.0005, places: 3) == "0.001")
        #expect(fixed(-2.5, places: 1) == "-2.5")
        #expect(fixed(-0.0001, places: 2) == "0.00")
        #expect(fixed(1455.6, places: 0) == "1456")
        #expect(fixed(.nan, places: 2) == "-")
    }

    /// `--profile`: the table on stderr with every row and plausible numbers; stdout (the
    /// frame, the state, the stats) exactly as without it; the live nodes as `--stats` counts.
    @Test func commandLineProfile() throws {
        let dir = try temporaryFolder("profile")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "1 key space\n".write(toFile: dir + "/burst.txt", atomically: true, encoding: .utf8)
        let common = ["play", "coinbank", "--games", repositoryGames, "--headless", "--frames", "100", "--seed", "2",
                      "--input", dir + "/burst.txt", "--dump-frame", "--state", "--stats"]
        let plain = try runArcade(common)
        let profiled = try runArcade(common + ["--profile"])
        #expect(plain.status == 0 && profiled.status == 0, "\(profiled.err)")
        // the same frame, state and stats; only the Lua heap's size may differ by a few KiB
        // (composing every step grows the main thread's stack and string table, which a
        // collection keeps)
        func masked(_ text: String) -> String {
            text.replacingOccurrences(of: #""lua_kib":\d+"#, with: "\"lua_kib\":_", options: .regularExpression)
        }
        #expect(masked(plain.out) == masked(profiled.out))
        #expect(!plain.err.contains("profile:"))

        let lines = profiled.err.split(separator: "\n").map(String.init)
        let head = try #require(lines.first)
        #expect(head.hasPrefix("profile: coinbank, 100 steps, 100 frames in ") && head.hasSuffix(" s"), "\(head)")
        var ms: [String: Double] = [:]
        for name in ["lua", "animation", "physics", "compose", "encode", "other", "total"] {
            let row = try #require(lines.first { $0.hasPrefix(name + " ") }, "no \(name) row")
            let fields = row.split(separator: " ")
            ms[name] = Double(String(fields[1])) ?? -1
            #expect(ms[name]! >= 0)
            #expect(fields[2].hasSuffix("%"))
        }
        let phases = ["lua", "animation", "physics", "compose", "encode"].reduce(0.0) { $0 + ms[$1]! }
        #expect(phases <= ms["total"]! + 0.005)  // the rows are rounded to 0.001
        // the busy time of the 100 steps fits in the run's real time
        let wall = try #require(Double(head.split(separator: " ").dropLast().last ?? ""))
        #expect(ms["total"]! * 100 <= wall * 1000 + 0.5, "\(ms["total"]!) ms a step, \(wall) s in all")
        #expect(ms["total"]! > 0)
        #expect(ms["compose"]! > 0 && ms["encode"]! > 0 && ms["lua"]! > 0)

        let stepsPerSecond = try #require(lines.first { $0.hasPrefix("steps/s") }.flatMap { Double($0.split(separator: " ")[1]) })
        #expect(stepsPerSecond > 0)
        let bytes = try #require(lines.first { $0.hasPrefix("bytes/frame") })
        #expect((Int(bytes.split(separator: " ")[1]) ?? 0) > 0)
        // the live counts are the ones --stats prints
        let statsLine = try #require(profiled.out.split(separator: "\n").last)
        let live = try #require(lines.first { $0.hasPrefix("live") })
        let nodes = try #require(statsLine.split(separator: ",").first?.split(separator: ":").last)
        #expect(live.contains("nodes \(nodes),"))
        let animations = try #require(statsLine.split(separator: ",")[1].split(separator: ":").last)
        #expect(live.contains("animations \(animations),"))
    }
}

/// A clock of the test's own, for ``StepTimer``: it moves only when told.
final class TestClock: @unchecked Sendable {
    private(set) var now: UInt64 = 1_000_000_000

    func advance(ms: Int) { now += UInt64(ms) * 1_000_000 }
}
