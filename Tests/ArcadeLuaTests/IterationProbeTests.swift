import Testing
@testable import ArcadeLua

/// The determinism check's `pairs` and `next`: a fixed order for string keys, backwards
/// where asked, every walk reported with its line, and Lua's behaviour otherwise.
@Suite struct IterationProbeTests {
    /// A sandboxed VM with the probe, and the walks it reported.
    final class Probed {
        let t: TestVM
        var walks: [(site: String, keys: Int)] = []

        init(reversal: IterationReversal) throws {
            t = try TestVM()
            try t.vm.installIterationProbe { [unowned self] site, keys in
                self.walks.append((site, keys))
                return reversal.reverses(site)
            }
        }
    }

    static let walkBoth = """
        local t = { pear = 1, apple = 2, fig = 3, [1] = "one", [2] = "two" }
        local seen = {}
        for k in pairs(t) do seen[#seen + 1] = tostring(k) end
        local by_next, k = {}, next(t)
        while k ~= nil do by_next[#by_next + 1] = tostring(k); k = next(t, k) end
        return table.concat(seen, " ") .. " | " .. table.concat(by_next, " ")
        """

    @Test func stringKeysAreWalkedSortedAndBackwardsWhereAsked() throws {
        let fixed = try Probed(reversal: .nowhere)
        #expect(try fixed.t.run(Self.walkBoth) == .string("1 2 apple fig pear | 1 2 apple fig pear"))
        #expect(fixed.walks.map(\.site) == ["test/main.lua:3", "test/main.lua:4"])
        #expect(fixed.walks.map(\.keys) == [5, 5])

        let backwards = try Probed(reversal: .everywhere)
        #expect(try backwards.t.run(Self.walkBoth) == .string("pear fig apple 2 1 | pear fig apple 2 1"))

        let one = try Probed(reversal: .only(["test/main.lua:4"]))
        #expect(try one.t.run(Self.walkBoth) == .string("1 2 apple fig pear | pear fig apple 2 1"))
    }

    /// Arrays, numbers and a single string key keep Lua's order and are not reported.
    @Test func walksWhoseOrderCannotChangeAreLeftAlone() throws {
        let p = try Probed(reversal: .everywhere)
        #expect(try p.t.run("""
            local out = {}
            for i, v in pairs({ "a", "b", "c" }) do out[#out + 1] = i .. v end
            for k in pairs({ x = 1, [5] = 2, [7] = 3 }) do out[#out + 1] = "?" end
            return table.concat(out, " ")
            """) == .string("1a 2b 3c ? ? ?"))
        #expect(p.walks.isEmpty)
    }

    @Test func luasRulesStillHold() throws {
        let p = try Probed(reversal: .everywhere)
        // fields cleared during a walk are skipped; clearing is allowed
        #expect(try p.t.run("""
            local t = { a = 1, b = 2, c = 3, d = 4 }
            local n = 0
            for k in pairs(t) do
              n = n + 1
              t.a, t.b = nil, nil
            end
            return n
            """) == .int(2))
        // __pairs is honoured
        #expect(try p.t.run("""
            local t = setmetatable({}, { __pairs = function(t) return function(_, k) if not k then return 1, "x" end end, t, nil end })
            local got
            for k, v in pairs(t) do got = v end
            return got
            """) == .string("x"))
        // next(t) on an empty table, and pairs on a non-table fail as in Lua
        #expect(try p.t.run("return next({}) == nil") == .bool(true))
        #expect(p.t.error("for k in pairs(nil) do end")?.message.contains("table expected, got nil") == true)
    }
}
