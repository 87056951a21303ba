import CSQLite

#if canImport(Glibc)
import Glibc
#endif

/// One SQLite connection (`sqlite3 *`): the only place the storage code opens, closes,
/// executes and reports errors from the SQLite C API.
///
/// Not thread-safe (opened with `SQLITE_OPEN_NOMUTEX`); it belongs to one ``SaveStore``.
final class SQLiteDatabase {
    /// The `sqlite3 *` handle; nil once closed.
    private(set) var handle: OpaquePointer?
    /// The file, or `:memory:`.
    let path: String

    /// Opens (creating when missing) the database at `path` (`sqlite3_open_v2`).
    ///
    /// - Throws: ``SQLiteFailure`` when SQLite cannot open the file at all. Opening succeeds
    ///   even for a file of garbage: SQLite reads nothing until the first statement.
    /// With `readOnly`, the file must exist and nothing is ever written to it
    /// (`SQLITE_OPEN_READONLY`): what the store looks at before deciding to use a file.
    init(path: String, readOnly: Bool = false) throws(SQLiteFailure) {
        self.path = path
        var db: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let flags = access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let failure = SQLiteFailure(code: rc, message: db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc)))
            sqlite3_close_v2(db)
            throw failure
        }
        handle = db
    }

    deinit {
        close()
    }

    /// Closes the connection; statements still alive are finalized by SQLite later (`sqlite3_close_v2`).
    func close() {
        guard let db = handle else { return }
        sqlite3_close_v2(db)
        handle = nil
    }

    /// The failure SQLite recorded for the last call on this connection.
    func failure(_ rc: Int32) -> SQLiteFailure {
        guard let db = handle else { return SQLiteFailure(code: rc, message: String(cString: sqlite3_errstr(rc))) }
        return SQLiteFailure(code: sqlite3_extended_errcode(db), message: String(cString: sqlite3_errmsg(db)))
    }

    /// How long a statement waits for another connection's lock before failing with
    /// `SQLITE_BUSY`, trying again every millisecond (not SQLite's own growing sleeps, which
    /// miss the short gaps between another arcade's commits).
    func setBusyTimeout(milliseconds: Int32) {
        arcade_sqlite_busy_timeout(handle, milliseconds)
    }

    /// Runs one or more statements that return no rows (`sqlite3_exec`).
    func execute(_ sql: String) throws(SQLiteFailure) {
        let rc = sqlite3_exec(handle, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw failure(rc) }
    }

    /// Runs a one-off statement and returns the first column of every row as text
    /// (pragmas such as `quick_check` and `journal_mode` answer this way).
    func texts(_ sql: String) throws(SQLiteFailure) -> [String] {
        let statement = try prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append(statement.text(0) ?? "")
        }
        return rows
    }

    /// Runs a one-off statement and returns the first column of its first row as an integer.
    func integer(_ sql: String) throws(SQLiteFailure) -> Int64? {
        let statement = try prepare(sql)
        return try statement.step() ? statement.int64(0) : nil
    }

    /// Compiles a statement (`sqlite3_prepare_v3`), marked persistent when it will be reused.
    func prepare(_ sql: String, persistent: Bool = false) throws(SQLiteFailure) -> SQLiteStatement {
        var stmt: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(handle, sql, -1, flags, &stmt, nil)
        guard rc == SQLITE_OK, let stmt else { throw failure(rc) }
        return SQLiteStatement(stmt, database: self)
    }

    /// True while a transaction is open (`sqlite3_get_autocommit` is 0).
    var inTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Copies this whole database into `other`, replacing what `other` held (the online
    /// backup API, in one step).
    ///
    /// - Throws: ``SQLiteFailure`` when a page of this database cannot be read (the copy is
    ///   then incomplete and must not be used).
    func copy(into other: SQLiteDatabase) throws(SQLiteFailure) {
        guard let backup = sqlite3_backup_init(other.handle, "main", handle, "main") else {
            throw other.failure(sqlite3_errcode(other.handle))
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        let rc = stepped != SQLITE_DONE ? stepped : finished
        guard rc == SQLITE_DONE || rc == SQLITE_OK else {
            throw SQLiteFailure(code: rc, message: String(cString: sqlite3_errstr(rc)))
        }
    }

    /// True when SQLite opened the file read-only (`sqlite3_db_readonly`), which it does
    /// silently when the file's permissions refuse writing.
    var isReadOnly: Bool {
        sqlite3_db_readonly(handle, "main") == 1
    }
}

/// An SQLite result code with its message, as returned by a failed call.
struct SQLiteFailure: Error, Equatable, CustomStringConvertible {
    /// The extended result code (e.g. `SQLITE_IOERR_WRITE`).
    var code: Int32
    /// `sqlite3_errmsg` at the time of the failure.
    var message: String

    /// The primary result code (the low byte of the extended one).
    var primary: Int32 { code & 0xff }

    var description: String { message }

    /// The file's contents cannot be trusted: garbage, truncated, or malformed.
    var meansDamaged: Bool { primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB }
}
