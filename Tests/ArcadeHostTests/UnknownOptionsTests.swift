import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost

/// Every options or spec table the API takes refuses a key it does not know, naming the key
/// and the function: a typo is an error, never an option silently left at its default.
@Suite struct UnknownOptionsTests {
    /// Each call, with a misspelt key, and the function its error must name.
    static let calls: [(code: String, function: String, key: String)] = [
        ("arcade.animate(n, { property = 'x', from = 0, to = 10, duraton = 2 })", "arcade.animate", "duraton"),
        ("arcade.animate(n, { property = 'x', to = 1, spring = { dampnig = 0.5 } })", "arcade.animate", "spring.dampnig"),
        ("arcade.animate(n, { path = { from = { 0, 0 }, to = { 1, 1 }, contrl = { 1, 0 } } })", "arcade.animate", "path.contrl"),
        ("arcade.animate(n, { group = { { property = 'x', to = 1, tming = 'linear' } }, duration = 1 })",
         "arcade.animate", "group[1].tming"),
        ("arcade.image{ rows = { 'x' }, palete = { x = 'red' } }", "arcade.image", "palete"),
        ("arcade.scene.group{ clipp = true }", "arcade.scene.group", "clipp"),
        ("arcade.scene.rect{ widht = 3 }", "arcade.scene.rect", "widht"),
        ("arcade.scene.circle{ raduis = 3 }", "arcade.scene.circle", "raduis"),
        ("arcade.scene.line{ points = { { 0, 0 }, { 1, 1 } }, colour = 'red' }", "arcade.scene.line", "colour"),
        ("arcade.scene.text{ text = 'a', backgroud = 'red' }", "arcade.scene.text", "backgroud"),
        ("arcade.scene.label{ text = 'a', fnt = 'large' }", "arcade.scene.label", "fnt"),
        ("arcade.scene.sprite{ image = img, framerate = 2 }", "arcade.scene.sprite", "framerate"),
        ("n:set{ visibel = false }", "Node.set", "visibel"),
        ("arcade.physics.world{ gravty = { 0, 1 } }", "arcade.physics.world", "gravty"),
        ("arcade.physics.world{ bounds = { x = 0, y = 0, width = 1, heigth = 1 } }", "arcade.physics.world", "bounds.heigth"),
        ("world:add_ball{ x = 1, y = 1, radius = 1, elasticty = 1 }", "PhysicsWorld.add_ball", "elasticty"),
        ("world:add_wall('w', { x = 0, y = 0, width = 1, hieght = 1 })", "PhysicsWorld.add_wall", "hieght"),
    ]

    @Test func everySpecTableRefusesAnUnknownKey() throws {
        let list = Self.calls.enumerated().map { i, c in "  { \(i + 1), function() \(c.code) end },\n" }.joined()
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local n = arcade.scene.rect{ width = 1, height = 1 }
              local img = arcade.image{ rows = { "x" }, palette = { x = "red" } }
              local world = arcade.physics.world{}
              local calls = {
            \(list)  }
              game.state.errors = {}
              for _, c in ipairs(calls) do
                local ok, err = pcall(c[2])
                game.state.errors[c[1]] = ok and "no error" or err
              end
            end
            function game.draw(gfx)
              local ok, err = pcall(gfx.label, "a", 1, 1, { fnt = "small" })
              game.state.label = ok and "no error" or err
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        guard case .array(let errors)? = try session.state()["errors"] else {
            Issue.record("no errors listed")
            return
        }
        #expect(errors.count == Self.calls.count)
        for (call, error) in zip(Self.calls, errors) {
            let message = error.stringValue ?? ""
            #expect(message.contains("to '\(call.function)'") && message.contains("(unknown option '\(call.key)'"),
                    "\(call.code): \(message)")
        }
        _ = session.renderFrame()
        let label = try session.state()["label"]?.stringValue ?? ""
        #expect(label.contains("to 'gfx.label'") && label.contains("(unknown option 'fnt'"), "\(label)")
    }

    /// The typo the issue met: the message says which key and suggests the right one.
    @Test func aMisspeltAnimationDurationIsNamed() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              local n = arcade.scene.rect{ width = 1, height = 1 }
              arcade.animate(n, { property = "x", from = 0, to = 10, duraton = 2 })
            end
            return game
            """])
        do {
            _ = try GameSession(entry: try #require(g.entry))
            Issue.record("the misspelt key was taken")
        } catch {
            #expect((error as? LuaError)?.message == "scratch/main.lua:4: bad argument #2 to 'arcade.animate' "
                    + "(unknown option 'duraton' (did you mean 'duration'?))")
        }
    }

    /// The test API's option tables too.
    @Test func theTestAPIsTablesRefuseUnknownKeys() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}", "tests/t.lua": """
            test("options", function(t)
              expect(function() t:start{ sead = 1 } end):to_fail("unknown option 'sead'")
              local g = t:start()
              expect(function() g:key("a", { is_reepat = true }) end):to_fail("unknown option 'is_reepat'")
              expect(function() g:restart{ colls = 90 } end):to_fail("unknown option 'colls'")
            end)
            """])
        let results = GameTestRunner(options: .init(determinism: nil)).run(try #require(g.entry))
        #expect(results.count == 1 && results.allSatisfy { $0.passed }, "\(results.map(\.line))")
    }
}
