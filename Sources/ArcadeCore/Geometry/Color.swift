/// A colour with 8-bit channels and straight (not premultiplied) alpha.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8
    public var a: UInt8

    @inlinable public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// From `0xRRGGBB`, fully opaque.
    @inlinable public init(rgb: UInt32) {
        self.init(r: UInt8((rgb >> 16) & 0xFF), g: UInt8((rgb >> 8) & 0xFF), b: UInt8(rgb & 0xFF))
    }

    /// From channels in 0...1 (clamped).
    @inlinable public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        @inline(__always) func byte(_ v: Double) -> UInt8 {
            UInt8((min(max(v, 0), 1) * 255).rounded())
        }
        self.init(r: byte(red), g: byte(green), b: byte(blue), a: byte(alpha))
    }

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa` (the `#` is optional).
    public init?(hex: String) {
        var s = Substring(hex)
        if s.hasPrefix("#") { s = s.dropFirst() }
        guard s.allSatisfy(\.isHexDigit) else { return nil }
        switch s.count {
        case 3:
            let v = Array(s).map { UInt8(String($0), radix: 16)! * 17 }
            self.init(r: v[0], g: v[1], b: v[2])
        case 6, 8:
            guard let v = UInt32(s, radix: 16) else { return nil }
            if s.count == 6 {
                self.init(rgb: v)
            } else {
                self.init(r: UInt8(v >> 24), g: UInt8((v >> 16) & 0xFF), b: UInt8((v >> 8) & 0xFF), a: UInt8(v & 0xFF))
            }
        default:
            return nil
        }
    }

    public static let black = Color(r: 0, g: 0, b: 0)
    public static let white = Color(r: 255, g: 255, b: 255)
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)

    /// Channel-wise interpolation in 0...1 (t outside is clamped per channel).
    @inlinable public func lerp(to o: Color, _ t: Double) -> Color {
        @inline(__always) func mix(_ a: UInt8, _ b: UInt8) -> UInt8 {
            let v = Double(a) + (Double(b) - Double(a)) * t
            return UInt8(min(max(v.rounded(), 0), 255))
        }
        return Color(r: mix(r, o.r), g: mix(g, o.g), b: mix(b, o.b), a: mix(a, o.a))
    }

    /// `#rrggbb`, with `aa` appended when not opaque.
    public var description: String {
        func h(_ v: UInt8) -> String {
            let s = String(v, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(r) + h(g) + h(b) + (a == 255 ? "" : h(a))
    }
}
