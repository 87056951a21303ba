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
    /// - Throws: ``Problem`` when the file cannot be created, or is not a regular file (a
    ///   FIFO is refused, never waited on), before anything else happens (so a bad path
    ///   costs nothing).
    public init(path: String, cols: Int, rows: Int, title: String? = nil, term: String? = nil,
                timestamp: Int? = nil, flushEachEvent: Bool = false) throws(Problem) {
        self.path = path
        self.flushEachEvent = flushEachEvent
        switch FileIO.openForWriting(path) {
        case .success(let opened): fd = opened
        case .failure(let problem): throw Problem(description: "cannot write the recording '\(path)': \(problem)")
        }
        // the title (a game's) and TERM are shown by players as they are: control bytes in
        // them are escaped as everywhere else text from a game is shown, not only JSON-encoded
        var header = "{\"version\": 2, \"width\": \(cols), \"height\": \(rows)"
        header += ", \"timestamp\": \(timestamp ?? Int(time(nil)))"
        if let title { header += ", \"title\": " + Self.quotedShown(title) }
        if let term { header += ", \"env\": {\"TERM\": " + Self.quotedShown(term) + "}" }
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
            data.withUnsafeBufferPointer { JSONString.append(UnsafeBufferPointer(rebasing: $0[..<cut]), escapes: .unicode, to: &line) }
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
                broken.withUnsafeBufferPointer { JSONString.append($0, escapes: .unicode, to: &line) }
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
        if failure == nil, !buffer.withUnsafeBytes({ FileIO.writeAll(fd, $0) }) {
            failure = String(cString: strerror(errno))
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// `text` with its control characters escaped (``ControlEscaping``), as a JSON string.
    static func quotedShown(_ text: String) -> String {
        JSONString.quoted(ControlEscaping.escapingControls(text, keepLayout: false), escapes: .unicode)
    }

    /// `microseconds` as seconds with six decimals.
    static func seconds(_ microseconds: UInt64) -> String {
        let fraction = String(microseconds % 1_000_000)
        return "\(microseconds / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
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
}
