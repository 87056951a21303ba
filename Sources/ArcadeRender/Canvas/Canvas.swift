import ArcadeCore
import CRaster

/// The drawing surface of one frame: pixels and terminal glyphs, composed in the order they
/// are drawn.
///
/// A terminal of `columns x rows` cells shows `columns x 2*rows` square pixels, because each
/// cell is drawn as two stacked half blocks. Pixels are opaque 24-bit colours; everything
/// drawn is alpha-blended onto them. Text puts one glyph in a cell (a wide one in two), over
/// the pixels drawn before it. A cell cannot show a glyph and a half block at once, so whatever is drawn later
/// decides per cell: a shape drawn over a glyph cell after the text hides the glyph where it
/// covers either of the cell's pixels at least half opaque, and tints it where it is fainter
/// (a dimming overlay dims the text under it too). Text drawn later simply goes on top.
///
/// Drawing can be limited to a rectangle of pixels with ``pushClip(minX:minY:maxX:maxY:)``.
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

    /// Row-major, `width * height`, always opaque. Owned by the canvas (freed in `deinit`):
    /// every primitive drawn reaches it directly, with none of an array's uniqueness checks.
    @exclusivity(unchecked) var pixels: UnsafeMutableBufferPointer<Color>
    /// Row-major, `columns * rows`.
    @exclusivity(unchecked) var textCells: [TextCell]
    /// Scratch for ``blitSprite(_:transform:alpha:tint:)``: source column per canvas column
    /// (`width` entries, owned like ``pixels``).
    @exclusivity(unchecked) var columnMap: UnsafeMutablePointer<Int32>
    /// False until a glyph is drawn after a clear, so composing skips the text pass entirely
    /// and shapes skip the glyph checks.
    @exclusivity(unchecked) var hasText = false
    /// Per cell row, the lowest and highest column that may hold a glyph (`lo > hi`: none), so
    /// a shape only checks for glyphs beneath it on rows where there can be some.
    @exclusivity(unchecked) var glyphSpans: [GlyphSpan]
    /// Numbers the draws, so several pixels of one draw over one glyph cell count once.
    @exclusivity(unchecked) var drawSerial: UInt32 = 0
    /// The pixels drawing may touch, inclusive; the whole canvas unless a clip is pushed.
    @exclusivity(unchecked) var clip: PixelBounds {
        didSet { refreshBlitTarget() }
    }
    #if arch(x86_64)
    /// Where the sprite kernel draws (``blitUnturned(_:transform:anchor:alpha:)``): the
    /// buffers and the clip as the kernel reads them, kept up to date with both.
    /// Owned by the canvas, so drawing passes the kernel one pointer that never moves.
    let blitTarget = UnsafeMutablePointer<arcade_blit_target>.allocate(capacity: 1)
    #endif
    /// Clips saved by ``pushClip(minX:minY:maxX:maxY:)``.
    @exclusivity(unchecked) var savedClips: [PixelBounds] = []
    /// Scratch for the glyphs of one line of text that is not all ASCII.
    @exclusivity(unchecked) var glyphScratch: [UInt32] = []
    /// Scratch for ``drawPolygon(_:transform:fill:stroke:lineWidth:alpha:)``.
    @exclusivity(unchecked) var polygonScratch = PolygonScratch()
    /// Where the numbers of the glyphs of several code points drawn here come from: the
    /// host's store unless a game's canvas is given its own (``GlyphStore/forGame()``).
    public var glyphStore = GlyphStore.shell

    /// A canvas of the given size in cells, cleared to `background`.
    public init(columns: Int, rows: Int, background: Color = .black) {
        let cols = max(0, columns)
        let rws = max(0, rows)
        self.columns = cols
        self.rows = rws
        self.background = Color(r: background.r, g: background.g, b: background.b)
        pixels = Canvas.allocatePixels(cols * rws * 2, filledWith: self.background)
        columnMap = .allocate(capacity: cols + Canvas.lanePadding)
        textCells = Array(repeating: TextCell.empty, count: cols * rws)
        glyphSpans = Array(repeating: GlyphSpan.none, count: rws)
        clip = PixelBounds(columns: cols, rows: rws)
        refreshBlitTarget()
    }

    deinit {
        pixels.deallocate()
        columnMap.deallocate()
        #if arch(x86_64)
        blitTarget.deallocate()
        #endif
    }

    private static func allocatePixels(_ count: Int, filledWith color: Color) -> UnsafeMutableBufferPointer<Color> {
        // `lanePadding` pixels past the end: a sprite row drawn in eight lanes may read and
        // rewrite (unchanged) up to seven pixels after the canvas's last one.
        let buffer = UnsafeMutableBufferPointer<Color>.allocate(capacity: count + Canvas.lanePadding)
        buffer.initialize(repeating: color)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
    }

    /// Extra entries after the pixels and the column map, for the blit's lanes.
    static let lanePadding = 8

    /// Width in pixels (one per column).
    @inlinable public var width: Int { columns }
    /// Height in pixels (two per row).
    @inlinable public var height: Int { rows * 2 }

    /// Changes the size (a terminal resize) and clears, dropping any clip. Storage is reused
    /// when it shrinks.
    public func resize(columns: Int, rows: Int) {
        let cols = max(0, columns)
        let rws = max(0, rows)
        guard cols != self.columns || rws != self.rows else {
            clear()
            return
        }
        self.columns = cols
        self.rows = rws
        pixels.deallocate()
        pixels = Canvas.allocatePixels(cols * rws * 2, filledWith: opaqueBackground)
        columnMap.deallocate()
        columnMap = .allocate(capacity: cols + Canvas.lanePadding)
        textCells = Array(repeating: TextCell.empty, count: cols * rws)
        glyphSpans = Array(repeating: GlyphSpan.none, count: rws)
        hasText = false
        clip = PixelBounds(columns: cols, rows: rws)
        savedClips.removeAll()
    }

    /// Brings ``blitTarget`` up to date with the buffers and the clip.
    private func refreshBlitTarget() {
        #if arch(x86_64)
        let (x0, y0, x1, y1) = (Double(clip.x0), Double(clip.y0), Double(clip.x1), Double(clip.y1))
        blitTarget.initialize(to: arcade_blit_target(
            clip_low: SIMD2(x0, y0), clip_low_before: SIMD2(x0 - 1, y0 - 1), clip_high: SIMD2(x1, y1),
            clip_high_past: SIMD2(x1 + 1, y1 + 1),
            pixels: UnsafeMutableRawPointer(pixels.baseAddress!).assumingMemoryBound(to: UInt32.self),
            stride: Int64(width), columns: columnMap, bias: Canvas.sampleBias,
            shuffles: kernelBuild.build))
        #endif
    }

    /// Which build of the sprite kernel draws here: the fastest this CPU runs, unless a test
    /// picks another to check that every build draws the same pixels.
    var kernelBuild = KernelBuild.fastest {
        didSet { refreshBlitTarget() }
    }

    /// Fills the pixel layer with ``background`` and empties the text layer.
    public func clear() {
        clear(to: background)
    }

    /// Fills the pixel layer with `color` (made opaque) and empties the text layer. The
    /// whole canvas, whatever the clip.
    public func clear(to color: Color) {
        let fill = Color(r: color.r, g: color.g, b: color.b)
        #if arch(x86_64)
        arcade_fill_pixels(UnsafeMutableRawPointer(pixels.baseAddress!).assumingMemoryBound(to: UInt32.self),
                           Int64(pixels.count), unsafeBitCast(fill, to: UInt32.self))
        #else
        pixels.update(repeating: fill)
        #endif
        if hasText {
            // Every cell holding a glyph, or anything a glyph's cover left, lies in its row's
            // span of glyphs: only those are cleared (a HUD line, not the whole screen).
            let cols = columns
            glyphSpans.withUnsafeMutableBufferPointer { spans in
                textCells.withUnsafeMutableBufferPointer { cells in
                    for row in spans.indices {
                        let span = spans[row]
                        guard span.lo <= span.hi else { continue }
                        let first = row &* cols &+ span.lo
                        UnsafeMutableBufferPointer(rebasing: cells[first...(row &* cols &+ span.hi)])
                            .update(repeating: TextCell.empty)
                        spans[row] = GlyphSpan.none
                    }
                }
            }
            hasText = false
        }
    }

    /// The pixel at `(x, y)`, or nil outside the canvas.
    public func pixel(x: Int, y: Int) -> Color? {
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        return pixels[y * width + x]
    }

    /// Blends `color` (with its own alpha) onto one pixel; outside the canvas or the clip it
    /// does nothing. Like any shape, it covers a glyph in that pixel's cell.
    public func blendPixel(x: Int, y: Int, color: Color) {
        guard x >= clip.x0, y >= clip.y0, x <= clip.x1, y <= clip.y1, color.a != 0 else { return }
        let i = y * width + x
        pixels[i] = PixelBlend.over(color, pixels[i], alpha: UInt32(color.a))
        guard hasText else { return }
        drawSerial &+= 1
        let cell = (y >> 1) * columns + x
        let serial = drawSerial
        if textCells[cell].scalar != 0 {
            textCells.withUnsafeMutableBufferPointer { Canvas.coverGlyph($0, cell, color, weight: UInt32(color.a), serial: serial) }
        }
    }

    /// The glyph a cell shows and its colour (blended over the pixels beneath it, and under
    /// anything fainter drawn over it since), or nil when the cell shows only pixels or is the
    /// right half of a wide glyph. `character` is the cell's value (see ``Cell/character``),
    /// `text` the glyph's code points.
    public func text(column: Int, row: Int) -> (character: Unicode.Scalar, text: String, color: Color)? {
        guard column >= 0, row >= 0, column < columns, row < rows else { return nil }
        var cell = textCells[row * columns + column]
        cell.settle()
        guard cell.scalar != 0, cell.scalar != GlyphStore.continuation, let s = Unicode.Scalar(cell.scalar) else { return nil }
        return (s, GlyphStore.isStored(s.value) ? GlyphStore.text(of: s.value) ?? "" : String(s), cell.color)
    }

    var opaqueBackground: Color { Color(r: background.r, g: background.g, b: background.b) }

    // MARK: - Clipping

    /// Limits drawing (shapes, sprites, text, single pixels; not ``clear()``) to the pixels
    /// whose centres lie in `[minX, maxX) x [minY, maxY)`, within the current clip, until the
    /// matching ``popClip()``. A glyph is drawn only in a cell whose two pixels are both inside.
    public func pushClip(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        savedClips.append(clip)
        if let (x0, x1) = Canvas.pixelRange(minX, maxX, min: clip.x0, max: clip.x1, exact: true),
           let (y0, y1) = Canvas.pixelRange(minY, maxY, min: clip.y0, max: clip.y1, exact: true) {
            clip = PixelBounds(x0: x0, y0: y0, x1: x1, y1: y1)
        } else {
            clip = PixelBounds(x0: 0, y0: 0, x1: -1, y1: -1)
        }
    }

    /// Restores the clip saved by the last ``pushClip(minX:minY:maxX:maxY:)``; false when
    /// none was pushed.
    @discardableResult public func popClip() -> Bool {
        guard let last = savedClips.popLast() else { return false }
        clip = last
        return true
    }

    /// True when a draw over pixel row `y`, columns `x0...x1`, may land on a glyph (callers
    /// check ``hasText`` first, once per draw).
    @inline(__always) func mayCoverGlyphs(x0: Int, x1: Int, pixelRow y: Int) -> Bool {
        let span = glyphSpans[y >> 1]
        return span.lo <= x1 && span.hi >= x0
    }
}

/// An inclusive rectangle of pixels; empty when `x0 > x1` or `y0 > y1`.
struct PixelBounds: Equatable {
    var x0: Int
    var y0: Int
    var x1: Int
    var y1: Int

    init(x0: Int, y0: Int, x1: Int, y1: Int) {
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
    }

    /// The whole canvas of `columns x rows` cells.
    init(columns: Int, rows: Int) {
        self.init(x0: 0, y0: 0, x1: columns - 1, y1: 2 * rows - 1)
    }
}

/// The columns of one cell row that may hold glyphs.
struct GlyphSpan {
    var lo: Int
    var hi: Int

    static let none = GlyphSpan(lo: Int.max, hi: Int.min)
}

/// One cell of the text layer: a glyph (or the right half of a wide one) whose colour was resolved against the pixels beneath
/// it when it was drawn, and what has been drawn over it since.
struct TextCell: Equatable {
    /// A code point, a ``GlyphStore`` number, ``GlyphStore/continuation`` for the right half
    /// of the wide glyph in the cell before it, or 0 when the cell shows no glyph.
    var scalar: UInt32
    /// The glyph's colour as seen, opaque.
    var color: Color
    /// The strongest colour the latest draw over this cell put on its pixels, with that
    /// draw's weight (0...255) as alpha; applied to the glyph by ``settle()``.
    var cover: Color
    /// The draw that `cover` came from.
    var coverSerial: UInt32

    static let empty = TextCell(scalar: 0, color: .clear, cover: .clear, coverSerial: 0)

    /// Values from this up may be half of a wide glyph (no wide character comes before
    /// U+1100; stored glyphs and the right-half mark come after it).
    static let firstWide: UInt32 = 0x1100

    /// Weights from this up hide the glyph: the shape over it is the top-most thing there.
    static let hidingWeight: UInt32 = 128

    /// Records one pixel of draw `serial` landing on this cell with `color` at `weight`. A
    /// draw's pixels count once per cell, with the strongest of them.
    @inline(__always) mutating func cover(_ color: Color, weight: UInt32, serial: UInt32) {
        if weight >= TextCell.hidingWeight {
            self = .empty
            return
        }
        if coverSerial != serial || cover.a == 0 {
            settle()
            cover = Color(r: color.r, g: color.g, b: color.b, a: UInt8(weight))
            coverSerial = serial
        } else if weight > UInt32(cover.a) {
            cover = Color(r: color.r, g: color.g, b: color.b, a: UInt8(weight))
        }
    }

    /// Applies the pending cover to the glyph colour.
    @inline(__always) mutating func settle() {
        guard cover.a != 0 else { return }
        color = PixelBlend.over(cover, color, alpha: UInt32(cover.a))
        cover = .clear
    }
}

/// The builds of the canvas's sprite kernel (``arcade_blit_unturned``), which all draw the
/// same pixels: for any x86-64 CPU (SSE2), for CPUs with SSSE3's byte shuffles, and for CPUs
/// with AVX2's wide vectors.
enum KernelBuild: CaseIterable, Sendable {
    case sse2, ssse3, avx2

    /// The fastest build this CPU runs.
    static let fastest: KernelBuild = {
        #if arch(x86_64)
        switch arcade_blit_fastest() {
        case Int32(ARCADE_BLIT_AVX2): return .avx2
        case Int32(ARCADE_BLIT_SSSE3): return .ssse3
        default: return .sse2
        }
        #else
        return .sse2
        #endif
    }()

    /// True when this CPU runs the build.
    var runsHere: Bool {
        switch self {
        case .sse2: true
        case .ssse3: KernelBuild.fastest != .sse2
        case .avx2: KernelBuild.fastest == .avx2
        }
    }

    #if arch(x86_64)
    /// The build as ``arcade_blit_target``'s `shuffles` names it.
    var build: Int32 {
        switch self {
        case .sse2: Int32(ARCADE_BLIT_SSE2)
        case .ssse3: Int32(ARCADE_BLIT_SSSE3)
        case .avx2: Int32(ARCADE_BLIT_AVX2)
        }
    }
    #endif
}
