import ArcadeCore

/// Where one edge of a polygon crosses a pixel row: its x on the canvas, and +1 when the edge
/// runs down the canvas, -1 when it runs up.
struct PolygonCrossing {
    var x: Double
    var direction: Int
}

/// A stretch `lo...hi` of a pixel row, in canvas x, where pixel centres lie on a polygon's
/// border band.
struct PolygonBand {
    var lo: Double
    var hi: Double
}

/// What the polygon rasterizer reuses from draw to draw, so that filling allocates nothing
/// once its arrays have grown to the largest polygon drawn.
struct PolygonScratch {
    /// The polygon's points on the canvas.
    var vertices: [Vec2] = []
    /// The crossings of the row being filled, sorted by x.
    var crossings: [PolygonCrossing] = []
    /// The border bands of the row being filled, sorted and merged.
    var bands: [PolygonBand] = []
}

extension Canvas {
    /// Fills the polygon through `points` (local units; the last point joins the first) with
    /// `fill`, inside a border of `stroke` `lineWidth` wide (local units) along its edges, on
    /// the inside, as rectangles and circles have theirs. `transform` maps the points to
    /// canvas pixels.
    ///
    /// A pixel is inside when its centre is, by the nonzero winding rule: a polygon that
    /// crosses itself (a five-pointed star drawn in one stroke) is filled wherever its outline
    /// winds round, its middle included. It is on the border when its centre is also within
    /// `lineWidth` of an edge. The fill is worked out row by row from where the edges cross
    /// the row (the cost grows with edges times rows, not with the area), and every pixel is
    /// drawn once, so a translucent polygon is evenly translucent.
    public func drawPolygon(
        _ points: [Vec2], transform: AffineTransform, fill: Color, stroke: Color = .clear,
        lineWidth: Double = 1, alpha: Double = 1
    ) {
        let weight = PixelBlend.weight(alpha)
        let bordered = stroke.a != 0 && lineWidth > 0 && lineWidth.isFinite
        guard points.count >= 3, weight > 0, fill.a != 0 || bordered,
              let inverse = transform.inverted() else { return }
        var scratch = PolygonScratch()
        swap(&scratch, &polygonScratch)
        defer { swap(&scratch, &polygonScratch) }
        scratch.vertices.removeAll(keepingCapacity: true)
        var minX = Double.infinity, minY = Double.infinity
        var maxX = -Double.infinity, maxY = -Double.infinity
        for p in points {
            let q = transform.apply(p)
            scratch.vertices.append(q)
            minX = min(minX, q.x)
            maxX = max(maxX, q.x)
            minY = min(minY, q.y)
            maxY = max(maxY, q.y)
        }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite,
              let (y0, y1) = Canvas.pixelRange(minY, maxY, min: clip.y0, max: clip.y1),
              Canvas.pixelRange(minX, maxX, min: clip.x0, max: clip.x1) != nil else { return }
        // How far, up or down the canvas, the border band reaches from an edge.
        let reachY = bordered ? lineWidth * (transform.b * transform.b + transform.d * transform.d).squareRoot() : 0
        drawSerial &+= 1
        let serial = drawSerial
        let glyphs = hasText
        let stride = width
        let buf = pixels
        let count = scratch.vertices.count
        for py in y0...y1 {
            let ys = Double(py) + 0.5 - Canvas.sampleBias
            scratch.crossings.removeAll(keepingCapacity: true)
            var previous = scratch.vertices[count - 1]
            for i in 0..<count {
                let v = scratch.vertices[i]
                // Half-open in y, so a vertex on the row counts once and a level edge never.
                if (previous.y <= ys) != (v.y <= ys) {
                    let x = previous.x + (ys - previous.y) * (v.x - previous.x) / (v.y - previous.y)
                    scratch.crossings.append(PolygonCrossing(x: x, direction: v.y > previous.y ? 1 : -1))
                }
                previous = v
            }
            guard scratch.crossings.count >= 2 else { continue }
            Canvas.sortByX(&scratch.crossings)
            if bordered {
                Canvas.borderBands(points, scratch.vertices, &scratch.bands, row: ys, reachY: reachY,
                                   inverse: inverse, lineWidth: lineWidth)
            }
            let row = py &* stride
            let cellRow = (py >> 1) &* columns
            var band = 0
            var winding = 0
            for k in 0..<(scratch.crossings.count - 1) {
                winding += scratch.crossings[k].direction
                guard winding != 0,
                      let (lo, hi) = Canvas.pixelRange(scratch.crossings[k].x, scratch.crossings[k + 1].x,
                                                       min: clip.x0, max: clip.x1, exact: true) else { continue }
                @inline(__always) func color(_ px: Int) -> Color {
                    guard bordered else { return fill }
                    let xs = Double(px) + 0.5 - Canvas.sampleBias
                    while band < scratch.bands.count, scratch.bands[band].hi < xs { band += 1 }
                    return band < scratch.bands.count && scratch.bands[band].lo <= xs ? stroke : fill
                }
                if glyphs, mayCoverGlyphs(x0: lo, x1: hi, pixelRow: py) {
                    textCells.withUnsafeMutableBufferPointer { cells in
                        for px in lo...hi {
                            Canvas.blend(color(px), alpha: weight, into: buf, at: row &+ px,
                                         cells: cells, cell: cellRow &+ px, serial: serial)
                        }
                    }
                    continue
                }
                for px in lo...hi {
                    Canvas.blend(color(px), alpha: weight, into: buf, at: row &+ px)
                }
            }
        }
    }

    /// Sorts a row's crossings by x: by insertion for the few of most rows, by the library's
    /// sort beyond that.
    @inline(__always) static func sortByX(_ crossings: inout [PolygonCrossing]) {
        if crossings.count > 16 {
            crossings.sort { $0.x < $1.x }
            return
        }
        for i in 1..<crossings.count {
            let c = crossings[i]
            var j = i
            while j > 0, crossings[j - 1].x > c.x {
                crossings[j] = crossings[j - 1]
                j -= 1
            }
            crossings[j] = c
        }
    }

    /// The stretches of the pixel row at canvas `y = row` whose points lie within
    /// `lineWidth` (local units) of an edge of the polygon through `points` (local units;
    /// `vertices` are the same points on the canvas), sorted and merged into `bands`.
    ///
    /// The points within reach of one edge form a capsule (a band along the edge with a
    /// round cap at each end); its image on the canvas is convex, so the row meets it in one
    /// stretch, found in local space: the row's points are `P(t) = P0 + t D` for canvas
    /// x = `t`, and both the band and the caps give conditions on `t`.
    static func borderBands(_ points: [Vec2], _ vertices: [Vec2], _ bands: inout [PolygonBand], row: Double,
                            reachY: Double, inverse: AffineTransform, lineWidth: Double) {
        bands.removeAll(keepingCapacity: true)
        let d = Vec2(inverse.a, inverse.b)
        let p0 = Vec2(inverse.c * row + inverse.tx, inverse.d * row + inverse.ty)
        let dd = d.dot(d)
        let count = points.count
        var j = count - 1
        for i in 0..<count {
            defer { j = i }
            let top = min(vertices[j].y, vertices[i].y) - reachY
            let bottom = max(vertices[j].y, vertices[i].y) + reachY
            guard row >= top, row <= bottom else { continue }
            let a = points[j]
            let b = points[i]
            var lo = Double.infinity
            var hi = -Double.infinity
            // The round caps: |P(t) - end| <= lineWidth, a quadratic in t.
            @inline(__always) func cap(_ end: Vec2) {
                let w = p0 - end
                let half = d.dot(w)
                let disc = half * half - dd * (w.dot(w) - lineWidth * lineWidth)
                guard disc >= 0 else { return }
                let root = disc.squareRoot()
                lo = min(lo, (-half - root) / dd)
                hi = max(hi, (-half + root) / dd)
            }
            cap(a)
            cap(b)
            let e = b - a
            let length2 = e.dot(e)
            if length2 > 0 {
                let length = length2.squareRoot()
                let w = p0 - a
                // Along the edge: 0...1 of its length; across it: within lineWidth.
                if let along = solve(w.dot(e) / length2, d.dot(e) / length2, 0, 1),
                   let across = solve(e.cross(w) / length, e.cross(d) / length, -lineWidth, lineWidth) {
                    let l = max(along.0, across.0)
                    let h = min(along.1, across.1)
                    if l <= h {
                        lo = min(lo, l)
                        hi = max(hi, h)
                    }
                }
            }
            if lo <= hi { bands.append(PolygonBand(lo: lo, hi: hi)) }
        }
        guard bands.count > 1 else { return }
        bands.sort { $0.lo < $1.lo }
        var merged = 0
        for k in 1..<bands.count {
            if bands[k].lo <= bands[merged].hi {
                bands[merged].hi = max(bands[merged].hi, bands[k].hi)
            } else {
                merged += 1
                bands[merged] = bands[k]
            }
        }
        bands.removeLast(bands.count - merged - 1)
    }

    /// The `t` for which `c0 + c1 t` lies in `lo...hi`: nil when none does, every `t` when
    /// `c1` is (next to) zero and `c0` in range.
    @inline(__always) private static func solve(_ c0: Double, _ c1: Double, _ lo: Double, _ hi: Double) -> (Double, Double)? {
        if abs(c1) < 1e-12 {
            return c0 >= lo && c0 <= hi ? (-Double.infinity, Double.infinity) : nil
        }
        let t0 = (lo - c0) / c1
        let t1 = (hi - c0) / c1
        return t0 <= t1 ? (t0, t1) : (t1, t0)
    }

    /// The winding number of the polygon through `points` around `p`, counted as the fill
    /// counts it (the crossings of the row through `p` at or left of it): nonzero inside.
    public static func polygonWinding(_ points: [Vec2], around p: Vec2) -> Int {
        guard let last = points.last else { return 0 }
        var winding = 0
        var previous = last
        for v in points {
            if (previous.y <= p.y) != (v.y <= p.y) {
                let x = previous.x + (p.y - previous.y) * (v.x - previous.x) / (v.y - previous.y)
                if x <= p.x { winding += v.y > previous.y ? 1 : -1 }
            }
            previous = v
        }
        return winding
    }
}
