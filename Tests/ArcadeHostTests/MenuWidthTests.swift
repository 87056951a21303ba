import Testing
import ArcadeCore
import ArcadeRender
@testable import ArcadeHost

/// The menu's list grows with the terminal, so wider screens show descriptions whole.
@Suite struct MenuWidthTests {
    static func menuText(_ cols: Int, _ rows: Int) -> String {
        let menu = MenuScreen(catalog: GameCatalog(searchDirs: [DefinitionsTests.repoRoot + "/games"]))
        var frame = Frame(columns: cols, rows: rows)
        menu.render(cols: cols, rows: rows, into: &frame)
        // (the chosen row's highlight shows its blanks as blocks: read them as blanks)
        return String(frame.plainLines { $0 == Color(rgb: 0x0B0E1A) }.joined(separator: "\n").map { $0 == "█" ? " " : $0 })
    }

    static var descriptions: [String] {
        GameCatalog(searchDirs: [DefinitionsTests.repoRoot + "/games"]).entries.compactMap { $0.manifest?.description }
    }

    @Test func everyBundledDescriptionShowsWholeAt160Columns() {
        let text = Self.menuText(160, 50)
        #expect(Self.descriptions.count == 5)
        for d in Self.descriptions {
            #expect(text.contains(d), "cut at 160 columns: \(d)")
        }
    }

    @Test func at100ColumnsTheListIsWiderThanAt80() {
        let d = Self.descriptions.filter { TextWidth.width($0) > 74 && TextWidth.width($0) <= 90 }
        #expect(!d.isEmpty, "no bundled description between 75 and 90 cells to show the difference")
        let narrow = Self.menuText(80, 24), wide = Self.menuText(100, 30)
        for one in d {
            #expect(!narrow.contains(one), "whole at 80 columns: \(one)")
            #expect(wide.contains(one), "cut at 100 columns: \(one)")
        }
        #expect(narrow.contains("…"))
    }
}
