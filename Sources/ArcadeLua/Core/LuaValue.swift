/// A Lua value brought over to Swift: the data subset (no functions, no userdata).
///
/// Used for the manifest, `game.state` dumps, saves and the JSON the CLI prints.
public enum LuaValue: Hashable, Sendable {
    case `nil`
    case bool(Bool)
    case int(Int64)
    case number(Double)
    case string(String)
    /// A sequence (Lua keys 1...n).
    case array([LuaValue])
    /// Any other table; non-string keys were converted to strings.
    case table([String: LuaValue])

    /// The field `key` of a table, or nil.
    public subscript(key: String) -> LuaValue? {
        if case .table(let t) = self { return t[key] }
        return nil
    }

    /// The number, when this is an int or a number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    /// The integer, when this is an int or a float with an integral value.
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .number(let d):
            guard d.rounded() == d, let i = Int64(exactly: d) else { return nil }
            return i
        default: return nil
        }
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The Lua type name of the value.
    public var typeName: String {
        switch self {
        case .nil: "nil"
        case .bool: "boolean"
        case .int, .number: "number"
        case .string: "string"
        case .array, .table: "table"
        }
    }
}

extension LuaValue {
    /// Canonical JSON: object keys sorted, integers without a fraction, floats in their
    /// shortest round-trip form, non-finite numbers as null. Same value, same bytes.
    public func json(pretty: Bool = false) -> String {
        var out = ""
        writeJSON(into: &out, pretty: pretty, indent: 0)
        return out
    }

    private func writeJSON(into out: inout String, pretty: Bool, indent: Int) {
        let nl = pretty ? "\n" : ""
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let endPad = pretty ? String(repeating: "  ", count: indent) : ""
        switch self {
        case .nil: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let d):
            if !d.isFinite {
                out += "null"
            } else if d == d.rounded(), abs(d) < 1e15 {
                out += String(Int64(d))
            } else {
                out += "\(d)"
            }
        case .string(let s): LuaValue.writeJSONString(s, into: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            for (i, item) in items.enumerated() {
                out += pad
                item.writeJSON(into: &out, pretty: pretty, indent: indent + 1)
                out += (i + 1 < items.count ? "," : "") + nl
            }
            out += endPad + "]"
        case .table(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{" + nl
            let keys = fields.keys.sorted()
            for (i, k) in keys.enumerated() {
                out += pad
                LuaValue.writeJSONString(k, into: &out)
                out += pretty ? ": " : ":"
                fields[k]!.writeJSON(into: &out, pretty: pretty, indent: indent + 1)
                out += (i + 1 < keys.count ? "," : "") + nl
            }
            out += endPad + "}"
        }
    }

    static func writeJSONString(_ s: String, into out: inout String) {
        out += JSONString.quoted(s)
    }
}
