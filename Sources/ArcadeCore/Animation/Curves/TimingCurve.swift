/// Reshapes an animation's progress: maps elapsed fraction (0...1) to value fraction.
///
/// Three kinds, all pure functions of the input so equal inputs give bit-identical output:
/// - cubic Beziers from (0, 0) to (1, 1), which is what Core Animation's named curves are
///   (``linear``, ``easeIn``, ``easeOut``, ``easeInEaseOut``, ``default``) and what
///   ``cubicBezier(_:_:_:_:)`` builds;
/// - the Penner equations (``easing(_:_:)``), which may overshoot (back, elastic);
/// - a damped spring (``spring(damping:initialVelocity:duration:)``), which is how spring
///   animations are driven.
///
/// ``init(named:)`` accepts the names a Lua script would use.
public struct TimingCurve: Hashable, Sendable {
    enum Form: Hashable, Sendable {
        case linear
        case cubicBezier
        case easing(EasingFamily, EasingDirection)
        case spring(SpringCurve.Regime)
    }

    let form: Form
    // Cubic Bezier: x(t) = ((k0 t + k1) t + k2) t, y(t) = ((k3 t + k4) t + k5) t.
    // Spring: the regime's constants, see `SpringCurve`.
    let k0: Double, k1: Double, k2: Double, k3: Double, k4: Double, k5: Double

    init(form: Form, _ k0: Double = 0, _ k1: Double = 0, _ k2: Double = 0,
         _ k3: Double = 0, _ k4: Double = 0, _ k5: Double = 0) {
        self.form = form
        self.k0 = k0
        self.k1 = k1
        self.k2 = k2
        self.k3 = k3
        self.k4 = k4
        self.k5 = k5
    }

    /// Progress unchanged (Core Animation's `linear`).
    public static let linear = TimingCurve(form: .linear)
    /// Core Animation's `easeIn`: Bezier (0.42, 0), (1, 1).
    public static let easeIn = cubicBezier(0.42, 0, 1, 1)
    /// Core Animation's `easeOut`: Bezier (0, 0), (0.58, 1).
    public static let easeOut = cubicBezier(0, 0, 0.58, 1)
    /// Core Animation's `easeInEaseOut` (UIKit's `curveEaseInOut`): Bezier (0.42, 0), (0.58, 1).
    public static let easeInEaseOut = cubicBezier(0.42, 0, 0.58, 1)
    /// Core Animation's `default`: Bezier (0.25, 0.1), (0.25, 1).
    public static let `default` = cubicBezier(0.25, 0.1, 0.25, 1)

    /// A cubic Bezier from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2), like
    /// `CAMediaTimingFunction(controlPoints:)`. The x coordinates are clamped to 0...1 so
    /// that x(t) is monotonic and the curve is a function.
    public static func cubicBezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> TimingCurve {
        let x1 = clamp(x1, 0, 1), x2 = clamp(x2, 0, 1)
        let cx = 3 * x1, bx = 3 * (x2 - x1) - cx
        let cy = 3 * y1, by = 3 * (y2 - y1) - cy
        return TimingCurve(form: .cubicBezier, 1 - cx - bx, bx, cx, 1 - cy - by, by, cy)
    }

    /// One of the Penner equations, e.g. `easing(.quad, .out)` for "easeOutQuad".
    public static func easing(_ family: EasingFamily, _ direction: EasingDirection) -> TimingCurve {
        TimingCurve(form: .easing(family, direction))
    }

    /// The fraction of the way from start to end at `progress`.
    ///
    /// Bezier and Penner curves read `progress` clamped to 0...1 and give exactly 0 and 1 at
    /// the ends; a spring reads past its end as settled (1). ``linear`` passes any value
    /// through, which lets an overshooting outer curve extrapolate.
    public func value(at progress: Double) -> Double {
        if case .linear = form { return progress }
        // Every other curve meets its ends exactly (some equations, like back's out, miss 0 by
        // a rounding error) and holds them outside 0...1.
        if progress <= 0 { return 0 }
        if progress >= 1 { return 1 }
        switch form {
        case .linear:
            return progress
        case .cubicBezier:
            return bezierValue(progress)
        case .easing(let family, let direction):
            return Easing.value(family, direction, progress)
        case .spring(let regime):
            return SpringCurve.progress(regime, self, progress)
        }
    }

    /// The control points, when this is a Bezier (``linear`` included).
    public var controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double)? {
        switch form {
        case .linear:
            return (0, 0, 1, 1)
        case .cubicBezier:
            // Inverse of the coefficient formulas in `cubicBezier`.
            return (k2 / 3, k5 / 3, (k1 + 2 * k2) / 3, (k4 + 2 * k5) / 3)
        default:
            return nil
        }
    }

    // MARK: Bezier

    /// The curve's value at `x`, inside 0...1 (``value(at:)`` pins the ends).
    func bezierValue(_ x: Double) -> Double {
        return bezierY(solveBezierX(x, guess: x, lo: 0, hi: 1))
    }

    @inline(__always) func bezierX(_ t: Double) -> Double { ((k0 * t + k1) * t + k2) * t }
    @inline(__always) func bezierY(_ t: Double) -> Double { ((k3 * t + k4) * t + k5) * t }

    /// Finds t in `lo...hi` with x(t) = x, given x(lo) <= x <= x(hi): Newton from `guess`,
    /// bisection of the bracket when Newton leaves it or the slope is too flat to trust.
    @inline(__always)
    func solveBezierX(_ x: Double, guess: Double, lo: Double, hi: Double) -> Double {
        let epsilon = 1e-7
        var t = guess
        for _ in 0..<8 {
            let err = bezierX(t) - x
            if abs(err) < epsilon { return t }
            let slope = (3 * k0 * t + 2 * k1) * t + k2
            if abs(slope) < 1e-6 { break }
            let next = t - err / slope
            if !(next >= lo && next <= hi) { break }
            t = next
        }
        // x(t) is monotonic on 0...1 (control x in 0...1), so bisection always converges.
        var lo = lo, hi = hi
        t = guess
        for _ in 0..<64 {
            let v = bezierX(t)
            if abs(v - x) < epsilon { return t }
            if v < x { lo = t } else { hi = t }
            t = lo + (hi - lo) / 2
        }
        return t
    }
}

extension TimingCurve: CustomStringConvertible {
    /// The curve as ``init(named:)`` would read it back, or the Bezier's control points.
    public var description: String {
        switch form {
        case .linear: return "linear"
        case .cubicBezier:
            if self == .easeIn { return "easeIn" }
            if self == .easeOut { return "easeOut" }
            if self == .easeInEaseOut { return "easeInEaseOut" }
            if self == .default { return "default" }
            let p = controlPoints!
            return "cubicBezier(\(p.x1), \(p.y1), \(p.x2), \(p.y2))"
        case .easing(let family, let direction):
            let f = family.rawValue.prefix(1).uppercased() + family.rawValue.dropFirst()
            let d = direction == .in ? "In" : direction == .out ? "Out" : "InOut"
            return "ease" + d + f
        case .spring:
            return "spring"
        }
    }
}
