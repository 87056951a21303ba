/// A scene object that mirrors a body: after each step the world writes the body's centre
/// to its `.position` (and its angle to `.rotation` when asked). Held weakly, so a removed
/// scene node simply stops being written.
struct BodyBinding {
    weak var object: (any Animatable)?
    var writesRotation: Bool
}
