import Synchronization

/// The plain numbers of an animatable object, kept where the animation engine writes them
/// in place: no value boxed as an ``AnimatableValue``, no call through the object's type,
/// one flag raised per write.
///
/// An object that offers them (``Animatable/animatableFields``) reads its position, scale,
/// turn and opacity from this memory and owns it for its whole life; the engine writes
/// ``x`` to ``alpha`` and raises ``moved`` when it writes any of the first five.
/// Laid out as six doubles in this order followed by the flag; the engine addresses them
/// by ``AnimatableProperty/fieldSlot``.
public struct AnimatableFields {
    public var x: Double
    public var y: Double
    public var scaleX: Double
    public var scaleY: Double
    /// Radians, clockwise positive.
    public var rotation: Double
    public var alpha: Double
    /// Set by every write of a position, scale or turn; the owner clears it once it has
    /// worked out what depends on them.
    public var moved: Bool
    /// Bits the object that owns the fields keeps for itself, on the line the engine writes
    /// anyway (a scene node's drawing flags: drawing then reads one line of a node where it
    /// would read two), all but ``heldElsewhereBit``, which engines read. Engines never
    /// write them.
    public var ownerFlags: UInt8 = 0
    /// The owner entry an animation engine keeps for the object while animations run on
    /// it (see ``Animator``), so the engine finds it without a lookup: `ownerIndex` in the
    /// engine tagged `ownerEngine`, 0 when no engine has claimed the place. Only engines
    /// read and write these; with them and ``ownerFlags`` the fields still take 56 bytes.
    var ownerEngine: UInt16 = 0
    var ownerIndex: Int32 = -1

    /// Fields at `(x, y)`, unscaled, unturned, opaque, marked moved.
    public init(x: Double = 0, y: Double = 0) {
        self.x = x
        self.y = y
        scaleX = 1
        scaleY = 1
        rotation = 0
        alpha = 1
        moved = true
    }

    /// The bit of ``ownerFlags`` an owner raises only while it is certain that something
    /// other than the animation engines holds a strong reference to it (a scene node while
    /// its parent's child array holds it). An engine ends the animations of a target only
    /// it still holds, at the next step; a target that shows this bit cannot be in that
    /// case, so the engine skips asking the runtime whether its reference is the last one
    /// (a call per target per step, a fifth of a step of ten thousand coin flights).
    /// Raising it while nothing else holds the object would keep its animations running.
    public static let heldElsewhereBit: UInt8 = 0x80

    /// Whether the owner says it is held elsewhere (``heldElsewhereBit``).
    @inline(__always) public var isHeldElsewhere: Bool { ownerFlags & Self.heldElsewhereBit != 0 }

    /// Raises or lowers ``heldElsewhereBit``: the only way an owner should change it.
    /// Lowering it while an engine animates the owner moves ``heldEpoch`` on, which tells
    /// every engine to read the bit of each of its targets again at its next step (until
    /// then an engine goes by what it read last, without reading its targets' memory).
    @inline(__always) public mutating func setHeldElsewhere(_ held: Bool) {
        if held {
            ownerFlags |= Self.heldElsewhereBit
        } else if ownerFlags & Self.heldElsewhereBit != 0 {
            ownerFlags &= ~Self.heldElsewhereBit
            if ownerEngine != 0 { Self.heldEpoch.add(1, ordering: .relaxed) }
        }
    }

    /// How many times an animated owner has lowered ``heldElsewhereBit`` (any thread's).
    static let heldEpoch = Atomic<UInt64>(0)

    /// Slot of ``alpha``: writes below it raise ``moved``.
    static let alphaSlot = 5
}

extension AnimatableProperty {
    /// Where the property's first number sits in ``AnimatableFields`` (counted in doubles),
    /// or nil when it is not stored there. A vector takes two slots; ``scale`` writes the
    /// same number into two.
    var fieldSlot: Int8? {
        switch self {
        case .x, .position: 0
        case .y: 1
        case .scale, .scaleX: 2
        case .scaleY: 3
        case .rotation: 4
        case .alpha: 5
        default: nil
        }
    }
}
