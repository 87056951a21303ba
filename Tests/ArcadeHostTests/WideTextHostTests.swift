import Foundation
import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// What the host draws measures text in cells: the menu's fitted titles, the cards' wrapped
/// and aligned lines, the profiler over wide glyphs, and the manifest's limits.
@Suite struct WideTextHostTests {
    @Test func theMenuCutsByCells() {
        #expect(MenuScreen.fit("主播小明送出火箭", 7) == "主播小…")
        #expect(MenuScreen.fit("主播小明", 8) == "主播小明")
        #expect(MenuScreen.fit("e\u{301}e\u{301}e\u{301}", 3) == "e\u{301}e\u{301}e\u{301}")
        #expect(TextWidth.width(MenuScreen.fit("火箭游戏 Rocket — 主播小明送出火箭 x3", 20)) <= 20)
    }

    @Test func cardsWrapAndAlignByCells() throws {
        let lines = CardView.wrap("主播小明送出火箭 x3 한국어 텍스트 and 一二三四五六七八九十一二", width: 10)
        #expect(lines.allSatisfy { TextWidth.width($0) <= 10 }, "\(lines)")
        #expect(lines.joined(separator: " ").replacingOccurrences(of: " ", with: "")
                == "主播小明送出火箭x3한국어텍스트and一二三四五六七八九十一二")
        // the choices' buttons are as wide as their labels' cells
        let slots = CardView.choiceLayout(["继续", "restart"], box: (x: 0, y: 0, w: 40, h: 10))
        #expect(slots.map(\.width) == [8, 11])
        // the pause card right-aligns wide inputs and draws every row inside the screen
        let canvas = Canvas(columns: 80, rows: 24)
        canvas.clear()
        CardView.pause(on: canvas, title: "火箭游戏 Rocket", controls: [GameControl(input: "← / →", action: "移动篮子"),
                                                                    GameControl(input: "空格键", action: "发射 🚀")],
                       selected: 0)
        let rows = canvas.makeFrame().plainLines { _ in true }
        #expect(rows.allSatisfy { TextWidth.width($0) == 80 })
        // "← / →" (5 cells) and "空格键" (6 cells) end in the same column
        func end(of input: String) throws -> Int {
            let row = try #require(rows.first { $0.contains(input) })
            return TextWidth.width(String(row[..<(try #require(row.range(of: input))).upperBound]))
        }
        #expect(try end(of: "← / →") == (try end(of: "空格键")))
    }

    @Test func theProfilerOverAWideGlyphLeavesNoHalfOfIt() {
        var frame = Frame(columns: 80, rows: 24, background: Color(rgb: 0x203040))
        // a wide glyph whose right half is the panel's first column
        frame.write("主播小明", column: 80 - ProfileOverlay.width - 1, row: ProfileOverlay.top, foreground: .white, background: .black)
        ProfileOverlay.draw(nil, stats: GameStats(nodes: 1, animations: 0, timers: 0, worlds: 0, bodies: 0, walls: 0,
                                                   luaBytes: 1024, frame: 1), on: &frame)
        #expect(frame[80 - ProfileOverlay.width - 1, ProfileOverlay.top].text == " ")
        #expect(!frame[80 - ProfileOverlay.width, ProfileOverlay.top].isContinuation)
        #expect(frame.plainLines { _ in true }.allSatisfy { TextWidth.width($0) == 80 })
    }

    @Test func manifestLimitsCountCells() throws {
        let g = try ScratchGame(files: ["main.lua": "return {}"])
        let action = String(repeating: "火", count: 21)  // 21 characters, 42 cells
        try g.write("manifest.lua", """
            return { id = 'ok', title = '火箭', description = 'D', author = 'A', version = '1', api = 1,
                     controls = { { '空格', '\(action)' } } }
            """)
        do {
            _ = try GameManifest.load(path: g.folder + "/manifest.lua", displayPath: "scratch/manifest.lua")
            Issue.record("42 cells accepted")
        } catch {
            #expect(error.message.contains("is 42 cells wide; at most 40 fit on the pause card"))
        }
    }
}
