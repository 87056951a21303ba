import Testing
import CLua
import CLuaLib
@testable import ArcadeLua

/// The arcade's fork of Lua's library functions (CLuaLib) against Lua 5.4's own.
///
/// The fork replaces string.find, match, gmatch, gsub, rep and format; table.concat,
/// insert, remove, move, unpack and sort; utf8.len and offset; and load. Every case runs
/// twice: in a game's sandboxed VM, where those names are the fork's, and in a plain
/// `lua_State` opened with `luaL_openlibs` (the system liblua's own `luaopen_string`,
/// `luaopen_table`..., nothing of the arcade's). The outcomes, results or error messages,
/// must be the same byte for byte. Where the fork differs on purpose a case records only
/// what both must agree on, and the tests of `LibraryDifferenceTests` check each
/// difference itself:
///   - table.sort leaves elements that compare equal in an order of its own, the same on
///     every run, and notices an invalid order function in other cases than Lua's sort;
///   - string.format calls a "%s" argument's __tostring twice in a format that quotes a
///     long string with "%q";
///   - load refuses binary chunks and modes without 't';
///   - string.rep("", n) returns at once for any n, where the stock loop would run n times
///     (so the cases leave out the huge n that would keep the stock one busy for seconds).
///
/// The cases themselves are Lua (`LibraryCases`, one section per library), and record
/// their outcomes with nothing the fork replaces, so a wrong fork function changes the
/// outcomes of exactly the cases that call it. The functions the fork leaves alone
/// (string.byte, char, sub, pack, table.pack, utf8.char, codes...) are Lua's own in both
/// states and are not compared.
@Suite struct LibraryCompatibilityTests {
    @Test func patternsOnHandPickedCases() throws {
        let r = try LibraryComparison.run(LibraryCases.patterns)
        #expect(r.mismatches.isEmpty, "\(r.report)")
        #expect(r.cases > 10_000 && r.errors > 2_500 && r.hits > 6_000, "\(r.counts)")
    }

    @Test(arguments: [1, 2])
    func patternsOnSeededRandomCases(seed: Int) throws {
        let r = try LibraryComparison.run(LibraryCases.randomPatterns, args: [seed, 3000])
        #expect(r.mismatches.isEmpty, "\(r.report)")
        // the generator reaches every kind of outcome
        #expect(r.cases > 80_000 && r.errors > 10_000 && r.hits > 25_000, "\(r.counts)")
    }

    @Test func plainFindOverLongTexts() throws {
        let r = try LibraryComparison.run(LibraryCases.plainFind, args: [1])
        #expect(r.mismatches.isEmpty, "\(r.report)")
        #expect(r.cases > 250 && r.hits > 80, "\(r.counts)")
    }

    @Test func format() throws {
        let r = try LibraryComparison.run(LibraryCases.format)
        #expect(r.mismatches.isEmpty, "\(r.report)")
        #expect(r.cases > 18_000 && r.errors > 14_000 && r.hits > 4_000, "\(r.counts)")
    }

    @Test func rep() throws {
        let r = try LibraryComparison.run(LibraryCases.rep, args: [1])
        #expect(r.mismatches.isEmpty, "\(r.report)")
        #expect(r.cases > 600 && r.errors > 100 && r.hits > 450, "\(r.counts)")
    }

    @Test func tableFunctions() throws {
        let r = try LibraryComparison.run(LibraryCases.table, args: [1])
        #expect(r.mismatches.isEmpty, "\(r.report)")
        #expect(r.cases > 8_000 && r.errors > 1_000 && r.hits > 6_000, "\(r.counts)")
    }

    @Test func sort() throws {
        let r = try LibraryComparison.run(LibraryCases.sort, args: [1])
        #expect(r.mismatches.isEmpty, "\(r.report)")
        #expect(r.cases > 2_500 && r.errors > 10 && r.hits > 2_500, "\(r.counts)")
    }

    @Test func utf8() throws {
        let r = try LibraryComparison.run(LibraryCases.utf8, args: [1])
        #expect(r.mismatches.isEmpty, "\(r.report)")
        #expect(r.cases > 4_500 && r.errors > 1_000 && r.hits > 3_000, "\(r.counts)")
    }

    @Test func load() throws {
        let r = try LibraryComparison.run(LibraryCases.load)
        #expect(r.mismatches.isEmpty, "\(r.report)")
        // load reports most failures as results (nil and a message), not as errors
        #expect(r.cases > 300 && r.errors >= 5 && r.hits > 300, "\(r.counts)")
    }

    @Test func theComparisonNoticesADifferentResult() throws {
        // a find that is wrong for one pattern only, in the game's VM
        let r = try LibraryComparison.run("""
            case("find ()", function() return string.find("abc", "()") end)
            case("find b", function() return string.find("abc", "b") end)
            """, arcadePrelude: """
            local find = string.find
            string.find = function(s, p, ...) if p == "()" then return 1 end return find(s, p, ...) end
            """)
        #expect(r.mismatches.count == 1 && r.report.contains("find ()"), "\(r.report)")
    }

    @Test func theComparisonNoticesADifferentErrorMessage() throws {
        let r = try LibraryComparison.run("""
            case("rep bad n", function() return string.rep("x", {}) end)
            case("rep", function() return string.rep("x", 3) end)
            """, arcadePrelude: """
            local rep = string.rep
            string.rep = function(s, n, ...)
              if type(n) == "table" then error("bad argument #2 to 'rep' (number expected, got a table)", 2) end
              return rep(s, n, ...)
            end
            """)
        #expect(r.mismatches.count == 1 && r.report.contains("rep bad n"), "\(r.report)")
    }

    @Test func theComparisonNoticesAMissingCase() throws {
        let r = try LibraryComparison.run("""
            if string.rep("x", 2) == "xx" then case("one", function() end) end
            case("two", function() end)
            """, arcadePrelude: "string.rep = function() return '' end")
        #expect(!r.mismatches.isEmpty, "\(r.report)")
    }
}

/// Runs cases in the two states and compares what they gave.
enum LibraryComparison {
    /// The chunk name of the cases in both states (it shows in the messages of errors the
    /// cases raise themselves).
    static let chunkName = "cases.lua"

    /// What one value of an outcome was. Floats compare by their bits (so -0.0 is not 0.0),
    /// any NaN equal to any NaN; tables and functions by their type only.
    enum Shown: Equatable, CustomStringConvertible {
        case `nil`
        case bool(Bool)
        case int(Int64)
        case float(Double)
        case string([UInt8])
        /// A table a case turned into its elements with `list`.
        case list([Shown])
        /// Any other table, a function, a coroutine: only the type.
        case other(String)

        static func == (a: Shown, b: Shown) -> Bool {
            switch (a, b) {
            case (.nil, .nil): true
            case let (.bool(x), .bool(y)): x == y
            case let (.int(x), .int(y)): x == y
            case let (.float(x), .float(y)): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
            case let (.string(x), .string(y)): x == y
            case let (.list(x), .list(y)): x == y
            case let (.other(x), .other(y)): x == y
            default: false
            }
        }

        var description: String {
            switch self {
            case .nil: "nil"
            case .bool(let b): "\(b)"
            case .int(let i): "\(i)"
            case .float(let d): "\(d) (float)"
            case .string(let bytes):
                "\"" + bytes.prefix(160).map { b -> String in
                    b >= 32 && b < 127 && b != 34 && b != 92 ? String(UnicodeScalar(b)) : "\\\(b)"
                }.joined() + (bytes.count > 160 ? "\"... (\(bytes.count) bytes)" : "\"")
            case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
            case .other(let type): "<\(type)>"
            }
        }
    }

    /// What a case gave: pcall's values, so `true` and the results, or `false` and the error.
    struct Outcome: Equatable {
        let label: String
        let values: [Shown]
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    struct Result {
        let stock: [Outcome]
        let arcade: [Outcome]
        let mismatches: [String]

        var cases: Int { stock.count }
        /// Cases where Lua's function raised an error.
        var errors: Int { stock.filter { $0.values.first == .bool(false) }.count }
        /// Cases that gave something other than nothing or nil.
        var hits: Int {
            stock.filter { $0.values.first == .bool(true) && $0.values.dropFirst().contains { $0 != .nil } }.count
        }
        var counts: String { "\(cases) cases, \(errors) errors, \(hits) with results" }
        var report: String { mismatches.prefix(30).joined(separator: "\n") }
    }

    /// Runs `LibraryCases.prelude`, then `cases`, with `args` (integers, as `...`) in a
    /// plain state and in a game's VM (after `arcadePrelude` there, to test the comparison
    /// itself), and compares the outcomes.
    static func run(_ cases: String, args: [Int] = [], arcadePrelude: String = "") throws -> Result {
        let script = script(cases)
        let stock = try runStock(script, args: args)
        let arcade = try runArcade(script, args: args, prelude: arcadePrelude)
        var mismatches: [String] = []
        if stock.count != arcade.count {
            mismatches.append("Lua's state ran \(stock.count) cases, the game's VM \(arcade.count)")
        }
        for (a, b) in zip(stock, arcade) where a != b {
            if a.label != b.label {
                mismatches.append("the cases went out of step: \(a.label) / \(b.label)")
                break
            }
            let shown = { (o: Outcome) in o.values.map(\.description).joined(separator: ", ") }
            mismatches.append("\(a.label)\n    Lua:    \(shown(a))\n    arcade: \(shown(b))")
        }
        return Result(stock: stock, arcade: arcade, mismatches: mismatches)
    }

    /// The chunk that runs `cases` after the prelude and returns their outcomes.
    static func script(_ cases: String) -> String {
        LibraryCases.prelude + "\n" + cases + "\nreturn out\n"
    }

    /// In a plain lua_State with Lua's own libraries.
    static func runStock(_ script: String, args: [Int]) throws -> [Outcome] {
        guard let L = luaL_newstate() else { throw Failure(description: "no state") }
        defer { lua_close(L) }
        luaL_openlibs(L)
        var source = script
        let status = source.withUTF8 { buf in
            buf.withMemoryRebound(to: CChar.self) {
                luaL_loadbufferx(L, $0.baseAddress, $0.count, "@" + chunkName, "t")
            }
        }
        guard status == LUA_OK else { throw Failure(description: String(cString: lua_tolstring(L, -1, nil))) }
        for a in args { lua_pushinteger(L, lua_Integer(a)) }
        guard arcade_pcall(L, Int32(args.count), 1, 0) == LUA_OK else {
            throw Failure(description: String(cString: lua_tolstring(L, -1, nil)))
        }
        return outcomes(L, at: -1)
    }

    /// In a game's VM: the sandbox, the capped allocator and the time budget, with the
    /// fork's functions. The limits are far out of the cases' way.
    static func runArcade(_ script: String, args: [Int], prelude: String) throws -> [Outcome] {
        let test = try TestVM(limits: .init(memoryBytes: 1 << 30, secondsPerCall: 600, secondsPerStep: 600))
        if !prelude.isEmpty { try test.run(prelude) }
        let vm = test.vm
        let fn = try vm.load(script, chunkName: chunkName)
        return try vm.protectedCall(label: "the cases", nresults: 1, push: { s in
            vm.push(fn)
            for a in args { lua_pushinteger(s.L, lua_Integer(a)) }
            return Int32(args.count)
        }, results: { s in outcomes(s.L, at: -1) })
    }

    /// The list of outcomes `out` at index: each a table { label = ..., n = ..., values }.
    static func outcomes(_ L: OpaquePointer, at index: Int32) -> [Outcome] {
        let t = lua_absindex(L, index)
        var result: [Outcome] = []
        let count = Int(lua_rawlen(L, t))
        result.reserveCapacity(count)
        for i in 0..<count {
            lua_rawgeti(L, t, lua_Integer(i + 1))
            lua_getfield(L, -1, "label")
            let label = String(cString: lua_tolstring(L, -1, nil))
            lua_settop(L, -2)
            result.append(Outcome(label: label, values: elements(L, at: -1)))
            lua_settop(L, -2)
        }
        return result
    }

    /// The values t[1..t.n] of the table at index.
    static func elements(_ L: OpaquePointer, at index: Int32) -> [Shown] {
        let t = lua_absindex(L, index)
        lua_getfield(L, t, "n")
        let n = lua_tointegerx(L, -1, nil)
        lua_settop(L, -2)
        guard n > 0 else { return [] }
        return (1...n).map { i in
            lua_rawgeti(L, t, i)
            defer { lua_settop(L, -2) }
            return shown(L, at: -1)
        }
    }

    static func shown(_ L: OpaquePointer, at index: Int32) -> Shown {
        let i = lua_absindex(L, index)
        switch lua_type(L, i) {
        case LUA_TNIL: return .nil
        case LUA_TBOOLEAN: return .bool(lua_toboolean(L, i) != 0)
        case LUA_TNUMBER: return lua_isinteger(L, i) != 0 ? .int(lua_tointegerx(L, i, nil)) : .float(lua_tonumberx(L, i, nil))
        case LUA_TSTRING:
            var len = 0
            let p = lua_tolstring(L, i, &len)!
            return .string(Array(UnsafeRawBufferPointer(start: p, count: len)))
        case LUA_TTABLE:
            // the cases box every table as { box = type } except their lists
            if lua_getfield(L, i, "box") == LUA_TSTRING {
                defer { lua_settop(L, -2) }
                return .other(String(cString: lua_tolstring(L, -1, nil)))
            }
            lua_settop(L, -2)
            return .list(elements(L, at: i))
        default:
            return .other(String(cString: lua_typename(L, lua_type(L, i))))
        }
    }
}
