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
        #expect(st["e1"]?.stringValue?.hasSuffix("(field 'property': animatable property (x, y, position, scale, scale_x, scale_y, rotation, alpha, color, outline, stroke_start, stroke_end) expected, got \"wobble\")") == true)
        #expect(st["e2"]?.stringValue?.contains("give 'to'") == true)
        #expect(st["e3"]?.stringValue?.contains("(field 'timing': timing curve (linear, easeIn, easeOut, easeInEaseOut, easeOutQuad, easeInOutBack... or { x1, y1, x2, y2 }) expected, got \"bouncy\")") == true)
    }
}

/// The documented examples (one per seed usage) run as written and end where they should.
@Suite struct AnimationExampleTests {
    @Test func everySeedAnimationRuns() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local st = game.state
              st.done = {}
              local function done(name) return function(f) st.done[#st.done + 1] = name .. ":" .. tostring(f) end end
              local coin = arcade.scene.circle{ radius = 2 }
              local s, fx, bottom, tx, ty, fy = 1.5, 10, 48, 40, 4, 2
              arcade.animate(coin, { group = {
                  { path = { from = { fx, bottom }, control = { tx + (fx - tx) / 2, fy / 2 - ty }, to = { tx, ty } } },
                  { property = "scale_x", values = { s, s * 0.75, s / 2 }, timings = { "easeOut", "easeIn" } },
                  { property = "scale_y", values = { s / 2, s / 2, s / 2 } } }, duration = 1 }, done("coin"))
              game.bank = arcade.scene.rect{ x = 40, y = 4, width = 10, height = 6 }
              arcade.animate(game.bank, { property = "rotation", from = -0.2, to = 0.2, duration = 0.1,
                                          autoreverse = true, repeat_count = 3, fill = "removed" }, done("shake"))
              game.counter = arcade.scene.label{ text = "x2", x = 20, y = 20 }
              arcade.animate(game.counter, { property = "scale", values = { 1, 3, 0.7 }, duration = 0.25 }, function()
                arcade.animate(game.counter, { property = "scale", from = 0.7, to = 1, duration = 0.25,
                                               spring = { damping = 0.7, velocity = 10 } }, done("pop"))
              end)
              game.hook = arcade.scene.rect{ width = 3, height = 4 }
              arcade.animate(game.hook, { property = "position", values = { { 40, 0 }, { 30, 24 }, { 28, 30 } },
                                          key_times = { 0, 0.7, 1 }, duration = 1 }, done("cast"))
              game.line = arcade.scene.line{ points = { { 40, 0 }, { 28, 30 } } }
              arcade.animate(game.line, { property = "stroke_end", values = { 0, 0.8, 1 }, key_times = { 0, 0.6, 1 },
                                          duration = 1 }, done("line"))
              game.circle = arcade.scene.circle{ radius = 5, x = 60, y = 30 }
              arcade.animate(game.circle, { property = "scale", from = 0.1, to = 1, duration = 0.5, delay = 0.2,
                                            spring = { damping = 0.5, velocity = 6 } }, done("popin"))
              game.right = arcade.scene.circle{ radius = 5, x = 70, y = 30 }
              arcade.animate(game.right, { property = "scale", from = 1, to = 1.5, duration = 0.2,
                                           autoreverse = true, repeat_count = 3, fill = "removed" }, done("blink"))
              local bg = arcade.scene.circle{ radius = 8, x = 10, y = 10 }
              arcade.animate(bg, { group = { { property = "alpha", values = { 0, 0.4, 0 } },
                                             { property = "scale", values = { 0.5, 1, 2 } } },
                                   duration = 2, delay = 0.3 }, function(f) bg:remove(); done("bg")(f) end)
              game.shape = arcade.scene.circle{ radius = 6, x = 40, y = 40 }
              arcade.animate(game.shape, { property = "scale", from = 1, to = 1.5, duration = 1, timing = "easeInEaseOut",
                                           autoreverse = true, repeat_count = "forever" })
            end
            function game.update()
              local st = game.state
              st.rotation, st.counter, st.hook_y = game.bank.rotation, game.counter.scale, game.hook.y
              st.stroke, st.circle, st.right, st.shape = game.line.stroke_end, game.circle.scale, game.right.scale, game.shape.scale
              st.nodes = arcade.scene.count()
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        var maxShape = 0.0
        for _ in 0..<200 {
            session.step()
            maxShape = max(maxShape, try session.state()["shape"]?.doubleValue ?? 0)
        }
        #expect(session.failure == nil)
        let st = try session.state()
        var items: [LuaValue] = []
        if case .array(let a)? = st["done"] { items = a }
        let done = Set(items.compactMap { $0.stringValue })
        #expect(done == ["coin:true", "shake:true", "pop:true", "cast:true", "line:true", "popin:true", "blink:true", "bg:true"])
        #expect(st["rotation"]?.doubleValue == 0)               // fill removed: back to the model value
        #expect(abs((st["counter"]?.doubleValue ?? 0) - 1) < 1e-6)
        #expect(abs((st["hook_y"]?.doubleValue ?? 0) - 30) < 1e-6)
        #expect(st["stroke"]?.doubleValue == 1)
        #expect(abs((st["circle"]?.doubleValue ?? 0) - 1) < 1e-6)
        #expect(st["right"]?.doubleValue == 1)
        #expect(maxShape > 1.49)                                  // the pulse keeps going
        #expect(st["nodes"] == .int(8))                           // nine nodes; the background circle removed itself
    }
}
