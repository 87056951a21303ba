#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import ArcadeCore

/// The spring curve: its duration mapping, settling and overshoot.
@Suite struct AnimationSpringTests {
    static let cases: [(damping: Double, velocity: Double, duration: Double)] = [
        (0.7, 10, 0.25), // gift counter
        (0.5, 6, 0.5), // Last Circle pop-in
        (1, 0, 1),
        (1, 8, 0.4),
        (1.5, 0, 0.6),
        (1.5, -3, 0.6),
        (0.2, 0, 2),
        (0.05, 1, 1),
    ]

    /// The envelope the mapping solves for, recomputed here from w0 alone.
    func envelope(_ zeta: Double, _ v0: Double, _ w0: Double, _ t: Double) -> Double {
        if zeta < 1 - 1e-6 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return exp(-zeta * w0 * t) * (1 + b * b).squareRoot()
        } else if zeta <= 1 + 1e-6 {
            return (1 + abs(w0 - v0) * t) * exp(-w0 * t)
        } else {
            let r = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - r), r2 = -w0 * (zeta + r)
            let c1 = (-v0 - r2) / (r1 - r2)
            return abs(c1) * exp(r1 * t) + abs(1 - c1) * exp(r2 * t)
        }
    }

    /// The oscillator's displacement from the target, from the closed forms.
    func displacement(_ zeta: Double, _ v0: Double, _ w0: Double, _ t: Double) -> Double {
        if zeta < 1 - 1e-6 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (zeta * w0 - v0) / wd
            return exp(-zeta * w0 * t) * (cos(wd * t) + b * sin(wd * t))
        } else if zeta <= 1 + 1e-6 {
            return (1 + (w0 - v0) * t) * exp(-w0 * t)
        } else {
            let r = (zeta * zeta - 1).squareRoot()
            let r1 = -w0 * (zeta - r), r2 = -w0 * (zeta + r)
            let c1 = (-v0 - r2) / (r1 - r2)
            return c1 * exp(r1 * t) + (1 - c1) * exp(r2 * t)
        }
    }

    @Test(arguments: 0..<cases.count)
    func envelopeHasDecayedToOneThousandthAtTheDuration(_ i: Int) throws {
        let (zeta, v0, duration) = Self.cases[i]
        let curve = TimingCurve.spring(damping: zeta, initialVelocity: v0, duration: duration)
        let w0 = try #require(curve.springFrequency(duration: duration))
        #expect(near(envelope(zeta, v0, w0, duration), 0.001, 1e-7))
        // The curve is that oscillator: progress = 1 - displacement, in normalised time.
        for k in 1..<20 {
            let u = Double(k) / 20
            #expect(near(curve.value(at: u), 1 - displacement(zeta, v0, w0, u * duration), 1e-9))
        }
    }

    @Test(arguments: 0..<cases.count)
    func settlesWithinOnePercentByItsDuration(_ i: Int) {
        let (zeta, v0, duration) = Self.cases[i]
        let curve = TimingCurve.spring(damping: zeta, initialVelocity: v0, duration: duration)
        for k in 0...100 {
            let u = 0.9 + 0.1 * Double(k) / 100
            #expect(abs(curve.value(at: u) - 1) < 0.01, "at \(u)")
        }
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
    }

    @Test func underdampedOvershootsCriticalDoesNot() {
        func peak(_ zeta: Double, _ v0: Double) -> Double {
            let curve = TimingCurve.spring(damping: zeta, initialVelocity: v0, duration: 1)
            return (0...1000).map { curve.value(at: Double($0) / 1000) }.max()!
        }
        #expect(peak(0.5, 0) > 1.1)
        #expect(peak(0.7, 0) > 1.01)
        #expect(peak(0.5, 6) > peak(0.5, 0))
        #expect(peak(1, 0) <= 1)
        #expect(peak(1.5, 0) <= 1)
        // Critically damped from rest rises monotonically.
        let critical = TimingCurve.spring(damping: 1, initialVelocity: 0, duration: 1)
        for k in 1...1000 {
            #expect(critical.value(at: Double(k) / 1000) >= critical.value(at: Double(k - 1) / 1000))
        }
    }

    @Test func springAnimationSettlesAndLandsOnTarget() throws {
        let animator = Animator()
        let sprite = Sprite()
        sprite.scaleX = 0.1
        try animator.start(Animation(.spring(.scale, to: .s(1), damping: 0.5, initialVelocity: 6), duration: 0.5,
                                     fill: .forwards), on: sprite)
        var peak = 0.0
        for _ in 0..<29 {
            animator.advance(by: step)
            peak = max(peak, sprite.scaleX)
        }
        #expect(peak > 1.05)
        #expect(abs(sprite.scaleX - 1) < 0.01 * 0.9) // 1 % of the 0.9 distance, a step before the end
        animator.advance(by: step)
        #expect(sprite.scaleX == 1)
        #expect(animator.drain().map(\.finished) == [true])
    }

    @Test func tinyDampingIsRaisedSoTheSpringStillSettles() {
        let curve = TimingCurve.spring(damping: 0, initialVelocity: 0, duration: 1)
        #expect(abs(curve.value(at: 0.999) - 1) < 0.01)
    }
}
