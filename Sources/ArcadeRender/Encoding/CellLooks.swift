import ArcadeCore

extension Cell {
    /// True when both cells are spelled exactly alike (character and both colours, alpha
    /// included): the same as `==`, compared as three words.
    @inline(__always) static func sameBits(_ a: Cell, _ b: Cell) -> Bool {
        (a.character.value == b.character.value) && a.foreground.bits == b.foreground.bits
            && a.background.bits == b.background.bits
    }
}

extension Color {
    /// The four channels as one word (in memory order), for comparisons.
    @inline(__always) var bits: UInt32 {
        unsafeBitCast(self, to: UInt32.self)
    }
}

/// Turns cells into what the terminal will show in the current colour mode, remembering
/// recent palette lookups.
struct CellLooks {
    let mode: ColorMode
    private var palette = PaletteCache()

    init(mode: ColorMode) {
        self.mode = mode
    }

    @inline(__always) mutating func look(_ cell: Cell) -> TerminalCell {
        switch mode {
        case .trueColor:
            TerminalCell(cell, foreground: TerminalCell.rgbKey(cell.foreground), background: TerminalCell.rgbKey(cell.background))
        case .palette256:
            TerminalCell(cell, foreground: palette.index(for: cell.foreground), background: palette.index(for: cell.background))
        }
    }
}
