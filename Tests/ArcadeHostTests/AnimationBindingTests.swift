import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// The Lua animation API driving real scene nodes inside a game session.
@Suite struct AnimationBindingTests {
    func session(_ main: String) throws -> GameSession {
        let g = try ScratchGame(files: ["main.lua": main])
        return try GameSession(entry: try #require(g.entry))
    }

    @Test func coinFlightFollowsItsQuadraticCurveAndReportsDone() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              st.done = {}
              game.coin = arcade.scene.circle{ x = 10, y = 90, radius = 2 }
              arcade.animate(game.coin, {
                group = {
                  { path = { from = { 10, 90 }, control = { 30, -20 }, to = { 40, 10 } } },
                  { property = "scale_x", values = { 1.5, 1.1, 0.75 }, timings = { "easeOut", "easeIn" } },
                },
                duration = 1,
              }, function(finished) st.done[#st.done + 1] = finished end)
            end
            function game.update()
              game.state.x, game.state.y, game.state.sx = game.coin.x, game.coin.y, game.coin.scale_x
            end
            return game
            """)
        // update runs before the animations advance: in step 31 it sees t = 30/60
        for _ in 0..<31 { s.step() }
        var st = try s.state()
        // B(0.5) = 0.25 P0 + 0.5 C + 0.25 P2
        #expect(abs((st["x"]?.doubleValue ?? 0) - 27.5) < 1)
        #expect(abs((st["y"]?.doubleValue ?? 0) - 15) < 1)
        #expect(abs((st["sx"]?.doubleValue ?? 0) - 1.1) < 0.02)
        for _ in 0..<30 { s.step() }
        st = try s.state()
        #expect(st["done"] == .array([.bool(true)]))
        #expect(abs((st["x"]?.doubleValue ?? 0) - 40) < 1e-6)
        #expect(s.failure == nil)
    }

    @Test func replacedAndRemovedReportNotFinished() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local st = game.state
              st.log = {}
              local box = arcade.scene.rect{ x = 0, y = 0, width = 4, height = 4 }
              arcade.animate(box, { property = "x", to = 50, duration = 1,
                                    on_done = function(f) st.log[#st.log + 1] = "first " .. tostring(f) end })
              arcade.animate(box, { property = "x", to = 20, duration = 0.1,
                                    on_done = function(f) st.log[#st.log + 1] = "second " .. tostring(f) end })
              local other = arcade.scene.rect{ x = 0, y = 0, width = 4, height = 4 }
              arcade.animate(other, { property = "alpha", from = 1, to = 0, duration = 2, repeat_count = "forever",
                                      on_done = function(f) st.log[#st.log + 1] = "other " .. tostring(f) end })
              arcade.after(0.5, function() other:remove() end)
            end
            return game
            """)
        for _ in 0..<40 { s.step() }
        #expect(try s.state()["log"] == .array(["first false", "second true", "other false"].map { .string($0) }))
    }

    @Test func badSpecsGiveClearErrors() throws {
        let s = try session("""
            local game = {}
            function game.load()
              local n = arcade.scene.rect{}
              game.state.e1 = select(2, pcall(arcade.animate, n, { property = "wobble", to = 1 }))
              game.state.e2 = select(2, pcall(arcade.animate, n, { property = "x" }))
              game.state.e3 = select(2, pcall(arcade.animate, n, { property = "x", to = 1, timing = "bouncy" }))
            end
            return game
            """)
        let st = try s.state()
        #expect(st["e1"]?.stringValue?.hasSuffix("'wobble' is not an animatable property)") == true)
        #expect(st["e2"]?.stringValue?.contains("give 'to'") == true)
        #expect(st["e3"]?.stringValue?.contains("unknown timing curve 'bouncy'") == true)
    }
}
