import Foundation
import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// Under `arcade dev` a script error pauses the game where it is; a reload that fixes it
/// carries on from there, with every timer, animation and physics event still in place.
@Suite struct DevPauseTests {
    static let dev = GameSession.Options(dev: true)

    /// A game with a repeating timer and a long animation; `update` breaks at step 30 while
    /// `BROKEN` is true.
    static func timerAndAnimation(broken: Bool) -> String {
        """
        local BROKEN = \(broken)
        local game = {}
        function game.load()
          game.state.ticks = 0
          game.box = arcade.scene.rect{ x = 0, y = 10, width = 2, height = 2 }
          game.state.box = game.box.id
          arcade.every(0.1, game.tick)
          arcade.animate(game.box, { property = "x", from = 0, to = 120, duration = 2 })
        end
        function game.tick() game.state.ticks = game.state.ticks + 1 end
        function game.update()
          if BROKEN and arcade.frame() == 30 then error("boom") end
        end
        return game
        """
    }

    func boxX(_ session: GameSession) throws -> Double {
        let id = try #require(try session.state()["box"]?.intValue)
        return try #require(session.scene.node(withID: Int(id))).x
    }

    @Test func anErrorPausesEverythingAndAFixCarriesOnFromThere() throws {
        let g = try ScratchGame(files: ["main.lua": Self.timerAndAnimation(broken: true)])
        let session = try GameSession(entry: try #require(g.entry), options: Self.dev)
        for _ in 0..<30 { session.step() }
        let failure = try #require(session.failure)
        #expect(failure.message == "scratch/main.lua:12: boom")

        // paused: nothing moves, nothing is dropped
        let ticks = try session.state()["ticks"]
        let x = try boxX(session)
        let before = session.stats
        #expect(before.timers == 1)
        #expect(before.animations == 1)
        for _ in 0..<20 { session.step() }
        #expect(session.frame == 30)
        #expect(try session.state()["ticks"] == ticks)
        #expect(try boxX(session) == x)
        #expect(session.stats == before)

        // the fix: the timer and the animation carry on as if nothing had happened
        try g.write("main.lua", Self.timerAndAnimation(broken: false))
        #expect(session.reload() == nil)
        #expect(session.failure == nil)
        while session.frame < 90 { session.step() }

        let clean = try GameSession(entry: try #require(g.entry), options: Self.dev)
        for _ in 0..<90 { clean.step() }
        #expect(try session.state()["ticks"] == clean.state()["ticks"])
        #expect(try session.state()["ticks"]?.intValue == 15)
        #expect(try boxX(session) == boxX(clean))
        #expect(session.stats.animations == 1)
        #expect(session.stats.timers == 1)
    }

    /// The callbacks the broken step had not reached yet run after the fix, once.
    @Test func theRestOfTheBrokenStepRunsAfterTheFix() throws {
        func main(broken: Bool) -> String {
            """
            local BROKEN = \(broken)
            local game = {}
            function game.load()
              arcade.after(0.5, game.first)
              arcade.after(0.5, game.second)
            end
            function game.first()
              if BROKEN then error("first") end
              game.state.first = true
            end
            function game.second() game.state.second = (game.state.second or 0) + 1 end
            function game.update() game.state.updates = (game.state.updates or 0) + 1 end
            return game
            """
        }
        let g = try ScratchGame(files: ["main.lua": main(broken: true)])
        let session = try GameSession(entry: try #require(g.entry), options: Self.dev)
        for _ in 0..<30 { session.step() }
        #expect(session.failure?.message == "scratch/main.lua:8: first")
        #expect(try session.state()["second"] == nil)
        #expect(try session.state()["updates"]?.intValue == 29)

        try g.write("main.lua", main(broken: false))
        #expect(session.reload() == nil)
        session.step()
        let st = try session.state()
        #expect(st["second"]?.intValue == 1)     // the timer the error kept from firing
        #expect(st["first"] == nil)              // the one that failed is not run again
        #expect(st["updates"]?.intValue == 31)   // step 30's update, then step 31's
        #expect(session.frame == 31)
        #expect(session.pendingTimers == 0)
    }

    /// Contact events of the broken step wait for the fix too.
    @Test func contactEventsAfterTheFailingOneAreDeliveredAfterTheFix() throws {
        func main(broken: Bool) -> String {
            """
            local BROKEN = \(broken)
            local game = {}
            function game.load()
              game.state.hits = 0
              game.world = arcade.physics.world{ bounds = false }
              game.world:add_wall("floor", { x = 0, y = 40, width = 80, height = 4 })
              game.world:add_ball{ x = 10, y = 30, radius = 2, elasticity = 0 }
              game.world:add_ball{ x = 50, y = 30, radius = 2, elasticity = 0 }
              game.world:on_contact(game.hit)
            end
            function game.hit()
              if BROKEN then error("hit") end
              game.state.hits = game.state.hits + 1
            end
            return game
            """
        }
        let g = try ScratchGame(files: ["main.lua": main(broken: true)])
        let session = try GameSession(entry: try #require(g.entry), options: Self.dev)
        for _ in 0..<120 where session.failure == nil { session.step() }
        #expect(session.failure?.message == "scratch/main.lua:12: hit")
        try g.write("main.lua", main(broken: false))
        #expect(session.reload() == nil)
        session.step()
        #expect(try session.state()["hits"]?.intValue == 1)  // the second ball's landing
        #expect(session.failure == nil)
    }

    /// Outside dev mode an error still stops the game for good and releases its timers.
    @Test func outsideDevModeAnErrorReleasesTheTimers() throws {
        let g = try ScratchGame(files: ["main.lua": Self.timerAndAnimation(broken: true)])
        let session = try GameSession(entry: try #require(g.entry))
        for _ in 0..<30 { session.step() }
        #expect(session.failure != nil)
        #expect(session.stats.timers == 0)
        #expect(session.stats.animations == 0)
    }
}

/// The tutorial game of `docs/writing-games.md`, run through the edit-save loop the page
/// describes: an edited timer callback runs at the next firing, and a runtime error pauses
/// the game until a fix carries it on with its timer and animations.
@Suite struct TutorialFlowTests {
    /// The `main.lua` of Part 1, step 3.
    static func tutorialMain() throws -> String {
        let doc = try String(contentsOfFile: DefinitionsTests.repoRoot + "/docs/writing-games.md", encoding: .utf8)
        let step = try #require(doc.range(of: "### 3. Replace `main.lua`"))
        let open = try #require(doc.range(of: "```lua\n", range: step.upperBound..<doc.endIndex))
        let close = try #require(doc.range(of: "\n```\n", range: open.upperBound..<doc.endIndex))
        return String(doc[open.upperBound..<close.lowerBound]) + "\n"
    }

    @Test func editErrorFixAndCarryOn() throws {
        let main = try Self.tutorialMain()
        #expect(!main.contains("live"), "the tutorial needs no global workaround")
        let g = try ScratchGame(files: ["main.lua": main])
        let session = try GameSession(entry: try #require(g.entry), options: .init(seed: 3, dev: true))
        for _ in 0..<45 { session.step() }
        #expect(session.failure == nil)

        // an edit to drop, which only the timer armed in load calls
        let edited = main.replacingOccurrences(of: "function game.drop()\n",
                                               with: "function game.drop()\n  game.state.version = 2\n")
        #expect(edited != main)
        try g.write("main.lua", edited)
        #expect(session.reload() == nil)
        for _ in 0..<30 { session.step() }
        #expect(try session.state()["version"]?.intValue == 2)

        // a runtime error in the landing callback pauses everything
        let broken = edited.replacingOccurrences(of: "  block:remove()\n", with: "  block:remove(); block.x = 1\n")
        #expect(broken != edited)
        try g.write("main.lua", broken)
        #expect(session.reload() == nil)
        for _ in 0..<300 where session.failure == nil { session.step() }
        let failure = try #require(session.failure)
        #expect(failure.message.hasSuffix("this node was removed"))
        let paused = session.stats
        let frame = session.frame
        #expect(paused.timers == 1)
        for _ in 0..<30 { session.step() }
        #expect(session.stats == paused)

        // the fix: it carries on from there, timer and falling blocks included
        try g.write("main.lua", edited)
        #expect(session.reload() == nil)
        #expect(session.failure == nil)
        for _ in 0..<120 { session.step() }
        #expect(session.failure == nil)
        #expect(session.frame == frame + 120)
        #expect(session.stats.timers == 1)
        #expect(session.stats.animations > 0)
    }
}
