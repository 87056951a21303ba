/// Time and work counted while a game runs, until ``reset()``: what a ``ProfileReport``
/// averages.
///
/// Shared by reference: the ``GameSession`` adds the time of the phases it runs (Lua
/// callbacks, animation, physics, compose) and counts steps; whoever drives it (the
/// interactive app, the headless runner) adds the encode time, counts frames and bytes,
/// and adds the *busy* time around each batch of steps and its frame, which the phases
/// are measured inside of, so they never add up to more than it.
public final class ProfileCounters {
    // Nanoseconds per phase, by `ProfilePhase.rawValue` (5 phases). Stored inline rather
    // than in an `Array`: adding is a plain add with no uniqueness check, several times a
    // step.
    private var phaseNanos = InlineArray<5, UInt64>(repeating: 0)
    /// Nanoseconds spent stepping, composing, encoding and writing (not waiting).
    public var busyNanos: UInt64 = 0
    /// Steps run.
    public var steps = 0
    /// Frames displayed (or, headless, composed and encoded).
    public var frames = 0
    /// Bytes the frames came to.
    public var bytes = 0
    /// Real time the counting covered, where its owner keeps it (the headless runner).
    public var wallNanos: UInt64 = 0
    /// In the terminal: the round trips measured (from the status query behind a frame to
    /// the terminal's answer), their total and the longest, in nanoseconds.
    public var roundTrips = 0
    public var roundTripNanos: UInt64 = 0
    public var longestRoundTripNanos: UInt64 = 0

    public init() {}

    /// Adds the time from `start` (a ``ProfileClock/now()`` reading) to now to `phase`.
    @inline(__always) public func add(_ phase: ProfilePhase, since start: UInt64) {
        add(phase, nanoseconds: ProfileClock.now() &- start)
    }

    /// Adds `duration` nanoseconds to `phase`.
    @inline(__always) public func add(_ phase: ProfilePhase, nanoseconds duration: UInt64) {
        phaseNanos[phase.rawValue] &+= duration
    }

    /// Adds the time since `mark` to `phase` and moves `mark` to now: one clock read per
    /// boundary when phases follow one another.
    @inline(__always) public func lap(_ phase: ProfilePhase, mark: inout UInt64) {
        let t = ProfileClock.now()
        add(phase, nanoseconds: t &- mark)
        mark = t
    }

    /// Nanoseconds counted for `phase`.
    public subscript(phase: ProfilePhase) -> UInt64 { phaseNanos[phase.rawValue] }

    /// Counts one round trip of `seconds`.
    public func addRoundTrip(seconds: Double) {
        let nanos = UInt64(max(seconds, 0) * 1e9)
        roundTrips += 1
        roundTripNanos &+= nanos
        longestRoundTripNanos = max(longestRoundTripNanos, nanos)
    }

    /// Adds everything `other` counted to these counts (a whole run's totals, window by
    /// window).
    public func absorb(_ other: ProfileCounters) {
        for phase in ProfilePhase.allCases { add(phase, nanoseconds: other[phase]) }
        busyNanos &+= other.busyNanos
        steps += other.steps
        frames += other.frames
        bytes += other.bytes
        wallNanos &+= other.wallNanos
        roundTrips += other.roundTrips
        roundTripNanos &+= other.roundTripNanos
        longestRoundTripNanos = max(longestRoundTripNanos, other.longestRoundTripNanos)
    }

    /// Starts counting afresh (the overlay's next window).
    public func reset() {
        phaseNanos = InlineArray(repeating: 0)
        busyNanos = 0
        steps = 0
        frames = 0
        bytes = 0
        wallNanos = 0
        (roundTrips, roundTripNanos, longestRoundTripNanos) = (0, 0, 0)
    }

    /// The averages of what was counted, over `wallSeconds` of real time.
    public func report(wallSeconds: Double) -> ProfileReport {
        ProfileReport(counters: self, wallSeconds: wallSeconds)
    }
}
