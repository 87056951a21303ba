import ArcadeCore

/// A whole screen of cells, `columns x rows`, row-major: what one displayed frame shows.
/// Every row is exactly `columns` cells on screen: a wide glyph's two cells are its glyph
/// and a ``Cell/continuation``.
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
    ///
    /// Setting a cell keeps wide glyphs whole: a wide glyph also takes the cell after it
    /// (which becomes its ``Cell/continuation``), or shows a space in the last column; a
    /// wide glyph that had either half in a cell written over is gone, its other half
    /// showing a space. A character that cannot stand in a cell on its own (a control
    /// character, a combining mark, an invisible format character, a lone continuation)
    /// shows a space.
    public subscript(column: Int, row: Int) -> Cell {
        get { cells[row * columns + column] }
        set { put(newValue, column: column, row: row) }
    }

    private mutating func put(_ newValue: Cell, column: Int, row: Int) {
        let i = row * columns + column
        precondition(column >= 0 && column < columns && row >= 0 && row < rows, "cell \(column), \(row) is outside the frame")
        var cell = newValue
        let v = cell.character.value
        if v < 0x20 || (v >= 0x7F && v < 0xA0) || v == GlyphStore.continuation
            || (v >= 0x300 && v < GlyphStore.firstNarrow && TextWidth.width(of: cell.character) == 0) {
            cell.character = " "
        }
        var wide = GlyphStore.isWide(cell.character.value)
        if wide && column == columns - 1 {
            cell.character = " "
            wide = false
        }
        blankOtherHalf(at: i, column: column)
        cells[i] = cell
        if wide {
            blankOtherHalf(at: i + 1, column: column + 1)
            cells[i + 1] = Cell(character: Cell.continuation, foreground: cell.foreground, background: cell.background)
        }
    }

    /// When cell `i` (at `column`) is half of a wide glyph, its other half shows a space.
    private mutating func blankOtherHalf(at i: Int, column: Int) {
        if cells[i].isContinuation {
            if column > 0 { cells[i - 1].character = " " }
        } else if column + 1 < columns, cells[i + 1].isContinuation {
            cells[i + 1].character = " "
        }
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
