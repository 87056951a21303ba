/// Names a ball in a ``PhysicsWorld``.
///
/// An id outlives its body harmlessly: once the body is removed the world ignores the id,
/// and a later body that reuses the storage slot gets a new generation, so an old handle
/// held by a script never reaches the wrong ball.
public struct BodyID: Hashable, Sendable, CustomStringConvertible {
    /// Slot in the low 32 bits, generation in the high 32; stable for the body's lifetime,
    /// so a binding can hand it to scripts as an integer and take it back.
    public let rawValue: UInt64

    /// Rebuilds an id from ``rawValue``.
    public init(rawValue: UInt64) {
        self.rawValue = rawValue
    }

    init(slot: Int, generation: UInt32) {
        rawValue = UInt64(generation) << 32 | UInt64(UInt32(truncatingIfNeeded: slot))
    }

    var slot: Int { Int(rawValue & 0xFFFF_FFFF) }
    var generation: UInt32 { UInt32(truncatingIfNeeded: rawValue >> 32) }

    /// `body#slot.generation`, for logs and test failures.
    public var description: String { "body#\(slot).\(generation)" }
}
