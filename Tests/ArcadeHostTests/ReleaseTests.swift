import Testing
import ArcadeLua
@testable import ArcadeHost

/// Leaving a game releases everything it created: its Lua state goes away with the session.
@Suite struct ReleaseTests {
    @Test func sessionAndVMAreFreedAfterClose() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local n = arcade.scene.circle{ radius = 3 }
              arcade.animate(n, { property = "x", to = 50, duration = 10 }, function() end)
              arcade.every(0.5, function() end)
              local w = arcade.physics.world{ gravity = { 0, 1 }, bounds = true }
              w:add_ball{ x = 10, y = 10, radius = 2, node = n }
              w:on_contact(function() end)
              arcade.save.set("k", { 1, 2, 3 })
            end
            function game.draw(gfx) gfx.text("hi", 1, 1) end
            return game
            """])
        weak var weakVM: LuaVM?
        weak var weakSession: GameSession?
        do {
            let session = try GameSession(entry: try #require(g.entry))
            for _ in 0..<30 { session.step() }
            _ = session.renderFrame()
            #expect(session.failure == nil)
            weakVM = session.vm
            weakSession = session
            session.close()
        }
        #expect(weakSession == nil)
        #expect(weakVM == nil)
    }
}
