// Getting the cursor to the next cell: the cheapest escape sequence or control characters
// (carriage return, line feeds, and where the encoder set the tab stops, horizontal tabs and
// backspaces), or reprinting a short gap of unchanged cells when that is shorter still.
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
            if state.tabStops {
                tabbedMove(gap: gap, column: column, index: index, old: old, new: new, cellLooks: &cellLooks, into: &out)
                return
            }
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

    /// ``gapCheckedMove`` forward along the row where the encoder set the tab stops. The
    /// candidates, the first of the shortest taken: `ESC [ n C`; a reprint of the gap; tabs to
    /// the stop at or before the cell and a step on, or to the stop after it and backspaces
    /// (``along(from:to:)``); tabs to the stop before the cell and a reprint from there.
    private mutating func tabbedMove(
        gap: Int, column: Int, index: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        let step = TerminalWriter.stepCost(gap)
        let way = along(from: state.column, to: column)
        var best = step
        var choice = 0  // the step; 1: the reprint, written; 2: the tabs; 3: tabs and a reprint
        let mark = out.count
        // (a reprint takes a byte a cell at least: where that is no shorter than the step, or
        // longer than the tabs, it is not taken)
        if gap <= TerminalWriter.maxReprint && gap < step && gap <= way.cost {
            // written straight away, and taken back unless it is taken
            if reprint(gap: gap, index: index, old: old, new: new, cellLooks: &cellLooks, into: &out), out.count - mark < step {
                best = out.count - mark
                choice = 1
            } else {
                out.truncate(to: mark)
            }
        }
        if way.cost < best {
            best = way.cost
            choice = 2
        }
        let shift = TerminalWriter.tabShift
        let rest = column & (TerminalWriter.tabWidth &- 1), tabs = (column &>> shift) &- (state.column &>> shift)
        if tabs > 0 && rest > 0 && TerminalWriter.tabCost(tabs) &+ rest < best {
            // tried after what is written so far, measured, taken back (and written again
            // from the mark when it is taken)
            let trial = out.count
            TerminalWriter.appendAlong(tabs: tabs, rest: 0, to: &out)
            if reprint(gap: rest, index: index, old: old, new: new, cellLooks: &cellLooks, into: &out),
               out.count - trial < best {
                choice = 3
            }
            out.truncate(to: trial)
        }
        if choice != 1 { out.truncate(to: mark) }
        switch choice {
        case 0: TerminalWriter.appendStep(gap, positive: 0x43, negative: 0x44, to: &out)
        case 2: TerminalWriter.appendAlong(tabs: way.tabs, rest: way.rest, to: &out)
        case 3:
            TerminalWriter.appendAlong(tabs: tabs, rest: 0, to: &out)
            _ = reprint(gap: rest, index: index, old: old, new: new, cellLooks: &cellLooks, into: &out)
        default: break
        }
        state.column = column
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
        /// Optional carriage return, line feeds (each a row down), a relative vertical step,
        /// then tabs and a horizontal step (``appendAlong(tabs:rest:to:)``).
        case relative(carriageReturn: Bool, lineFeeds: Int, vertical: Int, tabs: Int, horizontal: Int)
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
                // right, with tabs where the encoder set the stops
                let way = !state.tabStops ? (cost: TerminalWriter.stepCost(dh), tabs: 0, rest: dh)
                    : dh > 0 ? along(from: state.column, to: column) : back(from: state.column, to: column)
                consider(.relative(carriageReturn: false, lineFeeds: knownFeeds, vertical: knownFeeds > 0 ? 0 : dv,
                                   tabs: way.tabs, horizontal: way.rest),
                         down + way.cost)
            }
            let fromStart = state.tabStops && column > 0 ? along(from: 0, to: column) : (cost: TerminalWriter.stepCost(column), tabs: 0, rest: column)
            consider(.relative(carriageReturn: true, lineFeeds: feeds, vertical: feeds > 0 ? 0 : dv, tabs: fromStart.tabs,
                               horizontal: fromStart.rest),
                     1 + (feeds > 0 ? feeds : vertical) + fromStart.cost)
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
        case .relative(let cr, let feeds, let dv, let tabs, let dh):
            if cr { out.append(0x0D) }
            for _ in 0..<feeds { out.append(0x0A) }
            TerminalWriter.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)  // B down, A up
            TerminalWriter.appendAlong(tabs: tabs, rest: dh, backspaces: state.tabStops, to: &out)
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

    /// Columns from one tab stop to the next as the encoder sets them (terminals start with
    /// 8): a stop at every multiple of it inside the row. Stops 4 apart wrote about 2 % fewer
    /// bytes on busy frames than 8 apart, for 2 bytes a stop more on a full repaint.
    static let tabWidth = 1 << tabShift
    static let tabShift = 2

    /// Columns back a move may take by backspaces, a byte each (shorter than `ESC [ n D` for
    /// up to 3), after tabs past the cell.
    static let maxBackspaces = 3

    /// The cheapest way right along a row by moves alone, from column `from` (known: no wrap
    /// pending) to `to` (`to >= from`), where the encoder set the tab stops: `ESC [ n C`; tabs
    /// to the stop at or before `to` and a step on; tabs to the stop after `to` (when it is
    /// inside the row) and backspaces. A tab moves to the next stop right of the cursor, so
    /// with only the encoder's stops used where a tab lands is exact. The first of the
    /// shortest, in that order.
    @inline(__always)
    func along(from: Int, to: Int) -> (cost: Int, tabs: Int, rest: Int) {
        TerminalWriter.along(from: from, to: to, columns: columns)
    }

    /// ``along(from:to:)`` in a row `columns` wide.
    @inline(__always)
    static func along(from: Int, to: Int, columns: Int) -> (cost: Int, tabs: Int, rest: Int) {
        // worked out with selects: the cells of a frame lie at random, so branches on where
        // they lie are mispredicted
        let dh = to &- from
        let shift = TerminalWriter.tabShift, width = TerminalWriter.tabWidth
        let r = to & (width &- 1)
        let tabs = (to &>> shift) &- (from &>> shift)
        let plain = TerminalWriter.forwardStepCost(dh)
        let below = tabs > 0 ? TerminalWriter.tabCost(tabs) &+ TerminalWriter.forwardStepCost(r) : Int.max
        // r > 0: the stop after `to` is right of it, and so of `from`
        let above = r > 0 && (to &- r) &+ width < columns ? TerminalWriter.tabCost(tabs &+ 1) &+ width &- r : Int.max
        let takeBelow = below < plain
        let first = takeBelow ? below : plain
        let takeAbove = above < first
        let cost = takeAbove ? above : first
        let tabCount = takeAbove ? tabs &+ 1 : takeBelow ? tabs : 0
        let rest = takeAbove ? r &- width : takeBelow ? r : dh
        return (cost, tabCount, rest)
    }

    /// ``stepCost(_:)`` for `n >= 0`, without branches.
    @inline(__always)
    static func forwardStepCost(_ n: Int) -> Int {
        (n > 0 ? 3 : 0) &+ (n > 1 ? 1 : 0) &+ (n > 9 ? 1 : 0) &+ (n > 99 ? 1 : 0) &+ (n > 999 ? 1 : 0)
    }

    /// The cheapest way left along a row by moves alone, from column `from` (known: no wrap
    /// pending) to `to` (`to <= from`), where the encoder set the tab stops: `ESC [ n D`, or
    /// backspaces for up to ``maxBackspaces`` columns.
    @inline(__always)
    func back(from: Int, to: Int) -> (cost: Int, tabs: Int, rest: Int) {
        let dh = to &- from
        return (dh >= -TerminalWriter.maxBackspaces ? -dh : TerminalWriter.stepCost(dh), 0, dh)
    }

    /// The ways over a gap of `gap` cells that all take a space, where the encoder set the tab
    /// stops.
    enum BlankHop {
        /// A space over each cell.
        case spaces
        /// The move (``along(from:to:)``).
        case move
        /// Tabs to the last stop before the cell, then spaces.
        case tabsThenSpaces
    }

    /// Over a gap of blanks, the first of the shortest of: spaces (below ``maxReprint``
    /// cells, where they are shorter than any step), the move (`moveCost` bytes), tabs and
    /// spaces (`tabsThenSpacesCost` bytes, `Int.max` where there is no stop before the cell):
    /// the order ``gapCheckedMove`` takes them in.
    @inline(__always)
    static func blankHop(gap: Int, moveCost: Int, tabsThenSpacesCost: Int) -> BlankHop {
        let spaces = gap < maxReprint && gap <= moveCost
        return tabsThenSpacesCost < (spaces ? gap : moveCost) ? .tabsThenSpaces : spaces ? .spaces : .move
    }

    /// `n` tabs: a byte each (`HT`). (`CHT`, `ESC [ n I`, would be shorter for 5 or more, but
    /// terminals such as tmux and the Linux console do not know it.)
    @inline(__always)
    static func tabCost(_ n: Int) -> Int { n }

    /// `tabs` tabs (``tabCost(_:)``), then a horizontal step of `rest` cells: backspaces (a
    /// byte each) for up to ``maxBackspaces`` left after tabs or where `backspaces` says so,
    /// else ``appendStep``. Room for 8 bytes beyond the step must have been reserved.
    @inline(__always)
    static func appendAlong(tabs: Int, rest: Int, backspaces: Bool = false, to out: inout ByteBuffer) {
        if tabs == 0 && backspaces && rest < 0 && rest >= -maxBackspaces {
            out.appendWord(0x0808_0808, length: -rest)
            return
        }
        if tabs > 0 {
            var left = tabs
            while left > 8 {
                out.appendDoubleWord(0x0909_0909_0909_0909, length: 8)
                left &-= 8
            }
            out.appendDoubleWord(0x0909_0909_0909_0909, length: left)
            if rest < 0 {
                out.appendWord(0x0808_0808, length: -rest)
                return
            }
        }
        appendStep(rest, positive: 0x43, negative: 0x44, to: &out)  // C right, D left
    }

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
