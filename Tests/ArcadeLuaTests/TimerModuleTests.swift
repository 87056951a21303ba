import Testing
import ArcadeCore
@testable import ArcadeLua

@Suite struct TimerModuleTests {
    func fire(_ timers: TimerModule, _ vm: LuaVM, until time: Double) throws {
        timers.now = time
        try timers.fireDue { cb throws(LuaError) in
            try vm.protectedCall(label: "timer callback") { _ in vm.push(cb); return 0 }
        }
    }

    @Test func afterEveryCancelInDeterministicOrder() throws {
        let t = try TestVM()
        let timers = TimerModule(vm: t.vm)
        try t.run("""
            order = {}
            arcade.after(0.2, function() order[#order + 1] = "b" end)
            arcade.after(0.1, function() order[#order + 1] = "a" end)
            arcade.after(0.2, function() order[#order + 1] = "c" end)
            local n = 0
            tick = arcade.every(0.05, function() n = n + 1; order[#order + 1] = "t" .. n end)
            local dead = arcade.after(0.15, function() order[#order + 1] = "never" end)
            cancelled = dead:cancel()
            """)
        try fire(timers, t.vm, until: 0.1)
        try fire(timers, t.vm, until: 0.2)
        #expect(try t.run("return order") == .array(["t1", "a", "t2", "t3", "b", "c", "t4"].map { .string($0) }))
        #expect(try t.run("return cancelled") == .bool(true))
        #expect(try t.run("return tick:is_pending()") == .bool(true))
        #expect(try t.run("return tick:cancel(), tick:cancel()") == .bool(true))
        #expect(timers.queue.count == 0)
    }

    @Test func remainingCountsDownToTheNextFiring() throws {
        let t = try TestVM()
        let timers = TimerModule(vm: t.vm)
        try t.run("""
            once = arcade.after(2, function() end)
            tick = arcade.every(0.5, function() end)
            """)
        #expect(try t.run("return once:remaining()").doubleValue == 2)
        try fire(timers, t.vm, until: 0.75)
        #expect(try t.run("return once:remaining()").doubleValue == 1.25)
        #expect(try t.run("return tick:remaining()").doubleValue == 0.25)  // fired at 0.5, next at 1
        try fire(timers, t.vm, until: 2)
        #expect(try t.run("return once:remaining()").doubleValue == 0)
        #expect(try t.run("return once:is_pending()") == .bool(false))
        #expect(try t.run("tick:cancel() return tick:remaining()").doubleValue == 0)
    }

    @Test func timerCreatedInsideACallbackWaitsForTheNextPass() throws {
        let t = try TestVM()
        let timers = TimerModule(vm: t.vm)
        try t.run("""
            count = 0
            local function again() count = count + 1; arcade.after(0, again) end
            arcade.after(0, again)
            """)
        try fire(timers, t.vm, until: 0.0)
        try fire(timers, t.vm, until: 0.0)
        #expect(try t.run("return count") == .int(2))
    }

    @Test func callbacksAreReleased() throws {
        let t = try TestVM()
        let timers = TimerModule(vm: t.vm)
        try t.run("for i = 1, 10 do arcade.after(1, function() end) end")
        t.vm.collectGarbage()
        let baseline = t.vm.memoryInUse
        for _ in 0..<20 {
            try t.run("for i = 1, 5000 do local big = string.rep('x', 100) .. i; arcade.after(0.5, function() return big end) end")
            try fire(timers, t.vm, until: timers.now + 1)
            t.vm.collectGarbage()
        }
        #expect(timers.queue.count == 0)
        #expect(t.vm.memoryInUse < baseline + 256 << 10)
    }

    @Test func badArguments() throws {
        let t = try TestVM()
        _ = TimerModule(vm: t.vm)
        #expect(t.error("arcade.after('soon', print)")?.message ==
                "test/main.lua:1: bad argument #1 to 'arcade.after' (number expected, got string)")
        #expect(t.error("arcade.every(1)")?.message ==
                "test/main.lua:1: bad argument #2 to 'arcade.every' (function expected, got no value)")
        #expect(t.error("arcade.every(0, print)")?.message ==
                "test/main.lua:1: bad argument #1 to 'arcade.every' (interval must be at least 0.001 s)")
    }
}
