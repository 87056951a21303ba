import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost

/// A `game.state` whose tables are shared (thirty levels of `t = { a = t, b = t }`, a few KB
/// of Lua): the host's copies of it (`--state`, `arcade check`, a test's `g:state()`) keep
/// the sharing or stop at the game's memory cap; none grows into a tree of 2^30 tables.
@Suite struct SharedStateTests {
    /// A game whose state holds `levels` levels of shared tables, a long string stored twice
    /// and a table stored twice; `tests` go to its `tests/` folder.
    static func sharedGame(levels: Int, tests: [String: String] = [:]) throws -> ScratchGame {
        var files = ["main.lua": """
            local game = {}
            function game.load()
              local t = {}
              for i = 1, \(levels) do t = { a = t, b = t } end
              game.state.deep = t
              local name = string.rep("n", 100)
              local shared = { x = 1 }
              game.state.pair = { left = name, right = name, shared = shared, again = shared }
            end
            return game
            """]
        for (name, text) in tests { files["tests/" + name] = text }
        return try ScratchGame(files: files)
    }

    static let sharingTest = """
        test("the copy keeps the sharing", function(t)
          local s = t:start():state()
          local d, levels = s.deep, 0
          while next(d) do
            expect(rawequal(d.a, d.b), "level " .. levels):to_equal(true)
            d, levels = d.a, levels + 1
          end
          expect(levels):to_be_at_least(3)
          expect(rawequal(s.pair.shared, s.pair.again)):to_equal(true)
          expect(s.pair.left):to_equal(string.rep("n", 100))
          expect(s.pair.right):to_equal(s.pair.left)
        end)
        """

    static let capMessage = "a copy of it would take more than %CAP%, the game's memory cap "
        + "(a table reached from several places is copied once for each)"

    @Test func showingASharedStateStopsAtTheGamesMemoryCap() throws {
        let g = try Self.sharedGame(levels: 18)
        let session = try GameSession(entry: try #require(g.entry), options: .init(limits: .init(memoryBytes: 8 << 20)))
        session.step()
        do {
            _ = try session.state()
            Issue.record("a 2^18-leaf copy was made")
        } catch {
            #expect(error.message == "scratch: game.state cannot be shown: "
                    + Self.capMessage.replacingOccurrences(of: "%CAP%", with: "8 MiB"))
        }
    }

    @Test func aSmallSharedStateIsStillShownWhole() throws {
        let g = try Self.sharedGame(levels: 3)
        let state = try GameSession(entry: try #require(g.entry)).state()
        let leaf: LuaValue = .table([:])
        let one: LuaValue = .table(["a": leaf, "b": leaf])
        let two: LuaValue = .table(["a": one, "b": one])
        #expect(state["deep"] == .table(["a": two, "b": two]))
        #expect(state["pair"]?["again"] == .table(["x": .int(1)]))
    }

    /// `arcade.log` shows a table as JSON, which converts it too: past what a log line can
    /// take it shows the type instead, and the game goes on.
    @Test func loggingASharedTableStaysBounded() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local t = {}
              for i = 1, 30 do t = { a = t, b = t } end
              arcade.log("small", { 1, 2 })
              arcade.log(t)
              game.state.printed = true
            end
            return game
            """])
        let lines = Collected<String>()
        let session = try GameSession(entry: try #require(g.entry), log: { lines.items.append($0) })
        #expect(try session.state()["printed"] == .bool(true))
        #expect(lines.items == ["small\t[1,2]", "table"])
    }

    /// A manifest is read the same way: one of shared tables is refused at the manifest
    /// reader's cap instead of growing while the catalog is listed.
    @Test func aManifestOfSharedTablesIsRefusedAtTheReadersCap() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        try g.write("manifest.lua", """
            local t = {}
            for i = 1, 20 do t = { a = t, b = t } end
            return { id = "scratch", title = "Shared", description = "d", author = "a", version = "1", api = 1, extra = t }
            """)
        let entry = try #require(GameCatalog(searchDirs: [g.root]).entries.first)
        #expect(entry.problem == "scratch/manifest.lua: " + Self.capMessage.replacingOccurrences(of: "%CAP%", with: "4 MiB"))
    }

    @Test func aTestsCopyOfTheStateKeepsTheSharing() throws {
        let g = try Self.sharedGame(levels: 5, tests: ["shared.lua": Self.sharingTest])
        let results = GameTestRunner(options: .init(determinism: nil)).run(try #require(g.entry))
        #expect(results.map(\.passed) == [true], "\(results)")
    }

    /// The whole class through the command line, thirty levels deep. Under a 4 GB address
    /// space limit, so that an arcade that does build the 2^30 tree fails fast.
    @Test func thirtyLevelsThroughTheCommandLine() throws {
        let g = try Self.sharedGame(levels: 30, tests: ["shared.lua": Self.sharingTest])
        let limit = "ulimit -v 4000000"
        let cap = Self.capMessage.replacingOccurrences(of: "%CAP%", with: "64 MiB")

        let (play, _, playErr) = try StorageProcessTests.start(["play", "scratch", "--games", g.root, "--headless",
                                                                "--frames", "2", "--state"], shell: limit)
        let playMessage = StorageProcessTests.text(playErr)
        play.waitUntilExit()
        #expect(play.terminationReason == .exit && play.terminationStatus == 1)
        #expect(playMessage == "scratch: game.state cannot be shown: \(cap)\n")

        let (check, checkOut, _) = try StorageProcessTests.start(["check", g.root, "--steps", "5"], shell: limit)
        let checked = StorageProcessTests.text(checkOut)
        check.waitUntilExit()
        #expect(check.terminationReason == .exit && check.terminationStatus == 1)
        #expect(checked.contains("FAIL  scratch: scratch: game.state cannot be shown: \(cap)"), "\(checked)")

        let (test, testOut, _) = try StorageProcessTests.start(["test", "--games", g.root, "--no-determinism"], shell: limit)
        let tested = StorageProcessTests.text(testOut)
        test.waitUntilExit()
        #expect(test.terminationReason == .exit && test.terminationStatus == 0, "\(tested)")
        #expect(tested.contains("ok    scratch/tests/shared.lua  the copy keeps the sharing"))
    }
}
