import Testing
import ArcadeLua
@testable import ArcadeHost

/// `arcade.save` and `arcade.score` backed by the real store: what a game sees.
@Suite struct StorageLuaTests {
    /// A sandboxed VM for game `id` whose saves go to `store`.
    func game(_ store: SaveStore, id: String = "fishing") throws -> LuaVM {
        let vm = try LuaVM(name: id)
        try vm.installSandbox()
        SaveModule.install(in: vm, storage: store.slot(for: id))
        return vm
    }

    @discardableResult
    func run(_ vm: LuaVM, _ source: String) throws(LuaError) -> LuaValue {
        try vm.call(try vm.load(source, chunkName: "test/main.lua"), label: "test")
    }

    func error(_ vm: LuaVM, _ source: String) -> String? {
        do {
            try run(vm, source)
            return nil
        } catch {
            return error.message
        }
    }

    static let profile = """
        {
          name = "Zoë \\"the\\" fisher\\n", coins = 12, ratio = 0.5, whole = 2.0, big = math.maxinteger,
          small = -1e-300, items = {"rod", "net", {kind = "carp", weight = 1.25}},
          nested = {deep = {deeper = {true, false}}}, empty = {}, ["key with spaces"] = 1,
        }
        """

    @Test func nestedValuesRoundTripThroughARestart() throws {
        let dir = ScratchFolder()
        do {
            let store = SaveStore(location: .file(dir.database))
            let vm = try game(store)
            try run(vm, "arcade.save.set('profile', \(Self.profile)); arcade.save.set('level', 3)")
            #expect(try run(vm, "return arcade.score.submit(50)") == .bool(true))
            store.close()
        }
        let store = SaveStore(location: .file(dir.database))
        let vm = try game(store)
        let verdict = try run(vm, """
            local function same(a, b, path)
              if type(a) ~= type(b) then return path .. ": " .. type(a) .. " vs " .. type(b) end
              if type(a) == "number" and math.type(a) ~= math.type(b) then return path .. ": " .. math.type(a) .. " vs " .. math.type(b) end
              if type(a) ~= "table" then return a == b and "ok" or (path .. ": " .. tostring(a) .. " vs " .. tostring(b)) end
              for k, v in pairs(a) do
                local r = same(v, b[k], path .. "." .. tostring(k))
                if r ~= "ok" then return r end
              end
              for k in pairs(b) do if a[k] == nil then return path .. "." .. tostring(k) .. ": extra" end end
              return "ok"
            end
            local saved = arcade.save.get('profile')
            assert(arcade.save.get('level') == 3 and arcade.save.get('nothing') == nil)
            return same(\(Self.profile), saved, "profile")
            """)
        #expect(verdict == .string("ok"))
        #expect(try run(vm, "return arcade.score.best()") == .int(50))
        #expect(try run(vm, "return arcade.score.submit(49)") == .bool(false))
        #expect(try run(vm, "return arcade.score.submit(50.0)") == .bool(false))
        #expect(try run(vm, "return arcade.score.submit(51)") == .bool(true))
        #expect(try store.bestScores() == ["fishing": 51])
        // another game sees none of it
        let other = try game(store, id: "coinbank")
        #expect(try run(other, "return arcade.save.get('profile') == nil and arcade.score.best() == nil") == .bool(true))
        // nil deletes
        try run(vm, "arcade.save.set('level', nil)")
        #expect(try store.keys(game: "fishing") == ["profile"])
    }

    @Test func limitsAreLuaErrorsAndAFullDiskIsNot() throws {
        let store = SaveStore(location: .memory)
        let vm = try game(store)
        #expect(error(vm, "arcade.save.set('big', string.rep('x', 300 * 1024))")
                == "test/main.lua:1: arcade.save.set: value is 300 KiB, over the 256 KiB limit")
        #expect(error(vm, "for i = 1, 5 do arcade.save.set('part' .. i, string.rep('y', 250 * 1024)) end")
                == "test/main.lua:1: arcade.save.set: saves for 'fishing' would total 1.2 MiB, over the 1 MiB limit per game")
        #expect(error(vm, "arcade.save.set('', 1)") == "test/main.lua:1: arcade.save.set: the key is empty")

        // a full disk is the arcade's problem, not the game's: its saves go on in memory
        let dir = ScratchFolder()
        let tiny = SaveStore(location: .file(dir.database), limits: .init(), pageLimit: 12)
        let full = try game(tiny)
        let result = try run(full, """
            for i = 1, 100 do arcade.save.set('k' .. i, string.rep('z', 3000)) end
            return arcade.save.get('k1') == string.rep('z', 3000) and arcade.save.get('k100') == string.rep('z', 3000)
            """)
        #expect(result == .bool(true))
        #expect(tiny.location == .memory)
        #expect(tiny.notices.map(\.short) == ["Saves are kept in memory until you quit: the disk is full."])
    }
}
