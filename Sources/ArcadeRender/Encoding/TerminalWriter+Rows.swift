import ArcadeCore

// Writing a frame a row at a time: what the frame writer does when a frame has more pairs of
// colours than its table holds (every cell its own colours, or a gradient behind moving
// sprites), where grouping across rows would not pay.
extension TerminalWriter {
    /// Colour changes per row before the rest of the row is written in order.
    static let maxRowColorRounds = 8

    /// Writes the `count` changed cells of one row (in `scratch`, in column order), grouped
    /// by colour: every cell the current colours can show, left to right; then new colours,
    /// chosen among a few candidates for how many of the remaining cells they can show per
    /// colour sent; and again. When twice running no colours would serve more than one
    /// cell, or after ``maxRowColorRounds``, the rest go left to right, which bounds the work
    /// when every cell has colours of its own.
    ///
    /// Written cells leave `scratch` (the rest close up, keeping their order), so each pass
    /// looks only at the cells still waiting.
    ///
    /// Returns whether any cell was written left of one written before it: when none was,
    /// the row went out exactly as ``writeRowInOrder`` would have written it.
    @discardableResult
    mutating func writeRow(
        base: Int, count: Int, scratch: RowScratch, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) -> Bool {
        let row = base / self.columns
        var remaining = count
        var rounds = 0
        var futile = 0
        // the rightmost column written so far: a later pass that writes left of it reorders
        var rightmost = -1
        var reordered = false
        while true {
            // Every cell the pen shows as it is, in order; writing them changes no colour, so
            // the pen is the same for the whole pass.
            let pen = state.pen
            var kept = 0
            for j in 0..<remaining {
                let look = scratch.look(j)
                if look.shows(with: pen) {
                    let column = Int(scratch.columns[j])
                    if column < rightmost { reordered = true }
                    rightmost = max(rightmost, column)
                    put(look, row: row, column: column, base: base, old: old, new: new,
                        cellLooks: &cellLooks, shown: true, into: &out)
                } else {
                    if kept != j { scratch.moveInRow(j, to: kept) }
                    kept &+= 1
                }
            }
            remaining = kept
            if remaining == 0 { return reordered }
            rounds += 1
            let (pick, served) = rounds > TerminalWriter.maxRowColorRounds
                ? (-1, 0) : nextColorCell(scratch, count: remaining)
            futile = served <= 1 ? futile + 1 : 0
            if futile >= 2 || pick < 0 {
                // Twice no colours worth grouping by, or too many rounds: the rest in order.
                if remaining > 0 && Int(scratch.columns[0]) < rightmost { reordered = true }
                for j in 0..<remaining {
                    put(scratch.look(j), row: row, column: Int(scratch.columns[j]), base: base, old: old, new: new,
                        cellLooks: &cellLooks, into: &out)
                }
                return reordered
            }
            let column = Int(scratch.columns[pick])
            if column < rightmost { reordered = true }
            rightmost = max(rightmost, column)
            put(scratch.look(pick), row: row, column: column, base: base, old: old, new: new,
                cellLooks: &cellLooks, into: &out)
            remaining -= 1
            var j = pick
            while j < remaining {
                scratch.moveInRow(j &+ 1, to: j)
                j &+= 1
            }
        }
    }

    /// Writes the `count` changed cells of one row (in `scratch`) left to right, each with
    /// the colours it needs: what a plain encoder writes. Leaves `scratch` as it was.
    mutating func writeRowInOrder(
        base: Int, count: Int, scratch: RowScratch, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        let row = base / self.columns
        for j in 0..<count {
            let look = scratch.look(j)
            put(look, row: row, column: Int(scratch.columns[j]), base: base, old: old, new: new,
                cellLooks: &cellLooks, shown: look.shows(with: state.pen), into: &out)
        }
    }
}
