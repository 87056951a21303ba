import Testing
@testable import ArcadeLua

/// Work inside one C function, where the time budget's hook cannot reach: pathological
/// patterns, huge repetitions and table ranges, long utf8 scans, huge chunks. Each is stopped
/// from inside the function once its callback is overdue, with the usual budget error.
///
/// The pattern and range cases run for hours with Lua's own functions (each is one call the
/// hook never sees). The others finish in tens of milliseconds each, so a loop of them was
/// already stopped, but only between calls: the traceback shows that the error now comes from
/// inside the function, so one call no longer runs on past the budget.
@Suite(.serialized) struct LongCallTests {
    let budget = LuaVM.Limits(secondsPerCall: 0.2)

    /// Runs `setup` (one callback each), then `source` as update(), which must stop with the
    /// budget error; when `inside` is given, the error was raised inside that function.
    func expectStopped(_ source: String, inside function: String? = nil, setup: [String] = [],
                       sourceLocation: SourceLocation = #_sourceLocation) throws {
        let t = try TestVM(limits: budget)
        for chunk in setup { try t.run(chunk) }
        let e = t.error(source, label: "update()")
        #expect(e?.kind == .budget, "\(String(describing: e))", sourceLocation: sourceLocation)
        #expect(e?.message.hasPrefix("test/main.lua:") == true, "\(String(describing: e))", sourceLocation: sourceLocation)
        #expect(e?.message.hasSuffix("update() exceeded its time budget") == true, sourceLocation: sourceLocation)
        if let function {
            let top = e?.traceback.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
            #expect(top.contains("[C]: in function '\(function)'"), "\(e?.traceback ?? "")", sourceLocation: sourceLocation)
        }
        // the same VM goes on, with a fresh budget
        #expect(try t.run("return ('x'):rep(3) .. #{ ('a b c'):find('b') }") == .string("xxx2"), sourceLocation: sourceLocation)
    }

    // MARK: Patterns

    static let backtracking: [(String, String)] = [
        ("string.find", "string.find(string.rep('a', 60000), '.-.-.-.-b')"),
        ("string.match", "string.match(string.rep('a', 60000), '(.-)(.-)(.-)(.-)b')"),
        ("string.gsub", "string.gsub(string.rep('a', 30000), '.-.-.-b', '')"),
        ("string.find", "string.find(string.rep('a', 30000), 'a*a*a*b')"),
        ("string.find", "string.find(string.rep('(', 300000), '%b()x')"),
        ("string.find", "string.find(string.rep('a', 60000), '(a*)%1%1b')"),
        ("string.find", "string.find(string.rep('a ', 30000), '%f[%w].-%f[%W].-%f[%w].-x')"),
        ("string.match", "string.match(string.rep('ab', 30000), '^(.-)%s*(.-)(.-)$x')"),
    ]

    @Test(arguments: backtracking)
    func aBacktrackingPatternIsStoppedInsideTheCall(_ function: String, _ call: String) throws {
        try expectStopped(call, inside: function)
    }

    @Test func theMethodFormAndTheIteratorAreStoppedToo() throws {
        try expectStopped("local s = ('a'):rep(60000) return s:find('.-.-.-.-b')", inside: "string.find")
        try expectStopped("local s = ('a'):rep(30000) for w in s:gmatch('a-a-a-b') do end")
        try expectStopped("local it = string.gmatch(('a'):rep(30000), '.-.-.-b') return it()")
    }

    @Test func catchingTheErrorDoesNotKeepThePatternRunning() throws {
        try expectStopped("""
            local s = string.rep('a', 60000)
            while true do pcall(string.find, s, '.-.-.-.-b') end
            """)
        try expectStopped("""
            local s = string.rep('a', 60000)
            local co = coroutine.wrap(function() return string.find(s, '.-.-.-.-b') end)
            co()
            """)
        try expectStopped("""
            local s = string.rep('a', 60000)
            local co = coroutine.create(function() while true do pcall(string.gsub, s, '.-.-.-b', '') end end)
            while true do coroutine.resume(co) end
            """)
    }

    @Test func patternsKeepLuasLimitsWithClearErrors() throws {
        let t = try TestVM(limits: budget)
        #expect(t.error("return string.find(string.rep('a', 500), string.rep('a?', 500))")?.message
                == "test/main.lua:1: pattern too complex")
        #expect(t.error("return string.find('abc', string.rep('(', 40) .. string.rep(')', 40))")?.message
                == "test/main.lua:1: too many captures")
        #expect(t.error("return ('x'):match('%')")?.message == "test/main.lua:1: malformed pattern (ends with '%')")
        #expect(t.error("return ('x'):gsub('x', '%2')")?.message == "test/main.lua:1: invalid capture index %2")
        #expect(try t.run("return select(2, string.gsub(string.rep('ab', 1000), 'b', 'c'))") == .int(1000))
    }

    // MARK: string.rep

    @Test func repeatingNothingReturnsAtOnce() throws {
        // Lua's own loop copies zero bytes 2^63 times
        let t = try TestVM(limits: budget)
        #expect(try t.run("return string.rep('', math.maxinteger)") == .string(""))
        #expect(try t.run("return #string.rep('', 1e15, '')") == .int(0))
        #expect(try t.run("return ('ab'):rep(3, ', ')") == .string("ab, ab, ab"))
        #expect(t.error("return string.rep('ab', 1e10)")?.message == "test/main.lua:1: resulting string too large")
    }

    @Test func hugeRepetitionsAreStoppedInsideTheCall() throws {
        try expectStopped("for i = 1, 1e6 do local s = string.rep('ab', 4e6, ',') end", inside: "string.rep")
    }

    @Test func quotingAHugeStringIsStoppedInsideTheCall() throws {
        let setup = ["S = string.rep('\\0\\n', 1 << 19)"] + Array(repeating: "S = S .. S", count: 3)     // 8 MB
        try expectStopped("for i = 1, 1e6 do string.format('%q', S) end", inside: "string.format", setup: setup)
        try expectStopped("for i = 1, 1e6 do string.format('x = %q, y = %d', S, i) end", inside: "string.format", setup: setup)
        let t = try TestVM(limits: budget)
        // the long string is quoted in pieces; the result is Lua's
        #expect(try t.run("return string.format('%q|%5.1f', string.rep('\\0' .. '1', 70000), 2)")
                == .string("\"" + String(repeating: "\\0001", count: 70000) + "\"|  2.0"))
        #expect(t.error("return string.format('%q %d', string.rep('x', 70000), 'y')")?.message
                == "test/main.lua:1: bad argument #3 to 'format' (number expected, got string)")
    }

    // MARK: table

    @Test func hugeRangesAreStopped() throws {
        let huge = "setmetatable({}, { __len = function() return 1e15 end })"
        try expectStopped("table.move({}, 1, 1e15, 2)", inside: "table.move")
        try expectStopped("table.move({}, 1, 1e15, 3, {})", inside: "table.move")
        try expectStopped("table.move({}, 5, 1e15, 2)", inside: "table.move")
        try expectStopped("table.insert(\(huge), 1, 'x')", inside: "table.insert")
        try expectStopped("table.remove(\(huge), 1)", inside: "table.remove")
    }

    /// A million elements, built a hundred thousand per callback.
    static let millionElements = (0..<10).map { c in
        "T = T or {} for i = \(c * 100_000 + 1), \((c + 1) * 100_000) do T[i] = (i * 7919) % 1000003 end"
    }

    @Test func longSortsConcatsAndUnpacksAreStoppedInsideTheCall() throws {
        try expectStopped("for i = 1, 1e6 do table.sort(T) table.sort(T, nil) end", inside: "table.sort",
                          setup: Self.millionElements)
        try expectStopped("for i = 1, 1e6 do table.concat(T, ',') end", inside: "table.concat",
                          setup: Self.millionElements)
        try expectStopped("for i = 1, 1e6 do table.unpack(T, 1, 900000) end", inside: "table.unpack",
                          setup: Self.millionElements)
    }

    @Test func aStoppedSortLeavesEveryElementInTheTable() throws {
        let t = try TestVM(limits: budget)
        for chunk in Self.millionElements { try t.run(chunk) }
        let sum = "local n = 0 for i = 1, #T do n = n + T[i] end return n"
        let before = try t.run(sum)
        _ = t.error("for i = 1, 1e6 do table.sort(T, i % 2 == 0 and function(a, b) return a > b end or nil) end",
                    label: "update()")
        #expect(try t.run("return #T") == .int(1_000_000))
        #expect(try t.run(sum) == before)
    }

    // MARK: utf8, load

    @Test func longUtf8ScansAreStoppedInsideTheCall() throws {
        // 16 MB of two-byte characters, doubled a callback at a time
        let setup = ["S = string.rep('\\u{e9}', 1 << 19)"] + Array(repeating: "S = S .. S", count: 4)
        try expectStopped("for i = 1, 1e6 do utf8.len(S) end", inside: "utf8.len", setup: setup)
        try expectStopped("for i = 1, 1e6 do utf8.offset(S, 8e6) end", inside: "utf8.offset", setup: setup)
        try expectStopped("for i = 1, 1e6 do utf8.offset(S, -8e6) end", inside: "utf8.offset", setup: setup)
    }

    @Test func compilingAHugeChunkIsStoppedInsideLoad() throws {
        let setup = ["SRC = string.rep('x = x + 1 ', 8e5)"]     // 8.8 MB of statements
        try expectStopped("for i = 1, 1e6 do load(SRC) end", inside: "load", setup: setup)
        try expectStopped("""
            for i = 1, 1e6 do
              local done = false
              load(function() if not done then done = true return SRC end end)
            end
            """, inside: "load", setup: setup)
    }

    @Test func loadStillBehavesAsLua54() throws {
        let t = try TestVM(limits: budget)
        // a long string literal that crosses the pieces the parser is fed in
        #expect(try t.run("return #load('return [[' .. string.rep('x', 200000) .. ']]')()") == .int(200_000))
        #expect(try t.run("return load('return y', 'chunk', 't', { y = 4 })()") == .int(4))
        #expect(try t.run("return select(2, load('x =', '=chunk'))") == .string("chunk:1: unexpected symbol near <eof>"))
        #expect(try t.run("""
            local parts, i = { 'return ', '1 ', '+ 2' }, 0
            return load(function() i = i + 1 return parts[i] end)()
            """) == .int(3))
        // raised inside the parser's reader, so the message handler adds a traceback, as with Lua's load
        let bad = try t.run("return select(2, load(function() return {} end))")
        #expect(bad.stringValue?.hasPrefix("test/main.lua:1: reader function must return a string") == true, "\(bad)")
    }
}
