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
            if let glyph = fontGlyph(g) {
                if runCells > 0 { out.append(.run(String(run), runCells)) }
                run.removeAll()
                runCells = 0
                out.append(.glyph(glyph))
            } else {
                glyphs.appendKept(g, to: &run)
                runCells += g.width
            }
        }
        if runCells > 0 { out.append(.run(String(run), runCells)) }
        return out
    }

    /// The font's glyph for `g` when it has one (a control character counts as a space).
    private func fontGlyph(_ g: TextGlyph) -> Glyph? {
        g.count == 1 ? glyph(for: g.isControl ? " " : g.first) : nil
    }

    /// The lines of `text`: split at each `\n` that is a character of its own (a `\r\n` is one
    /// character, so it does not split), as `split(separator: "\n")` splits a string.
    static func lines(_ text: String) -> [Substring] {
        var out: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var previous: Unicode.Scalar = " "
        var i = start
        while i < scalars.endIndex {
            let s = scalars[i]
            if s == "\n" && previous != "\r" {
                out.append(Substring(scalars[start..<i]))
                start = scalars.index(after: i)
            }
            previous = s
            scalars.formIndex(after: &i)
        }
        out.append(Substring(scalars[start..<scalars.endIndex]))
        return out
    }

    /// Width and height in pixels of `text`, including a one-pixel border when `outlined`.
    public func size(of text: String, outlined: Bool = false) -> (width: Int, height: Int) {
        switch measure(text, outlined: outlined, limit: .max, stop: { false }) {
        case .size(let w, let h), .tooLarge(let w, let h): (w, h)
        case .stopped: (0, 0)
        }
    }

    /// What measuring a label's text found (``measure(_:outlined:limit:stop:)``).
    public enum Measure: Equatable, Sendable {
        /// Its width and height in pixels.
        case size(width: Int, height: Int)
        /// It is wider or taller than the limit: measuring stopped there. The sizes are at
        /// least this much (the side over the limit is over it; the other may be larger).
        case tooLarge(width: Int, height: Int)
        /// `stop` said to stop before the measuring was done.
        case stopped
    }

    /// Measures `text` as ``size(of:outlined:)`` does, without building anything, and stops
    /// as soon as a side is over `limit` pixels: a text far too large for a label is refused
    /// after the part of it that already is. `stop` is asked every few hundred glyphs (a
    /// deadline that may have passed, say) and ends the measuring when it says true.
    public func measure(_ text: String, outlined: Bool = false, limit: Int, stop: () -> Bool) -> Measure {
        let border = outlined ? 2 : 0
        var width = 0
        var lines = 0
        var countdown = BlockFont.glyphsBetweenStops
        var glyphs = TextGlyphs(text)
        var lineWidth = 0, pieces = 0, inRun = false
        let scalars = text.unicodeScalars
        func height(_ lines: Int) -> Int { lines * glyphHeight + (lines - 1) * spacing + border }
        while true {
            let next = glyphs.next()
            countdown -= 1
            if countdown == 0 {
                countdown = BlockFont.glyphsBetweenStops
                if stop() { return .stopped }
            }
            // a newline ends the line unless it ends a "\r\n" (one character, as for `lines`)
            if let g = next, !g.isNewline || (g.start > scalars.startIndex && scalars[scalars.index(before: g.start)] == "\r") {
                // a piece more at each font glyph and at the first cell of each run of others
                if let font = fontGlyph(g) {
                    lineWidth += font.width
                    pieces += 1
                    inRun = false
                } else if g.width > 0 {
                    if !inRun { pieces += 1 }
                    inRun = true
                    lineWidth += g.width
                }
                if lineWidth + max(pieces - 1, 0) * spacing + border > limit {
                    return .tooLarge(width: max(width, lineWidth + (pieces - 1) * spacing) + border, height: height(lines + 1))
                }
                continue
            }
            // the end of a line
            lines += 1
            width = max(width, pieces == 0 ? 0 : lineWidth + (pieces - 1) * spacing)
            if height(lines) > limit { return .tooLarge(width: width + border, height: height(lines)) }
            guard next != nil else { break }
            lineWidth = 0
            pieces = 0
            inRun = false
        }
        return .size(width: width + border, height: height(lines))
    }

    /// How many glyphs ``measure(_:outlined:limit:stop:)`` measures between two questions to
    /// its `stop`.
    static let glyphsBetweenStops = 512

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
        for line in BlockFont.lines(text) {
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
