import ArcadeLua

/// What reads see of the writes held back by another arcade's lock (``SaveStore/queued``):
/// a game reads back what it saved, as if it were written.
extension SaveStore {
    /// The newest value waiting for `game` and `key`: `.some(nil)` when its deletion waits,
    /// nil when nothing waits for that key.
    func queuedValue(game: String, key: String) -> LuaValue?? {
        for write in queued.reversed() {
            if case .value(let value, let g, let k) = write, g == game, k == key { return .some(value) }
        }
        return nil
    }

    /// `stored` keys with the waiting saves and deletions of `game` applied, in byte order.
    func queuedKeys(game: String, stored: [String]) -> [String] {
        var keys = Set(stored)
        for case .value(let value, let g, let key) in queued where g == game {
            if value == nil { keys.remove(key) } else { keys.insert(key) }
        }
        return keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The best score of `game` once the waiting scores and resets are applied to `stored`.
    func queuedBest(game: String, stored: Int64?) -> Int64? {
        var best = stored
        for write in queued {
            switch write {
            case .score(let score, let g) where g == game: best = max(best ?? score, score)
            case .resetScore(let g) where g == game: best = nil
            default: break
            }
        }
        return best
    }

    /// The games whose best score a waiting write changes.
    func queuedScoreGames() -> Set<String> {
        var games = Set<String>()
        for write in queued {
            switch write {
            case .score(_, let g), .resetScore(let g): games.insert(g)
            default: break
            }
        }
        return games
    }
}
