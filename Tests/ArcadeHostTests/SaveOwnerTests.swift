import Foundation
import Testing
import ArcadeLua
@testable import ArcadeHost

/// Saves belong to the game that made them: another folder or cart claiming the same id gets
/// saves of its own, told once; `adopt` moves them on purpose; saves from before owners were
/// recorded go only to the arcade's own or an installed game.
@Suite struct SaveOwnerTests {
    let here = SaveOwner.folder("/tmp/owners/a/rocks")
    let there = SaveOwner.folder("/tmp/owners/b/rocks")

    @Test func anotherOwnerOfTheIdGetsSavesOfItsOwnAndIsToldOnce() throws {
        let dir = ScratchFolder()
        let store = SaveStore(location: .file(dir.database))
        let first = store.slot(for: "rocks", owner: here)
        try first.setValue(.int(7), forKey: "level")
        #expect(try first.submitScore(300))
        #expect(store.notices.isEmpty)

        let second = store.slot(for: "rocks", owner: there)
        #expect(try second.value(forKey: "level") == nil)
        #expect(try second.bestScore() == nil)
        try second.setValue(.int(1), forKey: "level")
        #expect(store.notices.count == 1)
        let notice = try #require(store.notices.first)
        #expect(notice.message.contains("belong to the game in /tmp/owners/a/rocks"))
        #expect(notice.message.contains("arcade adopt"))
        #expect(try first.value(forKey: "level") == .int(7))
        store.close()

        // the next session finds each game's own saves, without a word
        let again = SaveStore(location: .file(dir.database))
        #expect(try again.slot(for: "rocks", owner: there).value(forKey: "level") == .int(1))
        #expect(try again.slot(for: "rocks", owner: here).value(forKey: "level") == .int(7))
        #expect(again.notices.isEmpty)
    }

    @Test func adoptMovesThePreviousOwnersSaves() throws {
        let dir = ScratchFolder()
        let store = SaveStore(location: .file(dir.database))
        try store.slot(for: "rocks", owner: here).setValue(.int(7), forKey: "level")
        _ = try store.slot(for: "rocks", owner: here).submitScore(300)
        try store.slot(for: "rocks", owner: there).setValue(.int(1), forKey: "mine")

        #expect(throws: StorageError.self) { try store.adopt(game: "rocks", owner: there, from: "/elsewhere") }
        let done = try store.adopt(game: "rocks", owner: there, from: nil)
        #expect(done.from.owner == here)
        #expect(done.from.values == 1 && done.from.bestScore == 300)
        #expect(done.replacedValues == 1)
        let moved = store.slot(for: "rocks", owner: there)
        #expect(try moved.value(forKey: "level") == .int(7))
        #expect(try moved.value(forKey: "mine") == nil)
        #expect(try moved.bestScore() == 300)
        // the old folder is now a stranger to them
        #expect(try store.slot(for: "rocks", owner: here).value(forKey: "level") == nil)
        #expect(throws: StorageError.self) { try store.adopt(game: "nothing", owner: there, from: nil) }
    }

    @Test func theArcadesOwnGamesSavesAreNeverAdopted() throws {
        let store = SaveStore(location: .file(ScratchFolder().database))
        try store.slot(for: "coinbank", owner: .bundled).setValue(.int(5), forKey: "total")
        #expect(throws: StorageError.self) { try store.adopt(game: "coinbank", owner: here, from: "bundled") }
        #expect(try store.slot(for: "coinbank", owner: .bundled).value(forKey: "total") == .int(5))
    }

    /// A file from before owners: its saves go to the arcade's own game or the installed game
    /// of the id, never to a folder's game or a cart only played.
    @Test func savesFromBeforeOwnersGoOnlyToTheBundledOrInstalledGame() throws {
        let dir = ScratchFolder()
        do {
            let db = try SQLiteDatabase(path: dir.database)
            try SaveSchema.migrate(db, steps: Array(SaveSchema.migrations.prefix(1)), tables: Array(SaveSchema.tables.prefix(2)))
            try db.execute("""
                INSERT INTO game_values VALUES ('coinbank', 'total', 10, '500'), ('rocks', 'level', 9, '3'), ('moon', 'm', 5, '1');
                INSERT INTO best_scores VALUES ('rocks', 40, 0);
                """)
        }
        let store = SaveStore(location: .file(dir.database))
        #expect(store.warnings.isEmpty)
        #expect(try store.slot(for: "coinbank", owner: .bundled).value(forKey: "total") == .int(500))
        #expect(try store.slot(for: "rocks", owner: here).value(forKey: "level") == nil)
        #expect(store.notices.count == 1)
        #expect(try store.slot(for: "moon", owner: .cart("abc")).value(forKey: "m") == nil)
        let installed = store.slot(for: "rocks", owner: .cart("0123456789abcdef", installed: true))
        #expect(try installed.value(forKey: "level") == .int(3))
        #expect(try installed.bestScore() == 40)
        // and the folder's game can take them on purpose, once the installed game lets go
        let moon = store.slot(for: "moon", owner: here)
        #expect(try moon.value(forKey: "m") == nil)
        #expect(try store.adopt(game: "moon", owner: here, from: "unowned").from.owner == nil)
        #expect(try store.slot(for: "moon", owner: here).value(forKey: "m") == .int(1))
    }

    /// The menu shows each game's own best score, not the best another game made under its id.
    @Test func theMenuShowsTheBestOfTheGamesOwner() throws {
        let store = SaveStore(location: .file(ScratchFolder().database))
        _ = try store.slot(for: "rocks", owner: here).submitScore(300)
        var entry = GameEntry(id: "rocks", folder: "/tmp/owners/b/rocks", gamesDir: "/tmp/owners/b",
                              manifest: try GameManifest.parse("return { id = 'rocks', title = 'Rocks', description = 'd', author = 'a', version = '1', api = 1 }",
                                                                             displayPath: "manifest.lua"), problem: nil)
        entry.saveOwner = there
        #expect(store.bestScores(of: [entry]) == [:])
        entry.saveOwner = here
        #expect(store.bestScores(of: [entry]) == ["rocks": 300])
    }
}
