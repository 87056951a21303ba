import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// The scene API as a game sees it: depth order of text and shapes, anchors and alignment of
/// text, clipping groups.
@Suite struct SceneBindingTests {
    func session(_ main: String, cols: Int = 20, rows: Int = 5) throws -> (ScratchGame, GameSession) {
        let g = try ScratchGame(files: ["main.lua": main])
        let s = try GameSession(entry: try #require(g.entry), options: .init(cols: cols, rows: rows))
        return (g, s)
    }

    func array(_ v: LuaValue?) -> [LuaValue] {
        if case .array(let a)? = v { return a }
        return []
    }

    func numbers(_ v: LuaValue?) -> [Double?] {
        array(v).map(\.doubleValue)
    }

    func screen(_ s: GameSession) -> [String] {
        s.renderFrame().plainText(background: Color(rgb: 0x000000)).split(separator: "\n").map(String.init)
    }

    @Test func aCardAboveTheLabelsHidesThem() throws {
        // The "TIME UP" card: a rect at z 10 over HUD text at z 0 must hide the text.
        let (_, s) = try session("""
            local game = {}
            function game.load()
              arcade.scene.background("#000000")
              arcade.scene.text{ x = 0, y = 0, anchor_x = 0, anchor_y = 0, text = "score 12" }
              arcade.scene.text{ x = 0, y = 2, anchor_x = 0, anchor_y = 0, text = "lives 3", z = 20 }
              arcade.scene.rect{ x = 0, y = 0, anchor_x = 0, anchor_y = 0, width = 6, height = 4, fill = "#202020", z = 10 }
            end
            return game
            """)
        s.step()
        #expect(s.failure == nil)
        let lines = screen(s)
        #expect(lines[0].hasPrefix("██████12"))
        // Its space is transparent: the card's pixels show there.
        #expect(lines[1].hasPrefix("lives█3"))
    }

    @Test func textIsCentredByDefaultAndAlignsItsLines() throws {
        let (_, s) = try session("""
            local game = {}
            function game.load()
              arcade.scene.background("#000000")
              local t = arcade.scene.text{ x = 10, y = 2, text = "ab\\nabcd" }
              local st = game.state
              st.anchor = { t.anchor_x, t.anchor_y }
              st.size = { t.width, t.height }
              st.align = t.align or "follows the anchor"
              t.align = "right"
              st.right = t.align
              st.bad = select(2, pcall(function() t.align = "middle" end))
              local l = arcade.scene.label{ text = "1\\n111", align = "left", visible = false }
              st.label = { l.align, l.anchor_x }
              l.align = nil
              st.label_after = l.align or "follows the anchor"
            end
            return game
            """)
        s.step()
        #expect(s.failure == nil)
        let st = try s.state()
        #expect(numbers(st["anchor"]) == [0.5, 0.5])
        #expect(numbers(st["size"]) == [4, 4])
        #expect(st["align"] == .string("follows the anchor"))
        #expect(st["right"] == .string("right"))
        #expect(st["bad"]?.stringValue?.contains("text.align: \"left\", \"center\", \"right\" or nil expected, got \"middle\"") == true)
        #expect(array(st["label"]).first == .string("left"))
        #expect(array(st["label"]).last?.doubleValue == 0.5)
        #expect(st["label_after"] == .string("follows the anchor"))
        // Centred on (10, 2): the block is columns 8...11, rows 0 and 1; lines to the right.
        let lines = screen(s)
        #expect(lines[0] == String(repeating: " ", count: 10) + "ab" + String(repeating: " ", count: 8))
        #expect(lines[1] == String(repeating: " ", count: 8) + "abcd" + String(repeating: " ", count: 8))
    }

    @Test func aClippingGroupShowsAMoleRisingOutOfItsHole() throws {
        let (_, s) = try session("""
            local game = {}
            function game.load()
              arcade.scene.background("#000000")
              local hole = arcade.scene.group{ x = 4, y = 2, anchor_x = 0, anchor_y = 0, width = 4, height = 4, clip = true }
              game.mole = arcade.scene.rect{ parent = hole, x = 0, y = 4, anchor_x = 0, anchor_y = 0,
                                             width = 4, height = 4, fill = "#8b5a2b" }
              game.state.hole = { hole.clip, hole.width, hole.height }
            end
            function game.update()
              game.mole.y = math.max(0, game.mole.y - 2)
              game.state.hit = { arcade.scene.hit(5, 6.5) ~= nil, arcade.scene.hit(5, 4.5) ~= nil }
            end
            return game
            """)
        s.step()
        let hole = array(try s.state()["hole"])
        #expect(hole.first == .bool(true))
        #expect(hole.dropFirst().map(\.doubleValue) == [4, 4])
        // After the first step the mole is at local y 2: its top half is out of the hole,
        // rows 2...3 of the canvas (cell row 2 shows pixels 4 and 5); nothing below.
        var lines = screen(s)
        #expect(lines[1] == String(repeating: " ", count: 20))
        #expect(lines[2] == "    ████            ")
        #expect(lines[3] == String(repeating: " ", count: 20))
        // The part still underground is not hit; the part out of the hole is.
        #expect(try s.state()["hit"] == .array([.bool(false), .bool(true)]))
        s.step()
        lines = screen(s)
        #expect(lines[1] == "    ████            ")
        #expect(lines[2] == "    ████            ")
        #expect(s.failure == nil)
    }
}
