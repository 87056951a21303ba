#if canImport(Glibc)
import Glibc
#endif
import ArcadeCore

/// A 2D affine map in canvas pixels: `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
///
/// The same layout as Core Graphics' `CGAffineTransform`, so `(a, b)` is where the unit x axis
/// goes and `(c, d)` where the unit y axis goes. With y pointing down, a positive rotation
/// turns clockwise on screen.
public struct AffineTransform: Hashable, Sendable {
    /// Where the unit x axis goes: its x part.
    public var a: Double
    /// Where the unit x axis goes: its y part.
    public var b: Double
    /// Where the unit y axis goes: its x part.
    public var c: Double
    /// Where the unit y axis goes: its y part.
    public var d: Double
    /// Horizontal translation.
    public var tx: Double
    /// Vertical translation.
    public var ty: Double

    /// A transform from its six coefficients.
    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// Translate, then rotate, then scale, applied to a point in that reverse order
    /// (scale first): the usual node transform.
    @inlinable public init(translation: Vec2, rotation: Double, scaleX: Double, scaleY: Double) {
        let (s, k) = AffineTransform.sinCos(rotation)
        self.init(a: k * scaleX, b: s * scaleX, c: -s * scaleY, d: k * scaleY, tx: translation.x, ty: translation.y)
    }

    /// The map that changes nothing.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A pure translation.
    @inlinable public static func translation(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A pure rotation about the origin, clockwise for positive angles (y down).
    @inlinable public static func rotation(_ radians: Double) -> AffineTransform {
        AffineTransform(translation: .zero, rotation: radians, scaleX: 1, scaleY: 1)
    }

    /// A pure scale about the origin; a negative factor mirrors.
    @inlinable public static func scale(_ x: Double, _ y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// Sine and cosine with exact values at multiples of a quarter turn, so a sprite turned
    /// by 90 degrees lands on the same pixels as its exact rotation would.
    ///
    /// Any angle is accepted: one too large for the check (beyond 2^52 quarter turns, where
    /// doubles are whole numbers anyway) goes straight to `sin` and `cos`, and a non-finite
    /// one gives NaN, which drawing treats as nothing to draw.
    @inlinable static func sinCos(_ radians: Double) -> (sin: Double, cos: Double) {
        let quarters = radians / (Double.pi / 2)
        let nearest = quarters.rounded()
        if abs(nearest) < 0x1p52, abs(quarters - nearest) < 1e-12 {
            switch Int(nearest) & 3 {
            case 0: return (0, 1)
            case 1: return (1, 0)
            case 2: return (0, -1)
            default: return (-1, 0)
            }
        }
        return (sin(radians), cos(radians))
    }

    /// `lhs` after `rhs`: `(lhs * rhs).apply(p) == lhs.apply(rhs.apply(p))`.
    @inlinable public static func * (lhs: AffineTransform, rhs: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: lhs.a * rhs.a + lhs.c * rhs.b,
            b: lhs.b * rhs.a + lhs.d * rhs.b,
            c: lhs.a * rhs.c + lhs.c * rhs.d,
            d: lhs.b * rhs.c + lhs.d * rhs.d,
            tx: lhs.a * rhs.tx + lhs.c * rhs.ty + lhs.tx,
            ty: lhs.b * rhs.tx + lhs.d * rhs.ty + lhs.ty
        )
    }

    /// Maps a point.
    @inlinable public func apply(_ p: Vec2) -> Vec2 {
        Vec2(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
    }

    /// Maps a direction (ignores the translation).
    @inlinable public func applyToVector(_ v: Vec2) -> Vec2 {
        Vec2(a * v.x + c * v.y, b * v.x + d * v.y)
    }

    /// The signed area factor; negative when the map mirrors.
    @inlinable public var determinant: Double { a * d - b * c }

    /// The inverse map, or nil when this one squashes the plane flat (a zero scale).
    @inlinable public func inverted() -> AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inv = 1 / det
        return AffineTransform(
            a: d * inv, b: -b * inv, c: -c * inv, d: a * inv,
            tx: (c * ty - d * tx) * inv,
            ty: (b * tx - a * ty) * inv
        )
    }

    /// Translates the local space (applied before this transform).
    @inlinable public func translatedBy(_ x: Double, _ y: Double) -> AffineTransform {
        self * .translation(x, y)
    }

    /// Rotates the local space (applied before this transform).
    @inlinable public func rotatedBy(_ radians: Double) -> AffineTransform {
        self * .rotation(radians)
    }

    /// Scales the local space (applied before this transform).
    @inlinable public func scaledBy(_ x: Double, _ y: Double) -> AffineTransform {
        self * .scale(x, y)
    }
}
