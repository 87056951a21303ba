import ArcadeCore

/// Big text in a ``BlockFont``, drawn with pixels so it scales, turns and fades like a
/// sprite: the combo counter "x 12" (white, orange outline), "GAME OVER", scores.
public final class LabelNode: Node {
    /// The text; `\n` starts a new line.
    public var text: String { didSet { if text != oldValue { spriteIsStale = true } } }
    /// The font.
    public var font: BlockFont { didSet { if font != oldValue { spriteIsStale = true } } }
    /// Glyph colour. Colour slot 0.
    public var color: Color { didSet { if color != oldValue { spriteIsStale = true } } }
    /// Outline colour; transparent means no outline. Colour slot 1.
    public var outline: Color { didSet { if outline != oldValue { spriteIsStale = true } } }

    private var spriteIsStale = true
    private var cachedSprite = Sprite(width: 0, height: 0, pixels: [])

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

    /// The rendered text, rebuilt only when text, font or colours change.
    public var sprite: Sprite {
        if spriteIsStale {
            cachedSprite = font.render(text, color: color, outline: outline)
            spriteIsStale = false
        }
        return cachedSprite
    }

    override func drawContent(in canvas: Canvas, transform: AffineTransform, alpha: Double, time: Double) {
        canvas.drawSprite(sprite, transform: transform, anchor: anchor, alpha: alpha)
    }

    override func contentContains(_ point: Vec2) -> Bool {
        let s = sprite
        return boxContains(point, width: Double(s.width), height: Double(s.height))
    }

    override func colorSlot(_ index: Int) -> Color? {
        switch index {
        case 0: color
        case 1: outline
        default: nil
        }
    }

    override func setColorSlot(_ index: Int, _ color: Color) {
        switch index {
        case 0: self.color = color
        case 1: outline = color
        default: break
        }
    }
}
