import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
import ArcadeTerminal
@testable import ArcadeHost

/// Text width as a game sees it: `arcade.text_width`, `arcade.fit_text`, text nodes measured
/// and placed by cells, and printable keys beyond ASCII arriving as their character.
@Suite struct WideTextGameTests {
    static let game = """
        local game = {}
        function game.load(ctx)
          local s = game.state
          s.keys, s.down = {}, {}
          s.widths = { arcade.text_width("主播小明"), arcade.text_width("e\\u{301}"), arcade.text_width("a\\nbc"),
                       arcade.text_width("👨\\u{200D}👩\\u{200D}👧") }
          s.fits = { arcade.fit_text("主播小明送出火箭", 7), arcade.fit_text("主播", 4), arcade.fit_text("abcdef", 4, "..") }
          game.name = arcade.scene.text{ text = "主播小明", x = 40, y = 10 }
          s.node_width = game.name.width
          arcade.scene.text{ text = "x3 火箭 🚀", x = 0, y = 0, anchor_x = 0, anchor_y = 0 }
          arcade.scene.text{ text = "|", x = 79, y = 0 }
        end
        function game.input(e)
          if e.type == "key" then
            local s = game.state
            s.keys[#s.keys + 1] = e.key .. (e.shift and "+shift" or "")
            s.down[#s.down + 1] = arcade.is_down("é")
          end
        end
        function game.update() end
        return game
        """

    @Test func measuringPlacingAndTyping() throws {
        let g = try ScratchGame(files: ["main.lua": Self.game])
        let session = try GameSession(entry: try #require(g.entry))
        var decoder = InputDecoder()
        let keys = decoder.decode(Array("é".utf8)) + decoder.decode(Array("\u{1B}[233;2u".utf8))
            + decoder.decode(Array("中".utf8))
        let driver = SessionDriver(session: session, script: InputScript(entries: keys.enumerated().map {
            InputScript.Entry(frame: $0.offset + 1, event: $0.element)
        }))
        driver.run(steps: 5)
        let state = try session.state()
        #expect(state["widths"] == .array([.int(8), .int(1), .int(2), .int(2)]))
        #expect(state["fits"] == .array([.string("主播小…"), .string("主播"), .string("ab..")]))
        #expect(state["node_width"] == .number(8))
        #expect(state["keys"] == .array([.string("é"), .string("é+shift"), .string("中")]))
        #expect(state["down"] == .array([.bool(true), .bool(true), .bool(true)]))  // no release came
        let lines = session.renderFrame().plainLines { _ in true }
        #expect(lines[0].hasPrefix("x3 火箭 🚀"))
        #expect(lines.allSatisfy { TextWidth.width($0) == 80 })
        #expect(lines[5].hasPrefix(String(repeating: " ", count: 36) + "主播小明"))  // centred on column 40
    }
}
