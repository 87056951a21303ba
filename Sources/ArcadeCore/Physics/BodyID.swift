/// Names a ball in a ``PhysicsWorld``.
///
/// An id outlives its body harmlessly: once the body is removed the world ignores the id,
/// and a later body that reuses the storage slot gets a new generation, so an old handle
/// held by a script never reaches the wrong ball.
public typealias BodyID = GenerationalID<PhysicsBody>

/// The kind of ``BodyID``.
public enum PhysicsBody: GenerationalIDKind {
    public static let name = "body"
}
