/// When and how fast an animation runs (Core Animation's `CAMediaTiming`).
///
/// Local time is `(parentTime - delay) * speed`. One cycle is `duration`, or forward and
/// back (`2 * duration`) with `autoreverses`; the animation is active for `repeatCount`
/// cycles. Inside a group the parent time is the group's time, so a child runs in the
/// group's clock and is clipped, not scaled, by the group's duration.
public struct AnimationTiming: Hashable, Sendable {
    /// Seconds of one forward pass. Nil takes the enclosing group's duration, or Core
    /// Animation's default of 0.25 s; a group without one lasts as long as its longest child.
    public var duration: Double?
    /// Seconds, in the parent's time, before the animation starts. Negative starts part-way in.
    public var delay: Double
    /// Rate of local time against parent time: 2 plays twice as fast, 0 freezes.
    public var speed: Double
    /// Cycles to play; fractions allowed, ``forever`` never ends, 0 counts as 1.
    public var repeatCount: Double
    /// Plays each cycle forward then backward; one repeat is the round trip.
    public var autoreverses: Bool
    /// What the property shows during the delay and after the end.
    public var fill: AnimationFill
    /// Reshapes progress through each pass (for a group: the group's time seen by its children).
    public var curve: TimingCurve

    /// A `repeatCount` that never ends.
    public static let forever = Double.infinity

    /// Timing with Core Animation's defaults for whatever is not given.
    public init(duration: Double? = nil, delay: Double = 0, speed: Double = 1, repeatCount: Double = 1,
                autoreverses: Bool = false, fill: AnimationFill = .removed, curve: TimingCurve = .linear) {
        self.duration = duration
        self.delay = delay
        self.speed = speed
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
        self.fill = fill
        self.curve = curve
    }
}
