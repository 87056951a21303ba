import ArcadeCore

/// A disc and/or ring: balls, the Last Circle circles, avatars. Scale it unevenly for an
/// ellipse.
public final class CircleNode: Node {
    /// Radius in local pixels.
    public var radius: Double
    /// Interior colour; transparent for a ring only. Colour slot 0.
    public var fill: Color
    /// Ring colour; transparent for a plain disc. Colour slot 1.
    public var stroke: Color
    /// Ring width in local pixels, inside the edge.
    public var lineWidth: Double

    /// A circle centred on `(x, y)` by default.
    public init(radius: Double, x: Double = 0, y: Double = 0,
                fill: Color = .white, stroke: Color = .clear, lineWidth: Double = 1) {
        self.radius = radius
        self.fill = fill
        self.stroke = stroke
        self.lineWidth = lineWidth
        super.init(x: x, y: y)
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

    override func colorSlot(_ index: Int) -> Color? {
        switch index {
        case 0: fill
        case 1: stroke
        default: nil
        }
    }

    override func setColorSlot(_ index: Int, _ color: Color) {
        switch index {
        case 0: fill = color
        case 1: stroke = color
        default: break
        }
    }
}
