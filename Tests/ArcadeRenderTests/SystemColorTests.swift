import ArcadeCore
import Testing
@testable import ArcadeRender
import ArcadeTestSupport

/// Random frames of game-like colours: pixels mostly, some text, colours repeating.
private struct GameFrames: RandomCells {
    var rng: SeededRandom
    let colors: [Color] = [0x1B2030, 0xF2C14E, 0x4ECDC4, 0xE0413A, 0xFFFFFF, 0x2F6B2F, 0x14182A, 0xFFD23F, 0xF4A6C0,
                           0x1D4E7A, 0x8A97A6, 0x000000, 0x9AA0B4]
        .map { Color(rgb: $0) }
    let glyphs: [Unicode.Scalar] = ["A", "x", "1", "+", "é", "#"]

    mutating func color() -> Color {
        if rng.nextInt(in: 0, 9) == 0 {
            return Color(r: UInt8(rng.nextInt(in: 0, 255)), g: UInt8(rng.nextInt(in: 0, 255)), b: UInt8(rng.nextInt(in: 0, 255)))
        }
        return colors[Int(rng.nextInt(in: 0, Int64(colors.count - 1)))]
    }

    mutating func cell() -> Cell {
        switch rng.nextInt(in: 0, 9) {
        case 0: return Cell(character: glyphs[Int(rng.nextInt(in: 0, Int64(glyphs.count - 1)))], foreground: color(), background: color())
        case 1: return Cell(character: Cell.fullBlock, foreground: color(), background: color())
        default: return Cell(top: color(), bottom: color())
        }
    }
}

@Suite struct SystemColorTests {
    static let system = XtermPalette.systemColors

    /// The system entry a colour gets among the first `count` (`console`: matched as the
    /// Linux console shows them, as the 8-colour mode does).
    static func snap(_ c: Color, _ count: Int, console: Bool) -> Color {
        if console && count == 8 {
            // the 8 backgrounds: the 16-colour entry's dim twin
            return system[Int(XtermPalette.systemIndex(nearestTo: c, count: 16, console: true) & 7)]
        }
        return system[Int(XtermPalette.systemIndex(nearestTo: c, count: count, console: console))]
    }

    /// How `cell` must look with 16 colours, or with 16 foregrounds on 8 backgrounds: text
    /// takes its background from the 8; pixels keep their 16-colour entry, but when both of
    /// a cell's are bright the bottom one takes its 8-colour entry.
    static func expected(_ cell: Cell, mode: ColorMode) -> CellAppearance {
        let backs = mode == .palette8 ? 8 : 16
        let console = mode == .palette8
        switch cell.appearance {
        case .glyph(let s, let fg, let bg):
            let back = XtermPalette.systemIndex(nearestTo: bg, count: 16, console: console)
            if mode == .palette8 && back >= 8 {
                // text on a bright background: in reverse video, its colour from the 8
                return .glyph(s, foreground: snap(fg, 8, console: true), background: system[Int(back)])
            }
            return .glyph(s, foreground: snap(fg, 16, console: console), background: snap(bg, backs, console: console))
        case .pixels(let top, let bottom):
            let t = XtermPalette.systemIndex(nearestTo: top, count: 16, console: console)
            let b = XtermPalette.systemIndex(nearestTo: bottom, count: 16, console: console)
            if mode == .palette8, t >= 8, b >= 8, t != b {
                return .pixels(top: system[Int(t)], bottom: snap(bottom, 8, console: true))
            }
            return .pixels(top: system[Int(t)], bottom: system[Int(b)])
        }
    }

    static func luma(_ c: Color) -> Int { Int(c.r) * 299 + Int(c.g) * 587 + Int(c.b) * 114 }

    @Test(arguments: [ColorMode.palette16, .palette8])
    func everyCellOnTheTerminalIsInThePaletteAndShowsItsShape(mode: ColorMode) {
        var frames = GameFrames(rng: SeededRandom(seed: mode == .palette16 ? 16 : 8))
        let foregrounds = Set(Self.system)
        // with 8 backgrounds, a bright one shows only behind text in reverse video: the SGRs
        // never ask for one (below)
        let backgrounds = Set(Self.system)
        for (cols, rows) in [(1, 1), (7, 3), (80, 24)] {
            let encoder = FrameEncoder(colorMode: mode)
            var screen = VTModel(columns: cols, rows: rows,
                                 fill: .init(scalar: "?", foreground: .white, background: Color(rgb: 0xFF00FF)))
            var frame = frames.frame(columns: cols, rows: rows)
            for step in 0..<8 {
                if step > 0 { frame = frames.mutate(frame, fraction: [0.02, 0.3, 1.0][step % 3], longestRun: 4) }
                screen.feed(encoder.encode(frame))
                #expect(screen.errors.isEmpty, "\(screen.errors.prefix(3))")
                #expect(screen.extendedColorsSet == 0, "only 30-37, 90-97 and 40-47\(mode == .palette8 ? "" : ", 100-107")")
                if mode == .palette8 { #expect(screen.brightBackgroundsSet == 0) }
                for r in 0..<rows {
                    for c in 0..<cols {
                        let g = screen[c, r]
                        #expect(foregrounds.contains(g.foreground) && backgrounds.contains(g.background),
                                "(\(c),\(r)) \(g.foreground) on \(g.background)")
                        let want = Self.expected(frame[c, r], mode: mode)
                        #expect(screen.appearance(column: c, row: r) == want, "(\(c),\(r)) in \(mode)")
                    }
                }
            }
        }
    }

    /// A game's colours keep their hue in 16 colours: greens stay green, the night sky stays
    /// dark, a gold coin is yellow; near-greys get greys.
    @Test func coloursKeepTheirHueInSixteen() {
        let cases: [(UInt32, [UInt8])] = [
            (0x2F6B2F, [2, 10]),      // a dark green, not grey
            (0x2C6E49, [2, 10]),      // the buttons' green
            (0x3FAE4A, [2, 10]),
            (0xE0413A, [1, 9]),       // the paddle's red
            (0xFFD23F, [3, 11]),      // gold
            (0xF2C14E, [3, 11]),
            (0x4ECDC4, [6, 14]),      // teal
            (0x4FA3E0, [4, 12, 6, 14]),  // a light blue: blue or cyan
            (0x1D4E7A, [4, 12]),      // the lake
            (0xF4A6C0, [5, 13, 9]),   // the pig's pink: magenta or light red
            (0x14182A, [0]),          // night
            (0x0B0E1A, [0]),
            (0x9AA0B4, [7, 8]),       // a grey
            (0xFFFFFF, [15]),
            (0x000000, [0]),
        ]
        for (rgb, allowed) in cases {
            let i = XtermPalette.systemIndex(nearestTo: Color(rgb: rgb), count: 16)
            #expect(allowed.contains(i), "#\(String(rgb, radix: 16)) got \(i)")
        }
        // with 8, the bright half is not there
        for (rgb, allowed) in cases {
            let i = XtermPalette.systemIndex(nearestTo: Color(rgb: rgb), count: 8)
            #expect(i < 8)
            if allowed.contains(where: { $0 < 8 && $0 != 7 }) { #expect(allowed.contains(i), "#\(String(rgb, radix: 16)) got \(i)") }
        }
    }

    /// Each system colour gets itself, or its bright or dim twin (the same hue).
    @Test func everySystemEntryMapsToItselfOrItsTwin() {
        for i in 0..<16 {
            let found = XtermPalette.systemIndex(nearestTo: Self.system[i], count: 16)
            #expect(found == UInt8(i) || found == UInt8(i ^ 8), "entry \(i) got \(found)")
        }
    }

    @Test func sgrSpellsTheSystemColours() {
        var frame = Frame(columns: 3, rows: 1)
        frame[0, 0] = Cell(character: "a", foreground: Color(rgb: 0xFF0000), background: Color(rgb: 0x000000))
        frame[1, 0] = Cell(character: "b", foreground: Color(rgb: 0x0000EE), background: Color(rgb: 0xFFD23F))
        frame[2, 0] = Cell(character: "c", foreground: Color(rgb: 0x0000EE), background: Color(rgb: 0xFFD23F))
        let sixteen = String(decoding: FrameEncoder(colorMode: .palette16).encode(frame), as: UTF8.self)
        #expect(sixteen.contains("\u{1B}[91;40ma"))
        #expect(sixteen.contains("\u{1B}[34;103mbc"))
        let eight = String(decoding: FrameEncoder(colorMode: .palette8).encode(frame), as: UTF8.self)
        // no bright backgrounds: text on gold is written in reverse video
        #expect(eight.contains("\u{1B}[7;93;44mbc"))
        let back = String(decoding: FrameEncoder(colorMode: .palette8).encode(frame), as: UTF8.self)
        #expect(back.hasPrefix("\u{1B}[?2026h\u{1B}[?7l\u{1B}[H\u{1B}[27;91;40ma"), "\(back)")
        // the console's dim yellow is brown: browns take it with 8 colours
        #expect(XtermPalette.systemIndex(nearestTo: Color(rgb: 0x7A5A36), count: 8, console: true) == 3)
        // and a game's dark night sky is black, not the dark grey
        for rgb: UInt32 in [0x1B2030, 0x14182A, 0x101522, 0x1B2838] {
            #expect(XtermPalette.systemIndex(nearestTo: Color(rgb: rgb), count: 16) == 0, "#\(String(rgb, radix: 16))")
            #expect(XtermPalette.systemIndex(nearestTo: Color(rgb: rgb), count: 16, console: true) == 0)
        }
    }

    @Test func theModeComesFromWhatTheTerminalSays() {
        #expect(ColorMode.forTerminal(colors: 8) == .palette8)
        #expect(ColorMode.forTerminal(colors: 16) == .palette16)
        #expect(ColorMode.forTerminal(colors: 88) == .palette16)
        #expect(ColorMode.forTerminal(colors: 256) == .palette256)
        #expect(ColorMode.forTerminal(colors: 16_777_216) == .palette256)
        #expect(ColorMode.forTerminal(colors: nil) == .palette256)
        for mode in ColorMode.allCases { #expect(ColorMode(name: mode.name) == mode) }
        #expect(ColorMode(name: "12") == nil)
    }
}
