/// JSON string literals, written in one place for all the JSON the arcade writes:
/// ``LuaValue/json(pretty:)`` (`--state`, messages), the save database's values and the
/// asciicast recordings' events.
public enum JSONString {
    /// How control characters are written.
    public enum Escapes: Sendable {
        /// `\n`, `\r` and `\t` as such, the other C0 controls as `\u00XX`, DEL as it is.
        case short
        /// Every C0 control and DEL as `\u00XX` (asciicast v2, as asciinema writes it).
        case unicode
    }

    /// Appends `bytes` as the inside of a JSON string: `"` and `\` escaped, control
    /// characters as `escapes` says, well-formed UTF-8 as it is and any other byte as U+FFFD.
    public static func append(_ bytes: UnsafeBufferPointer<UInt8>, escapes: Escapes = .short, to out: inout [UInt8]) {
        // runs of bytes that need no escaping (most of any text) are copied in one go
        var run = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b >= 0x20 && b < 0x7F && b != quote && b != backslash {
                i += 1
                continue
            }
            if b >= 0x80, case let length = validSequenceLength(bytes, at: i), length > 0 {
                i += length
                continue
            }
            if b == 0x7F && escapes == .short {
                i += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<i]))
            switch b {
            case quote, backslash: out += [backslash, b]
            case 0x0A where escapes == .short: out += [backslash, UInt8(ascii: "n")]
            case 0x0D where escapes == .short: out += [backslash, UInt8(ascii: "r")]
            case 0x09 where escapes == .short: out += [backslash, UInt8(ascii: "t")]
            case 0..<0x20, 0x7F:
                out.append(contentsOf: "\\u00".utf8)
                out.append(hexDigits[Int(b >> 4)])
                out.append(hexDigits[Int(b & 0xF)])
            default:
                out += [0xEF, 0xBF, 0xBD]  // U+FFFD for a byte that is not UTF-8
            }
            i += 1
            run = i
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run...]))
    }

    /// Appends `text` as a JSON string literal, quotes included.
    public static func appendQuoted(_ text: String, escapes: Escapes = .short, to out: inout [UInt8]) {
        var text = text
        out.append(quote)
        text.withUTF8 { append($0, escapes: escapes, to: &out) }
        out.append(quote)
    }

    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String, escapes: Escapes = .short) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, escapes: escapes, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The length of the well-formed UTF-8 character at `i` (RFC 3629: no overlong forms, no
    /// surrogates, nothing past U+10FFFF), or 0.
    static func validSequenceLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b = bytes[i]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch b {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; second = 0x80...0x8F
        default: return 0
        }
        guard i + length <= bytes.count, second.contains(bytes[i + 1]) else { return 0 }
        for k in 2..<length where bytes[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }

    private static let quote = UInt8(ascii: "\"")
    private static let backslash = UInt8(ascii: "\\")
    private static let hexDigits = Array("0123456789abcdef".utf8)
}
