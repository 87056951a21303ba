import ArcadeCore
import ArcadeRender

/// A random source of cells, for property tests of the frame encoder: each test keeps its own
/// mix of cells (``cell()``), and the frames are built and changed the same way for all.
public protocol RandomCells {
    var rng: SeededRandom { get set }
    /// One random cell.
    mutating func cell() -> Cell
}

extension RandomCells {
    /// A frame of random cells, row by row.
    public mutating func frame(columns: Int, rows: Int) -> Frame {
        var f = Frame(columns: columns, rows: rows)
        for r in 0..<rows {
            for c in 0..<columns { f[c, r] = cell() }
        }
        return f
    }

    /// `frame` with about `fraction` of its cells replaced, in runs of 1 to `longestRun` so
    /// neighbours change together (as a moving sprite changes them).
    public mutating func mutate(_ frame: Frame, fraction: Double, longestRun: Int) -> Frame {
        var f = frame
        var i = 0
        let n = f.columns * f.rows
        while i < n {
            if rng.nextUnit() < fraction {
                let run = Int(rng.nextInt(in: 1, Int64(longestRun)))
                for k in i..<min(n, i + run) { f[k % f.columns, k / f.columns] = cell() }
                i += run
            } else {
                i += 1
            }
        }
        return f
    }
}
