#if canImport(Glibc)
import Glibc
#endif
/// A family of Robert Penner's easing equations, as Defold, Solar2D and easings.net know them.
public enum EasingFamily: String, CaseIterable, Hashable, Sendable {
    case quad, cubic, quart, quint, sine, expo, circ, back, elastic, bounce
}

/// Which end of an easing equation is slow.
public enum EasingDirection: String, CaseIterable, Hashable, Sendable {
    /// Starts slowly.
    case `in`
    /// Ends slowly.
    case out
    /// Slow at both ends: the `in` curve on the first half, the `out` curve on the second.
    case inOut
}

/// The normalised Penner equations (x and result in 0...1, except where the curve overshoots).
///
/// The forms are the ones in ANIMATION.md; every `inOut` is built from `in` the same way
/// (first half `in(2x)/2`, second `1 - in(2 - 2x)/2`), which for the power and sine
/// families is the same function as their published `inOut` formulas.
enum Easing {
    /// Back's overshoot constant (about 10 % overshoot).
    static let backC1 = 1.70158
    static let backC3 = backC1 + 1
    /// Elastic's angular step: a third of a turn per tenth of the curve.
    static let elasticC4 = 2 * Double.pi / 3
    /// Bounce's parabola scale and the curve's length in parabola units.
    static let bounceN = 7.5625
    static let bounceD = 2.75

    /// The curve at `x` strictly inside 0...1; ``TimingCurve/value(at:)`` gives the ends.
    @inline(__always)
    static func value(_ family: EasingFamily, _ direction: EasingDirection, _ x: Double) -> Double {
        switch direction {
        case .in:
            return easeIn(family, x)
        case .out:
            return easeOut(family, x)
        case .inOut:
            return x < 0.5 ? easeIn(family, 2 * x) / 2 : 1 - easeIn(family, 2 - 2 * x) / 2
        }
    }

    @inline(__always)
    static func easeIn(_ family: EasingFamily, _ x: Double) -> Double {
        switch family {
        case .quad: return x * x
        case .cubic: return x * x * x
        case .quart: return (x * x) * (x * x)
        case .quint: return (x * x) * (x * x) * x
        case .sine: return 1 - cos(Double.pi * x / 2)
        case .expo: return x == 0 ? 0 : pow(2, 10 * x - 10)
        case .circ: return 1 - (1 - x * x).squareRoot()
        case .back: return backC3 * x * x * x - backC1 * x * x
        case .elastic:
            if x == 0 || x == 1 { return x }
            return -pow(2, 10 * x - 10) * sin((10 * x - 10.75) * elasticC4)
        case .bounce: return 1 - bounceOut(1 - x)
        }
    }

    @inline(__always)
    static func easeOut(_ family: EasingFamily, _ x: Double) -> Double {
        switch family {
        case .quad: return 1 - (1 - x) * (1 - x)
        case .cubic: return 1 - (1 - x) * (1 - x) * (1 - x)
        case .quart: return 1 - ((1 - x) * (1 - x)) * ((1 - x) * (1 - x))
        case .quint: return 1 - ((1 - x) * (1 - x)) * ((1 - x) * (1 - x)) * (1 - x)
        case .sine: return sin(Double.pi * x / 2)
        case .expo: return x == 1 ? 1 : 1 - pow(2, -10 * x)
        case .circ: return (1 - (x - 1) * (x - 1)).squareRoot()
        case .back: return 1 + backC3 * (x - 1) * (x - 1) * (x - 1) + backC1 * (x - 1) * (x - 1)
        case .elastic:
            if x == 0 || x == 1 { return x }
            return pow(2, -10 * x) * sin((10 * x - 0.75) * elasticC4) + 1
        case .bounce: return bounceOut(x)
        }
    }

    /// Four parabolic hops, each a quarter of the height of the one before.
    @inline(__always)
    static func bounceOut(_ x: Double) -> Double {
        let n = bounceN, d = bounceD
        if x < 1 / d {
            return n * x * x
        } else if x < 2 / d {
            let u = x - 1.5 / d
            return n * u * u + 0.75
        } else if x < 2.5 / d {
            let u = x - 2.25 / d
            return n * u * u + 0.9375
        } else {
            let u = x - 2.625 / d
            return n * u * u + 0.984375
        }
    }
}
