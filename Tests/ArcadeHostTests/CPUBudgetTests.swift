import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost
#if canImport(Glibc)
import Glibc
#endif

/// Processes that keep the CPUs busy while a test runs: each spins in a shell loop under
/// `timeout`, so that none outlives its bound even if the test process dies, in a process
/// group of its own, which ``stop()`` kills whole (call it in a `defer`, so it runs when the
/// test fails too).
final class CPUHogs {
    private(set) var pids: [pid_t] = []

    /// Starts `count` spinning processes that end by themselves after `seconds`.
    init(count: Int, seconds: Int = 60) throws {
        let argv = ["timeout", "-s", "KILL", "\(seconds)", "sh", "-c", "while :; do :; done"]
        for _ in 0..<count {
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
            posix_spawnattr_setpgroup(&attributes, 0)
            var cArgs = argv.map { strdup($0) }
            cArgs.append(nil)
            defer { for a in cArgs { free(a) } }
            var pid: pid_t = 0
            let rc = posix_spawn(&pid, "/usr/bin/timeout", nil, &attributes, cArgs, environ)
            guard rc == 0 else {
                stop()
                throw POSIXError(POSIXErrorCode(rawValue: rc) ?? .EINVAL)
            }
            pids.append(pid)
        }
    }

    /// Whether every hog is still spinning (none has exited).
    var allRunning: Bool {
        pids.allSatisfy { pid in
            var status: Int32 = 0
            return waitpid(pid, &status, WNOHANG) == 0
        }
    }

    /// Kills each hog's process group (`timeout` and its loop) and reaps it.
    func stop() {
        for pid in pids {
            kill(-pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        pids.removeAll()
    }

    deinit { stop() }
}

/// Spins on this thread until it has used `seconds` more CPU time.
func spinCPU(seconds: Double) {
    let end = ThreadCPUClock.now() + UInt64(seconds * 1e9)
    var x = 0
    while ThreadCPUClock.now() < end {
        for i in 0..<1000 { x &+= i }
    }
    precondition(x != 1)
}

/// The budgets count the game's own CPU time: a machine busy with other processes slows a
/// game down but never stops it, while a loop past its budget is still stopped.
@Suite(.serialized) struct CPUBudgetTests {
    /// A game whose `update` runs Lua until its thread has used `seconds` of CPU time
    /// (`cpu_seconds()`, the test's own reading of the thread's CPU clock), or for ever.
    static func busyGame(seconds: Double?) throws -> (ScratchGame, GameSession) {
        let loop = seconds.map { "local t0 = cpu_seconds() while cpu_seconds() - t0 < \($0) do busy() end" }
            ?? "while true do busy() end"
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            local function busy()
              local t = 0
              for i = 1, 2000 do t = t + i end
              return t
            end
            function game.update(dt)
              game.state.used = nil
              \(loop)
              game.state.done = true
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry), options: .init(seed: 1))
        session.vm.setGlobal("cpu_seconds") { s in
            s.push(Double(ThreadCPUClock.now()) * 1e-9)
            return 1
        }
        return (g, session)
    }

    /// The arcade's default budgets (one second per callback and per step) with four other
    /// processes spinning on a two-core machine: `update` looping for half a second of CPU
    /// takes well over a second of wall time, and is not stopped; a loop that never ends
    /// is, once it has used its budget of CPU time.
    @Test(.timeLimit(.minutes(2))) func aBusyGameIsNotStoppedByOtherProcessesButARunawayLoopIs() throws {
        let hogs = try CPUHogs(count: 4)
        defer { hogs.stop() }
        usleep(200_000)  // let them start spinning

        let limits = LuaVM.Limits()
        #expect(limits.secondsPerCall == 1 && limits.secondsPerStep == 1)

        let (busy, session) = try Self.busyGame(seconds: 0.5)
        _ = busy
        for _ in 0..<2 { session.step() }
        #expect(session.failure == nil, "\(session.failure?.message ?? "")")
        #expect(try session.state().json().contains("\"done\":true"))

        let (runaway, loop) = try Self.busyGame(seconds: nil)
        _ = runaway
        let cpu0 = ThreadCPUClock.now()
        let wall0 = ProfileClock.now()
        loop.step()
        let used = Double(ThreadCPUClock.now() - cpu0) * 1e-9
        let wall = Double(ProfileClock.now() - wall0) * 1e-9
        let f = try #require(loop.failure, "an endless loop ran on")
        #expect(f.kind == .budget, "\(f.message)")
        #expect(f.message.contains("update()"), "\(f.message)")
        // stopped once it had used its whole budget of CPU time (the hogs' time did not
        // count), or, on a machine so busy that it got under a tenth of a CPU, by the
        // wall-clock backstop of ten times the budget
        let backstop = LuaVM.Limits.wallBackstopFactor * limits.secondsPerCall
        #expect(used >= 0.99 * limits.secondsPerCall || wall >= backstop,
                "stopped after \(used) s of CPU in \(wall) s: \(f.message)")
        #expect(hogs.allRunning, "the other processes stopped spinning before the end")
    }

    // MARK: The step timer's clocks

    /// The step's budget is CPU time: a step blocked (sleeping, using no CPU) for longer than
    /// its budget has not run out of it; one that spins past it has.
    @Test func theStepBudgetCountsCPUTime() {
        var timer = StepTimer()
        timer.start(budget: 0.1)
        timer.begin(.physics)
        usleep(300_000)
        let asleep = timer.finish()
        #expect(!asleep, "0.3 s asleep used up a 0.1 s CPU budget")
        timer.begin(.physics)
        spinCPU(seconds: 0.12)
        let spun = timer.finish()
        #expect(spun, "0.12 s of CPU did not use up a 0.1 s budget")
    }

    /// The step's wall-clock backstop: ten times its budget of real time, even with little CPU.
    @Test func theStepBudgetHasAWallClockBackstop() {
        var timer = StepTimer()
        timer.start(budget: 0.02)
        timer.begin(.animation)
        usleep(100_000)
        let five = timer.finish()
        #expect(!five, "asleep for five times the budget")
        timer.begin(.animation)
        usleep(150_000)
        let eleven = timer.finish()
        #expect(eleven, "asleep for over ten times the budget")
    }

    /// A session's step with a short step budget: sleeping in a native function called from
    /// `update` does not use it up, spinning does (the step budget, not the callback's).
    @Test func aSessionsStepBudgetCountsCPUTime() throws {
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.update(dt)
              if arcade.frame() == 1 then block(0.4) end
              if arcade.frame() == 2 then spin(0.3) end
              game.state.frame = arcade.frame()
            end
            return game
            """])
        let session = try GameSession(entry: try #require(g.entry),
                                      options: .init(seed: 1, limits: .init(secondsPerCall: 30, secondsPerStep: 0.2)))
        session.vm.setGlobal("block") { s in
            usleep(UInt32((s.number(at: 1) ?? 0) * 1e6))
            return 0
        }
        session.vm.setGlobal("spin") { s in
            spinCPU(seconds: s.number(at: 1) ?? 0)
            return 0
        }
        session.step()
        #expect(session.failure == nil, "\(session.failure?.message ?? "")")
        session.step()
        let f = try #require(session.failure, "0.3 s of CPU in a 0.2 s step budget")
        #expect(f.budget == .step, "\(f.message)")
        #expect(f.message.contains("budget 0.2 s of CPU time"), "\(f.message)")
    }
}
