/// Why an ``Animator`` refused to start an animation. Each case names what was wrong so a
/// script binding can raise an argument error that says so.
public enum AnimationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The target has no such property (its `animatableValue` returned nil).
    case noSuchProperty(AnimatableProperty)
    /// A value is of another kind (scalar, vector, colour) than the property holds.
    case valueKindMismatch(AnimatableProperty, expected: String, got: String)
    /// A keyframe animation with no values, or a path with no segments.
    case empty(String)
    /// Key times of the wrong count, out of order, or not from 0 to 1.
    case invalidKeyTimes(String)
    /// Fewer per-segment curves than segments.
    case tooFewCurves(needed: Int, got: Int)
    /// A group with no children.
    case emptyGroup
    /// A timing field out of range (negative duration or speed, NaN, ...).
    case invalidTiming(String)

    /// One line for the player or the script author.
    public var description: String {
        switch self {
        case .noSuchProperty(let p): return "the target has no property '\(p)'"
        case .valueKindMismatch(let p, let expected, let got):
            return "'\(p)' takes a \(expected) value, got a \(got)"
        case .empty(let what): return "\(what) is empty"
        case .invalidKeyTimes(let why): return "invalid key times: \(why)"
        case .tooFewCurves(let needed, let got): return "need \(needed) segment curves, got \(got)"
        case .emptyGroup: return "a group needs at least one animation"
        case .invalidTiming(let why): return "invalid timing: \(why)"
        }
    }
}
