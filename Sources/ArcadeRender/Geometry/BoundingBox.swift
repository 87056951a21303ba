import ArcadeCore

/// An upright rectangle `minX...maxX` x `minY...maxY`: the extent of some points, or of a
/// node's drawing. Empty (holding nothing) when `minX > maxX`.
public struct BoundingBox: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    /// The box holding nothing, which any union replaces.
    public static let empty = BoundingBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// The smallest box holding every point (empty for none).
    public init(points: [Vec2]) {
        self = .empty
        for p in points { formUnion(p) }
    }

    /// The box `x...x+width` x `y...y+height`.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    /// True when the box holds nothing.
    public var isEmpty: Bool { !(minX <= maxX && minY <= maxY) }
    /// `maxX - minX` (0 when empty).
    public var width: Double { isEmpty ? 0 : maxX - minX }
    /// `maxY - minY` (0 when empty).
    public var height: Double { isEmpty ? 0 : maxY - minY }

    /// Grows the box to hold `p`.
    public mutating func formUnion(_ p: Vec2) {
        minX = min(minX, p.x)
        minY = min(minY, p.y)
        maxX = max(maxX, p.x)
        maxY = max(maxY, p.y)
    }

    /// Grows the box to hold `other`.
    public mutating func formUnion(_ other: BoundingBox) {
        guard !other.isEmpty else { return }
        minX = min(minX, other.minX)
        minY = min(minY, other.minY)
        maxX = max(maxX, other.maxX)
        maxY = max(maxY, other.maxY)
    }

    /// The box grown by `dx` left and right and `dy` up and down.
    public func insetBy(_ dx: Double, _ dy: Double) -> BoundingBox {
        isEmpty ? self : BoundingBox(minX: minX + dx, minY: minY + dy, maxX: maxX - dx, maxY: maxY - dy)
    }

    /// The upright box around this one's corners mapped by `t`.
    public func applying(_ t: AffineTransform) -> BoundingBox {
        guard !isEmpty else { return self }
        var out = BoundingBox.empty
        out.formUnion(t.apply(Vec2(minX, minY)))
        out.formUnion(t.apply(Vec2(maxX, minY)))
        out.formUnion(t.apply(Vec2(minX, maxY)))
        out.formUnion(t.apply(Vec2(maxX, maxY)))
        return out
    }

    /// Where the box's point at `anchor` (0...1 of its size each way) is.
    public func point(at anchor: Vec2) -> Vec2 {
        isEmpty ? .zero : Vec2(minX + anchor.x * (maxX - minX), minY + anchor.y * (maxY - minY))
    }
}
