import ArcadeLua

/// Where a game walked tables of two or more string (or reference) keys with `pairs` or
/// `next`, gathered by the iteration probe (``GameSession/Options/iterationProbe``) for the
/// determinism check.
public final class IterationWalks {
    /// One place in the game's code that walks tables.
    public struct Site: Equatable, Sendable {
        /// `chunk:line`, e.g. `mygame/main.lua:12`.
        public var site: String
        /// The step during which it first walked (0: in `load`).
        public var firstStep: Int
        /// How many walks it made.
        public var walks: Int
        /// The most keys one walk saw.
        public var mostKeys: Int
        /// True when its walks ran backwards.
        public var reversed: Bool
    }

    /// Every site, by `chunk:line`.
    public private(set) var sites: [String: Site] = [:]
    /// The step running now (the session sets it).
    var step = 0

    public init() {}

    /// Notes a walk and says whether it runs in reverse.
    func record(site: String, keys: Int, reversal: IterationReversal) -> Bool {
        let reversed = reversal.reverses(site)
        if var known = sites[site] {
            known.walks += 1
            known.mostKeys = max(known.mostKeys, keys)
            sites[site] = known
        } else {
            sites[site] = Site(site: site, firstStep: step, walks: 1, mostKeys: keys, reversed: reversed)
        }
        return reversed
    }

    /// The sites that walked during or before `step`, in the order they first did (then by name).
    public func sites(upTo step: Int) -> [Site] {
        sites.values.filter { $0.firstStep <= step }.sorted { ($0.firstStep, $0.site) < ($1.firstStep, $1.site) }
    }
}
