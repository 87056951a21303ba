/// A wall as the game sees it: its outline, identifier and the position it is being moved to.
struct WallRecord {
    let id: WallID
    var identifier: String?
    var shape: WallShape
    /// Set by ``PhysicsWorld/moveWall(_:to:)``: the centre the wall reaches at the end of the
    /// next step, moving at constant velocity so it pushes balls instead of teleporting.
    var target: Vec2?
    var filter = CollisionFilter.standard
    /// Balls pass through a sensor wall; it only reports them.
    var isSensor = false
}
