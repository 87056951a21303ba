import Testing
import CLua
@testable import ArcadeLua

/// Where the arcade's fork of the library functions (CLuaLib) differs from Lua 5.4 on
/// purpose, each difference shown by running the same cases in a game's VM and in a plain
/// Lua state (see `LibraryCompatibilityTests` for everything they must agree on).
@Suite struct LibraryDifferenceTests {
    typealias Shown = LibraryComparison.Shown

    /// Runs `cases` in a plain state with Lua's libraries and returns each case's values.
    func stock(_ cases: String) throws -> [[Shown]] {
        try LibraryComparison.runStock(LibraryComparison.script(cases), args: [1]).map(\.values)
    }

    /// Runs `cases` in a game's VM and returns each case's values.
    func arcade(_ cases: String) throws -> [[Shown]] {
        try LibraryComparison.runArcade(LibraryComparison.script(cases), args: [1], prelude: "").map(\.values)
    }

    func text(_ s: String) -> Shown { .string(Array(s.utf8)) }

    /// table.sort's pivot is always the middle element, where Lua's is seeded from clock()
    /// and time() once a partition comes out unbalanced: elements that compare equal end in
    /// the same order on every run and in every VM. (That order need not be the one Lua's
    /// sort leaves; the keys are in order in both, which the comparison checks.)
    @Test func sortLeavesEqualElementsInTheSameOrderOnEveryRun() throws {
        let cases = """
            for _, size in ipairs { 10, 100, 101, 1000, 5000 } do
              local keys = {}
              for i = 1, size do keys[i] = random(1, 5) end
              -- organ pipe keys, which unbalance a middle pivot
              local pipe = {}
              for i = 1, size do pipe[i] = i <= size // 2 and i or size - i end
              for _, input in ipairs { keys, pipe } do
                for _ = 1, 3 do
                  case("ids " .. size, function()
                    local t = {}
                    for i = 1, size do t[i] = { k = input[i] // 3, id = i } end
                    table.sort(t, function(a, b) return a.k < b.k end)
                    local ids = {}
                    for i = 1, size do ids[i] = t[i].id end
                    return list(ids)
                  end)
                end
              end
            end
            """
        let first = try arcade(cases), second = try arcade(cases)
        #expect(first.count == 30)
        #expect(first == second)
        for k in stride(from: 0, to: first.count, by: 3) {
            #expect(first[k] == first[k + 1] && first[k] == first[k + 2])
        }
        // and they are a sort by key in both: LibraryCompatibilityTests.sort compares the keys
    }

    /// An invalid order function (not a strict weak order) is noticed when a partition's scan
    /// runs off its range. The fork's bounds are not Lua's, so for the same input one sort may
    /// raise "invalid order function for sorting" where the other finishes; either way every
    /// element stays in the table. (LibraryCompatibilityTests.sort checks that much for
    /// many comparators and inputs.) Here one input of each kind, and one that both notice.
    @Test func anInvalidOrderFunctionIsNoticedInOtherCases() throws {
        let cases = """
            local function try(keys, less)
              local t = {}
              for i = 1, #keys do t[i] = keys[i] end
              local ok, err = pcall(table.sort, t, less)
              local sum = 0
              for i = 1, #keys do sum = sum + 10 ^ t[i] end
              return ok, err, sum
            end
            case("only Lua's notices", try, { 3, 3, 1, 1, 4 }, function(a, b) return a >= b end)
            case("only the fork notices", try, { 2, 2, 3, 4, 4, 4 }, function(a, b) return a ~= b end)
            case("both notice", try, { 0, 1, 2, 0, 1, 2, 0, 1, 2, 0 }, function(a, b) return a <= b end)
            """
        let lua = try stock(cases), ours = try arcade(cases)
        let invalid = text("invalid order function for sorting")
        // pcall's true, then try's ok, err, and the count of each key as the digits of a sum
        #expect(lua[0] == [.bool(true), .bool(false), invalid, .float(12_020)])
        #expect(ours[0] == [.bool(true), .bool(true), .nil, .float(12_020)])
        #expect(lua[1] == [.bool(true), .bool(true), .nil, .float(31_200)])
        #expect(ours[1] == [.bool(true), .bool(false), invalid, .float(31_200)])
        #expect(lua[2] == [.bool(true), .bool(false), invalid, .float(334)])
        #expect(ours[2] == lua[2])
    }

    /// load takes text chunks only: a binary chunk, which Lua's load takes by default, is
    /// refused with Lua's own message for mode "t"; a mode without 't' is refused with the
    /// arcade's, before the chunk is looked at.
    @Test func loadRefusesBinaryChunksAndModesWithoutT() throws {
        // a binary chunk made by Lua's string.dump (which games do not have)
        let dumped = try stock("""
            case("dump", function() return string.dump(load("return 42")) end)
            """)
        guard case .string(let bytes) = dumped[0][1] else { Issue.record("no dump: \(dumped)"); return }
        let binary = "\"" + bytes.map { "\\\($0)" }.joined() + "\""
        let cases = """
            local binary = \(binary)
            local function run(fn, ...)
              if type(fn) ~= "function" then return fn, ... end
              return pcall(fn)
            end
            case("binary", function() return run(load(binary)) end)
            case("binary bt", function() return run(load(binary, "=b", "bt")) end)
            case("binary b", function() return run(load(binary, "=b", "b")) end)
            case("binary t", function() return run(load(binary, "=b", "t")) end)
            case("text b", function() return run(load("return 1", "=t", "b")) end)
            case("text empty mode", function() return run(load("return 1", "=t", "")) end)
            case("reader b", function() return run(load(function() return nil end, "=r", "b")) end)
            case("not a chunk, mode b", function() return run(load(5, nil, "b")) end)
            case("text that starts like a binary chunk", function() return run(load("\\27Lua", "=x")) end)
            """
        let lua = try stock(cases), ours = try arcade(cases)
        let refused = { (mode: String) in Shown.string(Array("load: only text chunks are allowed in games (mode '\(mode)' refused)".utf8)) }
        let binaryInTextMode = text("attempt to load a binary chunk (mode is 't')")
        #expect(lua[0] == [.bool(true), .bool(true), .int(42)])
        #expect(ours[0] == [.bool(true), .nil, binaryInTextMode])
        #expect(lua[1] == [.bool(true), .bool(true), .int(42)])
        #expect(ours[1] == [.bool(true), .nil, binaryInTextMode])
        #expect(lua[2] == [.bool(true), .bool(true), .int(42)])
        #expect(ours[2] == [.bool(true), .nil, refused("b")])
        #expect(lua[3] == [.bool(true), .nil, binaryInTextMode])
        #expect(ours[3] == lua[3])
        #expect(lua[4] == [.bool(true), .nil, text("attempt to load a text chunk (mode is 'b')")])
        #expect(ours[4] == [.bool(true), .nil, refused("b")])
        #expect(lua[5] == [.bool(true), .nil, text("attempt to load a text chunk (mode is '')")])
        #expect(ours[5] == [.bool(true), .nil, refused("")])
        #expect(lua[6] == [.bool(true), .nil, text("attempt to load a text chunk (mode is 'b')")])
        #expect(ours[6] == [.bool(true), .nil, refused("b")])
        #expect(lua[7] == [.bool(true), .nil, text("attempt to load a text chunk (mode is 'b')")])
        #expect(ours[7] == [.bool(true), .nil, refused("b")])
        // Lua's reads it as a (broken) binary chunk
        #expect(lua[8].first == .bool(true) && lua[8].count == 3 && lua[8][1] == .nil && lua[8][2] != binaryInTextMode)
        #expect(ours[8] == [.bool(true), .nil, binaryInTextMode])
    }

    @Test func loadRefusesAModeThatIsNotAString() throws {
        let cases = """
            case("table mode", function() return load("return 1", nil, {}) end)
            case("number mode", function() return load("return 1", nil, 7) end)
            """
        let lua = try stock(cases), ours = try arcade(cases)
        #expect(lua[0].count == 2 && lua[0][0] == .bool(false))
        guard case .string(let error) = lua[0][1] else { Issue.record("\(lua[0])"); return }
        #expect(String(decoding: error, as: UTF8.self).hasSuffix(": bad argument #3 to 'load' (string expected, got table)"))
        guard ours[0].count == 3, case .string(let message) = ours[0][2] else { Issue.record("\(ours[0])"); return }
        #expect(String(decoding: message, as: UTF8.self).hasPrefix("load: only text chunks are allowed in games (mode 'table: 0x"))
        // a number is a string to Lua's load ("7", with no 't')
        #expect(lua[1] == [.bool(true), .nil, text("attempt to load a text chunk (mode is '7')")])
        #expect(ours[1] == [.bool(true), .nil, text("load: only text chunks are allowed in games (mode '7' refused)")])
    }

    /// string.format with a string over 64 KB for "%q" runs Lua's format over the other
    /// arguments twice (once to check the whole format, once to build the text around the
    /// long string), so a "%s" argument's __tostring is called twice; the result is Lua's.
    @Test func formatCallsTostringTwiceBesideALongQuote() throws {
        let cases = """
            local calls = 0
            local obj = setmetatable({}, { __tostring = function() calls = calls + 1 return "obj" end })
            local long = repeated("x", 70000)
            case("long", function() calls = 0 local s = string.format("%s %q", obj, long) return #s, sub(s, 1, 8), calls end)
            case("short", function() calls = 0 return string.format("%s %q", obj, "short"), calls end)
            """
        let lua = try stock(cases), ours = try arcade(cases)
        #expect(lua[0] == [.bool(true), .int(70006), text("obj \"xxx"), .int(1)])
        #expect(ours[0] == [.bool(true), .int(70006), text("obj \"xxx"), .int(2)])
        #expect(lua[1] == [.bool(true), text("obj \"short\""), .int(1)])
        #expect(ours[1] == lua[1])
    }

    /// string.rep("", n) is "" at once for any n: the stock loop copies nothing n times (for
    /// n = 1e10, seconds), so the comparison leaves those cases out. In a game's VM with its
    /// usual one-second budget they return at once.
    @Test func repOfAnEmptyStringReturnsAtOnce() throws {
        let vm = try TestVM()
        let r = try vm.run("return #string.rep('', 1e10) + #string.rep('', math.maxinteger) + #('').rep('', 2 ^ 40, '')")
        #expect(r == .int(0))
    }
}
