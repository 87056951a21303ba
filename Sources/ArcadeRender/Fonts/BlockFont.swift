import ArcadeCore

/// A pixel font for titles and counters ("GAME OVER", "x 12"), drawn in the pixel layer so it
/// scales, rotates and fades like any sprite.
///
/// Two sizes ship: ``small`` (glyphs 3 x 5 pixels) and ``large`` (5 x 7). Both cover the
/// digits, `A`-`Z`, a lowercase `x` (the combo counter's "x 12"), `+ - ! ? : . /` and space;
/// other lowercase letters show as capitals and anything else as `?`. Glyphs sit one pixel
/// apart; lines of a multi-line string one pixel apart, centred unless told otherwise.
public struct BlockFont: Hashable, Sendable {
    /// The name the Lua layer uses (`"small"`, `"large"`).
    public let name: String
    /// Glyph height in pixels.
    public let glyphHeight: Int
    /// Pixels between neighbouring glyphs and between lines.
    public let spacing: Int
    let glyphs: [UInt32: Glyph]
    let fallback: Glyph

    /// One character's pixels.
    struct Glyph: Hashable, Sendable {
        let width: Int
        /// Row-major, `width * glyphHeight`.
        let bits: [Bool]
    }

    /// Builds a font from glyph drawings: `#` is ink, anything else is blank. Every drawing has
    /// `glyphHeight` rows of equal width.
    init(name: String, spacing: Int = 1, drawings: [(Character, [String])]) {
        let height = drawings.first?.1.count ?? 0
        var glyphs: [UInt32: Glyph] = [:]
        for (ch, rows) in drawings {
            precondition(rows.count == height, "glyph '\(ch)' has \(rows.count) rows, expected \(height)")
            let width = rows.first?.count ?? 0
            var bits: [Bool] = []
            bits.reserveCapacity(width * height)
            for row in rows {
                precondition(row.count == width, "glyph '\(ch)' has rows of different widths")
                bits.append(contentsOf: row.map { $0 == "#" })
            }
            for scalar in ch.unicodeScalars {
                glyphs[scalar.value] = Glyph(width: width, bits: bits)
            }
        }
        self.name = name
        self.glyphHeight = height
        self.spacing = spacing
        self.glyphs = glyphs
        self.fallback = glyphs[UInt32(("?" as Unicode.Scalar).value)] ?? Glyph(width: 0, bits: [])
    }

    /// The built-in fonts by name, for the Lua layer.
    public static func named(_ name: String) -> BlockFont? {
        switch name {
        case BlockFont.small.name: BlockFont.small
        case BlockFont.large.name: BlockFont.large
        default: nil
        }
    }

    /// The glyph drawn for `scalar`.
    func glyph(for scalar: Unicode.Scalar) -> Glyph {
        if let g = glyphs[scalar.value] { return g }
        if scalar.properties.isLowercase, let upper = scalar.properties.uppercaseMapping.unicodeScalars.first,
           let g = glyphs[upper.value] {
            return g
        }
        return fallback
    }

    /// Width and height in pixels of `text`, including a one-pixel border when `outlined`.
    public func size(of text: String, outlined: Bool = false) -> (width: Int, height: Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var width = 0
        for line in lines { width = max(width, lineWidth(line)) }
        let height = lines.count * glyphHeight + (lines.count - 1) * spacing
        let border = outlined ? 2 : 0
        return (width + border, height + border)
    }

    func lineWidth(_ line: Substring) -> Int {
        var w = 0
        var n = 0
        for s in line.unicodeScalars {
            w += glyph(for: s).width
            n += 1
        }
        return n == 0 ? 0 : w + (n - 1) * spacing
    }

    /// `text` as a sprite: glyph pixels in `color`, and when `outline` is not transparent a
    /// one-pixel ring of `outline` around every glyph pixel (diagonals included), which is how
    /// a counter stays readable over any background. Lines shorter than the widest are placed
    /// by `align`: 0 at the left, 0.5 centred, 1 at the right.
    public func render(_ text: String, color: Color, outline: Color = .clear, align: Double = 0.5) -> Sprite {
        let outlined = outline.a != 0
        let (width, height) = size(of: text, outlined: outlined)
        guard width > 0, height > 0 else { return Sprite(width: 0, height: 0, pixels: []) }
        let border = outlined ? 1 : 0
        var ink = Array(repeating: false, count: width * height)
        var y = border
        let inner = width - 2 * border
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var x = border + Canvas.lineOffset(align: min(max(align, 0), 1), spare: inner - lineWidth(line))
            for s in line.unicodeScalars {
                let g = glyph(for: s)
                for gy in 0..<glyphHeight {
                    for gx in 0..<g.width where g.bits[gy * g.width + gx] {
                        ink[(y + gy) * width + x + gx] = true
                    }
                }
                x += g.width + spacing
            }
            y += glyphHeight + spacing
        }
        var pixels = Array(repeating: Color.clear, count: width * height)
        for py in 0..<height {
            for px in 0..<width {
                if ink[py * width + px] {
                    pixels[py * width + px] = color
                } else if outlined && BlockFont.touchesInk(ink, x: px, y: py, width: width, height: height) {
                    pixels[py * width + px] = outline
                }
            }
        }
        return Sprite(width: width, height: height, pixels: pixels)
    }

    static func touchesInk(_ ink: [Bool], x: Int, y: Int, width: Int, height: Int) -> Bool {
        for ny in max(0, y - 1)...min(height - 1, y + 1) {
            for nx in max(0, x - 1)...min(width - 1, x + 1) where ink[ny * width + nx] {
                return true
            }
        }
        return false
    }
}
