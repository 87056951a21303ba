import ArcadeCore

/// A rectangle, filled and/or outlined: boxes, paddles, bars, buttons.
public final class RectNode: ShapeNode {
    /// Width in local pixels.
    public var width: Double
    /// Height in local pixels.
    public var height: Double

    /// A rectangle centred on `(x, y)` by default.
    public init(width: Double, height: Double, x: Double = 0, y: Double = 0,
                fill: Color = .white, stroke: Color = .clear, lineWidth: Double = 1) {
        self.width = width
        self.height = height
        super.init(x: x, y: y, fill: fill, stroke: stroke, lineWidth: lineWidth)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "rect" }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        canvas.drawRect(width: width, height: height, transform: transform, anchor: anchor,
                        fill: fill, stroke: stroke, lineWidth: lineWidth, alpha: alpha)
    }

    override func contentContains(_ point: Vec2) -> Bool {
        boxContains(point, width: width, height: height)
    }

    override func contentBounds() -> BoundingBox { anchoredBox(width: width, height: height) }
}
