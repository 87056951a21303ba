/// What an animation changes and how its values are produced.
public enum AnimationKind: Hashable, Sendable {
    /// From a value to a value (`CABasicAnimation`); a nil `from` starts from the property's
    /// value when the animation is started.
    case basic(AnimatableProperty, from: AnimatableValue? = nil, to: AnimatableValue)
    /// Through `values` (`CAKeyframeAnimation`). `keyTimes` (one per value, non-decreasing,
    /// first 0, last 1) place them in time, equal segments when nil. `curves`, one per
    /// segment, reshape time inside each segment; entries beyond the segment count are
    /// ignored, as Core Animation does. The animation's own curve applies first, to the
    /// whole.
    case keyframes(AnimatableProperty, values: [AnimatableValue], keyTimes: [Double]? = nil,
                   curves: [TimingCurve]? = nil)
    /// A vector property (normally position) along a path; the animation's timing curve
    /// maps time to progress along the path.
    case path(BezierPath, property: AnimatableProperty = .position)
    /// A damped spring from `from` (nil: the current value) to `to`, settling at the
    /// duration; `damping` is the damping ratio, `initialVelocity` in whole distances per
    /// second towards the target (UIKit's spring animation). The timing curve is ignored:
    /// the spring is the curve (see ``TimingCurve/spring(damping:initialVelocity:duration:)``).
    case spring(AnimatableProperty, from: AnimatableValue? = nil, to: AnimatableValue,
                damping: Double, initialVelocity: Double = 0)
    /// Children running together in the group's time (`CAAnimationGroup`), all on the same
    /// target, with one completion. Later children win when two drive the same property.
    case group([Animation])
}
