/// An axis-aligned box for the broad phase.
struct AABB: BitwiseCopyable {
    var minX: Double
    var minY: Double
    var maxX: Double
    var maxY: Double

    @inline(__always) func overlaps(_ o: AABB) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }

    /// This box with `margin` added on every side.
    @inline(__always) func grown(by margin: Double) -> AABB {
        AABB(minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin)
    }

    /// True when `o` lies entirely inside this box (edges included).
    @inline(__always) func contains(_ o: AABB) -> Bool {
        minX <= o.minX && o.maxX <= maxX && minY <= o.minY && o.maxY <= maxY
    }

    /// ``overlaps(_:)`` without short-circuit branches, for the broad phase's inner loop where
    /// the outcome is a coin toss to the branch predictor.
    @inline(__always) func overlapsBranchless(_ o: AABB) -> Bool {
        // The four comparisons as one vector comparison: scalar ones the compiler turns back
        // into branches.
        let low = SIMD4(minX, minY, o.minX, o.minY)
        let high = SIMD4(o.maxX, o.maxY, maxX, maxY)
        return all(low .<= high)
    }
}
