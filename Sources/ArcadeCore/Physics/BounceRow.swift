/// One contact in the small velocity problem solved when balls strike: the struck contact
/// itself (target: the bounce speed) or another touching contact of a struck ball (target 0,
/// it only holds the ball back).
struct BounceRow: BitwiseCopyable {
    var contact: Int32
    var isWall: Bool
    /// Normal velocity the row pushes up to.
    var target: Double
    /// Impulse applied by this row so far.
    var impulse = 0.0

    init(contact: Int32, isWall: Bool, target: Double) {
        self.contact = contact
        self.isWall = isWall
        self.target = target
    }
}
