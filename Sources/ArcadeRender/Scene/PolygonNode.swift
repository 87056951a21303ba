import ArcadeCore

/// A filled and/or outlined polygon: rocks, ships, arrows, terrain.
///
/// Its points are in local pixels; the last joins the first. Like every node's content, the
/// points' bounding box is placed by the anchor (the centre by default) at the position, and
/// the node turns and scales about that point. Inside is decided by the nonzero winding rule
/// (see ``Canvas/drawPolygon(_:transform:fill:stroke:lineWidth:alpha:)``), for drawing and
/// for hit tests alike; ``ShapeNode/stroke`` is a border `lineWidth` wide inside its edges.
public final class PolygonNode: ShapeNode {
    /// The most points a polygon may have.
    public static let maximumPoints = 4096

    /// The outline, in local pixels; fewer than three points draw nothing.
    public var points: [Vec2] {
        didSet { pointBounds = BoundingBox(points: points) }
    }
    /// The points' bounding box, which the anchor places.
    public private(set) var pointBounds: BoundingBox

    /// A polygon through `points`, its bounding box centred on `(x, y)` by default.
    public init(points: [Vec2], x: Double = 0, y: Double = 0,
                fill: Color = .white, stroke: Color = .clear, lineWidth: Double = 1) {
        self.points = points
        pointBounds = BoundingBox(points: points)
        super.init(x: x, y: y, fill: fill, stroke: stroke, lineWidth: lineWidth)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "polygon" }

    /// Where the points' space is in the local space: the anchor point of their box at the
    /// origin.
    private var pointsOrigin: Vec2 { -pointBounds.point(at: anchor) }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        let origin = pointsOrigin
        canvas.drawPolygon(points, transform: transform.translatedBy(origin.x, origin.y),
                           fill: fill, stroke: stroke, lineWidth: lineWidth, alpha: alpha)
    }

    override func contentContains(_ point: Vec2) -> Bool {
        guard points.count >= 3 else { return false }
        return Canvas.polygonWinding(points, around: point - pointsOrigin) != 0
    }

    override func contentBounds() -> BoundingBox {
        let origin = pointsOrigin
        return pointBounds.applying(.translation(origin.x, origin.y))
    }
}
