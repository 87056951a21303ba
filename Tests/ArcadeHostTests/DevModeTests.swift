import Foundation
import Testing
import ArcadeCore
import ArcadeRender
import ArcadeTerminal
@testable import ArcadeHost
import ArcadeLua

/// `arcade dev` in the interactive arcade: `manifest.lua` edits reload, the hint on an error
/// of reloaded code that needs what `load` builds, and the console (F2).
@Suite(.serialized) struct DevModeTests {
    static func app(_ game: ScratchGame, logPath: String? = nil, cols: Int = 80, rows: Int = 24) throws -> (ArcadeApp, PseudoTerminal) {
        let pty = try PseudoTerminal(cols: cols, rows: rows)
        var o = ArcadeApp.Options(catalog: GameCatalog(searchDirs: [game.root]))
        o.gameID = "scratch"
        o.seed = 5
        o.dev = true
        o.logPath = logPath
        let app = ArcadeApp(options: o, terminal: try Terminal(input: pty.secondary, output: pty.secondary))
        app.start(try #require(o.catalog.game("scratch")))
        return (app, pty)
    }

    static func manifest(controls: String, extra: String = "") -> String {
        """
        return { id = "scratch", title = "Scratch", description = "edited by a test", author = "tests",
                 version = "0", api = 1, controls = { \(controls) }\(extra) }
        """
    }

    static let idle = """
        local game = {}
        function game.update() game.state.steps = (game.state.steps or 0) + 1 end
        return game
        """

    /// The screen's text: every block of colour as a space, so panels read as words.
    static func text(_ app: ArcadeApp) -> String {
        app.composeFrame()
        return app.frame.plainLines { _ in true }.joined(separator: "\n")
    }

    // MARK: manifest.lua

    @Test func aManifestEditReloadsItsControlsAndSizeAndNotTheCode() throws {
        let game = try ScratchGame(files: ["main.lua": Self.idle])
        try game.write("manifest.lua", Self.manifest(controls: #"{ "space", "jump" }"#))
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        app.handle([.key(KeyEvent("esc"))])
        #expect(Self.text(app).contains("jump"))

        try game.write("manifest.lua", Self.manifest(controls: #"{ "space", "fly high" }, { "x", "dive" }"#))
        app.checkForEdits()
        let text = Self.text(app)
        #expect(text.contains("fly high") && text.contains("dive") && !text.contains("jump"), "\(text)")
        #expect(app.session?.reloads == 0, "only the manifest changed: the code is not reloaded")

        // a larger min_size applies at once: this 80 x 24 window is now too small
        try game.write("manifest.lua", Self.manifest(controls: #"{ "x", "dive" }"#, extra: ", min_size = { 100, 30 }"))
        app.checkForEdits()
        #expect(app.tooSmall)
        #expect(Self.text(app).contains("make the window at least 100 x 30"))
    }

    @Test func aRestartStartsWithTheNewManifest() throws {
        let game = try ScratchGame(files: ["main.lua": Self.idle])
        try game.write("manifest.lua", Self.manifest(controls: #"{ "space", "jump" }"#))
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        try game.write("manifest.lua", Self.manifest(controls: #"{ "space", "fly high" }"#))
        app.checkForEdits()
        app.handle([.key(KeyEvent("esc")), .key(KeyEvent("right")), .key(KeyEvent("enter"))])  // restart
        #expect(app.card == nil)
        #expect(app.session?.frame == 0)
        app.handle([.key(KeyEvent("esc"))])
        #expect(Self.text(app).contains("fly high"))
    }

    @Test func aManifestThatDoesNotLoadKeepsTheOldOneAndShowsWhy() throws {
        let game = try ScratchGame(files: ["main.lua": Self.idle])
        try game.write("manifest.lua", Self.manifest(controls: #"{ "space", "jump" }"#))
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        try game.write("manifest.lua", "return { id = ")
        app.checkForEdits()
        var text = Self.text(app)
        #expect(text.contains("manifest reload failed (the old manifest stays):"), "\(text)")
        #expect(text.contains("scratch/manifest.lua"))
        #expect(app.playing?.manifest?.controls.first?.action == "jump")
        app.step()
        #expect(app.session?.failure == nil, "the game plays on")

        // another id is refused too: the saves are kept under the id
        try game.write("manifest.lua", Self.manifest(controls: "").replacingOccurrences(of: #"id = "scratch""#, with: #"id = "other""#))
        app.checkForEdits()
        #expect(Self.text(app).contains("the id cannot change"))

        try game.write("manifest.lua", Self.manifest(controls: #"{ "space", "fly high" }"#))
        app.checkForEdits()
        text = Self.text(app)
        #expect(!text.contains("reload failed"))
        #expect(app.playing?.manifest?.controls.first?.action == "fly high")
    }

    // MARK: the hint after a reload

    static func world(reads: Bool, loads: Bool) -> String {
        """
        local game = {}
        function game.load() \(loads ? "game.world = { count = 0 }" : "") end
        function game.update() \(reads ? "game.world.count = game.world.count + 1" : "") end
        return game
        """
    }

    static let hint = "load() did not run again"

    @Test func anErrorOfReloadedCodeThatNeedsWhatLoadBuildsSaysToRestart() throws {
        let game = try ScratchGame(files: ["main.lua": Self.world(reads: false, loads: false)])
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        try game.write("main.lua", Self.world(reads: true, loads: true))
        app.checkForEdits()
        #expect(app.session?.reloads == 1)
        app.step()
        let failure = try #require(app.session?.failure)
        #expect(failure.message.contains("attempt to index a nil value (field 'world')"))
        let text = Self.text(app)
        #expect(text.contains(Self.hint), "\(text)")
        #expect(text.contains("restart runs it"))

        // restart runs load: the new code has its world and runs
        app.handle([.key(KeyEvent("right")), .key(KeyEvent("enter"))])
        #expect(app.card == nil)
        for _ in 0..<3 { app.step() }
        #expect(app.session?.failure == nil)
        #expect(try app.session?.state() != nil)
    }

    @Test func theSameErrorWithoutAReloadHasNoHint() throws {
        let game = try ScratchGame(files: ["main.lua": Self.world(reads: true, loads: false)])
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        #expect(app.session?.failure?.message.contains("(field 'world')") == true)
        #expect(!Self.text(app).contains(Self.hint))

        // nor after a restart that followed a reload
        try game.write("main.lua", Self.world(reads: true, loads: false) + "\n-- edited")
        app.checkForEdits()
        app.step()
        #expect(Self.text(app).contains(Self.hint))
        app.handle([.key(KeyEvent("right")), .key(KeyEvent("enter"))])  // restart
        app.step()
        #expect(app.session?.reloads == 0)
        #expect(app.session?.failure != nil)
        #expect(!Self.text(app).contains(Self.hint))
    }

    // MARK: the console

    static let printer = """
        local game = {}
        function game.update()
          game.state.n = (game.state.n or 0) + 1
          print("line " .. game.state.n)
        end
        function game.input(e)
          if e.type == "key" then game.state.keys = (game.state.keys or "") .. e.key .. " " end
        end
        return game
        """

    @Test func f2ShowsWhatTheGamePrintedAtTheBottomAndTheGameNeverSeesIt() throws {
        let game = try ScratchGame(files: ["main.lua": Self.printer])
        let (app, tty) = try Self.app(game, logPath: "/tmp/state/arcade/arcade.log")
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        for _ in 0..<30 { app.step() }
        #expect(!Self.text(app).contains("line 30"))

        app.handle([.key(KeyEvent("f2")), .keyUp(KeyEvent("f2"))])
        app.step()
        var rows = Self.text(app).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows.count == 24)
        #expect(rows[23].contains("line 31"), "the newest line is at the bottom: \(rows)")
        #expect(rows[22].contains("line 30"))
        // a third of the screen: the header and seven lines
        #expect(rows[16].contains("log (F2 hides)") && rows[16].contains("/tmp/state/arcade/arcade.log"), "\(rows)")
        #expect(rows[17].contains("line 25"))
        #expect(!rows[15].contains("line"))
        #expect(app.frame[79, 0].character == "▌", "the pause mark stays")
        #expect(try app.session?.state()["keys"] == nil, "the game never gets F2")

        app.handle([.key(KeyEvent("f2"))])
        app.step()
        rows = Self.text(app).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(!rows.joined().contains("line"))
        app.handle([.key(KeyEvent("a"))])
        app.step()
        #expect(try app.session?.state()["keys"] == .string("a "))
    }

    @Test func theConsoleKeepsClearOfTheProfilerAndCards() throws {
        let game = try ScratchGame(files: ["main.lua": Self.printer])
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        for _ in 0..<30 { app.step() }
        app.handle([.key(KeyEvent("f2")), .key(KeyEvent("f3"))])
        let panelRows = ProfileOverlay.lines(app.profileReport, stats: try #require(app.session).stats).count
        var rows = Self.text(app).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[1].contains("profile (F3)"))
        #expect(rows[23].contains("line 30"))
        #expect(rows.firstIndex { $0.contains("log (F2") }.map { $0 >= ProfileOverlay.top + panelRows } == true)

        // the pause card keeps its rows; the console takes those under it
        app.handle([.key(KeyEvent("esc"))])
        rows = Self.text(app).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let resume = try #require(rows.firstIndex { $0.contains("resume") })
        let header = try #require(rows.firstIndex { $0.contains("log (F2") })
        #expect(header > resume + 1, "\(rows)")
        #expect(rows[23].contains("line 30"))
    }

    @Test func aFewLinesSitAtTheBottomOfAPanelOfFullHeight() throws {
        let game = try ScratchGame(files: ["main.lua": Self.printer])
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        app.handle([.key(KeyEvent("f2"))])
        let rows = Self.text(app).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(rows[16].contains("log (F2 hides)"), "\(rows)")
        #expect(rows[23].contains("line 1"))
        #expect(app.frame[0, 20].background == DevConsole.panel, "the rows between are the panel's")
    }

    @Test func errorsShowInTheConsole() throws {
        let game = try ScratchGame(files: ["main.lua": Self.printer])
        let (app, tty) = try Self.app(game)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        for _ in 0..<2 { app.step() }
        try game.write("main.lua", Self.printer.replacingOccurrences(of: "print(", with: "error("))
        app.checkForEdits()
        app.step()
        #expect(app.session?.failure != nil)
        _ = Self.text(app)
        let errors = app.console.lines.filter(\.isError).map(\.text)
        #expect(errors.contains { $0.contains("error: scratch/main.lua:4: line 3") && $0.contains("(in update)") }, "\(errors)")
        #expect(app.console.lines.prefix(2).map(\.text) == ["line 1", "line 2"])

        // a reload that does not compile is there too
        try game.write("main.lua", "local x = ")
        app.checkForEdits()
        _ = Self.text(app)
        #expect(app.console.lines.last?.text.hasPrefix("reload failed: scratch/main.lua:1:") == true)
    }

    @Test func theStartLineNamesTheLogAndTheKeys() {
        let line = DevMode.startLine(id: "dodge", folder: "/g/dodge", logPath: "/home/me/.local/state/arcade/arcade.log")
        #expect(line.contains("/home/me/.local/state/arcade/arcade.log"))
        #expect(line.contains("F2") && line.contains("F5"))
        #expect(line.contains("dodge"))
        #expect(DevMode.startLine(id: "dodge", folder: "/g/dodge", logPath: nil).contains("no log file"))
    }

    @Test func printAndF2AreTheGamesOutsideDev() throws {
        let game = try ScratchGame(files: ["main.lua": Self.printer])
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        var o = ArcadeApp.Options(catalog: GameCatalog(searchDirs: [game.root]))
        o.gameID = "scratch"
        let app = ArcadeApp(options: o, terminal: try Terminal(input: pty.secondary, output: pty.secondary))
        app.start(try #require(o.catalog.game("scratch")))
        app.handle([.key(KeyEvent("f2"))])
        app.step()
        #expect(try app.session?.state()["keys"] == .string("f2 "))
        #expect(!Self.text(app).contains("line 1"))
        #expect(app.console.lines.isEmpty)
    }
}
