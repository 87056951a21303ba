import Foundation
import Testing
import ArcadeCore
import ArcadeRender
@testable import ArcadeHost

/// A game whose `main.lua` does not compile is marked broken when the catalog is built, with
/// its first error line, in the menu and in `arcade list`, before anyone opens it. The catalog
/// compiles `main.lua` and runs none of it.
@Suite struct BrokenMainTests {
    /// `badsyntax` (a function never closed) and `spinner` (compiles; would never end if run).
    static let games: String = {
        let file = String(#filePath)
        return String(file[..<file.lastIndex(of: "/")!]) + "/Fixtures/syntax-games"
    }()
    static let error = "badsyntax/main.lua:7: 'end' expected (to close 'function' at line 3) near <eof>"

    @Test func theCatalogMarksAMainThatDoesNotCompileWithoutRunningAny() throws {
        let catalog = GameCatalog(searchDirs: [Self.games])
        let bad = try #require(catalog.entry("badsyntax"))
        #expect(!bad.isPlayable && bad.mainDoesNotCompile)
        #expect(bad.problem == Self.error)
        #expect(bad.title == "Bad Syntax")
        // compiled, not run: the endless loop at its top level never ran
        let spinner = try #require(catalog.entry("spinner"))
        #expect(spinner.isPlayable && !spinner.mainDoesNotCompile)
    }

    @Test func theMenuListsItAsBrokenWithItsError() throws {
        let menu = MenuScreen(catalog: GameCatalog(searchDirs: [Self.games]))
        var frame = Frame(columns: 190, rows: 40)
        menu.render(cols: 190, rows: 40, into: &frame)  // wide enough for the whole line
        let text = frame.plainLines { $0 == Color(rgb: 0x0B0E1A) }.joined(separator: "\n")
        #expect(text.contains("✗ badsyntax  broken: \(Self.error)"), "\(text)")
        // Enter on it shows the whole error instead of starting it
        while menu.catalog.entries[menu.selected].id != "badsyntax" { _ = menu.handle(.key(KeyEvent("down"))) }
        guard case .showProblem(let entry) = menu.handle(.key(KeyEvent("enter"))) else {
            Issue.record("enter on a game that does not compile started it")
            return
        }
        #expect(entry.problem == Self.error)
    }

    @Test func listAndPlaySayItIsBrokenAndDevStillOpensIt() throws {
        let list = try runArcade(["list", "--games", Self.games])
        #expect(list.out.contains("badsyntax   (broken) \(Self.error)\n"), "\(list.out)")
        #expect(list.out.contains("spinner     Spinner: "))
        let play = try runArcade(["play", "badsyntax", "--games", Self.games, "--headless"])
        #expect(play.status == 2)
        #expect(play.err.contains("game 'badsyntax' cannot be played: \(Self.error)"), "\(play.err)")
        // dev opens it on its error, so that a saved fix carries it on (here it stops at the
        // missing terminal, past the lookup)
        let dev = try runArcade(["dev", "badsyntax", "--games", Self.games])
        #expect(!dev.err.contains("cannot be played"), "\(dev.err)")
    }
}
