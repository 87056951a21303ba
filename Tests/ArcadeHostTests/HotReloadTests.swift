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
        try text.write(toFile: folder + "/" + name, atomically: false, encoding: .utf8)
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
