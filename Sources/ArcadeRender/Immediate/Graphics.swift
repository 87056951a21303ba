import ArcadeCore

/// Immediate-mode drawing into a canvas, for a game's `draw(gfx)` callback: the scene's
/// primitives without nodes, drawn where they are called, over the composed scene. Calls
/// compose in the order they are made, text included: a rectangle filled after a text hides it.
///
/// Coordinates are canvas pixels, moved by a current transform (``translate(_:_:)``,
/// ``rotate(_:)``, ``scale(_:_:)``) and faded by a current ``alpha``, both saved and restored
/// with ``push()`` / ``pop()`` like a canvas context. Rectangles are placed by their top-left
/// corner, circles by their centre.
public final class Graphics {
    /// The surface drawn on.
    public let canvas: Canvas
    /// Local to canvas pixels for everything drawn next.
    public private(set) var transform = AffineTransform.identity
    /// Opacity multiplied into everything drawn next.
    public var alpha = 1.0

    private var saved: [(AffineTransform, Double)] = []
    /// The two points of ``line(x1:y1:x2:y2:color:lineWidth:)``, reused so a line costs no
    /// allocation.
    private var segment = [Vec2.zero, Vec2.zero]
    private var labels: [LabelKey: (sprite: Sprite, fallbacks: [LabelFallback])] = [:]
    /// Bytes of pixels the label cache holds (4 per pixel), for the host's memory accounting.
    public private(set) var labelCacheBytes = 0
    /// Rendered labels kept between frames; beyond this many the cache starts over.
    private static let labelCacheLimit = 64

    private struct LabelKey: Hashable {
        let text: String
        let font: String
        let color: Color
        let outline: Color
        let align: Double
    }

    /// Drawing on `canvas`.
    public init(canvas: Canvas) {
        self.canvas = canvas
    }

    /// Back to the identity transform, full opacity and an empty save stack; the host calls
    /// this before each draw callback so one frame's leftovers cannot leak into the next.
    public func reset() {
        transform = .identity
        alpha = 1
        saved.removeAll(keepingCapacity: true)
    }

    /// Saves the transform and alpha.
    public func push() {
        saved.append((transform, alpha))
    }

    /// Restores the last saved transform and alpha; false when nothing was saved.
    @discardableResult public func pop() -> Bool {
        guard let (t, a) = saved.popLast() else { return false }
        transform = t
        alpha = a
        return true
    }

    /// Moves the origin.
    public func translate(_ x: Double, _ y: Double) {
        transform = transform.translatedBy(x, y)
    }

    /// Turns the axes clockwise by `radians`.
    public func rotate(_ radians: Double) {
        transform = transform.rotatedBy(radians)
    }

    /// Scales the axes; negative mirrors.
    public func scale(_ x: Double, _ y: Double) {
        transform = transform.scaledBy(x, y)
    }

    /// Fills the whole pixel layer with `color` and empties the text layer.
    public func clear(_ color: Color) {
        canvas.clear(to: color)
    }

    /// One pixel with its top-left corner at `(x, y)`.
    public func pixel(x: Double, y: Double, color: Color) {
        fillRect(x: x, y: y, width: 1, height: 1, color: color)
    }

    /// A filled rectangle with its top-left corner at `(x, y)`.
    public func fillRect(x: Double, y: Double, width: Double, height: Double, color: Color) {
        canvas.drawRect(width: width, height: height, transform: transform.translatedBy(x, y),
                        anchor: .zero, fill: color, alpha: alpha)
    }

    /// A rectangle outline `lineWidth` wide inside the edge, top-left corner at `(x, y)`.
    public func strokeRect(x: Double, y: Double, width: Double, height: Double, color: Color, lineWidth: Double = 1) {
        canvas.drawRect(width: width, height: height, transform: transform.translatedBy(x, y),
                        anchor: .zero, fill: .clear, stroke: color, lineWidth: lineWidth, alpha: alpha)
    }

    /// A disc centred on `(x, y)`.
    public func fillCircle(x: Double, y: Double, radius: Double, color: Color) {
        canvas.drawEllipse(width: 2 * radius, height: 2 * radius, transform: transform.translatedBy(x, y),
                           fill: color, alpha: alpha)
    }

    /// A ring `lineWidth` wide inside the circle of `radius` centred on `(x, y)`.
    public func strokeCircle(x: Double, y: Double, radius: Double, color: Color, lineWidth: Double = 1) {
        canvas.drawEllipse(width: 2 * radius, height: 2 * radius, transform: transform.translatedBy(x, y),
                           fill: .clear, stroke: color, lineWidth: lineWidth, alpha: alpha)
    }

    /// A straight line `lineWidth` wide from `(x1, y1)` to `(x2, y2)`.
    public func line(x1: Double, y1: Double, x2: Double, y2: Double, color: Color, lineWidth: Double = 1) {
        segment[0] = Vec2(x1, y1)
        segment[1] = Vec2(x2, y2)
        canvas.strokePolyline(segment, transform: transform, lineWidth: lineWidth, color: color, alpha: alpha)
    }

    /// Terminal text whose `anchor` point (default top-left, like ``fillRect(x:y:width:height:color:)``)
    /// is at `(x, y)`, its lines placed by `align` (nil: by `anchor.x`); see
    /// ``Canvas/drawText(_:transform:anchor:align:color:background:alpha:)``.
    public func text(_ text: String, x: Double, y: Double, color: Color, background: Color = .clear,
                     anchor: Vec2 = .zero, align: TextAlign? = nil) {
        canvas.drawText(text, transform: transform.translatedBy(x, y), anchor: anchor, align: align?.fraction,
                        color: color, background: background, alpha: alpha)
    }

    /// Big block-font text whose `anchor` point (default centre) is at `(x, y)`, scaled by
    /// `scale`, its lines placed by `align` (nil: by `anchor.x`, as in a ``LabelNode``).
    /// Rendered labels are cached, so redrawing the same counter costs no allocation.
    public func label(_ text: String, x: Double, y: Double, font: BlockFont = .large, color: Color = .white,
                      outline: Color = .clear, anchor: Vec2 = Vec2(0.5, 0.5), align: TextAlign? = nil, scale: Double = 1) {
        let lineAlign = min(max(align?.fraction ?? anchor.x, 0), 1)
        let key = LabelKey(text: text, font: font.name, color: color, outline: outline, align: lineAlign)
        let rendered: (sprite: Sprite, fallbacks: [LabelFallback])
        if let cached = labels[key] {
            rendered = cached
        } else {
            if labels.count >= Graphics.labelCacheLimit {
                labels.removeAll(keepingCapacity: true)
                labelCacheBytes = 0
            }
            rendered = (font.render(text, color: color, outline: outline, align: lineAlign),
                        font.fallbacks(in: text, outlined: outline.a != 0, align: lineAlign))
            labels[key] = rendered
            labelCacheBytes += 4 * rendered.sprite.pixels.count
        }
        canvas.drawLabel(rendered.sprite, fallbacks: rendered.fallbacks, glyphHeight: font.glyphHeight,
                         transform: transform.translatedBy(x, y).scaledBy(scale, scale), anchor: anchor, color: color,
                         alpha: alpha)
    }

    /// Pixel art whose `anchor` point (default centre) is at `(x, y)`, scaled (negative
    /// mirrors), turned clockwise by `rotation` radians and multiplied by `tint`.
    public func sprite(_ sprite: Sprite, x: Double, y: Double, anchor: Vec2 = Vec2(0.5, 0.5),
                       scaleX: Double = 1, scaleY: Double = 1, rotation: Double = 0, tint: Color = .white) {
        let local = AffineTransform(translation: Vec2(x, y), rotation: rotation, scaleX: scaleX, scaleY: scaleY)
        canvas.drawSprite(sprite, transform: transform * local, anchor: anchor, alpha: alpha, tint: tint)
    }
}
