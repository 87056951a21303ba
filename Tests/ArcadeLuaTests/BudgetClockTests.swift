import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ArcadeLua

/// Spins on this thread until it has used `seconds` more CPU time.
func spinThreadCPU(seconds: Double) {
    let end = ThreadCPUClock.now() + UInt64(seconds * 1e9)
    var x = 0
    while ThreadCPUClock.now() < end {
        for i in 0..<1000 { x &+= i }
    }
    precondition(x != 1)
}

/// Which clock each budget reads: a callback's and a step's budgets count the CPU time of
/// the thread running them, so time spent blocked (or given to other processes) does not
/// use them up; a wall-clock backstop of ten times the budget still stops a blocked call.
@Suite struct BudgetClockTests {
    /// A VM with `block(s)` (sleeps, using no CPU) and `spin(s)` (uses s of CPU) natives.
    static func vm(_ limits: LuaVM.Limits) throws -> TestVM {
        let t = try TestVM(limits: limits)
        t.vm.setGlobal("block") { s in
            usleep(UInt32((s.number(at: 1) ?? 0) * 1e6))
            return 0
        }
        t.vm.setGlobal("spin") { s in
            spinThreadCPU(seconds: s.number(at: 1) ?? 0)
            return 0
        }
        return t
    }

    @Test func theCallBudgetCountsCPUTimeNotTimeBlocked() throws {
        let t = try Self.vm(.init(secondsPerCall: 0.1))
        // 0.4 s blocked, four times the budget: not stopped
        #expect(try t.run("block(0.2) block(0.2) return 1", label: "update()") == .int(1))
        // 0.15 s of CPU: stopped
        let e = t.error("spin(0.15) local n = 0 for i = 1, 10 do n = n + i end", label: "update()")
        #expect(e?.kind == .budget, "\(String(describing: e))")
        #expect(e?.message.hasSuffix("update() exceeded its time budget") == true, "\(String(describing: e))")
    }

    @Test func theCallBudgetHasAWallClockBackstop() throws {
        let t = try Self.vm(.init(secondsPerCall: 0.05))
        #expect(LuaVM.Limits.wallBackstopFactor == 10)
        // blocked 0.3 s in all: under the 0.5 s backstop
        #expect(try t.run("for i = 1, 6 do block(0.05) end return 1", label: "update()") == .int(1))
        // blocked in a loop for ever: stopped by the backstop
        let e = t.error("while true do block(0.02) end", label: "update()")
        #expect(e?.kind == .budget, "\(String(describing: e))")
        #expect(e?.message.hasSuffix("update() exceeded its time budget") == true, "\(String(describing: e))")
    }

    @Test func theStepBudgetCountsCPUTimeNotTimeBlocked() throws {
        let t = try Self.vm(.init(secondsPerCall: 30, secondsPerStep: 0.1))
        func begin() {
            t.vm.beginStep(deadline: ThreadCPUClock.now() + 100_000_000,
                           wallDeadline: wallNanoseconds() + 1_000_000_000)
        }
        begin()
        #expect(try t.run("block(0.2) return 1", label: "update()") == .int(1))
        #expect(try t.run("block(0.2) return 2", label: "timer callback") == .int(2))
        let e = t.error("spin(0.15) local n = 0 for i = 1, 10 do n = n + i end", label: "timer callback")
        t.vm.endStep()
        #expect(e?.kind == .budget && e?.budget == .step, "\(String(describing: e))")
        #expect(e?.message.hasSuffix("timer callback ran past the step's time budget") == true, "\(String(describing: e))")
    }

    @Test func theStepBudgetHasAWallClockBackstop() throws {
        let t = try Self.vm(.init(secondsPerCall: 30, secondsPerStep: 0.1))
        t.vm.beginStep(deadline: ThreadCPUClock.now() + 100_000_000, wallDeadline: wallNanoseconds() + 300_000_000)
        defer { t.vm.endStep() }
        let e = t.error("while true do block(0.02) end", label: "update()")
        #expect(e?.kind == .budget && e?.budget == .step, "\(String(describing: e))")
    }
}

/// CLOCK_MONOTONIC in nanoseconds, the clock of the budgets' wall-clock backstop.
func wallNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
