import ArcadeCore
import ArcadeRender

/// The save file's notices on screen: each new ``SaveNotice`` of the store (a damaged file
/// moved aside, saves kept in memory because the disk filled up or the file was deleted)
/// shows for a few seconds as a bar along the bottom of the screen, over the menu or the
/// game, its short text wrapped to at most three lines. The whole sentence goes to stderr
/// once the arcade quits.
///
/// Written straight into the frame's cells after everything else, like the profiler, so the
/// game's canvas is untouched and the bar goes when its time is up.
final class SaveNoticeBar {
    /// How long each notice stays on screen.
    static let seconds = 8.0
    /// The most lines a notice takes.
    static let maxLines = 3

    static let background = Color(rgb: 0x5A3A00)
    static let text = Color(rgb: 0xFFE7A8)

    /// Notices of the store already shown (or showing).
    private var seen = 0
    /// The notice on screen, and until when.
    private(set) var showing: SaveNotice?
    private var until = 0.0

    /// Takes the store's next notice when none is showing (or the shown one has had its time).
    func update(from store: SaveStore?, now: Double) {
        if showing != nil, now >= until { showing = nil }
        guard showing == nil, let store, store.notices.count > seen else { return }
        showing = store.notices[seen]
        seen += 1
        until = now + Self.seconds
    }

    /// The lines shown for `notice` on a screen `columns` wide.
    static func lines(_ notice: SaveNotice, columns: Int) -> [String] {
        let text = ControlEscaping.escapingControls(notice.short, keepLayout: false)
        var lines = CardView.wrap(text, width: max(1, columns - 2))
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = String(TextWidth.prefix(lines[maxLines - 1], cells: max(1, columns - 3)).text) + "…"
        }
        return lines
    }

    /// Draws the notice showing, if any, over the bottom rows of `frame`.
    func draw(on frame: inout Frame) {
        guard let showing, frame.columns > 0, frame.rows > 0 else { return }
        let lines = Self.lines(showing, columns: frame.columns)
        let top = max(0, frame.rows - lines.count)
        for (i, line) in lines.enumerated() where top + i < frame.rows {
            // the whole row: a space, the line measured by cells, spaces to the edge
            let end = frame.write(" " + line, column: 0, row: top + i, foreground: Self.text, background: Self.background)
            for column in end..<frame.columns {
                frame[column, top + i] = Cell(character: " ", foreground: Self.text, background: Self.background)
            }
        }
    }
}
