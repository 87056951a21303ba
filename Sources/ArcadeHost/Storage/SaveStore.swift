import ArcadeLua
import CSQLite

/// The arcade's saves and best scores: one SQLite database shared by all games, each game
/// seeing only its own keys (through ``slot(for:)``).
///
/// **Durability.** The database runs in WAL mode with `synchronous=NORMAL`. A commit is
/// appended to the write-ahead log and the main file changes only at checkpoints, whose
/// frames are checksummed; so a process killed at any instant (SIGKILL, a crash) loses
/// nothing it committed and never leaves a half-written transaction: the next open simply
/// ignores an incomplete log tail. On a power cut the last commits before the cut may be
/// lost but the file stays consistent. A rollback journal with `synchronous=FULL` would
/// survive power cuts too, at the price of several `fsync`s per save in the middle of a
/// frame; for game saves the trade goes the other way.
///
/// **Robustness.** Opening never fails. A file that is damaged (garbage, truncated, not a
/// database, not an arcade layout) is renamed to `arcade.sqlite.corrupt-<n>` and a new
/// one is started; a file that cannot be used (read-only or missing folder, full disk, a
/// newer arcade's layout) is left alone and the store keeps its saves in memory for the
/// session. Either way ``warnings`` says what happened, for the host to show. Later
/// failures (disk full, a limit) are ``StorageError``s, never crashes.
///
/// Not thread-safe: use one store from one thread (the host's).
public final class SaveStore {
    /// Size limits, so that one game cannot fill the disk or make every open slow.
    public struct Limits: Sendable, Equatable {
        /// The most UTF-8 bytes one value's JSON may take.
        public var valueBytes: Int
        /// The most bytes one game's saves may take in all (keys plus JSON values).
        public var gameBytes: Int
        /// The longest key, in UTF-8 bytes.
        public var keyBytes: Int

        /// The defaults: 256 KiB per value, 1 MiB per game, 256-byte keys.
        public init(valueBytes: Int = 256 << 10, gameBytes: Int = 1 << 20, keyBytes: Int = 256) {
            self.valueBytes = valueBytes
            self.gameBytes = gameBytes
            self.keyBytes = keyBytes
        }
    }

    /// Where saves are kept.
    public enum Location: Sendable, Equatable {
        /// An SQLite file.
        case file(String)
        /// Nowhere durable: gone when the process ends.
        case memory
    }

    /// How long a write waits for another arcade process holding the database.
    public static let busyTimeoutMilliseconds: Int32 = 1000

    /// The size limits every write is checked against.
    public let limits: Limits
    /// Where the saves actually are: `.memory` when the requested file could not be used.
    public internal(set) var location: Location
    /// What went wrong while opening (a file moved aside, saves kept in memory), as
    /// sentences for the player. Empty when all went well.
    public internal(set) var warnings: [String] = []

    var db: SQLiteDatabase?
    var statements: SaveStatements?

    /// Opens the database at `location`, creating its folder and file when missing. Never
    /// fails: see ``warnings`` and ``location``.
    public convenience init(location: Location, limits: Limits = Limits()) {
        self.init(location: location, limits: limits, pageLimit: nil)
    }

    /// Opens `DIR/arcade.sqlite` (the CLI's `--data DIR`), or the default file
    /// (`$XDG_DATA_HOME/arcade/arcade.sqlite`, `~/.local/share/arcade/arcade.sqlite`) when
    /// `dataDirectory` is nil, or memory when there is no home folder to find it from.
    public convenience init(dataDirectory: String?, limits: Limits = Limits()) {
        if let dataDirectory {
            self.init(location: .file(SaveStore.path(inDataDirectory: dataDirectory)), limits: limits)
        } else if let path = SaveStore.defaultPath() {
            self.init(location: .file(path), limits: limits)
        } else {
            self.init(location: .memory, limits: limits)
            warnings.append("Saves have nowhere to go (neither XDG_DATA_HOME nor HOME is set); "
                            + "this session's saves will be lost when the arcade quits.")
        }
    }

    /// `pageLimit` caps the database's pages (`PRAGMA max_page_count`), which lets tests
    /// fill the "disk".
    init(location: Location, limits: Limits, pageLimit: Int?) {
        self.limits = limits
        switch location {
        case .memory:
            self.location = .memory
            openMemory()
        case .file(let path):
            // absolute, so that messages name the real file and a later chdir changes nothing
            let path = absolutePath(path)
            self.location = .file(path)
            openFile(path)
        }
        if let pageLimit { try? db?.execute("PRAGMA max_page_count = \(pageLimit)") }
    }

    deinit {
        close()
    }

    /// The default database file: `$XDG_DATA_HOME/arcade/arcade.sqlite`, else
    /// `~/.local/share/arcade/arcade.sqlite`; nil without a usable home folder.
    public static func defaultPath() -> String? {
        SaveFile.defaultPath()
    }

    /// The database file inside a data folder (`--data DIR`).
    public static func path(inDataDirectory dir: String) -> String {
        dir.isEmpty || dir.hasSuffix("/") ? dir + SaveFile.name : dir + "/" + SaveFile.name
    }

    /// True when saves outlive the process.
    public var isPersistent: Bool { location != .memory }

    /// The slot of one game: what its Lua binding (`arcade.save`, `arcade.score`) uses.
    public func slot(for gameID: String) -> SaveSlot {
        SaveSlot(store: self, gameID: gameID)
    }

    /// Closes the database (checkpointing its log into the main file). Later calls fail
    /// with ``StorageError/Kind/closed``.
    public func close() {
        statements = nil
        db?.close()
        db = nil
    }

    // MARK: Values

    /// The value `game` saved under `key`, or nil.
    public func value(game: String, key: String) throws(StorageError) -> LuaValue? {
        let st = try ready()
        let text: Result<LuaValue, JSONReader.Failure>?
        do {
            st.value.bind(1, game)
            st.value.bind(2, key)
            defer { st.value.reset() }
            guard try st.value.step() else { return nil }
            text = st.value.withText(0) { bytes in
                do throws(JSONReader.Failure) { return .success(try JSONReader.decode(bytes)) } catch { return .failure(error) }
            }
        } catch {
            throw failure(error, doing: "read saves")
        }
        switch text {
        case .success(let value): return value
        case .failure(let e):
            throw StorageError(.damaged, "the value saved under '\(key)' is damaged (\(e))")
        case nil: return nil
        }
    }

    /// Saves `value` for `game` under `key`, in its own transaction; nil deletes the key.
    ///
    /// - Throws: ``StorageError``: `.tooLarge` when the value, the key or the game's saves
    ///   in all would pass ``limits`` (nothing is written then), `.invalid` for an empty key
    ///   or a non-finite number, or what the disk said.
    public func setValue(_ value: LuaValue?, game: String, key: String) throws(StorageError) {
        let st = try ready()
        let keySize = key.utf8.count
        if keySize == 0 { throw StorageError(.invalid, "the key is empty") }
        if keySize > limits.keyBytes {
            throw StorageError(.tooLarge, "the key is \(keySize) bytes long, over the \(limits.keyBytes)-byte limit")
        }
        guard let value else {
            try transaction(st, doing: "delete a save") {
                st.delete.bind(1, game)
                st.delete.bind(2, key)
                try st.delete.run()
            }
            return
        }
        guard let json = JSONWriter.encode(value) else {
            throw StorageError(.invalid, "the value holds a number that is not finite (inf or nan)")
        }
        if json.count > limits.valueBytes {
            throw StorageError(.tooLarge, "value is \(ByteCount.describe(json.count, over: limits.valueBytes)), "
                               + "over the \(ByteCount.describe(limits.valueBytes)) limit")
        }
        let size = Int64(keySize + json.count)
        try transaction(st, doing: "save") {
            st.otherSizes.bind(1, game)
            st.otherSizes.bind(2, key)
            _ = try st.otherSizes.step()
            let others = st.otherSizes.int64(0)
            st.otherSizes.reset()
            let total = Int(others + size)
            if total > limits.gameBytes {
                throw StorageError(.tooLarge, "saves for '\(game)' would total \(ByteCount.describe(total, over: limits.gameBytes)), "
                                   + "over the \(ByteCount.describe(limits.gameBytes)) limit per game")
            }
            st.upsert.bind(1, game)
            st.upsert.bind(2, key)
            st.upsert.bind(3, size)
            st.upsert.bind(4, utf8: json)
            try st.upsert.run()
        }
    }

    /// The keys `game` has saved, in byte order.
    public func keys(game: String) throws(StorageError) -> [String] {
        let st = try ready()
        do {
            st.keys.bind(1, game)
            var keys: [String] = []
            while try st.keys.step() { keys.append(st.keys.text(0) ?? "") }
            return keys
        } catch {
            throw failure(error, doing: "read saves")
        }
    }

    /// Bytes `game`'s saves take, as counted for ``Limits/gameBytes``.
    public func bytesUsed(game: String) throws(StorageError) -> Int {
        let st = try ready()
        do {
            st.gameSize.bind(1, game)
            defer { st.gameSize.reset() }
            _ = try st.gameSize.step()
            return Int(st.gameSize.int64(0))
        } catch {
            throw failure(error, doing: "read saves")
        }
    }

    // MARK: Scores

    /// Records `score` for `game`; true when it is higher than the best so far (or the
    /// first), in which case it becomes the best. Only the best is kept.
    public func submitScore(_ score: Int64, game: String) throws(StorageError) -> Bool {
        let st = try ready()
        return try transaction(st, doing: "record the score") {
            st.best.bind(1, game)
            let previous = try st.best.step() ? st.best.int64(0) : nil
            st.best.reset()
            if let previous, score <= previous { return false }
            st.setBest.bind(1, game)
            st.setBest.bind(2, score)
            try st.setBest.run()
            return true
        }
    }

    /// The best score of `game`, or nil before its first.
    public func bestScore(game: String) throws(StorageError) -> Int64? {
        let st = try ready()
        do {
            st.best.bind(1, game)
            defer { st.best.reset() }
            return try st.best.step() ? st.best.int64(0) : nil
        } catch {
            throw failure(error, doing: "read scores")
        }
    }

    /// Every game's best score, for the menu.
    public func bestScores() throws(StorageError) -> [String: Int64] {
        let st = try ready()
        do {
            var scores: [String: Int64] = [:]
            while try st.allBest.step() {
                scores[st.allBest.text(0) ?? ""] = st.allBest.int64(1)
            }
            return scores
        } catch {
            throw failure(error, doing: "read scores")
        }
    }

    // MARK: Checks

    /// SQLite's full consistency check (`PRAGMA integrity_check`): `["ok"]` for a sound file,
    /// else the problems it found.
    public func integrityCheck() throws(StorageError) -> [String] {
        guard let db else { throw StorageError(.closed, "the save store is closed") }
        do { return try db.texts("PRAGMA integrity_check") } catch {
            throw failure(error, doing: "check the save file")
        }
    }

    // MARK: Running statements

    private func ready() throws(StorageError) -> SaveStatements {
        guard let statements else { throw StorageError(.closed, "the save store is closed") }
        return statements
    }

    /// Runs `body` between `BEGIN IMMEDIATE` and `COMMIT`, rolling back when it throws.
    /// Taking the write lock at the start means a busy database fails here, before any work.
    private func transaction<R>(_ st: SaveStatements, doing what: String, _ body: () throws -> R) throws(StorageError) -> R {
        do {
            try st.begin.run()
        } catch {
            throw failure(error, doing: what)
        }
        do {
            let result = try body()
            try st.commit.run()
            return result
        } catch {
            // after a failed COMMIT the transaction can still be open: end it either way
            if let handle = db?.handle, sqlite3_get_autocommit(handle) == 0 { try? st.rollback.run() }
            if let e = error as? StorageError { throw e }
            throw failure(error, doing: what)
        }
    }

    /// A player-facing error for what SQLite (or the JSON reader) said.
    private func failure(_ error: any Error, doing what: String) -> StorageError {
        guard let f = error as? SQLiteFailure else { return StorageError(.io, "could not \(what): \(error)") }
        let place: String
        switch location {
        case .file(let path): place = path
        case .memory: place = "saves kept in memory"
        }
        switch f.primary {
        case SQLITE_FULL:
            return StorageError(.diskFull, "could not \(what): the disk is full (\(place))")
        case SQLITE_READONLY, SQLITE_PERM, SQLITE_CANTOPEN:
            return StorageError(.readOnly, "could not \(what): the save file cannot be written (\(f.message); \(place))")
        case SQLITE_BUSY, SQLITE_LOCKED:
            return StorageError(.busy, "could not \(what): the save file is busy, another arcade may be using it (\(place))")
        case SQLITE_CORRUPT, SQLITE_NOTADB:
            return StorageError(.damaged, "could not \(what): the save file is damaged (\(f.message); \(place)); "
                                + "the arcade will move it aside and start a new one when it next starts")
        default:
            return StorageError(.io, "could not \(what): \(f.message) (\(place))")
        }
    }
}
