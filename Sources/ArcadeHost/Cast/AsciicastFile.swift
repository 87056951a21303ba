import ArcadeLua

/// An asciicast v2 file read strictly: what `arcade cast-check` and the tests use to make
/// sure a recording plays in asciinema's players.
///
/// Strict means: every line is one JSON value (RFC 8259, UTF-8) and there are no blank lines
/// but a final newline; the header is an object with `version` 2 and positive whole
/// `width` and `height`, and its other fields are those of the format with the types it
/// gives them; each event is an array `[time, code, data]` with a time of 0 or more that
/// never goes back, a code of `"o"`, `"i"`, `"m"` or `"r"`, string data, and for `"r"` data
/// of the form `COLSxROWS`.
public struct AsciicastFile: Sendable {
    /// The header fields the arcade reads.
    public struct Header: Equatable, Sendable {
        public var width: Int
        public var height: Int
        public var timestamp: Int?
        public var title: String?
    }

    /// One event line.
    public struct Event: Equatable, Sendable {
        /// Seconds from the start.
        public var time: Double
        /// `"o"` output, `"i"` input, `"m"` marker, `"r"` resize.
        public var code: String
        public var data: String
    }

    /// Why a file is not a valid asciicast v2 recording; `line` is 1-based.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public var header: Header
    public var events: [Event]

    /// The header fields asciicast v2 defines, and what each must be.
    static let headerFields: [String: String] = [
        "version": "a whole number", "width": "a whole number", "height": "a whole number",
        "timestamp": "a whole number", "duration": "a number", "idle_time_limit": "a number",
        "command": "a string", "title": "a string", "env": "an object of strings", "theme": "an object",
    ]

    /// Parses and checks `bytes`.
    public static func parse(_ bytes: [UInt8]) throws(Problem) -> AsciicastFile {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        guard bytes.last == UInt8(ascii: "\n") else {
            throw Problem(line: max(lines.count, 1), message: "the file must end with a newline")
        }
        lines.removeLast()  // what follows the final newline: nothing
        guard let first = lines.first else { throw Problem(line: 1, message: "empty file: no header") }
        let header = try parseHeader(Array(first))
        var events: [Event] = []
        var last = 0.0
        for (index, line) in lines.enumerated().dropFirst() {
            let number = index + 1
            func fail(_ m: String) -> Problem { Problem(line: number, message: m) }
            guard !line.isEmpty else { throw fail("blank line") }
            let value: LuaValue
            do { value = try JSONReader.decode(Array(line)) } catch { throw fail(error.description) }
            guard case .array(let items) = value, items.count == 3 else {
                throw fail("an event must be an array [time, code, data]")
            }
            guard let time = items[0].doubleValue, time.isFinite, time >= 0 else {
                throw fail("an event's time must be a number of seconds, 0 or more")
            }
            guard time >= last else { throw fail("time \(time) comes before the previous event's \(last)") }
            last = time
            guard case .string(let code) = items[1], ["o", "i", "m", "r"].contains(code) else {
                throw fail("an event's code must be \"o\", \"i\", \"m\" or \"r\"")
            }
            guard case .string(let data) = items[2] else { throw fail("an event's data must be a string") }
            if code == "r", parseSize(data) == nil {
                throw fail("a resize event's data must be COLSxROWS, got \"\(data)\"")
            }
            events.append(Event(time: time, code: code, data: data))
        }
        return AsciicastFile(header: header, events: events)
    }

    private static func parseHeader(_ line: [UInt8]) throws(Problem) -> Header {
        func fail(_ m: String) -> Problem { Problem(line: 1, message: m) }
        let value: LuaValue
        do { value = try JSONReader.decode(line) } catch { throw fail("header: \(error.description)") }
        guard case .table(let fields) = value else { throw fail("the header must be a JSON object") }
        for key in fields.keys.sorted() {
            guard let kind = headerFields[key] else { throw fail("header: unknown field '\(key)'") }
            let v = fields[key]!
            let ok: Bool
            switch kind {
            case "a whole number": ok = v.intValue != nil
            case "a number": ok = v.doubleValue != nil
            case "a string": if case .string = v { ok = true } else { ok = false }
            case "an object of strings":
                if case .table(let t) = v {
                    ok = t.values.allSatisfy { if case .string = $0 { true } else { false } }
                } else {
                    ok = v == .array([])  // an empty object reads as an empty list
                }
            default:
                if case .table = v { ok = true } else { ok = v == .array([]) }
            }
            guard ok else { throw fail("header: '\(key)' must be \(kind)") }
        }
        guard let version = fields["version"]?.intValue else { throw fail("header: 'version' is missing") }
        guard version == 2 else { throw fail("header: version \(version), expected 2") }
        guard let width = fields["width"]?.intValue, width > 0 else {
            throw fail("header: 'width' must be a whole number above 0")
        }
        guard let height = fields["height"]?.intValue, height > 0 else {
            throw fail("header: 'height' must be a whole number above 0")
        }
        var title: String?
        if case .string(let t)? = fields["title"] { title = t }
        return Header(width: Int(width), height: Int(height), timestamp: fields["timestamp"]?.intValue.map(Int.init),
                      title: title)
    }

    /// `COLSxROWS` as numbers, or nil.
    public static func parseSize(_ text: String) -> (cols: Int, rows: Int)? {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let c = Int(parts[0]), let r = Int(parts[1]), c > 0, r > 0 else { return nil }
        return (c, r)
    }
}
