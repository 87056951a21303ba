import ArcadeCore

/// How the lines of multi-line text sit inside their block (which the node's anchor places).
public enum TextAlign: String, Hashable, Sendable, CaseIterable {
    /// Every line starts at the block's left edge.
    case left
    /// Every line is centred in the block (rounded to the left).
    case center
    /// Every line ends at the block's right edge.
    case right

    /// 0, 0.5 or 1: where in the spare width a shorter line goes.
    public var fraction: Double {
        switch self {
        case .left: 0
        case .center: 0.5
        case .right: 1
        }
    }
}

/// Terminal text: one character per cell, composed with the shapes in draw order.
///
/// Only the position (and the opacity) follow the node's transform; glyphs cannot scale or
/// turn. Like every node the anchor defaults to `(0.5, 0.5)`, the centre of the text block
/// (see ``Canvas/drawText(_:transform:anchor:align:color:background:alpha:)`` for how the
/// block snaps to cells); `(0, 0)` puts the first character in the cell containing the
/// node's position. For big, scalable text use ``LabelNode``.
public final class TextNode: Node {
    /// The text; `\n` starts a new line.
    public var text: String
    /// Glyph colour. Colour slot 0.
    public var color: Color
    /// Background of every cell of the block's box (short and empty lines' cells too);
    /// transparent shows the pixels beneath. Colour slot 1.
    public var background: Color
    /// How lines sit in the block; nil follows `anchor.x` (left-anchored text is left-aligned,
    /// centred text centred, right-anchored text right-aligned).
    public var align: TextAlign?

    /// Text at `(x, y)`.
    public init(text: String, x: Double = 0, y: Double = 0, color: Color = .white, background: Color = .clear) {
        self.text = text
        self.color = color
        self.background = background
        super.init(x: x, y: y)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "text" }

    /// Width and height of the text block in pixels (one per column, two per line).
    public var size: (width: Double, height: Double) {
        let s = Canvas.textSize(text)
        return (Double(s.columns), Double(2 * s.lines))
    }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        canvas.drawText(text, transform: transform, anchor: anchor, align: align?.fraction,
                        color: color, background: background, alpha: alpha)
    }

    /// The cells the text was drawn in: the block snaps to the cell grid, so the test is made
    /// in canvas pixels rather than against the node's unsnapped box.
    override func contentContains(_ point: Vec2) -> Bool {
        let s = Canvas.textSize(text)
        guard let (column, row) = Canvas.textPlacement(origin: composedTransform.apply(.zero), anchor: anchor,
                                                       columns: s.columns, lines: s.lines) else { return false }
        let p = composedTransform.apply(point)
        let x = p.x.rounded(.down)
        let y = (p.y / 2).rounded(.down)
        return x >= Double(column) && x < Double(column + s.columns) && y >= Double(row) && y < Double(row + s.lines)
    }

    /// The block, with a cell of slack each way for its snapping to the grid.
    override func contentBounds() -> BoundingBox {
        let s = size
        return anchoredBox(width: s.width, height: s.height).insetBy(-1, -2)
    }

    /// The colour properties animations reach, in slot order.
    static let colorSlots: ColorSlots<TextNode> = [\.color, \.background]

    override func colorSlot(_ index: Int) -> Color? { color(at: index, in: TextNode.colorSlots) }
    override func setColorSlot(_ index: Int, _ color: Color) { setColor(color, at: index, in: TextNode.colorSlots) }
}
