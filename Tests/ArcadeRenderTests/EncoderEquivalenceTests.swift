import ArcadeCore
import Testing
import ArcadeTestSupport
@testable import ArcadeRender

/// The frame encoder against ``ReferenceFrameEncoder``, the straightforward version of the same
/// choices: every frame of every chain must produce exactly the same bytes, so rewriting the
/// encoder for speed changes nothing a terminal receives.
@Suite struct EncoderEquivalenceTests {
    /// Colours drawn mostly from a small set, so cells share colours the way real frames do
    /// and every grouping choice (and every tie) gets exercised.
    struct Cells: RandomCells {
        var rng: SeededRandom
        var palette: [Color]

        init(seed: UInt64, colors: Int) {
            rng = SeededRandom(seed: seed)
            var p: [Color] = []
            for _ in 0..<colors {
                p.append(Color(r: UInt8(rng.nextInt(in: 0, 255)), g: UInt8(rng.nextInt(in: 0, 255)), b: UInt8(rng.nextInt(in: 0, 255))))
            }
            palette = p
        }

        mutating func color() -> Color {
            if rng.nextInt(in: 0, 19) == 0 {
                return Color(r: UInt8(rng.nextInt(in: 0, 255)), g: UInt8(rng.nextInt(in: 0, 255)), b: UInt8(rng.nextInt(in: 0, 255)))
            }
            return palette[Int(rng.nextInt(in: 0, Int64(palette.count - 1)))]
        }

        mutating func cell() -> Cell {
            switch rng.nextInt(in: 0, 11) {
            case 0:
                let glyphs: [Unicode.Scalar] = ["a", "Z", "0", " ", "é", "€", "\u{1D400}"]
                return Cell(character: glyphs[Int(rng.nextInt(in: 0, Int64(glyphs.count - 1)))], foreground: color(), background: color())
            case 1:
                let spellings: [Unicode.Scalar] = [Cell.lowerHalf, Cell.fullBlock, Cell.upperHalf, " "]
                return Cell(character: spellings[Int(rng.nextInt(in: 0, 3))], foreground: color(), background: color())
            case 2, 3, 4:
                let c = color()
                return Cell(top: c, bottom: c)
            default:
                return Cell(top: color(), bottom: color())
            }
        }
    }

    /// The encoders' settings of the moves they may take.
    enum Moves: CaseIterable, Sendable {
        /// Tabs and autowrap off: the defaults.
        case all
        /// Neither tabs nor autowrap off.
        case plain
        /// Tabs with autowrap on; autowrap off without tabs.
        case tabsOnly, noWrapOnly
    }

    private func expectSameBytes(_ frames: [Frame], mode: ColorMode, moves: Moves = .all, repaintEvery: Int = 0, _ what: String) {
        let fast = FrameEncoder(colorMode: mode)
        let reference = ReferenceFrameEncoder(colorMode: mode)
        let tabs = moves == .all || moves == .tabsOnly, noWrap = moves == .all || moves == .noWrapOnly
        fast.usesTabs = tabs
        reference.usesTabs = tabs
        fast.turnsOffAutowrap = noWrap
        reference.turnsOffAutowrap = noWrap
        var a: [UInt8] = []
        var b: [UInt8] = []
        for (i, frame) in frames.enumerated() {
            if repaintEvery > 0 && i > 0 && i % repaintEvery == 0 {
                fast.requestFullRepaint()
                reference.requestFullRepaint()
            }
            a.removeAll(keepingCapacity: true)
            b.removeAll(keepingCapacity: true)
            fast.encode(frame, into: &a)
            reference.encode(frame, into: &b)
            if a != b {
                let first = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
                Issue.record("\(what), frame \(i): \(a.count) bytes against \(b.count), first difference at byte \(first)")
                return
            }
        }
    }

    @Test(arguments: [ColorMode.trueColor, .palette256], Moves.allCases)
    func randomFrameChainsEncodeToTheSameBytes(mode: ColorMode, moves: Moves) {
        let sizes = [(1, 1), (3, 1), (1, 4), (9, 3), (40, 6), (80, 24), (200, 12)]
        let fractions = [0.0, 0.01, 0.05, 0.2, 0.5, 1.0]
        for round in 0..<48 {
            var cells = Cells(seed: UInt64(round) &* 7919 &+ (mode == .trueColor ? 1 : 2), colors: 2 + round % 9)
            let (cols, rows) = sizes[round % sizes.count]
            var frame = cells.frame(columns: cols, rows: rows)
            var frames = [frame]
            for step in 1..<10 {
                frame = cells.mutate(frame, fraction: fractions[(round + step) % fractions.count], longestRun: 6)
                frames.append(frame)
            }
            expectSameBytes(frames, mode: mode, moves: moves, repaintEvery: round % 3 == 0 ? 4 : 0,
                            "round \(round) \(cols)x\(rows)")
        }
    }

    @Test func aResizeInTheMiddleEncodesTheSame() {
        var cells = Cells(seed: 99, colors: 5)
        var frames: [Frame] = []
        for (cols, rows) in [(20, 5), (20, 5), (31, 7), (31, 7), (8, 2), (8, 2)] {
            let base = frames.last.flatMap { $0.columns == cols && $0.rows == rows ? $0 : nil } ?? cells.frame(columns: cols, rows: rows)
            frames.append(cells.mutate(base, fraction: 0.3, longestRun: 6))
        }
        expectSameBytes(frames, mode: .trueColor, "resizes")
    }

    /// Frames of the coin bank's kind: thousands of small coins over a flat background with a
    /// line of text, moving every frame, so most rows have dozens of changed cells in a few
    /// colours (the case the row writer's colour grouping is for).
    @Test(arguments: [ColorMode.trueColor, .palette256], [Moves.all, .plain])
    func coinSceneFramesEncodeToTheSameBytes(mode: ColorMode, moves: Moves) {
        let frames = FrameGroupingTests.coinFrames(columns: 120, rows: 40, coins: 1500, steps: 12, seed: 5)
        expectSameBytes(frames, mode: mode, moves: moves, "coin scene")
    }

    /// Busy coin frames of thousands of changed cells each (where the frame writer tries its
    /// quick bound on the frame written in reading order before the exact one).
    @Test func busyCoinFramesEncodeToTheSameBytes() {
        let frames = FrameGroupingTests.coinFrames(columns: 200, rows: 60, coins: 6000, steps: 5, seed: 8)
        var changed = 0
        for k in 1..<frames.count {
            for i in 0..<frames[k].cells.count where frames[k].cells[i] != frames[k - 1].cells[i] { changed += 1 }
        }
        #expect(changed > 4 * 2048, "\(changed) cells changed in 4 frames")
        expectSameBytes(frames, mode: .trueColor, "busy coin scene")
    }
    /// Changed cells along wide rows with gaps of every kind between them: a few cells (a
    /// reprint), more (a step of one, two or three digits, past 255 too), and a frame whose
    /// colours alternate, so passes in each colour step over the others' cells.
    @Test(arguments: [ColorMode.trueColor, .palette256], [Moves.all, .plain])
    func longGapsAlongARowEncodeToTheSame(mode: ColorMode, moves: Moves) {
        let columns = 300
        let layouts: [[Int]] = [
            [0, 256], [0, 257], [1, 255],
            [0, 2, 5, 9, 14, 20, 31, 42, 142, 243, 299],
            [3, 4, 6, 7, 8, 11, 12, 16, 17, 18, 19, 24, 100, 101, 103, 200, 204, 210],
        ]
        let colors = [Color(rgb: 0x102030), Color(rgb: 0xC0A000), Color(rgb: 0x00FF7F), Color(rgb: 0xFFFFFF)]
        var frames: [Frame] = []
        for step in 0..<8 {
            var frame = Frame(columns: columns, rows: layouts.count)
            for row in 0..<layouts.count {
                for c in 0..<columns { frame[c, row] = Cell(top: colors[0], bottom: colors[0]) }
                for (k, c) in layouts[row].enumerated() where (k + step) % 3 != 0 {
                    let a = colors[1 + (k + step) % 3], b = colors[1 + (k + row) % 3]
                    frame[c, row] = step % 2 == 0 ? Cell(top: a, bottom: a) : Cell(top: a, bottom: b)
                }
            }
            frames.append(frame)
        }
        expectSameBytes(frames, mode: mode, moves: moves, "long gaps")
    }
}

