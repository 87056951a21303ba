/// A contact constraint between a ball and a wall (or a side of the bounds), alive for one
/// step; like ``BallContact`` but the wall has infinite mass and its own velocity.
/// Sorted by `(body, wallKey)` for warm starting.
struct WallContact: BitwiseCopyable {
    var body: Int32
    /// Index into the step's wall geometry.
    var wall: Int32
    /// The wall's matching key (``WallGeometry/key``).
    var wallKey: UInt32
    var flags: UInt32 = 0
    /// Unit normal from the wall towards the ball, refreshed every substep.
    var nx = 0.0
    var ny = 0.0
    var separation = 0.0
    /// Nearest point on the wall, for the contact event.
    var px = 0.0
    var py = 0.0
    var normalImpulse = 0.0
    var tangentImpulse = 0.0
    var normalMass = 0.0
    var tangentMass = 0.0
    var friction = 0.0

    init(body: Int32, wall: Int32, wallKey: UInt32) {
        self.body = body
        self.wall = wall
        self.wallKey = wallKey
    }

    @inline(__always) var key: UInt64 { UInt64(UInt32(bitPattern: body)) << 32 | UInt64(wallKey) }

    @inline(__always) mutating func setGeometry(_ m: WallManifold) {
        nx = m.nx
        ny = m.ny
        separation = m.separation
        px = m.px
        py = m.py
    }
}
