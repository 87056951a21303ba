/// What the solver keeps for every contact, ball against ball or ball against wall: the
/// gap, the accumulated impulses and masses along the normal and the tangent, and the
/// contact's flags. The steps that only read or write these (carrying impulses over from
/// the last step, friction, non-penetration, taking the bounces that met) are written once
/// over this protocol and specialised for both kinds.
protocol SolverContact: CarriedImpulses {
    var flags: UInt32 { get set }
    var separation: Double { get }
    var normalImpulse: Double { get set }
    var tangentImpulse: Double { get set }
    var normalMass: Double { get }
    var tangentMass: Double { get }
    var friction: Double { get }
}

/// What a step leaves of a contact to the next one: the pair, whether it touched, and the
/// impulses it ended with (the next step's warm start).
protocol CarriedImpulses: BitwiseCopyable {
    /// Orders the contacts of a step and matches a pair across steps.
    var key: UInt64 { get }
    var flags: UInt32 { get }
    var normalImpulse: Double { get }
    var tangentImpulse: Double { get }
}

extension BallContact: SolverContact {}
extension WallContact: SolverContact {}
extension CarriedContact: CarriedImpulses {}

extension SolverContact {
    /// Takes the impulses and the touching state this pair ended the last step with, from
    /// `previous` (sorted by key, as the new contacts are made): `cursor` advances through
    /// it, so matching a whole step is one merge.
    @inline(__always)
    mutating func carryOver<Previous: CarriedImpulses>(from previous: UnsafeMutablePointer<Previous>, count: Int,
                                                       cursor: inout Int) {
        let key = self.key
        while cursor < count && previous[cursor].key < key { cursor += 1 }
        if cursor < count && previous[cursor].key == key {
            let p = previous[cursor]
            normalImpulse = p.normalImpulse
            tangentImpulse = p.tangentImpulse
            if p.flags & ContactFlags.touching != 0 { flags = ContactFlags.wasTouching }
        }
    }
}
