import Foundation
import Testing
import ArcadeCore
@testable import ArcadeHost

/// How the real executable leaves a pseudo-terminal: killed by any signal that ends a
/// process, started on a terminal that cannot show it, or quit with Ctrl-C while an error
/// object megabytes long is on show.
@Suite(.serialized) struct TerminalEndingTests {
    /// `args` run by the executable on `pty`, as a shell's job, with core dumps off (SIGQUIT's
    /// default action dumps one).
    static func spawnArcade(_ pty: PseudoTerminal, _ args: [String], environment: [String: String?] = [:]) throws -> pid_t {
        let arcade = try arcadeExecutable()
        return try SuspendTests.spawn(pty, ["/bin/sh", "-c", "ulimit -c 0; exec \"$@\"", "sh", arcade] + args,
                                      environment: environment)
    }

    /// The pieces of the restore sequence that undo what a game's screen turned on.
    static let restorePieces = ["\u{1B}[?1049l", "\u{1B}[?25h", "\u{1B}[?1000l", "\u{1B}[?1003l", "\u{1B}[?1006l"]

    @Test(arguments: [SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGQUIT, SIGTERM])
    func aSignalThatEndsTheArcadeRestoresTheTerminalAndEndsIt(signal: Int32) throws {
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        let cooked = pty.modes
        // SWIFT_BACKTRACE removed: the runtime's backtracer is on, as for a player, and it
        // catches SIGQUIT too, to wait at a prompt for 30 seconds
        let pid = try Self.spawnArcade(pty, ["play", "tiny", "--games", fixtureGames, "--seed", "1"],
                                       environment: ["SWIFT_BACKTRACE": nil])
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var out: [UInt8] = []
        #expect(pty.read(into: &out) { $0.contains("tiny: no keys yet") }, "the game never drew")
        pty.type("\u{1B}[?62c")  // answer the start-up query as a terminal would
        let mark = out.count
        kill(pid, signal)
        let status = try #require(SuspendTests.wait(pid, 0, pty: pty, output: &out), "signal \(signal): still running")
        #expect(status & 0x7f == signal, "signal \(signal): ended with status \(status)")
        _ = pty.read(into: &out, seconds: 0.2) { _ in false }
        for piece in Self.restorePieces {
            #expect(out.contains(piece, from: mark), "signal \(signal): \(piece.debugDescription) not written")
        }
        #expect(!out.contains("Press space to interact", from: mark), "the backtracer's prompt came up")
        let modes = pty.modes
        #expect(modes.c_lflag == cooked.c_lflag && modes.c_iflag == cooked.c_iflag && modes.c_oflag == cooked.c_oflag,
                "signal \(signal): the terminal's modes are not back")
    }

    @Test(arguments: ["dumb", "vt100", "xterm-mono", nil])
    func aTerminalThatCannotShowTheArcadeIsToldSoWithoutEscapes(term: String?) throws {
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        let cooked = pty.modes
        let pid = try Self.spawnArcade(pty, ["play", "tiny", "--games", fixtureGames], environment: ["TERM": term])
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var out: [UInt8] = []
        let status = try #require(SuspendTests.wait(pid, 0, pty: pty, output: &out), "TERM=\(term ?? "(unset)"): it played on")
        _ = pty.read(into: &out, seconds: 0.2) { _ in false }
        #expect(status == 2 << 8, "exit status \(status)")
        let text = String(decoding: out, as: UTF8.self)
        #expect(text.contains("this terminal cannot show the arcade: "), "\(text)")
        #expect(text.contains(term.map { "TERM=\($0) cannot" } ?? "TERM is not set"), "\(text)")
        #expect(!out.contains(0x1B), "escape sequences reached the terminal: \(text.debugDescription)")
        #expect(pty.modes.c_lflag == cooked.c_lflag)
    }

    /// `arcade dev` on a game whose `reload()` raises a table whose `__tostring` makes 4 MB:
    /// the reload's error card shows a bounded message, and Ctrl-C quits at once.
    @Test func ctrlCQuitsAfterAReloadRaisesAnErrorMegabytesLong() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              arcade.scene.text{ x = 2, y = 2, anchor_x = 0, anchor_y = 0, text = "ready", color = "white" }
            end
            function game.reload()
              error(setmetatable({}, { __tostring = function() return string.rep("x", 4000000) end }))
            end
            return game
            """])
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        let cooked = pty.modes
        let pid = try Self.spawnArcade(pty, ["dev", "scratch", "--games", g.root, "--seed", "1"])
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var out: [UInt8] = []
        #expect(pty.read(into: &out) { $0.contains("ready") }, "the game never drew")
        pty.type("\u{1B}[?62c")
        let mark = out.count
        pty.type("\u{1B}[15~")  // F5: reload
        // the card's words are drawn apart (the cursor steps over the spaces)
        #expect(pty.read(into: &out) { $0.contains("running):", from: mark) }, "the reload's error never showed")
        pty.type("\u{03}")  // Ctrl-C
        let status = try #require(SuspendTests.wait(pid, 0, pty: pty, output: &out), "Ctrl-C did not end it")
        #expect(status == 0, "exit status \(status)")
        #expect(pty.modes.c_lflag == cooked.c_lflag)
    }
}
