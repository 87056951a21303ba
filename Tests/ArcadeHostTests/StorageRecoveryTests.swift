import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost

/// Damaged, foreign, newer and unwritable save files: the store always opens, says what
/// happened, and never loses a file it cannot read.
@Suite struct StorageRecoveryTests {
    /// Checks that a store works and that its writes reach the file (a reopen sees them).
    func expectWorking(_ store: SaveStore, at path: String) throws {
        try store.setValue(.string("after"), game: "g", key: "k")
        #expect(try store.submitScore(3, game: "g"))
        store.close()
        let again = SaveStore(location: .file(path))
        #expect(again.warnings.isEmpty)
        #expect(try again.value(game: "g", key: "k") == .string("after"))
        #expect(try again.bestScore(game: "g") == 3)
    }

    @Test func garbageIsMovedAside() throws {
        let dir = ScratchFolder()
        var garbage: [UInt8] = []
        var x: UInt32 = 12345
        for _ in 0..<5000 {
            x = x &* 1103515245 &+ 12345
            garbage.append(UInt8(truncatingIfNeeded: x >> 16))
        }
        dir.write("arcade.sqlite", garbage)
        dir.write("arcade.sqlite-wal", Array("stale log".utf8))
        let store = SaveStore(location: .file(dir.database))
        #expect(store.location == .file(dir.database))
        #expect(store.warnings.count == 1)
        let warning = try #require(store.warnings.first)
        #expect(warning.contains(dir.database + " "))
        #expect(warning.contains(dir.database + ".corrupt-1"))
        #expect(warning.contains("file is not a database"))
        let kept = dir.bytes("arcade.sqlite.corrupt-1") == garbage
        #expect(kept)
        // SQLite drops a log it cannot use when it closes the damaged file; the new file must not inherit it
        #expect(!dir.listing().contains("arcade.sqlite-wal") || dir.bytes("arcade.sqlite-wal") != Array("stale log".utf8))
        try expectWorking(store, at: dir.database)
    }

    @Test func truncatedDatabaseIsMovedAside() throws {
        let dir = ScratchFolder()
        do {
            let store = SaveStore(location: .file(dir.database))
            for i in 0..<40 {
                try store.setValue(.string(String(repeating: "\(i % 10)", count: 3000)), game: "g", key: "v\(i)")
            }
            store.close()  // checkpoints the log into the main file
        }
        let whole = try #require(dir.bytes("arcade.sqlite"))
        #expect(whole.count > 64 << 10)
        #expect(!dir.listing().contains("arcade.sqlite-wal"))
        let half = Array(whole[..<(whole.count / 2)])
        dir.write("arcade.sqlite", half)

        let store = SaveStore(location: .file(dir.database))
        let warning = try #require(store.warnings.first)
        #expect(warning.contains(dir.database + ".corrupt-1"))
        #expect(warning.contains("malformed"))
        let kept = dir.bytes("arcade.sqlite.corrupt-1") == half
        #expect(kept)
        #expect(try store.keys(game: "g") == [])
        try expectWorking(store, at: dir.database)
    }

    @Test func eachDamagedFileGetsItsOwnName() throws {
        let dir = ScratchFolder()
        for round in 1...3 {
            dir.write("arcade.sqlite", Array("not a database, round \(round), padded to be long enough to have a header".utf8))
            let store = SaveStore(location: .file(dir.database))
            #expect(store.warnings.first?.contains("arcade.sqlite.corrupt-\(round)") == true)
            store.close()
        }
        #expect(dir.listing().filter { $0.contains(".corrupt-") } ==
                ["arcade.sqlite.corrupt-1", "arcade.sqlite.corrupt-2", "arcade.sqlite.corrupt-3"])
        #expect(dir.bytes("arcade.sqlite.corrupt-2").map { String(decoding: $0, as: UTF8.self) }?.contains("round 2") == true)
    }

    /// Another program's database is refused before a byte of it is written: it stays as it
    /// was (the journal mode is not even switched), where it was, and saves go to memory.
    @Test func anotherProgramsDatabaseIsLeftUntouched() throws {
        let dir = ScratchFolder()
        do {
            let db = try SQLiteDatabase(path: dir.database)
            try db.execute("PRAGMA journal_mode = DELETE; CREATE TABLE recipes(name TEXT); INSERT INTO recipes VALUES ('soup')")
        }
        let before = try #require(dir.bytes("arcade.sqlite"))
        let checksum = SHA256.hex(before)
        let store = SaveStore(location: .file(dir.database))
        #expect(store.location == .memory)
        let warning = try #require(store.warnings.first)
        #expect(warning.contains("it is not an arcade save file but another program's database "
                                 + "(it has tables the arcade did not create: recipes); it is left untouched"))
        try store.setValue(.int(1), game: "g", key: "k")
        store.close()
        #expect(dir.bytes("arcade.sqlite").map(SHA256.hex) == checksum)
        #expect(dir.listing() == ["arcade.sqlite"])
    }

    @Test func arcadeLayoutWithAMissingColumnIsMovedAside() throws {
        let dir = ScratchFolder()
        do {
            let db = try SQLiteDatabase(path: dir.database)
            try db.execute("""
                CREATE TABLE game_values(game_id TEXT, key TEXT, value TEXT);
                CREATE TABLE best_scores(game_id TEXT, score INTEGER, saved_at INTEGER);
                PRAGMA user_version = 1;
                """)
        }
        let store = SaveStore(location: .file(dir.database))
        #expect(store.warnings.first?.contains("its table game_values lacks size") == true)
        try expectWorking(store, at: dir.database)
    }

    @Test func newerLayoutIsLeftAloneAndSavesGoToMemory() throws {
        let dir = ScratchFolder()
        do {
            let db = try SQLiteDatabase(path: dir.database)
            try db.execute("CREATE TABLE future(x); PRAGMA user_version = 99")
        }
        let before = try #require(dir.bytes("arcade.sqlite"))
        let store = SaveStore(location: .file(dir.database))
        #expect(store.location == .memory)
        #expect(!store.isPersistent)
        let warning = try #require(store.warnings.first)
        #expect(warning.contains(dir.database))
        #expect(warning.contains("written by a newer arcade (save format 99, this one knows up to 2)"))
        #expect(warning.contains("lost when the arcade quits"))
        try store.setValue(.int(1), game: "g", key: "k")
        #expect(try store.value(game: "g", key: "k") == .int(1))
        store.close()
        let unchanged = dir.bytes("arcade.sqlite") == before
        #expect(unchanged)
        #expect(!dir.listing().contains { $0.contains("corrupt") })
    }

    @Test func emptyFileBecomesANewDatabase() throws {
        let dir = ScratchFolder()
        dir.write("arcade.sqlite", [])
        let store = SaveStore(location: .file(dir.database))
        #expect(store.warnings.isEmpty)
        try expectWorking(store, at: dir.database)
    }

    @Test func folderThatCannotExistDegradesToMemory() throws {
        // a regular file where a folder should be stops root as well as anyone
        let dir = ScratchFolder()
        dir.write("blocker", Array("just a file".utf8))
        let path = dir.file("blocker") + "/data/arcade.sqlite"
        let store = SaveStore(location: .file(path))
        #expect(store.location == .memory)
        let warning = try #require(store.warnings.first)
        #expect(warning == "Saves cannot be kept in \(path) (\(dir.file("blocker")) is a file, not a folder); "
                + "this session's saves will be lost when the arcade quits.")
        try store.setValue(.string("kept for the session"), game: "g", key: "k")
        #expect(try store.value(game: "g", key: "k") == .string("kept for the session"))
        #expect(try store.submitScore(10, game: "g"))
    }

    @Test func readOnlyFolderDegradesToMemory() throws {
        let dir = ScratchFolder()
        let folder = dir.file("ro")
        mkdir(folder, 0o755)
        // a file SQLite cannot open as a database: a folder with the database's name
        mkdir(folder + "/arcade.sqlite", 0o755)
        let blocked = SaveStore(location: .file(folder + "/arcade.sqlite"))
        #expect(blocked.location == .memory)
        #expect(blocked.warnings.first?.contains("it is a folder, not a file") == true, "\(blocked.warnings)")
        #expect(FileManager.default.fileExists(atPath: folder + "/arcade.sqlite"))  // not moved aside

        // permissions stop everyone but root; as root the folder stays writable, so only check without
        rmdir(folder + "/arcade.sqlite")
        chmod(folder, 0o555)
        defer { chmod(folder, 0o755) }
        if !runningAsRoot {
            let store = SaveStore(location: .file(folder + "/arcade.sqlite"))
            #expect(store.location == .memory)
            let warning = try #require(store.warnings.first)
            #expect(warning.hasPrefix("Saves cannot be kept in \(folder)/arcade.sqlite ("))
            try store.setValue(.int(1), game: "g", key: "k")
            #expect(try store.value(game: "g", key: "k") == .int(1))
        }
    }

    @Test func aFullDiskMovesSavesToMemoryAndSaysSo() throws {
        let dir = ScratchFolder()
        // a page cap fills the "disk" after a few pages
        let store = SaveStore(location: .file(dir.database), limits: .init(), pageLimit: 12)
        #expect(store.warnings.isEmpty)
        let chunk = String(repeating: "z", count: 3000)
        var keptInFile = 0
        for i in 0..<100 {
            try store.setValue(.string(chunk), game: "g", key: "k\(i)")  // never fails
            if store.isPersistent { keptInFile = i + 1 }
        }
        #expect(store.location == .memory)
        #expect(keptInFile > 0)
        #expect(store.notices.count == 1)
        let notice = try #require(store.notices.first)
        #expect(notice.message == "The save file \(dir.database) stopped working: the disk is full. "
                + "Saves are kept in memory from now on; this session's saves will be lost when the arcade quits.")
        #expect(notice.short == "Saves are kept in memory until you quit: the disk is full.")
        // everything written, before and after, reads back; the store keeps answering
        #expect(try store.keys(game: "g").count == 100)
        #expect(try store.value(game: "g", key: "k0") == .string(chunk))
        try store.setValue(nil, game: "g", key: "k0")
        #expect(try store.submitScore(5, game: "g"))
        store.close()
        // the file holds what was written before the disk filled up, and is sound
        let file = SaveStore(location: .file(dir.database))
        #expect(file.warnings.isEmpty)
        #expect(try file.keys(game: "g").count == keptInFile)
        #expect(try file.integrityCheck() == ["ok"])
    }

    @Test func damagedValueIsReported() throws {
        let dir = ScratchFolder()
        let store = SaveStore(location: .file(dir.database))
        try store.setValue(.int(1), game: "g", key: "k")
        store.close()
        do {
            let db = try SQLiteDatabase(path: dir.database)
            try db.execute("UPDATE game_values SET value = '{\"a\": 1,}'")
        }
        let again = SaveStore(location: .file(dir.database))
        #expect(throws: StorageError(.damaged, "the value saved under 'k' is damaged (invalid JSON at byte 8: unexpected '}', expected a string key)")) {
            try again.value(game: "g", key: "k")
        }
    }
}
