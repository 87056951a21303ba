import ArcadeCore

/// A run of terminal glyphs in a block-font label, where the font has no glyphs of its own:
/// the text, and the centre of the box it takes in the label's sprite (pixels from its
/// top-left corner). See ``BlockFont``.
public struct LabelFallback: Hashable, Sendable {
    public var text: String
    public var x: Double
    public var y: Double

    public init(text: String, x: Double, y: Double) {
        self.text = text
        self.x = x
        self.y = y
    }
}

extension Canvas {
    /// Draws a rendered label: its sprite as ``drawSprite(_:transform:anchor:alpha:tint:)``
    /// does, then each fallback run as terminal text in `color` centred on its box's centre,
    /// which follows the transform (terminal glyphs cannot scale or turn). A run is left out
    /// while the label is too small for its box to hold a cell row.
    public func drawLabel(_ sprite: Sprite, fallbacks: [LabelFallback], glyphHeight: Int, transform: AffineTransform,
                          anchor: Vec2, color: Color, alpha: Double) {
        drawSprite(sprite, transform: transform, anchor: anchor, alpha: alpha)
        guard !fallbacks.isEmpty else { return }
        let up = transform.applyToVector(Vec2(0, Double(glyphHeight)))
        guard (up.x * up.x + up.y * up.y).squareRoot() >= 2 else { return }
        let origin = Vec2(anchor.x * Double(sprite.width), anchor.y * Double(sprite.height))
        for run in fallbacks {
            let centre = transform.apply(Vec2(run.x - origin.x, run.y - origin.y))
            drawText(run.text, transform: .translation(centre.x, centre.y), anchor: Vec2(0.5, 0.5), color: color, alpha: alpha)
        }
    }
}
