import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// What `docs/writing-games.md` says about contacts, ball defaults, the restitution
/// threshold, the block fonts' sizes and spaces in text, checked against the arcade.
@Suite struct DocumentedRulesTests {
    func state(_ main: String, steps: Int) throws -> LuaValue {
        let g = try ScratchGame(files: ["main.lua": main])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<steps { session.step() }
        #expect(session.failure == nil, "\(session.failure?.description ?? "")")
        return try session.state()
    }

    /// A slow ball stops dead against a wall under the default threshold, whatever its
    /// elasticity, and bounces once the threshold is lowered.
    @Test func slowBallsDoNotBounceUnderTheDefaultThreshold() throws {
        let st = try state("""
            local game = {}
            local slow, lowered
            function game.load()
              slow = arcade.physics.world{ gravity = { 0, 0 } }:add_ball{ x = 60, y = 20, radius = 2, vx = 80, elasticity = 1 }
              lowered = arcade.physics.world{ gravity = { 0, 0 }, restitution_threshold = 1 }
                :add_ball{ x = 60, y = 20, radius = 2, vx = 80, elasticity = 1 }
            end
            function game.update() game.state.slow, game.state.lowered = slow.vx, lowered.vx end
            return game
            """, steps: 30)
        #expect(st["slow"]?.doubleValue == 0)
        #expect(abs((st["lowered"]?.doubleValue ?? 0) + 80) < 1e-6)
    }

    /// Elasticity and friction are 0 when not given: a dropped ball does not bounce.
    @Test func aBallsDefaultsDoNotBounce() throws {
        let st = try state("""
            local game = {}
            local ball
            function game.load() ball = arcade.physics.world{}:add_ball{ x = 40, y = 10, radius = 2 } end
            function game.update() game.state.up = math.min(game.state.up or 0, ball.vy) end
            return game
            """, steps: 120)
        #expect((st["up"]?.doubleValue ?? -1) > -1e-6, "it never moved up")
    }

    /// `on_contact` fires once per touch; a callback may remove balls and destroy the world,
    /// and the events still queued for them are dropped.
    @Test func onContactFiresOncePerTouchAndCallbacksMayRemoveThings() throws {
        let st = try state("""
            local game = {}
            function game.load()
              local s = game.state
              s.rest, s.removed = 0, 0
              local resting = arcade.physics.world{}
              resting:add_ball{ x = 40, y = 30, radius = 2 }
              resting:on_contact(function() s.rest = s.rest + 1 end)
              local w = arcade.physics.world{}
              for i = 1, 3 do w:add_ball{ x = 10 + 10 * i, y = 40, radius = 2 } end
              w:on_contact(function(ball)
                s.removed = s.removed + 1
                ball:remove()
                if s.removed == 2 then w:destroy() end
              end)
            end
            return game
            """, steps: 120)
        #expect(st["rest"]?.intValue == 1, "a ball resting on the floor fired once")
        #expect(st["removed"]?.intValue == 2, "the world destroyed in the second callback delivers no third")
    }

    /// Glyphs: large 5 x 7, small 3 x 5, a pixel apart; an outline adds a pixel all round.
    @Test func labelSizes() throws {
        let st = try state("""
            local game = {}
            function game.load()
              local s = game.state
              local big = arcade.scene.label{ text = "GO" }
              local small = arcade.scene.label{ text = "GO", font = "small" }
              local ringed = arcade.scene.label{ text = "GO\\nGO", outline = "red" }
              s.big, s.small, s.ringed = { big.width, big.height }, { small.width, small.height }, { ringed.width, ringed.height }
            end
            return game
            """, steps: 0)
        #expect(st["big"] == .array([.int(11), .int(7)]) || st["big"] == .array([.number(11), .number(7)]))
        #expect(st["small"] == .array([.int(7), .int(5)]) || st["small"] == .array([.number(7), .number(5)]))
        #expect(st["ringed"] == .array([.int(13), .int(17)]) || st["ringed"] == .array([.number(13), .number(17)]))
    }

    /// A space draws nothing (what is under it shows), and `background` covers it.
    @Test func spacesAreTransparentAndBackgroundCovers() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              arcade.scene.background("#000000")
              arcade.scene.rect{ x = 0, y = 0, anchor = { 0, 0 }, width = 80, height = 4, fill = "#ff0000" }
              arcade.scene.text{ x = 0, y = 0, anchor = { 0, 0 }, text = "a b", color = "white" }
              arcade.scene.text{ x = 0, y = 2, anchor = { 0, 0 }, text = "a b", color = "white", background = "#000000" }
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        let frame = session.renderFrame()
        let lines = frame.plainLines { $0 == session.scene.background }
        #expect(lines[0].hasPrefix("a█b█"), "the red shows through the space: \(lines[0])")
        #expect(lines[1].hasPrefix("a b█"), "the background covers it: \(lines[1])")
    }
}
