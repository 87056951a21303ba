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
    /// Truecolor or the 256-colour palette; changing it forces a full repaint.
    public var colorMode: ColorMode {
        didSet { if colorMode != oldValue { requestFullRepaint() } }
    }
    /// Wrap each frame in synchronized-output brackets. On by default; terminals that do not
    /// know the mode ignore it.
    public var synchronizedOutput = true

    private var columns = 0
    private var rows = 0
    /// What the screen shows (the last encoded frame), row-major.
    private var screen: [TerminalCell] = []
    /// The frame being encoded, converted; swapped with `screen` afterwards.
    private var incoming: [TerminalCell] = []
    /// Changed columns of the row being written.
    private var pending: [Int] = []
    /// Per column of the row being written: already written this frame.
    private var written: [Bool] = []
    private var fullRepaint = true
    /// Cursor and colours as the terminal has them after the last frame.
    private var terminal = TerminalState()

    /// An encoder that has not written anything yet (its first frame is a full repaint).
    public init(colorMode: ColorMode = .trueColor) {
        self.colorMode = colorMode
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
            screen = Array(repeating: TerminalCell(scalar: 0, first: 0, second: 0), count: n)
            incoming = screen
            pending = []
            pending.reserveCapacity(columns)
            written = Array(repeating: false, count: columns)
            requestFullRepaint()
        }
        guard n > 0 else { return }
        let mode = colorMode
        let start = out.count
        if synchronizedOutput { out.append(contentsOf: Escape.beginSynchronized) }
        let bodyStart = out.count
        var writer = TerminalWriter(columns: columns, mode: mode, state: terminal)
        let repaintAll = fullRepaint
        let cols = columns
        frame.cells.withUnsafeBufferPointer { src in
            screen.withUnsafeBufferPointer { old in
                incoming.withUnsafeMutableBufferPointer { new in
                    for i in 0..<n { new[i] = TerminalCell(src[i], mode: mode) }
                    let new = UnsafeBufferPointer(new)
                    if repaintAll {
                        for i in 0..<n { writer.write(at: i, old: old, new: new, into: &out) }
                        return
                    }
                    for row in 0..<rows {
                        let base = row * cols
                        pending.removeAll(keepingCapacity: true)
                        for c in 0..<cols where new[base + c] != old[base + c] { pending.append(c) }
                        if pending.isEmpty { continue }
                        pending.withUnsafeBufferPointer { changed in
                            written.withUnsafeMutableBufferPointer { done in
                                writer.writeRow(base: base, changed: changed, written: done, old: old, new: new, into: &out)
                            }
                        }
                    }
                }
            }
        }
        fullRepaint = false
        terminal = writer.state
        if out.count == bodyStart {
            out.removeLast(out.count - start)
        } else if synchronizedOutput {
            out.append(contentsOf: Escape.endSynchronized)
        }
        swap(&screen, &incoming)
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

    /// Writes the changed cells of one row (`changed` holds their columns, ascending): first
    /// every cell the current colours can show, then the leftmost remaining one with new
    /// colours, and again, until all are written.
    mutating func writeRow(
        base: Int, changed: UnsafeBufferPointer<Int>, written: UnsafeMutableBufferPointer<Bool>,
        old: UnsafeBufferPointer<TerminalCell>, new: UnsafeBufferPointer<TerminalCell>, into out: inout [UInt8]
    ) {
        for c in changed { written[c] = false }
        var remaining = changed.count
        while remaining > 0 {
            var firstLeft = -1
            for c in changed where !written[c] {
                if new[base + c].scalarWithoutColorChange(state.pen) != nil {
                    write(at: base + c, old: old, new: new, into: &out)
                    written[c] = true
                    remaining -= 1
                } else if firstLeft < 0 {
                    firstLeft = c
                }
            }
            if remaining == 0 || firstLeft < 0 { break }
            write(at: base + firstLeft, old: old, new: new, into: &out)
            written[firstLeft] = true
            remaining -= 1
        }
    }

    /// Moves to cell `index`, sets its colours and writes it.
    @inline(__always) mutating func write(
        at index: Int, old: UnsafeBufferPointer<TerminalCell>, new: UnsafeBufferPointer<TerminalCell>, into out: inout [UInt8]
    ) {
        let row = index / columns
        let column = index - row * columns
        moveCursor(row: row, column: column, old: old, new: new, into: &out)
        let spelled = new[index].spelling(for: state.pen)
        state.pen.emitColors(foreground: spelled.foreground, background: spelled.background, mode: mode, into: &out)
        TerminalCell.appendUTF8(spelled.scalar, to: &out)
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
        case absolute
        /// Optional carriage return (+ line feed), then relative vertical and horizontal steps.
        case relative(carriageReturn: Bool, lineFeed: Bool, vertical: Int, horizontal: Int)
        /// Column absolute (`CHA`) after a vertical step.
        case columnAbsolute(vertical: Int)
        /// Rewrite the unchanged cells in between with the current colours.
        case reprint(count: Int)
    }

    private mutating func moveCursor(
        row: Int, column: Int, old: UnsafeBufferPointer<TerminalCell>, new: UnsafeBufferPointer<TerminalCell>,
        into out: inout [UInt8]
    ) {
        if row == state.row && column == state.column { return }
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
                if dv == 0 && dh > 0 && dh <= TerminalWriter.maxReprint,
                   let cost = reprintCost(at: row * columns + state.column, count: dh, old: old, new: new) {
                    consider(.reprint(count: dh), cost)
                }
            }
            consider(.relative(carriageReturn: true, lineFeed: false, vertical: dv, horizontal: column),
                     1 + vertical + TerminalWriter.stepCost(column))
            if dv == 1 {
                consider(.relative(carriageReturn: true, lineFeed: true, vertical: 0, horizontal: column),
                         2 + TerminalWriter.stepCost(column))
            }
            consider(.columnAbsolute(vertical: dv), vertical + 3 + (column == 0 ? 0 : Escape.digits(column + 1)))
        }
        switch best {
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
        case .reprint(let count):
            let from = row * columns + state.column
            for k in 0..<count {
                // reprintCost checked that the pen shows every one of these as it is.
                TerminalCell.appendUTF8(old[from + k].scalarWithoutColorChange(state.pen) ?? 0x20, to: &out)
            }
        }
        state.row = row
        state.column = column
    }

    /// Bytes to reprint `count` cells from `index` on, or nil when one of them changed (the
    /// terminal may not show it yet) or needs a colour the pen does not have.
    private func reprintCost(
        at index: Int, count: Int, old: UnsafeBufferPointer<TerminalCell>, new: UnsafeBufferPointer<TerminalCell>
    ) -> Int? {
        var cost = 0
        for k in index..<(index + count) {
            guard old[k] == new[k], let s = old[k].scalarWithoutColorChange(state.pen) else { return nil }
            cost += TerminalCell.utf8Count(s)
        }
        return cost
    }

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

    private static func appendStep(_ n: Int, positive: UInt8, negative: UInt8, to out: inout [UInt8]) {
        guard n != 0 else { return }
        out.append(0x1B)
        out.append(0x5B)
        if abs(n) != 1 { Escape.appendDecimal(abs(n), to: &out) }
        out.append(n > 0 ? positive : negative)
    }
}
