import ArcadeCore

/// One terminal cell as it will be shown: a character with its foreground and background.
///
/// A wide glyph (CJK, an emoji) takes two cells: the first holds the glyph, the second is
/// ``continuation``, its right half, and shows nothing of its own. A glyph of several code
/// points (a letter with its accents, an emoji sequence) is held as one number of
/// ``GlyphStore``, a code point of plane 16's private use area; ``text`` reads it back.
///
/// Pixel cells use the half-block characters: `▀` shows the top pixel in the foreground and
/// the bottom pixel in the background, a space shows one colour in the background. Several
/// spellings look the same on screen (`▄` with the colours swapped, `█` in the foreground), so
/// compare what a cell *shows* with ``appearance``. The encoder picks `▀` or `▄`, whichever
/// needs fewer colour changes, and writes a cell of one colour as a space on that background,
/// so text copied off the screen has spaces between its words; only where a pass of its
/// colour grouping, with the cell's colour as the foreground, crosses the cell on its way
/// may it write `█` instead.
public struct Cell: Hashable, Sendable {
    /// The character drawn in the cell: a code point, the number of a glyph of several code
    /// points, or ``continuation``.
    public var character: Unicode.Scalar
    /// Foreground (glyph) colour, opaque.
    public var foreground: Color
    /// Background colour, opaque.
    public var background: Color

    /// A cell from its three parts.
    @inlinable public init(character: Unicode.Scalar, foreground: Color, background: Color) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }

    /// A pixel cell showing `top` over `bottom`, spelled the way the compositor does: a space
    /// when both are equal, else `▀`.
    @inlinable public init(top: Color, bottom: Color) {
        if top == bottom {
            self.init(character: " ", foreground: top, background: top)
        } else {
            self.init(character: Cell.upperHalf, foreground: top, background: bottom)
        }
    }

    // Computed rather than stored: a stored static would go through its lazy initialiser
    // on every use, and these are compared once per cell per frame.

    /// `▀` U+2580: foreground on top, background below.
    @inlinable public static var upperHalf: Unicode.Scalar { "\u{2580}" }
    /// `▄` U+2584: background on top, foreground below.
    @inlinable public static var lowerHalf: Unicode.Scalar { "\u{2584}" }
    /// `█` U+2588: foreground in both halves.
    @inlinable public static var fullBlock: Unicode.Scalar { "\u{2588}" }
    /// U+10FFFF, a noncharacter: the right half of the wide glyph in the cell before.
    @inlinable public static var continuation: Unicode.Scalar { "\u{10FFFF}" }

    /// True for the right half of a wide glyph.
    @inlinable public var isContinuation: Bool { character.value == 0x10_FFFF }

    /// True when the glyph takes this cell and the next.
    public var isWide: Bool { GlyphStore.isWide(character.value) }

    /// The code points the cell shows: its glyph's, nothing for the right half of a wide
    /// glyph (the left half shows it all).
    public var text: String {
        let v = character.value
        if v == GlyphStore.continuation { return "" }
        if GlyphStore.isStored(v) { return GlyphStore.text(of: v) ?? "" }
        return String(character)
    }

    /// What the cell shows on screen.
    @inlinable public var appearance: CellAppearance {
        switch character {
        case " ": .pixels(top: background, bottom: background)
        case Cell.upperHalf: .pixels(top: foreground, bottom: background)
        case Cell.lowerHalf: .pixels(top: background, bottom: foreground)
        case Cell.fullBlock: .pixels(top: foreground, bottom: foreground)
        default: .glyph(character, foreground: foreground, background: background)
        }
    }
}

/// What a ``Cell`` looks like, independent of how it is spelled.
public enum CellAppearance: Hashable, Sendable {
    /// Two stacked square pixels.
    case pixels(top: Color, bottom: Color)
    /// A text character.
    case glyph(Unicode.Scalar, foreground: Color, background: Color)
}
