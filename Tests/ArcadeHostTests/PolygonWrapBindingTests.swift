import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// Polygons, line anchors and wrapping nodes as a game sees them: their properties, what they
/// refuse and how they draw.
@Suite struct PolygonWrapBindingTests {
    func session(_ main: String, cols: Int = 20, rows: Int = 5) throws -> (ScratchGame, GameSession) {
        let g = try ScratchGame(files: ["main.lua": main])
        let s = try GameSession(entry: try #require(g.entry), options: .init(cols: cols, rows: rows))
        return (g, s)
    }

    func screen(_ s: GameSession) -> [String] {
        s.renderFrame().plainText(background: Color(rgb: 0x000000)).split(separator: "\n").map(String.init)
    }

    /// Runs `body` in `load` and returns `game.state.out` (a string) after one step.
    func run(_ body: String, cols: Int = 20, rows: Int = 5) throws -> (String?, [String]) {
        let (_, s) = try session("""
            local game = {}
            local function err(f) local ok, e = pcall(f) return ok and "no error" or tostring(e) end
            local function pts(p) local o = {} for _, q in ipairs(p) do o[#o + 1] = string.format("%g,%g", q[1], q[2]) end return table.concat(o, " ") end
            local function nums(...) local o = {} for i, v in ipairs({ ... }) do o[i] = string.format("%g", v) end return table.concat(o, " ") end
            function game.load()
              arcade.scene.background("#000000")
              local out = {}
              \(body)
              game.state.out = table.concat(out, "\\n")
            end
            return game
            """, cols: cols, rows: rows)
        s.step()
        #expect(s.failure == nil, "\(String(describing: s.failure))")
        return (try s.state()["out"]?.stringValue, screen(s))
    }

    @Test func aPolygonReadsAndWritesItsProperties() throws {
        let (out, lines) = try run("""
            local p = arcade.scene.polygon{ x = 4, y = 2, points = { {0, 0}, {8, 0}, {0, 4} }, fill = "white",
                                            stroke = "red", line_width = 2 }
            out[#out + 1] = p.kind .. " " .. pts(p.points) .. " " .. p.fill .. " " .. p.color .. " " .. p.stroke
            out[#out + 1] = nums(p.line_width, p.anchor_x, p.anchor_y)
            p.points = { {0, 0}, {4, 0}, {4, 4}, {0, 4} }
            p.color = "#00ff00"
            p.line_width = 0
            out[#out + 1] = pts(p.points) .. " " .. p.fill
            out[#out + 1] = tostring(p:contains(4, 2)) .. " " .. tostring(p:contains(7, 2))
            out[#out + 1] = tostring(arcade.scene.hit(3, 1) == p)
            """)
        #expect(out == """
            polygon 0,0 8,0 0,4 #ffffff #ffffff #e53935
            2 0.5 0.5
            0,0 4,0 4,4 0,4 #00ff00
            true false
            true
            """)
        // A 4 x 4 square centred on (4, 2): columns 2...5, rows 0 and 1 of pixels 0...3.
        #expect(lines[0] == "  ████              ")
        #expect(lines[1] == "  ████              ")
        #expect(lines[2] == String(repeating: " ", count: 20))
    }

    @Test func aPolygonRefusesBadPoints() throws {
        let (out, _) = try run("""
            out[#out + 1] = err(function() arcade.scene.polygon{} end)
            out[#out + 1] = err(function() arcade.scene.polygon{ points = { {0, 0}, {1, 1} } } end)
            out[#out + 1] = err(function() arcade.scene.polygon{ points = { {0, 0}, {1, 1}, {2, "x"} } } end)
            out[#out + 1] = err(function() arcade.scene.polygon{ points = "square" } end)
            local many = {}
            for i = 1, 4097 do many[i] = { i, i % 7 } end
            out[#out + 1] = err(function() arcade.scene.polygon{ points = many } end)
            local p = arcade.scene.polygon{ points = { {0, 0}, {4, 0}, {0, 4} } }
            out[#out + 1] = err(function() p.points = { {0, 0} } end)
            out[#out + 1] = err(function() p.radius = 3 end)
            out[#out + 1] = pts(p.points)
            many[4097] = nil
            p.points = many
            out[#out + 1] = #p.points .. " " .. arcade.scene.count()
            """)
        #expect(out == """
            scratch/main.lua:8: bad argument #1 to 'arcade.scene.polygon' (field 'points': list of 3 to 4096 points { x, y } expected, got nil)
            scratch/main.lua:9: bad argument #1 to 'arcade.scene.polygon' (field 'points': list of 3 to 4096 points { x, y } expected, got 2 points)
            scratch/main.lua:10: bad argument #1 to 'arcade.scene.polygon' (field 'points': { x, y } expected at item 3, got table)
            scratch/main.lua:11: bad argument #1 to 'arcade.scene.polygon' (field 'points': list of 3 to 4096 points { x, y } expected, got string)
            scratch/main.lua:14: bad argument #1 to 'arcade.scene.polygon' (field 'points': list of 3 to 4096 points { x, y } expected, got 4097 points)
            scratch/main.lua:16: polygon.points: list of 3 to 4096 points { x, y } expected, got 1 point
            scratch/main.lua:17: a polygon has no property 'radius'
            0,0 4,0 0,4
            4096 1
            """)
    }

    @Test func aLineKeepsItsPlaceUntilItsAnchorIsSet() throws {
        let (out, lines) = try run("""
            local l = arcade.scene.line{ x = 2, y = 1, points = { {0, 0}, {4, 0} }, color = "white" }
            out[#out + 1] = tostring(l.anchor_x) .. " " .. tostring(l.anchor_y)
            local m = arcade.scene.line{ x = 10, y = 5, points = { {0, 0}, {4, 0} }, color = "white", anchor_x = 0.5 }
            out[#out + 1] = tostring(m.anchor_x) .. " " .. tostring(m.anchor_y)
            local n = arcade.scene.line{ x = 10, y = 9, points = { {0, 0}, {4, 0} }, color = "white" }
            n.anchor = { 1, 0.5 }
            out[#out + 1] = nums(n.anchor_x, n.anchor_y)
            n.anchor_x = nil
            out[#out + 1] = tostring(n.anchor_x) .. " " .. n.anchor_y
            out[#out + 1] = err(function() n.anchor_x = "left" end)
            """)
        #expect(out == """
            nil nil
            0.5 nil
            1 0.5
            nil 0.5
            scratch/main.lua:17: line.anchor_x: number or nil expected, got string
            """)
        // l from x = 2 (points relative to x, y); m centred on x = 10; n ending at x = 10, its
        // flat box centred on y = 9. A 1-wide line on y = 1, 5 or 9 fills pixel row 1, 5 or 9:
        // the lower halves of cell rows 0, 2 and 4.
        #expect(lines[0] == "  ▄▄▄▄              ")
        #expect(lines[2] == "        ▄▄▄▄        ")
        #expect(lines[4] == "          ▄▄▄▄      ")
    }

    @Test func wrapIsANodePropertyThatReadsBack() throws {
        let (out, lines) = try run("""
            local r = arcade.scene.rect{ x = 19, y = 4, width = 4, height = 2, fill = "white" }
            out[#out + 1] = tostring(r.wrap)
            r.wrap = true
            out[#out + 1] = tostring(r.wrap)
            local g = arcade.scene.group{ wrap = { 0, 0, 20, 10 } }
            local w = g.wrap
            out[#out + 1] = nums(w.x, w.y, w.width, w.height, w[1], w[2], w[3], w[4])
                            .. " " .. tostring(w.wrap_x) .. " " .. tostring(w.wrap_y)
            g.wrap = { x = 1, y = 2, width = 3, height = 4, wrap_y = false }
            w = g.wrap
            out[#out + 1] = nums(w.x, w.y, w.width, w.height) .. " " .. tostring(w.wrap_y)
            g.wrap = w
            out[#out + 1] = tostring(g.wrap.wrap_y)
            g.wrap = false
            out[#out + 1] = tostring(g.wrap)
            out[#out + 1] = err(function() g.wrap = "canvas" end)
            out[#out + 1] = err(function() g.wrap = { 0, 0, 0, 10 } end)
            out[#out + 1] = err(function() g.wrap = { 0, 0, 20 } end)
            out[#out + 1] = err(function() g.wrap = { 0, 0, 20, 1 / 0 } end)
            out[#out + 1] = err(function() g.wrap = { 0, 0, 20, 10, wrap_x = "no" } end)
            out[#out + 1] = err(function() arcade.scene.circle{ wrap = 1 } end)
            """)
        #expect(out == """
            nil
            true
            0 0 20 10 0 0 20 10 true true
            1 2 3 4 false
            false
            nil
            scratch/main.lua:23: group.wrap: { x, y, width, height }, true, false or nil expected, got string
            scratch/main.lua:24: group.wrap: { x, y, width, height } with a width and height above 0 expected, got 0 x 10
            scratch/main.lua:25: group.wrap: { x, y, width, height } expected, got a table whose height is nil
            scratch/main.lua:26: group.wrap: { x, y, width, height } expected, got a table whose height is inf
            scratch/main.lua:27: group.wrap: wrap_x = true or false expected, got string
            scratch/main.lua:28: bad argument #1 to 'arcade.scene.circle' (field 'wrap': { x, y, width, height }, true, false or nil expected, got number)
            """)
        // The rect at x 17...21 on the 20-pixel canvas shows its last pixel at x 0.
        #expect(lines[1] == "▄                ▄▄▄")
        #expect(lines[2] == "▀                ▀▀▀")
    }
}
