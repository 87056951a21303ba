/// A property of a scene object that animations (and physics bindings) may drive.
///
/// ArcadeCore knows nothing of scene nodes: anything that stores these properties
/// conforms to ``Animatable`` and the animation engine reads and writes through it.
public enum AnimatableProperty: Hashable, Sendable, CustomStringConvertible {
    case x, y
    /// x and y together, as a vector.
    case position
    /// Uniform scale: reads as scale x, writes both.
    case scale
    case scaleX, scaleY
    /// Radians, clockwise positive (y is down).
    case rotation
    case alpha
    /// Colour slot 0 is the primary colour (fill / text / tint), 1 the secondary (outline / stroke).
    case color(Int)
    /// Lines: the visible fraction of the stroke, 0...1.
    case strokeStart, strokeEnd

    /// The name scripts use (``init(name:)`` reads it back).
    public var description: String {
        switch self {
        case .x: "x"
        case .y: "y"
        case .position: "position"
        case .scale: "scale"
        case .scaleX: "scale_x"
        case .scaleY: "scale_y"
        case .rotation: "rotation"
        case .alpha: "alpha"
        case .color(0): "color"
        case .color(1): "outline"
        case .color(let i): "color\(i)"
        case .strokeStart: "stroke_start"
        case .strokeEnd: "stroke_end"
        }
    }
}

/// A value an animation produces for an ``AnimatableProperty``.
public enum AnimatableValue: Hashable, Sendable {
    case scalar(Double)
    case vector(Vec2)
    case color(Color)
}

/// Something whose properties animations and physics drive natively.
///
/// Conformers are reference types. The engines do not keep them alive: once nothing else
/// holds an object, its animations end (finished = false) at the next step. They avoid Swift
/// `weak` references to them, which would make every retain of the object slow.
public protocol Animatable: AnyObject {
    /// The current value of `property`, or nil when this object has no such property.
    func animatableValue(_ property: AnimatableProperty) -> AnimatableValue?
    /// Sets `property`; values of the wrong kind are ignored.
    func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty)
    /// Tells the object the region a wrap-around physics world folds it into (nil: none), so
    /// it can draw itself on both sides of an edge it straddles. Objects that cannot ignore it.
    func setWrapRegion(_ region: WrapRegion?)
    /// Where the object keeps its position, scale, turn and opacity for the engines to
    /// write in place, or nil (the default) to have them go through
    /// ``setAnimatableValue(_:for:)``. Must stay the same for the object's whole life.
    var animatableFields: UnsafeMutablePointer<AnimatableFields>? { get }
}

extension Animatable {
    public func setWrapRegion(_ region: WrapRegion?) {}
    public var animatableFields: UnsafeMutablePointer<AnimatableFields>? { nil }
}
