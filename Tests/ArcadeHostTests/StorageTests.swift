import Testing
import ArcadeLua
@testable import ArcadeHost

@Suite struct StorageTests {
    @Test func valuesAndScoresSurviveARestart() throws {
        let dir = ScratchFolder()
        let nested: LuaValue = .table([
            "coins": .int(42), "ratio": .number(0.25), "name": .string("Zoë \"the\" fisher\n"),
            "caught": .array([.string("carp"), .string("pike")]), "flags": .table(["tutorial": .bool(true)]),
        ])
        do {
            let store = SaveStore(location: .file(dir.database))
            #expect(store.warnings.isEmpty)
            #expect(store.isPersistent)
            try store.setValue(nested, game: "fishing", key: "progress")
            try store.setValue(.int(7), game: "coinbank", key: "progress")
            #expect(try store.submitScore(120, game: "fishing"))
            #expect(try store.submitScore(90, game: "fishing") == false)
            #expect(try store.submitScore(120, game: "fishing") == false)  // a tie is not a new best
            #expect(try store.submitScore(-5, game: "giftcombo"))
            store.close()
        }
        let store = SaveStore(location: .file(dir.database))
        #expect(store.warnings.isEmpty)
        #expect(try store.value(game: "fishing", key: "progress") == nested)
        #expect(try store.value(game: "coinbank", key: "progress") == .int(7))
        #expect(try store.value(game: "fishing", key: "missing") == nil)
        #expect(try store.value(game: "other", key: "progress") == nil)  // games do not see each other's keys
        #expect(try store.bestScore(game: "fishing") == 120)
        #expect(try store.bestScore(game: "nobody") == nil)
        #expect(try store.bestScores() == ["fishing": 120, "giftcombo": -5])
        #expect(try store.submitScore(121, game: "fishing"))
        #expect(try store.bestScore(game: "fishing") == 121)
        // a reset forgets one game's best, for good, and only that game's
        try store.resetBestScore(game: "fishing")
        #expect(try store.bestScore(game: "fishing") == nil)
        #expect(try store.submitScore(10, game: "fishing"))
        store.close()
        let again = SaveStore(location: .file(dir.database))
        #expect(try again.bestScores() == ["fishing": 10, "giftcombo": -5])
    }

    @Test func nilDeletesAndOverwritesReplace() throws {
        let dir = ScratchFolder()
        let store = SaveStore(location: .file(dir.database))
        try store.setValue(.string("a"), game: "g", key: "x")
        try store.setValue(.string("bb"), game: "g", key: "y")
        try store.setValue(.string("ccc"), game: "g", key: "x")
        #expect(try store.keys(game: "g") == ["x", "y"])
        #expect(try store.value(game: "g", key: "x") == .string("ccc"))
        // each key counts its own bytes plus its JSON: "x" + "\"ccc\"", "y" + "\"bb\""
        #expect(try store.bytesUsed(game: "g") == (1 + 5) + (1 + 4))
        try store.setValue(nil, game: "g", key: "x")
        try store.setValue(nil, game: "g", key: "never-set")
        #expect(try store.keys(game: "g") == ["y"])
        #expect(try store.value(game: "g", key: "x") == nil)
    }

    @Test func integersAndFloatsKeepTheirKind() throws {
        let store = SaveStore(location: .memory)
        let values: [LuaValue] = [
            .int(2), .number(2.0), .number(-0.0), .number(0.1), .number(1e300), .number(.leastNonzeroMagnitude),
            .int(.max), .int(.min), .bool(false), .string(""), .array([]), .table([:]),
        ]
        for (i, v) in values.enumerated() {
            try store.setValue(v, game: "g", key: "k\(i)")
            let back = try #require(try store.value(game: "g", key: "k\(i)"))
            #expect(back == v)
            if case .number(let d) = v, case .number(let e) = back {
                #expect(d.bitPattern == e.bitPattern)
            }
        }
    }

    @Test func sizeLimitsNameTheLimit() throws {
        let store = SaveStore(location: .memory)
        let big = String(repeating: "x", count: 300 << 10)
        #expect(throws: StorageError(.tooLarge, "value is 300 KiB, over the 256 KiB limit")) {
            try store.setValue(.string(big), game: "g", key: "big")
        }
        // a value just over the limit must not read as the limit itself
        let edge = String(repeating: "x", count: (256 << 10) - 1)  // plus two quotes
        #expect(throws: StorageError(.tooLarge, "value is 262145 bytes, over the 256 KiB limit")) {
            try store.setValue(.string(edge), game: "g", key: "edge")
        }
        let fifth = String(repeating: "y", count: 200 << 10)
        for i in 0..<5 { try store.setValue(.string(fifth), game: "g", key: "part\(i)") }
        let used = try store.bytesUsed(game: "g")
        #expect(used == 5 * ((200 << 10) + 2 + 5))
        #expect(throws: StorageError(.tooLarge, "saves for 'g' would total 1.2 MiB, over the 1 MiB limit per game")) {
            try store.setValue(.string(fifth), game: "g", key: "part5")
        }
        // refused writes change nothing; replacing a key counts its new size only
        #expect(try store.bytesUsed(game: "g") == used)
        #expect(try store.value(game: "g", key: "part5") == nil)
        try store.setValue(.string(String(repeating: "z", count: 220 << 10)), game: "g", key: "part0")
        // another game has its own budget
        try store.setValue(.string(fifth), game: "other", key: "part0")

        #expect(throws: StorageError(.tooLarge, "the key is 257 bytes long, over the 256-byte limit")) {
            try store.setValue(.int(1), game: "g", key: String(repeating: "k", count: 257))
        }
        #expect(throws: StorageError(.invalid, "the key is empty")) {
            try store.setValue(.int(1), game: "g", key: "")
        }
        #expect(throws: StorageError(.invalid, "the value holds a number that is not finite (inf or nan)")) {
            try store.setValue(.array([.number(.infinity)]), game: "g", key: "inf")
        }
    }

    @Test func customLimitsAreUsed() throws {
        let store = SaveStore(location: .memory, limits: .init(valueBytes: 10, gameBytes: 20, keyBytes: 4))
        try store.setValue(.string("12345678"), game: "g", key: "abcd")  // 4 + 10 bytes
        #expect(throws: StorageError(.tooLarge, "value is 11 bytes, over the 10 bytes limit")) {
            try store.setValue(.string("123456789"), game: "g", key: "b")
        }
        #expect(throws: StorageError(.tooLarge, "saves for 'g' would total 21 bytes, over the 20 bytes limit per game")) {
            try store.setValue(.int(1234), game: "g", key: "abc")  // 14 + 3 + 4
        }
    }

    @Test func closedStoreReportsInsteadOfCrashing() throws {
        let store = SaveStore(location: .memory)
        store.close()
        #expect(throws: StorageError(.closed, "the save store is closed")) {
            try store.setValue(.int(1), game: "g", key: "k")
        }
        #expect(throws: StorageError.self) { try store.bestScores() }
    }

    @Test func byteCounts() {
        #expect(ByteCount.describe(1) == "1 byte")
        #expect(ByteCount.describe(1023) == "1023 bytes")
        #expect(ByteCount.describe(1024) == "1 KiB")
        #expect(ByteCount.describe(1536) == "1.5 KiB")
        #expect(ByteCount.describe(300 << 10) == "300 KiB")
        #expect(ByteCount.describe((1 << 20) + (1 << 19)) == "1.5 MiB")
        #expect(ByteCount.describe((1 << 20) + 1, over: 1 << 20) == "1048577 bytes")
        #expect(ByteCount.describe((1 << 20) + 1) == "1 MiB")
    }

    @Test func defaultPathFollowsXDG() {
        func path(_ env: [String: String]) -> String? { SaveFile.defaultPath(environment: { env[$0] }) }
        #expect(path(["XDG_DATA_HOME": "/x/data", "HOME": "/home/p"]) == "/x/data/arcade/arcade.sqlite")
        #expect(path(["HOME": "/home/p"]) == "/home/p/.local/share/arcade/arcade.sqlite")
        // a relative XDG_DATA_HOME is ignored, as the spec says
        #expect(path(["XDG_DATA_HOME": "data", "HOME": "/home/p"]) == "/home/p/.local/share/arcade/arcade.sqlite")
        #expect(path([:]) == nil)
        #expect(SaveStore.path(inDataDirectory: "/d") == "/d/arcade.sqlite")
        #expect(SaveStore.path(inDataDirectory: "/d/") == "/d/arcade.sqlite")
    }

    @Test func locationIsTheAbsoluteFile() throws {
        let dir = ScratchFolder()
        let store = SaveStore(location: .file(dir.path + "/sub/../saves/./arcade.sqlite"))
        #expect(store.location == .file(dir.path + "/saves/arcade.sqlite"))
        #expect(dir.listing() == ["saves"])
        let data = SaveStore(dataDirectory: dir.path + "/data")
        #expect(data.location == .file(dir.path + "/data/arcade.sqlite"))
        #expect(data.warnings.isEmpty)
    }
}
