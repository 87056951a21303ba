import Foundation
import Testing
import ArcadeCore
@testable import ArcadeHost

/// Ctrl-C while a game's step runs long, in a Lua loop or inside one native call: the step
/// stops at once with a clear message on the game's error card, the arcade keeps running,
/// and a Ctrl-C after that quits it with the terminal given back.
@Suite(.serialized) struct CtrlCInterruptTests {
    /// A game that draws "ready" and, once `x` is pressed, runs `longWork` in every update.
    static func game(_ longWork: String) throws -> ScratchGame {
        try ScratchGame(files: ["main.lua": """
            local game = {}
            local busy = false
            function game.load()
              arcade.scene.text{ x = 2, y = 2, anchor_x = 0, anchor_y = 0, text = "ready", color = "white" }
            end
            function game.input(e)
              if e.type == "key" and e.key == "x" then busy = true end
            end
            function game.update(dt)
              if busy then
                \(longWork)
              end
            end
            return game
            """])
    }

    static let longWork = [
        "while true do end",
        // one call of a library function that backtracks for hours
        "string.find(string.rep('a', 60000), '.-.-.-.-b')",
    ]

    @Test(arguments: longWork)
    func ctrlCStopsALongStepAndTheArcadeRunsOn(_ longWork: String) throws {
        let g = try Self.game(longWork)
        let pty = try PseudoTerminal(cols: 80, rows: 24)
        let cooked = pty.modes
        let pid = try TerminalEndingTests.spawnArcade(pty, ["play", "scratch", "--games", g.root, "--seed", "1"])
        defer { kill(pid, SIGKILL); var s: Int32 = 0; waitpid(pid, &s, 0) }
        var out: [UInt8] = []
        #expect(pty.read(into: &out) { $0.contains("ready") }, "the game never drew")
        pty.type("\u{1B}[?62c")  // answer the start-up query as a terminal would
        _ = pty.read(into: &out, seconds: 0.1) { _ in false }
        pty.type("x")
        _ = pty.read(into: &out, seconds: 0.25) { _ in false }
        let mark = out.count
        pty.type("\u{03}")  // Ctrl-C, well within the step's second of budget
        let shown = pty.read(into: &out) { $0.contains("interrupted", from: mark) }
        #expect(shown, "no message says the step was interrupted: \(String(decoding: out[mark...], as: UTF8.self).debugDescription)")
        let budgetStopped = out.contains("budget", from: mark)
        #expect(!budgetStopped, "the budget stopped it, not Ctrl-C")
        var status: Int32 = 0
        #expect(waitpid(pid, &status, WNOHANG) == 0, "the arcade ended")
        // the error card is up; Ctrl-C now quits, and the terminal is as it was
        pty.type("\u{03}")
        let ended = try #require(SuspendTests.wait(pid, 0, pty: pty, output: &out), "the second Ctrl-C did not quit")
        #expect(ended == 0, "exit status \(ended)")
        _ = pty.read(into: &out, seconds: 0.2) { _ in false }  // what it wrote as it ended
        for piece in TerminalEndingTests.restorePieces {
            let written = out.contains(piece, from: mark)
            #expect(written, "\(piece.debugDescription) not written")
        }
        let modes = pty.modes
        #expect(modes.c_lflag == cooked.c_lflag && modes.c_iflag == cooked.c_iflag && modes.c_oflag == cooked.c_oflag)
    }
}
