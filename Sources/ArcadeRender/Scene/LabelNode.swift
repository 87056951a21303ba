import ArcadeCore

/// Big text in a ``BlockFont``, drawn with pixels so it scales, turns and fades like a
/// sprite: the combo counter "x 12" (white, orange outline), "GAME OVER", scores. Characters
/// the font has no glyph for show as terminal glyphs centred in their box (``LabelFallback``).
public final class LabelNode: Node {
    /// The text; `\n` starts a new line.
    public var text: String { didSet { if text != oldValue { spriteIsStale = true } } }
    /// The font.
    public var font: BlockFont { didSet { if font != oldValue { spriteIsStale = true } } }
    /// Glyph colour. Colour slot 0.
    public var color: Color { didSet { if color != oldValue { spriteIsStale = true } } }
    /// Outline colour; transparent means no outline. Colour slot 1.
    public var outline: Color { didSet { if outline != oldValue { spriteIsStale = true } } }
    /// How the lines of multi-line text sit in the label; nil follows `anchor.x`, as for
    /// ``TextNode/align``.
    public var align: TextAlign?

    private var spriteIsStale = true
    private var cachedSprite = Sprite(width: 0, height: 0, pixels: [])
    private var cachedFallbacks: [LabelFallback] = []
    /// The line alignment `cachedSprite` was rendered with.
    private var cachedAlign = 0.5

    /// A label at `(x, y)`, centred there by default.
    public init(text: String, font: BlockFont = .large, x: Double = 0, y: Double = 0,
                color: Color = .white, outline: Color = .clear) {
        self.text = text
        self.font = font
        self.color = color
        self.outline = outline
        super.init(x: x, y: y)
    }

    /// See ``Node/kindName``.
    public override var kindName: String { "label" }

    /// The rendered text, rebuilt only when text, font, colours or (for several lines) the
    /// alignment change.
    public var sprite: Sprite {
        let lineAlign = text.contains("\n") ? min(max(align?.fraction ?? anchor.x, 0), 1) : 0.5
        if spriteIsStale || lineAlign != cachedAlign {
            cachedSprite = font.render(text, color: color, outline: outline, align: lineAlign)
            cachedFallbacks = font.fallbacks(in: text, outlined: outline.a != 0, align: lineAlign)
            cachedAlign = lineAlign
            spriteIsStale = false
        }
        return cachedSprite
    }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        let s = sprite
        canvas.drawLabel(s, fallbacks: cachedFallbacks, glyphHeight: font.glyphHeight, transform: transform, anchor: anchor,
                         color: color, alpha: alpha)
    }

    override func contentContains(_ point: Vec2) -> Bool {
        let s = sprite
        return boxContains(point, width: Double(s.width), height: Double(s.height))
    }

    override func contentBounds() -> BoundingBox {
        let s = sprite
        return anchoredBox(width: Double(s.width), height: Double(s.height))
    }

    /// The colour properties animations reach, in slot order.
    static let colorSlots: ColorSlots<LabelNode> = [\.color, \.outline]

    override func colorSlot(_ index: Int) -> Color? { color(at: index, in: LabelNode.colorSlots) }
    override func setColorSlot(_ index: Int, _ color: Color) { setColor(color, at: index, in: LabelNode.colorSlots) }
}
