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

    /// Counts the resizes its `input` hears, with the last size, and the keys in order.
    static let resizeCounter = """
        local game = { state = { resizes = 0, keys = {} } }
        function game.input(e)
          if e.type == "resize" then
            game.state.resizes = game.state.resizes + 1
            game.state.size = { e.width, e.height }
          elseif e.type == "key" then
            table.insert(game.state.keys, e.key)
          end
        end
        return game
        """

    @Test func aHundredThousandResizesAtOneStepReachTheGameOnceAtTheLastSize() throws {
        let g = try ScratchGame(files: ["main.lua": Self.resizeCounter])
        var text = "0 key a\n"
        for i in 0..<100_000 { text += i % 2 == 0 ? "0 resize 100 30\n" : "0 resize 90 28\n" }
        text += "0 key b\n0 resize 120 40\n1 resize 60 20\n1 resize 70 22\n"
        let driver = SessionDriver(session: try GameSession(entry: try #require(g.entry)),
                                   script: try InputScript.parse(text))
        driver.step()
        var state = try driver.session.state()
        #expect(state["resizes"] == .int(1))
        #expect(state["size"] == .array([.int(120), .int(80)]))
        #expect(state["keys"] == .array([.string("a"), .string("b")]))
        #expect(driver.session.failure == nil)
        // queued events and the script's of one step count together
        driver.queued.append(.resize(cols: 80, rows: 24))
        driver.step()
        state = try driver.session.state()
        #expect(state["resizes"] == .int(2))
        #expect(state["size"] == .array([.int(70), .int(44)]))
    }
}
