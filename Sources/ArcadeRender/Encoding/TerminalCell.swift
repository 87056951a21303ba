import ArcadeCore

/// A cell reduced to what the terminal will show, with colours already in the output colour
/// mode: two cells that look the same compare equal however they are spelled.
struct TerminalCell: Equatable {
    /// 0 for a pixel cell, else the character's value (a code point, a ``GlyphStore`` number
    /// or ``GlyphStore/continuation``), with ``wideFlag`` set when the glyph is wide.
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

    /// A cell whose colours are already terminal keys.
    @inline(__always) init(_ cell: Cell, foreground fg: UInt32, background bg: UInt32) {
        self.init(character: cell.character.value, foreground: fg, background: bg)
    }

    /// A cell whose character is `scalar` and whose colours are already terminal keys.
    @inline(__always) init(character scalar: UInt32, foreground fg: UInt32, background bg: UInt32) {
        // The four pixel characters: the top pixel is the foreground's in `▀` and `█`, the
        // bottom one in `▄` and `█`, else the background's. Told apart without branching, as
        // neighbouring cells mix them at random: `▀` `▄` `█` are U+2580, U+2584 and U+2588,
        // so bits 0, 4 and 8 of a mask shifted by the distance from U+2580 (15, past every
        // mask's bits, for anything else).
        let d = scalar &- BlockScalar.upperHalf
        let shift = d < 9 ? d : 15
        let block = (0x111 as UInt32) &>> shift, top = (0x101 as UInt32) &>> shift, bottom = (0x110 as UInt32) &>> shift
        if (block | (scalar == BlockScalar.space ? 1 : 0)) & 1 != 0 {
            self.init(scalar: 0, first: top & 1 != 0 ? fg : bg, second: bottom & 1 != 0 ? fg : bg)
            return
        }
        // a wide glyph is marked, so writing it moves the cursor two cells (nothing below
        // U+1100 is wide)
        let wide = scalar >= TextCell.firstWide && scalar != GlyphStore.continuation && GlyphStore.isWide(scalar)
        self.init(scalar: wide ? scalar | TerminalCell.wideFlag : scalar, first: fg, second: bg)
    }

    /// Set in ``scalar`` for a wide glyph (no code point has this bit).
    static let wideFlag: UInt32 = 1 << 31

    /// Appends a cell's character: a code point as UTF-8, or a stored glyph's code points.
    @inline(__always) static func appendGlyph(_ v: UInt32, to out: inout ByteBuffer) {
        let value = v & ~wideFlag
        if GlyphStore.isStored(value) {
            GlyphStore.appendUTF8(of: value, to: &out)
        } else {
            appendUTF8(value, to: &out)
        }
    }

    /// A colour as truecolor output uses it: `0xRRGGBB`.
    @inline(__always) static func rgbKey(_ c: Color) -> UInt32 {
        #if _endian(little)
        // the four channels in memory order, turned round: one byte swap
        return c.bits.byteSwapped >> 8
        #else
        return (UInt32(c.r) << 16) | (UInt32(c.g) << 8) | UInt32(c.b)
        #endif
    }

    /// Whether a cell's character and two colours lie in memory as three words in that
    /// order, so ``trueColorLook(at:)`` may read them as words.
    static let cellIsThreeWords = MemoryLayout<Cell>.size == 12 && MemoryLayout<Unicode.Scalar>.size == 4
        && MemoryLayout<Color>.size == 4 && MemoryLayout<Cell>.offset(of: \Cell.character) == 0
        && MemoryLayout<Cell>.offset(of: \Cell.foreground) == 4 && MemoryLayout<Cell>.offset(of: \Cell.background) == 8

    /// ``CellLooks/trueColorLook(_:)`` of the cell at `p`, its three words read whole where
    /// `threeWords` (``cellIsThreeWords``) says it may.
    @inline(__always) static func trueColorLook(at p: UnsafePointer<Cell>, threeWords: Bool) -> TerminalCell {
        #if _endian(little)
        if threeWords {
            let raw = UnsafeRawPointer(p)
            let scalar = raw.load(as: UInt32.self)
            let fg = raw.load(fromByteOffset: 4, as: UInt32.self).byteSwapped >> 8
            let bg = raw.load(fromByteOffset: 8, as: UInt32.self).byteSwapped >> 8
            return TerminalCell(character: scalar, foreground: fg, background: bg)
        }
        #endif
        return CellLooks.trueColorLook(p.pointee)
    }

    /// A way to write the cell: the character, and the colours it needs (nil = any will do).
    struct Spelling {
        var scalar: UInt32
        var foreground: UInt32?
        var background: UInt32?
    }

    /// The spelling that needs the fewest colour changes from `pen`: a uniform cell is
    /// a space on the background (not `█` on the foreground, even when the pen's foreground
    /// already has the colour, so text copied off the screen has spaces between its words;
    /// only a colour pass crossing a cell of its foreground writes that, for the bytes a
    /// pass of the cell's own saves, ``TerminalWriter/moveOrFill``); a split cell is `▀` or `▄`.
    @inline(__always) func spelling(for pen: PenState) -> Spelling {
        guard scalar == 0 else { return Spelling(scalar: scalar, foreground: first, background: second) }
        if first == second {
            return Spelling(scalar: 0x20, foreground: nil, background: first)
        }
        let upperChanges = (pen.foreground == first ? 0 : 1) + (pen.background == second ? 0 : 1)
        let lowerChanges = (pen.foreground == second ? 0 : 1) + (pen.background == first ? 0 : 1)
        if lowerChanges < upperChanges {
            return Spelling(scalar: BlockScalar.lowerHalf, foreground: second, background: first)
        }
        return Spelling(scalar: BlockScalar.upperHalf, foreground: first, background: second)
    }

    /// The character that shows this cell with exactly the pen's colours, or nil when the
    /// pen cannot show it without a colour change.
    @inline(__always) func scalarWithoutColorChange(_ pen: PenState) -> UInt32? {
        if scalar != 0 {
            return pen.foreground == first && pen.background == second ? scalar : nil
        }
        if first == second {
            return pen.background == first ? 0x20 : nil
        }
        if pen.foreground == first && pen.background == second { return BlockScalar.upperHalf }
        if pen.foreground == second && pen.background == first { return BlockScalar.lowerHalf }
        return nil
    }

    /// True when the pen shows this cell with no colour change (``scalarWithoutColorChange(_:)``
    /// is not nil), worked out without branches: the row writer asks it of every waiting
    /// cell for every colour it considers.
    @inline(__always) func shows(with pen: PenState) -> Bool {
        let straight = (first == pen.foreground) && (second == pen.background)
        let swapped = (first == pen.background) && ((second == pen.foreground) || (first == second))
        return straight || ((scalar == 0) && swapped)
    }

    /// UTF-8 length of a scalar value.
    @inline(__always) static func utf8Count(_ v: UInt32) -> Int {
        v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4
    }

    /// Appends a scalar value as UTF-8.
    @inline(__always) static func appendUTF8(_ v: UInt32, to out: inout ByteBuffer) {
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

/// The pixel-cell characters as plain integers: comparing against these costs nothing, where
/// a `Unicode.Scalar` static goes through its lazy initialiser on every use.
enum BlockScalar {
    static let space: UInt32 = 0x20
    /// `▀`
    static let upperHalf: UInt32 = 0x2580
    /// `▄`
    static let lowerHalf: UInt32 = 0x2584
    /// `█`
    static let fullBlock: UInt32 = 0x2588
}

/// The terminal's current SGR colours as far as the encoder knows.
struct PenState {
    /// Colour keys; ``unknown`` until set.
    var foreground: UInt32 = PenState.unknown
    var background: UInt32 = PenState.unknown

    /// Never a colour key, so it never matches.
    static let unknown = UInt32.max
    /// Set in both colour keys of a cell written in reverse video (SGR 7): its `first` is
    /// then the colour the terminal shows behind the glyph, its `second` the glyph's. Only
    /// the 8-colour mode uses it, so a bright colour can be a text cell's background.
    static let reverse: UInt32 = 1 << 30

    /// Writes one SGR sequence setting whichever of the wanted colours differ from the pen.
    @inline(__always) mutating func emitColors(
        foreground fg: UInt32?, background bg: UInt32?, mode: ColorMode, into out: inout ByteBuffer
    ) {
        let setFg = fg.map { $0 != foreground } ?? false
        let setBg = bg.map { $0 != background } ?? false
        guard setFg || setBg else { return }
        out.append(0x1B)
        out.append(0x5B)  // [
        if mode == .palette8, let wanted = setFg ? fg : bg {
            // reverse video on or off, when it changes (or is not known)
            let reversed = wanted & PenState.reverse != 0
            let known = foreground != PenState.unknown ? foreground : background
            if known == PenState.unknown || (known & PenState.reverse != 0) != reversed {
                if reversed {
                    out.append(0x37)  // 7
                } else {
                    out.append(0x32)  // 27
                    out.append(0x37)
                }
                out.append(0x3B)  // ;
                // the colour not set keeps its number, now read the other way
                if !setFg && foreground != PenState.unknown { foreground ^= PenState.reverse }
                if !setBg && background != PenState.unknown { background ^= PenState.reverse }
            }
        }
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
    /// Appends a non-negative integer in decimal (up to 99,999: cell coordinates and
    /// colour channels).
    @inline(__always) static func appendDecimal(_ n: Int, to out: inout ByteBuffer) {
        // Coordinates and channels are mostly under 1000: divisions by constants only.
        if n < 10 {
            out.append(UInt8(truncatingIfNeeded: 0x30 &+ n))
            return
        }
        if n < 100 {
            out.append(UInt8(truncatingIfNeeded: 0x30 &+ n / 10))
            out.append(UInt8(truncatingIfNeeded: 0x30 &+ n % 10))
            return
        }
        if n < 1000 {
            out.append(UInt8(truncatingIfNeeded: 0x30 &+ n / 100))
            out.append(UInt8(truncatingIfNeeded: 0x30 &+ (n / 10) % 10))
            out.append(UInt8(truncatingIfNeeded: 0x30 &+ n % 10))
            return
        }
        var divisor = 1
        while divisor * 10 <= n && divisor < 10_000 { divisor *= 10 }
        var rest = n
        while divisor > 0 {
            out.append(UInt8(truncatingIfNeeded: 0x30 + (rest / divisor) % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    /// Number of decimal digits of a non-negative integer (up to 99,999).
    @inline(__always) static func digits(_ n: Int) -> Int {
        n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : 5
    }

    /// `38;2;r;g;b` (or `48;...`) in truecolor, `38;5;n` in the 256-colour palette, `3n`/`9n`
    /// (`4n`/`10n`) with the 16 system colours.
    @inline(__always) static func appendColor(_ key: UInt32, selector: Int, mode: ColorMode, to out: inout ByteBuffer) {
        if mode == .palette16 || mode == .palette8 {
            let index = key & 0xFF  // without the reverse-video bit
            let bright = index >= 8
            let base = selector == 38 ? (bright ? 90 : 30) : (bright ? 100 : 40)
            appendDecimal(base + Int(index & 7), to: &out)
            return
        }
        // `38;2;` or `38;5;` (`48;...`), the channels, each followed by `;` but the last:
        // whole words stored at once, without branching on the number of digits (colours
        // come at random)
        let lead: UInt64 = selector == 38 ? 0x3B_00_3B_38_33 : 0x3B_00_3B_38_34
        switch mode {
        case .trueColor:
            out.appendDoubleWord(lead | 0x32_00_00_00, length: 5)
            let (red, redLength) = channelDigits(key >> 16)
            let (green, greenLength) = channelDigits(key >> 8)
            let (blue, blueLength) = channelDigits(key)
            // `r;g;`: at most eight bytes
            let first = UInt64(red | 0x3B << (8 &* UInt32(truncatingIfNeeded: redLength)))
            let second = UInt64(green | 0x3B << (8 &* UInt32(truncatingIfNeeded: greenLength)))
            out.appendDoubleWord(first | second << (8 &* UInt64(truncatingIfNeeded: redLength &+ 1)),
                                 length: redLength &+ greenLength &+ 2)
            out.appendWord(blue, length: blueLength)
        case .palette256, .palette16, .palette8:
            out.appendDoubleWord(lead | 0x35_00_00_00, length: 5)
            if key < 256 {
                let (index, length) = channelDigits(key)
                out.appendWord(index, length: length)
            } else {
                appendDecimal(Int(key), to: &out)
            }
        }
    }

    /// The decimal digits of `value & 0xFF` (a colour channel or a palette index) as ASCII,
    /// first digit in the lowest byte, and how many there are (1 to 3).
    @inline(__always) static func channelDigits(_ value: UInt32) -> (word: UInt32, length: Int) {
        let n = value & 0xFF
        let hundreds = (n &* 41) >> 12  // n / 100 for n < 1000
        let rest = n &- hundreds &* 100
        let tens = (rest &* 205) >> 11  // rest / 10 for rest < 1024
        let ones = rest &- tens &* 10
        let length = 1 &+ (n >= 10 ? 1 : 0) &+ (n >= 100 ? 1 : 0)
        let all = (0x30 | hundreds) | (0x30 | tens) << 8 | (0x30 | ones) << 16
        return (all >> (8 &* UInt32(truncatingIfNeeded: 3 &- length)), length)
    }

    /// `ESC [ ? 2026 h`: the terminal holds the screen until the matching end, so a frame
    /// never shows half drawn.
    static var beginSynchronized: StaticBytes { StaticBytes("\u{1B}[?2026h") }
    /// `ESC [ ? 2026 l`.
    static var endSynchronized: StaticBytes { StaticBytes("\u{1B}[?2026l") }
    /// `ESC [ ? 7 l`: autowrap (`DECAWM`) off.
    static var autowrapOff: StaticBytes { StaticBytes("\u{1B}[?7l") }
    /// `ESC [ 3 g` (`TBC`): clears every tab stop.
    static var clearTabStops: StaticBytes { StaticBytes("\u{1B}[3g") }
    /// The most bytes one cell can take: a cursor move with five-digit coordinates, a reprint
    /// of four 4-byte characters, both truecolor SGRs (or reverse video and two system
    /// colours) and a 4-byte character, rounded up, with room to spare for the whole words
    /// some pieces are stored as (up to seven bytes past the last one written).
    static let maxBytesPerCell = 96
}
