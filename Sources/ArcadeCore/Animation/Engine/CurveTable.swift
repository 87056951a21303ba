/// Every timing curve in use, stored once and referred to by index.
///
/// Nodes hold a 32-bit index instead of a 56-byte curve: thousands of coins easing the
/// same way share one entry, which stays in cache. Core Animation's named curves and the
/// Penner set are pinned at fixed indices; other curves (custom Beziers, springs) are
/// reference counted and their slots reused, so the table stays bounded.
///
/// Each Bezier entry also has a table of the parameter t at x = 0, 1/16, ... 1, so the
/// step's Newton solve starts within a sixteenth and brackets its bisection fallback:
/// a few nanoseconds instead of tens for the ease-in and ease-out curves, whose flat ends
/// slow Newton down from the usual start t = x.
struct CurveTable {
    private(set) var curves = RawBuffer<TimingCurve>(capacity: 64)
    /// `tableSize` parameters per entry (unused for curves that are not Beziers).
    private(set) var parameterTables = RawBuffer<Double>(capacity: 64 * 17)

    /// Samples per Bezier table: x = 0, 1/16, ... 1.
    static let tableSize = 17
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
            parameterTables.append(repeating: 0, count: Self.tableSize)
            fillTable(Int(lookup[c]!))
            references.append(0)
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
            parameterTables.append(repeating: 0, count: Self.tableSize)
            references.append(1)
        }
        fillTable(Int(i))
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
            freeSlots.append(i)
        }
    }

    /// Curves held beyond the pinned set.
    var customCount: Int { curves.count - pinnedCount - freeSlots.count }

    /// Entries reserved, in use or free.
    var footprint: Int { curves.count }

    func destroy() {
        curves.destroy()
        parameterTables.destroy()
    }

    private func fillTable(_ i: Int) {
        let c = curves[i]
        guard case .cubicBezier = c.form else { return }
        let n = Self.tableSize - 1
        for k in 0...n {
            let x = Double(k) / Double(n)
            parameterTables[i * Self.tableSize + k] = k == 0 ? 0 : k == n ? 1 : c.solveBezierX(x, guess: x, lo: 0, hi: 1)
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
        let s = x * Double(tableSize - 1)
        let k = min(Int(s), tableSize - 2)
        let lo = table[k], hi = table[k + 1]
        let t = c.pointee.solveBezierX(x, guess: lo + (hi - lo) * (s - Double(k)), lo: lo, hi: hi)
        return c.pointee.bezierY(t)
    }
}
