#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore
import Testing
@testable import ArcadeRender
import ArcadeTestSupport

/// The terminal's default background shows exactly where it shows in truecolor in the
/// 256-colour palette too: nowhere. Every cell of every frame is written with a background
/// of its own, so a terminal whose background is not near-black shows no bands of it.
@Suite struct DefaultBackgroundTests {
    /// What a cell the encoder never gave a background keeps: a colour no SGR can set (it is
    /// transparent), standing for the terminal's default background.
    static let terminalDefault = Color(r: 1, g: 2, b: 3, a: 0)

    /// The menu's look: a dark blue background, a starfield drifting across it, the title in
    /// the big font with an outline, a pulsing highlight bar, rows of text in several
    /// colours, and a few discs; `step` moves the stars and the pulse.
    static func menuLike(step: Int) -> Frame {
        let canvas = Canvas(columns: 80, rows: 24, background: Color(rgb: 0x0B0E1A))
        let g = Graphics(canvas: canvas)
        var rng = SeededRandom(seed: 2026)
        for _ in 0..<90 {
            let x = (rng.nextUnit() * 80 - Double(step) * rng.nextDouble(in: 0.2, 1)).truncatingRemainder(dividingBy: 80)
            let shade = UInt8(rng.nextInt(in: 20, 200))
            g.pixel(x: (x < 0 ? x + 80 : x).rounded(.down), y: (rng.nextUnit() * 48).rounded(.down),
                    color: Color(r: shade, g: shade, b: UInt8(min(255, Int(shade) + 40))))
        }
        let t = (sin(Double(step) * 0.3) + 1) / 2
        g.label("ARCADE", x: 40, y: 8, color: Color(rgb: 0xFFB300).lerp(to: Color(rgb: 0xFF7043), t),
                outline: Color(rgb: 0x3E2723))
        let selected = step % 5
        for i in 0..<5 {
            let row = 9 + 2 * i
            if i == selected {
                g.fillRect(x: 1, y: Double(row * 2), width: 78, height: 2,
                           color: Color(rgb: 0x283593).lerp(to: Color(rgb: 0x3949AB), t))
            }
            g.text((i == selected ? "> " : "  ") + "Game number \(i)", x: 2, y: Double(row * 2), color: .white)
            g.text("  a line that describes it", x: 2, y: Double(row * 2 + 2), color: Color(rgb: 0x9AA0B4))
        }
        // Near the background: colours that share its palette entry, drawn over it.
        g.fillCircle(x: 70.5, y: 40.5, radius: 3, color: Color(rgb: 0x0D1018))
        g.fillCircle(x: 10.25, y: 41.75, radius: 2.5, color: Color(rgb: 0x121212))
        g.text("↑↓ choose   enter play   q quit", x: 2, y: 46, color: Color(rgb: 0x6B7085))
        return canvas.makeFrame()
    }

    /// A canvas of random rectangles, discs and text over a random background, some of them
    /// within a few steps of the background (one palette entry in 256 colours).
    static func randomFrame(_ rng: inout SeededRandom, background: Color) -> Frame {
        let canvas = Canvas(columns: 40, rows: 12, background: background)
        let g = Graphics(canvas: canvas)
        func color() -> Color {
            if rng.nextInt(in: 0, 2) == 0 {
                func near(_ v: UInt8) -> UInt8 { UInt8(clamping: Int(v) + Int(rng.nextInt(in: -4, 4))) }
                return Color(r: near(background.r), g: near(background.g), b: near(background.b))
            }
            return Color(r: UInt8(rng.nextInt(in: 0, 255)), g: UInt8(rng.nextInt(in: 0, 255)),
                         b: UInt8(rng.nextInt(in: 0, 255)))
        }
        for _ in 0..<12 {
            let x = rng.nextDouble(in: -4, 40), y = rng.nextDouble(in: -4, 24)
            switch rng.nextInt(in: 0, 2) {
            case 0: g.fillRect(x: x, y: y, width: rng.nextDouble(in: 1, 12), height: rng.nextDouble(in: 1, 8), color: color())
            case 1: g.fillCircle(x: x, y: y, radius: rng.nextDouble(in: 0.5, 6), color: color())
            default: g.text("text \(rng.nextInt(in: 0, 99))", x: x.rounded(.down), y: y.rounded(.down), color: color())
            }
        }
        return canvas.makeFrame()
    }

    /// The SGR parameters in `bytes` that set anything but an explicit colour (a reset, the
    /// default foreground or background, an attribute).
    static func nonColorSGR(_ bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == 0x5B else {
                i += 1
                continue
            }
            var j = i + 2
            while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
            guard j < bytes.count else { break }
            if bytes[j] == 0x6D {  // m
                let text = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                let params = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                var k = 0
                while k < params.count {
                    if params[k] == 38 || params[k] == 48, k + 1 < params.count {
                        k += params[k + 1] == 5 ? 3 : 5
                    } else {
                        found.append(params[k])
                        k += 1
                    }
                }
            }
            i = j + 1
        }
        return found
    }

    /// Encodes `frames` one after another in `mode` onto a screen whose cells all start with
    /// the terminal's default background; returns the cells that still have it after each
    /// frame, and the non-colour SGR parameters sent.
    static func defaultCells(_ frames: [Frame], mode: ColorMode) -> (cells: [Set<Int>], resets: [Int]) {
        let columns = frames[0].columns, rows = frames[0].rows
        var screen = VTModel(columns: columns, rows: rows,
                             fill: .init(scalar: " ", foreground: .white, background: terminalDefault))
        let encoder = FrameEncoder(colorMode: mode)
        var cells: [Set<Int>] = []
        var resets: [Int] = []
        for frame in frames {
            let bytes = encoder.encode(frame)
            resets += nonColorSGR(bytes)
            screen.feed(bytes)
            #expect(screen.errors.isEmpty, "\(screen.errors)")
            var here: Set<Int> = []
            for r in 0..<rows {
                for c in 0..<columns where screen[c, r].background == terminalDefault { here.insert(r * columns + c) }
            }
            cells.append(here)
        }
        return (cells, resets)
    }

    @Test func aMenuLikeSceneKeepsTheDefaultBackgroundWhereTruecolorDoes() {
        let frames = (0..<24).map { DefaultBackgroundTests.menuLike(step: $0) }
        let truecolor = DefaultBackgroundTests.defaultCells(frames, mode: .trueColor)
        let palette = DefaultBackgroundTests.defaultCells(frames, mode: .palette256)
        #expect(palette.cells == truecolor.cells)
        #expect(truecolor.cells.allSatisfy { $0.isEmpty })
        #expect(truecolor.resets.isEmpty)
        #expect(palette.resets.isEmpty)
        // The scene does give the palette cells that look unchanged where truecolor sees a
        // change (the encoder then leaves them as they are): the case that matters.
        var looks = CellLooks(mode: .palette256)
        var unchangedIn256 = 0
        for (a, b) in zip(frames, frames.dropFirst()) {
            for i in 0..<a.cells.count where a.cells[i] != b.cells[i] {
                if looks.look(a.cells[i]) == looks.look(b.cells[i]) { unchangedIn256 += 1 }
            }
        }
        #expect(unchangedIn256 > 0)
    }

    @Test(arguments: [Color(rgb: 0x0B0E1A), Color(rgb: 0x000000), Color(rgb: 0x1E1E1E), Color(rgb: 0xF0F0E8)])
    func randomCanvasesKeepTheDefaultBackgroundWhereTruecolorDoes(background: Color) {
        var rng = SeededRandom(seed: UInt64(TerminalCell.rgbKey(background)) &+ 7)
        let frames = (0..<20).map { _ in DefaultBackgroundTests.randomFrame(&rng, background: background) }
        let truecolor = DefaultBackgroundTests.defaultCells(frames, mode: .trueColor)
        let palette = DefaultBackgroundTests.defaultCells(frames, mode: .palette256)
        #expect(palette.cells == truecolor.cells)
        #expect(truecolor.cells.allSatisfy { $0.isEmpty })
        #expect(truecolor.resets.isEmpty && palette.resets.isEmpty)
    }
}
