import ArcadeCore
import Testing
@testable import ArcadeRender

@Suite struct FontTests {
    @Test func sizesAddGlyphsSpacingAndOutline() {
        // "x 12" in the large font: 5 + 1 + 3 + 1 + 5 + 1 + 5 = 21 wide, 7 tall; +2 outlined.
        #expect(BlockFont.large.size(of: "x 12") == (21, 7))
        #expect(BlockFont.large.size(of: "x 12", outlined: true) == (23, 9))
        // "GAME OVER": eight 5-wide letters, a 3-wide space, eight gaps.
        #expect(BlockFont.large.size(of: "GAME OVER").width == 51)
        #expect(BlockFont.small.size(of: "0123456789").width == 39)
        #expect(BlockFont.small.size(of: "AB\nC") == (7, 11))
    }

    @Test func everyPromisedCharacterHasItsOwnGlyph() {
        let wanted = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZx+-!?:./ "
        for font in [BlockFont.small, .large] {
            var drawings: Set<[Bool]> = []
            for s in wanted.unicodeScalars {
                let g = font.glyphs[s.value]
                #expect(g != nil, "\(font.name) lacks \(s)")
                if let g, s != " " { drawings.insert(g.bits) }
            }
            // No two characters share a drawing (the space is the only blank one).
            #expect(drawings.count == wanted.unicodeScalars.count - 1, "\(font.name)")
        }
    }

    @Test func lowercaseShowsAsCapitalsAndUnknownsAsTerminalGlyphs() {
        let font = BlockFont.small
        #expect(font.render("go", color: .white) == font.render("GO", color: .white))
        #expect(font.render("x", color: .white) != font.render("X", color: .white))
        // never a "?": the font has no "@", which leaves a one-cell box for the terminal's glyph
        #expect(font.render("@", color: .white) != font.render("?", color: .white))
        #expect(font.render("@", color: .white).pixels.allSatisfy { $0.a == 0 })
        #expect(font.fallbacks(in: "@", outlined: false).map(\.text) == ["@"])
    }

    @Test func multiLineTextIsCentred() {
        // "1" (3 wide) under "AB" (7 wide) starts at x = 2; the second line at y = 5 + 1.
        // Its first two rows are ".#." and "##.".
        let s = BlockFont.small.render("AB\n1", color: Palette.white)
        #expect(s.width == 7 && s.height == 11)
        #expect([s[2, 6], s[3, 6], s[4, 6]] == [.clear, Palette.white, .clear])
        #expect([s[1, 7], s[2, 7], s[3, 7], s[4, 7]] == [.clear, Palette.white, Palette.white, .clear])
    }

    @Test func fontsAreFoundByName() {
        #expect(BlockFont.named("small") == .small)
        #expect(BlockFont.named("large") == .large)
        #expect(BlockFont.named("huge") == nil)
    }
}
