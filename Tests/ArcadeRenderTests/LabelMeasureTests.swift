import Testing
@testable import ArcadeRender

/// Measuring a label's text: the same sizes as the pieces it is drawn from, found without
/// building them, and stopped early for a text far too large or when told to stop.
@Suite struct LabelMeasureTests {
    /// The size as the label draws it: each line's pieces, lines split as a string splits.
    static func drawnSize(_ font: BlockFont, _ text: String, outlined: Bool) -> (Int, Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let width = lines.map { font.lineWidth(font.pieces($0)) }.max() ?? 0
        let border = outlined ? 2 : 0
        return (width + border, lines.count * font.glyphHeight + (lines.count - 1) * font.spacing + border)
    }

    static let texts = [
        "", "A", "GAME OVER", "x 12", "café", "cafe\u{301}", "火箭 x 3", "é\né", "\n", "AB\n\nC\n",
        "a\r\nb", "\r\n\r\n", "é\r\né", "\u{1}A\u{7}", "❤\u{FE0F}", "e\u{301}\u{302}\u{303}", "A\u{200B}B",
        "🇫🇷 WIN", "x\u{301}", "\u{301}A", "abc\ndefgh\u{7F}", "tab\there",
    ]

    @Test(arguments: texts)
    func measureAgreesWithTheDrawnPieces(_ text: String) {
        for font in [BlockFont.small, BlockFont.large] {
            for outlined in [false, true] {
                let expected = Self.drawnSize(font, text, outlined: outlined)
                let got = font.size(of: text, outlined: outlined)
                #expect(got.width == expected.0 && got.height == expected.1, "\(font.name) \(outlined): \(got) vs \(expected)")
                #expect(font.measure(text, outlined: outlined, limit: 4096, stop: { false })
                        == .size(width: expected.0, height: expected.1))
            }
        }
    }

    @Test func aTextFarTooLargeIsRefusedAfterThePartThatAlreadyIs() {
        var asked = 0
        let wide = BlockFont.large.measure(String(repeating: "W", count: 1 << 20), limit: 4096) {
            asked += 1
            return false
        }
        guard case .tooLarge(let width, _) = wide else { Issue.record("\(wide)"); return }
        #expect(width > 4096 && width < 4200)
        #expect(asked < 4096 / BlockFont.glyphsBetweenStops + 1)
        let tall = BlockFont.small.measure(String(repeating: "1\n", count: 1 << 19), limit: 4096, stop: { false })
        guard case .tooLarge(_, let height) = tall else { Issue.record("\(tall)"); return }
        #expect(height > 4096 && height < 4200)
    }

    @Test func measuringStopsWhenToldTo() {
        var asked = 0
        let text = String(repeating: "é\n", count: 300) + String(repeating: "é", count: 3000)
        let result = BlockFont.large.measure(text, limit: 4096) {
            asked += 1
            return asked == 2
        }
        #expect(result == .stopped)
        #expect(asked == 2)
    }
}
