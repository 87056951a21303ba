import Testing
@testable import ArcadeLua

@Suite struct TrampolineTests {
    /// An error raised by a Swift function is a normal Lua error: catchable by pcall, and the
    /// VM stays usable after thousands of them (a longjmp through Swift would corrupt it).
    @Test func swiftErrorIsCatchableByPcallThousandsOfTimes() throws {
        let t = try TestVM()
        var calls = 0
        t.vm.setGlobal("fail") { s in
            calls += 1
            throw LuaScriptError("native failure \(s.integer(at: 1) ?? -1)")
        }
        let result = try t.run("""
            local caught, last = 0, nil
            for i = 1, 5000 do
              local ok, err = pcall(function() fail(i) end)
              if not ok then caught = caught + 1; last = err end
            end
            return { caught = caught, last = last }
            """)
        #expect(calls == 5000)
        #expect(result["caught"] == .int(5000))
        #expect(result["last"] == .string("test/main.lua:3: native failure 5000"))
        // still usable
        #expect(try t.run("return 1 + 1") == .int(2))
    }

    @Test func argumentErrorsNameTheFunctionAndArgument() throws {
        let t = try TestVM()
        t.vm.setGlobal("needs_number") { s in
            guard let n = s.number(at: 1) else { throw LuaArgumentError(1, "number expected, got \(s.typeName(at: 1))") }
            s.push(n * 2)
            return 1
        }
        #expect(try t.run("return needs_number(21)") == .int(42) || (try t.run("return needs_number(21)")) == .number(42))
        let e = t.error("return needs_number('x')")
        #expect(e?.message == "test/main.lua:1: bad argument #1 to 'needs_number' (number expected, got string)")
        #expect(e?.file == "test/main.lua")
        #expect(e?.line == 1)
    }

    @Test func uncaughtSwiftErrorReportsTraceback() throws {
        let t = try TestVM()
        t.vm.setGlobal("boom") { _ in throw LuaScriptError("kaboom") }
        let e = t.error("""
            local function inner() boom() end
            inner()
            """)
        #expect(e?.kind == .runtime)
        #expect(e?.message == "test/main.lua:1: kaboom")
        #expect(e?.traceback.hasPrefix("stack traceback:") == true)
        #expect(e?.traceback.contains("test/main.lua:2") == true)
    }

    @Test func nativeFunctionsReturnValues() throws {
        let t = try TestVM()
        t.vm.setGlobal("pair") { s in
            s.push("a")
            s.push(Int64(7))
            return 2
        }
        #expect(try t.run("local a, b = pair(); return a .. b") == .string("a7"))
    }
}
