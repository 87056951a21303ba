import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// A game folder in a temporary directory that the test edits while the game runs.
final class ScratchGame {
    let root: String
    let folder: String

    init(id: String = "scratch", files: [String: String]) throws {
        root = NSTemporaryDirectory() + "arcade-scratch-\(UUID().uuidString)"
        folder = root + "/" + id
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try write("manifest.lua", """
            return { id = "\(id)", title = "Scratch", description = "edited by a test",
                     author = "tests", version = "0", api = 1 }
            """)
        for (name, text) in files { try write(name, text) }
    }

    func write(_ name: String, _ text: String) throws {
        let path = folder + "/" + name
        try FileManager.default.createDirectory(atPath: String(path[..<path.lastIndex(of: "/")!]),
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    var entry: GameEntry? { GameCatalog(searchDirs: [root]).game("scratch") }

    deinit { try? FileManager.default.removeItem(atPath: root) }
}

@Suite struct HotReloadTests {
    static func main(step: Int, extra: String = "") -> String {
        """
        local rules = require("rules")
        local game = {}
        function game.load() game.state.total = 0 end
        function game.update(dt)
          game.state.total = game.state.total + \(step)
          game.state.label = rules.label
        end
        \(extra)
        return game
        """
    }

    @Test func changeSyntaxErrorAndFix() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main(step: 1), "rules.lua": "return { label = 'v1' }"])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<10 { session.step() }
        #expect(try session.state()["total"] == .int(10))

        // new behaviour, same state
        try g.write("main.lua", Self.main(step: 100, extra: "function game.reload(state) state.reloaded = true end"))
        try g.write("rules.lua", "return { label = 'v2' }")
        #expect(session.reload() == nil)
        session.step()
        let s1 = try session.state()
        #expect(s1["total"] == .int(110))
        #expect(s1["label"] == .string("v2"))
        #expect(s1["reloaded"] == .bool(true))

        // a syntax error: the old code runs on, the error is reported
        try g.write("rules.lua", "return { label = 'v3' ")
        let e = try #require(session.reload())
        #expect(e.kind == .syntax)
        #expect(e.file == "scratch/rules.lua")
        #expect(session.reloadError == e)
        session.step()
        #expect(try session.state()["total"] == .int(210))
        #expect(try session.state()["label"] == .string("v2"))
        #expect(session.failure == nil)

        // fixed: resumes with the new code
        try g.write("rules.lua", "return { label = 'v4' }")
        #expect(session.reload() == nil)
        #expect(session.reloadError == nil)
        session.step()
        #expect(try session.state()["label"] == .string("v4"))
        #expect(try session.state()["total"] == .int(310))
    }

    @Test func failingReloadHookKeepsTheOldCode() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main(step: 1), "rules.lua": "return { label = 'a' }"])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        try g.write("main.lua", Self.main(step: 5, extra: "function game.reload() error('not ready') end"))
        let e = try #require(session.reload())
        #expect(e.message == "scratch/main.lua:8: not ready")
        session.step()
        #expect(try session.state()["total"] == .int(2))  // old update (+1) still runs
    }

    @Test func reloadRevivesACrashedGame() throws {
        let g = try ScratchGame(files: [
            "main.lua": "local game = {} function game.update() error('broken') end return game",
        ])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        #expect(session.failure?.message == "scratch/main.lua:1: broken")
        try g.write("main.lua", "local game = {} function game.update() game.state.ok = true end return game")
        #expect(session.reload() == nil)
        #expect(session.failure == nil)
        session.step()
        #expect(try session.state()["ok"] == .bool(true))
    }
}

@Suite struct HotReloadKeepsFieldsTests {
    /// Handles kept on the game table (not in game.state) survive a reload; functions are new.
    @Test func nodeHandlesOnTheGameTableSurvive() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() game.box = arcade.scene.rect{ x = 1, width = 2, height = 2 } end
            function game.update() game.box.x = game.box.x + 1 end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        try g.write("main.lua", """
            local game = {}
            function game.update() game.box.x = game.box.x + 10; game.state.x = game.box.x end
            return game
            """)
        #expect(session.reload() == nil)
        session.step()
        #expect(session.failure == nil)
        #expect(try session.state()["x"] == .int(12) || (try session.state()["x"]) == .number(12))
    }

    /// The scaffolded game survives a reload of its own unchanged code.
    @Test func scaffoldSurvivesReload() throws {
        let root = NSTemporaryDirectory() + "arcade-scaffold-reload-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try GameScaffold.create(id: "again", in: root)
        let session = try GameSession(entry: try #require(GameCatalog(searchDirs: [root]).game("again")))
        for _ in 0..<10 { session.step() }
        #expect(session.reload() == nil)
        for _ in 0..<10 { session.step() }
        #expect(session.failure == nil)
    }

    /// Hit tests see where nodes are now, not where they were last drawn.
    @Test func hitTestsUseCurrentPositions() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local r = arcade.scene.rect{ x = 10, y = 10, width = 4, height = 4 }
              r.x = 50
              game.state.old = arcade.scene.hit(10, 10) ~= nil
              game.state.new = arcade.scene.hit(50, 10) == r
              game.state.contains = r:contains(50, 10)
            end
            return game
            """])
        let st = try GameSession(entry: try #require(g.entry)).state()
        #expect(st["old"] == .bool(false))
        #expect(st["new"] == .bool(true))
        #expect(st["contains"] == .bool(true))
    }
}

/// File-level locals across a reload: those the new code leaves nil keep their old values.
@Suite struct HotReloadFileLocalsTests {
    /// A game that keeps its node, its count and its list in file-level locals that `load`
    /// fills, as Lua is most naturally written; `step` and `label` are constants.
    static func main(step: Int, label: String = "v1", extra: String = "") -> String {
        """
        local game = {}
        local STEP = \(step)
        local LABEL = "\(label)"
        local box, ticks, list
        local made = {}                      -- a table the new code makes again: the new one wins
        local function show()                -- a local function the game's functions call
          game.state.x = box.x
          game.state.ticks = ticks
          game.state.listed = #list
          game.state.label = LABEL
          game.state.made = #made
        end
        function game.load()
          box = arcade.scene.rect{ x = 1, y = 1, width = 2, height = 2 }
          ticks, list = 0, {}
          made[1] = true
          -- a closure of this code, held by a timer: it keeps the code it was made with
          arcade.every(0.25, function() ticks = ticks + 1; list[#list + 1] = ticks end)
        end
        function game.update()
          box.x = box.x + STEP
          show()
        end
        \(extra)
        return game
        """
    }

    @Test func localsTheNewCodeLeavesNilKeepTheirValuesAndConstantsChange() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main(step: 1)])
        let session = try GameSession(entry: try #require(g.entry), options: .init(dev: true))
        for _ in 0..<30 { session.step() }
        #expect(try session.state()["x"]?.doubleValue == 31)
        #expect(try session.state()["ticks"]?.intValue == 2)

        try g.write("main.lua", Self.main(step: 10, label: "v2"))
        #expect(session.reload() == nil)
        session.step()
        #expect(session.failure == nil, "\(session.failure?.description ?? "")")
        let s = try session.state()
        #expect(s["x"]?.doubleValue == 41, "the node load made is still there, moved by the new step")
        #expect(s["label"] == .string("v2"), "a constant takes the new value")
        #expect(s["made"]?.intValue == 0, "a table the new code makes is the new, empty one")
        #expect(s["listed"]?.intValue == 2)

        // the old timer's closure and the new code share one variable: each sees the other's writes
        for _ in 0..<29 { session.step() }
        let later = try session.state()
        #expect(later["ticks"]?.intValue == 4)
        #expect(later["listed"]?.intValue == 4)
        #expect(later["x"]?.doubleValue == 331)

        // and again: the second reload finds the same variables through the first one's code
        try g.write("main.lua", Self.main(step: 100, label: "v3"))
        #expect(session.reload() == nil)
        session.step()
        #expect(session.failure == nil)
        #expect(try session.state()["x"]?.doubleValue == 431)
        #expect(try session.state()["ticks"]?.intValue == 4)
        #expect(try session.state()["label"] == .string("v3"))
    }

    /// The reload hook already sees the kept values.
    @Test func theReloadHookSeesTheKeptLocals() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main(step: 1)])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        try g.write("main.lua", Self.main(step: 1, extra: "function game.reload(state) state.hook_x = box.x end"))
        #expect(session.reload() == nil)
        #expect(try session.state()["hook_x"]?.doubleValue == 2)
    }

    /// A local the new code sets to something other than nil is the new code's, even when
    /// it held something else before; `_ENV` and globals are untouched.
    @Test func aLocalTheNewCodeSetsIsNotJoined() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            local box
            function game.load() box = "old" end
            function game.update() game.state.box = box end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        #expect(try session.state()["box"] == .string("old"))
        try g.write("main.lua", """
            local game = {}
            local box = "new"
            function game.update() game.state.box = box end
            return game
            """)
        #expect(session.reload() == nil)
        session.step()
        #expect(try session.state()["box"] == .string("new"))
    }
}

/// Callbacks scheduled by the old code run the new code after a reload.
@Suite struct HotReloadCallbackTests {
    /// A game whose `tick` adds `step` to `ticks`; `schedule` is how `load` arms the timer.
    static func main(step: Int, schedule: String = "arcade.every(0.5, game.tick)", extra: String = "") -> String {
        """
        local game = {}
        function game.load()
          game.state.ticks = 0
          \(schedule)
        end
        function game.tick() game.state.ticks = game.state.ticks + \(step) end
        \(extra)
        return game
        """
    }

    func ticksAfterAnEdit(schedule: String) throws -> (before: LuaValue?, after: LuaValue?) {
        let g = try ScratchGame(files: ["main.lua": Self.main(step: 1, schedule: schedule)])
        let session = try GameSession(entry: try #require(g.entry), options: .init(dev: true))
        for _ in 0..<30 { session.step() }
        let before = try session.state()["ticks"]
        try g.write("main.lua", Self.main(step: 100, schedule: schedule))
        #expect(session.reload() == nil)
        for _ in 0..<30 { session.step() }
        #expect(session.failure == nil)
        return (before, try session.state()["ticks"])
    }

    /// `arcade.every(s, game.tick)`: the pending timer's next firing runs the edited `tick`.
    @Test func anEditedTimerCallbackRunsTheNewCodeAtItsNextFiring() throws {
        let t = try ticksAfterAnEdit(schedule: "arcade.every(0.5, game.tick)")
        #expect(t.before?.intValue == 1)
        #expect(t.after?.intValue == 101)
    }

    /// A local function stored on the game table is found by its game-table name too.
    @Test func aLocalFunctionThatIsAlsoAGameFieldIsFollowed() throws {
        let t = try ticksAfterAnEdit(schedule: "local tick = game.tick; arcade.after(0.5, tick); arcade.after(1, tick)")
        #expect(t.before?.intValue == 1)
        #expect(t.after?.intValue == 101)
    }

    /// A closure made by the old code holds the old game table, which now forwards to the
    /// new one: `game.tick()` inside it is the new `tick`, and what it writes lands on the new table.
    @Test func aClosureOfTheOldCodeReachesTheNewTable() throws {
        let schedule = "arcade.every(0.5, function() game.tick(); game.last = arcade.frame() end)"
        let t = try ticksAfterAnEdit(schedule: schedule)
        #expect(t.after?.intValue == 101)

        let g = try ScratchGame(files: ["main.lua": Self.main(step: 1, schedule: schedule)])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<30 { session.step() }
        try g.write("main.lua", Self.main(step: 1, schedule: schedule,
                                          extra: "function game.update() game.state.last = game.last end"))
        #expect(session.reload() == nil)
        for _ in 0..<31 { session.step() }
        #expect(try session.state()["last"]?.intValue == 60)
    }

    /// A function stored under two names follows the first in byte order, whatever order
    /// `pairs` would have given.
    @Test func aFunctionWithTwoNamesFollowsTheFirstInByteOrder() throws {
        func main(_ b: Int, _ a: Int) -> String {
            """
            local game = {}
            function game.load()
              game.state.ticks = 0
              local shared = function() game.state.ticks = game.state.ticks + 1 end
              game.b_tick, game.a_tick = shared, shared
              arcade.every(0.5, shared)
            end
            function game.b_tick() game.state.ticks = game.state.ticks + \(b) end
            function game.a_tick() game.state.ticks = game.state.ticks + \(a) end
            return game
            """
        }
        let g = try ScratchGame(files: ["main.lua": main(1, 1)])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<30 { session.step() }
        try g.write("main.lua", main(1000, 10))
        #expect(session.reload() == nil)
        for _ in 0..<30 { session.step() }
        #expect(try session.state()["ticks"]?.intValue == 11)
    }

    /// When the new code has no function of that name, the callback runs as it was registered.
    @Test func aCallbackWhoseNameIsGoneRunsAsRegistered() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main(step: 1)])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<30 { session.step() }
        try g.write("main.lua", "local game = {} return game")
        #expect(session.reload() == nil)
        for _ in 0..<30 { session.step() }
        #expect(session.failure == nil)
        #expect(try session.state()["ticks"]?.intValue == 2)
    }

    /// Animation `on_done` and physics callbacks follow their game-table name the same way.
    @Test func animationAndContactCallbacksRunTheNewCode() throws {
        func main(_ version: String) -> String {
            """
            local game = {}
            function game.load()
              local box = arcade.scene.rect{ x = 0, y = 0, width = 2, height = 2 }
              arcade.animate(box, { property = "x", to = 10, duration = 1 }, game.landed)
              game.world = arcade.physics.world{ bounds = false }
              game.world:add_wall("floor", { x = 0, y = 40, width = 80, height = 4 })
              game.world:add_ball{ x = 10, y = 0, radius = 2, elasticity = 0 }
              game.world:on_contact(game.hit)
            end
            function game.landed() game.state.landed = "\(version)" end
            function game.hit() game.state.hit = "\(version)" end
            return game
            """
        }
        let g = try ScratchGame(files: ["main.lua": main("old")])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        try g.write("main.lua", main("new"))
        #expect(session.reload() == nil)
        for _ in 0..<90 { session.step() }
        #expect(session.failure == nil)
        #expect(try session.state()["landed"] == .string("new"))
        #expect(try session.state()["hit"] == .string("new"))
    }
}
