import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ArcadeLua

/// The time budget: a watchdog stops whatever runs past it (plain loops, loops in
/// coroutines, loops that catch their own errors, slow library calls in a loop, finalizers),
/// and code that stays inside it runs with no hook at all.
@Suite struct TimeBudgetTests {
    let fast = LuaVM.Limits(secondsPerCall: 0.05)

    func expectBudget(_ source: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let t = try TestVM(limits: fast)
        let e = t.error(source, label: "update()")
        #expect(e?.kind == .budget, "\(String(describing: e))", sourceLocation: sourceLocation)
        #expect(e?.message.hasSuffix("update() exceeded its time budget") == true, sourceLocation: sourceLocation)
        // the VM goes on working, with a fresh budget
        #expect(try t.run("local n = 0 for i = 1, 1000 do n = n + i end return n") == .int(500500),
                sourceLocation: sourceLocation)
    }

    @Test(.timeLimit(.minutes(1))) func aLoopAfterAQuietSpellIsStoppedByTheWokenWatchdog() throws {
        let t = try TestVM(limits: fast)
        // the watchdog sleeps when no budgeted callback runs; wait until it has
        // (The watchdog is the process's: while other suites run games in parallel it may
        // stay awake for them the whole time. Then there is no quiet spell to test, but the
        // loop must still be stopped; run alone, it sleeps within milliseconds.)
        let before = Watchdog.shared.sleeps
        var waited = 0
        while Watchdog.shared.sleeps == before && waited < 1_000 {
            usleep(10_000)
            waited += 1
        }
        let e = t.error("while true do end", label: "update()")
        #expect(e?.kind == .budget)
    }

    @Test func aLoopInsideACoroutineIsStopped() throws {
        try expectBudget("local co = coroutine.create(function() while true do end end) coroutine.resume(co) while true do end")
        try expectBudget("coroutine.wrap(function() while true do end end)()")
        try expectBudget("""
            local co = coroutine.wrap(function() coroutine.wrap(function() while true do end end)() end)
            co()
            """)
    }

    @Test func aLoopThatCatchesItsErrorsInACoroutineIsStopped() throws {
        try expectBudget("""
            local co = coroutine.create(function() while true do pcall(function() while true do end end) end end)
            while true do pcall(coroutine.resume, co) end
            """)
    }

    @Test func slowLibraryCallsInALoopAreStoppedByTime() throws {
        // each call is one instruction: an instruction count would let this run for minutes
        try expectBudget("while true do local s = string.rep('x', 1 << 20) end")
        try expectBudget("local t = {} for i = 1, 1e5 do t[i] = i end while true do table.concat(t, ',') end")
    }

    @Test func aLoopInAFinalizerIsStoppedAndTheFinalizerRunsAfterItsCallback() throws {
        let t = try TestVM(limits: fast)
        try t.run("""
            log_gc = {}
            setmetatable({}, { __gc = function() log_gc[#log_gc + 1] = 'ran' end })
            collectgarbage()
            return #log_gc
            """)
        #expect(try t.run("return #log_gc") == .int(1))
        let e = t.error("""
            setmetatable({}, { __gc = function() while true do end end })
            collectgarbage()
            """, label: "update()")
        #expect(e?.kind == .budget)
        #expect(e?.message.hasSuffix("__gc exceeded its time budget") == true, "\(String(describing: e))")
        #expect(try t.run("return 7") == .int(7))
    }

    @Test func anErrorInAFinalizerIsLoggedNotFatal() throws {
        let t = try TestVM(limits: fast)
        try t.run("setmetatable({}, { __gc = function() error('boom') end }) collectgarbage()")
        #expect(t.printed.contains { $0.hasPrefix("error in __gc: ") && $0.contains("boom") }, "\(t.printed)")
    }

    @Test func setmetatableKeepsLua54Behaviour() throws {
        let t = try TestVM()
        #expect(try t.run("local t = setmetatable({}, { __index = { a = 1 } }) return t.a") == .int(1))
        #expect(t.error("setmetatable(setmetatable({}, { __metatable = 'no' }), {})")?.message
                == "test/main.lua:1: cannot change a protected metatable")
        #expect(t.error("setmetatable(1, {})")?.message.contains("bad argument #1 to 'setmetatable'") == true)
    }

    @Test func coroutinesBehaveAsIn54() throws {
        let t = try TestVM()
        #expect(try t.run("""
            local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end return 'done' end)
            return table.concat({ gen(), gen(), gen(), gen() }, ' ')
            """) == .string("1 2 3 done"))
        #expect(try t.run("""
            local co = coroutine.create(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
            local _, x = coroutine.resume(co, 1)
            local _, y = coroutine.resume(co, 10)
            local ok, err = coroutine.resume(co)
            return table.concat({ x, y, tostring(ok), err }, ' ')
            """) == .string("2 20 false cannot resume dead coroutine"))
        let e = t.error("""
            local f = coroutine.wrap(function() error('inner') end)
            f()
            """)
        #expect(e?.message == "test/main.lua:2: test/main.lua:1: inner")
    }
}

/// Host work done from inside a native function (the test runner stepping a game) with the
/// budget paused does not count; the callback's own Lua still does.
@Suite struct PausedBudgetTests {
    @Test func theHostsWorkWithTheBudgetPausedDoesNotCount() throws {
        let t = try TestVM(limits: .init(secondsPerCall: 0.2))
        t.vm.setGlobal("host_work") { [unowned vm = t.vm] _ in
            vm.withBudgetPaused { spinThreadCPU(seconds: 0.3) }
            return 0
        }
        t.vm.setGlobal("slow_native") { _ in
            spinThreadCPU(seconds: 0.3)
            return 0
        }
        // two stretches of host work, each using more CPU than the whole budget
        #expect(try t.run("host_work() host_work() return 1", label: "test") == .int(1))
        // the same work without the pause is the callback's own time
        let e = t.error("slow_native() local n = 0 for i = 1, 100 do n = n + i end", label: "test")
        #expect(e?.kind == .budget, "\(String(describing: e))")
        // and Lua's own loop is still stopped after host work
        let loop = t.error("host_work() while true do end", label: "test")
        #expect(loop?.kind == .budget)
    }
}
