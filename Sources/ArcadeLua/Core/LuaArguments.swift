import ArcadeCore

/// Argument and option-table readers for binding files. Each throws the argument error a
/// script author needs: which argument or field, what was expected, what came.
extension LuaStack {
    /// The number at `index`, or an argument error.
    public func checkNumber(_ index: Int32, _ what: String = "number") throws -> Double {
        guard let v = number(at: index), v.isFinite else {
            // inf and nan are numbers: say which, rather than "number expected, got number"
            let got = number(at: index).map { $0.isNaN ? "nan" : $0 > 0 ? "inf" : "-inf" } ?? describeType(at: index)
            throw LuaArgumentError(index, "\(number(at: index) == nil ? what : "finite \(what)") expected, got \(got)")
        }
        return v
    }

    /// The number at `index`, `fallback` when absent or nil.
    public func optNumber(_ index: Int32, _ fallback: Double) throws -> Double {
        isNoneOrNil(index) ? fallback : try checkNumber(index)
    }

    /// The string at `index`, or an argument error.
    public func checkString(_ index: Int32) throws -> String {
        guard let v = string(at: index) else {
            throw LuaArgumentError(index, "string expected, got \(describeType(at: index))")
        }
        return v
    }

    /// Throws unless the value at `index` is a table.
    public func checkTable(_ index: Int32) throws {
        guard type(at: index) == .table else {
            throw LuaArgumentError(index, "table expected, got \(describeType(at: index))")
        }
    }

    /// Lua's own words for the type at `index`: "no value" when absent.
    func describeType(at index: Int32) -> String {
        type(at: index) == .none ? "no value" : typeName(at: index)
    }

    // MARK: Fields of an options table

    /// Reads field `key` of the table at `table` with `read` (the field's value is on top of
    /// the stack while `read` runs); nil when the field is nil.
    public func field<T>(_ key: String, of table: Int32, _ read: (Int32) throws -> T?) throws -> T? {
        let t = absolute(table)
        getField(key, in: t)
        defer { pop() }
        if isNoneOrNil(-1) { return nil }
        return try read(top)
    }

    /// "a number, got string" or, for inf and nan, "a finite number, got inf": what a numeric
    /// argument that was refused should have been, and what it was.
    public func numberProblem(at i: Int32) -> String {
        if let d = number(at: i), !d.isFinite { return "a finite number, got \(d.isNaN ? "nan" : d > 0 ? "inf" : "-inf")" }
        return "a number, got \(typeName(at: i))"
    }

    /// Numeric field `key` (nil when absent); a non-number is an error naming the field.
    public func numberField(_ key: String, of table: Int32) throws -> Double? {
        try field(key, of: table) { i in
            guard let v = number(at: i), v.isFinite else {
                throw LuaArgumentError(table, "field '\(key)' must be \(numberProblem(at: i))")
            }
            return v
        }
    }

    /// String field `key` (nil when absent).
    public func stringField(_ key: String, of table: Int32) throws -> String? {
        try field(key, of: table) { i in
            guard let v = string(at: i) else {
                throw LuaArgumentError(table, "field '\(key)' must be a string, got \(typeName(at: i))")
            }
            return v
        }
    }

    /// Boolean field `key` (nil when absent).
    public func boolField(_ key: String, of table: Int32) throws -> Bool? {
        try field(key, of: table) { i in
            guard type(at: i) == .boolean else {
                throw LuaArgumentError(table, "field '\(key)' must be a boolean, got \(typeName(at: i))")
            }
            return truthy(at: i)
        }
    }

    /// Colour field `key` (nil when absent).
    public func colorField(_ key: String, of table: Int32) throws -> Color? {
        try field(key, of: table) { i in
            guard let c = color(at: i) else {
                throw LuaArgumentError(table, "field '\(key)' must be a colour like \"#ff8800\", got \(typeName(at: i))")
            }
            return c
        }
    }

    /// A colour: `"#rgb"`, `"#rrggbb"`, `"#rrggbbaa"`, a name (`"white"`, `"orange"`...),
    /// `0xRRGGBB`, or `{ r, g, b [, a] }` with channels 0...255.
    public func color(at index: Int32) -> Color? {
        switch type(at: index) {
        case .string:
            guard let s = string(at: index) else { return nil }
            return Color(hex: s) ?? NamedColors.table[s.lowercased()]
        case .number:
            guard let v = integer(at: index), v >= 0, v <= 0xFFFFFF else { return nil }
            return Color(rgb: UInt32(v))
        case .table:
            let t = absolute(index)
            var channels: [UInt8] = []
            for i in 1...4 {
                getIndex(i, in: t)
                defer { pop() }
                if isNoneOrNil(-1) {
                    if i == 4 { channels.append(255); break }
                    return nil
                }
                guard let v = number(at: -1), v >= 0, v <= 255 else { return nil }
                channels.append(UInt8(v.rounded()))
            }
            return Color(r: channels[0], g: channels[1], b: channels[2], a: channels[3])
        default:
            return nil
        }
    }

    /// A point `{ x, y }` or `{ x = .., y = .. }`.
    public func point(at index: Int32) -> Vec2? {
        guard type(at: index) == .table else { return nil }
        let t = absolute(index)
        let x = getIndex(1, in: t) == .number ? number(at: -1) : nil
        pop()
        let y = getIndex(2, in: t) == .number ? number(at: -1) : nil
        pop()
        if let x, let y { return Vec2(x, y) }
        let fx = getField("x", in: t) == .number ? number(at: -1) : nil
        pop()
        let fy = getField("y", in: t) == .number ? number(at: -1) : nil
        pop()
        if let fx, let fy { return Vec2(fx, fy) }
        return nil
    }

    /// Pushes a colour the way scripts write it: `"#rrggbb"` (with `aa` when not opaque).
    public func push(_ color: Color) {
        push(color.description)
    }
}

/// Colour names scripts may use instead of hex codes.
public enum NamedColors {
    public static let table: [String: Color] = [
        "black": Color(rgb: 0x000000), "white": Color(rgb: 0xFFFFFF), "red": Color(rgb: 0xE53935),
        "green": Color(rgb: 0x43A047), "blue": Color(rgb: 0x1E88E5), "yellow": Color(rgb: 0xFDD835),
        "orange": Color(rgb: 0xFB8C00), "purple": Color(rgb: 0x8E24AA), "pink": Color(rgb: 0xF06292),
        "cyan": Color(rgb: 0x00ACC1), "gray": Color(rgb: 0x9E9E9E), "grey": Color(rgb: 0x9E9E9E),
        "brown": Color(rgb: 0x8D6E63), "gold": Color(rgb: 0xFFC107), "silver": Color(rgb: 0xCFD8DC),
        "clear": Color.clear,
    ]
}
