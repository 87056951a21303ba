// Getting the cursor to the next cell: the cheapest escape sequence, or reprinting a short
// gap of unchanged cells when that is shorter still.
extension TerminalWriter {
    /// Gaps up to this many unchanged cells may be reprinted instead of moving the cursor.
    static let maxReprint = 4

    /// Moves to cell `index` (`column` of `row`), considering a reprint of the unchanged
    /// cells in between. Room for the cell must have been reserved.
    mutating func gapCheckedMove(
        row: Int, column: Int, index: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        if state.row == row && state.column >= 0 && column > state.column {
            // Forward along the row (most moves): `ESC [ n C` is never longer than the other
            // moves and comes first among equals, so only a reprint can beat it.
            let gap = column - state.column
            if gap <= TerminalWriter.maxReprint {
                // the reprint is written straight away, and taken back unless it can be
                // written and is shorter
                let mark = out.count
                if reprint(gap: gap, index: index, old: old, new: new, cellLooks: &cellLooks, into: &out),
                   out.count - mark < TerminalWriter.stepCost(gap) {
                    state.column = column
                    return
                }
                out.truncate(to: mark)
            }
            TerminalWriter.appendStep(gap, positive: 0x43, negative: 0x44, to: &out)
            state.column = column
            return
        }
        // Back along the row, to another row, or from an unknown place: no gap lies before the
        // cell, so the cheapest move.
        moveCursor(row: row, column: column, into: &out)
    }

    /// Writes the `gap` cells before cell `index` again in the current colours, or returns
    /// false (having written part of them) when one of them changed (and is not written yet)
    /// or needs other colours; a cell still ``waiting`` to be written that may be written
    /// over takes a space. Room must have been reserved.
    @inline(__always) private func reprint(
        gap: Int, index: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) -> Bool {
        for k in (index - gap)..<index {
            if let waiting {
                let w = waiting[k]
                if w == TerminalWriter.waitingOverwritable {
                    out.append(0x20)  // a space for now: the cell is written later
                    continue
                }
                if w != 0 { return false }
                // unchanged, or written already this frame: the screen shows the new cell
                let look = screenLooks.map { $0[k] } ?? cellLooks.look(new[k])
                guard let s = look.scalarWithoutColorChange(state.pen), s < GlyphStore.firstNarrow else { return false }
                TerminalCell.appendUTF8(s, to: &out)
                continue
            }
            let cell = new[k]
            let look = cellLooks.look(cell)
            // only narrow glyphs of one code point: a wide one's halves, or a glyph whose
            // width a terminal may see otherwise, are never reprinted
            guard Cell.sameBits(cell, old[k]) || look == cellLooks.look(old[k]),
                  let s = look.scalarWithoutColorChange(state.pen), s < GlyphStore.firstNarrow else { return false }
            TerminalCell.appendUTF8(s, to: &out)
        }
        return true
    }

    /// The ways to get from the cursor to a cell.
    private enum Move {
        case stay
        case absolute
        /// Optional carriage return, line feeds (each a row down), then relative vertical and
        /// horizontal steps.
        case relative(carriageReturn: Bool, lineFeeds: Int, vertical: Int, horizontal: Int)
        /// Column absolute (`CHA`) after line feeds or a vertical step.
        case columnAbsolute(lineFeeds: Int, vertical: Int)
    }

    /// The cheapest move from the cursor to a cell, and its length in bytes.
    @inline(__always)
    private func bestMove(row: Int, column: Int) -> (Move, Int) {
        if row == state.row && column == state.column { return (.stay, 0) }
        var best = Move.absolute
        var bestCost = TerminalWriter.cupCost(row: row, column: column)
        func consider(_ move: Move, _ cost: Int) {
            if cost < bestCost {
                best = move
                bestCost = cost
            }
        }
        if state.row >= 0 {
            let dv = row - state.row
            // A line feed (output is not post-processed: the column stays) is a byte a row
            // down, shorter than `ESC [ n B` for up to 3 rows; taken only where the column
            // is known (no wrap pending) or after a carriage return. Where it may be taken
            // it is always the shorter way down.
            let feeds = dv >= 1 && dv <= TerminalWriter.maxLineFeeds ? dv : 0
            let vertical = TerminalWriter.stepCost(dv)
            let known = state.column >= 0
            let knownFeeds = known ? feeds : 0
            let down = knownFeeds > 0 ? feeds : vertical
            let cha = 3 + (column == 0 ? 0 : Escape.digits(column + 1))
            if known {
                let dh = column - state.column
                consider(.relative(carriageReturn: false, lineFeeds: knownFeeds, vertical: knownFeeds > 0 ? 0 : dv, horizontal: dh),
                         down + TerminalWriter.stepCost(dh))
            }
            consider(.relative(carriageReturn: true, lineFeeds: feeds, vertical: feeds > 0 ? 0 : dv, horizontal: column),
                     1 + (feeds > 0 ? feeds : vertical) + TerminalWriter.stepCost(column))
            consider(.columnAbsolute(lineFeeds: knownFeeds, vertical: knownFeeds > 0 ? 0 : dv), down + cha)
        }
        return (best, bestCost)
    }

    @inline(__always)
    mutating func moveCursor(row: Int, column: Int, into out: inout ByteBuffer) {
        perform(bestMove(row: row, column: column).0, row: row, column: column, into: &out)
    }

    @inline(__always)
    private mutating func perform(_ move: Move, row: Int, column: Int, into out: inout ByteBuffer) {
        switch move {
        case .stay:
            return
        case .absolute:
            out.append(0x1B)
            out.append(0x5B)
            if row != 0 || column != 0 { Escape.appendDecimal(row + 1, to: &out) }
            if column != 0 {
                out.append(0x3B)
                Escape.appendDecimal(column + 1, to: &out)
            }
            out.append(0x48)  // H
        case .relative(let cr, let feeds, let dv, let dh):
            if cr { out.append(0x0D) }
            for _ in 0..<feeds { out.append(0x0A) }
            TerminalWriter.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)  // B down, A up
            TerminalWriter.appendStep(dh, positive: 0x43, negative: 0x44, to: &out)  // C right, D left
        case .columnAbsolute(let feeds, let dv):
            for _ in 0..<feeds { out.append(0x0A) }
            TerminalWriter.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)
            out.append(0x1B)
            out.append(0x5B)
            if column != 0 { Escape.appendDecimal(column + 1, to: &out) }
            out.append(0x47)  // G
        }
        state.row = row
        state.column = column
    }

    /// Rows down a move may take by line feeds, a byte each.
    static let maxLineFeeds = 3

    /// `ESC [ row ; column H`, shortened when a coordinate is 1.
    @inline(__always)
    private static func cupCost(row: Int, column: Int) -> Int {
        if row == 0 && column == 0 { return 3 }
        if column == 0 { return 3 + Escape.digits(row + 1) }
        return 4 + Escape.digits(row + 1) + Escape.digits(column + 1)
    }

    /// A relative step of `n` cells: nothing, `ESC [ A` for one, `ESC [ n A` for more.
    @inline(__always)
    static func stepCost(_ n: Int) -> Int {
        let m = abs(n)
        return m == 0 ? 0 : m == 1 ? 3 : 3 + Escape.digits(m)
    }

    @inline(__always)
    static func appendStep(_ n: Int, positive: UInt8, negative: UInt8, to out: inout ByteBuffer) {
        guard n != 0 else { return }
        if n > 1 && n < 256 {
            // `ESC [ n` and the letter, stored as one word
            let (digits, length) = Escape.channelDigits(UInt32(truncatingIfNeeded: n))
            let letter = UInt64(positive) << (8 &* UInt64(truncatingIfNeeded: length &+ 2))
            out.appendDoubleWord(0x5B1B | UInt64(digits) << 16 | letter, length: length &+ 3)
            return
        }
        out.append(0x1B)
        out.append(0x5B)
        if abs(n) != 1 { Escape.appendDecimal(abs(n), to: &out) }
        out.append(n > 0 ? positive : negative)
    }
}
