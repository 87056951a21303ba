import ArcadeCore

/// A stroked path through points in local space, drawn between two fractions of its length:
/// the fishing line that draws itself (``strokeEnd`` 0 -> 1) and erases from its start
/// (``strokeStart`` 0 -> 1).
///
/// By default the points are relative to the position: the point `(0, 0)` sits at `(x, y)`,
/// whatever the anchor. Once an axis is anchored (``anchorsX``, ``anchorsY``), the anchor
/// places the points' bounding box along it, as it places any node's content.
public final class LineNode: Node {
    /// The path, in local pixels; fewer than two points draw nothing.
    public var points: [Vec2] {
        didSet { pointBounds = BoundingBox(points: points) }
    }
    /// The points' bounding box, which an anchored axis places.
    public private(set) var pointBounds: BoundingBox
    /// Stroke colour. Colour slot 0.
    public var color: Color
    /// Stroke width in local pixels.
    public var lineWidth: Double
    /// Where the visible part starts, as a fraction 0...1 of the path length.
    public var strokeStart = 0.0
    /// Where the visible part ends, as a fraction 0...1 of the path length.
    public var strokeEnd = 1.0
    /// Whether `anchor.x` places the points' bounding box horizontally; when false (the
    /// default) the points' x is relative to the position.
    public var anchorsX = false
    /// Whether `anchor.y` places the points' bounding box vertically; when false (the
    /// default) the points' y is relative to the position.
    public var anchorsY = false

    /// A path through `points`.
    public init(points: [Vec2], x: Double = 0, y: Double = 0, color: Color = .white, lineWidth: Double = 1) {
        self.points = points
        pointBounds = BoundingBox(points: points)
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

    /// Where the points' space is in the local space: on an anchored axis the anchor point of
    /// their box goes to the origin; on the others nothing moves.
    var pointsOrigin: Vec2 {
        guard anchorsX || anchorsY else { return .zero }
        let p = pointBounds.point(at: anchor)
        return Vec2(anchorsX ? -p.x : 0, anchorsY ? -p.y : 0)
    }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        let origin = pointsOrigin
        canvas.strokePolyline(points, transform: transform.translatedBy(origin.x, origin.y), lineWidth: lineWidth,
                              color: color, strokeStart: strokeStart, strokeEnd: strokeEnd, alpha: alpha)
    }

    override func contentBounds() -> BoundingBox {
        guard points.count >= 2 else { return .empty }
        let origin = pointsOrigin
        let half = max(0, lineWidth) / 2
        return pointBounds.applying(.translation(origin.x, origin.y)).insetBy(-half, -half)
    }

    /// The colour properties animations reach, in slot order.
    static let colorSlots: ColorSlots<LineNode> = [\.color]

    override func colorSlot(_ index: Int) -> Color? { color(at: index, in: LineNode.colorSlots) }
    override func setColorSlot(_ index: Int, _ color: Color) { setColor(color, at: index, in: LineNode.colorSlots) }
}
