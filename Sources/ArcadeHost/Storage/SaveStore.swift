import ArcadeLua
import CSQLite

/// The arcade's saves and best scores: one SQLite database shared by all games, each game
/// seeing only its own keys (through ``slot(for:)``).
///
/// **Durability.** The database keeps a rollback journal (`journal_mode=TRUNCATE`) with
/// `synchronous=FULL`: before a commit changes the file, the pages it overwrites are in the
/// journal, synced; so a process killed at any instant (SIGKILL, a crash), or a power cut,
/// loses nothing it committed and never leaves a half-written transaction: the next open
/// rolls the journal back. The writes a game makes in one step go in one transaction
/// (``beginGroup()``, ``endGroup()``), so a kill never leaves a step half-saved. Games save
/// on events (a run's end, a new level), so the syncs of a commit are rare.
///
/// **Several arcades at once.** Every arcade reads and writes the same file; SQLite's file
/// locks keep their transactions apart (no `-shm` file is mapped, so nothing done to the
/// files from outside can crash the arcade with SIGBUS inside SQLite). A write waits for
/// another arcade's transaction at most ``busyTimeoutMilliseconds``; past that, the step's
/// writes wait in memory (``queued``, which reads see) and are written at the end of the
/// next step, or when the store closes: none is lost.
///
/// **Robustness.** Opening never fails. A file that is damaged (garbage, truncated, not a
/// database, not an arcade layout) is renamed to `arcade.sqlite.corrupt-<n>` and a new
/// one is started; a file that cannot be used (read-only or missing folder, full disk,  a
/// newer arcade's layout, another program's database) is left alone and the store keeps its
/// saves in memory for the session. A file that stops working during play (the disk fills
/// up, it is deleted, damaged or made unwritable) is left as it is and the store carries on
/// in memory with a copy of what it held, the step being saved included. Either way
/// ``notices`` says what happened, for the host to show. Failures that remain (a value too
/// large, a limit) are ``StorageError``s, never crashes.
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

    /// How long a write waits for another arcade process holding the database, before the
    /// step's writes wait for the next step instead (a frame is never held up for longer).
    public static let busyTimeoutMilliseconds: Int32 = 250
    /// How long opening waits for another arcade starting at the same moment (it is not in
    /// the middle of a game).
    static let openingTimeoutMilliseconds: Int32 = 5_000
    /// How long a read waits, once the busy timeout has passed, for another arcade's commit.
    static let readingTimeoutMilliseconds: Int32 = 3_000
    /// How long closing waits for another arcade to let go, to write what waited.
    static let closingTimeoutMilliseconds: Int32 = 10_000

    /// The size limits every write is checked against.
    public let limits: Limits
    /// Where the saves actually are: `.memory` when the requested file could not be used.
    public internal(set) var location: Location
    /// What went wrong with the save file (moved aside, saves kept in memory), oldest first:
    /// while opening, and later when the file stopped working. Empty when all went well.
    public internal(set) var notices: [SaveNotice] = []
    /// The whole sentences of ``notices``.
    public var warnings: [String] { notices.map(\.message) }

    var db: SQLiteDatabase?
    var statements: SaveStatements?
    /// The file the store opened (device and inode), to notice it being deleted or replaced.
    var openedFile: SaveFile.Identity?
    /// How many ``beginGroup()`` calls are not ended yet.
    var groupDepth = 0
    /// The writes of the open group, once its transaction has begun (nil before its first
    /// write): what is written again in memory if the file fails before the group commits.
    var groupWrites: [PendingWrite]?
    /// Groups ended without a write since the file was last looked for.
    var groupsSinceLook = 0
    /// Writes held back by another arcade's lock, oldest first: written at the end of the
    /// next group or at ``close()``; reads see them meanwhile.
    var queued: [PendingWrite] = []

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
            notices.append(SaveNotice(
                message: "Saves have nowhere to go (neither XDG_DATA_HOME nor HOME is set); \(SaveNotice.lostOnQuit).",
                short: "Saves are kept in memory until you quit: neither XDG_DATA_HOME nor HOME is set."))
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
    /// Saves are kept under `gameID` as it is, whoever the game is: for tools and tests; the
    /// host uses ``slot(for:owner:)``.
    public func slot(for gameID: String) -> SaveSlot {
        SaveSlot(store: self, gameID: gameID)
    }

    /// The slot of the game `entry`, owned by its ``GameEntry/saveOwner``.
    public func slot(for entry: GameEntry) -> SaveSlot {
        slot(for: entry.id, owner: entry.saveOwner)
    }

    /// Closes the database (checkpointing its log into the main file). Later calls fail
    /// with ``StorageError/Kind/closed``.
    public func close() {
        if groupDepth > 0 {
            groupDepth = 1
            endGroup()
        }
        if !queued.isEmpty {
            db?.setBusyTimeout(milliseconds: Self.closingTimeoutMilliseconds)
            flushQueued()
        }
        if !queued.isEmpty, case .file(let path) = location {
            notices.append(SaveNotice(
                message: "The last \(queued.count) saves could not be written to \(path): another arcade held the file "
                    + "for more than \(Self.closingTimeoutMilliseconds / 1000) seconds.",
                short: "The last saves were lost: another arcade held the save file."))
            queued = []
        }
        statements = nil
        db?.close()
        db = nil
    }

    // MARK: Values

    /// The value `game` saved under `key`, or nil.
    public func value(game: String, key: String) throws(StorageError) -> LuaValue? {
        if let waiting = queuedValue(game: game, key: key) { return waiting }
        let text: Result<LuaValue, JSONReader.Failure>? = try read(doing: "read saves") { st in
            st.value.bind(1, game)
            st.value.bind(2, key)
            defer { st.value.reset() }
            guard try st.value.step() else { return nil }
            return st.value.withText(0) { bytes in
                do throws(JSONReader.Failure) { return .success(try JSONReader.decode(bytes)) } catch { return .failure(error) }
            }
        }
        switch text {
        case .success(let value): return value
        case .failure(let e):
            throw StorageError(.damaged, "the value saved under '\(key)' is damaged (\(e))")
        case nil: return nil
        }
    }

    /// Saves `value` for `game` under `key` (in the open group's transaction, else in its
    /// own); nil deletes the key.
    ///
    /// - Throws: ``StorageError``: `.tooLarge` when the value, the key or the game's saves
    ///   in all would pass ``limits`` (nothing is written then), `.invalid` for an empty key
    ///   or a non-finite number. A failure of the file itself is not thrown: the store
    ///   carries on in memory and says so in ``notices``.
    public func setValue(_ value: LuaValue?, game: String, key: String) throws(StorageError) {
        let keySize = key.utf8.count
        if keySize == 0 { throw StorageError(.invalid, "the key is empty") }
        if keySize > limits.keyBytes {
            throw StorageError(.tooLarge, "the key is \(keySize) bytes long, over the \(limits.keyBytes)-byte limit")
        }
        guard let value else {
            try write(.value(nil, game: game, key: key), doing: "delete a save", whenQueued: {}) { st in
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
        let limit = limits.gameBytes
        try write(.value(value, game: game, key: key), doing: "save", whenQueued: {}) { st in
            st.otherSizes.bind(1, game)
            st.otherSizes.bind(2, key)
            _ = try st.otherSizes.step()
            let others = st.otherSizes.int64(0)
            st.otherSizes.reset()
            let total = Int(others + size)
            if total > limit {
                throw StorageError(.tooLarge, "saves for '\(game)' would total \(ByteCount.describe(total, over: limit)), "
                                   + "over the \(ByteCount.describe(limit)) limit per game")
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
        let stored: [String] = try read(doing: "read saves") { st in
            st.keys.bind(1, game)
            var keys: [String] = []
            while try st.keys.step() { keys.append(st.keys.text(0) ?? "") }
            return keys
        }
        return queuedKeys(game: game, stored: stored)
    }

    /// Bytes `game`'s saves take, as counted for ``Limits/gameBytes``.
    public func bytesUsed(game: String) throws(StorageError) -> Int {
        try read(doing: "read saves") { st in
            st.gameSize.bind(1, game)
            defer { st.gameSize.reset() }
            _ = try st.gameSize.step()
            return Int(st.gameSize.int64(0))
        }
    }

    // MARK: Scores

    /// Records `score` for `game`; true when it is higher than the best so far (or the
    /// first), in which case it becomes the best. Only the best is kept.
    public func submitScore(_ score: Int64, game: String) throws(StorageError) -> Bool {
        try write(.score(score, game: game), doing: "record the score", whenQueued: { () throws(StorageError) -> Bool in
            guard let best = try self.bestScore(game: game) else { return true }
            return score > best
        }) { st in
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

    /// Forgets the best score of `game` (its scores have come to mean something else): the
    /// next one submitted becomes the best.
    public func resetBestScore(game: String) throws(StorageError) {
        try write(.resetScore(game: game), doing: "reset the best score", whenQueued: {}) { st in
            st.deleteBest.bind(1, game)
            try st.deleteBest.run()
        }
    }

    /// The best score of `game`, or nil before its first.
    public func bestScore(game: String) throws(StorageError) -> Int64? {
        let stored: Int64? = try read(doing: "read scores") { st in
            st.best.bind(1, game)
            defer { st.best.reset() }
            return try st.best.step() ? st.best.int64(0) : nil
        }
        return queuedBest(game: game, stored: stored)
    }

    /// Every game's best score, for the menu.
    public func bestScores() throws(StorageError) -> [String: Int64] {
        var scores: [String: Int64] = try read(doing: "read scores") { st in
            var scores: [String: Int64] = [:]
            while try st.allBest.step() {
                scores[st.allBest.text(0) ?? ""] = st.allBest.int64(1)
            }
            return scores
        }
        for game in queuedScoreGames() { scores[game] = queuedBest(game: game, stored: scores[game]) }
        return scores
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
}
