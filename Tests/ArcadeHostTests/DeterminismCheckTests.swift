import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// The determinism check: two side-by-side runs, the second walking tables in reverse, and
/// the line whose walk changes the game found.
@Suite struct DeterminismCheckTests {
    static func check(_ main: String, steps: Int = 60) throws -> DeterminismCheck.Outcome {
        let g = try ScratchGame(files: ["main.lua": main])
        return DeterminismCheck(steps: steps).check(try #require(g.entry))
    }

    /// The mistake the check exists for: a random number drawn per key, in `pairs` order.
    static let randomPerKey = """
        local game = {}
        local FRUIT = { apple = 1, pear = 2, plum = 3, fig = 4, kiwi = 5 }
        function game.load() game.state.picks = {} end
        function game.update()
          if arcade.frame() % 10 ~= 0 then return end
          for name in pairs(FRUIT) do
            game.state.picks[name] = math.random(1, 1000)
          end
        end
        return game
        """

    @Test func aRandomDrawPerKeyInPairsOrderIsReportedWithItsLine() throws {
        guard case .diverged(let d) = try Self.check(Self.randomPerKey) else {
            Issue.record("not reported")
            return
        }
        #expect(d.step == 10)
        #expect(d.lines == ["scratch/main.lua:6"])
        #expect(d.difference.hasPrefix("game.state.picks."))
        #expect(d.description.hasPrefix("scratch/main.lua:6: the order this pairs/next walk visits keys in changes the game"))
        #expect(d.description.contains("differ after step 10"))
    }

    /// Harmless walks are walked in reverse too, and are not blamed: only the line whose
    /// order alone changes the run is named.
    @Test func onlyTheWalkThatMattersIsNamed() throws {
        let main = """
            local game = {}
            local FRUIT = { apple = 1, pear = 2, plum = 3, fig = 4, kiwi = 5 }
            function game.load() game.state.total, game.state.first = 0, nil end
            function game.update()
              local sum = 0
              for _, v in pairs(FRUIT) do sum = sum + v end          -- order does not matter
              game.state.total = game.state.total + sum
              local names = {}
              for name in pairs(FRUIT) do names[#names + 1] = name end
              table.sort(names)                                       -- sorted: fine
              if arcade.frame() == 30 then game.state.first = next(FRUIT) end   -- "any key": not fine
            end
            return game
            """
        guard case .diverged(let d) = try Self.check(main) else {
            Issue.record("not reported")
            return
        }
        #expect(d.step == 30)
        #expect(d.lines == ["scratch/main.lua:11"])
    }

    @Test func arraysAndSortedKeysAreDeterministic() throws {
        let main = """
            local game = {}
            local FRUIT = { apple = 1, pear = 2, plum = 3, fig = 4, kiwi = 5 }
            local ORDER = { "apple", "fig", "kiwi", "pear", "plum" }
            function game.load() game.state.picks = {} end
            function game.update()
              for _, name in ipairs(ORDER) do game.state.picks[name] = math.random(1, 1000) end
              local keys = {}
              for k in pairs(FRUIT) do keys[#keys + 1] = k end
              table.sort(keys)
              for _, k in ipairs(keys) do game.state.picks[k] = game.state.picks[k] + math.random(1, 10) end
            end
            return game
            """
        #expect(try Self.check(main) == .deterministic(steps: 60))
    }

    /// Something other than a walk that differs between two VMs (a table's address): the
    /// check says so, and names no line.
    @Test func aDifferenceThatIsNoWalkIsReportedWithoutALine() throws {
        let main = """
            local game = {}
            function game.load() game.state.id = tostring({}) end
            return game
            """
        guard case .diverged(let d) = try Self.check(main) else {
            Issue.record("not reported")
            return
        }
        #expect(d.step == 0)
        #expect(d.lines.isEmpty)
        #expect(d.description.contains("something else differs between runs"))
    }

    /// Frames are compared too: an order that only decides what is drawn is found.
    @Test func aFrameThatDependsOnPairsOrderIsFound() throws {
        let main = """
            local game = {}
            local COLORS = { red = "#ff0000", green = "#00ff00", blue = "#0000ff" }
            function game.load()
              local x = 10
              for _, c in pairs(COLORS) do
                arcade.scene.rect{ x = x, y = 10, width = 4, height = 4, fill = c }
                x = x + 6
              end
            end
            return game
            """
        guard case .diverged(let d) = try Self.check(main) else {
            Issue.record("not reported")
            return
        }
        #expect(d.step == 0)
        #expect(d.difference.hasPrefix("the frame differs first at column"))
        #expect(d.lines == ["scratch/main.lua:5"])
    }

    /// The runs resize the window (larger, then back): a resize handler that lays the scene
    /// out in `pairs` order of a table keyed by tables and functions (whose order changes
    /// from one VM to the next) is found, with its line.
    @Test func aResizeHandlerThatDrawsInPairsOrderIsFound() throws {
        let main = """
            local game = {}
            local MARKS = {}
            function game.load()
              local colors = { "#ff0000", "#00ff00", "#0000ff", "#ffff00", "#ff00ff", "#00ffff" }
              for i, c in ipairs(colors) do
                local key = i % 2 == 0 and {} or function() return c end
                MARKS[key] = arcade.scene.rect{ x = 4 * i, y = 4, width = 3, height = 3, fill = c }
              end
            end
            function game.input(e)
              if e.type ~= "resize" then return end
              local x = 2
              for _, mark in pairs(MARKS) do
                mark.x = x
                x = x + 4
              end
            end
            return game
            """
        guard case .diverged(let d) = try Self.check(main) else {
            Issue.record("not reported")
            return
        }
        // the resize at frame 15 (a quarter of 60 steps) arrives with the 16th step
        #expect(d.step == 16)
        #expect(d.difference.hasPrefix("the frame differs first at column"))
        #expect(d.lines == ["scratch/main.lua:13"])
        // and the checker reports it
        let g = try ScratchGame(files: ["main.lua": main])
        let findings = GameChecker(steps: 60).check(try #require(g.entry))
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("scratch/main.lua:13: the order this pairs/next walk") == true)
    }

    /// Every bundled game (the five, and any added later). The only run of this check over
    /// them in `scripts/test.sh`: its `arcade test` runs with `--no-determinism`.
    @Test func theBundledGamesAreDeterministic() throws {
        let catalog = GameCatalog(searchDirs: [DefinitionsTests.repoRoot + "/games"])
        let ids = catalog.entries.map(\.id)
        for id in ["coinbank", "fishing", "giftcombo", "ballcatch", "lastcircle"] { #expect(ids.contains(id)) }
        for entry in catalog.entries {
            let game = try #require(catalog.game(entry.id), "\(entry.id): \(entry.problem ?? "")")
            #expect(DeterminismCheck().check(game) == .deterministic(steps: 300), "\(entry.id)")
        }
    }

    @Test func theCheckerReportsADivergence() throws {
        let g = try ScratchGame(files: ["main.lua": Self.randomPerKey])
        let findings = GameChecker(steps: 60).check(try #require(g.entry))
        #expect(findings.count == 1)
        #expect(findings.first?.message.hasPrefix("scratch/main.lua:6: the order this pairs/next walk") == true)
        #expect(GameChecker(steps: 60, determinism: false).check(try #require(g.entry)).isEmpty)
    }

    @Test func differencesAreDescribedByPath() {
        let a: LuaValue = .table(["a": .array([.int(1), .int(2)]), "b c": .string("x")])
        let b: LuaValue = .table(["a": .array([.int(1), .int(3)]), "b c": .string("y")])
        #expect(DeterminismCheck.difference(a, b, path: "game.state") == "game.state.a[2] is 2 in run 1, 3 in run 2")
        let c: LuaValue = .table(["a": .array([.int(1), .int(2)]), "b c": .string("y")])
        #expect(DeterminismCheck.difference(a, c, path: "s") == "s[\"b c\"] is \"x\" in run 1, \"y\" in run 2")
        #expect(DeterminismCheck.difference(a, a, path: "s") == nil)
    }
}
