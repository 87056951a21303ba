import ArcadeCore
import ArcadeTestSupport
import Testing
@testable import ArcadeRender

/// The moves the encoder takes where its full repaint set the terminal up: tab stops every 4
/// columns (horizontal tabs, backspaces after tabs past a cell or a few columns back) and autowrap off
/// (the cursor stays in the last column). Each frame is replayed on the VT model from the
/// first repaint on, and must end exactly on the frame.
@Suite struct TabMoveTests {
    let black = Color(rgb: 0x000000), gold = Color(rgb: 0xFFCC00), blue = Color(rgb: 0x3366CC)

    /// The bytes of `new` after `old`, both replayed on one screen, which must show `new`.
    private func replay(_ old: Frame, _ new: Frame, _ encoder: FrameEncoder = FrameEncoder()) -> (String, VTModel) {
        var screen = VTModel(columns: old.columns, rows: old.rows, fill: .init(scalar: "?", foreground: .white, background: .white))
        screen.feed(encoder.encode(old))
        let bytes = encoder.encode(new)
        screen.feed(bytes)
        #expect(screen.errors.isEmpty, "\(screen.errors)")
        for r in 0..<new.rows {
            for c in 0..<new.columns {
                #expect(screen.appearance(column: c, row: r) == new[c, r].appearance, "(\(c),\(r))")
            }
        }
        return (String(decoding: bytes, as: UTF8.self), screen)
    }

    @Test(arguments: [5, 12, 80, 203])
    func aFullRepaintSetsAStopEvery4ColumnsAndTurnsAutowrapOff(columns: Int) {
        var screen = VTModel(columns: columns, rows: 3, fill: .init(scalar: " ", foreground: .white, background: .black))
        screen.feed(FrameEncoder().encode(Frame(columns: columns, rows: 3, background: blue)))
        #expect(screen.errors.isEmpty)
        #expect(screen.tabStops == Set(stride(from: 4, to: columns, by: 4)))
        #expect(!screen.autowrap)
        // without them, the terminal's own stops and autowrap are left alone
        var plain = VTModel(columns: columns, rows: 3, fill: .init(scalar: " ", foreground: .white, background: .black))
        let encoder = FrameEncoder()
        encoder.usesTabs = false
        encoder.turnsOffAutowrap = false
        plain.feed(encoder.encode(Frame(columns: columns, rows: 3, background: blue)))
        #expect(plain.tabStops == Set(stride(from: 8, to: max(columns, 8), by: 8)))
        #expect(plain.autowrap)
    }

    @Test func cellsFurtherAlongAreReachedByTabs() {
        let old = Frame(columns: 40, rows: 1, background: black)
        var new = old
        // one colour, so one pass: from column 1 to 7 (two tabs, past the stop at 4 to 8, and
        // a backspace), from 8 to 19 (three tabs and a backspace, against `ESC [ 11 C`), to the
        // stop at 24 (a tab), and from 25 to 30 (a tab to 28 and two spaces)
        for c in [0, 7, 19, 24, 30] { new[c, 0] = Cell(top: gold, bottom: black) }
        let (text, _) = replay(old, new)
        #expect(text.contains("\u{2580}\t\t\u{8}\u{2580}\t\t\t\u{8}\u{2580}\t\u{2580}\t  \u{2580}"),
                "\(text.debugDescription)")
        // never the tab sequences some terminals do not know
        #expect(!text.contains("I") && !text.contains("Z"))
    }

    @Test func aCellAFewColumnsBackIsReachedByBackspaces() {
        let old = Frame(columns: 40, rows: 3, background: black)
        var new = old
        // the end of a pass on row 0 at column 21, then column 19 of row 1: a line feed and
        // three backspaces, shorter than `ESC [ 3 D`
        new[20, 0] = Cell(top: gold, bottom: black)
        new[18, 1] = Cell(top: gold, bottom: black)
        let (text, _) = replay(old, new)
        #expect(text.contains("\u{2580}\n\u{8}\u{8}\u{8}\u{2580}"), "\(text.debugDescription)")
    }

    @Test func theLastColumnLeavesTheCursorThereSoTheNextRowIsACarriageReturnAway() {
        let old = Frame(columns: 20, rows: 3, background: black)
        var new = old
        new[19, 0] = Cell(top: gold, bottom: black)
        new[0, 1] = Cell(top: gold, bottom: black)
        let (text, screen) = replay(old, new)
        #expect(text.contains("\u{2580}\r\n\u{2580}"), "\(text.debugDescription)")
        #expect(screen.finalCounts["H", default: 0] <= 2, "one absolute move into the frame at most")
        // with autowrap on, the cursor after the last column is not known: an absolute move
        let encoder = FrameEncoder()
        encoder.turnsOffAutowrap = false
        let (wrapped, _) = replay(old, new, encoder)
        #expect(wrapped.contains("\u{2580}\u{1B}[2H\u{2580}"), "\(wrapped.debugDescription)")
    }

    /// Random chains of frames, busy and sparse, in truecolor and the 256 palette: with tabs
    /// the frames take no more bytes than without, and every one ends on the frame.
    @Test(arguments: [ColorMode.trueColor, .palette256])
    func tabsNeverCostBytesAndEveryFrameEndsOnTheFrame(mode: ColorMode) {
        var factory = FrameFactory(rng: SeededRandom(seed: 41))
        for round in 0..<12 {
            let (cols, rows) = [(80, 24), (37, 9), (160, 12)][round % 3]
            let tabbed = FrameEncoder(colorMode: mode), plain = FrameEncoder(colorMode: mode)
            plain.usesTabs = false
            var screen = VTModel(columns: cols, rows: rows, fill: .init(scalar: "?", foreground: .white, background: .white))
            var frame = factory.frame(columns: cols, rows: rows)
            var withTabs = 0, without = 0
            for step in 0..<6 {
                if step > 0 { frame = factory.mutate(frame, fraction: [0.02, 0.3, 0.8][(round + step) % 3], longestRun: 5) }
                let bytes = tabbed.encode(frame)
                screen.feed(bytes)
                #expect(screen.errors.isEmpty)
                #expect(mismatches(screen, frame, mode: mode).isEmpty, "round \(round) step \(step)")
                if step > 0 {
                    withTabs += bytes.count
                    without += plain.encode(frame).count
                } else {
                    _ = plain.encode(frame)
                }
            }
            #expect(withTabs <= without, "round \(round): \(withTabs) bytes with tabs, \(without) without")
        }
    }
}
