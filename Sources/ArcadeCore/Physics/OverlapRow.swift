/// One contact in the overlap problem of a substep: a pair of balls (or a ball and a wall,
/// `a == -1`) whose pseudo-velocity along `n` must reach `target` (positive: apart, negative:
/// at most that fast into the wall). Solved several times over, so a ball squeezed between
/// overlapping neighbours is pushed out as far as its own overlap asks, not only as far as
/// the neighbours' pushes leave it.
struct OverlapRow: BitwiseCopyable {
    var a: Int32
    var b: Int32
    var nx: Double
    var ny: Double
    var target: Double
    var normalMass: Double
    /// Pseudo-impulse applied by this row so far this substep (never negative).
    var impulse: Double
}
