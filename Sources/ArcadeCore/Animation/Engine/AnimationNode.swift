/// One compiled animation in an ``Animator``: a group or a leaf that drives one property.
///
/// 32 bytes of plain data, so nodes sit back to back in a ``SlabPool`` and a step touches
/// as little memory as possible. A started animation is a run of nodes in preorder: a
/// group is followed by its whole subtree. Everything numeric lives in the run's block of
/// the numbers pool, laid out `[timings][values][model values]` so the values a step reads
/// are contiguous and the model values (read only when snapping back) stay out of the way.
struct AnimationNode {
    enum Form: UInt8 {
        case group, basic, keyframes, path
    }

    /// Bits of ``flags``.
    enum Flag {
        static let autoreverses: UInt8 = 1 << 0
        static let holdsStart: UInt8 = 1 << 1
        static let holdsEnd: UInt8 = 1 << 2
        /// The leaf wrote its property last time it was evaluated, so leaving its active
        /// time must put the model value back.
        static let wrote: UInt8 = 1 << 3
        static let keyTimes: UInt8 = 1 << 4
        /// The leaf writes its one number into two field slots (a uniform scale).
        static let pairedSlot: UInt8 = 1 << 5
    }

    /// Numbers index of the leaf's values: basic `from, to`; keyframes `[key times] values`;
    /// path 8 numbers per cubic segment.
    var data: Int32
    /// Numbers index of the resolved ``NodeTiming`` fields, or -1 for a group child that
    /// runs exactly in its group's time (no delay, speed 1, one pass of the group's duration).
    var timing: Int32
    /// Numbers index of the model value (the property's value at start).
    var model: Int32
    /// Curve table index of the timing curve.
    var curve: Int32
    /// Index pool index of the per-segment curves of a keyframe leaf, or -1.
    var segmentCurves: Int32
    /// Group: nodes in its subtree including itself. Keyframes: values. Path: segments.
    var count: Int32
    /// ``AnimatableProperty/engineCode``.
    var property: UInt16
    var form: Form
    /// Numbers per value: 1 scalar, 2 vector, 4 colour.
    var dimension: UInt8
    var flags: UInt8
    /// The leaf's ``AnimatableProperty/fieldSlot`` when its target offers
    /// ``Animatable/animatableFields`` (written in place), else -1.
    var slot: Int8 = -1

    static let empty = AnimationNode(data: 0, timing: -1, model: 0, curve: CurveTable.linearIndex, segmentCurves: -1,
                                     count: 1, property: 0, form: .basic, dimension: 1, flags: 0)

    /// Nodes from this one to the next sibling.
    @inline(__always)
    var subtreeSize: Int { form == .group ? Int(count) : 1 }

    @inline(__always)
    func has(_ flag: UInt8) -> Bool { flags & flag != 0 }

    /// The property a leaf drives.
    @inline(__always)
    var animatableProperty: AnimatableProperty { AnimatableProperty(engineCode: property) }
}

/// A node's timing, resolved at start; stored as five numbers in its run's block.
struct NodeTiming: Equatable {
    /// Parent seconds before local time starts.
    var delay: Double
    /// Local seconds per parent second.
    var speed: Double
    /// Local seconds of one forward pass (infinite for a group of endless children).
    var duration: Double
    /// Local seconds of all cycles (infinite when repeating forever).
    var activeDuration: Double
    /// Simple time (0...duration) shown once the active time is over.
    var endSimple: Double

    static let fieldCount = 5
}

/// What a step reads per run: 48 bytes, one buffer, in slot order.
struct RunHead {
    /// Animation time at which the run started.
    var start: Double = 0
    /// Root node index, -1 for a free slot.
    var root: Int32 = -1
    /// Index of the target's ``TargetOwner``.
    var owner: Int32 = -1
    /// The target, without reference counting: its owner entry keeps it alive.
    var target: TargetRef? = nil
    /// Index of the run in the engine's ``FlightStore``, -1 when it takes the general walk.
    var flight: Int32 = -1
}

/// A target as a step reaches it: the object, unretained (its ``TargetOwner`` holds the
/// engine's reference), and its type, through which its setter is called on the object as
/// it is. Calling a protocol method on an existential loaded from memory would retain and
/// release the object around every call: two atomic operations per property written, a
/// good part of a coin's step.
struct TargetRef {
    let object: Unmanaged<AnyObject>
    let type: any Animatable.Type
    /// The target's ``Animatable/animatableFields``, which leaves with a slot write in place.
    let fields: UnsafeMutablePointer<AnimatableFields>?

    init(_ target: any Animatable) {
        object = .passUnretained(target)
        type = Swift.type(of: target)
        fields = target.animatableFields
    }

    /// `field` slots from `slot` of the target's fields, raising `moved` for slots below alpha.
    @inline(__always) func fieldSlots(_ slot: Int) -> UnsafeMutablePointer<Double> {
        let f = fields.unsafelyUnwrapped
        if slot < AnimatableFields.alphaSlot { f.pointee.moved = true }
        return UnsafeMutableRawPointer(f).assumingMemoryBound(to: Double.self) + slot
    }

    /// `setAnimatableValue(value, for: property)` on the target.
    @inline(__always) func set(_ value: AnimatableValue, for property: AnimatableProperty) {
        type.setAnimatableValue(value, for: property, on: object)
    }
}

extension Animatable {
    /// Sets `property` on `object`, which must be of this type, borrowing it for the call.
    @inline(__always)
    static func setAnimatableValue(_ value: AnimatableValue, for property: AnimatableProperty, on object: Unmanaged<AnyObject>) {
        object._withUnsafeGuaranteedRef { unsafeDowncast($0, to: Self.self).setAnimatableValue(value, for: property) }
    }
}

/// The engine's single strong reference to a target, shared by all the runs on it, and
/// the list of those runs.
///
/// Holding the target strongly and asking "is this the last reference?" each step
/// (`isKnownUniquelyReferenced`, a plain load) replaces a weak reference: Swift's weak
/// references move an object's reference counts to a side table, after which every
/// retain and release of that object takes a slow path, many times the cost of the
/// whole animation step. The target is still not kept alive by animations: when only the
/// engine holds it, its animations end (`targetGone`) and the reference is dropped.
struct TargetOwner {
    var object: AnyObject?
    /// The target's fields when this entry is recorded there (``AnimatableFields/ownerIndex``),
    /// nil when it is recorded in the engine's `byObject` table instead.
    var fields: UnsafeMutablePointer<AnimatableFields>? = nil
    /// First and last run on this target, linked through ``Run`` in start order.
    var first: Int32 = -1
    var last: Int32 = -1
    /// The target's ``AnimatableFields/isHeldElsewhere`` as the flights' check last read it.
    var held = false
}

extension TargetOwner {
    /// True when only the engine holds the target any more: never while the target's fields
    /// say it is held elsewhere (``AnimatableFields/heldElsewhereBit``), read without a call;
    /// otherwise the runtime is asked whether the engine's reference is the last one.
    @inline(__always) mutating func targetIsGone() -> Bool {
        if let fields, fields.pointee.isHeldElsewhere { return false }
        return isKnownUniquelyReferenced(&object)
    }
}

/// The parts of a started animation a step does not read: bookkeeping for ids,
/// completions, storage and the per-target list.
struct Run {
    /// Start order, the tie-break for completion order.
    var serial: UInt64 = 0
    var token: UInt64 = 0
    var generation: UInt32 = 1
    var nodeCount: Int32 = 0
    var numberStart: Int32 = 0
    var numberCount: Int32 = 0
    var indexStart: Int32 = 0
    var indexCount: Int32 = 0
    /// Neighbours in the target's list of runs (start order), -1 at the ends.
    var previousOnObject: Int32 = -1
    var nextOnObject: Int32 = -1
}
