import ArcadeCore

/// A pixel-art image: `width x height` colours, row-major, alpha 0 meaning transparent.
///
/// Sprites are values; copies share storage, so a thousand coin nodes showing the same
/// sprite hold one pixel buffer.
public struct Sprite: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Row-major colours, `width * height` of them.
    public let pixels: [Color]
    /// The same pixels at an address that stays put for the sprite's lifetime, which a
    /// scene node can keep and draw from without taking a reference every frame.
    let storage: SpriteStorage

    /// A sprite from its pixels; `pixels.count` must be `width * height`.
    public init(width: Int, height: Int, pixels: [Color]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height, "sprite size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
        storage = SpriteStorage(pixels, width: width, height: height)
    }

    public static func == (lhs: Sprite, rhs: Sprite) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.pixels == rhs.pixels
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(pixels)
    }

    /// The pixels as the canvas reads them, valid while this sprite (or a copy) exists.
    var view: SpritePixels {
        SpritePixels(UnsafeBufferPointer(start: storage.base, count: width * height), width: width, height: height,
                     isOpaqueOrClear: storage.isOpaqueOrClear)
    }

    /// A sprite of one colour.
    public init(width: Int, height: Int, fill: Color) {
        self.init(width: max(0, width), height: max(0, height), pixels: Array(repeating: fill, count: max(0, width) * max(0, height)))
    }

    /// Pixel art written as text: each character of `rows` is one pixel, looked up in
    /// `palette`. `.` and space are always transparent. Short rows are padded with
    /// transparent pixels on the right, so trailing blanks may be left out.
    ///
    /// This is the shape the Lua layer passes: `{palette = {Y = "#ffcc00"}, rows = {...}}`.
    ///
    /// At most ``maximumSide`` pixels each way.
    public init(palette: [Character: Color], rows: [String]) throws(SpriteError) {
        for key in palette.keys where Sprite.isTransparentKey(key) {
            throw .reservedKey(key)
        }
        let width = rows.reduce(0) { max($0, $1.count) }
        guard width > 0 else { throw .empty }
        guard width <= Sprite.maximumSide, rows.count <= Sprite.maximumSide else {
            throw .tooLarge(width: width, height: rows.count)
        }
        var pixels = Array(repeating: Color.clear, count: width * rows.count)
        for (y, row) in rows.enumerated() {
            for (x, ch) in row.enumerated() where !Sprite.isTransparentKey(ch) {
                guard let color = palette[ch] else { throw .unknownKey(ch, row: y + 1, column: x + 1) }
                pixels[y * width + x] = color
            }
        }
        self.init(width: width, height: rows.count, pixels: pixels)
    }

    /// The colour at `(x, y)`; transparent outside the sprite.
    public subscript(x: Int, y: Int) -> Color {
        guard x >= 0, y >= 0, x < width, y < height else { return .clear }
        return pixels[y * width + x]
    }

    /// The largest width and height of pixel art made from rows (``init(palette:rows:)``),
    /// `.sprite` files and labels: far more than a terminal shows (a 300-column terminal is
    /// 300 pixels wide), and small enough that one image cannot take the arcade's memory.
    public static let maximumSide = 4096

    /// `.` and space: the characters pixel-art rows use for "nothing here".
    static func isTransparentKey(_ ch: Character) -> Bool {
        ch == "." || ch == " "
    }
}

/// Why pixel-art rows could not be turned into a ``Sprite``.
public enum SpriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No rows, or only empty ones.
    case empty
    /// A row uses a character the palette does not define (1-based row and column).
    case unknownKey(Character, row: Int, column: Int)
    /// The palette tries to give `.` or space a colour; they always mean transparent.
    case reservedKey(Character)
    /// Wider or taller than ``Sprite/maximumSide``.
    case tooLarge(width: Int, height: Int)

    /// The message, for the game author.
    public var description: String {
        switch self {
        case .empty:
            "sprite has no pixels"
        case .unknownKey(let ch, let row, let column):
            "row \(row), column \(column): '\(ch)' is not in the palette"
        case .reservedKey(let ch):
            "palette key '\(ch)' is reserved: '.' and ' ' are always transparent"
        case .tooLarge(let width, let height):
            "image of \(width) x \(height) pixels is too large (at most \(Sprite.maximumSide) x \(Sprite.maximumSide))"
        }
    }
}

/// A sprite's pixels in memory of its own, allocated once and freed with the last copy of
/// the sprite: an address that never moves, unlike an array's, which may only be borrowed.
final class SpriteStorage: @unchecked Sendable {
    // Immutable after init, so sharing it between threads is safe.
    let base: UnsafeMutablePointer<Color>
    /// See ``SpritePixels/isOpaqueOrClear``.
    let isOpaqueOrClear: Bool

    /// Clear pixels kept after the last row: the canvas's kernel loads a narrow sprite's
    /// row as four or eight pixels at once, past the end of a row narrower than that.
    static let padding = 8

    /// The kernel's view of the pixels drawn untinted, or nil when the kernel does not draw
    /// them (see ``KernelSprite``): what a still, untinted sprite node draws with. At an
    /// address that stays put while the storage lives, so a node keeps it as a pointer and
    /// drawing reads it with no reference count change.
    let kernel: UnsafeMutablePointer<KernelSprite>?

    init(_ pixels: [Color], width: Int, height: Int) {
        let base = UnsafeMutablePointer<Color>.allocate(capacity: pixels.count + SpriteStorage.padding)
        pixels.withUnsafeBufferPointer { src in
            if let from = src.baseAddress { base.initialize(from: from, count: src.count) }
        }
        (base + pixels.count).initialize(repeating: .clear, count: SpriteStorage.padding)
        self.base = base
        let isOpaqueOrClear = pixels.withUnsafeBufferPointer(SpritePixels.opaqueOrClear)
        self.isOpaqueOrClear = isOpaqueOrClear
        let view = SpritePixels(UnsafeBufferPointer(start: base, count: pixels.count), width: width, height: height,
                                isOpaqueOrClear: isOpaqueOrClear)
        if let sprite = KernelSprite(view, tint: .white) {
            kernel = .allocate(capacity: 1)
            kernel?.initialize(to: sprite)
        } else {
            kernel = nil
        }
    }

    deinit {
        kernel?.deallocate()
        base.deallocate()
    }
}
