import ArcadeCore

/// Integer alpha blending, so results are exact and the same on every machine.
enum PixelBlend {
    /// `x / 255` rounded to nearest, exact for every `x` in `0...255*255`.
    @inline(__always) static func div255(_ x: UInt32) -> UInt32 {
        let t = x &+ 128
        return (t &+ (t >> 8)) >> 8
    }

    /// A 0...1 opacity as a 0...255 weight.
    @inline(__always) static func weight(_ alpha: Double) -> UInt32 {
        guard alpha > 0 else { return 0 }  // also catches NaN
        guard alpha < 1 else { return 255 }
        return UInt32((alpha * 255).rounded())
    }

    /// `src` over opaque `dst` with `alpha` in 0...255; the result is opaque.
    @inline(__always) static func over(_ src: Color, _ dst: Color, alpha: UInt32) -> Color {
        if alpha >= 255 { return Color(r: src.r, g: src.g, b: src.b) }
        let inv = 255 &- alpha
        return Color(
            r: UInt8(truncatingIfNeeded: div255(UInt32(src.r) &* alpha &+ UInt32(dst.r) &* inv)),
            g: UInt8(truncatingIfNeeded: div255(UInt32(src.g) &* alpha &+ UInt32(dst.g) &* inv)),
            b: UInt8(truncatingIfNeeded: div255(UInt32(src.b) &* alpha &+ UInt32(dst.b) &* inv))
        )
    }

    /// Channel-wise product, for tinting: white leaves a colour unchanged.
    @inline(__always) static func multiply(_ x: Color, _ tint: Color) -> Color {
        Color(
            r: UInt8(truncatingIfNeeded: div255(UInt32(x.r) &* UInt32(tint.r))),
            g: UInt8(truncatingIfNeeded: div255(UInt32(x.g) &* UInt32(tint.g))),
            b: UInt8(truncatingIfNeeded: div255(UInt32(x.b) &* UInt32(tint.b))),
            a: UInt8(truncatingIfNeeded: div255(UInt32(x.a) &* UInt32(tint.a)))
        )
    }

    /// The mean of two colours, rounded half up: what a text cell sits on when its two
    /// pixels differ.
    @inline(__always) static func mean(_ x: Color, _ y: Color) -> Color {
        Color(
            r: UInt8(truncatingIfNeeded: (UInt32(x.r) &+ UInt32(y.r) &+ 1) >> 1),
            g: UInt8(truncatingIfNeeded: (UInt32(x.g) &+ UInt32(y.g) &+ 1) >> 1),
            b: UInt8(truncatingIfNeeded: (UInt32(x.b) &+ UInt32(y.b) &+ 1) >> 1)
        )
    }
}
