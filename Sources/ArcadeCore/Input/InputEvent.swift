/// Modifier keys held during a key or mouse event.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let ctrl = KeyModifiers(rawValue: 4)
}

/// A key press or release.
///
/// `key` is the key's name in the arcade's vocabulary: `a`...`z` (always lower case;
/// Shift is a modifier), `0`...`9`, `space`, `enter`, `esc`, `tab`, `backspace`, `up`,
/// `down`, `left`, `right`, `home`, `end`, `pageup`, `pagedown`, `insert`, `delete`,
/// `f1`...`f12`, a single printable punctuation character such as `-` or `+`, or any other
/// printable character as itself (`é`, `ж`, `中`; upper-case letters in lower case, with
/// Shift), as ``printable(_:modifiers:)`` names it.
public struct KeyEvent: Hashable, Sendable {
    public var key: String
    public var modifiers: KeyModifiers
    /// True for auto-repeat presses (when the terminal says so).
    public var isRepeat: Bool

    public init(_ key: String, modifiers: KeyModifiers = [], isRepeat: Bool = false) {
        self.key = key
        self.modifiers = modifiers
        self.isRepeat = isRepeat
    }
}

extension KeyEvent {
    /// The key a printable character other than space names (`é`, `ж`, `中`, `😀`): the
    /// character itself, except that an upper-case letter is its lower case with Shift, as
    /// for `a`-`z`. Nil for anything that is not one character, or whose first code point
    /// cannot start one on its own (a control, a combining mark, a format character, space).
    public static func printable(_ text: String, modifiers: KeyModifiers = []) -> KeyEvent? {
        guard text.count == 1, let first = text.unicodeScalars.first, first.value > 0x20 else { return nil }
        switch first.properties.generalCategory {
        case .control, .format, .surrogate, .unassigned, .nonspacingMark, .enclosingMark, .spacingMark,
             .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return nil
        default:
            break
        }
        let lower = first.properties.lowercaseMapping
        if text.unicodeScalars.count == 1, first.properties.isUppercase, lower.unicodeScalars.count == 1,
           lower.unicodeScalars.first!.properties.uppercaseMapping == text {
            return KeyEvent(lower, modifiers: modifiers.union(.shift))
        }
        return KeyEvent(text, modifiers: modifiers)
    }
}

/// What a mouse event reports.
public enum MouseAction: String, Hashable, Sendable {
    case press, release, drag, move, scrollUp = "scroll_up", scrollDown = "scroll_down"
}

/// Which mouse button an event concerns.
public enum MouseButton: String, Hashable, Sendable {
    case left, middle, right, none
}

/// A mouse event at a terminal cell (0-based column and row).
///
/// In canvas pixels the event is at `x = col`, `y = 2 * row` (a cell is two pixels tall).
public struct MouseEvent: Hashable, Sendable {
    public var action: MouseAction
    public var col: Int
    public var row: Int
    public var button: MouseButton
    public var modifiers: KeyModifiers

    public init(_ action: MouseAction, col: Int, row: Int, button: MouseButton = .left, modifiers: KeyModifiers = []) {
        self.action = action
        self.col = col
        self.row = row
        self.button = button
        self.modifiers = modifiers
    }

    /// The event's position in canvas pixels.
    public var pixel: Vec2 { Vec2(Double(col), Double(row * 2)) }
}

/// One decoded input event, from the terminal, an input script or a recording.
public enum InputEvent: Hashable, Sendable {
    case key(KeyEvent)
    case keyUp(KeyEvent)
    case mouse(MouseEvent)
    /// The terminal now has this many columns and rows.
    case resize(cols: Int, rows: Int)
}

extension InputEvent {
    /// `events` with all their resizes collapsed into one: the last size, at the place of the
    /// last resize. The other events keep their order. A step's input goes through this, as a
    /// terminal coalesces its window changes: a game lays itself out once per step, however
    /// many resizes a script, a recording or the terminal queued for it. Events between two
    /// of the resizes come before the one that is left, at the size the game had.
    public static func coalescingResizes(_ events: [InputEvent]) -> [InputEvent] {
        var last: Int?
        var count = 0
        for (i, event) in events.enumerated() {
            if case .resize = event {
                last = i
                count += 1
            }
        }
        guard count > 1, let last else { return events }
        var out: [InputEvent] = []
        out.reserveCapacity(events.count - count + 1)
        for (i, event) in events.enumerated() {
            if case .resize = event, i != last { continue }
            out.append(event)
        }
        return out
    }
}
