import Testing
import ArcadeCore
import ArcadeRender
@testable import ArcadeHost

/// Every game tells the player its controls: its manifest lists them, `arcade check` has
/// nothing to warn about, and the pause card shows each of them whole at 80 x 24.
@Suite struct GameControlsTests {
    @Test(arguments: ["coinbank", "fishing", "giftcombo", "lastcircle", "ballcatch"])
    func pauseCardShowsTheGamesControls(id: String) throws {
        let entry = try #require(GameCatalog(searchDirs: [repoGames]).game(id))
        let controls = try #require(entry.manifest?.controls)
        #expect(controls.count >= 2, "a key and a mouse action at least")
        #expect(GameChecker.warnings(for: entry).isEmpty)

        let canvas = Canvas(columns: 80, rows: 24)
        canvas.clear()
        CardView.pause(on: canvas, title: entry.title, controls: controls, selected: 0)
        var frame = canvas.makeFrame()
        canvas.render(into: &frame)
        let rows = (0..<24).map { row in
            String(String.UnicodeScalarView((0..<80).map { column -> Unicode.Scalar in
                if case .glyph(let ch, _, _) = frame[column, row].appearance { return ch }
                return " "
            }))
        }
        for c in controls {
            #expect(rows.contains { $0.contains(c.input + "  " + c.action) }, "\(id): \(c.input) / \(c.action) not shown whole")
        }
    }
}
