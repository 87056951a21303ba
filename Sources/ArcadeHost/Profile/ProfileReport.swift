/// What the profiler shows: per-step averages of one window of ``ProfileCounters``.
///
/// Times are milliseconds per step. Compose and encode happen once per displayed frame,
/// not per step; they are spread over the steps too, so that the rows add up: the phases
/// plus ``otherMilliseconds`` (the loop's own work: the clock, cards, the overlay, the
/// terminal write) make ``totalMilliseconds``, the busy time per step.
public struct ProfileReport: Equatable, Sendable {
    /// Milliseconds per step in each phase, indexed by ``ProfilePhase/rawValue``.
    public var milliseconds: [Double]
    /// Busy milliseconds per step, all phases and the rest.
    public var totalMilliseconds: Double
    /// Steps and frames run per second of real time.
    public var stepsPerSecond: Double
    public var framesPerSecond: Double
    /// Bytes written per frame, on average.
    public var bytesPerFrame: Double
    public var steps: Int
    public var frames: Int
    public var bytes: Int
    public var wallSeconds: Double
    /// In the terminal: the average and the longest round trip from a frame's status query to
    /// the terminal's answer (nil when none was answered), and how many were.
    public var roundTripMilliseconds: Double?
    public var longestRoundTripMilliseconds: Double?
    public var roundTrips: Int

    public init(counters c: ProfileCounters, wallSeconds: Double) {
        let perStep = c.steps > 0 ? 1e-6 / Double(c.steps) : 0
        milliseconds = ProfilePhase.allCases.map { Double(c[$0]) * perStep }
        totalMilliseconds = Double(c.busyNanos) * perStep
        stepsPerSecond = wallSeconds > 0 ? Double(c.steps) / wallSeconds : 0
        framesPerSecond = wallSeconds > 0 ? Double(c.frames) / wallSeconds : 0
        bytesPerFrame = c.frames > 0 ? Double(c.bytes) / Double(c.frames) : 0
        steps = c.steps
        frames = c.frames
        bytes = c.bytes
        self.wallSeconds = wallSeconds
        roundTrips = c.roundTrips
        if c.roundTrips > 0 {
            roundTripMilliseconds = Double(c.roundTripNanos) * 1e-6 / Double(c.roundTrips)
            longestRoundTripMilliseconds = Double(c.longestRoundTripNanos) * 1e-6
        }
    }

    /// Milliseconds per step in `phase`.
    public subscript(phase: ProfilePhase) -> Double { milliseconds[phase.rawValue] }

    /// The busy time no phase accounts for (never negative: the phases are measured inside
    /// the busy time).
    public var otherMilliseconds: Double {
        max(0, totalMilliseconds - milliseconds.reduce(0, +))
    }
}

/// `value` with `places` decimals (no Foundation here), rounded half up.
func fixed(_ value: Double, places: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let negative = value < 0
    let scaled = (abs(value) * scale).rounded()
    guard scaled < 9e15 else { return String(Int(value)) }
    let n = Int(scaled)
    let unit = Int(scale)
    var text = String(n / unit)
    if places > 0 {
        let frac = String(n % unit)
        text += "." + String(repeating: "0", count: places - frac.count) + frac
    }
    return (negative && n != 0 ? "-" : "") + text
}

/// `text` padded on the left to `width`.
func rightAligned(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

/// `text` padded on the right to `width`.
func leftAligned(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}
