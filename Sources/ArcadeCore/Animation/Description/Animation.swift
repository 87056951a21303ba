/// A description of an animation: what it does and when. A value; nothing runs until an
/// ``Animator`` starts it on a target, and one description may be started many times.
public struct Animation: Hashable, Sendable {
    /// What changes.
    public var kind: AnimationKind
    /// When and how fast.
    public var timing: AnimationTiming

    /// An animation with explicit timing.
    public init(_ kind: AnimationKind, timing: AnimationTiming) {
        self.kind = kind
        self.timing = timing
    }

    /// An animation; timing not given takes Core Animation's defaults (see ``AnimationTiming``).
    public init(_ kind: AnimationKind, duration: Double? = nil, delay: Double = 0, speed: Double = 1,
                repeatCount: Double = 1, autoreverses: Bool = false, fill: AnimationFill = .removed,
                curve: TimingCurve = .linear) {
        self.kind = kind
        self.timing = AnimationTiming(duration: duration, delay: delay, speed: speed, repeatCount: repeatCount,
                                      autoreverses: autoreverses, fill: fill, curve: curve)
    }
}
