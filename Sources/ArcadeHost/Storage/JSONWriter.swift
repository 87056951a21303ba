import ArcadeLua

/// Writes a ``LuaValue`` as the JSON text stored in the save database.
///
/// Unlike ``LuaValue/json(pretty:)`` (made for reading), floats always keep a fraction or
/// an exponent (`2.0`, `1e+16`) so that ``JSONReader`` brings an integer back as an
/// integer and a float as a float: Lua 5.4 tells them apart (`math.type`, `tostring`).
/// Object keys are sorted, so the same value always gives the same bytes.
enum JSONWriter {
    /// The JSON text of `value` as UTF-8, or nil when it holds a number that is not finite
    /// (JSON has no way to write one).
    static func encode(_ value: LuaValue) -> [UInt8]? {
        var out: [UInt8] = []
        var finite = true
        write(value, into: &out, finite: &finite)
        return finite ? out : nil
    }

    private static func write(_ value: LuaValue, into out: inout [UInt8], finite: inout Bool) {
        switch value {
        case .nil: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .number(let d):
            // Swift's shortest round-trip form always has a '.' or an 'e' and is valid JSON
            if !d.isFinite { finite = false }
            out.append(contentsOf: d.description.utf8)
        case .string(let s): JSONString.appendQuoted(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                write(item, into: &out, finite: &finite)
            }
            out.append(UInt8(ascii: "]"))
        case .table(let fields):
            out.append(UInt8(ascii: "{"))
            for (i, key) in fields.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONString.appendQuoted(key, to: &out)
                out.append(UInt8(ascii: ":"))
                write(fields[key]!, into: &out, finite: &finite)
            }
            out.append(UInt8(ascii: "}"))
        }
    }
}
