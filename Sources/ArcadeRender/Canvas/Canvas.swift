import ArcadeCore

/// The drawing surface of one frame: a pixel layer under a text layer.
///
/// A terminal of `columns x rows` cells shows `columns x 2*rows` square pixels, because each
/// cell is drawn as two stacked half blocks. Pixels are opaque 24-bit colours; everything
/// drawn is alpha-blended onto them. The text layer holds one character per cell and always
/// shows above the pixels, whatever order things were drawn in (a terminal cell cannot put a
/// pixel over a glyph).
///
/// Coordinates are in pixels, x right and y down; pixel `(x, y)` covers the square
/// `[x, x+1) x [y, y+1)` and is drawn when its centre lies inside a shape.
public final class Canvas {
    // Stored properties marked `@exclusivity(unchecked)`: a canvas belongs to one thread and its
    // buffers are reached through one access at a time, while every primitive drawn touches them;
    // the runtime's dynamic exclusivity checks would cost more than small sprites do.

    /// Width in terminal cells.
    @exclusivity(unchecked) public private(set) var columns: Int
    /// Height in terminal cells.
    @exclusivity(unchecked) public private(set) var rows: Int
    /// The colour ``clear()`` fills the pixel layer with.
    @exclusivity(unchecked) public var background: Color

    /// Row-major, `width * height`, always opaque.
    @exclusivity(unchecked) var pixels: [Color]
    /// Row-major, `columns * rows`.
    @exclusivity(unchecked) var textCells: [TextCell]
    /// Scratch for ``blitSprite(_:transform:alpha:tint:)``: source column per canvas column.
    @exclusivity(unchecked) var columnMap: [Int32] = []
    /// False until text is drawn after a clear, so composing skips the text pass entirely.
    @exclusivity(unchecked) var hasText = false

    /// A canvas of the given size in cells, cleared to `background`.
    public init(columns: Int, rows: Int, background: Color = .black) {
        let cols = max(0, columns)
        let rws = max(0, rows)
        self.columns = cols
        self.rows = rws
        self.background = Color(r: background.r, g: background.g, b: background.b)
        pixels = Array(repeating: self.background, count: cols * rws * 2)
        textCells = Array(repeating: TextCell.empty, count: cols * rws)
    }

    /// Width in pixels (one per column).
    @inlinable public var width: Int { columns }
    /// Height in pixels (two per row).
    @inlinable public var height: Int { rows * 2 }

    /// Changes the size (a terminal resize) and clears. Storage is reused when it shrinks.
    public func resize(columns: Int, rows: Int) {
        let cols = max(0, columns)
        let rws = max(0, rows)
        guard cols != self.columns || rws != self.rows else {
            clear()
            return
        }
        self.columns = cols
        self.rows = rws
        pixels = Array(repeating: opaqueBackground, count: cols * rws * 2)
        textCells = Array(repeating: TextCell.empty, count: cols * rws)
        hasText = false
    }

    /// Fills the pixel layer with ``background`` and empties the text layer.
    public func clear() {
        clear(to: background)
    }

    /// Fills the pixel layer with `color` (made opaque) and empties the text layer.
    public func clear(to color: Color) {
        let fill = Color(r: color.r, g: color.g, b: color.b)
        pixels.withUnsafeMutableBufferPointer { buf in
            buf.update(repeating: fill)
        }
        if hasText {
            textCells.withUnsafeMutableBufferPointer { buf in
                buf.update(repeating: TextCell.empty)
            }
            hasText = false
        }
    }

    /// The pixel at `(x, y)`, or nil outside the canvas.
    public func pixel(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[y * width + x]
    }

    /// Blends `color` (with its own alpha) onto one pixel; outside the canvas it does nothing.
    public func blendPixel(x: Int, y: Int, color: Color) {
        guard x >= 0, y >= 0, x < width, y < height, color.a != 0 else { return }
        let i = y * width + x
        pixels[i] = PixelBlend.over(color, pixels[i], alpha: UInt32(color.a))
    }

    /// The character drawn into a cell of the text layer and its colour, or nil when the cell
    /// shows only pixels.
    public func text(column: Int, row: Int) -> (character: Unicode.Scalar, color: Color)? {
        guard column >= 0, row >= 0, column < columns, row < rows else { return nil }
        let cell = textCells[row * columns + column]
        guard cell.scalar != 0, let s = Unicode.Scalar(cell.scalar) else { return nil }
        return (s, cell.color)
    }

    var opaqueBackground: Color { Color(r: background.r, g: background.g, b: background.b) }
}

/// One cell of the text layer, resolved against the pixels beneath only when the frame is
/// composed, so pixels drawn after the text still show under it.
struct TextCell: Equatable {
    /// Unicode scalar value, 0 when the cell has no character.
    var scalar: UInt32
    /// Glyph colour; its alpha already includes the node's alpha.
    var color: Color
    /// Cell background painted over the pixels; alpha 0 lets the pixels show.
    var background: Color

    static let empty = TextCell(scalar: 0, color: .clear, background: .clear)
}
