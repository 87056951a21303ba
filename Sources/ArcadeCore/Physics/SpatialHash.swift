/// The broad phase: a uniform grid of square cells, hashed into a table so it needs no
/// bounds and costs the same wherever the balls are.
///
/// Rebuilt every step by counting sort (count, prefix-sum, fill), which allocates nothing
/// once the columns have grown and puts the entries of every bucket in body order. That order
/// is what makes the pairs deterministic, and lets a query stop as soon as it reaches bodies
/// it has already paired.
struct SpatialHash {
    struct Entry: BitwiseCopyable {
        var body: Int32
        var cx: Int32
        var cy: Int32
    }

    /// The cells a body's box covers; empty (`x1 < x0`) for an oversized body.
    struct CellRange: BitwiseCopyable {
        var x0: Int32
        var y0: Int32
        var x1: Int32
        var y1: Int32

        var isEmpty: Bool { x1 < x0 }
    }

    /// A body covering more cells than this (a very fast or very large ball) is kept out of
    /// the grid and paired by brute force instead, so one outlier cannot flood the table.
    static let maxCellsPerBody = 16

    private(set) var inverseCellSize = 1.0
    private(set) var mask = 0
    private(set) var columnMask = 0
    private(set) var columnShift = 0
    /// `starts[b] ..< starts[b + 1]` are bucket `b`'s entries.
    private(set) var starts = Column<Int32>()
    private var cursors = Column<Int32>()
    private(set) var entries = Column<Entry>()
    private(set) var ranges = Column<CellRange>()
    /// Bodies left out of the grid, in body order.
    private(set) var oversized = Column<Int32>()

    /// The cell a coordinate falls in; clamped so that huge or non-finite coordinates stay
    /// representable (they only cost extra candidate tests, never a wrong answer).
    @inline(__always) func cell(_ v: Double) -> Int32 {
        let f = (v * inverseCellSize).rounded(.down)
        if f >= 1e9 { return 1_000_000_000 }
        if f > -1e9 { return Int32(f) }
        return f.isNaN ? 0 : -1_000_000_000
    }

    /// The cells `box` covers, or an empty range when they are more than
    /// ``maxCellsPerBody``.
    @inline(__always) func range(of box: AABB) -> CellRange {
        let r = CellRange(x0: cell(box.minX), y0: cell(box.minY), x1: cell(box.maxX), y1: cell(box.maxY))
        let covered = (Int(r.x1) - Int(r.x0) + 1) * (Int(r.y1) - Int(r.y0) + 1)
        return covered > Self.maxCellsPerBody ? CellRange(x0: 1, y0: 0, x1: 0, y1: 0) : r
    }

    /// The table is a wrapped grid, `columnMask + 1` buckets wide: neighbouring cells share
    /// cache lines, and cells far apart that wrap onto the same bucket cost only a skipped
    /// entry (entries carry their cell).
    @inline(__always) func bucket(_ cx: Int32, _ cy: Int32) -> Int {
        (Int(cx) & columnMask) | ((Int(cy) << columnShift) & mask)
    }

    mutating func rebuild(boxes: UnsafeMutablePointer<AABB>, count n: Int, cellSize: Double) {
        inverseCellSize = 1 / max(cellSize, 1e-6)
        ranges.resizeUninitialized(to: n)
        oversized.removeAll()
        var total = 0
        var lowX = Int32.max, highX = Int32.min
        for i in 0..<n {
            let b = boxes[i]
            let r = CellRange(x0: cell(b.minX), y0: cell(b.minY), x1: cell(b.maxX), y1: cell(b.maxY))
            lowX = min(lowX, r.x0)
            highX = max(highX, r.x1)
            let covered = (Int(r.x1) - Int(r.x0) + 1) * (Int(r.y1) - Int(r.y0) + 1)
            if covered > Self.maxCellsPerBody {
                ranges[i] = CellRange(x0: 1, y0: 0, x1: 0, y1: 0)
                oversized.append(Int32(i))
            } else {
                ranges[i] = r
                total += covered
            }
        }
        var size = 16
        while size < 2 * total { size *= 2 }
        mask = size - 1
        // As wide as the occupied columns (a power of two), at most the whole table.
        let span = n > 0 ? Int(highX) - Int(lowX) + 1 : 1
        columnShift = 0
        while (1 << columnShift) < span && (1 << columnShift) < size { columnShift += 1 }
        columnMask = (1 << columnShift) - 1
        starts.fill(count: size + 1, with: 0)
        let st = starts.base
        forEachCell(count: n) { _, cx, cy in
            st[bucket(cx, cy) + 1] += 1
        }
        for b in 0..<size { st[b + 1] += st[b] }
        cursors.resizeUninitialized(to: size)
        cursors.base.update(from: st, count: size)
        entries.resizeUninitialized(to: total)
        let cur = cursors.base
        let es = entries.base
        forEachCell(count: n) { i, cx, cy in
            let b = bucket(cx, cy)
            es[Int(cur[b])] = Entry(body: Int32(i), cx: cx, cy: cy)
            cur[b] += 1
        }
    }

    /// Calls `body` with every cell each of the first `n` bodies covers, in body order and
    /// row by row within a body: the order both passes of the counting sort must agree on.
    @inline(__always)
    private func forEachCell(count n: Int, _ body: (_ index: Int, _ cx: Int32, _ cy: Int32) -> Void) {
        let rs = ranges.base
        for i in 0..<n {
            let r = rs[i]
            if r.isEmpty { continue }
            for cy in r.y0...r.y1 {
                for cx in r.x0...r.x1 {
                    body(i, cx, cy)
                }
            }
        }
    }

    func deallocate() {
        starts.deallocate()
        cursors.deallocate()
        entries.deallocate()
        ranges.deallocate()
        oversized.deallocate()
    }
}
