import ArcadeCore

/// One terminal cell as it will be shown: a character with its foreground and background.
///
/// Pixel cells use the half-block characters: `▀` shows the top pixel in the foreground and
/// the bottom pixel in the background, a space shows one colour in the background. Several
/// spellings look the same on screen (`▄` with the colours swapped, `█` in the foreground), so
/// compare what a cell *shows* with ``appearance``. The encoder picks `▀` or `▄`, whichever
/// needs fewer colour changes, and always writes a cell of one colour as a space on that
/// background, so text copied off the screen has spaces between its words.
public struct Cell: Hashable, Sendable {
    /// The character drawn in the cell.
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
