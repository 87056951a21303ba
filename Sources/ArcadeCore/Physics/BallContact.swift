/// A contact constraint between two balls, alive for one step; 80 bytes, since every
/// substep streams through all of them several times.
///
/// Created for every pair that could touch during the step (speculative: the gap may still
/// be positive), solved in every substep, then kept as the next step's warm start. The
/// lists are sorted by `(a, b)` so the next step finds last step's impulses by merging.
struct BallContact: BitwiseCopyable {
    /// Body indices, `a < b`.
    var a: Int32
    var b: Int32
    var flags: UInt32 = 0
    /// Unit normal from `a` to `b`, refreshed every substep.
    var nx = 0.0
    var ny = 0.0
    var separation = 0.0
    /// Accumulated impulses: kept across substeps and steps (warm starting).
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var normalMass = 0.0
    var tangentMass = 0.0
    var friction = 0.0

    init(a: Int32, b: Int32) {
        self.a = a
        self.b = b
    }

    @inline(__always) var key: UInt64 { UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b)) }
}

/// What a ball contact leaves to the next step: the pair, whether it touched, and the
/// impulses it ended with (the next step's warm start); 32 bytes, so putting a step's
/// contacts back in key order moves less than half of each.
struct CarriedContact: BitwiseCopyable {
    /// Body indices, `a < b`.
    var a: Int32
    var b: Int32
    var flags: UInt32
    var normalImpulse: Double
    var tangentImpulse: Double

    @inline(__always) var key: UInt64 { UInt64(UInt32(bitPattern: a)) << 32 | UInt64(UInt32(bitPattern: b)) }
}
