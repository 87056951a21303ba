/// The per-body values the solver reads and writes on every contact, kept together so one
/// body is one cache line and a contact touches two of them.
struct BodyState: BitwiseCopyable {
    var px: Double
    var py: Double
    var vx: Double
    var vy: Double
    /// Radians, clockwise positive.
    var angle: Double
    /// Radians per second.
    var w: Double
    var invMass: Double
    /// Zero when rotation is not allowed.
    var invInertia: Double
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
}
