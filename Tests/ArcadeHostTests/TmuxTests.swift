import Foundation
import Testing

/// The arcade in a real terminal, driven the way a person would: tmux runs it, keys are
/// typed with send-keys and the screen is read with capture-pane.
@Suite(.serialized) struct TmuxTests {
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
        _ = try sh("tmux new-session -d -s \(session) -x \(cols) -y \(rows) sh")
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
            screen = try sh("tmux capture-pane -t \(session) -p")
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
            _ = try? sh("tmux kill-session -t \(session) 2>/dev/null")
            try? FileManager.default.removeItem(atPath: dir)
        }
        try startTmux(session, cols: 100, rows: 30)
        try "stty -g > \(dir)/before; \(arcade) play tiny --games \(fixtureGames) --seed 1; echo \"exit=$?\" > \(dir)/status; stty -g > \(dir)/after\n"
            .write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
        _ = try sh("tmux send-keys -t \(session) 'sh \(dir)/run.sh' Enter")
        #expect(try waitForScreen(session, containing: "tiny: no keys yet").contains("tiny: no keys yet"))

        _ = try sh("tmux send-keys -t \(session) a b")
        let screen = try waitForScreen(session, containing: "2 keys")
        #expect(screen.contains("tiny: 2 keys, last b"))

        // Esc opens the pause card; choosing "back to menu" ends a directly played game
        _ = try sh("tmux send-keys -t \(session) Escape")
        #expect(try waitForScreen(session, containing: "PAUSED").contains("resume"))
        _ = try sh("tmux send-keys -t \(session) b")
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
            _ = try? sh("tmux kill-session -t \(session) 2>/dev/null")
            try? FileManager.default.removeItem(atPath: dir)
        }
        try startTmux(session, cols: 90, rows: 28)
        try "stty -g > \(dir)/before; \(arcade) --games \(fixtureGames); stty -g > \(dir)/after\n"
            .write(toFile: dir + "/run.sh", atomically: true, encoding: .utf8)
        _ = try sh("tmux send-keys -t \(session) 'sh \(dir)/run.sh' Enter")
        #expect(try waitForScreen(session, containing: "Tiny").contains("enter play"))
        _ = try sh("tmux send-keys -t \(session) C-c")
        waitForContent(dir + "/after")
        #expect(try String(contentsOfFile: dir + "/before", encoding: .utf8) == String(contentsOfFile: dir + "/after", encoding: .utf8))
    }

    @Test func tooSmallWindowWaits() throws {
        try #require(!(try sh("command -v tmux")).isEmpty, "tmux is needed")
        let arcade = try arcadeExecutable()
        let session = "arcade-test-s-\(getpid())"
        defer { _ = try? sh("tmux kill-session -t \(session) 2>/dev/null") }
        try startTmux(session, cols: 60, rows: 20)
        _ = try sh("tmux send-keys -t \(session) '\(arcade) play tiny --games \(fixtureGames)' Enter")
        #expect(try waitForScreen(session, containing: "at least").contains("make the window at least 80 x 24"))
        _ = try sh("tmux resize-window -t \(session) -x 100 -y 30")
        #expect(try waitForScreen(session, containing: "tiny:").contains("tiny: no keys yet"))
        _ = try sh("tmux send-keys -t \(session) C-c")
    }
}
