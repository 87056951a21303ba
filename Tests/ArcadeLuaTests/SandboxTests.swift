import Testing
@testable import ArcadeLua

/// Each sandbox escape or resource attack is stopped with its own exact message, and the
/// VM (or a fresh one) runs the next script afterwards.
@Suite struct SandboxTests {
    func expectStopped(_ source: String, message: String, kind: LuaError.Kind = .runtime,
                       limits: LuaVM.Limits = .init(), label: String = "load()") throws {
        let t = try TestVM(limits: limits)
        let e = t.error(source, label: label)
        #expect(e?.message == message)
        #expect(e?.kind == kind)
        // the same VM still works, and so does a new one
        #expect(try t.run("return 40 + 2") == .int(42))
        #expect(try TestVM().run("return 'next game'") == .string("next game"))
    }

    @Test func osExecute() throws {
        try expectStopped("os.execute('ls')", message: "test/main.lua:1: attempt to call a nil value (field 'execute'); if this is os.execute: only os.clock is available to games (game time; see also arcade.time)")
    }

    @Test func ioOpen() throws {
        try expectStopped("local f = io.open('/etc/passwd')",
                          message: "test/main.lua:1: attempt to index a nil value (global 'io'); games have no file access (use arcade.save)")
    }

    @Test func packageLoadlib() throws {
        try expectStopped("package.loadlib('libc.so.6', 'system')",
                          message: "test/main.lua:1: attempt to index a nil value (global 'package'); 'package' is not available to games (use require)")
    }

    @Test func debugLibrary() throws {
        try expectStopped("debug.getregistry()", message: "test/main.lua:1: attempt to index a nil value (global 'debug'); 'debug' is not available to games")
    }

    @Test func binaryChunkThroughLoad() throws {
        let t = try TestVM()
        // a binary chunk starts with ESC 'Lua'
        let r = try t.run(#"local f, err = load("\27Lua\84\0\25\147\r\n\26\n", "x", "b"); return err"#)
        #expect(r == .string("load: only text chunks are allowed in games (mode 'b' refused)"))
        let r2 = try t.run(#"local f, err = load("\27Lua\84\0\25\147\r\n\26\n"); return err"#)
        #expect(r2 == .string("attempt to load a binary chunk (mode is 't')"))
        let r3 = try t.run(#"return load("return 5")()"#)
        #expect(r3 == .int(5))
    }

    @Test func stringDump() throws {
        try expectStopped("local s = string.dump(function() end)", message: "test/main.lua:1: attempt to call a nil value (field 'dump'); if this is string.dump: it is not available to games")
    }

    @Test func dofileAndLoadfile() throws {
        try expectStopped("dofile('/etc/passwd')", message: "test/main.lua:1: attempt to call a nil value (global 'dofile'); dofile is not available to games (use require)")
        try expectStopped("loadfile('/etc/passwd')", message: "test/main.lua:1: attempt to call a nil value (global 'loadfile'); loadfile is not available to games (use require)")
    }

    @Test func collectgarbageCannotStopTheCollector() throws {
        try expectStopped("collectgarbage('stop')", message: "test/main.lua:1: collectgarbage('stop') is not available to games")
        let t = try TestVM()
        #expect(try t.run("return type(collectgarbage('count'))") == .string("number"))
    }

    @Test func infiniteLoop() throws {
        try expectStopped("""
            local n = 0
            while true do
              n = n + 1
            end
            """, message: "test/main.lua:3: update() exceeded its time budget", kind: .budget,
            limits: .init(secondsPerCall: 0.05), label: "update()")
    }

    @Test func infiniteLoopThatCatchesItsOwnErrors() throws {
        let t = try TestVM(limits: .init(secondsPerCall: 0.05))
        let e = t.error("""
            while true do
              pcall(function() while true do end end)
            end
            """, label: "update()")
        #expect(e?.kind == .budget)
        #expect(e?.message.hasSuffix("update() exceeded its time budget") == true)
        #expect(try t.run("return 1") == .int(1))
    }

    @Test func memoryBombStringRep() throws {
        try expectStopped("local s = string.rep('x', 1e9)", message: "test: load() exceeded its memory limit (64 MiB)", kind: .memory)
    }

    @Test func memoryBombTableGrowth() throws {
        try expectStopped("""
            local t = {}
            local i = 0
            while true do
              i = i + 1
              t[i] = { i, i, i, i }
            end
            """, message: "test: load() exceeded its memory limit (8 MiB)", kind: .memory,
            limits: .init(memoryBytes: 8 << 20))
    }

    @Test func memoryUsedByNativeFunctionIsCapped() throws {
        // a Swift function that pushes a large string while near the cap: no crash, clear error
        let t = try TestVM(limits: .init(memoryBytes: 4 << 20))
        t.vm.setGlobal("big") { s in
            s.push(String(repeating: "y", count: 3 << 20))
            return 1
        }
        let e = t.error("local keep = {} for i = 1, 10 do keep[i] = big() end")
        #expect(e?.kind == .memory)
        #expect(e?.message == "test: load() exceeded its memory limit (4 MiB)")
        #expect(try t.run("return 'fine'") == .string("fine"))
    }

    @Test func infiniteRecursion() throws {
        let t = try TestVM()
        let e = t.error("local function f(n) return 1 + f(n + 1) end return f(1)")
        #expect(e?.kind == .runtime)
        #expect(e?.message.hasPrefix("test/main.lua:1: stack overflow") == true)
        #expect(try t.run("return 3") == .int(3))
    }

    @Test func errorObjectThatIsATable() throws {
        let t = try TestVM()
        let e = t.error("error({ code = 7, why = 'bad' })")
        #expect(e?.message == #"test/main.lua:1: error object is a table: {code = 7, why = "bad"}"# ||
                e?.message == #"test/main.lua:1: error object is a table: {why = "bad", code = 7}"#)
        #expect(e?.line == 1)
        let e2 = t.error("error(setmetatable({}, { __tostring = function() return 'custom!' end }))")
        #expect(e2?.message == "test/main.lua:1: custom!")
        let e3 = t.error("error(nil)")
        #expect(e3?.message == "test/main.lua:1: error object is a nil value: nil")
    }

    @Test func printGoesToTheLog() throws {
        let t = try TestVM()
        try t.run("print('a', 1, nil, true)")
        #expect(t.printed == ["a\t1\tnil\ttrue"])
    }

    @Test func mathRandomUsesTheHostGenerator() throws {
        func draws(seed: UInt64) throws -> LuaValue {
            let t = try TestVM()
            t.vm.random = .init(seed: seed)
            return try t.run("local r = {} for i = 1, 5 do r[i] = math.random(1, 100) end r[6] = math.random() return r")
        }
        #expect(try draws(seed: 1) == draws(seed: 1))
        #expect(try draws(seed: 1) != draws(seed: 2))
        let t = try TestVM()
        #expect(t.error("return math.random(5, 1)")?.message == "test/main.lua:1: bad argument #1 to 'math.random' (interval is empty)")
    }

    @Test func osClockIsGameTime() throws {
        let t = try TestVM()
        t.vm.gameTime = 12.5
        #expect(try t.run("return os.clock()") == .number(12.5))
    }
}
