import ArcadeCore

extension Canvas {
    /// Composes the canvas into terminal cells: each column of two pixels becomes one cell
    /// (`▀` with the top pixel as foreground and the bottom one as background, or a space when
    /// they are equal), then the text layer goes on top. A text cell's background is its
    /// own background blended over the mean of the two pixels beneath it, and its glyph colour
    /// is blended over that. `frame` is resized to the canvas; its storage is reused.
    public func render(into frame: inout Frame) {
        frame.reshape(columns: columns, rows: rows)
        let cols = columns
        let rowCount = rows
        guard cols > 0, rowCount > 0 else { return }
        let withText = hasText
        pixels.withUnsafeBufferPointer { px in
            textCells.withUnsafeBufferPointer { text in
                frame.withCells { cells in
                    for row in 0..<rowCount {
                        let topRow = 2 * row * cols
                        let bottomRow = topRow + cols
                        let cellRow = row * cols
                        for column in 0..<cols {
                            let top = px[topRow + column]
                            let bottom = px[bottomRow + column]
                            cells[cellRow + column] = Cell(top: top, bottom: bottom)
                        }
                        guard withText else { continue }
                        for column in 0..<cols {
                            let t = text[cellRow + column]
                            guard t.scalar != 0 else { continue }
                            let top = px[topRow + column]
                            let bottom = px[bottomRow + column]
                            let beneath = top == bottom ? top : PixelBlend.mean(top, bottom)
                            let bg = t.background.a == 0 ? beneath : PixelBlend.over(t.background, beneath, alpha: UInt32(t.background.a))
                            if t.scalar == 0x20 {
                                cells[cellRow + column] = Cell(top: bg, bottom: bg)
                            } else {
                                let fg = PixelBlend.over(t.color, bg, alpha: UInt32(t.color.a))
                                cells[cellRow + column] = Cell(character: Unicode.Scalar(t.scalar) ?? "?", foreground: fg, background: bg)
                            }
                        }
                    }
                }
            }
        }
    }

    /// The canvas composed into a new frame.
    public func makeFrame() -> Frame {
        var frame = Frame(columns: columns, rows: rows, background: background)
        render(into: &frame)
        return frame
    }
}
