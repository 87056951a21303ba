import Testing
import ArcadeCore
import ArcadeLua
@testable import ArcadeHost

/// The save format: `JSONWriter` and its strict reader.
@Suite struct StorageJSONTests {
    func decode(_ text: String) throws(JSONReader.Failure) -> LuaValue {
        try JSONReader.decode(Array(text.utf8))
    }

    func failure(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error.description
        }
    }

    func encoded(_ v: LuaValue) -> String? {
        JSONWriter.encode(v).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesCanonicalText() {
        let v: LuaValue = .table([
            "b": .array([.int(1), .number(2.0), .number(0.5), .bool(true), .nil]),
            "a": .string("tab\there \"q\" \\ \u{1} é 🐟"),
            "c": .table([:]),
        ])
        #expect(encoded(v) == #"{"a":"tab\there \"q\" \\ \u0001 é 🐟","b":[1,2.0,0.5,true,null],"c":{}}"#)
        #expect(encoded(.number(1e16)) == "1e+16")
        #expect(encoded(.number(-0.0)) == "-0.0")
        #expect(encoded(.number(.nan)) == nil)
        #expect(encoded(.table(["x": .array([.number(-.infinity)])])) == nil)
    }

    @Test func readsWhatJSONAllows() throws {
        #expect(try decode(" {\"a\" : [1, -2, 3.5, -0.25e2, 1E3, true, false, null], \"b\": {}} ") == .table([
            "a": .array([.int(1), .int(-2), .number(3.5), .number(-25), .number(1000), .bool(true), .bool(false), .nil]),
            "b": .table([:]),
        ]))
        #expect(try decode(#""\u00e9\ud83d\udc1f\/\b\f\n\r\t""#) == .string("é🐟/\u{8}\u{c}\n\r\t"))
        #expect(try decode("[]") == .array([]))
        #expect(try decode("9223372036854775807") == .int(.max))
        #expect(try decode("-9223372036854775808") == .int(.min))
        // past 64 bits an integer is still a number
        #expect(try decode("9223372036854775808") == .number(9223372036854775808.0))
    }

    @Test func refusesWhatJSONDoesNot() {
        #expect(failure("") == "invalid JSON at byte 0: unexpected end of text, expected a value")
        #expect(failure("[1,]") == "invalid JSON at byte 3: unexpected ']', expected a value")
        #expect(failure("{\"a\":1,}") == "invalid JSON at byte 7: unexpected '}', expected a string key")
        #expect(failure("{'a':1}") == "invalid JSON at byte 1: unexpected ''', expected a string key")
        #expect(failure("{\"a\" 1}") == "invalid JSON at byte 5: unexpected '1', expected ':' after the key")
        #expect(failure("[1 2]") == "invalid JSON at byte 3: unexpected '2', expected ',' or ']'")
        #expect(failure("{\"a\":1,\"a\":2}") == "invalid JSON at byte 7: duplicate key \"a\"")
        #expect(failure("01") == "invalid JSON at byte 1: leading zeros are not allowed")
        #expect(failure("1.") == "invalid JSON at byte 2: unexpected end of text, expected a digit after '.'")
        #expect(failure("-") == "invalid JSON at byte 1: unexpected end of text, expected a digit")
        #expect(failure("1e") == "invalid JSON at byte 2: unexpected end of text, expected a digit in the exponent")
        #expect(failure("1e999") == "invalid JSON at byte 0: number 1e999 is out of range")
        #expect(failure("tru") == "invalid JSON at byte 0: unexpected 't', expected a value")
        #expect(failure("nan") == "invalid JSON at byte 0: unexpected 'n', expected a value")
        #expect(failure("1 2") == "invalid JSON at byte 2: unexpected '2' after the value")
        #expect(failure("\"abc") == "invalid JSON at byte 0: unterminated string")
        #expect(failure("\"a\nb\"") == "invalid JSON at byte 2: control character 0xa must be escaped in a string")
        #expect(failure(#""\x""#) == #"invalid JSON at byte 1: unknown escape \x"#)
        #expect(failure(#""\u12""#) == #"invalid JSON at byte 1: \u needs four hex digits"#)
        #expect(failure(#""\ud83d""#) == #"invalid JSON at byte 1: unpaired surrogate \ud83d"#)
        #expect(failure(#""\udc1f""#) == #"invalid JSON at byte 1: unpaired surrogate \udc1f"#)
        #expect(failure(String(repeating: "[", count: 101) + String(repeating: "]", count: 101))
                == "invalid JSON at byte 100: nested deeper than 100 levels")
        #expect(throws: JSONReader.Failure(offset: 0, problem: "string is not valid UTF-8")) {
            try JSONReader.decode([0x22, 0xff, 0xfe, 0x22])
        }
    }

    /// Random nested values survive writing and reading unchanged, floats bit for bit.
    @Test func randomValuesRoundTrip() throws {
        var random = SeededRandom(seed: 7)
        func make(_ depth: Int) -> LuaValue {
            switch random.nextInt(in: 0, depth > 3 ? 4 : 6) {
            case 0: return .bool(random.nextInt(in: 0, 1) == 1)
            case 1: return .int(Int64(bitPattern: random.next()))
            case 2:
                let d = Double(bitPattern: random.next())
                return .number(d.isFinite ? d : random.nextUnit())
            case 3:
                let scalars = (0..<random.nextInt(in: 0, 12)).map { _ -> Character in
                    let pool: [UInt32] = [0x0, 0x1f, 0x22, 0x5c, 0x41, 0xe9, 0x7f, 0x2028, 0xfeff, 0x1f41f]
                    return Character(Unicode.Scalar(pool[Int(random.nextInt(in: 0, Int64(pool.count - 1)))])!)
                }
                return .string(String(scalars))
            case 4: return .array((0..<random.nextInt(in: 0, 5)).map { _ in make(depth + 1) })
            default:
                var fields: [String: LuaValue] = [:]
                for i in 0..<random.nextInt(in: 0, 5) { fields["k\(i)\(random.nextInt(in: 0, 99))"] = make(depth + 1) }
                return .table(fields)
            }
        }
        for _ in 0..<500 {
            let v = make(0)
            let bytes = try #require(JSONWriter.encode(v))
            let back = try JSONReader.decode(bytes)
            #expect(back == v)
            #expect(JSONWriter.encode(back) == bytes)  // same value, same bytes
        }
    }
}
