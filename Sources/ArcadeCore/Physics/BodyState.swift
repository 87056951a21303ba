/// The per-body values the solver reads and writes on every contact, kept together so one
/// body is one 64-byte cache line and a contact touches two of them.
struct BodyState: BitwiseCopyable {
    var px: Double
    var py: Double
    var vx: Double
    var vy: Double
    /// Radians per second.
    var w: Double
    var invMass: Double
    /// Inverse inertia times radius: the spin a unit tangential impulse at the surface
    /// gives. Zero when rotation is not allowed.
    var spin: Double
    var radius: Double

    /// The centre as a vector.
    var position: Vec2 {
        @inline(__always) get { Vec2(px, py) }
        @inline(__always) set {
            px = newValue.x
            py = newValue.y
        }
    }

    /// The velocity as a vector, px/s.
    var velocity: Vec2 {
        @inline(__always) get { Vec2(vx, vy) }
        @inline(__always) set {
            vx = newValue.x
            vy = newValue.y
        }
    }
}

/// The per-body values read once per step rather than once per contact.
struct BodyMaterial: BitwiseCopyable {
    var mass: Double
    var elasticity: Double
    var friction: Double
    var linearDamping: Double
    var angularDamping: Double
    /// `1 / (1 + h * damping)` for the current substep length, set at the start of a step.
    var linearFactor = 1.0
    var angularFactor = 1.0
}

/// Where a body was at the start of the step, for continuous collision.
struct PathStart: BitwiseCopyable {
    var x: Double
    var y: Double
}

/// A velocity that moves a body during one substep and is then discarded: how overlaps are
/// pushed apart without adding kinetic energy.
struct PseudoVelocity: BitwiseCopyable {
    var x: Double
    var y: Double

    static let zero = PseudoVelocity(x: 0, y: 0)
}
