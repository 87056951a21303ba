import ArcadeCore
import CRaster

extension Canvas {
    /// Composes the canvas into terminal cells: each column of two pixels becomes one cell
    /// (`▀` with the top pixel as foreground and the bottom one as background, or a space when
    /// they are equal), except where a glyph is showing: then the cell is that character in
    /// its colour on the mean of the two pixels (a wide glyph's right half,
    /// ``Cell/continuation``, takes the colours of its left one). `frame` is resized to the canvas; its storage
    /// is reused.
    public func render(into frame: inout Frame) {
        frame.reshape(columns: columns, rows: rows)
        let cols = columns
        let rowCount = rows
        guard cols > 0, rowCount > 0 else { return }
        let px = UnsafeRawPointer(pixels.baseAddress!)
        #if arch(x86_64)
        if Canvas.cellsAreThreeWords {
            frame.withCells { cells in
                arcade_compose_cells(px.assumingMemoryBound(to: UInt32.self), Int64(cols), Int64(rowCount),
                                     UnsafeMutableRawPointer(cells.baseAddress!).assumingMemoryBound(to: UInt32.self),
                                     Unicode.Scalar(0x20)!.value, Cell.upperHalf.value)
            }
            if hasText { renderGlyphs(into: &frame) }
            return
        }
        #endif
        frame.withCells { cells in
            let out = cells.baseAddress!
            let space = Unicode.Scalar(0x20)!, upper = Cell.upperHalf
            for row in 0..<rowCount {
                let topRow = 2 &* row &* cols
                let bottomRow = topRow &+ cols
                let cellRow = row &* cols
                for column in 0..<cols {
                    // Pixels are opaque, so equal colours are equal words; what
                    // `Cell(top:bottom:)` builds, without comparing channel by channel.
                    let top = px.load(fromByteOffset: (topRow &+ column) &* 4, as: Color.self)
                    let bottom = px.load(fromByteOffset: (bottomRow &+ column) &* 4, as: Color.self)
                    let same = px.load(fromByteOffset: (topRow &+ column) &* 4, as: UInt32.self)
                        == px.load(fromByteOffset: (bottomRow &+ column) &* 4, as: UInt32.self)
                    (out + (cellRow &+ column)).pointee = Cell(character: same ? space : upper, foreground: top,
                                                             background: same ? top : bottom)
                }
            }
        }
        if hasText { renderGlyphs(into: &frame) }
    }

    /// True when a ``Cell`` is laid out as three words, character, foreground and background,
    /// as the native composer writes them (Swift lays a struct out in declaration order in
    /// practice, but does not promise it; where it differs, the Swift loop composes).
    static let cellsAreThreeWords = MemoryLayout<Cell>.size == 12 && MemoryLayout<Cell>.stride == 12
        && MemoryLayout<Cell>.offset(of: \Cell.character) == 0 && MemoryLayout<Cell>.offset(of: \Cell.foreground) == 4
        && MemoryLayout<Cell>.offset(of: \Cell.background) == 8 && MemoryLayout<Color>.size == 4
        && MemoryLayout<Unicode.Scalar>.size == 4

    /// The glyph pass of ``render(into:)``: each cell still showing a glyph, over the mean of
    /// its two pixels.
    private func renderGlyphs(into frame: inout Frame) {
        let cols = columns
        let px = UnsafeBufferPointer(pixels)
        do {
            textCells.withUnsafeMutableBufferPointer { text in
                frame.withCells { cells in
                    for row in 0..<rows {
                        let span = glyphSpans[row]
                        guard span.lo <= span.hi else { continue }
                        let topRow = 2 * row * cols
                        let cellRow = row * cols
                        for column in span.lo...span.hi {
                            text[cellRow + column].settle()
                            let t = text[cellRow + column]
                            guard t.scalar != 0 else { continue }
                            var isWide = false
                            if t.scalar >= TextCell.firstWide {
                                // a wide glyph's right half is written with its left one
                                if t.scalar == GlyphStore.continuation { continue }
                                isWide = column + 1 < cols && text[cellRow + column + 1].scalar == GlyphStore.continuation
                            }
                            let top = px[topRow + column]
                            let bottom = px[topRow + cols + column]
                            let bg = top == bottom ? top : PixelBlend.mean(top, bottom)
                            cells[cellRow + column] = Cell(character: Unicode.Scalar(t.scalar) ?? " ", foreground: t.color,
                                                           background: bg)
                            if isWide {
                                cells[cellRow + column + 1] = Cell(character: Cell.continuation, foreground: t.color, background: bg)
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
