import ArcadeCore

// Finding a frame's changed cells: the one loop that looks at every cell of every frame.
extension FrameEncoder {
    /// Where the changed cells of a frame go, and the screen they are compared with.
    struct ChangeSink {
        /// The changed cells, in reading order.
        let scratch: RowScratch
        /// How each cell of the screen looks; updated for every changed cell.
        let screenLooks: UnsafeMutablePointer<TerminalCell>
        /// Per cell: set for each changed cell (``TerminalWriter/waiting``) when not nil.
        let waiting: UnsafeMutablePointer<UInt8>?
        /// The rows with any cell spelled differently, in order.
        let differingRows: UnsafeMutablePointer<Int32>
        /// A word per 64 cells of a row.
        let mask: UnsafeMutablePointer<UInt64>
    }

    /// Compares each row of `new` with `old` (the screen), and for each cell spelled
    /// differently that also looks different (``CellLooks/look(_:)``) notes it in `sink`; the
    /// right half of a wide glyph brings its left half. Returns how many cells were noted and
    /// how many rows differ. `plainTrueColor` says the looks need no state
    /// (``CellLooks/trueColorLook(_:)``): then `looks` is not used.
    ///
    /// Written as a function of plain values rather than inside the encoder, so the pointers
    /// it walks stay in registers across the stores it makes.
    @inline(__always)
    static func collectChanges(
        new newBase: UnsafePointer<Cell>, old oldBase: UnsafePointer<Cell>, rows: Int, columns cols: Int,
        into sink: ChangeSink, looks: inout CellLooks, plainTrueColor: Bool
    ) -> (count: Int, differing: Int) {
        let rowsOut = sink.scratch.rows, columnsOut = sink.scratch.columns
        let scalarsOut = sink.scratch.scalars, firstsOut = sink.scratch.firsts, secondsOut = sink.scratch.seconds
        let mask = sink.mask, differingRows = sink.differingRows
        let words = (cols &+ 63) >> 6
        let threeWords = TerminalCell.cellIsThreeWords
        var count = 0, differing = 0
        for row in 0..<rows {
            let base = row &* cols
            let newRow = newBase + base, oldRow = oldBase + base
            // Most rows of most frames are unchanged: find the first difference with a plain
            // comparison before looking at anything.
            let first = Cell.firstDifference(newRow, oldRow, from: 0, to: cols)
            if first == cols { continue }
            differingRows[differing] = Int32(truncatingIfNeeded: row)
            differing &+= 1
            // the differing cells from there on, as bits: one plain pass over the row
            let firstWord = first >> 6
            for w in firstWord..<words {
                mask[w] = Cell.differenceMask(newRow, oldRow, from: w &<< 6, to: min(cols, w &<< 6 &+ 64))
            }
            let looksRow = sink.screenLooks + base
            let waitingRow = sink.waiting.map { $0 + base }
            let rowStart = count
            var w = firstWord
            var bits = mask[w]
            while true {
                while bits == 0 {
                    w &+= 1
                    if w == words { break }
                    bits = mask[w]
                }
                if bits == 0 { break }
                let c = w &<< 6 &+ bits.trailingZeroBitCount
                bits &= bits &- 1
                if newRow[c].isContinuation {
                    // the right half of a wide glyph: written with its left half, which
                    // changed too unless only this half's colours did
                    looksRow[c] = looks.look(newRow[c])
                    if c > 0 && (count == rowStart || columnsOut[count &- 1] != Int32(truncatingIfNeeded: c &- 1)) {
                        let left = looksRow[c &- 1]
                        columnsOut[count] = Int32(truncatingIfNeeded: c &- 1)
                        scalarsOut[count] = left.scalar
                        firstsOut[count] = left.first
                        secondsOut[count] = left.second
                        count &+= 1
                        waitingRow?[c &- 1] = TerminalWriter.waitingKept
                    }
                    continue
                }
                // Different cells may still look the same (a blank's unused foreground, two
                // colours with one palette entry).
                let look = plainTrueColor ? TerminalCell.trueColorLook(at: newRow + c, threeWords: threeWords) : looks.look(newRow[c])
                let was = looksRow[c]
                if look != was {
                    looksRow[c] = look
                    columnsOut[count] = Int32(truncatingIfNeeded: c)
                    scalarsOut[count] = look.scalar
                    firstsOut[count] = look.first
                    secondsOut[count] = look.second
                    count &+= 1
                    // a narrow character before and after: may be written over while it waits
                    waitingRow?[c] = look.scalar < GlyphStore.firstNarrow && was.scalar < GlyphStore.firstNarrow
                        ? TerminalWriter.waitingOverwritable : TerminalWriter.waitingKept
                }
            }
            let row32 = Int32(truncatingIfNeeded: row)
            for j in rowStart..<count { rowsOut[j] = row32 }
        }
        return (count, differing)
    }
}
