import Testing
import ArcadeLua
@testable import ArcadeHost

/// Whatever a game's `__gc` finalizers call, closing the game never touches a released
/// native module: each call just fails inside the finalizer, and the process carries on.
@Suite struct FinalizerTests {
    static let calls = [
        "arcade.after(1, function() end)",
        "arcade.scene.rect{ width = 2, height = 2 }",
        "arcade.animate(arcade.scene.rect{}, { property = 'x', to = 5, duration = 1 })",
        "arcade.physics.world{}:add_ball{ x = 1, y = 1, radius = 1 }",
        "arcade.save.set('k', 1)",
        "arcade.score.submit(3)",
        "print('bye')",
        "arcade.log('bye')",
        "arcade.scene.clear()",
    ]

    @Test(arguments: calls)
    func finalizerCallingTheAPIAtClose(_ call: String) throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              -- kept alive by the game table until the state closes
              game.keep = setmetatable({}, { __gc = function() \(call) end })
              game.node = arcade.scene.rect{ width = 3, height = 3 }
              game.timer = arcade.every(0.5, function() end)
              game.world = arcade.physics.world{}
            end
            return game
            """])
        do {
            let session = try GameSession(entry: try #require(g.entry), store: SaveStore(location: .memory))
            for _ in 0..<5 { session.step() }
            session.close()
        }
        // and once more without close(): the session is simply dropped
        do {
            let session = try GameSession(entry: try #require(g.entry))
            session.step()
        }
        // the process is alive and a new game runs
        let again = try GameSession(entry: try #require(g.entry))
        again.step()
        #expect(again.failure == nil)
    }
}
