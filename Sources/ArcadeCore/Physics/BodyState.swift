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

/// An axis-aligned box for the broad phase.
struct AABB: BitwiseCopyable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    @inline(__always) func overlaps(_ o: AABB) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }

    /// ``overlaps(_:)`` without short-circuit branches, for the broad phase's inner loop where
    /// the outcome is a coin toss to the branch predictor.
    @inline(__always) func overlapsBranchless(_ o: AABB) -> Bool {
        let x = (minX <= o.maxX ? 1 : 0) & (o.minX <= maxX ? 1 : 0)
        let y = (minY <= o.maxY ? 1 : 0) & (o.minY <= maxY ? 1 : 0)
        return x & y != 0
    }
}

/// Where a body was at the start of the step, for continuous collision.
struct PathStart: BitwiseCopyable {
    var x: Double
    var y: Double
}
