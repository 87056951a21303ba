import ArcadeCore

/// What a shape looks like inside its own content box `[0, width) x [0, height)`.
///
/// The rasterizer maps each canvas pixel centre back into that box (inverse mapping), so
/// every shape gets mirror, scale and rotation from the same loop. Shaders are generic
/// parameters, so each one is specialised into its own loop with no dynamic dispatch.
protocol RasterShader {
    /// The colour at content point `(u, v)`; alpha 0 draws nothing.
    func color(u: Double, v: Double) -> Color
}

/// One colour everywhere: filled rectangles and line segments.
struct SolidShader: RasterShader {
    let fill: Color
    @inline(__always) func color(u: Double, v: Double) -> Color { fill }
}

/// A rectangle with a border `lineWidth` wide inside its edge.
struct FramedRectShader: RasterShader {
    let fill: Color
    let stroke: Color
    let lineWidth: Double
    let width: Double
    let height: Double

    @inline(__always) func color(u: Double, v: Double) -> Color {
        if u < lineWidth || v < lineWidth || u >= width - lineWidth || v >= height - lineWidth {
            return stroke
        }
        return fill
    }
}

/// Pixel art, sampled nearest-neighbour.
struct SpriteShader: RasterShader {
    let pixels: UnsafeBufferPointer<Color>
    let stride: Int

    @inline(__always) func color(u: Double, v: Double) -> Color {
        pixels[Int(v) &* stride &+ Int(u)]
    }
}

/// Pixel art multiplied by a tint colour (a hit flash, a darker copy).
struct TintedSpriteShader: RasterShader {
    let pixels: UnsafeBufferPointer<Color>
    let stride: Int
    let tint: Color

    @inline(__always) func color(u: Double, v: Double) -> Color {
        PixelBlend.multiply(pixels[Int(v) &* stride &+ Int(u)], tint)
    }
}

extension Canvas {
    /// Pixel centres are nudged by this much (left and up) before sampling, so a shape edge
    /// that falls exactly on a centre is decided the same way whichever way the shape faces:
    /// a mirrored sprite covers the same pixels as the original. Nudging towards the origin
    /// puts a 1-wide line at `y = 5` on pixel row 5, and a 3-wide sprite centred on `x = 4`
    /// on pixels 3...5. A power of two keeps the nudged centres exact.
    static let sampleBias = 1.0 / 65536

    /// Draws `shader` over its content box `[0, width) x [0, height)`, placed on the canvas by
    /// `transform` (content space to pixels), with an extra opacity `alpha` (0...255).
    func rasterize<S: RasterShader>(
        _ shader: S, width: Double, height: Double, transform: AffineTransform, alpha: UInt32
    ) {
        guard alpha > 0, width > 0, height > 0, let inv = transform.inverted() else { return }
        let p0 = transform.apply(Vec2(0, 0))
        let p1 = transform.apply(Vec2(width, 0))
        let p2 = transform.apply(Vec2(0, height))
        let p3 = transform.apply(Vec2(width, height))
        let minX = min(min(p0.x, p1.x), min(p2.x, p3.x))
        let maxX = max(max(p0.x, p1.x), max(p2.x, p3.x))
        let minY = min(min(p0.y, p1.y), min(p2.y, p3.y))
        let maxY = max(max(p0.y, p1.y), max(p2.y, p3.y))
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return }
        let bias = Canvas.sampleBias
        guard let (x0, x1) = Canvas.pixelRange(minX, maxX, min: clip.x0, max: clip.x1),
              let (y0, y1) = Canvas.pixelRange(minY, maxY, min: clip.y0, max: clip.y1) else { return }
        let stride = self.width
        let last = x1 - x0
        drawSerial &+= 1
        let serial = drawSerial
        let cols = columns
        let glyphs = hasText
        // Not rotated (mirrors and scales included): v is constant along a row and u along a
        // column, so a row is tested once and its source row found once. The arithmetic is
        // the general loop's with the zero terms left in, so both paths pick the same pixels.
        let axisAligned = inv.b == 0 && inv.c == 0
        let buf = pixels
        do {
            for py in y0...y1 {
                let wy = Double(py) + 0.5 - bias
                let wx = Double(x0) + 0.5 - bias
                let u0 = inv.a * wx + inv.c * wy + inv.tx
                let v0 = inv.b * wx + inv.d * wy + inv.ty
                let row = py * stride + x0
                if axisAligned {
                    guard v0 >= 0, v0 < height else { continue }
                    let (lo, hi) = Canvas.span(start: u0, step: inv.a, limit: width, last: last)
                    if lo > hi { continue }
                    if glyphs, mayCoverGlyphs(x0: x0 + lo, x1: x0 + hi, pixelRow: py) {
                        rasterizeRowOverGlyphs(shader, u0: u0, v0: v0, du: inv.a, dv: 0, width: width, height: height,
                                               lo: lo, hi: hi, into: buf, at: row, cellRow: (py >> 1) * cols + x0,
                                               alpha: alpha, serial: serial)
                        continue
                    }
                    for i in lo...hi {
                        let u = u0 + inv.a * Double(i)
                        guard u >= 0, u < width else { continue }
                        Canvas.blend(shader.color(u: u, v: v0), alpha: alpha, into: buf, at: row + i)
                    }
                    continue
                }
                let (ulo, uhi) = Canvas.span(start: u0, step: inv.a, limit: width, last: last)
                let (vlo, vhi) = Canvas.span(start: v0, step: inv.b, limit: height, last: last)
                let lo = max(ulo, vlo)
                let hi = min(uhi, vhi)
                if lo > hi { continue }
                if glyphs, mayCoverGlyphs(x0: x0 + lo, x1: x0 + hi, pixelRow: py) {
                    rasterizeRowOverGlyphs(shader, u0: u0, v0: v0, du: inv.a, dv: inv.b, width: width, height: height,
                                           lo: lo, hi: hi, into: buf, at: row, cellRow: (py >> 1) * cols + x0,
                                           alpha: alpha, serial: serial)
                    continue
                }
                for i in lo...hi {
                    let fi = Double(i)
                    let u = u0 + inv.a * fi
                    let v = v0 + inv.b * fi
                    guard u >= 0, u < width, v >= 0, v < height else { continue }
                    Canvas.blend(shader.color(u: u, v: v), alpha: alpha, into: buf, at: row + i)
                }
            }
        }
    }

    /// One row of ``rasterize(_:width:height:transform:alpha:)`` over cells that may hold
    /// glyphs, which it covers; kept out of line so the common loops stay small. The
    /// arithmetic is the general loop's (with `dv` zero when not rotated).
    @inline(never) func rasterizeRowOverGlyphs<S: RasterShader>(
        _ shader: S, u0: Double, v0: Double, du: Double, dv: Double, width: Double, height: Double,
        lo: Int, hi: Int, into buf: UnsafeMutableBufferPointer<Color>, at row: Int, cellRow: Int,
        alpha: UInt32, serial: UInt32
    ) {
        textCells.withUnsafeMutableBufferPointer { cells in
            for i in lo...hi {
                let fi = Double(i)
                let u = u0 + du * fi
                let v = v0 + dv * fi
                guard u >= 0, u < width, v >= 0, v < height else { continue }
                Canvas.blend(shader.color(u: u, v: v), alpha: alpha, into: buf, at: row + i,
                             cells: cells, cell: cellRow + i, serial: serial)
            }
        }
    }

    /// Blends one shaded colour, weighted by the draw's `alpha`, onto pixel `index`.
    @inline(__always) static func blend(_ c: Color, alpha: UInt32, into buf: UnsafeMutableBufferPointer<Color>, at index: Int) {
        if c.a == 0 { return }
        if c.a == 255 && alpha == 255 {
            buf[index] = c  // already opaque: a plain copy
            return
        }
        let weight = alpha == 255 ? UInt32(c.a) : PixelBlend.div255(UInt32(c.a) &* alpha)
        if weight == 0 { return }
        buf[index] = PixelBlend.over(c, buf[index], alpha: weight)
    }

    /// ``blend(_:alpha:into:at:)`` on a row that may hold glyphs: a glyph in the pixel's cell
    /// is covered too.
    @inline(__always) static func blend(
        _ c: Color, alpha: UInt32, into buf: UnsafeMutableBufferPointer<Color>, at index: Int,
        cells: UnsafeMutableBufferPointer<TextCell>, cell: Int, serial: UInt32
    ) {
        if c.a == 0 { return }
        let weight = alpha == 255 ? UInt32(c.a) : PixelBlend.div255(UInt32(c.a) &* alpha)
        if weight == 0 { return }
        buf[index] = PixelBlend.over(c, buf[index], alpha: weight)
        if cells[cell].scalar != 0 { coverGlyph(cells, cell, c, weight: weight, serial: serial) }
    }

    /// The first and last pixel (inclusive) whose nudged centre can fall in `lo...hi`, with
    /// one pixel of slack for rounding (the per-pixel test is exact), clamped to `min...max`
    /// (the clip) before converting so far-away shapes cannot overflow; nil when none can.
    /// With `exact`, exactly the pixels whose nudged centre lies in `[lo, hi)`: the pixels a
    /// rectangle over that span fills.
    @inline(__always) static func pixelRange(_ lo: Double, _ hi: Double, min: Int, max: Int, exact: Bool = false) -> (Int, Int)? {
        let first0 = exact ? (lo - 0.5 + sampleBias).rounded(.up) : (lo - 0.5 + sampleBias).rounded(.down)
        let last0 = exact ? (hi - 0.5 + sampleBias).rounded(.up) - 1 : (hi - 0.5 + sampleBias).rounded(.up)
        let first = Swift.max(Double(min), Swift.min(Double(max) + 1, first0))
        let last = Swift.min(Double(max), Swift.max(Double(min) - 1, last0))
        guard first <= last else { return nil }
        return (Int(first), Int(last))
    }

    /// The steps `i` in `0...last` for which `start + step * i` may lie in `[0, limit)`, widened
    /// by one step each way so rounding never loses a pixel.
    @inline(__always) static func span(start: Double, step: Double, limit: Double, last: Int) -> (Int, Int) {
        if abs(step) < 1e-12 {
            return start >= 0 && start < limit ? (0, last) : (1, 0)
        }
        var a = (0 - start) / step
        var b = (limit - start) / step
        if a > b { swap(&a, &b) }
        let lo = max(0, min(Double(last) + 1, a.rounded(.down) - 1))
        let hi = min(Double(last), max(-1, b.rounded(.up) + 1))
        return (Int(lo), Int(hi))
    }
}
