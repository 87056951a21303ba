import ArcadeCore

/// A pixel font for titles and counters ("GAME OVER", "x 12"), drawn in the pixel layer so it
/// scales, rotates and fades like any sprite.
///
/// Two sizes ship: ``small`` (glyphs 3 x 5 pixels) and ``large`` (5 x 7). Both cover the
/// digits, `A`-`Z`, a lowercase `x` (the combo counter's "x 12"), `+ - ! ? : . /` and space;
/// other lowercase letters show as capitals. Glyphs sit one pixel apart; lines of a
/// multi-line string one pixel apart, centred unless told otherwise.
///
/// What the font has no glyph for (`é`, `火箭`, an emoji) shows as the terminal's own glyphs:
/// each run of such glyphs takes a box in the label as wide as its cells and as tall as a
/// glyph, and is drawn as terminal text centred in that box (``LabelFallback``).
public struct BlockFont: Hashable, Sendable {
    /// The name the Lua layer uses (`"small"`, `"large"`).
    public let name: String
    /// Glyph height in pixels.
    public let glyphHeight: Int
    /// Pixels between neighbouring glyphs and between lines.
    public let spacing: Int
    let glyphs: [UInt32: Glyph]

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
    }

    /// The built-in fonts by name, for the Lua layer.
    public static func named(_ name: String) -> BlockFont? {
        switch name {
        case BlockFont.small.name: BlockFont.small
        case BlockFont.large.name: BlockFont.large
        default: nil
        }
    }

    /// The glyph drawn for `scalar`, or nil when the font has none.
    func glyph(for scalar: Unicode.Scalar) -> Glyph? {
        if let g = glyphs[scalar.value] { return g }
        if scalar.properties.isLowercase, let upper = scalar.properties.uppercaseMapping.unicodeScalars.first,
           let g = glyphs[upper.value] {
            return g
        }
        return nil
    }

    /// What one line shows, left to right: font glyphs, and runs of terminal glyphs where the
    /// font has none (a control character counts as a space).
    enum Piece {
        case glyph(Glyph)
        /// Terminal text and the cells it takes.
        case run(String, Int)

        var width: Int {
            switch self {
            case .glyph(let g): g.width
            case .run(_, let cells): cells
            }
        }
    }

    func pieces(_ line: Substring) -> [Piece] {
        var out: [Piece] = []
        var glyphs = TextGlyphs(line.unicodeScalars)
        var run = String.UnicodeScalarView()
        var runCells = 0
        while let g = glyphs.next() {
            let first = g.isControl ? " " : g.first
            if g.count == 1, let glyph = glyph(for: first) {
                if runCells > 0 { out.append(.run(String(run), runCells)) }
                run.removeAll()
                runCells = 0
                out.append(.glyph(glyph))
            } else {
                run.append(contentsOf: glyphs.kept(g))
                runCells += g.width
            }
        }
        if runCells > 0 { out.append(.run(String(run), runCells)) }
        return out
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
        lineWidth(pieces(line))
    }

    func lineWidth(_ pieces: [Piece]) -> Int {
        pieces.isEmpty ? 0 : pieces.reduce(0) { $0 + $1.width } + (pieces.count - 1) * spacing
    }

    /// `text` as a sprite: glyph pixels in `color`, and when `outline` is not transparent a
    /// one-pixel ring of `outline` around every glyph pixel (diagonals included), which is how
    /// a counter stays readable over any background. Lines shorter than the widest are placed
    /// by `align`: 0 at the left, 0.5 centred, 1 at the right.
    public func render(_ text: String, color: Color, outline: Color = .clear, align: Double = 0.5) -> Sprite {
        let outlined = outline.a != 0
        let (width, height) = size(of: text, outlined: outlined)
        guard width > 0, height > 0 else { return Sprite(width: 0, height: 0, pixels: []) }
        var ink = Array(repeating: false, count: width * height)
        forEachPiece(of: text, width: width, outlined: outlined, align: align) { piece, x, y in
            guard case .glyph(let g) = piece else { return }
            for gy in 0..<glyphHeight {
                for gx in 0..<g.width where g.bits[gy * g.width + gx] {
                    ink[(y + gy) * width + x + gx] = true
                }
            }
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

    /// The runs of terminal glyphs in `text` (rendered as ``render(_:color:outline:align:)``
    /// does), each with the centre of its box in the sprite's pixels.
    public func fallbacks(in text: String, outlined: Bool, align: Double = 0.5) -> [LabelFallback] {
        let width = size(of: text, outlined: outlined).width
        var out: [LabelFallback] = []
        forEachPiece(of: text, width: width, outlined: outlined, align: align) { piece, x, y in
            guard case .run(let run, let cells) = piece else { return }
            out.append(LabelFallback(text: run, x: Double(x) + Double(cells) / 2, y: Double(y) + Double(glyphHeight) / 2))
        }
        return out
    }

    /// Calls `body` with every piece of `text` and its top-left pixel in a sprite `width`
    /// wide, lines placed by `align`.
    private func forEachPiece(of text: String, width: Int, outlined: Bool, align: Double,
                              _ body: (Piece, Int, Int) -> Void) {
        let border = outlined ? 1 : 0
        var y = border
        let inner = width - 2 * border
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let pieces = pieces(line)
            var x = border + Canvas.lineOffset(align: min(max(align, 0), 1), spare: inner - lineWidth(pieces))
            for piece in pieces {
                body(piece, x, y)
                x += piece.width + spacing
            }
            y += glyphHeight + spacing
        }
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
