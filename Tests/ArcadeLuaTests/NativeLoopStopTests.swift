import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import ArcadeLua

/// A native function a game can keep busy (measuring a huge text, say) looks at
/// ``LuaVM/isOverdue`` as it goes and stops with the budget error; another thread can
/// interrupt the running work (the terminal's Ctrl-C), Lua loops and native ones alike.
@Suite(.serialized) struct NativeLoopStopTests {
    /// A VM with `spin()`: a native loop that runs until its callback is overdue.
    static func spinning(_ limits: LuaVM.Limits) throws -> TestVM {
        let t = try TestVM(limits: limits)
        let vm = t.vm
        t.vm.setGlobal("spin") { _ in
            while !vm.isOverdue {}
            throw LuaBudgetStop()
        }
        return t
    }

    @Test func aNativeLoopStopsWithTheBudgetError() throws {
        let t = try Self.spinning(.init(secondsPerCall: 0.05))
        let e = t.error("spin()", label: "update()")
        #expect(e?.kind == .budget)
        #expect(e?.budget == .call)
        #expect(e?.message == "test/main.lua:1: update() exceeded its time budget", "\(String(describing: e))")
        // a pcall around it catches nothing: the next instruction raises again
        let caught = t.error("while true do pcall(spin) end", label: "update()")
        #expect(caught?.kind == .budget)
        // the VM goes on with a fresh budget
        #expect(try t.run("return 1 + 1") == .int(2))
    }

    /// Interrupts `t`'s VM from another thread after `seconds`.
    static func interrupt(_ t: TestVM, after seconds: Double) -> pthread_t {
        final class Box: @unchecked Sendable {
            let interruption: LuaVM.Interruption
            let seconds: Double
            init(_ i: LuaVM.Interruption, _ s: Double) { interruption = i; seconds = s }
        }
        let box = Unmanaged.passRetained(Box(t.vm.interruption, seconds)).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { arg in
            let box = Unmanaged<Box>.fromOpaque(arg!).takeRetainedValue()
            usleep(useconds_t(box.seconds * 1e6))
            box.interruption.interrupt()
            return nil
        }, box)
        return thread
    }

    @Test(arguments: ["while true do end", "spin()", "while true do pcall(spin) end"])
    func anInterruptStopsWorkThatHasNoBudget(_ source: String) throws {
        let t = try Self.spinning(.init(secondsPerCall: 0, secondsPerStep: 0))
        _ = try t.run("return 1")  // a call has run: the VM has a thread to signal
        let thread = Self.interrupt(t, after: 0.05)
        let e = t.error(source, label: "update()")
        pthread_join(thread, nil)
        #expect(e?.kind == .budget)
        #expect(e?.budget == .interrupt)
        #expect(e?.message == "test/main.lua:1: update() was interrupted (Ctrl-C)", "\(String(describing: e))")
        #expect(t.vm.isInterrupted)
        // every call stops until the host lets them run again
        #expect(t.error("return 1")?.budget == .interrupt)
        t.vm.clearInterruption()
        #expect(try t.run("return 1 + 1") == .int(2))
    }
}
