import ArcadeCore
import Testing
@testable import ArcadeRender
import ArcadeTestSupport

/// The frame writer's grouping of colours across the whole frame: a busy frame goes out in
/// passes, one per pair of colours, crossing the cells other pairs still have to write by
/// writing a space over them when that is shorter than moving. Every frame must still leave
/// the terminal showing exactly the frame, in every colour mode and vision filter.
@Suite struct FrameGroupingTests {
    /// Coin-bank frames: thousands of small two-colour coins moving over a flat background
    /// with a line of text, so most rows hold dozens of changed cells in a few colours.
    static func coinFrames(columns: Int, rows: Int, coins: Int, steps: Int, seed: UInt64) -> [Frame] {
        let canvas = Canvas(columns: columns, rows: rows, background: Color(rgb: 0x14182A))
        let scene = Scene(background: Color(rgb: 0x14182A))
        let gold = try! Sprite(palette: ["y": Color(rgb: 0xC8921E), "Y": Color(rgb: 0xFFD23F)], rows: [".yy.", "yYYy", "yYYy", ".yy."])
        let silver = try! Sprite(palette: ["s": Color(rgb: 0x8A8A8A), "S": Color(rgb: 0xDADADA)], rows: [".ss.", "sSSs", "sSSs", ".ss."])
        var rng = SeededRandom(seed: seed)
        var moving: [(SpriteNode, Double, Double)] = []
        for i in 0..<coins {
            let coin = try! scene.add(SpriteNode(sprite: i % 2 == 0 ? gold : silver,
                                                 x: rng.nextDouble(in: 0, Double(columns)), y: rng.nextDouble(in: 0, Double(2 * rows))))
            coin.scaleX = 1 + Double(rng.nextInt(in: 0, 9)) * 0.1
            coin.scaleY = coin.scaleX / 2
            moving.append((coin, rng.nextDouble(in: -1, 1), rng.nextDouble(in: -1.5, -0.2)))
        }
        let label = try! scene.add(TextNode(text: "banked 1234   k: 10000 coins", x: 1, y: 0))
        label.anchor = .zero
        label.z = 4
        var frames: [Frame] = []
        var frame = canvas.makeFrame()
        for step in 0..<steps {
            for (coin, dx, dy) in moving {
                coin.x += dx
                coin.y += dy
            }
            scene.draw(into: canvas, time: Double(step) / 60)
            canvas.render(into: &frame)
            frames.append(frame)
        }
        return frames
    }

    /// Where two terminal models show something different, cell by cell: the colours of each
    /// pixel (however the cell is spelled: `▀` or `▄`), the text of each glyph and the halves
    /// of wide ones.
    static func differences(_ a: VTModel, _ b: VTModel) -> [String] {
        var out: [String] = []
        for r in 0..<a.rows {
            for c in 0..<a.columns {
                let x = a.appearance(column: c, row: r), y = b.appearance(column: c, row: r)
                var same = x == y && a[c, r].width == b[c, r].width
                if case .glyph = x { same = same && a[c, r].text == b[c, r].text }
                if !same { out.append("(\(c),\(r)): '\(a[c, r].text)' \(x) against '\(b[c, r].text)' \(y)") }
            }
        }
        return out
    }

    /// Each frame of a chain written as a change to the one before must leave the terminal
    /// showing what a full repaint of that frame shows (the repaint writes every cell in its
    /// own colours, so it is right by construction), in all four colour modes and under the
    /// vision filters: busy coin frames, random frames and frames of wide glyphs.
    @Test(arguments: [ColorMode.trueColor, .palette256, .palette16, .palette8])
    func changesEndOnWhatAFullRepaintShows(mode: ColorMode) {
        let fill = VTModel.Glyph(scalar: "?", foreground: .white, background: Color(rgb: 0xFF00FF))
        var random = EncoderEquivalenceTests.Cells(seed: 77, colors: 6)
        var chains: [(String, [Frame])] = [("coins", Self.coinFrames(columns: 90, rows: 28, coins: 3000, steps: 6, seed: 3))]
        var frame = random.frame(columns: 60, rows: 16)
        var randomChain = [frame]
        for step in 1..<8 {
            frame = random.mutate(frame, fraction: [0.05, 0.3, 1.0][step % 3], longestRun: 6)
            randomChain.append(frame)
        }
        chains.append(("random", randomChain))
        let canvas = Canvas(columns: 30, rows: 6)
        var wide: [Frame] = []
        for step in 0..<6 {
            canvas.clear()
            let g = Graphics(canvas: canvas)
            g.text(step % 2 == 0 ? "主播 sent 🚀 中文" : "ab主播 sent🚀 x", x: Double(step % 3), y: 0, color: .white)
            g.fillRect(x: Double(step), y: 2, width: 6, height: 4, color: Palette.gold)
            g.text("a中b文c字d", x: 1, y: 8, color: Palette.blue)
            wide.append(canvas.makeFrame())
        }
        chains.append(("wide", wide))
        for filter in [VisionFilter.none, .deuteranopia, .highContrast] {
            for (name, frames) in chains {
                let encoder = FrameEncoder(colorMode: mode)
                encoder.visionFilter = filter
                let cols = frames[0].columns, rows = frames[0].rows
                var screen = VTModel(columns: cols, rows: rows, fill: fill)
                for (i, frame) in frames.enumerated() {
                    screen.feed(encoder.encode(frame))
                    let repaint = FrameEncoder(colorMode: mode)
                    repaint.visionFilter = filter
                    var fresh = VTModel(columns: cols, rows: rows, fill: fill)
                    fresh.feed(repaint.encode(frame))
                    #expect(screen.errors.isEmpty, "\(name) \(filter) frame \(i): \(screen.errors.prefix(3))")
                    let wrong = Self.differences(screen, fresh)
                    #expect(wrong.isEmpty, "\(name) \(mode) \(filter) frame \(i): \(wrong.count) cells, \(wrong.prefix(3))")
                }
            }
        }
    }

    /// A gap of cells that other colours still have to write is crossed with spaces, the
    /// cells are then written in their own colours, and the screen ends on the frame.
    @Test func aGapOfCellsStillToBeWrittenIsCrossedWithSpaces() {
        let black = Color(rgb: 0x000000), red = Color(rgb: 0xE0413A), green = Color(rgb: 0x3FAE4A)
        let blue = Color(rgb: 0x3366CC), white = Color(rgb: 0xFFFFFF)
        let old = Frame(columns: 12, rows: 1, background: black)
        var new = old
        // red over green at 1, 3, 5 and blue over white between them: the red passes cross
        // each blue cell with a space, the blue pass writes them afterwards
        for c in [1, 3, 5] { new[c, 0] = Cell(top: red, bottom: green) }
        for c in [2, 4] { new[c, 0] = Cell(top: blue, bottom: white) }
        let encoder = FrameEncoder()
        encoder.usesTabs = false  // the spaces, not a tab, are what this checks
        _ = encoder.encode(old)
        let bytes = encoder.encode(new)
        var screen = VTModel(columns: 12, rows: 1, fill: .init(scalar: " ", foreground: black, background: black))
        screen.feed(bytes)
        #expect(screen.errors.isEmpty)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\u{2580} \u{2580} \u{2580}"), "\(text.debugDescription)")
        #expect(screen.finalCounts["m"] == 2, "one colour change for each pair")
        for c in 0..<12 {
            #expect(screen.appearance(column: c, row: 0) == new[c, 0].appearance, "column \(c)")
        }
        // and the next frame, where the blue cells stay, does not touch them
        var next = new
        next[3, 0] = Cell(top: white, bottom: white)
        screen.feed(encoder.encode(next))
        for c in 0..<12 {
            #expect(screen.appearance(column: c, row: 0) == next[c, 0].appearance, "column \(c), next frame")
        }
    }

    /// A later pass crosses a cell an earlier pass wrote this frame by reprinting it, when its
    /// colours show it (here a space on the shared background), rather than moving over it.
    @Test func aCellWrittenEarlierInTheFrameIsReprintedByALaterPass() {
        let black = Color(rgb: 0x000000), blue = Color(rgb: 0x203080), red = Color(rgb: 0xE0413A), white = Color(rgb: 0xFFFFFF)
        let old = Frame(columns: 12, rows: 1, background: black)
        var new = old
        // red on blue at 0, 1, 2, 7, 8, 9 goes first (most cells); it also writes the blue
        // space at 4, crossing the white cell at 3 with a space; then white on blue writes 3
        // and 5 and crosses 4, written already, with the space it shows
        for c in [0, 1, 2, 7, 8, 9] { new[c, 0] = Cell(character: "x", foreground: red, background: blue) }
        for c in [3, 5] { new[c, 0] = Cell(character: "y", foreground: white, background: blue) }
        new[4, 0] = Cell(top: blue, bottom: blue)
        let bytes = Self.encodedLikeTheReference(old, new)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("y y"), "\(text.debugDescription)")
        Self.expectScreenShows(bytes, new, over: black)
    }

    /// A pass that would move over a cell still waiting for the pass of its one colour, which
    /// is the pass's foreground, writes it as `█` instead, for good: here the red pass writes
    /// the red cell between its two half blocks, and no pass in red as the background (a
    /// colour change, a move and a space) is left to write it.
    @Test func aWaitingCellOfThePensForegroundIsCrossedAsAFullBlock() {
        let black = Color(rgb: 0x000000), red = Color(rgb: 0xE0413A)
        let old = Frame(columns: 12, rows: 1, background: black)
        var new = old
        for c in [1, 3] { new[c, 0] = Cell(top: red, bottom: black) }
        new[2, 0] = Cell(top: red, bottom: red)
        let bytes = Self.encodedLikeTheReference(old, new)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\u{2580}\u{2588}\u{2580}"), "\(text.debugDescription)")
        #expect(text.components(separatedBy: "m").count == 2, "one colour change: \(text.debugDescription)")
        Self.expectScreenShows(bytes, new, over: black)
    }

    /// The `█` is written only where it replaces a move the other cells of the gap make
    /// longer: with tabs, the red pass reaches column 3 past the red cell at 2 by a space or a
    /// tab and a backspace, so it writes the red cell there; but column 4, a tab stop, is a
    /// tab away, which the space over the blue cell at 3 would already equal, so it tabs there
    /// and leaves the red cell to be written in its own colours.
    @Test(arguments: [(3, true), (4, false)])
    func aFullBlockIsWrittenOnlyWhereTheGapsOtherCellsTakeLessThanTheMove(next: Int, fills: Bool) {
        let green = Color(rgb: 0x3FAE4A), red = Color(rgb: 0xE0413A), blue = Color(rgb: 0x3366CC)
        let old = Frame(columns: 12, rows: 1, background: green)
        var new = old
        for c in [1, next] { new[c, 0] = Cell(top: red, bottom: green) }
        new[2, 0] = Cell(top: red, bottom: red)
        if next == 4 { new[3, 0] = Cell(top: blue, bottom: blue) }
        let encoder = FrameEncoder(), reference = ReferenceFrameEncoder()
        var screen = VTModel(columns: 12, rows: 1, fill: .init(scalar: "?", foreground: .white, background: .white))
        screen.feed(encoder.encode(old))
        _ = reference.encode(old)
        let bytes = encoder.encode(new)
        #expect(bytes == reference.encode(new))
        screen.feed(bytes)
        #expect(screen.errors.isEmpty)
        for c in 0..<12 { #expect(screen.appearance(column: c, row: 0) == new[c, 0].appearance, "column \(c)") }
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\u{2580}\u{2588}\u{2580}") == fills, "\(text.debugDescription)")
        if !fills { #expect(text.contains("\u{2580}\t\u{2580}") && !text.contains("\u{2588}"), "\(text.debugDescription)") }
    }

    /// Busy coin frames have cells crossed as `█` (so the coin chains the encoder is checked
    /// on against the reference take that way too), and still end on the frame.
    @Test func coinFramesCrossSomeCellsAsFullBlocks() {
        let frames = Self.coinFrames(columns: 120, rows: 40, coins: 1500, steps: 12, seed: 5)
        let encoder = FrameEncoder()
        var screen = VTModel(columns: 120, rows: 40, fill: .init(scalar: "?", foreground: .white, background: .white))
        var blocks = 0
        for (i, frame) in frames.enumerated() {
            let bytes = encoder.encode(frame)
            screen.feed(bytes)
            // the first frame is a full repaint, which writes cells as spaces and half blocks
            if i > 0 { blocks += String(decoding: bytes, as: UTF8.self).unicodeScalars.filter { $0 == "\u{2588}" }.count }
        }
        #expect(blocks > 0)
        #expect(screen.errors.isEmpty)
        let last = frames[frames.count - 1]
        for r in 0..<last.rows {
            for c in 0..<last.columns where screen.appearance(column: c, row: r) != last[c, r].appearance {
                Issue.record("(\(c),\(r))")
            }
        }
    }

    /// The encoder's bytes for `new` after `old`, checked to be the reference encoder's;
    /// without tabs, so the moves are the ones a screen that did not see `old` expects.
    static func encodedLikeTheReference(_ old: Frame, _ new: Frame) -> [UInt8] {
        let encoder = FrameEncoder(), reference = ReferenceFrameEncoder()
        encoder.usesTabs = false
        reference.usesTabs = false
        _ = encoder.encode(old)
        _ = reference.encode(old)
        let bytes = encoder.encode(new)
        #expect(bytes == reference.encode(new))
        return bytes
    }

    /// A terminal of one row, blank in `background`, shows `frame` after `bytes`.
    static func expectScreenShows(_ bytes: [UInt8], _ frame: Frame, over background: Color) {
        var screen = VTModel(columns: frame.columns, rows: 1, fill: .init(scalar: " ", foreground: background, background: background))
        screen.feed(bytes)
        #expect(screen.errors.isEmpty)
        for c in 0..<frame.columns {
            #expect(screen.appearance(column: c, row: 0) == frame[c, 0].appearance, "column \(c)")
        }
    }

    /// The next colours are those that show the most waiting cells, even when a change of
    /// one colour would show more cells per byte sent: every pass costs moves, so few passes
    /// that each write much make the shorter frame. Between colours that show about as many,
    /// the shorter change goes first (a cell shown is worth two bytes of the change).
    @Test(arguments: [
        // 12 red cells (a change of the background alone, 17 bytes) and 21 white-on-blue
        // glyphs (both colours, 34 bytes): per byte sent the red cells would win, by cells
        // shown the glyphs do (21 * 2 - 34 > 12 * 2 - 17)
        (12, 21, true),
        // 4 red cells and 5 glyphs: about as many, so the shorter change
        (4, 5, false),
    ])
    func theColoursShowingTheMostCellsGoFirst(reds: Int, glyphs: Int, glyphsFirst: Bool) {
        let black = Color(rgb: 0x000000), red = Color(rgb: 0xE0413A), blue = Color(rgb: 0x203080), white = Color(rgb: 0xFFFFFF)
        let old = Frame(columns: 80, rows: 1, background: black)
        var new = old
        for k in 0..<reds { new[4 * k, 0] = Cell(top: red, bottom: red) }
        // between the red cells, then on odd columns past them
        let glyphColumns = (0..<glyphs).map { k in k < reds ? 4 * k + 2 : 4 * reds + 1 + 2 * (k - reds) }
        for c in glyphColumns { new[c, 0] = Cell(character: "x", foreground: white, background: blue) }
        let bytes = Self.encodedLikeTheReference(old, new)
        let text = String(decoding: bytes, as: UTF8.self)
        let setsForeground = text.range(of: "\u{1B}[38;2;255;255;255")
        let setsRed = text.range(of: "48;2;224;65;58")
        #expect(setsForeground != nil && setsRed != nil)
        if let setsForeground, let setsRed {
            #expect((setsForeground.lowerBound < setsRed.lowerBound) == glyphsFirst,
                    "the \(glyphsFirst ? "glyphs'" : "red cells'") colours are set first: \(text.debugDescription)")
        }
        Self.expectScreenShows(bytes, new, over: black)
    }

    /// Busy frames of the coin scene come out shorter grouped across the frame than written
    /// row by row in reading order, and the colour table counts every pair that shows them.
    @Test(arguments: [ColorMode.trueColor, .palette256])
    func busyFramesAreShorterThanInReadingOrder(mode: ColorMode) {
        let frames = Self.coinFrames(columns: 100, rows: 30, coins: 5000, steps: 6, seed: 9)
        let grouped = FrameEncoder(colorMode: mode), plain = FrameEncoder(colorMode: mode)
        plain.groupsColors = false
        var totals = (0, 0)
        for (i, frame) in frames.enumerated() {
            let a = grouped.encode(frame), b = plain.encode(frame)
            if i > 0 {
                totals.0 += a.count
                totals.1 += b.count
            }
        }
        #expect(totals.0 * 3 < totals.1 * 2, "\(totals.0) bytes grouped against \(totals.1) in reading order")
    }

    /// More pairs of colours than the table holds: it says so (the writer then chooses among
    /// a few waiting cells' colours), and those frames still encode byte for byte as the
    /// reference does and end on the frame.
    @Test func framesWithMoreColourPairsThanTheTableHolds() {
        var table = PenTable(capacity: 300)
        defer { table.deallocate() }
        let scratch = RowScratch(capacity: 300)
        defer { scratch.deallocate() }
        for k in 0..<300 {
            scratch.set(k, row: 0, column: Int32(k), look: TerminalCell(scalar: 0x41, first: UInt32(k), second: UInt32(k + 1)))
        }
        table.add(100, from: scratch) { _ in 20 }
        #expect(!table.overflowed)
        table.reset()
        table.add(300, from: scratch) { _ in 20 }
        #expect(table.overflowed)

        var cells = EncoderEquivalenceTests.Cells(seed: 4242, colors: 3)
        let fast = FrameEncoder(), reference = ReferenceFrameEncoder()
        var screen = VTModel(columns: 60, rows: 10, fill: .init(scalar: "?", foreground: .white, background: .white))
        var frame = cells.frame(columns: 60, rows: 10)
        for step in 0..<6 {
            if step > 0 {
                // a third of the cells in random colours of their own
                frame = cells.mutate(frame, fraction: 0.5, longestRun: 3)
                for k in stride(from: step, to: 600, by: 3) {
                    frame[k % 60, k / 60] = Cell(top: Color(rgb: UInt32(k &* 2_654_435 &+ step) & 0xFFFFFF),
                                                 bottom: Color(rgb: UInt32(k &* 40_503 &+ step * 7) & 0xFFFFFF))
                }
            }
            let a = fast.encode(frame), b = reference.encode(frame)
            #expect(a == b, "step \(step): \(a.count) bytes against \(b.count)")
            screen.feed(a)
            #expect(screen.errors.isEmpty)
            for r in 0..<10 {
                for c in 0..<60 where screen.appearance(column: c, row: r) != frame[c, r].appearance {
                    Issue.record("step \(step) (\(c),\(r))")
                }
            }
        }
    }

    /// The quick bound on the bytes of a frame written in reading order, found from each cell
    /// and the one before it, never exceeds what writing it in reading order takes, from an
    /// unknown terminal or from the colours and place the previous cells left: on coin frames,
    /// random frames and frames of wide glyphs, in every colour mode. (The frame writer skips
    /// writing the frame in order when the bound already reaches the grouped frame's length.)
    @Test(arguments: [ColorMode.trueColor, .palette256, .palette16, .palette8])
    func theQuickInOrderBoundIsALowerBound(mode: ColorMode) {
        var frames = Self.coinFrames(columns: 60, rows: 20, coins: 600, steps: 4, seed: 3)
        var cells = EncoderEquivalenceTests.Cells(seed: 77, colors: 4)
        var random = cells.frame(columns: 50, rows: 8)
        let wideGlyphs: [Unicode.Scalar] = ["中", "文", "한", "😀", "Ａ", "a", "▶"]
        for step in 0..<6 {
            random = cells.mutate(random, fraction: [0.05, 0.3, 0.8][step % 3], longestRun: 6)
            for k in stride(from: step, to: 400, by: 5 + step) {
                random[k % 50, k / 50] = Cell(character: wideGlyphs[(k + step) % wideGlyphs.count],
                                              foreground: cells.color(), background: cells.color())
            }
            frames.append(random)
        }
        var looks = CellLooks(mode: mode)
        let scratch = RowScratch(capacity: 60 * 20)
        defer { scratch.deallocate() }
        var checked = 0, tight = 0
        for k in 1..<frames.count where frames[k].columns == frames[k - 1].columns {
            let old = frames[k - 1], new = frames[k]
            var count = 0
            for r in 0..<new.rows {
                for c in 0..<new.columns where !new[c, r].isContinuation && looks.look(new[c, r]) != looks.look(old[c, r]) {
                    scratch.set(count, row: Int32(r), column: Int32(c), look: looks.look(new[c, r]))
                    count += 1
                }
            }
            // from nowhere known, and from where writing the previous frame in order left it
            let before = TerminalWriter(columns: new.columns, mode: mode, state: TerminalState())
            var settled = before
            var out = ByteBuffer(capacity: 1 << 12)
            defer { out.deallocate() }
            old.cells.withUnsafeBufferPointer { o in
                new.cells.withUnsafeBufferPointer { n in
                    settled.writeInOrder(count: count, scratch: scratch, old: o, new: n, cellLooks: &looks, into: &out)
                    for start in [before, settled] {
                        var writer = start
                        out.removeAll()
                        writer.writeInOrder(count: count, scratch: scratch, old: o, new: n, cellLooks: &looks, into: &out)
                        let bound = start.inOrderQuickBound(count: count, scratch: scratch, limit: .max)
                        #expect(bound <= out.count, "frame \(k) (\(mode)): a bound of \(bound) bytes, \(out.count) written")
                        if bound * 2 > out.count { tight += 1 }
                        checked += 1
                    }
                }
            }
        }
        #expect(checked == 16)
        // and not a trivial one: on most frames it comes to more than half of what is written
        #expect(mode == .palette16 || mode == .palette8 || tight > checked / 2, "\(tight) of \(checked)")
    }

    /// The quick bound's cost of one cell after another is never more than writing that cell
    /// takes from where writing the first left the terminal: every pair of glyphs, cells of one
    /// colour and split pixel cells in three colours, next to each other, a gap apart or on
    /// the next row, from several pens (so the foreground a cell of one colour leaves is
    /// sometimes one the next cell needs).
    @Test func theQuickInOrderBoundCostsEachCellAtMostWhatWritingItTakes() {
        let colors: [UInt32] = [0x102030, 0xC8921E, 0xFFFFFF]
        var looks: [TerminalCell] = []
        for a in colors {
            looks.append(TerminalCell(scalar: 0, first: a, second: a))
            for b in colors {
                looks.append(TerminalCell(scalar: 0x61, first: a, second: b))
                if a != b { looks.append(TerminalCell(scalar: 0, first: a, second: b)) }
            }
        }
        // and a wide glyph, which leaves the cursor two cells on
        looks.append(TerminalCell(scalar: 0x4E2D | TerminalCell.wideFlag, first: colors[0], second: colors[1]))
        let blank = Frame(columns: 12, rows: 2)
        var cellLooks = CellLooks(mode: .trueColor)
        let scratch = RowScratch(capacity: 2)
        defer { scratch.deallocate() }
        var out = ByteBuffer(capacity: 256)
        defer { out.deallocate() }
        var pens: [PenState] = [PenState()]
        for a in colors { for b in colors { pens.append(PenState(foreground: a, background: b)) } }
        var checked = 0
        blank.cells.withUnsafeBufferPointer { cells in
            for first in looks {
                for second in looks {
                    for (row, column) in [(0, 1), (0, 3), (0, 9), (1, 0), (1, 5)] where first.scalar < TerminalCell.wideFlag || column != 1 {
                        scratch.set(0, row: 0, column: 0, look: first)
                        scratch.set(1, row: Int32(row), column: Int32(column), look: second)
                        for pen in pens {
                            var writer = TerminalWriter(columns: 12, mode: .trueColor, state: TerminalState(pen: pen, row: 0, column: 0))
                            out.removeAll()
                            writer.writeInOrder(count: 1, scratch: scratch, old: cells, new: cells, cellLooks: &cellLooks, into: &out)
                            out.removeAll()
                            writer.writeInOrder(count: 1, scratch: scratch.slice(1), old: cells, new: cells, cellLooks: &cellLooks,
                                                into: &out)
                            // the bound counts a byte for the first cell
                            let bound = writer.inOrderQuickBound(count: 2, scratch: scratch, limit: .max) - 1
                            #expect(bound <= out.count, "\(first) then \(second) at (\(column),\(row)) from \(pen)")
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == (19 * 19 * 5 - 19) * 10)
    }
}
