import ArcadeCore

extension Cell {
    /// True when both cells are spelled exactly alike (character and both colours, alpha
    /// included): the same as `==`, compared as three words.
    @inline(__always) static func sameBits(_ a: Cell, _ b: Cell) -> Bool {
        (a.character.value == b.character.value) && a.foreground.bits == b.foreground.bits
            && a.background.bits == b.background.bits
    }
}

extension Cell {
    /// Zero when both cells are spelled exactly alike (``sameBits(_:_:)``), found without
    /// branching: where about half the cells of a row changed, a branch per word would be
    /// mispredicted often.
    @inline(__always) static func differingBits(_ a: Cell, _ b: Cell) -> UInt32 {
        (a.character.value ^ b.character.value) | (a.foreground.bits ^ b.foreground.bits)
            | (a.background.bits ^ b.background.bits)
    }
}

extension Cell {
    /// The first `c` in `from..<to` where `a[c]` and `b[c]` differ (``sameBits(_:_:)`` false),
    /// or `to`: four cells at a time, compared as six words, while they all match (most cells
    /// of most rows), then cell by cell.
    @inline(__always) static func firstDifference(
        _ a: UnsafePointer<Cell>, _ b: UnsafePointer<Cell>, from: Int, to end: Int
    ) -> Int {
        var c = from
        if MemoryLayout<Cell>.size == 12 && MemoryLayout<Cell>.stride == 12 {
            // three 4-byte words and no padding: equal bytes are equal cells
            let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
            while c &+ 4 <= end {
                let o = c &* 12
                var x = ra.loadUnaligned(fromByteOffset: o, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o, as: UInt64.self)
                x |= ra.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self)
                x |= ra.loadUnaligned(fromByteOffset: o &+ 16, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 16, as: UInt64.self)
                x |= ra.loadUnaligned(fromByteOffset: o &+ 24, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 24, as: UInt64.self)
                x |= ra.loadUnaligned(fromByteOffset: o &+ 32, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 32, as: UInt64.self)
                x |= ra.loadUnaligned(fromByteOffset: o &+ 40, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 40, as: UInt64.self)
                if x != 0 { break }
                c &+= 4
            }
        }
        while c < end && sameBits(a[c], b[c]) { c &+= 1 }
        return c
    }
}

extension Cell {
    /// A bit per cell of `from..<to` (at most 64), the lowest for `from`, set where `a` and
    /// `b` differ (``sameBits(_:_:)`` false): four cells at a time, compared as six words and
    /// turned into four bits without branching (where about half the cells of a row changed,
    /// a branch per cell would be mispredicted often).
    @inline(__always) static func differenceMask(
        _ a: UnsafePointer<Cell>, _ b: UnsafePointer<Cell>, from: Int, to end: Int
    ) -> UInt64 {
        var word: UInt64 = 0
        var k = from
        if MemoryLayout<Cell>.size == 12 && MemoryLayout<Cell>.stride == 12 {
            // three 4-byte words and no padding: equal bytes are equal cells
            let ra = UnsafeRawPointer(a), rb = UnsafeRawPointer(b)
            let low: UInt64 = 0xFFFF_FFFF
            while k &+ 4 <= end {
                let o = k &* 12
                let x0 = ra.loadUnaligned(fromByteOffset: o, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o, as: UInt64.self)
                let x1 = ra.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self)
                let x2 = ra.loadUnaligned(fromByteOffset: o &+ 16, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 16, as: UInt64.self)
                let x3 = ra.loadUnaligned(fromByteOffset: o &+ 24, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 24, as: UInt64.self)
                let x4 = ra.loadUnaligned(fromByteOffset: o &+ 32, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 32, as: UInt64.self)
                let x5 = ra.loadUnaligned(fromByteOffset: o &+ 40, as: UInt64.self) ^ rb.loadUnaligned(fromByteOffset: o &+ 40, as: UInt64.self)
                // cell 0 is bytes 0-11, cell 1 12-23, cell 2 24-35, cell 3 36-47
                let d0: UInt64 = (x0 | (x1 & low)) != 0 ? 1 : 0
                let d1: UInt64 = ((x1 >> 32) | x2) != 0 ? 2 : 0
                let d2: UInt64 = (x3 | (x4 & low)) != 0 ? 4 : 0
                let d3: UInt64 = ((x4 >> 32) | x5) != 0 ? 8 : 0
                word |= (d0 | d1 | d2 | d3) &<< UInt64(truncatingIfNeeded: k &- from)
                k &+= 4
            }
        }
        while k < end {
            word |= (differingBits(a[k], b[k]) != 0 ? 1 : 0) &<< UInt64(truncatingIfNeeded: k &- from)
            k &+= 1
        }
        return word
    }
}

extension Color {
    /// The four channels as one word (in memory order), for comparisons.
    @inline(__always) var bits: UInt32 {
        unsafeBitCast(self, to: UInt32.self)
    }
}

/// Turns cells into what the terminal will show in the current colour mode and vision
/// filter, remembering recent palette lookups.
///
/// With 8 backgrounds and 16 foregrounds (``ColorMode/palette8``) a pixel cell whose colour
/// is one of the 8 bright ones is drawn with `▀`, `▄` or `█` in the foreground, so the bright
/// colours show in pixels too; when both of a cell's pixels are bright, the bottom one takes
/// its nearest background. Text on a bright background is written in reverse video (the
/// text's colour then comes from the 8).
struct CellLooks {
    let mode: ColorMode
    let filter: VisionFilter
    /// Colours as foregrounds (and, but in the 8-colour mode, as backgrounds).
    private var palette: PaletteCache
    /// 8-colour mode: colours as backgrounds.
    private var backgrounds: PaletteCache
    /// High contrast: text colours lightened and darkened.
    private var lightText: PaletteCache
    private var darkText: PaletteCache
    private let fast: Bool

    init(mode: ColorMode, filter: VisionFilter = .none) {
        self.mode = mode
        self.filter = filter
        let target: ColorMapping.Target
        switch mode {
        case .trueColor: target = .rgb
        case .palette256: target = .palette256
        case .palette16: target = .system(16)
        case .palette8: target = .console(16)
        }
        palette = PaletteCache(ColorMapping(target: target, filter: filter))
        let backTarget: ColorMapping.Target = mode == .palette8 ? .console(8) : target
        backgrounds = PaletteCache(ColorMapping(target: backTarget, filter: filter))
        lightText = PaletteCache(ColorMapping(target: target, filter: filter, shade: .light))
        darkText = PaletteCache(ColorMapping(target: backTarget, filter: filter, shade: .dark))
        fast = filter == .none && mode != .palette8
    }

    @inline(__always) mutating func look(_ cell: Cell) -> TerminalCell {
        if fast {
            switch mode {
            case .trueColor:
                return TerminalCell(cell, foreground: TerminalCell.rgbKey(cell.foreground),
                                    background: TerminalCell.rgbKey(cell.background))
            default:
                return TerminalCell(cell, foreground: palette.index(for: cell.foreground),
                                    background: palette.index(for: cell.background))
            }
        }
        return filteredLook(cell)
    }

    /// Truecolor without a filter: ``look(_:)`` is ``trueColorLook(_:)``.
    var isPlainTrueColor: Bool { fast && mode == .trueColor }

    /// ``look(_:)`` in truecolor without a filter, which needs no state.
    @inline(__always) static func trueColorLook(_ cell: Cell) -> TerminalCell {
        TerminalCell(cell, foreground: TerminalCell.rgbKey(cell.foreground), background: TerminalCell.rgbKey(cell.background))
    }

    /// ``look(_:)`` under a vision filter or with 8 backgrounds.
    @inline(never) private mutating func filteredLook(_ cell: Cell) -> TerminalCell {
        let scalar = cell.character.value
        let pixels = scalar == BlockScalar.space || scalar == BlockScalar.upperHalf || scalar == BlockScalar.lowerHalf
            || scalar == BlockScalar.fullBlock
        if !pixels {
            if filter == .highContrast, scalar != GlyphStore.continuation {
                let fgLight = lightness(cell.foreground) >= lightness(cell.background)
                let fg = fgLight ? lightText.index(for: cell.foreground) : darkText.index(for: cell.foreground)
                let bg = fgLight ? darkText.index(for: cell.background) : lightText.index(for: cell.background)
                if mode == .palette8 && bg >= 8 {
                    return TerminalCell(cell, foreground: fg, background: backgrounds.index(for: cell.background))
                }
                return TerminalCell(cell, foreground: fg, background: bg)
            }
            if mode == .palette8 {
                // text on a bright colour the 8 backgrounds lack (a key drawn on a circle, a
                // chosen button): in reverse video, the bright colour set as the foreground
                // and the text's as the background
                let back = palette.index(for: cell.background)
                if back >= 8 && cell.character.value != GlyphStore.continuation {
                    return TerminalCell(cell, foreground: back | PenState.reverse,
                                        background: backgrounds.index(for: cell.foreground) | PenState.reverse)
                }
            }
            return TerminalCell(cell, foreground: palette.index(for: cell.foreground),
                                background: backgrounds.index(for: cell.background))
        }
        guard mode == .palette8 else {
            return TerminalCell(cell, foreground: palette.index(for: cell.foreground),
                                background: palette.index(for: cell.background))
        }
        // the two pixels, top and bottom
        let (topColor, bottomColor): (Color, Color)
        switch scalar {
        case BlockScalar.space: (topColor, bottomColor) = (cell.background, cell.background)
        case BlockScalar.upperHalf: (topColor, bottomColor) = (cell.foreground, cell.background)
        case BlockScalar.lowerHalf: (topColor, bottomColor) = (cell.background, cell.foreground)
        default: (topColor, bottomColor) = (cell.foreground, cell.foreground)
        }
        let top = palette.index(for: topColor), bottom = palette.index(for: bottomColor)
        if top < 8 && bottom < 8 { return TerminalCell(scalar: 0, first: top, second: bottom) }
        if top == bottom {
            return TerminalCell(scalar: BlockScalar.fullBlock, first: top, second: backgrounds.index(for: bottomColor))
        }
        if bottom < 8 { return TerminalCell(scalar: BlockScalar.upperHalf, first: top, second: bottom) }
        if top < 8 { return TerminalCell(scalar: BlockScalar.lowerHalf, first: bottom, second: top) }
        return TerminalCell(scalar: BlockScalar.upperHalf, first: top, second: backgrounds.index(for: bottomColor))
    }

    /// A cheap lightness (luma) for choosing which of a text cell's colours is the lighter.
    @inline(__always) private func lightness(_ c: Color) -> Int {
        Int(c.r) * 299 + Int(c.g) * 587 + Int(c.b) * 114
    }
}
