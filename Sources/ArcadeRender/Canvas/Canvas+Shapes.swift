import ArcadeCore

extension Canvas {
    /// Draws pixel art. `transform` maps the node's local space to canvas pixels; the sprite's
    /// `anchor` point (0...1 of its size, `(0.5, 0.5)` = centre) sits at the local origin.
    /// Sampling is nearest-neighbour, each pixel alpha-blended with its own alpha times `alpha`;
    /// `tint` multiplies every colour (white leaves it unchanged).
    public func drawSprite(
        _ sprite: Sprite, transform: AffineTransform, anchor: Vec2 = Vec2(0.5, 0.5),
        alpha: Double = 1, tint: Color = .white
    ) {
        // The view is valid while `sprite` is, for the whole call.
        withExtendedLifetime(sprite) {
            drawSprite(sprite.view, transform: transform, anchor: anchor, alpha: alpha, tint: tint)
        }
    }

    /// ``drawSprite(_:transform:anchor:alpha:tint:)`` on pixels the caller holds.
    @inline(__always)
    func drawSprite(_ sprite: SpritePixels, transform: AffineTransform, anchor: Vec2, alpha: Double, tint: Color) {
        guard sprite.width > 0, sprite.height > 0 else { return }
        let w = Double(sprite.width)
        let h = Double(sprite.height)
        let content = transform.translatedBy(-anchor.x * w, -anchor.y * h)
        let weight = PixelBlend.weight(alpha)
        if blitSprite(sprite, transform: content, alpha: weight, tint: tint) { return }
        drawSpriteGeneral(sprite, transform: content, alpha: weight, tint: tint)
    }

    /// The general path for sprites (any transform): the rasterizer with a sprite shader.
    /// `transform` places the sprite's top-left corner.
    @inline(never)
    func drawSpriteGeneral(_ sprite: SpritePixels, transform: AffineTransform, alpha: UInt32, tint: Color) {
        let w = Double(sprite.width)
        let h = Double(sprite.height)
        if tint == .white {
            rasterize(SpriteShader(pixels: sprite.pixels, stride: sprite.width), width: w, height: h, transform: transform,
                      alpha: alpha)
        } else {
            rasterize(TintedSpriteShader(pixels: sprite.pixels, stride: sprite.width, tint: tint), width: w, height: h,
                      transform: transform, alpha: alpha)
        }
    }

    /// Draws a rectangle `width x height` in local units, filled with `fill` and bordered with
    /// `stroke` `lineWidth` wide inside its edge (either may be transparent).
    public func drawRect(
        width: Double, height: Double, transform: AffineTransform, anchor: Vec2 = Vec2(0.5, 0.5),
        fill: Color, stroke: Color = .clear, lineWidth: Double = 1, alpha: Double = 1
    ) {
        let content = transform.translatedBy(-anchor.x * width, -anchor.y * height)
        let weight = PixelBlend.weight(alpha)
        if stroke.a == 0 || lineWidth <= 0 {
            guard fill.a != 0 else { return }
            rasterize(SolidShader(fill: fill), width: width, height: height, transform: content, alpha: weight)
        } else {
            let shader = FramedRectShader(fill: fill, stroke: stroke, lineWidth: lineWidth, width: width, height: height)
            rasterize(shader, width: width, height: height, transform: content, alpha: weight)
        }
    }

    /// Draws the ellipse inscribed in a `width x height` box (a circle when they are equal),
    /// filled with `fill` and ringed with `stroke` `lineWidth` wide inside its edge.
    ///
    /// A pixel is covered when its centre lies inside the ellipse or on its edge, and is on the
    /// ring when its centre is also on or outside the ring's inner edge, so a circle is
    /// mirror-symmetric about its centre wherever it is: centred on a pixel, a disc of radius
    /// 1 is a plus of five pixels. See ``EllipseCoverage``.
    public func drawEllipse(
        width: Double, height: Double, transform: AffineTransform, anchor: Vec2 = Vec2(0.5, 0.5),
        fill: Color, stroke: Color = .clear, lineWidth: Double = 1, alpha: Double = 1
    ) {
        guard fill.a != 0 || stroke.a != 0 else { return }
        // The centre straight from the transform rather than through the box's corner, so a
        // circle placed on a pixel centre or corner is exactly there.
        let centre = transform.apply(Vec2((0.5 - anchor.x) * width, (0.5 - anchor.y) * height))
        rasterizeEllipse(centre: centre, radiusX: width / 2, radiusY: height / 2, transform: transform,
                         fill: fill, stroke: stroke, lineWidth: lineWidth, alpha: PixelBlend.weight(alpha))
    }

    /// Strokes the path through `points` (local units) `lineWidth` wide with butt ends, showing
    /// only the part between the fractions `strokeStart` and `strokeEnd` of its length (Core
    /// Animation's `strokeStart` / `strokeEnd`: a line that draws itself animates `strokeEnd`
    /// from 0 to 1).
    ///
    /// Each segment is drawn on its own, so with `alpha < 1` the pixels where two segments
    /// meet are blended twice.
    public func strokePolyline(
        _ points: [Vec2], transform: AffineTransform, lineWidth: Double, color: Color,
        strokeStart: Double = 0, strokeEnd: Double = 1, alpha: Double = 1
    ) {
        guard points.count >= 2, lineWidth > 0, color.a != 0 else { return }
        let weight = PixelBlend.weight(alpha)
        guard weight > 0 else { return }
        var total = 0.0
        for i in 1..<points.count { total += (points[i] - points[i - 1]).length }
        guard total > 0, total.isFinite else { return }
        let from = clamp(strokeStart, 0, 1) * total
        let to = clamp(strokeEnd, 0, 1) * total
        guard to > from else { return }
        let shader = SolidShader(fill: color)
        var walked = 0.0
        for i in 1..<points.count {
            let p = points[i - 1]
            let delta = points[i] - p
            let length = delta.length
            defer { walked += length }
            guard length > 0 else { continue }
            let lo = max(from, walked) - walked
            let hi = min(to, walked + length) - walked
            guard hi > lo else { continue }
            let ux = delta.x / length
            let uy = delta.y / length
            let start = p + Vec2(ux * lo, uy * lo)
            // The segment's own frame: x along it, y across it, centred on the path.
            let along = AffineTransform(a: ux, b: uy, c: -uy, d: ux, tx: start.x, ty: start.y)
            let content = (transform * along).translatedBy(0, -lineWidth / 2)
            rasterize(shader, width: hi - lo, height: lineWidth, transform: content, alpha: weight)
        }
    }
}
