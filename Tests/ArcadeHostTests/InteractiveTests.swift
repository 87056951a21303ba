import Foundation
import Testing
import ArcadeCore
import ArcadeRender
import ArcadeTerminal
import ArcadeTestSupport
@testable import ArcadeHost
import ArcadeLua

/// The repository's `games/` folder.
private let repoGames: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/games"
}()

/// A pseudo-terminal pair of a given size: the arcade's side (`secondary`) and the side a
/// terminal emulator would hold (`primary`).
final class PseudoTerminal {
    let primary: Int32
    let secondary: Int32

    init(cols: Int, rows: Int) throws {
        (primary, secondary) = try TerminalProcess.openPseudoTerminal(cols: cols, rows: rows)
    }

    func resize(cols: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(cols), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(primary, UInt(TIOCSWINSZ), &size)
    }

    /// The line discipline's modes now.
    var modes: termios {
        var t = termios()
        _ = tcgetattr(secondary, &t)
        return t
    }

    /// Reads what the program wrote until `done` holds for all of it or `seconds` pass.
    func read(into buffer: inout [UInt8], seconds: Double = 10, until done: ([UInt8]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var chunk = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            if done(buffer) { return true }
            var p = pollfd(fd: primary, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { Glibc.read(primary, $0.baseAddress, $0.count) }
            if n > 0 { buffer += chunk[0..<n] } else if n < 0 && errno != EINTR && errno != EAGAIN { break }
        }
        return done(buffer)
    }

    func type(_ bytes: String) {
        var b = Array(bytes.utf8)
        _ = b.withUnsafeMutableBytes { write(primary, $0.baseAddress, $0.count) }
    }

    deinit {
        close(secondary)
        close(primary)
    }
}

extension Array where Element == UInt8 {
    func contains(_ text: String, from start: Int = 0) -> Bool {
        let needle = Array(text.utf8)
        guard count - start >= needle.count else { return false }
        return (start...(count - needle.count)).contains { i in self[i..<(i + needle.count)].elementsEqual(needle) }
    }
}

/// Compares `text` with `Fixtures/golden/<name>.txt` (`ARCADE_UPDATE_GOLDEN=1` writes it).
func expectHostGolden(_ text: String, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let dir = String(fixtureGames.dropLast("/games".count)) + "/golden"
    let path = "\(dir)/\(name).txt"
    let got = text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { line in String(line.reversed().drop { $0 == " " }.reversed()) }
        .joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["ARCADE_UPDATE_GOLDEN"] == "1" {
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(got.utf8))
        return
    }
    let want = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    #expect(want == got, "golden frame \(name) differs (ARCADE_UPDATE_GOLDEN=1 rewrites it); the frame was:\n\(got)",
            sourceLocation: sourceLocation)
}

/// The interactive arcade driven in-process on a pseudo-terminal: events handed to it as the
/// terminal layer would decode them, steps run one at a time, frames composed and read.
@Suite(.serialized) struct InteractiveAppTests {
    static func app(games: String, id: String?, cols: Int = 80, rows: Int = 24) throws -> (ArcadeApp, PseudoTerminal) {
        let pty = try PseudoTerminal(cols: cols, rows: rows)
        var o = ArcadeApp.Options(catalog: GameCatalog(searchDirs: [games]))
        o.gameID = id
        o.seed = 5
        let app = ArcadeApp(options: o, terminal: try Terminal(input: pty.secondary, output: pty.secondary))
        if let id { app.start(try #require(o.catalog.game(id))) }
        return (app, pty)
    }

    static func click(_ col: Int, _ row: Int) -> [InputEvent] {
        [.mouse(MouseEvent(.press, col: col, row: row)), .mouse(MouseEvent(.release, col: col, row: row))]
    }

    static func text(_ app: ArcadeApp) -> String {
        app.composeFrame()
        let background = app.session?.scene.background ?? .black
        return app.frame.plainLines { $0 == background }.joined(separator: "\n")
    }

    var isPaused: (ArcadeApp) -> Bool = { app in
        if case .pause? = app.card { return true }
        return false
    }

    @Test(arguments: ["ballcatch", "coinbank", "fishing", "giftcombo", "lastcircle"])
    func thePauseMarkOpensTheCardInEveryBundledGame(id: String) throws {
        for (cols, rows) in [(80, 24), (160, 50)] {
            let (app, tty) = try Self.app(games: repoGames, id: id, cols: cols, rows: rows)
            defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
            for _ in 0..<30 { app.step() }
            app.composeFrame()
            // drawn over the game in the top-right corner, whatever the game draws there
            #expect(app.frame[cols - 2, 0].character == "▌" && app.frame[cols - 1, 0].character == "▌")
            #expect(app.card == nil)
            let frameBefore = try #require(app.session).frame
            app.handle(Self.click(cols - 2, 0))
            #expect(isPaused(app), "\(id) at \(cols)x\(rows)")
            #expect(Self.text(app).contains("PAUSED"))
            // paused: steps do not move game time
            for _ in 0..<10 { app.step() }
            #expect(try #require(app.session).frame == frameBefore)
            // the card follows the pointer: hovering "back to menu" highlights it
            let slots = CardView.choiceLayout(CardView.pauseChoices, box: CardView.box(
                cols: cols, rows: rows, w: 64, h: CardView.pauseHeight(controls: app.playing?.manifest?.controls.count ?? 0)))
            app.handle([.mouse(MouseEvent(.move, col: slots[2].col + 1, row: slots[2].row))])
            if case .pause(let selected)? = app.card { #expect(selected == 2) } else { Issue.record("card closed") }
            // resume by a click on "resume"
            app.handle(Self.click(slots[0].col + 1, slots[0].row))
            #expect(app.card == nil)
        }
    }

    /// `hide_on_pause = true` in a manifest: Esc and Ctrl-Z both bring up a card with nothing
    /// of the game around it; without it, the game stays in view around the card.
    @Test func aGameThatAsksIsHiddenWholeUnderItsPauseCard() throws {
        let board = """
            local game = {}
            function game.load(ctx)
              for row = 0, ctx.rows - 1 do
                arcade.scene.text{ x = 0, y = row * 2, anchor_x = 0, anchor_y = 0, text = string.rep("O", ctx.cols) }
              end
            end
            return game
            """
        for hides in [true, false] {
            let game = try ScratchGame(files: ["main.lua": board])
            try game.write("manifest.lua", """
                return { id = "scratch", title = "Scratch", description = "a board", author = "tests", version = "0",
                         api = 1, hide_on_pause = \(hides) }
                """)
            for pause in [KeyEvent("esc"), KeyEvent("z", modifiers: .ctrl)] {
                let (app, tty) = try Self.app(games: game.root, id: "scratch")
                defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
                app.step()
                #expect(Self.text(app).contains("OOOO"))
                app.handle([.key(pause)])
                #expect(isPaused(app))
                let text = Self.text(app)
                #expect(text.contains("PAUSED"))
                #expect(text.contains("O") == !hides, "hide_on_pause = \(hides), paused by \(pause.key): \(text)")
            }
        }
    }

    /// A key the game holds down when the pause card opens is released to the game when its
    /// release comes under the card, and on Ctrl-Z: it gets the release when play goes on.
    @Test func aKeyReleasedUnderTheCardIsReleasedInTheGame() throws {
        let game = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.update() game.state.left = arcade.is_down("left") end
            return game
            """])
        let (app, tty) = try Self.app(games: game.root, id: "scratch")
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.handle([.key(KeyEvent("left"))])
        app.step()
        #expect(try app.session?.state()["left"] == .bool(true))
        app.handle([.key(KeyEvent("esc"))])
        #expect(isPaused(app))
        app.handle([.keyUp(KeyEvent("left")), .keyUp(KeyEvent("esc"))])
        app.handle([.key(KeyEvent("esc"))])  // resumes
        #expect(app.card == nil)
        app.step()
        #expect(try app.session?.state()["left"] == .bool(false))
    }

    @Test func aClickElsewhereStillReachesTheGame() throws {
        let (app, tty) = try Self.app(games: fixtureGames, id: "tiny")
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.handle(Self.click(10, 5))
        app.step()
        #expect(app.card == nil)
        guard case .array(let clicks)? = try app.session?.state()["clicks"] else {
            Issue.record("no clicks in state")
            return
        }
        #expect(!clicks.isEmpty)
    }

    /// Under `arcade play <id>` (and `dev`), "back to menu" on the pause card opens the menu of
    /// the same games, from which the game plays again and `q` quits; the error card's too.
    @Test func backToMenuUnderPlayOpensTheMenu() throws {
        let (app, tty) = try Self.app(games: fixtureGames, id: "tiny")
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.step()
        app.handle([.key(KeyEvent("esc"))])
        #expect(isPaused(app))
        app.handle([.key(KeyEvent("b"))])
        #expect(!app.quit)
        #expect(app.screen == .menu && app.session == nil && app.card == nil)
        app.composeFrame()
        let menu = app.frame.plainLines { $0 == Color(rgb: 0x0B0E1A) }.joined(separator: "\n")
        #expect(menu.contains("Crashy") && menu.contains("enter play"), "\(menu)")
        #expect(app.options.catalog.entries[app.menu.selected].id == "tiny")
        // the game left is the one highlighted: Enter plays it again
        app.handle([.key(KeyEvent("enter"))])
        #expect(app.screen == .playing && app.playing?.id == "tiny" && app.session != nil)
        app.step()
        // by a click on the card's "back to menu" this time
        app.handle([.key(KeyEvent("esc"))])
        let slots = CardView.choiceLayout(CardView.pauseChoices, box: CardView.box(
            cols: 80, rows: 24, w: 64, h: CardView.pauseHeight(controls: app.playing?.manifest?.controls.count ?? 0)))
        app.handle(Self.click(slots[2].col + 1, slots[2].row))
        #expect(!app.quit && app.screen == .menu)
        // a game that fails: its error card's "back to menu" opens the menu too
        let crashy = try #require(app.options.catalog.game("crashy"))
        app.start(crashy)
        for _ in 0..<120 where app.card == nil { app.step() }
        guard case .error? = app.card else {
            Issue.record("crashy did not fail")
            return
        }
        app.handle([.key(KeyEvent("esc"))])
        #expect(!app.quit && app.screen == .menu)
        app.handle([.key(KeyEvent("q"))])
        #expect(app.quit)
    }

    /// A mouse-only player quits from the menu by a click on the footer's "quit", at the
    /// smallest size and a large one; a click elsewhere on the footer does not quit.
    @Test func aClickOnQuitInTheMenuQuits() throws {
        for (cols, rows) in [(80, 24), (160, 50)] {
            let (app, tty) = try Self.app(games: fixtureGames, id: nil, cols: cols, rows: rows)
            defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
            let lines = Self.text(app).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let l = app.menu.layout
            #expect(l.quitWidth > 0, "no quit at \(cols)x\(rows)")
            let footer = Array(lines[l.footerRow])
            #expect(String(footer[l.quitCol..<(l.quitCol + l.quitWidth)]).contains("quit"), "\(lines[l.footerRow])")
            app.handle(Self.click(l.left + 1, l.footerRow))
            #expect(!app.quit)
            app.handle([.mouse(MouseEvent(.move, col: l.quitCol + 2, row: l.footerRow))])
            #expect(app.menu.quitHovered)
            app.handle(Self.click(l.quitCol + 2, l.footerRow))
            #expect(app.quit, "\(cols)x\(rows)")
        }
    }

    static let layoutGame = """
        local game = {}
        local function lay_out(w, h)
          game.box.x, game.box.y, game.box.width, game.box.height = w - 12, h - 8, 10, 6
          game.label.x, game.label.y = 2, 2
          game.label.text = "laid out for " .. w .. " x " .. h
          game.state.laid = { w, h }
        end
        function game.load(ctx)
          arcade.scene.background("#203050")
          game.box = arcade.scene.rect{ x = 0, y = 0, width = 1, height = 1, color = "#ffb300" }
          game.label = arcade.scene.text{ x = 0, y = 0, anchor_x = 0, anchor_y = 0, text = "", color = "white" }
          lay_out(ctx.width, ctx.height)
        end
        function game.input(e)
          if e.type == "resize" then lay_out(e.width, e.height) end
        end
        return game
        """

    @Test func aResizeUnderThePauseCardLaysTheGameOutAgainWithoutMovingTime() throws {
        let game = try ScratchGame(files: ["main.lua": Self.layoutGame])
        let (app, tty) = try Self.app(games: game.root, id: "scratch")
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        for _ in 0..<5 { app.step() }
        app.handle([.key(KeyEvent("esc"))])
        #expect(isPaused(app))
        let frame = try #require(app.session).frame
        app.handle([.resize(cols: 100, rows: 30)])
        #expect(try app.session?.state()["laid"] == .array([.int(100), .int(60)]))
        #expect(try #require(app.session).frame == frame)
        let text = Self.text(app)
        #expect(app.frame.columns == 100 && app.frame.rows == 30)
        expectHostGolden(text, "paused-resized-100x30")
    }

    @Test func manyResizesInOneReadReachTheGameOnceWhetherPausedOrPlaying() throws {
        let game = try ScratchGame(files: ["main.lua": SessionDriverTests.resizeCounter])
        let (app, tty) = try Self.app(games: game.root, id: "scratch")
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        let burst: [InputEvent] = (0..<100_000).map { $0 % 2 == 0 ? .resize(cols: 100, rows: 30) : .resize(cols: 90, rows: 28) }
        app.handle(burst)
        app.step()
        #expect(try app.session?.state()["resizes"] == .int(1))
        #expect(try app.session?.state()["size"] == .array([.int(90), .int(56)]))
        app.handle([.key(KeyEvent("esc"))])
        #expect(isPaused(app))
        app.handle(burst)
        #expect(try app.session?.state()["resizes"] == .int(2))
        #expect(try app.session?.state()["size"] == .array([.int(90), .int(56)]))
        #expect(app.size.cols == 90 && app.size.rows == 28)
    }

    @Test func menuMarksABrokenGameAndShowsItsErrorOnEnter() throws {
        let root = NSTemporaryDirectory() + "arcade-menu-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        for i in 1...8 {
            let dir = root + "/game\(i)"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            let title = i == 3 ? "42" : "\"Game number \(i)\""
            try "return { id = \"game\(i)\", title = \(title), description = \"the game numbered \(i)\", author = \"tests\", version = \"1\", api = 1 }"
                .write(toFile: dir + "/manifest.lua", atomically: true, encoding: .utf8)
            try "return {}".write(toFile: dir + "/main.lua", atomically: true, encoding: .utf8)
        }
        let menu = MenuScreen(catalog: GameCatalog(searchDirs: [root]))
        var frame = Frame(columns: 80, rows: 24)
        menu.render(cols: 80, rows: 24, into: &frame)
        let sky = Color(rgb: 0x0B0E1A)
        let top = frame.plainLines { $0 == sky }.joined(separator: "\n")
        #expect(top.contains("✗ game3  broken: game3/manifest.lua: field 'title' must be a string"))
        #expect(top.contains("▼ \(8 - menu.layout.visible) more below") && !top.contains("more above"))
        expectHostGolden(top, "menu-top")
        for _ in 0..<4 { _ = menu.handle(.key(KeyEvent("down"))) }
        menu.render(cols: 80, rows: 24, into: &frame)
        let scrolled = frame.plainLines { $0 == sky }.joined(separator: "\n")
        #expect(scrolled.contains("more above") && scrolled.contains("more below"))
        expectHostGolden(scrolled, "menu-scrolled")
        // Enter on the broken row shows why instead of starting it
        menu.render(cols: 80, rows: 24, into: &frame)
        while menu.selected != 2 { _ = menu.handle(.key(KeyEvent("up"))) }
        guard case .showProblem(let entry) = menu.handle(.key(KeyEvent("enter"))) else {
            Issue.record("enter on a broken game did not show its problem")
            return
        }
        #expect(entry.id == "game3")
        // no star is drawn on a row of text
        let lines = frame.plainLines { $0 == sky }
        #expect(lines.contains { $0.contains("▀") || $0.contains("▄") }, "no stars at all")
        for line in lines where line.contains("Game number") || line.contains("the game numbered") {
            #expect(!line.contains("▀") && !line.contains("▄"), "a star behind: \(line)")
        }
    }

    @Test func theMenuUsesALargeWindow() throws {
        let menu = MenuScreen(catalog: GameCatalog(searchDirs: [fixtureGames]))
        let small = menu.makeLayout(cols: 80, rows: 24), large = menu.makeLayout(cols: 160, rows: 50)
        #expect(small.logoScale == 1 && large.logoScale == 2)
        #expect(large.width > small.width && large.pitch == 3)
        // centred across
        #expect(abs((160 - large.width) / 2 - large.left) <= 1)
    }

    /// A card hides the game under it: every pixel inside its border is the panel's or the
    /// card's own, whatever was drawn there before (a translucent panel let a bright game show
    /// through as blotches once colours were cut to 256).
    @Test func cardsHideTheGameBehindThem() {
        for paused in [true, false] {
            let canvas = Canvas(columns: 80, rows: 24, background: Color(rgb: 0xFFD000))
            if paused {
                CardView.pause(on: canvas, title: "Fishing", selected: 0)
            } else {
                CardView.error(on: canvas, error: LuaError(kind: .runtime, message: "main.lua:3: boom"), selected: 0)
            }
            let b = CardView.box(cols: 80, rows: 24, w: 64, h: paused ? CardView.pauseHeight(controls: 0) : 16)
            var panel = 0
            for y in (b.y * 2 + 1)..<((b.y + b.h) * 2 - 1) {
                for x in (b.x + 1)..<(b.x + b.w - 1) {
                    let p = canvas.pixel(x: x, y: y)
                    #expect(p != Color(rgb: 0xFFD000), "(\(x), \(y)) shows the game")
                    if p == CardView.panel { panel += 1 }
                }
            }
            #expect(panel > (b.w - 2) * (b.h * 2 - 2) / 2)
        }
    }

    /// A game whose manifest says `hide_on_pause` is covered whole by its pause card: no
    /// pixel of the board shows anywhere, inside the card or around it.
    @Test func aCoveringPauseCardHidesTheWholeGame() {
        let board = Color(rgb: 0xFFD000)
        for (cols, rows) in [(80, 24), (160, 50)] {
            let canvas = Canvas(columns: cols, rows: rows, background: board)
            CardView.pause(on: canvas, title: "Last Circle", selected: 0, covered: true)
            var shown = 0
            for y in 0..<canvas.height {
                for x in 0..<canvas.width where canvas.pixel(x: x, y: y) == board { shown += 1 }
            }
            #expect(shown == 0, "\(cols)x\(rows): \(shown) pixels of the game show")
            // the plain card leaves the game around it in view
            let plain = Canvas(columns: cols, rows: rows, background: board)
            CardView.pause(on: plain, title: "Fishing", selected: 0)
            #expect(plain.pixel(x: 0, y: 0) == board)
        }
    }

    @Test func theTooSmallCardWrapsDownToTwentyByTen() {
        var frame = Frame(columns: 20, rows: 10)
        CardView.tooSmall(cols: 20, rows: 10, need: (80, 24)).render(into: &frame)
        let text = frame.plainLines { _ in true }.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(text.joined(separator: " ") == "make the window at least 80 x 24 (now 20 x 10; q quits)", "\(text)")
        #expect(text.allSatisfy { $0.count <= 20 })
    }
}

/// Ctrl-Z and SIGTSTP suspend the arcade as a full-screen terminal program should: checked on
/// a pseudo-terminal with the real executable in a process group of its own (a shell's job).
@Suite(.serialized) struct SuspendTests {
    /// Starts `args` on `pty` as a shell starts a job; `environment` changes the test's own
    /// (a nil value removes the variable).
    static func spawn(_ pty: PseudoTerminal, _ args: [String], environment: [String: String?] = [:]) throws -> pid_t {
        var env = ProcessInfo.processInfo.environment
        env["TERM"] = "xterm-256color"
        env["XDG_DATA_HOME"] = NSTemporaryDirectory() + "arcade-suspend-\(getpid())"
        for (name, value) in environment { env[name] = value }
        return try TerminalProcess.spawn(args, terminal: pty.secondary, environment: env)
    }

    /// Waits (bounded) for the child to change state as `flags` asks; the raw status.
    static func wait(_ pid: pid_t, _ flags: Int32, pty: PseudoTerminal, output: inout [UInt8]) -> Int32? {
        for _ in 0..<200 {
            var status: Int32 = 0
            if waitpid(pid, &status, flags | WNOHANG) == pid { return status }
            _ = pty.read(into: &output, seconds: 0.05) { _ in false }
        }
        return nil
    }

    @Test func ctrlZAndSigtstpRestoreTheTerminalAndFgEntersAgain() throws {
        let arcade = try arcadeExecutable()
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        let cooked = pty.modes
        #expect(cooked.c_lflag & tcflag_t(ICANON) != 0)
        let pid = try Self.spawn(pty, [arcade, "play", "tiny", "--games", fixtureGames, "--seed", "1"])
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var out: [UInt8] = []
        #expect(pty.read(into: &out) { $0.contains("tiny: no keys yet") }, "the game never drew")
        pty.type("\u{1B}[?62c")  // answer the start-up query as a terminal would
        #expect(pty.modes.c_lflag & tcflag_t(ICANON) == 0, "not in raw mode")

        for how in ["ctrl-z", "SIGTSTP"] {
            let mark = out.count
            if how == "ctrl-z" { pty.type("\u{1A}") } else { kill(pid, SIGTSTP) }
            let stopped = try #require(Self.wait(pid, WUNTRACED, pty: pty, output: &out), "\(how): never stopped")
            #expect(stopped & 0xff == 0x7f, "\(how): not stopped (status \(stopped))")
            _ = pty.read(into: &out, seconds: 0.3) { _ in false }
            // the terminal is given back: screen, cursor and mouse restored, the modes cooked
            for piece in ["\u{1B}[?1049l", "\u{1B}[?25h", "\u{1B}[?1000l", "\u{1B}[?1003l"] {
                #expect(out.contains(piece, from: mark), "\(how): \(piece.debugDescription) not written")
            }
            let modes = pty.modes
            #expect(modes.c_lflag == cooked.c_lflag && modes.c_iflag == cooked.c_iflag && modes.c_oflag == cooked.c_oflag,
                    "\(how): the saved modes are not back")

            let resumed = out.count
            kill(pid, SIGCONT)
            // entered again and repainted in full, the game paused behind its card
            #expect(pty.read(into: &out) { $0.contains("\u{1B}[?1049h", from: resumed) && $0.contains("PAUSED", from: resumed) },
                    "\(how): not entered again after SIGCONT")
            #expect(out.contains("\u{1B}[?1003h", from: resumed) && out.contains("\u{1B}[?25l", from: resumed))
            #expect(pty.modes.c_lflag & tcflag_t(ICANON | ECHO) == 0, "\(how): not raw again")
            pty.type("\u{1B}")  // Esc resumes the game from its card
            _ = pty.read(into: &out, seconds: 0.3) { _ in false }
        }

        pty.type("\u{03}")  // Ctrl-C quits
        let exited = try #require(Self.wait(pid, 0, pty: pty, output: &out), "never quit")
        #expect(exited & 0x7f == 0 && (exited >> 8) & 0xff == 0, "exit status \(exited)")
        let modes = pty.modes
        #expect(modes.c_lflag == cooked.c_lflag)
    }
}
