/// The outline of a wall: an axis-aligned rectangle (UIKit's `bezierPathWithRect:`
/// boundary) or a line segment (`addBoundaryWithIdentifier:fromPoint:toPoint:`).
///
/// Balls collide with the outline from either side; a rectangle is solid, so a ball that
/// somehow ends up inside is pushed out through the nearest edge.
public enum WallShape: Hashable, Sendable {
    /// A solid rectangle.
    case rect(Rect)
    /// A line segment between two points, with no thickness.
    case segment(Vec2, Vec2)

    /// The point the wall is positioned by: the rectangle's centre or the segment's midpoint.
    public var center: Vec2 {
        switch self {
        case .rect(let r): r.center
        case .segment(let a, let b): Vec2((a.x + b.x) / 2, (a.y + b.y) / 2)
        }
    }

    /// The same shape moved by `delta`.
    public func translated(by delta: Vec2) -> WallShape {
        switch self {
        case .rect(let r): .rect(Rect(x: r.x + delta.x, y: r.y + delta.y, width: r.width, height: r.height))
        case .segment(let a, let b): .segment(a + delta, b + delta)
        }
    }

    /// The same shape with its ``center`` at `point`.
    public func centered(at point: Vec2) -> WallShape {
        translated(by: point - center)
    }

    /// True when every coordinate is finite and a rectangle's size is not negative.
    var isValid: Bool {
        switch self {
        case .rect(let r):
            r.x.isFinite && r.y.isFinite && r.width.isFinite && r.height.isFinite && r.width >= 0 && r.height >= 0
        case .segment(let a, let b):
            a.x.isFinite && a.y.isFinite && b.x.isFinite && b.y.isFinite
        }
    }
}
