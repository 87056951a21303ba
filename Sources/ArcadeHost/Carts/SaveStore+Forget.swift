import CSQLite

extension SaveStore {
    /// Removes every save and the best score of `game` (`arcade uninstall <id> --purge`), in
    /// one transaction.
    ///
    /// - Throws: ``StorageError`` when the store is closed or the database refuses.
    public func forget(game: String) throws(StorageError) {
        guard let db else { throw StorageError(.closed, "the save store is closed") }
        do {
            try db.execute("BEGIN IMMEDIATE")
            for sql in ["DELETE FROM game_values WHERE game_id = ?1", "DELETE FROM best_scores WHERE game_id = ?1"] {
                let statement = try db.prepare(sql)
                statement.bind(1, game)
                try statement.run()
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw StorageError(error.primary == SQLITE_BUSY ? .busy : .io, "could not remove the saves of '\(game)': \(error.message)")
        }
    }
}
