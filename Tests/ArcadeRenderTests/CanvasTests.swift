import ArcadeCore
import Testing
@testable import ArcadeRender
import ArcadeTestSupport

@Suite struct CanvasTests {
    @Test func textColourBlendsOverThePixelsBeneath() {
        let canvas = Canvas(columns: 4, rows: 1, background: Palette.blue)
        canvas.drawText("A", transform: .identity, color: Palette.white, alpha: 0.4)
        let cell = canvas.makeFrame()[0, 0]
        // 0.4 of white over blue: 102, 102, 255.
        #expect(cell.character == "A")
        #expect(cell.background == Palette.blue)
        #expect(cell.foreground == Color(r: 102, g: 102, b: 255))
    }

    @Test func textWithABackgroundPaintsItsSpaces() {
        let canvas = Canvas(columns: 5, rows: 1, background: Palette.background)
        canvas.drawRect(width: 5, height: 2, transform: .identity, anchor: .zero, fill: Palette.blue)
        canvas.drawText("a b", transform: .identity, color: Palette.white)
        canvas.drawText(" ", transform: .translation(4, 0), color: Palette.white, background: Palette.red)
        let frame = canvas.makeFrame()
        #expect(frame.plainText(background: Palette.background) == "a█b██")
        #expect(frame[1, 0].background == Palette.blue)  // a transparent space
        #expect(frame[4, 0].appearance == .pixels(top: Palette.red, bottom: Palette.red))
    }

    /// The background fills the block's box: the cells beside a short line, an empty line,
    /// centred or not, ASCII or not; nothing outside the box, and a glyph beneath it is covered.
    @Test(arguments: ["ab\n\nwxyz", "ab\n\nwxyé", "é\n\nwxyz"], [0.0, 0.5])
    func textBackgroundFillsTheBlock(text: String, align: Double) {
        let canvas = Canvas(columns: 8, rows: 5, background: Palette.background)
        canvas.drawText("q", transform: .translation(4, 4), color: Palette.white)  // under the empty line
        canvas.drawText(text, transform: .translation(2, 2), anchor: .zero, align: align,
                        color: Palette.white, background: Palette.red)
        let frame = canvas.makeFrame()
        for row in 0..<5 {
            for col in 0..<8 {
                let inside = (1...3).contains(row) && (2...5).contains(col)
                let cell = frame[col, row]
                #expect((cell.background == Palette.red) == inside, "cell \(col), \(row) of \(text)")
            }
        }
        #expect(frame[4, 2].appearance == .pixels(top: Palette.red, bottom: Palette.red))
    }

    @Test func textOutsideTheCanvasIsClipped() {
        let canvas = Canvas(columns: 3, rows: 1)
        canvas.drawText("hello", transform: .translation(-2, 0), color: Palette.white)
        canvas.drawText("zz", transform: .translation(0, 2), color: Palette.white)
        #expect(canvas.makeFrame().plainText(background: .black) == "llo")
    }

    @Test func multiLineTextStacksRows() {
        let canvas = Canvas(columns: 3, rows: 3)
        canvas.drawText("ab\nc", transform: .translation(1, 1), color: Palette.white)
        #expect(canvas.makeFrame().plainText(background: .black) == " ab\n c \n   ")
    }

    @Test func clearingEmptiesBothLayers() {
        let canvas = Canvas(columns: 2, rows: 1, background: Palette.blue)
        canvas.drawText("x", transform: .identity, color: Palette.white)
        canvas.blendPixel(x: 1, y: 1, color: Palette.red)
        canvas.clear()
        #expect(canvas.text(column: 0, row: 0) == nil)
        #expect(canvas.pixel(x: 1, y: 1) == Palette.blue)
    }

    @Test func resizingChangesThePixelGrid() {
        let canvas = Canvas(columns: 2, rows: 1)
        canvas.resize(columns: 5, rows: 3)
        #expect(canvas.width == 5 && canvas.height == 6)
        #expect(canvas.pixel(x: 4, y: 5) == canvas.background)
        #expect(canvas.pixel(x: 5, y: 0) == nil)
        var frame = Frame(columns: 1, rows: 1)
        canvas.render(into: &frame)
        #expect(frame.columns == 5 && frame.rows == 3 && frame.cells.count == 15)
    }

    @Test func shapesPastTheEdgesAreClipped() {
        let canvas = Canvas(columns: 4, rows: 2)
        // Reaches from -50 to 1 on both axes: only pixel (0, 0) is on the canvas.
        canvas.drawRect(width: 51, height: 51, transform: .translation(-50, -50), anchor: .zero, fill: Palette.red)
        // Huge and entirely off to the left, and squashed flat: nothing, and no overflow.
        canvas.drawEllipse(width: 1e9, height: 1e9, transform: .translation(-1e9, 0), fill: Palette.red)
        canvas.drawSprite(letterF, transform: .scale(0, 1))
        #expect(canvas.pixel(x: 0, y: 0) == Palette.red)
        #expect(canvas.pixel(x: 1, y: 0) == Palette.background)
        #expect(canvas.pixel(x: 0, y: 1) == Palette.background)
        #expect(canvas.pixel(x: 3, y: 3) == Palette.background)
    }

    @Test func ansiRenderingShowsTheSameCells() {
        let canvas = Canvas(columns: 6, rows: 2, background: Palette.blue)
        canvas.drawEllipse(width: 4, height: 4, transform: .translation(3, 2), fill: Palette.gold)
        canvas.drawText("hi", transform: .translation(4, 2), color: Palette.white)
        let frame = canvas.makeFrame()
        for mode in [ColorMode.trueColor, .palette256] {
            let lines = frame.ansiText(colorMode: mode).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 2)
            var screen = VTModel(columns: 6, rows: 2, fill: .init(scalar: "?", foreground: .white, background: .white))
            for (row, line) in lines.enumerated() {
                screen.feed(Array("\u{1B}[\(row + 1);1H".utf8) + Array(line.utf8))
            }
            #expect(screen.errors.isEmpty)
            for r in 0..<2 {
                for c in 0..<6 {
                    let snap = { (x: Color) in mode == .trueColor ? x : XtermPalette.color(at: XtermPalette.index(nearestTo: x)) }
                    let want: CellAppearance
                    switch frame[c, r].appearance {
                    case .pixels(let t, let b): want = .pixels(top: snap(t), bottom: snap(b))
                    case .glyph(let s, let f, let b): want = .glyph(s, foreground: snap(f), background: snap(b))
                    }
                    #expect(screen.appearance(column: c, row: r) == want)
                }
            }
        }
    }

    @Test func aSplitCellIsAnUpperHalfBlock() {
        let canvas = Canvas(columns: 1, rows: 1, background: Palette.blue)
        canvas.blendPixel(x: 0, y: 0, color: Palette.red)
        let cell = canvas.makeFrame()[0, 0]
        #expect(cell == Cell(character: "\u{2580}", foreground: Palette.red, background: Palette.blue))
        #expect(Cell(character: "\u{2584}", foreground: Palette.blue, background: Palette.red).appearance == cell.appearance)
    }
}

@Suite struct CanvasRobustnessTests {
    @Test func absurdPositionsDrawNothingAndDoNotTrap() {
        let canvas = Canvas(columns: 4, rows: 2)
        for x in [1e300, -1e300, Double.infinity, -Double.infinity, Double.nan] {
            canvas.drawRect(width: 3, height: 3, transform: .translation(x, x), fill: Palette.red)
            canvas.drawRect(width: 3, height: 3, transform: .translation(x, 1), fill: Palette.red)
            canvas.drawRect(width: 3, height: 3, transform: AffineTransform.translation(x, 1).rotatedBy(0.3), fill: Palette.red)
            canvas.drawSprite(letterF, transform: .translation(x, 1))
            canvas.drawSprite(letterF, transform: .translation(1, x))
            canvas.drawEllipse(width: 1e300, height: 2, transform: .translation(x, 1), fill: Palette.red)
            canvas.strokePolyline([Vec2(0, 0), Vec2(x, 1)], transform: .identity, lineWidth: 1, color: Palette.red)
            canvas.drawText("abc", transform: .translation(x, 0), color: Palette.white)
        }
        let node = SpriteNode(sprite: letterF)
        node.x = .nan
        node.scaleY = .infinity
        _ = drawn(scene(node), columns: 4, rows: 2)
        // The lines towards (±1e300, 1) run along the top row from the origin; every other
        // shape is far away or not finite, so the bottom rows stay empty.
        for x in 0..<4 {
            #expect(canvas.pixel(x: x, y: 2) == Palette.background)
            #expect(canvas.pixel(x: x, y: 3) == Palette.background)
        }
    }

    @Test func everyCellShowsItsTwoPixelsAtEveryWidth() {
        // The composer takes four cells at a time with a tail for the rest: widths 1 to 13
        // cover every tail, on pixels drawn from three colours so equal pairs are common.
        let colors = [Palette.red, Palette.blue, Color(r: 1, g: 2, b: 3)]
        var rng = SeededRandom(seed: 11)
        for columns in 1...13 {
            let canvas = Canvas(columns: columns, rows: 3)
            for y in 0..<canvas.height {
                for x in 0..<columns { canvas.blendPixel(x: x, y: y, color: colors[Int(rng.nextInt(in: 0, 2))]) }
            }
            var frame = Frame(columns: 1, rows: 1)
            canvas.render(into: &frame)
            for row in 0..<3 {
                for column in 0..<columns {
                    let expected = Cell(top: canvas.pixel(x: column, y: 2 * row)!, bottom: canvas.pixel(x: column, y: 2 * row + 1)!)
                    #expect(frame[column, row] == expected, "cell \(column), \(row) of \(columns) columns")
                }
            }
        }
    }

    @Test func clearingRemovesEveryGlyphAndWhatCoveredIt() {
        let canvas = Canvas(columns: 12, rows: 4)
        canvas.drawText("ab", transform: .translation(2, 0), color: Palette.white)
        canvas.drawText("\u{6F22}x", transform: .translation(5, 4), color: Palette.white, background: Palette.red)
        canvas.drawText("z", transform: .translation(11, 6), color: Palette.white)
        // A translucent shape over some of them leaves what it covered in their cells.
        canvas.drawRect(width: 12, height: 8, transform: .identity, anchor: .zero, fill: Color(r: 0, g: 0, b: 255, a: 40))
        #expect(canvas.hasText)
        canvas.clear(to: Palette.blue)
        #expect(!canvas.hasText)
        #expect(canvas.textCells.allSatisfy { $0 == TextCell.empty })
        #expect(canvas.glyphSpans.allSatisfy { $0.lo == GlyphSpan.none.lo && $0.hi == GlyphSpan.none.hi })
        var frame = Frame(columns: 1, rows: 1)
        canvas.render(into: &frame)
        for row in 0..<4 {
            for column in 0..<12 { #expect(frame[column, row] == Cell(top: Palette.blue, bottom: Palette.blue)) }
        }
    }

    @Test func clearingFillsEveryPixelAtEverySize() {
        for columns in [1, 3, 4, 7, 8, 9, 17] {
            let canvas = Canvas(columns: columns, rows: 2)
            canvas.drawRect(width: Double(columns), height: 4, transform: .identity, anchor: .zero, fill: Palette.red)
            canvas.clear(to: Palette.blue)
            for y in 0..<4 {
                for x in 0..<columns { #expect(canvas.pixel(x: x, y: y) == Palette.blue) }
            }
        }
    }
}
