import ArcadeCore

extension Frame {
    /// The frame as plain characters, one line per row, for headless dumps and golden tests.
    ///
    /// A pixel cell shows a space when both its pixels equal `background`, `█` when both
    /// differ, `▀` when only the top one differs and `▄` when only the bottom one does; a text
    /// cell shows its character. Colours are dropped.
    public func plainText(background: Color) -> String {
        var out = String.UnicodeScalarView()
        out.reserveCapacity((columns + 1) * rows)
        for row in 0..<rows {
            for column in 0..<columns {
                switch self[column, row].appearance {
                case .pixels(let top, let bottom):
                    switch (top != background, bottom != background) {
                    case (false, false): out.append(" ")
                    case (true, true): out.append(Cell.fullBlock)
                    case (true, false): out.append(Cell.upperHalf)
                    case (false, true): out.append(Cell.lowerHalf)
                    }
                case .glyph(let ch, _, _):
                    out.append(ch)
                }
            }
            if row + 1 < rows { out.append("\n") }
        }
        return String(out)
    }

    /// The frame with colours as ANSI escape sequences, one line per row, each ending with a
    /// reset: `cat` it to a terminal to see the frame. Uses absolute colours only, so it
    /// reads the same whatever the terminal showed before.
    public func ansiText(colorMode: ColorMode = .trueColor) -> String {
        var bytes: [UInt8] = []
        var pen = PenState()
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = TerminalCell(self[column, row], mode: colorMode)
                let spelled = cell.spelling(for: pen)
                pen.emitColors(foreground: spelled.foreground, background: spelled.background, mode: colorMode, into: &bytes)
                TerminalCell.appendUTF8(spelled.scalar, to: &bytes)
            }
            bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])  // ESC [ 0 m: reset at the end of each row
            pen = PenState()
            if row + 1 < rows { bytes.append(0x0A) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
