import ArcadeCore

extension Canvas {
    /// Writes `text` into the text layer. Each Unicode scalar takes one cell (wide characters
    /// are not supported); `\n` starts a new line. The text block is `columns` pixels wide and
    /// two pixels a line tall; its `anchor` point (`(0, 0)` = top-left) sits at the local origin
    /// mapped through `transform`, and the first character lands in the cell containing that
    /// pixel. Only the position follows the transform: terminal glyphs cannot scale or turn.
    ///
    /// Spaces are transparent unless `background` is not: then every cell of the text paints
    /// it over the pixels. `color` and `background` are blended over the pixels beneath (their
    /// own alpha times `alpha`) when the frame is composed.
    public func drawText(
        _ text: String, transform: AffineTransform, anchor: Vec2 = .zero,
        color: Color, background: Color = .clear, alpha: Double = 1
    ) {
        let weight = PixelBlend.weight(alpha)
        guard weight > 0, columns > 0, rows > 0 else { return }
        let fg = Color(r: color.r, g: color.g, b: color.b, a: UInt8(PixelBlend.div255(UInt32(color.a) * weight)))
        let bg = Color(r: background.r, g: background.g, b: background.b,
                       a: UInt8(PixelBlend.div255(UInt32(background.a) * weight)))
        guard fg.a != 0 || bg.a != 0 else { return }
        var lineCount = 1
        var longest = 0
        var current = 0
        for s in text.unicodeScalars {
            if s == "\n" {
                lineCount += 1
                longest = max(longest, current)
                current = 0
            } else {
                current += 1
            }
        }
        longest = max(longest, current)
        let origin = transform.apply(.zero)
        let left = origin.x - anchor.x * Double(longest) + Canvas.sampleBias
        let top = origin.y - anchor.y * Double(2 * lineCount) + Canvas.sampleBias
        guard left.isFinite, top.isFinite, abs(left) < 1e9, abs(top) < 1e9 else { return }
        let firstColumn = Int(left.rounded(.down))
        var row = Int((top / 2).rounded(.down))
        var column = firstColumn
        let cols = columns
        textCells.withUnsafeMutableBufferPointer { cells in
            for s in text.unicodeScalars {
                if s == "\n" {
                    row += 1
                    column = firstColumn
                    continue
                }
                defer { column += 1 }
                guard row >= 0, row < rows, column >= 0, column < cols else { continue }
                let isBlank = s.value == 0x20 || s.value < 0x20 || (0x7F...0x9F).contains(s.value)
                if isBlank {
                    guard bg.a != 0 else { continue }
                    cells[row * cols + column] = TextCell(scalar: 0x20, color: .clear, background: bg)
                } else {
                    cells[row * cols + column] = TextCell(scalar: s.value, color: fg, background: bg)
                }
                hasText = true
            }
        }
    }
}
