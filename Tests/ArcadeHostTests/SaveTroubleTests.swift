import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost

/// Collects what a callback sees, for closures that must escape.
final class Collected<T> {
    var items: [T] = []
}

/// A save file that goes wrong while a game plays (filled up, deleted, truncated, damaged,
/// held by another arcade): the game plays on, its saves go on in memory, the player is
/// told; and a step's writes are one transaction.
@Suite struct SaveTroubleTests {
    /// A game whose every step saves a value of `bytes` bytes under a new key and checks it
    /// (and the first one) read back; `game.state` counts the steps and the reads that failed.
    static let saver = """
        local game = {}
        local pad = string.rep("s", %BYTES%)
        function game.load() game.state.steps = 0; game.state.misread = 0 end
        function game.update()
          local n = game.state.steps + 1
          game.state.steps = n
          arcade.save.set("k" .. n, pad)
          arcade.score.submit(n)
          if arcade.save.get("k" .. n) ~= pad or arcade.save.get("k1") ~= pad then
            game.state.misread = game.state.misread + 1
          end
        end
        return game
        """

    static func saverGame(bytes: Int = 3000) throws -> ScratchGame {
        try ScratchGame(files: ["main.lua": saver.replacingOccurrences(of: "%BYTES%", with: "\(bytes)")])
    }

    func session(_ g: ScratchGame, _ store: SaveStore, log: @escaping (String) -> Void = { _ in }) throws -> GameSession {
        try GameSession(entry: try #require(g.entry), store: store, log: log)
    }

    /// A snapshot of the save files at one instant is what a kill at that instant leaves:
    /// taken between two `save.set` calls of a step, it must show the step before, whole.
    @Test func aStepsSavesAndScoreAreCommittedTogether() throws {
        let dir = ScratchFolder()
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.update()
              local n = (arcade.save.get("b") or 0) + 1
              arcade.save.set("a", { n = n, pad = string.rep("p", 5000) })
              print("between the writes of step " .. n)
              arcade.save.set("b", n)
              arcade.score.submit(n)
            end
            return game
            """])
        let store = SaveStore(location: .file(dir.database))
        let snapshots = Collected<String>()
        let s = try session(g, store) { _ in
            let snap = dir.file("snapshot-\(snapshots.items.count)")
            try? FileManager.default.createDirectory(atPath: snap, withIntermediateDirectories: false)
            for name in ["arcade.sqlite", "arcade.sqlite-journal"] where FileManager.default.fileExists(atPath: dir.file(name)) {
                try? FileManager.default.copyItem(atPath: dir.file(name), toPath: snap + "/" + name)
            }
            snapshots.items.append(snap)
        }
        for _ in 0..<6 { s.step() }
        #expect(s.failure == nil)
        #expect(snapshots.items.count == 6)
        for (i, snap) in snapshots.items.enumerated() {
            let seen = SaveStore(location: .file(snap + "/arcade.sqlite"))
            #expect(seen.warnings.isEmpty)
            let a = try seen.value(game: "scratch", key: "a")?["n"]?.intValue
            let b = try seen.value(game: "scratch", key: "b")?.intValue
            let best = try seen.bestScore(game: "scratch")
            // during step i + 1: step i is there in full, nothing of step i + 1
            let before: Int64? = i == 0 ? nil : Int64(i)
            #expect(a == before && b == before && best == before, "snapshot \(i): a \(String(describing: a)), b \(String(describing: b)), best \(String(describing: best))")
        }
        s.close()
        store.close()
        let after = SaveStore(location: .file(dir.database))
        #expect(try after.value(game: "scratch", key: "b") == .int(6))
        #expect(try after.bestScore(game: "scratch") == 6)
    }

    /// A write refused inside a step (too large) undoes only itself: the step's other
    /// writes are committed.
    @Test func aRefusedWriteInAStepUndoesOnlyItself() throws {
        let dir = ScratchFolder()
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.update()
              arcade.save.set("before", 1)
              game.state.refused = not pcall(arcade.save.set, "big", string.rep("x", 300 * 1024))
              arcade.save.set("after", 2)
            end
            return game
            """])
        let store = SaveStore(location: .file(dir.database))
        let s = try session(g, store)
        s.step()
        #expect(try s.state()["refused"] == .bool(true))
        s.close()
        store.close()
        let after = SaveStore(location: .file(dir.database))
        #expect(try after.keys(game: "scratch") == ["after", "before"])
    }

    @Test func aDiskThatFillsUpMidGameLeavesTheGamePlayingWithSavesInMemory() throws {
        let dir = ScratchFolder()
        let g = try Self.saverGame()
        let store = SaveStore(location: .file(dir.database), limits: .init(), pageLimit: 16)
        let s = try session(g, store)
        for _ in 0..<60 { s.step() }
        #expect(s.failure == nil, "\(String(describing: s.failure))")
        #expect(try s.state()["steps"] == .int(60))
        #expect(try s.state()["misread"] == .int(0))
        #expect(store.location == .memory)
        #expect(store.notices.map(\.short) == ["Saves are kept in memory until you quit: the disk is full."])
        #expect(try store.bestScore(game: "scratch") == 60)
    }

    @Test func aSaveFileDeletedMidGameIsNoticedAndNothingIsLostThisSession() throws {
        let dir = ScratchFolder()
        let g = try Self.saverGame()
        let store = SaveStore(location: .file(dir.database))
        let s = try session(g, store)
        for _ in 0..<5 { s.step() }
        #expect(store.isPersistent)
        unlink(dir.database)
        for _ in 0..<5 { s.step() }
        #expect(s.failure == nil)
        #expect(try s.state()["misread"] == .int(0))  // k1, saved before the deletion, still reads back
        #expect(store.location == .memory)
        let notice = try #require(store.notices.first)
        #expect(notice.message.hasPrefix("The save file \(dir.database) stopped working: "
                                         + "the save file was deleted or moved while the arcade was running. "))
        #expect(notice.short == "Saves are kept in memory until you quit: the save file was deleted.")
        #expect(try store.keys(game: "scratch").count == 10)
        // a file put back in its place (or moved there) is not written behind the player's back
        s.close()
        store.close()
        #expect(!FileManager.default.fileExists(atPath: dir.database))
    }

    /// A game that saves only now and then (here: never after the first step) hears of it
    /// within a second of play all the same.
    @Test func aSaveFileDeletedIsNoticedBetweenSaves() throws {
        let dir = ScratchFolder()
        let g = try ScratchGame(files: ["main.lua": """
            local game = {}
            function game.load() arcade.save.set("coins", 10) end
            function game.update() game.state.coins = arcade.save.get("coins") end
            return game
            """])
        let store = SaveStore(location: .file(dir.database))
        let s = try session(g, store)
        s.step()
        unlink(dir.database)
        for _ in 0..<SaveStore.groupsBetweenLooks { s.step() }
        #expect(store.location == .memory)
        #expect(store.notices.map(\.short) == ["Saves are kept in memory until you quit: the save file was deleted."])
        #expect(try s.state()["coins"] == .int(10))
    }

    @Test func aSaveFileReplacedMidGameIsNotWritten() throws {
        let dir = ScratchFolder()
        let g = try Self.saverGame()
        let store = SaveStore(location: .file(dir.database))
        let s = try session(g, store)
        s.step()
        rename(dir.database, dir.file("moved.sqlite"))
        dir.write("arcade.sqlite", Array("someone else's file".utf8))
        for _ in 0..<3 { s.step() }
        #expect(s.failure == nil)
        #expect(store.location == .memory)
        #expect(dir.bytes("arcade.sqlite") == Array("someone else's file".utf8))
    }

    /// Truncated under the arcade: whatever SQLite makes of it, the game plays on.
    @Test func aSaveFileTruncatedMidGameNeverStopsTheGame() throws {
        let dir = ScratchFolder()
        let g = try Self.saverGame(bytes: 20_000)
        let store = SaveStore(location: .file(dir.database))
        let s = try session(g, store)
        for _ in 0..<30 { s.step() }
        store.close()  // checkpoints: the main file holds every page
        let reopened = SaveStore(location: .file(dir.database))
        let s2 = try session(g, reopened)
        truncate(dir.database, 4096)
        for _ in 0..<30 { s2.step() }
        #expect(s2.failure == nil, "\(String(describing: s2.failure))")
        #expect(try s2.state()["steps"] == .int(30))
        #expect(reopened.location == .memory)
        #expect(reopened.notices.map(\.short) == ["Saves are kept in memory until you quit: the save file is damaged."])
        #expect(reopened.warnings.first?.hasSuffix("It will be moved aside when the arcade next starts.") == true)
        s2.close()
        reopened.close()
        #expect(SaveStore(location: .file(dir.database)).warnings.first?.contains("it was moved to \(dir.database).corrupt-1") == true)
    }

    @Test func aDamagedFileGetsOneShortLine() throws {
        let dir = ScratchFolder()
        do {
            let store = SaveStore(location: .file(dir.database))
            for i in 0..<300 { try store.setValue(.string(String(repeating: "v", count: 900)), game: "g", key: "k\(i)") }
            store.close()
        }
        // scribble over every third page after the first two: many problems for SQLite's check
        var bytes = try #require(dir.bytes("arcade.sqlite"))
        var x: UInt32 = 7
        for page in stride(from: 3, to: bytes.count / 4096, by: 3) {
            for _ in 0..<100 {
                x = x &* 1_103_515_245 &+ 12345
                bytes[page * 4096 + Int(x >> 8) % 4096] = UInt8(truncatingIfNeeded: x >> 16)
            }
        }
        dir.write("arcade.sqlite", bytes)
        let store = SaveStore(location: .file(dir.database))
        let warning = try #require(store.warnings.first)
        #expect(store.warnings.count == 1)
        #expect(!warning.contains("\n"))
        #expect(warning.count < 400, "\(warning.count) characters: \(warning)")
        #expect(warning.hasPrefix("The save file \(dir.database) was damaged (SQLite's check found: "))
        #expect(warning.hasSuffix("more problems); it was moved to \(dir.database).corrupt-1 and a new save file was started."))
        #expect(store.notices.first?.short == "The save file was damaged: it was moved to \(dir.database).corrupt-1 and a new one was started.")
        #expect(store.isPersistent)
    }

    @Test func theCheckSummaryKeepsTheFirstProblemAndCountsTheRest() {
        let rows = ["*** in database main ***\nPage 5: never used\nPage 6: never used", "Page 7: never used"]
        #expect(SaveStore.summarize(rows) == "SQLite's check found: Page 5: never used, and 2 more problems")
        #expect(SaveStore.summarize(["*** in database main ***\nPage 5: never used"]) == "SQLite's check found: Page 5: never used")
        #expect(SaveStore.summarize(["Page 5: x", "Page 6: y"]) == "SQLite's check found: Page 5: x, and 1 more problem")
        let long = SaveStore.summarize([String(repeating: "w", count: 500)])
        #expect(long.count == "SQLite's check found: ".count + 120)
    }

    /// No `-shm` file is ever used (the file keeps a rollback journal), so one left unusable
    /// from before (here a folder in its place) changes nothing, and one truncated from
    /// outside cannot crash the arcade (see `StorageProcessTests`).
    @Test func noShmFileIsUsedSoAnUnusableOneIsHarmless() throws {
        let dir = ScratchFolder()
        mkdir(dir.database + "-shm", 0o755)
        let store = SaveStore(location: .file(dir.database))
        #expect(store.warnings.isEmpty)
        #expect(store.isPersistent)
        try store.setValue(.int(1), game: "g", key: "k")
        #expect(try store.submitScore(1, game: "g"))
        #expect(!dir.listing().contains("arcade.sqlite-wal"))
        var st = stat()
        #expect(stat(dir.database + "-shm", &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR)  // untouched
    }

    /// Two arcades on one file both keep their saves in it, each seeing the other's.
    @Test func aSecondArcadeOnTheSameFileKeepsItsSavesInTheFileToo() throws {
        let dir = ScratchFolder()
        let first = SaveStore(location: .file(dir.database))
        try first.setValue(.int(1), game: "g", key: "k")
        let second = SaveStore(location: .file(dir.database))
        #expect(second.isPersistent)
        #expect(second.warnings.isEmpty)
        try second.setValue(.int(2), game: "h", key: "k")
        #expect(try first.value(game: "h", key: "k") == .int(2))
        #expect(try second.value(game: "g", key: "k") == .int(1))
        first.close()
        second.close()
        let third = SaveStore(location: .file(dir.database))
        #expect(try third.value(game: "g", key: "k") == .int(1) && third.value(game: "h", key: "k") == .int(2))
    }

    /// Opening a file that another arcade is writing without pause (its write lock held the
    /// whole time the store opens) keeps the saves in the file: they are read from it at
    /// once, and the first step's writes wait until the lock is let go.
    @Test func openingAFileAnotherArcadeKeepsWritingUsesTheFile() throws {
        let dir = ScratchFolder()
        let first = SaveStore(location: .file(dir.database))
        try first.setValue(.int(1), game: "g", key: "k")
        first.close()
        let other = try SQLiteDatabase(path: dir.database)
        try other.execute("BEGIN IMMEDIATE")
        let store = SaveStore(location: .file(dir.database))
        #expect(store.isPersistent, "\(store.notices)")
        #expect(store.notices.isEmpty)
        #expect(try store.value(game: "g", key: "k") == .int(1))
        store.beginGroup()
        try store.setValue(.int(2), game: "g", key: "k")
        store.endGroup()
        try other.execute("ROLLBACK")
        other.close()
        store.beginGroup()
        store.endGroup()
        let reader = SaveStore(location: .file(dir.database))
        #expect(try reader.value(game: "g", key: "k") == .int(2))
    }

    /// A step whose writes find another arcade holding the file keeps them waiting, readable,
    /// and writes them at a later step once the file is free: none is lost.
    @Test func writesHeldBackByAnotherArcadeAreWrittenLater() throws {
        let dir = ScratchFolder()
        let store = SaveStore(location: .file(dir.database))
        try store.setValue(.int(1), game: "g", key: "k")
        #expect(try store.submitScore(10, game: "g"))
        let other = try SQLiteDatabase(path: dir.database)
        try other.execute("BEGIN IMMEDIATE")
        store.beginGroup()
        try store.setValue(.int(2), game: "g", key: "k")
        try store.setValue(.int(3), game: "g", key: "new")
        #expect(try store.submitScore(20, game: "g"))
        #expect(try !store.submitScore(15, game: "g"))
        store.endGroup()
        #expect(store.isPersistent)
        #expect(try store.value(game: "g", key: "k") == .int(2))
        #expect(try store.keys(game: "g") == ["k", "new"])
        #expect(try store.bestScore(game: "g") == 20)
        try other.execute("ROLLBACK")
        store.beginGroup()
        store.endGroup()
        other.close()
        let reader = SaveStore(location: .file(dir.database))
        #expect(try reader.value(game: "g", key: "k") == .int(2) && reader.value(game: "g", key: "new") == .int(3))
        #expect(try reader.bestScore(game: "g") == 20)
        #expect(store.notices.isEmpty)
    }
}
