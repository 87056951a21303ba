#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

/// Timing curves against their defining formulas, written out here independently.
@Suite struct AnimationCurveTests {
    /// A point of the cubic Bezier (0,0) c1 c2 (1,1) at parameter t, in Bernstein form.
    func bezierPoint(_ c: (Double, Double, Double, Double), _ t: Double) -> (x: Double, y: Double) {
        let u = 1 - t
        let x = 3 * u * u * t * c.0 + 3 * u * t * t * c.2 + t * t * t
        let y = 3 * u * u * t * c.1 + 3 * u * t * t * c.3 + t * t * t
        return (x, y)
    }

    static let coreAnimation: [(String, TimingCurve, (Double, Double, Double, Double))] = [
        ("linear", .linear, (0, 0, 1, 1)),
        ("easeIn", .easeIn, (0.42, 0, 1, 1)),
        ("easeOut", .easeOut, (0, 0, 0.58, 1)),
        ("easeInEaseOut", .easeInEaseOut, (0.42, 0, 0.58, 1)),
        ("default", .default, (0.25, 0.1, 0.25, 1)),
    ]

    @Test(arguments: coreAnimation.map(\.0))
    func coreAnimationCurveFollowsItsBezier(_ name: String) {
        let (_, curve, c) = Self.coreAnimation.first { $0.0 == name }!
        for i in 0...100 {
            let p = bezierPoint(c, Double(i) / 100)
            #expect(near(curve.value(at: p.x), p.y, 1e-4), "\(name) at x = \(p.x)")
        }
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
    }

    /// Curves with their tolerance: both solves stop within 1e-7 in x, which is a larger
    /// error in y where the curve is steep (the last two rise almost vertically mid-way).
    static let tabled: [(TimingCurve, Double)] = [(.easeIn, 1e-6), (.easeOut, 1e-6), (.easeInEaseOut, 1e-6),
                                                  (.default, 1e-6), (.cubicBezier(0.9, -0.5, 0.1, 1.5), 1e-4),
                                                  (.cubicBezier(1, 0, 0, 1), 1e-4)]

    /// The engine evaluates Beziers from a table of the exact solution; it must agree with it.
    @Test(arguments: 0..<tabled.count)
    func engineTableAgreesWithDirectSolve(_ i: Int) {
        let (curve, tolerance) = Self.tabled[i]
        var table = CurveTable()
        let e = Int(table.retain(curve))
        for k in 0...20_000 {
            let x = Double(k) / 20_000
            let tabled = CurveTable.bezierValue(table.curves.base + e, table.bezierTables.base + Int(table.tableStarts[e]), x)
            #expect(near(curve.value(at: x), tabled, tolerance), "\(curve) at \(x)")
        }
        table.release(Int32(e))
        table.destroy()
    }

    @Test func customBezierMatchesNamedOneAndKeepsItsControlPoints() {
        #expect(TimingCurve.cubicBezier(0.42, 0, 0.58, 1) == .easeInEaseOut)
        let c = TimingCurve.cubicBezier(0.1, 0.7, 0.3, 1.2)
        let p = c.controlPoints!
        #expect(near(p.x1, 0.1, 1e-12) && near(p.y1, 0.7, 1e-12) && near(p.x2, 0.3, 1e-12) && near(p.y2, 1.2, 1e-12))
        for i in 0...50 {
            let q = bezierPoint((0.1, 0.7, 0.3, 1.2), Double(i) / 50)
            #expect(near(c.value(at: q.x), q.y, 1e-4))
        }
        // Symmetric control points give a curve symmetric about the centre.
        #expect(near(TimingCurve.easeInEaseOut.value(at: 0.5), 0.5, 1e-6))
        #expect(near(TimingCurve.easeInEaseOut.value(at: 0.2) + TimingCurve.easeInEaseOut.value(at: 0.8), 1, 1e-6))
    }

    // MARK: Penner

    /// The Penner `in` equations as ANIMATION.md gives them.
    static func pennerIn(_ f: EasingFamily, _ x: Double) -> Double {
        let c1 = 1.70158, c3 = c1 + 1, c4 = 2 * Double.pi / 3
        switch f {
        case .quad: return pow(x, 2)
        case .cubic: return pow(x, 3)
        case .quart: return pow(x, 4)
        case .quint: return pow(x, 5)
        case .sine: return 1 - cos(Double.pi * x / 2)
        case .expo: return x == 0 ? 0 : pow(2, 10 * x - 10)
        case .circ: return 1 - sqrt(1 - x * x)
        case .back: return c3 * pow(x, 3) - c1 * x * x
        case .elastic: return x == 0 ? 0 : x == 1 ? 1 : -pow(2, 10 * x - 10) * sin((10 * x - 10.75) * c4)
        case .bounce: return 1 - bounceOut(1 - x)
        }
    }

    /// The Penner `out` equations as ANIMATION.md gives them.
    static func pennerOut(_ f: EasingFamily, _ x: Double) -> Double {
        let c1 = 1.70158, c3 = c1 + 1, c4 = 2 * Double.pi / 3
        switch f {
        case .quad: return 1 - pow(1 - x, 2)
        case .cubic: return 1 - pow(1 - x, 3)
        case .quart: return 1 - pow(1 - x, 4)
        case .quint: return 1 - pow(1 - x, 5)
        case .sine: return sin(Double.pi * x / 2)
        case .expo: return x == 1 ? 1 : 1 - pow(2, -10 * x)
        case .circ: return sqrt(1 - pow(x - 1, 2))
        case .back: return 1 + c3 * pow(x - 1, 3) + c1 * pow(x - 1, 2)
        case .elastic: return x == 0 ? 0 : x == 1 ? 1 : pow(2, -10 * x) * sin((10 * x - 0.75) * c4) + 1
        case .bounce: return bounceOut(x)
        }
    }

    static func bounceOut(_ x: Double) -> Double {
        let n = 7.5625, d = 2.75
        if x < 1 / d { return n * x * x }
        if x < 2 / d { return n * pow(x - 1.5 / d, 2) + 0.75 }
        if x < 2.5 / d { return n * pow(x - 2.25 / d, 2) + 0.9375 }
        return n * pow(x - 2.625 / d, 2) + 0.984375
    }

    /// The `inOut` forms ANIMATION.md gives explicitly (power and sine), else the general rule.
    static func pennerInOut(_ f: EasingFamily, _ x: Double) -> Double {
        let powers: [EasingFamily: Double] = [.quad: 2, .cubic: 3, .quart: 4, .quint: 5]
        if let n = powers[f] {
            return x < 0.5 ? pow(2, n - 1) * pow(x, n) : 1 - pow(-2 * x + 2, n) / 2
        }
        if f == .sine { return -(cos(Double.pi * x) - 1) / 2 }
        return x < 0.5 ? pennerIn(f, 2 * x) / 2 : 1 - pennerIn(f, 2 - 2 * x) / 2
    }

    @Test(arguments: EasingFamily.allCases)
    func pennerFamilyMatchesFormulas(_ family: EasingFamily) {
        for i in 0...200 {
            let x = Double(i) / 200
            #expect(near(TimingCurve.easing(family, .in).value(at: x), Self.pennerIn(family, x), 1e-12), "in \(x)")
            #expect(near(TimingCurve.easing(family, .out).value(at: x), Self.pennerOut(family, x), 1e-12), "out \(x)")
            #expect(near(TimingCurve.easing(family, .inOut).value(at: x), Self.pennerInOut(family, x), 1e-12),
                    "inOut \(x)")
        }
        for d in EasingDirection.allCases {
            #expect(TimingCurve.easing(family, d).value(at: 0) == 0)
            #expect(near(TimingCurve.easing(family, d).value(at: 1), 1, 1e-12))
        }
    }

    @Test func overshootingFamiliesLeaveTheUnitRange() {
        #expect(TimingCurve.easing(.back, .in).value(at: 0.2) < 0)
        #expect(TimingCurve.easing(.back, .out).value(at: 0.8) > 1)
        #expect(TimingCurve.easing(.elastic, .out).value(at: 0.1) > 1)
        // Bounce touches the ground (1) at the end of each hop.
        #expect(near(TimingCurve.easing(.bounce, .out).value(at: 1 / 2.75), 1, 1e-12))
    }

    @Test func namesInEveryCommonSpelling() {
        #expect(TimingCurve(named: "linear") == .linear)
        #expect(TimingCurve(named: "easeIn") == .easeIn)
        #expect(TimingCurve(named: "easeOut") == .easeOut)
        #expect(TimingCurve(named: "easeInEaseOut") == .easeInEaseOut)
        #expect(TimingCurve(named: "easeInOut") == .easeInEaseOut)
        #expect(TimingCurve(named: "default") == .default)
        for spelling in ["easeOutQuad", "outQuad", "quadOut", "EASING_OUTQUAD", "ease-out-quad", "quad_out"] {
            #expect(TimingCurve(named: spelling) == .easing(.quad, .out), "\(spelling)")
        }
        #expect(TimingCurve(named: "easeInOutElastic") == .easing(.elastic, .inOut))
        #expect(TimingCurve(named: "inOutBounce") == .easing(.bounce, .inOut))
        #expect(TimingCurve(named: "sineIn") == .easing(.sine, .in))
        #expect(TimingCurve(named: "wobble") == nil)
        #expect(TimingCurve(named: "easeOutWobble") == nil)
        for c in [TimingCurve.linear, .easeIn, .easeOut, .easeInEaseOut, .default, .easing(.circ, .inOut)] {
            #expect(TimingCurve(named: c.description) == c)
        }
    }
}
