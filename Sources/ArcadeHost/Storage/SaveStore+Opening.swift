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
        SaveFile.ignoreFileSizeSignal()
        if let problem = SaveFile.createFolder(for: path) {
            degrade(path, because: problem)
            return
        }
        do {
            try attach(SaveStore.openChecked(path), file: path)
        } catch {
            guard case .damaged(let reason) = error else {
                degrade(path, because: error.reason)
                return
            }
            switch SaveFile.moveAside(path) {
            case .failure(let e):
                degrade(path, because: "it is damaged and could not be moved aside: \(e.message)")
            case .success(let aside):
                notices.append(SaveNotice(
                    message: "The save file \(path) was damaged (\(reason)); it was moved to \(aside) and a new save file was started.",
                    short: "The save file was damaged: it was moved to \(aside) and a new one was started."))
                do { try attach(SaveStore.openChecked(path), file: path) } catch {
                    degrade(path, because: "a new save file could not be started: \(error.reason)")
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

    private func degrade(_ path: String, because reason: String) {
        notices.append(SaveNotice(
            message: "Saves cannot be kept in \(path) (\(reason)); \(SaveNotice.lostOnQuit).",
            // the reason too when it is short ("another arcade is using it")
            short: "Saves are kept in memory until you quit: \(path) cannot be used"
                + (reason.count <= 48 ? " (\(reason))." : ".")))
        location = .memory
        openMemory()
    }

    private func attach(_ db: SQLiteDatabase, file: String? = nil) throws(OpenProblem) {
        do {
            statements = try SaveStatements(db)
        } catch {
            throw .damaged(error.message)
        }
        self.db = db
        openedFile = file.flatMap(SaveFile.identity)
    }

    /// Opens the file and makes sure it is a sound, current, writable arcade database.
    private static func openChecked(_ path: String) throws(OpenProblem) -> SQLiteDatabase {
        let db: SQLiteDatabase
        do { db = try SQLiteDatabase(path: path) } catch { throw classify(error) }
        db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
        do {
            // before anything is read: the log's index then lives in this process's memory,
            // never in a -shm file mapped from the disk (see ``SaveStore``, one process at a time)
            try db.execute("PRAGMA locking_mode = EXCLUSIVE")
            // the first read of the header: a file of garbage fails here. A newer arcade's
            // file is recognised before anything (even the journal mode) is written to it.
            let version = try db.integer("PRAGMA user_version") ?? 0
            if version > SaveSchema.version { throw SaveSchema.Mismatch.newer(version) }
            // quick_check walks every page (a truncated file fails here) without the
            // index cross-checks of integrity_check, which are slow on large files
            let check = try db.texts("PRAGMA quick_check")
            if check != ["ok"] {
                throw OpenProblem.damaged(summarize(check))
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
        if f.meansDamaged { return .damaged(f.message) }
        if f.primary == SQLITE_BUSY || f.primary == SQLITE_LOCKED { return .unusable("another arcade is using it") }
        return .unusable(f.message)
    }

    /// SQLite's check of a damaged file on one line: its first problem and how many more
    /// there are (the check lists up to a hundred, several to a row).
    static func summarize(_ check: [String]) -> String {
        let problems = check.flatMap { $0.split(separator: "\n") }.filter { !$0.hasPrefix("*** in database") }
        guard let first = problems.first else { return "SQLite's check failed" }
        let shown = first.count > 120 ? first.prefix(119) + "…" : first
        switch problems.count {
        case 1: return "SQLite's check found: \(shown)"
        case 2: return "SQLite's check found: \(shown), and 1 more problem"
        default: return "SQLite's check found: \(shown), and \(problems.count - 1) more problems"
        }
    }
}
