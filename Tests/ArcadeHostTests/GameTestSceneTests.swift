import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// Game tests read what the player sees: the nodes and balls the game named.
@Suite struct GameTestSceneTests {
    /// A paddle moved by the arrows, a hidden banner in a scaled group, and named balls
    /// falling in a world.
    static let main = """
        local game = {}
        local paddle, world
        function game.load()
          paddle = arcade.scene.rect{ name = "paddle", x = 40, y = 40, width = 10, height = 2 }
          local card = arcade.scene.group{ x = 20, y = 10, scale = 2, visible = false }
          arcade.scene.text{ parent = card, name = "banner", x = 1, y = 0, text = "GO" }
          arcade.scene.circle{ name = "dot", x = 5, y = 5, radius = 1, alpha = 0.5 }
          arcade.scene.circle{ name = "dot", x = 7, y = 5, radius = 1 }
          world = arcade.physics.world{ gravity = { 0, 0 } }
          world:add_ball{ name = "ball", x = 10, y = 10, radius = 2, vy = 30 }
          world:add_ball{ x = 30, y = 10, radius = 1 }
        end
        function game.input(e)
          if e.type == "key" and e.key == "left" then paddle.x = paddle.x - 3 end
        end
        return game
        """

    @Test func aTestReadsANamedNodeAndTheBalls() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main, "tests/see.lua": """
            test("what the player sees", function(t)
              local g = t:start()
              local p = g:node("paddle")
              expect(p):to_equal({ name = "paddle", kind = "rect", x = 40, y = 40, width = 10, height = 2,
                                   visible = true, alpha = 1 })
              g:key("left"):step()
              expect(g:node("paddle").x):to_equal(37)
              local banner = g:node("banner")
              expect(banner.visible, "inside a hidden group"):to_be(false)
              expect(banner.x):to_equal(22)
              expect(banner.text):to_equal("GO")
              expect(g:node("nobody")):to_be(nil)
              expect(#g:nodes("dot")):to_equal(2)
              expect(g:nodes("dot")[1].alpha):to_equal(0.5)
              expect(g:nodes("dot")[2].width):to_equal(2)
              local balls = g:balls()
              expect(#balls):to_equal(2)
              expect(balls[1].name):to_equal("ball")
              expect(balls[1].radius):to_equal(2)
              expect(balls[1].y):to_be_near(10.5, 1e-6)
              expect(balls[2].name):to_be(nil)
              g:step(59)
              expect(g:balls()[1].y):to_be_near(40, 1e-6)
            end)
            """])
        let results = GameTestRunner(options: .init(determinism: nil)).run(try #require(g.entry))
        #expect(results.count == 1)
        #expect(results.allSatisfy { $0.passed }, "\(results)")
    }

    /// The game reads the names back, and a name must be a short string.
    @Test func namesAreProperties() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local s = game.state
              local n = arcade.scene.rect{ name = "box" }
              s.node = n.name
              n.name = nil
              s.cleared = n.name == nil
              local world = arcade.physics.world{}
              s.ball = world:add_ball{ name = "b", x = 1, y = 1, radius = 1 }.name
              s.long = select(2, pcall(arcade.scene.rect, { name = ("x"):rep(300) }))
              s.number = select(2, pcall(function() n.name = 5 end))
            end
            return game
            """])
        let st = try GameSession(entry: try #require(g.entry)).state()
        #expect(st["node"] == .string("box"))
        #expect(st["cleared"] == .bool(true))
        #expect(st["ball"] == .string("b"))
        #expect(st["long"]?.stringValue?.contains("field 'name': string of at most 256 bytes expected, got string") == true,
                "\(st["long"] ?? .nil)")
        #expect(st["number"]?.stringValue?.contains("name: string of at most 256 bytes expected, got number") == true,
                "\(st["number"] ?? .nil)")
    }
}
