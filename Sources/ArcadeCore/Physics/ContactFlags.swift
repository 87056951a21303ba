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
}
