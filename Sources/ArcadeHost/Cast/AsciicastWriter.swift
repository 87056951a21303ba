#if canImport(Glibc)
import Glibc
#endif
import ArcadeLua

/// Writes what a terminal was sent as an asciicast v2 file, the format `asciinema play`
/// and the asciinema web player read: a header line (a JSON object: `version` 2, `width`,
/// `height`, `timestamp`, `title`, `env`), then one JSON array per event,
/// `[seconds, "o", "bytes"]` for output and `[seconds, "r", "COLSxROWS"]` for a resize.
///
/// Event data is a JSON string, so it must be text: control bytes are escaped (`\u001b`),
/// other characters pass as UTF-8. A multi-byte character cut in two by the writes it
/// arrived in is held back until its end comes, so both halves land in one event; bytes
/// that are not UTF-8 at all (the arcade never writes any) become U+FFFD.
///
/// Times are whole microseconds, written with six decimals, and never go backwards.
public final class AsciicastWriter {
    /// Why the file could not be written.
    public struct Problem: Error, CustomStringConvertible {
        public var description: String
    }

    /// The file being written.
    public let path: String
    private var fd: Int32
    /// Event lines not yet written to the file.
    private var buffer: [UInt8] = []
    /// Write each event as it comes (interactive: a crash keeps everything but the last
    /// frame) instead of in batches (headless).
    private let flushEachEvent: Bool
    /// The start of a character the last output cut short.
    private var carry: [UInt8] = []
    private var lastMicroseconds: UInt64 = 0
    /// The first write that failed, reported by ``finish()``.
    private var failure: String?

    /// Creates (or truncates) `path` and writes the header.
    ///
    /// - Throws: ``Problem`` when the file cannot be created, before anything else happens
    ///   (so a bad path costs nothing).
    public init(path: String, cols: Int, rows: Int, title: String? = nil, term: String? = nil,
                timestamp: Int? = nil, flushEachEvent: Bool = false) throws(Problem) {
        self.path = path
        self.flushEachEvent = flushEachEvent
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw Problem(description: "cannot write the recording '\(path)': \(String(cString: strerror(errno)))")
        }
        var header = "{\"version\": 2, \"width\": \(cols), \"height\": \(rows)"
        header += ", \"timestamp\": \(timestamp ?? Int(time(nil)))"
        if let title { header += ", \"title\": " + Self.jsonString(title) }
        if let term { header += ", \"env\": {\"TERM\": " + Self.jsonString(term) + "}" }
        header += "}\n"
        buffer.append(contentsOf: header.utf8)
        flush()
    }

    deinit {
        if fd >= 0 { close(fd) }
    }

    /// Adds the bytes the terminal was sent at `microseconds` after the start.
    public func output(_ bytes: UnsafeRawBufferPointer, atMicroseconds microseconds: UInt64) {
        guard fd >= 0, !bytes.isEmpty else { return }
        let data: [UInt8] = carry.isEmpty ? Array(bytes) : carry + Array(bytes)
        let cut = Self.completeLength(data)
        carry = Array(data[cut...])
        guard cut > 0 else { return }
        event(at: microseconds, code: "o") { line in
            data.withUnsafeBufferPointer { Self.appendEscaped(UnsafeBufferPointer(rebasing: $0[..<cut]), to: &line) }
        }
    }

    /// ``output(_:atMicroseconds:)`` for an array.
    public func output(_ bytes: [UInt8], atMicroseconds microseconds: UInt64) {
        bytes.withUnsafeBytes { output($0, atMicroseconds: microseconds) }
    }

    /// Records that the terminal became `cols` x `rows` at `microseconds`.
    public func resize(cols: Int, rows: Int, atMicroseconds microseconds: UInt64) {
        guard fd >= 0 else { return }
        event(at: microseconds, code: "r") { line in line.append(contentsOf: "\(cols)x\(rows)".utf8) }
    }

    /// Writes what is left and closes the file.
    ///
    /// - Throws: ``Problem`` when a write failed (the disk filled up...).
    public func finish() throws(Problem) {
        guard fd >= 0 else { return }
        if !carry.isEmpty {
            // a character that never got its end: shown as what it is, a broken one
            let broken = carry
            carry = []
            event(at: lastMicroseconds, code: "o") { line in
                broken.withUnsafeBufferPointer { Self.appendEscaped($0, to: &line) }
            }
        }
        flush()
        if close(fd) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        fd = -1
        if let failure { throw Problem(description: "cannot write the recording '\(path)': \(failure)") }
    }

    // MARK: Lines

    private func event(at microseconds: UInt64, code: String, data: (inout [UInt8]) -> Void) {
        let t = max(microseconds, lastMicroseconds)
        lastMicroseconds = t
        buffer.append(UInt8(ascii: "["))
        buffer.append(contentsOf: Self.seconds(t).utf8)
        buffer.append(contentsOf: ", \"\(code)\", \"".utf8)
        data(&buffer)
        buffer.append(contentsOf: "\"]\n".utf8)
        if flushEachEvent || buffer.count >= 1 << 16 { flush() }
    }

    private func flush() {
        var offset = 0
        while offset < buffer.count, failure == nil {
            let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { failure = String(cString: strerror(errno)) } else { offset += n }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// `microseconds` as seconds with six decimals.
    static func seconds(_ microseconds: UInt64) -> String {
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }

    /// `text` as a JSON string literal.
    static func jsonString(_ text: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        var t = text
        t.withUTF8 { appendEscaped($0, to: &out) }
        out.append(UInt8(ascii: "\""))
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: UTF-8

    /// How many bytes of `data` end on a character boundary: all of them, unless the last
    /// character has begun and not ended.
    static func completeLength(_ data: [UInt8]) -> Int {
        var i = data.count - 1
        while i >= 0, data.count - i <= 4 {
            let b = data[i]
            if b & 0xC0 == 0x80 {
                i -= 1
                continue
            }
            let need = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 1
            return i + need > data.count && b < 0xF5 ? i : data.count
        }
        return data.count
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `bytes` as the inside of a JSON string: `"` and `\` escaped, control
    /// characters (and DEL) as `\u00XX`, valid UTF-8 as it is, anything else as U+FFFD.
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(b)
                case 0..<0x20, 0x7F:
                    out.append(contentsOf: "\\u00".utf8)
                    out.append(hexDigits[Int(b >> 4)])
                    out.append(hexDigits[Int(b & 0xF)])
                default:
                    out.append(b)
                }
                i += 1
                continue
            }
            let length = validSequenceLength(bytes, at: i)
            if length == 0 {
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])  // U+FFFD
                i += 1
            } else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + length)]))
                i += length
            }
        }
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
}
