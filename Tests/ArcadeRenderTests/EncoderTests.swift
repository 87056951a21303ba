import ArcadeCore
import Testing
@testable import ArcadeRender
import ArcadeTestSupport

/// Random frames whose cells repeat colours often enough to exercise every spelling choice
/// (space vs full block, upper vs lower half) and the colour-reuse paths.
struct FrameFactory: RandomCells {
    var rng: SeededRandom
    let colors: [Color] = [0x000000, 0xFFFFFF, 0x3366CC, 0xFFCC00, 0x9E664A, 0x00A86B, 0x123456]
        .map { Color(rgb: $0) }
    let glyphs: [Unicode.Scalar] = ["A", "x", "1", "+", "é", "€", "#", "\u{1D400}"]

    mutating func color() -> Color {
        // Mostly the shared colours, sometimes an arbitrary one (distinct in 256 mode too).
        if rng.nextInt(in: 0, 9) == 0 {
            return Color(r: UInt8(rng.nextInt(in: 0, 255)), g: UInt8(rng.nextInt(in: 0, 255)), b: UInt8(rng.nextInt(in: 0, 255)))
        }
        return colors[Int(rng.nextInt(in: 0, Int64(colors.count - 1)))]
    }

    mutating func cell() -> Cell {
        switch rng.nextInt(in: 0, 9) {
        case 0:
            return Cell(character: glyphs[Int(rng.nextInt(in: 0, Int64(glyphs.count - 1)))], foreground: color(), background: color())
        case 1:
            // Spellings the compositor never produces, but a frame may hold.
            let spellings: [Unicode.Scalar] = [Cell.lowerHalf, Cell.fullBlock]
            return Cell(character: spellings[Int(rng.nextInt(in: 0, 1))], foreground: color(), background: color())
        default:
            return Cell(top: color(), bottom: color())
        }
    }
}

/// What `frame` should look like on a terminal in `mode` (colours snapped to the palette).
private func expectedAppearance(_ frame: Frame, column: Int, row: Int, mode: ColorMode) -> CellAppearance {
    func snap(_ c: Color) -> Color {
        mode == .trueColor ? c : XtermPalette.color(at: XtermPalette.index(nearestTo: c))
    }
    switch frame[column, row].appearance {
    case .pixels(let top, let bottom): return .pixels(top: snap(top), bottom: snap(bottom))
    case .glyph(let s, let fg, let bg): return .glyph(s, foreground: snap(fg), background: snap(bg))
    }
}

func mismatches(_ screen: VTModel, _ frame: Frame, mode: ColorMode) -> [String] {
    var out: [String] = []
    for r in 0..<frame.rows {
        for c in 0..<frame.columns {
            let want = expectedAppearance(frame, column: c, row: r, mode: mode)
            let got = screen.appearance(column: c, row: r)
            if want != got { out.append("(\(c),\(r)): want \(want), got \(got)") }
        }
    }
    return out
}

@Suite struct EncoderTests {
    @Test(arguments: [ColorMode.trueColor, .palette256])
    func encodedBytesTurnTheOldScreenIntoTheNewOne(mode: ColorMode) {
        var factory = FrameFactory(rng: SeededRandom(seed: mode == .trueColor ? 1 : 2))
        let sizes = [(1, 1), (2, 1), (1, 3), (7, 3), (17, 5), (80, 24)]
        let fractions = [0.0, 0.02, 0.1, 0.3, 1.0]
        var checkedFrames = 0
        for round in 0..<60 {
            let (cols, rows) = sizes[round % sizes.count]
            let encoder = FrameEncoder(colorMode: mode)
            var screen = VTModel(columns: cols, rows: rows,
                                 fill: .init(scalar: "?", foreground: .white, background: Color(rgb: 0xFF00FF)))
            var frame = factory.frame(columns: cols, rows: rows)
            var bytes: [UInt8] = []
            // A first frame onto a screen of garbage, then a chain of edits: the encoder's idea
            // of cursor and colours must stay right from one frame to the next.
            for step in 0..<6 {
                if step > 0 { frame = factory.mutate(frame, fraction: fractions[(round + step) % fractions.count], longestRun: 4) }
                bytes.removeAll(keepingCapacity: true)
                encoder.encode(frame, into: &bytes)
                screen.feed(bytes)
                #expect(screen.errors.isEmpty, "round \(round) step \(step): \(screen.errors.prefix(3))")
                let wrong = mismatches(screen, frame, mode: mode)
                #expect(wrong.isEmpty, "round \(round) step \(step) \(cols)x\(rows): \(wrong.prefix(3))")
                checkedFrames += 1
            }
        }
        #expect(checkedFrames == 360)
    }

    /// Each row goes out grouped by colour or left to right, whichever is shorter: a chain of
    /// busy frames (a dense coin field moving every frame) never takes more bytes than an
    /// encoder writing every row left to right, and both leave the terminal showing exactly
    /// the frame.
    @Test(arguments: [ColorMode.trueColor, .palette256])
    func busyFramesTakeNoMoreThanLeftToRightAndEndOnTheFrame(mode: ColorMode) {
        let cols = 100, rows = 30
        let canvas = Canvas(columns: cols, rows: rows, background: Color(rgb: 0x14182A))
        let scene = Scene(background: Color(rgb: 0x14182A))
        let gold = try! Sprite(palette: ["y": Color(rgb: 0xC8921E), "Y": Color(rgb: 0xFFD23F)], rows: [".yy.", "yYYy", "yYYy", ".yy."])
        let silver = try! Sprite(palette: ["s": Color(rgb: 0x8A8A8A), "S": Color(rgb: 0xDADADA)], rows: [".ss.", "sSSs", "sSSs", ".ss."])
        var rng = SeededRandom(seed: 21)
        var coins: [(SpriteNode, Double)] = []
        for i in 0..<6000 {
            let coin = try! scene.add(SpriteNode(sprite: i % 2 == 0 ? gold : silver,
                                                 x: rng.nextDouble(in: 0, Double(cols)), y: rng.nextDouble(in: 0, Double(2 * rows))))
            coin.scaleX = 1 + Double(rng.nextInt(in: 0, 9)) * 0.1
            coin.scaleY = coin.scaleX / 2
            coins.append((coin, rng.nextDouble(in: -1.5, -0.2)))
        }
        let chosen = FrameEncoder(colorMode: mode), plain = FrameEncoder(colorMode: mode)
        plain.groupsColors = false
        let fill = VTModel.Glyph(scalar: "?", foreground: .white, background: Color(rgb: 0xFF00FF))
        var screens = (VTModel(columns: cols, rows: rows, fill: fill), VTModel(columns: cols, rows: rows, fill: fill))
        var frame = canvas.makeFrame()
        var totals = (0, 0)
        var bytes: [UInt8] = []
        for step in 0..<8 {
            for (coin, dy) in coins { coin.y += dy }
            scene.draw(into: canvas, time: Double(step) / 60)
            canvas.render(into: &frame)
            bytes.removeAll(keepingCapacity: true)
            chosen.encode(frame, into: &bytes)
            screens.0.feed(bytes)
            if step > 0 { totals.0 += bytes.count }
            bytes.removeAll(keepingCapacity: true)
            plain.encode(frame, into: &bytes)
            screens.1.feed(bytes)
            if step > 0 { totals.1 += bytes.count }
            #expect(screens.0.errors.isEmpty && screens.1.errors.isEmpty)
            #expect(mismatches(screens.0, frame, mode: mode).isEmpty, "step \(step)")
            #expect(mismatches(screens.1, frame, mode: mode).isEmpty, "step \(step), left to right")
        }
        #expect(totals.0 <= totals.1, "\(totals.0) bytes against \(totals.1) written left to right")
    }

    /// Random chains written left to right only (the comparison encoder) also end on the frame.
    @Test func leftToRightEncodingTurnsTheOldScreenIntoTheNewOne() {
        var factory = FrameFactory(rng: SeededRandom(seed: 9))
        for round in 0..<12 {
            let (cols, rows) = [(7, 3), (17, 5), (80, 24)][round % 3]
            let encoder = FrameEncoder()
            encoder.groupsColors = false
            var screen = VTModel(columns: cols, rows: rows,
                                 fill: .init(scalar: "?", foreground: .white, background: Color(rgb: 0xFF00FF)))
            var frame = factory.frame(columns: cols, rows: rows)
            for step in 0..<5 {
                if step > 0 { frame = factory.mutate(frame, fraction: [0.02, 0.3, 1.0][(round + step) % 3], longestRun: 4) }
                screen.feed(encoder.encode(frame))
                #expect(screen.errors.isEmpty)
                #expect(mismatches(screen, frame, mode: .trueColor).isEmpty, "round \(round) step \(step)")
            }
        }
    }

    /// A cell a row or two below the cursor is reached by line feeds (a byte a row; the
    /// terminal's output is not post-processed, so the column stays) and a short step.
    @Test func aCellJustBelowIsReachedByLineFeeds() {
        let black = Color(rgb: 0x000000), white = Color(rgb: 0xFFFFFF)
        let old = Frame(columns: 12, rows: 4, background: black)
        var new = old
        new[4, 0] = Cell(character: "a", foreground: white, background: black)
        new[4, 1] = Cell(character: "b", foreground: white, background: black)
        new[6, 3] = Cell(character: "c", foreground: white, background: black)
        let encoder = FrameEncoder()
        encoder.usesTabs = false  // with tabs, `CR LF HT` is shorter still (see the tab tests)
        let repaint = encoder.encode(old)
        let bytes = encoder.encode(new)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("a\n\u{1B}[Db\n\n\u{1B}[Cc"), "\(text.debugDescription)")
        var screen = VTModel(columns: 12, rows: 4, fill: .init(scalar: "?", foreground: .white, background: Color(rgb: 0xFF00FF)))
        screen.feed(repaint)
        screen.feed(bytes)
        #expect(screen.errors.isEmpty)
        for r in 0..<4 {
            for c in 0..<12 { #expect(screen.appearance(column: c, row: r) == new[c, r].appearance, "(\(c),\(r))") }
        }
    }

    @Test func anUnchangedFrameWritesNothing() {
        var factory = FrameFactory(rng: SeededRandom(seed: 3))
        let frame = factory.frame(columns: 20, rows: 6)
        let encoder = FrameEncoder()
        #expect(!encoder.encode(frame).isEmpty)
        #expect(encoder.encode(frame).isEmpty)
    }

    @Test func framesAreWrappedInSynchronizedOutput() {
        var factory = FrameFactory(rng: SeededRandom(seed: 4))
        let encoder = FrameEncoder()
        let bytes = encoder.encode(factory.frame(columns: 5, rows: 2))
        var screen = VTModel(columns: 5, rows: 2, fill: .init(scalar: " ", foreground: .white, background: .black))
        screen.feed(bytes)
        // (a full repaint also turns autowrap off)
        #expect(screen.privateModes == ["?2026h", "?7l", "?2026l"])
        #expect(Array(bytes.prefix(8)) == Array("\u{1B}[?2026h".utf8))
        #expect(Array(bytes.suffix(8)) == Array("\u{1B}[?2026l".utf8))
    }

    @Test func adjacentChangesNeedNoCursorMoveAndSharedColoursAreSentOnce() {
        let bg = Color(rgb: 0x102030)
        let red = Color(rgb: 0xFF0000)
        let old = Frame(columns: 10, rows: 3, background: bg)
        var new = old
        for c in 2..<6 { new[c, 1] = Cell(top: red, bottom: red) }
        let encoder = FrameEncoder()
        _ = encoder.encode(old)
        let bytes = encoder.encode(new)
        var screen = VTModel(columns: 10, rows: 3, fill: .init(scalar: " ", foreground: bg, background: bg))
        screen.feed(bytes)
        // One move to the first changed cell, one colour change, then four characters.
        #expect(screen.finalCounts["H", default: 0] + screen.finalCounts["B", default: 0] + screen.finalCounts["C", default: 0] <= 2)
        #expect(screen.finalCounts["m"] == 1)
        #expect(screen.printedCount == 4)
        #expect(mismatches(screen, new, mode: .trueColor).isEmpty)
    }

    @Test func smallGapsAreReprintedWhenThatIsCheaperThanMoving() {
        let bg = Color(rgb: 0x000000)
        let gold = Color(rgb: 0xFFCC00)
        let old = Frame(columns: 12, rows: 1, background: bg)
        var new = old
        new[3, 0] = Cell(top: gold, bottom: bg)
        new[5, 0] = Cell(top: gold, bottom: bg)
        let encoder = FrameEncoder()
        encoder.usesTabs = false  // the reprint, not a tab, is what this checks
        var screen = VTModel(columns: 12, rows: 1, fill: .init(scalar: " ", foreground: bg, background: bg))
        screen.feed(encoder.encode(old))
        let printedBefore = screen.printedCount
        screen.finalCounts = [:]
        let bytes = encoder.encode(new)
        screen.feed(bytes)
        // The blank at column 4 shows in the pen's background: one space beats ESC [ C.
        #expect(screen.printedCount - printedBefore == 3)
        #expect(screen.finalCounts["C"] == nil)
        #expect(mismatches(screen, new, mode: .trueColor).isEmpty)
    }

    /// Issue 15, item 13: a cell of one colour is a space on that background, whatever the
    /// pen holds, so text copied off the screen reads `game q quit`, not `game█q█quit`.
    @Test(arguments: [ColorMode.trueColor, .palette256])
    func uniformCellsAreSpacesOnTheirBackgroundSoCopiedTextHasSpaces(mode: ColorMode) {
        let flat = Color(rgb: 0x1B1B2F)
        let bar = Color(rgb: 0xC0392B)
        let canvas = Canvas(columns: 14, rows: 2, background: flat)
        // A bar under the first row's top pixels: that row's cells are `▀` in the background
        // colour over the bar, so the label's row starts with the background colour in the
        // pen's foreground (where a full block would show it without a colour change).
        canvas.drawRect(width: 14, height: 1, transform: .translation(0, 1), anchor: .zero, fill: bar)
        canvas.drawText("game q quit", transform: .translation(1, 2), color: .white)
        let frame = canvas.makeFrame()
        let encoder = FrameEncoder(colorMode: mode)
        var screen = VTModel(columns: 14, rows: 2, fill: .init(scalar: " ", foreground: .black, background: .black))
        // Both a frame changing every cell and a full repaint.
        screen.feed(encoder.encode(Frame(columns: 14, rows: 2, background: .black)))
        for repaint in [false, true] {
            if repaint { encoder.requestFullRepaint() }
            let bytes = encoder.encode(frame)
            screen.feed(bytes)
            #expect(screen.errors.isEmpty)
            #expect(!String(decoding: bytes, as: UTF8.self).unicodeScalars.contains("\u{2588}"))
            let text = String(String.UnicodeScalarView((0..<14).map { screen[$0, 1].scalar }))
            #expect(text == " game q quit  ", "repaint \(repaint)")
            let snapped = mode == .trueColor ? flat : XtermPalette.color(at: XtermPalette.index(nearestTo: flat))
            for c in [0, 5, 7, 12, 13] {
                #expect(screen[c, 1].background == snapped, "column \(c)")
            }
            #expect(mismatches(screen, frame, mode: mode).isEmpty)
        }
        // The plain dump with colours spells it the same way.
        let dumped = frame.ansiText(colorMode: mode).split(separator: "\n")[1]
        #expect(!dumped.unicodeScalars.contains("\u{2588}"))
    }

    @Test func aSpaceIsChosenEvenWhenThePenForegroundHasTheColour() {
        let key = TerminalCell.rgbKey(Color(rgb: 0x336699))
        let uniform = TerminalCell(scalar: 0, first: key, second: key)
        let pen = PenState(foreground: key, background: TerminalCell.rgbKey(.black))
        let spelled = uniform.spelling(for: pen)
        #expect(spelled.scalar == 0x20)
        #expect(spelled.background == key)
        #expect(spelled.foreground == nil)
        #expect(uniform.scalarWithoutColorChange(pen) == nil)
        #expect(uniform.scalarWithoutColorChange(PenState(foreground: 1, background: key)) == 0x20)
    }

    @Test func aResizeRepaintsEverything() {
        var factory = FrameFactory(rng: SeededRandom(seed: 5))
        let encoder = FrameEncoder()
        _ = encoder.encode(factory.frame(columns: 6, rows: 2))
        let big = factory.frame(columns: 9, rows: 4)
        var screen = VTModel(columns: 9, rows: 4, fill: .init(scalar: "?", foreground: .white, background: .white))
        screen.feed(encoder.encode(big))
        #expect(screen.printedCount == 36)
        #expect(mismatches(screen, big, mode: .trueColor).isEmpty)
    }

    @Test func aRequestedFullRepaintRewritesEveryCell() {
        var factory = FrameFactory(rng: SeededRandom(seed: 6))
        let encoder = FrameEncoder()
        let frame = factory.frame(columns: 8, rows: 3)
        _ = encoder.encode(frame)
        encoder.requestFullRepaint()
        var screen = VTModel(columns: 8, rows: 3, fill: .init(scalar: "?", foreground: .white, background: .white))
        screen.feed(encoder.encode(frame))
        #expect(screen.printedCount == 24)
        #expect(mismatches(screen, frame, mode: .trueColor).isEmpty)
    }

    @Test func palette256WritesPaletteIndices() {
        var frame = Frame(columns: 2, rows: 1)
        frame[0, 0] = Cell(top: Color(rgb: 0xFF0000), bottom: Color(rgb: 0x0000FF))
        let bytes = FrameEncoder(colorMode: .palette256).encode(frame)
        let text = String(decoding: bytes, as: UTF8.self)
        // Pure red is cube entry 16 + 36*5 = 196, pure blue 16 + 5 = 21.
        #expect(text.contains("38;5;196") || text.contains("48;5;196"))
        #expect(text.contains("38;5;21") || text.contains("48;5;21"))
        #expect(!text.contains(";2;"))
    }

    @Test func steadyStateEncodingReusesTheOutputBuffer() {
        var factory = FrameFactory(rng: SeededRandom(seed: 7))
        let encoder = FrameEncoder()
        var a = factory.frame(columns: 40, rows: 10)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        let capacity = bytes.capacity
        for _ in 0..<10 {
            a = factory.mutate(a, fraction: 0.1, longestRun: 4)
            bytes.removeAll(keepingCapacity: true)
            encoder.encode(a, into: &bytes)
        }
        #expect(bytes.capacity == capacity)
    }
    /// Every colour parameter spelled as plain decimal text: each channel value and palette
    /// index, as a foreground and as a background, in every mode, and the same again after
    /// bytes already in the buffer (the parameters are stored as whole words).
    @Test func colourParametersAreSpelledInPlainDecimal() {
        func spelled(_ key: UInt32, _ selector: Int, _ mode: ColorMode, after lead: Int) -> String {
            var out = ByteBuffer(capacity: 64)
            defer { out.deallocate() }
            out.reserve(lead + 32)
            for _ in 0..<lead { out.append(0x2E) }
            Escape.appendColor(key, selector: selector, mode: mode, to: &out)
            return String(decoding: UnsafeBufferPointer(rebasing: out.bytes[lead...]), as: UTF8.self)
        }
        var wrong: [String] = []
        for selector in [38, 48] {
            for v in UInt32(0)...255 {
                let lead = Int(v % 7)
                // each channel in turn, the others at other values
                let keys: [(UInt32, String)] = [
                    (v << 16 | (255 - v) << 8 | (v * 7 & 0xFF), "\(v);\(255 - v);\(v * 7 & 0xFF)"),
                    ((v * 13 & 0xFF) << 16 | v << 8 | (v / 3), "\(v * 13 & 0xFF);\(v);\(v / 3)"),
                    ((v / 2) << 16 | (v * 3 & 0xFF) << 8 | v, "\(v / 2);\(v * 3 & 0xFF);\(v)"),
                ]
                for (key, text) in keys {
                    let got = spelled(key, selector, .trueColor, after: lead)
                    if got != "\(selector);2;\(text)" { wrong.append(got) }
                }
                let index = spelled(v, selector, .palette256, after: lead)
                if index != "\(selector);5;\(v)" { wrong.append(index) }
                if v < 16 {
                    let base = selector == 38 ? (v >= 8 ? 90 : 30) : (v >= 8 ? 100 : 40)
                    for mode in [ColorMode.palette16, .palette8] where spelled(v, selector, mode, after: lead) != "\(base + Int(v & 7))" {
                        wrong.append(spelled(v, selector, mode, after: lead))
                    }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    }
}

