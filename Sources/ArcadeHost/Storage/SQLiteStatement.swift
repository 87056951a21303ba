import CSQLite

/// A compiled statement (`sqlite3_stmt *`), kept for reuse: bind, step, read, reset.
///
/// Holds its connection strongly so the connection outlives it.
final class SQLiteStatement {
    private let stmt: OpaquePointer
    private let database: SQLiteDatabase

    init(_ stmt: OpaquePointer, database: SQLiteDatabase) {
        self.stmt = stmt
        self.database = database
    }

    deinit {
        sqlite3_finalize(stmt)
    }

    // MARK: Binding (parameters are numbered from 1)

    func bind(_ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bindText(index, UnsafeRawBufferPointer($0)) }
    }

    /// Binds UTF-8 bytes as text (JSON that was never a Swift `String`).
    func bind(_ index: Int32, utf8 bytes: [UInt8]) {
        bytes.withUnsafeBytes { bindText(index, $0) }
    }

    private func bindText(_ index: Int32, _ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            // a null pointer would bind NULL instead of the empty text
            sqlite3_bind_text(stmt, index, "", 0, arcade_sqlite_transient())
            return
        }
        sqlite3_bind_text(stmt, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), arcade_sqlite_transient())
    }

    func bind(_ index: Int32, _ value: Int64) {
        sqlite3_bind_int64(stmt, index, value)
    }

    // MARK: Running

    /// Advances to the next row: true when there is one, false when the statement is done.
    /// The statement is reset when done or failed, ready for the next use.
    func step() throws(SQLiteFailure) -> Bool {
        let rc = sqlite3_step(stmt)
        if rc == SQLITE_ROW { return true }
        // the failure must be read before reset, which can overwrite the connection's message
        let failure = rc == SQLITE_DONE ? nil : database.failure(rc)
        sqlite3_reset(stmt)
        if let failure { throw failure }
        return false
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteFailure) {
        while try step() {}
    }

    /// Resets after reading rows without stepping to the end, and drops the bound values.
    func reset() {
        sqlite3_reset(stmt)
        sqlite3_clear_bindings(stmt)
    }

    // MARK: Reading the current row (columns are numbered from 0)

    func int64(_ column: Int32) -> Int64 {
        sqlite3_column_int64(stmt, column)
    }

    func text(_ column: Int32) -> String? {
        withText(column) { String(decoding: $0, as: UTF8.self) }
    }

    /// The column's UTF-8 bytes, valid only inside `body` (no copy is made).
    func withText<R>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        guard let p = sqlite3_column_text(stmt, column) else { return nil }
        let count = Int(sqlite3_column_bytes(stmt, column))
        return try body(UnsafeBufferPointer(start: p, count: count))
    }
}
