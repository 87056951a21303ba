import ArcadeCore

/// Where the cursor is and which colours are set, as far as the encoder knows.
struct TerminalState {
    var pen = PenState()
    /// -1 when unknown.
    var row = -1
    /// -1 when unknown.
    var column = -1
    /// The terminal has a tab stop at every ``TerminalWriter/tabWidth``th column (4, 8, ...)
    /// and no other, set by the encoder's last full repaint: a horizontal tab may move.
    var tabStops = false
    /// The terminal's autowrap is off (`ESC [ ? 7 l`, set by the encoder's last full
    /// repaint): a character in the last column leaves the cursor there.
    var autowrapOff = false
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

    /// The ways along a row with tabs, worked out once (``TabHops``).
    private let hopWords = TabHops.shared.words, hopLengths = TabHops.shared.lengths

    /// Per cell of the frame (when set): ``waitingOverwritable`` while the cell waits to be
    /// written this frame and its old and new contents are narrow characters of one code
    /// point, so a gap may be crossed by writing anything over it (a space) instead of
    /// moving: the cell is written properly later; ``waitingKept`` while any other changed
    /// cell waits; 0 for a cell the screen shows as the frame has it (unchanged, or written
    /// already), which a gap may reprint. Cleared as each cell is written.
    var waiting: UnsafeMutablePointer<UInt8>? = nil
    /// While ``waiting`` is set: how each cell of the frame looks (the frame's, for every
    /// cell a gap may reprint).
    var screenLooks: UnsafeMutablePointer<TerminalCell>? = nil
    static let waitingOverwritable: UInt8 = 1
    static let waitingKept: UInt8 = 2

    /// Writes the `count` changed cells of the frame (in `scratch`, in reading order, counted
    /// in `pens`), grouped by colour across the whole frame: every cell the current colours
    /// can show, in reading order; then the colours (from `pens`) that show the most waiting
    /// cells (of those showing at least two; the shorter change among equals), and again. When no
    /// colours would show two cells, or after ``maxColorRounds``, the rest go in reading
    /// order, each in its own colours, which bounds the work when every cell has colours of
    /// its own.
    ///
    /// A pass in some colours visits only their cells (``PenTable/list(_:)``): the cells of
    /// the pair and those of one colour its background shows, merged in reading order. On
    /// the way it may also write waiting cells of one colour that is its foreground, as `█`
    /// (``moveOrFill``).
    ///
    /// Returns whether any cell was written before one that precedes it in reading order:
    /// when none was, the frame went out exactly as ``writeInOrder`` would have written it.
    @discardableResult
    mutating func writeFrame(
        count: Int, scratch: RowScratch, pens: PenTable, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) -> Bool {
        var left = count
        var rounds = 0
        // the furthest cell written so far (its place in the scratch, which is in reading
        // order): writing one before it reorders
        var furthest = -1
        var reordered = false
        let mode = self.mode
        let done = pens.done
        while true {
            // Every cell the pen shows as it is, in order; writing them changes no colour, so
            // the pen is the same for the whole pass.
            let pen = state.pen
            let slotA = pens.find(pen.foreground, pen.background), slotB = pens.find(PenTable.anyForeground, pen.background)
            let a = pens.list(slotA), b = pens.list(slotB)
            // every cell on both lists is written by this pass: the lists keep only those not
            // written yet (a split cell is listed under both its pairs), which leave the count
            let countA = pens.take(a, slot: slotA, of: scratch), countB = pens.take(b, slot: slotB, of: scratch)
            pens.emptied(slotA)
            pens.emptied(slotB)
            left &-= countA &+ countB
            // merged into one list first, without branching on which list comes next (the two
            // interleave at random): an exhausted list reads as past every cell (the read
            // itself stays in the table's memory)
            // (most passes have cells on one list only: then it is the order)
            let total = countA &+ countB
            let order = countA == 0 ? b.start : countB == 0 ? a.start : pens.order
            if countA > 0 && countB > 0 {
                var ia = 0, ib = 0
                let endA = countA &- 1, endB = countB &- 1
                for k in 0..<total {
                    let loadA = a.start[min(ia, endA)], loadB = b.start[min(ib, endB)]
                    let va = ia < countA ? loadA : Int32.max
                    let vb = ib < countB ? loadB : Int32.max
                    let takeA = va < vb
                    order[k] = takeA ? va : vb
                    ia &+= takeA ? 1 : 0
                    ib &+= takeA ? 0 : 1
                }
            }
            // the scratch is in reading order, and so is the pass
            if total > 0 {
                if Int(order[0]) < furthest { reordered = true }
                furthest = max(furthest, Int(order[total &- 1]))
            }
            for k in 0..<total {
                let j = Int(order[k])
                let row = Int(scratch.rows[j]), column = Int(scratch.columns[j])
                let base = row &* columns
                let look = scratch.look(j)
                if state.row == row && state.column >= 0 && column &- state.column <= TerminalWriter.maxFill
                    && column > state.column && gapHoldsBlock(before: base &+ column, from: base &+ state.column) {
                    // a cell or two on, past a waiting cell of the pen's foreground: the move,
                    // or those cells written as `█` for good when that is shorter
                    let filled = moveOrFill(to: column, row: row, base: base, cell: j, scratch: scratch, pens: pens,
                                            old: old, new: new, cellLooks: &cellLooks, into: &out)
                    if filled > 0 {
                        left &-= filled
                        reordered = true
                    }
                    put(look, row: row, column: column, base: base, old: old, new: new,
                        cellLooks: &cellLooks, shown: true, into: &out)
                    continue
                }
                if state.row == row && look.scalar == 0 {
                    let gap = column &- state.column
                    if gap == 0 {
                        // the next cell along, a pixel cell: no move, no call
                        out.reserve(Escape.maxBytesPerCell)
                        waiting?[base &+ column] = 0
                        emitShownPixel(look, into: &out)
                        continue
                    }
                    if gap > 0 && gap < TerminalWriter.maxReprint && state.column >= 0
                        && blankGap(gap, before: base &+ column, background: state.pen.background) {
                        // a pixel cell a few cells on, past cells a space shows (or that may be
                        // written over): the spaces are shorter than any move but tabs, so
                        // `put` would write them too (or the tabs where they are shorter still)
                        out.reserve(Escape.maxBytesPerCell)
                        waiting?[base &+ column] = 0
                        if state.tabStops && gap > 1 {
                            _ = hopWithTabs(to: column, gap: gap, base: base, into: &out)
                        } else {
                            out.appendWord(0x2020_2020, length: gap)
                            state.column = column
                        }
                        emitShownPixel(look, into: &out)
                        continue
                    }
                    if gap >= TerminalWriter.maxReprint && state.column >= 0 {
                        // further on along the row: the relative step (never longer than
                        // another move), as `put` would choose: a reprint takes a byte a cell
                        // at least, and from four cells on that is no shorter than the step;
                        // or its tabs
                        out.reserve(Escape.maxBytesPerCell)
                        if !state.tabStops {
                            TerminalWriter.appendStep(gap, positive: 0x43, negative: 0x44, to: &out)
                            state.column = column
                        } else if !hopWithTabs(to: column, gap: gap, base: base, into: &out) {
                            put(look, row: row, column: column, base: base, old: old, new: new,
                                cellLooks: &cellLooks, shown: true, into: &out)
                            continue
                        }
                        waiting?[base &+ column] = 0
                        emitShownPixel(look, into: &out)
                        continue
                    }
                }
                put(look, row: row, column: column, base: base, old: old, new: new,
                    cellLooks: &cellLooks, shown: true, into: &out)
            }
            if left == 0 { return reordered }
            rounds += 1
            var next: (foreground: UInt32?, background: UInt32, served: Int) = (nil, 0, 0)
            if rounds <= TerminalWriter.maxColorRounds { next = pens.best(from: pen) }
            if next.served <= 1 {
                // No colours worth grouping by, or too many rounds: the rest in order.
                var first = true
                for j in 0..<count where done[j] == 0 {
                    let row = Int(scratch.rows[j]), column = Int(scratch.columns[j])
                    if first && j < furthest { reordered = true }
                    first = false
                    put(scratch.look(j), row: row, column: column, base: row &* columns, old: old, new: new,
                        cellLooks: &cellLooks, into: &out)
                }
                return reordered
            }
            out.reserve(Escape.maxBytesPerCell)
            state.pen.emitColors(foreground: next.foreground, background: next.background, mode: mode, into: &out)
        }
    }

    /// Gaps up to this many cells a pass may cross by writing the waiting cells of its
    /// foreground among them as `█` (``moveOrFill``). Measured on the coin bank's frames at
    /// 160x50: 2 writes 0.6 % fewer bytes with 10,000 coins and 1.6 % with 100,000; 1, 3 and
    /// 4 save less.
    static let maxFill = 2

    /// Whether a waiting cell that may be written over is one the pen shows as `█` and no
    /// pass in these colours lists: a pixel cell of one colour, the pen's foreground and not
    /// its background.
    @inline(__always) private func isBlock(_ look: TerminalCell, waiting w: UInt8) -> Bool {
        w == TerminalWriter.waitingOverwritable && look.scalar == 0 && look.first == look.second
            && look.first == state.pen.foreground && look.first != state.pen.background
    }

    /// Whether any cell from `start` up to `end` is a block (``isBlock``). Needs ``waiting``
    /// and ``screenLooks``.
    @inline(__always) private func gapHoldsBlock(before end: Int, from start: Int) -> Bool {
        guard let waiting, let screenLooks else { return false }
        for k in start..<end where isBlock(screenLooks[k], waiting: waiting[k]) { return true }
        return false
    }

    /// Gets along the row to `column`, a gap of up to ``maxFill`` cells on that holds a block
    /// (``gapHoldsBlock``), the shorter of two ways: the move ``gapCheckedMove`` writes, or a
    /// fill, which writes each block as `█` in the pen's foreground, for good, and reprints
    /// the other cells (a space over a cell still waiting). The blocks count as free: written
    /// now, they leave the pass of their colour, which would write a space and most often a
    /// move to each; so the fill is taken when its other cells take fewer bytes than the
    /// move. `j` is the cell's place in `scratch`; the blocks, before it in the row, are
    /// marked written in `pens`. Returns how many blocks it wrote (0 when it moved).
    private mutating func moveOrFill(
        to column: Int, row: Int, base: Int, cell j: Int, scratch: RowScratch, pens: PenTable,
        old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks,
        into out: inout ByteBuffer
    ) -> Int {
        guard let waiting, let screenLooks else { return 0 }
        let start = base &+ state.column, end = base &+ column, mark = out.count
        out.reserve(Escape.maxBytesPerCell)
        // the other cells' bytes, as a reprint writes them
        var other = 0
        for k in start..<end {
            let w = waiting[k], look = screenLooks[k]
            if isBlock(look, waiting: w) { continue }
            if w == TerminalWriter.waitingOverwritable {
                other &+= 1
                continue
            }
            guard w == 0, let s = look.scalarWithoutColorChange(state.pen), s < GlyphStore.firstNarrow else {
                other = Int.max
                break
            }
            other &+= TerminalCell.utf8Count(s)
        }
        gapCheckedMove(row: row, column: column, index: end, old: old, new: new, cellLooks: &cellLooks, into: &out)
        guard other < out.count &- mark else { return 0 }
        out.truncate(to: mark)
        var blocks = 0
        for k in start..<end {
            let w = waiting[k], look = screenLooks[k]
            if isBlock(look, waiting: w) {
                out.appendWord(0x88_96E2, length: 3)  // █, UTF-8 E2 96 88
                waiting[k] = 0
                // its place in the scratch: among the changed cells just before the cell's
                var place = j &- 1
                while Int(scratch.columns[place]) > k &- base { place &-= 1 }
                pens.wroteUniform(place, of: scratch)
                blocks &+= 1
            } else if w == TerminalWriter.waitingOverwritable {
                out.append(0x20)  // a space for now: the cell is written later
            } else {
                TerminalCell.appendUTF8(look.scalarWithoutColorChange(state.pen)!, to: &out)
            }
        }
        state.column = column
        return blocks
    }

    /// The fast path's way forward along the row to `column`, `gap` cells on, where the
    /// encoder set the tab stops, as ``gapCheckedMove`` would choose it; moves the cursor and
    /// returns true, or returns false having written nothing when a reprint of cells other
    /// than spaces may be shorter (then `put` decides). Below ``maxReprint`` cells the caller
    /// has found every cell of the gap takes a space; from there on it is the step, its tabs,
    /// or tabs to the last stop and spaces from there.
    @inline(__always) private mutating func hopWithTabs(to column: Int, gap: Int, base: Int, into out: inout ByteBuffer) -> Bool {
        let width = TerminalWriter.tabWidth
        guard gap < TabHops.gaps && (column | (width &- 1)) &+ 1 < columns else {
            return hopWithTabsWorkedOut(to: column, gap: gap, base: base, into: &out)
        }
        // read from the table
        let k = ((state.column & (width &- 1)) &* TabHops.gaps &+ gap) &* 3
        if gap < TerminalWriter.maxReprint {
            // the caller found every cell of the gap takes a space
            out.appendDoubleWord(hopWords[k &+ 2], length: Int(hopLengths[k &+ 2]))
        } else if hopLengths[k &+ 2] == hopLengths[k] {
            // the move: tabs and spaces are no shorter even over blanks
            out.appendDoubleWord(hopWords[k], length: Int(hopLengths[k]))
        } else if blankGap(column & (width &- 1), before: base &+ column, background: state.pen.background) {
            // tabs to the last stop, then spaces over the cells from there
            out.appendDoubleWord(hopWords[k &+ 2], length: Int(hopLengths[k &+ 2]))
        } else {
            return false
        }
        state.column = column
        return true
    }

    /// ``hopWithTabs(to:gap:base:into:)`` worked out, for a long gap or a cell in the row's
    /// last stop's width.
    @inline(never) private mutating func hopWithTabsWorkedOut(to column: Int, gap: Int, base: Int, into out: inout ByteBuffer) -> Bool {
        let way = along(from: state.column, to: column)
        let shift = TerminalWriter.tabShift
        let rest = column & (TerminalWriter.tabWidth &- 1), tabs = (column &>> shift) &- (state.column &>> shift)
        let tabsThenSpaces = tabs > 0 && rest > 0 ? TerminalWriter.tabCost(tabs) &+ rest : Int.max
        // below maxReprint cells the caller found the gap blank; further on, only tabs and
        // spaces need it to be
        switch TerminalWriter.blankHop(gap: gap, moveCost: way.cost, tabsThenSpacesCost: tabsThenSpaces) {
        case .spaces:
            out.appendWord(0x2020_2020, length: gap)
        case .move:
            TerminalWriter.appendAlong(tabs: way.tabs, rest: way.rest, to: &out)
        case .tabsThenSpaces:
            if gap >= TerminalWriter.maxReprint
                && !blankGap(rest, before: base &+ column, background: state.pen.background) { return false }
            TerminalWriter.appendAlong(tabs: tabs, rest: 0, to: &out)
            out.appendWord(0x2020_2020, length: rest)
        }
        state.column = column
        return true
    }

    /// Whether each of the `gap` cells before cell `index` is one a reprint writes as a space
    /// on `background` (the pen's): waiting and ``waitingOverwritable``, or not waiting and
    /// showing a cell of that one colour. Fewer than ``maxReprint`` such cells are shorter
    /// than any cursor move (``gapCheckedMove``). Needs ``waiting`` and ``screenLooks``.
    @inline(__always) private func blankGap(_ gap: Int, before index: Int, background: UInt32) -> Bool {
        guard let waiting, let screenLooks else { return false }
        for k in (index &- gap)..<index {
            let w = waiting[k]
            if w == TerminalWriter.waitingOverwritable { continue }
            let look = screenLooks[k]
            if w != 0 || look.scalar != 0 || look.first != background || look.second != background { return false }
        }
        return true
    }

    /// Writes the `count` changed cells of the frame (in `scratch`) in reading order, each
    /// with the colours it needs: what a plain encoder writes. Leaves `scratch` as it was.
    mutating func writeInOrder(
        count: Int, scratch: RowScratch, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        for j in 0..<count {
            let look = scratch.look(j)
            let row = Int(scratch.rows[j])
            put(look, row: row, column: Int(scratch.columns[j]), base: row &* columns, old: old, new: new,
                cellLooks: &cellLooks, shown: look.shows(with: state.pen), into: &out)
        }
    }

    /// A lower bound on the bytes ``writeInOrder`` would write for the `count` cells in
    /// `scratch` from this state, found without writing: each character, the colour changes
    /// it makes (exactly), and the least each gap between two cells of a row can take.
    /// Stops counting once the bound reaches `limit` (the bytes it is to be compared with).
    func inOrderLowerBound(count: Int, scratch: RowScratch, limit: Int = .max) -> Int {
        var pen = state.pen
        var bytes = 0
        var next = -1  // where the cursor is after the previous cell
        var lastRow = -1
        for j in 0..<count {
            if bytes >= limit { return bytes }
            let column = Int(scratch.columns[j]), row = Int(scratch.rows[j])
            if row != lastRow {
                next = -1
                lastRow = row
            }
            if next >= 0 && column > next {
                // a reprint (up to maxReprint cells) takes a byte a cell; a forward move at
                // least `ESC [ n C`
                let gap = column - next
                var least = gap <= TerminalWriter.maxReprint ? min(gap, TerminalWriter.stepCost(gap)) : TerminalWriter.stepCost(gap)
                if state.tabStops {
                    // or tabs: to a stop at or before the cell, the tabs at least; past it, one
                    // tab and a backspace at least
                    let tabs = (column &>> TerminalWriter.tabShift) &- (next &>> TerminalWriter.tabShift)
                    least = min(least, tabs > 0 ? TerminalWriter.tabCost(tabs) : 2)
                }
                bytes += least
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

    /// A lower bound on the bytes ``writeInOrder`` would write for the `count` cells in
    /// `scratch`, weaker than ``inOrderLowerBound(count:scratch:limit:)`` but found from each
    /// cell and the one before it alone, without following the pen: a byte per character,
    /// a byte into each row after the first, `min(gap, 3)` for a gap within a row (1 where the
    /// encoder set tab stops), and the colours a cell needs that the previous one cannot have
    /// left set (the pen after a glyph is its pair; after a split pixel cell its two colours,
    /// either way round; after a cell of one colour its background and a foreground not
    /// known), each with its parameters as written in truecolor and the 256 palette (after a
    /// cell of one colour, where either of two may be the unknown foreground, the dearer
    /// counts as set), the shortest they can be in other modes. Stops counting once the bound
    /// reaches `limit`, or early, with what it has counted, when it is not heading there (a
    /// `limit` of `.max` counts every cell).
    func inOrderQuickBound(count: Int, scratch: RowScratch, limit: Int) -> Int {
        guard count > 1 else { return 0 }
        // the shortest colour parameter: `38;2;r;g;b`, `38;5;n`; nothing assumed otherwise
        let minColor = Int32(mode == .trueColor ? 10 : mode == .palette256 ? 6 : 0)
        typealias V = SIMD8<UInt32>
        typealias I = SIMD8<Int32>
        let zero = I(repeating: 0), one = I(repeating: 1)
        let sgr = I(repeating: 2)
        let ten = V(repeating: 10), hundred = V(repeating: 100), byte = V(repeating: 0xFF)
        let trueColor = mode == .trueColor, palette = mode == .palette256
        /// A colour's parameters and a separator: `38;2;r;g;b` or `38;5;n` spelled out, the
        /// shortest otherwise.
        @inline(__always) func colorCost(_ keys: V) -> I {
            @inline(__always) func digits(_ v: V) -> I {
                one &+ zero.replacing(with: one, where: v .>= ten) &+ zero.replacing(with: one, where: v .>= hundred)
            }
            if trueColor {
                return I(repeating: 8) &+ digits((keys &>> 16) & byte) &+ digits((keys &>> 8) & byte) &+ digits(keys & byte)
            }
            if palette { return I(repeating: 6) &+ digits(keys & byte) }
            return I(repeating: 1 &+ minColor)
        }
        let wide = V(repeating: TerminalCell.wideFlag)
        // the least a gap within a row takes: a byte a cell up to 3 (a reprint, else a step),
        // or a single tab where the encoder set the stops
        let gapCap: Int32 = state.tabStops ? 1 : 3
        let gapCeiling = I(repeating: gapCap)
        @inline(__always) func load<T: SIMDScalar>(_ p: UnsafeMutablePointer<T>, _ i: Int) -> SIMD8<T> {
            UnsafeRawPointer(p + i).loadUnaligned(as: SIMD8<T>.self)
        }
        // a byte for the first character; each later cell is costed against the one before
        var bytes = 1
        var j = 1
        while j &+ 8 <= count {
            if bytes >= limit { return bytes }
            // Past the first quarter of the cells, a count heading for less than nine tenths
            // of `limit` gives up: the exact bound decides such a frame, and what was counted
            // is still a lower bound.
            if limit != .max && j &* 4 >= count && Double(bytes) * Double(count) * 10 < Double(limit) * Double(j) * 9 { return bytes }
            var lanes = zero
            let end = min(count &- 7, j &+ 64)
            while j < end {
                let cs = load(scratch.scalars, j), cf = load(scratch.firsts, j), cb = load(scratch.seconds, j)
                let ps = load(scratch.scalars, j &- 1), pf = load(scratch.firsts, j &- 1), pb = load(scratch.seconds, j &- 1)
                let cr = load(scratch.rows, j), pr = load(scratch.rows, j &- 1)
                let cc = load(scratch.columns, j), pc = load(scratch.columns, j &- 1)
                let prevPixel = ps .== V(repeating: 0), prevUniform = prevPixel .& (pf .== pb)
                let knownFg = .!prevUniform
                let inFg = (cf .== pf) .& knownFg, inBg = cf .== pb
                let bInFg = (cb .== pf) .& knownFg, bInBg = cb .== pb
                let curPixel = cs .== V(repeating: 0), curUniform = curPixel .& (cf .== cb)
                // what each of the cell's two colours costs where it must be set: its
                // parameters and a separator
                let costF = colorCost(cf), costB = colorCost(cb)
                // one colour: the background, which a split cell may have left either way
                let uniform = zero.replacing(with: costF, where: .!(inBg .| (prevPixel .& inFg)))
                // split colours either way round, or a glyph after a split cell; the unknown
                // foreground after a cell of one colour may hold one of them (the dearer)
                let splitF = zero.replacing(with: costF, where: .!(inFg .| inBg))
                let splitB = zero.replacing(with: costB, where: .!(bInFg .| bInBg))
                let split = splitF &+ splitB &- zero.replacing(with: pointwiseMax(splitF, splitB), where: prevUniform)
                // a glyph after a glyph or a cell of one colour: its pair exactly
                let glyph = zero.replacing(with: costF, where: .!(inFg .| prevUniform)) &+ zero.replacing(with: costB, where: .!bInBg)
                let n = glyph.replacing(with: split, where: curPixel .| (prevPixel .& knownFg))
                    .replacing(with: uniform, where: curUniform)
                lanes &+= one &+ zero.replacing(with: sgr &+ n, where: n .> zero)
                // a byte into a new row; within one, min(gap, 3) (1 with tabs)
                let gap = cc &- pc &- one &- zero.replacing(with: one, where: (ps & wide) .!= V(repeating: 0))
                let within = pointwiseMin(pointwiseMax(gap, zero), gapCeiling)
                lanes &+= within.replacing(with: one, where: cr .!= pr)
                j &+= 8
            }
            bytes &+= Int(lanes.wrappedSum())
        }
        var ps = scratch.scalars[j &- 1], pf = scratch.firsts[j &- 1], pb = scratch.seconds[j &- 1]
        var pr = scratch.rows[j &- 1], pc = scratch.columns[j &- 1]
        while j < count {
            let cs = scratch.scalars[j], cf = scratch.firsts[j], cb = scratch.seconds[j]
            let cr = scratch.rows[j], cc = scratch.columns[j]
            let prevPixel = ps == 0, prevUniform = prevPixel && pf == pb
            let inFg = cf == pf && !prevUniform, inBg = cf == pb
            let bInFg = cb == pf && !prevUniform, bInBg = cb == pb
            var n: Int32
            if cs == 0 && cf == cb {
                n = (inBg || (prevPixel && inFg)) ? 0 : 1
            } else if cs == 0 || prevPixel && !prevUniform {
                n = ((inFg || inBg) ? 0 : 1) &+ ((bInFg || bInBg) ? 0 : 1)
                if prevUniform && n > 0 { n &-= 1 }
            } else {
                n = (inFg || prevUniform ? 0 : 1) &+ (bInBg ? 0 : 1)
            }
            bytes &+= 1 &+ Int(n > 0 ? 2 &+ n &* (1 &+ minColor) : 0)
            if cr != pr {
                bytes &+= 1
            } else {
                let gap = Int(cc &- pc) &- (ps & TerminalCell.wideFlag != 0 ? 2 : 1)
                bytes &+= gap > 0 ? min(gap, Int(gapCap)) : 0
            }
            ps = cs
            pf = cf
            pb = cb
            pr = cr
            pc = cc
            j &+= 1
        }
        return bytes
    }

    /// The length of a colour's SGR parameters, for choosing colours: as
    /// ``colorBytes(_:)``, and 2 for a system colour (`3n`, `4n`).
    @inline(__always) static func sgrBytes(_ key: UInt32, mode: ColorMode) -> Int {
        switch mode {
        case .trueColor:
            return 7 + Escape.digits(Int((key >> 16) & 0xFF)) + Escape.digits(Int((key >> 8) & 0xFF))
                + Escape.digits(Int(key & 0xFF))
        case .palette256: return 5 + Escape.digits(Int(key))
        case .palette16, .palette8: return 2
        }
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
    @inline(__always) mutating func put(
        _ look: TerminalCell, row: Int, column: Int, base: Int, old: UnsafeBufferPointer<Cell>,
        new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks, shown: Bool = false, into out: inout ByteBuffer
    ) {
        out.reserve(Escape.maxBytesPerCell)
        if let waiting { waiting[base &+ column] = 0 }
        // Changed cells often follow each other: then the cursor is already there.
        if state.row != row || state.column != column {
            gapCheckedMove(row: row, column: column, index: base &+ column, old: old, new: new, cellLooks: &cellLooks,
                           into: &out)
        }
        if shown && look.scalar == 0 {
            emitShownPixel(look, into: &out)
        } else if shown, let scalar = look.scalarWithoutColorChange(state.pen) {
            emit(scalar, into: &out)
        } else {
            writeHere(look, into: &out)
        }
    }

    /// Writes a pixel cell the pen shows at the cursor: a space, `▀` or `▄` (UTF-8 E2 96 80
    /// or 84), chosen and written without branching, as the three mix at random. Room must
    /// have been reserved.
    @inline(__always) mutating func emitShownPixel(_ look: TerminalCell, into out: inout ByteBuffer) {
        let uniform = look.first == look.second, lower = state.pen.foreground != look.first
        let halfBlock: UInt32 = 0x80_96E2 | (lower ? 0x04_0000 : 0)
        out.appendWord(uniform ? 0x20 : halfBlock, length: uniform ? 1 : 3)
        advanceColumn(by: 1)
    }

    /// Colour changes per frame before the rest of the frame is written in order.
    static let maxColorRounds = 64
    /// Unwritten cells considered when choosing the next colours of a row.
    static let colorCandidates = 6
    /// Of the first few waiting cells, the one whose colours (as it would be spelled from
    /// the current pen) let the most waiting cells be written without another change, per
    /// colour sent; ties go to the leftmost. Returns its place in `scratch` and how many
    /// cells those colours serve, the chosen one included.
    ///
    /// Candidates that would leave the pen as an earlier one does are skipped: they serve
    /// the same cells at the same cost, and ties go to the earlier one anyway.
    func nextColorCell(_ scratch: RowScratch, count: Int) -> (cell: Int, served: Int) {
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

    /// Moves to `column` of the first row and sets a tab stop there (`ESC H`, `HTS`).
    mutating func setTabStop(column: Int, into out: inout ByteBuffer) {
        out.reserve(Escape.maxBytesPerCell)
        moveCursor(row: 0, column: column, into: &out)
        out.append(0x1B)
        out.append(0x48)  // H
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
    @inline(__always) mutating func advanceColumn(by cells: Int) {
        state.column += cells
        if state.column >= columns {
            if state.autowrapOff {
                // no wrap: the cursor stays in the last column
                state.column = columns &- 1
                return
            }
            // Terminals differ on where the cursor is after the last column (pending wrap or
            // already wrapped), so forget it; the next move is absolute.
            state.column = -1
            state.row = -1
        }
    }
}
