import ArcadeCore

extension Frame {
    /// The frame as plain characters, one line per row, for headless dumps and golden tests.
    ///
    /// A pixel cell shows a space when both its pixels equal `background`, `█` when both
    /// differ, `▀` when only the top one differs and `▄` when only the bottom one does; a text
    /// cell shows its glyph, and the right half of a wide glyph nothing (so a line takes
    /// `columns` cells on a terminal, though a wide glyph is one `Character` of it). Colours
    /// are dropped.
    public func plainText(background: Color) -> String {
        plainLines { $0 == background }.joined(separator: "\n")
    }

    /// Each row as plain characters, as ``plainText(background:)`` shows it, with every
    /// colour for which `isBlank` holds reading as empty.
    public func plainLines(isBlank: (Color) -> Bool) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(rows)
        for row in 0..<rows {
            var line = String.UnicodeScalarView()
            for column in 0..<columns {
                switch self[column, row].appearance {
                case .pixels(let top, let bottom):
                    switch (isBlank(top), isBlank(bottom)) {
                    case (true, true): line.append(" ")
                    case (false, false): line.append(Cell.fullBlock)
                    case (false, true): line.append(Cell.upperHalf)
                    case (true, false): line.append(Cell.lowerHalf)
                    }
                case .glyph(let ch, _, _):
                    if GlyphStore.isStored(ch.value) {
                        line.append(contentsOf: (GlyphStore.text(of: ch.value) ?? " ").unicodeScalars)
                    } else if ch.value != GlyphStore.continuation {
                        line.append(ch)
                    }
                }
            }
            lines.append(String(line))
        }
        return lines
    }

    /// The frame with colours as ANSI escape sequences, one line per row, each ending with a
    /// reset: `cat` it to a terminal to see the frame. Uses absolute colours only, so it
    /// reads the same whatever the terminal showed before.
    public func ansiText(colorMode: ColorMode = .trueColor, filter: VisionFilter = .none) -> String {
        var out = ByteBuffer(capacity: (columns * 24 + 8) * rows)
        defer { out.deallocate() }
        var looks = CellLooks(mode: colorMode, filter: filter)
        for row in 0..<rows {
            var pen = PenState()
            for column in 0..<columns where !self[column, row].isContinuation {
                out.reserve(Escape.maxBytesPerCell)
                let spelled = looks.look(self[column, row]).spelling(for: pen)
                pen.emitColors(foreground: spelled.foreground, background: spelled.background, mode: colorMode, into: &out)
                TerminalCell.appendGlyph(spelled.scalar, to: &out)
            }
            out.reserve(5)
            for b in "\u{1B}[0m".utf8 { out.append(b) }  // reset at the end of each row
            if row + 1 < rows { out.append(0x0A) }
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

extension Frame {
    /// Writes one line of `text` straight into the cells from (`column`, `row`), glyph by
    /// glyph as ``TextWidth`` measures it, in `foreground` on `background`, up to (not
    /// including) column `limit` (the frame's width when nil); a wide glyph that would cross
    /// the limit shows a space. Returns the column after the last cell written. For overlays
    /// drawn over a composed frame (the profiler); games draw text on a ``Canvas``.
    @discardableResult
    public mutating func write(_ text: String, column: Int, row: Int, limit: Int? = nil,
                               foreground: Color, background: Color) -> Int {
        guard row >= 0, row < rows else { return column }
        let end = min(limit ?? columns, columns)
        var c = column
        var glyphs = TextGlyphs(text)
        while c < end, let g = glyphs.next(), !g.isNewline {
            let value = glyphs.cellValue(g, in: .shell).flatMap(Unicode.Scalar.init) ?? " "
            if c >= 0 && c + g.width <= end && GlyphStore.isWide(value.value) == (g.width == 2) {
                self[c, row] = Cell(character: value, foreground: foreground, background: background)
            } else {
                for k in c..<(c + g.width) where k >= 0 && k < end {
                    self[k, row] = Cell(character: " ", foreground: foreground, background: background)
                }
            }
            c += g.width
        }
        return min(c, end)
    }
}
