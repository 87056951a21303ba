import ArcadeCore
import ArcadeRender

/// A small model of a VT/xterm screen, enough to replay what the encoder and the terminal
/// layer write: cursor positioning (CUP, CUU/CUD/CUF/CUB, CHA, VPA, CR, LF, BS), tab stops
/// (HT, CHT, CBT, HTS, TBC; a stop at every 8th column to start with), erase display
/// (ED), SGR colours (truecolor, 256 and the 16 system colours), UTF-8 printing with xterm's pending-wrap rule and
/// character widths (`wcwidth` with the arcade's Unicode table, and the joining a current
/// terminal does: see ``print(_:)``),
/// private modes (recorded, otherwise ignored), the kitty keyboard push/pop/query and the
/// device attributes and status queries (recorded in ``queries``), and resizes.
///
/// Anything else, and anything that would scroll the screen, is recorded in ``errors``.
/// Shared by the render tests (the encoder) and the host tests (asciicast recordings).
public struct VTModel {
    public struct Glyph: Equatable {
        /// The first code point printed in the cell.
        public var scalar: Unicode.Scalar
        public var foreground: Color
        public var background: Color
        /// Everything printed in the cell: `scalar` and what joined it.
        public var text: String
        /// 2 for a wide glyph's left half, 0 for its right half, else 1.
        public var width: Int

        public init(scalar: Unicode.Scalar, foreground: Color, background: Color) {
            self.scalar = scalar
            self.foreground = foreground
            self.background = background
            text = String(scalar)
            width = 1
        }

        /// The right half of a wide glyph.
        public var isContinuation: Bool { width == 0 }
    }

    public private(set) var columns: Int
    public private(set) var rows: Int
    public private(set) var cells: [Glyph]
    public var row = 0
    public var column = 0
    public var wrapPending = false
    /// Autowrap (`DECAWM`, private mode 7): on to start with. Off, a character printed in the
    /// last column leaves the cursor there, with no wrap pending.
    public var autowrap = true
    /// The columns with a tab stop: every 8th to start with, as terminals start.
    public var tabStops: Set<Int>
    public var foreground = VTModel.defaultForeground
    public var background = VTModel.defaultBackground
    public var errors: [String] = []
    /// Private modes seen, in order, as "?2026h" / "?2026l".
    public var privateModes: [String] = []
    /// Queries and keyboard-mode sequences seen, as "c", "5n", "?u", ">7u", "<u".
    public var queries: [String] = []
    /// Counts of each CSI final byte seen, for assertions about what was emitted.
    public var finalCounts: [Character: Int] = [:]
    public var printedCount = 0
    /// SGR colours set by `38`/`48` (truecolor or 256), by the 16 system colours (`30`-`37`,
    /// `90`-`97`, `40`-`47`, `100`-`107`), and of those the bright backgrounds (`100`-`107`).
    public var extendedColorsSet = 0
    public var systemColorsSet = 0
    /// Reverse video (SGR 7) is on.
    public var reverse = false
    public var brightBackgroundsSet = 0

    public static let defaultForeground = Color(rgb: 0xAAAAAA)
    public static let defaultBackground = Color(rgb: 0x000000)

    public init(columns: Int, rows: Int, fill: Glyph) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: fill, count: columns * rows)
        tabStops = Set(stride(from: 8, to: max(columns, 8), by: 8))
    }

    public subscript(column: Int, row: Int) -> Glyph { cells[row * columns + column] }

    /// The terminal became `columns` x `rows`: the cells that still fit stay, new ones are
    /// blank, and the cursor is kept inside.
    public mutating func resize(columns newColumns: Int, rows newRows: Int) {
        var next = Array(repeating: Glyph(scalar: " ", foreground: foreground, background: VTModel.defaultBackground),
                         count: newColumns * newRows)
        let oldColumns = columns
        for r in 0..<min(rows, newRows) {
            for c in 0..<min(columns, newColumns) { next[r * newColumns + c] = cells[r * columns + c] }
        }
        columns = newColumns
        rows = newRows
        cells = next
        // the stops that still fit stay; new columns get a stop at every 8th
        tabStops = tabStops.filter { $0 < newColumns }
        for c in stride(from: 8, to: max(newColumns, 8), by: 8) where c >= oldColumns { tabStops.insert(c) }
        row = min(row, rows - 1)
        column = min(column, columns - 1)
        wrapPending = false
    }

    public mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x1B:
                i = parseEscape(bytes, i)
                continue
            case 0x0D:
                column = 0
                wrapPending = false
                lastPrinted = nil
            case 0x08:
                // backspace: a column left, none at the first; terminals differ on it where a
                // wrap is pending
                lastPrinted = nil
                if wrapPending { errors.append("a backspace with a wrap pending") }
                column = max(column - 1, 0)
                wrapPending = false
            case 0x09:
                lastPrinted = nil
                if wrapPending { errors.append("a tab with a wrap pending") }
                tab(forward: 1)
            case 0x0A:
                lastPrinted = nil
                if row == rows - 1 { errors.append("line feed on the last row would scroll") } else { row += 1 }
                wrapPending = false
            case 0x00..<0x20, 0x7F:
                errors.append("unexpected control byte \(b)")
            default:
                let (scalar, length) = decodeUTF8(bytes, i)
                i += length
                put(scalar)
                continue
            }
            i += 1
        }
    }

    /// Where the last glyph was printed, for what joins it; nil after a cursor move.
    private var lastPrinted: Int?

    /// Prints one code point, as a terminal with the arcade's Unicode data and today's emoji
    /// handling does (kitty, WezTerm, foot):
    /// - its width is `wcwidth`'s, from ``TextWidth/width(of:)``;
    /// - a zero-width code point joins the glyph printed last; a variation selector 16 makes
    ///   a one-cell emoji two cells wide;
    /// - an emoji after a zero-width joiner, a skin tone after an emoji, and a second regional
    ///   indicator after a first join the glyph before them too (a flag is two cells);
    /// - a glyph printed over either half of a wide one blanks its other half.
    /// A wide glyph in the last column would wrap early: that is recorded in ``errors``.
    private mutating func put(_ scalar: Unicode.Scalar) {
        if let at = lastPrinted, joins(scalar, cells[at]) {
            cells[at].text.unicodeScalars.append(scalar)
            let widens = (scalar == "\u{FE0F}" && cells[at].scalar.properties.isEmoji)
                || (VTModel.isRegional(scalar) && VTModel.isRegional(cells[at].scalar))
            if widens && cells[at].width == 1 {
                if at % columns == columns - 1 {
                    errors.append("a glyph widened in the last column")
                } else {
                    blankOtherHalf(at + 1)
                    cells[at].width = 2
                    cells[at + 1] = Glyph(scalar: " ", foreground: cells[at].foreground, background: cells[at].background)
                    cells[at + 1].width = 0
                    cells[at + 1].text = ""
                    advance(1)
                }
            }
            return
        }
        let width = TextWidth.width(of: scalar)
        if width == 0 {
            errors.append("a zero-width U+\(String(scalar.value, radix: 16, uppercase: true)) with nothing to join")
            return
        }
        if wrapPending {
            wrapPending = false
            column = 0
            if row == rows - 1 {
                errors.append("printing after the last cell would scroll")
                return
            }
            row += 1
        }
        if width == 2 && column == columns - 1 {
            errors.append("a wide glyph in the last column at row \(row) would wrap")
            return
        }
        let here = row * columns + column
        blankOtherHalf(here)
        if width == 2 { blankOtherHalf(here + 1) }
        // reverse video shows the foreground behind the glyph and the background in it
        let (fg, bg) = reverse ? (background, foreground) : (foreground, background)
        cells[here] = Glyph(scalar: scalar, foreground: fg, background: bg)
        cells[here].width = width
        if width == 2 {
            cells[here + 1] = Glyph(scalar: " ", foreground: fg, background: bg)
            cells[here + 1].width = 0
            cells[here + 1].text = ""
        }
        printedCount += 1
        lastPrinted = here
        advance(width)
    }

    private mutating func advance(_ cells: Int) {
        if column + cells > columns - 1 {
            column = columns - 1
            wrapPending = autowrap
        } else {
            column += cells
        }
    }

    /// True when `scalar` joins `glyph` (printed just before it) rather than starting a cell.
    private func joins(_ scalar: Unicode.Scalar, _ glyph: Glyph) -> Bool {
        let p = scalar.properties
        if TextWidth.width(of: scalar) == 0 { return true }
        let last = glyph.text.unicodeScalars.last!
        if last == "\u{200D}" && p.isEmoji && !p.isEmojiModifier { return true }
        if p.isEmojiModifier && glyph.scalar.properties.isEmojiModifierBase { return true }
        return VTModel.isRegional(scalar) && VTModel.isRegional(glyph.scalar) && glyph.text.unicodeScalars.count == 1
    }

    private static func isRegional(_ s: Unicode.Scalar) -> Bool { s.value >= 0x1F1E6 && s.value <= 0x1F1FF }

    /// When cell `i` is half of a wide glyph, the glyph's other half becomes a blank.
    private mutating func blankOtherHalf(_ i: Int) {
        guard i < cells.count else { return }
        if cells[i].isContinuation, i > 0 {
            let g = cells[i - 1]
            cells[i - 1] = Glyph(scalar: " ", foreground: g.foreground, background: g.background)
        } else if cells[i].width == 2, i + 1 < cells.count {
            let g = cells[i + 1]
            cells[i + 1] = Glyph(scalar: " ", foreground: g.foreground, background: g.background)
        }
    }

    private func decodeUTF8(_ bytes: [UInt8], _ i: Int) -> (Unicode.Scalar, Int) {
        let b0 = UInt32(bytes[i])
        var value: UInt32
        var length: Int
        if b0 < 0x80 { return (Unicode.Scalar(b0)!, 1) }
        if b0 >> 5 == 0b110 { value = b0 & 0x1F; length = 2 }
        else if b0 >> 4 == 0b1110 { value = b0 & 0x0F; length = 3 }
        else { value = b0 & 0x07; length = 4 }
        for k in 1..<length { value = (value << 6) | (UInt32(bytes[i + k]) & 0x3F) }
        return (Unicode.Scalar(value) ?? "?", length)
    }

    /// `count` tabs: to the next tab stop right of the cursor (or the last column when there is
    /// none) each, or, with a negative `count`, to the previous one (or the first column).
    private mutating func tab(forward count: Int) {
        for _ in 0..<abs(count) {
            column = count > 0
                ? tabStops.filter { $0 > column && $0 < columns }.min() ?? columns - 1
                : tabStops.filter { $0 < column }.max() ?? 0
        }
        wrapPending = false
    }

    /// Parses `ESC [ params final` (or `ESC H`) starting at `i`; returns the index after it.
    private mutating func parseEscape(_ bytes: [UInt8], _ start: Int) -> Int {
        if start + 2 < bytes.count, bytes[start + 2] != UInt8(ascii: "?") { lastPrinted = nil }
        if start + 1 < bytes.count, bytes[start + 1] == 0x48 {
            // HTS: a tab stop at the cursor's column
            lastPrinted = nil
            tabStops.insert(column)
            return start + 2
        }
        guard start + 1 < bytes.count, bytes[start + 1] == 0x5B else {
            errors.append("ESC not followed by [")
            return start + 1
        }
        var i = start + 2
        var isPrivate = false
        var marker: Character?
        if i < bytes.count && bytes[i] == 0x3F {
            isPrivate = true
            i += 1
        } else if i < bytes.count && (bytes[i] == 0x3C || bytes[i] == 0x3E) {
            marker = Character(Unicode.Scalar(bytes[i]))
            i += 1
        }
        var text = ""
        while i < bytes.count, (0x30...0x3B).contains(bytes[i]) {
            text.append(Character(Unicode.Scalar(bytes[i])))
            i += 1
        }
        guard i < bytes.count else {
            errors.append("unterminated CSI")
            return i
        }
        let final = Character(Unicode.Scalar(bytes[i]))
        finalCounts[final, default: 0] += 1
        let params = text.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        func p(_ k: Int, _ fallback: Int) -> Int {
            k < params.count ? (params[k] ?? fallback) : fallback
        }
        if let marker {
            // kitty keyboard push (>flags u) and pop (<u): they change how keys are sent, not the screen
            if final == "u" { queries.append(String(marker) + text + "u") } else { errors.append("unsupported CSI \(marker)\(text)\(final)") }
            return i + 1
        }
        if isPrivate {
            if final == "u" {
                queries.append("?u")  // kitty keyboard flags query
            } else {
                privateModes.append("?" + text + String(final))
                if text == "7" && (final == "h" || final == "l") { autowrap = final == "h" }
            }
            return i + 1
        }
        switch final {
        case "H", "f":
            row = clampRow(p(0, 1) - 1)
            column = clampColumn(p(1, 1) - 1)
            wrapPending = false
        case "A": row = clampRow(row - max(1, p(0, 1))); wrapPending = false
        case "B": row = clampRow(row + max(1, p(0, 1))); wrapPending = false
        case "C": column = clampColumn(column + max(1, p(0, 1))); wrapPending = false
        case "D": column = clampColumn(column - max(1, p(0, 1))); wrapPending = false
        case "G": column = clampColumn(p(0, 1) - 1); wrapPending = false
        case "d": row = clampRow(p(0, 1) - 1); wrapPending = false
        case "I":
            if wrapPending { errors.append("a tab with a wrap pending") }
            tab(forward: max(1, p(0, 1)))
        case "Z":
            if wrapPending { errors.append("a tab with a wrap pending") }
            tab(forward: -max(1, p(0, 1)))
        case "g":
            // clear the tab stop at the cursor (0) or every one (3)
            switch p(0, 0) {
            case 0: tabStops.remove(column)
            case 3: tabStops.removeAll()
            default: errors.append("unsupported TBC \(text)")
            }
        case "m": applySGR(params.map { $0 ?? 0 })
        case "J":
            // erase display: 2 (all) is what the arcade sends; 0 and 1 erase after / before the cursor
            let here = row * columns + column
            let range: Range<Int> = switch p(0, 0) {
            case 1: 0..<(here + 1)
            case 2, 3: 0..<cells.count
            default: here..<cells.count
            }
            for k in range { cells[k] = Glyph(scalar: " ", foreground: foreground, background: background) }
        case "c": queries.append("c")  // device attributes: a query, answered by a real terminal
        case "n": queries.append(text + "n")  // device status (5n): a query too
        default: errors.append("unsupported CSI final \(final)")
        }
        return i + 1
    }

    private func clampRow(_ r: Int) -> Int { min(max(r, 0), rows - 1) }
    private func clampColumn(_ c: Int) -> Int { min(max(c, 0), columns - 1) }

    private mutating func applySGR(_ params: [Int]) {
        var k = 0
        let ps = params.isEmpty ? [0] : params
        while k < ps.count {
            switch ps[k] {
            case 0:
                foreground = Color(rgb: 0xAAAAAA)
                background = Color(rgb: 0x000000)
                reverse = false
                k += 1
            case 7, 27:
                reverse = ps[k] == 7
                k += 1
            case 38, 48:
                extendedColorsSet += 1
                guard k + 1 < ps.count else { errors.append("truncated SGR"); return }
                let color: Color
                if ps[k + 1] == 2, k + 4 < ps.count {
                    color = Color(r: UInt8(ps[k + 2]), g: UInt8(ps[k + 3]), b: UInt8(ps[k + 4]))
                    if ps[k] == 38 { foreground = color } else { background = color }
                    k += 5
                } else if ps[k + 1] == 5, k + 2 < ps.count {
                    color = XtermPalette.color(at: UInt8(ps[k + 2]))
                    if ps[k] == 38 { foreground = color } else { background = color }
                    k += 3
                } else {
                    errors.append("bad extended colour in SGR \(ps)")
                    return
                }
            case 30...37, 90...97:
                foreground = XtermPalette.color(at: UInt8(ps[k] >= 90 ? ps[k] - 90 + 8 : ps[k] - 30))
                systemColorsSet += 1
                k += 1
            case 40...47, 100...107:
                background = XtermPalette.color(at: UInt8(ps[k] >= 100 ? ps[k] - 100 + 8 : ps[k] - 40))
                if ps[k] >= 100 { brightBackgroundsSet += 1 }
                systemColorsSet += 1
                k += 1
            default:
                errors.append("unsupported SGR \(ps[k])")
                k += 1
            }
        }
    }

    /// What a cell shows as text: its glyph's code points, nothing for a wide glyph's right
    /// half (as ``Cell/text`` reads a frame's cell).
    public func text(column: Int, row: Int) -> String { self[column, row].text }

    /// What each cell shows, in the same terms as ``Cell/appearance``.
    public func appearance(column: Int, row: Int) -> CellAppearance {
        let g = self[column, row]
        return Cell(character: g.scalar, foreground: g.foreground, background: g.background).appearance
    }
}
