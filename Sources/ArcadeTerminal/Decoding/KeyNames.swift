import ArcadeCore

/// The tables that turn terminal byte values and key numbers into the arcade's key names
/// (see `KeyEvent` for the vocabulary).
enum KeyNames {
    /// The name of every ASCII byte that is a key of its own, indexed by byte. Letters are
    /// lower case; the caller adds Shift for upper-case bytes. Built once so decoding a
    /// printable byte never builds a string.
    static let ascii: [String] = (0..<128).map { byte in
        switch byte {
        case 0x20: "space"
        case 0x41...0x5A: String(UnicodeScalar(UInt8(byte + 0x20)))
        case 0x21...0x7E: String(UnicodeScalar(UInt8(byte)))
        default: ""
        }
    }

    /// A plain single-byte key: control codes, space, letters, digits and punctuation.
    /// `nil` for ESC, which starts a sequence and is handled by the decoder.
    static func singleByte(_ byte: UInt8) -> KeyEvent? {
        switch byte {
        case 0x00: KeyEvent("space", modifiers: .ctrl)  // Ctrl+Space and Ctrl+@ both send NUL
        case 0x08, 0x7F: KeyEvent("backspace")  // terminals disagree which one Backspace sends
        case 0x09: KeyEvent("tab")
        case 0x0A, 0x0D: KeyEvent("enter")
        case 0x01...0x1A: KeyEvent(ascii[Int(byte) + 0x60], modifiers: .ctrl)
        case 0x1B: nil
        case 0x1C: KeyEvent("\\", modifiers: .ctrl)
        case 0x1D: KeyEvent("]", modifiers: .ctrl)
        case 0x1E: KeyEvent("^", modifiers: .ctrl)
        case 0x1F: KeyEvent("_", modifiers: .ctrl)
        case 0x41...0x5A: KeyEvent(ascii[Int(byte)], modifiers: .shift)
        case 0x20...0x7E: KeyEvent(ascii[Int(byte)])
        default: nil
        }
    }

    /// The key a `CSI number ~` sequence names (xterm, VTE, rxvt, the Linux console, kitty).
    static func tilde(_ number: Int) -> String? {
        switch number {
        case 1, 7: "home"  // 7 is rxvt's Home
        case 2: "insert"
        case 3: "delete"
        case 4, 8: "end"  // 8 is rxvt's End
        case 5: "pageup"
        case 6: "pagedown"
        case 11: "f1"
        case 12: "f2"
        case 13: "f3"
        case 14: "f4"
        case 15: "f5"
        case 17: "f6"
        case 18: "f7"
        case 19: "f8"
        case 20: "f9"
        case 21: "f10"
        case 23: "f11"
        case 24: "f12"
        default: nil
        }
    }

    /// The key a `CSI 1;m X` or `SS3 X` sequence names by its final byte.
    static func final(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "A"): "up"
        case UInt8(ascii: "B"): "down"
        case UInt8(ascii: "C"): "right"
        case UInt8(ascii: "D"): "left"
        case UInt8(ascii: "H"): "home"
        case UInt8(ascii: "F"): "end"
        case UInt8(ascii: "P"): "f1"
        case UInt8(ascii: "Q"): "f2"
        case UInt8(ascii: "R"): "f3"
        case UInt8(ascii: "S"): "f4"
        default: nil
        }
    }

    /// The key of an application-keypad `SS3` final (`SS3 j` ... `SS3 y`, `SS3 M`, `SS3 X`),
    /// named like the main-keyboard key it duplicates.
    static func keypad(_ byte: UInt8) -> String? {
        switch byte {
        case UInt8(ascii: "M"): "enter"
        case UInt8(ascii: "X"): "="
        case UInt8(ascii: "j")...UInt8(ascii: "o"):
            ["*", "+", ",", "-", ".", "/"][Int(byte - UInt8(ascii: "j"))]
        case UInt8(ascii: "p")...UInt8(ascii: "y"): ascii[Int(byte - UInt8(ascii: "p")) + 0x30]
        default: nil
        }
    }

    /// The key a kitty-protocol key number names (the number is a Unicode code point, or one
    /// of kitty's Private Use Area numbers for keys without one). Shift is added for an
    /// upper-case letter, which kitty should never send but costs nothing to accept.
    /// `nil` for keys outside the vocabulary (modifier keys alone, media keys, F13 and up).
    static func kitty(_ code: Int) -> KeyEvent? {
        switch code {
        case 9: KeyEvent("tab")
        case 13: KeyEvent("enter")
        case 27: KeyEvent("esc")
        case 8, 127: KeyEvent("backspace")
        case 0x20...0x7E: singleByte(UInt8(code))
        case 57399...57408: KeyEvent(ascii[code - 57399 + 0x30])  // KP_0 ... KP_9
        case 57409...57426: KeyEvent(kittyKeypad[code - 57409])
        case 0xE000...0xF8FF: nil  // the rest of the Private Use Area: keys we have no name for
        case 0x80...0x10FFFF:
            UnicodeScalar(UInt32(code)).flatMap { KeyEvent.printable(String(Character($0))) }
        default: nil
        }
    }

    /// kitty's KP_DECIMAL (57409) ... KP_DELETE (57426), named like the main-keyboard keys.
    private static let kittyKeypad: [String] = [
        ".", "/", "*", "-", "+", "enter", "=", ",",
        "left", "right", "up", "down", "pageup", "pagedown", "home", "end", "insert", "delete",
    ]

    /// The modifiers encoded in a key sequence's modifier parameter (`1 + bits`). Meta counts as
    /// Alt, since terminals configured to "send meta" mean the Alt key; Super, Hyper and the
    /// lock states are dropped because the vocabulary has no name for them.
    static func modifiers(parameter: Int) -> KeyModifiers {
        let bits = max(parameter - 1, 0)
        var result: KeyModifiers = []
        if bits & 1 != 0 { result.insert(.shift) }
        if bits & (2 | 32) != 0 { result.insert(.alt) }
        if bits & 4 != 0 { result.insert(.ctrl) }
        return result
    }

    /// The modifiers in an xterm mouse button code (bits 4, 8 and 16).
    static func mouseModifiers(_ code: Int) -> KeyModifiers {
        var result: KeyModifiers = []
        if code & 4 != 0 { result.insert(.shift) }
        if code & 8 != 0 { result.insert(.alt) }
        if code & 16 != 0 { result.insert(.ctrl) }
        return result
    }
}
