import ArcadeLua
import CSQLite

/// Why a file could not be used as it is.
private enum OpenProblem: Error {
    /// Its contents are damaged or not ours: move it aside.
    case damaged(String)
    /// It cannot be used but may be fine (permissions, full disk, newer layout): leave it.
    case unusable(String)
    /// A killed writer left a journal to roll back before the file can be looked at.
    case hotJournal

    var reason: String {
        switch self {
        case .damaged(let r), .unusable(let r): r
        case .hotJournal: "a journal left by an arcade that was killed could not be rolled back"
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
    ///
    /// The file is first looked at through a read-only connection: a file that is not an
    /// arcade save file of a layout this build knows (another program's database, a newer
    /// arcade's) is refused before a byte of it, or of its journal, is written.
    private static func openChecked(_ path: String) throws(OpenProblem) -> SQLiteDatabase {
        if isDirectory(path) { throw .unusable("it is a folder, not a file") }
        if let size = SaveFile.size(path), size > 0 {
            // an arcade was killed mid-commit: its journal is rolled back first, as any
            // SQLite program opening the file would do
            if (SaveFile.size(path + "-journal") ?? 0) > 0 { try rollBackHotJournal(path) }
            do { try inspect(path) } catch .hotJournal {
                // an arcade was killed mid-commit: the journal must be rolled back (as any
                // SQLite program opening the file would) before the file can be read
                try rollBackHotJournal(path)
                try inspect(path)
            }
        }
        if let readOnly = SaveFile.readOnlyReason(path) { throw .unusable(readOnly) }
        let db: SQLiteDatabase
        do { db = try SQLiteDatabase(path: path) } catch { throw classify(error, path: path) }
        db.setBusyTimeout(milliseconds: openingTimeoutMilliseconds)
        try explaining(path) {
            // a rollback journal, so that several arcades can use the file at once (see
            // ``SaveStore``); leaving the WAL of older arcades' files needs them gone
            let mode = try db.texts("PRAGMA journal_mode = TRUNCATE")
            if mode != ["truncate"] { throw OpenProblem.unusable("another arcade is using it") }
            try db.execute("PRAGMA synchronous = FULL; PRAGMA trusted_schema = OFF")
            try SaveSchema.migrate(db)
            // a file SQLite had to open read-only shows up when taking the write lock
            if db.isReadOnly { throw OpenProblem.unusable("the file is read-only") }
            db.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            // the write lock taken once proves the file takes writes; another arcade holding
            // it proves that as well (it is writing), and this one's writes wait their turn
            // as every step's do, so a busy file is not a reason to keep saves in memory
            do { try db.execute("BEGIN IMMEDIATE") } catch let f as SQLiteFailure where f.primary == SQLITE_BUSY {
                return
            }
            try db.execute("ROLLBACK")
        }
        return db
    }

    /// Reads the file's layout and checks its pages without writing anything.
    private static func inspect(_ path: String) throws(OpenProblem) {
        let db: SQLiteDatabase
        do { db = try SQLiteDatabase(path: path, readOnly: true) } catch { throw classify(error, path: path) }
        defer { db.close() }
        db.setBusyTimeout(milliseconds: openingTimeoutMilliseconds)
        try explaining(path) {
            // the first read of the header: a file of garbage fails here
            _ = try SaveSchema.inspect(db)
            // quick_check walks every page (a truncated file fails here) without the
            // index cross-checks of integrity_check, which are slow on large files
            let check = try db.texts("PRAGMA quick_check")
            if check != ["ok"] { throw OpenProblem.damaged(summarize(check)) }
        }
    }

    /// Runs `body`, saying what it throws as an ``OpenProblem``: a schema mismatch or an
    /// SQLite failure in the words the player sees.
    private static func explaining(_ path: String, _ body: () throws -> Void) throws(OpenProblem) {
        do {
            try body()
        } catch let problem as OpenProblem {
            throw problem
        } catch let mismatch as SaveSchema.Mismatch {
            throw problem(mismatch)
        } catch let f as SQLiteFailure {
            throw classify(f, path: path)
        } catch {
            throw .unusable("\(error)")
        }
    }

    /// Rolls back what a killed writer left half-done, by a read through a writable
    /// connection (SQLite does it on the first read).
    private static func rollBackHotJournal(_ path: String) throws(OpenProblem) {
        do {
            let db = try SQLiteDatabase(path: path)
            db.setBusyTimeout(milliseconds: openingTimeoutMilliseconds)
            defer { db.close() }
            _ = try db.integer("SELECT count(*) FROM sqlite_schema")
        } catch {
            throw classify(error, path: path)
        }
    }

    private static func problem(_ mismatch: SaveSchema.Mismatch) -> OpenProblem {
        switch mismatch {
        case .newer(let version):
            .unusable("it was written by a newer arcade (save format \(version), this one knows up to "
                      + "\(SaveSchema.version)); it is left untouched")
        case .foreign(let why):
            .unusable("it is not an arcade save file but another program's database (\(why)); it is left untouched")
        case .damaged(let why):
            .damaged("it is not a whole arcade save file: \(why)")
        }
    }

    private static func classify(_ f: SQLiteFailure, path: String) -> OpenProblem {
        if f.meansDamaged { return .damaged(f.message) }
        if f.primary == SQLITE_BUSY || f.primary == SQLITE_LOCKED { return .unusable("another arcade is using it") }
        if let readOnly = SaveFile.readOnlyReason(path) { return .unusable(readOnly) }
        if f.primary == SQLITE_READONLY { return .unusable("the file is read-only") }
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
