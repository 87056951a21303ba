import Testing
@testable import ArcadeLua

/// A slot kept in a dictionary, recording what the binding hands it.
final class DictionaryStorage: GameStorage {
    var values: [String: LuaValue] = [:]
    var best: Int64?
    var failure: GameStorageError?

    func value(forKey key: String) throws(GameStorageError) -> LuaValue? {
        if let failure { throw failure }
        return values[key]
    }

    func setValue(_ value: LuaValue?, forKey key: String) throws(GameStorageError) {
        if let failure { throw failure }
        values[key] = value
    }

    func submitScore(_ score: Int64) throws(GameStorageError) -> Bool {
        if let failure { throw failure }
        guard best.map({ score > $0 }) ?? true else { return false }
        best = score
        return true
    }

    func bestScore() throws(GameStorageError) -> Int64? {
        if let failure { throw failure }
        return best
    }

    func resetBestScore() throws(GameStorageError) {
        if let failure { throw failure }
        best = nil
    }
}

@Suite struct SaveModuleTests {
    func setUp() throws -> (TestVM, DictionaryStorage) {
        let t = try TestVM()
        let storage = DictionaryStorage()
        SaveModule.install(in: t.vm, storage: storage)
        return (t, storage)
    }

    @Test func valuesArriveExactly() throws {
        let (t, storage) = try setUp()
        try t.run("""
            arcade.save.set("int", 2)
            arcade.save.set("float", 2.0)
            arcade.save.set("text", "Zoë")
            arcade.save.set("flag", false)
            arcade.save.set("empty", {})
            local shared = {1, 2}
            arcade.save.set("profile", {list = {"a", {x = 1}}, same = shared, again = shared, ["with space"] = true})
            """)
        #expect(storage.values["int"] == .int(2))
        #expect(storage.values["float"] == .number(2.0))
        #expect(storage.values["text"] == .string("Zoë"))
        #expect(storage.values["flag"] == .bool(false))
        #expect(storage.values["empty"] == .table([:]))
        #expect(storage.values["profile"] == .table([
            "list": .array([.string("a"), .table(["x": .int(1)])]),
            "same": .array([.int(1), .int(2)]), "again": .array([.int(1), .int(2)]),
            "with space": .bool(true),
        ]))
        // reading pushes the same shapes back
        #expect(try t.run("local p = arcade.save.get('profile'); return p.list[2].x + #p.same") == .int(3))
        #expect(try t.run("return math.type(arcade.save.get('float')), math.type(arcade.save.get('int'))") == .string("float"))
        #expect(try t.run("return arcade.save.get('missing')") == .nil)
        try t.run("arcade.save.set('int', nil)")
        #expect(storage.values["int"] == nil)
        #expect(storage.values.count == 5)
        #expect(t.vm.stack.top == 1)  // only the message handler is left
    }

    @Test func unsavableValuesAreArgumentErrors() throws {
        let (t, storage) = try setUp()
        let rule = "only booleans, numbers, strings and tables of them can be saved"
        func setError(_ value: String, prelude: String = "") -> String? {
            t.error("\(prelude) arcade.save.set('k', \(value))")?.message
        }
        let prefix = "test/main.lua:1: bad argument #2 to 'arcade.save.set' ("
        #expect(setError("print") == prefix + "value is a function; \(rule))")
        #expect(setError("{a = {cb = print}}") == prefix + "value.a.cb is a function; \(rule))")
        #expect(setError("{1, coroutine.create(print)}") == prefix + "value[2] is a thread; \(rule))")
        #expect(setError("{['my key'] = {f = print}}") == prefix + "value[\"my key\"].f is a function; \(rule))")
        #expect(setError("t", prelude: "local t = {a = {}}; t.a.back = t;")
                == prefix + "value.a.back is a table that contains itself (a cycle); it cannot be saved)")
        #expect(setError("{1, 2, x = 3}") == prefix + "value mixes array items and string keys; saved tables are one or the other)")
        #expect(setError("{[1] = 1, [3] = 3}")
                == prefix + "value is not a sequence: it has key 3 but no key 2; saved arrays have keys 1..n without gaps)")
        #expect(setError("{[0] = 'zero'}")
                == prefix + "value is not a sequence: it has key 0 but no key 1; saved arrays have keys 1..n without gaps)")
        #expect(setError("{[1.5] = 1}")
                == prefix + "value has a number key (1.5); saved tables are arrays (keys 1..n) or have only string keys)")
        #expect(setError("{[true] = 1}")
                == prefix + "value has a boolean key (true); saved tables are arrays (keys 1..n) or have only string keys)")
        #expect(setError("{[{}] = 1}")
                == prefix + "value has a table key; saved tables are arrays (keys 1..n) or have only string keys)")
        #expect(setError("{x = math.huge}") == prefix + "value.x is inf; only finite numbers can be saved)")
        #expect(setError("'\\xff'") == prefix + "value is not valid UTF-8 text; binary strings cannot be saved)")
        #expect(setError("{['\\xff'] = 1}") == prefix + "value has a key that is not valid UTF-8 text)")
        let deep = try #require(setError("t", prelude: "local t = {}; local c = t; for i = 1, 70 do c.a = {}; c = c.a end;"))
        #expect(deep.hasPrefix(prefix + "value.a.a.a"))
        #expect(deep.hasSuffix(".a is nested deeper than 64 tables)"))
        #expect(setError("t", prelude: "local t = {}; for i = 1, 300 do t[i] = string.rep('x', 16 * 1024) end;")
                == prefix + "value is larger than 4 MiB, far over what a save can hold)")
        #expect(storage.values.isEmpty)
    }

    @Test func badKeysAndScores() throws {
        let (t, _) = try setUp()
        #expect(t.error("arcade.save.set(1, 2)")?.message
                == "test/main.lua:1: bad argument #1 to 'arcade.save.set' (string expected, got number)")
        #expect(t.error("arcade.save.set('k')")?.message
                == "test/main.lua:1: bad argument #2 to 'arcade.save.set' (value expected (nil deletes the key))")
        #expect(t.error("arcade.save.get()")?.message
                == "test/main.lua:1: bad argument #1 to 'arcade.save.get' (string expected, got no value)")
        #expect(t.error("arcade.save.get('\\xff')")?.message
                == "test/main.lua:1: bad argument #1 to 'arcade.save.get' (key is not valid UTF-8 text)")
        #expect(t.error("arcade.score.submit(12.5)")?.message
                == "test/main.lua:1: bad argument #1 to 'arcade.score.submit' (integer expected, got 12.5)")
        #expect(t.error("arcade.score.submit('10')")?.message
                == "test/main.lua:1: bad argument #1 to 'arcade.score.submit' (integer expected, got string)")
    }

    @Test func scores() throws {
        let (t, storage) = try setUp()
        #expect(try t.run("return arcade.score.best()") == .nil)
        #expect(try t.run("return arcade.score.submit(10)") == .bool(true))
        #expect(try t.run("return arcade.score.submit(7)") == .bool(false))
        #expect(try t.run("return arcade.score.submit(12.0)") == .bool(true))
        #expect(try t.run("return arcade.score.best()") == .int(12))
        #expect(storage.best == 12)
        // new rules: the old best is forgotten and the next score is the best, however low
        #expect(try t.run("arcade.score.reset(); return arcade.score.best()") == .nil)
        #expect(try t.run("return arcade.score.submit(3)") == .bool(true))
        #expect(storage.best == 3)
    }

    @Test func storageFailuresAreLuaErrorsNamingTheFunction() throws {
        let (t, storage) = try setUp()
        storage.failure = GameStorageError("could not save: the disk is full (/saves/arcade.sqlite)")
        #expect(t.error("arcade.save.set('k', 1)")?.message
                == "test/main.lua:1: arcade.save.set: could not save: the disk is full (/saves/arcade.sqlite)")
        #expect(t.error("local x = arcade.save.get('k')")?.message
                == "test/main.lua:1: arcade.save.get: could not save: the disk is full (/saves/arcade.sqlite)")
        #expect(t.error("arcade.score.submit(1)")?.message
                == "test/main.lua:1: arcade.score.submit: could not save: the disk is full (/saves/arcade.sqlite)")
        #expect(t.error("arcade.score.best()")?.message
                == "test/main.lua:1: arcade.score.best: could not save: the disk is full (/saves/arcade.sqlite)")
        #expect(t.error("arcade.score.reset()")?.message
                == "test/main.lua:1: arcade.score.reset: could not save: the disk is full (/saves/arcade.sqlite)")
        // a game can catch them and carry on
        #expect(try t.run("local ok, err = pcall(arcade.save.set, 'k', 1); return not ok and err:match('disk is full') ~= nil") == .bool(true))
    }
}
