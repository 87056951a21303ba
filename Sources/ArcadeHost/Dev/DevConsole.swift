import ArcadeCore
import ArcadeRender

/// The debug console of `arcade dev` (F2): the last lines the game printed and its errors,
/// in a panel along the bottom of the screen, over the game.
///
/// The lines are kept as they are logged (the log file gets them too), so the panel has
/// them from the start whenever it opens. Like the F3 panel it is written straight into the
/// frame's cells after everything else; it never covers the pause mark (row 0), the F3 panel
/// or a card: it takes the rows below them, and leaves the failed-reload strip its rows.
final class DevConsole {
    /// The key that shows and hides the panel (the game never receives it under dev).
    static let key = "f2"
    /// How many logged lines are kept (older ones are dropped).
    static let capacity = 200
    /// The most rows the panel takes: a third of the screen, header included.
    static func preferredHeight(rows: Int) -> Int { max(3, rows / 3) }

    static let panel = Color(rgb: 0x101420)
    static let title = Color(rgb: 0xFFB300)
    static let text = Color(rgb: 0xD8DCE8)
    static let dim = Color(rgb: 0x9AA0B4)
    static let error = Color(rgb: 0xFF6E6E)

    /// One logged line and whether it was an error.
    struct Line: Equatable {
        var text: String
        var isError: Bool
    }

    private(set) var lines: [Line] = []
    /// Whether the panel is shown (F2).
    var shown = false
    /// Where the log file is, named in the panel's header.
    var logPath: String?

    init(logPath: String? = nil) { self.logPath = logPath }

    /// Keeps `message` (each of its lines, control characters escaped, tabs as spaces).
    func append(_ message: String, isError: Bool = false) {
        let escaped = ControlEscaping.escapingControls(message.replacingTabs(), keepLayout: true)
        for line in escaped.split(separator: "\n", omittingEmptySubsequences: false) {
            lines.append(Line(text: String(line), isError: isError))
        }
        if lines.count > Self.capacity { lines.removeFirst(lines.count - Self.capacity) }
    }

    /// The panel's header: what it is, the key, and the log file it mirrors.
    func header() -> String {
        "log (\(Self.key.uppercased()) hides)" + (logPath.map { "  \($0)" } ?? "")
    }

    /// The rows of text the panel shows in `rows` rows (header first) on a screen `columns`
    /// wide: the last lines logged, wrapped, so the newest is at the bottom.
    func rows(count rows: Int, columns: Int) -> [(String, Color)] {
        guard rows > 0 else { return [] }
        let width = max(1, columns - 2)
        var body: [(String, Color)] = []
        // from the newest back, only as many as show
        for line in lines.reversed() {
            let wrapped = CardView.wrap(line.text, width: width).map { String(TextWidth.prefix($0, cells: width).text) }
            body.insert(contentsOf: wrapped.map { ($0, line.isError ? Self.error : Self.text) }, at: 0)
            if body.count >= rows - 1 { break }
        }
        if body.isEmpty { body = [("(nothing printed yet: print() and errors show here)", Self.dim)] }
        let head = (String(TextWidth.prefix(header(), cells: width).text), Self.title)
        // few lines yet: they sit at the bottom, the newest last, as they will later
        let blank = Array(repeating: ("", Self.text), count: max(0, rows - 1 - body.count))
        return [head] + blank + body.suffix(rows - 1)
    }

    /// Draws the panel over the whole width of `frame`, in the rows from `top` up to (not
    /// including) `bottom`, the last ``preferredHeight(rows:)`` of them at most; nothing when
    /// fewer than two rows are free.
    func draw(on frame: inout Frame, top: Int, bottom: Int) {
        let bottom = min(bottom, frame.rows)
        let height = min(bottom - max(top, 0), Self.preferredHeight(rows: frame.rows))
        guard height >= 2, frame.columns > 2 else { return }
        let first = bottom - height
        for (i, (text, color)) in rows(count: height, columns: frame.columns).enumerated() {
            let row = first + i
            let end = frame.write(" " + text, column: 0, row: row, foreground: color, background: Self.panel)
            for column in end..<frame.columns {
                frame[column, row] = Cell(character: " ", foreground: color, background: Self.panel)
            }
        }
    }
}

/// What `arcade dev` says on stderr as it starts.
public enum DevMode {
    /// What `arcade dev` says as it starts: the game, its keys, and where `print` goes.
    public static func startLine(id: String, folder: String, logPath: String?) -> String {
        let log = logPath.map { "print() goes to \($0)" } ?? "print() shows only there (no log file could be opened)"
        return "arcade dev: \(id) (\(folder)): a saved .lua file (manifest.lua too) reloads, F5 forces it\n"
            + "  F2 shows the game's log over it, F3 the profiler; \(log)\n"
    }
}
