import Testing
import ArcadeLua
@testable import ArcadeHost

/// `quit()` is where games save: its failure is reported like any callback's, and the game
/// is still released.
@Suite struct QuitTests {
    @Test func anErrorInQuitIsReturnedKeptAndStillReleasesTheGame() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() arcade.every(1, function() end) end
            function game.quit() error("could not save") end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry))
        session.step()
        let error = try #require(session.close())
        #expect(error.message == "scratch/main.lua:3: could not save")
        #expect(session.failure?.message == error.message)
        #expect(session.pendingTimers == 0)
    }

    @Test func headlessRunsReportAFailingOrRunawayQuitAndExitOne() throws {
        for (body, message) in [("error('could not save')", "scratch/main.lua:2: could not save"),
                                ("while true do end", "quit() exceeded its time budget")] {
            let g = try ScratchGame(files: ["main.lua": """
                local game = {}
                function game.quit() \(body) end
                return game
                """])
            let r = try runArcade(["play", "scratch", "--games", g.root, "--headless", "--frames", "3"])
            #expect(r.status == 1, "\(r)")
            #expect(r.err.contains(message), "\(r.err)")
        }
    }
}
