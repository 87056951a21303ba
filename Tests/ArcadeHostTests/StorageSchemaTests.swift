import Testing
@testable import ArcadeHost

/// Schema versions: steps run once, in order, all or nothing.
@Suite struct StorageSchemaTests {
    let v1 = "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT NOT NULL);"
    let v2 = "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;"
    let notesV1 = [(name: "notes", columns: ["id", "text"])]
    let notesV2 = [(name: "notes", columns: ["id", "text", "pinned"])]

    @Test func stepsRunOnceAndKeepData() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try SaveSchema.migrate(db, steps: [v1], tables: notesV1)
        #expect(try db.integer("PRAGMA user_version") == 1)
        try db.execute("INSERT INTO notes(text) VALUES ('kept')")
        try SaveSchema.migrate(db, steps: [v1, v2], tables: notesV2)
        #expect(try db.integer("PRAGMA user_version") == 2)
        #expect(try db.texts("SELECT text || ':' || pinned FROM notes") == ["kept:0"])
        // already current: nothing runs (running v2 again would fail on the duplicate column)
        try SaveSchema.migrate(db, steps: [v1, v2], tables: notesV2)
        #expect(try db.integer("PRAGMA user_version") == 2)
    }

    @Test func failingStepLeavesTheOldVersion() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try SaveSchema.migrate(db, steps: [v1], tables: notesV1)
        let broken = "CREATE TABLE extra(x); ALTER TABLE missing ADD COLUMN y;"
        #expect(throws: SQLiteFailure.self) { try SaveSchema.migrate(db, steps: [v1, broken], tables: notesV1) }
        #expect(try db.integer("PRAGMA user_version") == 1)
        #expect(try db.texts("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") == ["notes"])
    }

    @Test func newerAndForeignFilesAreRecognised() throws {
        let newer = try SQLiteDatabase(path: ":memory:")
        try newer.execute("PRAGMA user_version = 5")
        #expect(throws: SaveSchema.Mismatch.newer(5)) { try SaveSchema.migrate(newer, steps: [v1], tables: notesV1) }

        let foreign = try SQLiteDatabase(path: ":memory:")
        try foreign.execute("CREATE TABLE other(x)")
        #expect(throws: SaveSchema.Mismatch.foreign("it has tables the arcade did not create: other")) {
            try SaveSchema.migrate(foreign, steps: [v1], tables: notesV1)
        }

        let lacking = try SQLiteDatabase(path: ":memory:")
        #expect(throws: SaveSchema.Mismatch.foreign("its table notes lacks pinned")) {
            try SaveSchema.migrate(lacking, steps: [v1], tables: notesV2)
        }
    }

    @Test func currentLayoutHasTheStoresTables() throws {
        let db = try SQLiteDatabase(path: ":memory:")
        try SaveSchema.migrate(db)
        #expect(try db.integer("PRAGMA user_version") == SaveSchema.version)
        #expect(try db.texts("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") == ["best_scores", "game_values", "save_owners"])
    }
}
