import Testing
import ArcadeCore
@testable import ArcadeHost

@Suite struct GameCheckerTests {
    @Test func reportsEachBrokenGameWithItsLocation() {
        let findings = GameChecker(steps: 60).check(fixtureCatalog())
        let byGame = Dictionary(grouping: findings, by: \.game)
        #expect(byGame["tiny"] == nil)
        #expect(byGame["broken-manifest"]?.first?.message == "broken-manifest/manifest.lua: field 'title' must be a string, got number")
        #expect(byGame["crashy"]?.first?.message == "crashy/main.lua:7: attempt to index a nil value (local 't') (seed 1)")
    }

    @Test func syntaxErrorsInAnyModuleAreFound() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}", "extra.lua": "local x = = 1"])
        let findings = GameChecker(steps: 10).check(try #require(g.entry))
        #expect(findings.map(\.message) == ["scratch/extra.lua:1: unexpected symbol near '='"])
    }

    /// A game whose layout breaks only in a large window, or only when the window shrinks, is
    /// caught by the run in a large window that is shrunk and grown back.
    @Test func aLayoutThatBreaksInALargeOrShrunkWindowIsFound() throws {
        let wide = try ScratchGame(files: ["main.lua": """
            local game = {}
            local columns = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 }
            function game.load(ctx) game.state.width = columns[math.floor(ctx.cols / 10)] + 0 end
            return game
            """])
        let findings = GameChecker(steps: 60, determinism: false).check(try #require(wide.entry))
        #expect(findings.map(\.message) == ["scratch/main.lua:3: attempt to perform arithmetic on a nil value "
                                             + "(field '?') (seed 1, 160x50 resized to 80x24 and back)"])

        let shrink = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.input(e)
              if e.type == "resize" and e.width < game.state.widest then error("cannot lay out at " .. e.width) end
            end
            function game.load(ctx) game.state.widest = ctx.cols end
            return game
            """])
        let shrunk = GameChecker(steps: 60, determinism: false).check(try #require(shrink.entry))
        #expect(shrunk.first?.message.hasPrefix("scratch/main.lua:3: cannot lay out at 80 (seed 1, 160x50") == true,
                "\(shrunk)")
        #expect(GameChecker(steps: 60, largeSize: nil, determinism: false).check(try #require(shrink.entry)).isEmpty)
    }

    /// A game that asks for a larger window than 80 x 24 is never run in a smaller one: the
    /// arcade would show the player a card instead.
    @Test func aGamesMinimumSizeIsRespected() throws {
        let g = try ScratchGame(files: [
            "manifest.lua": """
                return { id = "scratch", title = "Scratch", description = "wide", author = "tests", version = "0",
                         api = 1, min_size = { 100, 30 } }
                """,
            "main.lua": """
                local game = {}
                local function fits(cols, rows) assert(cols >= 100 and rows >= 30, "too small: " .. cols .. "x" .. rows) end
                function game.load(ctx) fits(ctx.cols, ctx.rows); game.state.sizes = 0 end
                function game.input(e)
                  if e.type == "resize" then fits(e.width, e.height); game.state.sizes = game.state.sizes + 1 end
                end
                return game
                """,
        ])
        #expect(GameChecker(steps: 60).check(try #require(g.entry)).isEmpty)
        #expect(DeterminismCheck(steps: 60).check(try #require(g.entry)) == .deterministic(steps: 60))
    }

    @Test func randomInputIsDeterministicAndInsideTheCanvas() {
        let a = GameChecker.randomInput(seed: 4, steps: 300, size: .fallback)
        #expect(a == GameChecker.randomInput(seed: 4, steps: 300, size: .fallback))
        #expect(a != GameChecker.randomInput(seed: 5, steps: 300, size: .fallback))
        for e in a.entries {
            if case .mouse(let m) = e.event { #expect(m.col < 80 && m.row < 24) }
        }
    }
}
