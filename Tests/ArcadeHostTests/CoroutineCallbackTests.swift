import ArcadeHost
import ArcadeLua
import Foundation
import Testing

/// Issue 15, 6a: callbacks registered from inside a coroutine (timers, animation `on_done`,
/// contact and removal handlers) are taken from the coroutine's own stack, so the value
/// stored is the function given, many at once, with coroutines suspended and resumed in
/// between, and the main stack stays intact.
@Suite struct CoroutineCallbackTests {
    static func run(_ main: String, steps: Int) throws -> (GameSession, String) {
        let g = try ScratchGame(files: ["main.lua": main])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<steps { session.step() }
        if let f = session.failure { Issue.record("the game failed: \(f.message)\n\(f.traceback)") }
        return (session, try session.state().json())
    }

    @Test func timersFromManyCoroutinesEachCallTheirOwnFunction() throws {
        let (_, state) = try Self.run("""
            local game = {}
            function game.load()
              local s = game.state
              s.fired, s.wrong = 0, 0
              local cos = {}
              for c = 1, 40 do
                cos[c] = coroutine.create(function(a)
                  for k = 1, 5 do
                    local tag = c * 100 + k
                    -- junk on the coroutine's stack around the call
                    local x, y, z = coroutine.running(), {}, "pad"
                    arcade.after(0.01 * k, function() s.fired = s.fired + 1; if tag ~= c * 100 + k then s.wrong = s.wrong + 1 end end)
                    arcade.every(0.05, function(...) s.fired = s.fired + 0 end):cancel()
                    coroutine.yield(x, y, z)
                  end
                end)
              end
              -- resume them interleaved: each registers one timer per resume
              for k = 1, 5 do
                for c = 1, 40 do assert(coroutine.resume(cos[c], k)) end
              end
              -- and from a wrapped coroutine, nested inside another
              local outer = coroutine.wrap(function()
                local inner = coroutine.wrap(function()
                  for i = 1, 50 do arcade.after(0.02, function() s.fired = s.fired + 1 end); coroutine.yield() end
                end)
                for i = 1, 50 do inner(); coroutine.yield() end
              end)
              for i = 1, 50 do outer() end
            end
            return game
            """, steps: 30)
        #expect(state.contains("\"fired\":250"), "\(state)")
        #expect(state.contains("\"wrong\":0"))
    }

    @Test func animationCompletionsFromCoroutines() throws {
        let (session, state) = try Self.run("""
            local game = {}
            function game.load()
              local s = game.state
              s.done, s.finished = 0, 0
              for c = 1, 60 do
                local co = coroutine.wrap(function()
                  local node = arcade.scene.rect{ x = c, y = 4, width = 2, height = 2, color = "red" }
                  coroutine.yield()
                  arcade.animate(node, { property = "x", to = c + 10, duration = 0.05 }, function(finished)
                    s.done = s.done + 1
                    if finished then s.finished = s.finished + 1 end
                  end)
                  coroutine.yield()
                  -- the spec's own on_done, from a second animation on a new node
                  local other = arcade.scene.rect{ x = c, y = 8, width = 2, height = 2, color = "blue" }
                  arcade.animate(other, { property = "y", to = 20, duration = 0.05, on_done = function(f) s.done = s.done + 1 end })
                end)
                co(); co(); co()
              end
            end
            return game
            """, steps: 20)
        #expect(state.contains("\"done\":120"), "\(state)")
        #expect(state.contains("\"finished\":60"))
        #expect(session.stats.animations == 0)
    }

    @Test func contactAndRemovalHandlersFromCoroutines() throws {
        let (_, state) = try Self.run("""
            local game = {}
            function game.load()
              local s = game.state
              s.contacts, s.removed, s.bad = 0, 0, 0
              game.world = arcade.physics.world{ gravity = { 0, 1 }, bounds = false, remove_outside = true }
              local co = coroutine.create(function()
                for i = 1, 20 do
                  game.world:add_wall("floor" .. i, { x = i * 3, y = 30, width = 3, height = 1 })
                  coroutine.yield(i)
                end
                -- set the handlers from deep inside the coroutine, between yields
                game.world:on_contact(function(ball, id, x, y)
                  if type(ball) ~= "userdata" then s.bad = s.bad + 1 end
                  s.contacts = s.contacts + 1
                end)
                coroutine.yield("handlers")
                game.world:on_removed(function(ball) s.removed = s.removed + 1 end)
                for i = 1, 10 do game.world:add_ball{ x = i * 6, y = 5, radius = 1 } end
              end)
              while coroutine.status(co) ~= "dead" do assert(coroutine.resume(co)) end
            end
            return game
            """, steps: 240)
        #expect(!state.contains("\"contacts\":0"), "\(state)")
        #expect(state.contains("\"bad\":0"))
    }

    @Test func registeringFromADeadOrErroringCoroutineLeavesTheMainStackIntact() throws {
        let (_, state) = try Self.run("""
            local game = {}
            function game.load()
              local s = game.state
              s.fired, s.caught = 0, 0
              for i = 1, 100 do
                local ok = pcall(coroutine.wrap(function()
                  arcade.after(0.01, function() s.fired = s.fired + 1 end)
                  error("boom " .. i)
                end))
                if not ok then s.caught = s.caught + 1 end
              end
            end
            function game.update(dt)
              -- the main stack is sound: calls with many values still work
              local t = table.pack(select(2, pcall(function() return 1, 2, 3, 4, 5 end)))
              game.state.n = t.n
            end
            return game
            """, steps: 5)
        #expect(state.contains("\"fired\":100"), "\(state)")
        #expect(state.contains("\"caught\":100"))
        #expect(state.contains("\"n\":5"))
    }
}
