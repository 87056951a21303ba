import Testing
@testable import ArcadeLua

/// Values copied from one VM to another, as `g:state()` brings a game's state to its test.
@Suite struct CopyTests {
    /// Runs `source` in `from`, copies its result into `to` as the global `copied`.
    static func copy(_ source: String, from: TestVM, to: TestVM) throws {
        let fn = try from.vm.load(source, chunkName: "source")
        let s = from.vm.stack
        let base = s.top
        defer { s.setTop(base) }
        try from.vm.protectedCall(label: "make", nresults: 1, push: { _ in
            from.vm.push(fn)
            return 0
        }, results: { stack throws(LuaError) in
            let dest = to.vm.stack
            let destBase = dest.top
            defer { dest.setTop(destBase) }
            do { try dest.pushCopy(of: -1, from: stack) } catch {
                throw LuaError(kind: .runtime, message: "\(error)")
            }
            dest.pushGlobals()
            dest.pushValue(at: -2)
            dest.setField("copied", in: -2)
        })
    }

    @Test func dataComesOverWithItsTypesAndKeys() throws {
        let a = try TestVM(), b = try TestVM()
        try Self.copy("""
            return { n = 3, f = 0.5, whole = 2.0, s = "a\\0b", yes = true, list = { 10, 20, { x = 1 } },
                     sparse = { [3] = "three", [10] = "ten" }, [true] = "t", [1.5] = "half",
                     fn = function() end, co = coroutine.create(function() end) }
            """, from: a, to: b)
        #expect(try b.run("""
            local c = copied
            return table.concat({
              math.type(c.n), math.type(c.f), math.type(c.whole), #c.s, tostring(c.yes),
              c.list[3].x, c.sparse[3], c.sparse[10], c[true], c[1.5], c.fn, c.co,
            }, ",")
            """) == .string("integer,float,float,3,true,1,three,ten,t,half,<function>,<coroutine>"))
    }

    /// Tables met twice are copied once: the copy shares them as the original does, cycles
    /// included, and thirty levels of `t = { a = t, b = t }` stay thirty tables.
    @Test func sharedTablesStaySharedAndCyclesStayCycles() throws {
        let a = try TestVM(), b = try TestVM()
        try Self.copy("local t = {} t.self = t return t", from: a, to: b)
        #expect(try b.run("return rawequal(copied.self, copied)") == .bool(true))
        try Self.copy("local shared = { 1 } return { a = shared, b = shared }", from: a, to: b)
        #expect(try b.run("return rawequal(copied.a, copied.b) and copied.a[1]") == .int(1))
        try Self.copy("local t = {} for i = 1, 30 do t = { a = t, b = t } end return t", from: a, to: b)
        #expect(try b.run("""
            local n, t = 0, copied
            while t.a do
              assert(rawequal(t.a, t.b))
              n, t = n + 1, t.a
            end
            return n
            """) == .int(30))
    }

    @Test func tooDeepIsRefusedAndNothingIsLeftBehind() throws {
        let a = try TestVM(), b = try TestVM()
        let top = b.vm.stack.top
        #expect(throws: LuaError.self) {
            try Self.copy("local t = {} for i = 1, 100 do t = { t } end return t", from: a, to: b)
        }
        #expect(b.vm.stack.top == top)
    }
}
