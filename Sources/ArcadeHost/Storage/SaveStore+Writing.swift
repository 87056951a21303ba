import ArcadeLua
import CSQLite

/// A write made in the open group, kept until the group commits: if the file fails before,
/// it is written again in memory.
enum PendingWrite {
    case value(LuaValue?, game: String, key: String)
    case score(Int64, game: String)
    case resetScore(game: String)
    /// Ownership changes are made outside groups, so they are never written again.
    case claim(game: String, owner: String)
    case adopt(game: String, owner: String, from: String)
}

/// Groups, transactions, and what happens when the file fails: reads and writes retried in
/// memory after ``carryOnInMemory(after:)``.
extension SaveStore {
    // MARK: Groups

    /// Starts a group: the writes made until the matching ``endGroup()`` go in one
    /// transaction, committed together or not at all (a kill in between loses the whole
    /// group, never part of it). Reads in the group see its writes. Groups nest: only the
    /// outermost one commits. The session opens one around each step.
    public func beginGroup() {
        groupDepth += 1
    }

    /// Ends a group, committing its writes when it is the outermost. If the file fails at
    /// the commit, the group's writes are made again in memory, where saves then stay.
    public func endGroup() {
        guard groupDepth > 0 else { return }
        guard groupDepth == 1 else {
            groupDepth -= 1
            return
        }
        defer { groupDepth = 0 }
        if groupWrites != nil {
            commitOrRequeue()
        } else if queued.isEmpty {
            lookForTheFile()
        }
        if !queued.isEmpty { flushQueued() }
    }

    /// Commits the open group; when another arcade holds the file past the busy timeout,
    /// its writes go back to ``queued`` for the next try; when the file fails, they are made
    /// again in memory, where saves then stay.
    private func commitOrRequeue() {
        do { try commitGroup() } catch {
            if error.kind == .busy && location != .memory {
                if let db, db.inTransaction { try? statements?.rollback.run() }
                queued = (groupWrites ?? []) + queued
                groupWrites = nil
                return
            }
            guard error.isFileFailure, location != .memory else {
                abandonGroup()
                return
            }
            carryOnInMemory(after: error)
            do { try commitGroup() } catch { abandonGroup() }
        }
    }

    /// Writes what another arcade's lock held back, in one transaction of its own; what is
    /// still held back waits for the next try (the end of the next step, or ``close()``).
    func flushQueued() {
        guard !queued.isEmpty, location != .memory else { return }
        let pending = queued
        queued = []
        let depth = groupDepth
        groupDepth = 1
        for write in pending { replay(write) }
        if groupWrites != nil { commitOrRequeue() }
        groupDepth = depth
    }

    /// Makes `write` again through the store's own functions.
    func replay(_ write: PendingWrite) {
        switch write {
        case .value(let value, let game, let key): try? setValue(value, game: game, key: key)
        case .score(let score, let game): _ = try? submitScore(score, game: game)
        case .resetScore(let game): try? resetBestScore(game: game)
        case .claim, .adopt: break
        }
    }

    /// Groups (steps) between two looks for the file when nothing is written: a second at 60
    /// steps a second.
    static let groupsBetweenLooks = 60

    /// Between writes, looks now and then whether the file is still where it was opened, so
    /// that one deleted during play is told at once rather than at the next save.
    private func lookForTheFile() {
        groupsSinceLook += 1
        guard groupsSinceLook >= Self.groupsBetweenLooks else { return }
        groupsSinceLook = 0
        do { try checkFileInPlace() } catch { carryOnInMemory(after: error) }
    }

    private func commitGroup() throws(StorageError) {
        let st = try ready()
        do {
            try checkFileInPlace()
            try st.commit.run()
        } catch {
            throw failure(error, doing: "save")
        }
        groupWrites = nil
    }

    private func abandonGroup() {
        if let db, db.inTransaction { try? statements?.rollback.run() }
        groupWrites = nil
    }

    // MARK: Reading and writing, with the fall back to memory

    /// Runs a read; when the file fails, carries on in memory and reads there.
    ///
    /// A read waits for another arcade's commit (it cannot be put off as a write is): past
    /// the busy timeout it tries once more, waiting up to ``readingTimeoutMilliseconds``.
    func read<R>(doing what: String, _ body: (SaveStatements) throws -> R) throws(StorageError) -> R {
        do {
            return try readOnce(doing: what, body)
        } catch where error.kind == .busy && location != .memory {
            db?.setBusyTimeout(milliseconds: Self.readingTimeoutMilliseconds)
            defer { db?.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds) }
            return try readOnce(doing: what, body)
        } catch where error.isFileFailure && location != .memory {
            carryOnInMemory(after: error)
            return try readOnce(doing: what, body)
        }
    }

    private func readOnce<R>(doing what: String, _ body: (SaveStatements) throws -> R) throws(StorageError) -> R {
        let st = try ready()
        do { return try body(st) } catch {
            throw failure(error, doing: what)
        }
    }

    /// Runs a write in the open group's transaction (under a savepoint, so that a refused
    /// write undoes only itself), else in a transaction of its own. When the file fails,
    /// carries on in memory and writes there.
    ///
    /// When another arcade holds the file past the busy timeout, a write that can wait
    /// (`whenQueued` given) joins ``queued`` and `whenQueued` gives its result; later writes
    /// join it too, in order, until it is written.
    func write<R>(_ pending: PendingWrite, doing what: String, whenQueued: (() throws(StorageError) -> R)? = nil,
                  _ body: (SaveStatements) throws -> R) throws(StorageError) -> R {
        if !queued.isEmpty, groupDepth == 0 { flushQueued() }
        if let whenQueued, !queued.isEmpty, location != .memory {
            let result = try whenQueued()
            queued.append(pending)
            return result
        }
        do {
            return try writeOnce(pending, doing: what, body)
        } catch where error.kind == .busy && location != .memory && whenQueued != nil && groupWrites == nil {
            let result = try whenQueued!()
            queued.append(pending)
            return result
        } catch where error.isFileFailure && location != .memory {
            carryOnInMemory(after: error)
            return try writeOnce(pending, doing: what, body)
        }
    }

    private func writeOnce<R>(_ pending: PendingWrite, doing what: String,
                              _ body: (SaveStatements) throws -> R) throws(StorageError) -> R {
        let st = try ready()
        guard groupDepth > 0 else { return try transaction(st, doing: what, body) }
        do {
            if groupWrites == nil {
                try st.begin.run()
                groupWrites = []
            }
            try st.savepoint.run()
        } catch {
            throw failure(error, doing: what)
        }
        do {
            let result = try body(st)
            try st.release.run()
            groupWrites?.append(pending)
            return result
        } catch {
            try? st.rollbackToSavepoint.run()
            try? st.release.run()
            throw failure(error, doing: what)
        }
    }

    func ready() throws(StorageError) -> SaveStatements {
        guard let statements else { throw StorageError(.closed, "the save store is closed") }
        return statements
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back when it throws.
    /// Taking the write lock at the start means a busy database fails here, before any work.
    private func transaction<R>(_ st: SaveStatements, doing what: String, _ body: (SaveStatements) throws -> R) throws(StorageError) -> R {
        do {
            try st.begin.run()
        } catch {
            throw failure(error, doing: what)
        }
        do {
            let result = try body(st)
            try checkFileInPlace()
            try st.commit.run()
            return result
        } catch {
            // after a failed COMMIT the transaction can still be open: end it either way
            if let db, db.inTransaction { try? st.rollback.run() }
            throw failure(error, doing: what)
        }
    }

    /// Throws `.deleted` when the save file's path no longer leads to the file the store
    /// opened: what is committed to a deleted file is lost when the arcade quits.
    private func checkFileInPlace() throws(StorageError) {
        guard case .file(let path) = location, let openedFile, SaveFile.identity(path) != openedFile else { return }
        let cause = "the save file was deleted or moved while the arcade was running"
        throw StorageError(.deleted, "\(cause) (\(path))", cause: cause)
    }

    /// A player-facing error for what SQLite (or the JSON reader) said; a ``StorageError``
    /// passes unchanged.
    func failure(_ error: any Error, doing what: String) -> StorageError {
        if let e = error as? StorageError { return e }
        guard let f = error as? SQLiteFailure else { return StorageError(.io, "could not \(what): \(error)") }
        let place: String
        switch location {
        case .file(let path): place = path
        case .memory: place = "saves kept in memory"
        }
        let (kind, cause): (StorageError.Kind, String)
        // SQLITE_READONLY_DBMOVED: the file was deleted or renamed under the open connection
        if f.code == SQLITE_READONLY | (4 << 8) {
            let cause = "the save file was deleted or moved while the arcade was running"
            return StorageError(.deleted, "\(cause) (\(place))", cause: cause)
        }
        switch f.primary {
        case SQLITE_FULL: (kind, cause) = (.diskFull, "the disk is full")
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN:
            (kind, cause) = (.readOnly, "the save file cannot be written (\(f.message))")
        case SQLITE_BUSY, SQLITE_LOCKED:
            (kind, cause) = (.busy, "the save file is busy, another arcade may be using it")
        case SQLITE_CORRUPT, SQLITE_NOTADB: (kind, cause) = (.damaged, "the save file is damaged (\(f.message))")
        default: (kind, cause) = (.io, "the save file failed (\(f.message))")
        }
        return StorageError(kind, "could not \(what): \(cause) (\(place))", cause: cause)
    }
}
