import ArcadeLua

/// One game's view of the ``SaveStore``: what its `arcade.save` and `arcade.score`
/// functions use. Holds the store strongly, so a running game keeps its saves open.
public final class SaveSlot: GameStorage {
    /// The database this slot reads and writes.
    public let store: SaveStore
    /// The game whose keys and score this slot reads and writes.
    public let gameID: String
    /// Where the game's best score is kept: ``gameID``, or a key of its own for runs at a
    /// slower game speed (``GameSpeed/scoreKey(_:)``), so a best made with more time is kept
    /// apart.
    public internal(set) var scoreID: String

    init(store: SaveStore, gameID: String) {
        self.store = store
        self.gameID = gameID
        scoreID = gameID
    }

    /// Keeps this run's best scores with the others at `speed`.
    public func keepScores(at speed: GameSpeed) {
        scoreID = speed.scoreKey(gameID)
    }

    /// The value the game saved under `key`, or nil.
    public func value(forKey key: String) throws(GameStorageError) -> LuaValue? {
        do { return try store.value(game: gameID, key: key) } catch { throw GameStorageError(error.message) }
    }

    /// Saves `value` under `key` (nil deletes it); limits and disk errors come back as messages.
    public func setValue(_ value: LuaValue?, forKey key: String) throws(GameStorageError) {
        do { try store.setValue(value, game: gameID, key: key) } catch { throw GameStorageError(error.message) }
    }

    /// Records a score; true when it is the game's new best.
    public func submitScore(_ score: Int64) throws(GameStorageError) -> Bool {
        do { return try store.submitScore(score, game: scoreID) } catch { throw GameStorageError(error.message) }
    }

    /// Forgets the game's best score.
    public func resetBestScore() throws(GameStorageError) {
        do { try store.resetBestScore(game: scoreID) } catch { throw GameStorageError(error.message) }
    }

    /// The game's best score, or nil before its first.
    public func bestScore() throws(GameStorageError) -> Int64? {
        do { return try store.bestScore(game: scoreID) } catch { throw GameStorageError(error.message) }
    }
}
