/// Every timing curve in use, stored once and referred to by index.
///
/// Nodes hold a 32-bit index instead of a 56-byte curve: thousands of coins easing the
/// same way share one entry, which stays in cache. Core Animation's named curves and the
/// Penner set are pinned at fixed indices; other curves (custom Beziers, springs) are
/// reference counted and their slots reused, so the table stays bounded.
///
/// Each Bezier entry also has a table of the parameter t and its slope dt/dx at x = 0,
/// 1/256, ... 1 (solved once, exactly). A step starts Newton's method from the cubic
/// Hermite interpolation of that table, which is already within the tolerance nearly
/// everywhere, so usually no iteration runs; the bisection fallback is bracketed by the
/// table. Solving from t = x instead takes three or more dependent iterations for the
/// ease-in and ease-out curves, whose flat ends slow Newton down, and that chain of
/// divisions was most of a coin's step.
struct CurveTable {
    private(set) var curves = RawBuffer<TimingCurve>(capacity: 64)
    /// Per entry: where its parameter table starts in `parameterTables`, -1 for curves
    /// that are not Beziers.
    private(set) var tableStarts = RawBuffer<Int32>(capacity: 64)
    /// Bezier tables, `2 * tableSize` numbers each: (t, dt/dx) per sample.
    private(set) var parameterTables = SlabPool<Double>(filler: 0)

    /// Samples per Bezier table: x = 0, 1/256, ... 1.
    static let tableSize = 257
    private var references: [Int32] = []
    private var lookup: [TimingCurve: Int32] = [:]
    private var freeSlots: [Int32] = []
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
            addTable(curves.count - 1)
        }
    }

    /// The index for `curve`, adding it when new; pair with ``release(_:)``.
    mutating func retain(_ curve: TimingCurve) -> Int32 {
        // Most references are to the linear curve: skip hashing for it.
        if case .linear = curve.form { return Self.linearIndex }
        if let i = lookup[curve] {
            if Int(i) >= pinnedCount { references[Int(i)] += 1 }
            return i
        }
        let i: Int32
        if let free = freeSlots.popLast() {
            i = free
            curves[Int(i)] = curve
            references[Int(i)] = 1
        } else {
            i = Int32(curves.count)
            curves.append(curve)
            tableStarts.append(-1)
            references.append(1)
        }
        addTable(Int(i))
        lookup[curve] = i
        return i
    }

    /// Drops one reference taken by ``retain(_:)``.
    mutating func release(_ i: Int32) {
        let s = Int(i)
        guard s >= pinnedCount else { return }
        references[s] -= 1
        if references[s] == 0 {
            lookup[curves[s]] = nil
            curves[s] = .linear
            if tableStarts[s] >= 0 {
                parameterTables.release(Int(tableStarts[s]), count: 2 * Self.tableSize)
                tableStarts[s] = -1
            }
            freeSlots.append(i)
        }
    }

    /// Curves held beyond the pinned set.
    var customCount: Int { curves.count - pinnedCount - freeSlots.count }

    /// Entries reserved, in use or free.
    var footprint: Int { curves.count + parameterTables.footprint }

    func destroy() {
        curves.destroy()
        tableStarts.destroy()
        parameterTables.destroy()
    }

    /// Gives entry `i` its parameter table when it is a Bezier.
    private mutating func addTable(_ i: Int) {
        let c = curves[i]
        guard case .cubicBezier = c.form else { return }
        let start = parameterTables.allocate(2 * Self.tableSize)
        tableStarts[i] = Int32(start)
        let n = Self.tableSize - 1
        for k in 0...n {
            let x = Double(k) / Double(n)
            let t = k == 0 ? 0 : k == n ? 1 : c.solveBezierX(x, guess: x, lo: 0, hi: 1)
            // dt/dx is infinite where x(t) is flat (the ends of ease-out and ease-in):
            // the interpolation there is not finite and the step falls back to Newton.
            let slope = (3 * c.k0 * t + 2 * c.k1) * t + c.k2
            parameterTables[start + 2 * k] = t
            parameterTables[start + 2 * k + 1] = slope > 1e-9 ? 1 / slope : .infinity
        }
    }

    /// A Bezier curve's value at `x`, starting from its parameter table (`table` points at
    /// the entry's samples). Same solution as ``TimingCurve/value(at:)`` to the solver's
    /// tolerance (1e-7 in x), from a closer start.
    @inline(__always)
    static func bezierValue(_ c: UnsafeMutablePointer<TimingCurve>, _ table: UnsafeMutablePointer<Double>,
                            _ x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let n = Double(tableSize - 1)
        let s = x * n
        let k = min(Int(s), tableSize - 2)
        let u = s - Double(k)
        let e = table + 2 * k
        let t0 = e[0], m0 = e[1] / n, t1 = e[2], m1 = e[3] / n
        // Cubic Hermite between the two samples, in Horner form.
        let d = t1 - t0
        var t = ((((m0 + m1) - 2 * d) * u + (3 * d - 2 * m0 - m1)) * u + m0) * u + t0
        if !(t >= t0 && t <= t1) { t = t0 + d * u } // not finite next to a flat end
        if abs(c.pointee.bezierX(t) - x) < 1e-7 {
            return c.pointee.bezierY(t)
        }
        return c.pointee.bezierY(c.pointee.solveBezierX(x, guess: t, lo: t0, hi: t1))
    }
}
