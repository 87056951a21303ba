import ArcadeCore
import Testing
@testable import ArcadeRender

/// Each row of `frame` as the cells a terminal shows: a wide glyph, then `·` for its right
/// half, so every row reads `columns` characters in any font; pixels are `#` where not
/// the background.
private func cells(_ frame: Frame) -> [String] {
    (0..<frame.rows).map { r in
        (0..<frame.columns).map { c -> String in
            let cell = frame[c, r]
            if cell.isContinuation { return "·" }
            switch cell.appearance {
            case .glyph: return cell.text
            case .pixels(let top, let bottom): return top == Palette.background && bottom == Palette.background ? " " : "#"
            }
        }.joined()
    }
}

private func text(_ s: String, x: Double, y: Double, anchor: Vec2 = .zero, color: Color = Palette.white,
                  background: Color = .clear) -> TextNode {
    let t = TextNode(text: s, x: x, y: y, color: color, background: background)
    t.anchor = anchor
    return t
}

/// Wide characters, combining marks and emoji on the canvas, in the frame, and under and over
/// shapes.
@Suite struct WideTextTests {
    @Test func aWideGlyphTakesTwoCellsAndTheRowStaysItsWidth() {
        let canvas = drawn(scene(text("主播小明送出火箭 x3", x: 0, y: 0)), columns: 24, rows: 1)
        let frame = canvas.makeFrame()
        #expect(cells(frame) == ["主·播·小·明·送·出·火·箭· x3     "])
        #expect(frame[0, 0].isWide && frame[1, 0].isContinuation)
        #expect(frame.plainLines { $0 == Palette.background } == ["主播小明送出火箭 x3     "])
        #expect(canvas.text(column: 14, row: 0)?.text == "箭")
        #expect(canvas.text(column: 15, row: 0) == nil)
    }

    @Test func markDrawnAfterManyCombiningAccentsStaysInItsColumn() {
        // the issue's case: 300 accents on one letter must not drag what follows to column 1
        let accents = "a" + String(repeating: "\u{301}", count: 300) + "b"
        let s = scene(text(accents, x: 0, y: 0), text("X", x: 60, y: 0))
        let frame = drawn(s, columns: 80, rows: 1).makeFrame()
        #expect(frame[1, 0].text == "b")
        #expect(frame[60, 0].text == "X")
        #expect(frame[0, 0].text.unicodeScalars.count == TextWidth.maximumScalarsPerGlyph)
    }

    @Test func anchorsAndAlignmentUseDisplayWidth() {
        // centred on column 5 of 10: "中文" (4 cells) takes columns 3...6
        let centred = drawn(scene(text("中文", x: 5, y: 0, anchor: Vec2(0.5, 0))), columns: 10, rows: 2).makeFrame()
        #expect(cells(centred)[0] == "   中·文·   ")
        // right-aligned lines in a block: "ab" ends where "한국어" ends
        let block = text("한국어\nab", x: 9, y: 0, anchor: Vec2(1, 0))
        #expect(cells(drawn(scene(block), columns: 10, rows: 2).makeFrame()) == ["   한·국·어· ", "       ab "])
        #expect(block.size.width == 6)
    }

    @Test func aWideGlyphCrossingTheRightEdgeOrAClipBecomesASpace() {
        let edge = drawn(scene(text("ab中", x: 0, y: 0, background: Palette.blue)), columns: 3, rows: 1).makeFrame()
        #expect(cells(edge) == ["ab#"])  // "#": not the background
        #expect(edge[2, 0].appearance == CellAppearance.pixels(top: Palette.blue, bottom: Palette.blue))  // a space on the text's background
        let clip = Canvas(columns: 8, rows: 1)
        clip.pushClip(minX: 0, minY: 0, maxX: 5, maxY: 2)
        clip.drawText("ab中文", transform: .identity, color: Palette.white)
        clip.popClip()
        #expect(cells(clip.makeFrame()) == ["ab中·    "])
        let left = Canvas(columns: 8, rows: 1)
        left.pushClip(minX: 1, minY: 0, maxX: 8, maxY: 2)
        left.drawText("中文", transform: .identity, color: Palette.white)
        #expect(cells(left.makeFrame()) == ["  文·    "])
    }

    @Test func anythingOverEitherHalfReplacesTheWholeGlyph() {
        // a shape over the right half hides the glyph; its left half shows its pixels
        let rect = RectNode(width: 1, height: 2, x: 1, y: 0)
        rect.anchor = Vec2(0, 0)
        rect.fill = Palette.red
        let shape = drawn(scene(text("中", x: 0, y: 0), rect), columns: 4, rows: 1).makeFrame()
        #expect(cells(shape) == [" #  "])
        #expect(shape[0, 0].appearance == CellAppearance.pixels(top: Palette.background, bottom: Palette.background))
        // narrow text over the left half: the glyph is gone, its right half shows its pixels
        let over = drawn(scene(text("中文", x: 0, y: 0), text("x", x: 2, y: 0)), columns: 5, rows: 1).makeFrame()
        #expect(cells(over) == ["中·x  "])
        // a wide glyph one cell on, over two wide ones: both go, the cells it leaves blank
        let shifted = drawn(scene(text("中文", x: 0, y: 0), text("字", x: 1, y: 0)), columns: 5, rows: 1).makeFrame()
        #expect(cells(shifted) == [" 字·  "])
        // a faint shape tints the whole glyph through either half
        let veil = RectNode(width: 1, height: 2, x: 1, y: 0)
        veil.anchor = Vec2(0, 0)
        veil.fill = Color(r: 255, g: 0, b: 0, a: 64)
        let tinted = drawn(scene(text("中", x: 0, y: 0), veil), columns: 4, rows: 1).makeFrame()
        #expect(tinted[0, 0].text == "中" && tinted[1, 0].isContinuation)
        #expect(tinted[0, 0].foreground != Palette.white && tinted[1, 0].foreground == tinted[0, 0].foreground)
    }

    @Test func theFrameKeepsWideGlyphsWholeWhenCellsAreSetDirectly() {
        var frame = Frame(columns: 6, rows: 1)
        frame[0, 0] = Cell(character: "中", foreground: .white, background: .black)
        frame[2, 0] = Cell(character: "文", foreground: .white, background: .black)
        #expect(cells(frame) == ["中·文·  "])
        frame[3, 0] = Cell(character: "x", foreground: .white, background: .black)  // over the right half
        #expect(cells(frame) == ["中· x  "])
        frame[5, 0] = Cell(character: "字", foreground: .white, background: .black)  // no room: a space
        frame[1, 0] = Cell(character: "\u{301}", foreground: .white, background: .black)  // a lone mark: a space
        #expect(cells(frame) == ["   x  "])
        frame.write("한국 ok", column: 0, row: 0, foreground: .white, background: .black)
        #expect(cells(frame) == ["한·국· o"])
    }

    @Test func goldenWideTextUnderAShape() {
        // text first, then a red bar over columns 3...4: "文" (columns 2-3) loses its right
        // half and goes whole; "字" (columns 4-5) loses its left half and goes whole
        let bar = RectNode(width: 2, height: 4, x: 3, y: 0)
        bar.anchor = Vec2(0, 0)
        bar.fill = Palette.red
        let s = scene(text("中文字!", x: 0, y: 0), text("e\u{301}👍🏽🇯🇵", x: 0, y: 2), bar)
        #expect(plain(drawn(s, columns: 10, rows: 2)) == """
            中 ██ !   |
            é👍🏽██     |
            """)
    }

    @Test func goldenWideTextOverAShape() {
        // the bar first, then the text on top: every glyph shows, on the bar's colour where it is
        let bar = RectNode(width: 2, height: 4, x: 3, y: 0)
        bar.anchor = Vec2(0, 0)
        bar.fill = Palette.red
        let s = scene(bar, text("中文字!", x: 0, y: 0), text("e\u{301}👍🏽🇯🇵", x: 0, y: 2))
        let canvas = drawn(s, columns: 10, rows: 2)
        #expect(plain(canvas) == """
            中文字!   |
            é👍🏽🇯🇵     |
            """)
        let frame = canvas.makeFrame()
        #expect(frame[2, 0].background == Palette.background)  // "文" on the mean of its own cell's pixels
        #expect(frame[4, 0].background == Palette.red)  // "字" starts on the bar
        #expect(frame[5, 0].background == Palette.red)  // its right half takes its colours
    }

    @Test func labelsDrawTheTerminalsGlyphsForWhatTheFontLacks() {
        let font = BlockFont.small
        #expect(font.render("go", color: .white) == font.render("GO", color: .white))
        // "x3 火箭": x, 3 and the space in the font, then a run of two wide glyphs in a box
        // four pixels wide, one pixel after them
        let before = font.lineWidth("x3 ") + font.spacing
        #expect(font.fallbacks(in: "x3 火箭", outlined: false) == [LabelFallback(text: "火箭", x: Double(before) + 2, y: 2.5)])
        #expect(font.size(of: "x3 火箭").width == before + 4)
        #expect(font.fallbacks(in: "SCORE 12", outlined: true).isEmpty)
        // never a question mark: "@" is not in the font and shows as itself
        let label = LabelNode(text: "A@", font: .small, x: 4, y: 3, color: Palette.white)
        label.anchor = Vec2(0.5, 0.5)
        let frame = drawn(scene(label), columns: 8, rows: 3).makeFrame()
        #expect(frame.plainLines { $0 == Palette.background }.joined().contains("@"))
        #expect(font.fallbacks(in: "A@", outlined: false) == [LabelFallback(text: "@", x: 4.5, y: 2.5)])
        // centred in its box: "火箭" in a label centred on (20, 10) of a 40 x 10 canvas
        let wide = LabelNode(text: "火箭", font: .large, x: 20, y: 10, color: Palette.white)
        let shown = drawn(scene(wide), columns: 40, rows: 10).makeFrame()
        #expect(cells(shown)[5] == String(repeating: " ", count: 18) + "火·箭·" + String(repeating: " ", count: 18))
    }
}
