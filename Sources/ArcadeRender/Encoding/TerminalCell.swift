import ArcadeCore

/// A cell reduced to what the terminal will show, with colours already in the output colour
/// mode: two cells that look the same compare equal however they are spelled.
struct TerminalCell: Equatable {
    /// 0 for a pixel cell, else the character's scalar value.
    var scalar: UInt32
    /// Pixel cell: the top colour. Glyph: the foreground.
    var first: UInt32
    /// Pixel cell: the bottom colour. Glyph: the background.
    var second: UInt32

    @inline(__always) init(scalar: UInt32, first: UInt32, second: UInt32) {
        self.scalar = scalar
        self.first = first
        self.second = second
    }

    @inline(__always) init(_ cell: Cell, mode: ColorMode) {
        let fg = TerminalCell.key(cell.foreground, mode)
        let bg = TerminalCell.key(cell.background, mode)
        switch cell.character {
        case " ": self.init(scalar: 0, first: bg, second: bg)
        case Cell.upperHalf: self.init(scalar: 0, first: fg, second: bg)
        case Cell.lowerHalf: self.init(scalar: 0, first: bg, second: fg)
        case Cell.fullBlock: self.init(scalar: 0, first: fg, second: fg)
        default: self.init(scalar: cell.character.value, first: fg, second: bg)
        }
    }

    /// A colour as the terminal gets it: `0xRRGGBB`, or a palette index.
    @inline(__always) static func key(_ c: Color, _ mode: ColorMode) -> UInt32 {
        switch mode {
        case .trueColor: (UInt32(c.r) << 16) | (UInt32(c.g) << 8) | UInt32(c.b)
        case .palette256: UInt32(XtermPalette.index(nearestTo: c))
        }
    }

    /// A way to write the cell: the character, and the colours it needs (nil = any will do).
    struct Spelling {
        var scalar: UInt32
        var foreground: UInt32?
        var background: UInt32?
    }

    /// The spelling that needs the fewest colour changes from `pen`: a uniform cell is a
    /// space on the background or `█` on the foreground; a split cell is `▀` or `▄`.
    @inline(__always) func spelling(for pen: PenState) -> Spelling {
        guard scalar == 0 else { return Spelling(scalar: scalar, foreground: first, background: second) }
        if first == second {
            if pen.background != first && pen.foreground == first {
                return Spelling(scalar: Cell.fullBlock.value, foreground: first, background: nil)
            }
            return Spelling(scalar: 0x20, foreground: nil, background: first)
        }
        let upperChanges = (pen.foreground == first ? 0 : 1) + (pen.background == second ? 0 : 1)
        let lowerChanges = (pen.foreground == second ? 0 : 1) + (pen.background == first ? 0 : 1)
        if lowerChanges < upperChanges {
            return Spelling(scalar: Cell.lowerHalf.value, foreground: second, background: first)
        }
        return Spelling(scalar: Cell.upperHalf.value, foreground: first, background: second)
    }

    /// The character that shows this cell with exactly the pen's colours, or nil when the
    /// pen cannot show it without a colour change.
    @inline(__always) func scalarWithoutColorChange(_ pen: PenState) -> UInt32? {
        if scalar != 0 {
            return pen.foreground == first && pen.background == second ? scalar : nil
        }
        if first == second {
            if pen.background == first { return 0x20 }
            if pen.foreground == first { return Cell.fullBlock.value }
            return nil
        }
        if pen.foreground == first && pen.background == second { return Cell.upperHalf.value }
        if pen.foreground == second && pen.background == first { return Cell.lowerHalf.value }
        return nil
    }

    /// UTF-8 length of a scalar value.
    @inline(__always) static func utf8Count(_ v: UInt32) -> Int {
        v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4
    }

    /// Appends a scalar value as UTF-8.
    @inline(__always) static func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        if v < 0x80 {
            out.append(UInt8(v))
        } else if v < 0x800 {
            out.append(UInt8(0xC0 | (v >> 6)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        } else if v < 0x10000 {
            out.append(UInt8(0xE0 | (v >> 12)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        } else {
            out.append(UInt8(0xF0 | (v >> 18)))
            out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }
}

/// The terminal's current SGR colours as far as the encoder knows.
struct PenState {
    /// Colour keys; ``unknown`` until set.
    var foreground: UInt32 = PenState.unknown
    var background: UInt32 = PenState.unknown

    /// Never a colour key, so it never matches.
    static let unknown = UInt32.max

    /// Writes one SGR sequence setting whichever of the wanted colours differ from the pen.
    @inline(__always) mutating func emitColors(
        foreground fg: UInt32?, background bg: UInt32?, mode: ColorMode, into out: inout [UInt8]
    ) {
        let setFg = fg.map { $0 != foreground } ?? false
        let setBg = bg.map { $0 != background } ?? false
        guard setFg || setBg else { return }
        out.append(0x1B)
        out.append(0x5B)  // [
        if setFg, let fg {
            Escape.appendColor(fg, selector: 38, mode: mode, to: &out)
            foreground = fg
        }
        if setBg, let bg {
            if setFg { out.append(0x3B) }  // ;
            Escape.appendColor(bg, selector: 48, mode: mode, to: &out)
            background = bg
        }
        out.append(0x6D)  // m
    }
}

/// Byte-level pieces of the escape sequences the encoder writes.
enum Escape {
    /// Appends a non-negative integer in decimal.
    @inline(__always) static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
        if n >= 10 { appendDecimal(n / 10, to: &out) }
        out.append(UInt8(0x30 + n % 10))
    }

    /// Number of decimal digits of a non-negative integer.
    @inline(__always) static func digits(_ n: Int) -> Int {
        n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : 5 + digits(n / 100000)
    }

    /// `38;2;r;g;b` (or `48;...`) in truecolor, `38;5;n` in the 256-colour palette.
    @inline(__always) static func appendColor(_ key: UInt32, selector: Int, mode: ColorMode, to out: inout [UInt8]) {
        appendDecimal(selector, to: &out)
        switch mode {
        case .trueColor:
            out.append(contentsOf: [0x3B, 0x32, 0x3B])  // ;2;
            appendDecimal(Int((key >> 16) & 0xFF), to: &out)
            out.append(0x3B)
            appendDecimal(Int((key >> 8) & 0xFF), to: &out)
            out.append(0x3B)
            appendDecimal(Int(key & 0xFF), to: &out)
        case .palette256:
            out.append(contentsOf: [0x3B, 0x35, 0x3B])  // ;5;
            appendDecimal(Int(key), to: &out)
        }
    }

    /// `ESC [ ? 2026 h`: the terminal holds the screen until the matching end, so a frame
    /// never shows half drawn.
    static let beginSynchronized: [UInt8] = Array("\u{1B}[?2026h".utf8)
    /// `ESC [ ? 2026 l`.
    static let endSynchronized: [UInt8] = Array("\u{1B}[?2026l".utf8)
}
