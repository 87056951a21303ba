import Foundation
import Testing
import ArcadeCore
import ArcadeRender
import ArcadeTerminal
@testable import ArcadeHost

/// The save file's troubles reach the screen while the arcade runs, as a short notice along
/// the bottom, not only on stderr after quitting.
@Suite(.serialized) struct SaveNoticeScreenTests {
    /// The arcade playing `game` with saves in `store`, on a pseudo-terminal.
    func playing(_ game: ScratchGame, store: SaveStore) throws -> (ArcadeApp, PseudoTerminal) {
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        var options = ArcadeApp.Options(catalog: GameCatalog(searchDirs: [game.root]))
        options.gameID = "scratch"
        options.seed = 3
        options.store = store
        let app = ArcadeApp(options: options, terminal: try Terminal(input: pty.secondary, output: pty.secondary))
        app.start(try #require(game.entry))
        return (app, pty)
    }

    /// The screen's last three rows as text.
    func bottom(_ app: ArcadeApp) -> String {
        app.composeFrame()
        let lines = app.frame.plainLines { _ in true }
        return lines.suffix(3).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    @Test func aFileMovedAsideAtStartIsToldOnTheGamesScreen() throws {
        let dir = ScratchFolder()
        dir.write("arcade.sqlite", Array(String(repeating: "not a database at all ", count: 40).utf8))
        let store = SaveStore(location: .file(dir.database))
        let (app, tty) = try playing(try SaveTroubleTests.saverGame(), store: store)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        let text = bottom(app)
        // a long path is cut where the line ends: read the text without the spaces
        let squeezed = text.replacingOccurrences(of: " ", with: "")
        #expect(squeezed.contains("Thesavefilewasdamaged:itwasmovedto\(dir.database).corrupt-1"), "\(text)")
        #expect(text.hasSuffix("and a new one was started."))
        #expect(app.frame[0, 23].background == SaveNoticeBar.background)
    }

    @Test func aDiskFillingUpDuringPlayIsToldWhileTheGameGoesOn() throws {
        let dir = ScratchFolder()
        let store = SaveStore(location: .file(dir.database), limits: .init(), pageLimit: 16)
        let (app, tty) = try playing(try SaveTroubleTests.saverGame(), store: store)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        #expect(!bottom(app).contains("Saves are kept in memory"))
        for _ in 0..<60 { app.step() }
        #expect(app.session?.failure == nil)
        #expect(app.card == nil)
        #expect(bottom(app).contains("Saves are kept in memory until you quit: the disk is full."))
        #expect(try app.session?.state()["misread"] == .int(0))
    }

    /// Each notice stays a few seconds, then the next one shows; then the bar is gone.
    @Test func noticesShowOneAfterAnotherThenGo() {
        let store = SaveStore(location: .memory)
        store.notices = [SaveNotice(message: "first, in full", short: "first"),
                         SaveNotice(message: "second, in full", short: "second " + String(repeating: "word ", count: 60))]
        let bar = SaveNoticeBar()
        var frame = Frame(columns: 80, rows: 24)
        bar.update(from: store, now: 100)
        #expect(bar.showing?.short == "first")
        bar.update(from: store, now: 100 + SaveNoticeBar.seconds - 0.1)
        #expect(bar.showing?.short == "first")
        bar.update(from: store, now: 100 + SaveNoticeBar.seconds)
        #expect(bar.showing?.message == "second, in full")
        bar.draw(on: &frame)
        // wrapped to three lines at most, the last one cut with an ellipsis
        let lines = frame.plainLines { _ in true }
        #expect(lines[20].trimmingCharacters(in: .whitespaces).isEmpty)
        #expect(lines[21].hasPrefix(" second word"))
        #expect(lines[23].trimmingCharacters(in: .whitespaces).hasSuffix("…"))
        bar.update(from: store, now: 100 + 2 * SaveNoticeBar.seconds)
        #expect(bar.showing == nil)
    }
}
