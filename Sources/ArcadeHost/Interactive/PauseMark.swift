import ArcadeCore
import ArcadeRender

/// The pause mark: a small button in the top-right corner of every game, drawn by the host
/// over everything the game draws, so a player with only a mouse can open the pause card
/// (Esc does it from the keyboard). Games keep that corner free; they need no code for it.
enum PauseMark {
    /// Cells across, counted from the right edge of the first row.
    static let width = 3

    static let background = Color(rgb: 0x303648)
    static let hoverBackground = Color(rgb: 0xFFB300)
    static let bars = Color(rgb: 0xE8EAF6)

    /// True when the cell at (`col`, `row`) is part of the mark on a `cols`-wide screen.
    static func contains(col: Int, row: Int, cols: Int) -> Bool {
        row == 0 && col >= cols - width && col < cols
    }

    /// Draws the mark into `frame`'s top-right corner: " ▌▌" reads as the pause sign.
    static func draw(on frame: inout Frame, hovered: Bool) {
        guard frame.columns >= width, frame.rows > 0 else { return }
        let x0 = frame.columns - width
        let glyphs: [Unicode.Scalar] = [" ", "▌", "▌"]
        for (i, ch) in glyphs.enumerated() {
            frame[x0 + i, 0] = Cell(character: ch, foreground: hovered ? .black : bars,
                                    background: hovered ? hoverBackground : background)
        }
    }
}
