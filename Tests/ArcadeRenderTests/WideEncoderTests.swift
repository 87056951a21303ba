import ArcadeCore
import Testing
@testable import ArcadeRender
import ArcadeTestSupport

/// Where a terminal that measures characters with `wcwidth` (the VT model) shows something
/// else than `frame`, cell by cell: the same glyph text, the same halves of wide glyphs, the
/// same colours.
private func mismatches(_ screen: VTModel, _ frame: Frame) -> [String] {
    var out: [String] = []
    for r in 0..<frame.rows {
        for c in 0..<frame.columns {
            let cell = frame[c, r], shown = screen[c, r]
            let at = "(\(c),\(r))"
            if cell.isContinuation || shown.isContinuation {
                if cell.isContinuation != shown.isContinuation { out.append("\(at): right half \(cell.isContinuation) vs \(shown.isContinuation)") }
                continue
            }
            switch cell.appearance {
            case .pixels:
                if shown.text.unicodeScalars.count != 1 || screen.appearance(column: c, row: r) != cell.appearance {
                    out.append("\(at): want \(cell.appearance), got '\(shown.text)' \(screen.appearance(column: c, row: r))")
                }
            case .glyph(_, let fg, let bg):
                if cell.text != shown.text || fg != shown.foreground || bg != shown.background || cell.isWide != (shown.width == 2) {
                    out.append("\(at): want '\(cell.text)' \(fg) on \(bg), got '\(shown.text)' \(shown.foreground) on \(shown.background)")
                }
            }
        }
    }
    return out
}

/// Random frames of narrow and wide glyphs, glyphs of several code points and pixels.
private struct WideFrames {
    var rng: SeededRandom
    let colors: [Color] = [0x000000, 0xFFFFFF, 0x3366CC, 0xFFCC00].map { Color(rgb: $0) }
    let glyphs: [Unicode.Scalar]

    init(seed: UInt64) {
        rng = SeededRandom(seed: seed)
        let stored = [("e\u{301}", false), ("❤\u{FE0F}", true), ("👨\u{200D}👩\u{200D}👧", true), ("🇯🇵", true),
                      ("👍🏽", true), ("\u{1100}\u{1161}", true)]
            .map { Unicode.Scalar(GlyphStore.shell.number(for: $0.0.unicodeScalars, wide: $0.1)!)! }
        glyphs = ["a", "Z", "中", "文", "한", "😀", "ｶ", "Ａ", "é", "▶"] + stored
    }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.nextInt(in: 0, Int64(items.count - 1)))] }

    mutating func cell() -> Cell {
        rng.nextInt(in: 0, 2) == 0
            ? Cell(top: pick(colors), bottom: pick(colors))
            : Cell(character: pick(glyphs), foreground: pick(colors), background: pick(colors))
    }

    /// `frame` with about `fraction` of its cells set anew (through the frame's own setter,
    /// which keeps wide glyphs whole).
    mutating func mutate(_ frame: Frame, fraction: Double) -> Frame {
        var f = frame
        for r in 0..<f.rows {
            for c in 0..<f.columns where rng.nextUnit() < fraction { f[c, r] = cell() }
        }
        return f
    }
}

/// The encoder against a terminal model that knows character widths.
@Suite struct WideEncoderTests {
    @Test(arguments: [ColorMode.trueColor, .palette256])
    func theScreenMatchesTheFrameCellForCell(mode: ColorMode) {
        var frames = WideFrames(seed: mode == .trueColor ? 11 : 12)
        let sizes = [(2, 1), (3, 2), (9, 3), (24, 6), (80, 24)]
        var checked = 0
        for round in 0..<30 {
            let (cols, rows) = sizes[round % sizes.count]
            let encoder = FrameEncoder(colorMode: mode)
            var screen = VTModel(columns: cols, rows: rows, fill: .init(scalar: "?", foreground: .white, background: .white))
            var frame = frames.mutate(Frame(columns: cols, rows: rows), fraction: 1)
            for step in 0..<8 {
                if step > 0 { frame = frames.mutate(frame, fraction: [0.02, 0.1, 0.5][step % 3]) }
                screen.feed(encoder.encode(frame))
                #expect(screen.errors.isEmpty, "round \(round) step \(step): \(screen.errors.prefix(3))")
                let wrong = mode == .trueColor ? mismatches(screen, frame) : []
                #expect(wrong.isEmpty, "round \(round) step \(step) \(cols)x\(rows): \(wrong.prefix(3))")
                if mode == .palette256 {
                    // colours snap to the palette; the glyphs and their halves must still agree
                    for r in 0..<rows {
                        for c in 0..<cols {
                            #expect(frame[c, r].isContinuation == screen[c, r].isContinuation)
                            if case .glyph = frame[c, r].appearance, !frame[c, r].isContinuation {
                                #expect(frame[c, r].text == screen[c, r].text)
                            }
                        }
                    }
                }
                checked += 1
            }
        }
        #expect(checked == 240)
    }

    /// The three cases the issue names, drawn on a canvas: wide text, a shape over half a
    /// glyph, and a wide glyph that would land in the last column.
    @Test func wideTextAShapeOverHalfAGlyphAndTheLastColumn() {
        let canvas = Canvas(columns: 12, rows: 3)
        let encoder = FrameEncoder()
        var screen = VTModel(columns: 12, rows: 3, fill: .init(scalar: "?", foreground: .white, background: .white))
        var frame = Frame(columns: 0, rows: 0)
        func show(_ draw: (Graphics) -> Void) {
            canvas.clear()
            draw(Graphics(canvas: canvas))
            canvas.render(into: &frame)
            screen.feed(encoder.encode(frame))
            #expect(screen.errors.isEmpty, "\(screen.errors.prefix(3))")
            #expect(mismatches(screen, frame).isEmpty, "\(mismatches(screen, frame).prefix(3))")
        }
        show { g in
            g.text("主播 sent 🚀", x: 0, y: 0, color: .white)
            g.text("a中b文c字d", x: 1, y: 2, color: Palette.gold)
            g.text("é👨\u{200D}👩\u{200D}👧❤\u{FE0F}", x: 0, y: 4, color: .white)
        }
        show { g in
            g.text("主播 sent 🚀", x: 0, y: 0, color: .white)
            g.text("a中b文c字d", x: 1, y: 2, color: Palette.gold)
            g.fillRect(x: 3, y: 2, width: 1, height: 2, color: Palette.red)  // over 中's right half
            g.fillRect(x: 6, y: 2, width: 1, height: 2, color: Palette.blue)  // over 文's left half
            g.text("xxxxxxxxxxx中", x: 0, y: 4, color: .white)  // 中 would start in the last column
        }
        #expect(frame[11, 2].text == " " || frame[11, 2].appearance == CellAppearance.pixels(top: .black, bottom: .black))
        #expect(frame.plainLines { $0 == Color.black }[2].hasSuffix("xxxxxxxxxxx "))
        show { g in
            // wide and narrow trade places
            g.text("ab主播 sent🚀", x: 0, y: 0, color: .white)
            g.text("中a文b字cd", x: 0, y: 2, color: Palette.gold)
        }
        // each wide glyph is written once, from its left cell
        encoder.requestFullRepaint()
        var fresh = VTModel(columns: 12, rows: 3, fill: .init(scalar: "?", foreground: .white, background: .white))
        fresh.feed(encoder.encode(frame))
        #expect(mismatches(fresh, frame).isEmpty)
        let glyphCells = frame.cells.filter { !$0.isContinuation }.count
        #expect(fresh.printedCount <= glyphCells + 4)  // two spaces before each wide glyph of several code points
    }

    @Test func everyLineIsExactlyTheTerminalsWidth() {
        // whatever is drawn, each row's plain text takes `columns` cells: a wide glyph's right
        // half adds nothing, and the glyph is counted twice
        let canvas = Canvas(columns: 20, rows: 2)
        let g = Graphics(canvas: canvas)
        g.text("主播小明送出火箭 x3 and more", x: 3, y: 0, color: .white)
        g.text("e\u{301}\u{302}👍🏽🇯🇵\u{200F}한국어", x: -1, y: 2, color: .white)
        for line in canvas.makeFrame().plainLines(isBlank: { _ in true }) {
            #expect(TextWidth.width(line) == 20, "\(line)")
        }
    }
}
