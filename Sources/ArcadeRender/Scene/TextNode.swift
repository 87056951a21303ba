import ArcadeCore

/// Terminal text: one character per cell, always above the pixels.
///
/// Only the position (and the opacity) follow the node's transform; glyphs cannot scale or
/// turn. The anchor defaults to `(0, 0)`, so the first character lands in the cell containing
/// the node's position. For big, scalable text use ``LabelNode``.
public final class TextNode: Node {
    /// The text; `\n` starts a new line.
    public var text: String
    /// Glyph colour. Colour slot 0.
    public var color: Color
    /// Cell background; transparent shows the pixels beneath. Colour slot 1.
    public var background: Color

    /// Text at `(x, y)`.
    public init(text: String, x: Double = 0, y: Double = 0, color: Color = .white, background: Color = .clear) {
        self.text = text
        self.color = color
        self.background = background
        super.init(x: x, y: y, anchor: .zero)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "text" }

    /// Width and height of the text block in pixels (one per column, two per line).
    public var size: (width: Double, height: Double) {
        var lines = 1
        var longest = 0
        var current = 0
        for s in text.unicodeScalars {
            if s == "\n" {
                lines += 1
                longest = max(longest, current)
                current = 0
            } else {
                current += 1
            }
        }
        return (Double(max(longest, current)), Double(2 * lines))
    }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        canvas.drawText(text, transform: transform, anchor: anchor, color: color, background: background, alpha: alpha)
    }

    override func contentContains(_ point: Vec2) -> Bool {
        let s = size
        return boxContains(point, width: s.width, height: s.height)
    }

    override func colorSlot(_ index: Int) -> Color? {
        switch index {
        case 0: color
        case 1: background
        default: nil
        }
    }

    override func setColorSlot(_ index: Int, _ color: Color) {
        switch index {
        case 0: self.color = color
        case 1: background = color
        default: break
        }
    }
}
