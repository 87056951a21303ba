import ArcadeCore
import Testing
@testable import ArcadeRender

/// The width table against known characters, and the glyph rules built on it.
@Suite struct TextWidthTests {
    @Test func theTableFollowsUnicode15() {
        #expect(TextWidth.unicodeVersion == "15.0.0")
        // runs are in order and start at U+0000
        #expect(UnicodeWidthTable.starts.first == 0)
        #expect(zip(UnicodeWidthTable.starts, UnicodeWidthTable.starts.dropFirst()).allSatisfy { $0 < $1 })
        #expect(UnicodeWidthTable.starts.count == UnicodeWidthTable.values.count)
    }

    @Test(arguments: [
        // (text, cells)
        ("a", 1), ("~", 1), ("é", 1), ("ж", 1), ("ß", 1),
        ("中", 2), ("火箭", 4), ("主播小明送出火箭 x3", 19),  // CJK ideographs
        ("한", 2), ("한국어", 6),  // Hangul syllables
        ("あ", 2), ("カ", 2), ("ｶ", 1),  // hiragana, katakana, halfwidth katakana
        ("Ａ", 2), ("１", 2), ("\u{3000}", 2), ("、", 2),  // fullwidth forms, ideographic space and comma
        ("😀", 2), ("🚀", 2), ("🎉", 2), ("⌚", 2),  // emoji that are emoji by default
        ("❤", 1), ("❤\u{FE0F}", 2), ("☺", 1), ("☺\u{FE0F}", 2), ("1\u{FE0F}\u{20E3}", 2),  // text-style + VS16
        ("😀\u{FE0E}", 2),  // VS15 leaves a wide emoji as it is
        ("e\u{301}", 1), ("a\u{300}\u{301}\u{302}", 1), ("\u{1100}\u{1161}\u{11A8}", 2),  // marks, conjoining jamo
        ("👨\u{200D}👩\u{200D}👧", 2), ("❤\u{FE0F}\u{200D}🔥", 2),  // ZWJ sequences
        ("👍🏽", 2), ("🏽", 2),  // a skin tone joins an emoji; alone it is an emoji itself
        ("🇯🇵", 2), ("🇯🇵🇰🇷", 4), ("🇯", 1),  // regional indicators pair into flags
        ("a\u{200F}b", 2), ("a\u{202E}b\u{202C}", 2), ("\u{200B}", 0), ("so\u{AD}ft", 4), ("\u{FEFF}x", 1),  // dropped
        ("\u{2060}", 0), ("\u{3164}", 0), ("\u{E0041}", 0),  // word joiner, Hangul filler, a tag
        ("\u{600}1", 2),  // a prepended concatenation mark is a format character that shows
        ("a\tb", 3), ("\u{301}", 0),  // a control shows as a blank cell; a mark with nothing to join
        ("ab\n中文字", 6),  // the widest line
    ])
    func knownCharacters(_ text: String, _ cells: Int) {
        #expect(TextWidth.width(text) == cells, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func singleCodePoints() {
        #expect(TextWidth.width(of: "a") == 1)
        #expect(TextWidth.width(of: "中") == 2)
        #expect(TextWidth.width(of: "\u{301}") == 0)
        #expect(TextWidth.width(of: "\u{200D}") == 0)
        #expect(TextWidth.width(of: "\u{200F}") == 0)
        #expect(TextWidth.width(of: "\u{9}") == 1)
        #expect(TextWidth.width(of: "\u{20000}") == 2)  // CJK extension B, from the plane-2 search
        #expect(TextWidth.width(of: "\u{2FFFD}") == 2)  // unassigned in plane 2: wide by default
        #expect(TextWidth.width(of: "\u{E0100}") == 0)  // a variation selector in plane 14
        #expect(TextWidth.width(of: "\u{F0000}") == 1)  // private use
    }

    /// The generated table agrees with the Swift runtime's own Unicode data on every code point
    /// both know as of Unicode 15.0: marks take no cell, emoji by default two (regional
    /// indicators, emoji by default but not wide, pair instead), format characters are dropped.
    @Test func theTableAgreesWithTheRuntimesUnicodeData() {
        // Prepended_Concatenation_Mark: format characters that show (the runtime has no such property)
        let prepended: Set<UInt32> = [0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2,
                                      0x110BD, 0x110CD]
        var checked = 0
        var wrong: [String] = []
        for v in UInt32(0)...0x10FFFF {
            guard let s = Unicode.Scalar(v) else { continue }
            let p = s.properties
            guard let age = p.age, age.major < 15 || (age.major == 15 && age.minor == 0) else { continue }
            let width = TextWidth.width(of: s)
            let isRegional = v >= 0x1F1E6 && v <= 0x1F1FF
            switch p.generalCategory {
            case .nonspacingMark, .enclosingMark:
                if width != 0 { wrong.append("mark \(String(v, radix: 16)): \(width)") }
                checked += 1
            case .format where v != 0x200D && !prepended.contains(v):
                if width != 0 { wrong.append("format \(String(v, radix: 16)): \(width)") }
                checked += 1
            default:
                if p.isEmojiPresentation && !isRegional && width != 2 { wrong.append("emoji \(String(v, radix: 16)): \(width)") }
                if p.isEmojiPresentation { checked += 1 }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        #expect(checked > 3000)
    }

    @Test func prefixAndFitCutBetweenGlyphs() {
        #expect(TextWidth.prefix("主播小明", cells: 5).text == "主播")
        #expect(TextWidth.prefix("主播小明", cells: 5).width == 4)
        #expect(TextWidth.prefix("e\u{301}e\u{301}x", cells: 2).text == "e\u{301}e\u{301}")
        #expect(TextWidth.prefix("👨\u{200D}👩\u{200D}👧!", cells: 1).text == "")
        #expect(TextWidth.prefix("ab\ncd", cells: 9).text == "ab")
        #expect(TextWidth.fit("主播小明送出火箭", cells: 7) == "主播小…")
        #expect(TextWidth.fit("主播小明送出火箭", cells: 16) == "主播小明送出火箭")
        #expect(TextWidth.fit("主播小明送出火箭", cells: 2) == "…")
        #expect(TextWidth.fit("abc", cells: 0) == "")
        #expect(TextWidth.fit("abcdef", cells: 4, ellipsis: "...") == "a...")
        #expect(TextWidth.fit("abcdef", cells: 2, ellipsis: "...") == "..")
    }

    @Test func glyphsOfSeveralCodePointsAreStoredOnceByWidth() throws {
        let a = try #require(GlyphStore.shell.number(for: "e\u{301}".unicodeScalars, wide: false))
        let b = try #require(GlyphStore.shell.number(for: "e\u{301}".unicodeScalars, wide: false))
        let c = try #require(GlyphStore.shell.number(for: "❤\u{FE0F}".unicodeScalars, wide: true))
        #expect(a == b)
        #expect(GlyphStore.isStored(a) && !GlyphStore.isStoredWide(a))
        #expect(GlyphStore.isStoredWide(c) && GlyphStore.isWide(c))
        #expect(GlyphStore.text(of: c) == "❤\u{FE0F}")
        #expect(GlyphStore.text(of: GlyphStore.continuation) == nil)
    }

    @Test func aGlyphKeepsAtMostSixteenCodePoints() {
        var glyphs = TextGlyphs("a" + String(repeating: "\u{301}", count: 300) + "b")
        let first = glyphs.next()!
        #expect(first.width == 1)
        #expect(first.count == TextWidth.maximumScalarsPerGlyph)
        #expect(glyphs.kept(first).count == 16)
        #expect(glyphs.next()?.first == "b")
        #expect(glyphs.next() == nil)
    }
}
