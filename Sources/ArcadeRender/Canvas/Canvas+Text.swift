import ArcadeCore

extension Canvas {
    /// Writes `text` as terminal glyphs, over whatever was drawn before it; `\n` starts a new
    /// line. Glyphs take the cells ``TextWidth`` says: wide characters and emoji two, combining
    /// marks and joined emoji none of their own (they join the glyph before them), invisible
    /// format characters none at all. A wide glyph that would cross the canvas's right edge
    /// or a clip edge becomes a space.
    ///
    /// The text block is as many columns wide as its widest line and one cell row per line.
    /// Glyphs sit on the cell grid, so the block is snapped to whole cells: the character at
    /// its `anchor` point (`(0, 0)` top-left, `(0.5, 0.5)` centre) lands in the cell containing
    /// the local origin mapped through `transform`. With anchor 1 that point is just past the
    /// block, which then ends before the origin's column or above its row. Only the position
    /// follows the transform: terminal glyphs cannot scale or turn.
    ///
    /// Within the block each line is placed by `align` (0 left, 0.5 centred, 1 right; nil
    /// means `anchor.x`, so left-anchored text is left-aligned and centred text centred).
    ///
    /// Spaces are transparent unless `background` is not: then every cell of the block's box
    /// (as wide as its widest line, empty lines and the cells beside short lines included)
    /// paints it over its two pixels, like a rectangle drawn at that moment. A glyph's colour is
    /// `color` (its own alpha times `alpha`) blended over the pixels beneath it.
    public func drawText(
        _ text: String, transform: AffineTransform, anchor: Vec2 = .zero, align: Double? = nil,
        color: Color, background: Color = .clear, alpha: Double = 1
    ) {
        let weight = PixelBlend.weight(alpha)
        guard weight > 0, columns > 0, rows > 0 else { return }
        let fg = Color(r: color.r, g: color.g, b: color.b, a: UInt8(PixelBlend.div255(UInt32(color.a) * weight)))
        let bg = Color(r: background.r, g: background.g, b: background.b,
                       a: UInt8(PixelBlend.div255(UInt32(background.a) * weight)))
        guard fg.a != 0 || bg.a != 0 else { return }
        let origin = transform.apply(.zero)
        let lineAlign = min(max(align ?? anchor.x, 0), 1)
        // ASCII, read straight from the string's bytes: one cell a character, nothing joins
        let drewASCII = text.utf8.withContiguousStorageIfAvailable { bytes in
            drawASCII(bytes, origin: origin, anchor: anchor, align: lineAlign, color: fg, background: bg)
        }
        if drewASCII == true { return }
        let size = Canvas.textSize(text)
        guard let (firstColumn, firstRow) = Canvas.textPlacement(
            origin: origin, anchor: anchor, columns: size.columns, lines: size.lines) else { return }
        drawSerial &+= 1
        fillTextBox(column: firstColumn, row: firstRow, columns: size.columns, lines: size.lines,
                    background: bg, serial: drawSerial)
        drawGlyphs(text, column: firstColumn, row: firstRow, blockColumns: size.columns, align: lineAlign,
                   color: fg, background: .clear, serial: drawSerial)
    }

    /// ``drawText(_:transform:anchor:align:color:background:alpha:)`` of text given as its
    /// UTF-8 bytes, if they are all ASCII; false (nothing drawn) when they are not.
    private func drawASCII(_ bytes: UnsafeBufferPointer<UInt8>, origin: Vec2, anchor: Vec2, align lineAlign: Double,
                           color fg: Color, background bg: Color) -> Bool {
        guard let size = Canvas.asciiTextSize(bytes) else { return false }
        guard let (firstColumn, firstRow) = Canvas.textPlacement(
            origin: origin, anchor: anchor, columns: size.columns, lines: size.lines) else { return true }
        drawSerial &+= 1
        let serial = drawSerial
        fillTextBox(column: firstColumn, row: firstRow, columns: size.columns, lines: size.lines,
                    background: bg, serial: serial)
        let bg = Color.clear  // painted with the box
        let n = bytes.count
        var start = 0
        var row = firstRow
        while true {
            var end = start
            while end < n, bytes[end] != 0x0A { end &+= 1 }
            let length = end - start
            // Whole rows inside the clip only: a glyph cannot be cut in half.
            if 2 * row >= clip.y0, 2 * row + 1 <= clip.y1, length > 0 {
                let lineStart = firstColumn + Canvas.lineOffset(align: lineAlign, spare: size.columns - length)
                var drawn = GlyphSpan.none
                let (cols, stride, x0, x1) = (columns, width, clip.x0, clip.x1)
                let px = pixels
                textCells.withUnsafeMutableBufferPointer { cells in
                    var column = lineStart
                    for i in start..<end {
                        if column >= x0, column <= x1,
                           Canvas.put(UInt32(bytes[i]), at: row * cols + column, top: 2 * row * stride + column, stride: stride,
                                      color: fg, background: bg, serial: serial, pixels: px, cells: cells) {
                            drawn.lo = min(drawn.lo, column)
                            drawn.hi = max(drawn.hi, column)
                        }
                        column += 1
                    }
                }
                if drawn.lo <= drawn.hi {
                    glyphSpans[row].lo = min(glyphSpans[row].lo, drawn.lo)
                    glyphSpans[row].hi = max(glyphSpans[row].hi, drawn.hi)
                    hasText = true
                }
            }
            if end == n { break }
            start = end + 1
            row += 1
        }
        return true
    }

    /// Paints `bg` (when it shows) on every cell of a text block's box that is inside the clip
    /// (whole rows only, as glyphs), covering the glyphs beneath, before its glyphs are drawn.
    private func fillTextBox(column: Int, row: Int, columns boxColumns: Int, lines: Int, background bg: Color,
                             serial: UInt32) {
        guard bg.a != 0, boxColumns > 0, lines > 0 else { return }
        let x0 = max(column, clip.x0, 0)
        let x1 = min(column + boxColumns - 1, clip.x1, columns - 1)
        guard x0 <= x1 else { return }
        let (cols, stride) = (columns, width)
        let px = pixels
        textCells.withUnsafeMutableBufferPointer { cells in
            for r in max(row, 0)..<max(row + lines, 0) where 2 * r >= clip.y0 && 2 * r + 1 <= clip.y1 && r < rows {
                for c in x0...x1 {
                    _ = Canvas.put(0x20, at: r * cols + c, top: 2 * r * stride + c, stride: stride,
                                   color: .clear, background: bg, serial: serial, pixels: px, cells: cells)
                }
            }
        }
    }

    /// One character of ``drawText(_:transform:anchor:align:color:background:alpha:)`` in a
    /// cell known to be inside the clip, whose top pixel is `top`: its background goes onto
    /// both pixels (covering a glyph already there), then its glyph, if it has one, replaces
    /// whatever glyph the cell held (a wide glyph that held it is gone, both halves). True
    /// when a glyph was written. `s`: a code point, a ``GlyphStore`` number, or a blank.
    @inline(__always) static func put(
        _ s: UInt32, at cell: Int, top: Int, stride: Int, color fg: Color, background bg: Color, serial: UInt32,
        pixels: UnsafeMutableBufferPointer<Color>, cells: UnsafeMutableBufferPointer<TextCell>
    ) -> Bool {
        let bottom = top + stride
        if bg.a != 0 {
            pixels[top] = PixelBlend.over(bg, pixels[top], alpha: UInt32(bg.a))
            pixels[bottom] = PixelBlend.over(bg, pixels[bottom], alpha: UInt32(bg.a))
            if cells[cell].scalar != 0 { coverGlyph(cells, cell, bg, weight: UInt32(bg.a), serial: serial) }
        }
        let isBlank = s == 0x20 || s < 0x20 || (0x7F...0x9F).contains(s)
        guard !isBlank else { return false }
        if cells[cell].scalar >= TextCell.firstWide { dropWideGlyph(cells, at: cell) }
        let t = pixels[top]
        let b = pixels[bottom]
        let beneath = t == b ? t : PixelBlend.mean(t, b)
        cells[cell] = TextCell(scalar: s, color: PixelBlend.over(fg, beneath, alpha: UInt32(fg.a)),
                               cover: .clear, coverSerial: 0)
        return true
    }

    /// The size of a text block: its widest line in cells, and its number of lines.
    public static func textSize(_ text: String) -> (columns: Int, lines: Int) {
        if let size = text.utf8.withContiguousStorageIfAvailable(asciiTextSize), let size { return size }
        var lines = 1
        for b in text.utf8 where b == 0x0A { lines += 1 }
        return (TextWidth.width(text), lines)
    }

    /// ``textSize(_:)`` of text given as its UTF-8 bytes when they are all ASCII (a cell a
    /// byte), nil when they are not.
    static func asciiTextSize(_ bytes: UnsafeBufferPointer<UInt8>) -> (columns: Int, lines: Int)? {
        var lines = 1
        var longest = 0
        var lineStart = 0
        for i in 0..<bytes.count {
            let b = bytes[i]
            if b >= 0x80 { return nil }
            if b == 0x0A {
                lines &+= 1
                longest = max(longest, i &- lineStart)
                lineStart = i &+ 1
            }
        }
        return (max(longest, bytes.count &- lineStart), lines)
    }

    /// The cell of a text block's first character: the character at the block's `anchor`
    /// point goes in the cell containing `origin` (canvas pixels). Nil when that is too far
    /// away to matter or not a number.
    public static func textPlacement(origin: Vec2, anchor: Vec2, columns: Int, lines: Int) -> (column: Int, row: Int)? {
        let column = (origin.x + sampleBias).rounded(.down) - (anchor.x * Double(columns) + sampleBias).rounded(.down)
        let row = ((origin.y + sampleBias) / 2).rounded(.down) - (anchor.y * Double(lines) + sampleBias).rounded(.down)
        guard column.isFinite, row.isFinite, abs(column) < 1e9, abs(row) < 1e9 else { return nil }
        return (Int(column), Int(row))
    }

    /// How far into its block a line starts when it is `spare` columns shorter than the
    /// block: `align` 0 at the left edge, 1 against the right one.
    @inline(__always) static func lineOffset(align: Double, spare: Int) -> Int {
        guard spare > 0 else { return 0 }
        return Int((align * Double(spare) + sampleBias).rounded(.down))
    }
}
