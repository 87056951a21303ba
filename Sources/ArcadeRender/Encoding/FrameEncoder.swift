import ArcadeCore

/// Turns frames into terminal bytes, writing only what changed since the previous frame.
///
/// The encoder remembers the last frame it encoded and the cursor position and colours it
/// left the terminal in; it assumes it is the only thing writing to the screen between
/// frames. After anything else writes (a resize, a shell-out, a cleared screen) call
/// ``requestFullRepaint()``: the next frame then rewrites every cell and assumes nothing.
///
/// Per changed cell it writes the cheapest cursor move (none when the cell follows the
/// previous one; otherwise the shortest of an absolute `CUP`, relative moves, a carriage
/// return, or reprinting a few unchanged cells the current colours can show), an SGR only
/// for colours that differ from the terminal's current ones, then the character. Within a
/// row, cells the current colours can show go first, so one colour change serves every cell
/// that needs it. A frame is wrapped in synchronized-output brackets (`CSI ? 2026 h` ... `l`);
/// an unchanged frame produces no bytes at all. Buffers are reused: steady-state encoding
/// does not allocate.
public final class FrameEncoder {
    // Stored properties marked `@exclusivity(unchecked)`: an encoder belongs to one thread and
    // its buffers are reached through one access at a time, once per cell of every frame, where
    // the runtime's dynamic exclusivity checks would cost more than the comparison itself.

    /// Truecolor or the 256-colour palette; changing it forces a full repaint.
    public var colorMode: ColorMode {
        didSet { if colorMode != oldValue { requestFullRepaint() } }
    }
    /// Wrap each frame in synchronized-output brackets. On by default; terminals that do not
    /// know the mode ignore it.
    public var synchronizedOutput = true

    @exclusivity(unchecked) private var columns = 0
    @exclusivity(unchecked) private var rows = 0
    /// The last encoded frame's cells: what the screen shows.
    @exclusivity(unchecked) private var screen: [Cell] = []
    /// Scratch for the row being written, one entry per column: the changed columns, how
    /// each will look, and the row writer's list of those not written yet.
    @exclusivity(unchecked) private var rowScratch = RowScratch(capacity: 0)
    @exclusivity(unchecked) private var fullRepaint = true
    /// Cursor and colours as the terminal has them after the last frame.
    @exclusivity(unchecked) private var terminal = TerminalState()
    @exclusivity(unchecked) private var looks = CellLooks(mode: .trueColor)
    /// Where a frame's bytes are written before they are handed over in one copy.
    @exclusivity(unchecked) private var output = ByteBuffer(capacity: 1 << 14)

    /// An encoder that has not written anything yet (its first frame is a full repaint).
    public init(colorMode: ColorMode = .trueColor) {
        self.colorMode = colorMode
    }

    deinit {
        output.deallocate()
        rowScratch.deallocate()
    }

    /// Makes the next frame rewrite every cell, assuming nothing about the screen, the cursor
    /// or the colours.
    public func requestFullRepaint() {
        fullRepaint = true
        terminal = TerminalState()
    }

    /// Encodes `frame` and returns the bytes (a fresh array; see ``encode(_:into:)`` to reuse one).
    public func encode(_ frame: Frame) -> [UInt8] {
        var out: [UInt8] = []
        encode(frame, into: &out)
        return out
    }

    /// Appends the bytes that turn the previous frame into `frame` to `out`. A size change
    /// repaints the whole frame. Pass the same array each frame (emptied with
    /// `removeAll(keepingCapacity: true)`) to avoid allocating.
    public func encode(_ frame: Frame, into out: inout [UInt8]) {
        let n = frame.columns * frame.rows
        if frame.columns != columns || frame.rows != rows {
            columns = frame.columns
            rows = frame.rows
            screen = frame.cells.map { $0 }  // a copy of our own, never shared with the caller
            rowScratch.deallocate()
            rowScratch = RowScratch(capacity: columns)
            requestFullRepaint()
        }
        guard n > 0 else { return }
        if looks.mode != colorMode { looks = CellLooks(mode: colorMode) }
        var buffer = output
        buffer.removeAll()
        defer { output = buffer }
        var writer = TerminalWriter(columns: columns, mode: colorMode, state: terminal)
        let repaintAll = fullRepaint
        let cols = columns
        let scratch = rowScratch
        frame.cells.withUnsafeBufferPointer { new in
            screen.withUnsafeMutableBufferPointer { old in
                if repaintAll {
                    for i in 0..<n { writer.write(looks.look(new[i]), at: i, into: &buffer) }
                    _ = old.update(fromContentsOf: new)
                    return
                }
                let newBase = new.baseAddress!, oldBase = old.baseAddress!
                for row in 0..<rows {
                    let base = row &* cols
                    let newRow = newBase + base, oldRow = oldBase + base
                    // Most rows of most frames are unchanged: find the first difference with
                    // a plain comparison before looking at anything.
                    var c = 0
                    while c < cols && Cell.sameBits(newRow[c], oldRow[c]) { c &+= 1 }
                    if c == cols { continue }
                    var count = 0
                    while c < cols {
                        if !Cell.sameBits(newRow[c], oldRow[c]) {
                            // Different cells may still look the same (a blank's unused
                            // foreground, two colours with one palette entry).
                            let look = looks.look(newRow[c])
                            if look != looks.look(oldRow[c]) {
                                scratch.set(count, column: Int32(truncatingIfNeeded: c), look: look)
                                count &+= 1
                            }
                        }
                        c &+= 1
                    }
                    if count > 0 {
                        writer.writeRow(base: base, count: count, scratch: scratch, old: UnsafeBufferPointer(old), new: new,
                                        cellLooks: &looks, into: &buffer)
                    }
                    oldRow.update(from: newRow, count: cols)
                }
            }
        }
        fullRepaint = false
        terminal = writer.state
        guard buffer.count > 0 else { return }
        let sync = synchronizedOutput
        out.reserveCapacity(out.count + buffer.count + (sync ? 16 : 0))
        if sync { for i in 0..<Escape.beginSynchronized.count { out.append(Escape.beginSynchronized[i]) } }
        out.append(contentsOf: buffer.bytes)
        if sync { for i in 0..<Escape.endSynchronized.count { out.append(Escape.endSynchronized[i]) } }
    }
}

/// The row writer's working memory, one entry per column, allocated once per frame size:
/// flat buffers the hot loops index without bounds checks or copy-on-write checks.
///
/// Holds the changed cells of the row being written that are not written yet, in column
/// order: their columns and, split into three arrays, how each will look (its
/// ``TerminalCell``), so counting the cells some colours can show is a loop over plain
/// words.
struct RowScratch {
    let columns: UnsafeMutablePointer<Int32>
    let scalars: UnsafeMutablePointer<UInt32>
    let firsts: UnsafeMutablePointer<UInt32>
    let seconds: UnsafeMutablePointer<UInt32>

    init(capacity: Int) {
        let n = max(capacity, 1)
        columns = .allocate(capacity: n)
        scalars = .allocate(capacity: n)
        firsts = .allocate(capacity: n)
        seconds = .allocate(capacity: n)
    }

    func deallocate() {
        columns.deallocate()
        scalars.deallocate()
        firsts.deallocate()
        seconds.deallocate()
    }

    @inline(__always) func look(_ i: Int) -> TerminalCell {
        TerminalCell(scalar: scalars[i], first: firsts[i], second: seconds[i])
    }

    @inline(__always) func set(_ i: Int, column: Int32, look: TerminalCell) {
        columns[i] = column
        scalars[i] = look.scalar
        firsts[i] = look.first
        seconds[i] = look.second
    }

    /// Entry `from` copied to `to`.
    @inline(__always) func move(_ from: Int, to: Int) {
        columns[to] = columns[from]
        scalars[to] = scalars[from]
        firsts[to] = firsts[from]
        seconds[to] = seconds[from]
    }

    /// How many of the first `count` entries `pen` shows without a colour change: the
    /// count of ``TerminalCell/shows(with:)``, eight cells at a time.
    @inline(__always) func countShown(_ count: Int, with pen: PenState) -> Int {
        let fg = pen.foreground, bg = pen.background
        let vfg = SIMD8<UInt32>(repeating: fg), vbg = SIMD8<UInt32>(repeating: bg)
        let zero = SIMD8<UInt32>(repeating: 0), one = SIMD8<UInt32>(repeating: 1)
        var lanes = zero
        var i = 0
        while i &+ 8 <= count {
            let f = UnsafeRawPointer(firsts + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let s = UnsafeRawPointer(seconds + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let c = UnsafeRawPointer(scalars + i).loadUnaligned(as: SIMD8<UInt32>.self)
            let straight = (f .== vfg) .& (s .== vbg)
            let swapped = (f .== vbg) .& ((s .== vfg) .| (f .== s))
            lanes &+= zero.replacing(with: one, where: straight .| ((c .== zero) .& swapped))
            i &+= 8
        }
        var n = Int(lanes.wrappedSum())
        while i < count {
            if TerminalCell(scalar: scalars[i], first: firsts[i], second: seconds[i]).shows(with: pen) { n &+= 1 }
            i &+= 1
        }
        return n
    }
}

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

    /// Gaps up to this many unchanged cells may be reprinted instead of moving the cursor.
    static let maxReprint = 4

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
    mutating func writeRow(
        base: Int, count: Int, scratch: RowScratch, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        let row = base / self.columns
        var remaining = count
        var rounds = 0
        var futile = 0
        while true {
            // Every cell the pen shows as it is, in order; writing them changes no colour, so
            // the pen is the same for the whole pass.
            let pen = state.pen
            var kept = 0
            for j in 0..<remaining {
                let look = scratch.look(j)
                if look.shows(with: pen) {
                    put(look, row: row, column: Int(scratch.columns[j]), base: base, old: old, new: new,
                        cellLooks: &cellLooks, shown: true, into: &out)
                } else {
                    if kept != j { scratch.move(j, to: kept) }
                    kept &+= 1
                }
            }
            remaining = kept
            if remaining == 0 { return }
            rounds += 1
            let (pick, served) = rounds > TerminalWriter.maxColorRounds
                ? (-1, 0) : nextColorCell(scratch, count: remaining)
            futile = served <= 1 ? futile + 1 : 0
            if futile >= 2 || pick < 0 {
                // Twice no colours worth grouping by, or too many rounds: the rest in order.
                for j in 0..<remaining {
                    put(scratch.look(j), row: row, column: Int(scratch.columns[j]), base: base, old: old, new: new,
                        cellLooks: &cellLooks, into: &out)
                }
                return
            }
            put(scratch.look(pick), row: row, column: Int(scratch.columns[pick]), base: base, old: old, new: new,
                cellLooks: &cellLooks, into: &out)
            remaining -= 1
            var j = pick
            while j < remaining {
                scratch.move(j &+ 1, to: j)
                j &+= 1
            }
        }
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
            TerminalCell.appendUTF8(scalar, to: &out)
            advanceColumn()
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

    /// Moves to cell `index` (`column` of `row`), considering a reprint of the unchanged
    /// cells in between. Room for the cell must have been reserved.
    private mutating func gapCheckedMove(
        row: Int, column: Int, index: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        if state.row == row && state.column >= 0 && column > state.column {
            // Forward along the row (most moves): `ESC [ n C` is never longer than the other
            // moves and comes first among equals, so only a reprint can beat it.
            let gap = column - state.column
            if gap <= TerminalWriter.maxReprint,
               let cost = reprintCost(gap: gap, index: index, old: old, new: new, cellLooks: &cellLooks),
               cost < TerminalWriter.stepCost(gap) {
                reprint(gap: gap, index: index, new: new, cellLooks: &cellLooks, into: &out)
                state.column = column
                return
            }
            TerminalWriter.appendStep(gap, positive: 0x43, negative: 0x44, to: &out)
            state.column = column
            return
        }
        var reprint: (cost: Int, count: Int)? = nil
        if state.row == row && state.column >= 0 {
            let gap = column - state.column
            if gap > 0 && gap <= TerminalWriter.maxReprint {
                var cost = 0
                let from = index - gap
                for k in from..<index {
                    let cell = new[k]
                    let look = cellLooks.look(cell)
                    guard Cell.sameBits(cell, old[k]) || look == cellLooks.look(old[k]),
                          let s = look.scalarWithoutColorChange(state.pen) else {
                        cost = -1
                        break
                    }
                    cost += TerminalCell.utf8Count(s)
                }
                if cost >= 0 { reprint = (cost, gap) }
            }
        }
        let (move, cost) = bestMove(row: row, column: column)
        if let reprint, reprint.cost < cost {
            for k in (index - reprint.count)..<index {
                TerminalCell.appendUTF8(cellLooks.look(new[k]).scalarWithoutColorChange(state.pen) ?? 0x20, to: &out)
            }
            state.column = column
            return
        }
        perform(move, row: row, column: column, into: &out)
    }

    /// Bytes to reprint the `gap` cells before cell `index` in the current colours, or nil
    /// when one of them changed or needs other colours.
    @inline(__always) private func reprintCost(
        gap: Int, index: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks
    ) -> Int? {
        var cost = 0
        for k in (index - gap)..<index {
            let cell = new[k]
            let look = cellLooks.look(cell)
            guard Cell.sameBits(cell, old[k]) || look == cellLooks.look(old[k]),
                  let s = look.scalarWithoutColorChange(state.pen) else { return nil }
            cost += TerminalCell.utf8Count(s)
        }
        return cost
    }

    /// Writes the `gap` unchanged cells before cell `index` again, in the current colours.
    private func reprint(gap: Int, index: Int, new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks,
                         into out: inout ByteBuffer) {
        for k in (index - gap)..<index {
            TerminalCell.appendUTF8(cellLooks.look(new[k]).scalarWithoutColorChange(state.pen) ?? 0x20, to: &out)
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
        TerminalCell.appendUTF8(spelled.scalar, to: &out)
        advanceColumn()
    }

    /// The cursor after a character.
    @inline(__always) private mutating func advanceColumn() {
        state.column += 1
        if state.column >= columns {
            // Terminals differ on where the cursor is after the last column (pending wrap or
            // already wrapped), so forget it; the next move is absolute.
            state.column = -1
            state.row = -1
        }
    }

    /// The ways to get from the cursor to a cell.
    private enum Move {
        case stay
        case absolute
        /// Optional carriage return (+ line feed), then relative vertical and horizontal steps.
        case relative(carriageReturn: Bool, lineFeed: Bool, vertical: Int, horizontal: Int)
        /// Column absolute (`CHA`) after a vertical step.
        case columnAbsolute(vertical: Int)
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
            let vertical = TerminalWriter.stepCost(dv)
            if state.column >= 0 {
                let dh = column - state.column
                consider(.relative(carriageReturn: false, lineFeed: false, vertical: dv, horizontal: dh),
                         vertical + TerminalWriter.stepCost(dh))
            }
            consider(.relative(carriageReturn: true, lineFeed: false, vertical: dv, horizontal: column),
                     1 + vertical + TerminalWriter.stepCost(column))
            if dv == 1 {
                consider(.relative(carriageReturn: true, lineFeed: true, vertical: 0, horizontal: column),
                         2 + TerminalWriter.stepCost(column))
            }
            consider(.columnAbsolute(vertical: dv), vertical + 3 + (column == 0 ? 0 : Escape.digits(column + 1)))
        }
        return (best, bestCost)
    }

    @inline(__always)
    private mutating func moveCursor(row: Int, column: Int, into out: inout ByteBuffer) {
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
        case .relative(let cr, let lf, let dv, let dh):
            if cr { out.append(0x0D) }
            if lf { out.append(0x0A) }
            TerminalWriter.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)  // B down, A up
            TerminalWriter.appendStep(dh, positive: 0x43, negative: 0x44, to: &out)  // C right, D left
        case .columnAbsolute(let dv):
            TerminalWriter.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)
            out.append(0x1B)
            out.append(0x5B)
            if column != 0 { Escape.appendDecimal(column + 1, to: &out) }
            out.append(0x47)  // G
        }
        state.row = row
        state.column = column
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
        out.append(0x1B)
        out.append(0x5B)
        if abs(n) != 1 { Escape.appendDecimal(abs(n), to: &out) }
        out.append(n > 0 ? positive : negative)
    }
}
