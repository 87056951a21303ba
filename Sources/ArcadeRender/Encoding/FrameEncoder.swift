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
/// return, or reprinting up to a few unchanged cells the current colours can show), then an
/// SGR only for the colours that differ from the terminal's current ones, then the character.
/// A frame is wrapped in synchronized-output brackets (`CSI ? 2026 h` ... `l`); an unchanged
/// frame produces no bytes at all. Buffers are reused: steady-state encoding does not allocate.
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
    private var fullRepaint = true
    private var pen = PenState()
    /// -1 when unknown.
    private var cursorRow = -1
    /// -1 when unknown.
    private var cursorColumn = -1

    /// Gaps up to this many unchanged cells may be reprinted instead of moving the cursor.
    static let maxReprint = 4

    /// An encoder that has not written anything yet (its first frame is a full repaint).
    public init(colorMode: ColorMode = .trueColor) {
        self.colorMode = colorMode
    }

    /// Makes the next frame rewrite every cell, assuming nothing about the screen, the cursor
    /// or the colours.
    public func requestFullRepaint() {
        fullRepaint = true
        pen = PenState()
        cursorRow = -1
        cursorColumn = -1
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
            requestFullRepaint()
        }
        guard n > 0 else { return }
        let mode = colorMode
        frame.cells.withUnsafeBufferPointer { src in
            incoming.withUnsafeMutableBufferPointer { dst in
                for i in 0..<n { dst[i] = TerminalCell(src[i], mode: mode) }
            }
        }
        let start = out.count
        if synchronizedOutput { out.append(contentsOf: Escape.beginSynchronized) }
        let bodyStart = out.count
        if fullRepaint {
            for i in 0..<n { emitCell(at: i, into: &out) }
            fullRepaint = false
        } else {
            for i in 0..<n where incoming[i] != screen[i] { emitCell(at: i, into: &out) }
        }
        if out.count == bodyStart {
            out.removeLast(out.count - start)
        } else if synchronizedOutput {
            out.append(contentsOf: Escape.endSynchronized)
        }
        swap(&screen, &incoming)
    }

    /// Moves to cell `index` of `incoming`, sets its colours and writes it.
    @inline(__always) private func emitCell(at index: Int, into out: inout [UInt8]) {
        let row = index / columns
        let column = index - row * columns
        moveCursor(row: row, column: column, into: &out)
        let spelled = incoming[index].spelling(for: pen)
        pen.emitColors(foreground: spelled.foreground, background: spelled.background, mode: colorMode, into: &out)
        TerminalCell.appendUTF8(spelled.scalar, to: &out)
        advanceCursor()
    }

    @inline(__always) private func advanceCursor() {
        cursorColumn += 1
        if cursorColumn >= columns {
            // Terminals differ on where the cursor is after the last column (pending wrap or
            // already wrapped), so forget it; the next move is absolute.
            cursorColumn = -1
            cursorRow = -1
        }
    }

    // MARK: - Cursor movement

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

    private func moveCursor(row: Int, column: Int, into out: inout [UInt8]) {
        if row == cursorRow && column == cursorColumn { return }
        var best = Move.absolute
        var bestCost = FrameEncoder.cupCost(row: row, column: column)
        func consider(_ move: Move, _ cost: Int) {
            if cost < bestCost {
                best = move
                bestCost = cost
            }
        }
        if cursorRow >= 0 {
            let dv = row - cursorRow
            let vertical = FrameEncoder.stepCost(dv)
            if cursorColumn >= 0 {
                let dh = column - cursorColumn
                consider(.relative(carriageReturn: false, lineFeed: false, vertical: dv, horizontal: dh),
                         vertical + FrameEncoder.stepCost(dh))
                if dv == 0 && dh > 0 && dh <= FrameEncoder.maxReprint, let cost = reprintCost(row: row, from: cursorColumn, count: dh) {
                    consider(.reprint(count: dh), cost)
                }
            }
            consider(.relative(carriageReturn: true, lineFeed: false, vertical: dv, horizontal: column),
                     1 + vertical + FrameEncoder.stepCost(column))
            if dv == 1 {
                consider(.relative(carriageReturn: true, lineFeed: true, vertical: 0, horizontal: column),
                         2 + FrameEncoder.stepCost(column))
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
            FrameEncoder.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)  // B down, A up
            FrameEncoder.appendStep(dh, positive: 0x43, negative: 0x44, to: &out)  // C right, D left
        case .columnAbsolute(let dv):
            FrameEncoder.appendStep(dv, positive: 0x42, negative: 0x41, to: &out)
            out.append(0x1B)
            out.append(0x5B)
            if column != 0 { Escape.appendDecimal(column + 1, to: &out) }
            out.append(0x47)  // G
        case .reprint(let count):
            let base = row * columns + cursorColumn
            for k in 0..<count {
                // Checked by reprintCost: every one of these has a spelling in the pen's colours.
                TerminalCell.appendUTF8(screen[base + k].scalarWithoutColorChange(pen) ?? 0x20, to: &out)
            }
        }
        cursorRow = row
        cursorColumn = column
    }

    /// Bytes to reprint `count` unchanged cells from `column` on, or nil when one of them
    /// needs a colour the pen does not have.
    private func reprintCost(row: Int, from column: Int, count: Int) -> Int? {
        var cost = 0
        let base = row * columns + column
        for k in 0..<count {
            // Unchanged means `incoming` and `screen` agree, so the terminal already shows it.
            let cell = incoming[base + k]
            guard cell == screen[base + k], let s = cell.scalarWithoutColorChange(pen) else { return nil }
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
