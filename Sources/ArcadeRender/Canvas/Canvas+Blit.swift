import ArcadeCore
import CRaster

extension Canvas {
    /// Draws a sprite whose transform neither rotates nor shears (mirrors and scales are
    /// fine): the fast path for thousands of small sprites (a coin shower).
    ///
    /// Unturned, the source column depends only on the canvas column and the source row only
    /// on the canvas row, so both are worked out once per draw (a column map and one lookup
    /// per row) instead of once per pixel, and the inner loop copies pixels along integer
    /// spans. A sprite entirely off the canvas or outside the clip is dropped after its
    /// bounds, before any other work; nothing is allocated.
    ///
    /// Picks exactly the pixels ``rasterize(_:width:height:transform:alpha:)`` would, because
    /// it evaluates the same expressions (tests compare the two on random placements).
    /// Returns false (drawing nothing) when the transform does rotate or shear.
    ///
    /// Art of opaque and clear pixels only, drawn fully opaque and untinted with no text on
    /// the canvas (most sprites of a busy scene), goes to the kernel in `CRaster`
    /// (``arcade_blit_unturned``): the same arithmetic, in vector lanes, with no branch per
    /// pixel.
    func blitSprite(_ sprite: SpritePixels, transform t: AffineTransform, alpha: UInt32, tint: Color) -> Bool {
        guard t.b == 0, t.c == 0 else { return false }
        guard alpha > 0 else { return true }
        #if arch(x86_64)
        if alpha == 255, !hasText, let kernel = KernelSprite(sprite, tint: tint) {
            return runKernel(kernel, a: t.a, d: t.d, tx: t.tx, ty: t.ty)
        }
        #endif
        let width = Double(sprite.width)
        let height = Double(sprite.height)
        // Culling first: the box's corners, as the general path finds them.
        let p0 = t.apply(Vec2(0, 0))
        let p3 = t.apply(Vec2(width, height))
        let minX = min(p0.x, p3.x)
        let maxX = max(p0.x, p3.x)
        let minY = min(p0.y, p3.y)
        let maxY = max(p0.y, p3.y)
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return true }
        let x0 = Canvas.firstPixel(minX, min: clip.x0, max: clip.x1)
        let x1 = Canvas.lastPixel(maxX, min: clip.x0, max: clip.x1)
        guard x0 <= x1 else { return true }
        let y0 = Canvas.firstPixel(minY, min: clip.y0, max: clip.y1)
        let y1 = Canvas.lastPixel(maxY, min: clip.y0, max: clip.y1)
        guard y0 <= y1 else { return true }
        // The inverse, term for term as ``AffineTransform/inverted()`` computes it, and the
        // general path's test for "not turned" on it.
        let det = t.a * t.d - t.b * t.c
        guard det != 0, det.isFinite else { return false }
        let k = 1 / det
        let ia = t.d * k, ib = -t.b * k, ic = -t.c * k, id = t.a * k
        let itx = (t.c * t.ty - t.d * t.tx) * k
        let ity = (t.b * t.tx - t.a * t.ty) * k
        guard ib == 0, ic == 0 else { return false }
        // Below this step the general path's window is exact only for the span it computes.
        guard abs(ia) >= 1e-6 else { return false }
        let bias = Canvas.sampleBias
        let wx = Double(x0) + 0.5 - bias
        // The row's first pixel, as in the general loop; `inv.c * wy` is zero here.
        let u0 = ia * wx + 0 + itx
        // Source column per canvas column. `u` is monotonic along the row (the same rounded
        // products and sums of ever larger `i`), so the columns inside the sprite are one
        // run: those left of it form a prefix (`u < 0` when the sprite is not mirrored) and
        // those right of it a suffix. Counting both finds the run with the general path's
        // test, with no branch that depends on where the sprite lies.
        let map = columnMap
        let last = x1 - x0
        let (below, beyond) = Canvas.mapColumns(into: map, last: last, u0: u0, step: ia, width: width)
        let lo = ia > 0 ? below : beyond
        let hi = last &- (ia > 0 ? beyond : below)
        guard lo <= hi else { return true }
        let rows = SpriteRows(y0: y0, y1: y1, wx: wx, ib: ib, id: id, ity: ity, height: height)
        let tinted = tint.r & tint.g & tint.b & tint.a != 255
        if tinted || alpha != 255 || hasText {
            blitRows(sprite, rows, x0: x0, lo: lo, hi: hi, alpha: alpha, tint: tinted ? tint : nil)
            return true
        }
        // The common case, art as drawn on a fully opaque node with no text about: pixels
        // as words (`Color` is four bytes, r g b a, so alpha is the top byte).
        let src = UnsafeRawPointer(sprite.pixels.baseAddress!)
        let dst = UnsafeMutableRawPointer(pixels.baseAddress!)
        let stride = self.width
        let spriteStride = sprite.width
        var py = y0
        while py <= y1 {
            defer { py &+= 1 }
            guard let sourceRow = rows.sourceRow(py) else { continue }
            let srcRow = sourceRow &* spriteStride
            let row = py &* stride &+ x0
            var i = lo
            while i <= hi {
                let at = srcRow &+ Int(map[i])
                let c = src.load(fromByteOffset: at &* 4, as: UInt32.self)
                if c >= 0xFF00_0000 {
                    dst.storeBytes(of: c, toByteOffset: (row &+ i) &* 4, as: UInt32.self)
                } else if c >= 0x0100_0000 {
                    pixels[row &+ i] = PixelBlend.over(sprite.pixels[at], pixels[row &+ i], alpha: c >> 24)
                }
                i &+= 1
            }
        }
        return true
    }

    /// ``drawSprite(_:transform:anchor:alpha:tint:)`` for the common case of a busy scene,
    /// when it applies: an unturned sprite of opaque and clear pixels (``KernelSprite``),
    /// fully opaque and untinted, with no text on the canvas. Returns false, drawing nothing,
    /// otherwise.
    ///
    /// The content transform is the one ``drawSprite(_:transform:anchor:alpha:tint:)`` works
    /// out (`transform.translatedBy(-anchor.x * w, -anchor.y * h)`) with its zero terms left
    /// out, which changes at most the sign of a zero.
    @inline(__always) func blitUnturned(_ sprite: KernelSprite, transform t: AffineTransform, anchor: Vec2,
                                        alpha: Double) -> Bool {
        #if arch(x86_64)
        guard t.b == 0, t.c == 0, alpha >= 1, !hasText else { return false }
        let tx = t.a * (-anchor.x * sprite.width) + t.tx
        let ty = t.d * (-anchor.y * sprite.height) + t.ty
        return runKernel(sprite, a: t.a, d: t.d, tx: tx, ty: ty)
        #else
        return false  // the kernel is written for SSE2; elsewhere the Swift path draws
        #endif
    }

    #if arch(x86_64)
    /// Draws the sprites of `run` (all of one art, each unturned and fully opaque, with no
    /// text on the canvas: the run checks) from the first not yet drawn, in order, as
    /// ``blitUnturned(_:transform:anchor:alpha:)`` draws each. Stops at the first the kernel
    /// leaves to the general path and returns its index, or `run.count` when all are drawn.
    func blitRun(_ run: KernelRun, from first: Int) -> Int {
        guard let art = run.art, first < run.count else { return run.count }
        let sprite = art.pointee
        let done = arcade_blit_unturned_run(sprite.pixels, sprite.columns, sprite.rows, run.placements + 4 * first,
                                            Int64(run.count - first), blitTarget)
        return first + Int(done)
    }

    /// ``arcade_blit_unturned`` on this canvas (unturned, fully opaque, no text on the canvas
    /// it could cover: callers check); false when the general path must draw it.
    @inline(__always) private func runKernel(_ sprite: KernelSprite, a: Double, d: Double, tx: Double, ty: Double) -> Bool {
        arcade_blit_unturned(sprite.pixels, sprite.columns, sprite.rows, a, d, tx, ty, blitTarget) == ARCADE_BLIT_DONE
    }
    #endif

    /// The rows of ``blitSprite(_:transform:alpha:tint:)`` for everything but the common
    /// case: a tint, a node alpha below 1, or text on the canvas that the sprite may cover.
    @inline(never) private func blitRows(_ sprite: SpritePixels, _ rows: SpriteRows, x0: Int, lo: Int, hi: Int,
                                         alpha: UInt32, tint: Color?) {
        let map = columnMap
        let stride = self.width
        drawSerial &+= 1
        let serial = drawSerial
        let buf = pixels
        let src = sprite.pixels
        for py in rows.y0...rows.y1 {
            guard let sourceRow = rows.sourceRow(py) else { continue }
            let srcRow = sourceRow &* sprite.width
            let row = py &* stride &+ x0
            if hasText, mayCoverGlyphs(x0: x0 + lo, x1: x0 + hi, pixelRow: py) {
                blitRowOverGlyphs(src, from: srcRow, map: UnsafeBufferPointer(start: map, count: hi &+ 1), lo: lo,
                                  hi: hi, into: buf, at: row, cellRow: (py >> 1) &* columns &+ x0,
                                  tint: tint, alpha: alpha, serial: serial)
                continue
            }
            for i in lo...hi {
                let c = src[srcRow &+ Int(map[i])]
                Canvas.blend(tint.map { PixelBlend.multiply(c, $0) } ?? c, alpha: alpha, into: buf, at: row &+ i)
            }
        }
    }

    /// ``pixelRange(_:_:min:max:exact:)``'s first pixel: `floor(x - 0.5 + bias)` clamped to
    /// `min...max + 1`, with a floor that needs no library call once `x` is known to be in
    /// range. `x` must be finite.
    @inline(__always) static func firstPixel(_ x: Double, min: Int, max: Int) -> Int {
        // Clamped first (no branch on where the sprite is), then floored: truncation
        // rounds up below zero, so one step back when it did.
        let f = x - 0.5 + sampleBias
        let lo = Double(min), hi = Double(max) + 1
        return floor(f < lo ? lo : f > hi ? hi : f)
    }

    /// ``pixelRange(_:_:min:max:exact:)``'s last pixel: `ceil(x - 0.5 + bias)` clamped to
    /// `min - 1...max`. `x` must be finite.
    @inline(__always) static func lastPixel(_ x: Double, min: Int, max: Int) -> Int {
        let f = x - 0.5 + sampleBias
        let lo = Double(min) - 1, hi = Double(max)
        return Int(arcade_ceil(f < lo ? lo : f > hi ? hi : f))
    }

    /// Fills `map[0...last]` with the source column of each canvas column of a sprite row
    /// (`u0 + step * i`, rounded down, clamped into `0..<width` so every entry is a column
    /// the sprite has). Returns how many of `0...last` fall before the sprite (`u < 0`) and
    /// after it (`u >= width`).
    @inline(__always) static func mapColumns(into map: UnsafeMutablePointer<Int32>, last: Int, u0: Double, step: Double,
                                             width: Double) -> (Int, Int) {
        let limit = width - 1
        var below = 0
        var beyond = 0
        var i = 0
        repeat {
            let u = u0 + step * Double(i)
            below &+= u < 0 ? 1 : 0
            beyond &+= u >= width ? 1 : 0
            // Clamped before converting, so every entry is a valid column (only the run's
            // entries are read, and inside it the clamp changes nothing).
            map[i] = arcade_truncate(u < 0 ? 0 : u > limit ? limit : u)
            i &+= 1
        } while i <= last
        return (below, beyond)
    }

    /// `x` rounded down, for finite `|x| < 2^31`: with no range check and no library call,
    /// unlike `Int(x.rounded(.down))`, which matters where a small sprite needs a dozen.
    @inline(__always) static func floor(_ x: Double) -> Int {
        Int(arcade_floor(x))
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

/// A sprite the canvas's kernel draws as it is: art of opaque and clear pixels, not empty,
/// shown untinted (``Canvas/blitUnturned(_:transform:anchor:alpha:)``). A sprite node
/// keeps one while it shows such a still frame, so drawing it checks nothing else.
struct KernelSprite {
    let pixels: UnsafePointer<UInt32>
    let columns: Int64
    let rows: Int64
    let width: Double
    let height: Double

    /// The kernel's view of `sprite` drawn with `tint`, or nil when the kernel does not draw it.
    init?(_ sprite: SpritePixels, tint: Color) {
        guard sprite.isOpaqueOrClear, tint.r & tint.g & tint.b & tint.a == 255, sprite.width > 0, sprite.height > 0,
              let base = sprite.pixels.baseAddress else { return nil }
        pixels = UnsafeRawPointer(base).assumingMemoryBound(to: UInt32.self)
        columns = Int64(sprite.width)
        rows = Int64(sprite.height)
        width = Double(sprite.width)
        height = Double(sprite.height)
    }
}

/// A sprite's pixels as the canvas reads them while drawing: borrowed from a ``Sprite`` (or
/// a flipbook frame) for the length of one draw, so drawing takes no reference to them.
struct SpritePixels {
    let pixels: UnsafeBufferPointer<Color>
    let width: Int
    let height: Int
    /// True when every pixel is fully opaque or fully clear (most pixel art): drawn
    /// unblended, such a sprite needs no blending and no branch per pixel.
    let isOpaqueOrClear: Bool

    @inline(__always) init(_ pixels: UnsafeBufferPointer<Color>, width: Int, height: Int, isOpaqueOrClear: Bool = false) {
        self.pixels = pixels
        self.width = width
        self.height = height
        self.isOpaqueOrClear = isOpaqueOrClear
    }

    /// True when every pixel of `pixels` has alpha 0 or 255.
    static func opaqueOrClear(_ pixels: UnsafeBufferPointer<Color>) -> Bool {
        pixels.allSatisfy { $0.a == 0 || $0.a == 255 }
    }
}

/// Which sprite row each canvas row of an unturned sprite shows, as the general path works
/// it out: the same expression for the row's pixel centre, mapped back.
struct SpriteRows {
    let y0: Int
    let y1: Int
    let wx: Double
    let ib: Double
    let id: Double
    let ity: Double
    let height: Double

    /// The sprite row canvas row `py` shows, or nil when it shows none.
    @inline(__always) func sourceRow(_ py: Int) -> Int? {
        let wy = Double(py) + 0.5 - Canvas.sampleBias
        let v = ib * wx + id * wy + ity
        guard v >= 0, v < height else { return nil }
        return Canvas.floor(v)
    }
}
