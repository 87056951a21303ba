/// A contact that struck during the current substep, with the normal velocity it struck at
/// (negative: approaching); its bounce is applied once the substep's passes are done.
struct PendingBounce: BitwiseCopyable {
    var contact: Int32
    var approachVelocity: Double
}
