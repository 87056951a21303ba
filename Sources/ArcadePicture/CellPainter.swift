import ArcadeCore
import ArcadeRender

/// How one terminal cell becomes 8x16 picture pixels.
///
/// - A pixel cell (a space, `▀`, `▄`, `█`: ``CellAppearance/pixels(top:bottom:)``) is two
///   8x8 squares, its top and bottom pixels in their exact colours.
/// - A text cell is its glyph from the font in the cell's foreground on its background. A
///   wide glyph takes 16x16 pixels over its two cells; a glyph the font draws 16 wide in a
///   cell one wide is squeezed to 8 (pairs of columns merged); one drawn 8 wide in a wide
///   cell is centred. A glyph of several code points is drawn as its first.
/// - A glyph the font lacks is a box: a one-pixel outline inside its cell (or both cells).
public struct CellPainter: Sendable {
    /// Pixels across one cell.
    public static let cellWidth = 8
    /// Pixels down one cell.
    public static let cellHeight = 16

    public let font: GlyphFont

    public init(font: GlyphFont = .shared) {
        self.font = font
    }

    /// What cell `column`, `row` of `frame` shows: for each of its 16 pixel rows, 8 bits
    /// (leftmost pixel highest) of where `on` shows; elsewhere `off` does.
    public func look(of frame: Frame, column: Int, row: Int) -> (mask: SIMD16<UInt8>, on: Color, off: Color) {
        let cell = frame[column, row]
        if cell.isContinuation {
            let left = column > 0 ? frame[column - 1, row] : cell
            guard column > 0, !left.isContinuation, case .glyph(_, let fg, let bg) = left.appearance else {
                return (SIMD16(repeating: 0), cell.background, cell.background)
            }
            let wide = glyphMask(left, wide: true)
            return (SIMD16<UInt8>(truncatingIfNeeded: wide & 0xFF), fg, bg)
        }
        switch cell.appearance {
        case .pixels(let top, let bottom):
            var mask = SIMD16<UInt8>(repeating: 0)
            for y in 0..<8 { mask[y] = 0xFF }
            return (mask, top, bottom)
        case .glyph(_, let fg, let bg):
            let wide = cell.isWide && column + 1 < frame.columns && frame[column + 1, row].isContinuation
            let bits = glyphMask(cell, wide: wide)
            return (SIMD16<UInt8>(truncatingIfNeeded: bits &>> 8), fg, bg)
        }
    }

    /// The glyph of `cell` as 16 rows of 16 bits (a narrow cell uses the high byte).
    func glyphMask(_ cell: Cell, wide: Bool) -> SIMD16<UInt16> {
        var code = cell.character.value
        // glyphs of several code points are numbered in plane 16's private use area
        if code >= 0x10_0000 { code = cell.text.unicodeScalars.first?.value ?? code }
        let found: SIMD16<UInt16>? = font.withGlyph(code) { rows, width in
            var m = SIMD16<UInt16>(repeating: 0)
            for y in 0..<16 {
                let r = rows[y]
                if width == 16 && !wide {
                    // squeeze: each pair of columns becomes one
                    var out: UInt16 = 0
                    for x in 0..<8 where r & (0xC000 >> UInt16(2 * x)) != 0 { out |= 0x8000 >> UInt16(x) }
                    m[y] = out
                } else if width == 8 && wide {
                    m[y] = r >> 4
                } else {
                    m[y] = r
                }
            }
            return m
        }
        if let found { return found }
        return Self.box(wide: wide)
    }

    /// The box drawn for a glyph the font lacks.
    static func box(wide: Bool) -> SIMD16<UInt16> {
        let edge: UInt16 = wide ? 0x7FFE : 0x7E00
        let sides: UInt16 = wide ? 0x4002 : 0x4200
        var m = SIMD16<UInt16>(repeating: 0)
        m[2] = edge
        for y in 3...12 { m[y] = sides }
        m[13] = edge
        return m
    }

    /// Paints the cells `columns` x `rows` of `frame`, each pixel `scale` x `scale`, into
    /// `buffer`, whose first element is the top-left pixel of the first of those cells and
    /// whose rows are `stride` elements apart. `value` gives what a colour is written as.
    public func paint<T>(_ frame: Frame, columns: Range<Int>, rows: Range<Int>, scale: Int,
                         into buffer: UnsafeMutablePointer<T>, stride: Int, value: (Color) -> T) {
        let cw = Self.cellWidth * scale, ch = Self.cellHeight * scale
        for row in rows {
            for column in columns {
                let (mask, on, off) = look(of: frame, column: column, row: row)
                let onValue = value(on), offValue = value(off)
                let origin = buffer + (row - rows.lowerBound) * ch * stride + (column - columns.lowerBound) * cw
                for y in 0..<16 {
                    let bits = mask[y]
                    let line = origin + y * scale * stride
                    for x in 0..<8 {
                        let v = bits & (0x80 >> UInt8(x)) != 0 ? onValue : offValue
                        let p = line + x * scale
                        for s in 0..<scale { p[s] = v }
                    }
                    for s in 1..<max(scale, 1) { (line + s * stride).update(from: line, count: cw) }
                }
            }
        }
    }
}
