import ArcadeHost
import ArcadeLua
import Foundation
import Testing

/// Issue 15, 9a: a step as a whole has a budget, Lua and native work together, so many
/// callbacks each under their own budget cannot make one step (or every step) last for
/// seconds; the message names what used the time.
@Suite struct StepBudgetTests {
    /// A callback budget far above what any one callback here takes, and a short step budget.
    static func options(step: Double = 0.2, dev: Bool = false) -> GameSession.Options {
        .init(seed: 1, limits: .init(secondsPerCall: 30, secondsPerStep: step), dev: dev)
    }

    /// Runs steps until the game stops (bounded); returns the failure and the wall time.
    static func runUntilStopped(_ session: GameSession, steps: Int = 20) -> (LuaError?, Double) {
        let t0 = Date()
        for _ in 0..<steps where session.failure == nil { session.step() }
        return (session.failure, Date().timeIntervalSince(t0))
    }

    /// Busy Lua work of a few milliseconds, far under a callback's budget.
    static let busy = """
        local function busy()
          local t = {}
          for i = 1, 200000 do t[i % 64 + 1] = i * 2 end
          return t[1]
        end

        """

    @Test func manyTimersCannotMultiplyTheBudget() throws {
        for count in [200, 1000] {
            let g = try ScratchGame(files: ["main.lua": Self.busy + """
                local game = {}
                function game.load()
                  for i = 1, \(count) do arcade.after(0.01, function() busy() end) end
                end
                return game
                """])
            let session = try GameSession(entry: try #require(g.entry), options: Self.options())
            let (failure, seconds) = Self.runUntilStopped(session)
            let f = try #require(failure, "\(count) timers ran unchecked")
            #expect(f.kind == .budget)
            #expect(f.message.contains("timer callback ran past the step's time budget"), "\(f.message)")
            #expect(f.message.contains("timer callbacks"))
            #expect(f.message.contains("budget 0.2 s"))
            #expect(f.message.contains("scratch/main.lua:"))
            #expect(seconds < 3, "the step went on for \(seconds) s")
        }
    }

    @Test func aFastRepeatingTimerCannotMakeEveryStepSlow() throws {
        let g = try ScratchGame(files: ["main.lua": Self.busy + """
            local game = {}
            function game.load()
              game.n = 0
              arcade.every(0.001, function() game.n = game.n + 1; busy(); busy(); busy() end)
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: Self.options(step: 0.05))
        let (failure, seconds) = Self.runUntilStopped(session, steps: 200)
        let f = try #require(failure)
        #expect(f.kind == .budget)
        #expect(f.message.contains("ran past the step's time budget"))
        #expect(f.message.contains(" in ") && f.message.contains(" calls"), "\(f.message)")
        #expect(seconds < 3)
    }

    @Test func updateAndTimersShareOneBudget() throws {
        // the timers' time counts against the update that comes after them, and the message
        // lists both
        let g = try ScratchGame(files: ["main.lua": Self.busy + """
            local game = {}
            function game.load()
              arcade.after(0.01, function() for _ = 1, 2 do busy() end end)
            end
            function game.update(dt)
              if arcade.frame() == 1 then for _ = 1, 300 do busy() end end
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: Self.options(step: 0.3))
        let (failure, _) = Self.runUntilStopped(session, steps: 100)
        let f = try #require(failure)
        #expect(f.kind == .budget)
        #expect(f.message.contains("update()") && f.message.contains("timer callbacks"), "\(f.message)")
    }

    @Test func nativePhysicsWorkIsBudgetedAndNamed() throws {
        // thousands of balls piled on one spot: the native step itself is slow
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              game.world = arcade.physics.world{ gravity = { 0, 0 }, bounds = true }
              for i = 1, 700 do game.world:add_ball{ x = 40 + i % 3, y = 20, radius = 6 } end
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: Self.options(step: 0.01))
        let (failure, _) = Self.runUntilStopped(session, steps: 30)
        let f = try #require(failure)
        #expect(f.kind == .budget)
        #expect(f.message.contains("the step ran past its time budget in physics"), "\(f.message)")
        #expect(f.message.contains("physics "))
    }

    @Test func anHonestStepIsUntouchedAndTheBudgetIsPerStep() throws {
        // 40 steps of work that each take a fraction of the step budget: never stopped,
        // although together they take far longer than one step's budget
        let g = try ScratchGame(files: ["main.lua": Self.busy + """
            local game = {}
            function game.load() game.state.steps = 0 end
            function game.update(dt) busy(); game.state.steps = game.state.steps + 1 end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: Self.options(step: 0.5))
        for _ in 0..<40 { session.step() }
        #expect(session.failure == nil)
        #expect(try session.state().json().contains("\"steps\":40"))
    }

    @Test func devModePausesAndTheNextStepHasAFreshBudget() throws {
        let g = try ScratchGame(files: ["main.lua": Self.busy + """
            local game = {}
            function game.load()
              for i = 1, 300 do arcade.after(0.01, function() busy() end) end
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: Self.options(dev: true))
        let (failure, _) = Self.runUntilStopped(session)
        let f = try #require(failure)
        #expect(f.message.contains("ran past the step's time budget"))
    }
}
