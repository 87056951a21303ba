#if canImport(Glibc)
import Glibc
#endif
/// The damped spring behind UIKit's `usingSpringWithDamping:initialSpringVelocity:`.
///
/// A unit mass on a spring, `x'' + c x' + k x = 0`, starting one whole distance from its
/// target (x = 1) with velocity `v0` towards it, in whole distances per second. The damping
/// ratio `zeta = c / (2 sqrt(k))` is the caller's; the stiffness comes from the duration T:
///
/// **Duration mapping.** `w0 = sqrt(k)` is chosen so that the oscillation's envelope has
/// decayed to 0.001 of the distance exactly at T. The envelope is
/// - underdamped (zeta < 1): `e^(-zeta w0 t) sqrt(A^2 + B^2)` with `A = 1`,
///   `B = (zeta w0 - v0) / wd`, `wd = w0 sqrt(1 - zeta^2)`;
/// - critically damped (zeta = 1): `(1 + |w0 - v0| t) e^(-w0 t)`;
/// - overdamped (zeta > 1): `|C1| e^(r1 t) + |C2| e^(r2 t)`, the two decaying modes.
///
/// `envelope(T) = 0.001` is solved for w0 by Newton's method from `w0 = 5 / T`, kept inside
/// a bracket with a bisection step whenever Newton would leave it. So the displacement is
/// within 0.1 % of the target from T on, whatever zeta and v0 are; at T the animation ends
/// and the value lands exactly on the target. Damping ratios below 0.01 are raised to 0.01
/// (an undamped spring never settles).
///
/// Everything is computed in normalised time u = t / T (so `W = w0 T`, `V = v0 T`): the
/// curve is then a plain function of progress like every other ``TimingCurve``.
enum SpringCurve {
    /// Which closed form applies.
    enum Regime: Hashable, Sendable {
        /// k0 = decay rate `zeta W`, k1 = damped frequency `Wd`, k2 = B.
        case underdamped
        /// k0 = W, k1 = W - V.
        case critical
        /// k0 = r1, k1 = r2 (both negative), k2 = C1, k3 = C2.
        case overdamped
    }

    /// The smallest damping ratio accepted.
    static let minimumDamping = 0.01
    /// The fraction of the distance left at the duration.
    static let settleThreshold = 0.001

    /// Progress (1 - displacement) strictly inside 0...1; ``TimingCurve/value(at:)`` gives
    /// exactly 0 at the start and 1 from the end on.
    @inline(__always)
    static func progress(_ regime: Regime, _ c: TimingCurve, _ u: Double) -> Double {
        1 - displacement(regime, c, u)
    }

    @inline(__always)
    static func displacement(_ regime: Regime, _ c: TimingCurve, _ u: Double) -> Double {
        switch regime {
        case .underdamped:
            let w = c.k1 * u
            return exp(-c.k0 * u) * (cos(w) + c.k2 * sin(w))
        case .critical:
            return (1 + c.k1 * u) * exp(-c.k0 * u)
        case .overdamped:
            return c.k2 * exp(c.k0 * u) + c.k3 * exp(c.k1 * u)
        }
    }

    /// The curve for damping ratio `zeta`, velocity `v0` and duration `T` (seconds).
    static func make(damping zeta: Double, velocity v0: Double, duration T: Double) -> TimingCurve {
        let zeta = max(zeta.isFinite ? zeta : 1, minimumDamping)
        let bigV = (v0.isFinite ? v0 : 0) * (T > 0 && T.isFinite ? T : 1)
        let w = naturalFrequency(damping: zeta, velocity: bigV)
        return curve(damping: zeta, velocity: bigV, frequency: w)
    }

    /// The curve for normalised frequency `w` (= w0 T) and normalised velocity `bigV`.
    static func curve(damping zeta: Double, velocity bigV: Double, frequency w: Double) -> TimingCurve {
        if abs(zeta - 1) < 1e-6 {
            return TimingCurve(form: .spring(.critical), w, w - bigV)
        } else if zeta < 1 {
            let wd = w * (1 - zeta * zeta).squareRoot()
            return TimingCurve(form: .spring(.underdamped), zeta * w, wd, (zeta * w - bigV) / wd)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w * (zeta - root), r2 = -w * (zeta + root)
            let c1 = (-bigV - r2) / (r1 - r2)
            return TimingCurve(form: .spring(.overdamped), r1, r2, c1, 1 - c1)
        }
    }

    /// Natural log of the envelope at u = 1 for normalised frequency `w`.
    static func logEnvelope(damping zeta: Double, velocity bigV: Double, frequency w: Double) -> Double {
        if abs(zeta - 1) < 1e-6 {
            return log(1 + abs(w - bigV)) - w
        } else if zeta < 1 {
            let wd = w * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w - bigV) / wd
            return -zeta * w + 0.5 * log(1 + b * b)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -w * (zeta - root), r2 = -w * (zeta + root)
            let c1 = (-bigV - r2) / (r1 - r2)
            return log(abs(c1) * exp(r1) + abs(1 - c1) * exp(r2))
        }
    }

    /// Solves `envelope(1) = settleThreshold` for the normalised natural frequency W = w0 T.
    static func naturalFrequency(damping zeta: Double, velocity bigV: Double) -> Double {
        let target = log(settleThreshold)
        func g(_ w: Double) -> Double { logEnvelope(damping: zeta, velocity: bigV, frequency: w) - target }
        // Bracket: g > 0 at lo (not yet settled), g <= 0 at hi. g -> +inf as W -> 0 and
        // -> -inf as W grows, for every regime.
        var w = 5.0
        var lo: Double, hi: Double
        if g(w) > 0 {
            lo = w
            hi = w * 2
            while g(hi) > 0 && hi < 1e9 {
                lo = hi
                hi *= 2
            }
        } else {
            hi = w
            lo = w / 2
            while g(lo) <= 0 && lo > 1e-9 {
                hi = lo
                lo /= 2
            }
        }
        for _ in 0..<200 {
            let gw = g(w)
            if abs(gw) < 1e-12 { break }
            if gw > 0 { lo = w } else { hi = w }
            let h = max(1e-7, w * 1e-6)
            let slope = (g(w + h) - g(w - h)) / (2 * h)
            var next = w - gw / slope
            if !next.isFinite || next <= lo || next >= hi {
                next = lo + (hi - lo) / 2
            }
            if abs(next - w) <= 1e-14 * w {
                w = next
                break
            }
            w = next
        }
        return w
    }
}

extension TimingCurve {
    /// A damped spring settling at `duration` seconds: UIKit's spring animation as a curve.
    ///
    /// `damping` is the damping ratio (1 = critically damped, no oscillation; below 1 it
    /// overshoots; raised to at least 0.01); `initialVelocity` is in whole distances per
    /// second, positive towards the target. The result passes 1 while oscillating, so
    /// animated values overshoot their target.
    ///
    /// Duration mapping (Apple publishes none): the natural frequency `w0 = sqrt(k)` is the
    /// one whose oscillation envelope has shrunk to 0.001 of the distance exactly at
    /// `duration` (solved by Newton's method from `w0 = 5 / duration`, bracketed). So the
    /// value is within 0.1 % of the target from then on, and the curve is exactly 1 at the
    /// end. ``springFrequency(duration:)`` gives the `w0` chosen.
    public static func spring(damping: Double, initialVelocity: Double, duration: Double) -> TimingCurve {
        SpringCurve.make(damping: damping, velocity: initialVelocity, duration: duration)
    }

    /// For a spring curve: its natural angular frequency `w0` in radians per second for the
    /// given duration (the stiffness is `w0 * w0`). Nil for other curves.
    public func springFrequency(duration: Double) -> Double? {
        guard case .spring(let regime) = form, duration > 0 else { return nil }
        let w: Double
        switch regime {
        case .critical: w = k0
        case .underdamped: w = (k0 * k0 + k1 * k1).squareRoot()
        case .overdamped: w = (k0 * k1).squareRoot()
        }
        return w / duration
    }
}
