import ArcadeCore

/// A disc and/or ring: balls, the Last Circle circles, avatars. Scale it unevenly for an
/// ellipse. ``ShapeNode/fill`` is the disc, ``ShapeNode/stroke`` the ring.
public final class CircleNode: ShapeNode {
    /// Radius in local pixels.
    public var radius: Double

    /// A circle centred on `(x, y)` by default.
    public init(radius: Double, x: Double = 0, y: Double = 0,
                fill: Color = .white, stroke: Color = .clear, lineWidth: Double = 1) {
        self.radius = radius
        super.init(x: x, y: y, fill: fill, stroke: stroke, lineWidth: lineWidth)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "circle" }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        canvas.drawEllipse(width: 2 * radius, height: 2 * radius, transform: transform, anchor: anchor,
                           fill: fill, stroke: stroke, lineWidth: lineWidth, alpha: alpha)
    }

    override func contentContains(_ point: Vec2) -> Bool {
        guard radius > 0 else { return false }
        let cx = point.x + (anchor.x - 0.5) * 2 * radius
        let cy = point.y + (anchor.y - 0.5) * 2 * radius
        return cx * cx + cy * cy < radius * radius
    }

    override func contentBounds() -> BoundingBox { anchoredBox(width: 2 * radius, height: 2 * radius) }
}
