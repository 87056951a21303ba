import ArcadeCore
@testable import ArcadeRender

// The frame encoder written the straightforward way: the same choices as the fast one, kept
// as the reference it must match byte for byte (see ``EncoderEquivalenceTests``). The changed
// cells of the whole frame are grouped by colour (the colours chosen from counts of every
// pair that shows a waiting cell), then the frame is also written in reading order and the
// shorter kept. Not used outside the tests.

final class ReferenceFrameEncoder {
    // Stored properties marked `@exclusivity(unchecked)`: an encoder belongs to one thread and
    // its buffers are reached through one access at a time, once per cell of every frame, where
    // the runtime's dynamic exclusivity checks would cost more than the comparison itself.

    /// Truecolor or the 256-colour palette; changing it forces a full repaint.
    var colorMode: ColorMode {
        didSet { if colorMode != oldValue { requestFullRepaint() } }
    }
    /// Wrap each frame in synchronized-output brackets. On by default; terminals that do not
    /// know the mode ignore it.
    var synchronizedOutput = true
    /// Tab stops set by each full repaint and horizontal tabs along rows, as the fast encoder.
    var usesTabs = true {
        didSet { if usesTabs != oldValue { requestFullRepaint() } }
    }
    /// Autowrap turned off by each full repaint, as the fast encoder.
    var turnsOffAutowrap = true {
        didSet { if turnsOffAutowrap != oldValue { requestFullRepaint() } }
    }

    @exclusivity(unchecked) private var columns = 0
    @exclusivity(unchecked) private var rows = 0
    /// The last encoded frame's cells: what the screen shows.
    @exclusivity(unchecked) private var screen: [Cell] = []
    /// Changed cells of the frame (their indices), and how each will look.
    @exclusivity(unchecked) private var pending: [Int] = []
    @exclusivity(unchecked) private var pendingLooks: [TerminalCell] = []
    @exclusivity(unchecked) private var fullRepaint = true
    /// Cursor and colours as the terminal has them after the last frame.
    @exclusivity(unchecked) private var terminal = TerminalState()
    @exclusivity(unchecked) private var looks = CellLooks(mode: .trueColor)
    /// Where a frame's bytes are written before they are handed over in one copy.
    @exclusivity(unchecked) private var output = ByteBuffer(capacity: 1 << 14)

    /// An encoder that has not written anything yet (its first frame is a full repaint).
    init(colorMode: ColorMode = .trueColor) {
        self.colorMode = colorMode
    }

    deinit {
        output.deallocate()
    }

    /// Makes the next frame rewrite every cell, assuming nothing about the screen, the cursor
    /// or the colours.
    func requestFullRepaint() {
        fullRepaint = true
        terminal = TerminalState()
    }

    /// Encodes `frame` and returns the bytes (a fresh array; see ``encode(_:into:)`` to reuse one).
    func encode(_ frame: Frame) -> [UInt8] {
        var out: [UInt8] = []
        encode(frame, into: &out)
        return out
    }

    /// Appends the bytes that turn the previous frame into `frame` to `out`. A size change
    /// repaints the whole frame. Pass the same array each frame (emptied with
    /// `removeAll(keepingCapacity: true)`) to avoid allocating.
    func encode(_ frame: Frame, into out: inout [UInt8]) {
        let n = frame.columns * frame.rows
        if frame.columns != columns || frame.rows != rows {
            columns = frame.columns
            rows = frame.rows
            screen = frame.cells.map { $0 }  // a copy of our own, never shared with the caller
            pending = []
            pendingLooks = []
            requestFullRepaint()
        }
        guard n > 0 else { return }
        if looks.mode != colorMode { looks = CellLooks(mode: colorMode) }
        var buffer = output
        buffer.removeAll()
        defer { output = buffer }
        var writer = ReferenceTerminalWriter(columns: columns, mode: colorMode, state: terminal)
        let repaintAll = fullRepaint
        let cols = columns
        frame.cells.withUnsafeBufferPointer { new in
            screen.withUnsafeMutableBufferPointer { old in
                if repaintAll {
                    // every tab stop cleared, then one every 4 columns of the first row
                    let setsTabs = usesTabs && cols > 4
                    if turnsOffAutowrap {
                        for b in Array("\u{1B}[?7l".utf8) { buffer.append(b) }
                        writer.state.autowrapOff = true
                    }
                    if setsTabs { for b in Array("\u{1B}[3g".utf8) { buffer.append(b) } }
                    for i in 0..<n {
                        if setsTabs && i < cols && i > 0 && i % 4 == 0 {
                            writer.moveCursor(row: 0, column: i, into: &buffer)
                            buffer.append(0x1B); buffer.append(0x48)
                        }
                        writer.write(looks.look(new[i]), at: i, into: &buffer)
                    }
                    writer.state.tabStops = setsTabs
                    _ = old.update(fromContentsOf: new)
                    return
                }
                pending.removeAll(keepingCapacity: true)
                pendingLooks.removeAll(keepingCapacity: true)
                // cells that may be written over while they wait: narrow before and after
                var overwritable = Set<Int>()
                for i in 0..<n where new[i] != old[i] {
                    // Different cells may still look the same (a blank's unused foreground,
                    // two colours with one palette entry).
                    let look = looks.look(new[i]), was = looks.look(old[i])
                    if look != was {
                        pending.append(i)
                        pendingLooks.append(look)
                        if look.scalar < GlyphStore.firstNarrow && was.scalar < GlyphStore.firstNarrow { overwritable.insert(i) }
                    }
                }
                var pairs = Set<UInt64>()
                for look in pendingLooks { for p in ReferenceTerminalWriter.pairs(look) { pairs.insert(p) } }
                if pairs.count > 128 {
                    // too many pairs of colours: row by row, each grouped by colour and left
                    // to right from the same state, the shorter kept (grouped on a tie)
                    var k = 0
                    while k < pending.count {
                        var end = k + 1
                        while end < pending.count && pending[end] / cols == pending[k] / cols { end += 1 }
                        let changed = Array(pending[k..<end]), rowLooks = Array(pendingLooks[k..<end])
                        let start = buffer.count, before = writer.state
                        writer.writeRow(changed: changed, looks: rowLooks, old: UnsafeBufferPointer(old), new: new,
                                        cellLooks: &looks, into: &buffer)
                        keepShorterInOrder(changed, rowLooks, since: start, from: before, writer: &writer,
                                           old: UnsafeBufferPointer(old), new: new, into: &buffer)
                        k = end
                    }
                } else if !pending.isEmpty {
                    // grouped by colour, and in reading order from the same state: the
                    // shorter is kept (grouped on a tie)
                    let start = buffer.count, before = writer.state
                    writer.writeFrame(changed: pending, looks: pendingLooks, overwritable: overwritable,
                                      old: UnsafeBufferPointer(old), new: new, cellLooks: &looks, into: &buffer)
                    keepShorterInOrder(pending, pendingLooks, since: start, from: before, writer: &writer,
                                       old: UnsafeBufferPointer(old), new: new, into: &buffer)
                }
                for i in 0..<n { old[i] = new[i] }
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

extension ReferenceFrameEncoder {
    /// Writes `changed` (with `looks`) in reading order from the state `before`, and keeps that
    /// instead of what `buffer` got since `start` when it is shorter.
    private func keepShorterInOrder(
        _ changed: [Int], _ looks: [TerminalCell], since start: Int, from before: TerminalState,
        writer: inout ReferenceTerminalWriter, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        into buffer: inout ByteBuffer
    ) {
        var plain = ReferenceTerminalWriter(columns: writer.columns, mode: writer.mode, state: before)
        var side = ByteBuffer(capacity: 256)
        defer { side.deallocate() }
        var cellLooks = CellLooks(mode: writer.mode)
        for k in 0..<changed.count {
            plain.gapCheckedMove(to: changed[k], old: old, new: new, cellLooks: &cellLooks, into: &side)
            plain.write(looks[k], at: changed[k], into: &side)
        }
        if side.count < buffer.count - start {
            buffer.truncate(to: start)
            buffer.append(contentsOf: side.bytes)
            writer.state = plain.state
        }
    }
}

/// Writes cells to the terminal with the cheapest moves and colour changes, tracking the
/// cursor and colours as it goes. A value used for one frame, so its hot state lives in
/// registers rather than in the encoder object.
struct ReferenceTerminalWriter {
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

    /// Cells of the frame still to be written that may be written over meanwhile (a space).
    var waiting = Set<Int>()
    /// While a frame is grouped by colour: every cell still to be written. A gap may then
    /// reprint any other cell (unchanged, or written already); otherwise only unchanged ones.
    var unwritten: Set<Int>? = nil

    /// Writes the changed cells of the frame (`changed` holds their indices, ascending, and
    /// `looks` how each will look), grouped by colour: every cell the current colours can
    /// show, in reading order; then, of the pairs of colours that show at least two waiting
    /// cells, the one that shows the most (among equals the shortest change, then the pair
    /// first seen); and again. When no pair shows two, or after 64 rounds, the rest in
    /// reading order.
    mutating func writeFrame(
        changed: [Int], looks: [TerminalCell], overwritable: Set<Int>, old: UnsafeBufferPointer<Cell>,
        new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        let any = ReferenceTerminalWriter.any
        let pairs = ReferenceTerminalWriter.pairs
        var order: [UInt64] = []
        var seen = Set<UInt64>()
        for look in looks {
            for p in pairs(look) where !seen.contains(p) {
                seen.insert(p)
                order.append(p)
            }
        }
        var written = Array(repeating: false, count: changed.count)
        waiting = overwritable
        unwritten = Set(changed)
        defer {
            waiting = []
            unwritten = nil
        }
        func put(_ k: Int, inPass: Bool = false) {
            if inPass {
                for cell in fillGap(before: changed[k], old: old, new: new, cellLooks: &cellLooks, into: &out) {
                    written[changed.firstIndex(of: cell)!] = true
                }
            }
            gapCheckedMove(to: changed[k], old: old, new: new, cellLooks: &cellLooks, into: &out)
            write(looks[k], at: changed[k], into: &out)
            written[k] = true
            waiting.remove(changed[k])
            unwritten?.remove(changed[k])
        }
        var rounds = 0
        while true {
            for k in 0..<changed.count where !written[k] && looks[k].scalarWithoutColorChange(state.pen) != nil {
                put(k, inPass: true)
            }
            if !written.contains(false) { return }
            rounds += 1
            var next: (fg: UInt32?, bg: UInt32, served: Int) = (nil, 0, 0)
            if rounds <= 64 {
                var counts: [UInt64: Int] = [:]
                for k in 0..<changed.count where !written[k] {
                    for p in pairs(looks[k]) { counts[p, default: 0] += 1 }
                }
                var bestCost = Int.max, bestScore = Int.min
                for p in order {
                    let own = counts[p] ?? 0
                    if own <= 0 { continue }
                    let fg = UInt32(truncatingIfNeeded: p >> 32), bg = UInt32(truncatingIfNeeded: p)
                    let setBg = bg != state.pen.background
                    var served = own, bytes = 0
                    if fg == any {
                        bytes = setBg ? 3 + colorLength(bg) : 0
                    } else {
                        served += counts[UInt64(any) << 32 | UInt64(bg)] ?? 0
                        let setFg = fg != state.pen.foreground
                        if setFg || setBg {
                            bytes = 3 + (setFg && setBg ? 1 : 0) + (setFg ? colorLength(fg) : 0) + (setBg ? colorLength(bg) : 0)
                        }
                    }
                    // only pairs that show at least two cells are worth a change
                    if served <= 1 { continue }
                    // two points a cell shown, less one a byte of the change
                    let score = served * 2 - bytes
                    if score > bestScore || (score == bestScore && bytes < bestCost) {
                        next = (fg == any ? nil : fg, bg, served)
                        bestCost = bytes
                        bestScore = score
                    }
                }
            }
            if next.served <= 1 {
                for k in 0..<changed.count where !written[k] { put(k) }
                return
            }
            out.reserve(Escape.maxBytesPerCell)
            state.pen.emitColors(foreground: next.fg, background: next.bg, mode: mode, into: &out)
        }
    }

    /// In a pass, before moving along the row to cell `index` a cell or two on: when those
    /// cells include one still waiting (and that may be written over) of one colour, the
    /// pen's foreground and not its background, and the cells besides such ones reprint in
    /// fewer bytes than the move takes, they are written instead: those of the foreground
    /// as `█`, for good, the others reprinted. Returns the cells written as `█`.
    private mutating func fillGap(
        before index: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks,
        into out: inout ByteBuffer
    ) -> [Int] {
        let row = index / columns, column = index - row * columns
        guard state.row == row, state.column >= 0, column > state.column, column - state.column <= 2 else { return [] }
        let from = index - (column - state.column)
        var blocks: [Int] = []
        for k in from..<index where waiting.contains(k) {
            let look = cellLooks.look(new[k])
            if look.scalar == 0 && look.first == look.second && look.first == state.pen.foreground
                && look.first != state.pen.background { blocks.append(k) }
        }
        guard !blocks.isEmpty else { return [] }
        var other = 0
        for k in from..<index where !blocks.contains(k) {
            guard let cost = reprintCost(from: k, to: k + 1, old: old, new: new, cellLooks: &cellLooks) else { return [] }
            other += cost
        }
        var trial = self
        var move = ByteBuffer(capacity: 64)
        defer { move.deallocate() }
        trial.gapCheckedMove(to: index, old: old, new: new, cellLooks: &cellLooks, into: &move)
        guard other < move.count else { return [] }
        out.reserve(16)
        for k in from..<index {
            if blocks.contains(k) {
                TerminalCell.appendUTF8(0x2588, to: &out)
                waiting.remove(k)
                unwritten?.remove(k)
            } else {
                writeReprint(from: k, to: k + 1, new: new, cellLooks: &cellLooks, into: &out)
            }
        }
        state.column = column
        return blocks
    }

    /// The length of a colour's SGR parameters.
    private func colorLength(_ key: UInt32) -> Int {
        var b = ByteBuffer(capacity: 64)
        defer { b.deallocate() }
        Escape.appendColor(key, selector: 38, mode: mode, to: &b)
        return b.count
    }

    static let any = UInt32(0xFFFF_FFFE)

    /// The pairs of colours (foreground and background) that show a cell: its own, both ways
    /// round for a split pixel cell, any foreground (``any``) over the colour of a uniform one.
    static func pairs(_ look: TerminalCell) -> [UInt64] {
        func key(_ fg: UInt32, _ bg: UInt32) -> UInt64 { UInt64(fg) << 32 | UInt64(bg) }
        if look.scalar != 0 { return [key(look.first, look.second)] }
        if look.first == look.second { return [key(any, look.first)] }
        return [key(look.first, look.second), key(look.second, look.first)]
    }

    /// Writes the changed cells of one row (`changed` holds their indices, ascending, and
    /// `looks` how each will look), grouped by colour: every cell the current colours can
    /// show, left to right; then new colours, chosen among a few candidates for how many of
    /// the remaining cells they can show per colour sent; and again. When twice running no
    /// colours would serve more than one cell, or after 8 rounds, the rest go left to right.
    mutating func writeRow(
        changed: [Int], looks: [TerminalCell], old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>,
        cellLooks: inout CellLooks, into out: inout ByteBuffer
    ) {
        var written = Array(repeating: false, count: changed.count)
        func put(_ k: Int) {
            gapCheckedMove(to: changed[k], old: old, new: new, cellLooks: &cellLooks, into: &out)
            write(looks[k], at: changed[k], into: &out)
            written[k] = true
        }
        var remaining = changed.count
        var rounds = 0
        var futile = 0
        while remaining > 0 {
            for k in 0..<changed.count where !written[k] && looks[k].scalarWithoutColorChange(state.pen) != nil {
                put(k)
                remaining -= 1
            }
            if remaining == 0 { break }
            rounds += 1
            let (k, served) = rounds > 8 ? (-1, 0) : nextColorCell(changed: changed, looks: looks, written: written)
            futile = served <= 1 ? futile + 1 : 0
            if futile >= 2 || k < 0 {
                // Twice no colours worth grouping by, or too many rounds: the rest in order.
                for k in 0..<changed.count where !written[k] { put(k) }
                break
            }
            put(k)
            remaining -= 1
        }
    }

    /// Unwritten cells of a row considered when choosing its next colours.
    static let colorCandidates = 6

    /// Of the first few unwritten cells, the one whose colours (as it would be spelled from
    /// the current pen) let the most unwritten cells be written without another change, per
    /// colour sent; ties go to the first. Also returns how many cells those colours serve,
    /// the chosen one included.
    private func nextColorCell(changed: [Int], looks: [TerminalCell], written: [Bool]) -> (cell: Int, served: Int) {
        var best = -1
        var bestServed = 0
        var bestScore = -1
        var considered = 0
        for k in 0..<changed.count where !written[k] {
            considered += 1
            if considered > ReferenceTerminalWriter.colorCandidates { break }
            var pen = state.pen
            let spelled = looks[k].spelling(for: pen)
            var changes = 0
            if let fg = spelled.foreground, fg != pen.foreground {
                pen.foreground = fg
                changes += 1
            }
            if let bg = spelled.background, bg != pen.background {
                pen.background = bg
                changes += 1
            }
            var served = 0
            for j in 0..<changed.count where !written[j] && looks[j].scalarWithoutColorChange(pen) != nil {
                served += 1
            }
            // Cells served per colour sent: changing both colours costs twice one.
            let score = served * 2 / max(1, changes)
            if score > bestScore {
                best = k
                bestScore = score
                bestServed = served
            }
        }
        return (best, bestServed)
    }

    /// Moves to cell `index`, considering a reprint of the unchanged cells in between.
    @inline(__always) mutating func gapCheckedMove(
        to index: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks,
        into out: inout ByteBuffer
    ) {
        out.reserve(Escape.maxBytesPerCell)
        let row = index / columns
        let column = index - row * columns
        var reprint: (cost: Int, count: Int)? = nil
        if state.row == row && state.column >= 0 {
            let gap = column - state.column
            if gap > 0 && gap <= ReferenceTerminalWriter.maxReprint,
               let cost = reprintCost(from: index - gap, to: index, old: old, new: new, cellLooks: &cellLooks) {
                reprint = (cost, gap)
            }
        }
        if state.tabStops && state.row == row && state.column >= 0 && column > state.column {
            // Along the row with tabs: every way, the first of the shortest taken.
            let from = state.column, gap = column - from
            enum Way { case step, reprint, tabs(Int, Int), tabsAndReprint(Int, Int) }
            var ways: [(Way, Int)] = [(.step, ReferenceTerminalWriter.stepCost(gap))]
            if let reprint { ways.append((.reprint, reprint.cost)) }
            for (tabs, rest, cost) in tabWays(from: from, to: column) { ways.append((.tabs(tabs, rest), cost)) }
            let stop = column / 4 * 4
            if stop > from && stop < column, let cost = reprintCost(from: index - (column - stop), to: index, old: old, new: new,
                                                                     cellLooks: &cellLooks) {
                ways.append((.tabsAndReprint(stop / 4 - from / 4, column - stop), ReferenceTerminalWriter.tabCost(stop / 4 - from / 4) + cost))
            }
            var best = ways[0]
            for way in ways.dropFirst() where way.1 < best.1 { best = way }
            switch best.0 {
            case .step: ReferenceTerminalWriter.appendStep(gap, positive: 0x43, negative: 0x44, to: &out)
            case .reprint: writeReprint(from: index - gap, to: index, new: new, cellLooks: &cellLooks, into: &out)
            case .tabs(let tabs, let rest): ReferenceTerminalWriter.appendTabs(tabs, rest: rest, to: &out)
            case .tabsAndReprint(let tabs, let rest):
                ReferenceTerminalWriter.appendTabs(tabs, rest: 0, to: &out)
                writeReprint(from: index - rest, to: index, new: new, cellLooks: &cellLooks, into: &out)
            }
            state.column = column
            return
        }
        let (move, cost) = bestMove(row: row, column: column)
        if let reprint, reprint.cost < cost {
            writeReprint(from: index - reprint.count, to: index, new: new, cellLooks: &cellLooks, into: &out)
            state.column = column
            return
        }
        perform(move, row: row, column: column, into: &out)
    }

    /// The bytes reprinting cells `from..<to` takes in the current colours, or nil.
    private func reprintCost(
        from: Int, to: Int, old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks
    ) -> Int? {
        var cost = 0
        for k in from..<to {
            if waiting.contains(k) {
                cost += 1
                continue
            }
            let look = cellLooks.look(new[k])
            let shown = unwritten.map { !$0.contains(k) } ?? (look == cellLooks.look(old[k]))
            guard shown, let s = look.scalarWithoutColorChange(state.pen), s < GlyphStore.firstNarrow else { return nil }
            cost += TerminalCell.utf8Count(s)
        }
        return cost
    }

    private func writeReprint(from: Int, to: Int, new: UnsafeBufferPointer<Cell>, cellLooks: inout CellLooks,
                              into out: inout ByteBuffer) {
        for k in from..<to {
            if waiting.contains(k) {
                out.append(0x20)
                continue
            }
            TerminalCell.appendUTF8(cellLooks.look(new[k]).scalarWithoutColorChange(state.pen) ?? 0x20, to: &out)
        }
    }

    /// The ways right along a row by tabs (stops every 4 columns inside the row): to the stop
    /// at or before `to` and a step on, and to the stop after it and backspaces, with their
    /// lengths.
    private func tabWays(from: Int, to: Int) -> [(tabs: Int, rest: Int, cost: Int)] {
        var ways: [(tabs: Int, rest: Int, cost: Int)] = []
        let below = to / 4 * 4
        if below > from {
            let tabs = below / 4 - from / 4
            ways.append((tabs, to - below, ReferenceTerminalWriter.tabCost(tabs) + ReferenceTerminalWriter.stepCost(to - below)))
        }
        let above = below + 4
        if to > below && above < columns {
            let tabs = above / 4 - from / 4
            ways.append((tabs, to - above, ReferenceTerminalWriter.tabCost(tabs) + (above - to)))
        }
        return ways
    }

    /// The cheapest way right along a row, `ESC [ n C` first among equals.
    private func horizontal(from: Int, to: Int) -> (tabs: Int, rest: Int, cost: Int) {
        var best = (tabs: 0, rest: to - from, cost: ReferenceTerminalWriter.stepCost(to - from))
        if state.tabStops && to > from {
            for way in tabWays(from: from, to: to) where way.cost < best.cost { best = way }
        }
        if state.tabStops && to < from {
            // backspaces
            if from - to <= 3 { best = (0, to - from, from - to) }
        }
        return best
    }

    private static func tabCost(_ n: Int) -> Int { n }

    private static func appendTabs(_ tabs: Int, rest: Int, backspaces: Bool = false, to out: inout ByteBuffer) {
        if tabs == 0 && backspaces && rest < 0 && rest >= -3 {
            for _ in 0..<(-rest) { out.append(0x08) }
            return
        }
        for _ in 0..<tabs { out.append(0x09) }
        if tabs > 0 && rest < 0 {
            for _ in 0..<(-rest) { out.append(0x08) }
        } else {
            appendStep(rest, positive: 0x43, negative: 0x44, to: &out)
        }
    }

    /// Moves to cell `index`, sets the colours `look` needs and writes it.
    @inline(__always) mutating func write(_ look: TerminalCell, at index: Int, into out: inout ByteBuffer) {
        out.reserve(Escape.maxBytesPerCell)
        let row = index / columns
        let column = index - row * columns
        moveCursor(row: row, column: column, into: &out)
        let spelled = look.spelling(for: state.pen)
        state.pen.emitColors(foreground: spelled.foreground, background: spelled.background, mode: mode, into: &out)
        TerminalCell.appendUTF8(spelled.scalar, to: &out)
        state.column += 1
        if state.column >= columns && state.autowrapOff {
            state.column = columns - 1
        } else if state.column >= columns {
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
        /// Optional carriage return, line feeds (each a row down), then relative vertical and
        /// horizontal steps.
        case relative(carriageReturn: Bool, lineFeeds: Int, vertical: Int, tabs: Int, horizontal: Int)
        /// Column absolute (`CHA`) after line feeds or a vertical step.
        case columnAbsolute(lineFeeds: Int, vertical: Int)
    }

    /// The cheapest move from the cursor to a cell, and its length in bytes.
    private func bestMove(row: Int, column: Int) -> (Move, Int) {
        if row == state.row && column == state.column { return (.stay, 0) }
        var best = Move.absolute
        var bestCost = ReferenceTerminalWriter.cupCost(row: row, column: column)
        func consider(_ move: Move, _ cost: Int) {
            if cost < bestCost {
                best = move
                bestCost = cost
            }
        }
        if state.row >= 0 {
            let dv = row - state.row
            let vertical = ReferenceTerminalWriter.stepCost(dv)
            let cha = 3 + (column == 0 ? 0 : Escape.digits(column + 1))
            // A line feed (output is not post-processed: the column stays) is a byte a row
            // down, shorter than `ESC [ n B` for up to 3 rows; taken only where the column
            // is known (no wrap pending) or after a carriage return.
            let feeds = dv >= 1 && dv <= ReferenceTerminalWriter.maxLineFeeds
            if state.column >= 0 {
                let h = horizontal(from: state.column, to: column)
                consider(.relative(carriageReturn: false, lineFeeds: 0, vertical: dv, tabs: h.tabs, horizontal: h.rest),
                         vertical + h.cost)
                if feeds {
                    consider(.relative(carriageReturn: false, lineFeeds: dv, vertical: 0, tabs: h.tabs, horizontal: h.rest),
                             dv + h.cost)
                }
            }
            let h = horizontal(from: 0, to: column)
            consider(.relative(carriageReturn: true, lineFeeds: 0, vertical: dv, tabs: h.tabs, horizontal: h.rest),
                     1 + vertical + h.cost)
            if feeds {
                consider(.relative(carriageReturn: true, lineFeeds: dv, vertical: 0, tabs: h.tabs, horizontal: h.rest),
                         1 + dv + h.cost)
            }
            consider(.columnAbsolute(lineFeeds: 0, vertical: dv), vertical + cha)
            if feeds && state.column >= 0 { consider(.columnAbsolute(lineFeeds: dv, vertical: 0), dv + cha) }
        }
        return (best, bestCost)
    }

    mutating func moveCursor(row: Int, column: Int, into out: inout ByteBuffer) {
        perform(bestMove(row: row, column: column).0, row: row, column: column, into: &out)
    }

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
            ReferenceTerminalWriter.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)  // B down, A up
            ReferenceTerminalWriter.appendTabs(tabs, rest: dh, backspaces: state.tabStops, to: &out)
        case .columnAbsolute(let feeds, let dv):
            for _ in 0..<feeds { out.append(0x0A) }
            ReferenceTerminalWriter.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)
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
    private static func cupCost(row: Int, column: Int) -> Int {
        if row == 0 && column == 0 { return 3 }
        if column == 0 { return 3 + Escape.digits(row + 1) }
        return 4 + Escape.digits(row + 1) + Escape.digits(column + 1)
    }

    /// A relative step of `n` cells: nothing, `ESC [ A` for one, `ESC [ n A` for more.
    private static func stepCost(_ n: Int) -> Int {
        let m = abs(n)
        return m == 0 ? 0 : m == 1 ? 3 : 3 + Escape.digits(m)
    }

    private static func appendStep(_ n: Int, positive: UInt8, negative: UInt8, to out: inout ByteBuffer) {
        guard n != 0 else { return }
        out.append(0x1B)
        out.append(0x5B)
        if abs(n) != 1 { Escape.appendDecimal(abs(n), to: &out) }
        out.append(n > 0 ? positive : negative)
    }
}
