import ArcadeCore

/// What ``RectNode``, ``CircleNode`` and ``PolygonNode`` share: a shape filled with one
/// colour inside a border of another, `lineWidth` wide inside its edge. Not a kind of its
/// own: a scene holds rectangles, circles and polygons.
public class ShapeNode: Node {
    /// Interior colour; transparent for an outline only. Colour slot 0.
    public var fill: Color
    /// Border (ring) colour; transparent for none. Colour slot 1.
    public var stroke: Color
    /// Border width in local pixels, inside the edge.
    public var lineWidth: Double

    init(x: Double, y: Double, fill: Color, stroke: Color, lineWidth: Double) {
        self.fill = fill
        self.stroke = stroke
        self.lineWidth = lineWidth
        super.init(x: x, y: y)
    }

    /// The colour properties animations reach, in slot order.
    static let colorSlots: ColorSlots<ShapeNode> = [\.fill, \.stroke]

    override func colorSlot(_ index: Int) -> Color? { color(at: index, in: ShapeNode.colorSlots) }
    override func setColorSlot(_ index: Int, _ color: Color) { setColor(color, at: index, in: ShapeNode.colorSlots) }
}
