import ArcadeCore
import ArcadeRender

/// A picture: `width` x `height` pixels, row-major, each `0xRRGGBB`.
public struct Picture: Hashable, Sendable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt32]

    /// A picture filled with `color`.
    public init(width: Int, height: Int, color: UInt32 = 0) {
        self.width = max(0, width)
        self.height = max(0, height)
        pixels = Array(repeating: color, count: self.width * self.height)
    }

    /// The pixel at `x`, `y` as `0xRRGGBB`.
    public subscript(x: Int, y: Int) -> UInt32 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The picture of `frame`: each cell 8x16 pixels (``CellPainter``), each pixel `scale`
    /// x `scale`.
    public init(frame: Frame, scale: Int = 1, painter: CellPainter = CellPainter()) {
        let s = max(1, scale)
        self.init(width: frame.columns * CellPainter.cellWidth * s, height: frame.rows * CellPainter.cellHeight * s)
        let w = width
        pixels.withUnsafeMutableBufferPointer { b in
            guard let base = b.baseAddress else { return }
            painter.paint(frame, columns: 0..<frame.columns, rows: 0..<frame.rows, scale: s, into: base, stride: w,
                          value: Picture.rgb)
        }
    }

    /// `color` as `0xRRGGBB` (its alpha ignored: frames are opaque).
    @inlinable public static func rgb(_ color: Color) -> UInt32 {
        UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)
    }

    /// The picture as a PNG file's bytes.
    public func png() -> [UInt8] {
        PNGWriter.encode(self)
    }
}
