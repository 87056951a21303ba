/// One glyph of a text: the code points one or two terminal cells show, as ``TextWidth``
/// groups them.
struct TextGlyph {
    /// Where it starts and ends in the text (dropped code points inside it included).
    var start: String.Index
    var end: String.Index
    /// Its first code point.
    var first: Unicode.Scalar
    /// How many code points it keeps (dropped ones and those past the limit not counted).
    var count: Int
    /// 1 or 2 cells; 0 only for a newline.
    var width: Int
    /// A control character: shows as a blank cell.
    var isControl: Bool
    /// `\n`: the line ends here.
    var isNewline: Bool { width == 0 }
}

/// Splits text into glyphs (``TextGlyph``), with the rules ``TextWidth`` states.
struct TextGlyphs: IteratorProtocol {
    private let scalars: Substring.UnicodeScalarView
    private var index: String.Index

    init(_ text: String) {
        self.init(Substring(text).unicodeScalars)
    }

    init(_ text: Substring) {
        self.init(text.unicodeScalars)
    }

    init(_ scalars: Substring.UnicodeScalarView) {
        self.scalars = scalars
        index = scalars.startIndex
    }

    mutating func next() -> TextGlyph? {
        // the first code point that starts a glyph: dropped ones and marks with nothing to
        // join are skipped
        var base: Unicode.Scalar = " "
        var baseProperties: UInt8 = 0
        var start = index
        while true {
            guard index < scalars.endIndex else { return nil }
            start = index
            base = scalars[index]
            scalars.formIndex(after: &index)
            let v = base.value
            if v >= 0x20 && v < 0x7F && (index == scalars.endIndex || scalars[index].value < 0x300) {
                // ASCII with nothing after it that could join it
                return TextGlyph(start: start, end: index, first: base, count: 1, width: 1, isControl: false)
            }
            if v == 0x0A { return TextGlyph(start: start, end: index, first: base, count: 1, width: 0, isControl: false) }
            baseProperties = TextWidth.properties(v)
            let kind = baseProperties & TextWidth.kindMask
            if kind == TextWidth.control {
                return TextGlyph(start: start, end: index, first: base, count: 1, width: 1, isControl: true)
            }
            if kind == TextWidth.narrow || kind == TextWidth.wide { break }
        }
        var glyph = TextGlyph(start: start, end: index, first: base, count: 1,
                              width: baseProperties & TextWidth.kindMask == TextWidth.wide ? 2 : 1, isControl: false)
        // what joins it
        var afterJoiner = false
        var regionals = baseProperties & TextWidth.regional != 0 ? 1 : 0
        while index < scalars.endIndex {
            let s = scalars[index]
            let v = s.value
            if v < 0x300 && v != 0xAD { break }  // nothing below U+0300 joins (U+00AD is dropped)
            let p = TextWidth.properties(v)
            let kind = p & TextWidth.kindMask
            let joins: Bool
            if kind == TextWidth.dropped {
                scalars.formIndex(after: &index)
                glyph.end = index
                continue
            } else if kind == TextWidth.zero {
                joins = true
                if v == 0xFE0F && baseProperties & TextWidth.emojiVS16 != 0 { glyph.width = 2 }
            } else if afterJoiner && p & TextWidth.pictographic != 0 && baseProperties & TextWidth.pictographic != 0 {
                joins = true
            } else if p & TextWidth.modifier != 0 && baseProperties & TextWidth.pictographic != 0 {
                joins = true
            } else if p & TextWidth.regional != 0 && regionals == 1 && glyph.count == 1 {
                joins = true
                regionals = 2
                glyph.width = 2
            } else {
                joins = false
            }
            guard joins else { break }
            afterJoiner = v == 0x200D
            scalars.formIndex(after: &index)
            glyph.end = index
            if glyph.count < TextWidth.maximumScalarsPerGlyph { glyph.count += 1 }
        }
        return glyph
    }

    /// What a cell holds to show `glyph`: its code point, or its number in `store` for a
    /// glyph of several; a space for a control character. Nil when no number can be had.
    func cellValue(_ glyph: TextGlyph, in store: GlyphStore) -> UInt32? {
        if glyph.isControl { return 0x20 }
        let first = glyph.first.value
        if glyph.count == 1 && first < GlyphStore.firstNarrow && (glyph.width == 2) == TextWidth.isWide(first) {
            return first
        }
        return store.number(for: kept(glyph), wide: glyph.width == 2)
    }

    /// The code points `glyph` keeps, dropped ones and those past the limit left out.
    func kept(_ glyph: TextGlyph) -> String.UnicodeScalarView {
        var out = String.UnicodeScalarView()
        appendKept(glyph, to: &out)
        return out
    }

    /// Appends the code points `glyph` keeps (``kept(_:)``) to `out`.
    func appendKept(_ glyph: TextGlyph, to out: inout String.UnicodeScalarView) {
        out.append(glyph.first)
        var n = 1
        var i = scalars.index(after: glyph.start)
        while i < glyph.end, n < glyph.count {
            let s = scalars[i]
            if TextWidth.properties(s.value) & TextWidth.kindMask != TextWidth.dropped {
                out.append(s)
                n += 1
            }
            scalars.formIndex(after: &i)
        }
    }
}
