/// Everything needed to add a ball to a ``PhysicsWorld``.
///
/// Defaults are UIKit Dynamics' (`UIDynamicItemBehavior`): no bounce, no friction, no
/// resistance, density 1, rotation allowed. The fields map one to one onto the keys of a
/// script table such as `world:add_ball{x=, y=, radius=, elasticity=, friction=}`.
public struct BallDefinition: Hashable, Sendable {
    /// Centre, in pixels.
    public var position: Vec2
    /// Pixels; must be positive and finite.
    public var radius: Double
    /// Pixels per second.
    public var velocity: Vec2 = .zero
    /// Radians, clockwise positive.
    public var angle = 0.0
    /// Radians per second.
    public var angularVelocity = 0.0
    /// UIKit's density: mass is `density * area / 10_000`, so a 100 x 100 item of
    /// density 1 weighs 1. Ignored when ``mass`` is set.
    public var density = 1.0
    /// An explicit mass that overrides ``density``; must be positive.
    public var mass: Double?
    /// Restitution: 0 does not bounce, 1 bounces back at full speed.
    public var elasticity = 0.0
    /// Coulomb coefficient: 0 slides freely, 1 is strong; higher values are allowed.
    public var friction = 0.0
    /// Linear velocity damping per second (UIKit's `resistance`).
    public var resistance = 0.0
    /// Angular velocity damping per second (UIKit's `angularResistance`).
    public var angularResistance = 0.0
    /// When false the ball never spins, so friction stops it instead of rolling it.
    public var allowsRotation = true
    /// What the ball collides with (see ``CollisionFilter``).
    public var filter = CollisionFilter.standard
    /// A sensor reports the balls and walls it overlaps (contact and separation events) but
    /// never pushes or is pushed, and passes through the bounds.
    public var isSensor = false

    /// A ball at `position` with the given material; the rest keeps UIKit's defaults.
    public init(
        position: Vec2, radius: Double, velocity: Vec2 = .zero,
        elasticity: Double = 0, friction: Double = 0, density: Double = 1, resistance: Double = 0
    ) {
        self.position = position
        self.radius = radius
        self.velocity = velocity
        self.elasticity = elasticity
        self.friction = friction
        self.density = density
        self.resistance = resistance
    }

    /// The mass this definition gives its ball.
    public var resolvedMass: Double {
        if let mass { return mass }
        return density * Double.pi * radius * radius / 10_000
    }
}
