import ArcadeCore

/// Which pixels an ellipse covers, decided at their centres against the outline.
///
/// A circle (or an ellipse with level axes) is first placed on the pixel grid: along each
/// axis its centre moves to the nearest pixel centre when its diameter rounds to an odd
/// number of pixels, and to the nearest pixel corner when it rounds to an even number (by at
/// most half a pixel). So a disc keeps one shape wherever it moves, the shape of a disc of
/// its size drawn symmetric about its centre: a ball never grows a nub on one side, and a
/// radius-1 disc is a 2 x 2 block, a radius-2.5 disc rows of 3, 5, 5, 5, 3.
///
/// A pixel is inside when its centre lies in the closed ellipse (on the edge counts), and on
/// the ring when it is also not strictly inside the inner ellipse: the ring is the band
/// between the two edges, both included, and the fill what lies within it. The test uses
/// the centre's offset from the ellipse's centre only through its square (or, for a turned
/// ellipse, through a sign-symmetric form), so a pixel and its mirror image about the centre
/// get the same answer: a circle centred on a pixel centre or corner covers a set of pixels
/// that maps onto itself left-right and up-down, and every ellipse one that maps onto itself
/// through its centre.
///
/// Offsets are `(ox, oy)`: the pixel centre minus the ellipse centre in canvas pixels, or,
/// for a turned or sheared ellipse, that offset taken back into the ellipse's own axes.
/// A point is inside an ellipse of radii `(rx, ry)` when `ry² ox² + rx² oy² <= rx² ry²`, a
/// product form with no division, so where the numbers are short binary fractions (half
/// pixels, whole or half radii) every step is exact and a centre exactly on the outline is
/// never lost to rounding; a circle uses `ox² + oy² <= r²`.
struct EllipseCoverage {
    /// Weights of `ox²` and `oy²`, and the bound their weighted sum may reach, outer ellipse.
    let outerX: Double
    let outerY: Double
    let outerLimit: Double
    /// The same for the inner ellipse (the ring's inside edge); meaningful when ``hasInner``.
    let innerX: Double
    let innerY: Double
    let innerLimit: Double
    /// False when the ring fills the whole ellipse or there is no ring: every pixel inside
    /// takes one colour.
    let hasInner: Bool

    /// Radii `(rx, ry)` of the outer ellipse and `(ix, iy)` of the inner one, in the units
    /// the offsets are measured in; `ix` or `iy` zero or less means no inner ellipse.
    init(rx: Double, ry: Double, ix: Double, iy: Double) {
        (outerX, outerY, outerLimit) = EllipseCoverage.form(rx, ry)
        hasInner = ix > 0 && iy > 0
        (innerX, innerY, innerLimit) = hasInner ? EllipseCoverage.form(ix, iy) : (0, 0, -1)
    }

    /// The weights and bound of an ellipse of radii `(rx, ry)`; a circle keeps the plain
    /// `ox² + oy² <= r²`.
    private static func form(_ rx: Double, _ ry: Double) -> (Double, Double, Double) {
        if rx == ry { return (1, 1, rx * rx) }
        return (ry * ry, rx * rx, (rx * ry) * (rx * ry))
    }

    /// True when offset `(ox, oy)` lies in the closed outer ellipse; `ox2`, `oy2` are the
    /// squared offsets.
    @inline(__always) func insideOuter(_ ox2: Double, _ oy2: Double) -> Bool {
        outerX * ox2 + outerY * oy2 <= outerLimit
    }

    /// True when offset `(ox, oy)` lies strictly inside the inner ellipse (its edge belongs
    /// to the ring).
    @inline(__always) func insideInner(_ ox2: Double, _ oy2: Double) -> Bool {
        innerX * ox2 + innerY * oy2 < innerLimit
    }
}

/// How the ellipse rasterizer measures a pixel's offset from the centre (see
/// ``EllipseCoverage``): on the canvas, or taken back into the ellipse's own axes.
protocol EllipseOffsets {
    /// The pixels of the row `dy` below the centre worth testing, within `x0...x1`; nil when
    /// none is.
    func span(_ coverage: EllipseCoverage, dy: Double, centreX: Double, x0: Int, x1: Int) -> (Int, Int)?
    /// The squared offsets `(ox², oy²)` of the pixel whose centre lies `(dx, dy)` from the
    /// ellipse's centre on the canvas.
    func squares(dx: Double, dy: Double) -> (Double, Double)
}

/// Offsets measured on the canvas: circles (turned or not) and ellipses with level axes.
struct CanvasOffsets: EllipseOffsets {
    @inline(__always)
    func span(_ coverage: EllipseCoverage, dy: Double, centreX: Double, x0: Int, x1: Int) -> (Int, Int)? {
        // The square of the row's half width, to find the span worth testing (with a pixel of
        // slack either side: the test itself decides). Negative only when no pixel of the
        // row is inside: the sign of a difference is never rounded away, and adding `ox²`
        // can only make the sum larger.
        let room = (coverage.outerLimit - coverage.outerY * (dy * dy)) / coverage.outerX
        guard room >= 0 else { return nil }
        let half = room.squareRoot()
        return Canvas.pixelRange(centreX - half, centreX + half, min: x0, max: x1)
    }

    @inline(__always) func squares(dx: Double, dy: Double) -> (Double, Double) { (dx * dx, dy * dy) }
}

/// Offsets taken back into a turned or sheared ellipse's own axes by `inverse` (whose
/// translation is not used); every pixel of the box is tested.
struct EllipseAxesOffsets: EllipseOffsets {
    let inverse: AffineTransform

    @inline(__always)
    func span(_ coverage: EllipseCoverage, dy: Double, centreX: Double, x0: Int, x1: Int) -> (Int, Int)? { (x0, x1) }

    @inline(__always) func squares(dx: Double, dy: Double) -> (Double, Double) {
        let ox = inverse.a * dx + inverse.c * dy
        let oy = inverse.b * dx + inverse.d * dy
        return (ox * ox, oy * oy)
    }
}

extension Canvas {
    /// Draws an ellipse of radii `radiusX`, `radiusY` (local units) centred on `centre`
    /// (canvas pixels), its axes mapped to the canvas by the linear part of `transform`
    /// (its translation is ignored): filled with `fill` inside a ring `lineWidth` wide of
    /// `stroke` (a transparent `stroke` means no ring), weighted by `alpha` (0...255).
    ///
    /// Where the ellipse stays a circle on the canvas (scaled the same both ways, turned or
    /// not) or keeps its axes level (not turned), offsets are measured on the canvas;
    /// otherwise they are taken back into the ellipse's own axes.
    func rasterizeEllipse(
        centre: Vec2, radiusX: Double, radiusY: Double, transform t: AffineTransform,
        fill: Color, stroke: Color, lineWidth: Double, alpha: UInt32
    ) {
        guard alpha > 0, radiusX > 0, radiusY > 0, centre.x.isFinite, centre.y.isFinite else { return }
        let ring = stroke.a == 0 ? 0 : max(0, lineWidth)
        // Half the extent of the ellipse on the canvas, along x and along y.
        let extentX = ((t.a * radiusX) * (t.a * radiusX) + (t.c * radiusY) * (t.c * radiusY)).squareRoot()
        let extentY = ((t.b * radiusX) * (t.b * radiusX) + (t.d * radiusY) * (t.d * radiusY)).squareRoot()
        guard extentX > 0, extentY > 0, extentX.isFinite, extentY.isFinite,
              let (x0, x1) = Canvas.pixelRange(centre.x - extentX, centre.x + extentX, min: clip.x0, max: clip.x1),
              let (y0, y1) = Canvas.pixelRange(centre.y - extentY, centre.y + extentY, min: clip.y0, max: clip.y1)
        else { return }

        let similar = radiusX == radiusY && ((t.a == t.d && t.b == -t.c) || (t.a == -t.d && t.b == t.c))
        if similar || (t.b == 0 && t.c == 0) {
            // Measured on the canvas: the ellipse's radii there.
            let scaleX = similar ? (t.a * t.a + t.b * t.b).squareRoot() : abs(t.a)
            let scaleY = similar ? scaleX : abs(t.d)
            let centre = Vec2(Canvas.gridCentre(centre.x, radius: radiusX * scaleX),
                              Canvas.gridCentre(centre.y, radius: radiusY * scaleY))
            let coverage = ring > 0
                ? EllipseCoverage(rx: radiusX * scaleX, ry: radiusY * scaleY,
                                  ix: (radiusX - ring) * scaleX, iy: (radiusY - ring) * scaleY)
                : EllipseCoverage(rx: radiusX * scaleX, ry: radiusY * scaleY, ix: 0, iy: 0)
            rasterizeEllipse(coverage, offsets: CanvasOffsets(), centre: centre, x0: x0, x1: x1, y0: y0, y1: y1,
                             fill: fill, stroke: ring > 0 ? stroke : fill, alpha: alpha)
        } else {
            guard let inverse = t.inverted() else { return }
            let coverage = ring > 0
                ? EllipseCoverage(rx: radiusX, ry: radiusY, ix: radiusX - ring, iy: radiusY - ring)
                : EllipseCoverage(rx: radiusX, ry: radiusY, ix: 0, iy: 0)
            rasterizeEllipse(coverage, offsets: EllipseAxesOffsets(inverse: inverse), centre: centre,
                             x0: x0, x1: x1, y0: y0, y1: y1, fill: fill, stroke: ring > 0 ? stroke : fill, alpha: alpha)
        }
    }

    /// Where a level ellipse's centre `c` goes along one axis, for its radius there: the
    /// nearest pixel centre for an odd diameter in whole pixels, the nearest corner for an
    /// even one (see ``EllipseCoverage``).
    @inline(__always) static func gridCentre(_ c: Double, radius: Double) -> Double {
        let diameter = max(1, (2 * radius).rounded())
        return diameter.truncatingRemainder(dividingBy: 2) == 1 ? c.rounded(.down) + 0.5 : c.rounded()
    }

    /// The pixels of the box `x0...x1`, `y0...y1` that the ellipse covers, row by row, each
    /// pixel's offset from `centre` measured by `offsets`.
    private func rasterizeEllipse<Offsets: EllipseOffsets>(
        _ coverage: EllipseCoverage, offsets: Offsets, centre: Vec2, x0: Int, x1: Int, y0: Int, y1: Int,
        fill: Color, stroke: Color, alpha: UInt32
    ) {
        drawSerial &+= 1
        let serial = drawSerial
        let glyphs = hasText
        let stride = width
        let buf = pixels
        for py in y0...y1 {
            let dy = Double(py) + 0.5 - centre.y
            guard let (lo, hi) = offsets.span(coverage, dy: dy, centreX: centre.x, x0: x0, x1: x1) else { continue }
            let row = py &* stride
            @inline(__always) func color(_ px: Int) -> Color {
                let (ox2, oy2) = offsets.squares(dx: Double(px) + 0.5 - centre.x, dy: dy)
                return Canvas.ellipseColor(coverage, ox2, oy2, fill: fill, stroke: stroke)
            }
            if glyphs, mayCoverGlyphs(x0: lo, x1: hi, pixelRow: py) {
                let cellRow = (py >> 1) &* columns
                textCells.withUnsafeMutableBufferPointer { cells in
                    for px in lo...hi {
                        Canvas.blend(color(px), alpha: alpha, into: buf, at: row &+ px,
                                     cells: cells, cell: cellRow &+ px, serial: serial)
                    }
                }
                continue
            }
            for px in lo...hi {
                Canvas.blend(color(px), alpha: alpha, into: buf, at: row &+ px)
            }
        }
    }

    /// The colour at squared offsets `ox2`, `oy2`: clear outside, `fill` inside the inner
    /// ellipse, `stroke` between (`stroke` is `fill` when there is no ring).
    @inline(__always) static func ellipseColor(
        _ coverage: EllipseCoverage, _ ox2: Double, _ oy2: Double, fill: Color, stroke: Color
    ) -> Color {
        guard coverage.insideOuter(ox2, oy2) else { return .clear }
        guard coverage.hasInner else { return stroke }
        return coverage.insideInner(ox2, oy2) ? fill : stroke
    }
}
