import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// An error names the callback it came from: the error card says `in timer (arcade.after,
/// main.lua:5)` or `in update` under the error's own place, and so do stderr and the tests.
@Suite struct CallbackNameTests {
    static func main(_ kind: String) -> String {
        """
        local game = {}
        local KIND = "\(kind)"
        function game.load()
          if KIND == "load" then error("boom") end
          if KIND == "after" then arcade.after(0.1, function() error("boom") end) end
          if KIND == "every" then arcade.every(0.1, game.tick) end
          if KIND == "animation" then arcade.animate(arcade.scene.rect{}, { property = "x", to = 1, duration = 0.1 }, function() error("boom") end) end
          if KIND == "contact" or KIND == "removed" then
            local w = arcade.physics.world{ gravity = { 0, 1 } }
            w:add_ball{ x = 10, y = 40, radius = 2, vy = 200 }
            if KIND == "contact" then w:on_contact(function() error("boom") end) end
            if KIND == "removed" then w.bounds_enabled = false; w:remove_outside(); w:on_removed(function() error("boom") end) end
          end
        end
        function game.tick() error("boom") end
        function game.update() if KIND == "update" then error("boom") end end
        function game.input() if KIND == "input" then error("boom") end end
        function game.draw() if KIND == "draw" then error("boom") end end
        return game
        """
    }

    static let cases: [(kind: String, callback: String)] = [
        ("update", "update"),
        ("input", "input"),
        ("draw", "draw"),
        ("after", "timer (arcade.after, scratch/main.lua:5)"),
        ("every", "timer (arcade.every, scratch/main.lua:6)"),
        ("animation", "animation on_done (arcade.animate, scratch/main.lua:7)"),
        ("contact", "on_contact (world:on_contact, scratch/main.lua:11)"),
        ("removed", "on_removed (world:on_removed, scratch/main.lua:12)"),
    ]

    @Test(arguments: cases)
    func theErrorNamesTheCallback(kind: String, callback: String) throws {
        let g = try ScratchGame(files: ["main.lua": Self.main(kind)])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<60 where session.failure == nil {
            session.step(events: [.key(KeyEvent("a"))])
            if session.failure == nil { _ = session.renderFrame() }
        }
        let failure = try #require(session.failure, "\(kind): no error")
        #expect(failure.callback == callback)
        #expect(failure.reason == "boom")
        #expect(failure.description.hasPrefix(failure.message + "\nin " + callback + "\n"), "\(failure.description)")

        // the card shows it under the error's place
        let canvas = Canvas(columns: 80, rows: 24)
        CardView.error(on: canvas, error: failure, selected: 0)
        var frame = canvas.makeFrame()
        canvas.render(into: &frame)
        // the card's fill shows through the spaces of its text (as blocks, in plain text)
        let lines = frame.plainLines { $0 == canvas.background }.map { $0.replacingOccurrences(of: "█", with: " ") }
        let at = try #require(lines.firstIndex { $0.contains("at scratch/main.lua:") }, "\(lines.joined(separator: "\n"))")
        #expect(lines[at + 1].contains("in " + callback), "\(lines.joined(separator: "\n"))")
    }

    @Test func anErrorInLoadIsNamedToo() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main("load")])
        do {
            _ = try GameSession(entry: try #require(g.entry))
            Issue.record("no error")
        } catch {
            #expect((error as? LuaError)?.callback == "load")
        }
    }

    /// `arcade play --headless` prints it on stderr between the message and the traceback.
    @Test func headlessStderrNamesIt() throws {
        let g = try ScratchGame(files: ["main.lua": Self.main("after")])
        let r = try runArcade(["play", "scratch", "--games", g.root, "--headless", "--frames", "30"])
        #expect(r.status == 1)
        #expect(r.err.hasPrefix("scratch/main.lua:5: boom\nin timer (arcade.after, scratch/main.lua:5)\nstack traceback:"), "\(r.err)")
    }
}
