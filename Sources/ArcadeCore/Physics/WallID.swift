/// Names a wall in a ``PhysicsWorld``.
///
/// Several walls may share an identifier string (the ball-catch article gives two boxes the
/// identifier "box1"); the id is what tells them apart. Ids are never reused.
public struct WallID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The id as an integer, for handing to scripts and taking back.
    public let rawValue: UInt32

    /// Rebuilds an id from ``rawValue``.
    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// Creation order.
    public static func < (a: WallID, b: WallID) -> Bool { a.rawValue < b.rawValue }

    /// `wall#id`, for logs and test failures.
    public var description: String { "wall#\(rawValue)" }
}
