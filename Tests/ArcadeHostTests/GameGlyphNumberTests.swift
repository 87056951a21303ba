import Testing
import ArcadeCore
import ArcadeLua
import ArcadeRender
@testable import ArcadeHost

/// A glyph of several code points (an accented letter written as a letter and a combining
/// mark) is held in a cell by a number; a game that draws tens of thousands of different
/// ones must not leave the menu, the cards or the next game without numbers for theirs.
@Suite struct GameGlyphNumberTests {
    /// Draws `perFrame` different glyphs of three code points a frame: a letter and two
    /// combining marks, none of them a glyph of two code points like "e" + U+0301.
    static let greedy = """
        local game = {}
        local n = 0
        function game.draw(gfx)
          for _ = 1, \(perFrame) do
            local base = 97 + n % 26
            local m1 = 0x300 + (n // 26) % 112
            local m2 = 0x300 + (n // (26 * 112)) % 112
            gfx.text(utf8.char(base, m1, m2), 0, 0)
            n = n + 1
          end
        end
        return game
        """
    static let perFrame = 6_000

    /// "café" with its "é" as "e" + U+0301, drawn at the top left.
    static let cafe = """
        local game = {}
        function game.draw(gfx) gfx.text("cafe\\u{301}", 0, 0) end
        return game
        """

    static func session(_ main: String) throws -> (ScratchGame, GameSession) {
        let game = try ScratchGame(files: ["main.lua": main])
        let session = try GameSession(entry: try #require(game.entry), options: .init(seed: 1))
        return (game, session)
    }

    /// The text of the first four cells of `frame`'s top row.
    static func firstWord(_ frame: Frame) -> String {
        (0..<4).map { frame[$0, 0].text }.joined()
    }

    @Test func aGameThatUsesUpItsGlyphNumbersChangesNoOtherText() throws {
        let (greedyGame, greedy) = try Self.session(Self.greedy)
        // more different glyphs than there are numbers of one width in all
        for _ in 0..<6 {
            greedy.step()
            _ = greedy.renderFrame()
        }
        #expect(greedy.failure == nil)

        // the host's own text (the menu, the cards) while that game runs
        var menu = Frame(columns: 10, rows: 1)
        menu.write("cafe\u{301}", column: 0, row: 0, foreground: .white, background: .black)
        #expect(Self.firstWord(menu) == "cafe\u{301}")

        // another game at the same time, and one after it ended
        let (otherGame, other) = try Self.session(Self.cafe)
        other.step()
        #expect(Self.firstWord(other.renderFrame()) == "cafe\u{301}")
        _ = other.close()
        _ = greedy.close()
        let (nextGame, next) = try Self.session(Self.cafe)
        next.step()
        #expect(Self.firstWord(next.renderFrame()) == "cafe\u{301}")
        _ = next.close()
        withExtendedLifetime((greedyGame, otherGame, nextGame)) {}
    }
}
