/// What an animation shows outside its active time (Core Animation's `fillMode` together
/// with `isRemovedOnCompletion`).
///
/// The engine writes straight into its target, so "removed" means the property is put
/// back to its model value: the value it had when the animation was started.
public enum AnimationFill: String, CaseIterable, Hashable, Sendable {
    /// Before its delay has passed the animation leaves the property alone; when it ends
    /// the property snaps back to its model value. Core Animation's default.
    case removed
    /// When it ends the property keeps the final value (UIKit's animations, or Core
    /// Animation's `fillMode = forwards` with `isRemovedOnCompletion = false`).
    case forwards
    /// During the delay the property already shows the first value; snaps back at the end.
    case backwards
    /// Both: the first value during the delay, the final value kept at the end.
    case both

    /// True when the final value is kept.
    public var holdsEnd: Bool { self == .forwards || self == .both }
    /// True when the first value is shown during the delay.
    public var holdsStart: Bool { self == .backwards || self == .both }
}
