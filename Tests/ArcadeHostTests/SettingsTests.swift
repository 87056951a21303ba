import Foundation
import Testing
import ArcadeCore
import ArcadeRender
import ArcadeTerminal
@testable import ArcadeHost
import ArcadeLua

/// The repository's `games/` folder.
private let bundledGames: String = {
    var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/games"
}()

/// Key remapping, game speed, and the settings card and its saving.
@Suite(.serialized) struct SettingsTests {
    static func app(games: String = fixtureGames, id: String?, store: SaveStore? = nil, cols: Int = 80, rows: Int = 24,
                    configure: (inout ArcadeApp.Options) -> Void = { _ in }) throws -> (ArcadeApp, PseudoTerminal) {
        let pty = try PseudoTerminal(cols: cols, rows: rows)
        var o = ArcadeApp.Options(catalog: GameCatalog(searchDirs: [games]))
        o.gameID = id
        o.seed = 5
        o.store = store
        configure(&o)
        let app = ArcadeApp(options: o, terminal: try Terminal(input: pty.secondary, output: pty.secondary))
        if let id { app.start(try #require(o.catalog.game(id))) }
        return (app, pty)
    }

    static let heldKeys = """
        local game = {}
        function game.load() game.state.keys = {} game.state.repeats = 0 end
        function game.input(e)
          if e.type == "key" then
            game.state.keys[#game.state.keys + 1] = e.key
            if e.is_repeat then game.state.repeats = game.state.repeats + 1 end
          end
        end
        function game.update()
          game.state.left = arcade.is_down("left")
          game.state.a = arcade.is_down("a")
        end
        return game
        """

    // MARK: Key remapping

    @Test func aMappedKeyReachesTheGameAsTheKeyItKnows() throws {
        let game = try ScratchGame(files: ["main.lua": Self.heldKeys])
        let store = SaveStore(location: .memory)
        var map = KeyMap()
        try map.map("a", to: "left")
        try store.saveKeyMap(map, game: "scratch")
        let (app, tty) = try Self.app(games: game.root, id: "scratch", store: store)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.handle([.key(KeyEvent("a"))])
        app.step()
        #expect(try app.session?.state()["left"] == .bool(true))
        #expect(try app.session?.state()["a"] == .bool(false))
        // a repeat is a repeat of the game's key, and the release lets it go
        app.handle([.key(KeyEvent("a", isRepeat: true))])
        app.step()
        #expect(try app.session?.state()["repeats"] == .int(1))
        app.handle([.keyUp(KeyEvent("a"))])
        app.step()
        #expect(try app.session?.state()["left"] == .bool(false))
        #expect(try app.session?.state()["keys"] == .array([.string("left"), .string("left")]))
        // a key held while the pause card opens is let go when its release comes under the card
        app.handle([.key(KeyEvent("a"))])
        app.step()
        app.handle([.key(KeyEvent("esc"))])
        app.handle([.keyUp(KeyEvent("a"))])
        app.handle([.key(KeyEvent("esc"))])
        app.step()
        #expect(try app.session?.state()["left"] == .bool(false))
        // the pause mark and Esc still pause
        app.handle([.key(KeyEvent("esc"))])
        if case .pause? = app.card {} else { Issue.record("esc did not pause: \(String(describing: app.card))") }
    }

    @Test func theArcadesKeysCannotBeRemappedAway() throws {
        var map = KeyMap()
        #expect(throws: KeyMap.Problem.self) { try map.map("esc", to: "space") }
        #expect(throws: KeyMap.Problem.self) { try map.map("j", to: "esc") }
        #expect(throws: KeyMap.Problem.self) { try map.map("nonsense", to: "space") }
        #expect(throws: KeyMap.Problem.self) { try map.map("j", to: "j") }
        try map.map("c", to: "space")
        try map.map("z", to: "enter")
        // Ctrl-C and Ctrl-Z are never taken by a mapping of c or z
        #expect(map.apply(.key(KeyEvent("c", modifiers: .ctrl))) == .key(KeyEvent("c", modifiers: .ctrl)))
        #expect(map.apply(.key(KeyEvent("z", modifiers: .ctrl))) == .key(KeyEvent("z", modifiers: .ctrl)))
        #expect(map.apply(.key(KeyEvent("c"))) == .key(KeyEvent("space")))
        // a saved mapping of a reserved key (written by hand) is dropped when read
        #expect(KeyMap(text: "esc=space c=space ==left").mapping == ["c": "space", "=": "left"])

        let game = try ScratchGame(files: ["main.lua": Self.heldKeys])
        let (app, tty) = try Self.app(games: game.root, id: "scratch")
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.keyMap = map
        app.handle([.key(KeyEvent("esc"))])
        if case .pause? = app.card {} else { Issue.record("esc no longer pauses") }
        app.handle([.key(KeyEvent("esc"))])
        app.handle([.key(KeyEvent("c", modifiers: .ctrl))])
        #expect(app.quit)
    }

    /// The settings card's remapping: "add a key", the player's key, then the game's.
    @Test func keysAreRemappedFromTheSettingsCardAndSavedUnderTheGame() throws {
        let game = try ScratchGame(files: ["main.lua": Self.heldKeys])
        let store = SaveStore(location: .memory)
        let (app, tty) = try Self.app(games: game.root, id: "scratch", store: store)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.handle([.key(KeyEvent("esc"))])
        app.handle([.key(KeyEvent("s"))])  // "settings"
        guard case .settings(let card, true)? = app.card else { Issue.record("no settings card"); return }
        let addKey = try #require(card.rows.firstIndex(of: .addKey))
        for _ in 0..<addKey { app.handle([.key(KeyEvent("down"))]) }
        // Esc while waiting for the player's key cancels
        app.handle([.key(KeyEvent("enter")), .key(KeyEvent("esc"))])
        guard case .settings(let waiting, true)? = app.card, waiting.capture == .none else {
            Issue.record("esc did not cancel: \(String(describing: app.card))")
            return
        }
        app.handle([.key(KeyEvent("enter")), .key(KeyEvent("j")), .key(KeyEvent("space"))])
        #expect(app.keyMap.mapping == ["j": "space"])
        #expect(store.keyMap(game: "scratch").mapping == ["j": "space"])
        #expect(store.keyMap(game: "other").isEmpty)
        // the pause card says so
        app.handle([.key(KeyEvent("esc"))])
        app.composeFrame()
        let text = app.frame.plainLines { $0 == CardView.panel }.joined(separator: "\n")
        #expect(text.contains("keys j→space"), "the pause card does not list the keys: \(text)")
        app.handle([.key(KeyEvent("esc"))])
        app.handle([.key(KeyEvent("j"))])
        app.step()
        #expect(try app.session?.state()["keys"] == .array([.string("space")]))
    }

    // MARK: Speed

    /// At 50 % the game takes the same steps with the same dt, twice as far apart.
    @Test func halfSpeedTakesTheSameStepsInTwiceTheWallTime() throws {
        var states: [LuaValue] = []
        var wallTimes: [Double] = []
        for speed in [GameSpeed.full, .half] {
            let (app, tty) = try Self.app(id: "tiny") { $0.speed = speed }
            defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
            var steps = 0, wall = 0.0
            while steps < 120 {
                let due = app.stepsDue(afterWallSeconds: 1.0 / 240)
                for _ in 0..<due { app.step() }
                steps += due
                wall += 1.0 / 240
            }
            #expect(steps == 120)
            states.append(try #require(app.session).state())
            wallTimes.append(wall)
        }
        #expect(states[0] == states[1])
        #expect(abs(wallTimes[1] - 2 * wallTimes[0]) < 0.02, "\(wallTimes)")
    }

    @Test func aRecordingSaysItsSpeedAndABestScoreAtIt() throws {
        let dir = NSTemporaryDirectory() + "arcade-speed-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let game = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.input(e) if e.type == "key" then arcade.score.submit(e.key == "a" and 10 or 3) end end
            return game
            """])
        let store = SaveStore(location: .memory)
        let (app, tty) = try Self.app(games: game.root, id: "scratch", store: store) {
            $0.speed = .half
            $0.recordPath = dir + "/run.rec"
        }
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        app.handle([.key(KeyEvent("a"))])
        app.step()
        app.closeGame()
        let header = try #require(try InputScript.read(dir + "/run.rec").header)
        #expect(header.speed == 50)
        // kept apart from the full-speed best, and shown marked in the menu
        #expect(try store.bestScore(game: "scratch") == nil)
        #expect(try store.bestScore(game: GameSpeed.half.scoreKey("scratch")) == 10)
        let entry = try #require(app.options.catalog.game("scratch"))
        #expect(store.slowerBestScores(of: [entry])["scratch"]?.first?.score == 10)
        let (full, _) = try Self.app(games: game.root, id: "scratch", store: store)
        full.handle([.key(KeyEvent("b"))])
        full.step()
        #expect(try store.bestScore(game: "scratch") == 3)
        full.leaveGame(toMenu: true)
        full.composeFrame()
        let menu = full.frame.plainLines { _ in true }.joined(separator: "\n")
        #expect(menu.contains("best 3  10 at 50 %"), "\(menu)")
    }

    // MARK: Saving

    @Test func settingsAreSavedAndRestored() throws {
        let dir = NSTemporaryDirectory() + "arcade-settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        do {
            let store = SaveStore(dataDirectory: dir)
            #expect(store.hostSettings() == HostSettings())
            let (app, tty) = try Self.app(id: nil, store: store)
            defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
            app.handle([.key(KeyEvent("o"))])
            guard case .settings? = app.card else { Issue.record("o did not open the settings"); return }
            // colour: auto -> truecolor -> 256 -> 16; vision: none -> deuteranopia; speed: 100 -> 75 -> 50
            app.handle([.key(KeyEvent("right")), .key(KeyEvent("right")), .key(KeyEvent("right"))])
            app.handle([.key(KeyEvent("down")), .key(KeyEvent("right"))])
            app.handle([.key(KeyEvent("down")), .key(KeyEvent("right")), .key(KeyEvent("right"))])
            // sound: on -> off, the same setting as `m` on the pause card
            app.handle([.key(KeyEvent("down")), .key(KeyEvent("enter"))])
            #expect(app.muted)
            #expect(app.output.encoder.colorMode == .palette16)
            #expect(app.output.encoder.visionFilter == .deuteranopia)
            app.handle([.key(KeyEvent("esc"))])
            #expect(app.card == nil)
            store.close()
        }
        let store = SaveStore(dataDirectory: dir)
        #expect(store.hostSettings() == HostSettings(color: .palette16, vision: .deuteranopia, speed: .half, muted: true))
        let (app, tty) = try Self.app(id: "tiny", store: store)
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        #expect(app.muted)
        #expect(app.output.encoder.colorMode == .palette16)
        #expect(app.speed == .half)
        // the command line wins for its run, and is not saved
        let (other, _) = try Self.app(id: "tiny", store: store) { $0.colorMode = .palette8; $0.vision = .highContrast }
        #expect(other.output.encoder.colorMode == .palette8)
        #expect(other.output.encoder.visionFilter == .highContrast)
        #expect(store.hostSettings().vision == .deuteranopia)
    }

    @Test func theDefaultModeFollowsTerminfoAndNoColor() {
        #expect(ColorMode.forTerminal(colors: TerminalCapabilities.colors(terminfo: nil)) == .palette256)
        for (path, mode) in [("/usr/share/terminfo/l/linux", ColorMode.palette8), ("/lib/terminfo/l/linux", .palette8),
                             ("/usr/share/terminfo/x/xterm-16color", .palette16), ("/lib/terminfo/x/xterm-256color", .palette256)] {
            guard let bytes = FileManager.default.contents(atPath: path) else { continue }
            #expect(ColorMode.forTerminal(colors: TerminalCapabilities.colors(terminfo: [UInt8](bytes))) == mode, "\(path)")
        }
    }

    // MARK: The card

    @Test(arguments: [(80, 24), (160, 50)])
    func theSettingsCardGolden(size: (Int, Int)) throws {
        let (cols, rows) = size
        let store = SaveStore(location: .memory)
        var map = KeyMap()
        try map.map("a", to: "left")
        try map.map("d", to: "right")
        try store.saveKeyMap(map, game: "ballcatch")
        let (app, tty) = try Self.app(games: bundledGames, id: "ballcatch", store: store, cols: cols, rows: rows) {
            $0.colorMode = .palette8
        }
        defer { withExtendedLifetime(tty) {} }  // the app's terminal holds its end open
        for _ in 0..<5 { app.step() }
        app.handle([.key(KeyEvent("esc"))])
        app.handle([.key(KeyEvent("s"))])
        app.handle([.key(KeyEvent("down")), .key(KeyEvent("right"))])
        guard case .settings(let card, _)? = app.card else { Issue.record("no settings card"); return }
        #expect(card.settings.vision == .deuteranopia)
        app.composeFrame()
        // the card's box, its panel blank and its border drawn
        let b = card.box(cols: cols, rows: rows)
        let lines = app.frame.plainLines { $0 == CardView.panel }[b.y..<(b.y + b.h)].map { line in
            String(line.unicodeScalars.dropFirst(b.x).prefix(b.w))
        }
        expectHostGolden(lines.joined(separator: "\n"), "settings-card-\(cols)x\(rows)")
    }
}
