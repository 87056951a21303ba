/// A fixed-timestep clock with an accumulator.
///
/// Real elapsed time goes in; a whole number of steps of exactly `dt` comes out, so
/// game logic never sees a variable dt. When the host falls behind (a slow frame, a
/// suspended process) at most `maxCatchUpSteps` run and the rest of the debt is dropped,
/// so a stall never turns into a spiral of catch-up work.
public struct FixedStepClock: Sendable {
    /// Steps per second.
    public let rate: Int
    /// Seconds per step.
    public let dt: Double
    /// The most steps one call to ``advance(by:)`` may ask for.
    public let maxCatchUpSteps: Int
    /// Steps taken so far.
    public private(set) var step: Int = 0
    /// Unconsumed real time, always in `0..<dt` after ``advance(by:)``.
    public private(set) var accumulator: Double = 0

    public init(rate: Int = 60, maxCatchUpSteps: Int = 5) {
        precondition(rate > 0 && maxCatchUpSteps > 0)
        self.rate = rate
        self.dt = 1.0 / Double(rate)
        self.maxCatchUpSteps = maxCatchUpSteps
    }

    /// Game time at the current step: `step * dt`, computed from the integer step so it never drifts.
    public var time: Double { Double(step) / Double(rate) }

    /// Adds `seconds` of real time and returns how many steps are now due (already counted).
    public mutating func advance(by seconds: Double) -> Int {
        accumulator += max(0, seconds)
        var due = Int(accumulator / dt)
        if due > maxCatchUpSteps {
            due = maxCatchUpSteps
            accumulator = 0
        } else {
            accumulator -= Double(due) * dt
            if accumulator < 0 { accumulator = 0 }
        }
        step += due
        return due
    }

    /// Counts one step taken outside ``advance(by:)`` (headless runs step directly).
    public mutating func tick() {
        step += 1
    }

    /// Seconds until the next step is due.
    public var timeToNextStep: Double { max(0, dt - accumulator) }
}
