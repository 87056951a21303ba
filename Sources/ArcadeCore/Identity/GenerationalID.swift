/// Names something kept in a reusable storage slot: the slot and the slot's generation.
///
/// A slot's generation grows each time its occupant goes, so an id outlives what it named
/// harmlessly: the owner no longer resolves it, and a later occupant of the same slot gets a
/// new id. ``BodyID`` and ``AnimationID`` are the two kinds; `Kind` only keeps them apart.
public struct GenerationalID<Kind: GenerationalIDKind>: Hashable, Sendable, CustomStringConvertible {
    /// Generation in the high 32 bits, slot in the low 32; stable while the thing lives, so a
    /// binding can hand it to scripts as an integer and take it back.
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

    /// `kind#slot.generation` (`body#3.1`), for logs and test failures.
    public var description: String { "\(Kind.name)#\(slot).\(generation)" }
}

/// What a ``GenerationalID`` names.
public protocol GenerationalIDKind {
    /// The word an id's ``GenerationalID/description`` starts with.
    static var name: String { get }
}
