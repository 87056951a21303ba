import ArcadeCore

extension Canvas {
    /// Draws a sprite whose transform neither rotates nor shears (mirrors and scales are
    /// fine): the source column depends only on the canvas column and the source row only on
    /// the canvas row, so both are worked out once per draw instead of once per pixel. Picks
    /// exactly the pixels ``rasterize(_:width:height:transform:alpha:)`` would, because it
    /// evaluates the same expressions.
    ///
    /// Returns false (drawing nothing) when the transform does rotate.
    func blitSprite(_ sprite: Sprite, transform: AffineTransform, alpha: UInt32, tint: Color) -> Bool {
        guard let inv = transform.inverted(), inv.b == 0, inv.c == 0 else { return false }
        guard alpha > 0 else { return true }
        let width = Double(sprite.width)
        let height = Double(sprite.height)
        let p0 = transform.apply(Vec2(0, 0))
        let p3 = transform.apply(Vec2(width, height))
        let minX = min(p0.x, p3.x)
        let maxX = max(p0.x, p3.x)
        let minY = min(p0.y, p3.y)
        let maxY = max(p0.y, p3.y)
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return true }
        let bias = Canvas.sampleBias
        guard let (x0, x1) = Canvas.pixelRange(minX, maxX, min: clip.x0, max: clip.x1),
              let (y0, y1) = Canvas.pixelRange(minY, maxY, min: clip.y0, max: clip.y1) else { return true }
        let last = x1 - x0
        let wx = Double(x0) + 0.5 - bias
        // The row's first pixel, as in the general loop; `inv.c * wy` is zero here.
        let u0 = inv.a * wx + 0 + inv.tx
        let (lo, hi) = Canvas.span(start: u0, step: inv.a, limit: width, last: last)
        guard lo <= hi else { return true }
        if columnMap.count < self.width { columnMap = Array(repeating: -1, count: self.width) }
        let stride = self.width
        let spriteStride = sprite.width
        let tinted = tint != .white
        drawSerial &+= 1
        let serial = drawSerial
        let cols = columns
        let glyphs = hasText
        columnMap.withUnsafeMutableBufferPointer { map in
            for i in lo...hi {
                let u = u0 + inv.a * Double(i)
                map[i] = u >= 0 && u < width ? Int32(Int(u)) : -1
            }
            let map = UnsafeBufferPointer(map)
            sprite.pixels.withUnsafeBufferPointer { src in
                pixels.withUnsafeMutableBufferPointer { buf in
                    for py in y0...y1 {
                        let wy = Double(py) + 0.5 - bias
                        let v = inv.b * wx + inv.d * wy + inv.ty
                        guard v >= 0, v < height else { continue }
                        let srcRow = Int(v) &* spriteStride
                        let row = py &* stride &+ x0
                        if glyphs, mayCoverGlyphs(x0: x0 + lo, x1: x0 + hi, pixelRow: py) {
                            blitRowOverGlyphs(src, from: srcRow, map: map, lo: lo, hi: hi, into: buf, at: row,
                                              cellRow: (py >> 1) &* cols &+ x0, tint: tinted ? tint : nil,
                                              alpha: alpha, serial: serial)
                            continue
                        }
                        if tinted || alpha != 255 {
                            for i in lo...hi {
                                let column = Int(map[i])
                                if column < 0 { continue }
                                let c = src[srcRow &+ column]
                                Canvas.blend(tinted ? PixelBlend.multiply(c, tint) : c, alpha: alpha, into: buf, at: row &+ i)
                            }
                            continue
                        }
                        // The common case: art as drawn, fully opaque node.
                        for i in lo...hi {
                            let column = Int(map[i])
                            if column < 0 { continue }
                            let c = src[srcRow &+ column]
                            if c.a == 255 {
                                buf[row &+ i] = c
                            } else if c.a != 0 {
                                buf[row &+ i] = PixelBlend.over(c, buf[row &+ i], alpha: UInt32(c.a))
                            }
                        }
                    }
                }
            }
        }
        return true
    }

    /// One row of ``blitSprite(_:transform:alpha:tint:)`` over cells that may hold glyphs,
    /// which it covers; kept out of line so the common loop stays small.
    @inline(never) func blitRowOverGlyphs(
        _ src: UnsafeBufferPointer<Color>, from srcRow: Int, map: UnsafeBufferPointer<Int32>, lo: Int, hi: Int,
        into buf: UnsafeMutableBufferPointer<Color>, at row: Int, cellRow: Int, tint: Color?, alpha: UInt32, serial: UInt32
    ) {
        textCells.withUnsafeMutableBufferPointer { cells in
            for i in lo...hi {
                let column = Int(map[i])
                if column < 0 { continue }
                let c = src[srcRow &+ column]
                Canvas.blend(tint.map { PixelBlend.multiply(c, $0) } ?? c, alpha: alpha, into: buf, at: row &+ i,
                             cells: cells, cell: cellRow &+ i, serial: serial)
            }
        }
    }
}
