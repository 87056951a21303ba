import ArcadeLua

/// A strict JSON parser producing ``LuaValue``s: the reading half of the save format.
///
/// Strict because the input is our own output: anything RFC 8259 does not allow (trailing
/// commas, comments, single quotes, raw control characters, lone surrogates, invalid
/// UTF-8, duplicate keys, text after the value) is an error that says where it is, rather
/// than a guess. Integers (no fraction, no exponent) that fit 64 bits become `.int`;
/// other numbers become `.number`.
struct JSONReader {
    /// Why a text is not acceptable JSON, and where.
    struct Failure: Error, Equatable, CustomStringConvertible {
        /// Byte offset of the problem from the start of the text.
        var offset: Int
        var problem: String
        var description: String { "invalid JSON at byte \(offset): \(problem)" }
    }

    /// Arrays and objects nested deeper than this are refused (the reader recurses).
    static let maxDepth = 100

    private let bytes: UnsafeBufferPointer<UInt8>
    private var pos = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses exactly one JSON value, with optional whitespace around it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(Failure) -> LuaValue {
        var reader = JSONReader(bytes)
        reader.skipWhitespace()
        let value = try reader.value(depth: 0)
        reader.skipWhitespace()
        if reader.pos < bytes.count { throw reader.fail("unexpected \(reader.describeCurrent()) after the value") }
        return value
    }

    /// Parses exactly one JSON value from `bytes`.
    static func decode(_ bytes: [UInt8]) throws(Failure) -> LuaValue {
        let result: Result<LuaValue, Failure> = bytes.withUnsafeBufferPointer { buf in
            do throws(Failure) { return .success(try decode(buf)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(Failure) -> LuaValue {
        guard pos < bytes.count else { throw fail("unexpected end of text, expected a value") }
        switch bytes[pos] {
        case UInt8(ascii: "{"): return try object(depth: depth + 1)
        case UInt8(ascii: "["): return try array(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func object(depth: Int) throws(Failure) -> LuaValue {
        guard depth <= JSONReader.maxDepth else { throw fail("nested deeper than \(JSONReader.maxDepth) levels") }
        pos += 1  // {
        var fields: [String: LuaValue] = [:]
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .table(fields) }
        while true {
            skipWhitespace()
            let keyOffset = pos
            guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else {
                throw fail(pos < bytes.count ? "unexpected \(describeCurrent()), expected a string key" : "unexpected end of text, expected a string key")
            }
            let key = try string()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw fail(expected: "':' after the key") }
            skipWhitespace()
            let v = try value(depth: depth)
            if fields.updateValue(v, forKey: key) != nil {
                throw Failure(offset: keyOffset, problem: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .table(fields) }
            throw fail(expected: "',' or '}'")
        }
    }

    private mutating func array(depth: Int) throws(Failure) -> LuaValue {
        guard depth <= JSONReader.maxDepth else { throw fail("nested deeper than \(JSONReader.maxDepth) levels") }
        pos += 1  // [
        var items: [LuaValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(items) }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(items) }
            throw fail(expected: "',' or ']'")
        }
    }

    private mutating func literal(_ word: String) throws(Failure) {
        let start = pos
        for expected in word.utf8 {
            guard pos < bytes.count, bytes[pos] == expected else {
                throw Failure(offset: start, problem: "unexpected \(describe(bytes[start])), expected a value")
            }
            pos += 1
        }
    }

    // MARK: Numbers

    private mutating func number() throws(Failure) -> LuaValue {
        let start = pos
        var isInteger = true
        _ = consume(UInt8(ascii: "-"))
        guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail(expected: "a digit") }
        if bytes[pos] == UInt8(ascii: "0") {
            pos += 1
            if pos < bytes.count, isDigit(bytes[pos]) { throw fail("leading zeros are not allowed") }
        } else {
            skipDigits()
        }
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail(expected: "a digit after '.'") }
            skipDigits()
        }
        if pos < bytes.count, bytes[pos] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            pos += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard pos < bytes.count, isDigit(bytes[pos]) else { throw fail(expected: "a digit in the exponent") }
            skipDigits()
        }
        if isInteger, let i = integer(from: start, to: pos) { return .int(i) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<pos]), as: UTF8.self)
        // an integer too long for 64 bits is still a number, as in Lua's own reader
        guard let d = Double(text), d.isFinite else {
            throw Failure(offset: start, problem: "number \(text) is out of range")
        }
        return .number(d)
    }

    /// The integer written in `bytes[start..<end]` (an optional '-' then digits), or nil
    /// when it does not fit 64 bits.
    private func integer(from start: Int, to end: Int) -> Int64? {
        let negative = bytes[start] == UInt8(ascii: "-")
        var magnitude: UInt64 = 0
        for i in (negative ? start + 1 : start)..<end {
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[i] - UInt8(ascii: "0")))
            if o1 || o2 { return nil }
            magnitude = sum
        }
        if negative {
            if magnitude == UInt64(Int64.max) + 1 { return .min }
            return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
        }
        return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
    }

    private func isDigit(_ b: UInt8) -> Bool { b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while pos < bytes.count, isDigit(bytes[pos]) { pos += 1 }
    }

    // MARK: Strings

    private mutating func string() throws(Failure) -> String {
        let start = pos
        pos += 1  // opening quote
        // most strings have no escapes: validate them in place, without a copy
        var end = pos
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            guard let s = String(validating: UnsafeBufferPointer(rebasing: bytes[pos..<end]), as: UTF8.self) else {
                throw Failure(offset: start, problem: "string is not valid UTF-8")
            }
            pos = end + 1
            return s
        }
        var out: [UInt8] = []
        var runStart = pos
        while true {
            guard pos < bytes.count else { throw Failure(offset: start, problem: "unterminated string") }
            let b = bytes[pos]
            if b == UInt8(ascii: "\"") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
                pos += 1
                break
            }
            if b < 0x20 { throw fail("control character 0x\(String(b, radix: 16)) must be escaped in a string") }
            if b == UInt8(ascii: "\\") {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<pos]))
                try escape(into: &out)
                runStart = pos
                continue
            }
            pos += 1
        }
        guard let s = String(validating: out, as: UTF8.self) else {
            throw Failure(offset: start, problem: "string is not valid UTF-8")
        }
        return s
    }

    /// Reads one backslash escape (at `pos`) and appends its UTF-8.
    private mutating func escape(into out: inout [UInt8]) throws(Failure) {
        let start = pos
        pos += 1
        guard pos < bytes.count else { throw Failure(offset: start, problem: "unterminated string") }
        let c = bytes[pos]
        pos += 1
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(c)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0c)
        case UInt8(ascii: "n"): out.append(0x0a)
        case UInt8(ascii: "r"): out.append(0x0d)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try hex4(escapeAt: start)
            if (0xD800..<0xDC00).contains(scalar) {
                // a high surrogate must be followed by an escaped low one
                guard bytes.count - pos >= 2, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                    throw Failure(offset: start, problem: "unpaired surrogate \\u\(String(scalar, radix: 16))")
                }
                pos += 2
                let low = try hex4(escapeAt: pos - 2)
                guard (0xDC00..<0xE000).contains(low) else {
                    throw Failure(offset: start, problem: "unpaired surrogate \\u\(String(scalar, radix: 16))")
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw Failure(offset: start, problem: "unpaired surrogate \\u\(String(scalar, radix: 16))")
            }
            out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            let shown = (0x21..<0x7f).contains(c) ? "\\" + String(Character(Unicode.Scalar(c))) : "'\\' followed by \(describe(c))"
            throw Failure(offset: start, problem: "unknown escape \(shown)")
        }
    }

    private mutating func hex4(escapeAt start: Int) throws(Failure) -> UInt32 {
        guard bytes.count - pos >= 4 else { throw Failure(offset: start, problem: "\\u needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[pos]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw Failure(offset: start, problem: "\\u needs four hex digits")
            }
            v = v << 4 | UInt32(digit)
            pos += 1
        }
        return v
    }

    // MARK: Scanning

    private mutating func skipWhitespace() {
        while pos < bytes.count {
            switch bytes[pos] {
            case 0x20, 0x09, 0x0a, 0x0d: pos += 1
            default: return
            }
        }
    }

    private mutating func consume(_ b: UInt8) -> Bool {
        guard pos < bytes.count, bytes[pos] == b else { return false }
        pos += 1
        return true
    }

    private func fail(_ problem: String) -> Failure {
        Failure(offset: pos, problem: problem)
    }

    private func fail(expected what: String) -> Failure {
        fail(pos < bytes.count ? "unexpected \(describeCurrent()), expected \(what)" : "unexpected end of text, expected \(what)")
    }

    private func describeCurrent() -> String {
        pos < bytes.count ? describe(bytes[pos]) : "end of text"
    }

    private func describe(_ b: UInt8) -> String {
        (0x21..<0x7f).contains(b) ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
    }
}
