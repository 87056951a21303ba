import ArcadeCore

/// Colours and points as scripts write them (what ``LuaStack/readColor(at:)`` and
/// ``LuaStack/readPoint(at:)`` accept).
extension LuaStack {
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
