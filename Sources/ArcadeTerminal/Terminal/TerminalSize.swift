/// The terminal's size in character cells.
public struct TerminalSize: Hashable, Sendable {
    /// Columns (cells across).
    public var cols: Int
    /// Rows (cells down).
    public var rows: Int

    /// A size of `cols` by `rows` cells.
    public init(cols: Int, rows: Int) {
        self.cols = cols
        self.rows = rows
    }

    /// The classic terminal size, used when the terminal will not say its own.
    public static let fallback = TerminalSize(cols: 80, rows: 24)
}
