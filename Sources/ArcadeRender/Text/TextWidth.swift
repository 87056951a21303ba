/// How many terminal cells text takes, by the Unicode data in ``UnicodeWidthTable``
/// (version ``unicodeVersion``).
///
/// Text is laid out glyph by glyph, where a glyph is what one terminal cell (or two) shows:
/// - East Asian wide and fullwidth characters (CJK, Hangul, fullwidth forms) and emoji that
///   are emoji by default take two cells; every other visible character one.
/// - Combining marks, Hangul medial vowels and final consonants, and variation selectors
///   join the glyph before them and take no cell of their own. A variation selector 16
///   (U+FE0F) makes a text-style emoji (`❤`, `☺`, a keycap's digit) wide.
/// - An emoji after a zero-width joiner (U+200D), and a skin-tone modifier after an emoji,
///   join the emoji before them: a ZWJ sequence is one two-cell glyph. Two regional
///   indicators make one flag, two cells wide.
/// - Bidi controls and other invisible format characters (soft hyphen, zero-width space,
///   word joiner, byte order mark, tag characters, fillers) are dropped.
/// - Control characters (tab, carriage return, ...) show as one blank cell; `\n` starts a
///   new line wherever text is drawn.
/// A mark with no glyph before it on its line is dropped. A glyph holds at most
/// ``maximumScalarsPerGlyph`` code points: joiners past that are dropped too.
public enum TextWidth {
    /// The Unicode version the width table follows.
    public static var unicodeVersion: String { UnicodeWidthTable.unicodeVersion }

    /// The most code points one glyph keeps (a family emoji with skin tones has 10).
    public static let maximumScalarsPerGlyph = 16

    // The table's byte: the kind in the low three bits, then flags.
    static let zero: UInt8 = 0
    static let narrow: UInt8 = 1
    static let wide: UInt8 = 2
    static let dropped: UInt8 = 3
    static let control: UInt8 = 4
    static let kindMask: UInt8 = 7
    static let emojiVS16: UInt8 = 1 << 3
    static let pictographic: UInt8 = 1 << 4
    static let regional: UInt8 = 1 << 5
    static let modifier: UInt8 = 1 << 6

    /// The table's byte for every code point below U+20000 (planes 0 and 1, where nearly all
    /// text lives), expanded once from the runs: one load instead of a search.
    static let lowPlanes: [UInt8] = {
        var out = [UInt8](repeating: 0, count: 0x20000)
        let starts = UnicodeWidthTable.starts, values = UnicodeWidthTable.values
        for i in starts.indices where starts[i] < 0x20000 {
            let end = i + 1 < starts.count ? min(Int(starts[i + 1]), 0x20000) : 0x20000
            for cp in Int(starts[i])..<end { out[cp] = values[i] }
        }
        return out
    }()

    /// The table's byte for one code point.
    @inline(__always) static func properties(_ v: UInt32) -> UInt8 {
        if v < 0x20000 { return lowPlanes.withUnsafeBufferPointer { $0[Int(v)] } }
        return searchRuns(v)
    }

    static func searchRuns(_ v: UInt32) -> UInt8 {
        let starts = UnicodeWidthTable.starts
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= v { lo = mid } else { hi = mid - 1 }
        }
        return UnicodeWidthTable.values[lo]
    }

    /// The cells `scalar` takes on its own: 2 for wide characters and emoji, 0 for what joins
    /// the glyph before it or is dropped, 1 for the rest (control characters included, which
    /// show as a blank cell).
    public static func width(of scalar: Unicode.Scalar) -> Int {
        switch properties(scalar.value) & kindMask {
        case wide: 2
        case zero, dropped: 0
        default: 1
        }
    }

    /// True when `scalar` takes two cells on its own. Cheap for everything below U+1100,
    /// where no wide character is.
    @inline(__always) static func isWide(_ v: UInt32) -> Bool {
        v >= 0x1100 && properties(v) & kindMask == wide
    }

    /// The cells the widest line of `text` takes.
    public static func width(_ text: String) -> Int {
        width(text[...])
    }

    /// The cells the widest line of `text` takes.
    public static func width(_ text: Substring) -> Int {
        var widest = 0
        var current = 0
        var glyphs = TextGlyphs(text)
        while let g = glyphs.next() {
            if g.isNewline {
                widest = max(widest, current)
                current = 0
            } else {
                current += g.width
            }
        }
        return max(widest, current)
    }

    /// The longest start of `text` (of its first line) that takes at most `cells` cells, cut
    /// between glyphs, and the cells it takes.
    public static func prefix(_ text: String, cells: Int) -> (text: Substring, width: Int) {
        prefix(text[...], cells: cells)
    }

    /// The longest start of `text` (of its first line) that takes at most `cells` cells, cut
    /// between glyphs, and the cells it takes. The part shares `text`'s indices.
    public static func prefix(_ text: Substring, cells: Int) -> (text: Substring, width: Int) {
        var used = 0
        var end = text.startIndex
        var glyphs = TextGlyphs(text)
        while let g = glyphs.next() {
            if g.isNewline || used + g.width > cells { break }
            used += g.width
            end = g.end
        }
        return (text[text.startIndex..<end], used)
    }

    /// The glyphs of `text` (one line) and the cells each takes, as text is drawn: what is
    /// dropped is left out, and a control character is a one-cell glyph of its own.
    public static func glyphs(_ text: String) -> [(text: Substring, width: Int)] {
        var out: [(text: Substring, width: Int)] = []
        var glyphs = TextGlyphs(text)
        while let g = glyphs.next(), !g.isNewline {
            out.append((text[g.start..<g.end], g.width))
        }
        return out
    }

    /// `text` (one line) if it takes at most `cells` cells; otherwise its longest start that
    /// fits together with `ellipsis`, then the ellipsis. Nothing when `cells` is 0 or less.
    public static func fit(_ text: String, cells: Int, ellipsis: String = "…") -> String {
        guard cells > 0 else { return "" }
        if width(text) <= cells, !text.contains("\n") { return text }
        let mark = width(ellipsis)
        guard mark <= cells else { return String(prefix(ellipsis, cells: cells).text) }
        return String(prefix(text, cells: cells - mark).text) + ellipsis
    }
}
