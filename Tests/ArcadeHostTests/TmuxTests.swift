import Foundation
import Testing
import ArcadeTestSupport
@testable import ArcadeHost

/// The arcade in a real terminal, driven the way a person would: tmux runs it, keys are
/// typed with send-keys and the screen is read with capture-pane.
@Suite(.serialized) struct TmuxTests {
    /// tmux on a server of this run's own: other runs on the machine start and end theirs
    /// (the default server exits with its last session) without disturbing these tests.
    let tmux = "tmux -L arcade-tests-\(getpid())"

    /// Runs a shell command and returns what it printed. Uses system(3) with the output in a
    /// file: a pipe read to its end would wait for the tmux server, which never exits.
    func sh(_ command: String) throws -> String {
        let outFile = NSTemporaryDirectory() + "arcade-sh-\(getpid())-\(UUID().uuidString)"
        defer { unlink(outFile) }
        _ = system("(\(command)) > \(outFile) 2>&1 < /dev/null")
        return (try? String(contentsOfFile: outFile, encoding: .utf8)) ?? ""
    }

    /// A detached tmux session running `sh`. Its server must not inherit our pipes, or
    /// reading a command's output would wait for the server to exit.
    func startTmux(_ session: String, cols: Int, rows: Int) throws {
        _ = try sh("\(tmux) new-session -d -s \(session) -x \(cols) -y \(rows) sh")
    }

    /// Waits (bounded) until a file the shell writes has content: the redirection creates it
    /// empty before the command writes.
    func waitForContent(_ path: String) {
        for _ in 0..<300 {
            if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("\n") { return }
            usleep(100_000)
        }
    }

    /// Polls the pane until `text` shows (bounded); returns the last screen.
    func waitForScreen(_ session: String, containing text: String) throws -> String {
        var screen = ""
        for _ in 0..<300 {
            screen = try sh("\(tmux) capture-pane -t \(session) -p")
            if screen.contains(text) { return screen }
            usleep(100_000)
        }
        return screen
    }

    @Test func playTypeQuitAndTheTerminalIsRestored() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed (scripts/setup.sh --tests installs it)")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-\(getpid())"
        let dir = NSTemporaryDirectory() + session
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer {
            _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null")
            try? FileManager.default.removeItem(atPath: dir)
        }
        try startTmux(session, cols: 100, rows: 30)
        try "stty -g > \(dir)/before; \(arcade) play tiny --games \(fixtureGames) --seed 1; echo \"exit=$?\" > \(dir)/status; stty -g > \(dir)/after\n"
            .write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
        _ = try sh("\(tmux) send-keys -t \(session) 'sh \(dir)/run.sh' Enter")
        #expect(try waitForScreen(session, containing: "tiny: no keys yet").contains("tiny: no keys yet"))

        _ = try sh("\(tmux) send-keys -t \(session) a b")
        let screen = try waitForScreen(session, containing: "2 keys")
        #expect(screen.contains("tiny: 2 keys, last b"))

        // Esc opens the pause card; "back to menu" opens the menu, and q there quits
        _ = try sh("\(tmux) send-keys -t \(session) Escape")
        #expect(try waitForScreen(session, containing: "PAUSED").contains("resume"))
        _ = try sh("\(tmux) send-keys -t \(session) b")
        #expect(try waitForScreen(session, containing: "enter play").contains("Tiny"))
        _ = try sh("\(tmux) send-keys -t \(session) q")
        waitForContent(dir + "/after")
        let before = try String(contentsOfFile: dir + "/before", encoding: .utf8)
        let after = try String(contentsOfFile: dir + "/after", encoding: .utf8)
        #expect(!before.isEmpty)
        #expect(before == after)
        #expect(try String(contentsOfFile: dir + "/status", encoding: .utf8) == "exit=0\n")
    }

    @Test func ctrlCQuitsAndRestores() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-c-\(getpid())"
        let dir = NSTemporaryDirectory() + session
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer {
            _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null")
            try? FileManager.default.removeItem(atPath: dir)
        }
        try startTmux(session, cols: 90, rows: 28)
        try "stty -g > \(dir)/before; \(arcade) --games \(fixtureGames); stty -g > \(dir)/after\n"
            .write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
        _ = try sh("\(tmux) send-keys -t \(session) 'sh \(dir)/run.sh' Enter")
        // waits for the menu's last line: on a loaded machine the pane can be caught mid-frame
        #expect(try waitForScreen(session, containing: "enter play").contains("Tiny"))
        _ = try sh("\(tmux) send-keys -t \(session) C-c")
        waitForContent(dir + "/after")
        #expect(try String(contentsOfFile: dir + "/before", encoding: .utf8) == String(contentsOfFile: dir + "/after", encoding: .utf8))
    }

    @Test func tooSmallWindowWaits() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-s-\(getpid())"
        defer { _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null") }
        try startTmux(session, cols: 60, rows: 20)
        _ = try sh("\(tmux) send-keys -t \(session) '\(arcade) play tiny --games \(fixtureGames)' Enter")
        #expect(try waitForScreen(session, containing: "at least").contains("make the window at least 80 x 24"))
        _ = try sh("\(tmux) resize-window -t \(session) -x 100 -y 30")
        #expect(try waitForScreen(session, containing: "tiny:").contains("tiny: no keys yet"))
        _ = try sh("\(tmux) send-keys -t \(session) C-c")
    }

    /// Polls the pane until `text` is gone (bounded); returns the last screen.
    func waitForScreen(_ session: String, without text: String) throws -> String {
        var screen = ""
        for _ in 0..<300 {
            screen = try sh("\(tmux) capture-pane -t \(session) -p")
            if !screen.contains(text) { return screen }
            usleep(100_000)
        }
        return screen
    }

    /// F3 shows the profiler over the game's top-right corner, with its rows and numbers,
    /// and hides it again; the game never sees the key, and its own text stays.
    @Test func f3ShowsAndHidesTheProfiler() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-f3-\(getpid())"
        defer { _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null") }
        try startTmux(session, cols: 80, rows: 24)
        _ = try sh("\(tmux) send-keys -t \(session) '\(arcade) play tiny --games \(fixtureGames) --seed 1' Enter")
        let before = try waitForScreen(session, containing: "tiny: no keys yet")
        #expect(before.contains("tiny: no keys yet"))

        _ = try sh("\(tmux) send-keys -t \(session) F3")
        // the first half-second window, then the numbers
        let shown = try waitForScreen(session, containing: "bytes/frame")
        let lines = shown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // under the pause mark, which keeps the top row's corner, so both read whole
        #expect(lines.dropFirst().first?.contains("profile (F3)     ms/step") == true, "\(shown)")
        #expect(lines.first?.hasSuffix("▌▌") == true, "\(shown)")
        for row in ["steps/s", "fps", "lua", "animation", "physics", "compose", "encode", "other", "total", "bytes/frame",
                    "round trip ms", "nodes 1", "bodies 0", "lua "] {
            #expect(lines.prefix(14).contains { $0.suffix(ProfileOverlay.width).contains(row) }, "no \(row) in\n\(shown)")
        }
        // the steps of the window are counted (how many a second is the machine's business)
        let rate = lines.dropFirst(2).first.flatMap { $0.split(separator: " ").drop { $0 != "steps/s" }.dropFirst().first }
        #expect((rate.flatMap { Int($0) } ?? 0) > 0, "\(lines.dropFirst(2).first ?? "")")
        #expect(shown.contains("tiny: no keys yet"))  // the game's label, top left, is untouched

        usleep(700_000)  // longer than a legacy terminal's key hold: a second press, not a repeat
        _ = try sh("\(tmux) send-keys -t \(session) F3")
        let hidden = try waitForScreen(session, without: "profile (F3)")
        #expect(!hidden.contains("bytes/frame"))
        #expect(hidden == before)  // the game's frame, as it was before the overlay
        _ = try sh("\(tmux) send-keys -t \(session) a")
        // F3 twice did not reach the game: "a" is its first key
        #expect(try waitForScreen(session, containing: "1 keys").contains("tiny: 1 keys, last a"))
        _ = try sh("\(tmux) send-keys -t \(session) C-c")
    }

    /// Esc: the pause card lists the game's controls from its manifest.
    @Test func pauseCardListsTheControls() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-pause-\(getpid())"
        defer { _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null") }
        try startTmux(session, cols: 80, rows: 24)
        _ = try sh("\(tmux) send-keys -t \(session) '\(arcade) play tiny --games \(fixtureGames) --seed 1' Enter")
        _ = try waitForScreen(session, containing: "tiny: no keys yet")
        _ = try sh("\(tmux) send-keys -t \(session) Escape")
        let screen = try waitForScreen(session, containing: "PAUSED")
        #expect(screen.contains("any key  counted, the last one shown"), "\(screen)")
        #expect(screen.contains("      r  roll a number"), "\(screen)")
        #expect(screen.contains("resume") && screen.contains("back to menu"))
        _ = try sh("\(tmux) send-keys -t \(session) C-c")
    }

    /// `--cast` in a real terminal: the file is valid asciicast v2, its times run with the
    /// clock, and replayed it shows what the pane showed.
    @Test func castRecordsWhatTheTerminalShowed() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-cast-\(getpid())"
        let dir = NSTemporaryDirectory() + session
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer {
            _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null")
            try? FileManager.default.removeItem(atPath: dir)
        }
        try startTmux(session, cols: 90, rows: 26)
        try "\(arcade) play tiny --games \(fixtureGames) --seed 1 --cast \(dir)/play.cast; echo \"exit=$?\" > \(dir)/status\n"
            .write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
        _ = try sh("\(tmux) send-keys -t \(session) 'sh \(dir)/run.sh' Enter")
        _ = try waitForScreen(session, containing: "tiny: no keys yet")
        usleep(300_000)
        _ = try sh("\(tmux) send-keys -t \(session) x y")
        let pane = try waitForScreen(session, containing: "2 keys")
        #expect(pane.contains("tiny: 2 keys, last y"))
        _ = try sh("\(tmux) send-keys -t \(session) C-c")
        waitForContent(dir + "/status")
        #expect(try String(contentsOfFile: dir + "/status", encoding: .utf8) == "exit=0\n")

        let cast = try AsciicastFile.parse(try #require(FileManager.default.contents(atPath: dir + "/play.cast")).map { $0 })
        #expect(cast.header.width == 90 && cast.header.height == 26)
        #expect(cast.header.title == "arcade: Tiny")
        let last = try #require(cast.events.last)
        #expect(last.time >= 0.3)  // real time passed between the start and the quit
        #expect(last.data.hasSuffix("\u{1B}[?1049l\u{1B}[0m"))  // the restore ends it
        var screen = VTModel(columns: 90, rows: 26, fill: .init(scalar: " ", foreground: .white, background: .black))
        for e in cast.events.dropLast() where e.code == "o" { screen.feed(Array(e.data.utf8)) }
        let rows = (0..<26).map { r in String(String.UnicodeScalarView((0..<90).map { screen[$0, r].scalar })) }
        #expect(rows.contains { $0.contains("tiny: 2 keys, last y") }, "\(rows.joined(separator: "\n"))")
        #expect(screen.errors.isEmpty, "\(screen.errors.prefix(3))")
    }

    /// Issue 15, 11: a resize while a card is up repaints at the new size at once: growing
    /// paints the new area, shrinking never writes a frame wider than the window.
    @Test func resizeUnderThePauseCardFollowsTheWindow() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-r-\(getpid())"
        // a game with a coloured background, so painted cells show in the captured escapes
        let game = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              arcade.scene.background("#203050")
              game.label = arcade.scene.text{ x = 2, y = 2, anchor_x = 0, text = "tiny: no keys yet" }
            end
            -- a marker in the canvas's bottom-right cell, drawn every frame (paused or not)
            function game.draw(gfx)
              local w, h = arcade.screen()
              gfx.text("@", w - 1, h - 2, "white")
            end
            return game
            """])
        defer { _ = try? sh("\(tmux) kill-session -t \(session) 2>/dev/null") }
        try startTmux(session, cols: 90, rows: 26)
        _ = try sh("\(tmux) send-keys -t \(session) '\(arcade) play scratch --games \(game.root)' Enter")
        #expect(try waitForScreen(session, containing: "tiny:").contains("tiny: no keys yet"))
        _ = try sh("\(tmux) send-keys -t \(session) Escape")
        #expect(try waitForScreen(session, containing: "PAUSED").contains("resume"))

        /// The card's title row and column, and the screen with its colours.
        func card() throws -> (row: Int, col: Int, lines: [Substring]) {
            let lines = try sh("\(tmux) capture-pane -t \(session) -p").split(separator: "\n", omittingEmptySubsequences: false)
            let row = lines.firstIndex { $0.contains("resume") } ?? -1
            let col = row >= 0 ? lines[row].distance(from: lines[row].startIndex, to: lines[row].range(of: "resume")!.lowerBound) : -1
            return (row, col, lines)
        }
        let small = try card()

        // grow: the card moves to the new centre and the new rows and columns are painted
        _ = try sh("\(tmux) resize-window -t \(session) -x 130 -y 40")
        var grown = try card()
        // generous waits: a loaded machine may take seconds to repaint
        for _ in 0..<300 where grown.row <= small.row + 4
            || !(grown.lines.count >= 40 && grown.lines[39].count == 130 && grown.lines[39].hasSuffix("@")) {
            usleep(100_000)
            grown = try card()
        }
        #expect(grown.row > small.row + 4, "the card stayed where the old window's centre was")
        #expect(grown.col > small.col + 15)
        // the canvas is the window's: its bottom-right cell is the window's
        #expect(grown.lines.count >= 40 && grown.lines[39].count == 130 && grown.lines[39].hasSuffix("@"),
                "the canvas did not grow with the window")

        // shrink: nothing wraps or scrolls; the card is whole, once, in the new centre
        _ = try sh("\(tmux) resize-window -t \(session) -x 80 -y 24")
        var shrunk = try card()
        for _ in 0..<300 where shrunk.row == grown.row
            || !(shrunk.lines.count > 23 && shrunk.lines[23].count == 80 && shrunk.lines[23].hasSuffix("@")) {
            usleep(100_000)
            shrunk = try card()
        }
        #expect(shrunk.row < grown.row && shrunk.row > 4)
        #expect(shrunk.lines.filter { $0.contains("resume") }.count == 1)
        #expect(shrunk.lines[23].count == 80 && shrunk.lines[23].hasSuffix("@"))
        #expect(shrunk.lines.allSatisfy { $0.count <= 80 })

        // resuming carries on at the new size
        _ = try sh("\(tmux) send-keys -t \(session) Enter")
        #expect(try waitForScreen(session, containing: "tiny:").contains("tiny: no keys yet"))
        _ = try sh("\(tmux) send-keys -t \(session) C-c")
    }
}
