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

    /// Runs steps until the game stops (bounded); returns the failure and the CPU time the
    /// steps used (the budget's own clock: a busy machine stretches the wall time, not this).
    static func runUntilStopped(_ session: GameSession, steps: Int = 20) -> (LuaError?, Double) {
        let t0 = ThreadCPUClock.now()
        for _ in 0..<steps where session.failure == nil { session.step() }
        return (session.failure, Double(ThreadCPUClock.now() - t0) * 1e-9)
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
            #expect(seconds < 3, "the step went on for \(seconds) s of CPU time")
        }
    }

    /// A timer firing every millisecond runs about 17 times a step, each call far under a
    /// callback's budget. Its work grows by half each step, so whatever the machine's speed
    /// some step's calls add up to more than the step's budget, while each call still takes
    /// a small part of it: the step stops after several calls, and the message counts them.
    @Test func aFastRepeatingTimerCannotMakeEveryStepSlow() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load()
              game.work = 1000
              arcade.every(0.001, function()
                local t = 0
                for i = 1, game.work do t = t + i end
              end)
            end
            function game.update() game.work = game.work * 3 // 2 end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: Self.options(step: 0.1))
        let (failure, seconds) = Self.runUntilStopped(session, steps: 200)
        let f = try #require(failure)
        #expect(f.kind == .budget && f.budget == .step, "\(f.message)")
        #expect(f.message.contains("ran past"), "\(f.message)")
        #expect(Self.calls(of: "timer callbacks", in: f.message) ?? 0 >= 2, "\(f.message)")
        #expect(seconds < 3, "the steps used \(seconds) s of CPU time")
    }

    /// N in "<phase> 0.12 s in N calls" of a budget message.
    static func calls(of phase: String, in message: String) -> Int? {
        guard let start = message.range(of: phase + " ") else { return nil }
        let rest = message[start.upperBound...]
        guard let inWord = rest.range(of: " in ") else { return nil }
        return Int(rest[inWord.upperBound...].prefix { $0.isNumber })
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

    /// A game of `count` balls piled on one spot: its native physics step is slow.
    static func ballPile(_ count: Int) -> String {
        """
        local game = {}
        function game.load()
          game.world = arcade.physics.world{ gravity = { 0, 0 }, bounds = true }
          for i = 1, \(count) do game.world:add_ball{ x = 40 + i % 3, y = 20, radius = 6 } end
        end
        return game
        """
    }

    @Test func nativePhysicsWorkIsBudgetedAndNamed() throws {
        // hundreds of balls piled on one spot: the native step itself is slow
        let g = try ScratchGame(files: ["main.lua": Self.ballPile(700)])
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
