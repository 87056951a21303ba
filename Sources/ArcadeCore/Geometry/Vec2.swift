/// A 2D vector or point in canvas pixels (x right, y down).
public struct Vec2: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Vec2(0, 0)

    @inlinable public static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    @inlinable public static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    @inlinable public static prefix func - (a: Vec2) -> Vec2 { Vec2(-a.x, -a.y) }
    @inlinable public static func * (a: Vec2, s: Double) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inlinable public static func * (s: Double, a: Vec2) -> Vec2 { Vec2(a.x * s, a.y * s) }
    @inlinable public static func / (a: Vec2, s: Double) -> Vec2 { Vec2(a.x / s, a.y / s) }
    @inlinable public static func += (a: inout Vec2, b: Vec2) { a = a + b }
    @inlinable public static func -= (a: inout Vec2, b: Vec2) { a = a - b }

    /// Dot product.
    @inlinable public func dot(_ o: Vec2) -> Double { x * o.x + y * o.y }
    /// The z component of the 3D cross product.
    @inlinable public func cross(_ o: Vec2) -> Double { x * o.y - y * o.x }
    @inlinable public var lengthSquared: Double { x * x + y * y }
    @inlinable public var length: Double { lengthSquared.squareRoot() }
    /// The unit vector in this direction, or zero for the zero vector.
    @inlinable public var normalized: Vec2 {
        let l = length
        return l > 0 ? self / l : .zero
    }
    /// Linear interpolation: `self` at t = 0, `to` at t = 1.
    @inlinable public func lerp(to: Vec2, _ t: Double) -> Vec2 {
        Vec2(x + (to.x - x) * t, y + (to.y - y) * t)
    }

    public var description: String { "(\(x), \(y))" }
}

/// A width and height in canvas pixels.
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double

    @inlinable public init(_ width: Double, _ height: Double) {
        self.width = width
        self.height = height
    }
}

/// An axis-aligned rectangle: origin is the top-left corner (y down).
public struct Rect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// A rectangle of the given size centred on `center`.
    @inlinable public init(center: Vec2, width: Double, height: Double) {
        self.init(x: center.x - width / 2, y: center.y - height / 2, width: width, height: height)
    }

    @inlinable public var minX: Double { x }
    @inlinable public var minY: Double { y }
    @inlinable public var maxX: Double { x + width }
    @inlinable public var maxY: Double { y + height }
    @inlinable public var center: Vec2 { Vec2(x + width / 2, y + height / 2) }

    /// True when `p` lies inside or on the edge.
    @inlinable public func contains(_ p: Vec2) -> Bool {
        p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY
    }
}
