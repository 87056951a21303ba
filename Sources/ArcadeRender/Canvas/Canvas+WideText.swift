import ArcadeCore

// Text that is not all ASCII: glyphs of one or two cells (``TextWidth``), and the wide
// glyphs already in the text layer, whose two halves come and go together.
extension Canvas {
    /// Draws the lines of `text` glyph by glyph from cell (`column`, `row`), each line placed
    /// by `align` in a block `blockColumns` wide.
    func drawGlyphs(_ text: String, column firstColumn: Int, row firstRow: Int, blockColumns: Int, align: Double,
                    color fg: Color, background bg: Color, serial: UInt32) {
        var values = glyphScratch
        defer { glyphScratch = values }
        var glyphs = TextGlyphs(text)
        var row = firstRow
        var more = true
        while more {
            // one line's glyphs as cell values, and its width
            values.removeAll(keepingCapacity: true)
            var width = 0
            more = false
            while let g = glyphs.next() {
                if g.isNewline {
                    more = true
                    break
                }
                Canvas.appendCellValues(of: g, in: glyphs, store: glyphStore, to: &values)
                width += g.width
            }
            if 2 * row >= clip.y0, 2 * row + 1 <= clip.y1, width > 0 {
                drawLine(values, row: row,
                         column: firstColumn + Canvas.lineOffset(align: align, spare: blockColumns - width),
                         color: fg, background: bg, serial: serial)
            }
            row += 1
        }
    }

    /// The cell values that show glyph `g`: its code point, or its number in `store` for a
    /// glyph of several (a wide one whose number cannot be had shows its first code point
    /// and a blank, a narrow one its first code point).
    private static func appendCellValues(of g: TextGlyph, in glyphs: TextGlyphs, store: GlyphStore,
                                         to values: inout [UInt32]) {
        if let v = glyphs.cellValue(g, in: store) {
            values.append(v)
        } else {
            let first = g.first.value
            values.append(first < GlyphStore.firstNarrow && !TextWidth.isWide(first) ? first : 0x20)
            if g.width == 2 { values.append(0x20) }
        }
    }

    /// One line of cell values from cell (`column`, `row`), a row inside the clip.
    private func drawLine(_ values: [UInt32], row: Int, column lineStart: Int, color fg: Color, background bg: Color,
                          serial: UInt32) {
        var drawn = GlyphSpan.none
        let (cols, stride, x0, x1) = (columns, width, max(clip.x0, 0), min(clip.x1, columns - 1))
        let px = pixels
        textCells.withUnsafeMutableBufferPointer { cells in
            var column = lineStart
            for v in values {
                let wide = GlyphStore.isWide(v)
                if wide && column >= x0 && column + 1 <= x1 {
                    Canvas.putWide(v, at: row * cols + column, top: 2 * row * stride + column, stride: stride,
                                   color: fg, background: bg, serial: serial, pixels: px, cells: cells)
                    drawn.lo = min(drawn.lo, column)
                    drawn.hi = max(drawn.hi, column + 1)
                } else {
                    // a narrow glyph, or the halves inside the clip of a wide one cut by its edge,
                    // which show a space
                    for c in column..<(column + (wide ? 2 : 1)) where c >= x0 && c <= x1 {
                        if Canvas.put(wide ? 0x20 : v, at: row * cols + c, top: 2 * row * stride + c, stride: stride,
                                      color: fg, background: bg, serial: serial, pixels: px, cells: cells) {
                            drawn.lo = min(drawn.lo, c)
                            drawn.hi = max(drawn.hi, c)
                        }
                    }
                }
                column += wide ? 2 : 1
            }
        }
        if drawn.lo <= drawn.hi {
            glyphSpans[row].lo = min(glyphSpans[row].lo, drawn.lo)
            glyphSpans[row].hi = max(glyphSpans[row].hi, drawn.hi)
            hasText = true
        }
    }

    /// A wide glyph in cell `cell` and the one after it (both inside the clip), whose top
    /// pixel is `top`: ``put(_:at:top:stride:color:background:serial:pixels:cells:)`` for two
    /// cells, the second marked as the first's right half.
    private static func putWide(
        _ v: UInt32, at cell: Int, top: Int, stride: Int, color fg: Color, background bg: Color, serial: UInt32,
        pixels: UnsafeMutableBufferPointer<Color>, cells: UnsafeMutableBufferPointer<TextCell>
    ) {
        _ = put(0x20, at: cell + 1, top: top + 1, stride: stride, color: fg, background: bg, serial: serial,
                pixels: pixels, cells: cells)
        if cells[cell + 1].scalar >= TextCell.firstWide { dropWideGlyph(cells, at: cell + 1) }
        _ = put(v, at: cell, top: top, stride: stride, color: fg, background: bg, serial: serial,
                pixels: pixels, cells: cells)
        cells[cell + 1] = TextCell(scalar: GlyphStore.continuation, color: cells[cell].color, cover: .clear,
                                   coverSerial: 0)
    }

    /// Empties both halves when cell `i` is half of a wide glyph (its neighbour would show
    /// half a glyph otherwise); leaves a narrow glyph alone.
    static func dropWideGlyph(_ cells: UnsafeMutableBufferPointer<TextCell>, at i: Int) {
        if cells[i].scalar == GlyphStore.continuation {
            cells[i - 1] = .empty
            cells[i] = .empty
        } else if i + 1 < cells.count, cells[i + 1].scalar == GlyphStore.continuation {
            cells[i] = .empty
            cells[i + 1] = .empty
        }
    }

    /// A draw of `color` at `weight` over the glyph in cell `i` (which holds one): hides or
    /// tints it. Either half of a wide glyph stands for the whole glyph.
    @inline(__always) static func coverGlyph(_ cells: UnsafeMutableBufferPointer<TextCell>, _ i: Int, _ color: Color,
                                              weight: UInt32, serial: UInt32) {
        if cells[i].scalar < TextCell.firstWide {
            cells[i].cover(color, weight: weight, serial: serial)
        } else {
            coverWideGlyph(cells, i, color, weight: weight, serial: serial)
        }
    }

    @inline(never) private static func coverWideGlyph(_ cells: UnsafeMutableBufferPointer<TextCell>, _ i: Int,
                                                      _ color: Color, weight: UInt32, serial: UInt32) {
        let isRightHalf = cells[i].scalar == GlyphStore.continuation
        let isLeftHalf = !isRightHalf && i + 1 < cells.count && cells[i + 1].scalar == GlyphStore.continuation
        guard isRightHalf || isLeftHalf else {
            cells[i].cover(color, weight: weight, serial: serial)
            return
        }
        if weight >= TextCell.hidingWeight {
            dropWideGlyph(cells, at: i)
        } else {
            cells[isRightHalf ? i - 1 : i].cover(color, weight: weight, serial: serial)
        }
    }
}
