import CSQLite

/// The save database's tables and how each older layout is brought up to date.
///
/// The layout's version is SQLite's `PRAGMA user_version` (0 in a new file). Step *n* of
/// ``migrations`` turns version *n - 1* into version *n*; opening runs the missing steps
/// in one transaction, so a kill halfway leaves the old version intact. A later layout
/// change appends a step (never edits an old one) and updates ``tables``.
///
/// Scores keep only each game's best (with when it was set): that is what the menu shows
/// and the table stays one row per game however often games submit.
enum SaveSchema {
    /// Each step's SQL, in order.
    static let migrations: [String] = [
        // 1: per-game values and best scores
        """
        CREATE TABLE game_values(
            game_id TEXT NOT NULL,
            key TEXT NOT NULL,
            size INTEGER NOT NULL,
            value TEXT NOT NULL,
            PRIMARY KEY (game_id, key)
        );
        CREATE TABLE best_scores(
            game_id TEXT NOT NULL PRIMARY KEY,
            score INTEGER NOT NULL,
            saved_at INTEGER NOT NULL
        );
        """,
        // 2: who owns each id's saves (see ``SaveOwner``); `saves_key` is the `game_id` its
        // rows are kept under: the id itself for the first owner, `id#n` for later ones
        """
        CREATE TABLE save_owners(
            game_id TEXT NOT NULL,
            owner TEXT NOT NULL,
            saves_key TEXT NOT NULL UNIQUE,
            PRIMARY KEY (game_id, owner)
        );
        """,
    ]
    // `size` (UTF-8 bytes of key and JSON value, summed for the per-game limit) sits before
    // `value` so that summing it never reads the overflow pages of large values.

    /// The tables and columns the store's statements use; a file without them is not ours.
    static let tables: [(name: String, columns: [String])] = [
        ("game_values", ["game_id", "key", "size", "value"]),
        ("best_scores", ["game_id", "score", "saved_at"]),
        ("save_owners", ["game_id", "owner", "saves_key"]),
    ]

    /// The version that added each table of ``tables`` not in the first layout: a file of an
    /// older version is checked only for the tables it should already have.
    static let introduced: [String: Int64] = ["save_owners": 2]

    /// The version this build writes.
    static var version: Int64 { Int64(migrations.count) }

    /// What is wrong with a file's layout.
    enum Mismatch: Error, Equatable {
        /// Written by a newer arcade: leave it alone.
        case newer(Int64)
        /// Not an arcade save database (other tables, or ours with columns missing).
        case foreign(String)
        /// An arcade save file whose tables are not what its version says (found by
        /// ``inspect(_:)``): it is ours, and damaged.
        case damaged(String)
    }

    /// Checks, reading only, that the database is empty or an arcade save file of a layout
    /// this build knows; returns its version. Nothing is written, so another program's file
    /// is refused exactly as it was found.
    ///
    /// - Throws: ``Mismatch/newer(_:)`` for a newer arcade's file, ``Mismatch/foreign(_:)``
    ///   for another program's database, ``Mismatch/damaged(_:)`` for an arcade layout with
    ///   tables or columns missing, ``SQLiteFailure`` when SQLite cannot read it.
    static func inspect(_ db: SQLiteDatabase) throws -> Int64 {
        let current = try db.integer("PRAGMA user_version") ?? 0
        if current > version { throw Mismatch.newer(current) }
        let existing = try db.texts("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        if current == 0 {
            if !existing.isEmpty {
                throw Mismatch.foreign("it has tables the arcade did not create: \(existing.joined(separator: ", "))")
            }
            return 0
        }
        let expected = tables.filter { (introduced[$0.name] ?? 1) <= current }
        if !expected.contains(where: { existing.contains($0.name) }) {
            throw Mismatch.foreign("it has none of the arcade's tables (it has: \(existing.isEmpty ? "none" : existing.joined(separator: ", ")))")
        }
        for table in expected {
            let columns = Set(try db.texts("SELECT name FROM pragma_table_info('\(table.name)')"))
            if columns.isEmpty { throw Mismatch.damaged("its table \(table.name) is missing") }
            let missing = table.columns.filter { !columns.contains($0) }
            if !missing.isEmpty { throw Mismatch.damaged("its table \(table.name) lacks \(missing.joined(separator: ", "))") }
        }
        return current
    }

    /// Brings the database to the last version of `steps` and checks that `tables` exist.
    ///
    /// - Throws: ``Mismatch`` when the file is not (or not yet) ours, ``SQLiteFailure``
    ///   when SQLite fails (a damaged file shows up here too).
    static func migrate(
        _ db: SQLiteDatabase, steps: [String] = migrations, tables: [(name: String, columns: [String])] = tables
    ) throws {
        let target = Int64(steps.count)
        var current = try db.integer("PRAGMA user_version") ?? 0
        if current > target { throw Mismatch.newer(current) }
        if current < target {
            // looked at again under the write lock: another arcade opening the same new file
            // at the same moment may have laid it out meanwhile (and, writing its saves
            // since, may hold that lock past the wait: then the layout is read again)
            if !(try writeLockOrLaidOut(db, target: target)) { return try check(db, tables) }
            do {
                current = try db.integer("PRAGMA user_version") ?? 0
                if current > target { throw Mismatch.newer(current) }
                if current == 0 {
                    let existing = try db.texts("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
                    if !existing.isEmpty {
                        throw Mismatch.foreign("it has tables the arcade did not create: \(existing.joined(separator: ", "))")
                    }
                }
                for step in steps[Int(current)...] { try db.execute(step) }
                try db.execute("PRAGMA user_version = \(target)")
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
        try check(db, tables)
    }

    /// Takes the write lock (true), or finds that another arcade, holding it, has laid the
    /// file out at version `target` meanwhile (false).
    private static func writeLockOrLaidOut(_ db: SQLiteDatabase, target: Int64) throws -> Bool {
        do {
            try db.execute("BEGIN IMMEDIATE")
            return true
        } catch {
            guard error.primary == SQLITE_BUSY, try db.integer("PRAGMA user_version") == target else { throw error }
            return false
        }
    }

    /// Checks that each of `tables` is there with its columns.
    private static func check(_ db: SQLiteDatabase, _ tables: [(name: String, columns: [String])]) throws {
        for table in tables {
            let columns = Set(try db.texts("SELECT name FROM pragma_table_info('\(table.name)')"))
            if columns.isEmpty { throw Mismatch.foreign("its table \(table.name) is missing") }
            let missing = table.columns.filter { !columns.contains($0) }
            if !missing.isEmpty {
                throw Mismatch.foreign("its table \(table.name) lacks \(missing.joined(separator: ", "))")
            }
        }
    }
}
