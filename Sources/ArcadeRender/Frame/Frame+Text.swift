import ArcadeCore

extension Frame {
    /// The frame as plain characters, one line per row, for headless dumps and golden tests.
    ///
    /// A pixel cell shows a space when both its pixels equal `background`, `█` when both
    /// differ, `▀` when only the top one differs and `▄` when only the bottom one does; a text
    /// cell shows its character. Colours are dropped.
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
                    line.append(ch)
                }
            }
            lines.append(String(line))
        }
        return lines
    }

    /// The frame with colours as ANSI escape sequences, one line per row, each ending with a
    /// reset: `cat` it to a terminal to see the frame. Uses absolute colours only, so it
    /// reads the same whatever the terminal showed before.
    public func ansiText(colorMode: ColorMode = .trueColor) -> String {
        var out = ByteBuffer(capacity: (columns * 24 + 8) * rows)
        defer { out.deallocate() }
        var looks = CellLooks(mode: colorMode)
        for row in 0..<rows {
            var pen = PenState()
            for column in 0..<columns {
                out.reserve(Escape.maxBytesPerCell)
                let spelled = looks.look(self[column, row]).spelling(for: pen)
                pen.emitColors(foreground: spelled.foreground, background: spelled.background, mode: colorMode, into: &out)
                TerminalCell.appendUTF8(spelled.scalar, to: &out)
            }
            out.reserve(5)
            for b in "\u{1B}[0m".utf8 { out.append(b) }  // reset at the end of each row
            if row + 1 < rows { out.append(0x0A) }
        }
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
