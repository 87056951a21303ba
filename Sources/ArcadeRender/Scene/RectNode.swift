import ArcadeCore

/// A rectangle, filled and/or outlined: boxes, paddles, bars, buttons.
public final class RectNode: Node {
    /// Width in local pixels.
    public var width: Double
    /// Height in local pixels.
    public var height: Double
    /// Interior colour; transparent for an outline only. Colour slot 0.
    public var fill: Color
    /// Border colour; transparent for no border. Colour slot 1.
    public var stroke: Color
    /// Border width in local pixels, inside the edge.
    public var lineWidth: Double

    /// A rectangle centred on `(x, y)` by default.
    public init(width: Double, height: Double, x: Double = 0, y: Double = 0,
                fill: Color = .white, stroke: Color = .clear, lineWidth: Double = 1) {
        self.width = width
        self.height = height
        self.fill = fill
        self.stroke = stroke
        self.lineWidth = lineWidth
        super.init(x: x, y: y)
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
