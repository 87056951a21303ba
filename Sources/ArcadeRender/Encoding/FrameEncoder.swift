import ArcadeCore

/// Turns frames into terminal bytes, writing only what changed since the previous frame.
///
/// The encoder remembers the last frame it encoded and the cursor position and colours it
/// left the terminal in; it assumes it is the only thing writing to the screen between
/// frames. After anything else writes (a resize, a shell-out, a cleared screen) call
/// ``requestFullRepaint()``: the next frame then rewrites every cell and assumes nothing.
///
/// Each full repaint sets the terminal up for short moves: a tab stop every 4 columns and
/// autowrap off (``usesTabs``, ``turnsOffAutowrap``; the terminal layer puts both back when
/// the arcade leaves the screen). Only controls every terminal knows are used for them
/// (`HT`, `BS`, `HTS`, `TBC`, `DECAWM`): not `CHT` or `CBT`, which tmux and the Linux console
/// ignore.
///
/// Per changed cell it writes the cheapest cursor move (none when the cell follows the
/// previous one; otherwise the shortest of an absolute `CUP`, relative moves, a carriage
/// return, line feeds a row or a few down, horizontal tabs forward (then a step, backspaces
/// or a reprint), backspaces a few columns back, or reprinting a few
/// unchanged cells the current colours can show), an SGR only for colours that differ from the terminal's
/// current ones, then the character. The changed cells of the whole frame are grouped by
/// colour: the cells the current colours can show go first, in reading order, then those
/// of the pair of colours that shows the most of the rest, and so on, so one colour change
/// serves every cell of the frame that needs it and the fullest passes go first (each pass
/// costs a move into every row it writes and over the cells of other colours, which
/// outweighs the colour change itself). A pass crosses a short gap of cells another pass
/// will write by writing spaces over them when that is shorter than moving; a cell or two of
/// one colour that is the pass's foreground it writes as `█`, for good, when the gap's other
/// cells take fewer bytes than the move (the cell then needs no pass of its own). The frame goes
/// out that way unless writing it in reading order, each cell in its own colours, comes
/// out shorter. A frame with more pairs of colours
/// than ``PenTable`` holds (every cell its own colours) is grouped row by row instead,
/// each row grouped or left to right, whichever is shorter. A wide glyph is written once,
/// from its left cell; its right half (``Cell/continuation``) is never written, and a
/// cell changing between wide and narrow is written like any change (a terminal clears
/// the rest of a wide glyph drawn over). A frame is wrapped in synchronized-output
/// brackets (`CSI ? 2026 h` ... `l`); an unchanged frame produces no bytes at all.
/// Buffers are reused: steady-state encoding does not allocate.
public final class FrameEncoder {
    // Stored properties marked `@exclusivity(unchecked)`: an encoder belongs to one thread and
    // its buffers are reached through one access at a time, once per cell of every frame, where
    // the runtime's dynamic exclusivity checks would cost more than the comparison itself.

    /// Truecolor, or the 256, 16 or 8-colour palette; changing it forces a full repaint.
    public var colorMode: ColorMode {
        didSet { if colorMode != oldValue { requestFullRepaint() } }
    }
    /// The filter on every colour shown (colour-blind or high-contrast); changing it forces a
    /// full repaint.
    public var visionFilter: VisionFilter = .none {
        didSet { if visionFilter != oldValue { requestFullRepaint() } }
    }
    /// Wrap each frame in synchronized-output brackets. On by default; terminals that do not
    /// know the mode ignore it.
    public var synchronizedOutput = true
    /// Group the frame's cells by colour when that is shorter (the default); false writes
    /// every row left to right, as a plain encoder does (for comparison).
    public var groupsColors = true
    /// Move along rows by horizontal tabs where that is shorter (the default): each full
    /// repaint clears the terminal's tab stops (`ESC [ 3 g`) and sets its own, one every
    /// ``TerminalWriter/tabWidth`` columns (`ESC H`), so where a tab lands is known exactly.
    /// A tab is a byte, against 4 or 5 for `ESC [ n C`: busy frames take about 7 % fewer
    /// bytes. The terminal layer sets the usual stops (every 8th column) again when the
    /// arcade leaves the screen. Changing it forces a full repaint.
    public var usesTabs = true {
        didSet { if usesTabs != oldValue { requestFullRepaint() } }
    }
    /// Turn the terminal's autowrap off (`ESC [ ? 7 l`) at each full repaint (the default), so
    /// a character written in the last column leaves the cursor there rather than where
    /// terminals disagree it is, and the next row is reached by a relative move (`CR LF`, a
    /// line feed and a step) rather than an absolute one. The terminal layer turns autowrap
    /// on again when the arcade leaves the screen. Changing it forces a full repaint.
    public var turnsOffAutowrap = true {
        didSet { if turnsOffAutowrap != oldValue { requestFullRepaint() } }
    }

    @exclusivity(unchecked) private var columns = 0
    @exclusivity(unchecked) private var rows = 0
    /// The last encoded frame's cells: what the screen shows.
    @exclusivity(unchecked) private var screen: [Cell] = []
    /// How each cell of ``screen`` looks (``CellLooks/look(_:)``), so a changed cell's old
    /// look and a gap's reprint need no lookup; set for every cell by each full repaint.
    @exclusivity(unchecked) private var screenLooks: UnsafeMutablePointer<TerminalCell> = .allocate(capacity: 1)
    /// Scratch for the frame being written, one entry per cell: the changed cells, how each
    /// will look, and the frame writer's list of those not written yet.
    @exclusivity(unchecked) private var scratch = RowScratch(capacity: 0)
    /// A copy of a row's changed cells, for writing it left to right after grouping it.
    @exclusivity(unchecked) private var spareScratch = RowScratch(capacity: 0)
    /// The colours that show the frame's changed cells, counted.
    @exclusivity(unchecked) private var pens = PenTable()
    /// Per cell: waiting to be written, and whether it may be written over meanwhile (see
    /// ``TerminalWriter/waiting``); all 0 between frames.
    @exclusivity(unchecked) private var waiting: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    /// The rows that differ from the screen, to be copied into it once the frame is written.
    @exclusivity(unchecked) private var differingRows: UnsafeMutablePointer<Int32> = .allocate(capacity: 1)
    /// A bit per cell of the row being compared: set where the frame differs from the screen.
    @exclusivity(unchecked) private var rowMask: UnsafeMutablePointer<UInt64> = .allocate(capacity: 1)
    /// Where a frame written in reading order goes, to be compared with the grouped one.
    @exclusivity(unchecked) private var sideOutput = ByteBuffer(capacity: 1 << 10)
    /// Frames whose in-order bound skips the quick bound before trying it again, after it
    /// failed to decide one (the choice of bound never changes the bytes, only the time).
    @exclusivity(unchecked) private var quickBoundRest = 0
    private static let quickBoundPause = 8
    /// Changed cells from which the quick bound is tried first.
    private static let quickBoundCells = 2048
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
        sideOutput.deallocate()
        scratch.deallocate()
        spareScratch.deallocate()
        pens.deallocate()
        waiting.deallocate()
        differingRows.deallocate()
        screenLooks.deallocate()
        rowMask.deallocate()
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
            scratch.deallocate()
            scratch = RowScratch(capacity: n)
            spareScratch.deallocate()
            spareScratch = RowScratch(capacity: columns)
            pens.deallocate()
            pens = PenTable(capacity: n)
            waiting.deallocate()
            waiting = .allocate(capacity: max(n, 1))
            waiting.initialize(repeating: 0, count: max(n, 1))
            differingRows.deallocate()
            differingRows = .allocate(capacity: max(rows, 1))
            screenLooks.deallocate()
            screenLooks = .allocate(capacity: max(n, 1))
            rowMask.deallocate()
            rowMask = .allocate(capacity: columns / 64 + 1)
            requestFullRepaint()
        }
        guard n > 0 else { return }
        if looks.mode != colorMode || looks.filter != visionFilter { looks = CellLooks(mode: colorMode, filter: visionFilter) }
        var buffer = output
        buffer.removeAll()
        defer { output = buffer }
        var writer = TerminalWriter(columns: columns, mode: colorMode, state: terminal)
        let repaintAll = fullRepaint
        let cols = columns
        let scratch = self.scratch, spare = spareScratch
        let grouping = groupsColors
        let tabs = usesTabs, noWrap = turnsOffAutowrap
        let outputMode = colorMode
        let plainTrueColor = looks.isPlainTrueColor
        let waiting = self.waiting, differingRows = self.differingRows, screenLooks = self.screenLooks
        let mask = rowMask
        var side = sideOutput
        defer { sideOutput = side }
        frame.cells.withUnsafeBufferPointer { new in
            screen.withUnsafeMutableBufferPointer { old in
                if repaintAll {
                    // With tabs, the tab stops: every one cleared, then one set every
                    // tabWidth columns of the first row as the repaint passes it.
                    let setsTabs = tabs && cols > TerminalWriter.tabWidth
                    var nextStop = Int.max
                    buffer.reserve(16)
                    if noWrap {
                        for k in 0..<Escape.autowrapOff.count { buffer.append(Escape.autowrapOff[k]) }
                        writer.state.autowrapOff = true
                    }
                    if setsTabs {
                        for k in 0..<Escape.clearTabStops.count { buffer.append(Escape.clearTabStops[k]) }
                        nextStop = TerminalWriter.tabWidth
                    }
                    for i in 0..<n {
                        let look = looks.look(new[i])
                        screenLooks[i] = look
                        if i == nextStop {
                            writer.setTabStop(column: i, into: &buffer)
                            nextStop = i + TerminalWriter.tabWidth < cols ? i + TerminalWriter.tabWidth : Int.max
                        }
                        // a wide glyph's right half is written with its left one
                        if !new[i].isContinuation { writer.write(look, at: i, into: &buffer) }
                    }
                    writer.state.tabStops = setsTabs
                    _ = old.update(fromContentsOf: new)
                    return
                }
                let newBase = new.baseAddress!, oldBase = old.baseAddress!
                let sink = ChangeSink(scratch: scratch, screenLooks: screenLooks, waiting: grouping ? waiting : nil,
                                      differingRows: differingRows, mask: mask)
                let (count, differing) = plainTrueColor
                    ? FrameEncoder.collectChanges(new: newBase, old: oldBase, rows: rows, columns: cols, into: sink,
                                                  looks: &looks, plainTrueColor: true)
                    : FrameEncoder.collectChanges(new: newBase, old: oldBase, rows: rows, columns: cols, into: sink,
                                                  looks: &looks, plainTrueColor: false)
                // the colours that show them, counted
                var table = pens
                table.reset()
                defer { pens = table }
                if grouping { table.noteAll(count, in: scratch) }
                if count > 0 && !grouping {
                    writer.writeInOrder(count: count, scratch: scratch, old: UnsafeBufferPointer(old), new: new,
                                        cellLooks: &looks, into: &buffer)
                } else if count > 0 {
                    if !table.overflowed { table.finish(count, from: scratch) { TerminalWriter.sgrBytes($0, mode: outputMode) } }
                    if table.overflowed {
                        // Too many pairs of colours to group them across the frame: row by row.
                        for j in 0..<count { waiting[Int(scratch.rows[j]) &* cols &+ Int(scratch.columns[j])] = 0 }
                        var j = 0
                        while j < count {
                            var end = j &+ 1
                            while end < count && scratch.rows[end] == scratch.rows[j] { end &+= 1 }
                            writeRow(Int(scratch.rows[j]) &* cols, cells: scratch.slice(j), count: end &- j, spare: spare,
                                     writer: &writer, old: UnsafeBufferPointer(old), new: new, into: &buffer, side: &side)
                            j = end
                        }
                    } else {
                        let start = buffer.count, before = writer.state
                        writer.waiting = waiting
                        writer.screenLooks = screenLooks
                        let reordered = writer.writeFrame(count: count, scratch: scratch, pens: table, old: UnsafeBufferPointer(old),
                                                          new: new, cellLooks: &looks, into: &buffer)
                        writer.waiting = nil
                        writer.screenLooks = nil
                        // The same frame in reading order, from the same state, kept when
                        // shorter; tried only when it could be (a bound found without writing
                        // says so: on a busy frame first a quick one, then the exact one).
                        var plain = TerminalWriter(columns: cols, mode: writer.mode, state: before)
                        let grouped = buffer.count - start
                        var undecided = reordered
                        if !reordered || count < FrameEncoder.quickBoundCells {
                            // a small frame: the exact bound alone decides it about as fast
                        } else if quickBoundRest == 0 {
                            if plain.inOrderQuickBound(count: count, scratch: scratch, limit: grouped) >= grouped {
                                undecided = false
                            } else {
                                // frames like this one are left to the exact bound for a while
                                quickBoundRest = FrameEncoder.quickBoundPause
                            }
                        } else {
                            quickBoundRest &-= 1
                        }
                        if undecided && plain.inOrderLowerBound(count: count, scratch: scratch, limit: grouped) < grouped {
                            side.removeAll()
                            plain.writeInOrder(count: count, scratch: scratch, old: UnsafeBufferPointer(old), new: new,
                                               cellLooks: &looks, into: &side)
                            if side.count < grouped {
                                buffer.truncate(to: start)
                                buffer.append(contentsOf: side.bytes)
                                writer.state = plain.state
                            }
                        }
                    }
                }
                for k in 0..<differing {
                    let base = Int(differingRows[k]) &* cols
                    (oldBase + base).update(from: newBase + base, count: cols)
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

extension FrameEncoder {
    /// Writes the `count` changed cells of one row (from `cells`, which it uses up), grouped
    /// by colour or left to right, whichever is shorter.
    private func writeRow(
        _ base: Int, cells: RowScratch, count: Int, spare: RowScratch, writer: inout TerminalWriter,
        old: UnsafeBufferPointer<Cell>, new: UnsafeBufferPointer<Cell>, into buffer: inout ByteBuffer, side: inout ByteBuffer
    ) {
        if count == 1 {
            writer.writeRowInOrder(base: base, count: count, scratch: cells, old: old, new: new, cellLooks: &looks, into: &buffer)
            return
        }
        spare.copy(count, from: cells)
        let start = buffer.count, before = writer.state
        let reordered = writer.writeRow(base: base, count: count, scratch: cells, old: old, new: new, cellLooks: &looks,
                                        into: &buffer)
        var plain = TerminalWriter(columns: columns, mode: writer.mode, state: before)
        // The same row left to right, from the same state, kept when shorter; tried only when
        // it could be (a bound found without writing says so).
        let grouped = buffer.count - start
        if reordered && plain.inOrderLowerBound(count: count, scratch: spare, limit: grouped) < grouped {
            side.removeAll()
            plain.writeRowInOrder(base: base, count: count, scratch: spare, old: old, new: new, cellLooks: &looks, into: &side)
            if side.count < grouped {
                buffer.truncate(to: start)
                buffer.append(contentsOf: side.bytes)
                writer.state = plain.state
            }
        }
    }
}

extension FrameEncoder {
    /// A lower bound on the bytes any encoder needs to turn a screen showing `previous` into
    /// `next` (the benchmarks' floor): each changed cell's character, one byte to reach each
    /// row with changes, `min(gap, 3)` bytes for each gap between two changed cells of a row,
    /// and each distinct colour of the changed cells set once (its colour parameter and one
    /// separator). Synchronized-output brackets are not counted.
    public static func floorBytes(from previous: Frame, to next: Frame, colorMode: ColorMode = .trueColor) -> Int {
        guard previous.columns == next.columns, previous.rows == next.rows else { return 0 }
        var looks = CellLooks(mode: colorMode)
        var colors = Set<UInt32>()
        var bytes = 0
        let cols = next.columns
        for row in 0..<next.rows {
            var last = -1
            for c in 0..<cols {
                let i = row * cols + c
                let new = next.cells[i], old = previous.cells[i]
                if new.isContinuation || Cell.sameBits(new, old) { continue }
                let look = looks.look(new)
                if look == looks.look(old) { continue }
                if last < 0 { bytes += 1 } else if c - last > 1 { bytes += min(c - last - 1, 3) }
                last = c
                if look.scalar == 0 {
                    bytes += look.first == look.second ? 1 : 3  // a space, or a half block
                    colors.insert(look.first)
                    if look.first != look.second { colors.insert(look.second) }
                } else {
                    let v = look.scalar & ~TerminalCell.wideFlag
                    bytes += GlyphStore.isStored(v) ? 1 : TerminalCell.utf8Count(v)
                    colors.insert(look.first)
                    colors.insert(look.second)
                }
            }
        }
        var scratch = ByteBuffer(capacity: 64)
        defer { scratch.deallocate() }
        for key in colors {
            scratch.removeAll()
            scratch.reserve(32)
            Escape.appendColor(key, selector: 38, mode: colorMode, to: &scratch)
            bytes += scratch.count + 1
        }
        return bytes
    }
}
