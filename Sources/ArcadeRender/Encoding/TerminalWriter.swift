import ArcadeCore

/// Where the cursor is and which colours are set, as far as the encoder knows.
struct TerminalState {
    var pen = PenState()
    /// -1 when unknown.
    var row = -1
    /// -1 when unknown.
    var column = -1
}

/// Writes cells to the terminal with the cheapest moves and colour changes, tracking the
/// cursor and colours as it goes. A value used for one frame, so its hot state lives in
/// registers rather than in the encoder object.
struct TerminalWriter {
    let columns: Int
    let mode: ColorMode
    var state: TerminalState

    init(columns: Int, mode: ColorMode, state: TerminalState) {
        self.columns = columns
        self.mode = mode
        self.state = state
    }

    /// Writes the `count` changed cells of one row (in `scratch`, in column order), grouped
    /// by colour: every cell the current colours can show, left to right; then new colours,
    /// chosen among a few candidates for how many of the remaining cells they can show per
    /// colour sent; and again. When twice running no colours would serve more than one
    /// cell, or after ``maxColorRounds``, the rest go left to right, which bounds the work
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
                    if kept != j { scratch.move(j, to: kept) }
                    kept &+= 1
                }
            }
            remaining = kept
            if remaining == 0 { return reordered }
            rounds += 1
            let (pick, served) = rounds > TerminalWriter.maxColorRounds
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
                scratch.move(j &+ 1, to: j)
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

    /// A lower bound on the bytes ``writeRowInOrder`` would write for the `count` cells in
    /// `scratch` from this state, found without writing: each character, the colour changes
    /// it makes (exactly), and the least each gap between two cells can take.
    /// Stops counting once the bound reaches `limit` (the bytes it is to be compared with).
    func inOrderLowerBound(count: Int, scratch: RowScratch, limit: Int = .max) -> Int {
        var pen = state.pen
        var bytes = 0
        var next = -1  // where the cursor is after the previous cell
        for j in 0..<count {
            if bytes >= limit { return bytes }
            let column = Int(scratch.columns[j])
            if next >= 0 && column > next {
                // a reprint (up to maxReprint cells) takes a byte a cell; a forward move at
                // least `ESC [ n C`
                let gap = column - next
                bytes += gap <= TerminalWriter.maxReprint ? min(gap, TerminalWriter.stepCost(gap)) : TerminalWriter.stepCost(gap)
            }
            let spelled = scratch.look(j).spelling(for: pen)
            let value = spelled.scalar & ~TerminalCell.wideFlag
            bytes += GlyphStore.isStored(value) ? 1 : TerminalCell.utf8Count(value)
            next = column + (spelled.scalar & TerminalCell.wideFlag != 0 ? 2 : 1)
            let setFg = spelled.foreground.map { $0 != pen.foreground } ?? false
            let setBg = spelled.background.map { $0 != pen.background } ?? false
            if setFg || setBg {
                bytes += 3 + (setFg && setBg ? 1 : 0)  // ESC [ ... m, and ; between two
                if setFg, let fg = spelled.foreground {
                    bytes += colorBytes(fg)
                    pen.foreground = fg
                }
                if setBg, let bg = spelled.background {
                    bytes += colorBytes(bg)
                    pen.background = bg
                }
            }
        }
        return bytes
    }

    /// The length of a colour's SGR parameters (``Escape/appendColor(_:selector:mode:to:)``);
    /// 0, still a lower bound, in a mode it does not know.
    @inline(__always) private func colorBytes(_ key: UInt32) -> Int {
        if mode == .trueColor {
            return 7 + Escape.digits(Int((key >> 16) & 0xFF)) + Escape.digits(Int((key >> 8) & 0xFF))
                + Escape.digits(Int(key & 0xFF))
        }
        if mode == .palette256 { return 5 + Escape.digits(Int(key)) }
        return 0
    }

    /// Moves to `column` of `row` (reprinting a small gap when cheaper) and writes `look`
    /// there; `base` is the row's first cell index.
    /// `shown` says the pen shows `look` as it is (no colour to send): then its character is
    /// written straight away, as ``writeHere(_:into:)`` would.
    @inline(__always) private mutating func put(
        _ look: TerminalCell, row: Int, column: Int, base: Int, old: UnsafeBufferPointer<Cell>,
        new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks, shown: Bool = false, into out: inout ByteBuffer
    ) {
        out.reserve(Escape.maxBytesPerCell)
        // Changed cells often follow each other: then the cursor is already there.
        if state.row != row || state.column != column {
            gapCheckedMove(row: row, column: column, index: base &+ column, old: old, new: new, cellLooks: &cellLooks,
                           into: &out)
        }
        if shown, let scalar = look.scalarWithoutColorChange(state.pen) {
            emit(scalar, into: &out)
        } else {
            writeHere(look, into: &out)
        }
    }

    /// Colour changes per row before the rest of the row is written in order.
    static let maxColorRounds = 8
    /// Unwritten cells considered when choosing the next colours.
    static let colorCandidates = 6

    /// Of the first few waiting cells, the one whose colours (as it would be spelled from
    /// the current pen) let the most waiting cells be written without another change, per
    /// colour sent; ties go to the leftmost. Returns its place in `scratch` and how many
    /// cells those colours serve, the chosen one included.
    ///
    /// Candidates that would leave the pen as an earlier one does are skipped: they serve
    /// the same cells at the same cost, and ties go to the earlier one anyway.
    private func nextColorCell(_ scratch: RowScratch, count: Int) -> (cell: Int, served: Int) {
        var best = -1
        var bestServed = 0
        var bestScore = -1
        var tried = (PenState(), PenState(), PenState(), PenState(), PenState(), PenState())
        let limit = min(count, TerminalWriter.colorCandidates)
        return withUnsafeMutableBytes(of: &tried) { raw in
            let pens = raw.baseAddress!.assumingMemoryBound(to: PenState.self)
            candidates: for j in 0..<limit {
                var pen = state.pen
                let spelled = scratch.look(j).spelling(for: pen)
                var changes = 0
                if let fg = spelled.foreground, fg != pen.foreground {
                    pen.foreground = fg
                    changes += 1
                }
                if let bg = spelled.background, bg != pen.background {
                    pen.background = bg
                    changes += 1
                }
                for t in 0..<j where pens[t].foreground == pen.foreground && pens[t].background == pen.background {
                    pens[j] = PenState()
                    continue candidates
                }
                pens[j] = pen
                let served = scratch.countShown(count, with: pen)
                // Cells served per colour sent: changing both colours costs twice one.
                let score = served * 2 / max(1, changes)
                if score > bestScore {
                    best = j
                    bestScore = score
                    bestServed = served
                }
            }
            return (best, bestServed)
        }
    }

    /// Moves to cell `index`, sets the colours `look` needs and writes it.
    @inline(__always) mutating func write(_ look: TerminalCell, at index: Int, into out: inout ByteBuffer) {
        out.reserve(Escape.maxBytesPerCell)
        let row = index / columns
        let column = index - row * columns
        moveCursor(row: row, column: column, into: &out)
        writeHere(look, into: &out)
    }

    /// Sets the colours `look` needs and writes it at the cursor. Room must have been reserved.
    @inline(__always) private mutating func writeHere(_ look: TerminalCell, into out: inout ByteBuffer) {
        let spelled = look.spelling(for: state.pen)
        state.pen.emitColors(foreground: spelled.foreground, background: spelled.background, mode: mode, into: &out)
        emit(spelled.scalar, into: &out)
    }

    /// Writes a cell's character at the cursor, in the pen's colours, and moves on.
    @inline(__always) private mutating func emit(_ scalar: UInt32, into out: inout ByteBuffer) {
        if scalar < GlyphStore.firstNarrow {
            TerminalCell.appendUTF8(scalar, to: &out)
            advanceColumn(by: 1)
        } else {
            emitGlyph(scalar, into: &out)
        }
    }

    /// ``emit(_:into:)`` for a wide glyph or a stored one. A glyph of several code points is
    /// where terminals disagree most (one may draw an emoji with its variation selector one
    /// cell wide, or a ZWJ sequence as several emoji), so before a wide one its two cells are
    /// cleared, and after any the cursor's column counts as unknown: the next cell is reached
    /// by an absolute move, and nothing after the glyph shifts.
    @inline(never) private mutating func emitGlyph(_ scalar: UInt32, into out: inout ByteBuffer) {
        let value = scalar & ~TerminalCell.wideFlag
        let wide = scalar & TerminalCell.wideFlag != 0
        guard GlyphStore.isStored(value) else {
            TerminalCell.appendUTF8(value, to: &out)
            advanceColumn(by: wide ? 2 : 1)
            return
        }
        if wide && state.column >= 0 {
            out.reserve(16)
            out.append(0x20)
            out.append(0x20)
            // back to the glyph's cell: `CHA`, which is exact even where the two spaces left
            // the cursor waiting to wrap at the last column
            out.append(0x1B)
            out.append(0x5B)
            if state.column != 0 { Escape.appendDecimal(state.column + 1, to: &out) }
            out.append(0x47)  // G
        }
        TerminalCell.appendGlyph(value, to: &out)
        state.column = -1
        out.reserve(Escape.maxBytesPerCell)
    }

    /// The cursor after a character `cells` wide.
    @inline(__always) private mutating func advanceColumn(by cells: Int) {
        state.column += cells
        if state.column >= columns {
            // Terminals differ on where the cursor is after the last column (pending wrap or
            // already wrapped), so forget it; the next move is absolute.
            state.column = -1
            state.row = -1
        }
    }
}
