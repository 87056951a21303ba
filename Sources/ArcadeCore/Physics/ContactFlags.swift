/// Bits of a contact's state across the substeps of one step and into the next.
enum ContactFlags {
    /// The pair was touching at the end of the previous step (carried by warm starting).
    static let wasTouching: UInt32 = 1
    /// The pair touched during this step; becomes `wasTouching` next step.
    static let touching: UInt32 = 2
    /// The pair struck hard enough to bounce in the current substep; the bounce is applied
    /// after the substep's relax pass.
    static let bouncePending: UInt32 = 4
    /// The bounce has been applied this step, so a resting rebound cannot bounce twice.
    static let bounced: UInt32 = 8
    /// A positive normal impulse passed between the pair during this step.
    static let pushed: UInt32 = 16
    /// The contact is with b's image across a seam of a wrap-around world, shifted by plus or
    /// minus the region's width (x) or height (y). Fixed for the step: positions fold only
    /// after it.
    static let imageXPlus: UInt32 = 32
    static let imageXMinus: UInt32 = 64
    static let imageYPlus: UInt32 = 128
    static let imageYMinus: UInt32 = 256
    static let image: UInt32 = imageXPlus | imageXMinus | imageYPlus | imageYMinus

    /// The image bits for an offset of `ox, oy` added to b's position.
    static func image(_ ox: Double, _ oy: Double) -> UInt32 {
        (ox > 0 ? imageXPlus : ox < 0 ? imageXMinus : 0) | (oy > 0 ? imageYPlus : oy < 0 ? imageYMinus : 0)
    }
}

extension WrapTopology {
    /// The offset the image bits of `flags` stand for.
    @inline(__always) func offset(_ flags: UInt32) -> (x: Double, y: Double) {
        let x = flags & ContactFlags.imageXPlus != 0 ? width : flags & ContactFlags.imageXMinus != 0 ? -width : 0
        let y = flags & ContactFlags.imageYPlus != 0 ? height : flags & ContactFlags.imageYMinus != 0 ? -height : 0
        return (x, y)
    }
}
