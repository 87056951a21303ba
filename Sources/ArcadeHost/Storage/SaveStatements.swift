/// The save store's statements, compiled once and reused for every call.
struct SaveStatements {
    let begin: SQLiteStatement
    let commit: SQLiteStatement
    let rollback: SQLiteStatement
    let savepoint: SQLiteStatement
    let release: SQLiteStatement
    let rollbackToSavepoint: SQLiteStatement
    let value: SQLiteStatement
    let otherSizes: SQLiteStatement
    let gameSize: SQLiteStatement
    let upsert: SQLiteStatement
    let delete: SQLiteStatement
    let keys: SQLiteStatement
    let best: SQLiteStatement
    let setBest: SQLiteStatement
    let allBest: SQLiteStatement
    let deleteBest: SQLiteStatement

    init(_ db: SQLiteDatabase) throws(SQLiteFailure) {
        func make(_ sql: String) throws(SQLiteFailure) -> SQLiteStatement {
            try db.prepare(sql, persistent: true)
        }
        begin = try make("BEGIN IMMEDIATE")
        commit = try make("COMMIT")
        rollback = try make("ROLLBACK")
        savepoint = try make("SAVEPOINT one_write")
        release = try make("RELEASE one_write")
        rollbackToSavepoint = try make("ROLLBACK TO one_write")
        value = try make("SELECT value FROM game_values WHERE game_id = ?1 AND key = ?2")
        otherSizes = try make("SELECT COALESCE(SUM(size), 0) FROM game_values WHERE game_id = ?1 AND key <> ?2")
        gameSize = try make("SELECT COALESCE(SUM(size), 0) FROM game_values WHERE game_id = ?1")
        upsert = try make("""
            INSERT INTO game_values(game_id, key, size, value) VALUES (?1, ?2, ?3, ?4)
            ON CONFLICT(game_id, key) DO UPDATE SET size = excluded.size, value = excluded.value
            """)
        delete = try make("DELETE FROM game_values WHERE game_id = ?1 AND key = ?2")
        keys = try make("SELECT key FROM game_values WHERE game_id = ?1 ORDER BY key")
        best = try make("SELECT score FROM best_scores WHERE game_id = ?1")
        setBest = try make("""
            INSERT INTO best_scores(game_id, score, saved_at) VALUES (?1, ?2, CAST(strftime('%s', 'now') AS INTEGER))
            ON CONFLICT(game_id) DO UPDATE SET score = excluded.score, saved_at = excluded.saved_at
            """)
        allBest = try make("SELECT game_id, score FROM best_scores ORDER BY game_id")
        deleteBest = try make("DELETE FROM best_scores WHERE game_id = ?1")
    }
}
