/// The frame writer's working memory, one entry per cell, allocated once per frame size:
/// flat buffers the hot loops index without bounds checks or copy-on-write checks.
///
/// Holds the changed cells of the frame that are not written yet, in reading order: their
/// rows and columns, split into three arrays how each will look (its ``TerminalCell``), so
/// counting the cells some colours can show is a loop over plain words, and the places in
/// the ``PenTable`` of the colours that can show each.
struct RowScratch {
    let rows: UnsafeMutablePointer<Int32>
    let columns: UnsafeMutablePointer<Int32>
    let scalars: UnsafeMutablePointer<UInt32>
    let firsts: UnsafeMutablePointer<UInt32>
    let seconds: UnsafeMutablePointer<UInt32>
    /// The pen table's entries for the colours that show the cell, -1 for none.
    let pens: UnsafeMutablePointer<SIMD2<Int16>>

    private init(rows: UnsafeMutablePointer<Int32>, columns: UnsafeMutablePointer<Int32>, scalars: UnsafeMutablePointer<UInt32>,
                 firsts: UnsafeMutablePointer<UInt32>, seconds: UnsafeMutablePointer<UInt32>, pens: UnsafeMutablePointer<SIMD2<Int16>>) {
        self.rows = rows
        self.columns = columns
        self.scalars = scalars
        self.firsts = firsts
        self.seconds = seconds
        self.pens = pens
    }

    /// The entries from `start` on, as a scratch of their own (the same memory).
    func slice(_ start: Int) -> RowScratch {
        RowScratch(rows: rows + start, columns: columns + start, scalars: scalars + start, firsts: firsts + start,
                   seconds: seconds + start, pens: pens + start)
    }

    /// Entries past the capacity that eight-wide reads may touch (``countShown(_:with:)``
    /// reads whole groups of eight and ignores those past its count).
    static let padding = 8

    init(capacity: Int) {
        let n = max(capacity, 1) + RowScratch.padding
        rows = .allocate(capacity: n)
        rows.initialize(repeating: 0, count: n)
        columns = .allocate(capacity: n)
        columns.initialize(repeating: 0, count: n)
        scalars = .allocate(capacity: n)
        scalars.initialize(repeating: 0, count: n)
        firsts = .allocate(capacity: n)
        firsts.initialize(repeating: 0, count: n)
        seconds = .allocate(capacity: n)
        seconds.initialize(repeating: 0, count: n)
        pens = .allocate(capacity: n)
        pens.initialize(repeating: SIMD2(-1, -1), count: n)
    }

    func deallocate() {
        rows.deallocate()
        columns.deallocate()
        scalars.deallocate()
        firsts.deallocate()
        seconds.deallocate()
        pens.deallocate()
    }

    @inline(__always) func look(_ i: Int) -> TerminalCell {
        TerminalCell(scalar: scalars[i], first: firsts[i], second: seconds[i])
    }

    @inline(__always) func set(_ i: Int, row: Int32, column: Int32, look: TerminalCell) {
        rows[i] = row
        columns[i] = column
        scalars[i] = look.scalar
        firsts[i] = look.first
        seconds[i] = look.second
    }

    /// The first `count` entries of `other` copied into this one (without their pens).
    @inline(__always) func copy(_ count: Int, from other: RowScratch) {
        rows.update(from: other.rows, count: count)
        columns.update(from: other.columns, count: count)
        scalars.update(from: other.scalars, count: count)
        firsts.update(from: other.firsts, count: count)
        seconds.update(from: other.seconds, count: count)
    }

    /// Entry `from` copied to `to`.
    @inline(__always) func move(_ from: Int, to: Int) {
        moveInRow(from, to: to)
        rows[to] = rows[from]
        pens[to] = pens[from]
    }

    /// Entry `from` copied to `to` within one row: its column and look.
    @inline(__always) func moveInRow(_ from: Int, to: Int) {
        columns[to] = columns[from]
        scalars[to] = scalars[from]
        firsts[to] = firsts[from]
        seconds[to] = seconds[from]
    }

    /// How many of the first `count` entries `pen` shows without a colour change: the
    /// count of ``TerminalCell/shows(with:)``, eight cells at a time (the last group read
    /// whole, its entries past `count` left out: this scratch's memory goes on for
    /// ``padding`` entries past its capacity).
    @inline(__always) func countShown(_ count: Int, with pen: PenState) -> Int {
        let fg = pen.foreground, bg = pen.background
        let vfg = SIMD8<UInt32>(repeating: fg), vbg = SIMD8<UInt32>(repeating: bg)
        let zero = SIMD8<UInt32>(repeating: 0), one = SIMD8<UInt32>(repeating: 1)
        let lane = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)
        var lanes = zero
        var i = 0
        while i < count {
            let f = UnsafeRawPointer(firsts + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let s = UnsafeRawPointer(seconds + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let c = UnsafeRawPointer(scalars + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let straight = (f .== vfg) .& (s .== vbg)
            let swapped = (f .== vbg) .& ((s .== vfg) .| (f .== s))
            let inside = lane .< SIMD8<UInt32>(repeating: UInt32(truncatingIfNeeded: count &- i))
            lanes &+= zero.replacing(with: one, where: (straight .| ((c .== zero) .& swapped)) .& inside)
            i &+= 8
        }
        return Int(lanes.wrappedSum())
    }
}
