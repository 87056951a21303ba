/// Which shapes collide, as Box2D's filter: a shape belongs to the categories set in
/// ``category`` and collides with those set in ``mask``, and two shapes collide only when each
/// one's mask takes the other's category. A nonzero ``group`` overrides that for shapes of the
/// same group: a positive group always collides, a negative one never does.
public struct CollisionFilter: Hashable, Sendable, BitwiseCopyable {
    /// The categories this shape belongs to (32 bits); usually one bit.
    public var category: UInt32
    /// The categories this shape collides with.
    public var mask: UInt32
    /// 0 for none; shapes sharing a positive group always collide, a negative one never.
    public var group: Int32

    /// Category 1, every mask bit, no group: everything collides with everything.
    public static let standard = CollisionFilter()

    public init(category: UInt32 = 1, mask: UInt32 = .max, group: Int32 = 0) {
        self.category = category
        self.mask = mask
        self.group = group
    }

    /// True when a shape with this filter and one with `other` collide.
    @inline(__always) public func accepts(_ other: CollisionFilter) -> Bool {
        if group != 0 && group == other.group { return group > 0 }
        return mask & other.category != 0 && other.mask & category != 0
    }
}

/// A ball's filter and whether it is a sensor, as the broad phase reads them per pair.
struct BodyFilter: BitwiseCopyable {
    var filter: CollisionFilter
    /// A sensor reports what it overlaps and never pushes or is pushed.
    var isSensor: Bool

    static let standard = BodyFilter(filter: .standard, isSensor: false)

    /// True when the pair may touch at all: the filters accept each other and they are not
    /// both sensors (sensors do not report each other).
    @inline(__always) func pairs(with other: BodyFilter) -> Bool {
        !(isSensor && other.isSensor) && filter.accepts(other.filter)
    }

    var isStandard: Bool { !isSensor && filter == .standard }
}
