import CSQLite

extension SaveStore {
    /// Removes saves and best scores under `game` (`arcade uninstall <id> --purge`), in one
    /// transaction: those of `owner`, or with no owner, those of every cart that saved under
    /// the id and those from before owners were recorded (never a folder's game's, nor the
    /// arcade's own).
    ///
    /// - Throws: ``StorageError`` when the saves are kept in memory (the file could not be
    ///   opened: nothing would really be removed), the store is closed, another arcade holds
    ///   the file, or the database refuses.
    public func forget(game: String, owner: SaveOwner?) throws(StorageError) {
        guard isPersistent else {
            throw StorageError(.readOnly, "could not remove the saves of '\(game)': the save file is not in use "
                               + "(\(notices.last?.short ?? "saves are kept in memory"))")
        }
        guard let db else { throw StorageError(.closed, "the save store is closed") }
        do {
            try db.execute("BEGIN IMMEDIATE")
            var keys: [String] = []
            let owners = try db.prepare("SELECT owner, saves_key FROM save_owners WHERE game_id = ?1")
            owners.bind(1, game)
            var claimedPlain = false
            while try owners.step() {
                let recorded = owners.text(0) ?? "", key = owners.text(1) ?? ""
                if key == game { claimedPlain = true }
                if owner.map({ recorded == $0.key }) ?? recorded.hasPrefix("cart ") { keys.append(key) }
            }
            // saves from before owners were recorded: what an installed game would have taken
            if !claimedPlain && (owner?.takesUnownedSaves ?? true) { keys.append(game) }
            for key in keys {
                try deleteRows(db, key: key)
                try run(db, "DELETE FROM save_owners WHERE saves_key = ?1", key)
            }
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            let busy = (error as? SQLiteFailure).map { $0.primary == SQLITE_BUSY || $0.primary == SQLITE_LOCKED } ?? false
            throw StorageError(busy ? .busy : .io, "could not remove the saves of '\(game)': "
                               + (busy ? "another arcade is writing to the save file; try again when it has quit" : "\(error)"))
        }
    }

    /// Removes every save under `game`, whoever owns them.
    public func forget(game: String) throws(StorageError) {
        guard let db else { throw StorageError(.closed, "the save store is closed") }
        do {
            try db.execute("BEGIN IMMEDIATE")
            try deleteRows(db, key: game)
            try run(db, "DELETE FROM save_owners WHERE saves_key = ?1", game)
            try db.execute("COMMIT")
        } catch {
            try? db.execute("ROLLBACK")
            throw StorageError(.io, "could not remove the saves of '\(game)': \(error)")
        }
    }
}
