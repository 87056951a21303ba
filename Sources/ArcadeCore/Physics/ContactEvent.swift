/// What a ball began touching.
public enum ContactPartner: Hashable, Sendable {
    /// The world's reference bounds, UIKit's boundary whose identifier is nil.
    case bounds
    /// A wall added with ``PhysicsWorld/addWall(_:shape:)``.
    case wall(WallID)
    /// Another ball; it was added after ``ContactEvent/body``.
    case body(BodyID)
}

/// A ball began touching something: UIKit's `beganContactForItem:withBoundaryIdentifier:atPoint:`
/// (and `...withItem:atPoint:` for two balls).
///
/// Fired once when the touch begins, never again while it lasts; a new touch after the two
/// have come apart fires again.
public struct ContactEvent: Hashable, Sendable {
    /// The ball.
    public var body: BodyID
    /// What it touched.
    public var partner: ContactPartner
    /// The wall's identifier when the contact began; nil for the bounds, for another ball
    /// and for a wall added without one.
    public var identifier: String?
    /// Where they touch: on the wall's outline, or midway between two balls' surfaces.
    public var point: Vec2

    /// An event; the world makes these, tests and replays may too.
    public init(body: BodyID, partner: ContactPartner, identifier: String?, point: Vec2) {
        self.body = body
        self.partner = partner
        self.identifier = identifier
        self.point = point
    }
}
