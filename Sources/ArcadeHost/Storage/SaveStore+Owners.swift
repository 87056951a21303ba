import CSQLite

/// Who owns the saves under each id (``SaveOwner``): the first game to save under an id owns
/// the saves kept under the id itself; another game claiming the id gets its own, kept under
/// `id#n`, and is told so once. ``adopt(game:owner:from:)`` moves a previous owner's saves
/// to a game on purpose (`arcade adopt`).
extension SaveStore {
    /// The slot of the game `id` owned by `owner`: its own saves and best score, never those of
    /// another game that claimed the id before. When the id's saves belong to another owner,
    /// the game starts with saves of its own and ``notices`` says so (once: the next session
    /// finds its saves without a word).
    public func slot(for id: String, owner: SaveOwner) -> SaveSlot {
        // a game starting is no frame to keep short: wait for another arcade as opening does
        db?.setBusyTimeout(milliseconds: Self.openingTimeoutMilliseconds)
        defer { db?.setBusyTimeout(milliseconds: Self.busyTimeoutMilliseconds) }
        do {
            return SaveSlot(store: self, gameID: try savesKey(game: id, owner: owner))
        } catch {
            // no one's saves: a key no owner holds, for this session only
            notices.append(SaveNotice(
                message: "Whose saves '\(id)' has could not be read (\(error.message)); this game keeps its saves apart "
                    + "for this session and they will not be found next time.",
                short: "'\(id)' keeps its saves apart this session: the save file was busy."))
            return SaveSlot(store: self, gameID: id + "#session-" + owner.key)
        }
    }

    /// A previous owner of an id's saves, as ``owners(of:)`` lists them.
    public struct PreviousOwner: Sendable, Equatable {
        /// Nil for saves kept from before owners were recorded.
        public var owner: SaveOwner?
        /// The `game_id` its rows are kept under.
        var savesKey: String
        /// Values and best score kept.
        public var values: Int
        public var bestScore: Int64?

        /// How messages name it.
        public var name: String { owner?.description ?? "saves from before owners were recorded" }
    }

    /// Every owner of `id`'s saves other than `except`, with what each keeps; saves from
    /// before owners were recorded are listed with no owner.
    public func owners(of id: String, except: SaveOwner? = nil) throws(StorageError) -> [PreviousOwner] {
        try read(doing: "read who owns the saves") { st in
            guard let db else { return [] }
            var found: [(SaveOwner?, String)] = []
            let rows = try db.prepare("SELECT owner, saves_key FROM save_owners WHERE game_id = ?1 ORDER BY saves_key")
            rows.bind(1, id)
            while try rows.step() {
                let owner = SaveOwner(recorded: rows.text(0) ?? "")
                if owner != except { found.append((owner, rows.text(1) ?? "")) }
            }
            if try !isClaimed(db, key: id) && hasRows(db, key: id) { found.insert((nil, id), at: 0) }
            return try found.map { owner, key in
                let count = try db.prepare("SELECT COUNT(*) FROM game_values WHERE game_id = ?1")
                count.bind(1, key)
                _ = try count.step()
                let values = Int(count.int64(0))
                count.reset()
                st.best.bind(1, key)
                defer { st.best.reset() }
                let best = try st.best.step() ? st.best.int64(0) : nil
                return PreviousOwner(owner: owner, savesKey: key, values: values, bestScore: best)
            }
        }
    }

    /// What ``adopt(game:owner:from:)`` did.
    public struct Adoption: Sendable, Equatable {
        /// Whose saves were moved.
        public var from: PreviousOwner
        /// How many values the adopting game had of its own, now replaced.
        public var replacedValues: Int
    }

    /// Moves the saves and best score of a previous owner of `id` to `owner` (`arcade adopt`),
    /// replacing what `owner` had saved under the id. `from` names the previous owner (see
    /// ``SaveOwner/isNamed(by:)``; `unowned` names the saves from before owners were
    /// recorded); nil takes the only one there is.
    ///
    /// - Throws: ``StorageError`` with the reason: nothing to adopt, several previous owners
    ///   and none named, the saves of one of the arcade's own games, or a file that cannot
    ///   be written (saves kept in memory cannot be adopted).
    public func adopt(game id: String, owner: SaveOwner, from: String?) throws(StorageError) -> Adoption {
        guard isPersistent else {
            throw StorageError(.readOnly, "the save file is not in use (\(notices.last?.short ?? "saves are kept in memory"))")
        }
        let candidates = try owners(of: id, except: owner)
        let chosen: [PreviousOwner]
        if let from {
            chosen = candidates.filter { $0.owner.map { $0.isNamed(by: from) } ?? (from == "unowned") }
        } else {
            chosen = candidates
        }
        let listing = candidates.map { $0.owner.map { "\($0.key)" } ?? "unowned" }.joined(separator: "; ")
        guard chosen.count == 1, let source = chosen.first else {
            if candidates.isEmpty { throw StorageError(.invalid, "no other game has saves under the id '\(id)'") }
            if chosen.isEmpty {
                throw StorageError(.invalid, "no previous owner of '\(id)' is \(from ?? ""); they are: \(listing)")
            }
            throw StorageError(.invalid, "several games have saves under '\(id)': name one with --from (\(listing))")
        }
        if source.owner == .bundled {
            throw StorageError(.invalid, "the saves of '\(id)' belong to one of the arcade's own games, which keeps them")
        }
        return try write(.adopt(game: id, owner: owner.key, from: source.savesKey), doing: "adopt the saves") { _ in
            guard let db else { throw StorageError(.closed, "the save store is closed") }
            let own = try ownedKey(db, game: id, owner: owner)
            var replaced = 0
            if let own, own != source.savesKey {
                let count = try db.prepare("SELECT COUNT(*) FROM game_values WHERE game_id = ?1")
                count.bind(1, own)
                _ = try count.step()
                replaced = Int(count.int64(0))
                count.reset()
                try deleteRows(db, key: own)
            }
            try run(db, "DELETE FROM save_owners WHERE saves_key = ?1 OR (game_id = ?2 AND owner = ?3)",
                    source.savesKey, id, owner.key)
            try run(db, "INSERT INTO save_owners(game_id, owner, saves_key) VALUES (?1, ?2, ?3)",
                    id, owner.key, source.savesKey)
            return Adoption(from: source, replacedValues: replaced)
        }
    }

    /// The best score of each game in `entries` (by id), read from its owner's saves: what
    /// the menu shows. Nothing is claimed: a game never played shows the best it would find.
    public func bestScores(of entries: [GameEntry]) -> [String: Int64] {
        var scores: [String: Int64] = [:]
        for entry in entries where entry.isPlayable {
            guard let key = scoresKey(of: entry) else { continue }
            if let best = try? bestScore(game: key) { scores[entry.id] = best }
        }
        return scores
    }

    /// The best scores made at a slower game speed, per game id, slowest last (kept apart from
    /// ``bestScores(of:)``).
    public func slowerBestScores(of entries: [GameEntry]) -> [String: [(speed: GameSpeed, score: Int64)]] {
        var scores: [String: [(speed: GameSpeed, score: Int64)]] = [:]
        for entry in entries where entry.isPlayable {
            guard let key = scoresKey(of: entry) else { continue }
            for speed in GameSpeed.allCases where speed != .full {
                if let best = try? bestScore(game: speed.scoreKey(key)) { scores[entry.id, default: []].append((speed, best)) }
            }
        }
        return scores
    }

    /// The key `entry`'s saves and scores are under, when it has one already.
    private func scoresKey(of entry: GameEntry) -> String? {
        try? read(doing: "read scores", { _ -> String? in
            guard let db else { return nil }
            if let key = try ownedKey(db, game: entry.id, owner: entry.saveOwner) { return key }
            if try isClaimed(db, key: entry.id) { return nil }
            return try !hasRows(db, key: entry.id) || entry.saveOwner.takesUnownedSaves ? entry.id : nil
        })
    }

    // MARK: Claiming

    /// The `game_id` the saves of `owner`'s game `id` are kept under, recording the claim when
    /// it is the first.
    func savesKey(game id: String, owner: SaveOwner) throws(StorageError) -> String {
        if let db, let key = try? ownedKey(db, game: id, owner: owner) { return key }
        // one write transaction: two arcades claiming at once see each other's claim
        let claim: (key: String, notice: SaveNotice?) = try write(.claim(game: id, owner: owner.key), doing: "record whose saves are whose") { _ in
            guard let db else { throw StorageError(.closed, "the save store is closed") }
            if let key = try ownedKey(db, game: id, owner: owner) { return (key, nil) }
            let claim = try choose(db, game: id, owner: owner)
            try run(db, "INSERT INTO save_owners(game_id, owner, saves_key) VALUES (?1, ?2, ?3)", id, owner.key, claim.key)
            return claim
        }
        if let notice = claim.notice { notices.append(notice) }
        return claim.key
    }

    /// Where a new owner's saves go: under the id itself when no one has saved there, or when
    /// the saves there are from before owners were recorded and `owner` takes those; else under
    /// a key of its own, with a notice saying why.
    private func choose(_ db: SQLiteDatabase, game id: String, owner: SaveOwner) throws -> (key: String, notice: SaveNotice?) {
        let others = try db.prepare("SELECT owner FROM save_owners WHERE game_id = ?1 AND saves_key = ?1")
        others.bind(1, id)
        let holder = try others.step() ? others.text(0).map(SaveOwner.init(recorded:)) : nil
        others.reset()
        if let holder {
            return (try freeKey(db, for: id), Self.ownedNotice(id: id, owner: owner, holder: holder.description))
        }
        guard try hasRows(db, key: id), !owner.takesUnownedSaves else { return (id, nil) }
        return (try freeKey(db, for: id),
                Self.ownedNotice(id: id, owner: owner, holder: "a game from before the arcade recorded whose saves are whose"))
    }

    /// "The saves under 'rocks' belong to the game in /a/rocks; this game keeps its own ..."
    static func ownedNotice(id: String, owner: SaveOwner, holder: String) -> SaveNotice {
        SaveNotice(
            message: "The saves under the id '\(id)' belong to \(holder), so \(owner.description) keeps saves of its own "
                + "and starts without them; if it is that game moved on purpose, `arcade adopt` moves them to it.",
            short: "'\(id)' starts with saves of its own: the id's saves belong to another game (see arcade adopt).")
    }

    private func ownedKey(_ db: SQLiteDatabase, game id: String, owner: SaveOwner) throws -> String? {
        let statement = try db.prepare("SELECT saves_key FROM save_owners WHERE game_id = ?1 AND owner = ?2")
        statement.bind(1, id)
        statement.bind(2, owner.key)
        defer { statement.reset() }
        return try statement.step() ? statement.text(0) : nil
    }

    private func isClaimed(_ db: SQLiteDatabase, key: String) throws -> Bool {
        let statement = try db.prepare("SELECT 1 FROM save_owners WHERE saves_key = ?1")
        statement.bind(1, key)
        defer { statement.reset() }
        return try statement.step()
    }

    private func hasRows(_ db: SQLiteDatabase, key: String) throws -> Bool {
        let statement = try db.prepare("""
            SELECT EXISTS (SELECT 1 FROM game_values WHERE game_id = ?1) OR EXISTS (SELECT 1 FROM best_scores WHERE game_id = ?1)
            """)
        statement.bind(1, key)
        defer { statement.reset() }
        return try statement.step() && statement.int64(0) != 0
    }

    /// `id#2`, `id#3`, ...: the first key no owner holds and no saves are under. No game id
    /// holds `#`, so no game's own key is ever taken.
    private func freeKey(_ db: SQLiteDatabase, for id: String) throws -> String {
        var n = 2
        while try isClaimed(db, key: "\(id)#\(n)") || hasRows(db, key: "\(id)#\(n)") { n += 1 }
        return "\(id)#\(n)"
    }

    func deleteRows(_ db: SQLiteDatabase, key: String) throws {
        try run(db, "DELETE FROM game_values WHERE game_id = ?1", key)
        try run(db, "DELETE FROM best_scores WHERE game_id = ?1", key)
    }

    func run(_ db: SQLiteDatabase, _ sql: String, _ texts: String...) throws {
        let statement = try db.prepare(sql)
        for (i, text) in texts.enumerated() { statement.bind(Int32(i + 1), text) }
        try statement.run()
    }

}
