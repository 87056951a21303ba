/// One piece of a ``BezierPath``, continuing from where the previous one ended.
public enum PathSegment: Hashable, Sendable {
    /// A straight line.
    case line(to: Vec2)
    /// A quadratic Bezier (`CGPath.addQuadCurve`).
    case quad(control: Vec2, to: Vec2)
    /// A cubic Bezier (`CGPath.addCurve`).
    case cubic(control1: Vec2, control2: Vec2, to: Vec2)
}

/// A path for a position to follow: a start point and connected line / Bezier segments.
///
/// A path animation spends equal time on every segment (Core Animation's linear
/// calculation mode with no key times) and within one segment moves with its Bezier
/// parameter, so the animation's timing curve reshapes progress over the parameter.
public struct BezierPath: Hashable, Sendable {
    /// Where the path begins.
    public var start: Vec2
    /// The pieces, in order.
    public var segments: [PathSegment]

    /// A path at `start`; add segments to give it length.
    public init(start: Vec2, segments: [PathSegment] = []) {
        self.start = start
        self.segments = segments
    }

    /// One quadratic curve: the coin's flight.
    public static func quadratic(from: Vec2, control: Vec2, to: Vec2) -> BezierPath {
        BezierPath(start: from, segments: [.quad(control: control, to: to)])
    }

    /// One cubic curve.
    public static func cubic(from: Vec2, control1: Vec2, control2: Vec2, to: Vec2) -> BezierPath {
        BezierPath(start: from, segments: [.cubic(control1: control1, control2: control2, to: to)])
    }

    /// Appends a straight line.
    public mutating func addLine(to end: Vec2) {
        segments.append(.line(to: end))
    }

    /// Appends a quadratic curve.
    public mutating func addQuadCurve(to end: Vec2, control: Vec2) {
        segments.append(.quad(control: control, to: end))
    }

    /// Appends a cubic curve.
    public mutating func addCurve(to end: Vec2, control1: Vec2, control2: Vec2) {
        segments.append(.cubic(control1: control1, control2: control2, to: end))
    }

    /// Where the path ends.
    public var end: Vec2 {
        switch segments.last {
        case nil: return start
        case .line(let to)?, .quad(_, let to)?, .cubic(_, _, let to)?: return to
        }
    }

    /// The point at `progress` (0 = start, 1 = end, equal time per segment), exactly as a
    /// path animation places it.
    public func point(at progress: Double) -> Vec2 {
        guard !segments.isEmpty else { return start }
        let v = cubicControlPoints().withUnsafeBufferPointer {
            BezierPath.evaluate($0.baseAddress!, 0, segments.count, progress)
        }
        return Vec2(v.0, v.1)
    }

    /// Every segment as a cubic: 8 numbers each (p0, c1, c2, p1 as x, y pairs).
    ///
    /// Lines and quadratics are raised to cubics exactly (degree elevation), so one
    /// evaluation serves all three, and evaluation in Bernstein form lands exactly on every
    /// segment's end points.
    func cubicControlPoints() -> [Double] {
        var out = [Double](repeating: 0, count: segments.count * 8)
        writeCubicControlPoints(into: &out, at: 0) { $0 }
        return out
    }

    /// ``cubicControlPoints()`` of the path with each coordinate replaced by `f`, written
    /// into `out` from `base` (which must hold them): no path or list is built.
    func writeCubicControlPoints(into out: inout [Double], at base: Int, mapping f: (Double) -> Double) {
        var p0 = Vec2(f(start.x), f(start.y))
        var o = base
        for s in segments {
            let c1: Vec2, c2: Vec2, p1: Vec2
            switch s {
            case .line(let to):
                p1 = Vec2(f(to.x), f(to.y))
                c1 = p0 + (p1 - p0) / 3
                c2 = p0 + (p1 - p0) * (2.0 / 3.0)
            case .quad(let c, let to):
                let c = Vec2(f(c.x), f(c.y))
                p1 = Vec2(f(to.x), f(to.y))
                c1 = p0 + (c - p0) * (2.0 / 3.0)
                c2 = p1 + (c - p1) * (2.0 / 3.0)
            case .cubic(let a, let b, let to):
                p1 = Vec2(f(to.x), f(to.y))
                c1 = Vec2(f(a.x), f(a.y))
                c2 = Vec2(f(b.x), f(b.y))
            }
            out[o] = p0.x; out[o + 1] = p0.y; out[o + 2] = c1.x; out[o + 3] = c1.y
            out[o + 4] = c2.x; out[o + 5] = c2.y; out[o + 6] = p1.x; out[o + 7] = p1.y
            o += 8
            p0 = p1
        }
    }

    /// The point at `progress` on `count` cubic segments stored from `base` in `k`.
    @inline(__always)
    static func evaluate(_ k: UnsafePointer<Double>, _ base: Int, _ count: Int, _ progress: Double) -> (Double, Double) {
        let scaled = progress * Double(count)
        // Truncation is the floor here: negative and NaN progress take the first segment.
        let index = scaled > 0 ? min(Int(min(scaled, Double(count))), count - 1) : 0
        return segment(k + (base + index * 8), scaled - Double(index))
    }

    /// The point `t` of the way along the one cubic segment whose eight numbers are at `k`.
    @inline(__always)
    static func segment(_ k: UnsafePointer<Double>, _ t: Double) -> (Double, Double) {
        let u = 1 - t
        let b0 = u * u * u, b1 = 3 * u * u * t, b2 = 3 * u * t * t, b3 = t * t * t
        return (b0 * k[0] + b1 * k[2] + b2 * k[4] + b3 * k[6],
                b0 * k[1] + b1 * k[3] + b2 * k[5] + b3 * k[7])
    }
}
