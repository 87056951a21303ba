import ArcadeCore

/// A whole screen of cells, `columns x rows`, row-major: what one displayed frame shows.
public struct Frame: Hashable, Sendable {
    /// Width in cells.
    public private(set) var columns: Int
    /// Height in cells.
    public private(set) var rows: Int
    /// Row-major cells, `columns * rows` of them.
    public private(set) var cells: [Cell]

    /// A frame of blank cells showing `background`.
    public init(columns: Int, rows: Int, background: Color = .black) {
        self.columns = max(0, columns)
        self.rows = max(0, rows)
        let blank = Cell(top: background, bottom: background)
        cells = Array(repeating: blank, count: self.columns * self.rows)
    }

    /// The cell at `column`, `row` (both 0-based).
    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// Changes the size, keeping the storage when it is large enough; the cells are left
    /// undefined (the compositor overwrites them all).
    mutating func reshape(columns: Int, rows: Int) {
        guard columns != self.columns || rows != self.rows else { return }
        self.columns = columns
        self.rows = rows
        let n = columns * rows
        if cells.count > n {
            cells.removeLast(cells.count - n)
        } else if cells.count < n {
            cells.append(contentsOf: repeatElement(Cell(top: .black, bottom: .black), count: n - cells.count))
        }
    }

    /// Runs `body` with the cells as a mutable buffer, for the compositor's inner loop.
    mutating func withCells<R>(_ body: (UnsafeMutableBufferPointer<Cell>) -> R) -> R {
        cells.withUnsafeMutableBufferPointer { body($0) }
    }
}
