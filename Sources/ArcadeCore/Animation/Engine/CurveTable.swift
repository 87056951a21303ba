/// Every timing curve in use, stored once and referred to by index.
///
/// Nodes hold a 32-bit index instead of a 56-byte curve: thousands of coins easing the
/// same way share one entry, which stays in cache. Core Animation's named curves and the
/// Penner set are pinned at fixed indices; other curves (custom Beziers, springs) are
/// reference counted. An entry nothing refers to stays cached for the next animation that
/// uses the same curve (a game restarts the same pop or flight again and again, and a
/// Bezier's table takes a while to build); once ``idleLimit`` entries are cached, a new
/// curve takes the oldest one's place. So the table stays bounded.
///
/// Each Bezier entry also has a table: the curve solved exactly (Newton and bisection, as
/// ``TimingCurve/value(at:)`` does) at x = 0, 1/256, ... 1, with its slope dy/dx there,
/// stored as one cubic Hermite polynomial per interval. A step evaluates one polynomial
/// instead of solving x(t) = x: the solve is a chain of dependent multiplications and
/// divisions and was a quarter of a coin's step. Every interval is checked against the
/// exact solve when the table is built; an interval that is off by more than 1e-7 (next
/// to a flat end, where dy/dx is not finite) is marked and solved exactly at each step.
struct CurveTable {
    private(set) var curves = RawBuffer<TimingCurve>(capacity: 64)
    /// Per entry: where its table starts in `bezierTables`, -1 for curves that are not
    /// Beziers.
    private(set) var tableStarts = RawBuffer<Int32>(capacity: 64)
    /// Bezier tables, `4 * intervals` numbers each: the cubic's coefficients per interval,
    /// highest power first, NaN for an interval that is solved exactly.
    private(set) var bezierTables = SlabPool<Double>(filler: 0)

    /// Intervals per Bezier table.
    static let intervals = 256
    private var references: [Int32] = []
    private var lookup: [TimingCurve: Int32] = [:]
    /// Unreferenced entries, oldest first; may hold entries referenced again since.
    private var idle: [Int32] = []
    private var idleHead = 0
    /// Whether each entry is in `idle`.
    private var queued: [Bool] = []
    /// Entries with no references (cached).
    private var idleCount = 0
    /// Unreferenced curves kept cached.
    static let idleLimit = 32
    /// Entries below this index are pinned.
    private let pinnedCount: Int

    /// Index of ``TimingCurve/linear``, which evaluation short-cuts.
    static let linearIndex: Int32 = 0

    init() {
        var pinned: [TimingCurve] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]
        for family in EasingFamily.allCases {
            for direction in EasingDirection.allCases {
                pinned.append(.easing(family, direction))
            }
        }
        pinnedCount = pinned.count
        for c in pinned {
            lookup[c] = Int32(curves.count)
            curves.append(c)
            tableStarts.append(-1)
            references.append(0)
            queued.append(false)
            addTable(curves.count - 1)
        }
    }

    /// The index for `curve`, adding it when new; pair with ``release(_:)``.
    mutating func retain(_ curve: TimingCurve) -> Int32 {
        // Most references are to the linear curve: skip hashing for it.
        if case .linear = curve.form { return Self.linearIndex }
        if let i = lookup[curve] {
            let s = Int(i)
            if s >= pinnedCount {
                if references[s] == 0 { idleCount -= 1 }
                references[s] += 1
            }
            return i
        }
        let i: Int32
        if idleCount >= Self.idleLimit, let oldest = popIdle() {
            i = oldest
            lookup[curves[Int(i)]] = nil
            if tableStarts[Int(i)] >= 0 {
                bezierTables.release(Int(tableStarts[Int(i)]), count: 4 * Self.intervals)
                tableStarts[Int(i)] = -1
            }
            idleCount -= 1
            curves[Int(i)] = curve
            references[Int(i)] = 1
        } else {
            i = Int32(curves.count)
            curves.append(curve)
            tableStarts.append(-1)
            references.append(1)
            queued.append(false)
        }
        addTable(Int(i))
        lookup[curve] = i
        return i
    }

    /// The index of `curve` when it is pinned (at the same index in every table, never
    /// counted: ``retain(_:)`` and ``release(_:)`` change nothing for it), else nil.
    func pinnedIndex(_ curve: TimingCurve) -> Int32? {
        if case .linear = curve.form { return Self.linearIndex }
        guard let i = lookup[curve], Int(i) < pinnedCount else { return nil }
        return i
    }

    /// Drops one reference taken by ``retain(_:)``.
    mutating func release(_ i: Int32) {
        let s = Int(i)
        guard s >= pinnedCount else { return }
        references[s] -= 1
        if references[s] == 0 {
            idleCount += 1
            if !queued[s] {
                queued[s] = true
                idle.append(i)
            }
        }
    }

    /// The oldest entry nothing refers to.
    private mutating func popIdle() -> Int32? {
        while idleHead < idle.count {
            let i = idle[idleHead]
            idleHead += 1
            queued[Int(i)] = false
            if references[Int(i)] == 0 {
                compactIdle()
                return i
            }
        }
        compactIdle()
        return nil
    }

    private mutating func compactIdle() {
        if idleHead > 64 && idleHead * 2 > idle.count {
            idle.removeFirst(idleHead)
            idleHead = 0
        }
    }

    /// Curves beyond the pinned set that animations refer to.
    var liveCustomCount: Int { curves.count - pinnedCount - idleCount }

    /// Entries reserved, in use or free.
    var footprint: Int { curves.count + bezierTables.footprint }

    func destroy() {
        curves.destroy()
        tableStarts.destroy()
        bezierTables.destroy()
    }

    /// Gives entry `i` its interpolation table when it is a Bezier.
    private mutating func addTable(_ i: Int) {
        let c = curves[i]
        guard case .cubicBezier = c.form else { return }
        let n = Self.intervals
        let start = bezierTables.allocate(4 * n)
        tableStarts[i] = Int32(start)
        let h = 1 / Double(n)
        // dy/dx at parameter t, or NaN where x(t) is flat.
        func slope(_ t: Double) -> Double {
            let dx = (3 * c.k0 * t + 2 * c.k1) * t + c.k2
            let dy = (3 * c.k3 * t + 2 * c.k4) * t + c.k5
            return dx > 1e-9 ? dy / dx : .nan
        }
        var t0 = 0.0
        for k in 0..<n {
            let t1 = k == n - 1 ? 1 : c.solveBezierX(Double(k + 1) * h, guess: Double(k + 1) * h, lo: 0, hi: 1)
            let y0 = c.bezierY(t0), y1 = c.bezierY(t1)
            let m0 = slope(t0) * h, m1 = slope(t1) * h, d = y1 - y0
            var cubic = (m0 + m1 - 2 * d, 3 * d - 2 * m0 - m1, m0, y0)
            for u in [0.25, 0.5, 0.75] {
                let hermite = ((cubic.0 * u + cubic.1) * u + cubic.2) * u + cubic.3
                let exact = c.bezierValue((Double(k) + u) * h)
                if !(abs(hermite - exact) <= 1e-7) { cubic.0 = .nan }
            }
            bezierTables[start + 4 * k] = cubic.0
            bezierTables[start + 4 * k + 1] = cubic.1
            bezierTables[start + 4 * k + 2] = cubic.2
            bezierTables[start + 4 * k + 3] = cubic.3
            t0 = t1
        }
    }

    /// A Bezier curve's value at `x` from its table (`table` points at the entry's
    /// coefficients): within 1e-7 of ``TimingCurve/value(at:)`` where checked, exactly it
    /// in the marked intervals, and exactly 0 and 1 at the ends.
    @inline(__always)
    static func bezierValue(_ c: UnsafeMutablePointer<TimingCurve>, _ table: UnsafeMutablePointer<Double>,
                            _ x: Double) -> Double {
        let y = tabledValue(table, x)
        return y.isNaN ? c.pointee.bezierValue(x) : y
    }

    /// ``bezierValue(_:_:_:)`` from the table alone: NaN in the intervals marked for the
    /// exact solve. A loop that calls nothing can take it and send the few NaN results to
    /// ``bezierValue(_:_:_:)`` afterwards. `x` must not be NaN.
    @inline(__always)
    static func tabledValue(_ table: UnsafePointer<Double>, _ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let s = x * Double(intervals)
        let k = min(Int(s), intervals - 1)
        let u = s - Double(k)
        let e = table + 4 &* k
        return ((e[0] * u + e[1]) * u + e[2]) * u + e[3]
    }
}
