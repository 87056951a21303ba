import Testing
import ArcadeCore
@testable import ArcadeHost

/// The one driver every way of running a game steps it through: when a script's events
/// arrive, where queued events go, where a replay ends and when stepping stops.
@Suite struct SessionDriverTests {
    @Test func scriptEventsArriveWithTheStepOfTheirFrameAfterTheQueuedOnes() throws {
        let script = try InputScript.parse("0 key a\n2 key b\n2 key c\n")
        let driver = SessionDriver(session: try startFixture("tiny"), script: script)
        driver.step()
        #expect(try driver.session.state()["keys"] == .array([.string("a")]))
        driver.step()
        #expect(try driver.session.state()["keys"] == .array([.string("a")]))
        driver.queued.append(.key(KeyEvent("q")))
        driver.step()
        // queued first, then the script's two of frame 2, in their order
        #expect(try driver.session.state()["keys"] == .array([.string("a"), .string("q"), .string("b"), .string("c")]))
        #expect(driver.queued.isEmpty)
    }

    @Test func aReplayEndsWhereItsRecordingDid() throws {
        let driver = SessionDriver(session: try startFixture("tiny"), script: try InputScript.parse("1 key a\n5 end\n"))
        #expect(driver.end == 5)
        for _ in 0..<4 { driver.step() }
        #expect(!driver.reachedEnd)
        driver.step()
        #expect(driver.reachedEnd)
        #expect(!driver.isStopped)  // the game itself could go on
    }

    @Test func runningStopsWhenTheGameFails() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.update() if arcade.frame() == 3 then error("stop") end end
            return game
            """])
        let driver = SessionDriver(session: try GameSession(entry: try #require(g.entry)))
        var after = 0
        driver.run(steps: 10) { after += 1 }
        #expect(driver.isStopped)
        #expect(driver.session.stepsRun == 3 && after == 3)
    }
}
