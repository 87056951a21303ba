import ArcadeLua
import CSQLite

/// Why a file could not be used as it is.
private enum OpenProblem: Error {
    /// Its contents are damaged or not ours: move it aside.
    case damaged(String)
    /// It cannot be used but may be fine (permissions, full disk, newer layout): leave it.
    case unusable(String)

    var reason: String {
        switch self {
        case .damaged(let r), .unusable(let r): r
        }
    }
}

/// Opening never fails: a damaged file is moved aside, an unusable one left alone, and the
/// saves kept in memory when no file can be used (see ``SaveStore``).
extension SaveStore {
    func openFile(_ path: String) {
        if let problem = SaveFile.createFolder(for: path) {
            degrade("Saves cannot be kept in \(path) (\(problem)); this session's saves will be lost when the arcade quits.")
            return
        }
        do {
            try attach(SaveStore.openChecked(path))
        } catch {
            guard case .damaged(let reason) = error else {
                degrade("Saves cannot be kept in \(path) (\(error.reason)); this session's saves will be lost when the arcade quits.")
                return
            }
            switch SaveFile.moveAside(path) {
            case .failure(let e):
                degrade("The save file \(path) is damaged (\(reason)) and could not be moved aside (\(e.message)); "
                        + "this session's saves will be lost when the arcade quits.")
            case .success(let aside):
                warnings.append("The save file \(path) was damaged (\(reason)); it was moved to \(aside) and a new save file was started.")
                do { try attach(SaveStore.openChecked(path)) } catch {
                    degrade("A new save file could not be started at \(path) (\(error.reason)); "
                            + "this session's saves will be lost when the arcade quits.")
                }
            }
        }
    }

    func openMemory() {
        do {
            let db = try SQLiteDatabase(path: ":memory:")
            try SaveSchema.migrate(db)
            try attach(db)
        } catch {
            // an in-memory database fails only when memory itself is exhausted
            fatalError("arcade: cannot create an in-memory save database: \(error)")
        }
    }

    private func degrade(_ warning: String) {
        warnings.append(warning)
        location = .memory
        openMemory()
    }

    private func attach(_ db: SQLiteDatabase) throws(OpenProblem) {
        do {
            statements = try SaveStatements(db)
        } catch {
            throw .damaged(error.message)
        }
        self.db = db
    }

    /// Opens the file and makes sure it is a sound, current, writable arcade database.
    private static func openChecked(_ path: String) throws(OpenProblem) -> SQLiteDatabase {
        let db: SQLiteDatabase
        do { db = try SQLiteDatabase(path: path) } catch { throw classify(error) }
        db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        do {
            // the first read of the header: a file of garbage fails here. A newer arcade's
            // file is recognised before anything (even the journal mode) is written to it.
            let version = try db.integer("PRAGMA user_version") ?? 0
            if version > SaveSchema.version { throw SaveSchema.Mismatch.newer(version) }
            // quick_check walks every page (a truncated file fails here) without the
            // index cross-checks of integrity_check, which are slow on large files
            let check = try db.texts("PRAGMA quick_check")
            if check != ["ok"] {
                throw OpenProblem.damaged(check.prefix(2).joined(separator: "; "))
            }
            _ = try db.texts("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = NORMAL; PRAGMA trusted_schema = OFF")
            try SaveSchema.migrate(db)
            // a file SQLite had to open read-only, or a folder where the log cannot be
            // written, shows up when taking the write lock
            if db.isReadOnly { throw OpenProblem.unusable("the file is read-only") }
            try db.execute("BEGIN IMMEDIATE; ROLLBACK")
        } catch let problem as OpenProblem {
            throw problem
        } catch let mismatch as SaveSchema.Mismatch {
            switch mismatch {
            case .newer(let version):
                throw .unusable("it was written by a newer arcade (save format \(version), this one knows up to "
                                + "\(SaveSchema.version)); it is left untouched")
            case .foreign(let why):
                throw .damaged("it is not an arcade save file: \(why)")
            }
        } catch let f as SQLiteFailure {
            throw classify(f)
        } catch {
            throw .unusable("\(error)")
        }
        return db
    }

    private static func classify(_ f: SQLiteFailure) -> OpenProblem {
        f.meansDamaged ? .damaged(f.message) : .unusable(f.message)
    }
}
