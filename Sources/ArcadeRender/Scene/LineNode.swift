import ArcadeCore

/// A stroked path through points in local space, drawn between two fractions of its length:
/// the fishing line that draws itself (``strokeEnd`` 0 -> 1) and erases from its start
/// (``strokeStart`` 0 -> 1). The anchor is not used: points are relative to the position.
public final class LineNode: Node {
    /// The path, in local pixels; fewer than two points draw nothing.
    public var points: [Vec2]
    /// Stroke colour. Colour slot 0.
    public var color: Color
    /// Stroke width in local pixels.
    public var lineWidth: Double
    /// Where the visible part starts, as a fraction 0...1 of the path length.
    public var strokeStart = 0.0
    /// Where the visible part ends, as a fraction 0...1 of the path length.
    public var strokeEnd = 1.0

    /// A path through `points`.
    public init(points: [Vec2], x: Double = 0, y: Double = 0, color: Color = .white, lineWidth: Double = 1) {
        self.points = points
        self.color = color
        self.lineWidth = lineWidth
        super.init(x: x, y: y, anchor: .zero)
    }

    /// A straight line from `from` to `to`.
    public convenience init(from: Vec2, to: Vec2, color: Color = .white, lineWidth: Double = 1) {
        self.init(points: [from, to], color: color, lineWidth: lineWidth)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "line" }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        canvas.strokePolyline(points, transform: transform, lineWidth: lineWidth, color: color,
                              strokeStart: strokeStart, strokeEnd: strokeEnd, alpha: alpha)
    }

    /// The colour properties animations reach, in slot order.
    static let colorSlots: ColorSlots<LineNode> = [\.color]

    override func colorSlot(_ index: Int) -> Color? { color(at: index, in: LineNode.colorSlots) }
    override func setColorSlot(_ index: Int, _ color: Color) { setColor(color, at: index, in: LineNode.colorSlots) }
}
