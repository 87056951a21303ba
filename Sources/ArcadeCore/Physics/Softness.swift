/// Coefficients of a soft contact constraint: a spring-damper of the given stiffness
/// (hertz) and damping ratio, expressed as the bias rate and the mass and impulse scales
/// an impulse solver needs (Erin Catto's "soft step", as in Box2D 3).
///
/// A soft contact pushes overlapping balls apart like a stiff, heavily damped spring rather
/// than in one jump, which is what keeps a pile still instead of jittering.
struct Softness {
    var biasRate: Double
    var massScale: Double
    var impulseScale: Double

    /// No spring at all: no bias, the full mass, no impulse scaling (the relax pass).
    static let rigid = Softness(biasRate: 0, massScale: 1, impulseScale: 0)

    private init(biasRate: Double, massScale: Double, impulseScale: Double) {
        self.biasRate = biasRate
        self.massScale = massScale
        self.impulseScale = impulseScale
    }

    init(hertz: Double, dampingRatio: Double, h: Double) {
        guard hertz > 0 else {
            self = .rigid
            return
        }
        let omega = 2 * Double.pi * hertz
        let a1 = 2 * dampingRatio + h * omega
        let a2 = h * omega * a1
        let a3 = 1 / (1 + a2)
        biasRate = omega / a1
        massScale = a2 * a3
        impulseScale = a3
    }
}
